"""Tournaments: paired schedule, resumption, adjudication, reports, CLI."""
import json
import signal
import subprocess
import sys
import time

import pytest

from agents.base import AGENTS, RandomAgent
from dustup_cli.cli import main
from evaluation import tournament as T


class CrashAgent(RandomAgent):
    name = "crasher"

    def choose(self, game, decision):
        raise RuntimeError("boom")


class IllegalAgent(RandomAgent):
    name = "illegal"

    def choose(self, game, decision):
        return ("teleport",)


class SlowAgent(RandomAgent):
    name = "slow"

    def choose(self, game, decision):
        time.sleep(0.02)
        return super().choose(game, decision)


AGENTS.update(crasher=CrashAgent, illegal=IllegalAgent, slow=SlowAgent)


def test_schedule_is_paired_with_swapped_sides_and_shared_seeds():
    tasks = T.schedule(["random", "scripted", "x"], ["skirmish"], 4, seed=7)
    assert len(tasks) == 3 * 4
    by_pair = {}
    for t in tasks:
        by_pair.setdefault((t["key"].rsplit("|", 1)[0]), []).append(t)
    for pair in by_pair.values():
        assert len(pair) == 2 and pair[0]["seed"] == pair[1]["seed"]
        assert pair[0]["agents"] == pair[1]["agents"][::-1]
    # the same game seeds for every pairing
    assert {t["seed"] for t in tasks if t["pair_index"] == 0} == {tasks[0]["seed"]}
    g = T.schedule(["a", "b", "c"], ["s1", "s2"], 2, seed=0, gauntlet="a")
    assert {tuple(sorted(t["agents"])) for t in g} == {("a", "b"), ("a", "c")}


@pytest.mark.parametrize("bad,reason", [("crasher", "crash of crasher"), ("illegal", "illegal option from illegal")])
def test_crash_and_illegal_option_forfeit(bad, reason):
    task = T.schedule([bad, "random"], ["skirmish"], 2, seed=1)[0]
    rec = T.play_task(task)
    assert rec["agents"][0] == bad
    # the bad agent forfeits as soon as it must decide
    assert rec["reason"].startswith(reason) and rec["winner"] == 1


def test_timeout_forfeits_and_step_cap_draws():
    task = T.schedule(["slow", "random"], ["skirmish"], 2, seed=1)[0]
    rec = T.play_task(task, decision_time=0.001)
    assert rec["reason"].startswith("timeout of slow") and rec["winner"] == 1
    rec = T.play_task(T.schedule(["random", "random"], ["skirmish"], 2, seed=1)[0], max_decisions=5)
    assert rec["reason"] == "step cap" and rec["winner"] == -1 and rec["decisions"] == 5


def test_resume_skips_finished_games_and_gives_the_same_ratings(tmp_path):
    full, part = tmp_path / "full", tmp_path / "part"
    recs = T.run(["random", "scripted"], ["skirmish"], 8, full, seed=3, concurrency=1, progress=False)
    ref = T.report(recs, full)
    # a run stopped after 3 games (and one line cut short by the kill)
    T.run(["random", "scripted"], ["skirmish"], 8, part, seed=3, concurrency=1, progress=False)
    lines = (part / T.RESULTS).read_text().splitlines()
    (part / T.RESULTS).write_text("\n".join(lines[:3]) + "\n" + lines[3][: len(lines[3]) // 2])
    before = set(T.load_results(part))
    recs2 = T.run(["random", "scripted"], ["skirmish"], 8, part, seed=3, concurrency=2, progress=False)
    assert len(before) == 3 and len(recs2) == 8
    keys_written = [json.loads(x)["key"] for x in (part / T.RESULTS).read_text().splitlines() if x.endswith("}")]
    assert len(keys_written) == 8 and set(keys_written) == {r["key"] for r in recs2}  # no game replayed twice
    again = T.report(recs2, part)
    assert again["ratings"] == ref["ratings"] and again["los"] == ref["los"]
    strip = lambda rs: sorted((r["key"], r["winner"], tuple(r["vp"]), r["decisions"]) for r in rs)
    assert strip(recs) == strip(recs2)


def test_a_different_tournament_in_the_same_folder_is_refused(tmp_path):
    T.run(["random", "scripted"], ["skirmish"], 2, tmp_path, seed=3, concurrency=1, progress=False)
    with pytest.raises(ValueError, match="different tournament .*seed"):
        T.run(["random", "scripted"], ["skirmish"], 2, tmp_path, seed=4, concurrency=1, progress=False)
    with pytest.raises(ValueError, match="different tournament .*options"):
        T.run(["random", "scripted"], ["skirmish"], 2, tmp_path, seed=3, concurrency=1, progress=False,
              options={"extra_hits": False})


def test_more_games_extend_the_same_tournament(tmp_path):
    """More --games in the same folder play only the new pairs (dustup sprt grows its tournament this way);
    the records equal those of a tournament played at that size at once."""
    small = T.run(["random", "scripted"], ["skirmish"], 4, tmp_path / "a", seed=3, concurrency=1, progress=False)
    grown = T.run(["random", "scripted"], ["skirmish"], 8, tmp_path / "a", seed=3, concurrency=1, progress=False)
    once = T.run(["random", "scripted"], ["skirmish"], 8, tmp_path / "b", seed=3, concurrency=1, progress=False)
    strip = lambda rs: [(r["key"], r["winner"], r["vp"], r["decisions"]) for r in rs]
    assert strip(grown) == strip(once) and strip(grown)[:4] == strip(small)
    assert len((tmp_path / "a" / T.RESULTS).read_text().splitlines()) == 8  # the first 4 were not replayed
    # fewer games again: the first pairs of the same schedule
    assert strip(T.run(["random", "scripted"], ["skirmish"], 2, tmp_path / "a", seed=3, concurrency=1,
                       progress=False)) == strip(once)[:2]


def test_game_options_reach_every_game(tmp_path):
    """Game options are played: every game of the tournament is a game with those options."""
    from dustup_env.rules import Game

    recs = T.run(["scripted", "hard"], ["skirmish"], 4, tmp_path, seed=5, concurrency=2, progress=False,
                 replays=4, options={"extra_hits": False})
    for r in recs:
        g = Game.load(tmp_path / r["replay_file"])
        assert g.options["extra_hits"] is False and g.winner == r["winner"] and len(g.history) == r["decisions"]
    assert json.loads((tmp_path / T.CONFIG).read_text())["options"] == {"extra_hits": False}


def test_cli_tournament_json_and_report_files(tmp_path, capsys):
    out = tmp_path / "t"
    assert main(["tournament", "--agents", "random,scripted", "--scenarios", "skirmish", "--games", "4",
                 "--out", str(out), "--json", "--no-progress", "--concurrency", "1",
                 "--replays", "1"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert set(obj["ratings"]) == {"random", "scripted"} and obj["games"] == 4
    assert obj["ratings"]["random"]["elo"] == 0.0 and len(obj["ratings"]["scripted"]["ci95"]) == 2
    for f in ("report.md", "ratings.json", "scores.png", "ratings.png", "results.jsonl"):
        assert (out / f).stat().st_size > 0
    rep = list((out / "replays").iterdir())
    assert len(rep) == 1
    assert main(["replay", str(rep[0]), "--json"]) == 0


def test_killed_tournament_resumes_from_the_command_line(tmp_path):
    out = tmp_path / "k"
    cmd = [sys.executable, "-m", "dustup_cli", "tournament", "--agents", "random,scripted", "--scenarios",
           "default", "--games", "40", "--out", str(out), "--concurrency", "1", "--no-progress",
           "--json"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    for _ in range(200):
        time.sleep(0.05)
        if (out / T.RESULTS).exists() and len((out / T.RESULTS).read_text().splitlines()) >= 5:
            break
    p.send_signal(signal.SIGKILL)
    p.wait()
    n_before = len(T.load_results(out))
    assert 0 < n_before < 40
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0
    resumed = json.loads(r.stdout)
    lines = [x for x in (out / T.RESULTS).read_text().splitlines() if x.endswith("}")]
    assert len({json.loads(x)["key"] for x in lines}) == 40
    fresh = tmp_path / "f"
    r2 = subprocess.run(cmd[:cmd.index("--out") + 1] + [str(fresh)] + cmd[cmd.index("--out") + 2:],
                        capture_output=True, text=True)
    assert json.loads(r2.stdout)["ratings"] == resumed["ratings"]


def test_ray_backend_gives_identical_results(tmp_path):
    ray = pytest.importorskip("ray")  # installed with the dev extras
    local = T.run(["random", "scripted"], ["skirmish"], 4, tmp_path / "l", seed=9, concurrency=2, progress=False)
    try:
        viaray = T.run(["random", "scripted"], ["skirmish"], 4, tmp_path / "r", seed=9, concurrency=2,
                       backend="ray", progress=False)
    finally:
        ray.shutdown()
    strip = lambda rs: [(r["key"], r["winner"], r["vp"], r["decisions"]) for r in rs]
    assert strip(local) == strip(viaray)


def test_ray_backend_without_ray_is_a_one_line_hint_before_anything_starts(tmp_path, monkeypatch, capsys):
    """`--backend ray` where ray is not installed: the one-line message naming the extra, exit status 2, no
    progress bar drawn, no folder made (checked before the first game, not when the pool starts)."""
    for name in [m for m in sys.modules if m == "ray" or m.startswith("ray.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ModuleNotFoundError
    out = tmp_path / "t"
    code = main(["tournament", "--agents", "random,easy", "--games", "2", "--scenarios", "skirmish",
                 "--backend", "ray", "--out", str(out)])
    stdout, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2 and stdout == "" and len(lines) == 1, (code, err)
    assert "pip install 'dustup-ai[ray]'" in lines[0] and "internal error" not in err and "%|" not in err, err
    assert not out.exists()
    with pytest.raises(ImportError, match=r"dustup-ai\[ray\]"):
        T.run(["random", "easy"], ["skirmish"], 2, out, backend="ray", progress=False)
    assert not out.exists()
