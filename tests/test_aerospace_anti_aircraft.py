"""Aerospace Operations: on-table anti-aircraft fire (seed 000 L1790-1808; aerospace_operations/anti_aircraft.py):
fire as a reaction in the middle of an aircraft's move (the move goes on from where it was, or stops), acquisition,
the pilot's abort / evade / continue, re-acquisition, the engagement against the ECM die (one lower when
hovering), the pilot's confidence test at +2, hits, destruction in the air, emergency landings and the crash test.
Forced dice."""
from aerospace_helpers import aa_team, air_scenario, aircraft
from conftest import activate, add_dice, begin, events_of, last_event, rect, unit

from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

A, SQUAD, AA = 1, 2, 3  # the dropship, the squad aboard, Red's air-defence team


def flying(dice=(), passengers=True, terrain=(), start="airborne", blue=()):
    """The dropship (ECM D8, belly D12) at (22, 3) facing north; Red's LAD team at (22, 45) (41" away)."""
    g = begin(air_scenario([aircraft("Dropship", (22, 3), air=start, facing=0)], red=[aa_team("AA", (22, 45))],
                           passengers=passengers, terrain=terrain, blue=blue), dice)
    activate(g, A)
    return g


def fly_north(g, y=39.0):
    g.apply(("air_fly", 22.0, y))


def test_the_reaction_comes_mid_move_and_the_move_goes_on_after_a_hold():
    g = flying()
    fly_north(g)
    dec = g.decision()
    assert (dec.side, dec.kind, dec.unit) == (1, "anti_aircraft", AA)
    assert set(dec.options) == {("aa_fire",), ("aa_hold",)}
    u = g.units[A]
    assert (u.x, u.y) == (22.0, 4.0) and g.stack[-2].type == "air_flight"  # the flight waits below, 1" along
    assert g.units[SQUAD].y == 4.0  # the passengers move with it
    g.apply(("aa_hold",))
    assert (u.x, u.y) == (22.0, 39.0)  # the move went on from where it was to its end
    assert last_event(g, "AircraftFlew")["end"] == [22.0, 39.0]
    assert g.decision().unit == A and g.decision().kind == "action"  # its second action (not asked again)


def test_not_acquired_the_move_goes_on():
    g = flying([("d8", 4), ("d8", 4)])  # guidance D8 against ECM D8: a draw keeps no lock (L1794)
    fly_north(g)
    g.apply(("aa_fire",))
    assert g.dice.remaining == 0
    e = last_event(g, "AntiAircraftFire")
    assert (e["stage"], e["guidance"], e["ecm"], e["result"]) == ("acquire", 4, 4, "lost")
    assert (g.units[A].x, g.units[A].y) == (22.0, 39.0)
    assert air.aa_fired(g, AA)


def test_acquired_the_pilot_continues_and_a_miss_lets_the_move_go_on():
    g = flying([("d8", 5), ("d8", 4), ("d8", 3), ("d8", 2), ("d8", 6)])
    fly_north(g)
    g.apply(("aa_fire",))
    dec = g.decision()
    assert (dec.side, dec.kind, dec.unit) == (0, "air_pilot", A)
    assert set(dec.options) == {("air_pilot", "abort"), ("air_pilot", "evade"), ("air_pilot", "continue")}
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0
    e = last_event(g, "AntiAircraftFire")
    assert (e["stage"], e["guidance"], e["firepower"], e["ecm"], e["result"]) == ("engage", 3, 2, 6, "none")
    assert (g.units[A].x, g.units[A].y) == (22.0, 39.0)


def test_the_pilot_aborts_and_the_move_stops():
    g = flying([("d8", 5), ("d8", 4)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "abort"))
    u = g.units[A]
    assert u.location == "air_base" and g.units[SQUAD].location == "air_base" and not u.in_play
    assert not events_of(g, "AircraftFlew") and g.dice.remaining == 0
    assert g.decision().side == 1  # its activation is over (it left the table)


def test_evading_moves_24_inches_ahead_ends_the_move_and_needs_a_new_lock():
    g = flying([("d8", 5), ("d8", 4), ("d8", 2), ("d8", 3)])  # acquired; the re-acquisition fails
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "evade"))
    u = g.units[A]
    assert (u.x, u.y) == (22.0, 28.0)  # 24" straight on from (22, 4), not on to (22, 39)
    e = last_event(g, "AntiAircraftFire")
    assert (e["stage"], e["result"]) == ("reacquire", "lost")
    assert g.dice.remaining == 0 and last_event(g, "AircraftFlew")["end"] == [22.0, 28.0]


def test_evading_off_the_table_leaves_for_the_loiter_box():
    g = flying([("d8", 5), ("d8", 4)])
    fly_north(g)
    vehicle_state(g.units[A]).facing = 180.0  # (heading south at the moment of the evasion: 24" ahead is off the table)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "evade"))
    assert g.units[A].location == "loiter" and g.units[SQUAD].location == "loiter" and g.dice.remaining == 0


def test_evading_with_the_lock_kept_is_engaged():
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 1), ("d8", 1), ("d8", 1), ("d8", 8)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "evade"))
    assert [e["stage"] for e in events_of(g, "AntiAircraftFire")] == ["acquire", "reacquire", "engage"]
    assert g.dice.remaining == 0


def test_a_minor_success_is_the_pilots_confidence_test_at_plus_2():
    # guidance 5 beats the ECM 4, firepower 3 does not: minor; the test needs more than 0 + 2 + leadership 2
    g = flying([("d8", 5), ("d8", 4), ("d8", 5), ("d8", 3), ("d8", 4), ("d8", 4)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    t = last_event(g, "ConfidenceTested")
    assert (t["unit"], t["needed"], t["roll"]) == (A, 4, 4)
    assert g.units[A].location == "air_base"  # failed: it aborts and returns to base
    g = flying([("d8", 5), ("d8", 4), ("d8", 5), ("d8", 3), ("d8", 4), ("d8", 5)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    assert g.units[A].in_play and (g.units[A].x, g.units[A].y) == (22.0, 39.0)  # passed: the move goes on


def test_a_major_success_destroys_it_in_the_air_with_its_occupants():
    # impact D12x2 (10 -> 20) against the belly D12 (9): more than double
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 10), ("d12", 9)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0
    assert last_event(g, "AircraftHit")["result"] == "destroyed"
    c = last_event(g, "AircraftCrashed")
    assert (c["x"], c["y"], c["result"]) == (22.0, 4.0, "exploded")
    assert g.units[A].destroyed and g.units[SQUAD].destroyed
    assert not events_of(g, "AircraftFlew")  # brought down mid-move


def test_the_falling_aircraft_explodes_over_6_inches_at_impact_d8():
    blue = [unit("Near", (25, 4), figures=(("rifle", 1),)), unit("Far", (30, 4), figures=(("rifle", 1),))]
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 10), ("d12", 9)],
               passengers=False, blue=blue)
    fly_north(g)
    g.apply(("aa_fire",))
    add_dice(g, ("d8", 8), 1)  # the burst: impact D8 against the one figure within 6" (3" away)
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0
    assert g.units[2].destroyed and not g.units[3].destroyed  # "Near" struck, "Far" 8" away untouched


def test_damaged_a_moving_aircraft_crash_lands_d12x2_ahead_and_a_controlled_landing_saves_the_occupants():
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 7), ("d12", 9),
                ("d12", 3), ("d8", 4)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0
    assert last_event(g, "AircraftHit")["result"] == "damaged"
    c = last_event(g, "AircraftCrashed")
    assert (c["x"], c["y"], c["roll"], c["result"]) == (22.0, 10.0, 4, "controlled")  # 6" ahead of (22, 4)
    s = g.units[SQUAD]
    assert not g.units[A].in_play and s.in_play and s.veh.carrier == -1 and s.suppression == 3
    assert all(f.status == 0 for f in s.figures)
    assert max(abs(x - 22.0) + 0 for x, _ in s.figure_positions()) <= 2.0 + 2.1


def test_a_crash_test_of_2_or_3_hurts_each_occupant_on_a_d6():
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 7), ("d12", 9),
                ("d12", 3), ("d8", 2), ("d6", 1), ("d6", 2), ("d6", 3), ("d6", 4), ("d6", 6)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0
    hurt = [e["result"] for e in events_of(g, "OccupantHurt")]
    assert hurt == ["killed", "wounded", "wounded", "unharmed", "unharmed"]
    assert g.units[SQUAD].suppression == 3


def test_a_crash_test_of_1_destroys_it():
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 7), ("d12", 9),
                ("d12", 3), ("d8", 1)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    assert last_event(g, "AircraftCrashed")["result"] == "exploded" and g.units[SQUAD].destroyed


def test_crash_landing_onto_a_building_destroys_it():
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 7), ("d12", 9), ("d12", 3)],
               terrain=[rect("building", 20, 9, 24, 11)])
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0 and last_event(g, "AircraftCrashed")["result"] == "exploded"


def test_the_crash_test_is_shifted_down_per_damage_marker_above_one():
    g = flying([("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d8", 2), ("d12x2", 7), ("d12", 9),
                ("d12", 3), ("d6", 5)])  # a second marker: the crew's D8 becomes D6
    vehicle_state(g.units[A]).damage = 1
    fly_north(g)
    g.apply(("aa_fire",))
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0 and last_event(g, "AircraftCrashed")["result"] == "controlled"


def test_a_hovering_aircraft_is_fired_on_as_an_action_with_the_ecm_one_lower_and_lands_where_it_is():
    g = begin(air_scenario([aircraft("Dropship", (22, 3), air="hovering", facing=0)], red=[aa_team("AA", (22, 45))],
                           passengers=True), [("d8", 5), ("d8", 4), ("d8", 6), ("d8", 7), ("d6", 2), ("d12x2", 7),
                                              ("d12", 9), ("d8", 4)], first=1)
    activate(g, AA)
    assert ("aa_fire_at", A) in g.decision().options
    g.apply(("aa_fire_at", A))
    g.apply(("air_pilot", "continue"))
    assert g.dice.remaining == 0  # the ECM rolled a D6 in the engagement (L1798)
    c = last_event(g, "AircraftCrashed")
    assert (c["x"], c["y"], c["result"]) == (22.0, 3.0, "controlled")  # no D12 x 2: it lands where it is
    assert ("aa_fire_at", A) not in g.decision().options  # (the team's second action: fired once this turn)


def test_only_designated_anti_air_weapons_fire_and_once_a_turn():
    g = flying([("d8", 4), ("d8", 4)])
    fly_north(g, 15.0)
    g.apply(("aa_fire",))
    activate_again = g.decision()
    assert activate_again.kind == "action" and activate_again.unit == A
    g.apply(("air_fly", 22.0, 27.0))
    assert g.decision().kind != "anti_aircraft"  # it has fired this turn


def test_a_hidden_anti_aircraft_team_that_fires_is_revealed():
    red = [aa_team("AA", (22, 45), hidden=True)]
    g = begin(air_scenario([aircraft("Dropship", (22, 3), facing=0)], red=red,
                           terrain=[rect("light_woods", 18, 42, 26, 47)]), [("d8", 4), ("d8", 4)])
    activate(g, A)
    assert g.units[2].hidden
    fly_north(g)
    assert g.decision().kind == "anti_aircraft"
    g.apply(("aa_fire",))
    assert not g.units[2].hidden and last_event(g, "UnitRevealed")["unit"] == 2
