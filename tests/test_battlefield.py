"""Battlefield: terrain costs, line of sight, concealment and cover from terrain and obstacles."""
import pytest

from conftest import rect, scenario, unit, wall
from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.kernel.battlefield import TERRAIN_TYPES, Battlefield
from dustup_env.rules.unit_actions.shoot_action import shoot_geometry


def bf(terrain=(), obstacles=()):
    return Battlefield(scenario([unit("A", (1, 1))], [unit("B", (2, 2))], terrain=terrain, obstacles=obstacles))


# --- the seed's movement cost table ------------------------------------------------------------------------
NORMAL = {"open": 1, "light_scrub": 1, "slopes": 1, "road": 1, "rough": 2, "cultivated": 2, "swamp": 2,
          "light_woods": 2, "dense_woods": 2, "river": 3, "open_water": None}
POWER = {"open": 1, "light_scrub": 1, "rough": 1, "cultivated": 1, "slopes": 1, "road": 1, "swamp": 2,
         "light_woods": 2, "dense_woods": 2, "river": 3, "open_water": None}


@pytest.mark.parametrize("ttype", sorted(NORMAL))
def test_terrain_costs(ttype):
    b = bf([rect(ttype, 10, 10, 20, 20)])
    assert b.terrain_at(15, 15) == ttype
    assert b.move_cost(15, 15) == NORMAL[ttype]
    assert b.move_cost(15, 15, power_armour=True) == POWER[ttype]
    assert b.move_cost(5, 5) == 1 and b.terrain_at(5, 5) == "open"


def test_every_terrain_type_has_a_cost_entry():
    assert set(TERRAIN_TYPES) >= set(NORMAL)
    assert TERRAIN_TYPES["building"][0] == 2


def test_top_most_feature_wins():
    b = bf([rect("rough", 0, 0, 30, 30), rect("road", 10, 0, 12, 30)])
    assert b.terrain_at(11, 5) == "road" and b.terrain_at(20, 5) == "rough"


def test_table_bounds():
    b = bf()
    assert b.on_table(0, 0) and b.on_table(48, 48) and not b.on_table(-0.1, 5) and not b.on_table(5, 48.1)


# --- line of sight --------------------------------------------------------------------------------------------
def test_hill_blocks_unless_an_end_is_on_it():
    b = bf([rect("hill", 20, 20, 28, 28)])
    assert b.has_los(24, 5, 24, 40) is False
    assert b.has_los(24, 24, 24, 40) is True  # firer on the hill
    assert b.has_los(24, 5, 24, 24) is True  # target on the hill
    assert b.has_los(5, 5, 5, 40) is True  # line misses the hill


@pytest.mark.parametrize("ttype,depth,visible", [("light_woods", 4.0, True), ("light_woods", 4.5, False),
                                                 ("dense_woods", 2.0, True), ("dense_woods", 2.5, False),
                                                 ("building", 2.0, True), ("building", 3.0, False)])
def test_woods_and_buildings_block_beyond_a_depth(ttype, depth, visible):
    b = bf([rect(ttype, 10, 30, 38, 48)])
    s = b.sight(24, 5, 24, 30 + depth)
    assert s.visible is visible
    if visible:
        assert s.concealed is True


def test_seeing_through_a_wood_edge_conceals():
    b = bf([rect("light_woods", 20, 20, 28, 22)])  # a 2" strip across the line
    s = b.sight(24, 5, 24, 40)
    assert (s.visible, s.concealed, s.cover) == (True, True, 0)


@pytest.mark.parametrize("otype,concealed,cover", [("wall", True, 2), ("hedge", True, 1), ("fence", False, 0)])
def test_obstacle_near_the_target(otype, concealed, cover):
    b = bf(obstacles=[wall(otype, 20, 37, 28, 37)])
    s = b.sight(24, 5, 24, 40)
    assert (s.visible, s.concealed, s.cover) == (True, concealed, cover)


def test_obstacle_near_the_firer_does_nothing():
    b = bf(obstacles=[wall("wall", 20, 8, 28, 8)])
    s = b.sight(24, 5, 24, 40)
    assert (s.visible, s.concealed, s.cover) == (True, False, 0)


def test_terrain_concealment_and_cover_at_a_point():
    b = bf([rect("light_scrub", 0, 0, 10, 10), rect("light_woods", 10, 0, 20, 10), rect("building", 20, 0, 30, 10),
            rect("rough", 30, 0, 40, 10)])
    assert [b.conceals(5, 5), b.conceals(15, 5), b.conceals(25, 5), b.conceals(35, 5), b.conceals(45, 5)] == \
        [True, True, True, False, False]
    assert [b.cover_at(5, 5), b.cover_at(15, 5), b.cover_at(25, 5), b.cover_at(35, 5), b.cover_at(45, 5)] == \
        [0, 1, 2, 1, 0]
    assert [b.in_cover(5, 5), b.in_cover(35, 5), b.in_cover(45, 5)] == [True, True, False]


def test_target_in_hard_cover_building_in_play():
    scn = scenario([unit("A", (24, 5))], [unit("B", (24, 35), armour="partial_light")],
                   terrain=[rect("building", 20, 34, 28, 40)])
    g = Game(scn, seed=1)
    assert shoot_geometry(g, g.units[0], g.units[1]) == (1, 2)


# --- obstacles crossing -------------------------------------------------------------------------------------------
def test_obstacle_crossing_cost_counts_each_crossing_once():
    b = bf(obstacles=[wall("wall", 0, 10, 48, 10, cost=2), wall("fence", 0, 20, 48, 20, cost=1)])
    assert b.obstacle_crossing_cost(5, 5, 5, 25) == 3.0
    assert b.obstacle_crossing_cost(5, 5, 5, 15) == 2.0
    assert b.obstacle_crossing_cost(5, 11, 5, 15) == 0.0
    # a step ending on the wall pays; the next step starting on it does not
    assert b.obstacle_crossing_cost(5, 9.5, 5, 10) == 2.0
    assert b.obstacle_crossing_cost(5, 10, 5, 10.5) == 0.0
    assert b.obstacle_crossing_cost(0, 10, 48, 10) == 0.0  # along the wall


def test_invalid_polygon_is_a_scenario_error():
    scn = scenario([unit("A", (1, 1))], [unit("B", (2, 2))], terrain=[{"type": "rough", "polygon": [[0, 0], [1, 1], [2, 2]]}])
    with pytest.raises(ScenarioError, match="terrain feature #0"):
        Game(scn)


# --- issue 3: the movement columns for open water (RN-041, RN-354) ---------------------------------------------
def test_open_water_cost_by_movement_column():
    from dustup_env.rules.kernel.battlefield import (AMPHIBIOUS, AMPHIBIOUS_POWER_ARMOUR, INFANTRY, POWER_ARMOUR,
        WADING_POWER_ARMOUR, terrain_column)
    b = bf([rect("open_water", 10, 10, 20, 20), rect("rough", 30, 30, 40, 40)])
    assert [b.move_cost(15, 15, c) for c in range(5)] == [None, None, 2, 2, 3]
    assert [b.move_cost(35, 35, c) for c in range(5)] == [2, 1, 2, 1, 1]  # other terrain keeps its column
    assert b.move_cost(15, 15, True) is None and b.move_cost(35, 35, True) == 1
    assert terrain_column(False) == INFANTRY and terrain_column(True) == POWER_ARMOUR
    assert terrain_column(False, amphibious=True) == AMPHIBIOUS
    assert terrain_column(True, amphibious=True, wading=True) == AMPHIBIOUS_POWER_ARMOUR
    assert terrain_column(True, wading=True) == WADING_POWER_ARMOUR
    assert terrain_column(False, wading=True) == INFANTRY  # only power armour wades
