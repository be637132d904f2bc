"""Vehicular cavalry (forces/cavalry.py, seed 000 "Unit Types › Cavalry"): D12 on its vehicle table while mounted,
vehicles left unattended where it dismounts."""
import pytest
from conftest import activate, begin, last_event, rect, scenario, unit

from dustup_env.rules import ScenarioError
from dustup_env.rules.kernel.battlefield import vehicle_column
from dustup_env.rules.kernel.dice import D12
from dustup_env.rules.forces.cavalry import CavalryState

NORTH, EAST = 0, 4


def bikes(mounted=True, terrain=(), pos=(24, 10)):
    return scenario([unit("Bikes", pos, figures=(("rifle", 4),), movement="cavalry", mobility="high_mobility_wheeled",
                          mounted=mounted)], [unit("E", (5, 45), figures=(("rifle", 3),))], terrain=terrain)


def test_mounted_vehicular_cavalry_moves_d12_on_its_vehicle_table():
    g = begin(bikes(terrain=[rect("cultivated", 0, 0, 48, 40)]), [("d12", 10)])
    u = g.units[0]
    assert u.movement == D12 and u.terrain_column == vehicle_column("high_mobility_wheeled")
    activate(g, 0)
    g.apply(("move", NORTH, 3))
    m = last_event(g, "Moved")
    assert m["points"] == 20 and m["end"][1] == pytest.approx(20.0)  # cultivated is poor for high mobility wheels


def test_woods_are_impassable_to_the_bikes_but_not_on_foot():
    scn = bikes(terrain=[rect("light_woods", 0, 14, 48, 30)])
    g = begin(scn, [("d12", 10)])
    activate(g, 0)
    assert ("move", NORTH, 2) not in g.decision().options  # 12" north: in the woods
    g.apply(("reorganise", "dismount"))
    assert ("move", NORTH, 2) in g.decision().options and g.units[0].terrain_column == 0


def test_dismounting_leaves_the_vehicles_unattended_and_the_unit_may_prop():
    g = begin(bikes(), [("d6", 6)])
    activate(g, 0)
    assert ("prop",) not in g.decision().options
    g.apply(("reorganise", "dismount"))
    assert g.state_of(CavalryState).unattended_vehicles == {"0": [[24.0, 10.0], [25.5, 10.0], [24.0, 11.5], [25.5, 11.5]]}
    assert ("prop",) in g.decision().options
    g.apply(("move", EAST, 2))  # 12" away on foot (D6)
    assert last_event(g, "Moved")["points"] == 12
    g.units[0].activated = False
    assert ("reorganise", "mount") not in __import__("dustup_env.rules.forces.cavalry", fromlist=["x"])._options(
        g, g.units[0], type("S", (), {"disorganised": False, "suppressed": False, "in_cover": False})())


def test_mount_again_only_at_the_vehicles():
    g = begin(bikes(mounted=False, pos=(24, 10)))
    assert g.state_of(CavalryState).unattended_vehicles["0"][0] == [24.0, 10.0]
    activate(g, 0)
    assert ("reorganise", "mount") in g.decision().options
    g.apply(("reorganise", "mount"))
    assert g.units[0].mounted and g.state_of(CavalryState).unattended_vehicles in (None, {})
    assert g.units[0].terrain_column == vehicle_column("high_mobility_wheeled")


def test_mobility_only_for_cavalry():
    scn = scenario([unit("S", (24, 10), mobility="tracked")], [unit("E", (5, 45))])
    with pytest.raises(ScenarioError, match="mobility: only vehicular cavalry"):
        begin(scn)
