"""Golden games: a recorded corpus that pins the engine's behaviour, decision by decision.

Each game of the corpus is a (scenario, options, seed, choices) recipe played on the seeded dice.
For every game the corpus keeps a chained digest of every decision offered (side, kind, unit and the
legal options in order), a digest of the full event stream (and of each side's filtered log), and
the result.  Replaying the choices on a later engine and comparing the digests shows that the
engine offers the same options at every decision and emits the same events: a refactor that
claims to keep behaviour must keep every game of the corpus identical.

Only the public API is used (``Game(...)``, ``decision()``, ``apply()``, ``event_log()``,
``result()``), so the same file records on one version of the engine and checks on another.

    python tests/golden_games.py record [--out tests/data/golden_games.json.gz]   # after a deliberate rules change
    python tests/golden_games.py check [--only CONFIG] [--verbose]                  # every game, differences listed

The test-suite checks every game (tests/test_golden_games.py).
"""
from __future__ import annotations

import argparse
import copy
import gzip
import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "data" / "golden_games.json.gz"
FORMAT = 1


# --- the scenarios and option sets of the corpus ---------------------------------------------------------
def _doc(name: str) -> dict:
    from dustup_env.rules.kernel.data import load_scenario
    return copy.deepcopy(load_scenario(name))


def _with_jammers(doc: dict) -> dict:
    doc["sides"][0]["jammer"] = "d8"
    doc["sides"][1]["jammer"] = "d6"
    return doc


def _long(doc: dict, turns: int) -> dict:
    doc["turn_limit"] = turns
    return doc


def _hidden(doc: dict) -> dict:
    """Hide one unit of each side in concealing terrain near its start, with one dummy marker each."""
    from dustup_env.rules.kernel.battlefield import Battlefield
    bf = Battlefield(doc)
    w, h = doc["table"]["width"], doc["table"]["height"]
    for s, side in enumerate(doc["sides"]):
        spots = []
        for yi in range(1, int(h) * 2):
            for xi in range(1, int(w) * 2):
                x, y = xi / 2.0 + 0.25, yi / 2.0 + 0.25  # off the features' edges (scaled for centimetres)
                home = y if side["home_edge"] == "south" else h - y
                if home <= h / 3 and bf.conceals(x, y):
                    spots.append((home, x, y))
        spots.sort()
        if len(spots) < 2:
            continue
        _, x, y = spots[0]
        k = len(side["units"]) - 1  # the last unit hides (not an HQ in the built-in scenarios)
        side["units"][k]["position"] = [x, y]
        side["units"][k]["hidden"] = True
        far = [p for p in spots if (p[1] - x) ** 2 + (p[2] - y) ** 2 > 36.0]
        if far:
            side["dummies"] = [[far[0][1], far[0][2]]]
    return doc


def _random_scenario(k: int) -> dict:
    """A small random scenario (the property tests' generator, seeded): power armour, extraction,
    amphibious units, reinforcements, terrain."""
    rng = random.Random(9_000 + k)
    weapons = ["rifle", "assault_rifle", "shotgun", "musket", "pistol", "lmg", "hmg", "agl", "rifle_grenade",
               "laser_rifle", "plasma_rifle", "average_small_arm"]
    armour = ["none", "basic_battledress", "partial_light", "full_light", "light_power", "heavy_power"]
    terrain = ["light_scrub", "rough", "light_woods", "dense_woods", "building", "hill", "river", "open_water",
               "swamp"]

    def mk(side):
        out = []
        for j in range(rng.randint(1, 3)):
            y = rng.randint(1, 10)
            spec = {"name": f"u{side}{j}", "position": [float(rng.randint(2, 34)), float(y if side == 0 else 36 - y)],
                    "figures": [{"weapon": rng.choice(weapons), "count": rng.randint(1, 6)}
                                for _ in range(rng.randint(1, 3))],
                    "quality": rng.choice(["d4", "d6", "d8", "d10", "d12"]), "leadership": rng.randint(1, 3),
                    "armour": rng.choice(armour[2:] if rng.random() < 0.5 else armour),
                    "confidence": rng.choice(["confident", "steady", "shaken", "broken"]),
                    "movement": rng.choice(["encumbered", "infantry", "fast"]), "grenades": rng.random() < 0.5,
                    "amphibious": rng.random() < 0.3}
            if rng.random() < 0.3:
                spec["specialist_grenade"] = "at_grenade"
            if rng.random() < 0.2:
                spec["inbound"] = rng.choice([1, 3])
            out.append(spec)
        return out

    terr = []
    for _ in range(rng.randint(0, 4)):
        x, y, ww, hh = rng.randint(0, 30), rng.randint(12, 22), rng.randint(2, 8), rng.randint(2, 6)
        terr.append({"type": rng.choice(terrain), "polygon": [[x, y], [x + ww, y], [x + ww, y + hh], [x, y + hh]]})
    return {"name": f"random{k}", "table": {"width": 36, "height": 36}, "turn_limit": 5, "terrain": terr,
            "obstacles": [], "objectives": [],
            "sides": [{"name": "Blue", "home_edge": "south", "commitment": rng.choice(["low", "medium", "high"]),
                       "units": mk(0)},
                      {"name": "Red", "home_edge": "north", "commitment": rng.choice(["low", "medium", "high"]),
                       "units": mk(1)}]}


def all_options(k: int) -> dict:
    """Every optional rule on, cycling the multi-valued ones (as tests/test_properties.py does)."""
    act = ("alternate", "chits", "cards")[k % 3]
    return {"seize_tokens": 2 if act == "alternate" else 0, "activation": act, "chit_quality_variant": act == "chits",
            "night": k % 2 == 0, "rally_double_half": True, "jamming": True,
            "close_combat": ("dustup", "house")[(k // 3) % 2], "house_pursuit": (k // 3) % 2 == 1,
            "random_quality": True, "random_leadership": True, "random_confidence": True,
            "power_armour_extraction": True, "extra_hits": k % 4 != 0,
            "seize_tokens_veterans": act == "alternate", "seize_tokens_objectives": act == "alternate",
            "turn_end_card": act == "cards", "casevac_vp": 1, "measure": "centimetres" if k % 5 == 0 else "inches"}


def _house(k: int) -> dict:
    return {"close_combat": "house", "house_pursuit": k % 2 == 0, "activation": ("alternate", "chits")[k % 2]}


def _hidden_opts(k: int) -> dict:
    return [{}, {"night": True}, {"activation": "chits"}, {"activation": "cards"},
            {"close_combat": "house"}, all_options(k)][k % 6]


# (name, games, scenario(k), options(k), policy)
CONFIGS = [
    ("default", 150, lambda k: "default", lambda k: {}, "uniform"),
    ("skirmish", 150, lambda k: "skirmish", lambda k: {}, "uniform"),
    ("skirmish-long-aggressive", 60, lambda k: _long(_doc("skirmish"), 30), lambda k: {}, "aggressive"),
    ("skirmish-all-options", 150, lambda k: _with_jammers(_doc("skirmish")), all_options, "mixed"),
    ("default-all-options", 48, lambda k: _with_jammers(_doc("default")), all_options, "mixed"),
    ("skirmish-house", 60, lambda k: _long(_doc("skirmish"), 12), _house, "aggressive"),
    ("default-hidden", 60, lambda k: _hidden(_doc("default")), _hidden_opts, "mixed"),
    ("skirmish-hidden", 90, lambda k: _hidden(_with_jammers(_doc("skirmish"))), _hidden_opts, "mixed"),
    ("random-scenarios", 120, _random_scenario, lambda k: {"power_armour_extraction": k % 2 == 0}, "mixed"),
    ("default-ladder", 24, lambda k: "default", lambda k: {}, "ladder"),
]
MAX_DECISIONS = 20_000


def _aggressive(d, rng):
    fight = [o for o in d.options if o[0] in ("shoot", "recover", "assault", "combined_assault")]
    if fight and rng.random() < 0.8:
        return d.options.index(rng.choice(fight))
    ahead = [o for o in d.options if o[0] == "move" and o[1] == (0 if d.side == 0 else 8)]
    if ahead and rng.random() < 0.7:
        return d.options.index(rng.choice(ahead))
    return rng.randrange(len(d.options))


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _decision_key(d) -> list:
    return [d.side, d.kind, d.unit, [list(o) for o in d.options]]


def _summary(g, chain: str, n: int, hidden: bool) -> dict:
    out = {"decisions": n, "offered": chain, "events": _digest(g.event_log()), "result": g.result()}
    if hidden:
        out["side_logs"] = [_digest(g.event_log(0)), _digest(g.event_log(1))]
    return out


def play(scn, options: dict, seed: int, chooser) -> tuple:
    """Play one game; ``chooser(game, decision, i)`` gives the index of the option taken."""
    from dustup_env.rules import Game
    g = Game(scn, seed=seed, options=options)
    h = hashlib.sha256()
    choices = []
    while not g.over:
        if len(choices) >= MAX_DECISIONS:
            raise RuntimeError("game did not end")
        d = g.decision()
        h.update(json.dumps(_decision_key(d), default=repr).encode())
        i = chooser(g, d, len(choices))
        choices.append(i)
        g.apply(d.options[i])
    return g, choices, h.hexdigest()[:16]


def _games():
    for name, n, scn_f, opt_f, policy in CONFIGS:
        for k in range(n):
            yield name, k, scn_f, opt_f, policy


def record(out: Path = CORPUS) -> dict:
    games = []
    agents = None
    for name, k, scn_f, opt_f, policy in _games():
        seed = 1_000 * (1 + [c[0] for c in CONFIGS].index(name)) + k
        scn, options = scn_f(k), opt_f(k)
        rng = random.Random(seed * 7 + 3)
        if policy == "mixed":
            policy_k = "aggressive" if k % 2 else "uniform"
        else:
            policy_k = policy
        if policy_k == "ladder":
            from agents import make_agent
            names = [("hard", "medium"), ("medium", "hard"), ("defensive", "easy"), ("hard", "defensive")][k % 4]
            agents = [make_agent(names[0], seed=seed), make_agent(names[1], seed=seed + 1)]

            def chooser(g, d, i, agents=agents):
                return d.options.index(tuple(agents[d.side].choose(g, d)))
        elif policy_k == "aggressive":
            def chooser(g, d, i, rng=rng):
                return _aggressive(d, rng)
        else:
            def chooser(g, d, i, rng=rng):
                return rng.randrange(len(d.options))
        g, choices, chain = play(scn, options, seed, chooser)
        hidden = "hidden" in name
        games.append({"config": name, "k": k, "seed": seed, "options": options,
                      "scenario": scn if isinstance(scn, str) else None,
                      "choices": choices, **_summary(g, chain, len(choices), hidden)})
    doc = {"format": FORMAT, "games": games}
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt") as fh:
        json.dump(doc, fh, separators=(",", ":"))
    return doc


def load(path: Path = CORPUS) -> list[dict]:
    with gzip.open(path, "rt") as fh:
        doc = json.load(fh)
    assert doc["format"] == FORMAT
    return doc["games"]


def scenario_of(game: dict):
    if game["scenario"] is not None:
        return game["scenario"]
    for name, n, scn_f, opt_f, policy in CONFIGS:
        if name == game["config"]:
            return scn_f(game["k"])
    raise KeyError(game["config"])


class Diverged(Exception):
    pass


def check_game(game: dict) -> list[str]:
    """Replay one recorded game; the list of differences (empty: identical)."""
    choices = game["choices"]

    def chooser(g, d, i):
        if i >= len(choices) or choices[i] >= len(d.options):
            raise Diverged(f"the game went on differently from decision #{min(i, len(choices))} "
                           f"({d.kind} of side {d.side}, {len(d.options)} options)")
        return choices[i]

    try:
        g, _, chain = play(scenario_of(game), game["options"], game["seed"], chooser)
    except Diverged as e:
        return [str(e)]
    got = _summary(g, chain, len(choices), "side_logs" in game)
    return [f"{k}: recorded {game[k]!r}, now {got[k]!r}" for k in got if got[k] != game[k]]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="play and record the corpus")
    r.add_argument("--out", type=Path, default=CORPUS)
    c = sub.add_parser("check", help="replay every game and compare")
    c.add_argument("--corpus", type=Path, default=CORPUS)
    c.add_argument("--only", default=None, help="one config name")
    c.add_argument("--verbose", action="store_true")
    a = p.parse_args(argv)
    if a.cmd == "record":
        doc = record(a.out)
        print(f"recorded {len(doc['games'])} games, "
              f"{sum(g['decisions'] for g in doc['games'])} decisions -> {a.out}")
        return 0
    bad = 0
    games = [g for g in load(a.corpus) if a.only in (None, g["config"])]
    for i, game in enumerate(games):
        diffs = check_game(game)
        if diffs:
            bad += 1
            print(f"{game['config']}#{game['k']} (seed {game['seed']}): " + "; ".join(diffs))
        elif a.verbose:
            print(f"{game['config']}#{game['k']}: identical")
    print(f"{len(games) - bad} identical, {bad} different")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    raise SystemExit(main())
