"""Round-robin and gauntlet tournaments: paired games, concurrency, caps, resumable results, reports.

Every pairing plays ``games`` games per scenario as ``games / 2`` *pairs*: the two games of pair
``k`` use the same game seed (derived from the master seed and ``k``) with the sides swapped, so
side and dice luck cancel.  Results are appended, one JSON line per game, to ``results.jsonl`` in
the output folder; re-running the same command skips every game already recorded (a stopped
tournament resumes where it stopped) and gives the same final ratings as an uninterrupted run.

Adjudication: an agent that raises, returns an illegal option or exceeds the per-decision time cap
loses (the reason is recorded); a game that reaches the decision cap is a draw ("step cap").

A folder holds one tournament (agents, scenarios, seed, options, caps, and what decides the games besides:
the engine's version and rules digest, each scenario's content, each agent's code or model file, see
:func:`evaluation.runs.run_identity`; a folder of another engine, scenario or model is refused); ``games`` may grow between
runs (the new pairs are played, the recorded ones kept: ``dustup sprt`` extends its tournament batch by
batch this way).  Ctrl-C stops at once: the workers ignore SIGINT and are ended, every finished game is
already on disk, and :class:`Interrupted` tells how many; the same command resumes.
"""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from agents import make_agent
from dustup_env.agent_registry import unfamiliar
from dustup_env.rules import Game
from dustup_env.rules.kernel.data import load_scenario

from .runs import (Interrupted, RunMismatch, check_ctrl_c, check_identity, ctrl_c_latched, drop_partial_line,  # noqa: F401  (Interrupted: raised here)
                   locked, run_identity)
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


def play_task(task: dict, max_decisions: int = 20000, decision_time: float = 5.0, save_replay: bool = False,
              options: dict | None = None) -> dict:
    """Play one scheduled game with adjudication; returns the result record (plain data)."""
    t0 = time.perf_counter()
    g = Game(task["scenario"], seed=task["seed"], options=options or None)
    agents = [make_agent(task["agents"][s], seed=task["seed"] * 2 + s) for s in (0, 1)]
    for s, a in enumerate(agents):
        a.reset(task["seed"] * 2 + s)
    winner, reason = None, ""
    slowest = [0.0, 0.0]
    while not g.over:
        if len(g.history) >= max_decisions:
            winner, reason = -1, "step cap"
            break
        check_ctrl_c()  # a Ctrl-C lost on its way up (see ctrl_c_latched) still stops the run here
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
    task, max_decisions, decision_time, save_replay, options = args
    return play_task(task, max_decisions, decision_time, save_replay, options)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the parent's to handle: it ends the workers


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


def need_backend(backend: str) -> None:
    """Refuse a backend that cannot run here, before anything starts (``ray`` needs its extra)."""
    if backend == "ray":
        try:
            import ray.util.multiprocessing  # noqa: F401
        except ImportError:
            raise ModuleNotFoundError("--backend ray needs the package ray, which is not installed: "
                                      "pip install 'dustup-ai[ray]'", name="ray") from None
    elif backend != "local":
        raise ValueError(f"unknown backend {backend!r}: local or ray")


def check(agents: list[str], scenarios: list[str], games: int, gauntlet: str | None = None,
          options: dict | None = None, backend: str = "local") -> None:
    """Fail fast (before any folder is made) on unknown agents, bad scenarios or options, no games, or a
    backend that cannot run."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    need_backend(backend)
    if not scenarios:
        raise ValueError("no scenario given")
    for a in dict.fromkeys(list(agents) + ([gauntlet] if gauntlet else [])):
        make_agent(a)
    for sc in scenarios:
        load_scenario(sc)
        Game(sc, seed=0, options=options or None)  # the engine validates the options against the scenario


def notes(agents: list[str], scenarios: list[str], options: dict | None = None) -> list[str]:
    """What each agent says it was not trained or written for, per scenario (``Agent.unfamiliar``): one line each."""
    out = []
    for sc in scenarios:
        game = Game(sc, seed=0, options=options or None)
        for a in dict.fromkeys(agents):
            note = unfamiliar(make_agent(a), game)
            if note:
                out.append(f"{sc}: {note}")
    return out


def run(agents: list[str], scenarios: list[str], games: int, out: str | Path, seed: int = 0,
        gauntlet: str | None = None, concurrency: int | None = None, backend: str = "local",
        max_decisions: int = 20000, decision_time: float = 5.0, replays: int = 0, progress: bool = True,
        options: dict | None = None, desc: str = "tournament") -> list:
    """Run (or resume, or extend to more games) a tournament; returns every game record of the schedule.
    Ctrl-C raises :class:`Interrupted` once the finished games are safe on disk."""
    check(agents, scenarios, games, gauntlet, options, backend)
    if progress:
        for note in notes(agents + ([gauntlet] if gauntlet else []), scenarios, options):
            print(f"note: {note}", file=sys.stderr)
    if gauntlet and gauntlet not in agents:
        agents = [gauntlet] + list(agents)
    out = Path(out)
    config = {"agents": list(agents), "scenarios": list(scenarios), "seed": seed, "gauntlet": gauntlet,
              "max_decisions": max_decisions, "options": dict(options or {})}
    identity = run_identity(list(agents), list(scenarios), options)
    cfg_path = out / CONFIG
    if cfg_path.exists():
        old = json.loads(cfg_path.read_text())
        old.pop("games", None)  # games may grow: more pairs of the same tournament
        old_identity = old.pop("identity", None)
        old.setdefault("options", {})
        if old != config:
            diff = ", ".join(k for k in config if old.get(k) != config[k])
            raise RunMismatch(f"{out} holds a different tournament (differs in {diff}); use another --out folder "
                              "to start anew")
        check_identity(out, old_identity, identity)
    elif (out / RESULTS).exists():
        check_identity(out, None, identity)  # games without a record of what played them
    out.mkdir(parents=True, exist_ok=True)
    with locked(out):
        if not cfg_path.exists():
            cfg_path.write_text(json.dumps(dict(config, identity=identity), indent=1))
        return _run(agents, scenarios, games, out, seed, gauntlet, concurrency, backend, max_decisions,
                    decision_time, replays, progress, options, desc)


def _run(agents, scenarios, games, out, seed, gauntlet, concurrency, backend, max_decisions, decision_time,
         replays, progress, options, desc) -> list:
    tasks = schedule(agents, scenarios, games, seed, gauntlet)
    drop_partial_line(out / RESULTS)
    done = load_results(out)
    todo = [t for t in tasks if t["key"] not in done]
    replay_keys = {t["key"] for t in tasks[:replays]}
    if replays:
        (out / "replays").mkdir(exist_ok=True)
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), desc=desc, unit="game", file=sys.stderr,
                   dynamic_ncols=True)
    concurrency = concurrency or os.cpu_count() or 1
    args = [(t, max_decisions, decision_time, t["key"] in replay_keys, options or None) for t in todo]
    keys = {t["key"] for t in tasks}
    try:
        with ctrl_c_latched(), (out / RESULTS).open("a") as fh:
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
                    # one game per task: a game takes far longer than handing it over, and with chunks of many
                    # games the progress bar stood still (and a Ctrl-C lost) until a whole chunk was played
                    for rec in pool.imap_unordered(_worker, args, chunksize=1):
                        record(rec)
                except BaseException:
                    pool.terminate()  # the workers ignore SIGINT: end them now, their unfinished games are lost
                    pool.join()
                    raise
                pool.close()
                pool.join()
    except KeyboardInterrupt:
        if bar:
            bar.close()
            bar = None
        raise Interrupted(sum(1 for k in done if k in keys), len(tasks), out) from None
    finally:
        if bar:
            bar.close()
    return [done[t["key"]] for t in tasks]


def _pool(backend: str, n: int):
    if backend == "ray":
        try:
            from ray.util.multiprocessing import Pool
        except ImportError:
            raise RuntimeError("--backend ray needs the optional extra: pip install 'dustup-ai[ray]'") from None
        return Pool(processes=n, initializer=_ignore_sigint)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}: local or ray")
    import multiprocessing as mp

    return mp.get_context("fork").Pool(processes=n, initializer=_ignore_sigint)


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


def anchor_words(anchor: str, n_agents: int) -> str:
    return f"the mean of the {n_agents} agents = 0 Elo" if anchor == "mean" else f"`{anchor}` = 0 Elo"


def basis_lines(basis: dict) -> list[str]:
    """The report's paragraph on what the rating scale rests on."""
    rows = basis["pairings"]
    perfect = [r for r in rows if r["perfect"]]
    lines = [f"The ratings rest on {basis['games']} games in {len(rows)} pairings plus a prior of "
             f"{basis['prior']:g} virtual draws per pairing. "
             f"{basis['measured_games']} of the games are in pairings with mixed results: those measure their gaps."]
    if perfect:
        lines += ["", f"{len(perfect)} pairing(s) ended with a perfect score; those games only say that the gap is "
                  "large, and the prior sets how large (more games raise it): "
                  + ", ".join(f"{r['agent']}-{r['opponent']} {r['score'] * r['games']:g}/{r['games']}"
                              for r in perfect) + "."]
    groups = basis["groups"]
    if len(groups) > 1:
        lines += ["", "Groups of agents joined by measured gaps (between groups, only perfect scores and the prior): "
                  + "; ".join("{" + ", ".join(g) + "}" for g in groups) + "."]
    return lines


def report(records, out: str | Path, anchor: str | None = "auto", prior: float | None = None, **_ignored) -> dict:
    """Write report.md, ratings.json, scores.png and ratings.png; return the ratings object."""
    from .ratings import DEFAULT_PRIOR, rate

    out = Path(out)
    ratings = rate(records, anchor=anchor, prior=DEFAULT_PRIOR if prior is None else prior)
    anchor = ratings["anchor"]
    agents = sorted(ratings["ratings"], key=lambda a: -ratings["ratings"][a]["elo"])
    matrix = score_matrix(records, agents)
    forfeits = [{"key": r["key"], "reason": r["reason"]} for r in records
                if r["reason"].startswith(("crash", "timeout", "illegal"))]
    obj = dict(ratings)
    obj.update(order=agents, score_matrix=matrix, wdl=wdl_table(records), forfeits=forfeits,
               mean_decisions=sum(r["decisions"] for r in records) / max(1, len(records)))
    (out / "ratings.json").write_text(json.dumps(obj, indent=1))
    from .runs import draw_or_warn

    have_mpl = _have_matplotlib()
    plots = have_mpl and draw_or_warn(_plots, obj, out, what="scores.png / ratings.png")
    side = ratings["side_advantage_elo"]
    lines = ["# Tournament report", "",
             f"{len(records)} games; {anchor_words(anchor, len(agents))}; side-0 advantage {side:+.0f} Elo "
             f"[{ratings['side_advantage_ci95'][0]:+.0f}, {ratings['side_advantage_ci95'][1]:+.0f}]. Ratings: the "
             f"posterior maximum of a Bradley-Terry model with side and draw terms and {ratings['prior_draws']:g} "
             "virtual draws per pairing; 95% intervals from the posterior's curvature (independent games assumed).",
             "", "| rank | agent | Elo | 95% CI |", "| --- | --- | --- | --- |"]
    for i, a in enumerate(agents):
        r = ratings["ratings"][a]
        lines.append(f"| {i + 1} | {a} | {r['elo']:+.0f} | [{r['ci95'][0]:+.0f}, {r['ci95'][1]:+.0f}] |")
    lines += ["", "## What the scale rests on", ""] + basis_lines(ratings["basis"])
    lines += ["", "## Neighbour gaps (anchor-independent)", "",
              "Elo difference between each agent and the next one down, with the 95% interval of the difference; "
              "an interval above 0 separates the two.", "",
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
    if plots:
        lines += ["", "![scores](scores.png)", "", "![ratings](ratings.png)", ""]
    elif have_mpl:
        lines += ["", "(No plots: drawing them failed; the ratings above are unaffected.)", ""]
    else:
        lines += ["", "(No plots: they need matplotlib, `pip install 'dustup-ai[plots]'`.)", ""]
    (out / "report.md").write_text("\n".join(lines))
    return obj


def _outliers(elo: list[float], widths: list[float] | None = None) -> set[int]:
    """Indices of ratings so far from the rest that one axis would squeeze the others together: the ends of
    the sorted list cut off by a gap larger than half the whole span, than the span of what is left and than
    the typical width of the 95% intervals."""
    import statistics

    typical = statistics.median(widths) if widths else 0.0
    order = sorted(range(len(elo)), key=lambda i: elo[i])
    lo, hi = 0, len(order) - 1
    out: set[int] = set()
    while hi - lo >= 2:
        span = elo[order[hi]] - elo[order[lo]]
        low_gap = elo[order[lo + 1]] - elo[order[lo]]
        high_gap = elo[order[hi]] - elo[order[hi - 1]]
        rest_low = elo[order[hi]] - elo[order[lo + 1]]
        rest_high = elo[order[hi - 1]] - elo[order[lo]]
        if low_gap >= high_gap and low_gap > max(rest_low, typical, 50.0) and low_gap > 0.5 * span:
            out.add(order[lo])
            lo += 1
        elif high_gap > max(rest_high, typical, 50.0) and high_gap > 0.5 * span:
            out.add(order[hi])
            hi -= 1
        else:
            break
    return out


def _have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _plots(obj, out: Path) -> None:
    """scores.png and ratings.png (needs matplotlib)."""
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
    _ratings_plot(obj, out / "ratings.png")


def _ratings_plot(obj, path: Path) -> None:
    """Ratings with their 95% intervals, best at the top.  An agent far from the rest (e.g. ``random`` a
    thousand Elo below) is drawn at the edge with its value written out, so the others keep a readable axis."""
    import matplotlib.pyplot as plt

    agents = obj["order"]
    R = obj["ratings"]
    elo = [R[a]["elo"] for a in agents]
    far = _outliers(elo, [R[a]["ci95"][1] - R[a]["ci95"][0] for a in agents if R[a]["ci95"][1] > R[a]["ci95"][0]])
    near = [i for i in range(len(agents)) if i not in far] or list(range(len(agents)))
    lo_x = min(R[agents[i]]["ci95"][0] for i in near)
    hi_x = max(R[agents[i]]["ci95"][1] for i in near)
    pad = max(20.0, 0.08 * (hi_x - lo_x))
    lo_x, hi_x = lo_x - pad, hi_x + pad
    if far:
        mid = (lo_x + hi_x) / 2
        if any(elo[i] < mid for i in far):
            lo_x -= 0.25 * (hi_x - lo_x)
        if any(elo[i] >= mid for i in far):
            hi_x += 0.25 * (hi_x - lo_x)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.45 * len(agents)))
    y = list(range(len(agents)))[::-1]
    for i, a in enumerate(agents):
        lo, hi = R[a]["ci95"]
        if i in far:
            x = lo_x if elo[i] < lo_x else hi_x
            ax.plot([x], [y[i]], marker="<" if x == lo_x else ">", color="tab:red", ms=9, clip_on=False)
            ax.annotate(f"{a} {elo[i]:+.0f} [{lo:+.0f}, {hi:+.0f}] (off the scale)", (x, y[i]),
                        xytext=(8 if x == lo_x else -8, 6), textcoords="offset points", fontsize=8, color="tab:red",
                        ha="left" if x == lo_x else "right")
            continue
        ax.errorbar([elo[i]], [y[i]], xerr=[[max(0.0, elo[i] - lo)], [max(0.0, hi - elo[i])]], fmt="o", capsize=4, color="tab:blue")
        ax.annotate(f"{elo[i]:+.0f}", (elo[i], y[i]), xytext=(0, 6), textcoords="offset points", ha="center",
                    fontsize=8)
    ax.set_xlim(lo_x, hi_x)
    ax.set_ylim(-0.7, len(agents) - 0.3)
    ax.set_yticks(y, agents)
    if lo_x < 0 < hi_x:
        ax.axvline(0, color="grey", lw=0.8)
    ax.grid(axis="x", alpha=0.3)
    zero = "mean of the agents" if obj["anchor"] == "mean" else obj["anchor"]
    ax.set_xlabel(f"Elo ({zero} = 0), 95% intervals; {obj['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
