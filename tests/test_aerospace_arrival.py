"""Aerospace Operations: the Air Defence Environment and arriving in the battle zone (seed 000 L1703-1730;
aerospace_operations/air.py).  Forced dice."""
import pytest
from aerospace_helpers import air_scenario, aircraft
from conftest import begin, events_of, last_event

from dustup_env.rules import Game
from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.kernel.errors import ScenarioError

D, SQUAD = 1, 2  # the dropship and the squad aboard


def game(start="inbound", dice=(), ade=("d6", "d8"), **kw):
    return begin(air_scenario([aircraft("Dropship", (20, 2), air=start, facing=0)], passengers=True, ade=ade, **kw),
                 dice)


def test_off_table_aircraft_and_passengers_are_out_of_play_and_offered_as_activations():
    g = game()
    d, s = g.units[D], g.units[SQUAD]
    assert (d.location, s.location) == ("air_inbound", "air_inbound") and not d.in_play and not s.in_play
    opts = g.decision().options
    assert ("air_arrive", D, "table") in opts and ("air_arrive", D, "loiter") in opts and ("air_arrive", D, "hold") in opts
    assert ("activate", D) not in opts and ("activate", SQUAD) not in opts
    g2 = game("loiter")
    assert ("air_arrive", D, "loiter") not in g2.decision().options  # already there


def test_the_ade_die_is_the_enemy_sides_default_d6():
    doc = air_scenario([aircraft("Dropship", (20, 2), air="inbound")])
    del doc["sides"][1]["ade"]
    g = begin(doc)
    assert air.ade_die(g, 1) == 1  # D6 (L1709, RN-155)


@pytest.mark.parametrize("ade,ecm", [(3, 5), (5, 5)])
def test_not_acquired_when_the_ade_does_not_beat_the_ecm(ade, ecm):
    # Red's ADE D8 against the transport's ECM D8 (average); a draw favours the aircraft (L1724, RN-156)
    g = game(dice=[("d8", ade), ("d8", ecm)])
    g.apply(("air_arrive", D, "table"))
    assert g.dice.remaining == 0
    e = last_event(g, "AdeAcquisition")
    assert (e["ade"], e["ecm"], e["acquired"]) == (ade, ecm, False)
    d = g.units[D]
    assert d.in_play and (d.x, d.y) == (20.0, 2.0) and d.activated and air.air_state(g, d)["mode"] == "airborne"
    assert g.units[SQUAD].in_play and g.units[SQUAD].veh.carrier == D
    assert g.decision().side == 1  # arriving was Blue's activation (RN-1501)


def test_acquired_the_pilot_may_abort_and_returns_to_base():
    g = game(dice=[("d8", 6), ("d8", 5)])
    g.apply(("air_arrive", D, "table"))
    dec = g.decision()
    assert (dec.side, dec.kind, dec.unit) == (0, "air_abort", D)
    assert set(dec.options) == {("air_pilot", "abort"), ("air_pilot", "continue")}
    g.apply(("air_pilot", "abort"))
    assert g.units[D].location == "air_base" and g.units[SQUAD].location == "air_base"
    assert g.dice.remaining == 0 and g.decision().side == 1
    assert ("air_arrive", D, "table") not in g.decision().options


@pytest.mark.parametrize("ade2,armour,down", [(8, 7, True), (7, 7, False), (3, 12, False)])
def test_continuing_the_ade_against_the_armour_shoots_it_down(ade2, armour, down):
    # first roll 5 against 3: acquired but not more than double; then ADE D8 against the belly armour D12
    g = game(dice=[("d8", 5), ("d8", 3), ("d8", ade2), ("d12", armour)])
    g.apply(("air_arrive", D, "table"))
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0
    e = last_event(g, "AdeEngagement")
    assert (e["ade"], e["doubled"], e["armour"], e["shot_down"]) == (ade2, False, armour, down)
    d, s = g.units[D], g.units[SQUAD]
    assert d.in_play != down and s.in_play != down
    if down:
        assert d.destroyed and s.destroyed  # with every occupant (RN-156)


def test_more_than_double_doubles_the_second_ade_roll():
    g = game(dice=[("d8", 7), ("d8", 3), ("d8", 4), ("d12", 7)])  # 7 > 2 x 3: the 4 counts 8 > 7
    g.apply(("air_arrive", D, "table"))
    g.apply(("air_pilot", "continue"))
    e = last_event(g, "AdeEngagement")
    assert (e["ade"], e["doubled"], e["shot_down"]) == (8, True, True)
    g = game(dice=[("d8", 6), ("d8", 3), ("d8", 4), ("d12", 7)])  # 6 is exactly double: not doubled
    g.apply(("air_arrive", D, "table"))
    g.apply(("air_pilot", "continue"))
    e = last_event(g, "AdeEngagement")
    assert (e["ade"], e["doubled"], e["shot_down"]) == (4, False, False)
    assert g.units[D].in_play


def test_to_the_loiter_box_through_the_ade_then_onto_the_table_without_it():
    g = game(dice=[("d8", 2), ("d8", 5)])
    g.apply(("air_arrive", D, "loiter"))
    assert g.units[D].location == "loiter" and g.units[SQUAD].location == "loiter"
    assert last_event(g, "AircraftArrived")["where"] == "loiter"
    g2 = game("loiter")
    g2.apply(("air_arrive", D, "table"))  # no dice: the ADE is met only leaving box one (L1724)
    assert g2.units[D].in_play and not events_of(g2, "AdeAcquisition")


def test_holding_uses_the_aircraft_activation_for_the_turn():
    g = game()
    g.apply(("air_arrive", D, "hold"))
    assert last_event(g, "AircraftHeld")["unit"] == D and g.units[D].location == "air_inbound"
    assert g.decision().side == 1
    assert air.off_table(g, 0) == []  # not offered again this turn
    assert air.pending_activations(g, 0) == 0


def test_arrive_is_an_entry_point_for_other_rules():
    g = game("loiter")
    air.arrive(g, D, "table")
    assert g.units[D].in_play and air.airborne(g, g.units[D])


def test_an_aircraft_design_needs_an_air_start_and_a_ground_vehicle_cannot_have_one():
    doc = air_scenario([aircraft("Dropship", (20, 2))])
    del doc["sides"][0]["units"][1]["air"]
    with pytest.raises(ScenarioError, match="air"):
        Game(doc, seed=0)
    doc = air_scenario([aircraft("Tank", (20, 2), design="main_battle_tank")])
    with pytest.raises(ScenarioError, match="only aircraft and grav vehicles fly"):
        Game(doc, seed=0)
    doc = air_scenario([aircraft("Fighter", (20, 2), design="aerospace_fighter", air="hovering")])
    with pytest.raises(ScenarioError, match="non-VTOL"):
        Game(doc, seed=0)


def test_aircraft_waiting_off_the_table_are_not_lost_but_one_that_aborted_is():
    g = game("loiter")
    assert g.victory_points() == (0, 0)  # the dropship and its squad in the loiter box count for no one
    g = game(dice=[("d8", 6), ("d8", 5)])
    g.apply(("air_arrive", D, "table"))
    g.apply(("air_pilot", "abort"))
    assert g.victory_points() == (0, 2)  # returned to base with its squad: out of the fight


def test_a_side_whose_only_units_wait_off_the_table_in_aircraft_still_fights():
    """Blue's HQ routs off the table; its dropship (with the squad aboard) still waits in the loiter box: the game
    goes on (the kernel's ``can_fight`` point: units a rule keeps off the table); once the aircraft is back at
    base, Blue can no longer fight."""
    doc = air_scenario([aircraft("Dropship", (20, 2), air="loiter")], passengers=True)
    g = Game(doc, seed=0)
    hq = g.units[0]
    hq.location = "routed_off"
    assert not g.check_decisive() and not g.over  # the dropship and its squad are still to come
    for uid in g.side_units[0]:
        if g.units[uid].location == air.LOITER:
            g.units[uid].location = air.BASE
    assert g.check_decisive() and g.over and g.winner == 1
