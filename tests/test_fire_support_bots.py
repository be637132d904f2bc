"""The scripted bots' fire support (agents/fire_support.py, RN-1473): they call fire on enemies they see in the open,
aim clear of their own troops by the burst radius plus the scatter's likely distance plus the ground covered during
the delay, fire due missions when their aim point is still clear and hold them otherwise."""
from __future__ import annotations

import math

import pytest

from conftest import activate, begin, rect, scenario, unit
from dustup_env.agent_registry import make_agent
from dustup_env.rules.artillery_and_air_support import fire_missions
from dustup_env.rules.artillery_and_air_support.fire_support_request import fire_support_state

RADIUS = 6.0  # a large round


def _game(squad=(24, 8), dice=()):
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"), unit("Squad", squad)],
                   [unit("Red", (24, 40))])
    scn["sides"][0]["fire_support"] = [{"name": "Battery", "firer": "battalion", "size": "large", "rounds": 3,
                                        "missions": 2}]
    return begin(scn, dice)


def _own_figures(g, side=0):
    return [(u.x + f.dx, u.y + f.dy) for u in g.units if u.side == side and u.in_play
            for i, f in enumerate(u.figures) if i in u.able()]


@pytest.mark.parametrize("name", ["hard", "scripted", "medium"])
def test_the_bots_call_fire_on_a_seen_enemy_in_the_open_and_aim_clear_of_their_troops(name):
    bot = make_agent(name, seed=0)
    g = _game(dice=[("d8", 8)])
    activate(g, 0)
    assert bot.choose(g, g.decision()) == ("request_fire", 0, 0)
    g.apply(("request_fire", 0, 0))
    d = g.decision()
    assert d.kind == "fire_target"
    _, x, y = bot.choose(g, d)
    red = g.units[2]
    assert math.hypot(red.x - x, red.y - y) <= RADIUS  # the burst would catch the enemy
    margin = RADIUS + 4.5 * g.units[0].lv + 6.0 * fire_missions.DELAY["battalion"]
    assert all(math.hypot(fx - x, fy - y) > margin for fx, fy in _own_figures(g))


def test_no_call_where_the_burst_would_reach_their_own_troops():
    bot = make_agent("hard", seed=0)
    g = _game(squad=(24, 30))  # 10" from the enemy: inside the margin
    activate(g, 0)
    assert bot.choose(g, g.decision())[0] != "request_fire"


def test_the_firing_unit_of_an_on_table_asset_stays_with_its_piece():
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"),
                    unit("Mortar", (30, 3), figures=(("rifle", 3),), heavy_weapon="towed_field_gun")],
                   [unit("Red", (24, 44))], terrain=[rect("building", 4, 20, 44, 30)])  # nothing in sight
    scn["sides"][0]["fire_support"] = [{"name": "Guns", "firer": "on_table", "unit": "Mortar", "missions": 1}]
    g = begin(scn)
    activate(g, 1)
    d = g.decision()
    assert any(o[0] == "move" for o in d.options)
    assert make_agent("hard", seed=0).choose(g, d) == ("end",)  # it never walks away from its piece


def _due(g, x, y):
    fire_missions.add_mission(g, 0, 0, 0, [(x, y)])
    m = fire_support_state(g)["missions"][-1]
    m["state"], m["box"] = fire_missions.DUE, 0
    g.invalidate()


def test_a_due_mission_is_fired_at_once_while_clear_and_held_back_near_own_troops():
    bot = make_agent("hard", seed=0)
    g = _game()
    _due(g, 24.0, 40.0)
    d = g.decision()
    assert ("fire_mission", 0) in d.options and bot.choose(g, d) == ("fire_mission", 0)
    g = _game(squad=(24, 33))  # 7" from the aim point: within the radius plus the scatter
    _due(g, 24.0, 40.0)
    d = g.decision()
    assert bot.choose(g, d)[0] == "activate"  # a unit activates; the mission waits (the loiter box at the turn's end)


def test_games_without_fire_support_never_reach_the_doctrine():
    from agents.fire_support import FS_OPTIONS
    bot = make_agent("hard", seed=0)
    g = begin(scenario([unit("HQ", (24, 5))], [unit("Red", (24, 40))]))
    activate(g, 0)
    d = g.decision()
    from agents.knowledge import Knowledge
    assert not {o[0] for o in d.options} & set(FS_OPTIONS) and bot._fs_decide(Knowledge(g, 0), d) is None
