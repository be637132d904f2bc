"""Buildings and Fortifications (seed 000 L1996-2022) and seed 004's building assault (S004:87-139, game option
``building_assault: "d20"``).  Forced dice; the seed line in each docstring; readings RN-1700..RN-1713."""
from __future__ import annotations

import json
import random

import pytest
from conftest import SIDE0_WINS, activate, add_dice, events_of, last_event, rect, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.observation import Observer
from dustup_env.rules import Game, ScenarioError, ScriptedDice
from dustup_env.rules.additional_rules import buildings as B
from dustup_env.rules.additional_rules.building_assault import melee_die
from dustup_env.rules.additional_rules.buildings_observation import BUILDING_FEATURES
from dustup_env.rules.kernel.attack import Source, burst
from dustup_env.rules.kernel.dice import D4, D6, D8, D12
from dustup_env.rules.kernel.entities import OK, WOUNDED

HOUSE = rect("building", 20, 27, 28, 33, name="Farmhouse")


def field(blue=None, red=None, buildings=None, options=None, terrain=None):
    """Blue HMG team (uid 0) 21" south of the Farmhouse (20..28 x 27..33) with a door at (24, 27); red squad B
    (uid 1 or later) inside it."""
    blue = blue if blue is not None else [unit("Gun", (24, 6), figures=(("rifle", 3),), heavy_weapon="hmg_team")]
    red = red if red is not None else [unit("B", (24, 30), figures=(("rifle", 2),))]
    scn = scenario(blue, red, terrain=terrain if terrain is not None else [HOUSE], options=options)
    scn["buildings"] = buildings if buildings is not None else [
        {"feature": "Farmhouse", "armour": "brick", "openings": [{"kind": "door", "position": [24, 27]}]}]
    return scn


def started(scn, dice=(), options=None):
    g = Game(scn, seed=0, options=options, dice=ScriptedDice(SIDE0_WINS + list(dice)))
    g.apply(("first",))
    return g


def house(g):
    return B.buildings(g)[0]


# ---------------------------------------------------------------------------------------------- the scenario
def test_a_declared_building_is_a_public_entity_with_its_armour_and_size():
    """L1998 (point targets with a size class), L2006 (an armour class as for vehicles), L2014-2022 (the table),
    RN-1700 (the size: the scenario's, default 3)."""
    g = started(field())
    e = house(g)
    assert e["kind"] == "building" and e["known"] == "public" and (e["x"], e["y"]) == (24.0, 30.0)
    st = e["state"]
    assert (st["armour"], st["size"], st["damage"], st["destroyed"]) == ("d12x2", 3, 0, False)
    assert st["openings"] == [{"kind": "door", "armour": "d6", "x": 24.0, "y": 27.0, "breached": False}]
    assert g.view(0)["entities"] == g.view(1)["entities"] and g.view(0)["entities"][0]["kind"] == "building"
    # an armour on the terrain feature itself is the same (per-feature scenario data)
    scn = field(buildings=[], terrain=[dict(HOUSE, armour="bunker", size=4)])
    del scn["buildings"]
    st = house(Game(scn, seed=1))["state"]
    assert (st["armour"], st["size"]) == ("d12x5", 4)


def test_scenarios_without_building_armour_do_not_have_the_rules():
    """The rule is switched on by the scenario's contents (L2008: "agree before the game"): shipped scenarios are
    unchanged."""
    for name in ("default", "skirmish", "armour"):
        g = Game(name, seed=1)
        assert "Buildings and Fortifications" not in [r.name for r in g.rules.rules] and not g.entities
    g = Game("default", seed=1, options={"building_assault": "d20"})  # the option alone adds nothing
    assert not any(r.name.startswith("Building") for r in g.rules.rules)


@pytest.mark.parametrize("change, message", [
    (lambda b: b.update(armour="mud"), "does not match"),
    (lambda b: b.update(feature="Nowhere"), "give a polygon or the name of a terrain feature"),
    (lambda b: b.update(size=0), "less than the minimum"),
    (lambda b: b.update(weapons=["no_such_gun"]), "unknown design 'no_such_gun'"),
    (lambda b: b.update(openings=[{"kind": "hatch", "position": [1, 1]}]), "is not one of"),
])
def test_bad_building_data_is_one_clear_line(change, message):
    scn = field()
    change(scn["buildings"][0])
    with pytest.raises(ScenarioError, match=message) as err:
        Game(scn, seed=1)
    assert "\n" not in str(err.value)


def test_a_building_option_value_is_checked():
    with pytest.raises(ScenarioError, match="building_assault must be one of dustup, d20"):
        Game(field(), seed=1, options={"building_assault": "d12"})


# ---------------------------------------------------------------------------------------------- engaging
# the HMG team (D8 quality, APSW D6+D6, impact D8 vs armour, inferior fire control) 21" from the wall: the target die
# D8 (the building larger than the weapon -1, inferior fire control +1)
MAJOR_2 = [("d8", 2), ("d8", 8), ("d6", 4), ("d6", 4)]  # 3 successes, 16 / 8 = 2 hits, no remainder


def test_a_heavy_weapon_engages_the_building_as_a_vehicle_and_its_occupants_are_suppressed_and_hurt():
    """L1998 "engaged as if they are a vehicle" (target die by size, impact against armour: L1433-1435), L2004
    "Suppression of a building suppresses its occupants", L2008 occupants' casualties (RN-1703: a damaged vehicle's
    passengers, L1443: the armour roll must exceed the weapon class)."""
    g = started(field())
    activate(g, 0)
    assert ("fire_building", 0, 0, 0) in g.decision().options and ("fire_building", 0, 1, 0) in g.decision().options
    add_dice(g, *MAJOR_2,
             ("d8", 5),  # B's confidence test: first under fire / first suppressed (the building suppressed)
             ("d8", 7), ("d12x2", 3),  # hit 1: 7 beats 3 (not double): damaged
             ("d8", 2), ("d12x2", 9),  # hit 2: no effect
             ("d4", 1), ("d4", 3),  # the occupants' armour: 1 is not above class 1 (wounded), 3 is
             ("d8", 8))  # B's test for casualties
    g.apply(("fire_building", 0, 0, 0))
    assert g.dice.remaining == 0
    b = g.units[1]
    assert b.suppression == 1 and [f.status for f in b.figures] == [WOUNDED, OK]
    assert last_event(g, "BuildingFired")["target_die"] == "d8"
    assert [(h["impact"], h["armour"], h["result"]) for h in events_of(g, "BuildingHit")] == [(7, 6, "damaged"),
                                                                                             (2, 18, "none")]
    assert house(g)["state"]["damage"] == 1 and last_event(g, "BuildingSuppressed")["entity"] == 0
    assert last_event(g, "Suppressed") == {"type": "Suppressed", "unit": 1, "markers": 1}
    assert [(o["roll"], o["needed"]) for o in events_of(g, "OccupantHit")] == [(1, 1), (3, 1)]
    assert ("fire_building", 0, 0, 0) not in g.decision().options  # the weapon fired this activation


def test_more_than_double_destroys_the_building_into_rubble():
    """L1435 (more than double: destroyed), L2008 "Usually it should result in rubble which may still serve as
    cover": rough ground replaces it (dynamic terrain); the occupants must score more than double the class."""
    g = started(field())
    activate(g, 0)
    add_dice(g, *MAJOR_2, ("d8", 5), ("d8", 8), ("d12x2", 1),  # 8 > 2 x 2: destroyed (the second hit is not rolled)
             ("d4", 2), ("d4", 3),  # more than double class 1 needed: 2 is not (wounded), 3 is
             ("d8", 8))
    g.apply(("fire_building", 0, 0, 0))
    assert g.dice.remaining == 0
    e = house(g)
    assert e["state"]["destroyed"] and last_event(g, "BuildingDestroyed")["how"] == "rubble"
    assert g.terrain == [{"kind": "rubble", "shape": "polygon", "points": B.outline(e), "entity": 0}]
    assert g.bf.terrain_at(24, 30) == "rough" and g.bf.cover_at(24, 30) == 1  # soft cover still
    assert [f.status for f in g.units[1].figures] == [WOUNDED, OK]
    assert B.parts(e) == [] and not [o for o in g.decision().options if o[0] == "fire_building"]


def test_a_breach_leaves_the_building_standing_but_no_longer_a_target():
    """L2008 "alternatively it may simply mean a breach has been created": ``if_destroyed: breach``."""
    scn = field(buildings=[{"feature": "Farmhouse", "armour": "d6", "if_destroyed": "breach"}])
    g = started(scn)
    activate(g, 0)
    add_dice(g, *MAJOR_2, ("d8", 5), ("d8", 7), ("d6", 3), ("d4", 3), ("d4", 3))
    g.apply(("fire_building", 0, 0, 0))
    assert g.dice.remaining == 0
    st = house(g)["state"]
    assert st["destroyed"] and st["breached"] and g.terrain == [] and g.bf.terrain_at(24, 30) == "building"


def test_a_door_is_a_smaller_target_and_a_miss_may_strike_the_building():
    """L2000-2002: a door is "one or two sizes smaller" (RN-1701: a door one, a window two); "If the shot misses,
    roll a D6. If the result is less than the size class of the building ... still struck the building"."""
    g = started(field())
    e = house(g)
    assert B.part_size(e, 1) == 2
    activate(g, 0)
    # the door (size 2, still larger than the weapon): the same D8; a miss, then the D6: 2 < 3 strikes the building
    add_dice(g, ("d8", 8), ("d8", 1), ("d6", 1), ("d6", 1), ("d6", 2), ("d8", 3), ("d12x2", 4))
    g.apply(("fire_building", 0, 1, 0))
    assert g.dice.remaining == 0
    assert last_event(g, "OpeningMissed") == {"type": "OpeningMissed", "entity": 0, "part": 1, "roll": 2,
                                              "struck_building": True}
    assert last_event(g, "BuildingHit")["part"] == 0 and g.units[1].suppression == 0  # a stray hit: no suppression
    # a D6 of 3 (not less than the size class 3) misses the building altogether
    g = started(field())
    activate(g, 0)
    add_dice(g, ("d8", 8), ("d8", 1), ("d6", 1), ("d6", 1), ("d6", 3))
    g.apply(("fire_building", 0, 1, 0))
    assert g.dice.remaining == 0 and not events_of(g, "BuildingHit")


def test_a_hit_that_beats_the_door_breaches_it():
    """L2000 a door as a target with its own armour (L2019: door D6); RN-1701: beating it breaches it and the
    occupants roll as for a damaged building."""
    g = started(field())
    activate(g, 0)
    add_dice(g, ("d8", 2), ("d8", 8), ("d6", 4), ("d6", 4), ("d8", 5),  # 2 hits, B suppressed and tested
             ("d8", 5), ("d6", 2),  # 5 beats the door's 2: breached (no more rolls)
             ("d4", 4), ("d4", 4))  # the occupants unharmed: no test for casualties
    g.apply(("fire_building", 0, 1, 0))
    assert g.dice.remaining == 0
    assert house(g)["state"]["openings"][0]["breached"] and B.parts(house(g)) == [0]


def test_a_vehicle_weapon_fires_at_the_building():
    """L1998 (a vehicle's weapons engage it as they would a vehicle: Fire by Vehicles' weapon slots, each once an
    activation)."""
    g = Game(field(blue=[vehicle("T", (24, 8), "light_tank")]), seed=3)
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    if g.decision().side != 0:
        g.apply(("activate", 1))
        g.apply(("end",))
    activate(g, 0)
    fb = [o for o in g.decision().options if o[0] == "fire_building"]
    assert fb and {o[1] for o in fb} == {0} and {o[2] for o in fb} == {0, 1}
    g.apply(fb[0])
    assert last_event(g, "BuildingFired")["unit"] == 0
    assert g.decision().kind == "action" and fb[0] not in g.decision().options


def test_a_point_attack_strikes_the_building_and_suppresses_occupants_outside_the_burst():
    """Fire support (L1683-1687 point attacks) on a building engaged as a vehicle (L1998): the kernel's burst
    strikes it once with the round's impact against armour (``point_targets``); occupants not caught are
    suppressed through it (L2004)."""
    g = started(field())
    add_dice(g, ("d8", 5),  # B's test (suppressed through the building)
             ("d12", 12), ("d12x2", 5),  # 12 beats 5 x 2 (not more than double): damaged
             ("d4", 4), ("d4", 4))
    res = burst(g, Source.at_point(24, 25, 3.0), D12)  # 2" short of the wall: B's figures 5" away
    assert g.dice.remaining == 0
    assert res.struck == {} and house(g)["state"]["damage"] == 1 and g.units[1].suppression == 1
    assert B.impact_class(D12) == 1 and B.impact_class(D12 + 2) == 3


# ---------------------------------------------------------------------------------------------- fortifications
def bunker(weapons=("hmg_team",)):
    red = [unit("Crew", (24, 28), figures=(("rifle", 3),))]  # 1" inside: it sees out (a building's 2" depth)
    blue = [unit("A", (24, 6), figures=(("rifle", 3),))]
    return field(blue=blue, red=red, buildings=[{"feature": "Farmhouse", "armour": "bunker", "weapons": list(weapons),
                                                 "structure": "Fort"}])


def test_a_fortification_mounts_weapons_its_occupants_fire():
    """L2010 "Fortifications may mount weaponry just as a vehicle" (RN-1704: a heavy-weapon design the occupying
    unit serves, each once a turn)."""
    g = started(bunker())
    g.apply(("activate", 0))
    g.apply(("end",))
    activate(g, 1)
    opts = [o for o in g.decision().options if o[0] == "fire_fortification"]
    assert opts == [("fire_fortification", 0, 0)]
    add_dice(g, ("d12", 12), ("d8", 1), ("d6", 1), ("d6", 1))  # a miss (the line leaves the building: concealed)
    g.apply(opts[0])
    assert last_event(g, "HeavyWeaponFired")["unit"] == 1 and house(g)["state"]["fired"] == [0]
    assert not [o for o in g.decision().options if o[0] == "fire_fortification"]
    # a unit outside the fortification has no such option
    scn = bunker()
    scn["sides"][1]["units"][0]["position"] = [24.0, 40.0]
    g = started(scn)
    g.apply(("activate", 0))
    g.apply(("end",))
    activate(g, 1)
    assert not [o for o in g.decision().options if o[0] == "fire_fortification"]


def test_modules_of_a_very_large_structure_are_targets_of_their_own():
    """L1998 "Very large structures are considered to be made up of modules" (RN-1705: buildings sharing a
    ``structure`` name)."""
    from dustup_env.rules.additional_rules.fortifications import structures
    scn = field(buildings=[{"name": "West wing", "polygon": [[20, 27], [24, 27], [24, 33], [20, 33]],
                            "armour": "steel", "structure": "Fort"},
                           {"name": "East wing", "polygon": [[24, 27], [28, 27], [28, 33], [24, 33]],
                            "armour": "steel", "structure": "Fort"}])
    g = started(scn)
    assert [e["state"]["name"] for e in structures(g)["Fort"]] == ["West wing", "East wing"]
    activate(g, 0)
    assert {o[1] for o in g.decision().options if o[0] == "fire_building"} == {0, 1}
    B.destroy(g, B.buildings(g)[0])
    assert B.parts(B.buildings(g)[0]) == [] and B.parts(B.buildings(g)[1]) == [0]


# ---------------------------------------------------------------------------------------------- the observation
def test_the_buildings_piece_shows_damage_rubble_and_only_known_occupants():
    scn = field()
    g = started(scn)
    obs = Observer.for_game(g)
    obs.observation(g, 0)
    v = obs.dict["buildings"][0]
    names = BUILDING_FEATURES
    assert v[names.index("present")] == 1.0 and v[names.index("enemy_occupants")] == 1.0
    assert v[names.index("own_occupants")] == 0.0 and v[names.index("destroyed")] == 0.0
    B.destroy(g, house(g))
    obs.observation(g, 0)
    assert obs.dict["buildings"][0][names.index("destroyed")] == 1.0
    obs.observation(g, 1)
    assert obs.dict["buildings"][0][names.index("own_occupants")] == 1.0


# ---------------------------------------------------------------------------------------------- seed 004
def assault_field(options=None, red_figures=(("rifle", 2),), rooms=1):
    blue = [unit("Stormers", (24, 23), figures=(("shotgun", 1), ("rifle", 2)))]
    red = [unit("B", (24, 28.5), figures=red_figures)]
    return field(blue=blue, red=red, options=options,
                 buildings=[{"feature": "Farmhouse", "armour": "brick", "rooms": rooms}])


def test_the_d20_option_replaces_the_assault_on_a_unit_in_a_building():
    """S004:93 within 6" of the building; S004:97 two assaulters at least; the default keeps Dustup's Assault
    Action (RN-1710)."""
    g = started(assault_field())
    activate(g, 0)
    kinds = {o[0] for o in g.decision().options}
    assert "assault" in kinds and "building_assault" not in kinds
    g = started(assault_field(options={"building_assault": "d20"}))
    activate(g, 0)
    kinds = {o[0] for o in g.decision().options}
    assert "building_assault" in kinds and "assault" not in kinds
    scn = assault_field(options={"building_assault": "d20"})
    scn["sides"][0]["units"][0]["position"] = [24.0, 20.0]  # 7" from the wall
    g = started(scn)
    activate(g, 0)
    assert "building_assault" not in {o[0] for o in g.decision().options}


def test_a_room_is_cleared_by_the_grenade_then_the_melee():
    """S004:98-105 one grenade per room, damage per occupant (RN-1711: D10 7+ a casualty, else stunned: a
    suppression marker); S004:107-139 the follow-up melee (RN-1712: shifted quality dice, 4+ a success, the highest
    face a critical; more successes kill one)."""
    g = started(assault_field(options={"building_assault": "d20"}))
    activate(g, 0)
    a, d = g.units[0], g.units[1]
    add_dice(g, ("d10", 7), ("d10", 3),  # grenade: the first defender hit, the second stunned
             # melee: the stormers D8 +1 (a shotgun) +2 (three against one) = D12 ... (shift closed at D12)
             ("d12", 5), ("d12", 2), ("d12", 3),
             ("d8", 2),  # the defender: D8 suppressed -2 = D4 ... its roll 2 on a D4 (the die below)
             )
    # the script above names the defender's die as D8 on purpose: the rules must roll a D4
    with pytest.raises(Exception, match="expected d8 but the rules rolled d4"):
        g.apply(("building_assault", 1))
    g = started(assault_field(options={"building_assault": "d20"}))
    activate(g, 0)
    a, d = g.units[0], g.units[1]
    add_dice(g, ("d10", 7), ("d10", 3), ("d12", 5), ("d12", 2), ("d12", 3), ("d4", 2))
    g.apply(("building_assault", 1))
    assert g.dice.remaining == 0  # the defender out of play takes no test; the stormers lost no one
    melee = last_event(g, "RoomMelee")
    assert (melee["attacker_die"], melee["defender_die"], melee["outcome"]) == ("d12", "d4", "attacker")
    assert last_event(g, "GrenadeThrown")["rolls"] == [7, 3]
    assert [f.status for f in d.figures] == [WOUNDED, WOUNDED] and not d.in_play
    assert last_event(g, "BuildingAssaultEnded")["cleared"] and (a.x, a.y) == (24.0, 28.5)  # occupies the building


def test_the_melee_die_follows_the_assault_modifiers():
    """S004:117-126 (RN-1712): suppressed -2 steps, hesitant (propped) -1, +1 per SMG (pistol, shotgun), +1 per
    fighter over the other side's number; closed at D4 and D12."""
    g = started(assault_field())
    a = g.units[0]
    assert melee_die(a, [1, 2], 2) == D8
    assert melee_die(a, [0, 1, 2], 1) == D12  # a shotgun +1, two over +2: D8 +3, closed at D12
    a.suppression = 1
    assert melee_die(a, [1, 2], 2) == D4 + 0
    a.suppression, a.propped = 0, True
    assert melee_die(a, [1, 2], 2) == D6


def test_deadlock_with_the_defender_outnumbered_costs_one_casualty_each():
    """S004:137 "If the defender is outnumbered, the defending force and attacking force take one casualty each"."""
    g = started(assault_field(options={"building_assault": "d20"}, red_figures=(("rifle", 1),)))
    activate(g, 0)
    a, d = g.units[0], g.units[1]
    # grenade: stunned; melee: the stormers D12 (shotgun +1, two over +2) one success (a 4); the defender D4 one (4,
    # the D4's highest face: a critical too)
    add_dice(g, ("d10", 1), ("d12", 4), ("d12", 1), ("d12", 1), ("d4", 4),
             ("d4", 2), ("d4", 2),  # the two attacker casualties allocated among three (the deadlock's, the critical's)
             ("d8", 8))  # the stormers' test for casualties (the defender is out of play)
    g.apply(("building_assault", 1))
    assert g.dice.remaining == 0
    melee = last_event(g, "RoomMelee")
    assert melee["outcome"] == "deadlock" and melee["defender_casualties"] == 1
    assert melee["attacker_casualties"] == 2 and [f.status for f in a.figures] == [OK, WOUNDED, WOUNDED]
    assert not d.in_play and last_event(g, "BuildingAssaultEnded")["cleared"]


# ---------------------------------------------------------------------------------------------- random games
def small_battle():
    blue = [unit("Assault", (12, 18), figures=(("shotgun", 2), ("rifle", 4))),
            unit("Gun", (24, 6), figures=(("rifle", 3),), heavy_weapon="hmg_team"),
            vehicle("Tank", (30, 8), "light_tank"),
            unit("Rifles", (8, 10), figures=(("rifle", 5),))]
    red = [unit("House", (12, 26), figures=(("rifle", 4),)), unit("Bunker", (26, 28), figures=(("rifle", 3),)),
           unit("Reserve", (30, 34), figures=(("assault_rifle", 4),))]
    d = scenario(blue, red, width=36, height=36, turn_limit=5,
                 terrain=[rect("building", 9, 23, 15, 29, name="House"),
                          rect("building", 23, 25, 29, 31, name="Bunker")])
    d["buildings"] = [{"feature": "House", "armour": "brick", "rooms": 2, "size": 2,
                       "openings": [{"kind": "door", "position": [12, 23]}, {"kind": "window", "position": [9, 26]}]},
                      {"feature": "Bunker", "armour": "d12", "if_destroyed": "breach", "weapons": ["hmg_team"]}]
    d["sides"][0]["fire_support"] = [{"name": "Mortars", "firer": "company", "size": "medium", "rounds": 2,
                                      "missions": 2, "from": "other_platoon"}]
    return d


BUILDING_OPTIONS = ("fire_building", "fire_fortification", "building_assault", "request_fire", "fire_mission")


def _policy(g, rng):
    opts = g.decision().options
    b = [o for o in opts if o[0] in BUILDING_OPTIONS]
    return rng.choice(b) if b and rng.random() < 0.7 else rng.choice(opts)


def test_random_games_with_buildings_keep_the_invariants_and_replay_exactly(monkeypatch):
    """50 random games of a small battle with buildings in play (the d20 building assault in half of them): the
    property invariants hold at every decision, a building's state only ever worsens, and a save, a snapshot and a
    copy taken mid-game play on identically."""
    import test_properties
    from test_properties import Invariants
    monkeypatch.setattr(test_properties, "PROCEDURE_KINDS",
                        test_properties.PROCEDURE_KINDS + ("fire_target", "fire_dummy"))  # fire support's markers
    scn = small_battle()
    seen = set()
    for i in range(50):
        g = Game(scn, seed=700 + i, options={"building_assault": "d20" if i % 2 == 0 else "dustup"})
        inv = Invariants(g)
        rng = random.Random(i)
        cut = 20 + 7 * i
        n = 0
        last = [(e["state"]["damage"], e["state"]["destroyed"]) for e in B.buildings(g)]
        while not g.over:
            opt = _policy(g, rng)
            seen.add(opt[0])
            g.apply(opt)
            n += 1
            inv.check(g)
            now = [(e["state"]["damage"], e["state"]["destroyed"]) for e in B.buildings(g)]
            assert all(b >= a for x, y in zip(last, now) for a, b in zip(x, y)), "a building was repaired"
            last = now
            if n == cut:
                h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
                s = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
                c = g.clone()
                assert h.state_digest() == s.state_digest() == c.state_digest() == g.state_digest()
                r2 = random.Random(1000 + i)
                while not g.over:
                    opts = g.decision().options
                    pick = _policy(g, r2)
                    for x in (g, h, s, c):
                        assert x.decision().options == opts
                        x.apply(pick)
                    inv.check(g)
                assert h.event_log() == g.event_log() == s.event_log() == c.event_log()
                assert h.entities == g.entities and h.terrain == g.terrain
                break
    assert {"fire_building", "building_assault", "fire_fortification"} <= seen, seen


def test_a_hidden_occupant_never_shows_in_the_other_sides_view_observation_or_log():
    """Twin games: red's hidden squad in the farmhouse and a dummy marker in the wood, or the other way round.
    Blue sees the same view, observation (the buildings piece counts only the occupants it knows of), options and
    log, also after its HMG fires at the farmhouse and suppresses whoever is inside (the occupant's own events are
    kept from blue's log: RN-1706)."""
    twins = []
    for inside in (True, False):
        red = [unit("B", (24, 30) if inside else (10, 40), figures=(("rifle", 2),), hidden=True)]
        scn = field(red=red, terrain=[HOUSE, rect("dense_woods", 6, 36, 14, 44, name="Wood")])
        scn["sides"][1]["dummies"] = [[10.0, 40.0] if inside else [24.0, 30.0]]
        twins.append(started(scn, [("d8", 2), ("d8", 8), ("d6", 1), ("d6", 1)]))  # a minor success: suppressed
    obs = [Observer.for_game(g) for g in twins]
    for g in twins:
        activate(g, 0)
    assert twins[0].view(0) == twins[1].view(0)
    assert (obs[0].observation(twins[0], 0) == obs[1].observation(twins[1], 0)).all()
    assert twins[0].decision().options == twins[1].decision().options
    for g in twins:
        add_dice(g, ("d8", 5))  # the occupant's test (only in the first twin)
        g.apply(("fire_building", 0, 0, 0))
    assert twins[0].units[1].suppression == 1 and twins[1].units[1].suppression == 0
    # the occupant's events reach blue only as the hidden-units rule's "hidden activity" (as for any event of a hidden
    # unit): nothing names it
    logs = [[e for e in g.event_log(0) if e["type"] != "HiddenActivity"] for g in twins]
    assert logs[0] == logs[1] and twins[0].view(0) == twins[1].view(0)
    assert not [e for e in twins[0].event_log(0) if 1 in (e.get("unit"), e.get("target"))]
    assert (obs[0].observation(twins[0], 0) == obs[1].observation(twins[1], 0)).all()


# ---------------------------------------------------------------------------------------------- bots
def _twins_with_hidden_occupant():
    out = []
    for inside in (True, False):
        red = [unit("B", (24, 30) if inside else (10, 40), figures=(("rifle", 2),), hidden=True)]
        scn = field(red=red, terrain=[HOUSE, rect("dense_woods", 6, 36, 14, 44, name="Wood")])
        scn["sides"][1]["dummies"] = [[10.0, 40.0] if inside else [24.0, 30.0]]
        out.append(started(scn))
    return out


def test_the_bots_fire_at_an_enemy_held_building_only_from_what_they_know():
    """agents/buildings.py: a heavy weapon with no shot at the occupants fires at the building that known enemies
    hold; a hidden occupant is not known, so twin games (the hidden squad inside or elsewhere) get the same choice."""
    from agents.base import make_agent
    for name in ("scripted", "hard"):
        g = started(field())
        activate(g, 0)
        assert make_agent(name, seed=1).choose(g, g.decision()) == ("fire_building", 0, 0, 0)
        twins = _twins_with_hidden_occupant()
        for t in twins:
            activate(t, 0)
        picks = [make_agent(name, seed=1).choose(t, t.decision()) for t in twins]
        assert picks[0] == picks[1] and picks[0][0] != "fire_building"


def test_the_bots_assault_a_weaker_building_and_make_for_a_building_by_their_objective():
    """agents/buildings.py: ``building_assault`` with two more able figures than the occupants; the goal of an
    infantry unit whose objective has a building within 8" is the building."""
    from agents.base import make_agent
    from agents.knowledge import Knowledge
    g = started(assault_field(options={"building_assault": "d20"}, red_figures=(("rifle", 1),)))
    activate(g, 0)
    assert make_agent("scripted", seed=1).choose(g, g.decision()) == ("building_assault", 1)
    scn = field(red=[unit("B", (24, 44), figures=(("rifle", 2),))])
    scn["objectives"] = [{"name": "Farm", "position": [24.0, 36.0], "vp": 1}]
    g = started(scn)
    bot = make_agent("scripted", seed=1)
    k = Knowledge(g, 1)
    assert bot._goal(k, g.units[1]) == (24.0, 30.0)
    assert make_agent("hard", seed=1)._goal(k, g.units[1]) == (24.0, 30.0)


def test_an_infantry_rocket_engages_the_building_as_a_vehicle():
    """L1256-1258 with L1998: an IAVR (k 1) at the building: the support-weapon range bands and no size shift; the
    rocket's own impact against the armour; a hidden firer is revealed by firing (as by any shot)."""
    blue = [unit("AT", (24, 20), figures=(("rifle", 2), ("bazooka", 1)))]
    g = started(field(blue=blue))
    activate(g, 0)
    assert ("fire_building", 0, 0, 1) in g.decision().options
    plan = B.rocket_plan(g, g.units[0], house(g), 0, 2)
    assert plan["target_die"] == D8 - 1 and plan["weapon_class"] == 1  # 7" from the wall: short range
    add_dice(g, ("d6", 6), ("d8", 1), ("d8", 1))  # a miss
    g.apply(("fire_building", 0, 0, 1))
    assert g.dice.remaining == 0 and last_event(g, "BuildingFired")["weapon"] == "bazooka"
    assert ("fire_building", 0, 0, 1) not in g.decision().options  # the rocket fired this activation
    from dustup_env.rules.unit_actions.hidden_units import REVEALING
    assert {"fire_building", "fire_fortification", "building_assault"} <= set(REVEALING)


def test_when_both_sides_miss_nobody_is_hurt():
    """S004:138 "If both attacker and defender Miss: No Damage is inflicted to either combatant": the defenders
    hold the room and the assault stops there (RN-1712); the grenade's stunned defenders are suppressed."""
    g = started(assault_field(options={"building_assault": "d20"}))
    activate(g, 0)
    a, d = g.units[0], g.units[1]
    add_dice(g, ("d10", 1), ("d10", 2),  # both stunned: a suppression marker
             ("d12", 1), ("d12", 2), ("d12", 3),  # the stormers' D12: no 4 or more
             ("d4", 1), ("d4", 2),  # the suppressed defenders' D4: none either
             ("d8", 8), ("d8", 1))  # both units activated: the turn ends, turn 2's initiative
    g.apply(("building_assault", 1))
    assert g.dice.remaining == 0
    melee = last_event(g, "RoomMelee")
    assert (melee["outcome"], melee["attacker_casualties"], melee["defender_casualties"]) == ("miss", 0, 0)
    assert d.suppression == 1 and all(f.status == OK for f in a.figures + d.figures)
    end = last_event(g, "BuildingAssaultEnded")
    assert not end["cleared"] and end["rooms_cleared"] == 0 and (a.x, a.y) == (24.0, 23.0)
    assert g.turn == 2 and g.decision().kind == "initiative"  # both units counted activated: the turn ended


def test_the_environment_encodes_the_buildings_options_and_observes_the_piece():
    """Every new choice reaches the environment: ``fire_building`` names the building by the side's entity ref (the
    codec's ``entity`` argument), and the observation of a game with buildings has the ``buildings`` piece."""
    from dustup_env.codec import ActionCodec
    g = started(field())
    activate(g, 0)
    codec = ActionCodec.for_game(g)
    d = g.decision()
    mask = codec.mask(g, d)
    for opt in [o for o in d.options if o[0] == "fire_building"]:
        a = codec.encode(g, 0, opt)
        assert mask[a] and codec.decode(g, 0, a) == opt
    obs = Observer.for_game(g)
    assert "buildings" in obs.dict and obs.dict["buildings"].shape == (32, len(BUILDING_FEATURES))
    assert "buildings" not in Observer.for_game(Game("default", seed=0)).dict


def test_building_geometry_is_converted_with_the_scenario():
    """The game option ``measure`` (RN-358): a building's own outline and its doors are converted like the rest."""
    scn = field(buildings=[{"name": "Hut", "polygon": [[20, 27], [28, 27], [28, 33], [20, 33]], "armour": "d6",
                            "openings": [{"kind": "window", "position": [20, 30]}]}])
    g = Game(scn, seed=1, options={"measure": "centimetres"})
    e = house(g)
    assert (e["x"], e["y"]) == (pytest.approx(24 * 2.54), pytest.approx(30 * 2.54))
    assert e["state"]["openings"][0]["x"] == pytest.approx(20 * 2.54)


def test_at_most_twelve_buildings_are_targets():
    """The table holds 32 entities (markers, mines and smoke too): a scenario gives at most 12 buildings an armour,
    refused in one line."""
    scn = field(buildings=[])
    del scn["buildings"]
    scn["terrain"] = [dict(rect("building", 2 * i, 40, 2 * i + 1, 41, name=f"B{i}"), armour="d6") for i in range(13)]
    with pytest.raises(ScenarioError, match="at most 12 buildings may be given an armour"):
        Game(scn, seed=1)
