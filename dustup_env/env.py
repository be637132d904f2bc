"""Gymnasium environment for Dustup: one step = one decision of the learning side.

See ``docs/observation.md`` for the full observation layout, the action layout and its mirroring,
the reward and the ``info`` dict.  The opponent (an agent name resolved by the agent registry, an agent
with ``.choose(game, decision)``, or a callable ``(game, decision) -> option``) plays its decisions
inside ``reset``/``step``.  The observation is written by :class:`dustup_env.observation.Observer`
(named pieces, shared with the PettingZoo and OpenSpiel interfaces).

An action outside the mask (default ``illegal_action="forfeit"``): the learner forfeits the game, as a
player who breaks the rules does (the PettingZoo classic-games convention): the step returns reward -1,
``terminated=True`` and ``info["illegal_action"] = True``; the game itself is left as it was.  Opt-ins:
``illegal_action="raise"`` raises :class:`dustup_env.rules.IllegalOptionError` (state untouched), and
``illegal_action="random"`` plays a random legal action instead (from the env's seeded RNG) and reports
``info["illegal_action"] = True``.  An index outside ``Discrete(N)`` always raises.  Use
``env.action_masks()`` (sb3-contrib ``MaskablePPO`` convention) or ``info["action_mask"]``.  The action
space is a :class:`MaskedDiscrete`: ``action_space.sample()`` without a mask draws uniformly among the
*current* legal actions (so generic tools and random baselines produce legal actions).
"""
from __future__ import annotations

import weakref

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import agent_registry
from .codec import MAX_MARKERS, MAX_UNITS, N_ACTIONS, ActionCodec, action_name, layout_for_game  # noqa: F401
from .observation import (GF, GLOBAL_FEATURES, GRID_H, GRID_W, KINDS, LAYOUT, MARKER_FEATURES,  # noqa: F401
                          MAX_OBJECTIVES, MF, OBJ_FEATURES, OBS_SIZE, OF, TC, TERRAIN_CHANNELS, UF, UNIT_FEATURES,
                          Observer, pieces_for, terrain_raster)
from .render import render_ansi, render_rgb
from .rules import ScenarioError, Game, IllegalOptionError

# where each piece of the observation starts (derived from the layout of dustup_env.observation)
UNITS_OFF = LAYOUT.offset["units"]  # 0
GLOBAL_OFF = LAYOUT.offset["globals"]  # 888
OBJ_OFF = LAYOUT.offset["objectives"]  # 903
TERRAIN_OFF = LAYOUT.offset["terrain"]  # 945
MARKER_OFF = LAYOUT.offset["markers"]  # 1425
ILLEGAL_ACTION_MODES = ("forfeit", "raise", "random")


def check_fits(game) -> None:
    """Raise ``ValueError`` unless ``game`` fits the fixed observation and action layouts."""
    slots = layout_for_game(game).units
    for s in (0, 1):
        if len(game.side_units[s]) > slots:
            raise ValueError(f"the game has {len(game.side_units[s])} units on side {s}; max {slots}")
    if len(game.objectives) > MAX_OBJECTIVES:
        raise ValueError(f"the game has {len(game.objectives)} objectives; max {MAX_OBJECTIVES}")
    if len(game.markers) > MAX_MARKERS:
        raise ValueError(f"the game has {len(game.markers)} hidden-unit markers; max {MAX_MARKERS}")


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
                 render_mode: str | None = None, max_decisions: int = 5000, illegal_action: str = "forfeit",
                 make_agent=None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        if learner_side not in (0, 1, "both", "random"):
            raise ValueError(f"learner_side must be 0, 1, 'both' or 'random', not {learner_side!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {', '.join(map(repr, ILLEGAL_ACTION_MODES))}, "
                             f"not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.scenario = scenario
        if options is not None and not isinstance(options, dict):
            raise ScenarioError(f"game options must be a dict of option names and values, not {options!r}")
        self.game_options = dict(options) if options else None
        self.render_mode = render_mode
        self.max_decisions = int(max_decisions)
        self.learner_side_mode = learner_side
        self._opponent_spec = opponent
        self._opponent, self._opponent_agent = self._make_opponent(opponent, make_agent or agent_registry.make_agent)

        probe = Game(scenario, seed=0, options=self.game_options)  # validates scenario and options
        try:
            check_fits(probe)
        except ValueError as e:
            raise ValueError(f"scenario does not fit Dustup-v0: {e}") from None
        self._probe = probe
        self.codec = ActionCodec.for_game(probe)  # 12 unit slots a side, or 32 for a company-sized scenario

        # the scenario's pieces: games with vehicles or heavy weapons add the armoured pieces after the others
        self._observer = Observer(pieces_for(probe))
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self._observer.size,), dtype=np.float32)
        self.action_space = MaskedDiscrete(self.codec.n, env=self)

        self.game: Game | None = None
        self.learner = 0
        self._episodes = 0
        self._mask = np.zeros(self.codec.n, dtype=bool)
        self._mask_for = None  # the Decision object the cached mask belongs to
        self._forfeited = False
        self._decisions = 0
        self._opp_decisions = 0

    # ------------------------------------------------------------------ opponent
    @staticmethod
    def _make_opponent(opponent, make_agent):
        if isinstance(opponent, str):
            agent = make_agent(opponent, seed=0)
            return agent.choose, agent
        if hasattr(opponent, "choose") and callable(opponent.choose):
            return opponent.choose, opponent
        if callable(opponent):
            return opponent, None
        raise TypeError("opponent must be an agent name, an agent (with .choose(game, decision)) or a callable "
                        "(game, decision) -> option")

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
        self._observer.start(self.game, self.learner)
        self._mask_for = None
        self._forfeited = False
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
        if game.over or self._forfeited:
            raise RuntimeError("the episode is over: call reset()")
        d = game.decision()
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise IllegalOptionError(f"an action is an integer index of Discrete({self.codec.n}), not {action!r}") from None
        if a != action or not 0 <= a < self.codec.n:
            raise IllegalOptionError(f"action {a} is out of range: the action space is Discrete({self.codec.n})")
        mask = self.action_masks()
        substituted = False
        if not mask[a]:
            if self.illegal_action == "random":
                legal_idx = np.flatnonzero(mask)
                a = int(legal_idx[self._sub_rng.integers(len(legal_idx))])
                substituted = True
            elif self.illegal_action == "forfeit":
                return self._forfeit()
            else:
                legal = [f"{i} ({action_name(i)})" for i in np.flatnonzero(mask)[:8]]
                raise IllegalOptionError(
                    f"action {a} ({action_name(a)}) is not legal for side {d.side}'s {d.kind} decision "
                    f"(turn {game.turn}); {int(mask.sum())} legal actions, e.g. {', '.join(legal)}")
        game.apply(self.codec.decode(game, d.side, a, d.kind))
        self._decisions += 1
        self._play_opponent()
        out = self._finish_step()
        if self.illegal_action != "raise":
            out[4]["illegal_action"] = substituted
        return out

    def _forfeit(self):
        """The learner stepped an action outside the mask: it loses the game (the game itself is unchanged)."""
        self._forfeited = True
        self._mask_for = None
        info = self._info()
        return self._observation(), -1.0, True, False, info

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
        check_fits(game)
        self.game = game
        self.learner = side
        self._forfeited = False
        if pieces_for(game) != self._observer.layout.pieces:  # a game of another kind (with or without vehicles)
            self._observer = Observer(pieces_for(game))
        if layout_for_game(game, self.codec.layout) is not self.codec.layout:  # another number of unit slots
            self.codec = ActionCodec(layout_for_game(game, self.codec.layout))
            self._mask = np.zeros(self.codec.n, dtype=bool)
        self._observer.start(game, side)
        self._mask_for = None

    def observe(self) -> np.ndarray:
        """The observation of the attached (or current) game from the learner's side (a fresh array)."""
        if self.game is None:
            raise RuntimeError("call reset() or attach() first")
        return self._observation()

    def action_masks(self) -> np.ndarray:
        """Boolean mask (length N) of the legal actions of the learner's pending decision (all False once over)."""
        game = self.game
        if game is None or game.over or self._forfeited:
            return np.zeros(self.codec.n, dtype=bool)
        d = game.decision()
        if d is not self._mask_for:
            self.codec.mask(game, d, out=self._mask)
            self._mask_for = d
        return self._mask.copy()

    def _info(self) -> dict:
        game = self.game
        info = {"side": self.learner, "decisions": self._decisions, "opponent_decisions": self._opp_decisions,
                "turn": game.turn}
        if self._forfeited:
            info.update(decision_kind="over", legal_options=0, action_mask=np.zeros(self.codec.n, dtype=bool),
                        winner=1 - self.learner, vp=tuple(game.victory_points()), end_reason="illegal action",
                        illegal_action=True)
        elif game.over:
            info.update(decision_kind="over", legal_options=0, action_mask=np.zeros(self.codec.n, dtype=bool),
                        winner=game.winner, vp=tuple(game.vp), end_reason=game.end_reason)
        else:
            d = game.decision()
            info.update(decision_kind=d.kind, legal_options=len(d.options), action_mask=self.action_masks())
            if len(game.history) >= self.max_decisions:
                info.update(winner=None, vp=tuple(game.victory_points()), end_reason="max_decisions")
        return info

    # ------------------------------------------------------------------ observation
    @property
    def observer(self) -> Observer:
        """The :class:`~dustup_env.observation.Observer` writing this env's observations (``observer.dict``:
        named views of the pieces of the last observation)."""
        return self._observer

    def _observation(self) -> np.ndarray:
        return self._observer.set_from(self.game, self.learner).copy()

    def _write_static(self) -> None:
        """(Re)start the observer on ``self.game`` from ``self.learner``'s view (for code that sets them itself)."""
        self._observer.start(self.game, self.learner)

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
