"""Mines and Explosives (seed 000 "ADDITIONAL RULES › Mines and Explosives", L1924-1994), on forced dice: minefields
(additional_rules/mines_and_explosives/minefields.py), command-detonated mines (command_detonated.py), booby traps
and IEDs (booby_traps.py).  Each test cites the seed lines it checks.

The scenarios: Blue (side 0) moves north through Red's (side 1) counters; a single-figure unit walks a straight
line so that its path inside a 6" counter, and so the number of tests, is exact.  Directions: 0 = north; distance
index 2 = a point 12" away."""
from __future__ import annotations

import json

import pytest

from conftest import activate, add_dice, begin, events_of, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules import Game, ScriptedDice
from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
from dustup_env.rules.kernel import table
from dustup_env.rules.kernel.entities import KILLED, OK, WOUNDED

NORTH = 0


def mined(blue, mines, red=None, **kw):
    scn = scenario(blue, red or [unit("B", (5, 45), figures=(("rifle", 3),))], **kw)
    scn["sides"][1]["mines"] = list(mines)
    return scn


def one(pos=(24, 14), n=1, **kw):
    return unit("A", pos, figures=(("rifle", n),), **kw)


def walk_north(g, uid=0, roll=6, dist=2):
    """Activate ``uid`` and move it north (the movement die forced to ``roll``)."""
    activate(g, uid)
    add_dice(g, roll)
    g.apply(("move", NORTH, dist))


def mine_tests(g):
    return events_of(g, "MineTest")


# ---------------------------------------------------------------------------------------------- minefields
def test_ap_field_two_tests_the_first_hit_does_no_harm():
    """L1930: rolls d8 3 (hit: AP 1-3), D10 impact 1 against the d4 armour (no effect), then d8 4 (no hit)."""
    g = begin(mined([one()], [{"type": "ap", "position": [24, 20]}]), [("d6", 6), ("d8", 3), ("d10", 1), ("d4", 1),
                                                                        ("d8", 4)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    ts = mine_tests(g)
    assert [(t["roll"], t["needed"], t["hit"], t["lane"]) for t in ts] == [(3, 3, True, False), (4, 3, False, False)]
    assert g.units[0].figures[0].status == OK and abs(g.units[0].y - 26.0) < 1e-6
    assert g.dice.pos == len(g.dice.results)  # exactly the scripted dice
    assert g.view(0)["entities"][0]["known"] == "revealed"  # L1928: the test showed the field


@pytest.mark.parametrize("kind,roll,hit", [("ap", 3, True), ("mixed", 3, False), ("mixed", 2, True)])
def test_ap_fields_hit_on_1_to_3_and_mixed_fields_on_1_or_2(kind, roll, hit):
    """L1930: "If the minefield is an AP minefield, the model is hit on a 1, 2 or 3. If it is a mixed minefield,
    the model is hit on a 1 or a 2"."""
    dice = [("d6", 6), ("d8", roll)] + ([("d10", 1), ("d4", 1)] if hit else []) + [("d8", 8)]
    g = begin(mined([one()], [{"type": kind, "position": [24, 20]}]), dice)
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert [t["hit"] for t in mine_tests(g)] == [hit, False]


def test_a_mine_that_doubles_the_armour_kills_and_stops_a_lone_model():
    """L1930: "If the impact die doubles the armor die the model is killed outright" (more than double, RN-169)."""
    g = begin(mined([one()], [{"type": "ap", "position": [24, 20]}]), [("d6", 6), ("d8", 1), ("d10", 9), ("d4", 4)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert g.units[0].figures[0].status == KILLED and not g.units[0].in_play
    assert g.units[0].y < 20.0  # it fell as it entered


def test_a_wound_beats_the_armour_without_doubling_it():
    """L1930: "If the impact beats the armour die the model is wounded"; the unit tests its confidence (RN-1652)."""
    g = begin(mined([one(n=2)], [{"type": "ap", "position": [24, 20]}]),
              [("d6", 6), ("d8", 1), ("d10", 5), ("d4", 3)] + [6] * 20)
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert events_of(g, "HitResolved")[0]["effect"] == "wound"
    assert WOUNDED in [f.status for f in g.units[0].figures]
    assert events_of(g, "ConfidenceTested")


def test_infantry_never_set_off_at_mines_and_never_learn_of_them():
    """L1930: "Infantry will not set of[f] AT mines": no roll, and the field stays its owner's secret."""
    g = begin(mined([one()], [{"type": "at", "position": [24, 20]}]), [("d6", 6)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert not mine_tests(g) and g.dice.pos == len(g.dice.results)
    assert "entities" not in g.view(0) or g.view(0)["entities"] == []
    assert [e["known"] for e in g.view(1)["entities"]] == ["owner"]


def test_several_counters_are_tested_separately():
    """L1962: "If a unit is within 3" of more than one counter it must test for each separately": two overlapping
    AP counters, each crossed for 5.66": two tests each, interleaved as the model walks."""
    g = begin(mined([one()], [{"type": "ap", "position": [23, 20]}, {"type": "ap", "position": [25, 20]}]),
              [("d6", 6), ("d8", 4), ("d8", 5), ("d8", 6), ("d8", 7)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert [t["entity"] for t in mine_tests(g)] == [0, 1, 0, 1]
    assert g.dice.pos == len(g.dice.results)


def test_a_dummy_counter_entered_by_the_enemy_is_revealed_and_removed():
    """L1928: minefields "may be ... dummy"; a dummy entered by an enemy unit is revealed and removed (RN-169)."""
    g = begin(mined([one()], [{"type": "dummy", "position": [24, 20]}]), [("d6", 6)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert [e["type"] for e in g.event_log(0) if e["type"] == "DummyCounter"] == ["DummyCounter"]
    assert g.entities[0]["removed"] and g.view(0).get("entities", []) == []


def _vehicle_game(mines, dice, **kw):
    return begin(mined([vehicle("T", (24, 12), facing=0, **kw)], mines), dice)


def test_a_vehicle_in_an_at_field_is_damaged_and_immobilised_when_the_mine_beats_its_belly():
    """L1932: a mine per 3" or part; D12 against the belly armour (d12x2 here: face 3 = 6); 7 beats it: damaged and
    immobilised, it stops; L1934 the occupants (none here)."""
    g = _vehicle_game([{"type": "at", "position": [24, 20]}], [("d12", 12), ("d12", 7), ("d12x2", 3)] + [6] * 6)
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    v = g.units[0]
    vm = events_of(g, "VehicleMine")
    assert [(e["impact_roll"], e["armour_roll"], e["result"]) for e in vm] == [(7, 6, "damaged")]
    assert v.veh.damage == 1 and v.veh.immobilised and v.y < 18.0


def test_a_mine_more_than_double_the_belly_destroys_the_vehicle_and_kills_its_occupants():
    """L1932: "If the mine doubles the armour score, the vehicle is destroyed"; L1934: "all occupants are killed"."""
    scn = mined([vehicle("I", (24, 12), "ifv_tracked", facing=0),
                 unit("P", (24, 12), figures=(("rifle", 3),), carried_by="I")], [{"type": "mixed", "position": [24, 20]}])
    g = begin(scn, [("d12", 12), ("d12", 9), ("d12x2", 2)] + [6] * 10)
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert not g.units[0].in_play and all(f.status == KILLED for f in g.units[1].figures)


def test_occupants_of_a_damaged_vehicle_need_3_or_more_on_their_armour():
    """L1934: "Each occupant rolls their armour die and must score 3+ or suffer an untreated wound"."""
    scn = mined([vehicle("I", (24, 12), "ifv_tracked", facing=0),
                 unit("P", (24, 12), figures=(("rifle", 2),), carried_by="I")], [{"type": "at", "position": [24, 20]}])
    g = begin(scn, [("d12", 12), ("d12", 5), ("d12x2", 2), ("d4", 2), ("d4", 3)] + [6] * 10)
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert [f.status for f in g.units[1].figures] == [WOUNDED, OK]
    assert g.units[0].veh.immobilised


def test_vehicles_do_not_trigger_ap_fields():
    """L1932: "Vehicles entering an AT or mixed minefield" only."""
    g = _vehicle_game([{"type": "ap", "position": [24, 20]}], [("d12", 12)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert not events_of(g, "VehicleMine") and g.dice.pos == len(g.dice.results)


@pytest.mark.parametrize("roll,removed", [(1, False), (2, True)])
def test_a_plough_rolls_the_drivers_quality_1_is_a_hit_else_the_counter_goes(roll, removed):
    """L1954: "It then rolls the driver's quality die. On a score of 1, the vehicle is hit as described above. Any
    other result removed the counter. This clears both AP and AT mines"."""
    dice = [("d12", 12), ("d8", roll)] + ([("d12", 1), ("d12x2", 1)] if roll == 1 else [])
    g = _vehicle_game([{"type": "at", "position": [24, 20]}], dice, mine_clearing="plough")
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert g.entities[0]["removed"] is removed
    assert len(events_of(g, "VehicleMine")) == (0 if removed else 1)
    assert g.dice.pos == len(g.dice.results)


def test_no_prop_in_a_known_minefield():
    """L1938: "It is not possible to prop in a minefield" (only a field the side knows of can forbid it)."""
    g = begin(mined([one(pos=(24, 20))], [{"type": "ap", "position": [24, 20]}]))
    activate(g, 0)
    assert ("prop",) in g.decision().options  # the field is Red's secret
    mf.found(g, 0)
    assert ("prop",) not in g.decision().options
    assert not g.is_legal(("prop",))


def _laned(n=3, pos=(24, 15.5), dice=()):
    """A Blue unit of ``n`` riflemen south of a found AP field at (24, 20) (its edge at y 17), activated; with n = 3
    its figures stand at (x, y), (x + 1.5, y) and (x, y + 1.5): the last, nearest the counter, clears the lane."""
    g = begin(mined([one(pos=pos, n=n)], [{"type": "ap", "position": [24, 20]}]), list(dice))
    mf.found(g, 0)
    activate(g, 0)
    return g


def test_the_clearing_model_splits_off_as_a_one_model_detachment_and_walks_at_half_speed():
    """L1948: "one model may be moved (as if it was a detachment) into and through the minefield at half speed (ie
    one inch of movement requires 2 movement points)": the model nearest the counter forms a detachment of one (the
    parent keeps its leader), walks its movement roll in inches (a 6: 1.5" to the edge, 4.5" inside, so two quality
    tests), and stays where it stopped; it then acts only when its parent activates it, as any detachment."""
    from dustup_env.rules.kernel.sequence import can_activate

    g = _laned(pos=(24, 14), dice=[("d6", 6), ("d8", 5), ("d8", 6)])
    assert ("clear_lane", 0) in g.decision().options
    g.apply(("clear_lane", 0))
    det = events_of(g, "Detached")
    assert [(e["unit"], e["detachment"], e["what"], e["figures"]) for e in det] == [(0, 2, "lane", 1)]
    parent, d = g.units[0], g.units[2]
    assert d.parent == 0 and len(d.figures) == 1 and d.in_play and len(parent.figures) == 2
    assert (parent.x, parent.y) == (24.0, 14.0)  # the parent (its leader) stays put
    assert [(t["unit"], t["roll"], t["lane"]) for t in mine_tests(g)] == [(2, 5, False), (2, 6, False)]
    lane = events_of(g, "LaneCleared")[0]
    assert lane["unit"] == 2 and not lane["complete"] and (lane["y0"], lane["y1"]) == (17.0, 21.5)
    assert (d.x, d.y) == (24.0, 21.5)  # 6 inches at half speed: it stands in the field where it stopped
    assert not can_activate(g, d) and ("activate_detachment", 2) in g.decision().options
    assert g.dice.pos == len(g.dice.results)


def test_an_infantry_lane_then_a_unit_in_file_rolls_a_d12_and_moves_at_half_speed():
    """L1948: the clearing model walks right through (a complete lane, marked); then "Subsequent models may follw the
    exact same route one model at a time. Any model moving along the already cleared part of the lane must roll a
    D12 and will detonate a mine on a roll of 1. Movement through a mine lane is at half speed": the parent (its
    leader in the lane) moves in file, each model rolling a D12 per 3" or part, 2 points an inch in the lane."""
    g = _laned(dice=[("d6", 6), ("d8", 5), ("d8", 6), ("d6", 6), ("d12", 5), ("d12", 2), ("d12", 7), ("d12", 8)])
    g.apply(("clear_lane", 0))
    lane = events_of(g, "LaneCleared")[0]
    assert lane["complete"] and (lane["x0"], lane["y0"], lane["x1"], lane["y1"]) == (24.0, 17.0, 24.0, 23.0)
    assert (g.units[2].x, g.units[2].y) == (24.0, 23.0)  # through: the detachment stands at the far edge
    assert g.entities[0]["state"]["lanes"] == [[24.0, 17.0, 24.0, 23.0]]
    assert [f["kind"] for f in g.terrain] == [mf.LANE]
    g.apply(("move", NORTH, 2))
    lane_tests = [t for t in mine_tests(g) if t["lane"]]
    assert [(t["unit"], t["figure"], t["roll"], t["needed"]) for t in lane_tests] == [
        (0, 0, 5, 1), (0, 1, 2, 1), (0, 0, 7, 1), (0, 1, 8, 1)]
    assert abs(g.units[0].y - 22.25) < 1e-6  # 12 movement points: 1.5" to the lane, then 2 an inch in it
    assert g.dice.pos == len(g.dice.results)


def test_a_lane_ends_where_the_clearing_model_is_wounded():
    """L1948: "until they either reach the end or are wounded": the second test hits (d8 2), the D10 2 beats the d4
    armour 1 without doubling it: the model is wounded, the lane ends at the start of that 3" and the model stays
    there."""
    g = _laned(dice=[("d6", 6), ("d8", 6), ("d8", 2), ("d10", 2), ("d4", 1)] + [6] * 6)
    g.apply(("clear_lane", 0))
    lane = events_of(g, "LaneCleared")[0]
    assert not lane["complete"] and (lane["y0"], lane["y1"]) == (17.0, 20.0)
    d = g.units[2]
    assert d.parent == 0 and d.figures[0].status == WOUNDED and (d.x, d.y) == (24.0, 20.0)
    assert all(f.status == OK for f in g.units[0].figures)  # the parent is not touched


def test_a_unit_of_one_model_walks_the_lane_itself():
    """L1948: a unit of a single model is already one model moving on its own: it walks the lane (no detachment)."""
    g = _laned(n=1, pos=(24, 17), dice=[("d6", 6), ("d8", 5), ("d8", 6)])
    g.apply(("clear_lane", 0))
    assert not events_of(g, "Detached") and len(g.units) == 2
    lane = events_of(g, "LaneCleared")[0]
    assert lane["unit"] == 0 and lane["complete"] and (g.units[0].x, g.units[0].y) == (24.0, 23.0)


def test_no_lane_when_the_leader_is_the_only_able_model_with_wounded_beside_it():
    """L1948 with the Detach Element Action ("the parent is always the element that contains the unit leader"): the
    clearing model cannot be the leader of a unit that has other models, so a unit whose only able model is its
    leader (the rest wounded) cannot clear a lane."""
    g = _laned(n=2, pos=(24, 15.5))
    u = g.units[0]
    u.set_figure(1 - u.leader, status=WOUNDED)
    g.invalidate()
    assert not any(o[0] == "clear_lane" for o in g.decision().options)


def test_a_line_charge_uses_both_actions_and_removes_the_counter():
    """L1958: "a vehicle must be positioned near the edge of the minefield and expend a whole turn (2 actions) to
    fire and detonate the charge. The mine counter is then removed"."""
    g = begin(mined([vehicle("E", (24, 15), "ifv_tracked", facing=0, mine_clearing="line_charge")],
                    [{"type": "mixed", "position": [24, 20]}]))
    activate(g, 0)
    assert not [o for o in g.decision().options if o[0] == "line_charge"]  # unknown field
    mf.found(g, 0)
    assert ("line_charge", 0) in g.decision().options
    g.apply(("line_charge", 0))
    assert g.entities[0]["removed"] and events_of(g, "CounterRemoved")[0]["how"] == "line_charge"
    assert g.decision().kind != "action" or g.decision().unit != 0  # both actions spent


def test_the_scenario_data_is_checked_with_one_line_errors():
    from dustup_env.rules.kernel.errors import ScenarioError
    bad = mined([one()], [{"type": "cdm", "position": [24, 20]}])
    with pytest.raises(ScenarioError, match="needs 'toward'"):
        Game(bad, seed=0)
    bad = mined([one()], [{"type": "ied", "position": [24, 20], "impact": "d8"}])
    with pytest.raises(ScenarioError, match="impact"):
        Game(bad, seed=0)
    bad = mined([one(mine_clearing="plough")], [])
    with pytest.raises(ScenarioError, match="only a vehicle"):
        Game(bad, seed=0)


def test_games_without_counters_have_none_of_these_rules():
    g = Game("default", seed=0)
    assert not any(r.name in ("Minefields", "Command Detonated Mines", "Booby Traps and IEDs") for r in g.rules.rules)


# ---------------------------------------------------------------------------------------------- command-detonated
def _cdm_game(dice, toward=(24, 16), red_pos=(34, 26), n=1, dummy=False):
    red = [unit("W", red_pos, figures=(("rifle", 3),))]
    return begin(mined([one(n=n, pos=(24, 12))], [{"type": "cdm", "position": [24, 26], "toward": list(toward),
                                                    "dummy": dummy}], red=red), dice)


def test_a_command_detonated_mine_fires_mid_move_by_a_decision_of_its_side():
    """L1972-1976: triggered "at any point in the movement of another unit" by a unit that sees the mine and the
    target, without using its activation: the walk waits for Red's decision where the model entered the 6" arc;
    the model tests its armour against a D10; the counter is removed (L1978); the walk goes on."""
    g = _cdm_game([("d6", 6), ("d10", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    d = g.decision()
    assert (d.kind, d.side, d.options) == ("cdm", 1, (("cdm_fire",), ("cdm_hold",)))
    assert 19.9 <= g.units[0].y <= 20.6  # mid-move, as the model came within 6"
    assert g.view(0).get("entities", []) == []  # still Red's secret
    red_activated = g.units[1].activated
    g.apply(("cdm_fire",))
    assert events_of(g, "CdmFired") and g.entities[0]["removed"]
    assert abs(g.units[0].y - 24.0) < 1e-6  # the walk went on to its end
    assert g.units[1].activated == red_activated  # "does not use up the activation of the controlling unit"
    assert g.dice.pos == len(g.dice.results)


def test_a_held_mine_is_not_asked_again_for_the_same_models_in_that_walk():
    g = _cdm_game([("d6", 6)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    g.apply(("cdm_hold",))
    assert abs(g.units[0].y - 24.0) < 1e-6 and not g.entities[0]["removed"]


def test_a_command_detonated_mine_strikes_only_the_models_in_its_180_degree_arc_within_6_inches():
    """L1970: "CDMs have a 180 degree field of fire ... Only units within the field of fire will be hit ... a range
    of 6""; the arc faces north here: the walker from the south is never in it."""
    g = _cdm_game([("d6", 6)], toward=(24, 36))
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert g.decision().kind != "cdm" and abs(g.units[0].y - 24.0) < 1e-6


def test_a_mine_needs_a_controller_who_sees_the_mine_and_the_target():
    """L1972: "as long as the controlling unit can see the mine and the unit it will attack" (a building between)."""
    from conftest import rect
    red = [unit("W", (40, 26), figures=(("rifle", 3),))]
    scn = mined([one(pos=(24, 12))], [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}], red=red,
                terrain=[rect("building", 30, 14, 36, 34)])
    g = begin(scn, [("d6", 6)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert g.decision().kind != "cdm"


def test_a_dummy_command_detonated_counter_never_fires():
    """L1968: the counter "could also be a dummy counter": it never fires, but its owner is asked at it as at a real
    mine (only to hold), so that the walk's pause tells the other side nothing (RN-1962)."""
    g = _cdm_game([("d6", 6)], dummy=True)
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    d = g.decision()
    assert (d.kind, d.side, d.options) == ("cdm", 1, (("cdm_hold",),))
    assert 19.9 <= g.units[0].y <= 20.6  # mid-move, where a real mine's owner is asked
    g.apply(("cdm_hold",))
    assert abs(g.units[0].y - 24.0) < 1e-6 and not g.entities[0]["removed"] and not events_of(g, "CdmFired")


def test_a_paused_walk_copies_saves_and_goes_on_alike():
    g = _cdm_game([("d6", 6), ("d10", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    copy = g.clone()
    for x in (g, copy):
        x.apply(("cdm_fire",))
    assert copy.units[0].y == g.units[0].y and copy.entities == g.entities and copy.state_digest() == g.state_digest()


# ---------------------------------------------------------------------------------------------- booby traps, IEDs
def _trap_game(kind, dice, pos=(26, 20), n=1, vehicle_unit=False, **extra):
    blue = [vehicle("T", (24, 12), facing=0)] if vehicle_unit else [one(n=n)]
    return begin(mined(blue, [{"type": kind, "position": list(pos), **extra}]), dice)


def test_a_booby_trap_found_by_a_quality_roll_above_the_d8_is_disabled():
    """L1986: "they roll their quality die against a D8. If they succeed, the detect the trigger and disable the
    device"."""
    g = _trap_game("booby_trap", [("d6", 6), ("d8", 5), ("d8", 4)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    t = events_of(g, "TrapTest")[0]
    assert (t["roll"], t["trap_roll"], t["result"]) == (5, 4, "disabled") and g.entities[0]["removed"]
    assert g.dice.pos == len(g.dice.results)


def test_a_booby_trap_not_found_attacks_the_closest_model_with_a_d8_and_others_within_3_inches_with_a_d6():
    """L1986: a tie is a failure (RN-172); the closest model's armour against a D8, the others within 3" a D6."""
    g = begin(mined([one(pos=(14, 14), n=2)], [{"type": "booby_trap", "position": [20, 14.75]}]),
              [("d6", 6), ("d8", 4), ("d8", 4), ("d8", 1), ("d4", 1), ("d6", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("move", 4, 2))  # east: both models (1.5" apart north-south) come within 3" together
    hits = events_of(g, "HitResolved")
    assert events_of(g, "TrapTest")[0]["result"] == "detonated"
    assert sorted(h["impact_die"] for h in hits) == ["d6", "d8"]


def test_an_ied_under_a_vehicle_strikes_its_belly_with_its_own_impact_and_is_removed():
    """L1990: "If a vehicle moves within 3" of an IED it will detonate with a D12 impact as if it was an AT mine";
    L1992: "up to a D12x5"; "an IED is removed as soon as it detonates"."""
    g = _trap_game("ied", [("d12", 12), ("d12x3", 1), ("d12x2", 6)], vehicle_unit=True, impact="d12x3")
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    vm = events_of(g, "VehicleMine")[0]
    assert (vm["impact"], vm["impact_roll"], vm["result"]) == ("d12x3", 3, "none") and g.entities[0]["removed"]


def test_infantry_that_find_an_ied_mark_it_without_disarming_it():
    """L1994: "If they succeed they have detected the trigger ... It is not disarmed, but is marked"."""
    g = _trap_game("ied", [("d6", 6), ("d8", 7), ("d8", 2)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert g.entities[0]["state"]["marked"] and not g.entities[0]["removed"]
    assert g.view(0)["entities"][0]["state"]["marked"]


def test_infantry_rolling_below_half_the_d8_set_off_the_ied_d12_on_every_model_within_6_inches():
    """L1994: "if the infantry roll less than half the result on the mine die ... all infantry within 6" are caught
    in the blast ... an impact die of D12"."""
    g = _trap_game("ied", [("d6", 6), ("d8", 1), ("d8", 3), ("d12", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert events_of(g, "TrapTest")[0]["result"] == "detonated" and g.entities[0]["removed"]
    assert [h["impact_die"] for h in events_of(g, "HitResolved")] == ["d12"]


def test_a_failed_ied_roll_that_does_not_set_it_off_is_the_owners_secret():
    """L1994: a roll neither above the D8 nor below half of it: nothing happens; the mover's side hears nothing."""
    g = _trap_game("ied", [("d6", 6), ("d8", 2), ("d8", 4)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert [e["result"] for e in g.event_log(1) if e["type"] == "TrapTest"] == ["nothing"]
    assert not [e for e in g.event_log(0) if e["type"] == "TrapTest"] and g.view(0).get("entities", []) == []


def test_any_number_of_mines_may_fire_at_once_and_each_is_tested_separately():
    """L1972: "Any number of pre-set CDMs may be activated at the same time"; L1976: "If multiple mines are fired,
    models must test their armour against each one"."""
    red = [unit("W", (34, 26), figures=(("rifle", 3),))]
    mines = [{"type": "cdm", "position": [23, 26], "toward": [23, 16]},
             {"type": "cdm", "position": [25, 26], "toward": [25, 16]}]
    g = begin(mined([one(pos=(24, 12))], mines, red=red), [("d6", 6), ("d10", 1), ("d4", 1), ("d10", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert g.decision().kind == "cdm" and len([f for f in g.stack if f.type == "cdm"]) == 2  # both asked at once
    g.apply(("cdm_fire",))
    assert g.decision().kind == "cdm"
    g.apply(("cdm_fire",))
    assert len(events_of(g, "CdmFired")) == 2 and len(events_of(g, "HitResolved")) == 2
    assert g.dice.pos == len(g.dice.results)


@pytest.mark.parametrize("design,struck", [("main_battle_tank", False), ("supply_truck", True)])
def test_cdms_spare_armoured_vehicles_and_hit_soft_skins_as_infantry(design, struck):
    """L1980: "CDMs have no effect against armoured vehicles. They can damage soft skinned vehicles as for infantry";
    the soft skin's D8 armour against the D10 (impact 1: no damage)."""
    red = [unit("W", (34, 26), figures=(("rifle", 3),))]
    scn = mined([vehicle("V", (24, 12), design, facing=0)], [{"type": "cdm", "position": [24, 26],
                                                             "toward": [24, 16]}], red=red)
    g = begin(scn, [("d12", 12)] + ([("d10", 1), ("d8", 1)] if struck else []))
    g.dice.results.extend(ScriptedDice([6] * 6).results)
    activate(g, 0)
    g.apply(("move", NORTH, 2))
    assert (g.decision().kind == "cdm") is struck
    if struck:
        g.apply(("cdm_fire",))
        assert [e["result"] for e in events_of(g, "VehicleHit")] == ["none"]


def test_a_unit_ending_its_activation_in_the_arc_may_be_fired_at():
    """L1972: "at any time during the game": an enemy unit that ends its activation in the arc (not only mid-move)."""
    red = [unit("W", (34, 26), figures=(("rifle", 3),))]
    g = begin(mined([one(pos=(24, 22))], [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}], red=red))
    activate(g, 0)
    g.apply(("end",))
    assert g.decision().kind == "cdm" and g.decision().side == 1
    g.apply(("cdm_hold",))
    assert g.decision().kind != "cdm"


def test_a_unit_sets_up_a_command_detonated_mine_with_a_reorganise_action():
    """L1968: "They may be emplaced before the game or during the game and require one reorganise action to set
    up": the counter is its side's secret, its arc faces the nearest known enemy (RN-1656); the unit carries a
    limited number (the scenario's cdms)."""
    scn = scenario([one(pos=(24, 10), cdms=1)], [unit("B", (24, 40), figures=(("rifle", 3),))])
    g = begin(scn)
    activate(g, 0)
    assert ("reorganise", "set_cdm") in g.decision().options
    g.apply(("reorganise", "set_cdm"))
    e = g.entities[0]
    assert (e["kind"], e["owner"], e["x"], e["y"], e["state"]) == ("cdm", 0, 24.0, 10.0,
                                                                    {"fx": 0.0, "fy": 1.0, "dummy": False})
    assert g.view(1).get("entities", []) == [] and not [x for x in g.event_log(1) if x["type"] == "CdmSet"]
    assert ("reorganise", "set_cdm") not in g.decision().options  # it carried one
