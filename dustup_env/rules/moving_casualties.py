"""Encumbrance and Moving Casualties (seed 000 "Move Action › Encumbrance", "› Moving Casualties")
and the abandoned-wounded confidence trigger (seed 000 "Confidence Test", note **).

"Troops carrying heavy equipment or casualties move at one die type lower than normal."
"Squads can move while carrying their wounded as long as there is at least one able bodied trooper
per casualty being carried.  When moving with casualties, a unit counts as "encumbered" ...  A
player may choose to abandon the wounded ..."  "Wounded figures (either treated or untreated
casualties) are considered abandoned if the unit withdraws away from visible enemy units without
taking their wounded with them."

* A unit with wounded figures (untreated or treated) and at least one able-bodied figure moves
  with its movement die one type lower (closed at D4): ``MOVEMENT_DIE_HOOKS``.
* When it moves, each able-bodied figure carries one wounded figure; wounded beyond that are left
  behind where they were (the leader is carried first), and so are wrecked power-armour suits
  (``DISABLED``): they leave the unit (``Unit.left_behind`` keeps [x, y, status, weapon]).
* Wounded left behind while the move took the unit further from a visible enemy unit trigger the
  "forced to abandon wounded" confidence test.
* Leaving treated wounded in the care of a detachment: ``("detach", "half")``.
"""
from __future__ import annotations

import math

from . import game as _game
from .dice import D4
from .detach_element_action import figure_xy, remove_figures
from .events import Event, _event
from .forces import DISABLED, OK, TREATED, WOUNDED, Unit
from .morale import confidence_test


@_event
class FiguresLeftBehind(Event):
    unit: int
    wounded: int
    disabled: int


def carrying(u: Unit) -> bool:
    """Carrying wounded figures (and able to: at least one able-bodied figure)."""
    has_wounded = False
    has_able = False
    for f in u.figures:
        if f.status == WOUNDED or f.status == TREATED:
            has_wounded = True
        elif f.status == OK:
            has_able = True
    return has_wounded and has_able


def encumbrance_die(game, u: Unit, die: int) -> int:
    """MOVEMENT_DIE_HOOKS entry: one die type lower while carrying casualties (closed at D4)."""
    if die > D4 and carrying(u):
        return die - 1
    return die


def left_on_move(u: Unit) -> tuple[list[int], list[int]]:
    """(wounded figure indices that cannot be carried, disabled figure indices)."""
    wounded = [i for i, f in enumerate(u.figures) if f.status in (WOUNDED, TREATED)]
    disabled = [i for i, f in enumerate(u.figures) if f.status == DISABLED and i != u.leader]
    wounded.sort(key=lambda i: (i != u.leader, i))  # the leader is carried first
    carriers = u.n_able()
    return [i for i in wounded[carriers:] if i != u.leader], disabled


def after_move(game, u: Unit, start, withdraw: bool) -> None:
    """MOVE_HOOKS entry: figures that cannot come along stay at their starting places."""
    if (u.x, u.y) == tuple(start):
        return
    wounded, disabled = left_on_move(u)
    if not wounded and not disabled:
        return
    dx, dy = start[0] - u.x, start[1] - u.y
    for i in sorted(wounded + disabled):
        x, y = figure_xy(u, i)
        f = u.figures[i]
        u.left_behind.append([round(x + dx, 3), round(y + dy, 3), f.status, f.weapon])
    remove_figures(u, wounded + disabled)
    game.emit(FiguresLeftBehind(u.uid, len(wounded), len(disabled)))
    if wounded and u.in_play and _away_from_visible_enemy(game, u, start):
        confidence_test(game.dice, u, ["abandon_wounded"], events=game.events)


def _away_from_visible_enemy(game, u: Unit, start) -> bool:
    sx, sy = start
    for e in game._enemy_units(u.side):
        if math.hypot(e.x - u.x, e.y - u.y) > math.hypot(e.x - sx, e.y - sy) and (
                game.bf.has_los(sx, sy, e.x, e.y) or game.bf.has_los(u.x, u.y, e.x, e.y)):
            return True
    return False


_game.MOVEMENT_DIE_HOOKS.append(encumbrance_die)
_game.MOVE_HOOKS.append(after_move)
