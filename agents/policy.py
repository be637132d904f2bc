"""Agents driven by a trained policy: ``policy:PATH`` (a MaskablePPO ``.zip`` written by ``dustup train``)
and the shipped ``ppo`` (``agents/models/ppo.zip``).

SECURITY: a model file is a ZIP that stable-baselines3 loads with ``pickle`` (cloudpickle) and
``torch.load``: loading it can run arbitrary code.  Load only model files you trust (your own
training runs, the shipped ``ppo``).  Never load a model file from an untrusted source.

The agent observes the game from its own side exactly as ``Dustup-v0`` does (``DustupEnv.attach``: the
shared observer, only what its side may know), masks the logits to the legal options and plays the
arg-max: deterministic (tournaments are
reproducible, the agent's seed is unused) and never illegal.  Loaded networks are cached per process
(path and modification time), so building an agent per game (as tournaments do) is cheap.

The policy gets the observation it was trained on, read from the model's observation space
(``observation.layout_of_size``): each piece of that layout taken by name from the game's observation
(``observation.project``).  The shipped ``ppo`` (1,569 values: the pieces from before the decision and entities
pieces were appended) gets those pieces of any game, the first 1,569 values, so its decisions do not depend on
the appended pieces; a model trained on an armoured layout gets all-zero armoured pieces in a game without
vehicles (what they hold there).

A model trained before option families were appended (a shorter action space whose families are the first ones
of today's layout: the shipped ``ppo``) plays with the indices it knows, which keep their meaning; where none of
them is legal (a decision of a rule it never met), it plays the first legal option.  A model whose spaces match
none of these (families reordered or renamed, another observation) is refused with :class:`ModelMismatchError`.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from .base import Agent, register

SHIPPED = Path(__file__).resolve().parent / "models" / "ppo.zip"
# the shipped policies by agent name: ``ppo`` (trained on ``default``) and one per scenario it was fine-tuned on
SHIPPED_POLICIES = {"ppo": SHIPPED, "ppo-skirmish": SHIPPED.with_name("ppo-skirmish.zip")}
# a scenario -> the shipped policy trained on it, named in the note of a policy trained elsewhere
SPECIALISTS = {"skirmish": "ppo-skirmish"}
# a scenario (by name) -> the shipped policy trained on it: the search's prior with ``prior=auto``
POLICY_FOR = {"default": "ppo", **SPECIALISTS}


def policy_ready(name: str) -> bool:
    """Whether the shipped policy ``name`` can play here: its model file is present and the ``policy`` extra
    (torch, sb3-contrib) is installed.  Nothing is imported."""
    import importlib.util

    return SHIPPED_POLICIES[name].is_file() and all(importlib.util.find_spec(m) is not None
                                                    for m in ("torch", "sb3_contrib"))


TRUST_WARNING = ("model files are loaded with pickle: load only files you trust (your own runs, the shipped ppo)")


class ModelMismatchError(ValueError):
    """The model was trained for other observation/action spaces than the current environment's."""


def families_prefix(n_actions: int) -> int | None:
    """How many of the standard layout's first option families make an action space of ``n_actions`` (None: no
    prefix does).  Families are only ever appended, so a model trained before some were added knows the first
    ones, at the same indices."""
    from dustup_env import codec

    n = 1
    if n == n_actions:
        return 0
    for k, block in enumerate(codec.LAYOUT.blocks, 1):
        n += block[3]
        if n == n_actions:
            return k
        if n > n_actions:
            return None
    return None


def layout_fingerprint(armoured: bool = False, layout=None, n_actions: int | None = None) -> dict:
    """Sizes and a hash of an observation layout and the action layout the current code produces.

    ``layout`` (a ``dustup_env.observation.Layout``): that layout; without it, the layout the shipped ``ppo``
    takes (the infantry pieces, ``LEGACY_LAYOUT``) or, with ``armoured``, those and the Armoured Dustup pieces.
    The hash of those two is computed exactly as when they were the only layouts (the shipped ``ppo``'s recorded
    hash); any other layout's also covers its pieces (names, shapes, features)."""
    from dustup_env import codec
    from dustup_env import env as E
    from dustup_env import observation as O

    if layout is None:
        layout = O.LEGACY_ARMOURED_LAYOUT if armoured else O.LEGACY_LAYOUT
    families = codec.FAMILIES
    if n_actions is not None and n_actions != codec.N_ACTIONS:
        k = families_prefix(n_actions)
        if k is None:
            raise ModelMismatchError(f"Discrete({n_actions}) is no prefix of the option families' layout")
        families = families[:k]
    desc = {
        "families": [[name, [list(k) if isinstance(k, tuple) else k for k in kinds]] for name, kinds in families],
        "max_units": codec.MAX_UNITS, "max_markers": codec.MAX_MARKERS,
        "unit": list(E.UNIT_FEATURES), "global": list(E.GLOBAL_FEATURES), "objective": list(E.OBJ_FEATURES),
        "terrain": [list(E.TERRAIN_CHANNELS), E.GRID_H, E.GRID_W], "marker": list(E.MARKER_FEATURES),
    }
    if layout is O.LEGACY_ARMOURED_LAYOUT:  # (the infantry dict above stays exactly as it was: the ppo's hash)
        desc["armoured"] = [[p.name, list(p.shape), list(p.features or ())] for p in O.ARMOURED_PIECES]
    elif layout is not O.LEGACY_LAYOUT:
        desc["pieces"] = [[p.name, list(p.shape), list(p.features or ())] for p in layout.pieces]
    digest = hashlib.sha256(json.dumps(desc, sort_keys=True).encode()).hexdigest()[:16]
    return {"obs_size": int(layout.size), "n_actions": int(codec.N_ACTIONS if n_actions is None else n_actions),
            "layout_hash": digest}


def check_spaces(obs_shape, n_actions, meta: dict | None, where: str) -> None:
    """Raise :class:`ModelMismatchError` unless a model's spaces (and layout hash, if recorded) match one of the
    environment's observation layouts (the current ones, or one from before pieces were appended: a policy agent
    gives such a model its pieces of a game's observation) and the action layout."""
    from dustup_env.observation import layout_of_size

    problems = []
    try:
        layout = layout_of_size(int(obs_shape[0])) if len(obs_shape) == 1 else None
    except ValueError:
        layout = None
    known = families_prefix(int(n_actions)) is not None  # the whole layout, or the families of an earlier version
    if layout is None:
        problems.append(f"observation shape {tuple(obs_shape)} is none of the environment's observation layouts")
        cur = layout_fingerprint()
    else:
        cur = layout_fingerprint(layout=layout, n_actions=int(n_actions) if known else None)
    if not known:
        problems.append(f"action space Discrete({int(n_actions)}) is neither the environment's "
                        f"Discrete({layout_fingerprint()['n_actions']}) nor the option families of an earlier version")
    if not problems and meta and meta.get("layout_hash") not in (None, cur["layout_hash"]):
        problems.append(f"observation/action layout hash {meta['layout_hash']} != the current {cur['layout_hash']} "
                        "(features or option families were reordered or renamed)")
    if problems:
        raise ModelMismatchError(
            f"{where} does not match this version of Dustup-v0: " + "; ".join(problems)
            + ". The environment changed since the model was trained (e.g. option families were appended to "
              "codec.FAMILIES): retrain it (dustup train) for the current spaces.")


_CACHE: dict = {}


def load_model(path: str | os.PathLike):
    """Load a MaskablePPO model (cached per path and mtime) after checking its spaces.  Trusted files only."""
    import torch
    from sb3_contrib import MaskablePPO

    import training.extractor  # noqa: F401  (the custom feature extractor must be importable for unpickling)

    p = Path(path).expanduser().resolve()
    if not p.is_file():
        raise ValueError(f"policy file {str(path)!r} not found")
    key = (str(p), p.stat().st_mtime_ns)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    if torch.get_num_threads() > 1:
        # one decision at a time on tiny tensors: extra threads only cost (and tournaments use one process per core)
        torch.set_num_threads(1)
    try:
        model = MaskablePPO.load(str(p), device="cpu")
    except Exception as e:  # a corrupt or foreign file
        raise ValueError(f"cannot load policy file {str(path)!r} as a MaskablePPO model: {type(e).__name__}: {e}") from e
    check_spaces(model.observation_space.shape, model.action_space.n, getattr(model, "dustup_meta", None), str(path))
    model.policy.set_training_mode(False)
    if len(_CACHE) > 32:
        _CACHE.clear()
    _CACHE[key] = model
    return model


class PolicyAgent(Agent):
    """Plays the arg-max of a trained MaskablePPO policy over the legal options (deterministic)."""

    name = "policy"

    def __init__(self, path: str | os.PathLike, seed: int = 0, name: str | None = None):
        super().__init__(seed)
        self.path = str(path)
        if name:
            self.name = name
        self.model = load_model(path)
        self._policy = self.model.policy
        self._views: dict = {}
        self._target = None  # (input size, the observation layout of the model's input)

    def _view(self, game, side: int):
        v = self._views.get(side)
        if v is None:
            from dustup_env.env import DustupEnv

            v = self._views[side] = DustupEnv(scenario="default", opponent=_never)
        if v.game is not game or v.learner != side:
            v.attach(game, side)
            from dustup_env.codec import MAX_UNITS

            n = getattr(getattr(self.model, "action_space", None), "n", v.codec.n)
            if v.codec.layout.units != MAX_UNITS or n > v.codec.n:
                raise ValueError(f"policy {self.path!r} was trained for {n} actions (up to 12 "
                                 f"units a side); this game's layout has {v.codec.n} ({v.codec.layout.units} unit "
                                 "slots a side): train a policy on a company-sized scenario to play it")
        return v

    def logits(self, game, side: int) -> np.ndarray:
        """Raw action logits of the policy for ``side``'s view of ``game``."""
        import torch

        from dustup_env.observation import layout_of_size, project

        v = self._view(game, side)
        obs = v.observe()
        n = self.model.observation_space.shape[0]
        target = getattr(self, "_target", None)
        if target is None or target[0] != n:
            target = self._target = (n, layout_of_size(n))
        # the model's pieces of the game's observation, by name: a model trained before the decision and entities
        # pieces were appended (the shipped ppo) sees its first pieces exactly as laid out for it; one trained on
        # the armoured layout gets all-zero armoured pieces in a game without vehicles (what they hold there)
        obs = project(obs, v.observer.layout, target[1])
        pol = self._policy
        with torch.inference_mode():
            t = torch.as_tensor(obs).unsqueeze(0)
            feats = pol.extract_features(t, pol.pi_features_extractor)
            latent = pol.mlp_extractor.forward_actor(feats)
            return pol.action_net(latent)[0].numpy()

    def unfamiliar(self, game) -> str | None:
        """What ``game`` has that the model never saw: observation pieces its layout lacks (vehicles, heavy weapons)
        and rules whose options lie beyond its action space (fire support, aircraft), or a scenario that another
        shipped policy was trained on (:data:`SPECIALISTS`) and this one was not: a one-line note."""
        from dustup_env import codec
        from dustup_env.observation import Observer, layout_of_size

        meta = getattr(self.model, "dustup_meta", None) or {}
        trained = ", ".join(meta.get("scenarios") or ()) or "other scenarios"
        mine = {p.name for p in layout_of_size(self.model.observation_space.shape[0]).pieces}
        unseen = [p.name.replace("_", " ") for p in Observer.for_game(game).layout.pieces
                  if p.name not in mine and p.name not in ("decision", "entities")]
        n = int(self.model.action_space.n)
        starts = {(b[1], tuple(b[2])): b[0] for b in codec.LAYOUT.blocks}  # a name may have several blocks
        rules = sorted({r.name for r in game.rules.rules for f in r.families
                        if starts.get((f.name, tuple(f.args)), 0) >= n})
        if not unseen and not rules:
            here = (game.scenario or {}).get("name")
            better = SPECIALISTS.get(here)
            if better and better != self.name and here not in (meta.get("scenarios") or ()):
                return f"{self.name} was trained on {trained}, not on {here}, and plays it badly (try {better})"
            return None
        what = "; ".join(filter(None, ["the observation's " + " and ".join(unseen) if unseen else "",
                                        "the options of " + ", ".join(rules) if rules else ""]))
        return (f"{self.name} was trained on {trained} and never saw {what}: it plays this scenario badly "
                "(try hard)")

    def choose(self, game, decision):
        side = decision.side
        v = self._view(game, side)
        mask = v.action_masks()
        logits = self.logits(game, side)
        n = len(logits)
        if n < len(mask):
            # a model trained before option families were appended knows the first n indices (the same meaning
            # today); where none of them is legal (a decision of a rule it never met) it plays the first legal option
            if not mask[:n].any():
                return v.codec.decode(game, side, int(np.flatnonzero(mask)[0]), decision.kind)
            mask = mask[:n]
        a = int(np.argmax(np.where(mask, logits, -np.inf)))
        return v.codec.decode(game, side, a, decision.kind)


def _never(game, decision):  # the views never step, so their opponent is never asked
    raise RuntimeError("a policy view does not play opponents")


def shipped_agent(seed: int = 0) -> PolicyAgent:
    """The shipped ``ppo`` policy (registered as ``ppo``)."""
    return make_policy_agent("ppo", seed=seed)


def skirmish_agent(seed: int = 0) -> PolicyAgent:
    """The shipped ``ppo`` fine-tuned on ``skirmish`` (registered as ``ppo-skirmish``)."""
    return make_policy_agent("ppo-skirmish", seed=seed)


def policy_agent(path: str, seed: int = 0) -> PolicyAgent:
    """A trained policy from a model file (registered as ``policy:PATH``; trusted files only)."""
    return make_policy_agent(f"policy:{path}", seed=seed)


policy_agent.agent_argument = "PATH"


def make_policy_agent(spec: str, seed: int = 0) -> PolicyAgent:
    """``policy:PATH`` or a shipped model by name (:data:`SHIPPED_POLICIES`: ``ppo``, ``ppo-skirmish``)."""
    if spec in SHIPPED_POLICIES:
        path = SHIPPED_POLICIES[spec]
        if not path.is_file():
            raise ValueError(f"the shipped policy {path} is missing")
        return PolicyAgent(path, seed=seed, name=spec)
    if not spec.startswith("policy:") or len(spec) <= len("policy:"):
        raise ValueError(f"policy agents are named policy:PATH, not {spec!r}")
    return PolicyAgent(spec[len("policy:"):], seed=seed, name=spec)


register("ppo", shipped_agent)
register("ppo-skirmish", skirmish_agent)
register("policy", policy_agent)
