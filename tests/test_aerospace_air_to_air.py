"""Aircraft Firing at Other Aircraft (seed 000 L1812, optional: game option ``air_to_air``, RN-1853): an aircraft in
the air with an anti-aircraft weapon fires at enemy aircraft in the air by the on-table anti-aircraft procedure, as a
reaction in the middle of their flights or as an action; without the option it does not.  Forced dice."""
import pytest
from aerospace_helpers import air_scenario, aircraft
from conftest import activate, add_dice, begin, last_event

A, SQUAD = 1, 2  # Blue's dropship (ECM D8) and the squad aboard
GUNSHIP = {"design": "vehicle", "name": "Escort gunship", "size": 2, "mobility": "vtol", "power_plant": "FGP",
           "armour": 1, "fire_control": "enhanced", "ecm": "superior",
           "weapons": [{"type": "LAD", "name": "LAD launcher", "guidance": "enhanced"}]}  # guidance D8, firepower D8


def _game(option, first=0, gunship_air="airborne"):
    red = [aircraft("Gunship", (22, 30), design=GUNSHIP, air=gunship_air, facing=180)]
    return begin(air_scenario([aircraft("Dropship", (22, 3), air="airborne", facing=0)], red=red, passengers=True),
                 first=first, options={"air_to_air": option})


GUN = 3  # Red's gunship


def test_with_the_option_an_aircraft_in_the_air_reacts_to_an_enemy_flight_mid_move():
    g = _game(True)
    activate(g, A)
    g.apply(("air_fly", 22.0, 39.0))
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "anti_aircraft", GUN)
    assert (g.units[A].x, g.units[A].y) == (22.0, 4.0)  # 1" along: the flight waits below the reaction
    add_dice(g, 6, 2)  # the LAD's guidance D8 rolls 6 against the dropship's ECM D8 2: acquired
    g.apply(("aa_fire",))
    assert last_event(g, "AntiAircraftFire")["result"] == "acquired"
    d = g.decision()
    assert (d.side, d.kind) == (0, "air_pilot")
    add_dice(g, 1, 1, 8)  # engaged: guidance 1, firepower 1 against ECM 8: no success
    g.apply(("air_pilot", "continue"))
    assert last_event(g, "AntiAircraftFire")["result"] == "none"
    assert (g.units[A].x, g.units[A].y) == (22.0, 39.0)  # the flight went on to its end


def test_without_the_option_an_aircraft_in_the_air_never_fires_at_aircraft():
    g = _game(False)
    activate(g, A)
    g.apply(("air_fly", 22.0, 39.0))
    d = g.decision()
    assert d.kind == "action" and d.unit == A  # no reaction: the dropship's second action
    assert (g.units[A].x, g.units[A].y) == (22.0, 39.0)


@pytest.mark.parametrize("option", [True, False])
def test_the_action_at_an_enemy_aircraft_in_the_air_is_offered_with_the_option_only(option):
    g = _game(option, first=1)
    activate(g, GUN)
    fire = [o for o in g.decision().options if o[0] == "aa_fire_at"]
    assert fire == ([("aa_fire_at", A)] if option else [])


def test_a_grounded_aircraft_fires_as_on_table_anti_aircraft_with_or_without_the_option():
    g = _game(False, first=1, gunship_air="grounded")
    activate(g, GUN)
    assert ("aa_fire_at", A) in g.decision().options  # on the ground it is an on-table anti-aircraft weapon


@pytest.mark.parametrize("gunship_air", ["airborne", "grounded"])
def test_an_aircraft_never_fires_its_other_weapons_at_an_aircraft_in_the_air(gunship_air):
    g = _game(True, first=1, gunship_air=gunship_air)
    activate(g, GUN)
    assert not [o for o in g.decision().options if o[0] in ("fire_vehicle", "fire_slaved") and o[1] == A]
