"""Agent interface and registry (the agents' side of ``dustup_env.agent_registry``).

An agent is given the game and its pending decision and returns one of ``decision.options``, deciding only
from what its side may know: the built-in bots read the game through :class:`agents.knowledge.Knowledge`.
Agents are seeded and deterministic: the same seed and the same game give the same choices.

The interface (:class:`Agent`), the built-in ``random`` agent and the name registry live in the environment
layer (``dustup_env.agent_registry``), so that the environment resolves ``opponent="hard"`` without importing
this package: the bots join the registry through the ``dustup.agents`` entry points (``pyproject.toml``) and,
once this package is imported, in-process.
"""
from __future__ import annotations

from dustup_env.agent_registry import AGENTS, Agent, RandomAgent, agent_names, register  # noqa: F401
from dustup_env.agent_registry import make_agent as _registry_make_agent

from .knowledge import Knowledge


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

    def decide(self, k, decision):  # pragma: no cover - interface
        """The option for ``decision``, from ``k`` (:class:`agents.knowledge.Knowledge`: what the deciding side
        may know; the game itself is not given)."""
        raise NotImplementedError

    def unfamiliar(self, game) -> str | None:
        """The hand-written doctrines know every rule of the engine's catalogue; those without the aerospace doctrine
        (agents/aerospace.py: ``AIR``), ``easy``, do not fly aircraft, drop troops or fire at aircraft on purpose
        (the first legal option there)."""
        if getattr(self, "AIR", False):
            return None
        if any(r.name.startswith("Aerospace Operations") for r in game.rules.rules):
            return (f"{self.name} does not fly aircraft, drop troops or fire at aircraft on purpose (it takes the "
                    "first legal option there): it plays this scenario's aircraft badly")
        return None

    def choose(self, game, decision):
        try:
            opt = self.decide(Knowledge(game, decision.side), decision)
        except Exception:  # noqa: BLE001 - a bot must never crash a game
            opt = None
        if opt is not None:
            opt = tuple(opt)
            if opt in decision.options:
                return opt
        self.fallbacks += 1
        return default_option(decision)


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from a name such as ``random`` or ``scripted``, ``policy:PATH`` (a trained model:
    trusted files only, loading runs pickle) or ``ppo`` (the shipped trained policy).  The built-in agents are
    registered when the ``agents`` package is imported."""
    return _registry_make_agent(spec, seed=seed)
