"""Pictures of a game for people: a text map (``render_ansi``) and an image of the table (``render_rgb``).

Both draw the whole truth (a spectator's view: hidden units included).  The Gymnasium environment's
``render()`` uses them; so can any tool that shows a game.
"""
from __future__ import annotations

import math

import numpy as np

from .rules import Game
from .rules.kernel.entities import KILLED, OK
from .rules.kernel.game import OBJECTIVE_RADIUS

_TERRAIN_LETTERS = {
    "open": ".", "light_scrub": ",", "rough": "r", "cultivated": "c", "slopes": "s", "road": "=",
    "light_woods": "w", "dense_woods": "W", "swamp": "~", "open_water": "O", "river": "R", "hill": "h",
    "building": "B",
}
_SIDE_LETTERS = "AB"


def render_ansi(game: Game) -> str:
    """Text map at 2" per character (north at the top), then one status line per unit."""
    from .rules.kernel.entities import CONFIDENCE_NAMES

    bf = game.bf
    cols, rows = int(math.ceil(bf.width / 2.0)), int(math.ceil(bf.height / 2.0))
    grid = [[_TERRAIN_LETTERS.get(bf.terrain_at(c * 2.0 + 1.0, r * 2.0 + 1.0), "?") for c in range(cols)]
            for r in range(rows)]
    for _, _, ls, _, _ in bf.obstacles:
        n = max(2, int(ls.length / 1.0))
        for i in range(n + 1):
            p = ls.interpolate(i / n, normalized=True)
            c, r = min(int(p.x / 2.0), cols - 1), min(int(p.y / 2.0), rows - 1)
            grid[r][c] = "#"
    for i, (_, ox, oy, _) in enumerate(game.objectives):
        c, r = min(int(ox / 2.0), cols - 1), min(int(oy / 2.0), rows - 1)
        grid[r][c] = str(i + 1) if i < 9 else "*"
    for s in (0, 1):
        for slot, uid in enumerate(game.side_units[s]):
            u = game.units[uid]
            if not u.in_play:
                continue
            c, r = min(max(int(u.x / 2.0), 0), cols - 1), min(max(int(u.y / 2.0), 0), rows - 1)
            grid[r][c] = _SIDE_LETTERS[s]
            if c + 1 < cols:
                grid[r][c + 1] = format(slot, "x")
    lines = ["+" + "-" * cols + "+"]
    for r in range(rows - 1, -1, -1):
        lines.append("|" + "".join(grid[r]) + "|")
    lines.append("+" + "-" * cols + "+")
    status = "over" if game.over else f"{game.decision().kind} side {game.decision().side}"
    lines.append(f"turn {game.turn}/{game.turn_limit}  {status}  vp {game.victory_points()}"
                 + (f"  winner {game.winner}" if game.over else ""))
    for s in (0, 1):
        for slot, uid in enumerate(game.side_units[s]):
            u = game.units[uid]
            lines.append(
                f"{_SIDE_LETTERS[s]}{slot:x} {u.name:<14.14} figs {u.n_able()}/{len(u.figures)} "
                f"sup {u.suppression} {CONFIDENCE_NAMES[u.confidence]:<9} "
                f"{'propped ' if u.propped else ''}{'concealed ' if u.complete_concealment else ''}"
                f"{'activated ' if u.activated else ''}"
                f"{'' if u.in_play else f'inbound box {u.inbound}' if u.inbound else 'evacuated' if u.evacuated else 'OUT'}"
                .rstrip())
    lines.append("legend: " + " ".join(f"{v}={k}" for k, v in _TERRAIN_LETTERS.items()) + " #=obstacle 1..=objective")
    return "\n".join(lines) + "\n"


_TERRAIN_COLOURS = {
    "open": (200, 210, 160), "light_scrub": (170, 190, 120), "rough": (170, 150, 110), "cultivated": (215, 200, 120),
    "slopes": (185, 175, 135), "road": (150, 140, 120), "light_woods": (90, 150, 80), "dense_woods": (40, 100, 50),
    "swamp": (110, 140, 120), "open_water": (70, 120, 200), "river": (90, 140, 210), "hill": (160, 130, 90),
    "building": (120, 90, 80),
}
_OBSTACLE_COLOURS = {"wall": (90, 90, 90), "hedge": (30, 80, 30), "fence": (130, 100, 60)}
_SIDE_COLOURS = ((40, 70, 200), (200, 40, 40))
PX_PER_INCH = 10


def render_rgb(game: Game, scale: int = PX_PER_INCH) -> np.ndarray:
    """An H x W x 3 uint8 picture of the table (north at the top)."""
    from PIL import Image, ImageDraw

    bf = game.bf
    Wp, Hp = int(round(bf.width * scale)), int(round(bf.height * scale))
    img = Image.new("RGB", (Wp, Hp), _TERRAIN_COLOURS["open"])
    dr = ImageDraw.Draw(img)

    def P(x, y):
        return (x * scale, Hp - y * scale)

    for ty, _, poly, _ in bf.features:
        dr.polygon([P(x, y) for x, y in poly.exterior.coords], fill=_TERRAIN_COLOURS.get(ty, (128, 128, 128)),
                   outline=(60, 60, 60))
    for ty, _, ls, _, _ in bf.obstacles:
        dr.line([P(x, y) for x, y in ls.coords], fill=_OBSTACLE_COLOURS.get(ty, (0, 0, 0)), width=max(2, scale // 4))
    for i, (name, ox, oy, vp) in enumerate(game.objectives):
        cx, cy = P(ox, oy)
        r = OBJECTIVE_RADIUS * scale
        dr.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(250, 220, 0), width=2)
        dr.text((cx - r, cy - r - 11), f"{name} ({vp})", fill=(0, 0, 0))
    fr = max(2, scale * 0.4)
    for s in (0, 1):
        for slot, uid in enumerate(game.side_units[s]):
            u = game.units[uid]
            if u.routed_off or u.evacuated or u.inbound or not u.figures:  # off the table
                continue
            col = _SIDE_COLOURS[s]
            if u.activated:
                col = tuple((c + 255) // 2 for c in col)
            lf = u.figures[u.leader]
            bx, by = u.x - lf.dx, u.y - lf.dy
            for i, f in enumerate(u.figures):
                if f.status == KILLED:
                    continue
                cx, cy = P(bx + f.dx, by + f.dy)
                fill = col if f.status == OK else (150, 150, 150)
                dr.ellipse([cx - fr, cy - fr, cx + fr, cy + fr], fill=fill)
                if i == u.leader:
                    rr = fr + 2
                    dr.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], outline=(255, 255, 255), width=2)
            lx, ly = P(u.x, u.y)
            for k in range(u.suppression):
                px = lx + fr + 4 + k * 5
                dr.rectangle([px, ly - fr - 6, px + 3, ly - fr - 3], fill=(230, 0, 0))
            dr.text((lx + fr + 3, ly + 2), f"{_SIDE_LETTERS[s]}{slot:x}", fill=(0, 0, 0))
    return np.asarray(img, dtype=np.uint8).copy()
