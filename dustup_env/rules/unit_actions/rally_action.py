"""Rally Action (seed 000 "Rally Action").

``("rally", uid)``: a commander communicates with itself or a unit below it in the command tree; then the
unit's quality die must score higher than the unit's LV plus the commander's LV to raise its confidence one
level (never above the level it started the game at).  Optional rule (game option ``rally_double_half``): more
than double raises two levels, less than half drops one.  A panicking unit, or one routed while panicking,
cannot be rallied.
"""
from __future__ import annotations

from ..forces.commanders import descendants, has_commanders
from ..kernel.entities import CONFIDENCE_NAMES, ROUTED, Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Option, Rule
from .communicate_action import communicate


@event
class RallyTested(Event):
    commander: int
    unit: int
    roll: int
    needed: int
    levels: int  # +2, +1, 0, -1 (confidence levels gained)
    confidence: str


def _rally_options(game, u: Unit, status) -> list:
    if status.disorganised or u.command_lost:
        return []
    subs = descendants(game, u)
    if not subs:
        return []
    units = game.units
    return [("rally", v.uid) for v in [u] + [units[i] for i, _ in subs]
            if v.in_play and v.confidence > v.profile.initial_confidence and not v.panicked and not v.panic_routed]


def rally_roll(game, commander: Unit, v: Unit) -> int:
    """The rally test: quality die > unit LV + commander LV raises one level (never above the initial level).
    Optional rule (game option ``rally_double_half``): > 2 x target raises two, 2 x roll < target drops one."""
    needed = v.lv + commander.lv
    roll = game.dice.roll(v.quality)
    optional = game.options.get("rally_double_half", False)
    if roll > needed:
        levels = 2 if optional and roll > 2 * needed else 1
        new = max(v.initial_confidence, v.confidence - levels)
    elif optional and 2 * roll < needed:
        levels = -1
        new = min(ROUTED, v.confidence + 1)
    else:
        levels = 0
        new = v.confidence
    gained = v.confidence - new
    v.confidence = new
    game.emit(RallyTested(commander.uid, v.uid, roll, needed, gained, CONFIDENCE_NAMES[new]))
    return gained


def _rally(game, u: Unit, opt) -> bool:
    v = game.units[opt[1]]
    if communicate(game, u, v, "rally"):
        rally_roll(game, u, v)
    return True


RULE = Rule("Rally Action", 'seed 000 "Rally Action"', applies=has_commanders,
            options=(Option("rally_double_half", False, "optional Rally rule: more than double raises two levels, "
                            "less than half drops one"),),
            families=(Family("rally", ("own",), 21, "Rally Action"),),
            action_options=(_rally_options,), actions={"rally": _rally})
