"""The scripted ladder: legal, deterministic, fast, far above random, graded, and safe on unknown decisions."""
import time

import pytest

from agents import make_agent
from agents.base import GuardedAgent, default_option
from dustup_env.rules import Game
from dustup_env.rules import Decision
from evaluation.simulate import game_seed, play_game, simulate

LADDER = ["easy", "medium", "hard", "defensive"]


def _timed_game(names, seed):
    """Play one game; returns (game, agents, {side: [seconds, decisions]}) timing each agent's own choices."""
    g = Game("default", seed=seed)
    agents = [make_agent(n, seed * 2 + s) for s, n in enumerate(names)]
    for s, a in enumerate(agents):
        a.reset(seed * 2 + s)
    clock = {0: [0.0, 0], 1: [0.0, 0]}
    while not g.over:
        d = g.decision()
        t0 = time.perf_counter()
        opt = agents[d.side].choose(g, d)
        clock[d.side][0] += time.perf_counter() - t0
        clock[d.side][1] += 1
        g.apply(opt)
    return g, agents, clock


@pytest.mark.parametrize("name", LADDER)
def test_ladder_bot_is_deterministic_fast_and_never_falls_back(name):
    a, agents, clock = _timed_game([name, "medium"], seed=4)
    b, _, _ = _timed_game([name, "medium"], seed=4)
    assert a.history == b.history and a.state_digest() == b.state_digest()
    secs, n = clock[0]
    assert n > 20 and secs / n < 0.010  # well under 10 ms per decision on average (measured < 1 ms)
    assert [x.fallbacks for x in agents] == [0, 0]  # every decision of a real game is understood


@pytest.mark.parametrize("name", LADDER)
def test_ladder_bot_beats_random(name):
    res = simulate(name, "random", 20, seed=5, progress=False)
    assert res["wins"][name] >= 18, res


def _paired_score(a, b, pairs, seed):
    pts = 0.0
    for k in range(pairs):
        gs = game_seed(seed, k)
        for names in ((a, b), (b, a)):
            g = play_game("default", [make_agent(n) for n in names], seed=gs)
            side = names.index(a)
            pts += 0.5 if g.winner not in (0, 1) else float(g.winner == side)
    return pts / (2 * pairs)


@pytest.mark.parametrize("strong,weak", [("medium", "easy"), ("hard", "medium")])
def test_ladder_is_graded(strong, weak):
    # measured over 600-800 paired games: medium 0.74 against easy, hard 0.82 against medium
    assert _paired_score(strong, weak, 15, seed=3) >= 0.6


def _unknown_decisions(game):
    g = game
    u = g.units[g.side_units[0][1]]
    return [
        Decision(0, "grenade_target", -1, (("throw", 5, 1.5), ("decline",))),
        Decision(0, "abandon_wounded", u.uid, (("abandon", u.uid), ("carry",))),
        Decision(0, "action", u.uid, (("assault", 5, 6), ("place_figure", 3, 2.0, 4.0), ("end",))),
        Decision(0, "action", u.uid, (("support_alone",), ("shoot", 5), ("move", 3))),
        Decision(0, "action", 999, (("end",), ("prop",))),  # a unit the bot cannot look up
        Decision(0, "activate", -1, (("activate",), ("pass",))),
        Decision(0, "promote", -1, (("choose",), ("decline",))),
    ]


@pytest.mark.parametrize("name", LADDER + ["scripted"])
def test_unknown_decisions_fall_back_to_a_legal_option(name):
    g = Game("default", seed=1)
    bot = make_agent(name, 0)
    bot.reset(0)
    for d in _unknown_decisions(g):
        opt = bot.choose(g, d)
        assert tuple(opt) in d.options, (d, opt)


def test_guarded_agent_fallback_is_counted():
    class Broken(GuardedAgent):
        def decide(self, game, d):
            raise KeyError("new rule")

    g = Game("default", seed=1)
    bot = Broken()
    d = g.decision()
    assert bot.choose(g, d) == default_option(d) and bot.fallbacks == 1
    assert default_option(Decision(0, "x", -1, (("a",), ("end",)))) == ("end",)
    assert default_option(Decision(0, "x", -1, (("a",), ("b",)))) == ("a",)
