"""Panic and Terror (seed 000 "MORALE › Panic", "› Terror"): the panic triggers (first sight of the enemy, of
armour, of a terror-provoking enemy, first time fired on, by quality), the panic test, the panicked unit's
recovery test (both actions) with a superior commander in direct contact lending its LV.
"""
from __future__ import annotations

from ..kernel.battlefield import observer_of
from ..kernel.data import armoury
from ..kernel.dice import D4, D6, D8, D10, D12
from ..kernel.entities import ROUTED, Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule

# Panic triggers (bits of Unit.panic_triggers): each fires at most once per unit per game.
PANIC_SIGHT_ANY, PANIC_FIRED_ON, PANIC_SIGHT_ARMOUR, PANIC_SIGHT_TERROR = 1, 2, 4, 8
_SIGHT_BITS = PANIC_SIGHT_ANY | PANIC_SIGHT_ARMOUR | PANIC_SIGHT_TERROR
PANIC_REASONS = {PANIC_SIGHT_ANY: "first_sight_of_enemy", PANIC_FIRED_ON: "first_fired_on",
                 PANIC_SIGHT_ARMOUR: "first_sight_of_armour", PANIC_SIGHT_TERROR: "first_sight_of_terror"}
# Which triggers test which quality (seed 000 "Panic"): untrained on first LOS of any enemy; green the first
# time fired on or on first sight of armour (AFVs, large creatures, power armour) or terror; experienced on
# first sight of terror; veteran and elite never.
PANIC_BY_QUALITY = {D4: PANIC_SIGHT_ANY, D6: PANIC_FIRED_ON | PANIC_SIGHT_ARMOUR | PANIC_SIGHT_TERROR,
                    D8: PANIC_SIGHT_TERROR, D10: 0, D12: 0}
ARMOUR_KINDS = ("vehicle", "afv", "creature")  # unit kinds counted as "armour" if a scenario ever uses them
CONTACT = 6.0  # "direct contact" with a superior commander: leaders within 6" with line of sight (RN-115)


@event
class PanicTested(Event):
    unit: int
    reason: str  # a PANIC_REASONS value, or "recovery"
    roll: int
    needed: int  # must score higher
    passed: bool
    levels_dropped: int
    panicked: bool
    commander: int  # uid of the superior commander whose LV was used, -1 = the unit's own


def provokes_terror(unit: Unit) -> bool:
    """Seed 000 "Terror": the unit (or its weapons, per the scenario's ``terror`` flag) provokes terror."""
    return unit.terror


def counts_as_armour(game, unit: Unit) -> bool:
    """AFVs, large alien creatures and power armoured troops (the green units' panic trigger).  A vehicle, mech or
    monster: the vehicle rules' design profile (their ``vehicle_profile`` service; none in a game without them)."""
    p = unit.profile
    svc = game.rules.services.get("vehicle_profile")
    vp = svc(game, unit) if svc is not None else None
    if vp is not None:  # AFVs: vehicles and mechs with armour; large creatures always (RN-762)
        return p.kind == "creature" or any(getattr(vp.armour_class, f) > 0
                                           for f in ("front", "side", "rear", "top", "belly"))
    return p.kind in ARMOUR_KINDS or armoury()[1][p.armour].power_armour


def _sight_bits(game, e: Unit) -> int:
    p = e.profile
    key = (p.kind, p.armour, p.terror, p.vehicle)  # all that counts_as_armour and the terror flag read
    bits = _SIGHT_BITS_OF.get(key)
    if bits is None:
        bits = PANIC_SIGHT_ANY
        if counts_as_armour(game, e):
            bits |= PANIC_SIGHT_ARMOUR
        if p.terror:
            bits |= PANIC_SIGHT_TERROR
        _SIGHT_BITS_OF[key] = bits
    return bits


_SIGHT_BITS_OF: dict = {}


def _pending(u: Unit, bits: int) -> int:
    if u.panic_passed or not u.in_play or u.confidence == ROUTED:
        return 0
    return PANIC_BY_QUALITY.get(u.profile.quality, 0) & bits & ~u.panic_triggers


def _first_reason(bits: int) -> str:
    for b in (PANIC_SIGHT_TERROR, PANIC_SIGHT_ARMOUR, PANIC_FIRED_ON, PANIC_SIGHT_ANY):
        if bits & b:
            return PANIC_REASONS[b]
    return ""  # pragma: no cover


def panic_trigger(game, u: Unit, bits: int) -> bool:
    """Unit ``u`` meets panic trigger(s) ``bits``: the ones that apply to it are used up and, unless it is
    already panicking, it takes a panic test (quality die > LV).  Returns True if a test was taken."""
    hit = _pending(u, bits)
    if not hit:
        return False
    u.panic_triggers |= hit
    if u.panicked:
        return False
    roll = game.dice.roll(u.quality)
    passed = roll > u.lv
    if passed:
        u.panic_passed = True
    else:
        u.panicked = True
    game.emit(PanicTested(u.uid, _first_reason(hit), roll, u.lv, passed, 0, u.panicked, -1))
    return True


def check_sight(game, u: Unit, only=None) -> None:
    """Panic triggers on first line of sight: ``u`` against every enemy unit (or just ``only``) on the table and not
    hidden (a hidden unit is a marker, not a sighted enemy: it is checked once revealed, RN-1002)."""
    if u.panic_passed or u.panicked or u.veh.carrier >= 0:  # mounted passengers neither see nor are seen
        return
    # the sight triggers still open to u; u does not change until one fires (then the loop ends), so
    # avail & _sight_bits(game, e) == _pending(u, _sight_bits(game, e)) for every enemy
    avail = _pending(u, _SIGHT_BITS)
    if not avail:
        return
    sight = game.bf.sight_fn(observer_of(u))
    enemies = [only] if only is not None else [game.units[i] for i in game.side_units[1 - u.side]]
    for e in enemies:
        if not e.in_play or e.veh.carrier >= 0 or e.hidden:  # a hidden enemy is not seen (RN-1002)
            continue
        bits = avail & _sight_bits(game, e)
        if bits and sight(u.x, u.y, e.x, e.y).visible:
            panic_trigger(game, u, bits)
            if u.panic_passed or u.panicked:
                return


def superior_in_contact(game, u: Unit):
    """The best-led superior commander (up the command chain) in direct contact with ``u``, or None."""
    best = None
    c = u.commander
    seen = 0
    while c >= 0 and seen < 64:
        cu = game.units[c]
        if (cu.in_play and not cu.command_lost and not cu.leader_lost
                and (cu.x - u.x) ** 2 + (cu.y - u.y) ** 2 <= CONTACT * CONTACT + 1e-9
                and game.bf.sight_for(observer_of(cu), cu.x, cu.y, u.x, u.y).visible and (best is None or cu.lv < best.lv)):
            best = cu
        c = cu.commander
        seen += 1
    return best


def panic_recovery(game, u: Unit) -> bool:
    """A panicking unit's activation: one panic test (using both actions).  Pass: panic ends for good.
    Fail by scoring less than half the required score (2 x roll < LV, RN-025): drop one confidence level.
    A superior commander in direct contact lends its LV if better."""
    cmd = superior_in_contact(game, u)
    needed = u.lv
    if cmd is not None and cmd.lv < needed:
        needed = cmd.lv
    else:
        cmd = None
    roll = game.dice.roll(u.quality)
    passed = roll > needed
    drop = 0
    if passed:
        u.panicked = False
        u.panic_passed = True
    elif 2 * roll < needed:
        drop = 1
        u.confidence = min(ROUTED, u.confidence + 1)
        if u.confidence == ROUTED:
            u.panic_routed = True
    game.emit(PanicTested(u.uid, "recovery", roll, needed, passed, drop, u.panicked,
                          cmd.uid if cmd is not None else -1))
    return passed


# --- engine wiring -------------------------------------------------------------------------------
def _panic_options(game, u: Unit, frame):
    if u.panicked:
        return [("panic_test",)]
    return None


def _panic_test_action(game, u: Unit, option) -> bool:
    panic_recovery(game, u)
    return max(1, game.activation_frame().actions_left)  # the test uses BOTH actions


def _on_activation(game, u: Unit) -> None:
    check_sight(game, u)


def _on_moved(game, u: Unit, start=None, withdraw=False) -> None:
    check_sight_both(game, u)


def check_sight_both(game, u: Unit) -> None:
    """First sight both ways after ``u``'s leader changed place (a move, or a reorganise shifting the leader)."""
    check_sight(game, u)
    seen = _sight_bits(game, u)  # the triggers the sight of u can meet (check_sight(e, only=u) can meet no other)
    for uid in game.side_units[1 - u.side]:
        e = game.units[uid]
        # (the quality test first: most units have none of those triggers, and check_sight would do nothing)
        if PANIC_BY_QUALITY.get(e.profile.quality, 0) & seen and not e.panic_passed and not e.panicked and e.in_play:
            check_sight(game, e, only=u)


def _on_shot(game, shooter: Unit, target: Unit) -> None:
    if not target.in_play:
        return
    panic_trigger(game, target, PANIC_FIRED_ON)
    check_sight(game, target, only=shooter)


FAMILIES = (Family("panic_test", (), 29, "a panicking unit's activation: both actions test"),)
RULE = Rule("Panic", 'seed 000 "Panic", "Terror"',
            families=FAMILIES, option_overrides=(_panic_options,),
            actions={"panic_test": _panic_test_action}, on_activation=(_on_activation,), after_move=(_on_moved,),
            on_shot=(_on_shot,))
