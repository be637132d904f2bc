"""dustup sprt: the decision rule against games of known strength, and end to end on real agents."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dustup_cli.cli import main
from evaluation.sprt import pair_points, run_sprt, synthetic_source, verdict_sentence


def decide(true_elo, runs=200, correlation=0.0, elo0=0.0, elo1=50.0):
    out = [run_sprt(synthetic_source(true_elo, 0.3, seed=s, pair_correlation=correlation), "cand", "base",
                    elo0, elo1, 0.05, 0.05, batch=20, max_games=5000) for s in range(runs)]
    assert all(r["verdict"] != "inconclusive" for r in out)
    return sum(r["verdict"] == "H1" for r in out) / runs, out


@pytest.mark.parametrize("correlation", [0.0, 0.3])
def test_error_rates_match_alpha_and_beta_on_games_of_known_strength(correlation):
    """Synthetic pairs with a known Elo difference: at elo0 the test accepts H1 in about alpha of the runs, at
    elo1 in about 1 - beta; half-way between, about half; far away, always the right way.  With results
    correlated inside a pair (as paired games are) the pair-based statistic keeps the error rates."""
    p0, _ = decide(0.0, correlation=correlation)
    p1, runs1 = decide(50.0, correlation=correlation)
    mid, _ = decide(25.0, runs=100, correlation=correlation)
    assert p0 <= 0.08, p0
    assert p1 >= 0.90, p1
    assert 0.3 <= mid <= 0.7, mid
    assert decide(-50.0, runs=50, correlation=correlation)[0] == 0.0
    assert decide(150.0, runs=50, correlation=correlation)[0] == 1.0
    assert sum(r["batches"] >= 3 for r in runs1) > len(runs1) / 2  # the test usually needs several batches


def test_the_game_counting_by_pairs():
    recs = [{"agents": ["c", "b"], "pair_index": 0, "winner": 0}, {"agents": ["b", "c"], "pair_index": 0, "winner": 1},
            {"agents": ["c", "b"], "pair_index": 1, "winner": -1}, {"agents": ["b", "c"], "pair_index": 1, "winner": 0},
            {"agents": ["c", "b"], "pair_index": 2, "winner": 0}]  # an unfinished pair does not count
    assert pair_points(recs, "c") == [0, 1, 0, 0, 1]


def test_verdict_reads_as_a_sentence():
    res = {"candidate": "hard", "baseline": "easy", "verdict": "H1", "games": 60, "wins": 30, "draws": 20,
           "losses": 10, "score": 2 / 3, "llr": 3.1, "bounds": [-2.94, 2.94], "elo0": 0, "elo1": 50, "alpha": 0.05,
           "beta": 0.05}
    s = verdict_sentence(res)
    assert s.startswith("hard is better than easy: the test accepted H1") and s.endswith(".") and "60 games" in s
    assert verdict_sentence(dict(res, verdict="H0")).startswith("hard is not shown to be better than easy")
    assert verdict_sentence(dict(res, verdict="inconclusive")).startswith("No decision")


def test_no_verdict_before_ten_pairs():
    """Two pairs won outright have no variance, and their ratio would cross any bound: the test waits for
    MIN_PAIRS complete pairs, then decides (here H1 at once)."""
    from evaluation.sprt import MIN_PAIRS

    def source(n):
        return [{"agents": ["c", "b"] if i % 2 == 0 else ["b", "c"], "pair_index": i // 2,
                 "winner": 0 if i % 2 == 0 else 1, "scenario": "s"} for i in range(n)]

    res = run_sprt(source, "c", "b", 0.0, 50.0, batch=4, max_games=1000)
    assert res["verdict"] == "H1" and res["games"] == 2 * MIN_PAIRS == 20 and res["batches"] == 5
    res = run_sprt(source, "c", "b", 0.0, 50.0, batch=4, max_games=12)
    assert res["verdict"] == "inconclusive" and res["games"] == 12


def test_a_non_inferiority_test_says_so():
    """elo1 <= 0 asks whether the candidate is at least as strong (H1) or weaker (H0)."""
    res = {"candidate": "mcts", "baseline": "mcts:time=0.25", "verdict": "H1", "games": 60, "wins": 30,
           "draws": 0, "losses": 30, "score": 0.5, "llr": 3.1, "bounds": [-2.94, 2.94], "elo0": -50, "elo1": 0,
           "alpha": 0.05, "beta": 0.05}
    assert verdict_sentence(res).startswith("mcts is at least as strong as mcts:time=0.25: the test accepted H1")
    assert verdict_sentence(dict(res, verdict="H0")).startswith("mcts is not shown to be as strong as mcts:time")
    assert verdict_sentence(dict(res, elo0=-80, elo1=-30)).startswith("mcts is at most 30 Elo weaker than")
    assert verdict_sentence(dict(res, verdict="inconclusive")).startswith(
        "No decision on whether mcts is at least as strong as")


def test_sprt_end_to_end_needs_several_batches_and_resumes(tmp_path, capsys):
    """medium against easy on skirmish (about +55 Elo: 57.9% over 400 games of `dustup simulate --agents
    medium,easy --scenario skirmish --games 400 --seed 1`), H1 at 50 Elo: several batches of one growing
    tournament.  Running the same command again decides the same from the recorded games."""
    out = tmp_path / "sprt"
    argv = ["sprt", "--agents", "medium,easy", "--scenario", "skirmish", "--elo0", "0", "--elo1", "50",
            "--batch", "20", "--concurrency", "2", "--out", str(out), "--json", "--no-progress"]
    assert main(argv) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["verdict"] == "H1" and res["batches"] >= 3 and res["games"] == 20 * res["batches"]
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == res["games"] and len({json.loads(x)["key"] for x in lines}) == res["games"]
    assert "medium is better than easy" in (out / "report.md").read_text()
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again == res and len((out / "results.jsonl").read_text().splitlines()) == res["games"]


def test_sprt_without_out_does_not_collide(tmp_path):
    """Two different tests without --out: each has its own folder (the old default folder refused the second)."""
    cmd = [sys.executable, "-m", "dustup_cli", "sprt", "--scenario", "skirmish", "--elo0", "0", "--elo1", "300",
           "--batch", "4", "--max-games", "8", "--no-progress", "--concurrency", "1"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                                       os.environ.get("PYTHONPATH", "")]))
    a = subprocess.run(cmd + ["--agents", "hard,random"], capture_output=True, text=True, cwd=tmp_path, env=env)
    b = subprocess.run(cmd + ["--agents", "easy,random"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
    assert len(list((tmp_path / "runs" / "sprt").iterdir())) == 2
