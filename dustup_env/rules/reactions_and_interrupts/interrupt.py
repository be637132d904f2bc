"""Seed 004 "Interrupt" adapted to Dustup (game option ``interrupt``; S004:367-407; readings RN-1820..RN-1829).

* **Who** (S004:375, 377): a unit that has not activated this turn and may still (its activation is forfeited: it is
  marked activated), in play on the table, with no suppression marker and no "Morale marker" (Dustup: not shaken,
  broken or routed, RN-1821), free to act, that sees the enemy unit and has a Shoot Action option at it.
* **When** (S004:383-389): during an enemy unit's activation: at its start, after the ``on_activation`` hooks (the
  activation's own morale steps, S004:389), and at each step of its Move Actions' walks where an interrupter sees it
  (the interrupting side picks the point of the move: S004:385-387).  The decision ``interrupt`` offers
  ``("choose", uid)`` for each such unit, ``("hold_fire",)`` (mid-move: not yet, ask again at the next step) and
  ``("decline",)`` (no interrupt for the rest of this move, or at this activation's start).  The options reuse
  the action layout's families (``choose``, ``hold_fire``, ``decline``): the layout does not grow.  At most one
  decision a step keeps the count of decisions sane (RN-1822).
* **Spotting** (S004:395): the Detect Action's opposed roll (seed 000 "Detect Action": the target's range die
  against the interrupter's quality and sensor dice); one success spots; none and "the Interrupt action fails"
  (the activation is still forfeited: the element card is removed when the interrupt is declared, S004:377).
* **The attack** (S004:377, 397, 399): one Shoot Action of the unit at the activated enemy unit (decision
  ``interrupt_fire``: its Shoot Action options at it), through the Shoot Action's code as reaction fire: its
  suppression and confidence test are replaced by the target's response (RN-1824).  A Dustup unit fires at one
  target (S004:399's per-character targets do not apply).
* **The response** (S004:405): the unit fired at rolls its quality die with no modifiers against its leadership (the
  confidence test with a table value of 0, RN-1825): higher, it goes on (its move continues from where it was
  stopped); otherwise a suppression marker and its move ends there.
* Nothing interrupts a reaction or an interrupt, and an interrupt's fire opens no attack window (S001:139).
"""
from __future__ import annotations

import math

from ..kernel.decisions import Decision, Frame
from ..kernel.dice import die_name
from ..kernel.entities import STEADY, Unit
from ..kernel.events import Event, Suppressed, event
from ..kernel.ruleset import Option, Rule
from ..kernel.sequence import can_activate, pop, push
from ..unit_actions.detect_action import house_concealed, night_limited, range_die
from ..unit_actions.hidden_units import reveal
from ..unit_actions.move_action import WALK
from .reactions import (INT_FIRE, INT_OFFER, MAX_SUPPRESSION, SHOOT_FAMILIES, can_fire_at, fire, fire_options_at,
                        free_to_act, reacting, ready_again)


@event
class InterruptDeclared(Event):
    """A unit forfeits its activation to interrupt the enemy unit ``target`` (S004:377)."""
    unit: int
    target: int
    at: str  # "start" (the activation's start) or "move" (mid-move)


@event
class InterruptSpotRolled(Event):
    """The spot roll (S004:395): the target's range die against the interrupter's quality and sensor dice."""
    unit: int
    target: int
    range_die: str
    target_roll: int
    observer_dice: tuple
    observer_rolls: tuple
    spotted: bool


@event
class InterruptResponse(Event):
    """The target's morale roll (S004:405): its quality die against ``needed``; failed: a suppression marker and no
    further move."""
    unit: int
    roll: int
    needed: int
    passed: bool


def may_interrupt(game, u: Unit) -> bool:
    """S004:375: not activated this turn, no suppression marker, no "Morale marker" (steady or better)."""
    return can_activate(game, u) and u.confidence <= STEADY and free_to_act(game, u)


def spot_die(game, u: Unit, t: Unit):
    """The target's range die for the spot roll (the Detect Action's), or None beyond detection range."""
    return range_die(math.hypot(t.x - u.x, t.y - u.y), t.size, night_limited(game, u),
                     house_concealed(game, u, t.x, t.y), u.veh.damage)


def interrupters(game, side: int, target: Unit) -> list:
    """The units of ``side`` that may interrupt ``target`` now."""
    if target.hidden or not target.in_play or target.side == side:
        return []
    out = []
    for uid in game.side_units[side]:
        u = game.units[uid]
        if may_interrupt(game, u) and spot_die(game, u, target) is not None and can_fire_at(game, u, target):
            out.append(uid)
    return out


def _active_unit(game):
    f = game.activation_frame()
    return None if f is None else game.units[f.unit]


class InterruptOffer:
    """Frame ``interrupt_offer`` (data: ``side``, ``target``, ``at``: ``start`` or ``move``): the side may interrupt."""

    @staticmethod
    def decision(game, frame):
        d = frame.data
        opts = [("choose", uid) for uid in interrupters(game, d["side"], game.units[d["target"]])]
        if d["at"] == "move":
            opts.append(("hold_fire",))  # not yet: ask again at the next step
        opts.append(("decline",))  # no interrupt for the rest of this move
        return Decision(d["side"], "interrupt", -1, tuple(opts))

    @staticmethod
    def apply(game, frame, opt):
        d = frame.data
        if opt[0] != "choose":
            if opt[0] == "decline" and d["at"] == "move":
                walk = _walk_of(game, d["target"])
                if walk is not None:
                    walk.data["interrupt_passed"] = True
            pop(game, frame, used=0)
            return
        u, t = game.units[opt[1]], game.units[d["target"]]
        u.activated = True  # the activation is forfeited (S004:377)
        reveal(game, u, "fired")
        game.emit(InterruptDeclared(u.uid, t.uid, d["at"]))
        rdie = spot_die(game, u, t)
        dice = game.dice
        tr = dice.roll(rdie)
        q = dice.roll(u.quality)
        s = dice.roll(u.sensor)
        spotted = q > tr or s > tr
        game.emit(InterruptSpotRolled(u.uid, t.uid, die_name(rdie), tr, (die_name(u.quality), die_name(u.sensor)),
                                      (q, s), spotted))
        if spotted:
            push(game, Frame(INT_FIRE, u.uid, 0, False, {"target": t.uid}))
        else:
            InterruptOffer.resume(game, frame, None)

    @staticmethod
    def resume(game, frame, popped):
        d = frame.data
        if game.phase == "over":
            return
        t = game.units[d["target"]]
        walk = _walk_of(game, t.uid)
        if not interrupters(game, d["side"], t) or (walk is not None and walk.data.get("halted")):
            pop(game, frame, used=0)


def _walk_of(game, uid):
    for f in reversed(game.stack):
        if f.type == WALK and f.unit == uid:
            return f
    return None


class InterruptFire:
    """Frame ``interrupt_fire`` (unit: the interrupter; data: ``target``): its attack, then the target's response."""

    @staticmethod
    def decision(game, frame):
        u, t = game.units[frame.unit], game.units[frame.data["target"]]
        opts = tuple(fire_options_at(game, u, t)) or (("decline",),)
        return Decision(u.side, "interrupt_fire", u.uid, opts)

    @staticmethod
    def apply(game, frame, opt):
        u, t = game.units[frame.unit], game.units[frame.data["target"]]
        if opt[0] in SHOOT_FAMILIES and fire(game, u, t, opt, reaction=True) and game.phase != "over" and t.in_play:
            respond(game, t)
        if game.phase != "over":
            pop(game, frame, used=0)


def respond(game, t: Unit) -> None:
    """S004:405: a morale roll with no modifiers; failed, a suppression marker and the move ends where it is."""
    needed = t.lv
    roll = game.dice.roll(t.quality)
    passed = roll > needed
    game.emit(InterruptResponse(t.uid, roll, needed, passed))
    if passed:
        return
    t.suppression = min(MAX_SUPPRESSION, t.suppression + 1)
    game.emit(Suppressed(t.uid, t.suppression))
    walk = _walk_of(game, t.uid)
    if walk is not None:
        walk.data["halted"] = True  # the walk below ends where the unit was stopped


def _activation_start(game, u) -> None:
    """S004:389: an interrupt at the start of the enemy's activation, after its morale steps."""
    if reacting(game):
        return
    side = 1 - u.side
    if interrupters(game, side, u):
        push(game, Frame(INT_OFFER, -1, 0, False, {"side": side, "target": u.uid, "at": "start"}))


def _move_step(game, mover, walk) -> None:
    """S004:385-387: at a step of the activated unit's move, where an interrupter sees it."""
    if walk.type != WALK or walk.data.get("interrupt_passed") or walk.data.get("halted") or reacting(game):
        return
    a = _active_unit(game)
    if a is None or a.side != mover.side:
        return
    side = 1 - mover.side
    if interrupters(game, side, mover):
        push(game, Frame(INT_OFFER, -1, 0, False, {"side": side, "target": mover.uid, "at": "move"}))


RULE = Rule(
    "Interrupt", 'seed 004 "Interrupt" (S004:367-407)',
    options=(Option("interrupt", False, "seed 004 interrupts: an unactivated, unsuppressed unit forfeits its "
                    "activation for one attack during an enemy activation, after a spot roll"),),
    applies=lambda scenario, options: bool(options["interrupt"]),
    procedures={INT_OFFER: InterruptOffer(), INT_FIRE: InterruptFire()},
    reactions={"activation_start": _activation_start, "move_step": _move_step},
    activation_end=(ready_again,),
)
