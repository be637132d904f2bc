"""Fire by Vehicles (seed 000 "ARMOURED DUSTUP › Fire by Vehicles": "Weapon Stabilisation", "Multiple Weapons",
"Mechs and Monsters"; "Suppression and Vehicles" and "Suppression of Mechs and Monsters" (fire); "Vehicle Damage"
(engaging)).

A vehicle, mech or large creature fires the direct-fire weapons of its design (the design's ``weapons``: direct fire
and APSW; guided weapons, with no set-up, through the Guided Weapons rules' ``guided_plan`` / ``launch``, RN-813;
artillery by the artillery rules, not built, RN-871) as heavy weapons (L1467): the heavy-weapon target die
(``heavy_weapons.heavy_target_die``: range by weapon size, the large-target shift, fire control), the weapon's
firepower and impact against vehicles or infantry by the target, and the result through ``heavy_weapons.fire_weapon``
(infantry: the Shoot Action's effects; vehicles: ``vehicle_fire``).  The options:

* ``("fire_vehicle", target, k)``: the design's k-th weapon alone (L1478: one weapon per action);
* ``("fire_slaved", target)``: every ready slaved weapon (direct fire or guided) at one target as one action, each
  shot resolved on its own, each missile with its own interception (L1480-1482, RN-138, RN-870);
* ``("fire_pair", target, p)``: a mech or monster fires two weapons (the p-th pair of ``PAIRS``) at one target as one
  action (L1486);
* ``("fire_all", target)``: under the seed 003 house rules (``close_combat: "house"``, "Multiple Weapons": "fire one
  or more weapons at a single target as one action, and then any remaining weapons at the same or a different
  target as a second action") a mech or monster fires every ready direct-fire weapon not yet fired at one target
  (offered when three or more are ready: one or two are ``fire_vehicle`` and ``fire_pair``), RN-855;
* ``("move_fire", target, k)``: superior stabilisation (L1474): the k-th weapon fires at the target die one up, then
  the vehicle moves in the same action (decision ``move_fire``: a move option or ``("halt",)``), RN-858.

Each weapon fires at most once per activation (as every weapon of the Shoot Action, RN-807).  A weapon fires only
at a target within its arc (RN-808).  The target die, as one net shift (RN-122): stabilisation after the vehicle
moved this activation (L1471-1474, RN-137: poor cannot fire, average +1, superior no penalty), +1 while the
vehicle is suppressed (L1498), +1 per damage marker (L1461, RN-136).  Vehicles fire while suppressed (RN-140),
except weapons that need the crew outside (RN-809).
"""
from __future__ import annotations

import math
from itertools import combinations

from ..kernel.dice import D12, parse_die
from ..kernel.entities import BROKEN, Unit
from ..kernel.actions import action_options
from ..kernel.decisions import Decision, Frame
from ..kernel.errors import IllegalOptionError
from ..kernel.ruleset import Family, Rule
from ..kernel.sequence import pop, push
from ..kernel.state import Component
from ..unit_actions.shoot_action import shoot_geometry
from .heavy_weapons import fire_weapon, heavy_target_die
from .vehicle_damage import engage_shift
from .vehicles import bearing, has_vehicles

WEAPON_SLOTS = 4  # the design's first four weapons (the library has no design with more)
PAIRS = tuple(combinations(range(WEAPON_SLOTS), 2))  # (0, 1), (0, 2), ... the pairs a mech or monster may fire
DIRECT = ("direct_fire", "apsw")
FIRED = DIRECT + ("guided",)  # guided weapons one at a time (fire_vehicle), through the Guided Weapons rules
EXTERNAL_MOUNTS = ("man_packed", "towed")  # RN-809: weapons the crew must leave the vehicle to serve
STABILISATION_SHIFT = {"poor": None, "average": 1, "superior": 0}  # after a move this activation (None: no fire)


class FiredState(Component):
    """The rule's state: ``{str(uid): [k, ...]}``, the weapons each vehicle has fired this activation."""

    __slots__ = ("vehicle_fired",)


def fired_states(game) -> dict:
    """The weapons each vehicle has fired this activation, by its uid (empty when none has)."""
    st = game.components.get(FiredState)
    return (st.vehicle_fired if st is not None else None) or {}



def weapons(v: Unit) -> tuple:
    return v.profile.vehicle.weapons[:WEAPON_SLOTS]


def fired(game, v: Unit) -> list:
    st = game.components.get(FiredState)
    st = st.vehicle_fired if st is not None else None
    return st.get(str(v.uid), []) if st else []


def mark_fired(game, v: Unit, k: int) -> None:
    st = game.state_of(FiredState)
    if st.vehicle_fired is None:
        st.vehicle_fired = {}
    st.vehicle_fired.setdefault(str(v.uid), []).append(k)


def in_arc(v: Unit, w, t: Unit) -> bool:
    """RN-808: the target lies within the weapon's arc, centred on the vehicle's facing (all round: anywhere)."""
    deg = w.arc_degrees
    if deg is None or deg >= 360:
        return True
    if abs(t.x - v.x) < 1e-9 and abs(t.y - v.y) < 1e-9:
        return True
    off = abs((bearing(v.x, v.y, t.x, t.y) - v.veh.facing + 180.0) % 360.0 - 180.0)
    return off <= deg / 2.0 + 1e-9


def own_shift(v: Unit, w) -> int | None:
    """The vehicle's own terms of the net target-die shift for weapon ``w`` (None: the weapon cannot fire now):
    stabilisation after a move, suppression, damage markers."""
    shift = 0
    if v.veh.moved:
        s = STABILISATION_SHIFT.get(w.stabilisation, 1)
        if s is None:
            return None
        shift += s
    if v.suppression > 0:
        if w.mount in EXTERNAL_MOUNTS:
            return None
        shift += 1
    return shift + engage_shift(v)


_DIE_STEPS: dict = {}  # parse_die by the die's text: the option generation reads the same few dice many times


def _die_step(text) -> int:
    step = _DIE_STEPS.get(text)
    if step is None:
        step = _DIE_STEPS[text] = parse_die(text)
    return step


def weapon_plan(game, v: Unit, t: Unit, k: int, reaction: bool = False, shift: int = 0,
                memo: dict | None = None) -> dict | None:
    """What the vehicle's k-th weapon would roll at ``t`` now, or None (not ready, out of arc, no sight, no
    firepower against this target, shifted above D12).  ``reaction``: final defensive fire, whether or not the
    weapon fired in the vehicle's own activation.  ``shift``: more on the target die (moving and firing, RN-858).
    ``memo``: a dict shared by the calls for one vehicle and one target now (the line of sight is worked out once)."""
    ws = weapons(v)
    if k >= len(ws) or (not reaction and k in fired(game, v)):
        return None
    w = ws[k]
    if w.category not in FIRED or not in_arc(v, w, t):
        return None
    extra = own_shift(v, w)
    if extra is None:
        return None
    extra += shift
    if w.category == "guided":
        return guided_weapon_plan(game, v, t, w, extra)
    vp = t.profile.vehicle
    fp = w.firepower if vp is not None else w.firepower_vs_infantry
    if not fp:
        return None
    if memo is not None and "geo" in memo:
        geo = memo["geo"]
    else:
        aloft = game.rules.services.get("aircraft_geometry")  # Aerospace Operations: the line from an aircraft
        geo = shoot_geometry(game, v, t) if aloft is None else aloft(game, v, t)
        if memo is not None:
            memo["geo"] = geo
    if geo is None:
        return None
    dist = math.hypot(t.x - v.x, t.y - v.y)
    # the vehicle's own terms join the net shift (RN-122) as one more term beside concealment
    step = heavy_target_die(distance=dist, weapon_size=w.size, target_size=vp.target_size if vp else t.size,
                            concealment=geo[0] + extra, propped=t.propped, small=vp is None and t.small_target,
                            firer_quality=v.quality, travel=t.travel, fire_control=w.fire_control,
                            night=game.options["night"] and not v.night_vision)
    if step < 0:
        return None
    return {"distance": dist, "concealment": geo[0], "cover": geo[1], "target_die": step,
            "firepower": [_die_step(f) for f in fp],
            "impact": _die_step(w.impact_vs_armour if vp is not None else w.impact_vs_infantry),
            "vehicle": vp is not None, "origin": (v.x, v.y)}


def guided_weapon_plan(game, v: Unit, t: Unit, w, extra: int) -> dict | None:
    """A guided weapon of the vehicle (the Guided Weapons rules' ``guided_plan``): the vehicle's own shifts move the
    target's ECM die, the die the missile must beat, up (RN-813); above D12 no launch."""
    svc = game.rules.services.get("guided_plan")
    if svc is None:
        return None
    plan = svc(game, v, t, w)
    if plan is None:
        return None
    aircraft = game.rules.services.get("aircraft_guidance")  # Aerospace Operations: fired from an aircraft
    if aircraft is not None:
        plan = aircraft(game, v, t, w, plan)
    if extra:
        if plan["ecm"] + extra > D12:
            return None
        plan = dict(plan, ecm=plan["ecm"] + extra)
    return dict(plan, guided=True)


def may_fire(v: Unit, status) -> bool:
    """Vehicles fire while suppressed (RN-140); not completely concealed; broken only from cover."""
    return not (v.complete_concealment or (v.confidence == BROKEN and not status.in_cover))


def _slaved(game, v: Unit, t: Unit) -> list:
    """The ready slaved weapons at ``t``: direct fire and guided (a guided weapon is a heavy weapon, L1262, and
    slaved weapons fire together "even if they are heavy weapons", L1482, RN-870)."""
    return [k for k, w in enumerate(weapons(v)) if w.slaved and w.category in FIRED
            and weapon_plan(game, v, t, k) is not None]


def _options(game, v: Unit, status) -> list:
    p = v.profile.vehicle
    if p is None or not p.weapons or not may_fire(v, status):
        return []
    out = []
    pairs = v.kind in ("mech", "creature")
    ws = weapons(v)
    n = len(ws)
    for t in game.enemy_units(v.side):
        if t.location == "routed_off":  # (the routed_off flag, read once)
            continue
        memo: dict = {}
        ready = [k for k in range(n) if weapon_plan(game, v, t, k, memo=memo) is not None]
        if not ready:
            continue
        out.extend(("fire_vehicle", t.uid, k) for k in ready)
        direct = [k for k in ready if ws[k].category in DIRECT]
        if sum(1 for k in ready if ws[k].slaved) >= 2:
            out.append(("fire_slaved", t.uid))
        if pairs:
            out.extend(("fire_pair", t.uid, i) for i, (a, b) in enumerate(PAIRS) if a in direct and b in direct)
            if len(direct) >= 3 and game.options["close_combat"] == "house":
                out.append(("fire_all", t.uid))
    return out


def _ready_direct(game, v: Unit, t: Unit) -> list:
    return [k for k, w in enumerate(weapons(v)) if w.category in DIRECT and weapon_plan(game, v, t, k) is not None]


def _fire_one(game, v: Unit, t: Unit, k: int) -> None:
    plan = weapon_plan(game, v, t, k)
    if plan is None:
        return  # the target fell to an earlier shot of the same action
    mark_fired(game, v, k)
    fire_weapon(game, v, t, weapons(v)[k], plan)


def _fire(game, v: Unit, opt) -> None:
    t = game.units[opt[1]]
    if opt[0] == "fire_vehicle":
        ks = [opt[2]]
        plan = weapon_plan(game, v, t, opt[2])
        if plan is not None and plan.get("guided"):  # a missile: the targeted side may intercept it first
            mark_fired(game, v, opt[2])
            return None if game.rules.services["launch"](game, v, t, plan) else False
    elif opt[0] == "fire_slaved":
        ks = _slaved(game, v, t)
        if len(ks) < 2:
            raise IllegalOptionError(f"{opt!r}: slaved weapons fire together, at least two ready")
        return _fire_salvo(game, v, t, ks)
    elif opt[0] == "fire_all":
        ks = _ready_direct(game, v, t)
        if len(ks) < 3 or v.kind not in ("mech", "creature") or game.options["close_combat"] != "house":
            raise IllegalOptionError(f"{opt!r}: only a mech with three or more ready weapons, house rules")
    else:
        ks = list(PAIRS[opt[2]])
    if weapon_plan(game, v, t, ks[0]) is None:
        raise IllegalOptionError(f"{opt!r}: that weapon cannot fire at that target now")
    for k in ks:
        if t.in_play:
            _fire_one(game, v, t, k)


def _fire_salvo(game, v: Unit, t: Unit, ks: list):
    """Slaved weapons at one target as one action, each shot resolved on its own (L1480-1482, RN-138): the direct-fire
    weapons first, then the missiles one after another, each with its own interception decision (RN-870).  The
    missiles are committed together: all count as fired this activation even if the target falls before the last
    one flies."""
    missiles = []
    for k in ks:
        if not t.in_play or game.phase == "over":
            break
        if weapons(v)[k].category == "guided":
            plan = weapon_plan(game, v, t, k)
            if plan is not None:
                mark_fired(game, v, k)
                missiles.append(plan)
        else:
            _fire_one(game, v, t, k)
    if not missiles or not t.in_play or game.phase == "over":
        return None
    return None if game.rules.services["launch"](game, v, t, missiles[0], missiles[1:]) else False


MOVE_FIRE_SHIFT = 1  # L1474: moving and shooting in the same action, the target die up one


def _move_fire_options(game, v: Unit, status) -> list:
    """L1474, RN-858: ``("move_fire", target, k)`` for a ready direct-fire weapon with superior stabilisation."""
    p = v.profile.vehicle
    if p is None or not p.weapons or not may_fire(v, status) or v.veh.hull >= 0 or v.veh.immobilised:
        return []
    ks = [k for k, w in enumerate(weapons(v)) if w.stabilisation == "superior" and w.category in DIRECT]
    if not ks:
        return []
    return [("move_fire", t.uid, k) for t in game.enemy_units(v.side) if t.location != "routed_off" for k in ks
            if weapon_plan(game, v, t, k, shift=MOVE_FIRE_SHIFT) is not None]


def _move_fire(game, v: Unit, opt):
    """The shot at +1, then the move of the same action (decision ``move_fire``: a move option or ``("halt",)``)."""
    t, k = game.units[opt[1]], opt[2]
    plan = weapon_plan(game, v, t, k, shift=MOVE_FIRE_SHIFT)
    if plan is None or weapons(v)[k].stabilisation != "superior" or weapons(v)[k].category not in DIRECT:
        raise IllegalOptionError(f"{opt!r}: that weapon cannot move and fire now")
    mark_fired(game, v, k)
    fire_weapon(game, v, t, weapons(v)[k], plan)
    if not v.in_play or game.phase == "over":
        return None
    push(game, Frame("move_fire", v.uid, 0, False, {"unit": v.uid}))
    return False  # the frame counts the action when it is popped


class MoveFireMove:
    """The move half of a move-and-fire action (RN-858): any of the vehicle's Move Action options, or halt."""

    def options(self, game, v: Unit) -> tuple:
        game.memo = {}
        try:
            moves = tuple(o for o in action_options(game, v) if o[0] == "move")
        finally:
            game.memo = None
        return moves + (("halt",),)

    def decision(self, game, frame):
        v = game.units[frame.data["unit"]]
        return Decision(v.side, "move_fire", v.uid, self.options(game, v))

    def apply(self, game, frame, opt):
        v = game.units[frame.data["unit"]]
        if opt not in self.options(game, v):
            raise IllegalOptionError(f"{opt!r}: a move of the vehicle or halt")
        if opt[0] == "move" and game.rules.actions["move"](game, v, opt) is False:
            return  # the move's walk resumes this frame when it ends
        pop(game, frame)  # the activation counts the action

    @staticmethod
    def resume(game, frame, popped) -> None:
        pop(game, frame)


def _on_activation(game, u: Unit) -> None:
    st = game.components.get(FiredState)
    st = st.vehicle_fired if st is not None else None
    if st and str(u.uid) in st:
        del st[str(u.uid)]


FAMILIES = (Family("fire_vehicle", ("enemy", tuple(range(WEAPON_SLOTS))), 80,
                   "a vehicle fires the k-th weapon of its design at an enemy unit (one weapon per action)"),
            Family("fire_slaved", ("enemy",), 81, "a vehicle fires all its slaved weapons at one target"),
            Family("fire_pair", ("enemy", tuple(range(len(PAIRS)))), 82, "a mech or monster fires two weapons at one target"),
            Family("fire_all", ("enemy",), 87, "seed 003 Multiple Weapons: a mech or monster fires all its ready "
                   "weapons at one target"),
            Family("move_fire", ("enemy", tuple(range(WEAPON_SLOTS))), 89, "superior stabilisation: a vehicle fires "
                   "its k-th weapon at +1 and moves in the same action"))

RULE = Rule(
    "Fire by Vehicles", 'seed 000 "ARMOURED DUSTUP › Fire by Vehicles" (Weapon Stabilisation, Multiple Weapons, '
    'Mechs and Monsters), "Suppression and Vehicles" (fire), "Vehicle Damage" (engaging)',
    applies=has_vehicles,
    families=FAMILIES,
    action_options=(_options, _move_fire_options),
    actions={"fire_vehicle": _fire, "fire_slaved": _fire, "fire_pair": _fire, "fire_all": _fire,
             "move_fire": _move_fire},
    procedures={"move_fire": MoveFireMove()},
    on_activation=(_on_activation,),
    services={"fired_states": fired_states},  # what the vehicles' observation piece reads
)
