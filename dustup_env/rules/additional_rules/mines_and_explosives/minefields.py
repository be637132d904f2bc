"""Minefields and mine clearing (seed 000 "ADDITIONAL RULES › Mines and Explosives › Minefields", "Prop", "Mine
Clearing", "Line Charge", "Multiple Mine Counters", L1926-1964).

**The counters** (L1928): table entities of kind ``minefield`` (:mod:`dustup_env.rules.kernel.table`), each a circle
of radius 3" ("Each counter marks a minefield 6" in diameter"), its ``state`` ``{"type": "ap" | "at" | "mixed" |
"dummy", "lanes": [[x0, y0, x1, y1], ...]}``, placed by the scenario (a side's ``mines``) and known to its owner only
(``known="owner"``) until a unit tests in it, a dummy is entered, or another rule finds it (:func:`found`): then
both sides know it (``table.reveal``, RN-1650).

**Moving through** (the kernel's ``move_step`` point: every change of a unit's position, a walk's every step):

* infantry (L1930): each model rolls the unit's quality die for every 3" or part of its path inside the counter
  (the first roll as it enters, RN-169): hit on 1-3 in an AP field, 1-2 in a mixed one; "Infantry will not set of[f]
  AT mines" (no roll, and the field stays unknown to them, RN-1651); a model hit rolls its armour die against a D10
  (the impact beats it: wounded; more than double: killed, RN-169).  A unit moving in file along a lane of the
  field (its leader within 1" of the lane) rolls a D12 per model per 3" or part instead: 1 detonates a mine (L1948;
  the lane is half speed: a dynamic terrain feature of 2 MP per inch, RN-170);
* a vehicle (L1932) in an AT or mixed field triggers a mine per 3" or part of its path inside: D12 against its
  belly armour; beaten: damaged and immobilised (one damage marker; it stops), more than double: destroyed; its
  occupants roll armour, 3+ unharmed, else an untreated wound (L1934); destroyed: all occupants killed;
* a vehicle with a mine plough or roller (L1954) rolls its quality die ("the driver's") on entering a counter: 1,
  it is hit as above (AT and mixed fields) and the counter stays; anything else removes the counter;
* a dummy counter entered by an enemy unit is revealed and removed (RN-169);
* several counters (L1962): each is tested separately.

Casualties from mines make the unit test its confidence (casualties, a leader casualty) as fire does (RN-1652).

**No prop in a minefield** (L1938): the Prop Action is not offered to a unit whose leader stands in a counter its
side knows to be a minefield (an unknown field cannot forbid it: that would tell the side it is there).

**Clearing** (L1946-1958): ``("clear_lane", ref)`` (an action of an infantry unit within 3" of the edge of a known
AP or mixed field of the enemy): one model splits off as a one-model detachment (the Detach Element Action's; the
parent keeps the leader) and walks through the field at half speed (its movement roll in inches), testing as
above, until it is through or hurt, and stays there, a unit that its parent activates as any detachment; the path
it walked is the lane (RN-170, RN-1653).  Rushing is
moving through.  ``("line_charge", ref)``: a vehicle with a line charge, within 2" of the edge of a known field,
spends both its actions and the counter is removed (L1958).
"""
from __future__ import annotations

import math

from ...armoured_dustup.heavy_weapons import vehicle_impact
from ...armoured_dustup.indicating_damaged_vehicles import (immobilise, passenger_casualties, vehicle_damaged,
                                                             vehicle_destroyed)
from ...kernel import table, terrain
from ...kernel.attack import strike
from ...kernel.data import armoury
from ...kernel.dice import D10, D12, parse_die
from ...kernel.entities import KILLED, OK, Unit
from ...kernel.errors import ScenarioError
from ...kernel.events import Event, LeaderLost, event
from ...kernel.ruleset import Family, ObservationPiece, Rule
from ...kernel.state import Component
from ...kernel.terrain import TerrainKind
from ...morale.confidence_test import confidence_test
from ...unit_actions.detach_element_action import detach, figure_xy, room_for_detachment
from ...unit_actions.move_action import movement_roll

MINEFIELD = "minefield"
CDM = "cdm"
BOOBY_TRAP = "booby_trap"
IED = "ied"
FIELD_TYPES = ("ap", "at", "mixed", "dummy")
COUNTER_TYPES = FIELD_TYPES + (CDM, BOOBY_TRAP, IED)
FIELD_RADIUS = 3.0  # L1928: a counter marks a minefield 6" in diameter
TEST_EVERY = 3.0  # L1930, L1932: every 3" (or part thereof)
INFANTRY_HIT = {"ap": 3, "mixed": 2}  # L1930: hit on 1-3 (AP), 1-2 (mixed); AT: no roll
INFANTRY_IMPACT = D10  # L1930
VEHICLE_IMPACT = D12  # L1932
OCCUPANT_SAFE = 2  # L1934: an occupant must score 3+ (a roll of 2 or less is a wound)
LANE_DIE, LANE_DETONATES = D12, 1  # L1948
LANE_HALF_WIDTH = 1.0  # a unit in file along a lane: its leader within 1" of the lane's line (RN-1653)
LANE_REACH = 3.0  # clear a lane from within 3" of the field's edge
CHARGE_REACH = 2.0  # a line charge from within 2" of the edge ("near the edge", RN-170)
LANE = "mine_lane"
DEVICES = ("plough", "roller", "line_charge")


class MinesState(Component):
    """The mines rules' own state: ``mine_paths`` (uid -> {"<entity>:<figure>[:L]": inches walked inside the
    counter during the unit's current move}), ``line_charges_fired`` (the uids that fired their line charge),
    ``cdm_asked`` (command-detonated mines: [entity, unit, x, y] of the stationary targets its owner declined),
    ``cdms_set`` (uid -> the command-detonated mines the unit has set up)."""

    __slots__ = ("mine_paths", "line_charges_fired", "cdm_asked", "cdms_set")


# ---------------------------------------------------------------------------------------------- events
@event
class MineTest(Event):
    """A model tests in a minefield (a quality roll, or a D12 in a lane): ``hit`` when a mine went off."""
    unit: int
    entity: int
    figure: int
    roll: int
    needed: int  # a roll of this or less sets off a mine
    lane: bool
    hit: bool


@event
class VehicleMine(Event):
    """A mine (or an IED) goes off under a vehicle: impact against its belly armour."""
    unit: int
    entity: int
    impact: str
    impact_roll: int
    armour: str
    armour_roll: int
    result: str  # none | damaged | destroyed


@event
class DummyCounter(Event):
    """An enemy unit entered a dummy counter: it is revealed and removed."""
    unit: int
    entity: int


@event
class CounterRemoved(Event):
    """A counter is taken off the table: ``how`` = plough, roller, line_charge, used (a fired or exploded device),
    disarmed."""
    unit: int
    entity: int
    how: str


@event
class ClearingRoll(Event):
    """A vehicle with a plough or roller rolls its quality die over a counter (1: hit)."""
    unit: int
    entity: int
    roll: int


@event
class LaneCleared(Event):
    """One model of ``unit`` walked through the minefield: the lane from (x0, y0) to (x1, y1); ``complete`` when it
    reached the far side."""
    unit: int
    entity: int
    figure: int
    x0: float
    y0: float
    x1: float
    y1: float
    complete: bool


# ---------------------------------------------------------------------------------------------- scenario data
def has_mines(scenario, options) -> bool:
    """The rules apply to a game whose scenario places a counter or gives a unit a clearing device."""
    return any(side.get("mines") or any("mine_clearing" in u or u.get("cdms") for u in side["units"])
               for side in scenario["sides"])


def _specs(scenario) -> list:
    return [u for side in scenario["sides"] for u in side["units"]]  # uid order: side by side, in order


def device(game, u: Unit) -> str | None:
    """The unit's mine-clearing device (the scenario's ``mine_clearing``: plough, roller, line_charge) or None."""
    specs = _specs(game.scenario)
    return specs[u.uid].get("mine_clearing") if 0 <= u.uid < len(specs) else None


def _set_up(game) -> None:
    """Place every side's counters (the scenario's ``mines``), in order, each known to its owner only."""
    for s, side in enumerate(game.scenario["sides"]):
        for i, m in enumerate(side.get("mines", ())):
            where = f"side {side['name']!r}: mines[{i}]"
            x, y = m["position"]
            if not (0 <= x <= game.battlefield.width and 0 <= y <= game.battlefield.height):
                raise ScenarioError(f"{where}: the counter is off the table at {x:g},{y:g}")
            kind = m["type"]
            if kind in FIELD_TYPES:
                table.add(game, MINEFIELD, x, y, owner=s, shape={"shape": "circle", "r": FIELD_RADIUS},
                          state={"type": kind, "lanes": []})
            elif kind == CDM:
                if "toward" not in m:
                    raise ScenarioError(f"{where}: a command-detonated mine needs 'toward' (a point its 180 degree "
                                        "arc faces)")
                tx, ty = m["toward"]
                d = math.hypot(tx - x, ty - y)
                if d < 1e-9:
                    raise ScenarioError(f"{where}: 'toward' must differ from the mine's position")
                fx, fy = round((tx - x) / d, 6), round((ty - y) / d, 6)
                table.add(game, CDM, x, y, owner=s, shape=arc_shape(fx, fy),
                          state={"fx": fx, "fy": fy, "dummy": bool(m.get("dummy", False))})
            elif kind == BOOBY_TRAP:
                table.add(game, BOOBY_TRAP, x, y, owner=s, state={})
            else:
                try:
                    impact = parse_die(m.get("impact", "d12"))
                except ValueError as e:
                    raise ScenarioError(f"{where}: impact: {e}") from None
                if impact < D12 or impact > D12 + 4:
                    raise ScenarioError(f"{where}: an IED's impact is d12 to d12x5, not {m.get('impact')!r}")
                table.add(game, IED, x, y, owner=s, state={"impact": m.get("impact", "d12").lower(), "marked": False})
    for s, side in enumerate(game.scenario["sides"]):
        for u in side["units"]:
            if "mine_clearing" in u and "design" not in u:
                raise ScenarioError(f"side {side['name']!r}: unit {u['name']!r}: mine_clearing: only a vehicle (a "
                                    "unit with a 'design') carries a plough, roller or line charge")


def arc_shape(fx: float, fy: float, r: float = 6.0) -> dict:
    """A command-detonated mine's field of fire as a polygon (offsets from the mine): the half disc of radius 6"
    facing (fx, fy) (L1970), for drawing it."""
    a0 = math.atan2(fy, fx) - math.pi / 2
    pts = [[0.0, 0.0]] + [[round(r * math.cos(a0 + math.pi * k / 8), 3), round(r * math.sin(a0 + math.pi * k / 8), 3)]
                          for k in range(9)]
    return {"shape": "polygon", "points": pts}


# ---------------------------------------------------------------------------------------------- dice procedures
def blocks(inches: float) -> int:
    """How many tests a path of ``inches`` inside a counter makes: one for every 3" or part thereof."""
    return 0 if inches <= 1e-9 else math.ceil(inches / TEST_EVERY - 1e-9)


def infantry_test(dice, quality: int, kind: str) -> tuple[bool, int]:
    """One model's test in a field of ``kind`` (L1930): the quality roll; hit on 1-3 (AP) or 1-2 (mixed)."""
    r = dice.roll(quality)
    return r <= INFANTRY_HIT[kind], r


def lane_test(dice) -> tuple[bool, int]:
    """One model's test in a cleared lane (L1948): a D12, 1 sets off a mine."""
    r = dice.roll(LANE_DIE)
    return r <= LANE_DETONATES, r


def vehicle_mine(dice, belly: int, impact: int = VEHICLE_IMPACT) -> tuple[str, int, int]:
    """One mine under a vehicle (L1932): the impact against the belly armour, by Firing at Vehicles' opposed roll
    (beats it: damaged (and immobilised); more than double: destroyed; a draw to the vehicle).  (result, i, a)."""
    return vehicle_impact(dice, impact=impact, armour=belly)


def infantry_crossing_hits(dice, quality: int, kind: str, inches: float) -> int:
    """The mines one infantry model sets off crossing ``inches`` of a field of ``kind`` (the odds: the engine's
    own tests, one per 3" or part; an AT field none)."""
    if kind not in INFANTRY_HIT:
        return 0
    return sum(infantry_test(dice, quality, kind)[0] for _ in range(blocks(inches)))


def vehicle_crossing(dice, belly: int, kind: str, inches: float) -> str:
    """What becomes of a vehicle crossing ``inches`` of a field of ``kind`` (the odds): a mine per 3" or part in an
    AT or mixed field until one damages it (immobilised: it stops) or destroys it."""
    if kind not in ("at", "mixed"):
        return "none"
    for _ in range(blocks(inches)):
        res = vehicle_mine(dice, belly)[0]
        if res != "none":
            return res
    return "none"


# ---------------------------------------------------------------------------------------------- consequences
def casualty_consequences(game, u: Unit, casualties: int, leader_hit: bool) -> None:
    """A unit that lost models to a mine or a charge tests its confidence (casualties, a leader casualty) as after
    fire (RN-1652)."""
    if not u.in_play or (not casualties and not leader_hit):
        return
    reasons = ["casualties"] if casualties else []
    newly_lost = leader_hit and not u.leader_lost and u.profile.vehicle is None
    if newly_lost:
        reasons.append("leader_casualty")
        u.leader_lost = True
        game.emit(LeaderLost(u.uid, u.leader))
    if reasons:
        confidence_test(game.dice, u, reasons, more_casualties_than_survivors=casualties > u.n_able(),
                        events=game.events)
    if newly_lost:
        for hook in game.rules.on_leader_lost:
            hook(game, u)


def strike_figure(game, u: Unit, fi: int, impact: int) -> tuple[int, bool]:
    """``impact`` against figure ``fi``'s armour: (1 if it became a casualty, whether it was the leader)."""
    before = u.figures[fi].status
    strike(game, u, fi, impact)
    after = u.figures[fi].status
    return (1 if before == OK and after != OK else 0), (fi == u.leader and before != after and after != OK)


def mine_under_vehicle(game, v: Unit, eid: int, impact: int = VEHICLE_IMPACT) -> str:
    """A mine or IED goes off under vehicle ``v`` (L1932-1934): returns none, damaged or destroyed."""
    from ...armoured_dustup.vehicles import armour_die

    belly = armour_die(v, "belly")
    res, i, a = vehicle_mine(game.dice, belly, impact)
    game.emit(VehicleMine(v.uid, eid, _die(impact), i, _die(belly), a, res))
    before = v.veh.damage
    if res == "destroyed":
        aboard = list(v.veh.passengers)
        vehicle_destroyed(game, v)  # (its passengers bail out, then:)
        for uid in aboard:  # L1934: "If the vehicle was destroyed, all occupants are killed"
            p = game.units[uid]
            for fi, f in enumerate(p.figures):
                if f.status != KILLED:
                    p.set_figure(fi, status=KILLED)
    elif res == "damaged":
        if v.veh.passengers:
            passenger_casualties(game, v, OCCUPANT_SAFE, False)  # each rolls armour: 3+ or an untreated wound
        vehicle_damaged(game, v)
        immobilise(game, v)
        if v.in_play:
            confidence_test(game.dice, v, ["vehicle_damage"], vehicle_damage=before, events=game.events)
    return res


def _die(step: int) -> str:
    from ...kernel.dice import die_name
    return die_name(step)


# ---------------------------------------------------------------------------------------------- finding
def found(game, eid: int) -> None:
    """A counter is found (another rule's spotting, an infantry detection): both sides know it from now on."""
    table.reveal(game, eid)


def field_type(e: dict) -> str:
    return e["state"]["type"]


def known_fields(game, side: int) -> list[dict]:
    """The minefields ``side`` knows of (its own, and the enemy's revealed ones), on the table."""
    return [e for e in table.entities_of(game, MINEFIELD) if e["refs"][side] >= 0]


def inside(e: dict, x: float, y: float, margin: float = 0.0) -> bool:
    dx, dy = x - e["x"], y - e["y"]
    r = FIELD_RADIUS + margin
    return dx * dx + dy * dy <= r * r + 1e-9


# ---------------------------------------------------------------------------------------------- moving through
def move_paths(game, u: Unit) -> dict:
    """``u``'s record of the current move: inches walked inside each counter (and the tests once made)."""
    st = game.state_of(MinesState)
    if st.mine_paths is None:
        st.mine_paths = {}
    return st.mine_paths.setdefault(str(u.uid), {})


def _reset_paths(game, u: Unit, *_args) -> None:
    """A new move (a new activation, or the end of a move) starts every path afresh."""
    st = game.components.get(MinesState)
    if st is not None and st.mine_paths and str(u.uid) in st.mine_paths:
        del st.mine_paths[str(u.uid)]


def on_lane(e: dict, x: float, y: float) -> bool:
    for x0, y0, x1, y1 in e["state"]["lanes"]:
        dx, dy = x1 - x0, y1 - y0
        dd = dx * dx + dy * dy
        t = 0.0 if dd < 1e-12 else max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / dd))
        if math.hypot(x - x0 - t * dx, y - y0 - t * dy) <= LANE_HALF_WIDTH + 1e-9:
            return True
    return False


def aircraft(u: Unit) -> bool:
    v = u.profile.vehicle
    return v is not None and getattr(v, "air", None) is not None


def _step(game, u: Unit, x0: float, y0: float, x1: float, y1: float) -> bool:
    """The ``move_step`` point: ``u`` moved from (x0, y0) to (x1, y1) (its leader's position)."""
    if not u.in_play or u.veh.carrier >= 0 or aircraft(u):
        return False
    mx, my = (x0 + x1) * 0.5, (y0 + y1) * 0.5
    seg = math.hypot(x1 - x0, y1 - y0)
    stop = False
    if u.profile.vehicle is not None:
        for e in table.entities_of(game, MINEFIELD):
            if inside(e, mx, my) and u.in_play:
                stop = _vehicle_in_field(game, u, e, seg) or stop
        return stop or not u.in_play
    reach = 12.0 + FIELD_RADIUS
    near = [e for e in table.entities_of(game, MINEFIELD) if abs(e["x"] - mx) <= reach and abs(e["y"] - my) <= reach]
    if not near:
        return False
    lf = u.figures[u.leader]
    casualties, leader_hit = 0, False
    for e in near:
        if e["removed"]:
            continue
        kind = field_type(e)
        ins = []
        for fi, f in enumerate(u.figures):
            if f.status != KILLED and inside(e, mx - lf.dx + f.dx, my - lf.dy + f.dy):
                ins.append(fi)
        if not ins:
            continue
        if kind == "dummy":
            if e["owner"] != u.side:
                table.reveal(game, e["id"])
                game.emit(DummyCounter(u.uid, e["id"]))
                table.remove(game, e["id"])
            continue
        if kind not in INFANTRY_HIT:
            continue  # L1930: infantry will not set off AT mines
        lane = on_lane(e, mx, my)
        paths = move_paths(game, u)
        for fi in ins:
            if u.figures[fi].status == KILLED:
                continue
            key = f"{e['id']}:{fi}:L" if lane else f"{e['id']}:{fi}"
            before = paths.get(key, 0.0)
            after = before + seg
            paths[key] = round(after, 6)
            for _ in range(blocks(after) - blocks(before)):
                table.reveal(game, e["id"])  # a test shows the field to both sides (RN-1650)
                hit, r = lane_test(game.dice) if lane else infantry_test(game.dice, u.quality, kind)
                game.emit(MineTest(u.uid, e["id"], fi, r, LANE_DETONATES if lane else INFANTRY_HIT[kind], lane, hit))
                if hit:
                    c, lh = strike_figure(game, u, fi, INFANTRY_IMPACT)
                    casualties += c
                    leader_hit = leader_hit or lh
                if u.figures[fi].status == KILLED:
                    break
    if casualties or leader_hit:
        casualty_consequences(game, u, casualties, leader_hit)
    return not u.in_play


def _vehicle_in_field(game, v: Unit, e: dict, seg: float) -> bool:
    kind = field_type(e)
    if kind == "dummy":
        if e["owner"] != v.side:
            table.reveal(game, e["id"])
            game.emit(DummyCounter(v.uid, e["id"]))
            table.remove(game, e["id"])
        return False
    paths = move_paths(game, v)
    dev = device(game, v)
    if dev in ("plough", "roller"):
        key = f"{e['id']}:p"
        if key in paths:
            return False
        paths[key] = 1.0
        table.reveal(game, e["id"])
        r = game.dice.roll(v.quality)  # L1954: the driver's quality die
        game.emit(ClearingRoll(v.uid, e["id"], r))
        if r == 1:
            if kind in ("at", "mixed"):
                return mine_under_vehicle(game, v, e["id"]) != "none"
            return False
        game.emit(CounterRemoved(v.uid, e["id"], dev))
        table.remove(game, e["id"])
        return False
    if kind not in ("at", "mixed"):
        return False  # L1932: vehicles trigger AT and mixed fields only
    key = f"{e['id']}:v"
    before = paths.get(key, 0.0)
    after = before + seg
    paths[key] = round(after, 6)
    for _ in range(blocks(after) - blocks(before)):
        table.reveal(game, e["id"])
        if mine_under_vehicle(game, v, e["id"]) != "none":
            return True  # damaged and immobilised, or destroyed: it stops here
    return False


# ---------------------------------------------------------------------------------------------- prop
def in_known_field(game, u: Unit) -> bool:
    """Whether ``u``'s leader stands in a counter its side knows to be a minefield (not a dummy)."""
    for e in known_fields(game, u.side):
        if field_type(e) != "dummy" and inside(e, u.x, u.y):
            return True
    return False


def _no_prop(game, u: Unit, options):
    """L1938: "It is not possible to prop in a minefield"."""
    if not any(o[0] == "prop" for o in options) or not in_known_field(game, u):
        return options
    return [o for o in options if o[0] != "prop"]


# ---------------------------------------------------------------------------------------------- clearing
def lane_targets(game, u: Unit) -> list[dict]:
    """The enemy AP or mixed fields ``u``'s side knows of whose edge is within 3" of its leader."""
    return [e for e in known_fields(game, u.side)
            if e["owner"] != u.side and field_type(e) in INFANTRY_HIT
            and math.hypot(u.x - e["x"], u.y - e["y"]) <= FIELD_RADIUS + LANE_REACH + 1e-9]


def charge_targets(game, u: Unit) -> list[dict]:
    """The fields (not known dummies) ``u``'s side knows of whose edge is within 2" of ``u`` (near the edge)."""
    return [e for e in known_fields(game, u.side)
            if field_type(e) != "dummy" and math.hypot(u.x - e["x"], u.y - e["y"]) <= FIELD_RADIUS + CHARGE_REACH + 1e-9]


def _options(game, u: Unit, status) -> list:
    if status.suppressed or u.veh.carrier >= 0:
        return []
    out = []
    if u.profile.vehicle is None:
        out += [("clear_lane", e["refs"][u.side]) for e in lane_targets(game, u)
                if lane_walker(game, u, e) is not None]
    elif device(game, u) == "line_charge":
        fired = game.state_of(MinesState).line_charges_fired or []
        frame = game.activation_frame()
        if u.uid not in fired and frame is not None and frame.unit == u.uid and frame.actions_left >= 2:
            out += [("line_charge", e["refs"][u.side]) for e in charge_targets(game, u)]
    return out


def lane_walker(game, u: Unit, e: dict) -> int | None:
    """The figure of ``u`` that would walk a lane into field ``e``: the able model nearest the counter other than the
    leader (it splits off as a detachment: "the parent is always the element that contains the unit leader"), if
    the side has a unit slot for it; a unit of one live model walks itself (-1); otherwise None (RN-1653)."""
    live = [i for i, f in enumerate(u.figures) if f.status != KILLED]
    if live == [u.leader]:
        return -1 if u.figures[u.leader].status == OK else None
    able = [i for i, f in enumerate(u.figures) if f.status == OK and i != u.leader]
    if not able or not room_for_detachment(game, u.side):
        return None
    return min(able, key=lambda i: (math.hypot(figure_xy(u, i)[0] - e["x"], figure_xy(u, i)[1] - e["y"]), i))


def lane_walk(game, u: Unit, e: dict) -> tuple | None:
    """Who clears a lane through ``e`` and where it walks (``lane_walker``'s model; a unit of one model, its
    leader): (figure, fx, fy, ux, uy, t_in, t_out): its position, the direction straight for the counter's centre, and
    the distances along it where it enters and leaves the counter.  None when no model may walk one."""
    fi = lane_walker(game, u, e)
    if fi is None:
        return None
    fi = u.leader if fi == -1 else fi
    fx, fy = figure_xy(u, fi)
    d = math.hypot(e["x"] - fx, e["y"] - fy)
    ux, uy = ((e["x"] - fx) / d, (e["y"] - fy) / d) if d > 1e-9 else (0.0, 1.0 if u.side == 0 else -1.0)
    return fi, fx, fy, ux, uy, max(0.0, d - FIELD_RADIUS), d + FIELD_RADIUS


def lane_inches(t_in: float, t_out: float, reach: float) -> float:
    """How far the clearing model walks inside the counter with ``reach`` inches of movement."""
    return max(0.0, min(t_out, reach) - t_in)


def _clear_lane(game, u: Unit, opt) -> None:
    """L1948: "one model may be moved (as if it was a detachment) into and through the minefield at half speed ...
    until they either reach the end or are wounded": the model splits off as a one-model detachment (the Detach
    Element Action's, ``what="lane"``; a unit of one model walks itself), walks the straight line through the
    counter's centre, its movement roll in inches, testing as it goes, and stays where it stopped; its path is the
    lane (RN-170, RN-1653)."""
    e = table.by_ref(game, u.side, opt[1])
    fi = lane_walker(game, u, e)
    w = u if fi == -1 else detach(game, u, "lane", [fi])
    fx, fy = w.x, w.y
    d = math.hypot(e["x"] - fx, e["y"] - fy)
    ux, uy = ((e["x"] - fx) / d, (e["y"] - fy) / d) if d > 1e-9 else (0.0, 1.0 if u.side == 0 else -1.0)
    t_in, t_out = max(0.0, d - FIELD_RADIUS), d + FIELD_RADIUS
    reach = movement_roll(game, w)  # 2 x the roll in movement points, 2 points an inch: the roll in inches
    inside = lane_inches(t_in, t_out, reach)
    kind = field_type(e)
    table.reveal(game, e["id"])
    walked = inside
    casualties, leader_hit = 0, False
    for b in range(blocks(inside)):
        hit, r = infantry_test(game.dice, w.quality, kind)
        game.emit(MineTest(w.uid, e["id"], w.leader, r, INFANTRY_HIT[kind], False, hit))
        if hit:
            c, lh = strike_figure(game, w, w.leader, INFANTRY_IMPACT)
            casualties += c
            leader_hit = leader_hit or lh
            if w.figures[w.leader].status != OK:  # wounded or killed: the lane ends where the mine went off
                walked = b * TEST_EVERY
                break
    x0, y0 = fx + ux * t_in, fy + uy * t_in
    x1, y1 = fx + ux * (t_in + walked), fy + uy * (t_in + walked)
    complete = walked >= 2 * FIELD_RADIUS - 1e-6 or t_in + walked >= t_out - 1e-6
    game.emit(LaneCleared(w.uid, e["id"], w.leader, round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3),
                          complete))
    stop = min(reach, t_in + walked)  # the model stays where it stopped: through, hurt, or out of movement
    table.place(game, w, round(min(max(fx + ux * stop, 0.0), game.bf.width), 3),
                round(min(max(fy + uy * stop, 0.0), game.bf.height), 3), "clear_lane", point=False)
    game.invalidate()
    if walked > 1e-6:
        e["state"]["lanes"].append([round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3)])
        hw = LANE_HALF_WIDTH
        px, py = -uy * hw, ux * hw
        terrain.add(game, {"kind": LANE, "shape": "polygon", "field": e["id"],
                           "points": [[round(x0 + px, 3), round(y0 + py, 3)], [round(x1 + px, 3), round(y1 + py, 3)],
                                      [round(x1 - px, 3), round(y1 - py, 3)], [round(x0 - px, 3), round(y0 - py, 3)]]})
    casualty_consequences(game, w, casualties, leader_hit)


def _line_charge(game, u: Unit, opt) -> int:
    """L1958: fire and detonate a line charge: both actions; the counter is removed."""
    e = table.by_ref(game, u.side, opt[1])
    st = game.state_of(MinesState)
    st.line_charges_fired = (st.line_charges_fired or []) + [u.uid]
    table.reveal(game, e["id"])
    game.emit(CounterRemoved(u.uid, e["id"], "line_charge"))
    table.remove(game, e["id"])
    _drop_lanes(game, e["id"])
    return 2


def _drop_lanes(game, eid: int) -> None:
    if any(f.get("field") == eid for f in game.terrain):
        terrain.remove(game, lambda f: f.get("kind") == LANE and f.get("field") == eid)


def _legal(game, u: Unit, status, opt) -> bool:
    return opt in _options(game, u, status)


# ---------------------------------------------------------------------------------------------- observation
MINE_FEATURES = ("ap", "at", "mixed", "dummy", "cdm", "booby_trap", "ied", "marked", "lanes", "cdm_fx", "cdm_fy")
MF = len(MINE_FEATURES)


def observe_mines(obs, b, off) -> None:
    """The ``mines`` piece: one row per entity slot (the side's ref, as in ``entities``): the kind of counter the
    side knows it to be (AP, AT, mixed, dummy: its owner's only; command-detonated, booby trap, IED), an IED marked
    by infantry, the number of lanes cleared through it (/ 4), a command-detonated mine's arc direction (mirrored,
    (c + 1) / 2).  Nothing of a counter the side does not know of."""
    from array import array

    n = table.MAX_ENTITIES * MF
    b[off:off + n] = array("f", bytes(4 * n))
    me = obs.side
    for e in obs.game.entities:
        r = e["refs"][me]
        if r < 0 or r >= table.MAX_ENTITIES or e["removed"]:
            continue
        o = off + r * MF
        k, s = e["kind"], e["state"]
        if k == MINEFIELD:
            b[o + FIELD_TYPES.index(s["type"])] = 1.0
            b[o + 8] = min(len(s["lanes"]) / 4.0, 1.0)
        elif k == CDM:
            b[o + 4] = 1.0
            fy = -s["fy"] if obs.flip else s["fy"]
            b[o + 9], b[o + 10] = (s["fx"] + 1.0) / 2.0, (fy + 1.0) / 2.0
            if s.get("dummy"):
                b[o + 3] = 1.0
        elif k == BOOBY_TRAP:
            b[o + 5] = 1.0
        elif k == IED:
            b[o + 6] = 1.0
            b[o + 7] = 1.0 if s.get("marked") else 0.0


MINES_PIECE = ObservationPiece("mines", 22, (table.MAX_ENTITIES, MF), MINE_FEATURES, write=observe_mines,
                               doc=observe_mines.__doc__)

RULE = Rule(
    "Minefields", 'seed 000 "ADDITIONAL RULES › Mines and Explosives › Minefields", "Prop", "Mine Clearing", '
    '"Line Charge", "Multiple Mine Counters"',
    applies=has_mines,
    init=(_set_up,),
    entity_kinds={MINEFIELD: table.EntityKind("a minefield counter (6\" across): AP, AT, mixed or dummy; its "
                                              "owner's secret until found or set off", known="owner")},
    terrain={LANE: TerrainKind(move_cost=2)},
    move_step=(_step,),
    after_move=(_reset_paths,),
    on_activation=(_reset_paths,),
    action_options=(_options,),
    action_filters=(_no_prop,),
    actions={"clear_lane": _clear_lane, "line_charge": _line_charge},
    legality={"clear_lane": _legal, "line_charge": _legal},
    families=(Family("clear_lane", ("entity",), 220, "one model walks a lane through this known enemy minefield"),
              Family("line_charge", ("entity",), 221, "fire a line charge across this known minefield (both "
                                                      "actions)")),
    observation=(MINES_PIECE,),
)
