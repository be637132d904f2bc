"""Electronic Warfare (seed 000 "Additional Rules › Electronic Warfare", L2024-2062): forced-dice tests.

EW units rated by quality (L2028), active with three counters from an activation (L2030), extra counters shifting
the die (L2042), jamming communications (L2046), remote spotting (L2050-2052), disrupting sensors and guidance
(L2056-2058) and opposing enemy EW (L2062).  Every attempt made during the other side's action is a decision of
the EW side (``ew_watch`` at the start of the enemy activation, ``ew_oppose``)."""
from __future__ import annotations

import pytest

from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, unit
from dustup_env.rules import Game, ScenarioError, ScriptedDice
from dustup_env.rules.additional_rules import electronic_warfare as ew

WOOD = rect("light_woods", 10, 28, 34, 34)
BLOCK = rect("building", 16, 18, 30, 24)


def ew_scn(blue_ew=False, red_extra=(), blue_extra=(), terrain=(), **kw):
    """Blue: HQ (uid 0) commanding squad S (uid 1) 30" away; with ``blue_ew`` an EW team T (uid 2).  Red: EW team
    R (``red_ew``, average), then ``red_extra``."""
    blue = [unit("HQ", (10, 5), kind="hq", leadership=1), unit("S", (40, 5), commander="HQ")]
    if blue_ew:
        blue.append(unit("T", (24, 2), ew=blue_ew))
    blue += list(blue_extra)
    red = [unit("R", (24, 44), ew=kw.pop("red_ew", "average"))] + list(red_extra)
    return scenario(blue, red, terrain=list(terrain), **kw)


def red_uid(g, name):
    return next(u.uid for u in g.units if u.name == name)


def switch_on(g, uid):
    """Activate ``uid``, mark its EW active and end its activation."""
    activate(g, uid)
    g.apply(("ew_on",))
    g.apply(("end",))


def counters(g, uid):
    return ew.ew_states(g)[str(uid)]["counters"]


# ------------------------------------------------------------------------------------------ EW units
def test_ew_systems_are_rated_inferior_average_superior():
    """L2028: "EW systems are rated inferior, average and superior quality as for other systems" (RN-023: D6, D8,
    D10; very inferior D4 and very superior D12 allowed); any other rating is a one-line scenario error."""
    g = Game(ew_scn(blue_ew="superior", red_ew="inferior"), seed=0)
    assert ew.ew_states(g) == {"2": {"die": "d10", "active": False, "counters": 0},
                               "3": {"die": "d6", "active": False, "counters": 0}}
    with pytest.raises(ScenarioError, match="ew: .great. is not one of"):
        Game(ew_scn(red_ew="great"), seed=0)
    assert "Electronic Warfare" not in [r.name for r in Game(scenario([unit("A", (5, 5))], [unit("B", (5, 40))]),
                                                              seed=0).rules.rules]


def test_marking_the_system_active_costs_no_action_and_gives_three_counters():
    """L2030: "When a unit with an EW capability is activated, mark whether the EW system is active or not. When it
    is activated, the EW unit gets three EW counters" (RN-174: marking it costs no action)."""
    g = begin(ew_scn(), first=1)
    activate(g, 2)
    assert ("ew_on",) in g.legal_options()
    g.apply(("ew_on",))
    assert g.stack[-1].actions_left == 2 and ("ew_on",) not in g.legal_options()
    assert ew.ew_states(g)["2"] == {"die": "d8", "active": True, "counters": 3}
    assert last_event(g, "EWSwitchedOn")["counters"] == 3


def test_counters_lapse_at_the_units_next_activation():
    """L2030: the counters are "the number of EW attempts the unit can make before its next activation"; at that
    activation the system is inactive until marked again."""
    g = begin(ew_scn(), first=1)
    switch_on(g, 2)
    activate(g, 0)
    g.apply(("decline",))  # Red's listening decision at the HQ's activation
    g.apply(("end",))
    activate(g, 1)  # Red has no unit left to activate: Blue finishes the turn
    add_dice(g, ("d8", 8), ("d8", 1))  # the next turn's initiative
    g.apply(("end",))
    assert g.turn == 2 and ew.ew_states(g)["2"]["counters"] == 3  # kept until the unit's next activation
    g.apply(("second",))
    activate(g, 2)
    assert ew.ew_states(g)["2"] == {"die": "d8", "active": False, "counters": 0}
    assert ("ew_on",) in g.legal_options()


# ------------------------------------------------------------------------------------------ jamming
def jam_game(comm_roll, ew_roll, n=1, blue_ew=False, **kw):
    g = begin(ew_scn(blue_ew=blue_ew, **kw), first=1)
    r = red_uid(g, "R")
    switch_on(g, r)
    activate(g, 0)  # the HQ: Red may listen to its activation
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "choose", 0)
    assert d.options == (("ew_watch", r, 1), ("ew_watch", r, 2), ("ew_watch", r, 3), ("decline",))
    g.apply(("ew_watch", r, n))
    return g, r


def test_jamming_cancels_the_message_when_the_ew_die_exceeds_the_communication_die():
    """L2046: "When the communicating player rolls their communication die, the EW player also rolls their EW die.
    If the EW die exceeds the communications die (regardless of whether the communication roll was successful) the
    communication attempt fails."  The EW die rolls after the communication die."""
    g, r = jam_game(6, 7)
    assert g.decision().kind == "action" and g.decision().unit == 0
    add_dice(g, ("d8", 6), ("d8", 7))  # communication D8 6 > LV 2: a success, but the EW D8 7 exceeds it
    g.apply(("order", 1))
    assert last_event(g, "OrderGiven")["success"] is False
    e = last_event(g, "EWAttempt")
    assert (e["task"], e["die"], e["roll"], e["against"], e["against_roll"], e["success"]) == \
        ("jam", "d8", 7, "d8", 6, True)
    assert counters(g, r) == 2 and g.dice.remaining == 0


def test_a_tie_does_not_jam_and_the_listening_is_spent():
    g, r = jam_game(6, 6)
    add_dice(g, ("d8", 6), ("d8", 6))
    g.apply(("order", 1))
    assert last_event(g, "OrderGiven")["success"] is True and last_event(g, "EWAttempt")["success"] is False
    assert counters(g, r) == 2 and g.dice.remaining == 0


def test_a_failed_communication_is_jammed_too_regardless_of_its_roll():
    g, r = jam_game(1, 2)
    add_dice(g, ("d8", 1), ("d8", 2))
    g.apply(("order", 1))
    assert last_event(g, "EWAttempt")["success"] is True and last_event(g, "OrderGiven")["success"] is False


def test_extra_counters_shift_the_ew_die_and_the_last_counter_makes_the_system_inactive():
    """L2042: "expending addition chits each of which improve the die type by one"; L2030: "Once they are used,
    the unit's EW capability is inactive"."""
    g, r = jam_game(7, 9, n=3)
    add_dice(g, ("d8", 7), ("d12", 9))  # D8 + 2 = D12
    g.apply(("order", 1))
    assert last_event(g, "EWAttempt")["die"] == "d12" and last_event(g, "OrderGiven")["success"] is False
    assert ew.ew_states(g)[str(r)] == {"die": "d8", "active": False, "counters": 0}


def test_an_unused_listening_costs_nothing_and_lapses_at_the_end_of_the_activation():
    g, r = jam_game(0, 0)
    g.apply(("end",))  # the HQ communicates nothing
    assert counters(g, r) == 3
    assert not (g.components[ew.EWState].ew_listening or {})


def test_automatic_communication_is_not_jammed():
    """Only rolled communications are jammed ("when the communicating player rolls")."""
    scn = ew_scn()
    scn["sides"][0]["units"][1]["position"] = [12, 5]  # within 6" and in sight: automatic
    g = begin(scn, first=1)
    switch_on(g, 2)
    activate(g, 0)
    g.apply(("ew_watch", 2, 1))
    g.apply(("order", 1))
    assert last_event(g, "CommunicationAttempted")["automatic"] is True
    assert not events_of(g, "EWAttempt") and g.dice.remaining == 0 and counters(g, 2) == 3


def test_setting_jamming_applies_first_and_ew_jamming_joins_it():
    """RN-1752: the game option ``jamming`` (Communicate › Jamming, L985-987) shifts the communication die first;
    the EW unit's attempt then rolls against the communication roll."""
    scn = ew_scn()
    scn["sides"][1]["jammer"] = "d8"
    g = begin(scn, first=1, options={"jamming": True})
    switch_on(g, 2)
    activate(g, 0)
    g.apply(("ew_watch", 2, 1))
    # comms D8 5, jammer D8 6 (minor: one shift down), communication D6 5, EW D8 4: not jammed by EW
    add_dice(g, ("d8", 5), ("d8", 6), ("d6", 5), ("d8", 4))
    g.apply(("order", 1))
    c = last_event(g, "CommunicationAttempted")
    assert (c["jam_shift"], c["die"], c["success"]) == (1, "d6", True)
    assert last_event(g, "EWAttempt")["success"] is False and g.dice.remaining == 0


def test_opposing_ew_foils_the_jamming():
    """L2062: "The disrupting player simply rolls their own EW die at the same time as the active player. If the
    disruption die beats the EW die, the EW attempt has failed."  The acting side decides to oppose (``ew_oppose``)."""
    g = begin(ew_scn(blue_ew="average"), first=0)
    switch_on(g, 2)  # Blue's EW team T
    switch_on(g, 3)  # Red's R
    activate(g, 0)
    g.apply(("ew_watch", 3, 1))
    d = g.decision()
    assert (d.side, d.kind) == (0, "choose")
    assert d.options == (("ew_oppose", 2, 1), ("ew_oppose", 2, 2), ("ew_oppose", 2, 3), ("decline",))
    g.apply(("ew_oppose", 2, 2))
    add_dice(g, ("d8", 5), ("d8", 7), ("d10", 8))  # communication 5, EW 7 exceeds it, but the opposing D10 8 beats it
    g.apply(("order", 1))
    e = last_event(g, "EWAttempt")
    assert (e["defender"], e["opposing_die"], e["opposing_roll"], e["success"]) == (2, "d10", 8, False)
    assert last_event(g, "OrderGiven")["success"] is True
    assert counters(g, 2) == 1 and counters(g, 3) == 2 and g.dice.remaining == 0


def test_no_listening_decision_for_a_hidden_enemy_unit():
    """The EW side does not know that a hidden unit is acting: no window opens for it."""
    blue = [unit("HQ", (20, 30), kind="hq", leadership=1, hidden=True), unit("S", (40, 5), commander="HQ")]
    g = begin(scenario(blue, [unit("R", (24, 44), ew="average")], terrain=[WOOD]), first=1)
    switch_on(g, 2)
    activate(g, 0)
    assert g.decision().kind == "action" and g.decision().unit == 0


# ------------------------------------------------------------------------------------------ remote spotting
def spot_scn(hidden_at=(20, 30), ew_at=(20, 10), terrain=(WOOD,), red_ew=False):
    red = [unit("B", (44, 46)), unit("H", hidden_at, hidden=True)]
    if red_ew:
        red.append(unit("RE", (44, 44), ew=red_ew))
    scn = scenario([unit("E", ew_at, ew="average")], red, terrain=list(terrain))
    scn["sides"][1]["dummies"] = [[14, 30]]
    return scn


def test_remote_spotting_reveals_a_hidden_unit_out_of_sight_at_no_action():
    """L2050-2052: "An active EW unit may expend one or more chits at any time to attempt to identify any hidden
    enemy units, whether or not the hidden counter is in line of sight"; the target rolls D6 concealed, "shifted up
    one if it is not in direct line of sight of the EW unit"; success reveals it (RN-1753: no action)."""
    g = begin(spot_scn(terrain=(WOOD, BLOCK)))
    activate(g, 0)
    g.apply(("ew_on",))
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    assert ("ew_spot", h, 1) in g.legal_options() and ("ew_spot", h, 3) in g.legal_options()
    assert not g.bf.sight(20, 10, 20, 30).visible
    add_dice(g, ("d8", 5), ("d8", 6))  # target D6 + 1 (out of sight) = D8 5; EW D8 6 beats it
    g.apply(("ew_spot", h, 1))
    assert not g.units[2].hidden and last_event(g, "UnitRevealed")["unit"] == 2
    assert g.stack[-1].actions_left == 2 and counters(g, 0) == 2 and g.dice.remaining == 0


def test_remote_spotting_a_dummy_removes_it_and_a_tie_fails():
    g = begin(spot_scn())
    activate(g, 0)
    g.apply(("ew_on",))
    dummy = next(i for i, m in enumerate(g.markers) if m["unit"] < 0)
    add_dice(g, ("d6", 4), ("d8", 4))  # in sight: D6 (concealing woods); a tie fails
    g.apply(("ew_spot", dummy, 1))
    assert not g.markers[dummy]["removed"]
    add_dice(g, ("d6", 4), ("d10", 5))  # two counters: D10
    g.apply(("ew_spot", dummy, 2))
    assert g.markers[dummy]["removed"] and last_event(g, "MarkerRemoved")["reason"] == "dummy"
    assert ew.ew_states(g)["0"]["active"] is False and g.dice.remaining == 0
    assert not any(o[0] == "ew_spot" for o in g.legal_options())


def test_a_marker_in_the_open_rolls_a_d4():
    """L2052: "A hidden unit in the open uses a D4" (a marker outside concealing terrain)."""
    g = begin(spot_scn())
    m = {"x": 40.0, "y": 20.0}
    assert ew.spot_target_die(g, g.units[0], m) == 0  # D4
    assert ew.spot_target_die(g, g.units[0], {"x": 20.0, "y": 30.0}) == 1  # D6 in the woods


def test_the_markers_side_may_oppose_remote_spotting():
    """L2062, a decision of the hidden unit's side during the EW unit's action."""
    g = begin(spot_scn(red_ew="superior"), first=1)
    switch_on(g, 3)
    activate(g, 0)
    g.apply(("decline",))  # Red listens to nothing
    g.apply(("ew_on",))
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    g.apply(("ew_spot", h, 1))
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "choose", -1)
    add_dice(g, ("d6", 2), ("d8", 5), ("d10", 6))  # EW 5 beats the target's 2, but the opposing D10 6 beats the EW
    g.apply(("ew_oppose", 3, 1))
    e = last_event(g, "EWAttempt")
    assert (e["task"], e["marker"], e["defender"], e["success"]) == ("spot", h, 3, False)
    assert g.units[2].hidden and g.decision().kind == "action" and g.stack[-1].actions_left == 2
    assert counters(g, 3) == 2 and g.dice.remaining == 0


# ------------------------------------------------------------------------------------------ sensors and guidance
def test_disrupting_the_sensor_makes_a_detection_fail():
    """L2056-2058: "Whenever the enemy performs an action using sensors ... the EW player rolls their EW die. If
    the EW die beats any of the other player's quality die then the action has been disrupted and fails" (RN-174:
    the sensor die)."""
    scn = scenario([unit("A", (20, 22), sensor="enhanced")],
                   [unit("B", (44, 46)), unit("H", (20, 30), hidden=True), unit("R", (40, 46), ew="average")],
                   terrain=[WOOD])
    g = begin(scn, first=1)
    switch_on(g, 3)
    activate(g, 0)
    assert g.decision().kind == "choose" and g.decision().options[0][0] == "ew_watch"
    g.apply(("ew_watch", 3, 1))
    # range D8; quality D6 ... the unit's quality D8 7, sensor D8 6: a major success, but the EW D8 7 beats the sensor
    add_dice(g, ("d8", 2), ("d8", 7), ("d8", 6), ("d8", 7))
    g.apply(("detect", 0))
    assert last_event(g, "DetectionAttempted")["result"] == "none"
    assert g.units[2].hidden and last_event(g, "EWAttempt")["task"] == "sensor" and g.dice.remaining == 0


def test_disrupting_the_guidance_makes_a_missile_miss():
    """L2056-2058 for guidance systems: the EW die beating the guidance die's roll; the missile misses."""
    team = unit("ATGM", (24, 5), figures=(("rifle", 2),), heavy_weapon="missile_team")
    g = Game(scenario([team], [unit("B", (24, 65)), unit("R", (40, 70), ew="average")], height=80,
                      commitment=("medium", "high")), seed=0, dice=ScriptedDice([("d8", 8), ("d8", 1)]))
    g.apply(("second",))
    switch_on(g, 2)
    activate(g, 0)
    g.apply(("ew_watch", 2, 1))
    add_dice(g, ("d8", 2), ("d8", 5), ("d8", 7), ("d8", 8))  # ECM 2, quality 5, guidance 7 (a hit); EW 8 beats 7
    g.apply(("fire_guided", 1))
    assert last_event(g, "MissileFired")["result"] == "none"  # disrupted: it fails
    assert last_event(g, "EWAttempt")["task"] == "guidance" and last_event(g, "EWAttempt")["success"] is True
    assert g.units[1].n_able() == 5 and g.units[1].suppression == 0 and g.dice.remaining == 0


def test_a_failed_remote_spotting_does_not_tell_a_dummy_from_the_hidden_unit():
    """Twins where the spotted marker is the hidden unit in one and a dummy in the other: after a failed attempt the
    spotting side's log, view and options are the same (the event names the marker, never what it hides)."""
    def game(real_left):
        scn = spot_scn(hidden_at=(14, 30) if real_left else (20, 30))
        scn["sides"][1]["dummies"] = [[20, 30] if real_left else [14, 30]]
        g = begin(scn)
        activate(g, 0)
        g.apply(("ew_on",))
        add_dice(g, ("d6", 4), ("d8", 3))
        g.apply(("ew_spot", 0, 1))  # the marker at (14, 30): the first by position
        return g
    a, b = game(True), game(False)
    assert a.units[2].hidden and b.units[2].hidden and a.state_digest() != b.state_digest()
    assert a.event_log(0) == b.event_log(0) and a.view(0) == b.view(0)
    assert a.legal_options() == b.legal_options()


def test_a_hidden_opposing_unit_is_not_named_to_the_ew_side():
    """The opposing EW unit is the defender of the attempt: hidden, it is not named in the EW side's log."""
    blue = [unit("HQ", (10, 5), kind="hq", leadership=1), unit("S", (40, 5), commander="HQ"),
            unit("T", (20, 30), ew="average", hidden=True)]
    g = begin(scenario(blue, [unit("R", (24, 44), ew="average")], terrain=[WOOD]), first=0)
    switch_on(g, 2)
    activate(g, 3)
    g.apply(("decline",))  # Blue's hidden T could listen to R (R may detect its marker): it does not
    g.apply(("ew_on",))
    g.apply(("end",))
    activate(g, 0)
    g.apply(("ew_watch", 3, 1))
    g.apply(("ew_oppose", 2, 1))
    add_dice(g, ("d8", 5), ("d8", 7), ("d8", 8))
    g.apply(("order", 1))
    assert last_event(g, "EWAttempt")["defender"] == 2
    assert not any(e["type"] == "EWAttempt" for e in g.event_log(1))  # Red reads Hidden activity instead
    assert not any(2 in (e.get("unit"), e.get("defender")) for e in g.event_log(1))
