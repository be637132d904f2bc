"""Artillery and Air Support: the ammunition, the round sizes and Resolving Impacts (seed 000 L1571-1590,
L1663-1697; artillery_and_air_support/impacts.py).  Forced dice for every rule; the accuracy odds against an exact
enumeration written here independently of the engine, and seeded rolls against them."""
import copy
import json
import math
from fractions import Fraction

import pytest
from conftest import SIDE0_WINS, events_of, last_event, rect, scenario, unit, wall
from vehicle_helpers import vehicle

from dustup_env.rules import Game, ScriptedDice
from dustup_env.rules.artillery_and_air_support import impacts
from dustup_env.rules.kernel.data import DATA, ScenarioError
from dustup_env.rules.kernel.dice import D4, D6, D8, D10, D12, SeededDice, parse_die
from dustup_env.rules.kernel.entities import KILLED, WOUNDED
from dustup_env.rules.kernel.ruleset import Rule

AIM = (24.0, 30.0)


def mission(**kw):
    m = {"side": 0, "x": AIM[0], "y": AIM[1], "ammo": "general", "size": "medium", "rounds": 1, "observer": 0,
         "guidance": "none", "asset": "company", "firer": None, "requestor": 0, "observer_role": "fo",
         "equipment": "basic"}
    m.update(kw)
    return m


def field(red=None, blue_extra=(), **kw):
    """Blue observer O (uid 0, leadership 2, 28" south of the aim point, seeing it), then ``blue_extra``; red: by
    default one single-figure squad R on the aim point."""
    blue = [unit("O", (24, 2), figures=(("rifle", 2),), leadership=2)] + list(blue_extra)
    red = [unit("R", AIM, figures=(("rifle", 1),))] if red is None else red
    return scenario(blue, red, **kw)


def game(scn, dice=()):
    g = Game(scn, dice=ScriptedDice(SIDE0_WINS + list(dice)))
    g.apply(("first",))
    return g


# ---------------------------------------------------------------------------------------------- ammunition (data)
def test_the_ammunition_and_size_tables_are_data_checked_on_load():
    data = impacts.artillery_data()
    a = data.ammunition
    assert (a["general"].vs_infantry, a["general"].vs_armour) == (D8, D8)  # L1579
    assert (a["anti_personnel"].vs_infantry, a["anti_personnel"].vs_armour) == (D12, D8)  # L1580
    assert (a["anti_armour"].vs_infantry, a["anti_armour"].vs_armour) == (D6, parse_die("d12x2"))  # L1581
    assert a["smoke"].registered and a["incendiary"].registered
    assert {s: impacts.burst_radius(s) for s in impacts.SIZES} == {"small": 3, "medium": 4, "large": 6,
                                                                     "very_large": 10}  # L1587-1590
    doc = json.loads((DATA / "artillery.json").read_text())
    bad = copy.deepcopy(doc)
    bad["ammunition"]["general"]["vs_infantry"] = "d7"
    with pytest.raises(ScenarioError, match="ammunition/general/vs_infantry"):
        impacts._parse(bad, "artillery.json")
    bad = copy.deepcopy(doc)
    bad["ammunition"]["smoke"]["vs_armour"] = "d8"  # a registered effect has no impact dice
    with pytest.raises(ScenarioError, match="ammunition/smoke"):
        impacts._parse(bad, "artillery.json")
    bad = copy.deepcopy(doc)
    del bad["sizes"]["very_large"]
    with pytest.raises(ScenarioError, match="very_large"):
        impacts._parse(bad, "artillery.json")
    with pytest.raises(ValueError, match="unknown round size 'huge'"):
        impacts.burst_radius("huge")


# ---------------------------------------------------------------------------------------------- accuracy
def test_the_accuracy_die_by_equipment_observer_and_guidance():
    die = impacts.accuracy_die
    assert (die("basic"), die("advanced"), die("superior"), die(None), die("none")) == (D6, D8, D10, D4, D4)
    assert die("basic", "laser", True) == D8 and die("basic", "laser", False) == D6  # only while it sees the target
    assert die("basic", "self") == D10 and die(None, "self") == D8
    assert die("superior", "self") == D12 and die("advanced", "self") == D12  # closed at D12 (RN-152)
    with pytest.raises(ValueError, match="unknown range-finding equipment 'great'"):
        die("great")


def test_on_target_only_when_the_roll_is_higher_than_the_observers_leadership():
    # basic equipment (D6), leadership 2: a 3 is on target; the figure on the aim point rolls impact D8 against D4
    g = game(field(), [("d6", 3), ("d8", 2), ("d4", 3), ("d8", 1)])  # the last: R's confidence test (its quality)
    pts = impacts.resolve_mission(g, mission())
    assert pts == [AIM] and g.dice.remaining == 0
    r = last_event(g, "RoundLanded")
    assert (r["die"], r["roll"], r["leadership"], r["on_target"], r["at"]) == ("d6", 3, 2, True, list(AIM))
    # a 2 (equal to the leadership) is not on target: it scatters 2 x D8
    g = game(field(), [("d6", 2), ("d8", 4), ("d12", 12)])
    pts = impacts.resolve_mission(g, mission())
    assert pts == [(24.0, 38.0)] and g.dice.remaining == 0  # 8" towards 12 o'clock: out of R's way
    r = last_event(g, "RoundLanded")
    assert (r["on_target"], r["multiplier"], r["distance"], r["hour"]) == (False, 4, 8.0, 12)
    assert last_event(g, "BlastStruck")["units"] == []


def test_an_observer_who_is_not_a_forward_observer_rolls_a_d4():
    g = game(field(), [("d4", 3), ("d8", 1), ("d4", 4), ("d8", 8)])
    impacts.resolve_mission(g, mission(observer_role="other", equipment="superior"))  # equipment is the FO's only
    assert last_event(g, "RoundLanded")["die"] == "d4" and g.dice.remaining == 0
    g = game(field(), [("d4", 3), ("d8", 1), ("d4", 4), ("d8", 8)])
    impacts.resolve_mission(g, mission(observer_role="lo", equipment="superior"))  # a liaison officer is not an FO
    assert last_event(g, "RoundLanded")["die"] == "d4"
    g = game(field(), [("d6", 3), ("d8", 1), ("d4", 4), ("d8", 8)])
    impacts.resolve_mission(g, mission(equipment=None))  # an FO with no rating: basic (RN-1452)
    assert last_event(g, "RoundLanded")["die"] == "d6"


@pytest.mark.parametrize("hour,dx,dy", [(12, 0, 1), (3, 1, 0), (6, 0, -1), (9, -1, 0), (1, 0.5, math.sqrt(3) / 2),
                                        (4, math.sqrt(3) / 2, -0.5)])
def test_scatter_is_the_roll_times_a_d8_in_a_clockface_direction(hour, dx, dy):
    # roll 1 (not above leadership 2) x D8 5 = 5" from the aim point, 12 o'clock towards +y, 30 degrees clockwise
    g = game(field(red=[unit("R", (4, 46), figures=(("rifle", 1),))]), [("d6", 1), ("d8", 5), ("d12", hour)])
    (x, y), = impacts.resolve_mission(g, mission())
    assert (x, y) == pytest.approx((AIM[0] + 5 * dx, AIM[1] + 5 * dy))
    r = last_event(g, "RoundLanded")
    assert (r["roll"], r["multiplier"], r["distance"], r["hour"], r["origin"]) == (1, 5, 5.0, hour, list(AIM))


def test_guided_rounds_scatter_the_roll_alone_and_the_laser_shift_needs_sight():
    # self-guided: D6 up twice = D10; a 2 is not on target and scatters 2" (no D8 rolled)
    g = game(field(red=[unit("R", (4, 46), figures=(("rifle", 1),))]), [("d10", 2), ("d12", 3)])
    (x, y), = impacts.resolve_mission(g, mission(guidance="self"))
    assert (x, y) == pytest.approx((26.0, 30.0)) and g.dice.remaining == 0
    assert last_event(g, "RoundLanded")["multiplier"] == 1
    # laser-guided, the observer sees the aim point: D8
    g = game(field(red=[unit("R", (4, 46), figures=(("rifle", 1),))]), [("d8", 1), ("d12", 6)])
    (x, y), = impacts.resolve_mission(g, mission(guidance="laser"))
    assert (x, y) == pytest.approx((24.0, 29.0)) and g.dice.remaining == 0
    # a building between the observer and the aim point: no laser shift (D6), and still no multiplier
    scn = field(red=[unit("R", (4, 46), figures=(("rifle", 1),))], terrain=[rect("building", 20, 12, 28, 18)])
    g = game(scn, [("d6", 1), ("d12", 6)])
    impacts.resolve_mission(g, mission(guidance="laser"))
    assert last_event(g, "RoundLanded")["die"] == "d6" and g.dice.remaining == 0


def test_without_an_observer_in_play_the_rounds_are_never_on_target():
    g = game(field(red=[unit("R", (4, 46), figures=(("rifle", 1),))]), [("d4", 4), ("d8", 1), ("d12", 3)])
    (x, y), = impacts.resolve_mission(g, mission(observer=None))
    assert (x, y) == pytest.approx((28.0, 30.0))  # a 4 would beat any leadership: no observer, no leadership
    r = last_event(g, "RoundLanded")
    assert r["leadership"] == -1 and not r["on_target"] and g.dice.remaining == 0


# ---------------------------------------------------------------------------------------------- several rounds
def test_every_later_round_is_placed_from_the_first_impact_point():
    # round 1 scatters 1 x 4 = 4" to 3 o'clock: (28, 30); round 2 is on target: it lands on the FIRST impact point,
    # not the aim point; round 3 scatters 2 x 1 = 2" to 12 o'clock from the first impact point: (28, 32)
    red = [unit("R", (4, 46), figures=(("rifle", 1),))]
    dice = [("d6", 1), ("d8", 4), ("d12", 3), ("d6", 6), ("d6", 2), ("d8", 1), ("d12", 12)]
    g = game(field(red=red), dice)
    pts = impacts.resolve_mission(g, mission(rounds=3))
    assert pts == [pytest.approx((28.0, 30.0)), pytest.approx((28.0, 30.0)), pytest.approx((28.0, 32.0))]
    assert g.dice.remaining == 0
    rounds = events_of(g, "RoundLanded")
    assert [r["origin"] for r in rounds] == [list(AIM), [28.0, 30.0], [28.0, 30.0]]
    # round 2 scatters 4" east of the first impact (32, 30); round 3 scatters 1" to 9 o'clock from the FIRST impact
    # point (27, 30), not from round 2's (31, 30) nor from the aim point (23, 30)
    dice = [("d6", 1), ("d8", 4), ("d12", 3), ("d6", 1), ("d8", 4), ("d12", 3), ("d6", 1), ("d8", 1), ("d12", 9)]
    g = game(field(red=red), dice)
    pts = impacts.resolve_mission(g, mission(rounds=3))
    assert pts == [pytest.approx((28.0, 30.0)), pytest.approx((32.0, 30.0)), pytest.approx((27.0, 30.0))]
    assert [r["origin"] for r in events_of(g, "RoundLanded")] == [list(AIM), [28.0, 30.0], [28.0, 30.0]]


def test_a_figure_tests_its_armour_against_each_blast_and_the_unit_one_marker_and_one_test():
    red = [unit("R", AIM, figures=(("rifle", 2),), commitment="high")]
    dice = [("d6", 3), ("d8", 2), ("d4", 2), ("d8", 1), ("d4", 1),  # round 1 on target: no effect on either figure
            ("d6", 6), ("d8", 3), ("d4", 2), ("d8", 1), ("d4", 4),  # round 2 (the first impact point): 3 > 2 wounds
            ("d8", 4)]  # one test: first under fire and first suppressed are not tested at high commitment; the
    #                     wounded figure is the leader: leader casualty (high: 1) + leadership 2 + artillery +0 = 3
    g = game(field(red=red), dice)
    impacts.resolve_mission(g, mission(rounds=2))
    r = g.units[1]
    assert g.dice.remaining == 0 and r.figures[0].status == WOUNDED
    assert [(e["target"], e["figure"]) for e in events_of(g, "HitResolved")] == [(1, 0), (1, 1), (1, 0), (1, 1)]
    assert [e["units"] for e in events_of(g, "BlastStruck")] == [[1], [1]]
    assert r.suppression == 1 and len(events_of(g, "Suppressed")) == 1
    (t,) = events_of(g, "ConfidenceTested")
    assert (t["unit"], t["reason"], t["needed"], t["levels_dropped"]) == (1, "leader_casualty", 3, 0)
    assert last_event(g, "LeaderLost")["unit"] == 1


@pytest.mark.parametrize("commitment,needed", [("low", 2 + 2 + 2), ("medium", 1 + 2 + 1), ("high", 0 + 2 + 0)])
def test_every_unit_in_the_blast_is_suppressed_and_tests_with_the_artillery_modifier(commitment, needed):
    # unharmed, the unit is still suppressed and tests (L1689): first suppressed (low 2, above first under fire 1) /
    # / first suppressed (medium 1) / no trigger at high commitment: base 0 (RN-113); the artillery modifier +2/+1/+0 (L1134)
    red = [unit("R", AIM, figures=(("rifle", 1),), commitment=commitment, leadership=2)]
    g = game(field(red=red), [("d6", 3), ("d8", 1), ("d4", 4), ("d8", needed)])
    impacts.resolve_mission(g, mission())
    t = last_event(g, "ConfidenceTested")
    assert t["needed"] == needed and t["levels_dropped"] == 1 and g.dice.remaining == 0
    assert t["reason"] == {"low": "first_suppressed", "medium": "first_suppressed", "high": "artillery_blast"}[
        commitment]
    assert g.units[1].suppression == 1


def test_friendly_fire_and_the_cover_between_the_point_and_the_figure():
    # a blue squad 3" east of the aim point is caught too (L1679); a red figure 3" west behind a hedge gains a shift
    blue_b = unit("B", (27, 30), figures=(("rifle", 1),))
    red = [unit("R", (21, 30), figures=(("rifle", 1),))]
    scn = field(red=red, blue_extra=[blue_b], obstacles=[wall("hedge", 22.5, 27, 22.5, 33, cost=1)])
    dice = [("d6", 3),
            ("d8", 8), ("d4", 3),  # B (uid 1): 8 > 2 x 3: killed
            ("d8", 8), ("d6", 5)]  # R (uid 2): its D4 up to D6 behind the hedge: 8 > 5, a wound
    g = game(scn, dice)
    impacts.resolve_mission(g, mission(size="small"))
    assert g.dice.remaining == 0
    assert g.units[1].figures[0].status == KILLED and g.units[2].figures[0].status == WOUNDED
    assert last_event(g, "BlastStruck")["units"] == [1, 2]
    assert not events_of(g, "ConfidenceTested")  # neither has an able figure left: out of play, no test


def test_impact_dice_by_ammunition_and_vehicles_by_top_or_facing_armour():
    # anti-armour submunitions: D6 against infantry, D12x2 against the tank under the point (its top) and the light
    # tank in the radius (its facing towards the point); anti-personnel: D12 against infantry, D8 against armour
    red = [unit("R", (24, 33), figures=(("rifle", 1),)), vehicle("T", AIM, "main_battle_tank", facing=180),
           vehicle("L", (19, 30), "light_tank", facing=90)]
    dice = [("d6", 3),
            ("d6", 1), ("d4", 1),  # R: impact D6
            ("d12x2", 2), ("d12x2", 10),  # T: top armour D12x2
            ("d12x2", 2), ("d12x2", 4),  # L: front (towards the point) D12x2
            ("d8", 8), ("d8", 8), ("d8", 8)]  # the three tests
    g = game(field(red=red), dice)
    impacts.resolve_mission(g, mission(ammo="anti_armour", size="large"))
    assert g.dice.remaining == 0
    assert [(v["unit"], v["facing"]) for v in events_of(g, "VehicleHit")] == [(2, "top"), (3, "front")]
    dice = [("d6", 3), ("d12", 1), ("d4", 1), ("d8", 2), ("d12x2", 10), ("d8", 2), ("d12x2", 4),
            ("d8", 8), ("d8", 8), ("d8", 8)]
    g = game(field(red=red), dice)
    impacts.resolve_mission(g, mission(ammo="anti_personnel", size="large"))
    assert g.dice.remaining == 0
    # air-bursting cluster munitions: every vehicle in the radius by its top armour (the light tank's top is a D12)
    dice = [("d6", 3), ("d8", 1), ("d4", 1), ("d8", 2), ("d12x2", 10), ("d8", 2), ("d12", 4),
            ("d8", 8), ("d8", 8), ("d8", 8)]
    g = game(field(red=red), dice)
    impacts.resolve_mission(g, mission(size="large", air_burst=True))
    assert [(v["unit"], v["facing"]) for v in events_of(g, "VehicleHit")] == [(2, "top"), (3, "top")]
    assert g.dice.remaining == 0


def test_a_damaged_vehicle_takes_one_test_for_every_trigger_with_the_artillery_modifier():
    red = [vehicle("T", AIM, "light_tank", facing=180)]
    # impact D12x2 10 against the top D12 6: damaged (not more than double 12); one test, trigger vehicle damage
    # (medium 2) + leadership 2 + artillery 1 + no marker before = 5
    g = game(field(red=red), [("d6", 3), ("d12x2", 5), ("d12", 6), ("d8", 6)])
    impacts.resolve_mission(g, mission(ammo="anti_armour"))
    assert g.dice.remaining == 0 and g.units[1].veh.damage == 1
    (t,) = events_of(g, "ConfidenceTested")
    assert (t["reason"], t["needed"]) == ("vehicle_damage", 5)


def test_smoke_and_incendiary_rounds_are_placed_and_handed_to_a_registered_effect():
    g = game(field(), [("d6", 3), ("d6", 1), ("d8", 2), ("d12", 3)])
    pts = impacts.resolve_mission(g, mission(ammo="smoke", rounds=2))
    assert pts == [AIM, pytest.approx((26.0, 30.0))] and g.dice.remaining == 0
    e = last_event(g, "AmmunitionWithoutEffect")
    assert e["ammo"] == "smoke" and len(e["points"]) == 2
    assert not events_of(g, "HitResolved") and not events_of(g, "Suppressed")  # no impact, no test
    seen = []
    fire = Rule("Test fire", "a test-only rule", services={
        "ammo_effect_incendiary": lambda game, m, points, radius: seen.append((m["ammo"], points, radius))})
    g = Game(field(), rules=(fire,), dice=ScriptedDice(SIDE0_WINS + [("d6", 3)]))
    g.apply(("first",))
    impacts.resolve_mission(g, mission(ammo="incendiary", size="large"))
    assert seen == [("incendiary", [AIM], 6.0)] and not events_of(g, "AmmunitionWithoutEffect")


def test_burst_effects_for_an_aerospace_attack():
    g = game(field(), [("d8", 1), ("d4", 4), ("d8", 3)])
    struck = impacts.burst_effects(g, 0, AIM[0], AIM[1], "general", "small")
    assert struck == (1,) and g.dice.remaining == 0
    t = last_event(g, "ConfidenceTested")
    assert t["needed"] == 1 + 2 + 1  # first suppressed (medium) + leadership + the aerospace attack's modifier


def test_a_bad_mission_is_one_clear_error():
    g = game(field())
    for bad, msg in [({"ammo": "nerve_gas"}, "unknown ammunition 'nerve_gas'"), ({"size": "huge"}, "round size"),
                     ({"rounds": 0}, "1 or more rounds"), ({"side": 2}, "side is 0 or 1"),
                     ({"guidance": "magic"}, "unknown guidance"), ({"observer": 99}, "observer must be a unit id"),
                     ({"observer": 1}, "observer must be a unit of side 0")]:
        with pytest.raises(ValueError, match=msg):
            impacts.resolve_mission(g, mission(**bad))


def test_the_impact_events_narrate():
    from dustup_env.narrate import EVENT_TYPES, Knowledge, narrate_log

    g = game(field(), [("d6", 2), ("d8", 4), ("d12", 12), ("d6", 6)])
    impacts.resolve_mission(g, mission(rounds=2))
    assert {"FireMissionImpact", "RoundLanded", "BlastStruck", "AmmunitionWithoutEffect"} <= EVENT_TYPES
    lines = narrate_log(g.event_log(), Knowledge.spectator(g))
    assert any("fire mission arrives" in s and "2 medium rounds of general purpose" in s for s in lines)
    assert any("scatters 2 x 4 = 8\" towards 12 o'clock" in s for s in lines)


# ---------------------------------------------------------------------------------------------- the odds
def exact_accuracy(sides: int, leadership: int, guided: bool):
    """One round by hand: a fair die of ``sides`` faces; on target above the leadership; else roll x D8 (guided:
    the roll alone).  Written without the engine."""
    on = Fraction(0)
    scatter: dict = {}
    for roll in range(1, sides + 1):
        p = Fraction(1, sides)
        if roll > leadership:
            on += p
        elif guided:
            scatter[roll] = scatter.get(roll, 0) + p
        else:
            for d8 in range(1, 9):
                scatter[roll * d8] = scatter.get(roll * d8, 0) + p / 8
    return on, scatter


SIDES = {"none": 4, "basic": 6, "advanced": 8, "superior": 10}


@pytest.mark.parametrize("equipment", ["none", "basic", "advanced", "superior"])
@pytest.mark.parametrize("guidance", ["none", "laser", "self"])
@pytest.mark.parametrize("leadership", [0, 1, 2, 3, 5])
def test_the_accuracy_odds_equal_an_exact_enumeration(equipment, guidance, leadership):
    on, scatter = impacts.accuracy_distribution(None if equipment == "none" else equipment, leadership, guidance)
    steps = {"none": 0, "laser": 1, "self": 2}[guidance]
    order = [4, 6, 8, 10, 12]
    sides = order[min(order.index(SIDES[equipment]) + steps, 4)]
    e_on, e_scatter = exact_accuracy(sides, leadership, guidance != "none")
    assert abs(float(on) - float(e_on)) < 1e-9
    assert set(scatter) == set(e_scatter)
    assert all(abs(float(scatter[k]) - float(e_scatter[k])) < 1e-9 for k in scatter)
    assert on + sum(scatter.values()) == 1


def test_seeded_rounds_follow_the_exact_odds():
    """20,000 seeded rounds (advanced, leadership 2, unguided) through the engine's roll: the on-target share and the
    mean scatter within 4.5 standard errors of the exact values."""
    die = impacts.accuracy_die("advanced")
    dice = SeededDice(20261127)
    n = 20_000
    res = [impacts.roll_round(dice, die, 2, False) for _ in range(n)]
    e_on, e_scatter = exact_accuracy(8, 2, False)
    p = float(e_on)
    share = sum(1 for r in res if r[1]) / n
    assert abs(share - p) < 4.5 * math.sqrt(p * (1 - p) / n)
    mean = sum(float(k * v) for k, v in e_scatter.items())
    var = sum(float(k * k * v) for k, v in e_scatter.items()) - mean ** 2
    got = sum(r[3] for r in res) / n
    assert abs(got - mean) < 4.5 * math.sqrt(var / n)
    hours = [r[4] for r in res if not r[1]]
    assert set(hours) == set(range(1, 13))


@pytest.mark.parametrize("argv,sides,leadership,guided", [
    (["--equipment", "basic", "--leadership", "2"], 6, 2, False),
    (["--equipment", "advanced", "--leadership", "3", "--laser"], 10, 3, True),
    (["--equipment", "superior", "--leadership", "1", "--self-guided"], 12, 1, True),
    (["--equipment", "none", "--leadership", "2"], 4, 2, False),
    (["--equipment", "none", "--leadership", "0", "--self-guided"], 8, 0, True)])
def test_the_odds_command_prints_the_exact_accuracy_odds(capsys, argv, sides, leadership, guided):
    from dustup_cli.cli import main

    assert main(["odds", "accuracy", *argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    on, scatter = exact_accuracy(sides, leadership, guided)
    assert abs(out["on_target"] - float(on)) < 1e-9
    assert set(out["scatter"]) == {str(k) for k in scatter}
    assert all(abs(out["scatter"][str(k)] - float(v)) < 1e-9 for k, v in scatter.items())
    assert abs(out["on_target"] + sum(out["scatter"].values()) - 1) < 1e-9


def test_the_odds_command_refuses_bad_input_in_one_line(capsys):
    from dustup_cli.cli import main

    for argv in (["--laser", "--self-guided"], ["--equipment", "great"], ["--leadership", "-1"]):
        with pytest.raises(SystemExit) as e:
            main(["odds", "accuracy", *argv])
        assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 3


def test_a_hidden_enemy_in_the_blast_is_not_named_in_the_firers_log():
    red = [unit("R", (4, 46), figures=(("rifle", 1),)), unit("H", AIM, figures=(("rifle", 5),), hidden=True)]
    scn = field(red=red, terrain=[rect("light_woods", 20, 26, 28, 34)])
    g = Game(scn, seed=1)
    assert g.units[2].hidden
    impacts.resolve_mission(g, mission(observer_role="fo", equipment="superior", guidance="self"))  # D12 vs 2
    assert 2 in [u for e in events_of(g, "BlastStruck") for u in e["units"]]  # the full log names it
    mine = g.event_log(0)
    assert not any(e["type"] == "BlastStruck" and 2 in e["units"] for e in mine)
    assert not any(e.get("target") == 2 or e.get("unit") == 2 for e in mine)
    assert any(e["type"] == "HiddenActivity" for e in mine) and any(e["type"] == "RoundLanded" for e in mine)
