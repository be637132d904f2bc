"""Travel Movement (seed 000 "Move Action › Travel Movement") and the travel-mode exception to
friendly interpenetration (seed 000 "Move Action").

"In travel movement ... Units use the maximum number of movement points without needing to roll a
die. ... The unit must form a column one or two figures wide and all figures must be in base
contact.  While in travel mode, the only actions available to the unit are to move or reorganise.
It takes one reorganise action to form up in column and another to return to a normal tactical
formation.  ... If fired on, the unit is automatically suppressed and must take a confidence test."
"Friendly units may freely interpenetrate one another, unless one unit is in travel mode.  In this
case, the moving unit must stop 2 inches from the other unit."

* ``("reorganise", "column")`` / ``("reorganise", "tactical")`` switch the mode (``Unit.travel``);
  the column is two figures wide at 1" spacing behind the leader; tactical re-forms compactly.
* In travel mode a move uses the movement die's maximum (x2) without a roll (12" for infantry).
* Options in travel mode: move, reorganise, recover, withdraw and end only (``ACTION_FILTERS``).
* The target die shift (-1, ``target_die(travel=...)``), the automatic suppression (game core
  reads ``Unit.travel``), the confidence test whenever fired on (``fired_on_in_travel``, value 0)
  and the travel-mode modifier (+4/+3/+2, ``morale.confidence_test``).
* A moving unit stops 2" (figure to figure) from friendly units when either is in travel mode;
  friendly figures already within 2" of the mover when it starts do not block it.
"""
from __future__ import annotations

from ..kernel.dice import die_sides
from ..kernel.events import Event, event
from ..kernel.entities import KILLED, Unit
from .move_action import reform
from ..kernel.ruleset import Rule

COLUMN_SPACING = 1.0
_ALLOWED = frozenset(("end", "move", "reorganise", "recover", "withdraw", "evacuate"))


@event
class TravelModeChanged(Event):
    unit: int
    travel: bool


def _options(game, u: Unit, status) -> list:
    if status.disorganised or (status.suppressed and not status.in_cover):
        return []
    if u.travel:
        return [("reorganise", "tactical")]
    if u.propped:
        return []
    return [("reorganise", "column")]


def _filter(game, u: Unit, opts: list) -> list:
    if not u.travel:
        return opts
    return [o for o in opts if o[0] in _ALLOWED]


def form_column(u: Unit) -> None:
    lf = u.figures[u.leader]
    alive = [i for i, f in enumerate(u.figures) if f.status != KILLED and i != u.leader]
    for k, i in enumerate(alive):
        rank, file_ = divmod(k + 1, 2)  # the leader heads the left file
        u.set_offset(i, lf.dx + file_ * COLUMN_SPACING, lf.dy - rank * COLUMN_SPACING)


def _column(game, u: Unit) -> None:
    form_column(u)
    u.travel = True
    u.loose = False
    u.complete_concealment = False
    game.emit(TravelModeChanged(u.uid, True))


def _tactical(game, u: Unit) -> None:
    reform(u)
    u.travel = False
    u.loose = False
    game.emit(TravelModeChanged(u.uid, False))


def travel_roll(game, u: Unit, die: int):
    """MOVEMENT_ROLL_HOOKS entry: the maximum of the die, without rolling."""
    return die_sides(die) if u.travel else None


def travel_blockers(game, u: Unit) -> list:
    """MOVE_BLOCKER_HOOKS entry: friendly figures the move must stay 2" from."""
    out = []
    mine = None
    for uid in game.side_units[u.side]:
        o = game.units[uid]
        if not (u.travel or o.travel) or o is u or not o.in_play:
            continue
        figs = o.figure_positions()
        if mine is None:
            mine = u.figure_positions()
            if mine:
                mx0, mx1 = min(x for x, _ in mine), max(x for x, _ in mine)
                my0, my1 = min(y for _, y in mine), max(y for _, y in mine)
        # the pairwise test only when the two groups' bounding boxes come within 2" (else no pair can be)
        if (figs and mine and min(x for x, _ in figs) - mx1 < 2.0 and mx0 - max(x for x, _ in figs) < 2.0
                and min(y for _, y in figs) - my1 < 2.0 and my0 - max(y for _, y in figs) < 2.0
                and any((fx - mx) ** 2 + (fy - my) ** 2 < 4.0 - 1e-9 for fx, fy in figs for mx, my in mine)):
            continue  # already within 2" at the start: may move away
        out.extend(figs)
    return out


def fired_on(game, firer: Unit, t: Unit, result, reasons: list) -> None:
    """SHOT_HOOKS entry: a unit in travel mode fired on must take a confidence test."""
    if t.travel and "fired_on_in_travel" not in reasons:
        reasons.append("fired_on_in_travel")


RULE = Rule("Travel Movement", 'seed 000 "Move Action › Travel Movement"', action_options=(_options,),
            action_filters=(_filter,), reorganise={"column": _column, "tactical": _tactical},
            movement_roll=(travel_roll,), move_blockers=(travel_blockers,), after_shot=(fired_on,))
