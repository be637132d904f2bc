"""Watching and playing: `dustup replay` tells a game as a person reads it and draws it; the pictures of a
side's view hide what that side cannot know; `dustup play --agents human,...` plays a whole game through a
real terminal-like subprocess (stdin)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dustup_cli.cli import main
from dustup_env.render import render_ansi, render_rgb, replay_frames
from dustup_env.rules import Game

try:
    import dustup_env.narrate  # noqa: F401
    HAVE_NARRATE = True
except ImportError:
    HAVE_NARRATE = False
needs_narrate = pytest.mark.skipif(not HAVE_NARRATE, reason="the story and the option labels come from "
                                                            "dustup_env.narrate, which is not in this tree")

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture(scope="module")
def save(tmp_path_factory):
    p = tmp_path_factory.mktemp("save") / "game.json"
    assert main(["play", "--agents", "hard,easy", "--scenario", "skirmish", "--seed", "3", "--save", str(p)]) == 0
    return p


@needs_narrate
def test_replay_tells_the_game_turn_by_turn(save, capsys):
    assert main(["replay", str(save)]) == 0
    text = capsys.readouterr().out
    g = Game.load(save)
    names = {u.name for u in g.units}
    lines = text.splitlines()
    # every turn has its heading, the events are sentences with unit names and dice, the result closes it
    assert [x for x in lines if x.startswith("Turn ")] == [f"Turn {t}" for t in range(1, g.turn + 1)]
    assert all(n in text for n in names)
    assert "shoots at" in text and "target die D" in text and "impact D" in text
    assert lines[-1].startswith(f"Result: side {g.winner} (") and f"victory points {g.vp[0]} to {g.vp[1]}" in lines[-1]
    assert "{" not in text  # no raw event data
    assert "'type'" not in text and "unit 0" not in text
    # one line per event (but the activation ends and turn starts, which shape the text instead)
    told = sum(1 for e in g.event_log() if e["type"] not in ("ActivationEnded", "TurnStarted"))
    # each event line starts with its side's mark (A, B, or a space when it is nobody's) and an indent
    assert len([x for x in lines if x[:1] in ("A", "B", " ") and x[1:3] == "  "]) == told


def test_replay_json_is_for_machines(save, capsys):
    assert main(["replay", str(save), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["result"] == Game.load(save).result() and obj["events"][0]["type"] == "GameStarted"


def test_replay_pictures_one_per_turn_and_a_gif(save, tmp_path):
    from PIL import Image

    g = Game.load(save)
    assert main(["replay", str(save), "--frames", str(tmp_path / "f")]) == 0
    pngs = sorted((tmp_path / "f").glob("frame_*.png"))
    assert len(pngs) == 1 + g.turn  # the start, then the end of every turn
    first, last = (np.asarray(Image.open(p)) for p in (pngs[0], pngs[-1]))
    assert first.shape == last.shape and first.shape[1] == 1280 and not np.array_equal(first, last)  # readable size
    assert main(["replay", str(save), "--gif", str(tmp_path / "g.gif"), "--every", "activation"]) == 0
    gif = Image.open(tmp_path / "g.gif")
    activations = sum(1 for e in g.event_log() if e["type"] == "ActivationEnded")
    assert gif.n_frames == 1 + activations
    # the last picture is the final position: it equals a picture of the loaded game (caption apart)
    *_, (cap, arr) = replay_frames(json.loads(save.read_text()), scale=10)
    h = int(round(g.bf.height * 10))
    assert np.array_equal(arr[:h], render_rgb(g)[:h]) and "result" in cap


def hidden_twins():
    """Two games that differ only in where Red's hidden squad stands (behind one of three markers)."""
    from conftest import rect, scenario, unit

    wood = rect("light_woods", 10, 28, 34, 36)
    spots = ((14.0, 30.0), (20.0, 32.0), (28.0, 30.0))
    games = []
    for real in (1, 2):
        scn = scenario([unit("A", (20, 8)), unit("A2", (8, 6))],
                       [unit("B", (40, 44)), unit("H", spots[real], hidden=True)], terrain=[wood], turn_limit=4)
        scn["sides"][1]["dummies"] = [list(p) for p in spots if p != spots[real]]
        games.append(Game(scn, seed=4))
    return games


def test_a_sides_pictures_do_not_show_what_it_cannot_know():
    a, b = hidden_twins()
    steps = 0
    while steps < 12 and not any(e["type"] == "UnitRevealed" for e in a.event_log() + b.event_log()):
        assert render_ansi(a, side=0) == render_ansi(b, side=0)
        assert np.array_equal(render_rgb(a, side=0), render_rgb(b, side=0))
        opt = a.decision().options[0]  # the same decisions in both games
        a.apply(opt)
        b.apply(opt)
        steps += 1
    assert steps >= 3
    assert render_ansi(a) != render_ansi(b)  # the spectator sees the hidden squad
    assert not np.array_equal(render_rgb(a, side=1), render_rgb(b, side=1))  # and so does its own side
    text = render_ansi(Game(a.source_scenario, seed=4), side=0)
    assert sum(x.count("?") for x in text.splitlines() if x.startswith("|")) == 3  # three markers on the map
    assert "hidden: not found yet" in text


@needs_narrate
def test_play_a_whole_game_as_a_person_through_stdin(tmp_path):
    """A person (stdin) plays side 0 against hard to the end: every prompt has numbered options and the map of
    side 0's view; bad input is answered, not fatal; the AI's moves are shown; the save replays."""
    choices = ["x", "999", "h", "m"] + [str(1 + (i * 7) % 3) for i in range(400)]
    save = tmp_path / "mine.json"
    p = subprocess.run([sys.executable, "-m", "dustup_cli", "play", "--agents", "human,hard", "--scenario",
                        "skirmish", "--seed", "4", "--save", str(save)], input="\n".join(choices) + "\n",
                       capture_output=True, text=True, env=ENV, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    out = p.stdout
    prompts = out.count("your choice (1-")
    g = Game.load(save)
    human_decisions = sum(1 for d, s in zip(g.history, _sides(g)) if s == 0)
    assert prompts >= human_decisions > 5
    assert "is not a number" in out and "999 is not among the options" in out and "Type the number" in out
    assert "[side 0's view]" in out and "[spectator" not in out
    assert "Red activates" in out  # the AI's moves, narrated
    assert "    1. " in out and "Game over:" in out
    res = json.loads(out.strip().splitlines()[-1])
    assert res["agents"] == ["human", "hard"] and res["winner"] == g.winner and g.over


def _sides(g):
    """The side that took each decision of a finished game (replayed)."""
    r = Game(g.source_scenario, seed=g.seed, options=dict(g.options))
    out = []
    for opt in g.history:
        out.append(r.decision().side)
        r.apply(opt)
    return out


@needs_narrate
def test_a_person_can_stop_and_the_game_so_far_is_saved(tmp_path):
    save = tmp_path / "part.json"
    p = subprocess.run([sys.executable, "-m", "dustup_cli", "play", "--agents", "hard,human", "--scenario",
                        "skirmish", "--save", str(save)], input="1\n1\nq\n", capture_output=True, text=True, env=ENV)
    assert p.returncode == 1 and "stopped by the player" in p.stderr and "Traceback" not in p.stderr
    g = Game.load(save)
    assert not g.over and len(g.history) > 0
    p = subprocess.run([sys.executable, "-m", "dustup_cli", "play", "--agents", "human,random"], input="",
                       capture_output=True, text=True, env=ENV)
    assert p.returncode == 1 and "input ended" in p.stderr
