"""The ``hard`` ladder bot: medium's expected-value shooting plus command, focus and position play.

Doctrine (each part measured against the previous version in paired games, docs/agents.md):

- Command: the platoon HQ spends its actions ordering the subordinate that gains most from an
  ordered activation (two extra actions: a suppressed unit recovers, a unit with a target shoots
  again, a unit short of its objective moves); it rallies shaken or worse units first.  The HQ
  itself stays back, in cover and out of sight where it can.
- Objectives: the squads are shared out over the objectives by the cheapest assignment (distance,
  value); in the last turns every unit makes sure of the objective it can reach and contests the
  enemy's.
- Fire: expected casualties and suppression from the exact per-target-roll model, weighted by the
  target: units close to destruction (a victory point), commanders, unsuppressed units that have
  not yet activated this turn (suppress-then-manoeuvre), units on objectives.
- Movement: every candidate point is scored for progress to the objective, cover, exposure to the
  enemy's fire (line of sight, range, concealment, cover) and a shot from there.
- Close assault only with good odds on a beaten enemy; procedure decisions by the odds.

Deterministic (no randomness), uses only the legal-option API and read-only previews.
"""
from __future__ import annotations

import itertools
import math

from dustup_env.rules.data import armoury
from dustup_env.rules.dice import D4, D6, D8, D10, D12, die_sides
from dustup_env.rules.forces import BROKEN, OK, ROUTED, SHAKEN, STEADY
from dustup_env.rules.move_action import DIR_VECTORS, DISTANCES
from dustup_env.rules.shoot_action import SHORT_RANGE, armour_die, small_arms_die

from .scripted import ScriptedAgent, shot_value, _assault_enemies

_WEAPONS, _ARMOURS = armoury()
OBJ_R = 3.0  # objective radius (game.OBJECTIVE_RADIUS)
HOLD_R = 2.5  # aim a little inside it


def _d(ax, ay, bx, by) -> float:
    return math.hypot(ax - bx, ay - by)


def _unit_guns(u):
    """(quality, firepower dice, impact, max range) of a unit firing everything (cached per state)."""
    sa_fp = 0.0
    sup = []
    impact_sa = None
    impact_sup = None
    rng = 0.0
    for f in u.figures:
        if f.status != OK:
            continue
        w = _WEAPONS.get(f.weapon)
        if w is None:
            continue
        r = w.max_range or 72.0
        rng = max(rng, r)
        if w.cls == "small_arms":
            if w.max_range and w.max_range <= SHORT_RANGE:
                continue  # pistols: close range only, ignored for threat
            sa_fp += w.fp
            impact_sa = w.impact if impact_sa is None else min(impact_sa, w.impact)
        elif w.cls == "support":
            sup.append(w.fp_die)
            impact_sup = w.impact if impact_sup is None else min(impact_sup, w.impact)
    fp = []
    sd = small_arms_die(sa_fp)
    if sd is not None:
        fp.append(sd)
    fp.extend(sup)
    impact = impact_sa if impact_sa is not None else (impact_sup if impact_sup is not None else D6)
    return u.quality, tuple(fp), impact, rng


class HardAgent(ScriptedAgent):
    name = "hard"

    # switches for measured A/B variants (all on in the ladder's ``hard``)
    ORDERS = True
    ASSIGN = True
    FOCUS = True
    POSITION = True
    ENDGAME = True
    HQ_HIDE = True
    ASSAULTS = False  # measured worse: 0.68 with, 0.725 without against medium (600 games)

    def reset(self, seed=None):
        super().reset(seed)
        self._gid = None
        self._assign = {}
        self._guns = {}

    # ------------------------------------------------------------------ per game
    def _setup(self, game, side):
        if self._gid == id(game):
            return
        self._gid = id(game)
        self._goals = None
        self._game_id = None
        self._assign = {}
        self._guns = {}
        objs = [(ox, oy, v) for _, ox, oy, v in game.objectives]
        if not objs:
            return
        for s in (0, 1):
            squads = [game.units[i] for i in game.side_units[s] if game.units[i].kind != "hq"]
            self._assign.update(self._assignment(squads, objs))

    @staticmethod
    def _assignment(units, objs) -> dict:
        """Cheapest unit -> objective assignment: every objective covered once, extra units doubled up."""
        out = {}
        if not units:
            return out
        k = len(objs)
        if len(units) <= 6 and k <= 6:
            best, bc = None, 1e18
            slots = list(range(k)) * ((len(units) + k - 1) // k)
            for perm in itertools.permutations(range(len(slots)), len(units)):
                # each unit takes one slot; a slot index >= k is a second unit on that objective
                cost = 0.0
                for u, si in zip(units, perm):
                    ox, oy, v = objs[slots[si] % k]
                    cost += _d(u.x, u.y, ox, oy) - 4.0 * v + (8.0 if si >= k else 0.0)
                if cost < bc - 1e-9:
                    best, bc = perm, cost
            for u, si in zip(units, best):
                out[u.uid] = slots[si] % k
            return out
        taken = {}
        for u in sorted(units, key=lambda m: m.uid):
            j = min(range(k), key=lambda j: (taken.get(j, 0), _d(u.x, u.y, objs[j][0], objs[j][1])))
            taken[j] = taken.get(j, 0) + 1
            out[u.uid] = j
        return out

    def _goal(self, game, u):
        if not self.ASSIGN:
            return super()._goal(game, u)
        self._setup(game, u.side)
        j = self._assign.get(u.uid)
        if j is None or not game.objectives:
            return super()._goal(game, u)
        _, ox, oy, _ = game.objectives[j]
        return ox, oy

    def _guns_of(self, game, e):
        key = (e.uid, tuple(f.status for f in e.figures))
        g = self._guns.get(key)
        if g is None:
            if len(self._guns) > 4096:
                self._guns.clear()
            g = self._guns[key] = _unit_guns(e)
        return g

    # ------------------------------------------------------------------ decisions
    def decide(self, game, d):
        self._setup(game, d.side)
        if d.kind == "initiative":
            if self.LAST_SECOND and game.turn >= game.turn_limit and ("second",) in d.options:
                return ("second",)
            return ("first",) if ("first",) in d.options else d.options[0]
        if d.kind == "promote":
            return self._promote(game, d)
        if d.kind == "final_defensive_fire":
            return self._dfire(game, d)
        return super().decide(game, d)

    def _promote(self, game, d):
        best, bs = None, -1e9
        for o in d.options:
            if o[0] != "choose":
                continue
            v = game.units[o[1]]
            s = v.n_able() - 2.0 * v.suppression - v.confidence + (2.0 if game.bf.in_cover(v.x, v.y) else 0.0)
            if s > bs:
                best, bs = o, s
        return best if best is not None else d.options[0]

    def _dfire(self, game, d):
        fire = [o for o in d.options if o[0] == "fire"]
        if not fire:
            return d.options[0]
        return ("fire", "all") if ("fire", "all") in fire else fire[0]

    # --- command
    def _command(self, game, d):
        if not self.ORDERS:
            return super()._command(game, d)
        units = game.units
        best, bs = None, 0.0
        for o in d.options:
            if o[0] == "rally":
                v = units[o[1]]
                if v.confidence >= self.RALLY_AT:
                    s = 3.0 + v.confidence
                    if s > bs:
                        best, bs = o, s
        if best is not None:
            return best
        for o in d.options:
            if o[0] != "order":
                continue
            v = units[o[1]]
            if v.leader_lost or v.confidence >= BROKEN or v.panicked:
                continue
            s = self._order_value(game, v)
            if s > bs:
                best, bs = o, s
        return best

    ORDER_VALUE = "simple"

    def _order_value(self, game, v) -> float:
        if self.ORDER_VALUE == "fire":
            if v.suppression:
                return 1.0 + 0.3 * v.suppression
            s = 0.3 + self._fire_value(game, v, v.x, v.y)
            if v.kind != "hq":
                gx, gy = self._goal(game, v)
                if _d(v.x, v.y, gx, gy) > HOLD_R:
                    s += 0.6
            return s
        s = 0.5
        if v.suppression:
            s += 1.0 + 0.3 * v.suppression
        else:
            near = self._nearest_visible(game, v, 36.0)
            if near is not None:
                s += 1.0 + (36.0 - near) / 36.0
            elif v.kind != "hq":
                gx, gy = self._goal(game, v)
                if _d(v.x, v.y, gx, gy) > HOLD_R:
                    s += 0.6
        if v.kind == "hq":
            s -= 0.4
        return s

    @staticmethod
    def _nearest_visible(game, v, limit):
        near = None
        for e in game._enemy_units(v.side):
            dd = _d(e.x, e.y, v.x, v.y)
            if dd <= limit and (near is None or dd < near) and game.bf.has_los(v.x, v.y, e.x, e.y):
                near = dd
        return near

    # --- fire
    def _shot_score(self, game, uid, opt):
        s = super()._shot_score(game, uid, opt)
        if not self.FOCUS or s <= 0:
            return s
        t = game.units[opt[1]]
        n = max(1, t.n_able())
        plan = game.fire_plan(uid, opt[1], opt[2])
        if plan is None:
            return -1.0
        p_any, e_cas = shot_value(plan["quality"], tuple(plan["firepower"]), plan["target_die"], plan["impact"],
                                  plan["armour"])
        if opt[2] == "suppressive":
            e_cas = 0.0
        cas_value = 1.0 + 2.0 / n  # the last figures of a unit are worth a victory point
        if t.kind == "hq":
            cas_value += 0.5
        if self._on_objective(game, t):
            cas_value += 0.3
        if t.suppression == 0:
            sup_value = 1.0 + (0.4 if not t.activated else 0.0)
        elif t.suppression < 3:
            sup_value = 0.5 / t.suppression
        else:
            sup_value = 0.0
        if t.confidence >= ROUTED:
            sup_value *= 0.2
        score = 3.0 * e_cas * cas_value + p_any * sup_value
        if opt[2] in ("half", "small_arms", "support"):
            score *= 0.8
        return score

    @staticmethod
    def _on_objective(game, t) -> bool:
        for _, ox, oy, _ in game.objectives:
            if _d(t.x, t.y, ox, oy) <= OBJ_R:
                return True
        return False

    # --- activation order
    ACT_ORDER = "hq_first"
    PROP_ALWAYS = False
    TREAT = False  # no treatment (an action on a 1-in-3 chance of killing the wounded): 0.51 against treating
    CONCEAL = False
    LAST_SECOND = False
    RALLY_AT = ROUTED  # rallying only routed units: 0.54 against rallying broken ones, 0.57 against shaken (600 games)

    def _choose_unit(self, game, d):
        mode = self.ACT_ORDER
        acts = [o for o in d.options if o[0] == "activate"]
        if not acts:
            return d.options[0]
        units = game.units
        if mode in ("hq_first", "hq_last"):
            hq = [o for o in acts if units[o[1]].kind == "hq"]
            rest = [o for o in acts if units[o[1]].kind != "hq"]
            if mode == "hq_first" and hq:
                return hq[0]
            if mode == "hq_last" and rest:
                return super()._choose_unit(game, type(d)(d.side, d.kind, d.unit, tuple(rest)))
            return super()._choose_unit(game, d)
        if mode == "value":
            best, bs = None, -1e9
            for o in acts:
                u = units[o[1]]
                s = self._activation_value(game, u) - u.uid * 1e-3
                if s > bs:
                    best, bs = o, s
            return best
        return super()._choose_unit(game, d)

    def _activation_value(self, game, u) -> float:
        if u.kind == "hq":
            return 5.0
        if u.suppression:
            return 0.5 + 0.2 * u.suppression
        best = 0.0
        for e in game._enemy_units(u.side):
            if e.confidence >= ROUTED:
                continue
            dd = _d(u.x, u.y, e.x, e.y)
            if dd > 48.0 or not game.bf.has_los(u.x, u.y, e.x, e.y):
                continue
            v = 2.0 + (48.0 - dd) / 24.0
            if e.suppression == 0:
                v += 1.0 + (0.5 if not e.activated else 0.0)
            best = max(best, v)
        return best

    # --- actions
    def _choose_action(self, game, d):
        opts = d.options
        if len(opts) == 1:
            return opts[0]
        u = game.units[d.unit]
        for forced in (("reorganise", "assume_command"), ("reorganise", "leader"), ("panic_test",)):
            if forced in opts:
                return forced
        names = {o[0] for o in opts}
        is_cmd = "order" in names or "rally" in names
        if is_cmd:
            cmd = self._command(game, d)
            if cmd is not None:
                return cmd
        if "recover" in names:
            return ("recover",)
        if self.ASSAULTS and "assault" in names:
            a = self._assault_choice(game, u, opts)
            if a is not None:
                return a
        if u.kind == "hq" and self.HQ_HIDE:
            return self._hq_action(game, d, u)
        if self.ENDGAME:
            eg = self._endgame(game, d, u)
            if eg is not None:
                return eg
        if not self.POSITION:
            return super()._choose_action(game, d)
        shot, score = self._best_shot(game, d)
        if shot is not None:
            return shot
        if u.suppression == 0 and self.TREAT:
            for o in opts:
                if o[0] == "treat" and o[1] == u.uid:
                    return o
        if "detect" in names:
            return next(o for o in opts if o[0] == "detect")
        return self._manoeuvre(game, d, u)

    # --- end game
    def _endgame_goal(self, game, u):
        """In the last two turns: the objective this unit should be on at the end (None: no change)."""
        if game.turn < game.turn_limit - 1 or not game.objectives:
            return None
        mine, theirs = [], []
        for _, ox, oy, v in game.objectives:
            m, t = [], []
            for w in game.units:
                if w.in_play and w.confidence != ROUTED and _d(w.x, w.y, ox, oy) <= OBJ_R:
                    (m if w.side == u.side else t).append(w.uid)
            mine.append(m)
            theirs.append(t)
        for j, (_, ox, oy, v) in enumerate(game.objectives):
            if u.uid in mine[j] and len(mine[j]) == 1:
                return ox, oy  # the only one holding it (or contesting it): stay
        reach = 30.0 if game.turn < game.turn_limit else 15.0
        best, bs = None, 0.0
        for j, (_, ox, oy, v) in enumerate(game.objectives):
            if mine[j]:
                continue
            dd = _d(u.x, u.y, ox, oy)
            if dd > reach + OBJ_R:
                continue
            s = v / (1.0 + dd / 12.0)
            if s > bs:
                best, bs = (ox, oy), s
        return best

    def _endgame(self, game, d, u):
        goal = self._endgame_goal(game, u)
        if goal is None or u.confidence >= BROKEN:
            return None
        opts = d.options
        dg = _d(u.x, u.y, *goal)
        if dg <= HOLD_R:
            shot, score = self._best_shot(game, d)
            if shot is not None:
                return shot
            if ("prop",) in opts:
                return ("prop",)
            return ("end",) if ("end",) in opts else None
        shot, score = self._best_shot(game, d)
        if shot is not None and score > 1.5:
            return shot
        if ("unprop",) in opts:
            return ("unprop",)
        best, bs = None, dg - 0.5
        for o in opts:
            if o[0] != "move":
                continue
            vx, vy = DIR_VECTORS[o[1]]
            dist = min(DISTANCES[o[2]], max(dg, 3.0), 7.0)
            px, py = u.x + vx * dist, u.y + vy * dist
            if game.bf.move_cost(px, py) is None:
                continue
            s = _d(px, py, *goal)
            if s < bs:
                best, bs = o, s
        return best

    # --- positions
    def _fire_estimate(self, game, shooter, sx, sy, target, tx, ty, propped=False):
        """(P(at least one success), expected casualties) of ``shooter`` at (sx, sy) firing everything at
        ``target`` standing at (tx, ty), or None without a line of sight/in range (no dice, no state)."""
        bf = game.bf
        dist = _d(sx, sy, tx, ty)
        q, fp, impact, rng = self._guns_of(game, shooter)
        if not fp or dist > rng:
            return None
        s = bf.sight(sx, sy, tx, ty)
        if not s.visible:
            return None
        shift = 0
        if dist > 48.0:
            shift += 1
        elif dist <= SHORT_RANGE:
            shift -= 1
        if s.concealed or bf.conceals(tx, ty):
            shift += 1
        if propped:
            shift += 1
        if q == D4:
            shift += 1
        elif q == D12:
            shift -= 1
        tdie = D8 + shift
        if tdie > D12:
            return None
        arm = _ARMOURS.get(target.armour)
        adie = armour_die(arm.die if arm is not None else D6, propped=propped,
                          cover=max(s.cover, bf.cover_at(tx, ty)))
        return shot_value(q, fp, max(D4, tdie), impact, adie)

    def _threat(self, game, u, px, py) -> float:
        """Expected damage the visible enemy could do to ``u`` standing at (px, py) (suppression + casualties)."""
        total = 0.0
        for e in game._enemy_units(u.side):
            if e.confidence >= ROUTED:
                continue
            r = self._fire_estimate(game, e, e.x, e.y, u, px, py)
            if r is None:
                continue
            w = 1.0 if e.suppression == 0 else 0.35
            total += w * (r[0] * self.W_SUP_THREAT + r[1] * self.W_CAS_THREAT)
        return total

    def _fire_value(self, game, u, px, py) -> float:
        """The best target ``u`` would have from (px, py), scored like a shot (casualties, suppression)."""
        best = 0.0
        for e in game._enemy_units(u.side):
            if e.confidence >= ROUTED:
                continue
            r = self._fire_estimate(game, u, px, py, e, e.x, e.y, e.propped)
            if r is None:
                continue
            sup = 1.0 if e.suppression == 0 else (0.5 / e.suppression if e.suppression < 3 else 0.0)
            v = 3.0 * r[1] * (1.0 + 2.0 / max(1, e.n_able())) + r[0] * sup
            best = max(best, v)
        return best

    W_SUP_THREAT = 0.3
    W_CAS_THREAT = 0.5
    W_PROGRESS = 0.5
    W_COVER = 0.5
    W_HOLD = 3.0

    def _position_value(self, game, u, px, py, goal) -> float:
        bf = game.bf
        gx, gy = goal
        dg = _d(px, py, gx, gy)
        v = -self.W_PROGRESS * dg
        if dg <= HOLD_R:
            v += self.W_HOLD
        if bf.in_cover(px, py):
            v += self.W_COVER
        v -= self._threat(game, u, px, py)
        return v

    def _manoeuvre(self, game, d, u):
        opts = d.options
        bf = game.bf
        goal = self._goal(game, u)
        here = self._position_value(game, u, u.x, u.y, goal)
        if u.propped:
            here += 0.3  # already propped: moving costs an action to unprop first
        best, bs = None, -1e18
        seen = set()
        for o in opts:
            if o[0] != "move":
                continue
            vx, vy = DIR_VECTORS[o[1]]
            dist = min(DISTANCES[o[2]], 7.0)
            px, py = u.x + vx * dist, u.y + vy * dist
            key = (round(px * 2), round(py * 2))
            if key in seen:
                continue
            seen.add(key)
            c = bf.move_cost(px, py)
            if c is None:
                continue
            s = self._position_value(game, u, px, py, goal) - 0.2 * (c - 1)
            if s > bs:
                best, bs = o, s
        if best is not None and bs > here + 0.25:
            return best
        if ("unprop",) in opts and best is not None and bs > here + 1.0:
            return ("unprop",)
        if ("reorganise", "rearrange") in opts:
            return ("reorganise", "rearrange")
        if self.CONCEAL and ("reorganise", "conceal") in opts and _d(u.x, u.y, *goal) <= HOLD_R:
            return ("reorganise", "conceal")
        if ("prop",) in opts and (self.PROP_ALWAYS or bf.in_cover(u.x, u.y) or _d(u.x, u.y, *goal) <= HOLD_R):
            return ("prop",)
        return ("end",) if ("end",) in opts else opts[0]

    def _assault_choice(self, game, u, opts):
        for o in sorted((o for o in opts if o[0] == "assault"), key=lambda o: (game.units[o[1]].n_able(), o[1])):
            t = game.units[o[1]]
            if t.suppression >= 2 or t.confidence >= BROKEN or t.n_able() * 3 <= u.n_able():
                return o
        return None

    def _hq_action(self, game, d, u):
        opts = d.options
        shot, score = self._best_shot(game, d)
        if shot is not None and score > 0.6:
            return shot
        bf = game.bf
        seen = self._nearest_visible(game, u, 60.0)
        if seen is None:
            if ("prop",) in opts and bf.in_cover(u.x, u.y):
                return ("prop",)
            return ("end",) if ("end",) in opts else opts[0]
        # in sight: get out of it (or into cover), staying near the squads
        best, bs = None, -1e9
        here = self._hide_score(game, u, u.x, u.y)
        for o in opts:
            if o[0] != "move":
                continue
            vx, vy = DIR_VECTORS[o[1]]
            dist = min(DISTANCES[o[2]], 6.0)
            px, py = u.x + vx * dist, u.y + vy * dist
            s = self._hide_score(game, u, px, py)
            if s > bs:
                best, bs = o, s
        if best is not None and bs > here + 0.5:
            return best
        if ("prop",) in opts:
            return ("prop",)
        return ("end",) if ("end",) in opts else opts[0]

    def _hide_score(self, game, u, px, py) -> float:
        bf = game.bf
        if bf.move_cost(px, py) is None:
            return -1e9
        s = 0.0
        for e in game._enemy_units(u.side):
            if _d(e.x, e.y, px, py) <= 60.0 and bf.has_los(e.x, e.y, px, py):
                s -= 2.0
        if bf.in_cover(px, py):
            s += 1.0
        # stay within reach of the squads
        mine = [game.units[i] for i in game.side_units[u.side] if game.units[i].uid != u.uid and game.units[i].in_play]
        if mine:
            cx = sum(m.x for m in mine) / len(mine)
            cy = sum(m.y for m in mine) / len(mine)
            s -= 0.03 * _d(px, py, cx, cy)
        return s
