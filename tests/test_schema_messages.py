"""A schema violation is one short line naming the path and the problem, never the whole offending value
(twenty units on a side once gave a message of thousands of characters ending in "is too long")."""
import json

import pytest

from dustup_cli.cli import main
from dustup_env.rules import Game
from dustup_env.rules.kernel.data import load_scenario
from dustup_env.rules.kernel.errors import ScenarioError


def unit_limit() -> int:
    from dustup_env.rules.kernel.data import DATA

    schema = json.loads((DATA / "schemas" / "scenario.schema.json").read_text())
    return schema["properties"]["sides"]["items"]["properties"]["units"]["maxItems"]


def too_many_units(tmp_path, n=None):
    n = n or unit_limit() + 8
    doc = load_scenario("skirmish")
    unit = doc["sides"][0]["units"][0]
    doc["sides"][0]["units"] = [dict(unit, name=f"Squad {i}") for i in range(n)]
    p = tmp_path / "crowded.json"
    p.write_text(json.dumps(doc))
    return p


def test_too_many_units_on_a_side_is_one_short_line(tmp_path):
    p = too_many_units(tmp_path)
    with pytest.raises(ScenarioError) as e:
        Game(str(p), seed=0)
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 200, msg
    assert f"sides/0/units: has {unit_limit() + 8} items, at most {unit_limit()} allowed" in msg


@pytest.mark.parametrize("command", [["scenarios", "--check", "FILE"],
                                     ["simulate", "--agents", "random,random", "--scenario", "FILE"]])
def test_the_commands_print_the_short_line(tmp_path, capsys, command):
    p = too_many_units(tmp_path)
    code = main([str(p) if a == "FILE" else a for a in command])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and len(err) < 250, err
    assert f"sides/0/units: has {unit_limit() + 8} items, at most {unit_limit()} allowed" in err


@pytest.mark.parametrize("value,words", [
    (["x"] * 200, "is not of type 'string'"),  # a long list where a text belongs
    ({f"k{i}": i for i in range(100)}, "is not of type 'string'"),
])
def test_a_long_wrong_value_is_described_not_quoted(tmp_path, value, words):
    doc = load_scenario("skirmish")
    doc["name"] = value
    with pytest.raises(ScenarioError) as e:
        Game(doc, seed=0)
    msg = str(e.value)
    assert "name:" in msg and len(msg) < 200 and words.replace("'", "") in msg.replace("'", ""), msg


def test_a_design_file_schema_error_is_one_short_line(tmp_path, capsys):
    design = json.loads(open(__import__("dustup_env").__path__[0] + "/data/designs/apc_wheeled.json").read())
    design["description"] = ["a very long description"] * 300
    p = tmp_path / "tank.json"
    p.write_text(json.dumps(design))
    code = main(["design", "check", str(p)])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and len(err) < 250, err
    assert "description: a list of 300 items is not of type" in err
