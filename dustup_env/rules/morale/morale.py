"""Morale (seed 000 "MORALE"): confidence tests, leadership tests and the commitment tables.

Also "Panic" and "Terror" (panic tests, their triggers, the panicked unit's recovery test) and the
confidence test's extra modifiers.  The commander part of "Death of a Leader" is in rules/unit_actions/command.py.
"""
from __future__ import annotations

from ..kernel.data import armoury
from ..kernel.dice import D4, D6, D8, D10, D12, DiceSource
from ..kernel.events import ConfidenceTested, Event, LeadershipTested, event
from ..kernel.entities import CONFIDENCE_NAMES, ROUTED, Unit
from ..kernel.ruleset import Rule

NTR = None  # no test required

# Circumstances requiring a confidence test: target value by commitment (low, medium, high).
TRIGGERS = {
    "first_under_fire": (1, NTR, NTR),
    "first_suppressed": (2, 1, NTR),
    "casualties": (2, 1, 0),
    "leader_casualty": (3, 2, 1),
    "abandon_wounded": (3, 2, 1),
    "vehicle_damage": (3, 2, 1),
}
# Modifiers to the required score, by commitment.
MODIFIERS = {
    "artillery": (2, 1, 0),
    "per_untreated": (2, 1, 0),
    "more_casualties_than_survivors": (4, 2, 1),
    "travel_mode": (4, 3, 2),
    "per_vehicle_damage": (2, 1, 0),
}
# Events that require a test but are not rows of the seed's table (value by commitment):
# "fired_on_in_travel": Travel Movement "If fired on, the unit ... must take a confidence test" (value 0; the
# travel-mode modifier applies to every test of a unit in travel mode).
EXTRA_TRIGGERS = {
    "fired_on_in_travel": (0, 0, 0),
}


def trigger_value(reason: str, commitment: int):
    return TRIGGERS[reason][commitment]


def confidence_test(dice: DiceSource, unit: Unit, reasons: list[str], *, more_casualties_than_survivors=False,
                    events: list | None = None, extra: int = 0, extra_reason: str | None = None,
                    artillery: bool = False, travel: bool = False, vehicle_damage: int = 0) -> int:
    """One confidence test for the highest applicable trigger.  Returns levels dropped (0, 1, 2).

    Required score = the table value + modifiers + the unit's leadership.  Score higher to pass;
    fail drops one level; scoring less than half the required score (rounded down) drops two.

    ``extra_reason`` names a test the table does not list (e.g. ``"commander_casualty"``): it is taken
    even when no table event applies, on a base of 0 (rules-notes RN-113), with ``extra`` added to the
    required score.  ``artillery``/``travel``/``vehicle_damage`` are the table's other modifiers.
    A panicking unit that is forced to rout can never be rallied (``panic_routed``).
    """
    c = unit.commitment
    best, best_reason = None, None
    for r in reasons:
        v = (TRIGGERS.get(r) or EXTRA_TRIGGERS[r])[c]
        if v is not None and (best is None or v > best):
            best, best_reason = v, r
    if best is None:
        if extra_reason is None:
            return 0
        best, best_reason = 0, extra_reason
    needed = best + extra + unit.lv + MODIFIERS["per_untreated"][c] * unit.n_untreated()
    if more_casualties_than_survivors:
        needed += MODIFIERS["more_casualties_than_survivors"][c]
    if artillery:
        needed += MODIFIERS["artillery"][c]
    if travel or getattr(unit, "travel", False):  # a unit in travel mode (column)
        needed += MODIFIERS["travel_mode"][c]
    needed += MODIFIERS["per_vehicle_damage"][c] * vehicle_damage
    roll = dice.roll(unit.quality)
    if roll > needed:
        drop = 0
    elif roll < needed // 2:
        drop = 2
    else:
        drop = 1
    unit.confidence = min(ROUTED, unit.confidence + drop)
    if unit.panicked and unit.confidence == ROUTED:
        unit.panic_routed = True
    if events is not None:
        events.append(ConfidenceTested(unit.uid, best_reason, roll, needed, drop, CONFIDENCE_NAMES[unit.confidence]))
    return drop


def leadership_test(dice: DiceSource, unit: Unit, reason: str, events: list | None = None) -> bool:
    """Roll the quality die; pass by scoring higher than the unit's leadership value."""
    roll = dice.roll(unit.quality)
    ok = roll > unit.lv
    if events is not None:
        events.append(LeadershipTested(unit.uid, roll, unit.lv, ok, reason))
    return ok


# ---------------------------------------------------------------------------------------------- Panic
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


def counts_as_armour(unit: Unit) -> bool:
    """AFVs, large alien creatures and power armoured troops (the green units' panic trigger)."""
    return unit.kind in ARMOUR_KINDS or armoury()[1][unit.armour].power_armour


def _sight_bits(e: Unit) -> int:
    key = (e.kind, e.armour, e.terror)  # all that counts_as_armour and the terror flag read
    bits = _SIGHT_BITS_OF.get(key)
    if bits is None:
        bits = PANIC_SIGHT_ANY
        if counts_as_armour(e):
            bits |= PANIC_SIGHT_ARMOUR
        if e.terror:
            bits |= PANIC_SIGHT_TERROR
        _SIGHT_BITS_OF[key] = bits
    return bits


_SIGHT_BITS_OF: dict = {}


def _pending(u: Unit, bits: int) -> int:
    if u.panic_passed or not u.in_play or u.confidence == ROUTED:
        return 0
    return PANIC_BY_QUALITY.get(u.quality, 0) & bits & ~u.panic_triggers


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
    """Panic triggers on first line of sight: ``u`` against every enemy unit (or just ``only``)."""
    if u.panic_passed or u.panicked:
        return
    # the sight triggers still open to u; u does not change until one fires (then the loop ends), so
    # avail & _sight_bits(e) == _pending(u, _sight_bits(e)) for every enemy
    avail = _pending(u, _SIGHT_BITS)
    if not avail:
        return
    bf = game.bf
    enemies = [only] if only is not None else [game.units[i] for i in game.side_units[1 - u.side]]
    for e in enemies:
        if not e.in_play:
            continue
        bits = avail & _sight_bits(e)
        if bits and bf.has_los(u.x, u.y, e.x, e.y):
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
                and game.bf.has_los(cu.x, cu.y, u.x, u.y) and (best is None or cu.lv < best.lv)):
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
    f = game.activation_frame()
    game.action_done(u, used=max(1, f.actions_left))  # the test uses BOTH actions
    return False


def _on_activation(game, u: Unit) -> None:
    check_sight(game, u)


def _on_moved(game, u: Unit, start=None, withdraw=False) -> None:
    check_sight_both(game, u)


def check_sight_both(game, u: Unit) -> None:
    """First sight both ways after ``u``'s leader changed place (a move, or a reorganise shifting the leader)."""
    check_sight(game, u)
    for uid in game.side_units[1 - u.side]:
        e = game.units[uid]
        # (the quality test first: most units have no sight trigger at all, and check_sight would return)
        if PANIC_BY_QUALITY.get(e.quality, 0) & _SIGHT_BITS and not e.panic_passed and not e.panicked and e.in_play:
            check_sight(game, e, only=u)


def _on_shot(game, shooter: Unit, target: Unit) -> None:
    if not target.in_play:
        return
    panic_trigger(game, target, PANIC_FIRED_ON)
    check_sight(game, target, only=shooter)


RULE = Rule("Panic", 'seed 000 "Panic", "Terror"', option_overrides=(_panic_options,),
            actions={"panic_test": _panic_test_action}, on_activation=(_on_activation,), after_move=(_on_moved,),
            on_shot=(_on_shot,))
