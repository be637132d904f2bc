"""Dustup rules engine: pure Python, no Gymnasium.  See :mod:`dustup_env.rules.game`."""
from .dice import D4, D6, D8, D10, D12, ScriptedDice, SeededDice, die_name, parse_die
from .errors import (DiceScriptError, DustupError, GameOverError, IllegalOptionError, SaveFormatError,
                     ScenarioError)
from .game import DEFAULT_OPTIONS, Decision, Game
from . import assault_action  # noqa: F401  (registers the Assault Action)

__all__ = ["Game", "Decision", "DEFAULT_OPTIONS", "ScriptedDice", "SeededDice", "DustupError", "IllegalOptionError",
           "GameOverError", "ScenarioError", "SaveFormatError", "DiceScriptError", "D4", "D6", "D8", "D10", "D12",
           "die_name", "parse_die"]
