"""Independent forced-dice audit of seed 000's Equipment, Forces, Core Mechanic, Rules Overview, the command actions
(Communicate with Jamming, Order with Combined Assault, Rally) and Morale.

Each test is one probe: a statement of the seed (its line, Lnnn, in /work/shared/seeds/000_a87feaff72370b06.txt)
played through the public API (``Game``, ``decision()``, ``apply()``, ``view()``, ``event_log()``) on scripted
dice, asserting what the text says (or, where the text is ambiguous, the reading recorded in docs/rules-notes.md,
named in the test).  The findings are summarised in docs/rules-audit.md ("Rules overview, forces, command and
morale").
"""
import pytest

from conftest import activate, add_dice, begin, events_of, last_event, new_game, rect, scenario, unit
from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.kernel.entities import KILLED
from dustup_env.rules.kernel.dice import D4, D6, D8, D10, D12, ScriptedDice, clockface_direction, shift_closed, \
    shift_open
from dustup_env.rules.rules_overview.seize_the_initiative import SeizeState
from dustup_env.rules.rules_overview.random_activation import ChitBag

HQ = dict(kind="hq", quality="d8", leadership=1)


def acting(g):
    d = g.decision()
    return d.kind, d.unit


def kinds_of(g):
    return {o[0] for o in g.decision().options}


def platoon(hq_pos=(24, 5), squads=((10, 20), (38, 20)), red=None, terrain=(), hq=None, sq=None, **kw):
    """Blue: Platoon HQ (uid 0) commanding squads 1, 2; Red: one squad far away (the last uid)."""
    blue = [unit("Platoon HQ", hq_pos, (("rifle", 3),), **HQ)]
    blue[0].update(hq or {})
    for i, p in enumerate(squads):
        blue.append(unit(f"S{i + 1}", p, commander="Platoon HQ", leadership=2))
        blue[-1].update(sq or {})
    return scenario(blue, red if red is not None else [unit("R", (24, 46))], terrain=terrain, **kw)


def company():
    """Company HQ (0) -> Platoon HQ (1) -> squads 2, 3, all far apart; Red squad (4)."""
    blue = [unit("Coy HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d8", leadership=1),
            unit("Platoon HQ", (10, 12), (("rifle", 3),), kind="hq", quality="d8", leadership=1, commander="Coy HQ"),
            unit("S1", (4, 24), commander="Platoon HQ", leadership=2),
            unit("S2", (40, 24), commander="Platoon HQ", leadership=2)]
    return scenario(blue, [unit("R", (24, 46))])


# =============================================================================================== Equipment
def test_equipment_each_miniature_is_one_soldier():
    """L103 "Each miniature represents a single soldier": a squad of 5 rifles and a support weapon is 6 figures."""
    g = begin(scenario([unit("A", (24, 5), (("rifle", 5), ("lmg", 1)))], [unit("B", (24, 35))]))
    figs = g.view(0)["units"][0]["figures"]
    assert len(figs) == 6 and [f["weapon"] for f in figs].count("lmg") == 1


def test_equipment_centimetres_for_inches_scales_an_inch_drawn_table():
    """L109 centimetres may be substituted for inches (RN-358): an inch-drawn scenario played in centimetres is the
    same battle on a 2.54 times larger battlefield (every rules distance stays a number of rules units)."""
    scn = scenario([unit("A", (10, 5))], [unit("B", (10, 35))], width=40, height=40)
    g = Game(scn, seed=0, options={"measure": "centimetres"})
    a = g.view(0)["units"][0]
    assert (a["x"], a["y"]) == pytest.approx((25.4, 12.7))


def test_equipment_dice_are_d4_to_d12():
    """L113 polyhedral dice from four to twelve sided: a quality die outside the ladder is refused (one line)."""
    with pytest.raises(ScenarioError) as e:
        Game(scenario([unit("A", (10, 5), quality="d20")], [unit("B", (10, 35))]), seed=0)
    assert "\n" not in str(e.value)


def test_equipment_counters_activation_removed_at_turn_end_suppression_stays():
    """L129/L399: activation markers come off at the end of the turn; other markers such as suppression stay."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]), [("d8", 8), ("d8", 1)])
    g.unit(1).suppression = 2
    activate(g, 0)
    assert g.view(0)["units"][0]["activated"] is True
    g.apply(("end",))
    activate(g, 1)
    assert g.decision().options == (("end",), ("recover",), ("prop",))  # suppressed in the open
    g.apply(("end",))
    assert g.turn == 2
    v = g.view(0)["units"]
    assert not v[0]["activated"] and not v[1]["activated"] and v[1]["suppression"] == 2


def inbound_scn(extra_blue=()):
    blue = [unit("HQ", (10, 5), (("rifle", 3),), kind="hq", leadership=1),
            unit("R", (12, 5), inbound=1, commander="HQ"), *extra_blue]
    return scenario(blue, [unit("B", (10, 40)), unit("B2", (30, 40))])


def test_inbound_counter_moves_instead_of_activating_a_unit():
    """L157 "Instead of activating a unit, a counter may be moved along the inbound track"."""
    g = begin(inbound_scn())
    assert g.decision().options == (("activate", 0), ("inbound", 1))
    g.apply(("inbound", 1))
    assert last_event(g, "ReinforcementArrived")["unit"] == 1
    assert not events_of(g, "UnitActivated") and g.decision().side == 1  # that was Blue's activation


def test_inbound_arrived_unit_is_not_activated_by_an_order_the_same_turn():
    """L157 "the unit is placed on the battlefield and may be activated on the next turn": an order (re)activates
    a unit (L991), so a commander cannot order a reinforcement in the turn it arrives (finding, fixed: RN-1000);
    from the next turn it is ordered like any unit."""
    g = begin(inbound_scn(), [("d8", 8), ("d8", 1)])
    g.apply(("inbound", 1))
    activate(g, 2)
    g.apply(("end",))
    activate(g, 0)
    assert ("order", 1) not in g.decision().options
    g.apply(("end",))
    activate(g, 3)
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    assert ("order", 1) in g.decision().options


# =============================================================================================== Forces
def test_squad_has_one_designated_leader_and_its_position_is_the_leaders():
    """L167 one figure is the squad leader; L195 distances are measured from the leader's base."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]))
    a = g.view(0)["units"][0]
    assert a["leader"] == 0 and (a["figures"][0]["dx"], a["figures"][0]["dy"]) == (0.0, 0.0)
    assert g.fire_plan(0, 1, "all")["distance"] == pytest.approx(30.0)  # leader to leader


def test_single_figure_activates_as_any_unit_and_is_a_small_target():
    """L171 single figures are treated as any other unit for activation, and as small targets when fired on."""
    g = begin(scenario([unit("A", (24, 5))], [unit("Sniper", (24, 35), (("rifle", 1),)), unit("B", (30, 35))]),
              first=1)
    assert g.decision().options == (("activate", 1), ("activate", 2))
    activate(g, 1)
    g.apply(("end",))
    activate(g, 0)
    # 30": D8; a small target shifts the target die up once (D10)
    assert g.fire_plan(0, 1, "all")["target_die"] == D10 and g.fire_plan(0, 2, "all")["target_die"] == D8


def test_power_armour_obeys_all_other_rules():
    """L179 power armoured troops are organised as other infantry and obey all other rules: a squad with the same
    actions; its armour die is the light power armour D10 (L323)."""
    g = begin(scenario([unit("A", (24, 5))], [unit("P", (24, 35), armour="light_power")]), first=1)
    activate(g, 1)
    assert {"move", "shoot", "prop", "end"} <= kinds_of(g)
    assert g.view(1)["units"][1]["kind"] == "squad"
    g.apply(("end",))
    activate(g, 0)
    assert g.fire_plan(0, 1, "all")["armour"] == D10


def cav_game(dice=(), **kw):
    cav = unit("Horse", (10, 5), (("rifle", 6),), movement="cavalry", **kw)
    return begin(scenario([cav], [unit("R", (40, 45))]), list(dice))


def test_cavalry_moves_d10x2_and_may_not_prop():
    """L187/L191 horse cavalry move D10 (x2); L189 cavalry may not prop."""
    g = cav_game([("d10", 7)])
    activate(g, 0)
    assert ("prop",) not in g.decision().options
    g.apply(("move", 0, 3))
    assert (last_event(g, "Moved")["roll"], last_event(g, "Moved")["points"]) == (7, 14.0)


def test_cavalry_dismount_is_one_reorganise_action_and_prop_needs_the_mounts_detached():
    """L185 one reorganise action to mount or dismount; L189 dismounted cavalry may prop only once the mounts are
    detached."""
    g = cav_game()
    activate(g, 0)
    g.apply(("reorganise", "dismount"))
    assert g.actions_left == 1 and ("prop",) not in g.decision().options
    g.apply(("detach", "scout"))  # the horse holders (the activation's second action)
    activate(g, 1)
    add_dice(g, ("d8", 8), ("d8", 1))
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    assert ("prop",) in g.decision().options and g.unit(2).mounted


def test_cohesion_is_six_inches_inclusive_and_a_disorganised_unit_may_only_move_or_recover():
    """L199 all figures within 6" of the leader; otherwise the unit may only move or recover from suppression."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]))
    g.unit(0).set_figure(3, dx=6.0, dy=0.0)  # exactly 6": within
    activate(g, 0)
    assert {"shoot", "prop"} <= kinds_of(g)
    g.unit(0).set_figure(3, dx=6.01, dy=0.0)
    g.invalidate()
    assert kinds_of(g) <= {"end", "move", "recover"} and "move" in kinds_of(g)


def test_commanders_command_their_subordinates():
    """L205 commanders are in overall command of part of the force: only a commander orders, and only its
    subordinates (scenario field ``commander``, RN-192)."""
    g = begin(platoon())
    activate(g, 0)
    assert {o for o in g.decision().options if o[0] == "order"} == {("order", 1), ("order", 2)}
    g = begin(platoon())
    activate(g, 1)
    assert "order" not in kinds_of(g) and "rally" not in kinds_of(g)


@pytest.mark.parametrize("roll,die", [(1, D6), (2, D8), (5, D8), (6, D10)])
def test_random_quality_table(roll, die):
    """L219-L224 random quality on a D6: 1 green (D6), 2-5 experienced (D8), 6 veteran (D10)."""
    g = Game(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]), seed=0, options={"random_quality": True},
             dice=ScriptedDice([roll, 3, ("d8", 8), ("d8", 1)]))
    assert g.unit(0).quality == die and g.unit(1).quality == D8


@pytest.mark.parametrize("roll,lv", [(1, 3), (2, 2), (5, 2), (6, 1)])
def test_random_leadership_table(roll, lv):
    """L228-L233 random leadership on a D6: 1 poor (LV3), 2-5 average (LV2), 6 inspirational (LV1)."""
    g = Game(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]), seed=0, options={"random_leadership": True},
             dice=ScriptedDice([roll, 3, ("d8", 8), ("d8", 1)]))
    assert g.unit(0).lv == lv


@pytest.mark.parametrize("lv", [0, 4])
def test_leadership_is_between_1_and_3(lv):
    """L228 leadership "is given a value between 1 and 3"."""
    with pytest.raises(ScenarioError):
        Game(scenario([unit("A", (24, 5), leadership=lv)], [unit("B", (24, 35))]), seed=0)


def test_untrained_and_elite_firers_shift_the_target_die_once():
    """L250 fired on by untrained troops: target die up one (D8 -> D10); by elite: down one (D8 -> D6)."""
    g = begin(scenario([unit("U", (24, 5), quality="d4"), unit("E", (30, 5), quality="d12"),
                        unit("X", (18, 5))], [unit("B", (24, 35)), unit("C", (30, 35)), unit("D", (18, 35))]))
    assert g.fire_plan(0, 3, "all")["target_die"] == D10
    assert g.fire_plan(1, 4, "all")["target_die"] == D6
    assert g.fire_plan(2, 5, "all")["target_die"] == D8


@pytest.mark.parametrize("rolls,level", [((5,), "confident"), ((1, 4), "steady"), ((1, 1), "shaken")])
def test_random_initial_confidence(rolls, level):
    """L269 a D6 per unit: not a 1, confident; a 1 drops to steady and the die is rolled again; a second 1 drops to
    shaken (one roll only when the first is not a 1)."""
    dice = ScriptedDice([("d6", r) for r in rolls] + [("d6", 5), ("d8", 8), ("d8", 1)])
    g = Game(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]), seed=0, options={"random_confidence": True},
             dice=dice)
    names = ("confident", "steady", "shaken", "broken", "routed")
    assert names[g.unit(0).confidence] == level and names[g.unit(1).confidence] == "confident"
    assert g.unit(0).initial_confidence == g.unit(0).confidence


@pytest.mark.parametrize("fatigue,level", [("fresh", 0), ("tired", 1), ("exhausted", 2)])
def test_fatigue_sets_the_starting_confidence(fatigue, level):
    """L283-L287 fresh troops begin confident, tired steady, exhausted shaken."""
    g = Game(scenario([unit("A", (24, 5), fatigue=fatigue)], [unit("B", (24, 35))]), seed=0)
    assert g.unit(0).confidence == level == g.unit(0).initial_confidence


def test_shaken_unit_moving_toward_the_enemy_needs_a_leadership_test():
    """L263 Shaken: may not move toward the enemy without passing a leadership test (a failure: no move, RN-012)."""
    g = begin(scenario([unit("A", (24, 5), confidence="shaken")], [unit("B", (24, 35))]), [("d8", 2)])
    activate(g, 0)
    g.apply(("move", 0, 3))  # north, toward B: D8 2 is not higher than LV 2
    t = last_event(g, "LeadershipTested")
    assert (t["roll"], t["needed"], t["passed"]) == (2, 2, False)
    assert not events_of(g, "Moved") and g.unit(0).y == 5.0 and g.dice.remaining == 0


def test_broken_unit_in_the_open_must_withdraw():
    """L264 Broken: must move away from the enemy towards cover as soon as possible."""
    g = begin(scenario([unit("A", (24, 25), confidence="broken")], [unit("B", (24, 35))]))
    activate(g, 0)
    assert g.decision().options == (("withdraw",),)


def test_routed_unit_ignores_suppression_and_must_withdraw_with_each_action():
    """L265 Routed: ignore all suppression markers; must use each action to withdraw."""
    g = begin(scenario([unit("A", (24, 25), confidence="routed"), unit("A2", (4, 5))], [unit("B", (24, 35))]),
              [("d6", 1), ("d6", 1)])
    g.unit(0).suppression = 3
    activate(g, 0)
    assert g.decision().options == (("withdraw",),)
    g.apply(("withdraw",))
    assert g.decision().options == (("withdraw",),) and g.actions_left == 1


@pytest.mark.parametrize("commitment,tests", [("low", True), ("medium", False), ("high", False)])
def test_commitment_decides_whether_the_first_time_under_fire_is_tested(commitment, tests):
    """L279 commitment affects when units must test (L1119: first time under fire: low 1, medium and high NTR)."""
    scn = scenario([unit("A", (24, 5))], [unit("B", (24, 35))], commitment=("medium", commitment))
    dice = [("d8", 8), ("d8", 1), ("d6", 1)] + ([("d8", 8)] if tests else [])  # target 8 beats every firer die
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert bool(events_of(g, "ConfidenceTested")) is tests and g.dice.remaining == 0


@pytest.mark.parametrize("dist,die", [(12, D6), (13, D8), (48, D8), (60, D10)])
def test_weapon_ranges_short_effective_and_long_without_maximum(dist, die):
    """L301 effective range 48", no maximum (beyond 48" is long range, less effective), short range 12" (more
    effective): the target die of a rifle squad's fire (D8 in the open, shifted once either way)."""
    g = begin(scenario([unit("A", (10, 2))], [unit("B", (10, 2 + dist))], height=72))
    assert g.fire_plan(0, 1, "all")["target_die"] == die


@pytest.mark.parametrize("armour,die", [("basic_battledress", D4), ("partial_light", D6), ("full_light", D8),
                                        ("light_power", D10), ("heavy_power", D12)])
def test_personal_armour_dice(armour, die):
    """L319-L324 the armour types and their dice."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 35), armour=armour)]))
    assert g.fire_plan(0, 1, "all")["armour"] == die


def test_mission_commitment_per_unit_with_the_side_as_default():
    """L279 commitment is high, medium or low; a scenario sets it for a side or a unit (medium if unset, RN-018)."""
    scn = scenario([unit("A", (24, 5)), unit("A2", (4, 5), commitment="high")], [unit("B", (24, 35))],
                   commitment=("low", "medium"))
    g = Game(scn, seed=0)
    assert [g.unit(i).commitment for i in range(3)] == [0, 2, 1]


def test_the_average_small_arm_is_firepower_2_impact_d6():
    """L303 the average small arm has firepower 2 and impact D6 (a figure that names no weapon, RN-359)."""
    g = begin(scenario([unit("A", (24, 5), ({"count": 5},))], [unit("B", (24, 35))]))
    p = g.fire_plan(0, 1, "all")
    assert p["impact"] == D6 and p["firepower"] == [D10]  # 5 x 2 = 10: D10


def test_no_armour_rolls_a_d4_and_any_non_killing_result_wounds():
    """L326 no armour: a D4 armour die and any result is a wound; the roll only decides an instant kill (an impact
    of 1 against an armour roll of 4 still wounds, RN-022)."""
    scn = scenario([unit("A", (24, 5))], [unit("B", (24, 35), armour="none")], commitment=("medium", "high"))
    dice = [("d8", 1), ("d8", 4), ("d6", 4),  # 8 against 1: one hit
            ("d6", 2), ("d8", 1), ("d4", 4),  # on figure 1: impact 1 against the D4's 4
            ("d8", 8)]  # casualties test (high: 0 + LV 2) passed
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    h = last_event(g, "HitResolved")
    assert (h["armour_die"], h["impact"], h["armour"], h["effect"]) == ("d4", 1, 4, "wound") and g.dice.remaining == 0


def test_communications_equipment_is_average_d8_by_default():
    """L330-L335 equipment has a quality die; a side's communications default to D8 "average" (RN-221): the comms
    die rolled against a jammer is a D8."""
    scn = platoon()
    scn["sides"][1]["jammer"] = "d6"
    g = begin(scn, [("d8", 4), ("d6", 4), ("d8", 5)], options={"jamming": True})
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["jam_rolls"], c["jam_shift"], c["die"]) == ([4, 4], 0, "d8") and g.dice.remaining == 0


# =============================================================================================== Core Mechanic
def test_quality_levels_d8_is_average_and_the_default():
    """L343 a D8 is considered average: a unit with no quality given is experienced (D8)."""
    g = Game(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]), seed=0)
    assert g.unit(0).quality == D8


def test_simple_roll_movement_die_times_two():
    """L353 the simple roll: the movement die gives movement points (x2, L450)."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 45))]), [("d6", 4)])
    activate(g, 0)
    g.apply(("move", 0, 3))
    m = last_event(g, "Moved")
    assert (m["roll"], m["points"]) == (4, 8.0) and m["end"][1] == pytest.approx(13.0)


def test_opposed_roll_draw_favours_the_defender():
    """L357 in most cases a draw favours the defender: a jammer roll equal to the comms roll shifts nothing."""
    scn = platoon()
    scn["sides"][1]["jammer"] = "d10"
    g = begin(scn, [("d8", 6), ("d10", 6), ("d8", 3)], options={"jamming": True})
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["jam_shift"], c["die"], c["success"]) == (0, "d8", True)


@pytest.mark.parametrize("roll,passed", [(2, False), (3, True)])
def test_unopposed_roll_must_score_higher(roll, passed):
    """L361 an unopposed roll must score higher than the target value: a recover roll equal to LV 2 fails."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]), [("d8", roll)])
    g.unit(0).suppression = 1
    activate(g, 0)
    g.apply(("recover",))
    assert last_event(g, "SuppressionRecovered")["removed"] is passed


def test_open_shift_seed_example():
    """L373 D10 with two positive shifts against a D6 (open): D12, and the second shift reduces the D6 to a D4."""
    assert shift_open(D10, +2, D6) == (D12, D4)
    assert shift_open(D6, -3, D8) == (D4, D12)  # below D4: positive shifts of the opponent's die


def test_closed_shift_seed_example_and_shifts_are_closed_by_default():
    """L377-L379 closed: the D10's second positive shift is ignored (the opponent keeps a D6); L367 shifts are closed
    unless stated: a D6 commander bypassing three levels still rolls a D4 (L973)."""
    assert shift_closed(D10, +2) == D12
    blue = [unit("Bn HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d6", leadership=1),
            unit("Coy HQ", (4, 10), (("rifle", 2),), kind="hq", leadership=1, commander="Bn HQ"),
            unit("Platoon HQ", (44, 10), (("rifle", 2),), kind="hq", leadership=1, commander="Coy HQ"),
            unit("Sec HQ", (4, 30), (("rifle", 2),), kind="hq", leadership=1, commander="Platoon HQ"),
            unit("S1", (44, 30), commander="Sec HQ", leadership=1)]
    g = begin(scenario(blue, [unit("R", (24, 46))]), [("d4", 2)])
    activate(g, 0)
    g.apply(("order", 4))  # four levels apart: three bypassed, D6 -> D4 (closed)
    c = last_event(g, "CommunicationAttempted")
    assert (c["bypassed"], c["die"], c["success"]) == (3, "d4", True)


@pytest.mark.parametrize("hour,vec", [(12, (0.0, 1.0)), (3, (1.0, 0.0)), (6, (0.0, -1.0)), (9, (-1.0, 0.0))])
def test_random_direction_clockface(hour, vec):
    """L387 nominate 12 o'clock and roll a D12: the result is the direction as on a clockface."""
    assert clockface_direction(ScriptedDice([("d12", hour)])) == pytest.approx(vec, abs=1e-9)


# =============================================================================================== Rules Overview
def test_initiative_d8_highest_decides_ties_rerolled():
    """L393 each turn the players roll a D8, the highest deciding to go first or second (ties re-rolled, RN-030)."""
    g = new_game(scenario([unit("A", (24, 5))], [unit("B", (24, 35))]), [("d8", 4), ("d8", 4), ("d8", 2),
                                                                          ("d8", 7)])
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "initiative", (("first",), ("second",)))
    g.apply(("second",))
    assert g.decision().side == 0


def test_alternate_activation_and_the_larger_side_finishes_the_turn():
    """L395 players alternate; a player with more units activates the rest at the end of the turn."""
    g = begin(scenario([unit("A", (4, 5)), unit("A2", (14, 5)), unit("A3", (24, 5))], [unit("B", (24, 35))]),
              [("d8", 8), ("d8", 1)])
    activate(g, 0)
    g.apply(("end",))
    assert g.decision().side == 1
    activate(g, 3)
    g.apply(("end",))
    assert g.decision().side == 0 and ("pass",) not in g.decision().options
    activate(g, 1)
    g.apply(("end",))
    assert g.decision().side == 0  # Red has nothing left: Blue goes on
    activate(g, 2)
    g.apply(("end",))
    assert g.turn == 2


def test_activation_marker_then_two_actions():
    """L397 an activated unit is marked with an activation marker, then performs two actions."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (24, 45))]), [("d6", 1), ("d6", 1)])
    activate(g, 0)
    assert g.unit(0).activated and g.actions_left == 2
    g.apply(("move", 0, 3))
    assert acting(g) == ("action", 0) and g.actions_left == 1
    g.apply(("move", 0, 3))
    assert g.decision().kind == "activate" and g.decision().side == 1


def test_passing_only_with_fewer_unactivated_units_and_repeatedly():
    """L403 a player may pass only with fewer unactivated units than the opponent, and may go on passing until
    no longer fewer."""
    g = begin(scenario([unit("A", (24, 5))], [unit("B", (4, 35)), unit("B2", (14, 35)), unit("B3", (34, 35))]),
              first=0)
    assert ("pass",) in g.decision().options  # 1 < 3
    g.apply(("pass",))
    activate(g, 1)
    g.apply(("end",))
    assert ("pass",) in g.decision().options  # 1 < 2: may pass again
    g.apply(("pass",))
    activate(g, 2)
    g.apply(("end",))
    assert ("pass",) not in g.decision().options  # 1 = 1: no longer fewer


def seize_game(tokens=2):
    scn = scenario([unit("A", (4, 5)), unit("A2", (14, 5))], [unit("B", (4, 35)), unit("B2", (14, 35))])
    return begin(scn, options={"seize_tokens": tokens})


def test_seize_the_initiative_activates_an_unactivated_unit_out_of_sequence():
    """L407 a token interrupts the alternating sequence to activate a unit of the player's choice that has not
    already been activated (between activations, RN-193)."""
    g = seize_game([0, 1])
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "seize", (("seize", 2), ("seize", 3), ("decline",)))
    g.apply(("seize", 2))
    assert acting(g) == ("action", 2) and last_event(g, "InitiativeSeized")["tokens_left"] == 0
    g.apply(("end",))
    assert g.decision().side == 0 and g.decision().kind == "activate"  # the interrupted side is due again
    activate(g, 0)
    g.apply(("end",))
    d = g.decision()
    assert d.side == 1 and ("activate", 2) not in d.options  # already activated


def test_seize_may_be_taken_back_with_a_token():
    """L409 the other player may also use a token to take the initiative back (RN-194)."""
    g = seize_game(1)
    g.apply(("seize", 2))
    d = g.decision()
    assert (d.side, d.kind) == (0, "seize") and ("seize", 0) in d.options
    g.apply(("seize", 0))
    assert acting(g) == ("action", 0) and not g.unit(2).activated
    assert last_event(g, "InitiativeTakenBack")["tokens_left"] == 0


def test_seize_tokens_per_veteran_or_elite_unit():
    """L411 a token for every veteran or elite unit (option, RN-355)."""
    scn = scenario([unit("A", (4, 5), quality="d10"), unit("A2", (14, 5), quality="d12")],
                   [unit("B", (4, 35), quality="d8")])
    g = begin(scn, options={"seize_tokens_veterans": True})
    assert g.state_of(SeizeState).seize_tokens == [2, 0]


def detach_scn():
    return scenario([unit("A", (24, 5), (("rifle", 6),)), unit("A2", (10, 5))],
                    [unit("B", (24, 40)), unit("B2", (10, 40))])


def test_chit_draw_one_chit_per_unit_and_none_for_a_detachment():
    """L419 a chit for each unit in the army, drawn to decide which side activates a unit next.  A detachment acts
    only through its parent (RN-227): it is no unit of its own activation, so it adds no chit (finding, fixed:
    RN-1001)."""
    g = new_game(detach_scn(), [("d4", 1)], options={"activation": "chits"})
    assert g.state_of(ChitBag).chits == [1, 2]  # (2, 2) before the first draw: Blue
    activate(g, 0)
    g.apply(("detach", "scout"))
    assert g.unit(4).parent == 0
    add_dice(g, 3)  # bag (1, 2): 3 -> Red
    g.apply(("end",))
    activate(g, 2)
    add_dice(g, 1)
    g.apply(("end",))
    activate(g, 1)
    add_dice(g, 4)  # turn 2: Blue's chits are still 2 (A, A2; not the detachment)
    g.apply(("end",))
    activate(g, 3)
    g.apply(("end",))
    assert g.turn == 2
    assert [e["chits_left"] for e in events_of(g, "ChitDrawn")][-1] == [2, 1]


def test_chit_variant_extra_chits_for_veterans_withheld_for_militia():
    """L421 an extra chit for each veteran or elite unit, one withheld for each militia (untrained) unit."""
    scn = scenario([unit("A", (4, 5), quality="d10"), unit("A2", (14, 5))],
                   [unit("B", (4, 35), quality="d4"), unit("B2", (14, 35))])
    g = new_game(scn, [("d4", 1)], options={"activation": "chits", "chit_quality_variant": True})
    assert g.state_of(ChitBag).chits == [2, 1]  # (3, 1) before Blue's draw


def test_card_draw_activates_the_drawn_unit():
    """L423 each unit has a card; cards drawn one at a time activate the specific units."""
    g = new_game(scenario([unit("A", (4, 5)), unit("A2", (14, 5))], [unit("B", (4, 35))]), [3],
                 options={"activation": "cards"})
    assert acting(g) == ("action", 2) and last_event(g, "CardDrawn")["unit"] == 2


def test_unit_activation_two_actions_from_the_list():
    """L427-L442 an activated unit performs two actions from the list (move, prop, shoot, reorganise, detach, ...)."""
    g = begin(platoon(red=[unit("R", (24, 30))]))
    activate(g, 0)
    assert {"move", "prop", "shoot", "detach", "order", "reorganise", "end"} <= kinds_of(g)


# =============================================================================================== Communicate
@pytest.mark.parametrize("roll,ok", [(3, False), (4, True)])
def test_communicate_the_seeds_example(roll, ok):
    """L971 an experienced unit (LV1) contacting a unit of LV3 rolls a D8 and needs more than 3."""
    g = begin(platoon(sq={"leadership": 3}), [("d8", roll)])
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["die"], c["needed"], c["success"]) == ("d8", 3, ok)


def test_communicate_worst_lv_is_the_senders_when_worse():
    """L969 the score to beat is the worst (highest) LV of either the sender or the receiver."""
    g = begin(platoon(hq={"leadership": 3}, sq={"leadership": 1}), [("d8", 3)])
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "CommunicationAttempted")["needed"] == 3


def test_communicate_bypassing_a_level_shifts_the_die_down():
    """L973 for each level of command bypassed, shift the die type down (company to squad: D8 -> D6)."""
    g = begin(company(), [("d6", 3)])
    activate(g, 0)
    g.apply(("order", 2))
    c = last_event(g, "CommunicationAttempted")
    assert (c["bypassed"], c["die"]) == (1, "d6")


@pytest.mark.parametrize("pos,terrain,automatic", [
    ((24, 11), (), True),  # exactly 6" with line of sight
    ((24, 11.5), (), False),  # beyond 6"
    ((24, 10), (rect("hill", 20, 7, 28, 8),), False),  # within 6" but no line of sight
])
def test_communicate_automatic_within_6_inches_with_line_of_sight(pos, terrain, automatic):
    """L975/L997 within 6" with a clear line of sight no roll is required."""
    g = begin(platoon(squads=(pos, (38, 20)), terrain=terrain), [] if automatic else [("d8", 5)])
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "CommunicationAttempted")["automatic"] is automatic and g.dice.remaining == 0


def test_communicate_line_of_sight_through_concealing_terrain_is_clear():
    """L975 "within 6 inches and have a clear line of sight": terrain that only conceals (light woods) does not
    block the line of sight, so the communication is automatic (a reading, RN-1005)."""
    g = begin(platoon(squads=((24, 10), (38, 20)), terrain=(rect("light_woods", 20, 6.5, 28, 8.5),)))
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "CommunicationAttempted")["automatic"] is True and g.dice.remaining == 0


@pytest.mark.parametrize("rolls,shift,die", [((3, 4), 1, "d6"), ((3, 7), 2, "d4"), ((3, 6), 1, "d6")])
def test_jamming_minor_and_major_success(rolls, shift, die):
    """L987 the jammer's minor success shifts the communication die down one, a major success twice (major =
    more than double, RN-094)."""
    scn = platoon()
    scn["sides"][1]["jammer"] = "d10"
    g = begin(scn, [("d8", rolls[0]), ("d10", rolls[1]), (die, 4)], options={"jamming": True})
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["jam_shift"], c["die"]) == (shift, die) and g.dice.remaining == 0


def test_jamming_does_not_touch_an_automatic_communication():
    """L975/L985 the jammer shifts the communication die; a communication within 6" with line of sight rolls no die
    at all, so there is nothing to jam (RN-221)."""
    scn = platoon(squads=((24, 10), (38, 20)))
    scn["sides"][1]["jammer"] = "d12"
    g = begin(scn, options={"jamming": True})
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["automatic"], c["jam_rolls"]) == (True, []) and g.dice.remaining == 0


# =============================================================================================== Order
def test_failed_order_ends_that_action_and_the_second_may_retry():
    """L995 if the communication fails that action ends; the commander may use the second action to try again."""
    g = begin(platoon(), [("d8", 2), ("d8", 5)])
    activate(g, 0)
    g.apply(("order", 1))
    assert acting(g) == ("action", 0) and g.actions_left == 1 and ("order", 1) in g.decision().options
    g.apply(("order", 1))
    assert acting(g) == ("action", 1) and g.actions_left == 2


def test_an_activated_unit_can_be_reactivated_by_an_order_without_a_marker():
    """L993 a unit already activated can be reactivated by an order; an ordered unit takes two actions, gets no
    activation marker, and keeps its own activation."""
    g = begin(platoon(hq_pos=(24, 2)), first=0)
    activate(g, 1)
    g.apply(("end",))
    activate(g, 3)
    g.apply(("end",))
    add_dice(g, ("d8", 5), ("d8", 5))
    activate(g, 0)
    g.apply(("order", 1))  # S1 already activated this turn
    assert acting(g) == ("action", 1) and g.actions_left == 2
    g.apply(("end",))
    g.apply(("order", 2))
    assert acting(g) == ("action", 2) and not g.unit(2).activated
    g.apply(("end",))
    assert g.decision().options == (("activate", 2),)  # S2 still has its own activation


def test_orders_chain_down_the_command_tree():
    """L999 a unit activated by a commander may itself be a command unit and activate its own subordinates."""
    g = begin(company(), [("d8", 5), ("d8", 5)])
    activate(g, 0)
    g.apply(("order", 1))
    g.apply(("order", 2))
    assert [f.unit for f in g.stack] == [0, 1, 2]


def test_combined_assault_both_orders_succeed_and_the_two_units_assault_together():
    """L1005 a commander orders two units to assault the same enemy unit; if both are activated the combat is
    "multiple units in close combat": one assault, two attackers, one defender."""
    scn = platoon(squads=((18, 26), (30, 26)), red=[unit("R", (24, 36)), unit("R2", (46, 47))])
    g = begin(scn, [("d8", 5), ("d8", 6)])
    activate(g, 0)
    assert ("combined_assault", 3) in g.decision().options and ("combined_assault", 4) not in g.decision().options
    g.apply(("combined_assault", 3))
    g.apply(("choose", 2))
    g.apply(("choose", 1))
    assert last_event(g, "CombinedAssaultOrdered")["success"] == [True, True]
    a = last_event(g, "AssaultDeclared")
    assert (a["attackers"], a["defenders"]) == ([2, 1], [3])


def test_combined_assault_one_failed_order_leaves_a_plain_order():
    """L1005 only if both units are activated is the combat a combined one: one failure leaves one ordered unit."""
    scn = platoon(squads=((18, 26), (30, 26)), red=[unit("R", (24, 36)), unit("R2", (46, 47))])
    g = begin(scn, [("d8", 2), ("d8", 6)])
    activate(g, 0)
    g.apply(("combined_assault", 3))
    g.apply(("choose", 2))
    g.apply(("choose", 1))
    assert not events_of(g, "AssaultDeclared") and acting(g) == ("action", 1) and g.stack[-1].ordered


def test_combined_assault_never_orders_a_reinforcement_the_turn_it_arrives():
    """L157 with L1005: a reinforcement that reached the battle area this turn is not one of the two units ordered
    into a combined assault (RN-1000); from the next turn it may be."""
    blue = [unit("Platoon HQ", (24, 5), (("rifle", 3),), **HQ),
            unit("S1", (18, 26), commander="Platoon HQ", leadership=2),
            unit("S2", (30, 26), commander="Platoon HQ", leadership=2, inbound=1)]
    g = begin(scenario(blue, [unit("R", (24, 36)), unit("R2", (46, 47))]), [("d8", 8), ("d8", 1)])
    g.apply(("inbound", 2))
    activate(g, 4)
    g.apply(("end",))
    activate(g, 0)
    assert "combined_assault" not in kinds_of(g)
    g.apply(("end",))
    activate(g, 3)
    g.apply(("end",))
    activate(g, 1)
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    assert ("combined_assault", 3) in g.decision().options


def test_a_unit_that_recovers_from_panic_in_an_ordered_activation_acts_normally_at_its_next_one():
    """L1162 "it can act normally in subsequent turns": a reading (RN-1003) for an order (L993) that brings a second
    activation in the same turn: the unit that passed its panic test acts normally at its next activation, even its
    own normal activation later that turn."""
    blue = [unit("HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d10", leadership=1),
            unit("A", (10, 14), quality="d4", leadership=2, commander="HQ")]
    g = begin(scenario(blue, [unit("B", (24, 35))]), [("d10", 5), ("d4", 1), ("d4", 4)])
    activate(g, 0)
    g.apply(("order", 1))  # the ordered activation: first sight of B, the panic test fails
    g.apply(("panic_test",))  # both actions: passed
    assert not g.unit(1).panicked
    g.apply(("end",))
    activate(g, 2)
    g.apply(("end",))
    activate(g, 1)
    assert {"move", "shoot"} <= kinds_of(g)


# =============================================================================================== Rally
def shaken_platoon(dice, confidence="shaken", options=None, **kw):
    return begin(platoon(sq={"confidence": "confident"}, **kw), dice, options=options)


@pytest.mark.parametrize("roll,levels", [(3, 0), (4, 1)])
def test_rally_must_score_higher_than_unit_lv_plus_commander_lv(roll, levels):
    """L1011/L1013 communicate, then the unit's quality die must beat unit LV + commander LV (2 + 1 = 3)."""
    g = shaken_platoon([("d8", 5), ("d8", roll)])
    g.unit(1).confidence = 2
    activate(g, 0)
    g.apply(("rally", 1))
    r = last_event(g, "RallyTested")
    assert (r["needed"], r["levels"]) == (3, levels) and g.unit(1).confidence == 2 - levels


def test_rally_never_above_the_initial_level():
    """L1011 rallying cannot raise a unit's confidence above its initial level (an exhausted unit starts shaken)."""
    g = begin(platoon(sq={"fatigue": "exhausted"}))
    g.unit(1).confidence = 3  # broken
    activate(g, 0)
    assert ("rally", 1) in g.decision().options and ("rally", 2) not in g.decision().options
    add_dice(g, ("d8", 5), ("d8", 8))
    g.apply(("rally", 1))
    assert g.unit(1).confidence == 2 and ("rally", 1) not in g.decision().options


@pytest.mark.parametrize("roll,levels", [(7, 2), (6, 1), (1, -1)])
def test_rally_optional_double_and_half(roll, levels):
    """L1017 optional (L1050 agreed before the game): more than double the target raises two levels; less than half
    the target drops one (target 3: 7 > 6 two levels, 6 one level, 1 < 1.5 drops one, RN-025)."""
    g = shaken_platoon([("d8", 5), ("d8", roll)], options={"rally_double_half": True})
    g.unit(1).confidence = 3
    activate(g, 0)
    g.apply(("rally", 1))
    assert last_event(g, "RallyTested")["levels"] == levels and g.unit(1).confidence == 3 - levels


def test_rally_failed_communication_means_no_rally_roll():
    """L1011 the commander must first communicate; only if successful does the unit roll."""
    g = shaken_platoon([("d8", 2)])
    g.unit(1).confidence = 2
    activate(g, 0)
    g.apply(("rally", 1))
    assert not events_of(g, "RallyTested") and g.dice.remaining == 0


def test_suppressed_commander_may_still_communicate():
    """L935 the leader of a suppressed unit may still carry out communicate actions: order and rally."""
    g = begin(platoon())
    g.unit(0).suppression = 1
    g.unit(1).confidence = 2
    activate(g, 0)
    assert {("order", 1), ("rally", 1)} <= set(g.decision().options)


def test_routed_unit_may_be_rallied_but_not_one_that_routed_while_panicking():
    """L1166 a panicked unit forced to rout can never be rallied; an ordinary routed unit may be (RN-225)."""
    g = begin(platoon())
    g.unit(1).confidence = 4
    g.unit(2).confidence = 4
    g.unit(2).panic_routed = True
    activate(g, 0)
    opts = g.decision().options
    assert ("rally", 1) in opts and ("rally", 2) not in opts


def test_detachments_are_outside_the_command_tree():
    """A detachment acts only through its parent (L1029, RN-227): it is not a subordinate in the command tree, so it
    is neither ordered nor rallied, nor tests when the commander falls (a reading, RN-1004)."""
    g = begin(platoon(hq_pos=(24, 2)), first=0)
    activate(g, 1)
    g.apply(("detach", "scout"))
    g.apply(("end",))
    activate(g, 3)
    g.apply(("end",))
    g.unit(4).confidence = 2
    activate(g, 0)
    assert g.unit(4).parent == 1
    assert not [o for o in g.decision().options if o[0] in ("order", "rally") and o[1] == 4]


# =============================================================================================== Morale
def test_confidence_test_the_seeds_example():
    """L1140 LV 2, medium commitment, casualties from fire: needs more than 3 (a 3 fails and drops one level)."""
    scn = scenario([unit("A", (24, 5), (("rifle", 5), ("lmg", 1)))], [unit("B", (24, 35), (("rifle", 4),))])
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1), ("d8", 2),  # one hit (as tests/test_morale.py)
            ("d4", 2), ("d8", 8), ("d4", 1),  # the hit falls on figure 1 and kills it (no untreated wound)
            ("d8", 3)]  # confidence: casualties (medium 1) + LV 2 = 3 needed: a 3 fails
    g = begin(scn, dice)
    g.unit(1).under_fire_before = g.unit(1).suppressed_before = True  # only the casualties trigger applies
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["roll"], c["levels_dropped"]) == ("casualties", 3, 3, 1)


def test_panic_untrained_tests_on_first_sight_and_once_passed_never_again():
    """L1146 untrained units test for panic the first time they see any enemy; L1168 once passed, never again."""
    g = begin(scenario([unit("A", (24, 5), quality="d4")], [unit("B", (24, 35))]), [("d4", 3)])
    activate(g, 0)
    p = last_event(g, "PanicTested")
    assert (p["reason"], p["needed"], p["passed"]) == ("first_sight_of_enemy", 2, True)
    g.apply(("end",))
    activate(g, 1)
    add_dice(g, ("d8", 8), ("d8", 1))
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    assert len(events_of(g, "PanicTested")) == 1 and g.dice.remaining == 0


def test_panic_a_hidden_enemy_is_not_seen_until_revealed():
    """L1146 untrained units test the first time they come into line of sight of an enemy unit: a hidden enemy
    (L136: only its marker is known) is not sighted, and its side's log gives nothing away (finding, fixed: RN-1002);
    the test comes once it is revealed (here: it moves)."""
    woods = rect("light_woods", 20, 27, 28, 33)
    scn = scenario([unit("A", (24, 5), quality="d4")], [unit("B", (24, 30), hidden=True)], terrain=[woods])
    g = begin(scn)
    activate(g, 0)
    assert not events_of(g, "PanicTested") and "panic_test" not in kinds_of(g)
    assert not [e for e in g.event_log(0) if e["type"] == "PanicTested"]
    g.apply(("end",))
    add_dice(g, ("d6", 1), ("d4", 4))
    activate(g, 1)
    g.apply(("move", 8, 0))  # B moves (revealed): A sees it now
    p = last_event(g, "PanicTested")
    assert (p["unit"], p["reason"], p["passed"]) == (0, "first_sight_of_enemy", True) and g.dice.remaining == 0


@pytest.mark.parametrize("quality,red,tests", [
    ("d6", {}, False), ("d6", {"armour": "light_power"}, True), ("d6", {"terror": True}, True),
    ("d8", {"armour": "light_power"}, False), ("d8", {"terror": True}, True),
    ("d10", {"terror": True}, False), ("d12", {"terror": True}, False)])
def test_panic_sight_triggers_by_quality(quality, red, tests):
    """L1148-L1152 green: first sight of armour, power armour or terror; experienced: terror only; veteran and elite
    never."""
    g = begin(scenario([unit("A", (24, 5), quality=quality)], [unit("B", (24, 35), **red)]),
              [(quality, 6)] if tests else [])
    activate(g, 0)
    assert bool(events_of(g, "PanicTested")) is tests and g.dice.remaining == 0


def test_green_unit_tests_the_first_time_it_is_fired_on():
    """L1148 green units test for panic the first time they are fired on by any enemy unit."""
    scn = scenario([unit("A", (24, 5))], [unit("B", (24, 35), quality="d6")], commitment=("medium", "high"))
    g = begin(scn, [("d8", 8), ("d8", 1), ("d6", 1), ("d6", 1)])
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    p = last_event(g, "PanicTested")
    assert (p["unit"], p["reason"], p["passed"]) == (1, "first_fired_on", False) and g.unit(1).panicked


def panicked(lv=2, dice=()):
    g = begin(scenario([unit("A", (24, 5), quality="d4", leadership=lv)], [unit("B", (24, 35))]),
              [("d4", 1)] + list(dice))
    activate(g, 0)
    return g


def test_panicked_unit_uses_both_actions_to_test_and_passing_ends_it():
    """L1162 a panicking unit does nothing but use BOTH actions to take another panic test; passing removes it."""
    g = panicked()
    assert g.decision().options == (("panic_test",),)
    add_dice(g, ("d4", 3))
    g.apply(("panic_test",))
    assert not g.unit(0).panicked and g.decision().kind == "activate" and g.decision().side == 1


@pytest.mark.parametrize("lv,roll,drop", [(3, 1, 1), (2, 1, 0), (3, 2, 0)])
def test_panic_recovery_failing_below_half_drops_a_level(lv, roll, drop):
    """L1162 failing to score at least half the required result also drops a confidence level (2 x roll < LV,
    RN-025/RN-248)."""
    g = panicked(lv, [("d4", roll)])
    g.apply(("panic_test",))
    assert g.unit(0).panicked and g.unit(0).confidence == drop


def test_panicked_unit_may_not_be_rallied_but_uses_a_superior_commanders_lv():
    """L1164 panicked units may not be rallied; in direct contact with a superior commander they may use its LV."""
    blue = [unit("HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d10", leadership=1),
            unit("A", (24, 6), quality="d4", leadership=3, commander="HQ", confidence="shaken")]
    g = begin(scenario(blue, [unit("B", (24, 35))]), [("d4", 1)], first=0)
    activate(g, 1)  # first sight: panics
    g.unit(1).confidence = 3
    add_dice(g, ("d4", 2))
    g.apply(("panic_test",))  # 2 > the HQ's LV 1 (its own LV 3 would fail)
    p = last_event(g, "PanicTested")
    assert (p["needed"], p["commander"], p["passed"]) == (1, 0, True)


def test_a_panicking_unit_is_not_offered_to_rally():
    """L1164 "Panicked units may not be rallied while panicking": no rally option for it, even below its initial
    level."""
    blue = [unit("HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d10", leadership=1),
            unit("A", (10, 14), quality="d4", leadership=2, commander="HQ")]
    g = begin(scenario(blue, [unit("B", (24, 35))]))
    g.unit(1).panicked = True
    g.unit(1).confidence = 2
    activate(g, 0)
    assert ("rally", 1) not in g.decision().options


def test_leadership_test_must_score_higher_than_lv():
    """L1182 the unit rolls its quality die and must score higher than its leadership value."""
    for roll, ok in ((2, False), (3, True)):
        g = begin(scenario([unit("A", (24, 5), confidence="shaken")], [unit("B", (24, 35))]),
                  [("d8", roll)] + ([("d6", 1)] if ok else []))
        activate(g, 0)
        g.apply(("move", 0, 3))
        assert last_event(g, "LeadershipTested")["passed"] is ok


def kill_leader(red=None, confidence_roll=8, commitment="high"):
    scn = scenario([unit("A", (24, 5), (("rifle", 5), ("lmg", 1)))],
                   [unit("B", (24, 35), (("rifle", 4),), **(red or {}))], commitment=("medium", commitment))
    scn["turn_limit"] = 3
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1), ("d8", 2), ("d4", 1), ("d8", 8), ("d4", 1),
            ("d8", confidence_roll)]
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    return g


def test_death_of_a_leader_immediate_test_then_both_actions_reorganise():
    """L1186 the unit immediately takes a confidence test; its next activation spends both actions reorganising, and
    at the end of it a new leader is appointed with a D6 for the new LV."""
    g = kill_leader(confidence_roll=3)
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"]) == ("leader_casualty", 3)
    g.apply(("end",))
    activate(g, 1)
    assert g.decision().options == (("reorganise", "leader"),)
    g.apply(("reorganise", "leader"))
    assert g.decision().options == (("reorganise", "leader"),)
    add_dice(g, ("d6", 2), ("d8", 8), ("d8", 1))
    g.apply(("reorganise", "leader"))
    a = last_event(g, "LeaderAppointed")
    assert (a["roll"], a["lv"]) == (2, 3)


@pytest.mark.parametrize("lv,roll,new", [(2, 1, 3), (2, 2, 3), (2, 3, 2), (2, 5, 2), (2, 6, 1), (1, 6, 1),
                                         (3, 1, 3)])
def test_new_leader_lv(lv, roll, new):
    """L1186 D6: 1-2 worse (higher LV), 6 better (lower LV), otherwise the same (kept within 1..3, RN-116)."""
    g = kill_leader(red={"leadership": lv})
    g.apply(("end",))
    activate(g, 1)
    g.apply(("reorganise", "leader"))
    add_dice(g, ("d6", roll), ("d8", 8), ("d8", 1))
    g.apply(("reorganise", "leader"))
    assert g.unit(1).lv == new


def test_a_leaderless_unit_ordered_by_its_commander_reorganises_then_appoints():
    """L1186 "the next time the unit activates" includes an ordered activation (L993): both actions reorganise and a
    new leader is appointed at its end."""
    blue = [unit("HQ", (24, 2), (("rifle", 2),), kind="hq", leadership=1),
            unit("A", (10, 14), commander="HQ", leadership=2)]
    g = begin(scenario(blue, [unit("B", (24, 46))]), [("d8", 5), ("d6", 4)])
    g.unit(1).leader_lost = True
    g.unit(1).set_figure(0, status=KILLED)
    activate(g, 0)
    g.apply(("order", 1))
    assert g.decision().options == (("reorganise", "leader"),)
    g.apply(("reorganise", "leader"))
    g.apply(("reorganise", "leader"))
    assert last_event(g, "LeaderAppointed")["unit"] == 1 and not g.unit(1).leader_lost and acting(g) == ("action", 0)


def test_commander_casualty_every_subordinate_tests_with_plus_one():
    """L1188 if a commander becomes a casualty, all subordinate units immediately test with +1 to the target."""
    blue = [unit("A", (24, 5), (("rifle", 5), ("lmg", 1)))]
    red = [unit("HQ", (24, 35), (("rifle", 4),), kind="hq", leadership=2),
           unit("S1", (10, 40), commander="HQ", leadership=2), unit("S2", (38, 40), commander="HQ", leadership=2)]
    scn = scenario(blue, red, commitment=("medium", "high"))
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1), ("d8", 2), ("d4", 1), ("d8", 8), ("d4", 1),
            ("d8", 8),  # the HQ's own leader-casualty test
            ("d8", 3), ("d8", 4)]  # S1, S2: 0 + 1 + LV 2 = 3 needed
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    tests = [(e["unit"], e["reason"], e["needed"], e["levels_dropped"]) for e in events_of(g, "ConfidenceTested")]
    assert tests == [(1, "leader_casualty", 3, 0), (2, "commander_casualty", 3, 1),
                     (3, "commander_casualty", 3, 0)]
    g.apply(("end",))
    assert g.decision().kind == "promote"  # no second in command: the player may promote one subordinate (L1190)


def test_a_reinforcement_off_the_table_takes_no_commander_casualty_test():
    """L1188 "all subordinate units must immediately take a confidence test": a reinforcement whose counter is still
    on the inbound track is not in play (RN-360) and does not test (a reading, RN-1006); the units on the table do."""
    blue = [unit("A", (24, 5), (("rifle", 5), ("lmg", 1)))]
    red = [unit("HQ", (24, 35), (("rifle", 4),), kind="hq", leadership=2, second_in_command=True),
           unit("S1", (10, 40), commander="HQ", leadership=2), unit("S2", (38, 46), commander="HQ", inbound=2)]
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1), ("d8", 2), ("d4", 1), ("d8", 8), ("d4", 1),
            ("d8", 8), ("d8", 8)]  # the HQ's own test, then S1's
    g = begin(scenario(blue, red, commitment=("medium", "high")), dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert [(e["unit"], e["reason"]) for e in events_of(g, "ConfidenceTested")] == \
        [(1, "leader_casualty"), (2, "commander_casualty")] and g.dice.remaining == 0


def test_commander_casualty_second_in_command_takes_over_the_hq():
    """L1188 a second in command within the headquarters takes command of it as if it were a normal unit: no
    promotion; the HQ reorganises for a new leader and keeps its command (RN-249)."""
    blue = [unit("A", (24, 5), (("rifle", 5), ("lmg", 1)))]
    red = [unit("HQ", (24, 35), (("rifle", 4),), kind="hq", leadership=2, second_in_command=True),
           unit("S1", (10, 40), commander="HQ", leadership=2)]
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1), ("d8", 2), ("d4", 1), ("d8", 8), ("d4", 1),
            ("d8", 8), ("d8", 8)]
    g = begin(scenario(blue, red, commitment=("medium", "high")), dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    g.apply(("end",))
    assert g.decision().kind == "activate" and last_event(g, "CommanderLost")["second_in_command"] is True
    activate(g, 1)
    assert g.decision().options == (("reorganise", "leader"),)


def test_promoted_unit_assumes_command_then_appoints_a_leader():
    """L1190 no second in command: the player may promote a subordinate; when its unit activates it takes one
    reorganise action to assume the command and a second to appoint a new leader (D6 for its LV)."""
    blue = [unit("A", (24, 5), (("rifle", 5), ("lmg", 1)))]
    red = [unit("HQ", (24, 35), (("rifle", 4),), kind="hq", leadership=2),
           unit("S1", (10, 40), commander="HQ", leadership=2), unit("S2", (38, 40), commander="HQ", leadership=2)]
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1), ("d8", 2), ("d4", 1), ("d8", 8), ("d4", 1),
            ("d8", 8), ("d8", 8), ("d8", 8)]
    g = begin(scenario(blue, red, commitment=("medium", "high")), dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    g.apply(("end",))
    assert g.decision().options == (("choose", 2), ("choose", 3), ("decline",))
    g.apply(("choose", 2))
    activate(g, 2)
    assert g.decision().options == (("reorganise", "assume_command"),)
    g.apply(("reorganise", "assume_command"))
    assert g.decision().options == (("reorganise", "leader"),)
    add_dice(g, ("d6", 6))
    g.apply(("reorganise", "leader"))
    assert g.unit(2).lv == 1 and g.unit(3).commander == 2


def test_leaderless_reorganisation_comes_before_a_broken_units_withdrawal():
    """L1186 "Regardless of the result" of the test, the next activation reorganises (RN-185): even a unit the test
    broke in the open."""
    g = kill_leader(confidence_roll=1, commitment="low")  # low: 3 + LV 2 = 5 needed; 1 < 5 // 2 drops two
    assert g.unit(1).confidence == 2
    g.unit(1).confidence = 3  # broken, in the open
    g.apply(("end",))
    activate(g, 1)
    assert g.decision().options == (("reorganise", "leader"),)


@pytest.mark.parametrize("close_combat", ["standard", "house"])
def test_a_leader_falling_in_close_combat_makes_the_unit_test_at_once(close_combat):
    """L1186 "When this occurs, the unit must immediately take a confidence test": seeded games until a Red assault
    wounds or kills Blue A's leader in close combat (the standard rules, and seed 003's house close combat); A must
    then take a leader-casualty test."""
    opts = {"close_combat": "house"} if close_combat == "house" else None
    for seed in range(300):
        g = Game(scenario([unit("A", (24, 30))], [unit("R", (24, 33.5), (("rifle", 10),))]), seed=seed, options=opts)
        while g.decision().kind == "initiative":
            g.apply(("second",) if g.decision().side == 0 else ("first",))
        if g.decision().side != 1:
            continue
        g.apply(("activate", 1))
        g.apply(("assault", 0))
        while not g.over and g.decision().kind != "activate":
            g.apply(g.decision().options[0])
        if any(e["type"] == "LeaderLost" and e["unit"] == 0 for e in g.event_log()):
            break
    else:
        pytest.fail("no seed made A's leader a close-combat casualty")
    assert [e for e in g.event_log() if e["type"] == "ConfidenceTested" and e["unit"] == 0
            and e["reason"] == "leader_casualty"]


def test_a_leader_falling_to_final_defensive_fire_makes_the_unit_test_at_once():
    """L1186 again: seeded games until Blue's final defensive fire (before any close-combat strike) wounds or kills
    the leader of the assaulting Red unit; Red must then take a leader-casualty test."""
    for seed in range(400):
        g = Game(scenario([unit("A", (24, 24), (("lmg", 3), ("rifle", 5)))], [unit("R", (24, 33))]), seed=seed)
        while g.decision().kind == "initiative":
            g.apply(("second",) if g.decision().side == 0 else ("first",))
        if g.decision().side != 1:
            continue
        g.apply(("activate", 1))
        g.apply(("assault", 0))
        while not g.over and g.decision().kind != "activate":
            d = g.decision()
            g.apply(next((o for o in d.options if o[0] in ("fire", "defensive_fire", "shoot")), d.options[0]))
        log = g.event_log()
        lost = [i for i, e in enumerate(log) if e["type"] == "LeaderLost" and e["unit"] == 1]
        if lost and not any(e["type"] == "StrikeResolved" for e in log[:lost[0]]):
            break
    else:
        pytest.fail("no seed made R's leader a casualty of defensive fire")
    assert [e for e in log if e["type"] == "ConfidenceTested" and e["unit"] == 1 and e["reason"] == "leader_casualty"]
