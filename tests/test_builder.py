"""The battle builder (seed 001 "Game Setup - Battle Builder", docs/builder.md): generated scenarios are valid and
deterministic, keep the 4" terrain spacing, deploy inside their zones on ground the units can stand on, stay within
their points, honour every --with option, refuse bad input in one line, and play to the end.  The large counts
(10,000 scenarios, 1,000 played, the points check by play) are benchmarks/builder_check.py (docs/builder.md)."""
from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from shapely.geometry import LineString, Polygon

from dustup_env.builder import (BuildError, WITH_OPTIONS, build, default_points, generate_scenario, parse_with,
                                roll_off, unit_points)
from dustup_env.builder.check import problems
from dustup_env.builder.forces import TYPE, cheapest, make_unit, package_points
from dustup_env.builder.points import casualty_chance, expected_hits
from dustup_env.rules import Game
from dustup_env.rules.kernel.battlefield import Battlefield
from dustup_env.rules.kernel.data import load_scenario, validate
from dustup_env.rules.kernel.dice import D6, D8, D10, D12, exact_distribution
from dustup_env.rules.unit_actions.shoot_action import resolve_fire

ROOT = Path(__file__).resolve().parents[1]


def _with(seed: int) -> list[str]:
    r = random.Random(seed)
    w = [o for o in WITH_OPTIONS if r.random() < 0.35]
    for a, b in (("chits", "cards"), ("chits", "seize"), ("cards", "seize")):
        if a in w and b in w:
            w.remove(b)
    return w


@pytest.fixture(scope="module")
def built():
    return [build(s, with_=_with(s)) for s in range(30)]


def test_generated_scenarios_pass_the_schema_and_build_a_game(built):
    for doc, rep in built:
        validate(doc, "scenario", doc["name"])
        load_scenario(doc)
        Game(doc, seed=1)
        assert problems(doc, rep) == [], (rep["seed"], problems(doc, rep))


def test_the_same_seed_gives_the_same_document_and_another_seed_another():
    a = json.dumps(generate_scenario(5, with_="vehicles,hidden"))
    assert a == json.dumps(generate_scenario(5, with_=["hidden", "vehicles"]))
    assert a != json.dumps(generate_scenario(6, with_="vehicles,hidden"))


def test_terrain_pieces_are_at_least_4_inches_apart(built):
    n = 0
    for doc, _ in built:
        pieces = [Polygon(t["polygon"]) for t in doc["terrain"]] + [LineString(o["line"]) for o in doc["obstacles"]]
        assert len(pieces) >= 4
        kinds = {t["type"] for t in doc["terrain"]} | {o["type"] for o in doc["obstacles"]}
        assert len(kinds) >= 3  # a mix of features
        for i, a in enumerate(pieces):
            for b in pieces[i + 1:]:
                assert a.distance(b) >= 4.0  # S001:14
                n += 1
    assert n > 1000


def test_units_deploy_inside_their_zones_where_they_can_stand(built):
    for doc, rep in built:
        bf = Battlefield(doc)
        for s, side in enumerate(doc["sides"]):
            x0, y0, x1, y1 = rep["zones"][s]
            for u in side["units"]:
                x, y = u["position"]
                if not u.get("inbound"):
                    assert x0 <= x <= x1 and y0 <= y <= y1, (rep["seed"], u["name"])
                assert bf.move_cost(x, y) is not None or "design" in u


def test_zones_do_not_overlap_and_face_each_other(built):
    for doc, rep in built:
        a, b = rep["zones"]
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], rep["seed"]
        assert {s["home_edge"] for s in doc["sides"]} in ({"south", "north"}, {"west", "east"})


def test_points_stay_within_the_budget_and_near_it(built):
    for doc, rep in built:
        least = cheapest(frozenset(rep["with"]))
        for s, side in enumerate(doc["sides"]):
            spent = sum(unit_points(u) for u in side["units"])
            assert spent == rep["points"][s] <= rep["budget"][s]
            if len(side["units"]) < 31:
                assert rep["budget"][s] - spent < least + 1 or any(u.get("design") for u in side["units"])


def test_default_points_are_the_default_scenarios_regular_platoon():
    doc = load_scenario("default")
    blue = doc["sides"][0]["units"]
    regular = [u for u in blue if u["quality"] == "d8"]
    assert default_points() == unit_points(regular[0]) + 3 * unit_points(regular[1])
    assert build(1)[1]["budget"] == [default_points()] * 2


def test_two_budgets_and_at_most_32_units_a_side():
    doc, rep = build(3, points=(1500, 120), table=(120, 96))
    assert rep["budget"] == [1500, 120]
    assert rep["points"][0] > rep["points"][1]
    assert all(len(s["units"]) <= 32 for s in doc["sides"])
    Game(doc, seed=0)


def test_expected_hits_is_the_engines_resolve_fire_enumerated():
    for quality, fp, target in ((D8, (D8,), D8), (D6, (D10, D8), D8), (D10, (D12,), D6), (D8, (D6, D6), D10)):
        dist = exact_distribution(lambda d: resolve_fire(d, quality=quality, firepower=list(fp), target=target).hits)
        assert expected_hits(quality, fp, target) == sum(Fraction(k) * p for k, p in dist.items())


def test_points_rise_with_quality_firepower_and_armour():
    sq = TYPE["rifle_squad"]
    assert unit_points(make_unit(sq, "d6")) < unit_points(make_unit(sq, "d8")) < unit_points(make_unit(sq, "d10"))
    assert unit_points(make_unit(TYPE["section"], "d8")) < unit_points(make_unit(sq, "d8"))
    heavy = dict(make_unit(sq, "d8"), armour="light_power")
    assert unit_points(heavy) > unit_points(make_unit(sq, "d8"))
    assert casualty_chance("d8", "d10") < casualty_chance("d8", "d6")
    assert unit_points({"design": "main_battle_tank"}) > unit_points({"design": "light_tank"})
    assert package_points(TYPE["apc"], "d8") == unit_points({"design": "apc_wheeled", "quality": "d8"}) + \
        unit_points(make_unit(sq, "d8"))


class _Scripted(random.Random):
    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def test_roll_off_fewest_hits_goes_first_and_ties_are_rerolled():
    # side 0 rolls two hits (5, 6), side 1 two: a tie; then side 0 three, side 1 one: side 1 goes first
    first, rolls = roll_off(_Scripted([5, 6, 1, 2, 3] + [6, 5, 4, 4, 4] + [5, 5, 5, 1, 1] + [6, 1, 1, 1, 1]))
    assert rolls == [[2, 2], [3, 1]] and first == 1
    first, _ = roll_off(_Scripted([1, 1, 1, 1, 1] + [5, 1, 1, 1, 1]))
    assert first == 0


def test_scenario_points_are_spent_alternately_after_the_roll_off(built):
    for _, rep in built:
        names = ("Blue", "Red")
        buys = [line.split()[0] for line in rep["log"] if " buys " in line or "nothing left" in line]
        assert len(buys) == 4
        assert buys == [names[rep["scenario_first"]], names[1 - rep["scenario_first"]]] * 2
        placers = [line.split()[0] for line in rep["log"] if " placed " in line or " found no place " in line]
        assert placers[0] == names[rep["terrain_first"]]
        assert all(placers[i] != placers[i + 1] for i in range(len(placers) - 1))
        assert any(line.startswith("fortifications: none") for line in rep["log"])


@pytest.mark.parametrize("option", WITH_OPTIONS)
def test_every_with_option_shows_in_the_scenario(option):
    docs = [generate_scenario(s, with_=[option]) for s in range(6)]
    for doc in docs:
        Game(doc, seed=0)
    units = [u for d in docs for side in d["sides"] for u in side["units"]]
    if option == "vehicles":
        assert any("design" in u for u in units)
        assert any(u.get("carried_by") for u in units)
        for d in docs:
            for side in d["sides"]:
                names = {u["name"]: u for u in side["units"]}
                for u in side["units"]:
                    if u.get("carried_by"):
                        assert "design" in names[u["carried_by"]] and u["position"] == names[u["carried_by"]]["position"]
    elif option == "heavy_weapons":
        assert any(u.get("heavy_weapon") for u in units)
    elif option == "power_armour":
        assert any(u.get("armour") == "light_power" for u in units)
    elif option == "night":
        assert all(d["options"].get("night") is True for d in docs)
    elif option == "reinforcements":
        assert all(any(u.get("inbound") for u in side["units"]) for d in docs for side in d["sides"])
    elif option == "hidden":
        hidden = [u for u in units if u.get("hidden")]
        assert hidden and any(side.get("dummies") for d in docs for side in d["sides"])
        for d in docs:
            bf = Battlefield(d)
            for side in d["sides"]:
                assert len(side.get("dummies", [])) <= 2 * sum(bool(u.get("hidden")) for u in side["units"])
                for x, y in [u["position"] for u in side["units"] if u.get("hidden")] + side.get("dummies", []):
                    assert bf.conceals(x, y)
    elif option == "jamming":
        assert all(d["options"].get("jamming") is True and all("jammer" in s for s in d["sides"]) for d in docs)
    elif option in ("chits", "cards"):
        assert all(d["options"].get("activation") == option for d in docs)
    elif option == "seize":
        assert all(d["options"].get("seize_tokens") == 1 for d in docs)
    else:  # pragma: no cover - a new option needs its check here
        raise AssertionError(option)


def test_bad_input_is_refused_in_one_line():
    for kw, words in (({"seed": -1}, "seed"), ({"seed": 1, "points": 3}, "too few"), ({"seed": 1, "points": "x"},
                      "whole number"), ({"seed": 1, "table": (10, 48)}, "24 to 240"),
                      ({"seed": 1, "with_": "night,fog"}, "unknown --with option 'fog'"),
                      ({"seed": 1, "with_": "chits,cards"}, "exclude each other"), ({"seed": 1, "name": ""}, "name")):
        with pytest.raises(BuildError, match=words) as e:
            generate_scenario(**kw)
        assert "\n" not in str(e.value)
    assert parse_with(" night , hidden ") == frozenset({"night", "hidden"})


def _cli(capsys, *args):
    """``dustup build ARGS`` in this process: (exit status, stdout, stderr)."""
    from dustup_cli.cli import main

    capsys.readouterr()
    try:
        code = main(["build", *args])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_writes_the_same_file_for_the_same_seed_and_refuses_bad_flags(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    code, out, err = _cli(capsys, "--seed", "4", "--with", "vehicles,night", "--table", "60x48", "--out", str(a))
    assert code == 0 and out.startswith(str(a)), err
    assert _cli(capsys, "--seed", "4", "--with", "night,vehicles", "--table", "60x48", "--out", str(b))[0] == 0
    assert a.read_bytes() == b.read_bytes()
    doc = json.loads(a.read_text())
    assert doc["table"] == {"width": 60, "height": 48} and doc["options"]["night"] is True
    Game(str(a), seed=0)
    for args in (["--seed", "x", "--out", str(a)], ["--seed", "1", "--points", "0", "--out", str(a)],
                 ["--seed", "1", "--table", "72by48", "--out", str(a)], ["--seed", "1", "--with", "rain",
                 "--out", str(a)], ["--seed", "1", "--out", str(tmp_path / "none" / "x.json")],
                 ["--seed", "1", "--out", str(tmp_path / "x.txt")], ["--out", str(a)],
                 ["--seed", "1", "--points", "2", "--out", str(a)], ["--seed", "1", "--name", " ", "--out", str(a)]):
        code, out, err = _cli(capsys, *args)
        assert code == 2, args
        assert err.startswith("dustup build: ") and err.count("\n") == 1, (args, err)
    code, out, _ = _cli(capsys, "--help")
    assert code == 0 and "--with options" in out and "docs/builder.md" in out


def test_the_command_runs_as_a_program(tmp_path):
    out = tmp_path / "battle.json"
    r = subprocess.run([sys.executable, "-m", "dustup_cli", "build", "--seed", "2", "--out", str(out)],
                       capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and json.loads(out.read_text()) == generate_scenario(2), r.stderr


def test_the_builder_imports_no_agents_training_evaluation_gym_or_torch():
    for p in (ROOT / "dustup_env" / "builder").glob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for n in names:
                assert n.split(".")[0] not in ("agents", "training", "evaluation", "gymnasium", "gym", "torch"), (p, n)


def test_generated_games_play_to_the_end_with_random_and_hard_agents():
    from agents import make_agent
    from evaluation.simulate import play_game

    for seed, with_ in ((11, []), (12, ["vehicles", "heavy_weapons", "hidden"]), (13, ["reinforcements", "night",
                                                                                      "power_armour", "cards"])):
        doc = generate_scenario(seed, with_=with_)
        for name in ("random", "hard"):
            g = play_game(doc, (make_agent(name), make_agent(name)), seed)
            assert g.over and g.winner in (-1, 0, 1)
            assert g.turn <= doc["turn_limit"]


def test_the_turn_limit_is_set_by_the_deployment_chart(built):
    from dustup_env.builder.charts import DEPLOYMENT

    seen = set()
    for doc, rep in built:
        assert doc["turn_limit"] == DEPLOYMENT[rep["deployment"]].turns
        seen.add(rep["deployment"])
    assert len(seen) >= 4


def test_each_force_is_chosen_without_seeing_the_other():
    a, _ = build(21, points=(95, 95))
    b, _ = build(21, points=(95, 400), table=(96, 72))
    strip = lambda side: [{k: v for k, v in u.items() if k not in ("position", "facing", "hidden", "inbound")}  # noqa: E731
                          for u in side["units"]]
    assert strip(a["sides"][0]) == strip(b["sides"][0])
    assert strip(a["sides"][1]) != strip(b["sides"][1])


def test_the_guides_commands_parse():
    import re
    import shlex

    from dustup_cli.cli import build_parser

    text = (ROOT / "docs" / "builder.md").read_text()
    shown = [line.split("  #")[0].strip() for block in re.findall(r"```bash\n(.*?)```", text, re.S)
             for line in block.splitlines() if line.startswith("dustup ")]
    assert len(shown) >= 3
    for cmd in shown:
        build_parser().parse_args(shlex.split(cmd)[1:])
    assert not re.search(r"\b[0-9a-f]{7,40}\b(?![\w.])|\bsession \d|\b20\d\d-\d\d-\d\d\b", text)
