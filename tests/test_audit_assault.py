"""Independent forced-dice audit of seed 000 "Assault Action" (L693-L914), "Reorganise Action" (L955-L963),
"Detach Element Action" (L1023-L1029), "Medical Treatment Action" with "Power Armour Troops as Casualties"
(L1031-L1062), "Regroup Action" (L1064-L1070), "Casualty Evacuation" (L1906-L1922) and seed 003's house close
combat (game option ``close_combat: "house"``).

Each probe names the seed statement it checks (seed 000 line numbers Lnnn, seed 003 lines S3:Lnn) and drives the
game only through its public API (``Game``, ``decision()``, ``apply()``, ``event_log()``) on forced dice; the only
set-up short-cuts are the ones the rule tests use (setting a unit's state before it acts).  The findings and the
readings are in docs/rules-audit.md ("Close assault, reorganisation, medical treatment and house rules").
"""
import math

import pytest

from conftest import activate, add_dice, begin, events_of, kinds, last_event, rect, scenario, unit
from dustup_env.rules.kernel.errors import DiceScriptError
from dustup_env.rules.kernel.entities import (BROKEN, CONFIDENT, DISABLED, KILLED, OK, ROUTED, SHAKEN, STEADY,
                                              TREATED, WOUNDED)

END_TURN = [("d8", 8), ("d8", 1)]  # the next turn's initiative rolls
HOUSE = {"close_combat": "house"}


def duel(att=None, dfn=None, **kw):
    """The extended example's squads: experienced (d8) 8 bayonets against veteran (d10) 6, 10" apart."""
    a = dict(figures=(("rifle", 8),), quality="d8", confidence="steady", armour="partial_light")
    a.update(att or {})
    d = dict(figures=(("rifle", 6),), quality="d10", confidence="steady", armour="partial_light")
    d.update(dfn or {})
    apos = a.pop("pos", (24, 10))
    dpos = d.pop("pos", (24, 20))
    return scenario([unit("A", apos, **a)], [unit("B", dpos, **d)], **kw)


def start(scn, dice=(), options=None):
    g = begin(scn, list(dice), options=options)
    activate(g, 0)
    return g


def gap(a, b):
    return min(math.hypot(ax - bx, ay - by) for ax, ay in a.figure_positions() for bx, by in b.figure_positions())


# ====================================================================== Unit Activation (L699)

def test_L699_target_is_activated_even_when_the_courage_test_fails():
    g = start(duel(), [("d8", 3), ("d10", 5), *END_TURN])  # A=3 <= D=5, not less than half: plain failure
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail"
    assert g.units[0].activated and g.units[1].activated
    g.apply(("end",))  # the attacker ends its activation: red has no unit left to activate this turn
    assert g.decision().kind == "initiative"


# ====================================================================== Courage Test (L703-L740)

@pytest.mark.parametrize("A, D, result", [
    (5, 5, "fail"),                # L705 "failed to beat": a tie fails
    (2, 4, "fail"),                # L711 "fails to score at least half": exactly half is not a bad failure
    (2, 5, "fail_badly"),          # 2 < 2.5
    (8, 4, "contact"),             # L709 higher, "but not more than double": exactly double moves to contact
    (7, 4, "contact"),
    (9, 4, "defender_withdraws"),  # L707 "more than double"
])
def test_L705_L711_courage_result_boundaries(A, D, result):
    tail = {"fail": [], "fail_badly": END_TURN, "contact": [("d6", 1)], "defender_withdraws": [("d6", 1)]}[result]
    g = start(duel(att={"quality": "d10"}), [("d10", A), ("d10", D), *tail])
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == result


def test_L705_plain_failure_keeps_the_second_action_for_something_else():
    g = start(duel(), [("d8", 4), ("d10", 5)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    d = g.decision()
    assert d.kind == "action" and d.unit == 0 and g.actions_left == 1
    assert any(o[0] == "shoot" for o in d.options)  # "such as shoot"


@pytest.mark.parametrize("suppression, drop", [(0, 1), (2, 0)])
def test_L711_bad_failure_ends_the_activation_and_drops_only_if_the_defender_is_not_suppressed(suppression, drop):
    ddie = {0: "d10", 2: "d6"}[suppression]  # two markers shift the defender's d10 down twice (open)
    g = start(duel(), [("d8", 1), (ddie, 5), *END_TURN])
    g.units[1].suppression = suppression
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail_badly"
    assert g.units[0].confidence == STEADY + drop
    assert g.decision().kind == "initiative" and g.dice.remaining == 0


def test_L703_power_armour_counts_two_for_outnumbering_in_the_courage_test():
    # 3 power-armoured attackers (strength 6) against 3 troopers: the defender is outnumbered 2:1
    g = start(duel(att={"figures": (("rifle", 3),), "armour": "light_power"}, dfn={"figures": (("rifle", 3),)}),
              [("d8", 3), ("d8", 5)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert dict(map(tuple, ct["defender_shifts"])) == {"outnumbered_2": -1} and ct["defender_die"] == "d8"
    assert ct["attacker_shifts"] == []


def test_L732_earlier_wounds_do_not_shift_the_first_courage_test():
    """Note ***: wounded and killed figures only apply at the end of combat."""
    g = begin(duel(), [])
    g.units[0].set_figure(3, status=WOUNDED, wounds=1)
    g.units[0].set_figure(4, status=KILLED)
    activate(g, 0)
    add_dice(g, ("d8", 3), ("d10", 5))
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert ct["attacker_die"] == "d8" and ct["attacker_shifts"] == []


# ====================================================================== Notes (L728-L730)

@pytest.mark.parametrize("conf", ["shaken", "broken", "routed"])
def test_L730_attackers_may_not_assault_if_shaken_broken_or_routed(conf):
    g = start(duel(att={"confidence": conf}))
    assert "assault" not in kinds(g.decision().options)


def test_L728_attackers_may_not_assault_if_suppressed_even_in_cover():
    g = begin(duel(terrain=[rect("light_woods", 20, 6, 28, 14)]), [])
    g.units[0].suppression = 1
    activate(g, 0)
    assert "assault" not in kinds(g.decision().options)


def test_L730_broken_defender_beaten_drops_to_routed_and_withdraws():
    # Broken: the shaken row shifts the d10 down to a d8; 4 > 3 but not more than double
    g = start(duel(dfn={"confidence": "broken"}), [("d8", 4), ("d8", 3), ("d6", 2)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "defender_routs"
    assert g.units[1].confidence == ROUTED and 1 in last_event(g, "AssaultDeclared")["defenders"]
    assert events_of(g, "Moved")[-1]["unit"] == 1  # it withdrew


def test_L730_broken_defender_not_beaten_stays_broken_and_the_normal_result_applies():
    g = start(duel(dfn={"confidence": "broken"}), [("d8", 3), ("d8", 3)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail"
    assert g.units[1].confidence == BROKEN and g.actions_left == 1


# ====================================================================== Withdrawal (L744-L750)

def test_L744_the_defender_may_withdraw_instead_of_the_courage_test():
    g = start(duel())
    g.apply(("assault", 1))
    d = g.decision()
    assert (d.kind, d.side, d.unit, set(d.options)) == ("assault_response", 1, 1, {("stand",), ("withdraw",)})
    add_dice(g, ("d6", 3))
    g.units[1].suppression = 2
    g.apply(("withdraw",))
    b = g.units[1]
    assert not events_of(g, "CourageTested")  # no test taken
    assert b.suppression == 0 and b.confidence == SHAKEN  # L748, L750: the drop even if voluntary
    mv = last_event(g, "Moved")
    assert mv["unit"] == 1 and mv["points"] == 6.0 and b.y > 20  # one normal move (d6 x 2") away from A


def test_L746_a_routing_defender_must_withdraw():
    g = start(duel(dfn={"confidence": "routed"}), [("d6", 2)])
    g.apply(("assault", 1))
    assert last_event(g, "AssaultResponse")["choice"] == "withdraw"
    assert g.decision().kind == "assault_follow_up"


def test_L750_withdrawal_heads_towards_cover_if_at_all_possible():
    # woods to the defender's north-east, further from the attacker: the withdrawal heads for them
    g = start(duel(terrain=[rect("light_woods", 34, 24, 40, 30)]), [("d6", 6)])
    g.apply(("assault", 1))
    g.apply(("withdraw",))
    b = g.units[1]
    assert b.x > 24 + 3 and b.y > 20  # moved towards the woods, not straight north


# ====================================================================== Occupy Defender's Position (L707, L756)

def test_L756_occupy_the_vacated_position_and_end_the_turn():
    g = start(duel(), [("d6", 2), *END_TURN])
    g.apply(("assault", 1))
    g.apply(("withdraw",))
    assert set(g.decision().options) == {("occupy",), ("contact",)}
    g.apply(("occupy",))
    a = g.units[0]
    assert (a.x, a.y) == (24.0, 20.0)  # the defender's vacated leader position, no roll
    assert g.decision().kind == "initiative" and g.dice.remaining == 0


def test_L707_forced_withdrawal_gives_the_attacker_the_same_choice():
    g = start(duel(), [("d8", 8), ("d10", 3), ("d6", 2)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "defender_withdraws"
    assert g.units[1].confidence == SHAKEN  # L736: "defender withdraws and drops a CL"
    assert set(g.decision().options) == {("occupy",), ("contact",)}


# ====================================================================== Move to Contact (L758-L776)

def _short(dfn=None, att=None, pre=()):
    """Courage 6 vs 5 (contact), then a contact move of 2" that falls short of a defender 10" away."""
    g = start(duel(att=att, dfn=dfn), [*pre, ("d8", 6), ("d10", 5), ("d6", 1)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    return g


def test_L760_L764_a_short_first_move_stays_two_inches_away_and_offers_final_defensive_fire():
    g = _short()
    assert not last_event(g, "ContactMove")["reached"]
    assert gap(g.units[0], g.units[1]) >= 2.0 - 1e-9
    d = g.decision()
    assert (d.kind, d.side) == ("final_defensive_fire", 1) and ("hold_fire",) in d.options


def test_L774_L776_no_fire_then_a_second_move_that_falls_short_stays_where_it_ended():
    g = _short()
    g.apply(("hold_fire",))
    assert g.decision().kind == "second_move"
    add_dice(g, ("d6", 1), *END_TURN)
    before = (g.units[0].x, g.units[0].y)
    g.apply(("contact",))
    assert not last_event(g, "ContactMove")["reached"]
    a = g.units[0]
    assert (a.x, a.y) != before and gap(a, g.units[1]) >= 2.0 - 1e-9
    assert g.decision().kind == "initiative"


@pytest.mark.parametrize("roll, with_wall, reached", [(4, False, True), (4, True, False), (5, True, True)])
def test_L766_an_obstacle_in_front_of_the_defender_must_be_paid_for(roll, with_wall, reached):
    """"If defenders are behind some form of obstacle such as a fence, then the attacker must roll enough movement
    to cover the movement cost of crossing the obstacle": 8 points reach the defender in the open but not behind
    a wall costing 4; 10 points pay for it."""
    wall = {"type": "wall", "line": [[18, 17.5], [30, 17.5]], "cost": 4}
    g = start(duel(dfn={"pos": (24, 18.5)}, obstacles=[wall] if with_wall else []),
              [("d8", 6), ("d10", 5), ("d6", roll)])
    g.apply(("assault", 1))
    with pytest.raises(DiceScriptError):  # the script ends at the combat or the defensive fire decision's dice
        g.apply(("stand",))
        raise DiceScriptError("decision pending")
    assert last_event(g, "ContactMove")["reached"] is reached


# ====================================================================== Final Defensive Fire (L780-L794)

def test_L780_defensive_fire_even_if_the_defender_already_activated_and_fired_this_turn():
    scn = duel(dfn={"pos": (24, 22)})
    g = begin(scn, [], first=1)
    activate(g, 1)
    g.apply(("end",))  # red's own activation this turn is over
    g.units[1].fired.update(range(6))  # and its weapons fired in it
    assert g.units[1].activated
    activate(g, 0)
    add_dice(g, ("d8", 6), ("d10", 5), ("d6", 1))
    g.apply(("assault", 1))
    g.apply(("stand",))
    d = g.decision()
    assert d.kind == "final_defensive_fire" and any(o[0] == "fire" for o in d.options)


@pytest.mark.parametrize("roll, passed", [(4, False), (5, True)])
def test_L784_the_suppression_test_example(roll, passed):
    """"an experienced unit, with leadership 2, had 2 suppression markers they would roll a D8 and need to score
    higher than a 4 to pass"; the markers are NOT removed."""
    g = start(duel(dfn={"quality": "d8", "leadership": 2}), [("d8", 6), ("d8", 5), ("d6", 1)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    g.units[1].suppression = 2
    add_dice(g, ("d8", roll))
    if passed:  # the fire: every die misses (target d8 at short range -1 = d6 rolls 6)
        add_dice(g, ("d6", 6), ("d8", 1), ("d6", 1))
    g.apply(("fire", "all"))
    t = last_event(g, "SuppressionTested")
    assert (t["roll"], t["needed"], t["passed"]) == (roll, 4, passed)
    assert bool(events_of(g, "ShotResolved")) == passed
    assert g.units[1].suppression == 2
    assert g.decision().kind == "second_move"  # no casualties: the attackers proceed


def test_L788_L790_casualties_and_a_failed_reaction_return_the_attacker_with_its_casualties():
    g = _short()
    # target d8 -1 (short range) = d6 rolls 1; quality d10 9 + fp d6 6: major, 15/6 = 2 r3, d6 4: no third
    # allocation d8 2, 3; impact d8 vs armour d6: 4 vs 3 wound, 1 vs 6 none; reaction d8 3 <= LV 2 + 1
    add_dice(g, ("d6", 1), ("d10", 9), ("d6", 6), ("d6", 4), ("d8", 2), ("d8", 3), ("d8", 4), ("d6", 3),
             ("d8", 1), ("d6", 6), ("d8", 3), *END_TURN)
    g.apply(("fire", "all"))
    r = last_event(g, "AssaultReaction")
    assert (r["roll"], r["needed"], r["passed"]) == (3, 3, False)
    a = g.units[0]
    assert (a.x, a.y) == (24.0, 10.0) and a.suppression == 1
    assert a.figures[1].status == WOUNDED and a.abandoned == 0  # "with their casualties"
    assert g.decision().kind == "initiative" and g.dice.remaining == 0


def test_L794_support_weapons_may_fire_in_defensive_fire():
    g = _short(dfn={"figures": (("rifle", 5), ("lmg", 1))})
    opts = g.decision().options
    assert ("fire", "support") in opts and ("fire", "suppressive") not in opts


def test_L786_withdrawn_defenders_may_not_fire():
    g = start(duel(), [("d6", 1), ("d6", 1)])
    g.apply(("assault", 1))
    g.apply(("withdraw",))
    g.apply(("contact",))
    assert g.decision().kind == "second_move"


# ====================================================================== Combat Resolution, Strike Value (L800-L818)

def _contact(att=None, dfn=None, strikes=(), tail=(), options=None, setup=None):
    """The two-inch rule (no courage test): the attacker's leader 2" from the defender's figures."""
    d = dict(dfn or {})
    d.setdefault("pos", (24, 12.75))
    g = begin(duel(att=att, dfn=d), [], options=options)
    if setup:
        setup(g)
    activate(g, 0)
    add_dice(g, *strikes, *tail)
    return g


@pytest.mark.parametrize("n_att, n_def, tdie", [
    (8, 6, "d10"),   # no outnumbering
    (12, 6, "d8"),   # 2:1 -> once
    (9, 3, "d6"),    # 3:1 -> twice
])
def test_L802_target_die_shifted_down_for_outnumbering(n_att, n_def, tdie):
    sv = {8: "d8", 12: "d12", 9: "d10"}[n_att]
    g = _contact(att={"figures": (("rifle", n_att),)}, dfn={"figures": (("rifle", n_def),)},
                 strikes=[(tdie, 10 if tdie == "d10" else int(tdie[1:])), ("d8", 1), (sv, 1)])
    with pytest.raises(DiceScriptError):  # the script stops after round 1's rolls; only the first strike matters
        g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")
    assert s and s[0]["target_die"] == tdie


def test_L802_target_die_shifted_down_once_per_suppression_marker():
    def setup(g):
        g.units[1].suppression = 2
    g = _contact(strikes=[("d6", 6), ("d8", 1), ("d8", 1)], setup=setup)
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    assert events_of(g, "StrikeResolved")[0]["target_die"] == "d6"


@pytest.mark.parametrize("n, die, tdie", [(3, "d4", "d10"), (5, "d6", "d10"), (7, "d8", "d10"), (11, "d12", "d10"),
                                          (12, "d12", "d10"), (13, "d12", "d8")])
def test_L802_L818_strike_die_nearest_type_rounded_up_d4_minimum_and_over_12_shifts_the_target(n, die, tdie):
    # the defender has as many figures as the attacker minus one: never outnumbered 2:1
    g = _contact(att={"figures": (("rifle", n),)}, dfn={"figures": (("rifle", max(2, n - 1)),)},
                 strikes=[(tdie, int(tdie[1:])), ("d8", 1), (die, 1)])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")[0]
    assert s["striker_dice"] == ["d8", die] and s["target_die"] == tdie


# ====================================================================== Result (L822-L830)

def _round1(tdie_roll, q, s, extra=(), dfn=None):
    g = _contact(dfn=dfn, strikes=[("d10", tdie_roll), ("d8", q), ("d8", s), *extra])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    return events_of(g, "StrikeResolved")[0]


def test_L822_no_die_beats_the_target_no_effect_ties_do_not_beat():
    s = _round1(8, 8, 3)
    assert (s["successes"], s["result"], s["hits"]) == (0, "none", 0)


def test_L828_minor_success_total_divided_by_the_target_die_with_the_remainder_chance():
    # one success: 9 + 3 = 12 / d10 = 1 r2; remainder roll d10 2 <= 2 gives a second hit
    g = _contact(strikes=[("d10", 5), ("d8", 8), ("d8", 4), ("d10", 2)])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")[0]
    assert (s["successes"], s["result"], s["hits"]) == (1, "minor", 2)  # 12/10 = 1 r2 -> roll 2 <= 2


def test_L828_remainder_roll_above_the_remainder_adds_nothing():
    g = _contact(strikes=[("d10", 5), ("d8", 8), ("d8", 4), ("d10", 3)])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    assert events_of(g, "StrikeResolved")[0]["hits"] == 1


def test_L826_major_success_doubles_the_score_not_the_hits():
    # 7 + 8 = 15, doubled 30 / d10 = 3 exactly (the extended example); no remainder roll
    g = _contact(strikes=[("d10", 6), ("d8", 7), ("d8", 8)])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")[0]
    assert (s["result"], s["hits"]) == ("major", 3)


# ====================================================================== Casualties (L834-L842)

def test_L834_L842_allocation_then_impact_against_armour_wound_and_kill_thresholds():
    """The extended example's first round: 3 hits on the six veterans, allocation d6 each, impact d6 vs armour d6:
    4 vs 2 wound (not more than double), 1 vs 4 miss, 6 vs 2 kill (more than double)."""
    g = _contact(strikes=[("d10", 6), ("d8", 7), ("d8", 8), ("d6", 1), ("d6", 1), ("d6", 2),
                          ("d6", 4), ("d6", 2), ("d6", 1), ("d6", 4), ("d6", 6), ("d6", 2)])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    hits = [(h["figure"], h["impact"], h["armour"], h["effect"]) for h in events_of(g, "HitResolved")]
    # figure 0 is hit twice: two armour rolls (L834)
    assert hits == [(0, 4, 2, "wound"), (0, 1, 4, "none"), (1, 6, 2, "kill")]
    b = g.units[1]
    assert b.figures[0].status == WOUNDED and b.figures[1].status == KILLED


def test_L836_allocation_among_five_figures_rolls_a_d6_and_rerolls_sixes():
    # a minor success of total 4 against d10: 0 hits r4; remainder roll 1 -> one hit; allocation d6 6 re-rolled
    g = _contact(dfn={"figures": (("rifle", 5),)},
                 strikes=[("d10", 1), ("d8", 2), ("d8", 1), ("d10", 1), ("d6", 6), ("d6", 5), ("d6", 1), ("d6", 1)])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    assert [h["figure"] for h in events_of(g, "HitResolved")] == [4]


# ====================================================================== Counterstrike (L800, L846, L812)

def test_L846_figures_hit_in_the_first_round_strike_in_the_second():
    # round 1: 3 hits; two figures killed (6 vs 1); round 2: the defender still strikes with 6 bayonets (d6)
    g = _contact(strikes=[("d10", 6), ("d8", 7), ("d8", 8), ("d6", 1), ("d6", 2), ("d6", 3),
                          ("d6", 6), ("d6", 1), ("d6", 6), ("d6", 1), ("d6", 1), ("d6", 6),
                          ("d8", 8), ("d10", 1), ("d6", 1)])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")
    assert len(s) == 2 and s[1]["striker"] == 1 and s[1]["striker_dice"] == ["d10", "d6"]
    assert s[1]["target_die"] == "d8"  # the attacker: 8 against 6 at contact, not outnumbered


# ====================================================================== Outcome, Total Victory (L850-L860)

NO_HITS = [("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1)]  # both strikes fail


@pytest.mark.parametrize("A, D, loser, levels", [
    (5, 3, 1, 1), (7, 3, 1, 2), (6, 3, 1, 1),  # L852 one level; more than double two; exactly double one
    (3, 5, 0, 1), (2, 5, 0, 2), (3, 6, 0, 1),
])
def test_L852_outcome_loser_withdraws_and_drops_one_or_two_levels(A, D, loser, levels):
    g = _contact(strikes=NO_HITS, tail=[("d8", A), ("d10", D), ("d6", 3), *END_TURN])
    g.apply(("assault", 1))
    ct = last_event(g, "CourageTested")
    assert ct["final"]
    u, w = g.units[loser], g.units[1 - loser]
    assert u.confidence == STEADY + levels and w.confidence == STEADY
    assert last_event(g, "Moved")["unit"] == loser
    assert g.dice.remaining == 0


def test_L852_a_draw_the_attacker_withdraws_without_a_drop():
    g = _contact(strikes=NO_HITS, tail=[("d8", 4), ("d10", 4), ("d6", 3), *END_TURN])
    g.apply(("assault", 1))
    assert last_event(g, "CourageTested")["result"] == "draw"
    assert last_event(g, "Moved")["unit"] == 0
    assert g.units[0].confidence == STEADY and g.units[1].confidence == STEADY


def test_L854_a_unit_that_withdraws_abandons_its_wounded():
    def setup(g):
        g.units[0].set_figure(7, status=WOUNDED, wounds=1)  # a wounded trooper (not in the fight)
    g = _contact(strikes=[("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1)],
                 tail=[("d8", 3), ("d10", 5), ("d4", 3), ("d8", 8), *END_TURN], setup=setup)
    g.apply(("assault", 1))
    assert last_event(g, "CourageTested")["result"] == "attacker_loses"
    assert g.units[0].figures[7].status == KILLED and g.units[0].abandoned == 1


def test_L860_total_victory_no_final_test_and_the_victor_keeps_its_position_and_confidence():
    imp = [("d6", 6), ("d6", 2)]
    g = _contact(dfn={"figures": (("rifle", 1),)},
                 strikes=[("d6", 1), ("d8", 8), ("d8", 4), *imp, *[("d6", 1), ("d6", 6)] * 3,
                          ("d8", 8), ("d10", 1), ("d4", 1)])
    pos = (g.units[0].x, g.units[0].y)
    g.apply(("assault", 1))
    ct = events_of(g, "CourageTested")
    assert len(ct) == 1 and ct[0]["result"] == "total_victory_attacker"
    a = g.units[0]
    assert (a.x, a.y) == pos and a.confidence == STEADY


# ====================================================================== Extended Example (L864-L872)

def test_L864_L872_extended_example_numbers():
    g = start(duel(), [("d8", 6), ("d10", 5), ("d6", 4)])
    g.apply(("assault", 1))
    add_dice(g, ("d10", 6), ("d8", 7), ("d8", 8),              # round 1: D10 6 against 7 and 8
             ("d6", 2), ("d6", 3), ("d6", 4),                   # allocation among six
             ("d6", 4), ("d6", 2), ("d6", 1), ("d6", 4), ("d6", 6), ("d6", 2),  # wound, miss, kill
             ("d8", 3), ("d10", 4), ("d6", 6), ("d8", 4),       # round 2: 20/8 = 2 r4, the 4/8 chance comes up
             ("d8", 2), ("d8", 3), ("d8", 4),
             ("d6", 5), ("d6", 3), ("d6", 2), ("d6", 4), ("d6", 4), ("d6", 3),  # two wounds: the literal D4
             ("d4", 3), ("d4", 4), ("d4", 3), ("d8", 6), *END_TURN)
    g.apply(("stand",))
    s = events_of(g, "StrikeResolved")
    assert [(x["target_die"], x["target_roll"], x["striker_dice"], x["striker_rolls"], x["result"], x["hits"])
            for x in s] == [("d10", 6, ["d8", "d8"], [7, 8], "major", 3),
                            ("d8", 3, ["d10", "d6"], [4, 6], "major", 3)]
    ct = last_event(g, "CourageTested")
    assert (ct["attacker_die"], ct["defender_die"], ct["attacker_roll"], ct["defender_roll"]) == ("d4", "d4", 3, 4)
    assert ct["result"] == "attacker_loses" and g.units[0].confidence == SHAKEN


# ====================================================================== Multiple Units in Close Combat (L876-L902)

def test_L900_split_to_match_the_opposing_units_as_nearly_as_possible():
    """12 figures against a unit of 2 and a unit of 10: detachments of 2 and 10, so neither defender is
    outnumbered in its courage test (a 6/6 split would outnumber the unit of 2 by 3:1)."""
    scn = scenario([unit("A", (24, 10), figures=(("rifle", 12),), confidence="steady")],
                   [unit("B", (20, 20), figures=(("rifle", 2),), confidence="steady"),
                    unit("C", (28, 20), figures=(("rifle", 10),), confidence="steady")])
    g = begin(scn, [])
    activate(g, 0)
    g.apply(("assault", 1))
    assert g.decision().kind == "assault_targets"
    g.apply(("add_defender", 2))
    add_dice(g, ("d8", 3), ("d8", 5), ("d8", 3), ("d8", 5))
    g.apply(("stand",))
    g.apply(("stand",))
    ct = events_of(g, "CourageTested")
    assert [c["defender_shifts"] for c in ct] == [[], []]


def test_L884_the_whole_unit_obeys_the_worst_courage_result():
    scn = scenario([unit("A", (24, 10), figures=(("rifle", 10),), confidence="steady")],
                   [unit("B", (20, 20), figures=(("rifle", 4),), confidence="steady"),
                    unit("C", (28, 20), figures=(("rifle", 6),), confidence="steady")])
    g = begin(scn, [])
    activate(g, 0)
    g.apply(("assault", 1))
    g.apply(("add_defender", 2))
    add_dice(g, ("d8", 8), ("d8", 3), ("d6", 2), ("d8", 1), ("d8", 5), *END_TURN)  # B forced out; vs C 1 < 2.5
    g.apply(("stand",))
    g.apply(("stand",))
    assert [e["result"] for e in events_of(g, "CourageTested")] == ["defender_withdraws", "fail_badly"]
    assert g.units[1].confidence == SHAKEN  # one enemy forced out, the attack itself not completed
    assert g.units[0].confidence == SHAKEN  # the unit drops a level (C was not suppressed)
    assert g.decision().kind == "initiative"


def test_L890_one_withdrawal_move_but_every_loss_of_confidence():
    """One defender against two attackers (a combined assault): losing both final tests, it withdraws once
    and drops two levels."""
    from dustup_env.rules.unit_actions.assault_action import begin_assault
    scn = scenario([unit("A1", (20, 10), figures=(("rifle", 4),), quality="d8", confidence="steady"),
                    unit("A2", (28, 10), figures=(("rifle", 4),), quality="d8", confidence="steady")],
                   [unit("B", (24, 15), figures=(("rifle", 6),), quality="d10", confidence="confident")])
    g = begin(scn, [])
    activate(g, 0)
    add_dice(g, ("d8", 6), ("d12", 5), ("d8", 6), ("d12", 5), ("d6", 6), ("d6", 6))  # confident: d10 + 1
    for _ in range(2):  # round 1: each attacker misses
        add_dice(g, ("d10", 10), ("d8", 1), ("d4", 1))
    for _ in range(2):  # round 2: each defender detachment (3 figures) misses
        add_dice(g, ("d8", 8), ("d10", 1), ("d4", 1))
    add_dice(g, ("d8", 6), ("d12", 5), ("d8", 6), ("d12", 5), ("d6", 3))  # B loses both (confident d10+1 = d12)
    begin_assault(g, [0, 1], 2)
    g.apply(("stand",))
    res = [e["result"] for e in events_of(g, "CourageTested") if e["final"]]
    assert res == ["defender_loses", "defender_loses"]
    assert [m["unit"] for m in events_of(g, "Moved") if m["unit"] == 2] == [2]  # one withdrawal move
    assert g.units[2].confidence == CONFIDENT + 2  # two losses of confidence
    assert g.dice.remaining == 0


# ====================================================================== Special Close Combat Weapons (L906-L910)

def test_L906_L908_a_laser_sword_adds_its_strike_die_and_hits_use_the_units_impact():
    g = _contact(att={"figures": (("rifle", 5), ("laser_sword", 1))})
    add_dice(g, ("d10", 1), ("d8", 2), ("d6", 2), ("d8", 2))  # 3 successes: 6 x 2 = 12 / 10 = 1 r2
    g.apply(("assault", 1))
    d = g.decision()
    assert d.kind == "special_weapons"
    add_dice(g, ("d10", 9), ("d6", 1), ("d6", 1), ("d6", 1))  # remainder 9 > 2; allocation d6 1; impact vs armour
    with pytest.raises(DiceScriptError):
        g.apply(("no_split",))
    s = events_of(g, "StrikeResolved")[0]
    assert s["striker_dice"] == ["d8", "d6", "d8"]  # 5 bayonets -> d6, the sword its d8
    assert last_event(g, "HitResolved")["impact_die"] == "d6"  # the unit's normal close-combat impact


def test_L910_the_special_weapon_figures_split_off_and_strike_with_the_weapons_own_impact():
    g = _contact(att={"figures": (("rifle", 5), ("laser_sword", 1))})
    g.apply(("assault", 1))
    # the sword-bearer's detachment (quality d8 + the sword's d8) against its matched part of B: target 1, both
    # dice 8: a major success; every later roll a 1 (allocation, then the impact roll)
    add_dice(g, 1, 8, 8, *([1] * 30))
    with pytest.raises(DiceScriptError):
        g.apply(("split_special",))
    assert last_event(g, "SpecialWeaponsChoice")["split"] is True
    s = events_of(g, "StrikeResolved")[0]
    assert s["striker_dice"] == ["d8", "d8"] and s["hits"] > 0  # the bayonets strike in the other pairing
    assert events_of(g, "HitResolved")[0]["impact_die"] == "d10"  # the sword's own impact


# ====================================================================== The Two Inch Rule (L914)

def test_L914_two_inches_away_no_courage_test_no_withdrawal_option_contact_at_once():
    g = _contact(strikes=NO_HITS, tail=[("d8", 5), ("d10", 3), ("d6", 2), *END_TURN])
    g.apply(("assault", 1))
    assert last_event(g, "AssaultDeclared")["two_inch"]
    assert not events_of(g, "AssaultResponse")  # no stand/withdraw decision
    assert [c["final"] for c in events_of(g, "CourageTested")] == [True]
    assert last_event(g, "ContactMove")["roll"] == 0 and not events_of(g, "ShotResolved")


def test_L914_only_if_the_unit_would_otherwise_be_permitted_to_assault():
    g = begin(duel(dfn={"pos": (24, 12.75)}), [])
    g.units[0].suppression = 1
    activate(g, 0)
    assert "assault" not in kinds(g.decision().options)


# ====================================================================== more subtle statements

def test_L732_the_leader_casualty_row_is_in_addition_to_the_wounded_row():
    """Note ***: "The leader killed modifier is in addition to modifiers for wounded figures": the attacker's
    leader wounded in the counterstrike gives the wounded row and the leader row (RN-203: a leader casualty)."""
    g = _contact(strikes=[("d10", 10), ("d8", 1), ("d8", 1),                 # round 1: nothing
                          ("d8", 1), ("d10", 9), ("d6", 1), ("d8", 8),       # round 2: minor 10/8 = 1 r2, d8 8
                          ("d8", 1), ("d6", 5), ("d6", 3),                   # on figure 0 (the leader): wound
                          ("d8", 8)],                                        # its Death of a Leader test: passed
                 tail=[("d4", 4), ("d10", 3), ("d6", 2), *END_TURN])
    assert g.units[0].leader == 0
    g.apply(("assault", 1))
    ct = last_event(g, "CourageTested")
    assert ct["final"] and dict(map(tuple, ct["attacker_shifts"])) == {"wounded": -1, "leader_killed": -1}
    assert ct["attacker_die"] == "d4"  # d8 shifted down twice


def test_L850_the_outcome_test_keeps_the_defenders_cover_shift():
    """"another courage test is made in the same way as initiating combat": the defender's hard cover still
    shifts its die up in the outcome test."""
    g2 = begin(duel(dfn={"pos": (24, 12.75)}, terrain=[rect("building", 20, 11.5, 28, 16)]), [])
    activate(g2, 0)
    add_dice(g2, ("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1),
             ("d6", 5), ("d12", 6), ("d6", 3), *END_TURN)  # d10 + 2 = d12, the excess shifts A's d8 to a d6
    g2.apply(("assault", 1))
    ct = last_event(g2, "CourageTested")
    assert ct["final"] and dict(map(tuple, ct["defender_shifts"])) == {"hard_cover": 2}
    assert (ct["attacker_die"], ct["defender_die"], ct["result"]) == ("d6", "d12", "attacker_loses")


def test_L886_one_defender_withdraws_the_other_stays_the_attacker_fights_it_as_one_unit():
    scn = scenario([unit("A", (24, 10), figures=(("rifle", 10),), quality="d8", confidence="steady")],
                   [unit("B", (20, 18), figures=(("rifle", 4),), quality="d8", confidence="steady"),
                    unit("C", (28, 18), figures=(("rifle", 6),), quality="d8", confidence="steady")])
    g = begin(scn, [])
    activate(g, 0)
    g.apply(("assault", 1))
    g.apply(("add_defender", 2))
    add_dice(g, ("d8", 8), ("d8", 3), ("d6", 2),     # B forced to withdraw
             ("d8", 6), ("d8", 5),                   # C: contact
             ("d6", 6),                              # A's contact move toward C: 12" reaches
             ("d8", 8), ("d8", 1), ("d10", 1))       # round 1: A strikes C with all ten bayonets (d10)
    g.apply(("stand",))
    with pytest.raises(DiceScriptError):
        g.apply(("stand",))
    assert last_event(g, "ContactMove")["target"] == 2 and last_event(g, "ContactMove")["reached"]
    s = events_of(g, "StrikeResolved")[0]
    assert (s["striker"], s["target"], s["striker_dice"]) == (0, 2, ["d8", "d10"])


def test_L914_reading_a_routed_defender_two_inches_away_cannot_withdraw():
    """Two inch rule against "If the defender is already routing, they MUST withdraw" (L746): the reading
    (RN-1101) is that the two inch rule governs: no withdrawal, contact at once; the routed unit does not strike
    back (L812)."""
    g = _contact(dfn={"confidence": "routed"}, strikes=[("d10", 8), ("d8", 1), ("d8", 1)],
                 tail=[("d8", 5), ("d8", 5), ("d6", 1), *END_TURN])  # routed: the shaken row d10 -> d8
    g.apply(("assault", 1))
    assert not events_of(g, "AssaultResponse")
    assert [s["round"] for s in events_of(g, "StrikeResolved")] == [1]


def test_L699_reading_an_attacker_ordered_by_its_commander_is_marked_activated():
    """L699 "both the assaulting unit and the target are considered to have been activated" against L993 "When
    activated by a commander, no activation marker is placed": the assault's own statement governs (RN-1100)."""
    from dustup_env.rules.unit_actions.assault_action import begin_assault
    scn = scenario([unit("A1", (20, 10), figures=(("rifle", 4),), quality="d8", confidence="steady"),
                    unit("A2", (28, 10), figures=(("rifle", 4),), quality="d8", confidence="steady")],
                   [unit("B", (24, 15), figures=(("rifle", 6),), quality="d10", confidence="steady")])
    g = begin(scn, [])
    activate(g, 0)
    add_dice(g, ("d8", 1), ("d10", 5), ("d8", 1), ("d10", 5))  # both fail badly: nothing else rolled
    begin_assault(g, [0, 1], 2)
    g.apply(("stand",))
    assert g.units[1].activated and g.units[2].activated


# ====================================================================== Reorganise Action (L957-L963)

def _solo(pos=(24, 10), terrain=(), n=5, **kw):
    return scenario([unit("A", pos, figures=(("rifle", n),), **kw)], [unit("R", (24, 44))], terrain=terrain)


@pytest.mark.parametrize("cover, offered", [(True, True), (False, False)])
def test_L961_suppressed_units_reorganise_only_in_cover(cover, offered):
    terrain = [rect("light_woods", 18, 4, 30, 16)] if cover else []
    g = begin(_solo(terrain=terrain), [])
    g.units[0].suppression = 1
    activate(g, 0)
    assert ("reorganise" in kinds(g.decision().options)) == offered


def test_L957_reorganising_does_not_count_as_moving_a_propped_unit_stays_propped():
    g = begin(_solo(terrain=[rect("light_woods", 18, 4, 30, 16)]), [])
    g.units[0].propped = True
    activate(g, 0)
    g.apply(("reorganise", "conceal"))
    u = g.units[0]
    assert u.propped and u.complete_concealment and g.actions_left == 1 and not events_of(g, "Moved")


def test_L957_place_the_leader_moves_2_inches_the_figures_at_most_6_and_end_in_coherence():
    g = begin(_solo(), [])
    activate(g, 0)
    u = g.units[0]
    lf = u.figures[u.leader]
    before = [(u.x - lf.dx + f.dx, u.y - lf.dy + f.dy) for f in u.figures]
    g.apply(("reorganise", "place"))
    g.apply(("shift", 0))
    g.apply(("formation", "open"))
    lf = u.figures[u.leader]
    after = [(u.x - lf.dx + f.dx, u.y - lf.dy + f.dy) for f in u.figures]
    assert math.hypot(after[u.leader][0] - before[u.leader][0], after[u.leader][1] - before[u.leader][1]) \
        == pytest.approx(2.0)
    assert all(math.hypot(a[0] - b[0], a[1] - b[1]) <= 6.0 + 1e-9 for a, b in zip(after, before))
    assert all(math.hypot(a[0] - u.x, a[1] - u.y) <= 6.0 + 1e-9 for a in after)
    assert g.actions_left == 1 and g.dice.remaining == 0


# ====================================================================== Detach Element Action (L1027-L1029)

def test_L1027_the_parent_keeps_the_leader_even_when_the_detachment_is_larger():
    scn = scenario([unit("A", (10, 5), figures=(("rifle", 1), ("lmg", 4)))], [unit("R", (40, 45))])
    g = begin(scn, [])
    activate(g, 0)
    g.apply(("detach", "support"))
    a, d = g.units[0], g.units[2]
    assert len(d.figures) == 4 and len(a.figures) == 1 and a.figures[a.leader].weapon == "rifle"
    assert d.parent == 0 and g.actions_left == 1  # one action to form it


def test_L1029_a_detachment_within_6_inches_but_out_of_sight_needs_the_communication_test():
    scn = scenario([unit("A", (10, 5), figures=(("rifle", 5),), quality="d8", leadership=2)],
                   [unit("R", (40, 45))], terrain=[rect("building", 11.5, 0, 14.5, 12)])
    g = begin(scn, [("d8", 3)])
    activate(g, 0)
    g.apply(("detach", "scout"))
    d = g.units[2]
    d.x, d.y = 16.0, 5.0  # 6" away, behind the building
    assert not g.bf.has_los(10, 5, 16, 5)
    g.apply(("activate_detachment", 2))
    c = last_event(g, "Communicated")
    assert (c["roll"], c["needed"], c["success"]) == (3, 2, True)
    assert g.active == 2 and g.actions_left == 2  # two actions as if it was a normal unit


def test_L1027_regrouping_with_the_detachment_is_another_action():
    scn = scenario([unit("A", (10, 5), figures=(("rifle", 5),))], [unit("R", (40, 45))])
    g = begin(scn, [])
    activate(g, 0)
    g.apply(("detach", "scout"))
    g.apply(("regroup", 2))
    assert g.units[2].merged and len(g.units[0].figures) == 5
    assert g.active != 0  # detaching and rejoining were the activation's two actions


# ====================================================================== Medical Treatment Action (L1033-L1048)

def _wounded(figs=(("rifle", 6),), statuses=(WOUNDED, WOUNDED, WOUNDED), extra_blue=(), dice=(), **kw):
    blue = unit("A", (10, 5), figures=figs, **kw)
    g = begin(scenario([blue, *extra_blue], [unit("R", (40, 45))]), list(dice))
    for i, s in enumerate(statuses, start=1):
        g.units[0].set_figure(i, status=s, wounds=1 if s != KILLED else 0)
    return g


@pytest.mark.parametrize("roll, status", [(1, KILLED), (2, KILLED), (3, TREATED), (5, TREATED), (6, OK)])
def test_L1040_treatment_table_on_a_d6(roll, status):
    g = _wounded(statuses=(WOUNDED,), dice=[("d6", roll)])
    activate(g, 0)
    g.apply(("treat", 0))
    assert g.units[0].figures[1].status == status and g.actions_left == 1 and g.dice.remaining == 0


def test_L1033_L1037_one_action_treats_every_untreated_casualty_and_not_the_killed_or_stabilised():
    g = _wounded(statuses=(WOUNDED, KILLED, TREATED, WOUNDED), dice=[("d6", 6), ("d6", 4)])
    activate(g, 0)
    g.apply(("treat", 0))
    e = last_event(g, "MedicalTreatment")
    assert e["rolls"] == [6, 4] and g.actions_left == 1 and g.dice.remaining == 0
    assert [f.status for f in g.units[0].figures[1:5]] == [OK, KILLED, TREATED, TREATED]


@pytest.mark.parametrize("kw, die", [({"figures": [{"weapon": "rifle", "count": 5},
                                                    {"weapon": "pistol", "medic": True}]}, "d8"),
                                     ({"figures": (("pistol", 6),), "medical_team": True}, "d10")])
def test_L1044_medic_d8_medical_team_d10_and_6_plus_returns_to_duty(kw, die):
    kw = dict(kw)
    g = _wounded(figs=kw.pop("figures"), statuses=(WOUNDED,), dice=[(die, 7)], **kw)
    activate(g, 0)
    g.apply(("treat", 0))
    assert last_event(g, "MedicalTreatment")["die"] == die and g.units[0].figures[1].status == OK


@pytest.mark.parametrize("x, offered", [(11.9, True), (12.2, False)])
def test_L1044_a_medic_of_another_unit_must_be_within_2_inches_of_the_treated_units_leader(x, offered):
    medic = unit("M", (x, 5), figures=[{"weapon": "pistol", "medic": True}])
    g = _wounded(statuses=(WOUNDED,), extra_blue=[medic])
    activate(g, 1)
    assert (("treat", 0) in g.decision().options) == offered


def test_L1046_treated_wounded_may_be_left_with_a_detachment_of_healthy_troopers():
    g = _wounded(statuses=(TREATED, TREATED))
    activate(g, 0)
    g.apply(("detach", "half"))
    d = g.units[2]
    assert sorted(f.status for f in d.figures) == [OK, OK, TREATED, TREATED]
    assert all(f.status != TREATED for f in g.units[0].figures)


# ====================================================================== Power Armour Troops as Casualties (L1054-L1062)

@pytest.mark.parametrize("roll, status, result", [(1, KILLED, "killed"), (2, TREATED, "stabilised"),
                                                  (4, TREATED, "stabilised"), (5, DISABLED, "disabled"),
                                                  (6, OK, "unhurt")])
def test_L1056_power_armour_casualty_table_in_close_combat(roll, status, result):
    """"as soon as a power armoured trooper is hit, roll a D6": a wound result of a close-combat hit goes to the
    table (a kill result needs none, RN-231)."""
    # round 1 against six power-armoured veterans: d10 7 against 8 and 4, one success: 12 / 10 = 1 r2, the
    # remainder roll 9 adds nothing; allocation d6 1 (figure 0); impact d6 6 against armour d10 5: a wound
    g = _contact(dfn={"armour": "light_power"},
                 strikes=[("d10", 7), ("d8", 8), ("d8", 4), ("d10", 9), ("d6", 1), ("d6", 6), ("d10", 5),
                          ("d6", roll)])
    with pytest.raises(DiceScriptError):  # the script ends before the counterstrike
        g.apply(("assault", 1))
    e = last_event(g, "PowerArmourHit")
    assert (e["figure"], e["roll"], e["result"]) == (0, roll, result)
    assert g.units[1].figures[0].status == status


def test_L1062_extraction_is_optional_and_a_reorganise_action():
    scn = scenario([unit("A", (10, 5), figures=(("rifle", 4),), armour="light_power")], [unit("R", (40, 45))])
    g = begin(scn, [])
    g.units[0].set_figure(2, status=DISABLED)
    activate(g, 0)
    assert ("reorganise", "extract") not in g.decision().options  # off by default (optional rule)
    g = begin(scn, [], options={"power_armour_extraction": True})
    g.units[0].set_figure(2, status=DISABLED)
    activate(g, 0)
    g.apply(("reorganise", "extract"))
    f = g.units[0].figures[2]
    assert f.status == OK and f.armour == "none" and g.actions_left == 1


# ====================================================================== Regroup Action (L1066-L1070)

def _two_depleted(dist=4.0, lv=(2, 1), q=("d8", "d10"), alive=(4, 3), conf=("steady", "shaken")):
    a = unit("A", (10, 5), figures=(("rifle", alive[0] + 2),), leadership=lv[0], quality=q[0], confidence=conf[0])
    b = unit("B", (10 + dist, 5), figures=(("rifle", alive[1] + 2),), leadership=lv[1], quality=q[1],
             confidence=conf[1])
    g = begin(scenario([a, b], [unit("R", (40, 45))]), [])
    for u in g.units[:2]:
        u.set_figure(len(u.figures) - 1, status=KILLED)
        u.set_figure(len(u.figures) - 2, status=KILLED)
    return g


@pytest.mark.parametrize("alive, q, lv, conf, want", [
    ((4, 3), ("d8", "d10"), (2, 1), ("steady", "shaken"), ("d8", 1, SHAKEN)),   # larger unit's quality
    ((3, 4), ("d8", "d10"), (3, 2), ("shaken", "steady"), ("d10", 2, SHAKEN)),
    ((3, 3), ("d10", "d6"), (1, 2), ("steady", "confident"), ("d6", 1, STEADY)),  # same size: the lowest
])
def test_L1068_combined_unit_best_leadership_larger_units_quality_worse_confidence(alive, q, lv, conf, want):
    g = _two_depleted(alive=alive, q=q, lv=lv, conf=conf)
    activate(g, 0)
    g.apply(("regroup", 1))
    e = last_event(g, "Regrouped")
    u = g.units[0]
    assert (e["quality"], u.lv, u.confidence) == want
    assert g.units[1].activated and g.active != 0  # both activations used up


def test_L1066_neither_may_already_be_activated():
    g = _two_depleted()
    g.units[1].activated = True
    activate(g, 0)
    assert ("regroup", 1) not in g.decision().options


def test_L1068_leaders_more_than_6_inches_apart_make_one_move_first():
    g = _two_depleted(dist=9.0)
    activate(g, 0)
    assert ("regroup", 1) in g.decision().options
    add_dice(g, ("d6", 2))  # 4": the leaders end 5" apart
    g.apply(("regroup", 1))
    assert last_event(g, "Moved")["unit"] == 0 and last_event(g, "Regrouped")["partner"] == 1


# ====================================================================== Casualty Evacuation (L1910)

def test_L1910_a_detachment_carries_its_wounded_off_without_improving_confidence():
    scn = scenario([unit("A", (24, 3), figures=(("rifle", 6),), confidence="shaken")], [unit("R", (24, 45))])
    g = begin(scn, [])
    for i in (2, 3):
        g.units[0].set_figure(i, status=TREATED)
    activate(g, 0)
    g.apply(("detach", "half"))
    g.apply(("activate_detachment", 2))
    add_dice(g, ("d4", 4))  # encumbered by the wounded: the d6 falls to a d4
    g.apply(("evacuate",))
    assert last_event(g, "Evacuated")["wounded"] == 2 and not g.units[2].in_play
    assert g.units[0].confidence == SHAKEN and not events_of(g, "ConfidenceRaised")
    assert g.dice.remaining == 0


def test_L1910_only_a_detachment_with_wounded_may_evacuate():
    scn = scenario([unit("A", (24, 3), figures=(("rifle", 6),))], [unit("R", (24, 45))])
    g = begin(scn, [])
    g.units[0].set_figure(2, status=TREATED)
    activate(g, 0)
    assert ("evacuate",) not in g.decision().options  # the squad itself is no detachment


# ====================================================================== seed 003 house close combat

def _house(att=None, dfn=None, terrain=(), options=HOUSE, extra_red=(), setup=None):
    """Two squads 2" apart (the two-inch rule: contact at once) under the house close combat."""
    d = dict(dfn or {})
    d.setdefault("pos", (24, 13.5))
    g = begin(duel(att=att, dfn=d, terrain=terrain), [], options=options)
    if extra_red:
        g = begin(scenario([unit("A", (24, 10), **{"figures": (("rifle", 8),), "quality": "d8",
                                                   "confidence": "steady", "armour": "partial_light", **(att or {})})],
                           [unit("B", d.pop("pos"), **{"figures": (("rifle", 6),), "quality": "d10",
                                                       "confidence": "steady", "armour": "partial_light", **d}),
                            *extra_red], terrain=terrain), [], options=options)
    if setup:
        setup(g)
    activate(g, 0)
    return g


@pytest.mark.parametrize("n, tdie", [(12, "d10"), (13, "d8"), (25, "d8")])
def test_S3_L58_over_12_a_d12_and_one_shift_only_no_matter_the_score(n, tdie):
    g = _house(att={"figures": (("rifle", min(n, 20)), ("rifle", n - min(n, 20))) if n > 20 else (("rifle", n),)})
    add_dice(g, (tdie, 1), ("d8", 1), ("d12", 1))
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")[0]
    assert s["striker_dice"] == ["d8", "d12"] and s["target_die"] == tdie


def test_S3_L11_first_round_plus_one_for_a_defender_in_cover_not_for_the_attacker():
    g = _house(terrain=[rect("light_woods", 18, 8, 30, 16)])  # both squads in the woods
    add_dice(g, ("d12", 12), ("d8", 1), ("d8", 1),   # the defender's d10 + 1
             ("d8", 8), ("d10", 1), ("d6", 1))       # the attacker as target: no shift
    g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")
    assert [x["target_die"] for x in s] == ["d12", "d8"]


@pytest.mark.parametrize("conf, die", [("shaken", "d8"), ("broken", "d6"), ("routed", "d4")])
def test_S3_L11_morale_below_steady_shifts_the_quality_die(conf, die):
    g = _house(dfn={"confidence": conf})
    add_dice(g, (die, int(die[1:])), ("d8", 1), ("d8", 1), *([] if conf == "routed" else [("d8", 8), (die, 1), ("d6", 1)]))
    g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")
    assert s[0]["target_die"] == die  # as the target
    if conf != "routed":
        assert s[1]["striker_dice"][0] == die  # and as the striker
    else:
        assert len(s) == 1  # a routed unit does not strike (L812)


def test_S3_L15_two_successes_total_over_the_defenders_die_no_doubling_remainder_on_its_die():
    g = _house()
    # 8 + 7 = 15 against d10 (roll 3): 1 hit, remainder 5: the d10 rolls 5 -> a second hit
    add_dice(g, ("d10", 3), ("d8", 8), ("d8", 7), ("d10", 5),
             ("d8", 8), ("d10", 1), ("d6", 1))
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")[0]
    assert (s["result"], s["hits"]) == ("major", 2)


def test_S3_L17_casualties_are_removed_when_the_round_is_complete():
    g = _house()
    # the attacker kills a defender; the defender still strikes with all six (d6)
    add_dice(g, ("d10", 1), ("d8", 8), ("d8", 8), ("d10", 10),   # 16 / 10 = 1 r6, d10 10: 1 hit
             ("d8", 8), ("d10", 1), ("d6", 1),                   # the defender's strike: six rifles -> d6
             ("d6", 1), ("d6", 6), ("d6", 1),                    # the hit: a kill (of the leader)
             ("d10", 10))                                        # its Death of a Leader test (L1186): passed
    g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")
    assert s[1]["striker_dice"] == ["d10", "d6"] and g.units[1].figures[0].status == KILLED


def test_S3_L28_a_squad_engaged_by_two_splits_its_attacks_and_tests_with_the_total_casualties():
    extra = [unit("C", (27, 13.5), figures=[{"weapon": "rifle", "count": 6}], confidence="steady",
                  armour="partial_light", quality="d10")]
    g = _house(att={"figures": (("rifle", 10),)}, dfn={"figures": (("rifle", 8),), "pos": (21, 13.5)},
               extra_red=extra)
    from dustup_env.rules.unit_actions.assault_action import begin_assault
    # A -> B misses; B -> A: 9 + 5 = 14 / 8 = 1 r6, d8 8: 1 hit; A -> C misses; C -> A misses
    add_dice(g, ("d10", 10), ("d8", 1), ("d6", 1), ("d8", 1), ("d10", 9), ("d8", 5), ("d8", 8),
             ("d10", 10), ("d8", 1), ("d6", 1), ("d8", 8), ("d10", 1), ("d6", 1),
             ("d10", 2), ("d6", 3), ("d6", 2))  # the hit among A's ten figures (d10): figure 1 wounded (3 vs 2)
    begin_assault(g, [0], [1, 2], via_action=True)
    assert g.units[0].figures[1].status == WOUNDED
    g.apply(("stand",))
    g.apply(("stand",))
    add_dice(g, *([4] * 4))  # the two reaction tests: draws
    with pytest.raises(DiceScriptError):  # (the script ends in the next round)
        g.apply(("stand",))
    tests = [c for c in events_of(g, "CourageTested") if c["final"]]
    assert len(tests) == 2  # one reaction test per pairing ...
    for c in tests:  # ... each with the total casualties A suffered (one wound, from B)
        assert ("wounded", -1) in [tuple(x) for x in c["attacker_shifts"]]


def test_S3_L60_pursuit_is_optional_and_off_by_default():
    from dustup_env.rules import Game
    g = Game(duel(), seed=1, options=HOUSE)
    assert g.options["house_pursuit"] is False


def test_S3_L20_a_power_armoured_trooper_stabilised_by_the_casualty_table_counts_as_wounded_in_the_reaction():
    """Seed 003 reaction tests "as in the standard rules" with the casualty rows; the standard close combat counts a
    power-armoured trooper stabilised by the casualty table (L1058: "Replace the hit marker with a wound marker") as
    wounded (``casualty_counts``); the house round must count it too."""
    g = _house(dfn={"armour": "light_power"})
    add_dice(g, ("d10", 2), ("d8", 8), ("d8", 8), ("d10", 10),  # 16 / 10 = 1 r6, d10 10: one hit
             ("d8", 8), ("d10", 1), ("d6", 1),                  # the defender's strike misses
             ("d6", 2), ("d6", 6), ("d10", 5), ("d6", 3))       # figure 1: 6 vs 5 a wound -> table 3: stabilised
    g.apply(("assault", 1))
    assert g.units[1].figures[1].status == TREATED and last_event(g, "PowerArmourHit")["result"] == "stabilised"
    g.apply(("stand",))
    add_dice(g, *([4] * 8))
    try:
        g.apply(("stand",))
    except DiceScriptError:
        pass
    ct = [c for c in events_of(g, "CourageTested") if c["final"]][0]
    assert ("wounded", -1) in [tuple(x) for x in ct["defender_shifts"]]


def test_L1058_standard_close_combat_counts_a_stabilised_power_armoured_trooper_as_wounded_in_the_outcome():
    """The companion of the house probe above: in the standard close combat the stabilised trooper (a wound marker,
    L1058) is a wounded figure for the outcome test (note ***)."""
    g = _contact(dfn={"armour": "light_power"},
                 strikes=[("d10", 7), ("d8", 8), ("d8", 4), ("d10", 9),       # minor: 12 / 10 = 1 r2, no third
                          ("d6", 2), ("d6", 6), ("d10", 5), ("d6", 3),        # figure 1 wounded -> stabilised
                          ("d8", 8), ("d10", 1), ("d6", 1)],                  # the counterstrike misses
                 tail=[4, 4, 4, 4, 4, 4, 4, 4])
    with pytest.raises(DiceScriptError):
        g.apply(("assault", 1))
    assert g.units[1].figures[1].status == TREATED
    ct = [c for c in events_of(g, "CourageTested") if c["final"]][0]
    assert ("wounded", -1) in [tuple(x) for x in ct["defender_shifts"]]


def test_L1920_casevac_vehicle_leaving_offloaders_roll_once_others_within_12_inches_5_up_above_the_start():
    """L1920 and its footnote 14: the unit that offloaded rolls a D6 (3+: one level), other friendly units within
    12" roll a D6 (5+: one level), no unit rolls twice, and the gain may exceed the starting level."""
    from vehicle_helpers import vehicle
    blue = [unit("S", (24, 20), figures=(("rifle", 6),), leadership=2, confidence="steady"),
            unit("F", (30, 20), figures=(("rifle", 4),), confidence="steady"),
            vehicle("Medevac", (10, 2), "apc_wheeled", casevac=True),
            unit("Far", (24, 40), figures=(("rifle", 3),), confidence="steady")]
    g = begin(scenario(blue, [unit("E", (5, 46), figures=(("rifle", 3),))]), [("d8", 8)])  # the call's roll
    activate(g, 0)
    g.apply(("call_casevac", 2))
    g.units[0].set_figure(1, status=WOUNDED)
    g.apply(("transfer", 2))  # the second action: one reorganise-type action within 2"
    for o in [("activate", 4), ("end",), ("activate", 1), ("end",)]:
        g.apply(o)
    add_dice(g, *END_TURN)
    g.apply(("activate", 3))
    g.apply(("end",))
    g.apply(("first",))
    g.apply(("activate", 2))
    add_dice(g, ("d6", 3), ("d6", 5))  # S (offloaded) 3: +1; F (within 12") 5: +1; Far (20" away): no roll
    g.apply(("depart",))
    boosts = [(e["unit"], e["roll"], e["levels"]) for e in events_of(g, "CasevacBoost")]
    assert boosts == [(0, 3, 1), (1, 5, 1)] and g.dice.remaining == 0
    assert g.units[0].confidence == CONFIDENT < g.units[0].initial_confidence  # above its starting level
    assert g.units[3].confidence == STEADY


def test_L734_terror_row_shifts_the_die_of_a_unit_facing_a_terror_unit():
    """Note **** ("See page 26", Terror; RN-203 row 9, RN-217): the defender facing a terror-provoking attacker
    takes -2 on its courage die; the attacker (which provokes it) takes none."""
    g = start(duel(att={"terror": True}), [("d8", 3), ("d6", 5)])
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert dict(map(tuple, ct["defender_shifts"])) == {"terror": -2} and ct["attacker_shifts"] == []
    assert ct["defender_die"] == "d6"


def test_L705_an_assault_declared_as_the_second_action_that_fails_ends_the_activation():
    """"the attacker loses their first action, but may still do something else with the second action": when the
    assault was itself the second action, nothing is left."""
    g = start(duel(), [("d6", 1), ("d8", 4), ("d10", 5), *END_TURN])
    g.apply(("move", 0, 0))  # the first action: 2" north
    g.apply(("assault", 1))
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail"
    assert g.decision().kind == "initiative" and g.dice.remaining == 0
