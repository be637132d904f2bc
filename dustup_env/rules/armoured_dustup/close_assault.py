"""Close Assault on vehicles (seed 000 "ARMOURED DUSTUP › Close Assault": "Infantry Assaulting Vehicles", L1510-1532).

An infantry unit that could assault (the Assault Action's own restrictions: ``assault_action.may_assault``) may
assault an enemy vehicle within its assault reach and sight: ``("assault_vehicle", vehicle)``.  "To initiate the
assault, the infantry unit and the vehicle make the normal courage test as described on page 16" (L1522): the
assault is the Assault Action's procedure (``assault_action.begin_assault``, RN-900), every stage as against
infantry except where Infantry Assaulting Vehicles says otherwise:

* the vehicle's side may withdraw it instead of taking the courage test (decision ``assault_response``: ``("stand",)``
  or ``("withdraw",)``: one move of the vehicle away, a level lost; the attackers may then occupy or follow), unless it
  cannot move (:func:`may_withdraw`); "the vehicle can't be forced to withdraw and will only do so voluntarily": a
  courage test won by more than double, or against a Broken vehicle, is a move to contact (RN-902, RN-906);
* outnumbering counts the vehicle as its size class in units against one unit (L1524), and an open-topped vehicle one
  more for each unit aboard (L1555) (``assault_action.unit_counts`` through :func:`assault_units`, RN-907);
* a failed courage test is the Assault Action's: the attack does not take place and the attacker loses its first
  action; less than half, both actions and a level if the vehicle is not suppressed (L705-713);
* the move to contact rolls the attacker's movement die (contact within 1" of the vehicle's footprint, RN-901); short
  of it, the vehicle (a support weapon) or its passengers (an open top or fire ports) may give final defensive fire
  (:func:`defensive_fire_options`, :func:`defensive_fire`, L1555, L1561, RN-815, RN-857), whose casualties force the
  attackers' reaction test; then the second move, as against infantry;
* in contact, no close combat: one opposed roll of the impact of their best anti-vehicle grenade, hand grenade or
  close-combat weapon against the armour of the facing they reached it from (the vehicle rules' ``vehicle_fire``:
  damage, destruction, passengers; the vehicle's confidence test), then one move towards the nearest cover without
  losing a level (L1532, RN-142; :func:`vehicle_contact`).

Mechs and monsters (seed 000 close combat) are assaulted as infantry by the Assault Action, not here (L1514,
RN-850); their close-combat hits are :func:`mech_close_combat_hits` (RN-852), a service of the Assault Action.

The passengers of an open-topped vehicle may be the target instead (``("assault_passengers", vehicle)``, L1553-1559,
RN-856): behind cover; forced to withdraw, they close the vehicle down and the attackers may switch to the vehicle;
a failed courage test as the Assault Action's (RN-903).

Crews (L1324 "Vehicle crews are not normally represented, but may be treated as a unit if suitable figures are
available", L1512 "The crew can choose to dismount to fight back as long as the vehicle is not suppressed", RN-141,
RN-881): a scenario unit with ``crew_of`` (a vehicle of its side, not a mech or monster) is that vehicle's crew.  It
starts aboard, a unit aboard in every respect (it moves with the vehicle, is not seen, may dismount in its own
activation) except that it takes no transport places.  When infantry assault the vehicle (``assault_vehicle``) and
the vehicle is not suppressed, its side decides first (decision ``assault_response``: ``("stand",)``, the crew
stays aboard and the assault on the vehicle goes on, or ``("dismount", d)``, on the side facing the attackers):
dismounted, the crew is the defender of the Assault Action as an infantry unit instead of the vehicle.  While its
crew is not aboard the vehicle only ends its activations; the crew takes it back with ``("mount", vehicle)`` (one
action, every figure within 2").

Mechs and monsters give final defensive fire in the Assault Action with their support weapons
(:func:`mech_fire_options`, :func:`mech_defensive_fire`, services of the Assault Action, RN-853).
"""
from __future__ import annotations

import math
from types import SimpleNamespace

from ..kernel.data import armoury
from ..kernel.decisions import Decision, Frame
from ..kernel.attack import FIGURES, VEHICLE, fire_effects, resolve_hits
from ..kernel.dice import die_name, parse_die
from ..kernel.entities import BROKEN, Unit
from ..kernel.errors import IllegalOptionError, ScenarioError
from ..kernel.events import Event, event
from ..kernel.sequence import pop
from ..kernel.ruleset import Family, Rule
from ..kernel.state import Component
from ..kernel.table import place
from ..unit_actions.assault_action import (MECHS, assault_reach, begin_assault, courage_roll, drop_confidence,
                                           fight_pairs, load_courage_table, may_assault, outnumbered, pair_outcome,
                                           occupy, withdraw)
from ..unit_actions.move_action import DIRECTIONS
from ..unit_actions.shoot_action import resolve_fire, shoot_geometry
from .firing_at_vehicles import fire_party, party_plan
from .open_top_and_soft_skinned_vehicles import PASSENGER_MODES, passenger_shift
from .transport import dismount, dismount_positions, vehicle_references, within_reach
from .fire_by_vehicles import weapon_plan, weapons
from .heavy_weapons import HeavyWeaponFired
from .indicating_damaged_vehicles import vehicle_fire
from .vehicle_damage import defending_quality
from .vehicle_movement import footprint, immobile
from .vehicles import HatchesChanged, armoured, has_vehicles, open_topped
from .vehicles import vehicle_state

OUTNUMBER_ROWS = ("outnumbered_2", "outnumbered_3")
CONTACT_GAP = 0.5  # the assaulting leader ends this far outside the vehicle's footprint (RN-814)


@event
class VehicleAssaulted(Event):
    unit: int  # the assaulting (or tank-shocked) infantry unit
    vehicle: int
    attacker_die: str
    attacker_roll: int
    defender_die: str
    defender_roll: int
    result: str  # passengers_withdraw | passengers_contact | repulsed (assault on passengers); through | aside |
    #              attack | withdraw (tank shock)


@event
class CrewDismounted(Event):
    vehicle: int
    crew: int  # the crew unit, now the defender of the assault (L1512)
    attacker: int


def outnumbering_shifts(game, own: int, other: int) -> list:
    """The courage table's outnumbering rows for ``own`` units against ``other`` (the rows of
    ``assault_action.courage_shifts``, with units counted as L1524 / L1538 say)."""
    rows = {r["id"]: r["shift"] for r in load_courage_table(game.options["courage_table"])}
    n = outnumbered(own, other)
    if n == 3 and "outnumbered_3" in rows:
        return [("outnumbered_3", rows["outnumbered_3"])]
    if n in (2, 3) and "outnumbered_2" in rows:
        return [("outnumbered_2", rows["outnumbered_2"])]
    return []


def assault_units(u: Unit) -> int:
    """Units for outnumbering in an assault with a vehicle (L1524, L1538): a vehicle its size class, and an
    open-topped vehicle one more per unit aboard (L1555, "a class 2 vehicle carrying a unit of infantry counts as
    three units"); an infantry unit one."""
    if u.profile.vehicle is None:
        return 1
    return u.profile.vehicle.size + (len(u.veh.passengers) if open_topped(u) else 0)


def vehicle_courage(game, att: Unit, dfn: Unit):
    """The opposed courage test of a tank shock (the Assault Action's test, ``courage_roll``, is the same for an
    infantry assault on a vehicle): the vehicle counts as its size class in units (:func:`assault_units`), the
    infantry unit as one.  Returns (A, D, a_die, d_die)."""
    units = assault_units
    a, d, a_die, d_die, _, _ = courage_roll(game, att, dfn, final=False, skip=OUTNUMBER_ROWS,
                                            extra_att=outnumbering_shifts(game, units(att), units(dfn)),
                                            extra_def=outnumbering_shifts(game, units(dfn), units(att)))
    return a, d, a_die, d_die


def attack_impact(u: Unit) -> int:
    """RN-142: the best impact the unit carries against a vehicle: its figures' grenades (an anti-tank grenade, a
    specialist grenade, hand grenades) or its close-combat impact."""
    weapons = armoury()[0]
    best = u.cc_impact
    if u.grenades:
        best = max(best, weapons["hand_grenade"].impact)
    g = u.profile.specialist_grenade
    if g:
        best = max(best, weapons[g].impact)
    for f in u.figures:
        w = weapons.get(f.weapon)
        if w is not None and w.cls == "grenade":
            best = max(best, w.impact)
    return best


def in_reach(game, u: Unit, v: Unit, reach: float | None = None) -> bool:
    if not v.in_play or v.complete_concealment or v.hidden:
        return False
    reach = assault_reach(u, game) if reach is None else reach
    if math.hypot(v.x - u.x, v.y - u.y) > reach:
        return False
    return game.bf.has_los(u.x, u.y, v.x, v.y)


def _options(game, u: Unit, status) -> list:
    if u.profile.vehicle is not None or u.veh.carrier >= 0 or not may_assault(game, u):
        return []
    reach = assault_reach(u, game)
    out = []
    for v in game.enemy_units(u.side):  # mechs: the Assault Action (RN-850)
        if v.profile.vehicle is not None and not as_infantry(game, v) and in_reach(game, u, v, reach):
            out.append(("assault_vehicle", v.uid))
            if passengers_exposed(v):
                out.append(("assault_passengers", v.uid))
    return out


def passengers_exposed(v: Unit) -> bool:
    """L1553: the passengers of an open-topped vehicle may be declared the target of an assault (RN-856)."""
    return bool(v.veh.passengers) and open_topped(v) and v.veh.hull < 0


def as_infantry(game, v: Unit) -> bool:
    """A mech or monster is assaulted as infantry (the Assault Action, L1514; seed 003 Mechs, RN-854)."""
    return v.kind in MECHS


def contact_point(u: Unit, v: Unit) -> tuple[float, float]:
    """Where the assaulting leader stands at the vehicle: on the line from its start, just outside the footprint."""
    d = math.hypot(u.x - v.x, u.y - v.y)
    if d < 1e-9:
        return v.x, v.y
    r = min(d, footprint(v) + CONTACT_GAP)
    return v.x + (u.x - v.x) / d * r, v.y + (u.y - v.y) / d * r


def infantry_attack(game, u: Unit, v: Unit, x: float, y: float) -> None:
    """One opposed roll of the infantry's best impact against the armour of the facing struck from (x, y)."""
    vehicle_fire(game, v, attack_impact(u), 1, x, y, weapon_class=1)


def move_to(game, u: Unit, x: float, y: float) -> None:
    """``u`` in contact at once (no roll), as a unit occupying a position (the Assault Action's ``occupy``)."""
    occupy(game, u, x, y, "close_assault")


def withdraw_to_cover(game, u: Unit, v: Unit) -> None:
    """L1532: one move towards the nearest cover, no level lost, its suppression kept (RN-142)."""
    markers = u.suppression
    withdraw(game, u, [v], 0, "after_attacking_a_vehicle")
    u.suppression = markers


def defensive_weapon(game, v: Unit, u: Unit):
    """L1561: the vehicle's support weapon (its first APSW) that can fire at ``u`` now: (index, plan) or None.  As a
    reaction, in the attacker's activation: not counting the vehicle's own move (or withdrawal) before it, as a mech's
    (RN-137: "moved" is a move of the same activation; RN-815, RN-853)."""
    moved = v.veh.moved
    vehicle_state(v).moved = False
    try:
        for k, w in enumerate(weapons(v)):
            if w.category == "apsw":
                plan = weapon_plan(game, v, u, k, reaction=True)
                if plan is not None:
                    return k, plan
        return None
    finally:
        vehicle_state(v).moved = moved


def _assault(game, u: Unit, opt):
    v = game.units[opt[1]]
    if (v.profile.vehicle is None or as_infantry(game, v) or u.profile.vehicle is not None or not in_reach(game, u, v)
            or not may_assault(game, u)):
        raise IllegalOptionError(f"{opt!r}: that vehicle cannot be assaulted now")
    if crew_side(game, v, u) is not None:  # L1512: the crew may dismount to fight back first (RN-881)
        game.stack.append(Frame("crew_response", v.uid, 0, False, {"attacker": u.uid, "vehicle": v.uid}))
        return False
    begin_assault(game, [u.uid], [v.uid], via_action=True)  # "the normal courage test" (L1522, RN-900)
    return False  # the Assault Action's procedure counts the actions


def may_withdraw(game, v: Unit) -> bool:
    """L1522 "will only do so voluntarily": an assaulted vehicle may withdraw if it can move on its own (not
    immobilised, carried, towed or a turret; its represented crew aboard), RN-906."""
    return not immobile(v) and not unmanned(game, v)


def vehicle_contact(game, u: Unit, v: Unit) -> None:
    """L1532: infantry in contact with the vehicle make one opposed roll of their best impact against the armour of
    the facing they reached it from, then withdraw one move towards the nearest cover (RN-142)."""
    vehicle_fire(game, v, attack_impact(u), 1, u.x, u.y, weapon_class=1)
    if u.in_play:
        withdraw_to_cover(game, u, v)


def mech_impact(u: Unit, vs_armour: bool) -> int:
    """RN-852: the impact of a mech's or monster's close-combat hits: its best close-combat weapon's (against armour
    or against infantry), else its crew's close-combat impact."""
    best = u.cc_impact
    for w in u.profile.vehicle.weapons:
        if w.category == "close_combat":
            best = max(best, parse_die(w.impact_vs_armour if vs_armour else w.impact_vs_infantry))
    return best


def mech_close_combat_hits(game, striker: Unit, target: Unit, figs, hits: int, cas: dict) -> None:
    """RN-852: close-combat hits in an assault with a mech or monster.  Hits on a mech: one opposed roll each of the
    striker's impact (infantry: :func:`attack_impact`, their best grenade or close-combat impact, RN-142; a mech:
    :func:`mech_impact` against armour) against the armour facing the striker, as fire at a vehicle (damage
    markers, destruction), without the vehicle's own confidence test (the assault's courage test stands for it,
    each new marker counting as a wounded figure).  Hits by a mech on infantry: the attack pipeline with its
    impact against infantry."""
    if target.profile.vehicle is None:
        res = resolve_hits(game, target, hits, mech_impact(striker, False), 0, figs)
        if res.leader_hit:
            cas["leader"] = True
        return
    if not hits or not target.in_play:
        return
    impact = attack_impact(striker) if striker.profile.vehicle is None else mech_impact(striker, True)
    before = target.veh.damage
    vehicle_fire(game, target, impact, hits, striker.x, striker.y, weapon_class=1, test_confidence=False)
    if target.in_play:
        cas["damage"] = cas.get("damage", 0) + max(0, target.veh.damage - before)


def passengers_cover(v: Unit) -> int:
    """L1557 "they count as being behind cover": hard cover in an armoured vehicle, soft in another (RN-144)."""
    return 2 if armoured(v) else 1


def _assault_passengers(game, u: Unit, opt):
    """L1553-1559, RN-856: the assault on the passengers of an open-topped vehicle."""
    v = game.units[opt[1]]
    if (v.profile.vehicle is None or as_infantry(game, v) or u.profile.vehicle is not None or not passengers_exposed(v)
            or not in_reach(game, u, v) or not may_assault(game, u)):
        raise IllegalOptionError(f"{opt!r}: those passengers cannot be assaulted now")
    p = game.units[v.veh.passengers[0]]
    cover = passengers_cover(v)
    rows = {r["id"]: r["shift"] for r in load_courage_table(game.options["courage_table"])}
    row = "hard_cover" if cover == 2 else "soft_cover"
    a, d, a_die, d_die, _, _ = courage_roll(game, u, p, final=False, skip=("soft_cover", "hard_cover"),
                                            extra_def=[(row, rows[row])] if row in rows else [])
    result = "passengers_withdraw" if a > 2 * d else ("passengers_contact" if a > d else "repulsed")
    game.emit(VehicleAssaulted(u.uid, v.uid, die_name(a_die), a, die_name(d_die), d, result))
    if result == "repulsed":  # the attack does not take place (L705-713, RN-903)
        if 2 * a < d:  # less than half: both actions lost, a level too if the defender is not suppressed
            if not p.suppression:
                drop_confidence(game, u, 1, "last minute bout of nerves")
            return game.activation_frame().actions_left  # the activation's actions
        return None  # the first action lost, the second kept
    move_to(game, u, *contact_point(u, v))
    if result == "passengers_withdraw":
        return close_down(game, u, v, p, 1)
    pair = {"a": u.uid, "d": p.uid, "af": u.able(), "df": p.able(), "d_cover": cover}
    fight_pairs(game, [pair])
    loser, levels, _ = pair_outcome(game, pair)
    if loser == "d" and p.in_play and v.in_play:
        return close_down(game, u, v, p, levels)
    if loser == "a" and u.in_play:
        withdraw(game, u, [v], levels, "lost the close combat")
    elif u.in_play:
        withdraw_to_cover(game, u, v)
    return None


def close_down(game, u: Unit, v: Unit, p: Unit, levels: int):
    """L1559: passengers forced to withdraw close the vehicle down instead (a level lost as a withdrawal); the
    attackers may switch their assault to the vehicle (decision ``assault_follow_up``: contact or halt)."""
    drop_confidence(game, p, levels, "passengers close down")
    if v.veh.opened_up:
        vehicle_state(v).opened_up = False
        game.emit(HatchesChanged(v.uid, False))
    if u.in_play and v.in_play:
        game.stack.append(Frame("passengers_assault_switch", u.uid, 0, False, {"attacker": u.uid, "vehicle": v.uid}))
        return False
    return None


class PassengersAssaultSwitch:
    """L1559: after the passengers closed down, the attackers switch to the vehicle (``("contact",)``: the impact
    roll of Infantry Assaulting Vehicles, then back to cover) or stop (``("halt",)``: back to cover)."""

    def decision(self, game, frame):
        u = game.units[frame.data["attacker"]]
        return Decision(u.side, "assault_follow_up", u.uid, (("contact",), ("halt",)))

    def apply(self, game, frame, opt):
        u, v = game.units[frame.data["attacker"]], game.units[frame.data["vehicle"]]
        if opt not in (("contact",), ("halt",)):
            raise IllegalOptionError(f"{opt!r}: switch the assault to the vehicle or halt")
        if opt == ("contact",):
            vehicle_fire(game, v, attack_impact(u), 1, u.x, u.y, weapon_class=1)
        if u.in_play:
            withdraw_to_cover(game, u, v)
        pop(game, frame)  # the activation below counts the assault's action


def passenger_fire_modes(game, v: Unit, u: Unit) -> list:
    """L1555, L1561, RN-857: the fire modes in which the first unit aboard ``v`` may give final defensive fire at
    ``u`` from inside (an open top or fire ports, :func:`passenger_shift`); not "support" (the vehicle's own support
    weapon's option), "suppressive" or grenades.  Allowed even if they already fired (as the Assault Action's)."""
    if not v.veh.passengers:
        return []
    shift = passenger_shift(v)
    p = game.units[v.veh.passengers[0]]
    if shift is None or not p.in_play or p.suppression or p.disorganised() or p.confidence >= BROKEN:
        return []
    geo = shoot_geometry(game, v, u)
    if geo is None:
        return []
    saved = set(p.fired)
    p.fired.clear()
    try:
        return [m for m in PASSENGER_MODES if m not in ("support", "suppressive")
                and party_plan(game, p, u, m, geo, shift) is not None]
    finally:
        p.fired.clear()
        p.fired.update(saved)


def defensive_fire_options(game, v: Unit, u: Unit) -> list:
    """The Assault Action's final defensive fire options of a vehicle defender: a mech or monster its support weapons
    (RN-853); another vehicle its first support weapon that bears (``("fire", "support")``, RN-815) and the modes in
    which its passengers may fire from inside (``("fire", mode)``, L1555, L1561, RN-857)."""
    if v.kind in MECHS:
        return mech_fire_options(game, v, u)
    opts = [("fire", "support")] if defensive_weapon(game, v, u) is not None else []
    return opts + [("fire", m) for m in passenger_fire_modes(game, v, u)]


def defensive_fire(game, v: Unit, u: Unit, mode: str = "support") -> int:
    """Final defensive fire by a vehicle defender at the attacker ``u``, as a reaction (no suppression, no test):
    the casualties (figures of ``u`` no longer able), which the Assault Action's reaction test then counts."""
    if v.kind in MECHS:
        return mech_defensive_fire(game, v, u)
    v.complete_concealment = False
    if mode == "support":
        found = defensive_weapon(game, v, u)
        return reaction_shot(game, v, u, *found) if found is not None else 0
    if mode not in passenger_fire_modes(game, v, u):
        return 0
    p = game.units[v.veh.passengers[0]]  # the passengers fire from inside (RN-857)
    able = u.n_able()
    saved = set(p.fired)
    p.fired.clear()
    plan = party_plan(game, p, u, mode, shoot_geometry(game, v, u), passenger_shift(v))
    fire_party(game, p, u, mode, plan, mode, reaction=True)
    p.fired.clear()
    p.fired.update(saved)
    return max(0, able - u.n_able())


# ---------------------------------------------------------------------------------------------- crews (RN-881)
class CrewState(Component):
    """The rule's state: ``{str(vehicle uid): crew unit uid}``, the vehicles whose crew is a unit of its own."""

    __slots__ = ("crews",)


def _crews(game) -> dict | None:
    st = game.components.get(CrewState)
    return st.crews if st is not None else None


def crew_of(game, v: Unit):
    """The crew unit of vehicle ``v`` (a scenario unit with ``crew_of``), None if its crew is not represented."""
    crews = _crews(game)
    uid = crews.get(str(v.uid)) if crews else None
    return game.units[uid] if uid is not None else None


def crew_uid(game, v: Unit) -> int:
    """Service ``vehicle_crew``: the uid of vehicle ``v``'s crew unit, -1 if its crew is not a unit."""
    crews = _crews(game)
    return crews.get(str(v.uid), -1) if crews else -1


def crew_aboard(game, v: Unit):
    c = crew_of(game, v)
    return c if c is not None and c.veh.carrier == v.uid and c.in_play else None


def crew_side(game, v: Unit, u: Unit):
    """L1512: the side of ``v`` (a direction) on which its crew would dismount to fight ``u``: the one facing ``u``
    that has room, None if the crew cannot (not aboard, the vehicle suppressed, the crew suppressed, disorganised or
    broken)."""
    c = crew_aboard(game, v)
    if c is None or v.suppression > 0 or c.suppression > 0 or c.disorganised() or c.confidence >= BROKEN:
        return None
    ang = math.atan2(u.x - v.x, u.y - v.y)
    best = min(range(DIRECTIONS), key=lambda d: (abs((2 * math.pi * d / DIRECTIONS - ang + math.pi) % (2 * math.pi)
                                                     - math.pi), d))
    for d in sorted(range(DIRECTIONS), key=lambda d: (min((d - best) % DIRECTIONS, (best - d) % DIRECTIONS), d)):
        if dismount_positions(game, v, c, d) is not None:
            return d
    return None


class CrewResponse:
    """L1512, RN-881: the assaulted vehicle's side keeps its crew aboard (``("stand",)``: the assault on the vehicle
    goes on) or dismounts it to fight (``("dismount", d)``: the crew is the defender of the Assault Action)."""

    def decision(self, game, frame):
        v, u = game.units[frame.data["vehicle"]], game.units[frame.data["attacker"]]
        d = crew_side(game, v, u)
        opts = (("stand",),) + ((("dismount", d),) if d is not None else ())
        return Decision(v.side, "assault_response", crew_of(game, v).uid, opts)

    def apply(self, game, frame, opt):
        v, u = game.units[frame.data["vehicle"]], game.units[frame.data["attacker"]]
        d = crew_side(game, v, u)
        if opt != ("stand",) and opt != ("dismount", d):
            raise IllegalOptionError(f"{opt!r}: the crew stays aboard or dismounts to fight")
        game.stack.remove(frame)
        if opt == ("stand",):
            begin_assault(game, [u.uid], [v.uid], via_action=True)  # the assault on the vehicle goes on
            return
        c = crew_of(game, v)
        dismount(game, c, d)
        game.emit(CrewDismounted(v.uid, c.uid, u.uid))
        begin_assault(game, [u.uid], [c.uid], via_action=True)


def unmanned(game, v: Unit) -> bool:
    """A vehicle whose represented crew is not aboard (RN-881)."""
    c = crew_of(game, v)
    return c is not None and c.veh.carrier != v.uid


def _crew_filter(game, u: Unit, opts: list) -> list:
    """RN-881: a vehicle without its crew only ends its activation; a crew next to its vehicle may mount it (one
    action, every figure within 2"), whatever the vehicle's transport places."""
    crews = _crews(game)
    if not crews:
        return opts
    if u.profile.vehicle is not None:
        return [o for o in opts if o[0] == "end"] if unmanned(game, u) else opts  # (forced options stand)
    for vid, cid in crews.items():
        if cid == u.uid:
            v = game.units[int(vid)]
            mount = ("mount", v.uid)
            if (u.veh.carrier < 0 and mount not in opts and v.in_play and v.veh.carrier < 0 and not u.hidden
                    and u.confidence < BROKEN and within_reach(v, u) and not u.disorganised()
                    and (not u.suppression or game.bf.in_cover(u.x, u.y))):
                return opts + [mount]
    return opts


def _crew_init(game) -> None:
    """Units with ``crew_of`` start aboard their vehicle as its crew (checked here: errors name the field)."""
    crews = {}
    for where, spec, u, v in vehicle_references(game, "crew_of", "crew"):
        if v is None or v.profile.vehicle is None or v.kind in MECHS or v.veh.hull >= 0:
            raise ScenarioError(f"{where}: {spec['crew_of']!r} is not a vehicle of the same side (not a mech, "
                                "monster or turret)")
        if str(v.uid) in crews:
            raise ScenarioError(f"{where}: {spec['crew_of']!r} already has a crew")
        if "carried_by" in spec or u.hidden or v.hidden or u.inbound or v.inbound or u.mounted:
            raise ScenarioError(f"{where}: a crew starts aboard (not carried_by, hidden, a reinforcement or mounted)")
        crews[str(v.uid)] = u.uid
        vehicle_state(u).carrier = v.uid
        vehicle_state(v).passengers = [u.uid] + v.veh.passengers
        place(game, u, v.x, v.y, "set_up", point=False)  # the game's set-up: no move
    if crews:
        game.state_of(CrewState).crews = crews


# ---------------------------------------------------------------------------------------------- mechs' fire (RN-853)
MECH_FIRE_WEAPONS = 2  # L1486: a mech or monster fires two weapons at the same target as one action


def mech_support_weapons(game, m: Unit, u: Unit) -> list:
    """L794, L1561: the mech's support weapons (APSW; heavy weapons never) that can fire at ``u`` now, at most two
    (L1486), as a reaction: whether or not they fired in its own activation, and not counting its own move of its
    last activation (RN-137: a move of the same activation)."""
    moved = m.veh.moved
    vehicle_state(m).moved = False
    try:
        out = []
        for k, w in enumerate(weapons(m)):
            if w.category == "apsw":
                plan = weapon_plan(game, m, u, k, reaction=True)
                if plan is not None:
                    out.append((k, plan))
        return out[:MECH_FIRE_WEAPONS]
    finally:
        vehicle_state(m).moved = moved


def mech_fire_options(game, m: Unit, u: Unit) -> list:
    """The Assault Action's final defensive fire options of a mech or monster defender (RN-853)."""
    return [("fire", "support")] if mech_support_weapons(game, m, u) else []


def reaction_shot(game, v: Unit, u: Unit, k: int, plan: dict) -> int:
    """One shot of ``v``'s k-th weapon at ``u`` as final defensive fire (no suppression, no test): the casualties."""
    w = weapons(v)[k]
    res = resolve_fire(game.dice, quality=v.quality, firepower=plan["firepower"], target=plan["target_die"],
                       extra_hits=game.options["extra_hits"])
    game.emit(HeavyWeaponFired(v.uid, u.uid, w.name, die_name(plan["target_die"]), res.target_roll,
                               tuple(die_name(s) for s in [v.quality] + plan["firepower"]),
                               res.firer_rolls, res.successes, res.result, res.hits))
    return fire_effects(game, v, u, res, plan["impact"], kind=VEHICLE if plan["vehicle"] else FIGURES,
                        cover=plan["cover"], reaction=True, weapon_class=w.size, origin=plan["origin"])


def mech_defensive_fire(game, m: Unit, u: Unit) -> int:
    """RN-853: the mech's support weapons (up to two) fire at the attacker, each shot on its own; the casualties."""
    m.complete_concealment = False
    cas = 0
    for k, _ in mech_support_weapons(game, m, u):
        if not u.in_play:
            break
        plan = next((p for kk, p in mech_support_weapons(game, m, u) if kk == k), None)
        if plan is not None:
            cas += reaction_shot(game, m, u, k, plan)
    return cas


RULE = Rule(
    "Close Assault (vehicles)", 'seed 000 "ARMOURED DUSTUP › Close Assault" (Infantry Assaulting Vehicles)',
    applies=has_vehicles,
    families=(Family("assault_vehicle", ("enemy",), 85, "infantry close-assault an enemy vehicle (satchel charges, "
                     "grenades): one impact roll, then back to cover"),
              Family("assault_passengers", ("enemy",), 88, "infantry close-assault the passengers of an open-topped "
                     "enemy vehicle (behind cover; they close down if they lose)")),
    init=(_crew_init,),
    action_options=(_options,),
    action_filters=(_crew_filter,),
    actions={"assault_vehicle": _assault, "assault_passengers": _assault_passengers},
    procedures={"passengers_assault_switch": PassengersAssaultSwitch(), "crew_response": CrewResponse()},
    services={"mech_close_combat_hits": mech_close_combat_hits, "defending_quality": defending_quality,
              "mech_defensive_fire": SimpleNamespace(options=defensive_fire_options, fire=defensive_fire),
              "assault_units": assault_units, "footprint": footprint, "vehicle_crew": crew_uid,
              "vehicle_assault": SimpleNamespace(may_withdraw=may_withdraw, contact=vehicle_contact)},
)
