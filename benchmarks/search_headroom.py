"""How much could any choice at the search's root gain over ``hard``'s, when ``hard`` then plays both sides?

    python benchmarks/search_headroom.py --scenarios skirmish --positions 150 --playouts 128 --seed 1 \\
        --out runs/headroom-skirmish.json
    python benchmarks/search_headroom.py --scenarios skirmish,default --positions 24,8   # 24 and 8 positions
    python benchmarks/search_headroom.py --from runs/headroom-skirmish.json   # a saved run reported again

The search agent (``mcts``, agents/mcts.py) keeps ``hard``'s choice unless another root option beats it under
paired playouts.  This measures the room it has: games of ``hard`` against ``hard`` are played on each scenario
(the searching side alternates between games); at decisions of the searching side with a choice, drawn at random
(``--per-game`` of them a game), the candidates the search considers first are taken: ``hard``'s choice, then
``medium``'s, ``defensive``'s and ``easy``'s on the fair root, then ``--neighbours`` options next to ``hard``'s
(:func:`agents.mcts.neighbours`), then every other option when the decision has at most ``--all-up-to`` options,
else ``--others`` other options drawn at random (the search widens to the rest shuffled), without repeats.  Each
candidate is played ``--playouts`` times from the fair root (:func:`agents.mcts.search_root`: what the side may
know) TO THE END OF THE GAME, ``hard`` playing both sides, every candidate under the same list of dice seeds
(common random numbers: the k-th playouts of two candidates are paired).  A playout gives the game's result for
the searching side (a win 1, a draw 0.5, a loss 0) and, separately, the static evaluation
(:func:`agents.mcts.evaluate`) after ``--depth`` decisions (the search's truncated playout value).

Standard errors of the means over positions are clustered by game (a game's positions are not independent).
Per position: ``hard``'s value (mean result), the best alternative's value, their paired gap and its standard
error.  Overall: the mean gap of the best alternative (biased upward: the best of several noisy means), a
split-sample estimate (the best alternative chosen on the even-numbered seeds, its gap measured on the odd ones,
and the other way round, the two averaged), the gain of the rule "switch to the best alternative when it looks
better on one half" measured on the other half (what a perfect chooser among these candidates could gain, less
the noise of half the playouts), the fraction of decisions where some alternative is better by more than 0.05
(split-sample), and the gain a game: the mean split-sample gain a decision times the decisions of one side a game.
The agreement of the truncated evaluation with the play-to-end results: the mean Spearman rank correlation of the
candidates' two means per position and the fraction of positions where both pick the same best candidate.  Whether
the search could find the gain: the search's own rule (another candidate when its paired gain over ``hard``'s
choice exceeds 2 standard errors) applied on one half of the seeds to the evaluation after ``--depth`` decisions,
and to the results, its gain in results measured on the other half; and how often the result-best alternative
leads ``hard``'s choice in the evaluation by 2 standard errors of 10 pairs (what the search gives a candidate at
about 30 playouts).  Every figure is also reported among the structured candidates only (no random option).

Progress is a line a position on stderr.  Ctrl-C abandons the position in progress, reports the positions
finished and writes them (``--out``; exit status 130).
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

DOCTRINE_ORDER = ("medium", "defensive", "easy")
PAIRS = 10  # the paired playouts a root candidate gets from the search at about 30 playouts a decision
MAX_DECISIONS = 20000  # a playout that has not ended after this many decisions is scored by the evaluation


class HeadroomError(ValueError):
    """Bad input (one line)."""


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def candidates(agent, game, decision, hard_choice, n_neighbours: int, n_others: int = 0, all_up_to: int = 0,
               rng=None):
    """The fair root (a :class:`agents.mcts.Search`) and the candidates: (option, label) pairs, ``hard``'s first,
    then the other doctrines' choices, ``n_neighbours`` neighbours of ``hard``'s choice, then every other option
    when the decision has at most ``all_up_to`` options, else ``n_others`` other options drawn by ``rng``."""
    from agents.mcts import neighbours
    state = agent.begin_search(game, decision, hard_choice)
    root_game = state.game
    out, seen = [], set()

    def add(o, label):
        o = tuple(o)
        if o in decision.options and o not in seen:
            seen.add(o)
            out.append((o, label))
    add(hard_choice, "hard")
    for a, name in zip(agent._extra, DOCTRINE_ORDER):
        add(a.choose(root_game, decision), name)
    k = 0
    for o in neighbours(hard_choice, decision.options):
        if k >= n_neighbours:
            break
        if tuple(o) not in seen:
            add(o, f"neighbour{k + 1}")
            k += 1
    rest = [tuple(o) for o in decision.options if tuple(o) not in seen]
    if len(decision.options) > all_up_to:
        (rng or random.Random(0)).shuffle(rest)
        rest = rest[:n_others]
    for o in rest:
        add(o, "other")
    return state, out


def playout(agent, root_game, option, seed: int, side: int, depth: int):
    """One playout of ``option`` from ``root_game`` to the end (``hard`` both sides): (result, evaluation after
    ``depth`` decisions, decisions played)."""
    from agents.mcts import evaluate
    g = root_game.clone(log=False, reseed=seed)
    g.apply(option)
    rollout = agent._rollout
    ev = None
    n = 0
    while not g.over and n < MAX_DECISIONS:
        if n == depth:
            ev = evaluate(g, side)
        d = g.decision()
        g.apply(d.options[0] if len(d.options) == 1 else rollout.choose(g, d))
        n += 1
    result = evaluate(g, side)  # a finished game: its result (1, 0.5, 0)
    if ev is None:
        ev = result
    return result, ev, n


def paired(a, b):
    """Mean and standard error of the paired differences a[k] - b[k]."""
    from agents.mcts import _paired
    if min(len(a), len(b)) < 2:
        return (a[0] - b[0] if a and b else 0.0), float("nan")
    return _paired(a, b)


def _mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def _ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    """Spearman's rank correlation (ties: mean ranks); None when either side is constant."""
    ra, rb = _ranks(a), _ranks(b)
    ma, mb = _mean(ra), _mean(rb)
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((x - mb) ** 2 for x in rb)
    if va == 0 or vb == 0:
        return None
    return sum((x - ma) * (y - mb) for x, y in zip(ra, rb)) / math.sqrt(va * vb)


def split_estimates(res):
    """From the per-candidate results (``res[0]`` hard's), over the two halves of the seeds (even, odd): the gap of
    the alternative chosen best on one half measured on the other, the gain of switching to it only when it looked
    better (> 0) on the choosing half, and whether its measured gap exceeds 0.05; each averaged over the two ways."""
    gaps, gains, big = [], [], []
    for pick in (0, 1):
        choose = [[v for k, v in enumerate(r) if k % 2 == pick] for r in res]
        test = [[v for k, v in enumerate(r) if k % 2 != pick] for r in res]
        best, bg = None, -1e9
        for c in range(1, len(res)):
            g, _ = paired(choose[c], choose[0])
            if g > bg:
                best, bg = c, g
        tg, _ = paired(test[best], test[0])
        gaps.append(tg)
        gains.append(tg if bg > 0 else 0.0)
        big.append(1.0 if tg > 0.05 else 0.0)
    return _mean(gaps), _mean(gains), _mean(big)


def rule_gain(choose_on, res, z: float = 2.0) -> float:
    """The search's rule on one half of the seeds (another candidate is taken when its paired gain over ``hard``'s
    choice in ``choose_on`` exceeds ``z`` standard errors; the best such lower bound), its gain in results measured
    on the other half; the two ways averaged."""
    gains = []
    for pick in (0, 1):
        choose = [[v for k, v in enumerate(r) if k % 2 == pick] for r in choose_on]
        test = [[v for k, v in enumerate(r) if k % 2 != pick] for r in res]
        best, bs = 0, 0.0
        for c in range(1, len(res)):
            m, se = paired(choose[c], choose[0])
            low = m - z * se
            if low > bs:
                best, bs = c, low
        gains.append(paired(test[best], test[0])[0] if best else 0.0)
    return _mean(gains)


def analyse_position(agent, game, decision, hard_choice, playouts: int, depth: int, n_neighbours: int, seed: int,
                     n_others: int = 0, all_up_to: int = 0):
    """One position's record (see the module docstring)."""
    side = decision.side
    rng = random.Random(seed)
    state, cands = candidates(agent, game, decision, hard_choice, n_neighbours, n_others, all_up_to, rng)
    seeds = [rng.getrandbits(62) for _ in range(playouts)]
    res, evs, lengths = [], [], []
    for opt, _ in cands:
        r, e = [], []
        for s in seeds:
            a, b, n = playout(agent, state.game, opt, s, side, depth)
            r.append(a)
            e.append(b)
            lengths.append(n)
        res.append(r)
        evs.append(e)
    rec = {"side": side, "options": len(decision.options), "complete": len(cands) == len(decision.options),
           "candidates": [[list(o), lab] for o, lab in cands],
           "results": res, "evals": evs, "mean_playout_decisions": _mean(lengths)}
    rec.update(summarise(res, evs))
    # the same among the search's structured candidates only (hard's, the doctrines', the neighbours)
    keep = [c for c, (_, lab) in enumerate(cands) if lab != "other"]
    rec["structured"] = dict(summarise([res[c] for c in keep], [evs[c] for c in keep]),
                             candidates=[cands[c][1] for c in keep], complete=len(keep) == len(decision.options))
    return rec


def summarise(res, evs) -> dict:
    """The per-position numbers from the candidates' results and evaluations."""
    means = [_mean(r) for r in res]
    emeans = [_mean(e) for e in evs]
    out = {"hard_value": means[0], "values": means, "eval_values": emeans}
    if len(res) < 2:
        out.update(best_alt=None, best_value=None, gap=0.0, gap_se=0.0, split_gap=0.0, split_gain=0.0,
                   eval_rule_gain=0.0, result_rule_gain=0.0,
                   split_big=0.0, spearman=None, same_best=None, eval_gap=0.0)
        return out
    best = max(range(1, len(res)), key=lambda c: means[c])
    gap, se = paired(res[best], res[0])
    sg, sgain, sbig = split_estimates(res)
    ebest = max(range(1, len(evs)), key=lambda c: emeans[c])
    egap, ese = paired(evs[ebest], evs[0])
    out.update(best_alt=best, best_value=means[best], gap=gap, gap_se=se, split_gap=sg, split_gain=sgain,
               split_big=sbig, spearman=spearman(means, emeans),
               same_best=max(range(len(res)), key=lambda c: means[c]) == max(range(len(evs)), key=lambda c: emeans[c]),
               eval_best_alt=ebest, eval_gap=egap, eval_gap_se=ese,
               # the result gap of the alternative the evaluation ranks best (what a perfect truncated search picks)
               eval_pick_result_gap=paired(res[ebest], res[0])[0])
    # the result-best alternative as the search sees it: its gap in the evaluation after depth, and that gap in
    # standard errors of PAIRS paired playouts (about what the search gives a candidate at 30 playouts)
    bg, bse = paired(evs[best], evs[0])
    n = len(res[0])
    out.update(eval_rule_gain=rule_gain(evs, res), result_rule_gain=rule_gain(res, res),
               best_alt_eval_gap=bg, best_alt_eval_se=bse,
               best_alt_eval_z=(bg / (bse * math.sqrt(n / PAIRS)) if bse > 0 else (0.0 if bg == 0 else
                                                                                     math.copysign(99.0, bg))))
    return out


def _mean_se(xs, groups=None):
    """The mean of ``xs`` (None and NaN left out) and its standard error, clustered by ``groups`` when given (the
    positions of one game are not independent)."""
    keep = [(x, g) for x, g in zip(xs, groups or [None] * len(xs))
            if x is not None and not (isinstance(x, float) and math.isnan(x))]
    if not keep:
        return None, None
    xs = [x for x, _ in keep]
    m = _mean(xs)
    n = len(xs)
    if groups is None:
        if n < 2:
            return m, None
        return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)
    sums: dict = {}
    for x, g in keep:
        sums[g] = sums.get(g, 0.0) + (x - m)
    k = len(sums)
    if k < 2:
        return m, None
    return m, math.sqrt(k / (k - 1) * sum(v * v for v in sums.values())) / n


def overall(rows, decisions_per_game) -> dict:
    """The summary over ``rows`` (one scenario's positions, or all)."""
    out = {"positions": len(rows)}
    if not rows:
        return out
    games = [(r.get("scenario"), r.get("game_seed")) for r in rows]
    for key in ("gap", "split_gap", "split_gain", "eval_rule_gain", "result_rule_gain", "split_big", "spearman",
                "eval_pick_result_gap", "hard_value"):
        m, se = _mean_se([r.get(key) for r in rows], games)
        out[key] = m
        out[key + "_se"] = se
    out["candidates"] = _mean([len(r["candidates"]) for r in rows])
    out["complete"] = _mean([1.0 if r["complete"] else 0.0 for r in rows])
    out["detect_at_pairs"] = _mean([1.0 if (r.get("best_alt_eval_z") or 0.0) > 2.0 else 0.0 for r in rows])
    sure = [r for r in rows if r["gap"] - 2 * (r["gap_se"] or 0.0) > 0.05]
    out["detect_at_pairs_sure"] = _mean([1.0 if r["best_alt_eval_z"] > 2.0 else 0.0 for r in sure]) if sure else None
    out["upper_gain"] = _mean([max(0.0, r["gap"]) for r in rows])  # the oracle's gain, biased upward by the noise
    out["naive_big"] = _mean([1.0 if r["gap"] > 0.05 else 0.0 for r in rows])
    out["sure_big"] = _mean([1.0 if r["gap"] - 2 * (r["gap_se"] or 0.0) > 0.05 else 0.0 for r in rows])
    out["same_best"] = _mean([1.0 if r.get("same_best") else 0.0 for r in rows])
    out["mean_gap_se"] = _mean([r["gap_se"] for r in rows if r["gap_se"] == r["gap_se"]])
    if decisions_per_game:
        out["decisions_per_game"] = decisions_per_game
        if out["split_gain"] is not None:
            out["gain_per_game"] = out["split_gain"] * decisions_per_game
            out["gain_per_game_se"] = (out["split_gain_se"] or 0.0) * decisions_per_game
            out["upper_gain_per_game"] = out["upper_gain"] * decisions_per_game
            for key in ("eval_rule_gain", "result_rule_gain"):
                out[key + "_per_game"] = out[key] * decisions_per_game
                out[key + "_per_game_se"] = (out[key + "_se"] or 0.0) * decisions_per_game
    return out


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage block
        print(f"{self.prog}: {message} (see --help)", file=sys.stderr)
        raise SystemExit(2)


def parse_args(argv):
    ap = _Parser(prog="search_headroom.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[2:]))
    ap.add_argument("--scenarios", default="skirmish,default", help="comma-separated scenarios (default "
                                                                   "skirmish,default)")
    ap.add_argument("--positions", default="24",
                    help="positions per scenario: one number for every scenario or one per scenario, comma-separated "
                         "(default 24)")
    ap.add_argument("--playouts", type=int, default=64, help="playouts to the end per candidate (default 64)")
    ap.add_argument("--per-game", type=int, default=4, help="positions drawn from one game (default 4)")
    ap.add_argument("--neighbours", type=int, default=3, help="neighbours of hard's choice among the candidates "
                                                              "(default 3)")
    ap.add_argument("--others", type=int, default=2, help="other options drawn at random among the candidates "
                                                          "(default 2)")
    ap.add_argument("--all-up-to", type=int, default=8, help="a decision with at most this many options: every "
                                                             "option is a candidate (default 8)")
    ap.add_argument("--depth", type=int, default=30, help="decisions before the static evaluation (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the games and the playouts' dice (default 1)")
    ap.add_argument("--out", help="write every position and the summary to this JSON file")
    ap.add_argument("--from", dest="src", help="report the positions saved in this JSON file (comma-separated: "
                                               "several, together) instead of playing")
    a = ap.parse_args(argv)
    if a.src:
        return a, None, None
    scen = [s.strip() for s in a.scenarios.split(",") if s.strip()]
    if not scen:
        ap.error("--scenarios: no scenario given")
    try:
        pos = [int(x) for x in a.positions.split(",")]
    except ValueError:
        ap.error(f"--positions {a.positions!r}: whole numbers, comma-separated")
    if len(pos) == 1:
        pos = pos * len(scen)
    if len(pos) != len(scen):
        ap.error(f"--positions: {len(pos)} numbers for {len(scen)} scenarios")
    if min(pos) < 1 or a.playouts < 2 or a.per_game < 1 or a.neighbours < 0 or a.depth < 0 \
            or a.others < 0 or a.all_up_to < 0:
        ap.error("--positions and --per-game must be at least 1, --playouts at least 2, --neighbours and --depth "
                 "at least 0")
    from dustup_env.rules import Game
    for s in scen:
        try:
            Game(s, seed=0)
        except Exception as e:  # noqa: BLE001 - one line for any bad scenario
            ap.error(f"scenario {s!r}: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    return a, scen, pos


def run_scenario(name, n_positions, a, rows, decisions_seen):
    """Play games on ``name`` until ``n_positions`` positions are analysed (appended to ``rows``)."""
    import agents  # noqa: F401 - registers the bots
    from agents import make_agent
    from agents.mcts import MctsAgent
    from dustup_env.rules import Game
    game_no = 0
    done = 0
    while done < n_positions:
        gseed = a.seed * 1000 + game_no
        side = game_no % 2
        # the game once to count the searching side's decisions with a choice, then again to the drawn ones
        counts = []
        for rep in (0, 1):
            g = Game(name, seed=gseed)
            players = [make_agent("hard", seed=gseed), make_agent("hard", seed=gseed + 1)]
            for s, p in enumerate(players):
                p.reset(gseed + s)
            if rep == 1:
                rng = random.Random(gseed * 7919 + 11)
                k = min(a.per_game, n_positions - done, counts[0])
                picks = set(rng.sample(range(counts[0]), k)) if k > 0 else set()
                agent = MctsAgent(seed=gseed + 7, playouts=1, prior="hard")  # hard's choice is the base
            i = 0
            while not g.over:
                d = g.decision()
                if len(d.options) == 1:
                    g.apply(d.options[0])
                    continue
                choice = tuple(players[d.side].choose(g, d))
                if d.side == side:
                    if rep == 1 and i in picks:
                        t = time.perf_counter()
                        agent.prior_choice(g, d)  # the search's per-game plans, as the agent makes them
                        rec = analyse_position(agent, g, d, choice, a.playouts, a.depth, a.neighbours,
                                               gseed * 100003 + i, a.others, a.all_up_to)
                        rec.update(scenario=name, game_seed=gseed, decision=i, turn=getattr(g, "turn", None),
                                   seconds=round(time.perf_counter() - t, 2))
                        rows.append(rec)
                        done += 1
                        bv = rec["best_value"]
                        _log(f"{name} {done}/{n_positions} game {gseed} side {side} decision {i}: "
                             f"{len(rec['candidates'])} candidates, hard {rec['hard_value']:.3f}"
                             + (f", best alt {bv:.3f} ({rec['candidates'][rec['best_alt']][1]}), gap "
                                f"{rec['gap']:+.3f} +- {rec['gap_se']:.3f}, split {rec['split_gap']:+.3f}"
                                if bv is not None else ", no alternative")
                             + f" [{rec['seconds']:.1f} s]")
                    i += 1
                g.apply(choice)
            if rep == 0:
                counts.append(i)
        decisions_seen.append(counts[0])
        game_no += 1


def main(argv=None) -> int:
    try:
        a, scen, pos = parse_args(argv)
    except HeadroomError as e:
        print(f"search_headroom: {e}", file=sys.stderr)
        return 2
    rows: list = []
    per_scen_decisions: dict = {}
    interrupted = False
    t0 = time.perf_counter()
    if a.src:
        scen, settings = [], []
        for src in [f for f in a.src.split(",") if f]:
            try:
                saved = json.loads(Path(src).read_text())
                mine = saved["positions"]
                for r in mine:  # summarised again under this script's definitions
                    cands = [tuple(c) for c in r["candidates"]]
                    keep = [c for c, (_, lab) in enumerate(cands) if lab != "other"]
                    r.update(summarise(r["results"], r["evals"]))
                    r["structured"] = dict(summarise([r["results"][c] for c in keep], [r["evals"][c] for c in keep]),
                                           candidates=[cands[c][1] for c in keep],
                                           complete=len(keep) == r["options"])
                    if r["scenario"] not in scen:
                        scen.append(r["scenario"])
                rows.extend(mine)
                settings.append(saved["settings"])
                for name, s in saved["summary"].items():
                    if s.get("decisions_per_game"):
                        per_scen_decisions.setdefault(name, []).append(s["decisions_per_game"])
            except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
                print(f"search_headroom: --from {src}: not a saved run ({e})", file=sys.stderr)
                return 2
        pos = [sum(1 for r in rows if r["scenario"] == n) for n in scen]
        a.playouts = settings[0]["playouts"] if settings else None
    else:
        try:
            for name, n in zip(scen, pos):
                seen = per_scen_decisions.setdefault(name, [])
                run_scenario(name, n, a, rows, seen)
        except KeyboardInterrupt:
            interrupted = True
            _log("interrupted: reporting the positions finished")
    summary = {}
    for name in scen:
        mine = [r for r in rows if r["scenario"] == name]
        seen = per_scen_decisions.get(name) or []
        summary[name] = overall(mine, _mean(seen) if seen else None)
        summary[name]["structured"] = overall([dict(r["structured"], scenario=r["scenario"], game_seed=r["game_seed"])
                                               for r in mine], _mean(seen) if seen else None)
    result = {"settings": {"scenarios": scen, "positions": pos, "playouts": a.playouts, "per_game": a.per_game,
                           "neighbours": a.neighbours, "others": a.others,
                           "all_up_to": a.all_up_to, "depth": a.depth, "seed": a.seed},
              "seconds": round(time.perf_counter() - t0, 1), "interrupted": interrupted,
              "summary": summary, "positions": rows}
    for name, s in summary.items():
        print(report_line(name, s))
        if s.get("positions"):
            print(report_line(f"{name} (the structured candidates only: hard's, the doctrines', the neighbours)",
                              s["structured"]))
    if a.out and not a.src:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(json.dumps(result))
        print(f"wrote {a.out}")
    return 130 if interrupted else 0


def _f(x, fmt="+.3f"):
    return "n/a" if x is None else format(x, fmt)


def report_line(name, s) -> str:
    if not s.get("positions"):
        return f"{name}: no positions"
    lines = [f"{name}: {s['positions']} positions; hard's value {_f(s['hard_value'], '.3f')}",
             f"  best alternative's gap (selection-biased) {_f(s['gap'])} +- {_f(s['gap_se'], '.3f')} "
             f"(mean per-position se {_f(s['mean_gap_se'], '.3f')})",
             f"  split-sample gap of the best alternative {_f(s['split_gap'])} +- {_f(s['split_gap_se'], '.3f')}; "
             f"gain of switching when it looked better {_f(s['split_gain'])} +- {_f(s['split_gain_se'], '.3f')}",
             f"  decisions with an alternative better by > 0.05: split-sample {_f(s['split_big'], '.2f')}, "
             f"naive {_f(s['naive_big'], '.2f')}, gap - 2 se > 0.05 {_f(s['sure_big'], '.2f')}; "
             f"{_f(s['candidates'], '.1f')} candidates a position, all options in {_f(s['complete'], '.2f')}",
             f"  evaluation after depth vs result: Spearman {_f(s['spearman'], '.2f')} +- "
             f"{_f(s['spearman_se'], '.2f')}, same best {_f(s['same_best'], '.2f')}; result gap of the "
             f"evaluation's best alternative {_f(s['eval_pick_result_gap'])} +- "
             f"{_f(s['eval_pick_result_gap_se'], '.3f')}",
             f"  the result-best alternative beats hard's choice in the evaluation by 2 se of {PAIRS} pairs: "
             f"{_f(s['detect_at_pairs'], '.2f')} of the positions, {_f(s['detect_at_pairs_sure'], '.2f')} of those "
             f"with a sure gain (gap - 2 se > 0.05: {_f(s['sure_big'], '.2f')})",
             f"  the search's rule (z=2) on half the playouts, its gain in results on the other half: on the "
             f"evaluation after depth {_f(s['eval_rule_gain'])} +- {_f(s['eval_rule_gain_se'], '.3f')}, on the "
             f"results {_f(s['result_rule_gain'])} +- {_f(s['result_rule_gain_se'], '.3f')} a decision"]
    if "gain_per_game" in s:
        lines.append(f"  {s['decisions_per_game']:.1f} decisions of a side a game: gain a game if chosen perfectly "
                     f"among these candidates {_f(s['gain_per_game'])} +- {_f(s['gain_per_game_se'], '.3f')} "
                     f"(split-sample; biased upward by the noise: {_f(s['upper_gain_per_game'])}); the search's "
                     f"rule on half the playouts: on the evaluation {_f(s['eval_rule_gain_per_game'])} +- "
                     f"{_f(s['eval_rule_gain_per_game_se'], '.3f')}, on the results "
                     f"{_f(s['result_rule_gain_per_game'])} +- {_f(s['result_rule_gain_per_game_se'], '.3f')}")
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("search_headroom: interrupted", file=sys.stderr)
        raise SystemExit(130)
    except BrokenPipeError:  # the report piped into a closed reader (| head)
        sys.stderr.close()
        raise SystemExit(1)
