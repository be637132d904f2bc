"""The scripted ladder: graded opponents with distinct doctrines (docs/agents.md has the measured results).

- ``easy``: naive.  Shoots the nearest visible enemy with every weapon; otherwise walks straight at
  the nearest objective; recovers when suppressed; never props, never seeks cover, never gives an
  order; activates its units in list order and stands and fights in every procedure decision.
- ``medium``: the ``scripted`` bot.  Expected-value shooting (casualties first, then suppressing
  unsuppressed enemies), recovers suppression, advances cover to cover, props on its objective,
  orders squads that have an enemy in sight and rallies shaken units.
- ``hard`` (agents/hard.py): medium plus command (the HQ activates first and orders every
  activation), a cheapest objective assignment, focused fire (last figures of a unit, commanders,
  units that have not yet activated), exposure-aware movement and end-game objective play.
- ``defensive``: a different style: holds the objectives nearest its own table edge from cover,
  props there, shoots at anything worth shooting, advances only when nothing is in sight; its HQ
  commands like hard's.

All are deterministic (no randomness at all), use only the legal-option API, and fall back to a safe
legal option on a decision they do not know (agents/base.py ``GuardedAgent``).
"""
from __future__ import annotations

import math

from dustup_env.rules.unit_actions.move_action import nominated_point

from .base import AGENTS, GuardedAgent
from .hard import CommandMixin, HardAgent
from .scripted import ScriptedAgent


def _dist(a, b) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


class EasyAgent(GuardedAgent):
    name = "easy"

    def decide(self, game, d):
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
        u = game.units[d.unit]
        if ("recover",) in opts:
            return ("recover",)
        shots = [o for o in opts if o[0] == "shoot" and len(o) > 2 and o[2] == "all"]
        if shots:
            return min(shots, key=lambda o: (_dist(u, game.units[o[1]]), o[1]))
        objs = [(ox, oy) for _, ox, oy, _ in game.objectives] or [(game.bf.width / 2, game.bf.height / 2)]
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


class DefensiveAgent(CommandMixin, ScriptedAgent):
    name = "defensive"

    def _choose_unit(self, game, d):
        return self._hq_first(game, d) or super()._choose_unit(game, d)

    def _goal(self, game, u):
        if self._goals is None or self._game_id != id(game):
            self._game_id = id(game)
            self._goals = {}
            objs = [(ox, oy) for _, ox, oy, _ in game.objectives] or [(game.bf.width / 2, game.bf.height / 2)]
            hx, hy = game.home_point(u)
            # the half of the objectives nearest the home edge, at least one
            objs = sorted(objs, key=lambda p: math.hypot(p[0] - hx, p[1] - hy))[: max(1, (len(objs) + 1) // 2)]
            mine = sorted((game.units[i] for i in game.side_units[u.side]), key=lambda m: m.uid)
            for k, m in enumerate(mine):
                self._goals[m.uid] = objs[k % len(objs)]
        return self._goals.get(u.uid, (game.bf.width / 2, game.bf.height / 2))

    def _choose_action(self, game, d):
        opts = d.options
        if len(opts) == 1:
            return opts[0]
        u = game.units[d.unit]
        if any(o[0] in ("order", "rally") for o in opts):
            cmd = self._command(game, d)
            if cmd is not None:
                return cmd
        if ("recover",) in opts:
            return ("recover",)
        shot, _ = self._best_shot(game, d)
        if shot is not None:
            return shot
        gx, gy = self._goal(game, u)
        if math.hypot(gx - u.x, gy - u.y) <= 6.0 and game.bf.in_cover(u.x, u.y):
            return ("prop",) if ("prop",) in opts else ("end",) if ("end",) in opts else opts[0]
        return super()._choose_action(game, d)


AGENTS.update(easy=EasyAgent, medium=MediumAgent, hard=HardAgent, defensive=DefensiveAgent)
