"""The search with a trained policy as its prior or rollout player (``mcts:prior=ppo``, ``rollout=ppo``)."""
from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

from agents import make_agent  # noqa: E402
from agents.policy import PolicyAgent  # noqa: E402
from dustup_env.agent_registry import unfamiliar  # noqa: E402
from dustup_env.rules import Game  # noqa: E402
from test_mcts import (advance, contested, fair_on_the_lockstep_twins, plays_whole_games_deterministically,  # noqa: E402
                       same_choice_on_twins_with_other_dice)


def test_a_policy_as_prior_and_rollout():
    a = make_agent("mcts:prior=ppo,playouts=4", seed=1)
    assert isinstance(a._prior, PolicyAgent) and isinstance(a._search_prior, PolicyAgent)
    assert type(a._rollout).__name__ == "SearchHardAgent"
    # hard is the rollout: the root's other candidates are medium's, defensive's and easy's as with hard as prior
    assert [type(x).__name__ for x in a._extra] == ["SearchMediumAgent", "SearchDefensiveAgent", "SearchEasyAgent"]
    b = make_agent("mcts:prior=ppo,rollout=ppo,playouts=4", seed=1)
    assert isinstance(b._rollout, PolicyAgent)
    assert type(b._extra[0]).__name__ == "SearchHardAgent"  # with no doctrine in the search, hard's choice ranks next
    assert make_agent("mcts:playouts=4", seed=1)._extra[0].__class__.__name__ == "SearchMediumAgent"  # as before
    with pytest.raises(ValueError, match="the trained policies ppo, ppo-skirmish"):
        make_agent("mcts:prior=ppo2")
    c = make_agent("mcts:prior=ppo-skirmish,playouts=4", seed=1)  # a shipped policy per scenario
    assert isinstance(c._prior, PolicyAgent) and c._prior.name == "ppo-skirmish"
    assert c._prior.model is not b._prior.model


def test_with_a_tiny_budget_the_policy_decides():
    """Fewer than three pairs of playouts per alternative: no alternative can beat the prior's choice, so the search
    plays the policy's own choice (the arg-max of its legal logits)."""
    ppo = make_agent("ppo", seed=0)
    differ = 0
    for seed, n in ((1, 20), (2, 45), (3, 70)):
        g = contested(advance(Game("default", seed=seed), n, seed), seed)
        d = g.decision()
        a = make_agent("mcts:prior=ppo,playouts=2,depth=4", seed=seed)
        assert a.choose(g, d) == ppo.choose(g, d)
        differ += make_agent("hard", seed=seed).choose(g, d) != ppo.choose(g, d)
    assert differ >= 2  # (where hard, the default prior, would choose otherwise)


def test_plays_whole_games_deterministically():
    plays_whole_games_deterministically("mcts:prior=ppo,playouts=4,depth=8")


def test_same_choice_whatever_the_games_future_dice():
    same_choice_on_twins_with_other_dice("mcts:prior=ppo,rollout=ppo,playouts=16,depth=15")


def test_never_reads_hidden_information():
    """tests/test_fair_play.py's lockstep twins with the default prior, the policy trained on the twins' scenario
    (``ppo`` on ``default``, ``ppo-skirmish`` on ``skirmish``, else ``hard``; z=0: the search's own choice decides)."""
    fair_on_the_lockstep_twins("mcts:playouts=6,depth=4,z=0,rollout=easy")


def test_says_what_its_policy_never_saw():
    a = make_agent("mcts:prior=ppo,playouts=4", seed=1)
    note = unfamiliar(a, Game("armour", seed=1))
    assert note and note.startswith("mcts's prior: ppo was trained on default") and "vehicles" in note
    assert unfamiliar(a, Game("default", seed=1)) is None
    assert unfamiliar(make_agent("mcts:playouts=4", seed=1), Game("armour", seed=1)) is None


def test_the_default_prior_is_the_policy_trained_on_the_scenario(monkeypatch):
    """``prior=auto`` (the default): on ``default`` the search's prior is ``ppo``, on ``skirmish`` ``ppo-skirmish``,
    elsewhere ``hard``; it plays exactly as the search with that prior named."""
    from agents import mcts, policy
    from dustup_env.builder import generate_scenario
    a = make_agent("mcts:playouts=4", seed=1)
    assert a.settings["prior"] == "auto" and a.prior_name == "hard"  # no game yet
    for scenario, prior in (("default", "ppo"), ("skirmish", "ppo-skirmish"), ("armour", "hard"),
                            (generate_scenario(3), "hard")):
        g = Game(scenario, seed=1)
        a.choose(g, g.decision())
        assert a.prior_name == prior and (a._prior.name == prior)
        assert unfamiliar(a, g) is None
    for scenario, prior in (("skirmish", "ppo-skirmish"), ("armour", "hard")):
        hist = []
        for spec in ("mcts:playouts=3,depth=6", f"mcts:playouts=3,depth=6,prior={prior}"):
            g = Game(scenario, seed=9)
            players = [make_agent(spec, seed=3), make_agent("hard", seed=4)]
            for p, s in zip(players, (0, 1)):
                p.reset(9 * 2 + s)
            while not g.over and len(g.history) < 40:
                d = g.decision()
                g.apply(players[d.side].choose(g, d))
            hist.append(g.history)
        assert len(hist[0]) == 40 and hist[0] == hist[1]
    monkeypatch.setattr(mcts, "policy_ready", lambda name: False)  # without the policy extra: hard
    g = Game("skirmish", seed=1)
    b = make_agent("mcts:playouts=4", seed=1)
    b.choose(g, g.decision())
    assert b.prior_name == "hard" and policy.POLICY_FOR["skirmish"] == "ppo-skirmish"
    with pytest.raises(ValueError, match="the doctrines are"):
        make_agent("mcts:rollout=auto")
