"""Battlefield measurement: centimetres for inches with 15mm figures (seed 000 "Equipment › Battlefield").

"If using 15mm figures or smaller, it is possible to substitute centimetres for inches and therefore play
on a smaller area."

Every distance of the rules (ranges, moves, the 2" rule, cohesion, ...) is a number of *rules units*: an
inch, or with game option ``"measure": "centimetres"`` a centimetre.  The engine works in rules units, so
the rules themselves never change (RN-358).  What changes is how the scenario's geometry (the table, the
terrain, obstacles, unit and dummy positions, objectives, tasks) is read: the scenario says in which unit
it is drawn (``table.unit``: ``"in"``, the default, or ``"cm"``) and it is converted to rules units:

* drawn in inches, played in inches, or drawn in centimetres, played in centimetres: unchanged;
* drawn in inches, played in centimetres: every length x 2.54 (the same physical table is 2.54 times
  larger in rules units: a 28" x 19" table is a 71 x 48 cm battlefield);
* drawn in centimetres, played in inches: every length / 2.54.

Obstacle crossing costs are movement points (rules units) and are not converted.
"""
from __future__ import annotations

import copy
from functools import lru_cache

from .errors import ScenarioError
from .ruleset import Option, Rule

MEASURES = {"inches": 2.54, "centimetres": 1.0}  # centimetres per rules unit
# Places as option arguments: a rule that lets a player choose a place on the table (an artillery target point,
# where to lay smoke) offers the centres of the cells of this grid over the table (columns x rows), so every
# place has an index in the environment's action layout (the codec's ``point`` argument kind).
POINT_GRID = (12, 8)
TABLE_UNITS = {"in": 2.54, "cm": 1.0}  # centimetres per scenario unit
MAX_TABLE = 240.0  # rules units (the scenario schema's bound)


@lru_cache(maxsize=64)
def grid_points(width: float, height: float) -> tuple:
    """The centres (x, y) of the cells of :data:`POINT_GRID` over a width x height table, row by row from the
    bottom edge (y = 0), each row from the left (cell index = row * columns + column)."""
    cols, rows = POINT_GRID
    return tuple(((j + 0.5) * width / cols, (i + 0.5) * height / rows) for i in range(rows) for j in range(cols))


def scale_factor(scenario: dict, measure) -> float:
    if measure not in MEASURES:
        raise ScenarioError(f"game option measure must be one of {', '.join(MEASURES)}, not {measure!r}")
    return TABLE_UNITS[scenario["table"].get("unit", "in")] / MEASURES[measure]


def to_rules_units(scenario: dict, measure) -> dict:
    """The scenario with its geometry in rules units (the same object when nothing changes)."""
    k = scale_factor(scenario, measure)
    if k == 1.0:
        return scenario
    doc = copy.deepcopy(scenario)

    def pt(p):
        return [p[0] * k, p[1] * k]

    doc["table"]["width"] = scenario["table"]["width"] * k
    doc["table"]["height"] = scenario["table"]["height"] * k
    for f in doc.get("terrain", []):
        f["polygon"] = [pt(p) for p in f["polygon"]]
    for o in doc.get("obstacles", []):
        o["line"] = [pt(p) for p in o["line"]]
    for o in doc.get("objectives", []):
        o["position"] = pt(o["position"])
    for t in doc.get("tasks", []):
        t["position"] = pt(t["position"])
        if "radius" in t:
            t["radius"] = t["radius"] * k
    for g in doc.get("smoke_generators", []):
        g["position"] = pt(g["position"])
    for b in doc.get("buildings", []):  # Buildings and Fortifications: outlines and doors
        if "polygon" in b:
            b["polygon"] = [pt(p) for p in b["polygon"]]
        for o in b.get("openings", []):
            o["position"] = pt(o["position"])
    for side in doc["sides"]:
        for u in side["units"]:
            u["position"] = pt(u["position"])
        if "dummies" in side:
            side["dummies"] = [pt(p) for p in side["dummies"]]
        for m in side.get("mines", ()):  # Mines and Explosives: the counters' positions and arcs' facing points
            m["position"] = pt(m["position"])
            if "toward" in m:
                m["toward"] = pt(m["toward"])
    w, h = doc["table"]["width"], doc["table"]["height"]
    if w > MAX_TABLE or h > MAX_TABLE:
        raise ScenarioError(f"scenario {scenario.get('name', '?')!r}: the table is {w:g} x {h:g} {measure} once "
                            f"converted from {scenario['table'].get('unit', 'in')}; at most {MAX_TABLE:g} rules units")
    return doc


RULE = Rule("Battlefield", 'seed 000 "Equipment › Battlefield"',
            options=(Option("measure", "inches", "'centimetres': 15mm play, rules distances in centimetres (the "
                            "scenario's geometry converted from its table.unit, RN-358)", kind="choice",
                            choices=tuple(MEASURES)),))
