"""The ``dustup`` command line.  Every subcommand has ``--help``.

Bad input is refused with one line on stderr naming the problem and exit status 2, before anything is
played or written; only bad input exits with 2: a file-system error exits with 1 and a bug with 3 (one line
that says so).  Long commands show progress on stderr (``--no-progress`` hides it), keep every
finished game in their output folder and stop cleanly on Ctrl-C (exit status 130; the same command
resumes).  Without ``--out`` each distinct run gets its own folder under ``runs/<command>/``.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

from dustup_cli.args import NON_NEGATIVE, POSITIVE, int_at_least

EXIT_FAILED = 1  # the command could not finish for an outside reason (a file-system error: disk full, ...)
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


class UsageError(ValueError):
    """Bad input found by a command after parsing (printed as one line, exit status 2)."""


# ---------------------------------------------------------------------------------------------- argument types
def _number(lo: float | None = None, hi: float | None = None, open_lo: bool = False, open_hi: bool = False):
    def conv(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
        if not math.isfinite(v):
            raise argparse.ArgumentTypeError(f"expected a finite number, not {text!r}")
        if lo is not None and (v < lo or (open_lo and v == lo)):
            raise argparse.ArgumentTypeError(f"must be {'above' if open_lo else 'at least'} {lo:g}, not {v:g}")
        if hi is not None and (v > hi or (open_hi and v == hi)):
            raise argparse.ArgumentTypeError(f"must be {'below' if open_hi else 'at most'} {hi:g}, not {v:g}")
        return v

    conv.__name__ = "number"
    return conv


def _probability(text: str) -> float:
    v = _number()(text)
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"must be a probability strictly between 0 and 1, not {v:g}")
    return v




def _game_options(text: str) -> dict:
    """``--options``: JSON text, or the path of a JSON file; it must hold one JSON object."""
    p = Path(text)
    where = "the text"
    if text.strip() and not text.lstrip().startswith(("{", "[", '"')) and p.is_file():
        try:
            text = p.read_text()
        except OSError as e:
            raise argparse.ArgumentTypeError(f"cannot read {str(p)!r}: {e.strerror}") from None
        where = f"the file {str(p)!r}"
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        if where == "the text" and not text.lstrip().startswith(("{", "[")):
            raise argparse.ArgumentTypeError(
                f"{text!r} is neither a JSON file nor JSON text; expected an object such as "
                "'{\"extra_hits\": false}' or the path of a file holding one") from None
        raise argparse.ArgumentTypeError(
            f"{where} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}; "
            "expected an object such as '{\"extra_hits\": false}'") from None
    if not isinstance(obj, dict):
        kind = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true/false",
                type(None): "null"}.get(type(obj), type(obj).__name__)
        raise argparse.ArgumentTypeError(f"{where} must be a JSON object such as '{{\"extra_hits\": false}}', "
                                         f"not {kind}")
    return obj


_game_options.__name__ = "game options"


def _names(text: str, what: str) -> list[str]:
    names = [a.strip() for a in text.split(",")]
    if not text.strip():
        raise UsageError(f"{what} is empty: give comma-separated names")
    if any(not a for a in names):
        raise UsageError(f"{what} {text!r} has an empty name (two commas, or a comma at an end)")
    out = []
    for a in names:  # an agent's further settings (mcts:time=0.25,prior=hard) stay with their agent
        if out and "=" in a and ":" not in a and ":" in out[-1]:
            out[-1] += "," + a
        else:
            out.append(a)
    return out


# ---------------------------------------------------------------------------------------------- agents
def agent_names() -> list[str]:
    """The built-in agent names (scripted bots), for help texts."""
    from agents import AGENTS
    from agents import ladder, scripted  # noqa: F401  (register themselves)

    order = ["random", "scripted", "easy", "medium", "hard", "defensive"]
    trained = ("ppo", "ppo-skirmish", "policy")  # named separately in the help: they need the [policy] extra
    out = [a for a in order if a in AGENTS] + sorted(a for a in AGENTS if a not in order and a not in trained)
    return [_with_argument(a, AGENTS[a]) for a in out]


def _with_argument(name: str, factory) -> str:
    """``level:N`` for an agent that takes an argument, ``mcts[:KEY=VALUE,...]`` where it may go without."""
    arg = getattr(factory, "agent_argument", None)
    if not arg:
        return name
    return f"{name}[:{arg}]" if getattr(factory, "agent_argument_optional", False) else f"{name}:{arg}"


def _agents_help(extra: str = "") -> str:
    return (f"agents: {', '.join(agent_names())} (scripted bots; see docs/agents.md), ppo (the shipped trained "
            f"policy, needs torch: pip install 'dustup-ai[policy]'), ppo-skirmish (ppo fine-tuned on skirmish), "
            f"policy:PATH (a model file from dustup train; "
            f"trusted files only){extra}")


def check_agent(name: str) -> None:
    """Refuse an agent name that does not resolve with a one-line :class:`UsageError` (every command's check)."""
    from agents import make_agent

    try:
        make_agent(name)
    except ValueError as e:
        raise UsageError(str(e)) from None
    except ImportError as e:
        raise UsageError(f"agent {name!r} needs the trained-policy packages (torch, sb3-contrib), which are not "
                         f"installed ({e}): pip install 'dustup-ai[policy]'") from None


def _check_scenarios(scenarios: list[str], options: dict | None) -> None:
    """Scenario names/files and the game options, checked by building one game per scenario (no game is played)."""
    from dustup_env.rules import Game
    from dustup_env.rules.kernel.data import load_scenario

    for sc in scenarios:
        load_scenario(sc)
        Game(sc, seed=0, options=options or None)


def _check_out(out) -> Path:
    from evaluation.runs import check_out

    try:
        return check_out(out)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _out(args, command: str, name: str, config: dict, agents: list[str], scenarios: list[str],
         options: dict | None) -> Path:
    """``--out``, or the run's own folder: its hash covers ``config`` and what else decides the games (the
    engine's version and rules, each scenario's content, each agent's code or model file), so after an upgrade,
    an edited scenario file or a retrained model the same command starts a new folder instead of reporting the
    old games.  (A folder given with ``--out`` is checked against the same when it is resumed.)"""
    from evaluation.runs import default_out, run_identity

    if args.out is not None:
        return _check_out(args.out)
    config = dict(config, identity=run_identity(agents, scenarios, options))
    return _check_out(default_out(command, name, config))


def _progress(args) -> bool:
    return not getattr(args, "no_progress", False)


# ---------------------------------------------------------------------------------------------- simulate
def _cmd_simulate(args) -> int:
    from evaluation.simulate import simulate, table_lines

    names = _names(args.agents, "--agents")
    if len(names) != 2:
        raise UsageError(f"--agents needs exactly two agents separated by a comma, got {args.agents!r}")
    for n in names:
        check_agent(n)
    _check_scenarios([args.scenario], args.options)
    out = _out(args, "simulate", f"{names[0]}-{names[1]}-{Path(args.scenario).stem}",
               {"agents": names, "scenario": args.scenario, "seed": args.seed, "options": args.options or {}},
               names, [args.scenario], args.options)
    res = simulate(names[0], names[1], args.games, scenario=args.scenario, seed=args.seed, options=args.options,
                   progress=_progress(args), out=out)
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"scenario {res['scenario']}, {res['games']} games, master seed {res['seed']} "
          f"(each agent plays each side in half the games)")
    print("\n".join(table_lines(res)))
    print(f"report: {out}/report.md (games in results.jsonl; the same command reuses them)")
    return 0


# ---------------------------------------------------------------------------------------------- odds
def _cmd_odds_accuracy(args) -> int:
    """`dustup odds accuracy`: one fire-support round through the engine's own roll (artillery impacts)."""
    from dustup_env.rules.artillery_and_air_support.impacts import accuracy_distribution

    guidance = "laser" if args.laser else "self" if args.self_guided else "none"
    try:
        on, scatter = accuracy_distribution(None if args.equipment == "none" else args.equipment, args.leadership,
                                            guidance)
    except ValueError as e:
        raise UsageError(str(e)) from None
    out = {"on_target": float(on), "scatter": {str(k): float(v) for k, v in scatter.items()}}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"on_target: {out['on_target']:.6f}")
        for k, v in out["scatter"].items():
            print(f"  scatter {k}\": {v:.6f}")
    return 0


def _cmd_odds_minefield(args) -> int:
    """`dustup odds minefield`: one model or vehicle crossing a minefield (Additional Rules › Minefields)."""
    from evaluation.odds import minefield_odds, to_float

    if args.inches is None:
        raise UsageError("give --inches N: how far the model or vehicle moves inside the minefield")
    try:
        res = minefield_odds(args.type, args.inches, quality=args.quality, vehicle=args.vehicle, belly=args.belly)
    except ValueError as e:
        raise UsageError(str(e)) from None
    out = to_float(res)
    if args.json:
        print(json.dumps(out))
    elif "hits" in out:
        for k, v in out["hits"].items():
            print(f"  hits={k}: {v:.6f}")
    else:
        for k, v in out.items():
            print(f"{k}: {v:.6f}")
    return 0


def _cmd_odds(args) -> int:
    from evaluation.odds import guided_odds, impact_odds, request_odds, shoot_odds, to_float, vehicle_impact_odds

    try:
        if args.what == "shoot":
            if not args.firepower:
                raise UsageError("give at least one --firepower die (small arms and/or support)")
            res = shoot_odds(args.quality, args.firepower, args.target, suppressive=args.suppressive,
                             extra_hits=not args.no_extra_hits)
        elif args.what == "guided":
            res = guided_odds(args.quality, args.guidance, args.ecm, args.impact, args.armour, cover=args.cover)
        elif args.what == "request":
            res = request_odds(args.requestor, args.support, args.leadership, chits=args.chits,
                               down=2 if args.other_company else (1 if args.other_platoon else 0))
        elif args.vehicle:
            if args.no_armour:
                raise UsageError("--no-armour is for infantry; a vehicle always has an armour die")
            res = vehicle_impact_odds(args.impact, args.armour)
        else:
            res = impact_odds(args.impact, args.armour, no_armour=args.no_armour)
    except ValueError as e:
        raise UsageError(str(e)) from None
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


# ---------------------------------------------------------------------------------------------- scenarios
def _cmd_scenarios(args) -> int:
    from dustup_env.rules.kernel.data import load_scenario, scenario_names

    if args.check:
        for f in args.check:
            if not Path(f).is_file():
                raise UsageError(f"--check {f!r}: no such file")
        _check_scenarios(args.check, None)  # schema, consistency, and a game built from it
    rows = []
    for n in (args.check or scenario_names()):
        s = load_scenario(n)
        rows.append({"name": s["name"] if args.check else n, "table": f"{s['table']['width']}x{s['table']['height']}",
                     "turn_limit": s["turn_limit"], "units": [len(side["units"]) for side in s["sides"]],
                     "objectives": len(s.get("objectives", [])), "description": s.get("description", "")})
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"{r['name']:<12} {r['table']:>6}\"  turns {r['turn_limit']:>2}  units {r['units'][0]} v "
                  f"{r['units'][1]}  objectives {r['objectives']}  {r['description']}")
        if args.check:
            print(f"{len(args.check)} scenario file(s) valid: each builds a game")
    return 0


# ---------------------------------------------------------------------------------------------- replay
def _load_save(path: str):
    from dustup_env.rules import Game

    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{path!r} is a folder, not a save file")
    if not p.is_file():
        raise UsageError(f"no such file: {path!r}")
    g = Game.load(p)  # validates (SaveFormatError names the problem)
    return g, json.loads(p.read_text())


def _cmd_replay(args) -> int:
    from dustup_env import render

    if args.side is not None and args.side not in (0, 1):
        raise UsageError(f"--side must be 0 or 1, not {args.side}")
    gif = Path(args.gif) if args.gif else None
    if gif is not None:
        if gif.is_dir():
            raise UsageError(f"--gif {args.gif!r} is a folder: give a file name ending in .gif")
        if gif.suffix.lower() != ".gif":
            raise UsageError(f"--gif {args.gif!r}: the file name must end in .gif")
        if not gif.parent.is_dir():
            raise UsageError(f"--gif {args.gif!r}: the folder {str(gif.parent)!r} does not exist")
    if args.frames:
        _check_out(args.frames)
        if Path(args.frames).is_dir() and any(Path(args.frames).glob("frame_*.png")):
            raise UsageError(f"--frames {args.frames!r} already holds frame_*.png files: use an empty folder")
    g, save = _load_save(args.file)
    if args.frames or gif:
        frames = list(render.replay_frames(save, every=args.every, side=args.side, scale=args.scale, size=args.size))
        if args.frames:
            paths = render.save_pngs(frames, args.frames)
            print(f"{len(paths)} pictures in {args.frames} (frame_000.png = the start)", file=sys.stderr)
        if gif:
            n = render.save_gif(frames, gif, seconds_per_frame=args.seconds)
            print(f"{gif}: {n} frames", file=sys.stderr)
        return 0
    if args.json:
        print(json.dumps({"result": g.result(), "events": g.event_log(args.side) if args.side is not None
                          else g.event_log()}))
        return 0
    from dustup_env.terminal import story

    try:
        lines = story(g, side=args.side, unit=args.unit)
    except ValueError as e:  # --unit names no unit, or several
        raise UsageError(f"--unit: {e}") from None
    for line in lines:
        print(line)
    return 0


# ---------------------------------------------------------------------------------------------- play
def _check_save_path(path: str) -> Path:
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"--save {path!r} is a folder: give a file name, e.g. {str(p / 'game.json')!r}")
    parent = p.parent
    if not parent.is_dir():
        raise UsageError(f"--save {path!r}: the folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UsageError(f"--save {path!r}: cannot write there")
    return p


def _cmd_play(args) -> int:
    """Play one game between two agents (a person too: human), optionally saving it."""
    from agents import make_agent
    from dustup_env.agent_registry import unfamiliar
    from dustup_env.rules import Game

    names = _names(args.agents, "--agents")
    if len(names) != 2:
        raise UsageError(f"--agents needs two agents, side 0 then side 1 (e.g. scripted,random), got {args.agents!r}")
    for n in names:
        if n != "human":
            check_agent(n)
    _check_scenarios([args.scenario], args.options)
    save = _check_save_path(args.save) if args.save else None
    g = Game(args.scenario, seed=args.seed, options=args.options or None)
    humans = []
    agents = []
    for s, n in enumerate(names):
        if n == "human":
            from dustup_env.terminal import HumanAgent

            humans.append(HumanAgent(s))
            agents.append(humans[-1])
        else:
            a = make_agent(n, seed=args.seed * 2 + s)
            a.reset(args.seed * 2 + s)
            agents.append(a)
            note = unfamiliar(a, g)
            if note:  # an agent that was not trained or written for this scenario says so
                print(f"note: {note}", file=sys.stderr)
    from dustup_env.terminal import Quit

    try:
        if humans:
            from dustup_env.terminal import play

            play(g, agents, humans)
        else:
            while not g.over:
                d = g.decision()
                g.apply(agents[d.side].choose(g, d))
    except (KeyboardInterrupt, Quit) as e:  # the game so far is kept
        if save:
            g.save(save)
        where = f"; the game so far is saved in {save} (dustup replay {save})" if save else ""
        if isinstance(e, KeyboardInterrupt):
            print(f"dustup play: interrupted in turn {g.turn}{where}", file=sys.stderr)
            return EXIT_INTERRUPTED
        print(f"dustup play: {e} in turn {g.turn}{where}", file=sys.stderr)
        return 1
    if save:
        g.save(save)
    res = g.result()
    res["agents"] = names
    if save:
        res["save"] = str(save)
    print(json.dumps(res))
    return 0


# ---------------------------------------------------------------------------------------------- tournament
def _anchor(args_anchor: str, agents: list[str]) -> str:
    if args_anchor in (None, "auto", "mean") or args_anchor in agents:
        return args_anchor
    raise UsageError(f"--anchor {args_anchor!r} is not one of the agents ({', '.join(agents)}): the anchor must be "
                     "an agent that plays, or 'mean' (the agents' mean rating = 0)")


def _cmd_tournament(args) -> int:
    from evaluation import tournament as T

    agents = _names(args.agents, "--agents")
    scenarios = _names(args.scenarios, "--scenarios")
    if len(set(agents)) != len(agents):
        raise UsageError(f"--agents {args.agents!r} names an agent twice")
    everyone = agents + ([args.gauntlet] if args.gauntlet and args.gauntlet not in agents else [])
    if len(everyone) < 2:
        raise UsageError("need at least two agents")
    if args.backend == "ray":  # before anything is played or drawn
        try:
            T.need_backend("ray")
        except ImportError as e:
            raise UsageError(str(e)) from None
    for a in everyone:
        check_agent(a)
    anchor = _anchor(args.anchor, everyone)
    _check_scenarios(scenarios, args.options)
    out = _out(args, "tournament", ",".join(everyone),
               {"agents": everyone, "scenarios": scenarios, "seed": args.seed, "gauntlet": args.gauntlet,
                "max_decisions": args.max_decisions, "options": args.options or {}}, everyone, scenarios, args.options)
    records = T.run(agents, scenarios, args.games, out, seed=args.seed, gauntlet=args.gauntlet,
                    concurrency=args.concurrency, backend=args.backend, max_decisions=args.max_decisions,
                    decision_time=args.decision_time, replays=args.replays, progress=_progress(args),
                    options=args.options)
    obj = T.report(records, out, anchor=anchor, prior=args.prior)
    if args.json:
        print(json.dumps({"ratings": obj["ratings"], "games": obj["games"], "anchor": obj["anchor"],
                          "side_advantage_elo": obj["side_advantage_elo"], "los": obj["los"],
                          "order": obj["order"], "basis": obj["basis"], "report": str(out)}))
        return 0
    print(f"{'rank':<5}{'agent':<12}{'Elo':>7}   95% interval")
    for i, a in enumerate(obj["order"]):
        r = obj["ratings"][a]
        print(f"{i + 1:<5}{a:<12}{r['elo']:>+7.0f}   [{r['ci95'][0]:+.0f}, {r['ci95'][1]:+.0f}]")
    print(f"{obj['games']} games; {T.anchor_words(obj['anchor'], len(obj['order'])).replace('`', '')}; "
          f"side-0 advantage {obj['side_advantage_elo']:+.0f} Elo")
    perfect = [p for p in obj["basis"]["pairings"] if p["perfect"]]
    if perfect:
        print(f"{len(perfect)} of {len(obj['basis']['pairings'])} pairings ended with a perfect score: their gaps "
              f"are set by the prior of {obj['prior_draws']:g} virtual draws (see the report)")
    plots = "plots scores.png, ratings.png; " if (out / "ratings.png").exists() else "no plots without matplotlib; "
    print(f"report: {out}/report.md ({plots}data ratings.json, results.jsonl)")
    return 0


# ---------------------------------------------------------------------------------------------- sprt
def _cmd_sprt(args) -> int:
    from evaluation.sprt import run_sprt, tournament_source, verdict_sentence

    names = _names(args.agents, "--agents")
    if len(names) != 2 or names[0] == names[1]:
        raise UsageError("--agents needs two different agents: CANDIDATE,BASELINE")
    if args.elo1 <= args.elo0:
        raise UsageError(f"--elo1 ({args.elo1:g}) must be above --elo0 ({args.elo0:g}): H1 says the candidate is "
                         "at least elo1 better, H0 at most elo0")
    if args.batch > args.max_games:
        raise UsageError(f"--batch ({args.batch}) is larger than --max-games ({args.max_games})")
    for n in names:
        check_agent(n)
    _check_scenarios([args.scenario], args.options)
    out = _out(args, "sprt", f"{names[0]}-vs-{names[1]}",
               {"agents": names, "scenario": args.scenario, "seed": args.seed, "options": args.options or {}},
               names, [args.scenario], args.options)
    log = (lambda m: print(m, file=sys.stderr)) if _progress(args) else (lambda m: None)
    source = tournament_source(names[0], names[1], args.scenario, out, seed=args.seed, concurrency=args.concurrency,
                               options=args.options, progress=_progress(args))
    res = run_sprt(source, names[0], names[1], args.elo0, args.elo1, args.alpha, args.beta, args.batch,
                   args.max_games, log=log)
    res["out"] = str(out)
    (out / "sprt.json").write_text(json.dumps(res, indent=1))
    (out / "report.md").write_text("# SPRT\n\n" + verdict_sentence(res) + "\n")
    print(json.dumps(res) if args.json else verdict_sentence(res))
    return 0


# ---------------------------------------------------------------------------------------------- train
EXTRAS = {"torch": "policy", "stable_baselines3": "policy", "sb3_contrib": "policy", "matplotlib": "plots",
          "yaml": "train", "tensorboard": "train", "ray": "ray"}


def _need_training_packages() -> None:
    import importlib.util

    def absent(m):
        try:
            return importlib.util.find_spec(m) is None
        except (ImportError, ValueError):
            return True

    missing = [m for m in ("torch", "sb3_contrib", "yaml") if absent(m)]
    if missing:
        raise UsageError(f"training needs packages that are not installed ({', '.join(missing)}): "
                         "pip install 'dustup-ai[train]'")


def _cmd_train(args) -> int:
    from training.config import ConfigError, defaults, describe, dump, load_config

    _need_training_packages()
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
    if args.options is not None:
        overrides["options"] = args.options
    try:
        cfg = load_config(args.config, overrides or None)
    except ConfigError as e:
        raise UsageError(str(e)) from None
    name = Path(args.config).stem if args.config else "defaults"
    init = cfg.get("policy", {}).get("init")
    out = _out(args, "train", name, {k: v for k, v in cfg.items() if k != "budget"},
               list(dict.fromkeys(cfg["opponents"]["scripted"] + cfg["gauntlet"]["anchors"]
                                  + ([f"policy:{init}"] if init else []))), cfg["scenarios"], cfg.get("options"))
    from training.train import Trainer

    try:
        trainer = Trainer(cfg, out, progress=_progress(args), log=lambda m: print(m, file=sys.stderr))
        trainer.check()
    except ConfigError as e:
        raise UsageError(str(e)) from None
    summ = trainer.run()
    if args.json:
        print(json.dumps(summ))
        return EXIT_INTERRUPTED if summ.get("interrupted") else 0
    print(f"trained {summ['steps']:,} steps in {summ['wall_seconds']:.0f}s: {summ['steps_per_s_training']} steps/s "
          f"incl. PPO updates (env {summ['fraction_env']}, update {summ['fraction_update']} of the training time)")
    if summ.get("best"):
        b = summ["best"]
        print(f"best snapshot {b['name']}: mean gauntlet score {b['mean_score']:.3f}, Elo {b['elo']:+.0f}")
    print(f"run folder: {out} (best.zip, final.zip, gauntlet.md, curves.png, summary.json; "
          f"re-run the same command to resume)")
    return EXIT_INTERRUPTED if summ.get("interrupted") else 0  # stopped by Ctrl-C (cleanly, checkpoint written)


# ---------------------------------------------------------------------------------------------- gauntlet
def _cmd_gauntlet(args) -> int:
    from training.gauntlet import evaluate, report_text

    anchors = _names(args.anchors, "--anchors")
    scenarios = _names(args.scenarios, "--scenarios")
    if args.agent in anchors:
        raise UsageError(f"--agent {args.agent!r} is also among the --anchors: an agent is not measured against itself")
    if len(set(anchors)) != len(anchors):
        raise UsageError(f"--anchors {args.anchors!r} names an anchor twice")
    for a in [args.agent] + anchors:
        check_agent(a)
    _check_scenarios(scenarios, args.options)
    out = _out(args, "gauntlet", args.agent.replace("policy:", ""),
               {"agent": args.agent, "anchors": anchors, "scenarios": scenarios, "seed": args.seed,
                "options": args.options or {}}, [args.agent] + anchors, scenarios, args.options)
    summ = evaluate(args.agent, out, anchors, scenarios, args.games, args.seed, concurrency=args.concurrency,
                    bootstrap=args.bootstrap, label="candidate", progress=_progress(args), options=args.options)
    (out / "summary.json").write_text(json.dumps(summ, indent=1))
    (out / "report.md").write_text(report_text(summ, scenarios, args.seed))
    if args.json:
        print(json.dumps(summ))
        return 0
    print(f"{args.agent}: {summ['games']} games on {','.join(scenarios)} (paired, both sides, seed {args.seed})")
    print(f"{'anchor':<12}{'score':>7}   95% interval   W/D/L")
    for a, v in summ["scores"].items():
        print(f"{a:<12}{v['score']:>7.3f}   [{v['ci95'][0]:.3f}, {v['ci95'][1]:.3f}]  {'/'.join(map(str, v['wdl']))}")
    zero = "the anchors' mean" if summ["elo_anchor"] == "mean" else summ["elo_anchor"]
    print(f"Elo {summ['elo']:+.0f} [{summ['elo_ci95'][0]:+.0f}, {summ['elo_ci95'][1]:+.0f}] ({zero} = 0; "
          f"anchors: " + ", ".join(f"{a} {e:+.0f}" for a, e in summ["anchor_elo"].items()) + ")")
    if summ["forfeits"]:
        print(f"forfeits: {summ['forfeits']}")
    print(f"report: {out}/report.md")
    return 0


# ---------------------------------------------------------------------------------------------- parser
class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``dustup simulate: argument --games: must be at least 1, not 0``."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


class _Help(argparse.HelpFormatter):
    """Shows every default (but None and False) and keeps the descriptions' paragraphs."""

    def _get_help_string(self, action):
        h = action.help or ""
        if ("%(default)" not in h and action.option_strings and action.default is not None
                and action.default is not False and action.default is not argparse.SUPPRESS):
            h += " (default: %(default)s)"
        return h

    def _fill_text(self, text, width, indent):
        import textwrap

        return "\n\n".join(line if line.startswith("  ") or "\n  " in line
                             else textwrap.fill(" ".join(line.split()), width, initial_indent=indent,
                                                subsequent_indent=indent)
                             for line in text.split("\n\n"))


def _version() -> str:
    try:
        from importlib.metadata import version

        v = version("dustup-ai")
    except Exception:  # noqa: BLE001 - not installed (run from a source tree)
        v = "0+unknown"
    return f"dustup {v} (Python {sys.version.split()[0]})"


OPTIONS_HELP = ("game rule options as JSON text or a JSON file, e.g. '{\"extra_hits\": false}' (the table in the "
                "README, Game options); default: the standard rules")
OUT_HELP = ("output folder; default: runs/%s/NAME-HASH, one folder per distinct run (the same command again "
            "resumes or reuses it)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="dustup", formatter_class=_Help,
                description="Dustup AI: the Dustup wargame rules engine, agents and evaluation tools.",
                epilog="Every command has --help. Bad input exits with status 2, Ctrl-C with 130 (long commands "
                       "keep their finished games: run the same command again to resume), a file-system error "
                       "with 1, a bug with 3.")
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name, help, description, **kw):
        return sub.add_parser(name, help=help, description=description, formatter_class=_Help, **kw)

    agents_help = _agents_help()
    s = add("simulate", "play games between two agents (both play both sides equally)",
            "Play N games between two agents; agent A takes side 0 in even games and side 1 in odd games. "
            "Prints wins/draws/losses and mean game length; writes OUT/report.md, summary.json and "
            "results.jsonl (one line per finished game: Ctrl-C and the same command resume).\n\n" + agents_help)
    s.add_argument("--agents", required=True, help="two agent names, comma separated (e.g. scripted,random)")
    s.add_argument("--games", type=POSITIVE, default=100, help="number of games")
    s.add_argument("--scenario", default="default", help="built-in scenario name (see dustup scenarios) or a "
                                                         "scenario JSON file (docs/scenarios.md)")
    s.add_argument("--seed", type=NON_NEGATIVE, default=0, help="master seed; per-game seeds derive from it")
    s.add_argument("--options", type=_game_options, help=OPTIONS_HELP)
    s.add_argument("--out", help=OUT_HELP % "simulate")
    s.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    s.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    s.set_defaults(func=_cmd_simulate)

    o = add("odds", "exact probabilities of shooting and impact rolls",
            "Exact odds computed by enumerating the engine's own resolution code over every die face.\n\n"
            "shoot: the firer rolls its quality die and each firepower die against the target die; the result is "
            "none, minor or major (the rulebook's words for no effect, a suppression and a suppression with "
            "possible hits) and the distribution of hits. impact: one hit's impact die against the armour die.")
    osub = o.add_subparsers(dest="what", required=True, metavar="ROLL")
    sh = osub.add_parser("shoot", help="one shoot action: none/minor/major, hits distribution", formatter_class=_Help,
                         description="Odds of a shoot action: the firer rolls the quality die plus each firepower "
                                     "die against the target die. 'none': no effect; 'minor': the target is "
                                     "suppressed; 'major': suppressed and hit (the hits distribution follows).")
    sh.add_argument("--quality", default="d8", help="firer quality die")
    sh.add_argument("--firepower", action="append", default=[],
                    help="a firepower die (repeat: small arms die, then support dice); at least one")
    sh.add_argument("--target", default="d8", help="target die after shifts (range, cover, ...)")
    sh.add_argument("--suppressive", action="store_true", help="suppressive fire: no hits")
    sh.add_argument("--no-extra-hits", action="store_true", help="turn off the optional additional-hit roll")
    sh.add_argument("--json", action="store_true", help="print JSON")
    sh.set_defaults(func=_cmd_odds)
    im = osub.add_parser("impact", help="one hit: impact die against armour die", formatter_class=_Help,
                         description="Odds of one hit: impact > armour wounds, impact > 2x armour kills.")
    im.add_argument("--impact", default="d8", help="weapon impact die")
    im.add_argument("--armour", default="d6", help="armour die after shifts")
    im.add_argument("--no-armour", action="store_true", help="target has no armour (any non-kill is a wound)")
    im.add_argument("--vehicle", action="store_true",
                    help="the target is a vehicle: none / damaged (impact beats armour) / destroyed (more than double)")
    im.add_argument("--json", action="store_true", help="print JSON")
    im.set_defaults(func=_cmd_odds)
    gu = osub.add_parser("guided", help="one guided missile at a vehicle: miss/suppressed/hit, damaged/destroyed",
                         formatter_class=_Help,
                         description="Odds of one guided missile (Armoured Dustup › Guided Weapons): the firer's "
                                     "quality and guidance dice against the target's ECM die (one up with --cover); "
                                     "both beating it is a hit and one impact roll against the armour. miss + "
                                     "suppressed + hit = 1; damaged and destroyed are parts of hit.")
    gu.add_argument("--quality", default="d8", help="firer quality die")
    gu.add_argument("--guidance", default="d8", help="the missile's guidance die")
    gu.add_argument("--ecm", default="d8", help="the target's ECM die")
    gu.add_argument("--cover", action="store_true", help="the target is behind cover or concealment: ECM one up")
    gu.add_argument("--impact", default="d12x2", help="the missile's impact die against armour")
    gu.add_argument("--armour", default="d12x2", help="the vehicle's armour die (the facing hit)")
    gu.add_argument("--json", action="store_true", help="print JSON")
    gu.set_defaults(func=_cmd_odds)
    rq = osub.add_parser("request", help="one Request Fire Support roll: P(success)", formatter_class=_Help,
                         description="Odds of one Request Fire Support action (Artillery and Air Support): a D8, "
                                     "one type down for support of another platoon (two: another company), one up "
                                     "per fire-support chit spent, must exceed the requestor's leadership plus the "
                                     "difficulty (FO artillery +0, other artillery +2, LO air +2, other air +4, LO "
                                     "orbital +3, other orbital +6; an FO calling air or orbital support and an LO "
                                     "calling artillery count as other).")
    rq.add_argument("--requestor", required=True, choices=("fo", "lo", "other"),
                    help="a forward observer, a liaison officer or any other unit")
    rq.add_argument("--support", required=True, choices=("artillery", "air", "orbital"), help="the support called")
    rq.add_argument("--leadership", required=True, type=NON_NEGATIVE, help="the requesting unit's leadership value")
    rq.add_argument("--chits", type=NON_NEGATIVE, default=0, help="fire-support chits spent (each shifts the die up)")
    whose = rq.add_mutually_exclusive_group()
    whose.add_argument("--other-platoon", action="store_true",
                       help="support of another platoon of the same company (the die one type down)")
    whose.add_argument("--other-company", action="store_true",
                       help="support of another company (the die two types down)")
    rq.add_argument("--json", action="store_true", help="print JSON")
    rq.set_defaults(func=_cmd_odds)

    ac = osub.add_parser("accuracy", help="one fire-support round: on target, or how far it scatters",
                         formatter_class=_Help,
                         description="Odds of one round of fire support (Artillery and Air Support › Fire Support "
                                     "Accuracy): the observer's range-finding die (basic D6, advanced D8, superior "
                                     "D10; none: an observer who is not a forward observer, D4), one up for a "
                                     "laser-guided round (the observer sees the target), two for a self-guided one; "
                                     "on target when the roll is higher than the observer's leadership, otherwise "
                                     "the round scatters the roll times a D8 inches (the roll alone for guided "
                                     "rounds). on_target plus every scatter distance sum to 1.")
    ac.add_argument("--equipment", choices=("basic", "advanced", "superior", "none"), default="basic",
                    help="the forward observer's range-finding equipment (none: not a forward observer)")
    ac.add_argument("--leadership", type=NON_NEGATIVE, default=2, help="the observing unit's leadership")
    guide = ac.add_mutually_exclusive_group()
    guide.add_argument("--laser", action="store_true", help="a laser-guided round (the observer sees the target)")
    guide.add_argument("--self-guided", action="store_true", help="a self-guided round")
    ac.add_argument("--json", action="store_true", help="print JSON")
    ac.set_defaults(func=_cmd_odds_accuracy)

    mf = osub.add_parser("minefield", help="one model or vehicle crossing a minefield: mine hits, or the vehicle's "
                         "fate", formatter_class=_Help,
                         description="Odds of crossing a minefield (Additional Rules › Minefields): a model rolls its "
                                     "quality die for every 3\" or part it moves inside (hit on 1-3 in an AP field, "
                                     "1-2 in a mixed one; infantry never set off AT mines): the distribution of hits. "
                                     "With --vehicle: a mine per 3\" or part in an AT or mixed field, D12 against the "
                                     "belly armour; the first that beats it stops the vehicle, damaged and immobilised "
                                     "(more than double: destroyed).")
    mf.add_argument("--type", required=True, choices=("ap", "at", "mixed"), help="the minefield's type")
    mf.add_argument("--inches", type=float, help="how far it moves inside the minefield (inches)")
    mf.add_argument("--quality", default="d8", help="the infantry model's quality die")
    mf.add_argument("--vehicle", action="store_true", help="a vehicle crosses (give its --belly armour die)")
    mf.add_argument("--belly", default="d12x2", help="the vehicle's belly armour die")
    mf.add_argument("--json", action="store_true", help="print JSON")
    mf.set_defaults(func=_cmd_odds_minefield)

    sc = add("scenarios", "list the built-in scenarios, or check your own", "List the built-in scenarios (name, "
             "table size in inches, turn limit, units per side, objectives), or check scenario files you wrote "
             "(--check): the schema, the consistency checks and a game built from each. Writing your own: "
             "docs/scenarios.md.")
    sc.add_argument("--check", nargs="+", metavar="FILE", help="scenario JSON files to check instead of the list")
    sc.add_argument("--json", action="store_true", help="print JSON")
    sc.set_defaults(func=_cmd_scenarios)

    pl = add("play", "play one game between two agents, or play it yourself (human)",
             "Play one game and print its result; --save writes a replayable save (scenario, seed, options and "
             "every decision). With `human` as an agent you play that side in the terminal: the map from your "
             "side's view, what happened since your last decision (the other side's moves included) and your "
             "legal options numbered; type a number. `dustup play --agents human,hard --save game.json`.\n\n"
             + _agents_help(", human (you, in this terminal)"))
    pl.add_argument("--agents", default="scripted,random", help="side 0 agent, side 1 agent")
    pl.add_argument("--scenario", default="default", help="scenario name or JSON file")
    pl.add_argument("--seed", type=NON_NEGATIVE, default=0, help="game seed")
    pl.add_argument("--options", type=_game_options, help=OPTIONS_HELP)
    pl.add_argument("--save", help="write the save to this JSON file (its folder must exist); default: not saved")
    pl.set_defaults(func=_cmd_play)

    t = add("tournament", "round-robin or gauntlet tournament with Elo ratings and a report",
            "Every pairing plays --games games per scenario as paired games (same seed, sides swapped). Results "
            "are appended to OUT/results.jsonl: Ctrl-C stops at once and the same command resumes (or extends to "
            "more --games). Writes OUT/report.md, ratings.json, scores.png, ratings.png.\n\n" + agents_help)
    t.add_argument("--agents", required=True, help="comma-separated agent names")
    t.add_argument("--gauntlet", help="play only this agent against each of --agents (default: round robin)")
    t.add_argument("--scenarios", default="default", help="comma-separated scenarios")
    t.add_argument("--games", type=POSITIVE, default=20, help="games per pairing per scenario (rounded up to even)")
    t.add_argument("--seed", type=NON_NEGATIVE, default=0, help="master seed; game seeds derive from it")
    t.add_argument("--options", type=_game_options, help=OPTIONS_HELP)
    t.add_argument("--concurrency", type=POSITIVE, default=None, help="worker processes (default: all cores)")
    t.add_argument("--backend", default="local", choices=["local", "ray"], help="process pool backend (ray: "
                                                                               "pip install 'dustup-ai[ray]')")
    t.add_argument("--out", help=OUT_HELP % "tournament")
    t.add_argument("--max-decisions", type=POSITIVE, default=20000, help="decision cap per game (reached: draw)")
    t.add_argument("--decision-time", type=_number(0, open_lo=True), default=5.0,
                   help="seconds per decision before forfeit")
    t.add_argument("--replays", type=NON_NEGATIVE, default=0, help="save replays of the first N scheduled games")
    t.add_argument("--anchor", default="auto", help="the agent rated 0 Elo, or 'mean' (the agents' mean = 0); "
                                                    "auto: random if it plays, else mean")
    t.add_argument("--prior", type=_number(0), default=2.0,
                   help="virtual draws per pairing (keeps perfect scores finite; 0: none)")
    t.add_argument("--json", action="store_true", help="print the ratings object as JSON")
    t.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    t.set_defaults(func=_cmd_tournament)

    sp = add("sprt", "sequential probability ratio test: is CANDIDATE better than BASELINE?",
             "Plays paired games (same seed, sides swapped) in batches, all of one tournament in OUT, until the "
             "GSPRT log-likelihood ratio over game pairs crosses a bound: H1 (the candidate is at least --elo1 "
             "Elo better) or H0 (at most --elo0), with error rates --alpha and --beta; or --max-games is reached. "
             "Ctrl-C and the same command resume.\n\n" + agents_help)
    sp.add_argument("--agents", required=True, help="CANDIDATE,BASELINE")
    sp.add_argument("--elo0", type=_number(), default=0.0, help="H0: the candidate is at most this much better")
    sp.add_argument("--elo1", type=_number(), default=50.0, help="H1: the candidate is at least this much better")
    sp.add_argument("--alpha", type=_probability, default=0.05, help="false positive rate (accepting H1 wrongly)")
    sp.add_argument("--beta", type=_probability, default=0.05, help="false negative rate (accepting H0 wrongly)")
    sp.add_argument("--max-games", type=int_at_least(2), default=1000, help="stop undecided after this many games")
    sp.add_argument("--batch", type=int_at_least(2), default=20, help="games between checks (rounded up to pairs)")
    sp.add_argument("--scenario", default="default", help="scenario name or JSON file")
    sp.add_argument("--seed", type=NON_NEGATIVE, default=0, help="master seed")
    sp.add_argument("--options", type=_game_options, help=OPTIONS_HELP)
    sp.add_argument("--concurrency", type=POSITIVE, default=None, help="worker processes (default: all cores)")
    sp.add_argument("--out", help=OUT_HELP % "sprt")
    sp.add_argument("--json", action="store_true", help="print JSON")
    sp.add_argument("--no-progress", action="store_true", help="hide the progress bar and the per-batch lines")
    sp.set_defaults(func=_cmd_sprt)

    from training.config import describe

    tr = add("train", "train a MaskablePPO policy by self-play (resumable; needs the [train] extra)",
             "Train MaskablePPO on Dustup-v0 with parallel environments (both cores), an opponent pool "
             "(scripted bots + frozen snapshots, prioritised fictitious self-play), the learner on both sides, a "
             "fixed gauntlet against anchors at every snapshot (ratings with 95% intervals, curves.png), "
             "checkpoints and TensorBoard logs in OUT/tb. Ctrl-C stops cleanly; re-running the same command "
             "resumes the run. A first run that finishes in minutes: --config configs/quick.yaml (docs/training.md)."
             "\n\nNeeds pip install 'dustup-ai[train]'.",
             epilog="config keys (YAML; every key optional, see --print-config and docs/training.md):\n  "
                    + "\n  ".join(describe()) + "\n\nModel files are loaded with pickle: load only files you trust.")
    tr.add_argument("--config", help="YAML configuration file (default: the built-in defaults, a 1M-step run)")
    tr.add_argument("--out", help=OUT_HELP % "train")
    tr.add_argument("--steps", type=POSITIVE, help="override budget.steps (total learner steps)")
    tr.add_argument("--minutes", type=_number(0, open_lo=True), help="override budget.minutes (wall-clock limit; "
                                                                     "resumable)")
    tr.add_argument("--seed", type=NON_NEGATIVE, help="override seed")
    tr.add_argument("--options", type=_game_options, help="override the config's game options: " + OPTIONS_HELP)
    tr.add_argument("--print-config", action="store_true", help="print the default configuration as YAML and exit")
    tr.add_argument("--list-keys", action="store_true", help="list every config key with its default and exit")
    tr.add_argument("--json", action="store_true", help="print the run summary as JSON")
    tr.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    tr.set_defaults(func=_cmd_train)

    ga = add("gauntlet", "score an agent against fixed anchors (paired games, 95%% intervals)",
             "The training gauntlet as a command: AGENT plays --games paired games (same seeds, sides swapped) "
             "against each anchor through the tournament code; prints the score per anchor with a 95% bootstrap "
             "interval over pairs, and the Elo (the anchors' own round robin fixes the scale). Writes OUT/report.md "
             "and summary.json; Ctrl-C and the same command resume.\n\n" + agents_help)
    ga.add_argument("--agent", required=True, help="the agent to measure, e.g. ppo or policy:PATH (trusted files only)")
    ga.add_argument("--anchors", default="random,easy,medium,hard", help="comma-separated anchors")
    ga.add_argument("--scenarios", default="default", help="comma-separated scenarios")
    ga.add_argument("--games", type=int_at_least(2), default=400, help="games per anchor per scenario (paired: "
                                                                        "the default 400 is 200 pairs)")
    ga.add_argument("--seed", type=NON_NEGATIVE, default=20261122, help="seed of the fixed games")
    ga.add_argument("--options", type=_game_options, help=OPTIONS_HELP)
    ga.add_argument("--concurrency", type=POSITIVE, default=2, help="worker processes")
    ga.add_argument("--bootstrap", type=NON_NEGATIVE, default=1000, help="bootstrap resamples of the score intervals")
    ga.add_argument("--out", help=OUT_HELP % "gauntlet")
    ga.add_argument("--json", action="store_true", help="print the summary as JSON")
    ga.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    ga.set_defaults(func=_cmd_gauntlet)

    rp = add("replay", "tell a saved game turn by turn, or draw it",
             "Load a save, replay it exactly and tell it: turn by turn, every activation, move, shot (with its "
             "dice), hit and test, and the result. --json prints the events as data instead; --frames and --gif "
             "draw the table (one picture per turn, activation or decision). --side tells and draws what that "
             "side knew (hidden enemy units as markers).")
    rp.add_argument("file", help="a save written by `dustup play --save` (or a tournament's --replays)")
    rp.add_argument("--json", action="store_true", help="print {result, events} as one JSON object")
    rp.add_argument("--side", type=int, choices=[0, 1], help="tell and draw the game as this side knew it "
                                                             "(default: everything, as a spectator)")
    rp.add_argument("--frames", help="write one PNG per step into this folder (frame_000.png is the start)")
    rp.add_argument("--gif", help="write an animated GIF of the steps to this file")
    rp.add_argument("--every", default="turn", choices=["turn", "activation", "decision"],
                    help="one picture per turn, per activation or per decision")
    rp.add_argument("--size", type=int_at_least(320), default=1280,
                    help="picture width in pixels (default 1280; the height follows the table)")
    rp.add_argument("--scale", type=int_at_least(2), default=None,
                    help="picture pixels per inch of table (instead of --size)")
    rp.add_argument("--unit", help="tell only the events that name this unit (its name as the story gives it, or "
                                   "part of it)")
    rp.add_argument("--seconds", type=_number(0.05, 60), default=1.0, help="GIF: seconds per picture")
    rp.set_defaults(func=_cmd_replay)

    from dustup_cli.commands import register_all

    register_all(sub)
    return p


def _fail(command: str, message: str, code: int = EXIT_BAD_INPUT) -> int:
    msg = " ".join(str(message).split())  # one line, whatever the exception text holds
    print(f"dustup {command}: {msg}", file=sys.stderr)
    return code


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except KeyboardInterrupt:  # Ctrl-C while the command line is still being read (its modules imported)
        print("dustup: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    cmd = args.command
    try:
        return args.func(args)
    except KeyboardInterrupt as e:
        from evaluation.tournament import Interrupted

        if isinstance(e, Interrupted):
            return _fail(cmd, f"{e}; run the same command to resume", EXIT_INTERRUPTED)
        return _fail(cmd, "interrupted", EXIT_INTERRUPTED)
    except BrokenPipeError:  # e.g. `dustup replay game.json | head`: the reader left, nothing more to say
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except Exception as e:  # noqa: BLE001 - every failure is one line; a bug says so
        if isinstance(e, ModuleNotFoundError) and e.name:
            extra = EXTRAS.get(e.name.split(".")[0])
            hint = f"pip install 'dustup-ai[{extra}]'" if extra else "see the README, Installation"
            return _fail(cmd, f"needs the Python package {e.name!r}, which is not installed: {hint}")
        if isinstance(e, _bad_input_errors()):
            return _fail(cmd, str(e) or type(e).__name__)
        if isinstance(e, OSError) and not os.environ.get("DUSTUP_DEBUG"):  # the disk, not the input nor a bug
            where = f" ({e.filename})" if getattr(e, "filename", None) else ""
            return _fail(cmd, f"{e.strerror or e}{where}", EXIT_FAILED)
        if os.environ.get("DUSTUP_DEBUG"):
            raise
        return _fail(cmd, f"internal error (a bug: please report it with the command): {type(e).__name__}: {e} "
                          "(DUSTUP_DEBUG=1 shows the traceback)", EXIT_INTERNAL)


def _bad_input_errors() -> tuple:
    """The exceptions that mean bad input (exit status 2): the command's own checks, the engine's refusals of a
    scenario, save, option or argument, a design file, a training config, a model file that does not fit, an
    output folder that holds another run or is in use. Any other exception (a ValueError from deep inside a
    library included) is a bug: exit status 3."""
    from agents.policy import ModelMismatchError
    from dustup_env.rules.kernel.errors import InvalidArgumentError, SaveFormatError, ScenarioError
    from dustup_env.rules.vehicle_design import DesignFileError
    from evaluation.runs import FolderBusy, RunMismatch

    errors = (UsageError, ScenarioError, SaveFormatError, InvalidArgumentError, DesignFileError, FolderBusy,
              RunMismatch, ModelMismatchError)
    try:
        from training.config import ConfigError

        errors += (ConfigError,)
    except ImportError:
        pass
    return errors


if __name__ == "__main__":
    sys.exit(main())
