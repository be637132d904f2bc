"""Morale › Panic and Terror: who tests when, the panicked unit's recovery, commanders' help, routing while
panicked.  Forced dice throughout (seed 000 "Panic", "Terror")."""
import pytest

from conftest import activate, begin, events_of, last_event, rect, scenario, unit
from dustup_env.rules import ScriptedDice
from dustup_env.rules.kernel.entities import BROKEN, ROUTED, SHAKEN, STEADY
from dustup_env.rules.morale.confidence_test import confidence_test
from dustup_env.rules.morale.panic import counts_as_armour, provokes_terror

HIDE = rect("building", 0, 18, 48, 22)  # blocks every line of sight across the table


def duel(blue=None, red=None, terrain=(), bpos=(24, 5), rpos=(24, 35)):
    return scenario([unit("A", bpos, **(blue or {}))], [unit("B", rpos, **(red or {}))], terrain=terrain)


def panic_events(g):
    return [(e["unit"], e["reason"], e["roll"], e["needed"], e["passed"]) for e in events_of(g, "PanicTested")]


def test_untrained_unit_tests_on_first_sight_of_the_enemy_and_passes_for_good():
    g = begin(duel(blue={"quality": "d4"}), [("d4", 3), ("d8", 8), ("d8", 1)])  # (+ turn 2 initiative)
    activate(g, 0)
    assert panic_events(g) == [(0, "first_sight_of_enemy", 3, 2, True)]
    a = g.units[0]
    assert a.panic_passed and not a.panicked
    assert ("panic_test",) not in g.decision().options
    g.apply(("end",))
    activate(g, 1)
    g.apply(("end",))
    assert len(events_of(g, "PanicTested")) == 1 and g.dice.remaining == 0


def test_failed_panic_test_leaves_only_the_panic_test_using_both_actions():
    g = begin(duel(blue={"quality": "d4"}), [("d4", 2), ("d4", 2)])
    activate(g, 0)
    assert g.units[0].panicked and g.decision().options == (("panic_test",),)
    g.apply(("panic_test",))
    r = last_event(g, "PanicTested")
    assert (r["reason"], r["roll"], r["passed"], r["levels_dropped"]) == ("recovery", 2, False, 0)
    assert g.decision().kind == "activate" and g.current == 1  # both actions used
    assert g.units[0].panicked and g.dice.remaining == 0


def test_recovery_passes_removes_panic_for_the_rest_of_the_game():
    g = begin(duel(blue={"quality": "d4"}), [("d4", 1), ("d4", 4)])
    activate(g, 0)
    g.apply(("panic_test",))
    a = g.units[0]
    assert not a.panicked and a.panic_passed and g.current == 1 and g.dice.remaining == 0


def test_recovery_below_half_drops_a_confidence_level():
    # LV 3: 2 x 1 < 3 drops a level; LV 2: 2 x 1 = 2 does not (RN-025: strictly less than half)
    g = begin(duel(blue={"quality": "d4", "leadership": 3}), [("d4", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("panic_test",))
    assert last_event(g, "PanicTested")["levels_dropped"] == 1 and g.units[0].confidence == STEADY
    g = begin(duel(blue={"quality": "d4", "leadership": 2}), [("d4", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("panic_test",))
    assert last_event(g, "PanicTested")["levels_dropped"] == 0 and g.units[0].confidence == 0


def test_panicked_unit_forced_to_rout_can_never_be_rallied():
    g = begin(duel(blue={"quality": "d4", "leadership": 3}), [("d4", 1), ("d4", 1)])
    g.units[0].confidence = BROKEN
    activate(g, 0)
    g.apply(("panic_test",))
    a = g.units[0]
    assert a.confidence == ROUTED and a.panic_routed and a.panicked


def test_no_line_of_sight_no_panic_test():
    g = begin(duel(blue={"quality": "d4"}, terrain=[HIDE]))
    activate(g, 0)
    assert events_of(g, "PanicTested") == [] and g.units[0].panic_triggers == 0


def test_enemy_moving_into_sight_triggers_the_test_at_once():
    # B moves 6" east from behind the building's end into the open: the untrained A sees it
    scn = duel(blue={"quality": "d4"}, terrain=[rect("building", 0, 18, 32, 22)], bpos=(44, 5), rpos=(44, 30))
    scn["sides"][1]["units"][0]["position"] = [36.0, 30.0]
    g = begin(scn, [("d6", 6), ("d4", 4)], first=1)
    a = g.units[0]
    a.x, a.y = 24.0, 5.0
    assert not g.bf.has_los(24, 5, 36, 30)
    activate(g, 1)
    g.apply(("move", 4, 1))  # east 6": to (42, 30), now visible
    assert g.bf.has_los(24, 5, g.units[1].x, g.units[1].y)
    assert panic_events(g) == [(0, "first_sight_of_enemy", 4, 2, True)] and g.dice.remaining == 0


def test_green_unit_tests_the_first_time_it_is_fired_on():
    g = begin(duel(blue={"quality": "d6"}, red={"quality": "d6"}), [("d8", 8), ("d6", 1), ("d6", 1), ("d6", 3)],
              first=1)
    activate(g, 1)
    g.apply(("shoot", 0, "all"))
    assert panic_events(g) == [(0, "first_fired_on", 3, 2, True)] and g.dice.remaining == 0


def test_green_unit_panicked_by_fire_and_not_tested_again():
    g = begin(duel(blue={"quality": "d6"}, red={"quality": "d6"}),
              [("d8", 8), ("d6", 1), ("d6", 1), ("d6", 1)], first=1)
    activate(g, 1)
    g.apply(("shoot", 0, "all"))
    assert g.units[0].panicked
    g.apply(("end",))
    activate(g, 0)
    assert g.decision().options == (("panic_test",),) and g.dice.remaining == 0


@pytest.mark.parametrize("quality,armour,terror,tests", [
    ("d6", "light_power", False, True), ("d6", "basic_battledress", True, True),
    ("d6", "basic_battledress", False, False), ("d8", "light_power", False, False),
    ("d8", "basic_battledress", True, True), ("d10", "basic_battledress", True, False),
    ("d12", "heavy_power", True, False)])
def test_sight_triggers_by_quality(quality, armour, terror, tests):
    g = begin(duel(blue={"quality": quality}, red={"armour": armour, "terror": terror}),
              [(quality, 6)] if tests else [])
    activate(g, 0)
    evs = events_of(g, "PanicTested")
    assert bool(evs) == tests and g.dice.remaining == 0
    if tests:
        assert evs[0]["reason"] == ("first_sight_of_terror" if terror else "first_sight_of_armour")


def test_terror_and_armour_helpers():
    g = begin(duel(red={"armour": "light_power", "terror": True}))
    assert provokes_terror(g.units[1]) and counts_as_armour(g, g.units[1])
    assert not provokes_terror(g.units[0]) and not counts_as_armour(g, g.units[0])


def test_panicked_unit_in_contact_with_a_superior_commander_uses_its_leadership():
    blue = [unit("HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d10", leadership=1),
            unit("A", (24, 6), quality="d4", leadership=3, commander="HQ")]
    g = begin(scenario(blue, [unit("B", (24, 35))]), [("d4", 1), ("d4", 2)])
    activate(g, 1)  # first sight: 1 vs LV 3: panics (no commander's help for the first test)
    assert g.units[1].panicked
    g.apply(("panic_test",))  # 2 > the HQ's LV 1
    r = last_event(g, "PanicTested")
    assert (r["needed"], r["commander"], r["passed"]) == (1, 0, True) and g.dice.remaining == 0


def test_panicked_unit_may_still_be_ordered_and_then_tests():
    blue = [unit("HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d10", leadership=1),
            unit("A", (10, 14), quality="d4", leadership=2, commander="HQ")]
    g = begin(scenario(blue, [unit("B", (24, 35))]), [("d10", 5), ("d4", 1), ("d4", 4)])
    activate(g, 0)
    g.apply(("order", 1))  # the ordered activation starts: first sight, panics
    assert g.decision().options == (("panic_test",),)
    g.apply(("panic_test",))
    assert not g.units[1].panicked and g.decision().unit == 0 and g.actions_left == 1
    assert g.dice.remaining == 0


def test_confidence_test_still_applies_to_panicked_units():
    g = begin(duel(blue={"quality": "d6"}, red={"quality": "d6"}), [], first=1)
    g.units[0].panicked = True
    confidence_test(ScriptedDice([1]), g.units[0], ["leader_casualty"], events=g.events)
    assert g.units[0].confidence == 2 and not g.units[0].panic_routed
    g.units[0].confidence = SHAKEN + 1
    confidence_test(ScriptedDice([1]), g.units[0], ["leader_casualty"], events=g.events)
    assert g.units[0].confidence == ROUTED and g.units[0].panic_routed
