"""Ratings: a Bradley-Terry (Elo) fit with a side term, a draw term and a prior of virtual draws.

Model (Davidson's extension of Bradley-Terry to draws, with a first-side advantage): for a game
between agent ``i`` on side 0 and agent ``j`` on side 1, with ``d = r_i - r_j + h``,

    P(side 0 wins) = e^{d/2} / Z,   P(draw) = nu / Z,   P(side 1 wins) = e^{-d/2} / Z,
    Z = e^{d/2} + nu + e^{-d/2},   nu = e^{theta}.

Prior (as BayesElo's virtual draws): every pair of agents that met gets ``prior`` virtual games
scored 1/2 each under the plain logistic Elo model (they pull the two ratings together without
changing the draw rate or the side advantage).  Without it an agent that won every game would be
rated infinitely far above its opponents; with the default of 2 virtual draws, 20 wins out of 20
count as a score of 21/22 (about +530 Elo).  The ratings are the maximum of this posterior
(Newton's method on the exact gradient and Hessian: the log-posterior is concave).

95% intervals come from the posterior's curvature at its maximum (the Laplace approximation, as
BayesElo reports them): they are finite and widen where results are few or one-sided.  They
assume independent games.  The likelihood of superiority ``LOS[i][j]`` is the posterior
probability that ``r_i > r_j``.

Ratings are on the Elo scale (``400 / ln 10`` per natural unit) with one anchor at 0: an agent that
played, or ``mean`` (the agents' mean rating is 0).  Only differences are measured; the anchor
only fixes where 0 is.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO = 400.0 / math.log(10.0)
DEFAULT_PRIOR = 2.0  # virtual draws per pair of agents that met
Z95 = 1.959963984540054


@dataclass
class Fit:
    agents: list
    ratings: np.ndarray  # Elo scale, anchor = 0
    side_advantage: float  # Elo points for playing side 0
    draw_theta: float  # log nu (-inf: no draws in the games, no draw term)
    loglik: float  # log-likelihood of the games (without the prior)
    cov: np.ndarray  # posterior covariance of the ratings (Elo^2), anchor row/column included
    anchor: str
    side_sd: float = 0.0  # posterior standard deviation of the side advantage (Elo)


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def resolve_anchor(anchor: str | None, agents) -> str:
    """The anchor to use: ``None``/``"auto"`` = ``random`` if it played, else ``mean``; a named anchor must
    be among ``agents`` (else ValueError naming the agents that played)."""
    agents = list(agents)
    if anchor in (None, "", "auto"):
        return "random" if "random" in agents else "mean"
    if anchor == "mean" or anchor in agents:
        return anchor
    raise ValueError(f"anchor {anchor!r} did not play: the anchor must be one of the agents that played "
                     f"({', '.join(agents)}) or 'mean'")


def _design(games, agents):
    idx = {a: i for i, a in enumerate(agents)}
    a0 = np.array([idx[g[0]] for g in games], dtype=np.int64)
    a1 = np.array([idx[g[1]] for g in games], dtype=np.int64)
    res = np.array([g[2] for g in games], dtype=np.float64)  # 1 side-0 win, 0.5 draw, 0 side-1 win
    return a0, a1, res


def fit(games, agents=None, anchor: str | None = "auto", side_term: bool = True, draw_term: bool = True,
        prior: float = DEFAULT_PRIOR) -> Fit:
    """Posterior-maximum ratings.  ``games``: iterable of (side0_agent, side1_agent, result) with result 1
    (side 0 won), 0.5 (draw) or 0 (side 1 won).  ``prior``: virtual draws per pair of agents that met
    (0: plain maximum likelihood, infinite for perfect scores; a tiny ridge keeps the numbers finite)."""
    games = list(games)
    if agents is None:
        agents = sorted({g[0] for g in games} | {g[1] for g in games})
    agents = list(agents)
    if not agents:
        raise ValueError("no games to rate")
    anchor = resolve_anchor(anchor, agents)
    if prior < 0:
        raise ValueError(f"prior must be >= 0 virtual draws, not {prior}")
    n = len(agents)
    a0, a1, res = _design(games, agents)
    win, draw = res == 1.0, res == 0.5
    has_draw = bool(draw.any()) and draw_term
    has_side = side_term and len(games) > 0
    # parameters: r_1..r_{n-1} (r_0 = 0), then h (side), then theta (draws)
    nr = n - 1
    k = nr + (1 if has_side else 0) + (1 if has_draw else 0)
    ih = nr if has_side else None
    it = k - 1 if has_draw else None
    # design of d = r[a0] - r[a1] + h over the parameters (dense: agents are few)
    D = np.zeros((len(games), k))
    rows = np.arange(len(games))
    m0, m1 = a0 > 0, a1 > 0
    np.add.at(D, (rows[m0], a0[m0] - 1), 1.0)
    np.add.at(D, (rows[m1], a1[m1] - 1), -1.0)
    if ih is not None:
        D[:, ih] = 1.0
    # the prior: pairs that met
    pairs = sorted({(min(x, y), max(x, y)) for x, y in zip(a0.tolist(), a1.tolist()) if x != y})
    P = np.zeros((len(pairs), k))
    for q, (x, y) in enumerate(pairs):
        if x > 0:
            P[q, x - 1] = 1.0
        if y > 0:
            P[q, y - 1] = -1.0
    ridge = 1e-6  # keeps the Hessian invertible (e.g. without a prior, or agents the games do not connect)

    def evaluate(x):
        d = D @ x if k else np.zeros(len(games))
        theta = x[it] if it is not None else -math.inf
        e_p, e_m = np.exp(np.minimum(d / 2, 350)), np.exp(np.minimum(-d / 2, 350))
        nu = math.exp(theta) if it is not None else 0.0
        z = e_p + nu + e_m
        p_w, p_l, p_d = e_p / z, e_m / z, nu / z
        # (draws without a draw term count as half a win and half a loss)
        ll = np.where(win, d / 2, np.where(draw, theta if it is not None else 0.0, -d / 2)) - np.log(z)
        g_d = np.where(win, 0.5, np.where(draw, 0.0, -0.5)) - 0.5 * (p_w - p_l)
        h_dd = 0.25 * (p_w + p_l - (p_w - p_l) ** 2)
        grad = D.T @ g_d
        hess = (D * h_dd[:, None]).T @ D
        if it is not None:
            grad[it] += float((draw.astype(float) - p_d).sum())
            h_dt = 0.5 * p_d * (p_l - p_w)
            col = D.T @ h_dt
            hess[:, it] += col
            hess[it, :] += col
            hess[it, it] += float((p_d * (1 - p_d)).sum()) - 2 * col[it]  # D[:, it] is 0: col[it] == 0
        ll_total = float(ll.sum())
        # prior: `prior` virtual games scored 1/2 per pair, plain logistic model on delta = r_x - r_y
        lp = 0.0
        if prior > 0 and len(pairs):
            delta = P @ x
            s = 1.0 / (1.0 + np.exp(-delta))
            lp = float(prior * 0.5 * (np.log(s) + np.log1p(-s)).sum())
            grad -= P.T @ (prior * (s - 0.5))
            hess += (P * (prior * s * (1 - s))[:, None]).T @ P
        lp -= 0.5 * ridge * float(x @ x)
        grad -= ridge * x
        hess += ridge * np.eye(k)
        return ll_total, ll_total + lp, grad, hess  # grad of the log-posterior; hess of its negative

    x = np.zeros(k)
    if it is not None:
        x[it] = math.log(max(float(draw.mean()), 1e-3))
    ll, post, grad, hess = evaluate(x)
    for _ in range(200):
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while True:
            nx = x + t * step
            nll, npost, ngrad, nhess = evaluate(nx)
            if npost >= post - 1e-12 or t < 1e-10:
                break
            t *= 0.5
        done = abs(npost - post) < 1e-12 and float(np.abs(nx - x).max()) < 1e-10
        x, ll, post, grad, hess = nx, nll, npost, ngrad, nhess
        if done or float(np.abs(grad).max()) < 1e-9:
            break
    cov_free = np.linalg.inv(hess)
    r = np.zeros(n)
    r[1:] = x[:nr]
    C = np.zeros((n, n))
    C[1:, 1:] = cov_free[:nr, :nr]
    # move the zero to the anchor: r' = T r
    if anchor == "mean":
        T = np.eye(n) - np.full((n, n), 1.0 / n)
    else:
        T = np.eye(n)
        T[:, agents.index(anchor)] -= 1.0
    r, C = T @ r, T @ C @ T.T
    h = float(x[ih]) if ih is not None else 0.0
    h_sd = math.sqrt(max(cov_free[ih, ih], 0.0)) if ih is not None else 0.0
    theta = float(x[it]) if it is not None else -math.inf
    return Fit(agents, r * ELO, h * ELO, theta, ll, C * ELO ** 2, anchor, h_sd * ELO)


def record_game(rec) -> tuple:
    """(side0 agent, side1 agent, result for side 0) from a tournament record."""
    w = rec["winner"]
    res = 0.5 if w == -1 or w is None else (1.0 if w == 0 else 0.0)
    return rec["agents"][0], rec["agents"][1], res


def basis(records, prior: float = DEFAULT_PRIOR) -> dict:
    """What the rating scale rests on: per pairing its games and score, whether the score is perfect (then
    only the prior sets that gap: the games say only that it is large), and the groups of agents joined by
    pairings with mixed results (their gaps are measured by the games)."""
    pair: dict = {}
    for r in records:
        s0, s1, res = record_game(r)
        a, b = sorted((s0, s1))
        p = pair.setdefault((a, b), [0, 0.0])
        p[0] += 1
        p[1] += res if s0 == a else 1 - res
    agents = sorted({a for k in pair for a in k})
    parent = {a: a for a in agents}

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    rows = []
    for (a, b), (n, pts) in sorted(pair.items()):
        perfect = pts in (0.0, float(n))
        rows.append({"agent": a, "opponent": b, "games": n, "score": pts / n, "perfect": perfect})
        if not perfect:
            parent[find(a)] = find(b)
    groups: dict = {}
    for a in agents:
        groups.setdefault(find(a), []).append(a)
    measured = sum(r["games"] for r in rows if not r["perfect"])
    return {"pairings": rows, "groups": sorted(groups.values(), key=lambda g: (-len(g), g)),
            "games": sum(r["games"] for r in rows), "measured_games": measured, "prior": prior}


def rate(records, anchor: str | None = "auto", prior: float = DEFAULT_PRIOR, **_ignored) -> dict:
    """Fit, 95% intervals, the likelihood-of-superiority matrix, neighbour gaps and what the scale rests on."""
    games = [record_game(r) for r in records]
    agents = sorted({g[0] for g in games} | {g[1] for g in games})
    f = fit(games, agents, anchor, prior=prior)
    C, r = f.cov, f.ratings
    out = {"anchor": f.anchor, "agents": agents, "side_advantage_elo": f.side_advantage,
           "side_advantage_ci95": [f.side_advantage - Z95 * f.side_sd, f.side_advantage + Z95 * f.side_sd],
           "draw_theta": f.draw_theta, "games": len(games), "prior_draws": prior,
           "method": "posterior maximum with virtual draws; 95% intervals from the posterior curvature", "ratings": {}}
    for i, a in enumerate(agents):
        sd = math.sqrt(max(C[i, i], 0.0))
        out["ratings"][a] = {"elo": float(r[i]), "ci95": [float(r[i] - Z95 * sd), float(r[i] + Z95 * sd)],
                             "sd": sd}

    def diff_sd(i, j):
        return math.sqrt(max(C[i, i] + C[j, j] - 2 * C[i, j], 1e-12))

    los = {}
    for i, a in enumerate(agents):
        los[a] = {b: _normal_cdf((r[i] - r[j]) / diff_sd(i, j)) for j, b in enumerate(agents) if i != j}
    out["los"] = los
    # neighbour gaps: the difference between each agent and the next one down with the 95% interval of the
    # *difference* (unlike the per-agent intervals it does not depend on the anchor)
    order = sorted(range(len(agents)), key=lambda i: -r[i])
    out["neighbour_gaps"] = [
        {"higher": agents[i], "lower": agents[j], "elo_diff": float(r[i] - r[j]),
         "ci95": [float(r[i] - r[j] - Z95 * diff_sd(i, j)), float(r[i] - r[j] + Z95 * diff_sd(i, j))]}
        for i, j in zip(order, order[1:])]
    out["basis"] = basis(records, prior)
    return out


# ---------------------------------------------------------------------------------------------- SPRT
def expected_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + 10 ** (-elo / 400.0))


def _gsprt(scores: np.ndarray, weights: np.ndarray, elo0: float, elo1: float) -> float:
    n = float(weights.sum())
    if n == 0:
        return 0.0
    x = float((weights * scores).sum() / n)
    var = float((weights * (scores - x) ** 2).sum() / n)
    var = max(var, 1e-3 / max(n, 1.0))  # all results identical: a small variance, not a division by zero
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n / 2.0 * ((x - s0) ** 2 - (x - s1) ** 2) / var


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Generalised SPRT log-likelihood ratio on single games (trinomial, normal approximation, as chess
    engine testers use it): LLR = N/2 * ((x - s0)^2 - (x - s1)^2) / var."""
    return _gsprt(np.array([1.0, 0.5, 0.0]), np.array([wins, draws, losses], dtype=float), elo0, elo1)


def sprt_llr_pairs(pair_points, elo0: float, elo1: float) -> float:
    """The same on game pairs (pentanomial): ``pair_points`` counts pairs by the candidate's points in the
    pair, 0, 0.5, 1, 1.5 and 2.  The two games of a pair share their seed (sides swapped), so their results
    are not independent: the variance of the pair scores accounts for it."""
    return _gsprt(np.array([0.0, 0.25, 0.5, 0.75, 1.0]), np.asarray(pair_points, dtype=float), elo0, elo1)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds: accept H0 at or below the first, H1 at or above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
