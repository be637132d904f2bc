"""Mines and Explosives in whole games: the built-in scenario ``breach`` (listed, played to the end by random and hard
agents, checked by Gymnasium's env checker), hidden counters never reaching the other side (twin games: view, log,
narration, the front-ends' table view, observation, mask and the agents' choices), the ``mines`` observation piece,
and 50 random games of ``breach`` keeping the invariants and saving, loading and replaying exactly."""
from __future__ import annotations

import copy
import json
import random
import warnings

import gymnasium as gym
import pytest

import dustup_env  # noqa: F401  (registers Dustup-v0)
import test_properties
from test_properties import Invariants
from dustup_env import narrate as nr
from dustup_env.agent_registry import make_agent
from dustup_env.codec import ActionCodec, layout_for_game
from dustup_env.observation import Observer, pieces_for
from dustup_env.rules import Game, GameOverError
from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
from dustup_env.rules.kernel.data import load_scenario, scenario_names
from dustup_env.service import views

EXTRA = [{"type": "dummy", "position": [45, 45]}, {"type": "at", "position": [40, 46]}]


def test_breach_is_built_in_and_listed(capsys):
    from dustup_cli.cli import main

    assert "breach" in scenario_names()
    assert main(["scenarios"]) == 0
    assert "breach" in capsys.readouterr().out
    g = Game("breach", seed=0)
    kinds = [e["kind"] for e in g.entities]
    assert kinds.count("minefield") == 7 and {"cdm", "booby_trap", "ied"} <= set(kinds)
    assert all(e["known"] == "owner" and e["owner"] == 1 for e in g.entities)
    assert not g.view(0).get("entities") and len(g.view(1)["entities"]) == len(g.entities)


@pytest.mark.parametrize("agents", [("random", "hard"), ("hard", "random")])
def test_breach_plays_to_the_end(agents):
    from evaluation.simulate import play_game

    players = [make_agent(a, seed=k) for k, a in enumerate(agents)]
    g = play_game("breach", players, seed=3)
    assert g.over and g.result()["reason"]
    assert all(getattr(p, "fallbacks", 0) == 0 for p in players)


def test_breach_passes_the_gymnasium_checker():
    from gymnasium.utils.env_checker import check_env

    env = gym.make("Dustup-v0", scenario="breach")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    env.close()


def test_the_mines_piece_shows_what_the_side_knows():
    """The ``mines`` observation piece: a row per entity slot the side knows of, the counter's kind (its owner's
    knowledge: AP, AT, mixed, dummy), nothing of a counter the side has not found."""
    g = Game("breach", seed=0)
    assert "mines" in [p.name for p in pieces_for(g)]
    obs = Observer.for_game(g)
    obs.observation(g, 0)
    assert not obs.dict["mines"].any()
    obs.observation(g, 1)
    rows = obs.dict["mines"].copy()
    f = mf.MINE_FEATURES
    assert rows[0][f.index("ap")] == 1.0 and rows[5][f.index("dummy")] == 1.0 and rows[7][f.index("cdm")] == 1.0
    mf.found(g, 0)  # side 0 finds the first counter (an AP field): its ref 0
    obs.observation(g, 0)
    assert obs.dict["mines"][0][f.index("ap")] == 1.0 and obs.dict["mines"][1:].sum() == 0.0


# ---------------------------------------------------------------------------------------------- hidden counters
def _side0_state(g, obs, agents):
    d = g.decision()
    know = nr.Knowledge.of_side(g, 0)
    state = {"view": copy.deepcopy(g.view(0)), "log": g.event_log(0), "table": copy.deepcopy(views.table_view(g, 0)),
             "text": [nr.narrate(e, know) for e in g.event_log(0)], "obs": obs.observation(g, 0).tobytes(),
             "decision": (d.side, d.kind)}
    if d.side == 0:
        codec = ActionCodec(layout_for_game(g))
        state["options"] = d.options
        state["mask"] = codec.mask(g, d).tobytes()
        state["choices"] = [tuple(a.choose(g, d)) for a in agents]
    return state


def _twins(extra, seed):
    """Two games of ``breach``, one with the ``extra`` hidden counters, played in lockstep by the same random
    choices until side 0 learns of an extra counter or the game ends; also until the same random pick means
    another action for the owner (side 1) in the twins: it knows its own counters (e.g. no prop in its own
    minefield, L1938, so its option lists may differ), and from there on the games may go apart without anything
    reaching side 0.  Side 0's states of each game."""
    games, observers, agents, states = [], [], [], ([], [])
    for ex in (extra, []):
        doc = copy.deepcopy(load_scenario("breach"))
        doc["sides"][1]["mines"] += ex
        g = Game(doc, seed=seed)
        games.append(g)
        observers.append(Observer.for_game(g))
        ag = [make_agent(n, seed=3) for n in ("scripted", "hard")]
        for x in ag:
            x.reset(3)
        agents.append(ag)
    a, b = games
    rng = random.Random(seed)
    hidden = [e["id"] for e in a.entities[len(a.entities) - len(extra):]]
    while not a.over and not any(a.entities[i]["refs"][0] >= 0 for i in hidden):
        da, db = a.decision(), b.decision()
        for k in (0, 1):
            states[k].append(_side0_state(games[k], observers[k], agents[k]))
        i = rng.randrange(len(da.options))
        if da.side == 1 and (i >= len(db.options) or db.options[i] != da.options[i]):
            break
        a.apply(da.options[i])
        b.apply(db.options[i])
    return states


@pytest.mark.parametrize("seed", [1, 2])
def test_a_hidden_minefield_and_a_dummy_counter_never_reach_the_other_side(seed):
    sa, sb = _twins(EXTRA, seed)
    assert len(sa) == len(sb) > 50
    for i, (x, y) in enumerate(zip(sa, sb)):
        assert x == y, (i, [k for k in x if x[k] != y.get(k)])
    # the breach's own counters were met on the way (they show once found), the extra ones never
    assert any(s["view"].get("entities") for s in sa)


# ---------------------------------------------------------------------------------------------- random games
def _policy(g, rng):
    d = g.decision()
    mines = [o for o in d.options if o[0] in ("clear_lane", "line_charge", "cdm_fire")]
    if mines and rng.random() < 0.5:
        return rng.choice(mines)
    return rng.choice(d.options)


@pytest.mark.parametrize("chunk", range(5))
def test_random_breach_games_keep_the_invariants_and_replay_exactly(chunk, monkeypatch):
    monkeypatch.setattr(test_properties, "PROCEDURE_KINDS", test_properties.PROCEDURE_KINDS + ("cdm",))
    kinds, events = set(), set()
    for k in range(10):
        i = chunk * 10 + k
        g = Game("breach", seed=90_000 + i)
        inv = Invariants(g)
        rng = random.Random(i)
        n = 0
        while not g.over:
            assert n < 20_000, "game did not end"
            opt = _policy(g, rng)
            g.apply(opt)
            kinds.add(opt[0])
            n += 1
            inv.check(g)
            for e in g.entities:  # a counter a side knows of is one it owns or one that was found or set off
                for s in (0, 1):
                    if e["refs"][s] >= 0:
                        assert e["owner"] == s or e["known"] == "revealed"
            assert len(g.entities) <= 32
        with pytest.raises(GameOverError):
            g.apply(opt)
        events.update(e["type"] for e in g.event_log())
        h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
        assert h.state_digest() == g.state_digest() and h.event_log() == g.event_log()
        snap = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
        assert snap.state_digest() == g.state_digest() and snap.entities == g.entities
    assert {"MineTest", "CounterRemoved"} <= events, events
