"""The battle builder's charts: deployment, objectives and game conditions (docs/builder.md, "The charts").

Seed 001 (Battle Builder, step 3b) has the scenario points buy entries "on the Objective, Deployment or Conditions
Consult charts found on pages 65-67 of the Core Rulebook", a book that is not provided: these charts are written
for Dustup (RN-1152).  Geometry is given in a frame of the two sides: *along* runs from side 0's home edge to side
1's (inches), *across* along the edges.  A zone is ``(across0, across1, along0, along1)``.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Deployment:
    name: str
    title: str
    edges: str  # "ns": homes south / north; "we": west / east
    turns: int  # the turn limit this scenario sets (S001:5)
    roles: bool  # an attacker and a defender (the buyer of the entry chooses, RN-1153)
    text: str


DEPLOYMENTS = (
    Deployment("meeting", "meeting engagement", "ns", 8, False,
               "each side deploys within 12\" (a quarter of the table's depth if less) of its home edge, the long edges"),
    Deployment("flank", "flank battle", "we", 8, False,
               "each side deploys within 12\" (a sixth of the table's length if less) of its home edge, the short "
               "edges"),
    Deployment("attack_defend", "attack / defend", "ns", 8, True,
               "the defender deploys anywhere in its half more than 6\" from the centre line, the attacker within "
               "10\" (a quarter of the depth if less) of its home edge"),
    Deployment("hold", "hold the ground", "ns", 7, True,
               "the defender deploys in the middle third of the table (a third of its width and depth around the "
               "centre), the attacker within 10\" (a quarter of the depth if less) of its home edge"),
    Deployment("raid", "raid", "ns", 6, True,
               "the defender deploys anywhere in its half, the attacker within 8\" (a sixth of the depth if less) "
               "of its home edge; a short game"),
)
DEPLOYMENT = {d.name: d for d in DEPLOYMENTS}


def zones(dep: Deployment, across: float, along: float, defender: int) -> list[tuple[float, float, float, float]]:
    """The two sides' deployment zones in the frame (side 0's first)."""
    if dep.name in ("meeting", "flank"):
        d = min(12.0, along / (4 if dep.name == "meeting" else 6))
        return [(0.0, across, 0.0, d), (0.0, across, along - d, along)]
    if dep.name == "attack_defend":
        att, dfn = (0.0, min(10.0, along / 4)), (along / 2 + 6.0, along)
    elif dep.name == "hold":
        att, dfn = (0.0, min(10.0, along / 4)), (along / 3, 2 * along / 3)
    else:  # raid
        att, dfn = (0.0, min(8.0, along / 6)), (along / 2, along)
    lo, hi = (across / 3, 2 * across / 3) if dep.name == "hold" else (0.0, across)
    attacker_zone = (0.0, across) + att
    defender_zone = (lo, hi) + dfn
    if defender == 1:
        return [attacker_zone, defender_zone]
    flip = lambda z: (z[0], z[1], along - z[3], along - z[2])  # noqa: E731 - the mirror image for side 0
    return [flip(defender_zone), flip(attacker_zone)]


@dataclass(frozen=True)
class ObjectiveEntry:
    name: str
    title: str
    text: str


OBJECTIVES = (
    ObjectiveEntry("centre", "hold the centre", "one objective at the centre of the table worth 3 VP"),
    ObjectiveEntry("line", "the line", "three objectives on the centre line, at a quarter, half and three quarters "
                                       "of its length, worth 1, 2 and 1 VP"),
    ObjectiveEntry("vital_ground", "vital ground", "an objective in each half, a quarter of the depth from each "
                                                  "home edge on the middle, worth 2 VP each, and one at the centre "
                                                  "worth 1 VP"),
    ObjectiveEntry("demolition", "demolition", "two tasks in the defender's half (a third of the depth from its "
                                              "home edge, at a third and two thirds of the width), worth 2 VP each "
                                              "to the attacker (a reorganise action within 2\"); with no attacker "
                                              "and defender, the side that bought the entry is the attacker"),
    ObjectiveEntry("attrition", "attrition", "no objectives: victory points only for enemy units out of the fight"),
)
OBJECTIVE = {o.name: o for o in OBJECTIVES}


def objective_points(entry: str, across: float, along: float, attacker: int) -> tuple[list, list]:
    """(objectives, tasks) in the frame: ``[(name, across, along, vp)]`` and ``[(name, across, along, vp, side)]``."""
    if entry == "centre":
        return [("Centre", across / 2, along / 2, 3)], []
    if entry == "line":
        return [("West point", across / 4, along / 2, 1), ("Centre", across / 2, along / 2, 2),
                ("East point", 3 * across / 4, along / 2, 1)], []
    if entry == "vital_ground":
        return [("Near ground", across / 2, along / 4, 2), ("Centre", across / 2, along / 2, 1),
                ("Far ground", across / 2, 3 * along / 4, 2)], []
    if entry == "demolition":
        b = 2 * along / 3 if attacker == 0 else along / 3
        return [], [("Demolition A", across / 3, b, 2, attacker), ("Demolition B", 2 * across / 3, b, 2, attacker)]
    return [], []


@dataclass(frozen=True)
class Condition:
    name: str
    text: str


CONDITIONS = (
    Condition("night", "a night battle: the game option night (detection ranges / 3 for unaided eyes, the target "
                       "die +2 without night vision)"),
    Condition("reinforcements", "a third of each side's units (at least one; not the HQ, no transport or passenger) "
                                "arrive as reinforcements: off the table in box 1-3 of the inbound track, entering "
                                "at their home edge"),
    Condition("hidden", "up to half of each side's infantry units that stand in concealing terrain in their zone "
                        "start hidden, each with up to two dummy markers in concealing terrain of the zone"),
    Condition("jamming", "communications jamming: the game option jamming; each side's comms D8 and a jammer D6 "
                         "or D8"),
    Condition("chits", "random activation by chits: the game option activation \"chits\""),
    Condition("cards", "random activation by cards: the game option activation \"cards\""),
    Condition("seize", "one seize-the-initiative token each: the game option seize_tokens 1"),
)
CONDITION = {c.name: c for c in CONDITIONS}
EXCLUSIVE = (("chits", "cards"), ("chits", "seize"), ("cards", "seize"))  # one activation sequence; seize tokens need the alternating one

# --with options: the conditions, and three that widen the forces' lists
FORCE_OPTIONS = {"vehicles": "vehicles of the design library (tanks, APCs carrying squads) and anti-armour rockets",
                 "heavy_weapons": "crew-served heavy-weapon teams of the design library (hmg_team, missile_team)",
                 "power_armour": "power-armoured squads"}
WITH_OPTIONS = tuple(FORCE_OPTIONS) + tuple(c.name for c in CONDITIONS)
