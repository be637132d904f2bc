"""Independent forced-dice audit of seed 000's Additional Rules: Buildings and Fortifications (L1996-2022),
Electronic Warfare (L2024-2062) and Drones (L2064-2076); seed 001's reactions (S001:42, 53, 127-139) and seed 004's
interrupt (S004:367-407) and building assault (S004:87-139), the game options ``reactions``, ``interrupt`` and
``building_assault: "d20"``.

Each test probes one rule as the seed states it, through the game's public surface (scenarios, options, decisions,
events), on scripted dice; the seed line is in each docstring.  The findings and their resolution are in
docs/rules-audit.md ("Additional rules: buildings, electronic warfare, drones, reactions and interrupts") and
docs/rules-notes.md section 57 (RN-1940..)."""
from __future__ import annotations

import math

import pytest

from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, unit
from dustup_env.rules.kernel.entities import OK, WOUNDED

HOUSE = rect("building", 20, 27, 28, 33, name="Farmhouse")
WOOD = rect("light_woods", 10, 28, 34, 34)
BLOCK = rect("building", 14, 18, 26, 24)
PASS = ("d8", 8)  # a D8 confidence test passed (the units' quality and sensor are D8 and D4 unless given)

# The HMG team (quality D8, APSW firepower D6 + D6, impact D8 against armour) 21" south of the Farmhouse wall: its
# target die is a D8 (the building larger than the weapon: -1; inferior fire control: +1).
ONE_HIT = [("d8", 2), ("d8", 3), ("d6", 3), ("d6", 2)]  # two successes, 8 / 8 = one hit, no remainder
TWO_HITS = [("d8", 2), ("d8", 8), ("d6", 4), ("d6", 4)]  # three successes, 16 / 8 = two hits
MINOR = [("d8", 7), ("d8", 8), ("d6", 1), ("d6", 1)]  # one success: suppression, no hit
MISS = [("d8", 8), ("d8", 1), ("d6", 1), ("d6", 1)]  # no success


def bfield(red=None, buildings=None, blue=None, options=None):
    """Blue HMG team Gun (uid 0) at (24, 6); Red squad B (uid 1) inside the brick Farmhouse (20..28 x 27..33, size 3,
    a door at (24, 27))."""
    blue = blue if blue is not None else [unit("Gun", (24, 6), figures=(("rifle", 3),), heavy_weapon="hmg_team")]
    red = red if red is not None else [unit("B", (24, 30), figures=(("rifle", 2),))]
    scn = scenario(blue, red, terrain=[HOUSE], options=options)
    scn["buildings"] = buildings if buildings is not None else [
        {"feature": "Farmhouse", "armour": "brick", "openings": [{"kind": "door", "position": [24, 27]}]}]
    return scn


def building(g):
    return next(e for e in g.entities if e["kind"] == "building")


# ============================================================================================== buildings
def test_L1433_L1998_a_draw_leaves_the_building_undamaged():
    """L1998 "engaged as if they are a vehicle"; L1433 "If the impact die beats the armour die, the vehicle is
    damaged": a draw does not beat it (no damage, no occupant roll)."""
    g = begin(bfield())
    activate(g, 0)
    add_dice(g, *ONE_HIT, PASS, ("d8", 6), ("d12x2", 3))  # the occupants' first-suppressed test; 6 against 6
    g.apply(("fire_building", 0, 0, 0))
    assert g.dice.remaining == 0
    assert [(h["impact"], h["armour"], h["result"]) for h in events_of(g, "BuildingHit")] == [(6, 6, "none")]
    assert building(g)["state"]["damage"] == 0 and not events_of(g, "OccupantHit")


def test_L1435_exactly_double_damages_and_L1443_occupants_must_exceed_the_weapon_class():
    """L1435 "If impact die is more than double armour die, vehicle is destroyed": exactly double only damages;
    L2008 occupants' casualties read as a damaged vehicle's passengers (L1443: the armour roll must exceed the
    weapon class, the HMG's 1)."""
    g = begin(bfield())
    activate(g, 0)
    add_dice(g, *ONE_HIT, PASS, ("d8", 8), ("d12x2", 2),  # 8 against 4: beats it, not more than double
             ("d4", 1), ("d4", 2),  # 1 is not above class 1: wounded; 2 is
             PASS)  # B's test for casualties
    g.apply(("fire_building", 0, 0, 0))
    assert g.dice.remaining == 0
    st = building(g)["state"]
    assert (st["damage"], st["destroyed"]) == (1, False)
    assert [f.status for f in g.units[1].figures] == [WOUNDED, OK]


def test_L1435_L2008_more_than_double_destroys_into_rubble_and_the_occupants_need_more_than_double():
    """L1435 more than double: destroyed (the hits end there); L2008 "Usually it should result in rubble which may
    still serve as cover"; L1443 "If the vehicle was destroyed, then each passenger must score more than double the
    weapon class"."""
    g = begin(bfield())
    activate(g, 0)
    add_dice(g, *TWO_HITS, PASS, ("d8", 5), ("d12x2", 2),  # 5 against 4: beats it, not more than double: damaged
             ("d8", 8), ("d12x2", 1),  # the second hit: 8 > 2 x 2, destroyed
             ("d4", 2), ("d4", 3),  # more than 2 needed: 2 wounded, 3 unharmed
             PASS)
    g.apply(("fire_building", 0, 0, 0))
    assert g.dice.remaining == 0
    e = building(g)
    assert [h["result"] for h in events_of(g, "BuildingHit")] == ["damaged", "destroyed"]
    assert e["state"]["destroyed"] and last_event(g, "BuildingDestroyed")["how"] == "rubble"
    assert [f.status for f in g.units[1].figures] == [WOUNDED, OK]
    assert g.bf.terrain_at(24, 30) == "rough" and g.bf.cover_at(24, 30) >= 1  # rubble: still cover
    assert not [o for o in g.decision().options if o[0] == "fire_building"]


def test_L2000_L2002_a_door_is_one_size_smaller_and_a_miss_strikes_the_building_below_its_size():
    """L2000-2002: a door is a target "one or two sizes smaller than the building"; "If the shot misses, roll a D6.
    If the result is less than the size class of the building ... still struck the building somewhere. Otherwise
    it missed the building completely": with a size 3 building a 2 strikes it, a 3 does not."""
    g = begin(bfield())
    activate(g, 0)
    assert ("fire_building", 0, 1, 0) in g.decision().options  # part 1: the door
    add_dice(g, *MISS, ("d6", 3))
    g.apply(("fire_building", 0, 1, 0))
    assert last_event(g, "OpeningMissed")["struck_building"] is False and not events_of(g, "BuildingHit")
    assert g.dice.remaining == 0
    g = begin(bfield())
    activate(g, 0)
    add_dice(g, *MISS, ("d6", 2), ("d8", 1), ("d12x2", 1))  # struck: one hit of the impact on the building (1 < 2)
    g.apply(("fire_building", 0, 1, 0))
    assert last_event(g, "OpeningMissed")["struck_building"] is True
    assert [(h["part"], h["result"]) for h in events_of(g, "BuildingHit")] == [(0, "none")]
    assert g.dice.remaining == 0


def test_L2004_suppressing_the_building_suppresses_every_occupant_and_no_one_outside():
    """L2004 "Suppression of a building suppresses its occupants": both units inside take a marker (each its
    first-suppressed test), the unit outside none."""
    red = [unit("B", (24, 30), figures=(("rifle", 2),)), unit("C", (21, 32), figures=(("rifle", 2),)),
           unit("D", (40, 30), figures=(("rifle", 2),))]
    g = begin(bfield(red=red))
    activate(g, 0)
    add_dice(g, *MINOR, PASS, PASS)
    g.apply(("fire_building", 0, 0, 0))
    assert g.dice.remaining == 0
    assert [g.units[i].suppression for i in (1, 2, 3)] == [1, 1, 0]
    assert last_event(g, "BuildingSuppressed")["entity"] == building(g)["id"]


def bunker(weapon="towed_at_gun"):
    """Red crew (uid 1) 1" inside the brick Farmhouse, which mounts ``weapon``; Blue HMG team Gun (uid 0)."""
    red = [unit("Crew", (24, 28), figures=(("rifle", 4),))]
    return bfield(red=red, buildings=[{"feature": "Farmhouse", "armour": "brick", "weapons": [weapon],
                                       "openings": [{"kind": "door", "position": [24, 27]}]}])


def test_L2010_a_fortification_mounts_weapons_its_occupants_fire_at_the_heavy_weapon_die():
    """L2010 "Fortifications may mount weaponry just as a vehicle": the occupying unit fires the mounted gun (a
    class 3 anti-tank gun on the Blue team 22" off through the wall: D8, concealed +1 = D10)."""
    g = begin(bfield(red=[unit("Crew", (24, 28), figures=(("rifle", 4),))],
                     buildings=[{"feature": "Farmhouse", "armour": "brick", "weapons": ["towed_at_gun"]}]), first=1)
    activate(g, 1)
    assert ("fire_fortification", 0, 0) in g.decision().options
    add_dice(g, ("d10", 10), ("d8", 1), ("d10", 1))
    g.apply(("fire_fortification", 0, 0))
    assert last_event(g, "HeavyWeaponFired")["target_die"] == "d10" and g.dice.remaining == 0


def test_L1455_L2010_a_damaged_fortifications_weapons_engage_at_one_die_worse_per_damage_marker():
    """L2010 "Fortifications may mount weaponry just as a vehicle", L1998 "engaged as if they are a vehicle", L1455
    "for each damage marker, any targets the vehicle tries to engage or spot gain a positive die shift to their
    target die": the Farmhouse damaged once, its gun's target die is a D12, not a D10 (RN-1940)."""
    g = begin(bunker())
    activate(g, 0)
    # a shot at the door misses; the D6 2 strikes the building: 8 against 4, damaged; the crew's armour 3s exceed 1
    add_dice(g, *MISS, ("d6", 2), ("d8", 8), ("d12x2", 2), *[("d4", 3)] * 4)
    g.apply(("fire_building", 0, 1, 0))
    assert building(g)["state"]["damage"] == 1 and g.units[1].suppression == 0 and g.dice.remaining == 0
    g.apply(("end",))
    activate(g, 1)
    assert ("fire_fortification", 0, 0) in g.decision().options
    add_dice(g, ("d12", 12), ("d8", 1), ("d10", 1))
    g.apply(("fire_fortification", 0, 0))
    assert last_event(g, "HeavyWeaponFired")["target_die"] == "d12" and g.dice.remaining == 0


def test_L1998_modules_of_a_very_large_structure_are_struck_one_at_a_time():
    """L1998 "Very large structures are considered to be made up of modules": a hit on the west wing leaves the east
    wing as it was."""
    wings = [{"name": "West wing", "polygon": [[20, 27], [24, 27], [24, 33], [20, 33]], "armour": "brick",
              "structure": "Fort"},
             {"name": "East wing", "polygon": [[24, 27], [28, 27], [28, 33], [24, 33]], "armour": "brick",
              "structure": "Fort"}]
    g = begin(bfield(red=[unit("B", (40, 40))], buildings=wings))
    activate(g, 0)
    west, east = [e for e in g.entities if e["kind"] == "building"]
    fire = sorted(o for o in g.decision().options if o[0] == "fire_building")
    assert [o[2] for o in fire] == [0, 0]  # each wing a target of its own
    add_dice(g, *ONE_HIT, ("d8", 8), ("d12x2", 2))
    g.apply(("fire_building", fire[0][1], 0, 0))
    hit = last_event(g, "BuildingHit")["entity"]
    assert {e["id"]: e["state"]["damage"] for e in (west, east)} == {west["id"]: int(hit == west["id"]),
                                                                    east["id"]: int(hit == east["id"])}
    assert g.dice.remaining == 0


# ============================================================================================== electronic warfare
def ew_field(ew_rating="average", dummies=((14, 30),), terrain=(WOOD, BLOCK)):
    """Blue EW team E (uid 0) at (20, 10); Red B (uid 1) far off and hidden H (uid 2) in the wood; Red's dummies."""
    scn = scenario([unit("E", (20, 10), ew=ew_rating)], [unit("B", (44, 46)), unit("H", (20, 30), hidden=True)],
                   terrain=list(terrain))
    scn["sides"][1]["dummies"] = [list(d) for d in dummies]
    return scn


def test_L2030_three_counters_then_inactive_until_the_next_activation():
    """L2030: "the EW unit gets three EW counters ... Once they are used, the unit's EW capability is inactive and
    must be reactivated next time the unit is activated": all three spent, it cannot be marked active again in the
    same activation."""
    g = begin(ew_field())
    activate(g, 0)
    g.apply(("ew_on",))
    dummy = next(i for i, m in enumerate(g.markers) if m["unit"] < 0)
    add_dice(g, ("d8", 6), ("d12", 1))  # the dummy in the wood behind the block: D6 + 1; three counters: D8 + 2 = D12
    g.apply(("ew_spot", dummy, 3))
    assert last_event(g, "EWAttempt")["die"] == "d12" and g.dice.remaining == 0
    opts = g.legal_options()
    assert ("ew_on",) not in opts and not [o for o in opts if o[0] == "ew_spot"]


def test_L2042_extra_chits_shift_the_die_closed_at_d12():
    """L2042 "expending addition chits each of which improve the die type by one": a superior (D10) system with
    two counters rolls a D12, and a third counter cannot go past it."""
    g = begin(ew_field("superior"))
    activate(g, 0)
    g.apply(("ew_on",))
    dummy = next(i for i, m in enumerate(g.markers) if m["unit"] < 0)
    add_dice(g, ("d8", 6), ("d12", 6))  # a tie fails (L2052 "successful" read as strictly higher)
    g.apply(("ew_spot", dummy, 2))
    e = last_event(g, "EWAttempt")
    assert (e["die"], e["success"]) == ("d12", False) and not g.markers[dummy]["removed"]
    assert g.dice.remaining == 0


@pytest.mark.parametrize("terrain, die", [((WOOD,), "d6"), ((WOOD, BLOCK), "d8")])
def test_L2052_a_concealed_counter_rolls_a_d6_one_up_out_of_sight(terrain, die):
    """L2052 "if it is concealed it uses a D6. This is shifted up one if it is not in direct line of sight of the EW
    unit": the dummy in the wood rolls a D6 in sight, a D8 behind the block.  (The D4 "in the open" cannot arise: a
    hidden unit or dummy stands in concealing terrain, RN-1753.)"""
    g = begin(ew_field(terrain=terrain))
    activate(g, 0)
    g.apply(("ew_on",))
    dummy = next(i for i, m in enumerate(g.markers) if m["unit"] < 0)
    add_dice(g, (die, 5), ("d8", 6))
    g.apply(("ew_spot", dummy, 1))
    e = last_event(g, "EWAttempt")
    assert (e["against"], e["against_roll"], e["success"]) == (die, 5, True) and g.markers[dummy]["removed"]
    assert g.dice.remaining == 0


def test_L2050_remote_spotting_reveals_a_hidden_unit_without_an_action():
    """L2050-2052: remote spotting "at any time ... whether or not the hidden counter is in line of sight"; the
    concealed unit in the wood behind the block rolls D6 + 1 = D8; the EW die beating it reveals the unit."""
    g = begin(ew_field())
    activate(g, 0)
    g.apply(("ew_on",))
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    add_dice(g, ("d8", 7), ("d8", 8))
    g.apply(("ew_spot", h, 1))
    assert not g.units[2].hidden and g.actions_left == 2 and g.dice.remaining == 0


def test_L2062_a_draw_of_the_opposing_die_does_not_foil_the_attempt():
    """L2062 "If the disruption die beats the EW die, the EW attempt has failed": a draw leaves it standing."""
    red = [unit("B", (44, 46)), unit("H", (20, 30), hidden=True), unit("RE", (44, 44), ew="average")]
    g = begin(scenario([unit("E", (20, 10), ew="average")], red, terrain=[WOOD]), first=1)
    activate(g, 3)
    g.apply(("ew_on",))
    g.apply(("end",))
    activate(g, 0)
    g.apply(("decline",))  # Red's EW may listen to E's activation: it does not
    g.apply(("ew_on",))
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    g.apply(("ew_spot", h, 1))
    d = g.decision()
    assert (d.side, d.kind) == (1, "choose") and ("ew_oppose", 3, 1) in d.options  # the hidden unit's side decides
    add_dice(g, ("d6", 2), ("d8", 5), ("d8", 5))  # target D6 2; EW 5 beats it; the opposing 5 only draws
    g.apply(("ew_oppose", 3, 1))
    e = last_event(g, "EWAttempt")
    assert (e["roll"], e["opposing_roll"], e["success"]) == (5, 5, True) and not g.units[2].hidden


def test_L2046_jamming_is_the_ew_sides_decision_at_the_enemy_activation():
    """L2046 "When the communicating player rolls their communication die, the EW player also rolls their EW die.
    If the EW die exceeds the communications die ... the communication attempt fails"; the attempt is the EW side's
    decision (``ew_watch``) and spends its counter only when a communication is rolled."""
    blue = [unit("HQ", (10, 5), kind="hq", leadership=1), unit("S", (40, 5), commander="HQ")]
    g = begin(scenario(blue, [unit("R", (24, 44), ew="inferior")]), first=1)
    activate(g, 2)
    g.apply(("ew_on",))
    g.apply(("end",))
    activate(g, 0)
    d = g.decision()
    assert (d.side, d.options[-1]) == (1, ("decline",)) and ("ew_watch", 2, 2) in d.options
    g.apply(("ew_watch", 2, 2))  # two counters: D6 + 1 = D8
    add_dice(g, ("d8", 7), ("d8", 8))
    g.apply(("order", 1))
    assert last_event(g, "OrderGiven")["success"] is False
    e = last_event(g, "EWAttempt")
    assert (e["task"], e["die"], e["roll"], e["against_roll"]) == ("jam", "d8", 8, 7) and g.dice.remaining == 0


# ============================================================================================== drones
def drone_field(sensor="average", options=None, red=None):
    scn = scenario([unit("D", (20, 10), drone=sensor)],
                   red if red is not None else [unit("B", (44, 46)), unit("H", (20, 30), hidden=True)],
                   terrain=[WOOD, BLOCK], options=options)
    return scn


def test_L2074_launching_is_one_action_and_a_drone_flies_at_most_24_inches():
    """L2074 "It requires one action to prepare and launch a drone ... Drones may move up to 24" in any direction
    per action"."""
    g = begin(drone_field())
    activate(g, 0)
    g.apply(("drone_launch",))
    assert g.actions_left == 1
    moves = [o for o in g.legal_options() if o[0] == "drone_move"]
    far = max(moves, key=lambda o: math.hypot(o[1] - 20, o[2] - 10))
    assert 23 < math.hypot(far[1] - 20, far[2] - 10) <= 24 + 1e-9  # the point grid's farthest within 24"
    g.apply(far)
    drone = next(e for e in g.entities if e["kind"] == "drone")
    assert (drone["x"], drone["y"]) == (far[1], far[2]) and g.actions_left == 0


def test_L2076_the_drone_spots_from_the_air_with_its_sensor_die():
    """L2076 "Drones may be equipped with inferior (D6), average (D8) or superior sensors (D10). For determining line
    of sight, the drone is considered airborne": from the operator the block hides the wood; the drone over the
    operator sees it, and spots with the operator's quality die and its D10."""
    g = begin(drone_field("superior"))
    activate(g, 0)
    assert not g.bf.sight(20, 10, 20, 30).visible
    g.apply(("drone_launch",))
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    assert ("drone_spot", h) in g.legal_options()
    add_dice(g, ("d10", 3), ("d8", 4), ("d10", 9))  # range D10 (20" off); both dice beat it: major
    g.apply(("drone_spot", h))
    s = last_event(g, "DroneSpotted")
    assert s["observer_dice"] == ["d8", "d10"] and s["result"] == "major" and not g.units[2].hidden
    assert g.dice.remaining == 0


def test_L2074_any_other_action_of_the_operator_crashes_the_drone():
    """L2074 "While operating a drone, the unit may take no other actions. If they do, the drone crashes and is
    lost"."""
    g = begin(drone_field())
    activate(g, 0)
    g.apply(("drone_launch",))
    add_dice(g, *[("d6", 3)] * 4)
    g.apply(next(o for o in g.legal_options() if o[0] == "move"))
    assert last_event(g, "DroneCrashed")["reason"] == "action"
    assert not next(e for e in g.entities if e["kind"] == "drone")["state"]["flying"]


def test_L2074_S001_129_a_reaction_is_an_action_of_the_operator_and_crashes_its_drone():
    """L2074 "the unit may take no other actions. If they do, the drone crashes"; S001:129 "When it reacts it may
    make a single Attack or Move action": a drone operator that fires back loses its drone (RN-1941); one that
    declines keeps it."""
    scn = scenario([unit("A", (24, 5))], [unit("B", (24, 15), drone="average")])
    g = begin(scn, first=1, options={"reactions": True})
    activate(g, 1)
    g.apply(("drone_launch",))
    g.apply(("end",))
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.decision().kind == "reaction"
    add_dice(g, ("d6", 6), ("d8", 1), ("d6", 1), ("d6", 6), ("d8", 1), ("d6", 1))  # both shots miss
    g.apply(("shoot", 0, "all"))
    assert g.dice.remaining == 0
    assert last_event(g, "DroneCrashed")["reason"] == "action"
    assert not next(e for e in g.entities if e["kind"] == "drone")["state"]["flying"]
    # declining the reaction is no action: the drone flies on
    g = begin(scn, first=1, options={"reactions": True})
    activate(g, 1)
    g.apply(("drone_launch",))
    g.apply(("end",))
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    add_dice(g, ("d6", 6), ("d8", 1), ("d6", 1))
    g.apply(("decline",))
    assert next(e for e in g.entities if e["kind"] == "drone")["state"]["flying"]



def test_L2056_L2058_the_drones_sensor_is_disrupted_when_the_ew_die_beats_it():
    """L2056-2058 "Whenever the enemy performs an action using sensors ... If the EW die beats any of the other
    player's quality die then the action has been disrupted and fails" (RN-1751: the sensor die): a drone's spotting
    with a major success fails when the listening EW die beats the drone's sensor roll."""
    red = [unit("B", (44, 46)), unit("H", (20, 30), hidden=True), unit("R", (40, 46), ew="average")]
    g = begin(drone_field(red=red), first=1)
    activate(g, 3)
    g.apply(("ew_on",))
    g.apply(("end",))
    activate(g, 0)
    g.apply(("ew_watch", 3, 1))
    g.apply(("drone_launch",))
    h = next(i for i, m in enumerate(g.markers) if m["unit"] == 2)
    add_dice(g, ("d10", 2), ("d8", 7), ("d8", 6), ("d8", 7))  # range D10 2; quality 7, sensor 6: major; EW 7 > 6
    g.apply(("drone_spot", h))
    assert last_event(g, "DroneSpotted")["result"] == "none" and g.units[2].hidden
    e = last_event(g, "EWAttempt")
    assert (e["task"], e["against_roll"], e["success"]) == ("sensor", 6, True) and g.dice.remaining == 0


# ============================================================================================== reactions
RX = {"reactions": True}
SHOT_MISS = [("d6", 6), ("d8", 1), ("d6", 1)]  # a 5-rifle squad's shot at 10-12": target D6, quality D8, firepower D6


def pair(b=(24, 15), a=(24, 5), **kw):
    return scenario([unit("A", a)], [unit("B", b)], **kw)


@pytest.mark.parametrize("gap, fires_back", [(12.0, True), (12.5, False)])
def test_S001_131_an_attack_reaction_within_12_inches_inclusive(gap, fires_back):
    """S001:131 "A unit may react to an enemy within 12" that is attacking it": at 12" it may fire back, beyond it
    only Hit the Dirt! (S001:133)."""
    g = begin(pair(b=(24, 5 + gap)), options=RX)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    d = g.decision()
    assert d.kind == "reaction" and d.unit == 1
    assert any(o[0] == "shoot" for o in d.options) is fires_back
    assert ("prop",) in d.options


def test_S001_42_S001_53_a_reaction_before_the_units_activation_costs_it_an_action_this_turn_only():
    """S001:42 "less one if it has a Reaction token"; S001:53 "each unit removes ... all Reaction tokens" at the
    end of the turn; S001:129 the token holder may not react again."""
    scn = scenario([unit("A", (24, 5)), unit("A2", (30, 5))], [unit("B", (24, 15))])
    g = begin(scn, SHOT_MISS * 2, options=RX)
    activate(g, 0)
    g.apply(("shoot", 2, "all"))
    g.apply(("shoot", 0, "all"))  # B fires back: a reaction token
    assert g.dice.remaining == 0
    g.apply(("end",))
    activate(g, 2)  # B's own activation, the same turn
    assert g.actions_left == 1 and last_event(g, "ReactionTokenCost")["unit"] == 2
    g.apply(("end",))
    activate(g, 1)
    add_dice(g, *SHOT_MISS)
    g.apply(("shoot", 2, "all"))  # B holds a token: no reaction decision, the shot resolves at once
    assert g.dice.remaining == 0 and g.decision().kind == "action" and g.decision().unit == 1
    add_dice(g, ("d8", 8), ("d8", 1))  # the next turn's initiative
    g.apply(("end",))
    assert last_event(g, "ReactionTokensRemoved")["units"] == [2] and g.turn == 2
    g.apply(("second",))
    activate(g, 2)
    assert g.actions_left == 2 and not events_of(g, "ReactionTokenCost")[1:]


def test_S001_129_a_suppressed_unit_may_not_react():
    """S001:129 "A unit can only react if it does not have a Reaction or Suppression token"."""
    g = begin(pair(), SHOT_MISS, options=RX)
    g.units[1].suppression = 1  # the position: B carries a suppression marker
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.decision().kind == "action" and g.dice.remaining == 0 and not events_of(g, "ReactionTaken")


def test_S001_135_a_move_reaction_when_the_mover_ends_within_12_inches():
    """S001:135 "A unit may react to an enemy that begins or ends its movement within 12"": A begins 14" from B and
    ends 8" away: B may react after the move (not before it), at the mover only."""
    g = begin(pair(b=(24, 19)), [("d6", 3)], options=RX)
    activate(g, 0)
    g.apply(("move", 0, 1))  # 6" north
    d = g.decision()
    assert (d.side, d.kind) == (1, "reaction_choice") and d.options == (("choose", 1), ("decline",))
    assert g.units[0].y == 11.0 and last_event(g, "Moved")
    g.apply(("choose", 1))
    assert {o[1] for o in g.decision().options if o[0] == "shoot"} == {0}


def test_S001_139_a_reaction_shot_opens_no_reaction():
    """S001:139 "Units cannot react to a Reaction": B's shot back at A2 (not the firer) is impossible, and the shot
    back at A gives A2, 12" from B, no chance to react."""
    scn = scenario([unit("A", (24, 5)), unit("A2", (30, 8))], [unit("B", (24, 15))])
    g = begin(scn, SHOT_MISS * 2, options=RX)
    activate(g, 0)
    g.apply(("shoot", 2, "all"))
    assert {o[1] for o in g.decision().options if o[0] == "shoot"} == {0}  # S001:131 must target the attacker
    g.apply(("shoot", 0, "all"))
    assert g.decision().kind == "action" and g.dice.remaining == 0
    assert [e["unit"] for e in events_of(g, "ReactionTaken")] == [2]


def test_RN_1807_a_heavy_weapons_fire_opens_no_attack_reaction():
    """S001:131 against the recorded limit RN-1807: only the Shoot Action opens the attack-reaction window; a heavy
    weapon's fire at a unit within 12" is resolved with no reaction (the limit holds)."""
    scn = scenario([unit("Gun", (24, 5), figures=(("rifle", 3),), heavy_weapon="hmg_team")], [unit("B", (24, 15))])
    g = begin(scn, options=RX)
    activate(g, 0)
    assert ("fire_heavy", 1) in g.decision().options
    add_dice(g, *[1] * 3, ("d6", 1), ("d6", 1))
    n = g.dice.pos
    g.apply(("fire_heavy", 1))
    assert not events_of(g, "ReactionTaken") and g.decision().kind != "reaction" and g.dice.pos > n


# ============================================================================================== interrupt
INT = {"interrupt": True}
NO_SPOT = [("d10", 9), ("d8", 5), ("d4", 1)]  # the range die (D10 at 12-24") beats both the quality and sensor dice


def test_S004_375_an_activated_unit_may_not_interrupt():
    """S004:375 "an element must not have already Activated during the current combat round"."""
    g = begin(pair(b=(24, 20)), first=1, options=INT)
    activate(g, 1)
    assert g.decision().kind == "interrupt"  # A, not yet activated, may interrupt B: it declines
    g.apply(("decline",))
    g.apply(("end",))
    activate(g, 0)
    assert g.decision().kind == "action"  # no interrupt offer at the start of A's activation
    add_dice(g, ("d6", 3))
    g.apply(("move", 0, 1))
    assert g.decision().kind == "action" and not events_of(g, "InterruptDeclared")


def test_S004_375_a_suppressed_or_shaken_unit_may_not_interrupt():
    """S004:375 "must not have any Morale or Suppression markers" (RN-1821: shaken or worse)."""
    from dustup_env.rules.kernel.entities import SHAKEN
    for field_, value in (("suppression", 1), ("confidence", SHAKEN)):
        g = begin(pair(b=(24, 20)), options=INT)
        setattr(g.units[1], field_, value)  # the position
        activate(g, 0)
        assert g.decision().kind == "action", field_


def test_S004_377_S004_395_a_failed_spot_roll_fails_the_interrupt_and_the_activation_is_forfeited():
    """S004:395 "If the Spot roll fails, the Interrupt action fails"; S004:377 "The element has forfeited their next
    Activation" (RN-1823: forfeited when declared)."""
    g = begin(pair(b=(24, 20)), NO_SPOT, options=INT)
    activate(g, 0)
    d = g.decision()
    assert (d.side, d.kind) == (1, "interrupt") and ("choose", 1) in d.options
    g.apply(("choose", 1))
    s = last_event(g, "InterruptSpotRolled")
    assert s["spotted"] is False and not events_of(g, "ShotResolved")
    assert g.units[1].activated and g.decision().kind == "action" and g.dice.remaining == 0


def test_S004_405_a_failed_morale_response_a_suppression_marker_and_the_move_stops_there():
    """S004:387 the mover stops where the interrupting player says; S004:405 "If they fail, they gain a Suppression
    marker and do not Move at all" (RN-1825: the quality die against the leadership)."""
    spot = [("d10", 1), ("d8", 5), ("d4", 1)]
    g = begin(pair(b=(24, 20)), [("d6", 3)] + spot + [6, ("d8", 1), ("d6", 1)] + [("d8", 2)], options=INT)
    activate(g, 0)
    g.apply(("decline",))
    g.apply(("move", 0, 1))
    g.apply(("hold_fire",))
    g.apply(("choose", 1))  # at 6.0
    g.apply(next(o for o in g.decision().options if o[0] == "shoot"))
    r = last_event(g, "InterruptResponse")
    assert (r["roll"], r["passed"]) == (2, False)
    assert g.units[0].suppression == 1 and g.units[0].y == 6.0 and g.dice.remaining == 0


# ============================================================================================== building assault
D20 = {"building_assault": "d20"}
NEXT_TURN = [("d8", 8), ("d8", 1)]  # the next turn's initiative


def assault(red_figures=(("rifle", 2),), blue_figures=(("rifle", 3),), at=(24, 23)):
    blue = [unit("Stormers", at, figures=blue_figures)]
    red = [unit("B", (24, 28.5), figures=red_figures)]
    return bfield(blue=blue, red=red, options=D20, buildings=[{"feature": "Farmhouse", "armour": "brick"}])


def test_S004_93_S004_97_within_6_inches_and_two_assaulters():
    """S004:93 "Element must be within 6" of the target building"; S004:97 "a minimum of two assaulters per room"."""
    for at, figures, offered in (((24, 21), (("rifle", 2),), True), ((24, 20.9), (("rifle", 2),), False),
                                 ((24, 23), (("rifle", 1),), False)):
        g = begin(assault(blue_figures=figures, at=at))
        activate(g, 0)
        assert (("building_assault", 1) in g.decision().options) is offered, (at, figures)


def test_S004_103_S004_105_the_grenade_13_plus_is_a_d10_7_plus():
    """S004:103-105 (RN-1711): 1-12 Stunned (suppressed), 13+ Combat Ineffective (a casualty): on a D10, 6 stuns and
    7 is a casualty; the room's defenders then fight suppressed."""
    g = begin(assault())
    activate(g, 0)
    # melee: the stormers D8 + 2 (three against one) = D12, rolls 1 1 1; the defender D8 - 2 (suppressed) = D4, 1
    add_dice(g, ("d10", 6), ("d10", 7), ("d12", 1), ("d12", 1), ("d12", 1), ("d4", 1), PASS,
             *NEXT_TURN)  # both units activated by the assault (L699): the turn ends
    g.apply(("building_assault", 1))
    gr = last_event(g, "GrenadeThrown")
    assert (gr["rolls"], gr["casualties"]) == ([6, 7], 1)
    m = last_event(g, "RoomMelee")
    assert (m["attacker_die"], m["defender_die"], m["outcome"]) == ("d12", "d4", "miss")
    assert g.units[1].suppression == 1 and g.dice.remaining == 0


def test_S004_138_both_miss_no_damage_and_S004_139_each_critical_adds_a_casualty():
    """S004:138 "If both attacker and defender Miss: No Damage"; S004:135, 139: more successes kill one defender and
    "a roll of 1 always inflicts an additional casualty" (RN-1712: the die's highest face)."""
    g = begin(assault(red_figures=(("rifle", 3),)))
    activate(g, 0)
    # grenade: all three stunned; melee 3 against 3: stormers D8, defenders D8 - 2 = D4
    add_dice(g, ("d10", 1), ("d10", 1), ("d10", 1),
             ("d8", 8), ("d8", 5), ("d8", 1),  # two successes, one of them the critical 8
             ("d4", 1), ("d4", 3), ("d4", 2),  # none
             ("d4", 1), ("d4", 1),  # two casualties allocated among the three defenders
             PASS,  # the defender's test for casualties
             *NEXT_TURN)
    g.apply(("building_assault", 1))
    m = last_event(g, "RoomMelee")
    assert (m["outcome"], m["defender_casualties"], m["attacker_casualties"]) == ("attacker", 2, 0)
    assert sum(f.status == WOUNDED for f in g.units[1].figures) == 2 and g.dice.remaining == 0


def test_L2046_a_parents_call_to_its_detachment_may_be_jammed():
    """L2046 "An EW unit may attempt to jam enemy communications": the leader's attempt to activate its detachment
    out of the 6" automatic range is a rolled communication (seed 000 "Detach Element"), so the EW side is asked at
    the start of that unit's activation, as for a commander's (RN-1942)."""
    g = begin(scenario([unit("S", (10, 5), figures=(("rifle", 6),))], [unit("R", (24, 44), ew="average")]), first=1)
    activate(g, 1)
    g.apply(("ew_on",))
    g.apply(("end",))
    activate(g, 0)
    g.apply(("detach", "half"))
    det = g.units[-1]
    det.x, det.y = 40.0, 5.0  # the position: the detachment 30" off
    add_dice(g, ("d8", 8), ("d8", 1))  # the next turn's initiative: Blue first, R's counters still held
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    d = g.decision()
    assert (d.side, d.kind) == (1, "choose") and ("ew_watch", 1, 1) in d.options
    g.apply(("ew_watch", 1, 1))
    add_dice(g, ("d8", 6), ("d8", 7))  # the communication 6 beats the LV; the EW D8 7 exceeds it
    g.apply(("activate_detachment", det.uid))
    e = last_event(g, "EWAttempt")
    assert (e["task"], e["roll"], e["against_roll"], e["success"]) == ("jam", 7, 6, True)
    assert g.decision().unit == 0 and g.dice.remaining == 0


def test_L2046_a_fire_support_request_may_be_jammed():
    """L2046 with L967 ("a unit spotting for artillery or air attack" communicates) and RN-1404 (the request roll is
    the call itself, jammed as a communication): the EW die exceeding the request roll makes the request fail
    (RN-1943)."""
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo")], [unit("R", (24, 40), ew="average")])
    scn["sides"][0]["fire_support"] = [{"name": "Battery", "firer": "battalion"}]
    g = begin(scn, first=1)
    activate(g, 1)
    g.apply(("ew_on",))
    g.apply(("end",))
    activate(g, 0)
    d = g.decision()
    assert (d.side, d.kind) == (1, "choose") and ("ew_watch", 1, 1) in d.options
    g.apply(("ew_watch", 1, 1))
    add_dice(g, ("d8", 5), ("d8", 6))  # the request D8 5 exceeds LV 1 + 0; the EW D8 6 exceeds it
    g.apply(("request_fire", 0, 0))
    assert last_event(g, "FireSupportRequested")["success"] is False
    e = last_event(g, "EWAttempt")
    assert (e["task"], e["target"], e["roll"], e["against_roll"], e["success"]) == ("jam", -1, 6, 5, True)
    assert g.decision().kind == "action" and g.dice.remaining == 0


def test_S004_137_a_deadlock_without_the_defender_outnumbered_costs_no_one():
    """S004:137 "Deadlock - no one gains the upper hand, so no Damage is inflicted ... If the defender is outnumbered,
    the defending force and attacking force take one casualty each": three against three, one success each."""
    g = begin(assault(red_figures=(("shotgun", 3),)))
    activate(g, 0)
    # grenade: all stunned; the stormers D8; the defenders D8 - 2 (suppressed) + 3 (three shotguns as SMGs) = D10
    add_dice(g, ("d10", 1), ("d10", 1), ("d10", 1), ("d8", 5), ("d8", 1), ("d8", 1), ("d10", 5), ("d10", 1),
             ("d10", 1), *NEXT_TURN)
    g.apply(("building_assault", 1))
    m = last_event(g, "RoomMelee")
    assert (m["defender_die"], m["outcome"], m["attacker_casualties"], m["defender_casualties"]) == \
        ("d10", "deadlock", 0, 0)
    assert last_event(g, "BuildingAssaultEnded")["cleared"] is False and g.dice.remaining == 0


def test_L2072_the_unit_carries_enough_drones_to_launch_again_after_a_crash():
    """L2072 "Units equipped with them carry several (enough for the whole battle) and the drones are expendable":
    a drone lost, the operator launches another at its next activation."""
    g = begin(drone_field(red=[unit("B", (44, 46))]))
    activate(g, 0)
    g.apply(("drone_launch",))
    g.apply(("prop",))  # another action: the drone crashes
    assert last_event(g, "DroneCrashed")["reason"] == "action"
    activate(g, 1)
    add_dice(g, ("d8", 8), ("d8", 1))
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    assert ("drone_launch",) in g.legal_options()


def test_RN_1944_an_interrupt_is_a_shoot_action_a_heavy_weapon_does_not_take_part():
    """S004:397 "a single free attack with any weapon in their inventory" against the recorded limit RN-1944: the
    interrupt's attack is one of the unit's Shoot Action options, so an HMG team interrupts with its rifles, not its
    HMG (as reactions, RN-1807)."""
    scn = scenario([unit("A", (24, 5))], [unit("Gun", (24, 20), figures=(("rifle", 3),), heavy_weapon="hmg_team")])
    g = begin(scn, [("d10", 1), ("d8", 5), ("d4", 1)], options=INT)
    activate(g, 0)
    g.apply(("choose", 1))
    d = g.decision()
    assert d.kind == "interrupt_fire" and {o[0] for o in d.options} == {"shoot"}
