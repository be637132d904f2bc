"""Recover Suppression Action (seed 000 "Recover Suppression Action", "Removal of Suppression").

A suppressed unit may spend an action to remove one suppression marker: its quality die must score
higher than its leadership value.
"""
from __future__ import annotations

from ..kernel.entities import Unit
from ..kernel.events import SuppressionRecovered
from ..kernel.ruleset import Family, Rule


def acts_while_suppressed(game, u: Unit) -> bool:
    """Whether ``u`` moves, shoots and detects while suppressed: the rule set's ``acts_while_suppressed`` service
    says (the vehicle rules: "vehicles may continue to move and shoot while suppressed", RN-140); infantry do not."""
    svc = game.rules.services.get("acts_while_suppressed")
    return svc is not None and svc(game, u)


def _options(game, u: Unit, status) -> list:
    return [("recover",)] if status.suppressed else []


def _legal(game, u: Unit, status, opt) -> bool:
    return opt == ("recover",) and status.suppressed


def recover(game, u: Unit, opt=None) -> None:
    roll = game.dice.roll(u.quality)
    ok = roll > u.lv
    if ok:
        u.suppression -= 1
    game.emit(SuppressionRecovered(u.uid, roll, u.lv, ok, u.suppression))


FAMILIES = (Family("recover", (), 6, "Recover Suppression Action"),)
RULE = Rule("Recover Suppression Action", 'seed 000 "Recover Suppression Action"',
            families=FAMILIES, action_options=(_options,),
            actions={"recover": recover}, legality={"recover": _legal})
