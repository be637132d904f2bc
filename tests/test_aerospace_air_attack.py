"""L1134: "Unit is under artillery or aerospace attack" (+2 / +1 / +0 by commitment) applies to the fire of an aircraft
in the air: its guns and missiles, at infantry or at a vehicle, give the target's confidence test the artillery
modifier; a grounded aircraft fires as a ground vehicle (RN-1973).  Forced dice."""
import pytest

from aerospace_helpers import air_scenario, aircraft
from conftest import activate, add_dice, begin, last_event, unit

from dustup_env.rules.aerospace_operations import air

A = 1  # the gunship (uid 1); Red's unit is uid 2


def _gunship(red, mode):
    g = begin(air_scenario([aircraft("Gunship", (24, 10), design="vtol_gunship", facing=0)], red=[red]))
    air.air_state(g, g.units[A])["mode"] = mode
    activate(g, A)
    return g


@pytest.mark.parametrize("mode, modifier", [("hovering", 1), ("airborne", 1), ("grounded", 0)])
def test_an_aircraft_in_the_air_firing_at_infantry_gives_the_artillery_modifier(mode, modifier):
    g = _gunship(unit("Squad", (24, 24), figures=(("rifle", 5),)), mode)
    t = g.units[2]
    assert t.commitment == 1 and t.lv == 2  # medium commitment: the modifier is +1
    # the chin turret (k = 0): target D8 2; quality D8 3 beats it, the firepower D6s 1, 1 do not: a minor success,
    # the squad's first suppression (1 at medium); its test's quality roll 4
    add_dice(g, ("d8", 2), ("d8", 3), ("d6", 1), ("d6", 1), 4)
    g.apply(("fire_vehicle", 2, 0))
    assert g.dice.remaining == 0 and last_event(g, "HeavyWeaponFired")["result"] == "minor"
    c = last_event(g, "ConfidenceTested")
    assert (c["unit"], c["reason"]) == (2, "first_suppressed")
    assert c["needed"] == 1 + 2 + modifier
    assert c["levels_dropped"] == (1 if modifier else 0)  # 4 does not beat 4, beats 3


@pytest.mark.parametrize("mode, modifier", [("hovering", 1), ("grounded", 0)])
def test_an_aircraft_in_the_air_firing_at_a_vehicle_gives_the_artillery_modifier(mode, modifier):
    g = _gunship({"name": "Tank", "position": [24.0, 24.0], "design": "main_battle_tank", "facing": 180}, mode)
    t = g.units[2]
    # target D6 2 (a vehicle), quality D8 3 beats it, the D6s do not: a minor success, the tank's first suppression
    add_dice(g, ("d6", 2), ("d8", 3), ("d6", 1), ("d6", 1), 1)
    g.apply(("fire_vehicle", 2, 0))
    assert g.dice.remaining == 0 and t.suppression == 1
    c = last_event(g, "ConfidenceTested")
    assert (c["unit"], c["reason"]) == (2, "first_suppressed")
    assert c["needed"] == 1 + t.lv + modifier
