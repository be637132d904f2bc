"""Agents and `dustup simulate`."""
import json

from agents import make_agent
from dustup_env.cli import main
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
