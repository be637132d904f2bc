"""Requesting fire support and the missions up to their impact (seed 000 "Indirect Fire", L1616-1660): forced dice.

The impact itself is ``impacts.resolve_mission`` (the shared interface of docs/architecture.md): these tests replace
it with a recorder, so they check what reaches it and when.
"""
from __future__ import annotations

import pytest

from conftest import SIDE0_WINS, activate, add_dice, begin, events_of, last_event, rect, scenario, unit
from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.artillery_and_air_support import fire_missions, fire_support_request as fsr, impacts
from dustup_env.rules.kernel.dice import D4, D6, D8, D10, D12
from dustup_env.rules.kernel.table import known_entities


@pytest.fixture
def impacts_seen(monkeypatch):
    seen = []
    monkeypatch.setattr(impacts, "resolve_mission", lambda game, mission: seen.append((game.turn, dict(mission))))
    return seen


def asset(firer="battalion", **kw):
    return {"name": "Battery", "firer": firer, **kw}


def fs_game(assets=(asset(),), observer="fo", lv=1, dice=(), options=None, red_pos=(24, 40), terrain=(),
            blue_side=None, red_side=None):
    kw = {"observer": observer} if observer else {}
    scn = scenario([unit("HQ", (24, 5), leadership=lv, **kw)], [unit("Red", red_pos)], terrain=terrain)
    scn["sides"][0]["fire_support"] = list(assets)
    scn["sides"][0].update(blue_side or {})
    scn["sides"][1].update(red_side or {})
    return begin(scn, dice, options=options)


def request(g, a=0, chits=0, uid=0):
    activate(g, uid)
    g.apply(("request_fire", a, chits))


def finish_turn(g, initiative=True):
    """Every activation left this turn ends at once (due missions held); the next turn's initiative to side 0."""
    t = g.turn
    if initiative:
        add_dice(g, *SIDE0_WINS)
    while g.turn == t and not g.over:
        d = g.decision()
        if d.kind == "activate":
            g.apply(next(o for o in d.options if o[0] in ("activate", "hold_mission")))
        else:
            g.apply(("end",))
    if not g.over and g.decision().kind == "initiative":
        g.apply(("first",))


# ---------------------------------------------------------------------------------------------- the rule set
def test_games_without_fire_support_do_not_use_the_rules():
    for name in ("default", "armour", "skirmish"):
        names = {r.name for r in Game(name, seed=0).rules.rules}
        assert "Request Fire Support Action" not in names and "Fire Missions" not in names
    g = Game("fire-support", seed=0)
    assert {"Request Fire Support Action", "Fire Missions"} <= {r.name for r in g.rules.rules}


def test_the_observer_field_is_fo_or_lo_with_a_clear_error():
    scn = scenario([unit("HQ", (24, 5), observer="xo")], [unit("Red", (24, 40))])
    with pytest.raises(ScenarioError, match="observer"):
        Game(scn, seed=0)
    g = fs_game(observer="lo")
    assert fsr.observer_role(g, 0) == "lo" and fsr.observer_role(g, 1) == "other"
    assert g.rules.services["observer_role"](g, 0) == "lo"


@pytest.mark.parametrize("bad, words", [
    ({"firer": "on_table"}, "firer"), ({"ammo": "nuclear"}, "ammo"), ({"rounds": 0}, "rounds"),
    ({"from": "division"}, "from"), ({"missions": 8}, "target markers")])
def test_bad_fire_support_names_the_field(bad, words):
    a = {**asset(), **bad}
    scn = scenario([unit("HQ", (24, 5))], [unit("Red", (24, 40))])
    scn["sides"][0]["fire_support"] = [a, dict(a, name="Second")] if "missions" in bad else [a]
    with pytest.raises(ScenarioError, match=words):
        Game(scn, seed=0, options={"fire_support_dummies": True})


def test_the_difficulty_table_and_the_pairings_it_leaves_out():
    assert [fsr.difficulty(r, s) for r, s in (("fo", "artillery"), ("other", "artillery"), ("lo", "air"),
                                              ("other", "air"), ("lo", "orbital"), ("other", "orbital"))] == [0, 2, 2, 4, 3, 6]
    # RN-1400: an FO calling air or orbital support and an LO calling artillery are "other"
    assert fsr.difficulty("fo", "air") == 4 and fsr.difficulty("fo", "orbital") == 6
    assert fsr.difficulty("lo", "artillery") == 2


# ---------------------------------------------------------------------------------------------- the roll
def test_the_request_is_an_action_rolling_a_d8_over_leadership_plus_difficulty():
    g = fs_game(lv=1, dice=[("d8", 1)])  # FO, artillery: needs more than 1 + 0
    request(g)
    e = last_event(g, "FireSupportRequested")
    assert (e["requestor"], e["support"], e["die"], e["roll"], e["needed"], e["success"]) == (
        "fo", "artillery", "d8", 1, 1, False)
    assert g.decision().kind == "action" and g.actions_left == 1  # one action used; nothing placed
    assert fsr.fire_support_state(g)["left"] == [[1], []]
    add_dice(g, ("d8", 2))
    g.apply(("request_fire", 0, 0))
    assert last_event(g, "FireSupportRequested")["success"] and g.decision().kind == "fire_target"
    assert g.dice.remaining == 0


def test_an_other_unit_calling_air_support_needs_more_than_leadership_plus_four():
    g = fs_game(assets=[asset("air")], observer=None, lv=2, dice=[("d8", 6)])
    request(g)
    e = last_event(g, "FireSupportRequested")
    assert (e["requestor"], e["support"], e["needed"], e["success"]) == ("other", "air", 6, False)


@pytest.mark.parametrize("source, chits, die", [("platoon", 0, D8), ("other_platoon", 0, D6), ("other_company", 0, D4),
                                               ("platoon", 1, D10), ("platoon", 2, D12), ("other_company", 1, D6),
                                               ("platoon", 3, D12)])
def test_another_platoon_or_company_shifts_the_die_down_and_chits_up(source, chits, die):
    g = fs_game(assets=[asset(**{"from": source})], dice=[(("d4", "d6", "d8", "d10", "d12")[die], 1)],
                options={"fire_support_chits": 3})
    request(g, chits=chits)
    assert last_event(g, "FireSupportRequested")["die"] == ("d4", "d6", "d8", "d10", "d12")[die]
    assert fsr.fire_support_state(g)["chits"] == [3 - chits, 3]
    assert g.dice.remaining == 0


def test_chits_are_offered_up_to_those_left():
    g = fs_game(options={"fire_support_chits": 2})
    activate(g, 0)
    assert sorted(o for o in g.decision().options if o[0] == "request_fire") == [
        ("request_fire", 0, 0), ("request_fire", 0, 1), ("request_fire", 0, 2)]
    g2 = fs_game()
    activate(g2, 0)
    assert [o for o in g2.decision().options if o[0] == "request_fire"] == [("request_fire", 0, 0)]


def test_a_difficulty_given_by_the_scenario_replaces_the_table():
    g = fs_game(assets=[asset(difficulty=5)], lv=1, dice=[("d8", 6)])
    request(g)
    assert last_event(g, "FireSupportRequested")["needed"] == 6


def test_jamming_shifts_the_request_die_down_as_for_a_communication():
    # comms D8 rolls 2, the enemy jammer D10 rolls 5: more than double, two types down (RN-094, RN-1404)
    g = fs_game(dice=[("d8", 2), ("d10", 5), ("d4", 2)], options={"jamming": True}, red_side={"jammer": "d10"})
    request(g)
    e = last_event(g, "FireSupportRequested")
    assert e["jam_rolls"] == [2, 5] and e["die"] == "d4" and e["success"]
    g2 = fs_game(dice=[("d8", 1)], red_side={"jammer": "d10"})  # without the option: no jamming roll
    request(g2)
    assert last_event(g2, "FireSupportRequested")["jam_rolls"] == [] and g2.dice.remaining == 0


def test_a_disorganised_unit_or_a_side_without_missions_left_cannot_request():
    g = fs_game(dice=[("d8", 8)])
    request(g)
    g.apply(g.decision().options[0])  # the target
    assert fsr.fire_support_state(g)["left"] == [[0], []]
    assert not [o for o in g.decision().options if o[0] == "request_fire"]  # its one mission is spent


# ---------------------------------------------------------------------------------------------- the target
def test_the_target_marker_goes_on_a_point_in_the_requestors_sight():
    wall_off = [rect("building", 0, 16, 48, 18)]  # a long building across the table blocks the far part
    g = fs_game(dice=[("d8", 8)], terrain=wall_off)
    request(g)
    d = g.decision()
    assert d.kind == "fire_target" and d.side == 0 and d.unit == 0
    pts = [(o[1], o[2]) for o in d.options]
    assert {y for _, y in pts} == {3.0, 9.0, 15.0}  # the cells' centres short of the building, none beyond it
    assert set(pts) == set(fsr.sighted_points(g, g.units[0]))
    g.apply(("fire_target", *pts[0]))
    ents = known_entities(g, 1)
    assert [(e["kind"], e["owner"], e["x"], e["y"]) for e in ents] == [("fire_target", 0, *pts[0])]
    assert ents[0]["state"] == {"mission": 0}
    assert g.decision().kind == "action" and g.actions_left == 1  # the request was one action


# ---------------------------------------------------------------------------------------------- delays and counters
@pytest.mark.parametrize("firer, delay", [("company", 1), ("battalion", 2), ("regimental", 3), ("orbital", 3),
                                          ("air", 3)])
def test_the_delay_table_puts_the_counter_in_the_box_of_its_delay(firer, delay, impacts_seen):
    g = fs_game(assets=[asset(firer)], dice=[("d8", 8)])
    request(g)
    g.apply(g.decision().options[0])
    m = fsr.fire_support_state(g)["missions"][0]
    assert (m["box"], m["state"], m["turn"]) == (delay, "inbound", 1)
    for t in range(2, 2 + delay):
        finish_turn(g)
        assert g.turn == t
        due = [o for o in g.decision().options if o[0] == "fire_mission"]
        assert bool(due) == (t == 1 + delay), (t, due)  # due in the turn of request + delay (RN-151)
    boxes = [e["box"] for e in events_of(g, "FireSupportCounterMoved")]
    assert boxes == list(range(delay, -1, -1))


def test_the_impact_comes_instead_of_a_unit_activation_and_hands_the_mission_over(impacts_seen):
    g = fs_game(assets=[asset("company", ammo="anti_personnel", size="large", rounds=3, guidance="laser")],
                dice=[("d8", 8)])
    request(g)
    g.apply(("fire_target", 22.0, 9.0))
    finish_turn(g)
    d = g.decision()
    assert d.side == 0 and ("fire_mission", 0) in d.options and ("activate", 0) in d.options
    assert g.unactivated(0) == 2 == g.unactivated(1) + 1  # the mission counts as an activation: no pass for red
    g.apply(("fire_mission", 0))
    assert impacts_seen == [(2, {"side": 0, "x": 22.0, "y": 9.0, "ammo": "anti_personnel", "size": "large",
                                 "rounds": 3, "observer": 0, "guidance": "laser", "asset": "company", "firer": None,
                                 "requestor": 0})]
    assert last_event(g, "FireMissionArrived") == {"type": "FireMissionArrived", "side": 0, "mission": 0, "asset": 0,
                                                  "x": 22.0, "y": 9.0}
    assert known_entities(g, 0) == [] == known_entities(g, 1)  # the marker is gone
    d = g.decision()
    assert d.side == 1 and ("fire_mission", 0) not in d.options  # it was the side's activation


def test_a_held_mission_waits_in_the_loiter_box_and_is_due_next_turn(impacts_seen):
    g = fs_game(assets=[asset("company")], dice=[("d8", 8)])
    request(g)
    g.apply(g.decision().options[0])
    finish_turn(g)  # turn 2: due
    g.apply(("hold_mission", 0))
    assert last_event(g, "FireSupportCounterMoved")["box"] == -1 and events_of(g, "FireMissionHeld")
    assert g.unactivated(0) == 1
    finish_turn(g)  # turn 3: back from the loiter box
    assert g.turn == 3 and ("fire_mission", 0) in g.decision().options
    g.apply(("fire_mission", 0))
    assert [t for t, _ in impacts_seen] == [3]


def test_the_requestor_out_of_play_leaves_no_observer(impacts_seen):
    g = fs_game(assets=[asset("company")], dice=[("d8", 8)])
    request(g)
    g.apply(g.decision().options[0])
    finish_turn(g)
    g.units[0].location = "routed_off"
    g.invalidate()
    g.apply(("fire_mission", 0))
    assert impacts_seen[0][1]["observer"] is None and impacts_seen[0][1]["requestor"] == 0


def test_a_due_mission_not_resolved_in_its_turn_goes_to_the_loiter_box(impacts_seen):
    g = fs_game(assets=[asset("company")])
    m = {"side": 0, "n": 0, "asset": 0, "requestor": 0, "turn": 1, "box": 0, "state": "due", "markers": [], "real": -1}
    fsr.fire_support_state(g)["missions"].append(m)
    fire_missions.RULE.turn_end[0](g)
    assert (m["state"], m["box"]) == ("loiter", -1)
    fire_missions.RULE.turn_start[0](g)
    assert (m["state"], m["box"]) == ("due", 0)


# ---------------------------------------------------------------------------------------------- dummy targets
def test_dummies_are_placed_after_the_target_and_all_three_show_together():
    g = fs_game(dice=[("d8", 8)], options={"fire_support_dummies": True})
    request(g)
    pts = [(o[1], o[2]) for o in g.decision().options]
    g.apply(("fire_target", *pts[5]))
    assert g.decision().kind == "fire_dummy" and ("fire_dummy", *pts[5]) not in g.decision().options
    assert known_entities(g, 1) == [] and not events_of(g, "TargetMarkersPlaced")  # nothing shows until all three
    g.apply(("fire_dummy", *pts[0]))
    g.apply(("fire_dummy", *pts[9]))
    ents = known_entities(g, 1)
    assert [(e["x"], e["y"]) for e in ents] == sorted([pts[0], pts[5], pts[9]])
    assert all(e["state"] == {"mission": 0} for e in ents)
    assert list(map(tuple, last_event(g, "TargetMarkersPlaced")["points"])) == sorted([pts[0], pts[5], pts[9]])
    m = fsr.fire_support_state(g)["missions"][0]
    assert (g.entities[m["real"]]["x"], g.entities[m["real"]]["y"]) == pts[5]


# ---------------------------------------------------------------------------------------------- activation sequences
def _granted_company_mission(options, seed):
    """A game whose side 0 got a company mission in turn 1 (due in turn 2), played to turn 2's first decision."""
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"), unit("Alpha", (12, 6))],
                   [unit("Red", (24, 40)), unit("Yankee", (36, 40))])
    scn["sides"][0]["fire_support"] = [asset("company")]
    g = Game(scn, seed=seed, options=options)
    rng = __import__("random").Random(seed)
    while g.turn == 1:
        d = g.decision()
        req = [o for o in d.options if o[0] in ("request_fire", "fire_target")]
        g.apply(req[0] if req else d.options[rng.randrange(len(d.options))])
    return g, rng


@pytest.mark.parametrize("options", [{"activation": "alternate"}, {"activation": "chits"}, {"activation": "cards"}])
@pytest.mark.parametrize("seed", range(4))
def test_a_due_mission_is_an_activation_of_every_sequence(options, seed, impacts_seen):
    g, rng = _granted_company_mission(options, seed)
    m = fsr.fire_support_state(g)["missions"]
    assert len(m) == 1 and m[0]["state"] == "due" and g.turn == 2
    while g.turn == 2:
        d = g.decision()
        if d.kind == "activate" and g.options["activation"] == "cards" and any(o[0] == "fire_mission" for o in d.options):
            assert {o[0] for o in d.options} == {"fire_mission", "hold_mission"}  # its own card
        g.apply(d.options[rng.randrange(len(d.options))])
    used = [e for e in events_of(g, "FireMissionArrived") + events_of(g, "FireMissionHeld")]
    assert len(used) == 1  # the turn did not end before the mission took its activation
    if options["activation"] == "chits":
        assert events_of(g, "ChitDrawn")
    if options["activation"] == "cards":
        assert events_of(g, "ActivationCardDrawn")


def test_a_due_mission_may_seize_the_initiative(impacts_seen):
    for seed in range(40):
        g, rng = _granted_company_mission({"seize_tokens": 2}, seed)
        while g.turn == 2:
            d = g.decision()
            if d.kind == "seize" and d.side == 0 and ("fire_mission", 0) in d.options:
                g.apply(("fire_mission", 0))
                assert last_event(g, "InitiativeSeized")["unit"] == -1 and len(impacts_seen) == 1
                return
            g.apply(d.options[rng.randrange(len(d.options))])
    raise AssertionError("the seize window never offered the due mission")


# ---------------------------------------------------------------------------------------------- on-table artillery
def _on_table_game(dice=()):
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"),
                    unit("Mortar", (30, 3), figures=(("rifle", 3),), heavy_weapon="towed_field_gun")],
                   [unit("Red", (24, 40))])
    scn["sides"][0]["fire_support"] = [asset("on_table", unit="Mortar", size="small", rounds=2)]
    return begin(scn, dice)


def test_on_table_artillery_lands_when_the_firing_unit_next_activates(impacts_seen):
    g = _on_table_game([("d8", 2)])
    request(g)
    g.apply(("fire_target", 22.0, 9.0))
    m = fsr.fire_support_state(g)["missions"][0]
    assert m["state"] == "waiting" and not events_of(g, "FireSupportCounterMoved")  # no counter on the track
    g.apply(("end",))
    activate(g, 2)  # red
    g.apply(("end",))
    activate(g, 1)  # the firing unit's next activation: the rounds land, one of its two actions
    assert [(t, mm["asset"], mm["firer"], mm["size"], mm["rounds"]) for t, mm in impacts_seen] == [
        (1, "on_table", 1, "small", 2)]
    assert g.decision().kind == "action" and g.actions_left == 1
    assert m["state"] == "fired" and known_entities(g, 1) == []


def test_on_table_artillery_requested_by_its_own_unit_waits_for_its_next_activation(impacts_seen):
    g = _on_table_game([("d8", 8)])
    request(g, uid=1)  # the mortar requests for itself (its crew observes)
    g.apply(("fire_target", 22.0, 9.0))
    g.apply(("end",))
    assert impacts_seen == []
    finish_turn(g)
    activate(g, 1)
    assert len(impacts_seen) == 1 and impacts_seen[0][0] == 2


def test_on_table_artillery_is_cancelled_when_its_firing_unit_leaves_play(impacts_seen):
    g = _on_table_game([("d8", 2)])
    request(g)
    g.apply(("fire_target", 22.0, 9.0))
    g.units[1].location = "routed_off"
    g.invalidate()
    finish_turn(g)
    assert events_of(g, "FireMissionCancelled") and fsr.fire_support_state(g)["missions"][0]["state"] == "cancelled"
    assert known_entities(g, 1) == [] and impacts_seen == []


def test_an_on_table_asset_names_a_unit_of_its_side_with_a_heavy_weapon():
    for bad, words in (({"unit": "Nobody"}, "no unit of that name"), ({"unit": "HQ"}, "heavy weapon"),
                       ({}, "names its firing unit")):
        scn = scenario([unit("HQ", (24, 5)), unit("Mortar", (30, 3), heavy_weapon="towed_field_gun")],
                       [unit("Red", (24, 40))])
        scn["sides"][0]["fire_support"] = [{"name": "Guns", "firer": "on_table", **bad}]
        with pytest.raises(ScenarioError, match=words):
            Game(scn, seed=0)
    scn["sides"][0]["fire_support"] = [{"name": "Guns", "firer": "company", "unit": "Mortar"}]
    with pytest.raises(ScenarioError, match="only it"):
        Game(scn, seed=0)


# ---------------------------------------------------------------------------------------------- the rule's state
def test_the_fire_support_state_is_one_component_saved_in_the_form_of_before_and_copied_apart(impacts_seen):
    from dustup_env.rules.kernel.state import load_components, saved_components
    g = fs_game(assets=[asset("company")], dice=[("d8", 8)])
    request(g)
    g.apply(g.decision().options[0])
    saved = saved_components(g.components)
    assert saved["fire_support"] == {"left": [[0], []], "chits": [0, 0], "missions": fsr.fire_support_state(g)["missions"]}
    assert load_components(saved)[fsr.FireSupportState] == g.components[fsr.FireSupportState]  # an older save loads
    c = g.clone()
    fire_missions.missions(c, 0)[0]["state"] = "fired"
    fsr.fire_support_state(c)["left"][0][0] = 5
    assert fire_missions.missions(g, 0)[0]["state"] == "inbound" and fsr.missions_left(g, 0) == [0]
    assert fire_missions.missions(g, 1) == [] and fsr.chits_left(g, 1) == 0
    assert fsr.fire_support_state(Game(scenario([unit("A", (1, 1))], [unit("B", (5, 5))]), seed=1)) is None
