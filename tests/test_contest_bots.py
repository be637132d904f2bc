"""The scripted bots' contest of an objective the enemy stands on (agents/contest.py) and their drones
(agents/electronic_warfare.py): from the side's knowledge only.

A squad walking up to an objective the enemy holds stops 2" from the enemy's figures (the Two Inch Rule) with its
front rank ahead of its leader, more than 3" from the objective: the Reorganise Action's placement puts the leader
itself within 3" and the objective is contested."""
from __future__ import annotations

import pytest
from conftest import activate, begin, scenario, unit

from dustup_env.agent_registry import make_agent
from dustup_env.rules.kernel.entities import KILLED

OBJ = (24.0, 18.0)


def _standoff(blue_y=14.5, red_pos=OBJ):
    scn = scenario([unit("A", (24, blue_y), figures=(("rifle", 6),))],
                   [unit("B", red_pos, figures=(("rifle", 6),))],
                   objectives=[{"name": "Crossroads", "position": list(OBJ), "vp": 2}])
    return begin(scn, [6] * 60)


def _front_figure_gap(g):
    a, b = g.units[0], g.units[1]
    la, lb = a.figures[a.leader], b.figures[b.leader]
    return min(((a.x + f.dx - la.dx - (b.x + h.dx - lb.dx)) ** 2 + (a.y + f.dy - la.dy - (b.y + h.dy - lb.dy)) ** 2)
               ** 0.5 for f in a.figures if f.status != KILLED for h in b.figures if h.status != KILLED)


@pytest.mark.parametrize("name", ["scripted", "medium", "hard"])
def test_a_squad_held_off_by_the_two_inch_rule_reorganises_its_leader_onto_the_objective(name):
    g = _standoff()
    assert g.objective_holder(*OBJ) == 1
    assert _front_figure_gap(g) < 2.2  # its front rank is as near as the Two Inch Rule lets it: no move gets closer
    activate(g, 0)
    bot = make_agent(name, seed=1)
    assert bot.choose(g, g.decision()) == ("reorganise", "place")
    g.apply(("reorganise", "place"))
    d = g.decision()
    assert d.kind == "place_leader"
    g.apply(bot.choose(g, d))
    d = g.decision()
    assert d.kind == "place_formation"
    g.apply(bot.choose(g, d))
    u = g.units[0]
    assert ((u.x - OBJ[0]) ** 2 + (u.y - OBJ[1]) ** 2) ** 0.5 <= 3.0
    assert g.objective_holder(*OBJ) == -1  # contested: Red no longer scores it
    assert bot.fallbacks == 0


@pytest.mark.parametrize("name", ["scripted", "medium", "hard"])
def test_no_placement_when_nobody_is_in_the_way_or_the_leader_cannot_reach(name):
    g = _standoff(red_pos=(24.0, 40.0))  # the objective is free: the squad walks there
    activate(g, 0)
    assert make_agent(name, seed=1).choose(g, g.decision()) != ("reorganise", "place")
    g = _standoff(blue_y=10.0)  # 8" off: a 2" shift cannot put the leader within 3"
    activate(g, 0)
    assert make_agent(name, seed=1).choose(g, g.decision()) != ("reorganise", "place")


def test_easy_does_not_contest_by_placement():
    g = _standoff()
    activate(g, 0)
    assert make_agent("easy", seed=1).choose(g, g.decision()) != ("reorganise", "place")


def _drone_game(blue_pos):
    scn = scenario([unit("A", blue_pos, figures=(("rifle", 6),), drone="average")],
                   [unit("B", (40, 44), figures=(("rifle", 3),), hidden=True)],
                   terrain=[{"type": "dense_woods", "polygon": [[2, 40], [12, 40], [12, 46], [2, 46]]},
                            {"type": "dense_woods", "polygon": [[30, 30], [46, 30], [46, 47], [30, 47]]}],
                   objectives=[{"name": "Hill", "position": [24, 18], "vp": 1}])
    scn["sides"][1]["dummies"] = [[6, 43]]
    return begin(scn, [6] * 60)


@pytest.mark.parametrize("name", ["scripted", "medium", "hard"])
def test_a_drone_is_flown_from_the_units_objective_not_on_the_way_to_it(name):
    g = _drone_game((24, 18))  # on its objective, no enemy in sight, an enemy marker left: it launches
    activate(g, 0)
    assert ("drone_launch",) in g.decision().options
    assert make_agent(name, seed=1).choose(g, g.decision()) == ("drone_launch",)
    g = _drone_game((24, 4))  # 14" short of it: it goes on (a drone takes the operator's actions)
    activate(g, 0)
    assert ("drone_launch",) in g.decision().options
    assert make_agent(name, seed=1).choose(g, g.decision()) != ("drone_launch",)


def test_mediums_hq_makes_for_the_objective_nearest_it_not_a_far_one_across_open_ground():
    from agents.knowledge import Knowledge
    scn = scenario([unit("A", (30, 34), figures=(("rifle", 6),)),
                    unit("HQ", (30, 42), figures=(("rifle", 3),), kind="hq")],
                   [unit("B", (24, 4), figures=(("rifle", 3),))],
                   objectives=[{"name": "West", "position": [8, 30], "vp": 1},
                               {"name": "East", "position": [32, 36], "vp": 1}])
    g = begin(scn, [6] * 20)
    k = Knowledge(g, 0)
    assert make_agent("medium", seed=1)._goal(k, g.units[1]) == (32.0, 36.0)
    assert make_agent("scripted", seed=1)._goal(k, g.units[1]) == (8.0, 30.0)  # the least-covered one


def _share_game():
    """Three squads on the start line, an objective worth 2 straight ahead and one worth 1 a little nearer to two of
    them (an infantry game)."""
    scn = scenario([unit("A", (20, 4)), unit("B", (30, 4)), unit("C", (36, 4))],
                   [unit("R", (24, 44))],
                   objectives=[{"name": "Crossroads", "position": [24.0, 20.0], "vp": 2},
                               {"name": "Farm", "position": [34.0, 18.0], "vp": 1}])
    return begin(scn)


def test_medium_shares_its_squads_out_by_the_objectives_points():
    """``medium`` (agents/ladder.py ``VP_SHARE``): the objective worth 2 gets two squads, the one worth 1 one;
    scripted's one-each share sends two of them to the Farm."""
    from agents.knowledge import Knowledge
    g = _share_game()
    k = Knowledge(g, 0)
    bot = make_agent("medium", seed=0)
    goals = [bot._goal(k, u) for u in k.own_units]
    assert sorted(goals) == [(24.0, 20.0), (24.0, 20.0), (34.0, 18.0)]
    off = make_agent("medium", seed=0)
    off.VP_SHARE = False  # the rule off: one each, then the nearest
    assert sorted(off._goal(k, u) for u in k.own_units) == [(24.0, 20.0), (34.0, 18.0), (34.0, 18.0)]
