"""Shoot Action (seed 000 "Shoot Action"): target die, firepower dice, resolving direct fire,
determining casualties, optional additional hits, resolving impact, split and suppressive fire.

The pure functions :func:`target_die`, :func:`resolve_fire` and :func:`resolve_impact` are the
engine's single implementation: the game calls them, and ``dustup odds`` enumerates them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..kernel.dice import D4, D8, D12, DiceSource, die_max, die_name, shift_closed, value_to_die

SHORT_RANGE = 12.0
EFFECTIVE_RANGE = 48.0
GRENADE_THROWERS = 2  # up to two figures may throw hand grenades

# fire modes offered as options (the rulebook's choices of which weapons fire)
FIRE_MODES = ("all", "suppressive", "small_arms", "support", "half", "grenades")

# issue 3: the weapons fired on their own (options ``("shoot_weapon", target, k)`` and
# ``("throw", target, what)``; internal fire modes so that every shot goes through one plan):
SUPPORT_SLOTS = 4  # ("shoot_weapon", target, k): the unit's k-th support-weapon figure (figure order), k < 4
WEAPON_MODES = tuple(f"weapon{k}" for k in range(SUPPORT_SLOTS))
THROWS = ("one", "alone", "specialist")  # ("throw", target, what)
THROW_MODES = {"one": "grenade_one", "alone": "grenade_alone", "specialist": "specialist_grenade"}

NO_ENGAGE = -1


def target_die(*, distance: float, effective_range: float = EFFECTIVE_RANGE, concealment: int = 0,
               propped: bool = False, small: bool = False, firer_quality: int = D8,
               travel: bool = False, suppressive: bool = False) -> int:
    """Target die step (D8 shifted per the table), or NO_ENGAGE if shifted above D12.

    ``concealment``: 0 exposed, 1 partially, 2 completely concealed.
    """
    shift = 0
    if distance > effective_range:
        shift += 1
    elif distance <= SHORT_RANGE:
        shift -= 1
    shift += concealment
    if propped:
        shift += 1
    if small:
        shift += 1
    if firer_quality == D4:  # untrained firer
        shift += 1
    elif firer_quality == D12:  # elite firer
        shift -= 1
    if travel:
        shift -= 1
    if suppressive:
        shift -= 1
    step = D8 + shift
    if step > D12:
        return NO_ENGAGE
    return step if step >= D4 else D4


def small_arms_die(total_fp: float) -> int | None:
    """Unit FP = figures x FP rounded UP to the nearest die type, max D12 (None when nobody fires)."""
    if total_fp <= 0:
        return None
    return value_to_die(total_fp)


@dataclass(frozen=True, slots=True)
class FireResult:
    target_roll: int
    firer_rolls: tuple
    successes: int
    result: str  # "none" | "minor" | "major"
    hits: int


def resolve_fire(dice: DiceSource, *, quality: int, firepower: list[int], target: int,
                 suppressive: bool = False, extra_hits: bool = True) -> FireResult:
    """Roll to hit and determine casualties.

    ``firepower``: the firepower dice (small arms die first, then support dice).
    Order of rolls: target die, quality die, each firepower die, then the remainder roll.
    """
    t = dice.roll(target)
    rolls = [dice.roll(quality)]
    for fp in firepower:
        rolls.append(dice.roll(fp))
    successes = 0
    for r in rolls:
        if r > t:
            successes += 1
    if successes == 0:
        return FireResult(t, tuple(rolls), 0, "none", 0)
    if successes == 1 or suppressive:
        return FireResult(t, tuple(rolls), successes, "minor" if successes == 1 else "major", 0)
    total = sum(rolls)
    div = die_max(target)
    hits, rem = divmod(total, div)
    if extra_hits and rem:
        if dice.roll(target) <= rem:
            hits += 1
    return FireResult(t, tuple(rolls), successes, "major", hits)


def resolve_impact(dice: DiceSource, *, impact: int, armour: int, no_armour: bool = False) -> tuple[str, int, int]:
    """Impact die vs armour die: <= no effect, > wound, > double kill.  Returns (effect, i, a).

    With no armour a D4 is rolled only to see whether the hit kills; any other result wounds.
    """
    i = dice.roll(impact)
    a = dice.roll(armour)
    if i > 2 * a:
        return "kill", i, a
    if i > a or no_armour:
        return "wound", i, a
    return "none", i, a


def armour_die(base: int, *, propped: bool, cover: int) -> int:
    """Armour die with the prop (+1) and cover (+1 soft / +2 hard) closed shifts."""
    return shift_closed(base, (1 if propped else 0) + cover)


def allocation_roll(dice: DiceSource, n: int) -> int:
    """Random hit allocation among ``n`` figures: roll the smallest die >= n, re-rolling higher results.

    Returns a 0-based index.
    """
    if n <= 1:
        return 0
    for step, sides in enumerate((4, 6, 8, 10, 12)):
        if sides >= n:
            while True:
                r = dice.roll(step)
                if r <= n:
                    return r - 1
    return dice.roll_n(n) - 1


def fire_summary(result: FireResult, target: int, firepower: list[int], quality: int) -> dict:
    return {"target_die": die_name(target), "dice": [die_name(quality)] + [die_name(f) for f in firepower],
            "target_roll": result.target_roll, "rolls": list(result.firer_rolls),
            "successes": result.successes, "result": result.result, "hits": result.hits}
