"""Tests of the Gymnasium environment (dustup_env.env) and the action codec (dustup_env.codec)."""
from __future__ import annotations

import random
import time

import gymnasium as gym
import numpy as np
import pytest

import dustup_env  # noqa: F401  (registers Dustup-v0)
from dustup_env.codec import (ACTIVATE0, MOVE0, N_ACTIONS, N_DIST, SHOOT0, ActionCodec, mirror_direction,
                              side_flips)
from dustup_env.env import GLOBAL_OFF, OBS_SIZE, UF, UNITS_OFF, DustupEnv
from dustup_env.rules import IllegalOptionError
from dustup_env.rules.unit_actions.shoot_action import FIRE_MODES


def random_masked_action(env, rng):
    legal = np.flatnonzero(env.action_masks())
    return int(legal[rng.randrange(len(legal))])


# ------------------------------------------------------------------------------------------- checkers
@pytest.mark.parametrize("wrapped", [False, True], ids=["unwrapped", "as-made"])
@pytest.mark.parametrize("side", [0, 1])
def test_gymnasium_check_env_as_it_comes(side, wrapped):
    """Gymnasium's checker on ``gym.make("Dustup-v0")`` with the defaults.  Its step-determinism check samples
    an action *before* it resets the env (from the state the previous check left), so the action is often
    outside the new mask: the default forfeit makes that a deterministic, terminated step."""
    import warnings

    from gymnasium.utils.env_checker import check_env

    env = gym.make("Dustup-v0") if side == 0 else gym.make("Dustup-v0", learner_side=side)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the "env is wrapped" advice when the made env itself is checked
        check_env(env if wrapped else env.unwrapped)
    env.close()


@pytest.mark.parametrize("wrapped", [False, True], ids=["unwrapped", "as-made"])
@pytest.mark.parametrize("side", [0, 1])
def test_sb3_check_env_as_it_comes(side, wrapped):
    import warnings

    from stable_baselines3.common.env_checker import check_env

    env = gym.make("Dustup-v0") if side == 0 else gym.make("Dustup-v0", learner_side=side)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env if wrapped else env.unwrapped)  # action_space.sample() draws among the current legal actions
    env.close()


def test_action_space_sample_is_legal():
    env = DustupEnv()
    env.reset(seed=3)
    env.action_space.seed(0)
    for _ in range(300):
        a = env.action_space.sample()
        assert env.action_masks()[a]
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()


# ------------------------------------------------------------------------------------------- codec / mask
def _check_codec(codec, game, d, mask):
    idx = np.flatnonzero(mask)
    decoded = [codec.decode(game, d.side, int(i), d.kind) for i in idx]
    assert all(o in d.options for o in decoded), (d, decoded)
    encoded = [codec.encode(game, d.side, o) for o in d.options]
    assert all(mask[i] for i in encoded)
    assert len(set(encoded)) == len(d.options) == len(idx)  # a bijection on the legal options
    assert sorted(encoded) == list(idx)
    for o, i in zip(d.options, encoded):
        assert codec.decode(game, d.side, i, d.kind) == o


@pytest.mark.parametrize("scenario", ["default", "skirmish"])
def test_mask_equals_engine_options(scenario):
    checked = {"opp": 0}
    opp_codec = ActionCodec()
    orng = random.Random(7)

    def opponent(game, d):  # also checks the codec from the opponent's (possibly mirrored) side
        m = opp_codec.mask(game, d)
        _check_codec(opp_codec, game, d, m)
        checked["opp"] += 1
        return d.options[orng.randrange(len(d.options))]

    env = DustupEnv(scenario=scenario, opponent=opponent, learner_side="both")
    rng = random.Random(1)
    obs, info = env.reset(seed=11)
    kinds = set()
    sides = set()
    steps = 0
    while steps < 1500:
        game = env.game
        d = game.decision()
        assert d.side == env.learner
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (N_ACTIONS,)
        assert np.array_equal(mask, info["action_mask"])
        assert info["legal_options"] == len(d.options) == int(mask.sum())
        assert info["decision_kind"] == d.kind and info["side"] == env.learner
        _check_codec(env.codec, game, d, mask)
        kinds.add(d.kind)
        sides.add(env.learner)
        obs, r, term, trunc, info = env.step(random_masked_action(env, rng))
        steps += 1
        if term or trunc:
            obs, info = env.reset()
    assert {"initiative", "activate", "action"} <= kinds  # (+ procedure kinds such as "promote", "choose")
    assert sides == {0, 1}
    assert checked["opp"] > 500


def test_grown_codec_tables_equal_full_builds():
    """Tables extended when a detachment (or marker) joins equal tables built from scratch for that layout."""
    import random as _random

    from dustup_env import codec as C
    from dustup_env.rules import Game

    grown = 0
    for seed in range(12):
        g = Game("default", seed=seed)
        c = ActionCodec()
        rng = _random.Random(seed)
        while not g.over:
            d = g.decision()
            for side in (0, 1):
                t = c._t(g, side)
                full = C._Tables(C.LAYOUT, g, side, t.key)
                assert t.enc == full.enc and t.dec == full.dec
            grown += len(g.side_units[0]) + len(g.side_units[1]) > 8
            g.apply(d.options[rng.randrange(len(d.options))])
    assert grown > 0  # some games grew the layout


def test_codec_layout_and_mirroring():
    env = DustupEnv()
    env.reset(seed=0)
    g = env.game
    c = env.codec
    assert c.n == N_ACTIONS == 2461  # 476 infantry, weapons 56, vehicles 108, vehicle combat 300, mechs 72, artillery 232, aerospace 228,
    #                                fire and smoke 162, mines 67, buildings 444, EW 145, drones 121, cargo 50
    # the issue #3 families follow issue #2's 159 indices; every index decodes to at most one option
    assert c.encode(g, 0, ("reorganise", "column")) == 159
    assert c.encode(g, 0, ("assault", g.side_units[1][2])) == 166 + 2
    assert c.encode(g, 1, ("assault", g.side_units[0][2])) == 166 + 2
    assert c.encode(g, 0, ("fire", "half")) == 182 + FIRE_MODES.index("half")
    assert c.encode(g, 0, ("decline",)) == 325
    # issue 3 (assault/casualty gaps) families follow at 326..355
    assert c.encode(g, 0, ("add_defender", g.side_units[1][0])) == 326
    assert c.encode(g, 0, ("defenders_chosen",)) == 338
    assert c.encode(g, 1, ("follow", g.side_units[0][3])) == 339 + 3
    assert [c.encode(g, 0, (o,)) for o in ("split_special", "no_split", "abandon")] == [351, 352, 353]
    assert c.encode(g, 0, ("reorganise", "recover_wounded")) == 354
    assert c.encode(g, 0, ("reorganise", "hide")) == 355
    # issue 3: shooting/reorganise gaps (356..475, appended after the rest of infantry Dustup)
    assert c.encode(g, 0, ("shoot_weapon", g.side_units[1][2], 3)) == 356 + 4 * 2 + 3
    assert c.encode(g, 0, ("throw", g.side_units[1][1], "specialist")) == 404 + 3 * 1 + 2
    assert c.encode(g, 0, ("reorganise", "place")) == 440 and c.encode(g, 0, ("stay",)) == 441
    assert c.encode(g, 0, ("shift", 0)) == 442 and c.encode(g, 1, ("shift", 0)) == 442 + 8  # mirrored like moves
    assert c.encode(g, 0, ("formation", "file")) == 458 + 4
    assert c.encode(g, 0, ("evacuate",)) == 463
    assert c.encode(g, 0, ("inbound", g.side_units[0][11 % len(g.side_units[0])])) == 464 + 11 % len(g.side_units[0])
    # the Armoured Dustup weapons families follow at 476..531
    assert c.encode(g, 0, ("fire_heavy", g.side_units[1][0])) == 476
    assert c.encode(g, 0, ("fire_iavr", g.side_units[1][1])) == 488 + 1
    assert c.encode(g, 0, ("reorganise", "set_up")) == 500 and c.encode(g, 0, ("reorganise", "repair")) == 504
    assert c.encode(g, 1, ("fire_guided", g.side_units[0][2])) == 505 + 2
    assert c.encode(g, 0, ("reorganise", "deploy_protection")) == 518 and c.encode(g, 0, ("decoy",)) == 519
    assert c.encode(g, 0, ("area_protection", g.side_units[0][3])) == 520 + 3
    # then the vehicles (orders 60-70) and vehicle combat (80-86)
    assert c.encode(g, 0, ("mount", g.side_units[0][1])) == 532 + 1
    assert c.encode(g, 0, ("dismount", 0)) == 544 and c.encode(g, 1, ("dismount", 0)) == 544 + 8  # mirrored
    assert c.encode(g, 0, ("approach", g.side_units[0][2])) == 560 + 2
    assert c.encode(g, 0, ("tow", g.side_units[0][0])) == 572 and c.encode(g, 0, ("push", g.side_units[0][0])) == 584
    assert c.encode(g, 0, ("unhook",)) == 596
    assert c.encode(g, 0, ("turn", 4)) == 597 + 4 and c.encode(g, 1, ("turn", 4)) == 597 + 4
    assert c.encode(g, 0, ("hatches", "close_down")) == 614
    assert c.encode(g, 0, ("call_casevac", g.side_units[0][3])) == 615 + 3
    assert c.encode(g, 0, ("transfer", g.side_units[0][1])) == 627 + 1 and c.encode(g, 0, ("depart",)) == 639
    # vehicle combat families are appended after the vehicles' (640)
    assert c.encode(g, 0, ("fire_vehicle", g.side_units[1][0], 2)) == 640 + 0 * 4 + 2
    assert c.encode(g, 0, ("fire_slaved", g.side_units[1][1])) == 640 + 48 + 1
    assert c.encode(g, 0, ("fire_pair", g.side_units[1][0], 5)) == 640 + 60 + 5
    assert c.encode(g, 0, ("shoot_passengers", g.side_units[1][1], "half")) == 772 + 1 * 6 + 4
    assert c.encode(g, 0, ("passenger_shoot", g.side_units[1][2], "all")) == 844 + 2 * 6
    assert c.encode(g, 0, ("assault_vehicle", g.side_units[1][1])) == 916 + 1
    assert c.encode(g, 0, ("tank_shock", g.side_units[1][2])) == 928 + 2
    assert N_ACTIONS == (476 + 56 + 108 + 48 + 12 + 72 + 72 + 72 + 12 + 12 + 12 + 12 + 48 + 232 + 228
                         + 162 + 67 + 384 + 48 + 12 + 145 + 121 + 48 + 2)
    # then the artillery and air support families (1012..1243), aerospace operations (1244..1471), fire and smoke
    # (1472..1633), mines (1634..1700), buildings (1701..2144), EW (2145..2289), drones (2290..2410) and the
    # aerospace cargo (2411..2458; dropped from the air 2459..2460)
    assert c.encode(g, 0, ("fire_artillery", g.side_units[1][1])) == 1012 + 1
    enc = c._t(g, 0).enc
    assert len(set(enc.values())) == len(enc) - 1  # only end/pass share index 0
    assert c.encode(g, 0, ("end",)) == 0 and c.encode(g, 0, ("pass",)) == 0
    assert c.decode(g, 0, 0, "activate") == ("pass",) and c.decode(g, 0, 0, "action") == ("end",)
    assert c.encode(g, 0, ("first",)) == 1 and c.encode(g, 1, ("second",)) == 2
    for side in (0, 1):
        for slot, uid in enumerate(g.side_units[side]):
            assert c.encode(g, side, ("activate", uid)) == ACTIVATE0 + slot
        for slot, uid in enumerate(g.side_units[1 - side]):
            for m, mode in enumerate(FIRE_MODES):
                assert c.encode(g, side, ("shoot", uid, mode)) == SHOOT0 + 6 * slot + m
    assert not side_flips(g, 0) and side_flips(g, 1)
    for d in range(16):
        for k in range(N_DIST):
            assert c.encode(g, 0, ("move", d, k)) == MOVE0 + 4 * d + k
            assert c.encode(g, 1, ("move", d, k)) == MOVE0 + 4 * ((8 - d) % 16) + k
            assert c.decode(g, 1, MOVE0 + 4 * d + k) == ("move", mirror_direction(d), k)
    # north (0) for side 1 is south (8) in its mirrored frame; east/west are unchanged
    assert mirror_direction(0) == 8 and mirror_direction(4) == 4 and mirror_direction(12) == 12
    assert mirror_direction(2) == 6


def test_observation_mirroring():
    e0, e1 = DustupEnv(learner_side=0), DustupEnv(learner_side=1)
    o0, _ = e0.reset(seed=5)
    o1, _ = e1.reset(seed=5)
    g = e1.game
    H, W = g.bf.height, g.bf.width
    for slot, uid in enumerate(g.side_units[1]):  # side 1's own units come first, y flipped
        u = g.units[uid]
        base = UNITS_OFF + slot * UF
        assert o1[base] == 1.0
        assert o1[base + 2] == pytest.approx(u.x / W)
        assert o1[base + 3] == pytest.approx((H - u.y) / H)
    for slot, uid in enumerate(e0.game.side_units[0]):
        u = e0.game.units[uid]
        assert o0[UNITS_OFF + slot * UF + 3] == pytest.approx(u.y / H)
    # both sides start near their own (bottom) edge in their own view
    assert o0[UNITS_OFF + 3] < 0.2 and o1[UNITS_OFF + 3] < 0.2
    assert o0[GLOBAL_OFF + 6] == 0.0 and o1[GLOBAL_OFF + 6] == 1.0


# ------------------------------------------------------------------------------------------- illegal actions
def test_illegal_action_raises_and_leaves_state_unchanged():
    env = DustupEnv(illegal_action="raise")
    rng = random.Random(2)
    env.reset(seed=4)
    tried = 0
    for _ in range(120):
        mask = env.action_masks()
        illegal = np.flatnonzero(~mask)
        digest = env.game.state_digest()
        hist = len(env.game.history)
        obs_before = env._observation()
        for a in (int(illegal[rng.randrange(len(illegal))]), int(illegal[0])):
            with pytest.raises(IllegalOptionError, match="not legal"):
                env.step(a)
            tried += 1
        for bad in (-1, N_ACTIONS, 10_000):
            with pytest.raises(IllegalOptionError, match="out of range"):
                env.step(bad)
        assert env.game.state_digest() == digest
        assert len(env.game.history) == hist
        assert np.array_equal(env.action_masks(), mask)
        assert np.array_equal(env._observation(), obs_before)
        _, _, term, trunc, _ = env.step(random_masked_action(env, rng))
        if term or trunc:
            env.reset()
    assert tried == 240


def test_illegal_action_forfeits_by_default():
    """The default: an action outside the mask loses the game for the learner (reward -1, terminated), the game
    itself untouched; stepping again needs a reset; an index outside the action space still raises."""
    for side in (0, 1):
        env = DustupEnv(learner_side=side)
        env.reset(seed=5)
        rng = random.Random(side)
        for _ in range(25):
            env.step(random_masked_action(env, rng))
        with pytest.raises(IllegalOptionError, match="out of range"):
            env.step(N_ACTIONS)
        digest, hist = env.game.state_digest(), len(env.game.history)
        obs_before = env.observe()
        bad = int(np.flatnonzero(~env.action_masks())[3])
        obs, r, term, trunc, info = env.step(bad)
        assert (r, term, trunc) == (-1.0, True, False)
        assert info["illegal_action"] is True and info["winner"] == 1 - side
        assert info["end_reason"] == "illegal action" and info["decision_kind"] == "over"
        assert not info["action_mask"].any() and not env.action_masks().any()
        assert env.game.state_digest() == digest and len(env.game.history) == hist and not env.game.over
        assert np.array_equal(obs, obs_before)
        with pytest.raises(RuntimeError, match="episode is over"):
            env.step(env.codec.indices(env.game, env.game.decision())[0])  # legal for the game, but the episode ended
        obs, info = env.reset()
        assert info["action_mask"].any() and "illegal_action" not in info
        _, _, _, _, info = env.step(random_masked_action(env, rng))
        assert info["illegal_action"] is False


def test_illegal_action_random_mode_is_explicit():
    env = DustupEnv(illegal_action="random")
    env.reset(seed=1)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, _, _, _, info = env.step(bad)
    assert info["illegal_action"] is True
    good = int(np.flatnonzero(env.action_masks())[0])
    _, _, _, _, info = env.step(good)
    assert info["illegal_action"] is False
    with pytest.raises(ValueError, match="forfeit"):
        DustupEnv(illegal_action="ignore")


# ------------------------------------------------------------------------------------------- determinism
def _rollout(seed, n, side=0, opponent="random"):
    env = DustupEnv(learner_side=side, opponent=opponent)
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    out = [obs]
    rewards = []
    for _ in range(n):
        obs, r, term, trunc, info = env.step(random_masked_action(env, rng))
        out.append(obs)
        rewards.append(r)
        if term or trunc:
            obs, info = env.reset()
            out.append(obs)
    return np.array(out), rewards, env.game.state_digest()


@pytest.mark.parametrize("side", [0, 1])
def test_determinism(side):
    a, ra, da = _rollout(9, 400, side)
    b, rb, db = _rollout(9, 400, side)
    assert np.array_equal(a, b) and ra == rb and da == db
    c, _, dc = _rollout(10, 400, side)
    assert dc != da or not np.array_equal(a[: len(c)], c[: len(a)])


def test_returned_observations_are_fresh_arrays():
    env = DustupEnv()
    o1, _ = env.reset(seed=0)
    o2, _, _, _, _ = env.step(random_masked_action(env, random.Random(0)))
    assert o1 is not o2 and not np.shares_memory(o1, o2)


# ------------------------------------------------------------------------------------------- observation
@pytest.mark.parametrize("scenario", ["default", "skirmish"])
def test_observation_dtype_shape_bounds(scenario):
    env = DustupEnv(scenario=scenario, learner_side="random")
    assert env.observation_space.shape == (OBS_SIZE,)
    rng = random.Random(3)
    obs, _ = env.reset(seed=3)
    finished = 0
    for _ in range(1500):
        assert obs.dtype == np.float32 and obs.shape == (OBS_SIZE,)
        assert np.all(np.isfinite(obs)) and obs.min() >= 0.0 and obs.max() <= 1.0
        assert env.observation_space.contains(obs)
        obs, r, term, trunc, info = env.step(random_masked_action(env, rng))
        if term or trunc:
            assert env.observation_space.contains(obs)
            finished += 1
            obs, _ = env.reset()
    assert finished >= 1


def test_terminal_reward_and_info():
    env = DustupEnv(scenario="skirmish", learner_side="both")
    rng = random.Random(5)
    env.reset(seed=5)
    results = set()
    episodes = 0
    while episodes < 12:
        _, r, term, trunc, info = env.step(random_masked_action(env, rng))
        if not (term or trunc):
            assert r == 0.0 and "winner" not in info
            continue
        assert term and not trunc
        w = info["winner"]
        assert w in (0, 1, -1) and w == env.game.winner
        assert info["vp"] == tuple(env.game.vp)
        assert r == (0.0 if w == -1 else (1.0 if w == info["side"] else -1.0))
        assert not info["action_mask"].any() and info["decision_kind"] == "over"
        results.add(r)
        episodes += 1
        env.reset()
    assert len(results) >= 2


def test_max_decisions_truncates():
    env = DustupEnv(max_decisions=30)
    rng = random.Random(0)
    env.reset(seed=0)
    for _ in range(40):
        _, r, term, trunc, info = env.step(random_masked_action(env, rng))
        if trunc:
            assert not term and r == 0.0 and info["end_reason"] == "max_decisions"
            break
    else:
        pytest.fail("did not truncate")


def test_opponent_kinds():
    from agents import make_agent

    for opp in ("random", make_agent("random", seed=3), lambda game, d: d.options[0]):
        env = DustupEnv(scenario="skirmish", opponent=opp)
        env.reset(seed=1)
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(ValueError, match="unknown agent 'no-such-agent'"):
        DustupEnv(opponent="no-such-agent")
    made = []

    def factory(name, seed=0):  # the env takes an opponent factory (default: dustup_env.agent_registry)
        made.append((name, seed))
        return make_agent("easy", seed=seed)

    env = DustupEnv(scenario="skirmish", opponent="my-bot", make_agent=factory)
    env.reset(seed=2)
    assert made == [("my-bot", 0)] and env._opponent_agent.name == "easy"
    with pytest.raises(TypeError, match="opponent must be"):
        DustupEnv(opponent=3)
    with pytest.raises(ValueError):
        DustupEnv(learner_side=2)


def test_observation_speed():
    env = DustupEnv()
    env.reset(seed=0)
    rng = random.Random(0)
    for _ in range(50):
        env.step(random_masked_action(env, rng))
    n = 2000
    t = time.perf_counter()
    observer = env.observer
    for _ in range(n):
        observer.start(env.game, env.learner)  # every piece rewritten, visibility recomputed (sight results cached)
        env._observation()
    per_call = (time.perf_counter() - t) / n
    assert per_call < 500e-6  # generous bound for CI machines; typically ~40-60 us uncached


# ------------------------------------------------------------------------------------------- render
def test_render_modes():
    env = DustupEnv(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert "A0" in text and "B3" in text and "turn 1/8" in text
    rows = text.splitlines()
    assert rows[0] == "+" + "-" * 36 + "+" and len(rows[1]) == 38
    env = DustupEnv(render_mode="rgb_array")
    env.reset(seed=0)
    rng = random.Random(0)
    for _ in range(30):
        env.step(random_masked_action(env, rng))
    img = env.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.shape == (480, 720, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 10
    env = gym.make("Dustup-v0", scenario="skirmish", render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (360, 360, 3)
    with pytest.warns(UserWarning, match="render_mode"):
        assert DustupEnv().render() is None  # no render_mode: warns, returns None
    with pytest.raises(ValueError):
        DustupEnv(render_mode="human")


# ------------------------------------------------------------------------------------------- training
def test_maskable_ppo_learns_without_error():
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # a tiny MLP: extra threads only oversubscribe a loaded 2-core machine (85 s vs 12 s)
    env = gym.make("Dustup-v0", learner_side="both")
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=2, seed=0, verbose=0,
                        device="cpu")
    t = time.perf_counter()
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    assert time.perf_counter() - t < 60
    obs, _ = env.reset(seed=1)
    a, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert env.unwrapped.action_masks()[int(a)]


@pytest.mark.parametrize("bad", ["a", None, 1.5, [1], -1, 10**6])
def test_a_malformed_action_is_refused_clearly(bad):
    env = gym.make("Dustup-v0", scenario="skirmish", opponent="random").unwrapped
    env.reset(seed=0)
    digest = env.game.state_digest()
    with pytest.raises(IllegalOptionError, match="action"):
        env.step(bad)
    assert env.game.state_digest() == digest


def test_malformed_game_options_are_refused_clearly():
    from dustup_env.rules import ScenarioError
    with pytest.raises(ScenarioError, match="game options must be a dict"):
        gym.make("Dustup-v0", options=[1])
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        gym.make("Dustup-v0", opponent="nosuch").reset(seed=0)
