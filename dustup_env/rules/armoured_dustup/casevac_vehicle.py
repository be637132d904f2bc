"""The CASEVAC vehicle (seed 000 "Casualty Evacuation": "A more effective method of CASEVAC is to use a vehicle
or VTOL aircraft ...").

* Scenario: a transport vehicle with ``"casevac": true`` starts off the table, its counter in the loiter zone of
  the inbound chart (:class:`CasevacState`; the unit is out of play meanwhile, like a unit carried off).
* ``("call_casevac", vehicle)``: a communication by a unit of its side (the caller's quality die must beat its
  own leadership value, RN-168); on a success the vehicle is placed on the table beside the
  caller, towards the caller's home edge (RN-767), and activates from the next turn.
* ``("transfer", vehicle)``: one reorganise-type action of a unit with wounded figures (untreated or treated) and
  every figure within 2" of the vehicle: its wounded (the leader excepted) go aboard, as many as there is room
  for: half the vehicle's carrying capacity, rounded up.
* ``("depart",)``: the vehicle leaves the table (one action, RN-767).  Each unit that transferred wounded rolls a
  D6: 3+ raises its confidence one level, 6 two; every other friendly unit within 12" rolls a D6 and rises one
  level on 5+, above its starting level if need be.  The wounded it carried off score the game option
  ``casevac_vp`` each.  Its counter goes to zone 1 of the inbound track and moves one zone at each turn's end,
  1 -> 2 -> 3 -> 2 -> 1 -> the loiter zone; back in zone 1 or in the loiter zone it may be called again (RN-768).
"""
from __future__ import annotations

import math

from ..kernel.dice import D6, die_name
from ..kernel.entities import CONFIDENCE_NAMES, TREATED, WOUNDED, Unit
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.state import Component
from ..kernel.table import place
from ..unit_actions.detach_element_action import remove_figures
from .towing import release
from .vehicle_movement import footprint
from .vehicles import bearing
from .vehicles import vehicle_state

KEY = "casevac"  # CasevacState's field: str(uid) -> {"zone": "loiter" | "table" | "track", "trip": index into TRIP,
#                                                  "delivered": int, "aboard": int, "offloaded": [uids]}
TRANSFER_RANGE = 2.0
PLACE_GAP = 0.5  # invented (RN-767): the caller's leader this far from the arriving vehicle's footprint
BOOST_RANGE = 12.0
TRIP = (1, 2, 3, 2, 1, "loiter")  # the counter's zones after leaving the table (one per turn end)
RETURNED = 4  # from zone 1 on the way back it may be called again


@event
class CasevacCalled(Event):
    unit: int  # the caller
    vehicle: int
    die: str  # the caller's quality die
    roll: int
    needed: int  # the caller's leadership: the roll must be higher
    success: bool


@event
class CasevacArrived(Event):
    unit: int
    x: float
    y: float


@event
class WoundedTransferred(Event):
    unit: int
    vehicle: int
    wounded: int


@event
class CasevacDeparted(Event):
    unit: int
    wounded: int  # wounded carried off this trip


@event
class CasevacBoost(Event):
    unit: int
    roll: int
    levels: int
    confidence: str


@event
class CasevacCounterMoved(Event):
    unit: int
    zone: str  # "1", "2", "3" or "loiter"


def _has_casevac(scenario, options) -> bool:
    return any(u.get("casevac") for side in scenario["sides"] for u in side["units"])


class CasevacState(Component):
    """The rule's state: ``{str(uid): {zone, trip, delivered, aboard, offloaded}}``, every CASEVAC vehicle (see
    :data:`KEY`)."""

    __slots__ = ("casevac",)


def _all(game) -> dict:
    st = game.components.get(CasevacState)
    return (st.casevac if st is not None else None) or {}


def _state(game, v: Unit) -> dict | None:
    return _all(game).get(str(v.uid))


def capacity(v: Unit) -> int:
    """Wounded a CASEVAC vehicle carries: half its carrying capacity, rounded up."""
    return math.ceil(v.profile.vehicle.transport_figures / 2)


def _init(game) -> None:
    for s, side in enumerate(game.scenario["sides"]):
        for i, spec in enumerate(side["units"]):
            if not spec.get("casevac"):
                continue
            u = game.units[game.side_units[s][i]]
            where = f"sides/{s}/units/{i} ({spec['name']!r}): casevac"
            p = u.profile.vehicle
            if p is None or p.transport_figures <= 0:
                raise ScenarioError(f"{where}: only a transport vehicle (a design with transport capacity) can be a "
                                    "CASEVAC vehicle")
            if u.hidden or u.inbound or u.veh.hull >= 0 or u.veh.passengers:
                raise ScenarioError(f"{where}: a CASEVAC vehicle starts in the loiter zone: not hidden, not a "
                                    "reinforcement, no turret, no passengers")
            u.location = "evacuated"  # off the table, in the loiter zone
            st = game.state_of(CasevacState)
            if st.casevac is None:
                st.casevac = {}
            st.casevac[str(u.uid)] = {"zone": "loiter", "trip": 0, "delivered": 0,
                                                          "aboard": 0, "offloaded": []}


def _wounded(u: Unit) -> list[int]:
    return [i for i, f in enumerate(u.figures) if (f.status == WOUNDED or f.status == TREATED) and i != u.leader]


def _within(v: Unit, u: Unit) -> bool:
    r = footprint(v) + TRANSFER_RANGE + 1e-9
    return all((x - v.x) ** 2 + (y - v.y) ** 2 <= r * r for x, y in u.figure_positions())


def _options(game, u: Unit, status) -> list:
    if u.profile.vehicle is not None:
        st = _state(game, u)
        return [("depart",)] if st is not None and st["zone"] == "table" else []
    if u.veh.carrier >= 0:
        return []
    out = []
    for key, st in _all(game).items():
        v = game.units[int(key)]
        if v.side != u.side:
            continue
        if st["zone"] == "loiter" or (st["zone"] == "track" and st["trip"] >= RETURNED):
            out.append(("call_casevac", v.uid))
        elif st["zone"] == "table" and v.in_play and (not status.suppressed or status.in_cover) and \
                st["aboard"] < capacity(v) and _wounded(u) and _within(v, u):
            out.append(("transfer", v.uid))
    return out


def _place(game, caller: Unit, v: Unit) -> tuple[float, float]:
    """Beside the caller, towards its home edge: its footprint 0.5" from the middle of the caller's figures (on the
    table, on ground the vehicle can use if possible)."""
    pts = caller.figure_positions()
    cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    hx, hy = game.home_point(caller)
    d = math.hypot(hx - cx, hy - cy)
    gap = footprint(v) + PLACE_GAP
    bf = game.bf
    for k in (1.0, 0.5, 0.0):
        if d > 1e-9:
            x, y = cx + (hx - cx) / d * gap * k, cy + (hy - cy) / d * gap * k
        else:
            x, y = cx, cy
        x, y = min(max(x, 0.0), bf.width), min(max(y, 0.0), bf.height)
        if bf.move_cost(x, y, v.terrain_column) is not None:
            return x, y
    return x, y


def _call(game, u: Unit, opt) -> None:
    """A communication by the caller (RN-168): its quality die must score higher than its own leadership value."""
    v = game.units[opt[1]]
    roll = game.dice.roll(u.quality)
    ok = roll > u.lv
    game.emit(CasevacCalled(u.uid, v.uid, die_name(u.quality), roll, u.lv, ok))
    if not ok:
        return
    st = _state(game, v)
    x, y = _place(game, u, v)
    place(game, v, x, y, "casevac_arrival")
    vehicle_state(v).facing = bearing(x, y, u.x, u.y) if (x, y) != (u.x, u.y) else v.veh.facing
    v.location = "table"
    v.activated = True  # activates from the next turn
    st["zone"], st["aboard"], st["offloaded"] = "table", 0, []
    game.emit(CasevacArrived(v.uid, round(x, 3), round(y, 3)))


def _transfer(game, u: Unit, opt) -> None:
    v = game.units[opt[1]]
    st = _state(game, v)
    idxs = _wounded(u)[:capacity(v) - st["aboard"]]
    for f in remove_figures(u, idxs):
        v.figures.append(f._replace(dx=0.0, dy=0.0))
    st["aboard"] += len(idxs)
    if u.uid not in st["offloaded"]:
        st["offloaded"].append(u.uid)
    game.emit(WoundedTransferred(u.uid, v.uid, len(idxs)))


def _boost(game, u: Unit, levels: int, roll: int) -> None:
    u.confidence = max(0, u.confidence - levels)  # may rise above its starting level (unlike a rally)
    game.emit(CasevacBoost(u.uid, roll, levels, CONFIDENCE_NAMES[u.confidence]))


def _depart(game, v: Unit, opt) -> None:
    st = _state(game, v)
    game.emit(CasevacDeparted(v.uid, st["aboard"]))
    dice = game.dice
    units = game.units
    for uid in st["offloaded"]:
        u = units[uid]
        if u.in_play:
            r = dice.roll(D6)
            _boost(game, u, 2 if r == 6 else (1 if r >= 3 else 0), r)
    for uid in game.side_units[v.side]:
        u = units[uid]
        if uid == v.uid or uid in st["offloaded"] or not u.in_play or u.veh.carrier >= 0:
            continue
        if math.hypot(u.x - v.x, u.y - v.y) <= BOOST_RANGE + 1e-9:
            r = dice.roll(D6)
            _boost(game, u, 1 if r >= 5 else 0, r)
    if v.veh.towed_by >= 0:  # a vehicle pushing or towing it lets go
        release(game, game.units[v.veh.towed_by], "departed")
    st["delivered"] += st["aboard"]
    v.evacuated_wounded = st["delivered"]
    st["zone"], st["trip"], st["aboard"], st["offloaded"] = "track", 0, 0, []
    v.location = "evacuated"  # off the table: its counter in zone 1
    game.emit(CasevacCounterMoved(v.uid, "1"))


def _turn_end(game) -> None:
    for key, st in _all(game).items():
        if st["zone"] != "track":
            continue
        st["trip"] += 1
        z = TRIP[st["trip"]]
        if z == "loiter":
            st["zone"] = "loiter"
        game.emit(CasevacCounterMoved(int(key), str(z)))


def _filter(game, u: Unit, opts: list) -> list:
    """The CASEVAC vehicle takes no passengers (units may approach it to transfer their wounded) and tows nothing."""
    st = _all(game)
    if not st:
        return opts
    if u.profile.vehicle is not None and str(u.uid) in st:
        return [o for o in opts if o[0] not in ("tow", "push")]
    return [o for o in opts if not (o[0] == "mount" and str(o[1]) in st)]  # approaching it is allowed


def _vp(game, vp: list) -> None:
    """The wounded carried off count for the game option ``casevac_vp`` while the vehicle is back on the table too
    (off the table the Casualty Evacuation rule counts them)."""
    per = game.options["casevac_vp"]
    if per:
        for key, st in _all(game).items():
            v = game.units[int(key)]
            if not v.evacuated:
                vp[v.side] += per * st["delivered"]


RULE = Rule(
    "CASEVAC Vehicle", 'seed 000 "Casualty Evacuation" (the CASEVAC vehicle)',
    applies=_has_casevac,
    init=(_init,),
    families=(Family("call_casevac", ("own",), 68, "call this CASEVAC vehicle from the loiter zone (a communication)"),
              Family("transfer", ("own",), 69, "transfer the unit's wounded to this CASEVAC vehicle"),
              Family("depart", (), 70, "the CASEVAC vehicle leaves the table with its wounded")),
    action_options=(_options,),
    action_filters=(_filter,),
    actions={"call_casevac": _call, "transfer": _transfer, "depart": _depart},
    turn_end=(_turn_end,),
    victory_points=(_vp,),
)
