"""Agents say what they can play: an agent asked to play a scenario outside what it was trained or written for says
so in one line (``Agent.unfamiliar``), and the front-ends show it: `dustup play`, tournaments, the protocol's and the
HTTP API's game settings (``ai_note``)."""
import pytest

from dustup_env.agent_registry import unfamiliar
from dustup_env.rules import Game


@pytest.fixture(scope="module")
def ppo():
    pytest.importorskip("sb3_contrib")
    from agents import make_agent
    return make_agent("ppo")


def test_ppo_says_it_never_saw_vehicles_fire_support_or_aircraft(ppo):
    assert unfamiliar(ppo, Game("default", seed=0)) is None
    # a scenario another shipped policy was trained on: named, with that policy
    assert unfamiliar(ppo, Game("skirmish", seed=0)) == ("ppo was trained on default, not on skirmish, and plays it "
                                                          "badly (try ppo-skirmish)")
    from agents import make_agent
    assert unfamiliar(make_agent("ppo-skirmish"), Game("skirmish", seed=0)) is None
    note = unfamiliar(ppo, Game("armour", seed=0))
    assert note.startswith("ppo was trained on default and never saw the observation's vehicles and heavy weapons")
    assert "\n" not in note
    assert "Request Fire Support Action" in unfamiliar(ppo, Game("fire-support", seed=0))
    assert "Aerospace Operations" in unfamiliar(ppo, Game("air-assault", seed=0))


def test_easy_says_it_does_not_fly_aircraft_the_aerospace_doctrines_and_random_say_nothing():
    from agents import make_agent
    for name in ("easy", "hard"):
        assert unfamiliar(make_agent(name), Game("default", seed=0)) is None
    assert "does not fly aircraft" in unfamiliar(make_agent("easy"), Game("air-assault", seed=0))
    for name in ("scripted", "medium", "hard", "defensive", "random"):  # agents/aerospace.py flies them
        assert unfamiliar(make_agent(name), Game("air-assault", seed=0)) is None


def test_an_agent_whose_note_fails_says_nothing():
    class Broken:
        def unfamiliar(self, game):
            raise RuntimeError("no")
    assert unfamiliar(Broken(), Game("default", seed=0)) is None and unfamiliar(object(), Game("default", seed=0)) is None


def test_the_game_settings_of_the_protocol_and_http_api_and_the_tournaments_show_the_note(ppo):
    from dustup_env.service.session import Session
    from evaluation.tournament import notes

    s = Session.new(scenario="armour", seed=1, you=0, ai="ppo")
    assert "never saw the observation's vehicles" in s.settings()["ai_note"]
    assert "ai_note" not in Session.new(scenario="skirmish", seed=1, you=0, ai="ppo-skirmish").settings()
    assert "try ppo-skirmish" in Session.new(scenario="skirmish", seed=1, you=0, ai="ppo").settings()["ai_note"]
    assert notes(["random", "ppo"], ["default", "armour"]) == [f"armour: {unfamiliar(ppo, Game('armour', seed=0))}"]


def test_dustup_play_prints_the_note_before_the_game(capsys):
    from dustup_cli.cli import main

    assert main(["play", "--agents", "random,easy", "--scenario", "air-assault", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("note: easy does not fly aircraft") and err.count("\n") == 1
    assert main(["play", "--agents", "random,hard", "--scenario", "skirmish", "--seed", "1"]) == 0
    assert "note:" not in capsys.readouterr().err
