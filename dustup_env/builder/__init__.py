"""The battle builder: a random, valid Dustup scenario from a seed (seed 001 "Game Setup - Battle Builder").

``generate_scenario(seed, points=None, table=(72, 48), with_=None)`` returns a scenario document
(docs/scenarios.md) that validates against the scenario schema and builds a ``Game``; ``dustup build`` writes
one to a file.  Pure Python on the rules engine: no agents, training, evaluation, Gymnasium or torch.
docs/builder.md describes the points system, the charts and the conditions.
"""
from __future__ import annotations

from .charts import CONDITIONS, DEPLOYMENTS, FORCE_OPTIONS, OBJECTIVES, WITH_OPTIONS
from .generate import BuildError, build, default_points, generate_scenario, parse_with, roll_off
from .points import force_points, unit_points

__all__ = ["BuildError", "CONDITIONS", "DEPLOYMENTS", "FORCE_OPTIONS", "OBJECTIVES", "WITH_OPTIONS", "build",
           "default_points", "force_points", "generate_scenario", "parse_with", "roll_off", "unit_points"]
