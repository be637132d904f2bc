"""The attack pipeline: every attack of the game, whatever fires it, resolves through these steps.

1. **Source**: where the attack comes from (:class:`Source`): a unit (shooting, final defensive fire, close
   combat), a point on the table with a radius (an artillery burst, a mine, a bomb: :func:`burst`) or an off-table
   asset (a battery, an aircraft).  Line of sight, range and cover are worked out from it.
2. **To hit**: the rule's own roll turns the attack into a number of hits on one target unit (shooting:
   quality and firepower dice against the target die, ``shoot_action.resolve_fire``; close combat: quality
   and strike dice against the defender's quality die, ``assault_combat.resolve_strike``); a point attack has
   none: every figure and vehicle within its radius is struck once (:func:`burst`).
3. **Effects by target kind** (:func:`fire_effects`): the consequences of a resolved roll on the target, by the
   kind of the target (:func:`target_kind`): the rule set's ``attacks`` mapping (kind ->
   ``f(game, firer, target, res, impact, **how)``): ``"figures"`` (the Shoot Action's suppression, hits and
   confidence test) and ``"vehicle"`` (the vehicle rules' suppression, damage markers, passengers and test).
   Shooting, heavy weapons, rockets, guided missiles and final defensive fire all go through it.
4. **Allocation**: :func:`allocate` spreads the hits at random over the target's figures (or those of one
   detachment), rolling the smallest die that covers them (Determine Casualties).
5. **Damage by target kind**: :func:`strike` rolls the impact die against the armour die of each figure hit
   and hands the result to the damage of the figure's kind: the rule set's ``damage`` mapping (kind ->
   ``f(game, unit, figure, effect) -> effect applied``).  :func:`damage_kind` names the kind: ``"infantry"``
   (wound, second wound or more than double: killed) and ``"power_armour"`` (the Power Armour Troops as
   Casualties table replaces a wound).  A vehicle struck by a point attack is the kind ``"vehicle_top"`` (the
   point is over it) or ``"vehicle_facing"`` (within the radius: the facing towards the point), ``damage`` entries
   of the vehicle rules called ``f(game, vehicle, source, impact)`` (the result: none, damaged, destroyed).
6. **After the attack**: the ``after_attack`` reaction window (``f(game, attacker, target)``: the firing unit, or
   the :class:`Source` of an attack without one), for every source: the Shoot Action opens it after its shot,
   :func:`burst` after its point attack, once per unit struck.

:func:`resolve_hits` runs steps 4 and 5 for one target and reports the casualties (figures that were able
and are now wounded or killed) and whether the leader fell; the rule that made the attack then applies its
consequences (suppression, confidence tests, leaders lost).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .data import armoury
from .dice import DiceSource, die_name, shift_closed
from .entities import KILLED, OK, TREATED, WOUNDED, Unit
from .events import HitResolved
from .sequence import window

CASUALTY_STATUSES = (WOUNDED, TREATED, KILLED)


@dataclass(frozen=True, slots=True)
class Source:
    """Where an attack comes from: ``kind`` is ``"unit"`` (``unit``: its uid), ``"point"`` (``x``, ``y``: a
    point on the table, ``radius``: every figure and vehicle within it is struck) or ``"off_table"`` (``name``: the
    asset; ``x``, ``y``: where its fire comes from, for the facing it strikes)."""

    kind: str
    unit: int = -1
    x: float = 0.0
    y: float = 0.0
    radius: float = 0.0
    name: str = ""

    @staticmethod
    def of_unit(u: Unit) -> "Source":
        return Source(UNIT, u.uid)

    @staticmethod
    def at_point(x: float, y: float, radius: float, name: str = "") -> "Source":
        """A point on the table with a radius (an artillery round's burst, a mine, a bomb)."""
        if not radius >= 0.0:
            raise ValueError(f"a point attack needs a radius of 0 or more, not {radius!r}")
        return Source(POINT, -1, float(x), float(y), float(radius), name)

    @staticmethod
    def off_table(name: str, x: float = 0.0, y: float = 0.0) -> "Source":
        """An off-table asset (a battery, an aircraft) whose fire comes onto the table from (x, y)."""
        return Source(OFF_TABLE, -1, float(x), float(y), 0.0, name)

    def origin(self, game) -> tuple[float, float]:
        """Where the attack comes from on the table: the unit's position, or the point."""
        if self.kind == UNIT:
            u = game.units[self.unit]
            return u.x, u.y
        return self.x, self.y

    def attacker(self, game):
        """What the ``after_attack`` window's hooks receive: the firing unit, or this source (no unit fires)."""
        return game.units[self.unit] if self.kind == UNIT else self


UNIT, POINT, OFF_TABLE = "unit", "point", "off_table"
SOURCE_KINDS = (UNIT, POINT, OFF_TABLE)

# the target kinds of the ``attacks`` mapping (the effects of a resolved fire roll on a whole target)
FIGURES, VEHICLE = "figures", "vehicle"
# the damage kinds of a vehicle struck by a point attack (the vehicle rules' ``damage`` entries)
VEHICLE_TOP, VEHICLE_FACING = "vehicle_top", "vehicle_facing"


def target_kind(t: Unit) -> str:
    """The kind of target ``t`` is for the ``attacks`` mapping: ``"vehicle"`` (a vehicle, mech or large creature)
    or ``"figures"`` (infantry and power armour, their damage by figure: :func:`damage_kind`)."""
    return FIGURES if t.profile.vehicle is None else VEHICLE


def fire_effects(game, firer: Unit, t: Unit, res, impact: int, kind: str | None = None, **how):
    """The consequences of the resolved fire roll ``res`` (a ``FireResult``) of ``firer`` at ``t``, impact die
    ``impact``: the rule set's ``attacks`` entry of the target's kind (``kind``: the caller's, when another rule
    decides what counts as a vehicle; default :func:`target_kind`), called ``f(game, firer, t, res, impact,
    **how)``.  ``how``: what the kinds read (``cover``, ``reaction``; the vehicle rules' ``weapon_class``,
    ``small_arms``, ``origin``, ``mode``); every entry takes and ignores the others.  Returns the entry's result
    (the casualties)."""
    handler = game.rules.attacks.get(kind or target_kind(t))
    if handler is None:
        raise ValueError(f"no rule of this game resolves an attack on a {kind or target_kind(t)} target "
                         f"(the attacks mapping: {', '.join(game.rules.attacks) or 'empty'})")
    return handler(game, firer, t, res, impact, **how)


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
        casualty, leader = _strike_counted(game, t, fi, impact, armour_shift)
        casualties += casualty
        leader_hit = leader_hit or leader
    return HitsResult(casualties, leader_hit)


def _strike_counted(game, t, fi: int, impact: int, armour_shift: int) -> tuple[int, bool]:
    """:func:`strike` figure ``fi``: (1 if it became a casualty else 0, whether it was the leader and was hurt)."""
    before = t.figures[fi].status
    strike(game, t, fi, impact, armour_shift)
    after = t.figures[fi].status
    return (1 if before == OK and after in CASUALTY_STATUSES else 0,
            fi == t.leader and before != after and after != OK)


# ---------------------------------------------------------------------------------------------- point attacks
@dataclass(frozen=True, slots=True)
class BurstResult:
    """What a point attack did: ``struck`` (uid -> the :class:`HitsResult` of a unit's figures, or the result of
    the hit on a vehicle: none, damaged, destroyed), in unit order, and ``waiting`` (the ``after_attack`` reactions
    pushed frames: the caller's frame goes on when they are popped)."""

    struck: dict
    waiting: bool


def point_cover(game, x: float, y: float, fx: float, fy: float) -> int:
    """The armour die shift of a figure at (fx, fy) struck from the point (x, y): L1687 "Figures separated from the
    impact point by some form of cover gain a die shift to their armour die", the cover's usual shift (RN-153: soft
    one, hard two): the cover of the line between them or of the figure's own place, as for a shot (the
    battlefield's ``sight`` and ``cover_at``); a line that terrain blocks separates them by cover too, at least
    soft (RN-980)."""
    bf = game.bf
    s = bf.sight(x, y, fx, fy)
    line = s.cover if s.visible else max(1, s.cover)
    return max(line, bf.cover_at(fx, fy))


def burst(game, source: Source, impact: int, *, sides=(0, 1), cover: bool = True, vehicle_impact: int | None = None,
          air_burst: bool = False, vehicle_test: bool = True) -> BurstResult:
    """A point attack (seed 000 "Resolving Impacts", L1683-1687): every figure and vehicle within ``source``'s
    radius of its point is struck once, whichever side it is on (L1679: the firer's own units too).

    * a figure: the impact die against its armour die, shifted by the cover between the point and the figure
      (:func:`point_cover`; ``cover=False``: none), the damage of its kind (:func:`strike`);
    * a vehicle (the rule set's ``footprint`` service: ``f(v)``, the radius of its footprint): the point over
      it (within its footprint) strikes its top armour, the point within the radius of its footprint its facing
      towards the point (L1685): the vehicle rules' ``damage`` entries ``"vehicle_top"`` and ``"vehicle_facing"``
      (``f(game, v, source, impact)``); a passenger is struck only through its vehicle;
    * then the ``after_attack`` window once per unit struck (``f(game, attacker, target)``, the attacker being
      ``source.attacker(game)``).

    ``sides``: the sides whose units may be struck.  ``vehicle_impact``: the impact die against a vehicle (default
    ``impact``: an artillery round's "Impact vs Armoured Target", L1577); ``air_burst``: air-bursting cluster
    munitions, every vehicle within the radius by its top armour (L1685); ``vehicle_test=False``: the vehicle's
    damage takes no confidence test of its own (the caller tests once for every trigger).  What the attack makes of the units struck (suppression,
    confidence tests, L1689) is the rule's that made it: it reads :attr:`BurstResult.struck`."""
    if source.kind == OFF_TABLE:
        raise ValueError("an off-table asset strikes a point on the table: give its burst a point source")
    x, y = source.origin(game)
    r = source.radius
    footprint = game.rules.services.get("footprint")
    struck: dict = {}
    targets = []
    for t in game.units:
        if t.side not in sides or not t.in_play or t.veh.carrier >= 0:
            continue
        if t.profile.vehicle is not None:
            reach = footprint(t) if footprint is not None else 0.0
            d = math.hypot(t.x - x, t.y - y)
            if d > r + reach + 1e-9:
                continue
            kind = VEHICLE_TOP if air_burst or d <= reach + 1e-9 else VEHICLE_FACING
            vi = impact if vehicle_impact is None else vehicle_impact
            struck[t.uid] = (game.rules.damage[kind](game, t, source, vi) if vehicle_test
                             else game.rules.damage[kind](game, t, source, vi, test_confidence=False))
            targets.append(t)
            continue
        lf = t.figures[t.leader]
        bx, by = t.x - lf.dx, t.y - lf.dy
        hit = []
        for fi, f in enumerate(t.figures):
            if f.status != KILLED and math.hypot(bx + f.dx - x, by + f.dy - y) <= r + 1e-9:
                hit.append((fi, point_cover(game, x, y, bx + f.dx, by + f.dy) if cover else 0))
        if not hit:
            continue
        casualties, leader_hit = 0, False
        for fi, shift in hit:
            casualty, leader = _strike_counted(game, t, fi, impact, shift)
            casualties += casualty
            leader_hit = leader_hit or leader
        struck[t.uid] = HitsResult(casualties, leader_hit)
        targets.append(t)
    waiting = False
    if game.rules.reactions["after_attack"] and game.phase != "over":
        attacker = source.attacker(game)
        for t in targets:
            waiting = window(game, "after_attack", None, attacker, t) or waiting
    return BurstResult(struck, waiting)
