"""Command: the command tree, Communicate (bypassed levels, jamming), Order, Rally, Combined Assault (command
side) and the commander part of Death of a Leader.  Forced dice throughout (seed 000 "Commanders",
"Communicate Action", "Order Action", "Combined Assault", "Rally Action", "Death of a Leader")."""
import random

import pytest

from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, unit
from dustup_env.codec import ActionCodec
from dustup_env.rules import Game, ScenarioError
import dataclasses
from types import SimpleNamespace

from dustup_env.rules.forces import commanders as command
from dustup_env.rules.unit_actions import assault_action as real_assault
from dustup_env.rules.kernel.entities import BROKEN, CONFIDENT, KILLED, ROUTED, SHAKEN, STEADY

HQ = dict(kind="hq", quality="d8", leadership=1)


def platoon(hq_pos=(24, 5), squads=((10, 20), (38, 20)), red=None, terrain=(), hq=None, sq=None, **kw):
    """Blue: Platoon HQ (uid 0) commanding squads 1, 2; Red: one squad far away (last uid)."""
    blue = [unit("Platoon HQ", hq_pos, (("rifle", 3),), **HQ)]
    blue[0].update(hq or {})
    for i, p in enumerate(squads):
        blue.append(unit(f"S{i + 1}", p, commander="Platoon HQ", leadership=2))
        blue[-1].update(sq or {})
    reds = red if red is not None else [unit("R", (24, 46))]
    return scenario(blue, reds, terrain=terrain, **kw)


def acting(g):
    d = g.decision()
    return d.kind, d.unit


# ------------------------------------------------------------------ the command tree
def test_command_tree_is_built_from_commander_names():
    g = Game(platoon(), seed=0)
    assert [u.commander for u in g.units] == [-1, 0, 0, -1]
    assert command.subordinates(g, g.units[0]) == [1, 2]
    assert command.is_commander(g, g.units[0]) and not command.is_commander(g, g.units[1])


def test_default_scenario_squads_serve_the_platoon_hq():
    g = Game("default", seed=0)
    for side in (0, 1):
        hq = [u for u in g.units if u.side == side and u.kind == "hq"][0]
        squads = [u for u in g.units if u.side == side and u.kind == "squad"]
        assert len(squads) == 3 and all(s.commander == hq.uid for s in squads)


@pytest.mark.parametrize("blue,msg", [
    ([unit("A", (5, 5), commander="Nobody")], "not a unit of the same side"),
    ([unit("A", (5, 5), commander="A")], "its own commander"),
    ([unit("A", (5, 5), commander="B"), unit("B", (9, 5), commander="A")], "cycle"),
    ([unit("A", (5, 5)), unit("A", (9, 5)), unit("C", (9, 9), commander="A")], "ambiguous"),
    ([unit("A", (5, 5), commander="R")], "not a unit of the same side"),  # an enemy cannot command
])
def test_bad_command_trees_are_scenario_errors(blue, msg):
    with pytest.raises(ScenarioError, match=msg):
        Game(scenario(blue, [unit("R", (24, 46))]), seed=0)


def test_schema_rejects_bad_command_fields():
    with pytest.raises(ScenarioError, match="commander"):
        Game(scenario([unit("A", (5, 5), commander=3)], [unit("R", (24, 46))]), seed=0)
    with pytest.raises(ScenarioError, match="second_in_command"):
        Game(scenario([unit("A", (5, 5), second_in_command="yes")], [unit("R", (24, 46))]), seed=0)


# ------------------------------------------------------------------ order
def test_only_commanders_get_order_and_rally_options():
    g = begin(platoon())
    activate(g, 0)
    opts = g.decision().options
    assert ("order", 1) in opts and ("order", 2) in opts and ("order", 3) not in opts
    g2 = begin(platoon())
    activate(g2, 1)
    assert not {o for o in g2.decision().options if o[0] in ("order", "rally", "combined_assault")}


def test_order_communicates_then_the_subordinate_takes_two_actions_without_a_marker():
    g = begin(platoon(), [("d8", 3)])  # HQ (LV1) -> squad (LV2) 15" away: D8 must beat 2
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["automatic"], c["die"], c["roll"], c["needed"], c["bypassed"], c["success"]) == \
        (False, "d8", 3, 2, 0, True)
    assert acting(g) == ("action", 1) and g.actions_left == 2 and g.stack[-1].ordered
    assert not g.units[1].activated  # no activation marker
    g.apply(("prop",))
    g.apply(("unprop",))
    assert acting(g) == ("action", 0) and g.actions_left == 1  # the order used one HQ action
    assert ("order", 1) not in g.decision().options  # once per commander activation (our reading)
    assert ("order", 2) in g.decision().options
    g.apply(("end",))
    assert g.decision().kind == "activate" and g.current == 1
    g.apply(("activate", 3))
    g.apply(("end",))
    assert ("activate", 1) in g.decision().options  # the ordered unit keeps its own activation
    assert g.dice.remaining == 0


def test_failed_order_ends_that_action_and_the_second_may_retry():
    g = begin(platoon(), [("d8", 2), ("d8", 5)])
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "OrderGiven")["success"] is False
    assert acting(g) == ("action", 0) and g.actions_left == 1
    assert ("order", 1) in g.decision().options
    g.apply(("order", 1))
    assert acting(g) == ("action", 1)
    g.apply(("end",))  # the ordered unit forgoes its actions: the HQ's activation ends with it
    assert g.decision().kind == "activate" and g.current == 1
    assert g.dice.remaining == 0


def test_order_is_automatic_within_6_inches_with_line_of_sight():
    g = begin(platoon(squads=((24, 10), (38, 20))))
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "CommunicationAttempted")["automatic"] is True
    assert acting(g) == ("action", 1) and g.dice.remaining == 0


def test_order_within_6_inches_without_line_of_sight_needs_a_roll():
    g = begin(platoon(squads=((24, 10.5), (38, 20)), terrain=[rect("building", 18, 6.5, 30, 9.5)]), [("d8", 1)])
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert c["automatic"] is False and c["success"] is False and g.dice.remaining == 0


def test_needed_score_is_the_worse_leadership_the_seeds_example():
    # "an experienced unit with leadership 1 attempting to communicate with a unit of leadership 3 would roll
    # a D8 and need to score more than 3"
    g = begin(platoon(sq={"leadership": 3}), [("d8", 3), ("d8", 4)])
    activate(g, 0)
    g.apply(("order", 1))
    assert (last_event(g, "CommunicationAttempted")["needed"], last_event(g, "OrderGiven")["success"]) == (3, False)
    g.apply(("order", 1))
    assert last_event(g, "OrderGiven")["success"] is True and g.dice.remaining == 0


def company():
    """Company HQ (0) -> Platoon HQ (1) -> squads 2, 3; all far apart.  Red squad (4)."""
    blue = [unit("Coy HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d8", leadership=1),
            unit("Platoon HQ", (10, 12), (("rifle", 3),), kind="hq", quality="d8", leadership=1, commander="Coy HQ"),
            unit("S1", (4, 24), commander="Platoon HQ", leadership=2),
            unit("S2", (40, 24), commander="Platoon HQ", leadership=2)]
    return scenario(blue, [unit("R", (24, 46))])


def test_bypassing_a_command_level_shifts_the_die_down():
    g = begin(company(), [("d6", 3)])
    activate(g, 0)
    assert {("order", 1), ("order", 2), ("order", 3)} <= set(g.decision().options)
    g.apply(("order", 2))  # the company commander contacts a squad directly: D8 -> D6
    c = last_event(g, "CommunicationAttempted")
    assert (c["die"], c["bypassed"], c["success"]) == ("d6", 1, True) and g.dice.remaining == 0


def test_order_chains_down_the_tree():
    g = begin(company(), [("d8", 5), ("d8", 5), ("d8", 5)])
    activate(g, 0)
    g.apply(("order", 1))  # company -> platoon
    assert acting(g) == ("action", 1)
    g.apply(("order", 2))  # platoon -> squad 1
    assert acting(g) == ("action", 2) and [f.unit for f in g.stack] == [0, 1, 2]
    g.apply(("end",))
    assert acting(g) == ("action", 1) and g.actions_left == 1
    g.apply(("order", 3))
    g.apply(("end",))  # squad 2 done -> platoon's activation done -> company's first action done
    assert acting(g) == ("action", 0) and g.actions_left == 1
    assert [e["unit"] for e in events_of(g, "ActivationEnded")] == [2, 3, 1]
    assert not any(g.units[i].activated for i in (1, 2, 3)) and g.dice.remaining == 0


def test_routed_units_and_disorganised_commanders_get_no_orders():
    g = begin(platoon())
    g.units[1].confidence = ROUTED
    activate(g, 0)
    assert ("order", 1) not in g.decision().options
    g2 = begin(platoon())
    g2.units[0].set_figure(1, dx=9.0)  # out of cohesion
    activate(g2, 0)
    assert not [o for o in g2.decision().options if o[0] in ("order", "rally")]


def test_suppressed_commander_may_still_order():
    g = begin(platoon(), [("d8", 8)])
    g.units[0].suppression = 2
    activate(g, 0)
    assert ("order", 1) in g.decision().options
    g.apply(("order", 1))
    assert acting(g) == ("action", 1)


# ------------------------------------------------------------------ jamming
def jam_scn(comms="d6", jammer="d10"):
    scn = platoon()
    scn["sides"][0]["comms"] = comms
    scn["sides"][1]["jammer"] = jammer
    return scn


@pytest.mark.parametrize("rolls,shift,die", [((3, 3), 0, "d8"), ((3, 4), 1, "d6"), ((3, 6), 1, "d6"),
                                              ((3, 7), 2, "d4")])
def test_jamming_opposed_roll_shifts_the_communication_die(rolls, shift, die):
    g = begin(jam_scn(), [("d6", rolls[0]), ("d10", rolls[1]), (die, 3)], options={"jamming": True})
    activate(g, 0)
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["jam_rolls"], c["jam_shift"], c["die"], c["success"]) == (list(rolls), shift, die, True)
    assert g.dice.remaining == 0


def test_no_jamming_without_the_option_or_a_jammer():
    g = begin(jam_scn(), [("d8", 3)])  # option off by default
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "CommunicationAttempted")["jam_rolls"] == [] and g.dice.remaining == 0
    g = begin(platoon(), [("d8", 3)], options={"jamming": True})  # no jammer on the enemy side
    activate(g, 0)
    g.apply(("order", 1))
    assert g.dice.remaining == 0


def test_jamming_does_not_apply_to_automatic_communication():
    g = begin(jam_scn(), [], options={"jamming": True})
    g.units[1].x, g.units[1].y = 24, 9
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "CommunicationAttempted")["automatic"] is True


# ------------------------------------------------------------------ rally
def shaken_platoon(dice=(), options=None, confidence=SHAKEN, **kw):
    g = begin(platoon(**kw), dice, options=options)
    g.units[1].confidence = confidence
    return g


def test_rally_raises_one_level_on_more_than_unit_plus_commander_lv():
    g = shaken_platoon([("d8", 5), ("d8", 4)])  # communicate 5 > 2; rally 4 > 2 + 1
    activate(g, 0)
    assert ("rally", 1) in g.decision().options and ("rally", 2) not in g.decision().options
    g.apply(("rally", 1))
    r = last_event(g, "RallyTested")
    assert (r["roll"], r["needed"], r["levels"], r["confidence"]) == (4, 3, 1, "steady")
    assert g.units[1].confidence == STEADY and g.actions_left == 1 and g.dice.remaining == 0


def test_rally_roll_must_be_higher_and_failed_communication_means_no_roll():
    g = shaken_platoon([("d8", 5), ("d8", 3), ("d8", 2)])
    activate(g, 0)
    g.apply(("rally", 1))
    assert last_event(g, "RallyTested")["levels"] == 0 and g.units[1].confidence == SHAKEN
    g.apply(("rally", 1))  # communication 2 fails: no rally roll
    assert len(events_of(g, "RallyTested")) == 1 and g.dice.remaining == 0


def test_rally_never_raises_above_the_initial_level():
    g = shaken_platoon([("d8", 5), ("d8", 8)], confidence=STEADY, options={"rally_double_half": True})
    activate(g, 0)
    g.apply(("rally", 1))  # 8 > 2 x 3 would be two levels, capped at the initial "confident"
    assert g.units[1].confidence == CONFIDENT and last_event(g, "RallyTested")["levels"] == 1
    assert ("rally", 1) not in g.decision().options


def test_optional_double_raises_two_levels_and_half_drops_one():
    g = shaken_platoon([("d8", 5), ("d8", 7)], confidence=BROKEN, options={"rally_double_half": True})
    activate(g, 0)
    g.apply(("rally", 1))
    assert g.units[1].confidence == STEADY
    g = shaken_platoon([("d8", 5), ("d8", 1)], options={"rally_double_half": True})
    activate(g, 0)
    g.apply(("rally", 1))  # 2 x 1 < 3: drops one level
    assert g.units[1].confidence == BROKEN and last_event(g, "RallyTested")["levels"] == -1
    g = shaken_platoon([("d8", 5), ("d8", 1)])  # without the option: no drop
    activate(g, 0)
    g.apply(("rally", 1))
    assert g.units[1].confidence == SHAKEN


def test_commander_rallies_its_own_unit_without_communicating():
    g = begin(platoon(), [("d8", 3)])
    g.units[0].confidence = SHAKEN
    activate(g, 0)
    g.apply(("rally", 0))  # target LV1 + LV1 = 2
    assert last_event(g, "CommunicationAttempted")["automatic"] is True
    assert g.units[0].confidence == STEADY and g.dice.remaining == 0


def test_routed_units_may_be_rallied_but_not_panicking_ones():
    g = shaken_platoon([("d8", 5), ("d8", 4)], confidence=ROUTED)
    activate(g, 0)
    g.apply(("rally", 1))
    assert g.units[1].confidence == BROKEN
    g = shaken_platoon()
    g.units[1].panicked = True
    activate(g, 0)
    assert ("rally", 1) not in g.decision().options
    g = shaken_platoon(confidence=ROUTED)
    g.units[1].panic_routed = True
    activate(g, 0)
    assert ("rally", 1) not in g.decision().options


# ------------------------------------------------------------------ death of a commander
def hq_shot_dice(sub_tests):
    """Red's rifle squad shoots the single-figure Platoon HQ and kills it (the HQ's own test is skipped: it is
    out of play); then each subordinate tests."""
    return [("d8", 1), ("d8", 8), ("d6", 6), ("d8", 8),  # target D8, Q d8 + FP (5 rifles = D6), no extra hit
            ("d8", 8), ("d4", 1)] + list(sub_tests)  # impact 8 > 2 x 1: kill


def one_man_hq(second=False):
    return platoon(hq={"figures": [{"weapon": "rifle"}], "second_in_command": second},
                   red=[unit("R", (24, 35))])


def test_commander_casualty_makes_every_subordinate_test_with_plus_one():
    # target = 0 (no table event) + 1 + LV 2 = 3: a 4 passes, a 3 drops one level
    g = begin(one_man_hq(), hq_shot_dice([("d8", 4), ("d8", 3)]), first=1)
    activate(g, 3)
    g.apply(("shoot", 0, "all"))
    assert g.units[0].figures[0].status == KILLED
    c = last_event(g, "CommanderLost")
    assert c["unit"] == 0 and c["subordinates"] == [1, 2] and not c["second_in_command"]
    tests = [e for e in events_of(g, "ConfidenceTested") if e["reason"] == "commander_casualty"]
    assert [(e["unit"], e["needed"], e["levels_dropped"]) for e in tests] == [(1, 3, 0), (2, 3, 1)]
    assert g.units[2].confidence == STEADY and g.dice.remaining == 0


def test_untreated_wounds_add_to_the_commander_casualty_test():
    g = begin(one_man_hq(), hq_shot_dice([("d8", 4), ("d8", 8)]), first=1)
    g.units[1].set_figure(0, status=1)  # an untreated wound: +1 at medium commitment
    g.units[1].set_figure(0, wounds=1)
    activate(g, 3)
    g.apply(("shoot", 0, "all"))
    tests = [e for e in events_of(g, "ConfidenceTested") if e["reason"] == "commander_casualty"]
    assert tests[0]["needed"] == 4 and tests[0]["levels_dropped"] == 1


def promotion_game(dice=()):
    g = begin(one_man_hq(), hq_shot_dice([("d8", 8), ("d8", 8)]) + list(dice), first=1)
    activate(g, 3)
    g.apply(("shoot", 0, "all"))
    g.apply(("end",))  # Red's activation ends: Blue decides on a promotion
    return g


def test_no_second_in_command_the_side_may_promote_a_subordinate():
    g = promotion_game([("d6", 3)])
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (0, "promote", 0)
    assert d.options == (("choose", 1), ("choose", 2), ("decline",))
    assert g.units[0].command_lost
    g.apply(("choose", 1))
    assert last_event(g, "PromotionChosen")["unit"] == 1
    d = g.decision()
    assert d.kind == "activate" and d.side == 0
    g.apply(("activate", 1))
    assert g.decision().options == (("reorganise", "assume_command"),)
    g.apply(("reorganise", "assume_command"))
    assert g.decision().options == (("reorganise", "leader"),)
    g.apply(("reorganise", "leader"))  # the unit appoints its new leader (D6 3: same LV)
    assert last_event(g, "LeaderAppointed")["unit"] == 1
    assert g.units[2].commander == 1 and g.units[1].commander == -1 and g.units[0].commander == 1
    assert command.is_commander(g, g.units[1]) and not command.is_commander(g, g.units[0])
    assert g.dice.remaining == 0


def test_promoted_unit_orders_its_new_subordinates():
    g = promotion_game([("d6", 3), ("d8", 8), ("d8", 1)])  # D6 leader roll; turn 2 initiative
    g.apply(("choose", 2))
    g.apply(("activate", 2))
    g.apply(("reorganise", "assume_command"))
    g.apply(("reorganise", "leader"))
    assert g.units[1].commander == 2 and g.units[0].commander == 2
    activate(g, 1)  # Red has no unit left to activate this turn (and the HQ was killed): Blue goes on
    g.apply(("end",))
    assert g.decision().kind == "initiative"
    g.apply(("first",))
    activate(g, 2)
    opts = set(g.decision().options)
    assert ("order", 1) in opts and ("order", 0) not in opts  # the killed HQ is out of play
    assert g.dice.remaining == 0


def test_declining_promotion_leaves_the_subordinates_without_a_commander():
    g = promotion_game()
    g.apply(("decline",))
    assert last_event(g, "PromotionChosen")["unit"] == -1
    assert g.decision().kind == "activate"
    assert not command.is_commander(g, g.units[0]) and g.dice.remaining == 0


def test_second_in_command_takes_over_the_hq_and_keeps_command():
    blue = [unit("Platoon HQ", (24, 5), (("rifle", 3),), kind="hq", quality="d8", leadership=1,
                 second_in_command=True),
            unit("S1", (10, 20), commander="Platoon HQ"), unit("S2", (38, 20), commander="Platoon HQ")]
    g = begin(scenario(blue, [unit("R", (24, 35))]), [("d8", 8), ("d8", 8), ("d6", 4)], first=1)
    hq = g.units[0]
    hq.leader_lost = True
    command.on_leader_lost(g, hq)  # what the shoot action does after the HQ's own test
    assert last_event(g, "CommanderLost")["second_in_command"] is True
    assert not hq.command_lost and not hq.promotion_pending and not hq.second_in_command
    activate(g, 3)
    g.apply(("end",))
    assert g.decision().kind == "activate"  # no promotion decision
    activate(g, 0)
    g.apply(("reorganise", "leader"))
    g.apply(("reorganise", "leader"))
    assert last_event(g, "LeaderAppointed")["unit"] == 0
    assert command.is_commander(g, hq) and g.dice.remaining == 0


def test_promotion_lapses_if_the_promoted_leader_falls_first():
    g = promotion_game()
    g.apply(("choose", 1))
    s1 = g.units[1]
    s1.leader_lost = True
    command.on_leader_lost(g, s1)  # S1 commands no one yet: nothing rolls
    assert s1.assume_command == -1 and g.units[0].promotion_pending
    assert last_event(g, "PromotionLapsed") == {"type": "PromotionLapsed", "unit": 1, "lost": 0}
    assert g.dice.remaining == 0


# ------------------------------------------------------------------ combined assault (command side)
class FakeAssault:
    """Stands in for assault_action.begin_assault: records the call (the end-to-end combined assault is in
    test_combined_assault_end_to_end below)."""

    def __init__(self):
        self.calls = []

    def begin_assault(self, game, attackers, defender):  # the real signature: uids
        self.calls.append((list(attackers), defender))


def _with_assault_service(monkeypatch, service: dict):
    """The standard rules with the Assault Action's service to other rules replaced."""
    rules = tuple(dataclasses.replace(r, services=service) if r is real_assault.RULE else r
                  for r in Game.standard_rules)
    monkeypatch.setattr(Game, "standard_rules", rules)


@pytest.fixture
def fake_assault(monkeypatch):
    fake = FakeAssault()
    _with_assault_service(monkeypatch, {"assault": SimpleNamespace(
        begin=fake.begin_assault, may_assault=real_assault.may_assault, target_in_reach=real_assault.target_in_reach,
        can_assault=real_assault.can_assault)})
    return fake


def assault_scn():
    return platoon(squads=((18, 26), (30, 26)), red=[unit("R", (24, 36)), unit("R2", (46, 47))])


def test_combined_assault_is_not_offered_without_the_assault_engine(monkeypatch):
    _with_assault_service(monkeypatch, {})
    g = begin(assault_scn())
    activate(g, 0)
    assert not [o for o in g.decision().options if o[0] == "combined_assault"]


def test_combined_assault_chooses_two_units_orders_both_and_begins_the_assault(fake_assault):
    g = begin(assault_scn(), [("d8", 5), ("d8", 6)])
    activate(g, 0)
    opts = g.decision().options
    assert ("combined_assault", 3) in opts and ("combined_assault", 4) not in opts  # R2 out of reach
    g.apply(("combined_assault", 3))
    d = g.decision()
    assert (d.kind, d.side, d.unit, d.options) == ("choose", 0, 0, (("choose", 1), ("choose", 2)))
    g.apply(("choose", 2))
    assert g.decision().options == (("choose", 1),)
    g.apply(("choose", 1))
    assert fake_assault.calls == [([2, 1], 3)]
    e = last_event(g, "CombinedAssaultOrdered")
    assert (e["units"], e["success"]) == ([2, 1], [True, True])
    assert g.decision().kind == "activate" and g.current == 1  # both HQ actions used
    assert g.dice.remaining == 0


def test_combined_assault_waits_below_the_assault_and_its_pop_counts_the_commanders_action():
    """The combined assault's frame stays under the assault; the assault's pop resumes it and it pops, counting the
    commander's last action (the activation ends): no hand-back by hand."""
    g = begin(assault_scn(), [("d8", 5), ("d8", 6)])
    activate(g, 0)
    g.apply(("combined_assault", 3))
    g.apply(("choose", 2))
    g.apply(("choose", 1))
    assert [f.type for f in g.stack] == ["activation", "combined_assault", "assault"] and g.actions_left == 1
    h = g.clone()  # the waiting frame is plain data, copied with the state
    for x in (g, h):
        add_dice(x, ("d6", 6))  # R withdraws
        x.apply(("withdraw",))
        x.apply(("occupy",))
        x.apply(("occupy",))
        assert x.stack == [] and x.decision().kind == "activate" and x.current == 1
        assert [e["type"] for e in x.event_log()[-2:]] == ["AssaultEnded", "ActivationEnded"]
    assert g.state_digest() == h.state_digest()


def test_combined_assault_with_one_failed_order_becomes_a_plain_order(fake_assault):
    g = begin(assault_scn(), [("d8", 1), ("d8", 6)])
    activate(g, 0)
    g.apply(("combined_assault", 3))
    g.apply(("choose", 1))
    g.apply(("choose", 2))
    assert fake_assault.calls == [] and acting(g) == ("action", 2) and g.stack[-1].ordered
    g.apply(("end",))
    assert g.decision().kind == "activate" and g.current == 1
    g2 = begin(assault_scn(), [("d8", 1), ("d8", 2)])
    activate(g2, 0)
    g2.apply(("combined_assault", 3))
    g2.apply(("choose", 1))
    g2.apply(("choose", 2))
    assert g2.decision().kind == "activate" and g2.current == 1 and g2.dice.remaining == 0


# ------------------------------------------------------------------ random play through the codec
def rich_scenario():
    blue = [unit("Coy HQ", (24, 2), (("rifle", 2),), kind="hq", quality="d10", leadership=1),
            unit("Platoon HQ", (20, 8), (("rifle", 3),), kind="hq", leadership=1, commander="Coy HQ",
                 second_in_command=True),
            unit("S1", (8, 10), commander="Platoon HQ", quality="d4"),
            unit("S2", (36, 10), commander="Platoon HQ", quality="d6", confidence="shaken"),
            unit("S3", (44, 4), (("rifle", 1),), commander="Coy HQ", quality="d8")]
    red = [unit("Red HQ", (24, 46), (("rifle", 1),), kind="hq", leadership=1),
           unit("T1", (10, 40), commander="Red HQ", terror=True, quality="d6"),
           unit("T2", (40, 40), commander="Red HQ", armour="light_power", quality="d4"),
           unit("T3", (24, 30), (("rifle", 1),), commander="Red HQ", quality="d8")]
    scn = scenario(blue, red, terrain=[rect("light_woods", 18, 18, 30, 24)], turn_limit=5)
    scn["sides"][0]["jammer"] = "d8"
    scn["sides"][1]["jammer"] = "d10"
    return scn


def test_random_games_with_command_and_panic_stay_encodable():
    codec = ActionCodec()
    seen = set()
    for seed in range(12):
        g = Game(rich_scenario(), seed=seed, options={"jamming": True, "rally_double_half": seed % 2 == 0})
        rng = random.Random(seed)
        while not g.over:
            d = g.decision()
            mask = codec.mask(g, d)
            assert int(mask.sum()) == len(d.options)
            opt = rng.choice(d.options)
            seen.add(opt[0])
            g.apply(opt)
        assert Game.from_dict(g.to_dict()).state_digest() == g.state_digest()
    assert {"order", "rally", "panic_test"} <= seen


def test_combined_assault_end_to_end_with_the_real_assault_engine():
    from dustup_env.rules.unit_actions import assault_action

    assert Game("skirmish").rules.services["assault"].begin is assault_action.begin_assault
    for seed in range(40):  # seeded dice: the first game in which both orders get through
        g = Game(assault_scn(), seed=seed)
        while g.decision().kind != "activate" or g.decision().side != 0:
            d = g.decision()
            g.apply(("first",) if d.kind == "initiative" and d.side == 0 else ("second",) if d.kind == "initiative"
                    else d.options[-1] if ("pass",) in d.options else d.options[0])
        g.apply(("activate", 0))
        g.apply(("combined_assault", 3))
        g.apply(("choose", 2))
        g.apply(("choose", 1))
        e = last_event(g, "CombinedAssaultOrdered")
        if e["success"] == [True, True]:
            break
    assert e["units"] == [2, 1] and e["success"] == [True, True]
    # the assault is under way (or resolved): both attackers and the defender count as activated
    assert g.units[1].activated and g.units[2].activated and g.units[3].activated
    while not g.over and g.decision().kind != "activate":
        g.apply(g.decision().options[0])
    assert any(ev["type"].startswith(("Courage", "Assault", "Combat", "Withdr")) for ev in g.event_log())


def test_combined_assault_needs_two_units_that_may_assault():
    # a propped or shaken subordinate may not be ordered into an assault (courage-test notes * and **)
    for change in ({"propped": True}, {"confidence": 2}):
        g = begin(assault_scn())
        for k, v in change.items():
            setattr(g.units[2], k, v)
        activate(g, 0)
        assert not [o for o in g.decision().options if o[0] == "combined_assault"], change
    g = begin(assault_scn())
    activate(g, 0)
    assert ("combined_assault", 3) in g.decision().options


def test_a_commander_falling_in_close_combat_makes_the_subordinates_test():
    """The leader_lost hook runs for close-combat casualties too (RN-250): seeded games until a Red
    assault kills or wounds the Platoon HQ's leader in combat."""
    from dustup_env.rules import Game
    from dustup_env.rules.unit_actions.assault_action import begin_assault

    for seed in range(300):
        scn = platoon(hq_pos=(24, 30), squads=((10, 20), (38, 20)), red=[unit("R", (24, 33.5), (("rifle", 10),))])
        g = Game(scn, seed=seed)
        while g.decision().kind == "initiative":
            g.apply(("first",))
        d = g.decision()
        if d.side != 1:
            g.apply(("pass",) if ("pass",) in d.options else ("activate", 1))
            g.apply(("end",))
        g.apply(("activate", 3))
        g.apply(("assault", 0))
        while not g.over and g.decision().kind != "activate" and g.decision().kind != "promote":
            g.apply(g.decision().options[0])
        if any(e["type"] == "LeaderLost" and e["unit"] == 0 for e in g.event_log()):
            break
    else:
        pytest.fail("no seed made the HQ leader a close-combat casualty")
    lost = last_event(g, "CommanderLost")
    assert lost["unit"] == 0 and sorted(lost["subordinates"]) == [1, 2]
    tests = [e for e in g.event_log() if e["type"] == "ConfidenceTested" and e["reason"] == "commander_casualty"]
    assert sorted(e["unit"] for e in tests) == [1, 2]


# ------------------------------------------------------------------ the promotion cascade (issue 3)
def cascade_game(dice=()):
    """Blue: a one-man Company HQ (uid 0) over Platoon HQ P1 (uid 1) over squads S1, S2 (uids 2, 3); Red: R (4).
    Red kills the Company HQ; P1, S1 and S2 pass the commander-casualty test; Red ends; Blue decides."""
    blue = [unit("Company HQ", (24, 5), figures=[{"weapon": "rifle"}], **HQ),
            unit("P1", (24, 12), (("rifle", 3),), commander="Company HQ", **HQ),
            unit("S1", (10, 20), commander="P1", leadership=2), unit("S2", (38, 20), commander="P1", leadership=2)]
    g = begin(scenario(blue, [unit("R", (24, 35))]), hq_shot_dice([("d8", 8)] * 3) + list(dice), first=1)
    activate(g, 4)
    g.apply(("shoot", 0, "all"))
    g.apply(("end",))
    return g


def test_a_platoon_commander_promoted_to_company_command_leaves_his_platoon_to_a_squad_leader():
    g = cascade_game([("d6", 3), ("d6", 3), ("d8", 8), ("d8", 1)])  # two new-leader rolls; turn 2 initiative
    assert (g.decision().kind, g.decision().options) == ("promote", (("choose", 1), ("decline",)))
    g.apply(("choose", 1))  # "a platoon commander being promoted to company command"
    activate(g, 1)
    g.apply(("reorganise", "assume_command"))
    assert last_event(g, "CommandVacated") == {"type": "CommandVacated", "unit": 1, "subordinates": [2, 3]}
    g.apply(("reorganise", "leader"))
    # the cascade: the platoon P1 commanded is vacant; the side may promote one of its squads into it
    d = g.decision()
    assert (d.side, d.kind, d.unit, d.options) == (0, "promote", 1, (("choose", 2), ("choose", 3), ("decline",)))
    g.apply(("choose", 2))  # "or a squad leader promoted to platoon command"
    assert last_event(g, "PromotionChosen") == {"type": "PromotionChosen", "side": 0, "lost": 1, "unit": 2}
    activate(g, 2)
    assert g.decision().options == (("reorganise", "assume_command"),)
    g.apply(("reorganise", "assume_command"))
    assert g.decision().options == (("reorganise", "leader"),)  # ... and S1 appoints a new squad leader
    g.apply(("reorganise", "leader"))
    units = g.units
    assert [u.commander for u in units[:4]] == [1, -1, 1, 2]  # company: P1; platoon: S1 under P1; S2 under S1
    assert command.is_commander(g, units[1]) and command.is_commander(g, units[2])
    assert [e["unit"] for e in events_of(g, "LeaderAppointed")] == [1, 2]
    assert not events_of(g, "CommandVacated")[1:]  # S1 commanded no one: the cascade stops there
    assert g.decision().kind == "activate" and g.dice.remaining == 2


def test_declining_the_cascade_keeps_the_squads_under_the_new_company_commander():
    g = cascade_game([("d6", 3)])
    g.apply(("choose", 1))
    activate(g, 1)
    g.apply(("reorganise", "assume_command"))
    g.apply(("reorganise", "leader"))
    g.apply(("decline",))
    assert last_event(g, "PromotionChosen")["unit"] == -1 and g.units[1].vacated == []
    assert [u.commander for u in g.units[:4]] == [1, -1, 1, 1]
    assert g.decision().kind == "activate" and g.dice.remaining == 0


def test_a_cascade_promotion_lapses_and_is_offered_again_if_the_squad_leader_falls_first():
    g = cascade_game([("d6", 3)])
    g.apply(("choose", 1))
    activate(g, 1)
    g.apply(("reorganise", "assume_command"))
    g.apply(("reorganise", "leader"))
    g.apply(("choose", 3))
    s2 = g.units[3]
    assert s2.assume_command == 1 and s2.assume_vacancy == [2, 3]
    s2.leader_lost = True
    command.on_leader_lost(g, s2)  # S2 commands no one yet: nothing rolls
    assert s2.assume_command == -1 and s2.assume_vacancy == [] and g.units[1].vacated == [2, 3]
    assert last_event(g, "PromotionLapsed") == {"type": "PromotionLapsed", "unit": 3, "lost": 1}
    assert g.dice.remaining == 0
