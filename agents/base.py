"""Agent interface and registry.

An agent is given the game and its pending decision and returns one of ``decision.options``.
Agents are seeded and deterministic: the same seed and the same game give the same choices.
"""
from __future__ import annotations

import random


class Agent:
    name = "agent"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Called at the start of each game."""
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)

    def choose(self, game, decision):  # pragma: no cover - interface
        raise NotImplementedError


def default_option(decision):
    """A safe legal choice for any decision, known or not: forgo the action if that is legal, else the
    first option (the engine lists options in a stable order)."""
    opts = decision.options
    return ("end",) if ("end",) in opts else opts[0]


class GuardedAgent(Agent):
    """An agent whose ``decide`` may meet decision kinds or option shapes it does not know (the engine
    grows new rules): anything it cannot handle -- an exception, ``None`` or an option that is not
    legal -- falls back to :func:`default_option` instead of forfeiting the game.  ``fallbacks``
    counts those (tests expect none on the built-in scenarios)."""

    fallbacks = 0

    def decide(self, game, decision):  # pragma: no cover - interface
        raise NotImplementedError

    def choose(self, game, decision):
        try:
            opt = self.decide(game, decision)
        except Exception:  # noqa: BLE001 - a bot must never crash a game
            opt = None
        if opt is not None:
            opt = tuple(opt)
            if opt in decision.options:
                return opt
        self.fallbacks += 1
        return default_option(decision)


class RandomAgent(Agent):
    """Uniformly random among the legal options."""

    name = "random"

    def choose(self, game, decision):
        opts = decision.options
        return opts[self.rng.randrange(len(opts))]


AGENTS = {"random": RandomAgent}


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from a name such as ``random`` or ``scripted``, ``policy:PATH`` (a trained model:
    trusted files only, loading runs pickle) or ``ppo`` (the shipped trained policy)."""
    if spec == "ppo" or spec.startswith("policy:"):
        from .policy import make_policy_agent

        return make_policy_agent(spec, seed=seed)
    if spec not in AGENTS:
        from . import ladder
        from . import scripted  # noqa: F401  (register themselves)
    if spec not in AGENTS:
        raise ValueError(f"unknown agent {spec!r}: known agents are {', '.join(sorted(AGENTS))}, ppo and policy:PATH")
    return AGENTS[spec](seed=seed)
