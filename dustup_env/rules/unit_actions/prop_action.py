"""Prop Action (seed 000 "Prop Action").

"The unit is spending its time carefully preparing its position ... The unit counts as propped until it
moves": a propped unit is harder to hit (+1 target die) and better protected (+1 armour die).  It may not
move until it unprops (an action), which it cannot do while suppressed; a forced move ends the propped
state at no cost (RN-048).  Cavalry may not prop (``forces.cavalry``'s filter).
"""
from __future__ import annotations

from ..kernel.entities import Unit
from ..kernel.events import Propped
from ..kernel.ruleset import Rule


def _options(game, u: Unit, status) -> list:
    if status.disorganised:
        return []
    if not u.propped:
        return [("prop",)]
    return [] if status.suppressed else [("unprop",)]


def _legal(game, u: Unit, status, opt) -> bool:
    return len(opt) == 1 and opt in _options(game, u, status)


def _prop(game, u: Unit, opt) -> None:
    u.propped = opt[0] == "prop"
    game.emit(Propped(u.uid, u.propped))


RULE = Rule("Prop Action", 'seed 000 "Prop Action"', action_options=(_options,),
            actions={"prop": _prop, "unprop": _prop}, legality={"prop": _legal, "unprop": _legal})
