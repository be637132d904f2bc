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

from ..forces.units import compact_offsets
from ..kernel.battlefield import RES, VEHICLE_COLUMN0
from ..kernel.entities import BROKEN, KILLED, ROUTED, SHAKEN, Unit
from ..kernel.events import Moved, RoutedOff
from ..kernel.decisions import Frame
from ..kernel.ruleset import Family, Rule
from ..kernel.sequence import ACTIVATION, pop, window
from ..kernel.table import place
from ..morale.leadership_test import leadership_test
from .recover_suppression_action import acts_while_suppressed

DIRECTIONS = 16
DISTANCES = (3.0, 6.0, 12.0, 24.0)
DIR_VECTORS = tuple((math.sin(2 * math.pi * k / DIRECTIONS), math.cos(2 * math.pi * k / DIRECTIONS))
                    for k in range(DIRECTIONS))  # k=0 is "north" (+y), clockwise
STEP = 0.5
WALK = "walk"  # the frame type of a Move Action's walk
TWO_INCH = 2.0


def nominated_point(unit: Unit, d: int, k: int) -> tuple[float, float]:
    vx, vy = DIR_VECTORS[d]
    dist = DISTANCES[k]
    return unit.x + vx * dist, unit.y + vy * dist


def too_close(ox: list[tuple[float, float]], x: float, y: float, enemy_figs) -> bool:
    for fx, fy in enemy_figs:
        ddx, ddy = fx - x, fy - y
        if ddx * ddx + ddy * ddy > 144.0:  # cheap reject: offsets are < 6" + 2"
            continue
        for ax, ay in ox:
            ex, ey = x + ax - fx, y + ay - fy
            if ex * ex + ey * ey < TWO_INCH * TWO_INCH - 1e-9:
                return True
    return False


PAUSE = 2  # what a step function returns to pause the walk after the step (a reaction was pushed)


def move_path(bf, unit: Unit, px: float, py: float, points: float, enemy_figs, power_armour: int = 0, step=None):
    """Walk the leader toward (px, py) with ``points`` movement points.  Returns the end point.

    ``power_armour``: the unit's movement column (``Unit.terrain_column``; a bool still selects the
    infantry or power-armour column).  ``step(x0, y0, x1, y1)``: called after each step of the walk (0.5" or
    less), True stops the mover where it is (a mine, a command-detonated charge: the rule set's
    ``move_step`` point, :func:`step_hook`)."""
    x, y, _, _, _ = walk_path(bf, unit, unit.x, unit.y, px, py, points, enemy_figs, power_armour, step)
    return x, y


def walk_path(bf, unit: Unit, x0: float, y0: float, px: float, py: float, points: float, enemy_figs,
              power_armour: int = 0, step=None, at=None):
    """:func:`move_path`'s walk from (x0, y0) toward (px, py), resumable: ``at`` = (x, y, spent, travelled) goes on
    from a point of that line reached before.  Returns (x, y, spent, travelled, paused): ``paused`` when ``step``
    returned :data:`PAUSE` (the walk goes on later from the values returned)."""
    dx, dy = px - x0, py - y0
    dist = math.hypot(dx, dy)
    if dist < 1e-9 or points <= 0:
        return x0, y0, 0.0, 0.0, False
    ux, uy = dx / dist, dy / dist
    lf = unit.figures[unit.leader]
    offsets = [(f.dx - lf.dx, f.dy - lf.dy) for f in unit.figures if f.status != KILLED]
    if enemy_figs:
        # too_close at a point of the path only looks at figures within 12" of it (its cheap reject) that are
        # within 2" of one of ours (so within the largest offset + 2" of the leader): keep the figures that close
        # to the segment walked (a margin past the rounding of the steps); the answers are the same.  (Those are
        # all within dist + 14" of the start on each axis, the bound this walk used before.)
        big = max(math.hypot(ax, ay) for ax, ay in offsets) if offsets else 0.0
        r = min(12.0, big + TWO_INCH) + 1e-6
        r2 = r * r
        dd = dx * dx + dy * dy
        near = []
        # (a figure outside the segment's box grown by r is farther than r from it: the cheap test first)
        lox, hix = (x0 - r, px + r) if x0 < px else (px - r, x0 + r)
        loy, hiy = (y0 - r, py + r) if y0 < py else (py - r, y0 + r)
        for fx, fy in enemy_figs:
            if fx < lox or fx > hix or fy < loy or fy > hiy:
                continue
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
    if at is None:
        spent = 0.0
        travelled = 0.0
        x, y = x0, y0
    else:
        x, y, spent, travelled = at
    # bf.move_cost inlined (the same arithmetic) on the terrain raster of this movement column; the obstacle
    # crossing cost over only the obstacle segments whose bounding box meets the whole path's
    dynamic = bf.move_cost if bf.dynamic else None  # dynamic terrain: ask the layered battlefield
    costs = bf.cost_table[power_armour]
    grid, gnx, gny = bf.grid, bf.nx, bf.ny
    width, height = bf.width, bf.height
    segs = None
    if bf.obstacles:
        lox, hix = (x0 - 1e-6, px + 1e-6) if x0 < px else (px - 1e-6, x0 + 1e-6)  # a margin past the rounding
        loy, hiy = (y0 - 1e-6, py + 1e-6) if y0 < py else (py - 1e-6, y0 + 1e-6)  # of the last step's end
        segs = [sg for sg in (bf.obstacle_segments if power_armour < VEHICLE_COLUMN0 else bf.segments_for(power_armour))
                if not (sg[1] < lox or sg[0] > hix or sg[3] < loy or sg[2] > hiy)]
    crossing = bf.obstacle_crossing_cost if segs else None
    if not enemy_figs:
        enemy_figs = None
    end = dist - 1e-9
    limit = points + 1e-9
    while travelled < end:
        seg = dist - travelled
        if seg >= STEP:
            seg = STEP
        sx, sy = ux * seg, uy * seg  # (x + ux * seg * 0.5 is x + sx * 0.5: the same arithmetic)
        nx, ny = x + sx, y + sy
        if dynamic is None:
            gi, gj = int((y + sy * 0.5) / RES), int((x + sx * 0.5) / RES)
            c = costs[grid[gi][gj] if 0 <= gi < gny and 0 <= gj < gnx else 0]
        else:
            c = dynamic(x + sx * 0.5, y + sy * 0.5, power_armour)
        if c is None:
            break
        extra = crossing(x, y, nx, ny, segs) if crossing is not None else 0.0
        need = seg * c + extra
        if spent + need > limit:
            # as far as able: a partial step if no obstacle is crossed in it
            if extra == 0.0:
                part = (points - spent) / c
                if part > 1e-6:
                    qx, qy = x + ux * part, y + uy * part
                    if enemy_figs is None or not too_close(offsets, qx, qy, enemy_figs):
                        if step is not None and step(x, y, qx, qy) == PAUSE:
                            return qx, qy, points, dist, True  # the last step: nothing is left to walk after
                        x, y = qx, qy
            break
        if not (0.0 <= nx <= width and 0.0 <= ny <= height) or (
                enemy_figs is not None and too_close(offsets, nx, ny, enemy_figs)):
            break
        if step is not None:
            r = step(x, y, nx, ny)
            if r:
                if r == PAUSE:
                    return nx, ny, spent + need, travelled + seg, True
                x, y = nx, ny
                break
        x, y = nx, ny
        spent += need
        travelled += seg
    return x, y, spent, travelled, False


def step_hook(game, u: Unit):
    """The rule set's ``move_step`` hooks for ``u``'s walk (None when the rule set has none: no cost)."""
    hooks = game.rules.move_step
    if not hooks:
        return None

    def step(x0, y0, x1, y1) -> bool:
        stop = False
        for h in hooks:
            if h(game, u, x0, y0, x1, y1):
                stop = True
        return stop

    return step


def reform(unit: Unit) -> None:
    """Place figures compactly around the leader (used after moving a disorganised unit)."""
    alive = [i for i, f in enumerate(unit.figures) if f.status != KILLED]
    offs = compact_offsets(len(alive), alive.index(unit.leader) if unit.leader in alive else 0)
    lf = unit.figures[unit.leader]
    for i, (ox, oy) in zip(alive, offs):
        unit.set_offset(i, lf.dx + ox, lf.dy + oy)


# ---------------------------------------------------------------------------------------------- the action
MOVE_OPTIONS = tuple(tuple(("move", d, k) for k in range(len(DISTANCES))) for d in range(DIRECTIONS))
# the move options' offsets, each product computed as in nominated_point (x + vx * dist), per direction in
# increasing distance (a ray: once a point is off the table, the farther ones are too): (dx, dy, option)
_MOVE_RAYS = tuple(tuple((vx * dist, vy * dist, MOVE_OPTIONS[d][k]) for k, dist in enumerate(DISTANCES))
                   for d, (vx, vy) in enumerate(DIR_VECTORS))
# per direction: (its bit in a ray mask, the farthest point's offsets, the options, the ray)
_RAYS = tuple((1 << d, ray[-1][0], ray[-1][1], tuple(opt for _, _, opt in ray), ray) for d, ray in enumerate(_MOVE_RAYS))


def move_options(game, u: Unit, in_cover: bool) -> list:
    """The ``("move", d, k)`` options whose nominated point is on the table and passable for ``u``'s movement
    column (broken units: only points in cover).  The list is shared: do not change it."""
    bf = game.bf
    broken = u.confidence == BROKEN
    col = u.terrain_column
    key = (u.x, u.y, broken, col)
    cache = bf.move_option_cache
    opts = cache.get(key)
    if opts is not None:
        return opts
    if len(cache) > 100_000:
        cache.clear()
    opts = cache[key] = []
    w, h = bf.width, bf.height
    x, y = u.x, u.y
    append = opts.append
    if bf.dynamic:  # dynamic terrain: ask the layered battlefield
        for ray in _MOVE_RAYS:
            for ox, oy, opt in ray:
                px, py = x + ox, y + oy
                if px < 0.0 or py < 0.0 or px > w or py > h:
                    break
                if bf.move_cost(px, py, col) is None or (broken and not bf.in_cover(px, py)):
                    continue
                append(opt)
        return opts
    costs = bf.cost_table[col]  # bf.move_cost(px, py, col) with bf.cell inlined (the hottest loop of the options)
    grid, nx, ny = bf.grid, bf.nx, bf.ny
    # rays whose every point is passable wherever in its raster cell the leader stands (broken units test cover)
    mask = 0 if broken or not (0.0 <= x <= w and 0.0 <= y <= h) else ray_masks(bf, col)[int(y / RES)][int(x / RES)]
    extend = opts.extend
    for bit, fx, fy, ray_opts, ray in _RAYS:  # ray: (vx * dist, vy * dist, option) in option order
        if mask & bit:
            px, py = x + fx, y + fy
            if 0.0 <= px <= w and 0.0 <= py <= h:
                extend(ray_opts)  # the farthest point is on the table: so are the nearer ones (the leader is
                continue  # on it, the table is a rectangle and the rounding of x + vx * dist is monotonic)
            for ox, oy, opt in ray:
                px, py = x + ox, y + oy
                if px < 0.0 or py < 0.0 or px > w or py > h:
                    break
                append(opt)
            continue
        for ox, oy, opt in ray:
            px, py = x + ox, y + oy
            if px < 0.0 or py < 0.0 or px > w or py > h:
                break  # off the table: so are the farther points of this direction (the table is a rectangle)
            i, j = int(py / RES), int(px / RES)
            if costs[grid[i][j] if i < ny and j < nx else 0] is None:
                continue
            if broken and not bf.in_cover(px, py):
                continue  # broken units may not leave cover except to withdraw
            append(opt)
    return opts


def ray_masks(bf, col: int) -> list:
    """Per raster cell (i, j) of the leader (one row and column past the raster for a leader on the far edges): bit d
    set when every raster cell that a point of direction d's move options can fall in, from a leader anywhere in
    that cell, is passable for movement column ``col`` (those options need no terrain lookup).  Worked out once per
    battlefield and column (the terrain is static), from a summed table of the impassable cells."""
    masks = bf.ray_masks.get(col)
    if masks is not None:
        return masks
    import numpy as np
    costs = bf.cost_table[col]
    ny, nx = bf.ny, bf.nx
    blocked = np.array([[costs[v] is None for v in row] for row in bf.grid], dtype=np.int64).reshape(ny, nx)
    sums = np.zeros((ny + 1, nx + 1), dtype=np.int64)
    sums[1:, 1:] = blocked.cumsum(0).cumsum(1)
    cy, cx = np.meshgrid(np.arange(ny + 1) * RES, np.arange(nx + 1) * RES, indexing="ij")  # the cells' low corners
    out = np.zeros((ny + 1, nx + 1), dtype=np.int64)
    for d, ray in enumerate(_MOVE_RAYS):
        ox, oy, _ = ray[-1]  # the farthest point: the ray's box from anywhere in the cell (a margin past rounding)
        lo_x, lo_y = cx + min(0.0, ox) - 1e-6, cy + min(0.0, oy) - 1e-6
        hi_x, hi_y = cx + RES + max(0.0, ox) + 1e-6, cy + RES + max(0.0, oy) + 1e-6
        i0 = np.clip(np.floor(lo_y / RES), 0, ny).astype(np.int64)
        j0 = np.clip(np.floor(lo_x / RES), 0, nx).astype(np.int64)
        i1 = np.clip(np.floor(hi_y / RES), -1, ny - 1).astype(np.int64) + 1
        j1 = np.clip(np.floor(hi_x / RES), -1, nx - 1).astype(np.int64) + 1
        n = sums[i1, j1] - sums[i0, j1] - sums[i1, j0] + sums[i0, j0]
        clear = (n == 0) | (i0 >= i1) | (j0 >= j1)
        if costs[0] is None:  # past the raster bf.cell reads open ground, impassable to this column
            clear &= (hi_x < bf.width) & (hi_y < bf.height)
        out |= clear.astype(np.int64) << d
    masks = bf.ray_masks[col] = out.tolist()
    return masks


def _options(game, u: Unit, status) -> list:
    """Moves (not while suppressed or propped; a disorganised unit may always move), and a broken unit's
    withdrawal."""
    if status.suppressed and not acts_while_suppressed(game, u):  # vehicles move while suppressed (RN-140)
        return []
    if status.disorganised:
        return move_options(game, u, status.in_cover)
    opts = [] if u.propped else move_options(game, u, status.in_cover)
    if u.confidence == BROKEN:
        return [*opts, ("withdraw",)]
    return opts


def _legal(game, u: Unit, status, opt) -> bool:
    if opt[0] == "withdraw":
        return (opt == ("withdraw",) and not (status.suppressed and not acts_while_suppressed(game, u))  # RN-140
                and not status.disorganised and u.confidence == BROKEN)
    if len(opt) != 3 or (status.suppressed and not acts_while_suppressed(game, u)) or (u.propped and not status.disorganised):
        return False
    return opt in move_options(game, u, status.in_cover)


def enemy_figures(game, u: Unit) -> list:
    """The enemy figures ``u`` knows of (and enemy hidden-unit markers, which block movement like one figure)."""
    figs = []
    for e in game.enemy_units(u.side):
        ef = e.figures  # e.figure_positions(), inlined
        lf = ef[e.leader]
        bx, by = e.x - lf.dx, e.y - lf.dy
        figs += [(bx + f.dx, by + f.dy) for f in ef if f.status != KILLED]
    for m in game.markers:
        if m["side"] != u.side and not m["removed"]:
            figs.append((m["x"], m["y"]))
    return figs


def nearest_enemy(game, u: Unit):
    best, bd = None, 1e18
    for e in game.enemy_units(u.side):
        d = (e.x - u.x) ** 2 + (e.y - u.y) ** 2
        if d < bd:
            best, bd = e, d
    return best


def may_advance(game, u: Unit, px: float, py: float) -> bool:
    """The Shaken leadership test of a move towards (px, py): False if the unit failed it (it does not move)."""
    if u.confidence >= SHAKEN:  # restrictions are cumulative: broken units have shaken's too (RN-016)
        bf = game.bf
        near = nearest_enemy(game, u)
        toward = near is not None and math.hypot(px - near.x, py - near.y) < math.hypot(u.x - near.x, u.y - near.y)
        leaving = bf.in_cover(u.x, u.y) and not bf.in_cover(px, py)
        if (toward or leaving) and not leadership_test(game.dice, u, "shaken unit advancing or leaving cover",
                                                       game.events):
            return False
    return True


def move_toward(game, u: Unit, px: float, py: float) -> None:
    """A move towards the nominated point (px, py), with the Shaken leadership test, walked at once (see
    :func:`begin_move` for the Move Action's resumable walk)."""
    if may_advance(game, u, px, py):
        move_to(game, u, px, py, withdraw=False)


def movement_roll(game, u: Unit) -> int:
    """The movement roll (the rule set's die and fixed rolls)."""
    die = game.movement_die(u)
    roll = None
    for hook in game.rules.movement_roll:
        roll = hook(game, u, die)
        if roll is not None:
            break
    if roll is None:
        roll = game.dice.roll(die)
    return roll


def blockers_of(game, u: Unit) -> list:
    """The figures ``u``'s walk stops 2" from: the enemy's it knows of and the rule set's ``move_blockers``."""
    blockers = enemy_figures(game, u)
    for hook in game.rules.move_blockers:
        blockers.extend(hook(game, u))
    return blockers


def move_to(game, u: Unit, px: float, py: float, withdraw: bool) -> None:
    """Roll the movement (the rule set's die and fixed rolls) and walk toward (px, py) at once (the ``move_step``
    hooks run; no reaction window opens: the callers go on after it)."""
    roll = movement_roll(game, u)
    points = 2.0 * roll
    start = (u.x, u.y)
    x, y = move_path(game.bf, u, px, py, points, blockers_of(game, u), u.terrain_column, step_hook(game, u))
    arrive(game, u, start, x, y, roll, points, withdraw)


def arrive(game, u: Unit, start, x: float, y: float, roll: int, points: float, withdraw: bool) -> None:
    """The end of a move from ``start``: the unit at (x, y), re-formed if it was disorganised, the event, the rule
    set's ``after_move`` hooks."""
    was_disorganised = u.disorganised()
    place(game, u, x, y, "move", point=False)  # (the walk ran the point at every step)
    if withdraw or (x, y) != start:  # a forced move ends the propped state at no cost (RN-048); so does any move
        u.propped = False  # (a propped unit may not move, L509: only a disorganised one is offered moves, RN-1051)
    if was_disorganised:
        reform(u)
        u.loose = False
    if (x, y) != start:
        u.complete_concealment = False
    game.emit(Moved(u.uid, roll, points, (round(start[0], 3), round(start[1], 3)),
                    (round(x, 3), round(y, 3)), withdraw))
    for hook in game.rules.after_move:
        hook(game, u, start, withdraw)


# ---------------------------------------------------------------------------------------------- the resumable walk
def begin_move(game, u: Unit, px: float, py: float, withdraw: bool = False) -> bool:
    """The Move Action's move (or a withdrawal): roll the movement, push a ``walk`` frame and walk it.  The walk is
    resumable: its position, points spent and destination live in the frame's data, and at each step the
    ``move_step`` reaction window opens (a reaction pushed there pauses the walk; when it pops, the walk goes on
    from where it was, or ends there if the reaction halted the mover or it left play).  When the walk ends the
    frame is popped and the frame below resumes (the activation counts the action).  Returns False (an action
    handler's "the procedure counts the action"), or None (one action) when the walk ran at once: no ``move_step``
    reaction is registered and the activation's frame is on top."""
    roll = movement_roll(game, u)
    reactions = game.rules.reactions
    if not reactions["move_step"] and not reactions["move_end"] and game.stack[-1].type == ACTIVATION:
        # no rule reacts at a step and the move is the activation's own action: the walk cannot pause, so it runs to
        # its end at once with no frame (the same as pushing the walk frame and popping it at the end, which counts
        # the action: the handler's None does)
        points = 2.0 * roll
        sx, sy = u.x, u.y
        x, y, _, _, _ = walk_path(game.bf, u, sx, sy, px, py, points, blockers_of(game, u), u.terrain_column,
                                  step_hook(game, u))
        _walked(game, u, sx, sy, x, y, roll, points, withdraw)
        return None
    data = {"px": px, "py": py, "sx": u.x, "sy": u.y, "x": u.x, "y": u.y, "points": 2.0 * roll, "spent": 0.0,
            "travelled": 0.0, "roll": roll, "withdraw": withdraw}
    frame = Frame(WALK, u.uid, 0, False, data)
    game.stack.append(frame)  # (sequence.push: the phase is "action" and no decision is built during an action)
    walk(game, frame)
    return False


def walk(game, frame) -> None:
    """Walk a ``walk`` frame on from where it is, until it ends (then :func:`end_walk`) or a reaction pauses it."""
    d = frame.data
    u = game.units[frame.unit]
    hooks, react = game.rules.move_step, game.rules.reactions["move_step"]
    step = None if not hooks and not react else _walk_step(game, u, frame, hooks, react)
    at = None if d["travelled"] == 0.0 else (d["x"], d["y"], d["spent"], d["travelled"])
    x, y, spent, travelled, paused = walk_path(game.bf, u, d["sx"], d["sy"], d["px"], d["py"], d["points"],
                                               blockers_of(game, u), u.terrain_column, step, at)
    if paused:
        d["x"], d["y"], d["spent"], d["travelled"] = x, y, spent, travelled
        return
    end_walk(game, frame, x, y)


def _walk_step(game, u: Unit, frame, hooks, react):
    def step(x0, y0, x1, y1):
        stop = False
        for h in hooks:
            if h(game, u, x0, y0, x1, y1):
                stop = True
        if stop:
            return True
        if react:
            d = frame.data
            d["x"], d["y"] = x1, y1  # the mover stands where it is while the other side may react
            place(game, u, x1, y1, "walk", point=False)
            if window(game, "move_step", None, u, frame):
                return PAUSE
        return False

    return step


def end_walk(game, frame, x: float, y: float) -> None:
    """The walk is over at (x, y): the move's end (:func:`arrive`; a withdrawing routed unit at its home edge leaves
    the table), then the ``move_end`` reaction window (reactions pushed there wait above the frame, marked
    ``ended``: its resume pops it), then the frame is popped and the frame below resumes."""
    d = frame.data
    u = game.units[frame.unit]
    _walked(game, u, d["sx"], d["sy"], x, y, d["roll"], d["points"], d["withdraw"])
    if game.rules.reactions["move_end"] and game.phase != "over":
        d["ended"] = True  # the move is over; reactions to it wait above the frame (its resume pops it)
        if window(game, "move_end", None, u, frame):
            return
    pop(game, frame)


def _walked(game, u: Unit, sx: float, sy: float, x: float, y: float, roll: int, points: float, withdrawing: bool):
    """The end of a walk from (sx, sy) at (x, y): :func:`arrive`; a withdrawing routed unit at its home edge leaves
    the table."""
    arrive(game, u, (sx, sy), x, y, roll, points, withdrawing)
    if withdrawing and u.confidence == ROUTED:
        hx, hy = game.home_point(u)
        if math.hypot(u.x - hx, u.y - hy) < 0.5:
            u.location = "routed_off"
            game.emit(RoutedOff(u.uid))


class Walk:
    """Frame ``walk``: a move being walked (data: the start ``sx``, ``sy``, destination ``px``, ``py``, the point
    reached ``x``, ``y``, ``points``, ``spent``, ``travelled``, the movement ``roll``, ``withdraw``).  It is on top
    only while it walks; a reaction pushed at a step is above it, and popping that resumes the walk."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        d = frame.data
        if d.get("ended"):  # reactions to the finished move were taken (the ``move_end`` window)
            pop(game, frame)
        elif d.get("halted") or not game.units[frame.unit].in_play:
            end_walk(game, frame, d["x"], d["y"])
        else:
            walk(game, frame)


def withdraw_point(game, u: Unit) -> tuple[float, float]:
    """Away from the nearest enemy towards cover if possible (routed units head for their home edge)."""
    if u.confidence == ROUTED:
        return game.home_point(u)
    e = nearest_enemy(game, u)
    if e is None:
        return game.home_point(u)
    de = math.hypot(u.x - e.x, u.y - e.y)
    best, bd = None, 1e18
    for cx, cy in game.bf.cover_points():
        if math.hypot(cx - e.x, cy - e.y) <= de + 1.0:
            continue
        d = math.hypot(cx - u.x, cy - u.y)
        if d < bd:
            best, bd = (cx, cy), d
    return best if best is not None else game.home_point(u)


def withdraw(game, u: Unit) -> bool:
    """The withdraw action (broken units; routed units must): a move away from the enemy (:func:`begin_move`); a
    routed unit reaching its home edge leaves the table."""
    px, py = withdraw_point(game, u)
    return begin_move(game, u, px, py, withdraw=True)


def _do_move(game, u: Unit, opt):
    px, py = nominated_point(u, opt[1], opt[2])
    if not may_advance(game, u, px, py):
        return None  # the Shaken test failed: the action is spent without moving
    return begin_move(game, u, px, py)


def _do_withdraw(game, u: Unit, opt) -> bool:
    return withdraw(game, u)


RULE = Rule(
    "Move Action", 'seed 000 "Move Action", "Terrain Effects on Movement", "Crossing Obstacles"',
    families=(Family("withdraw", (), 7, "withdraw (broken units; routed units must)"),
              Family("move", ("dir", "dist"), 9, "Move Action: a direction (mirrored for a flipped side) and a distance")),
    action_options=(_options,),
    actions={"move": _do_move, "withdraw": _do_withdraw},
    procedures={WALK: Walk()},
    legality={"move": _legal, "withdraw": _legal},
)
