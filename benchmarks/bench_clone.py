"""Copies of a game per second, mid-game on ``default``, and random-play decisions per second in the same run.

Plays ``--games`` random games of the scenario; in each, at decision ``--at`` (mid-game), copies the game
``--copies`` times with ``clone()`` (an exact copy), ``clone(reseed=...)`` (fresh dice) and
``clone(log=False, reseed=...)`` (no history: what a search would use).  The same run times the random play
of those games (the bare engine: a uniformly random legal option at every decision).  Prints one JSON line:
copies per second of each kind, decisions per second, and how many copies one decision's time buys.

    python benchmarks/bench_clone.py [--games 20] [--at 150] [--copies 2000] [--scenario default]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time

from dustup_env.rules import Game


def run(games: int, at: int, copies: int, scenario: str) -> dict:
    kinds = {"exact": {}, "reseed": {"reseed": 1}, "search": {"log": False, "reseed": 1}}
    spent = {k: 0.0 for k in kinds}
    made = 0
    decisions, play_time = 0, 0.0
    for i in range(games + 2):  # two warm-up games first (caches of the static terrain)
        g = Game(scenario, seed=i)
        rng = random.Random(i)
        n = 0
        t_play = 0.0
        while not g.over:
            t0 = time.perf_counter()
            g.apply(rng.choice(g.decision().options))
            t_play += time.perf_counter() - t0
            n += 1
            if n == at and i >= 2:
                for kind, kw in kinds.items():
                    t0 = time.perf_counter()
                    for _ in range(copies):
                        g.clone(**kw)
                    spent[kind] += time.perf_counter() - t0
                made += copies
        if i >= 2:
            decisions += n
            play_time += t_play
    per_s = {k: round(made / v) for k, v in spent.items()}
    dps = decisions / play_time
    return {"benchmark": "clone", "scenario": scenario, "games": games, "at_decision": at,
            "copies_per_game": copies, "clones_per_s": per_s, "random_play_decisions_per_s": round(dps),
            "exact_clones_per_decision_time": round(per_s["exact"] / dps, 2),
            "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games (default 20)")
    p.add_argument("--at", type=int, default=150, help="the decision at which the copies are made (default 150)")
    p.add_argument("--copies", type=int, default=2000, help="copies of each kind per game (default 2000)")
    p.add_argument("--scenario", default="default", help="scenario (default: default)")
    a = p.parse_args()
    print(json.dumps(run(a.games, a.at, a.copies, a.scenario)))


if __name__ == "__main__":
    main()
