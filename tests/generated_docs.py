"""The parts of the docs that are generated from the code, so that they stay right when the code changes:
the built-in scenario lists (README.md, docs/scenarios.md) and the protocol transcript (docs/protocol.md).

Each part sits between ``<!-- generated: NAME -->`` and ``<!-- end generated: NAME -->`` in its file.

    python tests/generated_docs.py check    # exit status 1 and the names of the parts that differ
    python tests/generated_docs.py write    # rewrite them from the code

``tests/test_docs.py`` runs the check: after adding a scenario or a game option, run ``write``.
"""
from __future__ import annotations

import io
import json
import os
import re
import sys
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _scenarios() -> list[dict]:
    from dustup_env.rules.kernel.data import load_scenario, scenario_names

    rows = []
    for n in scenario_names():
        s = load_scenario(n)
        rows.append({"name": n, "width": s["table"]["width"], "height": s["table"]["height"],
                     "unit": "cm" if s["table"].get("unit") == "cm" else '"', "turns": s["turn_limit"],
                     "units": [len(side["units"]) for side in s["sides"]],
                     "hidden": sum(bool(u.get("hidden")) for side in s["sides"] for u in side["units"]),
                     "vehicles": [sum("design" in u for u in side["units"]) for side in s["sides"]],
                     "description": s.get("description", "")})
    return rows


def _what(r: dict) -> str:
    extra = []
    if any(r["vehicles"]):
        extra.append(f"vehicles {r['vehicles'][0]} v {r['vehicles'][1]}")
    if r["hidden"]:
        extra.append(f"{r['hidden']} hidden at the start")
    return f"{r['units'][0]} v {r['units'][1]} units" + (f" ({', '.join(extra)})" if extra else "")


def readme_scenarios() -> str:
    lines = ["`dustup scenarios` lists the built-in ones:", ""]
    for r in _scenarios():
        lines.append(f"- `{r['name']}`: {r['width']:g}x{r['height']:g}{r['unit']}, {r['turns']} turns, {_what(r)}. "
                     f"{r['description']}")
    return "\n".join(lines)


def scenario_table() -> str:
    lines = ["| name | table | units | what |", "| --- | --- | --- | --- |"]
    for r in _scenarios():
        lines.append(f"| {r['name']} | {r['width']:g}x{r['height']:g}{r['unit']}, {r['turns']} turns | {_what(r)} | "
                     f"{r['description']} |")
    return "\n".join(lines)


def transcript() -> str:
    """``python -m dustup_env.service.transcript``: a real ``dustup engine`` session."""
    from dustup_env.service import transcript as T

    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p)
    buf = io.StringIO()
    with redirect_stdout(buf):
        T.main()
    return "```text\n" + buf.getvalue().rstrip("\n") + "\n```"


PARTS = {"scenarios": ("README.md", readme_scenarios), "scenario-table": ("docs/scenarios.md", scenario_table),
         "transcript": ("docs/protocol.md", transcript)}


def normalise(name: str, text: str) -> str:
    """What may differ between two runs of the same code: the hint's measured milliseconds."""
    if name == "transcript":
        text = re.sub(r'"ms":[0-9.]+', '"ms":0', text)
    return text.strip()


def _span(text: str, name: str, path: str) -> tuple[int, int]:
    begin, end = f"<!-- generated: {name} -->\n", f"\n<!-- end generated: {name} -->"
    a = text.find(begin)
    b = text.find(end)
    if a < 0 or b < a:
        raise SystemExit(f"{path}: the markers of the generated part {name!r} are missing")
    return a + len(begin), b


def current(name: str) -> str:
    path, _ = PARTS[name]
    text = (ROOT / path).read_text()
    a, b = _span(text, name, path)
    return text[a:b]


def differing(names=None) -> list[str]:
    out = []
    for name in names or PARTS:
        if normalise(name, current(name)) != normalise(name, PARTS[name][1]()):
            out.append(name)
    return out


def write(names=None) -> list[str]:
    changed = []
    for name in names or PARTS:
        path, gen = PARTS[name]
        p = ROOT / path
        text = p.read_text()
        a, b = _span(text, name, path)
        new = gen()
        if normalise(name, text[a:b]) != normalise(name, new):
            p.write_text(text[:a] + new + text[b:])
            changed.append(name)
    return changed


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["write"]:
        print(json.dumps({"rewritten": write(argv[1:] or None)}))
        return 0
    if argv[:1] == ["check"]:
        bad = differing(argv[1:] or None)
        if bad:
            print(f"generated docs out of date: {', '.join(bad)} (python tests/generated_docs.py write)")
            return 1
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
