"""Tournament throughput: games/s with 1 and with N worker processes (the same games, same seeds).

    python benchmarks/bench_tournament.py [--games 120] [--concurrency 2]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time

from evaluation import tournament as T


def run(games: int, concurrency: int, agents=("random", "easy", "medium")) -> dict:
    out = {}
    for c in (1, concurrency):
        d = tempfile.mkdtemp()
        t0 = time.perf_counter()
        recs = T.run(list(agents), ["default"], games, d, seed=1, concurrency=c, progress=False)
        dt = time.perf_counter() - t0
        shutil.rmtree(d)
        out[c] = {"games": len(recs), "seconds": round(dt, 3), "games_per_s": round(len(recs) / dt, 2)}
    speedup = out[concurrency]["games_per_s"] / out[1]["games_per_s"]
    return {"benchmark": "tournament", "agents": list(agents), "by_concurrency": out,
            "speedup": round(speedup, 2), "cpus": os.cpu_count()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=120, help="games per pairing (default 120)")
    p.add_argument("--concurrency", type=int, default=os.cpu_count() or 2, help="workers to compare with 1")
    a = p.parse_args()
    print(json.dumps(run(a.games, a.concurrency)))


if __name__ == "__main__":
    main()
