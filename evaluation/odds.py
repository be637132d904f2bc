"""Exact odds, computed by enumerating the engine's own resolution code over every die face."""
from __future__ import annotations

from fractions import Fraction

from dustup_env.rules.armoured_dustup.guided_weapons import guided_ecm, resolve_guided
from dustup_env.rules.armoured_dustup.heavy_weapons import vehicle_impact
from dustup_env.rules.artillery_and_air_support.fire_support_request import resolve_request
from dustup_env.rules.kernel.dice import exact_distribution, parse_die
from dustup_env.rules.unit_actions.shoot_action import resolve_fire, resolve_impact


def shoot_odds(quality: str, firepower: list[str], target: str, *, suppressive: bool = False,
               extra_hits: bool = True) -> dict:
    """Distribution of one shot: P(none/minor/major), P(hits = k) and the expected hits."""
    q = parse_die(quality)
    fp = [parse_die(f) for f in firepower]
    t = parse_die(target)
    def proc(dice):
        return resolve_fire(dice, quality=q, firepower=fp, target=t, suppressive=suppressive, extra_hits=extra_hits)

    joint = exact_distribution(proc, key=lambda r: (r.result, r.hits))
    res = {"none": Fraction(0), "minor": Fraction(0), "major": Fraction(0)}
    hits: dict[int, Fraction] = {}
    for (result, h), p in joint.items():
        res[result] += p
        hits[h] = hits.get(h, Fraction(0)) + p
    expected = sum(k * p for k, p in hits.items())
    return {"none": res["none"], "minor": res["minor"], "major": res["major"],
            "hits": {str(k): hits[k] for k in sorted(hits)}, "expected_hits": expected}


def impact_odds(impact: str, armour: str, *, no_armour: bool = False) -> dict:
    i, a = parse_die(impact), parse_die(armour)
    dist = exact_distribution(lambda d: resolve_impact(d, impact=i, armour=a, no_armour=no_armour),
                              key=lambda r: r[0])
    return {k: dist.get(k, Fraction(0)) for k in ("none", "wound", "kill")}


def vehicle_impact_odds(impact: str, armour: str) -> dict:
    """One hit on a vehicle (Firing at Vehicles): none / damaged / destroyed."""
    i, a = parse_die(impact), parse_die(armour)
    dist = exact_distribution(lambda d: vehicle_impact(d, impact=i, armour=a)[0])
    return {k: dist.get(k, Fraction(0)) for k in ("none", "damaged", "destroyed")}


def guided_odds(quality: str, guidance: str, ecm: str, impact: str, armour: str, *, cover: bool = False) -> dict:
    """One guided missile at a vehicle (Guided Weapons › Firing Procedure): unconditional P(miss / suppressed / hit)
    (they sum to 1) and P(damaged), P(destroyed) (each a part of "hit")."""
    q, g, i, a = parse_die(quality), parse_die(guidance), parse_die(impact), parse_die(armour)
    e = guided_ecm(parse_die(ecm), cover=cover)

    def proc(dice):
        res = resolve_guided(dice, quality=q, guidance=g, ecm=e)
        return res.result, (vehicle_impact(dice, impact=i, armour=a)[0] if res.hits else None)

    dist = exact_distribution(proc)
    out = {"miss": Fraction(0), "suppressed": Fraction(0), "hit": Fraction(0), "damaged": Fraction(0),
           "destroyed": Fraction(0)}
    for (result, effect), p in dist.items():
        out[{"none": "miss", "minor": "suppressed", "major": "hit"}[result]] += p
        if effect in ("damaged", "destroyed"):
            out[effect] += p
    return out


def request_odds(requestor: str, support: str, leadership: int, *, chits: int = 0, down: int = 0) -> dict:
    """One Request Fire Support roll (Artillery and Air Support): P(success), by the engine's own resolution
    (``down``: die types down for another platoon (1) or company (2); ``chits``: fire-support chits spent)."""
    if isinstance(leadership, bool) or not isinstance(leadership, int) or leadership < 0:
        raise ValueError(f"leadership must be a whole number of at least 0, not {leadership!r}")
    if chits < 0:
        raise ValueError(f"chits must be at least 0, not {chits!r}")
    dist = exact_distribution(lambda d: resolve_request(d, leadership=leadership, requestor=requestor,
                                                        support=support, chits=chits, down=down).success)
    return {"success": dist.get(True, Fraction(0))}


def minefield_odds(kind: str, inches: float, *, quality: str = "d8", vehicle: bool = False,
                   belly: str = "d12x2") -> dict:
    """One model (or, with ``vehicle``, one vehicle) crossing ``inches`` of a minefield of ``kind`` (Additional
    Rules › Minefields): the engine's own count of tests (one per 3" or part, ``minefields.blocks``) and its own
    test, enumerated over every die face (``crossing_odds.crossing_odds``: ``infantry_test``: P(hits = k);
    ``vehicle_mine``: the first mine that beats the belly armour stops the vehicle, damaged and immobilised, or
    destroys it)."""
    from dustup_env.rules.additional_rules.mines_and_explosives import crossing_odds as mc, minefields as mf

    if kind not in mf.FIELD_TYPES or kind == "dummy":
        raise ValueError(f"the minefield type is ap, at or mixed, not {kind!r}")
    if isinstance(inches, bool) or not isinstance(inches, (int, float)) or not inches >= 0 or inches > 1000:
        raise ValueError(f"inches must be a number from 0 to 1000, not {inches!r}")
    if vehicle:
        return mc.crossing_odds(kind, float(inches), None, vehicle=True, belly=parse_die(belly))
    return mc.crossing_odds(kind, float(inches), parse_die(quality))


def to_float(obj):
    if isinstance(obj, Fraction):
        return float(obj)
    if isinstance(obj, dict):
        return {k: to_float(v) for k, v in obj.items()}
    return obj
