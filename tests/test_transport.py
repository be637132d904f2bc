"""Transport of Infantry (armoured_dustup/transport.py) and Towing and Pushing (armoured_dustup/towing.py)."""
import math

import pytest
from conftest import activate, begin, last_event, events_of, rect, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules import ScenarioError
from dustup_env.rules.armoured_dustup.transport import places, room, unload_all, within_reach
from dustup_env.rules.armoured_dustup.vehicle_movement import footprint
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

NORTH, EAST, SOUTH, WEST = 0, 4, 8, 12


def apc_scn(squad_pos=(25.5, 10), figures=4, design="apc_wheeled", enemy=(5, 45), **kw):
    """An APC (uid 0), a friendly squad (uid 1), an enemy squad (uid 2)."""
    return scenario([vehicle("APC", (24, 10), design), unit("S", squad_pos, figures=(("rifle", figures),), **kw)],
                    [unit("E", enemy, figures=(("rifle", 3),))])


def test_mount_needs_every_figure_within_2_inches_and_takes_one_action():
    g = begin(apc_scn())
    activate(g, 1)
    assert within_reach(g.units[0], g.units[1])
    assert ("mount", 0) in g.decision().options
    g.apply(("mount", 0))
    s, v = g.units[1], g.units[0]
    assert s.veh.carrier == 0 and v.veh.passengers == [1] and (s.x, s.y) == (v.x, v.y)
    assert g.actions_left == 1
    assert {o[0] for o in g.decision().options} <= {"end", "dismount", "recover", "order", "rally", "communicate"}
    assert last_event(g, "Embarked") == {"type": "Embarked", "unit": 1, "vehicle": 0}


def test_too_far_to_mount_offers_approach():
    g = begin(apc_scn(squad_pos=(34, 10)))
    activate(g, 1)
    opts = g.decision().options
    assert ("mount", 0) not in opts and ("approach", 0) in opts
    from dustup_env.rules import ScriptedDice
    g.dice.results.extend(ScriptedDice([("d6", 6)]).results)
    g.apply(("approach", 0))
    m = last_event(g, "Moved")
    assert m["points"] == 12 and g.units[1].x < 34
    assert ("mount", 0) in g.decision().options


def test_capacity_in_figures_and_power_armour_counts_double():
    scn = scenario([vehicle("APC", (24, 10), "apc_wheeled"), unit("A", (25, 10), figures=(("rifle", 6),)),
                    unit("B", (23, 10), figures=(("rifle", 5),)),
                    unit("P", (24, 12), figures=(("rifle", 3),), armour="light_power")],
                   [unit("E", (5, 45), figures=(("rifle", 3),))])
    g = begin(scn)
    assert g.units[0].vehicle.transport_figures == 10
    assert places(g.units[3]) == 6 and places(g.units[1]) == 6
    activate(g, 1)
    g.apply(("mount", 0))
    assert room(g, g.units[0]) == 4
    g2 = begin(scn)
    vehicle_state(g2.units[0]).passengers, vehicle_state(g2.units[1]).carrier = [1], 0
    activate(g2, 2)
    assert ("mount", 0) not in g2.decision().options  # 5 more do not fit in 4 places


def test_no_transport_no_mount():
    g = begin(apc_scn(design="main_battle_tank"))
    activate(g, 1)
    assert not any(o[0] in ("mount", "approach") for o in g.decision().options)


def test_dismount_places_every_figure_within_2_inches_and_leaves_the_second_action():
    g = begin(apc_scn(), [("d6", 3)])
    s, v = g.units[1], g.units[0]
    vehicle_state(s).carrier, vehicle_state(v).passengers = 0, [1]
    s.x, s.y = v.x, v.y
    activate(g, 1)
    assert ("dismount", EAST) in g.decision().options
    g.apply(("dismount", EAST))
    assert s.veh.carrier == -1 and v.veh.passengers == []
    r = footprint(v)
    for x, y in s.figure_positions():
        d = math.hypot(x - v.x, y - v.y)
        assert r < d <= r + 2.0 + 1e-9
    assert s.x > v.x and not s.disorganised()
    assert g.actions_left == 1 and ("move", EAST, 2) in g.decision().options  # the second action: move away
    g.apply(("move", EAST, 2))
    assert last_event(g, "Moved")["points"] == 6


def test_no_dismounting_from_a_suppressed_vehicle():
    g = begin(apc_scn())
    s, v = g.units[1], g.units[0]
    vehicle_state(s).carrier, vehicle_state(v).passengers = 0, [1]
    v.suppression = 1
    activate(g, 1)
    assert not any(o[0] == "dismount" for o in g.decision().options)


def test_dismount_sides_off_the_table_are_not_offered():
    scn = scenario([vehicle("APC", (1, 10), "apc_wheeled"), unit("S", (4, 10), figures=(("rifle", 4),))],
                   [unit("E", (5, 45), figures=(("rifle", 3),))])
    g = begin(scn)
    vehicle_state(g.units[1]).carrier, vehicle_state(g.units[0]).passengers = 0, [1]
    activate(g, 1)
    ds = {o[1] for o in g.decision().options if o[0] == "dismount"}
    assert WEST not in ds and EAST in ds


def test_passengers_move_with_the_vehicle_and_are_not_enemy_targets():
    scn = scenario([vehicle("APC", (24, 10), "apc_wheeled"), unit("S", (24, 10), figures=(("rifle", 4),),
                                                                  carried_by="APC")],
                   [unit("E", (24, 30), figures=(("rifle", 3),))])
    g = begin(scn, [("d12", 4)])
    assert g.units[1].veh.carrier == 0
    assert [e.uid for e in g.enemy_units(1)] == [0]
    activate(g, 0)
    g.apply(("move", NORTH, 1))
    assert (g.units[1].x, g.units[1].y) == (g.units[0].x, g.units[0].y) == (24.0, 16.0)


def test_a_passenger_that_must_withdraw_bails_out_first():
    from dustup_env.rules.kernel.entities import ROUTED
    scn = scenario([vehicle("APC", (24, 20), "apc_wheeled"), unit("S", (24, 20), figures=(("rifle", 4),),
                                                                  carried_by="APC")],
                   [unit("E", (24, 40), figures=(("rifle", 3),))])
    g = begin(scn, [("d6", 6)])
    g.units[1].confidence = ROUTED
    activate(g, 1)
    assert list(g.decision().options) == [("withdraw",)]
    g.apply(("withdraw",))
    s = g.units[1]
    assert s.veh.carrier == -1 and g.units[0].veh.passengers == [] and s.y < 20
    assert events_of(g, "Disembarked")[0]["forced"]


def test_unload_all():
    scn = scenario([vehicle("APC", (24, 20), "apc_wheeled"), unit("S", (24, 20), figures=(("rifle", 4),),
                                                                  carried_by="APC")],
                   [unit("E", (24, 40), figures=(("rifle", 3),))])
    g = begin(scn)
    unload_all(g, g.units[0])
    assert g.units[1].veh.carrier == -1 and g.units[0].veh.passengers == [] and within_reach(g.units[0], g.units[1])


@pytest.mark.parametrize("change,msg", [
    ({"carried_by": "Nope"}, "carried_by: 'Nope' is not a vehicle"),
    ({"carried_by": "Tank"}, "carries no passengers"),
    ({"carried_by": "APC", "figures": [{"weapon": "rifle", "count": 11}]}, "has room for 10 more figures"),
    ({"carried_by": "APC", "inbound": 1}, "do not start mounted"),
])
def test_carried_by_errors(change, msg):
    scn = scenario([vehicle("APC", (24, 20), "apc_wheeled"), vehicle("Tank", (30, 20)),
                    unit("S", (24, 20), figures=(("rifle", 4),))], [unit("E", (24, 40), figures=(("rifle", 3),))])
    scn["sides"][0]["units"][2].update(change)
    with pytest.raises(ScenarioError, match=msg):
        begin(scn)


def test_a_vehicle_carrying_passengers_may_not_hide():
    scn = scenario([vehicle("APC", (24, 20), "apc_wheeled"), unit("S", (24, 20), figures=(("rifle", 4),),
                                                                  carried_by="APC")],
                   [unit("E", (24, 40), figures=(("rifle", 3),))], terrain=[rect("light_woods", 20, 16, 28, 24)])
    from dustup_env.rules.armoured_dustup.vehicles import _vehicle_filter
    g = begin(scn)
    assert _vehicle_filter(g, g.units[0], [("end",), ("reorganise", "hide")]) == [("end",)]
    vehicle_state(g.units[0]).passengers = []
    assert _vehicle_filter(g, g.units[0], [("reorganise", "hide")]) == [("reorganise", "hide")]


# --- towing and pushing -------------------------------------------------------------------------------------
def tow_scn(tower="main_battle_tank", towed="light_tank", gap=4.5):
    return scenario([vehicle("T", (24, 10), tower), vehicle("X", (24, 10 - gap), towed)],
                    [unit("E", (5, 45), figures=(("rifle", 3),))])


def test_tow_a_vehicle_at_most_one_size_larger():
    g = begin(tow_scn("light_tank", "main_battle_tank"))  # size 2 tows size 3
    activate(g, 0)
    assert ("tow", 1) in g.decision().options and ("push", 1) in g.decision().options
    g = begin(tow_scn("light_tank", "assault_mech", gap=5))  # size 2 may not tow size 4
    activate(g, 0)
    assert ("tow", 1) not in g.decision().options


@pytest.mark.parametrize("tower", ["scout_hover", "grav_tank"])
def test_grav_and_hover_may_not_tow(tower):
    g = begin(tow_scn(tower, "light_tank"))
    activate(g, 0)
    assert not any(o[0] in ("tow", "push") for o in g.decision().options)


def test_damaged_vehicles_may_not_tow():
    g = begin(tow_scn())
    vehicle_state(g.units[0]).damage = 1
    activate(g, 0)
    assert not any(o[0] in ("tow", "push") for o in g.decision().options)


def test_too_far_to_tow():
    g = begin(tow_scn(gap=9))
    activate(g, 0)
    assert ("tow", 1) not in g.decision().options


@pytest.mark.parametrize("tower,die,roll,points", [
    ("supply_truck", "d6", 5, 10), ("main_battle_tank", "d6", 4, 8), ("main_battle_tank", "d6", 6, 12)])
def test_half_speed_while_towing(tower, die, roll, points):
    g = begin(tow_scn(tower, "light_tank"), [(die, roll)])
    activate(g, 0)
    g.apply(("tow", 1))
    t, x = g.units[0], g.units[1]
    assert t.veh.towing == 1 and x.veh.towed_by == 0 and not t.veh.pushing
    assert g.rules.services["towed"](g, x) is t and g.rules.services["towed"](g, t) is None
    g.apply(("move", NORTH, 3))
    m = last_event(g, "Moved")
    assert m["points"] == points
    assert x.y < t.y and math.hypot(x.x - t.x, x.y - t.y) == pytest.approx(footprint(t) + footprint(x))


def test_the_towed_vehicle_does_not_move_on_its_own_and_unhook():
    g = begin(tow_scn())
    activate(g, 0)
    g.apply(("tow", 1))
    g.apply(("unhook",))
    assert g.units[0].veh.towing == -1 and g.units[1].veh.towed_by == -1
    g2 = begin(tow_scn())
    activate(g2, 0)
    g2.apply(("push", 1))
    assert g2.units[0].veh.pushing and g2.units[1].y > g2.units[0].y  # pushed: in front
    from dustup_env.rules.armoured_dustup.vehicle_movement import _filter, _turn_options
    x = g2.units[1]
    assert _turn_options(g2, x, None) == [] and _filter(g2, x, [("end",), ("move", 0, 0)]) == [("end",)]


def test_towable_size_service_is_optional():
    from dustup_env.rules.armoured_dustup.towing import tow_size
    scn = scenario([vehicle("T", (24, 10)), unit("Gun", (24, 7), figures=(("rifle", 3),))],
                   [unit("E", (5, 45), figures=(("rifle", 3),))])
    g = begin(scn)
    assert tow_size(g, g.units[1]) is None
    activate(g, 0)
    assert ("tow", 1) not in g.decision().options
    saved = g.rules.services  # the rule set is shared by every game of the same rules: put it back
    g.rules.services = dict(saved)
    g.rules.services["towable_size"] = lambda game, u: 2
    try:
        assert tow_size(g, g.units[1]) == 2
    finally:
        g.rules.services = saved


def test_no_regrouping_with_or_treating_a_mounted_unit():
    from dustup_env.rules.armoured_dustup.transport import _filter
    scn = scenario([vehicle("APC", (24, 20), "apc_wheeled"), unit("S", (24, 20), figures=(("rifle", 4),),
                                                                  carried_by="APC"),
                    unit("M", (26, 20), figures=(("rifle", 4),))], [unit("E", (24, 40), figures=(("rifle", 3),))])
    g = begin(scn)
    assert _filter(g, g.units[2], [("end",), ("regroup", 1), ("treat", 1), ("order", 1)]) == [("end",), ("order", 1)]
