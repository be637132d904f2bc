"""The observation, the masks and the built-in agents' choices equal those recorded on the reference code.

``tests/data/env_digests.json`` was recorded by ``python tests/env_digests.py record`` before the
observation was rebuilt from named pieces and the agents were moved onto their knowledge interface: the
shipped ``ppo`` keeps seeing exactly what it was trained on, and every built-in agent keeps playing the
same games (see tests/env_digests.py for what is hashed).
"""
import pytest

import env_digests as E

RECORDED = E.load()


def _skip_without_ppo(names):
    if "ppo" in names:
        pytest.importorskip("sb3_contrib")


@pytest.mark.parametrize("name,games,scn_f,opt_f", E.OBS_CONFIGS, ids=[c[0] for c in E.OBS_CONFIGS])
def test_observations_and_masks_unchanged(name, games, scn_f, opt_f):
    for k in range(games):
        assert list(E.obs_game(scn_f(k), opt_f(k), 100 + k)) == RECORDED["obs"][f"{name}/{k}"], f"{name} game {k}"


@pytest.mark.parametrize("name,episodes,scn_f,opt_f", E.ENV_CONFIGS, ids=[c[0] for c in E.ENV_CONFIGS])
def test_env_episodes_unchanged(name, episodes, scn_f, opt_f):
    assert list(E.env_episodes(scn_f(0), opt_f(0), 7, episodes)) == RECORDED["env"][name]


@pytest.mark.parametrize("sname,scn_f", E.AGENT_SCENARIOS, ids=[s[0] for s in E.AGENT_SCENARIOS])
def test_agents_choices_unchanged(sname, scn_f):
    for k, names in enumerate(E.AGENT_PAIRS + E.PPO_PAIRS):
        _skip_without_ppo(names)
        for j in range(2):
            key = f"{sname}/{names[0]}-{names[1]}/{j}"
            assert list(E.agents_game(names, scn_f(), 500 + 10 * k + j)) == RECORDED["agents"][key], key


def test_digests_cover_thousands_of_decisions():
    assert sum(n for _, n in RECORDED["obs"].values()) >= 5000
    assert sum(n for _, n in RECORDED["agents"].values()) >= 5000
