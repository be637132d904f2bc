"""Drones (seed 000 "Additional Rules › Drones", L2064-2076): forced-dice tests of small portable drones (the
launch action, the operator's restrictions, 24" moves, spotting with the drone's sensor die, airborne line of
sight, crashing) and large drones through the fire-support rules."""
from __future__ import annotations

import math

import pytest

from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, unit
from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.additional_rules import drones
from dustup_env.rules.kernel.data import load_scenario

WOOD = rect("light_woods", 10, 28, 34, 34)
BLOCK = rect("building", 14, 18, 26, 24)


def drone_scn(sensor="average", at=(20, 10), terrain=(WOOD,), options=None):
    """Blue operator D (uid 0) with drones; Red B (uid 1) far off and hidden H (uid 2) in the wood, one dummy."""
    scn = scenario([unit("D", at, drone=sensor)], [unit("B", (44, 46)), unit("H", (20, 30), hidden=True)],
                   terrain=list(terrain), options=options)
    scn["sides"][1]["dummies"] = [[14, 30]]
    return scn


def launched(scn=None, **kw):
    g = begin(scn or drone_scn(**kw))
    activate(g, 0)
    g.apply(("drone_launch",))
    return g


def next_turn_operator(g):
    """End the operator's activation, let Red's two units pass, and activate the operator first next turn."""
    if g.decision().kind == "action":
        g.apply(("end",))
    activate(g, 1)
    g.apply(("end",))
    activate(g, 2)
    add_dice(g, ("d8", 8), ("d8", 1))  # the next turn's initiative
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)


def test_a_unit_carries_drones_rated_by_their_sensors():
    """L2072, L2076: drones "equipped with inferior (D6), average (D8) or superior sensors (D10)"; one drone entity per
    operating unit, known to its owner only (RN-1761); a bad rating is a scenario error."""
    g = Game(drone_scn("superior"), seed=0)
    (e,) = g.entities
    assert (e["kind"], e["owner"], e["known"], e["state"]) == \
        ("drone", 0, "owner", {"operator": 0, "sensor": "d10", "flying": False})
    assert len(g.view(0)["entities"]) == 1 and g.view(1)["entities"] == []
    with pytest.raises(ScenarioError, match="drone: .huge. is not one of"):
        Game(drone_scn("huge"), seed=0)


def test_launching_takes_one_action_at_the_operator():
    """L2074: "It requires one action to prepare and launch a drone"."""
    g = begin(drone_scn())
    activate(g, 0)
    assert ("drone_launch",) in g.legal_options()
    assert not any(o[0] in ("drone_move", "drone_spot") for o in g.legal_options())
    g.apply(("drone_launch",))
    e = g.entities[0]
    assert e["state"]["flying"] and (e["x"], e["y"]) == (20.0, 10.0)
    assert g.stack[-1].actions_left == 1
    assert ("drone_launch",) not in g.legal_options()
    assert last_event(g, "DroneLaunched")["only"] == 0
    assert not any(ev["type"] == "DroneLaunched" for ev in g.event_log(1))  # the enemy reads nothing of it


def test_a_drone_moves_up_to_24_inches_in_any_direction_per_action():
    """L2074: "When activated, a drone may either move or spot. Drones may move up to 24" in any direction per
    action" (to a cell of the point grid)."""
    g = launched()
    moves = [o for o in g.legal_options() if o[0] == "drone_move"]
    assert moves and all(math.hypot(x - 20, y - 10) <= 24 for _, x, y in moves)
    far = max(moves, key=lambda o: math.hypot(o[1] - 20, o[2] - 10))
    assert math.hypot(far[1] - 20, far[2] - 10) > 20  # across walls and woods: it flies
    g.apply(far)
    assert (g.entities[0]["x"], g.entities[0]["y"]) == (far[1], far[2])
    assert g.units[0].x == 20 and g.units[0].y == 10  # the operator stays


def test_the_drone_spots_with_its_sensor_die_from_where_it_flies():
    """L2074-2076 (RN-175): a Detect roll from the drone: the range die by the distance from the drone, the
    operator's quality die and the drone's sensor die; a major success reveals the unit."""
    g = launched()
    g.apply(("drone_move", 22.0, 27.0))  # a cell centre 3" from the hidden unit
    next_turn_operator(g)
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    assert ("drone_spot", h) in g.legal_options()
    add_dice(g, ("d8", 3), ("d8", 6), ("d8", 4))  # range D8 (< 12") 3; quality D8 6, sensor D8 4: major
    g.apply(("drone_spot", h))
    e = last_event(g, "DroneSpotted")
    assert (e["range_die"], e["observer_dice"], e["result"]) == ("d8", ["d8", "d8"], "major")
    assert not g.units[2].hidden and g.dice.remaining == 0
    assert g.entities[0]["state"]["flying"]  # spotting is the drone's action


def test_the_drones_line_of_sight_is_airborne():
    """L2076: "For determining line of sight, the drone is considered airborne": a building between the drone and the
    marker does not block it (the kernel's airborne observer, RN-175)."""
    g = launched(drone_scn(at=(20, 12), terrain=(WOOD, BLOCK)))
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    assert not g.bf.sight(20, 12, 20, 30).visible
    assert ("drone_spot", h) in g.legal_options()  # 18": from the air, over the building
    g.apply(("end",))
    # on the ground the operator could not see it: no Detect option from the unit itself
    assert not g.bf.sight_for(drones.observer(), 20, 12, 20, 30).visible


def test_any_other_action_of_the_operator_crashes_the_drone():
    """L2074: "While operating a drone, the unit may take no other actions. If they do, the drone crashes and is
    lost."  Forgoing the action is no action."""
    g = launched()
    add_dice(g, *[("d6", 3)] * 4)  # the move's die
    g.apply(next(o for o in g.legal_options() if o[0] == "move"))
    assert not g.entities[0]["state"]["flying"]
    assert last_event(g, "DroneCrashed")["reason"] == "action"


def test_forgoing_an_action_keeps_the_drone_and_it_flies_on_next_activation():
    g = launched()
    next_turn_operator(g)
    assert g.entities[0]["state"]["flying"] and any(o[0] == "drone_move" for o in g.legal_options())


def test_night_divides_an_inferior_sensors_range():
    """Night Vision (L1100-1104): a D6 sensor is not augmented vision, its ranges divided by 3; a D8 sees as by day."""
    g = launched(drone_scn(sensor="inferior", at=(20, 10), options={"night": True}))
    assert drones.spot_range(g, g.entities[0]) == 16.0
    assert not any(o[0] == "drone_spot" for o in g.legal_options())  # 20" off
    g2 = launched(drone_scn(sensor="average", at=(20, 10), options={"night": True}))
    assert drones.spot_range(g2, g2.entities[0]) == 48.0
    assert any(o[0] == "drone_spot" for o in g2.legal_options())


def test_an_operator_out_of_play_loses_its_drone():
    g = launched()
    u = g.units[0]
    u.location = "routed_off"
    g.apply(("end",))
    assert not g.entities[0]["state"]["flying"] and last_event(g, "DroneCrashed")["reason"] == "lost"


def test_large_drones_strike_through_the_fire_support_rules():
    """L2068: "Weapon strikes from large drones can be modelled using the fire support rules": night-raid's large drone
    is an air fire-support asset of the raiders (RN-1760)."""
    doc = load_scenario("night-raid")
    (asset,) = doc["sides"][0]["fire_support"]
    assert asset["name"] == "Large drone" and asset["firer"] == "air"
    g = Game("night-raid", seed=0)
    assert "Request Fire Support Action" in [r.name for r in g.rules.rules]


def test_a_lost_drone_is_replaced_by_the_next_launch():
    """L2072: units "carry several (enough for the whole battle) and the drones are expendable": after a crash the
    unit launches another."""
    g = launched()
    add_dice(g, ("d6", 3))  # the move's die
    g.apply(next(o for o in g.legal_options() if o[0] == "move"))
    assert not g.entities[0]["state"]["flying"] and g.dice.remaining == 0
    next_turn_operator(g)
    assert ("drone_launch",) in g.legal_options()
    g.apply(("drone_launch",))
    assert g.entities[0]["state"]["flying"] and len(g.entities) == 1  # the same entity: no table slot used up
