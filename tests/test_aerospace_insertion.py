"""Aerospace Operations: high altitude or orbital insertion (seed 000 L1846-1858;
aerospace_operations/insertion.py): who may drop, the landing point roll against 4, D6" or D6 x 2" from the
nominated point, a landing zone off the table lost, each model D10" (doubled from orbit), the quality roll per model,
difficult ground and open water.  Forced dice."""
import pytest
from conftest import begin, events_of, last_event, rect, scenario, unit

from dustup_env.rules import Game
from dustup_env.rules.kernel.entities import KILLED, OK, WOUNDED
from dustup_env.rules.kernel.errors import ScenarioError

U = 1  # the inserted unit (uid 1; the HQ is uid 0)


def drop_game(how="parachute", pos=(24, 24), quality="d10", terrain=(), dice=(), **kw):
    blue = [unit("HQ", (2, 2), figures=(("rifle", 3),)),
            unit("Drop", pos, figures=(("rifle", 3),), quality=quality, insertion=how, **kw)]
    return begin(scenario(blue, [unit("Red", (46, 46), figures=(("rifle", 3),))], terrain=terrain), dice)


def test_the_unit_waits_off_the_table_and_drops_as_its_activation():
    g = drop_game()
    u = g.units[U]
    assert u.location == "insertion" and not u.in_play
    opts = g.decision().options
    assert ("insert", U, "drop") in opts and ("insert", U, "hold") in opts and ("activate", U) not in opts
    assert g.victory_points() == (0, 0)  # waiting to drop is not lost (RN-1518)


def test_a_successful_parachute_drop_lands_d6_inches_away_and_each_model_d10_inches():
    # parachuting: the D10 troops roll a D8 for the landing point; 6 > 4: D6 = 3" east (clockface 3)
    g = drop_game(dice=[("d8", 6), ("d6", 3), ("d12", 3),
                        ("d10", 2), ("d12", 12), ("d10", 5),   # model 0: 2" north, unharmed
                        ("d10", 4), ("d12", 3), ("d10", 1),    # model 1: 4" east, wounded
                        ("d10", 1), ("d12", 6), ("d10", 7)])   # model 2: 1" south
    g.apply(("insert", U, "drop"))
    assert g.dice.remaining == 0
    e = last_event(g, "InsertionLanded")
    assert (e["roll"], e["success"], e["x"], e["y"], e["lost"]) == (6, True, 27.0, 24.0, False)
    u = g.units[U]
    assert u.in_play and u.activated and u.loose
    pos = [tuple(round(c, 6) for c in p) for p in u.figure_positions()]
    assert pos == [(27.0, 26.0), (31.0, 24.0), (27.0, 23.0)]
    assert [f.status for f in u.figures] == [OK, WOUNDED, OK]


def test_a_failed_roll_lands_d6_x_2_inches_away():
    g = drop_game(dice=[("d8", 4), ("d6", 3), ("d12", 3)] + [("d10", 1), ("d12", 12), ("d10", 5)] * 3)
    g.apply(("insert", U, "drop"))
    e = last_event(g, "InsertionLanded")
    assert (e["success"], e["x"]) == (False, 30.0)  # 4 is not above 4: 2 x 3"


def test_a_landing_zone_off_the_table_loses_the_unit():
    g = drop_game(pos=(2, 24), dice=[("d8", 2), ("d6", 6), ("d12", 9)])
    g.apply(("insert", U, "drop"))
    assert last_event(g, "InsertionLanded")["lost"] and g.units[U].location == "insertion_lost"
    assert g.dice.remaining == 0


def test_from_orbit_the_models_scatter_twice_the_d10_and_no_parachute_shift():
    g = drop_game("orbital", dice=[("d10", 6), ("d6", 1), ("d12", 12)] +
                  [("d10", 3), ("d12", 3), ("d10", 5)] * 3)
    g.apply(("insert", U, "drop"))
    assert g.dice.remaining == 0
    assert [round(x, 6) for x, _ in g.units[U].figure_positions()] == [30.0, 30.0, 30.0]  # 6" east of (24, 25)


def test_difficult_ground_shifts_the_quality_die_and_open_water_destroys():
    terrain = [rect("dense_woods", 20, 26, 30, 30), rect("open_water", 20, 18, 30, 22)]
    g = drop_game("high_altitude", terrain=terrain,
                  dice=[("d10", 6), ("d6", 1), ("d12", 12),
                        ("d10", 3), ("d12", 12), ("d8", 1),   # 3" north into the wood: D10 -> D8, wounded
                        ("d10", 5), ("d12", 6),               # 5" south into the water: destroyed, no roll
                        ("d10", 1), ("d12", 3), ("d10", 2)])
    g.apply(("insert", U, "drop"))
    assert g.dice.remaining == 0
    assert [f.status for f in g.units[U].figures] == [WOUNDED, KILLED, OK]
    assert [e["result"] for e in events_of(g, "ModelLanded")] == ["wounded", "destroyed", "unharmed"]


def test_who_may_be_inserted():
    with pytest.raises(ScenarioError, match="experienced"):
        drop_game(quality="d6")
    with pytest.raises(ScenarioError, match="veteran"):
        drop_game("orbital", quality="d8")
    blue = [unit("HQ", (2, 2), figures=(("rifle", 3),)),
            {"name": "Tank", "position": [24.0, 24.0], "design": "main_battle_tank", "quality": "d10",
             "insertion": "orbital"}]
    with pytest.raises(ScenarioError, match="size 1"):
        Game(scenario(blue, [unit("Red", (46, 46), figures=(("rifle", 3),))]), seed=0)
