"""The observation: what one side may know of a game, as a flat ``float32`` vector made of named pieces.

As OpenSpiel's observers do, the observation is a list of *pieces*, each with a name, a shape, the
names of its features (its last axis) and a writer; :class:`Observer` lays them out one after the
other in one flat tensor and gives a named view of each (``observer.dict["units"]`` has shape
``(24, 37)``).  Gymnasium (``Dustup-v0``), PettingZoo (``dustup_env.pettingzoo``) and OpenSpiel
(``dustup_env.openspiel``) all observe through :class:`Observer`.  A new rules area (vehicles, fire
support, terrain effects) adds a piece: a subclass of :class:`Piece` appended to :data:`PIECES`.

The pieces of :data:`PIECES` (the layout the shipped ``ppo`` was trained on; docs/observation.md
describes every feature):

=============  ============  ===================================================================
``units``      (24, 37)      own unit slots 0..11, then the enemy's (hidden enemy units: empty)
``globals``    (15,)         turn, actions, decision kind, initiative, counts, victory points
``objectives`` (6, 7)        objectives: place, value, who holds them
``terrain``    (5, 8, 12)    coarse terrain raster (the scenario's and the dynamic terrain)
``markers``    (24, 6)       hidden-unit markers (which of its own markers are real: owner only)
=============  ============  ===================================================================

Games whose scenario fields vehicles, heavy weapons, ECM or area protection append two more pieces
(:func:`pieces_for`, :meth:`Observer.for_game`): ``vehicles`` (24, 30) and ``heavy_weapons`` (24, 19),
per unit slot; every other game keeps exactly the layout above.

Every side sees its home edge at the bottom (``codec.side_flips``).  An observer keeps caches per
(game, side): the static parts are written when it is pointed at another game or side, and per call
only what changed is rewritten (unit rows whose state changed, line of sight when a leader moved).
Everything written comes from what the side may know: own units fully, enemy units only when not
hidden, markers by position (and, for the owner, which unit they hide).
"""
from __future__ import annotations

import json
import math
from array import array
from operator import attrgetter

import numpy as np

from .codec import MAX_MARKERS, MAX_UNITS, side_flips
from .rules.kernel.limits import COMPANY_SLOTS, unit_slots
from .rules.kernel.battlefield import OBSTACLE_TYPES, RES, TERRAIN_TYPES
from .rules.kernel.entities import KILLED, OK, ROUTED
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
    then), ``write(obs, buf, off)`` for each observation.  ``buf`` is the observer's flat ``array('f')``
    and ``off`` the piece's first index; ``obs`` is the :class:`Observer` (``game``, ``side``, ``flip``,
    ``width``, ``height``, ``decision``).
    """

    name: str = ""
    shape: tuple = ()
    features: tuple | None = None
    needs: tuple = ()
    slots: int = MAX_UNITS  # unit slots a side of the layout the piece is in (12, or 32: :func:`with_slots`)
    per_slot: bool = False  # one row per unit slot (own slots, then the enemy's): shape (2 * slots, features)

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
        if key == self._vis_key:
            return self._vis
        bf = obs.game.bf
        if bf is not self._pairs_bf:  # line of sight depends only on the (static) terrain and the two points
            self._pairs_bf = bf
            self._pairs = {}
        pairs = self._pairs  # own uid * 1024 + enemy uid -> (ox, oy, ex, ey, visible): most pairs did not move
        sight = bf.sight
        cached = bf.sight_cache.get  # peek both directions first (the engine queries firer -> target)
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
            if enemy and (u.hidden or u.carrier >= 0):  # a hidden enemy unit: an empty row (only its marker
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
                    if not (enemy and (_u.hidden or _u.carrier >= 0)):  # hidden enemy rows stay empty
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
                if not (enemy and (u.hidden or u.carrier >= 0)):
                    b[o + VISIBLE] = 1.0 if uid in vis and vis[uid] else 0.0
            self._vis_written = vis


_ZERO_ROW = array("f", bytes(4 * UF))


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


# ---------------------------------------------------------------------------------------------- armoured dustup
# Pieces that exist only in games whose scenario fields vehicles, heavy weapons, ECM or area protection
# (:func:`pieces_for`): a game without them keeps exactly the layout of :data:`PIECES`.
ARMOURED_KEYS = ("design", "heavy_weapon", "area_protection", "ecm")  # scenario unit fields that bring them in
WEAPON_SLOTS = 4  # the first four weapons of a design (fire_by_vehicles.WEAPON_SLOTS: the codec's k)
VEHICLE_FEATURES = (
    "vehicle", "mech", "creature", "facing_x", "facing_y", "damage", "immobilised", "hatches", "opened_up",
    "open_top", "soft_skinned", "size", "armour_front", "armour_side", "armour_rear", "armour_top", "transport",
    "passengers", "mounted", "carrier_slot", "towing", "towed", "turret", "weapons",
    "fired_0", "fired_1", "fired_2", "fired_3", "suppression", "moved",
)
VF = len(VEHICLE_FEATURES)  # 30
_V = {n: i for i, n in enumerate(VEHICLE_FEATURES)}
HEAVY_FEATURES = (
    "heavy_weapon", "man_packed", "towed_carriage", "set_up", "dismantled", "limbered", "disabled", "damaged",
    "fired", "abandoned", "remote", "guided", "weapon_size", "ecm", "decoy", "area_protection",
    "protection_carried", "protection_deployed", "protection_spent",
)
HF = len(HEAVY_FEATURES)  # 19
_HW = {n: i for i, n in enumerate(HEAVY_FEATURES)}
_DAMAGE_SCALE = 3.0  # damage markers / 3, capped at 1
_DIE_SCALE = 5.0  # a die step (D4 0 .. D12 4, ...) + 1, over 5


def _die01(d) -> float:
    """A die (its name or step) as (step + 1) / 5 in [0, 1]; 0 when there is none."""
    if d is None or d == "" or d == 0:
        return 0.0
    from .rules.kernel.dice import parse_die
    try:
        step = parse_die(d) if isinstance(d, str) else int(d)
    except Exception:  # noqa: BLE001 - a die the observation cannot place
        return 0.0
    return min((step + 1) / _DIE_SCALE, 1.0)


def _slot_rows(obs, off: int, width: int, slots: int):
    """(unit, row offset, slot, enemy?, concealed from the observer?) per unit slot, own slots first.

    An enemy unit is concealed when it is hidden (only its marker shows) or mounted in a vehicle (its
    passengers are not seen): its rows stay empty."""
    g = obs.game
    me = obs.side
    for s, side in enumerate((me, 1 - me)):
        for k, uid in enumerate(g.side_units[side]):
            u = g.units[uid]
            enemy = s == 1
            yield u, off + (s * slots + k) * width, k, enemy, enemy and (u.hidden or u.carrier >= 0)


class VehiclesPiece(Piece):
    """Armoured Dustup: per unit slot (the slots of ``units``), what a vehicle, mech or large creature is and how
    it stands: kind, facing (a unit vector in the side's mirrored frame, each component as (c + 1) / 2),
    damage markers, immobilised, hatches and opened up, armour class per facing, transport places and the
    passengers carried (own vehicles only: an enemy vehicle's passengers are not seen), mounted and the own slot
    of the carrier (own units only: a mounted enemy unit is an empty row, as in ``units``), towing, turret,
    its weapons and which fired this activation, suppression markers, moved."""

    name = "vehicles"
    shape = (2 * MAX_UNITS, VF)
    features = VEHICLE_FEATURES
    per_slot = True

    def write(self, obs, b, off):
        g = obs.game
        fired_st = g.extra.get("vehicle_fired") or {}
        own_slot = {uid: k for k, uid in enumerate(g.side_units[obs.side])}
        flip = obs.flip
        for u, o, _k, enemy, concealed in _slot_rows(obs, off, VF, self.slots):
            row = [0.0] * VF
            if not concealed:
                vp = u.profile.vehicle
                if vp is not None:
                    row[_V["vehicle"]] = 1.0
                    row[_V["mech"]] = 1.0 if vp.kind == "mech" else 0.0
                    row[_V["creature"]] = 1.0 if vp.kind == "large_creature" else 0.0
                    a = math.radians(u.facing)
                    fx, fy = math.sin(a), math.cos(a)
                    if flip:
                        fy = -fy
                    row[_V["facing_x"]] = (fx + 1.0) / 2.0
                    row[_V["facing_y"]] = (fy + 1.0) / 2.0
                    row[_V["damage"]] = min(u.damage / _DAMAGE_SCALE, 1.0)
                    row[_V["immobilised"]] = 1.0 if u.immobilised else 0.0
                    row[_V["hatches"]] = 1.0 if vp.hatches else 0.0
                    row[_V["opened_up"]] = 1.0 if u.opened_up else 0.0
                    row[_V["open_top"]] = 1.0 if vp.open_top else 0.0
                    row[_V["soft_skinned"]] = 1.0 if vp.soft_skinned else 0.0
                    row[_V["size"]] = min(vp.size / 5.0, 1.0)
                    for f in ("front", "side", "rear", "top"):
                        row[_V["armour_" + f]] = min(int(getattr(vp.armour_class, f)) / 5.0, 1.0)
                    row[_V["transport"]] = min(vp.transport_figures / 12.0, 1.0)
                    if not enemy:
                        row[_V["passengers"]] = min(len(u.passengers) / 4.0, 1.0)
                    row[_V["towing"]] = 1.0 if u.towing >= 0 else 0.0
                    row[_V["turret"]] = 1.0 if u.hull >= 0 else 0.0
                    row[_V["weapons"]] = min(len(vp.weapons), WEAPON_SLOTS) / WEAPON_SLOTS
                    for k in fired_st.get(str(u.uid), ()):
                        if 0 <= k < WEAPON_SLOTS:
                            row[_V["fired_0"] + k] = 1.0
                    row[_V["suppression"]] = min(u.suppression / 3.0, 1.0)
                    row[_V["moved"]] = 1.0 if u.moved else 0.0
                if not enemy and u.carrier >= 0:
                    row[_V["mounted"]] = 1.0
                    row[_V["carrier_slot"]] = own_slot.get(u.carrier, 0) / self.slots
                row[_V["towed"]] = 1.0 if u.towed_by >= 0 else 0.0
            b[o:o + VF] = array("f", row)


class HeavyWeaponsPiece(Piece):
    """Armoured Dustup: per unit slot, the unit's heavy weapon (carriage, set up / dismantled / limbered,
    disabled / damaged, fired, abandoned, remote launcher, guided, size), its ECM die (a vehicle's design, or the
    unit's ``ecm``), a vehicle's decoy die and the unit's area-protection system (carried / deployed / spent).
    Hidden and mounted enemy units: empty rows."""

    name = "heavy_weapons"
    shape = (2 * MAX_UNITS, HF)
    features = HEAVY_FEATURES
    per_slot = True

    def write(self, obs, b, off):
        from .rules.armoured_dustup import heavy_weapons as hw

        g = obs.game
        heavy = g.extra.get("heavy") or {}
        prot = g.extra.get("protection") or {}
        for u, o, _k, _enemy, concealed in _slot_rows(obs, off, HF, self.slots):
            row = [0.0] * HF
            if not concealed:
                st = heavy.get(str(u.uid))
                if st is not None:
                    prof = hw.weapon_of(g, u)
                    towed = prof is not None and prof.carriage == "towed"
                    row[_HW["heavy_weapon"]] = 1.0
                    row[_HW["man_packed"]] = 0.0 if towed else 1.0
                    row[_HW["towed_carriage"]] = 1.0 if towed else 0.0
                    row[_HW["set_up"]] = 1.0 if st.get("ready") else 0.0
                    if not st.get("ready"):
                        row[_HW["limbered" if towed else "dismantled"]] = 1.0
                    dmg = st.get("damage", 0)
                    row[_HW["disabled"]] = 1.0 if dmg == hw.DISABLED else 0.0
                    row[_HW["damaged"]] = 1.0 if dmg == hw.DAMAGED else 0.0
                    row[_HW["fired"]] = 1.0 if st.get("fired") else 0.0
                    row[_HW["abandoned"]] = 1.0 if st.get("abandoned") else 0.0
                    row[_HW["remote"]] = 1.0 if st.get("remote") else 0.0
                    if prof is not None:
                        row[_HW["guided"]] = 1.0 if getattr(prof.weapon, "guidance", None) else 0.0
                        row[_HW["weapon_size"]] = min(getattr(prof.weapon, "size", 0) / 5.0, 1.0)
                vp = u.profile.vehicle
                if vp is not None:
                    row[_HW["ecm"]] = _die01(vp.ecm)
                    row[_HW["decoy"]] = _die01(vp.decoy)
                else:
                    spec = hw.spec_of(g, u)
                    if spec is not None and "ecm" in spec:
                        row[_HW["ecm"]] = _die01(spec["ecm"])
                    elif st is not None and hw.weapon_of(g, u) is not None:
                        row[_HW["ecm"]] = _die01(hw.weapon_of(g, u).ecm)
                ps = prot.get(str(u.uid))
                if ps is not None:
                    row[_HW["area_protection"]] = _die01(ps.get("die"))
                    state = ps.get("state")
                    row[_HW["protection_carried"]] = 1.0 if state == "carried" else 0.0
                    row[_HW["protection_deployed"]] = 1.0 if state == "deployed" else 0.0
                    row[_HW["protection_spent"]] = 1.0 if state == "spent" else 0.0
            b[o:o + HF] = array("f", row)


ARMOURED_PIECES: tuple = (VehiclesPiece, HeavyWeaponsPiece)


def armoured_game(scenario: dict) -> bool:
    """Whether a scenario fields vehicles, heavy weapons, ECM or area protection (its observation has the
    armoured pieces)."""
    return any(k in u for side in scenario.get("sides", ()) for u in side.get("units", ()) for k in ARMOURED_KEYS)


def pieces_for(game) -> tuple:
    """The pieces of ``game``'s observation: :data:`PIECES`, and the armoured pieces when its scenario has such
    units (games without them keep exactly the layout the shipped ``ppo`` was trained on); a company-sized
    scenario (more than 12 units on a side) has the same pieces with 32 unit slots a side (:func:`with_slots`)."""
    pieces = PIECES + ARMOURED_PIECES if armoured_game(game.scenario) else PIECES
    if unit_slots(game.scenario) == COMPANY_SLOTS:
        return tuple(_COMPANY[p] for p in pieces)
    return pieces


def with_slots(piece, slots: int):
    """``piece`` (a :class:`Piece` class) in a layout of ``slots`` unit slots a side: per-slot pieces get
    ``2 * slots`` rows, the others scale their unit counts by the slots."""
    if slots == piece.slots:
        return piece
    attrs = {"slots": slots, "__doc__": piece.__doc__}
    if piece.per_slot:
        attrs["shape"] = (2 * slots,) + tuple(piece.shape[1:])
    return type(f"{piece.__name__}{slots}", (piece,), attrs)


# ---------------------------------------------------------------------------------------------- layout
PIECES: tuple = (UnitsPiece, GlobalsPiece, ObjectivesPiece, TerrainPiece, MarkersPiece)


class Layout:
    """Where each piece lies in the flat vector: ``offset[name]``, ``shape[name]``, ``size`` in total."""

    def __init__(self, pieces=PIECES):
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
        self.write_order = _write_order(self.pieces)

    def describe(self) -> list[dict]:
        """One entry per piece: name, offset, shape, features (the layout as plain data)."""
        return [{"name": p.name, "offset": self.offset[p.name], "shape": list(p.shape),
                 "features": list(p.features) if p.features else None} for p in self.pieces]


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


LAYOUT = Layout(PIECES)
OBS_SIZE = LAYOUT.size  # 1569
ARMOURED_LAYOUT = Layout(PIECES + ARMOURED_PIECES)
ARMOURED_OBS_SIZE = ARMOURED_LAYOUT.size  # 2745
_COMPANY = {p: with_slots(p, COMPANY_SLOTS) for p in PIECES + ARMOURED_PIECES}
COMPANY_LAYOUT = Layout(tuple(_COMPANY[p] for p in PIECES))  # a company-sized scenario (32 unit slots a side)
COMPANY_ARMOURED_LAYOUT = Layout(tuple(_COMPANY[p] for p in PIECES + ARMOURED_PIECES))
LAYOUTS: tuple = (LAYOUT, ARMOURED_LAYOUT, COMPANY_LAYOUT, COMPANY_ARMOURED_LAYOUT)  # every layout pieces_for gives


def layout_for(scenario) -> Layout:
    """The layout of the observation of games of ``scenario`` (a scenario document)."""
    if unit_slots(scenario) == COMPANY_SLOTS:
        return COMPANY_ARMOURED_LAYOUT if armoured_game(scenario) else COMPANY_LAYOUT
    return ARMOURED_LAYOUT if armoured_game(scenario) else LAYOUT


def layout_of_size(size: int) -> Layout:
    """The observation layout with ``size`` values (a trained model's input size); ``ValueError`` if none has."""
    for lay in LAYOUTS:
        if lay.size == size:
            return lay
    raise ValueError(f"no Dustup observation layout has {size} values (known: "
                     + ", ".join(f"{lay.size} ({'+'.join(p.name for p in lay.pieces)})" for lay in LAYOUTS) + ")")


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
        self.layout = next((lay for lay in LAYOUTS if lay.pieces == pieces), None) or Layout(pieces)
        self.buf = array("f", bytes(4 * self.layout.size))
        self.tensor = np.frombuffer(self.buf, dtype=np.float32)
        self.dict = {p.name: self.tensor[self.layout.offset[p.name]:self.layout.offset[p.name] + p.size()]
                     .reshape(p.shape) for p in self.layout.pieces}
        self._starters = [(p(), self.layout.offset[p.name]) for p in self.layout.write_order]
        # only the pieces that write per observation (the static ones, e.g. the terrain, only start)
        self._writers = [(w, off) for w, off in self._starters if type(w).write is not Piece.write]
        self.game = None
        self.side = -1
        self.flip = False
        self.width = self.height = 1.0
        self.decision = None

    @property
    def size(self) -> int:
        return self.layout.size

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

    def set_from(self, game, side: int) -> np.ndarray:
        """Write ``side``'s observation of ``game`` into :attr:`tensor` (returned, not copied)."""
        if game is not self.game or side != self.side:
            self.start(game, side)
        # the pending decision first: the engine's option generation warms the line-of-sight cache
        self.decision = None if game.over else game.decision()
        buf = self.buf
        for w, off in self._writers:
            w.write(self, buf, off)
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
    """The layout the current code produces, as plain data (what trained models are checked against)."""
    return {"size": OBS_SIZE, "pieces": LAYOUT.describe()}
