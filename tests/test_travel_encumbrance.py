"""Travel Movement, Encumbrance, Moving Casualties and scenario tasks (seed 000), forced dice."""
import pytest

from conftest import activate, begin, events_of, kinds, last_event, scenario, unit
from dustup_env.rules.kernel.entities import KILLED, OK, SHAKEN, STEADY, TREATED, WOUNDED


def travel_game(dice=(), blue_extra=(), red=None):
    blue = unit("A", (10, 5), figures=(("rifle", 6),))
    return begin(scenario([blue, *blue_extra], [red or unit("R", (40, 45))]), list(dice))


# --- Travel Movement --------------------------------------------------------------------------------------
def test_form_column_and_move_the_maximum_without_rolling():
    g = travel_game()
    activate(g, 0)
    g.apply(("reorganise", "column"))
    a = g.units[0]
    assert a.travel and last_event(g, "TravelModeChanged")["travel"] is True
    assert not a.disorganised()
    g.apply(("move", 0, 2))  # north 12": 6 x 2 = 12 points, no die rolled
    m = last_event(g, "Moved")
    assert (m["roll"], m["points"], m["end"]) == (6, 12.0, [10.0, 17.0])
    assert g.dice.remaining == 0


def test_travel_mode_allows_only_move_and_reorganise():
    g = travel_game()
    activate(g, 0)
    g.apply(("reorganise", "column"))
    assert kinds(g.decision().options) <= {"end", "move", "reorganise"}
    assert ("reorganise", "tactical") in g.decision().options
    assert ("prop",) not in g.decision().options
    g.apply(("reorganise", "tactical"))
    assert not g.units[0].travel and not g.units[0].disorganised()


def test_travel_mode_target_is_suppressed_and_tests_with_the_modifier():
    # Red shoots Blue's column: a miss, but the target die is shifted -1 (D6 at 30") and the column is
    # suppressed and must test: first suppressed (1, medium) + LV 2 + travel mode (+3) = 6
    blue = unit("A", (10, 5), figures=(("rifle", 6),))
    g = begin(scenario([blue], [unit("R", (10, 35))]), [])
    g.units[0].travel = True
    g.apply(("activate", 0))
    g.apply(("end",))
    g.dice.results.extend([(1, 6), (2, 1), (1, 1), (2, 5)])  # target D6 6; firer D8 1, D6 1; test D8 5
    g.apply(("activate", 1))
    g.apply(("shoot", 0, "all"))
    s = last_event(g, "ShotResolved")
    assert s["target_die"] == "d6" and s["result"] == "none"
    assert g.units[0].suppression == 1
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("first_suppressed", 6, 1)
    assert g.dice.remaining == 0


def test_travel_mode_fired_on_tests_even_without_another_trigger():
    blue = unit("A", (10, 5), figures=(("rifle", 6),))
    g = begin(scenario([blue], [unit("R", (10, 35))], commitment=("high", "medium")), [])
    a = g.units[0]
    a.travel = True
    a.under_fire_before = a.suppressed_before = True
    g.apply(("activate", 0))
    g.apply(("end",))
    g.dice.results.extend([(1, 6), (2, 1), (1, 1), (2, 5)])
    g.apply(("activate", 1))
    g.apply(("shoot", 0, "all"))
    c = last_event(g, "ConfidenceTested")  # high: 0 + LV 2 + travel 2 = 4; 5 passes
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("fired_on_in_travel", 4, 0)
    assert g.dice.remaining == 0


def test_moving_unit_stops_two_inches_from_a_friend_in_travel_mode():
    friend = unit("F", (10, 20), figures=(("rifle", 1),))
    g = travel_game(dice=[("d6", 6)], blue_extra=[friend])
    g.units[1].travel = True
    activate(g, 0)
    g.apply(("move", 0, 2))  # toward the column 15" north: must stop 2" from its figure
    a = g.units[0]
    fy = max(y for _, y in a.figure_positions())
    assert 20 - fy >= 2.0 - 1e-6 and 20 - fy < 2.6
    g2 = travel_game(dice=[("d6", 6)], blue_extra=[friend])  # not in travel mode: interpenetrates
    activate(g2, 0)
    g2.apply(("move", 0, 2))
    assert last_event(g2, "Moved")["end"] == [10.0, 17.0]


# --- Encumbrance and Moving Casualties -------------------------------------------------------------------
def test_carrying_wounded_moves_one_die_type_lower():
    g = travel_game(dice=[("d4", 4)])
    g.units[0].set_figure(3, status=TREATED)
    activate(g, 0)
    g.apply(("move", 0, 2))
    m = last_event(g, "Moved")
    assert (m["roll"], m["points"]) == (4, 8.0)
    assert len(g.units[0].figures) == 6  # carried along
    assert g.dice.remaining == 0


def test_encumbrance_is_closed_at_d4():
    g = begin(scenario([unit("A", (10, 5), figures=(("rifle", 4),), movement="encumbered")],
                       [unit("R", (40, 45))]), [("d4", 3)])
    g.units[0].set_figure(1, status=WOUNDED)
    activate(g, 0)
    g.apply(("move", 0, 2))
    assert last_event(g, "Moved")["roll"] == 3
    assert g.dice.remaining == 0


@pytest.mark.parametrize("movement,wounded,die", [("infantry", False, "d4"), ("fast", False, "d6"),
                                                   ("fast", True, "d6"),  # heavy equipment and casualties: once
                                                   ("encumbered", False, "d4"), ("cavalry", False, "d8")])
def test_heavy_equipment_moves_one_die_type_lower(movement, wounded, die):
    g = begin(scenario([unit("A", (10, 5), figures=(("rifle", 4),), movement=movement, heavy_equipment=True)],
                       [unit("R", (40, 45))]), [(die, 2)])
    if wounded:
        g.units[0].set_figure(1, status=WOUNDED)
    activate(g, 0)
    g.apply(("move", 0, 2))
    assert last_event(g, "Moved")["roll"] == 2 and g.dice.remaining == 0


def test_wounded_beyond_the_carriers_are_left_behind_and_abandoning_tests_confidence():
    # 2 able, 3 wounded: one wounded stays behind; moving south away from the visible enemy -> test
    g = begin(scenario([unit("A", (10, 20), figures=(("rifle", 5),))], [unit("R", (10, 45))]),
              [("d4", 4), ("d8", 3)])  # D6 -> D4 (encumbered); abandon (medium 2) + LV 2 + untreated 2 = 6
    a = g.units[0]
    for i in range(2, len(a.figures)):
        a.set_figure(i, status=WOUNDED)
    activate(g, 0)
    g.apply(("move", 8, 2))
    assert len(a.figures) == 4 and len(a.left_behind) == 1
    assert a.left_behind[0][2] == WOUNDED and a.left_behind[0][1] == pytest.approx(20 - 0.75 + 1.5, abs=3)
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("abandon_wounded", 6, 1)
    assert last_event(g, "FiguresLeftBehind")["wounded"] == 1
    assert g.dice.remaining == 0


def test_leaving_wounded_toward_the_enemy_is_not_abandoning():
    g = begin(scenario([unit("A", (10, 5), figures=(("rifle", 3),))], [unit("R", (10, 45))]), [("d4", 2)])
    a = g.units[0]
    a.set_figure(1, status=WOUNDED)
    a.set_figure(2, status=WOUNDED)
    activate(g, 0)
    g.apply(("move", 0, 2))  # north, toward the enemy
    assert len(a.left_behind) == 1
    assert not events_of(g, "ConfidenceTested")
    assert g.dice.remaining == 0


def wounded_squad(dice=(), blue_extra=(), wounded=(3, 4), red_pos=(10, 45)):
    """A (uid 0, 5 rifles at 10,20, figures ``wounded`` untreated) facing R at ``red_pos`` (in sight)."""
    g = begin(scenario([unit("A", (10, 20), figures=(("rifle", 5),)), *blue_extra], [unit("R", red_pos)]),
              list(dice))
    for i in wounded:
        g.units[0].set_figure(i, status=WOUNDED)
        g.units[0].set_figure(i, wounds=1)
    return g


def test_abandoning_the_wounded_by_choice_takes_no_action_and_the_unit_moves_unencumbered():
    g = wounded_squad([("d6", 4), ("d8", 3)])  # D6, not D4: nobody is carried; the test: medium 2 + LV 2 = 4
    a = g.units[0]
    activate(g, 0)
    assert ("abandon",) in g.decision().options
    g.apply(("abandon",))
    assert g.actions_left == 2 and g.decision().kind == "action" and ("abandon",) not in g.decision().options
    assert len(a.figures) == 3 and [e[2] for e in a.left_behind] == [WOUNDED, WOUNDED]
    assert [e[3:] for e in a.left_behind] == [["rifle", 1, False, ""]] * 2
    assert last_event(g, "WoundedAbandonedByChoice") == {"type": "WoundedAbandonedByChoice", "unit": 0, "figures": 2}
    assert not events_of(g, "ConfidenceTested")  # nothing yet: the unit has not moved away
    g.apply(("move", 8, 2))  # south, away from the visible enemy: the wounded count as abandoned
    assert last_event(g, "Moved")["roll"] == 4 and g.actions_left == 1
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("abandon_wounded", 4, 1)
    assert a.confidence == STEADY and a.abandon_point == [] and g.dice.remaining == 0


def test_wounded_abandoned_by_choice_are_not_tested_when_the_unit_advances():
    g = wounded_squad([("d6", 4), ("d6", 4)])
    activate(g, 0)
    g.apply(("abandon",))
    g.apply(("move", 0, 1))  # north, toward the enemy: no test, and the abandonment is settled
    assert g.units[0].abandon_point == []
    g.apply(("move", 8, 2))  # a later move away does not test again
    assert not events_of(g, "ConfidenceTested") and g.dice.remaining == 0


def test_abandon_is_offered_only_to_a_unit_with_wounded_that_could_move():
    g = wounded_squad(wounded=(0,))  # only the leader is wounded: always carried
    activate(g, 0)
    assert ("abandon",) not in g.decision().options
    g = wounded_squad()
    g.units[0].suppression = 1
    activate(g, 0)
    assert ("abandon",) not in g.decision().options
    g = wounded_squad()
    g.units[0].propped = True
    activate(g, 0)
    assert ("abandon",) not in g.decision().options
    g = wounded_squad()
    activate(g, 0)
    g.apply(("reorganise", "column"))
    assert "abandon" not in kinds(g.decision().options)  # travel mode: move or reorganise only


def left_then_friend(b_pos=(14, 20), b_wounded=(3,), dice=()):
    """A abandons its two wounded and ends; Red passes its activation; Blue's B (4 rifles, ``b_wounded``)
    activates."""
    g = wounded_squad(list(dice), blue_extra=[unit("B", b_pos, figures=(("rifle", 4),))])
    for i in b_wounded:
        g.units[1].set_figure(i, status=WOUNDED)
    activate(g, 0)
    g.apply(("abandon",))
    g.apply(("end",))
    activate(g, 2)
    g.apply(("end",))
    activate(g, 1)
    return g


def test_a_friendly_unit_picks_up_wounded_left_within_six_inches():
    g = left_then_friend(dice=[("d4", 3), ("d8", 8), ("d8", 1)])  # B moves D4 (carrying); next turn
    a, b = g.units[0], g.units[1]
    assert ("reorganise", "recover_wounded") in g.decision().options and a.abandon_point == [10.0, 20.0]
    g.apply(("reorganise", "recover_wounded"))  # one reorganise action
    assert g.actions_left == 1 and a.left_behind == [] and len(b.figures) == 6
    assert [f.status for f in b.figures] == [OK, OK, OK, WOUNDED, WOUNDED, WOUNDED]
    assert not b.disorganised()  # they lay within 6" of B's leader
    assert last_event(g, "WoundedRecovered") == {"type": "WoundedRecovered", "unit": 1, "figures": 2, "units": [0, 0]}
    assert a.abandon_point == []  # A's wounded are no longer abandoned: its next move away tests nothing
    g.apply(("move", 4, 2))  # B carries all three (three able troopers): encumbered, nobody left
    assert last_event(g, "Moved")["roll"] == 3 and b.left_behind == [] and len(b.figures) == 6
    assert g.dice.remaining == 0


def test_recovering_takes_only_as_many_wounded_as_can_be_carried_nearest_first():
    g = left_then_friend(b_wounded=(2, 3))  # 2 able, 2 wounded of its own: no one to spare
    assert ("reorganise", "recover_wounded") not in g.decision().options
    g = left_then_friend()
    b, a = g.units[1], g.units[0]
    b.set_figure(2, status=KILLED)  # 2 able, 1 wounded: room for one more
    g.invalidate()
    near = min(a.left_behind, key=lambda e: (e[0] - b.x) ** 2 + (e[1] - b.y) ** 2)
    far = [e for e in a.left_behind if e is not near]
    g.apply(("reorganise", "recover_wounded"))
    assert a.left_behind == far and last_event(g, "WoundedRecovered")["figures"] == 1
    assert len(b.figures) == 5


def test_wounded_out_of_reach_or_under_fire_in_the_open_are_not_recovered():
    g = left_then_friend(b_pos=(24, 20))  # more than 6" from every wounded
    assert ("reorganise", "recover_wounded") not in g.decision().options
    g = wounded_squad(blue_extra=[unit("B", (14, 20), figures=(("rifle", 4),))])
    activate(g, 0)
    g.apply(("abandon",))
    g.apply(("end",))
    activate(g, 2)
    g.apply(("end",))
    g.units[1].suppression = 1  # suppressed in the open: no reorganise action
    activate(g, 1)
    assert ("reorganise", "recover_wounded") not in g.decision().options


def test_care_detachment_lets_the_parent_move_unencumbered():
    g = travel_game(dice=[("d6", 5)])
    a = g.units[0]
    a.set_figure(5, status=TREATED)
    activate(g, 0)
    g.apply(("detach", "half"))
    assert all(f.status == OK for f in a.figures)
    g.apply(("move", 0, 2))
    assert last_event(g, "Moved")["roll"] == 5


# --- Reorganise: scenario tasks ---------------------------------------------------------------------------
def task_game(**task):
    scn = scenario([unit("A", (10, 5)), unit("B", (30, 5))], [unit("R", (40, 45))])
    scn["tasks"] = [dict({"name": "radio", "position": [11, 5], "vp": 3}, **task)]
    return begin(scn, [])


def test_task_is_a_reorganise_action_at_its_location():
    g = task_game()
    activate(g, 0)
    assert ("reorganise", "task") in g.decision().options
    g.apply(("reorganise", "task"))
    assert last_event(g, "TaskDone") == {"type": "TaskDone", "unit": 0, "task": 0, "name": "radio", "vp": 3}
    assert ("reorganise", "task") not in g.decision().options  # done once
    assert g.victory_points() == (3, 0)


def test_task_out_of_radius_or_for_the_other_side_is_not_offered():
    g = task_game(side=1)
    activate(g, 0)
    assert ("reorganise", "task") not in g.decision().options
    g = task_game(position=[20, 5])
    activate(g, 0)
    assert ("reorganise", "task") not in g.decision().options


def test_bad_task_is_a_scenario_error():
    from dustup_env.rules import Game, ScenarioError
    scn = scenario([unit("A", (10, 5))], [unit("R", (40, 45))])
    scn["tasks"] = [{"name": "x", "position": [1, 2]}]
    with pytest.raises(ScenarioError):
        Game(scn)
