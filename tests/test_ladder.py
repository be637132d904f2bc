"""The scripted ladder: legal, deterministic, fast, and far above random."""
import time

import pytest

from agents import make_agent
from evaluation.simulate import play_game, simulate

LADDER = ["easy", "medium", "hard", "defensive"]


@pytest.mark.parametrize("name", LADDER)
def test_ladder_bot_is_deterministic_and_fast(name):
    t0 = time.perf_counter()
    a = play_game("default", [make_agent(name, 1), make_agent("random", 2)], seed=4)
    dt = time.perf_counter() - t0
    b = play_game("default", [make_agent(name, 1), make_agent("random", 2)], seed=4)
    assert a.history == b.history
    assert dt / len(a.history) < 0.010  # well under 10 ms per decision on average (both agents)


@pytest.mark.parametrize("name", LADDER)
def test_ladder_bot_beats_random(name):
    res = simulate(name, "random", 20, seed=5, progress=False)
    assert res["wins"][name] >= 18, res
