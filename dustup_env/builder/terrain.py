"""The battle builder's terrain (seed 001 Battle Builder, step 4): pieces placed alternately after a roll-off, each at
least 4" from every other piece (docs/builder.md, "Terrain")."""
from __future__ import annotations

import math
import random

from shapely.geometry import LineString, Polygon, box

SPACING = 4.0  # S001:14: "at least 4\" from other pieces of terrain"

# the mix of features: (kind, terrain type or obstacle type, weight, radius range (areas) or length range (lines));
# weights and sizes invented (docs/builder.md)
PIECES = (
    ("area", "light_woods", 4, (3.0, 6.0)),
    ("area", "dense_woods", 2, (3.0, 5.0)),
    ("area", "light_scrub", 3, (3.0, 6.0)),
    ("area", "rough", 2, (2.5, 5.0)),
    ("area", "hill", 3, (4.0, 7.0)),
    ("area", "cultivated", 2, (4.0, 6.0)),
    ("area", "swamp", 1, (3.0, 5.0)),
    ("area", "open_water", 1, (2.0, 4.0)),
    ("building", "building", 3, (1.5, 3.0)),
    ("line", "hedge", 2, (6.0, 12.0)),
    ("line", "wall", 2, (4.0, 10.0)),
    ("line", "fence", 1, (4.0, 8.0)),
)
NAMES = {"light_woods": "Wood", "dense_woods": "Thicket", "light_scrub": "Scrub", "rough": "Rough ground",
         "hill": "Hill", "cultivated": "Field", "swamp": "Marsh", "open_water": "Pond", "building": "Building",
         "hedge": "Hedge", "wall": "Wall", "fence": "Fence"}
OBSTACLE_COST = {"hedge": 2, "wall": 2, "fence": 1}  # the rulebook's usual 2 (docs/scenarios.md); a fence 1


def piece_count(width: float, height: float) -> int:
    """About one piece per 300 square inches (12 on a 72x48" table), 4 to 24 (invented)."""
    return max(4, min(24, round(width * height / 300)))


def _r(x: float) -> float:
    return round(x * 2) / 2  # half inches: the raster's resolution


def _shape(rng: random.Random, kind: str, size: tuple, width: float, height: float):
    cx, cy = rng.uniform(0, width), rng.uniform(0, height)
    table = box(0, 0, width, height)
    if kind == "line":
        length = rng.uniform(*size)
        ang = rng.uniform(0, math.pi)
        dx, dy = math.cos(ang) * length / 2, math.sin(ang) * length / 2
        pts = [(_r(cx - dx), _r(cy - dy)), (_r(cx + dx), _r(cy + dy))]
        if not all(0 <= x <= width and 0 <= y <= height for x, y in pts) or pts[0] == pts[1]:
            return None
        return LineString(pts)
    if kind == "building":
        w, h = rng.uniform(*size), rng.uniform(*size)
        g = box(_r(cx - w), _r(cy - h), _r(cx + w), _r(cy + h))
    else:
        r = rng.uniform(*size)
        n = rng.randint(5, 8)
        angs = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
        g = Polygon([(_r(cx + r * rng.uniform(0.7, 1.0) * math.cos(a)), _r(cy + r * rng.uniform(0.7, 1.0) * math.sin(a)))
                     for a in angs])
    if not g.is_valid:
        return None
    g = g.intersection(table)
    if g.geom_type != "Polygon" or not g.is_valid or g.area < 4.0:
        return None
    g = Polygon([(round(x, 2), round(y, 2)) for x, y in g.exterior.coords[:-1]])
    return g if g.is_valid and g.area >= 4.0 else None


def place_terrain(rng: random.Random, width: float, height: float, first: int, keep_clear: list,
                  names: tuple[str, str]) -> tuple[list, list, list]:
    """Place the pieces alternately, ``first`` placing the first.  ``keep_clear``: shapely geometries that open
    water must stay out of (the deployment zones, 3" round the objectives).  Returns (terrain, obstacles, log)."""
    placed, terrain, obstacles, log = [], [], [], []
    counts: dict = {}
    kinds = list(PIECES)
    for i in range(piece_count(width, height)):
        placer = first if i % 2 == 0 else 1 - first
        kind, ty, _, size = rng.choices(kinds, weights=[p[2] for p in kinds])[0]
        for _ in range(40):  # a placement the spacing rule allows (the placer tries elsewhere, then gives up)
            g = _shape(rng, kind, size, width, height)
            if g is None or any(g.distance(o) < SPACING for o in placed):
                continue
            if ty == "open_water" and any(g.intersects(k) for k in keep_clear):
                continue
            break
        else:
            log.append(f"{names[placer]} found no place for a {NAMES[ty].lower()}")
            continue
        placed.append(g)
        counts[ty] = counts.get(ty, 0) + 1
        name = f"{NAMES[ty]} {counts[ty]}"
        if kind == "line":
            obstacles.append({"type": ty, "name": name, "line": [list(p) for p in g.coords],
                              "cost": OBSTACLE_COST[ty]})
        else:
            terrain.append({"type": ty, "name": name, "polygon": [list(p) for p in g.exterior.coords[:-1]]})
        log.append(f"{names[placer]} placed {name}")
    return terrain, obstacles, log
