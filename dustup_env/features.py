"""What the table shows beyond the units, as one side may know it, and how the page and the pictures draw it.

* :func:`entities`: the table entities that are not units (``game.entities``: fire-support target markers real and
  dummy, minefields, smoke and fire markers, buildings' state, drones), from ``game.view(side)["entities"]`` only
  (a side never sees an entity it may not know of, nor which target marker is real: a dummy and the real marker are
  the same kind and look the same); ``side=None``: every entity on the table (a spectator);
* :func:`terrain`: the dynamic terrain (``game.terrain``: wrecks, and smoke, fire and rubble as their rules place
  them), seen by both sides;
* :func:`bursts`: the latest rounds and bombs to land, from the side's own event log: each impact point with its
  blast radius and, for a round that scattered, the line from where it was aimed;
* :func:`aircraft`: each aircraft on the table the side sees, with its flight state (airborne, hovering, grounded);
* :func:`style` / :func:`styles`: one look per kind (:data:`STYLES`), found by the kind's name, with a fallback for
  a kind no style names (a dashed outline labelled with the kind), and the legend's line for each.

Everything is plain data in rules units; the page (``dustup serve``) receives it in the table view
(:func:`dustup_env.service.views.table_view`), the pictures (:func:`dustup_env.render.render_rgb`) draw it.
"""
from __future__ import annotations

from .rules.kernel import table

# one look per kind: the text map's character, fill (RGB hex) and its opacity, outline, whether the outline is
# dashed, a glyph at the point (cross: a target marker; diamond: a drone; x: a mine; star: a burst; none), the short
# label drawn beside it and the legend's line
STYLES: dict[str, dict] = {
    "fire_target": {"char": "X", "fill": None, "stroke": "#b00020", "dash": False, "glyph": "cross", "label": "target",
                    "legend": "target marker of a fire-support request (real or dummy: they look the same)"},
    "burst": {"char": "@", "fill": "#ff8c00", "opacity": 0.35, "stroke": "#c05000", "dash": False, "glyph": "star",
              "label": "", "legend": "burst: where a round or bomb landed, its blast radius (dashed line: its scatter)"},
    "aircraft": {"fill": None, "stroke": "#202020", "dash": True, "glyph": "none", "label": "",
                 "legend": "aircraft on the table (dashed ring: airborne or hovering; A/H/G: airborne, hovering, "
                           "grounded)"},
    "smoke": {"char": ":", "fill": "#9e9e9e", "opacity": 0.55, "stroke": "#6e6e6e", "dash": False, "glyph": "none",
              "label": "smoke", "legend": "smoke (blocks line of sight)"},
    "fire": {"char": "!", "fill": "#e8590c", "opacity": 0.5, "stroke": "#b03000", "dash": False, "glyph": "none",
             "label": "fire", "legend": "fire (burning)"},
    "rubble": {"char": "&", "fill": "#8d7b68", "opacity": 0.75, "stroke": "#5a4a3a", "dash": True, "glyph": "none",
               "label": "rubble", "legend": "rubble"},
    "wreck": {"char": ";", "fill": "#4a4a4a", "opacity": 0.6, "stroke": "#2a2a2a", "dash": False, "glyph": "none",
              "label": "", "legend": "wreck"},
    "soft_wreck": {"char": ";", "fill": "#7a6a5a", "opacity": 0.6, "stroke": "#4a3a2a", "dash": False, "glyph": "none",
                   "label": "", "legend": "wreck of a soft-skinned vehicle"},
    "minefield": {"char": "M", "fill": "#c62828", "opacity": 0.15, "stroke": "#8e0000", "dash": True, "glyph": "x",
                  "label": "mines", "legend": "minefield (as your side knows it)"},
    "mine": {"char": "x", "fill": "#c62828", "opacity": 0.25, "stroke": "#8e0000", "dash": True, "glyph": "x",
             "label": "mine", "legend": "mine, IED or booby trap (as your side knows it)"},
    "building": {"char": "H", "fill": "#b6927a", "opacity": 0.4, "stroke": "#5a3a2a", "dash": False, "glyph": "none",
                 "label": "building", "legend": "building (its damage beside it)"},
    "drone": {"char": "$", "fill": None, "stroke": "#202020", "dash": False, "glyph": "diamond", "label": "drone",
              "legend": "drone"},
    "marker": {"char": "X", "fill": None, "stroke": "#303030", "dash": False, "glyph": "cross", "label": "marker",
               "legend": "marker"},
}
# a kind no style names is matched by a word in its name, in this order (a rule's own kinds: "smoke_cloud",
# "burning_building", "ap_minefield", "ied", ...)
_WORDS = (("smoke", "smoke"), ("fire", "fire"), ("burn", "fire"), ("flame", "fire"), ("rubble", "rubble"),
          ("wreck", "wreck"), ("minefield", "minefield"), ("mine", "mine"), ("ied", "mine"), ("trap", "mine"),
          ("drone", "drone"), ("building", "building"), ("bunker", "building"), ("fortif", "building"),
          ("target", "fire_target"), ("marker", "marker"))
FALLBACK = {"char": "\"", "fill": None, "stroke": "#404040", "dash": True, "glyph": "none"}


def style_name(kind: str) -> str | None:
    """The name of the style of ``kind`` in :data:`STYLES` (None: the fallback)."""
    if kind in STYLES:
        return kind
    low = kind.lower()
    for word, name in _WORDS:
        if word in low:
            return name
    return None


def style(kind: str) -> dict:
    """The look of ``kind``: its style, or the fallback (a dashed outline) labelled with the kind itself."""
    name = style_name(kind)
    if name is not None:
        return {"opacity": 1.0, **STYLES[name], "name": name}
    text = kind.replace("_", " ")
    return {**FALLBACK, "opacity": 1.0, "label": text, "legend": text, "name": kind}


def possible_kinds(game) -> list[str]:
    """Every kind this game may draw beyond its units: its rules' entity and dynamic-terrain kinds, bursts where
    rounds or bombs may land, aircraft where there are aircraft (the legend lists them all, so that every picture
    of a game has the same legend)."""
    kinds = list(game.rules.entity_kinds) + [k for k in game.rules.terrain if k not in game.rules.entity_kinds]
    if _has_aircraft(game):
        kinds.append("aircraft")
    if "fire_target" in game.rules.entity_kinds or _has_aircraft(game):
        kinds.append("burst")
    return kinds


def styles(game) -> dict:
    """``{style name: style}`` for :func:`possible_kinds`, each once, in that order (the legend)."""
    out: dict = {}
    for k in possible_kinds(game):
        s = style(k)
        out.setdefault(s["name"], s)
    return out


# ---------------------------------------------------------------------------------------------- what a side knows
def entities(game, side: int | None, view: dict | None = None) -> list[dict]:
    """The table entities ``side`` may know of (``view``: its ``game.view(side)`` if already built); ``None``: every
    entity on the table.  Each ``{"ref", "kind", "owner", "x", "y", "shape", "state", "style"}``: ``shape`` None (a
    point), ``{"shape": "circle", "r"}`` or ``{"shape": "polygon", "points"}`` (offsets from x, y)."""
    if not game.rules.entity_kinds:
        return []
    if side is None:
        raw = [{"ref": e["id"], "kind": e["kind"], "owner": e["owner"], "x": e["x"], "y": e["y"],
                "shape": table.plain_copy(e["shape"]) if e["shape"] else None, "state": table.plain_copy(e["state"])}
               for e in game.entities if not e["removed"]]
    else:
        raw = (view if view is not None else game.view(side)).get("entities", [])
    keys = ("ref", "kind", "owner", "x", "y", "shape", "state")
    return [{k: e.get(k) for k in keys} | {"style": style_name(e["kind"]) or e["kind"]} for e in raw]


def terrain(game) -> list[dict]:
    """The dynamic terrain, each ``{"kind", "shape": "circle", "x", "y", "r"}`` or ``{"kind", "shape": "polygon",
    "points"}`` (rules units) with its ``style``.  Every feature placed so far is seen by both sides."""
    out = []
    for f in game.terrain:
        rec = {"kind": f["kind"], "shape": f["shape"], "style": style_name(f["kind"]) or f["kind"]}
        if f["shape"] == "circle":
            rec.update(x=f["x"], y=f["y"], r=f["r"])
        else:
            rec["points"] = [list(p) for p in f["points"]]
        out.append(rec)
    return out


BOMB_RADIUS = 4.0  # aerospace_operations.ordnance.BOMB_RADIUS (checked by the tests)


def bursts(game, side: int | None, log: list | None = None) -> list[dict]:
    """The rounds and bombs that landed this turn and the turn before, from ``side``'s event log (``None``: the whole
    log): ``{"x", "y", "r", "origin": [x, y] or None, "on_target", "ammo", "age"}``, ``age`` 0 this turn, 1 the
    turn before; ``origin``: where a round that scattered was aimed.  Any event with a point ``at`` and a
    ``radius`` is a burst (a round of a fire mission), and so is a deadfall bomb."""
    if not ("fire_target" in game.rules.entity_kinds or _has_aircraft(game)):
        return []
    turn = game.turn
    if log is None:
        tail = _recent_events(game, turn - 1)
        if not any(_is_burst(e) for e in tail):
            return []  # (no round landed lately: the side's whole log is not read)
        log = [e.to_dict() for e in tail] if side is None else game.event_log(side)
    out = []
    now = 0
    for e in log:
        t = e.get("type")
        if t == "TurnStarted":
            now = e.get("turn", now)
            continue
        if now < turn - 1:
            continue
        if "at" in e and "radius" in e and isinstance(e["at"], (list, tuple)) and len(e["at"]) == 2:
            scattered = not e.get("on_target", True) and e.get("origin") is not None
            out.append({"x": e["at"][0], "y": e["at"][1], "r": e["radius"],
                        "origin": list(e["origin"]) if scattered else None, "on_target": bool(e.get("on_target", True)),
                        "ammo": e.get("ammo", ""), "age": 0 if now >= turn else 1})
        elif t == "BombDropped":
            out.append({"x": e["x"], "y": e["y"], "r": BOMB_RADIUS, "origin": None, "on_target": True,
                        "ammo": "bomb", "age": 0 if now >= turn else 1})
    return out


def _recent_events(game, since_turn: int) -> list:
    """The game's events (objects) from the start of turn ``since_turn`` (those a clone without its log kept)."""
    events = game.events
    i = len(events)
    while i > 0:
        e = events[i - 1]
        if type(e).__name__ == "TurnStarted" and getattr(e, "turn", 0) <= since_turn:
            return events[i - 1:]
        i -= 1
    return events


def _is_burst(e) -> bool:
    return type(e).__name__ == "BombDropped" or (getattr(e, "radius", None) is not None
                                                 and getattr(e, "at", None) is not None)


def _has_aircraft(game) -> bool:
    from dustup_env.rules.aerospace_operations.air import aircraft_states
    return bool(aircraft_states(game))


def aircraft(game, known_uids) -> dict:
    """``{uid: {"mode", "type"}}`` for each aircraft on the table among ``known_uids`` (the units the reader sees):
    its flight state (airborne, hovering, grounded) and its type (vtol, aerospace, grav); its position and facing
    are the unit's."""
    from dustup_env.rules.aerospace_operations.air import aircraft_states
    states = aircraft_states(game)
    if not states:
        return {}
    out = {}
    for uid in known_uids:
        a = states.get(str(uid))
        u = game.units[uid]
        if a is None or a.get("mode") not in ("airborne", "hovering", "grounded") or u.location != "table":
            continue
        air = u.profile.vehicle.air if u.profile.vehicle is not None else None
        out[uid] = {"mode": a["mode"], "type": getattr(air, "kind", "vtol") if air is not None else "vtol"}
    return out
