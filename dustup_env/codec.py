"""ActionCodec: engine option tuples <-> flat ``Discrete(N)`` action indices.

The layout is FIXED (independent of the game state and of the scenario, given ``MAX_UNITS``):

=========  =====================================================================
index      option
=========  =====================================================================
0          ``("end",)`` in action decisions, ``("pass",)`` in activate decisions
1          ``("first",)``
2          ``("second",)``
3..14      ``("activate", uid)``: own-unit slot 0..11 (slot = position in ``game.side_units[side]``)
15         ``("prop",)``
16         ``("unprop",)``
17         ``("recover",)``
18         ``("withdraw",)``
19..22     ``("reorganise", x)`` for x = conceal, reveal, rearrange, leader
23..86     ``("move", d, k)``: ``23 + 4 * d' + k`` (16 directions d' x 4 distances k)
87..158    ``("shoot", uid, mode)``: ``87 + 6 * slot + m`` (enemy slot 0..11 x FIRE_MODES)
=========  =====================================================================

Mirroring: every side sees its home edge at the bottom.  A side whose home edge is ``north`` (and,
for west/east scenarios, side 1) sees the table flipped vertically (``y -> height - y``).  Move
directions are then mirrored the same way: engine direction ``d`` (0 = north (+y), clockwise in 16
steps) is encoded as ``d' = (8 - d) % 16`` for a flipped side (the map is its own inverse), so
index "move north" always means "towards the enemy's side of the table" from the learner's view.
"""
from __future__ import annotations

import numpy as np

from .rules import IllegalOptionError
from .rules.move_action import DIRECTIONS, DISTANCES
from .rules.shoot_action import FIRE_MODES

MAX_UNITS = 12
N_DIST = len(DISTANCES)
N_MODES = len(FIRE_MODES)
REORGANISE = ("conceal", "reveal", "rearrange", "leader")

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
N_ACTIONS = SHOOT0 + MAX_UNITS * N_MODES  # 159


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
    if a == FIRST:
        return "first"
    if a == SECOND:
        return "second"
    if ACTIVATE0 <= a < PROP:
        return f"activate own slot {a - ACTIVATE0}"
    if a in (PROP, UNPROP, RECOVER, WITHDRAW):
        return ("prop", "unprop", "recover", "withdraw")[a - PROP]
    if REORG0 <= a < MOVE0:
        return f"reorganise {REORGANISE[a - REORG0]}"
    if MOVE0 <= a < SHOOT0:
        d, k = divmod(a - MOVE0, N_DIST)
        return f"move dir {d} (mirrored frame) {DISTANCES[k]:g}in"
    if SHOOT0 <= a < N_ACTIONS:
        s, m = divmod(a - SHOOT0, N_MODES)
        return f"shoot enemy slot {s} mode {FIRE_MODES[m]}"
    return f"out of range ({a})"


class _Tables:
    """Per-(game, side) lookup tables: option tuple -> index and index -> option (kind-dependent slot 0)."""

    __slots__ = ("enc", "dec")

    def __init__(self, game, side: int):
        if len(game.side_units[side]) > MAX_UNITS or len(game.side_units[1 - side]) > MAX_UNITS:
            raise ValueError(f"the codec supports at most {MAX_UNITS} units per side")
        flip = side_flips(game, side)
        enc: dict[tuple, int] = {("end",): END, ("pass",): PASS, ("first",): FIRST, ("second",): SECOND,
                                 ("prop",): PROP, ("unprop",): UNPROP, ("recover",): RECOVER,
                                 ("withdraw",): WITHDRAW}
        for i, r in enumerate(REORGANISE):
            enc[("reorganise", r)] = REORG0 + i
        for slot, uid in enumerate(game.side_units[side]):
            enc[("activate", uid)] = ACTIVATE0 + slot
        for d in range(DIRECTIONS):
            dd = mirror_direction(d) if flip else d
            for k in range(N_DIST):
                enc[("move", d, k)] = MOVE0 + dd * N_DIST + k
        for slot, uid in enumerate(game.side_units[1 - side]):
            for m, mode in enumerate(FIRE_MODES):
                enc[("shoot", uid, mode)] = SHOOT0 + slot * N_MODES + m
        dec: list = [None] * N_ACTIONS
        for opt, i in enc.items():
            if i != 0:
                dec[i] = opt
        self.enc = enc
        self.dec = dec


class ActionCodec:
    """Maps a game's option tuples to and from the fixed flat index layout (see module docstring).

    ``encode(game, side, option)`` / ``decode(game, side, action, kind=None)`` / ``mask(game, decision)``.
    Lookup tables are built once per game (the codec remembers the last game it saw).
    """

    n = N_ACTIONS

    def __init__(self):
        self._game = None
        self._tables: list = [None, None]

    def _t(self, game, side: int) -> _Tables:
        if game is not self._game:
            self._game = game
            self._tables = [None, None]
        t = self._tables[side]
        if t is None:
            t = self._tables[side] = _Tables(game, side)
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
        return [enc[o] for o in decision.options]

    def mask(self, game, decision, out: np.ndarray | None = None) -> np.ndarray:
        """Boolean mask of the decision's legal options (exactly those, no more)."""
        if out is None:
            out = np.zeros(N_ACTIONS, dtype=bool)
        else:
            out[:] = False
        out[self.indices(game, decision)] = True
        return out
