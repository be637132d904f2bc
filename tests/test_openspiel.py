"""The OpenSpiel Python game python_dustup (dustup_env.openspiel)."""
from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import env_digests  # noqa: E402
import dustup_env.openspiel as dos  # noqa: E402  (registers python_dustup)
from conftest import scenario, unit  # noqa: E402
from dustup_env.codec import N_ACTIONS, ActionCodec  # noqa: E402
from dustup_env.env import DustupEnv  # noqa: E402
from dustup_env.rules import Game  # noqa: E402

OPEN_FIELD = scenario([unit("A", (10, 6)), unit("A2", (30, 6))], [unit("B", (12, 40)), unit("B2", (34, 42))],
                      turn_limit=4, objectives=[{"name": "hill", "position": [24, 24], "vp": 2}], name="open field")
HIDDEN = json.dumps(env_digests.hidden_doc("skirmish"))


def load(**params):
    return pyspiel.load_game("python_dustup", {k: (json.dumps(v) if isinstance(v, (dict, list)) else v)
                                               for k, v in params.items()})


@pytest.mark.parametrize("params,sims", [
    ({}, 1),
    ({"scenario": "skirmish", "rng_seed": 3}, 2),
    ({"scenario": HIDDEN, "options": {"activation": "chits"}}, 1),
    ({"scenario": OPEN_FIELD}, 2),
], ids=["default", "skirmish", "skirmish-hidden-chits", "open-field-perfect-information"])
def test_random_sim_test_passes(params, sims):
    """OpenSpiel's own random-simulation checks (clone, legal actions and masks, action strings, observation
    tensors and strings, information states, returns, game length).  ``serialize=False``, as OpenSpiel's own
    Python games run it: a sampled-stochastic game's serialization needs ``Game::GetRNGState``, which Python
    games cannot override; state serialization is tested below."""
    pyspiel.random_sim_test(load(**params), num_sims=sims, serialize=False, verbose=False)


def test_game_type_info_and_parameters():
    g = load(scenario="skirmish")
    t = g.get_type()
    assert t.short_name == "python_dustup"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION  # woods: units may hide
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert g.num_distinct_actions() == N_ACTIONS and g.max_chance_outcomes() == 0
    assert g.max_game_length() == 5000 and g.observation_tensor_shape() == [2166]
    assert load(scenario=OPEN_FIELD).get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert load(max_game_length=40).max_game_length() == 40
    for bad, msg in (({"scenario": "atlantis"}, "atlantis"), ({"options": "[1]"}, "JSON object"),
                     ({"options": '{"nigth": true}'}, "nigth"), ({"max_game_length": 0}, "positive"),
                     ({"scenario": "{oops"}, "not valid JSON")):
        with pytest.raises(Exception, match=msg):
            load(**bad)
    with pytest.raises(Exception):
        pyspiel.load_game("python_dustup", {"colour": "red"})


def test_states_are_the_engines_games_with_fair_observations():
    g = load(scenario=HIDDEN, rng_seed=5)
    st = g.new_initial_state()
    game = st.dustup_game()
    views = [DustupEnv(scenario=json.loads(HIDDEN), opponent=lambda gm, d: d.options[0], learner_side=s)
             for s in (0, 1)]
    for s in (0, 1):
        views[s].attach(game, s)
    codec = ActionCodec()
    rng = random.Random(5)
    while not st.is_terminal():
        d = game.decision()
        assert st.current_player() == d.side
        assert st.legal_actions() == sorted(np.flatnonzero(codec.mask(game, d)).tolist())
        assert st.legal_actions(1 - d.side) == []
        for s in (0, 1):
            assert np.array_equal(np.asarray(st.observation_tensor(s), np.float32), views[s].observe())
            assert json.loads(st.observation_string(s)) == json.loads(json.dumps(game.view(s)))
        a = rng.choice(st.legal_actions())
        st.apply_action(a)
    assert st.returns() == ([0.0, 0.0] if game.winner in (None, -1) else
                            [1.0, -1.0] if game.winner == 0 else [-1.0, 1.0])
    info = json.loads(st.information_state_string(0))
    assert info["log"] == json.loads(json.dumps(game.event_log(0)))
    assert info["own_actions"] == [x.action for x in st.full_history() if x.player == 0]


def test_new_states_draw_seeds_that_clones_do_not_disturb():
    def seeds(rng_seed, with_clones):
        g = load(scenario="skirmish", rng_seed=rng_seed)
        out = []
        for _ in range(4):
            st = g.new_initial_state()
            if with_clones:
                for _ in range(3):
                    st.clone()  # OpenSpiel builds a new initial state for every clone
            out.append(st.dustup_game().seed)
        return out

    a = seeds(11, False)
    assert a == seeds(11, True) == seeds(11, False) and len(set(a)) == 4
    assert seeds(12, False) != a


def test_clone_is_independent_and_equal():
    g = load(scenario="skirmish")
    st = g.new_initial_state()
    rng = random.Random(1)
    for _ in range(20):
        st.apply_action(rng.choice(st.legal_actions()))
    c = st.clone()
    assert str(c) == str(st) and c.history() == st.history()
    before = str(st)
    while not c.is_terminal():
        c.apply_action(rng.choice(c.legal_actions()))
    assert str(st) == before  # the parent never moves


def test_state_serialization_and_game_pickling():
    g = load(scenario="skirmish", rng_seed=4)
    st = g.new_initial_state()
    rng = random.Random(2)
    for k in range(40):
        if k % 13 == 0:
            back = g.deserialize_state(st.serialize())
            assert str(back) == str(st) and back.history() == st.history()
        st.apply_action(rng.choice(st.legal_actions()))
    # the game pickles with its seed generator: the next initial states are the same (OpenSpiel's check for
    # sampled stochastic games)
    g.new_initial_state().dustup_game()
    g2 = pickle.loads(pickle.dumps(g))
    assert [g.new_initial_state().dustup_game().seed for _ in range(3)] == \
           [g2.new_initial_state().dustup_game().seed for _ in range(3)]


def test_max_game_length_cuts_the_game_as_a_draw():
    g = load(scenario="skirmish", max_game_length=25)
    st = g.new_initial_state()
    n = 0
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[-1])
        n += 1
    assert n == 25 and st.returns() == [0.0, 0.0] and "cut at 25" in str(st)


def test_observers_and_rl_environment():
    from open_spiel.python import rl_environment
    from open_spiel.python.observation import make_observation

    g = load(scenario="skirmish")
    st = g.new_initial_state()
    obs = make_observation(g)
    obs.set_from(st, 1)
    assert obs.tensor.shape == (2166,) and set(obs.dict) == {"units", "globals", "objectives", "terrain", "markers",
                                                             "decision", "entities"}
    assert obs.dict["units"].shape == (24, 37) and obs.dict["globals"][6] == 1.0  # learner_side
    info = make_observation(g, pyspiel.IIGObservationType(perfect_recall=True))
    assert info.tensor is None and json.loads(info.string_from(st, 0))["side"] == 0
    with pytest.raises(ValueError, match="not supported"):
        make_observation(g, pyspiel.IIGObservationType(perfect_recall=False,
                                                       private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    env = rl_environment.Environment(g)
    ts = env.reset()
    rng = random.Random(0)
    steps = 0
    while not ts.last():
        p = ts.observations["current_player"]
        ts = env.step([rng.choice(ts.observations["legal_actions"][p])])
        steps += 1
    assert steps > 30 and sum(ts.rewards) == 0.0


def test_hidden_units_possible():
    assert dos.hidden_units_possible(Game("default"))
    assert not dos.hidden_units_possible(Game(OPEN_FIELD))
