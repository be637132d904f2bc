"""Vehicle Movement (armoured_dustup/vehicle_movement.py): mobility-type terrain tables, obstacles per mover type,
damage and suppression one class worse, facing after a move, carry_along.  Forced dice throughout."""
import math

import pytest
from conftest import activate, begin, last_event, rect, scenario, unit
from vehicle_helpers import tank_and_squad, vehicle

from dustup_env.rules.armoured_dustup.vehicle_movement import carry_along, footprint, movement_column
from dustup_env.rules.kernel.battlefield import VEHICLE_TABLES, TERRAIN_TYPES, column_mobility, vehicle_column
from dustup_env.rules.kernel.dice import parse_die
from dustup_env.rules.unit_actions.move_action import move_options
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

NORTH, EAST, SOUTH, WEST = 0, 4, 8, 12
D24 = 3


def moved(scn, option, dice, setup=None, uid=0):
    g = begin(scn, dice)
    if setup:
        setup(g)
    activate(g, uid)
    g.apply(option)
    return g, last_event(g, "Moved")


def dist(m):
    (x0, y0), (x1, y1) = m["start"], m["end"]
    return math.hypot(x1 - x0, y1 - y0)


# (design, die, terrain, expected class): one row of each table of L1366-1398
@pytest.mark.parametrize("design,die,terrain,cls", [
    ("main_battle_tank", "d12", "open", 1), ("main_battle_tank", "d12", "rough", 2),
    ("main_battle_tank", "d12", "light_woods", 3), ("main_battle_tank", "d12", "ford", 3),
    ("supply_truck", "d12", "road", 1), ("supply_truck", "d12", "open", 2), ("supply_truck", "d12", "cultivated", 3),
    ("apc_wheeled", "d12", "open", 1), ("apc_wheeled", "d12", "cultivated", 2), ("apc_wheeled", "d12", "swamp", 3),
    ("scout_hover", "d12", "open_water", 1), ("scout_hover", "d12", "slopes", 2), ("scout_hover", "d12", "river", 3),
    ("grav_apc", "d12", "river", 1), ("grav_apc", "d12", "rough", 2),
    ("infantry_walker", "d6", "light_scrub", 1), ("infantry_walker", "d6", "cultivated", 2),
    ("infantry_walker", "d6", "open_water", 3), ("infantry_walker", "d6", "light_woods", 3),
])
def test_terrain_class_per_mobility_type(design, die, terrain, cls):
    roll = 6
    scn = tank_and_squad(design, terrain=[rect(terrain, 0, 0, 48, 40)])
    g, m = moved(scn, ("move", NORTH, D24), [(die, roll)])
    assert m["points"] == 2 * roll
    assert dist(m) == pytest.approx(2 * roll / cls, abs=1e-6)


@pytest.mark.parametrize("design,terrain", [
    ("main_battle_tank", "dense_woods"), ("main_battle_tank", "swamp"), ("main_battle_tank", "river"),
    ("main_battle_tank", "open_water"), ("supply_truck", "rough"), ("apc_wheeled", "light_woods"),
    ("scout_hover", "light_woods"), ("grav_apc", "dense_woods"), ("infantry_walker", "dense_woods"),
    ("main_battle_tank", "building")])
def test_impassable_terrain_stops_the_vehicle_at_its_edge(design, terrain):
    scn = tank_and_squad(design, terrain=[rect(terrain, 0, 14, 48, 30)])
    g, m = moved(scn, ("move", NORTH, D24), [(g_die(design), 6)])
    assert 13.5 - 1e-6 <= m["end"][1] <= 14.0 + 1e-6


def test_a_slow_design_moves_on_the_d12_of_most_vehicles():
    """RN-922: "most vehicles have a D12 mobility die, meaning they will generally move D12x2". This does not
    necessarily represent their maximum speed, but their tactical speed" (L1362): the main battle tank, a Dirtside
    slow tracked design, rolls a D12 like the fast ones; an 11 is 22 movement points, 22" in the open."""
    scn = tank_and_squad("main_battle_tank", terrain=[rect("open", 0, 0, 48, 40)])
    g, m = moved(scn, ("move", NORTH, D24), [("d12", 11)])
    assert g.units[0].movement == parse_die("d12") and m["points"] == 22
    assert dist(m) == pytest.approx(22.0)


def test_watercraft_keep_to_the_water():
    scn = tank_and_squad("patrol_boat", pos=(24, 6), terrain=[rect("open_water", 0, 0, 48, 16)])
    g = begin(scn)
    opts = move_options(g, g.units[0], False)
    assert ("move", NORTH, 1) in opts and ("move", NORTH, 2) not in opts
    g, m = moved(scn, ("move", NORTH, 1), [("d12", 2)])
    assert dist(m) == pytest.approx(4.0)


def g_die(design):
    return {"infantry_walker": "d6"}.get(design, "d12")


def test_the_nominated_point_must_be_passable_for_the_vehicle():
    scn = tank_and_squad("main_battle_tank", terrain=[rect("dense_woods", 18, 16, 30, 30)])
    g = begin(scn)
    assert ("move", NORTH, 2) not in move_options(g, g.units[0], False)  # 12" north: in the dense woods
    inf = begin(scenario([unit("S", (24, 10))], [unit("E", (5, 45))], terrain=[rect("dense_woods", 18, 16, 30, 30)]))
    assert ("move", NORTH, 2) in move_options(inf, inf.units[0], False)


def test_amphibious_vehicles_swim():
    scn = tank_and_squad("main_battle_tank", terrain=[rect("open_water", 0, 0, 48, 40)], amphibious=True)
    g, m = moved(scn, ("move", NORTH, D24), [("d12", 8)])
    assert dist(m) == pytest.approx(8.0)  # poor: 16 points, 8"
    bad = tank_and_squad("scout_hover", amphibious=True)
    with pytest.raises(Exception, match="amphibious"):
        begin(bad)


def test_ford_and_river():
    scn = tank_and_squad("ifv_tracked", pos=(24, 10), terrain=[rect("river", 0, 12, 48, 14), rect("ford", 20, 12, 28, 14)])
    g, m = moved(scn, ("move", NORTH, D24), [("d12", 6)])  # 2" open (2), 2" ford (6), 4" open (4)
    assert dist(m) == pytest.approx(8.0)
    scn = tank_and_squad("ifv_tracked", pos=(10, 10), terrain=[rect("river", 0, 12, 48, 14), rect("ford", 20, 12, 28, 14)])
    g, m = moved(scn, ("move", NORTH, D24), [("d12", 6)])
    assert m["end"][1] == pytest.approx(12.0)  # not at the ford: impassable


@pytest.mark.parametrize("shift_by,cls", [("damage1", 2), ("suppressed", 2), ("damage1+suppressed", 3),
                                          ("damage2", 3), ("damage3", None)])
def test_damage_and_suppression_make_terrain_one_class_worse(shift_by, cls):
    def setup(g):
        v = g.units[0]
        if "damage" in shift_by:
            vehicle_state(v).damage = int(shift_by[6])
        if "suppressed" in shift_by:
            v.suppression = 1
    scn = tank_and_squad("main_battle_tank")
    g = begin(scn, [("d12", 6)])
    setup(g)
    activate(g, 0)
    v = g.units[0]
    assert v.terrain_column == vehicle_column("tracked", False, v.veh.damage + (v.suppression > 0))
    if cls is None:
        assert not any(o[0] == "move" for o in g.decision().options)
        return
    assert ("move", NORTH, D24) in g.decision().options  # a suppressed vehicle still moves (RN-140)
    g.apply(("move", NORTH, D24))
    assert dist(last_event(g, "Moved")) == pytest.approx(12.0 / cls)


def test_suppressed_infantry_still_cannot_move():
    g = begin(tank_and_squad())
    g.units[1].suppression = 1
    activate(g, 1)
    assert not any(o[0] == "move" for o in g.decision().options)


@pytest.mark.parametrize("design,otype,cost,expected", [
    ("main_battle_tank", "wire", None, 12.0 - 1.0),  # tracked: wire a minor obstacle (1)
    ("apc_wheeled", "wire", None, 4.0),  # wheeled: impassable, stops before it
    ("main_battle_tank", "dragons_teeth", None, 4.0),  # impassable to tracked
    ("grav_apc", "dragons_teeth", None, 12.0 - 3.0),  # grav: difficult (3)
    ("main_battle_tank", "wall", {"tracked": 4}, 12.0 - 4.0),  # the scenario's own cost for the mover type
    ("grav_apc", "wire", {"grav": None}, 4.0),
])
def test_obstacles_per_mover_type(design, otype, cost, expected):
    ob = {"type": otype, "line": [[0, 14.25], [48, 14.25]], "cost": 1}
    if cost is not None:
        ob["vehicles"] = cost
    scn = tank_and_squad(design, obstacles=[ob])
    g, m = moved(scn, ("move", NORTH, D24), [(g_die(design), 6)])
    assert dist(m) == pytest.approx(expected, abs=0.51)
    if expected == 4.0:
        assert m["end"][1] < 14.25


def test_infantry_pay_the_scenario_cost_of_vehicle_obstacles():
    ob = {"type": "dragons_teeth", "line": [[0, 12.25], [48, 12.25]], "cost": 2}
    scn = scenario([unit("S", (24, 10), figures=(("rifle", 1),))], [unit("E", (5, 45))], obstacles=[ob])
    g, m = moved(scn, ("move", NORTH, D24), [("d6", 3)])
    assert dist(m) == pytest.approx(4.0)


def test_a_vehicle_ends_facing_the_way_it_moved():
    g, m = moved(tank_and_squad("main_battle_tank"), ("move", EAST, 1), [("d12", 5)])
    assert g.units[0].veh.facing == pytest.approx(90.0) and g.units[0].veh.moved
    g, m = moved(tank_and_squad("main_battle_tank", facing=90), ("move", 10, 1), [("d12", 5)])
    assert g.units[0].veh.facing == pytest.approx(225.0)


def test_immobilised_vehicles_do_not_move():
    g = begin(tank_and_squad())
    vehicle_state(g.units[0]).immobilised = True
    activate(g, 0)
    assert not any(o[0] in ("move", "withdraw") for o in g.decision().options)


def test_carry_along_brings_passengers_and_turrets():
    scn = scenario([vehicle("Hull", (24, 10), "combat_walker"), vehicle("Turret", (24, 10), "light_tank", hull="Hull"),
                    unit("S", (27, 10), figures=(("rifle", 2),))], [unit("E", (5, 45))])
    g = begin(scn, [("d6", 4)])
    vehicle_state(g.units[0]).passengers, vehicle_state(g.units[2]).carrier = [2], 0
    carry_along(g, g.units[0])
    assert (g.units[2].x, g.units[2].y) == (24.0, 10.0)
    activate(g, 0)
    g.apply(("move", NORTH, D24))
    hull = g.units[0]
    assert (hull.x, hull.y) == pytest.approx((24.0, 18.0))
    assert (g.units[1].x, g.units[1].y, g.units[1].veh.facing) == (hull.x, hull.y, hull.veh.facing)
    assert (g.units[2].x, g.units[2].y) == (hull.x, hull.y)


def test_turrets_do_not_move_on_their_own():
    scn = scenario([vehicle("Hull", (24, 10), "combat_walker"), vehicle("Turret", (24, 10), "light_tank", hull="Hull")],
                   [unit("E", (5, 45))])
    g = begin(scn)
    activate(g, 1)
    assert not any(o[0] in ("move", "withdraw") for o in g.decision().options)


def test_columns_and_tables():
    for mob in VEHICLE_TABLES:
        for amph in (False, True):
            for s in range(4):
                assert column_mobility(vehicle_column(mob, amph, s)) == mob
    assert set(VEHICLE_TABLES["grav"]) <= set(TERRAIN_TYPES)
    g = begin(tank_and_squad("main_battle_tank"))
    assert footprint(g.units[0]) == 2.0 and movement_column(g.units[0]) == g.units[0].terrain_column


def test_turn_on_the_spot_is_one_action():
    g = begin(tank_and_squad("main_battle_tank"))
    activate(g, 0)
    opts = g.decision().options
    assert ("turn", 0) not in opts and ("turn", 4) in opts and sum(o[0] == "turn" for o in opts) == 15
    g.apply(("turn", 4))
    v = g.units[0]
    assert v.veh.facing == 90.0 and (v.x, v.y) == (24.0, 10.0) and g.actions_left == 1
    assert last_event(g, "Turned")["facing"] == 90.0
    g2 = begin(tank_and_squad("main_battle_tank"))
    vehicle_state(g2.units[0]).immobilised = True
    activate(g2, 0)
    assert not any(o[0] == "turn" for o in g2.decision().options)


def test_a_d12x2_mobility_die_moves_its_roll_times_two():
    # regression target of the Move Action row: "D12x2" (L1362), a design stating its own movement die
    import json

    from dustup_env.rules.vehicle_design.load import LIBRARY
    doc = json.loads((LIBRARY / "light_tank.json").read_text())
    doc["dustup"]["movement_die"] = "d12x2"
    g, m = moved(tank_and_squad(doc), ("move", NORTH, D24), [("d12x2", 5)])
    assert (m["roll"], m["points"]) == (10, 20.0) and dist(m) == pytest.approx(20.0)


def test_detecting_a_hidden_vehicle_shifts_the_range_die_down_for_its_size():
    wood = rect("light_woods", 16, 26, 32, 34)
    scn = scenario([unit("A", (20, 22), figures=(("rifle", 4),))],
                   [unit("B", (44, 46)), vehicle("H", (20, 30), "main_battle_tank", hidden=True)], terrain=[wood])
    g = begin(scn)
    activate(g, 0)
    i = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    g.dice.results.extend(g.dice.__class__([("d6", 1), ("d8", 5), ("d4", 4)]).results)
    g.apply(("detect", i))
    e = last_event(g, "DetectionAttempted")
    assert e["range_die"] == "d6" and e["result"] == "major"  # 8": D8, target size 3: D6
    assert not g.units[2].hidden
