"""Assault Action: the typed events of an assault (declaration, response, courage tests, contact moves, final
defensive fire, strikes, the end of the assault)."""
from __future__ import annotations

from ..kernel.events import Event, event

# ---------------------------------------------------------------------------------------- events


@event
class AssaultDeclared(Event):
    attackers: tuple
    defenders: tuple
    two_inch: bool


@event
class AssaultResponse(Event):
    unit: int
    choice: str  # stand | withdraw


@event
class CourageTested(Event):
    attacker: int
    defender: int
    final: bool  # the outcome test after combat
    attacker_die: str
    defender_die: str
    attacker_shifts: tuple  # (row id, shift) pairs applied to the attacker's die
    defender_shifts: tuple
    attacker_roll: int
    defender_roll: int
    result: str


@event
class ConfidenceDropped(Event):
    unit: int
    levels: int
    reason: str
    confidence: str


@event
class ContactMove(Event):
    unit: int
    target: int
    roll: int  # 0: the two-inch rule (no roll)
    points: float
    start: tuple
    end: tuple
    reached: bool


@event
class SuppressionTested(Event):
    unit: int
    roll: int
    needed: int
    passed: bool


@event
class AssaultReaction(Event):
    unit: int
    roll: int
    needed: int
    passed: bool


@event
class StrikeResolved(Event):
    striker: int
    target: int
    round: int
    target_die: str
    target_roll: int
    striker_dice: tuple
    striker_rolls: tuple
    successes: int
    result: str
    hits: int


@event
class WoundedAbandoned(Event):
    unit: int
    figures: int


@event
class SpecialWeaponsChoice(Event):
    unit: int
    split: bool  # the special close-combat weapons fight as their own detachment(s) with their own impact


@event
class AssaultEnded(Event):
    attackers: tuple
    defenders: tuple
    result: str
