"""Random play on the Gymnasium layer with the mask AND the observation computed at every decision.

Both sides are random masked agents; at each decision (either side's) the deciding side's action
mask and observation are computed, then a uniformly random legal action is decoded and applied.
Prints one JSON line: decisions/s and games/s.  ``--engine-only`` measures the bare engine instead.
Progress is a line a game on stderr, written outside the timed part (each game's time is taken around its own play
and summed; the line is written after the clock has stopped).

    python benchmarks/bench_random_play.py [--games 200] [--scenario default] [--engine-only]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time

import numpy as np

from dustup_env.codec import side_flips
from dustup_env.env import DustupEnv


def _view(scenario: str, side: int) -> DustupEnv:
    return DustupEnv(scenario=scenario, opponent="random", learner_side=side)


def _attach(view: DustupEnv, game, side: int) -> None:
    view.game = game
    view.learner = side
    view._flip = side_flips(game, side)
    view._write_static()
    view._vis_key = None
    view._mask_for = None


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run(games: int, scenario: str, seed: int = 0, warmup: int = 20, log=None) -> dict:
    """``warmup`` games (other seeds, not timed) first: steady-state throughput, as in a long training
    run, with the static-terrain caches (line of sight per pair of points, move options) warm.  ``log``: called
    with a progress line after each game, outside the timed part."""
    from dustup_env.rules import Game

    views = [_view(scenario, 0), _view(scenario, 1)]
    codec = views[0].codec
    n = 0
    obs_sum = 0.0
    for k, i in enumerate(range(games, games + warmup)):
        m = _play(Game(scenario, seed=seed + 1_000_000 + i), views, codec, random.Random(i))
        if log:
            log(f"warm-up {k + 1}/{warmup}: {m} decisions (not timed)")
    dt = 0.0
    for i in range(games):
        t0, n0 = time.perf_counter(), n
        g = Game(scenario, seed=seed + i)
        rng = random.Random(seed + i)
        for s in (0, 1):
            _attach(views[s], g, s)
        while not g.over:
            d = g.decision()
            v = views[d.side]
            obs = v._observation()
            mask = v.action_masks()
            obs_sum += float(obs[0])
            legal = np.flatnonzero(mask)
            a = int(legal[rng.randrange(len(legal))])
            g.apply(codec.decode(g, d.side, a, d.kind))
            n += 1
        dt += time.perf_counter() - t0
        if log:
            log(f"game {i + 1}/{games}: {n - n0} decisions; {n} decisions in {dt:.1f} s timed so far")
    return {"benchmark": "random_play_mask_obs", "scenario": scenario, "games": games, "warmup_games": warmup,
            "decisions": n,
            "seconds": round(dt, 3), "decisions_per_s": round(n / dt), "games_per_s": round(games / dt, 2),
            "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()}


def _play(g, views, codec, rng) -> int:
    """Play ``g`` to the end (the timed loop's work); returns the number of decisions."""
    for s in (0, 1):
        _attach(views[s], g, s)
    n = 0
    while not g.over:
        d = g.decision()
        v = views[d.side]
        v._observation()
        legal = np.flatnonzero(v.action_masks())
        g.apply(codec.decode(g, d.side, int(legal[rng.randrange(len(legal))]), d.kind))
        n += 1
    return n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="games of random play (default 200)")
    p.add_argument("--scenario", default="default", help="scenario (default: default)")
    p.add_argument("--seed", type=int, default=0, help="first game seed")
    p.add_argument("--warmup", type=int, default=20, help="untimed warm-up games first (default 20)")
    p.add_argument("--engine-only", action="store_true", help="bare engine: no mask, no observation")
    a = p.parse_args()
    if a.engine_only:
        from bench_engine import run as run_engine

        print(json.dumps(run_engine(a.games, a.scenario, a.seed)))
    else:
        print(json.dumps(run(a.games, a.scenario, a.seed, a.warmup, log=_log)))


if __name__ == "__main__":
    main()
