"""Vehicles (seed 000 "ARMOURED DUSTUP": "General Rules", "Vehicle Size", "Armour", "Types of Vehicles",
"Super-Heavy Vehicles"): vehicles, mechs and large creatures as units.

A scenario unit that names a ``design`` (a design of the library, ``dustup_env/data/designs``, or an inline design
document) is a vehicle: the design is checked by the seed 002 design rules (:mod:`..vehicle_design`) and its
derived Dustup statistics (a ``VehicleProfile``) become the unit's ``profile.vehicle``.  The unit has one hull
figure, the design's movement die, its target size (for detection), quality and leadership from the scenario
(defaults as for infantry: the crew's, L1324) and two actions.  What changes during play is on the unit
(:class:`VehicleState`, the unit's ``veh``): facing, damage markers, immobilised, opened up, passengers / carrier,
towing / towed by / pushing, the hull of a super-heavy vehicle's turret, moved this activation.

Readings: RN-750 (which infantry actions a vehicle may take), RN-751 (facings), RN-752 (unit kinds and sizes),
RN-753 (super-heavy turrets; firing at a turret or the hull: RN-872), RN-800 (fire at vehicles,
:mod:`.firing_at_vehicles`), RN-850 (mechs and monsters in the Assault Action).
The movement rules are :mod:`.vehicle_movement`, transport :mod:`.transport`, towing :mod:`.towing`, damage
markers and wrecks :mod:`.indicating_damaged_vehicles`.
"""
from __future__ import annotations

import json
import math
from array import array
from functools import lru_cache

from ..kernel.battlefield import VEHICLE_AMPHIBIOUS_WATER, vehicle_column
from ..kernel.dice import D6, parse_die
from ..kernel.entities import BLANK, FIELD_CODECS, Figure, Unit, UnitState
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, ObservationPiece, Rule
from ..vehicle_design import DesignFileError, check, library_names
from ..vehicle_design.profile import FACINGS, VehicleProfile, from_dict, to_dict

UNIT_KINDS = {"mech": "mech", "large_creature": "creature"}  # design kind -> unit kind; the others "vehicle"
VEHICLE_KINDS = ("vehicle", "mech", "creature")
GROUND_MOBILITY = ("low_mobility_wheeled", "high_mobility_wheeled", "tracked", "hover", "grav", "walker",
                   "watercraft")

# the profile field of a vehicle is a design profile: saves and snapshots carry its JSON form
FIELD_CODECS["vehicle"] = (lambda v: None if v is None else to_dict(v),
                           lambda d: None if d is None else from_dict(d))


class VehicleState(UnitState):
    """What the vehicle rules keep of a unit (its ``veh``; read ``u.veh.facing``, write ``vehicle_state(u).facing``).

    Most fields are a vehicle's (or an aircraft's: facing, passengers, damage); ``carrier`` and ``towed_by`` are also
    an infantry unit's (mounted in a vehicle or an aircraft, a towed gun's crew).  A unit no rule wrote holds the
    shared, read-only ``BLANK`` (these defaults): an infantry game copies and saves its units as if the fields did
    not exist, and saves keep them under these names (``kernel/entities.py`` ``UnitState``)."""

    __slots__ = ("facing", "damage", "immobilised", "opened_up", "passengers", "carrier", "towing", "towed_by",
                 "pushing", "hull", "moved")
    DEFAULTS = {
        "facing": 0.0,  # the way a vehicle's front points: degrees clockwise from north (+y)
        "damage": 0,  # damage markers
        "immobilised": False,
        "opened_up": False,  # a vehicle with hatches, opened up (treated as open-topped)
        "passengers": [],  # uids of the units mounted in this vehicle
        "carrier": -1,  # uid of the vehicle this unit is mounted in (-1: not mounted)
        "towing": -1,  # uid of the unit this vehicle tows or pushes (-1: none)
        "towed_by": -1,  # uid of the vehicle towing or pushing this unit (-1: none)
        "pushing": False,  # ``towing`` is pushed, not towed
        "hull": -1,  # a super-heavy vehicle's turret: uid of its hull (-1: not a turret)
        "moved": False,  # moved during its current activation
    }
    WRITER = "vehicle_state"


def vehicle_state(u: Unit) -> VehicleState:
    """Unit ``u``'s own :class:`VehicleState`, to write (made on first use; reading needs only ``u.veh``)."""
    vs = u.veh
    if vs is BLANK:
        vs = u.veh = VehicleState()
    return vs


def is_vehicle(u: Unit) -> bool:
    return u.profile.vehicle is not None


def vehicle_profile(game, t: Unit):
    """The design profile of unit ``t`` (a ``VehicleProfile``), None for infantry (a service of this rule)."""
    return t.profile.vehicle


def acts_while_suppressed(game, u: Unit) -> bool:
    """Service ``acts_while_suppressed``: "vehicles may continue to move and shoot while suppressed" (RN-140)."""
    return u.profile.vehicle is not None


# ------------------------------------------------------------------------------------------- designs
@lru_cache(maxsize=256)
def _library(name: str):
    return check(name)


@lru_cache(maxsize=256)
def _inline(text: str):
    return check(json.loads(text))


def design_profile(design, where: str, aircraft: bool = False) -> VehicleProfile:
    """The VehicleProfile of a scenario unit's ``design`` (a library name or an inline design); a bad design is a
    ScenarioError naming the field (``where``: the unit's place in the scenario).  ``aircraft``: the unit is an
    aircraft (it has an ``air`` field: the aerospace rules fly it)."""
    try:
        if isinstance(design, str):
            if design not in library_names():
                raise ScenarioError(f"{where}: design: unknown design {design!r} (the library has "
                                    f"{', '.join(library_names())})")
            report = _library(design)
        elif isinstance(design, dict):
            report = _inline(json.dumps(design, sort_keys=True))
        else:
            raise ScenarioError(f"{where}: design: a library name or a design object, not {type(design).__name__}")
    except DesignFileError as e:
        raise ScenarioError(f"{where}: design: {e}") from None
    if not report.legal or report.profile is None:
        v = report.errors[0] if report.errors else None
        why = f"{v.path + ': ' if getattr(v, 'path', '') else ''}{v.message}" if v is not None else "not legal"
        raise ScenarioError(f"{where}: design: the design is not legal: {why}")
    p = report.profile
    if not isinstance(p, VehicleProfile):
        raise ScenarioError(f"{where}: design: {getattr(p, 'name', design)!r} is a heavy-weapon design, not a vehicle "
                            "(heavy weapons are fielded by the heavy-weapon rules)")
    if aircraft:
        if p.air is None and p.mobility_type != "grav":
            raise ScenarioError(f"{where}: air: {p.name!r} is a ground vehicle ({p.mobility_type}); only aircraft and "
                                "grav vehicles fly")
        return p
    if p.movement_die is None or p.mobility_type not in GROUND_MOBILITY:
        raise ScenarioError(f"{where}: design: {p.name!r} is an aircraft ({p.mobility_type}); an aircraft needs an "
                            "'air' field (where it starts: the aerospace rules fly it)")
    return p


def vehicle_fields(spec: dict, where: str) -> dict:
    """The profile and state fields of a vehicle unit built from its scenario entry (the Forces rule adds the
    crew's quality, leadership, confidence and commitment)."""
    p = design_profile(spec["design"], where, aircraft="air" in spec)
    facing = float(spec.get("facing", 0.0)) % 360.0
    amphibious = bool(spec.get("amphibious", False))
    if amphibious and p.mobility_type not in VEHICLE_AMPHIBIOUS_WATER:
        raise ScenarioError(f"{where}: amphibious: only wheeled and tracked vehicles have an amphibious entry "
                            f"(open water is already in the {p.mobility_type} table)")
    ground = p.mobility_type if p.movement_die is not None else "grav"  # a grounded aircraft (RN-1503)
    return dict(amphibious=amphibious, terrain_column=vehicle_column(ground, amphibious),kind=UNIT_KINDS.get(p.kind, "vehicle"), movement=parse_die(p.movement_die or "d6"), armour="none",
                figures=[Figure("average_small_arm")], size=p.target_size, vehicle=p, cc_impact=D6,
                veh=VehicleState(facing=facing, opened_up=bool(spec.get("opened_up", False)) and p.hatches))


# ------------------------------------------------------------------------------------------- facings
def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """Degrees clockwise from north (+y) of the line from (x0, y0) to (x1, y1)."""
    return math.degrees(math.atan2(x1 - x0, y1 - y0)) % 360.0


def armour_facing(v: Unit, x: float, y: float) -> str:
    """The facing of vehicle ``v`` that a line from (x, y) strikes (RN-127, RN-751): the bearing from the vehicle
    to the point measured from its facing; within 45 degrees front, from 135 degrees rear, else side.  A point on
    the vehicle itself strikes the front."""
    if abs(x - v.x) < 1e-9 and abs(y - v.y) < 1e-9:
        return "front"
    off = abs((bearing(v.x, v.y, x, y) - v.veh.facing + 180.0) % 360.0 - 180.0)
    if off <= 45.0 + 1e-9:
        return "front"
    if off >= 135.0 - 1e-9:
        return "rear"
    return "side"


def armour_die(v: Unit, facing: str) -> int:
    """The armour die of a facing (front, side, rear, top, belly): D8 unarmoured, D12 x class (L1338, RN-126)."""
    if facing not in FACINGS:
        raise ValueError(f"unknown facing {facing!r} (facings: {', '.join(FACINGS)})")
    return parse_die(getattr(v.profile.vehicle.armour, facing))


def armour_class(v: Unit, facing: str) -> int:
    return int(getattr(v.profile.vehicle.armour_class, facing))


def open_topped(v: Unit) -> bool:
    """Open-topped now: an open-top design, or a design with hatches while opened up (L1350, RN-128)."""
    p = v.profile.vehicle
    return p.open_top or (p.hatches and v.veh.opened_up)


def armoured(v: Unit) -> bool:
    """Any facing armour class above 0 (enemy armour for the panic test, L1148)."""
    p = v.profile.vehicle
    return any(getattr(p.armour_class, f) > 0 for f in FACINGS)


def size_class(v: Unit) -> int:
    """The vehicle's real size class (weapon and armour limits, towing, outnumbering), not its target size."""
    return v.profile.vehicle.size


def is_turret(u: Unit) -> bool:
    return u.veh.hull >= 0


# ------------------------------------------------------------------------------------------- the scenario
def validate_units(game) -> None:
    """Links between units given in the scenario: turrets (``hull``), and nothing else that is not a vehicle may
    use the vehicle fields (scenario errors name the field)."""
    names = {}
    for s, side in enumerate(game.scenario["sides"]):
        for i, spec in enumerate(side["units"]):
            names[(s, spec["name"])] = game.units[game.side_units[s][i]]
    for s, side in enumerate(game.scenario["sides"]):
        for i, spec in enumerate(side["units"]):
            where = f"sides/{s}/units/{i} ({spec['name']!r})"
            u = game.units[game.side_units[s][i]]
            for key in ("facing", "opened_up", "hull"):
                if key in spec and not is_vehicle(u):
                    raise ScenarioError(f"{where}: {key}: only a vehicle (a unit with a design) has one")
            if "hull" in spec:
                h = names.get((s, spec["hull"]))
                if h is None or not is_vehicle(h) or h is u or "hull" in game.scenario["sides"][s]["units"][
                        game.side_units[s].index(h.uid)]:
                    raise ScenarioError(f"{where}: hull: {spec['hull']!r} is not another vehicle (not a turret) of "
                                        "the same side")
                if size_class(h) < 5:
                    raise ScenarioError(f"{where}: hull: turrets as separate units are for super-heavy vehicles "
                                        f"(size 5); {spec['hull']!r} is size {size_class(h)}")
                if (u.x, u.y) != (h.x, h.y):
                    raise ScenarioError(f"{where}: hull: a turret starts on its hull (the same position)")
                if u.hidden or h.hidden or u.inbound or h.inbound:
                    raise ScenarioError(f"{where}: hull: a super-heavy vehicle and its turrets start on the table and "
                                        "not hidden")
                vehicle_state(u).hull = h.uid
                vehicle_state(u).facing = h.veh.facing


def has_vehicles(scenario, options) -> bool:
    return any("design" in u for side in scenario["sides"] for u in side["units"])


# ------------------------------------------------------------------------------------------- actions
FIRE_ACTIONS = frozenset({"fire_vehicle", "fire_slaved", "fire_pair", "fire_all", "move_fire", "tank_shock",
                          "fire_artillery", "fire_building"})  # vehicle combat (RN-800); on-table artillery; buildings
# RN-750: the infantry actions a vehicle may take, with the vehicle-combat ones (RN-800, RN-807, RN-814)
VEHICLE_ACTIONS = frozenset({"end", "move", "withdraw", "recover", "detect", "order", "rally", "communicate",
                             "hatches", "turn", "tow", "push", "unhook", "reorganise", "panic_test", "depart"}) | FIRE_ACTIONS \
    | frozenset({"air_fly", "air_hover", "air_land", "air_take_off", "air_leave", "air_bomb", "aa_fire_at",
                 "drop_cargo"}) \
    | frozenset({"line_charge"})  # Aerospace Operations; Mines and Explosives (a vehicle fires its line charge)
VEHICLE_ACTIONS = VEHICLE_ACTIONS | frozenset({"discharge_smoke", "exhaust_smoke"})  # Additional Rules: Smoke (L1896, L1904)
VEHICLE_REORGANISE = frozenset({"conceal", "reveal", "hide", "task", "leader"})
TURRET_ACTIONS = frozenset({"end", "recover", "detect", "order", "rally", "communicate", "panic_test"}) | FIRE_ACTIONS
# option names of infantry close combat withheld at vehicles (they take the Infantry Assaulting Vehicles rules'
# own option; mechs and monsters are assaulted as infantry, RN-850)
TARGETING = frozenset({"assault", "combined_assault"})  # fire at vehicles: firing_at_vehicles.py
MECH_ACTIONS = VEHICLE_ACTIONS | {"assault"}  # mechs and monsters assault as infantry (L1514, RN-850)


def _vehicle_filter(game, u: Unit, opts: list) -> list:
    """What a vehicle may do (RN-750), and that infantry assault a vehicle (not a mech or monster) only by the
    Infantry Assaulting Vehicles rules."""
    if u.profile.vehicle is not None:
        allowed = TURRET_ACTIONS if u.veh.hull >= 0 else (MECH_ACTIONS if u.kind in UNIT_KINDS.values() else
                                                      VEHICLE_ACTIONS)
        out = []
        for o in opts:
            if o[0] not in allowed:
                continue
            if o[0] == "reorganise" and (o[1] not in VEHICLE_REORGANISE or (o[1] == "hide" and u.veh.passengers)):
                continue
            out.append(o)
        return out
    units = game.units
    return [o for o in opts if not (o[0] in TARGETING and len(o) > 1 and isinstance(o[1], int)
                                    and units[o[1]].profile.vehicle is not None
                                    and units[o[1]].kind not in UNIT_KINDS.values())]  # mechs: RN-850


@event
class HatchesChanged(Event):
    unit: int
    opened_up: bool


def _hatch_options(game, u: Unit, status) -> list:
    p = u.profile.vehicle
    if p is None or not p.hatches or u.veh.hull >= 0:
        return []
    return [("hatches", "close_down")] if u.veh.opened_up else [("hatches", "open_up")]


def _hatches(game, u: Unit, opt) -> None:
    """Open up or close down (RN-128): one action; while opened up the vehicle is open-topped."""
    vehicle_state(u).opened_up = opt[1] == "open_up"
    game.emit(HatchesChanged(u.uid, u.veh.opened_up))


# ------------------------------------------------------------------------------------------- observation
VEHICLE_FEATURES = (
    "vehicle", "mech", "creature", "facing_x", "facing_y", "damage", "immobilised", "hatches", "opened_up",
    "open_top", "soft_skinned", "size", "armour_front", "armour_side", "armour_rear", "armour_top", "transport",
    "passengers", "mounted", "carrier_slot", "towing", "towed", "turret", "weapons",
    "fired_0", "fired_1", "fired_2", "fired_3", "suppression", "moved",
)
VF = len(VEHICLE_FEATURES)  # 30
_V = {n: i for i, n in enumerate(VEHICLE_FEATURES)}
OBSERVED_WEAPONS = 4  # the first four weapons of a design (fire_by_vehicles.WEAPON_SLOTS: the codec's k)
_DAMAGE_SCALE = 3.0  # damage markers / 3, capped at 1


_DESIGN_ROWS: dict = {}  # id(vehicle profile) -> (profile, its row's design part): what does not change in a game


def _design_row(vp) -> list:
    """A vehicle row with the design's features filled in (kind, hatches, open top, soft skinned, size, armour class
    per facing, transport places, weapons), the rest 0."""
    hit = _DESIGN_ROWS.get(id(vp))
    if hit is not None and hit[0] is vp:
        return hit[1]
    row = [0.0] * VF
    row[_V["vehicle"]] = 1.0
    row[_V["mech"]] = 1.0 if vp.kind == "mech" else 0.0
    row[_V["creature"]] = 1.0 if vp.kind == "large_creature" else 0.0
    row[_V["hatches"]] = 1.0 if vp.hatches else 0.0
    row[_V["open_top"]] = 1.0 if vp.open_top else 0.0
    row[_V["soft_skinned"]] = 1.0 if vp.soft_skinned else 0.0
    row[_V["size"]] = min(vp.size / 5.0, 1.0)
    for f in ("front", "side", "rear", "top"):
        row[_V["armour_" + f]] = min(int(getattr(vp.armour_class, f)) / 5.0, 1.0)
    row[_V["transport"]] = min(vp.transport_figures / 12.0, 1.0)
    row[_V["weapons"]] = min(len(vp.weapons), OBSERVED_WEAPONS) / OBSERVED_WEAPONS
    if len(_DESIGN_ROWS) > 1024:
        _DESIGN_ROWS.clear()
    _DESIGN_ROWS[id(vp)] = (vp, row)
    return row


(_V_FACING_X, _V_FACING_Y, _V_DAMAGE, _V_IMMOBILISED, _V_OPENED_UP, _V_PASSENGERS, _V_TOWING, _V_TURRET, _V_FIRED0,
 _V_SUPPRESSION, _V_MOVED, _V_MOUNTED, _V_CARRIER_SLOT, _V_TOWED) = (
    _V[n] for n in ("facing_x", "facing_y", "damage", "immobilised", "opened_up", "passengers", "towing", "turret",
                    "fired_0", "suppression", "moved", "mounted", "carrier_slot", "towed"))
_ZERO_VEHICLE_ROW = array("f", bytes(4 * VF))


def observe_vehicles(obs, b, off) -> None:
    """The ``vehicles`` piece: per unit slot, what a vehicle, mech or large creature is and how it stands (kind,
    facing as a unit vector in the side's mirrored frame, each component (c + 1) / 2, damage markers, immobilised,
    hatches and opened up, armour class per facing, transport places and the passengers carried (own vehicles
    only: an enemy vehicle's passengers are not seen), mounted and the own slot of the carrier (own units only: a
    mounted enemy unit is an empty row, as in ``units``), towing, turret, its weapons and which fired this
    activation, suppression markers, moved)."""
    g = obs.game
    fired = g.rules.services.get("fired_states")  # Fire by Vehicles' own state (no import: it imports this module)
    fired_st = fired(g) if fired is not None else {}
    own_slot = {uid: k for k, uid in enumerate(g.side_units[obs.side])}
    flip = obs.flip
    slots = obs.slots
    zero = _ZERO_VEHICLE_ROW
    for u, o, _k, enemy, concealed in obs.slot_rows(off, VF):
        if concealed:
            b[o:o + VF] = zero
            continue
        vp = u.profile.vehicle
        if vp is not None:
            row = _design_row(vp)[:]
            a = math.radians(u.veh.facing)
            fx, fy = math.sin(a), math.cos(a)
            if flip:
                fy = -fy
            row[_V_FACING_X] = (fx + 1.0) / 2.0
            row[_V_FACING_Y] = (fy + 1.0) / 2.0
            row[_V_DAMAGE] = min(u.veh.damage / _DAMAGE_SCALE, 1.0)
            row[_V_IMMOBILISED] = 1.0 if u.veh.immobilised else 0.0
            row[_V_OPENED_UP] = 1.0 if u.veh.opened_up else 0.0
            if not enemy:
                row[_V_PASSENGERS] = min(len(u.veh.passengers) / 4.0, 1.0)
            row[_V_TOWING] = 1.0 if u.veh.towing >= 0 else 0.0
            row[_V_TURRET] = 1.0 if u.veh.hull >= 0 else 0.0
            if fired_st:
                for k in fired_st.get(str(u.uid), ()):
                    if 0 <= k < OBSERVED_WEAPONS:
                        row[_V_FIRED0 + k] = 1.0
            row[_V_SUPPRESSION] = min(u.suppression / 3.0, 1.0)
            row[_V_MOVED] = 1.0 if u.veh.moved else 0.0
        elif (enemy or u.veh.carrier < 0) and u.veh.towed_by < 0:
            b[o:o + VF] = zero  # not a vehicle, not mounted (as the observer knows), not towed: an empty row
            continue
        else:
            row = [0.0] * VF
        if not enemy and u.veh.carrier >= 0:
            row[_V_MOUNTED] = 1.0
            row[_V_CARRIER_SLOT] = own_slot.get(u.veh.carrier, 0) / slots
        row[_V_TOWED] = 1.0 if u.veh.towed_by >= 0 else 0.0
        b[o:o + VF] = array("f", row)


VEHICLES_PIECE = ObservationPiece("vehicles", 5, ("units", VF), VEHICLE_FEATURES, write=observe_vehicles,
                                  doc="Armoured Dustup: each unit slot's vehicle, mech or large creature")

RULE = Rule(
    "Vehicles", 'seed 000 "ARMOURED DUSTUP": "General Rules", "Vehicle Size", "Armour", "Types of Vehicles", '
    '"Super-Heavy Vehicles" (turrets as units)',
    applies=has_vehicles,
    init=(validate_units,),
    families=(Family("hatches", (("open_up", "close_down"),), 67, "a vehicle with hatches opens up or closes down"),),
    action_options=(_hatch_options,),
    action_filters=(_vehicle_filter,),
    actions={"hatches": _hatches},
    services={"vehicle_profile": vehicle_profile, "acts_while_suppressed": acts_while_suppressed},
    observation=(VEHICLES_PIECE,),
)
