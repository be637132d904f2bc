"""Seed 003 house rules close combat (game option close_combat="house") and Night Fighting (option night)."""
from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, unit

from dustup_env.rules.assault_action import begin_assault
from dustup_env.rules.close_combat_house import melee_dice, resolve_melee
from dustup_env.rules.dice import D4, D6, D8, D10, D12, ScriptedDice
from dustup_env.rules.forces import BROKEN, KILLED, ROUTED, SHAKEN, STEADY, WOUNDED

HOUSE = {"close_combat": "house"}
END_TURN = [("d8", 8), ("d8", 1)]


def close(att=None, dfn=None, terrain=(), options=HOUSE, extra_red=()):
    """Two squads 2" apart (the two-inch rule: no courage test, contact at once)."""
    a = dict(figures=(("rifle", 8),), quality="d8", confidence="steady", armour="partial_light")
    a.update(att or {})
    d = dict(figures=(("rifle", 6),), quality="d10", confidence="steady", armour="partial_light")
    d.update(dfn or {})
    dpos = d.pop("pos", (24, 13.5))
    scn = scenario([unit("A", (24, 10), **a)], [unit("B", dpos, **d), *extra_red], terrain=terrain)
    g = begin(scn, [], options=options)
    activate(g, 0)
    return g


def test_melee_dice_and_the_over_twelve_alteration():
    g = close(att={"figures": (("rifle", 5), ("laser_sword", 1))})
    a = g.units[0]
    assert melee_dice(a, a.able()) == ([D6, D8], False)
    g = close(att={"figures": (("rifle", 14),)})
    assert melee_dice(g.units[0], g.units[0].able()) == ([D12], True)


def test_resolve_melee_one_success_is_a_threat_and_major_is_not_doubled():
    d = ScriptedDice([("d10", 5), ("d8", 6), ("d8", 2)])
    assert resolve_melee(d, quality=D8, melee=[D8], target=D10) == (5, (6, 2), 1, "threat", 0)
    d = ScriptedDice([("d8", 3), ("d10", 9), ("d6", 5), ("d8", 6)])  # 14 / 8 = 1 r6, d8 6 <= 6: 2 hits
    assert resolve_melee(d, quality=D10, melee=[D6], target=D8) == (3, (9, 5), 2, "major", 2)
    assert d.remaining == 0


def test_house_round_threat_casualties_and_reaction_test():
    g = close()
    add_dice(g, ("d10", 5), ("d8", 6), ("d8", 2),  # attacker strikes: one success -> threat on the defender
             ("d8", 3), ("d10", 9), ("d6", 5), ("d8", 2),  # defender strikes: 14/8 = 1 r6, d8 2 -> 2 hits
             ("d8", 2), ("d8", 3), ("d6", 4), ("d6", 3), ("d6", 1), ("d6", 1))  # one wound, one miss
    g.apply(("assault", 1))
    strikes = events_of(g, "StrikeResolved")
    assert [(s["result"], s["hits"]) for s in strikes] == [("threat", 0), ("major", 2)]
    assert g.units[0].figures[1].status == WOUNDED
    d = g.decision()
    assert (d.kind, d.side, d.unit) == ("assault_response", 1, 1)  # voluntary withdrawal: defender first
    g.apply(("stand",))
    assert g.decision().unit == 0
    # reaction: attacker d8 -1 (wound) = d6; defender d10 -1 (threat) = d8; 2 vs 5: attacker loses two levels
    add_dice(g, ("d6", 2), ("d8", 5), ("d6", 3), ("d8", 7), *END_TURN)  # withdraw d6; abandon-wounded test
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert (ct["attacker_die"], ct["defender_die"], ct["result"]) == ("d6", "d8", "attacker_loses_two")
    assert ("threat", -1) in ct["defender_shifts"]
    assert g.units[0].confidence == BROKEN and g.dice.remaining == 0


def test_first_round_defender_shift_and_morale_shifts_then_a_draw_fights_again():
    g = close(dfn={"confidence": "broken"})
    g.units[1].propped = True
    # round 1: target d10 -2 (broken) +1 (in position) = d8; the broken defender strikes with d10 -2 = d6
    add_dice(g, ("d8", 8), ("d8", 1), ("d8", 1), ("d8", 8), ("d6", 1), ("d6", 1))
    g.apply(("assault", 1))
    s = events_of(g, "StrikeResolved")
    assert s[0]["target_die"] == "d8" and s[1]["striker_dice"] == ["d6", "d6"]
    g.apply(("stand",))
    # reaction: draw (house morale -2 on the defender: d10 -> d6) -> another round without the +1
    add_dice(g, ("d8", 4), ("d6", 4),
             ("d6", 6), ("d8", 1), ("d8", 1), ("d8", 8), ("d6", 1), ("d6", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert ct["result"] == "draw_continue" and ct["defender_shifts"] == [("house_morale", -2)]
    s = events_of(g, "StrikeResolved")
    assert s[2]["round"] == 2 and s[2]["target_die"] == "d6"
    assert g.decision().kind == "assault_response" and g.dice.remaining == 0


def test_voluntary_withdrawal_after_a_round():
    g = close()
    add_dice(g, ("d10", 10), ("d8", 1), ("d8", 1), ("d8", 8), ("d10", 1), ("d6", 1))
    g.apply(("assault", 1))
    add_dice(g, ("d6", 2), *END_TURN)
    g.apply(("withdraw",))
    b = g.units[1]
    assert b.confidence == SHAKEN and b.y > 13.5
    assert not events_of(g, "CourageTested") and g.dice.remaining == 0
    assert g.decision().kind == "initiative"


def test_multiple_squads_split_their_attacks_evenly():
    g = close(att={"figures": (("rifle", 10),)}, dfn={"figures": (("rifle", 8),), "pos": (21, 13.5)},
              extra_red=[unit("C", (27, 13.5), figures=[{"weapon": "rifle", "count": 6}], confidence="steady",
                              armour="partial_light", quality="d10")])
    # A strikes B and C with 5 figures each (d6); B (8: d8) and C (6: d6) strike back; all miss
    add_dice(g, ("d10", 10), ("d8", 1), ("d6", 1), ("d8", 8), ("d10", 1), ("d8", 1),
             ("d10", 10), ("d8", 1), ("d6", 1), ("d8", 8), ("d10", 1), ("d6", 1))
    begin_assault(g, [0], [1, 2], via_action=True)
    s = events_of(g, "StrikeResolved")
    assert [(e["striker"], e["striker_dice"]) for e in s] == [
        (0, ["d8", "d6"]), (1, ["d10", "d8"]), (0, ["d8", "d6"]), (2, ["d10", "d6"])]
    assert g.dice.remaining == 0 and g.decision().kind == "assault_response"


def test_standard_rules_are_the_default():
    g = close(options=None)
    assert g.options["close_combat"] == "dustup" and g.options["night"] is False


def test_night_fighting_shifts_the_target_die_up_twice():
    scn = scenario([unit("A", (24, 5)), unit("N", (30, 5), night_vision=True)], [unit("B", (24, 35))])
    g = begin(scn, [], options={"night": True})
    assert g.fire_plan(0, 2, "all")["target_die"] == D12  # d8 +2 at 30"
    assert g.fire_plan(1, 2, "all")["target_die"] == D8
    g = begin(scn, [])
    assert g.fire_plan(0, 2, "all")["target_die"] == D8


# ------------------------------------------------------------------ seed 003 Cover and Concealment: spotting
def spotting_scn(observer=(20, 22), size=None):
    """Blue observer A (uid 0); Red B far away and H (uid 2) hidden in a wood with one dummy (RN-400)."""
    h = unit("H", (20, 30), hidden=True, **({"size": size} if size else {}))
    scn = scenario([unit("A", observer)], [unit("B", (44, 46)), h], terrain=[rect("light_woods", 10, 28, 34, 34)])
    scn["sides"][1]["dummies"] = [[14, 30]]
    return scn


def test_house_concealment_shifts_the_range_die_for_spotting():
    from dustup_env.rules.detect_action import house_concealed
    # standard rules: no concealment shift (8": D8)
    g = begin(spotting_scn())
    activate(g, 0)
    assert not house_concealed(g, g.units[0], 20, 30)
    add_dice(g, ("d8", 3), ("d8", 5), ("d4", 4))
    g.apply(("detect", 1))
    assert last_event(g, "DetectionAttempted")["range_die"] == "d8" and not g.units[2].hidden
    # house rules: the marker in the wood is partially concealed: D8 +1 = D10, the same rolls now fail
    g = begin(spotting_scn(), options=HOUSE)
    activate(g, 0)
    add_dice(g, ("d10", 5), ("d8", 5), ("d4", 4))
    g.apply(("detect", 1))
    ev = last_event(g, "DetectionAttempted")
    assert (ev["range_die"], ev["result"]) == ("d10", "none") and g.units[2].hidden
    assert g.dice.remaining == 0


def test_house_concealment_is_a_closed_shift_net_of_the_size_shift():
    from dustup_env.rules.detect_action import range_die
    assert range_die(30.0, concealed=True) == D12  # D12 stays D12 (closed), still detectable under 48"
    assert range_die(48.0, concealed=True) is None
    assert range_die(5.0, size=2, concealed=True) == D8 and range_die(15.0, concealed=True) == D12
    g = begin(spotting_scn(observer=(20, 2)), options=HOUSE)  # 28": D12 band
    activate(g, 0)
    add_dice(g, ("d12", 12), ("d8", 1), ("d4", 1))
    g.apply(("detect", 1))
    assert last_event(g, "DetectionAttempted")["range_die"] == "d12" and g.dice.remaining == 0
    g = begin(spotting_scn(size=2), options=HOUSE)  # size 2: -1, concealed +1: D8 at 8"
    activate(g, 0)
    add_dice(g, ("d8", 1), ("d8", 2), ("d4", 2))
    g.apply(("detect", 1))
    assert last_event(g, "DetectionAttempted")["range_die"] == "d8" and not g.units[2].hidden


def test_house_concealment_needs_concealing_terrain_at_or_before_the_marker():
    from dustup_env.rules.detect_action import house_concealed
    g = begin(spotting_scn(), options=HOUSE)
    a = g.units[0]
    assert house_concealed(g, a, 20, 30)  # in the wood
    assert not house_concealed(g, a, 40, 24)  # in the open, nothing in between
    assert house_concealed(g, a, 37, 30)  # in the open beyond a corner of the wood: seen through it
    # a marker moved into the open (as a test device) is spotted without the shift: 8" D8
    activate(g, 0)
    g.markers[0].update(x=20.0, y=26.0)  # the dummy, 4" away in the open
    add_dice(g, ("d8", 1), ("d8", 2), ("d4", 2))
    g.apply(("detect", 0))
    assert last_event(g, "DetectionAttempted")["range_die"] == "d8" and g.markers[0]["removed"]
