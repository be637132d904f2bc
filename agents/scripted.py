"""Scripted heuristic bot: a sensible baseline for the infantry firefight.

Doctrine:
- Initiative: go first.
- Activation order: units with the best shot first, then suppressed units (to recover), then the
  rest, nearest to the enemy first.
- Each action: a suppressed unit recovers; a unit with a worthwhile shot shoots the target with
  the best expected effect (casualties first, then suppression of unsuppressed enemies); an
  unsuppressed unit with nothing to shoot treats wounded (its own first); otherwise
  it advances toward its objective, preferring move options that end in cover; a unit on its
  objective or in cover with nothing to shoot props.
- Objectives are shared out greedily (nearest unit first) so every objective gets a squad.
- A unit held more than 3" off an objective the enemy stands on by the Two Inch Rule reorganises its leader onto it
  (agents/contest.py).

It decides only from what its side may know (:class:`agents.knowledge.Knowledge`: own units, the enemy
units not hidden, the table) through the legal-option API plus read-only previews (``fire_plan``).
"""
from __future__ import annotations

import math
from functools import lru_cache

from dustup_env.rules.kernel.dice import die_max, die_sides
from dustup_env.rules.kernel.entities import BROKEN, ROUTED
from dustup_env.rules.unit_actions.move_action import nominated_point

from .aerospace import AerospaceDoctrine
from .armour import VehicleDoctrine
from .base import GuardedAgent, register
from .buildings import BuildingDoctrine
from .contest import ContestDoctrine
from .electronic_warfare import EWDoctrine
from .fire_support import FireSupportDoctrine
from .smoke import SmokeDoctrine
from .reactions import ReactionDoctrine
from .mines import MinesDoctrine


@lru_cache(maxsize=65536)
def shot_value(quality: int, firepower: tuple, target: int, impact: int, armour: int) -> tuple[float, float]:
    """(P(at least one success), expected wounds+kills) -- a quick analytic estimate for scoring.

    Exact per target roll for the success count; the hit count uses the expected dice total.
    """
    ts = die_sides(target)
    tmax = die_max(target)
    dice = (quality,) + firepower
    p_any = 0.0
    e_hits = 0.0
    for t in range(1, ts + 1):
        ps = [max(0.0, (die_sides(d) - t) / die_sides(d)) for d in dice]
        # distribution of the number of successes
        dist = [1.0]
        for p in ps:
            nd = [0.0] * (len(dist) + 1)
            for k, q in enumerate(dist):
                nd[k] += q * (1 - p)
                nd[k + 1] += q * p
            dist = nd
        p_major = sum(dist[2:])
        p_any += (1 - dist[0]) / ts
        mean_total = sum((die_sides(d) + 1) / 2 for d in dice)
        e_hits += p_major * (mean_total / tmax) / ts
    ia, aa = die_sides(impact), die_sides(armour)
    p_wound = sum(1 for i in range(1, ia + 1) for a in range(1, aa + 1) if i > a) / (ia * aa)
    return p_any, e_hits * p_wound


ASSAULT_KINDS = ("assault_response", "assault_follow_up", "final_defensive_fire", "second_move")


class ScriptedAgent(ContestDoctrine, ReactionDoctrine, EWDoctrine, MinesDoctrine, BuildingDoctrine, FireSupportDoctrine,
                    AerospaceDoctrine, SmokeDoctrine, VehicleDoctrine, GuardedAgent):
    name = "scripted"
    _goals = None
    _game_id = None  # the game (Knowledge.game_token) the goals belong to

    def reset(self, seed=None):
        super().reset(seed)
        self._goals = None
        self._game_id = None

    def _goal(self, k, u):
        if self._goals is None or self._game_id is not k.game_token:
            self._game_id = k.game_token
            self._goals = {}
            objs = [(ox, oy) for _, ox, oy, _ in k.objectives] or [(k.bf.width / 2, k.bf.height / 2)]
            squads = sorted(k.own_units, key=lambda m: (m.kind == "hq", m.uid))
            taken = {}
            for m in squads:
                # the least-covered objective, then the nearest
                best = min(range(len(objs)), key=lambda j: (taken.get(j, 0),
                                                            math.hypot(objs[j][0] - m.x, objs[j][1] - m.y)))
                taken[best] = taken.get(best, 0) + 1
                self._goals[m.uid] = objs[best]
        return self._bd_goal(k, u, self._goals.get(u.uid, (k.bf.width / 2, k.bf.height / 2)))  # a building there

    # ---------------------------------------------------------------- scoring
    @staticmethod
    def _shot_odds(k, uid, opt):
        """``(p_any, e_cas)`` of a shoot option (no casualties from suppressive fire), or None if it cannot fire."""
        plan = k.fire_plan(uid, opt[1], opt[2])
        if plan is None:
            return None
        p_any, e_cas = shot_value(plan["quality"], tuple(plan["firepower"]), plan["target_die"], plan["impact"],
                                  plan["armour"])
        return p_any, (0.0 if opt[2] == "suppressive" else e_cas)

    def _shot_score(self, k, uid, opt):
        odds = self._shot_odds(k, uid, opt)
        if odds is None:
            return -1.0
        p_any, e_cas = odds
        t = k.units[opt[1]]
        mode = opt[2]
        sup_value = p_any * (1.0 if t.suppression == 0 else 0.35 if t.suppression < 3 else 0.0)
        score = 3.0 * e_cas + sup_value
        if mode in ("half", "small_arms", "support"):
            score *= 0.8  # keep weapons for a second shot only when it pays
        return score

    SHOT_THRESHOLD = 0.15

    def _best_shot(self, k, d):
        best, bs = None, self.SHOT_THRESHOLD
        for opt in d.options:
            if opt[0] == "shoot":
                s = self._shot_score(k, d.unit, opt)
                if s > bs:
                    best, bs = opt, s
        return best, bs

    # ---------------------------------------------------------------- decisions
    def decide(self, k, d):
        if d.kind == "initiative":
            return ("first",)
        fs = self._fs_decide(k, d)  # fire support (agents/fire_support.py): None without its options
        if fs is not None:
            return fs
        air = self._air_decide(k, d)  # aircraft and anti-aircraft fire (agents/aerospace.py): None without them
        if air is not None:
            return air
        mine, d = self._mines_decide(k, d)  # mines and explosives (agents/mines.py): known minefields avoided
        if mine is not None:
            return mine
        bd = self._bd_decide(k, d)  # buildings (agents/buildings.py): None without their options
        if bd is not None:
            return bd
        ew = self._ew_decide(k, d)  # electronic warfare and drones (agents/electronic_warfare.py)
        if ew is not None:
            return ew
        ct = self._contest_decide(k, d)  # an objective the enemy stands on (agents/contest.py)
        if ct is not None:
            return ct
        if d.kind == "activate":
            return self._choose_unit(k, d)
        if d.kind == "seize":  # Seize the Initiative: keep the tokens
            return ("decline",)
        if d.kind in ASSAULT_KINDS:
            va = self._vehicle_assault_response(k, d)  # an assaulted vehicle (agents/armour.py)
            return va if va is not None else self._assault_answer(k, d)
        rx = self._rx_decide(k, d)  # reactions and interrupts (agents/reactions.py): None for other decisions
        if rx is not None:
            return rx
        if d.kind != "action":  # procedure decisions (promotion, choosing units): the first real choice
            for o in d.options:
                if o[0] not in ("decline", "end", "hold_fire"):
                    return o
            return d.options[0]
        return self._choose_action(k, d)

    def _command(self, k, d):
        """A commander rallies shaken/broken/routed units first, then orders a unit that has a good shot."""
        best, bs = None, 0.0
        for o in d.options:
            if o[0] == "rally":
                v = k.units[o[1]]
                s = 10.0 + v.confidence
                if v.confidence >= 2 and s > bs:  # shaken or worse
                    best, bs = o, s
        if best is not None:
            return best
        for o in d.options:
            if o[0] != "order":
                continue
            v = k.units[o[1]]
            if v.suppression or v.leader_lost or v.confidence >= BROKEN:
                continue
            near = 1e9
            for e in k.enemy_units:
                dd = math.hypot(e.x - v.x, e.y - v.y)
                if dd < near and dd <= 36.0 and k.bf.has_los(v.x, v.y, e.x, e.y):
                    near = dd
            s = 0.0 if near >= 1e9 else 1.0 + (36.0 - near) / 36.0 + (0.5 if not v.activated else 0.0)
            if s > bs:
                best, bs = o, s
        return best

    @staticmethod
    def _assault_answer(k, d):
        """Assault decisions: stand unless outnumbered 2:1 or worse; press on to contact; fire with all."""
        opts = d.options
        if d.kind == "assault_response" and ("withdraw",) in opts:
            u = k.units[d.unit]
            enemy = sum(k.units[a].n_able() for a in k.assault_enemies(u.uid))
            if enemy >= 2 * max(1, u.n_able()) or ("stand",) not in opts:
                return ("withdraw",)
            return ("stand",)
        for pref in (("fire", "all"), ("contact",), ("stand",)):
            if pref in opts:
                return pref
        fire = [o for o in opts if o[0] == "fire"]
        return fire[0] if fire else opts[0]

    def _choose_unit(self, k, d):
        v = self._vehicle_activation(k, d)
        if v is not None:
            return v
        best, bscore = None, -1e9
        for opt in d.options:
            if opt[0] != "activate":
                continue
            u = k.units[opt[1]]
            score = 0.0
            if u.suppression and u.confidence != ROUTED:
                score += 1.0
            # rough shot quality: nearest visible enemy distance
            near = 1e9
            for e in k.enemy_units:
                dd = math.hypot(e.x - u.x, e.y - u.y)
                if dd < near and k.bf.has_los(u.x, u.y, e.x, e.y):
                    near = dd
            if near < 1e9 and not u.suppression:
                score += 2.0 + max(0.0, 48.0 - near) / 24.0
            score -= u.uid * 1e-3
            if score > bscore:
                best, bscore = opt, score
        return best if best is not None else d.options[0]

    def _choose_action(self, k, d):
        opts = d.options
        if len(opts) == 1:
            return opts[0]
        u = k.units[d.unit]
        names = {o[0] for o in opts}
        if ("reorganise", "leader") in opts:
            return ("reorganise", "leader")
        if self._vehicle_game(k, d) and (u.profile.vehicle is not None or u.veh.carrier >= 0):
            va = self._vehicle_action(k, d, u)  # vehicles and passengers (agents/armour.py)
            if va is not None:
                return va
        if "recover" in names:
            return ("recover",)
        if "rally" in names or "order" in names:
            cmd = self._command(k, d)
            if cmd is not None:
                return cmd
        va, d = self._vehicle_step(k, d, u)  # vehicles, passengers, anti-armour weapons (agents/armour.py)
        if va is not None:
            return va
        opts = d.options
        names = {o[0] for o in opts}
        shot, score = self._best_shot(k, d)
        if shot is not None:
            return shot
        if u.suppression == 0:  # not under fire: treat the wounded (own unit first)
            for o in opts:
                if o[0] == "treat" and o[1] == u.uid:
                    return o
            for o in opts:
                if o[0] == "treat":
                    return o
        if "detect" in names:  # nothing to shoot at: try to find a hidden enemy
            return next(o for o in opts if o[0] == "detect")
        bf = k.bf
        gx, gy = self._goal(k, u)
        dist_goal = math.hypot(gx - u.x, gy - u.y)
        in_cover = bf.in_cover(u.x, u.y)
        if dist_goal <= 2.5 or (u.confidence >= BROKEN and in_cover):
            if ("prop",) in opts:
                return ("prop",)
            return ("end",)
        if ("unprop",) in opts:
            return ("unprop",)
        if ("reorganise", "rearrange") in opts:
            return ("reorganise", "rearrange")
        best, bscore = None, -1e9
        for o in opts:
            if o[0] != "move":
                continue
            px, py = nominated_point(u, o[1], o[2])
            dd = math.hypot(gx - px, gy - py)
            score = -dd
            if bf.in_cover(px, py):
                score += 2.0
            if bf.move_cost(px, py) != 1:
                score -= 1.0
            risk = self._shock_risk(k, u, px, py)  # enemy vehicles only (agents/armour.py)
            if risk:
                score -= 2.0 * risk
            if score > bscore:
                best, bscore = o, score
        if best is not None and bscore > -dist_goal + 0.5:
            sm = self._smoke_decide(k, d, u, best)  # smoke before crossing open ground (agents/smoke.py)
            return best if sm is None else sm
        if ("prop",) in opts:
            return ("prop",)
        return ("end",) if ("end",) in opts else opts[0]


register("scripted", ScriptedAgent)
