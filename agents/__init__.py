"""Agents: every agent picks one option of the game's pending decision through the legal-option API."""
from .base import Agent, make_agent, AGENTS  # noqa: F401
