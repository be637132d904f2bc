"""The ``dustup`` command line.  Every subcommand has ``--help``."""
from __future__ import annotations

import argparse
import json
import sys


def _cmd_simulate(args) -> int:
    from evaluation.simulate import simulate

    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(names) != 2:
        print(f"dustup simulate: --agents needs exactly two agents separated by a comma, got {args.agents!r}",
              file=sys.stderr)
        return 2
    from agents import make_agent

    for n in names:
        try:
            make_agent(n)
        except ValueError as e:
            print(f"dustup simulate: {e}", file=sys.stderr)
            return 2
    options = json.loads(args.options) if args.options else None
    res = simulate(names[0], names[1], args.games, scenario=args.scenario, seed=args.seed, options=options,
                   progress=not args.no_progress)
    if args.json:
        print(json.dumps(res))
        return 0
    a, b = list(res["wins"])
    print(f"scenario {res['scenario']}, {res['games']} games, master seed {res['seed']} "
          f"(each agent plays each side in half the games)")
    print(f"{'agent':<12}{'wins':>6}{'draws':>7}{'losses':>8}{'score %':>9}")
    for n in (a, b):
        score = (res["wins"][n] + 0.5 * res["draws"]) / max(1, res["games"]) * 100
        print(f"{n:<12}{res['wins'][n]:>6}{res['draws']:>7}{res['losses'][n]:>8}{score:>9.1f}")
    print(f"mean length: {res['mean_decisions']:.1f} decisions, {res['mean_turns']:.2f} turns; "
          f"wins by side: {res['side_wins']}")
    return 0


def _cmd_odds(args) -> int:
    from evaluation.odds import impact_odds, shoot_odds, to_float

    try:
        if args.what == "shoot":
            if not args.firepower:
                print("dustup odds shoot: give at least one --firepower die (small arms and/or support)",
                      file=sys.stderr)
                return 2
            res = shoot_odds(args.quality, args.firepower, args.target, suppressive=args.suppressive,
                             extra_hits=not args.no_extra_hits)
        else:
            res = impact_odds(args.impact, args.armour, no_armour=args.no_armour)
    except ValueError as e:
        print(f"dustup odds {args.what}: {e}", file=sys.stderr)
        return 2
    out = to_float(res)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            if isinstance(v, dict):
                for kk, vv in v.items():
                    print(f"  {k}={kk}: {vv:.6f}")
            else:
                print(f"{k}: {v:.6f}")
    return 0


def _cmd_scenarios(args) -> int:
    from dustup_env.rules.kernel.data import load_scenario, scenario_names

    rows = []
    for n in scenario_names():
        s = load_scenario(n)
        rows.append({"name": n, "table": f"{s['table']['width']}x{s['table']['height']}",
                     "turn_limit": s["turn_limit"], "units": [len(side["units"]) for side in s["sides"]],
                     "objectives": len(s.get("objectives", [])), "description": s.get("description", "")})
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"{r['name']:<12} {r['table']:>6}\"  turns {r['turn_limit']:>2}  units {r['units'][0]} v "
                  f"{r['units'][1]}  objectives {r['objectives']}  {r['description']}")
    return 0


def _cmd_replay(args) -> int:
    from dustup_env.rules import DustupError, Game

    try:
        g = Game.load(args.file)
    except (DustupError, OSError) as e:
        print(f"dustup replay: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"result": g.result(), "events": g.event_log()}))
    else:
        for e in g.event_log():
            print(json.dumps(e))
        print(json.dumps(g.result()))
    return 0


def _cmd_play(args) -> int:
    """Play one game between two agents, optionally saving it."""
    from agents import make_agent
    from evaluation.simulate import play_game

    names = [a.strip() for a in args.agents.split(",")]
    if len(names) != 2:
        print("dustup play: --agents needs two agents, e.g. scripted,random", file=sys.stderr)
        return 2
    try:
        agents = [make_agent(n, seed=args.seed * 2 + i) for i, n in enumerate(names)]
    except ValueError as e:
        print(f"dustup play: {e}", file=sys.stderr)
        return 2
    g = play_game(args.scenario, agents, args.seed)
    if args.save:
        g.save(args.save)
    res = g.result()
    res["agents"] = names
    print(json.dumps(res))
    return 0


def _cmd_tournament(args) -> int:
    from evaluation import tournament as T

    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    if len(agents) + (1 if args.gauntlet and args.gauntlet not in agents else 0) < 2:
        print("dustup tournament: need at least two agents", file=sys.stderr)
        return 2
    try:
        records = T.run(agents, scenarios, args.games, args.out, seed=args.seed, gauntlet=args.gauntlet,
                        concurrency=args.concurrency, backend=args.backend, max_decisions=args.max_decisions,
                        decision_time=args.decision_time, replays=args.replays, progress=not args.no_progress)
    except (ValueError, RuntimeError) as e:
        print(f"dustup tournament: {e}", file=sys.stderr)
        return 2
    obj = T.report(records, args.out, anchor=args.anchor, bootstrap=args.bootstrap, seed=args.seed)
    if args.json:
        print(json.dumps({"ratings": obj["ratings"], "games": obj["games"], "anchor": obj["anchor"],
                          "side_advantage_elo": obj["side_advantage_elo"], "los": obj["los"],
                          "order": obj["order"], "report": str(args.out)}))
        return 0
    print(f"{'rank':<5}{'agent':<12}{'Elo':>7}   95% CI")
    for i, a in enumerate(obj["order"]):
        r = obj["ratings"][a]
        print(f"{i + 1:<5}{a:<12}{r['elo']:>+7.0f}   [{r['ci95'][0]:+.0f}, {r['ci95'][1]:+.0f}]")
    print(f"{obj['games']} games; side-0 advantage {obj['side_advantage_elo']:+.0f} Elo; "
          f"report: {args.out}/report.md (plots scores.png, ratings.png; data ratings.json, results.jsonl)")
    return 0


def _cmd_sprt(args) -> int:
    from evaluation.ratings import sprt_bounds, sprt_llr
    from evaluation.tournament import run

    names = [a.strip() for a in args.agents.split(",")]
    if len(names) != 2 or names[0] == names[1]:
        print("dustup sprt: --agents needs two different agents: CANDIDATE,BASELINE", file=sys.stderr)
        return 2
    lo, hi = sprt_bounds(args.alpha, args.beta)
    games, verdict, llr = 0, "inconclusive", 0.0
    w = d = l = 0
    while games < args.max_games:
        games = min(args.max_games, games + args.batch)
        try:
            recs = run(names, [args.scenario], games, args.out, seed=args.seed, gauntlet=names[0],
                       concurrency=args.concurrency, progress=False)
        except (ValueError, RuntimeError) as e:
            print(f"dustup sprt: {e}", file=sys.stderr)
            return 2
        w = sum(1 for r in recs if r["winner"] in (0, 1) and r["agents"][r["winner"]] == names[0])
        l = sum(1 for r in recs if r["winner"] in (0, 1) and r["agents"][r["winner"]] == names[1])
        d = len(recs) - w - l
        llr = sprt_llr(w, d, l, args.elo0, args.elo1)
        print(f"games {len(recs)}: W {w} D {d} L {l}  LLR {llr:+.3f}  bounds [{lo:.3f}, {hi:.3f}]", file=sys.stderr)
        if llr >= hi:
            verdict = "H1"
            break
        if llr <= lo:
            verdict = "H0"
            break
    res = {"candidate": names[0], "baseline": names[1], "wins": w, "draws": d, "losses": l, "llr": llr,
           "bounds": [lo, hi], "elo0": args.elo0, "elo1": args.elo1, "verdict": verdict}
    print(json.dumps(res) if args.json else
          f"{names[0]} vs {names[1]}: {verdict} (H1: {names[0]} is at least {args.elo1} Elo better than "
          f"{args.elo0}; LLR {llr:+.3f})")
    return 0


def _cmd_train(args) -> int:
    from training.config import ConfigError, defaults, describe, dump, load_config

    if args.print_config:
        print(dump(defaults()), end="")
        return 0
    if args.list_keys:
        print("\n".join(describe()))
        return 0
    overrides: dict = {}
    if args.steps is not None:
        overrides["budget"] = {"steps": args.steps}
    if args.minutes is not None:
        overrides.setdefault("budget", {})["minutes"] = args.minutes
    if args.seed is not None:
        overrides["seed"] = args.seed
    try:
        cfg = load_config(args.config, overrides or None)
    except ConfigError as e:
        print(f"dustup train: {e}", file=sys.stderr)
        return 2
    from training.train import Trainer

    try:
        summ = Trainer(cfg, args.out, progress=not args.no_progress,
                       log=lambda m: print(m, file=sys.stderr)).run()
    except ConfigError as e:
        print(f"dustup train: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summ))
        return 130 if summ.get("interrupted") else 0
    print(f"trained {summ['steps']:,} steps in {summ['wall_seconds']:.0f}s: {summ['steps_per_s_training']} steps/s "
          f"incl. PPO updates (env {summ['fraction_env']}, update {summ['fraction_update']} of the training time)")
    if summ.get("best"):
        b = summ["best"]
        print(f"best snapshot {b['name']}: mean gauntlet score {b['mean_score']:.3f}, Elo {b['elo']:+.0f}")
    print(f"run folder: {args.out} (best.zip, final.zip, gauntlet.md, curves.png, summary.json; "
          f"re-run the same command to resume)")
    return 130 if summ.get("interrupted") else 0  # 130: stopped by Ctrl-C (cleanly, checkpoint written)


def _cmd_gauntlet(args) -> int:
    from training.gauntlet import evaluate

    anchors = [a.strip() for a in args.anchors.split(",") if a.strip()]
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    try:
        from agents import make_agent

        for a in [args.agent] + anchors:
            make_agent(a)
        summ = evaluate(args.agent, args.out, anchors, scenarios, args.games, args.seed,
                        concurrency=args.concurrency, bootstrap=args.bootstrap, label="candidate")
    except (ValueError, RuntimeError) as e:
        print(f"dustup gauntlet: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summ))
        return 0
    print(f"{args.agent}: {summ['games']} games on {','.join(scenarios)} (paired, both sides, seed {args.seed})")
    print(f"{'anchor':<12}{'score':>7}   95% CI          W/D/L")
    for a, v in summ["scores"].items():
        print(f"{a:<12}{v['score']:>7.3f}   [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}]  {'/'.join(map(str, v['wdl']))}")
    print(f"Elo {summ['elo']:+.0f} [{summ['elo_ci95'][0]:+.0f}, {summ['elo_ci95'][1]:+.0f}] ({summ['elo_anchor']} = 0; "
          f"anchors: " + ", ".join(f"{a} {e:+.0f}" for a, e in summ["anchor_elo"].items()) + ")")
    if summ["forfeits"]:
        print(f"forfeits: {summ['forfeits']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dustup", description="Dustup AI: the Dustup wargame rules engine, "
                                "agents and evaluation tools.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("simulate", help="play games between two agents (both play both sides equally)",
                       description="Play N games between two agents; agent A takes side 0 in even games and "
                                   "side 1 in odd games. Prints wins/draws/losses and mean game length.")
    s.add_argument("--agents", required=True, help="two agent names, comma separated (e.g. scripted,random)")
    s.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    s.add_argument("--scenario", default="default", help="built-in scenario name or a scenario JSON file")
    s.add_argument("--seed", type=int, default=0, help="master seed; per-game seeds derive from it")
    s.add_argument("--options", help="game rule options as JSON, e.g. '{\"extra_hits\": false}'")
    s.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    s.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    s.set_defaults(func=_cmd_simulate)

    o = sub.add_parser("odds", help="exact probabilities of shooting and impact rolls",
                       description="Exact odds computed by enumerating the engine's own resolution code over "
                                   "every die face.")
    osub = o.add_subparsers(dest="what", required=True, metavar="ROLL")
    sh = osub.add_parser("shoot", help="one shoot action: none/minor/major, hits distribution",
                         description="Odds of a shoot action: the firer rolls the quality die plus each "
                                     "firepower die against the target die.")
    sh.add_argument("--quality", default="d8", help="firer quality die (default d8)")
    sh.add_argument("--firepower", action="append", default=[],
                    help="a firepower die (repeat: small arms die, then support dice)")
    sh.add_argument("--target", default="d8", help="target die after shifts (default d8)")
    sh.add_argument("--suppressive", action="store_true", help="suppressive fire: no hits")
    sh.add_argument("--no-extra-hits", action="store_true", help="turn off the optional additional-hit roll")
    sh.add_argument("--json", action="store_true", help="print JSON")
    sh.set_defaults(func=_cmd_odds)
    im = osub.add_parser("impact", help="one hit: impact die against armour die",
                         description="Odds of one hit: impact > armour wounds, impact > 2x armour kills.")
    im.add_argument("--impact", default="d8", help="weapon impact die")
    im.add_argument("--armour", default="d6", help="armour die after shifts")
    im.add_argument("--no-armour", action="store_true", help="target has no armour (any non-kill is a wound)")
    im.add_argument("--json", action="store_true", help="print JSON")
    im.set_defaults(func=_cmd_odds)

    sc = sub.add_parser("scenarios", help="list the built-in scenarios", description="List built-in scenarios.")
    sc.add_argument("--json", action="store_true", help="print JSON")
    sc.set_defaults(func=_cmd_scenarios)

    pl = sub.add_parser("play", help="play one game between two agents (optionally save it)",
                        description="Play one game and print its result; --save writes a replayable save.")
    pl.add_argument("--agents", default="scripted,random", help="side 0 agent, side 1 agent")
    pl.add_argument("--scenario", default="default", help="scenario name or JSON file")
    pl.add_argument("--seed", type=int, default=0, help="game seed")
    pl.add_argument("--save", help="write the save (scenario, seed, decisions) to this JSON file")
    pl.set_defaults(func=_cmd_play)

    t = sub.add_parser("tournament", help="round-robin or gauntlet tournament with Elo ratings and a report",
                       description="Every pairing plays --games games per scenario as paired games (same seed, "
                                   "sides swapped). Results are appended to OUT/results.jsonl: re-running the same "
                                   "command resumes. Writes OUT/report.md, ratings.json, scores.png, ratings.png.")
    t.add_argument("--agents", required=True, help="comma-separated agent names")
    t.add_argument("--gauntlet", help="play only this agent against each of --agents")
    t.add_argument("--scenarios", default="default", help="comma-separated scenarios (default: default)")
    t.add_argument("--games", type=int, default=20, help="games per pairing per scenario (rounded up to even)")
    t.add_argument("--seed", type=int, default=0, help="master seed; game seeds derive from it")
    t.add_argument("--concurrency", type=int, default=None, help="worker processes (default: all cores)")
    t.add_argument("--backend", default="local", choices=["local", "ray"], help="process pool backend")
    t.add_argument("--out", default="runs/tournament", help="output folder (results, report, plots)")
    t.add_argument("--max-decisions", type=int, default=20000, help="decision cap per game (reached: draw)")
    t.add_argument("--decision-time", type=float, default=5.0, help="seconds per decision before forfeit")
    t.add_argument("--replays", type=int, default=0, help="save replays of the first N scheduled games")
    t.add_argument("--anchor", default="random", help="agent fixed at 0 Elo")
    t.add_argument("--bootstrap", type=int, default=200, help="bootstrap resamples for the 95%% intervals")
    t.add_argument("--json", action="store_true", help="print the ratings object as JSON")
    t.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    t.set_defaults(func=_cmd_tournament)

    sp = sub.add_parser("sprt", help="sequential probability ratio test: is CANDIDATE better than BASELINE?",
                        description="Plays paired games in batches until the GSPRT log-likelihood ratio crosses "
                                    "a bound (H1: elo >= elo1, H0: elo <= elo0) or --max-games is reached.")
    sp.add_argument("--agents", required=True, help="CANDIDATE,BASELINE")
    sp.add_argument("--elo0", type=float, default=0.0, help="H0 Elo difference")
    sp.add_argument("--elo1", type=float, default=50.0, help="H1 Elo difference")
    sp.add_argument("--alpha", type=float, default=0.05, help="false positive rate")
    sp.add_argument("--beta", type=float, default=0.05, help="false negative rate")
    sp.add_argument("--max-games", type=int, default=1000, help="stop after this many games")
    sp.add_argument("--batch", type=int, default=20, help="games between checks")
    sp.add_argument("--scenario", default="default", help="scenario")
    sp.add_argument("--seed", type=int, default=0, help="master seed")
    sp.add_argument("--concurrency", type=int, default=None, help="worker processes (default: all cores)")
    sp.add_argument("--out", default="runs/sprt", help="results folder (resumable)")
    sp.add_argument("--json", action="store_true", help="print JSON")
    sp.set_defaults(func=_cmd_sprt)

    tr = sub.add_parser(
        "train", help="train a MaskablePPO policy by self-play (resumable)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Train MaskablePPO on Dustup-v0 with parallel environments (both cores), an opponent pool "
                    "(scripted bots + frozen snapshots, prioritised fictitious self-play), the learner on both "
                    "sides, a fixed gauntlet against anchors at every snapshot (ratings with 95% CIs, curves.png), "
                    "checkpoints and TensorBoard logs in OUT/tb. Re-running the same command resumes the run.",
        epilog="config keys (YAML; every key optional, see --print-config and docs/training.md):\n  "
               + "\n  ".join(__import__("training.config", fromlist=["describe"]).describe())
               + "\n\nModel files are loaded with pickle: load only files you trust.")
    tr.add_argument("--config", help="YAML configuration file (default: the built-in defaults)")
    tr.add_argument("--out", default="runs/train", help="run folder (default runs/train); an existing run resumes")
    tr.add_argument("--steps", type=int, help="override budget.steps (total learner steps)")
    tr.add_argument("--minutes", type=float, help="override budget.minutes (wall-clock limit; resumable)")
    tr.add_argument("--seed", type=int, help="override seed")
    tr.add_argument("--print-config", action="store_true", help="print the default configuration as YAML and exit")
    tr.add_argument("--list-keys", action="store_true", help="list every config key with its default and exit")
    tr.add_argument("--json", action="store_true", help="print the run summary as JSON")
    tr.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    tr.set_defaults(func=_cmd_train)

    ga = sub.add_parser("gauntlet", help="score an agent against fixed anchors (paired games, 95%% CIs)",
                        description="The training gauntlet as a command: AGENT plays --games paired games (same "
                                    "seeds, sides swapped) against each anchor through the tournament code; prints "
                                    "the score per anchor with a 95% bootstrap interval over pairs, and the Elo "
                                    "(anchors' own round robin fixes the scale). Resumable like tournament.")
    ga.add_argument("--agent", required=True, help="the agent to measure, e.g. ppo or policy:PATH (trusted files only)")
    ga.add_argument("--anchors", default="random,easy,medium,hard", help="comma-separated anchors")
    ga.add_argument("--scenarios", default="default", help="comma-separated scenarios")
    ga.add_argument("--games", type=int, default=400, help="games per anchor per scenario (default 400: 200 pairs)")
    ga.add_argument("--seed", type=int, default=20261122, help="seed of the fixed games")
    ga.add_argument("--concurrency", type=int, default=2, help="worker processes")
    ga.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples")
    ga.add_argument("--out", default="runs/gauntlet", help="results folder")
    ga.add_argument("--json", action="store_true", help="print the summary as JSON")
    ga.set_defaults(func=_cmd_gauntlet)

    rp = sub.add_parser("replay", help="replay a saved game and print its event log",
                        description="Load a save, replay it exactly, and print every event.")
    rp.add_argument("file", help="a save written by `dustup play --save`")
    rp.add_argument("--json", action="store_true", help="one JSON object")
    rp.set_defaults(func=_cmd_replay)

    from dustup_env.commands import register_all

    register_all(sub)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except Exception as e:  # a clear message instead of a traceback for bad input
        from dustup_env.rules import DustupError

        if isinstance(e, (DustupError, json.JSONDecodeError)):
            print(f"dustup {args.command}: {e}", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main())
