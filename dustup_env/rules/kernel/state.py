"""The game's state: what changes as a game is played, and how it is copied.

:data:`STATE` names every attribute of a :class:`~.game.Game` that changes during play; everything
else (the scenario documents, options, battlefield, objectives, rule set) belongs to the scenario and
is shared, never written, by every copy.  :func:`copy_state` copies the state explicitly (no
``deepcopy`` walk): units and figures by generated per-field copiers, frames and module state as plain
data, the event log and the history by pointers (events and options are immutable), the dice by their
generator state.
"""
from __future__ import annotations

from dataclasses import MISSING, fields

from .decisions import Frame
from .dice import ScriptedDice, SeededDice
from .entities import Unit

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
    "extra",  # plain-data state of rules modules (tokens, chit bag, card deck, ...)
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
    ns = {"cls": cls, "plain_copy": plain_copy}
    exec("\n".join(lines), ns)  # noqa: S102 - generated from the dataclass's own field list
    return ns[f"copy_{cls.__name__.lower()}"]


copy_unit = _copier(Unit, {"figures": "list({})"})  # figures are immutable: the copy shares them


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
    dst.extra = plain_copy(src.extra) if src.extra else {}
    dst.terrain = [plain_copy(t) for t in src.terrain]
    dst.entities = [plain_copy(e) for e in src.entities] if src.entities else []
    dst.bf = src.bf  # immutable: the copy's next change of the terrain makes its own
    dst.dice = copy_dice(src.dice, reseed)
    dst.pending_decision = src.pending_decision  # the options do not depend on the dice
    dst.memo = None
