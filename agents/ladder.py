"""The scripted ladder: graded opponents with distinct doctrines (docs/agents.md has the measured results).

- ``easy``: naive.  Shoots the nearest visible enemy with every weapon; otherwise walks straight at
  the nearest objective; recovers when suppressed; never props, never seeks cover, never gives an
  order; activates its units in list order and stands and fights in every procedure decision.
- ``medium``: the ``scripted`` bot, its HQ making for the objective nearest it (``scripted``'s makes for the
  least-covered one, like a squad: on ``breach`` the defenders' HQ walked across open ground to the far objective
  and was shot); in a game without vehicles its squads are shared out by the objectives' points (an objective worth
  2 gets two squads before one worth 1 gets a second; ``scripted`` gives each one before any gets two).
  Expected-value shooting (casualties first, then suppressing unsuppressed enemies), recovers
  suppression, advances cover to cover, props on its objective, orders squads that have an enemy in sight and
  rallies shaken units.
- ``hard`` (agents/hard.py): medium plus command (the HQ activates first and orders every
  activation), a cheapest objective assignment, focused fire (last figures of a unit, commanders,
  units that have not yet activated), exposure-aware movement and end-game objective play.
- ``defensive``: a different style: holds the objectives nearest its own table edge from cover,
  props there, shoots at anything worth shooting, advances only when nothing is in sight; its HQ
  commands like hard's.  With vehicles (agents/armour.py ``HOLD``): squads dismount early and the
  vehicles hold hull-down positions by those objectives.

All are deterministic (no randomness at all), decide only from what their side may know
(agents/knowledge.py ``Knowledge``) through the legal-option API, and fall back to a safe legal option on a
decision they do not know (agents/base.py ``GuardedAgent``).
"""
from __future__ import annotations

import math

from dustup_env.rules.unit_actions.move_action import nominated_point

from .armour import VehicleDoctrine
from .base import GuardedAgent, register
from .hard import CommandMixin, HardAgent
from .scripted import ScriptedAgent


def _dist(a, b) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


class EasyAgent(VehicleDoctrine, GuardedAgent):
    name = "easy"
    SMART_FIRE = False  # vehicles and rockets fire at the nearest target they may
    ROUTES = False  # vehicles drive straight at the nearest objective
    CLOSE_ASSAULT = False  # no close assaults on vehicles, no thought of being tank-shocked
    AVOID_SHOCK = 0.0

    def _goal(self, k, u):
        objs = [(ox, oy) for _, ox, oy, _ in k.objectives] or [(k.bf.width / 2, k.bf.height / 2)]
        return min(objs, key=lambda p: math.hypot(p[0] - u.x, p[1] - u.y))

    def _best_shot(self, k, d):
        shots = [o for o in d.options if o[0] == "shoot" and len(o) > 2 and o[2] == "all"]
        return (shots[0], 1.0) if shots else (None, 0.0)

    def decide(self, k, d):
        opts = d.options
        if d.kind == "initiative":
            return ("first",)
        if d.kind == "activate":
            for o in opts:
                if o[0] == "activate":
                    return o
            return opts[0]
        if d.kind != "action":
            return _first_of(opts, ("stand",), ("contact",), ("fire", "all"), ("decline",)) or opts[0]
        if len(opts) == 1:
            return opts[0]
        u = k.units[d.unit]
        if self._vehicle_game(k, d) and (u.profile.vehicle is not None or u.veh.carrier >= 0):
            va = self._vehicle_action(k, d, u)  # vehicles and passengers (agents/armour.py)
            if va is not None:
                return va
        if ("recover",) in opts:
            return ("recover",)
        va, d = self._vehicle_step(k, d, u)  # vehicles, passengers, anti-armour weapons (agents/armour.py)
        if va is not None:
            return va
        opts = d.options
        shots = [o for o in opts if o[0] == "shoot" and len(o) > 2 and o[2] == "all"]
        if shots:
            return min(shots, key=lambda o: (_dist(u, k.units[o[1]]), o[1]))
        objs = [(ox, oy) for _, ox, oy, _ in k.objectives] or [(k.bf.width / 2, k.bf.height / 2)]
        gx, gy = min(objs, key=lambda p: math.hypot(p[0] - u.x, p[1] - u.y))
        if math.hypot(gx - u.x, gy - u.y) <= 2.5:
            return ("end",) if ("end",) in opts else opts[0]
        moves = [o for o in opts if o[0] == "move" and len(o) > 2]
        if ("unprop",) in opts:
            return ("unprop",)
        if moves:
            return min(moves, key=lambda o: (math.hypot(gx - nominated_point(u, o[1], o[2])[0],
                                                        gy - nominated_point(u, o[1], o[2])[1]), o))
        return ("end",) if ("end",) in opts else opts[0]


def _first_of(opts, *wanted):
    for w in wanted:
        if w in opts:
            return w
    return None


class MediumAgent(ScriptedAgent):
    name = "medium"
    HQ_NEAREST = True  # the HQ makes for the objective nearest it (False: the least-covered one, as a squad)
    VP_SHARE = True  # infantry games: squads shared out by the objectives' points (False: scripted's, one each)

    def _goal(self, k, u):
        if self.HQ_NEAREST and u.kind == "hq" and k.objectives:
            near = min(((ox, oy) for _, ox, oy, _ in k.objectives),
                       key=lambda p: (math.hypot(p[0] - u.x, p[1] - u.y), p))
            return self._bd_goal(k, u, near)  # a building there (agents/buildings.py)
        if self.VP_SHARE and k.objectives and not self._vehicles(k):
            if self._goals is None or self._game_id is not k.game_token:
                self._game_id = k.game_token
                self._goals = {}
                objs = [(ox, oy, max(1, v)) for _, ox, oy, v in k.objectives]
                taken = [0] * len(objs)
                for m in sorted(k.own_units, key=lambda m: (m.kind == "hq", m.uid)):
                    j = min(range(len(objs)), key=lambda j: (taken[j] / objs[j][2],
                                                            math.hypot(objs[j][0] - m.x, objs[j][1] - m.y)))
                    taken[j] += 1
                    self._goals[m.uid] = objs[j][:2]
            return self._bd_goal(k, u, self._goals.get(u.uid, (k.bf.width / 2, k.bf.height / 2)))
        return super()._goal(k, u)

    @staticmethod
    def _vehicles(k) -> bool:
        return any(m.profile.vehicle is not None for m in k.own_units)


class DefensiveAgent(CommandMixin, ScriptedAgent):
    name = "defensive"
    HOLD = True  # vehicles hold hull-down positions by the side's objectives, squads dismount early (agents/armour.py)
    CAUTIOUS = True  # vehicles keep out of rocket range and turn their front armour to enemy vehicles

    def _choose_unit(self, k, d):
        return self._hq_first(k, d) or super()._choose_unit(k, d)

    def _goal(self, k, u):
        if self._goals is None or self._game_id is not k.game_token:
            self._game_id = k.game_token
            self._goals = {}
            objs = [(ox, oy) for _, ox, oy, _ in k.objectives] or [(k.bf.width / 2, k.bf.height / 2)]
            hx, hy = k.home_point(u)
            # the half of the objectives nearest the home edge, at least one
            objs = sorted(objs, key=lambda p: math.hypot(p[0] - hx, p[1] - hy))[: max(1, (len(objs) + 1) // 2)]
            mine = sorted(k.own_units, key=lambda m: m.uid)
            for j, m in enumerate(mine):
                self._goals[m.uid] = objs[j % len(objs)]
        return self._goals.get(u.uid, (k.bf.width / 2, k.bf.height / 2))

    def _choose_action(self, k, d):
        opts = d.options
        if len(opts) == 1:
            return opts[0]
        u = k.units[d.unit]
        if any(o[0] in ("order", "rally") for o in opts):
            cmd = self._command(k, d)
            if cmd is not None:
                return cmd
        if ("recover",) in opts:
            return ("recover",)
        if self._vehicle_game(k, d):
            return super()._choose_action(k, d)  # the vehicle doctrine, then medium's
        shot, _ = self._best_shot(k, d)
        if shot is not None:
            return shot
        gx, gy = self._goal(k, u)
        if math.hypot(gx - u.x, gy - u.y) <= 6.0 and k.bf.in_cover(u.x, u.y):
            return ("prop",) if ("prop",) in opts else ("end",) if ("end",) in opts else opts[0]
        return super()._choose_action(k, d)


for _name, _cls in (("easy", EasyAgent), ("medium", MediumAgent), ("hard", HardAgent), ("defensive", DefensiveAgent)):
    register(_name, _cls)
