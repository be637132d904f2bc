"""Calibration of the analysis's win probabilities and victory-point margins (agents/analysis.py).

    python benchmarks/analysis_calibration.py --positions 500 --playouts 30 --out runs/analysis_calibration.json
    python benchmarks/analysis_calibration.py --from runs/analysis_calibration.json --fit
    python benchmarks/analysis_calibration.py --overrun 10      # the time budgets kept: wall time / budget

Plays games between ladder doctrines (pairs of hard, medium and easy, both sides, on the scenarios given) and, at
positions drawn from them (decisions with a choice, each taken with probability ``--rate``), runs the analysis
(``mcts`` with a playout budget) for the side deciding.  A position's prediction is that of the option the game
then played (the position's mean over every searched option when the search gave that option fewer than 3
playouts); its observation is the game's result for that side (a win 1, a draw 0.5, a loss 0) and its final
victory-point margin.

The table groups the positions by predicted win probability in deciles (0-0.1, ..., 0.9-1) and compares the mean
prediction with the observed score.  ``--fit`` fits the mapping's constants (agents/analysis.py: WIN_A, WIN_B by
logistic regression of the results on logit(value); MARGIN_A, MARGIN_B by least squares of the final margins)
and reports the deciles out of fold: the positions of even-numbered games predicted with the constants fitted on
the odd-numbered ones and the other way round (positions of one game are never on both sides of a fit).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import analysis as an  # noqa: E402
from agents.mcts import MctsAgent  # noqa: E402
from dustup_env.agent_registry import make_agent  # noqa: E402
from dustup_env.rules import Game  # noqa: E402

PAIRS = [("hard", "medium"), ("medium", "hard"), ("hard", "easy"), ("easy", "hard"), ("medium", "easy"),
         ("easy", "medium"), ("hard", "hard"), ("medium", "medium")]


def collect(scenarios, positions, playouts, rate, seed, log=print) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    game_no = 0
    t0 = time.time()
    while len(out) < positions:
        scen = scenarios[game_no % len(scenarios)]
        pair = PAIRS[(game_no // len(scenarios)) % len(PAIRS)]
        gseed = seed * 1000 + game_no
        g = Game(scen, seed=gseed)
        players = [make_agent(pair[0], seed=gseed), make_agent(pair[1], seed=gseed + 1)]
        for p in players:
            p.reset(gseed)
        analyst = MctsAgent(seed=gseed + 7)
        mine = []
        while not g.over:
            d = g.decision()
            opt = tuple(players[d.side].choose(g, d))
            if len(d.options) > 1 and rng.random() < rate and len(out) + len(mine) < positions:
                r = analyst.analyze(g, playouts=playouts, top=1000)
                root = analyst.last_root
                ch = root.children.get(opt)
                if ch is not None and ch.n >= 3:
                    value = ch.w / ch.n
                    row = next(o for o in r["options"] if tuple(o["option"]) == opt)
                    leaf = _leaf(row)
                else:
                    n = sum(c.n for c in root.children.values())
                    value = sum(c.w for c in root.children.values()) / max(1, n)
                    leaf = _mean_leaf(r)
                mine.append({"game": game_no, "scenario": scen, "pair": list(pair), "side": d.side,
                             "turn": g.turn, "value": value, "leaf_margin": leaf})
            g.apply(opt)
        res = g.result()
        for m in mine:
            s = m["side"]
            w = res["winner"]
            m["score"] = 1.0 if w == s else (0.0 if w is not None and w >= 0 else 0.5)
            m["final_margin"] = res["vp"][s] - res["vp"][1 - s]
        out.extend(mine)
        game_no += 1
        log(f"game {game_no} ({scen}, {pair[0]} v {pair[1]}): {len(mine)} positions, {len(out)} in all, "
            f"{time.time() - t0:.0f} s")
    return out


def _leaf(row: dict) -> float:
    # the option's mean leaf margin, recovered from its reported margin under the constants it was reported with
    return (row["margin"] - an.MARGIN_B * an.logit(row["value"])) / an.MARGIN_A if an.MARGIN_A else 0.0


def _mean_leaf(r: dict) -> float:
    rows = [o for o in r["options"] if o["visits"]]
    n = sum(o["visits"] for o in rows)
    return sum(_leaf(o) * o["visits"] for o in rows) / max(1, n)


# ---------------------------------------------------------------------------------------------- fits
def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def fit_logistic(xs, ys, iters=50, ridge=1e-3):
    """(a, b) maximising the likelihood of scores ``ys`` in [0, 1] under p = 1/(1+exp(-(a+b x))) (Newton's
    method, a small ridge keeping a separable sample finite)."""
    a = b = 0.0
    for _ in range(iters):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys):
            p = _sigmoid(a + b * x)
            w = p * (1 - p)
            ga += y - p
            gb += (y - p) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        haa += ridge
        hbb += ridge
        ga -= ridge * a
        gb -= ridge * b
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def fit_margin(ms, ls, ys):
    """(c, d) of least squares ys ~ c*ms + d*ls (no intercept: the margin is antisymmetric in the sides)."""
    smm = sum(m * m for m in ms)
    sll = sum(v * v for v in ls)
    sml = sum(m * v for m, v in zip(ms, ls))
    smy = sum(m * y for m, y in zip(ms, ys))
    sly = sum(v * y for v, y in zip(ls, ys))
    det = smm * sll - sml * sml + 1e-12
    return (sll * smy - sml * sly) / det, (smm * sly - sml * smy) / det


def predict(rows, wa, wb, ma, mb):
    for r in rows:
        x = an.logit(r["value"])
        r["p"] = _sigmoid(wa + wb * x)
        r["m"] = ma * r["leaf_margin"] + mb * x


def table(rows) -> list[dict]:
    out = []
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        grp = [r for r in rows if lo <= r["p"] < hi or (k == 9 and r["p"] == 1.0)]
        if not grp:
            out.append({"decile": f"{lo:.1f}-{hi:.1f}", "n": 0})
            continue
        pred = sum(r["p"] for r in grp) / len(grp)
        obs = sum(r["score"] for r in grp) / len(grp)
        se = math.sqrt(max(obs * (1 - obs), 0.25 / len(grp)) / len(grp))
        out.append({"decile": f"{lo:.1f}-{hi:.1f}", "n": len(grp), "predicted": round(pred, 3),
                    "observed": round(obs, 3), "diff": round(obs - pred, 3), "se": round(se, 3)})
    return out


def margin_error(rows) -> dict:
    n = len(rows)
    mae = sum(abs(r["m"] - r["final_margin"]) for r in rows) / n
    base = sum(abs(r["final_margin"]) for r in rows) / n
    bias = sum(r["m"] - r["final_margin"] for r in rows) / n
    return {"mae": round(mae, 3), "mae_of_zero": round(base, 3), "bias": round(bias, 3)}


def report(rows, title, log=print) -> list[dict]:
    t = table(rows)
    log(f"\n{title}: {len(rows)} positions from {len({r['game'] for r in rows})} games")
    log("| predicted win | positions | mean predicted | observed score | observed - predicted | s.e. |")
    log("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in t:
        if r["n"]:
            log(f"| {r['decile']} | {r['n']} | {r['predicted']:.3f} | {r['observed']:.3f} | {r['diff']:+.3f} | "
                f"{r['se']:.3f} |")
        else:
            log(f"| {r['decile']} | 0 | | | | |")
    me = margin_error(rows)
    log(f"margin: mean absolute error {me['mae']} VP (predicting 0: {me['mae_of_zero']}), bias {me['bias']:+}")
    return t


def overrun(n: int, scenarios, seed: int, log=print) -> dict:
    """``n`` analyses for each time budget (0.2, 0.5, 1 s) at positions of hard-against-hard games: the wall time
    of each answer over its budget."""
    from agents.hard import HardAgent
    rng = random.Random(seed)
    out = {}
    for budget in (0.2, 0.5, 1.0):
        ratios = []
        for i in range(n):
            g = Game(scenarios[i % len(scenarios)], seed=seed + i)
            h = HardAgent(seed=i)
            for _ in range(rng.randrange(5, 60)):
                if g.over:
                    break
                g.apply(h.choose(g, g.decision()))
            if g.over:
                continue
            t0 = time.perf_counter()
            MctsAgent(seed=i).analyze(g, seconds=budget, top=5)
            ratios.append((time.perf_counter() - t0) / budget)
        ratios.sort()
        out[budget] = {"n": len(ratios), "median": round(ratios[len(ratios) // 2], 3), "max": round(ratios[-1], 3)}
        log(f"budget {budget} s: {len(ratios)} answers, wall/budget median {out[budget]['median']}, "
            f"max {out[budget]['max']}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=500)
    ap.add_argument("--playouts", type=int, default=30)
    ap.add_argument("--scenarios", default="skirmish,default")
    ap.add_argument("--rate", type=float, default=0.1, help="the chance that a decision with a choice is taken")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write the positions (and the table) to this JSON file")
    ap.add_argument("--from", dest="src", help="read the positions from this JSON file instead of playing")
    ap.add_argument("--fit", action="store_true", help="fit the mapping's constants; deciles out of fold")
    ap.add_argument("--overrun", type=int, metavar="N", help="only measure the time budgets: N answers a budget")
    a = ap.parse_args(argv)
    if a.overrun:
        overrun(a.overrun, [s for s in a.scenarios.split(",") if s], a.seed)
        return 0
    if a.positions < 1 or a.playouts < 1 or not 0 < a.rate <= 1:
        ap.error("--positions and --playouts must be at least 1, --rate in (0, 1]")
    if a.src:
        rows = json.loads(Path(a.src).read_text())["positions"]
    else:
        rows = collect([s for s in a.scenarios.split(",") if s], a.positions, a.playouts, a.rate, a.seed)
    predict(rows, an.WIN_A, an.WIN_B, an.MARGIN_A, an.MARGIN_B)
    result = {"positions": rows, "constants": [an.WIN_A, an.WIN_B, an.MARGIN_A, an.MARGIN_B],
              "table": report(rows, "with the constants of agents/analysis.py")}
    if a.fit:
        xs = [an.logit(r["value"]) for r in rows]
        wa, wb = fit_logistic(xs, [r["score"] for r in rows])
        ma, mb = fit_margin([r["leaf_margin"] for r in rows], xs, [r["final_margin"] for r in rows])
        print(f"\nfitted on all {len(rows)} positions: WIN_A, WIN_B = {wa:.3f}, {wb:.3f}; "
              f"MARGIN_A, MARGIN_B = {ma:.3f}, {mb:.3f}")
        folds = [[r for r in rows if r["game"] % 2 == k] for k in (0, 1)]
        for k in (0, 1):
            train, test = folds[1 - k], folds[k]
            if not train or not test:
                continue
            xt = [an.logit(r["value"]) for r in train]
            fa, fb = fit_logistic(xt, [r["score"] for r in train])
            fc, fd = fit_margin([r["leaf_margin"] for r in train], xt, [r["final_margin"] for r in train])
            predict(test, fa, fb, fc, fd)
        result["fitted"] = [wa, wb, ma, mb]
        result["table_out_of_fold"] = report(rows, "out of fold (constants fitted on the other games)")
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
