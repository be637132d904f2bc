"""Is an option legal, without building every option of the decision?

``Game.is_legal`` asks here for action decisions: the option must pass the same gates as
``Game.action_options`` (forced options, the unit's status), then the rule that offers options of its name
answers through its ``legality`` entry (the move and shoot families: the costly ones to build), and the
rule set's filters must keep it.  A name no rule answers for falls back to building the decision.
Tests check that the answer always equals membership in the built options.
"""
from __future__ import annotations


def action_is_legal(game, u, opt: tuple) -> bool:
    if not opt or not isinstance(opt[0], str):
        return False
    forced = game.forced_options(u)
    if forced is not None:
        return opt in forced
    status = game.status(u)
    if status is None:
        return opt == ("withdraw",)
    if opt == ("end",):
        return True
    check = game.rules.legality.get(opt[0])
    if check is None:
        return opt in game.decision().options
    if not check(game, u, status, opt):
        return False
    kept = [opt]
    for filt in game.rules.action_filters:
        kept = filt(game, u, kept)
        if not kept:
            return False
    return True
