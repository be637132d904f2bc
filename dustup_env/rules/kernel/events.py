"""Typed events emitted as the game advances: the log, the replay and the render read them.

Every event is a frozen dataclass; ``event.to_dict()`` gives ``{"type": ..., **fields}``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields


class Event:
    __slots__ = ()

    def to_dict(self) -> dict:
        d = {"type": type(self).__name__}
        for f in fields(self):
            v = getattr(self, f.name)
            d[f.name] = list(v) if isinstance(v, tuple) else v
        return d


def _event(cls):
    return dataclass(frozen=True, slots=True)(cls)


@_event
class GameStarted(Event):
    scenario: str
    seed: int


@_event
class TurnStarted(Event):
    turn: int


@_event
class InitiativeRolled(Event):
    rolls: tuple  # (side0, side1) after re-rolling ties
    winner: int


@_event
class InitiativeChosen(Event):
    side: int
    first: int  # the side that activates first


@_event
class Passed(Event):
    side: int


@_event
class UnitActivated(Event):
    side: int
    unit: int


@_event
class ActivationEnded(Event):
    unit: int


@_event
class LeadershipTested(Event):
    unit: int
    roll: int
    needed: int  # must score higher
    passed: bool
    reason: str


@_event
class Moved(Event):
    unit: int
    roll: int
    points: float
    start: tuple
    end: tuple
    withdraw: bool


@_event
class RoutedOff(Event):
    unit: int


@_event
class Propped(Event):
    unit: int
    propped: bool


@_event
class ShotResolved(Event):
    unit: int
    target: int
    mode: str
    target_die: str
    target_roll: int
    firer_dice: tuple  # die names
    firer_rolls: tuple
    successes: int
    result: str  # none | minor | major
    hits: int
    suppressive: bool


@_event
class HitResolved(Event):
    target: int
    figure: int
    impact_die: str
    impact: int
    armour_die: str
    armour: int
    effect: str  # none | wound | kill


@_event
class Suppressed(Event):
    unit: int
    markers: int


@_event
class SuppressionRecovered(Event):
    unit: int
    roll: int
    needed: int
    removed: bool
    markers: int


@_event
class ConfidenceTested(Event):
    unit: int
    reason: str
    roll: int
    needed: int
    levels_dropped: int
    confidence: str


@_event
class ConcealmentChanged(Event):
    unit: int
    complete: bool


@_event
class Rearranged(Event):
    unit: int


@_event
class LeaderLost(Event):
    unit: int
    figure: int


@_event
class LeaderAppointed(Event):
    unit: int
    figure: int
    roll: int
    lv: int


@_event
class ActionForgone(Event):
    unit: int


@_event
class TurnEnded(Event):
    turn: int


@_event
class GameEnded(Event):
    winner: int  # -1 draw
    vp: tuple
    reason: str
