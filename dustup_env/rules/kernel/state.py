"""The game's state: what changes as a game is played, and how it is copied.

:data:`STATE` names every attribute of a :class:`~.game.Game` that changes during play; everything
else (the scenario documents, options, battlefield, objectives, rule set) belongs to the scenario and
is shared, never written, by every copy.  :func:`copy_state` copies the state explicitly (no
``deepcopy`` walk): units and figures by generated per-field copiers, frames and module state as plain
data, the event log and the history by pointers (events and options are immutable), the dice by their
generator state.

The state of a rules module is a :class:`Component`: a class the rule owns, with explicit fields, one instance
per game in ``game.components`` (``game.state_of(Cls)``), copied by a generated copier, and saved, snapshotted
and digested under its fields' names in the state's ``extra`` mapping (the form saves had when rules kept their
state in plain dicts, so older snapshots load and digests are unchanged).
"""
from __future__ import annotations

from dataclasses import MISSING, fields

from .decisions import Frame
from .dice import ScriptedDice, SeededDice
from .entities import BLANK, Unit

STATE = (
    "units",  # list[Unit]: every unit, indexed by uid (detachments are appended)
    "side_units",  # ([uids of side 0], [uids of side 1])
    "bf",  # what the rules consult: the static battlefield, or seen through the dynamic terrain (kernel.terrain)
    "turn", "phase", "current", "initiative_winner",  # the turn sequence
    "stack",  # list[Frame]: the decision stack (activations and procedures)
    "winner", "vp", "end_reason",  # the end of the game
    "events", "events_base",  # the event log (events_base: events before it that a copy made with log=False left out)
    "history",  # the options applied so far
    "markers",  # hidden-unit markers (plain dicts)
    "components",  # the state of rules modules: {Component class: instance} (tokens, chit bag, card deck, ...)
    "terrain",  # the dynamic terrain layer (plain dicts, kernel.terrain)
    "entities",  # the table entities that are not units (plain dicts, kernel.table)
    "dice",  # the random generator
    "pending_decision",  # the pending decision once built (immutable: shared by copies)
    "memo",  # while an action decision is built: values that stay the same meanwhile (known enemies, ...); else None
)

_CONTAINERS = (list, dict, set)
# list fields of a unit whose items are lists changed in place (the others hold immutable items)
NESTED = {"hidden_spans", "left_behind"}


def plain_copy(x):
    """A copy of plain data (dicts, lists and sets of immutable values, nested)."""
    t = type(x)
    if t is list:
        return [plain_copy(v) if type(v) in _CONTAINERS else v for v in x]
    if t is dict:
        return {k: plain_copy(v) if type(v) in _CONTAINERS else v for k, v in x.items()}
    if t is set:
        return set(x)
    return x


def _copier(cls, special: dict):
    """A function copying an instance of the slots dataclass ``cls`` field by field: immutable values by
    reference, containers as plain data (a list or set of immutable values by a shallow copy, other containers
    deep), and the fields in ``special`` by the given expression."""
    lines = [f"def copy_{cls.__name__.lower()}(o, new=object.__new__, cls=cls, plain_copy=plain_copy):",
             "    n = new(cls)"]
    for f in fields(cls):
        if f.name in special:
            lines.append(f"    n.{f.name} = {special[f.name].format(f'o.{f.name}')}")
        elif f.default_factory is set:
            lines.append(f"    v = o.{f.name}")
            lines.append(f"    n.{f.name} = set(v) if v else set()")
        elif f.default_factory is list and f.name not in NESTED:
            lines.append(f"    v = o.{f.name}")
            lines.append(f"    n.{f.name} = v[:] if v else []")
        elif f.default_factory is not MISSING:  # nested containers: plain data
            lines.append(f"    v = o.{f.name}")
            lines.append(f"    n.{f.name} = plain_copy(v) if v else type(v)()")
        else:
            lines.append(f"    n.{f.name} = o.{f.name}")
    lines.append("    return n")
    ns = {"cls": cls, "plain_copy": plain_copy, "BLANK": BLANK}
    exec("\n".join(lines), ns)  # noqa: S102 - generated from the dataclass's own field list
    return ns[f"copy_{cls.__name__.lower()}"]


COMPONENT_FIELDS: dict = {}  # a saved field's name -> the Component class that owns it (filled as classes are made)


class Component:
    """The state a rule owns (subclass it; one instance per game: ``game.state_of(Cls)``).

    A subclass names its fields in ``__slots__``; each holds plain data (numbers, strings, lists, dicts, nested)
    or ``None``: not set.  A field is saved under its own name in the state's ``extra`` mapping when it is set,
    so the field names are unique across the rules (checked when the class is made).  ``PUBLIC`` names the
    fields both sides may know (the view's ``public`` part); the others are the state of the rules, shown to a
    side only through what the rules say of it.
    """

    __slots__ = ()
    PUBLIC: tuple = ()
    FIELDS: tuple = ()  # every field, the base classes' first (set when the class is made)

    def __init_subclass__(cls, register: bool = True, **kw):
        super().__init_subclass__(**kw)
        names = tuple(cls.__dict__.get("__slots__", ()))
        for n in names if register else ():
            owner = COMPONENT_FIELDS.get(n)
            if owner is not None and owner.__qualname__ != cls.__qualname__:
                raise TypeError(f"state field {n!r} of {cls.__qualname__} is already {owner.__qualname__}'s")
            COMPONENT_FIELDS[n] = cls
        cls.FIELDS = sum((getattr(b, "FIELDS", ()) for b in cls.__bases__), ()) + names
        lines = ["def copy(self, new=object.__new__, cls=cls, plain_copy=plain_copy, C=_CONTAINERS):",
                 "    n = new(cls)"]
        for n in cls.FIELDS:
            lines += [f"    v = self.{n}", f"    n.{n} = plain_copy(v) if type(v) in C else v"]
        lines.append("    return n")
        ns = {"cls": cls, "plain_copy": plain_copy, "_CONTAINERS": _CONTAINERS}
        exec("\n".join(lines), ns)  # noqa: S102 - generated from the class's own field list
        cls.copy = ns["copy"]

    def __init__(self, **fields):
        for n in self.FIELDS:
            setattr(self, n, fields.pop(n, None))
        if fields:
            raise TypeError(f"{type(self).__qualname__} has no field {sorted(fields)[0]!r}")

    def saved(self, out: dict) -> None:
        """Write the fields that are set into ``out`` (the saved ``extra`` mapping)."""
        for n in self.FIELDS:
            v = getattr(self, n)
            if v is not None:
                out[n] = v

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, n) == getattr(other, n) for n in self.FIELDS)

    def __repr__(self):
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.FIELDS)})"


class Unclaimed(Component, register=False):
    """Saved module state that no rule of this engine claims (an older snapshot's): kept as it was."""

    __slots__ = ("data",)

    def saved(self, out: dict) -> None:
        if self.data:
            out.update(self.data)


# a rule whose state moved into its component from where the state of an earlier engine held it: (to the old form,
# from the old form) -- ``to(game, stack, extra)`` rewrites a state's plain stack and ``extra`` into the form of the
# first save format (the state digest of version-1 saves), ``from(game)`` brings a game loaded from an older
# snapshot to this form (e.g. the Order Action's list of ordered units, once in the commander's activation frame)
OLD_FORMS: list = []


def saved_components(components: dict) -> dict:
    """The rules modules' state as saved: every set field under its name."""
    out: dict = {}
    for c in components.values():
        c.saved(out)
    return out


def load_components(extra: dict) -> dict:
    """The components of a saved ``extra`` mapping (fields no rule claims are kept as :class:`Unclaimed`)."""
    if not isinstance(extra, dict):
        raise TypeError(f"the rules' state ('extra') is a mapping, not {type(extra).__name__}")
    out: dict = {}
    for k, v in extra.items():
        cls = COMPONENT_FIELDS.get(k)
        if cls is None:
            cls = Unclaimed
            c = out.get(cls)
            if c is None:
                c = out[cls] = Unclaimed(data={})
            c.data[k] = v
            continue
        c = out.get(cls)
        if c is None:
            c = out[cls] = cls()
        setattr(c, k, v)
    return out


# figures are immutable: the copy shares them; a unit's rule state is copied unless it is the shared BLANK
copy_unit = _copier(Unit, {"figures": "list({})", "veh": "{0} if {0} is BLANK else {0}.copy()"})


def copy_frame(f: Frame) -> Frame:
    return Frame(f.type, f.unit, f.actions_left, f.ordered, plain_copy(f.data) if f.data else {})


def copy_dice(dice, reseed):
    if reseed is not None:
        return SeededDice.fresh(int(reseed))
    if isinstance(dice, SeededDice):
        return dice.copy()
    if isinstance(dice, ScriptedDice):
        return dice.copy()
    import copy
    return copy.deepcopy(dice)


def copy_state(src, dst, log: bool = True, reseed: int | None = None) -> None:
    """Copy ``src``'s state into the (new) game ``dst``."""
    dst.units = [copy_unit(u) for u in src.units]
    a, b = src.side_units
    dst.side_units = (list(a), list(b))
    dst.turn = src.turn
    dst.phase = src.phase
    dst.current = src.current
    dst.initiative_winner = src.initiative_winner
    dst.stack = [copy_frame(f) for f in src.stack]
    dst.winner = src.winner
    dst.vp = src.vp
    dst.end_reason = src.end_reason
    if log:
        dst.events = list(src.events)
        dst.events_base = src.events_base
        dst.history = list(src.history)
    else:
        dst.events = []
        dst.events_base = src.events_base + len(src.events)
        dst.history = []
    dst.markers = [dict(m) for m in src.markers]
    comps = src.components
    dst.components = {k: c.copy() for k, c in comps.items()} if comps else {}
    dst.terrain = [plain_copy(t) for t in src.terrain]
    dst.entities = [plain_copy(e) for e in src.entities] if src.entities else []
    dst.bf = src.bf  # immutable: the copy's next change of the terrain makes its own
    dst.dice = copy_dice(src.dice, reseed)
    dst.pending_decision = src.pending_decision  # the options do not depend on the dice
    dst.memo = None
