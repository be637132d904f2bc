"""Training configuration: a YAML file over sensible defaults, validated with clear errors.

Every key is optional; ``defaults()`` is the full configuration (``dustup train --print-config``
prints it as YAML).  Unknown keys, wrong types and out-of-range values raise :class:`ConfigError`
naming the key (``ppo.lerning_rate: unknown key; did you mean learning_rate?``).
"""
from __future__ import annotations

import copy
import difflib
from pathlib import Path


class ConfigError(ValueError):
    """A bad training configuration (the message names the key)."""


_ANY_INT = (int,)
_NUM = (int, float)

# key -> (default, allowed types (None allowed if listed), check or None, help)
SCHEMA: dict = {
    "seed": (0, _ANY_INT, lambda v: v >= 0, "master seed (environments, PPO, opponent sampling)"),
    "scenarios": (["default"], (list,), lambda v: len(v) > 0 and all(isinstance(s, str) for s in v),
                  "scenario names or JSON paths; environment i plays scenarios[i % len]"),
    "sides": ("both", (str, int), lambda v: v in ("both", 0, 1),
              "learner side: both (alternating per episode: asymmetric scenarios from either side), 0 or 1"),
    "options": ({}, (dict,), None, "game rule options (see README, Game options)"),
    "env": {
        "n_envs": (16, _ANY_INT, lambda v: v >= 1, "parallel environments"),
        "n_workers": (2, _ANY_INT, lambda v: v >= 1, "worker processes stepping them (one per core)"),
        "max_decisions": (5000, _ANY_INT, lambda v: v >= 10, "decision cap per game (truncation)"),
    },
    "reward": {
        "vp_shaping": (0.1, _NUM, lambda v: 0 <= v <= 1,
                       "weight of the zero-sum shaping: change of (own VP - enemy VP) / 10 per step; "
                       "no per-step term, so stalling earns nothing"),
    },
    "opponents": {
        "scripted": (["random", "easy", "medium", "hard", "defensive"], (list,),
                     lambda v: all(isinstance(s, str) for s in v), "scripted bots in the pool"),
        "snapshots": (True, (bool,), None, "add a frozen snapshot of the learner to the pool at every snapshot"),
        "max_snapshots": (8, _ANY_INT, lambda v: v >= 1, "snapshots kept in the pool (the oldest leave)"),
        "pfsp": ("variance", (str,), lambda v: v in ("hard", "variance", "uniform"),
                 "prioritised fictitious self-play weighting f(x) of the learner's recent score x: "
                 "variance x(1-x) (opponents at the learning frontier: the default, for learning from "
                 "scratch), hard (1-x)^power (the strongest opponents first), uniform"),
        "pfsp_power": (2.0, _NUM, lambda v: v > 0, "power of the hard weighting"),
        "pfsp_floor": (0.05, _NUM, lambda v: 0 <= v < 1, "minimum weight relative to the largest"),
        "self_play": (0.2, _NUM, lambda v: 0 <= v <= 1,
                      "probability of playing the latest snapshot (once one exists) instead of a PFSP draw"),
        "window": (400, _ANY_INT, lambda v: v >= 10, "recent games per opponent that estimate x"),
    },
    "policy": {
        "init": (None, (str, type(None)), None,
                 "warm start: a model file (trusted) whose policy weights initialise a new run; its spaces and "
                 "architecture must match (null: random initialisation)"),
        "extractor": ("entity", (str,), lambda v: v in ("entity", "mlp"),
                      "entity (per-unit encoders, pooling, slot read-out, terrain) or mlp (flat input)"),
        "embed_dim": (32, _ANY_INT, lambda v: v >= 4, "entity: unit embedding size"),
        "attention_layers": (0, _ANY_INT, lambda v: v >= 0, "entity: self-attention blocks over the units"),
        "heads": (4, _ANY_INT, lambda v: v >= 1, "entity: attention heads"),
        "slot_dim": (8, _ANY_INT, lambda v: v >= 1, "entity: features per unit slot in the read-out"),
        "net_arch": ([128, 128], (list,), lambda v: all(isinstance(x, int) and x > 0 for x in v),
                     "hidden layers of the policy and of the value head (separate)"),
        "activation": ("tanh", (str,), lambda v: v in ("tanh", "relu"), "activation of the heads"),
    },
    "ppo": {
        "learning_rate": (3e-4, _NUM, lambda v: v > 0, "Adam step size"),
        "n_steps": (256, _ANY_INT, lambda v: v >= 8, "rollout length per environment"),
        "batch_size": (512, _ANY_INT, lambda v: v >= 8, "minibatch size"),
        "n_epochs": (3, _ANY_INT, lambda v: v >= 1, "passes over each rollout"),
        "gamma": (0.998, _NUM, lambda v: 0 < v <= 1, "discount (games last ~100 learner decisions)"),
        "gae_lambda": (0.95, _NUM, lambda v: 0 < v <= 1, "GAE lambda"),
        "clip_range": (0.2, _NUM, lambda v: v > 0, "PPO clip"),
        "ent_coef": (0.01, _NUM, lambda v: v >= 0, "entropy bonus"),
        "vf_coef": (0.5, _NUM, lambda v: v >= 0, "value loss weight"),
        "max_grad_norm": (0.5, _NUM, lambda v: v > 0, "gradient clipping"),
        "target_kl": (None, (float, int, type(None)), lambda v: v is None or v > 0, "early stop on KL (null: off)"),
    },
    "budget": {
        "steps": (1_000_000, _ANY_INT, lambda v: v >= 1, "learner env steps (decisions) in total"),
        "minutes": (None, (float, int, type(None)), lambda v: v is None or v > 0,
                    "wall-clock limit in minutes (null: none); the run stops cleanly and can be resumed"),
    },
    "schedule": {
        "snapshot_every": (200_000, _ANY_INT, lambda v: v >= 1, "steps between snapshots (pool + gauntlet)"),
        "checkpoint_every": (100_000, _ANY_INT, lambda v: v >= 1, "steps between resumable checkpoints"),
    },
    "gauntlet": {
        "anchors": (["random", "easy", "medium", "hard"], (list,), lambda v: len(v) >= 1,
                    "frozen anchors the snapshots are measured against"),
        "games": (100, _ANY_INT, lambda v: v >= 2, "games per anchor per scenario (paired: both sides)"),
        "seed": (20261122, _ANY_INT, lambda v: v >= 0, "seed of the fixed games (the same games every time)"),
        "concurrency": (2, _ANY_INT, lambda v: v >= 1, "processes playing the gauntlet"),
        "bootstrap": (200, _ANY_INT, lambda v: v >= 0, "bootstrap resamples for the 95% intervals"),
        "enabled": (True, (bool,), None, "run the gauntlet at each snapshot"),
    },
    "logging": {
        "tensorboard": (True, (bool,), None, "TensorBoard logs in OUT/tb (needs the tensorboard package)"),
    },
    "device": ("cpu", (str,), lambda v: v in ("cpu", "cuda", "auto"),
               "where the network runs (rollout inference and the PPO update): cpu, cuda (a GPU: needs a CUDA "
               "build of torch) or auto (cuda when one is available); the environments always step on the CPU"),
    "torch_threads": (1, _ANY_INT, lambda v: v >= 1,
                      "threads of the PPO update in the main process (rollout inference always uses 1); "
                      "2 only on an otherwise idle machine: spinning threads collapse under contention"),
}


def _defaults(schema: dict) -> dict:
    return {k: (_defaults(v) if isinstance(v, dict) else copy.deepcopy(v[0])) for k, v in schema.items()}


def defaults() -> dict:
    """The full default configuration."""
    return _defaults(SCHEMA)


def _merge(schema: dict, base: dict, over, where: str) -> dict:
    if not isinstance(over, dict):
        raise ConfigError(f"{where or 'config'}: expected a mapping, got {type(over).__name__}")
    out = dict(base)
    for k, v in over.items():
        key = f"{where}.{k}" if where else str(k)
        if k not in schema:
            near = difflib.get_close_matches(str(k), list(schema), n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            raise ConfigError(f"{key}: unknown key{hint} (valid: {', '.join(schema)})")
        spec = schema[k]
        if isinstance(spec, dict):
            out[k] = _merge(spec, base[k], v if v is not None else {}, key)
            continue
        default, types, check, _ = spec
        if isinstance(v, bool) and bool not in types:
            raise ConfigError(f"{key}: expected {'/'.join(t.__name__ for t in types)}, got a boolean")
        if float in types and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if not isinstance(v, types):
            raise ConfigError(f"{key}: expected {'/'.join(t.__name__ for t in types)}, got {type(v).__name__} {v!r}")
        if check is not None and not check(v):
            raise ConfigError(f"{key}: invalid value {v!r} ({spec[3]})")
        out[k] = v
    return out


def load_config(source=None, overrides: dict | None = None) -> dict:
    """Defaults, then a YAML file (path) or a dict, then ``overrides``; validated."""
    cfg = defaults()
    if source is not None:
        if isinstance(source, (str, Path)):
            p = Path(source)
            if not p.is_file():
                raise ConfigError(f"config file {str(source)!r} not found")
            yaml = _yaml()
            try:
                data = yaml.safe_load(p.read_text()) or {}
            except (OSError, UnicodeDecodeError) as e:
                raise ConfigError(f"{source}: cannot read it as a YAML text file ({e})") from None
            except yaml.YAMLError as e:
                raise ConfigError(f"{source}: not valid YAML: {e}") from None
            where = str(p)
        else:
            data, where = source, "config"
        try:
            cfg = _merge(SCHEMA, cfg, data, "")
        except ConfigError as e:
            raise ConfigError(f"{where}: {e}") from None
    if overrides:
        cfg = _merge(SCHEMA, cfg, overrides, "")
    _cross_checks(cfg)
    return cfg


def _cross_checks(cfg: dict) -> None:
    from agents import make_agent
    from dustup_env.rules.kernel.data import load_scenario

    from dustup_env.rules import DustupError, Game

    for s in cfg["scenarios"]:
        try:
            load_scenario(s)
        except Exception as e:
            raise ConfigError(f"scenarios: {s!r}: {e}") from None
        try:
            Game(s, seed=0, options=cfg["options"] or None)  # the engine checks the options against the scenario
        except DustupError as e:
            raise ConfigError(f"options: {e}") from None
    for key in ("opponents.scripted", "gauntlet.anchors"):
        sec, k = key.split(".")
        for name in cfg[sec][k]:
            if name.startswith("policy:") or name == "ppo":
                continue
            try:
                make_agent(name)
            except ValueError as e:
                raise ConfigError(f"{key}: {e}") from None
    if not cfg["opponents"]["scripted"] and not cfg["opponents"]["snapshots"]:
        raise ConfigError("opponents: the pool is empty (no scripted bots and no snapshots)")
    if not cfg["opponents"]["scripted"]:
        raise ConfigError("opponents.scripted: at least one bot is needed until the first snapshot exists")
    if cfg["ppo"]["batch_size"] > cfg["ppo"]["n_steps"] * cfg["env"]["n_envs"]:
        raise ConfigError(f"ppo.batch_size {cfg['ppo']['batch_size']} is larger than a rollout "
                          f"(ppo.n_steps x env.n_envs = {cfg['ppo']['n_steps'] * cfg['env']['n_envs']})")


def dump(cfg: dict) -> str:
    return _yaml().safe_dump(cfg, sort_keys=False)


def _yaml():
    try:
        import yaml
    except ImportError:
        raise ConfigError("training configs need PyYAML: pip install 'dustup-ai[train]'") from None
    return yaml


def describe(schema: dict | None = None, prefix: str = "") -> list[str]:
    """One line per key: name, default and help (for --help texts and docs)."""
    schema = SCHEMA if schema is None else schema
    lines = []
    for k, v in schema.items():
        if isinstance(v, dict):
            lines += describe(v, f"{prefix}{k}.")
        else:
            lines.append(f"{prefix}{k} = {v[0]!r}: {v[3]}")
    return lines
