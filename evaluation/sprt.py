"""Sequential probability ratio test: is a candidate agent better than a baseline?

The games come in pairs (the two games of a pair share their seed, the sides swapped), and the test
runs on pairs: the generalised SPRT (GSPRT, as chess engine testers use it) with the normal
approximation on the candidate's score per pair (pentanomial: 0, 1/4, 1/2, 3/4 or 1 per game),
which accounts for the two games of a pair not being independent.  H0: the candidate is at most
``elo0`` Elo better; H1: at least ``elo1``.  After every batch the log-likelihood ratio is compared
with Wald's bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``; no verdict is given before
:data:`MIN_PAIRS` complete pairs (the variance of a handful of pair scores is no measure: two pairs won outright
have none, and their ratio would cross any bound).  With ``elo1 <= 0`` the test asks whether the candidate is at
least as strong as the baseline (H1) or weaker by ``-elo0`` (H0), and its sentence says so.

``run_sprt`` takes a *game source*: a function that returns the records of the first ``n`` games of
one fixed schedule (the tournament in the output folder, so each batch extends the same tournament
and a stopped test resumes), or a synthetic source with a known strength difference for testing the
decision rule.
"""
from __future__ import annotations

import math

import numpy as np

from .ratings import expected_score, sprt_bounds, sprt_llr_pairs

MIN_PAIRS = 10  # complete game pairs before the ratio may decide


def pair_points(records, candidate: str) -> list[int]:
    """How many pairs the candidate scored 0, 0.5, 1, 1.5 and 2 points in (complete pairs only)."""
    pairs: dict = {}
    for r in records:
        w = r["winner"]
        side = r["agents"].index(candidate)
        pts = 0.5 if w in (-1, None) else (1.0 if w == side else 0.0)
        pairs.setdefault((r.get("scenario"), r["pair_index"]), []).append(pts)
    counts = [0] * 5
    for v in pairs.values():
        if len(v) == 2:
            counts[int(round(2 * sum(v)))] += 1
    return counts


def wdl(records, candidate: str) -> tuple[int, int, int]:
    w = d = l = 0
    for r in records:
        if r["winner"] in (0, 1):
            if r["agents"][r["winner"]] == candidate:
                w += 1
            else:
                l += 1
        else:
            d += 1
    return w, d, l


def run_sprt(source, candidate: str, baseline: str, elo0: float, elo1: float, alpha: float = 0.05,
             beta: float = 0.05, batch: int = 20, max_games: int = 1000, log=lambda m: None) -> dict:
    """Play batches from ``source(n) -> records of the first n games`` until a bound is crossed."""
    if not elo1 > elo0:
        raise ValueError(f"elo1 ({elo1}) must be above elo0 ({elo0})")
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    lo, hi = sprt_bounds(alpha, beta)
    batch = batch + batch % 2  # whole pairs
    n, verdict, llr, records, batches = 0, "inconclusive", 0.0, [], 0
    while n < max_games:
        n = min(max_games + max_games % 2, n + batch)
        records = source(n)
        batches += 1
        counts = pair_points(records, candidate)
        llr = sprt_llr_pairs(counts, elo0, elo1)
        w, d, l = wdl(records, candidate)
        log(f"sprt: {len(records)} games (batch {batches}): {candidate} W {w} D {d} L {l}, LLR {llr:+.3f}, "
            f"bounds [{lo:.3f}, {hi:.3f}]")
        if sum(counts) < MIN_PAIRS:
            continue
        if llr >= hi:
            verdict = "H1"
            break
        if llr <= lo:
            verdict = "H0"
            break
    w, d, l = wdl(records, candidate)
    games = len(records)
    score = (w + 0.5 * d) / games if games else 0.0
    return {"candidate": candidate, "baseline": baseline, "verdict": verdict, "games": games, "batches": batches,
            "wins": w, "draws": d, "losses": l, "score": score, "pair_points": pair_points(records, candidate),
            "llr": llr, "bounds": [lo, hi], "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
            "elo_estimate": elo_of_score(score)}


def elo_of_score(score: float) -> float | None:
    if not 0 < score < 1:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0)


def verdict_sentence(res: dict) -> str:
    """The result as a sentence a person reads."""
    c, b = res["candidate"], res["baseline"]
    e0, e1 = res["elo0"], res["elo1"]
    tally = (f"{res['games']} games, {c} {res['wins']} wins, {res['draws']} draws, {res['losses']} losses "
             f"(score {100 * res['score']:.1f}%); log-likelihood ratio {res['llr']:+.2f}, bounds "
             f"[{res['bounds'][0]:.2f}, {res['bounds'][1]:.2f}]")
    better = f"is better than {b}" if e1 > 0 else (f"is at least as strong as {b}" if e1 == 0 else
                                                     f"is at most {-e1:g} Elo weaker than {b}")
    if res["verdict"] == "H1":
        return (f"{c} {better}: the test accepted H1 (a gap of at least {e1:g} Elo) over H0 (at most "
                f"{e0:g} Elo), with a {res['alpha']:g} chance of a false alarm, after {tally}.")
    if res["verdict"] == "H0":
        shown = "better than" if e1 > 0 else "as strong as"
        return (f"{c} is not shown to be {shown} {b}: the test accepted H0 (a gap of at most {e0:g} Elo) over "
                f"H1 (at least {e1:g} Elo), with a {res['beta']:g} chance of missing a real gain, after {tally}.")
    return (f"No decision on whether {c} {better} after {tally}: the ratio stayed between the bounds "
            f"until --max-games; play more games or widen the gap between elo0 ({e0:g}) and elo1 ({e1:g}).")


def tournament_source(candidate: str, baseline: str, scenario: str, out, seed: int = 0, concurrency=None,
                      options=None, progress: bool = True):
    """Games from one tournament in ``out`` (candidate against baseline, paired), extended batch by batch."""
    from . import tournament as T

    def source(n):
        return T.run([baseline], [scenario], n, out, seed=seed, gauntlet=candidate, concurrency=concurrency,
                     options=options, progress=progress, desc="sprt")
    return source


def synthetic_source(elo: float, draw_rate: float = 0.2, seed: int = 0, candidate: str = "cand",
                     baseline: str = "base", pair_correlation: float = 0.0):
    """Pairs of games with a known strength difference: the candidate's expected score per game is
    ``expected_score(elo)`` with ``draw_rate`` draws.  With ``pair_correlation`` > 0 the second game of a pair
    repeats the first one's result for the candidate with that probability (pairs that are not independent)."""
    s = expected_score(elo)
    p_win = s - draw_rate / 2
    if not 0 <= p_win <= 1 - draw_rate:
        raise ValueError("draw_rate too large for this Elo difference")
    rng = np.random.default_rng(seed)
    cache: list = []

    def one():
        u = rng.random()
        return 1.0 if u < p_win else (0.5 if u < p_win + draw_rate else 0.0)

    def rec(k, swap, pts):
        agents = [candidate, baseline] if swap == 0 else [baseline, candidate]
        winner = -1 if pts == 0.5 else (agents.index(candidate) if pts == 1.0 else agents.index(baseline))
        return {"scenario": "synthetic", "agents": agents, "pair_index": k, "winner": winner}

    def source(n):
        while len(cache) < n:
            k = len(cache) // 2
            first = one()
            second = first if rng.random() < pair_correlation else one()
            cache.extend([rec(k, 0, first), rec(k, 1, second)])
        return cache[:n]
    return source
