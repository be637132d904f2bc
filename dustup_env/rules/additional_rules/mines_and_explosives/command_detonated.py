"""Command-detonated mines (seed 000 "ADDITIONAL RULES › Mines and Explosives › Command Detonated Mines",
L1966-1980).

A CDM is a table entity of kind ``cdm`` (its shape the half disc of its field of fire; ``state``: ``fx``, ``fy``, the direction its 180 degree field of
fire faces, and ``dummy``), placed by the scenario and known to its owner only until it fires (L1968: "which could
also be a dummy counter": a dummy never fires, but its owner is asked at it as at a real one, so that the walk's
pause tells the other side nothing, RN-1962).  It is triggered "at any time ... as long as the controlling unit
can see the mine and the unit it will attack", without using that unit's activation (L1972), "at any point in the
movement of another unit" (L1974): a decision of the owner's side (``("cdm_fire",)`` / ``("cdm_hold",)``; at a
dummy only ``("cdm_hold",)``) pushed in the kernel's reaction windows:

* ``move_step``: at a step of an enemy unit's walk that brings more of its models into the field of fire than when
  the owner was last asked during that walk (RN-1654);
* ``activation_end``: an enemy unit ends its activation with models in the field of fire, at a place where the owner
  has not declined it before.

A unit that carries them (the scenario's ``cdms``) sets one up with a reorganise action (``("reorganise",
"set_cdm")``, L1968): at its leader's feet, facing the nearest enemy unit its side knows of.

The controlling unit is the owner's first unit in play that sees both the mine and the target (``game.bf.sight_for``
with its own observer).  Firing (L1976): every model of every unit within 6" and in the arc rolls its armour die
against a D10 (wound, or killed on more than double, RN-171); several mines fired are tested separately; armoured
vehicles are unharmed, a soft-skinned vehicle is hit as a vehicle by the D10 and its occupants need 3+, damaged or
destroyed (L1980, RN-1921).  The
counter is removed (L1978).
"""
from __future__ import annotations

import math

from ...armoured_dustup.indicating_damaged_vehicles import (VehicleHit, passenger_casualties, vehicle_damaged,
                                                             vehicle_destroyed)
from ...kernel import table
from ...kernel.battlefield import observer_of
from ...kernel.decisions import Decision, Frame
from ...kernel.dice import D10
from ...kernel.entities import KILLED, Unit
from ...kernel.events import Event, event
from ...kernel.ruleset import Family, Rule
from ...kernel.sequence import pop, push
from ...morale.confidence_test import confidence_test
from .minefields import (CDM, OCCUPANT_SAFE, CounterRemoved, MinesState, arc_shape, casualty_consequences,
                         strike_figure)

CDM_FRAME = "cdm"
CDM_RANGE = 6.0  # L1970
CDM_IMPACT = D10  # L1976


@event
class CdmFired(Event):
    """A command-detonated mine fires (``controller``: the unit that set it off)."""
    controller: int
    entity: int
    target: int


def _armoured(v: Unit) -> bool:
    from ...armoured_dustup.vehicles import armoured
    return armoured(v)


def in_arc(e: dict, x: float, y: float) -> bool:
    """Within 6" of the mine and in its 180 degree field of fire (L1970)."""
    dx, dy = x - e["x"], y - e["y"]
    if dx * dx + dy * dy > CDM_RANGE * CDM_RANGE + 1e-9:
        return False
    s = e["state"]
    return dx * s["fx"] + dy * s["fy"] >= -1e-9


def struck_figures(e: dict, t: Unit) -> list[int]:
    """The figures of ``t`` in the mine's field of fire (a vehicle: its hull when its centre is, unless armoured)."""
    if not t.in_play or t.veh.carrier >= 0:
        return []
    if t.profile.vehicle is not None:
        if getattr(t.profile.vehicle, "air", None) is not None or _armoured(t):
            return []
        return [t.leader] if in_arc(e, t.x, t.y) else []
    lf = t.figures[t.leader]
    bx, by = t.x - lf.dx, t.y - lf.dy
    return [i for i, f in enumerate(t.figures) if f.status != KILLED and in_arc(e, bx + f.dx, by + f.dy)]


def counters(game, side: int) -> list[dict]:
    """Every command-detonated mine counter of ``side`` on the table, dummies too: the owner is asked at a dummy as
    at a real mine (it may only hold), so the other side cannot tell them apart by its walk pausing (RN-1962)."""
    return [e for e in table.entities_of(game, CDM) if e["owner"] == side]


def controller(game, e: dict, t: Unit) -> Unit | None:
    """The owner's first unit in play that sees the mine and the target (L1972)."""
    bf = game.bf
    for uid in game.side_units[e["owner"]]:
        w = game.units[uid]
        if not w.in_play or w.veh.carrier >= 0:
            continue
        ob = observer_of(w)
        if bf.sight_for(ob, w.x, w.y, e["x"], e["y"]).visible and bf.sight_for(ob, w.x, w.y, t.x, t.y).visible:
            return w
    return None


def _ask(game, e: dict, t: Unit, w: Unit) -> None:
    push(game, Frame(CDM_FRAME, w.uid, 0, False, {"mine": e["id"], "target": t.uid}))


def _mid_move(game, mover: Unit, walk) -> None:
    """The ``move_step`` window: the owner of a mine whose arc the mover's models enter may fire it now."""
    if not mover.in_play:
        return
    mines = counters(game, 1 - mover.side)
    if not mines:
        return
    asked = None
    for e in mines:
        n = len(struck_figures(e, mover))
        if not n:
            continue
        if asked is None:
            asked = walk.data.setdefault("cdm_asked", {})
        if n <= asked.get(str(e["id"]), 0):
            continue
        w = controller(game, e, mover)
        if w is None:
            continue
        asked[str(e["id"])] = n
        _ask(game, e, mover, w)


def _at_activation_end(game, u: Unit) -> None:
    """The ``activation_end`` window: an enemy unit standing in a mine's arc at the end of its activation."""
    if not u.in_play:
        return
    st = game.state_of(MinesState)
    for e in counters(game, 1 - u.side):
        if not struck_figures(e, u):
            continue
        key = [e["id"], u.uid, round(u.x, 2), round(u.y, 2)]
        if st.cdm_asked and key in st.cdm_asked:
            continue
        w = controller(game, e, u)
        if w is None:
            continue
        st.cdm_asked = (st.cdm_asked or []) + [key]
        _ask(game, e, u, w)


def detonate(game, e: dict, w: Unit, target: Unit) -> None:
    """Fire mine ``e`` (L1976-1980): every unit's models in the arc test their armour against a D10."""
    table.reveal(game, e["id"])
    game.emit(CdmFired(w.uid, e["id"], target.uid))
    for t in game.units:
        figs = struck_figures(e, t)
        if not figs:
            continue
        if t.profile.vehicle is not None:
            _soft_skin_hit(game, t, e)
            continue
        casualties, leader_hit = 0, False
        for fi in figs:
            c, lh = strike_figure(game, t, fi, CDM_IMPACT)
            casualties += c
            leader_hit = leader_hit or lh
        casualty_consequences(game, t, casualties, leader_hit)
    game.emit(CounterRemoved(w.uid, e["id"], "used"))
    table.remove(game, e["id"])


def _soft_skin_hit(game, v: Unit, e: dict) -> str:
    """L1980: "They can damage soft skinned vehicles as for infantry. Occupants of the vehicle must also score 3+ on
    their armour die or also suffer a wound": one D10 hit on the facing towards the mine (Firing at Vehicles' opposed
    roll: beaten, damaged; more than double, destroyed), and, whether the vehicle is damaged or destroyed, each
    occupant needs 3+ (not the doubled weapon class of L1443 for a destroyed vehicle, RN-1921)."""
    from ...armoured_dustup.vehicles import armour_die, armour_facing

    before = v.veh.damage
    facing = armour_facing(v, e["x"], e["y"])
    a, b = game.dice.roll(CDM_IMPACT), game.dice.roll(armour_die(v, facing))
    result = "destroyed" if a > 2 * b else ("damaged" if a > b else "none")
    game.emit(VehicleHit(v.uid, facing, a, b, result))
    if result == "none":
        return result
    if v.veh.passengers:
        passenger_casualties(game, v, OCCUPANT_SAFE, False)
    if result == "destroyed":
        vehicle_destroyed(game, v)
    else:
        vehicle_damaged(game, v)
        confidence_test(game.dice, v, ["vehicle_damage"], vehicle_damage=before, events=game.events)
    return result


class CommandDetonation:
    """Frame ``cdm``: the mine's owner (through ``unit``, the controlling unit) fires it at ``target`` or holds (a
    dummy counter: holds, its only option; L1968 "a dummy counter", RN-1962)."""

    @staticmethod
    def decision(game, frame) -> Decision:
        w = game.units[frame.unit]
        dummy = game.entities[frame.data["mine"]]["state"].get("dummy")
        opts = (("cdm_hold",),) if dummy else (("cdm_fire",), ("cdm_hold",))
        return Decision(w.side, "cdm", w.uid, opts, entity=frame.data["mine"])

    @staticmethod
    def apply(game, frame, opt) -> None:
        e = game.entities[frame.data["mine"]]
        t = game.units[frame.data["target"]]
        if opt[0] == "cdm_fire" and not e["removed"] and not e["state"].get("dummy") and struck_figures(e, t):
            detonate(game, e, game.units[frame.unit], t)
        pop(game, frame, used=0)

    @staticmethod
    def resume(game, frame, popped) -> None:
        """Another mine asked at the same moment was answered above this one: this one's decision is next."""


def applies(scenario, options) -> bool:
    return any(m["type"] == CDM for side in scenario["sides"] for m in side.get("mines", ())) or \
        any(u.get("cdms") for side in scenario["sides"] for u in side["units"])


# ---------------------------------------------------------------------------------------------- setting one up
def _carried(game, u: Unit) -> int:
    specs = [s for side in game.scenario["sides"] for s in side["units"]]  # uid order
    return int(specs[u.uid].get("cdms", 0)) if 0 <= u.uid < len(specs) else 0


def cdms_left(game, u: Unit) -> int:
    """The command-detonated mines ``u`` still carries (the scenario's ``cdms``, less those it set up)."""
    n = _carried(game, u)
    if not n:
        return 0
    st = game.components.get(MinesState)
    return n - ((st.cdms_set or {}).get(str(u.uid), 0) if st is not None else 0)


def _set_options(game, u: Unit, status) -> list:
    if u.profile.vehicle is not None or u.veh.carrier >= 0 or status.suppressed or not cdms_left(game, u):
        return []
    return [("reorganise", "set_cdm")]


def _set_cdm(game, u: Unit) -> None:
    """L1968: "They may be emplaced ... during the game and require one reorganise action to set up": at the
    leader's feet, its arc facing the nearest enemy unit the side knows of (none: away from its home edge,
    RN-1656); its owner's secret."""
    enemies = list(game.enemy_units(u.side))
    if enemies:
        t = min(enemies, key=lambda e: (math.hypot(e.x - u.x, e.y - u.y), e.uid))
        fx, fy = t.x - u.x, t.y - u.y
    else:
        hx, hy = game.home_point(u)
        fx, fy = u.x - hx, u.y - hy
    d = math.hypot(fx, fy)
    fx, fy = (fx / d, fy / d) if d > 1e-9 else (0.0, 1.0 if u.side == 0 else -1.0)
    st = game.state_of(MinesState)
    st.cdms_set = dict(st.cdms_set or {})
    st.cdms_set[str(u.uid)] = st.cdms_set.get(str(u.uid), 0) + 1
    fx, fy = round(fx, 6), round(fy, 6)
    eid = table.add(game, CDM, u.x, u.y, owner=u.side, shape=arc_shape(fx, fy), state={"fx": fx, "fy": fy, "dummy": False})
    game.emit(CdmSet(u.side, u.uid, eid))


@event
class CdmSet(Event):
    """A unit sets up a command-detonated mine (its side's alone: ``only``)."""
    only: int
    unit: int
    entity: int


RULE = Rule(
    "Command Detonated Mines", 'seed 000 "ADDITIONAL RULES › Mines and Explosives › Command Detonated Mines"',
    applies=applies,
    entity_kinds={CDM: table.EntityKind("a command-detonated mine (a 180 degree arc, 6\"), or a dummy counter; its "
                                        "owner's secret until it fires", known="owner")},
    reactions={"move_step": _mid_move, "activation_end": _at_activation_end},
    procedures={CDM_FRAME: CommandDetonation()},
    action_options=(_set_options,),
    reorganise={"set_cdm": _set_cdm},
    families=(Family("cdm_fire", (), 222, "fire a command-detonated mine at the enemy in its arc (a reaction)"),
              Family("cdm_hold", (), 223, "hold a command-detonated mine (a reaction)"),
              Family("reorganise", (("set_cdm",),), 224, "set up a command-detonated mine (a reorganise action)")),
)
