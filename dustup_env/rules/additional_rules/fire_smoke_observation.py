"""The ``fire_smoke`` piece of the environment's observation (Additional Rules: Fire and Smoke): where smoke and
fire lie, as a coarse raster the size of the terrain piece's (12 x 8 cells), mirrored for a side whose home edge is
north.  Channel 0: the share of each cell under smoke (any source); channel 1: the share within a fire's 3" burning
radius.  Fires and smoke are in plain view of both sides (public), so both sides' pieces are the same but for the
mirroring.  The terrain piece already shows smoke as blocking; this piece tells smoke and fire apart from the
ground."""
from __future__ import annotations

from array import array

from ..kernel.ruleset import ObservationPiece

GRID_W, GRID_H = 12, 8  # the observation's terrain raster (dustup_env.observation GRID_W, GRID_H)
SAMPLES = 4  # points a side within a cell


def _inside(f: dict, x: float, y: float) -> bool:
    return (x - f["x"]) ** 2 + (y - f["y"]) ** 2 <= f["r"] * f["r"]


def raster(game, flip: bool) -> list[float]:
    """[smoke cells..., fire cells...] (row 0 at the observing side's home edge): the share of each cell's
    4 x 4 sample points under the channel's features."""
    W, H = game.battlefield.width, game.battlefield.height
    out = [0.0] * (2 * GRID_H * GRID_W)
    feats = [f for f in game.terrain if f["kind"] in ("smoke", "fire") and f["shape"] == "circle"]
    if not feats:
        return out
    cw, ch = W / GRID_W, H / GRID_H
    cells: dict = {}  # (channel, i, j) -> the features over the cell
    for f in feats:
        c = 0 if f["kind"] == "smoke" else 1
        r = f["r"]
        for i in range(max(0, int((f["y"] - r) / ch)), min(GRID_H - 1, int((f["y"] + r) / ch)) + 1):
            for j in range(max(0, int((f["x"] - r) / cw)), min(GRID_W - 1, int((f["x"] + r) / cw)) + 1):
                cells.setdefault((c, i, j), []).append(f)
    share = 1.0 / (SAMPLES * SAMPLES)
    for (c, i, j), fs in cells.items():
        n = 0
        for a in range(SAMPLES):
            y = (i + (a + 0.5) / SAMPLES) * ch
            for b in range(SAMPLES):
                x = (j + (b + 0.5) / SAMPLES) * cw
                if any(_inside(f, x, y) for f in fs):
                    n += 1
        row = GRID_H - 1 - i if flip else i
        out[c * GRID_H * GRID_W + row * GRID_W + j] = n * share
    return out


def _write(obs, b, off) -> None:
    n = 2 * GRID_H * GRID_W
    b[off:off + n] = array("f", raster(obs.game, obs.flip))


FIRE_SMOKE_PIECE = ObservationPiece("fire_smoke", 20, (2, GRID_H, GRID_W), None, write=_write,
                                    doc="Additional Rules: the share of each coarse cell under smoke (channel 0) and "
                                        "within a fire's burning radius (channel 1), mirrored like the terrain")
