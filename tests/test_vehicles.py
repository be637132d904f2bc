"""Vehicles as units (armoured_dustup/vehicles.py): the entity model, facings, armour, scenario errors, saves."""
import json

import pytest
from conftest import activate, begin, scenario, unit
from vehicle_helpers import tank_and_squad, vehicle

from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.armoured_dustup.vehicles import (armour_class, armour_die, armour_facing, armoured, is_vehicle,
                                                      open_topped, size_class, vehicle_profile)
from dustup_env.rules.kernel import saves
from dustup_env.rules.kernel.dice import D6, D8, D10, D12, parse_die
from dustup_env.rules.kernel.entities import unit_dict, unit_from_dict
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


def game(scn, **kw):
    return Game(scn, seed=1, **kw)


def test_a_unit_with_a_design_is_a_vehicle_with_the_designs_profile():
    g = game(tank_and_squad("main_battle_tank", quality="d10", leadership=1))
    v, s = g.units[0], g.units[1]
    assert is_vehicle(v) and not is_vehicle(s)
    p = vehicle_profile(g, v)
    assert p.name and p.mobility_type == "tracked" and p is g.rules.services["vehicle_profile"](g, v)
    assert v.kind == "vehicle" and len(v.figures) == 1 and v.quality == D10 and v.lv == 1
    assert v.movement == D12  # the design's movement die (a slow tracked hull: D12, RN-922)
    assert v.size == p.target_size == 3 and size_class(v) == 3


@pytest.mark.parametrize("design,kind", [("assault_mech", "mech"), ("hive_brute", "creature"),
                                         ("supply_truck", "vehicle"), ("scout_hover", "vehicle")])
def test_unit_kinds(design, kind):
    g = game(tank_and_squad(design))
    assert g.units[0].kind == kind
    assert g.units[0].movement == parse_die(g.units[0].vehicle.movement_die)


def test_detection_size_is_the_target_size():
    g = game(tank_and_squad("scout_hover"))  # size 2, stealthy: target size 1
    assert g.units[0].size == 1 and size_class(g.units[0]) == 2


def test_armour_per_facing():
    g = game(tank_and_squad("main_battle_tank"))
    v = g.units[0]
    assert armour_die(v, "front") == parse_die("d12x3") and armour_class(v, "front") == 3
    assert armour_die(v, "side") == parse_die("d12x2") and armour_die(v, "belly") == parse_die("d12x2")
    assert armoured(v)
    t = game(tank_and_squad("supply_truck")).units[0]
    assert all(armour_die(t, f) == D8 for f in ("front", "side", "rear", "top", "belly")) and not armoured(t)
    with pytest.raises(ValueError):
        armour_die(v, "turret")


@pytest.mark.parametrize("facing,point,expected", [
    (0, (24, 20), "front"), (0, (34, 10), "side"), (0, (24, 0), "rear"), (0, (14, 10), "side"),
    (0, (34, 20), "front"), (0, (34.01, 0.01), "side"), (90, (34, 10), "front"), (90, (14, 10), "rear"),
    (180, (24, 0), "front"), (270, (24, 20), "side"), (45, (34, 20), "front"), (0, (24, 10), "front")])
def test_armour_facing_by_the_line_of_the_shot(facing, point, expected):
    g = game(tank_and_squad("main_battle_tank", facing=facing))
    assert armour_facing(g.units[0], *point) == expected


def test_open_top_and_hatches():
    assert open_topped(game(tank_and_squad("sp_artillery")).units[0])
    mbt = game(tank_and_squad("main_battle_tank")).units[0]
    assert mbt.vehicle.hatches and not open_topped(mbt)
    assert open_topped(game(tank_and_squad("main_battle_tank", opened_up=True)).units[0])
    assert not open_topped(game(tank_and_squad("ifv_tracked", opened_up=True)).units[0])  # no hatches


@pytest.mark.parametrize("spec,msg", [
    ({"design": "no_such_tank"}, "sides/0/units/0 ('V'): design: unknown design 'no_such_tank'"),
    ({"design": "hmg_team"}, "sides/0/units/0 ('V'): design: 'HMG team' is a heavy-weapon design"),
    ({"design": "vtol_gunship"}, "is an aircraft"),
    ({"design": {"name": "bad"}}, "sides/0/units/0 ('V'): design:"),
    ({"design": 3}, "design:"),
])
def test_bad_designs_are_scenario_errors_naming_the_field(spec, msg):
    scn = tank_and_squad()
    scn["sides"][0]["units"][0].update(spec)
    with pytest.raises(ScenarioError) as e:
        game(scn)
    assert msg.split("'HMG team'")[0] in str(e.value)


@pytest.mark.parametrize("change,msg", [
    (lambda u: u.update(figures=[{"weapon": "rifle"}]), "not both"),
    (lambda u: u.pop("design"), "figures: required"),
    (lambda u: u.update(armour="full_light"), "armour: a vehicle takes it from its design"),
    (lambda u: u.update(movement="fast"), "movement: a vehicle takes it from its design"),
])
def test_vehicle_fields_are_checked(change, msg):
    scn = tank_and_squad()
    change(scn["sides"][0]["units"][0])
    with pytest.raises(ScenarioError, match=msg):
        game(scn)


def test_vehicle_only_fields_on_infantry_are_errors():
    scn = tank_and_squad()
    scn["sides"][0]["units"][1]["facing"] = 90
    with pytest.raises(ScenarioError, match=r"sides/0/units/1 \('S'\): facing: only a vehicle"):
        game(scn)


def test_super_heavy_turrets_are_units_on_their_hull():
    scn = scenario([vehicle("Hull", (24, 10), "combat_walker"), vehicle("Turret", (24, 10), "light_tank", hull="Hull")],
                   [unit("E", (5, 45), figures=(("rifle", 3),))])
    g = game(scn)
    assert g.units[1].veh.hull == 0 and g.units[0].veh.hull == -1
    scn["sides"][0]["units"][1]["hull"] = "Nope"
    with pytest.raises(ScenarioError, match=r"sides/0/units/1 \('Turret'\): hull: 'Nope' is not another vehicle"):
        game(scn)
    scn["sides"][0]["units"][1]["hull"] = "Hull"
    scn["sides"][0]["units"][0]["design"] = "main_battle_tank"
    with pytest.raises(ScenarioError, match="super-heavy"):
        game(scn)


def test_inline_design():
    from dustup_env.rules.vehicle_design.load import LIBRARY
    doc = json.loads((LIBRARY / "light_tank.json").read_text())
    g = game(tank_and_squad(doc))
    assert g.units[0].vehicle == game(tank_and_squad("light_tank")).units[0].vehicle


# --- RN-750 / RN-764: what a vehicle may do, and that no one assaults it yet --------------------------
def test_vehicles_take_no_prop_shoot_or_assault_and_are_not_assaulted():
    scn = scenario([vehicle("V", (24, 10)), unit("S", (27, 10), figures=(("rifle", 4),), grenades=True)],
                   [vehicle("EV", (24, 20)), unit("E", (30, 22), figures=(("rifle", 3),))])
    g = begin(scn)
    activate(g, 0)
    names = {o[0] for o in g.decision().options}
    assert not names & {"prop", "unprop", "shoot", "shoot_weapon", "throw", "assault", "detach", "treat"}
    assert "move" in names
    g2 = begin(scn)
    activate(g2, 1)
    opts = g2.decision().options
    assert not any(o[0] == "assault" and o[1] == 2 for o in opts)  # close assault on vehicles: not yet
    assert any(o[0] == "shoot" and o[1] == 2 for o in opts)  # fire at vehicles (firing_at_vehicles.py)
    assert any(o[0] == "shoot" and o[1] == 3 for o in opts)
    for o in opts:
        assert g2.is_legal(o)
    assert not g2.is_legal(("assault", 2))


# --- saves ------------------------------------------------------------------------------------------------
def test_unit_plain_data_round_trip():
    g = game(tank_and_squad("main_battle_tank", facing=45))
    v = g.units[0]
    vehicle_state(v).damage, vehicle_state(v).passengers, vehicle_state(v).opened_up = 2, [1], True
    d = unit_dict(v)
    assert d["vehicle"]["profile"] == "VehicleProfile"
    back = unit_from_dict(json.loads(json.dumps(d)))
    assert unit_dict(back) == d and back.vehicle == v.vehicle
    s = unit_dict(g.units[1])
    assert "vehicle" not in s and "facing" not in s  # infantry: the vehicle fields at their defaults stay out
    assert unit_dict(unit_from_dict(s)) == s


def test_snapshot_and_save_round_trip_with_vehicles(tmp_path):
    import random
    g = game(tank_and_squad("apc_wheeled"))
    rng = random.Random(3)
    for _ in range(40):
        if g.winner is not None:
            break
        g.apply(rng.choice(g.decision().options))
    snap = saves.snapshot(g) if hasattr(saves, "snapshot") else None
    path = tmp_path / "s.json"
    saves.save(g, path)
    h = saves.load(Game, path)
    assert saves.state_digest(h) == saves.state_digest(g)
    if snap is not None:
        assert saves.state_digest(saves.from_snapshot(Game, snap)) == saves.state_digest(g)


def test_open_up_and_close_down_is_one_action():
    g = begin(tank_and_squad("main_battle_tank"))
    activate(g, 0)
    assert ("hatches", "open_up") in g.decision().options
    g.apply(("hatches", "open_up"))
    assert g.units[0].veh.opened_up and open_topped(g.units[0]) and g.actions_left == 1
    assert ("hatches", "close_down") in g.decision().options
    g.apply(("hatches", "close_down"))
    assert not g.units[0].veh.opened_up
    g2 = begin(tank_and_squad("ifv_tracked"))
    activate(g2, 0)
    assert not any(o[0] == "hatches" for o in g2.decision().options)


@pytest.mark.parametrize("design,armour", [("main_battle_tank", True), ("supply_truck", False),
                                           ("hive_brute", True), ("technical", False), ("infantry_walker", True)])
def test_which_vehicles_are_enemy_armour_for_panic(design, armour):
    from dustup_env.rules.morale.panic import counts_as_armour
    g = game(tank_and_squad(design))
    assert counts_as_armour(g, g.units[0]) == armour
    assert not counts_as_armour(g, g.units[1])


def test_green_units_panic_on_first_sight_of_enemy_armour():
    scn = scenario([unit("G", (24, 10), figures=(("rifle", 4),), quality="d6")],
                   [vehicle("T", (24, 30), "main_battle_tank")])
    g = begin(scn, [("d6", 1)])
    assert not [e for e in g.event_log() if e["type"] == "PanicTested"]
    activate(g, 0)  # the panic triggers are checked when the unit activates
    tests = [e for e in g.event_log() if e["type"] == "PanicTested"]
    assert tests and tests[0]["reason"] == "first_sight_of_armour" and tests[0]["unit"] == 0


def test_mounted_passengers_do_not_see_or_get_seen_for_panic():
    scn = scenario([vehicle("APC", (24, 10), "apc_wheeled"),
                    unit("G", (24, 10), figures=(("rifle", 4),), quality="d6", carried_by="APC")],
                   [unit("E", (24, 30), figures=(("rifle", 4),), quality="d4")])
    g = begin(scn, [("d6", 6)])
    tests = [e for e in g.event_log() if e["type"] == "PanicTested"]
    assert all(e["unit"] != 1 for e in tests)


def test_super_heavy_turrets_start_on_the_table():
    scn = scenario([vehicle("Hull", (24, 10), "combat_walker", inbound=1),
                    vehicle("Turret", (24, 10), "light_tank", hull="Hull", inbound=1)], [unit("E", (5, 45))])
    with pytest.raises(ScenarioError, match="start on the table"):
        game(scn)
