"""Indicating Damaged Vehicles (armoured_dustup/indicating_damaged_vehicles.py): the impact-versus-armour roll by
facing, damage markers, destruction, wrecks as dynamic terrain, passengers' casualty rolls.  Forced dice."""
import pytest
from conftest import activate, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.armoured_dustup.indicating_damaged_vehicles import (immobilise, vehicle_damaged,
                                                                         vehicle_destroyed, vehicle_fire)
from dustup_env.rules.kernel.entities import OK, WOUNDED
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

NORTH = 0


def scn(design="main_battle_tank", passengers=False, **kw):
    blue = [vehicle("V", (24, 20), design, **kw), vehicle("T", (24, 15.5), "light_tank")]
    if passengers:
        blue.append(unit("S", (24, 20), figures=(("rifle", 3),), carried_by="V", armour="partial_light"))
    return scenario(blue, [unit("E", (24, 40), figures=(("rifle", 3),))])


@pytest.mark.parametrize("impact,armour,result", [(5, 3, "damaged"), (3, 3, "none"), (6, 3, "damaged"),
                                                  (7, 3, "destroyed"), (2, 3, "none"), (12, 5, "destroyed")])
def test_impact_against_the_armour_of_the_facing(impact, armour, result):
    # a class-3 front (D12x3) against a shot from the front; the impact die D12x3 as well (faces scripted, x3)
    g = begin(scn(), [("d12x3", impact), ("d12x3", armour), ("d8", 8)])  # (the confidence test if damaged)
    v = g.units[0]
    res = vehicle_fire(g, v, 6, 1, 24, 40)
    assert res == [result]
    e = last_event(g, "VehicleHit")
    assert (e["facing"], e["impact"], e["armour"]) == ("front", 3 * impact, 3 * armour)
    assert v.veh.damage == (1 if result == "damaged" else 0)
    assert v.in_play == (result != "destroyed")


def test_side_and_rear_armour_by_the_line_of_the_shot():
    g = begin(scn(), [("d12x3", 12), ("d12x2", 10), ("d8", 8)])
    vehicle_fire(g, g.units[0], 6, 1, 40, 20)  # from the east: the side (D12x2)
    assert last_event(g, "VehicleHit")["facing"] == "side" and g.units[0].veh.damage == 1
    g = begin(scn(), [("d12x3", 12), ("d12x2", 10), ("d8", 8)])
    vehicle_fire(g, g.units[0], 6, 1, 24, 0)
    assert last_event(g, "VehicleHit")["facing"] == "rear"
    g = begin(scn(), [("d12x3", 12), ("d12x2", 10), ("d8", 8)])
    vehicle_fire(g, g.units[0], 6, 1, 24, 0, facing="belly")
    assert last_event(g, "VehicleHit")["facing"] == "belly"


def test_unarmoured_vehicles_have_d8():
    g = begin(scn("supply_truck"), [("d6", 5), ("d8", 4), ("d8", 8)])
    assert vehicle_fire(g, g.units[0], 1, 1, 24, 40) == ["damaged"]


def test_markers_accumulate_and_a_damaged_tower_lets_go():
    g = begin(scn())
    v, t = g.units[0], g.units[1]
    activate(g, 0)
    g.apply(("tow", 1))
    assert v.veh.towing == 1
    vehicle_damaged(g, v)
    vehicle_damaged(g, v, 2)
    assert v.veh.damage == 3 and v.veh.towing == -1 and t.veh.towed_by == -1
    assert last_event(g, "TowReleased")["reason"] == "damaged"
    immobilise(g, t)
    assert t.veh.immobilised


def test_a_destroyed_vehicle_leaves_a_wreck_that_conceals_gives_cover_and_slows():
    g = begin(scn(), [("d6", 6)])
    v = g.units[0]
    assert not g.bf.in_cover(24, 20)
    vehicle_destroyed(g, v)
    assert not v.in_play and g.terrain and g.terrain[0]["kind"] == "wreck"
    assert g.bf.conceals(24, 20) and g.bf.cover_at(24, 20) == 2
    assert g.bf.move_cost(24, 20, 0) == 2
    soft = begin(scn("supply_truck"))
    vehicle_destroyed(soft, soft.units[0])
    assert soft.terrain[0]["kind"] == "soft_wreck" and soft.bf.cover_at(24, 20) == 1
    # the wreck stays through a save and a snapshot
    from dustup_env.rules import Game
    from dustup_env.rules.kernel import saves
    s = Game(scn(), seed=4)
    vehicle_destroyed(s, s.units[0])
    h = saves.from_snapshot(Game, saves.snapshot(s))
    assert h.terrain == s.terrain and h.bf.cover_at(24, 20) == 2 and not h.units[0].in_play


def test_passengers_roll_their_armour_die_against_the_weapon_class():
    # damaged: each passenger must roll more than the class (2); destroyed: more than double (4)
    g = begin(scn("ifv_tracked", passengers=True), [("d12x3", 5), ("d12x3", 3), ("d6", 3), ("d6", 2), ("d6", 1), ("d8", 8)])
    s = g.units[2]
    vehicle_fire(g, g.units[0], 6, 1, 24, 40, weapon_class=2)
    assert [f.status for f in s.figures] == [OK, WOUNDED, WOUNDED]
    g = begin(scn("ifv_tracked", passengers=True), [("d12x3", 7), ("d12x3", 3), ("d6", 5), ("d6", 4), ("d6", 6)])
    s = g.units[2]
    vehicle_fire(g, g.units[0], 6, 1, 24, 40, weapon_class=2)
    assert [f.status for f in s.figures] == [OK, WOUNDED, OK]
    assert s.veh.carrier == -1 and events_of(g, "Disembarked")[0]["forced"]  # bailed out of the wreck
    assert not g.units[0].in_play


def test_services():
    g = begin(scn())
    for name in ("vehicle_fire", "vehicle_damaged", "vehicle_destroyed", "immobilise", "vehicle_profile", "towed"):
        assert name in g.rules.services


@pytest.mark.parametrize("before,roll,drop", [(0, 5, 0), (0, 4, 1), (2, 7, 0), (2, 6, 1), (2, 2, 2)])
def test_a_damaged_vehicle_tests_confidence_with_its_existing_markers(before, roll, drop):
    # medium commitment, LV 2: needs more than 2 + 2 + 1 per marker it had before the attack
    g = begin(scn(), [("d12x3", 5), ("d12x3", 3), ("d8", roll)])
    v = g.units[0]
    vehicle_state(v).damage = before
    vehicle_fire(g, v, 6, 1, 24, 40)
    e = last_event(g, "ConfidenceTested")
    assert (e["unit"], e["reason"], e["needed"], e["levels_dropped"]) == (0, "vehicle_damage", 4 + before, drop)
    assert v.veh.damage == before + 1
    g2 = begin(scn(), [("d12x3", 5), ("d12x3", 3)])
    vehicle_fire(g2, g2.units[0], 6, 1, 24, 40, test_confidence=False)
    assert not events_of(g2, "ConfidenceTested")


def test_damage_markers_shift_the_range_die_of_what_a_vehicle_spots():
    from dustup_env.rules.kernel.dice import D8, D10, D12
    from dustup_env.rules.unit_actions.detect_action import range_die
    assert range_die(8.0, damage=1) == D10 and range_die(8.0, damage=5) == D12 and range_die(30.0, damage=1) == D12
    wood = {"type": "light_woods", "polygon": [[16, 26], [32, 26], [32, 34], [16, 34]]}
    s = scenario([vehicle("V", (20, 22))], [unit("B", (44, 46)), unit("H", (20, 30), hidden=True)], terrain=[wood])
    g = begin(s)
    vehicle_state(g.units[0]).damage = 1
    activate(g, 0)
    i = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    g.dice.results.extend(g.dice.__class__([("d10", 9), ("d8", 5), ("d4", 4)]).results)
    g.apply(("detect", i))
    assert last_event(g, "DetectionAttempted")["range_die"] == "d10"  # 8": D8, one marker: D10
    assert range_die(8.0) == D8


def test_rockets_fire_at_a_vehicle_of_the_vehicle_rules_through_vehicle_fire():
    # the weapons rules and the vehicle rules together: a bazooka team against a light tank, many seeds
    from dustup_env.rules import Game
    doc = scenario([unit("AT", (24, 10), figures=(("bazooka", 1), ("rifle", 3)))],
                   [vehicle("T", (24, 22), "light_tank", facing=180)])
    hits, damaged = 0, 0
    for seed in range(40):
        g = Game(doc, seed=seed)
        while g.decision().kind != "action" or g.decision().side != 0:
            d = g.decision()
            if d.kind == "initiative":
                g.apply(("first",) if d.side == 0 else ("second",))
            elif d.kind == "activate":
                g.apply(("activate", 0) if d.side == 0 else d.options[-1])
            else:
                g.apply(("end",))
        assert ("fire_iavr", 1) in g.decision().options and any(o[0] == "shoot" and o[1] == 1  # RN-800
                                                                for o in g.decision().options)
        g.apply(("fire_iavr", 1))
        hits += len(events_of(g, "VehicleHit"))
        damaged += g.units[1].veh.damage > 0 or not g.units[1].in_play
        for e in events_of(g, "VehicleHit"):
            assert e["facing"] == "front" and e["unit"] == 1
    assert hits > 0 and damaged > 0
