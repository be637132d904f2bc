"""Move Action (seed 000 "Move Action", "Terrain Effects on Movement", "Crossing Obstacles").

The unit nominates a point (a compass direction and a distance from its leader), rolls its
movement die x2 for movement points and moves its leader in a straight line toward the point as
far as it is able (terrain costs per inch, obstacle crossing costs, impassable terrain) or to the
point, whichever is closer.  It cannot end closer than 2" to an enemy figure.  Friendly units
interpenetrate freely.  Figures keep their places around the leader (re-formed compactly if the
unit was disorganised).
"""
from __future__ import annotations

import math

from ..kernel.battlefield import RES
from ..kernel.entities import KILLED, Unit
from ..forces.units import compact_offsets

DIRECTIONS = 16
DISTANCES = (3.0, 6.0, 12.0, 24.0)
DIR_VECTORS = tuple((math.sin(2 * math.pi * k / DIRECTIONS), math.cos(2 * math.pi * k / DIRECTIONS))
                    for k in range(DIRECTIONS))  # k=0 is "north" (+y), clockwise
STEP = 0.5
TWO_INCH = 2.0


def nominated_point(unit: Unit, d: int, k: int) -> tuple[float, float]:
    vx, vy = DIR_VECTORS[d]
    dist = DISTANCES[k]
    return unit.x + vx * dist, unit.y + vy * dist


def _too_close(ox: list[tuple[float, float]], x: float, y: float, enemy_figs) -> bool:
    for fx, fy in enemy_figs:
        ddx, ddy = fx - x, fy - y
        if ddx * ddx + ddy * ddy > 144.0:  # cheap reject: offsets are < 6" + 2"
            continue
        for ax, ay in ox:
            ex, ey = x + ax - fx, y + ay - fy
            if ex * ex + ey * ey < TWO_INCH * TWO_INCH - 1e-9:
                return True
    return False


def move_path(bf, unit: Unit, px: float, py: float, points: float, enemy_figs, power_armour: int = 0):
    """Walk the leader toward (px, py) with ``points`` movement points.  Returns the end point.

    ``power_armour``: the unit's movement column (``Unit.terrain_column``; a bool still selects the
    infantry or power-armour column)."""
    x0, y0 = unit.x, unit.y
    dx, dy = px - x0, py - y0
    dist = math.hypot(dx, dy)
    if dist < 1e-9 or points <= 0:
        return x0, y0
    ux, uy = dx / dist, dy / dist
    lf = unit.figures[unit.leader]
    offsets = [(f.dx - lf.dx, f.dy - lf.dy) for f in unit.figures if f.status != KILLED]
    if enemy_figs:
        # _too_close at a point of the path only looks at figures within 12" of it (its cheap reject) that are
        # within 2" of one of ours (so within the largest offset + 2" of the leader): keep the figures that close
        # to the segment walked (a margin past the rounding of the steps); the answers are the same.  (Those are
        # all within dist + 14" of the start on each axis, the bound this walk used before.)
        big = max(math.hypot(ax, ay) for ax, ay in offsets) if offsets else 0.0
        r = min(12.0, big + TWO_INCH) + 1e-6
        r2 = r * r
        dd = dx * dx + dy * dy
        near = []
        for fx, fy in enemy_figs:
            wx, wy = fx - x0, fy - y0
            t = (wx * dx + wy * dy) / dd
            if t < 0.0:
                t = 0.0
            elif t > 1.0:
                t = 1.0
            ex, ey = wx - t * dx, wy - t * dy
            if ex * ex + ey * ey < r2:
                near.append((fx, fy))
        enemy_figs = near
    spent = 0.0
    travelled = 0.0
    x, y = x0, y0
    # bf.move_cost inlined (the same arithmetic) on the terrain raster of this movement column; the obstacle
    # crossing cost over only the obstacle segments whose bounding box meets the whole path's
    costs = bf._cost[power_armour]
    grid, gnx, gny = bf.grid, bf.nx, bf.ny
    width, height = bf.width, bf.height
    segs = None
    if bf.obstacles:
        lox, hix = (x0 - 1e-6, px + 1e-6) if x0 < px else (px - 1e-6, x0 + 1e-6)  # a margin past the rounding
        loy, hiy = (y0 - 1e-6, py + 1e-6) if y0 < py else (py - 1e-6, y0 + 1e-6)  # of the last step's end
        segs = [sg for sg in bf._obstacle_segs if not (sg[1] < lox or sg[0] > hix or sg[3] < loy or sg[2] > hiy)]
    while travelled < dist - 1e-9:
        seg = min(STEP, dist - travelled)
        nx, ny = x + ux * seg, y + uy * seg
        mx, my = x + ux * seg * 0.5, y + uy * seg * 0.5
        gi, gj = int(my / RES), int(mx / RES)
        c = costs[grid[gi][gj] if 0 <= gi < gny and 0 <= gj < gnx else 0]
        if c is None:
            break
        extra = bf.obstacle_crossing_cost(x, y, nx, ny, segs) if segs else 0.0
        need = seg * c + extra
        if spent + need > points + 1e-9:
            # as far as able: a partial step if no obstacle is crossed in it
            if extra == 0.0:
                part = (points - spent) / c
                if part > 1e-6:
                    qx, qy = x + ux * part, y + uy * part
                    if not _too_close(offsets, qx, qy, enemy_figs):
                        x, y = qx, qy
            break
        if not (0.0 <= nx <= width and 0.0 <= ny <= height) or _too_close(offsets, nx, ny, enemy_figs):
            break
        x, y = nx, ny
        spent += need
        travelled += seg
    return x, y


def reform(unit: Unit) -> None:
    """Place figures compactly around the leader (used after moving a disorganised unit)."""
    alive = [i for i, f in enumerate(unit.figures) if f.status != KILLED]
    offs = compact_offsets(len(alive), alive.index(unit.leader) if unit.leader in alive else 0)
    lf = unit.figures[unit.leader]
    for i, (ox, oy) in zip(alive, offs):
        unit.figures[i].dx, unit.figures[i].dy = lf.dx + ox, lf.dy + oy
