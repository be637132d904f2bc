"""A learned value of a position: the chance that a side wins (a draw 1/2), from a few features of the state.

The search agent (``mcts:value=learned``, agents/mcts.py) scores the end of each truncated playout with it in
place of the static evaluation (:func:`agents.mcts.evaluate`).  The model is a logistic regression without an
intercept over features that are differences between the side and its enemy (so the two sides' values of one
position add up to 1, and an even position is worth 1/2):

- ``vp``: the victory-point margin now (objectives held, enemy units out of play: the victory rule's points);
- ``vp_share``: that margin over the scenario's objective points (at least 1);
- ``vp_late``, ``vp_share_late``: the same times the share of the game played (``turn / turn_limit``): a margin
  late in the game is nearer the result;
- ``material``: the material left as the static evaluation counts it (able figures per unit, worth less when
  suppressed, shaken, broken or routed), the side's less the enemy's;
- ``material_late``: the same times the share of the game played;
- ``material_share``: each side's material over its units (every unit it has, in play or not, but merged units:
  a search's root holds the enemy's hidden units as merged, so that their number stays secret), the difference;
- ``units``: units in play, the difference;
- ``objectives``: objectives held, the difference.

A finished game is worth its result exactly (a win 1, a draw 1/2, a loss 0).  The weights are fitted by
``benchmarks/fit_value.py`` and shipped in ``agents/data/value.json`` (``{"features": [...], "weights": [...]}``:
any of the features above, each with its weight); the file is checked when it is loaded: a malformed one is a
one-line :class:`ValueError`.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from dustup_env.rules.kernel.entities import BROKEN, ROUTED, SHAKEN

FEATURES = ("vp", "vp_share", "vp_late", "vp_share_late", "material", "material_late", "material_share", "units",
            "objectives")
WEIGHTS_FILE = Path(__file__).resolve().parent / "data" / "value.json"

_loaded: dict = {}


def result_for(g, side: int) -> float:
    """A finished game's result for ``side``: a win 1, a draw 1/2, a loss 0."""
    w = g.winner
    if w == side:
        return 1.0
    return 0.0 if w is not None and w >= 0 else 0.5


def features(g, side: int) -> list[float]:
    """The features of :data:`FEATURES` of ``g`` for ``side`` (the side's less the enemy's; see the module
    docstring)."""
    other = 1 - side
    vp = g.victory_points()
    margin = float(vp[side] - vp[other])
    obj_total = sum(o[3] for o in g.objectives)
    share = margin / max(1, obj_total)
    held = 0
    for _, ox, oy, _v in g.objectives:
        h = g.objective_holder(ox, oy)
        if h == side:
            held += 1
        elif h == other:
            held -= 1
    mat = [0.0, 0.0]
    units = [0, 0]
    sizes = [0, 0]
    for u in g.units:
        if not u.merged:  # a search's root takes the enemy's hidden units out as merged: their count stays secret
            sizes[u.side] += 1
        if not u.in_play:
            continue
        if not u.figures:
            continue
        mat[u.side] += unit_worth(u)
        units[u.side] += 1
    frac = min(1.0, max(0.0, g.turn / g.turn_limit)) if g.turn_limit else 1.0
    material = mat[side] - mat[other]
    return [margin, share, margin * frac, share * frac, material, material * frac,
            mat[side] / max(1, sizes[side]) - mat[other] / max(1, sizes[other]), float(units[side] - units[other]), float(held)]


def unit_worth(u) -> float:
    """The material a unit in play with figures is worth in the evaluations (:func:`agents.mcts.evaluate` and the
    learned value's material features): its able figures over its strength, worth less when suppressed, shaken,
    broken or routed."""
    val = u.n_able() / max(u.strength, len(u.figures))
    if u.suppression:
        val *= 1.0 - 0.1 * min(u.suppression, 4)
    c = u.confidence
    if c >= ROUTED:
        val *= 0.2
    elif c >= BROKEN:
        val *= 0.6
    elif c >= SHAKEN:
        val *= 0.85
    return val


def sigmoid(z: float) -> float:
    """The logistic function, safe from overflow."""
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def parse_weights(doc, where: str = "the value weights") -> list[float]:
    """The weight of each feature of :data:`FEATURES` (0 for a feature not named) from a weights document
    (``{"features": [...], "weights": [...]}``); a one-line ``ValueError`` naming ``where`` for anything else."""
    if not isinstance(doc, dict) or not isinstance(doc.get("features"), list) or \
            not isinstance(doc.get("weights"), list):
        raise ValueError(f"{where}: expected an object with a list \"features\" and a list \"weights\"")
    names, weights = doc["features"], doc["weights"]
    if len(names) != len(weights) or not names:
        raise ValueError(f"{where}: {len(names)} features but {len(weights)} weights")
    out = [0.0] * len(FEATURES)
    for n, w in zip(names, weights):
        if n not in FEATURES:
            raise ValueError(f"{where}: unknown feature {n!r} (the features are {', '.join(FEATURES)})")
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
            raise ValueError(f"{where}: the weight of {n!r} is not a finite number ({w!r})")
        if out[FEATURES.index(n)]:
            raise ValueError(f"{where}: feature {n!r} is given twice")
        out[FEATURES.index(n)] = float(w)
    return out


def load_weights(path=None) -> list[float]:
    """The weights in ``path`` (default: the shipped :data:`WEIGHTS_FILE`), read once; a one-line ``ValueError``
    for a missing, unreadable or malformed file."""
    path = Path(path) if path is not None else WEIGHTS_FILE
    key = str(path)
    if key not in _loaded:
        try:
            doc = json.loads(path.read_text())
        except OSError as e:
            raise ValueError(f"{path}: cannot read the value weights ({e.strerror or e})") from None
        except ValueError as e:
            raise ValueError(f"{path}: not JSON ({e})") from None
        _loaded[key] = parse_weights(doc, str(path))
    return _loaded[key]


def win_probability(x, weights) -> float:
    """The model's win probability for the features ``x`` under ``weights``."""
    return sigmoid(sum(w * v for w, v in zip(weights, x)))


def learned_value(g, side: int, weights=None) -> float:
    """The learned value of ``g`` for ``side`` in [0, 1]: a finished game its result, else the model's win
    probability (``weights``: default the shipped ones)."""
    if g.over:
        return result_for(g, side)
    return win_probability(features(g, side), weights if weights is not None else load_weights())
