"""The rating fit on synthetic data with known strengths, side advantage and draws."""
import math

import numpy as np
import pytest

from evaluation.ratings import ELO, fit, rate, sprt_bounds, sprt_llr

TRUE = {"random": 0.0, "easy": 150.0, "medium": 300.0, "hard": 500.0}


def synth(n_pairs, side_elo=60.0, theta=-0.5, seed=1):
    """Paired games from the Davidson model with the TRUE ratings."""
    rng = np.random.default_rng(seed)
    agents = list(TRUE)
    recs = []
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            for k in range(n_pairs):
                for s0, s1 in ((a, b), (b, a)):
                    d = (TRUE[s0] - TRUE[s1] + side_elo) / ELO
                    pw, pd, pl = math.exp(d / 2), math.exp(theta), math.exp(-d / 2)
                    z = pw + pd + pl
                    u = rng.random()
                    w = 0 if u < pw / z else (-1 if u < (pw + pd) / z else 1)
                    recs.append({"scenario": "s", "agents": [s0, s1], "pair_index": k, "winner": w})
    return recs


def test_fit_recovers_known_strengths_side_and_draws():
    recs = synth(400)
    games = [(r["agents"][0], r["agents"][1], {0: 1.0, -1: 0.5, 1: 0.0}[r["winner"]]) for r in recs]
    f = fit(games, anchor="random")
    got = dict(zip(f.agents, f.ratings))
    assert got["random"] == 0.0
    for a, v in TRUE.items():
        assert abs(got[a] - v) < 30, (a, got[a], v)
    assert abs(f.side_advantage - 60.0) < 20
    assert abs(f.draw_theta - (-0.5)) < 0.15


def test_fit_without_side_advantage_or_draws():
    recs = synth(300, side_elo=0.0, theta=-30.0, seed=5)
    games = [(r["agents"][0], r["agents"][1], {0: 1.0, -1: 0.5, 1: 0.0}[r["winner"]]) for r in recs]
    assert all(g[2] != 0.5 for g in games)
    f = fit(games)
    assert abs(f.side_advantage) < 20
    assert f.draw_theta == -math.inf


def test_bootstrap_intervals_cover_truth_and_order_is_separated():
    out = rate(synth(150, seed=3), bootstrap=60, seed=2)
    r = out["ratings"]
    for a, v in TRUE.items():
        lo, hi = r[a]["ci95"]
        assert lo - 15 <= v <= hi + 15, (a, lo, hi, v)
    order = ["random", "easy", "medium", "hard"]
    for lo_a, hi_a in zip(order, order[1:]):
        assert r[lo_a]["ci95"][1] < r[hi_a]["ci95"][0]
        assert out["los"][hi_a][lo_a] > 0.95
    assert out["los"]["hard"]["easy"] + out["los"]["easy"]["hard"] == pytest.approx(1.0)


def test_perfect_record_stays_finite():
    games = [("a", "random", 1.0), ("random", "a", 0.0)] * 20
    f = fit(games)
    assert np.all(np.isfinite(f.ratings)) and f.ratings[f.agents.index("a")] > 400


def test_sprt_llr_sign_and_bounds():
    lo, hi = sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944, abs=1e-3) and hi == pytest.approx(2.944, abs=1e-3)
    assert sprt_llr(600, 200, 200, 0, 20) > hi  # a clearly stronger agent accepts H1
    assert sprt_llr(300, 400, 300, 0, 20) < 0  # an equal one leans to H0
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0


def test_neighbour_gaps_are_anchor_independent_and_cover_the_true_gaps():
    recs = synth(150, seed=3)
    a = rate(recs, anchor="random", bootstrap=60, seed=2)
    b = rate(recs, anchor="hard", bootstrap=60, seed=2)
    assert [(g["higher"], g["lower"]) for g in a["neighbour_gaps"]] == [("hard", "medium"), ("medium", "easy"),
                                                                        ("easy", "random")]
    for ga, gb in zip(a["neighbour_gaps"], b["neighbour_gaps"]):
        assert ga["elo_diff"] == pytest.approx(gb["elo_diff"], abs=0.5)  # up to the optimiser tolerance
        assert ga["ci95"] == pytest.approx(gb["ci95"], abs=2.0)  # same resamples, same differences
        true = TRUE[ga["higher"]] - TRUE[ga["lower"]]
        assert ga["ci95"][0] - 15 <= true <= ga["ci95"][1] + 15
        assert ga["ci95"][0] > 0  # every true gap (150-200 Elo) is separated by 150 pairs per pairing
