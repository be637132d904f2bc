"""The CASEVAC vehicle (armoured_dustup/casevac_vehicle.py, seed 000 "Casualty Evacuation"): called from the loiter
zone with a communication, wounded transferred within 2" (half the carrying capacity), leaving the table with the
confidence rolls, the trip along the inbound track and back.  Forced dice."""
import pytest
from conftest import activate, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules import ScenarioError
from dustup_env.rules.armoured_dustup.casevac_vehicle import capacity
from dustup_env.rules.kernel.entities import CONFIDENT, SHAKEN, STEADY, TREATED, WOUNDED
from dustup_env.rules.armoured_dustup.casevac_vehicle import CasevacState
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


def scn(**kw):
    blue = [unit("S", (24, 20), figures=(("rifle", 6),), leadership=2, **kw), unit("F", (30, 20), figures=(("rifle", 4),)),
            vehicle("Medevac", (10, 2), "apc_wheeled", casevac=True), unit("Far", (24, 40), figures=(("rifle", 3),))]
    return scenario(blue, [unit("E", (5, 46), figures=(("rifle", 3),))])


def wound(g, uid, idxs, status=WOUNDED):
    for i in idxs:
        g.units[uid].set_figure(i, status=status)
    g.invalidate()


def called(dice=()):
    g = begin(scn(), [("d8", 8)] + list(dice))  # the communication roll (far away: a roll against LV 2)
    activate(g, 0)
    g.apply(("call_casevac", 2))
    return g


def test_the_casevac_vehicle_starts_in_the_loiter_zone_out_of_play():
    g = begin(scn())
    v = g.units[2]
    assert not v.in_play and g.state_of(CasevacState).casevac["2"]["zone"] == "loiter"
    assert v not in list(g.enemy_units(1)) and capacity(v) == 5
    activate(g, 0)
    assert ("call_casevac", 2) in g.decision().options


def test_a_failed_call_leaves_it_in_the_loiter_zone():
    g = begin(scn(), [("d8", 2)])
    activate(g, 0)
    g.apply(("call_casevac", 2))
    e = last_event(g, "CasevacCalled")
    assert (e["die"], e["roll"], e["needed"], e["success"]) == ("d8", 2, 2, False)
    assert not g.units[2].in_play and g.state_of(CasevacState).casevac["2"]["zone"] == "loiter"


def test_a_successful_call_places_it_beside_the_caller_towards_home():
    g = called()
    v = g.units[2]
    assert v.in_play and v.activated and g.state_of(CasevacState).casevac["2"]["zone"] == "table"
    assert v.x == pytest.approx(24.0) and v.y == pytest.approx(20.75 - 1.5 - 0.5)  # from the figures' middle
    assert last_event(g, "CasevacArrived")["unit"] == 2
    assert ("call_casevac", 2) not in g.decision().options


def test_transfer_wounded_within_2_inches_up_to_half_the_capacity():
    g = called()
    wound(g, 0, [1, 2, 3])
    wound(g, 0, [4, 5], TREATED)
    opts = g.decision().options
    assert ("transfer", 2) in opts
    g.apply(("transfer", 2))
    s, v = g.units[0], g.units[2]
    assert len(s.figures) == 1 and len(v.figures) == 6
    assert sorted(f.status for f in v.figures[1:]) == [WOUNDED] * 3 + [TREATED] * 2
    assert last_event(g, "WoundedTransferred")["wounded"] == 5 and g.state_of(CasevacState).casevac["2"]["aboard"] == 5


def test_no_transfer_out_of_reach_or_when_full():
    g = begin(scn(), [("d8", 8)])
    g.units[0].x = 24.0
    activate(g, 3)  # the far unit calls: the vehicle lands by it, 20" from S
    g.apply(("call_casevac", 2))
    wound(g, 0, [1])
    from dustup_env.rules.armoured_dustup.casevac_vehicle import _options
    st = type("S", (), {"suppressed": False, "in_cover": False, "disorganised": False})()
    assert ("transfer", 2) not in _options(g, g.units[0], st)
    g.state_of(CasevacState).casevac["2"]["aboard"] = 5
    g.units[0].x, g.units[0].y = g.units[2].x + 2.5, g.units[2].y
    assert ("transfer", 2) not in _options(g, g.units[0], st)


def test_departure_raises_confidence_and_the_counter_makes_its_trip():
    g = called()
    wound(g, 0, [1])
    s, f = g.units[0], g.units[1]
    s.confidence, f.confidence = SHAKEN, STEADY
    g.apply(("transfer", 2))
    v = g.units[2]
    v.activated = False
    from dustup_env.rules.armoured_dustup.casevac_vehicle import _depart
    g.dice.results.extend(g.dice.__class__([("d6", 6), ("d6", 5)]).results)  # S (offloaded): 6; F (within 12"): 5
    _depart(g, v, ("depart",))
    assert s.confidence == CONFIDENT and f.confidence == CONFIDENT
    assert not v.in_play and v.evacuated_wounded == 1 and g.state_of(CasevacState).casevac["2"]["zone"] == "track"
    assert [e["levels"] for e in events_of(g, "CasevacBoost")] == [2, 1]
    zones = []
    for _ in range(5):
        from dustup_env.rules.armoured_dustup.casevac_vehicle import _turn_end
        _turn_end(g)
        zones.append(last_event(g, "CasevacCounterMoved")["zone"])
    assert zones == ["2", "3", "2", "1", "loiter"] and g.state_of(CasevacState).casevac["2"]["zone"] == "loiter"


def test_it_may_be_called_again_once_back_in_zone_1():
    from dustup_env.rules.armoured_dustup.casevac_vehicle import _options, _turn_end
    g = called()
    g.state_of(CasevacState).casevac["2"].update(zone="track", trip=0)
    g.units[2].evacuated = True
    st = type("S", (), {"suppressed": False, "in_cover": False, "disorganised": False})()
    seen = []
    for _ in range(5):
        seen.append(("call_casevac", 2) in _options(g, g.units[0], st))
        _turn_end(g)
    assert seen == [False, False, False, False, True] and ("call_casevac", 2) in _options(g, g.units[0], st)


@pytest.mark.parametrize("roll,levels", [(1, 0), (2, 0), (3, 1), (5, 1), (6, 2)])
def test_offloading_units_roll_3_up_one_6_two(roll, levels):
    from dustup_env.rules.armoured_dustup.casevac_vehicle import _depart
    g = called()
    wound(g, 0, [1])
    g.apply(("transfer", 2))
    g.units[0].confidence = SHAKEN
    g.units[1].x = 47.0  # out of 12"
    g.dice.results.extend(g.dice.__class__([("d6", roll)]).results)
    _depart(g, g.units[2], ("depart",))
    assert g.units[0].confidence == SHAKEN - levels and g.dice.remaining == 0


def test_the_casevac_vehicle_departs_as_its_own_action_and_scores_casevac_vp():
    scenario_doc = scn()
    scenario_doc["options"] = {"casevac_vp": 2}
    g = begin(scenario_doc, [("d8", 8)])
    activate(g, 0)
    g.apply(("call_casevac", 2))
    wound(g, 0, [1, 2])
    g.apply(("transfer", 2))
    v = g.units[2]
    vp = [0, 0]
    for h in g.rules.victory_points:
        h(g, vp)
    assert vp[0] == 0
    g.state_of(CasevacState).casevac["2"]["delivered"] = 2  # as if it had carried two off before
    vp = [0, 0]
    for h in g.rules.victory_points:
        h(g, vp)
    assert vp[0] >= 4


def test_the_vehicle_itself_offers_depart():
    from dustup_env.rules.armoured_dustup.casevac_vehicle import _options
    from dustup_env.rules.armoured_dustup.vehicles import _vehicle_filter
    g = called()
    v = g.units[2]
    st = type("S", (), {"suppressed": False, "in_cover": False, "disorganised": False})()
    assert _options(g, v, st) == [("depart",)] and _vehicle_filter(g, v, [("depart",)]) == [("depart",)]
    from dustup_env.rules.armoured_dustup.casevac_vehicle import _filter
    assert _filter(g, g.units[0], [("end",), ("mount", 2), ("approach", 2)]) == [("end",), ("approach", 2)]


def test_bad_casevac_vehicles():
    doc = scn()
    doc["sides"][0]["units"][2]["design"] = "main_battle_tank"
    with pytest.raises(ScenarioError, match="only a transport vehicle"):
        begin(doc)
    doc = scn()
    doc["sides"][0]["units"][2]["inbound"] = 1
    with pytest.raises(ScenarioError, match="loiter zone"):
        begin(doc)


def test_a_vehicle_towing_it_lets_go_when_it_departs():
    from dustup_env.rules.armoured_dustup.casevac_vehicle import _depart
    g = called()
    t = g.units[1]
    v = g.units[2]
    vehicle_state(v).towed_by, vehicle_state(t).towing = 1, 2  # as if unit 1 were its tower (the links only)
    g.dice.results.extend(g.dice.__class__([("d6", 1), ("d6", 1)]).results)  # S and F within 12"
    _depart(g, v, ("depart",))
    assert v.veh.towed_by == -1 and t.veh.towing == -1 and last_event(g, "TowReleased")["reason"] == "departed"
