"""Agents and `dustup simulate`."""
import json

import pytest

from agents import make_agent
from dustup_cli.cli import main
from evaluation.simulate import play_game, simulate


def test_simulate_json_shape_and_side_balance(capsys):
    assert main(["simulate", "--agents", "scripted,random", "--games", "6", "--json", "--no-progress",
                 "--scenario", "skirmish"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 6
    assert set(out["wins"]) == {"scripted", "random"}
    assert out["wins"]["scripted"] + out["wins"]["random"] + out["draws"] == 6


def test_scripted_beats_random():
    res = simulate("scripted", "random", 40, seed=11, progress=False)
    assert res["wins"]["scripted"] >= 32, res  # >= 80% (measured 200/200 on 200 games)


def test_agents_are_deterministic():
    a = play_game("skirmish", [make_agent("scripted", 1), make_agent("random", 2)], seed=5)
    b = play_game("skirmish", [make_agent("scripted", 1), make_agent("random", 2)], seed=5)
    assert a.history == b.history and a.state_digest() == b.state_digest()


def test_unknown_agent_and_scenario_are_clear_errors(capsys):
    assert main(["simulate", "--agents", "scripted,nobody", "--games", "1", "--no-progress"]) == 2
    assert "nobody" in capsys.readouterr().err
    assert main(["simulate", "--agents", "scripted,random", "--games", "1", "--scenario", "atlantis",
                 "--no-progress"]) == 2
    assert "atlantis" in capsys.readouterr().err


def test_bots_answer_the_new_assault_decisions_as_before():
    """The issue 3 gap decisions reach the bots' existing fallbacks, which keep their doctrine: one defender per
    assault, no special-weapon split, occupy after a multiple withdrawal (and after a mid-combat withdrawal in the
    house close combat), no house pursuit, and the first promotion offered."""
    from dustup_env.rules import Decision
    from dustup_env.rules.kernel.game import Game
    g = Game("skirmish", seed=0)
    cases = [Decision(0, "assault_targets", 0, (("defenders_chosen",), ("add_defender", 5))),
             Decision(0, "special_weapons", 0, (("no_split",), ("split_special",))),
             Decision(0, "assault_follow_up", 0, (("occupy",), ("follow", 4), ("follow", 5))),
             Decision(0, "assault_follow_up", 0, (("defenders_chosen",), ("follow", 5))),
             # house close combat: occupy a position vacated mid-combat; no pursuit (the author's advice)
             Decision(0, "house_occupy", 0, (("occupy",), ("halt",))),
             Decision(0, "house_pursuit", 0, (("halt",), ("follow", 5)))]
    want = [("defenders_chosen",), ("no_split",), ("occupy",), ("defenders_chosen",), ("occupy",), ("halt",)]
    for name in ("scripted", "easy", "medium", "hard", "defensive"):
        bot = make_agent(name, 0)
        assert [bot.choose(g, d) for d in cases] == want, name


# ------------------------------------------------------------------------------------------- the registry
def test_registry_resolves_names_and_refuses_bad_ones():
    from dustup_env import agent_registry as R

    names = R.agent_names()
    for n in ("random", "scripted", "easy", "medium", "hard", "defensive", "ppo", "policy:PATH"):
        assert n in names
    for spec, msg in (("nobody", "unknown agent 'nobody': known agents are"), ("scripted:x", "takes no argument"),
                      ("policy", "needs an argument: name it policy:PATH"), ("policy:", "policy:PATH"),
                      ("", "non-empty")):
        with pytest.raises(ValueError, match=msg):
            R.make_agent(spec)
    with pytest.raises(ValueError, match="without ':'"):
        R.register("a:b", R.RandomAgent)
    R.register("test-first", lambda seed=0: FirstOption(seed))
    try:
        a = make_agent("test-first", seed=3)  # the agents package resolves through the same registry
        assert isinstance(a, FirstOption) and a.seed == 3
        assert "test-first" in R.agent_names()
    finally:
        R.AGENTS.pop("test-first")


class FirstOption:
    def __init__(self, seed=0):
        self.seed = seed

    def choose(self, game, decision):
        return decision.options[0]


def test_the_environment_layer_never_imports_the_agents(tmp_path):
    """dustup_env (env, observation, codec, registry, PettingZoo, OpenSpiel) imports no agent module: names resolve
    through the registry, whose built-in agents join from the dustup.agents entry points when asked for."""
    import ast
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for mod in ("env", "observation", "codec", "agent_registry", "pettingzoo", "openspiel", "__init__"):
        tree = ast.parse((root / "dustup_env" / f"{mod}.py").read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            for n in names:
                assert n.split(".")[0] not in ("agents", "training", "evaluation"), f"dustup_env/{mod}.py imports {n}"
    code = ("import sys, gymnasium as gym, dustup_env, dustup_env.env, dustup_env.observation, dustup_env.pettingzoo\n"
            "assert not [m for m in sys.modules if m.split('.')[0] in ('agents', 'training', 'evaluation')]\n"
            "e = gym.make('Dustup-v0', opponent='random'); e.reset(seed=0)\n"
            "assert 'agents' not in sys.modules\n"
            "from importlib import metadata\n"
            "if [ep for ep in metadata.entry_points(group='dustup.agents') if ep.name == 'hard']:\n"
            "    e = gym.make('Dustup-v0', opponent='hard'); e.reset(seed=0)\n"
            "    assert type(e.unwrapped._opponent_agent).__name__ == 'HardAgent'\n"
            "    print('entry points')\n")
    env = dict(__import__("os").environ, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "entry points", "the dustup.agents entry points are not installed (pip install -e .)"
