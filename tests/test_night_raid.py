"""The built-in ``night-raid`` scenario (seed 000 "Additional Rules › Electronic Warfare", "Drones"; "Night Vision";
"Hidden Units"): a night game with an EW team on each side (Red's hidden), small drones (Blue's hidden squad carries
them), hidden units behind dummy markers and a large drone as a fire-support asset.  It loads, is listed, plays to
the end with random and hard, passes Gymnasium's checker, hides the hidden EW unit and drone operator from the other
side (twins), and 50 random games keep the invariants and save, load and replay exactly."""
from __future__ import annotations

import json
import random

import pytest

import test_properties
from agents import make_agent
from dustup_cli.cli import main
from dustup_env.observation import Observer
from dustup_env.rules import Game, GameOverError, load_scenario, scenario_names
from dustup_env.rules.additional_rules import drones, electronic_warfare as ew
from dustup_env.service import views
from evaluation.simulate import play_game
from test_fair_play import factory, lockstep, swapped
from test_properties import Invariants

NAME = "night-raid"


def twin(doc, side):
    """``swapped`` (tests/test_fair_play.py), and the hidden unit's EW system or drones rated otherwise too."""
    out = swapped(doc, side)
    u = next(x for x in out["sides"][side]["units"] if x.get("hidden"))
    if "ew" in u:
        u["ew"] = "inferior" if u["ew"] != "inferior" else "superior"
    if "drone" in u:
        u["drone"] = "superior" if u["drone"] != "superior" else "inferior"
    return out


def test_it_loads_and_is_listed(capsys):
    assert NAME in scenario_names()
    assert main(["scenarios"]) == 0
    assert any(line.startswith(NAME) for line in capsys.readouterr().out.splitlines())
    g = Game(NAME, seed=0)
    assert g.options["night"] is True
    names = [r.name for r in g.rules.rules]
    assert {"Electronic Warfare", "Drones", "Hidden Units", "Request Fire Support Action"} <= set(names)
    assert sorted(ew.ew_states(g)) == ["0", "7"]  # Raid HQ (average), Signals (superior, hidden)
    assert g.units[7].hidden and g.units[7].name == "Signals"
    assert g.units[3].hidden and str(3) in drones.drone_states(g)  # Charlie, the hidden drone operator


@pytest.mark.parametrize("agents", [("random", "random"), ("hard", "random"), ("random", "hard")])
def test_it_plays_to_the_end(agents):
    for seed in range(2):
        g = play_game(NAME, [make_agent(n, seed=seed) for n in agents], seed)
        r = g.result()
        assert g.over and r["winner"] in (-1, 0, 1) and 1 <= r["turns"] <= 6


def test_gymnasium_env_checker():
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env
    import dustup_env  # noqa: F401 - registers Dustup-v0
    env = gym.make("Dustup-v0", scenario=NAME)
    check_env(env.unwrapped)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)


def test_the_other_side_cannot_see_the_hidden_ew_unit_or_drone_operator():
    """Twins that differ only in where the enemy's hidden unit stands (it swaps places with a dummy) and what it is:
    the same observation, view, page view and event log for the other side at the start; the EW unit's state and the
    drone (known to its owner only) show nowhere."""
    doc = load_scenario(NAME)
    for side in (0, 1):
        a, b = Game(doc, seed=5), Game(twin(doc, 1 - side), seed=5)
        assert a.state_digest() != b.state_digest()
        assert Observer.for_game(a).observation(a, side).tobytes() == \
            Observer.for_game(b).observation(b, side).tobytes()
        assert a.view(side) == b.view(side) and a.event_log(side) == b.event_log(side)
        assert views.table_view(a, side) == views.table_view(b, side)
        assert all(e["owner"] == side for e in a.view(side)["entities"])  # only its own drones


@pytest.mark.parametrize("name", ["random", "hard"])
@pytest.mark.parametrize("side", [0, 1])
def test_agents_play_it_without_reading_the_hidden_unit(name, side):
    """Lockstep twins (tests/test_fair_play.py): the side's observation, view, options and log are the same at every
    decision, and its agent chooses alike, until a detection or an EW attempt legitimately tells them apart."""
    doc = load_scenario(NAME)
    ends = [lockstep(factory(name), doc, twin(doc, 1 - side), side, 120 + seed, {}) for seed in range(4)]
    assert sum(n for n, _ in ends) >= 20, ends


def test_a_hidden_ew_units_attempts_stay_secret():
    """Red's hidden Signals team listens to the raiders' HQ and jams its order: Blue reads that its order failed,
    never which unit jammed it (the events naming the hidden unit are Hidden activity in its log), nor its counters
    in the observation."""
    for seed in range(200):
        g = Game(NAME, seed=seed)
        rng = random.Random(seed)
        seen = False
        while not g.over and not seen:
            d = g.decision()
            opts = d.options
            pick = [o for o in opts if o in (("ew_watch", 7, 1), ("ew_on",)) or o[0] == "order"]
            g.apply(pick[0] if pick else opts[rng.randrange(len(opts))])
            if any(type(e).__name__ == "UnitRevealed" and e.unit == 7 for e in g.events):
                break  # the Signals team was seen: what it did since is Blue's to read (try the next seed)
            seen = any(type(e).__name__ == "EWAttempt" and e.unit == 7 for e in g.events) and g.units[7].hidden
        if seen:
            break
    assert seen
    log = g.event_log(0)
    assert not any(e.get("unit") == 7 for e in log)
    assert any(e["type"] == "HiddenActivity" for e in log)
    obs = Observer.for_game(g)
    obs.observation(g, 0)
    rows = obs.dict["electronic_warfare"]
    assert not rows[obs.slots + g.side_units[1].index(7)].any()  # the hidden EW unit's row is empty
    assert rows[0][0] > 0  # Blue's own Raid HQ: its EW die


def _policy(g, rng):
    """Random play with a lean to the EW and drone options (so that they are exercised)."""
    d = g.decision()
    lean = [o for o in d.options if o[0] in ("ew_on", "ew_spot", "ew_watch", "ew_oppose", "drone_launch",
                                             "drone_move", "drone_spot")]
    if lean and rng.random() < 0.6:
        return rng.choice(lean)
    return rng.choice(d.options)


def _check_ew(g):
    for k, s in ew.ew_states(g).items():
        assert 0 <= s["counters"] <= ew.COUNTERS and (s["counters"] > 0) == s["active"]
    for k, eid in drones.drone_states(g).items():
        e = g.entities[eid]
        assert e["owner"] == g.units[int(k)].side and e["known"] == "owner"
        assert 0 <= e["x"] <= g.bf.width and 0 <= e["y"] <= g.bf.height
        assert not e["state"]["flying"] or g.units[int(k)].in_play


@pytest.mark.parametrize("chunk", range(2))
def test_invariants_and_exact_save_load_replay_of_random_games(chunk, monkeypatch):
    """50 random games (25 a chunk): the property tests' invariants, the EW counters and drones' invariants at every
    decision; a save (replayed), a snapshot and a copy taken mid-game go on exactly as the game."""
    monkeypatch.setattr(test_properties, "PROCEDURE_KINDS", test_properties.PROCEDURE_KINDS + (
        "fire_target", "fire_dummy"))
    kinds, events = set(), set()
    for k in range(25):
        i = chunk * 25 + k
        g = Game(NAME, seed=90_000 + i)
        inv = Invariants(g)
        rng = random.Random(i)
        cut = rng.randrange(20, 200)
        n = 0
        while not g.over:
            assert n < 20_000, "game did not end"
            opt = _policy(g, rng)
            g.apply(opt)
            kinds.add(opt[0])
            n += 1
            inv.check(g)
            _check_ew(g)
            if n == cut:
                digest = g.state_digest()
                saved = Game.from_dict(json.loads(json.dumps(g.to_dict())))
                snap = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
                copy = g.clone()
                for h in (saved, snap, copy):
                    assert h.state_digest() == digest and h.event_log() == g.event_log()
                twins = (saved, snap, copy)
        with pytest.raises(GameOverError):
            g.apply(opt)
        events.update(e["type"] for e in g.event_log())
        if n > cut:
            for h in twins:  # replay the rest of the game's decisions onto each
                for o in g.history[cut:]:
                    h.apply(o)
                assert h.over and h.state_digest() == g.state_digest() and h.event_log() == g.event_log()
    assert {"ew_on", "ew_spot", "ew_watch", "ew_oppose", "drone_launch", "drone_move"} <= kinds, kinds
    assert {"EWSwitchedOn", "EWAttempt", "EWListening", "DroneLaunched", "DroneMoved"} <= events, events


@pytest.mark.parametrize("side", [0, 1])
def test_twins_give_the_other_side_the_same_observation_mask_view_and_log_at_every_decision(side):
    """Twins differing only in the enemy's hidden unit (Red's EW team, or Blue's drone operator, swapped with a dummy
    marker): both games take the same random choices (quiet ones for the hidden unit while it is hidden) and ``side``'s
    full observation (the ``electronic_warfare`` piece included), action mask, view and event log are the same at
    every decision until a detection or a remote spotting reveals the difference."""
    from dustup_env.codec import ActionCodec
    doc = load_scenario(NAME)
    compared = 0
    for seed in range(3):
        a, b = Game(doc, seed=200 + seed), Game(twin(doc, 1 - side), seed=200 + seed)
        oa, ob = Observer.for_game(a), Observer.for_game(b)
        ca, cb = ActionCodec.for_game(a), ActionCodec.for_game(b)
        hidden = next(u.uid for u in a.units if u.side != side and u.hidden)
        rng = random.Random(seed)
        while not a.over:
            if a.event_log(side) != b.event_log(side) or a.units[hidden].hidden != b.units[hidden].hidden:
                break  # a detection told them apart
            assert oa.observation(a, side).tobytes() == ob.observation(b, side).tobytes()
            assert a.view(side) == b.view(side)
            da, db = a.decision(), b.decision()
            assert (da.side, da.kind) == (db.side, db.kind)
            if da.side == side:
                assert (ca.mask(a, da) == cb.mask(b, db)).all() and da.options == db.options
            elif da.unit == hidden and a.units[hidden].hidden:
                quiet = [o for o in da.options if o[0] in ("end", "prop", "ew_on", "drone_launch")]
                if not quiet or [o for o in db.options if o[0] in ("end", "prop", "ew_on", "drone_launch")] != quiet:
                    break
                opt = quiet[rng.randrange(len(quiet))]
                a.apply(opt)
                b.apply(opt)
                continue
            elif da.options != db.options:
                break
            opt = da.options[rng.randrange(len(da.options))]
            a.apply(opt)
            b.apply(opt)
            compared += 1
    assert compared >= 60, compared


def test_the_protocol_plays_it_against_hard_with_every_ew_and_drone_option_labelled():
    """Every new choice reaches the front-ends as a labelled decision (the protocol here; the HTTP API and the page
    read the same records): a front-end plays Blue at random against hard to the end."""
    from dustup_env.service.protocol import Engine
    eng = Engine(log=lambda msg: None)
    r = eng.handle({"cmd": "new", "scenario": NAME, "seed": 4, "you": 0, "ai": "hard"})
    assert r["ok"]
    rng = random.Random(4)
    seen = set()
    for _ in range(3000):
        if r.get("over"):
            break
        d = r["decision"]
        for o in d["options"]:
            if o["option"][0].startswith(("ew_", "drone_")):
                seen.add(o["option"][0])
                assert o["label"] and "_" not in o["label"], o
        lean = [o for o in d["options"] if o["option"][0].startswith(("ew_", "drone_"))]
        pick = rng.choice(lean if lean and rng.random() < 0.7 else d["options"])
        r = eng.handle({"cmd": "play", "option": pick["option"]})
        assert r["ok"], r
    assert r["over"] and {"ew_on", "drone_launch"} <= seen, seen
