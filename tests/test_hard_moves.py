"""``hard`` scores a move where the walk would actually stop (``Knowledge.move_end``: terrain, obstacles and 2"
from the enemy figures and markers its side knows of), so a unit next to the enemy no longer spends actions on
moves that cannot advance (the Move Action: "It cannot end closer than 2" to an enemy figure", seed 000 "Move
Action")."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from agents import make_agent
from agents.hard import HardAgent
from agents.knowledge import HiddenInformationError, Knowledge
from conftest import activate, begin, rect, scenario, unit
from dustup_env.rules import Game
from dustup_env.rules.unit_actions.move_action import nominated_point
from evaluation.simulate import game_seed

ROOT = Path(__file__).resolve().parent.parent


class OldHard(HardAgent):
    """``hard`` scoring moves at the nominated point (before the fix)."""

    name = "hard-no-reach"
    REACH = False


def _crossroads() -> dict:
    text = (ROOT / "docs" / "scenarios.md").read_text()
    return json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))


def _moved(g: Game, first: int, uid: int) -> list[dict]:
    return [e for e in (x.to_dict() for x in g.events[first:]) if e["type"] == "Moved" and e["unit"] == uid]


def test_move_end_is_where_the_move_stops():
    """The preview walks exactly as the Move Action does (forced movement die), stopping 2" from the enemy's
    figures and its hidden unit's marker, and it is for the side's own units only."""
    scn = scenario([unit("A", (24, 20))],
                   [unit("B", (30, 26)), unit("H", (18, 26), hidden=True)],
                   terrain=[rect("light_woods", 14, 23, 22, 30)])
    for direction, points, roll in ((0, 10.0, 5), (2, 8.0, 4), (14, 12.0, 6), (8, 4.0, 2)):
        g = begin(scn, dice=[("d6", roll)])
        activate(g, 0)
        k = Knowledge(g, 0)
        px, py = nominated_point(g.units[0], direction, 2)
        preview = k.move_end(0, px, py, points)
        n = len(g.events)
        g.apply(("move", direction, 2))
        (ev,) = _moved(g, n, 0)
        assert ev["points"] == points
        assert ev["end"] == [round(preview[0], 3), round(preview[1], 3)], (direction, preview, ev)
    with pytest.raises(HiddenInformationError):
        Knowledge(g, 0).move_end(1, 30.0, 40.0, 10.0)


@pytest.mark.parametrize("gap", [3.5, 4.0])
def test_hard_does_not_pick_a_move_that_cannot_advance(gap):
    """A squad 3.5-4" south of an enemy squad with its objective straight beyond it: the old scoring walks
    into the enemy (the move stops at once), the new one does not."""
    scn = scenario([unit("A", (24, 20))], [unit("B", (24, 20 + gap))],
                   objectives=[{"name": "north", "position": [24, 40], "vp": 2}])
    wasted = {}
    for cls in (HardAgent, OldHard):
        g = begin(scn, dice=[("d6", 6)])
        activate(g, 0)
        agent = cls(0)
        agent.reset(0)
        k = Knowledge(g, 0)
        opt = agent._manoeuvre(k, g.decision(), g.units[0])  # its movement choice (it would shoot otherwise)
        n = len(g.events)
        g.apply(opt)
        wasted[cls.name] = [e for e in _moved(g, n, 0) if math.dist(e["start"], e["end"]) < 0.6]
    assert wasted["hard-no-reach"], "the old scoring no longer walks into the enemy: the test shows nothing"
    assert not wasted["hard"], wasted


def stuck_moves(doc: dict, opponent: str, i: int, hard=("hard", None), near: float = 6.0) -> int:
    """Game ``i`` of ``dustup simulate --agents hard,OPPONENT`` (hard on side i % 2): the moves of hard's units
    that left the leader where it was while an enemy unit was within ``near`` inches."""
    seed = game_seed(0, i)
    side = i % 2
    agents = [None, None]
    agents[side] = hard[1](0) if hard[1] is not None else make_agent(hard[0], seed=0)
    agents[1 - side] = make_agent(opponent, seed=0)
    for s, a in enumerate(agents):
        a.reset(seed * 2 + s)
    g = Game(doc, seed=seed)
    n = 0
    while not g.over:
        d = g.decision()
        opt = tuple(agents[d.side].choose(g, d))
        first = len(g.events)
        g.apply(opt)
        if d.side != side or opt[0] != "move":
            continue
        for e in _moved(g, first, d.unit):
            u = g.units[d.unit]
            close = min((math.dist((u.x, u.y), (v.x, v.y)) for v in g.units if v.side != side and v.in_play),
                        default=1e9)
            if math.dist(e["start"], e["end"]) < 1e-6 and close <= near:
                n += 1
    return n


# games of `dustup simulate --agents hard,easy --scenario crossroads.json` (docs/scenarios.md's example) where the
# old hard's Scouts and Xray kept trying moves that could not advance next to the enemy
GAMES = (3, 25, 55, 75)


def test_hard_wastes_no_moves_next_to_the_enemy_on_crossroads():
    doc = _crossroads()
    old = sum(stuck_moves(doc, "easy", i, hard=("hard-no-reach", OldHard)) for i in GAMES)
    new = sum(stuck_moves(doc, "easy", i) for i in GAMES)
    assert old >= 10, old  # the waste the fix removes (19 in these games)
    assert new == 0, new
