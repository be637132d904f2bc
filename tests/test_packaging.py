"""Packaging: the engine, the environment and the command line need none of the heavy packages (torch, SB3,
matplotlib, scipy, TensorBoard, ray); the extras hold them, and a missing extra is a one-line hint."""
import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
HEAVY = ("torch", "stable_baselines3", "sb3_contrib", "matplotlib", "scipy", "tensorboard", "ray", "yaml")

# a Python that cannot import the heavy packages, as after a plain `pip install .`
BLOCK = textwrap.dedent(f"""
    import sys, importlib.abc
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {HEAVY!r}:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
    sys.meta_path.insert(0, Block())
""")


def python(code: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], capture_output=True, text=True,
                          env=ENV, cwd=cwd)


def test_base_dependencies_hold_no_heavy_package():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = " ".join(meta["dependencies"]).lower()
    for pkg in ("torch", "stable-baselines3", "sb3-contrib", "matplotlib", "scipy", "tensorboard", "ray", "pyyaml"):
        assert pkg not in base, pkg
    extras = meta["optional-dependencies"]
    assert "torch==2.13.0" in extras["policy"] and any("policy" in x for x in extras["train"])
    assert any("train" in x and "ray" in x for x in extras["dev"])


def test_engine_env_and_commands_run_without_the_heavy_packages(tmp_path):
    r = python("""
        import gymnasium as gym
        import dustup_env
        from dustup_env.rules import Game
        env = gym.make("Dustup-v0", scenario="skirmish", opponent="scripted")
        obs, info = env.reset(seed=0)
        assert env.unwrapped.action_masks().any()
        from dustup_cli.cli import main
        assert main(["simulate", "--agents", "scripted,random", "--games", "2", "--scenario", "skirmish",
                     "--no-progress", "--out", "sim"]) == 0
        assert main(["tournament", "--agents", "random,easy", "--games", "2", "--scenarios", "skirmish",
                     "--no-progress", "--concurrency", "1", "--out", "t"]) == 0
        assert main(["sprt", "--agents", "easy,random", "--scenario", "skirmish", "--max-games", "4", "--batch", "2",
                     "--no-progress", "--concurrency", "1", "--out", "s"]) == 0
        assert main(["play", "--agents", "random,random", "--save", "g.json"]) == 0
        assert main(["replay", "g.json", "--json"]) == 0
        assert main(["--help"]) == 0
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "No plots: they need matplotlib" in (tmp_path / "t" / "report.md").read_text()


def test_a_missing_extra_is_a_one_line_hint(tmp_path):
    r = python("""
        from dustup_cli.cli import main
        print(main(["simulate", "--agents", "ppo,random", "--games", "2"]))
        print(main(["train", "--steps", "10"]))
    """, tmp_path)
    assert r.returncode == 0 and r.stdout.split() == ["2", "2"], (r.stdout, r.stderr)
    err = r.stderr.strip().splitlines()
    assert len(err) == 2 and "pip install 'dustup-ai[policy]'" in err[0] and "pip install 'dustup-ai[train]'" in err[1]
    assert not (tmp_path / "runs").exists()


def test_make_run_installs_only_the_quick_start_extras():
    mk = (ROOT / "Makefile").read_text()
    run_rule = mk[mk.index("$(VENV)/.run:"):].split("\n\n")[0]
    assert "'.[policy,plots]'" in run_rule and "dev" not in run_rule and "ray" not in run_rule
    assert "--agents random,easy,medium,hard,defensive,ppo" in mk  # the quick start still shows the shipped policy
    assert (ROOT / ".ci" / "run").read_text().strip().endswith("make test")


def test_every_shipped_config_is_valid_and_says_how_long_it_runs():
    """configs/*.yaml load without error and their opening comment gives the run's duration and command."""
    import pytest

    pytest.importorskip("yaml")
    from training.config import load_config

    configs = sorted((ROOT / "configs").glob("*.yaml"))
    assert len(configs) >= 8
    for p in configs:
        head = "".join(x for x in p.read_text().splitlines(True) if x.startswith("#"))
        assert any(w in head for w in ("minute", "hour")), p.name
        assert "dustup train --config configs/" + p.name in head, p.name
        for word in ("session", "issue", "commit", "2026"):
            assert word not in head.lower(), (p.name, word)
        load_config(p)
