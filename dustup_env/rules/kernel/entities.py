"""The game's entities: units and their figures (the state every rules module reads and writes).

Seed 000, "FORCES": a unit is a squad, a single figure or a team with one leader figure; each figure
is one soldier with its weapon.  State is plain data (slots dataclasses of ints, floats and strings).
The rules that build units from a scenario (quality, leadership, confidence, commitment, fatigue) are
in :mod:`dustup_env.rules.forces.units`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from .dice import D4, D6

# Confidence levels (seed 000 "Confidence"): higher index = worse.
CONFIDENT, STEADY, SHAKEN, BROKEN, ROUTED = range(5)
CONFIDENCE_NAMES = ("confident", "steady", "shaken", "broken", "routed")
# Figure status
OK, WOUNDED, TREATED, KILLED = 0, 1, 2, 3  # WOUNDED = untreated wound counter; TREATED = stabilised
DISABLED = 4  # power armour suit wrecked: the trooper is unhurt but cannot act (Power Armour Troops as Casualties)
COHESION = 6.0  # inches from the leader


class Figure(NamedTuple):
    """One soldier (immutable: a change is a new Figure, ``Unit.set_figure``; copies of a game share figures)."""

    weapon: str
    status: int = OK
    wounds: int = 0
    dx: float = 0.0  # offset from the unit leader
    dy: float = 0.0
    medic: bool = False  # a trained unit medic (Medical Treatment Action: D8)
    armour: str = ""  # per-figure armour overriding the unit's (an occupant extracted from a wrecked suit)

    @property
    def alive(self) -> bool:
        return self.status != KILLED


@dataclass(frozen=True, slots=True)
class UnitProfile:
    """What a unit is: the fields set when it is built (from the scenario, or when a detachment is formed) and
    changed only when units merge (a new profile then replaces the old).  Immutable, so a game, its copies
    and its scenario share them; a unit reads them as its own attributes (``u.name``, ``u.armour``, ...)."""

    name: str
    kind: str  # "squad" | "single" (a single figure: a small target)
    quality: int  # quality die step
    initial_confidence: int  # rallies never raise the unit above it
    commitment: int  # index into COMMITMENTS
    movement: int  # movement die step
    armour: str  # the unit's personal armour (figures may override it)
    grenades: bool = False  # hand grenades
    was_hidden: bool = False  # began the game hidden
    sensor: int = D4  # "Detect Action" sensor die: unaided D4, aided D6, enhanced D8, superior D10
    size: int = 1  # target size (infantry 1); larger targets shift the detection range die down
    terror: bool = False  # provokes terror
    cc_impact: int = D6  # close-combat impact die (seed 000 Weapons: "humans have an impact value D6")
    night_vision: bool = False  # seed 003 Night Fighting: no +2 target shift at night
    medical_team: bool = False  # a dedicated medical team (Medical Treatment Action: D10)
    cavalry: bool = False
    specialist_grenade: str = ""  # weapon name of the unit's specialist grenades (e.g. "at_grenade"), "" = none
    amphibious: bool = False
    wading: bool = False  # power armour that can wade on the bottom of open water
    heavy_equipment: bool = False  # carries heavy equipment: encumbered (movement die one type lower)
    vehicle: object = None  # a vehicle, mech or large creature: its design's VehicleProfile (vehicle_design);
    #                         None for infantry (armoured_dustup/vehicles.py)
    mobility: str = ""  # vehicular cavalry: the vehicle movement table it uses while mounted ("" = none)


PROFILE_FIELDS = tuple(UnitProfile.__dataclass_fields__)
_FIGURE_INDEX = {name: i for i, name in enumerate(Figure._fields)}
_new_tuple = tuple.__new__


@dataclass(slots=True)
class Unit:
    """A unit in play: its profile (shared) and its changing state."""

    uid: int
    side: int
    profile: UnitProfile
    lv: int
    confidence: int
    x: float
    y: float
    figures: list[Figure]
    leader: int = 0  # index into figures of the leader figure
    suppression: int = 0
    propped: bool = False
    complete_concealment: bool = False
    activated: bool = False
    fired: set[int] = field(default_factory=set)  # figure indices whose weapon fired this activation
    under_fire_before: bool = False
    suppressed_before: bool = False
    leader_lost: bool = False  # leader became a casualty: next activation reorganises
    location: str = "table"  # where the unit is: "table", or off it: "routed_off", "merged", "evacuated" (the
    #                          flags of those names read it) or a location a rule registers (kernel.table)
    loose: bool = False  # figures not in the compact formation (after a new leader is appointed)
    hidden: bool = False  # "Hidden Units": only a marker shows (the enemy does not know it is there)
    revealed_at: int = -1  # index in game.events of the reveal (-1: never revealed)
    hidden_spans: list = field(default_factory=list)  # [first, end) event indices of each hidden period (end -1: now)
    # --- command and morale (unit_actions/command.py, morale/morale.py) ---------------------------------------------
    commander: int = -1  # uid of the superior (commanding) unit, -1 = none (top of the command tree)
    second_in_command: bool = False  # an HQ whose second in command takes over if the commander falls
    command_lost: bool = False  # this unit's commander fell with no second in command: it commands no one
    promotion_pending: bool = False  # its side may promote a subordinate in its place (a decision)
    assume_command: int = -1  # promoted: uid of the lost command unit whose command it assumes
    vacated: list = field(default_factory=list)  # promoted upwards: its former direct subordinates, whose command
    #                                              its side may fill by promoting one of them (the cascade, RN-305)
    assume_vacancy: list = field(default_factory=list)  # promoted into such a vacancy: the units it takes over
    panicked: bool = False
    panic_passed: bool = False  # passed a panic test: never tests again
    panic_triggers: int = 0  # bit set of panic triggers already met (see morale.PANIC_*)
    panic_routed: bool = False  # routed while panicking: may never be rallied
    abandoned: int = 0  # wounded figures left behind when the unit withdrew from an assault
    # --- detachments, regrouping, travel, cavalry, casualties ----------------------------------------------------
    parent: int = -1  # uid of the parent unit of a detachment (Detach Element Action)
    strength: int = 0  # figures at the start of the game (or when detached): "depleted" for Regroup
    travel: bool = False  # in travel mode (column)
    mounted: bool = False  # cavalry on its mounts
    mounts_detached: bool = False  # dismounted cavalry that left its mounts with a detachment
    left_behind: list = field(default_factory=list)  # [x, y, status, weapon, wounds, medic, armour] of figures
    #                                                   left on the table (moving_casualties.left_entry)
    abandon_point: list = field(default_factory=list)  # [x, y]: wounded abandoned here by choice, until the next move
    tasks_done: list = field(default_factory=list)  # scenario task indices this unit completed
    terrain_column: int = 0  # movement column of the terrain table (battlefield.terrain_column: power armour,
    #                          amphibious, power armour wading on the bottom of open water)
    inbound: int = 0  # reinforcement: box of its counter on the inbound track (0 = on the table)
    evacuated_wounded: int = 0  # wounded figures it carried off
    # --- vehicles (armoured_dustup/vehicles.py and neighbours) -----------------------------------------------------
    facing: float = 0.0  # the way a vehicle's front points: degrees clockwise from north (+y)
    damage: int = 0  # damage markers
    immobilised: bool = False
    opened_up: bool = False  # a vehicle with hatches, opened up (treated as open-topped)
    passengers: list = field(default_factory=list)  # uids of the units mounted in this vehicle
    carrier: int = -1  # uid of the vehicle this unit is mounted in (-1: not mounted)
    towing: int = -1  # uid of the unit this vehicle tows or pushes (-1: none)
    towed_by: int = -1  # uid of the vehicle towing or pushing this unit (-1: none)
    pushing: bool = False  # ``towing`` is pushed, not towed
    hull: int = -1  # a super-heavy vehicle's turret: uid of its hull (-1: not a turret)
    moved: bool = False  # moved during its current activation
    # (vehicle combat will add its fields here)

    @classmethod
    def new(cls, **fields) -> "Unit":
        """A unit from every field, the profile's included (they make its profile)."""
        prof = UnitProfile(**{k: fields.pop(k) for k in PROFILE_FIELDS if k in fields})
        return cls(profile=prof, **fields)

    def set_figure(self, i: int, **changes) -> None:
        """Change figure ``i`` (figures are immutable: it is replaced)."""
        v = list(self.figures[i])
        for k, x in changes.items():
            v[_FIGURE_INDEX[k]] = x
        self.figures[i] = _new_tuple(Figure, v)

    def set_offset(self, i: int, dx: float, dy: float) -> None:
        """Move figure ``i`` to the offset (dx, dy) from the unit's leader position."""
        f = self.figures[i]
        self.figures[i] = _new_tuple(Figure, (f.weapon, f.status, f.wounds, dx, dy, f.medic, f.armour))

    # --- derived -----------------------------------------------------------------------
    @property
    def destroyed(self) -> bool:
        """No able-bodied figure left (all killed or wounded): the unit is out of the fight."""
        for f in self.figures:
            if f.status == OK:
                return False
        return True

    @property
    def in_play(self) -> bool:
        """On the table and in the fight: not routed off, merged, evacuated or inbound, and not destroyed."""
        if self.location != "table" or self.inbound:
            return False
        for f in self.figures:  # = not self.destroyed (inlined: the hottest property of the engine; f[1] is
            if f[1] == OK:  # f.status, read by index: the named field costs twice as much here)
                return True
        return False

    def able(self) -> list[int]:
        return [i for i, f in enumerate(self.figures) if f.status == OK]

    def n_alive(self) -> int:
        return sum(1 for f in self.figures if f.status != KILLED)

    def n_able(self) -> int:
        return sum(1 for f in self.figures if f.status == OK)

    def n_untreated(self) -> int:
        return sum(1 for f in self.figures if f.status == WOUNDED)

    @property
    def suppressed(self) -> bool:
        return self.suppression > 0 and self.confidence != ROUTED  # routed units ignore suppression

    @property
    def small_target(self) -> bool:
        """Single-figure units are small targets (a squad worn down to one figure is not; rules-notes RN-008)."""
        return self.profile.kind == "single"

    def disorganised(self) -> bool:
        """Seed 000 "Cohesion": every figure must be within 6" of the leader."""
        lf = self.figures[self.leader]
        for f in self.figures:
            if f.status != KILLED and (f.dx - lf.dx) ** 2 + (f.dy - lf.dy) ** 2 > COHESION * COHESION + 1e-9:
                return True
        return False

    def figure_positions(self) -> list[tuple[float, float]]:
        lf = self.figures[self.leader]
        bx, by = self.x - lf.dx, self.y - lf.dy
        return [(bx + f.dx, by + f.dy) for f in self.figures if f.status != KILLED]


# the locations the first formats saved as flags (routed off, merged or regrouped, evacuated: Casualty Evacuation
# carried its wounded off its home edge, no enemy VP; the CASEVAC rule keeps its vehicle there while it loiters)
FLAG_LOCATIONS = ("routed_off", "merged", "evacuated")


def _location_flag(name: str):
    def fget(self) -> bool:
        return self.location == name

    def fset(self, value: bool) -> None:  # (the rules set ``location``; kept for older callers)
        if value:
            self.location = name
        elif self.location == name:
            self.location = "table"

    return property(fget, fset, doc=f"whether the unit's location is {name!r}")


for _name in FLAG_LOCATIONS:
    setattr(Unit, _name, _location_flag(_name))


def _profile_property(name: str):
    from operator import attrgetter

    get = attrgetter(f"profile.{name}")

    def fset(self, value) -> None:  # a merge: a new profile replaces the shared one
        self.profile = replace(self.profile, **{name: value})

    return property(get, fset, doc=f"the profile's {name}")


for _name in PROFILE_FIELDS:
    setattr(Unit, _name, _profile_property(_name))

# every attribute of a unit (the profile's and the unit's own), in a stable order: its plain-data form
# (the location as the flags of the first formats, in their places: the plain data and the digests stay as they were;
# a location a rule registers is added as "location", unit_dict)
_OWN = [f for f in Unit.__dataclass_fields__ if f not in ("uid", "side", "profile")]
_OWN[_OWN.index("location")] = "routed_off"
_OWN.insert(_OWN.index("parent") + 1, "merged")
_OWN.insert(_OWN.index("inbound") + 1, "evacuated")
UNIT_ATTRIBUTES = ("uid", "side") + PROFILE_FIELDS + tuple(_OWN)


# the attributes of the first save format (its state digests are taken over these only)
VEHICLE_ATTRIBUTES = ("vehicle", "mobility", "facing", "damage", "immobilised", "opened_up", "passengers", "carrier",
                      "towing", "towed_by", "pushing", "hull", "moved")
UNIT_ATTRIBUTES_V1 = tuple(a for a in UNIT_ATTRIBUTES if a not in VEHICLE_ATTRIBUTES)
# attributes whose values are not plain data: name -> (to plain data, from plain data), registered by the rules
# module that owns them (the vehicle profile: armoured_dustup/vehicles.py)
FIELD_CODECS: dict = {}
# their values in a unit that is no vehicle (an attribute at it is left out of the plain data, so that the state
# digests of games without vehicles stay as they were; unit_from_dict restores it)
_VEHICLE_DEFAULTS = {"vehicle": None, "mobility": "", "facing": 0.0, "damage": 0, "immobilised": False,
                     "opened_up": False, "passengers": [], "carrier": -1, "towing": -1, "towed_by": -1,
                     "pushing": False, "hull": -1, "moved": False}
assert set(_VEHICLE_DEFAULTS) == set(VEHICLE_ATTRIBUTES)


def unit_dict(u: Unit, attributes: tuple = UNIT_ATTRIBUTES) -> dict:
    """Every attribute of ``u`` as plain data (sets sorted, figures as dicts)."""
    out = {}
    for k in attributes:
        v = getattr(u, k)
        if k in _VEHICLE_DEFAULTS and v == _VEHICLE_DEFAULTS[k]:
            continue
        codec = FIELD_CODECS.get(k)
        if codec is not None:
            v = codec[0](v)
        elif k == "figures":
            v = [f._asdict() for f in v]
        elif isinstance(v, (set, frozenset)):
            v = sorted(v)
        elif isinstance(v, list):
            v = [list(x) if isinstance(x, (list, tuple)) else x for x in v]
        out[k] = v
    if u.location != "table" and u.location not in FLAG_LOCATIONS:
        out["location"] = u.location
    return out


def unit_from_dict(d: dict) -> Unit:
    """The unit of :func:`unit_dict`'s plain data."""
    d = dict(d)
    location = d.pop("location", "table")
    for name in FLAG_LOCATIONS:
        if d.pop(name, False) and location == "table":
            location = name
    d["location"] = location
    d["figures"] = [Figure(**f) for f in d["figures"]]
    d["fired"] = set(d["fired"])
    for k, (_, from_plain) in FIELD_CODECS.items():
        if k in d:
            d[k] = from_plain(d[k])
    return Unit.new(**d)
