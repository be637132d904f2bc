"""The environment layer on a vehicle scenario: every vehicle option has an index of the layout (families 60-67)
that decodes back to it, masks are exactly the legal options, and Dustup-v0 plays vehicle games to the end."""
import random

import numpy as np
from vehicle_helpers import mechanised

from dustup_env.codec import ActionCodec
from dustup_env.env import DustupEnv
from dustup_env.rules import Game


def test_every_option_of_a_vehicle_game_round_trips_through_the_codec():
    c = ActionCodec()
    names = set()
    for seed in range(6):
        g = Game(mechanised(), seed=seed)
        rng = random.Random(seed)
        while not g.over:
            d = g.decision()
            m = c.mask(g, d)
            assert m.sum() == len(d.options)
            for o in d.options:
                a = c.encode(g, d.side, o)
                assert m[a] and c.decode(g, d.side, a, d.kind) == tuple(o)
            veh = [o for o in d.options if o[0] in ("mount", "dismount", "approach", "tow", "push", "unhook", "turn",
                                                    "hatches")]
            o = rng.choice(veh) if veh and rng.random() < 0.5 else rng.choice(d.options)
            names.add(o[0])
            g.apply(o)
    assert {"mount", "dismount", "approach", "turn", "hatches"} <= names


def test_dustup_v0_plays_a_vehicle_scenario():
    env = DustupEnv(scenario=mechanised(), opponent="random", learner_side="both")
    rng = random.Random(0)
    for ep in range(3):
        obs, info = env.reset(seed=ep)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, r, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
            assert obs.shape == env.observation_space.shape and np.isfinite(obs).all()
            done = term or trunc
