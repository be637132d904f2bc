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


def test_intervals_cover_truth_and_order_is_separated():
    out = rate(synth(150, seed=3))
    r = out["ratings"]
    for a, v in TRUE.items():
        lo, hi = r[a]["ci95"]
        assert lo - 15 <= v <= hi + 15, (a, lo, hi, v)
    order = ["random", "easy", "medium", "hard"]
    for lo_a, hi_a in zip(order, order[1:]):
        assert r[lo_a]["ci95"][1] < r[hi_a]["ci95"][0] or lo_a == "random"
        assert out["los"][hi_a][lo_a] > 0.95
    assert out["los"]["hard"]["easy"] + out["los"]["easy"]["hard"] == pytest.approx(1.0)


def test_intervals_have_their_stated_coverage():
    """Over 40 synthetic tournaments the 95% interval of each gap covers the true gap about 95% of the time."""
    hits = total = 0
    for seed in range(40):
        out = rate(synth(40, seed=100 + seed))
        for g in out["neighbour_gaps"]:
            true = TRUE[g["higher"]] - TRUE[g["lower"]]
            hits += g["ci95"][0] <= true <= g["ci95"][1]
            total += 1
    assert 0.88 <= hits / total <= 1.0, hits / total


def perfect(n, a="a", b="random"):
    """``a`` wins all ``n`` games against ``b`` (paired: both sides)."""
    return [{"scenario": "s", "agents": [a, b] if k % 2 == 0 else [b, a], "pair_index": k // 2,
             "winner": 0 if k % 2 == 0 else 1} for k in range(n)]


def test_perfect_score_gives_a_finite_honest_interval():
    """4/4 and 20/20: finite ratings with intervals that are wide, contain the score's plausible gaps and shrink
    from below as wins accumulate (the prior's virtual draws: 2 per pairing)."""
    r4 = rate(perfect(4))["ratings"]["a"]
    r20 = rate(perfect(20))["ratings"]["a"]
    for r in (r4, r20):
        assert all(np.isfinite(r["ci95"])) and r["ci95"][1] - r["ci95"][0] > 400
    # the prior: 20 wins + 2 virtual draws is a score of 21/22
    assert r20["elo"] == pytest.approx(-400 * math.log10(22 / 21 - 1), abs=40)
    assert r4["elo"] < r20["elo"] and r4["ci95"][0] < r20["ci95"][0]
    # a gap of 300 Elo (score 0.85) is entirely plausible after 4 straight wins: inside the interval
    assert r4["ci95"][0] < 300
    assert rate(perfect(20), prior=0)["ratings"]["a"]["elo"] > 2000  # without a prior: unbounded


def test_anchor_must_have_played_or_be_the_mean():
    recs = synth(20, seed=4)
    assert rate(recs)["anchor"] == "random"
    no_random = [r for r in recs if "random" not in r["agents"]]
    out = rate(no_random)
    assert out["anchor"] == "mean"
    assert sum(v["elo"] for v in out["ratings"].values()) == pytest.approx(0.0, abs=1e-6)
    with pytest.raises(ValueError, match="anchor 'random' did not play"):
        rate(no_random, anchor="random")
    with pytest.raises(ValueError, match="anchor 'nosuch' did not play"):
        rate(recs, anchor="nosuch")
    h = rate(recs, anchor="hard")
    assert h["ratings"]["hard"]["elo"] == 0.0


def test_basis_names_the_perfect_pairings_and_the_measured_groups():
    recs = perfect(20, "a", "random") + perfect(20, "b", "random") + synth(10, seed=2)
    recs = [r for r in recs if set(r["agents"]) <= {"a", "b", "random", "hard", "medium"}]
    mixed = [dict(r, agents=[{"hard": "a", "medium": "b"}.get(x, x) for x in r["agents"]]) for r in recs
             if set(r["agents"]) == {"hard", "medium"}]
    basis = rate(perfect(20, "a", "random") + perfect(20, "b", "random") + mixed)["basis"]
    assert {(p["agent"], p["opponent"]) for p in basis["pairings"] if p["perfect"]} == {("a", "random"),
                                                                                       ("b", "random")}
    assert basis["groups"] == [["a", "b"], ["random"]] and basis["measured_games"] == len(mixed)


def test_outliers_are_the_far_ends_only():
    from evaluation.tournament import _outliers

    assert _outliers([899, 802, 795, 0], [600, 600, 600]) == {3}
    assert _outliers([899, 802, 795, 0], [100, 100, 100]) == {3}
    assert _outliers([300, 200, 100, 0]) == set()
    assert _outliers([2000, 100, 50, 0], [80, 80]) == {0}


def test_sprt_llr_sign_and_bounds():
    lo, hi = sprt_bounds(0.05, 0.05)
    assert lo == pytest.approx(-2.944, abs=1e-3) and hi == pytest.approx(2.944, abs=1e-3)
    assert sprt_llr(600, 200, 200, 0, 20) > hi  # a clearly stronger agent accepts H1
    assert sprt_llr(300, 400, 300, 0, 20) < 0  # an equal one leans to H0
    assert sprt_llr(0, 0, 0, 0, 10) == 0.0


def test_neighbour_gaps_are_anchor_independent_and_cover_the_true_gaps():
    recs = synth(150, seed=3)
    a = rate(recs, anchor="random")
    b = rate(recs, anchor="hard")
    assert [(g["higher"], g["lower"]) for g in a["neighbour_gaps"]] == [("hard", "medium"), ("medium", "easy"),
                                                                        ("easy", "random")]
    for ga, gb in zip(a["neighbour_gaps"], b["neighbour_gaps"]):
        assert ga["elo_diff"] == pytest.approx(gb["elo_diff"], abs=1e-6)
        assert ga["ci95"] == pytest.approx(gb["ci95"], abs=1e-6)
        true = TRUE[ga["higher"]] - TRUE[ga["lower"]]
        assert ga["ci95"][0] - 15 <= true <= ga["ci95"][1] + 15
        assert ga["ci95"][0] > 0  # every true gap (150-200 Elo) is separated by 150 pairs per pairing


def test_gauntlet_score_of_a_perfect_record_has_a_finite_honest_interval():
    """400 wins out of 400: the pair bootstrap cannot show any spread; the interval is Wilson's over the pairs."""
    from training.gauntlet import _score_ci

    recs = perfect(400, "learner", "random")
    s = _score_ci(recs, "learner", "random", 200, 0)
    assert s["score"] == 1.0 and s["ci95"][1] == 1.0 and 0.97 < s["ci95"][0] < 0.99
    few = _score_ci(perfect(4, "learner", "random"), "learner", "random", 200, 0)
    assert few["ci95"][0] < 0.5  # two perfect pairs say little
