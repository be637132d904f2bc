"""Communicate Action (seed 000 "Communicate Action", incl. "Jamming").

A commander communicates with a unit before ordering or rallying it: the sender's quality die, shifted down
once per command level bypassed (and by jamming), must score higher than the worse LV of sender and receiver.
It needs no roll when the leaders are within 6" with line of sight (or for a commander's own unit).  Game
option ``jamming``: a side's scenario ``jammer`` die opposes the other side's ``comms`` die (default D8);
the jammer's minor success shifts the communication die down once, a major one twice (RN-094).
"""
from __future__ import annotations

import math

from ..forces.commanders import command_levels
from ..kernel.battlefield import observer_of
from ..kernel.dice import die_name, parse_die, shift_closed
from ..kernel.events import Event, event
from ..kernel.entities import Unit
from ..kernel.ruleset import Option, Rule

AUTO_RANGE = 6.0  # communication needs no roll within 6" (leader to leader) with line of sight
DEFAULT_COMMS = "d8"  # a side's communications equipment quality when the scenario gives none (average)


@event
class CommunicationAttempted(Event):
    sender: int
    receiver: int
    purpose: str  # order | rally | combined_assault
    automatic: bool  # within 6" with line of sight (or the commander's own unit): no roll
    die: str  # the communication die after the shifts ("" when automatic)
    roll: int
    needed: int  # must score higher
    bypassed: int  # command levels bypassed (one shift down each)
    jam_rolls: tuple  # (comms roll, jammer roll) or ()
    jam_shift: int
    success: bool


def _side_die(game, side: int, key: str, default: str | None):
    v = game.scenario["sides"][side].get(key, default)
    return None if v is None else parse_die(v)


def communicate(game, sender: Unit, receiver: Unit, purpose: str) -> bool:
    """Seed 000 "Communicate Action": the sender's quality die (shifted down once per bypassed command level
    and by jamming) must score higher than the worse LV of sender and receiver.  Automatic if the leaders are
    within 6" with line of sight (and for a commander's own unit)."""
    if sender.uid == receiver.uid or (
            math.hypot(sender.x - receiver.x, sender.y - receiver.y) <= AUTO_RANGE + 1e-9
            and game.bf.sight_for(observer_of(sender), sender.x, sender.y, receiver.x, receiver.y).visible):
        game.emit(CommunicationAttempted(sender.uid, receiver.uid, purpose, True, "", 0, 0, 0, (), 0, True))
        return True
    levels = command_levels(game, sender, receiver)
    bypassed = max(0, (levels or 1) - 1)
    jam_rolls: tuple = ()
    jam = 0
    if game.options.get("jamming"):
        jammer = _side_die(game, 1 - sender.side, "jammer", None)
        if jammer is not None:
            comms = _side_die(game, sender.side, "comms", DEFAULT_COMMS)
            cr = game.dice.roll(comms)
            jr = game.dice.roll(jammer)
            jam_rolls = (cr, jr)
            jam = 2 if jr > 2 * cr else (1 if jr > cr else 0)  # minor -> one shift down, major -> two (RN-094)
    die = shift_closed(sender.quality, -(bypassed + jam))
    needed = max(sender.lv, receiver.lv)
    roll = game.dice.roll(die)
    ok = roll > needed
    ew = game.rules.services.get("ew_jam")  # Electronic Warfare's jamming, after the roll (it cancels the message)
    if ew is not None and ew(game, sender, receiver, die, roll):
        ok = False
    game.emit(CommunicationAttempted(sender.uid, receiver.uid, purpose, False, die_name(die), roll, needed, bypassed,
                                     jam_rolls, jam, ok))
    return ok


RULE = Rule("Communicate Action", 'seed 000 "Communicate Action", "Jamming"',
            options=(Option("jamming", False, "Communicate › Jamming: a side's scenario 'jammer' die opposes the "
                            "other side's 'comms' die"),))
