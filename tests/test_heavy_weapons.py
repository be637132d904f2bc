"""Heavy Weapons (seed 000 Armoured Dustup): moving, crews, abandonment, hits on the weapon, firing, range, the
large-target shift, fire control, vehicle targets (through the stand-in of tests/weapons_helpers.py).  Forced dice."""
import pytest

from conftest import activate, add_dice, begin, events_of, last_event, scenario, unit
from weapons_helpers import damage_log, stand_in
from dustup_env.rules import D4, D6, D8, D10, D12, Game, ScenarioError
from dustup_env.rules.armoured_dustup import heavy_weapons as hw
from dustup_env.rules.armoured_dustup.heavy_weapons import heavy_target_die, vehicle_impact
from dustup_env.rules.kernel.dice import ScriptedDice, exact_distribution, parse_die
from dustup_env.rules.kernel.entities import KILLED

HIGH = ("medium", "high")


def crew(name="HMG", pos=(24, 5), weapon="hmg_team", n=3, **kw):
    return unit(name, pos, figures=(("rifle", n),), heavy_weapon=weapon, **kw)


def duel(blue=None, red=None, dist=30.0, **kw):
    b = blue or crew()
    r = red or unit("B", (24, 5 + dist))
    return scenario([b], [r], height=max(60, 5 + dist + 10), commitment=HIGH, **kw)


def st(g, uid=0):
    return hw.state(g, g.units[uid])


# --- the target die (pure) ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw,step", [
    ({"distance": 30, "weapon_size": 1, "target_size": 1}, D8),
    ({"distance": 5, "weapon_size": 1, "target_size": 1}, D8),  # no short range (L1232)
    ({"distance": 48, "weapon_size": 1, "target_size": 1}, D8),
    ({"distance": 48.5, "weapon_size": 1, "target_size": 1}, D10),  # long range beyond 48" x size
    ({"distance": 144, "weapon_size": 3, "target_size": 1}, D8),  # size 3: 144"
    ({"distance": 145, "weapon_size": 3, "target_size": 1}, D10),
    ({"distance": 50, "weapon_size": 2, "target_size": 2}, D8),  # the seed's example: size 2 at a size 2 target: D8
    ({"distance": 50, "weapon_size": 2, "target_size": 3}, D6),  # ... at a size 3 target: D6 (L1236)
    ({"distance": 30, "weapon_size": 1, "target_size": 1, "fire_control": "inferior"}, D10),
    ({"distance": 30, "weapon_size": 1, "target_size": 1, "fire_control": "superior"}, D6),
    ({"distance": 30, "weapon_size": 1, "target_size": 1, "fire_control": "superior", "travel": True,
      "firer_quality": D12}, D4),  # closed at D4
    ({"distance": 30, "weapon_size": 1, "target_size": 1, "concealment": 1, "fire_control": "inferior"}, D12),
    ({"distance": 60, "weapon_size": 1, "target_size": 1, "concealment": 2}, -1),  # above D12: no engagement
    ({"distance": 30, "weapon_size": 1, "target_size": 1, "concealment": 1, "small": True,
      "fire_control": "inferior"}, -1),  # fire control is one more term of the net shift (RN-122)
])
def test_heavy_target_die(kw, step):
    assert heavy_target_die(**kw) == step


def test_effective_range_table():
    assert [hw.effective_range(s) for s in range(1, 6)] == [48, 96, 144, 192, 240]


def test_vehicle_impact_draw_goes_to_the_vehicle_and_double_destroys():
    assert vehicle_impact(ScriptedDice([("d12x2", 6), ("d12x3", 4)]), impact=parse_die("d12x2"),
                          armour=parse_die("d12x3"))[0] == "none"  # 12 vs 12
    assert vehicle_impact(ScriptedDice([("d12", 9), ("d8", 8)]), impact=D12, armour=D8)[0] == "damaged"
    assert vehicle_impact(ScriptedDice([("d12", 9), ("d8", 4)]), impact=D12, armour=D8)[0] == "destroyed"
    d = exact_distribution(lambda dice: vehicle_impact(dice, impact=parse_die("d12x2"), armour=parse_die("d12x3"))[0])
    assert (float(d["none"]), float(d["damaged"]), float(d["destroyed"])) == pytest.approx((0.69444, 0.18056, 0.125), abs=1e-4)


# --- firing at infantry ------------------------------------------------------------------------------------------
def test_hmg_fires_two_d6_with_inferior_fire_control_and_impact_d8():
    g = begin(duel())
    activate(g, 0)
    assert ("fire_heavy", 1) in g.legal_options()
    # target D8 +1 (inferior, closed) = D10: 3; quality D8 7, 2D6 5 6: major, 18 = 1 hit rem 8: remainder roll
    # D10 2 <= 8: 2 hits; allocation D6 (5 figures) 1, 2; impact D8 vs D4 armour 1 vs 4, 2 vs 4: no effect
    add_dice(g, ("d10", 3), ("d8", 7), ("d6", 5), ("d6", 6), ("d10", 2), ("d6", 1), ("d6", 2),
             ("d8", 1), ("d4", 4), ("d8", 2), ("d4", 4))
    g.apply(("fire_heavy", 1))
    assert g.dice.remaining == 0
    e = last_event(g, "HeavyWeaponFired")
    assert (e["target_die"], e["dice"], e["result"], e["hits"]) == ("d10", ["d8", "d6", "d6"], "major", 2)
    assert g.units[1].suppression == 1
    assert len(events_of(g, "HitResolved")) == 2


def test_the_heavy_weapon_fires_once_per_activation_and_the_crew_fire_nothing_else():
    g = begin(duel(blue=crew(n=4)))
    activate(g, 0)
    add_dice(g, ("d10", 9), ("d8", 1), ("d6", 1), ("d6", 1))
    g.apply(("fire_heavy", 1))
    assert g.dice.remaining == 0
    opts = g.legal_options()
    assert not any(o[0] == "fire_heavy" for o in opts)
    assert g.units[0].fired == {0, 1, 2}  # the standard crew of three; the fourth figure may still shoot (RN-700)
    assert ("shoot", 1, "all") in opts
    assert not any(o[0] == "fire_heavy" and len(o) != 2 for o in opts)


def test_heavy_weapons_never_combine_with_small_arms():
    g = begin(duel())
    activate(g, 0)
    add_dice(g, ("d10", 9), ("d8", 1), ("d6", 1), ("d6", 1))
    g.apply(("fire_heavy", 1))
    assert last_event(g, "HeavyWeaponFired")["dice"] == ["d8", "d6", "d6"]  # no small-arms die with it


def test_large_target_shift_and_superior_fire_control_against_a_vehicle():
    # the towed HVC-3 (size 3, D10, average fire control) at a main battle tank (target size 3): D8; the tank
    # destroyer design has superior fire control only on vehicles, so compare a size-4 target of the stand-in
    scn = duel(blue=crew("Gun", weapon="towed_at_gun", n=4), red=unit("Tank", (24, 65)), dist=60)
    g = begin(scn, options=None) if False else None
    g = Game(scn, seed=0, dice=ScriptedDice([("d8", 8), ("d8", 1)]), rules=(stand_in({"Tank": "main_battle_tank"}),))
    g.apply(("first",))
    activate(g, 0)
    # D8 (size 3 vs target size 3: no shift); quality D8 8, D10 9 vs 3: major, 17 // 8 = 2 hits rem 1: roll D8 5 > 1
    # two hits: impact D12x2 (anti-armour) vs the front armour D12x3
    add_dice(g, ("d8", 3), ("d8", 8), ("d10", 9), ("d8", 5), ("d12x2", 12), ("d12x3", 5), ("d12x2", 1), ("d12x3", 1))
    g.apply(("fire_heavy", 1))
    assert g.dice.remaining == 0
    assert last_event(g, "HeavyWeaponFired")["target_die"] == "d8"
    assert damage_log(g) == [[1, 3, "damaged"], [1, 3, "none"]]  # weapon class 3
    assert g.units[1].suppression == 1


def test_vehicle_target_larger_than_the_weapon_shifts_down():
    scn = duel(red=unit("Tank", (24, 35)))
    g = Game(scn, seed=0, dice=ScriptedDice([("d8", 8), ("d8", 1)]), rules=(stand_in({"Tank": "main_battle_tank"}),))
    g.apply(("first",))
    activate(g, 0)
    # HMG (size 1, inferior) at a size-3 tank: D8 -1 (large target) = D6, then inferior +1 closed = D8;
    # against vehicles the HMG uses its firepower 2D6 and impact D8
    add_dice(g, ("d8", 8), ("d8", 1), ("d6", 1), ("d6", 1))
    g.apply(("fire_heavy", 1))
    assert g.dice.remaining == 0
    assert last_event(g, "HeavyWeaponFired")["target_die"] == "d8"
    assert damage_log(g) is None and g.units[1].suppression == 0  # a miss


def test_heavy_weapons_suppress_a_vehicle_up_to_three_markers():
    scn = duel(red=unit("Tank", (24, 35)))
    g = Game(scn, seed=0, dice=ScriptedDice([("d8", 8), ("d8", 1)]), rules=(stand_in({"Tank": "main_battle_tank"}),))
    g.apply(("first",))
    t = g.units[1]
    t.suppression = 2
    for n in (3, 3):  # L1431: heavy weapons may add markers up to the usual three (not only one)
        res = hw.FireResult(1, (5, 1, 1), 1, "minor", 0)
        hw.vehicle_attack(g, g.units[0], t, res, D8, 1, (24.0, 5.0))
        assert t.suppression == n
    assert last_event(g, "Suppressed")["markers"] == 3


def test_no_sight_no_fire():
    from conftest import rect
    scn = duel(terrain=[rect("building", 20, 15, 28, 25)])
    g = begin(scn)
    activate(g, 0)
    assert ("fire_heavy", 1) not in g.legal_options()


# --- moving heavy weapons ----------------------------------------------------------------------------------------
def test_dismantle_and_set_up_are_reorganise_actions_and_a_carried_weapon_encumbers():
    g = begin(duel())
    activate(g, 0)
    u = g.units[0]
    assert g.movement_die(u) == D6
    assert ("reorganise", "dismantle") in g.legal_options()
    g.apply(("reorganise", "dismantle"))
    assert not st(g)["ready"] and st(g)["at"] is None
    assert g.movement_die(u) == D4  # encumbered (L1206)
    opts = g.legal_options()
    assert ("reorganise", "set_up") in opts and ("fire_heavy", 1) not in opts
    add_dice(g, ("d4", 2))
    g.apply(next(o for o in opts if o[0] == "move"))
    assert g.dice.remaining == 0
    assert not st(g)["abandoned"] and st(g)["at"] is None  # carried along


def test_a_set_up_weapon_is_abandoned_for_good_when_the_crew_moves_away():
    g = begin(duel())
    activate(g, 0)
    add_dice(g, ("d6", 3))
    g.apply(next(o for o in g.legal_options() if o[0] == "move"))
    assert st(g)["abandoned"]
    assert last_event(g, "HeavyWeaponAbandoned")["unit"] == 0
    opts = g.legal_options()
    assert not any(o[0] == "fire_heavy" or o[1:] in (("set_up",), ("dismantle",)) for o in opts)
    assert g.movement_die(g.units[0]) == D6  # no longer encumbered


def test_half_the_crew_cannot_carry_the_weapon_but_a_size_1_weapon_fires_to_the_last_man():
    scn = duel(blue=crew(n=4, weapon_ready=False))
    g = begin(scn)
    u = g.units[0]
    for i in (1, 2, 3):
        u.set_figure(i, status=KILLED)
    activate(g, 0)
    g.apply(("reorganise", "set_up"))  # one man sets it up
    assert ("fire_heavy", 1) in g.legal_options()  # size 1: fires until the last crewman is killed
    g.apply(("reorganise", "dismantle"))
    activate_next = g.legal_options()  # next activation
    assert st(g)["at"] is None


def test_a_crew_at_half_strength_abandons_a_dismantled_weapon_when_it_moves():
    scn = duel(blue=crew(n=4, weapon_ready=False))
    g = begin(scn)
    u = g.units[0]
    for i in (1, 2, 3):  # one of the standard crew of three left: half or less (L1206)
        u.set_figure(i, status=KILLED)
    activate(g, 0)
    assert g.movement_die(u) == D6  # it cannot carry the weapon: it moves without it
    add_dice(g, ("d6", 3))
    g.apply(next(o for o in g.legal_options() if o[0] == "move"))
    assert st(g)["abandoned"] and st(g)["at"] == [24.0, 5.0]


def test_towed_weapon_limbering_needs_half_the_crew():
    scn = duel(blue=crew("Gun", weapon="towed_at_gun", n=4))
    g = begin(scn)
    u = g.units[0]
    u.set_figure(3, status=KILLED)
    u.set_figure(2, status=KILLED)
    activate(g, 0)
    assert ("reorganise", "limber") in g.legal_options()  # 2 of 4: at least half (L1208)
    assert ("fire_heavy", 1) in g.legal_options()  # size 3: at least half the crew fires
    u.set_figure(1, status=KILLED)
    g.invalidate()
    opts = g.legal_options()
    assert ("reorganise", "limber") not in opts and ("fire_heavy", 1) not in opts


def test_limbered_gun_moves_only_when_towed():
    scn = duel(blue=crew("Gun", weapon="towed_at_gun", n=4, weapon_ready=False))
    g = Game(scn, seed=0, dice=ScriptedDice([("d8", 8), ("d8", 1)]), rules=(stand_in({}, towed_units=("Gun",)),))
    g.apply(("first",))
    activate(g, 0)
    add_dice(g, ("d6", 3))
    g.apply(next(o for o in g.legal_options() if o[0] == "move"))
    assert not st(g)["abandoned"] and st(g)["at"] is None
    g2 = begin(scn)
    activate(g2, 0)
    add_dice(g2, ("d6", 3))
    g2.apply(next(o for o in g2.legal_options() if o[0] == "move"))
    assert st(g2)["abandoned"]


# --- hits on heavy weapons ---------------------------------------------------------------------------------------
def _shoot_at_crew(hit_weapon_rolls, n_hits=1):
    """A rifle squad (uid 1) fires at the HMG crew (uid 0, three figures + the weapon: allocation on a D4)."""
    scn = scenario([crew()], [unit("B", (24, 35), figures=(("rifle", 5),))], height=60, commitment=("high", "medium"))
    g = begin(scn, first=1)
    activate(g, 1)
    return g


def test_the_weapon_is_one_more_place_a_hit_may_fall_and_a_wound_disables_it():
    g = _shoot_at_crew(None)
    # target D8 1; quality D8 8, small arms 5 x FP1 = D6 6: major, 14 // 8 = 1 rem 6: D8 7 > 6: one hit;
    # allocation D4 (three crew + the weapon) 4: the weapon; impact D8 5 vs D8 3: a wound: disabled
    add_dice(g, ("d8", 1), ("d8", 8), ("d6", 6), ("d8", 7), ("d4", 4), ("d8", 5), ("d8", 3))
    g.apply(("shoot", 0, "all"))
    assert g.dice.remaining == 0
    assert st(g)["damage"] == hw.DISABLED
    assert last_event(g, "HeavyWeaponHit")["damage"] == "disabled"
    assert all(f.status == 0 for f in g.units[0].figures)


def test_a_kill_result_damages_the_weapon_for_good_and_it_is_no_longer_a_target():
    g = _shoot_at_crew(None)
    add_dice(g, ("d8", 1), ("d8", 8), ("d6", 6), ("d8", 7), ("d4", 4), ("d8", 7), ("d8", 3))
    g.apply(("shoot", 0, "all"))
    assert st(g)["damage"] == hw.DAMAGED
    assert not hw.weapon_target(g, g.units[0])


def test_a_disabled_weapon_is_repaired_by_a_reorganise_action_and_cannot_fire_meanwhile():
    g = begin(duel())
    st(g)["damage"] = hw.DISABLED
    activate(g, 0)
    opts = g.legal_options()
    assert ("fire_heavy", 1) not in opts and ("reorganise", "repair") in opts
    g.apply(("reorganise", "repair"))
    assert ("fire_heavy", 1) in g.legal_options()


def test_cover_shifts_the_weapons_armour():
    g = begin(duel())
    u = g.units[0]
    add_dice(g, ("d8", 7), ("d12", 7))  # D8 armour +2 (hard cover) = D12: 7 vs 7 no effect
    assert hw.weapon_hit(g, u, D8, 2) == "none"
    assert st(g)["damage"] == hw.WORKING


# --- final defensive fire and scenario errors ---------------------------------------------------------------------
def test_no_final_defensive_fire_with_heavy_weapons():
    from dustup_env.rules.kernel.ruleset import Rule
    from dustup_env.rules.unit_actions import assault_action
    # the heavy weapon is not a figure's weapon: final defensive fire uses the crew's own weapons (L794)
    assert "fire_heavy" not in assault_action.RULE.actions


@pytest.mark.parametrize("design,field", [("no_such_gun", "unknown design"), ("light_tank", "vehicle design"),
                                          ({"design": "heavy_weapon", "name": "x"}, "heavy_weapon")])
def test_bad_heavy_weapon_names_the_field(design, field):
    with pytest.raises(ScenarioError, match="heavy_weapon") as e:
        Game(duel(blue=crew(weapon=design)), seed=0)
    assert field in str(e.value)


def test_infantry_games_do_not_use_the_rule():
    assert "Heavy Weapons" not in Game("default", seed=0).rules
    assert "Heavy Weapons" in Game(duel(), seed=0).rules


# --- seed 003 bikes and cavalry: class 1 vehicles against heavy weapons (house rules) ----------------------------------
def test_mounted_cavalry_is_a_class_1_vehicle_against_heavy_weapons_under_the_house_rules():
    cav = unit("Cav", (24, 35), figures=(("rifle", 5),), movement="cavalry")
    scn = duel(blue=crew("Gun", weapon="towed_at_gun", n=4), red=cav)
    wp = hw.weapon_of(Game(scn, seed=0), Game(scn, seed=0).units[0]).weapon
    g = Game(scn, seed=0, options={"close_combat": "house"})
    plan = hw.heavy_plan(g, g.units[0], g.units[1], wp)
    assert plan["impact"] == parse_die(wp.impact_vs_armour) and not plan["vehicle"]  # anti-armour impact D12x2
    g = Game(scn, seed=0)
    assert hw.heavy_plan(g, g.units[0], g.units[1], wp)["impact"] == parse_die(wp.impact_vs_infantry)
    g.units[1].mounted = False
    g2 = Game(scn, seed=0, options={"close_combat": "house"})
    g2.units[1].mounted = False  # on foot: infantry again
    assert hw.heavy_plan(g2, g2.units[0], g2.units[1], wp)["impact"] == parse_die(wp.impact_vs_infantry)


def test_a_class_1_vehicle_hit_wounds_or_kills_with_the_vehicle_impact_rolls():
    # damaged = wounded, destroyed = killed: the infantry damage of the same roll (impact > armour, > double)
    from dustup_env.rules.kernel.attack import resolve_impact
    for i, a in ((9, 8), (9, 4), (8, 8)):
        v = vehicle_impact(ScriptedDice([("d12", i), ("d8", a)]), impact=D12, armour=D8)[0]
        w = resolve_impact(ScriptedDice([("d12", i), ("d8", a)]), impact=D12, armour=D8)[0]
        assert {"none": "none", "damaged": "wound", "destroyed": "kill"}[v] == w


def test_a_placement_shift_of_the_leader_does_not_leave_the_weapon_but_a_move_does():
    g = begin(duel())
    u = g.units[0]
    u.x += 2.0  # the leader's 2" shift of a figure placement (no move)
    activate(g, 0)
    assert ("fire_heavy", 1) in g.legal_options() and hw.weapon_target(g, u)
    u.x += 0.5
    g.invalidate()
    assert ("fire_heavy", 1) not in g.legal_options()


def test_firing_a_heavy_weapon_reveals_a_hidden_crew():
    from conftest import rect
    scn = duel(blue=crew(hidden=True), terrain=[rect("light_woods", 20, 2, 28, 8)])
    g = begin(scn)
    assert g.units[0].hidden
    activate(g, 0)
    add_dice(g, ("d12", 9), ("d8", 1), ("d6", 1), ("d6", 1))  # the line leaves the woods: concealed, D12
    g.apply(("fire_heavy", 1))
    assert not g.units[0].hidden and last_event(g, "UnitRevealed")["unit"] == 0



# --- regrouping a crew (Regroup Action, RN-882) ----------------------------------------------------------------------
def _regroup_scn(crew_y=6.5, ready=True, other_crew=False):
    rifles = crew("HMG 2", (24, 5), n=4) if other_crew else unit("Rifles", (24, 5), figures=(("rifle", 4),))
    gun = crew("HMG", (24, crew_y), n=4, weapon_ready=ready)
    g = begin(scenario([rifles, gun], [unit("E", (24, 50))], height=60, commitment=HIGH))
    for u in g.units[:2]:
        u.set_figure(-1, status=KILLED)  # both depleted
    return g


def test_a_unit_regrouping_with_a_crew_keeps_its_heavy_weapon():
    g = _regroup_scn()
    activate(g, 0)
    g.apply(("regroup", 1))
    u = g.units[0]
    assert g.units[1].merged and hw.state(g, g.units[1]) is None
    s = hw.state(g, u)
    assert s["ready"] and not s["abandoned"] and s["at"] == [24.0, 6.5]  # 1.5" from the combined unit's leader
    assert hw.weapon_of(g, u).name == hw.design_profile("hmg_team", "x").name
    assert hw.can_fire(g, u, hw.weapon_of(g, u), s)


def test_a_crew_regrouping_with_a_unit_keeps_its_weapon_too():
    g = _regroup_scn()
    activate(g, 1)
    g.apply(("regroup", 0))
    assert g.units[0].merged and hw.state(g, g.units[1])["ready"] and not hw.state(g, g.units[1])["abandoned"]


def test_a_set_up_weapon_far_from_the_combined_units_leader_is_abandoned_a_carried_one_comes_along():
    g = _regroup_scn(crew_y=9.0)
    activate(g, 0)
    g.apply(("regroup", 1))
    s = hw.state(g, g.units[0])
    assert s["abandoned"] and not s["ready"] and s["at"] == [24.0, 9.0]
    assert last_event(g, "HeavyWeaponAbandoned")["unit"] == 0
    g = _regroup_scn(crew_y=9.0, ready=False)  # dismantled: the crew carry it into the combined unit
    activate(g, 0)
    g.apply(("regroup", 1))
    s = hw.state(g, g.units[0])
    assert not s["abandoned"] and s["at"] is None and hw.carried(g, g.units[0])


def test_two_crews_with_their_weapons_do_not_regroup():
    g = _regroup_scn(other_crew=True)
    activate(g, 0)
    assert ("regroup", 1) not in g.decision().options
    hw.state(g, g.units[1])["abandoned"] = True
    g.invalidate()
    assert ("regroup", 1) in g.legal_options()
