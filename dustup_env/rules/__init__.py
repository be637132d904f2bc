"""Dustup rules engine: pure Python, no Gymnasium.  See :mod:`dustup_env.rules.game`."""
from .dice import D4, D6, D8, D10, D12, ScriptedDice, SeededDice, die_name, parse_die
from .errors import (DiceScriptError, DustupError, GameOverError, IllegalOptionError, SaveFormatError,
                     ScenarioError)
from .game import DEFAULT_OPTIONS, Decision, Game
from . import command  # noqa: E402,F401  (registers orders, rally, commander casualties, panic)
from . import assault_action  # noqa: F401  (registers the Assault Action)

__all__ = ["Game", "Decision", "DEFAULT_OPTIONS", "ScriptedDice", "SeededDice", "DustupError", "IllegalOptionError",
           "GameOverError", "ScenarioError", "SaveFormatError", "DiceScriptError", "D4", "D6", "D8", "D10", "D12",
           "die_name", "parse_die"]
from . import detect_action, hidden_units, random_activation, seize_the_initiative  # noqa: F401,E402  (register rules)
