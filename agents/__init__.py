"""Agents: every agent picks one option of the game's pending decision through the legal-option API.

Importing the package registers the built-in agents in the process (they also join through the
``dustup.agents`` entry points, so ``Dustup-v0`` resolves them without importing this package)."""
from .base import AGENTS, Agent, make_agent  # noqa: F401
from . import ladder, levels, mcts, policy, scripted  # noqa: F401,E402  (register themselves)
from . import analysis  # noqa: F401,E402  (the search agents' analysis API joins mcts)
