"""Dustup rules engine: pure Python, no Gymnasium.

The public API: :class:`Game` (see :mod:`dustup_env.rules.kernel.game`), its decisions and options, the
dice sources for tests, and the errors.  The packages follow the rulebook: ``kernel`` (the turn
sequence, decisions, state, dice, events, measurement, battlefield), ``forces``, ``rules_overview``,
``unit_actions``, ``morale``, ``armoured_dustup``, ``artillery_and_air_support``,
``aerospace_operations``, ``additional_rules``; and the optional modules of the other rules texts:
``house_rules`` (seed 003) and ``vehicle_design`` (seed 002).  docs/architecture.md maps every rules
section to its module.
"""
from .kernel.dice import D4, D6, D8, D10, D12, ScriptedDice, SeededDice, die_name, parse_die
from .kernel.errors import (DiceScriptError, DustupError, GameOverError, IllegalOptionError, SaveFormatError,
                            ScenarioError)
from .kernel.game import DEFAULT_OPTIONS, Decision, Game
from .unit_actions import command  # noqa: E402,F401  (registers orders, rally, commander casualties, panic)
from .unit_actions import assault_action  # noqa: F401  (registers the Assault Action)
# each rules module registers its actions and hooks on import (cavalry before moving_casualties: the
# dismounted die is set before the encumbrance shift)
from .forces import cavalry  # noqa: E402,F401
from .unit_actions import (detach_element_action, medical_treatment_action, moving_casualties,  # noqa: E402,F401
                           regroup_action, reorganise_tasks, travel_movement)

__all__ = ["Game", "Decision", "DEFAULT_OPTIONS", "ScriptedDice", "SeededDice", "DustupError", "IllegalOptionError",
           "GameOverError", "ScenarioError", "SaveFormatError", "DiceScriptError", "D4", "D6", "D8", "D10", "D12",
           "die_name", "parse_die"]
from .unit_actions import detect_action, hidden_units  # noqa: F401,E402  (register rules)
from .rules_overview import random_activation, seize_the_initiative  # noqa: F401,E402
from .additional_rules import casualty_evacuation  # noqa: F401,E402
from .unit_actions import encumbrance, reorganise_placement  # noqa: F401,E402
