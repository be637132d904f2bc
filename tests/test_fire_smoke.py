"""Fire and Smoke (seed 000 "ADDITIONAL RULES", L1864-1904): forced-dice tests of every rule, the fire-spread and
smoke-drift geometry, sight through smoke, and the shipped games untouched."""
import math

import pytest

from conftest import activate, add_dice, begin, events_of, rect, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.additional_rules import fire, smoke
from dustup_env.rules.artillery_and_air_support.impacts import resolve_mission
from dustup_env.rules.kernel.battlefield import observer_of
from dustup_env.rules.kernel.dice import D4, D6, D8, D10, D12

WOODS = rect("light_woods", 16, 14, 32, 30, "Copse")


def scn(blue=None, red=None, terrain=(WOODS,), wind=3, **kw):
    blue = blue if blue is not None else [unit("Flamers", (24, 10), figures=(("rifle", 1),), flamer=True)]
    red = red if red is not None else [unit("Red", (24, 44))]
    doc = scenario(blue, red, terrain=terrain, **kw)
    if wind is not None:
        doc["wind"] = wind
    return doc


def clouds(g, src=None):
    return [(f["x"], f["y"], f["r"]) for f in g.terrain
            if f["kind"] == "smoke" and (src is None or f["src"] == src)]


def burning(g):
    return [(e["x"], e["y"]) for e in fire.fires(g)]


def end_turn(g):
    """Both units end their activations (the turn ends)."""
    for side in (0, 1):
        d = g.decision()
        g.apply(("activate", [u.uid for u in g.units if u.side == d.side and not u.activated][0]))
        g.apply(("end",))


# ---------------------------------------------------------------------------------------------- the rule set
def test_the_rules_are_in_a_game_only_with_fire_or_smoke_content():
    """The shipped scenarios have neither rule; a flame thrower brings both (its fire makes smoke, L1886); smoke
    content or the option brings Smoke alone."""
    for name in ("default", "armour", "fire-support", "skirmish", "company", "ambush", "mechs", "air-assault"):
        names = [r.name for r in Game(name, seed=0).rules.rules]
        assert "Fire" not in names and "Smoke" not in names, name
    names = [r.name for r in Game(scn(), seed=0).rules.rules]
    assert names[-2:] == ["Fire", "Smoke"]
    names = [r.name for r in Game("default", seed=0, options={"smoke_grenades": True}).rules.rules]
    assert "Smoke" in names and "Fire" not in names


def test_bad_scenario_values_get_a_one_line_error():
    doc = scn(wind=13)
    with pytest.raises(ScenarioError, match="wind"):
        Game(doc, seed=0)
    doc = scn()
    doc["sides"][0]["units"][0]["flamer"] = "yes"
    with pytest.raises(ScenarioError, match="flamer"):
        Game(doc, seed=0)


# ---------------------------------------------------------------------------------------------- ignition
def test_a_flame_thrower_sets_flammable_ground_alight_on_3_and_places_d6_clouds_downwind():
    """L1866: 3-6 on particularly flammable ground (woods); L1868: a marker burning in a 3" radius; L1886: D6 clouds
    in a line downwind from the source (wind 3 o'clock: +x)."""
    g = begin(scn(), dice=[("d6", 3), ("d6", 4)])
    activate(g, 0)
    assert ("ignite", 22.0, 15.0) in g.decision().options  # a grid point within 8" in sight
    g.apply(("ignite", 22.0, 15.0))
    assert g.dice.remaining == 0
    (ev,) = events_of(g, "IgnitionRolled")
    assert ev["flammable"] and ev["roll"] == 3 and ev["caught"]
    assert burning(g) == [(22.0, 15.0)]
    e = fire.fires(g)[0]
    assert e["shape"] == {"shape": "circle", "r": 3.0} and e["known"] == "public" and e["refs"] == [0, 0]
    assert [(f["kind"], f["r"]) for f in g.terrain if f["kind"] == "fire"] == [("fire", 3.0)]
    assert clouds(g) == [(22.0, 15.0, 1.0), (24.0, 15.0, 1.0), (26.0, 15.0, 1.0), (28.0, 15.0, 1.0)]


@pytest.mark.parametrize("roll,caught", [(5, False), (6, True)])
def test_on_ground_not_flammable_only_a_6_catches(roll, caught):
    """L1866: "otherwise it will only catch fire on a 6"."""
    g = begin(scn(terrain=()), dice=[("d6", roll)] + ([("d6", 1)] if caught else []))
    activate(g, 0)
    g.apply(("ignite", 22.0, 9.0))
    assert g.dice.remaining == 0
    (ev,) = events_of(g, "IgnitionRolled")
    assert not ev["flammable"] and ev["caught"] == caught
    assert burning(g) == ([(22.0, 9.0)] if caught else [])


def test_a_flame_throwers_shot_may_set_its_targets_area_alight():
    """L1866 "accidentally": after a flame thrower's shot the area of its target's leader is rolled for (RN-1608);
    a shot of a unit without one rolls nothing."""
    for flamer in (True, False):
        doc = scn(blue=[unit("Flamers", (24, 6), figures=(("rifle", 1),), flamer=flamer)],
                  red=[unit("Red", (24, 16))])
        g = Game(doc, seed=3)
        g.apply(("first",) if g.decision().kind == "initiative" and g.decision().side == 0 else g.decision().options[0])
        while g.decision().kind != "activate" or g.decision().side != 0:
            g.apply(g.decision().options[0])
        activate(g, 0)
        opt = next(o for o in g.decision().options if o[0] == "shoot")
        g.apply(opt)
        rolled = events_of(g, "IgnitionRolled")
        assert len(rolled) == (1 if flamer else 0)
        if flamer:
            assert (rolled[0]["x"], rolled[0]["y"], rolled[0]["flammable"]) == (24.0, 16.0, True)


def test_incendiary_rounds_place_a_fire_at_each_impact_point():
    """L1876 (garbled "place fie markers at each"): a fire at each impact point, no ignition roll (RN-1615)."""
    g = begin(scn(), dice=[])
    add_dice(g, ("d4", 1), ("d8", 1), ("d12", 3), ("d6", 1))  # no observer: D4, scatter 1 x D8 = 1" at 3 o'clock
    pts = resolve_mission(g, {"side": 0, "x": 10.0, "y": 30.0, "ammo": "incendiary", "size": "small", "rounds": 1})
    assert g.dice.remaining == 0
    assert pts == [(11.0, 30.0)] and burning(g) == [(11.0, 30.0)]
    assert events_of(g, "FireStarted")[0]["cause"] == "incendiary"


# ---------------------------------------------------------------------------------------------- moving in a fire
def test_a_model_moving_within_3_inches_rolls_its_armour_against_d4():
    """L1870: the model that moves within 3" of the marker rolls armour against an impact of D4 (once per fire in
    an activation, RN-1611)."""
    blue = [unit("Flamers", (24, 6), figures=(("rifle", 1),), flamer=True, armour="partial_light")]
    g = begin(scn(blue=blue, terrain=()), dice=[("d6", 1)])
    fire.start_fire(g, 24.0, 14.0, "test")
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d4", 4), ("d6", 3))  # movement 6: the walk enters the radius; D4 4 > armour 3: wound
    g.apply(("move", 0, 1))
    assert g.dice.remaining == 0
    (burn,) = events_of(g, "FireBurned")
    assert burn["unit"] == 0 and burn["figure"] == 0 and burn["result"] == "wound"
    # its only model wounded, the unit is out of play: it stops where it was burned, 3" from the marker (RN-1920)
    assert not g.units[0].in_play and g.units[0].y == pytest.approx(11.0)


def test_a_model_that_beats_the_d4_is_unhurt_and_is_tested_once_per_fire_in_a_move():
    blue = [unit("Flamers", (24, 6), figures=(("rifle", 1),), flamer=True, armour="partial_light")]
    g = begin(scn(blue=blue, terrain=()), dice=[("d6", 1)])
    fire.start_fire(g, 24.0, 14.0, "test")
    activate(g, 0)
    add_dice(g, ("d6", 6), ("d4", 2), ("d6", 5))
    g.apply(("move", 0, 1))  # every step from 11" to 12" lies within 3": one test
    assert g.dice.remaining == 0
    add_dice(g, ("d6", 1), ("d4", 1), ("d6", 2))
    g.apply(("move", 4, 0))  # a second move, still within 3": a second test (RN-1611)
    assert g.dice.remaining == 0
    assert [e["result"] for e in events_of(g, "FireBurned")] == ["none", "none"]


def test_an_armoured_vehicle_is_not_burned_but_a_soft_skin_is():
    """L1870: "infantry model or soft skin vehicle"."""
    for design, burned in (("main_battle_tank", False), ("supply_truck", True)):
        g = begin(scn(blue=[vehicle("V", (24, 6), design, facing=0)], red=[unit("R", (24, 44), flamer=True)],
                      terrain=()), dice=[("d6", 1)])
        fire.start_fire(g, 24.0, 14.0, "test")
        g.units[0].x, g.units[0].y = 24.0, 6.0
        fire._step(g, g.units[0], 24.0, 6.0, 24.0, 11.5) if not burned else None
        if burned:
            add_dice(g, ("d4", 1), ("d8", 8))  # D4 against the truck's D8: no damage
            fire._step(g, g.units[0], 24.0, 6.0, 24.0, 11.5)
        assert g.dice.remaining == 0
        assert len(events_of(g, "FireBurned")) == (1 if burned else 0)


# ---------------------------------------------------------------------------------------------- end of the turn
def test_a_fire_goes_out_on_1_with_its_smoke():
    """L1872: "On a roll of 1 the fire goes out" (its smoke with it, RN-1612)."""
    g = begin(scn(terrain=()), dice=[("d6", 2)])
    fire.start_fire(g, 24.0, 20.0, "test")
    add_dice(g, ("d6", 1))
    fire._turn_end(g)
    assert g.dice.remaining == 0
    assert burning(g) == [] and clouds(g) == [] and not g.terrain
    assert events_of(g, "FireRolled")[0]["result"] == "out"


def test_a_fire_spreads_on_6_d6_inches_in_a_clockface_direction():
    """L1872: on a 6 the fire spreads in a random direction (the clockface, page 9) and D6" distance; the new fire
    makes its own D6 clouds, then the old fire's smoke rolls on the table (L1886-1892)."""
    g = begin(scn(terrain=()), dice=[("d6", 1)])
    fire.start_fire(g, 24.0, 20.0, "test")
    add_dice(g, ("d6", 6), ("d6", 4), ("d12", 12), ("d6", 2), ("d6", 3))
    fire._turn_end(g)
    assert g.dice.remaining == 0
    assert burning(g) == [(24.0, 20.0), (24.0, 24.0)]  # 4" towards 12 o'clock (+y)
    assert clouds(g, "fire:1") == [(24.0, 24.0, 1.0), (26.0, 24.0, 1.0)]
    assert clouds(g, "fire:0") == [(24.0, 20.0, 1.0)]  # 3-4: as is
    assert [e["result"] for e in events_of(g, "FireRolled")] == ["spreads"]


@pytest.mark.parametrize("roll,expect", [
    (1, []),
    (2, [(24.0, 20.0, 1.0), (26.0, 20.0, 1.0)]),
    (3, [(24.0, 20.0, 1.0), (26.0, 20.0, 1.0), (28.0, 20.0, 1.0)]),
    (4, [(24.0, 20.0, 1.0), (26.0, 20.0, 1.0), (28.0, 20.0, 1.0)]),
    (5, [(24.0, 20.0, 1.0), (26.0, 20.0, 1.0), (28.0, 20.0, 1.0), (30.0, 20.0, 1.0)]),
    (6, [(24.0, 20.0, 1.0), (26.0, 20.0, 1.0), (28.0, 20.0, 1.0), (30.0, 20.0, 1.0)]),
])
def test_the_natural_smoke_table(roll, expect):
    """L1888-1892: 1 remove all, 2 remove one cloud, 3-4 leave as is, 5-6 add one cloud (downwind)."""
    g = begin(scn(terrain=()), dice=[("d6", 3)])
    fire.start_fire(g, 24.0, 20.0, "test")
    add_dice(g, ("d6", 3), ("d6", roll))
    fire._turn_end(g)
    assert g.dice.remaining == 0
    assert clouds(g) == expect and burning(g) == [(24.0, 20.0)]


def test_without_a_wind_in_the_scenario_a_d12_is_rolled_once():
    """RN-1601: the wind, when the scenario names none, is rolled on the clockface when first needed."""
    g = begin(scn(terrain=(), wind=None), dice=[("d6", 2), ("d12", 6)])
    fire.start_fire(g, 24.0, 20.0, "test")
    assert clouds(g) == [(24.0, 20.0, 1.0), (24.0, 18.0, 1.0)]  # 6 o'clock: towards -y
    assert events_of(g, "WindRolled")[0]["hour"] == 6
    add_dice(g, ("d6", 3), ("d6", 5))
    fire._turn_end(g)
    assert g.dice.remaining == 0 and len(clouds(g)) == 3


# ---------------------------------------------------------------------------------------------- fighting a fire
def test_fighting_a_fire_uses_both_actions_and_a_die_by_the_models():
    """L1874: an infantry unit fights the fire with both actions: a die by the number of its models (5: D6), 4 or
    better removes the marker."""
    blue = [unit("Squad", (24, 10), figures=(("rifle", 5),))]
    g = begin(scn(blue=blue + [unit("Flamers", (5, 5), figures=(("rifle", 1),), flamer=True)], terrain=()),
              dice=[("d6", 1)])
    fire.start_fire(g, 24.0, 13.5, "test")
    activate(g, 0)
    assert ("fight_fire", 0) in g.decision().options
    add_dice(g, ("d6", 4))
    g.apply(("fight_fire", 0))
    assert g.dice.remaining == 0
    assert burning(g) == [] and clouds(g) == []
    ev = events_of(g, "FireFought")[0]
    assert ev["die"] == "d6" and ev["roll"] == 4 and ev["out"]
    assert g.units[0].activated and g.decision().kind != "action"  # both actions used


def test_fighting_a_fire_is_offered_only_with_both_actions_left_and_fails_below_4():
    blue = [unit("Squad", (24, 10), figures=(("rifle", 3),))]
    g = begin(scn(blue=blue + [unit("Flamers", (5, 5), figures=(("rifle", 1),), flamer=True)], terrain=()),
              dice=[("d6", 1)])
    fire.start_fire(g, 24.0, 13.5, "test")
    activate(g, 0)
    add_dice(g, ("d4", 3))
    g.apply(("fight_fire", 0))
    assert burning(g) == [(24.0, 13.5)] and events_of(g, "FireFought")[0]["die"] == "d4"


def test_suppressed_infantry_neither_fights_fires_nor_lays_smoke_nor_ignites():
    """L922: "Suppressed units may only: Defend if attacked, Reorganise if in cover, Prop" (and the leader
    communicates or removes suppression)."""
    blue = [unit("Squad", (24, 10), figures=(("rifle", 5),), flamer=True, smoke_grenades=True)]
    g = begin(scn(blue=blue, terrain=()), dice=[("d6", 1)])
    fire.start_fire(g, 24.0, 13.5, "test")
    g.units[0].suppression = 1
    activate(g, 0)
    assert not {o[0] for o in g.decision().options} & {"fight_fire", "lay_smoke", "ignite"}


def test_the_fight_die_by_models():
    assert [fire.fight_die(n) for n in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20)] == \
        [D4, D4, D6, D6, D8, D8, D10, D10, D12, D12, D12]


# ---------------------------------------------------------------------------------------------- smoke and sight
def test_smoke_blocks_sight_shooting_and_detection_but_not_special_sensors():
    """L1882 "Smoke blocks line of sight and prevents detection and observed fire"; L669: unless the observer has
    special sensors, for whom it conceals (L673, RN-067)."""
    doc = scn(blue=[unit("A", (24, 5), smoke_grenades=True)], red=[unit("B", (24, 20), sensor="enhanced")],
              terrain=())
    g = begin(doc)
    a, b = g.units
    activate(g, 0)
    assert any(o[0] == "shoot" for o in g.decision().options)
    g.apply(("lay_smoke", 0, 6))  # a 6" cloud centred 6" north of A
    assert clouds(g) == [(24.0, 11.0, 3.0)]
    assert not g.bf.sight_for(observer_of(a), a.x, a.y, b.x, b.y).visible
    seen = g.bf.sight_for(observer_of(b), b.x, b.y, a.x, a.y)
    assert seen.visible and seen.concealed
    assert not any(o[0] == "shoot" for o in g.decision().options)
    from dustup_env.rules.unit_actions.shoot_action import shoot_geometry
    assert shoot_geometry(g, a, b) is None and shoot_geometry(g, b, a) is not None
    # detection and hiding: A cannot see B (B is unseen by the ordinary observer), B with sensors sees A
    from dustup_env.rules.unit_actions.hidden_units import unseen
    assert unseen(g, b) and not unseen(g, a)
    # observed fire: the cells behind the cloud are not in A's sight for a fire-support target marker
    from dustup_env.rules.artillery_and_air_support.fire_support_request import sighted_points
    assert (26.0, 21.0) not in sighted_points(g, a) and (42.0, 3.0) in sighted_points(g, a)


def test_artificial_smoke_is_removed_at_the_units_next_activation():
    """L1896 (one action, any distance up to 6" in any direction) and L1898."""
    doc = scn(blue=[unit("A", (24, 5), smoke_grenades=True)], red=[unit("B", (24, 40))], terrain=())
    g = begin(doc)
    activate(g, 0)
    g.apply(("lay_smoke", 4, 3))  # east, 3"
    assert clouds(g) == [(27.0, 5.0, 3.0)]
    assert g.actions_left == 1
    g.apply(("end",))
    activate(g, 1)
    add_dice(g, ("d8", 8), ("d8", 1))  # turn 2: side 0 wins the initiative and goes first
    g.apply(("end",))
    assert clouds(g) == [(27.0, 5.0, 3.0)]  # still there over the enemy's activation and the turn's end
    g.apply(("first",))
    activate(g, 0)
    assert clouds(g) == [] and events_of(g, "SmokeLifted")[0]["unit"] == 0


def test_infantry_lay_smoke_only_with_smoke_grenades_or_the_option():
    doc = scn(blue=[unit("A", (24, 5)), unit("B2", (10, 5), smoke_grenades=True)], terrain=())
    g = begin(doc)
    activate(g, 0)
    assert not any(o[0] == "lay_smoke" for o in g.decision().options)
    g = begin(doc, options={"smoke_grenades": True})
    activate(g, 0)
    assert sum(o[0] == "lay_smoke" for o in g.decision().options) == 32


def test_vehicle_smoke_dischargers_lay_a_6_inch_cloud_6_inches_to_the_front():
    """L1896: "for vehicles it must be 6" to their front"."""
    doc = scn(blue=[vehicle("T", (24, 6), facing=90, smoke_dischargers=True)], terrain=())
    g = begin(doc)
    activate(g, 0)
    g.apply(("discharge_smoke",))
    assert clouds(g) == [(30.0, 6.0, 3.0)]


def test_exhaust_smoke_around_a_stationary_vehicle_and_behind_a_moving_one():
    """L1904: around the whole vehicle if stationary, a 6" cloud directly behind if moving; removed when the vehicle
    is next activated (RN-1606)."""
    doc = scn(blue=[vehicle("T", (24, 10), facing=0, exhaust_smoke=True)], terrain=())
    g = begin(doc)
    activate(g, 0)
    g.apply(("exhaust_smoke",))
    reach = g.rules.services["footprint"](g.units[0])
    assert clouds(g) == [(24.0, 10.0, reach + 1.0)]
    g2 = begin(doc)
    activate(g2, 0)
    smoke._moved(g2, g2.units[0], (24.0, 4.0), False)
    g2.apply(("exhaust_smoke",))
    ((x, y, r),) = clouds(g2)
    assert (x, r) == (24.0, 3.0) and y == pytest.approx(10.0 - reach - 3.0, abs=1e-3)


# ---------------------------------------------------------------------------------------------- artillery smoke
def _smoke_mission(g, x=24.0, y=30.0, size="small"):
    add_dice(g, ("d4", 1), ("d8", 1), ("d12", 12))  # no observer: D4, scatter 1" towards 12 o'clock
    return resolve_mission(g, {"side": 0, "x": x, "y": y, "ammo": "smoke", "size": size, "rounds": 1})


def test_artillery_smoke_forms_a_line_across_the_firers_front_as_long_as_the_burst():
    """L1900: a line the equivalent of the burst (RN-1603: a small round's 3" radius: 6", three 2" clouds), across
    the firer's front (RN-1604)."""
    g = begin(scn(terrain=()))
    pts = _smoke_mission(g)
    assert g.dice.remaining == 0 and pts == [(24.0, 31.0)]
    assert clouds(g) == [(22.0, 31.0, 1.0), (24.0, 31.0, 1.0), (26.0, 31.0, 1.0)]


def test_a_new_mission_at_the_same_target_refreshes_the_line():
    g = begin(scn(terrain=()))
    _smoke_mission(g)
    add_dice(g, ("d6", 4))
    smoke._turn_end(g)
    assert len(clouds(g)) == 2
    _smoke_mission(g)
    assert len(clouds(g)) == 3


@pytest.mark.parametrize("size,roll,left", [("small", 1, 0), ("small", 2, 1), ("small", 3, 1), ("small", 4, 2),
                                            ("small", 6, 2), ("medium", 2, 2), ("medium", 5, 3)])
def test_the_artillery_smoke_dispersal_roll(size, roll, left):
    """L1900: 1 remove all, 2-3 remove half rounded up, 4-6 remove one cloud (a small round's line: 3 clouds, half
    rounded up 2; a medium round's: 4)."""
    g = begin(scn(terrain=()))
    _smoke_mission(g, size=size)
    assert len(clouds(g)) == {"small": 3, "medium": 4}[size]
    add_dice(g, ("d6", roll))
    smoke._turn_end(g)
    assert g.dice.remaining == 0 and len(clouds(g)) == left


def test_a_smoke_generator_keeps_its_trail_while_on_then_disperses():
    """L1902: a 6" trail while on; once off, the dispersal roll at the end of each turn (RN-1605)."""
    doc = scn(terrain=())
    doc["smoke_generators"] = [{"name": "Gen", "position": [10.0, 20.0], "turns": 1}]
    g = begin(doc)
    assert clouds(g) == [(10.0, 20.0, 1.0), (12.0, 20.0, 1.0), (14.0, 20.0, 1.0)]
    g.turn = 1
    smoke._turn_end(g)  # turned off at the end of turn 1: no roll yet
    assert g.dice.remaining == 0 and len(clouds(g)) == 3
    add_dice(g, ("d6", 2))
    g.turn = 2
    smoke._turn_end(g)
    assert len(clouds(g)) == 1


# ---------------------------------------------------------------------------------------------- observation
def test_the_fire_smoke_piece_shows_smoke_and_fire_mirrored_for_each_side():
    """The observation's ``fire_smoke`` piece: the share of each coarse cell under smoke and within a fire's radius,
    each side with its home edge at the bottom; no piece in games without the rules."""
    from dustup_env.observation import Observer
    g = begin(scn(terrain=()), dice=[("d6", 1)])
    fire.start_fire(g, 6.0, 3.0, "test")  # the bottom-left cell (4" x 6" cells on a 48" table)
    ob = Observer.for_game(g)
    assert "fire_smoke" in ob.layout.offset
    ob.set_from(g, 0)
    piece = ob.dict["fire_smoke"]
    assert piece.shape == (2, 8, 12)
    assert piece[0, 0, 1] > 0.0 and piece[1, 0, 1] == 1.0 and piece[0, 7, 1] == 0.0
    assert piece[0].sum() < piece[1].sum()  # one 2" cloud against a 3" radius fire
    ob.set_from(g, 1)
    assert ob.dict["fire_smoke"][1, 7, 1] == 1.0 and ob.dict["fire_smoke"][1, 0, 1] == 0.0
    assert "fire_smoke" not in Observer.for_game(Game("default", seed=0)).layout.offset


# ---------------------------------------------------------------------------------------------- hidden units
def test_smoke_laid_by_a_hidden_unit_shows_and_reveals_it():
    """Clouds and fires are public (L1882: everyone sees smoke, RN-1616); a hidden unit that lays smoke gives its
    position away and is revealed first (L1080, RN-1961): twin games, one with the smoker hidden, give side 0 the same
    cloud and the same record of who laid it, after the reveal."""
    logs = []
    for hidden in (False, True):
        red = [unit("Red", (24, 40), smoke_grenades=True, **({"hidden": True} if hidden else {}))]
        g = begin(scn(blue=[unit("Blue", (24, 6))], red=red, terrain=(rect("light_woods", 20, 38, 28, 46),)),
                  first=1)
        activate(g, 1)
        g.apply(("lay_smoke", 8, 3))  # south, 3"
        assert clouds(g) == [(24.0, 37.0, 3.0)] and not g.units[1].hidden
        laid = [e for e in g.event_log(0) if e["type"] in ("SmokePlaced", "UnitRevealed")]
        assert laid == ([{"type": "UnitRevealed", "unit": 1, "marker": 0, "reason": "laid_smoke"}] if hidden else []) \
            + [{"type": "SmokePlaced", "unit": 1, "source": "grenades", "clouds": [(24.0, 37.0, 3.0)]}]
        logs.append(g)
    assert logs[0].terrain == logs[1].terrain
