"""Random games of the Additional Rules' scenarios with every option on, checking the property invariants.

    python benchmarks/additional_rules_games.py [--games N] [--start K] [--scenarios A,B] [--json]
    python benchmarks/additional_rules_games.py --scenarios fire-support,air-assault      # the artillery's and aircraft's

Plays N random games (default 1,000) round-robin over ``breach``, ``night-raid``, the fire-and-smoke skirmish of
``tests/test_fire_smoke_properties.py`` and the battle with buildings of ``tests/test_buildings.py``, each with the
reactions, interrupts, smoke grenades, the d20 building assault and fire-support dummy markers on, the activation
sequence cycling through alternate / chits / cards and night every other game.  At every decision the invariants of
``tests/test_properties.py`` (``Invariants.check``, with ``tests/test_aerospace_properties.py``'s checks of
aircraft: ``AirInvariants``) hold; every 10th game a save and a snapshot taken mid-game play on
to the same end, event for event.  ``--scenarios`` picks others: those four by their names above, or any built-in
scenario (``fire-support``, ``air-assault``: every option on includes ``air_to_air``).  Prints progress to stderr and a summary (games, decisions, option kinds and
event types seen) at the end; exits 1 on the first broken invariant, naming the game.  Ctrl-C stops cleanly.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

import test_properties  # noqa: E402  (the invariants)
from test_aerospace_properties import AirInvariants  # noqa: E402  (with aircraft leaving and coming back)
from test_buildings import small_battle  # noqa: E402
from test_fire_smoke_properties import scenario as fire_smoke_scenario  # noqa: E402

from dustup_env.rules import Game  # noqa: E402

from dustup_env.observation import DECISION_KINDS  # noqa: E402  (every decision kind the rules declare)

test_properties.PROCEDURE_KINDS = tuple(DECISION_KINDS)

SCENARIOS = (("breach", "breach"), ("night-raid", "night-raid"), ("fire-smoke skirmish", None), ("buildings", None))


def options(k: int) -> dict:
    act = ("alternate", "chits", "cards")[k % 3]
    return {"reactions": True, "interrupt": True, "smoke_grenades": True, "building_assault": "d20",
            "fire_support_dummies": True, "air_to_air": True, "activation": act, "night": k % 2 == 0}


def scenario_of(i: int, scenarios=SCENARIOS):
    name, builtin = scenarios[i % len(scenarios)]
    if builtin:
        return name, builtin
    return name, fire_smoke_scenario() if name.startswith("fire") else small_battle()


def play(i: int, kinds: set, events: set, scenarios=SCENARIOS) -> int:
    name, scn = scenario_of(i, scenarios)
    opts = options(i)
    g = Game(scn, seed=90_000 + i, options=opts)
    inv = AirInvariants(g)
    rng = random.Random(i)
    taken, mid = [], None
    while not g.over:
        if len(taken) > 30_000:
            raise AssertionError(f"game {i} ({name}) did not end")
        d = g.decision()
        kinds.add(d.kind)
        opt = rng.choice(d.options)
        if i % 10 == 0 and mid is None and len(taken) == 40:
            mid = (len(taken), json.loads(json.dumps(g.to_dict())), json.loads(json.dumps(g.snapshot())))
        g.apply(opt)
        taken.append(opt)
        try:
            inv.check(g)
        except AssertionError as e:
            raise AssertionError(f"game {i} ({name}, seed {90_000 + i}, options {opts}), decision {len(taken)}: "
                                 f"{e}") from None
    events.update(e["type"] for e in g.event_log())
    if mid is not None:
        n, save, snap = mid
        a, b = Game.from_dict(save), Game.from_snapshot(snap)
        for opt in taken[n:]:
            a.apply(opt)
            b.apply(opt)
        if not (a.state_digest() == b.state_digest() == g.state_digest() and a.event_log() == g.event_log()):
            raise AssertionError(f"game {i} ({name}): a save taken at decision {n} does not play on to the same end")
    return len(taken)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="The checks are tests/test_properties.py's Invariants.")
    ap.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    ap.add_argument("--start", type=int, default=0, help="the first game's index (to split a run; default 0)")
    ap.add_argument("--scenarios", default=None,
                    help="comma-separated: breach, night-raid, 'fire-smoke skirmish', buildings, or any built-in "
                         "scenario (default: the first four)")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    a = ap.parse_args(argv)
    if a.games < 1 or a.start < 0:
        ap.error("--games must be at least 1 and --start at least 0")
    scenarios = SCENARIOS
    if a.scenarios is not None:
        from dustup_env.rules.kernel.data import scenario_names
        own = dict(SCENARIOS)
        names = [n.strip() for n in a.scenarios.split(",") if n.strip()]
        bad = [n for n in names if n not in own and n not in scenario_names()]
        if not names or bad:
            ap.error(f"--scenarios: unknown scenario {bad[0] if bad else a.scenarios!r}: choose from "
                     f"{', '.join(list(own) + [n for n in scenario_names() if n not in own])}")
        scenarios = tuple((n, own.get(n, n)) for n in names)
    kinds, events, decisions, t0 = set(), set(), 0, time.time()
    done = 0
    try:
        for i in range(a.start, a.start + a.games):
            decisions += play(i, kinds, events, scenarios)
            done += 1
            if done % 20 == 0:
                print(f"{done}/{a.games} games, {decisions} decisions, {time.time() - t0:.0f} s", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"stopped after {done} games", file=sys.stderr)
    except AssertionError as e:
        print(f"invariant broken: {e}", file=sys.stderr)
        return 1
    summary = {"games": done, "decisions": decisions, "seconds": round(time.time() - t0, 1),
               "decision_kinds": sorted(kinds), "event_types": len(events)}
    print(json.dumps(summary) if a.json else
          f"{done} games, {decisions} decisions, every invariant held; {len(kinds)} decision kinds, "
          f"{len(events)} event types ({summary['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
