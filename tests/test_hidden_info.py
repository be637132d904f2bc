"""Information sets: the opponent cannot tell which marker hides the real unit.

Two games differ only in which marker is the real hidden unit (and so where the hidden unit stands).
With identical seeds and decision sequences that do not reveal it, Blue's observation, action mask,
``view(0)`` and filtered event log must be byte-identical in both games at every step.
"""
import random

import numpy as np
import pytest

from conftest import activate, begin, rect, scenario, unit
from dustup_env.codec import ActionCodec, side_flips
from dustup_env.env import MARKER_OFF, MF, UF, UNITS_OFF, DustupEnv
from dustup_env.rules import Game, ScriptedDice
from dustup_env.rules.kernel.entities import SHAKEN
from dustup_env.rules.unit_actions.move_action import nearest_enemy

WOOD = rect("light_woods", 10, 28, 34, 36)
SPOTS = ((14.0, 30.0), (20.0, 32.0), (28.0, 30.0))


def twin_scenarios(real_a=1, real_b=2):
    """Blue: two squads (uids 0, 1).  Red: a visible squad (uid 2) and a hidden squad (uid 3) behind one
    of three markers; the other two markers are dummies."""
    out = []
    for real in (real_a, real_b):
        spot = SPOTS[real]
        scn = scenario([unit("A", (20, 8)), unit("A2", (8, 6))],
                       [unit("B", (40, 44)), unit("H", spot, hidden=True)], terrain=[WOOD], turn_limit=4)
        scn["sides"][1]["dummies"] = [list(p) for p in SPOTS if p != spot]
        out.append(scn)
    return out


def observe(game, side):
    """The env's observation of ``game`` for ``side`` (the same code the env runs at every step)."""
    env = DustupEnv(scenario=game.scenario, opponent=lambda g, d: d.options[0], learner_side=side)
    env.game = game
    env.learner = side
    env._flip = side_flips(game, side)
    env._write_static()
    env._vis_key = None
    env._mask_for = None
    return env._observation()


CODEC = ActionCodec()


def blue_knowledge(g):
    d = None if g.over else g.decision()
    mask = CODEC.mask(g, d).tobytes() if d is not None and d.side == 0 else None
    return observe(g, 0).tobytes(), mask, repr(g.view(0)), repr(g.event_log(0))


def assert_same_for_blue(ga, gb):
    ka, kb = blue_knowledge(ga), blue_knowledge(gb)
    assert ka[0] == kb[0], "observation differs"
    assert ka[1] == kb[1], "action mask differs"
    assert ka[2] == kb[2], "view(0) differs"
    assert ka[3] == kb[3], "filtered event log differs"


QUIET = ("end", "prop", "unprop")


def lockstep(ga, gb, rng, max_steps=400, blue_detects=False):
    """Play both games with the same choices; the hidden unit (uid 3) only takes quiet actions."""
    steps = 0
    while not ga.over and steps < max_steps:
        assert not gb.over
        da, db = ga.decision(), gb.decision()
        assert (da.side, da.kind) == (db.side, db.kind)
        if da.side == 1 and da.kind == "action" and da.unit == 3:
            opts = [o for o in da.options if o[0] in QUIET]
        else:
            assert da.options == db.options
            opts = [o for o in da.options if blue_detects or o[0] != "detect"]
        opt = rng.choice(opts)
        ga.apply(opt)
        gb.apply(opt)
        assert_same_for_blue(ga, gb)
        steps += 1
    return steps


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("pair", [(0, 1), (1, 2), (0, 2)])
def test_opponent_cannot_tell_which_marker_is_real(seed, pair):
    sa, sb = twin_scenarios(*pair)
    ga, gb = Game(sa, seed=seed), Game(sb, seed=seed)
    assert ga.snapshot() != gb.snapshot()  # the games really differ (where the hidden unit is)
    assert [{k: m[k] for k in ("side", "x", "y", "removed")} for m in ga.markers] == \
           [{k: m[k] for k in ("side", "x", "y", "removed")} for m in gb.markers]
    assert_same_for_blue(ga, gb)
    steps = lockstep(ga, gb, random.Random(seed))
    assert steps > 20
    assert ga.units[3].hidden and gb.units[3].hidden
    assert ga.view(1) != gb.view(1)  # Red knows where its own unit is


def test_hidden_unit_slot_is_empty_and_markers_look_alike():
    sa, _ = twin_scenarios()
    g = Game(sa, seed=0)
    obs = observe(g, 0)
    enemy_slot_h = UNITS_OFF + (12 + 1) * UF  # Red's second unit (uid 3) in Blue's enemy slots
    assert not obs[enemy_slot_h:enemy_slot_h + UF].any()
    assert obs[UNITS_OFF + 12 * UF] == 1.0  # the visible Red squad is there
    for i in range(3):
        o = MARKER_OFF + i * MF
        assert obs[o] == 1.0 and obs[o + 3] == 0.0 and obs[o + 4] == 0.0 and obs[o + 5] == 0.0
    red = observe(g, 1)  # Red sees which of its markers is real and its own unit
    real = next(i for i, m in enumerate(g.markers) if m["unit"] == 3)
    assert red[MARKER_OFF + real * MF + 4] == 1.0 and red[MARKER_OFF + real * MF + 5] == pytest.approx(1 / 12)
    assert red[UNITS_OFF + 1 * UF] == 1.0


def test_view_hides_identity():
    sa, _ = twin_scenarios()
    g = Game(sa, seed=0)
    v = g.view(0)
    assert v["units"][3] == {"uid": 3, "side": 1, "name": "H", "hidden": True}
    assert all("unit" not in m for m in v["markers"])
    assert all("unit" in m for m in g.view(1)["markers"])
    assert g.view(1)["units"][3]["x"] == SPOTS[1][0]


def test_filtered_log_hides_the_hidden_units_activity():
    sa, _ = twin_scenarios()
    g = begin(sa, [], first=1)
    activate(g, 3)
    g.apply(("prop",))
    g.apply(("end",))
    full = g.event_log()
    blue = g.event_log(0)
    assert any(e["type"] == "UnitActivated" and e["unit"] == 3 for e in full)
    assert not any(e.get("unit") == 3 for e in blue)
    assert blue[-1] == {"type": "HiddenActivity", "side": 1}  # one entry for the whole run
    assert g.event_log(1)[1:] == full[1:]  # Red sees all of its own events
    assert full[0]["seed"] == 0 and g.event_log(0)[0]["seed"] is None is g.event_log(1)[0]["seed"]  # not the seed


def test_events_after_the_reveal_are_shown():
    sa, _ = twin_scenarios()
    g = begin(sa, [], first=1)
    activate(g, 3)
    g.dice.results.extend(ScriptedDice([("d6", 1)]).results)
    g.apply(next(o for o in g.decision().options if o[0] == "move"))
    blue = g.event_log(0)
    types = [e["type"] for e in blue]
    assert types[-3:] == ["HiddenActivity", "UnitRevealed", "Moved"]


def scripted_twins(dice):
    sa, sb = twin_scenarios()
    ga, gb = begin(sa, dice), begin(sb, dice)
    return ga, gb


def test_failed_detection_reveals_nothing():
    dice = [("d12", 12), ("d8", 3), ("d4", 2)]  # observer 22"+ away: D12 range die
    ga, gb = scripted_twins(dice)
    for g in (ga, gb):
        activate(g, 0)
    assert_same_for_blue(ga, gb)
    real_a = next(i for i, m in enumerate(ga.markers) if m["unit"] == 3)
    for g in (ga, gb):
        g.apply(("detect", real_a))
    assert_same_for_blue(ga, gb)
    assert ga.dice.remaining == gb.dice.remaining == 0


def test_minor_success_tells_the_observer_the_marker_is_real():
    """The rules let a minor success distinguish a dummy from a real unit: the twins then differ."""
    dice = [("d12", 2), ("d8", 3), ("d4", 1)]
    ga, gb = scripted_twins(dice)
    real_a = next(i for i, m in enumerate(ga.markers) if m["unit"] == 3)
    for g in (ga, gb):
        activate(g, 0)
        g.apply(("detect", real_a))
    assert not ga.markers[real_a]["removed"] and gb.markers[real_a]["removed"]
    assert blue_knowledge(ga)[3] != blue_knowledge(gb)[3]


def test_shaken_advance_test_ignores_hidden_units():
    """A shaken unit's 'towards the nearest enemy' test uses known enemies only (no dice leak)."""
    sa, sb = twin_scenarios()
    ga, gb = begin(sa, []), begin(sb, [])
    for g in (ga, gb):
        g.units[0].confidence = SHAKEN
        assert nearest_enemy(g, g.units[0]).uid == 2


def test_env_episode_with_hidden_units_masks_match():
    sa, _ = twin_scenarios()
    env = DustupEnv(scenario=sa, opponent="random", learner_side="both")
    for ep in range(4):
        obs, info = env.reset(seed=ep) if ep == 0 else env.reset()
        done = False
        rng = np.random.default_rng(ep)
        while not done:
            mask = env.action_masks()
            a = int(rng.choice(np.flatnonzero(mask)))
            obs, r, term, trunc, info = env.step(a)
            assert obs.shape == env.observation_space.shape and env.observation_space.contains(obs)
            done = term or trunc


@pytest.mark.parametrize("options", [{}, {"seize_tokens": 2}, {"activation": "cards"}])
def test_scripted_agent_detects_and_declines_seizing(options):
    from agents import make_agent

    sa, _ = twin_scenarios()
    agents = [make_agent("scripted", seed=0), make_agent("random", seed=1)]
    for a in agents:
        a.reset(0)
    g = Game(sa, seed=3, options=options)
    while not g.over:
        d = g.decision()
        g.apply(agents[d.side].choose(g, d))
    assert any(e["type"] == "DetectionAttempted" for e in g.event_log())
