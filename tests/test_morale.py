"""Morale: confidence tests per the commitment table, leadership tests, and the Death of a Leader."""
import pytest

from conftest import activate, add_dice, begin, events_of, last_event, scenario, unit
from dustup_env.rules import ScriptedDice
from dustup_env.rules.kernel.data import armoury
from dustup_env.rules.kernel.entities import BROKEN, CONFIDENT, KILLED, OK, ROUTED, SHAKEN, STEADY, WOUNDED
from dustup_env.rules.forces.units import build_unit
from dustup_env.rules.morale.confidence_test import MODIFIERS, TRIGGERS, confidence_test
from dustup_env.rules.morale.leadership_test import leadership_test

COMMITS = ("low", "medium", "high")
TABLE = {  # the seed's table: circumstance -> (low, medium, high); None = no test required
    "first_under_fire": (1, None, None),
    "first_suppressed": (2, 1, None),
    "casualties": (2, 1, 0),
    "leader_casualty": (3, 2, 1),
    "abandon_wounded": (3, 2, 1),
    "vehicle_damage": (3, 2, 1),
}


def make_unit(commitment="medium", lv=2, quality="d8", n=5, confidence=None):
    spec = {"name": "U", "position": [10, 10], "quality": quality, "leadership": lv,
            "figures": [{"weapon": "rifle", "count": n}]}
    if confidence:
        spec["confidence"] = confidence
    return build_unit(0, 0, spec, commitment, armoury()[1], ScriptedDice([]))


def test_tables_match_the_seed():
    assert TRIGGERS == TABLE
    assert MODIFIERS["artillery"] == (2, 1, 0)
    assert MODIFIERS["per_untreated"] == (2, 1, 0)
    assert MODIFIERS["more_casualties_than_survivors"] == (4, 2, 1)
    assert MODIFIERS["travel_mode"] == (4, 3, 2)
    assert MODIFIERS["per_vehicle_damage"] == (2, 1, 0)


CASES = [(r, c, v) for r, vals in TABLE.items() for c, v in enumerate(vals)]


@pytest.mark.parametrize("reason,commit,value", CASES)
def test_each_trigger_pass_drop_one_drop_two(reason, commit, value):
    if value is None:  # no test required: nothing is rolled
        u = make_unit(COMMITS[commit])
        assert confidence_test(ScriptedDice([]), u, [reason]) == 0
        assert u.confidence == CONFIDENT
        return
    needed = value + 2  # LV 2
    for roll, drop in [(needed + 1, 0), (needed, 1), (needed // 2, 1)] + \
                      ([(needed // 2 - 1, 2)] if needed // 2 - 1 >= 1 else []):
        u = make_unit(COMMITS[commit])
        evs = []
        assert confidence_test(ScriptedDice([("d8", roll)]), u, [reason], events=evs) == drop, (roll, needed)
        assert u.confidence == CONFIDENT + drop
        assert (evs[0].reason, evs[0].roll, evs[0].needed, evs[0].levels_dropped) == (reason, roll, needed, drop)


def test_seed_example_lv2_medium_casualties_needs_more_than_3():
    u = make_unit("medium")
    assert confidence_test(ScriptedDice([("d8", 4)]), u, ["casualties"]) == 0
    u = make_unit("medium")
    assert confidence_test(ScriptedDice([("d8", 3)]), u, ["casualties"]) == 1
    u = make_unit("medium")
    assert confidence_test(ScriptedDice([("d8", 1)]), u, ["casualties"]) == 1  # 1 is not less than 3 // 2 = 1
    assert u.confidence == STEADY


def test_less_than_half_rounded_down_drops_two():
    u = make_unit("low", lv=3)  # leader casualty, low: 3 + 3 = 6, half = 3
    assert confidence_test(ScriptedDice([("d8", 2)]), u, ["leader_casualty"]) == 2
    assert u.confidence == SHAKEN
    u = make_unit("low", lv=3)
    assert confidence_test(ScriptedDice([("d8", 3)]), u, ["leader_casualty"]) == 1


def test_highest_trigger_is_tested_once():
    u = make_unit("medium")
    evs = []
    d = ScriptedDice([("d8", 4)])
    assert confidence_test(d, u, ["first_under_fire", "casualties", "leader_casualty"], events=evs) == 1
    assert (evs[0].reason, evs[0].needed) == ("leader_casualty", 4)
    assert d.remaining == 0 and len(evs) == 1


@pytest.mark.parametrize("commit,per", [(0, 2), (1, 1), (2, 0)])
def test_untreated_casualty_modifier(commit, per):
    u = make_unit(COMMITS[commit])
    u.set_figure(1, status=WOUNDED)
    u.set_figure(2, status=WOUNDED)
    u.set_figure(3, status=KILLED)  # killed figures are not untreated casualties
    evs = []
    confidence_test(ScriptedDice([("d8", 8)]), u, ["casualties"], events=evs)
    assert evs[0].needed == TABLE["casualties"][commit] + 2 + 2 * per


@pytest.mark.parametrize("commit,mod", [(0, 4), (1, 2), (2, 1)])
def test_more_casualties_than_survivors_modifier(commit, mod):
    u = make_unit(COMMITS[commit], quality="d12")
    evs = []
    confidence_test(ScriptedDice([("d12", 12)]), u, ["casualties"], more_casualties_than_survivors=True, events=evs)
    assert evs[0].needed == TABLE["casualties"][commit] + 2 + mod


def test_confidence_never_drops_below_routed():
    u = make_unit("low", confidence="broken")
    assert confidence_test(ScriptedDice([("d8", 1)]), u, ["leader_casualty"]) == 2
    assert u.confidence == ROUTED


def test_quality_die_is_rolled():
    u = make_unit("medium", quality="d6")
    d = ScriptedDice([("d6", 6)])
    assert confidence_test(d, u, ["casualties"]) == 0
    assert d.remaining == 0


@pytest.mark.parametrize("roll,ok", [(3, True), (2, False), (1, False)])
def test_leadership_test_must_score_higher_than_lv(roll, ok):
    u = make_unit(lv=2)
    evs = []
    assert leadership_test(ScriptedDice([("d8", roll)]), u, "why", evs) is ok
    assert (evs[0].roll, evs[0].needed, evs[0].passed, evs[0].reason) == (roll, 2, ok, "why")


# --- triggers in play --------------------------------------------------------------------------------------
def duel(commitment, red=None):
    red = red or {}
    return scenario([unit("A", (24, 5), figures=(("rifle", 5), ("lmg", 1)))],
                    [unit("B", (24, 35), **red)], commitment=("medium", commitment))


MISS = [("d8", 8), ("d8", 1), ("d6", 1), ("d8", 1)]  # target 8, firer all 1s
MINOR = [("d8", 4), ("d8", 5), ("d6", 1), ("d8", 1)]


def test_first_time_under_fire_low_commitment_tests_once():
    g = begin(duel("low"), MISS[:3] + [("d8", 2)] + [("d8", 8), ("d8", 1), ("d8", 1)])
    activate(g, 0)
    g.apply(("shoot", 1, "small_arms"))
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["roll"], c["levels_dropped"]) == ("first_under_fire", 3, 2, 1)
    assert g.units[1].confidence == STEADY
    g.apply(("shoot", 1, "support"))  # under fire again: no second test
    assert len(events_of(g, "ConfidenceTested")) == 1
    assert g.dice.remaining == 0


@pytest.mark.parametrize("commitment", ["medium", "high"])
def test_first_time_under_fire_no_test_for_medium_and_high(commitment):
    g = begin(duel(commitment), MISS)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert events_of(g, "ConfidenceTested") == []
    assert g.units[1].under_fire_before is True
    assert g.dice.remaining == 0


def test_first_time_suppressed_medium():
    g = begin(duel("medium"), MINOR + [("d8", 3)])
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"], c["confidence"]) == ("first_suppressed", 3, 1, "steady")
    assert g.dice.remaining == 0


def test_first_time_suppressed_only_once():
    g = begin(duel("medium"), MINOR[:3] + [("d8", 4)] + [("d8", 4), ("d8", 5), ("d8", 1)])
    activate(g, 0)
    g.apply(("shoot", 1, "small_arms"))
    g.apply(("shoot", 1, "support"))
    assert g.units[1].suppression == 2
    assert len(events_of(g, "ConfidenceTested")) == 1
    assert g.dice.remaining == 0


def test_low_commitment_first_fire_and_first_suppression_together_take_the_higher():
    g = begin(duel("low"), MINOR + [("d8", 5)])
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("first_suppressed", 4, 0)


def test_casualties_and_more_casualties_than_survivors_in_play():
    # 3 figures: 2 killed, 1 survivor -> more casualties than survivors
    scn = duel("high", red={"figures": [{"weapon": "rifle", "count": 3}], "armour": "none"})
    dice = [("d8", 1), ("d8", 8), ("d6", 6), ("d8", 2),  # 16 / 8 = 2 hits
            ("d4", 2), ("d4", 3),  # figures 1 and 2 (3 figures: D4, no re-roll needed)
            ("d8", 8), ("d4", 1), ("d8", 8), ("d4", 2),  # both killed (more than double)
            ("d8", 4)]  # high: casualties 0 + LV 2 + 1 (more casualties than survivors) = 3; 4 passes
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert [f.status for f in g.units[1].figures] == [OK, KILLED, KILLED]
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("casualties", 3, 0)
    assert g.dice.remaining == 0


# --- Death of a Leader -------------------------------------------------------------------------------------
def kill_leader_game(lv=2, appoint_roll=None, confidence_roll=8):
    scn = duel("high", red={"leadership": lv, "figures": [{"weapon": "rifle", "count": 4}]})
    scn["turn_limit"] = 3
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1),  # 9 / 8: 1 hit, remainder 1
            ("d8", 2),  # remainder roll fails
            ("d4", 1),  # allocated to figure 0: the leader
            ("d8", 8), ("d4", 1),  # killed
            ("d8", confidence_roll)]  # leader casualty (high): 1 + LV
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    return g


def test_leader_casualty_triggers_an_immediate_confidence_test():
    g = kill_leader_game(confidence_roll=3)
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("leader_casualty", 3, 1)
    assert last_event(g, "LeaderLost") == {"type": "LeaderLost", "unit": 1, "figure": 0}
    assert g.units[1].leader_lost is True
    assert g.dice.remaining == 0


@pytest.mark.parametrize("lv,roll,new_lv", [(2, 1, 3), (2, 2, 3), (2, 3, 2), (2, 5, 2), (2, 6, 1),
                                            (3, 1, 3), (1, 6, 1)])
def test_next_activation_reorganises_with_both_actions_then_new_leader(lv, roll, new_lv):
    g = kill_leader_game(lv=lv)
    g.apply(("end",))
    activate(g, 1)
    assert g.decision().options == (("reorganise", "leader"),)
    g.apply(("reorganise", "leader"))
    assert g.decision().options == (("reorganise", "leader"),)  # both actions
    assert events_of(g, "LeaderAppointed") == []
    add_dice(g, ("d6", roll), ("d8", 8), ("d8", 1))  # the new leader's LV; then the turn-2 initiative
    g.apply(("reorganise", "leader"))
    a = last_event(g, "LeaderAppointed")
    u = g.units[1]
    assert (a["figure"], a["roll"], a["lv"]) == (1, roll, new_lv)
    assert (u.leader, u.lv, u.leader_lost) == (1, new_lv, False)
    assert u.figures[0].status == KILLED
    assert (u.x, u.y) == pytest.approx((24 + u.figures[1].dx - u.figures[0].dx, 35 + u.figures[1].dy - u.figures[0].dy))
    assert g.dice.remaining == 0
    assert last_event(g, "ActivationEnded")["unit"] == 1


def test_leader_casualty_reorganisation_waits_for_the_units_next_activation():
    g = kill_leader_game()
    g.apply(("end",))
    assert g.decision().options == (("activate", 1),)
    assert g.units[1].leader_lost is True


def test_wounded_leader_also_counts():
    scn = duel("medium", red={"figures": [{"weapon": "rifle", "count": 4}]})
    dice = [("d8", 1), ("d8", 4), ("d6", 2), ("d8", 2), ("d4", 1), ("d8", 2), ("d4", 1),  # leader wounded
            ("d8", 2)]  # medium: leader casualty 2 + LV 2 + 1 untreated = 5; 2 fails (not < 5 // 2)
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.units[1].figures[0].status == WOUNDED
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("leader_casualty", 5, 1)
    assert g.units[1].leader_lost is True


# --- confidence effects -----------------------------------------------------------------------------------
def test_dropping_to_routed_forces_withdrawal():
    scn = duel("low", red={"confidence": "broken"})
    scn["sides"][1]["units"].append(unit("C", (40, 40)))  # a second unit, so the side can still fight
    g = begin(scn, MISS[:3] + [("d8", 3)])  # first under fire (low): needs more than 3; fails -> routed
    activate(g, 0)
    g.apply(("shoot", 1, "small_arms"))
    assert g.units[1].confidence == ROUTED
    assert last_event(g, "ConfidenceTested")["confidence"] == "routed"
    g.apply(("end",))
    activate(g, 1)
    assert g.decision().options == (("withdraw",),)


def test_leader_loss_reorganisation_comes_before_broken_withdrawal():
    g = kill_leader_game(lv=3, confidence_roll=1)  # high: 1 + 3 = 4, half 2: roll 1 drops two
    assert g.units[1].confidence == SHAKEN
    g.apply(("end",))
    g.units[1].confidence = BROKEN
    activate(g, 1)
    assert g.decision().options == (("reorganise", "leader"),)
