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
    units, slots = [], [0, 0]
    for i, u in enumerate(views[0]["units"]):
        if side is None:
            u = views[u["side"]]["units"][i] if "x" not in u else u  # each side's own units in full
        u = dict(u)
        u["label"] = unit_label(u["side"], slots[u["side"]], bool(u.get("vehicle")))
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
    return (u["known"] and u.get("carrier", -1) < 0 and not u.get("routed_off") and not u.get("evacuated") and not u.get("inbound")
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


def _state(u: dict, labels: dict | None = None) -> str:
    labels = labels or {}
    if u.get("unseen"):
        return "not seen (in a vehicle)"
    if not u["known"]:
        return "hidden: not found yet"
    figs = u["figures"]
    able = sum(1 for f in figs if f["status"] == OK)
    if u.get("routed_off"):
        where = "routed off the table"
    elif u.get("evacuated"):
        where = "evacuated"
    elif u.get("inbound"):
        where = f"inbound (box {u['inbound']})"
    elif u.get("merged"):
        where = "merged"
    elif u.get("carrier", -1) >= 0:
        where = f"mounted in {labels.get(u['carrier'], u['carrier'])}"
    elif not any(f["status"] != KILLED for f in figs):
        where = "destroyed"
    else:
        where = ""
    flags = [w for w, on in (("propped", u.get("propped")), ("concealed", u.get("complete_concealment")),
                             ("hidden", u.get("hidden")), ("activated", u.get("activated"))) if on]
    return (f"{able}/{len(figs)} figures fit, suppression {u['suppression']}, "
            f"{CONFIDENCE_NAMES[u['confidence']]}" + (", " + ", ".join(flags) if flags else "")
            + (f", {where}" if where else "") + (f"; {_vehicle_state(u, labels)}" if u.get("vehicle") else ""))


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
    for i, (_, ox, oy, _) in enumerate(game.objectives):
        r, c = cell(ox, oy)
        grid[r][c] = str(i + 1) if i < 9 else "*"
    for m in pic["markers"]:
        r, c = cell(m["x"], m["y"])
        own_dummy = m.get("unit", 0) == -1
        grid[r][c] = "*" if own_dummy else "?"
    taken = set()
    for u in pic["units"]:
        if not _on_table(u):
            continue
        r, c = cell(u["x"], u["y"])
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
    for u in pic["units"]:
        hw = heavy.get(str(u["uid"])) if u["known"] else None
        lines.append(f"{u['label']} {u['name']:<16.16} {_state(u, labels)}" + (_heavy_state(hw) if hw else ""))
    used = {ch for row in grid for ch in row}
    keys = [f"{v}={k.replace('_', ' ')}" for k, v in _TERRAIN_LETTERS.items() if v in used]
    keys += [f"{ch}={what}" for ch, what in (("#", "obstacle"), ("?", "hidden-unit marker"), ("*", "dummy marker"))
             if ch in used]
    if any(u.get("vehicle") for u in pic["units"]):
        keys.append("a/b=vehicle of side 0/1, ^ / > \\ v < = its facing")
    lines.append("legend: A=side 0, B=side 1, 1..=objective, " + ", ".join(keys))
    return "\n".join(lines) + "\n"


_TERRAIN_COLOURS = {
    "open": (200, 210, 160), "light_scrub": (170, 190, 120), "rough": (170, 150, 110), "cultivated": (215, 200, 120),
    "slopes": (185, 175, 135), "road": (150, 140, 120), "light_woods": (90, 150, 80), "dense_woods": (40, 100, 50),
    "swamp": (110, 140, 120), "open_water": (70, 120, 200), "river": (90, 140, 210), "hill": (160, 130, 90),
    "building": (120, 90, 80), "ford": (140, 175, 205),
}
_OBSTACLE_COLOURS = {"wall": (90, 90, 90), "hedge": (30, 80, 30), "fence": (130, 100, 60)}
_SIDE_COLOURS = ((40, 70, 200), (200, 40, 40))
PX_PER_INCH = 10


def render_rgb(game: Game, scale: int = PX_PER_INCH, side: int | None = None, caption: str | None = None) -> np.ndarray:
    """An H x W x 3 uint8 picture of the table (north at the top); ``caption``: a text band under it."""
    from PIL import Image, ImageDraw

    pic = picture(game, side)
    bf = game.bf
    Wp, Hp = int(round(bf.width * scale)), int(round(bf.height * scale))
    band = 16 * (1 + caption.count("\n")) + 6 if caption else 0
    img = Image.new("RGB", (Wp, Hp + band), _TERRAIN_COLOURS["open"])
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
    heavy = weapon_states(game)
    for m in pic["markers"]:
        cx, cy = P(m["x"], m["y"])
        rr = fr * 1.8
        col = _SIDE_COLOURS[m["side"]]
        dr.rectangle([cx - rr, cy - rr, cx + rr, cy + rr], fill=(235, 235, 235), outline=col, width=2)
        dr.text((cx - 3, cy - 6), "*" if m.get("unit", 0) == -1 else "?", fill=col)
    for u in pic["units"]:
        if not _on_table(u):
            continue
        col = _SIDE_COLOURS[u["side"]]
        if u.get("activated"):
            col = tuple((c + 255) // 2 for c in col)
        if u.get("vehicle"):
            _draw_vehicle(dr, u, col, P, scale)
            continue
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
        lx, ly = P(u["x"], u["y"])
        for k in range(u["suppression"]):
            px = lx + fr + 4 + k * 5
            dr.rectangle([px, ly - fr - 6, px + 3, ly - fr - 3], fill=(230, 0, 0))
        dr.text((lx + fr + 3, ly + 2), u["label"], fill=(0, 0, 0))
        hw = heavy.get(str(u["uid"]))
        if hw is not None:  # a heavy weapon: its state beside the label (set up / not, disabled or damaged)
            tag = ("HW" if hw.get("ready") else "hw") + ("x" if hw.get("damage") else "")
            dr.text((lx + fr + 3, ly + 12), tag, fill=(0, 0, 0))
    if caption:
        dr.rectangle([0, Hp, Wp, Hp + band], fill=(250, 250, 245))
        dr.text((4, Hp + 3), caption, fill=(0, 0, 0))
    return np.asarray(img, dtype=np.uint8).copy()


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
    dr.line([P(u["x"], u["y"]), at(r + 0.4, 0)], fill=(0, 0, 0), width=max(2, scale // 5))
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
    dr.text((lx + r * scale + 3, ly + 2), u["label"], fill=(0, 0, 0))


# ---------------------------------------------------------------------------------------------- replays as pictures
EVERY = ("turn", "activation", "decision")


def replay_frames(save: dict, every: str = "turn", side: int | None = None, scale: int = PX_PER_INCH):
    """Replay a save (``Game.to_dict()`` data) and yield ``(caption, picture)`` for the table at the start and
    then after every turn (``every="turn"``), every activation or every decision; the last frame is the end."""
    if every not in EVERY:
        raise ValueError(f"every must be one of {', '.join(EVERY)}, not {every!r}")
    g = Game(save["scenario"], seed=save["seed"], options=save.get("options"))

    def caption(what):
        res = ""
        if g.over:
            r = g.result()
            res = (f"  result: {'draw' if r['winner'] not in (0, 1) else 'side ' + str(r['winner']) + ' wins'} "
                   f"({r['reason']})")
        who = "spectator" if side is None else f"side {side}'s view"
        return f"{what}; turn {g.turn}/{g.turn_limit}, victory points {g.victory_points()}{res} [{who}]"

    yield caption("start"), render_rgb(g, scale, side=side, caption=caption("start"))
    n_events, turn, acts = len(g.event_log()), g.turn, 0
    decisions = save["decisions"]
    for i, opt in enumerate(decisions):
        g.apply(tuple(opt))
        new = []
        if every == "activation":
            log = g.event_log()
            new, n_events = log[n_events:], len(log)
        last = i == len(decisions) - 1
        if every == "decision":
            what = f"decision {i + 1}"
        elif every == "activation":
            ended = sum(1 for e in new if e["type"] == "ActivationEnded")
            if not ended and not last:
                continue
            acts += ended
            what = f"activation {acts}"
        else:
            if g.turn == turn and not last:
                continue
            what = f"end of turn {turn}" if g.turn != turn else f"turn {turn}"
            turn = g.turn
        yield caption(what), render_rgb(g, scale, side=side, caption=caption(what))


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
