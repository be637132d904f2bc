"""``dustup design``: check vehicle and heavy-weapon designs (Dirtside II design rules, seed 002 chapters 1-3,
checked for Dustup) and print their Dustup statistics."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2

_EXIT_CODES = """exit codes:
  0  every design is legal (warnings allowed, unless --strict)
  1  a design breaks a design rule (an error; with --strict also a warning)
  2  a file could not be read: no such file, not JSON, a schema violation (the message names the field),
     an unknown weapon type"""


def _wrap(text: str) -> str:
    return textwrap.fill(text, 100)


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "design", help="check vehicle and heavy-weapon designs (Dirtside II design rules) and show their Dustup "
                       "statistics",
        description=_wrap("Vehicle and heavy-weapon designs are JSON files written as Dirtside II designs (seed 002, "
                    "chapters 1-3). `check` applies every design rule of those chapters and Dustup's own limits, "
                    "reports each violation by rule name and amount, and prints the derived Dustup statistics. "
                    "See docs/vehicle-design.md."),
        epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="design_command", metavar="{check,list,rules}", required=True)
    c = sub.add_parser(
        "check", help="check design files and print their Dustup statistics",
        description=_wrap("Check one or more designs: each FILE is a path to a design JSON file or the name of a "
                    "built-in design (`dustup design list`). Errors make a design illegal; warnings are Dirtside "
                    "recommendations or Dirtside rules that Dustup overrides."),
        epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("files", nargs="+", metavar="FILE", help="a design file, or a library design's name")
    c.add_argument("--json", action="store_true",
                   help="print the report as JSON (one object for one FILE, a list for several)")
    c.add_argument("--strict", action="store_true", help="treat warnings as errors for the exit code")
    c.set_defaults(func=_cmd_check)
    ls = sub.add_parser("list", help="list the built-in design library",
                        description="The designs in dustup_env/data/designs/, each with its check result.",
                        epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ls.add_argument("--json", action="store_true", help="print the list as JSON")
    ls.set_defaults(func=_cmd_list)
    ru = sub.add_parser("rules", help="list the design rules the check applies",
                        description="Every rule `design check` applies: its name (as reports print it), the seed it "
                                    "comes from, error or warning, the seed lines and the readings.")
    ru.add_argument("--json", action="store_true", help="print the rules as JSON")
    ru.set_defaults(func=_cmd_rules)


def _cmd_check(args) -> int:
    from dustup_env.rules.vehicle_design import DesignFileError, check, format_report

    code = EXIT_LEGAL
    out = []
    for f in args.files:
        try:
            r = check(f)
        except DesignFileError as e:
            print(f"dustup design check: {e}", file=sys.stderr)
            out.append({"file": f, "error": str(e)})
            code = EXIT_UNREADABLE
            continue
        bad = bool(r.errors) or (args.strict and bool(r.warnings))
        if bad and code == EXIT_LEGAL:
            code = EXIT_ILLEGAL
        out.append(r.to_dict() if args.json else format_report(r))
    if args.json:
        print(json.dumps(out[0] if len(out) == 1 else out, indent=2))
    else:
        text = [o for o in out if isinstance(o, str)]
        if text:
            print("\n\n".join(text))
    return code


def _cmd_list(args) -> int:
    from dustup_env.rules.vehicle_design import check, library_names

    rows = []
    for name in library_names():
        r = check(name)
        p = r.profile
        row = {"name": name, "title": r.name, "design": r.design, "legal": r.legal, "warnings": len(r.warnings)}
        if r.design == "vehicle":
            row.update(kind=p.kind, size=p.size, mobility=p.mobility_type)
        elif p is not None:
            row.update(kind=p.carriage, size=p.weapon.size, mobility=p.weapon.type)
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        w = max(len(r["name"]) for r in rows)
        for r in rows:
            status = "legal" if r["legal"] else "ILLEGAL"
            print(f"{r['name']:<{w}}  {status:<7} {r.get('kind', ''):<14} size {r.get('size', '?')}  "
                  f"{r.get('mobility', '')}  {r['title']}")
    return EXIT_LEGAL if all(r["legal"] for r in rows) else EXIT_ILLEGAL


def _cmd_rules(args) -> int:
    from dustup_env.rules.vehicle_design import RULES

    if args.json:
        print(json.dumps([{"name": r.name, "source": r.source, "severity": r.severity,
                                                     "summary": r.summary, "ref": r.ref, "reading": r.reading}
                          for r in RULES.values()], indent=2))
    else:
        for r in RULES.values():
            print(f"{r.name} ({r.source} {r.severity}; {r.ref}{'; ' + r.reading if r.reading else ''}): {r.summary}")
    return EXIT_LEGAL
