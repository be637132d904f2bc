"""The observation's terrain piece follows the dynamic terrain (wrecks today; smoke, fire and rubble as their
rules place them): written again when ``game.bf`` changes, equal to what a fresh observer writes."""
from __future__ import annotations

import numpy as np

from dustup_env.observation import GRID_H, GRID_W, TERRAIN_CHANNELS, Observer, terrain_raster
from dustup_env.rules import Game
from dustup_env.rules.kernel import terrain


def _cell(g, x, y):
    return min(int(y / g.bf.height * GRID_H), GRID_H - 1), min(int(x / g.bf.width * GRID_W), GRID_W - 1)


def test_a_wreck_shows_in_the_terrain_piece_and_a_fresh_observer_agrees():
    g = Game("armour", seed=0)
    obs = Observer.for_game(g)
    before = obs.observation(g, 0)
    t0 = obs.dict["terrain"].copy()
    x, y = 30.0, 10.0  # open ground near the south edge (side 0 sees its home edge at the bottom: row r)
    r, c = _cell(g, x, y)
    assert t0[TERRAIN_CHANNELS.index("conceals"), r, c] == 0.0
    terrain.add(g, {"kind": "wreck", "shape": "circle", "x": x, "y": y, "r": 2.0})
    after = obs.observation(g, 0)
    t1 = obs.dict["terrain"]
    conceal, cover, cost = (TERRAIN_CHANNELS.index(n) for n in ("conceals", "cover", "move_cost"))
    assert t1[conceal, r, c] > 0.0 and t1[cover, r, c] > t0[cover, r, c] and t1[cost, r, c] > t0[cost, r, c]
    changed = np.argwhere(t1 != t0)
    assert len(changed) and all((rr, cc) == (r, c) for _ch, rr, cc in changed)  # only the wreck's cell
    np.testing.assert_array_equal(after, Observer.for_game(g).observation(g, 0))
    assert not np.array_equal(before, after)
    # the other side sees the same wreck in its mirrored frame
    t_red = Observer.for_game(g).observation(g, 1)
    o_red = Observer.for_game(g)
    o_red.set_from(g, 1)
    assert o_red.dict["terrain"][conceal, GRID_H - 1 - r, c] == t1[conceal, r, c]
    assert t_red is not None
    # removed again: back to the static raster
    terrain.remove(g, lambda f: f["kind"] == "wreck")
    obs.observation(g, 0)
    np.testing.assert_array_equal(obs.dict["terrain"], t0)
    np.testing.assert_array_equal(t0, terrain_raster(g.battlefield)[0])


def test_the_front_ends_table_view_lists_the_dynamic_terrain():
    from dustup_env.service import views

    g = Game("armour", seed=0)
    assert views.table_view(g, 0)["dynamic_terrain"] == []
    terrain.add(g, {"kind": "wreck", "shape": "circle", "x": 30.0, "y": 10.0, "r": 2.0})
    for side in (0, 1, None):
        assert views.table_view(g, side)["dynamic_terrain"] == [
            {"kind": "wreck", "shape": "circle", "style": "wreck", "x": 30.0, "y": 10.0, "r": 2.0}]
