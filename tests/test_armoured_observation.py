"""The armoured pieces of the observation (vehicles, heavy weapons): present only in games that field such units,
values in [0, 1], what they show, and no hidden information of the enemy's vehicles."""
import random

import numpy as np
from conftest import scenario, unit
from vehicle_helpers import mechanised, vehicle

from dustup_env.env import DustupEnv
from dustup_env.observation import (HEAVY_FEATURES, LAYOUT, LEGACY_OBS_SIZE, OBS_SIZE, PIECES, VEHICLE_FEATURES,
                                    Observer, armoured_game, pieces_for)
from dustup_env.rules import Game
from dustup_env.rules.armoured_dustup.heavy_weapons import HeavyState
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

V = {n: i for i, n in enumerate(VEHICLE_FEATURES)}
H = {n: i for i, n in enumerate(HEAVY_FEATURES)}


def heavy_scenario():
    blue = [unit("AT team", (10, 5), figures=(("rifle", 4),), heavy_weapon="missile_team", weapon_ready=False),
            unit("Gun", (20, 5), figures=(("rifle", 4),), heavy_weapon="towed_at_gun", area_protection="d8"),
            vehicle("Tank", (30, 5), "main_battle_tank")]
    red = [unit("Red", (20, 40), figures=(("rifle", 5),), ecm="d8")]
    return scenario(blue, red, name="heavy test")


def test_infantry_games_keep_the_layout():
    for name in ("default", "skirmish"):
        g = Game(name, seed=0)
        assert not armoured_game(g.scenario) and pieces_for(g) == PIECES
        assert Observer.for_game(g).size == OBS_SIZE == 2161 == LAYOUT.size
        assert DustupEnv(scenario=name).observation_space.shape == (2161,)


def test_armoured_games_append_the_pieces():
    g = Game(mechanised(), seed=0)
    ob = Observer.for_game(g)
    names = [p["name"] for p in ob.layout.describe()]
    assert names == ["units", "globals", "objectives", "terrain", "markers", "vehicles", "heavy_weapons", "decision",
                     "entities"]
    assert ob.layout.offset["vehicles"] == LEGACY_OBS_SIZE  # where it was before the decision and entities pieces
    assert ob.size == OBS_SIZE + 24 * len(VEHICLE_FEATURES) + 24 * len(HEAVY_FEATURES)
    env = DustupEnv(scenario=mechanised())
    obs, _ = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape == (ob.size,)
    assert env.observation_space.contains(obs)


def test_vehicle_rows():
    g = Game(mechanised(), seed=0)
    ob = Observer.for_game(g)
    ob.set_from(g, 0)
    v = ob.dict["vehicles"]
    names = [g.units[u].name for u in g.side_units[0]]
    apc, tank, squad = names.index("APC 1"), names.index("Tank 1"), names.index("Squad 1")
    assert v[apc, V["vehicle"]] == 1 and v[squad, V["vehicle"]] == 0
    assert v[apc, V["passengers"]] == 0.25  # carries Squad 1
    assert v[squad, V["mounted"]] == 1 and v[squad, V["carrier_slot"]] == np.float32(apc / 12)
    assert v[tank, V["facing_x"]] == 0.5 and v[tank, V["facing_y"]] == 1.0  # facing 0: north, towards the enemy
    assert v[tank, V["armour_front"]] > v[tank, V["armour_rear"]]
    # the enemy's vehicles face south (180 degrees); side 1 sees the table flipped: they face its "north"
    ob1 = Observer.for_game(g)
    ob1.set_from(g, 1)
    red = [g.units[u].name for u in g.side_units[1]]
    assert ob1.dict["vehicles"][red.index("Mech"), V["facing_y"]] == 1.0
    assert ob.dict["vehicles"][12 + red.index("Mech"), V["facing_y"]] == 0.0
    # state changes show
    t = g.units[g.side_units[0][tank]]
    vehicle_state(t).damage, vehicle_state(t).immobilised, t.suppression, vehicle_state(t).facing = 2, True, 1, 90.0
    ob.set_from(g, 0)
    assert v[tank, V["damage"]] == np.float32(2 / 3) and v[tank, V["immobilised"]] == 1
    assert v[tank, V["suppression"]] == np.float32(1 / 3) and v[tank, V["facing_x"]] == 1.0


def test_heavy_weapon_rows():
    g = Game(heavy_scenario(), seed=0)
    ob = Observer.for_game(g)
    ob.set_from(g, 0)
    h = ob.dict["heavy_weapons"]
    assert h[0, H["heavy_weapon"]] == 1 and h[0, H["man_packed"]] == 1 and h[0, H["dismantled"]] == 1
    assert h[0, H["set_up"]] == 0 and h[0, H["guided"]] == 1
    assert h[1, H["towed_carriage"]] == 1 and h[1, H["set_up"]] == 1 and h[1, H["limbered"]] == 0
    assert h[1, H["area_protection"]] > 0 and h[1, H["protection_carried"]] == 1
    assert h[2, H["heavy_weapon"]] == 0 and h[2, H["ecm"]] > 0  # the tank: its design's ECM
    assert h[12, H["ecm"]] == np.float32(3 / 5)  # the enemy squad's ECM D8 (D4 0.2 .. D12 1)
    g.state_of(HeavyState).heavy["1"]["damage"] = 1
    g.state_of(HeavyState).heavy["1"]["fired"] = True
    ob.set_from(g, 0)
    assert h[1, H["disabled"]] == 1 and h[1, H["fired"]] == 1


def test_random_games_stay_in_range():
    for scn in (mechanised(), heavy_scenario()):
        g = Game(scn, seed=3)
        obs = [Observer.for_game(g), Observer.for_game(g)]
        rng = random.Random(3)
        n = 0
        while not g.over and n < 1500:
            for s in (0, 1):
                t = obs[s].set_from(g, s)
                assert 0.0 <= t.min() and t.max() <= 1.0
            d = g.decision()
            g.apply(d.options[rng.randrange(len(d.options))])
            n += 1


def test_enemy_passengers_do_not_leak():
    """Two games that differ only in which of Blue's vehicles carries Squad 1 (and whether it is mounted at all)
    give Red byte-identical observations; Blue's own differ."""
    def game(carrier):
        scn = mechanised()
        for spec in scn["sides"][0]["units"]:
            if spec["name"] == "Squad 1":
                if carrier is None:
                    spec.pop("carried_by")
                else:
                    spec["carried_by"] = carrier
        return Game(scn, seed=5)

    a, b = game("APC 1"), game("IFV 1")
    red = [Observer.for_game(a).observation(x, 1) for x in (a, b)]
    assert np.array_equal(red[0], red[1])
    blue = [Observer.for_game(a).observation(x, 0) for x in (a, b)]
    assert not np.array_equal(blue[0], blue[1])
    # the mounted enemy squad is an empty row in every piece
    ob = Observer.for_game(a)
    ob.set_from(a, 1)
    slot = a.side_units[0].index(next(u.uid for u in a.units if u.name == "Squad 1"))
    for piece in ("units", "vehicles", "heavy_weapons"):
        assert not ob.dict[piece][12 + slot].any()


def test_string_and_openspiel_observer_hide_the_passengers():
    from dustup_env.observation import known_view

    def game(carrier):
        scn = mechanised()
        for spec in scn["sides"][0]["units"]:
            if spec["name"] == "Squad 1":
                spec["carried_by"] = carrier
        return Game(scn, seed=5)

    a, b = game("APC 1"), game("IFV 1")
    ob = Observer.for_game(a)
    assert ob.string_from(a, 1) == ob.string_from(b, 1) and ob.string_from(a, 0) != ob.string_from(b, 0)
    squad = next(u for u in known_view(a, 1)["units"] if u["name"] == "Squad 1")
    assert squad == {"uid": squad["uid"], "side": 0, "name": "Squad 1", "unseen": True}
    g = Game("default", seed=0)
    assert known_view(g, 1) == g.view(1)


def test_openspiel_observer_has_the_armoured_pieces():
    import json

    import pytest
    pyspiel = pytest.importorskip("pyspiel")
    import dustup_env.openspiel  # noqa: F401  (registers python_dustup)
    game = pyspiel.load_game("python_dustup", {"scenario": json.dumps(mechanised())})
    obs = game.make_py_observer()
    state = game.new_initial_state()
    obs.set_from(state, 0)
    assert obs.tensor.shape == (OBS_SIZE + 24 * (len(VEHICLE_FEATURES) + len(HEAVY_FEATURES)),)
    assert obs.dict["vehicles"][0, V["vehicle"]] == 1
    default = pyspiel.load_game("python_dustup", {"scenario": "default"}).make_py_observer()
    assert default.tensor.shape == (OBS_SIZE,)


def test_a_policy_trained_on_the_infantry_layout_sees_its_pieces_of_an_armoured_game():
    """agents.policy cuts an armoured game's observation to the model's size: the appended pieces go, the infantry
    layout stays exactly as laid out (checked with a stand-in for the network)."""
    import types

    import torch

    from agents.policy import PolicyAgent
    seen = []

    class Pol:
        pi_features_extractor = None

        def extract_features(self, t, _):
            seen.append(t.numpy()[0].copy())
            return t

        mlp_extractor = types.SimpleNamespace(forward_actor=lambda x: x)
        action_net = staticmethod(lambda x: torch.zeros((1, 4)))

    agent = PolicyAgent.__new__(PolicyAgent)
    agent.model = types.SimpleNamespace(observation_space=types.SimpleNamespace(shape=(LEGACY_OBS_SIZE,)))
    agent._policy, agent._views = Pol(), {}
    g = Game(mechanised(), seed=0)
    agent.logits(g, 0)
    assert seen[0].shape == (LEGACY_OBS_SIZE,)
    assert np.array_equal(seen[0], Observer.for_game(g).observation(g, 0)[:LEGACY_OBS_SIZE])


def test_pettingzoo_sizes_its_observation_from_the_scenario():
    from dustup_env.pettingzoo import env as make
    size = OBS_SIZE + 24 * (len(VEHICLE_FEATURES) + len(HEAVY_FEATURES))
    e = make(scenario=mechanised())
    e.reset(seed=0)
    for n, agent in enumerate(e.agent_iter()):
        obs, _r, term, trunc, _info = e.last()
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape == (size,)
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        if n > 100:
            break
    assert make(scenario="skirmish").observation_space("side_0")["observation"].shape == (OBS_SIZE,)


def test_a_hidden_enemy_vehicle_is_an_empty_row():
    scn = mechanised()
    for spec in scn["sides"][0]["units"]:
        if spec["name"] == "IFV 1":
            spec["hidden"] = True
            spec["position"] = [7.0, 22.0]  # in the light woods
    g = Game(scn, seed=0)
    slot = [g.units[u].name for u in g.side_units[0]].index("IFV 1")
    ob = Observer.for_game(g)
    ob.set_from(g, 1)
    for piece in ("units", "vehicles", "heavy_weapons"):
        assert not ob.dict[piece][12 + slot].any()
    ob0 = Observer.for_game(g)
    ob0.set_from(g, 0)
    assert ob0.dict["vehicles"][slot, V["vehicle"]] == 1  # its own side sees it
