"""``noisy:AGENT,p=P`` (agents/levels.py): the weaker strength levels' agent."""
from __future__ import annotations

import random

import pytest

import agents  # noqa: F401  (registers the agents)
from agents import make_agent
from dustup_env.rules import Game


def _play(name, seed=4, scenario="skirmish", cap=150):
    g = Game(scenario, seed=seed)
    players = [make_agent(name, seed=1), make_agent("easy", seed=2)]
    seen = []
    while not g.over and len(g.history) < cap:
        d = g.decision()
        o = players[d.side].choose(g, d)
        if d.side == 0:
            seen.append((d, tuple(o)))
        g.apply(o)
    return g, seen


def test_p_zero_plays_as_the_agent_it_weakens():
    assert list(_play("noisy:medium,p=0")[0].history) == list(_play("medium")[0].history)


def test_the_random_choices_are_the_agents_own_draws():
    """At each decision with a choice: one draw of the agent's generator; below p a uniformly random option (a second
    draw), else the weakened agent's choice, which is asked at every decision all the same."""
    g = Game("skirmish", seed=7)
    noisy = make_agent("noisy:hard,p=0.4", seed=3)
    shadow = make_agent("hard", seed=3)  # the weakened agent, asked at the same decisions
    twin = random.Random(3)
    enemy = make_agent("easy", seed=2)
    random_picks = kept = 0
    while not g.over and len(g.history) < 200:
        d = g.decision()
        if d.side == 0:
            o = noisy.choose(g, d)
            base = shadow.choose(g, d)
            if len(d.options) > 1 and twin.random() < 0.4:
                assert tuple(o) == tuple(d.options[twin.randrange(len(d.options))])
                random_picks += 1
            else:
                assert tuple(o) == tuple(base)
                kept += 1
        else:
            o = enemy.choose(g, d)
        g.apply(o)
    assert random_picks > 5 and kept > 5


def test_same_seed_same_game():
    assert list(_play("noisy:easy,p=0.5")[0].history) == list(_play("noisy:easy,p=0.5")[0].history)


@pytest.mark.parametrize("name, message", [
    ("noisy:easy", r"noisy is named noisy:AGENT,p=P \(e.g. noisy:easy,p=0.5\), not noisy:easy"),
    ("noisy:easy,p=2", r"p is a probability from 0 to 1, not '2'"),
    ("noisy:easy,p=x", r"p is a probability from 0 to 1, not 'x'"),
    ("noisy:,p=0.5", r"noisy is named noisy:AGENT,p=P"),
    ("noisy:nobody,p=0.5", r"unknown agent 'nobody'"),
    ("noisy:noisy:easy,p=0.1,p=0.2", r"not itself noisy"),
    ("noisy", r"needs an argument"),
])
def test_bad_names_are_one_line_errors(name, message):
    with pytest.raises(ValueError, match=message) as e:
        make_agent(name)
    assert "\n" not in str(e.value)


def test_the_cli_keeps_p_with_its_agent():
    from dustup_cli.cli import _names

    assert _names("noisy:easy,p=0.6,hard,mcts:playouts=4,z=1", "--agents") == ["noisy:easy,p=0.6", "hard",
                                                                                 "mcts:playouts=4,z=1"]
