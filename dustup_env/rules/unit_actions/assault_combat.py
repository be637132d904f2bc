"""Assault Action › Combat Resolution, Strike Value, Result, Casualties, Counterstrike, Outcome, Total Victory,
Multiple Units in Close Combat and Special Close Combat Weapons (seed 000 L796-L910): strike dice, the target die,
the two rounds of strikes, casualties and the outcome test of each pairing."""
from __future__ import annotations

import math

from ..kernel.attack import resolve_hits
from ..kernel.data import armoury
from ..kernel.dice import die_max, die_name, parse_die, shift_closed, value_to_die
from ..kernel.events import LeaderLost
from ..kernel.entities import KILLED, OK, ROUTED, TREATED, WOUNDED, Unit
from ..morale.confidence_test import confidence_test
from .assault_courage_test import courage_roll, outnumbered, strength, unit_counts, vehicle_of
from .assault_events import CourageTested, StrikeResolved

# ---------------------------------------------------------------------------------------- combat resolution

def strike_dice(game, u: Unit, figs) -> tuple[list[int], bool]:
    """Strike dice of the striking figures: (SV x troopers) rounded up to a die (< 4 -> D4), plus the
    strike dice of special close-combat weapons.  Returns (dice, over_12)."""
    weapons = armoury()[0]
    sv = 0.0
    special = []
    for i in figs:
        w = weapons[u.figures[i].weapon]
        if w.strike_die >= 0:
            special.append(w.strike_die)
        else:
            sv += w.strike
    dice = []
    if sv > 0:
        dice.append(value_to_die(math.ceil(sv - 1e-9)))
    dice.extend(special)
    vp = vehicle_of(game, u)
    if vp is not None:  # a mech's close-combat weapons: one strike die each (RN-851)
        dice.extend(parse_die(w.strike) for w in vp.weapons if w.category == "close_combat" and w.strike)
    return dice, sv > 12


def resolve_strike(dice, *, quality: int, strike: list[int], target: int, extra_hits: bool = True):
    """Striker rolls quality + strike dice against the target's (shifted) quality die.

    Order of rolls: target die, quality die, strike dice, then the remainder roll.  One success is a
    minor success (total / target die type), two or more a major one (total doubled).
    Returns ``(target_roll, rolls, successes, result, hits)``.
    """
    t = dice.roll(target)
    rolls = [dice.roll(quality)] + [dice.roll(s) for s in strike]
    successes = sum(1 for r in rolls if r > t)
    if successes == 0:
        return t, tuple(rolls), 0, "none", 0
    total = sum(rolls)
    result = "minor" if successes == 1 else "major"
    if result == "major":
        total *= 2
    hits, rem = divmod(total, die_max(target))
    if extra_hits and rem and dice.roll(target) <= rem:
        hits += 1
    return t, tuple(rolls), successes, result, hits


def apply_hits(game, striker: Unit, target: Unit, figs: list[int], hits: int, cas: dict,
               impact: int | None = None, armour_shift: int = 0) -> None:
    """Allocate hits at random among the target detachment's figures (not killed), then roll the
    striker's close-combat impact (``impact``: a special-weapon detachment's own, else the unit's ``cc_impact``)
    against each figure's armour, no cover or prop shifts (the attack pipeline: a power-armoured figure takes
    the Power Armour Troops as Casualties table, an extracted occupant its own armour, RN-500)."""
    if vehicle_of(game, striker) is not None or vehicle_of(game, target) is not None:
        game.rules.services["mech_close_combat_hits"](game, striker, target, figs, hits, cas)  # RN-852
        return
    res = resolve_hits(game, target, hits, striker.cc_impact if impact is None else impact, armour_shift, figs)
    if res.leader_hit:
        cas["leader"] = True


def casualty_counts(u: Unit, figs, before: dict) -> dict:
    """Figures wounded / killed since ``before`` (figure index -> status at contact)."""
    w = k = 0
    for i in figs:
        s0, s1 = before[i], u.figures[i].status
        if s1 == s0:
            continue
        if s1 == KILLED:
            k += 1
        elif s1 in (WOUNDED, TREATED):  # a power-armoured trooper stabilised by the casualty table: wounded
            w += 1
    return {"wounded": w, "killed": k}


def split_figures(u: Unit, opponents: list[int], figs: list[int] | None = None) -> list[list[int]]:
    """Split a unit's able figures (or ``figs``) into detachments matched to the opponents' sizes (seed 000
    Multiple Units in Close Combat: "as nearly as possible"); remainders go to the largest opponents, and no
    detachment is left empty while another has two figures or more."""
    able = u.able() if figs is None else list(figs)
    if len(opponents) <= 1:
        return [able]
    n, total = len(able), sum(opponents) or 1
    quotas = [n * s / total for s in opponents]
    sizes = [int(q) for q in quotas]
    order = sorted(range(len(opponents)), key=lambda i: (-(quotas[i] - sizes[i]), -opponents[i], i))
    for i in order[: n - sum(sizes)]:
        sizes[i] += 1
    for i in range(len(sizes)):
        if sizes[i] == 0:
            j = max(range(len(sizes)), key=lambda k: (sizes[k], -k))
            if sizes[j] > 1:
                sizes[j] -= 1
                sizes[i] += 1
    out, pos = [], 0
    for s in sizes:
        out.append(able[pos: pos + s])
        pos += s
    return out


def special_impact(u: Unit, i: int) -> int:
    """The close-combat impact of figure ``i``'s special weapon if it is better than the unit's, else -1."""
    w = armoury()[0][u.figures[i].weapon]
    return w.cc_impact if w.cc_impact > u.cc_impact else -1


def split_special(game, p: dict, side: str) -> list[dict] | None:
    """Seed 000 Special Close Combat Weapons: "Some close combat weapons have an impact value greater than the
    normal squad impact value ... the unit should split into detachments as described above" (RN-304).  In the
    pairing ``p``, ``side``'s ("a" or "d") able figures with such a weapon become their own detachment striking
    with the weapon's impact (the lowest, if several), the rest another; the opposing detachment is split to
    match them (Multiple Units in Close Combat).  Returns the two pairings, or None if the split is not possible
    (no special figure, no other figure, or fewer than two opposing figures)."""
    units = game.units
    other = "d" if side == "a" else "a"
    u, o = units[p[side]], units[p[other]]
    spec, rest = [], []
    for i in p[side + "f"]:
        if u.figures[i].status == OK:
            (spec if special_impact(u, i) > 0 else rest).append(i)
    ofigs = [i for i in p[other + "f"] if o.figures[i].status == OK]
    if not spec or not rest or len(ofigs) < 2:
        return None
    o_spec, o_rest = split_figures(o, [strength(game, u, spec), strength(game, u, rest)], ofigs)
    p1 = dict(p)
    p1[side + "f"], p1[other + "f"], p1[side + "_impact"] = spec, o_spec, min(special_impact(u, i) for i in spec)
    p2 = dict(p)
    p2[side + "f"], p2[other + "f"] = rest, o_rest
    return [p1, p2]


def combat_target_die(game, target: Unit, own: int, other: int, striker_over_12: bool) -> int:
    """The target's quality die shifted down for outnumbering (2:1 once, 3:1 twice), once per
    suppression marker and once more if the striker's strike value exceeds 12 (closed shifts)."""
    shift = 0
    n = outnumbered(own, other)
    shift -= 2 if n == 3 else (1 if n == 2 else 0)
    if target.confidence != ROUTED:
        shift -= target.suppression
    if striker_over_12:
        shift -= 1
    q = target.quality
    if target.veh.damage and vehicle_of(game, target) is not None:  # L1463: a damaged mech defending itself (RN-136)
        q = game.rules.services["defending_quality"](target)
    return shift_closed(q, shift)


def fight_pairs(game, pairs: list[dict]) -> None:
    """Seed 000 Combat Resolution for every pairing: round 1 each attacker strikes, round 2 each
    defender strikes back with the figures able at contact (simultaneous; routed units do not strike)."""
    units = game.units
    for p in pairs:
        a, d = units[p["a"]], units[p["d"]]
        p["a_before"] = {i: a.figures[i].status for i in p["af"]}
        p["d_before"] = {i: d.figures[i].status for i in p["df"]}
        p["a_str"], p["d_str"] = unit_counts(game, a, p["af"], d, p["df"])
        p["a_cas"], p["d_cas"] = {}, {}
    for rnd in (1, 2):
        for p in pairs:
            a, d = units[p["a"]], units[p["d"]]
            if rnd == 1:
                s, t, sf, tf, s_str, t_str, cas = a, d, p["af"], p["df"], p["a_str"], p["d_str"], p["d_cas"]
            else:
                s, t, sf, tf, s_str, t_str, cas = d, a, p["df"], p["af"], p["d_str"], p["a_str"], p["a_cas"]
            if s.confidence == ROUTED or not sf:
                continue  # routing units do not strike back
            dice, over = strike_dice(game, s, sf)
            tdie = combat_target_die(game, t, t_str, s_str, over)
            tr, rolls, succ, result, hits = resolve_strike(game.dice, quality=s.quality, strike=dice, target=tdie,
                                                           extra_hits=game.options["extra_hits"])
            game.emit(StrikeResolved(s.uid, t.uid, rnd, die_name(tdie), tr,
                                     tuple(die_name(x) for x in [s.quality] + dice), rolls, succ, result, hits))
            apply_hits(game, s, t, tf, hits, cas, p.get("a_impact" if rnd == 1 else "d_impact"),
                       p.get("d_cover", 0) if rnd == 1 else 0)  # passengers behind cover (RN-856)
    for p in pairs:
        a, d = units[p["a"]], units[p["d"]]
        p["a_cas"].update(casualty_counts(a, p["af"], p["a_before"]))
        p["d_cas"].update(casualty_counts(d, p["df"], p["d_before"]))
        for cas in (p["a_cas"], p["d_cas"]):
            if "damage" in cas:  # a mech's damage markers count as wounded figures in the courage test (RN-852)
                cas["wounded"] = cas.get("wounded", 0) + cas.pop("damage")
        for u, cas in ((a, p["a_cas"]), (d, p["d_cas"])):
            if cas.get("leader") and not u.leader_lost and u.figures[u.leader].status != OK:
                u.leader_lost = True
                game.emit(LeaderLost(u.uid, u.leader))
                if u.in_play:  # Death of a Leader (L1186): the unit tests at once, besides the outcome test
                    confidence_test(game.dice, u, ["leader_casualty"], events=game.events)
                [hook(game, u) for hook in game.rules.on_leader_lost]  # a commander falling in close combat: subordinates test


def pair_outcome(game, p: dict) -> tuple[str, int, int]:
    """Outcome test of one pairing: (loser "a" | "d" | "" , levels for the loser, winner) -- draws: the
    attacker withdraws without a drop; total victory: no test."""
    a, d = game.units[p["a"]], game.units[p["d"]]
    a_gone = all(a.figures[i].status != OK for i in p["af"]) if p["af"] and a.in_play else not a.in_play
    d_gone = all(d.figures[i].status != OK for i in p["df"]) if p["df"] and d.in_play else not d.in_play
    if d_gone and not a_gone:
        game.emit(CourageTested(a.uid, d.uid, True, "", "", (), (), 0, 0, "total_victory_attacker"))
        return "", 0, 0
    if a_gone and not d_gone:
        game.emit(CourageTested(a.uid, d.uid, True, "", "", (), (), 0, 0, "total_victory_defender"))
        return "", 0, 0
    if a_gone and d_gone:
        return "", 0, 0
    extra_a, extra_d = p.get("extra_a", ()), p.get("extra_d", ())
    A, D, ad, dd, ash, dsh = courage_roll(game, a, d, final=True, att_figs=p["af"], def_figs=p["df"],
                                          att_cas=p["a_cas"], def_cas=p["d_cas"], extra_att=extra_a,
                                          extra_def=extra_d)
    if A > D:
        res, loser, lv = ("defender_loses_two" if A > 2 * D else "defender_loses"), "d", (2 if A > 2 * D else 1)
    elif D > A:
        res, loser, lv = ("attacker_loses_two" if D > 2 * A else "attacker_loses"), "a", (2 if D > 2 * A else 1)
    else:
        res, loser, lv = "draw", "a", 0
    game.emit(CourageTested(a.uid, d.uid, True, die_name(ad), die_name(dd), tuple(ash), tuple(dsh), A, D, res))
    return loser, lv, 0
