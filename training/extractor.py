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
1,569 inputs, which must learn every slot separately.  The default (``layers=0``, pooling) is chosen
for speed: one attention layer costs about 4x the update time (``docs/training.md``, ablation).
"""
from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from dustup_env import env as E

N_UNIT_SLOTS = 2 * E.MAX_UNITS
N_MARKERS = E.MAX_MARKERS


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
        if observation_space.shape != (E.OBS_SIZE,):
            raise ValueError(f"EntityExtractor expects the Dustup-v0 observation ({E.OBS_SIZE},), "
                             f"got {observation_space.shape}")
        features = (N_UNIT_SLOTS * slot_dim + 4 * embed_dim + E.GF + E.MAX_OBJECTIVES * E.OF + 2 * marker_dim
                    + terrain_dim + (embed_dim if layers else 0))
        super().__init__(observation_space, features_dim=features)
        d = embed_dim
        self.own_in = nn.Sequential(nn.Linear(E.UF, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU())
        self.enemy_in = nn.Sequential(nn.Linear(E.UF, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU())
        self.layers = layers
        if layers:
            self.global_in = nn.Linear(E.GF, d)
            self.blocks = nn.ModuleList(_Block(d, heads) for _ in range(layers))
            self.norm = nn.LayerNorm(d)
        self.unit_out = nn.Linear(d, slot_dim)
        self.marker_in = nn.Sequential(nn.Linear(E.MF, marker_dim), nn.ReLU())
        # the terrain raster: a linear encoder (a 2-layer convolution cost 3x more for nothing measurable
        # on one battlefield; the raster is static per scenario)
        self.terrain = nn.Sequential(nn.Linear(E.TC * E.GRID_H * E.GRID_W, terrain_dim), nn.ReLU())

    @staticmethod
    def _pools(x: torch.Tensor, keep: torch.Tensor) -> list:
        """Masked mean and max over the slots (an empty set pools to 0; x >= 0 after the ReLUs)."""
        k = keep.unsqueeze(-1)
        xm = x * k
        return [xm.sum(1) / k.sum(1).clamp(min=1.0), xm.amax(1)]

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        b = obs.shape[0]
        nu = E.MAX_UNITS
        units = obs[:, E.UNITS_OFF:E.GLOBAL_OFF].reshape(b, 2 * nu, E.UF)
        glob = obs[:, E.GLOBAL_OFF:E.OBJ_OFF]
        objs = obs[:, E.OBJ_OFF:E.TERRAIN_OFF]
        terr = obs[:, E.TERRAIN_OFF:E.MARKER_OFF]
        marks = obs[:, E.MARKER_OFF:E.OBS_SIZE].reshape(b, N_MARKERS, E.MF)
        keep = units[:, :, 0]  # present: exactly 0 or 1
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
