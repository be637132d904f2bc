"""Aerospace Operations: aircraft, the Air Defence Environment, aircraft ECM and arriving in the battle zone
(seed 000 "AEROSPACE OPERATIONS", L1703-1730; the on-table rules are :mod:`.flight` and :mod:`.anti_aircraft`).

An aircraft is a vehicle unit whose scenario entry has an ``air`` field (a design with air-vehicle mobility, VTOL or
aerospace, or a grav vehicle, which "can take off and land like VTOL aircraft", L1758): where it starts.  Off the table
it is in box one of the inbound track (``"inbound"``: location ``air_inbound``) or the loiter box (``"loiter"``:
location ``loiter``); on the table it is airborne, hovering or grounded (L1734, its flight state in
its :class:`AirState`).  Its passengers share its location while it is off the table.  The scenario ``position``
of an aircraft that starts off the table is where it enters the table (RN-1500).

Each side has an ADE die (the side's ``ade``, default D6 "inferior", L1709, RN-155); an aircraft's ECM is its
design's ECM die (L1720).  An aircraft off the table takes one place in its side's activation sequence per turn (an
activation that is not a unit, ``("air_arrive", aircraft, where)``): from box one it moves to the table or to the
loiter box through the enemy ADE (:func:`arrive`, L1724-1730), from the loiter box to the table without it; or it holds
where it is.  Arriving is the aircraft's activation for the turn (RN-1501).  ``arrive(game, uid, where)`` is the entry
point other rules (air-support requests) call to bring an aircraft in.
"""
from __future__ import annotations

from ..kernel.decisions import Decision, Frame
from ..kernel.dice import parse_die
from ..kernel.entities import KILLED, Unit
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.sequence import pop, push
from ..kernel.state import Component
from ..kernel.table import place, register_location

TRACK = register_location("air_inbound")  # box one of the inbound track (RN-006, RN-1500)
LOITER = register_location("loiter")  # the loiter box
BASE = register_location("air_base")  # returned to base: out of the game (L1724, L1794)
OFF_TABLE = {"inbound": TRACK, "loiter": LOITER}
AIRBORNE, HOVERING, GROUNDED = "airborne", "hovering", "grounded"
ON_TABLE = (AIRBORNE, HOVERING, GROUNDED)
DEFAULT_ADE = "d6"  # L1709: "As a default, use an inferior or average level" (RN-155)
ABORT_FRAME = "air_abort"


# ---------------------------------------------------------------------------------------------- events
@event
class AdeAcquisition(Event):
    """L1724: the ADE die against the aircraft's ECM die; strictly higher acquires it."""
    unit: int
    ade: int
    ecm: int
    acquired: bool


@event
class AdeEngagement(Event):
    """L1726-1728: the ADE die (doubled after a roll of more than double the ECM) against the armour die."""
    unit: int
    ade: int
    doubled: bool
    armour: int
    shot_down: bool


@event
class AircraftArrived(Event):
    unit: int
    where: str  # table | loiter
    x: float
    y: float


@event
class AircraftHeld(Event):
    unit: int
    where: str


@event
class AircraftLeft(Event):
    """The aircraft left the table for the loiter box, box one, or returned to base (aborted)."""
    unit: int
    where: str  # loiter | air_inbound | air_base
    reason: str


@event
class AircraftShotDown(Event):
    unit: int
    where: str  # ade | table


# ---------------------------------------------------------------------------------------------- state
def has_aircraft(scenario, options) -> bool:
    return any("air" in u for side in scenario["sides"] for u in side["units"])


class AirState(Component):
    """The rule's state: each side's ADE die (``air_ade``), every aircraft's flight state by its uid (``air_craft``:
    ``{str(uid): {mode, flown, heavy}}``, mode one of airborne, hovering, grounded, off, destroyed), the aircraft
    off the table that took their activation this turn (``air_acted``) and the units that fired at aircraft this
    turn (``air_aa_fired``)."""

    __slots__ = ("air_ade", "air_craft", "air_acted", "air_aa_fired")


def state(game) -> AirState | None:
    """The rule's state (None in a game without aircraft)."""
    return game.components.get(AirState)


def aircraft_states(game) -> dict:
    """Every aircraft's flight state by its uid as a string (empty in a game without aircraft)."""
    st = game.components.get(AirState)
    return (st.air_craft if st is not None else None) or {}


def air_state(game, u: Unit) -> dict | None:
    """The flight state of aircraft ``u`` (None: not an aircraft)."""
    st = game.components.get(AirState)
    return st.air_craft.get(str(u.uid)) if st is not None and st.air_craft else None


def aa_fired(game, uid: int) -> bool:
    """Whether unit ``uid`` fired at aircraft this turn."""
    st = game.components.get(AirState)
    return st is not None and uid in (st.air_aa_fired or ())


def note_aa_fired(game, uid: int) -> None:
    """Unit ``uid`` fired at aircraft this turn."""
    st = game.state_of(AirState)
    if st.air_aa_fired is None:
        st.air_aa_fired = []
    st.air_aa_fired.append(uid)


def is_aircraft(game, u: Unit) -> bool:
    return air_state(game, u) is not None


def airborne(game, u: Unit) -> bool:
    """On the table and in the air (moving or hovering): only anti-aircraft fire reaches it (L1792)."""
    a = air_state(game, u)
    return a is not None and a["mode"] in (AIRBORNE, HOVERING) and u.in_play


def kind(u: Unit) -> str:
    """vtol | aerospace | grav (a grav vehicle flies like a VTOL aircraft, L1758, RN-158)."""
    p = u.profile.vehicle
    return p.air.kind if p.air is not None else "grav"


def vtol(u: Unit) -> bool:
    return kind(u) != "aerospace"


def ecm_die(u: Unit) -> int:
    """L1720: the aircraft's ECM die (its design's, RN-155)."""
    return parse_die(u.profile.vehicle.ecm)


def belly_armour(u: Unit) -> int:
    """The armour die fire from the ground and the ADE meet: the belly (RN-1502)."""
    return parse_die(u.profile.vehicle.armour.belly)


def ade_die(game, side: int) -> int:
    return state(game).air_ade[side]


def _init(game) -> None:
    air = {}
    for s, side in enumerate(game.scenario["sides"]):
        for i, spec in enumerate(side["units"]):
            if "air" not in spec:
                continue
            u = game.units[game.side_units[s][i]]
            where = f"sides/{s}/units/{i} ({spec['name']!r})"
            start = spec["air"]
            if start in (HOVERING, GROUNDED) and not vtol(u):
                raise ScenarioError(f"{where}: air: a non-VTOL aircraft cannot hover or land (L1736)")
            if spec.get("inbound") or spec.get("hidden"):
                raise ScenarioError(f"{where}: air: an aircraft arrives through the ADE, not as a reinforcement or "
                                    "hidden")
            air[str(u.uid)] = {"mode": start if start in ON_TABLE else "off", "flown": False, "heavy": False}
            if start in OFF_TABLE:
                set_location(game, u, OFF_TABLE[start])
    ade = [parse_die(side.get("ade", DEFAULT_ADE)) for side in game.scenario["sides"]]
    st = game.state_of(AirState)
    st.air_ade, st.air_craft, st.air_acted, st.air_aa_fired = ade, air, [], []


def set_location(game, u: Unit, where: str) -> None:
    """``u`` and its passengers go to ``where`` (a location)."""
    u.location = where
    for uid in u.veh.passengers:
        game.units[uid].location = where


def _turn_start(game) -> None:
    st = state(game)
    if st is not None:
        st.air_acted = []
        st.air_aa_fired = []


def _victory_points(game, vp: list) -> None:
    """An aircraft waiting in box one or the loiter box, and its passengers, are not lost: the Victory rule's count
    of units out of play (before this hook) is taken back for them, as for a reinforcement on the inbound track
    (RN-1518).  One that returned to base or was shot down is lost."""
    for u in game.units:
        if u.location in (TRACK, LOITER) and not u.destroyed:
            vp[1 - u.side] -= 1


# ---------------------------------------------------------------------------------------------- leaving
def leave(game, u: Unit, where: str, reason: str) -> None:
    """``u`` leaves the table for ``where`` (the loiter box, box one or base, L1738, L1794)."""
    set_location(game, u, where)
    a = air_state(game, u)
    a["mode"] = "off"
    game.emit(AircraftLeft(u.uid, where, reason))


def destroy_in_air(game, u: Unit, where: str) -> None:
    """The aircraft and every occupant are destroyed (L1728 shot down; L1802 "including any occupants")."""
    for uid in list(u.veh.passengers):
        p = game.units[uid]
        for i, f in enumerate(p.figures):
            if f.status != KILLED:
                p.set_figure(i, status=KILLED)
    for i, f in enumerate(u.figures):
        if f.status != KILLED:
            u.set_figure(i, status=KILLED)
    air_state(game, u)["mode"] = "destroyed"
    game.emit(AircraftShotDown(u.uid, where))


# ---------------------------------------------------------------------------------------------- arriving
def off_table(game, side: int) -> list:
    """Side ``side``'s aircraft off the table that may still move this turn."""
    st = state(game)
    if st is None or not st.air_craft:
        return []
    acted = st.air_acted or ()
    out = []
    for uid in game.side_units[side]:
        u = game.units[uid]
        if u.location in (TRACK, LOITER) and str(uid) in st.air_craft and uid not in acted and not u.destroyed:
            out.append(u)
    return out


def pending_activations(game, side: int) -> int:
    """The activations ``side``'s aircraft off the table still have this turn."""
    return len(off_table(game, side))


def _activation_options(game, side: int) -> list:
    out = []
    for u in off_table(game, side):
        out.append(("air_arrive", u.uid, "table"))
        if u.location == TRACK:
            out.append(("air_arrive", u.uid, "loiter"))
        out.append(("air_arrive", u.uid, "hold"))
    return out


def _arrive_activation(game, side: int, opt) -> None:
    u = game.units[opt[1]]
    state(game).air_acted.append(u.uid)
    if opt[2] == "hold":
        game.emit(AircraftHeld(u.uid, u.location))
        return
    arrive(game, u.uid, opt[2])


def arrive(game, uid: int, where: str = "table") -> None:
    """Bring aircraft ``uid`` from where it is off the table to ``where`` (``"table"`` or ``"loiter"``).  From box
    one it passes the enemy ADE (L1724-1730): the ADE die against its ECM die, strictly higher acquires it; an
    acquired aircraft's side decides whether the pilot aborts (a decision, which this pushes); continuing, the ADE
    die (doubled if the first roll was more than double the ECM) against its belly armour die, strictly higher
    shoots it down (RN-156).  From the loiter box it arrives without the ADE.  May push a decision: callers inside
    a procedure wait for the pop as usual."""
    u = game.units[uid]
    if where not in ("table", "loiter"):
        raise ValueError(f"an aircraft arrives on the 'table' or in the 'loiter' box, not {where!r}")
    if u.location != TRACK:
        _arrived(game, u, where)
        return
    ade = ade_die(game, 1 - u.side)
    a, e = game.dice.roll(ade), game.dice.roll(ecm_die(u))
    acquired = a > e
    game.emit(AdeAcquisition(u.uid, a, e, acquired))
    if not acquired:
        _arrived(game, u, where)
        return
    push(game, Frame(ABORT_FRAME, u.uid, 0, False, {"where": where, "double": a > 2 * e}))


def _engage(game, u: Unit, where: str, double: bool) -> None:
    a = game.dice.roll(ade_die(game, 1 - u.side))
    if double:
        a *= 2
    b = game.dice.roll(belly_armour(u))
    down = a > b
    game.emit(AdeEngagement(u.uid, a, double, b, down))
    if down:
        destroy_in_air(game, u, "ade")
    else:
        _arrived(game, u, where)


def _arrived(game, u: Unit, where: str) -> None:
    a = air_state(game, u)
    if where == "loiter":
        set_location(game, u, LOITER)
        game.emit(AircraftArrived(u.uid, "loiter", u.x, u.y))
        return
    spec = game.scenario["sides"][u.side]["units"][game.side_units[u.side].index(u.uid)]
    x, y = spec["position"]
    set_location(game, u, "table")
    place(game, u, float(x), float(y), "arrival", point=False)
    for uid in u.veh.passengers:
        place(game, game.units[uid], u.x, u.y, "carried", point=False)
    u.activated = True  # arriving is its activation this turn (RN-1501)
    a["mode"] = AIRBORNE
    a["flown"] = False
    game.emit(AircraftArrived(u.uid, "table", round(u.x, 3), round(u.y, 3)))


class AbortDecision:
    """Frame ``air_abort``: the ADE acquired an arriving aircraft; its side decides whether the pilot aborts the
    mission (returns to base) or continues at the risk of being shot down (L1724)."""

    @staticmethod
    def decision(game, frame) -> Decision:
        u = game.units[frame.unit]
        return Decision(u.side, "air_abort", u.uid, (("air_pilot", "abort"), ("air_pilot", "continue")))

    @staticmethod
    def apply(game, frame, opt) -> None:
        u = game.units[frame.unit]
        if opt[1] == "abort":
            leave(game, u, BASE, "abort")
        else:
            _engage(game, u, frame.data["where"], frame.data["double"])
        pop(game, frame, used=0)


def _can_fight(game, side: int) -> bool:
    """Aircraft (and their passengers) waiting in box one or the loiter box can still come into the battle."""
    units = game.units
    return any(units[uid].location in (TRACK, LOITER) for uid in game.side_units[side])


RULE = Rule(
    "Aerospace Operations: arriving in the battle zone",
    'seed 000 "Inbound Air Support", "The Air Defence Environment", "Aircraft ECM", "Arriving in the Battle Zone"',
    applies=has_aircraft,
    init=(_init,),
    turn_start=(_turn_start,),
    victory_points=(_victory_points,),
    pending_activations=(pending_activations,),
    can_fight=(_can_fight,),
    activation_options=(_activation_options,),
    activations={"air_arrive": _arrive_activation},
    procedures={ABORT_FRAME: AbortDecision()},
    families=(Family("air_arrive", ("own", ("table", "loiter", "hold")), 140,
                     "an aircraft off the table moves to the table or the loiter box (through the enemy ADE from box "
                     "one), or holds"),
              Family("air_pilot", (("abort", "continue", "evade"),), 141,
                     "an acquired aircraft's pilot aborts, continues or (under anti-aircraft fire) evades")),
)
