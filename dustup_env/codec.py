"""ActionCodec: engine option tuples <-> flat ``Discrete(N)`` action indices.

The layout is FIXED (independent of the game state and of the scenario, given ``MAX_UNITS`` and
``MAX_MARKERS``).  It is declared as a list of option *families* (:data:`FAMILIES`): each family is
an option name and the kinds of its arguments; its block of indices is the product of the argument
sizes.  Argument kinds:

=========  ======================================================================================
``own``    a unit of the acting side: slot = position of the uid in ``game.side_units[side]``
``enemy``  a unit of the other side: slot = position in ``game.side_units[1 - side]``
``dir``    a 16-point compass direction (mirrored for a flipped side, see below)
``dist``   an index into ``move_action.DISTANCES``
``mode``   a fire mode name from ``shoot_action.FIRE_MODES``
``marker`` a hidden-unit marker: slot = index in ``game.markers`` (``MAX_MARKERS`` slots)
a tuple    an enumeration of literal values (e.g. the reorganise tasks)
=========  ======================================================================================

Index 0 is shared: ``("pass",)`` in activate decisions, ``("end",)`` otherwise.  The first 159
indices (the firefight vocabulary) are unchanged; the close assault, command, detachment, medical,
detection and initiative options follow, then the assault and casualty group (326..355) and the shooting
and reorganise group (356..475)
(see ``docs/observation.md`` and ``action_name``).  Families are only ever appended.

Mirroring: every side sees its home edge at the bottom.  A side whose home edge is ``north`` (and,
for west/east scenarios, side 1) sees the table flipped vertically (``y -> height - y``).  Move
directions are then mirrored the same way: engine direction ``d`` (0 = north (+y), clockwise in 16
steps) is encoded as ``d' = (8 - d) % 16`` for a flipped side (the map is its own inverse), so
index "move north" always means "towards the enemy's side of the table" from the learner's view.
"""
from __future__ import annotations

import itertools

import numpy as np

from .rules import IllegalOptionError
from .rules.unit_actions.move_action import DIRECTIONS, DISTANCES
from .rules.unit_actions.reorganise_placement import FORMATIONS
from .rules.unit_actions.shoot_action import FIRE_MODES, SUPPORT_SLOTS, THROWS

MAX_UNITS = 12
MAX_MARKERS = 24
N_DIST = len(DISTANCES)
N_MODES = len(FIRE_MODES)
REORGANISE = ("conceal", "reveal", "rearrange", "leader")
REORGANISE_MORE = ("column", "tactical", "mount", "dismount", "extract", "assume_command", "task")
DETACH = ("half", "support", "scout")
REORGANISE_CASUALTY = ("recover_wounded", "hide")  # the assault and casualty group: more reorganise actions

# (name, argument kinds); "end"/"pass" is index 0 and not listed.
FAMILIES: tuple = (
    ("first", ()), ("second", ()),
    ("activate", ("own",)),
    ("prop", ()), ("unprop", ()), ("recover", ()), ("withdraw", ()),
    ("reorganise", (REORGANISE,)),
    ("move", ("dir", "dist")),
    ("shoot", ("enemy", "mode")),
    # --- the rest of infantry Dustup ---------------------------------------------------------
    ("reorganise", (REORGANISE_MORE,)),
    ("assault", ("enemy",)),            # Assault Action: declare a close assault on an enemy unit
    ("stand", ()),                      # the defender stands and takes the courage test
    ("occupy", ()),                     # the attacker occupies the withdrawn defender's position (house: either side)
    ("contact", ()),                    # the attacker (first or second move) attempts to contact
    ("halt", ()),                       # the attacker gives up the second move to contact (house: no occupy/pursuit)
    ("fire", ("mode",)),                # final defensive fire with these weapons
    ("hold_fire", ()),                  # no final defensive fire
    ("resolve", ("enemy",)),            # which pairing of a multiple-unit combat is resolved next
    ("order", ("own",)),                # Order Action: (re)activate a subordinate
    ("rally", ("own",)),                # Rally Action
    ("combined_assault", ("enemy",)),   # a commander orders two subordinates to assault this unit
    ("choose", ("own",)),               # pick a unit of one's own (e.g. the units of a combined assault)
    ("detach", (DETACH,)),              # Detach Element Action
    ("activate_detachment", ("own",)),  # the parent's leader activates its detachment
    ("regroup", ("own",)),              # Regroup Action with this unit
    ("treat", ("own",)),                # Medical Treatment Action on this unit
    ("detect", ("marker",)),            # Detect Action on a hidden-unit marker
    ("panic_test", ()),                 # a panicking unit's activation: both actions test
    ("seize", ("own",)),                # Seize the Initiative: activate this unit out of sequence
    ("decline", ()),                    # do not seize the initiative
    # --- assaults and casualties -------------------------------------------------------------
    ("add_defender", ("enemy",)),       # assault declaration: add another defender to the same assault
    ("defenders_chosen", ()),           # assault declaration / follow-up: no more units to add
    ("follow", ("enemy",)),             # several defenders withdrew: continue the assault on this one (house: pursue)
    ("split_special", ()),              # Special Close Combat Weapons: their figures fight as a detachment
    ("no_split", ()),                   # ... or stay in the unit's strike pool (the unit's impact)
    ("abandon", ()),                    # Moving Casualties: leave the unit's wounded where they lie
    ("reorganise", (REORGANISE_CASUALTY,)),  # pick up wounded left on the table; become hidden again
    # --- shooting and reorganising ---------------------------------------------------------
    ("shoot_weapon", ("enemy", tuple(range(SUPPORT_SLOTS)))),  # fire the unit's k-th support-weapon figure alone
    ("throw", ("enemy", THROWS)),       # grenades thrown singly: one thrower and the rest, one alone, a specialist one
    ("reorganise", (("place",),)),      # Reorganise Action: place the figures (the leader, then the formation)
    ("stay", ()),                       # placement: the leader stays where it is
    ("shift", ("dir",)),                # placement: the leader moves 2" in this direction (mirrored like moves)
    ("formation", (FORMATIONS,)),       # placement: the figures take this formation around the leader
    ("evacuate", ()),                   # Casualty Evacuation: a detachment carries its wounded off its home edge
    ("inbound", ("own",)),              # The Inbound Chart: move this reinforcement's counter one box (activate decision)
)

_SIZE = {"own": MAX_UNITS, "enemy": MAX_UNITS, "dir": DIRECTIONS, "dist": N_DIST, "mode": N_MODES,
         "marker": MAX_MARKERS}


def _arg_size(kind) -> int:
    return len(kind) if isinstance(kind, tuple) else _SIZE[kind]


# block start of each family (a family name may have several blocks, e.g. "reorganise")
_BLOCKS: list = []  # (start, name, kinds, size)
_n = 1
for _name, _kinds in FAMILIES:
    _size = 1
    for _k in _kinds:
        _size *= _arg_size(_k)
    _BLOCKS.append((_n, _name, _kinds, _size))
    _n += _size
N_ACTIONS = _n

END = PASS = 0
FIRST = 1
SECOND = 2
ACTIVATE0 = 3
PROP = ACTIVATE0 + MAX_UNITS  # 15
UNPROP = PROP + 1
RECOVER = PROP + 2
WITHDRAW = PROP + 3
REORG0 = PROP + 4  # 19..22
MOVE0 = REORG0 + len(REORGANISE)  # 23
SHOOT0 = MOVE0 + DIRECTIONS * N_DIST  # 87
assert [b[0] for b in _BLOCKS[:7]] == [FIRST, SECOND, ACTIVATE0, PROP, UNPROP, RECOVER, WITHDRAW]
assert _BLOCKS[8][0] == MOVE0 and _BLOCKS[9][0] == SHOOT0


def mirror_direction(d: int) -> int:
    """Vertical mirror of a 16-point compass direction (0 = north, clockwise): d -> (8 - d) % 16."""
    return (DIRECTIONS // 2 - d) % DIRECTIONS


def side_flips(game, side: int) -> bool:
    """True when ``side`` sees the table vertically flipped (its home edge is north)."""
    edge = game.home_edges[side]
    if edge == "north":
        return True
    if edge == "south":
        return False
    return side == 1  # west/east scenarios: only side 1 is mirrored (documented limitation)


def action_name(a: int) -> str:
    """Human-readable name of an index (in the acting side's mirrored frame)."""
    a = int(a)
    if a == 0:
        return "end/pass"
    for start, name, kinds, size in _BLOCKS:
        if start <= a < start + size:
            off = a - start
            parts = []
            for k in reversed(kinds):
                n = _arg_size(k)
                off, r = divmod(off, n)
                if isinstance(k, tuple):
                    parts.append(str(k[r]))
                elif k == "dist":
                    parts.append(f"{DISTANCES[r]:g}in")
                elif k == "mode":
                    parts.append(FIRE_MODES[r])
                elif k == "dir":
                    parts.append(f"dir {r} (mirrored frame)")
                else:
                    parts.append(f"{k} slot {r}")
            return " ".join([name] + parts[::-1])
    return f"out of range ({a})"


class _Tables:
    """Per-(game, side) lookup tables: option tuple -> index and index -> option (kind-dependent slot 0)."""

    __slots__ = ("enc", "dec", "key", "ids")

    def __init__(self, game, side: int, key, base: "_Tables | None" = None):
        own, enemy = game.side_units[side], game.side_units[1 - side]
        if len(own) > MAX_UNITS or len(enemy) > MAX_UNITS:
            raise ValueError(f"the codec supports at most {MAX_UNITS} units per side")
        markers = getattr(game, "markers", ())
        if len(markers) > MAX_MARKERS:
            raise ValueError(f"the codec supports at most {MAX_MARKERS} hidden-unit markers")
        flip = side_flips(game, side)
        values = {"own": tuple(own), "enemy": tuple(enemy), "marker": tuple(range(len(markers)))}
        counts = (len(own), len(enemy), len(markers))
        if base is None:
            enc: dict[tuple, int] = {("end",): END, ("pass",): PASS}
            dec: list = [None] * N_ACTIONS
            entries = _template(*counts, flip)
        else:
            # units (detachments, reinforcements) and markers are only ever appended, so every slot of the base
            # layout keeps its id: add just the options that name one of the new slots
            enc = dict(base.enc)
            dec = list(base.dec)
            entries = _template_delta(base.key, counts, flip)
        for name, argspec, idx in entries:
            # argspec: per argument, (kind, slot) for unit/marker kinds (mapped to ids here) or (None, value)
            opt = (name,) + tuple(v if k is None else values[k][v] for k, v in argspec)
            enc[opt] = idx
            dec[idx] = opt
        self.enc = enc
        self.dec = dec
        self.key = counts
        self.ids = (values["own"], values["enemy"])


_TABLE_CACHE: dict = {}
_FULL: dict = {}


def _full_template(flip: bool) -> list:
    """Every option of the layout at the maximum counts as (name, argspec, index, need), unit ids left as slots;
    ``need`` = the (own, enemy, marker) counts the entry needs (its highest slot + 1 per kind).  Built once per
    mirroring; a layout's entries are those whose ``need`` its counts meet."""
    t = _FULL.get(flip)
    if t is not None:
        return t
    t = []
    for start, name, kinds, size in _BLOCKS:
        if not kinds:
            t.append((name, (), start, (0, 0, 0)))
            continue
        axes = []
        for k in kinds:
            if isinstance(k, tuple):
                axes.append([(slot, (None, v)) for slot, v in enumerate(k)])
            elif k in ("own", "enemy", "marker"):
                axes.append([(slot, (k, slot)) for slot in range(_arg_size(k))])
            elif k == "mode":
                axes.append([(slot, (None, v)) for slot, v in enumerate(FIRE_MODES)])
            else:  # dir, dist: the value is the slot
                axes.append([(slot, (None, slot)) for slot in range(_arg_size(k))])
        for combo in itertools.product(*axes):
            idx = 0
            need = [0, 0, 0]
            for (slot, (kind, _)), k in zip(combo, kinds):
                if k == "dir" and flip:
                    slot = mirror_direction(slot)
                idx = idx * _arg_size(k) + slot
                if kind is not None:
                    j = ("own", "enemy", "marker").index(kind)
                    need[j] = max(need[j], slot + 1)
            t.append((name, tuple(a for _, a in combo), start + idx, tuple(need)))
    _FULL[flip] = t
    return t


def _template(n_own: int, n_enemy: int, n_markers: int, flip: bool) -> list:
    """The (name, argspec, index) entries of a layout with these counts."""
    return [e[:3] for e in _full_template(flip) if e[3][0] <= n_own and e[3][1] <= n_enemy and e[3][2] <= n_markers]


def _template_delta(old: tuple, new: tuple, flip: bool) -> list:
    """The entries of ``_template(*new, flip)`` that need a slot beyond the counts ``old`` (per kind)."""
    key = (old, new, flip)
    t = _DELTAS.get(key)
    if t is None:
        o0, o1, o2 = old
        n0, n1, n2 = new
        t = _DELTAS[key] = [e[:3] for e in _full_template(flip) if e[3][0] <= n0 and e[3][1] <= n1 and e[3][2] <= n2
                            and (e[3][0] > o0 or e[3][1] > o1 or e[3][2] > o2)]
    return t


_DELTAS: dict = {}  # bounded: counts are at most MAX_UNITS, MAX_UNITS, MAX_MARKERS


class ActionCodec:
    """Maps a game's option tuples to and from the fixed flat index layout (see module docstring).

    ``encode(game, side, option)`` / ``decode(game, side, action, kind=None)`` / ``mask(game, decision)``.
    Lookup tables are built once per game and rebuilt when units (detachments) or markers are added.
    """

    n = N_ACTIONS

    def __init__(self):
        self._game = None
        self._tables: list = [None, None]

    def _t(self, game, side: int) -> _Tables:
        if game is not self._game:
            self._game = game
            self._tables = [None, None]
        own, enemy = game.side_units[side], game.side_units[1 - side]
        key = (len(own), len(enemy), len(getattr(game, "markers", ())))
        t = self._tables[side]
        if t is None or t.key != key:
            # the tables depend only on the unit ids, the marker count and the mirroring: the first layout of a
            # scenario is shared by all its games; a layout grown by a detachment or a marker extends the
            # previous tables with the options naming the new slots (units and markers are only appended)
            if t is not None and all(a <= b for a, b in zip(t.key, key)) \
                    and tuple(own[:t.key[0]]) == t.ids[0] and tuple(enemy[:t.key[1]]) == t.ids[1]:
                t = _Tables(game, side, key, base=t)
            else:
                gkey = (tuple(own), tuple(enemy), key[2], side_flips(game, side))
                t = _TABLE_CACHE.get(gkey)
                if t is None:
                    if len(_TABLE_CACHE) > 64:
                        _TABLE_CACHE.clear()
                    t = _TABLE_CACHE[gkey] = _Tables(game, side, key)
            self._tables[side] = t
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
        if not 0 <= a < N_ACTIONS:
            raise IllegalOptionError(f"action {a} is out of range: the action space is Discrete({N_ACTIONS})")
        if a == 0:
            if kind is None:
                kind = "action" if game.over else game.decision().kind
            return ("pass",) if kind == "activate" else ("end",)
        opt = self._t(game, side).dec[a]
        if opt is None:
            raise IllegalOptionError(f"action {a} ({action_name(a)}) names no unit in this scenario for side {side}")
        return opt

    def indices(self, game, decision) -> list[int]:
        enc = self._t(game, decision.side).enc
        try:
            return [enc[o] for o in decision.options]
        except KeyError as e:
            raise IllegalOptionError(f"legal option {e.args[0]!r} has no action index: extend codec.FAMILIES") from None

    def mask(self, game, decision, out: np.ndarray | None = None) -> np.ndarray:
        """Boolean mask of the decision's legal options (exactly those, no more)."""
        if out is None:
            out = np.zeros(N_ACTIONS, dtype=bool)
        else:
            out[:] = False
        out[np.array(self.indices(game, decision), dtype=np.intp)] = True  # (an index array: faster than a list)
        return out
