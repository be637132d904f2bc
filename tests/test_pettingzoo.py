"""The PettingZoo AEC environment (dustup_env.pettingzoo)."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import env_digests  # noqa: E402
from dustup_env.codec import N_ACTIONS, ActionCodec  # noqa: E402
from dustup_env.env import DustupEnv  # noqa: E402
from dustup_env.pettingzoo import env, raw_env  # noqa: E402
from dustup_env.rules import Game, IllegalOptionError  # noqa: E402


def quiet(fn, *a, **kw):
    with warnings.catch_warnings():  # api_test warns that dict observations are not arrays (as for the classic games)
        warnings.simplefilter("ignore", UserWarning)
        return fn(*a, **kw)


@pytest.mark.parametrize("kwargs", [{}, {"scenario": "skirmish", "options": {"activation": "chits"}},
                                    {"scenario": env_digests.hidden_doc("default")}],
                         ids=["default", "skirmish-chits", "default-hidden"])
def test_api_test_passes(kwargs):
    from pettingzoo.test import api_test

    quiet(api_test, env(**kwargs), num_cycles=1000)


def test_seed_test_passes():
    from pettingzoo.test import seed_test

    quiet(seed_test, lambda: env(scenario="skirmish"), num_cycles=300)


def play(e, rng, check=None):
    """Random legal play to the end; ``check(e, agent, obs)`` at every live step."""
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        if check:
            check(e, agent, obs)
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def test_observations_and_masks_are_each_sides_dustup_v0_ones():
    doc = env_digests.hidden_doc("default")
    e = raw_env(scenario=doc)
    e.reset(seed=3)
    views = [DustupEnv(scenario=doc, opponent=lambda g, d: d.options[0], learner_side=s) for s in (0, 1)]
    for s in (0, 1):
        views[s].attach(e.game, s)
    codec = ActionCodec()

    def check(e, agent, obs):
        side = int(agent[-1])
        d = e.game.decision()
        assert d.side == side
        assert np.array_equal(obs["observation"], views[side].observe())
        assert np.array_equal(obs["action_mask"].astype(bool), codec.mask(e.game, d))
        other = e.observe(f"side_{1 - side}")
        assert not other["action_mask"].any()  # the waiting agent has no legal action
        assert np.array_equal(other["observation"], views[1 - side].observe())
        assert e.infos[agent]["decision_kind"] == d.kind and e.infos[f"side_{1 - side}"]["decision_kind"] == "wait"

    assert play(e, random.Random(3), check) > 100


def test_a_game_is_the_engines_game_and_rewards_are_zero_sum():
    e = raw_env(scenario="skirmish")
    e.reset(options={"game_seed": 11})
    rng = random.Random(5)
    g = Game("skirmish", seed=11)
    totals = {"side_0": 0.0, "side_1": 0.0}
    codec = ActionCodec()
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            assert info["winner"] == g.winner and info["end_reason"] == g.end_reason
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a = int(legal[rng.randrange(len(legal))])
        d = g.decision()
        g.apply(codec.decode(g, d.side, a, d.kind))
        e.step(a)
        assert e.game.state_digest() == g.state_digest()
    assert g.over and e.agents == []
    w = g.winner
    assert totals == ({"side_0": 0.0, "side_1": 0.0} if w is None or w < 0 else
                      {f"side_{w}": 1.0, f"side_{1 - w}": -1.0})


def test_illegal_action_forfeits_or_raises():
    e = raw_env()
    e.reset(seed=1)
    agent = e.agent_selection
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[5])
    digest = e.game.state_digest()
    e.step(bad)
    assert e.game.state_digest() == digest  # the game itself is untouched
    assert all(e.terminations.values()) and e.rewards == {agent: -1.0, ("side_1" if agent == "side_0" else "side_0"): 1.0}
    assert e.infos[agent]["illegal_action"] is True and e.infos[agent]["end_reason"] == "illegal action"
    strict = raw_env(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalOptionError, match="not legal"):
        strict.step(bad)
    with pytest.raises(IllegalOptionError, match="out of range"):
        strict.step(N_ACTIONS)
    with pytest.raises(ValueError, match="step\\(None\\)"):
        strict.step(None)
    wrapped = env()
    wrapped.reset(seed=1)
    with pytest.raises(AssertionError):  # PettingZoo's AssertOutOfBoundsWrapper
        wrapped.step(N_ACTIONS)
    with pytest.raises(ValueError, match="illegal_action"):
        raw_env(illegal_action="random")


def test_truncation_at_max_decisions():
    e = raw_env(max_decisions=30)
    e.reset(seed=2)
    rng = random.Random(2)
    steps = play(e, rng)
    assert steps == 30


def test_render_and_errors():
    e = env(render_mode="ansi")
    e.reset(seed=0)
    assert "A0" in e.render()
    e = raw_env(render_mode="rgb_array", scenario="skirmish")
    e.reset(seed=0)
    assert e.render().shape == (360, 360, 3)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")
    with pytest.raises(Exception, match="atlantis"):
        raw_env(scenario="atlantis")
