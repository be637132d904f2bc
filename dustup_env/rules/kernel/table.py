"""Things on the table that are not units: typed table entities, a unit's location, and moving a unit.

**Entities** (``game.entities``, part of the state): a minefield known to its owner only, target markers real
and dummy, smoke and fire markers, a building's state, a drone.  Each is a plain-data dict::

    {"id": 3, "kind": "minefield", "owner": 0, "x": 12.0, "y": 20.0, "shape": {"shape": "circle", "r": 2.0},
     "state": {...}, "known": "owner", "refs": [1, -1], "removed": False}

* ``id``: stable: its index in ``game.entities`` (an entity is never deleted, only marked ``removed``), so an id
  names the same entity in every copy, snapshot and save of a game: the rules' name for it;
* ``refs``: each side's name for it: the order in which that side came to know of it (-1: it does not), given
  when it is placed or revealed and never changed.  What a side is shown (its view, the options it is offered,
  the ``entity`` argument kind of the action layout, :mod:`dustup_env.codec`) names entities by its ref only,
  so nothing a side sees depends on the entities it may not know of (a global id would: a public entity placed
  after a hidden one would show the gap).  :func:`by_ref` finds the entity a side's ref names;
* ``kind``: one a rule declares (``Rule.entity_kinds``: name -> :class:`EntityKind`);
* ``owner``: the side it belongs to, or -1 (none: a wreck, a burning building);
* ``x``, ``y``: its position; ``shape``: None (a point) or ``{"shape": "circle", "r": ...}`` /
  ``{"shape": "polygon", "points": [[dx, dy], ...]}`` (offsets from ``x``, ``y``);
* ``state``: the rule's plain data (a minefield's density, a building's occupants, a drone's altitude);
* ``known``: what each side may know of it: ``"public"`` (both sides), ``"owner"`` (its owner only; an entity
  with no owner known as ``"owner"`` is known to neither side) or ``"revealed"`` (once owner only, now known to
  both: :func:`reveal`); ``refs`` follows it.

Entities are copied, snapshotted, saved (a save replays them) and digested with the rest of the state.  A side's
view (``game.view(side)``) lists only those it may know (:func:`known_entities`); the state digests of games
without entities are those of before.

**Locations** (``Unit.location``): where a unit is, one field: ``"table"``, or off it: ``"routed_off"``,
``"merged"``, ``"evacuated"``; a rule registers more (:func:`register_location`).  The old flags
(``u.routed_off``, ``u.merged``, ``u.evacuated``) read it (see :mod:`.entities`).

**Moving a unit** (:func:`place`): every change of a unit's position goes through it.  A move that is not a
walk (a dismount, an occupation, an arrival, a regroup, a placement) runs the rule set's ``move_step`` hooks for
the step from where the unit was to where it is put: a hook sees it as it sees a walk's step (a minefield under
the point reached).  A placement is not a walk: it cannot be stopped part-way, so a hook's "stop" is returned to
the caller, and the ``move_step`` reaction window (which pauses a resumable walk) does not open.  A walk runs the
point itself at every step (:mod:`dustup_env.rules.unit_actions.move_action`) and places the unit with
``point=False``; so do a passenger carried with its vehicle, a new leader's figure marking the unit, and the
game's set-up.
"""
from __future__ import annotations

from dataclasses import dataclass

from .battlefield import AIRBORNE_LOCATIONS
from .errors import ScenarioError
from .terrain import inside_polygon

MAX_ENTITIES = 32  # entities a game holds (the codec's ``entity`` slots: one per ref a side may have)
KNOWN = ("public", "owner", "revealed")


@dataclass(frozen=True, slots=True)
class EntityKind:
    """A kind of table entity a rule declares: its doc and what each side may know of a new one by default."""

    doc: str = ""
    known: str = "public"  # "public" | "owner" (see the module docstring)


# ---------------------------------------------------------------------------------------------- entities
def add(game, kind: str, x: float, y: float, owner: int = -1, shape: dict | None = None,
        state: dict | None = None, known: str | None = None) -> int:
    """Put a new entity of ``kind`` on the table; its id."""
    kinds = game.rules.entity_kinds
    k = kinds.get(kind)
    if k is None:
        raise ScenarioError(f"table entity: unknown kind {kind!r} (known: {', '.join(kinds) or 'none'})")
    if owner not in (-1, 0, 1) or isinstance(owner, bool):
        raise ScenarioError(f"table entity: the owner is 0, 1 or -1 (none), not {owner!r}")
    known = k.known if known is None else known
    if known not in KNOWN:
        raise ScenarioError(f"table entity: known is one of {', '.join(KNOWN)}, not {known!r}")
    if shape is not None and shape.get("shape") not in ("circle", "polygon"):
        raise ScenarioError(f"table entity: shape must be a circle or a polygon, not {shape!r}")
    if len(game.entities) >= MAX_ENTITIES:
        raise ScenarioError(f"a game holds at most {MAX_ENTITIES} table entities")
    eid = len(game.entities)
    e = {"id": eid, "kind": kind, "owner": owner, "x": float(x), "y": float(y),
         "shape": dict(shape) if shape else None, "state": dict(state) if state else {}, "known": known,
         "refs": [-1, -1], "removed": False}
    for side in (0, 1):
        if known != "owner" or owner == side:
            e["refs"][side] = _next_ref(game, side)
    game.entities.append(e)
    game.invalidate()
    return eid


def _next_ref(game, side: int) -> int:
    return sum(1 for e in game.entities if e["refs"][side] >= 0)


def remove(game, eid: int) -> None:
    """Take an entity off the table (its id stays taken)."""
    game.entities[eid]["removed"] = True
    game.invalidate()


def reveal(game, eid: int) -> None:
    """An owner-only entity becomes known to both sides."""
    e = game.entities[eid]
    if e["known"] == "owner":
        e["known"] = "revealed"
        for side in (0, 1):
            if e["refs"][side] < 0:
                e["refs"][side] = _next_ref(game, side)
        game.invalidate()


def knows(e: dict, side: int) -> bool:
    """Whether ``side`` may know of the entity ``e``."""
    return e["refs"][side] >= 0


def ref(e: dict, side: int) -> int:
    """``side``'s name for the entity ``e`` (-1: it may not know of it)."""
    return e["refs"][side]


def by_ref(game, side: int, r: int) -> dict | None:
    """The entity that ``side`` knows as ``r`` (None: none, or it is off the table)."""
    for e in game.entities:
        if e["refs"][side] == r and not e["removed"]:
            return e
    return None


def known_refs(game, side: int) -> tuple:
    """The refs of the entities on the table that ``side`` may know of, in order."""
    return tuple(sorted(e["refs"][side] for e in game.entities if e["refs"][side] >= 0 and not e["removed"]))


def plain_copy(v):
    """A copy of plain data (dicts and lists all the way down), so a view never shares the state's lists."""
    if isinstance(v, dict):
        return {k: plain_copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain_copy(x) for x in v]
    return v


def known_entities(game, side: int) -> list[dict]:
    """What ``side`` may know of the entities on the table, in the order it came to know them: each by its ref
    (never the id, nor the other side's ref)."""
    out = []
    for e in sorted((e for e in game.entities if e["refs"][side] >= 0 and not e["removed"]),
                    key=lambda e: e["refs"][side]):
        out.append({"ref": e["refs"][side], "kind": e["kind"], "owner": e["owner"], "x": e["x"], "y": e["y"],
                    "shape": plain_copy(e["shape"]) if e["shape"] else None, "state": plain_copy(e["state"]),
                    "known": e["known"]})
    return out


def entities_of(game, kind: str) -> list[dict]:
    """The entities of ``kind`` on the table (the rules' own access: every one, known or not)."""
    return [e for e in game.entities if e["kind"] == kind and not e["removed"]]


def contains(e: dict, x: float, y: float) -> bool:
    """Whether the point (x, y) lies in the entity's shape (a point entity: within 0.5")."""
    dx, dy = x - e["x"], y - e["y"]
    s = e["shape"]
    if s is None:
        return dx * dx + dy * dy <= 0.25
    if s["shape"] == "circle":
        return dx * dx + dy * dy <= s["r"] * s["r"]
    return inside_polygon(s["points"], dx, dy)


# ---------------------------------------------------------------------------------------------- locations
TABLE = "table"
# every location a unit may have: the kernel's, and those rules register.  A unit anywhere but on the table is out
# of play (``Unit.in_play``); a reinforcement's box (``Unit.inbound``) and a passenger's vehicle (``Unit.carrier``)
# are fields of their own (they carry a number)
LOCATIONS = {TABLE, "routed_off", "merged", "evacuated"}


def register_location(name: str, airborne: bool = False) -> str:
    """Declare a location off the table that a rule puts units in (e.g. an aircraft's ``"loiter"`` box); returns
    the name (registering it again is harmless).  ``airborne``: a unit there looks as an airborne observer
    (``battlefield.observer_of``: the terrain does not stop its line of sight, smoke does, RN-175)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a location is a name such as 'loiter', not {name!r}")
    LOCATIONS.add(name)
    if airborne:
        AIRBORNE_LOCATIONS.add(name)
    return name


# ---------------------------------------------------------------------------------------------- moving a unit
def place(game, u, x: float, y: float, reason: str, point: bool = True) -> bool:
    """Put ``u`` at (x, y) (``reason``: what moved it, e.g. ``"dismount"``, ``"regroup"``).  With ``point`` (not a
    walk, which ran the point at each of its steps), the rule set's ``move_step`` hooks run for the step from
    where it was: returns True if a hook would stop the mover there (the unit stays placed: see the module
    docstring)."""
    x0, y0 = u.x, u.y
    u.x, u.y = x, y
    if not point:
        return False
    hooks = game.rules.move_step
    if not hooks or (x0 == x and y0 == y):
        return False
    stop = False
    for h in hooks:
        if h(game, u, x0, y0, x, y):
            stop = True
    return stop
