"""``dustup benchmark``: an agent against each ladder bot over the held-out suite of generated scenarios
(``evaluation.benchmark``; docs/benchmark.md)."""
from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path

from dustup_cli.args import NON_NEGATIVE, POSITIVE

_EPILOG = """examples:
  dustup benchmark --agent hard                          one pair of games per opponent and scenario (96 games)
  dustup benchmark --agent mcts:playouts=16 --games 4 --concurrency 2
  dustup benchmark --agent level:3 --json

the suite (docs/benchmark.md; each scenario is `dustup build ARGS`):
%s

exit codes: 0 done; 2 bad input (one line on stderr); 130 Ctrl-C (the finished games are kept: the same command
resumes)"""


def _suite_help() -> str:
    from evaluation.benchmark import SUITE

    return "\n".join(textwrap.fill(f"{e.name}: {e.about} ({e.build_args()})", 110, initial_indent="  ",
                                   subsequent_indent="      ") for e in SUITE)


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return v


def _agents_line() -> str:
    from dustup_cli.cli import agent_names

    names = ", ".join(a for a in agent_names() if not a.startswith("level"))  # level takes an argument: named below
    return (f"agents: {names} (scripted bots and the search: docs/agents.md), level:N (the strength "
            "levels 1-8), ppo (the shipped trained policy, needs torch: pip install 'dustup-ai[policy]'), policy:PATH "
            "(a model file from dustup train; trusted files only)")


def register(subparsers) -> None:
    from dustup_cli.cli import OUT_HELP

    p = subparsers.add_parser(
        "benchmark", help="score an agent against random, easy, medium and hard on the held-out suite of generated "
                          "scenarios (95%% intervals)",
        description=textwrap.fill(
            "The held-out benchmark: AGENT plays each opponent (random, easy, medium, hard) on the twelve scenarios of "
            "a fixed suite made by the battle builder from published seeds (sizes and arms: vehicles, heavy weapons, "
            "power armour, hidden units, night, ...; docs/benchmark.md), --games games per opponent and scenario as "
            "paired games (the same seed, sides swapped). Prints the score against each opponent over the suite "
            "(a win 1, a draw 1/2) with a 95% bootstrap interval over the game pairs; writes OUT/report.md (also "
            "the score per scenario), summary.json, results.jsonl and the suite's files. Ctrl-C stops at once and "
            "the same command resumes. The suite is never used to tune anything.", 100)
        + "\n\n" + textwrap.fill(_agents_line(), 100),
        epilog=_EPILOG % _suite_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--agent", required=True, help="the agent to measure, e.g. hard, mcts:playouts=16, level:5, ppo")
    p.add_argument("--games", type=POSITIVE, default=2,
                   help="games per opponent and scenario, rounded up to even: pairs with sides swapped (default: 2)")
    p.add_argument("--seed", type=NON_NEGATIVE, default=0,
                   help="master seed; the game seeds derive from it (default: 0)")
    p.add_argument("--concurrency", type=POSITIVE, default=None, help="worker processes (default: all cores)")
    p.add_argument("--decision-time", type=_seconds, default=5.0,
                   help="seconds per decision before an agent forfeits; raise it for slow searches (default: 5)")
    p.add_argument("--out", help=OUT_HELP % "benchmark")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    p.set_defaults(func=_cmd_benchmark)


def _out(args, agent: str, config: dict, agents: list, docs: list) -> Path:
    """--out, or the run's own folder under runs/benchmark/ (its hash covers what decides the games)."""
    from dustup_cli.cli import UsageError
    from evaluation.runs import check_out, default_out, run_identity

    out = args.out
    if out is None:
        out = default_out("benchmark", agent, dict(config, identity=run_identity(agents, docs)))
    try:
        return check_out(out)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _cmd_benchmark(args) -> int:
    from dustup_cli.cli import UsageError
    from evaluation import benchmark as B

    agent = args.agent.strip()
    if not agent:
        raise UsageError("--agent is empty: name an agent, e.g. --agent hard")
    from dustup_cli.cli import check_agent

    check_agent(agent)
    if [o for o in B.OPPONENTS if o != agent] == []:
        raise UsageError(f"--agent {agent!r} is the only opponent")
    docs = [B.scenario_document(e) for e in B.SUITE]
    agents = [agent] + [o for o in B.OPPONENTS if o != agent]
    out = _out(args, agent, {"agent": agent, "opponents": list(B.OPPONENTS), "seed": args.seed,
                             "suite": B.SUITE_DIGESTS}, agents, docs)
    try:
        summ = B.run(agent, out, games=args.games, seed=args.seed, concurrency=args.concurrency,
                     progress=not args.no_progress, decision_time=args.decision_time)
    except B.BenchmarkError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps(summ))
        return 0
    print(f"{agent}: {summ['games']} games on the held-out suite ({len(B.SUITE)} scenarios, "
          f"{summ['games_per_scenario']} games per opponent and scenario, paired, seed {args.seed})")
    if summ["suite_differs"]:
        print(f"warning: the suite generated here differs from the published one ({', '.join(summ['suite_differs'])}):"
              " not comparable with the published tables")
    print(f"{'opponent':<10}{'score':>7}   95% interval   W/D/L")
    for o in B.OPPONENTS:
        v = summ["scores"][o]
        if v is None:
            print(f"{o:<10}{'itself':>7}")
        else:
            wdl = "/".join(map(str, v["wdl"]))
            print(f"{o:<10}{v['score']:>7.3f}   [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}]  {wdl}")
    if summ["forfeits"]:
        print(f"forfeits: {len(summ['forfeits'])} (see the report)")
    print(f"report: {out}/report.md (score per scenario; data summary.json, results.jsonl)")
    return 0
