"""``dustup build``: a random battle from a seed (seed 001 "Game Setup - Battle Builder"; docs/builder.md)."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from dustup_cli.args import NON_NEGATIVE, POSITIVE

_EPILOG = """examples:
  dustup build --seed 7 --out battle.json                       a platoon a side on a 72x48" table
  dustup build --seed 7 --points 200 --table 96x72 --with vehicles,hidden,night --out big.json
  dustup play --agents human,hard --scenario battle.json        then play it

--with options (any, comma separated):
%s

exit codes: 0 written; 2 bad input (one line on stderr naming it)"""


def _with_help() -> str:
    from dustup_env.builder import CONDITIONS, FORCE_OPTIONS

    rows = list(FORCE_OPTIONS.items()) + [(c.name, c.text) for c in CONDITIONS]
    return "\n".join(textwrap.fill(f"{k}: {v}", 100, initial_indent="  ", subsequent_indent="      ")
                     for k, v in rows)




def _table(text: str) -> tuple[float, float]:
    parts = text.lower().split("x")
    try:
        if len(parts) != 2:
            raise ValueError
        w, h = float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be WIDTHxHEIGHT in inches, e.g. 72x48, not {text!r}") from None
    if not (24 <= w <= 240 and 24 <= h <= 240):
        raise argparse.ArgumentTypeError(f"each side must be 24 to 240 inches, not {text!r}")
    return w, h


def _with(text: str) -> frozenset:
    from dustup_env.builder import BuildError, parse_with

    try:
        return parse_with(text)
    except BuildError as e:
        raise argparse.ArgumentTypeError(str(e).replace("--with ", "")) from None


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "build", help="build a random battle from a seed: forces to a points budget, terrain, deployment, "
                      "objectives, conditions",
        description=textwrap.fill(
            "Build a scenario by seed 001's Battle Builder, adapted to Dustup: each side's force chosen to a points "
            "budget from the unit, weapon and design data (points derived from the engine's dice); two scenario "
            "points a side spent alternately after a roll-off on the deployment, objective and conditions charts; "
            "terrain placed alternately, 4\" apart; the forces deployed in their zones. The players' choices are "
            "seeded: the same seed and options give the same file. The file is a scenario for every command that "
            "takes --scenario. See docs/builder.md.", 100),
        epilog=_EPILOG % _with_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=NON_NEGATIVE, required=True, help="the seed of every choice")
    p.add_argument("--points", type=POSITIVE, default=None,
                   help="each side's points budget (default: a platoon a side, the default scenario's platoon)")
    p.add_argument("--table", type=_table, default=(72.0, 48.0), metavar="WxH",
                   help="table size in inches (default 72x48)")
    p.add_argument("--with", dest="with_", type=_with, default=frozenset(), metavar="OPTIONS",
                   help="comma-separated options (listed below): wider force lists and game conditions")
    p.add_argument("--out", required=True, metavar="FILE.json", help="the scenario file to write")
    p.add_argument("--name", help="the scenario's name (default built-SEED)")
    p.add_argument("--json", action="store_true", help="print the builder's report (choices, points) as JSON")
    p.set_defaults(func=_cmd_build)


def _cmd_build(args) -> int:
    from dustup_env.builder import BuildError, build

    out = Path(args.out)
    if out.is_dir():
        return _fail(f"--out {args.out!r} is a folder: give a file name ending in .json")
    if out.suffix.lower() != ".json":
        return _fail(f"--out {args.out!r}: the file name must end in .json")
    if not out.parent.is_dir():
        return _fail(f"--out {args.out!r}: the folder {str(out.parent)!r} does not exist")
    try:
        doc, report = build(args.seed, args.points, args.table, sorted(args.with_), args.name)
    except BuildError as e:
        return _fail(str(e))
    out.write_text(json.dumps(doc, indent=1) + "\n")
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{out}: {doc['description']}")
    return 0


def _fail(message: str) -> int:
    print(f"dustup build: {' '.join(message.split())}", file=sys.stderr)
    return 2
