"""The ladder bots' doctrine for games with vehicles and heavy weapons (Armoured Dustup).

A mixin the scripted bots put in front of their infantry doctrine.  It acts only in a *vehicle game*: the deciding
side has a vehicle, a mounted unit or a heavy / anti-armour weapon, or knows of an enemy vehicle, or the decision
offers a vehicle or weapon option.  In an infantry game it returns None for every decision and the bot chooses
exactly as before (``tests/test_env_digests.py``'s agent digests).

Doctrine:

- Activation: a transport carrying a squad moves before the squad, a mounted squad waits for its transport.
- Transports carry their squads towards the squads' objectives along the cheapest route for the vehicle's terrain
  table (a distance field over the table: the river is crossed at the ford) and stop short of it or of the visible
  enemy; a squad dismounts there, on the side away from the nearest enemy, preferring cover and its objective.
- Fire: every fire option (the vehicles' weapons, rockets, missiles, heavy weapons, small arms) is scored by what it
  may do to the target: against a vehicle, the chance to hit times the chance that the impact beats the armour of the
  facing it presents (anti-armour weapons against vehicles, small arms only against soft or open vehicles);
  against infantry, the expected casualties and suppression of the infantry doctrine.  ``smart_fire`` off (``easy``):
  the first fire option at the nearest target.
- Tanks and empty transports advance on their objectives and stop on them; ``cautious`` (``hard``): they keep out of
  the close range of enemy infantry with anti-armour rockets and turn their front armour to the nearest enemy
  vehicle when they have nothing to shoot.  Hatches stay closed (an opened-up vehicle counts as open-topped).
- Missile teams and heavy weapons set up (or repair) their weapon first, then stay where they stand and fire; they
  never tow, push or remount.
- Close combat with vehicles (not ``easy``): infantry close-assault a vehicle when the courage test's odds
  (``Knowledge.courage_dice``) times the chance that their best grenade beats the armour of the facing they come
  from is worth more than a repulse costs; ``TANK_SHOCK`` (``hard``): a vehicle tank-shocks infantry when the chance
  they withdraw (a level lost, their ground taken) outweighs the chance they stand aside and attack its rear.  An
  assaulted vehicle withdraws (L1522: only by its side's choice) when the attackers' odds of winning the courage test
  and beating the armour they face, by its worth, exceed ``VEHICLE_WITHDRAW``; otherwise it stands.
- Tank-shock risk (not ``easy``): the infantry doctrines' movement and the dismount weigh, at each point, the chance
  that a known enemy vehicle that sees the point and can drive onto it in reach would make them withdraw.
- ``HOLD`` (``defensive``): squads dismount early; vehicles drive to a hull-down position by the side's
  objectives (concealing terrain, cover or concealment towards the enemy, a view of the objective; the table alone)
  and fire from there.

It reads the game only through :class:`agents.knowledge.Knowledge` (own units, known enemy units -- never who rides
in an enemy vehicle --, the table, and the read-only previews ``vehicle_fire_plan``, ``courage_dice``,
``close_attack_impact``, ``shock_reach`` and ``dismount_point``).
"""
from __future__ import annotations

import heapq
import math
from functools import lru_cache

from dustup_env.rules.kernel.data import armoury
from dustup_env.rules.kernel.decisions import Decision
from dustup_env.rules.kernel.dice import die_multiplier, die_sides, parse_die, shift_open_both
from dustup_env.rules.kernel.entities import BROKEN, CONFIDENT, OK, ROUTED, SHAKEN
from dustup_env.rules.unit_actions.move_action import DIR_VECTORS, DIRECTIONS, DISTANCES

_WEAPONS, _ARMOURS = armoury()
VEHICLE_FAMILIES = frozenset(("mount", "dismount", "approach", "tow", "push", "unhook", "turn", "hatches",
                              "fire_vehicle", "fire_slaved", "fire_pair", "shoot_passengers", "passenger_shoot",
                              "fire_heavy", "fire_iavr", "fire_guided", "decoy", "area_protection", "assault_vehicle",
                              "tank_shock"))
FIRE_FAMILIES = ("fire_vehicle", "fire_slaved", "fire_pair", "fire_iavr", "fire_guided", "fire_heavy")
GRID = 1.0  # inches per cell of the route fields
STOP_SHORT = 6.0  # a transport stops this far from its squad's objective
HOLD_DISMOUNT = 14.0  # defensive: squads dismount this far from their objective
HOLD_STOP = 24.0  # defensive: a loaded transport stops when a known enemy is this near
HOLD_RADIUS = 9.0  # defensive: vehicles hold positions within this of their anchor
HOLD_GOOD_SHOT = 0.3  # defensive: a vehicle short of its position stops to fire only at a target worth this
ROCKET_RANGE = 14.0  # cautious vehicles keep this far from enemy infantry carrying rockets


def _d(ax, ay, bx, by) -> float:
    return math.hypot(ax - bx, ay - by)


def is_vehicle(u) -> bool:
    return u.profile.vehicle is not None


def _has_aa(u) -> bool:
    """Infantry carrying an anti-armour rocket (an IAVR) or a heavy weapon."""
    for f in u.figures:
        w = _WEAPONS.get(f.weapon)
        if f.status == OK and w is not None and w.cls == "iavr":
            return True
    return False


@lru_cache(maxsize=4096)  # (a pure function of a few dice: asked again and again)
def p_any_success(quality: int, firepower: tuple, target: int) -> float:
    """P(at least one die of quality + firepower beats the target die), exact per target roll (as scripted's
    ``shot_value``)."""
    ts = die_sides(target)
    p = 0.0
    for t in range(1, ts + 1):
        miss = 1.0
        for d in (quality,) + firepower:
            n = die_sides(d)
            miss *= 1.0 - max(0.0, (n - t) / n)
        p += (1.0 - miss) / ts
    return p


def p_penetrate(impact: int, armour: int) -> float:
    """A rough chance that one hit's impact beats the armour (die steps: D12 = 4, D12x2 = 5, ...)."""
    diff = impact - armour
    return {2: 0.85, 1: 0.7, 0: 0.45, -1: 0.2, -2: 0.08}.get(max(-2, min(2, diff)), 0.02) if diff > -3 else 0.02


@lru_cache(maxsize=4096)  # (a pure function of a few dice: asked again and again)
def p_greater(a: int, b: int, factor: int = 1) -> float:
    """P(a roll of die ``a`` beats ``factor`` times a roll of die ``b``) (die steps; D12xN rolls a D12 times N)."""
    na, nb = die_sides(a), die_sides(b)
    ma, mb = die_multiplier(a), die_multiplier(b)
    return sum(1 for x in range(1, na + 1) for y in range(1, nb + 1) if x * ma > factor * y * mb) / (na * nb)


@lru_cache(maxsize=4096)  # (a pure function of a few dice: asked again and again)
def shock_odds(a_die: int, d_die: int) -> tuple[float, float, float]:
    """Tank Shock's outcomes from the vehicle's (A) and the infantry's (D) dice: P(the infantry withdraw: D not
    above A), P(they move aside: A < D <= 2A), P(they move aside and attack the vehicle: D > 2A)."""
    attack = p_greater(d_die, a_die, 2)
    aside = p_greater(d_die, a_die) - attack
    return 1.0 - aside - attack, aside, attack


def _on_objective(k, x, y) -> bool:
    return any(_d(x, y, ox, oy) <= 3.0 for _, ox, oy, _ in k.objectives)


def facing_armour(t, sx, sy) -> int:
    """The armour die step of the facing vehicle ``t`` presents to a shooter at (sx, sy)."""
    vp = t.profile.vehicle
    bearing = math.degrees(math.atan2(sx - t.x, sy - t.y)) % 360.0
    off = abs((bearing - t.veh.facing + 180.0) % 360.0 - 180.0)
    a = vp.armour.front if off <= 45.0 else vp.armour.rear if off >= 135.0 else vp.armour.side
    try:
        return parse_die(a)
    except (TypeError, ValueError):
        return 0


def target_value(k, t) -> float:
    """What putting ``t`` out of the fight is worth (every unit is a victory point; tanks and the side's own loaded
    transports more -- who rides in an enemy vehicle is not seen --, damaged vehicles nearly gone)."""
    v = 1.0
    vp = t.profile.vehicle
    if vp is not None:
        if any(w.category == "direct_fire" and w.size >= 2 for w in vp.weapons):
            v += 0.8
        if t.side == k.side and t.veh.passengers:  # who rides in an enemy vehicle is not seen
            v += 0.5 * len(t.veh.passengers)
        elif t.side != k.side and vp.transport_figures > 0:
            v += 0.3  # a transport may carry a squad
        v += 0.4 * t.veh.damage
    if t.confidence >= ROUTED:
        v *= 0.3
    return v


class VehicleDoctrine:
    """Mixin: the vehicle doctrine (see the module's docstring); ``_vehicle_decide`` returns None outside it."""

    SMART_FIRE = True
    CAUTIOUS = False
    ROUTES = True  # drive along the route field (False, easy: straight at the goal, stopped by what is in the way)
    FOCUS = False  # hard: damaged vehicles and the last figures of a unit first
    VEHICLE_ENDGAME = False  # hard: in the last two turns vehicles drive onto objectives the side does not hold
    AA_THRESHOLD = 0.08
    TANK_SHOCK = False  # hard: vehicles tank-shock infantry when the courage test's odds pay
    SHOCK_MIN = 0.25
    CLOSE_ASSAULT = True  # infantry close-assault a vehicle when the courage test and their charges pay (easy: never)
    VEHICLE_WITHDRAW = 0.35  # an assaulted vehicle withdraws above this chance (by its worth) that the charge hurts it
    ASSAULT_MIN = 0.12
    AVOID_SHOCK = 3.0  # infantry: weight of the tank-shock risk of a position (0: none, easy)
    HOLD = False  # defensive: vehicles hold hull-down positions near the side's objectives; squads dismount early

    # ------------------------------------------------------------------ the gate
    def _vehicle_game(self, k, d) -> bool:
        for u in k.own_units:
            if u.profile.vehicle is not None or u.veh.carrier >= 0:
                return True
        for e in k.enemy_units:
            if e.profile.vehicle is not None:
                return True
        for o in d.options:
            if o[0] in VEHICLE_FAMILIES:
                return True
        return False

    # ------------------------------------------------------------------ activation
    def _vehicle_activation(self, k, d):
        """A transport with a squad aboard first; never a mounted squad before its transport has moved."""
        if not self._vehicle_game(k, d):
            return None
        best, bs = None, -1e9
        for o in d.options:
            if o[0] != "activate" or len(o) < 2:
                continue
            u = k.units[o[1]]
            s = 0.0
            if is_vehicle(u):
                s += 2.0 + (3.0 if u.veh.passengers else 0.0)
            elif u.veh.carrier >= 0:
                s -= 3.0 if not k.units[u.veh.carrier].activated else 0.0
            if u.kind == "hq":
                s += 6.0
            s -= u.uid * 1e-3
            if s > bs:
                best, bs = o, s
        return best

    # ------------------------------------------------------------------ actions
    def _vehicle_action(self, k, d, u):
        """The doctrine's choice of action for ``u`` in a vehicle game, or None (the infantry doctrine decides, on
        the options of ``_infantry_options``)."""
        if not self._vehicle_game(k, d):
            return None
        opts = d.options
        if u.veh.carrier >= 0:
            return self._passenger(k, d, u)
        if not is_vehicle(u) and ("recover",) in opts:
            return ("recover",)
        for task in ("repair", "set_up", "unlimber"):  # heavy weapons: deploy (and mend) before anything else
            if ("reorganise", task) in opts:
                return ("reorganise", task)
        if ("hatches", "close_down") in opts:
            return ("hatches", "close_down")
        if is_vehicle(u) and ("recover",) in opts:
            if u.veh.passengers:  # a loaded transport drives on (vehicles move while suppressed)
                mv = self._drive(k, d, u)
                if mv is not None and mv[0] == "move":
                    return mv
            return ("recover",)
        fire, score = self._best_fire(k, d, u)
        if is_vehicle(u):
            if self.HOLD:
                return self._hold(k, d, u, fire, score)
            if self.VEHICLE_ENDGAME and not u.veh.passengers:
                mv = self._vehicle_endgame(k, d, u)
                if mv is not None:
                    return mv
            if u.veh.passengers:  # a loaded transport delivers its squad first
                mv = self._drive(k, d, u)
                if mv is not None and mv[0] == "move":
                    return mv
                return fire or mv or (("end",) if ("end",) in opts else None)
            if self.TANK_SHOCK:
                shock, ss = self._best_shock(k, d, u)
                if shock is not None and ss > max(self.SHOCK_MIN, score if fire is not None else 0.0):
                    return shock
            if fire is not None:
                return fire
            return self._drive(k, d, u) or (("end",) if ("end",) in opts else None)
        if self.CLOSE_ASSAULT:
            assault, sa = self._best_close_assault(k, d, u)
            if assault is not None and sa > max(self.ASSAULT_MIN, score if fire is not None else 0.0):
                return assault
        if fire is not None and score > self.AA_THRESHOLD:
            return fire
        if self.CAUTIOUS and ("reorganise", "dismantle") in opts and not k.bf.in_cover(u.x, u.y):
            mv = self._to_cover(k, d, u)
            if mv is not None:
                return mv
        if any(o[0] in ("fire_guided", "fire_heavy") for o in opts) or ("reorganise", "dismantle") in opts:
            # a set-up heavy weapon holds its ground
            shot = self._best_infantry_shot(k, d)
            if shot is not None:
                return shot
            return ("prop",) if ("prop",) in opts else ("end",) if ("end",) in opts else None
        return None

    def _vehicle_step(self, k, d, u):
        """The hook each bot calls before its infantry doctrine: ``(action, d)`` with the vehicle doctrine's action
        for ``u``, or ``(None, d')`` with ``d'`` the options left to the infantry doctrine (``d`` itself outside
        vehicle games)."""
        if not self._vehicle_game(k, d):
            return None, d
        va = self._vehicle_action(k, d, u)
        if va is not None:
            return va, d
        return None, self._infantry_options(k, d)

    def _infantry_options(self, k, d) -> Decision:
        """The decision without the options the infantry doctrine must not weigh in a vehicle game (small arms at
        armoured vehicles, vehicle families)."""
        if not self._vehicle_game(k, d):
            return d
        keep = []
        for o in d.options:
            if o[0] in VEHICLE_FAMILIES:
                continue
            if o[0] == "shoot" and len(o) > 2:
                t = k.units.get(o[1])
                if t is not None and is_vehicle(t) and not (t.profile.vehicle.soft_skinned
                                                            or t.profile.vehicle.open_top):
                    continue
            keep.append(o)
        if not keep:
            return d
        return Decision(d.side, d.kind, d.unit, tuple(keep))

    # --- passengers
    def _passenger(self, k, d, u):
        opts = d.options
        dis = [o for o in opts if o[0] == "dismount"]
        if not dis:
            return ("end",) if ("end",) in opts else None
        v = k.units[u.veh.carrier]
        gx, gy = self._goal(k, u)
        near = self._nearest_enemy(k, v.x, v.y)
        if self.HOLD:  # dismount early: well short of the objective, at the first sight of the enemy
            go = (_d(v.x, v.y, gx, gy) <= HOLD_DISMOUNT or (near is not None and near[1] <= 30.0)
                  or v.veh.damage or v.veh.immobilised or v.suppression or k.turn >= 3)
        else:
            go = (_d(v.x, v.y, gx, gy) <= STOP_SHORT + 3.0 or (near is not None and near[1] <= 18.0)
                  or v.veh.damage or v.veh.immobilised or v.suppression or k.turn >= k.turn_limit - 1)
        if not go:
            return ("end",) if ("end",) in opts else None
        bf = k.bf
        best, bs = None, -1e9
        for o in dis:
            p = k.dismount_point(u.uid, o[1])
            if p is None:
                continue
            px, py = p
            s = -0.3 * _d(px, py, gx, gy)
            if bf.in_cover(px, py):
                s += 3.0
            if near is not None:
                e = near[0]
                s += 0.5 * (_d(px, py, e.x, e.y) - _d(v.x, v.y, e.x, e.y))
            risk = self._shock_risk(k, u, px, py)
            if risk:
                s -= 2.0 * risk
            if s > bs:
                best, bs = o, s
        return best

    # --- close combat with vehicles
    def _best_shock(self, k, d, u):
        """Tank Shock when it pays: the chance the infantry withdraw (a level lost, their ground taken: more on an
        objective, a broken unit routs) against the chance they stand aside behind the vehicle and attack its rear."""
        best, bs = None, 0.0
        vp = u.profile.vehicle
        try:
            rear = parse_die(vp.armour.rear)
        except (TypeError, ValueError):
            return None, 0.0
        own = target_value(k, u)
        for o in d.options:
            if o[0] != "tank_shock" or len(o) < 2:
                continue
            t = k.units.get(o[1])
            if t is None or is_vehicle(t):
                continue
            a_die, d_die = k.courage_dice(u.uid, t.uid)
            p_wd, p_aside, p_att = shock_odds(a_die, d_die)
            level = 1.0 if t.confidence >= BROKEN else 0.6 if t.confidence >= SHAKEN else 0.4
            gain = p_wd * (level + (0.6 if _on_objective(k, t.x, t.y) else 0.0)) * target_value(k, t)
            risk = p_att * p_greater(k.close_attack_impact(t.uid), rear) * own + 0.15 * (p_aside + p_att)
            if _has_aa(t):  # they may turn their rockets on the rear next
                impact, _ = self._rocket(t)
                risk += 0.5 * (1.0 - 0.5 * p_wd) * p_greater(impact, rear) * own
            s = gain - risk
            if s > bs:
                best, bs = o, s
        return best, bs

    def _best_close_assault(self, k, d, u):
        """Infantry Assaulting Vehicles when it pays: P(the courage test is won) x P(the charge damages the facing they
        come from) x the vehicle's worth, less the cost of a repulse (a level lost, the withdrawal)."""
        best, bs = None, 0.0
        impact = None
        for o in d.options:
            if o[0] != "assault_vehicle" or len(o) < 2:
                continue
            v = k.units.get(o[1])
            if v is None or not is_vehicle(v):
                continue
            if impact is None:
                impact = k.close_attack_impact(u.uid)
            a_die, d_die = k.courage_dice(u.uid, v.uid)
            p_win = p_greater(a_die, d_die)
            pen = p_greater(impact, facing_armour(v, u.x, u.y))
            if any(w.category == "apsw" for w in v.profile.vehicle.weapons):
                pen *= 0.8  # its support weapon fires first
            s = p_win * pen * target_value(k, v) - (1.0 - p_win) * (0.45 if u.confidence >= SHAKEN else 0.3)
            if s > bs:
                best, bs = o, s
        return best, bs

    def _vehicle_assault_response(self, k, d):
        """An assaulted vehicle's answer (L1522: it withdraws only if its side chooses): withdraw (a level lost,
        the infantry may occupy its ground or follow) when the attackers' chance of winning the courage test and
        then beating the armour they face is high; otherwise stand.  None: not a vehicle's decision."""
        if d.kind != "assault_response" or ("withdraw",) not in d.options:
            return None
        v = k.units.get(d.unit)
        if v is None or not is_vehicle(v) or v.kind != "vehicle":
            return None
        risk = 0.0
        for a in k.assault_enemies(v.uid):
            u = k.units[a]
            a_die, d_die = k.courage_dice(u.uid, v.uid)
            risk += p_greater(a_die, d_die) * p_greater(k.close_attack_impact(u.uid), facing_armour(v, u.x, u.y))
        return ("withdraw",) if risk * target_value(k, v) > self.VEHICLE_WITHDRAW else ("stand",)

    def _shock_risk(self, k, u, px, py) -> float:
        """What infantry standing at (px, py) risk from tank shock: for each known enemy vehicle that could reach
        and drive onto that ground, the chance it makes them withdraw (their courage die: cover helps, suppression
        and the vehicle's size tell against them).  0.0 without enemy vehicles (infantry games)."""
        if not self.AVOID_SHOCK or is_vehicle(u):
            return 0.0
        bf = k.bf
        risk = 0.0
        for e in k.enemy_units:
            if e.profile.vehicle is None or e.kind != "vehicle" or e.veh.carrier >= 0:
                continue
            if e.veh.immobilised or e.confidence >= ROUTED or e.veh.hull >= 0:
                continue
            if _d(px, py, e.x, e.y) > k.shock_reach(e.uid) + 2.0:
                continue
            if bf.move_cost(px, py, e.terrain_column) is None:
                continue  # the vehicle cannot drive onto that ground
            if not bf.has_los(e.x, e.y, px, py):
                continue  # nor shock what it does not see
            cover = bf.cover_at(px, py)
            size = e.profile.vehicle.size
            d_sh = (2 if cover >= 2 else cover) - (u.suppression if u.confidence != ROUTED else 0) \
                + (1 if u.confidence == CONFIDENT else -1 if u.confidence >= SHAKEN else 0) \
                - (2 if size >= 3 else 1 if size >= 2 else 0)
            a_sh = -e.suppression + (1 if e.confidence == CONFIDENT else -1 if e.confidence >= SHAKEN else 0)
            a_die, d_die = shift_open_both(e.quality, a_sh, u.quality, d_sh)
            p_wd, _, _ = shock_odds(a_die, d_die)
            lost = 1.0 if u.confidence >= BROKEN else 0.6 if u.confidence >= SHAKEN else 0.4
            risk += (0.5 if e.suppression else 1.0) * p_wd * lost
        return self.AVOID_SHOCK * risk

    # --- the defensive doctrine
    def _hold(self, k, d, u, fire, score):
        """Defensive vehicles: a loaded transport takes its squad forward and lets it out early; otherwise drive to a
        hull-down position near the side's objectives (firing on the way only at a good target) and from there fire
        at anything worth it, turning the front armour to the nearest enemy vehicle."""
        opts = d.options
        if u.veh.passengers:
            mv = self._drive(k, d, u)
            if mv is not None and mv[0] == "move":
                return mv
            return fire or mv or (("end",) if ("end",) in opts else None)
        hx, hy = self._hold_point(k, u)
        if fire is not None and (score >= HOLD_GOOD_SHOT or _d(u.x, u.y, hx, hy) <= 2.0):
            return fire
        mv = self._drive_to(k, d, u, hx, hy, 1.0)
        if mv is not None and mv[0] == "move":
            return mv
        return fire or mv or (("end",) if ("end",) in opts else None)

    def _hold_point(self, k, u):
        """A hull-down position for ``u``: within HOLD_RADIUS of its anchor (its objective; an empty transport some
        way behind it), ground it can drive on, concealed from the enemy's side (in concealing terrain or behind a
        hedge, wall or wood seen from the enemy's direction), in cover, overlooking the objective.  The table only
        (no enemy position): worked out once per game and unit."""
        cache = self.__dict__.setdefault("_holds", {})
        if cache.get("token") is not k.game_token:
            cache.clear()
            cache["token"] = k.game_token
        key = u.uid
        p = cache.get(key)
        if p is not None:
            return p
        gx, gy = self._goal(k, u)
        hx, hy = k.home_point(u)
        dx, dy = gx - hx, gy - hy
        n = math.hypot(dx, dy) or 1.0
        dx, dy = dx / n, dy / n  # towards the enemy
        ax, ay = gx, gy
        if u.profile.vehicle.transport_figures > 0:
            ax, ay = gx - 8.0 * dx, gy - 8.0 * dy  # transports hold back, behind their squads
        bf = k.bf
        col = u.terrain_column
        best, bs = (ax, ay), -1e9
        r = int(HOLD_RADIUS)
        for i in range(-r, r + 1):
            for j in range(-r, r + 1):
                px, py = round(ax) + i + 0.5, round(ay) + j + 0.5
                dd = _d(px, py, ax, ay)
                if dd > HOLD_RADIUS or not bf.on_table(px, py) or bf.move_cost(px, py, col) is None:
                    continue
                ex, ey = px + 16.0 * dx, py + 16.0 * dy  # a look from the enemy's side
                sc = -0.25 * dd
                if bf.conceals(px, py):
                    sc += 3.0
                if bf.on_table(ex, ey):
                    s = bf.sight(ex, ey, px, py)
                    if s.concealed or s.cover:
                        sc += 2.0
                if bf.in_cover(px, py):
                    sc += 1.0
                if bf.has_los(px, py, gx, gy):
                    sc += 1.5
                if _d(px, py, gx, gy) < 3.5:
                    sc -= 1.0  # the objective itself is the infantry's
                if sc > bs:
                    best, bs = (px, py), sc
        cache[key] = best
        return best

    # --- fire
    def _best_fire(self, k, d, u):
        best, bs = None, 0.0
        nearest = None
        for o in d.options:
            if o[0] not in FIRE_FAMILIES and o[0] != "shoot":
                continue
            t = k.units.get(o[1]) if len(o) > 1 else None
            if t is None:
                continue
            if not self.SMART_FIRE:
                if o[0] == "shoot" and not is_vehicle(u) and not is_vehicle(t):
                    continue  # the infantry doctrine's own shots
                dd = _d(u.x, u.y, t.x, t.y)
                if nearest is None or dd < nearest:
                    best, bs, nearest = o, 1.0, dd
                continue
            s = self._fire_score(k, u, o, t)
            if self.FOCUS and s > 0.0:
                s *= 1.0 + 0.5 * t.veh.damage + (1.0 / max(1, t.n_able()) if not is_vehicle(t) else 0.0)
            if s > bs:
                best, bs = o, s
        return best, bs

    def _fire_score(self, k, u, o, t) -> float:
        fam = o[0]
        if fam == "shoot":
            if not is_vehicle(t):
                return 0.0  # the infantry doctrine scores its shots at infantry
            vp = t.profile.vehicle
            if not (vp.soft_skinned or vp.open_top):
                return 0.0
            return 0.15 * target_value(k, t)
        if fam == "fire_vehicle" and len(o) > 2:
            plan = k.vehicle_fire_plan(u.uid, t.uid, o[2])
            if plan is None:
                return 0.0
            if plan.get("guided"):
                p_hit, impact = 0.55, self._weapon_impact(u, o[2], True)
            else:
                p_hit = p_any_success(u.quality, tuple(plan["firepower"]), max(0, plan["target_die"]))
                impact = plan["impact"]
            if is_vehicle(t):
                return p_hit * p_penetrate(impact, facing_armour(t, u.x, u.y)) * target_value(k, t)
            return p_hit * 0.6 * target_value(k, t) * (1.0 if t.suppression == 0 else 0.5)
        if fam in ("fire_slaved", "fire_pair"):
            return 0.3 * target_value(k, t)
        # infantry's rockets, missiles and heavy weapons
        dist = _d(u.x, u.y, t.x, t.y)
        if fam == "fire_iavr":
            impact, rng = self._rocket(u)
            p_hit = 0.5 if dist <= rng else 0.25
        elif fam == "fire_guided":
            impact, p_hit = parse_die("d12x2"), 0.55
        else:
            impact, p_hit = parse_die("d12"), 0.5
        if is_vehicle(t):
            return p_hit * p_penetrate(impact, facing_armour(t, u.x, u.y)) * target_value(k, t)
        if fam == "fire_heavy":
            return 0.3 * target_value(k, t)
        return 0.0  # rockets and missiles are kept for vehicles

    @staticmethod
    def _rocket(u):
        best = (0, 0.0)
        for f in u.figures:
            w = _WEAPONS.get(f.weapon)
            if f.status == OK and w is not None and w.cls == "iavr":
                best = max(best, (w.impact, float(w.effective_range or 24)))
        return best

    @staticmethod
    def _weapon_impact(u, slot, guided) -> int:
        ws = u.profile.vehicle.weapons
        if slot < len(ws):
            try:
                return parse_die(ws[slot].impact_vs_armour)
            except (TypeError, ValueError):
                pass
        return parse_die("d12x2")

    def _best_infantry_shot(self, k, d):
        shot, _ = self._best_shot(k, self._infantry_options(k, d))
        return shot

    # --- driving
    def _nearest_enemy(self, k, x, y):
        best = None
        for e in k.enemy_units:
            if e.confidence >= ROUTED or e.veh.carrier >= 0:
                continue
            dd = _d(x, y, e.x, e.y)
            if best is None or dd < best[1]:
                best = (e, dd)
        return best

    def _vehicle_goal(self, k, u):
        if u.veh.passengers:
            p = k.units[u.veh.passengers[0]]
            gx, gy = self._goal(k, p)
            return gx, gy, STOP_SHORT
        gx, gy = self._goal(k, u)
        return gx, gy, 2.0

    def _field(self, k, col, gx, gy):
        """Cheapest movement cost from every cell to (gx, gy) for movement column ``col`` (None: impassable)."""
        cache = self.__dict__.setdefault("_fields", {})
        if cache.get("token") is not k.game_token:
            cache.clear()
            cache["token"] = k.game_token
        key = (col, round(gx), round(gy))
        f = cache.get(key)
        if f is not None:
            return f
        bf = k.bf
        if not bf.dynamic:
            # the static table (shared, never changed, by every copy of a game): its fields serve every game on it,
            # the many copies a search plays out included (the per-game cache above keeps a field made before
            # dynamic terrain came for the rest of that game, as before)
            # (keyed by the exact goal: the per-game key rounds it, and the first goal of a game makes its field)
            shared = self.__dict__.get("_static_fields")
            if shared is None or shared[0] is not bf or len(shared[1]) >= 128:
                shared = self._static_fields = (bf, {})  # (holds the table: its id cannot name another one)
            exact = (col, gx, gy)
            f = shared[1].get(exact)
            if f is None:
                f = shared[1][exact] = self._make_field(bf, col, gx, gy)
            cache[key] = f
            return f
        cache[key] = f = self._make_field(bf, col, gx, gy)
        return f

    @staticmethod
    def _make_field(bf, col, gx, gy):
        w, h = int(math.ceil(bf.width / GRID)), int(math.ceil(bf.height / GRID))
        cost = [[bf.move_cost((i + 0.5) * GRID, (j + 0.5) * GRID, col) for j in range(h)] for i in range(w)]
        dist = [[math.inf] * h for _ in range(w)]
        heap = []
        for reach in (2.0, 6.0, 12.0, 24.0):  # the goal's passable surroundings (woods may be impassable to it)
            for i in range(max(0, int((gx - reach) / GRID)), min(w, int((gx + reach) / GRID) + 1)):
                for j in range(max(0, int((gy - reach) / GRID)), min(h, int((gy + reach) / GRID) + 1)):
                    r = math.hypot((i + 0.5) * GRID - gx, (j + 0.5) * GRID - gy)
                    if r <= reach and cost[i][j] is not None and r < dist[i][j]:
                        dist[i][j] = r
                        heap.append((r, i, j))
            if heap:
                break
        heapq.heapify(heap)
        steps = [(a, b, math.hypot(a, b) * GRID) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]
        while heap:
            dd, i, j = heapq.heappop(heap)
            if dd > dist[i][j]:
                continue
            for a, b, ln in steps:
                ni, nj = i + a, j + b
                if 0 <= ni < w and 0 <= nj < h:
                    c = cost[ni][nj]
                    if c is None:
                        continue
                    nd = dd + ln * c
                    if nd < dist[ni][nj]:
                        dist[ni][nj] = nd
                        heapq.heappush(heap, (nd, ni, nj))
        return dist, w, h

    def _route_cost(self, field, x, y) -> float:
        dist, w, h = field
        i, j = int(x / GRID), int(y / GRID)
        if not (0 <= i < w and 0 <= j < h):
            return math.inf
        return dist[i][j]

    def _to_cover(self, k, d, u):
        """A heavy-weapon team in the open: the move option that ends nearest in cover (within 8")."""
        bf = k.bf
        best, bs = None, 1e9
        for o in d.options:
            if o[0] != "move" or len(o) < 3 or DISTANCES[o[2]] > 6.0:
                continue
            vx, vy = DIR_VECTORS[o[1]]
            px, py = u.x + vx * DISTANCES[o[2]], u.y + vy * DISTANCES[o[2]]
            if bf.on_table(px, py) and bf.in_cover(px, py) and DISTANCES[o[2]] < bs:
                best, bs = o, DISTANCES[o[2]]
        return best

    def _vehicle_endgame(self, k, d, u):
        """Last two turns: drive onto the most valuable objective within reach that the side does not hold alone."""
        if k.turn < k.turn_limit - 1 or not any(o[0] == "move" for o in d.options):
            return None
        vp = u.profile.vehicle
        try:
            budget = die_sides(parse_die(vp.movement_die)) + 1.0
        except (TypeError, ValueError):
            return None
        reach = budget * (2 if k.turn < k.turn_limit else 1)
        best, bs = None, 0.0
        for _, ox, oy, val in k.objectives:
            ours = [w for w in k.own_units if w.in_play and w.veh.carrier < 0 and _d(w.x, w.y, ox, oy) <= 3.0]
            if ours == [u] or (ours and u not in ours and not any(_d(e.x, e.y, ox, oy) <= 3.0
                                                                   for e in k.enemy_units)):
                if ours == [u]:
                    return None  # holding it: stay
                continue
            if _d(u.x, u.y, ox, oy) <= 2.5:
                return None
            field = self._field(k, u.terrain_column, ox, oy)
            c = self._route_cost(field, u.x, u.y)
            if c > reach + 3.0:
                continue
            s = val / (1.0 + c / 12.0)
            if s > bs:
                best, bs = (ox, oy), s
        if best is None:
            return None
        return self._drive_to(k, d, u, best[0], best[1], 2.0)

    def _danger(self, k, u, px, py, rockets=None) -> float:
        """Cautious vehicles: enemy infantry with rockets within close range, and enemy anti-armour guns.
        ``rockets``: :meth:`_rockets` of ``u`` at this decision (the same sum, the enemy sorted out once)."""
        s = 0.0
        for ex, ey in (self._rockets(k, u) if rockets is None else rockets):
            dd = _d(px, py, ex, ey)
            if dd < ROCKET_RANGE:
                s += (ROCKET_RANGE - dd) / ROCKET_RANGE * 3.0
        return s

    @staticmethod
    def _rockets(k, u) -> list:
        """Where the enemy infantry that :meth:`_danger` counts stand (``k.enemy_units``' order): able, not aboard,
        carrying an anti-armour rocket."""
        return [(e.x, e.y) for e in k.enemy_units
                if not (e.confidence >= ROUTED or e.veh.carrier >= 0 or e.uid == u.uid) and not is_vehicle(e)
                and _has_aa(e)]

    def _drive(self, k, d, u):
        opts = d.options
        gx, gy, stop = self._vehicle_goal(k, u)
        near = self._nearest_enemy(k, u.x, u.y)
        if u.veh.passengers and near is not None and near[1] <= (HOLD_STOP if self.HOLD else 14.0):
            return ("end",) if ("end",) in opts else None  # let the squad out here
        return self._drive_to(k, d, u, gx, gy, stop)

    def _drive_to(self, k, d, u, gx, gy, stop):
        opts = d.options
        moves = [o for o in opts if o[0] == "move" and len(o) > 2]
        here_d = _d(u.x, u.y, gx, gy)
        if not moves or here_d <= stop:
            return self._face(k, d, u) or (("end",) if ("end",) in opts else None)
        col = u.terrain_column
        if not self.ROUTES:  # straight at the goal
            best = min(moves, key=lambda o: (_d(u.x + DIR_VECTORS[o[1]][0] * DISTANCES[o[2]],
                                                 u.y + DIR_VECTORS[o[1]][1] * DISTANCES[o[2]], gx, gy), o))
            return best
        field = self._field(k, col, gx, gy)
        bf = k.bf
        vp = u.profile.vehicle
        try:
            budget = die_sides(parse_die(vp.movement_die)) + 1.0  # the mean of 2 x the movement die
        except (TypeError, ValueError):
            budget = 10.0
        here = self._route_cost(field, u.x, u.y)
        rockets = self._rockets(k, u) if self.CAUTIOUS else None
        if self.CAUTIOUS:
            here_val = -here - 2.0 * self._danger(k, u, u.x, u.y, rockets)
        else:
            here_val = -here
        best, bs = None, here_val + 0.5
        seen = set()
        cap = max(here_d - stop + 1.0, 1.0)
        walks = {}  # direction -> the points after each step of the walk that way (the longest move's)
        far = {}  # direction -> how far its longest move goes
        for o in moves:
            w = min(DISTANCES[o[2]], cap)
            if w > far.get(o[1], -1.0):
                far[o[1]] = w
        for o in moves:
            vx, vy = DIR_VECTORS[o[1]]
            want = min(DISTANCES[o[2]], cap)
            # the walk of 0.5" steps toward the point: a shorter move's is the start of a longer one's (the same
            # steps and sums), so each direction is walked once, as far as its longest move goes
            pts = walks.get(o[1])
            if pts is None:
                pts = walks[o[1]] = self._walk(bf, u, vx, vy, far[o[1]], col, budget)
            n = 0
            while n < len(pts) - 1 and n * 0.5 + 0.5 <= want + 1e-9:
                n += 1
            if n == 0:
                continue
            px, py = pts[n]
            key = (round(px), round(py))
            if key in seen:
                continue
            seen.add(key)
            s = -self._route_cost(field, px, py)
            if self.CAUTIOUS:
                s -= 2.0 * self._danger(k, u, px, py, rockets)
            if s > bs:
                best, bs = o, s
        if best is not None:
            return best
        return self._face(k, d, u)

    @staticmethod
    def _walk(bf, u, vx, vy, want, col, budget) -> list:
        """The points a vehicle's straight walk from its place in direction (vx, vy) reaches after each 0.5" step (the
        start first), up to ``want`` inches, stopped by the table's edge, impassable ground or the ``budget`` of
        movement points."""
        px, py, spent, step = u.x, u.y, 0.0, 0.5
        travelled = 0.0
        pts = [(px, py)]
        while travelled + step <= want + 1e-9:
            nx, ny = px + vx * step, py + vy * step
            if not bf.on_table(nx, ny):
                break
            c = bf.move_cost(nx, ny, col)
            if c is None or spent + c * step > budget:
                break
            spent += c * step
            px, py = nx, ny
            travelled += step
            pts.append((px, py))
        return pts

    def _face(self, k, d, u):
        """Cautious: turn the front armour to the nearest known enemy vehicle."""
        if not self.CAUTIOUS:
            return None
        turns = [o for o in d.options if o[0] == "turn"]
        if not turns:
            return None
        best = None
        for e in k.enemy_units:
            if is_vehicle(e) and e.in_play:
                dd = _d(u.x, u.y, e.x, e.y)
                if best is None or dd < best[1]:
                    best = (e, dd)
        if best is None:
            return None
        e = best[0]
        want = math.degrees(math.atan2(e.x - u.x, e.y - u.y)) % 360.0
        off = abs((want - u.veh.facing + 180.0) % 360.0 - 180.0)
        if off <= 45.0:
            return None
        return min(turns, key=lambda o: abs((o[1] * 360.0 / DIRECTIONS - want + 180.0) % 360.0 - 180.0))
