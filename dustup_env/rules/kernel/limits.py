"""The documented size limits of a game, shared by the engine and every layout built on it.

A side fields at most :data:`MAX_UNITS_PER_SIDE` units (32: a company of five platoons of an HQ and three
squads, with room for detachments and reinforcements).  The action and observation layouts have one slot
per unit; so that a trained policy keeps its inputs and outputs, a game whose sides field at most
:data:`PLATOON_SLOTS` units each at the start (every built-in platoon-sized scenario) gets 12 slots a side,
and a larger one :data:`COMPANY_SLOTS`.  Detachments never take a side past its game's slots.
"""
from __future__ import annotations

PLATOON_SLOTS = 12
COMPANY_SLOTS = 32
UNIT_SLOTS = (PLATOON_SLOTS, COMPANY_SLOTS)  # the slot counts a layout may have, smallest first
MAX_UNITS_PER_SIDE = COMPANY_SLOTS
MAX_MARKERS = 24  # hidden-unit markers on the table at once


def unit_slots(scenario: dict) -> int:
    """Unit slots a side of a game of ``scenario`` (a scenario document) has: the smallest of
    :data:`UNIT_SLOTS` that holds the larger side's units."""
    n = max((len(side.get("units", ())) for side in scenario.get("sides", ())), default=0)
    for slots in UNIT_SLOTS:
        if n <= slots:
            return slots
    raise ValueError(f"a side fields {n} units; at most {MAX_UNITS_PER_SIDE} a side")
