"""Scripted heuristic bot (placeholder being written)."""
from .base import AGENTS, RandomAgent


class ScriptedAgent(RandomAgent):
    name = "scripted"


AGENTS["scripted"] = ScriptedAgent
