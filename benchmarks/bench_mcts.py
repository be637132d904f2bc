"""Playouts per second of the search agent and decisions per second of ``hard``; a digest check of the bots' choices.

The search agent (``mcts``) uses ``hard`` as its prior and as the rollout policy of both sides, so ``hard``'s speed
is most of its playouts'.  The check tells whether two checkouts' bots make the very same choices.

Three modes:

``speed``: plays, on each scenario, a seeded game of ``mcts:playouts=N`` (side 0) against ``hard`` (side 1) for
its first ``--decisions`` searched decisions (fixed positions: the search is deterministic with a playout
budget) and times the searches: playouts per second; then times ``hard`` playing both sides of a seeded game
(``--hard-decisions`` decisions of each scenario): its decisions per second.  One JSON line.

``ab``: the same measure in one worker process per checkout (``PYTHONPATH=<checkout>``), rounds alternating
A-B, B-A, ... so both see the same drift of a shared machine's speed; prints each round, then one JSON line with
the medians per arm and their ratio B/A.

``check``: plays a fixed set of games (``hard``, ``medium``, ``easy``, ``defensive`` against each other on every
scenario these bots play, a few seeds each, and ``mcts:playouts=8`` against ``hard`` on ``default`` and
``skirmish``) and prints a digest of every game's sequence of (decision, choice): two checkouts whose bots choose
alike print the same digests (``--quick``: a small subset, for the tests).

    python benchmarks/bench_mcts.py speed [--scenarios default,skirmish,armour] [--decisions 6] [--playouts 30]
    python benchmarks/bench_mcts.py ab --a /path/to/baseline --b . [--rounds 5] [--no-warmup]
    python benchmarks/bench_mcts.py check [--quick]

Ctrl-C stops a run cleanly (exit status 130) after printing what it measured so far.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SCENARIOS = ("default", "skirmish", "armour")
CHECK_SCENARIOS = ("default", "skirmish", "armour", "night-raid", "fire-support", "air-assault", "breach")
CHECK_PAIRS = (("hard", "hard"), ("hard", "medium"), ("medium", "easy"), ("defensive", "hard"))
CHECK_SEEDS = (1, 2, 3, 4)
CHECK_MCTS = (("default", 1, None), ("default", 2, None), ("skirmish", 1, None), ("skirmish", 2, None),
              ("armour", 1, 40))  # (scenario, seed, searched decisions: None, the whole game)
CHECK_SERIES = (("armour", (1, 2, 3)), ("default", (1, 2, 3)))  # one pair of hard bots playing games in a row
QUICK = [("skirmish", "hard", "hard", 1), ("armour", "hard", "medium", 1)]
QUICK_MCTS = [("skirmish", 1, 8)]  # (scenario, seed, searched decisions)


def _agents():
    import agents  # noqa: F401 - registers the built-in bots
    from agents import make_agent
    return make_agent


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------- the check
def play_digest(scenario: str, a: str, b: str, seed: int, max_searched: int | None = None, players=None) -> dict:
    """Play ``a`` (side 0) against ``b`` (side 1) on ``scenario`` with ``seed``; the digest of every (decision,
    choice) in order (with ``max_searched``: stop after that many decisions of side 0 with a choice to make;
    ``players``: those two agents, as they are after the games they played before, instead of new ones)."""
    from dustup_env.rules import Game
    make_agent = _agents()
    g = Game(scenario, seed=seed)
    if players is None:
        players = [make_agent(a, seed=2 * seed), make_agent(b, seed=2 * seed + 1)]
    for s, p in enumerate(players):
        p.reset(2 * seed + s)
    h = hashlib.sha256()
    n = searched = 0
    while not g.over:
        d = g.decision()
        if max_searched is not None and d.side == 0 and len(d.options) > 1:
            if searched >= max_searched:
                break
            searched += 1
        o = players[d.side].choose(g, d)
        h.update(repr((d.kind, d.side, d.unit, len(d.options), tuple(o))).encode())
        g.apply(o)
        n += 1
    fallbacks = [getattr(p, "fallbacks", 0) for p in players]
    h.update(repr((g.over, g.winner if g.over else None, fallbacks)).encode())
    return {"game": f"{scenario}:{a}-{b}:{seed}", "decisions": n, "digest": h.hexdigest()[:16]}


def check_games(quick: bool = False) -> list:
    if quick:
        games = [(sc, a, b, s, None) for sc, a, b, s in QUICK]
        games += [(sc, "mcts:playouts=8", "hard", s, m) for sc, s, m in QUICK_MCTS]
    else:
        games = [(sc, a, b, s, None) for sc in CHECK_SCENARIOS for a, b in CHECK_PAIRS for s in CHECK_SEEDS]
        games += [(sc, "mcts:playouts=8", "hard", s, m) for sc, s, m in CHECK_MCTS]
        games += [(sc, "hard", "hard", seeds, "series") for sc, seeds in CHECK_SERIES]
    return games


def _play(sc, a, b, s, m) -> dict:
    if m != "series":
        return play_digest(sc, a, b, s, m)
    players = [_agents()(a, seed=1), _agents()(b, seed=2)]  # the same two bots for every game
    rs = [play_digest(sc, a, b, seed, None, players) for seed in s]
    h = hashlib.sha256("".join(r["digest"] for r in rs).encode())
    return {"game": f"{sc}:{a}-{b}:series{list(s)}", "decisions": sum(r["decisions"] for r in rs),
            "digest": h.hexdigest()[:16]}


def check(quick: bool = False) -> dict:
    out = []
    total = hashlib.sha256()
    try:
        for sc, a, b, s, m in check_games(quick):
            t0 = time.perf_counter()
            r = _play(sc, a, b, s, m)
            out.append(r)
            total.update(r["digest"].encode())
            _progress(f"{r['game']}: {r['decisions']} decisions, {r['digest']} ({time.perf_counter() - t0:.1f} s)")
    finally:
        print(json.dumps({"benchmark": "bench_mcts check", "quick": quick, "games": out,
                          "digest": total.hexdigest()[:16], "complete": len(out) == len(check_games(quick))}))
    return {"games": out, "digest": total.hexdigest()[:16]}


# ---------------------------------------------------------------------------------------------- the speed
def search_rate(scenario: str, decisions: int, playouts: int, seed: int = 3) -> dict:
    """``mcts:playouts=N,prior=hard`` (side 0, seed 1) against ``hard`` (seed 2): the first ``decisions`` searched decisions
    of the game with ``seed``, timed (playouts and seconds)."""
    from dustup_env.rules import Game
    make_agent = _agents()
    g = Game(scenario, seed=seed)
    m, h = make_agent(f"mcts:playouts={playouts},prior=hard", seed=1), make_agent("hard", seed=2)
    spent, n = 0.0, 0
    while not g.over and n < decisions:
        d = g.decision()
        if d.side == 0 and len(d.options) > 1:
            t0 = time.perf_counter()
            o = m.choose(g, d)
            spent += time.perf_counter() - t0
            n += 1
        else:
            o = (m if d.side == 0 else h).choose(g, d)
        g.apply(o)
    return {"playouts": m.stats["playouts"], "seconds": spent}


def hard_rate(scenario: str, decisions: int, seed: int = 5) -> dict:
    """``hard`` on both sides of the games with seeds ``seed``, ``seed + 1``, ...: their first ``decisions``
    decisions, timed."""
    from dustup_env.rules import Game
    make_agent = _agents()
    spent, n = 0.0, 0
    while n < decisions:
        g = Game(scenario, seed=seed)
        players = [make_agent("hard", seed=1), make_agent("hard", seed=2)]
        while not g.over and n < decisions:
            d = g.decision()
            t0 = time.perf_counter()
            o = players[d.side].choose(g, d)
            spent += time.perf_counter() - t0
            n += 1
            g.apply(o)
        seed += 1
    return {"decisions": n, "seconds": spent}


def speed(scenarios, decisions: int, playouts: int, hard_decisions: int, out: dict | None = None,
          progress: bool = False) -> dict:
    """{scenario: playouts/s, hard's decisions/s}; ``out``: filled as the scenarios finish (kept on Ctrl-C)."""
    out = {} if out is None else out
    for sc in scenarios:
        r = search_rate(sc, decisions, playouts)
        hr = hard_rate(sc, hard_decisions)
        out[sc] = {"playouts_per_s": round(r["playouts"] / r["seconds"], 2),
                   "hard_decisions_per_s": round(hr["decisions"] / hr["seconds"], 1)}
        if progress:
            _progress(f"{sc}: {out[sc]['playouts_per_s']} playouts/s, hard {out[sc]['hard_decisions_per_s']} decisions/s")
    return out


WORKER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import bench_mcts as b
try:
    for line in sys.stdin:
        scenario, decisions, playouts, hard_decisions = line.split()
        r = b.speed([scenario], int(decisions), int(playouts), int(hard_decisions))[scenario]
        print(json.dumps(r), flush=True)
except KeyboardInterrupt:  # Ctrl-C reaches the workers too: the parent reports
    sys.exit(130)
"""


class Worker:
    def __init__(self, checkout: str):
        root = Path(checkout).resolve()
        env = dict(os.environ, PYTHONPATH=str(root))
        self.p = subprocess.Popen([sys.executable, "-c", WORKER, str(Path(__file__).resolve().parent)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=str(root))

    def run(self, scenario: str, decisions: int, playouts: int, hard_decisions: int) -> dict:
        self.p.stdin.write(f"{scenario} {decisions} {playouts} {hard_decisions}\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("benchmark worker died (see its stderr above)")
        return json.loads(line)

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()


def ab(a: str, b: str, scenarios, rounds: int, decisions: int, playouts: int, hard_decisions: int,
       warmup: bool = True) -> dict:
    wa, wb = Worker(a), Worker(b)
    res = {arm: {sc: [] for sc in scenarios} for arm in ("a", "b")}
    try:
        if warmup:  # one untimed search and game per scenario and arm (the caches of the static table)
            for sc in scenarios:
                for arm, w in (("a", wa), ("b", wb)):
                    w.run(sc, 1, playouts, 50)
            _progress("warmed up")
        for r in range(rounds):
            for sc in scenarios:
                order = (("a", wa), ("b", wb)) if r % 2 == 0 else (("b", wb), ("a", wa))  # A-B, then B-A, ...
                for arm, w in order:
                    x = w.run(sc, decisions, playouts, hard_decisions)
                    res[arm][sc].append(x)
                    _progress(f"round {r + 1} {sc} {arm}: {x['playouts_per_s']} playouts/s, "
                              f"hard {x['hard_decisions_per_s']} decisions/s")
    finally:
        wa.close()
        wb.close()
        summary = {}
        for sc in scenarios:
            n = min(len(res["a"][sc]), len(res["b"][sc]))
            if not n:
                continue
            row = {}
            for key in ("playouts_per_s", "hard_decisions_per_s"):
                ma = statistics.median(x[key] for x in res["a"][sc][:n])
                mb = statistics.median(x[key] for x in res["b"][sc][:n])
                row[key] = {"a": ma, "b": mb, "ratio_b_over_a": round(mb / ma, 2)}
            row["rounds"] = n
            summary[sc] = row
        print(json.dumps({"benchmark": "bench_mcts ab", "a": a, "b": b, "playouts": playouts,
                          "decisions": decisions, "hard_decisions": hard_decisions, "results": summary}))
    return summary


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="mode", required=True)
    sp = sub.add_parser("speed", help="playouts/s of mcts and decisions/s of hard in this checkout")
    ap = sub.add_parser("ab", help="the same, interleaved between two checkouts")
    for q in (sp, ap):
        q.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated (default: %(default)s)")
        q.add_argument("--decisions", type=int, default=6, help="searched decisions per scenario (default 6)")
        q.add_argument("--playouts", type=int, default=30, help="playouts per searched decision (default 30)")
        q.add_argument("--hard-decisions", type=int, default=1000,
                       help="decisions of hard against hard per scenario (default 1000)")
    ap.add_argument("--a", required=True, help="checkout A (the baseline)")
    ap.add_argument("--b", default=".", help="checkout B (default: this one)")
    ap.add_argument("--rounds", type=int, default=5, help="timed rounds per scenario (default 5)")
    ap.add_argument("--no-warmup", action="store_true", help="no untimed first search and game per scenario")
    cp = sub.add_parser("check", help="digests of the bots' choices in a fixed set of games")
    cp.add_argument("--quick", action="store_true", help="a small subset (a few seconds)")
    a = p.parse_args(argv)
    try:
        if a.mode == "check":
            check(a.quick)
            return 0
        scenarios = [s for s in a.scenarios.split(",") if s]
        if a.mode == "speed":
            done: dict = {}
            try:
                speed(scenarios, a.decisions, a.playouts, a.hard_decisions, done, progress=True)
            finally:
                print(json.dumps({"benchmark": "bench_mcts speed", "playouts": a.playouts, "decisions": a.decisions,
                                  "hard_decisions": a.hard_decisions, "results": done,
                                  "complete": len(done) == len(scenarios)}))
        else:
            ab(a.a, a.b, scenarios, a.rounds, a.decisions, a.playouts, a.hard_decisions, not a.no_warmup)
        return 0
    except KeyboardInterrupt:
        print("stopped (Ctrl-C)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
