"""The user docs stay true: every `dustup ...` command they show parses, the scenario guide's example is a
valid scenario, and the guides are guides (no development history: dates, commit hashes, work sessions,
tracker numbers)."""
import json
import re
import shlex
from pathlib import Path

import pytest

from dustup_env.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
GUIDES = ["README.md", "docs/training.md", "docs/scenarios.md", "agents/models/README.md"]


def commands(text: str):
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            for part in re.split(r"\s*&&\s*", line):
                if part.startswith("dustup "):
                    yield part


@pytest.mark.parametrize("doc", GUIDES)
def test_every_command_shown_parses(doc):
    shown = list(commands((ROOT / doc).read_text()))
    parser = build_parser()
    for cmd in shown:
        argv = shlex.split(cmd)[1:]
        try:
            parser.parse_args(argv)
        except SystemExit as e:
            raise AssertionError(f"{doc}: `{cmd}` does not parse") from e
    assert shown or doc == "docs/scenarios.md" or doc == "agents/models/README.md"


@pytest.mark.parametrize("doc", GUIDES)
def test_guides_hold_no_development_history(doc):
    text = (ROOT / doc).read_text()
    for pattern in (r"\bsession \d", r"\bissue #?\d", r"#\d{1,3}\b", r"\b[0-9a-f]{7,40}\b(?![\w.])",
                    r"\b20\d\d-\d\d-\d\d\b", r"git show"):
        hits = [m.group(0) for m in re.finditer(pattern, text, re.I)
                if not re.fullmatch(r"\d+", m.group(0))]  # plain numbers (seeds, counts) are fine
        assert not hits, (doc, pattern, hits[:3])


def test_the_scenario_guide_example_is_a_valid_scenario(tmp_path):
    from dustup_env.rules import Game

    text = (ROOT / "docs" / "scenarios.md").read_text()
    doc = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    p = tmp_path / "crossroads.json"
    p.write_text(json.dumps(doc))
    g = Game(str(p), seed=1)
    assert g.scenario["name"] == "crossroads" and not g.over
    # the schema fields the guide's tables name exist in the schema
    schema = json.loads((ROOT / "dustup_env" / "data" / "schemas" / "scenario.schema.json").read_text())
    unit_fields = set(schema["$defs"]["unit"]["properties"])
    for field in re.findall(r"^\| `(\w+)` \|", text, re.M):
        assert field in unit_fields | set(schema["properties"]) | set(
            schema["properties"]["sides"]["items"]["properties"]), field
