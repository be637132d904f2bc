"""Round-robin and gauntlet tournaments: paired games, concurrency, caps, resumable results, reports.

Every pairing plays ``games`` games per scenario as ``games / 2`` *pairs*: the two games of pair
``k`` use the same game seed (derived from the master seed and ``k``) with the sides swapped, so
side and dice luck cancel.  Results are appended, one JSON line per game, to ``results.jsonl`` in
the output folder; re-running the same command skips every game already recorded (a stopped
tournament resumes where it stopped) and gives the same final ratings as an uninterrupted run.

Adjudication: an agent that raises, returns an illegal option or exceeds the per-decision time cap
loses (the reason is recorded); a game that reaches the decision cap is a draw ("step cap").
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from agents import make_agent
from dustup_env.rules import Game
from dustup_env.rules.kernel.data import load_scenario

from .simulate import game_seed

RESULTS = "results.jsonl"
CONFIG = "tournament.json"


def schedule(agents: list[str], scenarios: list[str], games: int, seed: int, gauntlet: str | None = None) -> list:
    """All games of the tournament, in a stable order."""
    pairs_per = max(1, (games + 1) // 2)
    if gauntlet:
        pairings = [(gauntlet, b) for b in agents if b != gauntlet]
    else:
        pairings = [(a, b) for i, a in enumerate(agents) for b in agents[i + 1:]]
    tasks = []
    for sc in scenarios:
        for a, b in pairings:
            for k in range(pairs_per):
                gs = game_seed(seed, k)
                for swap in (0, 1):
                    side0, side1 = (a, b) if swap == 0 else (b, a)
                    tasks.append({"key": f"{sc}|{a}|{b}|{k}|{swap}", "scenario": sc, "agents": [side0, side1],
                                  "pair_index": k, "seed": gs})
    return tasks


def play_task(task: dict, max_decisions: int = 20000, decision_time: float = 5.0, save_replay: bool = False) -> dict:
    """Play one scheduled game with adjudication; returns the result record (plain data)."""
    t0 = time.perf_counter()
    g = Game(task["scenario"], seed=task["seed"])
    agents = [make_agent(task["agents"][s], seed=task["seed"] * 2 + s) for s in (0, 1)]
    for s, a in enumerate(agents):
        a.reset(task["seed"] * 2 + s)
    winner, reason = None, ""
    slowest = [0.0, 0.0]
    while not g.over:
        if len(g.history) >= max_decisions:
            winner, reason = -1, "step cap"
            break
        d = g.decision()
        s = d.side
        ts = time.perf_counter()
        try:
            opt = agents[s].choose(g, d)
        except Exception as e:  # a crashing agent forfeits
            winner, reason = 1 - s, f"crash of {task['agents'][s]}: {type(e).__name__}: {e}"
            break
        dt = time.perf_counter() - ts
        slowest[s] = max(slowest[s], dt)
        if dt > decision_time:
            winner, reason = 1 - s, f"timeout of {task['agents'][s]}: {dt:.3f}s > {decision_time}s"
            break
        if opt is None or tuple(opt) not in d.options:
            winner, reason = 1 - s, f"illegal option from {task['agents'][s]}: {opt!r}"
            break
        g.apply(opt)
    if winner is None:
        winner, reason = g.winner, g.end_reason
    rec = dict(task)
    rec.update(winner=winner, reason=reason, vp=list(g.vp), turns=g.turn, decisions=len(g.history),
               seconds=round(time.perf_counter() - t0, 4), slowest_decision=[round(x, 5) for x in slowest])
    if save_replay and g.over:
        rec["replay"] = g.to_dict()
    return rec


def _worker(args):
    task, max_decisions, decision_time, save_replay = args
    return play_task(task, max_decisions, decision_time, save_replay)


def _drop_partial_line(p: Path) -> None:
    """A kill can leave the last line half written: cut it so appended records start on a new line."""
    if not p.exists():
        return
    data = p.read_bytes()
    if data and not data.endswith(b"\n"):
        p.write_bytes(data[: data.rfind(b"\n") + 1])


def load_results(out: Path) -> dict:
    done = {}
    p = out / RESULTS
    if p.exists():
        with p.open() as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by a kill: that game is replayed
                done[rec["key"]] = rec
    return done


def run(agents: list[str], scenarios: list[str], games: int, out: str | Path, seed: int = 0,
        gauntlet: str | None = None, concurrency: int | None = None, backend: str = "local",
        max_decisions: int = 20000, decision_time: float = 5.0, replays: int = 0, progress: bool = True) -> list:
    """Run (or resume) a tournament; returns every game record."""
    for a in set(agents) | ({gauntlet} if gauntlet else set()):
        make_agent(a)  # fail fast on unknown agents
    for sc in scenarios:
        load_scenario(sc)
    if gauntlet and gauntlet not in agents:
        agents = [gauntlet] + list(agents)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    config = {"agents": agents, "scenarios": scenarios, "games": games, "seed": seed, "gauntlet": gauntlet,
              "max_decisions": max_decisions}
    cfg_path = out / CONFIG
    if cfg_path.exists():
        old = json.loads(cfg_path.read_text())
        if old != config:
            raise ValueError(f"{out} holds a different tournament ({old}); use another --out folder to start anew")
    else:
        cfg_path.write_text(json.dumps(config, indent=1))
    tasks = schedule(agents, scenarios, games, seed, gauntlet)
    _drop_partial_line(out / RESULTS)
    done = load_results(out)
    todo = [t for t in tasks if t["key"] not in done]
    replay_keys = {t["key"] for t in tasks[:replays]}
    if replays:
        (out / "replays").mkdir(exist_ok=True)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), desc="tournament", unit="game", file=sys.stderr)
    concurrency = concurrency or os.cpu_count() or 1
    args = [(t, max_decisions, decision_time, t["key"] in replay_keys) for t in todo]
    with (out / RESULTS).open("a") as fh:
        def record(rec):
            rep = rec.pop("replay", None)
            if rep is not None:
                name = rec["key"].replace("|", "_") + ".json"
                (out / "replays" / name).write_text(json.dumps(rep))
                rec["replay_file"] = f"replays/{name}"
            fh.write(json.dumps(rec) + "\n")
            fh.flush()
            done[rec["key"]] = rec
            if bar:
                bar.update(1)

        if concurrency <= 1 or len(args) <= 1:
            for a in args:
                record(_worker(a))
        else:
            pool = _pool(backend, concurrency)
            try:
                for rec in pool.imap_unordered(_worker, args, chunksize=max(1, len(args) // (concurrency * 8))):
                    record(rec)
            finally:
                pool.close()
                pool.join()
    if bar:
        bar.close()
    return [done[t["key"]] for t in tasks]


def _pool(backend: str, n: int):
    if backend == "ray":
        try:
            from ray.util.multiprocessing import Pool
        except ImportError:
            raise RuntimeError("--backend ray needs the optional extra: pip install 'dustup-ai[ray]'") from None
        return Pool(processes=n)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}: local or ray")
    import multiprocessing as mp

    return mp.get_context("fork").Pool(processes=n)


# ---------------------------------------------------------------------------------------------- report
def wdl_table(records) -> list[dict]:
    """Raw W/D/L per pairing and per side of the first-named agent."""
    rows: dict = {}
    for r in records:
        a, b = sorted(r["agents"])
        row = rows.setdefault((r["scenario"], a, b), {"scenario": r["scenario"], "agent": a, "opponent": b,
                                                      "as_side0": [0, 0, 0], "as_side1": [0, 0, 0]})
        side_of_a = r["agents"].index(a)
        w = r["winner"]
        k = 1 if w in (-1, None) else (0 if w == side_of_a else 2)
        row["as_side0" if side_of_a == 0 else "as_side1"][k] += 1
    return list(rows.values())


def score_matrix(records, agents) -> list[list]:
    idx = {a: i for i, a in enumerate(agents)}
    pts = [[0.0] * len(agents) for _ in agents]
    n = [[0] * len(agents) for _ in agents]
    for r in records:
        s0, s1 = r["agents"]
        w = r["winner"]
        sc0 = 0.5 if w in (-1, None) else (1.0 if w == 0 else 0.0)
        i, j = idx[s0], idx[s1]
        pts[i][j] += sc0
        pts[j][i] += 1 - sc0
        n[i][j] += 1
        n[j][i] += 1
    return [[(pts[i][j] / n[i][j]) if n[i][j] else None for j in range(len(agents))] for i in range(len(agents))]


def report(records, out: str | Path, anchor: str = "random", bootstrap: int = 200, seed: int = 0) -> dict:
    """Write report.md, ratings.json, scores.png and ratings.png; return the ratings object."""
    from .ratings import rate

    out = Path(out)
    ratings = rate(records, anchor=anchor, bootstrap=bootstrap, seed=seed)
    agents = sorted(ratings["ratings"], key=lambda a: -ratings["ratings"][a]["elo"])
    matrix = score_matrix(records, agents)
    forfeits = [{"key": r["key"], "reason": r["reason"]} for r in records
                if r["reason"].startswith(("crash", "timeout", "illegal"))]
    obj = dict(ratings)
    obj.update(order=agents, score_matrix=matrix, wdl=wdl_table(records), forfeits=forfeits,
               mean_decisions=sum(r["decisions"] for r in records) / max(1, len(records)))
    (out / "ratings.json").write_text(json.dumps(obj, indent=1))
    _plots(obj, out)
    lines = ["# Tournament report", "", f"{len(records)} games; anchor `{anchor}` = 0 Elo; "
             f"side-0 advantage {ratings['side_advantage_elo']:+.1f} Elo; 95% intervals from a bootstrap over "
             f"paired games ({bootstrap} resamples).", "", "| rank | agent | Elo | 95% CI |", "| --- | --- | --- | --- |"]
    for i, a in enumerate(agents):
        r = ratings["ratings"][a]
        lines.append(f"| {i + 1} | {a} | {r['elo']:+.0f} | [{r['ci95'][0]:+.0f}, {r['ci95'][1]:+.0f}] |")
    lines += ["", "## Neighbour gaps (anchor-independent)", "",
              "Elo difference between each agent and the next one down, with the 95% interval of the difference "
              "over the same bootstrap resamples; an interval above 0 separates the two.", "",
              "| higher | lower | Elo difference | 95% CI |", "| --- | --- | --- | --- |"]
    for g in ratings["neighbour_gaps"]:
        lines.append(f"| {g['higher']} | {g['lower']} | {g['elo_diff']:+.0f} | [{g['ci95'][0]:+.0f}, {g['ci95'][1]:+.0f}] |")
    lines += ["", "## Likelihood of superiority (row better than column)", "",
              "| | " + " | ".join(agents) + " |", "|---" * (len(agents) + 1) + "|"]
    for a in agents:
        lines.append(f"| {a} | " + " | ".join("-" if a == b else f"{ratings['los'][a][b]:.2f}" for b in agents) + " |")
    lines += ["", "## Score of row against column", "", "| | " + " | ".join(agents) + " |",
              "|---" * (len(agents) + 1) + "|"]
    for i, a in enumerate(agents):
        lines.append(f"| {a} | " + " | ".join("-" if v is None else f"{v:.2f}" for v in matrix[i]) + " |")
    lines += ["", "## W/D/L per pairing and side", "", "| scenario | agent | opponent | as side 0 (W/D/L) | "
              "as side 1 (W/D/L) |", "| --- | --- | --- | --- | --- |"]
    for row in obj["wdl"]:
        lines.append(f"| {row['scenario']} | {row['agent']} | {row['opponent']} | "
                     f"{'/'.join(map(str, row['as_side0']))} | {'/'.join(map(str, row['as_side1']))} |")
    if forfeits:
        lines += ["", "## Forfeits", ""] + [f"- {f['key']}: {f['reason']}" for f in forfeits]
    lines += ["", "![scores](scores.png)", "", "![ratings](ratings.png)", ""]
    (out / "report.md").write_text("\n".join(lines))
    return obj


def _plots(obj, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    agents = obj["order"]
    m = np.array([[np.nan if v is None else v for v in row] for row in obj["score_matrix"]], dtype=float)
    fig, ax = plt.subplots(figsize=(1.2 + 0.9 * len(agents), 1 + 0.8 * len(agents)))
    im = ax.imshow(m, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(len(agents)), agents, rotation=45, ha="right")
    ax.set_yticks(range(len(agents)), agents)
    for i in range(len(agents)):
        for j in range(len(agents)):
            if not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=9)
    ax.set_title("score of row vs column")
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    fig.savefig(out / "scores.png", dpi=100)
    plt.close(fig)
    elo = [obj["ratings"][a]["elo"] for a in agents]
    lo = [obj["ratings"][a]["elo"] - obj["ratings"][a]["ci95"][0] for a in agents]
    hi = [obj["ratings"][a]["ci95"][1] - obj["ratings"][a]["elo"] for a in agents]
    fig, ax = plt.subplots(figsize=(6, 1 + 0.5 * len(agents)))
    y = list(range(len(agents)))[::-1]
    ax.errorbar(elo, y, xerr=[lo, hi], fmt="o", capsize=4)
    ax.set_yticks(y, agents)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"Elo ({obj['anchor']} = 0), 95% bootstrap CI")
    fig.tight_layout()
    fig.savefig(out / "ratings.png", dpi=100)
    plt.close(fig)
