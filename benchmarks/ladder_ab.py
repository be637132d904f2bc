"""Paired A/B of ladder bots and of ``hard``'s doctrine switches (the numbers in docs/agents.md).

Each of ``--pairs`` game seeds is played twice with the sides swapped; the score is the first agent's
points per game (draw = 1/2) with a 95% interval over the pairs, and each agent's mean decision time.
Prints one JSON line an A/B; progress is a line a pair on stderr.

    python benchmarks/ladder_ab.py hard medium --pairs 300
    python benchmarks/ladder_ab.py hard-no-orders hard --pairs 300      # one switch flipped
    python benchmarks/ladder_ab.py --ablation --pairs 300               # every switch against hard
    python benchmarks/ladder_ab.py hard-no-tank-shock hard --pairs 150 --scenario armour

Variant names: ``hard-<switch>`` flips one of :data:`SWITCHES` or :data:`VEHICLE_SWITCHES`,
``defensive-<switch>`` one of :data:`DEFENSIVE_SWITCHES`, ``medium-<switch>`` one of :data:`MEDIUM_SWITCHES`
(registered by :func:`register_variants`):

    python benchmarks/ladder_ab.py medium-no-contest easy --pairs 150 --scenario breach
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter

from agents import make_agent
from agents.base import AGENTS
from agents.hard import HardAgent
from dustup_env.rules import Game
from evaluation.simulate import game_seed

# variant name -> (switch overrides, what it tests)
SWITCHES = {
    "no-orders": ({"ORDERS": False}, "medium's command instead of orders every activation"),
    "no-hq-first": ({"HQ_FIRST": False}, "medium's activation order instead of the HQ first"),
    "rally-shaken": ({"RALLY_AT": 2}, "rallies shaken or worse units instead of only routed ones"),
    "no-assign": ({"ASSIGN": False}, "medium's greedy objective assignment"),
    "no-focus": ({"FOCUS": False}, "medium's shot scoring (no target weights)"),
    "no-position": ({"POSITION": False}, "medium's cover-to-cover advance instead of scored positions"),
    "no-reach": ({"REACH": False}, "moves scored at the nominated point, not where the walk would stop"),
    "no-threat": ({"W_SUP_THREAT": 0.0, "W_CAS_THREAT": 0.0}, "positions without the exposure term"),
    "cautious": ({"W_SUP_THREAT": 1.0, "W_CAS_THREAT": 2.0}, "exposure weighted 3-4x"),
    "no-endgame": ({"ENDGAME": False}, "no end-game objective play"),
    "no-hq-hide": ({"HQ_HIDE": False}, "the HQ acts like a squad when it has no order to give"),
    "assaults": ({"ASSAULTS": True}, "close assaults on beaten enemies"),
    "treat": ({"TREAT": True}, "treats its wounded when nothing else to do"),
    "last-second": ({"LAST_SECOND": True}, "goes second in the last turn"),
    # fire-support and air-assault (measure with --scenario fire-support / air-assault)
    "no-fs-out-of-sight": ({"FS_OUT_OF_SIGHT": 0.0}, "fire support weights no defenders out of every own unit's sight"),
    "no-fs-assaults": ({"FS_ASSAULTS": False}, "no assaults on beaten enemies with fire support in play"),
    "no-skip-hidden": ({"SKIP_HIDDEN": False}, "squads assigned objectives held out of every line of sight"),
    "skip-contestable": ({"SKIP_CONTESTABLE": False}, "skips hidden-held objectives the contest could reach too"),
    "no-deny": ({"DENY": False}, "holders never take a formation that denies the contest room"),
    "deny-anywhere": ({"DENY_COVER": False}, "holders deny the contest room wherever they stand, not only in cover"),
    "deny-before-shot": ({"DENY_SHOT_FIRST": False}, "holders deny the contest room even when they have a shot"),
    "air-home": ({"AIR_HOME": 1}, "aircraft without passengers leave for the loiter box for the last turn"),
    "promote-aa": ({"PROMOTE_AA": True}, "the anti-aircraft team may be promoted to command"),
}
# vehicle games (agents/armour.py; measure with --scenario armour)
VEHICLE_SWITCHES = {
    "no-tank-shock": ({"TANK_SHOCK": False}, "vehicles never tank-shock"),
    "no-close-assault": ({"CLOSE_ASSAULT": False}, "infantry never close-assault vehicles"),
    "no-shock-risk": ({"AVOID_SHOCK": 0.0}, "infantry positions without the tank-shock risk"),
}
# medium's doctrine on the Additional Rules' scenarios (measure with --scenario breach or night-raid)
MEDIUM_SWITCHES = {
    "no-contest": ({"CONTEST": False}, "no reorganise onto an objective the enemy stands on (agents/contest.py)"),
    "lane-always": ({"LANE_ALWAYS": True}, "a lane through every known field on the way, a way round or not"),
    "no-lanes": ({"CLEAR_LANES": False}, "never clears a lane"),
    "drones-anywhere": ({"DRONE_IDLE": False}, "flies drones wherever the unit is, not only from its objective"),
    "no-drones": ({"DRONES": False}, "never flies a drone"),
    "hq-least-covered": ({"HQ_NEAREST": False}, "the HQ makes for the least-covered objective (scripted's)"),
    "one-each": ({"VP_SHARE": False}, "squads shared out one per objective, whatever its points (scripted's)"),
    "smoke-last": ({"SMOKE_THEN_MOVE": False}, "smoke laid with the activation's last action too, in place of the move"),
}
# defensive's vehicle doctrine against medium's (which it used before it had its own)
DEFENSIVE_SWITCHES = {
    "no-hold": ({"HOLD": False, "CAUTIOUS": False}, "medium's vehicle doctrine instead of the hull-down hold"),
}


def register_variants() -> None:
    from agents.ladder import DefensiveAgent, MediumAgent
    for prefix, base, switches in (("hard", HardAgent, SWITCHES), ("hard", HardAgent, VEHICLE_SWITCHES),
                                   ("defensive", DefensiveAgent, DEFENSIVE_SWITCHES),
                                   ("medium", MediumAgent, MEDIUM_SWITCHES)):
        for key, (flags, _) in switches.items():
            name = f"{prefix}-{key}"
            if name not in AGENTS:
                AGENTS[name] = type(name, (base,), dict(flags, name=name))


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def paired(a: str, b: str, pairs: int, seed: int = 0, scenario: str = "default", log=None) -> dict:
    """``log``: called with a progress line after each pair (outside the decisions' clocks)."""
    if a == b:
        raise ValueError("paired A/B needs two different agents")
    clock = {a: [0.0, 0, 0.0], b: [0.0, 0, 0.0]}
    pair_scores, wdl, fallbacks = [], Counter(), Counter()
    t0 = time.perf_counter()
    for k in range(pairs):
        gs = game_seed(seed, k)
        ps = 0.0
        for names in ((a, b), (b, a)):
            g = Game(scenario, seed=gs)
            bots = [make_agent(n, gs * 2 + s) for s, n in enumerate(names)]
            for s, bot in enumerate(bots):
                bot.reset(gs * 2 + s)
            while not g.over:
                d = g.decision()
                ts = time.perf_counter()
                opt = bots[d.side].choose(g, d)
                dt = time.perf_counter() - ts
                c = clock[names[d.side]]
                c[0] += dt
                c[1] += 1
                c[2] = max(c[2], dt)
                g.apply(opt)
            for s, bot in enumerate(bots):
                fallbacks[names[s]] += getattr(bot, "fallbacks", 0)
            side = names.index(a)
            r = 0.5 if g.winner not in (0, 1) else float(g.winner == side)
            wdl["W" if r == 1 else "D" if r == 0.5 else "L"] += 1
            ps += r / 2
        pair_scores.append(ps)
        if log:
            log(f"{a} v {b}: pair {k + 1}/{pairs}, score {statistics.fmean(pair_scores):.3f} "
                f"(W-D-L {wdl['W']}-{wdl['D']}-{wdl['L']}), {time.perf_counter() - t0:.0f} s")
    m = statistics.fmean(pair_scores)
    half = 1.96 * statistics.pstdev(pair_scores) / len(pair_scores) ** 0.5 if len(pair_scores) > 1 else 0.0
    return {"a": a, "b": b, "games": 2 * pairs, "score": round(m, 3), "ci95": round(half, 3),
            "wdl": [wdl["W"], wdl["D"], wdl["L"]], "seconds": round(time.perf_counter() - t0, 1),
            "ms_per_decision": {n: round(1000 * s / max(1, c), 3) for n, (s, c, _) in clock.items()},
            "max_ms": {n: round(1000 * mx, 2) for n, (_, _, mx) in clock.items()},
            "fallbacks": dict(fallbacks)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("agents", nargs="*", help="A B (A's score against B)")
    p.add_argument("--pairs", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--scenario", default="default", help="built-in scenario (e.g. armour)")
    p.add_argument("--ablation", action="store_true", help="every hard-<switch> variant against hard")
    args = p.parse_args(argv)
    register_variants()
    switches = list(SWITCHES) + (list(VEHICLE_SWITCHES) if args.scenario != "default" else [])
    runs = ([(f"hard-{k}", "hard") for k in switches] if args.ablation else [tuple(args.agents)])
    for a, b in runs:
        print(json.dumps(dict(paired(a, b, args.pairs, args.seed, args.scenario, log=_log), scenario=args.scenario)),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
