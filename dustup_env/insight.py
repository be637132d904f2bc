"""What a player may work out before committing, from what their side may know: the odds of an option, who sees
whom, how far a move may reach, the distance between two points.

Every front-end (the protocol, the HTTP server, the page, the terminal) asks these functions; nothing here runs in
the environment's step or changes the game (the dice are enumerated, never rolled; a copy of nothing is needed).

* :func:`option_odds` ``(game, side, option, unit)``: the dice the rules would roll for one option now and their
  exact odds: shooting (the Shoot Action's fire parties, a support weapon alone, grenades thrown singly), a heavy
  weapon, an unguided rocket, a vehicle's weapon (direct fire and guided), the Assault Action's courage test, a
  fire-support request and its rounds' accuracy, clearing a lane through a minefield the side knows of (the
  mines the clearing model sets off for each movement roll, ``crossing_odds.crossing_odds``) and a move whose walk
  enters one (the model that walks the most inside; a vehicle's belly armour against the mines).
  Shooting is :func:`~dustup_env.rules.unit_actions.shoot_action.resolve_fire`'s steps summed per roll of the target
  die (:func:`shot_distribution`; ``tests/test_insight.py`` checks it against the enumeration of ``resolve_fire``
  itself, ``dustup odds shoot``, which takes half a minute for four D12 firepower dice); one hit's impact against
  armour, a missile and the courage test enumerate the engine's own dice code.
* :func:`sight` ``(game, side, unit=|target=|point=)``: which enemy units an own unit can see (range band, target
  die, whether it may fire now), which own units see an enemy unit or a point.
* :func:`reach` ``(game, side, unit)``: for each nominated distance of the Move Action, the ends of the walk in
  each of the 16 directions with the movement roll's least and greatest result (the engine's own walk,
  ``move_action.walk_path``, with the figures the side knows of).
* :func:`measure`: the distance, bearing, line of sight and range band between two points.

Hidden information: only the enemy units ``game.enemy_units(side)`` lists (those the side knows of) are ever read;
a hidden unit, a marker (real or dummy) and a mine nobody has seen are never asked about, and what cannot be known
is said as ``"unknown"`` (a missile's interception by the target's decoy, which the target's side decides).
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from dustup_env.rules.kernel.battlefield import observer_of
from dustup_env.rules.kernel.data import armoury
from dustup_env.rules.kernel.dice import (D8, D12, die_max, die_multiplier, die_name, die_sides, exact_distribution,
                                         shift_closed)
from dustup_env.rules.kernel.entities import BROKEN, KILLED, OK
from dustup_env.rules.unit_actions import move_action as mv
from dustup_env.rules.unit_actions import shoot_action as sa

SHORT = sa.SHORT_RANGE
BANDS = ("short", "effective", "long")
SHOOT_FAMILY = ("shoot", "shoot_weapon", "throw")
FIRE_SUPPORT = ("request_fire", "fire_target")
MINES = ("clear_lane", "move")
ENUMERABLE = frozenset(SHOOT_FAMILY + ("assault", "fire_heavy", "fire_iavr", "fire_guided", "fire_vehicle")
                       + FIRE_SUPPORT + MINES)
ODDS_KINDS = frozenset({"action", "fire_target"})  # the decision kinds whose options may carry odds


def _faces(step: int) -> list[int]:
    m = die_multiplier(step)
    return [m * k for k in range(1, die_sides(step) + 1)]


def band(distance: float, effective: float = sa.EFFECTIVE_RANGE) -> str:
    """The range band of the Shoot Action's target die: short (12" or less), effective, long (beyond the
    effective range)."""
    if distance > effective:
        return "long"
    return "short" if distance <= SHORT else "effective"


# ---------------------------------------------------------------------------------------------- the dice
@lru_cache(maxsize=4096)
def shot_distribution(quality: int, firepower: tuple, target: int, suppressive: bool = False,
                      extra_hits: bool = True) -> tuple[dict, dict]:
    """Exact distribution of one roll to hit (``resolve_fire``): ({none, minor, major}: P, {hits: P}).

    The same steps as ``resolve_fire``: for each target roll ``t``, each of the quality and firepower dice succeeds
    above ``t``; none: no success; one (or suppressive fire): no hits; two or more: the dice's total divided by the
    target die type, and the remainder's roll (the target die, at most the remainder) one hit more."""
    dice = [quality, *firepower]
    tf = _faces(target)
    nt = len(tf)
    div = die_max(target)
    # integer counts of face combinations (exact; one common denominator: every face of every die, the target die
    # twice: its roll and the remainder's roll)
    denom = nt * nt
    res = {"none": 0, "minor": 0, "major": 0}
    hits: dict[int, int] = {}
    for d in dice:
        denom *= len(_faces(d))
    for t in tf:
        states = {(0, 0): 1}  # (successes capped at 2, total) -> number of face combinations
        for d in dice:
            f = _faces(d)
            nxt: dict = {}
            for (s, tot), c in states.items():
                for r in f:
                    k = (2 if s + (r > t) > 2 else s + (r > t), tot + r)
                    nxt[k] = nxt.get(k, 0) + c
            states = nxt
        for (s, tot), c in states.items():
            c *= nt  # the remainder's roll, rolled or not
            if s == 0:
                res["none"] += c
                hits[0] = hits.get(0, 0) + c
            elif s == 1 or suppressive:
                res["minor" if s == 1 else "major"] += c
                hits[0] = hits.get(0, 0) + c
            else:
                res["major"] += c
                h, rem = divmod(tot, div)
                if extra_hits and rem:
                    e = sum(1 for x in tf if x <= rem)  # the target die at most the remainder: one hit more
                    hits[h + 1] = hits.get(h + 1, 0) + c // nt * e
                    hits[h] = hits.get(h, 0) + c // nt * (nt - e)
                else:
                    hits[h] = hits.get(h, 0) + c
    res = {k: Fraction(v, denom) for k, v in res.items()}
    hits = {k: Fraction(v, denom) for k, v in hits.items()}
    return res, {k: v for k, v in sorted(hits.items()) if v}


@lru_cache(maxsize=4096)
def hit_effect(impact: int, armour: int, vehicle: bool = False, no_armour: bool = False) -> dict:
    """One hit: the impact die against the armour die, enumerated through the engine's own code
    (``resolve_impact`` for a figure: none / wound / kill; ``vehicle_impact`` for a vehicle: none / damaged /
    destroyed)."""
    if vehicle:
        from dustup_env.rules.armoured_dustup.heavy_weapons import vehicle_impact
        dist = exact_distribution(lambda d: vehicle_impact(d, impact=impact, armour=armour)[0])
        return {k: dist.get(k, Fraction(0)) for k in ("none", "damaged", "destroyed")}
    dist = exact_distribution(lambda d: sa.resolve_impact(d, impact=impact, armour=armour, no_armour=no_armour)[0])
    return {k: dist.get(k, Fraction(0)) for k in ("none", "wound", "kill")}


def _f(x) -> float:
    return round(float(x), 12)


def _slots(game, t) -> tuple[list, int]:
    """The figures a hit of fire may fall on (not killed; a crew-served weapon is one more place) and how many
    places: ``kernel.attack.resolve_hits``'s allocation."""
    alive = [f for f in t.figures if f.status != KILLED]
    n = len(alive)
    has_weapon = game.rules.services.get("weapon_target")
    if has_weapon is not None and has_weapon(game, t):
        n += 1
    return alive, n


def casualties_expected(game, t, hits: dict, impact: int, armour_shift: int):
    """Expected casualties of ``hits`` (k -> P) on infantry ``t``: each hit falls on one of the ``n`` places at
    random and a figure able before becomes a casualty when an impact beats its armour (a wound or a kill), so a
    figure able now is a casualty after ``k`` hits with probability 1 - (1 - p/n)^k.  None for a unit whose hits go
    to the casualty table (power armour) rather than wound or kill."""
    alive, n = _slots(game, t)
    if not n:
        return 0.0
    arm = armoury()[1]
    ps = []
    for f in alive:
        if f.status != OK:
            continue
        a = arm[f.armour or t.armour]
        if a.power_armour and "power_armour" in game.rules.damage:
            return None
        e = hit_effect(impact, shift_closed(a.die, armour_shift) if armour_shift else a.die, no_armour=a.no_armour)
        ps.append(float(e["wound"] + e["kill"]))
    total = 0.0
    for k, pk in hits.items():
        if k:
            total += float(pk) * sum(1.0 - (1.0 - p / n) ** k for p in ps)
    return total


def vehicle_expected(hits: dict, impact: int, armour: int) -> dict:
    """A vehicle struck by ``hits`` (k -> P) hits of ``impact`` against ``armour``: each hit rolls until one
    destroys (Indicating Damaged Vehicles): P(destroyed), P(damaged and not destroyed)."""
    e = hit_effect(impact, armour, vehicle=True)
    pd, pm = float(e["destroyed"]), float(e["damaged"])
    destroyed = damaged = 0.0
    for k, pk in hits.items():
        if k:
            pk = float(pk)
            destroyed += pk * (1 - (1 - pd) ** k)
            damaged += pk * ((1 - pd) ** k - (1 - pd - pm) ** k)
    return {"damaged": damaged, "destroyed": destroyed}


def _fire_record(game, firer, t, quality: int, fp: list, step: int, impact: int, cover: int, distance: float,
                 effective: float | None, *, suppressive=False, origin=None, vehicle: bool | None = None) -> dict:
    """``{"dice", "odds"}`` of a roll to hit that resolves like the Shoot Action's at ``t``."""
    extra = bool(game.options["extra_hits"])
    res, hits = shot_distribution(quality, tuple(fp), step, suppressive, extra)
    dice = {"quality": die_name(quality), "firepower": [die_name(s) for s in fp], "target": die_name(step),
            "impact": die_name(impact), "distance": round(distance, 2),
            "band": band(distance, effective) if effective is not None else ("long" if step > 2 else "effective"),
            "suppressive": suppressive, "extra_hits": extra}
    odds = {k: _f(res[k]) for k in ("none", "minor", "major")}
    odds["expected_hits"] = _f(sum(k * p for k, p in hits.items()))
    odds["hits"] = {str(k): _f(p) for k, p in hits.items()}
    if vehicle is None:
        vehicle = _vehicle_target(game, t)
    if vehicle:
        from dustup_env.rules.armoured_dustup.vehicles import armour_die, armour_facing
        ox, oy = (firer.x, firer.y) if origin is None else origin
        facing = armour_facing(t, ox, oy)
        armour = armour_die(t, facing)
        dice.update(facing=facing, armour=die_name(armour))
        odds.update({k: _f(v) for k, v in vehicle_expected(hits, impact, armour).items()})
    else:
        a = armoury()[1][t.armour]
        shift = (1 if t.propped else 0) + cover
        dice.update(armour=die_name(sa.shift_closed(a.die, shift)), cover=cover)
        ec = casualties_expected(game, t, hits, impact, shift)
        odds["expected_casualties"] = "unknown" if ec is None else _f(ec)
    return {"dice": dice, "odds": odds}


def _vehicle_target(game, t) -> bool:
    """Whether hits on ``t`` go to the vehicle rules (the attack pipeline's kind ``vehicle``)."""
    from dustup_env.rules.kernel.attack import VEHICLE, target_kind
    return target_kind(t) == VEHICLE and VEHICLE in game.rules.attacks


def _shoot(game, u, t, opt) -> dict | None:
    mode = (opt[2] if opt[0] == "shoot" else sa.WEAPON_MODES[opt[2]] if opt[0] == "shoot_weapon"
            else sa.THROW_MODES[opt[2]])
    plan = sa.shot_plan(game, u, t, mode)
    if plan is None:
        return None
    dist, (conc, cover), sa_, sup, throwers, step, thrown, own = plan
    fp, impact = sa.firepower(u, sa_, sup, throwers, thrown, own)
    w = armoury()[0]
    eff = min([48.0] + [w[u.figures[i].weapon].effective_range for i in sa_ + sup])
    rec = _fire_record(game, u, t, u.quality, fp, step, impact, cover, dist, eff, suppressive=mode == "suppressive")
    rec["dice"]["concealment"] = conc
    return rec


def _plan_record(game, u, t, plan: dict, effective: float | None) -> dict:
    origin = plan.get("origin")
    return _fire_record(game, u, t, u.quality, list(plan["firepower"]), plan["target_die"], plan["impact"],
                        plan.get("cover", 0), plan["distance"], effective, origin=tuple(origin) if origin else None,
                        vehicle=bool(plan["vehicle"]))


def _guided(game, u, t, plan: dict) -> dict:
    from dustup_env.rules.armoured_dustup.guided_weapons import resolve_guided
    from dustup_env.rules.armoured_dustup.heavy_weapons import vehicle_impact
    ecm, guidance = plan["ecm"], plan["guidance"]
    dist = exact_distribution(lambda d: resolve_guided(d, quality=u.quality, guidance=guidance, ecm=ecm).result)
    odds = {"miss": _f(dist.get("none", 0)), "suppressed": _f(dist.get("minor", 0)), "hit": _f(dist.get("major", 0)),
            "interception": "unknown"}
    dice = {"quality": die_name(u.quality), "guidance": die_name(guidance), "ecm": die_name(ecm),
            "impact": die_name(plan["impact"])}
    if plan["vehicle"]:
        from dustup_env.rules.armoured_dustup.vehicles import armour_die, armour_facing
        ox, oy = plan["origin"]
        facing = armour_facing(t, ox, oy)
        armour = armour_die(t, facing)
        e = exact_distribution(lambda d: vehicle_impact(d, impact=plan["impact"], armour=armour)[0])
        hit = dist.get("major", 0)
        odds.update(damaged=_f(hit * e.get("damaged", 0)), destroyed=_f(hit * e.get("destroyed", 0)))
        dice.update(facing=facing, armour=die_name(armour))
    else:
        ec = casualties_expected(game, t, {1: dist.get("major", Fraction(0))}, plan["impact"], plan.get("cover", 0))
        odds["expected_casualties"] = "unknown" if ec is None else _f(ec)
    return {"dice": dice, "odds": odds}


def _assault(game, u, t) -> dict:
    from dustup_env.rules.unit_actions import assault_courage_test as ct
    from dustup_env.rules.kernel.dice import shift_open_both
    a_sh = ct.courage_shifts(game, u, t, defender=False, final=False)
    d_sh = ct.courage_shifts(game, t, u, defender=True, final=False)
    a_die, d_die = shift_open_both(u.quality, sum(s for _, s in a_sh), t.quality, sum(s for _, s in d_sh))
    forced = not ct.assaulted_vehicle(game, t)
    broken = t.confidence == BROKEN

    def outcome(dice):
        a, d = dice.roll(a_die), dice.roll(d_die)
        if broken and a > d and forced:
            return "defender_routs"
        if a > 2 * d and forced:
            return "defender_withdraws"
        if a > d:
            return "contact"
        if 2 * a < d:
            return "fail_badly"
        return "fail"

    dist = exact_distribution(outcome)
    mine, theirs = ct.unit_counts(game, u, None, t, None)
    return {"dice": {"attacker": die_name(a_die), "defender": die_name(d_die),
                     "attacker_shifts": [list(s) for s in a_sh], "defender_shifts": [list(s) for s in d_sh],
                     "strength": [mine, theirs], "outnumbered": {"attacker": ct.outnumbered(mine, theirs),
                                                                 "defender": ct.outnumbered(theirs, mine)}},
            "odds": {k: _f(dist.get(k, 0)) for k in ("defender_routs", "defender_withdraws", "contact", "fail",
                                                     "fail_badly")},
            "note": "the courage test as things stand now: before the move into contact and any final defensive fire"}


@lru_cache(maxsize=256)
def accuracy_odds(die: int, leadership: int | None, guided: bool) -> tuple:
    """One round's accuracy and scatter (:func:`~dustup_env.rules.artillery_and_air_support.impacts.roll_round`, every
    die face enumerated): (P(on target), {scatter inches: P})."""
    from dustup_env.rules.artillery_and_air_support.impacts import roll_round
    dist = exact_distribution(lambda d: roll_round(d, die, leadership, guided), key=lambda r: -1 if r[1] else r[3])
    on = dist.pop(-1, Fraction(0))
    return on, dict(sorted(dist.items()))


def _fire_support(game, u, option) -> dict | None:
    """A fire-support request (``request_fire``: the request roll's success, the engine's ``resolve_request`` with the
    jamming roll when the option ``jamming`` is on, enumerated) and the accuracy of each round it would bring (the
    requestor observes the impact while it is on the table: its range-finding die, leadership and the asset's
    guidance, ``impacts.mission_die``); placing the real target marker (``fire_target``): the accuracy at that
    point.  Everything read is the side's own: its unit, its assets, its chits; the enemy's jammer die is scenario
    data."""
    from dustup_env.rules.artillery_and_air_support import fire_support_request as fsr
    from dustup_env.rules.artillery_and_air_support import impacts
    name = option[0]
    if name == "request_fire":
        a = fsr.assets(game, u.side)[option[1]]
        chits = option[2]
        role = fsr.observer_role(game, u.uid)
        support = fsr.FIRERS[a["firer"]]
        down = fsr.FROM_SHIFT[a["from"]]

        def request(dice):
            _, jam = fsr.jam_shift(_Rolling(game, dice), u.side)
            return fsr.resolve_request(dice, leadership=u.lv, requestor=role, support=support, chits=chits, down=down,
                                       jam=jam, diff=a["difficulty"]).success

        success = exact_distribution(request).get(True, Fraction(0))
        needed = u.lv + (fsr.difficulty(role, support) if a["difficulty"] is None else a["difficulty"])
        die_type = shift_closed(D8, chits - down)  # before any jamming shift (rolled, and enumerated above)
        x, y = u.x, u.y  # the markers go where the requestor sees: a laser's observer sees its target
        dice = {"request": die_name(die_type), "needed": needed, "requestor": role, "support": support,
                "asset": a["name"], "chits": chits, "from": a["from"],
                "jamming": bool(game.options.get("jamming") and game.scenario["sides"][1 - u.side].get("jammer"))}
        odds = {"success": _f(success)}
    else:
        d = game.decision()
        if d.kind != "fire_target" or d.unit != u.uid:
            return None
        frame_asset = None
        for f in reversed(game.stack):
            if f.type == "fire_target" and f.unit == u.uid:
                frame_asset = f.data["asset"]
                break
        if frame_asset is None:
            return None
        a = fsr.assets(game, u.side)[frame_asset]
        x, y = float(option[1]), float(option[2])
        dice, odds = {"asset": a["name"]}, {}
    die, lv = impacts.mission_die(game, {"observer": u.uid, "guidance": a["guidance"], "x": x, "y": y})
    on, scatter = accuracy_odds(die, lv, a["guidance"] != "none")
    dice.update(accuracy=die_name(die), leadership=lv, guidance=a["guidance"], rounds=a["rounds"])
    odds.update(on_target=_f(on), scatter={str(k): _f(v) for k, v in scatter.items()},
                expected_scatter=_f(sum(k * v for k, v in scatter.items())))
    return {"dice": dice, "odds": odds,
            "note": "accuracy: each round, observed by the requestor while it is on the table"}


def movement_distribution(game, u) -> dict:
    """{result: P} of the movement roll of ``u`` now (the rule set's die and its fixed or halved rolls, enumerated)."""
    die = game.movement_die(u)

    def roll(dice):
        g = _Rolling(game, dice)
        for hook in game.rules.movement_roll:
            r = hook(g, u, die)
            if r is not None:
                return r
        return dice.roll(die)

    return dict(sorted(exact_distribution(roll).items()))


def _clear_lane(game, u, option) -> dict | None:
    """Clearing a lane (``clear_lane``, Additional Rules › Mine Clearing): the model that walks (the engine's own
    choice and path, ``minefields.lane_walk``) goes its movement roll in inches (half speed), and over the inches it
    walks inside the field it tests as a model crossing it (``crossing_odds.crossing_odds``, one test per 3" or part),
    for each movement roll and together.  The field is one the side knows of (the option's reference is the side's
    own: an enemy field it has not found has none)."""
    from dustup_env.rules.additional_rules.mines_and_explosives import crossing_odds as mc, minefields as mf
    from dustup_env.rules.kernel import table
    side = u.side
    e = table.by_ref(game, side, option[1])
    if e is None or e["refs"][side] < 0 or e["kind"] != mf.MINEFIELD or e["removed"]:
        return None
    kind = mf.field_type(e)
    if kind not in mf.INFANTRY_HIT:
        return None
    walk = mf.lane_walk(game, u, e)
    if walk is None:
        return None
    fi, _, _, _, _, t_in, t_out = walk
    walks, hits = [], {}
    for roll, p in movement_distribution(game, u).items():
        inches = round(mf.lane_inches(t_in, t_out, float(roll)), 6)
        h = mc.crossing_odds(kind, inches, u.quality)["hits"]
        walks.append({"roll": roll, "p": _f(p), "inches": inches, "hits": {k: _f(v) for k, v in h.items()}})
        for k, v in h.items():
            hits[k] = hits.get(k, Fraction(0)) + p * v
    hits = {k: hits[k] for k in sorted(hits, key=int)}
    dice = {"minefield": kind, "quality": die_name(u.quality), "needed": mf.INFANTRY_HIT[kind],
            "every": mf.TEST_EVERY, "movement": die_name(game.movement_die(u)), "figure": fi,
            "inches": [walks[0]["inches"], walks[-1]["inches"]]}
    odds = {"hits": {k: _f(v) for k, v in hits.items()}, "no_mine": _f(hits.get("0", Fraction(0))),
            "expected_hits": _f(sum(int(k) * v for k, v in hits.items())), "walks": walks}
    return {"dice": dice, "odds": odds,
            "note": "mines the clearing model sets off over the inches it walks inside (its movement roll in inches); "
                    "the walk ends at the first mine that wounds or kills it"}


def _mixture(walks: list) -> dict:
    """The walks' odds weighted by their movement roll's chance (Fractions in, Fractions out)."""
    out: dict = {}
    for p, odds in walks:
        for k, v in odds.items():
            out[k] = out.get(k, Fraction(0)) + p * v
    return out


def _move_mines(game, u, option) -> dict | None:
    """A Move Action's move (``("move", direction, distance)``) whose walk enters a minefield the side knows of: for
    each movement roll the engine's own walk toward the nominated point (``move_action.walk_path``, the figures the
    side knows of in the way), the inches each model (a vehicle: the vehicle) walks inside each known AP, AT or
    mixed field, by the minefield rules' own steps (a step counts where its middle is inside), and their odds
    (``crossing_odds.crossing_odds``): the hits of the model that walks the most inside (several fields: each tested
    separately, the hits added), a vehicle's none / damaged / destroyed (its belly armour; fields in the order it
    enters them).  None when no known field is in reach, for a vehicle with a plough or roller (its own
    procedure), for a walk along a cleared lane and for a unit that does not walk by itself."""
    from dustup_env.rules.additional_rules.mines_and_explosives import crossing_odds as mc, minefields as mf
    if len(option) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in option[1:]):
        return None
    if not u.in_play or u.veh.carrier >= 0 or mf.aircraft(u):
        return None
    vehicle = u.profile.vehicle is not None
    if vehicle and mf.device(game, u) in ("plough", "roller"):
        return None
    kinds = ("at", "mixed") if vehicle else tuple(mf.INFANTRY_HIT)
    fields = [e for e in mf.known_fields(game, u.side) if not e["removed"] and mf.field_type(e) in kinds]
    if not fields:
        return None
    dist = movement_distribution(game, u)
    lf = u.figures[u.leader]
    offsets = [(0.0, 0.0, -1)] if vehicle else [(f.dx - lf.dx, f.dy - lf.dy, fi) for fi, f in enumerate(u.figures)
                                                 if f.status != KILLED]
    spread = max(math.hypot(ox, oy) for ox, oy, _ in offsets)
    far = 2.0 * max(dist) + spread + mf.FIELD_RADIUS + 1.0  # 2 points an inch at the cheapest: the roll's reach
    fields = [e for e in fields if math.hypot(e["x"] - u.x, e["y"] - u.y) <= far]
    if not fields:
        return None
    px, py = mv.nominated_point(u, option[1], option[2])
    blockers = mv.blockers_of(game, u)
    walks = []
    for roll, p in dist.items():
        inside: dict = {}  # (field id, figure) -> inches inside, in the order entered
        lane = []

        def step(x0, y0, x1, y1):
            mx, my = (x0 + x1) * 0.5, (y0 + y1) * 0.5
            seg = math.hypot(x1 - x0, y1 - y0)
            for e in fields:
                for ox, oy, fi in offsets:
                    if mf.inside(e, mx + ox, my + oy):
                        if not vehicle and mf.on_lane(e, mx, my):
                            lane.append(e["id"])
                        inside[(e["id"], fi)] = inside.get((e["id"], fi), 0.0) + seg
            return False

        mv.walk_path(game.bf, u, u.x, u.y, px, py, 2.0 * roll, blockers, u.terrain_column, step)
        if lane:
            return None
        walks.append((roll, p, {k: round(v, 6) for k, v in inside.items()}))
    if not any(w[2] for w in walks):
        return None
    kind_of = {e["id"]: mf.field_type(e) for e in fields}
    out, parts = [], []
    if vehicle:
        from dustup_env.rules.armoured_dustup.vehicles import armour_die
        belly = armour_die(u, "belly")
        for roll, p, inside in walks:
            res = {"none": Fraction(1), "damaged": Fraction(0), "destroyed": Fraction(0)}
            for (eid, _), inches in inside.items():  # each field in turn: the first mine that stops it ends the walk
                one = mc.crossing_odds(kind_of[eid], inches, None, vehicle=True, belly=belly)
                for r in ("damaged", "destroyed"):
                    res[r] += res["none"] * one[r]
                res["none"] *= one["none"]
            parts.append((p, res))
            out.append({"roll": roll, "p": _f(p), "fields": [{"minefield": kind_of[eid], "inches": v}
                                                             for (eid, _), v in inside.items()],
                        **{k: _f(v) for k, v in res.items()}})
        odds = {k: _f(v) for k, v in _mixture(parts).items()}
        dice = {"minefield": "/".join(sorted({kind_of[e] for w in walks for e, _ in w[2]})), "belly": die_name(belly),
                "impact": die_name(mf.VEHICLE_IMPACT), "every": mf.TEST_EVERY,
                "movement": die_name(game.movement_die(u))}
        odds["walks"] = out
        note = "mines under the vehicle over the inches it drives inside a known field, one per 3\" or part"
    else:
        for roll, p, inside in walks:
            best, hits = None, {"0": Fraction(1)}
            for fi in sorted({fi for _, fi in inside}):
                h = [Fraction(1)]
                for (eid, f), inches in inside.items():
                    if f != fi:
                        continue
                    one = mc.crossing_odds(kind_of[eid], inches, u.quality)["hits"]
                    nxt = [Fraction(0)] * (len(h) + len(one) - 1)
                    for a, pa in enumerate(h):
                        for b, pb in enumerate(one.values()):
                            nxt[a + b] += pa * pb
                    h = nxt
                key = (sum(k * v for k, v in enumerate(h)), sum(v for (_, f), v in inside.items() if f == fi))
                if best is None or key > best[0]:  # the most mines expected, then the most inches inside
                    best, hits = (key, fi), {str(k): v for k, v in enumerate(h)}
            fi = -1 if best is None else best[1]
            parts.append((p, hits))
            out.append({"roll": roll, "p": _f(p), "figure": fi, "models": len({f for _, f in inside}),
                        "fields": [{"minefield": kind_of[eid], "inches": v} for (eid, f), v in inside.items()
                                   if f == fi],
                        "hits": {k: _f(v) for k, v in hits.items()}})
        hits = _mixture(parts)
        hits = {k: hits[k] for k in sorted(hits, key=int)}
        dice = {"minefield": "/".join(sorted({kind_of[e] for w in walks for e, _ in w[2]})),
                "quality": die_name(u.quality), "needed": max(mf.INFANTRY_HIT[kind_of[e]] for w in walks
                                                              for e, _ in w[2]),
                "every": mf.TEST_EVERY, "movement": die_name(game.movement_die(u))}
        odds = {"hits": {k: _f(v) for k, v in hits.items()}, "no_mine": _f(hits.get("0", Fraction(0))),
                "expected_hits": _f(sum(int(k) * v for k, v in hits.items())), "walks": out}
        note = "mines set off by the model that walks the most inside a known field (each of its tests counted)"
    ins = [sum((f["inches"] for f in w["fields"]), 0.0) for w in out]
    dice["inches"] = [round(min(ins), 6), round(max(ins), 6)]
    return {"dice": dice, "odds": odds, "note": note + "; a field the side has not found is not in it"}


def option_odds(game, side: int, option, unit: int) -> dict | None:
    """``{"dice": ..., "odds": ...}`` of ``option`` (a tuple) of the pending action decision of ``unit`` (own), or
    None for an option without an enumerable outcome.  Only the enemy units ``side`` knows of are read."""
    if not option or unit is None or unit < 0 or option[0] not in ENUMERABLE:
        return None
    name = option[0]
    u = game.units[unit]
    if u.side != side or len(option) < 2 or not isinstance(option[1], (int, float)):
        return None
    if name in FIRE_SUPPORT:
        try:
            return _fire_support(game, u, option)
        except (KeyError, IndexError, AttributeError, TypeError, ValueError):
            return None
    if name in MINES:
        try:
            return _clear_lane(game, u, option) if name == "clear_lane" else _move_mines(game, u, option)
        except (KeyError, IndexError, AttributeError, TypeError, ValueError):
            return None
    if not isinstance(option[1], int):
        return None
    known = {e.uid: e for e in game.enemy_units(side)}
    t = known.get(option[1])
    if t is None:
        return None
    try:
        if name in SHOOT_FAMILY and len(option) == 3:
            return _shoot(game, u, t, option)
        if name == "assault":
            return _assault(game, u, t)
        if name == "fire_heavy":
            from dustup_env.rules.armoured_dustup import heavy_weapons as hw
            prof = hw.weapon_of(game, u)
            if prof is None:
                return None
            if prof.weapon.guidance:
                plan = game.rules.services["guided_plan"](game, u, t, prof.weapon)
                return None if plan is None else _guided(game, u, t, plan)
            plan = hw.heavy_plan(game, u, t, prof.weapon)
            return None if plan is None else _plan_record(game, u, t, plan, hw.effective_range(prof.weapon.size))
        if name == "fire_iavr":
            from dustup_env.rules.armoured_dustup import unguided_rockets as ur
            fi = ur.rocket_figure(u)
            plan = ur.rocket_plan(game, u, t, fi) if fi >= 0 else None
            if plan is None:
                return None
            eff = armoury()[0][u.figures[fi].weapon].effective_range
            plan = dict(plan, firepower=plan["firepower"], origin=None)
            return _plan_record(game, u, t, plan, eff)
        if name == "fire_guided":
            from dustup_env.rules.armoured_dustup import heavy_weapons as hw
            prof = hw.weapon_of(game, u)
            svc = game.rules.services.get("guided_plan")
            if prof is None or svc is None:
                return None
            plan = svc(game, u, t, prof.weapon)
            return None if plan is None else _guided(game, u, t, plan)
        if name == "fire_vehicle" and len(option) == 3:
            from dustup_env.rules.armoured_dustup import fire_by_vehicles as fv
            from dustup_env.rules.armoured_dustup.heavy_weapons import effective_range
            plan = fv.weapon_plan(game, u, t, option[2])
            if plan is None:
                return None
            if plan.get("guided"):
                return _guided(game, u, t, plan)
            return _plan_record(game, u, t, plan, effective_range(fv.weapons(u)[option[2]].size))
    except (KeyError, IndexError, AttributeError, TypeError, ValueError):
        return None  # an option whose plan this reader cannot work out: no odds rather than a wrong answer
    return None


def short_odds(rec: dict | None) -> str:
    """A one-line summary of :func:`option_odds` for an option's line: the dice and the main chances."""
    if not rec:
        return ""
    d, o = rec["dice"], rec["odds"]
    if "minefield" in d:
        lo, hi = d["inches"]
        span = f"{lo:g}\"" if lo == hi else f"{lo:g}-{hi:g}\""
        if "belly" in d:
            return f"{d['minefield']} minefield, {d['impact']} vs belly {d['belly']} per 3\" or part over {span}: " \
                f"damaged {o['damaged']:.0%} destroyed {o['destroyed']:.0%}"
        return f"{d['minefield']} minefield, {d['quality']} <= {d['needed']} per 3\" or part over {span}: " \
            f"no mine {o['no_mine']:.0%}, hits {o['expected_hits']:.2f}"
    if "accuracy" in d:
        s = f"request {d['request']} > {d['needed']}: success {o['success']:.0%}, " if "request" in d else ""
        return s + f"accuracy {d['accuracy']} > {d['leadership']}: on target {o['on_target']:.0%}, " \
            f"scatter {o['expected_scatter']:.1f} on average"
    if "target" in d:
        s = f"{d['quality']}+{'+'.join(d['firepower'])} vs {d['target']} ({d['band']}): "
        s += f"major {o['major']:.0%} minor {o['minor']:.0%}, hits {o['expected_hits']:.2f}"
        if "destroyed" in o:
            s += f", damaged {o['damaged']:.0%} destroyed {o['destroyed']:.0%}"
        elif isinstance(o.get("expected_casualties"), float):
            s += f", casualties {o['expected_casualties']:.2f}"
        return s
    if "guidance" in d:
        s = f"{d['quality']}+{d['guidance']} vs ECM {d['ecm']}: hit {o['hit']:.0%}"
        if "destroyed" in o:
            s += f", damaged {o['damaged']:.0%} destroyed {o['destroyed']:.0%}"
        return s
    if "attacker" in d:
        win = o["contact"] + o["defender_withdraws"] + o["defender_routs"]
        n = d["outnumbered"]
        out = f", outnumbering {n['defender']}:1" if n["defender"] else (
            f", outnumbered {n['attacker']}:1" if n["attacker"] else "")
        return f"courage {d['attacker']} vs {d['defender']}: pass {win:.0%}{out}"
    return ""


def decision_odds(game, side: int, decision) -> list:
    """:func:`option_odds` of every option of ``decision`` (None where there is none), the shared work done once."""
    if decision is None or decision.side != side:
        return []
    return [option_odds(game, side, o, decision.unit) for o in decision.options]


# ---------------------------------------------------------------------------------------------- sight
def _shot_summary(game, u, t) -> dict:
    """What ``u`` would roll shooting everything at ``t`` now (the ``all`` fire party), or why it cannot."""
    geo = sa.shoot_geometry(game, u, t)
    dist = math.hypot(t.x - u.x, t.y - u.y)
    rec = {"uid": t.uid, "name": t.name, "side": t.side, "distance": round(dist, 2), "visible": geo is not None}
    if geo is None:
        return rec
    rec["concealment"], rec["cover"] = geo
    ready = sa.weapons_ready(u, dist)
    plan = sa.plan_mode(game, u, t, "all", dist, geo, ready) if (ready[0] or ready[1]) else None
    if plan is None:
        rec["band"] = band(dist)
        rec["in_range"] = False
        return rec
    w = armoury()[0]
    eff = min([48.0] + [w[u.figures[i].weapon].effective_range for i in plan[2] + plan[3]])
    rec.update(band=band(dist, eff), in_range=True, target_die=die_name(plan[5]), effective_range=eff)
    return rec


def _own(game, side: int, unit) -> object:
    u = game.units[unit]
    if u.side != side:
        raise ValueError(f"unit {unit} is not one of side {side}'s units")
    return u


def sight(game, side: int, *, unit: int | None = None, target: int | None = None, point=None) -> dict:
    """What ``side`` may know of sight and range now.

    * ``unit`` (own): every enemy unit the side knows of, whether the unit sees it, the distance, the range band
      and the target die of the unit's whole fire (``all``), whether it may fire at it now (a shoot option of its
      pending decision);
    * ``target`` (an enemy unit the side knows of) or ``point`` ([x, y]): each own unit in play that sees it, with
      the distance (and, for a target, band and target die)."""
    if (unit is None) + (target is None) + (point is None) != 2:
        raise ValueError("sight: give exactly one of unit, target or point")
    known = {e.uid: e for e in game.enemy_units(side)}
    pending = None if game.over else game.decision()
    firing = set()
    if pending is not None and pending.side == side and pending.kind == "action":
        firing = {o[1] for o in pending.options if o[0] in SHOOT_FAMILY}
    if unit is not None:
        u = _own(game, side, unit)
        if not u.in_play:
            raise ValueError(f"unit {unit} is not in play")
        out = []
        for t in known.values():
            rec = _shot_summary(game, u, t)
            rec["may_fire"] = pending is not None and pending.unit == u.uid and t.uid in firing
            out.append(rec)
        out.sort(key=lambda r: (not r["visible"], r["distance"]))
        return {"unit": u.uid, "name": u.name, "x": u.x, "y": u.y, "enemies": out,
                "sees": [r["uid"] for r in out if r["visible"]]}
    own = [game.units[i] for i in game.side_units[side]]
    own = [o for o in own if o.in_play]
    if target is not None:
        t = known.get(target)
        if t is None:
            raise ValueError(f"target {target} is not an enemy unit this side knows of")
        seen_by = [dict(_shot_summary(game, o, t), uid=o.uid, name=o.name, side=o.side) for o in own]
        seen_by = [r for r in seen_by if r["visible"]]
        seen_by.sort(key=lambda r: r["distance"])
        return {"target": t.uid, "name": t.name, "x": t.x, "y": t.y, "seen_by": seen_by}
    try:
        px, py = float(point[0]), float(point[1])
    except (TypeError, ValueError, IndexError):
        raise ValueError("point must be [x, y]") from None
    bf = game.bf
    if not (0.0 <= px <= bf.width and 0.0 <= py <= bf.height):
        raise ValueError(f"point [{px:g}, {py:g}] is off the table ({bf.width:g} x {bf.height:g})")
    seen_by = []
    for o in own:
        s = bf.sight_for(observer_of(o), o.x, o.y, px, py)
        if s.visible:
            d = math.hypot(px - o.x, py - o.y)
            seen_by.append({"uid": o.uid, "name": o.name, "distance": round(d, 2), "band": band(d),
                            "concealed": bool(s.concealed or bf.conceals(px, py)), "cover": max(s.cover,
                                                                                                   bf.cover_at(px, py))})
    seen_by.sort(key=lambda r: r["distance"])
    return {"point": [px, py], "seen_by": seen_by}


# ---------------------------------------------------------------------------------------------- measuring
def measure(game, a, b) -> dict:
    """The distance from ``a`` to ``b`` ([x, y] each, rules units), the compass bearing (0 = north, clockwise),
    the terrain's line of sight between them (concealment, cover) and the Shoot Action's range band."""
    try:
        ax, ay, bx, by = float(a[0]), float(a[1]), float(b[0]), float(b[1])
    except (TypeError, ValueError, IndexError):
        raise ValueError("measure: from and to must be [x, y]") from None
    bf = game.bf
    for x, y in ((ax, ay), (bx, by)):
        if not (0.0 <= x <= bf.width and 0.0 <= y <= bf.height):
            raise ValueError(f"point [{x:g}, {y:g}] is off the table ({bf.width:g} x {bf.height:g})")
    d = math.hypot(bx - ax, by - ay)
    s = bf.sight(ax, ay, bx, by)
    return {"from": [ax, ay], "to": [bx, by], "distance": round(d, 3),
            "bearing": round(math.degrees(math.atan2(bx - ax, by - ay)) % 360.0, 1), "band": band(d),
            "line_of_sight": bool(s.visible), "concealed": bool(s.concealed), "cover": int(s.cover)}


# ---------------------------------------------------------------------------------------------- honest moves
class _Rolling:
    """``game`` with other dice and an event list of its own: the movement-roll hooks and the Shaken unit's leadership
    test read ``game.dice`` (enumerated) and write ``game.events`` (thrown away); the game's own are untouched."""

    def __init__(self, game, dice):
        self._game, self.dice, self.events = game, dice, []

    def __getattr__(self, name):
        return getattr(self._game, name)


def movement_rolls(game, u) -> list[int]:
    """Every result the movement roll of ``u`` may give now (the rule set's die and its fixed or halved rolls)."""
    return list(movement_distribution(game, u))


def reach(game, side: int, unit: int) -> dict:
    """For each nominated distance of the Move Action, where the walk toward each of the 16 compass directions ends
    with the least and the greatest movement roll (2 points per pip; the terrain's costs, obstacles, the table's
    edge and the 2" from the enemy figures the side knows of: ``move_action.walk_path``), and ``p_moves``, the chance
    that the unit moves at all (1 unless a Shaken unit's leadership test comes first).  What the side cannot know
    (a mine not yet found) is not in it."""
    u = _own(game, side, unit)
    rolls = movement_rolls(game, u)
    lo, hi = rolls[0], rolls[-1]
    blockers = mv.blockers_of(game, u)
    bf = game.bf
    out = []
    for k, dist in enumerate(mv.DISTANCES):
        dirs = []
        for d in range(mv.DIRECTIONS):
            px, py = mv.nominated_point(u, d, k)
            ends = []
            for r in (lo, hi):
                x, y = mv.move_path(bf, u, px, py, 2.0 * r, blockers, u.terrain_column)
                ends.append([round(x, 3), round(y, 3)])
            # a Shaken unit advancing or leaving cover tests its leadership first (Move Action, may_advance)
            moves = exact_distribution(lambda dice: mv.may_advance(_Rolling(game, dice), u, px, py))
            dirs.append({"dir": d, "point": [round(px, 3), round(py, 3)], "min": ends[0], "max": ends[1],
                         "p_moves": round(float(moves.get(True, 0)), 12)})
        out.append({"distance": dist, "k": k, "directions": dirs})
    return {"unit": u.uid, "x": u.x, "y": u.y, "movement": die_name(game.movement_die(u)), "rolls": [lo, hi],
            "points": [2.0 * lo, 2.0 * hi], "distances": out}


COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")


def move_grid(options) -> dict:
    """The move options of a decision as a compass grid: {direction index: {distance index: option}}, and the other
    options (the compact move picker of the page and the terminal)."""
    grid: dict = {}
    for o in options:
        if o[0] == "move" and len(o) == 3:
            grid.setdefault(o[1], {})[o[2]] = o
    return grid


__all__ = ["option_odds", "decision_odds", "short_odds", "shot_distribution", "hit_effect", "sight", "measure",
           "reach", "movement_rolls", "move_grid", "band", "COMPASS", "D12"]
