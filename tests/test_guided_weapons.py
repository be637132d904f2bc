"""Guided Weapons (seed 000 Armoured Dustup): ECM, guidance, the firing procedure, remote launchers, decoys and area
protection (the targeted side's ``intercept`` decision).  Forced dice; vehicles through tests/weapons_helpers.py."""
import pytest

from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, unit
from weapons_helpers import damage_log, stand_in
from dustup_env.rules import D4, D6, D8, D10, D12, Game, ScriptedDice
from dustup_env.rules.armoured_dustup import guided_weapons as gw
from dustup_env.rules.armoured_dustup import heavy_weapons as hw
from dustup_env.rules.kernel.dice import exact_distribution

HIGH = ("medium", "high")


def team(name="ATGM", pos=(24, 5), n=2, **kw):
    return unit(name, pos, figures=(("rifle", n),), heavy_weapon="missile_team", **kw)


def game(blue, red, vehicles=None, options=None, terrain=(), first=0, height=80):
    scn = scenario(blue, red, terrain=terrain, height=height, commitment=HIGH)
    rules = (stand_in(vehicles),) if vehicles else ()
    g = Game(scn, seed=0, options=options, dice=ScriptedDice([("d8", 8), ("d8", 1)]), rules=rules)
    g.apply(("first",) if first == 0 else ("second",))
    return g


# --- pure rolls ----------------------------------------------------------------------------------------------------
def test_resolve_guided_miss_suppressed_hit():
    r = gw.resolve_guided(ScriptedDice([("d8", 5), ("d8", 5), ("d10", 5)]), quality=D8, guidance=D10, ecm=D8)
    assert (r.result, r.hits) == ("none", 0)  # draws go to the target
    r = gw.resolve_guided(ScriptedDice([("d8", 5), ("d8", 6), ("d10", 2)]), quality=D8, guidance=D10, ecm=D8)
    assert (r.result, r.hits) == ("minor", 0)
    r = gw.resolve_guided(ScriptedDice([("d8", 5), ("d8", 6), ("d10", 9)]), quality=D8, guidance=D10, ecm=D8)
    assert (r.result, r.hits) == ("major", 1)  # a single impact roll, whatever the total


def test_ecm_cover_shift_is_closed():
    assert gw.guided_ecm(D8, cover=True) == D10 and gw.guided_ecm(D12, cover=True) == D12
    assert gw.guided_ecm(D6, cover=False) == D6


def test_guided_odds_by_enumeration_match_the_seed_dice():
    d = exact_distribution(lambda dice: gw.resolve_guided(dice, quality=D8, guidance=D10, ecm=D10).result)
    assert float(d["none"]) == pytest.approx(0.445) and float(d["minor"]) == pytest.approx(0.31)


def test_a_decoy_draw_defeats_the_missile():
    """RN-921: the decoy is the target's defence, and "a draw will favour the 'defender'" (L357): the missile gets
    through only when its guidance die beats the decoy's roll."""
    assert gw.intercept_roll(ScriptedDice([("d8", 6), ("d8", 6)]), system=D8, guidance=D8)[0] is True
    assert gw.intercept_roll(ScriptedDice([("d8", 7), ("d8", 6)]), system=D8, guidance=D8)[0] is True
    assert gw.intercept_roll(ScriptedDice([("d8", 5), ("d8", 6)]), system=D8, guidance=D8)[0] is False


# --- firing at infantry --------------------------------------------------------------------------------------------
def test_man_packed_missile_needs_setting_up_and_fires_one_hit_at_infantry():
    g = game([team(weapon_ready=False)], [unit("B", (24, 65))])
    activate(g, 0)
    assert not any(o[0] == "fire_guided" for o in g.legal_options())
    g.apply(("reorganise", "set_up"))
    assert ("fire_guided", 1) in g.legal_options()  # 60": no range limit (L1288)
    # ECM D8 (infantry default) 2; quality D8 5, guidance D8 (average) 7: a hit; one hit: allocation D6 (5 figures) 3;
    # impact D10 (against infantry) 9 vs D4 2: killed
    add_dice(g, ("d8", 2), ("d8", 5), ("d8", 7), ("d6", 3), ("d10", 9), ("d4", 2), ("d8", 8))  # + its confidence test
    g.apply(("fire_guided", 1))
    e = last_event(g, "MissileFired")
    assert (e["ecm"], e["dice"], e["result"]) == ("d8", ["d8", "d8"], "major")
    assert g.units[1].n_able() == 4
    assert g.dice.remaining == 0


def test_unit_ecm_field_and_cover_or_concealment_shift_the_ecm_die():
    g = game([team()], [unit("B", (24, 45), ecm="d6")], terrain=[rect("light_woods", 20, 43, 28, 47)])
    activate(g, 0)
    add_dice(g, ("d8", 8), ("d8", 1), ("d8", 1))  # D6 +1 (woods) = D8: a miss
    g.apply(("fire_guided", 1))
    assert g.dice.remaining == 0
    assert last_event(g, "MissileFired")["ecm"] == "d8"
    assert last_event(g, "MissileFired")["result"] == "none"


@pytest.mark.parametrize("terrain, ecm", [("light_scrub", "d8"), ("rough", "d8"), ("light_woods", "d8"), ("open", "d6")])
def test_the_ecm_die_is_one_up_behind_concealment_or_cover_once(terrain, ecm):
    """RN-920: "The target uses an ECM die instead of a target die. The ECM die is shifted up by one if the target is
    behind cover" (L1290), and the rulebook's example calls a target whose target die is shifted "to account for the
    concealment" one "behind cover" (L653): concealment alone (light scrub), cover alone (rough) or both (light
    woods) shift the ECM die once; open ground not at all."""
    g = game([team()], [unit("B", (24, 44), ecm="d6")], terrain=[rect(terrain, 20, 43, 28, 47)])
    activate(g, 0)
    add_dice(g, (ecm, 1), ("d8", 1), ("d8", 1))
    g.apply(("fire_guided", 1))
    assert g.dice.remaining == 0
    assert last_event(g, "MissileFired")["ecm"] == ecm


def test_wire_guided_option_shifts_guidance_down_with_obscuration():
    terrain = [rect("light_woods", 20, 43, 28, 47)]
    g = game([team()], [unit("B", (24, 46))], terrain=terrain, options={"wire_guided": True})
    activate(g, 0)
    add_dice(g, ("d10", 10), ("d8", 1), ("d6", 1))
    g.apply(("fire_guided", 1))
    assert g.dice.remaining == 0
    assert last_event(g, "MissileFired")["dice"] == ["d8", "d6"]


def test_missile_fires_once_per_activation_and_never_with_small_arms():
    g = game([team(n=3)], [unit("B", (24, 45))])
    activate(g, 0)
    add_dice(g, ("d8", 8), ("d8", 1), ("d8", 1))
    g.apply(("fire_guided", 1))
    opts = g.legal_options()
    assert not any(o[0] == "fire_guided" for o in opts)
    assert g.units[0].fired == {0, 1}  # the standard crew of two
    assert ("shoot", 1, "all") in opts  # the third figure may fire its own weapon, a separate action


# --- vehicles, decoys and area protection -------------------------------------------------------------------------
def test_missile_at_a_vehicle_uses_its_ecm_and_asks_the_target_side_about_its_decoy():
    g = game([team()], [unit("Tank", (24, 45))], vehicles={"Tank": "main_battle_tank"})
    activate(g, 0)
    g.apply(("fire_guided", 1))
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "intercept", 1)
    assert set(d.options) == {("decoy",), ("decline",)}
    add_dice(g, ("d6", 3), ("d8", 5))  # decoy D6 3 vs guidance D8 5: fails
    add_dice(g, ("d8", 1), ("d8", 8), ("d8", 8), ("d12x2", 12), ("d12x3", 5))  # ECM D8; hit; impact vs front D12x3
    g.apply(("decoy",))
    assert g.dice.remaining == 0
    assert last_event(g, "MissileIntercepted")["defeated"] is False
    assert damage_log(g) == [[1, 1, "damaged"]]  # one hit, weapon class 1 (GMS/L)
    assert g.units[1].suppression == 1  # a hit also suppresses (L1431)
    assert g.decision().kind == "action" and g.actions_left == 1


def test_a_successful_decoy_defeats_the_missile_and_is_spent_for_the_turn():
    g = game([team(), team("ATGM2", (30, 5))], [unit("Tank", (24, 45))], vehicles={"Tank": "main_battle_tank"})
    activate(g, 0)
    g.apply(("fire_guided", 2))
    add_dice(g, ("d6", 6), ("d8", 5))
    g.apply(("decoy",))
    assert last_event(g, "MissileIntercepted")["defeated"] is True
    assert not events_of(g, "MissileFired")
    assert g.actions_left == 1
    assert gw.intercept_options(g, g.units[2], ()) == []  # spent for the rest of the turn
    g.turn += 1
    assert gw.intercept_options(g, g.units[2], ()) == [("decoy",)]  # a new turn: ready again


def test_a_decoy_roll_equal_to_the_guidance_die_defeats_the_missile():
    """RN-921: decoy D6 5 against guidance D8 5, a draw: the defender's, so the missile is defeated, no firing roll."""
    g = game([team()], [unit("Tank", (24, 45))], vehicles={"Tank": "main_battle_tank"})
    activate(g, 0)
    g.apply(("fire_guided", 1))
    add_dice(g, ("d6", 5), ("d8", 5))
    g.apply(("decoy",))
    assert g.dice.remaining == 0
    e = last_event(g, "MissileIntercepted")
    assert (e["roll"], e["guidance_roll"], e["defeated"]) == (5, 5, True)
    assert not events_of(g, "MissileFired") and g.units[1].suppression == 0


def test_decoys_multiple_option_never_spends_the_decoy():
    g = game([team()], [unit("Tank", (24, 45))], vehicles={"Tank": "main_battle_tank"},
             options={"decoys_multiple": True})
    activate(g, 0)
    g.apply(("fire_guided", 1))
    add_dice(g, ("d6", 6), ("d8", 5))
    g.apply(("decoy",))
    assert gw.intercept_options(g, g.units[1], ()) == [("decoy",)]


def test_area_protection_is_deployed_by_one_action_and_covers_friendly_vehicles_within_six_inches_once():
    red = [unit("Tank", (24, 45)), unit("AP", (28, 48), area_protection="d10")]
    g = game([team()], red, vehicles={"Tank": "apc_wheeled"}, first=1)
    activate(g, 2)
    assert ("reorganise", "deploy_protection") in g.legal_options()
    g.apply(("reorganise", "deploy_protection"))
    assert gw.protection(g, g.units[2])["state"] == "deployed"
    g.apply(("end",))
    activate(g, 0)
    g.apply(("fire_guided", 1))
    d = g.decision()
    assert d.kind == "intercept" and set(d.options) == {("area_protection", 2), ("decline",)}  # the APC has no decoy
    add_dice(g, ("d10", 9), ("d8", 8))
    g.apply(("area_protection", 2))
    assert last_event(g, "MissileIntercepted")["defeated"] is True
    assert gw.protection(g, g.units[2])["state"] == "spent"  # one shot
    assert gw.intercept_options(g, g.units[1], ()) == []


def test_area_protection_out_of_range_or_for_infantry_is_not_offered():
    red = [unit("Tank", (24, 45)), unit("AP", (24, 60), area_protection="d10")]
    g = game([team()], red, vehicles={"Tank": "apc_wheeled"})
    gw.protection(g, g.units[2]).update(state="deployed", at=[24.0, 60.0])
    assert gw.intercept_options(g, g.units[1], ()) == []  # 15" away
    gw.protection(g, g.units[2])["at"] = [24.0, 51.0]
    assert gw.intercept_options(g, g.units[1], ()) == [("area_protection", 2)]
    assert gw.intercept_options(g, g.units[2], ()) == []  # infantry: no interception


def test_each_system_tries_once_per_missile_then_the_missile_attacks():
    red = [unit("Tank", (24, 45)), unit("AP", (24, 48), area_protection="d10")]
    g = game([team()], red, vehicles={"Tank": "main_battle_tank"})
    gw.protection(g, g.units[2]).update(state="deployed", at=[24.0, 48.0])
    activate(g, 0)
    g.apply(("fire_guided", 1))
    add_dice(g, ("d6", 1), ("d8", 5))
    g.apply(("decoy",))
    assert set(g.decision().options) == {("area_protection", 2), ("decline",)}
    add_dice(g, ("d10", 2), ("d8", 5), ("d8", 8), ("d8", 1), ("d8", 1))
    g.apply(("area_protection", 2))
    assert g.dice.remaining == 0
    assert last_event(g, "MissileFired")["result"] == "none"


# --- remote launchers ----------------------------------------------------------------------------------------------
def test_remote_launcher_needs_one_more_action_and_the_operator_fires_from_up_to_12_inches():
    g = game([team()], [unit("B", (24, 45))])
    activate(g, 0)
    assert ("reorganise", "remote") in g.legal_options()
    g.apply(("reorganise", "remote"))
    add_dice(g, ("d6", 4))  # the operator moves 8" away
    mv = [o for o in g.legal_options() if o[0] == "move"]
    g.apply(mv[0])
    u = g.units[0]
    st = hw.state(g, u)
    assert st["remote"] and not st["abandoned"] and 0 < hw.math.hypot(u.x - st["at"][0], u.y - st["at"][1]) <= 12
    st["fired"] = False  # the next activation
    assert gw.may_launch(g, u, hw.weapon_of(g, u), st)
    assert gw.guided_plan(g, u, g.units[1], hw.weapon_of(g, u).weapon, tuple(st["at"])) is not None


def test_remote_operator_beyond_12_inches_abandons_the_launcher():
    g = game([team()], [unit("B", (24, 75))], height=90)
    u = g.units[0]
    activate(g, 0)
    g.apply(("reorganise", "remote"))
    st = hw.state(g, u)
    hw._after_move(g, u, (u.x, u.y), False)  # no move: nothing
    u.x += 11.0
    hw._after_move(g, u, (u.x - 11.0, u.y), False)
    assert not st["abandoned"]
    assert gw.may_launch(g, u, hw.weapon_of(g, u), st)
    u.x += 2.0
    hw._after_move(g, u, (u.x - 2.0, u.y), False)
    assert st["abandoned"]


def test_either_the_operator_or_the_launcher_may_see_the_target():
    terrain = [rect("building", 10, 20, 18, 30)]
    g = game([team(pos=(14, 5))], [unit("B", (14, 45))], terrain=terrain)
    u = g.units[0]
    st = hw.state(g, u)
    prof = hw.weapon_of(g, u)
    assert gw.guided_plan(g, u, g.units[1], prof.weapon) is None  # the building blocks the launcher
    st["remote"] = True
    u.x = 24.0  # the operator 10" away sees past the building
    assert gw.guided_plan(g, u, g.units[1], prof.weapon, tuple(st["at"])) is not None


def test_no_range_limit():
    g = game([team()], [unit("B", (24, 195))], height=200)
    activate(g, 0)
    assert ("fire_guided", 1) in g.legal_options()
