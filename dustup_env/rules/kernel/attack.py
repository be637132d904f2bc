"""The attack pipeline: every attack of the game, whatever fires it, resolves through these steps.

1. **Source**: where the attack comes from (:class:`Source`): a unit (shooting, final defensive fire, close
   combat), a point on the table (an artillery burst, a mine, a bomb) or an off-table asset (a battery, an
   aircraft).  Line of sight, range and cover are worked out from it by the rule that makes the attack.
2. **To hit**: the rule's own roll turns the attack into a number of hits on one target unit (shooting:
   quality and firepower dice against the target die, ``shoot_action.resolve_fire``; close combat: quality
   and strike dice against the defender's quality die, ``assault_combat.resolve_strike``).
3. **Allocation**: :func:`allocate` spreads the hits at random over the target's figures (or those of one
   detachment), rolling the smallest die that covers them (Determine Casualties).
4. **Damage by target kind**: :func:`strike` rolls the impact die against the armour die of each figure hit
   and hands the result to the damage of the figure's kind: the rule set's ``damage`` mapping (kind ->
   ``f(game, unit, figure, effect) -> effect applied``).  :func:`damage_kind` names the kind: ``"infantry"``
   (wound, second wound or more than double: killed) and ``"power_armour"`` (the Power Armour Troops as
   Casualties table replaces a wound); vehicle facings and buildings will be kinds of their own.

:func:`resolve_hits` runs steps 3 and 4 for one target and reports the casualties (figures that were able
and are now wounded or killed) and whether the leader fell; the rule that made the attack then applies its
consequences (suppression, confidence tests, leaders lost).
"""
from __future__ import annotations

from dataclasses import dataclass

from .data import armoury
from .dice import DiceSource, die_name, shift_closed
from .entities import KILLED, OK, TREATED, WOUNDED, Unit
from .events import HitResolved

CASUALTY_STATUSES = (WOUNDED, TREATED, KILLED)


@dataclass(frozen=True, slots=True)
class Source:
    """Where an attack comes from: ``kind`` is ``"unit"`` (``unit``: its uid), ``"point"`` (``x``, ``y``: a
    point on the table) or ``"off_table"`` (``name``: the asset)."""

    kind: str
    unit: int = -1
    x: float = 0.0
    y: float = 0.0
    name: str = ""

    @staticmethod
    def of_unit(u: Unit) -> "Source":
        return Source("unit", u.uid)


@dataclass(frozen=True, slots=True)
class HitsResult:
    casualties: int  # figures able before and wounded, stabilised or killed now
    leader_hit: bool  # the target's leader was able and is not now


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


def allocate(dice, figures: list[int], hits: int) -> list[int]:
    """The figure each hit falls on, at random among ``figures`` (all allocation rolls come first)."""
    n = len(figures)
    return [figures[allocation_roll(dice, n)] for _ in range(hits)]


def infantry_damage(game, t: Unit, fi: int, effect: str) -> str:
    """A hit on a soldier: a wound (a second wound kills) or a kill; a figure already killed by an earlier hit
    of the same attack takes no further harm."""
    f = t.figures[fi]
    if f.status == KILLED or effect == "none":
        return "none"
    if effect == "kill":
        t.set_figure(fi, status=KILLED)
        return "kill"
    wounds = f.wounds + 1
    if wounds >= 2:
        t.set_figure(fi, wounds=wounds, status=KILLED)
        return "kill"
    t.set_figure(fi, wounds=wounds, status=WOUNDED)
    return "wound"


def damage_kind(game, t: Unit, fi: int) -> str:
    """The kind of damage a hit on figure ``fi`` of ``t`` does (the key of the rule set's ``damage``)."""
    if armoury()[1][t.figures[fi].armour or t.armour].power_armour and "power_armour" in game.rules.damage:
        return "power_armour"
    return "infantry"


def strike(game, t: Unit, fi: int, impact: int, armour_shift: int = 0) -> str:
    """One hit on figure ``fi`` of ``t``: the impact die against the figure's armour die (closed shift
    ``armour_shift``: prop and cover), then the damage of its kind.  Emits :class:`HitResolved`; returns the
    effect applied."""
    f = t.figures[fi]
    arm = armoury()[1][f.armour or t.armour]
    adie = shift_closed(arm.die, armour_shift) if armour_shift else arm.die
    effect, ir, ar = resolve_impact(game.dice, impact=impact, armour=adie, no_armour=arm.no_armour)
    applied = game.rules.damage.get(damage_kind(game, t, fi), infantry_damage)(game, t, fi, effect)
    game.emit(HitResolved(t.uid, fi, die_name(impact), ir, die_name(adie), ar, applied))
    return applied


WEAPON_SLOT = -1  # the allocation slot of a crew-served weapon (the rule set's ``weapon_target`` service)


def resolve_hits(game, t: Unit, hits: int, impact: int, armour_shift: int = 0,
                 figures: list[int] | None = None, fire: bool = False) -> HitsResult:
    """Allocate ``hits`` among ``figures`` of ``t`` (default: every figure not killed) and strike each.

    ``fire``: hits of fire (not close combat) on the whole unit: a crew-served weapon with the unit is one more
    potential target (seed 000 "Hits on Heavy Weapons"), when the rule set has a ``weapon_target`` service
    (``f(game, t)``: whether ``t`` has one) and its ``weapon_hit`` (``f(game, t, impact, armour_shift)``)."""
    alive = [i for i, f in enumerate(t.figures) if f.status != KILLED] if figures is None else \
        [i for i in figures if t.figures[i].status != KILLED]
    if not alive or not hits:
        return HitsResult(0, False)
    if fire and figures is None:
        has_weapon = game.rules.services.get("weapon_target")
        if has_weapon is not None and has_weapon(game, t):
            alive.append(WEAPON_SLOT)
    casualties = 0
    leader_hit = False
    for fi in allocate(game.dice, alive, hits):
        if fi == WEAPON_SLOT:
            game.rules.services["weapon_hit"](game, t, impact, armour_shift)
            continue
        before = t.figures[fi].status
        strike(game, t, fi, impact, armour_shift)
        after = t.figures[fi].status
        if before == OK and after in CASUALTY_STATUSES:
            casualties += 1
        if fi == t.leader and before != after and after != OK:
            leader_hit = True
    return HitsResult(casualties, leader_hit)
