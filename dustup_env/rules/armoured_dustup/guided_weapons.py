"""Guided Weapons (seed 000 "Armoured Dustup › Guided Weapons": Electronic Counter-Measures, Guidance Systems,
Firing Procedure, Remote Missile Launchers, Decoys, Area Protection).

* **ECM** (L1266): every unit has an ECM die: a vehicle its design's, any other unit its scenario field ``ecm``
  (default D8, average: RN-124).
* **Firing** (L1286-1296): ``("fire_guided", target)``: a man-packed missile (a unit's ``heavy_weapon`` design of
  the ``guided`` category) once set up (the heavy-weapon ``set_up`` action; vehicle-mounted missiles need none and
  are fired by the vehicle rules through the ``launch`` service).  The firer's quality die and the guidance die
  against the target's ECM die, one up behind cover or concealment (L1290, RN-124, RN-920); no range limit; never
  supporting small arms.  None beating the ECM: a miss; one: suppressed; both: a hit, one impact roll (against
  armour for a vehicle, against infantry otherwise).  Game option ``wire_guided`` (footnote 11): the guidance die
  one down with any physical obscuration between the launcher and the target.
* **Remote launchers** (L1300-1302): ``("reorganise", "remote")``, one more action once set up; the operator may
  then move up to 12" away and fire (one action of the controlling unit) when it or the launcher sees the target.
* **Decoys and area protection** (L1304-1316): before the dice, the targeted side decides (a procedure of its
  own: ``("decoy",)``, ``("area_protection", unit)`` or ``("decline",)``) whether a system tries to defeat the
  missile: its die against the guidance die; a draw favours the target, the defender (L357), so the decoy defeats
  the missile unless the guidance die beats it (RN-125, RN-921).  A vehicle's decoy may try against every
  missile; once it defeats one it is spent for the turn (game option ``decoys_multiple``: never spent).  Area
  protection (unit field ``area_protection``: its die) is deployed by one reorganise action
  (``deploy_protection``), covers friendly vehicles within 6" and is spent after one try.  A vehicle design's
  area-defence system covers friendly vehicles within 6" of it, one try per turn (RN-706).  Each system tries
  once per missile.
"""
from __future__ import annotations

import math

from ..kernel.dice import D4, D8, DiceSource, die_name, parse_die, shift_closed
from ..kernel.decisions import Decision, Frame
from ..kernel.errors import IllegalOptionError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.sequence import pop, push
from ..kernel.state import Component
from ..unit_actions.shoot_action import FireResult, may_shoot, shoot_geometry
from . import heavy_weapons as hw
from .heavy_weapons_observation import HEAVY_WEAPONS_PIECE
from . import vehicles

DEFAULT_ECM = D8  # RN-124: units without an ECM rating are average
AREA_RADIUS = 6.0  # L1314


class GuidedState(Component):
    """The rule's state: every area-protection system by its unit's uid (``{state: carried | deployed | spent, die,
    at}``), and the turn each unit last used its fixed area protection (``protection_turn``) or a decoy
    (``decoys_spent``), by uid."""

    __slots__ = ("protection", "protection_turn", "decoys_spent")


def protection_states(game) -> dict:
    """Every area-protection system's state by its unit's uid (empty in a game without)."""
    st = game.components.get(GuidedState)
    return (st.protection if st is not None else None) or {}


@event
class MissileFired(Event):
    unit: int
    target: int
    weapon: str
    ecm: str
    ecm_roll: int
    dice: tuple
    rolls: tuple
    successes: int
    result: str  # none (a miss) | minor (suppressed) | major (a hit)


@event
class MissileIntercepted(Event):
    unit: int  # the target
    system: str  # decoy | area_protection
    by: int  # the unit whose system tried
    die: str
    roll: int
    guidance: str
    guidance_roll: int
    defeated: bool


@event
class ProtectionDeployed(Event):
    unit: int
    x: float
    y: float


# ---------------------------------------------------------------------------------------------- pure rolls
def resolve_guided(dice: DiceSource, *, quality: int, guidance: int, ecm: int) -> FireResult:
    """The Firing Procedure's roll (L1290-1296): the ECM die, then the firer's quality and guidance dice.
    None beating the ECM: "none" (a miss); one: "minor" (suppressed); both: "major", one hit."""
    e = dice.roll(ecm)
    q = dice.roll(quality)
    g = dice.roll(guidance)
    successes = (q > e) + (g > e)
    result = ("none", "minor", "major")[successes]
    return FireResult(e, (q, g), successes, result, 1 if successes == 2 else 0)


def intercept_roll(dice: DiceSource, *, system: int, guidance: int) -> tuple[bool, int, int]:
    """A decoy or area-protection try (L1306): its die against the guidance die.  The targeted side defends, and
    "a draw will favour the 'defender'" (L357): the missile gets through only if its guidance die beats the decoy's
    roll (RN-921)."""
    s = dice.roll(system)
    g = dice.roll(guidance)
    return not g > s, s, g


def guided_ecm(ecm: int, *, cover: bool) -> int:
    """L1290: the ECM die (which replaces the target die) one up "behind cover": cover or concealment, as the
    rulebook's own example calls concealment "behind cover" (L653; RN-124, RN-920); one shift at most, closed at D12."""
    return shift_closed(ecm, 1) if cover else ecm


# ---------------------------------------------------------------------------------------------- ECM
def ecm_die(game, t) -> int:
    vp = hw.vehicle_profile(game, t)
    if vp is not None:
        return parse_die(vp.ecm)
    spec = hw.spec_of(game, t)
    return parse_die(spec["ecm"]) if spec is not None and "ecm" in spec else DEFAULT_ECM


# ---------------------------------------------------------------------------------------------- sight and plan
def _geometry(game, x, y, t, obs=None):
    """(concealment, cover, obscured) of a missile's line from (x, y) to ``t``, or None without sight: the ground's
    line, or ``obs``'s (the firer's own observer: an aircraft in the air sees over the terrain, smoke not, L1788)."""
    s = game.bf.sight(x, y, t.x, t.y) if obs is None else game.bf.sight_for(obs, x, y, t.x, t.y)
    if not s.visible:
        return None
    conc = 2 if t.complete_concealment else (1 if s.concealed or game.bf.conceals(t.x, t.y) else 0)
    return conc, max(s.cover, game.bf.cover_at(t.x, t.y)), s.concealed or s.cover > 0


def guided_plan(game, u, t, weapon, launcher=None) -> dict | None:
    """What a missile of ``weapon`` (a WeaponProfile) from ``u`` (or its remote ``launcher`` point) at ``t`` rolls,
    or None without sight.  The missile flies from the launcher when the launcher sees the target, else the operator
    guides it from where it stands (L1306: "visible to either")."""
    geo, origin = None, (u.x, u.y)
    if launcher is not None:
        geo = _geometry(game, launcher[0], launcher[1], t)
        origin = tuple(launcher)
    if geo is None:
        aloft = game.rules.services.get("aircraft_observer")  # Aerospace Operations: fired from an aircraft in the air
        geo, origin = _geometry(game, u.x, u.y, t, aloft(game, u) if aloft is not None else None), (u.x, u.y)
    if geo is None:
        return None
    conc, cover, obscured = geo
    vp = hw.vehicle_profile(game, t)
    guidance = parse_die(weapon.guidance or "d4")  # guidance "None" is D4 (RN-707)
    if game.options["wire_guided"] and obscured:
        guidance = shift_closed(guidance, -1)
    ecm = guided_ecm(ecm_die(game, t), cover=bool(cover or conc))
    impact = weapon.impact_vs_armour if vp is not None else weapon.impact_vs_infantry
    return {"ecm": ecm, "guidance": guidance, "impact": parse_die(impact), "cover": cover, "vehicle": vp is not None,
            "weapon": weapon.name, "size": weapon.size, "origin": [origin[0], origin[1]]}


# ---------------------------------------------------------------------------------------------- interception
def _spent_this_turn(game, key: str, uid: int) -> bool:
    st = game.components.get(GuidedState)
    return ((getattr(st, key) if st is not None else None) or {}).get(str(uid)) == game.turn


def _spend(game, key: str, uid: int) -> None:
    st = game.state_of(GuidedState)
    d = getattr(st, key)
    if d is None:
        d = {}
        setattr(st, key, d)
    d[str(uid)] = game.turn


def protection(game, u) -> dict | None:
    return protection_states(game).get(str(u.uid))


def intercept_options(game, t, tried) -> list:
    """The systems that may try to defeat a missile at ``t`` now (each once per missile)."""
    if hw.vehicle_profile(game, t) is None:
        return []  # decoys are fitted to vehicles; area protection covers vehicles (L1306, L1314)
    out = []
    vp = hw.vehicle_profile(game, t)
    if vp.decoy and "decoy" not in tried and (game.options["decoys_multiple"] or not _spent_this_turn(game, "decoys_spent", t.uid)):
        out.append(("decoy",))
    for uid in game.side_units[t.side]:
        p = game.units[uid]
        if not p.in_play or f"area:{uid}" in tried:
            continue
        ps = protection(game, p)
        if ps is not None and ps["state"] == "deployed":
            x, y = ps["at"]
        else:
            pvp = hw.vehicle_profile(game, p)
            if pvp is None or not pvp.area_protection or _spent_this_turn(game, "protection_turn", uid):
                continue
            x, y = p.x, p.y
        if math.hypot(t.x - x, t.y - y) <= AREA_RADIUS + 1e-9:
            out.append(("area_protection", uid))
    return out


def launch(game, u, t, plan: dict, more=()) -> bool:
    """Fire a missile of ``plan`` (``guided_plan``) from ``u`` at ``t``: the targeted side's interception first
    (a procedure; returns False: the procedure ends the firer's action), else the attack now (returns True).
    ``more``: the plans of further missiles of the same action (a vehicle's slaved launchers, L1480-1482), fired one
    after another at the same target, each with its own interception; those left when the target is gone (or the
    game is over) are not fired (RN-870)."""
    queue = [plan, *more]
    while queue:
        if not t.in_play or game.phase == "over":
            return True
        p = queue.pop(0)
        if intercept_options(game, t, ()):
            data = {"firer": u.uid, "target": t.uid, "plan": p, "tried": []}
            if queue:
                data["more"] = queue
            push(game, Frame("intercept", t.uid, 0, False, data))
            return False
        attack(game, u, t, p)
    return True


def attack(game, u, t, plan: dict) -> FireResult:
    res = resolve_guided(game.dice, quality=u.quality, guidance=plan["guidance"], ecm=plan["ecm"])
    ew = game.rules.services.get("ew_guidance")  # Electronic Warfare's disruption of the guidance, after the dice
    if ew is not None and ew(game, u, plan["guidance"], res.firer_rolls[1], t.uid):
        res = FireResult(res.target_roll, res.firer_rolls, 0, "none", 0)
    game.emit(MissileFired(u.uid, t.uid, plan["weapon"], die_name(plan["ecm"]), res.target_roll,
                           (die_name(u.quality), die_name(plan["guidance"])), res.firer_rolls, res.successes,
                           res.result))
    hw.weapon_effects(game, u, t, res, plan["impact"], plan["size"], plan)
    return res


class Intercept:
    """The targeted side's decision before the dice: a decoy or an area-protection system tries, or none."""

    def decision(self, game, frame):
        t = game.units[frame.data["target"]]
        opts = intercept_options(game, t, frame.data["tried"]) + [("decline",)]
        return Decision(t.side, "intercept", t.uid, tuple(opts))

    def apply(self, game, frame, opt):
        d = frame.data
        t, u = game.units[d["target"]], game.units[d["firer"]]
        plan = d["plan"]
        if opt[0] != "decline":
            if opt[0] == "decoy":
                by, die, key = t.uid, parse_die(hw.vehicle_profile(game, t).decoy), "decoy"
            else:
                by = opt[1]
                p = game.units[by]
                ps = protection(game, p)
                if ps is not None and ps["state"] == "deployed":
                    die = parse_die(ps["die"])
                    ps["state"] = "spent"  # one-shot (L1314)
                else:
                    die = parse_die(hw.vehicle_profile(game, p).area_protection)
                    _spend(game, "protection_turn", by)
                key = f"area:{by}"
            ok, s, g = intercept_roll(game.dice, system=die, guidance=plan["guidance"])
            d["tried"].append(key)
            game.emit(MissileIntercepted(t.uid, "decoy" if key == "decoy" else "area_protection", by, die_name(die), s,
                                         die_name(plan["guidance"]), g, ok))
            if ok and key == "decoy" and not game.options["decoys_multiple"]:
                _spend(game, "decoys_spent", t.uid)
            if not ok and intercept_options(game, t, d["tried"]):
                return  # another system may try
            if ok:
                _done(game, frame, u)
                return
        attack(game, u, t, plan)
        _done(game, frame, u)


def _done(game, frame, u) -> None:
    """This missile is done: the salvo's next missiles as in :func:`launch` (the frame asks the next one's
    interception decision), and when none is left the frame is popped (the firer's activation counts the action)."""
    d = frame.data
    t = game.units[d["target"]]
    queue = d.pop("more", [])
    while queue:
        if not t.in_play or game.phase == "over":
            break
        p = queue.pop(0)
        if intercept_options(game, t, ()):
            d["plan"], d["tried"] = p, []
            if queue:
                d["more"] = queue
            return
        attack(game, u, t, p)
    pop(game, frame)


# ---------------------------------------------------------------------------------------------- actions
def _guided(game, u):
    st = hw.state(game, u)
    if st is None:
        return None, None
    prof = hw.weapon_of(game, u)
    return (prof, st) if prof.weapon.category == "guided" else (None, None)


def may_launch(game, u, prof, st) -> bool:
    """Set up, working, not fired this activation, crewed; at the launcher, or its remote operator within 12"."""
    if not st["ready"] or st["damage"] != hw.WORKING or st["fired"] or st["abandoned"] or not hw.may_crew_fire(prof, u):
        return False
    if hw.with_unit(st, u):
        return True
    return st["remote"] and math.hypot(u.x - st["at"][0], u.y - st["at"][1]) <= hw.REMOTE_REACH + 1e-9


def _launcher(st, u):
    return None if hw.with_unit(st, u) else tuple(st["at"])


def _options(game, u, status) -> list:
    out = []
    ps = protection(game, u)
    if ps is not None and ps["state"] == "carried" and not status.disorganised and \
            not (status.suppressed and not status.in_cover):
        out.append(("reorganise", "deploy_protection"))
    prof, st = _guided(game, u)
    if prof is None:
        return out
    if prof.remote and st["ready"] and not st["remote"] and hw.with_unit(st, u) and not st["abandoned"] and \
            not status.disorganised and not (status.suppressed and not status.in_cover):
        out.append(("reorganise", "remote"))
    if may_shoot(u, status) and may_launch(game, u, prof, st):
        launcher = _launcher(st, u)
        for t in game.enemy_units(u.side):
            if t.location != "routed_off" and guided_plan(game, u, t, prof.weapon, launcher) is not None:
                out.append(("fire_guided", t.uid))
    return out


def _fire(game, u, opt):
    prof, st = _guided(game, u)
    t = game.units[opt[1]]
    plan = guided_plan(game, u, t, prof.weapon, _launcher(st, u))
    if plan is None:
        raise IllegalOptionError(f"{opt!r}: the missile cannot be fired at that target")
    st["fired"] = True
    for i in hw.crew_figures(prof, u):
        u.fired.add(i)
    return None if launch(game, u, t, plan) else False


def _remote(game, u):
    st = hw.state(game, u)
    st["remote"] = True
    game.emit(hw.HeavyWeaponTask(u.uid, "remote"))


def _deploy(game, u):
    ps = protection(game, u)
    ps["state"] = "deployed"
    ps["at"] = [u.x, u.y]
    game.emit(ProtectionDeployed(u.uid, round(u.x, 3), round(u.y, 3)))


def _init(game) -> None:
    out = {}
    for uid, spec in hw.unit_specs(game).items():
        if "area_protection" in spec:
            out[str(uid)] = {"state": "carried", "die": spec["area_protection"], "at": None}
    if out:
        game.state_of(GuidedState).protection = out


_KEYS = ("heavy_weapon", "area_protection", "ecm", "design")  # "design": a vehicle of the vehicle rules


def _applies(scenario: dict, options: dict) -> bool:
    return any(k in u for side in scenario["sides"] for u in side["units"] for k in _KEYS)


FAMILIES = (Family("fire_guided", ("enemy",), 50, "fire the unit's guided missile at an enemy unit"),
            Family("reorganise", (("remote", "deploy_protection"),), 51,
                   "set up a remote missile launcher; deploy an area-protection system"),
            Family("decoy", (), 52, "the targeted vehicle's decoy tries to defeat the missile"),
            Family("area_protection", ("own",), 53, "this unit's area protection tries to defeat the missile"))

RULE = Rule(
    "Guided Weapons", 'seed 000 "Armoured Dustup › Guided Weapons" (ECM, Guidance, Firing Procedure, Remote Missile '
    'Launchers, Decoys, Area Protection)',
    options=(Option("wire_guided", False, "Guided Weapons footnote 11: archaic wire-guided missiles, the guidance die "
                                          "one down with any physical obscuration between launcher and target"),
             Option("decoys_multiple", False, "Decoys, advanced technology: a decoy is never spent (it may defeat "
                                              "several missiles a turn)")),
    applies=_applies, families=FAMILIES, init=(_init,),
    action_options=(_options,), actions={"fire_guided": _fire},
    reorganise={"remote": _remote, "deploy_protection": _deploy},
    procedures={"intercept": Intercept()},
    services={"guided_plan": guided_plan, "launch": launch, "ecm_die": ecm_die,
              "protection_states": protection_states},
    # this rule applies to every game with vehicles, heavy weapons, ECM or area protection: it brings in both
    # Armoured Dustup pieces, so every such game has the same layout (a vehicle's ECM and decoy are in
    # heavy_weapons, a towed heavy weapon in vehicles)
    observation=(vehicles.VEHICLES_PIECE, HEAVY_WEAPONS_PIECE))
