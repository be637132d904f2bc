"""The game-start line a player reads: a side's own event log never holds the seed (it would tell every die
to come), and the narration says the seed is hidden instead of printing ``seed None``: in the terminal, in
the page's log (the service's event records) and in ``dustup replay --side``."""
from __future__ import annotations

from dustup_env import narrate as nr
from dustup_cli.cli import main
from dustup_env.rules import Game
from dustup_env.service.session import Session
from dustup_env.terminal import story


def test_the_narration_says_the_seed_is_hidden():
    assert nr.narrate({"type": "GameStarted", "scenario": "skirmish", "seed": None}) == \
        "game starts: scenario skirmish, seed hidden"
    assert nr.narrate({"type": "GameStarted", "scenario": "skirmish", "seed": 7}) == \
        "game starts: scenario skirmish, seed 7"


def test_a_side_story_hides_the_seed_and_a_spectator_story_shows_it():
    g = Game("skirmish", seed=12345)
    for side in (0, 1):
        text = "\n".join(story(g, side=side))
        assert "seed hidden" in text and "None" not in text and "12345" not in text
    assert "seed 12345" in "\n".join(story(g))


def test_the_page_log_hides_the_seed():
    s = Session.new(scenario="skirmish", seed=4321, you=0, ai="random")
    first = s.events(0, 0)["events"][0]
    assert first["type"] == "GameStarted" and first["seed"] is None
    assert first["text"] == "game starts: scenario skirmish, seed hidden"
    s.secret_seed = True  # the server drew the seed
    assert s.events(0, 0)["events"][0]["text"] == "game starts: scenario skirmish, seed hidden"


def test_replay_as_a_side_hides_the_seed(tmp_path, capsys):
    g = Game("skirmish", seed=987)
    while not g.over:
        d = g.decision()
        g.apply(("end",) if ("end",) in d.options else d.options[0])
    path = tmp_path / "g.json"
    g.save(path)
    assert main(["replay", str(path), "--side", "1"]) == 0
    out = capsys.readouterr().out
    assert "seed hidden" in out and "seed None" not in out and "987" not in out
    assert main(["replay", str(path)]) == 0
    assert "seed 987" in capsys.readouterr().out
