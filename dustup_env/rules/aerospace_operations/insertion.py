"""High Altitude or Orbital Insertion (seed 000 L1846-1858).

A scenario unit with an ``insertion`` field (``parachute``, ``high_altitude``: jump or grav packs, or ``orbital``:
from orbit) starts off the table (location ``insertion``); its ``position`` is the landing zone it nominates
(RN-1516).  Only troops of experienced quality (D8) or better parachute or drop from high altitude, only veterans
(D10) or elite drop from orbit, and a vehicle must be of size 1 (L1850, RN-164).  Like an aircraft off the table it
takes one place in its side's activation sequence per turn, ``("insert", unit, "drop" | "hold")``; dropping is its
activation for the turn:

* the landing point: the unit's quality die (one lower when parachuting) against 4, success above it (RN-164): the
  actual landing zone D6" from the nominated point in a random direction (the clockface, RN-028), on a failure
  D6 x 2"; off the table, the unit is lost (L1854);
* each model lands a D10" (from orbit twice that) from the landing zone in a random direction (kept on the table);
* each model rolls the unit's quality die (infantry one lower in difficult terrain, woods or rubble): a 1 is an
  untreated wound, or a vehicle destroyed; a vehicle landing in difficult terrain is destroyed; a model in open
  water is destroyed unless it is power armoured (L1858).

The unit is then out of formation (loose), as the text expects ("widely dispersed and out of unit integrity").
"""
from __future__ import annotations

from ..kernel.dice import D6, D10, clockface_direction, shift_closed
from ..kernel.entities import KILLED, OK, WOUNDED
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.state import Component
from ..kernel.table import place, register_location

WAITING = register_location("insertion")  # a unit waiting to be inserted
LOST = register_location("insertion_lost")  # its landing zone was off the table (L1854)
D8_STEP, D10_STEP = 2, 3
DIFFICULT = frozenset({"light_woods", "dense_woods", "rough", "building", "swamp"})  # "woods or rubble" (RN-1516)
WATER = frozenset({"open_water", "river"})


@event
class InsertionLanded(Event):
    unit: int
    roll: int
    success: bool
    x: float  # the actual landing zone
    y: float
    lost: bool


@event
class ModelLanded(Event):
    unit: int
    figure: int
    x: float
    y: float
    roll: int  # the quality roll (0: none, destroyed by the ground)
    result: str  # unharmed | wounded | destroyed


def has_insertion(scenario, options) -> bool:
    return any("insertion" in u for side in scenario["sides"] for u in side["units"])


class InsertionState(Component):
    """The rule's state: the units waiting to be inserted that took their activation (held) this turn."""

    __slots__ = ("insertion_acted",)


def _init(game) -> None:
    for s, side in enumerate(game.scenario["sides"]):
        for i, spec in enumerate(side["units"]):
            if "insertion" not in spec:
                continue
            u = game.units[game.side_units[s][i]]
            where = f"sides/{s}/units/{i} ({spec['name']!r})"
            how = spec["insertion"]
            need = D10_STEP if how == "orbital" else D8_STEP
            if u.quality < need:
                raise ScenarioError(f"{where}: insertion: {how} insertion needs {'veteran' if need == D10_STEP else 'experienced'} "
                                    "quality or better (L1850)")
            if u.profile.vehicle is not None and u.profile.vehicle.size != 1:
                raise ScenarioError(f"{where}: insertion: only vehicles of size 1 may be inserted (L1850)")
            if "air" in spec or "inbound" in spec or "carried_by" in spec or spec.get("hidden"):
                raise ScenarioError(f"{where}: insertion: an inserted unit starts off the table on its own")
            u.location = WAITING
    game.state_of(InsertionState).insertion_acted = []


def _turn_start(game) -> None:
    game.state_of(InsertionState).insertion_acted = []


def waiting(game, side: int) -> list:
    """Side ``side``'s units waiting to be inserted that have not held this turn."""
    st = game.components.get(InsertionState)
    if st is None:
        return []
    acted = st.insertion_acted or ()
    return [game.units[uid] for uid in game.side_units[side]
            if game.units[uid].location == WAITING and uid not in acted]


def _victory_points(game, vp: list) -> None:
    """A unit still waiting to be inserted is not lost (RN-1518): the Victory rule's count is taken back."""
    for u in game.units:
        if u.location == WAITING and not u.destroyed:
            vp[1 - u.side] -= 1


def _pending(game, side: int) -> int:
    return len(waiting(game, side))


def _activation_options(game, side: int) -> list:
    out = []
    for u in waiting(game, side):
        out.extend((("insert", u.uid, "drop"), ("insert", u.uid, "hold")))
    return out


def _spec(game, u) -> dict:
    return game.scenario["sides"][u.side]["units"][game.side_units[u.side].index(u.uid)]


def _insert(game, side: int, opt) -> None:
    u = game.units[opt[1]]
    st = game.state_of(InsertionState)
    st.insertion_acted = (st.insertion_acted or []) + [u.uid]
    if opt[2] == "drop":
        insert(game, u)


def insert(game, u) -> None:
    """Land unit ``u`` at its nominated landing zone (see the module docstring)."""
    spec = _spec(game, u)
    how = spec["insertion"]
    bf = game.bf
    q = shift_closed(u.quality, -1) if how == "parachute" else u.quality
    roll = game.dice.roll(q)
    success = roll > 4
    d = game.dice.roll(D6) * (1 if success else 2)
    vx, vy = clockface_direction(game.dice)
    px, py = spec["position"]
    lx, ly = px + d * vx, py + d * vy
    lost = not (0.0 <= lx <= bf.width and 0.0 <= ly <= bf.height)
    game.emit(InsertionLanded(u.uid, roll, success, round(lx, 3), round(ly, 3), lost))
    if lost:
        u.location = LOST
        return
    vehicle = u.profile.vehicle is not None
    power = "power" in (u.armour or "")
    spots = {}
    for i, f in enumerate(u.figures):
        if f.status != OK:
            continue
        r = game.dice.roll(D10) * (2 if how == "orbital" else 1)
        dx, dy = clockface_direction(game.dice)
        x = min(max(lx + r * dx, 0.0), bf.width)
        y = min(max(ly + r * dy, 0.0), bf.height)
        ground = bf.terrain_at(x, y)
        result, qr = "unharmed", 0
        if ground in WATER and not power and "power" not in (f.armour or ""):
            result = "destroyed"
        elif vehicle and ground in DIFFICULT:
            result = "destroyed"
        else:
            die = shift_closed(u.quality, -1) if ground in DIFFICULT else u.quality
            qr = game.dice.roll(die)
            if qr == 1:
                result = "destroyed" if vehicle else "wounded"
        game.emit(ModelLanded(u.uid, i, round(x, 3), round(y, 3), qr, result))
        if result == "destroyed":
            u.set_figure(i, status=KILLED)
        elif result == "wounded":
            u.set_figure(i, status=WOUNDED)
        spots[i] = (x, y)
    u.location = "table"
    lead = u.leader if u.leader in spots else next(iter(spots), None)
    if lead is None:
        return
    ax, ay = spots[lead]
    for i, (x, y) in spots.items():
        u.set_offset(i, x - ax, y - ay)
    u.loose = len(spots) > 1
    if u.figures[u.leader].status != OK and u.in_play:
        u.leader_lost = True  # the leader is a casualty: the unit reorganises first (Death of a Leader)
    place(game, u, ax, ay, "insertion", point=False)
    u.activated = True


def _can_fight(game, side: int) -> bool:
    """Units waiting for their insertion can still come into the battle."""
    units = game.units
    return any(units[uid].location == WAITING for uid in game.side_units[side])


RULE = Rule(
    "Aerospace Operations: high altitude or orbital insertion", 'seed 000 "High Altitude or Orbital Insertion"',
    applies=has_insertion,
    init=(_init,),
    turn_start=(_turn_start,),
    victory_points=(_victory_points,),
    pending_activations=(_pending,),
    can_fight=(_can_fight,),
    activation_options=(_activation_options,),
    activations={"insert": _insert},
    families=(Family("insert", ("own", ("drop", "hold")), 152,
                     "a unit waiting for high-altitude or orbital insertion drops onto its landing zone, or holds"),),
)
