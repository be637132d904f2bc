"""Cargo (seed 000 "Loading and Unoading Passengers and Cargo", L1816-1822, with L1740 and L1754): loaded and
unloaded on the ground, dropped from the air.

"The time taken to load or unload cargo depends on the cargo.  As a guide, one infantry model can load or unload
one man-portable box per action, while a whole squad is required to load or unload larger items." (L1822)

* **Cargo** is a table entity of kind ``cargo`` (public, a point; state ``size``: ``box``, a man-portable box, or
  ``large``, a larger item; ``aboard``: the uid of the vehicle carrying it, or -1 on the table).  The scenario
  places it: the top-level ``cargo`` list (items on the table) and a vehicle's ``cargo`` field (the sizes of the
  items it starts with aboard).
* **Loading and unloading** (RN-1911): the infantry do the work, as one action of their unit:
  ``("load_cargo", vehicle, size)`` loads onto a friendly vehicle that carries cargo (a transport, or a design
  with cargo loads: S002:683) the cargo of that size within 2" of a
  figure of the unit: one box per able model (a unit of n models loads up to n boxes in the action), or one larger
  item, which only a squad (the unit kind ``squad``) moves; ``("unload_cargo", vehicle, size)`` takes it off again,
  placed at the unit.  The unit must be within 2" of the vehicle (every figure, as for mounting, L1411, L1820),
  on the table and not a passenger, neither hidden, broken nor suppressed out of cover (as for mounting).  An
  aircraft must be grounded (L1754: "Once landed it may load or unload cargo or troops"; L1818).
* **Dropped from the air** (L1740: "Aircraft may use actions to ... drop ordnance, cargo and passengers"; RN-1970,
  RN-1971): an aircraft in the air (moving or hovering) drops, as one of its own actions,
  ``("drop_cargo", size)``, every item of that size it carries.  From a hovering aircraft they land directly below
  it (as bombs do, L1782, and as troops are placed at the footprint, L1842); from a moving aircraft each lands D6"
  straight ahead of the aircraft's centre, as a deadfall bomb dropped on the same target (L1778-1780).  An item
  landing off the table is lost (as a unit whose landing zone is off the table, L1852) and one landing in open water
  or a river is lost (L1856: "Models landing in open water are destroyed"); otherwise it lies on the table for the
  infantry to load again.  A grounded aircraft unloads instead (L1754).
* **Carried** cargo moves with its vehicle and is lost with it: a vehicle destroyed destroys what it carries
  (``CargoLost``, RN-1912).  Nothing else in the text gives cargo a use; a scenario's victory conditions may.
"""
from __future__ import annotations

import math

from ..armoured_dustup.transport import within_reach
from ..kernel.dice import D6
from ..kernel.entities import BROKEN, OK, Unit
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel import table
from ..kernel.table import EntityKind, entities_of
from .air import HOVERING, air_state, airborne

CARGO = "cargo"
SIZES = ("box", "large")
REACH = 2.0  # L1818, L1820: within 2" of the vehicle; the cargo within 2" of a figure that carries it (RN-1911)
WATER = frozenset({"open_water", "river"})  # L1856: dropped cargo landing there is lost (RN-1971)


@event
class CargoLoaded(Event):
    unit: int
    vehicle: int
    size: str
    items: int


@event
class CargoUnloaded(Event):
    unit: int
    vehicle: int
    size: str
    items: int


@event
class CargoDropped(Event):
    """An item dropped from an aircraft in the air (L1740): where it landed (``roll``: the D6" ahead of a moving
    aircraft, 0 straight down from a hover) and whether it is lost (``where``: table, off_table or water)."""
    vehicle: int
    size: str
    x: float
    y: float
    roll: int
    where: str


@event
class CargoLost(Event):
    vehicle: int
    items: int


def has_cargo(scenario, options) -> bool:
    return bool(scenario.get("cargo")) or any("cargo" in u for side in scenario["sides"] for u in side["units"])


def aboard(game, v: Unit, size: str | None = None) -> list[dict]:
    """The cargo vehicle ``v`` carries (of ``size``), in id order."""
    return [e for e in entities_of(game, CARGO) if e["state"]["aboard"] == v.uid
            and (size is None or e["state"]["size"] == size)]


def _able(u: Unit) -> int:
    return sum(1 for f in u.figures if f.status == OK)


def capacity(u: Unit, size: str) -> int:
    """Items of ``size`` unit ``u`` moves in one action (L1822): a box per able model; one larger item, a squad."""
    if size == "box":
        return _able(u)
    return 1 if u.profile.kind == "squad" and _able(u) > 0 else 0


def _in_reach(u: Unit, x: float, y: float) -> bool:
    r = REACH + 1e-9
    return any((fx - x) ** 2 + (fy - y) ** 2 <= r * r for fx, fy in u.figure_positions())


def carries_cargo(v: Unit) -> bool:
    """A vehicle that carries cargo: a transport (passenger places) or a design with cargo loads (S002:683)."""
    vp = v.profile.vehicle
    return vp is not None and (vp.transport_figures > 0 or vp.cargo_loads > 0)


def may_hold_cargo(game, v: Unit) -> bool:
    """A vehicle that carries cargo, on the table; an aircraft only grounded (L1754, L1818)."""
    if not carries_cargo(v):
        return False
    if not (v.in_play and not v.hidden and v.veh.hull < 0 and v.veh.carrier < 0):  # (as for mounting)
        return False
    a = air_state(game, v)
    return a is None or a["mode"] == "grounded"


def _worker(u: Unit, status) -> bool:
    return (u.profile.vehicle is None and u.veh.carrier < 0 and not u.hidden and u.confidence < BROKEN
            and (not status.suppressed or status.in_cover))


def _options(game, u: Unit, status) -> list:
    if not _worker(u, status):
        return []
    loose = [e for e in entities_of(game, CARGO) if e["state"]["aboard"] < 0]
    out = []
    for uid in game.side_units[u.side]:
        v = game.units[uid]
        if not may_hold_cargo(game, v) or not within_reach(v, u):
            continue
        for size in SIZES:
            if capacity(u, size) <= 0:
                continue
            if any(e["state"]["size"] == size and _in_reach(u, e["x"], e["y"]) for e in loose):
                out.append(("load_cargo", uid, size))
            if aboard(game, v, size):
                out.append(("unload_cargo", uid, size))
    return out


def _load(game, u: Unit, opt) -> None:
    v, size = game.units[opt[1]], opt[2]
    items = [e for e in entities_of(game, CARGO) if e["state"]["aboard"] < 0 and e["state"]["size"] == size
             and _in_reach(u, e["x"], e["y"])][:capacity(u, size)]
    for e in items:
        e["state"]["aboard"] = v.uid
        e["x"], e["y"] = float(v.x), float(v.y)
    game.invalidate()
    game.emit(CargoLoaded(u.uid, v.uid, size, len(items)))


def _unload(game, u: Unit, opt) -> None:
    v, size = game.units[opt[1]], opt[2]
    items = aboard(game, v, size)[:capacity(u, size)]
    for e in items:
        e["state"]["aboard"] = -1
        e["x"], e["y"] = float(u.x), float(u.y)
    game.invalidate()
    game.emit(CargoUnloaded(u.uid, v.uid, size, len(items)))


def _drop_options(game, v: Unit, status) -> list:
    """An aircraft in the air with cargo aboard drops every item of one size as an action (L1740, RN-1970)."""
    if not airborne(game, v):
        return []
    return [("drop_cargo", size) for size in SIZES if aboard(game, v, size)]


def landing_points(game, v: Unit, n: int) -> list:
    """Where ``n`` items dropped from aircraft ``v`` land (rolling the D6s): straight down from a hover (L1782),
    else each D6" straight ahead of the aircraft's centre (L1778-1780).  [(x, y, roll)]"""
    if air_state(game, v)["mode"] == HOVERING:
        return [(float(v.x), float(v.y), 0)] * n
    h = math.radians(v.veh.facing)
    out = []
    for _ in range(n):
        r = game.dice.roll(D6)
        out.append((v.x + r * math.sin(h), v.y + r * math.cos(h), r))
    return out


def _drop(game, v: Unit, opt) -> None:
    items = aboard(game, v, opt[1])
    for e, (x, y, r) in zip(items, landing_points(game, v, len(items))):
        if not game.bf.on_table(x, y):
            where = "off_table"
        elif game.bf.terrain_at(x, y) in WATER:
            where = "water"
        else:
            where = "table"
        if where == "table":
            e["state"]["aboard"] = -1
            e["x"], e["y"] = float(x), float(y)
        else:
            table.remove(game, e["id"])
        game.emit(CargoDropped(v.uid, opt[1], round(x, 3), round(y, 3), r, where))
    game.invalidate()


def _after_apply(game, decision, option) -> None:
    """Carried cargo follows its vehicle on the table; a destroyed vehicle's cargo is lost (RN-1912)."""
    lost: dict = {}
    changed = False
    for e in entities_of(game, CARGO):
        uid = e["state"]["aboard"]
        if uid < 0:
            continue
        v = game.units[uid]
        if v.destroyed:
            table.remove(game, e["id"])
            lost[uid] = lost.get(uid, 0) + 1
        elif v.location == "table" and (e["x"] != v.x or e["y"] != v.y):
            e["x"], e["y"] = float(v.x), float(v.y)
            changed = True
    if changed:
        game.invalidate()
    for uid, n in lost.items():
        game.emit(CargoLost(uid, n))


def _init(game) -> None:
    bf = game.battlefield
    for i, c in enumerate(game.scenario.get("cargo") or ()):
        x, y = (float(p) for p in c["position"])
        if not (0.0 <= x <= bf.width and 0.0 <= y <= bf.height):
            raise ScenarioError(f"cargo/{i}: position {c['position']} is off the table")
        table.add(game, CARGO, x, y, state={"size": c.get("size", "box"), "aboard": -1})
    for s, side in enumerate(game.scenario["sides"]):
        for i, spec in enumerate(side["units"]):
            if "cargo" not in spec:
                continue
            v = game.units[game.side_units[s][i]]
            if not carries_cargo(v):
                raise ScenarioError(f"sides/{s}/units/{i} ({spec['name']!r}): cargo: only a transport vehicle "
                                    "or one with cargo loads carries cargo")
            for size in spec["cargo"]:
                table.add(game, CARGO, v.x, v.y, state={"size": size, "aboard": v.uid})


RULE = Rule(
    "Aerospace Operations: cargo",
    'seed 000 "Loading and Unoading Passengers and Cargo" (L1816-1822), "Aircraft on the Table" (L1740)',
    applies=has_cargo,
    init=(_init,),
    action_options=(_options, _drop_options),
    actions={"load_cargo": _load, "unload_cargo": _unload, "drop_cargo": _drop},
    after_apply=(_after_apply,),
    entity_kinds={CARGO: EntityKind("cargo: a man-portable box or a larger item, on the table or aboard a vehicle "
                                    "(state: size, aboard)")},
    families=(Family("load_cargo", ("own", SIZES), 280,
                     "load the cargo of this size within 2\" onto this friendly vehicle (a box per model, a larger "
                     "item a squad; one action)"),
              Family("unload_cargo", ("own", SIZES), 281,
                     "unload cargo of this size from this friendly vehicle (a box per model, a larger item a squad; "
                     "one action)"),
              Family("drop_cargo", (SIZES,), 290,
                     "an aircraft in the air drops every cargo item of this size it carries: below it from a hover, "
                     "each D6\" ahead otherwise (one action)")),
)
