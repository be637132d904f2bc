"""Aerospace Operations: passengers of aircraft (seed 000 L1816-1842; aerospace_operations/passengers.py): loading
and unloading a grounded aircraft, fast-rope and grav-pack drops from a hovering one with a quality roll per
model.  Forced dice."""
from aerospace_helpers import air_scenario, aircraft
from conftest import activate, begin, last_event, rect

from dustup_env.rules.kernel.entities import OK, WOUNDED

A, SQUAD = 1, 2


def hovering(design="vtol_transport", terrain=(), dice=()):
    g = begin(air_scenario([aircraft("Craft", (22, 20), design=design, air="hovering")], passengers=True,
                           terrain=terrain), dice)
    activate(g, SQUAD)
    return g


def test_fast_roping_takes_the_whole_activation_and_each_model_rolls_its_quality():
    g = hovering(dice=[("d8", 1), ("d8", 2), ("d8", 8), ("d8", 1), ("d8", 5)])
    opts = g.decision().options
    assert ("air_drop", "rope", 0) in opts and not any(o[0] == "air_drop" and o[1] == "grav" for o in opts)
    assert not any(o[0] == "dismount" for o in opts)  # not from an aircraft in the air
    g.apply(("air_drop", "rope", 8))
    assert g.dice.remaining == 0
    s = g.units[SQUAD]
    assert s.veh.carrier == -1 and s.in_play and s.uid not in g.units[A].veh.passengers
    assert [f.status for f in s.figures] == [WOUNDED, OK, OK, WOUNDED, OK]
    e = last_event(g, "TroopsDropped")
    assert (e["method"], e["rolls"], e["wounded"]) == ("rope", [1, 2, 8, 1, 5], 2)
    assert g.decision().unit != SQUAD  # both actions used
    from dustup_env.rules.armoured_dustup.vehicle_movement import footprint
    r = footprint(g.units[A])
    for x, y in s.figure_positions():
        assert ((x - 22) ** 2 + (y - 20) ** 2) ** 0.5 <= r + 1.0 + 1e-6  # within 1" of the footprint (L1842)


def test_ropes_only_as_the_first_action():
    g = hovering()
    assert any(o[0] == "air_drop" for o in g.decision().options)
    g.stack[-1].actions_left = 1  # (as after a first action)
    g.pending_decision = None
    assert not any(o[0] == "air_drop" for o in g.decision().options)


def test_difficult_ground_shifts_the_quality_die_down():
    g = hovering(terrain=[rect("light_woods", 16, 14, 28, 26)], dice=[("d6", 2)] * 5)
    g.apply(("air_drop", "rope", 8))
    assert g.dice.remaining == 0  # D8 troops rolled D6s


def test_grav_packs_from_a_grav_vehicle_take_one_action_and_no_ropes():
    g = hovering(design="grav_apc", dice=[("d8", 3)] * 5)
    opts = g.decision().options
    assert ("air_drop", "grav", 0) in opts and not any(o[0] == "air_drop" and o[1] == "rope" for o in opts)
    g.apply(("air_drop", "grav", 8))
    assert g.dice.remaining == 0 and g.decision().unit == SQUAD  # its second action remains


def test_no_drop_from_an_aircraft_that_is_moving_or_grounded():
    g = begin(air_scenario([aircraft("Craft", (22, 20))], passengers=True))
    activate(g, SQUAD)
    assert not any(o[0] == "air_drop" for o in g.decision().options)
