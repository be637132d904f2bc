"""What the table shows beyond the units (dustup_env/features.py), in the page's view and in the replay pictures:
table entities as the side knows them (a minefield only its owner knows never shows to the other side), dynamic
terrain, the latest bursts and their scatter, aircraft in flight, a look per kind with a fallback for a kind no
style names, and the legend."""
from __future__ import annotations

import numpy as np
import pytest

from test_kernel_entities import game as mines_game

from dustup_env import features as feat
from dustup_env.agent_registry import make_agent
from dustup_env.render import legend_height, render_rgb, replay_frames, save_gif
from dustup_env.rules import Game
from dustup_env.rules.kernel import terrain
from dustup_env.service import views


def _play_until(scn, seed, cond, limit=600):
    g = Game(scn, seed=seed)
    agents = [make_agent("hard", seed=1), make_agent("hard", seed=2)]
    for _ in range(limit):
        if g.over:
            break
        d = g.decision()
        g.apply(agents[d.side].choose(g, d))
        if cond(g):
            return g
    raise AssertionError(f"{scn}: the position sought never came")


def test_a_look_per_kind_and_a_fallback_labelled_with_the_kind():
    assert feat.style("fire_target")["glyph"] == "cross"
    assert feat.style("smoke")["name"] == "smoke" and feat.style("smoke_cloud")["name"] == "smoke"
    assert feat.style("burning_building")["name"] == "fire" and feat.style("ap_minefield")["name"] == "minefield"
    assert feat.style("ied")["name"] == "mine" and feat.style("small_drone")["name"] == "drone"
    odd = feat.style("strange_thing")
    assert odd["label"] == "strange thing" and odd["legend"] == "strange thing" and odd["dash"]
    from dustup_env.rules.aerospace_operations.ordnance import BOMB_RADIUS
    assert feat.BOMB_RADIUS == BOMB_RADIUS


def test_entities_are_drawn_only_as_the_side_knows_them():
    """Side 1's minefield (known to its owner only) is in side 1's view and picture, never in side 0's: side 0's
    view and picture are those of a game without it."""
    with_mines, without = mines_game(mines=True), mines_game(mines=False)
    v1 = views.table_view(with_mines, 1)
    kinds = {e["kind"]: e for e in v1["entities"]}
    assert set(kinds) == {"test_beacon", "test_minefield"}
    assert kinds["test_minefield"]["style"] == "minefield" and kinds["test_minefield"]["shape"] == {"shape": "circle", "r": 2.0}
    assert kinds["test_beacon"]["style"] == "test_beacon"  # the fallback: no style names a beacon
    assert set(v1["feature_styles"]) == {"minefield", "test_beacon"}
    assert v1["feature_styles"]["test_beacon"]["label"] == "test beacon"
    assert [e["kind"] for e in views.table_view(with_mines, 0)["entities"]] == ["test_beacon"]
    assert views.table_view(with_mines, 0) == views.table_view(without, 0)
    assert np.array_equal(render_rgb(with_mines, 10, side=0, legend=True), render_rgb(without, 10, side=0, legend=True))
    assert not np.array_equal(render_rgb(with_mines, 10, side=1), render_rgb(without, 10, side=1))
    assert not np.array_equal(render_rgb(with_mines, 10, side=None), render_rgb(without, 10, side=None))
    # the minefield is drawn where it lies: its cross in side 1's picture, open ground in side 0's
    a, b = render_rgb(with_mines, 10, side=1), render_rgb(with_mines, 10, side=0)
    row, col = a.shape[0] - 1 - 10 * 10, 30 * 10  # (30, 10) in pixels (north up)
    assert not np.array_equal(a[row - 3:row + 4, col - 3:col + 4], b[row - 3:row + 4, col - 3:col + 4])


def test_dynamic_terrain_is_drawn_with_its_kind_and_listed_in_the_legend():
    g = Game("armour", seed=0)
    before = render_rgb(g, 10, side=0)
    terrain.add(g, {"kind": "wreck", "shape": "circle", "x": 30.0, "y": 10.0, "r": 2.0})
    after = render_rgb(g, 10, side=0)
    assert not np.array_equal(before, after)
    assert views.table_view(g, 1)["dynamic_terrain"][0]["style"] == "wreck"
    looks = views.table_view(g, 0)["feature_styles"]
    assert "wreck" in looks and looks["wreck"]["legend"] == "wreck"
    # the legend band grows by the game's kinds, the same in every picture of the game
    assert legend_height(g, 10, 480) > legend_height(Game("default", seed=0), 10, 480)


def test_bursts_and_scatter_from_the_events_of_this_turn_and_the_last():
    g = Game("fire-support", seed=3)
    log = [{"type": "TurnStarted", "turn": 1},
           {"type": "RoundLanded", "side": 0, "round": 1, "on_target": False, "origin": [10.0, 10.0],
            "at": [13.0, 14.0], "radius": 4.0, "ammo": "general"},
           {"type": "TurnStarted", "turn": 2},
           {"type": "RoundLanded", "side": 0, "round": 1, "on_target": True, "origin": [20.0, 20.0],
            "at": [20.0, 20.0], "radius": 6.0, "ammo": "anti_personnel"},
           {"type": "BombDropped", "unit": 3, "x": 30.0, "y": 5.0, "roll": 2}]
    g.turn = 2
    got = feat.bursts(g, 0, log)
    assert got == [
        {"x": 13.0, "y": 14.0, "r": 4.0, "origin": [10.0, 10.0], "on_target": False, "ammo": "general", "age": 1},
        {"x": 20.0, "y": 20.0, "r": 6.0, "origin": None, "on_target": True, "ammo": "anti_personnel", "age": 0},
        {"x": 30.0, "y": 5.0, "r": feat.BOMB_RADIUS, "origin": None, "on_target": True, "ammo": "bomb", "age": 0}]
    g.turn = 3  # two turns on: only the turn before's
    assert [b["age"] for b in feat.bursts(g, 0, log)] == [1, 1]
    assert feat.bursts(Game("default", seed=0), 0, log) == []  # no fire support, no aircraft: nothing is looked for


def test_a_fire_support_game_draws_target_markers_and_bursts_in_the_view_and_the_picture():
    g = _play_until("fire-support", 3, lambda g: views.table_view(g, 0).get("bursts") and
                    views.table_view(g, 0).get("entities"))
    for side in (0, 1):  # target markers are public (which is real is not: real and dummy are the same kind)
        tv = views.table_view(g, side)
        assert {e["kind"] for e in tv["entities"]} == {"fire_target"} and "fire_target" in tv["feature_styles"]
        assert all(set(e) == {"ref", "kind", "owner", "x", "y", "shape", "state", "style"} for e in tv["entities"])
        assert tv["bursts"] and "burst" in tv["feature_styles"]
    b = views.table_view(g, 0)["bursts"][-1]
    pic = render_rgb(g, 10, side=0)
    row, col = pic.shape[0] - 1 - int(round(b["y"] * 10)), int(round(b["x"] * 10))
    assert tuple(pic[row, col]) == (255, 212, 0)  # the burst's star at its point


def test_aircraft_in_flight_are_marked_in_the_view_and_the_picture():
    g = _play_until("air-assault", 3, lambda g: any(u.get("air") for u in views.table_view(g, 0)["units"]))
    tv = views.table_view(g, 0)
    flying = [u for u in tv["units"] if u.get("air")]
    assert all(u["air"]["mode"] in ("airborne", "hovering", "grounded") and u["location"] == "table" for u in flying)
    off = [u for u in tv["units"] if u.get("vehicle") and u["location"] != "table"]
    layout = []
    render_rgb(g, 10, side=0, layout=layout)
    texts = [t for t, _ in layout]
    for u in flying:
        mark = {"airborne": "(A)", "hovering": "(H)", "grounded": "(G)"}[u["air"]["mode"]]
        assert f"{u['name']} {mark}" in texts
    for u in off:  # an aircraft in the loiter box or on the inbound track is not on the table
        assert not any(t.startswith(u["name"]) for t in texts)
    assert "aircraft" in tv["feature_styles"]


@pytest.mark.parametrize("scn", ["fire-support"])
def test_replay_pictures_keep_one_size_with_the_features_legend(tmp_path, scn):
    g = _play_until(scn, 3, lambda g: bool(views.table_view(g, 0).get("bursts")))
    frames = list(replay_frames(g.to_dict(), every="turn", size=480))
    assert len({f.shape for _, f in frames}) == 1
    assert save_gif(frames, tmp_path / "x.gif") == len(frames)


@pytest.mark.parametrize("seed", [1, 2])
def test_twin_games_swapped_on_the_real_target_marker_draw_the_same_for_the_other_side(seed):
    """Side 0 places its real marker and two dummies at the same three points, the real one first in one game and
    second in the other: side 1's view, page view and picture are the same, markers drawn alike."""
    from test_fire_support_views import OPTIONS, _scn
    import random

    def play(order):
        g = Game(_scn(), seed=seed, options=OPTIONS)
        rng, placed, pts = random.Random(seed), 0, None
        while not g.over:
            d = g.decision()
            req = [o for o in d.options if o[0] == "request_fire"]
            if d.kind in ("fire_target", "fire_dummy"):
                if pts is None:
                    pts = sorted((o[1], o[2]) for o in d.options)[:3]
                g.apply((d.kind, *pts[order[placed]]))
                placed += 1
                if placed == 3:
                    return g
            else:
                g.apply(req[0] if req else d.options[rng.randrange(len(d.options))])
        raise AssertionError("no request was granted")

    a, b = play((0, 1, 2)), play((1, 0, 2))
    from dustup_env.rules.artillery_and_air_support.fire_missions import missions
    real = [missions(g, 0)[-1]["real"] for g in (a, b)]
    assert real[0] != real[1] and [e["x"] for e in a.entities] == [e["x"] for e in b.entities]  # the same markers
    ta, tb = views.table_view(a, 1), views.table_view(b, 1)
    assert len(ta["entities"]) == 3 and ta == tb
    assert np.array_equal(render_rgb(a, 10, side=1, legend=True), render_rgb(b, 10, side=1, legend=True))


def test_the_text_map_marks_target_markers_bursts_and_aircraft():
    from dustup_env.render import render_ansi
    g = _play_until("fire-support", 3, lambda g: views.table_view(g, 0).get("bursts") and
                    views.table_view(g, 0).get("entities"))
    text = render_ansi(g, 0)
    grid = text.split("+\n")[1]
    assert "X" in grid and "@" in grid
    assert "X=target marker of a fire-support request" in text and "@=a round or bomb landed" in text
    g = _play_until("air-assault", 3, lambda g: any(u.get("air") for u in views.table_view(g, 0)["units"]))
    text = render_ansi(g, 0)
    assert ", aircraft airborne" in text or ", aircraft hovering" in text or ", aircraft grounded" in text


def test_the_page_replay_frames_carry_the_features():
    """``POST /replay``'s frames (the page's replay viewer, a spectator) carry the dynamic terrain, the table entities
    and the bursts of each moment."""
    from dustup_env.service.server import replay_frames as page_frames
    g = _play_until("fire-support", 3, lambda g: bool(views.table_view(g, None).get("bursts")))
    frames = page_frames(g.to_dict())["frames"]
    assert all("dynamic_terrain" in f and "feature_styles" in f for f in frames)
    assert any(f.get("entities") for f in frames) and frames[-1].get("bursts")
    assert {e["kind"] for f in frames for e in f.get("entities", [])} == {"fire_target"}
