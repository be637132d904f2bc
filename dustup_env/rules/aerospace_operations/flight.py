"""Aircraft on the Table (seed 000 L1732-1768): flying, hovering, landing and taking off, leaving the table,
spotting from the air.

An aircraft on the table is airborne (moving), hovering or grounded (L1734; RN-158).  Airborne it has two actions
like any vehicle (L1736) and its options are those below plus the vehicle fire, detection, communication, rally and
order options of the other rules; the ground moves are not offered (L1738).

* ``("air_fly", x, y)``: a move action straight to a point of the table's point grid (RN-157: "anywhere on the
  table", turning at most 90 degrees from its facing at the start of the move, then facing its movement, L1746).
  A non-VTOL aircraft moves at least 24" (L1744) and must fly in at least one action of its activation (no
  ``("end",)`` before, and its last action must be a move or leaving the table).  A VTOL aircraft (or an airborne
  grav vehicle) that moves 12" or less may move in any direction (L1750).  The flight is resumable: the aircraft
  goes 1" at a time and at each step the ``move_step`` reaction window opens (on-table anti-aircraft fire,
  :mod:`.anti_aircraft`); after the reactions it flies on from where it was, or stops there.
* ``("air_hover", dir)``: a VTOL aircraft hovers where it is, rotating to face ``dir`` (L1752).  A VTOL aircraft that
  does not move during an activation is hovering at its end (L1750).
* ``("air_land",)``: a VTOL aircraft lands (one action, L1754) on a landing zone (:func:`landing_zone`, L1826-1830).
* ``("air_take_off",)``: a grounded VTOL aircraft takes off and hovers (one action, L1754), unless it landed heavily.
* ``("air_leave", where)``: off the table to the loiter box or box one of the inbound track (L1738).

Grounded, an aircraft does not move (L1756: without wheels on a paved surface, RN-1503), loads and unloads passengers
like any vehicle (the transport rules, L1818-1820); a grounded grav vehicle moves as a ground vehicle (L1758).
Passengers cannot mount or dismount an aircraft in the air (L1818: "Grounded aircraft can load and unload").
An aircraft in the air that fires is an "aerospace attack" (L1134): the target's confidence test after its fire
(infantry or vehicle) takes the artillery modifier (the ``aerospace_attack`` service, RN-1973).
Spotting: an aircraft's line of sight ignores the terrain except smoke (L1762; the kernel's airborne observer,
RN-159, RN-990): it may try to detect a marker only that line reaches (:func:`_spot_options`, the Detect Action's
attempt).  Only anti-aircraft weapons fire at an aircraft in the air (L1792): no other option names one.
"""
from __future__ import annotations

import math

from ..armoured_dustup.vehicle_movement import carry_along
from ..armoured_dustup.vehicles import bearing
from ..kernel.battlefield import observer, observer_of
from ..kernel.decisions import Frame
from ..kernel.dice import D4, D8
from ..kernel.entities import BROKEN, Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.measurement import grid_points
from ..kernel.sequence import pop, window
from ..kernel.table import place
from ..unit_actions.detect_action import max_range
from ..unit_actions.shoot_action import shoot_geometry
from . import air
from .air import AIRBORNE, BASE, GROUNDED, HOVERING, LOITER, TRACK, air_state, airborne, is_aircraft, vtol
from ..armoured_dustup.vehicles import vehicle_state

FLIGHT = "air_flight"
STEP = 1.0  # inches between two steps of a flight (where anti-aircraft fire may react)
MIN_FAST_MOVE = 24.0  # L1744
FREE_MOVE = 12.0  # L1750
MAX_TURN = 90.0  # L1738
TURN_STEP = 360.0 / 16
FIXED_CORRIDOR = 6.0  # L1772
FIXED_MIN_FAST, FIXED_MIN_VTOL = 24.0, 12.0  # L1772
TURRET_DEAD_ZONE = 6.0  # L1770
CENTRAL_ARC = 90.0  # L1788
AIRBORNE_ACTIONS = frozenset({"end", "recover", "detect", "communicate", "rally", "order", "panic_test",
                              "fire_vehicle", "fire_slaved", "air_fly", "air_hover", "air_land", "air_leave",
                              "air_bomb", "drop_cargo", "aa_fire_at"})  # aa_fire_at: with the air_to_air option only (RN-1853)
GROUNDED_ACTIONS = frozenset({"end", "recover", "detect", "communicate", "rally", "order", "panic_test",
                              "fire_vehicle", "fire_slaved", "hatches", "reorganise", "air_take_off",
                              "aa_fire_at"})  # grounded, its anti-aircraft weapon fires as an on-table one
LZ_HEAVY = frozenset({"building", "dense_woods", "light_woods", "river", "open_water", "swamp", "ford"})
LZ_LIGHT = frozenset({"rough", "light_scrub", "cultivated", "slopes"})  # RN-1506


@event
class AircraftFlew(Event):
    unit: int
    start: tuple
    end: tuple
    facing: float


@event
class AircraftHovering(Event):
    unit: int
    facing: float


@event
class AircraftLanded(Event):
    unit: int
    zone: str  # clear | light
    roll: int  # the quality roll on a lightly obstructed LZ (0: none)
    heavy: bool


@event
class AircraftTookOff(Event):
    unit: int


def turn_off(facing: float, b: float) -> float:
    return abs((b - facing + 180.0) % 360.0 - 180.0)


def may_fly_to(game, u: Unit, x: float, y: float) -> bool:
    """RN-157: a move straight to (x, y), turning at most 90 degrees (a VTOL within 12" in any direction); a
    non-VTOL aircraft at least 24"."""
    d = math.hypot(x - u.x, y - u.y)
    if d < 0.5:
        return False
    if not vtol(u):
        if d < MIN_FAST_MOVE:
            return False
    elif d <= FREE_MOVE:
        return True
    return turn_off(u.veh.facing, bearing(u.x, u.y, x, y)) <= MAX_TURN + 1e-6


def _must_fly(game, u: Unit) -> bool:
    """A non-VTOL aircraft that has not flown this activation and is on its last action (L1744)."""
    if vtol(u) or air_state(game, u)["flown"]:
        return False
    f = game.activation_frame()
    return f is None or f.unit != u.uid or f.actions_left <= 1


def landing_zone(game, u: Unit) -> str:
    """RN-162: the LZ is a circle of the design's LZ diameter (6", 12", 18"; L1828-1830) under the aircraft: heavily
    obstructed (not allowed) with a figure of any unit in it (L1826: "including troops"), blocking terrain or water;
    lightly obstructed with rough ground, scrub, crops or slopes; else clear (RN-1506)."""
    r = u.profile.vehicle.air.landing_zone / 2.0 if u.profile.vehicle.air is not None else 3.0
    for t in game.units:
        if t is u or not t.in_play or t.veh.carrier >= 0 or t.uid in u.veh.passengers:
            continue
        if any(math.hypot(x - u.x, y - u.y) <= r for x, y in t.figure_positions()):
            return "heavy"
    bf = game.bf
    light = False
    n = int(r)
    pts = [(u.x + i, u.y + j) for i in range(-n, n + 1) for j in range(-n, n + 1) if i * i + j * j <= r * r]
    pts += [(u.x + r * math.sin(a), u.y + r * math.cos(a)) for a in (k * math.pi / 8 for k in range(16))]
    for x, y in pts:  # the zone sampled every inch and around its edge
        if not (0.0 <= x <= bf.width and 0.0 <= y <= bf.height):
            return "heavy"
        t = bf.terrain_at(x, y)
        if t in LZ_HEAVY:
            return "heavy"
        if t in LZ_LIGHT:
            light = True
    return "light" if light else "clear"


# ---------------------------------------------------------------------------------------------- options
def _options(game, u: Unit, status) -> list:
    a = air_state(game, u)
    if a is None:
        return []
    if a["mode"] == GROUNDED:
        return [] if a["heavy"] else [("air_take_off",)]
    out = []
    for x, y in grid_points(game.bf.width, game.bf.height):
        if may_fly_to(game, u, x, y):
            out.append(("air_fly", x, y))
    if vtol(u):
        out.extend(("air_hover", d) for d in range(16))
        if landing_zone(game, u) != "heavy":
            out.append(("air_land",))
    out.append(("air_leave", "loiter"))
    out.append(("air_leave", "inbound"))
    return out


def _filter(game, u: Unit, opts: list) -> list:
    a = air_state(game, u)
    if a is None:
        if u.veh.carrier >= 0:
            c = air_state(game, game.units[u.veh.carrier])
            if c is not None and c["mode"] != GROUNDED:
                return [o for o in opts if o[0] != "dismount" or o[0] in ("air_drop",)]
        return [o for o in opts if not names_flying(game, u, o)]
    if a["mode"] == GROUNDED:
        if air.kind(u) == "grav":
            return [o for o in opts if not names_flying(game, u, o)]
        return [o for o in opts if o[0] in GROUNDED_ACTIONS and (o[0] not in ("fire_vehicle", "fire_slaved")
                                                                 or _may_fire(game, u, o))
                and not names_flying(game, u, o)]
    # only anti-aircraft fire reaches an aircraft in the air, from an aircraft too (L1792, RN-1853)
    kept = [o for o in opts if o[0] in AIRBORNE_ACTIONS and (o[0] not in ("fire_vehicle", "fire_slaved")
                                                             or _may_fire(game, u, o))
            and not names_flying(game, u, o)]
    if _must_fly(game, u):
        kept = [o for o in kept if o[0] in ("air_fly", "air_leave")]
    elif not vtol(u) and not a["flown"]:
        kept = [o for o in kept if o[0] != "end"]
    return kept


def weapon_may_fire(game, u: Unit, w, t: Unit) -> bool:
    """Firing from Aircraft (L1768-1776): a fixed weapon (unguided rockets too) fires only in the air, at a target
    in the 6" corridor straight ahead, 24" or more away (a VTOL aircraft, which can pitch, 12"); a turret weapon
    cannot fire at a target within 6" of the point under an aircraft in the air.  (Guided weapons keep their
    forward 180 degree arc; other weapons their arcs.)"""
    grounded = air_state(game, u)["mode"] == GROUNDED
    dx, dy = t.x - u.x, t.y - u.y
    dist = math.hypot(dx, dy)
    if w.mount == "fixed" and w.category != "guided":
        if grounded and air.kind(u) != "grav":
            return False
        h = math.radians(u.veh.facing)
        ahead = dx * math.sin(h) + dy * math.cos(h)
        across = abs(dx * math.cos(h) - dy * math.sin(h))
        return ahead > 0.0 and across <= FIXED_CORRIDOR / 2.0 and dist >= (FIXED_MIN_VTOL if vtol(u) else
                                                                             FIXED_MIN_FAST)
    if w.mount == "turret" and not grounded:
        return dist > TURRET_DEAD_ZONE
    return True


def aircraft_guidance(game, u: Unit, t: Unit, w, plan: dict) -> dict:
    """L1788: a guided weapon fired from an aircraft in the air at a target outside the central 90 degrees of its
    facing has its guidance die shifted down by one (closed at D4); the forward 180 degrees is the weapon's arc (the
    ``aircraft_guidance`` service the vehicle fire rules call)."""
    a = air_state(game, u)
    if a is None or a["mode"] not in (AIRBORNE, HOVERING):
        return plan
    if turn_off(u.veh.facing, bearing(u.x, u.y, t.x, t.y)) <= CENTRAL_ARC / 2.0 + 1e-9:
        return plan
    return dict(plan, guidance=max(plan["guidance"] - 1, D4))


def aircraft_observer(game, u: Unit):
    """The observer whose line of sight a guided missile fired from ``u`` follows (L1788: "the same firing procedure
    as ground based guided weapons", from the aircraft): an aircraft in the air sees as an airborne observer (the
    terrain ignored, smoke not: L1762, RN-159, RN-1910); None (the ground's line) for any other firer (the
    ``aircraft_observer`` service the Guided Weapons rules call)."""
    a = air_state(game, u)
    if a is None or a["mode"] not in (AIRBORNE, HOVERING):
        return None
    return observer(u.sensor >= D8, airborne=True)


def aircraft_geometry(game, u: Unit, t: Unit):
    """(concealment, cover) of a direct-fire shot from ``u`` at ``t``, or None without a line of sight: from an
    aircraft in the air the line ignores the terrain except smoke (L1762, RN-159), the target's own concealing
    terrain and cover still count; otherwise the Shoot Action's (the ``aircraft_geometry`` service)."""
    a = air_state(game, u)
    if a is None or a["mode"] not in (AIRBORNE, HOVERING):
        return shoot_geometry(game, u, t)
    bf = game.bf
    s = bf.sight_for(observer(u.sensor >= D8, airborne=True), u.x, u.y, t.x, t.y)
    if not s.visible:
        return None
    conc = 2 if t.complete_concealment else (1 if s.concealed or bf.conceals(t.x, t.y) else 0)
    return conc, max(s.cover, bf.cover_at(t.x, t.y))


def _may_fire(game, u: Unit, o: tuple) -> bool:
    t = game.units[o[1]]
    ws = u.profile.vehicle.weapons
    if o[0] == "fire_vehicle":
        return o[2] < len(ws) and weapon_may_fire(game, u, ws[o[2]], t)
    return all(weapon_may_fire(game, u, w, t) for w in ws if w.slaved)


_TARGETING = frozenset({"mount", "approach", "regroup", "treat"})  # options naming a friendly unit to reach it
_UNIT_ARGS: dict = {}  # id(rule set) -> (rule set, {option name: positions of its unit arguments})


def unit_arguments(game) -> dict:
    """Option name -> the positions (1-based) of its ``own`` and ``enemy`` arguments, from the families the game's
    rules declare (so a weapon slot, a marker or a direction is never read as a unit)."""
    hit = _UNIT_ARGS.get(id(game.rules))
    if hit is not None and hit[0] is game.rules:
        return hit[1]
    m: dict = {}
    for r in game.rules:
        for f in r.families:
            for i, k in enumerate(f.args):
                if k == "enemy" or (k == "own" and f.name in _TARGETING):
                    m.setdefault(f.name, set()).add(i + 1)
    if len(_UNIT_ARGS) > 64:
        _UNIT_ARGS.clear()
    _UNIT_ARGS[id(game.rules)] = (game.rules, m)
    return m


def names_flying(game, u: Unit, o: tuple) -> bool:
    """Whether option ``o`` of unit ``u`` names an aircraft in the air as its target (only anti-aircraft fire reaches
    one, L1792, RN-1514; no one mounts or approaches one, L1818)."""
    if o[0] == "aa_fire_at":
        return False
    pos = unit_arguments(game).get(o[0])
    if not pos:
        return False
    for i in pos:
        if i < len(o):
            v = o[i]
            if isinstance(v, int) and 0 <= v < len(game.units) and airborne(game, game.units[v]):
                return True
    return False


def _spot_options(game, u: Unit, status) -> list:
    """Spotting from Aircraft (L1760-1762): one Detect attempt an action, "all areas of the table" in sight unless
    smoke: an aircraft in the air is also offered the markers that only its airborne line of sight reaches (the
    Detect Action offers those its ground line reaches; the attempt itself is the Detect Action's, RN-159)."""
    a = air_state(game, u)
    markers = game.markers
    if a is None or a["mode"] not in (AIRBORNE, HOVERING) or not markers or status.disorganised:
        return []
    reach = max_range(game, u)
    ground = game.bf.sight_fn(observer_of(u))
    aloft = game.bf.sight_fn(observer(u.sensor >= D8, airborne=True))
    out = []
    for i, m in enumerate(markers):
        if m["removed"] or m["side"] == u.side or math.hypot(m["x"] - u.x, m["y"] - u.y) >= reach:
            continue
        if aloft(u.x, u.y, m["x"], m["y"]).visible and not ground(u.x, u.y, m["x"], m["y"]).visible:
            out.append(("detect", i))
    return out


# ---------------------------------------------------------------------------------------------- actions
def _fly(game, u: Unit, opt) -> bool:
    x, y = float(opt[1]), float(opt[2])
    b = bearing(u.x, u.y, x, y)
    vehicle_state(u).facing = b  # L1746: faces its movement (a VTOL moving slowly too, RN-1504)
    a = air_state(game, u)
    a["mode"] = AIRBORNE
    data = {"sx": u.x, "sy": u.y, "px": x, "py": y, "x": u.x, "y": u.y, "travelled": 0.0,
            "length": math.hypot(x - u.x, y - u.y), "points": 0.0, "spent": 0.0}
    frame = Frame(FLIGHT, u.uid, 0, False, data)
    game.stack.append(frame)
    fly(game, frame)
    return False


def fly(game, frame) -> None:
    """Fly a ``air_flight`` frame on from where it is, 1" a step; the ``move_step`` window opens at each step."""
    d = frame.data
    u = game.units[frame.unit]
    react = game.rules.reactions["move_step"]
    length = d["length"]
    while d["travelled"] < length - 1e-9:
        step = min(STEP, length - d["travelled"])
        d["travelled"] += step
        t = d["travelled"] / length
        d["x"] = d["sx"] + (d["px"] - d["sx"]) * t
        d["y"] = d["sy"] + (d["py"] - d["sy"]) * t
        place(game, u, d["x"], d["y"], "flight", point=False)
        carry_along(game, u)
        if react and window(game, "move_step", None, u, frame):
            return
    end_flight(game, frame)


def end_flight(game, frame) -> None:
    d = frame.data
    u = game.units[frame.unit]
    a = air_state(game, u)
    if u.in_play and a["mode"] in (AIRBORNE, HOVERING):
        a["flown"] = True
        game.emit(AircraftFlew(u.uid, (round(d["sx"], 3), round(d["sy"], 3)), (round(u.x, 3), round(u.y, 3)),
                               round(u.veh.facing, 3)))
    pop(game, frame)


class Flight:
    """Frame ``air_flight``: an aircraft's move being flown (data: start ``sx``, ``sy``, destination ``px``,
    ``py``, the point reached ``x``, ``y``, ``travelled`` of ``length``).  A reaction pushed at a step waits above
    it; when it pops the flight goes on, or ends where it is if the reaction halted it or the aircraft is no longer
    in the air."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        u = game.units[frame.unit]
        if frame.data.get("halted") or not airborne(game, u):
            end_flight(game, frame)
        else:
            fly(game, frame)


def _hover(game, u: Unit, opt) -> None:
    air_state(game, u)["mode"] = HOVERING
    vehicle_state(u).facing = opt[1] * TURN_STEP
    game.emit(AircraftHovering(u.uid, u.veh.facing))


def _land(game, u: Unit, opt) -> None:
    """L1754, L1826: landing takes an action; a lightly obstructed LZ needs the vehicle's quality die to score 3 or
    more, else it lands heavily and cannot take off again (RN-162)."""
    a = air_state(game, u)
    zone = landing_zone(game, u)
    roll = 0
    if zone == "light":
        roll = game.dice.roll(u.quality)
        a["heavy"] = roll < 3
    a["mode"] = GROUNDED
    game.emit(AircraftLanded(u.uid, zone, roll, a["heavy"]))


def _take_off(game, u: Unit, opt) -> None:
    air_state(game, u)["mode"] = HOVERING
    game.emit(AircraftTookOff(u.uid))


def _leave(game, u: Unit, opt) -> None:
    air.leave(game, u, LOITER if opt[1] == "loiter" else TRACK, "left")


def _on_activation(game, u: Unit) -> None:
    a = air_state(game, u)
    if a is not None:
        a["flown"] = False


def _activation_end(game, u: Unit, frame) -> None:
    """L1750: a VTOL aircraft that did not move during its activation is hovering."""
    a = air_state(game, u)
    if a is not None and a["mode"] == AIRBORNE and vtol(u) and not a["flown"]:
        a["mode"] = HOVERING
        game.emit(AircraftHovering(u.uid, u.veh.facing))


def _after_apply(game, decision, option) -> None:
    """An aircraft in the air whose crew is broken or routed aborts and returns to base (RN-1505)."""
    for key, a in air.aircraft_states(game).items():
        if a["mode"] not in (AIRBORNE, HOVERING):
            continue
        u = game.units[int(key)]
        if u.in_play and u.confidence >= BROKEN:
            air.leave(game, u, BASE, "broken")
            top = game.stack[-1] if game.stack else None
            if top is not None and top.type == "activation" and top.unit == u.uid and game.phase != "over":
                game.end_activation()



RULE = Rule(
    "Aerospace Operations: aircraft on the table",
    'seed 000 "Aircraft on the Table", "Non-VTOL Aircraft", "VTOL Aircraft", "Grav Vehicles", "Landing Zones"',
    applies=air.has_aircraft,
    action_options=(_options, _spot_options),
    action_filters=(_filter,),
    actions={"air_fly": _fly, "air_hover": _hover, "air_land": _land, "air_take_off": _take_off, "air_leave": _leave},
    procedures={FLIGHT: Flight()},
    services={"aircraft_guidance": aircraft_guidance, "aircraft_geometry": aircraft_geometry,
              "aircraft_observer": aircraft_observer, "aerospace_attack": air.airborne},
    on_activation=(_on_activation,),
    activation_end=(_activation_end,),
    after_apply=(_after_apply,),
    families=(Family("air_fly", ("point",), 142, "an aircraft flies straight to this point (RN-157)"),
              Family("air_hover", ("dir",), 143, "a VTOL aircraft hovers, facing this direction (mirrored like moves)"),
              Family("air_land", (), 144, "a VTOL aircraft lands"),
              Family("air_take_off", (), 145, "a grounded VTOL aircraft takes off"),
              Family("air_leave", (("loiter", "inbound"),), 146,
                     "an aircraft leaves the table for the loiter box or box one of the inbound track")),
)
