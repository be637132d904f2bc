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


# ------------------------------------------------------------------------------------------ a rule's state of a unit
UNIT_STATE_FIELDS: dict = {}  # a field's name -> the UnitState class that owns it (filled as the class is made)


class _FrozenList(list):
    """An empty list that refuses changes: a list field's value in :data:`BLANK` (equal to ``[]``)."""

    __slots__ = ()

    def _refuse(self, *a, **k):
        raise AttributeError("this unit's state is BLANK (read-only): write it through the owning rule's accessor "
                             "(vehicle_state(u))")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


def _frozen(v):
    return _FrozenList() if isinstance(v, list) else v


class UnitState:
    """The state a later chapter keeps of a unit, in the unit's ``veh`` slot (subclass it once: the vehicle rules'
    ``VehicleState``, ``armoured_dustup/vehicles.py``).

    A subclass names its fields in ``__slots__`` and their values in ``DEFAULTS`` (plain data), and ``WRITER``, the
    name of the owning rule's function that returns a unit's own record (made on first use).  A unit the rule never
    wrote holds :data:`BLANK`: every field its default, read-only, shared by every such unit (a unit copies as
    cheaply as one without the fields).  Copied by a generated copier, saved and digested among the unit's
    attributes under the fields' own names when they differ from the defaults (the form of the saves and digests
    from when the fields were the unit's: they are unchanged, and older saves load)."""

    __slots__ = ()
    FIELDS: tuple = ()
    DEFAULTS: dict = {}
    WRITER: str = ""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        names = tuple(cls.__dict__.get("__slots__", ()))
        if set(names) != set(cls.DEFAULTS):
            raise TypeError(f"{cls.__qualname__}: DEFAULTS must name exactly its fields {names}")
        other = next((c for c in UNIT_STATE_FIELDS.values() if c.__qualname__ != cls.__qualname__), None)
        if other is not None:  # one slot, ``veh``: a second chapter's state of a unit would need a slot of its own
            raise TypeError(f"{cls.__qualname__}: a unit's state slot already holds {other.__qualname__}")
        for n in names:
            owner = UNIT_STATE_FIELDS.get(n)
            if (owner is not None and owner.__qualname__ != cls.__qualname__) or n in PROFILE_FIELDS:
                raise TypeError(f"unit state field {n!r} of {cls.__qualname__} is already a unit's")
            UNIT_STATE_FIELDS[n] = cls
            object.__setattr__(BLANK, n, _frozen(cls.DEFAULTS[n]))
            setattr(Unit, n, _not_a_unit_field(n, cls))
        cls.FIELDS = names
        init = ["def __init__(self, " + ", ".join(f"{n}=D[{n!r}]" for n in names) + "):"]
        copy = ["def copy(self, new=object.__new__, cls=cls, plain_copy=plain_copy):", "    n = new(cls)"]
        for n in names:
            if isinstance(cls.DEFAULTS[n], list):
                init.append(f"    self.{n} = list({n})")
                copy.append(f"    v = self.{n}")
                copy.append(f"    n.{n} = plain_copy(v) if v else []")
            else:
                init.append(f"    self.{n} = {n}")
                copy.append(f"    n.{n} = self.{n}")
        copy.append("    return n")
        ns = {"cls": cls, "D": cls.DEFAULTS, "plain_copy": _plain_list}
        exec("\n".join(init) + "\n" + "\n".join(copy), ns)  # noqa: S102 - generated from the class's own fields
        cls.__init__, cls.copy = ns["__init__"], ns["copy"]

    def __eq__(self, other):
        if not isinstance(other, (UnitState, _Blank)):
            return NotImplemented
        fields = self.FIELDS or other.FIELDS
        return all(getattr(self, n) == getattr(other, n) for n in fields)

    __hash__ = None

    def __repr__(self):
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.FIELDS)})"


def _not_a_unit_field(name: str, owner) -> property:
    """``u.<name>`` for a field of a unit's state: an AttributeError that says where the field is (a property, not a
    ``__getattr__``: that would slow every attribute read of a unit)."""
    def fail(self, *value):
        raise AttributeError(f"a unit has no {name!r}: it is {owner.__qualname__}'s, read it as u.veh.{name} and "
                             f"write it through {owner.WRITER}(u).{name}")

    return property(fail, fail, doc=f"not a unit's: u.veh.{name}")


def _plain_list(v: list) -> list:
    return [list(x) if type(x) is list else x for x in v]


class _Blank:
    """The state of a unit the rules never wrote: every field its default, read-only.  The values are the one
    instance's own (set as the owning class is made): an instance attribute is read as fast as a unit's field, a class
    attribute of a slotted class is not (about 165 machine instructions more a read, counted under callgrind)."""

    FIELDS: tuple = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"this unit's state is BLANK (read-only): write {name!r} through the owning rule's "
                             f"accessor ({getattr(UNIT_STATE_FIELDS.get(name), 'WRITER', 'vehicle_state')}(u).{name})")

    __eq__ = UnitState.__eq__
    __hash__ = object.__hash__  # immutable: one shared object (a dataclass field's default)

    def __repr__(self):
        return "BLANK"

    def copy(self):
        return self


BLANK = _Blank()
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
    # --- the state a later chapter keeps per unit --------------------------------------------------------------------
    veh: object = BLANK  # the vehicle rules' state of the unit (armoured_dustup/vehicles.py ``VehicleState``:
    #                          facing, damage markers, passengers, the vehicle it rides in, towing, ...): BLANK (every
    #                          field its default, read-only) until the rules first write it (``vehicle_state(u)``)

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
# a location a rule registers is added as "location"; the fields of the unit's ``veh`` state follow, unit_dict)
_OWN = [f for f in Unit.__dataclass_fields__ if f not in ("uid", "side", "profile", "veh")]
_OWN[_OWN.index("location")] = "routed_off"
_OWN.insert(_OWN.index("parent") + 1, "merged")
_OWN.insert(_OWN.index("inbound") + 1, "evacuated")
UNIT_ATTRIBUTES = ("uid", "side") + PROFILE_FIELDS + tuple(_OWN)


# the attributes of the first save format (its state digests are taken over these only: no profile fields of the
# vehicle rules, no ``veh`` state)
VEHICLE_ATTRIBUTES = ("vehicle", "mobility")
UNIT_ATTRIBUTES_V1 = tuple(a for a in UNIT_ATTRIBUTES if a not in VEHICLE_ATTRIBUTES)
# attributes whose values are not plain data: name -> (to plain data, from plain data), registered by the rules
# module that owns them (the vehicle profile: armoured_dustup/vehicles.py)
FIELD_CODECS: dict = {}
# their values in a unit that is no vehicle (an attribute at it is left out of the plain data, so that the state
# digests of games without vehicles stay as they were; unit_from_dict restores it)
_VEHICLE_DEFAULTS = {"vehicle": None, "mobility": ""}


def unit_dict(u: Unit, attributes: tuple = UNIT_ATTRIBUTES, state: bool = True) -> dict:
    """Every attribute of ``u`` as plain data (sets sorted, figures as dicts); with ``state``, the fields of its
    ``veh`` state that differ from their defaults, under their own names."""
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
    vs = u.veh
    if state and vs is not BLANK:
        for k, d in vs.DEFAULTS.items():
            v = getattr(vs, k)
            if v != d:
                out[k] = [list(x) if isinstance(x, (list, tuple)) else x for x in v] if isinstance(v, list) else v
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
    state = {k: d.pop(k) for k in list(d) if k in UNIT_STATE_FIELDS}
    if state:
        d["veh"] = UNIT_STATE_FIELDS[next(iter(state))](**state)
    return Unit.new(**d)
