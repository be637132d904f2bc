"""The dynamic terrain layer: features that come and go during a game (smoke, fire, rubble, minefields, wrecks).

The scenario's terrain is static and its :class:`~.battlefield.Battlefield` (with its caches) is shared by
every game on it.  What changes during a game is ``game.terrain``: a list of plain-data features, each
``{"kind": ..., "shape": "circle", "x", "y", "r"}`` or ``{"kind": ..., "shape": "polygon", "points": [[x, y],
...]}`` plus whatever its rule keeps in it.  A rule declares the kinds it places (the rule set's ``terrain``
mapping: kind -> :class:`TerrainKind`, what the feature does to sight, concealment, cover and movement).

While ``game.terrain`` is empty, ``game.bf`` is the static battlefield itself and nothing costs more.  When
features exist, ``game.bf`` is a :class:`DynamicBattlefield`: the same interface, answering from the static
battlefield first and then from the features (a feature can only add: block a line of sight, conceal,
give cover, make ground costlier or impassable), so every rule that asks ``game.bf`` sees them.  Use
:func:`add` and :func:`remove` to change the layer: they keep ``game.bf`` in step.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .battlefield import Sight
from .errors import ScenarioError

_BLOCKED = Sight(False, False, 0)


@dataclass(frozen=True, slots=True)
class TerrainKind:
    """What a kind of dynamic feature does where it lies (or on a line of sight through it)."""

    blocks_sight: bool = False  # a line of sight through it is blocked
    conceals: bool = False  # a line through it, or a unit in it, is partially concealed
    cover: int = 0  # 0 none, 1 soft, 2 hard: for a unit in it
    move_cost: int | None = 0  # movement points per inch in it (0: the ground's own; None: impassable)
    in_sight_when_inside: bool = True  # a line of sight starting or ending inside it is not blocked by it


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


def _contains(f: dict, x: float, y: float) -> bool:
    if f["shape"] == "circle":
        return (x - f["x"]) ** 2 + (y - f["y"]) ** 2 <= f["r"] * f["r"]
    inside = False
    pts = f["points"]
    px, py = pts[-1]
    for qx, qy in pts:
        if (qy > y) != (py > y) and x < (px - qx) * (y - qy) / (py - qy) + qx:
            inside = not inside
        px, py = qx, qy
    return inside


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


class DynamicBattlefield:
    """The static battlefield seen through the game's dynamic features (immutable: a change makes a new one)."""

    dynamic = True

    def __init__(self, static, features, kinds):
        self.static = static
        self.items = tuple((f, kinds[f["kind"]]) for f in features)
        self.move_option_cache: dict = {}

    def __getattr__(self, name):  # width, height, obstacles, features, on_table, obstacle_crossing_cost, ...
        return getattr(self.static, name)

    def sight(self, ax: float, ay: float, bx: float, by: float) -> Sight:
        s = self.static.sight(ax, ay, bx, by)
        if not s.visible:
            return s
        concealed = s.concealed
        for f, k in self.items:
            if not (k.blocks_sight or k.conceals) or not _crosses(f, ax, ay, bx, by):
                continue
            if k.blocks_sight and not (k.in_sight_when_inside and (_contains(f, ax, ay) or _contains(f, bx, by))):
                return _BLOCKED
            concealed = True
        return s if concealed == s.concealed else Sight(True, concealed, s.cover)

    def has_los(self, ax, ay, bx, by) -> bool:
        return self.sight(ax, ay, bx, by).visible

    def conceals(self, x: float, y: float) -> bool:
        return self.static.conceals(x, y) or any(k.conceals and _contains(f, x, y) for f, k in self.items)

    def cover_at(self, x: float, y: float) -> int:
        c = self.static.cover_at(x, y)
        for f, k in self.items:
            if k.cover > c and _contains(f, x, y):
                c = k.cover
        return c

    def in_cover(self, x: float, y: float) -> bool:
        return self.conceals(x, y) or self.cover_at(x, y) > 0

    def move_cost(self, x: float, y: float, power_armour: int = 0):
        c = self.static.move_cost(x, y, power_armour)
        if c is None:
            return None
        for f, k in self.items:
            if k.move_cost != 0 and _contains(f, x, y):
                if k.move_cost is None:
                    return None
                c = max(c, k.move_cost)
        return c

    def cover_points(self) -> list[tuple[float, float]]:
        pts = self.__dict__.get("_cover_points")
        if pts is None:
            pts = self._cover_points = [p for p in self.static.cover_points() if self.move_cost(*p) is not None]
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
