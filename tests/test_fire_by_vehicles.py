"""Fire by Vehicles (armoured_dustup/fire_by_vehicles.py): the design's weapons, one per action, slaved weapons,
mechs and monsters two at a time, stabilisation, suppression and damage shifts, arcs.  Forced dice."""
import pytest
from conftest import activate, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.armoured_dustup.fire_by_vehicles import PAIRS, weapon_plan
from dustup_env.rules.kernel.dice import D8, D10, D12
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


def field(design="main_battle_tank", facing=0.0, enemy=(24, 30), red=None):
    """Blue vehicle V (uid 0) at (24, 10); red squad E (uid 1) 20" north (or ``red``)."""
    return scenario([vehicle("V", (24, 10), design, facing=facing)],
                    red or [unit("E", enemy, figures=(("rifle", 3),))])


def fire_opts(g, name="fire_vehicle"):
    return sorted(o for o in g.decision().options if o[0] == name)


def test_a_vehicle_fires_its_direct_fire_weapons_one_at_a_time():
    g = begin(field())
    activate(g, 0)
    # main battle tank: 0 tank gun, 1 guided missile (through the Guided Weapons rules), 2 APSW
    assert fire_opts(g) == [("fire_vehicle", 1, 0), ("fire_vehicle", 1, 1), ("fire_vehicle", 1, 2)]
    assert not {"shoot", "fire_slaved", "fire_pair"} & {o[0] for o in g.decision().options}
    for o in g.decision().options:
        assert g.is_legal(o)
    from conftest import add_dice
    add_dice(g, ("d8", 8), ("d8", 1), ("d10", 1))  # a miss: target d8 8, quality 1, firepower d10 1
    g.apply(("fire_vehicle", 1, 0))
    e = last_event(g, "HeavyWeaponFired")
    assert e["weapon"] == "HVC-3 tank gun" and e["target_die"] == "d8" and e["result"] == "none"
    assert fire_opts(g) == [("fire_vehicle", 1, 1), ("fire_vehicle", 1, 2)]  # each weapon once per activation
    assert g.dice.remaining == 0


@pytest.mark.parametrize("moved,suppression,damage,expected", [
    (False, 0, 0, D8), (True, 0, 0, D10), (False, 1, 0, D10), (False, 0, 2, D12), (True, 1, 0, D12),
    (True, 1, 1, None), (False, 0, 3, None)])  # L1461: "after enough damage, the vehicle will no longer be able to shoot"
def test_target_die_shifts_average_stabilisation_suppression_damage(moved, suppression, damage, expected):
    g = begin(field())
    v, t = g.units[0], g.units[1]
    vehicle_state(v).moved, v.suppression, vehicle_state(v).damage = moved, suppression, damage
    plan = weapon_plan(g, v, t, 0)
    assert (plan and plan["target_die"]) == expected


def test_poor_stabilisation_cannot_fire_after_moving_and_arcs():
    g = begin(field("tank_destroyer"))  # 0 hull gun: poor, front arc 90; 1 cupola turret; 2 APSW
    v, t = g.units[0], g.units[1]
    assert weapon_plan(g, v, t, 0) is not None
    still = weapon_plan(g, v, t, 1)["target_die"]
    vehicle_state(v).moved = True
    assert weapon_plan(g, v, t, 0) is None and weapon_plan(g, v, t, 1)["target_die"] == still + 1  # average
    vehicle_state(v).moved = False
    vehicle_state(v).facing = 90.0  # the target is now 90 degrees off the hull gun's front arc
    assert weapon_plan(g, v, t, 0) is None and weapon_plan(g, v, t, 1) is not None


def test_suppressed_vehicles_still_fire():
    g = begin(field())
    g.units[0].suppression = 2
    activate(g, 0)
    assert fire_opts(g)


def test_a_suppressed_vehicle_fires_no_external_weapon_and_recovers_as_usual():
    # L1502 "External weapons may not be fired" (RN-809: man-packed and towed weapons carried by the vehicle);
    # L1504 "Suppression markers on vehicles are removed as normal by the vehicle commander": the Recover action
    import dataclasses
    g = begin(field(), [("d8", 3), ("d8", 2)])  # the crew's quality D8 against LV 2: 3 recovers, then 2 does not
    v = g.units[0]
    p = v.profile.vehicle
    v.vehicle = dataclasses.replace(p, weapons=(dataclasses.replace(p.weapons[0], mount="man_packed"),) + p.weapons[1:])
    assert weapon_plan(g, v, g.units[1], 0) is not None
    v.suppression = 2
    assert weapon_plan(g, v, g.units[1], 0) is None and weapon_plan(g, v, g.units[1], 2) is not None
    activate(g, 0)
    opts = g.decision().options
    assert ("fire_vehicle", 1, 0) not in opts and ("fire_vehicle", 1, 2) in opts and ("recover",) in opts
    g.apply(("recover",))
    assert last_event(g, "SuppressionRecovered")["removed"] and v.suppression == 1
    g.apply(("recover",))
    assert not last_event(g, "SuppressionRecovered")["removed"] and v.suppression == 1 and g.dice.remaining == 0


@pytest.mark.parametrize("design", ["combat_walker", "behemoth"])
def test_suppressed_mechs_and_monsters_still_move_and_shoot(design):
    # L1508: "suppression does not prevent them from moving or shooting" (no assault: test_close_combat_mechs.py);
    # their shots take the suppressed vehicle's +1 (L1498): the walker's DFFG (superior fire control) D6 -> D8, the
    # monster's acid spit (its weapon 1) D8 -> D10
    from conftest import add_dice
    g = begin(field(design))
    g.units[0].suppression = 1
    activate(g, 0)
    k, die, fp = (0, "d8", ("d10", 1)) if design == "combat_walker" else (1, "d10", ("d10", 1))
    add_dice(g, (die, int(die[1:])), ("d8", 1), fp)  # a miss
    g.apply(("fire_vehicle", 1, k))
    assert last_event(g, "HeavyWeaponFired")["target_die"] == die
    add_dice(g, ("d6", 2))  # the D6 movement die of mechs and monsters (L1362)
    g.apply(next(o for o in g.decision().options if o[0] == "move"))
    assert last_event(g, "Moved")["unit"] == 0 and g.units[0].suppression == 1 and g.dice.remaining == 0


def test_mechs_fire_two_weapons_at_one_target():
    g = begin(field("combat_walker"))  # 0 DFFG arm, 1 SLAM pack, 2 APSW (all front 180 or all round)
    activate(g, 0)
    pairs = fire_opts(g, "fire_pair")
    assert pairs == [("fire_pair", 1, i) for i, p in enumerate(PAIRS) if set(p) <= {0, 1, 2}]
    from conftest import add_dice
    add_dice(g, ("d6", 6), ("d8", 1), ("d10", 1),  # DFFG (superior fire control: D6): a miss
             ("d6", 6), ("d8", 1), ("d8", 1), ("d8", 1))  # SLAM (2 x D8): a miss
    g.apply(("fire_pair", 1, 0))
    assert [e["weapon"] for e in events_of(g, "HeavyWeaponFired")] == ["DFFG/4 arm", "SLAM/3 shoulder pack"]
    assert not any(o[2] == 0 for o in fire_opts(g, "fire_pair"))
    assert g.dice.remaining == 0


def test_tanks_do_not_fire_pairs_and_slaved_weapons_need_two():
    g = begin(field("grav_tank"))
    activate(g, 0)
    assert not fire_opts(g, "fire_pair") and not fire_opts(g, "fire_slaved")


def test_vehicle_fire_at_a_vehicle_damages_it():
    red = [vehicle("T", (24, 30), "supply_truck", facing=180)]
    g = begin(field(red=red), [("d8", 1), ("d8", 8), ("d10", 8),  # tank gun: two successes, 16 / 8 = 2 hits
                               ("d12x2", 12), ("d8", 8)])  # first hit: 24 > 2 x 8 destroys the truck
    activate(g, 0)
    g.apply(("fire_vehicle", 1, 0))
    assert last_event(g, "VehicleHit")["result"] == "destroyed" and not g.units[1].in_play
    assert g.dice.remaining == 0


def test_a_vehicle_launches_its_guided_missile_and_damage_moves_the_ecm_die_up():
    red = [vehicle("T", (24, 30), "light_tank", facing=180)]
    g = begin(field(red=red))
    v, t = g.units[0], g.units[1]
    base = weapon_plan(g, v, t, 1)
    assert base["guided"] and base["weapon"] == "GMS/L"
    vehicle_state(v).damage = 1
    assert weapon_plan(g, v, t, 1)["ecm"] == base["ecm"] + 1
    vehicle_state(v).damage = 0
    activate(g, 0)
    from conftest import add_dice
    # a target with a decoy decides first whether it tries: declined
    add_dice(g, 8, ("d8", 1), 1)  # ECM roll, quality, guidance: a miss
    g.apply(("fire_vehicle", 1, 1))
    if g.decision().kind == "intercept":
        g.apply(("decline",))
    e = last_event(g, "MissileFired")
    assert e["weapon"] == "GMS/L" and e["result"] == "none" and g.dice.remaining == 0
    assert ("fire_vehicle", 1, 1) not in g.decision().options


def test_house_multiple_weapons_a_mech_fires_all_its_weapons_as_one_action_or_the_rest_as_a_second():
    # seed 003 Multiple Weapons (RN-855): the combat walker's three weapons at one target in one action
    from conftest import add_dice
    g = begin(field("combat_walker"))
    activate(g, 0)
    assert not fire_opts(g, "fire_all")  # seed 000: two weapons at most (fire_pair)
    g = begin(field("combat_walker"), options={"close_combat": "house"})
    activate(g, 0)
    assert fire_opts(g, "fire_all") == [("fire_all", 1)] and g.is_legal(("fire_all", 1))
    add_dice(g, ("d6", 6), ("d8", 1), ("d10", 1),  # DFFG: a miss
             ("d6", 6), ("d8", 1), ("d8", 1), ("d8", 1),  # SLAM: a miss
             ("d6", 6), ("d8", 1), ("d6", 1), ("d6", 1))  # APSW: a miss
    g.apply(("fire_all", 1))
    assert [e["weapon"] for e in events_of(g, "HeavyWeaponFired")] == ["DFFG/4 arm", "SLAM/3 shoulder pack", "APSW"]
    assert g.dice.remaining == 0 and not fire_opts(g, "fire_all") and not fire_opts(g, "fire_pair")
    g = begin(field("combat_walker"), options={"close_combat": "house"})
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", 1), ("d10", 1))
    g.apply(("fire_vehicle", 1, 0))  # one weapon first: the remaining two then fire as the second action
    assert not fire_opts(g, "fire_all") and fire_opts(g, "fire_pair") == [("fire_pair", 1, PAIRS.index((1, 2)))]


def test_superior_stabilisation_moves_and_fires_in_one_action_at_plus_one():
    # L1474, RN-858: the tank gun given superior stabilisation: fire at the target die one up, then the move of the
    # same action; one action used
    import dataclasses
    from conftest import add_dice
    g = begin(field())
    v = g.units[0]
    p = v.profile.vehicle
    v.vehicle = dataclasses.replace(p, weapons=(dataclasses.replace(p.weapons[0], stabilisation="superior"),)
                                    + p.weapons[1:])
    activate(g, 0)
    assert fire_opts(g, "move_fire") == [("move_fire", 1, 0)]  # the other weapons are average
    normal = weapon_plan(g, v, g.units[1], 0)["target_die"]
    add_dice(g, ("d10", 1), ("d8", 1), ("d10", 1))  # target die D10 (D8 one up): a miss
    g.apply(("move_fire", 1, 0))
    assert last_event(g, "HeavyWeaponFired")["target_die"] == "d10" and normal == 2  # D8
    d = g.decision()
    assert d.kind == "move_fire" and ("halt",) in d.options and ("move", 0, 0) in d.options
    add_dice(g, 1)
    g.apply(("move", 0, 0))
    assert last_event(g, "Moved")["unit"] == 0 and g.activation_frame().actions_left == 1
    assert not fire_opts(g, "move_fire") and g.dice.remaining == 0


def test_move_fire_needs_superior_stabilisation():
    g = begin(field())
    activate(g, 0)
    assert not fire_opts(g, "move_fire") and not g.is_legal(("move_fire", 1, 0))


def test_a_vehicle_mounted_missile_needs_no_set_up_and_a_hit_is_one_impact_roll():
    # L1262 "They may also be mounted on vehicles, in which case they do not need to be set up before firing":
    # the tank's GMS/L fires in its first action, no set-up offered; L1296: a hit is a single impact roll
    from conftest import add_dice
    g = begin(field(red=[vehicle("T", (24, 30), "supply_truck", facing=180)]))
    activate(g, 0)
    opts = g.decision().options
    assert ("fire_vehicle", 1, 1) in opts and not any(o[0] == "reorganise" and o[1] == "set_up" for o in opts)
    add_dice(g, ("d4", 1), ("d8", 5), ("d6", 6),  # the truck's ECM D4 (in the open): both beat it, a hit
             ("d12x2", 12), ("d8", 1))  # the one impact roll: 24 > 2 x 1 destroys the truck
    g.apply(("fire_vehicle", 1, 1))
    assert last_event(g, "MissileFired")["result"] == "major" and len(events_of(g, "VehicleHit")) == 1
    assert not g.units[1].in_play and g.activation_frame().actions_left == 1 and g.dice.remaining == 0


def test_a_missile_carrier_fires_its_slaved_missiles_as_one_action_each_intercepted_on_its_own():
    # L1480-1482: slaved weapons fire at one target as one action "even if they are heavy weapons", each resolved
    # individually; L1308: the decoy may try against each missile until it defeats one (RN-870)
    from conftest import add_dice
    g = begin(field("missile_carrier", red=[vehicle("T", (24, 40), "main_battle_tank", facing=180)]))
    activate(g, 0)
    assert ("fire_slaved", 1) in g.decision().options and g.is_legal(("fire_slaved", 1))
    g.apply(("fire_slaved", 1))
    d = g.decision()
    assert d.kind == "intercept" and d.side == 1 and ("decoy",) in d.options
    add_dice(g, ("d8", 8), ("d8", 1), ("d10", 1))  # missile 1: the decoy is not tried; ECM D8 8: a miss
    g.apply(("decline",))
    assert g.decision().kind == "intercept"  # missile 2: the decoy may try
    add_dice(g, ("d6", 6), ("d10", 2),  # the decoy D6 6 beats the guidance D10 2: missile 2 defeated, decoy spent
             ("d8", 1), ("d8", 8), ("d10", 9),  # missile 3 (no decoy left: no decision): a hit
             ("d12x3", 10), ("d12x3", 7),  # one impact roll: 30 > 21 damages the tank
             ("d8", 8))  # the tank's vehicle-damage test
    g.apply(("decoy",))
    fired = events_of(g, "MissileFired")
    assert [e["result"] for e in fired] == ["none", "major"] and last_event(g, "MissileIntercepted")["defeated"]
    t = g.units[1]
    assert (t.veh.damage, t.suppression) == (1, 1) and len(events_of(g, "VehicleHit")) == 1
    d = g.decision()
    assert d.kind == "action" and d.unit == 0 and g.activation_frame().actions_left == 1  # one action in all
    assert not any(o[0] == "fire_slaved" or (o[0] == "fire_vehicle" and o[2] < 3) for o in d.options)
    assert g.dice.remaining == 0
