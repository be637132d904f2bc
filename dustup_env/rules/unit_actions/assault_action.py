"""Assault Action (seed 000 "Assault Action" .. "The Two Inch Rule", "Multiple Units in Close Combat",
"Special Close Combat Weapons").

An ``("assault", enemy_uid)`` action pushes a procedure frame of type ``"assault"`` whose decisions
are taken by the right side:

=========================  =======  =====================================================
kind                       side     options
=========================  =======  =====================================================
``assault_targets``        attacker ``("defenders_chosen",)``, ``("add_defender", uid)``... (frame
                                    ``"assault_declare"``: one assault on several enemy units)
``assault_response``       defender ``("stand",)``, ``("withdraw",)``
``assault_follow_up``      attacker ``("occupy",)``, ``("contact",)`` (the defender withdrew), or with
                                    several withdrawn defenders ``("follow", uid)``... and then
                                    ``("defenders_chosen",)`` / ``("follow", uid)`` for one more
``final_defensive_fire``   defender ``("fire", mode)``..., ``("hold_fire",)``
``second_move``            attacker ``("contact",)``, ``("halt",)``
``special_weapons``        owner    ``("no_split",)``, ``("split_special",)`` (before combat resolution)
``house_occupy``           either   ``("occupy",)``, ``("halt",)`` (house close combat: the position vacated
                                    by a withdrawal after a round)
``house_pursuit``          either   ``("halt",)``, ``("follow", uid)`` (house close combat, game option
                                    ``house_pursuit``: pursue a unit withdrawing after a lost reaction test)
=========================  =======  =====================================================

Phases: courage test (opposed quality dice with open shifts from the data table
``data/courage_test.json``), move to contact (final defensive fire, second move), combat resolution
(two simultaneous rounds) and outcome (a second courage test with the casualty rows).  Several
units (one attacker against several defenders, or a combined assault of several attackers against
one defender, :func:`begin_assault`) fight as detachments matched to the opposing sizes; each parent
unit obeys the worst result.  Readings of garbled passages: docs/rules-notes.md RN-203 to RN-217 (house rules
RN-252 to RN-254); several defenders, following withdrawn ones and special-weapon detachments RN-300, RN-301, RN-304.
Mechs and monsters (seed 000 L1514-1518) fight as infantry units: their size class is their strength, their close-
combat weapons add strike dice, and hits to and from them go to the vehicle rules' service (RN-850..RN-853).
Infantry assaulting another vehicle (the Close Assault rules' ``assault_vehicle``, L1520-1532) take this procedure
too (RN-900): the vehicle is never forced to withdraw, contact is reached at its footprint, its final defensive
fire is the vehicle rules' service, and in contact one impact roll replaces the combat (the vehicle rules'
``vehicle_assault`` service).  Whenever a vehicle, mech or monster takes part, outnumbering counts units
(:func:`unit_counts`, RN-907).
"""
from __future__ import annotations

import json
import math
from types import SimpleNamespace
from pathlib import Path

from ..kernel.attack import resolve_hits
from ..kernel.data import DATA, armoury, validate
from ..kernel.dice import die_max, die_name, parse_die, shift_closed, shift_open_both, value_to_die
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, LeaderLost, Moved, RoutedOff, event
from ..kernel.entities import (BROKEN, COHESION, CONFIDENCE_NAMES, CONFIDENT, KILLED, OK, ROUTED, SHAKEN, STEADY,
    TREATED, WOUNDED, Unit)
from ..morale.confidence_test import confidence_test
from .move_action import STEP, TWO_INCH, move_path, reform, step_hook, too_close
from .shoot_action import FIRE_MODES
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.decisions import Decision, Frame
from .shoot_action import shoot, shot_plan

CONTACT = 1.0  # figure-to-figure distance (inches) that counts as base contact
# One unit against several enemy units: its detachments must each stay within 6" of its leader ("the attacker
# must be able to maintain unit coherency"), so the enemy units it takes on together may be at most 12" apart
# (closest figures) -- RN-300.
DEFENDER_SPREAD = 2.0 * COHESION
TWO_INCH_TOLERANCE = 0.05
WITHDRAW_FALLBACK = 24.0

# ---------------------------------------------------------------------------------------- events


@event
class AssaultDeclared(Event):
    attackers: tuple
    defenders: tuple
    two_inch: bool


@event
class AssaultResponse(Event):
    unit: int
    choice: str  # stand | withdraw


@event
class CourageTested(Event):
    attacker: int
    defender: int
    final: bool  # the outcome test after combat
    attacker_die: str
    defender_die: str
    attacker_shifts: tuple  # (row id, shift) pairs applied to the attacker's die
    defender_shifts: tuple
    attacker_roll: int
    defender_roll: int
    result: str


@event
class ConfidenceDropped(Event):
    unit: int
    levels: int
    reason: str
    confidence: str


@event
class ContactMove(Event):
    unit: int
    target: int
    roll: int  # 0: the two-inch rule (no roll)
    points: float
    start: tuple
    end: tuple
    reached: bool


@event
class SuppressionTested(Event):
    unit: int
    roll: int
    needed: int
    passed: bool


@event
class AssaultReaction(Event):
    unit: int
    roll: int
    needed: int
    passed: bool


@event
class StrikeResolved(Event):
    striker: int
    target: int
    round: int
    target_die: str
    target_roll: int
    striker_dice: tuple
    striker_rolls: tuple
    successes: int
    result: str
    hits: int


@event
class WoundedAbandoned(Event):
    unit: int
    figures: int


@event
class SpecialWeaponsChoice(Event):
    unit: int
    split: bool  # the special close-combat weapons fight as their own detachment(s) with their own impact


@event
class AssaultEnded(Event):
    attackers: tuple
    defenders: tuple
    result: str


# ---------------------------------------------------------------------------------------- courage table

_TABLE_CACHE: dict = {}


def load_courage_table(spec=None) -> list[dict]:
    """The courage-test rows: ``None`` = the built-in table, a path, or a table dict (validated)."""
    key = json.dumps(spec, sort_keys=True) if not isinstance(spec, str) else spec
    rows = _TABLE_CACHE.get(key)
    if rows is not None:
        return rows
    if spec is None:
        doc, where = json.loads((DATA / "courage_test.json").read_text()), "courage_test.json"
    elif isinstance(spec, str):
        p = Path(spec)
        if not p.is_file():
            raise ScenarioError(f"game option courage_table: no such file {spec!r}")
        try:
            doc = json.loads(p.read_text())
        except json.JSONDecodeError as e:
            raise ScenarioError(f"game option courage_table: {spec}: not valid JSON: {e}") from None
        where = spec
    elif isinstance(spec, dict):
        doc, where = spec, "game option courage_table"
    else:
        raise ScenarioError("game option courage_table must be null, a file path or a table object")
    if not isinstance(doc, dict):
        raise ScenarioError(f"{where}: a courage table must be a JSON object")
    validate(doc, "courage_test", where)
    ids = [r["id"] for r in doc["rows"]]
    if len(set(ids)) != len(ids):
        raise ScenarioError(f"{where}: rows: duplicate row id")
    rows = [dict(r) for r in doc["rows"]]
    _TABLE_CACHE[key] = rows
    return rows


def _init_hook(game) -> None:
    load_courage_table(game.options["courage_table"])  # validate now: a bad table is a ScenarioError at start


# ---------------------------------------------------------------------------------------- geometry helpers

MECHS = ("mech", "creature")  # unit kinds that assault and are assaulted as infantry (seed 000 L1514, RN-850)


def strength(u: Unit, figs=None) -> int:
    """Strength by figures: able figures, power-armoured troopers count as two; a mech or monster its size class
    (L1516 "the size value is used to calculate outnumbering", RN-850).  Outnumbering itself: :func:`unit_counts`
    (units as soon as a vehicle takes part, RN-907); detachments are matched to these strengths."""
    n = sum(1 for i in (figs if figs is not None else range(len(u.figures))) if u.figures[i].status == OK)
    if u.profile.vehicle is not None:
        return u.profile.vehicle.size if n else 0
    pa = armoury()[1][u.armour].power_armour
    return 2 * n if pa else n


def unit_counts(game, a: Unit, a_figs, b: Unit, b_figs) -> tuple[int, int]:
    """The outnumbering strengths of ``a`` against ``b`` (detachments ``a_figs``, ``b_figs``): figures between
    infantry (:func:`strength`); units as soon as a vehicle, mech or monster is one of them (L1516 "Like other
    vehicles, the size value is used to calculate outnumbering", L1524 "a vehicle of size 2 counts as 2 units and
    therefore outnumbers a single infantry unit two to one", RN-907): a vehicle its size class (the vehicle rules'
    ``assault_units``: an open-topped one with its passengers, L1555), an infantry unit or detachment one; none
    left able, 0."""
    if a.profile.vehicle is None and b.profile.vehicle is None:
        return strength(a, a_figs), strength(b, b_figs)
    return _units(game, a, a_figs), _units(game, b, b_figs)


def _units(game, u: Unit, figs) -> int:
    if not any(u.figures[i].status == OK for i in (figs if figs is not None else range(len(u.figures)))):
        return 0
    if u.profile.vehicle is None:
        return 1
    svc = game.rules.services.get("assault_units")
    return svc(u) if svc is not None else u.profile.vehicle.size


def assaulted_vehicle(u: Unit) -> bool:
    """A vehicle that is not a mech or monster: infantry assault it by Infantry Assaulting Vehicles (L1520-1532),
    the Assault Action with an impact roll instead of close combat; it is never forced to withdraw (L1522)."""
    return u.profile.vehicle is not None and u.kind not in MECHS


def is_mech(u: Unit) -> bool:
    """A mech or monster: it fights close combat as an infantry unit (seed 000 L1514-1518)."""
    return u.profile.vehicle is not None and u.kind in MECHS


def outnumbered(own: int, other: int) -> int:
    """0, 2 (outnumbered 2:1) or 3 (3:1 or more)."""
    if own <= 0:
        return 3 if other > 0 else 0
    if other >= 3 * own:
        return 3
    if other >= 2 * own:
        return 2
    return 0


def figure_gap(a: Unit, b: Unit) -> float:
    """Closest figure-to-figure distance between two units."""
    best = 1e18
    bf = b.figure_positions()
    for ax, ay in a.figure_positions():
        for bx, by in bf:
            d = (ax - bx) ** 2 + (ay - by) ** 2
            if d < best:
                best = d
    return math.sqrt(best)


def _gap_at(offsets, x, y, figs) -> float:
    best = 1e18
    for ox, oy in offsets:
        for fx, fy in figs:
            d = (x + ox - fx) ** 2 + (y + oy - fy) ** 2
            if d < best:
                best = d
    return math.sqrt(best)


def within_two_inches(a: Unit, b: Unit) -> bool:
    return figure_gap(a, b) <= TWO_INCH + TWO_INCH_TOLERANCE


def assault_reach(u: Unit, game=None) -> float:
    """Declaration bound: twice one maximum move (2 x die max x 2 inches) of the unit's own movement die
    (``game.movement_die``: encumbrance, cavalry and heavy equipment apply, RN-405)."""
    return 2.0 * 2.0 * die_max(game.movement_die(u) if game is not None else u.movement)


def _offsets(u: Unit):
    lf = u.figures[u.leader]
    return [(f.dx - lf.dx, f.dy - lf.dy) for f in u.figures if f.status != KILLED]


def contact_walk(bf, u: Unit, target: Unit, points: float, other_figs, power_armour: int, step=None,
                 reach: float = CONTACT):
    """Walk the leader toward the target's leader with ``points`` movement points (terrain and obstacle
    costs).  Returns ``(x, y, reached)``; reached when a figure comes within CONTACT of a target figure.
    Other enemy figures still stop the walk at 2"; ``reached`` is None if a ``move_step`` hook stopped it.  Contact across an obstacle lying between the point of
    contact and the defender (e.g. a wall right in front of it) must still pay that obstacle's crossing
    cost: "If defenders are behind some form of obstacle ... the attacker must roll enough movement to
    cover the movement cost of crossing the obstacle" (RN-209).  ``reach``: the figure-to-figure distance that counts
    as contact (against a vehicle more: :func:`contact_reach`)."""
    x, y = u.x, u.y
    tx, ty = target.x, target.y
    dist = math.hypot(tx - x, ty - y)
    offs = _offsets(u)
    tfigs = target.figure_positions()
    crossing = bf.obstacle_crossing_cost if bf.obstacles else None

    def affordable(px, py, paid):  # the obstacles still between the contact point and the defender
        return crossing is None or paid + crossing(px, py, tx, ty) <= points + 1e-9

    if _gap_at(offs, x, y, tfigs) <= reach + 1e-9:
        return x, y, affordable(x, y, 0.0)
    if dist < 1e-9:
        return x, y, False
    ux, uy = (tx - x) / dist, (ty - y) / dist
    spent = travelled = 0.0
    cost_fn = bf.move_cost
    while travelled < dist - 1e-9:
        seg = min(STEP, dist - travelled)
        nx, ny = x + ux * seg, y + uy * seg
        c = cost_fn(x + ux * seg * 0.5, y + uy * seg * 0.5, power_armour)
        if c is None:
            return x, y, False
        extra = crossing(x, y, nx, ny) if crossing else 0.0
        need = seg * c + extra
        if spent + need > points + 1e-9:
            if extra == 0.0:
                part = (points - spent) / c
                qx, qy = x + ux * part, y + uy * part
                if part > 1e-6 and _gap_at(offs, qx, qy, tfigs) <= reach + 1e-9 \
                        and not too_close(offs, qx, qy, other_figs) and affordable(qx, qy, points):
                    return qx, qy, True
            return x, y, False
        if not bf.on_table(nx, ny) or too_close(offs, nx, ny, other_figs):
            return x, y, False
        if step is not None and step(x, y, nx, ny):  # stopped on the way (the rule set's move_step)
            return nx, ny, None
        x, y = nx, ny
        spent += need
        travelled += seg
        if _gap_at(offs, x, y, tfigs) <= reach + 1e-9:
            # the exact point of contact within this step; an obstacle still in between must be paid
            return x, y, affordable(x, y, spent)
    return x, y, _gap_at(offs, x, y, tfigs) <= reach + 1e-9 and affordable(x, y, spent)



def contact_reach(game, t: Unit) -> float:
    """The figure-to-figure distance at which an attacker contacts ``t``: CONTACT, and for a vehicle (not a mech or
    monster) CONTACT from the edge of its footprint (the vehicle rules' ``footprint``, RN-901)."""
    if assaulted_vehicle(t):
        svc = game.rules.services.get("footprint")
        if svc is not None:
            return CONTACT + svc(t)
    return CONTACT


def contact_move(game, u, t, die: str):
    """Move ``u`` toward ``t`` with a roll of ``die`` x 2": into contact if the walk reaches it, else as far as
    able but no closer than 2" to any enemy figure.  Returns ``(roll, points, start, reached)``."""
    roll = game.dice.roll(die)
    points = 2.0 * roll
    start = (u.x, u.y)
    step = step_hook(game, u)
    x, y, reached = contact_walk(game.bf, u, t, points, _enemy_figs(game, u, exclude={t.uid}), u.terrain_column, step,
                                 contact_reach(game, t))
    if reached is None:  # stopped on the way
        reached = False
    elif not reached:
        x, y = move_path(game.bf, u, t.x, t.y, points, _enemy_figs(game, u), u.terrain_column, step)
    _arrive(u, x, y, start)
    return roll, points, start, reached


def _arrive(u: Unit, x: float, y: float, start) -> None:
    """``u``'s leader ends a contact move or a withdrawal at (x, y): no longer propped, re-formed if it was
    disorganised, no longer completely concealed if it moved."""
    was_dis = u.disorganised()
    u.x, u.y = x, y
    u.propped = False
    if was_dis:
        reform(u)
        u.loose = False
    if (x, y) != start:
        u.complete_concealment = False


def _enemy_figs(game, u: Unit, exclude=()):
    figs = []
    for e in game.enemy_units(u.side):
        if e.uid in exclude:
            continue
        figs.extend(e.figure_positions())
    return figs


def _withdraw_point(game, u: Unit, away: list[Unit]) -> tuple[float, float]:
    """Away from the assaulting enemy, towards cover if at all possible (routed: the home edge)."""
    if u.confidence == ROUTED or not away:
        return game.home_point(u)
    ex = sum(e.x for e in away) / len(away)
    ey = sum(e.y for e in away) / len(away)
    de = math.hypot(u.x - ex, u.y - ey)
    best, bd = None, 1e18
    for cx, cy in game.bf.cover_points():
        if math.hypot(cx - ex, cy - ey) <= de + 1.0:
            continue
        d = math.hypot(cx - u.x, cy - u.y)
        if d < bd:
            best, bd = (cx, cy), d
    if best is not None:
        return best
    if de < 1e-9:
        return game.home_point(u)
    vx, vy = (u.x - ex) / de, (u.y - ey) / de
    px = min(max(u.x + vx * WITHDRAW_FALLBACK, 0.0), game.bf.width)
    py = min(max(u.y + vy * WITHDRAW_FALLBACK, 0.0), game.bf.height)
    return px, py


def occupy(game, u: Unit, x: float, y: float) -> None:
    """``u`` occupies the position a withdrawn enemy unit vacated (its leader's old position): no roll."""
    start = (u.x, u.y)
    u.x, u.y = x, y
    u.propped = False
    u.complete_concealment = False
    game.emit(Moved(u.uid, 0, 0.0, (round(start[0], 3), round(start[1], 3)), (round(x, 3), round(y, 3)), False))


def drop_confidence(game, u: Unit, levels: int, reason: str) -> None:
    if levels <= 0:
        return
    u.confidence = min(ROUTED, u.confidence + levels)
    game.emit(ConfidenceDropped(u.uid, levels, reason, CONFIDENCE_NAMES[u.confidence]))


def withdraw(game, u: Unit, away: list[Unit], levels: int, reason: str) -> None:
    """Withdrawal (seed 000 Withdrawal/Outcome): one normal move (``Game.movement_die``: encumbrance,
    heavy equipment, cavalry; RN-406) away from the attacker towards cover, drop ``levels`` confidence
    levels, remove all suppression; wounded left behind are abandoned."""
    if not u.in_play:
        return
    drop_confidence(game, u, levels, reason)
    u.suppression = 0
    px, py = _withdraw_point(game, u, away)
    roll = game.dice.roll(game.movement_die(u))  # "one normal move": the unit's own movement die (RN-406)
    points = 2.0 * roll
    start = (u.x, u.y)
    x, y = move_path(game.bf, u, px, py, points, _enemy_figs(game, u, exclude={e.uid for e in away}),
                     u.terrain_column, step_hook(game, u))
    _arrive(u, x, y, start)
    game.emit(Moved(u.uid, roll, points, (round(start[0], 3), round(start[1], 3)), (round(x, 3), round(y, 3)), True))
    if assaulted_vehicle(u):  # a vehicle withdrawing (L1522): a move of the vehicle (facing, passengers, tow)
        for hook in game.rules.after_move:
            hook(game, u, start, True)
    if u.confidence == ROUTED:
        hx, hy = game.home_point(u)
        if math.hypot(u.x - hx, u.y - hy) < 0.5:
            u.routed_off = True
            game.emit(RoutedOff(u.uid))
    # Abandoning wounded: withdrawing away from visible enemies leaves the wounded behind
    wounded = [i for i, f in enumerate(u.figures) if f.status in (WOUNDED, TREATED)]
    if wounded and any(game.bf.has_los(u.x, u.y, e.x, e.y) or game.bf.has_los(start[0], start[1], e.x, e.y)
                       for e in away):
        for i in wounded:
            u.set_figure(i, status=KILLED)
        u.abandoned += len(wounded)
        game.emit(WoundedAbandoned(u.uid, len(wounded)))
        if u.in_play:
            confidence_test(game.dice, u, ["abandon_wounded"], events=game.events)


# ---------------------------------------------------------------------------------------- courage test

def courage_shifts(game, u: Unit, enemy: Unit, *, defender: bool, final: bool, own_figs=None, enemy_figs=None,
                   casualties: dict | None = None, skip=()) -> list[tuple[str, int]]:
    """The table rows that apply to ``u`` (its own die) as ``(row id, total shift)`` pairs."""
    rows = load_courage_table(game.options["courage_table"])
    n = outnumbered(*unit_counts(game, u, own_figs, enemy, enemy_figs))
    cover = game.bf.cover_at(u.x, u.y) if defender else 0
    cas = casualties or {}
    counts = {
        "outnumbered_2": 1 if n == 2 or (n == 3 and not any(r["id"] == "outnumbered_3" for r in rows)) else 0,
        "outnumbered_3": 1 if n == 3 else 0,
        "suppressed": u.suppression if u.confidence != ROUTED else 0,
        "confident": 1 if u.confidence == CONFIDENT else 0,
        "shaken": 1 if u.confidence >= SHAKEN else 0,
        "wounded": cas.get("wounded", 0),
        "killed": cas.get("killed", 0),
        "leader_killed": 1 if cas.get("leader") else 0,
        "terror": 1 if enemy.terror and not u.terror else 0,
        "soft_cover": 1 if cover == 1 else 0,
        "hard_cover": 1 if cover >= 2 else 0,
    }
    out = []
    for r in rows:
        if (r.get("final_only") and not final) or r["id"] in skip:
            continue
        c = counts[r["id"]]
        if not r.get("per"):
            c = min(c, 1)
        if c:
            out.append((r["id"], r["shift"] * c))
    return out


def courage_roll(game, att: Unit, dfn: Unit, *, final: bool, att_figs=None, def_figs=None, att_cas=None,
                 def_cas=None, extra_att=(), extra_def=(), skip=()):
    """Opposed quality roll with open shifts on both dice.  Returns (A, D, a_die, d_die, a_sh, d_sh)."""
    a_sh = courage_shifts(game, att, dfn, defender=False, final=final, own_figs=att_figs, enemy_figs=def_figs,
                          casualties=att_cas, skip=skip) + list(extra_att)
    d_sh = courage_shifts(game, dfn, att, defender=True, final=final, own_figs=def_figs, enemy_figs=att_figs,
                          casualties=def_cas, skip=skip) + list(extra_def)
    a_die, d_die = shift_open_both(att.quality, sum(s for _, s in a_sh), dfn.quality, sum(s for _, s in d_sh))
    a = game.dice.roll(a_die)
    d = game.dice.roll(d_die)
    return a, d, a_die, d_die, a_sh, d_sh


# ---------------------------------------------------------------------------------------- combat resolution

def strike_dice(u: Unit, figs) -> tuple[list[int], bool]:
    """Strike dice of the striking figures: (SV x troopers) rounded up to a die (< 4 -> D4), plus the
    strike dice of special close-combat weapons.  Returns (dice, over_12)."""
    weapons = armoury()[0]
    sv = 0.0
    special = []
    for i in figs:
        w = weapons[u.figures[i].weapon]
        if w.strike_die >= 0:
            special.append(w.strike_die)
        else:
            sv += w.strike
    dice = []
    if sv > 0:
        dice.append(value_to_die(math.ceil(sv - 1e-9)))
    dice.extend(special)
    if u.profile.vehicle is not None:  # a mech's close-combat weapons: one strike die each (RN-851)
        dice.extend(parse_die(w.strike) for w in u.profile.vehicle.weapons if w.category == "close_combat" and w.strike)
    return dice, sv > 12


def resolve_strike(dice, *, quality: int, strike: list[int], target: int, extra_hits: bool = True):
    """Striker rolls quality + strike dice against the target's (shifted) quality die.

    Order of rolls: target die, quality die, strike dice, then the remainder roll.  One success is a
    minor success (total / target die type), two or more a major one (total doubled).
    Returns ``(target_roll, rolls, successes, result, hits)``.
    """
    t = dice.roll(target)
    rolls = [dice.roll(quality)] + [dice.roll(s) for s in strike]
    successes = sum(1 for r in rolls if r > t)
    if successes == 0:
        return t, tuple(rolls), 0, "none", 0
    total = sum(rolls)
    result = "minor" if successes == 1 else "major"
    if result == "major":
        total *= 2
    hits, rem = divmod(total, die_max(target))
    if extra_hits and rem and dice.roll(target) <= rem:
        hits += 1
    return t, tuple(rolls), successes, result, hits


def apply_hits(game, striker: Unit, target: Unit, figs: list[int], hits: int, cas: dict,
               impact: int | None = None, armour_shift: int = 0) -> None:
    """Allocate hits at random among the target detachment's figures (not killed), then roll the
    striker's close-combat impact (``impact``: a special-weapon detachment's own, else the unit's ``cc_impact``)
    against each figure's armour, no cover or prop shifts (the attack pipeline: a power-armoured figure takes
    the Power Armour Troops as Casualties table, an extracted occupant its own armour, RN-500)."""
    if striker.profile.vehicle is not None or target.profile.vehicle is not None:
        game.rules.services["mech_close_combat_hits"](game, striker, target, figs, hits, cas)  # RN-852
        return
    res = resolve_hits(game, target, hits, striker.cc_impact if impact is None else impact, armour_shift, figs)
    if res.leader_hit:
        cas["leader"] = True


def casualty_counts(u: Unit, figs, before: dict) -> dict:
    """Figures wounded / killed since ``before`` (figure index -> status at contact)."""
    w = k = 0
    for i in figs:
        s0, s1 = before[i], u.figures[i].status
        if s1 == s0:
            continue
        if s1 == KILLED:
            k += 1
        elif s1 in (WOUNDED, TREATED):  # a power-armoured trooper stabilised by the casualty table: wounded
            w += 1
    return {"wounded": w, "killed": k}


def split_figures(u: Unit, opponents: list[int], figs: list[int] | None = None) -> list[list[int]]:
    """Split a unit's able figures (or ``figs``) into detachments matched to the opponents' sizes (seed 000
    Multiple Units in Close Combat: "as nearly as possible"); remainders go to the largest opponents, and no
    detachment is left empty while another has two figures or more."""
    able = u.able() if figs is None else list(figs)
    if len(opponents) <= 1:
        return [able]
    n, total = len(able), sum(opponents) or 1
    quotas = [n * s / total for s in opponents]
    sizes = [int(q) for q in quotas]
    order = sorted(range(len(opponents)), key=lambda i: (-(quotas[i] - sizes[i]), -opponents[i], i))
    for i in order[: n - sum(sizes)]:
        sizes[i] += 1
    for i in range(len(sizes)):
        if sizes[i] == 0:
            j = max(range(len(sizes)), key=lambda k: (sizes[k], -k))
            if sizes[j] > 1:
                sizes[j] -= 1
                sizes[i] += 1
    out, pos = [], 0
    for s in sizes:
        out.append(able[pos: pos + s])
        pos += s
    return out


def special_impact(u: Unit, i: int) -> int:
    """The close-combat impact of figure ``i``'s special weapon if it is better than the unit's, else -1."""
    w = armoury()[0][u.figures[i].weapon]
    return w.cc_impact if w.cc_impact > u.cc_impact else -1


def split_special(game, p: dict, side: str) -> list[dict] | None:
    """Seed 000 Special Close Combat Weapons: "Some close combat weapons have an impact value greater than the
    normal squad impact value ... the unit should split into detachments as described above" (RN-304).  In the
    pairing ``p``, ``side``'s ("a" or "d") able figures with such a weapon become their own detachment striking
    with the weapon's impact (the lowest, if several), the rest another; the opposing detachment is split to
    match them (Multiple Units in Close Combat).  Returns the two pairings, or None if the split is not possible
    (no special figure, no other figure, or fewer than two opposing figures)."""
    units = game.units
    other = "d" if side == "a" else "a"
    u, o = units[p[side]], units[p[other]]
    spec, rest = [], []
    for i in p[side + "f"]:
        if u.figures[i].status == OK:
            (spec if special_impact(u, i) > 0 else rest).append(i)
    ofigs = [i for i in p[other + "f"] if o.figures[i].status == OK]
    if not spec or not rest or len(ofigs) < 2:
        return None
    o_spec, o_rest = split_figures(o, [strength(u, spec), strength(u, rest)], ofigs)
    p1 = dict(p)
    p1[side + "f"], p1[other + "f"], p1[side + "_impact"] = spec, o_spec, min(special_impact(u, i) for i in spec)
    p2 = dict(p)
    p2[side + "f"], p2[other + "f"] = rest, o_rest
    return [p1, p2]


def combat_target_die(game, target: Unit, own: int, other: int, striker_over_12: bool) -> int:
    """The target's quality die shifted down for outnumbering (2:1 once, 3:1 twice), once per
    suppression marker and once more if the striker's strike value exceeds 12 (closed shifts)."""
    shift = 0
    n = outnumbered(own, other)
    shift -= 2 if n == 3 else (1 if n == 2 else 0)
    if target.confidence != ROUTED:
        shift -= target.suppression
    if striker_over_12:
        shift -= 1
    q = target.quality
    if target.profile.vehicle is not None and target.damage:  # L1463: a damaged mech defending itself (RN-136)
        q = game.rules.services["defending_quality"](target)
    return shift_closed(q, shift)


def fight_pairs(game, pairs: list[dict]) -> None:
    """Seed 000 Combat Resolution for every pairing: round 1 each attacker strikes, round 2 each
    defender strikes back with the figures able at contact (simultaneous; routed units do not strike)."""
    units = game.units
    for p in pairs:
        a, d = units[p["a"]], units[p["d"]]
        p["a_before"] = {i: a.figures[i].status for i in p["af"]}
        p["d_before"] = {i: d.figures[i].status for i in p["df"]}
        p["a_str"], p["d_str"] = unit_counts(game, a, p["af"], d, p["df"])
        p["a_cas"], p["d_cas"] = {}, {}
    for rnd in (1, 2):
        for p in pairs:
            a, d = units[p["a"]], units[p["d"]]
            if rnd == 1:
                s, t, sf, tf, s_str, t_str, cas = a, d, p["af"], p["df"], p["a_str"], p["d_str"], p["d_cas"]
            else:
                s, t, sf, tf, s_str, t_str, cas = d, a, p["df"], p["af"], p["d_str"], p["a_str"], p["a_cas"]
            if s.confidence == ROUTED or not sf:
                continue  # routing units do not strike back
            dice, over = strike_dice(s, sf)
            tdie = combat_target_die(game, t, t_str, s_str, over)
            tr, rolls, succ, result, hits = resolve_strike(game.dice, quality=s.quality, strike=dice, target=tdie,
                                                           extra_hits=game.options["extra_hits"])
            game.emit(StrikeResolved(s.uid, t.uid, rnd, die_name(tdie), tr,
                                     tuple(die_name(x) for x in [s.quality] + dice), rolls, succ, result, hits))
            apply_hits(game, s, t, tf, hits, cas, p.get("a_impact" if rnd == 1 else "d_impact"),
                       p.get("d_cover", 0) if rnd == 1 else 0)  # passengers behind cover (RN-856)
    for p in pairs:
        a, d = units[p["a"]], units[p["d"]]
        p["a_cas"].update(casualty_counts(a, p["af"], p["a_before"]))
        p["d_cas"].update(casualty_counts(d, p["df"], p["d_before"]))
        for cas in (p["a_cas"], p["d_cas"]):
            if "damage" in cas:  # a mech's damage markers count as wounded figures in the courage test (RN-852)
                cas["wounded"] = cas.get("wounded", 0) + cas.pop("damage")
        for u, cas in ((a, p["a_cas"]), (d, p["d_cas"])):
            if cas.get("leader") and not u.leader_lost and u.figures[u.leader].status != OK:
                u.leader_lost = True
                game.emit(LeaderLost(u.uid, u.leader))
                if u.in_play:  # Death of a Leader (L1186): the unit tests at once, besides the outcome test
                    confidence_test(game.dice, u, ["leader_casualty"], events=game.events)
                [hook(game, u) for hook in game.rules.on_leader_lost]  # a commander falling in close combat: subordinates test


def pair_outcome(game, p: dict) -> tuple[str, int, int]:
    """Outcome test of one pairing: (loser "a" | "d" | "" , levels for the loser, winner) -- draws: the
    attacker withdraws without a drop; total victory: no test."""
    a, d = game.units[p["a"]], game.units[p["d"]]
    a_gone = all(a.figures[i].status != OK for i in p["af"]) if p["af"] and a.in_play else not a.in_play
    d_gone = all(d.figures[i].status != OK for i in p["df"]) if p["df"] and d.in_play else not d.in_play
    if d_gone and not a_gone:
        game.emit(CourageTested(a.uid, d.uid, True, "", "", (), (), 0, 0, "total_victory_attacker"))
        return "", 0, 0
    if a_gone and not d_gone:
        game.emit(CourageTested(a.uid, d.uid, True, "", "", (), (), 0, 0, "total_victory_defender"))
        return "", 0, 0
    if a_gone and d_gone:
        return "", 0, 0
    extra_a, extra_d = p.get("extra_a", ()), p.get("extra_d", ())
    A, D, ad, dd, ash, dsh = courage_roll(game, a, d, final=True, att_figs=p["af"], def_figs=p["df"],
                                          att_cas=p["a_cas"], def_cas=p["d_cas"], extra_att=extra_a,
                                          extra_def=extra_d)
    if A > D:
        res, loser, lv = ("defender_loses_two" if A > 2 * D else "defender_loses"), "d", (2 if A > 2 * D else 1)
    elif D > A:
        res, loser, lv = ("attacker_loses_two" if D > 2 * A else "attacker_loses"), "a", (2 if D > 2 * A else 1)
    else:
        res, loser, lv = "draw", "a", 0
    game.emit(CourageTested(a.uid, d.uid, True, die_name(ad), die_name(dd), tuple(ash), tuple(dsh), A, D, res))
    return loser, lv, 0


# ---------------------------------------------------------------------------------------- the procedure

def _can_fire(game, dfn: Unit, att: Unit) -> list:
    """Final defensive fire options of the defender against the attacker (empty: none possible)."""
    if not dfn.in_play or dfn.confidence == ROUTED:
        return []
    if dfn.confidence == BROKEN and not game.bf.in_cover(dfn.x, dfn.y):
        return []
    if dfn.profile.vehicle is not None:  # a mech or monster: its support weapons (RN-853)
        svc = game.rules.services.get("mech_defensive_fire")
        return svc.options(game, dfn, att) if svc is not None else []
    saved = set(dfn.fired)
    dfn.fired.clear()  # final defensive fire is allowed even if the defender has already fired
    conc = dfn.complete_concealment
    dfn.complete_concealment = False
    try:
        modes = [m for m in FIRE_MODES if m != "suppressive" and shot_plan(game, dfn, att, m) is not None]
    finally:
        dfn.fired.clear()
        dfn.fired.update(saved)
        dfn.complete_concealment = conc
    return [("fire", m) for m in modes]


class AssaultProcedure:
    """Procedure frame ``"assault"``; ``frame.data`` is plain data (see :func:`begin_assault`)."""

    # ------------------------------------------------------------------ decisions
    def decision(self, game, frame):
        d = frame.data
        st = d["stage"]
        units = game.units
        if st == "response":
            u = units[d["queue"][0]]
            if assaulted_vehicle(u) and not game.rules.services["vehicle_assault"].may_withdraw(game, u):
                return Decision(u.side, "assault_response", u.uid, (("stand",),))  # an immobile vehicle (RN-906)
            return Decision(u.side, "assault_response", u.uid, (("stand",), ("withdraw",)))
        if st == "follow_up":
            a = units[d["cur"]]
            chosen = d["follow"].get(str(a.uid))
            if chosen:  # following several withdrawn defenders: one more, or go
                return Decision(a.side, "assault_follow_up", a.uid, (("defenders_chosen",),) + tuple(
                    ("follow", x) for x in followable(game, d, a, chosen)))
            opts = [("occupy",)]
            cands = followable(game, d, a, [])
            if len(cands) == 1:
                opts.append(("contact",))
            else:  # "continue the assault on one or both of the withdrawing enemy"
                opts.extend(("follow", x) for x in cands)
            return Decision(a.side, "assault_follow_up", a.uid, tuple(opts))
        if st == "dfire":
            a = units[d["cur"]]
            t = units[d["target"][str(a.uid)]]
            return Decision(t.side, "final_defensive_fire", t.uid,
                                  tuple(_can_fire(game, t, a)) + (("hold_fire",),))
        if st == "second":
            a = units[d["cur"]]
            return Decision(a.side, "second_move", a.uid, (("contact",), ("halt",)))
        if st == "special":
            u = units[d["special_q"]]
            return Decision(u.side, "special_weapons", u.uid, (("no_split",), ("split_special",)))
        if st == "house":
            return game.rules.services["house_close_combat"].decision(game, frame)
        raise RuntimeError(f"assault procedure has no decision in stage {st!r}")  # pragma: no cover

    def apply(self, game, frame, opt):
        d = frame.data
        st = d["stage"]
        units = game.units
        if st == "response":
            uid = d["queue"].pop(0)
            u = units[uid]
            game.emit(AssaultResponse(uid, opt[0]))
            if opt[0] == "withdraw":
                self._defender_withdraws(game, d, u, "voluntary withdrawal")
        elif st == "follow_up":
            a = units[d["cur"]]
            if opt[0] == "occupy":
                occupy(game, a, *d["old_pos"][str(d["target"][str(a.uid)])])
                d["result"][str(a.uid)] = "occupied"
                self._next_mover(d)
            elif opt[0] == "follow":
                key = str(a.uid)
                chosen = d["follow"].setdefault(key, [])
                chosen.append(int(opt[1]))
                if not followable(game, d, a, chosen):
                    self._follow(game, d, a)
            elif opt[0] == "defenders_chosen":
                self._follow(game, d, a)
            else:
                self._contact_move(game, d, a, first=True, can_fire=False)
        elif st == "dfire":
            a = units[d["cur"]]
            t = units[d["target"][str(a.uid)]]
            cas = 0
            if opt[0] == "fire" and t.profile.vehicle is not None:  # a vehicle fires while suppressed (RN-140, RN-853)
                cas = game.rules.services["mech_defensive_fire"].fire(game, t, a, opt[1])
            elif opt[0] == "fire":
                fire = True
                if t.suppression > 0:
                    roll = game.dice.roll(t.quality)
                    need = t.lv + t.suppression
                    fire = roll > need
                    game.emit(SuppressionTested(t.uid, roll, need, fire))
                if fire:
                    saved = set(t.fired)
                    t.fired.clear()
                    t.complete_concealment = False
                    cas = shoot(game, t, a, opt[1], reaction=True)
                    t.fired.clear()
                    t.fired.update(saved)
            self._after_fire(game, d, a, cas)
        elif st == "second":
            a = units[d["cur"]]
            if opt[0] == "contact":
                self._contact_move(game, d, a, first=False, can_fire=False)
            else:
                d["result"][str(a.uid)] = "halted"
                self._next_mover(d)
        elif st == "special":
            uid = d["special_q"]
            d["split_asked"].append(uid)
            if opt[0] == "split_special":
                d["split"].append(uid)
            game.emit(SpecialWeaponsChoice(uid, opt[0] == "split_special"))
            d["stage"] = "combat"
        elif st == "house":
            game.rules.services["house_close_combat"].apply(game, frame, opt)
        self.run(game, frame)

    # ------------------------------------------------------------------ automatic stages
    def run(self, game, frame) -> None:
        """Advance the automatic stages until a decision is pending or the assault is over."""
        d = frame.data
        units = game.units
        while game.phase != "over":
            st = d["stage"]
            if st == "response":
                # routed defenders must withdraw (no choice); withdrawn/destroyed defenders drop out
                while d["queue"]:
                    u = units[d["queue"][0]]
                    if not u.in_play:
                        d["queue"].pop(0)
                    elif u.confidence == ROUTED and not assaulted_vehicle(u):  # a vehicle decides (L1522)
                        d["queue"].pop(0)
                        game.emit(AssaultResponse(u.uid, "withdraw"))
                        self._defender_withdraws(game, d, u, "routed defender withdraws")
                    else:
                        return  # a stand/withdraw decision
                d["stage"] = "courage"
            elif st == "courage":
                self._courage(game, d)
                d["stage"] = "move"
            elif st == "move":
                if not d["movers"]:
                    d["stage"] = "combat"
                    continue
                a = units[d["movers"][0]]
                d["cur"] = a.uid
                if not a.in_play:
                    self._next_mover(d)
                    continue
                key = str(a.uid)
                standing = [x for x in d["pairs"][key] if x not in d["withdrawn"] and units[x].in_play]
                if not standing:
                    tgt = followable(game, d, a, []) or [x for x in d["pairs"][key] if x in d["withdrawn"]]
                    if not tgt:
                        d["result"][key] = "no_target"
                        self._next_mover(d)
                        continue
                    d["target"][key] = min(tgt, key=lambda x: math.hypot(units[x].x - a.x, units[x].y - a.y))
                    d["stage"] = "follow_up"
                    return
                d["target"][key] = min(standing, key=lambda x: math.hypot(units[x].x - a.x, units[x].y - a.y))
                if d["two_inch"]:
                    d["contact"].append(a.uid)
                    game.emit(ContactMove(a.uid, d["target"][key], 0, 0.0, (round(a.x, 3), round(a.y, 3)),
                                          (round(a.x, 3), round(a.y, 3)), True))
                    self._next_mover(d)
                    continue
                self._contact_move(game, d, a, first=True, can_fire=True)
                if d["stage"] != "move":
                    return
            elif st in ("follow_up", "dfire", "second"):
                return
            elif st == "combat":
                self._vehicle_contacts(game, d)
                if game.options["close_combat"] == "house":
                    game.rules.services["house_close_combat"].start(game, frame)
                    if d["stage"] == "house":
                        return
                else:
                    pairs = self.split_pairs(game, d)
                    ask = self._next_special(game, d, pairs)
                    if ask is not None:  # a unit may split off its special close-combat weapons first
                        d["special_q"] = ask
                        d["stage"] = "special"
                        return
                    self._combat(game, d, pairs)
                    d["stage"] = "done"
            elif st in ("house", "special"):
                return
            elif st == "done":
                self._finish(game, frame)
                return

    # ------------------------------------------------------------------ pieces
    def _defender_withdraws(self, game, d, u: Unit, reason: str) -> None:
        d["withdrawn"].append(u.uid)
        d["old_pos"][str(u.uid)] = [u.x, u.y]
        away = [game.units[a] for a in d["attackers"] if a in d["pair_of_def"].get(str(u.uid), d["attackers"])]
        withdraw(game, u, away, 1 if u.confidence != ROUTED else 0, reason)

    def _courage(self, game, d) -> None:
        units = game.units
        worst: dict = {}
        rank = {"fail_badly": 0, "fail": 1, "go": 2}
        for a_uid in d["attackers"]:
            key = str(a_uid)
            a = units[a_uid]
            worst[key] = "go"
            defs = d["pairs"][key]
            standing = [x for x in defs if x not in d["withdrawn"] and units[x].in_play]
            if d["two_inch"] or not standing:
                continue
            # detachments matched to the opposing sizes (one attacker vs several defenders)
            figs = split_figures(a, [strength(units[x]) for x in standing]) if len(standing) > 1 else [None]
            for x, af in zip(standing, figs):
                t = units[x]
                A, D, ad, dd, ash, dsh = courage_roll(game, a, t, final=False, att_figs=af)
                forced = not assaulted_vehicle(t)  # "the vehicle can't be forced to withdraw" (L1522, RN-902)
                if t.confidence == BROKEN and A > D and forced:
                    res = "defender_routs"
                elif A > 2 * D and forced:
                    res = "defender_withdraws"
                elif A > D:
                    res = "contact"
                elif 2 * A < D:
                    res = "fail_badly"
                else:
                    res = "fail"
                game.emit(CourageTested(a.uid, t.uid, False, die_name(ad), die_name(dd), tuple(ash), tuple(dsh),
                                        A, D, res))
                if res == "defender_routs":
                    old = t.confidence
                    t.confidence = ROUTED
                    game.emit(ConfidenceDropped(t.uid, ROUTED - old, "broken defender routs", "routed"))
                    self._defender_withdraws(game, d, t, "broken defender routs")
                elif res == "defender_withdraws":
                    self._defender_withdraws(game, d, t, "forced to withdraw by the courage test")
                elif res in ("fail", "fail_badly"):
                    r = res
                    if rank[r] < rank[worst[key]]:
                        worst[key] = r
                    if r == "fail_badly" and t.suppression == 0:
                        d["drops"][key] = d["drops"].get(key, 0) + 1
        for key, w in worst.items():
            a = units[int(key)]
            if w == "go":
                d["movers"].append(int(key))
                continue
            d["result"][key] = "courage_" + w
            drops = d["drops"].get(key, 0)
            if w == "fail_badly":
                d["end"][key] = True
                drop_confidence(game, a, drops, "last minute bout of nerves")
            else:
                d["end"][key] = False  # loses the first action; may still use the second

    def _contact_move(self, game, d, a: Unit, *, first: bool, can_fire: bool) -> None:
        key = str(a.uid)
        t = game.units[d["target"][key]]
        if first:
            d["start"][key] = [a.x, a.y]
        roll, points, start, reached = contact_move(game, a, t, game.movement_die(a))  # RN-405
        game.emit(ContactMove(a.uid, t.uid, roll, points, (round(start[0], 3), round(start[1], 3)),
                              (round(a.x, 3), round(a.y, 3)), reached))
        if reached:
            d["contact"].append(a.uid)
            d["engaged"][key] = list(d["follow"].get(key) or [t.uid])  # followed units fight it together
            self._next_mover(d)
            return
        if first and can_fire and t.uid not in d["withdrawn"] and _can_fire(game, t, a):
            d["stage"] = "dfire"
            return
        if first:
            self._after_fire(game, d, a, 0)
            return
        d["result"][key] = "fell_short"
        self._next_mover(d)

    def _after_fire(self, game, d, a: Unit, casualties: int) -> None:
        key = str(a.uid)
        if casualties and a.in_play:
            roll = game.dice.roll(a.quality)
            need = a.lv + casualties
            ok = roll > need
            game.emit(AssaultReaction(a.uid, roll, need, ok))
            if not ok:
                sx, sy = d["start"][key]
                start = (a.x, a.y)
                a.x, a.y = sx, sy
                game.emit(Moved(a.uid, 0, 0.0, (round(start[0], 3), round(start[1], 3)), (round(sx, 3), round(sy, 3)),
                                True))
                if a.suppression < 3:
                    a.suppression += 1
                d["result"][key] = "driven_back"
                self._next_mover(d)
                return
        if not a.in_play:
            d["result"][key] = "destroyed"
            self._next_mover(d)
            return
        if d["second_ok"].get(key, False):
            d["stage"] = "second"
            return
        d["result"][key] = "fell_short"
        self._next_mover(d)

    def _follow(self, game, d, a: Unit) -> None:
        """Continue the assault on the chosen withdrawn defenders: one contact move toward the nearest; if it
        reaches, every chosen unit is engaged (they lie within DEFENDER_SPREAD of each other)."""
        key = str(a.uid)
        units = game.units
        d["target"][key] = min(d["follow"][key], key=lambda x: (math.hypot(units[x].x - a.x, units[x].y - a.y), x))
        self._contact_move(game, d, a, first=True, can_fire=False)

    def _next_mover(self, d) -> None:
        if d["movers"]:
            d["movers"].pop(0)
        d["stage"] = "move"

    def combat_pairs(self, game, d) -> list[dict]:
        """Pairings of units in contact, with the figures of each detachment."""
        units = game.units
        engaged = []
        for a_uid in d["contact"]:
            for x in d["pairs"][str(a_uid)]:
                t = units[x]
                if t.in_play and units[a_uid].in_play and (x not in d["withdrawn"]
                                                           or x in d["engaged"].get(str(a_uid), ())):
                    engaged.append((a_uid, x))
        pairs = []
        by_a: dict = {}
        by_d: dict = {}
        for a_uid, x in engaged:
            by_a.setdefault(a_uid, []).append(x)
            by_d.setdefault(x, []).append(a_uid)
        afig = {}
        for a_uid, ds in by_a.items():
            for x, figs in zip(ds, split_figures(units[a_uid], [strength(units[x]) for x in ds])):
                afig[(a_uid, x)] = figs
        dfig = {}
        for x, as_ in by_d.items():
            for a_uid, figs in zip(as_, split_figures(units[x], [strength(units[a]) for a in as_])):
                dfig[(a_uid, x)] = figs
        for a_uid, x in engaged:
            pairs.append({"a": a_uid, "d": x, "af": afig[(a_uid, x)], "df": dfig[(a_uid, x)]})
        return pairs

    def split_pairs(self, game, d) -> list[dict]:
        """The combat pairings with the special-weapon detachments chosen so far (in the order chosen)."""
        pairs = self.combat_pairs(game, d)
        for uid in d["split"]:
            out = []
            for p in pairs:
                side = "a" if p["a"] == uid else ("d" if p["d"] == uid else "")
                parts = split_special(game, p, side) if side else None
                out.extend(parts or [p])
            pairs = out
        return pairs

    def _next_special(self, game, d, pairs) -> int | None:
        """The next unit (attackers first) that may split off its special weapons and has not been asked."""
        order = list(d["attackers"]) + list(d["defenders"])
        for uid in order:
            if uid in d["split_asked"]:
                continue
            for p in pairs:
                for side in ("a", "d"):
                    if p[side] == uid and split_special(game, p, side) is not None:
                        return uid
        return None

    def _combat(self, game, d, pairs=None) -> None:
        if pairs is None:
            pairs = self.combat_pairs(game, d)
        if not pairs:
            return
        fight_pairs(game, pairs)
        self.apply_outcomes(game, d, [(p, *pair_outcome(game, p)) for p in pairs])

    def _vehicle_contacts(self, game, d) -> None:
        """Infantry Assaulting Vehicles (L1532): an attacker in contact with a vehicle (not a mech or monster) makes
        one impact roll against it instead of close combat, then withdraws towards cover (the vehicle rules'
        ``vehicle_assault.contact``, RN-142); it takes no part in the combat that follows."""
        units = game.units
        for a_uid in list(d["contact"]):
            a = units[a_uid]
            key = str(a_uid)
            for x in d["pairs"][key]:
                v = units[x]
                if (assaulted_vehicle(v) and v.in_play and a.in_play
                        and (x not in d["withdrawn"] or x in d["engaged"].get(key, ()))):
                    d["contact"].remove(a_uid)
                    game.rules.services["vehicle_assault"].contact(game, a, v)
                    d["result"][key] = "attacked_vehicle"
                    break

    def apply_outcomes(self, game, d, outcomes) -> None:
        """Each parent unit obeys the worst result: one withdrawal move, every confidence loss."""
        units = game.units
        wd: dict = {}
        levels: dict = {}
        away: dict = {}
        for p, loser, lv, _ in outcomes:
            if not loser:
                continue
            u = p["a"] if loser == "a" else p["d"]
            other = p["d"] if loser == "a" else p["a"]
            wd[u] = True
            levels[u] = levels.get(u, 0) + lv
            away.setdefault(u, []).append(units[other])
        for uid in sorted(wd):
            d["result"][str(uid)] = "lost_combat"
            withdraw(game, units[uid], away[uid], levels[uid], "lost the close combat")
        for a_uid in d["contact"]:
            d["result"].setdefault(str(a_uid), "won_combat" if a_uid not in wd else "lost_combat")

    def _finish(self, game, frame) -> None:
        d = frame.data
        game.stack.pop()
        game.emit(AssaultEnded(tuple(d["attackers"]), tuple(d["defenders"]),
                               ",".join(f"{k}:{v}" for k, v in sorted(d["result"].items()))))
        if game.phase == "over":
            return
        below = game.activation_frame()
        if below is None:  # pragma: no cover - an assault always runs inside an activation
            game.phase = "activate"
            game.next_activation()
            return
        if d["via_action"]:
            a_uid = d["attackers"][0]
            a = game.units[a_uid]
            if a.leader_lost and d["leader_ok"][str(a_uid)]:
                below.data["no_appoint"] = True  # the leader fell in the assault: reorganise next activation
            end = d["end"].get(str(a_uid), True)
            game.phase = "action"
            game.action_done(a, below.actions_left if end else 1)
        else:
            game.phase = "action"
            game.action_done(game.units[below.unit], d["count_below"])


PROCEDURE = AssaultProcedure()


def begin_assault(game, attackers: list[int], defenders, *, via_action: bool = False, count_below: int = 1) -> None:
    """Start an assault: one attacker against one or several defenders, or several attackers (a
    combined assault ordered by a commander) against one defender.

    With ``via_action`` the first attacker's own activation frame is below (the Assault Action); the
    assault then counts the attacker's actions.  Otherwise (e.g. the command module's combined assault)
    the activation below counts ``count_below`` actions when the assault ends.  Both the attackers and
    the defenders are considered activated.
    """
    if isinstance(defenders, int):
        defenders = [defenders]
    attackers, defenders = [int(a) for a in attackers], [int(x) for x in defenders]
    if not attackers or not defenders:
        raise ValueError("an assault needs at least one attacker and one defender")
    if len(attackers) > 1 and len(defenders) > 1:
        raise ValueError("an assault is one attacker against several defenders or several attackers against one")
    sides = {game.units[a].side for a in attackers}
    if len(sides) != 1 or any(game.units[x].side in sides for x in defenders):
        raise ValueError("attackers must be of one side and defenders of the other")
    units = game.units
    two_inch = all(within_two_inches(units[a], units[x]) for a in attackers for x in defenders)
    for uid in attackers + defenders:
        units[uid].activated = True
    pairs = {str(a): list(defenders) for a in attackers}
    pair_of_def = {str(x): list(attackers) for x in defenders}
    data = {
        "stage": "response", "attackers": attackers, "defenders": defenders, "two_inch": two_inch,
        "via_action": bool(via_action), "count_below": int(count_below),
        "pairs": pairs, "pair_of_def": pair_of_def,
        "queue": [] if two_inch else list(defenders), "withdrawn": [], "old_pos": {},
        "movers": [], "cur": attackers[0], "target": {}, "start": {}, "contact": [], "engaged": {}, "follow": {},
        "split_asked": [], "split": [],
        "second_ok": {str(a): (not via_action) or game.activation_frame().actions_left >= 2 for a in attackers},
        "result": {}, "end": {}, "drops": {},
        "leader_ok": {str(a): not units[a].leader_lost for a in attackers},
    }
    game.emit(AssaultDeclared(tuple(attackers), tuple(defenders), two_inch))
    frame = Frame("assault", attackers[0], 0, False, data)
    game.stack.append(frame)
    game.invalidate()
    PROCEDURE.run(game, frame)


# ---------------------------------------------------------------------------------------- action + provider

def may_assault(u: Unit) -> bool:
    """The attacker's own restrictions: not suppressed, propped, disorganised, panicking or leaderless,
    and Confident or Steady (notes * and ** of the courage test)."""
    return (u.in_play and not u.suppression and not u.propped and u.confidence <= STEADY
            and not getattr(u, "panicked", False) and not u.leader_lost and not u.disorganised()
            and (u.profile.vehicle is None or u.kind in MECHS))  # vehicles tank-shock instead (RN-850)


def target_in_reach(game, u: Unit, e: Unit, reach: float | None = None) -> bool:
    """The target's leader within twice a maximum move (``reach``: ``assault_reach(u, game)`` if the caller has
    it), in line of sight, not completely concealed."""
    if e.complete_concealment or not e.in_play:
        return False
    if (e.profile.vehicle is not None or u.profile.vehicle is not None) and not mech_assault(game, u, e):
        return False
    if reach is None:
        reach = assault_reach(u, game)
    dx, dy = e.x - u.x, e.y - u.y
    if dx * dx + dy * dy > reach * reach:
        return False
    return game.bf.has_los(u.x, u.y, e.x, e.y)


def mech_assault(game, u: Unit, e: Unit) -> bool:
    """Infantry, mechs and monsters assault one another as infantry (L1514; seed 003 Mechs under the house close
    combat, RN-854); other vehicles are assaulted by the Close Assault rules (``assault_vehicle``) and tank-shock."""
    return (u.profile.vehicle is None or u.kind in MECHS) and (e.profile.vehicle is None or e.kind in MECHS)


def can_assault(game, u: Unit, e: Unit) -> bool:
    """Could ``u`` assault ``e`` now (used by the command module's combined assault too)."""
    return may_assault(u) and target_in_reach(game, u, e)


def assault_options(game, u: Unit, status) -> list:
    """("assault", enemy) for an unsuppressed, unpropped, Confident/Steady unit: the target's leader
    within twice a maximum move and in line of sight, not completely concealed, not routed off."""
    if status.suppressed or status.disorganised or u.propped or u.confidence > STEADY:
        return []
    reach = assault_reach(u, game)  # once for all the enemies
    return [("assault", e.uid) for e in game.enemy_units(u.side) if target_in_reach(game, u, e, reach)]


def extra_defenders(game, u: Unit, chosen: list[int]) -> list[int]:
    """Enemy units that ``u`` may take on in the same assault as ``chosen`` (seed 000 Multiple Units in Close
    Combat: "one large unit assaults two smaller units that are close enough together to be reached in the same
    move ... the attacker must be able to maintain unit coherency"): each a legal target on its own, within
    DEFENDER_SPREAD of every chosen unit, and one able figure at least for every detachment (RN-300)."""
    if len(chosen) >= u.n_able():
        return []
    units = game.units
    out = []
    for e in game.enemy_units(u.side):
        if e.uid in chosen or not target_in_reach(game, u, e):
            continue
        if all(figure_gap(e, units[c]) <= DEFENDER_SPREAD + 1e-9 for c in chosen):
            out.append(e.uid)
    return out


def followable(game, d: dict, a: Unit, chosen: list[int]) -> list[int]:
    """Withdrawn defenders (still on the table) of attacker ``a`` that it may follow together with ``chosen``."""
    units = game.units
    out = []
    for x in d["pairs"][str(a.uid)]:
        if x in chosen or x not in d["withdrawn"] or not units[x].in_play:
            continue
        if all(figure_gap(units[x], units[c]) <= DEFENDER_SPREAD + 1e-9 for c in chosen):
            out.append(x)
    return out


class DeclareProcedure:
    """Frame ``"assault_declare"``: after ``("assault", uid)`` the attacker may add more defenders (decision
    kind ``assault_targets``), then the assault begins against all of them."""

    def decision(self, game, frame):
        d = frame.data
        u = game.units[d["attacker"]]
        return Decision(u.side, "assault_targets", u.uid, (("defenders_chosen",),) + tuple(
            ("add_defender", e) for e in extra_defenders(game, u, d["defenders"])))

    def apply(self, game, frame, opt):
        d = frame.data
        u = game.units[d["attacker"]]
        if opt[0] == "add_defender":
            d["defenders"].append(int(opt[1]))
            if extra_defenders(game, u, d["defenders"]):
                return  # one more, or go
        game.stack.pop()
        begin_assault(game, [u.uid], d["defenders"], via_action=True)


DECLARE = DeclareProcedure()


def do_assault(game, u: Unit, opt) -> bool:
    first = [int(opt[1])]
    if extra_defenders(game, u, first):  # other enemy units could be taken on in the same assault
        game.stack.append(Frame("assault_declare", u.uid, 0, False, {"attacker": u.uid, "defenders": first}))
    else:
        begin_assault(game, [u.uid], first, via_action=True)
    return False  # the procedure counts the actions


RULE = Rule(
    "Assault Action", 'seed 000 "Assault Action" .. "The Two Inch Rule", "Multiple Units in Close Combat", '
    '"Special Close Combat Weapons"',
    options=(Option("close_combat", "dustup", "the close combat rules: 'dustup' (seed 000 Assault Action) or "
                    "'house' (seed 003's house close combat)", kind="choice", choices=("dustup", "house")),
             Option("courage_table", None, "the courage-test table: null (data/courage_test.json), a file path or "
                    "a table object", kind="any")),
    families=(Family("assault", ("enemy",), 12, "Assault Action: declare a close assault on an enemy unit"),
              Family("stand", (), 13, "the defender stands and takes the courage test"),
              Family("occupy", (), 14, "occupy the withdrawn defender's position (house close combat: either side)"),
              Family("contact", (), 15, "the attacker (first or second move) attempts to contact"),
              Family("halt", (), 16, "give up the second move to contact (house close combat: no occupy or pursuit)"),
              Family("fire", ("mode",), 17, "final defensive fire with these weapons"),
              Family("hold_fire", (), 18, "no final defensive fire"),
              Family("resolve", ("enemy",), 19, "retired: no rule offers it now (kept so that later indices keep "
                     "their meaning)"),
              Family("add_defender", ("enemy",), 32, "assault declaration: add another defender to the same assault"),
              Family("defenders_chosen", (), 33, "assault declaration / follow-up: no more units to add"),
              Family("follow", ("enemy",), 34, "several defenders withdrew: continue the assault on this one "
                     "(house close combat: pursue)"),
              Family("split_special", (), 35, "Special Close Combat Weapons: their figures fight as a detachment"),
              Family("no_split", (), 36, "... or stay in the unit's strike pool (the unit's impact)")),
    init=(_init_hook,), actions={"assault": do_assault}, action_options=(assault_options,),
    procedures={"assault": PROCEDURE, "assault_declare": DECLARE},
    services={"assault": SimpleNamespace(begin=begin_assault, may_assault=may_assault, target_in_reach=target_in_reach,
                                         can_assault=can_assault, assault_reach=assault_reach)})
