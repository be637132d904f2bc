"""Pictures of a game for people: a text map (``render_ansi``) and an image of the table (``render_rgb``).

``side=None`` draws the whole truth (a spectator's view: hidden units included).  ``side=0`` or ``1``
draws what that side may know, built only from ``game.view(side)`` and the scenario's public data
(terrain, objectives): its own units fully, the enemy units it has found, and a marker (``?``) where
an enemy unit may be hidden (real or dummy: the picture cannot tell, as the side cannot).  The
Gymnasium environment's ``render()``, ``dustup replay`` and ``dustup play --agents human,...`` use them.

Units are named by side letter and slot: ``A0`` is side 0's first unit, ``B3`` side 1's fourth.  Vehicles, mechs
and large creatures are named with a lower-case side letter (``a2``) and show their facing: an arrow in the text
map's next cell in front of them, a hull turned to its facing (to scale: the footprint of the vehicle rules) in the
image.  A unit mounted in a vehicle is not drawn (its vehicle carries it); a side does not see the enemy's
passengers.
"""
from __future__ import annotations

import math

import numpy as np

from . import features as feat
from .rules import Game
from .rules.kernel.entities import CONFIDENCE_NAMES, KILLED, OK
from .rules.armoured_dustup.heavy_weapons import weapon_states
from .rules.rules_overview.victory import OBJECTIVE_RADIUS

_TERRAIN_LETTERS = {
    "open": ".", "light_scrub": ",", "rough": "r", "cultivated": "c", "slopes": "s", "road": "=",
    "light_woods": "w", "dense_woods": "W", "swamp": "~", "open_water": "O", "river": "R", "hill": "h",
    "building": "%", "ford": "f",
}
_SIDE_LETTERS = "AB"
EDGES = {"south": "bottom", "north": "top", "east": "right", "west": "left"}


_ARROWS = "^/>\\v/<\\"  # the facing in eight compass points: N, NE, E, SE, S, SW, W, NW
_COMPASS8 = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
FOOTPRINT_BASE, FOOTPRINT_PER_SIZE = 0.5, 0.5  # armoured_dustup.vehicle_movement.footprint (RN-757)


def unit_label(side: int, slot: int, vehicle: bool = False) -> str:
    """``A0``, ``B3``: the short name the pictures give a unit (``a0``, ``b3``: a vehicle)."""
    letter = _SIDE_LETTERS[side]
    return f"{letter.lower() if vehicle else letter}{slot:x}"


def _facing8(facing: float) -> int:
    return int(((facing % 360.0) + 22.5) // 45.0) % 8


def picture(game: Game, side: int | None = None) -> dict:
    """What a picture may show: units (plain data from ``game.view``), markers, the pending decision, as
    known by ``side`` (or everything, ``side=None``)."""
    if side not in (None, 0, 1):
        raise ValueError(f"side must be 0, 1 or None (a spectator), not {side!r}")
    views = [game.view(0), game.view(1)] if side is None else [game.view(side)]
    shown = game.display_names()  # unique names: public, as every view lists every unit by name
    units, slots = [], [0, 0]
    for i, u in enumerate(views[0]["units"]):
        if side is None:
            u = views[u["side"]]["units"][i] if "x" not in u else u  # each side's own units in full
        u = dict(u)
        u["label"] = unit_label(u["side"], slots[u["side"]], bool(u.get("vehicle")))
        u["display"] = shown.get(u["uid"], u["name"])
        slots[u["side"]] += 1
        u["known"] = "x" in u  # False: an enemy unit hidden from the reader, or mounted in a vehicle (``unseen``)
        units.append(u)
    markers = []
    for i, m in enumerate(views[0]["markers"]):
        if m["removed"]:
            continue
        if side is None:
            m = views[m["side"]]["markers"][i]
        markers.append(dict(m))
    v = views[0]
    return {"side": side, "turn": v["turn"], "units": units, "markers": markers, "decision": v.get("decision"),
            "over": game.over, "winner": game.winner, "vp": game.victory_points(), "turn_limit": game.turn_limit}


def _on_table(u: dict) -> bool:
    return (u["known"] and u.get("location", "table") == "table" and u.get("carrier", -1) < 0 and not u.get("routed_off") and not u.get("evacuated") and not u.get("inbound")
            and not u.get("merged") and any(f["status"] != KILLED for f in u["figures"]))


def _vehicle_state(u: dict, labels: dict) -> str:
    """A vehicle's own state in a few words: facing, damage, immobilised, hatches, passengers, towing."""
    vp = u["vehicle"]
    f = u.get("facing", 0.0)
    out = [f"{vp['name']}, facing {_COMPASS8[_facing8(f)]} ({f:.0f} deg)"]
    if u.get("damage"):
        out.append(f"{u['damage']} damage marker{'s' if u['damage'] > 1 else ''}")
    if u.get("immobilised"):
        out.append("immobilised")
    if vp.get("hatches"):
        out.append("opened up" if u.get("opened_up") else "closed down")
    if u.get("passengers"):
        out.append("carries " + ", ".join(labels.get(p, str(p)) for p in u["passengers"]))
    if u.get("towing", -1) >= 0:
        out.append(("pushes " if u.get("pushing") else "tows ") + labels.get(u["towing"], str(u["towing"])))
    return "; ".join(out)


def _heavy_state(st: dict) -> str:
    """A heavy weapon's state (the weapon rules' plain data) in a few words."""
    words = ["set up" if st.get("ready") else "not set up"]
    words += [w for w, on in ((("disabled", "damaged")[min(st.get("damage", 0), 2) - 1], st.get("damage", 0) > 0),
                              ("fired", st.get("fired")), ("abandoned", st.get("abandoned")),
                              ("remote launcher", st.get("remote"))) if on]
    return "; heavy weapon " + ", ".join(words)


def state_line(u: dict, labels: dict | None = None) -> str:
    """A unit's state in a few words as the reader knows it.  A unit out of play says so first and only what
    still matters (a destroyed unit has no suppression or confidence left to show)."""
    labels = labels or {}
    if u.get("unseen"):
        return "not seen (in a vehicle)"
    if not u["known"]:
        return "hidden: not found yet"
    figs = u["figures"]
    able = sum(1 for f in figs if f["status"] == OK)
    lost = sum(1 for f in figs if f["status"] == KILLED)
    vehicle = u.get("vehicle")
    if u.get("routed_off"):
        out = "ROUTED off the table"
    elif u.get("evacuated"):
        out = "evacuated off the table"
    elif u.get("merged"):
        out = "merged into another unit"
    elif vehicle and figs and able == 0:
        out = "DESTROYED (a wreck)"
    elif figs and able == 0:
        out = "DESTROYED (" + ("every figure killed" if lost == len(figs) else f"no figure able to fight: {lost} killed, "
                                                                                 f"{len(figs) - lost} wounded") + ")"
    else:
        out = ""
    if out:
        return out + (f"; {vehicle['name']}" if vehicle else "")
    where = ""
    if u.get("inbound"):
        where = f"inbound (box {u['inbound']})"
    elif u.get("carrier", -1) >= 0:
        where = f"mounted in {labels.get(u['carrier'], u['carrier'])}"
    conf = CONFIDENCE_NAMES[u["confidence"]]
    flags = [w for w, on in (("PANICKED", u.get("panicked")), ("propped", u.get("propped")),
                             ("concealed", u.get("complete_concealment")), ("hidden", u.get("hidden")),
                             ("activated", u.get("activated"))) if on]
    return (f"{able}/{len(figs)} figures fit" + (f" ({lost} lost)" if lost else "")
            + f", suppression {u['suppression']}, {conf.upper() if conf == 'routed' else conf}"
            + (", " + ", ".join(flags) if flags else "")
            + (f", {where}" if where else "") + (f"; {_vehicle_state(u, labels)}" if vehicle else ""))


# where a two-cell label may go instead of the unit's own cell, nearest first (rows are north-up indices)
_NEAR = sorted(((dr_, dc) for dr_ in range(-3, 4) for dc in range(-4, 5)), key=lambda p: (abs(p[0]) + abs(p[1]) / 2, p))


def _label_cell(at: tuple, rows: int, cols: int, blocked: set) -> tuple:
    """The cell for a unit's two-character label: its own cell unless that (or the next one) holds an objective, a
    marker or another unit's label; then the nearest free place (its own cell when none is free)."""
    r0, c0 = at
    for dr_, dc in _NEAR:
        r, c = r0 + dr_, c0 + dc
        if 0 <= r < rows and 0 <= c <= max(cols - 2, 0) and (r, c) not in blocked and (r, c + 1) not in blocked:
            return r, c
    return r0, c0


_OFF_TABLE = {"loiter": "the loiter box", "air_inbound": "box one of the inbound track", "air_base": "returned to base"}


def _features_on_map(game, side, grid, cell, rows: int, cols: int) -> dict:
    """The dynamic terrain, the table entities ``side`` may know of and the latest bursts on the text map, each by its
    kind's character (:data:`dustup_env.features.STYLES`): an area's cells, then each entity's and burst's point.
    Returns ``{character: legend}`` for the characters drawn, and under ``"points"`` the cells of the points."""
    from .rules.kernel.terrain import inside_polygon

    drawn: dict = {}
    points = []

    def area(ch, x, y, r=None, pts=None):
        for rr in range(rows):
            for cc in range(cols):
                px, py = cc * 2.0 + 1.0, rr * 2.0 + 1.0
                if (r is not None and (px - x) ** 2 + (py - y) ** 2 <= r * r) or \
                        (pts is not None and inside_polygon(pts, px - x, py - y)):
                    grid[rr][cc] = ch

    for f in feat.terrain(game):
        look = feat.style(f["kind"])
        if f["shape"] == "circle":
            area(look["char"], f["x"], f["y"], r=f["r"])
        else:
            area(look["char"], 0.0, 0.0, pts=f["points"])
        drawn[look["char"]] = look["legend"]
    for e in feat.entities(game, side):
        look = feat.style(e["kind"])
        sh = e.get("shape")
        if sh and sh.get("shape") == "circle":
            area(look["char"], e["x"], e["y"], r=sh["r"])
        elif sh and sh.get("shape") == "polygon":
            area(look["char"], e["x"], e["y"], pts=sh["points"])
        r, c = cell(e["x"], e["y"])
        grid[r][c] = look["char"]
        points.append((r, c))
        drawn[look["char"]] = look["legend"]
    for b in feat.bursts(game, side):
        r, c = cell(b["x"], b["y"])
        grid[r][c] = feat.STYLES["burst"]["char"]
        points.append((r, c))
        drawn[feat.STYLES["burst"]["char"]] = "a round or bomb landed (this turn or the last)"
    drawn["points"] = points
    return drawn


def render_ansi(game: Game, side: int | None = None) -> str:
    """Text map at 2" per character (north at the top), then one status line per unit."""
    pic = picture(game, side)
    bf = game.bf
    cols, rows = int(math.ceil(bf.width / 2.0)), int(math.ceil(bf.height / 2.0))
    grid = [[_TERRAIN_LETTERS.get(bf.terrain_at(c * 2.0 + 1.0, r * 2.0 + 1.0), "?") for c in range(cols)]
            for r in range(rows)]

    def cell(x, y):
        return min(max(int(y / 2.0), 0), rows - 1), min(max(int(x / 2.0), 0), cols - 1)

    for _, _, ls, _, _ in bf.obstacles:
        n = max(2, int(ls.length / 1.0))
        for i in range(n + 1):
            p = ls.interpolate(i / n, normalized=True)
            r, c = cell(p.x, p.y)
            grid[r][c] = "#"
    chars = _features_on_map(game, side, grid, cell, rows, cols)
    fixed = set(chars.pop("points", ()))  # objectives, markers and table entities: a unit's label never covers them
    for i, (_, ox, oy, _) in enumerate(game.objectives):
        r, c = cell(ox, oy)
        grid[r][c] = str(i + 1) if i < 9 else "*"
        fixed.add((r, c))
    for m in pic["markers"]:
        r, c = cell(m["x"], m["y"])
        own_dummy = m.get("unit", 0) == -1
        grid[r][c] = "*" if own_dummy else "?"
        fixed.add((r, c))
    taken = set()
    for u in pic["units"]:
        if not _on_table(u):
            continue
        r, c = _label_cell(cell(u["x"], u["y"]), rows, cols, fixed | taken)
        grid[r][c] = u["label"][0]
        taken.add((r, c))
        if c + 1 < cols:
            grid[r][c + 1] = u["label"][1]
            taken.add((r, c + 1))
    for u in pic["units"]:  # a vehicle's facing: an arrow in the next cell in front of it (where no unit is)
        if not _on_table(u) or not u.get("vehicle"):
            continue
        k = _facing8(u.get("facing", 0.0))
        a = math.radians(45.0 * k)
        dc, dr_ = round(math.sin(a)), round(math.cos(a))
        r, c = cell(u["x"], u["y"])
        rr, cc = r + dr_, c + (dc if dc <= 0 else 2 * dc)  # the label is two cells wide
        if 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in taken:
            grid[rr][cc] = _ARROWS[k]
    lines = ["+" + "-" * cols + "+"]
    for r in range(rows - 1, -1, -1):
        lines.append("|" + "".join(grid[r]) + "|")
    lines.append("+" + "-" * cols + "+")
    d = pic["decision"]
    status = ("over" + (f", winner side {pic['winner']}" if pic["winner"] in (0, 1) else ", a draw")) if pic["over"] \
        else f"{d['kind']} for side {d['side']}"
    who = "spectator (everything)" if side is None else f"side {side}'s view"
    lines.append(f"turn {pic['turn']}/{pic['turn_limit']}  {status}  victory points {pic['vp']}  [{who}]")
    labels = {u["uid"]: u["label"] for u in pic["units"]}
    heavy = weapon_states(game)
    flying = feat.aircraft(game, [u["uid"] for u in pic["units"] if _on_table(u)])
    for u in pic["units"]:
        hw = heavy.get(str(u["uid"])) if u["known"] else None
        air = flying.get(u["uid"])
        where = u.get("location", "table") if u["known"] else "table"
        lines.append(f"{u['label']} {u['display']:<22.22} {state_line(u, labels)}" + (_heavy_state(hw) if hw else "")
                     + (f", aircraft {air['mode']}" if air else "")
                     + (f", off the table ({_OFF_TABLE.get(where, where.replace('_', ' '))})" if where != "table" else ""))
    used = {ch for row in grid for ch in row}
    keys = [f"{v}={k.replace('_', ' ')}" for k, v in _TERRAIN_LETTERS.items() if v in used]
    keys += [f"{ch}={what}" for ch, what in (("#", "obstacle"), ("?", "hidden-unit marker"), ("*", "dummy marker"))
             if ch in used]
    if any(u.get("vehicle") for u in pic["units"]):
        keys.append("a/b=vehicle of side 0/1, ^ / > \\ v < = its facing")
    keys += [f"{ch}={what}" for ch, what in chars.items() if ch in used]
    lines.append("legend: A=side 0, B=side 1, 1..=objective, " + ", ".join(keys))
    return "\n".join(lines) + "\n"


_TERRAIN_COLOURS = {
    "open": (200, 210, 160), "light_scrub": (170, 190, 120), "rough": (170, 150, 110), "cultivated": (215, 200, 120),
    "slopes": (185, 175, 135), "road": (150, 140, 120), "light_woods": (90, 150, 80), "dense_woods": (40, 100, 50),
    "swamp": (110, 140, 120), "open_water": (70, 120, 200), "river": (90, 140, 210), "hill": (160, 130, 90),
    "building": (120, 90, 80), "ford": (140, 175, 205),
}
_OBSTACLE_COLOURS = {"wall": (90, 90, 90), "hedge": (30, 80, 30), "fence": (130, 100, 60)}
# colour-blind-safe side colours (Okabe-Ito blue and vermillion: told apart with every common colour blindness)
_SIDE_COLOURS = ((0, 114, 178), (213, 94, 0))
PX_PER_INCH = 10
WIDTH = 1280  # the default width of replay pictures (``dustup replay --frames/--gif``; ``--size``)


def _font(px: float):
    from PIL import ImageFont

    return ImageFont.load_default(size=max(10, min(22, int(round(px)))))


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _place(dr, text: str, font, anchors, blocked: list, bounds) -> tuple:
    """The box for ``text``: the first of ``anchors`` (``(x, y, how)``, ``how`` one of ``"left"``, ``"right"``,
    ``"above"``, ``"below"``) whose box stays on the picture and clears every box in ``blocked`` (``(x0, y0, x1, y1)``
    or with a fifth item, the weight of covering it: a label 10, a unit's figures 1); else the one that covers
    least.  The box taken is appended to ``blocked``."""
    x0, y0, x1, y1 = dr.textbbox((0, 0), text, font=font)
    w, h = x1 - x0 + 4, y1 + 2
    best, best_cost = None, None
    for ax, ay, how in anchors:
        tx = {"left": ax - w, "right": ax, "above": ax - w / 2, "below": ax - w / 2}[how]
        ty = {"left": ay - h / 2, "right": ay - h / 2, "above": ay - h, "below": ay}[how]
        tx = min(max(tx, bounds[0]), bounds[2] - w)
        ty = min(max(ty, bounds[1]), bounds[3] - h)
        box = (tx, ty, tx + w, ty + h)
        cost = sum((min(box[2], b[2]) - max(box[0], b[0])) * (min(box[3], b[3]) - max(box[1], b[1]))
                   * (b[4] if len(b) > 4 else 10) for b in blocked if _overlaps(box, b))
        if best is None or cost < best_cost:
            best, best_cost = box, cost
        if cost == 0:
            break
    blocked.append(best)
    return best


def _label(dr, box, text: str, font, colour) -> None:
    dr.rectangle(box, fill=(255, 255, 255), outline=colour)
    dr.text((box[0] + 2, box[1]), text, fill=colour if colour != (255, 255, 255) else (0, 0, 0), font=font)


def _hex(colour: str | None, default=(64, 64, 64)) -> tuple:
    if not colour:
        return default
    c = colour.lstrip("#")
    return tuple(int(c[i:i + 2], 16) for i in (0, 2, 4))


def _glyph(dr, kind: str, cx: float, cy: float, s: float, col) -> None:
    """A kind's mark at a point (:data:`dustup_env.features.STYLES`): a cross in a ring (a target marker), a diamond
    (a drone), an x (a mine), a star (a burst), else a dot."""
    w = max(2, int(s / 3))
    if kind == "cross":
        dr.ellipse([cx - s, cy - s, cx + s, cy + s], outline=col, width=w)
        dr.line([cx - 1.5 * s, cy, cx + 1.5 * s, cy], fill=col, width=w)
        dr.line([cx, cy - 1.5 * s, cx, cy + 1.5 * s], fill=col, width=w)
    elif kind == "diamond":
        dr.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=col, outline=(0, 0, 0))
    elif kind == "x":
        dr.line([cx - s, cy - s, cx + s, cy + s], fill=col, width=w)
        dr.line([cx - s, cy + s, cx + s, cy - s], fill=col, width=w)
    elif kind == "star":
        pts = [(cx + (s * 1.1 if k % 2 == 0 else s * 0.45) * math.sin(math.pi * k / 8),
                cy - (s * 1.1 if k % 2 == 0 else s * 0.45) * math.cos(math.pi * k / 8)) for k in range(16)]
        dr.polygon(pts, fill=(255, 212, 0), outline=(122, 46, 0))
    else:
        dr.ellipse([cx - s / 3, cy - s / 3, cx + s / 3, cy + s / 3], fill=col, outline=(0, 0, 0))


def _dashed_circle(dr, cx, cy, r, col, width=2, parts=24) -> None:
    for k in range(0, parts, 2):
        dr.arc([cx - r, cy - r, cx + r, cy + r], 360 * k / parts, 360 * (k + 1) / parts, fill=col, width=width)


def _legend(dr, top: int, width: int, scale: float, font, names, looks: dict | None = None) -> int:
    """The legend band: the sides' colours and what the marks mean, and a line for each kind of ``looks``
    (:func:`dustup_env.features.styles`: what the game may draw beyond its units); returns its height."""
    x, y, fr = 6, top + 6, max(4.0, scale * 0.4)
    items = []
    for s, name in enumerate(names):
        items.append(("fig", _SIDE_COLOURS[s], f"{name} (side {s})"))
    items += [("faded", _SIDE_COLOURS[0], "faded = activated this turn"),
              ("ring", _SIDE_COLOURS[0], "white ring = leader"),
              ("grey", (150, 150, 150), "grey = casualty (wounded)"),
              ("ticks", (230, 0, 0), "red ticks = suppression markers"),
              ("objective", (250, 220, 0), "yellow circle = objective (VP)"),
              ("marker", _SIDE_COLOURS[1], "? = hidden-unit marker")]
    for name, look in (looks or {}).items():
        items.append(("feature", look, look.get("legend") or name))
    for kind, col, text in items:
        tw = dr.textbbox((0, 0), text, font=font)[2]
        if x + 2 * fr + 8 + tw > width - 4:
            x, y = 6, y + int(2 * fr) + 10
        cx, cy = x + fr, y + fr + 2
        if kind in ("fig", "grey", "ring"):
            dr.ellipse([cx - fr, cy - fr, cx + fr, cy + fr], fill=col)
            if kind == "ring":
                dr.ellipse([cx - fr - 2, cy - fr - 2, cx + fr + 2, cy + fr + 2], outline=(255, 255, 255), width=2)
        elif kind == "faded":
            dr.ellipse([cx - fr, cy - fr, cx + fr, cy + fr], fill=tuple((c + 255) // 2 for c in col))
        elif kind == "ticks":
            for k in range(3):
                dr.rectangle([x + k * 5, cy - 2, x + k * 5 + 3, cy + 1], fill=col)
        elif kind == "objective":
            dr.ellipse([cx - fr, cy - fr, cx + fr, cy + fr], outline=col, width=2)
        elif kind == "feature":
            look = col
            if look.get("fill"):
                f = _hex(look["fill"])
                o = float(look.get("opacity", 1.0))
                dr.ellipse([cx - fr, cy - fr, cx + fr, cy + fr], fill=tuple(int(o * c + (1 - o) * 250) for c in f),
                           outline=_hex(look.get("stroke")))
            elif look.get("name") == "aircraft" or look.get("dash"):
                _dashed_circle(dr, cx, cy, fr, _hex(look.get("stroke")), 1, 12)
            if look.get("glyph") not in (None, "none"):
                _glyph(dr, look["glyph"], cx, cy, fr * 0.7, _hex(look.get("stroke")))
        else:
            dr.rectangle([cx - fr, cy - fr, cx + fr, cy + fr], fill=(235, 235, 235), outline=col, width=2)
            dr.text((cx - 3, cy - 7), "?", fill=col, font=font)
        dr.text((x + 2 * fr + 6, cy - 8), text, fill=(0, 0, 0), font=font)
        x += int(2 * fr) + 6 + tw + 18
    return int(y + 2 * fr + 14 - top)


def legend_height(game: Game, scale: float, width: int) -> int:
    """The height in pixels of the legend band of a picture ``width`` pixels wide."""
    from PIL import Image, ImageDraw

    return _legend(ImageDraw.Draw(Image.new("RGB", (width, 400))), 0, width, scale, _font(scale * 0.85),
                   game.side_names, feat.styles(game))


def render_rgb(game: Game, scale: float = PX_PER_INCH, side: int | None = None, caption: str | None = None,
               legend: bool = False, layout: list | None = None) -> np.ndarray:
    """An H x W x 3 uint8 picture of the table (north at the top): units named by their display names, labels placed
    clear of each other and of the objectives; ``legend``: a band saying what the marks mean; ``caption``: a text
    band under it all; ``layout``: a list to receive ``(text, box)`` of every label drawn (box: x0, y0, x1, y1)."""
    from PIL import Image, ImageDraw

    pic = picture(game, side)
    bf = game.bf
    Wp, Hp = int(round(bf.width * scale)), int(round(bf.height * scale))
    font = _font(scale * 0.85)
    lines = caption.count("\n") + 1 if caption else 0
    line_h = font.getbbox("Ag")[3] + 4
    band = line_h * lines + 8 if caption else 0
    leg = legend_height(game, scale, Wp) if legend else 0
    img = Image.new("RGB", (Wp, Hp + leg + band), _TERRAIN_COLOURS["open"])
    dr = ImageDraw.Draw(img)

    def P(x, y):
        return (x * scale, Hp - y * scale)

    for ty, _, poly, _ in bf.features:
        dr.polygon([P(x, y) for x, y in poly.exterior.coords], fill=_TERRAIN_COLOURS.get(ty, (128, 128, 128)),
                   outline=(60, 60, 60))
    for ty, _, ls, _, _ in bf.obstacles:
        dr.line([P(x, y) for x, y in ls.coords], fill=_OBSTACLE_COLOURS.get(ty, (0, 0, 0)),
                width=max(2, int(scale // 4)))
    blocked, labels = [], []  # boxes labels must clear; the labels to draw last (on top of everything)
    bounds = (0, 0, Wp, Hp)
    img = _draw_features(img, game, side, P, scale, font, blocked, labels, bounds)
    dr = ImageDraw.Draw(img)
    for i, (name, ox, oy, vp) in enumerate(game.objectives):
        cx, cy = P(ox, oy)
        r = OBJECTIVE_RADIUS * scale
        dr.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(250, 220, 0), width=max(2, int(scale // 5)))
        dr.line([cx - 4, cy, cx + 4, cy], fill=(120, 100, 0), width=2)
        dr.line([cx, cy - 4, cx, cy + 4], fill=(120, 100, 0), width=2)
        blocked.append((cx - 5, cy - 5, cx + 5, cy + 5))
    for i, (name, ox, oy, vp) in enumerate(game.objectives):
        cx, cy = P(ox, oy)
        r = OBJECTIVE_RADIUS * scale
        box = _place(dr, f"{name} ({vp} VP)", font, [(cx, cy - r, "above"), (cx, cy + r, "below"),
                                                     (cx - r, cy, "left"), (cx + r, cy, "right")], blocked, bounds)
        labels.append((box, f"{name} ({vp} VP)", (90, 70, 0)))
    fr = max(2, scale * 0.4)
    heavy = weapon_states(game)
    for m in pic["markers"]:
        cx, cy = P(m["x"], m["y"])
        rr = fr * 1.8
        col = _SIDE_COLOURS[m["side"]]
        dr.rectangle([cx - rr, cy - rr, cx + rr, cy + rr], fill=(235, 235, 235), outline=col, width=2)
        dr.text((cx - 3, cy - 7), "*" if m.get("unit", 0) == -1 else "?", fill=col, font=font)
        blocked.append((cx - rr, cy - rr, cx + rr, cy + rr))
    on_table = [u for u in pic["units"] if _on_table(u)]
    for u in on_table:  # every unit's figures are kept clear of every label
        pts = [P(u["x"], u["y"])] if u.get("vehicle") else [
            P(u["x"] - u["figures"][u["leader"]]["dx"] + f["dx"], u["y"] - u["figures"][u["leader"]]["dy"] + f["dy"])
            for f in u["figures"] if f["status"] != KILLED]
        rad = (FOOTPRINT_BASE + FOOTPRINT_PER_SIZE * u["vehicle"]["size"]) * scale if u.get("vehicle") else fr + 2
        blocked.append((min(p[0] for p in pts) - rad, min(p[1] for p in pts) - rad,
                        max(p[0] for p in pts) + rad, max(p[1] for p in pts) + rad, 1))
    flying = feat.aircraft(game, [u["uid"] for u in on_table])
    for u in on_table:
        col = _SIDE_COLOURS[u["side"]]
        air = flying.get(u["uid"])
        if air is not None:  # an aircraft: a dashed ring while it flies, its flight state after its name
            u = dict(u, display=u["display"] + " " + {"airborne": "(A)", "hovering": "(H)", "grounded": "(G)"}[air["mode"]])
            if air["mode"] != "grounded":
                cx, cy = P(u["x"], u["y"])
                rr = (FOOTPRINT_BASE + FOOTPRINT_PER_SIZE * u["vehicle"]["size"] + 0.9) * scale
                _dashed_circle(dr, cx, cy, rr, (32, 32, 32), max(1, int(scale // 6)))
        if u.get("activated"):
            col = tuple((c + 255) // 2 for c in col)
        lx, ly = P(u["x"], u["y"])
        if u.get("vehicle"):
            _draw_vehicle(dr, u, col, P, scale)
            reach = (FOOTPRINT_BASE + FOOTPRINT_PER_SIZE * u["vehicle"]["size"]) * scale + 3
        else:
            lf = u["figures"][u["leader"]]
            bx, by = u["x"] - lf["dx"], u["y"] - lf["dy"]
            for i, f in enumerate(u["figures"]):
                if f["status"] == KILLED:
                    continue
                cx, cy = P(bx + f["dx"], by + f["dy"])
                fill = col if f["status"] == OK else (150, 150, 150)
                dr.ellipse([cx - fr, cy - fr, cx + fr, cy + fr], fill=fill)
                if i == u["leader"]:
                    rr = fr + 2
                    dr.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], outline=(255, 255, 255), width=2)
            for k in range(u["suppression"]):
                px = lx + fr + 4 + k * 5
                dr.rectangle([px, ly - fr - 6, px + 3, ly - fr - 3], fill=(230, 0, 0))
            reach = fr + 3
        text = u["display"]
        hw = heavy.get(str(u["uid"]))
        if hw is not None:  # a heavy weapon: its state beside the name (set up / not, disabled or damaged)
            text += " " + ("HW" if hw.get("ready") else "hw") + ("x" if hw.get("damage") else "")
        anchors = [(lx + reach, ly, "right"), (lx - reach, ly, "left"), (lx, ly - reach - 4, "above"),
                   (lx, ly + reach, "below")]
        anchors += [(lx + dx * scale, ly + dy * scale, how) for d in (2, 4, 6)
                    for dx, dy, how in ((d, 0, "right"), (-d, 0, "left"), (0, -d, "above"), (0, d, "below"),
                                        (d, -d, "right"), (-d, -d, "left"), (d, d, "right"), (-d, d, "left"))]
        box = _place(dr, text, font, anchors, blocked, bounds)
        labels.append((box, text, _SIDE_COLOURS[u["side"]], (lx, ly)))
    for lab in labels:
        if len(lab) == 4:  # a unit's label away from its unit: a thin leader line to it
            box, _, col, (lx, ly) = lab
            if not (box[0] - 12 <= lx <= box[2] + 12 and box[1] - 12 <= ly <= box[3] + 12):
                tx, ty = min(max(lx, box[0]), box[2]), min(max(ly, box[1]), box[3])
                dr.line([(lx, ly), (tx, ty)], fill=col, width=1)
        _label(dr, lab[0], lab[1], font, lab[2])
        if layout is not None:
            layout.append((lab[1], tuple(lab[0][:4])))
    if legend:
        dr.rectangle([0, Hp, Wp, Hp + leg], fill=(250, 250, 245))
        dr.line([0, Hp, Wp, Hp], fill=(120, 120, 120))
        _legend(dr, Hp, Wp, scale, font, game.side_names, feat.styles(game))
    if caption:
        top = Hp + leg
        dr.rectangle([0, top, Wp, top + band], fill=(240, 238, 230))
        dr.line([0, top, Wp, top], fill=(120, 120, 120))
        dr.multiline_text((6, top + 4), caption, fill=(0, 0, 0), font=font, spacing=4)
    return np.asarray(img, dtype=np.uint8).copy()


def _draw_features(img, game, side, P, scale: float, font, blocked: list, labels: list, bounds):
    """The dynamic terrain, the table entities ``side`` may know of (everything for a spectator) and the latest bursts
    with their scatter, each in its kind's look (:mod:`dustup_env.features`), areas translucent; their labels join
    ``labels`` (placed clear of ``blocked``).  Returns the picture (a new image when anything was drawn)."""
    from PIL import Image, ImageDraw

    terrain = feat.terrain(game)
    ents = feat.entities(game, side)
    booms = feat.bursts(game, side)
    if not (terrain or ents or booms):
        return img
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    marks = []  # (glyph, x, y, colour): drawn on top, opaque

    def area(shape_pts, circle, look, alpha_scale=1.0):
        fill = _hex(look["fill"]) + (int(255 * float(look.get("opacity", 1.0)) * alpha_scale),) if look.get("fill") else None
        stroke = _hex(look.get("stroke")) + (int(255 * alpha_scale),)
        if circle is not None:
            cx, cy, r = circle
            ld.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
            if look.get("dash"):
                _dashed_circle(ld, cx, cy, r, stroke, max(1, int(scale // 6)))
            else:
                ld.ellipse([cx - r, cy - r, cx + r, cy + r], outline=stroke, width=max(1, int(scale // 6)))
        else:
            ld.polygon(shape_pts, fill=fill, outline=stroke)

    def label_at(text, x, y, col):
        if not text:
            return
        box = _place(ImageDraw.Draw(img), text, font, [(x, y - scale, "above"), (x, y + scale, "below"),
                                                        (x + scale, y, "right"), (x - scale, y, "left")], blocked, bounds)
        labels.append((box, text, col))

    for f in terrain:
        look = feat.style(f["kind"])
        if f["shape"] == "circle":
            cx, cy = P(f["x"], f["y"])
            area(None, (cx, cy, f["r"] * scale), look)
            at = (cx, cy)
        else:
            pts = [P(x, y) for x, y in f["points"]]
            area(pts, None, look)
            at = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        if look.get("label"):
            label_at(look["label"], at[0], at[1], _hex(look.get("stroke")))
    for e in ents:
        look = feat.style(e["kind"])
        col = _SIDE_COLOURS[e["owner"]] if e["owner"] in (0, 1) else _hex(look.get("stroke"))
        cx, cy = P(e["x"], e["y"])
        sh = e.get("shape")
        if sh and sh.get("shape") == "circle":
            area(None, (cx, cy, sh["r"] * scale), look)
        elif sh and sh.get("shape") == "polygon":
            area([P(e["x"] + dx, e["y"] + dy) for dx, dy in sh["points"]], None, look)
        marks.append((look.get("glyph", "none"), cx, cy, col))
        blocked.append((cx - scale, cy - scale, cx + scale, cy + scale, 1))
        text = look.get("label") or e["kind"].replace("_", " ")
        if isinstance(e.get("state"), dict) and "damage" in e["state"]:
            text += f" (damage {e['state']['damage']})"
        label_at(text, cx, cy, col)
    for b in booms:
        look = feat.style("burst")
        a = 0.45 if b["age"] else 1.0
        cx, cy = P(b["x"], b["y"])
        if b["origin"] is not None:  # the scatter: a dashed line from the aim point (an x) to where it landed
            ox, oy = P(*b["origin"])
            n = max(1, int(math.hypot(cx - ox, cy - oy) // 6))
            for k in range(0, n, 2):
                ld.line([ox + (cx - ox) * k / n, oy + (cy - oy) * k / n, ox + (cx - ox) * (k + 1) / n,
                         oy + (cy - oy) * (k + 1) / n], fill=(192, 80, 0, int(255 * a)), width=max(2, int(scale // 5)))
            s = scale * 0.4
            ld.line([ox - s, oy - s, ox + s, oy + s], fill=(192, 80, 0, int(255 * a)), width=2)
            ld.line([ox - s, oy + s, ox + s, oy - s], fill=(192, 80, 0, int(255 * a)), width=2)
        area(None, (cx, cy, b["r"] * scale), look, a)
        marks.append(("star", cx, cy, (255, 212, 0)))
    out = Image.alpha_composite(img.convert("RGBA"), layer).convert("RGB")
    dr = ImageDraw.Draw(out)
    for g, x, y, col in marks:
        _glyph(dr, g, x, y, max(3.0, scale * 0.7), col)
    return out


def _draw_vehicle(dr, u: dict, col, P, scale: int) -> None:
    """A vehicle to scale: a hull 2r long and 1.3r wide (r its footprint) turned to its facing, a white wedge and a
    gun at its front, a lighter ellipse for mechs and creatures; damage markers as black pips, suppression red."""
    vp = u["vehicle"]
    r = FOOTPRINT_BASE + FOOTPRINT_PER_SIZE * vp["size"]
    w = 0.65 * r
    a = math.radians(u.get("facing", 0.0))
    fx, fy = math.sin(a), math.cos(a)  # forward (north = +y, clockwise)
    sx, sy = fy, -fx  # to the right

    def at(f, s):
        return P(u["x"] + fx * f + sx * s, u["y"] + fy * f + sy * s)

    if vp["kind"] in ("mech", "large_creature"):
        pts = [at(r * math.cos(t), w * math.sin(t)) for t in (2 * math.pi * i / 16 for i in range(16))]
    else:
        pts = [at(r, -w), at(r, w), at(-r, w), at(-r, -w)]
    dr.polygon(pts, fill=col if u.get("in_play", True) else (110, 110, 110), outline=(0, 0, 0))
    dr.polygon([at(r, -w * 0.8), at(r + 0.5, 0), at(r, w * 0.8)], fill=(255, 255, 255), outline=(0, 0, 0))
    dr.line([P(u["x"], u["y"]), at(r + 0.4, 0)], fill=(0, 0, 0), width=max(2, int(scale // 5)))
    lx, ly = P(u["x"], u["y"])
    top = ly - r * scale - 6
    for k in range(u.get("damage", 0)):
        px = lx - r * scale + k * 6
        dr.rectangle([px, top - 4, px + 4, top], fill=(0, 0, 0))
    for k in range(u["suppression"]):
        px = lx + 4 + k * 6
        dr.rectangle([px, top - 4, px + 4, top], fill=(230, 0, 0))
    if u.get("immobilised"):
        dr.line([at(-r, -w), at(r, w)], fill=(0, 0, 0), width=2)


# ---------------------------------------------------------------------------------------------- replays as pictures
EVERY = ("turn", "activation", "decision")


def replay_frames(save: dict, every: str = "turn", side: int | None = None, scale: float | None = None,
                  size: int = WIDTH, legend: bool = True):
    """Replay a save (``Game.to_dict()`` data) and yield ``(caption, picture)`` for the table at the start and
    then after every turn (``every="turn"``), every activation or every decision; the last frame is the end.
    Pictures are ``size`` pixels wide (or ``scale`` pixels per inch of table when given), with a legend."""
    if every not in EVERY:
        raise ValueError(f"every must be one of {', '.join(EVERY)}, not {every!r}")
    g = Game(save["scenario"], seed=save["seed"], options=save.get("options"))
    if scale is None:
        scale = size / g.bf.width
    names = g.side_names

    def caption(what):
        res = ""
        if g.over:
            r = g.result()
            w = r["winner"]
            res = (f"; result: {'a draw' if w not in (0, 1) else f'{names[w]} (side {w}) wins'} ({r['reason']})")
        who = "as a spectator (everything)" if side is None else f"as {names[side]} (side {side}) knew it"
        vp = g.victory_points()
        return (f"{g.scenario['name']}: {what}; victory points {names[0]} {vp[0]}, {names[1]} {vp[1]}{res}\n"
                f"seen {who}")

    def frame(what):
        c = caption(what)
        return c, render_rgb(g, scale, side=side, caption=c, legend=legend)

    yield frame(f"the start (turn {g.turn} of {g.turn_limit})")
    n_events, turn, acts = len(g.event_log()), g.turn, 0
    decisions = save["decisions"]
    for i, opt in enumerate(decisions):
        g.apply(tuple(opt))
        new = []
        if every == "activation":
            log = g.event_log()
            new, n_events = log[n_events:], len(log)
        last = i == len(decisions) - 1
        of = f" of {g.turn_limit}"
        if every == "decision":
            what = f"turn {g.turn}{of}, after decision {i + 1}"
        elif every == "activation":
            ended = sum(1 for e in new if e["type"] == "ActivationEnded")
            if not ended and not last:
                continue
            acts += ended
            what = f"turn {g.turn}{of}, after activation {acts}"
        else:
            if g.turn == turn and not last:
                continue
            what = f"the end of turn {turn}{of}" if g.turn != turn else f"turn {turn}{of}"
            turn = g.turn
        if g.over:
            what = f"game over in turn {g.turn}{of}"
        yield frame(what)


def save_pngs(frames, folder) -> list:
    """Write each frame as ``folder/frame_NNN.png``; returns the paths."""
    from pathlib import Path

    from PIL import Image

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (_, arr) in enumerate(frames):
        p = folder / f"frame_{i:03d}.png"
        Image.fromarray(arr).save(p)
        paths.append(p)
    return paths


def save_gif(frames, path, seconds_per_frame: float = 1.0) -> int:
    """Write the frames as one animated GIF (Pillow); returns the number of frames."""
    from PIL import Image

    imgs = [Image.fromarray(arr) for _, arr in frames]
    if not imgs:
        raise ValueError("no frames to write")
    imgs[0].save(path, save_all=True, append_images=imgs[1:], duration=int(1000 * seconds_per_frame), loop=0,
                 optimize=True)
    return len(imgs)
