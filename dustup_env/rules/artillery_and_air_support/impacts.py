"""Ammunition and Resolving Impacts (seed 000 "Artillery and Air Support": "Ammunition Type", "Ammunition Size",
L1571-1590; "Resolving Impacts", L1663-1697).

* **Ammunition** (``data/artillery.json``, validated on load: :func:`artillery_data`): general purpose, anti-personnel
  and anti-armour rounds with their impact dice against infantry (power armour included, RN-146) and against armoured
  targets; the sizes small / medium / large / very large with burst radii 3", 4", 6", 10" (a figure is in the blast
  when its base centre is within the radius of the impact point, RN-147).  Smoke and incendiary rounds have no impact
  dice: their bursts are placed as any round's and handed to the *ammunition effect* the rule set registers for them
  (the service ``ammo_effect_smoke`` / ``ammo_effect_incendiary``, ``f(game, mission, points, radius)``: the
  Additional Rules fill it); with none registered the rounds land with no effect (:class:`AmmunitionWithoutEffect`,
  RN-1456).
* **Accuracy** (L1667-1675, :func:`accuracy_die`, :func:`place_round`): an unopposed roll of the observer's
  range-finding die (basic D6, advanced D8, superior D10; D4 for an observer who is not a dedicated forward observer),
  shifted up once for a laser-guided round while the observer sees the aim point and twice for a self-guided round
  (closed); on target when the roll is higher than the observer's leadership.  Otherwise the round scatters the roll
  times a D8 inches (the roll alone for guided rounds), in a clockface direction (a D12, 12 o'clock towards +y,
  RN-028).
* **Multiple rounds** (L1693-1697): the first round is placed as above from the aim point; every later round repeats
  the procedure from the FIRST round's impact point (RN-154).
* **The impact** (L1679-1689, :func:`strike_point`): the kernel's point attack (``kernel.attack.burst``): every
  figure within the radius rolls the impact die against its armour die shifted by the cover between the point and it,
  a vehicle by its top armour under the point (or anywhere in the radius for air-bursting cluster munitions) and the
  facing towards the point within the radius; both sides' units (friendly fire, L1679).  A figure in the blasts of
  several rounds tests its armour against each (L1697).
* **The consequences** (L1689, L1134): every unit with a figure (or a vehicle) in a blast is suppressed and takes one
  confidence test with the artillery modifier, for its highest trigger (first under fire, first suppressed,
  casualties, leader casualty, vehicle damage) or on a base of 0 (RN-113).  One marker and one test per unit per
  mission, after its last round (RN-1457).  :func:`burst_effects` is one blast with its consequences, for the other
  rules that attack from the air (an aerospace attack supplies the same modifier, L1134).

``resolve_mission(game, mission)`` is the whole impact of one fire mission (the request rules call it when the
mission comes due; On-Table Artillery Fire calls it at the firing unit's next activation).  The mission is plain data:
``{"side", "x", "y", "ammo", "size", "rounds", "observer", "guidance", "asset", "firer", "requestor"}`` and the
optional ``"observer_role"`` (``"fo"``, ``"lo"``, ``"other"``), ``"equipment"`` (``"basic"``, ``"advanced"``,
``"superior"``) and ``"air_burst"`` (bool); see :func:`check_mission`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..kernel.attack import HitsResult, Source, burst
from ..kernel.battlefield import observer_of
from ..kernel.data import DATA, load_json, validate
from ..kernel.dice import D8, D12, die_name, parse_die, shift_closed
from ..kernel.entities import Unit
from ..kernel.events import Event, LeaderLost, Suppressed, event
from ..morale.confidence_test import confidence_test

AMMUNITION = ("general", "anti_personnel", "anti_armour", "smoke", "incendiary")
SIZES = ("small", "medium", "large", "very_large")
GUIDANCE = ("none", "laser", "self")
EQUIPMENT = ("basic", "advanced", "superior")
ROLES = ("fo", "lo", "other")
ASSETS = ("on_table", "company", "battalion", "regimental", "orbital", "air")
MAX_SUPPRESSION = 3
BLAST_TEST = "artillery_blast"  # the test of L1689 when no trigger of the table applies (base 0, RN-113)


@dataclass(frozen=True, slots=True)
class Ammunition:
    name: str
    label: str
    vs_infantry: int | None  # impact die step against infantry (None: a registered effect, no impact)
    vs_armour: int | None  # impact die step against an armoured target

    @property
    def registered(self) -> bool:
        return self.vs_infantry is None


@dataclass(frozen=True, slots=True)
class ArtilleryData:
    ammunition: dict  # name -> Ammunition
    radius: dict  # size -> inches
    range_finding: dict  # equipment -> die step; "not_forward_observer" -> die step
    guidance_shift: dict  # guidance -> die shifts
    minimum_range: dict  # "light_mortar", "high_angle", "direct" -> inches


def _parse(doc: dict, where: str) -> ArtilleryData:
    validate(doc, "artillery", where)
    ammo = {}
    for name, a in doc["ammunition"].items():
        ammo[name] = Ammunition(name, a["label"], parse_die(a["vs_infantry"]) if "vs_infantry" in a else None,
                                parse_die(a["vs_armour"]) if "vs_armour" in a else None)
    return ArtilleryData(ammo, {k: float(v["radius"]) for k, v in doc["sizes"].items()},
                         {k: parse_die(v) for k, v in doc["range_finding"].items()},
                         dict(doc["guidance_shift"]), {k: float(v) for k, v in doc["minimum_range"].items()})


@lru_cache(maxsize=None)
def artillery_data() -> ArtilleryData:
    """The ammunition, sizes and range-finding dice (``data/artillery.json``, checked against its schema)."""
    path = DATA / "artillery.json"
    return _parse(load_json(path), "artillery.json")


def burst_radius(size: str) -> float:
    """The burst radius in inches of a round of ``size`` (L1585-1590)."""
    try:
        return artillery_data().radius[size]
    except KeyError:
        raise ValueError(f"unknown round size {size!r}: expected one of {', '.join(SIZES)}") from None


def ammunition(name: str) -> Ammunition:
    try:
        return artillery_data().ammunition[name]
    except KeyError:
        raise ValueError(f"unknown ammunition {name!r}: expected one of {', '.join(AMMUNITION)}") from None


# ---------------------------------------------------------------------------------------------- events
@event
class FireMissionImpact(Event):
    """A fire mission's rounds arrive (its real aim point is revealed): ``asset`` the firer's kind."""
    side: int
    x: float
    y: float
    ammo: str
    size: str
    rounds: int
    observer: int  # -1: none on the table
    asset: str
    firer: int  # -1: off the table


@event
class RoundLanded(Event):
    """One round: its accuracy roll (``die`` against the observer's ``leadership``; -1: no observer, never on target),
    its scatter (``multiplier``: the D8 rolled, 1 for guided rounds, 0 when on target; ``distance`` inches towards
    ``hour`` o'clock from ``origin``) and where it landed (:class:`BlastStruck` follows with the units caught)."""
    side: int
    round: int
    die: str
    roll: int
    leadership: int
    on_target: bool
    multiplier: int
    distance: float
    hour: int
    origin: tuple
    at: tuple
    radius: float
    ammo: str


@event
class BlastStruck(Event):
    """The units with a figure or vehicle in one round's blast (their armour rolls are the events before); the field
    is ``units`` so that a side's filtered log hides the event while it names an enemy unit that is hidden."""
    side: int
    round: int
    units: tuple


@event
class AmmunitionWithoutEffect(Event):
    """Smoke or incendiary rounds landed and no rule of the game gives them an effect (RN-1456)."""
    side: int
    ammo: str
    points: tuple


# ---------------------------------------------------------------------------------------------- accuracy
def accuracy_die(equipment: str | None, guidance: str = "none", sees: bool = True) -> int:
    """The accuracy die (L1667-1675): the forward observer's range-finding die (``equipment``: basic D6, advanced D8,
    superior D10), D4 for an observer who is not a dedicated forward observer (``equipment`` None or ``"none"``),
    shifted up once for a laser-guided round while the observer sees the target (``sees``), twice for a self-guided
    round (closed at D12, RN-152)."""
    data = artillery_data()
    if equipment in (None, "none"):
        base = data.range_finding["not_forward_observer"]
    elif equipment in data.range_finding and equipment != "not_forward_observer":
        base = data.range_finding[equipment]
    else:
        raise ValueError(f"unknown range-finding equipment {equipment!r}: expected basic, advanced, superior or none")
    if guidance not in data.guidance_shift:
        raise ValueError(f"unknown guidance {guidance!r}: expected one of {', '.join(GUIDANCE)}")
    shift = data.guidance_shift[guidance] if guidance != "laser" or sees else 0
    return shift_closed(base, shift)


def clock_vector(hour: int) -> tuple[float, float]:
    """The unit vector of ``hour`` o'clock (1-12), 12 o'clock towards +y, 30 degrees clockwise per hour: the
    geometry of ``dice.clockface_direction`` (RN-028)."""
    ang = math.radians(30.0 * (hour % 12))
    return math.sin(ang), math.cos(ang)


def roll_round(dice, die: int, leadership: int | None, guided: bool) -> tuple[int, bool, int, int, int]:
    """One round's accuracy and scatter (L1667-1677), by the game's dice: the accuracy roll of ``die``; on target when
    it is higher than ``leadership`` (None: no observer, never on target); otherwise a D8 multiplier (not for
    ``guided`` rounds: 1) and the clockface D12.  Returns (roll, on_target, multiplier, distance, hour); the dice
    are rolled in that order."""
    roll = dice.roll(die)
    if leadership is not None and roll > leadership:
        return roll, True, 0, 0, 0
    mult = 1 if guided else dice.roll(D8)
    hour = dice.roll(D12)
    return roll, False, mult, roll * mult, hour


def place_round(dice, x: float, y: float, die: int, leadership: int | None, guided: bool):
    """Where a round aimed at (x, y) lands: ``(point, roll, on_target, multiplier, distance, hour)``."""
    roll, on, mult, dist, hour = roll_round(dice, die, leadership, guided)
    if on:
        return (x, y), roll, on, mult, dist, hour
    vx, vy = clock_vector(hour)
    return (x + vx * dist, y + vy * dist), roll, on, mult, dist, hour


def accuracy_distribution(equipment: str | None, leadership: int, guidance: str = "none") -> tuple:
    """The exact odds of one round through :func:`roll_round` (every die face enumerated): (P(on target),
    {scatter inches: P}) as Fractions; the laser shift as if the observer sees the target."""
    from ..kernel.dice import exact_distribution

    if leadership < 0:
        raise ValueError(f"leadership must be 0 or more, not {leadership}")
    die = accuracy_die(equipment, guidance, True)
    guided = guidance != "none"
    dist = exact_distribution(lambda d: roll_round(d, die, leadership, guided), key=lambda r: -1 if r[1] else r[3])
    on = dist.pop(-1, 0)
    return on, dict(sorted(dist.items()))


# ---------------------------------------------------------------------------------------------- the mission
def check_mission(game, mission: dict) -> None:
    """A clear ``ValueError`` for a mission the rules cannot resolve."""
    if not isinstance(mission, dict):
        raise ValueError("a fire mission is a mapping")
    for key in ("side", "x", "y", "ammo", "size", "rounds"):
        if key not in mission:
            raise ValueError(f"a fire mission needs {key!r}")
    if mission["side"] not in (0, 1):
        raise ValueError(f"a fire mission's side is 0 or 1, not {mission['side']!r}")
    ammunition(mission["ammo"])
    burst_radius(mission["size"])
    if not isinstance(mission["rounds"], int) or mission["rounds"] < 1:
        raise ValueError(f"a fire mission has 1 or more rounds, not {mission['rounds']!r}")
    if mission.get("guidance", "none") not in GUIDANCE:
        raise ValueError(f"unknown guidance {mission.get('guidance')!r}: expected one of {', '.join(GUIDANCE)}")
    if mission.get("asset", "company") not in ASSETS:
        raise ValueError(f"unknown fire-support asset {mission.get('asset')!r}: expected one of {', '.join(ASSETS)}")
    if mission.get("observer_role", "other") not in ROLES:
        raise ValueError(f"unknown observer role {mission.get('observer_role')!r}: expected one of {', '.join(ROLES)}")
    if mission.get("equipment") not in (None,) + EQUIPMENT:
        raise ValueError(f"unknown range-finding equipment {mission.get('equipment')!r}")
    for key in ("observer", "firer", "requestor"):
        uid = mission.get(key)
        if uid is not None and not (isinstance(uid, int) and 0 <= uid < len(game.units)):
            raise ValueError(f"a fire mission's {key} must be a unit id, not {uid!r}")
        if uid is not None and game.units[uid].side != mission["side"]:
            raise ValueError(f"a fire mission's {key} must be a unit of side {mission['side']}, not unit {uid}")


def observer_role(game, u: Unit, mission: dict) -> str:
    """The observer's role: the mission's ``observer_role``, else the rule set's ``observer_role`` service
    (``f(game, unit)``: the roster's forward and liaison observers), else ``"other"``."""
    if mission.get("observer_role") is not None:
        return mission["observer_role"]
    f = game.rules.services.get("observer_role")
    return f(game, u) if f is not None else "other"


def observer_equipment(game, u: Unit, mission: dict) -> str:
    """A forward observer's range-finding equipment: the mission's ``equipment``, else the rule set's
    ``range_finding`` service (``f(game, unit)``), else ``"basic"`` (a dedicated observer with no rating, RN-1452)."""
    if mission.get("equipment") is not None:
        return mission["equipment"]
    f = game.rules.services.get("range_finding")
    e = f(game, u) if f is not None else None
    return e or "basic"


def mission_die(game, mission: dict) -> tuple[int, int | None]:
    """The accuracy die of ``mission`` and the leadership to beat (None: no observer in play, never on target)."""
    uid = mission.get("observer")
    guidance = mission.get("guidance", "none")
    o = game.units[uid] if uid is not None else None
    if o is None or not o.in_play:
        return accuracy_die(None, guidance, False), None
    fo = observer_role(game, o, mission) == "fo"
    sees = True
    if guidance == "laser":
        sees = game.bf.sight_for(observer_of(o), o.x, o.y, float(mission["x"]), float(mission["y"])).visible
    return accuracy_die(observer_equipment(game, o, mission) if fo else None, guidance, sees), o.lv


@dataclass(slots=True)
class _Tally:
    """What the blasts of one attack did to one unit (for its one marker and test)."""
    casualties: int = 0
    leader_hit: bool = False
    damaged: bool = False
    damage_before: int = 0


def strike_point(game, x: float, y: float, ammo: str, size: str | None = None, *, radius: float | None = None,
                 air_burst: bool = False, name: str = "artillery", impact: int | None = None,
                 vehicle_impact: int | None = None, tallies: dict | None = None) -> tuple:
    """One round's blast at (x, y) (L1679-1687): the kernel's point attack with the ammunition's impact dice (against
    infantry; against armour for vehicles; ``impact`` / ``vehicle_impact`` override them), both sides' units, cover
    shifts, vehicles by top armour under the point (every vehicle in the radius with ``air_burst``) and by the facing
    towards it in the radius; no test here.  ``tallies`` (uid -> tally) gathers what it did for
    :func:`blast_consequences`.  Returns the uids struck, in unit order."""
    a = ammunition(ammo)
    r = burst_radius(size) if radius is None else float(radius)
    imp = a.vs_infantry if impact is None else impact
    vimp = a.vs_armour if vehicle_impact is None else vehicle_impact
    if imp is None or vimp is None:
        raise ValueError(f"{a.label} rounds have no impact: their effect is a registered ammunition effect")
    before = damage_before(game)
    res = burst(game, Source.at_point(x, y, r, name), imp, vehicle_impact=vimp, air_burst=air_burst,
                vehicle_test=False)
    if tallies is not None:
        tally_struck(res, tallies, before)
    return tuple(res.struck)


def damage_before(game) -> dict:
    """Every vehicle's damage markers before a blast (uid -> markers: the vehicle-damage test's modifier)."""
    return {t.uid: t.veh.damage for t in game.units if t.profile.vehicle is not None}


def tally_struck(res, tallies: dict, before: dict) -> None:
    """Add what a point attack (the kernel's ``BurstResult``) did to each unit to ``tallies`` (uid -> tally) for
    :func:`blast_consequences`; ``before``: :func:`damage_before` the blast."""
    for uid, hit in res.struck.items():
        tally = tallies.get(uid)
        if tally is None:
            tally = tallies[uid] = _Tally(damage_before=before.get(uid, 0))
        if isinstance(hit, HitsResult):
            tally.casualties += hit.casualties
            tally.leader_hit = tally.leader_hit or hit.leader_hit
        elif hit == "damaged":
            tally.damaged = True


def blast_consequences(game, tallies: dict) -> None:
    """L1689 (and L1134 for aerospace attacks): every unit with a figure or vehicle in the blast, whether hurt or not,
    is suppressed (one marker, at most 3) and takes one confidence test with the artillery modifier for its highest
    trigger (first under fire, first suppressed, casualties, a leader casualty, vehicle damage with the markers it had
    before as modifiers), or on a base of 0 when none applies (RN-113).  Units out of play take none."""
    for uid in sorted(tallies):
        t = game.units[uid]
        tally = tallies[uid]
        if not t.in_play:
            continue
        reasons = []
        if not t.under_fire_before:
            t.under_fire_before = True
            reasons.append("first_under_fire")
        if not t.suppressed_before:
            t.suppressed_before = True
            reasons.append("first_suppressed")
        if t.suppression < MAX_SUPPRESSION:
            t.suppression += 1
        game.emit(Suppressed(t.uid, t.suppression))
        if tally.casualties:
            reasons.append("casualties")
        newly_lost = tally.leader_hit and not t.leader_lost and t.profile.vehicle is None
        if newly_lost:
            reasons.append("leader_casualty")
            t.leader_lost = True
            game.emit(LeaderLost(t.uid, t.leader))
        if tally.damaged:
            reasons.append("vehicle_damage")
        confidence_test(game.dice, t, reasons, more_casualties_than_survivors=tally.casualties > t.n_able(),
                        events=game.events, extra_reason=BLAST_TEST, artillery=True,
                        vehicle_damage=tally.damage_before if t.profile.vehicle is not None else 0)
        if newly_lost:
            for hook in game.rules.on_leader_lost:
                hook(game, t)


def burst_effects(game, side: int, x: float, y: float, ammo: str = "general", size: str | None = "small", *,
                  radius: float | None = None, air_burst: bool = False, name: str = "aerospace",
                  impact: int | None = None, vehicle_impact: int | None = None) -> tuple:
    """One blast at (x, y) and its consequences, for a rule that attacks a point from the air (bombs, rockets: L1134
    "artillery or aerospace attack" supplies the same confidence modifier): :func:`strike_point` then
    :func:`blast_consequences`.  ``side``: the attacker's (recorded by the caller's event; both sides' units are
    struck).  Returns the uids struck."""
    if side not in (0, 1):
        raise ValueError(f"side is 0 or 1, not {side!r}")
    tallies: dict = {}
    struck = strike_point(game, x, y, ammo, size, radius=radius, air_burst=air_burst, name=name, impact=impact,
                          vehicle_impact=vehicle_impact, tallies=tallies)
    blast_consequences(game, tallies)
    return struck


def ammo_effect(game, ammo: str):
    """The registered effect of smoke or incendiary rounds: the rule set's service ``ammo_effect_<ammo>``
    (``f(game, mission, points, radius)``), or None."""
    return game.rules.services.get(f"ammo_effect_{ammo}")


def resolve_mission(game, mission: dict) -> list:
    """The impact of one fire mission (L1663-1697; the interface the request rules call): the aim point revealed, then
    each round placed (the first from the aim point, every later one from the first round's impact point, RN-154) and
    its blast resolved (a figure in several blasts tests its armour against each), then one suppression marker and
    one confidence test with the artillery modifier for every unit caught (L1689).  Smoke and incendiary rounds are
    placed alike and handed to their registered effect.  Returns the impact points."""
    check_mission(game, mission)
    side, ax, ay = mission["side"], float(mission["x"]), float(mission["y"])
    ammo, size, rounds = mission["ammo"], mission["size"], mission["rounds"]
    radius = burst_radius(size)
    a = ammunition(ammo)
    game.emit(FireMissionImpact(side, ax, ay, ammo, size, rounds, _uid(mission.get("observer")),
                                mission.get("asset", "company"), _uid(mission.get("firer"))))
    die, lv = mission_die(game, mission)
    guided = mission.get("guidance", "none") != "none"
    air = bool(mission.get("air_burst", False))
    points = []
    tallies: dict = {}
    first = None
    for i in range(rounds):
        ox, oy = (ax, ay) if first is None else first
        (px, py), roll, on, mult, dist, hour = place_round(game.dice, ox, oy, die, lv, guided)
        if first is None:
            first = (px, py)
        points.append((px, py))
        game.emit(RoundLanded(side, i + 1, die_name(die), roll, -1 if lv is None else lv, on, mult, float(dist), hour,
                              (ox, oy), (px, py), radius, ammo))
        if not a.registered:
            game.emit(BlastStruck(side, i + 1, strike_point(game, px, py, ammo, size, air_burst=air, tallies=tallies)))
        if game.phase == "over":
            break
    if a.registered:
        effect = ammo_effect(game, ammo)
        if effect is None:
            game.emit(AmmunitionWithoutEffect(side, ammo, tuple(points)))
        else:
            effect(game, mission, points, radius)
    elif game.phase != "over":
        blast_consequences(game, tallies)
    return points


def _uid(u) -> int:
    return -1 if u is None else int(u)
