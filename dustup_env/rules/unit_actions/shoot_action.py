"""Shoot Action (seed 000 "Shoot Action"): target die, firepower dice, resolving direct fire,
determining casualties, optional additional hits, resolving impact, split and suppressive fire.

The pure functions :func:`target_die`, :func:`resolve_fire` and :func:`resolve_impact` are the
engine's single implementation: the game calls them, and ``dustup odds`` enumerates them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..kernel.attack import FIGURES, fire_effects
from ..kernel.attack import allocation_roll, resolve_hits, resolve_impact  # noqa: F401 (still importable from here)
from ..kernel.battlefield import observer_of
from ..kernel.data import armoury
from ..kernel.dice import D4, D8, D12, DiceSource, die_max, die_name, shift_closed, value_to_die
from ..kernel.entities import BROKEN, OK, Unit
from ..kernel.errors import IllegalOptionError
from ..kernel.decisions import Frame
from ..kernel.events import Event, LeaderLost, ShotResolved, Suppressed, event
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.sequence import pop, window
from ..morale.confidence_test import confidence_test

SHORT_RANGE = 12.0
EFFECTIVE_RANGE = 48.0
GRENADE_THROWERS = 2  # up to two figures may throw hand grenades

# fire modes offered as options (the rulebook's choices of which weapons fire)
FIRE_MODES = ("all", "suppressive", "small_arms", "support", "half", "grenades")

# the weapons fired on their own (options ``("shoot_weapon", target, k)`` and
# ``("throw", target, what)``; internal fire modes so that every shot goes through one plan):
SUPPORT_SLOTS = 4  # ("shoot_weapon", target, k): the unit's k-th support-weapon figure (figure order), k < 4
WEAPON_MODES = tuple(f"weapon{k}" for k in range(SUPPORT_SLOTS))
THROWS = ("one", "alone", "specialist")  # ("throw", target, what)
THROW_MODES = {"one": "grenade_one", "alone": "grenade_alone", "specialist": "specialist_grenade"}

NO_ENGAGE = -1


def target_die(*, distance: float, effective_range: float = EFFECTIVE_RANGE, concealment: int = 0,
               propped: bool = False, small: bool = False, firer_quality: int = D8,
               travel: bool = False, suppressive: bool = False, night: bool = False) -> int:
    """Target die step (D8 shifted per the table), or NO_ENGAGE if shifted above D12.

    ``concealment``: 0 exposed, 1 partially, 2 completely concealed.  ``night``: seed 003 Night Fighting's +2
    for a firer without night vision, one more term of the net shift (RN-026: summed, then clamped at D4).
    """
    shift = 2 if night else 0
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


def armour_die(base: int, *, propped: bool, cover: int) -> int:
    """Armour die with the prop (+1) and cover (+1 soft / +2 hard) closed shifts."""
    return shift_closed(base, (1 if propped else 0) + cover)


# ---------------------------------------------------------------------------------------------- the action
_WEAPONS = armoury()[0]
_HAND_GRENADE_RANGE = _WEAPONS["hand_grenade"].max_range


def support_figure(u: Unit, k: int) -> int:
    """Figure index of the unit's ``k``-th support-weapon figure (figure order), or -1."""
    for i, f in enumerate(u.figures):
        if _WEAPONS[f.weapon].cls == "support":
            if k == 0:
                return i
            k -= 1
    return -1


# per weapon: (max range, small arms?) in the unit's fire, or None for a weapon never in it (an unguided rocket
# without an HE warhead: fired only on its own, Unguided Rockets L1252)
_IN_FIRE = {n: (None if w.cls == "iavr" and not w.he else (w.max_range, w.cls == "small_arms"))
            for n, w in _WEAPONS.items()}
_DISPOSABLE = frozenset(n for n, w in _WEAPONS.items() if w.disposable)


def ready_figures(u: Unit) -> list:
    """(figure index, weapon max range, small arms?) of the able figures whose weapon has not fired this
    activation: what ``weapons_ready`` filters by distance (read once per firer for many targets)."""
    fired = u.fired
    out = []
    for i, f in enumerate(u.figures):
        if f.status == OK and i not in fired:
            r = _IN_FIRE[f.weapon]
            if r is not None:
                out.append((i, r[0], r[1]))
    return out


def spend_disposable(u: Unit, figures) -> None:
    """A disposable rocket fired is gone: its bearer now carries its backup weapon (Unguided Rockets L1254)."""
    for i in figures:
        w = u.figures[i].weapon
        if w in _DISPOSABLE:
            u.set_figure(i, weapon=_WEAPONS[w].backup)


def weapons_ready(u: Unit, dist: float, cand: list | None = None):
    """Able figures whose weapon has not fired this activation and reaches ``dist``: (small arms, support).
    ``cand``: ``ready_figures(u)`` if the caller already has it."""
    sa, sup = [], []
    for i, mr, small in (ready_figures(u) if cand is None else cand):
        if mr and dist > mr:
            continue
        (sa if small else sup).append(i)
    return sa, sup


def party_for_mode(u: Unit, mode: str, dist: float, sa: list, sup: list):
    """(small-arms figure indices, support figure indices, grenade throwers, grenade thrown, own impact)
    or None if the mode is not available (nothing can fire, or it would duplicate another mode).

    ``own impact``: the throwers' grenade is used on its own, with its own impact (a hand grenade
    thrown alone, a specialist grenade); otherwise grenades are support weapons in the unit's fire
    and use the small arms impact (RN-021, RN-350, RN-351)."""
    throwers: list[int] = []
    thrown = "hand_grenade"
    own = False
    if mode == "all" or mode == "suppressive":
        pass
    elif mode == "small_arms":
        if not sa or not sup:
            return None  # identical to "all"
        sup = []
    elif mode == "support":
        if not sup:
            return None
        sa = []
    elif mode == "half":
        if len(sa) < 2:
            return None
        sa = sa[: (len(sa) + 1) // 2]
        sup = []
    elif mode == "grenades":
        if not u.profile.grenades or dist > _HAND_GRENADE_RANGE or not sa:
            return None
        throwers = sa[:GRENADE_THROWERS]
        sa = sa[GRENADE_THROWERS:]
    elif mode in WEAPON_MODES:  # one support weapon on its own (RN-055, RN-350)
        if len(sup) < 2:
            return None  # a single ready support weapon: the "support" mode already fires it alone
        fi = support_figure(u, int(mode[6:]))
        if fi not in sup:
            return None
        sa, sup = [], [fi]
    elif mode == "grenade_one":  # one thrower instead of two, the rest fire as usual (RN-351)
        if not u.profile.grenades or dist > _HAND_GRENADE_RANGE or len(sa) < 2:
            return None
        throwers = sa[:1]
        sa = sa[1:]
    elif mode == "grenade_alone":  # one hand grenade thrown on its own: its own impact (RN-021)
        if not u.profile.grenades or dist > _HAND_GRENADE_RANGE or not sa:
            return None
        throwers, sa, sup, own = sa[:1], [], [], True
    elif mode == "specialist_grenade":  # an individual action with its own impact (RN-352)
        g = u.profile.specialist_grenade
        if not g or not sa:
            return None
        w = _WEAPONS[g]
        if w.max_range and dist > w.max_range:
            return None
        throwers, sa, sup, thrown, own = sa[:1], [], [], g, True
    else:
        raise IllegalOptionError(f"unknown fire mode {mode!r}")
    if not sa and not sup and not throwers:
        return None
    return sa, sup, throwers, thrown, own


def shoot_geometry(game, u: Unit, t: Unit, sight=None):
    """(concealment, cover) of a shot from ``u`` at ``t``, or None without a line of sight.  ``sight``: ``u``'s
    ``bf.sight_fn(observer_of(u))``, when the caller asks for many targets."""
    bf = game.bf
    if sight is None:
        sight = bf.sight_fn(observer_of(u))
    s = sight(u.x, u.y, t.x, t.y)
    if not s.visible:
        return None
    if t.complete_concealment:
        conc = 2
    elif s.concealed or bf.conceals(t.x, t.y):
        conc = 1
    else:
        conc = 0
    cover = max(s.cover, bf.cover_at(t.x, t.y))
    return conc, cover


def plan_mode(game, u: Unit, t: Unit, mode: str, dist: float, geo, ready, memo: dict | None = None):
    """The shot of ``mode`` at ``t`` (see ``party_for_mode``) or None.  ``memo``: a dict shared by the calls
    for one firer and one target (same distance, geometry and ready weapons): each figure's effective range
    and the target die per (effective range, suppressive) are then worked out once."""
    party = party_for_mode(u, mode, dist, *ready)
    if party is None:
        return None
    sa, sup, throwers, thrown, own = party
    if memo is None:
        memo = {}
    ranges = memo.get("ranges")
    if ranges is None:
        ranges = memo["ranges"] = [_WEAPONS[f.weapon].effective_range for f in u.figures]
    rg = ranges.__getitem__
    eff = 48.0  # the shortest effective range of the party (48" if none is shorter)
    if sa:
        r = min(map(rg, sa))
        if r < eff:
            eff = r
    if sup:
        r = min(map(rg, sup))
        if r < eff:
            eff = r
    suppressive = mode == "suppressive"
    step = memo.get((eff, suppressive))
    if step is None:  # seed 003 Night Fighting: +2 in the net shift for a firer without night vision
        step = memo[(eff, suppressive)] = target_die(
            distance=dist, effective_range=eff, concealment=geo[0], propped=t.propped, small=t.small_target,
            firer_quality=u.profile.quality, travel=t.travel, suppressive=suppressive,
            night=game.options["night"] and not u.night_vision)
    if step == NO_ENGAGE:
        return None
    return dist, geo, sa, sup, throwers, step, thrown, own


def shot_plan(game, u: Unit, t: Unit, mode: str):
    """The shot ``u`` would fire at ``t`` in ``mode`` now, or None if it cannot."""
    geo = shoot_geometry(game, u, t)
    if geo is None:
        return None
    dist = math.hypot(t.x - u.x, t.y - u.y)
    return plan_mode(game, u, t, mode, dist, geo, weapons_ready(u, dist))


def firepower(u: Unit, sa, sup, throwers, thrown: str = "hand_grenade", own: bool = False):
    """The firepower dice and the impact die of a fire party."""
    weapons = _WEAPONS
    fp = []
    sa_step = small_arms_die(sum(weapons[u.figures[i].weapon].fp for i in sa))
    if sa_step is not None:
        fp.append(sa_step)
    for i in sup:
        fp.append(weapons[u.figures[i].weapon].fp_die)
    for _ in throwers:
        fp.append(weapons[thrown].fp_die)
    if own:  # a grenade used on its own: its own impact
        impact = weapons[thrown].impact
    elif sa or throwers:  # support weapons in the support role: the small arms impact is used
        impact = min(weapons[u.figures[i].weapon].impact for i in (sa or throwers))
    else:  # support weapons alone (or a squad of only support weapons): the lowest impact
        impact = min(weapons[u.figures[i].weapon].impact for i in sup)
    return fp, impact


def fire_plan(game, uid: int, target: int, mode: str) -> dict | None:
    """What a shoot option would roll (for bots and previews; rolls nothing)."""
    u, t = game.units[uid], game.units[target]
    plan = shot_plan(game, u, t, mode)
    if plan is None:
        return None
    dist, (conc, cover), sa, sup, throwers, step, thrown, own = plan
    fp, impact = firepower(u, sa, sup, throwers, thrown, own)
    arm = armoury()[1][t.armour]
    return {"distance": dist, "concealment": conc, "cover": cover, "target_die": step, "quality": u.quality,
            "firepower": fp, "impact": impact, "armour": armour_die(arm.die, propped=t.propped, cover=cover),
            "no_armour": arm.no_armour, "weapons": len(sa) + len(sup) + len(throwers)}


def shoot_options(game, u: Unit) -> list:
    opts = []
    cand = ready_figures(u)  # read once per firer
    if not cand:
        return opts  # every weapon has fired this activation: no line of sight needs working out
    ranges = None
    night = game.options["night"] and not u.night_vision
    sight = game.bf.sight_fn(observer_of(u))  # (one observer for every target)
    for t in game.enemy_units(u.side):
        if t.location == "routed_off":  # (t.routed_off)
            continue
        geo = shoot_geometry(game, u, t, sight)
        if geo is None:
            continue
        dist = math.hypot(t.x - u.x, t.y - u.y)
        ready = weapons_ready(u, dist, cand)
        sa, sup = ready
        if not sa and not sup:
            continue  # no fire mode, no weapon alone, no throw
        if ranges is None:  # per figure: the same for every target (plan_mode's memo entry)
            ranges = [_WEAPONS[f.weapon].effective_range for f in u.figures]
        memo = {"ranges": ranges}
        _fire_mode_options(u, t, dist, geo, sa, sup, ranges, memo, night, opts)
        if len(sup) >= 2:  # one of several support weapons on its own (RN-350)
            opts.extend(weapon_options(game, u, t, dist, geo, ready, memo))
        if sa and ((u.profile.grenades and dist <= _HAND_GRENADE_RANGE) or u.profile.specialist_grenade):  # RN-351/352
            for what, mode in THROW_MODES.items():
                if plan_mode(game, u, t, mode, dist, geo, ready, memo) is not None:
                    opts.append(("throw", t.uid, what))
    return opts


def _fire_mode_options(u: Unit, t: Unit, dist: float, geo, sa: list, sup: list, ranges: list, memo: dict,
                       night: bool, opts: list) -> None:
    """Append ``("shoot", t, mode)`` for each of FIRE_MODES (in order) whose ``plan_mode`` is not None: the modes
    for which ``party_for_mode`` finds a party, each with the shortest effective range of that party (all and
    suppressive fire everything ready, small_arms the small arms, support the support weapons, half the first
    half of the small arms, grenades all but the first two small arms, who throw) and the target die
    ``plan_mode`` works out for it (the same memo entries), without building the parties.  (``_legal`` asks ``plan_mode``;
    the kernel's tests check that its answer always equals membership in these options.)"""
    uid = t.uid
    e_sa = min(map(ranges.__getitem__, sa)) if sa else 48.0
    e_sup = min(map(ranges.__getitem__, sup)) if sup else 48.0
    e_all = min(48.0, e_sa, e_sup)
    modes = [("all", e_all, False), ("suppressive", e_all, True)]
    if sa and sup:
        modes.append(("small_arms", min(48.0, e_sa), False))
    if sup:
        modes.append(("support", min(48.0, e_sup), False))
    if len(sa) >= 2:
        modes.append(("half", min(48.0, min(map(ranges.__getitem__, sa[: (len(sa) + 1) // 2]))), False))
    if sa and u.profile.grenades and dist <= _HAND_GRENADE_RANGE:
        rest = sa[GRENADE_THROWERS:]
        modes.append(("grenades", min(48.0, min(map(ranges.__getitem__, rest)) if rest else 48.0, e_sup), False))
    for mode, eff, suppressive in modes:
        step = memo.get((eff, suppressive))
        if step is None:  # seed 003 Night Fighting: +2 in the net shift
            step = memo[(eff, suppressive)] = target_die(
                distance=dist, effective_range=eff, concealment=geo[0], propped=t.propped, small=t.small_target,
                firer_quality=u.profile.quality, travel=t.travel, suppressive=suppressive, night=night)
        if step != NO_ENGAGE:
            opts.append(("shoot", uid, mode))


def weapon_options(game, u: Unit, t: Unit, dist: float, geo, ready, memo: dict | None = None) -> list:
    """``("shoot_weapon", t, k)`` for the first ready figure of each support-weapon type (the k-th
    support-weapon figure of the unit, k < SUPPORT_SLOTS): firing one of two identical weapons alone
    is the same shot, so only one of them is offered."""
    opts, seen = [], set()
    k = 0
    for i, f in enumerate(u.figures):
        if _WEAPONS[f.weapon].cls != "support":
            continue
        if k >= SUPPORT_SLOTS:
            break
        if i in ready[1] and f.weapon not in seen:
            seen.add(f.weapon)
            if plan_mode(game, u, t, WEAPON_MODES[k], dist, geo, ready, memo) is not None:
                opts.append(("shoot_weapon", t.uid, k))
        k += 1
    return opts


def may_shoot(u: Unit, status) -> bool:
    """Not disorganised, suppressed or completely concealed; broken units only from cover."""
    return not (status.disorganised or status.suppressed or u.complete_concealment
                or (u.confidence == BROKEN and not status.in_cover))


def _options(game, u: Unit, status) -> list:
    return shoot_options(game, u) if may_shoot(u, status) else []


def _known_target(game, u: Unit, uid) -> Unit | None:
    if type(uid) is not int or not 0 <= uid < len(game.units):
        return None
    t = game.units[uid]
    if t.side == u.side or not t.in_play or t.hidden or t.routed_off:
        return None
    return t


def _legal(game, u: Unit, status, opt) -> bool:
    """Whether a shoot, shoot_weapon or throw option is among ``shoot_options`` (without building them all)."""
    if len(opt) != 3 or not may_shoot(u, status):
        return False
    t = _known_target(game, u, opt[1])
    if t is None:
        return False
    geo = shoot_geometry(game, u, t)
    if geo is None:
        return False
    dist = math.hypot(t.x - u.x, t.y - u.y)
    ready = weapons_ready(u, dist)
    name, arg = opt[0], opt[2]
    if name == "shoot":
        return arg in FIRE_MODES and plan_mode(game, u, t, arg, dist, geo, ready) is not None
    if name == "shoot_weapon":
        return len(ready[1]) >= 2 and opt in weapon_options(game, u, t, dist, geo, ready)
    p = u.profile
    if not (ready[0] and ((p.grenades and dist <= _HAND_GRENADE_RANGE) or p.specialist_grenade)):
        return False
    return arg in THROW_MODES and plan_mode(game, u, t, THROW_MODES[arg], dist, geo, ready) is not None


def shoot(game, u: Unit, t: Unit, mode: str, reaction: bool = False) -> int:
    """Resolve a shot; returns the casualties caused.  ``reaction``: final defensive fire (an
    assault reaction): suppression results are ignored and no confidence test follows."""
    plan = shot_plan(game, u, t, mode)
    dist, (conc, cover), sa, sup, throwers, step, thrown, own = plan
    fp, impact = firepower(u, sa, sup, throwers, thrown, own)
    for i in sa + sup + throwers:
        u.fired.add(i)
    if sup and _DISPOSABLE:
        spend_disposable(u, sup)
    suppressive = mode == "suppressive"
    res = resolve_fire(game.dice, quality=u.quality, firepower=fp, target=step,
                       suppressive=suppressive, extra_hits=game.options["extra_hits"])
    game.emit(ShotResolved(u.uid, t.uid, mode, die_name(step), res.target_roll,
                           tuple(die_name(s) for s in [u.quality] + fp), res.firer_rolls,
                           res.successes, res.result, res.hits, suppressive))
    # the effects by target kind (the attack pipeline's one dispatch): infantry here, a vehicle the vehicle rules'
    return fire_effects(game, u, t, res, impact, cover=cover, reaction=reaction, mode=mode,
                        small_arms=not sup and not throwers)


def shot_effects(game, u: Unit, t: Unit, res: FireResult, impact: int, cover: int = 0, reaction: bool = False,
                 **_how) -> int:
    """The consequences of a resolved shot at an infantry target: suppression, the hits (a crew-served heavy weapon
    is one more place a hit may fall, Hits on Heavy Weapons), the hooks and the confidence test (with the artillery
    modifier when the firer is an aircraft in the air: L1134 "artillery or aerospace attack", RN-1973).  Returns the
    casualties.  The ``attacks`` entry of the target kind ``figures`` (``kernel.attack.fire_effects``, through which
    every fire that rolls like the Shoot Action reaches it: heavy weapons, rockets, missiles); ``_how``: what only
    the vehicle kind reads."""
    reasons = []
    if not t.under_fire_before:
        t.under_fire_before = True
        reasons.append("first_under_fire")
    if (res.result != "none" or t.travel) and not reaction:  # travel mode: suppressed whenever fired on
        if not t.suppressed_before:
            t.suppressed_before = True
            reasons.append("first_suppressed")
        if t.suppression < 3:
            t.suppression += 1
        game.emit(Suppressed(t.uid, t.suppression))
    hit = resolve_hits(game, t, res.hits, impact, (1 if t.propped else 0) + cover, fire=True)
    casualties, leader_hit = hit.casualties, hit.leader_hit
    if casualties:
        reasons.append("casualties")
    for hook in game.rules.after_shot:
        hook(game, u, t, res, reasons)
    newly_lost = leader_hit and not t.leader_lost
    if newly_lost:
        reasons.append("leader_casualty")
        t.leader_lost = True
        game.emit(LeaderLost(t.uid, t.leader))
    aerial = game.rules.services.get("aerospace_attack")  # L1134: "artillery or aerospace attack" (Aerospace)
    artillery = aerial is not None and aerial(game, u)
    if reasons and t.in_play and not reaction:
        confidence_test(game.dice, t, reasons, more_casualties_than_survivors=casualties > t.n_able(),
                        events=game.events, artillery=artillery)
    elif newly_lost and t.in_play:  # reaction fire: no test of its own (RN-210), but a leader falling always tests
        confidence_test(game.dice, t, ["leader_casualty"], events=game.events,
                        artillery=artillery)  # (Death of a Leader, L1186)
    if newly_lost:
        for hook in game.rules.on_leader_lost:
            hook(game, t)
    for hook in game.rules.on_shot:
        hook(game, u, t)
    return casualties


@event
class ShotLost(Event):
    """A shot declared but not fired: a reaction before it left the firer or the target unable (out of play, out of
    sight or range)."""
    unit: int
    target: int


def _do_shoot(game, u: Unit, opt):
    t = game.units[opt[1]]
    mode = opt[2] if opt[0] == "shoot" else WEAPON_MODES[opt[2]] if opt[0] == "shoot_weapon" else THROW_MODES[opt[2]]
    reactions = game.rules.reactions
    if not reactions["before_attack"] and not reactions["after_attack"]:
        shoot(game, u, t, mode)
        return None
    # with reactions to attacks: the shot is a frame, resumed after the reactions before and after it resolves
    frame = Frame(SHOT, u.uid, 0, False, {"target": t.uid, "mode": mode, "fired": False})
    game.stack.append(frame)
    if reactions["before_attack"] and window(game, "before_attack", None, u, t):
        return False
    Shot.resume(game, frame, None)
    return False


SHOT = "shot"  # the frame of a Shoot Action while the reaction windows around it are open


class Shot:
    """Frame ``shot`` (data: ``target``, ``mode``, ``fired``): a Shoot Action between the ``before_attack`` and
    ``after_attack`` reaction windows.  Popped, the activation counts the action."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        d = frame.data
        u, t = game.units[frame.unit], game.units[d["target"]]
        if not d["fired"]:
            d["fired"] = True
            if not u.in_play or not t.in_play or d.get("halted") or shot_plan(game, u, t, d["mode"]) is None:
                game.emit(ShotLost(u.uid, t.uid))
            else:
                shoot(game, u, t, d["mode"])
                if game.phase != "over" and game.rules.reactions["after_attack"] and window(
                        game, "after_attack", None, u, t):
                    return
        pop(game, frame)


RULE = Rule(
    "Shoot Action", 'seed 000 "Shoot Action" (Roll to Hit .. Cover), seed 003 "Night Fighting"',
    options=(Option("extra_hits", True, "Optional Additional Hits: the remainder roll"),),
    families=(Family("shoot", ("enemy", "mode"), 10, "Shoot Action at an enemy unit with these weapons"),
              Family("shoot_weapon", ("enemy", tuple(range(SUPPORT_SLOTS))), 39,
                     "fire the unit's k-th support-weapon figure alone"),
              Family("throw", ("enemy", THROWS), 40,
                     "grenades thrown singly: one thrower and the rest, one alone, a specialist one")),
    action_options=(_options,),
    actions={"shoot": _do_shoot, "shoot_weapon": _do_shoot, "throw": _do_shoot},
    procedures={SHOT: Shot()},
    legality={"shoot": _legal, "shoot_weapon": _legal, "throw": _legal},
    services={"fire_plan": fire_plan},
    attacks={FIGURES: shot_effects},
)
