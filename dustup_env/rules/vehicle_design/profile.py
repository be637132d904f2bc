"""The derived Dustup statistics of a design: plain frozen dataclasses and their JSON form.

These are what the vehicle rules consume. Every field is documented in ``docs/vehicle-design.md``
("The derived Dustup statistics"), with where its value comes from. Dice are die names as
``dustup_env.rules.kernel.dice`` writes them (``"d8"``, ``"d12x3"``); distances are rules inches.
``to_dict`` gives the JSON form (tuples become lists); ``from_dict`` reads it back exactly.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

PROFILE_VERSION = 1
FACINGS = ("front", "side", "rear", "top", "belly")


@dataclass(frozen=True, slots=True)
class Facings:
    """One value per armour facing (seed 000 L1338: front, side, rear, top, belly)."""
    front: str | int
    side: str | int
    rear: str | int
    top: str | int
    belly: str | int


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """A heavy weapon (or guided weapon, artillery piece, close-combat weapon) as Dustup uses it."""
    name: str  # display name, e.g. "MDC-4"
    type: str  # the Dirtside weapon type code (RFAC, HVC, ..., APSW, artillery, LAD, DFO, CCW)
    category: str  # direct_fire | guided | apsw | artillery | air_defence | close_combat | deadfall
    size: int  # Dustup heavy-weapon size = Dirtside class (artillery 2 / 4 / 6; DFO 0)
    barrels: int  # a multiple mount fires as one weapon, one set of firepower dice per barrel (RN-613)
    firepower: tuple[str, ...]  # dice against vehicles and point targets, per barrel; () for guided weapons
    firepower_vs_infantry: tuple[str, ...]  # dice against dispersed infantry, per barrel
    impact_vs_armour: str
    impact_vs_infantry: str
    fire_control: str | None  # inferior | average | superior; None where the weapon uses no fire control
    guidance: str | None  # guidance die of guided and air-defence weapons
    effective_range: int | None  # inches; None: no range limit (guided weapons, L1288)
    mount: str  # turret | fixed | limb | remote (the free APSW) | man_packed | towed | internal
    arc: str  # all_round | restricted_180 | front_180 | fixed_30 | front | corridor
    arc_degrees: int | None  # 360, 180, 30, 90 (the front facing), None for the aircraft fire corridor
    stabilisation: str  # poor | average | superior (L1471-1474)
    slaved: bool  # fires with the other slaved weapons at one target in one action (L1480-1482)
    free: bool = False  # the free APSW of a military vehicle (S002:665)
    strike: str | None = None  # close-combat weapons: the strike (support) die
    minimum_range: int | None = None  # artillery (L1602)
    burst_radius: int | None = None  # artillery round size (L1589-1594)
    round_size: str | None = None  # artillery: small | medium | large | very_large


@dataclass(frozen=True, slots=True)
class AirProfile:
    """What the aerospace rules (seed 000 L1703-1858) need of an air vehicle."""
    kind: str  # vtol | aerospace
    deadfall_loads: int  # dead-fall ordnance loads (S002:788): one bomb drop each
    landing_zone: int  # LZ diameter, inches (L1828)


@dataclass(frozen=True, slots=True)
class VehicleProfile:
    """A vehicle, mech or large creature as Dustup uses it (one Dustup unit)."""
    name: str
    kind: str  # conventional | open_top | soft_skin | mech | large_creature
    size: int  # 1-5: weapon and armour limits, outnumbering, towing (L1328, L1417, L1524)
    signature: int  # Dirtside effective signature (size, +1 for walkers, - stealth), may be 6
    target_size: int  # size for detection and the large-target shift: the signature within 1-5 (RN-607)
    mobility: str  # the Dirtside mobility type
    mobility_type: str  # the Dustup movement table: low_mobility_wheeled | high_mobility_wheeled | tracked |
    #                     hover | grav | walker | watercraft | vtol | aerospace
    movement_die: str | None  # None for aircraft (they move by the aerospace rules)
    armour_class: Facings  # armour class per facing (0 = unarmoured)
    armour: Facings  # armour die per facing
    armour_vs_artillery: str | None  # open-topped: the die against artillery and SLAM (S002:591), else None
    open_top: bool
    soft_skinned: bool  # armour 0 all round
    hatches: bool  # opened up = open top (L1350)
    fire_ports: bool  # passengers may fire while suppressed (L1490)
    special_armour: str | None  # ablative | reactive
    ecm_level: str  # very_inferior .. very_superior
    ecm: str  # ECM die
    decoy: str | None  # decoy die, from a point-defence system (RN-615)
    area_protection: str | None  # area-protection die, from an area-defence system (RN-615)
    apfc: bool
    weapons: tuple[WeaponProfile, ...]
    transport_figures: int  # passenger places in figures; a power-armoured figure takes two (RN-614)
    cargo_loads: int
    carried_vehicles: tuple[int, ...]  # sizes of the vehicles it can carry
    command_centre: bool
    counter_battery_radar: bool
    military: bool
    close_combat: bool  # mechs and monsters fight in close combat (L1354, L1516)
    can_tow: bool  # not grav or hover (L1419)
    air: AirProfile | None


@dataclass(frozen=True, slots=True)
class HeavyWeaponDesignProfile:
    """A crew-served heavy weapon fielded on its own: man-packed or on a towed carriage."""
    name: str
    weapon: WeaponProfile
    carriage: str  # man_packed | towed
    crew: int  # the standard crew
    target_size: int  # man-packed 1; towed: weapon class - 1, at least 1 (S002:717)
    armour: str  # D8 (L1212; towed artillery armour 0, S002:721)
    ecm_level: str
    ecm: str
    encumbers_crew: bool  # a man-packed weapon: the crew move one die lower (L1206)
    set_up_actions: int  # reorganise actions to set up before firing (and to dismantle): man-packed 1 (L1206)
    crew_to_move: int  # man-packed: fewest crew that can carry it, more than half (L1206); 0 for towed
    crew_to_limber: int  # towed: fewest crew to limber or unlimber, at least half (L1208); 0 for man-packed
    crew_to_fire: int  # size 1: one; larger: at least half (L1206)
    tractor_size: int  # Dirtside: a tractor of equal class or larger (S002:717); 0 for man-packed
    tractor_size_dustup: int  # Dustup towing: at most one size larger than the tower (L1417); 0 for man-packed
    remote: bool  # may be set up as a remote missile launcher (L1300)


def to_dict(profile) -> dict:
    """The JSON form of a profile (tuples become lists, nested dataclasses dicts)."""
    d = asdict(profile)
    d["profile"] = type(profile).__name__
    d["profile_version"] = PROFILE_VERSION
    return d


def _weapon(d: dict) -> WeaponProfile:
    d = dict(d)
    d["firepower"] = tuple(d["firepower"])
    d["firepower_vs_infantry"] = tuple(d["firepower_vs_infantry"])
    return WeaponProfile(**d)


def from_dict(d: dict):
    """Read a profile back from its JSON form."""
    kind = d.get("profile")
    body = {k: v for k, v in d.items() if k not in ("profile", "profile_version")}
    if kind == "VehicleProfile":
        body["armour_class"] = Facings(**body["armour_class"])
        body["armour"] = Facings(**body["armour"])
        body["weapons"] = tuple(_weapon(w) for w in body["weapons"])
        body["carried_vehicles"] = tuple(body["carried_vehicles"])
        body["air"] = AirProfile(**body["air"]) if body["air"] is not None else None
        return VehicleProfile(**body)
    if kind == "HeavyWeaponDesignProfile":
        body["weapon"] = _weapon(body["weapon"])
        return HeavyWeaponDesignProfile(**body)
    raise ValueError(f"not a design profile: profile={kind!r}")


def field_names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
