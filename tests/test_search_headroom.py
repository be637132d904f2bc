"""benchmarks/search_headroom.py: a tiny run finishes and writes valid JSON; bad flags get a one-line error."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "search_headroom.py"


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_a_tiny_run_writes_its_positions_and_summary(tmp_path):
    out = tmp_path / "h.json"
    r = _run("--scenarios", "skirmish", "--positions", "1", "--playouts", "2", "--seed", "3", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "skirmish 1/1" in r.stderr  # progress a position
    doc = json.loads(out.read_text())
    assert doc["settings"]["playouts"] == 2 and not doc["interrupted"]
    (pos,) = doc["positions"]
    assert pos["candidates"][0][1] == "hard" and pos["options"] >= 2
    assert len(pos["candidates"]) >= 2  # the search's candidates, at least one alternative
    assert all(len(r) == 2 and set(r) <= {0.0, 0.5, 1.0} for r in pos["results"])  # results of finished games
    assert all(0.0 <= v <= 1.0 for e in pos["evals"] for v in e)
    assert doc["summary"]["skirmish"]["positions"] == 1
    again = _run("--from", str(out))  # a saved run reported again
    assert again.returncode == 0 and "skirmish: 1 positions" in again.stdout, again.stderr


@pytest.mark.parametrize("args, words", [
    (["--playouts", "1"], "--playouts"),
    (["--positions", "x"], "--positions"),
    (["--scenarios", "nowhere"], "nowhere"),
    (["--scenarios", "skirmish,default", "--positions", "1,2,3"], "--positions"),
    (["--bogus"], "--bogus"),
    (["--from", "/nonexistent/run.json"], "--from"),
])
def test_bad_flags_get_one_line(args, words):
    r = _run(*args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr
    assert "Traceback" not in r.stderr
