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
* ``("abandon",)`` (no action; offered to a unit that could move: not suppressed, not propped, not in
  travel mode): "A player may choose to abandon the wounded, in the hope of being able to return at a
  later point to recover them."  Every wounded figure but the leader is left where it lies.  The
  unit's next move is checked like a forced leaving: further from a visible enemy unit than the
  point where the wounded were left -> the "forced to abandon wounded" test (RN-302).
* ``("reorganise", "recover_wounded")`` (one reorganise action, the usual reorganise limits): the
  unit picks up friendly wounded left on the table within 6" of its leader (Cohesion: troopers can
  fan out that far), nearest first, as many as its able troopers can carry (RN-303).
"""
from __future__ import annotations

import math

from ..kernel.dice import D4
from .detach_element_action import figure_xy, remove_figures
from ..kernel.events import Event, event
from ..kernel.entities import COHESION, DISABLED, KILLED, OK, TREATED, WOUNDED, Figure, Unit
from ..morale.confidence_test import confidence_test
from ..kernel.ruleset import Family, Rule

RECOVER_RANGE = COHESION  # left-behind wounded within 6" of the leader can be picked up (RN-303)


@event
class FiguresLeftBehind(Event):
    unit: int
    wounded: int
    disabled: int


@event
class WoundedAbandonedByChoice(Event):
    unit: int
    figures: int


@event
class WoundedRecovered(Event):
    unit: int
    figures: int
    units: tuple  # the units that had left them behind (one entry per figure)


def left_entry(u: Unit, i: int, x: float, y: float) -> list:
    """The plain-data record of figure ``i`` of ``u`` left on the table at (x, y)."""
    f = u.figures[i]
    return [round(x, 3), round(y, 3), f.status, f.weapon, f.wounds, f.medic, f.armour]


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
    for f in u.figures:  # the common case first: no casualty to carry or leave
        if f.status != OK and f.status != KILLED:
            break
    else:
        return [], []
    wounded = [i for i, f in enumerate(u.figures) if f.status in (WOUNDED, TREATED)]
    disabled = [i for i, f in enumerate(u.figures) if f.status == DISABLED and i != u.leader]
    wounded.sort(key=lambda i: (i != u.leader, i))  # the leader is carried first
    carriers = u.n_able()
    return [i for i in wounded[carriers:] if i != u.leader], disabled


def after_move(game, u: Unit, start, withdraw: bool) -> None:
    """MOVE_HOOKS entry: figures that cannot come along stay at their starting places; wounded abandoned by
    choice count as abandoned if this move takes the unit away from a visible enemy (one test at most)."""
    if (u.x, u.y) == tuple(start):
        return
    point, u.abandon_point = u.abandon_point, []
    wounded, disabled = left_on_move(u)
    if wounded or disabled:
        dx, dy = start[0] - u.x, start[1] - u.y
        for i in sorted(wounded + disabled):
            x, y = figure_xy(u, i)
            u.left_behind.append(left_entry(u, i, x + dx, y + dy))
        remove_figures(u, wounded + disabled)
        game.emit(FiguresLeftBehind(u.uid, len(wounded), len(disabled)))
    if u.in_play and ((wounded and _away_from_visible_enemy(game, u, start))
                      or (point and _away_from_visible_enemy(game, u, point))):
        confidence_test(game.dice, u, ["abandon_wounded"], events=game.events)


def _away_from_visible_enemy(game, u: Unit, start) -> bool:
    sx, sy = start
    for e in game.enemy_units(u.side):
        if math.hypot(e.x - u.x, e.y - u.y) > math.hypot(e.x - sx, e.y - sy) and (
                game.bf.has_los(sx, sy, e.x, e.y) or game.bf.has_los(u.x, u.y, e.x, e.y)):
            return True
    return False


# ---------------------------------------------------------------------------------------------- by choice
def abandonable(u: Unit) -> list[int]:
    """Wounded figures (untreated or treated) the unit may leave behind: all but its leader."""
    return [i for i, f in enumerate(u.figures) if f.status in (WOUNDED, TREATED) and i != u.leader]


def recoverable(game, u: Unit) -> list[tuple[int, int]]:
    """(unit uid, index in its ``left_behind``) of friendly wounded ``u`` would pick up, nearest first, as many
    as its able troopers can carry besides the wounded it already has."""
    found = []
    r2 = RECOVER_RANGE * RECOVER_RANGE + 1e-9
    units = game.units
    for uid in game.side_units[u.side]:
        lb = units[uid].left_behind
        if not lb:
            continue
        for j, e in enumerate(lb):
            if e[2] in (WOUNDED, TREATED):
                d2 = (e[0] - u.x) ** 2 + (e[1] - u.y) ** 2
                if d2 <= r2:
                    found.append((d2, uid, j))
    if not found:
        return []
    room = u.n_able() - sum(1 for f in u.figures if f.status in (WOUNDED, TREATED))
    if room <= 0:
        return []
    found.sort()
    return [(uid, j) for _, uid, j in found[:room]]


def _options(game, u: Unit, status) -> list:
    if u.travel:
        return []
    opts = []
    if not status.suppressed and not u.propped and abandonable(u):
        opts.append(("abandon",))
    if not status.disorganised and (not status.suppressed or status.in_cover) and recoverable(game, u):
        opts.append(("reorganise", "recover_wounded"))
    return opts


def _do_abandon(game, u: Unit, opt) -> bool:
    idxs = abandonable(u)
    for i in idxs:
        x, y = figure_xy(u, i)
        u.left_behind.append(left_entry(u, i, x, y))
    remove_figures(u, idxs)
    u.abandon_point = [u.x, u.y]
    game.emit(WoundedAbandonedByChoice(u.uid, len(idxs)))
    return False  # putting the wounded down takes no action


def _do_recover_wounded(game, u: Unit) -> None:
    picks = recoverable(game, u)
    lf = u.figures[u.leader]
    bx, by = u.x - lf.dx, u.y - lf.dy  # where offset (0, 0) of the unit is
    owners = []
    for uid, j in picks:
        x, y, status, weapon, wounds, medic, armour = game.units[uid].left_behind[j]
        u.figures.append(Figure(weapon, status, wounds, x - bx, y - by, medic, armour))
        owners.append(uid)
    for uid, j in sorted(picks, key=lambda p: -p[1]):
        del game.units[uid].left_behind[j]
    u.loose = True
    u.abandon_point = []
    for uid in set(owners):  # wounded all taken back: moving away no longer abandons them
        v = game.units[uid]
        if not any(e[2] in (WOUNDED, TREATED) for e in v.left_behind):
            v.abandon_point = []
    game.emit(WoundedRecovered(u.uid, len(picks), tuple(owners)))


FAMILIES = (Family("abandon", (), 37, "Moving Casualties: leave the unit's wounded where they lie"),)
RULE = Rule("Moving Casualties", 'seed 000 "Move Action › Encumbrance", "› Moving Casualties"',
            families=FAMILIES,
            movement_die=(encumbrance_die,), after_move=(after_move,), action_options=(_options,),
            actions={"abandon": _do_abandon}, reorganise={"recover_wounded": _do_recover_wounded})
