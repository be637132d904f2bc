"""On-Table Anti-Aircraft Fire (seed 000 L1790-1808), and optional air-to-air fire (L1812).

Only designated anti-aircraft weapons fire at an aircraft in the air, and they have a guidance die (L1792): a
vehicle's or a heavy weapon team's weapon of the ``air_defence`` category (the LAD of seed 002), ready, whose
effective range reaches the aircraft; the line from the weapon to an aircraft ignores the terrain except smoke
(RN-159).  Each such unit fires at aircraft once a turn (RN-1507), either

* as a **reaction** during an aircraft's flight (:mod:`.flight`: the ``move_step`` window at each 1" step): the
  anti-aircraft side decides ``("aa_fire",)`` or ``("aa_hold",)`` (a unit that holds is not asked again during that
  flight); the flight goes on from where it was after the reaction, or stops there (the pilot evaded, aborted, the
  aircraft was brought down); or
* as an **action** of its own activation, ``("aa_fire_at", aircraft)``, at an aircraft in the air (hovering or not).

The fire (RN-161): **acquire**, the guidance die against the aircraft's ECM die, strictly higher; then the aircraft's
side decides the pilot's ``("air_pilot", "abort" | "evade" | "continue")``: abort leaves the table for base; evade
flies 24" straight ahead (a normal move turning no more than 90 degrees; off the table it leaves for the loiter
box, RN-1508) and ends the aircraft's move, and if the firer still sees it the guidance die must beat the ECM die
again; **engage**, the guidance die and the weapon's firepower die against the ECM die (one lower if the aircraft is
hovering): one beating it is a minor success (the pilot's confidence test at a threat level of +2; failed: it
aborts), both a major success: one hit, the impact die against the belly armour die (more than double: destroyed in
the air, falling in a 6" explosion of impact D8; more: one damage marker and an emergency landing).

Emergency landing (L1806-1808): a hovering aircraft lands where it is, a moving one D12 x 2" straight ahead; onto a
building or another vehicle it is destroyed.  Else the crash test: the crew's quality die, one lower per damage
marker above one: 1 destroyed (and explodes), 2-3 each occupant figure rolls a D6 (1 killed, 2-3 wounded), 4+ a
controlled landing; the aircraft is wrecked; the occupants are set down within 2" with 3 suppression markers.
"""
from __future__ import annotations

import math

from ..armoured_dustup import heavy_weapons as hw
from ..armoured_dustup.transport import unload_all
from ..armoured_dustup.vehicle_movement import carry_along, footprint
from ..kernel.attack import Source, burst
from ..kernel.battlefield import observer
from ..kernel.decisions import Decision, Frame
from ..kernel.dice import D6, D8, D12, parse_die, shift_closed
from ..kernel.entities import BROKEN, KILLED, OK, WOUNDED, Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.sequence import pop, push
from ..kernel.table import place, register_location
from ..morale.confidence_test import confidence_test
from . import air
from .air import AIRBORNE, BASE, GROUNDED, HOVERING, LOITER, air_state, airborne
from .flight import FLIGHT
from ..armoured_dustup.vehicles import vehicle_state

AA_FRAME = "air_aa"
PILOT_FRAME = "air_evade"
EVADE_MOVE = 24.0  # L1796
CRASH_RADIUS = 6.0  # L1802
MAX_SUPPRESSION = 3
AIRBORNE_SIGHT = observer(airborne=True)
ALOFT = register_location("air_aloft")  # only while a blast on the ground strikes (ground_burst)


@event
class AntiAircraftFire(Event):
    unit: int
    aircraft: int
    stage: str  # acquire | reacquire | engage
    guidance: int
    firepower: int  # 0 when not rolled
    ecm: int
    result: str  # acquired | lost | none | minor | major


@event
class PilotChoice(Event):
    unit: int
    choice: str


@event
class AircraftHit(Event):
    unit: int
    impact: int
    armour: int
    result: str  # none | damaged | destroyed


@event
class AircraftCrashed(Event):
    """An aircraft fell or crash-landed at (x, y): ``result`` exploded | wrecked | controlled."""
    unit: int
    x: float
    y: float
    roll: int  # the crash test (0: none)
    result: str


@event
class OccupantHurt(Event):
    unit: int
    figure: int
    roll: int
    result: str  # killed | wounded | unharmed


# ---------------------------------------------------------------------------------------------- weapons
def aa_weapon(game, u: Unit):
    """The anti-aircraft weapon (a WeaponProfile) ``u`` may fire now, or None."""
    vp = u.profile.vehicle
    if vp is not None:
        for w in vp.weapons:
            if w.category == "air_defence":
                return w
        return None
    prof = hw.weapon_of(game, u)
    if prof is None or prof.weapon.category != "air_defence":
        return None
    st = hw.state(game, u)
    if not st or not st["ready"] or st["damage"] != hw.WORKING or not hw.with_unit(st, u):
        return None
    return prof.weapon


def may_fire_at(game, a: Unit, t: Unit) -> bool:
    """``a`` may fire at aircraft ``t`` now: in play on the table, not aboard, not broken, has not fired at
    aircraft this turn, an AA weapon whose range reaches, and sight that only smoke blocks (RN-159)."""
    if not a.in_play or a.veh.carrier >= 0 or a.confidence >= BROKEN or a.side == t.side:
        return False
    if air.aa_fired(game, a.uid) or airborne(game, a):
        return False
    w = aa_weapon(game, a)
    if w is None:
        return False
    if w.effective_range is not None and math.hypot(a.x - t.x, a.y - t.y) > w.effective_range:
        return False
    return game.bf.sight_for(AIRBORNE_SIGHT, a.x, a.y, t.x, t.y).visible


def _flight_of(game, t: Unit):
    for f in reversed(game.stack):
        if f.type == FLIGHT and f.unit == t.uid:
            return f
    return None


# ---------------------------------------------------------------------------------------------- windows, options
def _react(game, mover: Unit, walk) -> None:
    """The ``move_step`` window: at a step of an aircraft's flight, the first enemy anti-aircraft unit not yet asked
    during it may fire (a decision of its side)."""
    if walk.type != FLIGHT or not airborne(game, mover):
        return
    asked = walk.data.setdefault("asked", [])
    for uid in game.side_units[1 - mover.side]:
        a = game.units[uid]
        if uid in asked or not may_fire_at(game, a, mover):
            continue
        asked.append(uid)
        push(game, Frame(AA_FRAME, a.uid, 0, False, {"aircraft": mover.uid, "used": 0, "stage": "ask"}))
        return


def _options(game, u: Unit, status) -> list:
    if aa_weapon(game, u) is None or u.veh.carrier >= 0:
        return []
    return [("aa_fire_at", t.uid) for t in game.enemy_units(u.side) if airborne(game, t) and may_fire_at(game, u, t)]


def _fire_at(game, u: Unit, opt) -> bool:
    frame = Frame(AA_FRAME, u.uid, 0, False, {"aircraft": int(opt[1]), "used": 1, "stage": "ask"})
    game.stack.append(frame)
    _acquire(game, frame)
    return False


class AntiAircraft:
    """Frame ``air_aa``: a unit's anti-aircraft fire at ``aircraft`` (``used``: 0 a reaction, 1 an action)."""

    @staticmethod
    def decision(game, frame) -> Decision:
        a = game.units[frame.unit]
        return Decision(a.side, "anti_aircraft", a.uid, (("aa_fire",), ("aa_hold",)))

    @staticmethod
    def apply(game, frame, opt) -> None:
        if opt[0] == "aa_hold":
            pop(game, frame, used=frame.data["used"])
            return
        _acquire(game, frame)

    @staticmethod
    def resume(game, frame, popped) -> None:
        """After the pilot's choice: engage (re-acquiring first after an evasion), or nothing if it left."""
        t = game.units[frame.data["aircraft"]]
        a = game.units[frame.unit]
        if airborne(game, t) and a.in_play:
            if frame.data["stage"] == "evaded":
                if game.bf.sight_for(AIRBORNE_SIGHT, a.x, a.y, t.x, t.y).visible and \
                        _lock(game, frame, "reacquire"):
                    _engage(game, frame)
            else:
                _engage(game, frame)
        pop(game, frame, used=frame.data["used"])


def _lock(game, frame, stage: str) -> bool:
    a, t = game.units[frame.unit], game.units[frame.data["aircraft"]]
    w = aa_weapon(game, a)
    g = game.dice.roll(parse_die(w.guidance or "d4"))
    e = game.dice.roll(air.ecm_die(t))
    ok = g > e
    game.emit(AntiAircraftFire(a.uid, t.uid, stage, g, 0, e, "acquired" if ok else "lost"))
    return ok


def _acquire(game, frame) -> None:
    """L1794: the guidance die against the ECM die; acquired, the pilot chooses (a decision of its side)."""
    air.note_aa_fired(game, frame.unit)
    if not _lock(game, frame, "acquire"):
        pop(game, frame, used=frame.data["used"])
        return
    frame.data["stage"] = "acquired"
    push(game, Frame(PILOT_FRAME, frame.data["aircraft"], 0, False, {"aa": frame.unit}))


class Pilot:
    """Frame ``air_evade``: an acquired aircraft's pilot aborts, evades or continues (L1794)."""

    @staticmethod
    def decision(game, frame) -> Decision:
        t = game.units[frame.unit]
        return Decision(t.side, "air_pilot", t.uid,
                        (("air_pilot", "abort"), ("air_pilot", "evade"), ("air_pilot", "continue")))

    @staticmethod
    def apply(game, frame, opt) -> None:
        t = game.units[frame.unit]
        game.emit(PilotChoice(t.uid, opt[1]))
        below = game.stack[-2]
        if opt[1] == "abort":
            _halt(game, t)
            air.leave(game, t, BASE, "abort")
        elif opt[1] == "evade":
            _halt(game, t)
            evade(game, t)
            below.data["stage"] = "evaded"
        pop(game, frame, used=0)


def _halt(game, t: Unit) -> None:
    f = _flight_of(game, t)
    if f is not None:
        f.data["halted"] = True


def evade(game, t: Unit) -> None:
    """L1796: at least 24" as a normal move turning no more than 90 degrees: 24" straight ahead (RN-1508); a point
    off the table takes it off the table to the loiter box."""
    a = math.radians(t.veh.facing)
    x, y = t.x + EVADE_MOVE * math.sin(a), t.y + EVADE_MOVE * math.cos(a)
    if not (0.0 <= x <= game.bf.width and 0.0 <= y <= game.bf.height):
        air.leave(game, t, LOITER, "evade")
        return
    place(game, t, x, y, "evade", point=False)
    carry_along(game, t)
    air_state(game, t)["mode"] = AIRBORNE


# ---------------------------------------------------------------------------------------------- engagement
def _engage(game, frame) -> None:
    """L1798-1802: guidance and firepower dice against the ECM die (hovering: one lower)."""
    a, t = game.units[frame.unit], game.units[frame.data["aircraft"]]
    w = aa_weapon(game, a)
    ecm = air.ecm_die(t)
    if air_state(game, t)["mode"] == HOVERING:
        ecm = shift_closed(ecm, -1)
    g = game.dice.roll(parse_die(w.guidance or "d4"))
    f = game.dice.roll(parse_die(w.firepower[0]) if w.firepower else D6)
    e = game.dice.roll(ecm)
    result = ("none", "minor", "major")[(g > e) + (f > e)]
    game.emit(AntiAircraftFire(a.uid, t.uid, "engage", g, f, e, result))
    if result == "minor":
        if confidence_test(game.dice, t, [], extra=2, extra_reason="anti_aircraft_fire", events=game.events):
            _halt(game, t)
            if t.in_play:
                air.leave(game, t, BASE, "confidence")
    elif result == "major":
        hit(game, t, parse_die(w.impact_vs_armour))


def hit(game, t: Unit, impact: int) -> str:
    """One hit on aircraft ``t`` (L1802): the impact die against its belly armour die."""
    i, b = game.dice.roll(impact), game.dice.roll(air.belly_armour(t))
    result = "destroyed" if i > 2 * b else ("damaged" if i > b else "none")
    game.emit(AircraftHit(t.uid, i, b, result))
    if result == "destroyed":
        _halt(game, t)
        explode(game, t)
    elif result == "damaged":
        _halt(game, t)
        game.rules.services["vehicle_damaged"](game, t, 1)
        emergency_landing(game, t)
    return result


def explode(game, t: Unit) -> None:
    """L1802: destroyed in the air with its occupants; it falls in an explosion of radius 6" and impact D8 (every
    unit in the blast is struck, both sides)."""
    x, y = t.x, t.y
    occupants = list(t.veh.passengers)
    air.destroy_in_air(game, t, "table")
    for uid in occupants:
        vehicle_state(game.units[uid]).carrier = -1
    vehicle_state(t).passengers = []
    game.emit(AircraftCrashed(t.uid, round(x, 3), round(y, 3), 0, "exploded"))
    ground_burst(game, Source.at_point(x, y, CRASH_RADIUS, "falling aircraft"), D8)


def ground_burst(game, source, impact: int, **how):
    """The kernel's point attack on the ground: aircraft in the air are above the blast (RN-1509), so they are
    lifted out of it (a location of their own) while it strikes, and put back."""
    aloft = [game.units[int(k)] for k, a in air.aircraft_states(game).items() if a["mode"] in (AIRBORNE, HOVERING)]
    aloft = [u for u in aloft if u.location == "table"]
    for u in aloft:
        u.location = ALOFT
    try:
        return burst(game, source, impact, **how)
    finally:
        for u in aloft:
            u.location = "table"


def _hard(game, t: Unit, x: float, y: float) -> bool:
    """L1806: "a hard object such as a building or another vehicle"."""
    if game.bf.terrain_at(x, y) == "building":
        return True
    for v in game.units:
        if v is t or not v.in_play or v.profile.vehicle is None or airborne(game, v):
            continue
        if math.hypot(v.x - x, v.y - y) <= footprint(v) + footprint(t):
            return True
    return False


def emergency_landing(game, t: Unit) -> None:
    """L1806-1808 (see the module docstring)."""
    a = air_state(game, t)
    if a["mode"] != HOVERING:
        d = 2 * game.dice.roll(D12)
        h = math.radians(t.veh.facing)
        x = min(max(t.x + d * math.sin(h), 0.0), game.bf.width)
        y = min(max(t.y + d * math.cos(h), 0.0), game.bf.height)
        place(game, t, x, y, "crash", point=False)
        carry_along(game, t)
    a["mode"] = GROUNDED
    if _hard(game, t, t.x, t.y):
        explode(game, t)
        return
    q = shift_closed(t.quality, -max(t.veh.damage - 1, 0))
    roll = game.dice.roll(q)
    if roll == 1:
        explode(game, t)
        return
    result = "wrecked" if roll <= 3 else "controlled"
    game.emit(AircraftCrashed(t.uid, round(t.x, 3), round(t.y, 3), roll, result))
    occupants = list(t.veh.passengers)
    if roll <= 3:
        for uid in occupants:
            p = game.units[uid]
            for i, fig in enumerate(p.figures):
                if fig.status != OK:
                    continue
                r = game.dice.roll(D6)
                res = "killed" if r == 1 else ("wounded" if r <= 3 else "unharmed")
                game.emit(OccupantHurt(p.uid, i, r, res))
                if res == "killed":
                    p.set_figure(i, status=KILLED)
                elif res == "wounded":
                    p.set_figure(i, status=WOUNDED)
    unload_all(game, t)
    for uid in occupants:
        p = game.units[uid]
        p.suppression = MAX_SUPPRESSION
    a["mode"] = "wrecked"
    game.rules.services["vehicle_destroyed"](game, t)



RULE = Rule(
    "Aerospace Operations: on-table anti-aircraft fire",
    'seed 000 "On-Table Anti-Aircraft Fire", "Aircraft Firing at Other Aircraft"',
    applies=air.has_aircraft,
    reactions={"move_step": _react},
    action_options=(_options,),
    actions={"aa_fire_at": _fire_at},
    procedures={AA_FRAME: AntiAircraft(), PILOT_FRAME: Pilot()},
    families=(Family("aa_fire", (), 147, "an anti-aircraft unit fires at the aircraft flying past (a reaction)"),
              Family("aa_hold", (), 148, "an anti-aircraft unit holds its fire (a reaction)"),
              Family("aa_fire_at", ("enemy",), 149, "an anti-aircraft unit fires at this aircraft in the air")),
)
