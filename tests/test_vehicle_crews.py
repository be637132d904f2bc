"""Vehicle crews represented as a unit (seed 000 L1324 "Vehicle crews are not normally represented, but may be treated
as a unit if suitable figures are available", L1512 "The crew can choose to dismount to fight back as long as the
vehicle is not suppressed"; RN-141, RN-881).  Forced dice."""
import pytest

from conftest import activate, begin, events_of, last_event, scenario, unit
from dustup_env.rules.kernel.entities import STEADY
from vehicle_helpers import vehicle
from dustup_env.rules import ScenarioError
from dustup_env.rules.armoured_dustup.close_assault import crew_of, unmanned


def crewed(design="main_battle_tank", tank_pos=(24, 16), **crew_kw):
    """Blue squad S (uid 0) at (24, 10); red tank T (uid 1) facing south with its crew C (uid 2) aboard; red R far."""
    spec = {"crew_of": "T"}
    spec.update(crew_kw)
    return scenario([unit("S", (24, 10), figures=(("rifle", 4),), grenades=True, confidence="steady")],
                    [vehicle("T", tank_pos, design, facing=180), unit("C", (0, 0), figures=(("rifle", 3),), **spec),
                     unit("R", (44, 44), figures=(("rifle", 2),))])


def test_the_crew_starts_aboard_unseen_and_takes_no_transport_places():
    g = begin(crewed())
    t, c = g.units[1], g.units[2]
    assert crew_of(g, t) is c and c.veh.carrier == 1 and t.veh.passengers == [2] and (c.x, c.y) == (t.x, t.y)
    assert 2 not in [u.uid for u in g.enemy_units(0)]
    from dustup_env.rules.armoured_dustup.transport import room
    g = begin(crewed("apc_wheeled"))
    assert room(g, g.units[1]) == g.units[1].profile.vehicle.transport_figures


def test_the_assaulted_vehicles_side_may_dismount_the_crew_to_fight_as_infantry():
    # the crew dismounts 1" out from the tank on the squad's side, within 2" of the squad: the Assault Action's
    # combat at once (two-inch rule), both rounds missing (every die 1), the final courage test a draw: the squad
    # withdraws (D6 1: 2")
    g = begin(crewed(), [1] * 9)
    activate(g, 0)
    g.apply(("assault_vehicle", 1))
    d = g.decision()
    assert d.kind == "assault_response" and d.side == 1 and d.unit == 2
    assert d.options[0] == ("stand",) and d.options[1][0] == "dismount" and len(d.options) == 2
    g.apply(d.options[1])
    c = g.units[2]
    assert c.veh.carrier < 0 and g.units[1].veh.passengers == [] and c.y < g.units[1].y  # on the side facing the squad
    assert last_event(g, "CrewDismounted") == {"type": "CrewDismounted", "vehicle": 1, "crew": 2, "attacker": 0}
    declared = last_event(g, "AssaultDeclared")
    assert declared["attackers"] == [0] and declared["defenders"] == [2]  # the Assault Action against the crew
    assert not events_of(g, "VehicleAssaulted") and len(events_of(g, "StrikeResolved")) == 2
    assert last_event(g, "AssaultEnded")["result"] == "0:lost_combat" and g.dice.remaining == 0
    assert unmanned(g, g.units[1])


def test_the_crew_stays_aboard_and_the_assault_on_the_vehicle_goes_on():
    # stand: the crew stays aboard; the tank's side then answers the assault itself (it may withdraw, L1522) and
    # stands: the normal courage test (D8 2 against the tank's D8 8): less than half, the squad loses both actions
    # and a level (L709)
    g = begin(crewed(), [2, 8])
    activate(g, 0)
    g.apply(("assault_vehicle", 1))
    g.apply(("stand",))
    d = g.decision()
    assert d.kind == "assault_response" and d.unit == 1 and set(d.options) == {("stand",), ("withdraw",)}
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail_badly" and g.units[0].confidence == STEADY + 1
    assert g.units[2].veh.carrier == 1 and not events_of(g, "CrewDismounted") and g.dice.remaining == 0


def test_no_dismounting_to_fight_from_a_suppressed_vehicle():
    g = begin(crewed(), [2, 8])
    g.units[1].suppression = 1
    activate(g, 0)
    g.apply(("assault_vehicle", 1))
    d = g.decision()
    assert d.unit == 1 and set(d.options) == {("stand",), ("withdraw",)}  # the tank's own answer: no crew choice
    g.apply(("stand",))
    assert last_event(g, "CourageTested")["result"] == "fail_badly"


def test_a_vehicle_without_its_crew_only_ends_and_the_crew_mounts_it_again():
    g = begin(crewed(), first=1)
    t, c = g.units[1], g.units[2]
    from dustup_env.rules.armoured_dustup.transport import dismount
    dismount(g, c, 4)  # south
    activate(g, 1)
    assert g.decision().options == (("end",),)
    g.apply(("end",))
    activate(g, 0)
    g.apply(("end",))
    activate(g, 2)
    assert ("mount", 1) in g.decision().options  # a tank has no transport places: its crew still mounts
    g.apply(("mount", 1))
    assert c.veh.carrier == 1 and not unmanned(g, t)


@pytest.mark.parametrize("design,spec,msg", [("main_battle_tank", {"crew_of": "Nobody"}, "not a vehicle"),
                                             ("infantry_walker", {"crew_of": "T"}, "not a mech"),
                                             ("main_battle_tank", {"crew_of": "T"}, "already has a crew")])
def test_bad_crews_are_scenario_errors(design, spec, msg):
    crews = [unit("C", (0, 0), figures=(("rifle", 3),), **spec)]
    if msg == "already has a crew":
        crews.append(unit("C2", (0, 0), figures=(("rifle", 2),), **spec))
    scn = scenario([unit("S", (24, 10))], [vehicle("T", (24, 16), design)] + crews)
    with pytest.raises(ScenarioError, match=msg):
        begin(scn)
