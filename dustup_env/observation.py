"""The observation: what one side may know of a game, as a flat ``float32`` vector made of named pieces.

As OpenSpiel's observers do, the observation is a list of *pieces*, each with a name, a shape, the
names of its features (its last axis) and a writer; :class:`Observer` lays them out one after the
other in one flat tensor and gives a named view of each (``observer.dict["units"]`` has shape
``(24, 37)``).  Gymnasium (``Dustup-v0``), PettingZoo (``dustup_env.pettingzoo``) and OpenSpiel
(``dustup_env.openspiel``) all observe through :class:`Observer`.

The pieces are declared as the action families are: each an ``ObservationPiece`` (name, order, shape, features,
writer; :mod:`dustup_env.rules.kernel.ruleset`).  The environment declares its own (:data:`CORE_PIECES`), a rule
declares the pieces it adds (``Rule.observation``: the Armoured Dustup rules declare ``vehicles`` and
``heavy_weapons``), and a game's observation is those of its rule set laid out by order (:func:`pieces_for`):

=============  ============  =====  ============================================================
``units``      (24, 37)      0      own unit slots 0..11, then the enemy's (hidden enemy units: empty)
``globals``    (15,)         1      turn, actions, decision kind, initiative, counts, victory points
``objectives`` (6, 7)        2      objectives: place, value, who holds them
``terrain``    (5, 8, 12)    3      coarse terrain raster (the scenario's and the dynamic terrain)
``markers``    (24, 6)       4      hidden-unit markers (which of its own markers are real: owner only)
``vehicles``   (24, 30)      5      games with vehicles, heavy weapons, ECM or area protection only
``heavy_w...`` (24, 19)      6      the same games
``decision``   (85,)         7      the pending decision's kind (every kind) and the unit / entity it is about
``entities``   (32, 16)      8      the table entities the side may know of
=============  ============  =====  ============================================================

The first five are the layout the shipped ``ppo`` was trained on (:data:`LEGACY_LAYOUT`, 1,569 values; with the
armoured pieces 2,745); their values keep their indices in every layout, and a policy agent gives a model
trained on an older layout its pieces by name (:func:`project`).  A company-sized scenario (more than 12 units
on a side) has the same pieces with 32 unit slots a side.  docs/observation.md describes every feature.

Every side sees its home edge at the bottom (``codec.side_flips``).  An observer keeps caches per
(game, side): the static parts are written when it is pointed at another game or side, and per call
only what changed is rewritten (unit rows whose state changed, line of sight when a leader moved).
Everything written comes from what the side may know: own units fully, enemy units only when not
hidden, markers by position (and, for the owner, which unit they hide), entities the side may know of.
"""
from __future__ import annotations

import json
import math
from array import array
from operator import attrgetter

import numpy as np

from .codec import MAX_MARKERS, MAX_UNITS, side_flips
from .rules.armoured_dustup.heavy_weapons import HEAVY_FEATURES, HF  # noqa: F401
from .rules.armoured_dustup.heavy_weapons_observation import HEAVY_WEAPONS_PIECE
from .rules.armoured_dustup.vehicles import VEHICLE_FEATURES, VEHICLES_PIECE, VF  # noqa: F401
from .rules.kernel.limits import COMPANY_SLOTS, PLATOON_SLOTS, unit_slots
from .rules.kernel.ruleset import ObservationPiece
from .rules.kernel.table import MAX_ENTITIES
from .rules.kernel.battlefield import OBSTACLE_TYPES, RES, TERRAIN_TYPES
from .rules.kernel.entities import KILLED, OK, ROUTED
from .rules.kernel.knowledge import concealed  # what a side may know (hidden or mounted enemy units)
from .rules.rules_overview.victory import OBJECTIVE_RADIUS

MAX_OBJECTIVES = 6
GRID_W, GRID_H = 12, 8
KINDS = {"initiative": 0, "activate": 1, "action": 2, "seize": 1}  # decision kind -> one-hot (others: "action")
_VP_SCALE = 10.0


# ---------------------------------------------------------------------------------------------- pieces
class Piece:
    """One named part of the observation.

    Class attributes: ``name``, ``shape``, ``features`` (the names along the last axis, or ``None``) and
    ``needs`` (pieces whose ``write`` must run before this one's in the same observation: they leave
    shared facts on the observer).  The observer makes one instance per observer (instances keep caches)
    and calls ``start(obs, buf, off)`` when it is pointed at a game and side (the buffer is all zero
    then), ``write(obs, buf, off)`` for each observation (unless ``writes(obs)``, asked after ``start``, says it
    has nothing to write in that game).  ``buf`` is the observer's flat ``array('f')``
    and ``off`` the piece's first index; ``obs`` is the :class:`Observer` (``game``, ``side``, ``flip``,
    ``width``, ``height``, ``slots``, ``decision``, ``slot_rows``).  A declared piece (an ``ObservationPiece`` of
    the environment or of a rule) becomes a subclass through :func:`piece_class`.
    """

    name: str = ""
    shape: tuple = ()
    features: tuple | None = None
    needs: tuple = ()
    slots: int = MAX_UNITS  # unit slots a side of the layout the piece is in (12, or 32: :func:`with_slots`)
    per_slot: bool = False  # one row per unit slot (own slots, then the enemy's): shape (2 * slots, features)

    @classmethod
    def shape_for(cls, slots: int) -> tuple:
        """The piece's shape in a layout of ``slots`` unit slots a side."""
        return (2 * slots,) + tuple(cls.shape[1:]) if cls.per_slot else tuple(cls.shape)

    @classmethod
    def size(cls) -> int:
        n = 1
        for k in cls.shape:
            n *= k
        return n

    def start(self, obs: "Observer", buf: array, off: int) -> None:
        pass

    def write(self, obs: "Observer", buf: array, off: int) -> None:
        pass

    def writes(self, obs: "Observer") -> bool:
        """Whether :meth:`write` has anything to write in the game ``obs`` was just pointed at (asked after
        :meth:`start`; a piece that never does in that game costs nothing per observation)."""
        return True


# ---------------------------------------------------------------------------------------------- units
UNIT_FEATURES = (
    "present", "in_play", "x", "y", "able", "wounded", "killed", "suppression",
    "conf_confident", "conf_steady", "conf_shaken", "conf_broken", "conf_routed",
    "propped", "complete_concealment", "activated",
    "q_d4", "q_d6", "q_d8", "q_d10", "q_d12", "leadership",
    "in_cover", "cover", "conceals", "visible", "is_active", "leader_lost", "routed_off", "loose",
    "grenades", "movement", "fired", "small_target", "under_fire_before", "suppressed_before", "on_objective",
)
UF = len(UNIT_FEATURES)  # 37
_F = {n: i for i, n in enumerate(UNIT_FEATURES)}
# the feature offsets inside a unit row (bound to locals in the writer: no magic numbers)
_PRESENT, _IN_PLAY, _X, _Y, _ABLE, _WOUNDED, _KILLED, _SUPPRESSION = (_F[n] for n in UNIT_FEATURES[:8])
_CONF0, _PROPPED, _COMPLETE, _ACTIVATED = _F["conf_confident"], _F["propped"], _F["complete_concealment"], \
    _F["activated"]
_Q0, _LV, _IN_COVER, _COVER, _CONCEALS = _F["q_d4"], _F["leadership"], _F["in_cover"], _F["cover"], _F["conceals"]
_VISIBLE, _IS_ACTIVE, _LEADER_LOST, _ROUTED_OFF, _LOOSE = (_F[n] for n in ("visible", "is_active", "leader_lost",
                                                                           "routed_off", "loose"))
_GRENADES, _MOVEMENT, _FIRED, _SMALL, _UFB, _SB, _ON_OBJ = (_F[n] for n in UNIT_FEATURES[30:])
assert _CONF0 + 4 == _F["conf_routed"] and _Q0 + 4 == _F["q_d12"]

# the unit attributes a row shows (besides its figures, its activation marker and the number of weapons fired): the
# cache key of the row.  Every one is an immutable value (numbers, flags), so a stored key never changes behind our back.
_UNIT_KEY = attrgetter("x", "y", "suppression", "confidence", "propped", "complete_concealment",
                       "leader_lost", "location", "loose", "lv", "under_fire_before", "suppressed_before",
                       "inbound")  # (and the activation marker, the key's second item; the location holds the
#                                   routed-off and evacuated flags the row shows: a plain field, cheaper to read)
_STATUS = attrgetter("status")


class UnitsPiece(Piece):
    """Unit slots: the observing side's units in ``game.side_units[side]`` order (rows 0..11), then the
    enemy's (rows 12..23): the same slots as the action codec.  A hidden enemy unit is an all-zero row.

    Leaves on the observer: ``inplay``, ``unact`` (per side: units in play, not yet activated),
    ``lost`` (per side: units that count as lost), ``near`` (per side, per objective: units holding it) and
    ``totals_changed`` (set when ``lost`` or ``near`` changed; the objectives piece clears it)."""

    name = "units"
    shape = (2 * MAX_UNITS, UF)
    features = UNIT_FEATURES
    per_slot = True

    def start(self, obs, buf, off):
        self._off = off
        self._vis_key = None
        self._vis = None
        self._vis_written = None  # the visibility result whose flags are in the buffer
        self._pairs_bf = None  # the battlefield whose line-of-sight results ``_pairs`` holds
        self._pairs: dict = {}
        self._slots_game = None  # the game whose slots _slots laid out (the tensor was just zeroed: none)
        self._slots(obs, buf)

    def _slots(self, obs, buf):
        """Unit constants and slots (again whenever a detachment or a reinforcement adds a unit mid-game)."""
        g = obs.game
        me = obs.side
        off = self._off
        for side, base_slot in ((me, 0), (1 - me, self.slots)):
            for slot, uid in enumerate(g.side_units[side]):
                u = g.units[uid]
                o = off + (base_slot + slot) * UF
                buf[o + _PRESENT] = 1.0
                buf[o + _GRENADES] = 1.0 if u.grenades else 0.0
                buf[o + _MOVEMENT] = min(u.movement / 4.0, 1.0)
        # (unit, row offset, uid, side, enemy?) per slot: own units first, then the enemy's
        nu = self.slots
        slots = [(g.units[uid], off + (s * nu + k) * UF, uid, side, s == 1)
                 for s, side in enumerate((me, 1 - me)) for k, uid in enumerate(g.side_units[side])]
        n = len(slots)
        self._vis_units = None  # (own in play, enemy in play and not hidden), rebuilt when a vkey changes
        if self._slots_game is g and self._carried(slots):
            # units joined the same game (a detachment, a reinforcement): the slots of the others keep their rows,
            # caches and counts (a hidden row is zeroed again: the constants above were written into it)
            at = {x[1]: j for j, x in enumerate(self._unit_slots)}
            keep = [at.get(x[1]) for x in slots]
            cache = self._unit_cache
            self._unit_cache = [None if j is None or cache[j] == "hidden" else cache[j] for j in keep]
            self._contrib = [None if j is None else self._contrib[j] for j in keep]
            self._vkeys = [None if j is None else self._vkeys[j] for j in keep]
            self._unit_slots = slots
            return
        self._slots_game = g
        self._unit_slots = slots
        self._unit_cache = [None] * n
        # running totals over the slots, changed by the difference whenever a slot's contribution changes:
        # per slot (side, in play, unactivated, objectives it is near, counts as lost if not in play)
        self._contrib = [None] * n
        obs.inplay, obs.unact, obs.lost = [0, 0], [0, 0], [0, 0]
        obs.near = [[0] * len(g.objectives), [0] * len(g.objectives)]
        obs.totals_changed = True
        self._vkeys = [None] * n  # per slot (x, y, in play, hidden enemy): the visibility key
        self._active_written = -1  # the uid whose "active" flag is set in the buffer

    def _carried(self, slots: list) -> bool:
        """Every present slot is among ``slots`` at the same row with the same unit (units were only added)."""
        if len(slots) <= len(self._unit_slots):
            return False
        new = {x[1]: x for x in slots}
        for u, o, uid, _s, _e in self._unit_slots:
            y = new.get(o)
            if y is None or y[0] is not u or y[2] != uid:
                return False
        return True

    def _visibility(self, obs, key: list, mine: list, theirs: list) -> dict:
        """uid -> visible flag, cached on ``key`` (every unit's leader position, in-play and hidden flags).

        Enemy slot: seen from some own in-play leader; own slot: seen by some enemy in-play leader.  ``mine``:
        the own in-play units; ``theirs``: the enemy in-play units that are not hidden (hidden enemies are
        unknown).  Line of sight (``bf.sight(own, enemy).visible``) is symmetric (hills and woods depth do not
        depend on the direction), so each pair is queried once, in the own -> enemy direction the engine also
        uses, and a pair is skipped once both its units are known to be seen.
        """
        bf = obs.game.bf
        if key == self._vis_key and bf is self._pairs_bf:
            return self._vis
        if bf is not self._pairs_bf:  # line of sight depends only on the terrain (a new battlefield object whenever
            self._pairs_bf = bf  # the dynamic terrain changes: smoke, fire, rubble) and the two points
            self._pairs = {}
        pairs = self._pairs  # own uid * 1024 + enemy uid -> (ox, oy, ex, ey, visible): most pairs did not move
        sight = bf.sight
        # peek both directions first (the engine queries firer -> target); only the static battlefield's own cache:
        # under dynamic terrain ``bf.sight_cache`` is the ground's, lines that ignore the smoke, filled or not by
        # whatever this process asked before (the other side's choices, another game on the same terrain)
        cached = _no_cache if bf.dynamic else bf.sight_cache.get
        vis = {}
        for o in mine:
            ox, oy = o.x, o.y
            ok = o.uid * 1024
            seen = False
            for e in theirs:
                euid = e.uid
                if seen and euid in vis:
                    continue  # both already known to be seen
                ex, ey = e.x, e.y
                p = pairs.get(ok + euid)
                if p is not None and p[0] == ox and p[1] == oy and p[2] == ex and p[3] == ey:
                    visible = p[4]
                else:
                    visible = (cached((ox, oy, ex, ey)) or cached((ex, ey, ox, oy)) or sight(ox, oy, ex, ey)).visible
                    pairs[ok + euid] = (ox, oy, ex, ey, visible)
                if visible:
                    seen = True
                    vis[euid] = True
            vis[o.uid] = seen
        self._vis_key = list(key)  # a copy: the caller updates its list in place
        self._vis = vis
        return vis

    @staticmethod
    def _count(obs, c: tuple, sign: int) -> None:
        """Add (sign 1) or remove (sign -1) one slot's contribution to the running totals."""
        s, ip, ua, on, counts_lost = c
        if ip:
            obs.inplay[s] += sign
            if ua:
                obs.unact[s] += sign
            near = obs.near[s]
            for i in on:
                near[i] += sign
        elif counts_lost:
            obs.lost[s] += sign

    def write(self, obs, b, off, *,  # the feature offsets as keyword defaults: fast locals in the hot loop below
              PRESENT=_PRESENT, IN_PLAY=_IN_PLAY, X=_X, Y=_Y, ABLE=_ABLE, WOUNDED=_WOUNDED, KILLED_=_KILLED,
              SUPPRESSION=_SUPPRESSION, CONF0=_CONF0, PROPPED=_PROPPED, COMPLETE=_COMPLETE, ACTIVATED=_ACTIVATED,
              Q0=_Q0, LV=_LV, IN_COVER=_IN_COVER, COVER=_COVER, CONCEALS=_CONCEALS, VISIBLE=_VISIBLE,
              IS_ACTIVE=_IS_ACTIVE, LEADER_LOST=_LEADER_LOST, ROUTED_OFF=_ROUTED_OFF, LOOSE=_LOOSE, GRENADES=_GRENADES,
              MOVEMENT=_MOVEMENT, FIRED=_FIRED, SMALL=_SMALL, UFB=_UFB, SB=_SB, ON_OBJ=_ON_OBJ):
        g = obs.game
        bf = g.bf
        W, H = obs.width, obs.height
        flip = obs.flip
        active = g.active if g.phase == "action" else -1
        objs = g.objectives
        cell_of = bf.cell
        conceal_t, cover_t = bf.conceal_table, bf.cover_table
        r2 = OBJECTIVE_RADIUS * OBJECTIVE_RADIUS
        if len(self._unit_slots) != len(g.side_units[0]) + len(g.side_units[1]):
            self._slots(obs, b)  # a detachment joined the game
        cache = self._unit_cache
        contrib, vkeys = self._contrib, self._vkeys
        count = self._count
        zero_row = _ZERO_ROW
        vis_changed = False
        totals_changed = False
        for j, (u, o, uid, s, enemy) in enumerate(self._unit_slots):
            # concealed(u) (rules/kernel/knowledge.py defines it), inlined in this per-slot loop
            if enemy and (u.hidden or u.veh.carrier >= 0):  # a hidden enemy unit: an empty row (only its marker
                #                                          shows); so is a mounted one (passengers are not seen)
                if cache[j] != "hidden":
                    b[o:o + UF] = zero_row
                    cache[j] = "hidden"
                ip = u.in_play
                c = (s, ip, ip and not u.activated, (), False)  # counted in play, never as lost
                vk = (u.x, u.y, ip, True)
            else:
                act = u.activated
                # everything the row shows (C-level reads; the figures are immutable tuples, changed by replacing
                # them: a copy of the list compares by identity item by item, cheaper than reading their status)
                key = (_UNIT_KEY(u), act, len(u.fired), tuple(u.figures))
                old = cache[j]
                if old == key:
                    continue  # nothing this row shows or counts has changed
                if type(old) is tuple and old[0] == key[0] and old[2] == key[2] and old[3] == key[3]:
                    # only the activation marker (the commonest change): its flag and the unactivated count
                    b[o + ACTIVATED] = 1.0 if act else 0.0
                    cache[j] = key
                    s_, ip, _, on, lost = contrib[j]  # (in play and the objectives near are as written)
                    c = (s_, ip, ip and not act, on, lost)
                    if contrib[j] != c:
                        count(obs, contrib[j], -1)
                        count(obs, c, 1)
                        contrib[j] = c
                    continue
                st = list(map(_STATUS, u.figures))
                x, y = u.x, u.y
                c = u.confidence
                b[o + PRESENT] = 1.0
                b[o + GRENADES] = 1.0 if u.grenades else 0.0
                b[o + MOVEMENT] = min(u.movement / 4.0, 1.0)
                able = st.count(OK)
                killed = st.count(KILLED)
                wounded = len(st) - able - killed
                loc = u.location  # (its routed-off and evacuated flags)
                ip = able > 0 and loc != "routed_off" and loc != "evacuated" and not u.inbound  # = Unit.in_play
                b[o + IN_PLAY] = 1.0 if ip else 0.0
                b[o + X] = x / W
                b[o + Y] = (H - y) / H if flip else y / H
                b[o + ABLE] = able * 0.1 if able < 10 else 1.0
                b[o + WOUNDED] = wounded * 0.1 if wounded < 10 else 1.0
                b[o + KILLED_] = killed * 0.1 if killed < 10 else 1.0
                b[o + SUPPRESSION] = u.suppression / 3.0
                b[o + CONF0] = b[o + CONF0 + 1] = b[o + CONF0 + 2] = b[o + CONF0 + 3] = b[o + CONF0 + 4] = 0.0
                b[o + CONF0 + c] = 1.0
                b[o + PROPPED] = 1.0 if u.propped else 0.0
                b[o + COMPLETE] = 1.0 if u.complete_concealment else 0.0
                b[o + ACTIVATED] = 1.0 if u.activated else 0.0
                q = u.quality if u.quality < 4 else 4
                b[o + Q0] = b[o + Q0 + 1] = b[o + Q0 + 2] = b[o + Q0 + 3] = b[o + Q0 + 4] = 0.0
                b[o + Q0 + q] = 1.0
                b[o + LV] = u.lv / 3.0
                cell = cell_of(x, y)
                cv = cover_t[cell]
                cn = conceal_t[cell]
                b[o + IN_COVER] = 1.0 if (cn or cv > 0) else 0.0
                b[o + COVER] = cv * 0.5
                b[o + CONCEALS] = 1.0 if cn else 0.0
                b[o + IS_ACTIVE] = 1.0 if uid == active else 0.0
                b[o + LEADER_LOST] = 1.0 if u.leader_lost else 0.0
                b[o + ROUTED_OFF] = 1.0 if loc == "routed_off" else 0.0
                b[o + LOOSE] = 1.0 if u.loose else 0.0
                nf = len(st)
                b[o + FIRED] = len(u.fired) / nf if u.fired else 0.0
                b[o + SMALL] = 1.0 if u.kind == "single" else 0.0
                b[o + UFB] = 1.0 if u.under_fire_before else 0.0
                b[o + SB] = 1.0 if u.suppressed_before else 0.0
                on = []
                if ip and c != ROUTED:
                    for i, (_, ox, oy, _v) in enumerate(objs):
                        dx, dy = x - ox, y - oy
                        if dx * dx + dy * dy <= r2:
                            on.append(i)
                b[o + ON_OBJ] = 1.0 if on else 0.0
                cache[j] = key
                c = (s, ip, ip and not u.activated, tuple(on), True)
                vk = (x, y, ip, False)
            old = contrib[j]
            if old != c:
                if old is not None:
                    count(obs, old, -1)
                count(obs, c, 1)
                contrib[j] = c
                if old is None or old[1] != c[1] or old[3] != c[3] or old[4] != c[4]:
                    totals_changed = True  # in play, objectives held or lost: the objectives piece rewrites
            if vkeys[j] != vk:
                vkeys[j] = vk
                vis_changed = True
        if totals_changed:
            obs.totals_changed = True
        if active != self._active_written:  # the active flag moves (recomputed rows wrote their own above)
            for _u, o, uid, _s, enemy in self._unit_slots:
                if uid == self._active_written or uid == active:
                    if not (enemy and (_u.hidden or _u.veh.carrier >= 0)):  # concealed enemy rows stay empty
                        b[o + IS_ACTIVE] = 1.0 if uid == active else 0.0
            self._active_written = active
        if vis_changed or self._vis_units is None:
            mine, theirs = [], []
            for (u, _o, _uid, _s, enemy), vk in zip(self._unit_slots, vkeys):
                if vk[2] and not vk[3]:
                    (theirs if enemy else mine).append(u)
            self._vis_units = (mine, theirs)
        vis = self._visibility(obs, vkeys, *self._vis_units)
        if vis is not self._vis_written:  # the flags in the buffer are still those of this result otherwise
            for u, o, uid, _s, enemy in self._unit_slots:
                if not (enemy and (u.hidden or u.veh.carrier >= 0)):  # (concealed(u), inlined)
                    b[o + VISIBLE] = 1.0 if uid in vis and vis[uid] else 0.0
            self._vis_written = vis


_ZERO_ROW = array("f", bytes(4 * UF))


def _no_cache(key):
    return None


# ---------------------------------------------------------------------------------------------- objectives
OBJ_FEATURES = ("present", "x", "y", "vp", "mine", "theirs", "contested")
OF = len(OBJ_FEATURES)  # 7
_O_PRESENT, _O_X, _O_Y, _O_VP, _O_MINE, _O_THEIRS, _O_CONTESTED = range(OF)


class ObjectivesPiece(Piece):
    """Objective slots (scenario order): place and value (static), who holds it (the observing side knows only
    the units it knows of: hidden enemy units hold nothing here).

    Leaves on the observer ``vp``: the current victory points per side as far as the side knows
    (``game.victory_points()``'s rule over the known units)."""

    name = "objectives"
    shape = (MAX_OBJECTIVES, OF)
    features = OBJ_FEATURES
    needs = ("units",)

    def start(self, obs, buf, off):
        W, H = obs.width, obs.height
        for i, (_, ox, oy, vp) in enumerate(obs.game.objectives):
            o = off + i * OF
            buf[o + _O_PRESENT] = 1.0
            buf[o + _O_X] = ox / W
            buf[o + _O_Y] = (H - oy) / H if obs.flip else oy / H
            buf[o + _O_VP] = min(vp / 5.0, 1.0)

    def write(self, obs, b, off):
        if not obs.totals_changed:
            return  # who holds what and the victory points are as written last time
        obs.totals_changed = False
        me = obs.side
        lost = obs.lost
        near0 = [n > 0 for n in obs.near[0]]
        near1 = [n > 0 for n in obs.near[1]]
        vp = [lost[1], lost[0]]
        for i, (_, _ox, _oy, v) in enumerate(obs.game.objectives):
            n0, n1 = near0[i], near1[i]
            o = off + i * OF
            mine, theirs = (n0, n1) if me == 0 else (n1, n0)
            b[o + _O_MINE] = 1.0 if mine and not theirs else 0.0
            b[o + _O_THEIRS] = 1.0 if theirs and not mine else 0.0
            b[o + _O_CONTESTED] = 1.0 if mine and theirs else 0.0
            if n0 != n1:
                vp[0 if n0 else 1] += v
        obs.vp = vp


# ---------------------------------------------------------------------------------------------- globals
GLOBAL_FEATURES = (
    "turn", "actions_left", "kind_initiative", "kind_activate", "kind_action", "my_decision", "learner_side",
    "initiative_mine", "my_unactivated", "enemy_unactivated", "my_vp", "enemy_vp", "my_in_play", "enemy_in_play",
    "mirrored",
)
GF = len(GLOBAL_FEATURES)  # 15
_G = {n: i for i, n in enumerate(GLOBAL_FEATURES)}
(_G_TURN, _G_ACTIONS, _G_KIND0, _G_MINE, _G_SIDE, _G_INITIATIVE, _G_MY_UNACT, _G_EN_UNACT, _G_MY_VP, _G_EN_VP,
 _G_MY_IN_PLAY, _G_EN_IN_PLAY, _G_MIRRORED) = (_G[n] for n in (
    "turn", "actions_left", "kind_initiative", "my_decision", "learner_side", "initiative_mine", "my_unactivated",
    "enemy_unactivated", "my_vp", "enemy_vp", "my_in_play", "enemy_in_play", "mirrored"))
assert (_G["kind_activate"], _G["kind_action"]) == (_G_KIND0 + 1, _G_KIND0 + 2)


class GlobalsPiece(Piece):
    """Turn, the pending decision, initiative, unit counts and victory points (from the observing side)."""

    name = "globals"
    shape = (GF,)
    features = GLOBAL_FEATURES
    needs = ("units", "objectives")

    def start(self, obs, buf, off):
        buf[off + _G_SIDE] = float(obs.side)
        buf[off + _G_MIRRORED] = 1.0 if obs.flip else 0.0

    def write(self, obs, b, off):
        g = obs.game
        me = obs.side
        d = obs.decision
        b[off + _G_TURN] = g.turn / g.turn_limit
        b[off + _G_ACTIONS] = g.actions_left * 0.5 if g.phase == "action" else 0.0
        k0 = off + _G_KIND0
        b[k0] = b[k0 + 1] = b[k0 + 2] = 0.0
        if d is None:
            b[off + _G_MINE] = 0.0
        else:
            b[k0 + KINDS.get(d.kind, 2)] = 1.0  # procedure decisions (assault steps...) count as "action"
            b[off + _G_MINE] = 1.0 if d.side == me else 0.0
        b[off + _G_INITIATIVE] = 1.0 if g.initiative_winner == me else 0.0
        unact, inplay, vp = obs.unact, obs.inplay, obs.vp
        nu = self.slots
        b[off + _G_MY_UNACT] = unact[me] / nu
        b[off + _G_EN_UNACT] = unact[1 - me] / nu
        mv, ev = vp[me] / _VP_SCALE, vp[1 - me] / _VP_SCALE
        b[off + _G_MY_VP] = mv if mv < 1.0 else 1.0
        b[off + _G_EN_VP] = ev if ev < 1.0 else 1.0
        b[off + _G_MY_IN_PLAY] = inplay[me] / nu
        b[off + _G_EN_IN_PLAY] = inplay[1 - me] / nu


# ---------------------------------------------------------------------------------------------- terrain
TERRAIN_CHANNELS = ("blocks_los", "conceals", "cover", "move_cost", "obstacle")
TC = len(TERRAIN_CHANNELS)
_TERRAIN_CACHE: dict = {}


def terrain_raster(bf) -> tuple[np.ndarray, np.ndarray]:
    """Static coarse raster (TC x GRID_H x GRID_W) of a battlefield, unflipped and y-flipped (cached).

    Row 0 is the bottom (y = 0) edge in the unflipped version, the top edge in the flipped one.
    """
    hit = _TERRAIN_CACHE.get(id(bf))
    if hit is not None and hit[0] is bf:
        return hit[1], hit[2]
    g = np.asarray(bf.grid, dtype=np.int64)  # (ny, nx) at 0.5"
    names = bf.type_names
    blocks = np.array([1.0 if TERRAIN_TYPES[n][2] else 0.0 for n in names])
    conceal = np.array([1.0 if TERRAIN_TYPES[n][3] else 0.0 for n in names])
    cover = np.array([TERRAIN_TYPES[n][4] / 2.0 for n in names])
    cost = np.array([1.0 if TERRAIN_TYPES[n][0] is None else (TERRAIN_TYPES[n][0] - 1) / 3.0 for n in names])
    ny, nx = g.shape
    ri = np.minimum((np.arange(ny) * GRID_H) // ny, GRID_H - 1)
    ci = np.minimum((np.arange(nx) * GRID_W) // nx, GRID_W - 1)
    cell = ri[:, None] * GRID_W + ci[None, :]
    counts = np.bincount(cell.ravel(), minlength=GRID_H * GRID_W).astype(np.float64)
    out = np.zeros((TC, GRID_H, GRID_W), dtype=np.float32)
    for c, table in enumerate((blocks, conceal, cover, cost)):
        s = np.bincount(cell.ravel(), weights=table[g].ravel(), minlength=GRID_H * GRID_W)
        out[c] = (s / np.maximum(counts, 1)).reshape(GRID_H, GRID_W)
    for ty, _, ls, _, _ in bf.obstacles:  # obstacle channel: max over obstacles of (conceal + cover) strength
        strength = (0.5 if OBSTACLE_TYPES[ty][0] else 0.0) + OBSTACLE_TYPES[ty][1] / 4.0 or 0.25
        n = max(2, int(ls.length / 0.25))
        for i in range(n + 1):
            p = ls.interpolate(i / n, normalized=True)
            r = min(int(p.y / bf.height * GRID_H), GRID_H - 1)
            c = min(int(p.x / bf.width * GRID_W), GRID_W - 1)
            out[4, r, c] = max(out[4, r, c], strength)
    out = np.clip(out, 0.0, 1.0)
    flipped = np.ascontiguousarray(out[:, ::-1, :])
    _TERRAIN_CACHE[id(bf)] = (bf, out, flipped)
    return out, flipped


def dynamic_terrain_raster(bf) -> tuple[np.ndarray, np.ndarray]:
    """:func:`terrain_raster` of a battlefield seen through the game's dynamic terrain (``game.bf`` while
    ``game.terrain`` has features: wrecks, and later smoke, fire, rubble): the static raster with every coarse cell
    that a feature touches worked out again from the 0.5" raster cells' centres (cached per battlefield object: a
    change of the dynamic terrain makes a new one).  The base is the raster of ``bf.ground``: the scenario's terrain
    less what features replace (rubble, a burnt-out wood, a breach), so a removal shows as well as an addition."""
    if not getattr(bf, "dynamic", False):
        return terrain_raster(bf)
    hit = _TERRAIN_CACHE.get(id(bf))
    if hit is not None and hit[0] is bf:
        return hit[1], hit[2]
    static = bf.ground  # the scenario's terrain, less what features replace (rubble, a breach), with their ground
    out = terrain_raster(static)[0].copy()
    ny, nx = static.ny, static.nx
    cells: set = set()
    for f, _k in bf.items:  # the coarse cells each feature's bounding box touches
        if f["shape"] == "circle":
            x0, x1, y0, y1 = f["x"] - f["r"], f["x"] + f["r"], f["y"] - f["r"], f["y"] + f["r"]
        else:
            xs, ys = [p[0] for p in f["points"]], [p[1] for p in f["points"]]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        c0, c1 = (max(0, min(int(v / static.width * GRID_W), GRID_W - 1)) for v in (x0, x1))
        r0, r1 = (max(0, min(int(v / static.height * GRID_H), GRID_H - 1)) for v in (y0, y1))
        cells.update((r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
    blocking = [f for f, k in bf.items if k.blocks_sight or k.smoke]
    from .rules.kernel.terrain import distance_to

    for r, c in cells:
        rows = [i for i in range(ny) if min((i * GRID_H) // ny, GRID_H - 1) == r]
        cols = [j for j in range(nx) if min((j * GRID_W) // nx, GRID_W - 1) == c]
        acc = [0.0, 0.0, 0.0, 0.0]
        for i in rows:
            y = (i + 0.5) * RES
            for j in cols:
                x = (j + 0.5) * RES
                name = static.type_names[static.grid[i][j]]
                blocks = TERRAIN_TYPES[name][2] or any(distance_to(f, x, y) <= 0.0 for f in blocking)
                cost = bf.move_cost(x, y)
                acc[0] += 1.0 if blocks else 0.0
                acc[1] += 1.0 if bf.conceals(x, y) else 0.0
                acc[2] += bf.cover_at(x, y) / 2.0
                acc[3] += 1.0 if cost is None else (cost - 1) / 3.0
        n = max(1, len(rows) * len(cols))
        for ch in range(4):
            out[ch, r, c] = min(max(acc[ch] / n, 0.0), 1.0)
    flipped = np.ascontiguousarray(out[:, ::-1, :])
    if len(_TERRAIN_CACHE) > 64:
        _TERRAIN_CACHE.clear()
    _TERRAIN_CACHE[id(bf)] = (bf, out, flipped)
    return out, flipped


class TerrainPiece(Piece):
    """Channel-major ``[channel][row][col]`` raster of the terrain as it stands (the scenario's, and the dynamic
    features placed during the game: wrecks, ...); row 0 is the observing side's home edge."""

    name = "terrain"
    shape = (TC, GRID_H, GRID_W)
    features = None  # channels are the first axis: TERRAIN_CHANNELS

    def start(self, obs, buf, off):
        self._bf = obs.game.bf
        terr = dynamic_terrain_raster(self._bf)[1 if obs.flip else 0]
        obs.tensor[off:off + self.size()] = terr.ravel()

    def write(self, obs, buf, off):
        bf = obs.game.bf
        if bf is not self._bf:  # the dynamic terrain changed (a change makes a new battlefield object)
            self._bf = bf
            terr = dynamic_terrain_raster(bf)[1 if obs.flip else 0]
            obs.tensor[off:off + self.size()] = terr.ravel()


# ---------------------------------------------------------------------------------------------- markers
MARKER_FEATURES = ("present", "x", "y", "mine", "real", "unit_slot")
MF = len(MARKER_FEATURES)  # 6
_M_PRESENT, _M_X, _M_Y, _M_MINE, _M_REAL, _M_SLOT = range(MF)
_ZERO_MARKER = array("f", bytes(4 * MF))


class MarkersPiece(Piece):
    """Hidden-unit markers (``game.markers`` order: by side and position, so the order tells nothing).  An enemy
    marker looks the same whether it hides a unit or is a dummy; only the owner sees which unit a marker hides."""

    name = "markers"
    shape = (MAX_MARKERS, MF)
    features = MARKER_FEATURES

    def write(self, obs, b, off):
        g = obs.game
        markers = g.markers
        if not markers:
            return
        W, H = obs.width, obs.height
        flip = obs.flip
        me = obs.side
        own = {uid: k for k, uid in enumerate(g.side_units[me])}
        for i, m in enumerate(markers):
            o = off + i * MF
            if m["removed"]:
                b[o:o + MF] = _ZERO_MARKER
                continue
            mine = m["side"] == me
            b[o + _M_PRESENT] = 1.0
            b[o + _M_X] = m["x"] / W
            b[o + _M_Y] = (H - m["y"]) / H if flip else m["y"] / H
            b[o + _M_MINE] = 1.0 if mine else 0.0
            real = mine and m["unit"] >= 0  # only the owner knows which of its markers are real
            b[o + _M_REAL] = 1.0 if real else 0.0
            b[o + _M_SLOT] = own[m["unit"]] / self.slots if real else 0.0


# ---------------------------------------------------------------------------------------------- decision
# Every decision kind the rules define (``Decision.kind``), in a fixed order: new kinds are only ever appended (a
# rule outside the catalogue that makes a kind of its own shows as ``other``; tests/test_observation_pieces.py
# checks that every kind the standard rules make is listed).
DECISION_KINDS = (
    "initiative", "activate", "action", "seize", "assault_response", "assault_targets", "assault_follow_up",
    "final_defensive_fire", "second_move", "special_weapons", "choose", "promote", "place_leader", "place_formation",
    "house_occupy", "house_pursuit", "intercept", "move_fire",
    "air_abort", "air_pilot", "anti_aircraft",  # Aerospace Operations
    "fire_target", "fire_dummy",  # Artillery and Air Support
    "reaction_choice", "reaction", "interrupt", "interrupt_fire",  # seed 001 reactions, seed 004 interrupts
    "cdm",  # Mines and Explosives: a command-detonated mine's owner fires it or holds
)
_KIND_INDEX = {k: i for i, k in enumerate(DECISION_KINDS)}
N_KINDS = len(DECISION_KINDS) + 1  # and "other"
_ACTION_KIND = _KIND_INDEX["action"]
_REWRITE = object()  # a decision piece key never equal to the last one


def decision_features(slots: int = PLATOON_SLOTS) -> tuple:
    """The feature names of the ``decision`` piece in a layout of ``slots`` unit slots a side."""
    return (tuple(f"kind_{k}" for k in DECISION_KINDS) + ("kind_other",)
            + tuple(f"own_unit_{i}" for i in range(slots)) + tuple(f"enemy_unit_{i}" for i in range(slots))
            + tuple(f"entity_{i}" for i in range(MAX_ENTITIES)))


class DecisionPiece(Piece):
    """The pending decision: its kind (a one-hot over :data:`DECISION_KINDS` and ``other``), the unit it is about
    (``Decision.unit``: a one-hot over the own unit slots, then the enemy's: the slots of ``units``) and the table
    entity it is about (``Decision.entity``: a one-hot over the observing side's entity slots, its refs).  All zero
    once the game is over.  Only what the side may know: a decision of the other side about a unit concealed from
    the observer (hidden, or mounted) shows as an ``action`` decision about no unit (its row in ``units`` is empty
    too), and an entity the side may not know of is not shown."""

    name = "decision"
    shape = (N_KINDS + 2 * MAX_UNITS + MAX_ENTITIES,)
    features = decision_features()

    @classmethod
    def shape_for(cls, slots: int) -> tuple:
        return (N_KINDS + 2 * slots + MAX_ENTITIES,)

    features_for = staticmethod(decision_features)

    def start(self, obs, buf, off):
        self._d = None
        self._key = None  # what the written values depend on: (kind, unit, side, concealed) or an entity decision
        self._set: tuple = ()  # the indices written 1.0
        self._rows: dict = {}  # uid -> (unit, its row among the unit one-hots: own k, enemy slots + k)
        self._me = obs.side

    def write(self, obs, b, off):
        d = obs.decision
        if d is self._d:
            return  # the same pending decision as last time (a new state makes a new Decision object)
        self._d = d
        if d is None:
            key = None
        elif d.entity >= 0:
            key = _REWRITE  # (rare: the entity's ref and whether it was removed are read below)
        else:
            uid = d.unit
            if uid < 0:
                key = d.kind
            else:
                hit = self._rows.get(uid)
                if hit is None:  # a unit that joined the game (a detachment, a reinforcement): the slots again
                    self._slot_rows(obs)
                    hit = self._rows[uid]
                u, row = hit
                # a unit of the other side concealed from the observer (hidden, or mounted) is as its (empty) row
                # in ``units``: its side's decision about it shows as an "action" decision about no unit
                me = self._me
                key = (d.kind, row, d.side) if u.side == me or not concealed(u) else (
                    ("action" if d.side != me else d.kind), -1, d.side)
        if key is not _REWRITE and key == self._key:
            return
        self._key = key
        for i in self._set:
            b[i] = 0.0
        if key is None:
            self._set = ()
            return
        if key is _REWRITE:
            s = self._entity_decision(obs, d, off)
        elif type(key) is str:  # an initiative or activate decision: the kind alone
            s = (off + _KIND_INDEX.get(key, N_KINDS - 1),)
        elif type(key) is tuple:
            kind, row, _side = key
            s = (off + _KIND_INDEX.get(kind, N_KINDS - 1),) if row < 0 else (
                off + _KIND_INDEX.get(kind, N_KINDS - 1), off + N_KINDS + row)
        for i in s:
            b[i] = 1.0
        self._set = s

    def _slot_rows(self, obs):
        g = obs.game
        su, units, me = g.side_units, g.units, obs.side
        self._rows = {u: (units[u], k) for k, u in enumerate(su[me])}
        self._rows.update({u: (units[u], self.slots + k) for k, u in enumerate(su[1 - me])})

    def _entity_decision(self, obs, d, off) -> tuple:
        """The indices of a decision about a table entity (and perhaps a unit)."""
        g = obs.game
        me = obs.side
        kind = _KIND_INDEX.get(d.kind, N_KINDS - 1)
        s = []
        if d.unit >= 0:
            self._slot_rows(obs)
            u, row = self._rows[d.unit]
            if u.side != me and concealed(u):
                if d.side != me:
                    kind = _ACTION_KIND
            else:
                s.append(off + N_KINDS + row)
        e = g.entities[d.entity]
        r = e["refs"][me]
        if 0 <= r < MAX_ENTITIES and not e["removed"]:
            s.append(off + N_KINDS + 2 * self.slots + r)
        s.append(off + kind)
        return tuple(s)


# ---------------------------------------------------------------------------------------------- entities
ENTITY_KIND_SLOTS = 8  # the first eight entity kinds of a game's rule set (``Rule.entity_kinds``, rule-set order)
ENTITY_FEATURES = ("present", "x", "y", "mine", "theirs", "unowned", "revealed", "radius") + tuple(
    f"kind_{i}" for i in range(ENTITY_KIND_SLOTS))
EF = len(ENTITY_FEATURES)  # 16
(_E_PRESENT, _E_X, _E_Y, _E_MINE, _E_THEIRS, _E_UNOWNED, _E_REVEALED, _E_RADIUS, _E_KIND0) = range(9)
_RADIUS_SCALE = 12.0


class EntitiesPiece(Piece):
    """Table entity slots (``kernel.table``): slot ``r`` is the entity the observing side knows as ``r`` (its ref:
    the order in which it came to know of it; :data:`~dustup_env.rules.kernel.table.MAX_ENTITIES` slots, the
    codec's ``entity`` slots).  Only the entities on the table the side may know of (an owner-only minefield is in
    its owner's observation only; a removed entity's slot is empty): present, position (mirrored), whose it is
    (mine, the other side's, nobody's), revealed (once known to its owner only), its radius (a circle's, a
    polygon's farthest corner, / 12, capped) and its kind (a one-hot over the rule set's first eight kinds).  A
    rule's own state of an entity is for its own piece."""

    name = "entities"
    shape = (MAX_ENTITIES, EF)
    features = ENTITY_FEATURES

    def start(self, obs, buf, off):
        self._written = False

    def writes(self, obs) -> bool:
        return bool(obs.game.rules.entity_kinds)  # no entity kind in the rule set: no entity is ever placed

    def write(self, obs, b, off):
        g = obs.game
        ents = g.entities
        if not ents and not self._written:
            return  # no entity (every standard game so far): nothing to write
        n = MAX_ENTITIES * EF
        b[off:off + n] = array("f", bytes(4 * n))
        me = obs.side
        W, H = obs.width, obs.height
        kinds = {k: i for i, k in enumerate(g.rules.entity_kinds)}
        for e in ents:
            r = e["refs"][me]
            if r < 0 or r >= MAX_ENTITIES or e["removed"]:
                continue
            o = off + r * EF
            b[o + _E_PRESENT] = 1.0
            b[o + _E_X] = min(max(e["x"] / W, 0.0), 1.0)
            y = (H - e["y"]) / H if obs.flip else e["y"] / H
            b[o + _E_Y] = min(max(y, 0.0), 1.0)
            owner = e["owner"]
            b[o + _E_MINE] = 1.0 if owner == me else 0.0
            b[o + _E_THEIRS] = 1.0 if owner == 1 - me else 0.0
            b[o + _E_UNOWNED] = 1.0 if owner not in (0, 1) else 0.0
            b[o + _E_REVEALED] = 1.0 if e["known"] == "revealed" else 0.0
            shape = e["shape"]
            rad = 0.0
            if shape:
                if shape.get("shape") == "circle":
                    rad = float(shape.get("r", 0.0))
                else:
                    rad = max((math.hypot(p[0], p[1]) for p in shape.get("points", ())), default=0.0)
            b[o + _E_RADIUS] = min(rad / _RADIUS_SCALE, 1.0)
            k = kinds.get(e["kind"], ENTITY_KIND_SLOTS)
            if k < ENTITY_KIND_SLOTS:
                b[o + _E_KIND0 + k] = 1.0
        self._written = bool(ents)


# ---------------------------------------------------------------------------------------------- declarations
# The environment's own pieces (every game has them), declared as rules declare theirs (``Rule.observation``);
# orders 0-4 are the layout the shipped ``ppo`` was trained on, 5-6 the Armoured Dustup pieces (declared by its
# rules), 7-8 the decision and the table entities.  A new piece takes the next free order.
UNITS = ObservationPiece("units", 0, ("units", UF), UNIT_FEATURES, writer=UnitsPiece, doc=UnitsPiece.__doc__)
GLOBALS = ObservationPiece("globals", 1, (GF,), GLOBAL_FEATURES, writer=GlobalsPiece, needs=("units", "objectives"),
                           doc=GlobalsPiece.__doc__)
OBJECTIVES = ObservationPiece("objectives", 2, (MAX_OBJECTIVES, OF), OBJ_FEATURES, writer=ObjectivesPiece,
                              needs=("units",), doc=ObjectivesPiece.__doc__)
TERRAIN = ObservationPiece("terrain", 3, (TC, GRID_H, GRID_W), None, writer=TerrainPiece, doc=TerrainPiece.__doc__)
MARKERS = ObservationPiece("markers", 4, (MAX_MARKERS, MF), MARKER_FEATURES, writer=MarkersPiece,
                           doc=MarkersPiece.__doc__)
DECISION = ObservationPiece("decision", 7, DecisionPiece.shape, DecisionPiece.features, writer=DecisionPiece,
                            doc=DecisionPiece.__doc__)
ENTITIES = ObservationPiece("entities", 8, (MAX_ENTITIES, EF), ENTITY_FEATURES, writer=EntitiesPiece,
                            doc=EntitiesPiece.__doc__)
CORE_PIECES: tuple = (UNITS, GLOBALS, OBJECTIVES, TERRAIN, MARKERS, DECISION, ENTITIES)
LEGACY_DECLARED: tuple = (UNITS, GLOBALS, OBJECTIVES, TERRAIN, MARKERS)  # the shipped ppo's pieces
ARMOURED_DECLARED: tuple = (VEHICLES_PIECE, HEAVY_WEAPONS_PIECE)
ARMOURED_KEYS = ("design", "heavy_weapon", "area_protection", "ecm")  # scenario unit fields that bring them in


def declared_pieces(rules) -> tuple:
    """The environment's pieces and those ``rules`` declare (``Rule.observation``), in layout order (by ``order``);
    a piece declared by several rules once.  Two different pieces with one name or one order are an error."""
    by_name: dict = {}
    for p in CORE_PIECES + tuple(p for r in rules for p in r.observation):
        old = by_name.get(p.name)
        if old is not None and old is not p:
            raise ValueError(f"observation piece {p.name!r} is declared twice, differently")
        by_name[p.name] = p
    out = sorted(by_name.values(), key=lambda p: p.order)
    orders = [p.order for p in out]
    if len(set(orders)) != len(orders):
        raise ValueError(f"two observation pieces share an order: {[(p.name, p.order) for p in out]}")
    return tuple(out)


_CLASSES: dict = {}


def piece_class(decl, slots: int = PLATOON_SLOTS) -> type:
    """The :class:`Piece` class of a declared piece (an ``ObservationPiece``) in a layout of ``slots`` unit slots a
    side (one class per declaration and slots, so equal layouts have equal pieces)."""
    hit = _CLASSES.get((id(decl), slots))
    if hit is not None and hit[0] is decl:
        return hit[1]
    if decl.writer is not None:
        cls = with_slots(decl.writer, slots)
        if cls.name != decl.name or tuple(cls.shape_for(PLATOON_SLOTS)) != _shape(decl.shape, PLATOON_SLOTS):
            raise ValueError(f"observation piece {decl.name!r}: its writer is for {cls.name!r} {cls.shape}")
    else:
        attrs = {"name": decl.name, "shape": _shape(decl.shape, slots), "features": decl.features,
                 "needs": tuple(decl.needs), "slots": slots, "per_slot": decl.shape[:1] == ("units",),
                 "__doc__": decl.doc, "__module__": __name__}
        if decl.write is not None:
            attrs["write"] = staticmethod(decl.write)
        if decl.start is not None:
            attrs["start"] = staticmethod(decl.start)
        cls = type(f"{''.join(w.title() for w in decl.name.split('_'))}Piece{slots}", (Piece,), attrs)
    _CLASSES[(id(decl), slots)] = (decl, cls)
    return cls


def _shape(shape: tuple, slots: int) -> tuple:
    return tuple(2 * slots if k == "units" else k for k in shape)


def with_slots(piece, slots: int):
    """``piece`` (a :class:`Piece` class) in a layout of ``slots`` unit slots a side (its ``shape_for(slots)``:
    per-slot pieces get ``2 * slots`` rows; the others scale their unit counts by the slots)."""
    if slots == piece.slots:
        return piece
    attrs = {"slots": slots, "__doc__": piece.__doc__, "shape": tuple(piece.shape_for(slots))}
    if piece.features is not None and len(piece.features) != attrs["shape"][-1] and hasattr(piece, "features_for"):
        attrs["features"] = piece.features_for(slots)
    return type(f"{piece.__name__}{slots}", (piece,), attrs)


def armoured_game(scenario: dict) -> bool:
    """Whether a scenario fields vehicles, heavy weapons, ECM or area protection (the rules that bring the
    armoured pieces apply to it)."""
    return any(k in u for side in scenario.get("sides", ()) for u in side.get("units", ()) for k in ARMOURED_KEYS)


_PIECES_OF: dict = {}


def pieces_for(game) -> tuple:
    """The pieces of ``game``'s observation: the environment's own and those its rule set's rules declare, in
    layout order (:func:`declared_pieces`), with 12 unit slots a side, or 32 for a company-sized scenario."""
    rules = game.rules
    slots = unit_slots(game.scenario)
    hit = _PIECES_OF.get((id(rules), slots))
    if hit is not None and hit[0] is rules:
        return hit[1]
    pieces = tuple(piece_class(p, slots) for p in declared_pieces(rules))
    if len(_PIECES_OF) > 256:
        _PIECES_OF.clear()
    _PIECES_OF[(id(rules), slots)] = (rules, pieces)
    return pieces


# ---------------------------------------------------------------------------------------------- layout
class Layout:
    """Where each piece lies in the flat vector: ``offset[name]``, ``shape[name]``, ``size`` in total."""

    def __init__(self, pieces):
        names = [p.name for p in pieces]
        if len(set(names)) != len(names) or not all(names):
            raise ValueError(f"observation pieces need distinct non-empty names, not {names}")
        self.pieces = tuple(pieces)
        self.offset: dict = {}
        self.shape: dict = {}
        n = 0
        for p in pieces:
            self.offset[p.name] = n
            self.shape[p.name] = tuple(p.shape)
            n += p.size()
        self.size = n
        self.slots = max((p.slots for p in self.pieces), default=PLATOON_SLOTS)  # unit slots a side
        self.write_order = _write_order(self.pieces)

    def describe(self) -> list[dict]:
        """One entry per piece: name, offset, shape, features (the layout as plain data)."""
        return [{"name": p.name, "offset": self.offset[p.name], "shape": list(p.shape),
                 "features": list(p.features) if p.features else None} for p in self.pieces]

    def prefix_of(self, other: "Layout") -> bool:
        """Whether this layout's pieces are the first pieces of ``other`` (same pieces, same offsets)."""
        return other.pieces[:len(self.pieces)] == self.pieces


def _write_order(pieces) -> tuple:
    """Layout order, except that a piece is written after the pieces it ``needs``."""
    by_name = {p.name: p for p in pieces}
    done: list = []
    visiting: set = set()

    def visit(p):
        if p in done:
            return
        if p.name in visiting:
            raise ValueError(f"observation pieces need each other in a cycle through {p.name!r}")
        visiting.add(p.name)
        for n in p.needs:
            if n not in by_name:
                raise ValueError(f"observation piece {p.name!r} needs a piece {n!r} that the layout does not have")
            visit(by_name[n])
        visiting.discard(p.name)
        done.append(p)

    for p in pieces:
        visit(p)
    return tuple(done)


def _layout(decls, slots: int = PLATOON_SLOTS) -> Layout:
    return Layout(tuple(piece_class(p, slots) for p in sorted(decls, key=lambda p: p.order)))


# the layouts of the standard rules: infantry games, games with the armoured pieces, and both company-sized
LAYOUT = _layout(CORE_PIECES)
PIECES: tuple = LAYOUT.pieces
OBS_SIZE = LAYOUT.size  # 2166
ARMOURED_LAYOUT = _layout(CORE_PIECES + ARMOURED_DECLARED)
ARMOURED_OBS_SIZE = ARMOURED_LAYOUT.size  # 3342
COMPANY_LAYOUT = _layout(CORE_PIECES, COMPANY_SLOTS)  # a company-sized scenario (32 unit slots a side)
COMPANY_ARMOURED_LAYOUT = _layout(CORE_PIECES + ARMOURED_DECLARED, COMPANY_SLOTS)
LAYOUTS: tuple = (LAYOUT, ARMOURED_LAYOUT, COMPANY_LAYOUT, COMPANY_ARMOURED_LAYOUT)
# the layouts before the decision and entities pieces were appended (what the shipped ppo and models trained
# before them take: a policy agent gives such a model these pieces of a game's observation, by name)
LEGACY_LAYOUT = _layout(LEGACY_DECLARED)
LEGACY_OBS_SIZE = LEGACY_LAYOUT.size  # 1569: the shipped ppo
LEGACY_ARMOURED_LAYOUT = _layout(LEGACY_DECLARED + ARMOURED_DECLARED)  # 2745
LEGACY_LAYOUTS: tuple = (LEGACY_LAYOUT, LEGACY_ARMOURED_LAYOUT, _layout(LEGACY_DECLARED, COMPANY_SLOTS),
                         _layout(LEGACY_DECLARED + ARMOURED_DECLARED, COMPANY_SLOTS))
ARMOURED_PIECES: tuple = tuple(piece_class(p) for p in ARMOURED_DECLARED)
assert len({lay.size for lay in LAYOUTS + LEGACY_LAYOUTS}) == 8, "two observation layouts have one size"


def layout_for(scenario) -> Layout:
    """The layout of the observation of games of ``scenario`` (a scenario name, path or document; default
    options)."""
    from .rules import Game

    pieces = pieces_for(Game(scenario, seed=0))
    return next((lay for lay in LAYOUTS if lay.pieces == pieces), None) or Layout(pieces)


def layout_of_size(size: int) -> Layout:
    """The observation layout with ``size`` values (a trained model's input size: a current layout, or one from
    before the decision and entities pieces); ``ValueError`` if none has."""
    for lay in LAYOUTS + LEGACY_LAYOUTS:
        if lay.size == size:
            return lay
    raise ValueError(f"no Dustup observation layout has {size} values (known: "
                     + ", ".join(f"{lay.size} ({'+'.join(p.name for p in lay.pieces)}, {lay.slots} slots)"
                                 for lay in LAYOUTS + LEGACY_LAYOUTS) + ")")


def project(obs: np.ndarray, layout: Layout, target: Layout) -> np.ndarray:
    """An observation laid out as ``layout`` (one of a game's) re-laid out as ``target`` (a trained model's): each
    piece of ``target`` taken by name from ``obs``, all zero where ``layout`` has no such piece (the armoured
    pieces of a game without vehicles: what they hold there).  A ``target`` whose pieces begin ``layout`` (or the
    reverse) is a slice or a zero padding."""
    if target.prefix_of(layout):
        return obs[:target.size]
    if layout.prefix_of(target):
        return np.concatenate([obs, np.zeros(target.size - layout.size, dtype=obs.dtype)])
    out = np.zeros(target.size, dtype=obs.dtype)
    for p in target.pieces:
        o = layout.offset.get(p.name)
        if o is None:
            continue
        if layout.shape[p.name] != target.shape[p.name]:
            raise ValueError(f"observation piece {p.name!r} has shape {layout.shape[p.name]} here, "
                             f"{target.shape[p.name]} in the target layout")
        t = target.offset[p.name]
        out[t:t + p.size()] = obs[o:o + p.size()]
    return out

# ---------------------------------------------------------------------------------------------- observer
class Observer:
    """Writes one side's observation of a game into :attr:`tensor` (flat ``float32``, length ``layout.size``);
    :attr:`dict` holds a named, shaped view of each piece (views into :attr:`tensor`, no copies).

    ``set_from(game, side)`` fills the tensor; the observer keeps incremental caches for the last (game,
    side) it was pointed at, so one observer per side of a game is fastest (a switch rewrites everything).
    ``observation(game, side)`` returns a fresh copy.  ``string_from(game, side)`` is the plain data the
    side may know (``game.view(side)``) as JSON text.
    """

    @classmethod
    def for_game(cls, game) -> "Observer":
        """An observer with the pieces of ``game``'s observation (:func:`pieces_for`)."""
        return cls(pieces_for(game))

    def __init__(self, pieces=PIECES):
        pieces = tuple(pieces)
        self.layout = next((lay for lay in LAYOUTS + LEGACY_LAYOUTS if lay.pieces == pieces), None) or Layout(pieces)
        self.slots = self.layout.slots  # unit slots a side
        self.buf = array("f", bytes(4 * self.layout.size))
        self.tensor = np.frombuffer(self.buf, dtype=np.float32)
        self.dict = {p.name: self.tensor[self.layout.offset[p.name]:self.layout.offset[p.name] + p.size()]
                     .reshape(p.shape) for p in self.layout.pieces}
        self._starters = [(p(), self.layout.offset[p.name]) for p in self.layout.write_order]
        # only the pieces that write per observation (the static ones, e.g. the terrain, only start)
        self._all_writers = [(w, off) for w, off in self._starters if type(w).write is not Piece.write]
        self._writers: list = []  # (bound write, offset) of the pieces that write in the current game (start)
        self.game = None
        self.side = -1
        self.flip = False
        self.width = self.height = 1.0
        self.decision = None

    @property
    def size(self) -> int:
        return self.layout.size

    def slot_rows(self, off: int, width: int):
        """(unit, row offset, slot, enemy?, concealed from the observer?) per unit slot, own slots first, for a
        per-slot piece at ``off`` with ``width`` features a row (the rows of the ``units`` piece's slots).

        An enemy unit is concealed when it is hidden (only its marker shows) or mounted in a vehicle (its
        passengers are not seen): a piece leaves its rows empty."""
        g = self.game
        me = self.side
        units = g.units
        for k, uid in enumerate(g.side_units[me]):
            yield units[uid], off + k * width, k, False, False
        base = off + self.slots * width
        for k, uid in enumerate(g.side_units[1 - me]):
            u = units[uid]
            # concealed(u) (rules/kernel/knowledge.py defines it), inlined: read per enemy slot and piece
            yield u, base + k * width, k, True, u.hidden or u.veh.carrier >= 0

    def start(self, game, side: int) -> None:
        """Point the observer at ``game`` from ``side``'s view: zero the tensor, write the static parts, reset
        the caches (done by :meth:`set_from` by itself when the game object or the side changes)."""
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1, not {side!r}")
        self.game = game
        self.side = side
        self.flip = side_flips(game, side)
        self.width, self.height = game.bf.width, game.bf.height
        self.decision = None
        self.tensor[:] = 0.0
        buf = self.buf
        for w, off in self._starters:
            w.start(self, buf, off)
        self._writers = [(w.write, off) for w, off in self._all_writers if w.writes(self)]

    def set_from(self, game, side: int) -> np.ndarray:
        """Write ``side``'s observation of ``game`` into :attr:`tensor` (returned, not copied)."""
        if game is not self.game or side != self.side:
            self.start(game, side)
        # the pending decision first: the engine's option generation warms the line-of-sight cache
        self.decision = None if game.over else game.decision()
        buf = self.buf
        for write, off in self._writers:
            write(self, buf, off)
        return self.tensor

    def observation(self, game, side: int) -> np.ndarray:
        """``side``'s observation of ``game`` as a fresh array."""
        return self.set_from(game, side).copy()

    def string_from(self, game, side: int) -> str:
        """What ``side`` may know of ``game`` now (:func:`known_view`), as canonical JSON text."""
        return json.dumps(known_view(game, side), sort_keys=True, separators=(",", ":"), default=list)


def known_view(game, side: int) -> dict:
    """What ``side`` may know: ``game.view(side)`` (an enemy unit mounted in a vehicle shows only its uid, side and
    name, ``unseen``, and an enemy vehicle does not list its passengers)."""
    return game.view(side)


def layout_description() -> dict:
    """The layout of the standard infantry games the current code produces, as plain data."""
    return {"size": OBS_SIZE, "pieces": LAYOUT.describe()}
