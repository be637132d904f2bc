"""The held-out benchmark: an agent against each ladder bot over a fixed suite of generated scenarios.

The suite (:data:`SUITE`) is twelve battles made by the battle builder (``dustup_env.builder``) from published
seeds and options (docs/benchmark.md), across sizes (points, table) and arms (``--with`` vehicles, heavy weapons,
power armour, hidden units, night, reinforcements, jamming, activation sequences).  The scenarios are generated on
the fly from their seeds into the run's folder, byte for byte the file ``dustup build`` writes with the same
arguments; :data:`SUITE_DIGESTS` publishes each file's hash, and a run whose suite does not match them says so
(the builder or the engine's data changed: its scores are not comparable with the published tables).

The suite is held out: no agent, doctrine, search setting or strength level was tuned or measured on it, and it
must stay so (tune on the built-in scenarios or on other builder seeds).

:func:`run` plays the agent against each opponent (``random``, ``easy``, ``medium``, ``hard``) on every scenario
of the suite through ``evaluation.tournament`` (a gauntlet): ``games`` games per opponent and scenario as paired
games (the same game seed twice, sides swapped), resumable, with a progress bar, Ctrl-C keeping every finished
game.  :func:`summarize` gives the agent's score against each opponent over the suite (a win 1, a draw 1/2) with a
95% interval from a bootstrap over the game pairs (the rule of ``dustup gauntlet``'s intervals), and
the score per scenario.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

OPPONENTS: tuple[str, ...] = ("random", "easy", "medium", "hard")
DEFAULT_GAMES = 2  # per opponent and scenario: one pair (the same seed, sides swapped)
DEFAULT_SEED = 0
BOOTSTRAP = 1000
SUITE_FOLDER = "suite"


@dataclass(frozen=True)
class Entry:
    """One scenario of the suite: the builder's arguments (``dustup build --seed SEED --points POINTS --table WxH
    --with WITH --name NAME``)."""

    name: str
    seed: int
    points: int | None  # None: the builder's default, a platoon a side
    table: tuple[int, int]
    with_: tuple[str, ...]
    about: str

    def build_args(self) -> str:
        """The ``dustup build`` arguments that write this scenario's file."""
        out = [f"--seed {self.seed}"]
        if self.points is not None:
            out.append(f"--points {self.points}")
        if tuple(self.table) != (72, 48):
            out.append(f"--table {self.table[0]}x{self.table[1]}")
        if self.with_:
            out.append(f"--with {','.join(self.with_)}")
        return " ".join(out + [f"--name {self.name}", f"--out {self.name}.json"])


SUITE: tuple[Entry, ...] = (
    Entry("bench-01", 240101, None, (72, 48), (), "a platoon a side, infantry"),
    Entry("bench-02", 240102, 60, (48, 48), (), "a small fight on a small table"),
    Entry("bench-03", 240103, None, (72, 48), ("vehicles",), "vehicles and mounted squads"),
    Entry("bench-04", 240104, None, (72, 48), ("heavy_weapons",), "heavy weapons teams"),
    Entry("bench-05", 240105, None, (72, 48), ("power_armour",), "power armour"),
    Entry("bench-06", 240106, None, (72, 48), ("hidden",), "hidden units and dummy markers"),
    Entry("bench-07", 240107, None, (72, 48), ("night",), "a night fight"),
    Entry("bench-08", 240108, 120, (96, 48), ("vehicles", "heavy_weapons"), "a larger combined-arms battle"),
    Entry("bench-09", 240109, None, (72, 48), ("reinforcements",), "reinforcements from the inbound track"),
    Entry("bench-10", 240110, None, (72, 48), ("jamming", "seize"), "jamming; seizing the initiative"),
    Entry("bench-11", 240111, 150, (96, 72), ("vehicles", "power_armour", "hidden"),
          "the largest: vehicles, power armour, hidden units on a 96x72\" table"),
    Entry("bench-12", 240112, 60, (48, 36), ("cards",), "a small fight, card activation"),
)

# sha256 (first 16 hex digits) of each scenario file as `dustup build` writes it (docs/benchmark.md)
SUITE_DIGESTS: dict[str, str] = {
    "bench-01": "eb94ca89d2021b89",
    "bench-02": "3e4d72acbfb37828",
    "bench-03": "b0c96587c7b3922c",
    "bench-04": "ac053b7a1aeb8a9a",
    "bench-05": "68005a60d2f2a8d7",
    "bench-06": "b1a7d0e286eb82a8",
    "bench-07": "6c4e555a387991b1",
    "bench-08": "2d2555b9f909b8d6",
    "bench-09": "a781cf4388c51b89",
    "bench-10": "590595a5db5cccae",
    "bench-11": "0d39ed895446c84e",
    "bench-12": "77a454ed9ab6466a",
}


class BenchmarkError(ValueError):
    """Bad input to the benchmark (one line)."""


def scenario_document(entry: Entry) -> dict:
    """The scenario of one suite entry, generated from its seed."""
    from dustup_env.builder import generate_scenario

    return generate_scenario(entry.seed, points=entry.points, table=entry.table, with_=list(entry.with_),
                             name=entry.name)


def scenario_bytes(entry: Entry) -> bytes:
    """The bytes of the entry's scenario file, exactly as ``dustup build`` writes them."""
    return (json.dumps(scenario_document(entry), indent=1) + "\n").encode()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def write_suite(folder: str | Path) -> tuple[list[str], list[str]]:
    """Generate the suite into ``folder`` (an existing file with the same bytes is kept as it is); returns the
    scenario paths and the names of the entries whose files differ from :data:`SUITE_DIGESTS`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths, differ = [], []
    for e in SUITE:
        data = scenario_bytes(e)
        p = folder / f"{e.name}.json"
        if not p.exists() or p.read_bytes() != data:
            p.write_bytes(data)
        if SUITE_DIGESTS.get(e.name) != digest(data):
            differ.append(e.name)
        paths.append(str(p))
    return paths, differ


def check(agent: str, games: int, opponents=OPPONENTS) -> None:
    """Refuse bad input before anything is played or written (one-line ``ValueError``)."""
    from agents import make_agent

    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise BenchmarkError(f"games must be a whole number of at least 1, not {games!r}")
    if not isinstance(agent, str) or not agent.strip():
        raise BenchmarkError(f"the agent is named by a non-empty string, not {agent!r}")
    if not opponents:
        raise BenchmarkError("no opponent given")
    for a in [agent, *opponents]:
        make_agent(a)
    if [o for o in opponents if o != agent] == []:
        raise BenchmarkError(f"agent {agent!r} is the only opponent: an agent is not measured against itself")


def run(agent: str, out: str | Path, games: int = DEFAULT_GAMES, seed: int = DEFAULT_SEED,
        concurrency: int | None = None, progress: bool = True, opponents=OPPONENTS, decision_time: float = 5.0,
        bootstrap: int = BOOTSTRAP) -> dict:
    """Play (or resume) the benchmark of ``agent`` into ``out``; return the summary (:func:`summarize`) and write
    ``out/summary.json`` and ``out/report.md``.  Ctrl-C raises ``evaluation.tournament.Interrupted``."""
    from . import tournament as T

    opponents = list(dict.fromkeys(opponents))
    check(agent, games, opponents)
    out = Path(out)
    scenarios, differ = write_suite(out / SUITE_FOLDER)
    others = [o for o in opponents if o != agent]
    records = T.run(others, scenarios, games, out, seed=seed, gauntlet=agent, concurrency=concurrency,
                    progress=progress, decision_time=decision_time, desc=f"benchmark {agent}")
    summ = summarize(records, agent, opponents, bootstrap=bootstrap, seed=seed)
    summ.update(games_per_scenario=2 * max(1, (games + 1) // 2), seed=seed, suite_differs=differ,
                out=str(out))
    (out / "summary.json").write_text(json.dumps(summ, indent=1))
    (out / "report.md").write_text(report_text(summ))
    return summ


def _name_of(scenario: str) -> str:
    return Path(scenario).stem


def summarize(records, agent: str, opponents=OPPONENTS, bootstrap: int = BOOTSTRAP, seed: int = 0) -> dict:
    """The agent's score against each opponent over the suite (``None`` for itself) with a 95% interval over
    the game pairs, its W/D/L and games; the score per scenario and opponent; the mean over the opponents."""
    scores, per_scenario = {}, {}
    for o in opponents:
        if o == agent:
            scores[o] = None
            continue
        mine = [r for r in records if o in r["agents"] and agent in r["agents"]]
        scores[o] = score_ci(mine, agent, bootstrap, seed)
        for r in mine:
            s = _score(r, agent)
            cell = per_scenario.setdefault(_name_of(r["scenario"]), {}).setdefault(o, [0.0, 0])
            cell[0] += s
            cell[1] += 1
    measured = [v["score"] for v in scores.values() if v]
    forfeits = [{"key": r["key"], "reason": r["reason"]} for r in records
                if r["reason"].startswith(("crash", "timeout", "illegal"))]
    return {"agent": agent, "opponents": list(opponents), "scores": scores,
            "mean_score": sum(measured) / len(measured) if measured else None,
            "per_scenario": {sc: {o: v[0] / v[1] for o, v in cells.items()}
                             for sc, cells in sorted(per_scenario.items())},
            "games": len(records), "forfeits": forfeits}


def _score(r: dict, agent: str) -> float:
    w = r["winner"]
    return 0.5 if w in (-1, None) else (1.0 if r["agents"][w] == agent else 0.0)


def score_ci(records, agent: str, bootstrap: int = BOOTSTRAP, seed: int = 0) -> dict | None:
    """``agent``'s mean score over ``records`` and a 95% interval from a bootstrap over the game pairs (a pair: the
    two games of one scenario and seed, sides swapped); a score the same in every pair gets Wilson's interval over
    the pairs (resampling cannot show a spread there).  The same rule as ``dustup gauntlet``'s intervals."""
    import numpy as np

    pairs: dict = {}
    wdl = [0, 0, 0]
    for r in records:
        s = _score(r, agent)
        wdl[0 if s == 1.0 else (1 if s == 0.5 else 2)] += 1
        pairs.setdefault((r["scenario"], r["pair_index"]), []).append(s)
    if not pairs:
        return None
    mean, lo, hi = pair_interval([sum(v) / len(v) for v in pairs.values()], bootstrap, seed)
    return {"score": mean, "ci95": [lo, hi], "wdl": wdl, "games": sum(wdl)}


def pair_interval(units: list, bootstrap: int = BOOTSTRAP, seed: int = 0) -> tuple[float, float, float]:
    """The mean of the pairs' scores ``units`` and its 95% interval: a bootstrap over the pairs (``bootstrap``
    resamples from ``seed``; 0: no interval); when every pair scored the same, resampling cannot show any spread,
    so Wilson's interval for that score over the pairs (finite and honest: 200 perfect pairs give [0.981, 1]).  The
    interval always holds the mean (Wilson's lower end for a score of 0 is 0 only up to rounding)."""
    import numpy as np

    mean = float(np.mean(units))
    if len(set(units)) == 1:
        lo, hi = wilson(mean, len(units))
    elif bootstrap:
        rng = np.random.default_rng(seed)
        means = np.array(units)[rng.integers(0, len(units), (bootstrap, len(units)))].mean(1)
        lo, hi = np.percentile(means, [2.5, 97.5])
    else:
        lo = hi = mean
    return mean, min(float(lo), mean), max(float(hi), mean)


def wilson(p: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's 95% score interval for a proportion ``p`` observed over ``n`` trials (exact ends at 0 and 1)."""
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return (0.0 if p <= 0 else max(0.0, c - h)), (1.0 if p >= 1 else min(1.0, c + h))


def score_cell(v: dict | None) -> str:
    """One table cell: ``0.625 [0.50, 0.75]`` (``itself`` for the agent's own row)."""
    if v is None:
        return "itself"
    return f"{v['score']:.3f} [{v['ci95'][0]:.2f}, {v['ci95'][1]:.2f}]"


def report_text(summ: dict) -> str:
    """``report.md`` of a benchmark run."""
    opp = summ["opponents"]
    lines = ["# Benchmark", "",
             f"`{summ['agent']}` on the held-out suite (docs/benchmark.md: {len(SUITE)} generated scenarios), "
             f"{summ['games_per_scenario']} games per opponent and scenario (paired: the same seed, sides swapped), "
             f"master seed {summ['seed']}, {summ['games']} games. Score = (wins + draws/2) / games; 95% intervals "
             "from a bootstrap over the game pairs.", ""]
    if summ.get("suite_differs"):
        lines += [f"**The suite generated here differs from the published one** ({', '.join(summ['suite_differs'])}: "
                  "the builder or the engine's data changed): these scores are not comparable with the published "
                  "tables.", ""]
    lines += ["| opponent | score | 95% interval | W/D/L | games |", "| --- | --- | --- | --- | --- |"]
    for o in opp:
        v = summ["scores"][o]
        if v is None:
            lines.append(f"| {o} | itself | | | |")
        else:
            lines.append(f"| {o} | {v['score']:.3f} | [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}] | "
                         f"{'/'.join(map(str, v['wdl']))} | {v['games']} |")
    if summ["mean_score"] is not None:
        lines += ["", f"Mean over the opponents: {summ['mean_score']:.3f}."]
    lines += ["", "## Score per scenario", "", "| scenario | " + " | ".join(o for o in opp if summ["scores"][o]) + " |",
              "|---" * (1 + sum(1 for o in opp if summ["scores"][o])) + "|"]
    for sc, cells in summ["per_scenario"].items():
        lines.append(f"| {sc} | " + " | ".join(f"{cells[o]:.2f}" if o in cells else "-"
                                               for o in opp if summ["scores"][o]) + " |")
    if summ["forfeits"]:
        lines += ["", "## Forfeits", ""] + [f"- {f['key']}: {f['reason']}" for f in summ["forfeits"]]
    return "\n".join(lines) + "\n"
