"""Play games between agents with both agents playing both sides equally."""
from __future__ import annotations

import random
import statistics
import sys

from agents import make_agent
from dustup_env.rules import Game


def game_seed(master: int, index: int) -> int:
    """Per-game seed derived from one master seed (stable across Python versions)."""
    return random.Random(master * 1_000_003 + index).getrandbits(63)


def play_game(scenario, agents, seed: int, options: dict | None = None, max_decisions: int = 100_000) -> Game:
    """Play one game; ``agents[s]`` plays side ``s``.  Returns the finished game."""
    g = Game(scenario, seed=seed, options=options)
    for s, a in enumerate(agents):
        a.reset(seed * 2 + s)
    n = 0
    while not g.over:
        d = g.decision()
        g.apply(agents[d.side].choose(g, d))
        n += 1
        if n > max_decisions:
            raise RuntimeError(f"game with seed {seed} exceeded {max_decisions} decisions")
    return g


def simulate(agent_a: str, agent_b: str, games: int, scenario="default", seed: int = 0,
             options: dict | None = None, progress: bool = True) -> dict:
    """``games`` games; game i has ``agent_a`` on side i % 2.  Returns a summary dict."""
    from dustup_env.rules.kernel.data import load_scenario

    scenario = load_scenario(scenario)  # fail fast on a bad scenario, before any game
    name_a, name_b = agent_a, agent_b if agent_b != agent_a else agent_b + "#2"
    a, b = make_agent(agent_a), make_agent(agent_b)
    wins = {name_a: 0, name_b: 0}
    side_wins = [0, 0]
    draws = 0
    lengths, turns = [], []
    it = range(games)
    if progress:
        from tqdm import tqdm

        it = tqdm(it, desc=f"{name_a} vs {name_b}", unit="game", file=sys.stderr)
    for i in it:
        a_side = i % 2
        pair = (a, b) if a_side == 0 else (b, a)
        g = play_game(scenario, pair, game_seed(seed, i), options)
        lengths.append(len(g.history))
        turns.append(g.turn)
        if g.winner in (0, 1):
            side_wins[g.winner] += 1
            wins[name_a if g.winner == a_side else name_b] += 1
        else:
            draws += 1
    return {"games": games, "scenario": scenario["name"],
            "seed": seed, "wins": wins, "draws": draws,
            "losses": {name_a: wins[name_b], name_b: wins[name_a]},
            "side_wins": {"0": side_wins[0], "1": side_wins[1]},
            "mean_decisions": statistics.fmean(lengths) if lengths else 0.0,
            "mean_turns": statistics.fmean(turns) if turns else 0.0}
