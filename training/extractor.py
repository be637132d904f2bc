"""Feature extractors for Dustup-v0 observations (stable-baselines3 ``BaseFeaturesExtractor``).

``EntityExtractor`` fits the game: the flat observation (``docs/observation.md``) is cut back into its
entities and each kind is encoded by weights shared across its slots:

* unit slots (12 own + 12 enemy, 37 features each): one shared two-layer encoder for the own slots and
  one for the enemy slots; empty slots (``present`` = 0) are masked out;
* optionally (``layers`` > 0) pre-norm transformer blocks of self-attention over a global token and the
  unit tokens (written out by hand, so training and evaluation modes compute the same thing);
* pooling: masked mean and max over the own and over the enemy units (permutation invariant);
* hidden-unit markers (24 x 6): a shared encoder, masked mean and max (DeepSets);
* read-out: every unit slot's encoding projected to ``slot_dim`` features **in slot order** (the action
  codec names units by slot, so the policy head must know which slot is which), the pools, the raw
  globals and objectives, the marker pools and a linear encoding of the 5 x 8 x 12 terrain raster.

Unit encodings do not depend on the slot a unit sits in (shared weights), unlike a plain MLP over the
1,569 inputs, which must learn every slot separately.

The slices come from the observation layout of the input size (``observation.layout_of_size``): the
infantry layout (1,569 values) or the armoured one (2,745: ``vehicles`` (24, 30) and ``heavy_weapons``
(24, 19) appended).  The armoured pieces describe the same unit slots as ``units``, so a slot's rows of
all the per-slot pieces are joined (37 + 30 + 19 = 86 features) before the shared unit encoders; the rest
of the network is the same.  On the infantry layout the network is exactly the one the shipped ``ppo``
was trained with.  The default (``layers=0``, pooling) is chosen
for speed: one attention layer costs about 4x the update time (``docs/training.md``, ablation).
"""
from __future__ import annotations

import math

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from dustup_env import env as E
from dustup_env.observation import layout_of_size

N_UNIT_SLOTS = 2 * E.MAX_UNITS  # unit rows of the platoon-sized layouts (a company-sized one has 2 x 32)
N_MARKERS = E.MAX_MARKERS
# the pieces with one row per unit slot (own 0..11, enemy 12..23), in layout order: joined per slot
SLOT_PIECES = ("units", "vehicles", "heavy_weapons")


class _Block(nn.Module):
    """Pre-norm transformer block with an explicit key mask (masked keys get -inf scores)."""

    def __init__(self, dim: int, heads: int):
        super().__init__()
        if dim % heads:
            raise ValueError(f"embed_dim {dim} must be a multiple of heads {heads}")
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.norm1(x)).view(b, n, 3, h, d // h).permute(2, 0, 3, 1, 4)  # 3 x (b, h, n, d/h)
        att = (q @ k.transpose(-1, -2)) * (d // h) ** -0.5
        att = att.masked_fill(~keep[:, None, None, :], float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, n, d)
        x = x + self.out(y)
        return x + self.ff(self.norm2(x))


class EntityExtractor(BaseFeaturesExtractor):
    """Shared per-unit encoders + (optional) attention + pools + slot-ordered read-out + terrain (module doc)."""

    def __init__(self, observation_space: spaces.Box, embed_dim: int = 32, heads: int = 4, layers: int = 0,
                 slot_dim: int = 8, terrain_dim: int = 32, marker_dim: int = 16):
        shape = tuple(observation_space.shape)
        try:
            if len(shape) != 1:
                raise ValueError("not a flat vector")
            layout = layout_of_size(shape[0])
        except ValueError as e:
            raise ValueError(f"EntityExtractor expects a Dustup-v0 observation, got {shape}: {e}") from None
        off, shp = layout.offset, layout.shape
        # (offset, features per slot) of each per-slot piece, and [start, end) of the other pieces
        slot_pieces = [(off[n], shp[n][-1]) for n in SLOT_PIECES if n in off]
        span = {n: (off[n], off[n] + math.prod(shp[n])) for n in ("globals", "objectives", "terrain", "markers")}
        unit_in = sum(f for _, f in slot_pieces)
        self._n_slots = shp["units"][0]  # unit rows: own slots, then the enemy's (2 x 12, or 2 x 32)
        n_glob = span["globals"][1] - span["globals"][0]
        features = (self._n_slots * slot_dim + 4 * embed_dim + n_glob + (span["objectives"][1] - span["objectives"][0])
                    + 2 * marker_dim + terrain_dim + (embed_dim if layers else 0))
        super().__init__(observation_space, features_dim=features)
        self._slot_pieces, self._span = slot_pieces, span
        self._mf = shp["markers"][-1]
        self._n_markers = shp["markers"][0]
        d = embed_dim
        self.own_in = nn.Sequential(nn.Linear(unit_in, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU())
        self.enemy_in = nn.Sequential(nn.Linear(unit_in, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU())
        self.layers = layers
        if layers:
            self.global_in = nn.Linear(n_glob, d)
            self.blocks = nn.ModuleList(_Block(d, heads) for _ in range(layers))
            self.norm = nn.LayerNorm(d)
        self.unit_out = nn.Linear(d, slot_dim)
        self.marker_in = nn.Sequential(nn.Linear(self._mf, marker_dim), nn.ReLU())
        # the terrain raster: a linear encoder (a 2-layer convolution cost 3x more for nothing measurable
        # on one battlefield; the raster is static per scenario)
        self.terrain = nn.Sequential(nn.Linear(span["terrain"][1] - span["terrain"][0], terrain_dim), nn.ReLU())

    @staticmethod
    def _pools(x: torch.Tensor, keep: torch.Tensor) -> list:
        """Masked mean and max over the slots (an empty set pools to 0; x >= 0 after the ReLUs)."""
        k = keep.unsqueeze(-1)
        xm = x * k
        return [xm.sum(1) / k.sum(1).clamp(min=1.0), xm.amax(1)]

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        b = obs.shape[0]
        ns = self._n_slots
        nu = ns // 2
        rows = [obs[:, o:o + ns * f].reshape(b, ns, f) for o, f in self._slot_pieces]
        units = rows[0] if len(rows) == 1 else torch.cat(rows, dim=2)  # per slot: units' features first
        sp = self._span
        glob = obs[:, sp["globals"][0]:sp["globals"][1]]
        objs = obs[:, sp["objectives"][0]:sp["objectives"][1]]
        terr = obs[:, sp["terrain"][0]:sp["terrain"][1]]
        marks = obs[:, sp["markers"][0]:sp["markers"][1]].reshape(b, self._n_markers, self._mf)
        keep = units[:, :, 0]  # present (the units piece's first feature): exactly 0 or 1
        x = torch.cat([self.own_in(units[:, :nu]), self.enemy_in(units[:, nu:])], dim=1)
        extra = []
        if self.layers:
            tok = torch.cat([self.global_in(glob).unsqueeze(1), x], dim=1)
            kb = torch.cat([torch.ones(b, 1, dtype=torch.bool, device=obs.device), keep > 0.5], dim=1)
            for blk in self.blocks:
                tok = blk(tok, kb)
            tok = torch.relu(self.norm(tok))
            x = tok[:, 1:]
            extra.append(tok[:, 0])
        slots = (self.unit_out(x) * keep.unsqueeze(-1)).flatten(1)
        pools = self._pools(x[:, :nu], keep[:, :nu]) + self._pools(x[:, nu:], keep[:, nu:])
        mpools = self._pools(self.marker_in(marks), marks[:, :, 0])
        return torch.cat([slots] + pools + extra + [glob, objs] + mpools + [self.terrain(terr)], dim=1)


EXTRACTORS = {"entity": EntityExtractor}
