"""Battlefield: the table, terrain features, obstacles, line of sight, concealment and cover.

Seed 000: "Terrain Effects on Movement", "Crossing Obstacles", "Line of Sight", "Concealment",
"Cover".  Terrain features are shapely polygons; obstacles are line strings.  Movement costs are
looked up on a 0.5" raster of the terrain (the top-most feature at each cell centre wins), line
of sight is computed exactly with shapely and cached per pair of points (terrain is static).
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Polygon
from shapely.prepared import prep

from .dice import D8
from .errors import ScenarioError

# name: (cost normal infantry, cost power armour, blocks, conceals, cover)
#   cost: 1 clear, 2 poor, 3 difficult, None impassable (seed 000 terrain table)
#   blocks: "" | "woods" | "hill" | "building"
#   cover: 0 none, 1 soft, 2 hard
TERRAIN_TYPES: dict[str, tuple] = {
    "open": (1, 1, "", False, 0),
    "light_scrub": (1, 1, "", True, 0),
    "rough": (2, 1, "", False, 1),
    "cultivated": (2, 1, "", True, 0),
    "slopes": (1, 1, "", False, 0),
    "road": (1, 1, "", False, 0),
    "light_woods": (2, 2, "woods", True, 1),
    "dense_woods": (2, 2, "woods", True, 1),
    "swamp": (2, 2, "", False, 0),
    "open_water": (None, None, "", False, 0),
    "river": (3, 3, "", False, 0),
    "hill": (1, 1, "hill", False, 0),
    "building": (2, 2, "building", True, 2),
    "ford": (3, 3, "", False, 0),  # a river or stream at a ford (infantry: as the river; vehicle tables L1366-1398)
}
TERRAIN_INDEX = {name: i for i, name in enumerate(TERRAIN_TYPES)}
# movement columns of the terrain table (``Unit.terrain_column``, RN-354): the text's two columns and
# open water, which is impassable unless the unit is amphibious (poor, 2) or power armour wading on the
# bottom (difficult, 3)
INFANTRY, POWER_ARMOUR, AMPHIBIOUS, AMPHIBIOUS_POWER_ARMOUR, WADING_POWER_ARMOUR = range(5)
OPEN_WATER_COST = {AMPHIBIOUS: 2, AMPHIBIOUS_POWER_ARMOUR: 2, WADING_POWER_ARMOUR: 3}


def terrain_column(power_armour: bool, amphibious: bool = False, wading: bool = False) -> int:
    """The unit's movement column: amphibious beats wading (2 per inch of open water, not 3)."""
    if amphibious:
        return AMPHIBIOUS_POWER_ARMOUR if power_armour else AMPHIBIOUS
    if wading and power_armour:
        return WADING_POWER_ARMOUR
    return POWER_ARMOUR if power_armour else INFANTRY
# obstacle: (conceals, cover)
OBSTACLE_TYPES = {"wall": (True, 2), "hedge": (True, 1), "fence": (False, 0), "wire": (False, 0),
                  "dragons_teeth": (False, 2)}

# --- vehicle movement columns (seed 000 "Vehicle Movement", L1362-1398; readings RN-129, RN-754) ----------------
# Each mobility type's table: terrain -> class (1 clear, 2 poor, 3 difficult, None impassable).  Hills are read as
# slopes, buildings are impassable to vehicles (RN-754, invented); open water is the non-amphibious entry (the
# amphibious one is VEHICLE_AMPHIBIOUS_WATER); walkers wade rivers and open water on the bottom.
VEHICLE_MOBILITY = ("low_mobility_wheeled", "high_mobility_wheeled", "tracked", "hover", "grav", "walker",
                    "watercraft")
_CLEAR, _POOR, _DIFF, _NO = 1, 2, 3, None
VEHICLE_TABLES = {
    "low_mobility_wheeled": {"road": _CLEAR, "open": _POOR, "slopes": _POOR, "hill": _POOR, "light_scrub": _DIFF,
                             "cultivated": _DIFF, "ford": _DIFF},
    "high_mobility_wheeled": {"road": _CLEAR, "open": _CLEAR, "light_scrub": _POOR, "cultivated": _POOR,
                              "slopes": _POOR, "hill": _POOR, "rough": _DIFF, "swamp": _DIFF, "ford": _DIFF},
    "tracked": {"road": _CLEAR, "open": _CLEAR, "light_scrub": _CLEAR, "rough": _POOR, "cultivated": _POOR,
                "slopes": _POOR, "hill": _POOR, "light_woods": _DIFF, "ford": _DIFF},
    "hover": {"road": _CLEAR, "open": _CLEAR, "open_water": _CLEAR, "swamp": _CLEAR, "light_scrub": _POOR,
              "slopes": _POOR, "hill": _POOR, "cultivated": _POOR, "rough": _DIFF, "river": _DIFF, "ford": _DIFF},
    "grav": {"road": _CLEAR, "open": _CLEAR, "open_water": _CLEAR, "river": _CLEAR, "ford": _CLEAR,
             "light_scrub": _CLEAR, "cultivated": _CLEAR, "swamp": _CLEAR, "rough": _POOR, "slopes": _POOR,
             "hill": _POOR},
    "walker": {"road": _CLEAR, "open": _CLEAR, "light_scrub": _CLEAR, "slopes": _CLEAR, "hill": _CLEAR,
               "rough": _POOR, "cultivated": _POOR, "light_woods": _DIFF, "swamp": _DIFF, "ford": _DIFF,
               "river": _DIFF, "open_water": _DIFF},
    "watercraft": {"open_water": _CLEAR, "river": _CLEAR, "ford": _DIFF},  # invented (RN-619)
}  # a terrain a table does not name is impassable to it
VEHICLE_AMPHIBIOUS_WATER = {"low_mobility_wheeled": _DIFF, "high_mobility_wheeled": _POOR, "tracked": _POOR}
VEHICLE_SHIFTS = 4  # terrain one class worse per damage marker and while suppressed: 0-3 shifts (3: all impassable)
VEHICLE_COLUMN0 = 5  # the first vehicle column (after the infantry columns above)


def vehicle_column(mobility: str, amphibious: bool = False, shift: int = 0) -> int:
    """The movement column of a mobility type (``Unit.terrain_column``), its terrain ``shift`` classes worse."""
    return VEHICLE_COLUMN0 + (VEHICLE_MOBILITY.index(mobility) * 2 + bool(amphibious)) * VEHICLE_SHIFTS + \
        min(max(shift, 0), VEHICLE_SHIFTS - 1)


def column_mobility(column: int) -> str | None:
    """The mobility type of a movement column (None for the infantry columns)."""
    if column < VEHICLE_COLUMN0:
        return None
    return VEHICLE_MOBILITY[(column - VEHICLE_COLUMN0) // (2 * VEHICLE_SHIFTS)]


# obstacles per mover type (L1403-1407, RN-130, RN-755): the extra movement points a vehicle pays to cross each type
# (None impassable) unless the scenario's obstacle gives its own (``vehicles``: mobility -> cost or null)
OBSTACLE_VEHICLE_COSTS = {
    "wall": {"low_mobility_wheeled": None, "high_mobility_wheeled": None, "tracked": 2, "hover": None, "grav": 0,
             "walker": 2, "watercraft": None},
    "hedge": {"low_mobility_wheeled": 2, "high_mobility_wheeled": 2, "tracked": 1, "hover": 2, "grav": 0, "walker": 1,
              "watercraft": None},
    "fence": {"low_mobility_wheeled": 1, "high_mobility_wheeled": 1, "tracked": 0, "hover": 1, "grav": 0, "walker": 0,
              "watercraft": None},
    "wire": {"low_mobility_wheeled": None, "high_mobility_wheeled": None, "tracked": 1, "hover": None, "grav": 0,
             "walker": 1, "watercraft": None},
    "dragons_teeth": {"low_mobility_wheeled": None, "high_mobility_wheeled": None, "tracked": None, "hover": None,
                      "grav": 3, "walker": 3, "watercraft": None},
}

# How far a line may run inside a woods/building feature before it is blocked (see rules-notes).
WOODS_SIGHT = {"light_woods": 4.0, "dense_woods": 2.0, "building": 2.0}
OBSTACLE_CONCEAL_DIST = 4.0  # an obstacle this close to the target on the line of fire conceals/covers it

RES = 0.5  # raster resolution (inches)


@dataclass(frozen=True, slots=True)
class Sight:
    visible: bool
    concealed: bool  # partially concealed by terrain on the line of sight
    cover: int  # 0 none, 1 soft, 2 hard (from obstacles on the line of sight)


class Battlefield:
    """Static terrain of one scenario; shared (never copied) between clones of a game.  The dynamic features a
    game adds (smoke, wrecks, ...) are seen through :class:`.terrain.DynamicBattlefield`."""

    dynamic = False

    def __init__(self, scenario: dict):
        t = scenario["table"]
        self.width = float(t["width"])
        self.height = float(t["height"])
        self.features = []  # (type, name, polygon, prepared)
        for i, f in enumerate(scenario.get("terrain", [])):
            poly = Polygon(f["polygon"], f.get("holes"))  # (holes: only in the ground under dynamic terrain)
            if not poly.is_valid or poly.area <= 0:
                raise ScenarioError(f"terrain feature #{i} ({f.get('name', f['type'])}) is not a valid polygon")
            self.features.append((f["type"], f.get("name", f["type"]), poly, prep(poly)))
        self.obstacles = []  # (type, name, linestring, cost, segments)
        self.vehicle_obstacle_costs = []  # per obstacle: mobility type -> crossing cost (None impassable)
        self._vehicle_segments: dict = {}  # movement column -> obstacle_segments with that mover's costs
        self.obstacle_segments = []  # (minx, maxx, miny, maxy, ax, ay, bx, by, cost)
        for f in scenario.get("obstacles", []):
            ls = LineString(f["line"])
            segs = list(zip(f["line"][:-1], f["line"][1:]))
            for (ax, ay), (bx, by) in segs:
                self.obstacle_segments.append((min(ax, bx), max(ax, bx), min(ay, by), max(ay, by), ax, ay, bx, by,
                                            float(f["cost"])))
            self.obstacles.append((f["type"], f.get("name", f["type"]), ls, float(f["cost"]), segs))
            self.vehicle_obstacle_costs.append({**OBSTACLE_VEHICLE_COSTS[f["type"]], **f.get("vehicles", {})})
        # the same segments with their bounding boxes and concealment/cover, for _obstacle_sight
        self._obstacle_sight_segs = [
            (min(px, qx), max(px, qx), min(py, qy), max(py, qy), px, py, qx, qy) + tuple(OBSTACLE_TYPES[ty])
            for ty, _, _, _, segs in self.obstacles for (px, py), (qx, qy) in segs]
        # blocking features as plain coordinate rings: exact pure-Python segment clipping is ~5x
        # faster than a shapely call per line of sight at these sizes (see docs/performance.md)
        self.blockers = [(ty, polygon_edges(poly), poly.bounds) for ty, _, poly, _ in self.features
                         if TERRAIN_TYPES[ty][2]]
        # as _terrain_sight reads them: (hill?, the depth that blocks, edges, bounding box)
        self._sight_blockers = [(ty == "hill", WOODS_SIGHT.get(ty, 2.0) + 1e-9, edges) + tuple(bounds)
                                for ty, edges, bounds in self.blockers]
        self.nx = int(math.ceil(self.width / RES))
        self.ny = int(math.ceil(self.height / RES))
        self._build_raster()
        self.sight_cache: dict[tuple, Sight] = {}
        self._core_cache: dict[tuple, Sight] = {}
        self.move_option_cache: dict[tuple, list] = {}  # (x, y, broken) -> move options (terrain is static)
        self.ray_masks: dict[int, list] = {}  # movement column -> per raster cell, move_action's passable rays

    # --- raster -------------------------------------------------------------------------------
    def _build_raster(self):
        import numpy as np

        grid = np.full((self.ny, self.nx), TERRAIN_INDEX["open"], dtype=np.int16)
        xs = (np.arange(self.nx) + 0.5) * RES
        ys = (np.arange(self.ny) + 0.5) * RES
        gx, gy = np.meshgrid(xs, ys)
        for ty, _, poly, _ in self.features:
            inside = shapely.contains_xy(poly, gx, gy)
            grid[inside] = TERRAIN_INDEX[ty]
        self.grid = grid.tolist()  # list of lists: faster scalar access than numpy
        names = list(TERRAIN_TYPES)
        self.cost_table = [[TERRAIN_TYPES[n][0] for n in names], [TERRAIN_TYPES[n][1] for n in names]]
        water = names.index("open_water")
        for col in (AMPHIBIOUS, AMPHIBIOUS_POWER_ARMOUR, WADING_POWER_ARMOUR):
            costs = list(self.cost_table[1 if col != AMPHIBIOUS else 0])
            costs[water] = OPEN_WATER_COST[col]
            self.cost_table.append(costs)
        for mob in VEHICLE_MOBILITY:
            table = VEHICLE_TABLES[mob]
            for amphibious in (False, True):
                base = [table.get(n) for n in names]
                if amphibious and mob in VEHICLE_AMPHIBIOUS_WATER:
                    base[water] = VEHICLE_AMPHIBIOUS_WATER[mob]
                for shift in range(VEHICLE_SHIFTS):
                    self.cost_table.append([None if c is None or c + shift > 3 else c + shift for c in base])
        assert len(self.cost_table) == vehicle_column(VEHICLE_MOBILITY[-1], True, VEHICLE_SHIFTS - 1) + 1
        self.conceal_table = [TERRAIN_TYPES[n][3] for n in names]
        self.cover_table = [TERRAIN_TYPES[n][4] for n in names]
        self.type_names = names

    def terrain_at(self, x: float, y: float) -> str:
        return self.type_names[self.cell(x, y)]

    def cell(self, x: float, y: float) -> int:
        """The terrain type index of the raster cell at (x, y) (0, open, off the table)."""
        i = int(y / RES)
        j = int(x / RES)
        if i < 0 or j < 0 or i >= self.ny or j >= self.nx:
            return 0
        return self.grid[i][j]

    def on_table(self, x: float, y: float) -> bool:
        return 0.0 <= x <= self.width and 0.0 <= y <= self.height

    def move_cost(self, x: float, y: float, power_armour: int = INFANTRY):
        """Movement points per inch at a point (None = impassable).  ``power_armour``: the movement column
        (``Unit.terrain_column``: infantry, power armour, amphibious, amphibious power armour, power armour
        wading); False / True select the text's two columns."""
        return self.cost_table[power_armour][self.cell(x, y)]

    def conceals(self, x: float, y: float) -> bool:
        return self.conceal_table[self.cell(x, y)]

    def cover_at(self, x: float, y: float) -> int:
        return self.cover_table[self.cell(x, y)]

    def in_cover(self, x: float, y: float) -> bool:
        """'In cover' for the confidence restrictions: concealing or protective terrain."""
        c = self.cell(x, y)
        return self.conceal_table[c] or self.cover_table[c] > 0

    def cover_points(self) -> list[tuple[float, float]]:
        """Points every 2" that are in cover (candidate destinations for withdrawals)."""
        pts = self.__dict__.get("_cover_points")
        if pts is None:
            pts = []
            y = 1.0
            while y < self.height:
                x = 1.0
                while x < self.width:
                    if self.in_cover(x, y) and self.move_cost(x, y) is not None:
                        pts.append((x, y))
                    x += 2.0
                y += 2.0
            self._cover_points = pts
        return pts

    def segments_for(self, column: int) -> list:
        """``obstacle_segments`` with the crossing costs of the movers of a movement column (vehicles: their
        mobility type's, ``math.inf`` where impassable)."""
        if column < VEHICLE_COLUMN0:
            return self.obstacle_segments
        segs = self._vehicle_segments.get(column)
        if segs is None:
            mob = column_mobility(column)
            segs = []
            for (ty, _, _, _, pairs), costs in zip(self.obstacles, self.vehicle_obstacle_costs):
                c = costs.get(mob)
                c = math.inf if c is None else float(c)
                for (ax, ay), (bx, by) in pairs:
                    segs.append((min(ax, bx), max(ax, bx), min(ay, by), max(ay, by), ax, ay, bx, by, c))
            self._vehicle_segments[column] = segs
        return segs

    def obstacle_crossing_cost(self, x0: float, y0: float, x1: float, y1: float, segs=None) -> float:
        """Extra movement points to cross obstacles on the segment (each obstacle segment crossed).  ``segs``:
        a subset of ``obstacle_segments`` (in order) known to hold every segment that can be crossed."""
        total = 0.0
        if x0 < x1:
            lox, hix = x0, x1
        else:
            lox, hix = x1, x0
        if y0 < y1:
            loy, hiy = y0, y1
        else:
            loy, hiy = y1, y0
        for minx, maxx, miny, maxy, ax, ay, bx, by, cost in (self.obstacle_segments if segs is None else segs):
            if maxx < lox or minx > hix or maxy < loy or miny > hiy:
                continue
            if _segments_cross(x0, y0, x1, y1, ax, ay, bx, by):
                total += cost
        return total

    # --- line of sight ------------------------------------------------------------------------
    def sight(self, ax: float, ay: float, bx: float, by: float) -> Sight:
        """Line of sight from leader A to leader B, with concealment/cover from the line itself."""
        key = (ax, ay, bx, by)
        s = self.sight_cache.get(key)
        if s is None:
            if len(self.sight_cache) > 200_000:
                self.sight_cache.clear()
                self._core_cache.clear()
            # the terrain part is symmetric: computed once per unordered pair of points
            ck = key if (ax, ay) <= (bx, by) else (bx, by, ax, ay)
            core = self._core_cache.get(ck)
            if core is None:
                core = self._core_cache[ck] = self._terrain_sight(ax, ay, bx, by)
            if core is _BLOCKED:
                s = core
            elif self.obstacles:
                s = self._obstacle_sight(ax, ay, bx, by, core.concealed)
            else:
                s = core
            self.sight_cache[key] = s
        return s

    def _terrain_sight(self, ax, ay, bx, by) -> Sight:
        """Blocking terrain only (hills, woods, buildings): symmetric in A and B."""
        concealed = False
        minx, maxx = (ax, bx) if ax < bx else (bx, ax)
        miny, maxy = (ay, by) if ay < by else (by, ay)
        rx, ry = bx - ax, by - ay
        margin = 1e-9 * (abs(rx) + abs(ry))  # >= 1e-9" x the length: far beyond the rounding of the tests below
        for hill, limit, edges, x0, y0, x1, y1 in self._sight_blockers:
            if x1 < minx or x0 > maxx or y1 < miny or y0 > maxy:
                continue
            # the line misses the bounding box (all four corners strictly on one side of it): it neither
            # crosses nor enters the feature, whatever the exact tests below would compute.  The corners'
            # sides are a - b for a in (a0, a1) and b in (b0, b1); rounding is monotonic, so all four exceed
            # the margin exactly when the least (the least a minus the greatest b) does, and likewise below
            a0, a1 = rx * (y0 - ay), rx * (y1 - ay)
            b0, b1 = ry * (x0 - ax), ry * (x1 - ax)
            if a0 > a1:
                a0, a1 = a1, a0
            if b0 > b1:
                b0, b1 = b1, b0
            if a0 - b1 > margin or a1 - b0 < -margin:
                continue
            if hill:
                # blocked when the line crosses the hill and neither leader stands on it (a point off the hill's
                # box by more than rounding is not on it: _in_edges would find an even number of crossings)
                if _edges_crossed(edges, ax, ay, bx, by) \
                        and not (x0 - 1e-9 <= ax <= x1 + 1e-9 and y0 - 1e-9 <= ay <= y1 + 1e-9 and _in_edges(edges, ax, ay)) \
                        and not (x0 - 1e-9 <= bx <= x1 + 1e-9 and y0 - 1e-9 <= by <= y1 + 1e-9 and _in_edges(edges, bx, by)):
                    return _BLOCKED
                continue
            inside = _inside_length(edges, ax, ay, bx, by)
            if inside > limit:
                return _BLOCKED
            if inside > 0:
                concealed = True
        return _CONCEALED if concealed else _CLEAR

    def _obstacle_sight(self, ax, ay, bx, by, concealed: bool) -> Sight:
        """Obstacles on the line of fire within 4" of the target (B) conceal and/or cover it."""
        cover = 0
        d = math.hypot(bx - ax, by - ay)
        # a crossing point lies on the obstacle segment: a segment whose bounding box is farther than 4" from
        # B (with a margin past rounding) cannot be crossed within 4" of B
        lo_x, hi_x = bx - OBSTACLE_CONCEAL_DIST - 1e-6, bx + OBSTACLE_CONCEAL_DIST + 1e-6
        lo_y, hi_y = by - OBSTACLE_CONCEAL_DIST - 1e-6, by + OBSTACLE_CONCEAL_DIST + 1e-6
        for minx, maxx, miny, maxy, px, py, qx, qy, conceal_o, cover_o in self._obstacle_sight_segs:
            if maxx < lo_x or minx > hi_x or maxy < lo_y or miny > hi_y:
                continue
            t = _segment_intersection_t(ax, ay, bx, by, px, py, qx, qy)
            if t is not None and (1.0 - t) * d <= OBSTACLE_CONCEAL_DIST:
                concealed = concealed or conceal_o
                cover = max(cover, cover_o)
        s = _VISIBLE.get((concealed, cover))  # frozen: one shared object per outcome
        if s is None:
            s = _VISIBLE[(concealed, cover)] = Sight(True, concealed, cover)
        return s

    def has_los(self, ax, ay, bx, by) -> bool:
        return self.sight(ax, ay, bx, by).visible

    # --- sight for an observer ------------------------------------------------------------------
    def sight_for(self, observer: "Observer", ax: float, ay: float, bx: float, by: float) -> Sight:
        """Line of sight from ``observer`` at A to B: an airborne observer ignores the terrain (RN-175; smoke is
        dynamic terrain, :class:`.terrain.DynamicBattlefield`), any other sees as :meth:`sight`."""
        if observer.airborne:
            return _CLEAR
        s = self.sight_cache.get((ax, ay, bx, by))  # (the cache lookup of sight, inlined: the usual answer)
        return s if s is not None else self.sight(ax, ay, bx, by)

    def sight_fn(self, observer: "Observer"):
        """``sight_for`` bound to one observer: ``f(ax, ay, bx, by) -> Sight`` (for loops over many lines; for a
        ground observer on the static battlefield it is :meth:`sight` itself, so the loop costs nothing more)."""
        if observer.airborne:
            return _airborne_sight
        return self.sight


@dataclass(frozen=True, slots=True)
class Observer:
    """Who looks: what of the terrain and the dynamic features stops its line of sight (``Battlefield.sight_for``).

    ``special_sensors``: enhanced or superior electronic sensors (a sensor die of D8 or more): smoke conceals
    instead of blocking (RN-067).  ``airborne``: a drone or an aircraft: the line ignores the terrain except
    smoke (RN-175)."""

    special_sensors: bool = False
    airborne: bool = False


_OBSERVERS = (Observer(False, False), Observer(True, False), Observer(False, True), Observer(True, True))
GROUND = _OBSERVERS[0]  # an ordinary observer on the ground


def observer(special_sensors: bool = False, airborne: bool = False) -> Observer:
    """The shared :class:`Observer` of that description."""
    return _OBSERVERS[bool(special_sensors) + 2 * bool(airborne)]


AIRBORNE_LOCATIONS: set = set()  # the locations rules register as airborne (kernel.table.register_location)


def observer_of(u) -> Observer:
    """A unit as an observer: special sensors from its sensor die (D8+, RN-067); airborne when its location is one
    a rule registered as airborne (a drone, an aircraft over the table: RN-175), else on the ground."""
    loc = u.location
    if loc == "table":
        return _OBSERVERS[u.sensor >= D8]
    return _OBSERVERS[(u.sensor >= D8) + 2 * (loc in AIRBORNE_LOCATIONS)]


def _airborne_sight(ax, ay, bx, by) -> Sight:
    return _CLEAR


_BLOCKED = Sight(False, False, 0)
_VISIBLE: dict = {}  # (concealed, cover) -> Sight(True, concealed, cover)
_CLEAR = Sight(True, False, 0)
_CONCEALED = Sight(True, True, 0)


def ring_edges(ring) -> tuple:
    """The edges of a closed ring, from the last vertex to the first, then in order: (px, py, qx, qy) with the
    differences the tests below take of them, (qx - px, qy - py, px - qx, py - qy)."""
    out = []
    px, py = ring[-1]
    for qx, qy in ring:
        out.append((px, py, qx, qy, qx - px, qy - py, px - qx, py - qy))
        px, py = qx, qy
    return tuple(out)


def polygon_edges(poly) -> tuple:
    """:func:`ring_edges` of a polygon's outline, then of each of its holes (the even-odd tests below read them
    alike: a point in a hole is outside)."""
    edges = ring_edges(list(poly.exterior.coords)[:-1])
    for hole in poly.interiors:
        edges += ring_edges(list(hole.coords)[:-1])
    return edges


def _edges_crossed(edges, ax, ay, bx, by) -> bool:
    """``_segments_cross(A, B, P, Q)`` for some edge P-Q (the same arithmetic, inlined)."""
    rx, ry = bx - ax, by - ay
    for px, py, qx, qy, sx, sy, _, _ in edges:
        d1 = sx * (ay - py) - sy * (ax - px)
        d2 = sx * (by - py) - sy * (bx - px)
        if (d1 > 0 >= d2) or (d1 < 0 <= d2):
            d3 = rx * (py - ay) - ry * (px - ax)
            d4 = rx * (qy - ay) - ry * (qx - ax)
            if (d3 >= 0 >= d4) or (d3 <= 0 <= d4):
                return True
    return False


def _in_edges(edges, x, y) -> bool:
    inside = False
    for px, py, qx, qy, _, _, ex, ey in edges:
        if (qy > y) != (py > y):
            if x < ex * (y - qy) / ey + qx:
                inside = not inside
    return inside


def point_in_ring(ring, x, y) -> bool:
    """Even-odd rule point-in-polygon (boundary points may go either way)."""
    return _in_edges(ring_edges(ring), x, y)


def _inside_length(edges, ax, ay, bx, by) -> float:
    ts = None
    rx, ry = bx - ax, by - ay
    for px, py, _, _, sx, sy, _, _ in edges:
        den = rx * sy - ry * sx
        if den != 0.0:
            t = ((px - ax) * sy - (py - ay) * sx) / den
            if 0.0 < t < 1.0:
                u = ((px - ax) * ry - (py - ay) * rx) / den
                if 0.0 <= u <= 1.0:
                    if ts is None:
                        ts = [0.0, 1.0, t]
                    else:
                        ts.append(t)
    if ts is None:  # no crossing: the whole segment is inside or outside
        return math.hypot(rx, ry) if _in_edges(edges, ax + rx * 0.5, ay + ry * 0.5) else 0.0
    ts.sort()
    total = 0.0
    for t0, t1 in zip(ts, ts[1:]):
        if t1 - t0 <= 1e-12:
            continue
        tm = (t0 + t1) * 0.5
        if _in_edges(edges, ax + rx * tm, ay + ry * tm):
            total += t1 - t0
    return total * math.hypot(rx, ry)


def inside_length(ring, ax, ay, bx, by) -> float:
    """Exact length of segment A-B inside the simple polygon ``ring``.

    Cut the segment at every crossing with an edge and add up the pieces whose midpoints lie
    inside.  Checked against shapely's ``intersection(...).length`` in tests/test_battlefield_geometry.py.
    """
    return _inside_length(ring_edges(ring), ax, ay, bx, by)


def _orient(ax, ay, bx, by, cx, cy):
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def _segments_cross(ax, ay, bx, by, cx, cy, dx, dy) -> bool:
    d1 = _orient(cx, cy, dx, dy, ax, ay)
    d2 = _orient(cx, cy, dx, dy, bx, by)
    d3 = _orient(ax, ay, bx, by, cx, cy)
    d4 = _orient(ax, ay, bx, by, dx, dy)
    # half-open: a step that ends exactly on the obstacle crosses it (the next step, starting on it,
    # does not), so an obstacle lying on a step boundary is not crossed for free
    return ((d1 > 0 >= d2) or (d1 < 0 <= d2)) and ((d3 >= 0 >= d4) or (d3 <= 0 <= d4))


def _segment_intersection_t(ax, ay, bx, by, cx, cy, dx, dy):
    """Parameter t along A->B where it crosses C-D, or None."""
    rx, ry = bx - ax, by - ay
    sx, sy = dx - cx, dy - cy
    den = rx * sy - ry * sx
    if den == 0:
        return None
    t = ((cx - ax) * sy - (cy - ay) * sx) / den
    u = ((cx - ax) * ry - (cy - ay) * rx) / den
    if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0:
        return t
    return None


_CACHE: dict = {}


_BY_DOC: dict = {}  # id(document) -> (document, battlefield): the built-in scenarios' shared documents


def battlefield(doc: dict) -> Battlefield:
    """The (shared, static) battlefield of a scenario in rules units: one object per distinct table and terrain,
    so its caches (lines of sight, move options) serve every game on it."""
    hit = _BY_DOC.get(id(doc))
    if hit is not None and hit[0] is doc:
        return hit[1]
    key = hashlib.sha1(json.dumps([doc["table"], doc.get("terrain", []), doc.get("obstacles", [])],
                                  sort_keys=True).encode()).hexdigest()
    bf = _CACHE.get(key)
    if bf is None:
        bf = _CACHE[key] = Battlefield(doc)
    if len(_BY_DOC) > 256:
        _BY_DOC.clear()
    _BY_DOC[id(doc)] = (doc, bf)  # (the entry keeps the document alive, so its id is not reused meanwhile)
    return bf
