"""Dustup as a PettingZoo AEC environment: two agents, ``side_0`` and ``side_1``, take turns as the game asks.

    from dustup_env.pettingzoo import env
    e = env(scenario="default")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

The agent to act (``agent_selection``) is the side of the game's pending decision: the same side often
decides several times in a row (its unit's actions, the steps of an assault, ...).  Each agent's
observation is a dict (the PettingZoo convention for masked action spaces, as in the classic games):

- ``"observation"``: that side's view, the ``Box(0, 1, (2166,), float32)`` of ``Dustup-v0``
  (:class:`dustup_env.observation.Observer`: only what the side may know, mirrored so its home edge is
  at the bottom; docs/observation.md);
- ``"action_mask"``: ``int8[2461]``, 1 exactly for the legal actions of the pending decision when the agent
  is the one to act, all 0 otherwise (the codec of ``Dustup-v0``).

Rewards are terminal: +1 for the winner, -1 for the loser, 0 each for a draw or a truncation (the game
reached ``max_decisions`` decisions).  An action outside the mask (default ``illegal_action="forfeit"``)
loses the game for the agent that played it (-1, and +1 for the other side; both terminated,
``infos[agent]["illegal_action"] = True``); ``illegal_action="raise"`` raises
:class:`dustup_env.rules.IllegalOptionError` instead.  ``infos[agent]`` holds ``decision_kind`` and
``legal_options`` (of the agent's pending decision, ``"wait"``/0 for the other agent), ``turn``, and at the
end ``winner``, ``vp`` and ``end_reason``.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .codec import N_ACTIONS, ActionCodec, action_name  # noqa: F401  (N_ACTIONS: the standard layout's size)
from .env import check_fits
from .observation import OBS_SIZE, Observer, pieces_for  # noqa: F401
from .render import render_ansi, render_rgb
from .rules import Game, IllegalOptionError

AGENTS = ("side_0", "side_1")


def env(**kwargs) -> AECEnv:
    """The Dustup AEC environment with PettingZoo's usual wrappers (actions in range, reset before step)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    """Dustup for two agents (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "dustup_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, scenario="default", options: dict | None = None, render_mode: str | None = None,
                 max_decisions: int = 5000, illegal_action: str = "forfeit"):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        if illegal_action not in ("forfeit", "raise"):
            raise ValueError(f"illegal_action must be 'forfeit' or 'raise', not {illegal_action!r}")
        self.scenario = scenario
        self.game_options = dict(options) if options else None
        self.render_mode = render_mode
        self.max_decisions = int(max_decisions)
        self.illegal_action = illegal_action
        probe = Game(scenario, seed=0, options=self.game_options)  # validates the scenario and the options
        try:
            check_fits(probe)
        except ValueError as e:
            raise ValueError(f"scenario does not fit the Dustup observation: {e}") from None
        self.possible_agents = list(AGENTS)
        self.agents: list = []
        self.codec = ActionCodec.for_game(probe)  # 12 unit slots a side, or 32 for a company-sized scenario
        n = self.codec.n
        pieces = pieces_for(probe)  # games with vehicles or heavy weapons add the armoured pieces
        self._observers = [Observer(pieces), Observer(pieces)]
        obs_space = spaces.Dict({"observation": spaces.Box(0.0, 1.0, shape=(self._observers[0].size,),
                                                           dtype=np.float32),
                                 "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)})
        self._observation_spaces = {a: obs_space for a in AGENTS}
        self._action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.game: Game | None = None
        self._np_random, _ = seeding.np_random(None)

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent):
        return self._observation_spaces[agent]

    def action_space(self, agent):
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        options = options or {}
        game_seed = options.get("game_seed")
        if game_seed is None:
            game_seed = int(self._np_random.integers(0, 2**31 - 1))
        self.game = Game(self.scenario, seed=int(game_seed), options=self.game_options)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        for s in (0, 1):
            self._observers[s].start(self.game, s)
        self.agent_selection = AGENTS[self.game.decision().side]
        self._update_infos()

    def observe(self, agent) -> dict:
        side = AGENTS.index(agent)
        game = self.game
        mask = np.zeros(self.codec.n, dtype=np.int8)
        if not game.over and not self.terminations.get(agent, True) and not self.truncations.get(agent, True):
            d = game.decision()
            if d.side == side:
                mask[self.codec.indices(game, d)] = 1
        return {"observation": self._observers[side].observation(game, side), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for terminated or truncated agents")
        game = self.game
        side = AGENTS.index(agent)
        d = game.decision()
        a = int(action)
        if not 0 <= a < self.codec.n:
            raise IllegalOptionError(f"action {a} is out of range: the action space is Discrete({self.codec.n})")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        legal = self.codec.indices(game, d)
        if a not in legal:
            if self.illegal_action == "raise":
                raise IllegalOptionError(
                    f"action {a} ({action_name(a)}) is not legal for {agent}'s {d.kind} decision (turn {game.turn}); "
                    f"{len(legal)} legal actions, e.g. {', '.join(f'{i} ({action_name(i)})' for i in legal[:8])}")
            self._end({agent: -1.0, AGENTS[1 - side]: 1.0}, truncated=False, winner=1 - side,
                      reason="illegal action", illegal=agent)
            self._accumulate_rewards()
            return
        game.apply(self.codec.decode(game, side, a, d.kind))
        if game.over:
            w = game.winner
            r = {a_: 0.0 for a_ in AGENTS} if w is None or w < 0 else \
                {AGENTS[w]: 1.0, AGENTS[1 - w]: -1.0}
            self._end(r, truncated=False, winner=w, reason=game.end_reason)
        elif len(game.history) >= self.max_decisions:
            self._end({a_: 0.0 for a_ in AGENTS}, truncated=True, winner=None, reason="max_decisions")
        else:
            self.agent_selection = AGENTS[game.decision().side]
            self._update_infos()
        self._accumulate_rewards()

    def _end(self, rewards: dict, truncated: bool, winner, reason: str, illegal: str | None = None) -> None:
        game = self.game
        vp = tuple(game.vp) if game.over else tuple(game.victory_points())
        for a in self.agents:
            self.rewards[a] = rewards[a]
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
            self.infos[a] = {"decision_kind": "over", "legal_options": 0, "turn": game.turn, "winner": winner,
                             "vp": vp, "end_reason": reason}
            if illegal is not None:
                self.infos[a]["illegal_action"] = a == illegal

    def _update_infos(self) -> None:
        game = self.game
        d = game.decision()
        for a in self.agents:
            mine = AGENTS[d.side] == a
            self.infos[a] = {"decision_kind": d.kind if mine else "wait", "legal_options": len(d.options) if mine else 0,
                             "turn": game.turn}

    # ------------------------------------------------------------------ the rest
    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode (choose 'ansi' or 'rgb_array')")
            return None
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        return render_ansi(self.game) if self.render_mode == "ansi" else render_rgb(self.game)

    def close(self) -> None:
        pass
