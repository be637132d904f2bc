"""Indicating Damaged Vehicles (seed 000 "Firing at Vehicles and Large Creatures" (the impact-versus-armour roll),
"Indicating Damaged Vehicles", "Casualties to Vehicle Passengers", "Vehicle Damage" (markers)).

The helpers the vehicle-combat rules call (services of this rule): :func:`vehicle_fire` resolves hits on a
vehicle (one opposed roll per hit, the weapon's impact die against the armour die of the facing the line of the
shot strikes: beating it is a damage marker, more than double destroys, L1435-1437) and the passengers' casualty
rolls (L1443, RN-134); :func:`vehicle_damaged` adds damage markers (a damaged vehicle lets go of what it tows,
L1419); :func:`immobilise`; :func:`vehicle_destroyed` takes the vehicle out of play, lets go of tows, unloads the
passengers (bailing out) and leaves a wreck on the table: dynamic terrain that conceals and gives cover (hard
if the vehicle was armoured, soft if not) and costs 2 movement points an inch (L1439, RN-763, invented cost).

Every fire at a vehicle reaches them through *Firing at Vehicles* (``vehicle_shot``, RN-801), close assaults
through the close-assault rules.
"""
from __future__ import annotations

from ..kernel import terrain
from ..kernel.data import armoury
from ..kernel.entities import KILLED, OK, WOUNDED, Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Rule
from ..kernel.terrain import TerrainKind
from ..morale.confidence_test import confidence_test
from .towing import release
from .transport import unload_all
from .vehicle_movement import footprint
from .vehicles import armour_die, armour_facing, armoured, has_vehicles
from .vehicles import vehicle_state

WRECK_MOVE_COST = 2  # invented (RN-763): a wreck is poor going for everyone
WRECK_KINDS = {"wreck": TerrainKind(conceals=True, cover=2, move_cost=WRECK_MOVE_COST),  # an armoured vehicle's
               "soft_wreck": TerrainKind(conceals=True, cover=1, move_cost=WRECK_MOVE_COST)}  # an unarmoured one's


@event
class VehicleHit(Event):
    unit: int
    facing: str
    impact: int
    armour: int
    result: str  # "none" | "damaged" | "destroyed"


@event
class VehicleDamaged(Event):
    unit: int
    damage: int  # markers now


@event
class VehicleImmobilised(Event):
    unit: int


@event
class VehicleDestroyed(Event):
    unit: int
    x: float
    y: float


@event
class PassengerHit(Event):
    unit: int
    figure: int
    roll: int
    needed: int  # the roll must exceed this to be unharmed


def vehicle_damaged(game, v: Unit, markers: int = 1) -> None:
    """``markers`` more damage markers on ``v`` (they never come off)."""
    vehicle_state(v).damage += markers
    game.emit(VehicleDamaged(v.uid, v.veh.damage))
    if v.veh.towing >= 0:
        release(game, v, "damaged")


def immobilise(game, v: Unit) -> None:
    if not v.veh.immobilised:
        vehicle_state(v).immobilised = True
        game.emit(VehicleImmobilised(v.uid))


def vehicle_destroyed(game, v: Unit) -> None:
    """``v`` is destroyed: out of play (its hull figure killed), its tows released, its passengers bail out, a wreck
    left where it stood (a super-heavy vehicle's turret leaves none: its hull is the wreck, left once the hull and
    all its turrets are destroyed, RN-872)."""
    if v.veh.towing >= 0:
        release(game, v, "destroyed")
    if v.veh.towed_by >= 0:
        release(game, game.units[v.veh.towed_by], "destroyed")
    unload_all(game, v)
    for i, f in enumerate(v.figures):
        if f.status != KILLED:
            v.set_figure(i, status=KILLED)
    game.emit(VehicleDestroyed(v.uid, round(v.x, 3), round(v.y, 3)))
    hull = v if v.veh.hull < 0 else game.units[v.veh.hull]
    if not hull.in_play and not any(u.veh.hull == hull.uid and u.in_play for u in game.units):
        _wreck(game, hull)


def _wreck(game, v: Unit) -> None:
    """The wreck of ``v`` (RN-763); a super-heavy hull's once its last turret is gone (RN-872: turrets still
    fighting on a destroyed hull are not inside their own wreck)."""
    terrain.add(game, {"kind": "wreck" if armoured(v) else "soft_wreck", "shape": "circle", "x": v.x, "y": v.y,
                       "r": footprint(v), "unit": v.uid})


def passenger_casualties(game, v: Unit, weapon_class: int, destroyed: bool) -> int:
    """Every passenger figure rolls its armour die: above the weapon class (more than double if the vehicle was
    destroyed) it is unharmed, else it is wounded (an untreated wound, RN-134).  The number hit."""
    armours = armoury()[1]
    needed = weapon_class * 2 if destroyed else weapon_class
    hit = 0
    for uid in v.veh.passengers:
        p = game.units[uid]
        for i, f in enumerate(p.figures):
            if f.status != OK:
                continue
            roll = game.dice.roll(armours[f.armour or p.armour].die)
            game.emit(PassengerHit(p.uid, i, roll, needed))
            if roll <= needed:
                p.set_figure(i, status=WOUNDED)
                hit += 1
    return hit


def vehicle_fire(game, v: Unit, impact: int, hits: int, x: float, y: float, weapon_class: int = 1,
                 facing: str | None = None, test_confidence: bool = True) -> list[str]:
    """Resolve ``hits`` potential hits of impact die ``impact`` on vehicle ``v`` from a firer at (x, y) (``facing``:
    top or belly for artillery and mines, else the facing the line strikes).  Each hit: impact > armour is a damage
    marker, impact > 2 x armour destroys (and ends the hits); the passengers test once for the worst result.  A
    damaged vehicle takes the confidence test "Vehicle takes one or more damage" with +2/+1/+0 per damage marker it
    had before the attack (RN-766; ``test_confidence=False``: the caller tests once for all the attack's triggers,
    with ``vehicle_damage=`` the markers before)."""
    before = v.veh.damage
    side = facing or armour_facing(v, x, y)
    die = armour_die(v, side)
    results = []
    for _ in range(hits):
        a, b = game.dice.roll(impact), game.dice.roll(die)
        result = "destroyed" if a > 2 * b else ("damaged" if a > b else "none")
        game.emit(VehicleHit(v.uid, side, a, b, result))
        results.append(result)
        if result == "destroyed":
            break
    if "destroyed" in results:
        if v.veh.passengers:
            passenger_casualties(game, v, weapon_class, True)
        vehicle_destroyed(game, v)
    elif "damaged" in results:
        if v.veh.passengers:
            passenger_casualties(game, v, weapon_class, False)
        vehicle_damaged(game, v, results.count("damaged"))
        if test_confidence:
            confidence_test(game.dice, v, ["vehicle_damage"], vehicle_damage=before, events=game.events)
    return results


RULE = Rule(
    "Indicating Damaged Vehicles", 'seed 000 "Firing at Vehicles and Large Creatures" (impact against armour), '
    '"Indicating Damaged Vehicles", "Casualties to Vehicle Passengers", "Vehicle Damage" (markers)',
    applies=has_vehicles,
    terrain=WRECK_KINDS,
    services={"vehicle_fire": vehicle_fire, "vehicle_damaged": vehicle_damaged, "vehicle_destroyed": vehicle_destroyed,
              "immobilise": immobilise},
)
