"""ActionCodec: engine option tuples <-> flat ``Discrete(N)`` action indices.

The layout is FIXED (independent of the game state, given its unit slots and ``MAX_MARKERS``).  A scenario
whose sides field at most 12 units each gets 12 unit slots a side (:data:`LAYOUT`, the layout trained policies
know), a larger one (up to 32 a side: a company) 32 (:data:`COMPANY_LAYOUT`); see
:mod:`dustup_env.rules.kernel.limits` and :func:`layout_for_game`.  It is made of the option *families* the rules declare (``Rule.families``, each a
:class:`~dustup_env.rules.kernel.ruleset.Family`: an option name, the kinds of its arguments and its
``order``, its place in the layout): the kernel's (first, second, activate) and those of every rule of
the standard catalogue, in order.  Each family's block of indices is the product of its argument sizes.
Argument kinds:

=========  ======================================================================================
``own``    a unit of the acting side: slot = position of the uid in ``game.side_units[side]`` (12 or 32 slots)
``enemy``  a unit of the other side: slot = position in ``game.side_units[1 - side]``
``dir``    a 16-point compass direction (mirrored for a flipped side, see below)
``dist``   an index into ``move_action.DISTANCES``
``mode``   a fire mode name from ``shoot_action.FIRE_MODES``
``marker`` a hidden-unit marker: slot = index in ``game.markers`` (``MAX_MARKERS`` slots)
``point``  a place on the table: one of the cells of ``measurement.POINT_GRID`` (mirrored for a flipped
           side); the option carries the cell's centre as two numbers, x then y
           (``measurement.grid_points``), so a rule that offers places offers those points
``entity`` a table entity that is not a unit (``kernel.table``): slot = the acting side's ref for it (the
           order in which it came to know of it; ``table.MAX_ENTITIES`` slots), the option carries the ref; a
           side's tables name only the entities on the table it may know of (another slot decodes to nothing, as
           a slot beyond the game's units does).  Used by ``fight_fire`` (Additional Rules › Fire) and the
           buildings' ``fire_building``
a tuple    an enumeration of literal values (e.g. the reorganise tasks)
=========  ======================================================================================

Index 0 is shared: ``("pass",)`` in activate decisions, ``("end",)`` otherwise.  Families are only ever
appended (a new family takes the next ``order``), so every index keeps its meaning for trained policies
(see ``docs/observation.md`` and ``action_name``).  A game whose rule set adds families of its own (a rule
outside the catalogue) gets a :class:`Layout` of its own: ``ActionCodec(Layout.of(rules))``.

Mirroring: every side sees its home edge at the bottom.  A side whose home edge is ``north`` (and,
for west/east scenarios, side 1) sees the table flipped vertically (``y -> height - y``).  Move
directions are then mirrored the same way: engine direction ``d`` (0 = north (+y), clockwise in 16
steps) is encoded as ``d' = (8 - d) % 16`` for a flipped side (the map is its own inverse), so
index "move north" always means "towards the enemy's side of the table" from the learner's view.
"""
from __future__ import annotations

import itertools

import numpy as np

from .rules import Game, IllegalOptionError
from .rules.kernel import game as _kernel
from .rules.kernel.limits import COMPANY_SLOTS, MAX_MARKERS, PLATOON_SLOTS, unit_slots
from .rules.kernel.measurement import POINT_GRID, grid_points
from .rules.kernel.table import MAX_ENTITIES, known_refs
from .rules.unit_actions.move_action import DIRECTIONS, DISTANCES
from .rules.unit_actions.shoot_action import FIRE_MODES

MAX_UNITS = PLATOON_SLOTS  # unit slots a side of the standard layout (COMPANY_SLOTS in the company layout)
N_DIST = len(DISTANCES)
N_MODES = len(FIRE_MODES)
N_POINTS = POINT_GRID[0] * POINT_GRID[1]
SLOT_KINDS = ("own", "enemy", "marker", "point", "entity")  # argument kinds whose slot maps to a per-game value

_SIZE = {"own": MAX_UNITS, "enemy": MAX_UNITS, "dir": DIRECTIONS, "dist": N_DIST, "mode": N_MODES,
         "marker": MAX_MARKERS, "point": N_POINTS, "entity": MAX_ENTITIES}


def arg_size(kind, units: int = MAX_UNITS) -> int:
    """The number of values of an argument kind (a tuple: its length) in a layout of ``units`` slots a side."""
    if isinstance(kind, tuple):
        return len(kind)
    return units if kind in ("own", "enemy") else _SIZE[kind]


def rule_families(rules) -> tuple:
    """The kernel's families and those of ``rules``, in layout order (each name/arguments once)."""
    seen, out = {}, []
    for f in list(_kernel.FAMILIES) + [f for r in rules for f in r.families]:
        key = (f.name, f.args)
        if key in seen:
            if seen[key] != f.order:
                raise ValueError(f"option family {f.name} {f.args} is declared with two orders")
            continue
        seen[key] = f.order
        out.append(f)
    out.sort(key=lambda f: f.order)
    orders = [f.order for f in out]
    if len(set(orders)) != len(orders):
        raise ValueError(f"two option families share an order: {orders}")
    return tuple(out)


class Layout:
    """The blocks of indices of a list of families (see the module docstring)."""

    def __init__(self, families, units: int = MAX_UNITS):
        self.families = tuple(families)
        self.units = int(units)  # unit slots a side
        self.blocks: list = []  # (start, name, kinds, size); a name may have several blocks
        n = 1
        for f in self.families:
            size = 1
            for k in f.args:
                size *= arg_size(k, units)
            self.blocks.append((n, f.name, f.args, size))
            n += size
        self.n = n
        self.entities = any("entity" in f.args for f in self.families)  # a family names table entities
        self._full: dict = {}
        self._need_arrays: dict = {}
        self._deltas: dict = {}

    @classmethod
    def of(cls, rules, units: int = MAX_UNITS) -> "Layout":
        return cls(rule_families(rules), units)

    def full_template(self, flip: bool) -> list:
        """Every option of the layout at the maximum counts as (name, argspec, index, need), unit ids, markers and
        points left as slots; ``need`` = the (own, enemy, marker, entity) counts the entry needs (its highest slot + 1
        per kind).  Built once per mirroring; a layout's entries are those whose ``need`` its counts meet."""
        t = self._full.get(flip)
        if t is not None:
            return t
        t = []
        for start, name, kinds, size in self.blocks:
            if not kinds:
                t.append((name, (), start, (0, 0, 0, 0)))
                continue
            axes = []
            for k in kinds:
                if isinstance(k, tuple):
                    axes.append([(slot, (None, v)) for slot, v in enumerate(k)])
                elif k in SLOT_KINDS:
                    axes.append([(slot, (k, slot)) for slot in range(arg_size(k, self.units))])
                elif k == "mode":
                    axes.append([(slot, (None, v)) for slot, v in enumerate(FIRE_MODES)])
                else:  # dir, dist: the value is the slot
                    axes.append([(slot, (None, slot)) for slot in range(arg_size(k, self.units))])
            for combo in itertools.product(*axes):
                idx = 0
                need = [0, 0, 0, 0]
                for (slot, (kind, _)), k in zip(combo, kinds):
                    if flip and k == "dir":
                        slot = mirror_direction(slot)
                    elif flip and k == "point":
                        slot = mirror_point(slot)
                    idx = idx * arg_size(k, self.units) + slot
                    if kind in ("own", "enemy", "marker", "entity"):
                        j = ("own", "enemy", "marker", "entity").index(kind)
                        need[j] = max(need[j], slot + 1)
                t.append((name, tuple(a for _, a in combo), start + idx, tuple(need)))
        self._full[flip] = t
        return t

    def _needs(self, flip: bool) -> np.ndarray:
        """The ``need`` column of :meth:`full_template` as an (entries, 4) array (the filters below select on it)."""
        a = self._need_arrays.get(flip)
        if a is None:
            a = self._need_arrays[flip] = np.array([e[3] for e in self.full_template(flip)], dtype=np.int64
                                                   ).reshape(-1, 4)
        return a

    def template(self, n_own: int, n_enemy: int, n_markers: int, flip: bool, n_entities: int = 0) -> list:
        """The (name, argspec, index) entries of a layout with these counts."""
        full, need = self.full_template(flip), self._needs(flip)
        sel = (need[:, 0] <= n_own) & (need[:, 1] <= n_enemy) & (need[:, 2] <= n_markers) & (need[:, 3] <= n_entities)
        return [full[i][:3] for i in np.flatnonzero(sel).tolist()]

    def template_delta(self, old: tuple, new: tuple, flip: bool) -> list:
        """The entries of ``template(*new, flip)`` that need a slot beyond the counts ``old`` (per kind)."""
        key = (old, new, flip)
        t = self._deltas.get(key)
        if t is None:
            o0, o1, o2 = old
            n0, n1, n2 = new
            full, need = self.full_template(flip), self._needs(flip)
            sel = ((need[:, 0] <= n0) & (need[:, 1] <= n1) & (need[:, 2] <= n2) & (need[:, 3] == 0)
                   & ((need[:, 0] > o0) | (need[:, 1] > o1) | (need[:, 2] > o2)))
            t = self._deltas[key] = [full[i][:3] for i in np.flatnonzero(sel).tolist()]
        return t

    def action_name(self, a: int) -> str:
        """Human-readable name of an index (in the acting side's mirrored frame)."""
        a = int(a)
        if a == 0:
            return "end/pass"
        for start, name, kinds, size in self.blocks:
            if start <= a < start + size:
                off = a - start
                parts = []
                for k in reversed(kinds):
                    off, r = divmod(off, arg_size(k, self.units))
                    if isinstance(k, tuple):
                        parts.append(str(k[r]))
                    elif k == "dist":
                        parts.append(f"{DISTANCES[r]:g}in")
                    elif k == "mode":
                        parts.append(FIRE_MODES[r])
                    elif k == "dir":
                        parts.append(f"dir {r} (mirrored frame)")
                    elif k == "point":
                        parts.append(f"cell {r % POINT_GRID[0]},{r // POINT_GRID[0]} (mirrored frame)")
                    else:
                        parts.append(f"{k} slot {r}")
                return " ".join([name] + parts[::-1])
        return f"out of range ({a})"


LAYOUT = Layout.of(Game.standard_rules)  # the standard layout (every rule of the catalogue)
COMPANY_LAYOUT = Layout(LAYOUT.families, COMPANY_SLOTS)  # the same families with 32 unit slots a side
FAMILIES: tuple = tuple((f.name, f.args) for f in LAYOUT.families)  # (name, argument kinds), in layout order
N_ACTIONS = LAYOUT.n

END = PASS = 0
FIRST = 1
SECOND = 2
ACTIVATE0 = 3
PROP = ACTIVATE0 + MAX_UNITS  # 15
UNPROP = PROP + 1
RECOVER = PROP + 2
WITHDRAW = PROP + 3
REORG0 = PROP + 4  # 19..22
MOVE0 = REORG0 + 4  # 23: the four reorganise actions conceal, reveal, rearrange, leader
SHOOT0 = MOVE0 + DIRECTIONS * N_DIST  # 87
assert [b[0] for b in LAYOUT.blocks[:7]] == [FIRST, SECOND, ACTIVATE0, PROP, UNPROP, RECOVER, WITHDRAW]
assert LAYOUT.blocks[8][0] == MOVE0 and LAYOUT.blocks[9][0] == SHOOT0


def mirror_direction(d: int) -> int:
    """Vertical mirror of a 16-point compass direction (0 = north, clockwise): d -> (8 - d) % 16."""
    return (DIRECTIONS // 2 - d) % DIRECTIONS


def mirror_point(slot: int) -> int:
    """Vertical mirror of a point-grid cell (row i -> rows - 1 - i)."""
    cols, rows = POINT_GRID
    i, j = divmod(slot, cols)
    return (rows - 1 - i) * cols + j


def side_flips(game, side: int) -> bool:
    """True when ``side`` sees the table vertically flipped (its home edge is north)."""
    edge = game.home_edges[side]
    if edge == "north":
        return True
    if edge == "south":
        return False
    return side == 1  # west/east scenarios: only side 1 is mirrored (documented limitation)


def layout_for_game(game, base: Layout | None = None) -> Layout:
    """The action layout of ``game``: ``base``'s families (default: the standard layout's) with the game's unit
    slots (12 a side, or 32 when a side fields more than 12 units at the start; :func:`limits.unit_slots`)."""
    base = LAYOUT if base is None else base
    units = unit_slots(game.scenario)
    if units == base.units:
        return base
    if base.families == LAYOUT.families:
        return LAYOUT if units == LAYOUT.units else COMPANY_LAYOUT
    return Layout(base.families, units)


def action_name(a: int) -> str:
    """Human-readable name of an index of the standard layout (in the acting side's mirrored frame)."""
    return LAYOUT.action_name(a)


class _Tables:
    """Per-(game, side) lookup tables: option tuple -> index and index -> option (kind-dependent slot 0)."""

    __slots__ = ("enc", "dec", "key", "ids")

    def __init__(self, layout: Layout, game, side: int, key, base: "_Tables | None" = None):
        own, enemy = game.side_units[side], game.side_units[1 - side]
        if len(own) > layout.units or len(enemy) > layout.units:
            raise ValueError(f"this action layout has {layout.units} unit slots a side; the game has "
                             f"{max(len(own), len(enemy))} units on a side")
        markers = getattr(game, "markers", ())
        if len(markers) > MAX_MARKERS:
            raise ValueError(f"the codec supports at most {MAX_MARKERS} hidden-unit markers")
        flip = side_flips(game, side)
        known = key[3] if layout.entities else ()  # the refs of the table entities this side may know of
        values = {"own": tuple(own), "enemy": tuple(enemy), "marker": tuple(range(len(markers))),
                  "point": grid_points(game.bf.width, game.bf.height), "entity": tuple(range(MAX_ENTITIES))}
        counts = (len(own), len(enemy), len(markers))
        if base is None:
            enc: dict[tuple, int] = {("end",): END, ("pass",): PASS}
            dec: list = [None] * layout.n
            entries = layout.template(*counts, flip, known[-1] + 1 if known else 0)
        else:
            # units (detachments, reinforcements) and markers are only ever appended, so every slot of the base
            # layout keeps its id: add just the options that name one of the new slots
            enc = dict(base.enc)
            dec = list(base.dec)
            entries = layout.template_delta(base.key[:3], counts, flip)
        for name, argspec, idx in entries:
            # argspec: per argument, (kind, slot) for unit/marker/point kinds (mapped to values here) or (None, value);
            # a point is two values (its x and y)
            opt = [name]
            for k, v in argspec:
                if k == "entity" and v not in known:
                    break  # an entity this side may not know of: its slot names nothing
                if k is None:
                    opt.append(v)
                elif k == "point":
                    opt.extend(values[k][v])
                else:
                    opt.append(values[k][v])
            else:
                opt = tuple(opt)
                enc[opt] = idx
                dec[idx] = opt
        self.enc = enc
        self.dec = dec
        self.key = key
        self.ids = (values["own"], values["enemy"])


_TABLE_CACHE: dict = {}


class ActionCodec:
    """Maps a game's option tuples to and from the fixed flat index layout (see module docstring).

    ``encode(game, side, option)`` / ``decode(game, side, action, kind=None)`` / ``mask(game, decision)``.
    Lookup tables are built once per game and rebuilt when units (detachments) or markers are added.
    """

    def __init__(self, layout: Layout | None = None):
        self.layout = LAYOUT if layout is None else layout
        self.n = self.layout.n
        self._game = None
        self._tables: list = [None, None]

    @classmethod
    def for_game(cls, game) -> "ActionCodec":
        """A codec with ``game``'s layout (:func:`layout_for_game`: the standard one up to 12 units a side)."""
        return cls(layout_for_game(game))

    def _t(self, game, side: int) -> _Tables:
        if game is not self._game:
            self._game = game
            self._tables = [None, None]
        own, enemy = game.side_units[side], game.side_units[1 - side]
        key = (len(own), len(enemy), len(getattr(game, "markers", ())))
        if self.layout.entities:  # and the table entities the side may know of (never the others)
            key += (known_refs(game, side),)
        t = self._tables[side]
        if t is None or t.key != key:
            # the tables depend only on the unit ids, the marker count and the mirroring: shared by every game with
            # the same ones (the first layout of a scenario by all its games, a grown one by the games that grew the
            # same way); a layout grown by a detachment or a marker extends the previous tables with the options
            # naming the new slots (units and markers are only appended: the same tables as built afresh)
            gkey = (id(self.layout), tuple(own), tuple(enemy), key[2:], side_flips(game, side), game.bf.width,
                    game.bf.height)
            hit = _TABLE_CACHE.get(gkey)
            if hit is None:
                if len(_TABLE_CACHE) > 256:
                    _TABLE_CACHE.clear()
                # (a layout with entity families extends the tables only while the side knows of no entity)
                if t is not None and not any(t.key[3:]) and not any(key[3:]) \
                        and all(a <= b for a, b in zip(t.key[:3], key[:3])) \
                        and tuple(own[:t.key[0]]) == t.ids[0] and tuple(enemy[:t.key[1]]) == t.ids[1]:
                    hit = _Tables(self.layout, game, side, key, base=t)
                else:
                    hit = _Tables(self.layout, game, side, key)
                _TABLE_CACHE[gkey] = hit
            t = self._tables[side] = hit
        return t

    def encode(self, game, side: int, option) -> int:
        try:
            return self._t(game, side).enc[tuple(option)]
        except KeyError:
            raise IllegalOptionError(f"option {tuple(option)!r} has no action index for side {side}") from None

    def decode(self, game, side: int, action, kind: str | None = None):
        """The option tuple of ``action`` for ``side``.  Index 0 is ``("pass",)`` in activate decisions and
        ``("end",)`` otherwise; ``kind`` defaults to the pending decision's kind (``"action"`` once over)."""
        a = int(action)
        if not 0 <= a < self.n:
            raise IllegalOptionError(f"action {a} is out of range: the action space is Discrete({self.n})")
        if a == 0:
            if kind is None:
                kind = "action" if game.over else game.decision().kind
            return ("pass",) if kind == "activate" else ("end",)
        opt = self._t(game, side).dec[a]
        if opt is None:
            raise IllegalOptionError(f"action {a} ({self.layout.action_name(a)}) names no unit in this scenario for "
                                     f"side {side}")
        return opt

    def indices(self, game, decision) -> list[int]:
        enc = self._t(game, decision.side).enc
        try:
            return [enc[o] for o in decision.options]
        except KeyError as e:
            raise IllegalOptionError(f"legal option {e.args[0]!r} has no action index: declare its family "
                                     "(Rule.families)") from None

    def mask(self, game, decision, out: np.ndarray | None = None) -> np.ndarray:
        """Boolean mask of the decision's legal options (exactly those, no more)."""
        if out is None:
            out = np.zeros(self.n, dtype=bool)
        else:
            out[:] = False
        out[np.array(self.indices(game, decision), dtype=np.intp)] = True  # (an index array: faster than a list)
        return out
