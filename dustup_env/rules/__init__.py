"""Dustup rules engine: pure Python, no Gymnasium.

The public API: :class:`Game` (see :mod:`dustup_env.rules.kernel.game`), its decisions and options, the
dice sources for tests, and the errors.  The packages follow the rulebook: ``kernel`` (the turn
sequence, decisions, state, dice, events, measurement, battlefield), ``forces``, ``rules_overview``,
``unit_actions``, ``morale``, ``armoured_dustup``, ``artillery_and_air_support``,
``aerospace_operations``, ``additional_rules``; and the optional modules of the other rules texts:
``house_rules`` (seed 003) and ``vehicle_design`` (seed 002).  :mod:`.catalogue` lists the standard rules
in order; docs/architecture.md maps every rules section to its module.
"""
from . import catalogue  # noqa: F401  (binds the standard rules to Game)
from .kernel.data import load_scenario, scenario_names
from .kernel.decisions import Decision
from .kernel.dice import D4, D6, D8, D10, D12, ScriptedDice, SeededDice, die_name, parse_die
from .kernel.errors import (DiceScriptError, DustupError, GameOverError, IllegalOptionError, InvalidArgumentError,
                            SaveFormatError, ScenarioError)
from .kernel.game import DEFAULT_OPTIONS, Game
from .kernel.ruleset import Option, Rule, RuleSet

__all__ = ["Game", "Decision", "DEFAULT_OPTIONS", "Rule", "Option", "RuleSet", "ScriptedDice", "SeededDice",
           "DustupError", "IllegalOptionError", "GameOverError", "ScenarioError", "SaveFormatError", "InvalidArgumentError",
           "DiceScriptError", "D4", "D6", "D8", "D10", "D12", "die_name", "parse_die", "load_scenario",
           "scenario_names"]
