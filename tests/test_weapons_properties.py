"""Random games with every Armoured Dustup weapon (heavy weapons, missiles, rockets, area protection) and stand-in
vehicles: the invariants of the weapons rules hold at every decision, every option has exactly one action index,
replays and snapshots continue the same game, and infantry games do not use the rules."""
import random

import pytest

from test_properties import Invariants
from weapons_helpers import VEHICLES, stand_in, weapons_scenario
from dustup_env import codec as C
from dustup_env.rules import Game
from dustup_env.rules.armoured_dustup import guided_weapons as gw
from dustup_env.rules.armoured_dustup import heavy_weapons as hw
from dustup_env.rules.catalogue import STANDARD

OPTION_SETS = [{}, {"wire_guided": True}, {"decoys_multiple": True}, {"extra_hits": False},
               {"wire_guided": True, "decoys_multiple": True, "night": True}]
RULES = (stand_in(VEHICLES, towed_units=("Gun",)),)
CODEC = C.ActionCodec(C.Layout.of(STANDARD))
WEAPON_OPTIONS = {"fire_heavy", "fire_iavr", "fire_guided", "decoy", "area_protection", "decline", "remote",
                  "deploy_protection", "set_up", "dismantle", "limber", "unlimber", "repair"}


def _check(g, d, before):
    # every option has exactly one action index, and the mask is exactly the options
    mask = CODEC.mask(g, d)
    assert mask.sum() == len(d.options)
    for o in d.options:
        a = CODEC.encode(g, d.side, o)
        assert mask[a] and CODEC.decode(g, d.side, a, d.kind) == o
    st = hw.weapon_states(g)
    for uid, s in st.items():
        old = before.get(uid)
        if old is not None:
            assert s["damage"] >= old["damage"] or old["damage"] == hw.DISABLED  # only a disabled one is repaired
            assert not (old["abandoned"] and not s["abandoned"])  # abandoned for good
        assert not (s["abandoned"] and s["ready"])
    if d.kind == "action":
        u = g.units[d.unit]
        s = hw.state(g, u)
        fires = [o for o in d.options if o[0] in ("fire_heavy", "fire_guided")]
        if fires:
            assert s is not None and s["ready"] and s["damage"] == hw.WORKING and not s["fired"]
            assert not s["abandoned"]
    if d.kind == "intercept":
        assert hw.vehicle_profile(g, g.units[d.unit]) is not None and d.options[-1] == ("decline",)
    for uid, p in gw.protection_states(g).items():
        assert p["state"] in ("carried", "deployed", "spent")


def play(seed, options, check=True):
    g = Game(weapons_scenario(), seed=seed, options=options, rules=RULES)
    inv = Invariants(g) if check else None
    rng = random.Random(seed)
    kinds = set()
    while not g.over:
        d = g.decision()
        before = {k: dict(v) for k, v in hw.weapon_states(g).items()}
        weapons = [o for o in d.options if o[0] in WEAPON_OPTIONS or (o[0] == "reorganise" and o[1] in WEAPON_OPTIONS)]
        at_vehicles = [o for o in weapons if o[0] == "fire_guided" and g.units[o[1]].name in VEHICLES]
        if at_vehicles and rng.random() < 0.7:  # missiles at vehicles (the interception decisions) more often still
            weapons = at_vehicles
        opt = rng.choice(weapons if weapons and rng.random() < 0.5 else d.options)  # weapons options more often
        kinds.add(opt[0] if opt[0] != "reorganise" else opt[1])
        g.apply(opt)
        if check:
            inv.check(g)  # the invariants of test_properties.py
            if not g.over:
                _check(g, g.decision(), before)
    return g, kinds


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_random_weapons_games_keep_the_invariants(k):
    seen = set()
    for seed in range(24):
        _, kinds = play(100 * k + seed, OPTION_SETS[k])
        seen |= kinds
    assert {"fire_heavy", "fire_iavr", "fire_guided"} <= seen


def test_the_weapons_options_and_decisions_appear():
    seen = set()
    for seed in range(30):
        _, kinds = play(seed, {"decoys_multiple": seed % 2 == 1}, check=False)
        seen |= kinds
    assert {"fire_heavy", "fire_iavr", "fire_guided", "decoy", "area_protection", "decline", "remote",
            "deploy_protection", "limber", "unlimber", "set_up", "dismantle"} <= seen


def test_replays_and_snapshots_continue_the_same_game():
    for seed in range(4):
        g, _ = play(seed, OPTION_SETS[seed % len(OPTION_SETS)], check=False)
        r = Game.replay(weapons_scenario(), seed, g.history, options=OPTION_SETS[seed % len(OPTION_SETS)], rules=RULES)
        assert r.event_log() == g.event_log()
        # a mid-game snapshot continues exactly
        h = Game(weapons_scenario(), seed=seed, options=OPTION_SETS[seed % len(OPTION_SETS)], rules=RULES)
        for opt in g.history[: len(g.history) // 2]:
            h.apply(opt)
        s = Game.from_snapshot(h.snapshot(), rules=RULES)
        c = h.clone()
        for opt in g.history[len(g.history) // 2:]:
            s.apply(opt)
            c.apply(opt)
        assert s.event_log()[-50:] == g.event_log()[-50:] == c.event_log()[-50:]
        assert s.result() == g.result() == c.result()


def test_the_built_in_agents_play_the_weapons_scenario():
    from agents import make_agent
    names = ["random", "scripted", "easy", "medium", "hard", "defensive"]
    try:
        import sb3_contrib  # noqa: F401
        names.append("ppo")
    except ImportError:
        pass
    for i, name in enumerate(names):
        agents = [make_agent(name, seed=i), make_agent(names[(i + 1) % len(names)], seed=i + 1)]
        g = Game(weapons_scenario(turn_limit=3), seed=i, rules=RULES)
        while not g.over:
            d = g.decision()
            g.apply(tuple(agents[d.side].choose(g, d)))


def test_infantry_games_do_not_use_the_weapons_rules():
    for name in ("default", "skirmish"):
        rules = Game(name, seed=0).rules
        assert not {"Heavy Weapons", "Unguided Rockets", "Guided Weapons"} & set(rules.names)
