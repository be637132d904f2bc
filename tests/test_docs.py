"""The user docs stay true: every `dustup ...` command they show parses, the scenario guide's example is a
valid scenario, and the guides are guides (no development history: dates, commit hashes, work sessions,
tracker numbers)."""
import json
import re
import shlex
from pathlib import Path

import pytest

from dustup_cli.cli import build_parser

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


def test_every_dustup_command_in_every_doc_parses_with_its_continuation_lines():
    """All docs, a command continued over lines (``\\``) whole: `--bootstrap` on a second line once hid a flag
    that `dustup tournament` does not have. (tests/test_doc_commands.py runs each of them.)"""
    from test_doc_commands import shown_commands

    parser = build_parser()
    for cmd, docs in shown_commands().items():
        for part in re.split(r"\s*&&\s*", cmd):
            if part.startswith("dustup "):
                try:
                    parser.parse_args(shlex.split(part)[1:])
                except SystemExit as e:
                    raise AssertionError(f"{docs}: `{part}` does not parse") from e


def _subcommands(parser):
    import argparse

    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            return set(a.choices)
    return set()


def test_the_readmes_command_list_names_every_command():
    """The README's list under "The command line" shows each of the CLI's commands (and no other)."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## The command line"):]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    listed = {line.split()[1] for line in block.splitlines() if line.startswith("dustup ")}
    assert listed == _subcommands(build_parser()), (sorted(listed), sorted(_subcommands(build_parser())))


def test_generated_parts_of_the_docs_are_up_to_date():
    """The scenario lists and the protocol transcript are the code's own output (after adding a scenario or an
    option: python tests/generated_docs.py write)."""
    import generated_docs

    bad = generated_docs.differing()
    assert not bad, f"generated docs out of date: {bad}; run python tests/generated_docs.py write"


def test_the_scenario_guides_quoted_errors_are_the_engines(tmp_path):
    """docs/scenarios.md quotes two refusals of a scenario file: they are what the engine says."""
    from dustup_env.rules import Game
    from dustup_env.rules.kernel.errors import ScenarioError

    text = " ".join((ROOT / "docs" / "scenarios.md").read_text().split())
    doc = json.loads(re.search(r"```json\n(.*?)```", (ROOT / "docs" / "scenarios.md").read_text(), re.S).group(1))
    doc["sides"][0]["units"].append(dict(doc["sides"][0]["units"][0], name="Bravo", position=[40]))
    (tmp_path / "my_battle.json").write_text(json.dumps(doc))
    for change in ("position", "off"):
        if change == "off":
            doc["sides"][0]["units"] = [dict(doc["sides"][0]["units"][0], position=[5, 50])]
            (tmp_path / "my_battle.json").write_text(json.dumps(doc))
        with pytest.raises(ScenarioError) as e:
            Game(str(tmp_path / "my_battle.json"), seed=0)
        msg = str(e.value).replace(str(tmp_path) + "/", "")
        assert f"`{msg}`" in text, msg


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
