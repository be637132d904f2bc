"""The builder's promises about a scenario it built, checked on the document (used by the tests and by
``benchmarks/builder_check.py``): the 4" terrain spacing, units inside their zones (reinforcements at their home
edge), on ground where they can stand, hidden units and dummies in concealing terrain, points within budget."""
from __future__ import annotations

from shapely.geometry import LineString, Polygon

from ..rules.kernel.battlefield import INFANTRY, POWER_ARMOUR, Battlefield, vehicle_column
from ..rules.kernel.limits import MAX_UNITS_PER_SIDE
from .points import design_profile, unit_points
from .terrain import SPACING


def problems(doc: dict, report: dict) -> list[str]:
    out = []
    pieces = [Polygon(t["polygon"]) for t in doc.get("terrain", [])] + \
             [LineString(o["line"]) for o in doc.get("obstacles", [])]
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            if a.distance(b) < SPACING - 1e-9:
                out.append(f"terrain pieces {a.bounds} and {b.bounds} are {a.distance(b):.2f}\" apart")
    a, b = report["zones"]
    if not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]):
        out.append(f"the deployment zones {a} and {b} overlap")
    bf = Battlefield(doc)
    for s, side in enumerate(doc["sides"]):
        if len(side["units"]) > MAX_UNITS_PER_SIDE:
            out.append(f"side {s}: {len(side['units'])} units")
        spent = sum(unit_points(u) for u in side["units"])
        if spent != report["points"][s] or spent > report["budget"][s]:
            out.append(f"side {s}: {spent} points, budget {report['budget'][s]}")
        x0, y0, x1, y1 = report["zones"][s]
        for u in side["units"]:
            x, y = u["position"]
            if "design" in u:
                col = vehicle_column(design_profile(u["design"]).mobility_type)
            else:
                col = POWER_ARMOUR if u.get("armour") in ("light_power", "heavy_power") else INFANTRY
            if bf.move_cost(x, y, col) is None:
                out.append(f"{u['name']} of side {s} stands where it cannot ({x}, {y})")
            if u.get("inbound"):
                edge = {"south": y, "north": doc["table"]["height"] - y, "west": x,
                        "east": doc["table"]["width"] - x}[side["home_edge"]]
                if edge > 3.0:
                    out.append(f"reinforcement {u['name']} of side {s} is {edge}\" from its home edge")
            elif not (x0 <= x <= x1 and y0 <= y <= y1):
                out.append(f"{u['name']} of side {s} at ({x}, {y}) is outside its zone {report['zones'][s]}")
            if u.get("hidden") and not bf.conceals(x, y):
                out.append(f"hidden {u['name']} of side {s} is not in concealing terrain")
        n_hidden = sum(bool(u.get("hidden")) for u in side["units"])
        dummies = side.get("dummies", [])
        if len(dummies) > 2 * n_hidden:
            out.append(f"side {s}: {len(dummies)} dummies for {n_hidden} hidden units")
        for x, y in dummies:
            if not bf.conceals(x, y) or not (x0 <= x <= x1 and y0 <= y <= y1):
                out.append(f"side {s}: dummy at ({x}, {y}) not in concealing terrain of its zone")
    return out
