"""Fit the learned value of the search's playouts (agents/value.py) and write its weights file.

    python benchmarks/fit_value.py --games 400 --out runs/value-positions.json --write agents/data/value.json
    python benchmarks/fit_value.py --from runs/value-positions.json                # the fits again, nothing played
    python benchmarks/fit_value.py --from runs/value-positions.json --write agents/data/value.json

Plays games between ladder doctrines (``hard`` against ``hard`` mostly, also against ``medium`` and
``defensive``, both sides) on the scenarios given (``--scenarios``: built-in names, scenario files and
``build:SEED``, a battle the builder makes from a seed outside the held-out benchmark suite's; by default
default, skirmish, armour and six builder battles), takes positions from them (decisions with a choice, each with
probability ``--rate``) and records each position's features (agents/value.py, for the side deciding) and the
game's result for that side (a win 1, a draw 1/2, a loss 0).  Then it fits the logistic model (no intercept: the
features are differences between the sides) and reports the log loss out of fold (``--folds`` folds by game: the
positions of one game are never on both sides of a fit) of:

- a constant 1/2;
- the static evaluation (agents/mcts.py ``evaluate``) mapped through its own best logistic (a * its logit);
- the model on the raw features, on the normalised ones, and on all of them (``--features`` picks what is
  written).

``--write`` writes the model fitted on every position to a weights file (agents/data/value.json is the one the
search loads).  Progress is a line a game on stderr; Ctrl-C stops after the finished games and keeps their
positions (``--out``).  ``--minutes`` stops playing after that long (the game in progress finishes).
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

from agents.value import FEATURES, features, result_for, sigmoid  # noqa: E402
from benchmarks.analysis_calibration import CalibrationError, fit_logistic, scenarios_of  # noqa: E402
from dustup_env.agent_registry import make_agent  # noqa: E402
from dustup_env.rules import Game  # noqa: E402

PAIRS = [("hard", "hard"), ("hard", "medium"), ("medium", "hard"), ("hard", "hard"), ("hard", "defensive"),
         ("defensive", "hard")]
SCENARIOS = "default,skirmish,armour,build:8001,build:8002,build:8003,build:8004,build:8005,build:8006"
RAW = ("vp", "vp_late", "material", "material_late", "units", "objectives")
NORMALISED = ("vp_share", "vp_share_late", "material_share", "material_late", "units", "objectives")
SETS = {"raw": RAW, "normalised": NORMALISED, "all": FEATURES}


def play_game(game_no: int, name: str, scenario, pair, seed: int, rate: float) -> list[dict]:
    """The positions drawn from game ``game_no``, each with its features and the game's result for its side."""
    gseed = seed * 1000 + game_no
    rng = random.Random(gseed * 7919 + 29)
    g = Game(scenario, seed=gseed)
    players = [make_agent(pair[0], seed=gseed), make_agent(pair[1], seed=gseed + 1)]
    for p in players:
        p.reset(gseed)
    mine = []
    while not g.over:
        d = g.decision()
        opt = tuple(players[d.side].choose(g, d))
        if len(d.options) > 1 and rng.random() < rate:
            mine.append({"game": game_no, "scenario": name, "pair": list(pair), "side": d.side, "turn": g.turn,
                         "turn_limit": g.turn_limit, "x": features(g, d.side)})
        g.apply(opt)
    for m in mine:
        m["score"] = result_for(g, m["side"])
    return mine


def collect(scenarios, games: int, rate: float, seed: int, minutes: float | None, log) -> tuple[list, int, bool]:
    """Positions of ``games`` games (scenario ``game_no % len(scenarios)``, pair of doctrines after it), or as many
    as ``minutes`` allow.  Ctrl-C stops after the finished games.  Returns (positions, games played, interrupted)."""
    out: list[dict] = []
    t0 = time.time()
    n = 0
    try:
        while n < games and (minutes is None or time.time() - t0 < 60 * minutes):
            name, scen = scenarios[n % len(scenarios)]
            pair = PAIRS[(n // len(scenarios)) % len(PAIRS)]
            g0 = time.time()
            mine = play_game(n, name, scen, pair, seed, rate)
            out.extend(mine)
            n += 1
            log(f"game {n}/{games} ({name}, {pair[0]} v {pair[1]}): {len(mine)} positions in {time.time() - g0:.1f} s;"
                f" positions {len(out)} [{time.time() - t0:.0f} s]")
    except KeyboardInterrupt:
        log(f"\ninterrupted: keeping the {len(out)} positions of the {n} finished games")
        return out, n, True
    return out, n, False


# ---------------------------------------------------------------------------------------------- fits
def static_logit(x: list[float]) -> float:
    """The logit of the static evaluation (agents/mcts.py ``evaluate``) from a position's features:
    logit(0.5 + 0.5 tanh(y)) = 2y with y = (vp + 1.5 material) / 4."""
    return (x[FEATURES.index("vp")] + 1.5 * x[FEATURES.index("material")]) / 2.0


def columns(x: list[float], names) -> list[float]:
    return [x[FEATURES.index(n)] for n in names]


def log_loss(ps, ys) -> float:
    eps = 1e-9
    return -sum(y * math.log(max(eps, p)) + (1 - y) * math.log(max(eps, 1 - p)) for p, y in zip(ps, ys)) / len(ys)


def brier(ps, ys) -> float:
    return sum((p - y) ** 2 for p, y in zip(ps, ys)) / len(ys)


def models():
    """name -> (the features of a position, used by the fit)."""
    out = {"static evaluate, mapped": lambda x: [static_logit(x)]}
    for k, names in SETS.items():
        out[f"learned ({k})"] = (lambda names: lambda x: columns(x, names))(names)
    return out


def out_of_fold(rows, folds: int) -> dict:
    """Per model: its predictions out of fold (folds by game)."""
    res = {"constant 1/2": [0.5] * len(rows)}
    for name, f in models().items():
        preds = [0.0] * len(rows)
        for k in range(folds):
            train = [r for r in rows if r["game"] % folds != k]
            test = [i for i, r in enumerate(rows) if r["game"] % folds == k]
            if not train or not test:
                continue
            w = fit_logistic([f(r["x"]) for r in train], [r["score"] for r in train])
            for i in test:
                preds[i] = sigmoid(sum(a * b for a, b in zip(w, f(rows[i]["x"]))))
        res[name] = preds
    res["static evaluate, as it is"] = [sigmoid(static_logit(r["x"])) for r in rows]
    return res


def report(rows, folds: int, log=print) -> dict:
    """The out-of-fold log loss and Brier score of each model, over all positions and per scenario (log loss)."""
    games = len({r["game"] for r in rows})
    preds = out_of_fold(rows, folds)
    ys = [r["score"] for r in rows]
    table = {name: {"log_loss": round(log_loss(p, ys), 4), "brier": round(brier(p, ys), 4)}
             for name, p in preds.items()}
    scens = sorted({r["scenario"] for r in rows})
    log(f"\n{len(rows)} positions from {games} games; out of fold ({folds} folds by game):")
    log("| model | log loss | Brier score |")
    log("| --- | ---: | ---: |")
    for name, v in table.items():
        log(f"| {name} | {v['log_loss']:.4f} | {v['brier']:.4f} |")
    log("\nlog loss per scenario, out of fold:")
    log("| model | " + " | ".join(scens) + " |")
    log("| --- |" + " ---: |" * len(scens))
    for name, p in preds.items():
        cells = []
        for sc in scens:
            idx = [i for i, r in enumerate(rows) if r["scenario"] == sc]
            cells.append(f"{log_loss([p[i] for i in idx], [ys[i] for i in idx]):.3f}")
            table[name].setdefault("per_scenario", {})[sc] = float(cells[-1])
        log(f"| {name} | " + " | ".join(cells) + " |")
    log("positions per scenario: " + ", ".join(f"{sc} {sum(r['scenario'] == sc for r in rows)}" for sc in scens))
    return table


def fit_all(rows, names) -> list[float]:
    return fit_logistic([columns(r["x"], names) for r in rows], [r["score"] for r in rows])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="docs/agents.md, \"The search agent\", \"A learned value\"")
    ap.add_argument("--games", type=int, default=400, help="games to play (default 400)")
    ap.add_argument("--minutes", type=float, help="stop playing after this many minutes")
    ap.add_argument("--scenarios", default=SCENARIOS,
                    help="comma-separated built-in names, scenario files and build:SEED[:POINTS[:WxH]] battles "
                         f"(the builder's, not the held-out suite's seeds); default {SCENARIOS}")
    ap.add_argument("--rate", type=float, default=0.05, help="the chance that a decision with a choice is taken "
                    "(default 0.05)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--folds", type=int, default=5, help="folds by game for the out-of-fold scores (default 5)")
    ap.add_argument("--features", choices=sorted(SETS), default="all", help="the feature set written (default all)")
    ap.add_argument("--out", help="write the positions (and the table) to this JSON file")
    ap.add_argument("--from", dest="src", help="read the positions from this JSON file instead of playing")
    ap.add_argument("--write", help="write the weights fitted on every position to this file "
                    "(agents/data/value.json: the search's)")
    a = ap.parse_args(argv)
    if a.games < 1 or not 0 < a.rate <= 1 or a.folds < 2 or (a.minutes is not None and a.minutes <= 0):
        ap.error("--games must be at least 1, --rate in (0, 1], --folds at least 2, --minutes positive")
    try:
        interrupted = False
        if a.src:
            try:
                saved = json.loads(Path(a.src).read_text())
                rows = saved["positions"]
                if any(len(r["x"]) != len(FEATURES) for r in rows):
                    raise ValueError(f"positions with other features than {', '.join(FEATURES)}")
            except (OSError, ValueError, KeyError, TypeError) as e:
                print(f"fit_value: {a.src}: not a positions file of this script ({e})", file=sys.stderr)
                return 2
        else:
            scen = scenarios_of(a.scenarios)
            print(f"playing {a.games} games on {', '.join(n for n, _ in scen)}"
                  + (f" (at most {a.minutes:g} minutes)" if a.minutes else "")
                  + "; Ctrl-C stops after the finished games and keeps them", flush=True)
            rows, games, interrupted = collect(scen, a.games, a.rate, a.seed, a.minutes,
                                               log=lambda m: print(m, file=sys.stderr, flush=True))
        if len({r["game"] for r in rows}) < a.folds:
            print(f"fit_value: {len({r['game'] for r in rows})} games with positions: too few to fit", file=sys.stderr)
            return 130 if interrupted else 1
        table = report(rows, a.folds)
        names = SETS[a.features]
        w = fit_all(rows, names)
        print(f"\nfitted on all {len(rows)} positions ({a.features}): "
              + ", ".join(f"{n} {v:+.4f}" for n, v in zip(names, w)))
        if a.out and not a.src:
            Path(a.out).parent.mkdir(parents=True, exist_ok=True)
            Path(a.out).write_text(json.dumps({"settings": {"scenarios": a.scenarios, "rate": a.rate, "seed": a.seed},
                                               "features": list(FEATURES), "positions": rows, "table": table}))
            print(f"wrote {a.out}")
        if a.write:
            doc = {"features": list(names), "weights": [round(v, 6) for v in w],
                   "fit": {"positions": len(rows), "games": len({r["game"] for r in rows}),
                           "scenarios": sorted({r["scenario"] for r in rows}),
                           "out_of_fold_log_loss": {k: v["log_loss"] for k, v in table.items()},
                           "command": "python benchmarks/fit_value.py " + " ".join(argv if argv is not None
                                                                                   else sys.argv[1:])}}
            Path(a.write).parent.mkdir(parents=True, exist_ok=True)
            Path(a.write).write_text(json.dumps(doc, indent=1) + "\n")
            print(f"wrote {a.write}")
        return 130 if interrupted else 0
    except CalibrationError as e:
        # (the calibration's refusal of a suite seed names its own --suite, which this script has not)
        print(f"fit_value: {str(e).replace('measure the suite with --suite, ', '')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
