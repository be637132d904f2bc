"""Smoke-test training: MaskablePPO on Dustup-v0 against the random opponent, printing steps/s.

    python -m training.smoke --steps 3000
"""
from __future__ import annotations

import argparse
import time


def smoke_train(steps: int = 3000, scenario: str = "default", learner_side="both", opponent: str = "random",
                n_steps: int = 512, seed: int = 0, verbose: int = 0) -> dict:
    """Train MaskablePPO for ``steps`` learner decisions; returns timing and episode statistics."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.monitor import Monitor

    import dustup_env  # noqa: F401  (registers Dustup-v0)

    env = Monitor(gym.make("Dustup-v0", scenario=scenario, opponent=opponent, learner_side=learner_side))
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=min(128, n_steps), n_epochs=4,
                        seed=seed, verbose=verbose, device="cpu")
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps)
    dt = time.perf_counter() - t0
    rewards = env.get_episode_rewards()
    return {"steps": model.num_timesteps, "seconds": dt, "steps_per_s": model.num_timesteps / dt,
            "episodes": len(rewards), "mean_reward": (sum(rewards) / len(rewards)) if rewards else float("nan")}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.smoke",
                                description="Train MaskablePPO on Dustup-v0 vs an opponent for N steps and "
                                            "print the training speed (learner steps per second).")
    p.add_argument("--steps", type=int, default=3000, help="learner decisions (env steps) to train for (default 3000)")
    p.add_argument("--scenario", default="default", help="scenario name or path (default: default)")
    p.add_argument("--opponent", default="random", help="opponent agent name (default: random)")
    p.add_argument("--learner-side", default="both", choices=["0", "1", "both", "random"],
                   help="side the policy plays (default: both, alternating per episode)")
    p.add_argument("--n-steps", type=int, default=512, help="PPO rollout length (default 512)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("-v", "--verbose", action="count", default=0, help="SB3 verbosity")
    a = p.parse_args(argv)
    side = int(a.learner_side) if a.learner_side in ("0", "1") else a.learner_side
    r = smoke_train(a.steps, a.scenario, side, a.opponent, a.n_steps, a.seed, a.verbose)
    print(f"trained {r['steps']} steps in {r['seconds']:.1f}s: {r['steps_per_s']:.0f} steps/s; "
          f"{r['episodes']} episodes, mean reward {r['mean_reward']:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
