"""Ratings: an offline maximum-likelihood Bradley-Terry (Elo) fit with a side term and a draw term.

Model (Davidson's extension of Bradley-Terry to draws, with a first-side advantage): for a game
between agent ``i`` on side 0 and agent ``j`` on side 1, with ``d = r_i - r_j + h``,

    P(side 0 wins) = e^{d/2} / Z,   P(draw) = nu / Z,   P(side 1 wins) = e^{-d/2} / Z,
    Z = e^{d/2} + nu + e^{-d/2},   nu = e^{theta}.

Ratings are reported on the Elo scale (``400 / ln 10`` per natural unit), anchored so that the
anchor agent (``random``) is 0.  95% intervals come from a bootstrap over *paired* games (the two
games of a pairing played with the same seed and swapped sides are resampled together), and the
likelihood of superiority ``LOS[i][j]`` is the fraction of bootstrap fits with ``r_i > r_j``.
The optimiser is scipy's L-BFGS on the exact log-likelihood and its gradient.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

ELO = 400.0 / math.log(10.0)


@dataclass
class Fit:
    agents: list
    ratings: np.ndarray  # Elo scale, anchor = 0
    side_advantage: float  # Elo points for playing side 0
    draw_theta: float  # log nu
    loglik: float


def _encode(games, agents):
    idx = {a: i for i, a in enumerate(agents)}
    a0 = np.array([idx[g[0]] for g in games], dtype=np.int64)
    a1 = np.array([idx[g[1]] for g in games], dtype=np.int64)
    res = np.array([g[2] for g in games], dtype=np.float64)  # 1 side-0 win, 0.5 draw, 0 side-1 win
    return a0, a1, res


def _nll(params, a0, a1, res, n_agents, anchor, side_term, draw_term):
    r = np.zeros(n_agents)
    free = [k for k in range(n_agents) if k != anchor]
    r[free] = params[: len(free)]
    h = params[len(free)] if side_term else 0.0
    theta = params[len(free) + (1 if side_term else 0)] if draw_term else -30.0
    d = r[a0] - r[a1] + h
    e_p, e_m, nu = np.exp(d / 2), np.exp(-d / 2), math.exp(theta)
    z = e_p + nu + e_m
    win, draw = res == 1.0, res == 0.5
    ll = np.where(win, d / 2, np.where(draw, theta, -d / 2)) - np.log(z)
    # gradients
    p_w, p_l, p_d = e_p / z, e_m / z, nu / z
    dd = np.where(win, 0.5, np.where(draw, 0.0, -0.5)) - 0.5 * (p_w - p_l)  # d ll / d d
    g_r = np.zeros(n_agents)
    np.add.at(g_r, a0, dd)
    np.add.at(g_r, a1, -dd)
    grad = [g_r[free]]
    if side_term:
        grad.append([dd.sum()])
    if draw_term:
        grad.append([(draw.astype(float) - p_d).sum()])
    return -ll.sum(), -np.concatenate(grad)


def fit(games, agents=None, anchor: str = "random", side_term: bool = True, draw_term: bool = True,
        prior: float = 1e-3) -> Fit:
    """Maximum-likelihood ratings.  ``games``: iterable of (side0_agent, side1_agent, result) with
    result 1 (side 0 won), 0.5 (draw) or 0 (side 1 won).  ``prior``: a tiny Gaussian penalty that
    keeps ratings finite when an agent won or lost every game (a few Elo of shrinkage at most)."""
    games = list(games)
    if agents is None:
        agents = sorted({g[0] for g in games} | {g[1] for g in games})
    agents = list(agents)
    if anchor not in agents:
        anchor_i = 0
    else:
        anchor_i = agents.index(anchor)
    a0, a1, res = _encode(games, agents)
    n = len(agents)
    has_draw = bool(np.any(res == 0.5)) and draw_term
    k = n - 1 + (1 if side_term else 0) + (1 if has_draw else 0)
    x0 = np.zeros(k)
    if has_draw:
        x0[-1] = -1.0

    def f(x):
        v, g = _nll(x, a0, a1, res, n, anchor_i, side_term, has_draw)
        return v + prior * float(x @ x), g + 2 * prior * x

    out = minimize(f, x0, jac=True, method="L-BFGS-B")
    x = out.x
    r = np.zeros(n)
    free = [i for i in range(n) if i != anchor_i]
    r[free] = x[: n - 1]
    h = x[n - 1] if side_term else 0.0
    theta = x[-1] if has_draw else -math.inf
    return Fit(agents, r * ELO, float(h * ELO), float(theta), float(-out.fun))


def paired_units(records):
    """Group game records into resampling units: the games of one pairing/seed (both sides) together."""
    units: dict = {}
    for rec in records:
        key = (rec["scenario"], tuple(sorted((rec["agents"][0], rec["agents"][1]))), rec["pair_index"])
        units.setdefault(key, []).append(rec)
    return list(units.values())


def record_game(rec) -> tuple:
    """(side0 agent, side1 agent, result for side 0) from a tournament record."""
    w = rec["winner"]
    res = 0.5 if w == -1 or w is None else (1.0 if w == 0 else 0.0)
    return rec["agents"][0], rec["agents"][1], res


def rate(records, anchor: str = "random", bootstrap: int = 200, seed: int = 0) -> dict:
    """Fit plus bootstrap 95% intervals and the likelihood-of-superiority matrix."""
    games = [record_game(r) for r in records]
    agents = sorted({g[0] for g in games} | {g[1] for g in games})
    base = fit(games, agents, anchor)
    units = paired_units(records)
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(bootstrap):
        pick = rng.integers(0, len(units), len(units))
        bs = [record_game(r) for i in pick for r in units[i]]
        samples.append(fit(bs, agents, anchor).ratings)
    samples = np.array(samples) if samples else np.zeros((0, len(agents)))
    out = {"anchor": anchor, "agents": agents, "side_advantage_elo": base.side_advantage,
           "draw_theta": base.draw_theta, "games": len(games), "ratings": {}}
    for i, a in enumerate(agents):
        lo, hi = (np.percentile(samples[:, i], [2.5, 97.5]) if len(samples) else (base.ratings[i],) * 2)
        out["ratings"][a] = {"elo": float(base.ratings[i]), "ci95": [float(lo), float(hi)]}
    los = {}
    for i, a in enumerate(agents):
        los[a] = {}
        for j, b in enumerate(agents):
            if i != j:
                los[a][b] = float(np.mean(samples[:, i] > samples[:, j])) if len(samples) else 0.5
    out["los"] = los
    # neighbour gaps: the Elo difference between each agent and the next one down, with the 95% interval of the
    # *difference* over the same resamples -- unlike the per-agent intervals it does not depend on the anchor
    # (an anchor with almost no wins, e.g. random, widens every per-agent interval by its own uncertainty)
    order = sorted(range(len(agents)), key=lambda i: -base.ratings[i])
    gaps = []
    for i, j in zip(order, order[1:]):
        d = samples[:, i] - samples[:, j] if len(samples) else np.array([base.ratings[i] - base.ratings[j]])
        lo, hi = np.percentile(d, [2.5, 97.5])
        gaps.append({"higher": agents[i], "lower": agents[j], "elo_diff": float(base.ratings[i] - base.ratings[j]),
                     "ci95": [float(lo), float(hi)]})
    out["neighbour_gaps"] = gaps
    return out


# ---------------------------------------------------------------------------------------------- SPRT
def expected_score(elo: float, draw_ratio: float = 0.0) -> float:
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Generalised SPRT log-likelihood ratio (trinomial, normal approximation, as used by chess
    engine testers): LLR = N/2 * ((x - s0)^2 - (x - s1)^2) / var."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    x = (wins + 0.5 * draws) / n
    var = (wins * (1 - x) ** 2 + draws * (0.5 - x) ** 2 + losses * (0 - x) ** 2) / n
    if var <= 0:
        var = 1e-6
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n / 2.0 * ((x - s0) ** 2 - (x - s1) ** 2) / var


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
