"""The action decision of an activated unit (seed 000 "Unit Activation", and the restrictions of the
"Confidence" levels and of "Death of a Leader" on what a unit may do).

A unit's options are, in order: what a rule forces (a routed unit withdraws, a panicking one tests, a
promoted one assumes command, a leaderless one reorganises, a broken one in the open withdraws), else
``("end",)`` and the options of every rule of the game's rule set (``action_options``), which the rule set's
filters may then narrow (travel mode, cavalry).  :func:`action_is_legal` answers whether one option is among
them without building them all where the rule offering it knows a cheaper test (the ``legality`` entries:
the move and shoot families); tests check that the answer always equals membership in the built options.
"""
from __future__ import annotations

from .decisions import unit_status
from .entities import BROKEN, ROUTED, Unit


def forced_options(game, u: Unit):
    """The only options ``u`` has when a rule forces them (routed, panicking, leaderless, broken in the
    open, ...), else None."""
    if u.confidence == ROUTED:
        return [("withdraw",)]
    frame = game.stack[-1] if game.stack else None
    for override in game.rules.option_overrides:
        forced = override(game, u, frame)
        if forced is not None:
            return forced
    if u.leader_lost:
        return [("reorganise", "leader")]
    return None


def status(game, u: Unit):
    """What restricts ``u``'s actions now (cover, suppression, cohesion), or None when it must withdraw
    (broken in the open and not suppressed)."""
    in_cover = game.bf.in_cover(u.x, u.y)
    suppressed = u.suppression > 0
    if u.confidence == BROKEN and not in_cover and not suppressed:
        return None
    return unit_status(in_cover, suppressed, u.disorganised())


def action_options(game, u: Unit) -> list:
    """The options of ``u``'s action decision: ``("end",)`` and every rule's, then the rules' filters."""
    forced = forced_options(game, u)
    if forced is not None:
        return forced
    st = status(game, u)
    if st is None:
        return [("withdraw",)]
    opts: list = [("end",)]
    for provider in game.rules.action_options:
        opts.extend(provider(game, u, st))
    for filt in game.rules.action_filters:
        opts = filt(game, u, opts)
    return opts


def action_is_legal(game, u: Unit, opt: tuple) -> bool:
    """Whether ``opt`` is one of ``u``'s action options (see the module docstring)."""
    if not opt or not isinstance(opt[0], str):
        return False
    forced = forced_options(game, u)
    if forced is not None:
        return opt in forced
    st = status(game, u)
    if st is None:
        return opt == ("withdraw",)
    if opt == ("end",):
        return True
    check = game.rules.legality.get(opt[0])
    if check is None:
        return opt in game.decision().options
    if not check(game, u, st, opt):
        return False
    kept = [opt]
    for filt in game.rules.action_filters:
        kept = filt(game, u, kept)
        if not kept:
            return False
    return True
