"""The exact odds of crossing a minefield (Additional Rules › Minefields), from the minefield rules' own tests:
what ``dustup odds minefield`` prints and what the options that send models into a known field carry
(``dustup_env/insight.py``)."""
from __future__ import annotations

from .minefields import INFANTRY_HIT, blocks, infantry_test, vehicle_mine


def crossing_odds(kind: str, inches: float, quality: int | None, vehicle: bool = False,
                  belly: int | None = None) -> dict:
    """The exact odds of one model (or, with ``vehicle``, one vehicle with ``belly`` armour) crossing ``inches`` of a
    field of ``kind``: this module's own tests (one per 3" or part, :func:`blocks`) enumerated over every die face.
    Infantry: ``{"hits": {"k": P(k mines go off)}}`` (every test counted); a vehicle: ``{"none", "damaged",
    "destroyed"}`` (the first mine that beats the belly armour stops it or destroys it)."""
    from fractions import Fraction

    from ...kernel.dice import exact_distribution
    n = blocks(float(inches))
    if vehicle:
        if kind not in ("at", "mixed"):
            return {"none": Fraction(1), "damaged": Fraction(0), "destroyed": Fraction(0)}
        one = exact_distribution(lambda d: vehicle_mine(d, belly)[0])
        none = one.get("none", Fraction(0))
        out = {"none": none ** n, "damaged": Fraction(0), "destroyed": Fraction(0)}
        for k in range(n):  # the first k mines did nothing, the next one stopped it
            for res in ("damaged", "destroyed"):
                out[res] += none ** k * one.get(res, Fraction(0))
        return out
    if kind not in INFANTRY_HIT:
        return {"hits": {"0": Fraction(1)}}
    p = exact_distribution(lambda d: infantry_test(d, quality, kind)[0]).get(True, Fraction(0))
    dist = [Fraction(1)]  # P(hits = k) after each test, one test at a time
    for _ in range(n):
        nxt = [Fraction(0)] * (len(dist) + 1)
        for k, pk in enumerate(dist):
            nxt[k] += pk * (1 - p)
            nxt[k + 1] += pk * p
        dist = nxt
    return {"hits": {str(k): pk for k, pk in enumerate(dist)}}
