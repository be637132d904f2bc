"""Towed heavy weapons (seed 000 "Moving Heavy Weapons" L1208, "Towing and Pushing Vehicles" L1417): a vehicle tows a
limbered gun on its carriage with its crew, the crew unhooks and unlimbers it.  Forced dice."""
from conftest import activate, add_dice, begin, events_of, scenario, unit
from vehicle_helpers import vehicle
from dustup_env.rules.armoured_dustup import heavy_weapons as hw
from dustup_env.rules.armoured_dustup.towing import tow_size


def gun_scn(tower="supply_truck", gun="towed_at_gun", ready=False, gap=3.5):
    return scenario([vehicle("Truck", (24, 10), tower, facing=0),
                     unit("Gun", (24, 10 - gap), figures=(("rifle", 4),), heavy_weapon=gun, weapon_ready=ready)],
                    [unit("E", (5, 45), figures=(("rifle", 3),))])


def test_a_limbered_towed_gun_is_towed_as_its_carriage_size():
    g = begin(gun_scn())
    assert tow_size(g, g.units[1]) == 2  # the HVC-3's carriage: class - 1 (RN-617)
    activate(g, 0)
    assert ("tow", 1) in g.decision().options and ("push", 1) not in g.decision().options  # towed, not pushed
    g = begin(gun_scn(ready=True))  # unlimbered: not towable
    assert tow_size(g, g.units[1]) is None
    activate(g, 0)
    assert ("tow", 1) not in g.decision().options


def test_a_man_packed_weapon_or_an_abandoned_gun_is_not_towed():
    g = begin(scenario([vehicle("Truck", (24, 10), "supply_truck"),
                        unit("HMG", (24, 7), figures=(("rifle", 3),), heavy_weapon="hmg_team", weapon_ready=False)],
                       [unit("E", (5, 45), figures=(("rifle", 3),))]))
    assert tow_size(g, g.units[1]) is None
    g = begin(gun_scn())
    hw.state(g, g.units[1])["abandoned"] = True
    assert tow_size(g, g.units[1]) is None


def test_a_tower_at_most_one_size_smaller():
    g = begin(gun_scn(tower="technical", gun="towed_field_gun"))  # size 1 may not tow a size 3 carriage
    activate(g, 0)
    assert ("tow", 1) not in g.decision().options
    g = begin(gun_scn(tower="supply_truck", gun="towed_field_gun"))  # size 2 tows size 3 (L1417)
    activate(g, 0)
    assert ("tow", 1) in g.decision().options


def _red_ends(g):
    activate(g, 2)
    g.apply(("end",))


def test_a_vehicle_tows_the_gun_and_its_crew_and_the_towed_crew_does_not_move_on_its_own():
    g = begin(gun_scn())
    activate(g, 0)
    g.apply(("tow", 1))
    truck, crew = g.units[0], g.units[1]
    assert truck.veh.towing == 1 and crew.veh.towed_by == 0
    add_dice(g, ("d6", 4))  # a D12 mover tows at D6 (RN-132): 8 movement points
    g.apply(("move", 0, 3))
    assert truck.y == 14.0 and (crew.x, crew.y) == (24.0, 12.0)  # the crew and its limbered gun came along
    s = hw.state(g, crew)
    assert not s["abandoned"] and s["at"] is None and not s["ready"]
    _red_ends(g)
    activate(g, 1)
    opts = g.decision().options
    assert not any(o[0] in ("move", "withdraw") for o in opts)  # unhooked first (RN-880)
    assert ("reorganise", "unlimber") not in opts


def test_unhook_then_unlimber_where_the_tower_left_it():
    g = begin(gun_scn())
    activate(g, 0)
    g.apply(("tow", 1))
    g.apply(("unhook",))
    crew = g.units[1]
    assert crew.veh.towed_by < 0 and events_of(g, "TowReleased")[-1]["reason"] == "unhook"
    _red_ends(g)
    activate(g, 1)
    assert any(o[0] == "move" for o in g.decision().options)
    g.apply(("reorganise", "unlimber"))
    s = hw.state(g, crew)
    assert s["ready"] and s["at"] == [crew.x, crew.y]
    assert events_of(g, "HeavyWeaponTask")[-1]["task"] == "unlimber"


def test_a_towed_crew_forced_to_move_is_let_go():
    from dustup_env.rules.armoured_dustup.towing import _after_move
    g = begin(gun_scn())
    activate(g, 0)
    g.apply(("tow", 1))
    crew = g.units[1]
    start = (crew.x, crew.y)
    crew.y -= 3.0
    _after_move(g, crew, start, True)
    assert crew.veh.towed_by < 0 and g.units[0].veh.towing < 0
