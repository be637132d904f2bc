"""Reorganise Action: free figure placement (seed 000 "Reorganise Action").

"Reorganise actions are a general purpose action. They do not count as moving, although individual
figures can be moved around within the existing unit footprint. A leader figure may not be moved more
than 2 inches during a reorganise action Other figures may be moved up to 6 inches as long as they
start and end within coherence of the unit leader."

``("reorganise", "place")`` opens a two-step decision (frame ``"place"``, RN-353):

1. kind ``"place_leader"``: ``("stay",)`` or ``("shift", d)``: the leader moves 2" in compass
   direction ``d`` (16 points, mirrored by the codec like moves).  A shift must end on the table in
   passable terrain for the unit's movement column, cross no obstacle and end 2" or more from every
   enemy figure; it is not offered to a propped or hidden unit, and a Shaken or Broken unit may not
   shift towards the nearest enemy or out of cover.  Only shifts that leave at least one formation
   (step 2) are offered.
2. kind ``"place_formation"``: ``("formation", f)``: the able figures (and the leader) take formation
   ``f`` around the leader, facing the nearest known enemy unit (or the enemy's home edge):
   ``compact`` (two ranks, 1.5" apart), ``line`` (one rank abreast), ``open`` (two ranks, 2.5" apart),
   ``file`` (one behind the other), or ``keep`` (every figure stays where it stands).  Wounded, treated
   and disabled figures stay where they lie.  A formation is offered only if every figure that moves
   moves at most 6" and ends 2" or more from every enemy figure, and every figure ends within 6" of
   the leader; formations that give the same placement as another (or as ``keep``) are not offered.

The whole placement is one reorganise action: offered under the usual reorganise limits (not
disorganised; suppressed only in cover; not in travel mode, whose column is its own formation).  It
does not count as moving: complete concealment is kept unless the leader leaves concealing terrain.
"""
from __future__ import annotations

import math

from ..kernel.events import Event, event
from ..kernel.entities import COHESION, KILLED, OK, SHAKEN, Unit
from ..forces.units import compact_offsets
from .move_action import DIR_VECTORS, DIRECTIONS
from ..kernel.decisions import Decision, Frame
from ..kernel.ruleset import Family, Rule
from ..kernel.sequence import pop, push
from ..kernel.table import place
from .move_action import enemy_figures, nearest_enemy

FORMATIONS = ("keep", "compact", "line", "open", "file")
LEADER_SHIFT = 2.0  # "A leader figure may not be moved more than 2 inches"
FIGURE_MOVE = 6.0  # "Other figures may be moved up to 6 inches"
TWO_INCH = 2.0
EPS = 1e-9
MAX_RADIUS = COHESION - 0.1  # formations are scaled down to fit well inside the 6" cohesion circle


@event
class FiguresPlaced(Event):
    unit: int
    shift: int  # compass direction of the leader's 2" shift, -1 = the leader stayed
    formation: str
    start: tuple  # leader position before
    end: tuple  # leader position after


# ---------------------------------------------------------------------------------------------- geometry
def _facing(game, u: Unit, x: float, y: float) -> tuple[float, float]:
    """Unit vector from (x, y) to the nearest known enemy unit, else towards the enemy's home edge."""
    best, bd = None, 1e18
    for e in game.enemy_units(u.side):
        d = (e.x - x) ** 2 + (e.y - y) ** 2
        if d < bd and d > EPS:
            best, bd = e, d
    if best is not None:
        d = math.sqrt(bd)
        return (best.x - x) / d, (best.y - y) / d
    return {"south": (0.0, 1.0), "north": (0.0, -1.0), "west": (1.0, 0.0), "east": (-1.0, 0.0)}[game.home_edges[u.side]]


def formation_offsets(name: str, m: int) -> list[tuple[float, float]]:
    """Slots of ``m`` figures relative to the leader (slot 0, at (0, 0)) in the facing frame:
    x = to the right, y = forward."""
    if m <= 1:
        return [(0.0, 0.0)]
    if name in ("compact", "open"):
        scale = 1.0 if name == "compact" else 2.5 / 1.5
        out = [(x * scale, y * scale) for x, y in compact_offsets(m, 0)]
    else:  # line / file: one rank (or file) with the leader in the middle
        s = min(2.0, 11.0 / (m - 1))
        c = (m - 1) // 2
        pos = [(k - c) * s for k in range(m)]
        pos[0], pos[c] = pos[c], pos[0]  # the leader (slot 0) in the middle
        out = [(p, 0.0) for p in pos] if name == "line" else [(0.0, p) for p in pos]
    r = max(math.hypot(x, y) for x, y in out)
    if r > MAX_RADIUS:
        out = [(x * MAX_RADIUS / r, y * MAX_RADIUS / r) for x, y in out]
    return out


_OFFSETS: dict = {}


def _formation_offsets(name: str, m: int) -> tuple:
    """formation_offsets, remembered per (formation, number of figures)."""
    r = _OFFSETS.get((name, m))
    if r is None:
        r = _OFFSETS[(name, m)] = tuple(formation_offsets(name, m))
    return r


def _world(u: Unit) -> list[tuple[float, float]]:
    """World position of every figure (killed ones included; index = figure index)."""
    lf = u.figures[u.leader]
    bx, by = u.x - lf.dx, u.y - lf.dy
    return [(bx + f.dx, by + f.dy) for f in u.figures]


def _assign(movers: list[int], pos: list, slots: list) -> dict:
    """Greedy nearest assignment of figures to slots (movers[0], the leader, already holds slot 0)."""
    pairs = []
    for a, i in enumerate(movers[1:]):
        px, py = pos[i]
        for b in range(1, len(slots)):
            sx, sy = slots[b]
            pairs.append(((px - sx) ** 2 + (py - sy) ** 2, a, b, i))
    pairs.sort()
    used_f, used_s, out = set(), set(), {movers[0]: slots[0]}
    for _, a, b, i in pairs:
        if a in used_f or b in used_s:
            continue
        used_f.add(a)
        used_s.add(b)
        out[i] = slots[b]
    return out


def _far_from(p, enemy) -> bool:
    px, py = p
    for ex, ey in enemy:
        if (ex - px) ** 2 + (ey - py) ** 2 < TWO_INCH * TWO_INCH - EPS:
            return False
    return True


def placements(game, u: Unit, lx: float, ly: float, enemy=None, first_only: bool = False) -> dict:
    """The legal formations with the leader at (lx, ly): {formation: {figure index: (x, y)}} (world positions
    of the figures that end somewhere else than they stand).  ``first_only``: stop at the first one."""
    if enemy is None:
        enemy = enemy_figures(game, u)
    # every figure ends within 6" of the leader (checked below before _far_from): only enemy figures within
    # 6" + 2" of it (and a margin) can be within 2" of one
    reach2 = (COHESION + TWO_INCH + 1e-3) ** 2
    enemy = [(ex, ey) for ex, ey in enemy if (ex - lx) ** 2 + (ey - ly) ** 2 < reach2]
    pos = _world(u)
    alive = [i for i, f in enumerate(u.figures) if f.status != KILLED]
    movers = [u.leader] + [i for i in alive if i != u.leader and u.figures[i].status == OK]
    fx, fy = _facing(game, u, lx, ly)
    rx, ry = fy, -fx
    shifted = (lx, ly) != (u.x, u.y)
    out = {}
    seen = []
    for name in FORMATIONS:
        if name == "keep":
            target = {u.leader: (lx, ly)} if shifted else {}
        else:
            rel = _formation_offsets(name, len(movers))
            slots = [(lx + x * rx + y * fx, ly + x * ry + y * fy) for x, y in rel]
            target = _assign(movers, pos, slots)
        ok = True
        final = {}
        for i in alive:
            p = target.get(i, pos[i])
            if (p[0] - lx) ** 2 + (p[1] - ly) ** 2 > COHESION * COHESION + 1e-6:
                ok = False  # every figure ends within coherence of the leader
                break
            ox, oy = pos[i]
            d2 = (p[0] - ox) ** 2 + (p[1] - oy) ** 2
            if d2 <= 1e-12:
                continue
            limit = LEADER_SHIFT if i == u.leader else FIGURE_MOVE
            if d2 > limit * limit + 1e-6 or not _far_from(p, enemy):
                ok = False
                break
            final[i] = (round(p[0], 6), round(p[1], 6))
        if not ok:
            continue
        key = sorted(final.items())
        if (name != "keep" and not final) or key in seen:
            continue  # the same placement as standing still or as an earlier formation
        seen.append(key)
        out[name] = final
        if first_only:
            break
    return out


def _shift_point(u: Unit, d: int) -> tuple[float, float]:
    vx, vy = DIR_VECTORS[d]
    return u.x + vx * LEADER_SHIFT, u.y + vy * LEADER_SHIFT


def leader_options(game, u: Unit) -> list:
    """("stay",) and the legal ("shift", d) options of step 1."""
    opts = [("stay",)]
    if u.propped or u.hidden:
        return opts
    bf = game.bf
    col = u.terrain_column
    enemy = enemy_figures(game, u)
    near = nearest_enemy(game, u) if u.confidence >= SHAKEN else None
    here_cover = bf.in_cover(u.x, u.y)
    for d in range(DIRECTIONS):
        px, py = _shift_point(u, d)
        if not bf.on_table(px, py):
            continue
        if bf.move_cost(px, py, col) is None or bf.move_cost((u.x + px) / 2, (u.y + py) / 2, col) is None:
            continue
        if bf.obstacles and bf.obstacle_crossing_cost(u.x, u.y, px, py) > 0:
            continue  # crossing an obstacle takes movement points: a move, not a reorganise
        if u.confidence >= SHAKEN:  # no shift that would need the Shaken leadership test (RN-012, RN-016)
            if here_cover and not bf.in_cover(px, py):
                continue
            if near is not None and math.hypot(px - near.x, py - near.y) < math.hypot(u.x - near.x, u.y - near.y):
                continue
        if placements(game, u, px, py, enemy, first_only=True):
            opts.append(("shift", d))
    return opts


# ---------------------------------------------------------------------------------------------- options and procedure
def _options(game, u: Unit, status) -> list:
    if status.disorganised or (status.suppressed and not status.in_cover) or u.travel:
        return []
    return [("reorganise", "place")]


def _begin(game, u: Unit) -> bool:
    push(game, Frame("place", u.uid, 0, False, {"x": -1.0, "y": -1.0, "shift": -1}))
    return False  # the procedure counts the action when the placement is done


class PlaceProcedure:
    """Frame "place": data = {x, y (the leader's chosen position; -1 before step 1), shift}."""

    @staticmethod
    def decision(game, frame):
        u = game.units[frame.unit]
        data = frame.data
        if data["x"] < 0:
            return Decision(u.side, "place_leader", u.uid, tuple(leader_options(game, u)))
        forms = placements(game, u, data["x"], data["y"])
        # apply() comes next with the game unchanged (the option is the next entry of the history): keep the
        # placements for it instead of computing them twice (checked, never trusted across states)
        game.cache["placements"] = (frame, len(game.history), data["x"], data["y"], forms)
        return Decision(u.side, "place_formation", u.uid, tuple(("formation", f) for f in forms))

    @staticmethod
    def apply(game, frame, opt) -> None:
        u = game.units[frame.unit]
        data = frame.data
        if data["x"] < 0:
            if opt[0] == "stay":
                data["x"], data["y"] = u.x, u.y
            else:
                data["x"], data["y"] = _shift_point(u, opt[1])
                data["shift"] = opt[1]
            return
        lx, ly = data["x"], data["y"]
        memo = game.cache.pop("placements", None)
        if memo is not None and memo[0] is frame and memo[1] + 1 == len(game.history) and memo[2:4] == (lx, ly):
            forms = memo[4]
        else:
            forms = placements(game, u, lx, ly)
        final = forms[opt[1]]
        pos = _world(u)
        for i, p in final.items():
            pos[i] = p
        start = (u.x, u.y)
        for i in range(len(u.figures)):  # offsets from the leader (the leader's own offset becomes 0)
            u.set_offset(i, pos[i][0] - lx, pos[i][1] - ly)
        place(game, u, lx, ly, "placement")
        if opt[1] != "keep":
            u.loose = False
        shifted = start != (lx, ly)
        if shifted and u.complete_concealment and not game.bf.conceals(lx, ly):
            u.complete_concealment = False
        game.emit(FiguresPlaced(u.uid, data["shift"], opt[1], (round(start[0], 3), round(start[1], 3)),
                                (round(lx, 3), round(ly, 3))))
        if shifted:
            from ..morale.panic import check_sight_both
            check_sight_both(game, u)  # a new view of the enemy may trigger panic (first sight)
        pop(game, frame)  # the activation counts the action


FAMILIES = (Family("stay", (), 42, "placement: the leader stays where it is"),
            Family("shift", ("dir",), 43, "placement: the leader moves 2\" in this direction (mirrored like moves)"),
            Family("formation", (FORMATIONS,), 44, "placement: the figures take this formation around the leader"),)
RULE = Rule("Reorganise Action: free figure placement", 'seed 000 "Reorganise Action"',
            families=FAMILIES, action_options=(_options,),
            reorganise={"place": _begin}, procedures={"place": PlaceProcedure()})
