"""Ctrl-C on the long commands: a SIGINT to the whole process group (what a terminal sends) of a real
``dustup`` subprocess stops it at once with exit status 130, one line and no traceback, leaves no process
behind and keeps every finished game; the same command then resumes and ends as an uninterrupted run."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


def dustup(*args):
    return [sys.executable, "-m", "dustup_cli", *map(str, args)]


def lines(p: Path) -> int:
    return len(p.read_text().splitlines()) if p.exists() else 0


def interrupt(cmd, results: Path, at_least: int, cwd) -> tuple[int, str]:
    """Start ``cmd`` in its own process group, wait for ``at_least`` results, SIGINT the group."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env=ENV, cwd=cwd)
    try:
        deadline = time.monotonic() + 120
        while lines(results) < at_least:
            assert p.poll() is None and time.monotonic() < deadline, p.communicate()
            time.sleep(0.05)
        t = time.monotonic()
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
        stop = time.monotonic() - t
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert stop < 10, stop
    for _ in range(50):  # nothing of the group is left (pool workers ended with their parent)
        try:
            os.killpg(p.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("processes of the interrupted command are still alive")
    return p.returncode, err


def check_stopped(code, err, command):
    assert code == 130, err
    assert "Traceback" not in err, err
    last = [x for x in err.replace("\r", "\n").splitlines() if x.strip()][-1]
    assert last.startswith(f"dustup {command}: interrupted: ") and "run the same command to resume" in last, last


def keys(p: Path) -> list:
    return [json.loads(x).get("key", json.loads(x).get("index")) for x in p.read_text().splitlines()]


def test_ctrl_c_in_simulate_keeps_the_games_and_resumes(tmp_path):
    out = tmp_path / "sim"
    cmd = dustup("simulate", "--agents", "scripted,random", "--games", 200, "--scenario", "skirmish", "--out", out,
                 "--json")
    code, err = interrupt(cmd, out / "results.jsonl", 5, tmp_path)
    check_stopped(code, err, "simulate")
    kept = lines(out / "results.jsonl")
    assert 5 <= kept < 200
    r = subprocess.run(cmd + ["--no-progress"], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert sorted(keys(out / "results.jsonl")) == list(range(200))  # every game once
    fresh = subprocess.run(dustup("simulate", "--agents", "scripted,random", "--games", 200, "--scenario", "skirmish",
                                  "--out", tmp_path / "f", "--json", "--no-progress"),
                           capture_output=True, text=True, env=ENV, cwd=tmp_path)
    ref = json.loads(fresh.stdout)
    assert {k: v for k, v in got.items() if k != "out"} == {k: v for k, v in ref.items() if k != "out"}


def test_ctrl_c_in_tournament_with_workers_and_resume(tmp_path):
    out = tmp_path / "t"
    cmd = dustup("tournament", "--agents", "random,scripted,easy", "--games", 60, "--out", out, "--concurrency", 2,
                 "--json")
    code, err = interrupt(cmd, out / "results.jsonl", 10, tmp_path)
    check_stopped(code, err, "tournament")
    kept = keys(out / "results.jsonl")
    assert 10 <= len(kept) < 180 and len(set(kept)) == len(kept)
    r = subprocess.run(cmd + ["--no-progress"], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert len(set(keys(out / "results.jsonl"))) == 180 == len(keys(out / "results.jsonl"))
    assert (out / "report.md").is_file()


def test_ctrl_c_in_gauntlet_and_resume(tmp_path):
    out = tmp_path / "g"
    cmd = dustup("gauntlet", "--agent", "hard", "--anchors", "random,easy", "--games", 60, "--out", out,
                 "--concurrency", 2, "--json", "--bootstrap", 50)
    code, err = interrupt(cmd, out / "candidate" / "results.jsonl", 5, tmp_path)
    check_stopped(code, err, "gauntlet")
    assert not (out / "report.md").exists()
    r = subprocess.run(cmd + ["--no-progress"], capture_output=True, text=True, env=ENV, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summ = json.loads(r.stdout)
    assert summ["games"] == 120 and len(set(keys(out / "candidate" / "results.jsonl"))) == 120
    assert "| random |" in (out / "report.md").read_text()


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_progress_on_stderr_and_no_progress_silences_it(tmp_path, command):
    args = (["--agents", "scripted,random", "--games", 4] if command == "simulate"
            else ["--agents", "scripted,random", "--games", 4, "--concurrency", 1])
    r = subprocess.run(dustup(command, *args, "--out", tmp_path / "a"), capture_output=True, text=True, env=ENV)
    assert r.returncode == 0 and "4/4" in r.stderr, r.stderr
    r = subprocess.run(dustup(command, *args, "--out", tmp_path / "b", "--no-progress"), capture_output=True,
                       text=True, env=ENV)
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_a_second_run_without_out_gets_its_own_folder_and_the_same_run_reuses_its_own(tmp_path):
    def run(*args):
        r = subprocess.run(dustup("tournament", "--games", 2, "--concurrency", 1, "--no-progress", "--json", *args),
                           capture_output=True, text=True, env=ENV, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)["report"]

    a = run("--agents", "random,scripted")
    b = run("--agents", "random,easy")
    c = run("--agents", "random,scripted", "--seed", 1)
    assert len({a, b, c}) == 3 and all(Path(tmp_path, x, "report.md").is_file() for x in (a, b, c))
    assert run("--agents", "random,scripted") == a


def test_train_without_out_gets_one_folder_per_configuration(tmp_path, monkeypatch):
    """`dustup train` without --out: runs/train/<config>-<hash of the configuration but the budget>, so another
    configuration never lands in (and is refused by) the first one's folder, and the same one resumes."""
    pytest.importorskip("yaml")
    import training.train as TT
    from dustup_cli.cli import main

    outs = []

    class Fake:
        def __init__(self, cfg, out, progress=True, log=print):
            outs.append(Path(out))

        def check(self):
            pass

        def run(self):
            return {"steps": 1, "wall_seconds": 0.0, "steps_per_s_training": 1, "fraction_env": 0,
                    "fraction_update": 0, "best": None}

    monkeypatch.setattr(TT, "Trainer", Fake)
    monkeypatch.chdir(tmp_path)
    smoke = str(ROOT / "configs" / "smoke.yaml")
    for argv in (["--config", smoke], ["--config", smoke, "--seed", "5"], ["--config", smoke, "--steps", "4096"],
                 ["--config", str(ROOT / "configs" / "quick.yaml")]):
        assert main(["train", *argv, "--json"]) == 0
    assert outs[0] != outs[1] and outs[0] == outs[2] and outs[3].name.startswith("quick-")
    assert all(o.parent == Path("runs/train") for o in outs) and outs[0].name.startswith("smoke-")


class _Swallower:
    """An agent that, at its third decision, is Ctrl-C'd in a spot where the KeyboardInterrupt never reaches the run:
    its own ``except BaseException`` (Python itself drops one raised inside a weakref callback or a ``__del__``)."""

    name = "swallower"

    def __init__(self, seed=0):
        from agents import make_agent
        self.inner = make_agent("random", seed=seed)
        self.calls = 0

    def reset(self, seed=None):
        self.inner.reset(seed)

    def unfamiliar(self, game):
        return None

    def choose(self, game, decision):
        self.calls += 1
        if self.calls == 3:
            try:
                signal.raise_signal(signal.SIGINT)
                time.sleep(0.01)
            except BaseException:  # noqa: BLE001 - the point of the agent
                pass
        return self.inner.choose(game, decision)


@pytest.mark.parametrize("command", ["tournament", "simulate"])
def test_a_ctrl_c_lost_on_its_way_up_still_stops_a_run_in_this_process(tmp_path, monkeypatch, command):
    """The games of a run without workers (``--concurrency 1``, ``simulate``) are played in the process that gets
    the Ctrl-C.  A KeyboardInterrupt raised where it is swallowed (above) still stops the run at the game's next
    decision, with the finished games kept; Python's own Ctrl-C handler is back afterwards."""
    from dustup_env import agent_registry
    from evaluation import simulate, tournament
    from evaluation.runs import Interrupted

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("Ctrl-C is not Python's here")
    monkeypatch.setitem(agent_registry.AGENTS, "swallower", _Swallower)
    with pytest.raises(Interrupted):
        if command == "tournament":
            tournament.run(["swallower", "random"], ["skirmish"], 20, tmp_path / "t", seed=1, concurrency=1,
                           progress=False)
        else:
            simulate.simulate("swallower", "random", 20, "skirmish", seed=1, progress=False, out=tmp_path / "s")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
