"""Engine-only benchmark: decisions/s and games/s of random play (no mask, no observation).

    python benchmarks/bench_engine.py [--games 200] [--scenario default]
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import time

from dustup_env.rules import Game


def run(games: int, scenario: str, seed: int = 0) -> dict:
    Game(scenario, seed=seed)  # warm the scenario cache
    n = 0
    t0 = time.perf_counter()
    for i in range(games):
        g = Game(scenario, seed=seed + i)
        rng = random.Random(seed + i)
        while not g.over:
            opts = g.legal_options()
            g.apply(opts[rng.randrange(len(opts))])
            n += 1
    dt = time.perf_counter() - t0
    return {"benchmark": "engine_random_play", "scenario": scenario, "games": games, "decisions": n,
            "seconds": round(dt, 3), "decisions_per_s": round(n / dt), "games_per_s": round(games / dt, 2),
            "python": platform.python_version(), "machine": platform.machine()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="games of random play (default 200)")
    p.add_argument("--scenario", default="default", help="scenario (default: default)")
    p.add_argument("--seed", type=int, default=0, help="first game seed")
    a = p.parse_args()
    print(json.dumps(run(a.games, a.scenario, a.seed)))


if __name__ == "__main__":
    main()
