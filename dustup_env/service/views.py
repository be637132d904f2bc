"""JSON for front-ends: the table as one side knows it, the pending decision with labelled options, events.

Everything a side receives is built from ``game.view(side)``, ``game.event_log(side)`` and the scenario's
static geometry (table, terrain, obstacles, objectives: ``game.scenario``, in rules units), never from
the game's hidden state.  A spectator (replays) gets the union of both sides' views.
"""
from __future__ import annotations

import math

from dustup_env import features
from dustup_env import narrate as nr
from dustup_env.rules import die_name

FIGURE_STATUS = ("ok", "wounded", "treated", "killed", "disabled")
OBJECTIVE_RADIUS = 3.0  # rules.game.OBJECTIVE_RADIUS (checked by the tests)

# options whose first argument is a unit of the acting side / an enemy unit / a marker (for clicking)
OWN_UNIT_OPTIONS = frozenset({"activate", "inbound", "order", "rally", "choose", "activate_detachment", "regroup",
                              "treat", "seize", "mount", "approach", "tow", "push", "area_protection", "call_casevac",
                              "transfer"})
ENEMY_UNIT_OPTIONS = frozenset({"shoot", "shoot_weapon", "throw", "assault", "combined_assault", "add_defender",
                                "follow", "resolve", "fire_heavy", "fire_iavr", "fire_guided", "fire_vehicle",
                                "fire_slaved", "fire_pair", "shoot_passengers", "passenger_shoot", "assault_vehicle",
                                "tank_shock"})
VEHICLE_OPTIONS = frozenset({"mount", "dismount", "approach", "tow", "push", "unhook", "turn", "hatches", "fire_heavy",
                             "fire_iavr", "fire_guided", "fire_vehicle", "fire_slaved", "fire_pair", "shoot_passengers",
                             "passenger_shoot", "assault_vehicle", "tank_shock", "decoy", "area_protection",
                             "call_casevac", "transfer", "depart"})
MARKER_OPTIONS = frozenset({"detect"})


def _direction(d: int) -> tuple[float, float]:
    a = 2 * math.pi * (int(d) % 16) / 16
    return math.sin(a), math.cos(a)  # 0 = north (+y), clockwise (rules.move_action.DIR_VECTORS)


# ------------------------------------------------------------------------------------------------ geometry
def geometry(game) -> dict:
    """The static battlefield (rules units; ``"length"``: ``"in"`` or ``"cm"``)."""
    scn = game.scenario
    return {
        "scenario": scn.get("name", ""), "description": scn.get("description", ""),
        "table": {"width": scn["table"]["width"], "height": scn["table"]["height"],
                  "length": "cm" if game.options.get("measure") == "centimetres" else "in"},
        "terrain": [{"type": t["type"], "name": t.get("name", ""), "polygon": t["polygon"]}
                    for t in scn.get("terrain", [])],
        "obstacles": [{"type": o["type"], "name": o.get("name", ""), "line": o["line"]}
                      for o in scn.get("obstacles", [])],
        "objectives": [{"name": o["name"], "position": o["position"], "vp": o["vp"], "radius": OBJECTIVE_RADIUS}
                       for o in scn.get("objectives", [])],
        "sides": [{"name": s["name"], "home_edge": s["home_edge"]} for s in scn["sides"]],
        "turn_limit": scn["turn_limit"],
    }


def dynamic_terrain(game) -> list[dict]:
    """The terrain placed during the game (``game.terrain``: wrecks, and smoke, fire and rubble as their rules place
    them), each ``{"kind", "shape": "circle", "x", "y", "r"}`` or ``{"kind", "shape": "polygon", "points"}`` in rules
    units, with the ``style`` the page draws it in (:mod:`dustup_env.features`).  Every feature placed so far is
    seen by both sides (a wreck lies in the open)."""
    return features.terrain(game)


# ------------------------------------------------------------------------------------------------ units
def _in_play(u: dict) -> bool:
    if u.get("routed_off") or u.get("merged") or u.get("evacuated") or u.get("inbound"):
        return False
    return any(f["status"] == 0 for f in u["figures"])


def unit_record(u: dict) -> dict:
    """A unit as the page draws it, from a full unit entry of ``game.view``."""
    figs = u["figures"]  # empty once the unit merged into another (regrouped, rejoined)
    lf = figs[u["leader"]] if 0 <= u["leader"] < len(figs) else {"dx": 0.0, "dy": 0.0}
    bx, by = u["x"] - lf["dx"], u["y"] - lf["dy"]
    figures = []
    for i, f in enumerate(figs):
        if f["status"] == 3:  # killed: removed from the table
            continue
        figures.append({"x": round(bx + f["dx"], 3), "y": round(by + f["dy"], 3), "weapon": f["weapon"],
                        "status": FIGURE_STATUS[f["status"]] if 0 <= f["status"] < len(FIGURE_STATUS) else str(f["status"]),
                        "leader": i == u["leader"]})
    conf = u["confidence"]
    return {
        "uid": u["uid"], "side": u["side"], "name": u["name"], "kind": u["kind"],
        "x": u["x"], "y": u["y"], "figures": figures,
        "quality": die_name(u["quality"]), "lv": u["lv"], "movement": die_name(u["movement"]),
        "armour": u["armour"],
        "confidence": nr.CONFIDENCE[conf] if 0 <= conf < len(nr.CONFIDENCE) else str(conf),
        "suppression": u["suppression"], "propped": u["propped"], "concealed": u["complete_concealment"],
        "activated": u["activated"], "hidden": u["hidden"], "in_play": _in_play(u),
        "routed_off": u["routed_off"], "merged": u.get("merged", False),
        "evacuated": u.get("evacuated", False), "panicked": u.get("panicked", False), "travel": u.get("travel", False),
        "inbound": u.get("inbound", 0), "commander": u.get("commander", -1), "parent": u.get("parent", -1),
        "able": sum(1 for f in figs if f["status"] == 0), "strength": u.get("strength", len(figs)),
        "left_behind": [{"x": e[0], "y": e[1], "status": FIGURE_STATUS[e[2]] if 0 <= e[2] < 5 else str(e[2])}
                        for e in u.get("left_behind", [])],
        "location": u.get("location", "table"),  # off the table: an aircraft's loiter box or inbound track
    }


# ------------------------------------------------------------------------------------------------ armoured dustup
FOOTPRINT_BASE, FOOTPRINT_PER_SIZE = 0.5, 0.5  # armoured_dustup.vehicle_movement.footprint (checked by the tests)
HEAVY_DAMAGE = ("working", "disabled", "damaged")  # armoured_dustup.heavy_weapons.DAMAGE_NAMES
HEAVY_TASKS = frozenset({"set_up", "dismantle", "limber", "unlimber", "repair", "remote", "deploy_protection"})


def vehicle_record(game, u: dict, own: bool) -> dict:
    """A vehicle's own state as the page shows it (``own``: the reader's own vehicle, whose passengers it knows;
    an enemy vehicle's passengers are not seen)."""
    vp = u["vehicle"]
    from dustup_env.rules.armoured_dustup.fire_by_vehicles import fired_states
    fired = set(fired_states(game).get(str(u["uid"]), ()))
    names = nr.display_names(game)
    rec = {
        "design": vp["name"], "kind": vp["kind"], "size": vp["size"],
        "footprint": FOOTPRINT_BASE + FOOTPRINT_PER_SIZE * vp["size"],
        "facing": u.get("facing", 0.0), "damage": u.get("damage", 0), "immobilised": u.get("immobilised", False),
        "hatches": vp["hatches"], "opened_up": u.get("opened_up", False), "open_top": vp["open_top"],
        "soft_skinned": vp["soft_skinned"],
        "armour": {f: vp["armour"][f] for f in ("front", "side", "rear", "top")},
        "armour_class": {f: vp["armour_class"][f] for f in ("front", "side", "rear", "top")},
        "ecm": vp["ecm"], "decoy": vp["decoy"], "area_protection": vp["area_protection"],
        "transport": vp["transport_figures"],
        "weapons": [{"slot": k, "name": w["name"], "category": w["category"], "arc": w["arc"],
                     "slaved": w["slaved"], "fired": k in fired, "ready": k not in fired}
                    for k, w in enumerate(vp["weapons"])],
        "suppression": u["suppression"], "moved": u.get("moved", False),
        "towing": u.get("towing", -1), "towed_by": u.get("towed_by", -1), "hull": u.get("hull", -1),
    }
    if own:
        rec["passengers"] = [{"uid": p, "name": names.get(p, str(p))} for p in u.get("passengers", [])]
    return rec


def armoured_fields(game, u: dict) -> dict:
    """A unit's heavy weapon, area protection and ECM (plain data of the weapon rules), if it has any."""
    out = {}
    key = str(u["uid"])
    from dustup_env.rules.armoured_dustup import heavy_weapons as hw
    from dustup_env.rules.armoured_dustup.guided_weapons import protection_states
    st = hw.weapon_states(game).get(key)
    if st is not None:
        prof = hw.weapon_of(game, game.units[u["uid"]])
        towed = prof is not None and prof.carriage == "towed"
        ready = bool(st.get("ready"))
        out["heavy_weapon"] = {
            "design": prof.name if prof is not None else "", "weapon": prof.weapon.name if prof is not None else "",
            "carriage": prof.carriage if prof is not None else "",
            "guided": bool(prof is not None and prof.weapon.guidance),
            "state": "set up" if ready else ("limbered" if towed else "dismantled"),
            "damage": HEAVY_DAMAGE[st.get("damage", 0)] if 0 <= st.get("damage", 0) < 3 else str(st.get("damage")),
            "fired": bool(st.get("fired")), "abandoned": bool(st.get("abandoned")), "remote": bool(st.get("remote")),
            "at": st.get("at")}
    ps = protection_states(game).get(key)
    if ps is not None:
        out["area_protection"] = {"die": ps.get("die"), "state": ps.get("state"), "at": ps.get("at")}
    spec = None
    try:
        from dustup_env.rules.armoured_dustup import heavy_weapons as hw
        spec = hw.spec_of(game, game.units[u["uid"]])
    except (KeyError, IndexError):  # pragma: no cover - a unit the scenario did not build
        pass
    if spec is not None and "ecm" in spec:
        out["ecm"] = spec["ecm"]
    return out


def known_units(raw_units: list, side: int | None) -> list:
    """The unit entries of a view that ``side`` may see: the engine's view already reduces an enemy unit mounted in
    a vehicle to an ``unseen`` stub and drops an enemy vehicle's passengers; the stubs are left out here."""
    if side is None:
        return raw_units
    return [u for u in raw_units if u["side"] == side or not u.get("unseen")]


def _score(units: list[dict], objectives: list[dict], hidden_enemies: bool, exact) -> tuple[list, list]:
    """Victory points as they stand now and each objective's holder, from the units listed."""
    if exact is not None:  # nothing of the enemy is hidden from this reader: the engine's own count
        return exact
    holders = []
    vp = [0, 0]
    for o in objectives:
        ox, oy = o["position"]
        near = [False, False]
        for u in units:
            if u["in_play"] and u["confidence"] != "routed" and math.hypot(u["x"] - ox, u["y"] - oy) <= OBJECTIVE_RADIUS:
                near[u["side"]] = True
        h = (0 if near[0] else 1) if near[0] != near[1] else -1
        holders.append(h)
        if h >= 0:
            vp[h] += o["vp"]
    for u in units:
        if not u["in_play"] and not u["inbound"] and not u["merged"] and not u["evacuated"]:
            vp[1 - u["side"]] += 1
    return vp, holders


def table_view(game, side: int | None, view: dict | None = None) -> dict:
    """The table as ``side`` knows it now (``side=None``: everything, for a spectator)."""
    geo = geometry(game)
    if side is None:
        views = [game.view(0), game.view(1)]
        full = {u["uid"]: u for s, v in enumerate(views) for u in v["units"] if u["side"] == s}
        raw_units = [full[k] for k in sorted(full)]
        markers = [m for m in views[0]["markers"]]
        for m in markers:
            own = views[m["side"]]["markers"][m["index"]]
            m["unit"] = own.get("unit", -1)
        base = views[0]
    else:
        base = view if view is not None else game.view(side)
        raw_units = known_units(base["units"], side)
        markers = base["markers"]
    units, hidden = [], []
    from dustup_env.rules.armoured_dustup import heavy_weapons as hw
    from dustup_env.rules.armoured_dustup.guided_weapons import protection_states
    armoured = hw.weapon_states(game) or protection_states(game) or any(
        "vehicle" in u or "carrier" in u for u in raw_units)
    shown = nr.display_names(game)  # unique names (the side's name first where both sides use a name)
    for u in raw_units:
        if "figures" in u:
            rec = unit_record(u)
            rec["unit_name"], rec["name"] = u["name"], shown.get(u["uid"], u["name"])
            if armoured:
                if u.get("vehicle"):
                    rec["vehicle"] = vehicle_record(game, u, side is None or u["side"] == side)
                if u.get("carrier", -1) >= 0:
                    rec["carrier"] = u["carrier"]
                rec.update(armoured_fields(game, u))
            units.append(rec)
        else:  # an enemy unit hidden from this side: its name only
            hidden.append({"uid": u["uid"], "side": u["side"], "name": shown.get(u["uid"], u["name"])})
    exact = None
    if not hidden and game.over:
        exact = (list(game.vp), [game.objective_holder(o["position"][0], o["position"][1]) for o in geo["objectives"]])
    elif not hidden:
        vp = game.victory_points()
        exact = (list(vp), [game.objective_holder(o["position"][0], o["position"][1]) for o in geo["objectives"]])
    vp, holders = _score(units, geo["objectives"], bool(hidden), exact)
    for o, h in zip(geo["objectives"], holders):
        o["holder"] = h
    out = {
        "side": side, "turn": base["turn"], "phase": base["phase"], "initiative": base["initiative"],
        **geo,
        "dynamic_terrain": dynamic_terrain(game),
        "units": units, "hidden_units": hidden,
        "markers": [{"index": m["index"], "side": m["side"], "x": m["x"], "y": m["y"],
                     **({"unit": m["unit"]} if "unit" in m else {})} for m in markers if not m["removed"]],
        "score": vp, "score_exact": exact is not None,
        "public": base.get("public", {}),
    }
    if game.rules.entity_kinds:  # table entities (target markers): what the side may know, by its refs
        out["entities"] = features.entities(game, side, base if side is not None else None)
    flying = features.aircraft(game, [u["uid"] for u in units])
    for u in units:  # an aircraft on the table: its flight state (airborne, hovering, grounded)
        if u["uid"] in flying:
            u["air"] = flying[u["uid"]]
    burst = features.bursts(game, side)
    if burst:
        out["bursts"] = burst
    looks = features.styles(game)
    if looks:  # the look of every kind this game may draw beyond its units (the page's legend)
        out["feature_styles"] = looks
    return out


# ------------------------------------------------------------------------------------------------ decisions
def option_record(opt: tuple, kind: str, unit: int, know: nr.Knowledge, positions: dict,
                  point_options: frozenset = frozenset()) -> dict:
    """An option as JSON: the array to send back, its label, and what to click for it (``point_options``: the names
    of the option families whose argument is a point of the table, ``(name, x, y)``: a target marker, an aircraft's
    flight)."""
    rec = {"option": list(opt), "label": nr.option_label(opt, kind, know, unit=unit)}
    name = opt[0]
    if name in point_options and len(opt) == 3:
        rec["point"] = [opt[1], opt[2]]
    if len(opt) > 1:
        if name in OWN_UNIT_OPTIONS:
            rec["unit"] = opt[1]
        elif name in ENEMY_UNIT_OPTIONS:
            rec["target"] = opt[1]
        elif name in MARKER_OPTIONS:
            rec["marker"] = opt[1]
    if name in VEHICLE_OPTIONS or (name == "reorganise" and len(opt) > 1 and opt[1] in HEAVY_TASKS):
        rec["group"] = "vehicle"  # the page lists these under "vehicles and heavy weapons"
    if unit in positions and name in ("turn", "dismount") and len(opt) == 2:
        x, y = positions[unit]
        vx, vy = _direction(opt[1])
        rec["point"] = [round(x + vx * 3.0, 3), round(y + vy * 3.0, 3)]
    if unit in positions and ((name == "move" and len(opt) == 3) or (name == "shift" and len(opt) == 2)):
        x, y = positions[unit]
        dist = nr.MOVE_DISTANCES[opt[2]] if name == "move" else 2.0
        vx, vy = _direction(opt[1])
        rec["point"] = [round(x + vx * dist, 3), round(y + vy * dist, 3)]
    return rec


def decision_record(game, decision, know: nr.Knowledge) -> dict:
    """The pending decision of ``know.side`` as JSON (side, kind, unit, a prompt, labelled options)."""
    d = decision
    points = frozenset(f.name for r in game.rules for f in r.families if tuple(f.args) == ("point",))
    out = {"side": d.side, "kind": d.kind, "unit": d.unit,
           "unit_name": know.unit(d.unit) if d.unit >= 0 else None,
           "prompt": nr.decision_prompt(d.side, d.kind, d.unit, know),
           "options": [option_record(o, d.kind, d.unit, know, know.positions, points) for o in d.options]}
    if d.kind == "action":
        out["actions_left"] = game.actions_left
    return out


def event_records(events: list[dict], know: nr.Knowledge, first: int = 0) -> list[dict]:
    """Events as JSON, each with its ``index`` in the reader's log and a ``text`` narration."""
    return [{**e, "index": first + i, "text": nr.narrate(e, know)} for i, e in enumerate(events)]
