"""A company-sized game: 20 units a side (five platoons of an HQ and three squads), the documented limit of 32
units a side, and the layouts with 32 unit slots a side that such a scenario gets (platoon-sized scenarios keep
the 12-slot layouts trained policies know)."""
from __future__ import annotations

import copy
import random
import warnings

import gymnasium as gym
import numpy as np
import pytest

import dustup_env  # noqa: F401  (registers Dustup-v0)
from dustup_env import codec as C
from dustup_env import observation as O
from dustup_env.env import DustupEnv
from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.kernel.data import load_scenario
from dustup_env.rules.kernel.limits import COMPANY_SLOTS, MAX_UNITS_PER_SIDE, PLATOON_SLOTS, unit_slots
from evaluation.simulate import play_game


def test_company_scenario_fields_five_platoons_a_side():
    g = Game("company", seed=0)
    for s in (0, 1):
        units = [g.units[uid] for uid in g.side_units[s]]
        assert len(units) == 20
        assert sum(u.profile.kind == "hq" for u in units) == 5
        assert len({u.name for u in units}) == 20
    assert unit_slots(g.scenario) == COMPANY_SLOTS


def test_slots_follow_the_larger_side():
    doc = copy.deepcopy(load_scenario("default"))
    assert unit_slots(doc) == PLATOON_SLOTS
    doc["sides"][1]["units"] = [dict(doc["sides"][1]["units"][1], name=f"Squad {k}") for k in range(13)]
    assert unit_slots(doc) == COMPANY_SLOTS


def test_more_than_32_units_a_side_is_refused_with_the_limit_named():
    doc = copy.deepcopy(load_scenario("default"))
    sq = doc["sides"][0]["units"][1]
    doc["sides"][0]["units"] = [dict(sq, name=f"Squad {k}", commander="Squad 0") if k else dict(sq, name="Squad 0")
                                for k in range(MAX_UNITS_PER_SIDE + 1)]
    for u in doc["sides"][0]["units"]:
        u.pop("commander", None)
    with pytest.raises(ScenarioError) as e:
        Game(doc, seed=0)
    msg = str(e.value)
    assert "sides/0/units" in msg and "at most 32" in msg and len(msg) < 200 and "\n" not in msg, msg


def test_platoon_layouts_keep_their_sizes():
    # the layouts trained policies know: a platoon-sized game never sees the company layouts
    assert C.N_ACTIONS == 2461 and O.OBS_SIZE == 2166 and O.ARMOURED_OBS_SIZE == 3342
    assert O.LEGACY_OBS_SIZE == 1569 and O.LEGACY_ARMOURED_LAYOUT.size == 2745  # what models trained before take
    assert C.ActionCodec.for_game(Game("default", seed=0)).layout is C.LAYOUT
    assert O.Observer.for_game(Game("armour", seed=0)).layout is O.ARMOURED_LAYOUT
    # the company layouts: the same families and pieces with 32 slots a side
    assert C.COMPANY_LAYOUT.families == C.LAYOUT.families and C.COMPANY_LAYOUT.units == 32
    assert O.COMPANY_LAYOUT.shape["units"] == (64, O.UF)
    assert [p.name for p in O.COMPANY_LAYOUT.pieces] == [p.name for p in O.LAYOUT.pieces]


def test_every_option_of_a_company_game_has_an_index_and_decodes_back():
    g = Game("company", seed=3)
    codec = C.ActionCodec.for_game(g)
    assert codec.layout is C.COMPANY_LAYOUT
    rng = random.Random(3)
    n = 0
    while not g.over and n < 600:
        d = g.decision()
        idx = codec.indices(g, d)
        assert len(set(idx)) == len(idx)
        for o, a in zip(d.options, idx):
            got = codec.decode(g, d.side, a, d.kind)
            assert got == tuple(o) or (a == 0 and got in (("end",), ("pass",)))
        g.apply(rng.choice(d.options))
        n += 1


@pytest.mark.parametrize("agents", [("random", "random"), ("hard", "easy"), ("medium", "defensive")])
def test_company_games_play_to_the_end(agents):
    from agents import make_agent

    g = play_game("company", [make_agent(a, seed=k) for k, a in enumerate(agents)], seed=5)
    assert g.over and g.result()["reason"]


@pytest.mark.parametrize("checker", ["gymnasium", "sb3"])
def test_company_env_passes_the_checkers(checker):
    if checker == "gymnasium":
        from gymnasium.utils.env_checker import check_env
    else:
        from stable_baselines3.common.env_checker import check_env
    env = gym.make("Dustup-v0", scenario="company")
    assert env.observation_space.shape == (O.COMPANY_LAYOUT.size,)
    assert env.action_space.n == C.COMPANY_LAYOUT.n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    env.close()


def test_company_env_plays_a_game_on_the_mask():
    env = DustupEnv(scenario="company", opponent="random")
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    steps = 0
    while not done:
        assert obs.shape == (O.COMPANY_LAYOUT.size,) and 0.0 <= obs.min() and obs.max() <= 1.0
        legal = np.flatnonzero(env.action_masks())
        obs, _r, term, trunc, _i = env.step(int(rng.choice(legal)))
        done = term or trunc
        steps += 1
    assert steps > 50


def test_detachments_may_grow_a_company_side_past_twelve_units():
    from dustup_env.rules.unit_actions.detach_element_action import RULE  # noqa: F401  (the rule is standard)

    g = Game("company", seed=0)
    rng = random.Random(0)
    grew = False
    while not g.over and not grew:
        d = g.decision()
        dets = [o for o in d.options if o[0] == "detach"]
        g.apply(dets[0] if dets else rng.choice(d.options))
        grew = any(len(g.side_units[s]) > 20 for s in (0, 1))
    assert grew


def test_a_platoon_policy_refuses_a_company_game_in_one_line():
    pytest.importorskip("sb3_contrib")
    from agents.policy import shipped_agent

    agent = shipped_agent()
    g = Game("company", seed=0)
    with pytest.raises(ValueError, match="unit slots a side"):
        agent.choose(g, g.decision())


def test_company_pettingzoo_and_openspiel_spaces():
    from dustup_env.pettingzoo import raw_env

    pz = raw_env(scenario="company")
    assert pz.action_space("side_0").n == C.COMPANY_LAYOUT.n
    assert pz.observation_space("side_0")["observation"].shape == (O.COMPANY_LAYOUT.size,)
    pz.reset(seed=1)
    for _ in range(40):
        agent = pz.agent_selection
        mask = pz.observe(agent)["action_mask"]
        pz.step(int(np.flatnonzero(mask)[0]))
    pyspiel = pytest.importorskip("pyspiel")
    import dustup_env.openspiel  # noqa: F401  (registers python_dustup)

    game = pyspiel.load_game("python_dustup", {"scenario": "company"})
    assert game.num_distinct_actions() == C.COMPANY_LAYOUT.n
    state = game.new_initial_state()
    for _ in range(40):
        state.apply_action(state.legal_actions()[0])
