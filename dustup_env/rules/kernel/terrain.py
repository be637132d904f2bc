"""The dynamic terrain layer: features that come and go during a game (smoke, fire, rubble, breaches, wrecks).

The scenario's terrain is static and its :class:`~.battlefield.Battlefield` (with its caches) is shared by
every game on it.  What changes during a game is ``game.terrain``: a list of plain-data features, each
``{"kind": ..., "shape": "circle", "x", "y", "r"}`` or ``{"kind": ..., "shape": "polygon", "points": [[x, y],
...]}`` plus whatever its rule keeps in it.  A rule declares the kinds it places (the rule set's ``terrain``
mapping: kind -> :class:`TerrainKind`, what the feature does to sight, concealment, cover and movement).

While ``game.terrain`` is empty, ``game.bf`` is the static battlefield itself and nothing costs more.  When
features exist, ``game.bf`` is a :class:`DynamicBattlefield`: the same interface, so every rule that asks
``game.bf`` sees them.  A feature may take away as well as add:

* a kind with a ``ground`` (a terrain type of ``battlefield.TERRAIN_TYPES``) *replaces* the scenario's terrain
  under it: rubble where a building stood, a burnt-out wood, a crater.  The features of such kinds make a
  *ground*: a battlefield of its own, the scenario's terrain polygons less the replaced areas, with the new
  ground laid on top (line of sight, concealment, cover and movement cost all read it, with its own caches);
  built once per layout of replacing features and shared (kept by the static battlefield);
* a kind with ``clears_obstacles`` takes the obstacles' pieces inside it away (a breach through a wall);
* every kind then *adds* over that ground: blocks a line of sight, conceals, gives cover, makes ground
  costlier or impassable; a ``smoke`` kind blocks sight unless the observer has special sensors (RN-067),
  and is the only terrain an airborne observer's line of sight meets (RN-175): see
  :meth:`DynamicBattlefield.sight_for`.

Use :func:`add` and :func:`remove` to change the layer: they keep ``game.bf`` in step.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from .battlefield import GROUND, TERRAIN_TYPES, Battlefield, Sight
from .errors import ScenarioError

_BLOCKED = Sight(False, False, 0)
_CLEAR = Sight(True, False, 0)


@dataclass(frozen=True, slots=True)
class TerrainKind:
    """What a kind of dynamic feature does where it lies (or on a line of sight through it)."""

    blocks_sight: bool = False  # a line of sight through it is blocked
    conceals: bool = False  # a line through it, or a unit in it, is partially concealed
    cover: int = 0  # 0 none, 1 soft, 2 hard: for a unit in it
    move_cost: int | None = 0  # movement points per inch in it (0: the ground's own; None: impassable)
    in_sight_when_inside: bool = True  # a line of sight starting or ending inside it is not blocked by it
    smoke: bool = False  # blocks a line of sight through it unless the observer has special sensors (then it
    # conceals, RN-067); the only terrain an airborne observer's line of sight meets (RN-175)
    ground: str | None = None  # a terrain type that replaces the scenario's terrain under it (rubble: "rough")
    clears_obstacles: bool = False  # the obstacles' pieces inside it are gone (a breach)

    def __post_init__(self):
        if self.ground is not None and self.ground not in TERRAIN_TYPES:
            raise ValueError(f"TerrainKind: unknown ground {self.ground!r} (known: {', '.join(TERRAIN_TYPES)})")

    @property
    def replaces(self) -> bool:
        """Whether its features change the ground under them (take away as well as add)."""
        return self.ground is not None or self.clears_obstacles


def _check(f: dict, kinds) -> None:
    if f.get("kind") not in kinds:
        raise ScenarioError(f"dynamic terrain: unknown kind {f.get('kind')!r} (known: {', '.join(kinds) or 'none'})")
    shape = f.get("shape")
    if shape == "circle":
        if not (isinstance(f.get("r"), (int, float)) and f["r"] > 0):
            raise ScenarioError("dynamic terrain: a circle needs a radius r > 0")
    elif shape == "polygon":
        if len(f.get("points", ())) < 3:
            raise ScenarioError("dynamic terrain: a polygon needs at least 3 points")
    else:
        raise ScenarioError(f"dynamic terrain: shape must be 'circle' or 'polygon', not {shape!r}")


def inside_polygon(pts, x: float, y: float) -> bool:
    """Whether (x, y) lies inside the polygon ``pts`` (even-odd rule)."""
    inside = False
    px, py = pts[-1]
    for qx, qy in pts:
        if (qy > y) != (py > y) and x < (px - qx) * (y - qy) / (py - qy) + qx:
            inside = not inside
        px, py = qx, qy
    return inside


def _contains(f: dict, x: float, y: float) -> bool:
    if f["shape"] == "circle":
        return (x - f["x"]) ** 2 + (y - f["y"]) ** 2 <= f["r"] * f["r"]
    return inside_polygon(f["points"], x, y)


def _crosses(f: dict, ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether the segment A-B passes through the feature."""
    if _contains(f, ax, ay) or _contains(f, bx, by):
        return True
    if f["shape"] == "circle":
        dx, dy = bx - ax, by - ay
        dd = dx * dx + dy * dy
        t = 0.0 if dd == 0 else max(0.0, min(1.0, ((f["x"] - ax) * dx + (f["y"] - ay) * dy) / dd))
        cx, cy = ax + t * dx - f["x"], ay + t * dy - f["y"]
        return cx * cx + cy * cy <= f["r"] * f["r"]
    pts = f["points"]
    px, py = pts[-1]
    for qx, qy in pts:
        d1 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
        d2 = (qx - px) * (by - py) - (qy - py) * (bx - px)
        d3 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
        d4 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
        if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)):
            return True
        px, py = qx, qy
    return False


def _shape(f: dict):
    """A feature's area as a shapely polygon (a circle as a 128-sided polygon)."""
    if f["shape"] == "circle":
        return Point(f["x"], f["y"]).buffer(f["r"], quad_segs=32)
    poly = Polygon(f["points"])
    return poly if poly.is_valid else poly.buffer(0)


def _parts(geom, kind):
    """The pieces of a shapely result of one kind (Polygon or LineString) with some extent."""
    if geom.is_empty:
        return []
    if isinstance(geom, kind):
        return [geom]
    return [p for g in getattr(geom, "geoms", ()) for p in _parts(g, kind)]


def _ground_doc(static, items) -> dict:
    """The scenario document of the ground under the replacing features: the scenario's terrain less the areas
    of the kinds with a ``ground`` (each such feature laid on top, in order: the top-most feature wins the
    raster), the obstacles less the areas of the kinds that clear them.  A feature untouched keeps its exact
    outline (the same lines of sight and raster as the scenario's)."""
    cut = [_shape(f) for f, k in items if k.ground is not None]
    cut = unary_union(cut) if cut else None
    terrain = []
    for ty, name, poly, _ in static.features:
        pieces = [poly] if cut is None or not poly.intersects(cut) else \
            [p for p in _parts(poly.difference(cut), Polygon) if p.area > 1e-9]
        for p in pieces:
            terrain.append({"type": ty, "name": name, "polygon": [list(c) for c in p.exterior.coords[:-1]],
                            "holes": [[list(c) for c in h.coords[:-1]] for h in p.interiors] or None})
    for f, k in items:
        if k.ground is not None:
            for p in _parts(_shape(f), Polygon):
                terrain.append({"type": k.ground, "name": f["kind"],
                                "polygon": [list(c) for c in p.exterior.coords[:-1]]})
    clear = [_shape(f) for f, k in items if k.clears_obstacles]
    clear = unary_union(clear) if clear else None
    obstacles = []
    for (ty, name, ls, cost, _), vehicles in zip(static.obstacles, static.vehicle_obstacle_costs):
        pieces = [ls] if clear is None or not ls.intersects(clear) else \
            [p for p in _parts(ls.difference(clear), LineString) if p.length > 1e-9]
        for p in pieces:
            obstacles.append({"type": ty, "name": name, "line": [list(c) for c in p.coords], "cost": cost,
                              "vehicles": dict(vehicles)})
    return {"table": {"width": static.width, "height": static.height}, "terrain": terrain, "obstacles": obstacles}


def _ground(static, items):
    """The battlefield under the features (the static one itself when no feature replaces anything); one per
    layout of replacing features, kept by the static battlefield (so its caches serve every game and copy)."""
    replacing = [(f, k) for f, k in items if k.replaces]
    if not replacing:
        return static
    key = repr([(f["shape"], f.get("x"), f.get("y"), f.get("r"), f.get("points"), k.ground, k.clears_obstacles)
                for f, k in replacing])
    grounds = static.__dict__.setdefault("_grounds", {})
    bf = grounds.get(key)
    if bf is None:
        if len(grounds) > 64:
            grounds.clear()
        bf = grounds[key] = Battlefield(_ground_doc(static, replacing))
    return bf


class DynamicBattlefield:
    """The static battlefield seen through the game's dynamic features (immutable: a change makes a new one).

    ``ground``: the battlefield under the features (the static one unless a feature replaces terrain or clears
    obstacles); anything not defined here (width, height, features, obstacles, obstacle_crossing_cost,
    segments_for, terrain_at, ...) is the ground's.  Move options are cached per object (``move_option_cache``):
    move_action asks :meth:`move_cost` point by point here, never the static battlefield's rays or options."""

    dynamic = True

    def __init__(self, static, features, kinds):
        self.static = static
        self.items = tuple((f, kinds[f["kind"]]) for f in features)
        self.ground = _ground(static, self.items)
        self.move_option_cache: dict = {}
        self._lines: dict = {}  # observer -> the features a line of sight meets (sight_for)
        self._concealing = tuple(f for f, k in self.items if k.conceals)
        self._covering = tuple((f, k.cover) for f, k in self.items if k.cover)
        self._costing = tuple((f, k.move_cost) for f, k in self.items if k.move_cost != 0)

    def __getattr__(self, name):  # width, height, obstacles, features, on_table, obstacle_crossing_cost, ...
        return getattr(self.ground, name)

    def sight(self, ax: float, ay: float, bx: float, by: float) -> Sight:
        return self.sight_for(GROUND, ax, ay, bx, by)

    def sight_for(self, observer, ax: float, ay: float, bx: float, by: float) -> Sight:
        """The ground's line of sight (none of it for an airborne observer), then the features on the line:
        smoke blocks it (conceals it for special sensors), other kinds block or conceal it (not for an airborne
        observer); a feature that holds A or B does not block (unless its kind says so) but conceals."""
        lines = self._lines.get(observer)
        if lines is None:
            lines = self._lines[observer] = self._lines_for(observer)
        s = _CLEAR if observer.airborne else self.ground.sight(ax, ay, bx, by)
        if not s.visible:
            return s
        concealed = s.concealed
        for f, blocks, inside_sees in lines:
            if not _crosses(f, ax, ay, bx, by):
                continue
            if blocks and not (inside_sees and (_contains(f, ax, ay) or _contains(f, bx, by))):
                return _BLOCKED
            concealed = True
        return s if concealed == s.concealed else Sight(True, concealed, s.cover)

    def _lines_for(self, observer) -> tuple:
        """The features a line of sight of ``observer`` meets, in order: (feature, whether it blocks, whether a line
        from or to a point inside it is not blocked by it); the others neither block nor conceal its lines."""
        out = []
        for f, k in self.items:
            if k.smoke:
                blocks, conceals = not observer.special_sensors, True
            elif observer.airborne:
                continue
            else:
                blocks, conceals = k.blocks_sight, k.conceals
            if blocks or conceals:
                out.append((f, blocks, k.in_sight_when_inside))
        return tuple(out)

    def sight_fn(self, observer):
        """``sight_for`` bound to one observer: ``f(ax, ay, bx, by) -> Sight``."""
        return partial(self.sight_for, observer)

    def has_los(self, ax, ay, bx, by) -> bool:
        return self.sight(ax, ay, bx, by).visible

    def conceals(self, x: float, y: float) -> bool:
        if self.ground.conceals(x, y):
            return True
        for f in self._concealing:  # (the kinds that conceal)
            if _contains(f, x, y):
                return True
        return False

    def cover_at(self, x: float, y: float) -> int:
        c = self.ground.cover_at(x, y)
        for f, cover in self._covering:  # (the kinds that give cover)
            if cover > c and _contains(f, x, y):
                c = cover
        return c

    def in_cover(self, x: float, y: float) -> bool:
        return self.conceals(x, y) or self.cover_at(x, y) > 0

    def move_cost(self, x: float, y: float, power_armour: int = 0):
        c = self.ground.move_cost(x, y, power_armour)
        if c is None:
            return None
        for f, cost in self._costing:  # (the kinds that change the cost)
            if _contains(f, x, y):
                if cost is None:
                    return None
                c = max(c, cost)
        return c

    def cover_points(self) -> list[tuple[float, float]]:
        pts = self.__dict__.get("_cover_points")
        if pts is None:
            pts = self._cover_points = [p for p in self.ground.cover_points() if self.move_cost(*p) is not None]
            for f, k in self.items:  # new cover: the feature's centre (or its first corner)
                if (k.cover or k.conceals) and k.move_cost is not None:
                    p = (f["x"], f["y"]) if f["shape"] == "circle" else tuple(f["points"][0])
                    if self.static.on_table(*p) and self.move_cost(*p) is not None:
                        pts.append(p)
        return pts


def refresh(game) -> None:
    """Make ``game.bf`` match ``game.terrain`` (after a copy or a load, or a change made by hand)."""
    if game.terrain:
        game.bf = DynamicBattlefield(game.battlefield, game.terrain, game.rules.terrain)
    else:
        game.bf = game.battlefield


def add(game, feature: dict) -> int:
    """Place a dynamic feature; returns its index in ``game.terrain``."""
    _check(feature, game.rules.terrain)
    game.terrain.append(feature)
    refresh(game)
    game.invalidate()
    return len(game.terrain) - 1


def remove(game, which) -> int:
    """Remove the features for which ``which(feature)`` is true; returns how many were removed."""
    keep = [f for f in game.terrain if not which(f)]
    n = len(game.terrain) - len(keep)
    if n:
        game.terrain[:] = keep
        refresh(game)
        game.invalidate()
    return n


def distance_to(f: dict, x: float, y: float) -> float:
    """How far the point is from the feature (0 inside it)."""
    if _contains(f, x, y):
        return 0.0
    if f["shape"] == "circle":
        return math.hypot(x - f["x"], y - f["y"]) - f["r"]
    best = 1e18
    pts = f["points"]
    px, py = pts[-1]
    for qx, qy in pts:
        dx, dy = qx - px, qy - py
        dd = dx * dx + dy * dy
        t = 0.0 if dd == 0 else max(0.0, min(1.0, ((x - px) * dx + (y - py) * dy) / dd))
        best = min(best, math.hypot(px + t * dx - x, py + t * dy - y))
        px, py = qx, qy
    return best
