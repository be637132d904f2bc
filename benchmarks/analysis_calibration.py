"""Calibration of the analysis's win probabilities and victory-point margins (agents/analysis.py).

    python benchmarks/analysis_calibration.py --positions 2000 --rate 0.02 --out runs/calibration-fit.json --fit
    python benchmarks/analysis_calibration.py --suite --rate 0.01 --seed 3 --out runs/calibration-suite.json
    python benchmarks/analysis_calibration.py --from runs/calibration-suite.json   # the suite under the constants now
    python benchmarks/analysis_calibration.py --from runs/suite-3.json,runs/suite-4.json   # two samples together
    python benchmarks/analysis_calibration.py --overrun 10      # the time budgets kept: wall time / budget

Plays games between ladder doctrines (pairs of hard, medium and easy, both sides) on the scenarios given
(``--scenarios``: built-in names, scenario files and ``build:SEED[:POINTS[:WxH[:WITH]]]``, a battle the builder
makes from a seed outside the held-out benchmark suite's; by default default, skirmish, armour, six builder battles
of the builder's default size and six of the suite's other sizes and tables) or on the held-out
suite's twelve battles (``--suite``: to measure, never to fit), and, at positions drawn from them (decisions with a
choice, each taken with probability ``--rate``), runs the analysis (``mcts`` with a playout budget: deterministic)
for the side deciding.  A position's prediction is that of the option the game then played (the position's mean
over every searched option when the search gave that option fewer than 3 playouts); its observation is the game's
result for that side (a win 1, a draw 0.5, a loss 0) and its final victory-point margin.  Progress is a line a
game on stderr; Ctrl-C stops after the finished games, keeps their positions (``--out``) and ``--resume`` continues.

The table groups the positions by predicted win probability in deciles (0-0.1, ..., 0.9-1) and compares the mean
prediction with the observed score; a decile with at least ``--enough`` positions (default 20) is one with enough
games to check.  ``--fit`` fits the mapping's constants (agents/analysis.py: WIN_A to WIN_D by logistic regression
of the results on logit(value), the playouts' mean margin and that margin times the fraction of the game's turns
reached; MARGIN_A, MARGIN_B by least squares of the final margins) and reports the deciles out of fold: the
positions of even-numbered games predicted with the constants fitted on the odd-numbered ones and the other way
round (positions of one game are never on both sides of a fit).  Each table gives the log loss of its predictions.
The positions store the search's raw numbers (value, leaf margin, turn), so ``--from`` reports any saved run again
under the constants of agents/analysis.py as they are now.
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
from agents.value import sigmoid  # noqa: E402
from agents.mcts import MctsAgent  # noqa: E402
from dustup_env.agent_registry import make_agent  # noqa: E402
from dustup_env.rules import Game  # noqa: E402

PAIRS = [("hard", "medium"), ("medium", "hard"), ("hard", "easy"), ("easy", "hard"), ("medium", "easy"),
         ("easy", "medium"), ("hard", "hard"), ("medium", "medium")]
FIT_SCENARIOS = ("default,skirmish,armour,build:7001,build:7002,build:7003,build:7004,build:7005,build:7006,"
                 # the suite's other sizes and tables (docs/benchmark.md), seeds of their own
                 "build:7011:60:48x48,build:7010:60:48x36,build:7012:120:96x48:vehicles+heavy_weapons,"
                 "build:7013:150:96x72:vehicles+power_armour+hidden,build:7014:120:96x48,build:7015:150:96x72")
# the builder's --with options of a battle ``build:SEED``, by SEED modulo their count (the suite's variety)
BUILD_WITH = ((), ("vehicles",), ("heavy_weapons",), ("power_armour",), ("hidden",), ("night",),
              ("reinforcements",), ("jamming", "seize"), ("cards",))


GAMES_APART = 1_000_000  # --from with several runs: the k-th run's game numbers offset by k times this


class CalibrationError(ValueError):
    """Bad input (one line)."""


def scenarios_of(spec: str, suite: bool = False) -> list[tuple[str, object]]:
    """``(name, scenario)`` pairs: the held-out benchmark suite's twelve battles (``suite``), else the
    comma-separated ``spec``: built-in names, scenario files, ``build:SEED[:POINTS[:WxH[:WITH]]]`` (a battle the
    builder makes from SEED, by default a platoon a side on a 72x48" table, with the ``--with`` options ``WITH``
    joined by ``+`` (``none``: no option), by default ``BUILD_WITH[SEED % 9]``; the suite's seeds are refused)."""
    from evaluation.benchmark import SUITE, scenario_document
    if suite:
        return [(e.name, scenario_document(e)) for e in SUITE]
    from dustup_env.builder import generate_scenario
    taken = {e.seed for e in SUITE}
    out = []
    for tok in [t.strip() for t in spec.split(",") if t.strip()]:
        if tok.startswith("build:"):
            parts = tok.split(":")[1:]
            try:
                seed = int(parts[0])
                points = int(parts[1]) if len(parts) > 1 else None
                table = tuple(int(x) for x in parts[2].split("x")) if len(parts) > 2 else (72, 48)
                if len(parts) > 4 or len(table) != 2:
                    raise ValueError
            except ValueError:
                raise CalibrationError(f"{tok!r}: write build:SEED, build:SEED:POINTS, build:SEED:POINTS:WxH or "
                                       "build:SEED:POINTS:WxH:WITH (integers; WITH options joined by +, or none)") \
                    from None
            if len(parts) > 3:
                with_ = [] if parts[3] == "none" else parts[3].split("+")
            else:
                with_ = list(BUILD_WITH[seed % len(BUILD_WITH)])
            if seed in taken:
                raise CalibrationError(f"{tok!r}: seed {seed} is one of the held-out suite's (240101..240112); "
                                       "measure the suite with --suite, fit on other seeds")
            try:
                doc = generate_scenario(seed, points=points, table=table, with_=with_, name=tok)
            except Exception as e:  # noqa: BLE001 - the builder's one-line refusal
                raise CalibrationError(f"{tok!r}: {e}") from None
            out.append((tok, doc))
        else:
            try:
                Game(tok, seed=0)
            except Exception as e:  # noqa: BLE001 - one line for any bad scenario
                raise CalibrationError(f"scenario {tok!r}: {e}") from None
            out.append((tok, tok))
    if not out:
        raise CalibrationError("no scenario given")
    return out


def play_game(game_no: int, name: str, scenario, pair, seed: int, playouts: int, rate: float, room: int) -> list[dict]:
    """The positions of game ``game_no`` (at most ``room``), each with the game's result."""
    gseed = seed * 1000 + game_no
    rng = random.Random(gseed * 7919 + 17)  # the game's own: a resumed run draws the same positions
    g = Game(scenario, seed=gseed)
    players = [make_agent(pair[0], seed=gseed), make_agent(pair[1], seed=gseed + 1)]
    for p in players:
        p.reset(gseed)
    analyst = MctsAgent(seed=gseed + 7)
    mine = []
    while not g.over:
        d = g.decision()
        opt = tuple(players[d.side].choose(g, d))
        if len(d.options) > 1 and len(mine) < room and rng.random() < rate:
            r = analyst.analyze(g, playouts=playouts, top=1000)
            root = analyst.last_root
            ch = root.children.get(opt)
            if ch is not None and ch.n >= 3:
                value, visits = ch.w / ch.n, ch.n
                row = next(o for o in r["options"] if tuple(o["option"]) == opt)
                leaf = _leaf(row)
            else:
                visits = sum(c.n for c in root.children.values())
                value = sum(c.w for c in root.children.values()) / max(1, visits)
                leaf = _mean_leaf(r)
            mine.append({"game": game_no, "scenario": name, "pair": list(pair), "side": d.side, "turn": g.turn,
                         "turn_limit": g.turn_limit, "value": value, "visits": visits, "leaf_margin": leaf})
        g.apply(opt)
    res = g.result()
    for m in mine:
        s = m["side"]
        w = res["winner"]
        m["score"] = 1.0 if w == s else (0.0 if w is not None and w >= 0 else 0.5)
        m["final_margin"] = res["vp"][s] - res["vp"][1 - s]
    return mine


def collect(scenarios, positions, playouts, rate, seed, log=print, done=None, games_done: int = 0):
    """Positions from games (scenario ``game_no % len(scenarios)``, pair of doctrines after it), until
    ``positions``; ``done`` (and ``games_done``): a run to resume.  Ctrl-C stops after the finished games.
    Returns (positions, games played, interrupted)."""
    out: list[dict] = list(done or [])
    game_no = games_done
    t0 = time.time()
    try:
        while len(out) < positions:
            name, scen = scenarios[game_no % len(scenarios)]
            pair = PAIRS[(game_no // len(scenarios)) % len(PAIRS)]
            g0 = time.time()
            mine = play_game(game_no, name, scen, pair, seed, playouts, rate, positions - len(out))
            out.extend(mine)
            game_no += 1
            log(f"game {game_no} ({name}, {pair[0]} v {pair[1]}): {len(mine)} positions in {time.time() - g0:.0f} s; "
                f"positions {len(out)}/{positions} [{time.time() - t0:.0f} s]")
    except KeyboardInterrupt:
        log(f"\ninterrupted: keeping the {len(out)} positions of the {game_no} finished games")
        return out, game_no, True
    return out, game_no, False


def _leaf(row: dict) -> float:
    # the option's mean leaf margin, recovered from its reported margin under the constants it was reported with
    return (row["margin"] - an.MARGIN_B * an.logit(row["value"])) / an.MARGIN_A if an.MARGIN_A else 0.0


def _mean_leaf(r: dict) -> float:
    rows = [o for o in r["options"] if o["visits"]]
    n = sum(o["visits"] for o in rows)
    return sum(_leaf(o) * o["visits"] for o in rows) / max(1, n)


# ---------------------------------------------------------------------------------------------- fits
def features(r: dict) -> list[float]:
    """The win mapping's features of a position (agents/analysis.py): 1, logit(value), the leaf margin and the leaf
    margin times the fraction of the game's turns reached (the turn over the turn limit)."""
    return [1.0, an.logit(r["value"]), r["leaf_margin"], r["leaf_margin"] * an.played(r["turn"], r["turn_limit"])]


def fit_logistic(xs, ys, iters=60, ridge=1e-3) -> list[float]:
    """The weights ``w`` maximising the likelihood of scores ``ys`` in [0, 1] under p = 1/(1+exp(-w.x)) for the
    feature vectors ``xs`` (Newton's method, a small ridge keeping a separable sample finite)."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(iters):
        g = [-ridge * wi for wi in w]
        h = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys):
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, x)))
            q = p * (1 - p)
            for i in range(k):
                g[i] += (y - p) * x[i]
                for j in range(k):
                    h[i][j] += q * x[i] * x[j]
        d = _solve(h, g)
        w = [wi + di for wi, di in zip(w, d)]
        if sum(abs(di) for di in d) < 1e-9:
            break
    return w


def _solve(a, b) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting; a small symmetric positive definite a)."""
    k = len(b)
    m = [list(a[i]) + [b[i]] for i in range(k)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(k):
            if r != c:
                f = m[r][c] / m[c][c]
                for cc in range(c, k + 1):
                    m[r][cc] -= f * m[c][cc]
    return [m[i][k] / m[i][i] for i in range(k)]


def fit_margin(ms, ls, ys):
    """(c, d) of least squares ys ~ c*ms + d*ls (no intercept: the margin is antisymmetric in the sides)."""
    smm = sum(m * m for m in ms)
    sll = sum(v * v for v in ls)
    sml = sum(m * v for m, v in zip(ms, ls))
    smy = sum(m * y for m, y in zip(ms, ys))
    sly = sum(v * y for v, y in zip(ls, ys))
    det = smm * sll - sml * sml + 1e-12
    return (sll * smy - sml * sly) / det, (smm * sly - sml * smy) / det


def predict(rows, win, ma, mb):
    """Each position's predicted win probability (``win``: the weights of :func:`features`) and margin."""
    for r in rows:
        r["p"] = sigmoid(sum(w * x for w, x in zip(win, features(r))))
        r["m"] = ma * r["leaf_margin"] + mb * an.logit(r["value"])


def _deciles(rows) -> list[list[dict]]:
    return [[r for r in rows if k / 10 <= r["p"] < (k + 1) / 10 or (k == 9 and r["p"] >= 1.0)] for k in range(10)]


def table(rows, resamples: int = 300) -> list[dict]:
    """Per decile of predicted win probability: positions, games, mean prediction, observed score, their difference
    and its standard error, a bootstrap over the games (a game's positions share its result: resampling positions
    would understate it)."""
    out = []
    by_game: dict = {}
    for r in rows:
        by_game.setdefault(r["game"], []).append(r)
    keys = sorted(by_game)
    rng = random.Random(0)
    boots: list[list[float]] = [[] for _ in range(10)]
    for _ in range(resamples):
        sample = [r for g in (rng.choice(keys) for _ in keys) for r in by_game[g]]
        for k, grp in enumerate(_deciles(sample)):
            if grp:
                boots[k].append(sum(r["score"] - r["p"] for r in grp) / len(grp))
    for k, grp in enumerate(_deciles(rows)):
        name = f"{k / 10:.1f}-{(k + 1) / 10:.1f}"
        if not grp:
            out.append({"decile": name, "n": 0, "games": 0})
            continue
        pred = sum(r["p"] for r in grp) / len(grp)
        obs = sum(r["score"] for r in grp) / len(grp)
        bs = boots[k]
        mean = sum(bs) / max(1, len(bs))
        se = math.sqrt(sum((x - mean) ** 2 for x in bs) / max(1, len(bs) - 1))
        out.append({"decile": name, "n": len(grp), "games": len({r["game"] for r in grp}), "predicted": round(pred, 3),
                    "observed": round(obs, 3), "diff": round(obs - pred, 3), "se": round(se, 3)})
    return out


def calibrated_misses(rows, enough: int, runs: int = 400, seed: int = 0) -> tuple[float, float]:
    """How often a mapping calibrated by construction misses by more than 0.1 in some decile with ``enough``
    positions, on positions shaped as ``rows`` (the same predictions, the same games): each game gets one draw
    ``u``, uniform in [0, 1], and a position of side 0 (1) scores 1 when ``u`` (``1 - u``) is below its
    prediction, so each position's chance of a win is its prediction and a game's positions share one result.
    Returns (the share of simulated samples with such a miss, their median largest miss)."""
    rng = random.Random(seed)
    by_game: dict = {}
    for r in rows:
        by_game.setdefault(r["game"], []).append(r)
    worst = []
    for _ in range(runs):
        sim = []
        for g in sorted(by_game):
            u = rng.random()
            sim.extend({"p": r["p"], "score": 1.0 if (u if r["side"] == 0 else 1.0 - u) < r["p"] else 0.0}
                       for r in by_game[g])
        misses = [abs(sum(r["score"] - r["p"] for r in grp) / len(grp)) for grp in _deciles(sim) if len(grp) >= enough]
        worst.append(max(misses, default=0.0))
    worst.sort()
    return sum(w > 0.1 for w in worst) / runs, worst[runs // 2]


def log_loss(rows, const: float | None = None) -> float:
    """The mean log loss of the predictions (``const``: of that one prediction everywhere); a draw scores 0.5."""
    tot = 0.0
    for r in rows:
        p = min(1 - 1e-6, max(1e-6, r["p"] if const is None else const))
        tot -= r["score"] * math.log(p) + (1 - r["score"]) * math.log(1 - p)
    return tot / len(rows)


def margin_error(rows) -> dict:
    n = len(rows)
    mae = sum(abs(r["m"] - r["final_margin"]) for r in rows) / n
    base = sum(abs(r["final_margin"]) for r in rows) / n
    bias = sum(r["m"] - r["final_margin"] for r in rows) / n
    return {"mae": round(mae, 3), "mae_of_zero": round(base, 3), "bias": round(bias, 3)}


def report(rows, title, log=print, enough: int = 20) -> list[dict]:
    t = table(rows)
    log(f"\n{title}: {len(rows)} positions from {len({r['game'] for r in rows})} games")
    log("| predicted win | positions | games | mean predicted | observed score | observed - predicted | s.e. (games) |")
    log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in t:
        if r["n"]:
            log(f"| {r['decile']} | {r['n']} | {r['games']} | {r['predicted']:.3f} | {r['observed']:.3f} | "
                f"{r['diff']:+.3f} | {r['se']:.3f} |")
        else:
            log(f"| {r['decile']} | 0 | 0 | | | | |")
    checked = [r for r in t if r["n"] >= enough]
    worst = max((abs(r["diff"]) for r in checked), default=0.0)
    log(f"deciles with at least {enough} positions (enough games): {len(checked)}; within 0.1: "
        f"{sum(abs(r['diff']) <= 0.1 for r in checked)}; largest |observed - predicted| {worst:.3f}")
    log(f"log loss {log_loss(rows):.4f} (predicting the mean score everywhere: "
        f"{log_loss(rows, sum(r['score'] for r in rows) / len(rows)):.4f})")
    share, median = calibrated_misses(rows, enough)
    log(f"(a mapping calibrated by construction, on positions and games shaped as these, misses by more than 0.1 in "
        f"some such decile in {share:.0%} of samples; its median largest miss {median:.3f})")
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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="the three steps: docs/agents.md, \"The analysis's win probabilities\"")
    ap.add_argument("--positions", type=int, default=500, help="positions to collect (default 500)")
    ap.add_argument("--playouts", type=int, default=30, help="the analysis's playout budget (default 30)")
    ap.add_argument("--scenarios", default=FIT_SCENARIOS,
                    help="comma-separated built-in names, scenario files and build:SEED[:POINTS[:WxH[:WITH]]] battles "
                         f"(the builder's, not the suite's seeds); default {FIT_SCENARIOS}")
    ap.add_argument("--suite", action="store_true",
                    help="play the held-out benchmark suite's twelve battles instead (to measure, never to fit)")
    ap.add_argument("--rate", type=float, default=0.1, help="the chance that a decision with a choice is taken")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write the positions (and the table) to this JSON file")
    ap.add_argument("--resume", action="store_true", help="continue the run saved in --out (after a Ctrl-C)")
    ap.add_argument("--from", dest="src", help="read the positions from this JSON file (or several, comma-separated: "
                                               "reported together) instead of playing")
    ap.add_argument("--fit", action="store_true", help="fit the mapping's constants; deciles out of fold")
    ap.add_argument("--enough", type=int, default=20,
                    help="a decile with at least this many positions is checked (default 20)")
    ap.add_argument("--overrun", type=int, metavar="N", help="only measure the time budgets: N answers a budget")
    a = ap.parse_args(argv)
    try:
        if a.overrun:
            overrun(a.overrun, [s for _, s in scenarios_of(a.scenarios, a.suite)], a.seed)
            return 0
        if a.positions < 1 or a.playouts < 1 or not 0 < a.rate <= 1 or a.enough < 1:
            ap.error("--positions, --playouts and --enough must be at least 1, --rate in (0, 1]")
        if a.resume and not a.out:
            ap.error("--resume continues the run in --out: give --out")
        if a.fit and a.suite:
            ap.error("--fit with --suite: the suite is held out (fit on other scenarios, measure the suite)")
        interrupted = False
        if a.src:
            rows, suite = [], False
            for k, src in enumerate(f for f in a.src.split(",") if f):
                try:
                    saved = json.loads(Path(src).read_text())
                    mine = saved["positions"]
                except (OSError, ValueError, KeyError, TypeError) as e:
                    raise CalibrationError(f"--from {src}: not a saved run ({e})") from None
                if a.fit and saved.get("suite"):
                    ap.error(f"--fit: {src} holds positions of the held-out suite (fit on other scenarios)")
                suite = suite or bool(saved.get("suite"))
                # the runs' games kept apart (a game's positions share its result)
                rows.extend(dict(r, game=k * GAMES_APART + r["game"]) for r in mine)
        else:
            scen = scenarios_of(a.scenarios, a.suite)
            done, games = [], 0
            if a.resume and Path(a.out).exists():
                saved = json.loads(Path(a.out).read_text())
                if saved.get("settings") != _settings(a):
                    ap.error(f"--resume: {a.out} was made with other settings ({saved.get('settings')})")
                done, games = saved["positions"], saved["games"]
                if games:  # its last game may have been cut short at its --positions: played again, whole
                    games -= 1
                    done = [r for r in done if r["game"] < games]
                print(f"resuming: {len(done)} positions of {games} games in {a.out}")
            mode = "the held-out suite's 12 battles" if a.suite else ", ".join(n for n, _ in scen)
            print(f"collecting {a.positions} positions ({a.playouts} playouts each) from games on {mode}; "
                  "Ctrl-C stops after the finished games and keeps them", flush=True)
            rows, games, interrupted = collect(scen, a.positions, a.playouts, a.rate, a.seed,
                                               log=lambda m: print(m, file=sys.stderr, flush=True), done=done,
                                               games_done=games)
            suite = a.suite
        if not rows:
            print("no positions")
            return 130 if interrupted else 1
        predict(rows, (an.WIN_A, an.WIN_B, an.WIN_C, an.WIN_D), an.MARGIN_A, an.MARGIN_B)
        result = {"positions": rows, "constants": [an.WIN_A, an.WIN_B, an.WIN_C, an.WIN_D, an.MARGIN_A, an.MARGIN_B],
                  "suite": suite,
                  "table": report(rows, "with the constants of agents/analysis.py", enough=a.enough)}
        if not a.src:
            result.update(settings=_settings(a), games=games)
        if a.fit:
            result.update(fit(rows, a.enough))
        if a.out and not a.src:
            Path(a.out).parent.mkdir(parents=True, exist_ok=True)
            Path(a.out).write_text(json.dumps(result))
            print(f"wrote {a.out}" + (" (interrupted: --resume continues it)" if interrupted else ""))
        return 130 if interrupted else 0
    except CalibrationError as e:
        print(f"analysis_calibration: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def _settings(a) -> dict:
    return {"scenarios": "suite" if a.suite else a.scenarios, "playouts": a.playouts, "rate": a.rate, "seed": a.seed}


def fit(rows, enough: int, log=print) -> dict:
    """The mapping's constants fitted on ``rows``, and the deciles out of fold (module docstring)."""
    xs = [an.logit(r["value"]) for r in rows]
    wa, wb, wc, wd = fit_logistic([features(r) for r in rows], [r["score"] for r in rows])
    ma, mb = fit_margin([r["leaf_margin"] for r in rows], xs, [r["final_margin"] for r in rows])
    log(f"\nfitted on all {len(rows)} positions: WIN_A, WIN_B, WIN_C, WIN_D = {wa:.3f}, {wb:.3f}, {wc:.3f}, {wd:.3f}; "
        f"MARGIN_A, MARGIN_B = {ma:.3f}, {mb:.3f}")
    folds = [[r for r in rows if r["game"] % 2 == k] for k in (0, 1)]
    for k in (0, 1):
        train, test = folds[1 - k], folds[k]
        if not train or not test:
            continue
        xt = [an.logit(r["value"]) for r in train]
        fw = fit_logistic([features(r) for r in train], [r["score"] for r in train])
        fc, fd = fit_margin([r["leaf_margin"] for r in train], xt, [r["final_margin"] for r in train])
        predict(test, fw, fc, fd)
    return {"fitted": [wa, wb, wc, wd, ma, mb],
            "table_out_of_fold": report(rows, "out of fold (constants fitted on the other games)", enough=enough)}


if __name__ == "__main__":
    raise SystemExit(main())
