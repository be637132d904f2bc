"""Save / load / clone / replay: round trips preserve the state digest and continue identically."""
import copy
import json
import random

import pytest

from conftest import begin, play_random, scenario, unit
import dustup_env
from dustup_env.rules.kernel.saves import event_digest, rules_digest
from dustup_env.rules import Game, SaveFormatError


def midgame(scn="skirmish", seed=7, n=40, pick_seed=1):
    g = Game(scn, seed=seed)
    rng = random.Random(pick_seed)
    for _ in range(n):
        if g.over:
            break
        g.apply(rng.choice(g.decision().options))
    return g


def continue_both(a, b, pick_seed=5, n=10_000):
    """Apply the same random choices to two games; assert they stay identical."""
    rng = random.Random(pick_seed)
    steps = 0
    while not a.over and steps < n:
        da, db = a.decision(), b.decision()
        assert da == db
        opt = rng.choice(da.options)
        a.apply(opt)
        b.apply(opt)
        assert a.state_digest() == b.state_digest()
        steps += 1
    assert b.over == a.over
    assert a.event_log() == b.event_log()
    assert a.result() == b.result()


def test_to_dict_from_dict_round_trip():
    g = midgame()
    d = g.to_dict()
    assert (d["format"], d["version"], d["seed"]) == ("dustup-save", 2, 7)
    assert d["engine"] == dustup_env.__version__ and d["rules"] == rules_digest(g)
    assert d["digest"] == event_digest(g) and d["events"] == len(g.events) and len(d["decisions"]) == 40
    h = Game.from_dict(d)
    assert h.state_digest() == g.state_digest()
    assert h.event_log() == g.event_log()
    continue_both(g, h)


def test_json_round_trip_in_memory_and_on_disk(tmp_path):
    g = midgame("default", seed=3, n=60)
    h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert h.state_digest() == g.state_digest()
    path = tmp_path / "game.json"
    g.save(path)
    k = Game.load(path)
    assert k.state_digest() == g.state_digest()
    assert k.event_log() == g.event_log()
    continue_both(g, k, pick_seed=9)


def test_clone_round_trip_and_independence():
    g = midgame(n=25)
    before = g.state_digest()
    c = g.clone()
    assert c.state_digest() == before
    rng = random.Random(3)
    for _ in range(15):
        if c.over:
            break
        c.apply(rng.choice(c.decision().options))
    assert g.state_digest() == before  # the original is untouched
    assert c.state_digest() != before
    continue_both(g, g.clone(), pick_seed=4)


def test_save_of_a_finished_game():
    g = Game("skirmish", seed=11)
    play_random(g, random.Random(11))
    h = Game.from_dict(g.to_dict())
    assert h.over and h.result() == g.result()
    assert h.state_digest() == g.state_digest()


def test_replay_matches_history():
    g = midgame(n=50)
    h = Game.replay("skirmish", 7, g.history)
    assert h.event_log() == g.event_log()


def test_scripted_dice_games_cannot_be_saved():
    g = begin(scenario([unit("A", (5, 5))], [unit("B", (40, 40))]))
    with pytest.raises(SaveFormatError, match="seeded"):
        g.to_dict()


def test_corrupt_saves_are_rejected(tmp_path):
    d = midgame(n=30).to_dict()
    bad = copy.deepcopy(d)
    bad["digest"] = "0" * 16
    with pytest.raises(SaveFormatError, match="digest"):
        Game.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["format"] = "chess"
    with pytest.raises(SaveFormatError, match="not a Dustup save"):
        Game.from_dict(bad)
    with pytest.raises(SaveFormatError, match="not a Dustup save"):
        Game.from_dict([1, 2])
    bad = copy.deepcopy(d)
    bad["version"] = 99
    with pytest.raises(SaveFormatError, match="version 99"):
        Game.from_dict(bad)
    bad = copy.deepcopy(d)
    del bad["decisions"]
    with pytest.raises(SaveFormatError, match="missing 'decisions'"):
        Game.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["decisions"][3] = ["bogus"]
    with pytest.raises(SaveFormatError, match="decision #3 does not replay"):
        Game.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["seed"] = d["seed"] + 1  # another seed: the decisions or the digest stop matching
    with pytest.raises(SaveFormatError):
        Game.from_dict(bad)
    p = tmp_path / "junk.json"
    p.write_text("{not json")
    with pytest.raises(SaveFormatError, match="not JSON"):
        Game.load(p)


def test_decisions_past_the_end_do_not_replay():
    g = Game("skirmish", seed=2)
    play_random(g, random.Random(2))
    d = g.to_dict()
    d["decisions"].append(["first"])
    del d["digest"]
    with pytest.raises(SaveFormatError, match="does not replay"):
        Game.from_dict(d)
