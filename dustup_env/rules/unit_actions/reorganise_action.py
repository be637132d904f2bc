"""Reorganise Action (seed 000 "Reorganise Action"; "Concealment"; "Death of a Leader").

``("reorganise", what)``: a general purpose action.  The kernel of it is here: ``"conceal"`` / ``"reveal"``
(complete concealment in concealing terrain, Shoot Action › Concealment), ``"rearrange"`` (figures back into
a compact formation after a new leader was appointed) and ``"leader"`` (a leaderless unit reorganises; the
new leader is appointed at the end of the activation, :mod:`..morale.death_of_a_leader`).  Every other
``what`` belongs to the rule that offers it (the rule set's ``reorganise`` mapping: travel column, mounting,
tasks, free placement, hiding, ...).  Allowed while suppressed only in cover; not while disorganised.
"""
from __future__ import annotations

from ..kernel.entities import Unit
from ..kernel.events import ConcealmentChanged, Rearranged
from ..kernel.ruleset import Rule
from .move_action import reform


def _options(game, u: Unit, status) -> list:
    if status.disorganised or (status.suppressed and not status.in_cover):
        return []
    opts = []
    if u.complete_concealment:
        opts.append(("reorganise", "reveal"))
    elif game.bf.conceals(u.x, u.y):
        opts.append(("reorganise", "conceal"))
    if u.loose:
        opts.append(("reorganise", "rearrange"))
    return opts


def reorganise(game, u: Unit, opt):
    what = opt[1]
    if what == "conceal":
        u.complete_concealment = True
        game.emit(ConcealmentChanged(u.uid, True))
    elif what == "reveal":
        u.complete_concealment = False
        game.emit(ConcealmentChanged(u.uid, False))
    elif what == "rearrange":
        reform(u)
        u.loose = False
        game.emit(Rearranged(u.uid))
    elif what != "leader":  # "leader": the reorganising itself; the appointment comes at the end of the activation
        return game.rules.reorganise[what](game, u)  # False: the rule manages the activation itself
    return None


RULE = Rule("Reorganise Action", 'seed 000 "Reorganise Action"', action_options=(_options,),
            actions={"reorganise": reorganise})
