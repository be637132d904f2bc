"""The observation built from named pieces (dustup_env.observation): layout, named views, caches, extension."""
from __future__ import annotations

import random

import numpy as np
import pytest

import env_digests
from dustup_env import env as E
from dustup_env.observation import (LAYOUT, LEGACY_LAYOUT, LEGACY_OBS_SIZE, OBS_SIZE, PIECES, Layout, Observer,
                                    Piece, UnitsPiece, layout_description)
from dustup_env.rules import Game


def test_layout_keeps_the_trained_pieces_first():
    """The pieces the shipped ppo (and the training extractor) was trained on lie where they did; the decision and
    entities pieces are appended after them."""
    assert [(p["name"], p["offset"], tuple(p["shape"])) for p in LAYOUT.describe()] == [
        ("units", 0, (24, 37)), ("globals", 888, (15,)), ("objectives", 903, (6, 7)),
        ("terrain", 945, (5, 8, 12)), ("markers", 1425, (24, 6)), ("decision", 1569, (85,)),
        ("entities", 1654, (32, 16))]
    assert OBS_SIZE == E.OBS_SIZE == 2166
    assert LEGACY_LAYOUT.size == LEGACY_OBS_SIZE == 1569 and LEGACY_LAYOUT.prefix_of(LAYOUT)
    assert (E.UNITS_OFF, E.GLOBAL_OFF, E.OBJ_OFF, E.TERRAIN_OFF, E.MARKER_OFF) == (0, 888, 903, 945, 1425)
    assert layout_description()["pieces"][0]["features"][:3] == ["present", "in_play", "x"]
    # the layout hash stored in the shipped model's metadata
    from agents.policy import layout_fingerprint
    assert layout_fingerprint(n_actions=1012) == {"obs_size": 1569, "n_actions": 1012, "layout_hash": "787a58ec5c79702f"}
    assert layout_fingerprint(layout=LAYOUT)["obs_size"] == 2166
    assert layout_fingerprint(layout=LAYOUT)["layout_hash"] != "787a58ec5c79702f"


def test_named_views_are_views_of_the_flat_tensor():
    g = Game("default", seed=3)
    ob = Observer()
    flat = ob.set_from(g, 1)
    assert flat is ob.tensor and flat.dtype == np.float32 and flat.shape == (OBS_SIZE,)
    for name, view in ob.dict.items():
        off, shape = LAYOUT.offset[name], LAYOUT.shape[name]
        assert view.shape == shape and np.shares_memory(view, ob.tensor)
        assert np.array_equal(view.ravel(), flat[off:off + view.size])
    units = ob.dict["units"]
    f = {n: i for i, n in enumerate(UnitsPiece.features)}
    for k, uid in enumerate(g.side_units[1]):  # own rows first for side 1
        assert units[k, f["present"]] == 1.0
        assert units[k, f["x"]] == pytest.approx(g.units[uid].x / g.bf.width)
    assert units[len(g.side_units[1]):12].sum() == 0.0  # empty own slots
    assert ob.dict["globals"][list(E.GLOBAL_FEATURES).index("learner_side")] == 1.0


@pytest.mark.parametrize("scn", ["default", "skirmish-hidden"])
def test_incremental_observer_equals_a_fresh_one_at_every_decision(scn):
    """The caches (unit rows, running totals, line of sight) never let a stale value through."""
    doc = env_digests.hidden_doc("skirmish") if scn == "skirmish-hidden" else scn
    for seed in range(3):
        g = Game(doc, seed=seed, options={"activation": "chits"} if seed == 2 else None)
        long_lived = [Observer(), Observer()]
        rng = random.Random(seed)
        n = 0
        while not g.over:
            d = g.decision()
            for s in (0, 1):
                assert np.array_equal(long_lived[s].observation(g, s), Observer().observation(g, s)), (seed, n, s)
            g.apply(d.options[rng.randrange(len(d.options))])
            n += 1
        assert n > 50


def test_switching_game_or_side_rewrites_everything():
    g1, g2 = Game("default", seed=1), Game("skirmish", seed=2)
    ob = Observer()
    for g, s in ((g1, 0), (g2, 1), (g1, 1), (g2, 0), (g1, 0)):
        assert np.array_equal(ob.observation(g, s), Observer().observation(g, s))
    with pytest.raises(ValueError, match="side"):
        ob.set_from(g1, 2)


class ClockPiece(Piece):
    """A test-only piece: the turn and the phase, written after the globals it reads nothing from."""

    name = "clock"
    shape = (2,)
    features = ("turn_left", "in_action")
    needs = ("globals",)

    def write(self, obs, buf, off):
        g = obs.game
        buf[off] = (g.turn_limit - g.turn) / g.turn_limit
        buf[off + 1] = 1.0 if g.phase == "action" else 0.0


def test_a_new_piece_extends_the_layout_and_keeps_the_rest():
    pieces = PIECES + (ClockPiece,)
    layout = Layout(pieces)
    assert layout.size == OBS_SIZE + 2 and layout.offset["clock"] == OBS_SIZE
    assert [p.name for p in layout.write_order] == ["units", "objectives", "globals", "terrain", "markers", "decision",
                                                    "entities", "clock"]
    g = Game("skirmish", seed=4)
    rng = random.Random(4)
    ext, std = Observer(pieces), Observer()
    for _ in range(40):
        a, b = ext.observation(g, 0), std.observation(g, 0)
        assert np.array_equal(a[:OBS_SIZE], b)
        assert ext.dict["clock"][0] == pytest.approx((g.turn_limit - g.turn) / g.turn_limit)
        d = g.decision()
        g.apply(d.options[rng.randrange(len(d.options))])


def test_layout_errors_name_the_problem():
    class Loop(Piece):
        name, shape, needs = "loop", (1,), ("loop2",)

    class Loop2(Piece):
        name, shape, needs = "loop2", (1,), ("loop",)

    class Orphan(Piece):
        name, shape, needs = "orphan", (1,), ("vehicles",)

    with pytest.raises(ValueError, match="cycle"):
        Layout(PIECES + (Loop, Loop2))
    with pytest.raises(ValueError, match="needs a piece 'vehicles'"):
        Layout(PIECES + (Orphan,))
    with pytest.raises(ValueError, match="distinct"):
        Layout(PIECES + (UnitsPiece,))


def test_string_is_the_sides_view():
    import json

    doc = env_digests.hidden_doc("skirmish")
    g = Game(doc, seed=0)
    ob = Observer()
    for s in (0, 1):
        assert json.loads(ob.string_from(g, s)) == json.loads(json.dumps(g.view(s)))
    assert ob.string_from(g, 0) != ob.string_from(g, 1)
