"""The battle builder's points system: a unit's cost from the engine's own dice (docs/builder.md, "Points").

Seed 001 (Battle Builder, step 1) has each player agree "maximum Army Points"; no seed holds a points list
(seed 002's costing stage names one that is not provided; the DEIMOS at 356 Dirtside points is the only cost in
any seed, and in another system).  So the points are derived here, from three numbers the engine computes:

* **offence** ``O``: the casualties a unit's shoot action inflicts at a reference target (the expected hits of
  ``resolve_fire`` with the unit's quality and firepower dice against the reference target die, each hit's chance
  to wound or kill through ``resolve_impact`` against the reference armour), plus, for weapons that can hurt
  vehicles, the reference vehicle's chance of being destroyed (or half of it damaged) per action, counted as
  :data:`VEHICLE_WEIGHT` figures;
* **durability** ``D``: the hits it takes to put the unit out of the fight: its figures over one hit's chance to
  wound or kill (the reference small-arms impact against its armour); a vehicle :data:`VEHICLE_WEIGHT` over one
  reference anti-armour hit's chance to destroy it (half of a damaged result);
* **points** = ``SCALE * sqrt(O * D) - UNIT_OFFSET``: by Lanchester's square law two forces of such units are even
  when the sums of ``sqrt(offence x durability)`` are equal, so the points add up over a force; the offset, less
  for every unit, was measured by play (below).

Every reference value and constant below is *invented* (the seeds give none) and says so.  The expected hits are
computed exactly by enumerating the dice of ``resolve_fire``'s rule (``expected_hits``); a test checks it against
the engine's ``exact_distribution`` of ``resolve_fire`` itself.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from ..rules.armoured_dustup.guided_weapons import resolve_guided
from ..rules.armoured_dustup.heavy_weapons import vehicle_impact
from ..rules.kernel.attack import resolve_impact
from ..rules.kernel.data import DEFAULT_WEAPON, armoury
from ..rules.kernel.dice import D8, die_max, die_multiplier, die_name, die_sides, exact_distribution, parse_die
from ..rules.unit_actions.shoot_action import small_arms_die

# Invented reference values (docs/builder.md): the target most shots are at.
REFERENCE_TARGET = D8  # the Shoot Action's target die with no shift: in effective range, exposed, not short
REFERENCE_ARMOUR = "d6"  # partial light armour, the infantry armour of every built-in scenario
REFERENCE_IMPACT = "d8"  # the assault rifle's impact, the commonest weapon of weapons.json
REFERENCE_VEHICLE_ARMOUR = "d12x2"  # the front of the library's APCs and light tanks
REFERENCE_AT_IMPACT = "d12x2"  # the IAVRs' and the tank gun's impact against armour
REFERENCE_ECM = "d8"  # the default ECM die (average)
VEHICLE_WEIGHT = 6.0  # invented: a vehicle out of the fight is one unit (1 VP), as a squad of about 6 figures is
SCALE = 10.0  # invented: scales a regular rifle squad to about 30 points
# Measured by play (docs/builder.md): what O and D leave out (a unit out of the fight gives the enemy 1 VP whatever
# its size; a small unit breaks sooner) makes small units worth less than sqrt(O * D) says.  With no offset the force
# with more units scored 0.41 at equal points (200 pairs of hard vs hard), with 5 points 0.60, with 2.5 points 0.54.
UNIT_OFFSET = 2.5
QUALITIES = ("d6", "d8", "d10")


def _faces(step: int) -> list[int]:
    m = die_multiplier(step)
    return [m * f for f in range(1, die_sides(step) + 1)]


@lru_cache(maxsize=None)
def expected_hits(quality: int, firepower: tuple[int, ...], target: int, extra_hits: bool = True) -> Fraction:
    """Expected hits of one shot, exactly: ``resolve_fire``'s rule enumerated over every face.

    The target die is rolled; each of the quality and firepower dice that beats it is a success; two or more
    successes make a major result with (sum of the rolls) // (target die type) hits and, with the optional
    additional hits, one more when the target die rolls no more than the remainder."""
    div = die_max(target)
    total = Fraction(0)
    dice = (quality,) + tuple(firepower)
    tf = _faces(target)
    for t in tf:
        # distribution over (successes capped at 2, sum of the rolls)
        dist = {(0, 0): Fraction(1)}
        for d in dice:
            faces = _faces(d)
            p = Fraction(1, len(faces))
            nxt: dict = {}
            for (s, tot), q in dist.items():
                for f in faces:
                    k = (min(2, s + (f > t)), tot + f)
                    nxt[k] = nxt.get(k, 0) + q * p
            dist = nxt
        for (s, tot), q in dist.items():
            if s < 2:
                continue
            hits, rem = divmod(tot, div)
            extra = Fraction(sum(1 for f in tf if f <= rem), len(tf)) if (extra_hits and rem) else 0
            total += q * (hits + extra)
    return total / len(tf)


@lru_cache(maxsize=None)
def casualty_chance(impact: str, armour: str, no_armour: bool = False) -> Fraction:
    """One hit's chance to wound or kill a figure (``resolve_impact``, enumerated)."""
    i, a = parse_die(impact), parse_die(armour)
    dist = exact_distribution(lambda d: resolve_impact(d, impact=i, armour=a, no_armour=no_armour)[0])
    return dist.get("wound", Fraction(0)) + dist.get("kill", Fraction(0))


@lru_cache(maxsize=None)
def vehicle_kill_chance(impact: str, armour: str) -> Fraction:
    """One hit's chance to destroy a vehicle plus half its chance to damage it (``vehicle_impact``)."""
    i, a = parse_die(impact), parse_die(armour)
    dist = exact_distribution(lambda d: vehicle_impact(d, impact=i, armour=a)[0])
    return dist.get("destroyed", Fraction(0)) + dist.get("damaged", Fraction(0)) / 2


@lru_cache(maxsize=None)
def guided_hit_chance(quality: str, guidance: str) -> Fraction:
    """A guided missile's chance to hit (a major result of ``resolve_guided``) against the reference ECM."""
    q, g, e = parse_die(quality), parse_die(guidance), parse_die(REFERENCE_ECM)
    dist = exact_distribution(lambda d: resolve_guided(d, quality=q, guidance=g, ecm=e).result)
    return dist.get("major", Fraction(0))


@lru_cache(maxsize=None)
def design_profile(name: str):
    from ..rules.vehicle_design import library_profile

    return library_profile(name)


def _weapon_offence(quality: str, w) -> float:
    """One vehicle or heavy weapon's offence: casualties among reference infantry plus vehicle kills."""
    q = parse_die(quality)
    if w.category == "guided":
        hit = guided_hit_chance(quality, w.guidance)
        return float(hit * (casualty_chance(w.impact_vs_infantry, REFERENCE_ARMOUR)
                            + Fraction(VEHICLE_WEIGHT) * vehicle_kill_chance(w.impact_vs_armour,
                                                                                REFERENCE_VEHICLE_ARMOUR)))
    if w.category not in ("direct_fire", "apsw") or not w.firepower:
        return 0.0  # artillery, air defence, close-combat weapons: not priced (docs/builder.md)
    inf = expected_hits(q, tuple(parse_die(f) for f in w.firepower_vs_infantry) * w.barrels, REFERENCE_TARGET)
    veh = expected_hits(q, tuple(parse_die(f) for f in w.firepower) * w.barrels, REFERENCE_TARGET)
    return float(inf * casualty_chance(w.impact_vs_infantry, REFERENCE_ARMOUR)
                 + veh * Fraction(VEHICLE_WEIGHT) * vehicle_kill_chance(w.impact_vs_armour, REFERENCE_VEHICLE_ARMOUR))


def infantry_offence(unit: dict) -> float:
    """A unit's shoot action with every figure (``all``): the small-arms die from the summed firepower and one
    die per support weapon, the small arms' lowest impact (or the support weapons' when there are no small
    arms), as ``shoot_action.firepower`` builds them; rockets against the reference vehicle."""
    weapons, _ = armoury()
    q = parse_die(unit.get("quality", "d8"))
    sa_fp, support, impacts_sa, impacts_sup, rockets = 0.0, [], [], [], []
    for f in unit["figures"]:
        w = weapons[f.get("weapon", DEFAULT_WEAPON)]
        n = f.get("count", 1)
        if w.cls == "small_arms":
            sa_fp += w.fp * n
            impacts_sa.append(w.impact)
        elif w.cls == "support":
            support += [w.fp_die] * n
            impacts_sup.append(w.impact)
        elif w.cls == "iavr":
            rockets += [w] * n
            backup = weapons[w.backup] if w.disposable else None
            if backup is not None:
                sa_fp += backup.fp * n
                impacts_sa.append(backup.impact)
    fp = ([small_arms_die(sa_fp)] if sa_fp > 0 else []) + support
    out = 0.0
    if fp:
        impact = min(impacts_sa) if impacts_sa else min(impacts_sup)
        out += float(expected_hits(q, tuple(fp), REFERENCE_TARGET)
                     * casualty_chance(die_name(impact), REFERENCE_ARMOUR))
    for w in rockets:  # one rocket's shot at the reference vehicle (a disposable one counts half: fired once)
        hits = expected_hits(q, (w.fp_die,), REFERENCE_TARGET)
        share = Fraction(1, 2) if w.disposable else Fraction(1)
        out += float(share * hits * Fraction(VEHICLE_WEIGHT)
                     * vehicle_kill_chance(die_name(w.impact), REFERENCE_VEHICLE_ARMOUR))
    hw = unit.get("heavy_weapon")
    if hw:
        out += _weapon_offence(unit.get("quality", "d8"), design_profile(hw).weapon)
    return out


def infantry_durability(unit: dict) -> float:
    _, armours = armoury()
    a = armours[unit.get("armour", "basic_battledress")]
    figures = sum(f.get("count", 1) for f in unit["figures"])
    return figures / float(casualty_chance(REFERENCE_IMPACT, die_name(a.die), a.no_armour))


def vehicle_offence(unit: dict) -> float:
    p = design_profile(unit["design"])
    return sum(_weapon_offence(unit.get("quality", "d8"), w) for w in p.weapons)


def vehicle_durability(unit: dict) -> float:
    p = design_profile(unit["design"])
    return VEHICLE_WEIGHT / float(vehicle_kill_chance(REFERENCE_AT_IMPACT, p.armour.front))


def unit_points(unit: dict) -> int:
    """The points of one unit of a scenario document (infantry, a heavy-weapon team or a library vehicle)."""
    if "design" in unit:
        o, d = vehicle_offence(unit), vehicle_durability(unit)
    else:
        o, d = infantry_offence(unit), infantry_durability(unit)
    return max(1, round(SCALE * math.sqrt(o * d) - UNIT_OFFSET))


def force_points(units: list[dict]) -> int:
    return sum(unit_points(u) for u in units)
