"""Same-minute A/B of random-play speed between two checkouts, interleaved game by game.

The VM's speed drifts by tens of percent from one minute to the next (other tenants), so two benchmark
runs one after the other can disagree by more than the difference being measured.  This script starts
one worker process per checkout (``PYTHONPATH=<checkout>``, so each imports its own ``dustup_env``),
warms both up, then alternates small chunks of games between them (A then B, then B then A, ...): both
arms see the same drift.  Each worker plays ``bench_random_play``'s loop (random masked agents, the
deciding side's observation and action mask at every decision), or with ``--engine-only`` the bare engine
(a uniformly random legal option at every decision).  Prints one JSON line: each arm's
decisions/s over the whole run, the ratio B/A and the median of the per-chunk ratios.

    python benchmarks/ab_random_play.py --a /tmp/foundation --b . [--games 60] [--chunk 5] [--warmup 10] [--engine-only]
        [--scenario default]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

WORKER = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from dustup_env.rules import Game
engine_only = sys.argv[2] == "engine"
scenario = sys.argv[3]
if not engine_only:
    import bench_random_play as b
    views = [b._view(scenario, 0), b._view(scenario, 1)]
    codec = views[0].codec


def engine_play(g, rng):  # the bare engine: a uniformly random legal option at every decision
    n = 0
    while not g.over:
        g.apply(rng.choice(g.decision().options))
        n += 1
    return n


for line in sys.stdin:
    start, count = map(int, line.split())
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(start, start + count):
        if engine_only:
            n += engine_play(Game(scenario, seed=i), random.Random(i))
        else:
            n += b._play(Game(scenario, seed=i), views, codec, random.Random(i))  # the benchmark's own loop
    print(json.dumps({"decisions": n, "seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0}),
          flush=True)
"""


class Worker:
    def __init__(self, checkout: str, engine_only: bool = False, scenario: str = "default"):
        env = dict(os.environ, PYTHONPATH=str(Path(checkout).resolve()))
        self.p = subprocess.Popen([sys.executable, "-c", WORKER, str(HERE), "engine" if engine_only else "env", scenario],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env, cwd=str(Path(checkout).resolve()))

    def play(self, start: int, count: int) -> dict:
        self.p.stdin.write(f"{start} {count}\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("benchmark worker died (see its stderr above)")
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", required=True, help="checkout A (the baseline, e.g. a git worktree of the foundation)")
    p.add_argument("--b", default=".", help="checkout B (default: this one)")
    p.add_argument("--games", type=int, default=60, help="timed games per arm (seeds 0..games-1; default 60)")
    p.add_argument("--chunk", type=int, default=5, help="games per turn of an arm (default 5)")
    p.add_argument("--warmup", type=int, default=10, help="untimed warm-up games per arm (default 10)")
    p.add_argument("--engine-only", action="store_true",
                   help="the bare engine (a random legal option per decision), no observation or mask")
    p.add_argument("--scenario", default="default", help="the scenario both arms play (default: default)")
    a = p.parse_args()
    wa, wb = Worker(a.a, a.engine_only, a.scenario), Worker(a.b, a.engine_only, a.scenario)
    try:
        wa.play(1_000_000, a.warmup)
        wb.play(1_000_000, a.warmup)
        tot = {"a": [0, 0.0, 0.0], "b": [0, 0.0, 0.0]}
        ratios, cpu_ratios = [], []
        for k, start in enumerate(range(0, a.games, a.chunk)):
            count = min(a.chunk, a.games - start)
            order = (("a", wa), ("b", wb)) if k % 2 == 0 else (("b", wb), ("a", wa))
            rate, cpu = {}, {}
            for name, w in order:
                r = w.play(start, count)
                tot[name][0] += r["decisions"]
                tot[name][1] += r["seconds"]
                tot[name][2] += r["cpu"]
                rate[name] = r["decisions"] / r["seconds"]
                cpu[name] = r["decisions"] / r["cpu"]
            ratios.append(rate["b"] / rate["a"])
            cpu_ratios.append(cpu["b"] / cpu["a"])
    finally:
        wa.close()
        wb.close()
    da, db = tot["a"][0] / tot["a"][1], tot["b"][0] / tot["b"][1]
    print(json.dumps({"benchmark": "ab_random_play", "mode": "engine" if a.engine_only else "env", "scenario": a.scenario, "a": a.a, "b": a.b, "games": a.games, "chunk": a.chunk,
                      "a_decisions_per_s": round(da), "b_decisions_per_s": round(db),
                      "a_decisions": tot["a"][0], "b_decisions": tot["b"][0],
                      "ratio_b_over_a": round(db / da, 3), "median_chunk_ratio": round(statistics.median(ratios), 3),
                      "cpu_ratio_b_over_a": round((tot["b"][0] / tot["b"][2]) / (tot["a"][0] / tot["a"][2]), 3),
                      "median_chunk_cpu_ratio": round(statistics.median(cpu_ratios), 3)}))


if __name__ == "__main__":
    main()
