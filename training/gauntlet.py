"""Honest evaluation during training: a fixed gauntlet against frozen anchors.

Every snapshot plays the SAME games: ``evaluation.tournament`` schedules ``games`` paired games per anchor
and scenario from one fixed seed (same game seeds, sides swapped within a pair), the policy agent is
deterministic (arg-max) and the anchors are seeded per game, so two evaluations of the same snapshot
give identical records and two snapshots differ only by their play.  The anchors' own round robin
(played once per run, same seed) fixes the rating scale; ratings come from ``evaluation.ratings.rate``
(Elo with a prior of virtual draws, ``random`` = 0, 95% intervals; see ``evaluation.ratings``).  Per-anchor
scores get 95% intervals from the same paired bootstrap.

The best model is the snapshot with the highest mean score over these fixed games (never a re-drawn
evaluation).  ``curves.png`` plots score per anchor and Elo against training steps.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import signal
from pathlib import Path

import numpy as np

LEARNER = "learner"


def _rename(records, spec: str, label: str) -> list:
    out = []
    for r in records:
        r = dict(r)
        r["agents"] = [label if a == spec else a for a in r["agents"]]
        out.append(r)
    return out


def _score_ci(records, label: str, anchor: str, bootstrap: int, seed: int):
    """Mean score of ``label`` against ``anchor`` and a 95% interval resampling whole pairs."""
    pairs: dict = {}
    wdl = [0, 0, 0]
    for r in records:
        if anchor not in r["agents"] or label not in r["agents"]:
            continue
        side = r["agents"].index(label)
        w = r["winner"]
        s = 0.5 if w in (-1, None) else (1.0 if w == side else 0.0)
        wdl[0 if s == 1.0 else (1 if s == 0.5 else 2)] += 1
        pairs.setdefault((r["scenario"], r["pair_index"]), []).append(s)
    if not pairs:
        return None
    from evaluation.benchmark import pair_interval

    mean, lo, hi = pair_interval([sum(v) / len(v) for v in pairs.values()], bootstrap, seed)
    return {"score": mean, "ci95": [lo, hi], "wdl": wdl, "games": sum(wdl)}


def evaluate(spec: str, out: str | Path, anchors: list, scenarios: list, games: int, seed: int,
             concurrency: int = 2, bootstrap: int = 200, label: str | None = None, progress: bool = False,
             options: dict | None = None) -> dict:
    """Play (or resume) the fixed gauntlet of agent ``spec`` into ``out/<label>``; return the summary.
    Ctrl-C raises :class:`evaluation.tournament.Interrupted` (the finished games are kept)."""
    from evaluation import tournament as T
    from evaluation.ratings import rate

    out = Path(out)
    label = label or spec.replace("/", "_").replace(":", "_")
    T.check(list(anchors), list(scenarios), games, spec, options)  # before any folder is made
    anchor_recs = T.run(list(anchors), list(scenarios), games, out / "anchors", seed=seed,
                        concurrency=concurrency, progress=progress, options=options,
                        desc="anchors' round robin") if len(anchors) > 1 else []
    recs = T.run(list(anchors), list(scenarios), games, out / label, seed=seed, gauntlet=spec,
                 concurrency=concurrency, progress=progress, options=options, desc=f"{label} vs anchors")
    mine = _rename(recs, spec, LEARNER)
    summary = {"label": label, "spec": spec, "games": len(mine), "scores": {}}
    for a in anchors:
        summary["scores"][a] = _score_ci(mine, LEARNER, a, bootstrap, seed)
    total = [s["score"] for s in summary["scores"].values() if s]
    summary["mean_score"] = float(np.mean(total)) if total else 0.0
    anchor0 = "random" if "random" in anchors else ("mean" if len(anchors) > 1 else anchors[0])
    rt = rate(anchor_recs + mine, anchor=anchor0)
    summary["elo"] = rt["ratings"][LEARNER]["elo"]
    summary["elo_ci95"] = rt["ratings"][LEARNER]["ci95"]
    summary["anchor_elo"] = {a: rt["ratings"][a]["elo"] for a in anchors if a in rt["ratings"]}
    summary["elo_anchor"] = rt["anchor"]
    summary["forfeits"] = [r["reason"] for r in recs if r["reason"].startswith(("crash", "timeout", "illegal"))]
    (out / label / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def report_text(summ: dict, scenarios: list, seed: int) -> str:
    """``dustup gauntlet``'s report.md."""
    zero = "the mean of the agents" if summ["elo_anchor"] == "mean" else f"`{summ['elo_anchor']}`"
    lines = ["# Gauntlet", "", f"`{summ['spec']}` against {len(summ['scores'])} anchor(s) on {', '.join(scenarios)}: "
             f"{summ['games']} games, paired (same seed, sides swapped), fixed seed {seed}. Score = (wins + draws/2) "
             "/ games; 95% intervals from a bootstrap over pairs.", "",
             "| anchor | score | 95% interval | W/D/L |", "| --- | --- | --- | --- |"]
    for a, v in summ["scores"].items():
        if v:
            lines.append(f"| {a} | {v['score']:.3f} | [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}] | "
                         f"{'/'.join(map(str, v['wdl']))} |")
    lines += ["", f"Elo {summ['elo']:+.0f} [{summ['elo_ci95'][0]:+.0f}, {summ['elo_ci95'][1]:+.0f}] with {zero} = 0; "
              "the anchors' own round robin (same seeds) fixes the scale: "
              + ", ".join(f"{a} {e:+.0f}" for a, e in summ["anchor_elo"].items()) + "."]
    if summ["forfeits"]:
        lines += ["", "Forfeits: " + "; ".join(summ["forfeits"])]
    return "\n".join(lines) + "\n"


def _evaluate_star(kwargs):
    return evaluate(**kwargs)


def evaluate_isolated(**kwargs) -> dict:
    """:func:`evaluate` in a fresh ``spawn`` process (its tournament pool forks from a process that never
    ran a multi-threaded torch update: forking the trainer itself could deadlock in OpenMP)."""
    from concurrent.futures import ProcessPoolExecutor

    # (a ProcessPoolExecutor worker is not daemonic, so its tournament may start its own pool)
    # the process (and the tournament pool it forks) ignores SIGINT: a Ctrl-C is the trainer's to handle
    with ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"),
                             initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)) as ex:
        return ex.submit(_evaluate_star, kwargs).result()


def table(history: list, anchors: list) -> str:
    """Markdown table of the gauntlet history (one row per snapshot)."""
    head = "| steps | " + " | ".join(f"vs {a}" for a in anchors) + " | mean | Elo (95% CI) |"
    lines = [head, "|---" * (len(anchors) + 3) + "|"]
    for h in history:
        cells = []
        for a in anchors:
            s = h["scores"].get(a)
            cells.append("-" if not s else f"{s['score']:.3f} [{s['ci95'][0]:.2f}, {s['ci95'][1]:.2f}]")
        lines.append(f"| {h['steps']:,} | " + " | ".join(cells) + f" | {h['mean_score']:.3f} | "
                     f"{h['elo']:+.0f} [{h['elo_ci95'][0]:+.0f}, {h['elo_ci95'][1]:+.0f}] |")
    return "\n".join(lines)


def plot_curves(history: list, anchors: list, path: str | Path) -> None:
    """Score vs steps per anchor (95% CI bars) and Elo vs steps, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not history:
        return
    steps = [h["steps"] for h in history]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    for a in anchors:
        pts = [(s, h["scores"][a]) for s, h in zip(steps, history) if h["scores"].get(a)]
        if not pts:
            continue
        xs = [p[0] for p in pts]
        ys = [p[1]["score"] for p in pts]
        lo = [max(0.0, p[1]["score"] - p[1]["ci95"][0]) for p in pts]  # error bars are never negative
        hi = [max(0.0, p[1]["ci95"][1] - p[1]["score"]) for p in pts]
        ax1.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=f"vs {a}")
    ax1.set_ylim(-0.02, 1.02)
    ax1.axhline(0.5, color="grey", lw=0.7)
    ax1.set_xlabel("training steps")
    ax1.set_ylabel("score (fixed gauntlet games)")
    ax1.legend(fontsize=8)
    elo = [h["elo"] for h in history]
    ax2.errorbar(steps, elo, yerr=[[max(0.0, e - h["elo_ci95"][0]) for e, h in zip(elo, history)],
                                   [max(0.0, h["elo_ci95"][1] - e) for e, h in zip(elo, history)]], marker="o",
                 capsize=3, label="learner")
    for a, e in (history[-1].get("anchor_elo") or {}).items():
        ax2.axhline(e, lw=0.7, ls="--", color="grey")
        ax2.text(steps[0], e, f" {a}", fontsize=7, va="bottom")
    ax2.set_xlabel("training steps")
    zero = history[-1].get("elo_anchor", "random")
    ax2.set_ylabel(f"Elo ({'mean of the agents' if zero == 'mean' else zero} = 0), 95% interval")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
