"""Gymnasium environment for Dustup: one step = one decision of the learning side.

See ``docs/observation.md`` for the full observation layout, the action layout and its mirroring,
the reward and the ``info`` dict.  The opponent (a named agent, an :class:`agents.Agent` or a callable
``(game, decision) -> option``) plays its decisions inside ``reset``/``step``.

Illegal actions raise :class:`dustup_env.rules.IllegalOptionError` and leave the game untouched (the
default ``illegal_action="raise"``; the explicit opt-in ``illegal_action="random"`` instead plays a random
legal action from the env's seeded RNG and reports ``info["illegal_action"] = True``, for maskless
algorithms and for generic checkers that step actions sampled before a reset).  Use
``env.action_masks()`` (sb3-contrib ``MaskablePPO`` convention) or ``info["action_mask"]``.  The action
space is a :class:`MaskedDiscrete`: ``action_space.sample()`` without a mask draws uniformly among the
*current* legal actions (so generic tools and random baselines produce legal actions).
"""
from __future__ import annotations

import weakref
from operator import attrgetter
from array import array

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .codec import MAX_MARKERS, MAX_UNITS, N_ACTIONS, ActionCodec, action_name, side_flips
from .rules import Game, IllegalOptionError
from .rules.kernel.battlefield import OBSTACLE_TYPES, TERRAIN_TYPES
from .rules.kernel.entities import KILLED, OK, ROUTED
from .rules.rules_overview.victory import OBJECTIVE_RADIUS
from .render import render_ansi, render_rgb

# ---------------------------------------------------------------------------------------------- layout
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
# the unit attributes a slot shows (besides its figures' status and the number of weapons fired): the cache key
# of the slot.  Every one is an immutable value (numbers, flags), so a stored key never changes behind our back.
_UNIT_KEY = attrgetter("x", "y", "suppression", "confidence", "propped", "complete_concealment", "activated",
                       "leader_lost", "routed_off", "loose", "lv", "under_fire_before", "suppressed_before",
                       "evacuated", "inbound")
_STATUS = attrgetter("status")
GLOBAL_FEATURES = (
    "turn", "actions_left", "kind_initiative", "kind_activate", "kind_action", "my_decision", "learner_side",
    "initiative_mine", "my_unactivated", "enemy_unactivated", "my_vp", "enemy_vp", "my_in_play", "enemy_in_play",
    "mirrored",
)
GF = len(GLOBAL_FEATURES)  # 15
MAX_OBJECTIVES = 6
OBJ_FEATURES = ("present", "x", "y", "vp", "mine", "theirs", "contested")
OF = len(OBJ_FEATURES)  # 7
GRID_W, GRID_H = 12, 8
TERRAIN_CHANNELS = ("blocks_los", "conceals", "cover", "move_cost", "obstacle")
TC = len(TERRAIN_CHANNELS)

UNITS_OFF = 0
GLOBAL_OFF = UNITS_OFF + 2 * MAX_UNITS * UF  # 888
OBJ_OFF = GLOBAL_OFF + GF  # 903
TERRAIN_OFF = OBJ_OFF + MAX_OBJECTIVES * OF  # 945
MARKER_FEATURES = ("present", "x", "y", "mine", "real", "unit_slot")
MF = len(MARKER_FEATURES)  # 6
MARKER_OFF = TERRAIN_OFF + TC * GRID_H * GRID_W  # 1425
OBS_SIZE = MARKER_OFF + MAX_MARKERS * MF  # 1569

KINDS = {"initiative": 0, "activate": 1, "action": 2, "seize": 1}
_VP_SCALE = 10.0


# ---------------------------------------------------------------------------------------------- terrain
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


# ---------------------------------------------------------------------------------------------- spaces
class MaskedDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws among the owning env's current legal actions."""

    def __init__(self, n: int, env=None, seed=None):
        super().__init__(n, seed=seed)
        self._env_ref = weakref.ref(env) if env is not None else None

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._env_ref is not None:
            env = self._env_ref()
            if env is not None and env.game is not None and not env.game.over:
                mask = env.action_masks().astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_env_ref"] = None
        return state

    def __repr__(self) -> str:
        return f"MaskedDiscrete({int(self.n)})"


# ---------------------------------------------------------------------------------------------- env
class DustupEnv(gym.Env):
    """Dustup as a single-agent Gymnasium environment (see module docstring and docs/observation.md)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, scenario="default", opponent="random", learner_side=0, options: dict | None = None,
                 render_mode: str | None = None, max_decisions: int = 5000, illegal_action: str = "raise"):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        if learner_side not in (0, 1, "both", "random"):
            raise ValueError(f"learner_side must be 0, 1, 'both' or 'random', not {learner_side!r}")
        if illegal_action not in ("raise", "random"):
            raise ValueError(f"illegal_action must be 'raise' or 'random', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.scenario = scenario
        self.game_options = dict(options) if options else None
        self.render_mode = render_mode
        self.max_decisions = int(max_decisions)
        self.learner_side_mode = learner_side
        self.codec = ActionCodec()
        self._opponent_spec = opponent
        self._opponent, self._opponent_agent = self._make_opponent(opponent)

        probe = Game(scenario, seed=0, options=self.game_options)  # validates scenario and options
        for s in (0, 1):
            if len(probe.side_units[s]) > MAX_UNITS:
                raise ValueError(f"scenario has {len(probe.side_units[s])} units on side {s}; max {MAX_UNITS}")
        if len(probe.objectives) > MAX_OBJECTIVES:
            raise ValueError(f"scenario has {len(probe.objectives)} objectives; max {MAX_OBJECTIVES}")
        if len(probe.markers) > MAX_MARKERS:
            raise ValueError(f"scenario has {len(probe.markers)} hidden-unit markers; max {MAX_MARKERS}")
        self._probe = probe
        self._terrain = terrain_raster(probe.bf)

        self.observation_space = spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.action_space = MaskedDiscrete(N_ACTIONS, env=self)

        self.game: Game | None = None
        self.learner = 0
        self._episodes = 0
        self._buf = array("f", bytes(4 * OBS_SIZE))
        self._obs_view = np.frombuffer(self._buf, dtype=np.float32)
        self._mask = np.zeros(N_ACTIONS, dtype=bool)
        self._mask_for = None  # the Decision object the cached mask belongs to
        self._vis_key = None
        self._vis = None
        self._vis_written = None  # the visibility result whose flags are in the buffer
        self._pairs_bf = None  # the battlefield whose line-of-sight results ``_pairs`` holds
        self._pairs: dict = {}
        self._decisions = 0
        self._opp_decisions = 0

    # ------------------------------------------------------------------ opponent
    @staticmethod
    def _make_opponent(opponent):
        if isinstance(opponent, str):
            from agents import make_agent

            agent = make_agent(opponent, seed=0)
            return agent.choose, agent
        if hasattr(opponent, "choose") and callable(opponent.choose):
            return opponent.choose, opponent
        if callable(opponent):
            return opponent, None
        raise TypeError("opponent must be an agent name, an Agent (with .choose(game, decision)) or a callable")

    # ------------------------------------------------------------------ gym API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0  # an explicit seed restarts the "both" alternation (side 0 first)
        options = options or {}
        rng = self.np_random
        game_seed = int(options.get("game_seed", rng.integers(0, 2**31 - 1)))
        opp_seed = int(rng.integers(0, 2**31 - 1))
        self._sub_rng = np.random.default_rng(int(rng.integers(0, 2**31 - 1)))
        mode = options.get("learner_side", self.learner_side_mode)
        if mode == "both":
            self.learner = self._episodes % 2
        elif mode == "random":
            self.learner = int(rng.integers(0, 2))
        elif mode in (0, 1):
            self.learner = int(mode)
        else:
            raise ValueError(f"learner_side must be 0, 1, 'both' or 'random', not {mode!r}")
        self._episodes += 1
        if self._opponent_agent is not None and hasattr(self._opponent_agent, "reset"):
            self._opponent_agent.reset(opp_seed)
        self.game = Game(self.scenario, seed=game_seed, options=self.game_options)
        self._flip = side_flips(self.game, self.learner)
        self._write_static()
        self._vis_key = None
        self._mask_for = None
        self._decisions = 0
        self._opp_decisions = 0
        self._play_opponent()
        if self.game.over:  # pragma: no cover - a game cannot end before the learner's first decision
            raise RuntimeError("the game ended before the learner's first decision")
        return self._observation(), self._info()

    def step(self, action):
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.over:
            raise RuntimeError("the episode is over: call reset()")
        d = game.decision()
        a = int(action)
        if not 0 <= a < N_ACTIONS:
            raise IllegalOptionError(f"action {a} is out of range: the action space is Discrete({N_ACTIONS})")
        mask = self.action_masks()
        substituted = False
        if not mask[a] and self.illegal_action == "random":
            legal_idx = np.flatnonzero(mask)
            a = int(legal_idx[self._sub_rng.integers(len(legal_idx))])
            substituted = True
        if not mask[a]:
            legal = [f"{i} ({action_name(i)})" for i in np.flatnonzero(mask)[:8]]
            raise IllegalOptionError(
                f"action {a} ({action_name(a)}) is not legal for side {d.side}'s {d.kind} decision "
                f"(turn {game.turn}); {int(mask.sum())} legal actions, e.g. {', '.join(legal)}")
        game.apply(self.codec.decode(game, d.side, a, d.kind))
        self._decisions += 1
        self._play_opponent()
        out = self._finish_step()
        if self.illegal_action == "random":
            out[4]["illegal_action"] = substituted
        return out

    def _finish_step(self):
        game = self.game
        terminated = game.over
        truncated = (not terminated) and len(game.history) >= self.max_decisions
        reward = 0.0
        if terminated and game.winner is not None and game.winner >= 0:
            reward = 1.0 if game.winner == self.learner else -1.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _play_opponent(self):
        game = self.game
        learner = self.learner
        choose = self._opponent
        while not game.over:
            d = game.decision()
            if d.side == learner:
                return
            if len(game.history) >= self.max_decisions:
                return
            game.apply(choose(game, d))
            self._opp_decisions += 1

    # ------------------------------------------------------------------ observing a game played elsewhere
    def attach(self, game: Game, side: int) -> None:
        """Observe an existing ``game`` from ``side``'s view (no opponent is played, nothing is stepped).

        For agents driven by a trained policy (``agents/policy.py``) and for self-play opponents: after
        ``attach``, :meth:`observe` and :meth:`action_masks` give exactly the observation and mask the
        environment would give a learner playing ``side`` of that game.  Re-attach when the game object
        changes; the caches follow the game's state by themselves within one game.
        """
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1, not {side!r}")
        for s in (0, 1):
            if len(game.side_units[s]) > MAX_UNITS:
                raise ValueError(f"the game has {len(game.side_units[s])} units on side {s}; max {MAX_UNITS}")
        if len(game.objectives) > MAX_OBJECTIVES or len(game.markers) > MAX_MARKERS:
            raise ValueError("the game has more objectives or hidden-unit markers than the observation holds")
        self.game = game
        self.learner = side
        self._terrain = terrain_raster(game.bf)
        self._flip = side_flips(game, side)
        self._write_static()
        self._vis_key = None
        self._mask_for = None

    def observe(self) -> np.ndarray:
        """The observation of the attached (or current) game from the learner's side (a fresh array)."""
        if self.game is None:
            raise RuntimeError("call reset() or attach() first")
        return self._observation()

    def action_masks(self) -> np.ndarray:
        """Boolean mask (length N) of the legal actions of the learner's pending decision (all False once over)."""
        game = self.game
        if game is None or game.over:
            return np.zeros(N_ACTIONS, dtype=bool)
        d = game.decision()
        if d is not self._mask_for:
            self.codec.mask(game, d, out=self._mask)
            self._mask_for = d
        return self._mask.copy()

    def _info(self) -> dict:
        game = self.game
        info = {"side": self.learner, "decisions": self._decisions, "opponent_decisions": self._opp_decisions,
                "turn": game.turn}
        if game.over:
            info.update(decision_kind="over", legal_options=0, action_mask=np.zeros(N_ACTIONS, dtype=bool),
                        winner=game.winner, vp=tuple(game.vp), end_reason=game.end_reason)
        else:
            d = game.decision()
            info.update(decision_kind=d.kind, legal_options=len(d.options), action_mask=self.action_masks())
            if len(game.history) >= self.max_decisions:
                info.update(winner=None, vp=tuple(game.victory_points()), end_reason="max_decisions")
        return info

    # ------------------------------------------------------------------ observation
    def _write_static(self):
        """Zero the buffer and write the parts that are fixed for an episode (terrain, objectives' places)."""
        buf = self._obs_view
        buf[:] = 0.0
        self._vis_written = None
        terr = self._terrain[1 if self._flip else 0]
        buf[TERRAIN_OFF:MARKER_OFF] = terr.ravel()
        g = self.game
        bf = g.bf
        W, H = bf.width, bf.height
        for i, (_, ox, oy, vp) in enumerate(g.objectives):
            o = OBJ_OFF + i * OF
            buf[o] = 1.0
            buf[o + 1] = ox / W
            buf[o + 2] = (H - oy) / H if self._flip else oy / H
            buf[o + 3] = min(vp / 5.0, 1.0)
        gb = GLOBAL_OFF
        buf[gb + 6] = float(self.learner)
        buf[gb + 14] = 1.0 if self._flip else 0.0
        self._write_units()

    def _write_units(self):
        """Unit constants and slots (again whenever a detachment adds a unit mid-game)."""
        g = self.game
        buf = self._obs_view
        me = self.learner
        for side, base_slot in ((me, 0), (1 - me, MAX_UNITS)):
            for slot, uid in enumerate(g.side_units[side]):
                u = g.units[uid]
                o = UNITS_OFF + (base_slot + slot) * UF
                buf[o] = 1.0
                buf[o + _F["grenades"]] = 1.0 if u.grenades else 0.0
                buf[o + _F["movement"]] = min(u.movement / 4.0, 1.0)
        # (unit, slot offset, uid, side, enemy?) per slot: own units first, then the enemy's
        self._unit_slots = [(g.units[uid], UNITS_OFF + (s * MAX_UNITS + k) * UF, uid, side, s == 1)
                            for s, side in enumerate((me, 1 - me)) for k, uid in enumerate(g.side_units[side])]
        n = len(self._unit_slots)
        self._unit_cache = [None] * n
        # running totals over the slots, changed by the difference whenever a slot's contribution changes:
        # per slot (side, in play, unactivated, objectives it is near, counts as lost if not in play)
        self._contrib = [None] * n
        self._inplay, self._unact, self._lost = [0, 0], [0, 0], [0, 0]
        self._near = [[0] * len(g.objectives), [0] * len(g.objectives)]
        self._vkeys = [None] * n  # per slot (x, y, in play, hidden enemy): the visibility key
        self._vis_units = None  # (own in play, enemy in play and not hidden), rebuilt when a vkey changes
        self._active_written = -1  # the uid whose "active" flag is set in the buffer

    def _visibility(self, key: list, mine: list, theirs: list) -> dict:
        """uid -> visible flag, cached on ``key`` (every unit's leader position, in-play and hidden flags).

        Enemy slot: seen from some own in-play leader; own slot: seen by some enemy in-play leader.  ``mine``:
        the own in-play units; ``theirs``: the enemy in-play units that are not hidden (hidden enemies are
        unknown).  Line of sight (``bf.sight(own, enemy).visible``) is symmetric (hills and woods depth do not
        depend on the direction), so each pair is queried once, in the own -> enemy direction the engine also
        uses, and a pair is skipped once both its units are known to be seen.
        """
        if key == self._vis_key:
            return self._vis
        bf = self.game.bf
        if bf is not self._pairs_bf:  # line of sight depends only on the (static) terrain and the two points
            self._pairs_bf = bf
            self._pairs = {}
        pairs = self._pairs  # own uid * 1024 + enemy uid -> (ox, oy, ex, ey, visible): most pairs did not move
        sight = bf.sight
        cached = bf._sight_cache.get  # peek both directions first (the engine queries firer -> target)
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

    def _count(self, c: tuple, sign: int) -> None:
        """Add (sign 1) or remove (sign -1) one slot's contribution to the running totals."""
        s, ip, ua, on, counts_lost = c
        if ip:
            self._inplay[s] += sign
            if ua:
                self._unact[s] += sign
            near = self._near[s]
            for i in on:
                near[i] += sign
        elif counts_lost:
            self._lost[s] += sign

    def _observation(self) -> np.ndarray:
        g = self.game
        b = self._buf
        bf = g.bf
        W, H = bf.width, bf.height
        flip = self._flip
        me = self.learner
        active = g.active if g.phase == "action" else -1
        d = None if g.over else g.decision()  # first: the engine's option generation warms the sight cache
        objs = g.objectives
        cell_of = bf._cell
        conceal_t, cover_t = bf._conceal, bf._cover
        r2 = OBJECTIVE_RADIUS * OBJECTIVE_RADIUS
        cache = self._unit_cache
        if len(self._unit_slots) != len(g.side_units[0]) + len(g.side_units[1]):
            self._write_units()  # a detachment joined the game
            cache = self._unit_cache
        contrib, vkeys = self._contrib, self._vkeys
        vis_changed = False
        for j, (u, o, uid, s, enemy) in enumerate(self._unit_slots):
            if enemy and u.hidden:  # a hidden enemy unit: an empty slot (only its marker shows)
                if cache[j] != "hidden":
                    self._obs_view[o:o + UF] = 0.0
                    cache[j] = "hidden"
                ip = u.in_play
                c = (s, ip, ip and not u.activated, (), False)  # counted in play, never as lost
                vk = (u.x, u.y, ip, True)
            else:
                st = list(map(_STATUS, u.figures))
                key = (_UNIT_KEY(u), len(u.fired), st)  # everything the slot shows (C-level attribute reads)
                ent = cache[j]
                if ent is not None and ent != "hidden" and ent[0] == key:
                    continue  # nothing this slot shows or counts has changed
                x, y = u.x, u.y
                c = u.confidence
                b[o] = 1.0
                b[o + _F["grenades"]] = 1.0 if u.grenades else 0.0
                b[o + _F["movement"]] = min(u.movement / 4.0, 1.0)
                able = st.count(OK)
                killed = st.count(KILLED)
                wounded = len(st) - able - killed
                ip = able > 0 and not u.routed_off and not u.evacuated and not u.inbound  # = Unit.in_play
                b[o + 1] = 1.0 if ip else 0.0
                b[o + 2] = x / W
                b[o + 3] = (H - y) / H if flip else y / H
                b[o + 4] = able * 0.1 if able < 10 else 1.0
                b[o + 5] = wounded * 0.1 if wounded < 10 else 1.0
                b[o + 6] = killed * 0.1 if killed < 10 else 1.0
                b[o + 7] = u.suppression / 3.0
                b[o + 8] = b[o + 9] = b[o + 10] = b[o + 11] = b[o + 12] = 0.0
                b[o + 8 + c] = 1.0
                b[o + 13] = 1.0 if u.propped else 0.0
                b[o + 14] = 1.0 if u.complete_concealment else 0.0
                b[o + 15] = 1.0 if u.activated else 0.0
                q = u.quality if u.quality < 4 else 4
                b[o + 16] = b[o + 17] = b[o + 18] = b[o + 19] = b[o + 20] = 0.0
                b[o + 16 + q] = 1.0
                b[o + 21] = u.lv / 3.0
                cell = cell_of(x, y)
                cv = cover_t[cell]
                cn = conceal_t[cell]
                b[o + 22] = 1.0 if (cn or cv > 0) else 0.0
                b[o + 23] = cv * 0.5
                b[o + 24] = 1.0 if cn else 0.0
                b[o + 26] = 1.0 if uid == active else 0.0
                b[o + 27] = 1.0 if u.leader_lost else 0.0
                b[o + 28] = 1.0 if u.routed_off else 0.0
                b[o + 29] = 1.0 if u.loose else 0.0
                nf = len(st)
                b[o + 32] = len(u.fired) / nf if u.fired else 0.0
                b[o + 33] = 1.0 if u.kind == "single" else 0.0
                b[o + 34] = 1.0 if u.under_fire_before else 0.0
                b[o + 35] = 1.0 if u.suppressed_before else 0.0
                on = []
                if ip and c != ROUTED:
                    for i, (_, ox, oy, _v) in enumerate(objs):
                        dx, dy = x - ox, y - oy
                        if dx * dx + dy * dy <= r2:
                            on.append(i)
                b[o + 36] = 1.0 if on else 0.0
                cache[j] = (key, ip, on)
                c = (s, ip, ip and not u.activated, tuple(on), True)
                vk = (x, y, ip, False)
            old = contrib[j]
            if old != c:
                if old is not None:
                    self._count(old, -1)
                self._count(c, 1)
                contrib[j] = c
            if vkeys[j] != vk:
                vkeys[j] = vk
                vis_changed = True
        if active != self._active_written:  # the active flag moves (recomputed slots wrote their own above)
            for _u, o, uid, _s, enemy in self._unit_slots:
                if uid == self._active_written or uid == active:
                    if not (enemy and _u.hidden):  # hidden enemy slots stay empty
                        b[o + 26] = 1.0 if uid == active else 0.0
            self._active_written = active
        if vis_changed or self._vis_units is None:
            mine, theirs = [], []
            for (u, _o, _uid, _s, enemy), vk in zip(self._unit_slots, vkeys):
                if vk[2] and not vk[3]:
                    (theirs if enemy else mine).append(u)
            self._vis_units = (mine, theirs)
        vis = self._visibility(vkeys, *self._vis_units)
        if vis is not self._vis_written:  # the flags in the buffer are still those of this result otherwise
            for u, o, uid, _s, enemy in self._unit_slots:
                if not (enemy and u.hidden):
                    b[o + 25] = 1.0 if uid in vis and vis[uid] else 0.0
            self._vis_written = vis
        inplay, unact, lost = self._inplay, self._unact, self._lost
        near0 = [n > 0 for n in self._near[0]]
        near1 = [n > 0 for n in self._near[1]]
        vp = [lost[1], lost[0]]
        for i, (_, _ox, _oy, v) in enumerate(objs):
            n0, n1 = near0[i], near1[i]
            o = OBJ_OFF + i * OF
            mine, theirs = (n0, n1) if me == 0 else (n1, n0)
            b[o + 4] = 1.0 if mine and not theirs else 0.0
            b[o + 5] = 1.0 if theirs and not mine else 0.0
            b[o + 6] = 1.0 if mine and theirs else 0.0
            if n0 != n1:
                vp[0 if n0 else 1] += v
        markers = g.markers
        if markers:
            own = {uid: k for k, uid in enumerate(g.side_units[me])}
            for i, m in enumerate(markers):
                o = MARKER_OFF + i * MF
                if m["removed"]:
                    b[o] = b[o + 1] = b[o + 2] = b[o + 3] = b[o + 4] = b[o + 5] = 0.0
                    continue
                mine = m["side"] == me
                b[o] = 1.0
                b[o + 1] = m["x"] / W
                b[o + 2] = (H - m["y"]) / H if flip else m["y"] / H
                b[o + 3] = 1.0 if mine else 0.0
                real = mine and m["unit"] >= 0  # only the owner knows which of its markers are real
                b[o + 4] = 1.0 if real else 0.0
                b[o + 5] = own[m["unit"]] / MAX_UNITS if real else 0.0
        gb = GLOBAL_OFF
        b[gb] = g.turn / g.turn_limit
        b[gb + 1] = g.actions_left * 0.5 if g.phase == "action" else 0.0
        b[gb + 2] = b[gb + 3] = b[gb + 4] = 0.0
        if d is None:
            b[gb + 5] = 0.0
        else:
            b[gb + 2 + KINDS.get(d.kind, 2)] = 1.0  # procedure decisions (assault steps...) count as "action"
            b[gb + 5] = 1.0 if d.side == me else 0.0
        b[gb + 7] = 1.0 if g.initiative_winner == me else 0.0
        b[gb + 8] = unact[me] / MAX_UNITS
        b[gb + 9] = unact[1 - me] / MAX_UNITS
        mv, ev = vp[me] / _VP_SCALE, vp[1 - me] / _VP_SCALE
        b[gb + 10] = mv if mv < 1.0 else 1.0
        b[gb + 11] = ev if ev < 1.0 else 1.0
        b[gb + 12] = inplay[me] / MAX_UNITS
        b[gb + 13] = inplay[1 - me] / MAX_UNITS
        return self._obs_view.copy()

    # ------------------------------------------------------------------ rendering
    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode (choose 'ansi' or 'rgb_array')")
            return None
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "ansi":
            return render_ansi(self.game)
        return render_rgb(self.game)
