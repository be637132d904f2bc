"""Firing at Vehicles and Large Creatures, Casualties to Vehicle Passengers, Vehicle Damage (markers, confidence):
armoured_dustup/firing_at_vehicles.py and vehicle_damage.py.  Forced dice."""
import pytest
from conftest import activate, add_dice, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.armoured_dustup.firing_at_vehicles import vehicle_shot
from dustup_env.rules.armoured_dustup.vehicle_damage import defending_quality, engage_shift
from dustup_env.rules.kernel.dice import D4, D6, D8, D10, parse_die
from dustup_env.rules.kernel.entities import KILLED, OK, WOUNDED
from dustup_env.rules.unit_actions.shoot_action import FireResult
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

INIT = ()


def field(blue_figs=(("rifle", 4),), truck_at=(24, 20), tank_at=(36, 20), tank_facing=180.0, red_extra=()):
    """Blue squad S (uid 0) at (24, 10); red truck V (uid 1, D8 armour, class 0) facing south; red tank T (uid 2,
    front D12x3 class 3, side D12x2) facing ``tank_facing``; then ``red_extra``."""
    return scenario([unit("S", (24, 10), figures=blue_figs, grenades=True)],
                    [vehicle("V", truck_at, "supply_truck", facing=180), vehicle("T", tank_at, "main_battle_tank",
                                                                                facing=tank_facing),
                     *red_extra])


def shoot(dice, target=1, mode="all", scn=None, before=None):
    g = begin(scn or field(), list(dice))
    if before:
        before(g)
    activate(g, 0)
    g.apply(("shoot", target, mode))
    return g


def test_a_vehicle_is_a_target_of_shooting_now():
    g = begin(field())
    activate(g, 0)
    opts = g.decision().options
    assert ("shoot", 1, "all") in opts and ("shoot", 2, "all") in opts
    assert not any(o[0] == "assault" and o[1] in (1, 2) for o in opts)  # close assault on vehicles: not yet
    for o in opts:
        assert g.is_legal(o)


def test_infantry_range_bands_against_a_vehicle_short_range():
    # 10": short range, D8 -> D6 (no size shift for small arms; a vehicle is not a small target, RN-804)
    g = shoot([("d6", 6), ("d8", 1), ("d4", 1)])
    assert last_event(g, "ShotResolved")["target_die"] == "d6"
    assert g.units[1].suppression == 0 and g.dice.remaining == 0


def test_one_success_suppresses_the_vehicle():
    # target d6 3, quality 5 (success), firepower d4 1: one success; then the vehicle's first-suppressed test (d8)
    g = shoot([("d6", 3), ("d8", 5), ("d4", 1), ("d8", 8)])
    v = g.units[1]
    assert v.suppression == 1 and v.veh.damage == 0 and not events_of(g, "VehicleHit")
    assert last_event(g, "ConfidenceTested")["reason"] == "first_suppressed"
    assert g.dice.remaining == 0


def test_two_successes_hit_and_impact_beats_armour_damages():
    # target 1; quality 5, d4 4: 2 successes, total 9 / 6 = 1 hit rem 3, extra-hit roll 6 (no); impact d8 5 vs
    # armour d8 3 (front): damaged; then the vehicle-damage test
    g = shoot([("d6", 1), ("d8", 5), ("d4", 4), ("d6", 6), ("d8", 5), ("d8", 3), ("d8", 8)])
    v = g.units[1]
    hit = last_event(g, "VehicleHit")
    assert hit["facing"] == "front" and hit["result"] == "damaged" and (hit["impact"], hit["armour"]) == (5, 3)
    assert v.veh.damage == 1 and v.suppression == 1 and v.in_play
    assert last_event(g, "VehicleDamaged")["damage"] == 1
    assert last_event(g, "ConfidenceTested")["reason"] == "vehicle_damage"
    assert g.dice.remaining == 0


@pytest.mark.parametrize("impact,armour,effect", [(3, 3, "none"), (4, 3, "damaged"), (6, 3, "damaged"),
                                                  (7, 3, "destroyed"), (8, 4, "damaged")])
def test_beats_damages_more_than_double_destroys_a_draw_is_nothing(impact, armour, effect):
    dice = [("d6", 1), ("d8", 5), ("d4", 4), ("d6", 6), ("d8", impact), ("d8", armour)]
    if effect != "destroyed":
        dice.append(("d8", 8))  # the vehicle's confidence test
    g = shoot(dice)
    v = g.units[1]
    assert last_event(g, "VehicleHit")["result"] == effect
    assert v.veh.damage == (1 if effect == "damaged" else 0)
    assert v.in_play == (effect != "destroyed")
    if effect == "destroyed":
        assert v.figures[0].status == KILLED and events_of(g, "VehicleDestroyed")
        assert not any(o[0] == "shoot" and o[1] == 1 for o in g.decision().options)
    assert g.dice.remaining == 0


def test_a_destroyed_vehicle_takes_no_more_hits():
    # target 1, quality 8, d4 4: 12 / 6 = 2 hits (no remainder); the first destroys, the second is not rolled
    g = shoot([("d6", 1), ("d8", 8), ("d4", 4), ("d8", 8), ("d8", 1)])
    assert len(events_of(g, "VehicleHit")) == 1 and not g.units[1].in_play and g.dice.remaining == 0


def test_facing_struck_by_the_line_of_the_shot_side_armour():
    # the tank faces east (90): the shot from the south-west strikes its side (D12x2)
    g = shoot([("d6", 1), ("d8", 5), ("d4", 4), ("d6", 6), ("d8", 5), ("d12x2", 2), ("d8", 8)], target=2,
              scn=field(tank_at=(30, 18), tank_facing=90.0))
    hit = last_event(g, "VehicleHit")
    assert hit["facing"] == "side" and hit["result"] == "damaged"  # the scripted die checks D12x2


def test_front_armour_from_the_front():
    g = shoot([("d6", 1), ("d8", 5), ("d4", 4), ("d6", 6), ("d8", 8), ("d12x3", 3), ("d8", 8)], target=2,
              scn=field(tank_at=(24, 20)))
    hit = last_event(g, "VehicleHit")
    assert hit["facing"] == "front" and hit["result"] == "none"  # the scripted die checks D12x3


def _suppress(n):
    def f(g):
        g.units[2].suppression = n
        g.units[2].suppressed_before = True
        g.units[2].under_fire_before = True
    return f


def test_small_arms_cause_at_most_one_suppression_on_armour_above_1():
    g = shoot([("d6", 3), ("d8", 5), ("d4", 1)], target=2, scn=field(tank_at=(24, 20)), before=_suppress(1))
    assert g.units[2].suppression == 1 and last_event(g, "SuppressionResisted")["markers"] == 1
    assert g.dice.remaining == 0


def test_small_arms_first_marker_on_armour_above_1():
    g = shoot([("d6", 3), ("d8", 5), ("d4", 1), ("d8", 8)], target=2, scn=field(tank_at=(24, 20)))
    assert g.units[2].suppression == 1


def test_small_arms_add_markers_to_an_unarmoured_vehicle():
    def pre(g):
        g.units[1].suppression = 1
        g.units[1].suppressed_before = g.units[1].under_fire_before = True
    g = shoot([("d6", 3), ("d8", 5), ("d4", 1)], before=pre)
    assert g.units[1].suppression == 2 and not events_of(g, "SuppressionResisted")


def test_support_weapons_add_markers_up_to_3():
    # the squad fires its LMG with its rifles: not small arms only
    g = shoot([("d6", 3), ("d8", 5), ("d4", 1), ("d8", 1)], target=2, before=_suppress(2),
              scn=field(blue_figs=(("rifle", 4), ("lmg", 1)), tank_at=(24, 20)))
    assert g.units[2].suppression == 3
    g = shoot([("d6", 3), ("d8", 5), ("d4", 1), ("d8", 1)], target=2, before=_suppress(3),
              scn=field(blue_figs=(("rifle", 4), ("lmg", 1)), tank_at=(24, 20)))
    assert g.units[2].suppression == 3


def test_confidence_modifier_per_existing_damage_marker():
    def pre(g):
        vehicle_state(g.units[1]).damage = 2
        g.units[1].under_fire_before = True
    g = shoot([("d6", 1), ("d8", 5), ("d4", 4), ("d6", 6), ("d8", 5), ("d8", 3), ("d8", 8)], before=pre)
    t = last_event(g, "ConfidenceTested")
    v = g.units[1]
    # medium commitment: vehicle damage 2 + LV 2 + 1 per marker the vehicle had before the attack (2), RN-114
    assert t["reason"] == "vehicle_damage" and t["needed"] == 2 + v.lv + 2 and v.veh.damage == 3


# --- passengers ------------------------------------------------------------------------------------------------
def _mount(g):
    v, p = g.units[1], g.units[3]
    vehicle_state(p).carrier, p.x, p.y = 1, v.x, v.y
    vehicle_state(v).passengers = [3]


PASSENGERS = (unit("P", (24, 21), figures=(("rifle", 3),)),)


def test_damaged_vehicle_passengers_roll_armour_against_the_weapon_class():
    # damaged by rifles (class 1): each passenger must roll over 1 on its armour die (basic battledress D4)
    g = shoot([("d6", 1), ("d8", 5), ("d4", 4), ("d6", 6), ("d8", 5), ("d8", 3),
               ("d4", 2), ("d4", 1), ("d4", 4),  # passengers: figure 2 is hit
               ("d8", 8),  # the passengers' casualty test
               ("d8", 8)],  # the vehicle's damage test
              scn=field(red_extra=PASSENGERS), before=_mount)
    p = g.units[3]
    assert [f.status for f in p.figures] == [OK, WOUNDED, OK]
    tests = events_of(g, "PassengerHit")
    assert [t["needed"] for t in tests] == [1, 1, 1] and [t["roll"] for t in tests] == [2, 1, 4]
    assert last_event(g, "ConfidenceTested")["unit"] == 1  # the passengers tested first (RN-803), then the vehicle
    assert [e["unit"] for e in events_of(g, "ConfidenceTested")] == [3, 1]
    assert g.dice.remaining == 0


def test_destroyed_vehicle_passengers_need_more_than_double():
    g = shoot([("d6", 1), ("d8", 5), ("d4", 4), ("d6", 6), ("d8", 8), ("d8", 1),
               ("d4", 3), ("d4", 2), ("d4", 1),  # need > 2: figures 2 and 3 are hit
               ("d8", 8)],  # the passengers' test
              scn=field(red_extra=PASSENGERS), before=_mount)
    p, v = g.units[3], g.units[1]
    assert [f.status for f in p.figures] == [OK, WOUNDED, WOUNDED]
    assert [t["needed"] for t in events_of(g, "PassengerHit")] == [2, 2, 2]
    assert not v.in_play and p.veh.carrier == -1 and v.veh.passengers == [] and events_of(g, "Disembarked")
    assert last_event(g, "ConfidenceTested")["unit"] == 3
    assert g.dice.remaining == 0


# --- the service every fire at a vehicle calls ---------------------------------------------------------------------
def test_vehicle_shot_service_with_a_heavy_weapon_class():
    # impact 8, armour 1; three passengers all hit (all wounded: no test)
    g = begin(field(red_extra=PASSENGERS), [("d8", 8), ("d8", 1), ("d4", 4), ("d4", 4), ("d4", 4)])
    _mount(g)
    assert g.rules.services["vehicle_shot"] is vehicle_shot
    res = FireResult(1, (5, 5), 2, "major", 1)
    vehicle_shot(g, g.units[0], g.units[1], res, D8, weapon_class=3, mode="heavy")
    # impact 8 vs 1: destroyed (more than double); passengers need more than 6 on D4: all hit
    assert not g.units[1].in_play
    assert all(f.status == WOUNDED for f in g.units[3].figures) and g.dice.remaining == 0


# --- damage effects ---------------------------------------------------------------------------------------
def test_damage_effects_engaging_spotting_and_defending():
    g = begin(field())
    v = g.units[2]
    assert engage_shift(v) == 0 and engage_shift(g.units[0]) == 0
    vehicle_state(v).damage = 2
    assert engage_shift(v) == 2
    v.quality = D10
    assert defending_quality(v) == D6
    vehicle_state(v).damage = 5
    assert defending_quality(v) == D4


def test_a_damaged_vehicle_spots_one_range_die_worse_per_marker():
    from conftest import add_dice, rect
    scn = scenario([vehicle("A", (20, 22), "main_battle_tank")],
                   [unit("B", (44, 46)), unit("H", (20, 30), hidden=True)],
                   terrain=[rect("light_woods", 10, 28, 34, 34)])
    g = begin(scn)
    vehicle_state(g.units[0]).damage = 1
    activate(g, 0)
    i = next(k for k, m in enumerate(g.markers) if (m["x"], m["y"]) == (20, 30))
    sensor = g.units[0].sensor
    from dustup_env.rules.kernel.dice import die_name
    add_dice(g, ("d10", 3), ("d8", 5), (die_name(sensor), 1))  # 8": D8, one marker: D10
    g.apply(("detect", i))
    assert last_event(g, "DetectionAttempted")["range_die"] == "d10" and g.dice.remaining == 0


# --- Vehicle Size: how hard the target is to shoot (L1328, RN-761) -------------------------------------------------
def big_field():
    """Blue: squad S (uid 0: rifles and a bazooka), HMG team H (1: the hmg_team heavy weapon, size 1, inferior fire
    control), missile team M (2: GMS/L), main battle tank V (3: HVC-3 tank gun, size 3); red: a super-heavy tank
    Hull (4: size 5, decoy D8) with a super-heavy turret Turret (5: size 3) on it, and a technical Tech (6: size 1),
    all about 30" away in the open."""
    return scenario([unit("S", (24, 10), figures=(("rifle", 3), ("bazooka", 1))),
                     unit("H", (20, 10), figures=(("rifle", 3),), heavy_weapon="hmg_team"),
                     unit("M", (28, 10), figures=(("rifle", 2),), heavy_weapon="missile_team"),
                     vehicle("V", (16, 10), "main_battle_tank")],
                    [vehicle("Hull", (24, 40), "super_heavy_tank", facing=180),
                     vehicle("Turret", (24, 40), "super_heavy_turret", facing=180, hull="Hull"),
                     vehicle("Tech", (34, 40), "technical", facing=180)])


HULL, TURRET, TECH = 4, 5, 6


def _miss(firer, option, dice, event="ShotResolved"):
    """Activate ``firer``, fire ``option`` with forced dice that miss (the target die's top face, the firer's 1s);
    the fired event."""
    g = begin(big_field())
    activate(g, firer)
    add_dice(g, *dice)
    g.apply(option)
    if g.decision().kind == "intercept":  # the super-heavy tank's decoy: not tried
        g.apply(("decline",))
    assert g.dice.remaining == 0
    return last_event(g, event)


@pytest.mark.parametrize("target", [HULL, TURRET, TECH])
def test_small_arms_and_rockets_take_no_size_shift_at_any_vehicle(target):
    # L1258 "Like support weapons, the target die is not shifted up if the target is of a size greater than 1":
    # rifles and a bazooka at 30" roll against D8 whatever the vehicle's size (RN-761, RN-804, RN-121)
    e = _miss(0, ("shoot", target, "all"), [("d8", 8), ("d8", 1), ("d4", 1)])
    assert e["target_die"] == "d8"
    e = _miss(0, ("fire_iavr", target), [("d8", 8), ("d8", 1), ("d8", 1)], "RocketFired")
    assert e["target_die"] == "d8"


@pytest.mark.parametrize("firer,option,die", [
    # the HMG team (size 1, inferior fire control +1): a larger target shifts the die down one (L1236)
    (1, ("fire_heavy", TECH), "d10"), (1, ("fire_heavy", TURRET), "d8"), (1, ("fire_heavy", HULL), "d8"),
    # the tank gun (size 3): only the hull (size 5) is larger than the weapon: the turret (size 3) is not
    (3, ("fire_vehicle", TECH, 0), "d8"), (3, ("fire_vehicle", TURRET, 0), "d8"), (3, ("fire_vehicle", HULL, 0), "d6")])
def test_heavy_weapons_shift_the_target_die_down_at_a_vehicle_larger_than_the_weapon(firer, option, die):
    fp = [("d6", 1), ("d6", 1)] if firer == 1 else [("d10", 1)]  # the HMG's 2D6 (RN-119), the tank gun's D10
    e = _miss(firer, option, [(die, int(die[1:])), ("d8", 1), *fp], "HeavyWeaponFired")
    assert e["target_die"] == die


@pytest.mark.parametrize("target,ecm", [(TECH, "d4"), (TURRET, "d8"), (HULL, "d8")])
def test_guided_missiles_roll_against_the_ecm_die_with_no_size_shift(target, ecm):
    # L1292: the target uses an ECM die instead of a target die, shifted only for cover: the design's ECM die at
    # any size (the technical D4, the super-heavy tank and its turret D8)
    e = _miss(2, ("fire_guided", target), [(ecm, int(ecm[1:])), ("d8", 1), ("d8", 1)], "MissileFired")
    assert e["ecm"] == ecm


def test_the_size_shift_uses_the_target_size_of_a_stealthy_design():
    # the grav tank is size class 4 with a stealthy signature: target size 3 (RN-752); the tank gun (size 3) at it
    # takes no shift, as at any size-3 target; the combat walker (size 5) shifts it down
    from dustup_env.rules.armoured_dustup.fire_by_vehicles import weapon_plan
    scn = scenario([vehicle("V", (16, 10), "main_battle_tank")],
                   [vehicle("G", (16, 40), "grav_tank", facing=180), vehicle("W", (26, 40), "combat_walker")])
    g = begin(scn)
    v = g.units[0]
    assert g.units[1].profile.vehicle.size == 4 and g.units[1].size == 3
    assert weapon_plan(g, v, g.units[1], 0)["target_die"] == D8 and weapon_plan(g, v, g.units[2], 0)["target_die"] == D6


# --- Super-Heavy Vehicles: the attacker nominates a turret or the hull (L1565, RN-145, RN-872) ----------------------
def test_firing_at_a_super_heavy_vehicle_nominates_a_turret_or_the_hull():
    g = begin(big_field())
    for firer, names in ((0, ("shoot", "fire_iavr")), (1, ("fire_heavy",)), (2, ("fire_guided",)),
                         (3, ("fire_vehicle",))):
        c = g.clone()
        activate(c, firer)
        targets = {o[1] for o in c.decision().options if o[0] in names}
        assert {HULL, TURRET} <= targets  # every kind of fire names the turret or the hull as its target
    # the tank gun nominates the turret: its hits roll against the turret's armour (front D12x3, facing as its
    # hull) and damage the turret only
    activate(g, 3)
    add_dice(g, ("d8", 1), ("d8", 8), ("d10", 9), ("d8", 8),  # D8 (turret size 3: no shift): 17 // 8 = 2 hits
             ("d12x2", 5), ("d12x3", 3), ("d12x2", 1), ("d12x3", 3),  # 10 > 9: damaged; 2: nothing
             ("d8", 8))  # the turret's vehicle-damage test
    g.apply(("fire_vehicle", TURRET, 0))
    assert [(e["unit"], e["facing"]) for e in events_of(g, "VehicleHit")] == [(TURRET, "front")] * 2
    hull, turret = g.units[HULL], g.units[TURRET]
    assert (turret.veh.damage, turret.suppression) == (1, 1) and (hull.veh.damage, hull.suppression) == (0, 0)
    assert last_event(g, "ConfidenceTested")["unit"] == TURRET and g.dice.remaining == 0


def _destroy_hull(g):
    activate(g, 3)
    add_dice(g, ("d6", 1), ("d8", 5), ("d10", 2), ("d6", 6),  # D6 (size 5 hull): 7 // 6 = 1 hit, rem 1: no extra
             ("d12x2", 12), ("d12x5", 1))  # 24 > 2 x 5: destroyed
    g.apply(("fire_vehicle", HULL, 0))


def test_a_destroyed_hull_leaves_its_turrets_firing_until_each_is_destroyed():
    g = begin(big_field())
    _destroy_hull(g)
    hull, turret = g.units[HULL], g.units[TURRET]
    assert not hull.in_play and turret.in_play and turret.veh.hull == HULL
    assert not g.terrain  # no wreck yet: the turret still fights on its hull (RN-872)
    g.apply(("end",))
    activate(g, TURRET)
    opts = g.decision().options
    assert ("fire_vehicle", 3, 0) in opts and not {"move", "turn"} & {o[0] for o in opts}
    # the turret's RFAC-2 (size 2, 2D6) at the tank (size 3: D6): a miss
    add_dice(g, ("d6", 6), ("d8", 1), ("d6", 1), ("d6", 1))
    g.apply(("fire_vehicle", 3, 0))
    assert last_event(g, "HeavyWeaponFired")["unit"] == TURRET and g.dice.remaining == 0
    # the turret must be destroyed on its own; then the hull's wreck is left where they stood
    add_dice(g, ("d12x2", 12), ("d12x3", 1))
    vehicle_shot(g, g.units[3], turret, FireResult(1, (8, 9), 2, "major", 1), parse_die("d12x2"), weapon_class=3)
    assert not turret.in_play
    wrecks = g.terrain
    assert [(w["kind"], w["unit"], w["x"], w["y"]) for w in wrecks] == [("wreck", HULL, 24.0, 40.0)]
    assert g.dice.remaining == 0
