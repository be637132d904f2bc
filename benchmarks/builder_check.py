"""The battle builder's large checks (docs/builder.md, "Checking it"):

  python benchmarks/builder_check.py schema --count 10000     # generated scenarios (random --with options) pass the
                                                              # schema, the builder's own checks and build a Game
  python benchmarks/builder_check.py play --count 1000        # each plays to the end with random and with hard agents
  python benchmarks/builder_check.py points --pairs 200       # equal points, hard vs hard: the first force's score
  python benchmarks/builder_check.py points --pairs 100 --ratio 1.5   # the first force has 1.5 times the points

``--start`` shifts the seeds; ``--jobs`` runs that many processes; ``--records FILE`` appends one line per scenario or
pair (``combine`` sums such files: ``python benchmarks/builder_check.py combine FILE``).  A pair is one scenario played twice, the second
time with the two forces exchanged (the same charts and terrain), both games with ``hard`` on both sides: the score
of the first force over the pair cancels the sides' and the zones' advantages.  Prints one JSON object.  Progress is
a line on stderr a pair (``points``) or a batch of scenarios (``schema``, ``play``: a hundredth of the run).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dustup_env.builder import WITH_OPTIONS, build  # noqa: E402
from dustup_env.builder.charts import EXCLUSIVE  # noqa: E402
from dustup_env.builder.check import problems  # noqa: E402


def random_with(seed: int) -> list[str]:
    """Random --with options for a seed (each option with probability 0.3, exclusive pairs resolved)."""
    r = random.Random(1_000_003 * seed + 17)
    w = [o for o in WITH_OPTIONS if r.random() < 0.3]
    for a, b in EXCLUSIVE:
        if a in w and b in w:
            w.remove(b)
    return w


def _schema(seed: int):
    from dustup_env.rules import Game
    from dustup_env.rules.kernel.data import load_scenario

    try:
        doc, rep = build(seed, with_=random_with(seed))
        load_scenario(doc)
        Game(doc, seed=seed)
        bad = problems(doc, rep)
        return seed, "; ".join(bad) if bad else None
    except Exception as e:  # noqa: BLE001 - reported per seed
        return seed, f"{type(e).__name__}: {e}"


def _play(seed: int):
    from agents import make_agent
    from evaluation.simulate import play_game

    try:
        doc, _ = build(seed, with_=random_with(seed))
        out = []
        for name in ("random", "hard"):
            g = play_game(doc, (make_agent(name), make_agent(name)), seed)
            if not g.over:
                return seed, f"{name}: not over", None
            out.append(g.turn)
        return seed, None, out
    except Exception as e:  # noqa: BLE001
        return seed, f"{type(e).__name__}: {e}", None


def _score(g, side: int) -> float:
    return 1.0 if g.winner == side else 0.5 if g.winner not in (0, 1) else 0.0


def _pair(args):
    seed, ratio, with_ = args
    from agents import make_agent
    from evaluation.simulate import play_game
    from dustup_env.builder import default_points

    p = default_points()
    pts = (round(p * ratio), p)
    doc, rep = build(seed, points=pts, with_=with_)
    doc2, rep2 = build(seed, points=pts, with_=with_, swap_forces=True)
    g1 = play_game(doc, (make_agent("hard"), make_agent("hard")), seed)
    g2 = play_game(doc2, (make_agent("hard"), make_agent("hard")), seed)
    return {"seed": seed, "score": (_score(g1, 0) + _score(g2, 1)) / 2, "points": rep["points"],
            "units": [len(s["units"]) for s in doc["sides"]]}


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _run(fn, items, jobs, log=None, every=1, line=None):
    """``fn`` of each item, in order; after every ``every`` results (and the last) ``log(line(results, total))``."""
    items = list(items)
    res = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as ex:
        for r in ex.map(fn, items, chunksize=8) if ex is not None else map(fn, items):
            res.append(r)
            if log and (len(res) % every == 0 or len(res) == len(items)):
                log(line(res, len(items)))
    return res


def points_summary(res: list[dict]) -> dict:
    scores = [r["score"] for r in res]
    m = sum(scores) / len(scores)
    sd = math.sqrt(sum((x - m) ** 2 for x in scores) / max(1, len(scores) - 1))
    more = [r["score"] if r["units"][0] > r["units"][1] else 1 - r["score"] for r in res
            if r["units"][0] != r["units"][1]]
    return {"pairs": len(res), "games": 2 * len(res), "first_force_score": round(m, 4),
            "ci95": [round(m - 1.96 * sd / math.sqrt(len(scores)), 4), round(m + 1.96 * sd / math.sqrt(len(scores)), 4)],
            "more_units_score": round(sum(more) / len(more), 4) if more else None, "more_units_pairs": len(more),
            "mean_points": [round(sum(r["points"][i] for r in res) / len(res), 1) for i in (0, 1)]}


def combine(recs: list) -> dict:
    """A summary of --records lines: pairs (dicts), or [seed, error] / [seed, error, turns] of schema / play."""
    if recs and isinstance(recs[0], dict):
        return points_summary(recs)
    bad = [r[:2] for r in recs if r[1]]
    seeds = sorted(r[0] for r in recs)
    return {"scenarios": len(recs), "distinct": len(set(seeds)), "seeds": [seeds[0], seeds[-1]] if seeds else [],
            "failed": len(bad), "failures": bad[:20]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("check", choices=["schema", "play", "points", "combine"])
    p.add_argument("file", nargs="?", help="combine: a --records file")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--pairs", type=int, default=100)
    p.add_argument("--ratio", type=float, default=1.0)
    p.add_argument("--with", dest="with_", default="")
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--records", help="append one JSON line per scenario or pair to this file (to combine runs)")
    a = p.parse_args(argv)
    t = time.time()
    if a.check == "combine":
        print(json.dumps(combine([json.loads(line) for line in Path(a.file).read_text().splitlines() if line])))
        return 0
    batch = max(1, a.count // 100)  # schema and play: a progress line a hundredth of the run
    if a.check == "schema":
        res = _run(_schema, range(a.start, a.start + a.count), a.jobs, _log, batch,
                   lambda r, n: f"schema: {len(r)}/{n} scenarios, {sum(1 for _, e in r if e)} failed, "
                                f"{time.time() - t:.0f} s")
        bad = [(s, e) for s, e in res if e]
        out = {"check": "schema", "scenarios": a.count, "start": a.start, "failed": len(bad), "failures": bad[:20]}
    elif a.check == "play":
        res = _run(_play, range(a.start, a.start + a.count), a.jobs, _log, batch,
                   lambda r, n: f"play: {len(r)}/{n} scenarios played (random, then hard), "
                                f"{sum(1 for _, e, _ in r if e)} failed, {time.time() - t:.0f} s")
        bad = [(s, e) for s, e, _ in res if e]
        turns = [t for _, e, tt in res if not e for t in tt]
        out = {"check": "play", "scenarios": a.count, "games": 2 * a.count, "start": a.start, "failed": len(bad),
               "failures": bad[:20], "mean_turns": sum(turns) / max(1, len(turns))}
    else:
        with_ = [w for w in a.with_.split(",") if w]
        res = _run(_pair, [(s, a.ratio, with_) for s in range(a.start, a.start + a.pairs)], a.jobs, _log, 1,
                   lambda r, n: f"points: {len(r)}/{n} pairs, first force {sum(x['score'] for x in r) / len(r):.3f}, "
                                f"{time.time() - t:.0f} s")
        out = {"check": "points", "ratio": a.ratio, "with": with_, "start": a.start, **points_summary(res)}
    if a.records:
        with open(a.records, "a") as fh:
            for r in res:
                fh.write(json.dumps(r if isinstance(r, dict) else list(r)) + "\n")
    out["seconds"] = round(time.time() - t, 1)
    print(json.dumps(out))
    return 0 if not out.get("failed") else 1


if __name__ == "__main__":
    sys.exit(main())
