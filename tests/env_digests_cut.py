"""Environment digests with every action mask cut back to an older, shorter layout.

When option families are appended, every mask grows and the recorded env digests (tests/env_digests.py) change
even though nothing else did.  This computes the same digests with each mask cut back to ``--old`` actions, and
asserts that the cut-off part is all zero (games of the recorded scenarios offer no option of the new families);
run it on the old code and on the new one and compare the two files: identical files show that observations and
masks (as far as the old layout goes) are unchanged, before ``env_digests.py record`` on the new code.

    python tests/env_digests_cut.py --old 476 old.json      # on the old checkout
    python tests/env_digests_cut.py --old 476 new.json      # on the new one; then compare the two files
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import env_digests as ED  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=int, required=True, help="the old layout's number of actions")
    ap.add_argument("out", help="where to write the digests (JSON)")
    a = ap.parse_args(argv)
    old = a.old

    def cut(m):
        assert not m[old:].any(), "an option of the new families was offered"
        return m[:old].tobytes()

    def obs_game(scn, options, seed, views=None):
        from dustup_env.rules import Game
        views = views or ED._views(scn, options)
        g = Game(scn, seed=seed, options=options)
        for s in (0, 1):
            views[s].attach(g, s)
        rng = random.Random(seed)
        h, n = hashlib.sha256(), 0
        while not g.over:
            d = g.decision()
            for s in (0, 1):
                h.update(views[s].observe().tobytes())
            h.update(cut(views[d.side].action_masks()))
            g.apply(d.options[rng.randrange(len(d.options))])
            n += 1
        for s in (0, 1):
            h.update(views[s].observe().tobytes())
        return h.hexdigest()[:24], n

    def env_episodes(scn, options, seed, episodes):
        import numpy as np

        from dustup_env.env import DustupEnv
        env = DustupEnv(scenario=scn, options=options, opponent="random", learner_side="both")
        rng = random.Random(seed)
        h, n = hashlib.sha256(), 0
        for ep in range(episodes):
            obs, info = env.reset(seed=seed) if ep == 0 else env.reset()
            h.update(obs.tobytes())
            h.update(cut(info["action_mask"]))
            done = False
            while not done:
                legal = np.flatnonzero(env.action_masks())
                obs, r, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
                h.update(obs.tobytes())
                h.update(cut(info["action_mask"]))
                h.update(repr((float(r), bool(term), bool(trunc))).encode())
                done = term or trunc
                n += 1
        return h.hexdigest()[:24], n

    ED.obs_game, ED.env_episodes = obs_game, env_episodes
    out = ED.compute(include_ppo=False)
    Path(a.out).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{sum(len(v) for v in out.values())} digests written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
