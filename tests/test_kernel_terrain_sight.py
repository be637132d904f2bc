"""Terrain that changes and sight asked for an observer (the kernel's dynamic terrain, ``kernel/terrain.py``, and
``Battlefield.sight_for``), through test-only rules: smoke that blocks sight for ordinary observers but not for
special sensors (RN-067), an airborne observer that sees over a wood but not through smoke (RN-175), rubble that
takes a building's place (no longer blocks sight; soft cover; difficult going), a breach through a wall, and ground
laid over open water.  The worked example of docs/architecture.md ("How to add terrain that changes, and sight for
an observer")."""
from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import activate, last_event, rect, scenario, unit, wall
from dustup_env.observation import GRID_H, GRID_W, dynamic_terrain_raster, terrain_raster
from dustup_env.rules import Game, Rule, ScriptedDice
from dustup_env.rules.kernel import table, terrain
from dustup_env.rules.kernel.battlefield import GROUND, observer, observer_of
from dustup_env.rules.kernel.events import Event, event
from dustup_env.rules.kernel.terrain import TerrainKind
from dustup_env.rules.unit_actions.hidden_units import unseen
from dustup_env.rules.unit_actions.move_action import move_options


# ------------------------------------------------------------------ the test-only rule (the worked example)
@event
class Demolished(Event):
    unit: int
    building: str


def _demolish_options(game, u, status):
    """("reorganise", "demolish") for a unit whose leader stands within 2" of a standing building."""
    if status.suppressed or status.disorganised or _building_near(game, u) is None:
        return []
    return [("reorganise", "demolish")]


def _building_near(game, u):
    for ty, name, poly, _ in game.bf.features:  # the ground's features: a demolished building is gone from them
        if ty == "building" and poly.distance(_point(u)) <= 2.0:
            return name, poly
    return None


def _point(u):
    from shapely.geometry import Point
    return Point(u.x, u.y)


def _demolish(game, u):
    name, poly = _building_near(game, u)
    pts = [list(c) for c in poly.exterior.coords[:-1]]
    terrain.add(game, {"kind": "test_rubble", "shape": "polygon", "points": pts})
    game.emit(Demolished(u.uid, name))


KINDS = {
    "test_smoke": TerrainKind(smoke=True),  # blocks sight, but special sensors see through (concealed)
    "test_rubble": TerrainKind(ground="rough", move_cost=3),  # the building's place: rough ground, difficult going
    "test_breach": TerrainKind(clears_obstacles=True),  # a gap blown through a wall
    "test_drained": TerrainKind(ground="open"),  # dry ground where the scenario has water
}
DEMOLITION = Rule("Test demolition", "a test-only rule", action_options=(_demolish_options,),
                  reorganise={"demolish": _demolish}, terrain=KINDS)


def smoke(game, x, y, r=2.0):
    terrain.add(game, {"kind": "test_smoke", "shape": "circle", "x": x, "y": y, "r": r})


# ------------------------------------------------------------------ sight for an observer
def duel(**red):
    return scenario([unit("A", (24, 5))], [unit("B", (24, 30), **red)],
                    terrain=[rect("dense_woods", 0, 40, 10, 47)])


def test_smoke_blocks_ordinary_observers_but_not_special_sensors():
    g = Game(duel(sensor="enhanced"), rules=(DEMOLITION,), dice=ScriptedDice([("d8", 8), ("d8", 1)]))
    a, b = g.units
    assert observer_of(a) is GROUND and observer_of(b) == observer(special_sensors=True)
    smoke(g, 24, 17)
    assert not g.bf.sight_for(observer_of(a), 24, 5, 24, 30).visible
    seen = g.bf.sight_for(observer_of(b), 24, 30, 24, 5)
    assert seen.visible and seen.concealed  # smoke conceals for special sensors (RN-067)
    assert g.bf.sight(24, 5, 24, 30) == g.bf.sight_for(GROUND, 24, 5, 24, 30)
    # the engine asks for its units: the enemy with sensors still sees A, A does not see B
    assert not unseen(g, a) and unseen(g, b)
    g.apply(("first",))
    activate(g, 0)
    assert not any(o[0] == "shoot" for o in g.decision().options)  # A's line of fire is blocked
    g.apply(("end",))
    activate(g, 1)
    assert ("shoot", 0, "all") in g.decision().options  # B fires through the smoke, concealed
    from dustup_env.rules.unit_actions.shoot_action import shoot_geometry
    assert shoot_geometry(g, b, a) == (1, 0) and shoot_geometry(g, a, b) is None


def test_an_airborne_observer_sees_over_the_terrain_but_not_through_smoke():
    g = Game(duel(), rules=(DEMOLITION,))
    air = observer(airborne=True)
    assert not g.bf.sight(5, 30, 5, 46).visible  # the dense wood blocks a ground observer
    assert g.bf.sight_for(air, 5, 30, 5, 46) == g.bf.sight_fn(air)(5, 30, 5, 46)
    assert g.bf.sight_for(air, 5, 30, 5, 46).visible and not g.bf.sight_for(air, 5, 30, 5, 46).concealed
    smoke(g, 5, 36)
    assert not g.bf.sight_for(air, 5, 30, 5, 46).visible  # smoke is the one terrain it meets
    assert g.bf.sight_for(observer(special_sensors=True, airborne=True), 5, 30, 5, 46).concealed
    assert g.bf.sight_for(air, 15, 30, 15, 46).visible  # beside the smoke: over the ground as before
    assert not g.bf.sight_fn(GROUND)(5, 30, 5, 46).visible


HOVER = table.register_location("test_hover", airborne=True)  # a test-only rule's location over the table


def _take_off(game):
    """init of a test-only rule: the first unit of side 1 hovers over the table (a drone, an aircraft)."""
    game.units[game.side_units[1][0]].location = HOVER


HOVERING = Rule("Test hovering", "a test-only rule", init=(_take_off,))


def test_a_unit_in_a_location_registered_airborne_is_an_airborne_observer():
    """observer_of reports the airborne observer a rule's location makes (RN-175): the kernel's sight_for reads it."""
    g = Game(scenario([unit("A", (24, 5))], [unit("B", (5, 30), sensor="enhanced")],
                      terrain=[rect("dense_woods", 0, 40, 10, 47)]), rules=(HOVERING, DEMOLITION))
    a, b = g.units
    assert observer_of(a) is GROUND and observer_of(b) == observer(special_sensors=True, airborne=True)
    assert not g.bf.sight_for(GROUND, 5, 30, 5, 46).visible
    assert g.bf.sight_for(observer_of(b), b.x, b.y, 5, 46).visible  # over the dense wood
    smoke(g, 5, 36)
    assert g.bf.sight_for(observer_of(b), b.x, b.y, 5, 46).concealed  # smoke: its sensors see through, concealed
    b.location = "routed_off"  # a location not registered airborne: on the ground again
    assert observer_of(b) == observer(special_sensors=True)
    h = Game.from_snapshot(json.loads(json.dumps(Game(g.source_scenario, rules=(HOVERING,)).snapshot())),
                           rules=(HOVERING,))
    assert observer_of(h.units[1]).airborne  # the location is saved by name, and so is what it makes of sight


# ------------------------------------------------------------------ rubble: terrain that takes away
def town():
    return scenario([unit("A", (24, 8.5))], [unit("B", (24, 30))],
                    terrain=[rect("building", 20, 10, 28, 20, name="Town hall")])


def test_rubble_replaces_a_building_for_sight_cover_concealment_and_movement():
    g = Game(town(), rules=(DEMOLITION,), dice=ScriptedDice([("d8", 8), ("d8", 1), ("d6", 6)]))
    static = g.battlefield
    assert not g.bf.has_los(24, 5, 24, 30) and g.bf.cover_at(24, 15) == 2 and g.bf.conceals(24, 15)
    g.apply(("first",))
    activate(g, 0)
    assert ("reorganise", "demolish") in g.decision().options
    g.apply(("reorganise", "demolish"))
    assert last_event(g, "Demolished") == {"type": "Demolished", "unit": 0, "building": "Town hall"}
    bf = g.bf
    assert bf.dynamic and bf.ground is not static and bf.terrain_at(24, 15) == "rough"
    assert bf.has_los(24, 5, 24, 30) and not static.has_los(24, 5, 24, 30)  # the rubble no longer blocks
    assert not bf.sight(24, 5, 24, 30).concealed
    assert (bf.cover_at(24, 15), bf.conceals(24, 15)) == (1, False)  # soft cover (rough), not concealing
    assert (bf.move_cost(24, 15), static.move_cost(24, 15)) == (3, 2)
    assert bf.move_cost(24, 15, 1) == 3 and static.move_cost(24, 15, 1) == 2  # power armour: rough 1, then 3
    assert not any(ty == "building" for ty, *_ in bf.features)
    assert "demolish" not in {o[1] for o in g.decision().options if o[0] == "reorganise"}  # nothing left standing
    # a second game walks through the standing hall; this one through the rubble: 1.5" of open (1.5 MP), then the
    # rest of 12 MP at 2 per inch in the hall (5.25") or 3 per inch in the rubble (3.5")
    g.apply(("move", 0, 3))
    assert last_event(g, "Moved")["end"] == [24.0, 13.5]
    h = Game(town(), dice=ScriptedDice([("d8", 8), ("d8", 1), ("d6", 6)]))
    h.apply(("first",))
    activate(h, 0)
    h.apply(("move", 0, 3))
    assert last_event(h, "Moved")["end"] == [24.0, 15.25]


def test_rubble_over_part_of_a_building_leaves_the_rest_standing():
    g = Game(town(), rules=(DEMOLITION,))
    terrain.add(g, {"kind": "test_rubble", "shape": "circle", "x": 24, "y": 15, "r": 2})  # a hole in the middle
    bf = g.bf
    assert bf.terrain_at(24, 15) == "rough" and bf.terrain_at(21, 11) == "building"
    assert bf.cover_at(21, 11) == 2 and bf.cover_at(24, 15) == 1
    assert not bf.has_los(24, 5, 24, 30)  # still more than 2" of building on the line (6" of 10")
    assert not bf.has_los(24, 15, 24, 30)  # from the hole northwards: 3" of the standing building
    s = bf.sight(24, 15, 24, 11.5)  # southwards: 1.5" of it conceals (the whole 3.5" blocked before)
    assert s.visible and s.concealed and not g.battlefield.has_los(24, 15, 24, 11.5)
    assert not bf.has_los(0, 15, 48, 15)  # 2" + 2" of building either side of the hole


def test_a_breach_takes_a_wall_away_where_it_lies():
    scn = scenario([unit("A", (24, 5))], [unit("B", (24, 30))], obstacles=[wall("wall", 0, 20, 48, 20, cost=2)])
    g = Game(scn, rules=(DEMOLITION,))
    assert g.bf.sight(24, 5, 24, 22) == g.battlefield.sight(24, 5, 24, 22)
    assert g.bf.sight(24, 5, 24, 22).cover == 2 and g.bf.obstacle_crossing_cost(24, 19, 24, 21) == 2
    terrain.add(g, {"kind": "test_breach", "shape": "circle", "x": 26, "y": 20, "r": 3.0})
    bf = g.bf
    s = bf.sight(24, 5, 24, 22)
    assert s.visible and s.cover == 0 and not s.concealed  # no wall between: no cover, no concealment
    assert bf.obstacle_crossing_cost(24, 19, 24, 21) == 0 and bf.obstacle_crossing_cost(10, 19, 10, 21) == 2
    assert bf.sight(10, 5, 10, 22).cover == 2  # the rest of the wall stands
    ch = dynamic_terrain_raster(bf)[0][4]  # the observation's obstacle channel: the breach shows
    r, c = int(20 / 48 * GRID_H), int(24 / 48 * GRID_W)
    assert ch[r, c] == 0.0 and terrain_raster(g.battlefield)[0][4][r, c] > 0.0


# ------------------------------------------------------------------ movement caches and the observation
def test_move_options_follow_ground_laid_over_water():
    scn = scenario([unit("A", (24, 5))], [unit("B", (24, 40))], terrain=[rect("open_water", 18, 8, 30, 20)])
    g = Game(scn, rules=(DEMOLITION,))
    u = g.units[0]
    before = move_options(g, u, False)  # cached on the static battlefield (and its ray masks)
    assert ("move", 0, 2) not in before  # 12" north lands in the water
    terrain.add(g, {"kind": "test_drained", "shape": "polygon", "points": [[18, 8], [30, 8], [30, 20], [18, 20]]})
    after = move_options(g, u, False)
    assert ("move", 0, 2) in after and after is not before
    assert g.battlefield.move_option_cache[(u.x, u.y, False, u.terrain_column)] is before  # the static one unchanged
    terrain.remove(g, lambda f: f["kind"] == "test_drained")
    assert move_options(g, u, False) is before and g.bf is g.battlefield


def test_the_observations_terrain_piece_follows_a_removal():
    g = Game(town(), rules=(DEMOLITION,))
    r, c = int(15 / 48 * GRID_H), int(24 / 48 * GRID_W)
    base = terrain_raster(g.battlefield)[0]
    assert base[0, r, c] == 1.0 and base[2, r, c] == 1.0  # blocks, hard cover
    terrain.add(g, {"kind": "test_rubble", "shape": "polygon", "points": [[20, 10], [28, 10], [28, 20], [20, 20]]})
    out = dynamic_terrain_raster(g.bf)[0]
    assert out[0, r, c] == 0.0 and out[1, r, c] == 0.0 and out[2, r, c] == 0.5  # no longer blocks; soft cover
    assert out[3, r, c] == pytest.approx(2 / 3)  # 3 MP per inch
    sr, sc = int(30 / 48 * GRID_H), int(42 / 48 * GRID_W)
    assert out[0, sr, sc] == 0.0
    smoke(g, 42, 30, r=4.0)
    assert dynamic_terrain_raster(g.bf)[0][0, sr, sc] > 0.5  # smoke blocks on the map
    assert np.array_equal(dynamic_terrain_raster(g.bf)[0][:, r, c], out[:, r, c])


def test_the_ground_is_shared_rebuilt_after_copies_and_snapshots_and_kinds_are_checked():
    g = Game(town(), seed=3, rules=(DEMOLITION,))
    terrain.add(g, {"kind": "test_rubble", "shape": "polygon", "points": [[20, 10], [28, 10], [28, 20], [20, 20]]})
    c = g.clone()
    assert c.bf is g.bf
    h = Game.from_snapshot(json.loads(json.dumps(g.snapshot())), rules=(DEMOLITION,))
    assert h.bf is not g.bf and h.bf.ground is g.bf.ground  # one ground per layout, kept by the static battlefield
    assert h.bf.has_los(24, 5, 24, 30) and h.state_digest() == g.state_digest()
    smoke(g, 40, 40)
    assert g.bf.ground is h.bf.ground  # smoke adds: the ground under it is the same
    with pytest.raises(ValueError, match="unknown ground 'lava'"):
        TerrainKind(ground="lava")
