"""Booby traps and improvised explosive devices (seed 000 "ADDITIONAL RULES › Booby Traps", "Improvised Explosive
Devices", L1982-1994).

Both are one-shot point entities (kinds ``booby_trap`` and ``ied``; an IED's ``state``: its ``impact``, D12 to
D12x5, and ``marked``) placed by the scenario and known to their owner only until found or set off.  They act at
the kernel's ``move_step`` point on the enemy's units only (the owner's troops know where they are, RN-1655):

* a booby trap (L1986): an infantry unit that moves within 3" rolls its quality die against a D8: higher, the trap
  is found and disabled (removed); otherwise it goes off: the model closest to it rolls its armour against a D8,
  every other model within 3" against a D6 (RN-172);
* an IED (L1990-1994): a vehicle that moves within 3" sets it off: its impact against the belly armour as an AT mine
  (L1932); it is removed.  Infantry moving within 3" roll quality against a D8 (once per move): higher, the IED is
  found and marked (both sides know it; it stays); a roll less than half the D8 sets it off: every infantry model
  within 6" rolls armour against a D12, and it is removed; otherwise nothing happens (only the owner hears of the
  roll).
"""
from __future__ import annotations

import math

from ...kernel import table
from ...kernel.dice import D6, D8, D12, parse_die
from ...kernel.entities import KILLED, Unit
from ...kernel.events import Event, event
from ...kernel.ruleset import Rule
from .minefields import (BOOBY_TRAP, IED, CounterRemoved, aircraft, casualty_consequences, mine_under_vehicle,
                         move_paths, strike_figure)

TRAP_REACH = 3.0  # L1986, L1990, L1994
TRAP_DETECT = D8  # L1986, L1994
TRAP_IMPACT, TRAP_SPLASH = D8, D6  # L1986
IED_BLAST = 6.0  # L1994
IED_INFANTRY_IMPACT = D12  # L1994


@event
class TrapTest(Event):
    """An infantry unit's quality roll against a booby trap's or an IED's D8: ``result`` disabled | marked |
    detonated | nothing."""
    unit: int
    entity: int
    roll: int
    trap_roll: int
    result: str


def applies(scenario, options) -> bool:
    return any(m["type"] in (BOOBY_TRAP, IED) for side in scenario["sides"] for m in side.get("mines", ()))


def _figure_points(u: Unit, x: float | None = None, y: float | None = None) -> list[tuple[int, float, float]]:
    """Where ``u``'s figures stand with its leader at (x, y) (default: where it is)."""
    lf = u.figures[u.leader]
    bx, by = (u.x if x is None else x) - lf.dx, (u.y if y is None else y) - lf.dy
    return [(i, bx + f.dx, by + f.dy) for i, f in enumerate(u.figures) if f.status != KILLED]


def _within(points, e, r):
    return [(i, x, y) for i, x, y in points if math.hypot(x - e["x"], y - e["y"]) <= r + 1e-9]


def _step(game, u: Unit, x0: float, y0: float, x1: float, y1: float) -> bool:
    if not u.in_play or u.veh.carrier >= 0 or aircraft(u):
        return False
    stop = False
    for kind in (BOOBY_TRAP, IED):
        for e in table.entities_of(game, kind):
            if e["owner"] == u.side or not u.in_play:
                continue
            if abs(e["x"] - x1) > 15.0 or abs(e["y"] - y1) > 15.0:
                continue
            if u.profile.vehicle is not None:
                if kind == IED and math.hypot(x1 - e["x"], y1 - e["y"]) <= TRAP_REACH + 1e-9:
                    table.reveal(game, e["id"])
                    res = mine_under_vehicle(game, u, e["id"], parse_die(e["state"]["impact"]))
                    game.emit(CounterRemoved(u.uid, e["id"], "used"))
                    table.remove(game, e["id"])
                    stop = stop or res != "none" or not u.in_play
                continue
            near = _within(_figure_points(u, x1, y1), e, TRAP_REACH)
            if not near:
                continue
            if kind == BOOBY_TRAP:
                _booby_trap(game, u, e, near)
            elif not e["state"]["marked"]:
                paths = move_paths(game, u)
                key = f"ied{e['id']}"
                if key not in paths:
                    paths[key] = 1.0
                    _ied_detection(game, u, e, x1, y1)
    return stop or not u.in_play


def _booby_trap(game, u: Unit, e: dict, near: list) -> None:
    q, d = game.dice.roll(u.quality), game.dice.roll(TRAP_DETECT)
    table.reveal(game, e["id"])
    if q > d:
        game.emit(TrapTest(u.uid, e["id"], q, d, "disabled"))
        game.emit(CounterRemoved(u.uid, e["id"], "disarmed"))
        table.remove(game, e["id"])
        return
    game.emit(TrapTest(u.uid, e["id"], q, d, "detonated"))
    closest = min(near, key=lambda p: (math.hypot(p[1] - e["x"], p[2] - e["y"]), p[0]))[0]
    casualties, leader_hit = 0, False
    for fi, _x, _y in near:
        c, lh = strike_figure(game, u, fi, TRAP_IMPACT if fi == closest else TRAP_SPLASH)
        casualties += c
        leader_hit = leader_hit or lh
    # "Other models within 3" of the device": every other infantry model standing there, of any unit (RN-1922)
    others = []
    for t in game.units:
        if t is u or not t.in_play or t.veh.carrier >= 0 or t.profile.vehicle is not None:
            continue
        there = _within(_figure_points(t), e, TRAP_REACH)
        if there:
            tc, tl = 0, False
            for fi, _x, _y in there:
                c, lh = strike_figure(game, t, fi, TRAP_SPLASH)
                tc += c
                tl = tl or lh
            others.append((t, tc, tl))
    game.emit(CounterRemoved(u.uid, e["id"], "used"))
    table.remove(game, e["id"])
    casualty_consequences(game, u, casualties, leader_hit)
    for t, tc, tl in others:
        casualty_consequences(game, t, tc, tl)


def _ied_detection(game, u: Unit, e: dict, x: float, y: float) -> None:
    q, d = game.dice.roll(u.quality), game.dice.roll(TRAP_DETECT)
    if q > d:
        table.reveal(game, e["id"])
        e["state"]["marked"] = True
        game.invalidate()
        game.emit(TrapTest(u.uid, e["id"], q, d, "marked"))
        return
    if 2 * q >= d:
        game.emit(TrapTest(u.uid, e["id"], q, d, "nothing"))  # an event of the entity: its owner's alone
        return
    table.reveal(game, e["id"])
    game.emit(TrapTest(u.uid, e["id"], q, d, "detonated"))
    for t in game.units:
        if not t.in_play or t.veh.carrier >= 0 or t.profile.vehicle is not None:
            continue
        near = _within(_figure_points(t, x, y) if t is u else _figure_points(t), e, IED_BLAST)
        if not near:
            continue
        casualties, leader_hit = 0, False
        for fi, _x, _y in near:
            c, lh = strike_figure(game, t, fi, IED_INFANTRY_IMPACT)
            casualties += c
            leader_hit = leader_hit or lh
        casualty_consequences(game, t, casualties, leader_hit)
    game.emit(CounterRemoved(u.uid, e["id"], "used"))
    table.remove(game, e["id"])


RULE = Rule(
    "Booby Traps and IEDs", 'seed 000 "ADDITIONAL RULES › Booby Traps", "Improvised Explosive Devices"',
    applies=applies,
    entity_kinds={BOOBY_TRAP: table.EntityKind("a booby trap: its owner's secret until found or set off",
                                               known="owner"),
                  IED: table.EntityKind("an improvised explosive device: its owner's secret until found (then "
                                        "marked) or set off", known="owner")},
    move_step=(_step,),
)
