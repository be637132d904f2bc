"""Training on the scenarios with vehicles (armour, mechs): the armoured observation (2,745 values) through the
entity extractor, a tiny training run that saves a model, the policy agent feeding it the whole observation,
runs mixing infantry and armoured scenarios, and warm starts across the two observation sizes."""
from __future__ import annotations

import time

import numpy as np
import pytest

from dustup_env.observation import ARMOURED_LAYOUT, ARMOURED_OBS_SIZE, LAYOUT, OBS_SIZE, project

# one xdist worker runs the training modules (as tests/test_training.py): runs with env processes fight for cores
pytestmark = pytest.mark.xdist_group("training")

TINY = {
    "seed": 5,
    "scenarios": ["armour"],
    "env": {"n_envs": 2, "n_workers": 1},
    "opponents": {"scripted": ["random"], "snapshots": False},
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
    "budget": {"steps": 256},
    "schedule": {"snapshot_every": 256, "checkpoint_every": 256},
    "gauntlet": {"enabled": False},
    "logging": {"tensorboard": False},
}


def test_entity_extractor_reads_the_armoured_pieces_per_unit_slot():
    import torch
    from gymnasium import spaces

    from training.extractor import EntityExtractor

    inf = EntityExtractor(spaces.Box(0.0, 1.0, (OBS_SIZE,)))
    arm = EntityExtractor(spaces.Box(0.0, 1.0, (ARMOURED_OBS_SIZE,)))
    feats = {n: s[-1] for n, s in ARMOURED_LAYOUT.shape.items()}
    assert inf.own_in[0].in_features == LAYOUT.shape["units"][-1]
    assert arm.own_in[0].in_features == feats["units"] + feats["vehicles"] + feats["heavy_weapons"]
    assert arm.features_dim == inf.features_dim  # the same read-out: only the unit encoders widen
    torch.manual_seed(0)
    x = torch.rand(2, ARMOURED_OBS_SIZE)
    y = x.clone()
    y[:, ARMOURED_LAYOUT.offset["vehicles"]] += 0.5  # own slot 0's vehicle flag
    assert not torch.equal(arm(x), arm(y))  # the armoured pieces reach the features
    with pytest.raises(ValueError, match="EntityExtractor expects a Dustup-v0 observation.*1569.*2745"):
        EntityExtractor(spaces.Box(0.0, 1.0, (1000,)))


def test_tiny_armour_training_run_saves_a_policy_that_plays_a_game_to_the_end(tmp_path):
    import torch

    from agents import make_agent
    from agents.policy import PolicyAgent, layout_fingerprint
    from dustup_env.rules import Game
    from training.train import train

    threads = torch.get_num_threads()
    t = time.perf_counter()
    summ = train(TINY, tmp_path / "run", progress=False, log=lambda *a: None)
    torch.set_num_threads(threads)
    assert summ["steps"] >= 256 and (tmp_path / "run" / "final.zip").is_file()

    agent = PolicyAgent(tmp_path / "run" / "final.zip", name="armoured")
    assert agent.model.observation_space.shape == (ARMOURED_OBS_SIZE,)
    assert agent.model.dustup_meta["layout_hash"] == layout_fingerprint(layout=ARMOURED_LAYOUT)["layout_hash"]
    assert agent.model.dustup_meta["layout_hash"] != layout_fingerprint(layout=LAYOUT)["layout_hash"]
    assert agent.model.dustup_meta["layout_hash"] != layout_fingerprint(armoured=True)["layout_hash"]

    # the policy sees the whole observation of an armoured game
    seen = []
    ext = agent.model.policy.pi_features_extractor
    hook = ext.register_forward_pre_hook(lambda _m, args: seen.append(args[0].numpy()[0].copy()))
    g = Game("armour", seed=3)
    opp = make_agent("random", seed=3)
    opp.reset(3)
    n = 0
    try:
        while not g.over:
            d = g.decision()
            option = agent.choose(g, d) if d.side == 0 else opp.choose(g, d)
            assert option in d.options
            g.apply(option)
            n += 1
            assert n < 20_000
    finally:
        hook.remove()
    assert g.over and seen and seen[0].shape == (ARMOURED_OBS_SIZE,)
    assert any(s[ARMOURED_LAYOUT.offset["vehicles"]:].any() for s in seen)  # vehicle rows are not empty

    # in a game without vehicles it gets the infantry pieces and all-zero armoured pieces
    seen.clear()
    hook = ext.register_forward_pre_hook(lambda _m, args: seen.append(args[0].numpy()[0].copy()))
    try:
        g = Game("default", seed=1)
        d = g.decision()
        while d.side != 0:
            g.apply(d.options[0])
            d = g.decision()
        assert agent.choose(g, d) in d.options
    finally:
        hook.remove()
    v, dec = ARMOURED_LAYOUT.offset["vehicles"], ARMOURED_LAYOUT.offset["decision"]
    assert seen[0].shape == (ARMOURED_OBS_SIZE,) and not seen[0][v:dec].any() and seen[0][dec:].any()
    assert time.perf_counter() - t < 120  # ~15 s on an idle 2-core machine


def test_a_run_mixing_infantry_and_armoured_scenarios_has_one_observation_space():
    from training.config import load_config
    from training.selfplay import make_training_env
    from training.train import run_layout

    cfg = load_config({"scenarios": ["default", "armour"]})  # accepted
    assert run_layout(cfg["scenarios"]) is ARMOURED_LAYOUT
    assert run_layout(["default", "skirmish"]) is LAYOUT
    entries = [("random", "random")]
    padded = make_training_env("default", "both", None, 5000, 0.0, entries, None, 4, ARMOURED_OBS_SIZE)
    plain = make_training_env("default", "both", None, 5000, 0.0, entries, None, 4)
    assert padded.observation_space.shape == (ARMOURED_OBS_SIZE,) and plain.observation_space.shape == (OBS_SIZE,)
    rng = np.random.default_rng(0)
    for _ in range(30):
        a = int(rng.choice(np.flatnonzero(plain.action_masks())))
        o1, r1, t1, _, _ = padded.step(a)
        o2, r2, t2, _, _ = plain.step(a)
        # each piece at its place in the armoured layout; the armoured pieces all zero
        assert o1.shape == (ARMOURED_OBS_SIZE,) and np.array_equal(o1, project(o2, LAYOUT, ARMOURED_LAYOUT))
        v, d = ARMOURED_LAYOUT.offset["vehicles"], ARMOURED_LAYOUT.offset["decision"]
        assert np.array_equal(o1[:v], o2[:v]) and not o1[v:d].any() and np.array_equal(o1[d:], o2[v:])
        assert (r1, t1) == (r2, t2)
        if t1:
            break
    armour = make_training_env("armour", "both", None, 5000, 0.0, entries, None, 4, ARMOURED_OBS_SIZE)
    assert armour.reset(seed=1)[0].shape == (ARMOURED_OBS_SIZE,)


def test_warm_start_across_observation_sizes_is_a_clear_error(tmp_path):
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from agents.policy import SHIPPED
    from training.config import load_config
    from training.selfplay import make_training_env
    from training.train import Trainer, _policy_kwargs

    cfg = load_config(TINY)
    venv = DummyVecEnv([lambda: make_training_env("armour", "both", None, 5000, 0.0, [("random", "random")], None, 0)])
    assert venv.observation_space == spaces.Box(0.0, 1.0, (ARMOURED_OBS_SIZE,), np.float32)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, policy_kwargs=_policy_kwargs(cfg), device="cpu")
    with pytest.raises(ValueError, match=r"policy\.init .*observation has 1569 values.*3342"):
        Trainer(cfg, tmp_path, progress=False, log=lambda *a: None)._warm_start(model, SHIPPED)
