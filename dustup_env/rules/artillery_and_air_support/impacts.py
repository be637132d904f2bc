"""Resolving impacts (seed 000 "Resolving Impacts"): the art-impact side of the shared interface
(docs/architecture.md).  A placeholder until the resolution is merged: ``resolve_mission(game, mission)`` resolves
one fire mission at its impact from its plain data."""
from __future__ import annotations


def resolve_mission(game, mission: dict) -> None:
    raise NotImplementedError("resolving fire-support impacts is not built on this branch")
