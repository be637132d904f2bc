"""Independent forced-dice audit of seed 000's Artillery and Air Support and Aerospace Operations chapters.

Each test probes one statement group of the seed text (seed 000, L1569-1858; the line is in the test's name) through
the public API: ``Game`` (built by the conftest and aerospace helpers on scripted dice), ``decision()``, ``apply()``,
``event_log()`` and the fire-support resolution ``impacts.resolve_mission``.  docs/rules-audit.md lists the
statements probed and the findings.
"""
import json
import math

import pytest

from aerospace_helpers import aa_team, air_scenario, aircraft
from conftest import SIDE0_WINS, activate, add_dice, begin, events_of, last_event, rect, scenario, unit, wall
from vehicle_helpers import vehicle
from dustup_env.rules import Game, ScriptedDice
from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.aerospace_operations.flight import may_fly_to
from dustup_env.rules.armoured_dustup.vehicles import armour_die
from dustup_env.rules.artillery_and_air_support import fire_support_request as fsr
from dustup_env.rules.artillery_and_air_support import impacts
from dustup_env.rules.artillery_and_air_support import on_table_artillery as ota
from dustup_env.rules.kernel.dice import die_name
from dustup_env.rules.kernel.table import known_entities
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


# ================================================================================ On-table artillery (L1598-1602)
def test_L1598_L1602_a_light_mortar_is_an_on_table_indirect_piece_with_a_24_inch_minimum():
    g = Game("fire-support", seed=0)
    pieces = {u.uid: ota.indirect_piece(g, u) for u in g.units}
    assert [uid for uid, p in pieces.items() if p] == [4]
    assert pieces[4][2] == "Light mortar"
    assert ota.indirect_minimum(g, g.units[4]) == 24.0


@pytest.mark.parametrize("name, high", [("Heavy mortar", True), ("120mm mortar", True), ("MRL battery", True),
                                        ("Rocket artillery", True), ("Field gun", False)])
def test_L1602_rockets_and_mortars_are_high_angle_systems(name, high):
    assert ota.high_angle(name) is high


# ================================================================================ Requesting Fire Support (L1622-1642)
def fs(assets, observer=None, lv=2, dice=(), options=None):
    kw = {"observer": observer} if observer else {}
    scn = scenario([unit("HQ", (24, 5), leadership=lv, **kw), unit("B2", (10, 5))], [unit("Red", (24, 40))])
    scn["sides"][0]["fire_support"] = list(assets)
    return begin(scn, list(dice), options=options)


def finish_turn(g):
    t = g.turn
    add_dice(g, *SIDE0_WINS)
    while g.turn == t and not g.over:
        d = g.decision()
        if d.kind == "activate":
            g.apply(next(o for o in d.options if o[0] in ("activate", "hold_mission")))
        else:
            g.apply(("end",))
    if not g.over and g.decision().kind == "initiative":
        g.apply(("first",))


def requested(g):
    e = last_event(g, "FireSupportRequested")
    return e["die"], e["roll"], e["needed"], e["success"]


def test_L1624_L1636_L1642_orbital_request_by_LO_from_another_company_with_two_chits():
    # LO orbital +3, LV 2: needs more than 5; another company: D8 down twice; two chits: up twice -> D8.
    g = fs([{"name": "Orb", "firer": "orbital", "from": "other_company"}], observer="lo", dice=[("d8", 6)],
           options={"fire_support_chits": 2})
    activate(g, 0)
    g.apply(("request_fire", 0, 2))
    assert requested(g) == ("d8", 6, 5, True)
    assert fsr.chits_left(g, 0) == 0


def test_L1624_L1636_air_request_by_other_from_another_platoon_needs_more_than_lv_plus_4():
    g = fs([{"name": "Air", "firer": "air", "from": "other_platoon"}], lv=1, dice=[("d6", 6)])
    activate(g, 0)
    g.apply(("request_fire", 0, 0))
    assert requested(g) == ("d6", 6, 5, True)


def test_L1624_L1642_artillery_request_by_other_from_another_company_with_three_chits():
    # other +2, LV 3: needs more than 5; D8 down twice to D4, three chits up to D10.
    g = fs([{"name": "Reg", "firer": "regimental", "from": "other_company"}], lv=3, dice=[("d10", 6)],
           options={"fire_support_chits": 3})
    activate(g, 0)
    g.apply(("request_fire", 0, 3))
    assert requested(g) == ("d10", 6, 5, True)


# ================================================================================ Successful Request, Dummies, Impact (L1646-1660)
def battalion_mission_with_dummies():
    g = fs([{"name": "Bn", "firer": "battalion"}], observer="fo", lv=1, dice=[("d8", 8)],
           options={"fire_support_dummies": True})
    activate(g, 0)
    g.apply(("request_fire", 0, 0))
    pts = sorted([(o[1], o[2]) for o in g.decision().options], key=lambda p: -p[1])
    return g, pts


def test_L1660_three_target_markers_the_enemy_cannot_tell_apart():
    g, pts = battalion_mission_with_dummies()
    assert len(pts) == 96 and pts[:4] == [(2.0, 45.0), (6.0, 45.0), (10.0, 45.0), (14.0, 45.0)]
    g.apply(("fire_target", *pts[0]))
    assert known_entities(g, 1) == []  # the real marker is not shown before the dummies are placed
    g.apply(("fire_dummy", *pts[5]))
    g.apply(("fire_dummy", *pts[9]))
    seen = [(e["x"], e["y"], e.get("state")) for e in known_entities(g, 1)]
    assert seen == [(2.0, 45.0, {"mission": 0}), (22.0, 45.0, {"mission": 0}), (38.0, 45.0, {"mission": 0})]
    assert "real" not in json.dumps(g.view(1))


def test_L1652_L1656_battalion_support_lands_after_two_turns_instead_of_an_activation():
    g, pts = battalion_mission_with_dummies()
    g.apply(("fire_target", *pts[0]))
    g.apply(("fire_dummy", *pts[5]))
    g.apply(("fire_dummy", *pts[9]))
    finish_turn(g)
    assert g.turn == 2 and [o for o in g.decision().options if o[0] == "fire_mission"] == []
    finish_turn(g)
    assert g.turn == 3
    assert [o for o in g.decision().options if o[0] == "fire_mission"] == [("fire_mission", 0)]
    assert {o[0] for o in g.decision().options} == {"activate", "fire_mission", "hold_mission"}
    assert (g.unactivated(0), g.unactivated(1)) == (3, 1)
    before = [e["type"] for e in g.event_log(1) if "Fire" in e["type"] or "Target" in e["type"]]
    assert before == ["FireSupportRequested", "TargetMarkersPlaced", "FireSupportCounterMoved",
                      "FireSupportCounterMoved", "FireSupportCounterMoved"]
    add_dice(g, ("d6", 5))  # FO with basic equipment: D6, 5 > LV 1 on target
    n = len(g.event_log(1))
    g.apply(("fire_mission", 0))
    after = [(e["type"], e.get("x"), e.get("y")) for e in g.event_log(1)[n:]][:4]
    assert after == [("FireMissionArrived", 2.0, 45.0), ("FireMissionImpact", 2.0, 45.0),
                     ("RoundLanded", None, None), ("BlastStruck", None, None)]
    assert known_entities(g, 1) == [] and g.dice.remaining == 0
    assert g.decision().side == 1 and (g.unactivated(0), g.unactivated(1)) == (2, 1)


def test_L1654_L1666_air_support_called_by_an_LO_lands_after_three_turns_on_a_D4():
    g = fs([{"name": "Air", "firer": "air"}], observer="lo", lv=1, dice=[("d8", 8)])
    activate(g, 0)
    g.apply(("request_fire", 0, 0))
    g.apply(max(g.decision().options, key=lambda o: o[2]))
    for _ in range(3):
        finish_turn(g)
    assert g.turn == 4 and [o for o in g.decision().options if o[0] == "fire_mission"] == [("fire_mission", 0)]
    add_dice(g, ("d4", 4))
    g.apply(("fire_mission", 0))
    assert last_event(g, "RoundLanded")["die"] == "d4"


# ================================================================================ Fire Support Accuracy (L1666-1679)
AIM = (24.0, 30.0)
FAR = [unit("R", (4, 46), figures=(("rifle", 1),))]


def mission(**kw):
    m = {"side": 0, "x": AIM[0], "y": AIM[1], "ammo": "general", "size": "medium", "rounds": 1, "observer": 0,
         "guidance": "none", "asset": "company", "firer": None, "requestor": 0, "observer_role": "fo",
         "equipment": "basic"}
    m.update(kw)
    return m


def fire_game(red, dice, lv=3, obstacles=()):
    blue = [unit("O", (24, 2), figures=(("rifle", 2),), leadership=lv)]
    g = Game(scenario(blue, red, obstacles=obstacles), dice=ScriptedDice(SIDE0_WINS + list(dice)))
    g.apply(("first",))
    return g


def fire(dice, red=FAR, lv=3, **kw):
    g = fire_game(red, dice, lv=lv, obstacles=kw.pop("obstacles", ()))
    pts = impacts.resolve_mission(g, mission(**kw))
    rounds = [(r["die"], r["roll"], r["on_target"], r.get("multiplier"), r.get("distance"), r.get("hour"),
               tuple(r.get("origin")), tuple(r["at"])) for r in events_of(g, "RoundLanded")]
    assert g.dice.remaining == 0
    return g, [(round(x, 2), round(y, 2)) for x, y in pts], rounds


def test_L1666_L1672_advanced_equipment_rolls_a_D8_higher_than_the_observers_leadership():
    _, pts, rounds = fire([("d8", 4)], equipment="advanced")
    assert pts == [AIM] and rounds == [("d8", 4, True, 0, 0.0, 0, AIM, AIM)]


def test_L1673_L1677_superior_equipment_a_tie_scatters_roll_times_D8_by_the_clockface():
    _, pts, rounds = fire([("d10", 3), ("d8", 7), ("d12", 2)], equipment="superior")
    x, y = 24 + 21 * math.sin(math.radians(60)), 30 + 21 * math.cos(math.radians(60))
    assert rounds[0][:6] == ("d10", 3, False, 7, 21.0, 2)
    assert rounds[0][7] == pytest.approx((x, y)) and pts == [(42.19, 40.5)]


def test_L1675_L1677_a_self_guided_round_shifts_up_twice_and_its_scatter_is_not_multiplied():
    _, pts, rounds = fire([("d10", 2), ("d12", 7)], guidance="self")
    assert rounds[0][:6] == ("d10", 2, False, 1, 2.0, 7) and pts == [(23.0, 28.27)]


def test_L1675_L1677_a_laser_guided_round_shifts_up_once_and_its_scatter_is_not_multiplied():
    _, pts, rounds = fire([("d10", 1), ("d12", 9)], equipment="advanced", guidance="laser")
    assert rounds[0][:6] == ("d10", 1, False, 1, 1.0, 9) and pts == [(23.0, 30.0)]


def test_L1666_L1675_an_observer_who_is_not_an_FO_rolls_a_D4_shifted_up_for_a_laser_round():
    _, pts, rounds = fire([("d6", 5)], observer_role="other", guidance="laser")
    assert rounds == [("d6", 5, True, 0, 0.0, 0, AIM, AIM)] and pts == [AIM]


def test_L1679_each_further_round_scatters_from_where_the_last_one_landed():
    _, pts, rounds = fire([("d6", 2), ("d8", 3), ("d12", 3), ("d6", 6), ("d6", 1), ("d8", 2), ("d12", 12)],
                          lv=2, rounds=3)
    assert pts == [(30.0, 30.0), (30.0, 30.0), (30.0, 32.0)]
    assert rounds == [("d6", 2, False, 3, 6.0, 3, AIM, (30.0, 30.0)),
                      ("d6", 6, True, 0, 0.0, 0, (30.0, 30.0), (30.0, 30.0)),
                      ("d6", 1, False, 2, 2.0, 12, (30.0, 30.0), (30.0, 32.0))]


# ================================================================================ Resolving Impacts (L1683-1687)
def impact_events(g, since):
    return [e for e in g.event_log()[since:] if e["type"] != "RoundLanded"]


def test_L1683_every_figure_in_the_blast_rolls_impact_against_armour_wound_and_kill():
    red = [unit("R", AIM, figures=(("rifle", 4),))]
    assert fire_game(red, []).units[1].figure_positions() == [(24.0, 30.0), (25.5, 30.0), (24.0, 31.5), (25.5, 31.5)]
    g = fire_game(red, [("d6", 4), ("d8", 3), ("d4", 2), ("d8", 5), ("d4", 1), ("d8", 8)])
    n = len(g.event_log())
    impacts.resolve_mission(g, mission(x=22.0, size="small"))  # 3" blast: figures 0 and 2 inside, 1 and 3 not
    hits = [(e["figure"], e["impact_die"], e["impact"], e["armour_die"], e["armour"], e["effect"])
            for e in events_of(g, "HitResolved", n)]
    assert hits == [(0, "d8", 3, "d4", 2, "wound"), (2, "d8", 5, "d4", 1, "kill")]
    assert last_event(g, "Suppressed")["markers"] == 1 and g.dice.remaining == 0


def test_L1685_a_vehicle_only_within_the_blast_uses_its_side_facing_armour():
    g = fire_game([vehicle("T", AIM, "light_tank", facing=0)], [("d6", 4), ("d8", 3), ("d12", 2), ("d8", 8)])
    n = len(g.event_log())
    impacts.resolve_mission(g, mission(y=26.5, size="medium"))  # 3.5" behind the tank
    hit = last_event(g, "VehicleHit")
    assert (hit["facing"], hit["impact"], hit["armour"], hit["result"]) == ("rear", 3, 2, "damaged")
    assert last_event(g, "VehicleDamaged")["damage"] == 1 and g.dice.remaining == 0
    assert [e["type"] for e in impact_events(g, n)][:3] == ["FireMissionImpact", "VehicleHit", "VehicleDamaged"]


def test_L1685_a_vehicle_under_the_impact_point_uses_its_top_armour():
    red = [vehicle("T", AIM, "main_battle_tank", facing=0)]
    assert die_name(armour_die(fire_game(red, []).units[1], "top")) == "d12x2"
    g = fire_game(red, [("d6", 4), ("d8", 3), ("d12x2", 2), ("d8", 8)])
    impacts.resolve_mission(g, mission(x=25.0, y=30.0))
    hit = last_event(g, "VehicleHit")
    assert (hit["facing"], hit["impact"], hit["armour"], hit["result"]) == ("top", 3, 4, "none")
    assert g.dice.remaining == 0


def test_L1687_a_figure_behind_cover_from_the_impact_point_shifts_its_armour_die():
    red = [unit("R", (27, 30), figures=(("rifle", 1),), commitment="high")]
    g = fire_game(red, [("d6", 4), ("d8", 7), ("d4", 3), ("d8", 8)])  # in the open: no armour, a D4
    impacts.resolve_mission(g, mission(size="small"))
    assert last_event(g, "HitResolved")["armour_die"] == "d4"
    # behind a stone wall: hard cover, two shifts (RN-153), D4 -> D8
    g = fire_game(red, [("d6", 4), ("d8", 7), ("d8", 3), ("d8", 8)], obstacles=[wall("wall", 25.5, 27, 25.5, 33)])
    impacts.resolve_mission(g, mission(size="small"))
    hit = last_event(g, "HitResolved")
    assert (hit["impact_die"], hit["impact"], hit["armour_die"], hit["armour"], hit["effect"]) == \
        ("d8", 7, "d8", 3, "kill")
    assert g.dice.remaining == 1


# ================================================================================ Air Defence Environment (L1724-1730)
D = 1


def arrive(dice, where="table", passengers=True):
    g = begin(air_scenario([aircraft("Dropship", (30, 2), air="inbound", facing=0)], passengers=passengers,
                           ade=("d6", "d10")), dice)
    g.apply(("air_arrive", D, where))
    return g


def ade(g):
    e = last_event(g, "AdeEngagement")
    return {k: e[k] for k in ("ade", "doubled", "armour", "shot_down")}


def test_L1728_an_ADE_roll_more_than_double_the_ECM_is_doubled():
    g = arrive([("d10", 7), ("d8", 3), ("d10", 5), ("d12", 10)])  # 7 > 2 x 3: 5 doubled to 10 against 10
    g.apply(("air_pilot", "continue"))
    assert ade(g) == {"ade": 10, "doubled": True, "armour": 10, "shot_down": False}
    assert g.units[D].in_play and g.dice.remaining == 0


def test_L1728_an_ADE_roll_exactly_double_the_ECM_is_not_doubled():
    g = arrive([("d10", 6), ("d8", 3), ("d10", 9), ("d12", 8)])
    g.apply(("air_pilot", "continue"))
    assert ade(g) == {"ade": 9, "doubled": False, "armour": 8, "shot_down": True}
    assert g.units[D].destroyed and g.dice.remaining == 0


def test_L1730_an_aircraft_that_beats_the_ADE_arrives_in_the_loiter_zone_if_desired():
    g = arrive([("d10", 2), ("d8", 7)], where="loiter", passengers=False)
    assert g.units[D].location == "loiter" and g.dice.remaining == 0


# ================================================================================ Aircraft on the Table (L1736-1758)
def test_L1738_L1744_L1746_a_fighter_turns_at_most_90_degrees_moves_at_least_24_and_faces_its_move():
    g = begin(air_scenario([aircraft("Fighter", (10, 24), design="aerospace_fighter", facing=90)]))
    activate(g, 1)
    u = g.units[1]
    assert may_fly_to(g, u, 10, 48)        # 24" north: a 90 degree turn
    assert not may_fly_to(g, u, 2, 40)     # behind the left wing: more than 90 degrees
    assert not may_fly_to(g, u, 30, 24)    # 20" ahead: too short
    assert may_fly_to(g, u, 34, 24)        # 24" ahead
    assert may_fly_to(g, u, 40, 48)        # anywhere on the table
    o = max((o for o in g.decision().options if o[0] == "air_fly"), key=lambda o: o[1] + o[2])
    assert o == ("air_fly", 46.0, 45.0)
    g.apply(o)
    assert round(u.veh.facing, 2) == round(math.degrees(math.atan2(46.0 - 10, 45.0 - 24)), 2) == 59.74
    assert {o[0] for o in g.decision().options} == {"air_bomb", "air_leave", "end", "fire_vehicle"}


def test_L1744_every_move_of_a_non_VTOL_aircraft_is_at_least_24_inches():
    g = begin(air_scenario([aircraft("Fighter", (4, 4), design="aerospace_fighter", facing=45)], width=72, height=72))
    activate(g, 1)
    u = g.units[1]
    o = min((o for o in g.decision().options if o[0] == "air_fly"), key=lambda o: math.hypot(o[1] - 4, o[2] - 4))
    assert o == ("air_fly", 27.0, 13.5)
    g.apply(o)
    d = [math.hypot(p[1] - u.x, p[2] - u.y) for p in g.decision().options if p[0] == "air_fly"]
    assert round(min(d), 2) == 24.0
    assert not may_fly_to(g, u, u.x + 8.5, u.y + 8.5)  # 12" straight ahead on the second move


def test_L1750_L1754_a_VTOL_moving_12_inches_may_go_any_direction_and_lands_in_one_action():
    g = begin(air_scenario([aircraft("Dropship", (22, 20), facing=0)]))
    activate(g, 1)
    u = g.units[1]
    assert may_fly_to(g, u, 30.4, 11.6)      # 12" behind to the right
    assert not may_fly_to(g, u, 22, 7)       # 13" behind
    g.apply(("air_land",))
    assert air.air_state(g, u)["mode"] == "grounded"
    assert {o[0] for o in g.decision().options} == {"air_take_off", "end", "fire_vehicle"}


# ================================================================================ Anti-aircraft fire (L1794-1808)
A = 1


def flying(dice=()):
    ac = aircraft("Dropship", (22, 3), air="airborne", facing=0)
    g = begin(air_scenario([ac], red=[aa_team("AA", (22, 45))], passengers=True), dice)
    activate(g, A)
    return g


def engage(g, to=(22.0, 39.0), pilot="continue"):
    g.apply(("air_fly", *to))
    g.apply(("aa_fire",))
    g.apply(("air_pilot", pilot))


def test_L1798_guidance_and_firepower_tying_the_ECM_score_no_success():
    g = flying([("d8", 6), ("d8", 5), ("d8", 7), ("d8", 7), ("d8", 7)])
    engage(g)
    e = last_event(g, "AntiAircraftFire")
    assert (e["stage"], e["result"]) == ("engage", "none") and g.dice.remaining == 0


def test_L1800_a_minor_success_makes_the_pilot_test_confidence_at_plus_2():
    g = flying([("d8", 6), ("d8", 2), ("d8", 8), ("d8", 1), ("d8", 5), ("d8", 5)])
    engage(g)
    t = last_event(g, "ConfidenceTested")
    assert {k: t[k] for k in ("unit", "reason", "roll", "needed")} == \
        {"unit": 1, "reason": "anti_aircraft_fire", "roll": 5, "needed": 4}
    assert g.units[A].in_play and g.units[A].location == "table"


def test_L1806_L1808_a_damaged_aircraft_lands_its_crash_die_shifted_for_each_damage_above_one():
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 7), ("d12", 9), ("d12", 5),
                ("d4", 4)])
    vehicle_state(g.units[A]).damage = 2
    engage(g)
    c = last_event(g, "AircraftCrashed")
    assert {k: c.get(k) for k in ("x", "y", "roll", "result", "die")} == \
        {"x": 22.0, "y": 14.0, "roll": 4, "result": "controlled", "die": None}
    assert g.dice.remaining == 0


def test_L1796_an_evading_aircraft_moves_24_inches_and_the_firer_must_reacquire():
    g = flying([("d8", 5), ("d8", 4), ("d8", 3), ("d8", 7)])
    g.apply(("air_fly", 30.0, 39.0))
    assert g.decision().kind == "anti_aircraft"
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "evade"))
    assert (round(g.units[A].x, 2), round(g.units[A].y, 2)) == (27.42, 27.4)
    assert [(e["stage"], e["result"]) for e in events_of(g, "AntiAircraftFire")] == \
        [("acquire", "acquired"), ("reacquire", "lost")]
    assert g.dice.remaining == 0


# ================================================================================ Troop insertion (L1834-1858)
U = 1


def drop_game(how="parachute", quality="d10", terrain=(), dice=(), **kw):
    blue = [unit("HQ", (2, 2), figures=(("rifle", 3),)),
            unit("Drop", (24, 24), figures=(("rifle", 2),), quality=quality, insertion=how, **kw)]
    return begin(scenario(blue, [unit("Red", (46, 46), figures=(("rifle", 3),))], terrain=terrain), dice)


def test_L1834_fast_roping_from_a_hovering_VTOL():
    g = begin(air_scenario([aircraft("Craft", (22, 20), air="hovering")], passengers=True,
                           terrain=[rect("hill", 14, 12, 30, 28)]),
              [("d6", 1), ("d6", 2), ("d6", 3), ("d6", 1), ("d6", 6)])
    activate(g, 2)
    assert sorted({o[:2] for o in g.decision().options if o[0] == "air_drop"}) == [("air_drop", "rope")]
    g.apply(next(o for o in g.decision().options if o[0] == "air_drop"))
    e = last_event(g, "TroopsDropped")
    assert (e["method"], e["rolls"], e["wounded"]) == ("rope", [1, 2, 3, 1, 6], 2) and g.dice.remaining == 0


def test_L1852_a_parachute_drop_shifts_the_quality_die_down_and_lands_D6_from_the_zone():
    g = drop_game("parachute", quality="d10",
                  dice=[("d8", 5), ("d6", 6), ("d12", 12)] + [("d10", 1), ("d12", 3), ("d10", 5)] * 2)
    g.apply(("insert", U, "drop"))
    e = last_event(g, "InsertionLanded")
    assert (e["roll"], e["success"], e["x"], e["y"]) == (5, True, 24.0, 30.0)


def test_L1852_L1856_L1858_an_orbital_drop_failing_its_roll_doubles_each_models_D10():
    g = drop_game("orbital", quality="d12", terrain=[rect("rough", 16, 28, 24, 32)],
                  dice=[("d12", 4), ("d6", 2), ("d12", 9), ("d10", 3), ("d12", 12), ("d10", 1), ("d10", 2),
                        ("d12", 6), ("d12", 2)])
    g.apply(("insert", U, "drop"))
    e = last_event(g, "InsertionLanded")
    assert {k: e[k] for k in ("roll", "success", "x", "y", "lost")} == \
        {"roll": 4, "success": False, "x": 20.0, "y": 24.0, "lost": False}
    assert g.units[U].figure_positions() == [(20.0, 30.0), (20.0, 20.0)]
    assert [m["result"] for m in events_of(g, "ModelLanded")] == ["wounded", "unharmed"]
    assert g.dice.remaining == 0


def test_L1858_power_armour_landing_in_open_water_is_not_destroyed():
    g = drop_game("high_altitude", quality="d10", armour="light_power", terrain=[rect("open_water", 20, 18, 30, 30)],
                  dice=[("d10", 6), ("d6", 1), ("d12", 12), ("d10", 1), ("d12", 12), ("d10", 5), ("d10", 1),
                        ("d12", 6), ("d10", 5)])
    g.apply(("insert", U, "drop"))
    assert [m["result"] for m in events_of(g, "ModelLanded")] == ["unharmed", "unharmed"]
    assert g.dice.remaining == 0
