"""Play games between two agents with both agents playing both sides equally.

Game ``i`` is played with the seed ``game_seed(seed, i)`` and agent A on side ``i % 2``.  With an
output folder every finished game is appended to ``OUT/results.jsonl`` as it ends: a stopped run
(Ctrl-C) resumes where it stopped, and a run asked for more games plays only the new ones.  The
summary goes to ``OUT/summary.json`` and ``OUT/report.md``.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
from pathlib import Path

from dustup_env.rules import Game
from .runs import check_ctrl_c

RESULTS = "results.jsonl"
CONFIG = "simulation.json"


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
        check_ctrl_c()  # a Ctrl-C lost on its way up (evaluation.runs.ctrl_c_latched) still stops the run here
        d = g.decision()
        g.apply(agents[d.side].choose(g, d))
        n += 1
        if n > max_decisions:
            raise RuntimeError(f"game with seed {seed} exceeded {max_decisions} decisions")
    return g


def labels(agent_a: str, agent_b: str) -> tuple[str, str]:
    """The two agents' names in the results (``random`` and ``random#2`` when an agent meets itself)."""
    return agent_a, (agent_b if agent_b != agent_a else agent_b + "#2")


def summarise(records: list, name_a: str, name_b: str, scenario_name: str, seed: int, games: int) -> dict:
    wins = {name_a: 0, name_b: 0}
    side_wins = [0, 0]
    draws = 0
    for r in records:
        if r["winner"] in (0, 1):
            side_wins[r["winner"]] += 1
            wins[r["agents"][r["winner"]]] += 1
        else:
            draws += 1
    return {"games": games, "played": len(records), "scenario": scenario_name, "seed": seed, "wins": wins,
            "draws": draws, "losses": {name_a: wins[name_b], name_b: wins[name_a]},
            "side_wins": {"0": side_wins[0], "1": side_wins[1]},
            "mean_decisions": statistics.fmean(r["decisions"] for r in records) if records else 0.0,
            "mean_turns": statistics.fmean(r["turns"] for r in records) if records else 0.0}


def simulate(agent_a: str, agent_b: str, games: int, scenario="default", seed: int = 0,
             options: dict | None = None, progress: bool = True, out: str | Path | None = None) -> dict:
    """``games`` games; game i has ``agent_a`` on side i % 2.  Returns a summary dict.  With ``out``, results
    are kept on disk and the run resumes (see the module doc); Ctrl-C raises
    :class:`evaluation.runs.Interrupted` once the finished games are safe."""
    from agents import make_agent
    from dustup_env.rules.kernel.data import load_scenario

    from .runs import Interrupted, RunMismatch, check_identity, ctrl_c_latched, locked, run_identity

    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    doc = load_scenario(scenario)  # fail fast on a bad scenario or options, before any game or folder
    Game(scenario, seed=0, options=options)
    name_a, name_b = labels(agent_a, agent_b)
    a, b = make_agent(agent_a), make_agent(agent_b)
    done: dict = {}
    fh = None
    lock = None
    if out is not None:
        out = Path(out)
        config = {"agents": [agent_a, agent_b], "scenario": scenario if isinstance(scenario, str) else doc["name"],
                  "seed": seed, "options": dict(options or {})}
        identity = run_identity([agent_a, agent_b], [scenario], options)
        cfg_path = out / CONFIG
        if cfg_path.exists():
            old = json.loads(cfg_path.read_text())
            old_identity = old.pop("identity", None)
            if old != config:
                diff = ", ".join(k for k in config if old.get(k) != config[k])
                raise RunMismatch(f"{out} holds a different simulation (differs in {diff}); use another --out")
            check_identity(out, old_identity, identity)
        elif (out / RESULTS).exists():
            check_identity(out, None, identity)
        out.mkdir(parents=True, exist_ok=True)
        lock = locked(out)
        lock.__enter__()
        cfg_path.write_text(json.dumps(dict(config, identity=identity), indent=1))
        from .runs import drop_partial_line

        drop_partial_line(out / RESULTS)
        if (out / RESULTS).exists():
            for line in (out / RESULTS).read_text().splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue
                done[rec["index"]] = rec
        fh = (out / RESULTS).open("a")
    todo = [i for i in range(games) if i not in done]
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=games, initial=games - len(todo), desc=f"{name_a} vs {name_b}", unit="game",
                   file=sys.stderr, dynamic_ncols=True)
    try:
        with ctrl_c_latched():
            for i in todo:
                a_side = i % 2
                pair = (a, b) if a_side == 0 else (b, a)
                gs = game_seed(seed, i)
                g = play_game(doc, pair, gs, options)
                rec = {"index": i, "agents": [name_a, name_b] if a_side == 0 else [name_b, name_a], "seed": gs,
                       "winner": g.winner if g.winner in (0, 1) else -1, "reason": g.end_reason, "vp": list(g.vp),
                       "turns": g.turn, "decisions": len(g.history)}
                done[i] = rec
                if fh is not None:
                    fh.write(json.dumps(rec) + "\n")
                    fh.flush()
                if bar:
                    bar.update(1)
    except KeyboardInterrupt:
        if bar:
            bar.close()
            bar = None
        raise Interrupted(sum(1 for i in done if i < games), games, out) from None
    finally:
        if bar:
            bar.close()
        if fh is not None:
            fh.close()
        if lock is not None:
            lock.__exit__(None, None, None)
    records = [done[i] for i in range(games)]
    res = summarise(records, name_a, name_b, doc["name"], seed, games)
    if out is not None:
        res["out"] = str(out)
        (out / "summary.json").write_text(json.dumps(res, indent=1))
        (out / "report.md").write_text(report_text(res, agent_a, agent_b, options))
    return res


def table_lines(res: dict) -> list[str]:
    """The plain-text result table (also the body of report.md)."""
    a, b = list(res["wins"])
    lines = [f"{'agent':<12}{'wins':>6}{'draws':>7}{'losses':>8}{'score %':>9}"]
    for n in (a, b):
        score = (res["wins"][n] + 0.5 * res["draws"]) / max(1, res["games"]) * 100
        lines.append(f"{n:<12}{res['wins'][n]:>6}{res['draws']:>7}{res['losses'][n]:>8}{score:>9.1f}")
    lines.append(f"mean length: {res['mean_decisions']:.1f} decisions, {res['mean_turns']:.2f} turns; "
                 f"wins by side: side 0 {res['side_wins']['0']}, side 1 {res['side_wins']['1']}")
    return lines


def report_text(res: dict, agent_a: str, agent_b: str, options: dict | None) -> str:
    opts = json.dumps(options) if options else "the standard rules"
    return "\n".join(["# Simulation", "", f"`dustup simulate --agents {agent_a},{agent_b} --games {res['games']} "
                      f"--scenario {res['scenario']} --seed {res['seed']}`; options: {opts}.", "",
                      f"Game i uses a seed derived from the master seed {res['seed']}, with {agent_a} on side i % 2 "
                      "(each agent plays each side in half the games).", "", "```"] + table_lines(res) + ["```", ""])
