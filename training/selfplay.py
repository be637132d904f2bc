"""Self-play: the opponent pool, prioritised fictitious self-play (PFSP) and the training environment.

* :class:`PoolOpponent` is the opponent inside each training environment: at every episode it draws
  one entry of the pool (a scripted bot, or a frozen snapshot of the learner ``policy:PATH``) with
  the weights the trainer last sent, and plays it.
* :class:`PFSP` keeps the learner's recent results per entry and turns them into sampling weights:
  ``hard`` ``(1 - x)^p`` (most weight where the learner scores least), ``variance`` ``x (1 - x)``,
  ``uniform``; a floor keeps every entry in play, and a ``self_play`` share goes to the latest snapshot.
* :class:`TrainingEnv` wraps ``DustupEnv``: the terminal reward (+1 / 0 / -1) plus an optional
  zero-sum shaping ``c * delta(own VP - enemy VP) / 10`` with the VP as the learner knows them (the
  observation's VP globals, capped at 10 each): a potential difference with no discount and no
  per-step term, so an episode's shaping sums to ``c * (final VP difference - initial) / 10`` whatever
  its length (stalling earns nothing); episode statistics and the pool result in ``info``.
"""
from __future__ import annotations

import random
from collections import deque

import gymnasium as gym
import numpy as np

from agents import make_agent
from agents.base import Agent
from dustup_env.env import GLOBAL_OFF, GLOBAL_FEATURES

_VP_ME = GLOBAL_OFF + GLOBAL_FEATURES.index("my_vp")
_VP_ENEMY = GLOBAL_OFF + GLOBAL_FEATURES.index("enemy_vp")


class PoolOpponent(Agent):
    """An opponent drawn per episode from a weighted pool of agent specs (see module doc)."""

    name = "pool"

    def __init__(self, entries=(("random", "random"),), weights=None, seed: int = 0):
        super().__init__(seed)
        self._pick_rng = random.Random(seed)
        self._agents: dict = {}
        self.current = None
        self.current_name = None
        self.set_pool(list(entries), weights)

    def set_pool(self, entries, weights=None) -> None:
        """``entries``: list of (name, agent spec); ``weights``: sampling weights (uniform if None)."""
        entries = [tuple(e) for e in entries]
        if not entries:
            raise ValueError("empty opponent pool")
        w = np.ones(len(entries)) if weights is None else np.asarray(weights, dtype=float)
        if len(w) != len(entries) or not np.all(w >= 0) or w.sum() <= 0:
            raise ValueError("pool weights must be non-negative, one per entry, not all zero")
        self.entries = entries
        self.cum = np.cumsum(w / w.sum())
        live = {spec for _, spec in entries}
        for spec in list(self._agents):
            if spec not in live:
                del self._agents[spec]

    def reset(self, seed: int | None = None) -> None:
        k = int(np.searchsorted(self.cum, self._pick_rng.random(), side="right"))
        name, spec = self.entries[min(k, len(self.entries) - 1)]
        agent = self._agents.get(spec)
        if agent is None:
            agent = self._agents[spec] = make_agent(spec, seed=0)
        agent.reset(seed)
        self.current, self.current_name = agent, name

    def choose(self, game, decision):
        return self.current.choose(game, decision)


class PFSP:
    """Per-entry recent learner scores -> sampling weights (see module doc)."""

    def __init__(self, mode: str = "hard", power: float = 2.0, floor: float = 0.05, self_play: float = 0.2,
                 window: int = 400):
        self.mode, self.power, self.floor, self.self_play, self.window = mode, power, floor, self_play, window
        self.results: dict = {}

    def record(self, name: str, score: float) -> None:
        self.results.setdefault(name, deque(maxlen=self.window)).append(float(score))

    def score(self, name: str) -> float:
        """Recent learner score against ``name`` with a weak prior (two games at 0.5)."""
        r = self.results.get(name, ())
        return (sum(r) + 1.0) / (len(r) + 2.0)

    def weights(self, names: list, latest: str | None = None) -> np.ndarray:
        x = np.array([self.score(n) for n in names])
        if self.mode == "hard":
            w = (1.0 - x) ** self.power
        elif self.mode == "variance":
            w = x * (1.0 - x)
        else:
            w = np.ones(len(names))
        w = np.maximum(w, self.floor * max(w.max(), 1e-9))
        w = w / w.sum()
        if latest is not None and latest in names and self.self_play > 0:
            w = (1.0 - self.self_play) * w
            w[names.index(latest)] += self.self_play
        return w

    def state(self) -> dict:
        return {n: list(r) for n, r in self.results.items()}

    def load_state(self, state: dict) -> None:
        self.results = {n: deque(r, maxlen=self.window) for n, r in state.items()}


class TrainingEnv(gym.Wrapper):
    """``DustupEnv`` against a :class:`PoolOpponent`, with the zero-sum VP shaping and episode info."""

    def __init__(self, scenario="default", sides="both", options=None, max_decisions: int = 5000,
                 vp_shaping: float = 0.0, entries=(("random", "random"),), weights=None, seed: int = 0,
                 obs_size: int | None = None):
        from dustup_env.env import DustupEnv

        self.pool = PoolOpponent(entries, weights, seed=seed)
        env = DustupEnv(scenario=scenario, opponent=self.pool, learner_side=sides, options=options,
                        max_decisions=max_decisions)
        super().__init__(env)
        # a run mixing infantry and armoured scenarios: every env has the armoured observation (one observation
        # space per run); an infantry game's armoured pieces are all zero (none of its units has their features),
        # each piece at its place in the run's layout (observation.project)
        n = env.observation_space.shape[0]
        self._pad = None  # (the env's layout, the run's) when they differ
        if obs_size is not None and obs_size != n:
            from dustup_env.observation import layout_of_size

            if obs_size < n:
                raise ValueError(f"the scenario's observation has {n} values, more than the run's {obs_size}")
            self._pad = (env.unwrapped.observer.layout, layout_of_size(obs_size))
            self.observation_space = gym.spaces.Box(0.0, 1.0, shape=(obs_size,), dtype=np.float32)
        self.vp_shaping = float(vp_shaping)
        self._phi = 0.0
        self._ret = 0.0
        self._len = 0

    @staticmethod
    def _potential(obs) -> float:
        """(own VP - enemy VP) / 10 as the learner knows them: the observation's VP globals (no extra cost)."""
        return float(obs[_VP_ME] - obs[_VP_ENEMY])

    def _padded(self, obs):
        if self._pad is None:
            return obs
        from dustup_env.observation import project

        return project(obs, *self._pad)

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        obs = self._padded(obs)
        self._phi = self._potential(obs)
        self._ret, self._len = 0.0, 0
        return obs, info

    def step(self, action):
        obs, reward, term, trunc, info = self.env.step(action)
        obs = self._padded(obs)
        if self.vp_shaping:
            phi = self._potential(obs)
            reward += self.vp_shaping * (phi - self._phi)
            self._phi = phi
        self._ret += reward
        self._len += 1
        if term or trunc:
            u = self.env.unwrapped
            w = u.game.winner if term else None
            score = 0.5 if w in (None, -1) else (1.0 if w == u.learner else 0.0)
            info["pool_result"] = (self.pool.current_name, score, u.learner)
            info["episode"] = {"r": self._ret, "l": self._len, "t": 0.0}
        return obs, float(reward), term, trunc, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()

    def set_pool(self, entries, weights) -> None:
        self.pool.set_pool(entries, weights)


def make_training_env(scenario, sides, options, max_decisions, vp_shaping, entries, weights, seed, obs_size=None):
    """Module-level factory (picklable for the worker processes)."""
    env = TrainingEnv(scenario, sides, options, max_decisions, vp_shaping, entries, weights, seed, obs_size)
    env.reset(seed=seed)
    return env
