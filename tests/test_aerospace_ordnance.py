"""Aerospace Operations: deadfall weapons (seed 000 L1778-1784; aerospace_operations/ordnance.py): the D6" forward
placement, several bombs on one target or in a stick, straight down from a hover, none while grounded; each bomb a
burst on the ground with suppression and the confidence test with the artillery modifier (L1134).  Forced dice."""
from aerospace_helpers import air_scenario, aircraft
from conftest import activate, begin, last_event, unit

from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.aerospace_operations.ordnance import impact_points

A = 1


def fighter(dice=(), red=()):
    g = begin(air_scenario([aircraft("Fighter", (24, 10), design="aerospace_fighter", facing=0)], red=list(red)), dice)
    activate(g, A)
    return g


def test_one_bomb_falls_d6_inches_ahead_and_bursts_with_suppression_and_the_artillery_modifier():
    red = [unit("Target", (24, 14), figures=(("rifle", 1),), armour="partial_light")]
    g = fighter([("d6", 4), ("d8", 1), 4, ("d8", 5)], red)  # the impact D8 1 against the armour 4: no effect
    assert ("air_bomb", "one") in g.decision().options and ("air_bomb", "stick") not in g.decision().options
    g.apply(("air_bomb", "one"))
    assert g.dice.remaining == 0
    b = last_event(g, "BombDropped")
    assert (b["x"], b["y"], b["roll"]) == (24.0, 14.0, 4)
    t = g.units[2]
    assert t.suppression == 1
    c = last_event(g, "ConfidenceTested")
    assert c["unit"] == 2 and c["needed"] == 1 + 1 + 2  # first suppressed (medium) + artillery (medium) + leadership
    assert air.air_state(g, g.units[A])["bombs"] == 0
    assert not any(o[0] == "air_bomb" for o in g.decision().options)  # no load left


def test_several_bombs_on_one_target_or_in_a_stick():
    g = fighter([("d6", 3), ("d6", 2)])
    air.air_state(g, g.units[A])["bombs"] = 2
    assert [p[:2] for p in impact_points(g, g.units[A], "same")] == [(24.0, 13.0), (24.0, 12.0)]
    g = fighter([("d6", 3), ("d6", 2)])
    air.air_state(g, g.units[A])["bombs"] = 2
    assert [p[:2] for p in impact_points(g, g.units[A], "stick")] == [(24.0, 13.0), (24.0, 15.0)]


def test_bombs_from_a_hover_fall_straight_down_and_none_while_grounded():
    g = fighter()
    a = air.air_state(g, g.units[A])
    a["mode"], a["bombs"] = "hovering", 2
    assert impact_points(g, g.units[A], "same") == [(24.0, 10.0, 0), (24.0, 10.0, 0)]  # no dice rolled
    a["mode"] = "grounded"
    g.pending_decision = None
    assert not any(o[0] == "air_bomb" for o in g.decision().options)


def test_a_bomb_tests_a_unit_already_suppressed_and_under_fire_as_an_artillery_round_does():
    """L1134 with L1689: a bomb is an aerospace attack, resolved as an artillery round's blast: a unit in it that has
    already been under fire and suppressed (no trigger left) still takes its one test, on a base of 0 with the
    artillery modifier (RN-113), and gains a marker."""
    red = [unit("Target", (24, 14), figures=(("rifle", 1),), armour="partial_light")]
    g = fighter([("d6", 4), ("d8", 1), 4, ("d8", 5)], red)  # the impact D8 1 against the armour 4: no effect
    t = g.units[2]
    t.under_fire_before = t.suppressed_before = True
    t.suppression = 1
    g.apply(("air_bomb", "one"))
    assert g.dice.remaining == 0 and t.suppression == 2
    c = last_event(g, "ConfidenceTested")
    assert c["unit"] == 2 and c["needed"] == 0 + 1 + 2  # no trigger: base 0, + artillery (medium) + leadership
