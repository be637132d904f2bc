"""Training system (issue #5): config validation, a smoke training run with resume, the policy agent,
space checks, the fixed gauntlet's determinism, PFSP, the reward shaping and the vectorised env."""
from __future__ import annotations

import json
import time
from functools import partial

import numpy as np
import pytest

from training.config import ConfigError, defaults, load_config

# one xdist worker runs this module (`make test` uses --dist loadgroup): the smoke run is a module
# fixture, and two copies of it (each with two env processes) would only fight for the two cores
pytestmark = pytest.mark.xdist_group("training")

SMOKE = {
    "seed": 3,
    "env": {"n_envs": 4, "n_workers": 2},
    "ppo": {"n_steps": 128, "batch_size": 256, "n_epochs": 2},
    "budget": {"steps": 2048},
    "schedule": {"snapshot_every": 2048, "checkpoint_every": 1024},
    "gauntlet": {"anchors": ["random"], "games": 2, "bootstrap": 10, "concurrency": 1},
    "logging": {"tensorboard": False},
}


# ------------------------------------------------------------------------------------------- config
def test_config_defaults_and_yaml(tmp_path):
    cfg = load_config()
    assert cfg == defaults()
    assert cfg["ppo"]["gamma"] >= 0.99  # long episodes (~100 learner decisions)
    p = tmp_path / "c.yaml"
    p.write_text("ppo:\n  learning_rate: 1.0e-4\nbudget: {steps: 5000}\nsides: 1\n")
    cfg = load_config(p)
    assert cfg["ppo"]["learning_rate"] == 1e-4 and cfg["budget"]["steps"] == 5000 and cfg["sides"] == 1
    assert cfg["ppo"]["n_steps"] == defaults()["ppo"]["n_steps"]


@pytest.mark.parametrize("text, match", [
    ("ppo:\n  lerning_rate: 0.1\n", r"ppo\.lerning_rate: unknown key; did you mean learning_rate\?"),
    ("bogus: 1\n", r"bogus: unknown key"),
    ("ppo:\n  n_steps: many\n", r"ppo\.n_steps: expected int, got str"),
    ("ppo:\n  gamma: 1.5\n", r"ppo\.gamma: invalid value 1\.5"),
    ("env:\n  n_envs: true\n", r"env\.n_envs: expected int, got a boolean"),
    ("sides: left\n", r"sides: invalid value 'left'"),
    ("opponents:\n  scripted: [random, nobody]\n", r"opponents\.scripted: unknown agent 'nobody'"),
    ("scenarios: [no-such-scenario]\n", r"scenarios: 'no-such-scenario'"),
    ("ppo: {batch_size: 100000}\n", r"ppo\.batch_size 100000 is larger than a rollout"),
    ("ppo: [1, 2]\n", r"ppo: expected a mapping"),
    ("ppo: {n_steps: [\n", r"not valid YAML"),
    ("device: gpu\n", r"device: invalid value 'gpu'"),
])
def test_config_errors_are_clear(tmp_path, text, match):
    p = tmp_path / "bad.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=match):
        load_config(p)


def test_device_key_picks_where_the_network_runs():
    """``device``: cpu by default; auto is cuda only where torch sees a GPU; cuda without one is a clear error."""
    import torch

    from training.train import _torch_device

    assert defaults()["device"] == "cpu" and _torch_device("cpu") == "cpu"
    assert _torch_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")
    if torch.cuda.is_available():
        assert _torch_device("cuda") == "cuda"
    else:
        with pytest.raises(ConfigError, match="device: cuda, but torch sees no GPU"):
            _torch_device("cuda")


def test_cli_train_bad_config_exit_code(tmp_path, capsys):
    from dustup_cli.cli import main

    p = tmp_path / "bad.yaml"
    p.write_text("budget: {stepz: 3}\n")
    assert main(["train", "--config", str(p), "--out", str(tmp_path / "run")]) == 2
    assert "budget.stepz: unknown key; did you mean steps?" in capsys.readouterr().err
    assert main(["train", "--print-config"]) == 0
    assert "vp_shaping" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------- smoke run
@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    """A smoke training run of a few thousand steps (it is also CI's training smoke test)."""
    import torch

    from training.train import train

    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("smoke")
    t = time.perf_counter()
    summ = train(SMOKE, out, progress=False, log=lambda *a: None)
    return out, summ, time.perf_counter() - t


def test_smoke_training_run(smoke_run):
    out, summ, seconds = smoke_run
    assert summ["steps"] >= 2048
    assert seconds < 240  # ~30-40 s on an idle 2-core machine; generous for a loaded one
    for f in ("config.yaml", "state.json", "checkpoints/latest.zip", "final.zip", "best.zip", "summary.json",
              "gauntlet.md", "curves.png"):
        assert (out / f).is_file(), f
    state = json.loads((out / "state.json").read_text())
    assert [s["steps"] for s in state["snapshots"]] == [2048]
    assert len(state["history"]) == 1 and state["history"][0]["scores"]["random"]["games"] == 2
    assert 0 < summ["fraction_env"] < 1 and summ["steps_per_s_training"] > 0
    # every episode's pool result was recorded for PFSP
    assert sum(len(v) for v in state["pfsp"].values()) > 0
    # slim snapshots: no optimizer moments
    assert (out / "final.zip").stat().st_size < (out / "checkpoints" / "latest.zip").stat().st_size


def test_resume_extends_a_run(smoke_run, tmp_path):
    import shutil

    from training.train import train

    out, _, _ = smoke_run
    run = tmp_path / "resumed"
    shutil.copytree(out, run)
    cfg = json.loads(json.dumps(SMOKE))
    cfg["budget"]["steps"] = 2560
    cfg["gauntlet"]["enabled"] = True
    summ = train(cfg, run, progress=False, log=lambda *a: None)
    assert summ["steps"] == 2560
    state = json.loads((run / "state.json").read_text())
    assert [s["steps"] for s in state["snapshots"]] == [2048, 2560] and len(state["history"]) == 2
    # any other change than the budget is refused
    cfg["ppo"]["n_epochs"] = 3
    with pytest.raises(ConfigError, match="another configuration"):
        train(cfg, run, progress=False, log=lambda *a: None)


def test_wall_clock_budget_stops_at_a_rollout_boundary_and_resumes(tmp_path):
    from training.train import train

    cfg = json.loads(json.dumps(SMOKE))
    cfg["gauntlet"]["enabled"] = False
    cfg["ppo"]["n_epochs"] = 1
    cfg["budget"] = {"steps": 4096, "minutes": 1e-4}
    summ = train(cfg, tmp_path / "run", progress=False, log=lambda *a: None)
    rollout = cfg["ppo"]["n_steps"] * cfg["env"]["n_envs"]
    assert summ["steps"] == rollout + cfg["env"]["n_envs"]  # one rollout trained, one vector step of the next
    assert (tmp_path / "run" / "checkpoints" / "latest.zip").is_file()
    cfg["budget"] = {"steps": 1024, "minutes": None}
    assert train(cfg, tmp_path / "run", progress=False, log=lambda *a: None)["steps"] >= 1024


def test_ctrl_c_stops_cleanly_with_a_checkpoint_and_resumes(tmp_path):
    """SIGINT to the whole process group (a terminal's Ctrl-C): the trainer writes its checkpoint and
    summary and exits with 130, no traceback, and the env workers are gone; the run then resumes."""
    import os
    import signal
    import subprocess
    import sys

    cfg = json.loads(json.dumps(SMOKE))
    cfg["gauntlet"]["enabled"] = False
    cfg["ppo"]["n_epochs"] = 1
    cfg["budget"]["steps"] = 10_000_000
    cfg["schedule"] = {"snapshot_every": 10_000_000, "checkpoint_every": 512}
    (tmp_path / "c.yaml").write_text(json.dumps(cfg))  # JSON is YAML
    run = tmp_path / "run"
    cmd = [sys.executable, "-m", "dustup_cli", "train", "--config", str(tmp_path / "c.yaml"), "--out", str(run),
           "--no-progress"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while not (run / "checkpoints" / "latest.zip").is_file():  # training is under way
            assert p.poll() is None and time.monotonic() < deadline, p.communicate()
            time.sleep(0.2)
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "interrupted at" in err, err
    summ = json.loads((run / "summary.json").read_text())
    assert summ["interrupted"] is True and 512 <= summ["steps"] < 10_000_000
    state = json.loads((run / "state.json").read_text())
    assert state["steps"] == summ["steps"]
    for _ in range(50):  # the env workers were closed with the trainer: nothing of the group is left
        try:
            os.killpg(p.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("processes of the interrupted run are still alive")
    from training.train import train

    cfg["budget"]["steps"] = summ["steps"] + 512
    assert train(cfg, run, progress=False, log=lambda *a: None)["steps"] >= summ["steps"] + 512


def test_warm_start_copies_the_policy_and_refuses_another_network(smoke_run, tmp_path):
    import torch

    from agents.policy import load_model
    from training.train import train

    out, _, _ = smoke_run
    cfg = json.loads(json.dumps(SMOKE))
    cfg["gauntlet"]["enabled"] = False
    cfg["ppo"].update(n_epochs=1, learning_rate=1e-12)  # one rollout and an update that cannot move the weights
    cfg["budget"] = {"steps": 16, "minutes": 1e-4}
    cfg["policy"] = {"init": str(out / "final.zip")}
    train(cfg, tmp_path / "warm", progress=False, log=lambda *a: None)
    src = load_model(out / "final.zip").policy.state_dict()
    got = load_model(tmp_path / "warm" / "final.zip").policy.state_dict()
    assert src.keys() == got.keys()
    assert all(torch.allclose(src[k], got[k], atol=1e-6) for k in src)
    cfg["policy"]["net_arch"] = [16]
    with pytest.raises(ValueError, match="policy.init .* does not match"):
        train(cfg, tmp_path / "other", progress=False, log=lambda *a: None)


# ------------------------------------------------------------------------------------------- policy agent
def _play_both_sides(spec, opponent="random", seed=5):
    from evaluation.tournament import play_task

    recs = []
    for agents in ([spec, opponent], [opponent, spec]):
        rec = play_task({"key": "t", "scenario": "default", "agents": agents, "pair_index": 0, "seed": seed})
        assert not rec["reason"].startswith(("crash", "timeout", "illegal")), rec["reason"]
        assert rec["winner"] in (-1, 0, 1)
        recs.append(rec)
    return recs


def test_policy_agent_plays_legally_from_both_sides(smoke_run):
    from agents import make_agent

    out, _, _ = smoke_run
    spec = f"policy:{out / 'final.zip'}"
    a = make_agent(spec)
    assert a.name == spec
    first = _play_both_sides(spec)
    again = _play_both_sides(spec)  # deterministic: the same games
    assert [(r["winner"], r["decisions"], r["vp"]) for r in first] == [(r["winner"], r["decisions"], r["vp"])
                                                                       for r in again]


def test_policy_agent_matches_the_env_observation(smoke_run):
    """The agent's view of a game is exactly the env's observation of the learner on that side."""
    from agents.policy import PolicyAgent
    from dustup_env.env import DustupEnv

    out, _, _ = smoke_run
    agent = PolicyAgent(out / "final.zip")
    for side in (0, 1):
        env = DustupEnv(opponent="random", learner_side=side)
        obs, _ = env.reset(seed=side + 1)
        rng = np.random.default_rng(0)
        for _ in range(40):
            v = agent._view(env.game, side)
            assert np.array_equal(v.observe(), obs)
            assert np.array_equal(v.action_masks(), env.action_masks())
            legal = np.flatnonzero(env.action_masks())
            obs, _, term, trunc, _ = env.step(int(rng.choice(legal)))
            if term or trunc:
                break


def test_model_space_mismatch_is_a_clear_error(smoke_run, monkeypatch):
    from agents import policy as P
    from dustup_env import codec

    out, _, _ = smoke_run
    monkeypatch.setattr(P, "_CACHE", {})
    n = codec.N_ACTIONS
    obs = (P.layout_fingerprint()["obs_size"],)
    # an action space that is neither today's nor the first families of today's (a family removed or reordered)
    with pytest.raises(P.ModelMismatchError, match=rf"action space Discrete\({n + 12}\) is neither the "
                                                   rf"environment's Discrete\({n}\).*retrain"):
        P.check_spaces(obs, n + 12, None, "x.zip")
    # one of an earlier version (fewer families, appended since): accepted, the agent plays with those indices
    P.check_spaces(obs, 1012, {"layout_hash": P.layout_fingerprint(n_actions=1012)["layout_hash"]}, "x.zip")
    monkeypatch.undo()
    with pytest.raises(P.ModelMismatchError, match="layout hash"):
        P.check_spaces((P.layout_fingerprint()["obs_size"],), codec.N_ACTIONS, {"layout_hash": "0" * 16}, "x.zip")
    with pytest.raises(ValueError, match="not found"):
        P.load_model("no/such/model.zip")
    with pytest.raises(ValueError, match="policy:PATH"):
        P.make_policy_agent("policy:")


def _shipped_ppo_or_skip():
    from agents import make_agent
    from agents.policy import ModelMismatchError

    try:
        return make_agent("ppo")
    except ModelMismatchError as e:  # the codec or the observation grew since it was trained
        pytest.skip(f"the shipped ppo must be retrained for the current spaces (docs/training.md): {e}")


def test_shipped_ppo_plays_both_sides():
    from agents.policy import SHIPPED

    assert SHIPPED.is_file() and SHIPPED.stat().st_size < 4 * 2**20  # small enough for the repository
    assert _shipped_ppo_or_skip().name == "ppo"
    _play_both_sides("ppo", opponent="hard", seed=11)


def test_shipped_ppo_beats_hard_on_fixed_games(tmp_path):
    """A regression guard for issue #5's bar, not its measurement (that is 400+ held-out games, docs/training.md):
    the policy is a deterministic arg-max and the anchors are seeded per game, so these 40 paired games are the
    same on every run of the same code. A rules or observation change that takes the shipped model below 0.60
    against `hard` here means it must be retrained. 40 games catch only large drops: the shipped model scores
    0.75 here, its session-3 predecessor 0.625, the provisional model (0.12 over 800 games) would fail."""
    from training.gauntlet import evaluate

    _shipped_ppo_or_skip()
    s = evaluate("ppo", tmp_path, anchors=["hard"], scenarios=["default"], games=40, seed=20261129,
                 concurrency=1, bootstrap=20)
    assert s["games"] == 40 and not s["forfeits"]
    assert s["scores"]["hard"]["score"] >= 0.60, s["scores"]["hard"]


def test_shipped_skirmish_policy_is_ppo_fine_tuned_on_skirmish(tmp_path):
    """``ppo-skirmish``: small enough for the repository, trained on skirmish (its note says so elsewhere), and a
    regression guard on 40 fixed skirmish games against ``hard`` (it scores 0.632 over 400 held-out games,
    agents/models/README.md; ``ppo`` scores 0.225 there; 0.588 on these 40): below 0.5 here it must be retrained."""
    from agents import make_agent
    from agents.policy import SHIPPED_POLICIES, ModelMismatchError
    from training.gauntlet import evaluate

    path = SHIPPED_POLICIES["ppo-skirmish"]
    assert path.is_file() and path.stat().st_size < 4 * 2**20
    try:
        a = make_agent("ppo-skirmish")
    except ModelMismatchError as e:
        pytest.skip(f"the shipped ppo-skirmish must be retrained for the current spaces (docs/training.md): {e}")
    assert a.name == "ppo-skirmish" and a.model.dustup_meta["scenarios"] == ["skirmish"]
    s = evaluate("ppo-skirmish", tmp_path, anchors=["hard"], scenarios=["skirmish"], games=40, seed=20261129,
                 concurrency=1, bootstrap=20)
    assert s["games"] == 40 and not s["forfeits"]
    assert s["scores"]["hard"]["score"] >= 0.5, s["scores"]["hard"]


# ------------------------------------------------------------------------------------------- gauntlet
def test_gauntlet_plays_the_same_games_every_time(smoke_run, tmp_path):
    from training.gauntlet import evaluate

    out, _, _ = smoke_run
    spec = f"policy:{out / 'final.zip'}"
    kw = dict(anchors=["random", "easy"], scenarios=["default"], games=4, seed=7, concurrency=1, bootstrap=20)
    a = evaluate(spec, tmp_path / "a", **kw)
    b = evaluate(spec, tmp_path / "b", **kw)

    def games(d):
        recs = [json.loads(x) for x in (d / a["label"] / "results.jsonl").read_text().splitlines()]
        return sorted((r["key"], r["seed"], r["winner"], r["decisions"], tuple(r["vp"])) for r in recs)

    assert games(tmp_path / "a") == games(tmp_path / "b")
    assert len(games(tmp_path / "a")) == 8
    assert a["scores"] == b["scores"] and a["elo"] == b["elo"]
    # both sides of every pair
    recs = [json.loads(x) for x in (tmp_path / "a" / a["label"] / "results.jsonl").read_text().splitlines()]
    assert {r["agents"].index(spec) for r in recs} == {0, 1}


def test_cli_gauntlet(smoke_run, tmp_path, capsys):
    from dustup_cli.cli import main

    out, _, _ = smoke_run
    args = ["gauntlet", "--agent", f"policy:{out / 'final.zip'}", "--anchors", "random", "--games", "2",
            "--out", str(tmp_path / "g"), "--bootstrap", "10", "--concurrency", "1", "--json"]
    assert main(args) == 0
    summ = json.loads(capsys.readouterr().out)
    assert summ["scores"]["random"]["games"] == 2 and not summ["forfeits"]
    assert main(["gauntlet", "--agent", "nobody", "--out", str(tmp_path / "h")]) == 2


# ------------------------------------------------------------------------------------------- pool, reward, vec env
def test_pfsp_weights():
    from training.selfplay import PFSP

    p = PFSP("hard", power=2.0, floor=0.05, self_play=0.0)
    for _ in range(50):
        p.record("random", 1.0)
        p.record("hard", 0.0)
    w = p.weights(["random", "hard"])
    assert w[1] > 0.9 and w[0] > 0  # most weight where the learner loses; the floor keeps the rest in play
    w = PFSP("hard", self_play=0.3).weights(["random", "snap"], latest="snap")
    assert w[1] == pytest.approx(0.3 + 0.7 * 0.5)
    assert PFSP("uniform").weights(["a", "b", "c"]) == pytest.approx([1 / 3] * 3)


def test_shaping_telescopes_and_cannot_pay_stalling():
    from training.selfplay import TrainingEnv

    env = TrainingEnv(vp_shaping=1.0, entries=[("easy", "easy")], seed=1)
    obs, _ = env.reset(seed=1)
    phi0 = env._potential(obs)
    rng = np.random.default_rng(1)
    total, term, trunc = 0.0, False, False
    while not (term or trunc):
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += r
    u = env.unwrapped
    terminal = 0.0 if u.game.winner in (None, -1) else (1.0 if u.game.winner == u.learner else -1.0)
    # the shaping of a whole episode is the potential difference: no per-step term to farm by stalling
    assert total == pytest.approx(terminal + env._potential(obs) - phi0, abs=1e-5)
    assert info["pool_result"][0] == "easy" and info["episode"]["l"] > 0


def test_chunked_vec_env_masks_and_auto_reset():
    from training.selfplay import make_training_env
    from training.vecenv import ChunkedSubprocVecEnv

    fns = [partial(make_training_env, "skirmish", "both", None, 5000, 0.0, [("random", "random")], None, i)
           for i in range(3)]
    v = ChunkedSubprocVecEnv(fns, n_workers=2)
    try:
        obs = v.reset()
        assert obs.shape == (3, v.observation_space.shape[0])
        rng = np.random.default_rng(0)
        done_seen = False
        for _ in range(400):
            masks = np.stack(v.env_method("action_masks"))
            assert masks.shape == (3, v.action_space.n) and masks.any(1).all()
            assert np.array_equal(masks[1], v.env_method("action_masks", indices=[1])[0])  # cache == worker
            obs, rews, dones, infos = v.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            for d, info in zip(dones, infos):
                if d:
                    done_seen = True
                    assert "terminal_observation" in info and "pool_result" in info
        assert done_seen
        assert v.worker_cpu_seconds() is None or v.worker_cpu_seconds() > 0
    finally:
        v.close()


def test_migrate_widens_the_action_head_and_keeps_the_old_choices(tmp_path):
    """A model for a shorter (prefix) action space is widened: old logits unchanged, new ones far below."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    from agents.policy import SHIPPED, ModelMismatchError, load_model
    from dustup_env import codec
    from training.migrate import _layout_hash, migrate

    model = MaskablePPO.load(str(SHIPPED), device="cpu")
    k = 31  # the first 31 families = the Discrete(326) layout of issue 3's first families
    old_hash, old_n = _layout_hash(k)
    assert old_n == 326 < codec.N_ACTIONS
    head = model.policy.action_net
    small = torch.nn.Linear(head.in_features, old_n)
    with torch.no_grad():
        small.weight.copy_(head.weight[:old_n])
        small.bias.copy_(head.bias[:old_n])
    model.policy.action_net = small
    model.action_space = model.policy.action_space = gym.spaces.Discrete(old_n)
    model.policy.action_dist.action_dim = old_n
    model.dustup_meta = dict(model.dustup_meta, n_actions=old_n, layout_hash=old_hash)
    src, dst = tmp_path / "old.zip", tmp_path / "new.zip"
    model.save(str(src))
    assert load_model(src).action_space.n == old_n  # it plays as it is, with the indices it knows
    info = migrate(str(src), str(dst), new_bias=-20.0)
    assert info == {"from": 326, "to": codec.N_ACTIONS, "families_kept": 31, "new_bias": -20.0}
    new = load_model(dst)
    w, b = new.policy.action_net.weight.detach(), new.policy.action_net.bias.detach()
    assert torch.equal(w[:old_n], head.weight[:old_n].detach()) and torch.equal(b[:old_n], head.bias[:old_n].detach())
    assert float(w[old_n:].abs().max()) == 0.0 and bool((b[old_n:] == -20.0).all())
    with pytest.raises(ModelMismatchError, match="nothing to migrate"):
        migrate(str(dst), str(tmp_path / "again.zip"))
    bad = MaskablePPO.load(str(src), device="cpu")
    bad.dustup_meta = dict(bad.dustup_meta, layout_hash="0" * 16)  # not a prefix of the current families
    bad.save(str(tmp_path / "bad.zip"))
    with pytest.raises(ModelMismatchError, match="not a prefix"):
        migrate(str(tmp_path / "bad.zip"), str(tmp_path / "x.zip"))
