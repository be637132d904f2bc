"""Recorded digests of the environment layer: observations, masks and the built-in agents' choices.

The shipped ``ppo`` policy was trained on the observation as it is: a change of the observation code
must keep every value of every observation (same layout, same numbers), or the policy loses its
measured strength.  This file records, on one version of the code, chained SHA-256 digests of

- ``obs``: random games (both scenarios, hidden units with dummy markers, optional rules) where, at
  every decision, BOTH sides' observations (each side's long-lived view, caches warm as in training)
  and the deciding side's action mask are hashed;
- ``env``: ``Dustup-v0`` episodes (``reset``/``step`` against the ``random`` opponent, both learner
  sides): observation, mask, reward and termination of every step;
- ``agents``: games between built-in agents (``random``, ``scripted``, ``easy``, ``medium``, ``hard``,
  ``defensive``, ``ppo``), with and without hidden units: every option they chose;

and checks them on another version (tests/test_env_digests.py).  Only public API is used
(``Game``, ``DustupEnv(...)``, ``attach``, ``observe``, ``action_masks``, ``reset``, ``step``,
``make_agent``), so the same file records on the old code and checks on the new.

    python tests/env_digests.py record   # on the reference code (writes tests/data/env_digests.json)
    python tests/env_digests.py check    # every entry, differences listed
"""
from __future__ import annotations

import copy
import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "env_digests.json"


# ---------------------------------------------------------------------------------------------- scenarios
def _doc(name: str) -> dict:
    from dustup_env.rules.kernel.data import load_scenario
    return copy.deepcopy(load_scenario(name))


def hidden_doc(name: str) -> dict:
    """``name`` with the last unit of each side hidden in concealing terrain near its home edge and one
    dummy marker per side (markers in the observation, detect actions, hidden enemy slots)."""
    from dustup_env.rules.kernel.battlefield import Battlefield
    doc = _doc(name)
    bf = Battlefield(doc)
    w, h = doc["table"]["width"], doc["table"]["height"]
    for side in doc["sides"]:
        spots = []
        for yi in range(1, int(h) * 2):
            for xi in range(1, int(w) * 2):
                x, y = xi / 2.0 + 0.25, yi / 2.0 + 0.25
                home = y if side["home_edge"] == "south" else h - y
                if home <= h / 3 and bf.conceals(x, y):
                    spots.append((home, x, y))
        spots.sort()
        if len(spots) < 2:
            continue
        _, x, y = spots[0]
        side["units"][-1]["position"] = [x, y]
        side["units"][-1]["hidden"] = True
        far = [p for p in spots if (p[1] - x) ** 2 + (p[2] - y) ** 2 > 36.0]
        if far:
            side["dummies"] = [[far[0][1], far[0][2]]]
    return doc


OPTION_SETS = [{}, {"activation": "chits", "chit_quality_variant": True}, {"activation": "cards", "night": True},
               {"close_combat": "house", "random_quality": True, "random_confidence": True, "seize_tokens": 2}]

# (name, games, scenario(k), options(k))
OBS_CONFIGS = [
    ("default", 10, lambda k: "default", lambda k: OPTION_SETS[k % 4]),
    ("skirmish", 12, lambda k: "skirmish", lambda k: OPTION_SETS[k % 4]),
    ("default-hidden", 10, lambda k: hidden_doc("default"), lambda k: OPTION_SETS[k % 4]),
    ("skirmish-hidden", 12, lambda k: hidden_doc("skirmish"), lambda k: OPTION_SETS[k % 4]),
]
ENV_CONFIGS = [
    ("default", 8, lambda k: "default", lambda k: {}),
    ("default-hidden-chits", 6, lambda k: hidden_doc("default"), lambda k: OPTION_SETS[1]),
    ("skirmish-hidden", 8, lambda k: hidden_doc("skirmish"), lambda k: {}),
]
AGENT_PAIRS = [("scripted", "random"), ("easy", "medium"), ("hard", "defensive"), ("defensive", "hard"),
               ("medium", "easy"), ("random", "scripted")]
PPO_PAIRS = [("ppo", "hard"), ("random", "ppo")]
AGENT_SCENARIOS = [("default", lambda: "default"), ("skirmish", lambda: "skirmish"),
                   ("default-hidden", lambda: hidden_doc("default")), ("skirmish-hidden", lambda: hidden_doc("skirmish"))]


# ---------------------------------------------------------------------------------------------- digests
def _views(scn, options):
    from dustup_env.env import DustupEnv
    return [DustupEnv(scenario=scn, options=options, opponent=lambda g, d: d.options[0], learner_side=s)
            for s in (0, 1)]


def obs_game(scn, options: dict, seed: int, views=None) -> tuple[str, int]:
    """A random game; at every decision both sides' observations and the deciding side's mask are hashed."""
    from dustup_env.rules import Game
    views = views or _views(scn, options)
    g = Game(scn, seed=seed, options=options)
    for s in (0, 1):
        views[s].attach(g, s)
    rng = random.Random(seed)
    h = hashlib.sha256()
    n = 0
    while not g.over:
        d = g.decision()
        for s in (0, 1):
            h.update(views[s].observe().tobytes())
        h.update(views[d.side].action_masks().tobytes())
        g.apply(d.options[rng.randrange(len(d.options))])
        n += 1
    for s in (0, 1):
        h.update(views[s].observe().tobytes())
    return h.hexdigest()[:24], n


def env_episodes(scn, options: dict, seed: int, episodes: int) -> tuple[str, int]:
    """``Dustup-v0`` episodes against ``random``, learner side alternating; random legal actions."""
    import numpy as np

    from dustup_env.env import DustupEnv
    env = DustupEnv(scenario=scn, options=options, opponent="random", learner_side="both")
    rng = random.Random(seed)
    h = hashlib.sha256()
    n = 0
    for ep in range(episodes):
        obs, info = env.reset(seed=seed) if ep == 0 else env.reset()
        h.update(obs.tobytes())
        h.update(info["action_mask"].tobytes())
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, r, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
            h.update(obs.tobytes())
            h.update(info["action_mask"].tobytes())
            h.update(repr((float(r), bool(term), bool(trunc))).encode())
            done = term or trunc
            n += 1
    return h.hexdigest()[:24], n


def agents_game(names, scn, seed: int) -> tuple[str, int]:
    """One game between two built-in agents; every chosen option is hashed."""
    from agents import make_agent
    from dustup_env.rules import Game
    agents = [make_agent(names[s], seed=seed * 2 + s) for s in (0, 1)]
    for s, a in enumerate(agents):
        a.reset(seed * 2 + s)
    g = Game(scn, seed=seed)
    h = hashlib.sha256()
    while not g.over:
        d = g.decision()
        opt = tuple(agents[d.side].choose(g, d))
        h.update(repr(opt).encode())
        g.apply(opt)
    h.update(repr(g.result()).encode())
    return h.hexdigest()[:24], len(g.history)


def compute(include_ppo: bool = True) -> dict:
    out = {"obs": {}, "env": {}, "agents": {}}
    for name, n, scn_f, opt_f in OBS_CONFIGS:
        for k in range(n):
            out["obs"][f"{name}/{k}"] = obs_game(scn_f(k), opt_f(k), 100 + k)
    for name, n, scn_f, opt_f in ENV_CONFIGS:
        out["env"][name] = env_episodes(scn_f(0), opt_f(0), 7, n)
    pairs = AGENT_PAIRS + (PPO_PAIRS if include_ppo else [])
    for sname, scn_f in AGENT_SCENARIOS:
        for k, names in enumerate(pairs):
            for j in range(2):
                out["agents"][f"{sname}/{names[0]}-{names[1]}/{j}"] = agents_game(names, scn_f(), 500 + 10 * k + j)
    return out


def record() -> dict:
    doc = {"format": 1, "digests": compute()}
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return doc


def load() -> dict:
    return json.loads(DATA.read_text())["digests"]


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("record", "check"))
    a = ap.parse_args(argv)
    if a.what == "record":
        doc = record()
        print(f"recorded {sum(len(v) for v in doc['digests'].values())} digests in {DATA}")
        return 0
    want, got = load(), compute()
    bad = [(part, k) for part in want for k in want[part] if want[part][k] != list(got[part].get(k, ()))]
    for part, k in bad:
        print(f"DIFFERS {part} {k}: recorded {want[part][k]}, now {got[part].get(k)}")
    print(f"{sum(len(v) for v in want.values()) - len(bad)} equal, {len(bad)} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    sys.exit(main())
