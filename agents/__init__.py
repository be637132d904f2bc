"""Agents: every agent picks one option of the game's pending decision through the legal-option API."""
from .base import AGENTS, Agent, make_agent  # noqa: F401
