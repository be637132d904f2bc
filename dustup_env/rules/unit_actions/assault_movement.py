"""Assault Action › Withdrawal, Occupy Defender's Position, Move to Contact and The Two Inch Rule (seed 000
L744-L776, L914): figure distances, the contact walk (its obstacles and the defender's footprint), occupying,
withdrawing and the confidence levels lost."""
from __future__ import annotations

import math

from ..kernel.dice import die_max
from ..kernel.events import Moved, RoutedOff
from ..kernel.entities import COHESION, CONFIDENCE_NAMES, KILLED, ROUTED, TREATED, WOUNDED, Unit
from ..kernel.table import place
from ..morale.confidence_test import confidence_test
from .move_action import STEP, TWO_INCH, move_path, reform, step_hook, too_close
from .assault_courage_test import assaulted_vehicle
from .assault_events import ConfidenceDropped, WoundedAbandoned

CONTACT = 1.0  # figure-to-figure distance (inches) that counts as base contact
# One unit against several enemy units: its detachments must each stay within 6" of its leader ("the attacker
# must be able to maintain unit coherency"), so the enemy units it takes on together may be at most 12" apart
# (closest figures) -- RN-300.
DEFENDER_SPREAD = 2.0 * COHESION
TWO_INCH_TOLERANCE = 0.05
WITHDRAW_FALLBACK = 24.0


def figure_gap(a: Unit, b: Unit) -> float:
    """Closest figure-to-figure distance between two units."""
    best = 1e18
    bf = b.figure_positions()
    for ax, ay in a.figure_positions():
        for bx, by in bf:
            d = (ax - bx) ** 2 + (ay - by) ** 2
            if d < best:
                best = d
    return math.sqrt(best)


def _gap_at(offsets, x, y, figs) -> float:
    best = 1e18
    for ox, oy in offsets:
        for fx, fy in figs:
            d = (x + ox - fx) ** 2 + (y + oy - fy) ** 2
            if d < best:
                best = d
    return math.sqrt(best)


def within_two_inches(a: Unit, b: Unit) -> bool:
    return figure_gap(a, b) <= TWO_INCH + TWO_INCH_TOLERANCE


def assault_reach(u: Unit, game=None) -> float:
    """Declaration bound: twice one maximum move (2 x die max x 2 inches) of the unit's own movement die
    (``game.movement_die``: encumbrance, cavalry and heavy equipment apply, RN-405)."""
    return 2.0 * 2.0 * die_max(game.movement_die(u) if game is not None else u.movement)


def _offsets(u: Unit):
    lf = u.figures[u.leader]
    return [(f.dx - lf.dx, f.dy - lf.dy) for f in u.figures if f.status != KILLED]


def contact_walk(bf, u: Unit, target: Unit, points: float, other_figs, power_armour: int, step=None,
                 reach: float = CONTACT):
    """Walk the leader toward the target's leader with ``points`` movement points (terrain and obstacle
    costs).  Returns ``(x, y, reached)``; reached when a figure comes within CONTACT of a target figure.
    Other enemy figures still stop the walk at 2"; ``reached`` is None if a ``move_step`` hook stopped it.  Contact across an obstacle lying between the point of
    contact and the defender (e.g. a wall right in front of it) must still pay that obstacle's crossing
    cost: "If defenders are behind some form of obstacle ... the attacker must roll enough movement to
    cover the movement cost of crossing the obstacle" (RN-209).  ``reach``: the figure-to-figure distance that counts
    as contact (against a vehicle more: :func:`contact_reach`)."""
    x, y = u.x, u.y
    tx, ty = target.x, target.y
    dist = math.hypot(tx - x, ty - y)
    offs = _offsets(u)
    tfigs = target.figure_positions()
    crossing = bf.obstacle_crossing_cost if bf.obstacles else None

    def affordable(px, py, paid):  # the obstacles still between the contact point and the defender
        return crossing is None or paid + crossing(px, py, tx, ty) <= points + 1e-9

    if _gap_at(offs, x, y, tfigs) <= reach + 1e-9:
        return x, y, affordable(x, y, 0.0)
    if dist < 1e-9:
        return x, y, False
    ux, uy = (tx - x) / dist, (ty - y) / dist
    spent = travelled = 0.0
    cost_fn = bf.move_cost
    while travelled < dist - 1e-9:
        seg = min(STEP, dist - travelled)
        nx, ny = x + ux * seg, y + uy * seg
        c = cost_fn(x + ux * seg * 0.5, y + uy * seg * 0.5, power_armour)
        if c is None:
            return x, y, False
        extra = crossing(x, y, nx, ny) if crossing else 0.0
        need = seg * c + extra
        if spent + need > points + 1e-9:
            if extra == 0.0:
                part = (points - spent) / c
                qx, qy = x + ux * part, y + uy * part
                if part > 1e-6 and _gap_at(offs, qx, qy, tfigs) <= reach + 1e-9 \
                        and not too_close(offs, qx, qy, other_figs) and affordable(qx, qy, points):
                    return qx, qy, True
            return x, y, False
        if not bf.on_table(nx, ny) or too_close(offs, nx, ny, other_figs):
            return x, y, False
        if step is not None and step(x, y, nx, ny):  # stopped on the way (the rule set's move_step)
            return nx, ny, None
        x, y = nx, ny
        spent += need
        travelled += seg
        if _gap_at(offs, x, y, tfigs) <= reach + 1e-9:
            # the exact point of contact within this step; an obstacle still in between must be paid
            return x, y, affordable(x, y, spent)
    return x, y, _gap_at(offs, x, y, tfigs) <= reach + 1e-9 and affordable(x, y, spent)



def contact_reach(game, t: Unit) -> float:
    """The figure-to-figure distance at which an attacker contacts ``t``: CONTACT, and for a vehicle (not a mech or
    monster) CONTACT from the edge of its footprint (the vehicle rules' ``footprint``, RN-901)."""
    if assaulted_vehicle(game, t):
        svc = game.rules.services.get("footprint")
        if svc is not None:
            return CONTACT + svc(t)
    return CONTACT


def contact_move(game, u, t, die: str):
    """Move ``u`` toward ``t`` with a roll of ``die`` x 2": into contact if the walk reaches it, else as far as
    able but no closer than 2" to any enemy figure.  Returns ``(roll, points, start, reached)``."""
    roll = game.dice.roll(die)
    points = 2.0 * roll
    start = (u.x, u.y)
    step = step_hook(game, u)
    x, y, reached = contact_walk(game.bf, u, t, points, _enemy_figs(game, u, exclude={t.uid}), u.terrain_column, step,
                                 contact_reach(game, t))
    if reached is None:  # stopped on the way
        reached = False
    elif not reached:
        x, y = move_path(game.bf, u, t.x, t.y, points, _enemy_figs(game, u), u.terrain_column, step)
    _arrive(game, u, x, y, start)
    return roll, points, start, reached


def _arrive(game, u: Unit, x: float, y: float, start) -> None:
    """``u``'s leader ends a contact move or a withdrawal at (x, y): no longer propped, re-formed if it was
    disorganised, no longer completely concealed if it moved."""
    was_dis = u.disorganised()
    place(game, u, x, y, "assault_move", point=False)  # (its path ran the point at every step)
    u.propped = False
    if was_dis:
        reform(u)
        u.loose = False
    if (x, y) != start:
        u.complete_concealment = False


def _enemy_figs(game, u: Unit, exclude=()):
    figs = []
    for e in game.enemy_units(u.side):
        if e.uid in exclude:
            continue
        figs.extend(e.figure_positions())
    return figs


def _withdraw_point(game, u: Unit, away: list[Unit]) -> tuple[float, float]:
    """Away from the assaulting enemy, towards cover if at all possible (routed: the home edge)."""
    if u.confidence == ROUTED or not away:
        return game.home_point(u)
    ex = sum(e.x for e in away) / len(away)
    ey = sum(e.y for e in away) / len(away)
    de = math.hypot(u.x - ex, u.y - ey)
    best, bd = None, 1e18
    for cx, cy in game.bf.cover_points():
        if math.hypot(cx - ex, cy - ey) <= de + 1.0:
            continue
        d = math.hypot(cx - u.x, cy - u.y)
        if d < bd:
            best, bd = (cx, cy), d
    if best is not None:
        return best
    if de < 1e-9:
        return game.home_point(u)
    vx, vy = (u.x - ex) / de, (u.y - ey) / de
    px = min(max(u.x + vx * WITHDRAW_FALLBACK, 0.0), game.bf.width)
    py = min(max(u.y + vy * WITHDRAW_FALLBACK, 0.0), game.bf.height)
    return px, py


def occupy(game, u: Unit, x: float, y: float, reason: str = "occupy") -> None:
    """``u`` occupies the position a withdrawn enemy unit vacated (its leader's old position): no roll (also a unit
    put in contact at once, ``reason``)."""
    start = (u.x, u.y)
    place(game, u, x, y, reason)
    u.propped = False
    u.complete_concealment = False
    game.emit(Moved(u.uid, 0, 0.0, (round(start[0], 3), round(start[1], 3)), (round(x, 3), round(y, 3)), False))


def drop_confidence(game, u: Unit, levels: int, reason: str) -> None:
    if levels <= 0:
        return
    u.confidence = min(ROUTED, u.confidence + levels)
    game.emit(ConfidenceDropped(u.uid, levels, reason, CONFIDENCE_NAMES[u.confidence]))


def withdraw(game, u: Unit, away: list[Unit], levels: int, reason: str) -> None:
    """Withdrawal (seed 000 Withdrawal/Outcome): one normal move (``Game.movement_die``: encumbrance,
    heavy equipment, cavalry; RN-406) away from the attacker towards cover, drop ``levels`` confidence
    levels, remove all suppression; wounded left behind are abandoned."""
    if not u.in_play:
        return
    drop_confidence(game, u, levels, reason)
    u.suppression = 0
    px, py = _withdraw_point(game, u, away)
    roll = game.dice.roll(game.movement_die(u))  # "one normal move": the unit's own movement die (RN-406)
    points = 2.0 * roll
    start = (u.x, u.y)
    x, y = move_path(game.bf, u, px, py, points, _enemy_figs(game, u, exclude={e.uid for e in away}),
                     u.terrain_column, step_hook(game, u))
    _arrive(game, u, x, y, start)
    game.emit(Moved(u.uid, roll, points, (round(start[0], 3), round(start[1], 3)), (round(x, 3), round(y, 3)), True))
    if assaulted_vehicle(game, u):  # a vehicle withdrawing (L1522): a move of the vehicle (facing, passengers, tow)
        for hook in game.rules.after_move:
            hook(game, u, start, True)
    if u.confidence == ROUTED:
        hx, hy = game.home_point(u)
        if math.hypot(u.x - hx, u.y - hy) < 0.5:
            u.location = "routed_off"
            game.emit(RoutedOff(u.uid))
    # Abandoning wounded: withdrawing away from visible enemies leaves the wounded behind
    wounded = [i for i, f in enumerate(u.figures) if f.status in (WOUNDED, TREATED)]
    if wounded and any(game.bf.has_los(u.x, u.y, e.x, e.y) or game.bf.has_los(start[0], start[1], e.x, e.y)
                       for e in away):
        for i in wounded:
            u.set_figure(i, status=KILLED)
        u.abandoned += len(wounded)
        game.emit(WoundedAbandoned(u.uid, len(wounded)))
        if u.in_play:
            confidence_test(game.dice, u, ["abandon_wounded"], events=game.events)
