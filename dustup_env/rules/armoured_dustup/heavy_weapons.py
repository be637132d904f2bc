"""Heavy Weapons (seed 000 "Armoured Dustup › Heavy Weapons", "Moving Heavy Weapons", "Hits on Heavy Weapons",
"Firing Heavy Weapons", "Heavy Weapon Range", "Heavy Weapons and Large Targets", "Heavy Weapon Fire Control").

A unit's ``heavy_weapon`` (scenario field) names a heavy-weapon design: a library name
(``dustup_env/data/designs``) or a design object (docs/vehicle-design.md); its figures are the crew.  The design's
Dustup statistics (:class:`~..vehicle_design.profile.HeavyWeaponDesignProfile`) give the size, firepower, impact,
fire control, crew and carriage.  The weapon's changing state is plain data in its :class:`HeavyState` (per unit
uid: set up or not, damage, where it stands, fired this activation, abandoned, remote):

* **Moving** (L1206-1208): a man-packed weapon is dismantled / set up by one reorganise action each; carried
  dismantled it encumbers the crew (movement die one type lower); with half the crew or less it can no longer be
  carried.  A towed weapon is limbered / unlimbered by one reorganise action of at least half the crew (RN-702);
  limbered it moves only when a vehicle tows it (the vehicle rules' ``towed`` service; this rule tells the towing
  rule what a tower must manage, :func:`towable_size`: the carriage's size, RN-880).  It is unlimbered only once
  unhooked.  A crew that moves away from its weapon abandons it, for good (RN-701).
* **Hits on the weapon** (L1212): one more place a hit of fire may fall (the kernel's allocation, ``weapon_target``
  / ``weapon_hit`` services), armour D8 with the crew's cover: a wound disables it (one reorganise action repairs
  it, RN-703), a kill or a second wound damages it for good.
* **Firing** (L1216-1246): ``("fire_heavy", target)``, an individual action that never combines: the firer's
  quality die and the weapon's firepower dice against the target die (no short range; long beyond size x 48";
  the large-target shift; fire control in the net shift, RN-122), the impact against infantry or armour by the target.  The
  crew figures fire nothing else in that activation (RN-700).  Heavy weapons never give final defensive fire
  (L794): the crew's own weapons do.

Vehicle targets are the vehicle rules' business: the services ``vehicle_profile(game, t)`` (the target's
:class:`VehicleProfile` or None) and ``vehicle_fire(game, v, impact, hits, x, y, weapon_class=)`` (the hits of a
resolved attack from (x, y)); the suppression of a vehicle by these weapons is :func:`vehicle_attack`'s.  Without
vehicle rules no unit is a vehicle.
"""
from __future__ import annotations

import math

from ..kernel.attack import FIGURES, VEHICLE, fire_effects, resolve_impact
from ..kernel.dice import D4, D8, D12, DiceSource, die_name, parse_die, shift_closed
from ..kernel.entities import OK, Unit
from ..kernel.errors import IllegalOptionError, ScenarioError
from ..kernel.events import Event, Suppressed, event
from ..kernel.ruleset import Family, Rule
from ..kernel.state import Component
from ..unit_actions.moving_casualties import carrying
from ..unit_actions.shoot_action import FireResult, may_shoot, resolve_fire, shoot_geometry

RANGE_PER_SIZE = 48.0  # L1226: effective range = size x 48"
WEAPON_ARMOUR = D8  # L1212: "the weapon counts as if it had D8 armour"
FIRE_CONTROL_SHIFT = {"inferior": 1, "average": 0, "superior": -1, None: 0}  # L1244 (in the net shift, RN-122)
HEAVY_TASKS = ("set_up", "dismantle", "limber", "unlimber", "repair")
# damage states of a weapon
WORKING, DISABLED, DAMAGED = 0, 1, 2
DAMAGE_NAMES = ("working", "disabled", "damaged")


class HeavyState(Component):
    """The rule's state: ``{str(uid): {ready, damage, at, fired, abandoned, remote[, spec]}}``, every heavy weapon
    by its crew's uid (``spec``: a regrouped crew's scenario unit)."""

    __slots__ = ("heavy",)


def weapon_states(game) -> dict:
    """Every heavy weapon's state by its crew's uid (empty in a game without heavy weapons)."""
    st = game.components.get(HeavyState)
    return (st.heavy if st is not None else None) or {}


# ---------------------------------------------------------------------------------------------- events
@event
class HeavyWeaponTask(Event):
    unit: int
    task: str  # set_up | dismantle | limber | unlimber | repair | remote


@event
class HeavyWeaponFired(Event):
    unit: int
    target: int
    weapon: str
    target_die: str
    target_roll: int
    dice: tuple
    rolls: tuple
    successes: int
    result: str
    hits: int


@event
class HeavyWeaponHit(Event):
    unit: int
    impact: str
    impact_roll: int
    armour: str
    armour_roll: int
    damage: str  # working (no effect) | disabled | damaged


@event
class HeavyWeaponAbandoned(Event):
    unit: int
    x: float
    y: float


# ---------------------------------------------------------------------------------------------- designs
_PROFILES: dict = {}


def unit_specs(game) -> dict:
    """uid -> the scenario spec of each unit built from the scenario (units are built side by side in order)."""
    key = id(game.scenario)
    hit = _PROFILES.get(("specs", key))
    if hit is not None and hit[0] is game.scenario:
        return hit[1]
    specs, uid = {}, 0
    for side in game.scenario["sides"]:
        for spec in side["units"]:
            specs[uid] = spec
            uid += 1
    if len(_PROFILES) > 512:
        _PROFILES.clear()
    _PROFILES[("specs", key)] = (game.scenario, specs)
    return specs


def spec_of(game, u: Unit) -> dict | None:
    """The scenario spec of ``u`` (a detachment: its parent's)."""
    while u.uid not in unit_specs(game) and u.parent >= 0:
        u = game.units[u.parent]
    return unit_specs(game).get(u.uid)


def design_profile(design, where: str):
    """The HeavyWeaponDesignProfile of a design (a library name or a design object); ScenarioError if illegal."""
    key = ("design", design if isinstance(design, str) else repr(sorted(design.items())) if isinstance(design, dict)
           else repr(design))
    hit = _PROFILES.get(key)
    if hit is not None:
        return hit
    from ..vehicle_design import DesignFileError, check, library_names
    if isinstance(design, str) and design not in library_names():
        import json

        from ..vehicle_design.load import LIBRARY
        heavy = [n for n in library_names()
                 if json.loads((LIBRARY / f"{n}.json").read_text()).get("design") == "heavy_weapon"]
        raise ScenarioError(f"{where}: heavy_weapon: unknown design {design!r} (the library's heavy weapons: "
                            f"{', '.join(heavy)})")
    try:
        report = check(design)
    except DesignFileError as e:
        raise ScenarioError(f"{where}: heavy_weapon: {e}") from None
    prof = report.profile
    if not report.legal or prof is None:
        why = report.errors[0].message if report.errors else "not legal"
        raise ScenarioError(f"{where}: heavy_weapon: {why}")
    if not hasattr(prof, "carriage"):
        raise ScenarioError(f"{where}: heavy_weapon: {design!r} is a vehicle design, not a heavy weapon "
                            "(design 'heavy_weapon')")
    _PROFILES[key] = prof
    return prof


def weapon_of(game, u: Unit):
    """The HeavyWeaponDesignProfile of ``u``'s heavy weapon, or None (a unit without one)."""
    st = weapon_states(game)
    if str(u.uid) not in st:
        return None
    spec = unit_specs(game)[st[str(u.uid)].get("spec", u.uid)]  # a regrouped crew's weapon: its scenario unit's
    return design_profile(spec["heavy_weapon"], f"unit {spec['name']!r}")


def state(game, u: Unit) -> dict | None:
    st = game.components.get(HeavyState)
    st = st.heavy if st is not None else None
    return st.get(str(u.uid)) if st else None


def _init(game) -> None:
    """INIT_HOOK: the state of every heavy weapon named by the scenario (checked here: errors name the field)."""
    out = {}
    for uid, spec in unit_specs(game).items():
        if "heavy_weapon" not in spec:
            continue
        where = f"unit {spec['name']!r}"
        prof = design_profile(spec["heavy_weapon"], where)
        n = sum(f.get("count", 1) for f in spec["figures"])
        if n < 1:
            raise ScenarioError(f"{where}: heavy_weapon: the unit has no crew figures")
        ready = bool(spec.get("weapon_ready", True))
        u = game.units[uid]
        out[str(uid)] = {"ready": ready, "damage": WORKING, "at": [u.x, u.y] if ready else None,
                         "fired": False, "abandoned": False, "remote": False}
    if out:
        game.state_of(HeavyState).heavy = out


def _has_heavy(scenario: dict, options: dict) -> bool:
    return any("heavy_weapon" in u for side in scenario["sides"] for u in side["units"])


# ---------------------------------------------------------------------------------------------- crew
def crew_able(u: Unit) -> int:
    return u.n_able()


def may_carry(prof, u: Unit) -> bool:
    """L1206: reduced to half the standard crew or less, the weapon can no longer be moved."""
    return 2 * crew_able(u) > prof.crew


def may_limber(prof, u: Unit) -> bool:
    """L1208: limbering and unlimbering need at least half the crew."""
    return 2 * crew_able(u) >= prof.crew


def may_crew_fire(prof, u: Unit) -> bool:
    """L1206: size 1 fires until the last crewman falls; larger weapons need at least half the standard crew."""
    n = crew_able(u)
    return n >= 1 if prof.weapon.size <= 1 else 2 * n >= prof.crew


WITH_UNIT = 2.0  # a set-up weapon is with its crew while the leader is within 2" of it (a placement shift)


def with_unit(st: dict, u: Unit, tol: float = WITH_UNIT) -> bool:
    """The weapon is where the unit is (carried, limbered, or set up where the unit's leader stands; the leader's
    2" shift of a figure placement does not leave it: only a move does, RN-701)."""
    if st["abandoned"]:
        return False
    at = st["at"]
    return at is None or (at[0] - u.x) ** 2 + (at[1] - u.y) ** 2 <= tol * tol + 1e-9


def crew_figures(prof, u: Unit) -> list[int]:
    """The figures that serve the weapon: the first able figures, as many as the standard crew (RN-700)."""
    return [i for i, f in enumerate(u.figures) if f.status == OK][:prof.crew]


# ---------------------------------------------------------------------------------------------- vehicles seam
def vehicle_profile(game, t: Unit):
    """The target's VehicleProfile (through the vehicle rules' service), or None for infantry."""
    svc = game.rules.services.get("vehicle_profile")
    return svc(game, t) if svc is not None else None


def towed(game, u: Unit) -> bool:
    svc = game.rules.services.get("towed")
    return bool(svc(game, u)) if svc is not None else False


def class_1_vehicle(game, t: Unit) -> bool:
    """Seed 003 Bikes and Cavalry (house rules, ``close_combat: "house"``): mounted cavalry and bikes are class 1
    vehicles when fired at by heavy weapons, their armour class as for infantry (RN-404, RN-709): the weapon's
    firepower and impact against armour, against the figures' own armour; damaged = wounded, destroyed = killed
    (the infantry damage of the same rolls)."""
    return t.mounted and game.options["close_combat"] == "house"


def weapon_effects(game, firer: Unit, t: Unit, res: FireResult, impact: int, weapon_class: int, plan: dict,
                   origin=None) -> None:
    """The effects of a resolved heavy-weapon, rocket or missile attack on ``t`` by its kind (``plan["vehicle"]``:
    the vehicle rules' ``vehicle_profile`` says ``t`` is a vehicle), through the attack pipeline's one dispatch
    (``kernel.attack.fire_effects``): infantry, the Shoot Action's suppression, hits and tests (``plan["cover"]``);
    a vehicle, :func:`vehicle_attack` (``origin``, default ``plan["origin"]``: where the line of fire comes from)."""
    if plan["vehicle"]:
        vehicle_attack(game, firer, t, res, impact, weapon_class, plan["origin"] if origin is None else origin)
    else:
        fire_effects(game, firer, t, res, impact, kind=FIGURES, cover=plan["cover"])


def vehicle_attack(game, firer: Unit, t: Unit, res: FireResult, impact: int, weapon_class: int, origin) -> None:
    """The effect of a resolved heavy-weapon, rocket or missile attack on a vehicle: a minor or major success adds a
    suppression marker, up to the usual three (L1431: heavy weapons are not limited to one, RN-708); the hits go to the
    vehicle rules' ``vehicle_fire(game, v, impact, hits, x, y, weapon_class=)`` (impact against the armour of the
    facing the line from ``origin`` strikes, damage markers, passengers, the vehicle's confidence test): the
    ``attacks`` entry of the kind ``vehicle`` (Firing at Vehicles), or without it (vehicle rules that only describe
    the vehicles) these steps here."""
    if VEHICLE in game.rules.attacks:  # the vehicle-combat rules: suppression, hits and the tests
        fire_effects(game, firer, t, res, impact, kind=VEHICLE, weapon_class=weapon_class, origin=origin)
        return
    if res.result != "none":
        if not t.suppressed_before:
            t.suppressed_before = True
        if t.suppression < 3:
            t.suppression += 1
        game.emit(Suppressed(t.uid, t.suppression))
    t.under_fire_before = True
    if res.hits:
        game.rules.services["vehicle_fire"](game, t, impact, res.hits, origin[0], origin[1], weapon_class=weapon_class)


def vehicle_impact(dice: DiceSource, *, impact: int, armour: int) -> tuple[str, int, int]:
    """One hit on a vehicle (L1433-1435): impact beats armour: damaged; more than double: destroyed; a draw goes to
    the vehicle (RN-710).  Returns (none | damaged | destroyed, impact roll, armour roll)."""
    i = dice.roll(impact)
    a = dice.roll(armour)
    if i > 2 * a:
        return "destroyed", i, a
    if i > a:
        return "damaged", i, a
    return "none", i, a


# ---------------------------------------------------------------------------------------------- firing
def effective_range(size: int) -> float:
    """L1226-1230: size x 48" (size 1: 48", beyond it an unlimited long range)."""
    return RANGE_PER_SIZE * max(1, size)


def heavy_target_die(*, distance: float, weapon_size: int, target_size: int, concealment: int = 0,
                     propped: bool = False, small: bool = False, firer_quality: int = D8, travel: bool = False,
                     fire_control: str | None = "average", night: bool = False) -> int:
    """The target die of heavy-weapon fire (or -1: above D12, no engagement).

    The Shoot Action's table without short range (L1232), long range beyond size x 48"; the large-target shift
    (L1236: a target larger than the weapon shifts the die down one); +2 at night (seed 003); the fire control
    (L1244: inferior +1, superior -1) as one more term of the net shift (RN-122): clamped at D4, above D12 no
    engagement."""
    shift = 1 if distance > effective_range(weapon_size) else 0
    shift += concealment
    if propped:
        shift += 1
    if small:
        shift += 1
    if firer_quality == D4:
        shift += 1
    elif firer_quality == D12:
        shift -= 1
    if travel:
        shift -= 1
    if target_size > weapon_size:
        shift -= 1
    if night:
        shift += 2
    shift += FIRE_CONTROL_SHIFT[fire_control]
    step = D8 + shift
    if step > D12:
        return -1
    return max(step, D4)


def heavy_plan(game, u: Unit, t: Unit, weapon, origin=None) -> dict | None:
    """What firing ``weapon`` (a WeaponProfile) from ``u`` at ``t`` would roll, or None (no sight, out of reach,
    no firepower against this kind of target).  ``origin``: where the weapon stands (default: the unit)."""
    ox, oy = (u.x, u.y) if origin is None else origin
    if origin is None:
        geo = shoot_geometry(game, u, t)
    else:
        s = game.bf.sight(ox, oy, t.x, t.y)
        geo = None if not s.visible else (
            2 if t.complete_concealment else (1 if s.concealed or game.bf.conceals(t.x, t.y) else 0),
            max(s.cover, game.bf.cover_at(t.x, t.y)))
    if geo is None:
        return None
    vp = vehicle_profile(game, t)
    point = vp is not None or class_1_vehicle(game, t)
    fp = weapon.firepower if point else weapon.firepower_vs_infantry
    if not fp:
        return None
    impact = weapon.impact_vs_armour if point else weapon.impact_vs_infantry
    dist = math.hypot(t.x - ox, t.y - oy)
    step = heavy_target_die(distance=dist, weapon_size=weapon.size, target_size=vp.target_size if vp else t.size,
                            concealment=geo[0], propped=t.propped, small=vp is None and t.small_target,
                            firer_quality=u.quality, travel=t.travel, fire_control=weapon.fire_control,
                            night=game.options["night"] and not u.night_vision)
    if step < 0:
        return None
    return {"distance": dist, "concealment": geo[0], "cover": geo[1], "target_die": step,
            "firepower": [parse_die(f) for f in fp], "impact": parse_die(impact), "vehicle": vp is not None,
            "origin": (ox, oy)}


def fire_weapon(game, u: Unit, t: Unit, weapon, plan: dict) -> FireResult:
    """Resolve one heavy-weapon shot of ``plan`` (``heavy_plan``): the roll to hit, then its effects on the target
    by its kind (:func:`weapon_effects`: infantry, the Shoot Action's suppression, hits and tests; a vehicle,
    :func:`vehicle_attack`).
    Vehicle rules fire vehicle-mounted weapons through this too."""
    step = plan["target_die"]
    res = resolve_fire(game.dice, quality=u.quality, firepower=plan["firepower"], target=step,
                       extra_hits=game.options["extra_hits"])
    game.emit(HeavyWeaponFired(u.uid, t.uid, weapon.name, die_name(step), res.target_roll,
                               tuple(die_name(s) for s in [u.quality] + plan["firepower"]), res.firer_rolls,
                               res.successes, res.result, res.hits))
    weapon_effects(game, u, t, res, plan["impact"], weapon.size, plan)
    return res


def can_fire(game, u: Unit, prof, st: dict) -> bool:
    """The weapon is set up, working, at the unit, not yet fired this activation, with enough crew."""
    return (st["ready"] and st["damage"] == WORKING and not st["fired"] and with_unit(st, u)
            and may_crew_fire(prof, u))


def direct_fire(prof) -> bool:
    return prof.weapon.category in ("direct_fire", "apsw")


def _fire_options(game, u: Unit, status) -> list:
    st = state(game, u)
    if st is None or not may_shoot(u, status):
        return []
    prof = weapon_of(game, u)
    if not direct_fire(prof) or not can_fire(game, u, prof, st):
        return []
    out = []
    for t in game.enemy_units(u.side):
        if t.location != "routed_off" and heavy_plan(game, u, t, prof.weapon) is not None:
            out.append(("fire_heavy", t.uid))
    return out


def _task_options(game, u: Unit, status) -> list:
    st = state(game, u)
    if st is None or st["abandoned"] or status.disorganised or (status.suppressed and not status.in_cover):
        return []
    prof = weapon_of(game, u)
    here = with_unit(st, u)
    if not here or crew_able(u) < 1:
        return []
    out = []
    if prof.carriage == "man_packed":
        out.append(("reorganise", "dismantle" if st["ready"] else "set_up"))
    elif may_limber(prof, u) and (st["ready"] or not towed(game, u)):  # unhooked first to unlimber (RN-880)
        out.append(("reorganise", "limber" if st["ready"] else "unlimber"))
    if st["damage"] == DISABLED:
        out.append(("reorganise", "repair"))
    return out


def _options(game, u: Unit, status) -> list:
    return _task_options(game, u, status) + _fire_options(game, u, status)


def mark_fired(game, u: Unit) -> None:
    """The unit's heavy weapon fires now (at a target another rule resolves: a building): fired this activation,
    its crew figures fire nothing else (RN-700)."""
    st = state(game, u)
    st["fired"] = True
    for i in crew_figures(weapon_of(game, u), u):
        u.fired.add(i)


def _fire(game, u: Unit, opt) -> None:
    t = game.units[opt[1]]
    prof = weapon_of(game, u)
    st = state(game, u)
    plan = heavy_plan(game, u, t, prof.weapon)
    if plan is None:
        raise IllegalOptionError(f"{opt!r}: the heavy weapon cannot fire at that target")
    st["fired"] = True
    for i in crew_figures(prof, u):
        u.fired.add(i)
    fire_weapon(game, u, t, prof.weapon, plan)


def _task(what: str):
    def apply(game, u: Unit) -> None:
        st = state(game, u)
        if what in ("set_up", "unlimber"):
            st["ready"] = True
            st["at"] = [u.x, u.y]
        elif what in ("dismantle", "limber"):
            st["ready"] = False
            st["remote"] = False
            st["at"] = None
        else:  # repair
            st["damage"] = WORKING
        game.emit(HeavyWeaponTask(u.uid, what))
    return apply


# ---------------------------------------------------------------------------------------------- hooks
def _on_activation(game, u: Unit) -> None:
    st = state(game, u)
    if st is not None:
        st["fired"] = False


def carried(game, u: Unit) -> bool:
    """A dismantled man-packed weapon the crew carries (it encumbers them; half the crew or less cannot)."""
    st = state(game, u)
    if st is None or st["abandoned"] or st["ready"] or st["at"] is not None:
        return False
    prof = weapon_of(game, u)
    return prof.carriage == "man_packed" and may_carry(prof, u)


def _movement_die(game, u: Unit, die: int) -> int:
    """L1206: the crew carrying a man-packed weapon move one die type lower (one encumbrance: not again when it
    already carries wounded or heavy equipment)."""
    if die > D4 and carried(game, u) and not carrying(u) and not u.heavy_equipment:
        return die - 1
    return die


def moves_with(game, u: Unit, prof, st: dict) -> bool:
    """Whether the weapon goes where the crew goes: man-packed and dismantled with more than half the crew, or
    limbered and towed by a vehicle."""
    if st["ready"]:
        return False
    if prof.carriage == "man_packed":
        return may_carry(prof, u)
    return towed(game, u)


def towable_size(game, t: Unit):
    """The towing rule's service (L1208 "towed carriages", L1417, RN-880): a limbered towed weapon with its crew is
    towed as an element of its carriage's size (the design's ``target_size``, weapon class - 1: a tower of at most
    one size smaller, ``tractor_size_dustup``); None for anything else (set up, man-packed, abandoned, or no heavy
    weapon)."""
    st = state(game, t)
    if st is None or st["abandoned"] or st["ready"] or st["at"] is not None:
        return None
    prof = weapon_of(game, t)
    return prof.target_size if prof.carriage == "towed" else None


REMOTE_REACH = 12.0  # L1302: the operator may move up to 12" from the remote launcher


def _after_move(game, u: Unit, start, withdraw: bool) -> None:
    st = state(game, u)
    if st is None or st["abandoned"]:
        return
    if (u.x, u.y) == tuple(start):
        return
    prof = weapon_of(game, u)
    if st["at"] is None and moves_with(game, u, prof, st):
        return
    if st["at"] is None:  # could not come along: left where the crew stood
        st["at"] = [start[0], start[1]]
    if st["remote"] and math.hypot(u.x - st["at"][0], u.y - st["at"][1]) <= REMOTE_REACH + 1e-9:
        return
    st["abandoned"] = True
    st["ready"] = False
    game.emit(HeavyWeaponAbandoned(u.uid, round(st["at"][0], 3), round(st["at"][1], 3)))


def regrouped(game, u: Unit, p: Unit) -> None:
    """Regroup Action (RN-882): ``p`` merged into ``u``.  The combined unit is "a single unit" with every figure of
    both, so a crew's weapon stays with it: ``p``'s weapon becomes ``u``'s.  A set-up weapon further than 2" from
    the combined unit's leader is left behind, abandoned (the crew moved away from it, L1206)."""
    heavy = weapon_states(game)
    sp = heavy.get(str(p.uid))
    if sp is None:
        return
    su = heavy.get(str(u.uid))
    if su is not None and not su["abandoned"]:
        return  # not offered (one heavy weapon per unit: :func:`_filter`)
    del heavy[str(p.uid)]
    sp["spec"] = sp.get("spec", p.uid)
    heavy[str(u.uid)] = sp
    if not sp["abandoned"] and sp["at"] is not None and not with_unit(sp, u):
        sp["abandoned"] = True
        sp["ready"] = False
        game.emit(HeavyWeaponAbandoned(u.uid, round(sp["at"][0], 3), round(sp["at"][1], 3)))


def _has_live_weapon(game, u: Unit) -> bool:
    st = state(game, u)
    return st is not None and not st["abandoned"]


def _filter(game, u: Unit, opts: list) -> list:
    """RN-882: a unit serves one heavy weapon, so two crews that both still have theirs do not regroup."""
    if not _has_live_weapon(game, u):
        return opts
    return [o for o in opts if not (o[0] == "regroup" and game.units[o[1]].parent != u.uid
                                    and _has_live_weapon(game, game.units[o[1]]))]


def weapon_target(game, t: Unit) -> bool:
    """A crew-served weapon with the unit is one more potential target of fire (L1212)."""
    st = state(game, t)
    return st is not None and st["damage"] != DAMAGED and with_unit(st, t)


def weapon_hit(game, t: Unit, impact: int, armour_shift: int) -> str:
    """A hit on the weapon: impact against D8 armour (with the crew's cover): a wound disables it, a kill or a
    second wound damages it for good (RN-703)."""
    st = state(game, t)
    adie = shift_closed(WEAPON_ARMOUR, armour_shift)
    effect, i, a = resolve_impact(game.dice, impact=impact, armour=adie)
    if effect == "kill" or (effect == "wound" and st["damage"] == DISABLED):
        st["damage"] = DAMAGED
    elif effect == "wound":
        st["damage"] = DISABLED
    game.emit(HeavyWeaponHit(t.uid, die_name(impact), i, die_name(adie), a,
                             DAMAGE_NAMES[st["damage"]] if effect != "none" else "none"))
    return effect


# ---------------------------------------------------------------------------------------------- observation
HEAVY_FEATURES = (
    "heavy_weapon", "man_packed", "towed_carriage", "set_up", "dismantled", "limbered", "disabled", "damaged",
    "fired", "abandoned", "remote", "guided", "weapon_size", "ecm", "decoy", "area_protection",
    "protection_carried", "protection_deployed", "protection_spent",
)
HF = len(HEAVY_FEATURES)  # 19
_HW = {n: i for i, n in enumerate(HEAVY_FEATURES)}
_DIE_SCALE = 5.0  # a die step (D4 0 .. D12 4, ...) + 1, over 5


_DIE01: dict = {}  # die01 by its argument (a die's name or step): the observation reads the same few dice per decision


def die01(d) -> float:
    """A die (its name or step) as (step + 1) / 5 in [0, 1]; 0 when there is none."""
    try:
        return _DIE01[d]
    except (KeyError, TypeError):  # not yet seen (or not hashable: worked out each time)
        pass
    if d is None or d == "" or d == 0:
        v = 0.0
    else:
        try:
            step = parse_die(d) if isinstance(d, str) else int(d)
        except Exception:  # noqa: BLE001 - a die the observation cannot place
            step = None
        v = 0.0 if step is None else min((step + 1) / _DIE_SCALE, 1.0)
    if isinstance(d, (str, int)):
        _DIE01[d] = v
    return v


FAMILIES = (Family("fire_heavy", ("enemy",), 47, "fire the unit's heavy weapon at an enemy unit (an individual action)"),
            Family("reorganise", (HEAVY_TASKS,), 49,
                   "heavy weapons: set up, dismantle, limber, unlimber, repair a disabled weapon"))

RULE = Rule(
    "Heavy Weapons", 'seed 000 "Armoured Dustup › Heavy Weapons" (Moving, Hits on, Firing, Range, Large Targets, '
    'Fire Control)',
    applies=_has_heavy, families=FAMILIES, init=(_init,),
    action_options=(_options,), action_filters=(_filter,), actions={"fire_heavy": _fire},
    reorganise={w: _task(w) for w in HEAVY_TASKS},
    on_activation=(_on_activation,), movement_die=(_movement_die,), after_move=(_after_move,),
    services={"weapon_target": weapon_target, "weapon_hit": weapon_hit, "heavy_plan": heavy_plan,
              "fire_weapon": fire_weapon, "towable_size": towable_size,
              "regrouped": regrouped})  # its observation piece: heavy_weapons_observation.py
