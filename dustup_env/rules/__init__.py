"""Dustup rules engine: pure Python, no Gymnasium.  See :mod:`dustup_env.rules.game`."""
from .dice import D4, D6, D8, D10, D12, ScriptedDice, SeededDice, die_name, parse_die
from .errors import (DiceScriptError, DustupError, GameOverError, IllegalOptionError, SaveFormatError,
                     ScenarioError)
from .game import DEFAULT_OPTIONS, Decision, Game
from . import command  # noqa: E402,F401  (registers orders, rally, commander casualties, panic)
from . import assault_action  # noqa: F401  (registers the Assault Action)
# issue 3 rules areas (each registers its actions and hooks on import; cavalry before moving_casualties:
# the dismounted die is set before the encumbrance shift)
from . import (cavalry, detach_element_action, medical_treatment_action, moving_casualties,  # noqa: E402,F401
               regroup_action, reorganise_tasks, travel_movement)

__all__ = ["Game", "Decision", "DEFAULT_OPTIONS", "ScriptedDice", "SeededDice", "DustupError", "IllegalOptionError",
           "GameOverError", "ScenarioError", "SaveFormatError", "DiceScriptError", "D4", "D6", "D8", "D10", "D12",
           "die_name", "parse_die"]
from . import detect_action, hidden_units, random_activation, seize_the_initiative  # noqa: F401,E402  (register rules)
from . import casualty_evacuation, heavy_equipment, reorganise_placement  # noqa: F401,E402  (issue 3 gaps)
