"""Typed events emitted as the game advances: the log, the replay and the render read them.

Every event is a frozen dataclass declared with :func:`event`; ``e.to_dict()`` gives
``{"type": ..., **fields}`` and :func:`event_from_dict` turns that back into the event.  Rules modules
declare their own events beside their rules.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

EVENT_TYPES: dict[str, type] = {}  # class name -> event class (every event declared with @event)


class Event:
    __slots__ = ()

    def to_dict(self) -> dict:
        d = {"type": type(self).__name__}
        for f in fields(self):
            v = getattr(self, f.name)
            d[f.name] = list(v) if isinstance(v, tuple) else v
        return d


def event(cls):
    """Declare an event type: a frozen slots dataclass, registered by its class name."""
    cls = dataclass(frozen=True, slots=True)(cls)
    if EVENT_TYPES.get(cls.__name__, cls) is not cls:
        raise TypeError(f"two event types are named {cls.__name__}")
    EVENT_TYPES[cls.__name__] = cls
    return cls


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def event_from_dict(d: dict) -> Event:
    """The event ``e`` whose ``e.to_dict()`` (through JSON) is ``d``."""
    cls = EVENT_TYPES.get(d.get("type"))
    if cls is None:
        raise ValueError(f"unknown event type {d.get('type')!r}")
    kw = {}
    for f in fields(cls):
        v = d[f.name]
        kw[f.name] = _tuples(v) if isinstance(v, list) and f.type in ("tuple", tuple) else v
    return cls(**kw)


@event
class GameStarted(Event):
    scenario: str
    seed: int


@event
class TurnStarted(Event):
    turn: int


@event
class InitiativeRolled(Event):
    rolls: tuple  # (side0, side1) after re-rolling ties
    winner: int


@event
class InitiativeChosen(Event):
    side: int
    first: int  # the side that activates first


@event
class Passed(Event):
    side: int


@event
class UnitActivated(Event):
    side: int
    unit: int


@event
class ActivationEnded(Event):
    unit: int


@event
class LeadershipTested(Event):
    unit: int
    roll: int
    needed: int  # must score higher
    passed: bool
    reason: str


@event
class Moved(Event):
    unit: int
    roll: int
    points: float
    start: tuple
    end: tuple
    withdraw: bool


@event
class RoutedOff(Event):
    unit: int


@event
class Propped(Event):
    unit: int
    propped: bool


@event
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


@event
class HitResolved(Event):
    target: int
    figure: int
    impact_die: str
    impact: int
    armour_die: str
    armour: int
    effect: str  # none | wound | kill


@event
class Suppressed(Event):
    unit: int
    markers: int


@event
class SuppressionRecovered(Event):
    unit: int
    roll: int
    needed: int
    removed: bool
    markers: int


@event
class ConfidenceTested(Event):
    unit: int
    reason: str
    roll: int
    needed: int
    levels_dropped: int
    confidence: str


@event
class ConcealmentChanged(Event):
    unit: int
    complete: bool


@event
class Rearranged(Event):
    unit: int


@event
class LeaderLost(Event):
    unit: int
    figure: int


@event
class LeaderAppointed(Event):
    unit: int
    figure: int
    roll: int
    lv: int


@event
class ActionForgone(Event):
    unit: int


@event
class TurnEnded(Event):
    turn: int


@event
class GameEnded(Event):
    winner: int  # -1 draw
    vp: tuple
    reason: str
