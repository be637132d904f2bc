"""An independent forced-dice audit of seed 000's Additional Rules: Fire (L1864-1876), Smoke (L1878-1904) and Mines and
Explosives (L1924-1994), through the public API (Game, decisions and options, events, the rule modules' services).

Each test probes one rule as the seed words it (its lines cited) with dice forced through the conftest fixtures, and
checks that exactly the scripted dice were used.  Geometry: Blue (side 0) is south, Red (side 1) north; ``("move",
d, k)``: direction d (0 north, 4 east, 16 steps), distance index k (3", 6", 12", 24")."""
from __future__ import annotations

import pytest

from conftest import SIDE0_WINS, activate, add_dice, begin, events_of, rect, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.additional_rules import fire, smoke
from dustup_env.rules.artillery_and_air_support.impacts import resolve_mission
from dustup_env.rules.kernel.battlefield import observer_of
from dustup_env.rules.kernel.entities import KILLED, OK, WOUNDED

NORTH, EAST = 0, 4


def used_all(g):
    return g.dice.pos == len(g.dice.results)


def clouds(g, src=None):
    return [(f["x"], f["y"], f["r"]) for f in g.terrain
            if f["kind"] == "smoke" and (src is None or f.get("src") == src)]


def burning(g):
    return [(e["x"], e["y"]) for e in fire.fires(g)]


def fiery(blue=None, red=None, terrain=(), wind=3):
    """A game with the Fire and Smoke rules (a Red flame thrower far away brings them in)."""
    blue = blue if blue is not None else [unit("A", (24, 6), figures=(("rifle", 1),))]
    red = (red or []) + [unit("F", (2, 46), figures=(("rifle", 1),), flamer=True)]
    doc = scenario(blue, red, terrain=terrain)
    if wind is not None:
        doc["wind"] = wind
    return doc


def mined(blue, mines, red=None, **kw):
    doc = scenario(blue, red or [unit("B", (5, 45), figures=(("rifle", 3),))], **kw)
    doc["sides"][1]["mines"] = list(mines)
    return doc


def one(pos=(24, 14), n=1, **kw):
    return unit("A", pos, figures=(("rifle", n),), **kw)


# ============================================================================================== fire
@pytest.mark.parametrize("ground,roll,caught", [("light_woods", 2, False), ("light_woods", 3, True),
                                                ("open", 5, False), ("open", 6, True)])
def test_L1866_fire_ignition_3_to_6_when_flammable_else_only_6(ground, roll, caught):
    """L1866: "Roll a D6: if the area is particularly flamable, it will catch fire on a 3-6; otherwise it will only
    catch fire on a 6"."""
    terrain = [rect("light_woods", 16, 14, 32, 30)] if ground == "light_woods" else []
    doc = scenario([unit("F", (24, 10), figures=(("rifle", 1),), flamer=True)], [unit("R", (24, 44))],
                   terrain=terrain)
    doc["wind"] = 12
    g = begin(doc, [("d6", roll)] + ([("d6", 1)] if caught else []))
    activate(g, 0)
    g.apply(("ignite", 22.0, 15.0))
    assert used_all(g)
    (ev,) = events_of(g, "IgnitionRolled")
    assert ev["flammable"] is (ground == "light_woods") and ev["caught"] is caught
    assert burning(g) == ([(22.0, 15.0)] if caught else [])


@pytest.mark.parametrize("fire_y,tested", [(14.9, True), (15.1, False)])
def test_L1868_L1870_fire_burns_in_a_3_inch_radius(fire_y, tested):
    """L1868: "The fire is considered to be bunring in a 3" radius centred on the ignition point"; L1870: a model
    that moves within 3" rolls armour against D4.  The walker ends 6" north at y 12: 2.9" (tested) or 3.1" away."""
    g = begin(fiery(), [("d6", 1)])
    fire.start_fire(g, 24.0, fire_y, "test")
    activate(g, 0)
    add_dice(g, ("d6", 6))
    if tested:
        add_dice(g, ("d4", 1), ("d4", 1))
    g.apply(("move", NORTH, 1))
    assert used_all(g) and g.units[0].y == pytest.approx(12.0)
    assert len(events_of(g, "FireBurned")) == (1 if tested else 0)


@pytest.mark.parametrize("impact,armour,status", [(2, 2, OK), (3, 2, WOUNDED), (3, 1, KILLED)])
def test_L1870_fire_d4_impact_against_the_armour_die_as_for_normal_armour_rolls(impact, armour, status):
    """L1870: "roll their armour die against an impact of D4. If the fire roll beats the armour die, the model is
    wounded, killed ... as for normal armour rolls" (a draw to the defender, more than double kills: L357, L1683)."""
    g = begin(fiery(blue=[unit("A", (24, 6), figures=(("rifle", 1), ("rifle", 1)))]), [("d6", 1)])
    fire.start_fire(g, 24.0, 16.2, "test")  # only the second figure (1.5" north of the leader) comes within 3"
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d4", impact), ("d4", armour), *[6] * 4)
    g.apply(("move", NORTH, 1))
    burns = events_of(g, "FireBurned")
    assert [b["figure"] for b in burns] == [1]
    assert g.units[0].figures[1].status == status and g.units[0].figures[0].status == OK


@pytest.mark.parametrize("design,burned", [("main_battle_tank", False), ("supply_truck", True)])
def test_L1870_fire_burns_soft_skins_not_armoured_vehicles(design, burned):
    """L1870: "Any infantry model or soft skin vehcle that moves within 3" of the fire marker": the truck (D8) rolls
    against the D4; the tank drives through unharmed."""
    g = begin(fiery(blue=[vehicle("V", (24, 8), design, facing=0)]), [("d6", 1)])
    fire.start_fire(g, 24.0, 22.0, "test")
    activate(g, 0)
    add_dice(g, ("d12", 12))
    if burned:
        add_dice(g, ("d4", 4), ("d8", 1))  # 4 > 2 x 1: destroyed
    g.apply(("move", NORTH, 2))
    assert used_all(g)
    burns = events_of(g, "FireBurned")
    assert [b["result"] for b in burns] == (["destroyed"] if burned else [])


def test_L1870_a_vehicle_destroyed_by_a_fire_stops_where_it_burned():
    """L1870: "damaged or destroyed as for normal armour rolls": a soft skin destroyed as it comes within 3" of the
    marker (y 19) does not drive on to its destination (y 20) as a wreck (the kernel's move-step contract: a hook
    stops the mover; the minefield and trap hooks do so for a vehicle they destroy)."""
    g = begin(fiery(blue=[vehicle("V", (24, 8), "supply_truck", facing=0)]), [("d6", 1)])
    fire.start_fire(g, 24.0, 22.0, "test")
    activate(g, 0)
    add_dice(g, ("d12", 12), ("d4", 4), ("d8", 1))
    g.apply(("move", NORTH, 2))
    v = g.units[0]
    assert not v.in_play and v.y < 19.5


@pytest.mark.parametrize("roll,result,fires", [(1, "out", 0), (2, "burns", 1), (5, "burns", 1), (6, "spreads", 2)])
def test_L1872_L1886_fire_end_of_turn_d6_1_out_6_spreads(roll, result, fires):
    """L1872: "At the end of each turn, roll a D6 for each fire. On a roll of 1 the fire goes out, but on a roll of
    6 the fire spreads"; L1886: the smoke's D6 is rolled "as part of rolling to see if the fire stays lit"."""
    g = begin(fiery(), [("d6", 1)])
    fire.start_fire(g, 24.0, 24.0, "test")
    add_dice(g, ("d6", roll))
    if roll == 6:
        add_dice(g, ("d6", 2), ("d12", 6), ("d6", 1))  # 2" towards 6 o'clock; the new fire's one cloud
    if roll != 1:
        add_dice(g, ("d6", 3))  # the old fire's smoke: as is
    fire._turn_end(g)
    assert used_all(g)
    assert [e["result"] for e in events_of(g, "FireRolled")] == [result]
    assert len(fire.fires(g)) == fires


def test_L1872_fire_spreads_d6_inches_in_a_clockface_direction():
    """L1872: "the fire spreads in a random direction (see page 9 for randomising direction) and D6" distance": a D6
    of 5 and a clockface 3 o'clock (+x) put a new fire 5" east; it starts with its own D6 clouds (L1886); the old
    fire burns on."""
    g = begin(fiery(wind=12), [("d6", 1)])
    fire.start_fire(g, 20.0, 24.0, "test")
    add_dice(g, ("d6", 6), ("d6", 5), ("d12", 3), ("d6", 2), ("d6", 4))
    fire._turn_end(g)
    assert used_all(g)
    assert burning(g) == [(20.0, 24.0), (25.0, 24.0)]
    assert clouds(g, "fire:1") == [(25.0, 24.0, 1.0), (25.0, 26.0, 1.0)]  # downwind: 12 o'clock, +y


@pytest.mark.parametrize("models,die,roll,out", [(3, "d4", 4, True), (3, "d4", 3, False), (9, "d10", 4, True),
                                                 (12, "d12", 3, False)])
def test_L1874_fighting_a_fire_both_actions_a_die_by_the_models_4_or_better(models, die, roll, out):
    """L1874: "An infantry unit may atempt to fight the fire using both its actions. Roll a die based on the number
    of models in the unit (rounded up) and a score of 4 or better removes the fire marker" (rounded up to a die type
    as the firepower die, L565)."""
    g = begin(fiery(blue=[unit("S", (24, 10), figures=(("rifle", models),))]), [("d6", 1)])
    fire.start_fire(g, 24.0, 13.0, "test")
    activate(g, 0)
    add_dice(g, (die, roll))
    g.apply(("fight_fire", 0))
    assert used_all(g)
    ev = events_of(g, "FireFought")[0]
    assert (ev["die"], ev["roll"], ev["out"]) == (die, roll, out)
    assert len(fire.fires(g)) == (0 if out else 1)
    assert g.units[0].activated  # both actions


def test_L1874_fighting_a_fire_is_not_offered_with_one_action_left():
    """L1874: "using both its actions"."""
    g = begin(fiery(blue=[unit("S", (24, 10), figures=(("rifle", 1),))]), [("d6", 1)])
    fire.start_fire(g, 24.0, 13.9, "test")  # the leader 3.9" away: within reach, outside the burning area
    activate(g, 0)
    assert ("fight_fire", 0) in g.decision().options
    add_dice(g, ("d6", 1))
    g.apply(("move", 8, 0))  # one action spent
    assert g.decision().kind == "action"
    assert not any(o[0] == "fight_fire" for o in g.decision().options)


def test_L1876_incendiary_fire_support_places_a_fire_at_the_impact_point():
    """L1876: "Artillery and aircraft may also be used to fire incendiary ammunition ... place fie markers at each"
    (no ignition roll, RN-1615)."""
    g = begin(fiery())
    add_dice(g, ("d4", 1), ("d8", 2), ("d12", 12), ("d6", 2))  # no observer: D4 1, scatter 2" to 12 o'clock
    pts = resolve_mission(g, {"side": 0, "x": 30.0, "y": 30.0, "ammo": "incendiary", "size": "small", "rounds": 1})
    assert used_all(g) and pts == [(30.0, 32.0)] and burning(g) == [(30.0, 32.0)]


# ============================================================================================== smoke
def test_L1882_smoke_blocks_sight_detection_and_observed_fire_but_special_sensors_see_through():
    """L1882: "Smoke blocks line of sight and prevents detection and observed fire"; L669/L673: an observer with
    special sensors sees through, the target concealed (RN-067)."""
    doc = scenario([unit("A", (24, 5), smoke_grenades=True)],
                   [unit("B", (24, 22), sensor="enhanced"), unit("C", (10, 22))])
    g = begin(doc)
    a, b, c = g.units
    assert g.bf.sight_for(observer_of(a), a.x, a.y, b.x, b.y).visible
    activate(g, 0)
    g.apply(("lay_smoke", 0, 6))  # the cloud's centre 6" north
    assert not g.bf.sight_for(observer_of(a), a.x, a.y, b.x, b.y).visible
    assert not g.bf.sight_for(observer_of(c), c.x, c.y, a.x, a.y).visible or \
        g.bf.sight_for(observer_of(c), c.x, c.y, a.x, a.y).visible  # C's line misses the cloud either way
    seen = g.bf.sight_for(observer_of(b), b.x, b.y, a.x, a.y)
    assert seen.visible and seen.concealed
    assert not any(o[0] == "shoot" and o[1] == b.uid for o in g.decision().options)
    from dustup_env.rules.artillery_and_air_support.fire_support_request import sighted_points
    assert (24.0, 21.0) not in sighted_points(g, a)


def test_L1880_L1886_natural_smoke_d6_clouds_in_a_line_downwind_from_the_source():
    """L1886: "When the fire starts, roll a D6 and place that many clouds in a line starting at the source"; L1880:
    2" clouds; downwind (the scenario's wind, 9 o'clock: -x)."""
    g = begin(fiery(wind=9), [("d6", 3)])
    fire.start_fire(g, 30.0, 24.0, "test")
    assert used_all(g)
    assert clouds(g) == [(30.0, 24.0, 1.0), (28.0, 24.0, 1.0), (26.0, 24.0, 1.0)]


@pytest.mark.parametrize("roll,n", [(1, 0), (2, 2), (3, 3), (4, 3), (5, 4), (6, 4)])
def test_L1888_L1892_natural_smoke_end_of_turn_table(roll, n):
    """L1888-1892: 1 remove all smoke, 2 remove one cloud, 3-4 leave as is, 5-6 add one cloud."""
    g = begin(fiery(wind=9), [("d6", 3)])
    fire.start_fire(g, 30.0, 24.0, "test")
    add_dice(g, ("d6", 4), ("d6", roll))
    fire._turn_end(g)
    assert used_all(g) and len(clouds(g)) == n
    if roll == 2:  # the cloud farthest downwind goes
        assert clouds(g) == [(30.0, 24.0, 1.0), (28.0, 24.0, 1.0)]
    if roll >= 5:  # the new cloud drifts on downwind
        assert clouds(g)[-1] == (24.0, 24.0, 1.0)


def test_L1896_infantry_smoke_a_6_inch_cloud_up_to_6_inches_in_any_direction_for_one_action():
    """L1896: "a 6" smoke cloud ... as one action. For infantry this can be any distance up to 6" in any direction"."""
    g = begin(scenario([unit("A", (24, 12), smoke_grenades=True)], [unit("B", (24, 44))]))
    activate(g, 0)
    lays = [o for o in g.decision().options if o[0] == "lay_smoke"]
    assert {o[1] for o in lays} == set(range(16)) and {o[2] for o in lays} <= {1, 2, 3, 4, 5, 6}
    g.apply(("lay_smoke", EAST, 6))
    assert clouds(g) == [(30.0, 12.0, 3.0)]
    assert g.decision().kind == "action" and g.actions_left == 1  # one action


def test_L1896_vehicle_smoke_dischargers_6_inches_to_the_front():
    """L1896: "for vehicles it must be 6" to their front"."""
    g = begin(scenario([vehicle("V", (20, 12), facing=90, smoke_dischargers=True)], [unit("B", (24, 44))]))
    activate(g, 0)
    assert ("discharge_smoke",) in g.decision().options
    g.apply(("discharge_smoke",))
    assert clouds(g) == [(26.0, 12.0, 3.0)]


def test_L1898_artificial_smoke_is_removed_the_next_time_the_unit_is_activated():
    """L1898: "The next time the unit is activated, remove the smoke cloud" (not before)."""
    g = begin(scenario([unit("A", (24, 12), smoke_grenades=True)], [unit("B", (24, 44))]))
    activate(g, 0)
    g.apply(("lay_smoke", 0, 3))
    g.apply(("end",))
    activate(g, 1)
    assert len(clouds(g)) == 1  # the enemy's activation leaves it
    add_dice(g, *SIDE0_WINS)
    g.apply(("end",))
    while g.decision().kind != "activate":
        g.apply(("first",) if ("first",) in g.decision().options else g.decision().options[0])
    assert len(clouds(g)) == 1
    activate(g, 0)
    assert clouds(g) == [] and events_of(g, "SmokeLifted")


def _smoke_line(g, size="medium", x=24.0, y=30.0):
    add_dice(g, ("d4", 1), ("d8", 1), ("d12", 12))
    return resolve_mission(g, {"side": 0, "x": x, "y": y, "ammo": "smoke", "size": size, "rounds": 1})


@pytest.mark.parametrize("roll,left", [(1, 0), (2, 2), (3, 2), (4, 3), (6, 3)])
def test_L1900_artillery_smoke_line_and_its_end_of_turn_dispersal(roll, left):
    """L1900: "a line the equivalent of the weapon's burst radius aligned as desired by the firer" (RN-1603: as long
    as the burst is wide: a medium round, 4" radius, four 2" clouds across the firer's front) and "At the end of each
    turn, roll a D6: on a 1 remove all of the smoke; on a 2-3 remove half the smoke rounded up; on a 4-6 remove one
    cloud"."""
    g = begin(scenario([unit("A", (24, 6))], [unit("B", (24, 44))], options=None) | {"wind": 12})
    pts = _smoke_line(g)
    assert pts == [(24.0, 31.0)]
    assert [c[:2] for c in clouds(g)] == [(21.0, 31.0), (23.0, 31.0), (25.0, 31.0), (27.0, 31.0)]
    add_dice(g, ("d6", roll))
    smoke._turn_end(g)
    assert used_all(g) and len(clouds(g)) == left


def test_L1900_artillery_smoke_aligned_as_desired_by_the_firer():
    """L1900: "aligned as desired by the firer": a mission's ``smoke_hour`` lays the line along that clockface
    direction (12 o'clock: north-south) instead of across the firer's front (RN-1604)."""
    g = begin(scenario([unit("A", (24, 6))], [unit("B", (24, 44))]) | {"wind": 3})
    add_dice(g, ("d4", 1), ("d8", 1), ("d12", 3))
    pts = resolve_mission(g, {"side": 0, "x": 24.0, "y": 30.0, "ammo": "smoke", "size": "medium", "rounds": 1,
                              "smoke_hour": 12})
    assert used_all(g) and pts == [(25.0, 30.0)]
    assert [c[:2] for c in clouds(g)] == [(25.0, 27.0), (25.0, 29.0), (25.0, 31.0), (25.0, 33.0)]


def test_L1900_artillery_smoke_is_refreshed_by_a_new_mission_at_the_same_target():
    """L1900: "An artillery smoke cloud can be refreshed by firing a new mission at the same target"."""
    g = begin(scenario([unit("A", (24, 6))], [unit("B", (24, 44))]) | {"wind": 12})
    _smoke_line(g)
    add_dice(g, ("d6", 4))
    smoke._turn_end(g)
    assert len(clouds(g)) == 3
    _smoke_line(g)
    assert len(clouds(g)) == 4 and used_all(g)


def test_L1902_smoke_generator_trail_retained_while_on_then_the_dispersal_table():
    """L1902: "a 6" trail of smoke that is retained for as long as the generator is turned on. Once it is turned
    off, Roll a D6 at the end of each turn" (RN-1605: on until the end of turn ``turns``)."""
    doc = scenario([unit("A", (24, 6))], [unit("B", (24, 44))])
    doc["wind"] = 3
    doc["smoke_generators"] = [{"position": [10, 24], "turns": 1}]
    g = begin(doc)
    assert clouds(g) == [(10.0, 24.0, 1.0), (12.0, 24.0, 1.0), (14.0, 24.0, 1.0)]
    smoke._turn_end(g)  # turn 1 ends: the generator is turned off, no roll yet
    assert used_all(g) and len(clouds(g)) == 3
    add_dice(g, ("d6", 2))
    smoke._turn_end(g)
    assert used_all(g) and len(clouds(g)) == 1  # half of 3 rounded up removed


def test_L1904_exhaust_smoke_around_a_stationary_vehicle_behind_a_moving_one_removed_at_next_activation():
    """L1904: "If the vehicle is stationary, place a smoke cloud around the whole vehicle. If the vehicle is moving,
    place a 6" smoke cloud dierctly behind the vehicle. This cloud is removed as soon as the vehicles is activated
    again"."""
    g = begin(scenario([vehicle("V", (24, 10), facing=0, exhaust_smoke=True)], [unit("B", (24, 44))]))
    activate(g, 0)
    g.apply(("exhaust_smoke",))
    ((x, y, r),) = clouds(g)
    assert (x, y) == (24.0, 10.0) and r > 1.0
    g2 = begin(scenario([vehicle("V", (24, 10), facing=0, exhaust_smoke=True)], [unit("B", (24, 44))]))
    activate(g2, 0)
    add_dice(g2, ("d12", 12))
    g2.apply(("move", NORTH, 1))
    g2.apply(("exhaust_smoke",))
    ((x, y, r),) = clouds(g2)
    assert x == 24.0 and y < 16.0 - 3.0 and r == 3.0  # behind (south of) the vehicle at y 16
    activate(g2, 1)
    add_dice(g2, *SIDE0_WINS)
    g2.apply(("end",))
    while g2.decision().kind != "activate":
        g2.apply(("first",) if ("first",) in g2.decision().options else g2.decision().options[0])
    activate(g2, 0)
    assert clouds(g2) == []


# ============================================================================================== minefields
def test_L1928_a_minefield_is_its_owners_secret_until_a_test_shows_it():
    """L1928: "Conventional minefields are represented by an inverted counter" (RN-1650: the owner's secret until
    tested)."""
    g = begin(mined([one(pos=(24, 8))], [{"type": "ap", "position": [24, 20]}]))
    assert g.view(0).get("entities", []) == [] and len(g.view(1)["entities"]) == 1
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", 8))
    g.apply(("move", NORTH, 2))  # y 8 -> 20: 3" inside: one test
    assert used_all(g) and len(events_of(g, "MineTest")) == 1
    assert len(g.view(0)["entities"]) == 1


@pytest.mark.parametrize("start,tests", [(8.0, 1), (8.5, 2), (14.0, 2), (15.0, 2), (18.5, 2), (20.5, 1)])
def test_L1928_L1930_a_model_tests_for_every_3_inches_or_part_it_moves_through_the_field(start, tests):
    """L1930: "roll the unit's quality die for each model for every 3" (or part thereof) the model moves through the
    minefield"; L1928: the counter marks a field 6" in diameter (y 17 to 23 on the walker's line).  A 12" walk north
    from y ``start``: inside for 3" (8 -> 20), 3.5", 6" (14 -> 26 and 15 -> 27), 4.5" (starting inside at 18.5),
    2.5" (from 20.5 to the far edge)."""
    g = begin(mined([one(pos=(24, start))], [{"type": "ap", "position": [24, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), *[("d8", 8)] * tests)
    g.apply(("move", NORTH, 2))
    assert used_all(g)
    assert len(events_of(g, "MineTest")) == tests


@pytest.mark.parametrize("kind,roll,hit", [("ap", 3, True), ("ap", 4, False), ("mixed", 2, True),
                                           ("mixed", 3, False)])
def test_L1930_infantry_hit_on_1_to_3_in_ap_and_1_to_2_in_mixed_fields(kind, roll, hit):
    """L1930: "If the minefield is an AP minefield, the model is hit on a 1, 2 or 3. If it is a mixed minefield, the
    model is hit on a 1 or a 2"."""
    g = begin(mined([one(pos=(24, 8))], [{"type": kind, "position": [24, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", roll))
    if hit:
        add_dice(g, ("d10", 1), ("d4", 1))
    g.apply(("move", NORTH, 2))
    assert used_all(g)
    (t,) = events_of(g, "MineTest")
    assert t["hit"] is hit


def test_L1930_infantry_never_set_off_at_mines():
    """L1930: "Infantry will not set of AT mines"."""
    g = begin(mined([one(pos=(24, 8))], [{"type": "at", "position": [24, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6))
    g.apply(("move", NORTH, 2))
    assert used_all(g) and not events_of(g, "MineTest")


@pytest.mark.parametrize("impact,armour,status", [(4, 4, OK), (5, 4, WOUNDED), (8, 4, WOUNDED), (9, 4, KILLED)])
def test_L1930_a_mine_hit_is_a_d10_impact_wound_if_it_beats_the_armour_killed_if_it_doubles(impact, armour, status):
    """L1930: "Any figures hit must roll their armour die against an impact of D10. If the impact beats the armour
    die the model is wounded. If the impact die doubles the armor die the model is killed outright" (RN-169: more
    than double, as every other opposed roll, L357)."""
    g = begin(mined([one(pos=(24, 8), n=2)], [{"type": "ap", "position": [24, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", 1), ("d10", impact), ("d4", armour), ("d8", 8), *[6] * 6)
    g.apply(("move", NORTH, 2))
    t = events_of(g, "MineTest")
    assert [x["hit"] for x in t][:1] == [True]
    assert g.units[0].figures[t[0]["figure"]].status == status


def _vehicle(mines, pos=(24, 8), design="main_battle_tank", extra=(), **kw):
    blue = [vehicle("T", pos, design, facing=0, **kw)] + list(extra)
    return begin(mined(blue, mines))


@pytest.mark.parametrize("start,k,mines", [(8.0, 2, 1), (12.0, 2, 2), (8.0, 1, 0)])
def test_L1932_vehicles_trigger_a_mine_per_3_inches_or_part_in_at_and_mixed_fields(start, k, mines):
    """L1932: "Vehicles entering an AT or mixed minefield automatically trigger a mine for every 3" (or part
    thereof) they move through the minefield.  They roll their belly armour die against an impact of D12": y 8 -> 20
    (3" inside: one), y 12 -> 24 (6": two), y 8 -> 14 (outside: none)."""
    for kind in ("at", "mixed"):
        g = _vehicle([{"type": kind, "position": [24, 20]}], pos=(24, start))
        activate(g, 0)
        add_dice(g, ("d12", 12), *[("d12", 1), ("d12x2", 12)] * mines)
        g.apply(("move", NORTH, k))
        assert used_all(g)
        vm = events_of(g, "VehicleMine")
        assert len(vm) == mines and all(e["armour"] == "d12x2" for e in vm)  # the tank's belly


def test_L1930_every_move_through_a_field_tests_anew():
    """L1930: a roll "for every 3" (or part thereof) the model moves through the minefield", counted in each move
    (RN-1923): two 3" moves inside the field in one activation test twice, as one 6" move would."""
    g = begin(mined([one(pos=(24, 18))], [{"type": "ap", "position": [24, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", 8))
    g.apply(("move", NORTH, 0))  # y 18 -> 21, inside all the way
    add_dice(g, ("d6", 6), ("d8", 8))
    g.apply(("move", 8, 0))  # back south, 21 -> 18
    assert used_all(g) and len(events_of(g, "MineTest")) == 2


def test_L1932_vehicles_ignore_ap_fields():
    """L1932: AT or mixed only."""
    g = _vehicle([{"type": "ap", "position": [24, 20]}])
    activate(g, 0)
    add_dice(g, ("d12", 12))
    g.apply(("move", NORTH, 2))
    assert used_all(g) and not events_of(g, "VehicleMine")


@pytest.mark.parametrize("impact,belly,result", [(6, 6, "none"), (7, 6, "damaged"), (12, 6, "damaged"),
                                                 (8, 4, "damaged"), (9, 4, "destroyed")])
def test_L1932_a_mine_that_beats_the_belly_damages_and_immobilises_doubling_destroys(impact, belly, result):
    """L1932: "If the mine beats the armour the vehicle is damaged and immobilised. If the mine doubles the armour
    score, the vehicle is destroyed" (more than double, RN-169: 8 against 4 damages).  The belly d12x2 (face 3 = 6)."""
    g = _vehicle([{"type": "at", "position": [24, 20]}])
    activate(g, 0)
    add_dice(g, ("d12", 12), ("d12", impact), ("d12x2", belly // 2), *[6] * 8)
    g.apply(("move", NORTH, 2))
    v = g.units[0]
    assert events_of(g, "VehicleMine")[0]["result"] == result
    if result == "damaged":
        assert v.veh.damage == 1 and v.veh.immobilised and v.in_play
    if result == "destroyed":
        assert not v.in_play


@pytest.mark.parametrize("outcome", ["damaged", "destroyed"])
def test_L1934_occupants_of_a_mined_vehicle_3_plus_or_an_untreated_wound_all_killed_if_destroyed(outcome):
    """L1934: "If the vehicle is damaged, there is a chance the occupants are injured. Each occupant rolls their
    armour die and must score 3+ or suffer an untreated wound. If the vehicle was destroyed, all occupants are
    killed"."""
    g = _vehicle([{"type": "at", "position": [24, 20]}], design="ifv_tracked",
                 extra=[unit("P", (24, 8), figures=(("rifle", 3),), carried_by="T")])
    activate(g, 0)
    if outcome == "damaged":
        add_dice(g, ("d12", 12), ("d12", 3), ("d12x2", 1), ("d4", 2), ("d4", 3), ("d4", 4), *[6] * 8)
    else:
        add_dice(g, ("d12", 12), ("d12", 5), ("d12x2", 1), *[6] * 12)
    g.apply(("move", NORTH, 2))
    p = g.units[1]
    if outcome == "damaged":
        assert [f.status for f in p.figures] == [WOUNDED, OK, OK]
    else:
        assert all(f.status == KILLED for f in p.figures)


def test_L1938_no_prop_in_a_minefield():
    """L1938: "It is not possible to prop in a minefield" (a field the side knows of)."""
    from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
    g = begin(mined([one(pos=(24, 19))], [{"type": "mixed", "position": [24, 20]}]))
    mf.found(g, 0)
    activate(g, 0)
    assert ("prop",) not in g.decision().options


def test_L1962_L1964_several_counters_each_tested_separately():
    """L1962: "If a unit is within 3" of more than one counter it must test for each separately": an AP and a mixed
    counter on the same spot (L1964: a denser field), 3" crossed: one test in each."""
    g = begin(mined([one(pos=(24, 8))], [{"type": "ap", "position": [24, 20]},
                                         {"type": "mixed", "position": [24, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", 3), ("d10", 1), ("d4", 1), ("d8", 3))
    g.apply(("move", NORTH, 2))
    assert used_all(g)
    assert [(t["entity"], t["hit"]) for t in events_of(g, "MineTest")] == [(0, True), (1, False)]


def test_L1928_a_dummy_counter_is_removed_when_the_enemy_enters_and_nothing_when_its_owner_does():
    """L1928: minefields "may be ... dummy" (RN-169: revealed and removed by an enemy unit; the owner's own units
    pass)."""
    doc = mined([one(pos=(24, 8))], [{"type": "dummy", "position": [24, 20]}, {"type": "dummy", "position": [5, 35]}],
                red=[unit("B", (5, 45), figures=(("rifle", 1),))])
    g = begin(doc)
    activate(g, 0)
    add_dice(g, ("d6", 6))
    g.apply(("move", NORTH, 2))
    g.apply(("end",))
    activate(g, 1)
    add_dice(g, ("d6", 6))
    g.apply(("move", 8, 1))
    assert used_all(g)
    assert [e["removed"] for e in g.entities] == [True, False]


def test_L1948_a_lane_clearing_model_walks_at_half_speed_and_followers_roll_a_d12_1_detonates():
    """L1948: "one model may be moved ... into and through the minefield at half speed ... until they either reach
    the end or are wounded ... Any model moving along the already cleared part of the lane must roll a D12 and will
    detonate a mine on a roll of 1.  Movement through a mine lane is at half speed"."""
    from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
    g = begin(mined([one(pos=(24, 15.5), n=1)], [{"type": "ap", "position": [24, 20]}]))
    mf.found(g, 0)
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", 8), ("d8", 8))  # movement roll 6: 6" at half speed (12" at full); 4.5" inside
    g.apply(("clear_lane", 0))
    assert used_all(g)
    lane = events_of(g, "LaneCleared")[0]
    assert not lane["complete"] and (lane["y0"], lane["y1"]) == (17.0, 21.5) and g.units[0].y == pytest.approx(21.5)
    assert [t["lane"] for t in events_of(g, "MineTest")] == [False, False]
    # a second unit in file along the lane
    g2 = begin(mined([one(pos=(24, 15.5), n=1), unit("C", (24, 14), figures=(("rifle", 1),))],
                     [{"type": "ap", "position": [24, 20]}]))
    mf.found(g2, 0)
    activate(g2, 0)
    add_dice(g2, ("d6", 6), ("d8", 8), ("d8", 8))
    g2.apply(("clear_lane", 0))
    g2.apply(("end",)) if g2.decision().kind == "action" else None
    while g2.decision().side != 0 or g2.decision().kind != "activate":
        g2.apply(("end",) if ("end",) in g2.decision().options else g2.decision().options[0])
    activate(g2, 1)
    add_dice(g2, ("d6", 6), ("d12", 1), ("d10", 1), ("d4", 1), ("d12", 2))
    g2.apply(("move", NORTH, 2))
    tests = [t for t in events_of(g2, "MineTest") if t["unit"] == 1]
    assert [(t["lane"], t["roll"], t["needed"], t["hit"]) for t in tests] == [(True, 1, 1, True), (True, 2, 1, False)]
    assert g2.units[1].y < 14 + 12 - 1  # half speed in the lane: short of the 12" point


@pytest.mark.parametrize("roll,removed", [(1, False), (2, True)])
def test_L1954_a_plough_rolls_the_drivers_quality_1_hit_else_the_counter_goes_ap_and_at(roll, removed):
    """L1954: "It then rolls the driver's quality die. On a score of 1, the vehicle is hit as described above. Any
    other result removed the counter. This clears both AP and AT mines"."""
    for kind in ("ap", "mixed"):
        g = _vehicle([{"type": kind, "position": [24, 20]}], mine_clearing="plough")
        activate(g, 0)
        add_dice(g, ("d12", 12), ("d8", roll))
        if roll == 1 and kind == "mixed":
            add_dice(g, ("d12", 1), ("d12x2", 1))
        g.apply(("move", NORTH, 2))
        assert used_all(g) and g.entities[0]["removed"] is removed
        assert [e["roll"] for e in events_of(g, "ClearingRoll")] == [roll]


def test_L1958_a_line_charge_takes_a_whole_turn_and_removes_the_counter():
    """L1958: "a vehicle must be positioned near the edge of the minefield and expend a whole turn (2 actions) to
    fire and detonate the charge. The mine counter is then removed. This clears both AP and AT mines"."""
    from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
    for kind in ("ap", "at"):
        g = _vehicle([{"type": kind, "position": [24, 20]}], pos=(24, 15.5), mine_clearing="line_charge")
        mf.found(g, 0)
        activate(g, 0)
        assert ("line_charge", 0) in g.decision().options
        g.apply(("line_charge", 0))
        assert g.entities[0]["removed"] and g.units[0].activated
    g = _vehicle([{"type": "at", "position": [24, 20]}], pos=(24, 15.5), mine_clearing="line_charge")
    mf.found(g, 0)
    activate(g, 0)
    add_dice(g, ("d12", 1))
    g.apply(("move", 8, 0))  # south 3": one action left
    assert not any(o[0] == "line_charge" for o in g.decision().options)


# ============================================================================================== command-detonated
def _cdm(blue, mines, red_pos=(34, 26), **kw):
    return begin(mined(blue, mines, red=[unit("W", red_pos, figures=(("rifle", 3),))], **kw))


@pytest.mark.parametrize("pos,way,asked", [((24, 12), NORTH, True), ((30.5, 12), NORTH, False),
                                           ((10, 26), EAST, True), ((10, 27), EAST, False)])
def test_L1970_a_cdm_has_a_180_degree_arc_and_a_6_inch_range(pos, way, asked):
    """L1970: "CDMs have a 180 degree field of fire ... Only units within the field of fire will be hit by the mine.
    CDMs have a range of 6"": the mine at (24, 26) faces south.  A walker north along x = 24 comes into range; along
    x = 30.5 it never comes within 6"; east along y = 26 it walks the arc's edge (abeam: 180 degrees, inside); along
    y = 27 it stays 1" behind the mine (outside)."""
    g = _cdm([one(pos=pos)], [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}])
    activate(g, 0)
    add_dice(g, ("d6", 6))
    g.apply(("move", way, 2))
    assert (g.decision().kind == "cdm") is asked


def test_L1972_L1978_a_cdm_fires_mid_move_without_using_the_controllers_activation_d10_per_model_then_removed():
    """L1972: "Activating the mine does not use up the activation of the controlling unit"; L1974: "at any point in
    the movement of another unit"; L1976: "each model in the unit that is within the field of fire must test their
    armour die against an impact of D10"; L1978: "The mine counter is removed as soon as it is used"."""
    from dustup_env.rules.additional_rules.mines_and_explosives.command_detonated import struck_figures
    g = _cdm([unit("A", (24, 12), figures=(("rifle", 3),))], [{"type": "cdm", "position": [24, 26],
                                                               "toward": [24, 16]}])
    activate(g, 0)
    add_dice(g, ("d6", 6))
    g.apply(("move", NORTH, 2))
    d = g.decision()
    assert d.kind == "cdm" and d.side == 1
    assert g.units[0].y < 24.0  # mid-move
    n_in = len(struck_figures(g.entities[0], g.units[0]))
    assert n_in >= 1
    add_dice(g, *[("d10", 1), ("d4", 1)] * n_in)
    g.apply(("cdm_fire",))
    hits = events_of(g, "HitResolved")
    assert len(hits) == n_in and all(h["impact_die"] == "d10" for h in hits)
    assert g.entities[0]["removed"] and not g.units[1].activated
    assert g.units[0].y == pytest.approx(24.0)  # the walk went on
    assert used_all(g)


def test_L1972_a_cdm_cannot_be_fired_without_a_unit_seeing_the_mine_and_the_target():
    """L1972: "as long as the controlling unit can see the mine and the unit it will attack"."""
    g = _cdm([one(pos=(24, 12))], [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}],
             red_pos=(40, 26), terrain=[rect("building", 30, 14, 36, 34)])
    activate(g, 0)
    add_dice(g, ("d6", 6))
    g.apply(("move", NORTH, 2))
    assert g.decision().kind != "cdm"


@pytest.mark.parametrize("destroyed", [False, True])
def test_L1980_a_cdm_damages_a_soft_skin_as_infantry_and_its_occupants_need_3_plus(destroyed):
    """L1980: "CDMs have no effect against armoured vehicles. They can damage soft skinned vehicles as for infantry.
    Occupants of the vehicle must also score 3+ on their armour die or also suffer a wound": the truck's militia
    (armour D4) roll 2, 3, 4: one wounded, whether the truck is damaged or destroyed (the 3+ of L1980, not the
    doubled weapon class of L1443)."""
    blue = [vehicle("V", (24, 12), "supply_truck", facing=0),
            unit("P", (24, 12), figures=(("rifle", 3),), carried_by="V")]
    g = _cdm(blue, [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}])
    activate(g, 0)
    add_dice(g, ("d12", 12))
    g.apply(("move", NORTH, 2))
    assert g.decision().kind == "cdm"
    add_dice(g, ("d10", 9 if destroyed else 5), ("d8", 4), ("d4", 2), ("d4", 3), ("d4", 4), *[6] * 12)
    g.apply(("cdm_fire",))
    assert [e["result"] for e in events_of(g, "VehicleHit")] == ["destroyed" if destroyed else "damaged"]
    assert sorted(f.status for f in g.units[1].figures) == sorted([WOUNDED, OK, OK])


@pytest.mark.parametrize("cloud", [False, True])
def test_L1882_L1972_smoke_between_the_controller_and_the_target_stops_a_cdm(cloud):
    """L1972 ("as long as the controlling unit can see ... the unit it will attack") with L1882 ("Smoke blocks line
    of sight"): a cloud on Red's only unit's line to the walker, and no one may fire the mine."""
    doc = mined([one(pos=(24, 12))], [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}],
                red=[unit("W", (40, 20), figures=(("rifle", 3),))])
    doc["wind"] = 3  # the Smoke rule in the game
    g = begin(doc)
    if cloud:
        smoke.add_cloud(g, 33.0, 20.0, 3.0, "test")
    activate(g, 0)
    add_dice(g, ("d6", 6))
    g.apply(("move", NORTH, 2))
    assert (g.decision().kind == "cdm") is not cloud


def test_L1968_a_cdm_is_set_up_with_one_reorganise_action_and_a_dummy_never_fires():
    """L1968: "require one reorganise action to set up. They are marked by a suitable counter (which could also be a
    dummy counter)": a dummy never fires."""
    g = begin(scenario([one(pos=(24, 10), cdms=1)], [unit("B", (24, 40), figures=(("rifle", 3),))]))
    activate(g, 0)
    g.apply(("reorganise", "set_cdm"))
    assert g.entities[0]["kind"] == "cdm" and g.actions_left == 1
    assert ("reorganise", "set_cdm") not in g.decision().options  # it carried one
    g = _cdm([one(pos=(24, 12))], [{"type": "cdm", "position": [24, 26], "toward": [24, 16], "dummy": True}])
    activate(g, 0)
    add_dice(g, ("d6", 6))
    g.apply(("move", NORTH, 2))
    # the owner is asked at a dummy as at a real counter (RN-1962: the pause must not tell which is real), and may
    # only hold
    assert g.decision().kind == "cdm" and g.decision().options == (("cdm_hold",),)
    g.apply(("cdm_hold",))
    assert g.decision().kind != "cdm" and used_all(g)


def test_L1980_a_cdm_spares_armoured_vehicles():
    """L1980: "CDMs have no effect against armoured vehicles"."""
    g = _cdm([vehicle("V", (24, 12), facing=0)], [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}])
    activate(g, 0)
    add_dice(g, ("d12", 12))
    g.apply(("move", NORTH, 2))
    assert g.decision().kind != "cdm" and used_all(g)


# ============================================================================================== booby traps, IEDs
@pytest.mark.parametrize("q,d,result", [(5, 4, "disabled"), (4, 4, "detonated")])
def test_L1986_a_booby_trap_quality_against_a_d8_success_disables_it(q, d, result):
    """L1986: "they roll their quality die against a D8. If they succeed, the detect the trigger and disable the
    device" (a tie fails, RN-172)."""
    g = begin(mined([one(pos=(24, 14))], [{"type": "booby_trap", "position": [26, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", q), ("d8", d))
    if result == "detonated":
        add_dice(g, ("d8", 1), ("d4", 1))
    g.apply(("move", NORTH, 2))
    assert used_all(g)
    assert events_of(g, "TrapTest")[0]["result"] == result and g.entities[0]["removed"]


def test_L1986_a_booby_trap_blast_d8_on_the_closest_and_d6_on_other_models_within_3_inches():
    """L1986: "Otherwise it detonates and attacks the closest figure. That model rolls its armour die against a D8 ...
    Other models within 3" of the device must also test their armourr die but against an impact of D6": the other
    models within 3" include those of another unit standing there, not only the mover's."""
    blue = [one(pos=(24, 14)), unit("S", (27.5, 20), figures=(("rifle", 1),))]
    g = begin(mined(blue, [{"type": "booby_trap", "position": [26, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", 1), ("d8", 8), ("d8", 1), ("d4", 1), ("d6", 6), ("d4", 1), *[6] * 8)
    g.apply(("move", NORTH, 2))
    hits = events_of(g, "HitResolved")
    assert sorted((h["target"], h["impact_die"]) for h in hits) == [(0, "d8"), (1, "d6")]
    assert g.units[1].figures[0].status != OK


@pytest.mark.parametrize("impact", ["d12", "d12x5"])
def test_L1990_L1992_an_ied_under_a_vehicle_d12_to_d12x5_as_an_at_mine_and_removed(impact):
    """L1990: "If a vehicle moves within 3" of an IED it will detonate with a D12 impact as if it was an AT mine.
    Unlike a minefield, an IED is removed as soon as it detonates"; L1992: "up to a D12x5"."""
    g = _vehicle([{"type": "ied", "position": [26, 20], "impact": impact}])
    activate(g, 0)
    add_dice(g, ("d12", 12), (impact, 3), ("d12x2", 1), *[6] * 8)
    g.apply(("move", NORTH, 2))
    (vm,) = events_of(g, "VehicleMine")
    assert vm["impact"] == impact and vm["armour"] == "d12x2" and g.entities[0]["removed"]
    assert vm["result"] == ("damaged" if impact == "d12" else "destroyed")  # 3 > 2; 15 (d12x5 face 3) > 2 x 2


@pytest.mark.parametrize("q,d,result", [(7, 6, "marked"), (3, 6, "nothing"), (2, 5, "detonated"),
                                        (3, 7, "detonated"), (4, 8, "nothing")])
def test_L1994_infantry_and_an_ied_quality_against_d8_marked_or_below_half_set_off(q, d, result):
    """L1994: "Roll the unit quality die against a D8. If they succeed they have detected the trigger ... It is not
    disarmed, but is marked ... if the infantry roll less than half the result on the mine die, they have
    inadvertently triggered the device and all infantry within 6" are caught in the blast ... an impact die of
    D12"."""
    blue = [one(pos=(24, 14)), unit("S", (30, 22), figures=(("rifle", 1),))]
    g = begin(mined(blue, [{"type": "ied", "position": [26, 20]}]))
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d8", q), ("d8", d))
    if result == "detonated":
        add_dice(g, ("d12", 1), ("d4", 1), ("d12", 1), ("d4", 1))
    g.apply(("move", NORTH, 2))
    assert used_all(g)
    assert events_of(g, "TrapTest")[0]["result"] == result
    e = g.entities[0]
    assert e["removed"] is (result == "detonated") and e["state"]["marked"] is (result == "marked")
    if result == "detonated":
        assert sorted(h["target"] for h in events_of(g, "HitResolved")) == [0, 1]  # both units within 6"


def test_L1990_L1994_a_marked_ied_still_goes_off_under_a_vehicle_that_drives_within_3_inches():
    """L1994: a found IED "is not disarmed, but is marked and vehicles know to avoid it"; L1990: "If a vehicle moves
    within 3" of an IED it will detonate" (RN-1924: marking warns, it does not make the device safe)."""
    g = _vehicle([{"type": "ied", "position": [26, 20]}])
    g.entities[0]["state"]["marked"] = True
    from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
    mf.found(g, 0)
    activate(g, 0)
    add_dice(g, ("d12", 12), ("d12", 1), ("d12x2", 1))
    g.apply(("move", NORTH, 2))
    assert used_all(g) and [e["result"] for e in events_of(g, "VehicleMine")] == ["none"]
    assert g.entities[0]["removed"]
