"""Aerospace Operations: aircraft on the table (seed 000 L1732-1768; aerospace_operations/flight.py): flying with at
most a 90 degree turn, non-VTOL at least 24" and at least one move, VTOL free slow movement, hovering, landing
zones, taking off, leaving the table, and what other units may do to an aircraft in the air.  Forced dice."""
import math

from aerospace_helpers import air_scenario, aircraft
from conftest import activate, begin, last_event, rect, unit

from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.aerospace_operations.flight import landing_zone, may_fly_to

A = 1  # the aircraft (uid 1); Red's first unit follows it


def _fly_opts(g):
    return [o for o in g.decision().options if o[0] == "air_fly"]


def test_a_fighter_flies_at_least_24_inches_turning_at_most_90_degrees():
    g = begin(air_scenario([aircraft("Fighter", (24, 10), design="aerospace_fighter", facing=0)]))
    activate(g, A)
    u = g.units[A]
    opts = _fly_opts(g)
    assert opts
    for _, x, y in opts:
        assert math.hypot(x - 24, y - 10) >= 24.0
        assert y >= 10 - 1e-9 or abs(x - 24) > 0  # nothing behind it: at most 90 degrees off its facing (north)
    assert not may_fly_to(g, u, 24, 3)  # straight behind
    assert not may_fly_to(g, u, 24, 30)  # ahead but only 20"
    assert may_fly_to(g, u, 24, 34) and may_fly_to(g, u, 48, 10)  # 24" ahead; 24" at exactly 90 degrees


def test_a_fighter_must_move_in_one_action_of_its_activation():
    g = begin(air_scenario([aircraft("Fighter", (24, 10), design="aerospace_fighter", facing=0)]))
    activate(g, A)
    opts = g.decision().options
    assert ("end",) not in opts and ("air_hover", 0) not in opts and ("air_land",) not in opts
    # on its first action it may do something else (a move must follow): fire, spot, communicate...
    first = [o for o in opts if o[0] not in ("air_fly", "air_leave")]
    assert all(o[0] in ("fire_vehicle", "fire_slaved", "detect", "communicate", "recover", "rally", "order", "air_bomb")
               for o in first)


def test_the_last_action_of_a_fighter_that_has_not_flown_is_a_move():
    g = begin(air_scenario([aircraft("Fighter", (24, 10), design="aerospace_fighter", facing=0)]))
    activate(g, A)
    g.stack[-1].actions_left = 1
    g.pending_decision = None
    assert {o[0] for o in g.decision().options} == {"air_fly", "air_leave"}


def test_a_flight_goes_straight_to_the_point_and_faces_its_movement():
    g = begin(air_scenario([aircraft("Fighter", (24, 10), design="aerospace_fighter", facing=0)]))
    activate(g, A)
    g.apply(("air_fly", 46.0, 39.0))
    u = g.units[A]
    assert (u.x, u.y) == (46.0, 39.0)
    e = last_event(g, "AircraftFlew")
    assert e["start"] == [24.0, 10.0] or tuple(e["start"]) == (24.0, 10.0)
    assert abs(u.veh.facing - math.degrees(math.atan2(22, 29))) < 1e-6
    assert ("end",) in g.decision().options  # it has flown: it may end now


def test_a_vtol_moving_12_inches_or_less_may_go_any_way_and_faces_its_movement():
    g = begin(air_scenario([aircraft("Dropship", (22, 10), facing=0)]))
    activate(g, A)
    u = g.units[A]
    assert may_fly_to(g, u, 22, 3)  # 7" straight behind
    assert not may_fly_to(g, u, 10, 3)  # 13.9" behind-left: over 12", so at most 90 degrees off its facing
    g.apply(("air_fly", 22.0, 3.0))
    assert (u.x, u.y) == (22.0, 3.0) and abs(u.veh.facing - 180.0) < 1e-6


def test_a_vtol_that_does_not_move_during_its_activation_is_hovering():
    g = begin(air_scenario([aircraft("Dropship", (22, 10), facing=0)]))
    activate(g, A)
    g.apply(("end",))
    assert air.air_state(g, g.units[A])["mode"] == "hovering"
    assert last_event(g, "AircraftHovering")["unit"] == A


def test_hovering_rotates_to_face_any_direction():
    g = begin(air_scenario([aircraft("Dropship", (22, 10), facing=0)]))
    activate(g, A)
    g.apply(("air_hover", 4))
    assert air.air_state(g, g.units[A])["mode"] == "hovering" and g.units[A].veh.facing == 90.0


def test_landing_on_a_clear_zone_then_unloading_and_taking_off():
    g = begin(air_scenario([aircraft("Dropship", (22, 10), air="hovering")], passengers=True))
    activate(g, A)
    assert landing_zone(g, g.units[A]) == "clear"
    g.apply(("air_land",))
    assert air.air_state(g, g.units[A])["mode"] == "grounded"
    assert last_event(g, "AircraftLanded")["zone"] == "clear"
    assert set(g.decision().options) >= {("air_take_off",)}
    assert not any(o[0] in ("move", "turn", "air_fly") for o in g.decision().options)  # L1756
    g.apply(("air_take_off",))
    assert air.air_state(g, g.units[A])["mode"] == "hovering"


def test_passengers_dismount_only_from_a_grounded_aircraft():
    g = begin(air_scenario([aircraft("Dropship", (22, 10), air="hovering")], passengers=True))
    activate(g, 2)
    assert not any(o[0] == "dismount" for o in g.decision().options)
    g = begin(air_scenario([aircraft("Dropship", (22, 10), air="grounded")], passengers=True))
    activate(g, 2)
    assert any(o[0] == "dismount" for o in g.decision().options)


def test_a_lightly_obstructed_zone_needs_the_quality_die_to_score_3():
    scn = air_scenario([aircraft("Dropship", (22, 10), air="hovering")], terrain=[rect("rough", 26, 8, 30, 12)])
    g = begin(scn, [("d8", 2)])
    activate(g, A)
    assert landing_zone(g, g.units[A]) == "light"
    g.apply(("air_land",))
    e = last_event(g, "AircraftLanded")
    assert (e["zone"], e["roll"], e["heavy"]) == ("light", 2, True)
    assert air.air_state(g, g.units[A])["heavy"] and ("air_take_off",) not in g.decision().options  # never again
    g2 = begin(scn, [("d8", 3)])
    activate(g2, A)
    g2.apply(("air_land",))
    assert last_event(g2, "AircraftLanded")["heavy"] is False
    assert ("air_take_off",) in g2.decision().options


def test_a_heavily_obstructed_zone_is_not_offered():
    scn = air_scenario([aircraft("Dropship", (22, 10), air="hovering")], blue=[unit("Team", (26, 10), figures=(("rifle", 2),))])
    g = begin(scn)
    activate(g, A)
    assert landing_zone(g, g.units[A]) == "heavy"  # troops inside the 12" LZ (L1826)
    assert ("air_land",) not in g.decision().options
    scn = air_scenario([aircraft("Dropship", (22, 10), air="hovering")], terrain=[rect("building", 24, 8, 28, 12)])
    g = begin(scn)
    activate(g, A)
    assert ("air_land",) not in g.decision().options


def test_leaving_the_table_to_the_loiter_box_and_back():
    g = begin(air_scenario([aircraft("Dropship", (22, 10))], passengers=True))
    activate(g, A)
    g.apply(("air_leave", "loiter"))
    u = g.units[A]
    assert u.location == "loiter" and g.units[2].location == "loiter" and not u.in_play
    e = last_event(g, "AircraftLeft")
    assert (e["where"], e["reason"]) == ("loiter", "left")


def test_no_fire_or_assault_names_an_aircraft_in_the_air_but_a_grounded_one_is_a_target():
    red = [unit("Squad", (22, 20), figures=(("rifle", 5),))]
    g = begin(air_scenario([aircraft("Dropship", (22, 14))], red=red), first=1)
    activate(g, 2)
    assert not any(A in o[1:] for o in g.decision().options if o[0] not in ("move", "dismount", "turn"))
    g = begin(air_scenario([aircraft("Dropship", (22, 14), air="grounded")], red=red), first=1)
    activate(g, 2)
    assert any(o[0] == "shoot" and o[1] == A for o in g.decision().options)


def test_fixed_weapons_fire_only_in_the_6_inch_corridor_ahead_and_beyond_24_inches():
    # the fighter's RFAC-2 is fixed forward (k = 0); its APSW (k = 1) is a remote mount
    red = [unit("Ahead", (24, 40), figures=(("rifle", 5),)), unit("Close", (24, 26), figures=(("rifle", 5),)),
           unit("Wide", (30, 40), figures=(("rifle", 5),))]
    g = begin(air_scenario([aircraft("Fighter", (24, 10), design="aerospace_fighter", facing=0)], red=red))
    activate(g, A)
    from dustup_env.rules.aerospace_operations.flight import weapon_may_fire
    u, w = g.units[A], g.units[A].profile.vehicle.weapons[0]
    assert w.mount == "fixed"
    assert weapon_may_fire(g, u, w, g.units[2])  # 30" straight ahead
    assert not weapon_may_fire(g, u, w, g.units[3])  # 16" ahead: under 24" for a non-VTOL aircraft
    assert not weapon_may_fire(g, u, w, g.units[4])  # 6" to the side: outside the 6" corridor
    assert all(o[1] == 2 for o in g.decision().options if o[0] == "fire_vehicle" and o[2] == 0)
    air.air_state(g, g.units[A])["mode"] = "grounded"
    assert not weapon_may_fire(g, u, w, g.units[2])  # fixed weapons may not fire while grounded (L1774)


def test_a_turret_weapon_does_not_fire_within_6_inches_of_under_an_aircraft_in_the_air():
    red = [unit("Near", (24, 14), figures=(("rifle", 5),)), unit("Mid", (24, 24), figures=(("rifle", 5),))]
    g = begin(air_scenario([aircraft("Gunship", (24, 10), design="vtol_gunship", facing=0)], red=red))
    from dustup_env.rules.aerospace_operations.flight import weapon_may_fire
    u = g.units[A]
    chin = u.profile.vehicle.weapons[0]
    assert chin.mount == "turret"
    assert not weapon_may_fire(g, u, chin, g.units[2])  # 4" from under it (L1770)
    assert weapon_may_fire(g, u, chin, g.units[3])
    air.air_state(g, g.units[A])["mode"] = "grounded"
    assert weapon_may_fire(g, u, chin, g.units[2])  # on the ground it may (no mount is under-slung, RN-1511)


def test_a_grav_vehicle_flies_like_a_vtol_aircraft_and_moves_as_a_ground_vehicle_when_grounded():
    g = begin(air_scenario([aircraft("Grav", (22, 10), design="grav_apc", facing=0)]))
    activate(g, A)
    u = g.units[A]
    assert may_fly_to(g, u, 22, 3)  # 7" behind: slow free movement (L1758, RN-158)
    assert ("air_hover", 0) in g.decision().options and not any(o[0] == "move" for o in g.decision().options)
    g = begin(air_scenario([aircraft("Grav", (22, 10), design="grav_apc", air="grounded")]))
    activate(g, A)
    opts = g.decision().options
    assert any(o[0] == "move" for o in opts) and ("air_take_off",) in opts


def test_spotting_from_an_aircraft_sees_over_the_terrain():
    # a hidden Red unit in a copse behind a dense wood: a team on the ground beside the aircraft cannot see its
    # marker, the aircraft can (L1762)
    from dustup_env.rules.kernel.actions import status
    from dustup_env.rules.unit_actions.detect_action import detect_options
    scn = air_scenario([aircraft("Dropship", (20, 20), air="hovering")], blue=[unit("Team", (22, 20), figures=(("rifle", 2),))],
                       red=[unit("Far", (44, 46), figures=(("rifle", 3),)), unit("Hidden", (20, 38), hidden=True)],
                       terrain=[rect("dense_woods", 10, 26, 34, 32), rect("light_woods", 16, 36, 24, 40)])
    g = begin(scn, [1, 8, 4])  # the range die, the crew's quality D8 and its sensor D4
    m = next(i for i, mk in enumerate(g.markers) if mk["unit"] == 4)
    team = g.units[2]
    assert ("detect", m) not in detect_options(g, team, status(g, team))  # the ground line is blocked
    activate(g, A)
    assert g.decision().options.count(("detect", m)) == 1  # offered once, by the airborne line
    g.apply(("detect", m))
    e = last_event(g, "DetectionAttempted")
    assert e["observer"] == A and e["result"] == "major" and not g.units[4].hidden


def test_a_guided_weapon_outside_the_central_90_degrees_shifts_its_guidance_down():
    # the gunship's heavy missiles (guidance D8) fire in the forward 180 degrees (L1786-1788)
    from dustup_env.rules.armoured_dustup.fire_by_vehicles import weapon_plan
    from dustup_env.rules.kernel.dice import D6, D8
    red = [unit("Ahead", (30, 40), figures=(("rifle", 5),)), unit("Wide", (44, 14), figures=(("rifle", 5),)),
           unit("Behind", (24, 2), figures=(("rifle", 5),))]
    g = begin(air_scenario([aircraft("Gunship", (24, 10), design="vtol_gunship", facing=0)], red=red))
    u = g.units[A]
    k = next(i for i, w in enumerate(u.profile.vehicle.weapons) if w.category == "guided")
    assert weapon_plan(g, u, g.units[2], k)["guidance"] == D8  # 11 degrees off: in the central 90
    assert weapon_plan(g, u, g.units[3], k)["guidance"] == D6  # 79 degrees off: outside it, one lower
    assert weapon_plan(g, u, g.units[4], k) is None  # behind: outside the forward 180
    air.air_state(g, g.units[A])["mode"] = "grounded"
    assert weapon_plan(g, u, g.units[3], k)["guidance"] == D8  # (the rule is the aircraft's in the air)


def test_an_aircraft_in_the_air_fires_over_the_terrain():
    # a Red squad behind a dense wood: the gunship's chin turret reaches it from the air, not from the ground
    from dustup_env.rules.armoured_dustup.fire_by_vehicles import weapon_plan
    red = [unit("Behind wood", (24, 30), figures=(("rifle", 5),))]
    scn = air_scenario([aircraft("Gunship", (24, 10), design="vtol_gunship", facing=0)], red=red,
                       terrain=[rect("dense_woods", 14, 16, 34, 22)])
    g = begin(scn)
    u = g.units[A]
    assert weapon_plan(g, u, g.units[2], 0) is not None  # the RFAC-1 chin turret, in the air
    air.air_state(g, g.units[A])["mode"] = "grounded"
    assert weapon_plan(g, u, g.units[2], 0) is None  # on the ground the wood blocks the line


def test_only_unit_arguments_are_read_as_targets():
    # a weapon slot equal to the aircraft's uid (1) is not a target: only the families' unit arguments are
    from dustup_env.rules.aerospace_operations.flight import names_flying
    red = [{"name": "Tank", "position": [24.0, 40.0], "design": "main_battle_tank", "facing": 180}]
    g = begin(air_scenario([aircraft("Dropship", (22, 14))], red=red, blue=[unit("Team", (30, 10))]))
    tank = g.units[3]
    assert names_flying(g, tank, ("fire_vehicle", A, 0))
    assert not names_flying(g, tank, ("fire_vehicle", 2, 1))  # at the team with weapon 1
    assert not names_flying(g, tank, ("detect", A))  # a marker index


def test_a_guided_missile_from_an_aircraft_in_the_air_flies_over_the_terrain_but_not_through_smoke():
    # L1788: a guided weapon fired from an aircraft uses the ground guided weapons' procedure, from the aircraft: its
    # line of sight is the aircraft's (the terrain ignored, smoke not: L1762, RN-159, RN-1910).  A Red squad behind a
    # dense wood: the gunship's missiles are offered and fired from the air, not from the ground
    from conftest import add_dice
    from dustup_env.rules.additional_rules import smoke
    from dustup_env.rules.armoured_dustup.fire_by_vehicles import weapon_plan
    red = [unit("Behind wood", (24, 30), figures=(("rifle", 5),))]
    scn = air_scenario([aircraft("Gunship", (24, 10), design="vtol_gunship", facing=0)], red=red,
                       terrain=[rect("dense_woods", 14, 16, 34, 22)])
    scn["wind"] = 3  # (the Smoke rule in the game)
    g = begin(scn)
    u, t = g.units[A], g.units[2]
    k = next(i for i, w in enumerate(u.profile.vehicle.weapons) if w.category == "guided")
    assert not g.bf.sight(u.x, u.y, t.x, t.y).visible  # the ground's line is blocked by the wood
    activate(g, A)
    assert ("fire_vehicle", 2, k) in g.decision().options  # offered by the aircraft's own line
    add_dice(g, ("d8", 8), 1, 1)  # the squad's ECM D8, the crew's quality and the guidance die: a miss
    g.apply(("fire_vehicle", 2, k))
    e = last_event(g, "MissileFired")
    assert (e["unit"], e["target"], e["result"]) == (A, 2, "none") and g.dice.remaining == 0
    # (reaction=True: the plan of a weapon that has fired this activation)  grounded, the wood blocks the missile's line as any ground firer's
    air.air_state(g, u)["mode"] = "grounded"
    assert weapon_plan(g, u, t, k, reaction=True) is None
    # in the air again, a smoke cloud on the line blocks it (smoke is not the ground's terrain)
    air.air_state(g, u)["mode"] = "hovering"
    assert weapon_plan(g, u, t, k, reaction=True) is not None
    smoke.add_cloud(g, 24.0, 25.0, 2.0, "test")
    assert weapon_plan(g, u, t, k, reaction=True) is None
