"""Instructions per random-play decision of two checkouts, counted by valgrind (callgrind): a measure that the
machine's load does not move.

Each checkout plays the same seeds as ``ab_random_play.py`` (the bare engine with ``--engine-only``, else the random
masked agents with the deciding side's observation and mask at every decision) in a process run under
``valgrind --tool=callgrind``, with ``PYTHONHASHSEED=0``; the counting is switched on only for the timed games
(after the imports and ``--warmup`` games).  Prints one JSON line: each arm's decisions and instructions per
decision, and the ratio A/B of those (above 1: B does less work per decision).  Instructions are not time (the
caches and the branch predictor are not counted), so this complements the interleaved A/B, it does not replace it.
About 50 times slower than plain play: a few games are enough (the count repeats exactly).

    python benchmarks/ab_instructions.py --a /tmp/base --b . [--games 8] [--warmup 3] [--engine-only] [--scenario default]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

WORKER = r"""
import os, random, subprocess, sys
sys.path.insert(0, sys.argv[1])
from dustup_env.rules import Game
engine_only = sys.argv[2] == "engine"
scenario, games, warmup = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
if not engine_only:
    import bench_random_play as b
    views = [b._view(scenario, 0), b._view(scenario, 1)]
    codec = views[0].codec


def play(lo, hi):
    n = 0
    for i in range(lo, hi):
        g, rng = Game(scenario, seed=i), random.Random(i)
        if engine_only:
            while not g.over:
                g.apply(rng.choice(g.decision().options))
                n += 1
        else:
            n += b._play(g, views, codec, rng)
    return n


play(1_000_000, 1_000_000 + warmup)
subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], capture_output=True, check=True)
n = play(0, games)
subprocess.run(["callgrind_control", "-i", "off", str(os.getpid())], capture_output=True, check=True)
print("decisions", n, flush=True)
"""


def count(checkout: str, engine_only: bool, scenario: str, games: int, warmup: int) -> dict:
    root = Path(checkout).resolve()
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                            f"--callgrind-out-file={tmp}/callgrind.out", sys.executable, "-c", WORKER, str(HERE),
                            "engine" if engine_only else "env", scenario, str(games), str(warmup)],
                           capture_output=True, text=True, env=env, cwd=str(root))
    d = re.search(r"^decisions (\d+)", r.stdout, re.M)
    ir = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode or not d or not ir:
        raise SystemExit(f"the run of {checkout} failed:\n{r.stderr[-2000:]}")
    n, i = int(d.group(1)), int(ir.group(1))
    return {"decisions": n, "instructions": i, "per_decision": round(i / n)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", required=True, help="checkout A (the baseline)")
    p.add_argument("--b", default=".", help="checkout B (default: this one)")
    p.add_argument("--games", type=int, default=8, help="counted games per arm (seeds 0..games-1; default 8)")
    p.add_argument("--warmup", type=int, default=3, help="uncounted warm-up games per arm (default 3)")
    p.add_argument("--engine-only", action="store_true", help="the bare engine, no observation or mask")
    p.add_argument("--scenario", default="default", help="the scenario both arms play (default: default)")
    a = p.parse_args()
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (apt-get install valgrind)")
    ra = count(a.a, a.engine_only, a.scenario, a.games, a.warmup)
    rb = count(a.b, a.engine_only, a.scenario, a.games, a.warmup)
    print(json.dumps({"benchmark": "ab_instructions", "mode": "engine" if a.engine_only else "env",
                      "scenario": a.scenario, "a": a.a, "b": a.b, "games": a.games, "a_decisions": ra["decisions"],
                      "b_decisions": rb["decisions"], "a_instructions_per_decision": ra["per_decision"],
                      "b_instructions_per_decision": rb["per_decision"],
                      "ratio_a_over_b": round(ra["per_decision"] / rb["per_decision"], 3)}))


if __name__ == "__main__":
    main()
