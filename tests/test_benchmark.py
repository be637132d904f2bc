"""The held-out benchmark (evaluation/benchmark.py, `dustup benchmark`) and the strength levels (agents/levels.py)."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dustup_cli.cli import main
from evaluation import benchmark as B

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------- the suite
def test_the_suite_generates_byte_identically_and_matches_the_published_digests():
    assert len(B.SUITE) == 12 and len({e.name for e in B.SUITE}) == 12 and len({e.seed for e in B.SUITE}) == 12
    for e in B.SUITE:
        first, second = B.scenario_bytes(e), B.scenario_bytes(e)
        assert first == second, e.name
        assert B.digest(first) == B.SUITE_DIGESTS[e.name], (e.name, B.digest(first))


def test_the_suite_in_another_process_and_as_dustup_build_writes_it(tmp_path):
    """Another interpreter (another hash seed) builds the same bytes, and `dustup build ARGS` writes the same file."""
    code = ("from evaluation.benchmark import SUITE, scenario_bytes, digest; "
            "print(' '.join(digest(scenario_bytes(e)) for e in SUITE))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [B.SUITE_DIGESTS[e.name] for e in B.SUITE]
    for e in (B.SUITE[1], B.SUITE[10]):  # a default build and one with every argument
        args = e.build_args().replace(f"--out {e.name}.json", f"--out {tmp_path / (e.name + '.json')}").split()
        assert main(["build", *args]) == 0
        assert (tmp_path / f"{e.name}.json").read_bytes() == B.scenario_bytes(e)


def test_the_suite_spans_sizes_and_arms_and_is_published_in_the_docs():
    withs = {w for e in B.SUITE for w in e.with_}
    assert {"vehicles", "heavy_weapons", "power_armour", "hidden", "night"} <= withs
    assert len({e.points for e in B.SUITE}) >= 3 and len({e.table for e in B.SUITE}) >= 3
    doc = (ROOT / "docs" / "benchmark.md").read_text()
    for e in B.SUITE:
        assert f"dustup build {e.build_args()}" in doc, e.name
        assert B.SUITE_DIGESTS[e.name] in doc, e.name
    assert "never used to tune" in doc


# ---------------------------------------------------------------------------------------------- a tiny run
@pytest.fixture
def tiny_suite(monkeypatch):
    monkeypatch.setattr(B, "SUITE", B.SUITE[:2])


def test_a_tiny_run_reports_paired_scores_with_intervals(tmp_path, tiny_suite):
    summ = B.run("easy", tmp_path / "b", games=2, seed=3, concurrency=1, progress=False,
                 opponents=("random", "easy", "medium"), bootstrap=200)
    assert summ["opponents"] == ["random", "easy", "medium"] and summ["scores"]["easy"] is None
    recs = [json.loads(x) for x in (tmp_path / "b" / "results.jsonl").read_text().splitlines()]
    assert summ["games"] == len(recs) == 2 * 2 * 2  # two scenarios, two opponents, one pair each
    assert {Path(r["scenario"]).name for r in recs} == {"bench-01.json", "bench-02.json"}
    for o in ("random", "medium"):
        mine = [r for r in recs if o in r["agents"]]
        pts = sum(0.5 if r["winner"] in (-1, None) else float(r["agents"][r["winner"]] == "easy") for r in mine)
        v = summ["scores"][o]
        assert v["games"] == 4 and sum(v["wdl"]) == 4 and v["score"] == pytest.approx(pts / 4)
        assert 0 <= v["ci95"][0] <= v["score"] <= v["ci95"][1] <= 1
        # paired: each pair is one seed, sides swapped
        pairs = {}
        for r in mine:
            pairs.setdefault((r["scenario"], r["pair_index"]), []).append(r)
        assert all(len(p) == 2 and p[0]["seed"] == p[1]["seed"] and p[0]["agents"] == p[1]["agents"][::-1]
                   for p in pairs.values())
        for sc in ("bench-01", "bench-02"):
            got = [0.5 if r["winner"] in (-1, None) else float(r["agents"][r["winner"]] == "easy")
                   for r in mine if Path(r["scenario"]).stem == sc]
            assert summ["per_scenario"][sc][o] == pytest.approx(sum(got) / len(got))
    both = summ["scores"]["random"]["score"] + summ["scores"]["medium"]["score"]
    assert summ["mean_score"] == pytest.approx(both / 2)
    assert summ["suite_differs"] == []
    report = (tmp_path / "b" / "report.md").read_text()
    assert "| random |" in report and "| easy | itself" in report and "bench-02" in report
    assert json.loads((tmp_path / "b" / "summary.json").read_text())["scores"] == summ["scores"]
    # the same call again resumes: nothing is replayed, the numbers are the same
    again = B.run("easy", tmp_path / "b", games=2, seed=3, concurrency=1, progress=False,
                  opponents=("random", "easy", "medium"), bootstrap=200)
    assert again["scores"] == summ["scores"]
    assert len((tmp_path / "b" / "results.jsonl").read_text().splitlines()) == len(recs)


def test_a_changed_suite_is_reported(tmp_path, tiny_suite, monkeypatch):
    monkeypatch.setitem(B.SUITE_DIGESTS, "bench-02", "0" * 16)
    summ = B.run("hard", tmp_path / "c", games=1, concurrency=1, progress=False, opponents=("random",), bootstrap=0)
    assert summ["suite_differs"] == ["bench-02"] and summ["scores"]["random"]["games"] == 4
    assert "differs from the published one" in (tmp_path / "c" / "report.md").read_text()


def test_the_cli_prints_a_table_and_json(tmp_path, tiny_suite, capsys):
    assert main(["benchmark", "--agent", "medium", "--games", "1", "--seed", "2", "--concurrency", "1",
                 "--out", str(tmp_path / "d"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^random\s+\d\.\d{3}\s+\[\d\.\d{3}, \d\.\d{3}\]", out, re.M), out
    assert re.search(r"^medium\s+itself", out, re.M) and "report:" in out
    assert main(["benchmark", "--agent", "medium", "--games", "1", "--seed", "2", "--concurrency", "1",
                 "--out", str(tmp_path / "d"), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert set(obj["scores"]) == {"random", "easy", "medium", "hard"} and obj["games"] == 3 * 2 * 2


# ---------------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv,words", [
    (["--agent", "nosuch"], "unknown agent 'nosuch'"),
    (["--agent", "hard", "--games", "0"], "must be at least 1"),
    (["--agent", "hard", "--games", "two"], "expected a whole number"),
    (["--agent", "hard", "--seed", "-1"], "must be at least 0"),
    (["--agent", "hard", "--concurrency", "0"], "must be at least 1"),
    (["--agent", "hard", "--decision-time", "0"], "above 0"),
    (["--agent", "level:9"], "from 1 to 8"),
    (["--agent", "mcts:speed=3"], "speed"),
    (["--agent", " "], "--agent is empty"),
    ([], "--agent"),
])
def test_bad_input_is_one_line_and_writes_nothing(argv, words, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["benchmark", *argv])
    except SystemExit as e:  # argparse's refusals
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_an_out_that_cannot_be_a_folder_is_refused(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    assert main(["benchmark", "--agent", "easy", "--out", str(tmp_path / "f" / "b")]) == 2
    err = capsys.readouterr().err
    assert "is a file, not a folder" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_the_api_refuses_bad_input():
    for kw, words in (({"agent": "hard", "games": 0}, "at least 1"), ({"agent": "", "games": 2}, "non-empty"),
                      ({"agent": "hard", "games": 2, "opponents": ()}, "no opponent"),
                      ({"agent": "hard", "games": 2, "opponents": ("hard",)}, "not measured against itself")):
        with pytest.raises(ValueError, match=words):
            B.check(**kw)


def test_help_lists_the_command_and_the_suite():
    r = subprocess.run([sys.executable, "-m", "dustup_cli", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and re.search(r"^\s+benchmark\s", r.stdout, re.M)
    r = subprocess.run([sys.executable, "-m", "dustup_cli", "benchmark", "--help"], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 0 and "usage: dustup benchmark" in r.stdout
    assert all(e.name in r.stdout for e in B.SUITE) and re.search(r"never\s+used\s+to\s+tune", r.stdout)


# ---------------------------------------------------------------------------------------------- strength levels
def test_the_levels_resolve_and_are_ordered_by_declared_rating():
    from agents import make_agent
    from agents.levels import LEVELS, declared_elo, level_agent_spec

    assert [n for n, _, _ in LEVELS] == list(range(1, 9))
    assert LEVELS[0][1] == "random" and LEVELS[-1][1] == "hard"
    elos = [e for _, _, e in LEVELS]
    assert elos == sorted(elos) and elos[0] == 0
    for n, spec, elo in LEVELS:
        assert level_agent_spec(n) == spec and declared_elo(n) == elo
        a, b = make_agent(f"level:{n}", seed=5), make_agent(spec, seed=5)
        assert type(a) is type(b) and getattr(a, "settings", None) == getattr(b, "settings", None)
    # below easy: easy weakened by random options, weaker the more often it plays at random
    noisy = [s for _, s, _ in LEVELS if s.startswith("noisy:")]
    ps = [float(s.rsplit("p=", 1)[1]) for s in noisy]
    assert noisy and all(s.startswith("noisy:easy,") for s in noisy) and ps == sorted(ps, reverse=True)
    assert all(0 < p < 1 for p in ps)
    for bad in (0, 9, "x", "1.5", True, None):
        with pytest.raises(ValueError, match="from 1 to 8"):
            level_agent_spec(bad)
    with pytest.raises(ValueError, match="needs an argument"):
        make_agent("level")


def test_a_level_plays_as_its_agent():
    from agents import make_agent
    from dustup_env.rules import Game

    moves = []
    for name in ("level:6", "medium"):
        g = Game("skirmish", seed=4)
        agents = [make_agent(name, seed=1), make_agent("easy", seed=2)]
        while not g.over and len(g.history) < 120:
            d = g.decision()
            g.apply(agents[d.side].choose(g, d))
        moves.append(list(g.history))
    assert moves[0] == moves[1]


def test_the_levels_are_documented_with_their_ratings():
    from agents.levels import LEVELS

    text = (ROOT / "docs" / "agents.md").read_text()
    section = text.split("## Strength levels", 1)[1].split("\n## ", 1)[0]
    assert "dustup tournament --agents level:1,level:2" in section
    for n, spec, elo in LEVELS:
        assert f"| `level:{n}` | `{spec}` | {elo:+d} |" in section, (n, spec, elo)


def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(tmp_path):
    """A SIGINT to the process group of a real `dustup benchmark` (two workers): exit 130, one line, the finished
    games kept; the same command then finishes with every game played once."""
    from test_cli_interrupt import check_stopped, dustup, interrupt

    out = tmp_path / "b"
    cmd = dustup("benchmark", "--agent", "easy", "--games", 2, "--concurrency", 2, "--out", out, "--json")
    code, err = interrupt(cmd, out / "results.jsonl", 3, tmp_path)
    check_stopped(code, err, "benchmark")
    assert "benchmark easy" in err  # the progress bar
    assert not (out / "report.md").exists()
    r = subprocess.run(cmd + ["--no-progress"], capture_output=True, text=True, cwd=tmp_path,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    keys = [json.loads(x)["key"] for x in (out / "results.jsonl").read_text().splitlines()]
    assert json.loads(r.stdout)["games"] == len(keys) == len(set(keys)) == 3 * 12 * 2
