"""Assault Action (seed 000 "Assault Action" .. "The Two Inch Rule", "Multiple Units in Close Combat",
"Special Close Combat Weapons"): forced-dice tests of every rule implemented in rules/unit_actions/assault_action.py."""
import pytest

from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.unit_actions.assault_action import (begin_assault, courage_shifts, figure_gap,
    load_courage_table, resolve_strike, split_figures, strength, strike_dice)
from dustup_env.rules.kernel.dice import D4, D6, D8, D10, D12, ScriptedDice
from dustup_env.rules.kernel.entities import BROKEN, CONFIDENT, KILLED, OK, ROUTED, SHAKEN, STEADY, WOUNDED

from conftest import activate, begin, events_of, kinds, last_event, rect, scenario, unit


def duel(att=None, dfn=None, **kw):
    a = dict(figures=(("rifle", 8),), quality="d8", confidence="steady", armour="partial_light")
    a.update(att or {})
    d = dict(figures=(("rifle", 6),), quality="d10", confidence="steady", armour="partial_light")
    d.update(dfn or {})
    apos = a.pop("pos", (24, 10))
    dpos = d.pop("pos", (24, 20))
    return scenario([unit("A", apos, **a)], [unit("B", dpos, **d)], **kw)


END_TURN = [("d8", 8), ("d8", 1)]  # the next turn's initiative rolls (both units have activated)


def start(scn, dice, options=None):
    g = begin(scn, dice, options=options)
    activate(g, 0)
    return g


# ------------------------------------------------------------------ who may assault

def test_assault_offered_within_reach_and_line_of_sight():
    g = start(duel(), [])
    assert ("assault", 1) in g.decision().options


def test_no_assault_beyond_twice_a_maximum_move():
    g = start(duel(dfn={"pos": (24, 35)}), [])  # 25" > 2 x (2 x 6)
    assert "assault" not in kinds(g.decision().options)


@pytest.mark.parametrize("att", [{"confidence": "shaken"}, {"confidence": "broken"}])
def test_shaken_or_broken_units_may_not_assault(att):
    g = start(duel(att=att), [])
    assert "assault" not in kinds(g.decision().options)


def test_suppressed_or_propped_units_may_not_assault():
    g = begin(duel(), [])
    g.units[0].suppression = 1
    activate(g, 0)
    assert "assault" not in kinds(g.decision().options)
    g = begin(duel(), [])
    g.units[0].propped = True
    activate(g, 0)
    assert "assault" not in kinds(g.decision().options)


def test_completely_concealed_units_may_not_be_assaulted():
    g = begin(duel(), [])
    g.units[1].complete_concealment = True
    activate(g, 0)
    assert "assault" not in kinds(g.decision().options)


# ------------------------------------------------------------------ courage test results

def test_courage_success_moves_to_contact_and_both_units_are_activated():
    # stand; courage A=6 (d8) vs D=5 (d10): attack occurs; contact move d6=4 -> 8" reaches (gap 8.5 - 7.5)
    g = start(duel(), [])
    g.apply(("assault", 1))
    d = g.decision()
    assert (d.kind, d.side, d.unit, d.options) == ("assault_response", 1, 1, (("stand",), ("withdraw",)))
    assert g.units[1].activated
    from conftest import add_dice
    add_dice(g, ("d8", 6), ("d10", 5), ("d6", 4),
             # round 1: target d10=10 (no success); round 2: target d8=8 (no success)
             ("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1),
             # final test: 5 vs 5 draw -> attacker withdraws without a drop (d6 move)
             ("d8", 5), ("d10", 5), ("d6", 2), *END_TURN)
    g.apply(("stand",))
    ct = events_of(g, "CourageTested")
    assert ct[0]["result"] == "contact" and ct[0]["attacker_die"] == "d8" and ct[0]["defender_die"] == "d10"
    assert last_event(g, "ContactMove")["reached"]
    assert ct[1]["final"] and ct[1]["result"] == "draw"
    assert g.units[0].confidence == STEADY and g.units[1].confidence == STEADY
    assert g.dice.remaining == 0 and g.decision().kind == "initiative"
    assert any(e["type"] == "ActivationEnded" and e["unit"] == 0 for e in g.event_log())


def test_more_than_double_forces_the_defender_to_withdraw_then_occupy():
    g = start(duel(), [("d8", 7), ("d6", 3), ("d6", 3), *END_TURN])  # 2 markers: d10 - 2 = d6
    g.units[1].suppression = 2
    g.apply(("assault", 1))
    old = (g.units[1].x, g.units[1].y)
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "defender_withdraws"
    b = g.units[1]
    assert b.confidence == SHAKEN and b.suppression == 0 and b.y > old[1]
    d = g.decision()
    assert (d.kind, d.side, d.options) == ("assault_follow_up", 0, (("occupy",), ("contact",)))
    g.apply(("occupy",))
    assert (g.units[0].x, g.units[0].y) == old
    assert g.dice.remaining == 0
    assert g.decision().kind == "initiative"  # occupying uses the rest of the activation


def test_attacker_failing_loses_its_first_action_only():
    g = start(duel(), [("d8", 5), ("d10", 5)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail"
    d = g.decision()
    assert d.kind == "action" and d.unit == 0 and g.actions_left == 1
    assert g.units[0].confidence == STEADY and g.dice.remaining == 0


@pytest.mark.parametrize("suppressed, conf", [(0, SHAKEN), (1, STEADY)])
def test_less_than_half_loses_both_actions_and_drops_unless_defender_suppressed(suppressed, conf):
    g = start(duel(), [("d8", 2), ("d10" if not suppressed else "d8", 5), *END_TURN])
    g.units[1].suppression = suppressed
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail_badly"
    assert g.decision().kind == "initiative"
    assert g.units[0].confidence == conf and g.dice.remaining == 0


def test_courage_dice_use_open_shifts_from_the_table():
    # defender outnumbered 3:1 (2 figures vs 8): -2; defender in hard cover (building): +2; suppressed x1: -1
    scn = duel(dfn={"figures": (("rifle", 2),)}, terrain=[rect("building", 20, 18, 28, 24)])
    g = start(scn, [("d8", 1), ("d8", 8), *END_TURN])
    g.units[1].suppression = 1
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert dict(map(tuple, ct["defender_shifts"])) == {"outnumbered_3": -2, "suppressed": -1, "hard_cover": 2}
    assert ct["defender_die"] == "d8"  # d10 - 1 = d8


def test_open_shift_excess_moves_to_the_other_die():
    # a confident elite attacker (d12 +1) pushes the excess onto the defender's die
    g = start(duel(att={"quality": "d12", "confidence": "confident"}), [("d12", 12), ("d8", 1), ("d6", 4)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = events_of(g, "CourageTested")[0]
    assert ct["attacker_die"] == "d12" and ct["defender_die"] == "d8"


def test_power_armour_counts_double_for_outnumbering():
    g = start(duel(att={"figures": (("rifle", 4),), "armour": "light_power"},
                   dfn={"figures": (("rifle", 4),)}), [])
    a, b = g.units
    assert strength(g, a) == 8 and strength(g, b) == 4
    sh = dict(courage_shifts(g, b, a, defender=True, final=False))
    assert sh == {"outnumbered_2": -1}


def test_voluntary_withdrawal_drops_a_level_removes_suppression_and_skips_the_test():
    g = start(duel(), [("d6", 2)])
    g.units[1].suppression = 3
    g.apply(("assault", 1))
    g.apply(("withdraw",))
    b = g.units[1]
    assert b.confidence == SHAKEN and b.suppression == 0
    assert not events_of(g, "CourageTested")
    assert g.decision().kind == "assault_follow_up" and g.dice.remaining == 0


def test_withdrawal_is_a_normal_move_of_the_units_own_movement_die():
    """RN-406: "moves one normal move away": a defender carrying its wounded (Moving Casualties) withdraws
    with its d6 shifted to a d4, as its move action would; unencumbered it rolls the d6."""
    from conftest import add_dice

    for wounded, die in ((False, "d6"), (True, "d4")):
        g = begin(duel(), [])
        if wounded:
            g.units[1].set_figure(5, status=WOUNDED)
        activate(g, 0)
        add_dice(g, (die, 1), *([("d10", 10)] if wounded else []))  # + the test for abandoning the wounded
        g.apply(("assault", 1))
        g.apply(("withdraw",))
        mv = last_event(g, "Moved")
        assert mv["unit"] == 1 and (mv["roll"], mv["points"]) == (1, 2.0) and g.dice.remaining == 0


def test_routed_defender_must_withdraw_without_a_decision():
    g = start(duel(dfn={"confidence": "routed"}), [("d6", 2)])
    g.apply(("assault", 1))
    assert last_event(g, "AssaultResponse")["choice"] == "withdraw"
    assert g.decision().kind == "assault_follow_up" and g.dice.remaining == 0


def test_broken_defender_routs_if_the_attacker_rolls_higher():
    g = start(duel(dfn={"confidence": "broken"}), [("d8", 4), ("d8", 3), ("d6", 2)])  # shaken row: d10 -> d8
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "defender_routs"
    assert g.units[1].confidence == ROUTED
    assert g.decision().kind == "assault_follow_up" and g.dice.remaining == 0


def test_follow_up_contact_against_a_withdrawn_defender():
    # defender withdraws (d6=1: 2"), the attacker tries to contact (d6=6: 12")
    g = start(duel(), [("d6", 1), ("d6", 6)])
    g.apply(("assault", 1))
    g.apply(("withdraw",))
    from conftest import add_dice
    # combat: round 1 no success (d10 target 10 vs d8 1, d8 1); round 2: defender (shaken) strikes: target d8=8
    add_dice(g, ("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1),
             ("d8", 5), ("d8", 2), ("d6", 3))  # the withdrawn defender is shaken: d8
    g.apply(("contact",))
    assert last_event(g, "ContactMove")["reached"]
    ct = last_event(g, "CourageTested")
    assert ct["final"] and ct["result"] == "defender_loses_two"
    assert g.units[1].confidence == ROUTED  # shaken (withdrew) + 2
    assert g.dice.remaining == 0 and g.over  # the last enemy unit routed


# ------------------------------------------------------------------ move to contact, final defensive fire

def _fall_short(dfn=None):
    g = start(duel(dfn=dfn), [("d8", 6), ("d10", 5), ("d6", 1)])  # contact move 2" only
    g.apply(("assault", 1))
    g.apply(("stand",))
    return g


def test_falling_short_gives_the_defender_final_defensive_fire():
    g = _fall_short()
    assert not last_event(g, "ContactMove")["reached"]
    assert figure_gap(g.units[0], g.units[1]) >= 2.0 - 1e-9
    d = g.decision()
    assert d.kind == "final_defensive_fire" and d.side == 1 and d.unit == 1
    assert ("hold_fire",) in d.options and ("fire", "all") in d.options
    assert ("fire", "suppressive") not in d.options


def test_defensive_fire_casualties_and_failed_reaction_send_the_attacker_back_suppressed():
    g = _fall_short()
    from conftest import add_dice
    # fire: target d8 (short range -1 = d6) roll 1; quality d10 9, fp d6 6 -> major: 15/6 = 2 r3 -> d6 4 no extra
    # hits: alloc d8 2, 3; impacts d8 vs d6: 8 vs 3 kill, 1 vs 6 none; reaction: d8 3 <= 2 + 1
    add_dice(g, ("d6", 1), ("d10", 9), ("d6", 6), ("d6", 4), ("d8", 2), ("d8", 3), ("d8", 8), ("d6", 3),
             ("d8", 1), ("d6", 6), ("d8", 3), *END_TURN)
    start_pos = (24.0, 10.0)
    g.apply(("fire", "all"))
    assert last_event(g, "ShotResolved")["suppressive"] is False
    r = last_event(g, "AssaultReaction")
    assert (r["roll"], r["needed"], r["passed"]) == (3, 3, False)
    a = g.units[0]
    assert (a.x, a.y) == start_pos and a.suppression == 1
    assert g.decision().kind == "initiative" and g.dice.remaining == 0


def test_passing_the_reaction_allows_a_second_move_to_contact():
    g = _fall_short()
    from conftest import add_dice
    add_dice(g, ("d6", 1), ("d10", 9), ("d6", 6), ("d6", 4), ("d8", 2), ("d8", 3), ("d8", 8), ("d6", 3),
             ("d8", 1), ("d6", 6), ("d8", 4), *END_TURN)
    g.apply(("fire", "all"))
    assert last_event(g, "AssaultReaction")["passed"]
    assert g.units[0].suppression == 0  # suppression results of defensive fire are ignored
    d = g.decision()
    assert (d.kind, d.options) == ("second_move", (("contact",), ("halt",)))
    g.apply(("halt",))
    assert g.decision().kind == "initiative" and g.dice.remaining == 0


def test_hold_fire_then_second_move_that_falls_short_stays_two_inches_away():
    g = _fall_short()
    g.apply(("hold_fire",))
    from conftest import add_dice
    add_dice(g, ("d6", 1), *END_TURN)
    g.apply(("contact",))
    assert not last_event(g, "ContactMove")["reached"]
    assert figure_gap(g.units[0], g.units[1]) >= 2.0 - 1e-9
    assert g.decision().kind == "initiative" and g.dice.remaining == 0


def test_suppressed_defender_must_pass_the_suppression_test_to_fire():
    g = _fall_short()
    g.units[1].suppression = 2
    from conftest import add_dice
    add_dice(g, ("d10", 4))  # needs > 2 + 2
    g.apply(("fire", "all"))
    t = last_event(g, "SuppressionTested")
    assert (t["roll"], t["needed"], t["passed"]) == (4, 4, False)
    assert not events_of(g, "ShotResolved") and g.units[1].suppression == 2  # markers not removed
    assert g.decision().kind == "second_move"


def test_withdrawn_defenders_may_not_fire():
    g = start(duel(), [("d6", 1), ("d6", 1)])
    g.apply(("assault", 1))
    g.apply(("withdraw",))
    g.apply(("contact",))
    assert g.decision().kind == "second_move"


def test_assault_as_second_action_has_no_second_move():
    g2 = start(duel(), [("d6", 1), ("d8", 6), ("d10", 5), ("d6", 1), *END_TURN])
    g2.apply(("move", 0, 0))  # 2" north (d6=1)
    g2.apply(("assault", 1))
    g2.apply(("stand",))
    g2.apply(("hold_fire",))
    assert g2.decision().kind == "initiative" and g2.dice.remaining == 0


# ------------------------------------------------------------------ two inch rule

def test_two_inch_rule_no_test_no_withdrawal_no_defensive_fire():
    g = start(duel(dfn={"pos": (24, 13.5)}), [("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1),
                                               ("d8", 6), ("d10", 5), ("d6", 1), *END_TURN])
    assert figure_gap(g.units[0], g.units[1]) <= 2.05
    g.apply(("assault", 1))
    assert last_event(g, "AssaultDeclared")["two_inch"]
    assert not events_of(g, "AssaultResponse")
    ct = events_of(g, "CourageTested")
    assert len(ct) == 1 and ct[0]["final"] and ct[0]["result"] == "defender_loses"
    assert g.dice.remaining == 0 and g.units[1].confidence == SHAKEN
    assert last_event(g, "ContactMove")["roll"] == 0


# ------------------------------------------------------------------ combat resolution

def test_strike_dice_rounding_and_special_weapons():
    g = begin(duel(att={"figures": (("rifle", 5), ("laser_sword", 1))}), [])
    a = g.units[0]
    dice, over = strike_dice(g, a, a.able())
    assert dice == [D6, D8] and not over  # 5 bayonets -> d6, laser sword d8 (seed example)
    g = begin(duel(att={"figures": (("rifle", 2),)}), [])
    assert strike_dice(g, g.units[0], g.units[0].able()) == ([D4], False)  # below 4 -> d4
    g = begin(duel(att={"figures": (("rifle", 14),)}), [])
    assert strike_dice(g, g.units[0], g.units[0].able()) == ([D12], True)


def test_resolve_strike_minor_and_major_and_remainder():
    # seed example remainder: 17 against a d6 -> 2 hits, remainder 5 -> roll <= 5 gives a third
    d = ScriptedDice([("d6", 1), ("d8", 8), ("d8", 1), ("d6", 5)])  # minor: 9 vs d6 -> 1 r3; roll 5 > 3
    assert resolve_strike(d, quality=D8, strike=[D8], target=D6) == (1, (8, 1), 1, "minor", 1)
    d = ScriptedDice([("d10", 6), ("d8", 7), ("d8", 8)])
    assert resolve_strike(d, quality=D8, strike=[D8], target=D10) == (6, (7, 8), 2, "major", 3)
    assert d.remaining == 0


def test_split_figures_match_the_opponents():
    g = begin(duel(att={"figures": (("rifle", 10),)}), [])
    assert [len(x) for x in split_figures(g.units[0], [4, 6])] == [4, 6]
    g = begin(duel(att={"figures": (("rifle", 12),)}), [])
    assert [len(x) for x in split_figures(g.units[0], [5, 5])] == [6, 6]


def _extended_example(remainder_roll):
    """Seed 000 Assault Action > Extended Example (experienced 8 bayonets vs veteran 6; armour D6 both)."""
    g = start(duel(), [("d8", 6), ("d10", 5), ("d6", 4)])
    g.apply(("assault", 1))
    from conftest import add_dice
    add_dice(g,
             # round 1: defender target d10 6; attacker d8 7 + strike d8 8 -> major, 30/10 = 3 hits
             ("d10", 6), ("d8", 7), ("d8", 8),
             ("d6", 2), ("d6", 3), ("d6", 4),  # allocation among six models
             ("d6", 4), ("d6", 2), ("d6", 1), ("d6", 4), ("d6", 6), ("d6", 2),  # wound, miss, kill
             # round 2: attacker target d8 3; defender d10 4 + strike 6 bayonets d6 6 -> 20/8 = 2 r4
             ("d8", 3), ("d10", 4), ("d6", 6), ("d8", remainder_roll))
    if remainder_roll > 4:
        add_dice(g, ("d8", 2), ("d8", 3), ("d6", 5), ("d6", 3), ("d6", 2), ("d6", 4))  # one wound
    else:
        add_dice(g, ("d8", 2), ("d8", 3), ("d8", 4),
                 ("d6", 5), ("d6", 3), ("d6", 2), ("d6", 4), ("d6", 4), ("d6", 3))  # two wounds
    return g


def test_extended_example_as_the_rules_read_one_wound():
    g = _extended_example(5)
    from conftest import add_dice
    # final test: attacker d8 -1 (one wound) = d6 rolls 3; defender d10 -1 wound -2 kill = d4 rolls 4
    # withdrawal: a normal move of a unit carrying its wounded, d6 -> d4 (RN-406); abandon-wounded test d8
    add_dice(g, ("d6", 3), ("d4", 4), ("d4", 3), ("d8", 5), *END_TURN)
    g.apply(("stand",))
    strikes = events_of(g, "StrikeResolved")
    assert [(s["target_die"], s["target_roll"], s["striker_rolls"], s["result"], s["hits"]) for s in strikes] == [
        ("d10", 6, [7, 8], "major", 3), ("d8", 3, [4, 6], "major", 2)]
    hits = [(h["target"], h["impact"], h["armour"], h["effect"]) for h in events_of(g, "HitResolved")]
    assert hits == [(1, 4, 2, "wound"), (1, 1, 4, "none"), (1, 6, 2, "kill"), (0, 5, 3, "wound"), (0, 2, 4, "none")]
    ct = last_event(g, "CourageTested")
    assert (ct["attacker_die"], ct["defender_die"], ct["attacker_roll"], ct["defender_roll"], ct["result"]) == (
        "d6", "d4", 3, 4, "attacker_loses")
    assert dict(map(tuple, ct["defender_shifts"])) == {"wounded": -1, "killed": -2}
    a, b = g.units
    assert a.confidence == SHAKEN and b.confidence == STEADY
    assert a.abandoned == 1 and last_event(g, "WoundedAbandoned")["figures"] == 1
    assert last_event(g, "ConfidenceTested")["reason"] == "abandon_wounded"
    assert b.figures[1].status == WOUNDED and b.figures[3].status == KILLED
    assert g.dice.remaining == 0 and g.decision().kind == "initiative"


def test_extended_example_literal_dice_two_wounds_give_d4_against_d4():
    g = _extended_example(4)  # the 4/8 chance of a third hit comes up: two wounds
    from conftest import add_dice
    add_dice(g, ("d4", 3), ("d4", 4), ("d4", 3), ("d8", 6), *END_TURN)  # withdrawal on the d4 (RN-406)
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert (ct["attacker_die"], ct["defender_die"], ct["result"]) == ("d4", "d4", "attacker_loses")
    assert g.units[0].abandoned == 2 and g.dice.remaining == 0


def test_total_victory_needs_no_outcome_test():
    # a lone defender 2" away (two-inch rule), outnumbered 8:1 -> its d10 is shifted down twice to d6
    imp = [("d6", 6), ("d6", 2)] + [("d6", 1), ("d6", 6)] * 3  # a kill, then hits on the dead figure
    g = start(duel(dfn={"figures": (("rifle", 1),), "pos": (24, 12.75)}),
              [("d6", 1), ("d8", 8), ("d8", 4), *imp,  # 12 x 2 = 24 / 6 = 4 hits, all on the one figure
               ("d8", 8), ("d10", 1), ("d4", 1)])  # the killed figure still strikes back (simultaneous)
    g.apply(("assault", 1))
    assert last_event(g, "CourageTested")["result"] == "total_victory_attacker"
    assert [s["round"] for s in events_of(g, "StrikeResolved")] == [1, 2]
    assert g.over and g.dice.remaining == 0
    assert g.units[0].confidence == STEADY


def test_routed_units_do_not_strike_back():
    g = start(duel(dfn={"confidence": "routed"}), [("d6", 1), ("d6", 6)])
    g.apply(("assault", 1))
    from conftest import add_dice
    add_dice(g, ("d10", 10), ("d8", 1), ("d8", 1),  # round 1 only; the routed defender does not strike
             ("d8", 5), ("d8", 5), ("d6", 1))  # final: routed (shaken row) d10 -> d8; draw
    g.apply(("contact",))
    assert [s["round"] for s in events_of(g, "StrikeResolved")] == [1]
    assert last_event(g, "CourageTested")["result"] == "draw"
    assert g.dice.remaining == 0 and g.over


# ------------------------------------------------------------------ several units

def test_one_attacker_against_two_defenders_splits_and_obeys_the_worst_result():
    scn = scenario([unit("A", (24, 10), figures=(("rifle", 10),), confidence="steady")],
                   [unit("B", (20, 20), figures=(("rifle", 4),), confidence="steady"),
                    unit("C", (28, 20), figures=(("rifle", 6),), confidence="steady")])
    g = begin(scn, [])
    activate(g, 0)
    g.apply(("end",)) if False else None
    # B withdraws voluntarily is not asked here: both stand; B fails the attacker (fail), C forced out
    from conftest import add_dice
    add_dice(g, ("d8", 3), ("d8", 3), ("d8", 7), ("d8", 3), ("d6", 2))
    begin_assault(g, [0], [1, 2], via_action=True)
    g.apply(("stand",))
    g.apply(("stand",))
    res = [e["result"] for e in events_of(g, "CourageTested")]
    assert res == ["fail", "defender_withdraws"]
    assert g.units[2].confidence == SHAKEN
    assert g.decision().kind == "action" and g.actions_left == 1  # the whole unit obeys the failure
    assert g.dice.remaining == 0


def test_combined_assault_two_attackers_one_defender():
    scn = scenario([unit("A1", (20, 10), figures=(("rifle", 4),), confidence="steady"),
                    unit("A2", (28, 10), figures=(("rifle", 4),), confidence="steady")],
                   [unit("B", (24, 15), figures=(("rifle", 6),), confidence="steady")])
    g = begin(scn, [])
    activate(g, 0)
    from conftest import add_dice
    # courage A1 6 vs 5, A2 6 vs 5 -> both move; moves d6 6 each reach
    add_dice(g, ("d8", 6), ("d8", 5), ("d8", 6), ("d8", 5), ("d6", 6), ("d6", 6))
    # combat: two pairs, all strikes miss: r1 A1, A2 ; r2 B(4 figs) x2
    for _ in range(4):
        add_dice(g, ("d8", 8), ("d8", 1), ("d4", 1))
    add_dice(g, ("d8", 5), ("d8", 5), ("d8", 5), ("d8", 5), ("d6", 1), ("d6", 1))  # two draws: both withdraw
    begin_assault(g, [0, 1], 2)
    g.apply(("stand",))
    assert [e["result"] for e in events_of(g, "CourageTested")] == ["contact", "contact", "draw", "draw"]
    strikes = events_of(g, "StrikeResolved")
    assert [(s["striker"], s["round"], s["striker_dice"]) for s in strikes] == [
        (0, 1, ["d8", "d4"]), (1, 1, ["d8", "d4"]), (2, 2, ["d8", "d4"]), (2, 2, ["d8", "d4"])]
    assert g.units[0].activated and g.units[1].activated and g.dice.remaining == 0
    assert g.decision().kind == "action" and g.actions_left == 1  # the activation below counted one action


# ------------------------------------------------------------------ data and options

def test_courage_table_is_data_and_replaceable():
    rows = load_courage_table(None)
    assert [r["shift"] for r in rows] == [-1, -2, -1, 1, -1, -1, -2, -1, -2, 1, 2]
    table = {"rows": [{"id": "confident", "shift": 3}]}
    g = begin(duel(att={"confidence": "confident"}), [], options={"courage_table": table})
    assert courage_shifts(g, g.units[0], g.units[1], defender=False, final=False) == [("confident", 3)]


@pytest.mark.parametrize("opts", [{"courage_table": {"rows": [{"id": "bogus", "shift": 1}]}},
                                  {"courage_table": "/nonexistent/table.json"},
                                  {"courage_table": 7},
                                  {"close_combat": "brawl"}])
def test_bad_assault_options_are_scenario_errors(opts):
    with pytest.raises(ScenarioError):
        Game(duel(), seed=0, options=opts)


def test_random_games_with_assaults_keep_save_load_exact():
    import random
    g = Game("skirmish", seed=3)
    rng = random.Random(3)
    seen = False
    while not g.over and len(g.history) < 4000:
        opts = g.decision().options
        ass = [o for o in opts if o[0] == "assault"]
        g.apply(ass[0] if ass and rng.random() < 0.5 else rng.choice(opts))
        seen = seen or bool(ass)
    assert seen
    h = Game.from_dict(g.to_dict())
    assert h.state_digest() == g.state_digest()


# ------------------------------------------------------------------ terror (RN-217, courage table row 9)

def test_terror_defender_shifts_the_attackers_courage_die_down_two():
    # the defender provokes terror: the attacker's d8 is shifted -2 to d4 (row 9); the defender's d10 is not.
    # (the experienced d8 attacker first passes its first-sight-of-terror panic test, d8=8, RN-248)
    g = start(duel(dfn={"terror": True}), [("d8", 8), ("d4", 3), ("d10", 5)])
    assert last_event(g, "PanicTested")["passed"]
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert dict(map(tuple, ct["attacker_shifts"])) == {"terror": -2}
    assert dict(map(tuple, ct["defender_shifts"])) == {}
    assert (ct["attacker_die"], ct["defender_die"], ct["result"]) == ("d4", "d10", "fail")
    assert g.decision().kind == "action" and g.actions_left == 1 and g.dice.remaining == 0


def test_terror_attacker_shifts_the_defenders_courage_die_in_both_tests():
    # the attacker provokes terror: the defender's d10 becomes d6 in the courage test and in the final test
    g = start(duel(att={"terror": True}), [])
    g.apply(("assault", 1))
    from conftest import add_dice
    add_dice(g, ("d8", 6), ("d6", 5), ("d6", 4),  # courage 6 vs 5: contact; d6=4 -> 8" reaches
             ("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1),  # two rounds, no success
             ("d8", 5), ("d6", 5), ("d6", 2), *END_TURN)  # final 5 vs 5 draw: the attacker withdraws
    g.apply(("stand",))
    ct = events_of(g, "CourageTested")
    assert [dict(map(tuple, c["defender_shifts"])) for c in ct] == [{"terror": -2}, {"terror": -2}]
    assert [dict(map(tuple, c["attacker_shifts"])) for c in ct] == [{}, {}]
    assert [(c["attacker_die"], c["defender_die"], c["result"]) for c in ct] == [
        ("d8", "d6", "contact"), ("d8", "d6", "draw")]
    assert g.dice.remaining == 0 and g.decision().kind == "initiative"


def test_terror_does_not_shift_a_unit_that_itself_provokes_terror():
    g = begin(duel(att={"terror": True}, dfn={"terror": True}), [])
    a, b = g.units
    assert courage_shifts(g, a, b, defender=False, final=True) == []
    assert courage_shifts(g, b, a, defender=True, final=True) == []


# ------------------------------------------------------------------ move to contact across an obstacle

def _walled(dice, wall_y=17.0):
    # a wall (crossing cost 2") across the attacker's path, between it and the defender's front row (y 20);
    # courage 6 vs 5: contact.  Without the wall 7.5" of movement brings the attacker's front row within 1".
    from conftest import wall
    g = start(duel(obstacles=[wall("wall", 0, wall_y, 48, wall_y, cost=2)]), [("d8", 6), ("d10", 5), *dice])
    g.apply(("assault", 1))
    return g


def test_contact_move_short_of_the_obstacle_crossing_cost_fails_to_contact():
    # d6=4: 8 points < 7.5 + 2 (crossing): stops at the wall, 2" from the defender; defensive fire follows
    g = _walled([("d6", 4)])
    g.apply(("stand",))
    cm = last_event(g, "ContactMove")
    assert (cm["points"], cm["reached"], cm["end"]) == (8.0, False, [24.0, 16.5])
    assert figure_gap(g.units[0], g.units[1]) >= 2.0 - 1e-9
    assert g.decision().kind == "final_defensive_fire" and g.dice.remaining == 0


def test_contact_move_paying_the_obstacle_crossing_cost_reaches_the_defender():
    # d6=5: 10 points >= 7.5 + 2: crosses the wall and contacts; then the same combat as the plain duel
    g = _walled([("d6", 5), ("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1),
                 ("d8", 5), ("d10", 5), ("d6", 2), *END_TURN])
    g.apply(("stand",))
    cm = events_of(g, "ContactMove")[0]
    assert (cm["points"], cm["reached"], cm["end"]) == (10.0, True, [24.0, 17.5])
    assert last_event(g, "CourageTested")["final"]
    assert g.dice.remaining == 0 and g.decision().kind == "initiative"


def test_contact_across_a_wall_right_in_front_of_the_defender_pays_its_cost():
    # wall 0.5" in front of the defender's front row: "the attacker must roll enough movement to cover the
    # movement cost of crossing the obstacle" -> 8 points < 7.5 + 2: no contact, defensive fire follows
    g = _walled([("d6", 4)], wall_y=19.5)
    g.apply(("stand",))
    cm = last_event(g, "ContactMove")
    assert cm["points"] == 8.0 and cm["reached"] is False
    assert g.decision().kind == "final_defensive_fire" and g.dice.remaining == 0
    # 10 points pay the 7.5" walk and the 2" wall: contact
    g = _walled([("d6", 5), ("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1),
                 ("d8", 5), ("d10", 5), ("d6", 2), *END_TURN], wall_y=19.5)
    g.apply(("stand",))
    assert events_of(g, "ContactMove")[0]["reached"] is True and g.dice.remaining == 0

# ------------------------------------------------------------------ issue 3: one assault on several defenders

def two_small_units(c_pos=(28, 20), att_figs=10):
    """Blue A (uid 0, 10 rifles) facing Red B (uid 1, 4 rifles) and C (uid 2, 6 rifles); all Steady."""
    return scenario([unit("A", (24, 10), figures=(("rifle", att_figs),), confidence="steady")],
                    [unit("B", (20, 20), figures=(("rifle", 4),), confidence="steady"),
                     unit("C", c_pos, figures=(("rifle", 6),), confidence="steady")])


def test_one_assault_is_declared_on_two_defenders_by_the_attacker():
    g = begin(two_small_units(), [("d8", 3), ("d8", 3), ("d8", 7), ("d8", 3), ("d6", 2)])
    activate(g, 0)
    g.apply(("assault", 1))
    d = g.decision()
    assert (d.kind, d.side, d.unit) == ("assault_targets", 0, 0)
    assert d.options == (("defenders_chosen",), ("add_defender", 2))
    assert not events_of(g, "AssaultDeclared") and g.dice.remaining == 5  # nothing rolled or marked yet
    g.apply(("add_defender", 2))  # no third enemy: the assault begins at once
    assert last_event(g, "AssaultDeclared")["defenders"] == [1, 2]
    assert g.units[1].activated and g.units[2].activated
    assert (g.decision().kind, g.decision().unit) == ("assault_response", 1)
    g.apply(("stand",))
    g.apply(("stand",))
    # the 10 figures split 4/6 against B/C; B's pair fails, C is forced out; the whole unit obeys the failure
    assert [e["result"] for e in events_of(g, "CourageTested")] == ["fail", "defender_withdraws"]
    assert g.units[2].confidence == SHAKEN
    assert g.decision().kind == "action" and g.actions_left == 1 and g.dice.remaining == 0


def test_declaring_on_one_defender_only_is_the_plain_assault():
    g = begin(two_small_units(), [("d8", 6), ("d8", 5)])
    activate(g, 0)
    g.apply(("assault", 2))
    g.apply(("defenders_chosen",))
    assert last_event(g, "AssaultDeclared")["defenders"] == [2]
    assert not g.units[1].activated and g.decision().unit == 2


def test_units_too_far_apart_or_too_many_for_the_attacker_are_not_offered():
    # B and C 22" apart: no detachment pair could keep within 6" of the leader (RN-300)
    g = begin(two_small_units(c_pos=(42, 20)), [])
    activate(g, 0)
    g.apply(("assault", 1))
    assert g.decision().kind == "assault_response" and last_event(g, "AssaultDeclared")["defenders"] == [1]
    # a single figure cannot split into two detachments
    g = begin(two_small_units(att_figs=1), [])
    activate(g, 0)
    g.apply(("assault", 1))
    assert g.decision().kind == "assault_response"


def _both_withdraw():
    """A declares on B and C; both withdraw voluntarily (d6 1 each: 2" straight away from A)."""
    g = begin(two_small_units(), [("d6", 1), ("d6", 1)])
    activate(g, 0)
    g.apply(("assault", 1))
    g.apply(("add_defender", 2))
    g.apply(("withdraw",))
    g.apply(("withdraw",))
    return g


def _no_strike(target_die, quality_die, strike_die):
    return [(target_die, int(target_die[1:])), (quality_die, 1), (strike_die, 1)]


def test_both_defenders_withdraw_the_attacker_chooses_to_follow_both():
    g = _both_withdraw()
    d = g.decision()
    assert (d.kind, d.side, d.unit) == ("assault_follow_up", 0, 0)
    assert d.options == (("occupy",), ("follow", 1), ("follow", 2))
    g.apply(("follow", 2))
    assert g.decision().options == (("defenders_chosen",), ("follow", 1))
    from conftest import add_dice
    add_dice(g, ("d6", 6),  # one contact move (12") toward the nearer chosen unit reaches it
             # round 1: A's 4 vs B (shaken after withdrawing: d8 target), A's 6 vs C; round 2 back: all miss
             *_no_strike("d8", "d8", "d4"), *_no_strike("d8", "d8", "d6"),
             *_no_strike("d8", "d8", "d4"), *_no_strike("d8", "d8", "d6"),
             # final tests: A (d8) against B and C (shaken: d6): 5 vs 3 each, defenders lose one level
             ("d8", 5), ("d6", 3), ("d8", 5), ("d6", 3), ("d6", 1), ("d6", 1), *END_TURN)
    g.apply(("follow", 1))  # nobody left to add: the attacker moves
    assert last_event(g, "ContactMove")["reached"]
    strikes = events_of(g, "StrikeResolved")
    assert [(s["striker"], s["target"], s["round"], s["striker_dice"]) for s in strikes] == [
        (0, 1, 1, ["d8", "d4"]), (0, 2, 1, ["d8", "d6"]), (1, 0, 2, ["d8", "d4"]), (2, 0, 2, ["d8", "d6"])]
    assert [e["result"] for e in events_of(g, "CourageTested")] == ["defender_loses", "defender_loses"]
    assert g.units[1].confidence == BROKEN and g.units[2].confidence == BROKEN
    assert g.dice.remaining == 0


def test_both_defenders_withdraw_the_attacker_follows_only_one():
    g = _both_withdraw()
    g.apply(("follow", 2))
    from conftest import add_dice
    add_dice(g, ("d6", 6), *_no_strike("d8", "d8", "d10"), *_no_strike("d8", "d8", "d6"),
             ("d8", 5), ("d6", 3), ("d6", 1), *END_TURN)
    g.apply(("defenders_chosen",))
    assert last_event(g, "ContactMove")["target"] == 2
    strikes = events_of(g, "StrikeResolved")
    assert [(s["striker"], s["target"]) for s in strikes] == [(0, 2), (2, 0)]  # B is left alone
    assert strikes[0]["striker_dice"] == ["d8", "d10"]  # the whole unit (10 bayonets) against C
    assert g.units[1].confidence == SHAKEN and g.units[2].confidence == BROKEN
    assert g.dice.remaining == 0


def test_a_withdrawn_unit_too_far_from_the_first_choice_cannot_be_followed_with_it():
    g = _both_withdraw()
    g.units[2].x += 20.0  # C is now far from B
    from conftest import add_dice
    add_dice(g, ("d6", 1))  # the contact move (2") falls short
    g.apply(("follow", 1))  # C cannot join: the attacker goes at once
    assert last_event(g, "ContactMove")["target"] == 1 and not last_event(g, "ContactMove")["reached"]
    assert g.decision().kind == "second_move" and g.dice.remaining == 0


# ------------------------------------------------------------------ issue 3: special close-combat weapons

def sword_duel(att_figs=(("rifle", 5), ("laser_sword", 1)), dfn_figs=(("rifle", 6),), **kw):
    """A (5 bayonets + a laser sword, impact D10 in close combat) 2" from B: the two-inch rule, no courage test."""
    return scenario([unit("A", (24, 10), figures=att_figs, confidence="steady")],
                    [unit("B", (24, 13.5), figures=dfn_figs, confidence="steady")], **kw)


def test_special_weapon_figures_split_off_and_strike_with_their_own_impact():
    g = begin(sword_duel(), [])
    activate(g, 0)
    g.apply(("assault", 1))
    d = g.decision()
    assert (d.kind, d.side, d.unit, d.options) == ("special_weapons", 0, 0, (("no_split",), ("split_special",)))
    from conftest import add_dice
    add_dice(g,
             # the sword detachment (1 figure) against one of B's figures: minor success 9/8 = 1 r1 (d8 8: none)
             ("d8", 4), ("d8", 8), ("d8", 1), ("d8", 8),
             ("d10", 10), ("d4", 2),  # the sword's own impact D10 against basic battledress D4: a kill
             # the other five (D6 strike) against B's other five: no success
             ("d8", 8), ("d8", 1), ("d6", 1),
             # round 2: B's two detachments strike back (d4 for one rifle, d6 for five): no success
             ("d8", 8), ("d8", 1), ("d4", 1), ("d8", 8), ("d8", 1), ("d6", 1),
             # the sword killed B's leader: B tests at once (Death of a Leader, L1186): 8 passes
             ("d8", 8),
             # final tests: the sword's pair is a total victory; the other pair A 5 vs B 3
             ("d8", 5), ("d8", 3), ("d6", 1), *END_TURN)
    g.apply(("split_special",))
    assert last_event(g, "SpecialWeaponsChoice") == {"type": "SpecialWeaponsChoice", "unit": 0, "split": True}
    strikes = events_of(g, "StrikeResolved")
    assert [(s["striker"], s["round"], s["striker_dice"]) for s in strikes] == [
        (0, 1, ["d8", "d8"]), (0, 1, ["d8", "d6"]), (1, 2, ["d8", "d4"]), (1, 2, ["d8", "d6"])]
    hit = last_event(g, "HitResolved")
    assert (hit["impact_die"], hit["effect"]) == ("d10", "kill")
    assert [e["result"] for e in events_of(g, "CourageTested")] == ["total_victory_attacker", "defender_loses"]
    assert g.units[1].confidence == SHAKEN and g.dice.remaining == 0
    assert [e["reason"] for e in events_of(g, "ConfidenceTested") if e["unit"] == 1] == ["leader_casualty"]


def test_without_the_split_the_special_weapon_only_adds_its_strike_die():
    g = begin(sword_duel(), [])
    activate(g, 0)
    g.apply(("assault", 1))
    from conftest import add_dice
    add_dice(g, ("d8", 4), ("d8", 8), ("d6", 1), ("d8", 1), ("d8", 8),  # one pool: quality, bayonets D6, sword D8
             ("d6", 6), ("d6", 6), ("d4", 2),  # one hit (10/8), allocated by a d6; the unit's impact D6
             ("d8", 8), ("d8", 1), ("d6", 1),  # B strikes back: nothing
             ("d8", 5), ("d4", 3), ("d6", 1), *END_TURN)  # B's die d8 -2 for the kill
    g.apply(("no_split",))
    assert events_of(g, "StrikeResolved")[0]["striker_dice"] == ["d8", "d6", "d8"]
    assert events_of(g, "HitResolved")[0]["impact_die"] == "d6"
    assert g.dice.remaining == 0


def test_no_split_offered_without_a_better_weapon_other_troopers_or_two_opposing_figures():
    from dustup_env.rules.unit_actions.assault_action import split_special
    cases = [((("rifle", 6),), (("rifle", 6),), None),  # no special weapon
             ((("laser_sword", 3),), (("rifle", 6),), None),  # nobody else: nothing to split from
             ((("rifle", 5), ("laser_sword", 1)), (("rifle", 1),), None),  # one opposing figure cannot be split
             ((("rifle", 5), ("laser_sword", 1)), (("rifle", 6),), ([5], [0], [0, 1, 2, 3, 4], [1, 2, 3, 4, 5]))]
    for att, dfn, want in cases:
        g = begin(sword_duel(att, dfn), [])
        p = {"a": 0, "d": 1, "af": g.units[0].able(), "df": g.units[1].able()}
        got = split_special(g, p, "a")
        if want is None:
            assert got is None
        else:
            assert [(q["af"], q["df"]) for q in got] == [(want[0], want[1]), (want[2], want[3])]
            assert got[0]["a_impact"] == D10 and "a_impact" not in got[1]


def test_the_defender_may_split_its_special_weapons_too():
    g = begin(sword_duel(att_figs=(("rifle", 6),), dfn_figs=(("rifle", 5), ("laser_sword", 1))), [])
    activate(g, 0)
    g.apply(("assault", 1))
    d = g.decision()
    assert (d.kind, d.side, d.unit) == ("special_weapons", 1, 1)  # the attacker has no special weapon
    from conftest import add_dice
    add_dice(g, *_no_strike("d8", "d8", "d4"), *_no_strike("d8", "d8", "d6"),  # A's 1 + 5 strike: nothing
             *_no_strike("d8", "d8", "d8"), *_no_strike("d8", "d8", "d6"),  # B's sword alone, then the other five
             ("d8", 3), ("d8", 5), ("d8", 3), ("d8", 5), ("d6", 1), *END_TURN)  # A loses both pairs
    g.apply(("split_special",))
    assert last_event(g, "SpecialWeaponsChoice")["unit"] == 1
    assert [s["striker_dice"] for s in events_of(g, "StrikeResolved")][2] == ["d8", "d8"]
    # "if a unit fails two courage tests, it will withdraw one move, but take two losses of confidence"
    assert [e["result"] for e in events_of(g, "CourageTested")] == ["attacker_loses", "attacker_loses"]
    assert g.units[0].confidence == BROKEN and len(events_of(g, "Moved")) == 1 and g.dice.remaining == 0


def test_special_weapons_split_only_in_the_standard_close_combat():
    # seed 003 house close combat replaces the seed 000 combat: its first round starts at once
    g = begin(sword_duel(), [("d8", 8), ("d8", 1), ("d6", 1), ("d8", 1), ("d8", 8), ("d8", 1), ("d6", 1)],
              options={"close_combat": "house"})
    activate(g, 0)
    g.apply(("assault", 1))
    assert g.decision().kind == "assault_response" and not events_of(g, "SpecialWeaponsChoice")
    assert g.dice.remaining == 0


# ------------------------------------------------------------------ issue 3 gaps in random play

def gaps_scenario():
    """Close-packed squads with laser swords and commanders, woods to hide in: random play reaches the new
    decisions (several defenders, following, special weapons, abandoning, recovering, hiding, the cascade)."""
    mixed = (("rifle", 5), ("laser_sword", 1))
    wood = rect("light_woods", 0, 20, 48, 28)
    blue = [unit("HQ", (24, 8), (("rifle", 3),), kind="hq", confidence="steady"),
            unit("B1", (18, 14), mixed, commander="HQ", confidence="steady"),
            unit("B2", (30, 14), mixed, commander="HQ", confidence="steady")]
    red = [unit("RHQ", (24, 40), (("rifle", 3),), kind="hq", confidence="steady"),
           unit("R1", (18, 32), mixed, commander="RHQ", confidence="steady"),
           unit("R2", (30, 32), mixed, commander="RHQ", confidence="steady")]
    return scenario(blue, red, terrain=[wood], turn_limit=5)


def test_random_games_reach_the_new_decisions_and_stay_encodable():
    import random
    from dustup_env.codec import ActionCodec
    codec = ActionCodec()
    seen = set()
    wanted = {"assault_targets", "special_weapons", "follow", "abandon", "hide", "recover_wounded", "split_special"}
    for seed in range(60):  # stops as soon as every new decision was reached (seed 13 reaches recover_wounded)
        if wanted <= seen and seed >= 16:
            break
        g = Game(gaps_scenario(), seed=seed)
        rng = random.Random(seed)
        while not g.over and len(g.history) < 3000:
            d = g.decision()
            assert sorted(codec.indices(g, d)) == sorted(set(codec.indices(g, d)))  # one index per option
            assert int(codec.mask(g, d).sum()) == len(d.options)
            seen.add(d.kind)
            # prefer the rare options so that random play reaches them
            rare = [o for o in d.options if o[0] in ("assault", "add_defender", "follow", "split_special", "abandon")
                    or o in (("reorganise", "hide"), ("reorganise", "recover_wounded"))]
            o = rare[0] if rare and rng.random() < 0.5 else rng.choice(d.options)
            seen.add(o[1] if o[0] == "reorganise" else o[0])
            g.apply(o)
        h = Game.from_dict(g.to_dict())
        assert h.state_digest() == g.state_digest()
    assert wanted <= seen, wanted - seen


def test_contact_move_rolls_the_units_own_movement_die_encumbrance_applies():
    """RN-405: the contact move is a move of the attacker: Game.movement_die (a unit carrying its wounded
    rolls one die type lower, Moving Casualties) -- the d6 troopers roll a d4 here."""
    from conftest import add_dice

    g = begin(duel(), [])
    g.units[0].set_figure(3, status=WOUNDED)  # carried along: encumbered
    activate(g, 0)
    g.apply(("assault", 1))
    add_dice(g, ("d8", 6), ("d10", 5), ("d4", 1))  # courage: contact; the contact move rolls the d4: 2"
    g.apply(("stand",))
    cm = last_event(g, "ContactMove")
    assert (cm["roll"], cm["points"], cm["reached"]) == (1, 2.0, False)
    assert g.dice.remaining == 0 and g.decision().kind == "final_defensive_fire"


def test_declaration_reach_uses_the_units_own_movement_die():
    """RN-405: twice a maximum move of the unit's own die: a d6 squad carrying wounded (d4) reaches 16", not 24"."""
    g = begin(duel(dfn={"pos": (24, 30)}), [])  # leaders 20" apart
    activate(g, 0)
    assert ("assault", 1) in g.decision().options
    g = begin(duel(dfn={"pos": (24, 30)}), [])
    g.units[0].set_figure(3, status=WOUNDED)  # carrying a casualty: encumbered
    activate(g, 0)
    assert "assault" not in kinds(g.decision().options)


# ------------------------------------------------------------------ close-combat hits through the attack pipeline (RN-500)

LONE_PA = {"figures": (("rifle", 1),), "pos": (24, 12.75), "armour": "light_power"}  # 2" away: no courage test
ROUND_1_ONE_HIT = [("d6", 5), ("d8", 6), ("d8", 2)]  # target d6 (d10 down twice), quality 6 > 5, strike 2: 8 / 6 = 1 hit


def test_a_close_combat_wound_on_power_armour_rolls_the_casualty_table():
    """As a shooting wound does: the Power Armour Troops as Casualties D6 replaces the wound (5: disabled)."""
    g = start(duel(dfn=LONE_PA), ROUND_1_ONE_HIT + [("d6", 6), ("d10", 4), ("d6", 5),  # a wound -> the table: 5
                                                    ("d8", 1), ("d10", 1), ("d4", 1)],  # round 2: no success
              options={"extra_hits": False})
    g.apply(("assault", 1))
    assert last_event(g, "PowerArmourHit") == {"type": "PowerArmourHit", "unit": 1, "figure": 0, "roll": 5,
                                               "result": "disabled"}
    assert last_event(g, "HitResolved")["effect"] == "disabled"
    assert g.units[1].figures[0].status == 4  # DISABLED: unhurt, the suit wrecked
    assert g.dice.remaining == 0


def test_a_close_combat_kill_on_power_armour_needs_no_table():
    g = start(duel(dfn=LONE_PA), ROUND_1_ONE_HIT + [("d6", 6), ("d10", 2),  # 6 > 2 x 2: killed outright
                                                    ("d8", 1), ("d10", 1), ("d4", 1)],  # it still strikes back
              options={"extra_hits": False})
    g.apply(("assault", 1))
    assert not events_of(g, "PowerArmourHit") and g.units[1].figures[0].status == KILLED
    assert g.dice.remaining == 0


def test_an_extracted_occupant_is_struck_with_its_own_armour_in_close_combat():
    g = start(duel(dfn=LONE_PA), ROUND_1_ONE_HIT + [("d6", 3), ("d4", 2),  # no armour: a D4 only to see if it kills
                                                    ("d8", 1), ("d10", 1), ("d4", 1)],  # round 2: nothing
              options={"extra_hits": False})
    g.units[1].set_figure(0, armour="none")  # the occupant of a wrecked suit, extracted
    g.apply(("assault", 1))
    hit = last_event(g, "HitResolved")
    assert (hit["armour_die"], hit["effect"]) == ("d4", "wound") and not events_of(g, "PowerArmourHit")
    assert g.dice.remaining == 0
