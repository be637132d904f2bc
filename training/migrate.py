"""Carry a trained model over to an action space that grew by appended option families.

``codec.FAMILIES`` only ever grows at the end: the indices a model was trained on keep their meaning.
When the observation layout is unchanged and the model's layout hash equals the hash of the current
layout *truncated to the model's families*, the policy's action head can be widened: the new rows get
zero weights and a strongly negative bias (``--new-bias``, default -20), so the migrated policy plays
exactly as before wherever one of its old options is legal, and only picks a new option where nothing
else is legal (a decision kind that did not exist when it was trained).  Anything else (a reordered
family, a changed observation) raises :class:`agents.policy.ModelMismatchError`: retrain instead.

    python -m training.migrate OLD.zip NEW.zip

Model files are loaded with pickle: migrate only files you trust.
"""
from __future__ import annotations

import argparse
import hashlib
import json

import numpy as np


def _layout_hash(n_families: int) -> tuple[str, int]:
    """Hash of the current layout with only the first ``n_families`` option families, and its action count."""
    from dustup_env import codec
    from dustup_env import env as E

    fams = codec.FAMILIES[:n_families]
    layout = {
        "families": [[name, [list(k) if isinstance(k, tuple) else k for k in kinds]] for name, kinds in fams],
        "max_units": codec.MAX_UNITS, "max_markers": codec.MAX_MARKERS,
        "unit": list(E.UNIT_FEATURES), "global": list(E.GLOBAL_FEATURES), "objective": list(E.OBJ_FEATURES),
        "terrain": [list(E.TERRAIN_CHANNELS), E.GRID_H, E.GRID_W], "marker": list(E.MARKER_FEATURES),
    }
    n = 1
    for _name, kinds in fams:
        size = 1
        for k in kinds:
            size *= codec.arg_size(k)
        n += size
    return hashlib.sha256(json.dumps(layout, sort_keys=True).encode()).hexdigest()[:16], n


def migrate(src: str, dst: str, new_bias: float = -20.0) -> dict:
    """Widen ``src``'s action head to the current ``Discrete(N_ACTIONS)`` and save it to ``dst``."""
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    import training.extractor  # noqa: F401  (needed to unpickle the custom extractor)
    from agents.policy import ModelMismatchError, layout_fingerprint
    from dustup_env import codec

    model = MaskablePPO.load(src, device="cpu")
    cur = layout_fingerprint()
    old_n = int(model.action_space.n)
    meta = dict(getattr(model, "dustup_meta", None) or {})
    if tuple(model.observation_space.shape) != (cur["obs_size"],):
        raise ModelMismatchError(f"{src}: observation shape {model.observation_space.shape} != ({cur['obs_size']},); "
                                 "the observation changed: retrain")
    if old_n == cur["n_actions"]:
        raise ModelMismatchError(f"{src} already has Discrete({old_n}): nothing to migrate")
    prefix = next((k for k in range(len(codec.FAMILIES) + 1) if _layout_hash(k)[1] == old_n), None)
    if prefix is None or meta.get("layout_hash") != _layout_hash(prefix)[0]:
        raise ModelMismatchError(f"{src}: its layout (hash {meta.get('layout_hash')}, Discrete({old_n})) is not a prefix "
                                 "of the current option families: retrain")
    head = model.policy.action_net
    new = torch.nn.Linear(head.in_features, cur["n_actions"])
    with torch.no_grad():
        new.weight.zero_()
        new.bias.fill_(float(new_bias))
        new.weight[:old_n] = head.weight
        new.bias[:old_n] = head.bias
    model.policy.action_net = new
    space = gym.spaces.Discrete(cur["n_actions"])
    model.action_space = space
    model.policy.action_space = space
    model.policy.action_dist.action_dim = cur["n_actions"]
    model.policy.optimizer = model.policy.optimizer_class(model.policy.parameters(), lr=model.lr_schedule(1),
                                                          **model.policy.optimizer_kwargs)
    model.dustup_meta = dict(meta, **cur, migrated_from={"n_actions": old_n, "layout_hash": meta.get("layout_hash"),
                                                         "new_bias": float(new_bias)})
    model.save(dst)
    return {"from": old_n, "to": cur["n_actions"], "families_kept": prefix, "new_bias": float(new_bias)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.migrate", description=__doc__.split("\n\n")[0],
                                 epilog="Model files are loaded with pickle: migrate only files you trust.")
    ap.add_argument("src", help="trained model (.zip) for an older, shorter action space")
    ap.add_argument("dst", help="where to write the widened model")
    ap.add_argument("--new-bias", type=float, default=-20.0,
                    help="bias of the new actions' logits (default -20: never preferred to an old legal option)")
    a = ap.parse_args(argv)
    print(json.dumps(migrate(a.src, a.dst, a.new_bias)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
