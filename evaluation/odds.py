"""Exact odds, computed by enumerating the engine's own resolution code over every die face."""
from __future__ import annotations

from fractions import Fraction

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


def to_float(obj):
    if isinstance(obj, Fraction):
        return float(obj)
    if isinstance(obj, dict):
        return {k: to_float(v) for k, v in obj.items()}
    return obj
