"""Drones (seed 000 "Additional Rules › Drones", L2064-2076).

* **Large drones** (L2068): "weapon strikes from large drones can be modelled using the fire support rules": a
  large drone is a fire-support asset of the side (scenario ``fire_support``, firer ``air``), requested and resolved
  by the Artillery and Air Support rules (RN-1760); nothing of this module.
* **Small portable drones** (L2072-2076): a unit spec's ``"drone"`` rates the sensors of the drones the unit carries
  (``inferior`` D6, ``average`` D8, ``superior`` D10); it carries "enough for the whole battle".  A drone in flight
  is a table entity of kind ``drone`` (known to its owner only, RN-1761), one per operating unit, placed when the
  game is built and flying or not (``state.flying``):

  - ``("drone_launch",)``: one action to prepare and launch a drone, at the operator;
  - while it flies, each of the operator's actions is either ``("drone_move", x, y)``: up to 24" in any direction
    (a cell of the point grid within 24" of the drone) or ``("drone_spot", marker)``: a Detect roll at a hidden-unit
    marker from the drone (the range die by the distance from the drone, the operator's quality die and the drone's
    sensor die, RN-175), its line of sight that of an airborne observer (``Observer(airborne=True)``: terrain does
    not stop it, smoke does; special sensors from a D8 sensor up).  Night: a D6 sensor's ranges are divided by 3
    (Night Vision, as for an unaided unit);
  - any other action of the operator crashes the drone (it is lost), a reaction or an interrupt's attack included
    (RN-1941), as does the operator leaving play.
"""
from __future__ import annotations

import math

from ..armoured_dustup.heavy_weapons import unit_specs
from ..kernel import table
from ..kernel.battlefield import observer
from ..kernel.dice import D6, D8, D10, die_name, parse_die
from ..kernel.errors import IllegalOptionError, ScenarioError
from ..kernel.events import Event, event
from ..kernel.measurement import grid_points
from ..kernel.ruleset import Family, Rule
from ..kernel.state import Component
from ..kernel.table import EntityKind
from ..unit_actions.detect_action import range_die
from ..unit_actions.hidden_units import MarkerRemoved, reveal
from .electronic_warfare import EW_PIECE

SENSORS = {"inferior": D6, "average": D8, "superior": D10}  # L2076
DRONE_MOVE = 24.0  # L2074: "up to 24" in any direction per action"
DRONE = "drone"  # the kind of table entity
DRONE_OPTIONS = ("drone_move", "drone_spot", "end")  # what the operator may do without losing its drone
FREE = ("ew_on", "ew_spot")  # Electronic Warfare's options that are no action (RN-174)


class DroneState(Component):
    """The rule's state: each operating unit's drone, by uid: the id of its table entity."""

    __slots__ = ("drones",)


def drone_states(game) -> dict:
    st = game.components.get(DroneState)
    return (st.drones if st is not None else None) or {}


@event
class DroneLaunched(Event):
    only: int  # the owner's side alone reads it
    entity: int
    unit: int


@event
class DroneMoved(Event):
    only: int
    entity: int
    x: float
    y: float


@event
class DroneCrashed(Event):
    only: int
    entity: int
    unit: int
    reason: str  # action | lost


@event
class DroneSpotted(Event):
    unit: int  # the operator
    marker: int
    range_die: str
    target_roll: int
    observer_dice: tuple  # (operator's quality die, drone's sensor die)
    observer_rolls: tuple
    successes: int
    result: str  # none | minor | major


def _init(game) -> None:
    drones = {}
    for uid, spec in unit_specs(game).items():
        v = spec.get("drone")
        if v is None:
            continue
        if v not in SENSORS:
            raise ScenarioError(f"unit {spec.get('name')!r}: drone must be one of {', '.join(SENSORS)}, not {v!r}")
        u = game.units[uid]
        eid = table.add(game, DRONE, u.x, u.y, owner=u.side,
                        state={"operator": uid, "sensor": die_name(SENSORS[v]), "flying": False})
        drones[str(uid)] = eid
    if drones:
        game.state_of(DroneState).drones = drones


def drone_of(game, u) -> dict | None:
    eid = drone_states(game).get(str(u.uid))
    return None if eid is None else game.entities[eid]


def flying(game, u) -> dict | None:
    e = drone_of(game, u)
    return e if e is not None and e["state"]["flying"] else None


def sensor_die(e) -> int:
    return parse_die(e["state"]["sensor"])


def drone_observer(e):
    """The drone as an observer: airborne (L2076), with special sensors from a D8 sensor up (RN-067)."""
    return observer(special_sensors=sensor_die(e) >= D8, airborne=True)


def spot_range(game, e) -> float:
    return 48.0 / 3.0 if game.options["night"] and sensor_die(e) < D8 else 48.0


def _options(game, u, status) -> list:
    e = drone_of(game, u)
    if e is None or status.disorganised or status.suppressed:
        return []
    if not e["state"]["flying"]:
        return [("drone_launch",)]
    out = []
    x, y = e["x"], e["y"]
    bf = game.bf
    for px, py in grid_points(bf.width, bf.height):
        d = math.hypot(px - x, py - y)
        if 0.01 < d <= DRONE_MOVE + 1e-9:
            out.append(("drone_move", px, py))
    reach = spot_range(game, e)
    sight = bf.sight_fn(drone_observer(e))
    for i, m in enumerate(game.markers):
        if m["removed"] or m["side"] == u.side:
            continue
        if math.hypot(m["x"] - x, m["y"] - y) < reach and sight(x, y, m["x"], m["y"]).visible:
            out.append(("drone_spot", i))
    return out


def _launch(game, u, opt) -> None:
    e = drone_of(game, u)
    e["x"], e["y"] = u.x, u.y
    e["state"]["flying"] = True
    game.invalidate()
    game.emit(DroneLaunched(u.side, e["id"], u.uid))


def _move(game, u, opt) -> None:
    e = flying(game, u)
    x, y = float(opt[1]), float(opt[2])
    if e is None or math.hypot(x - e["x"], y - e["y"]) > DRONE_MOVE + 1e-9:  # pragma: no cover - not offered
        raise IllegalOptionError(f"{opt!r}: the drone cannot fly there")
    e["x"], e["y"] = x, y
    game.invalidate()
    game.emit(DroneMoved(u.side, e["id"], round(x, 3), round(y, 3)))


def _spot(game, u, opt) -> None:
    """A Detect roll from the drone (L2074-2076, RN-175): the range die by the distance from the drone, the
    operator's quality die and the drone's sensor die; minor removes a dummy, major reveals a unit."""
    e = flying(game, u)
    i = opt[1]
    m = game.markers[i]
    target = game.units[m["unit"]] if m["unit"] >= 0 else None
    night = bool(game.options["night"]) and sensor_die(e) < D8
    rdie = range_die(math.hypot(m["x"] - e["x"], m["y"] - e["y"]), target.size if target is not None else 1, night)
    if rdie is None:  # pragma: no cover - not offered
        return
    sensor = sensor_die(e)
    dice = game.dice
    tr = dice.roll(rdie)
    q = dice.roll(u.quality)
    s = dice.roll(sensor)
    succ = (q > tr) + (s > tr)
    ew = game.rules.services.get("ew_sensor")  # Electronic Warfare may disrupt the drone's sensor
    if ew is not None and ew(game, u, sensor, s):
        succ = 0
    result = ("none", "minor", "major")[succ]
    game.emit(DroneSpotted(u.uid, i, die_name(rdie), tr, (die_name(u.quality), die_name(sensor)), (q, s), succ,
                           result))
    if succ == 0:
        return
    if target is None:
        m["removed"] = True
        game.emit(MarkerRemoved(i, "dummy"))
    elif succ == 2:
        reveal(game, target, "detected")


def crash(game, u, reason: str) -> None:
    e = flying(game, u)
    if e is None:
        return
    e["state"]["flying"] = False
    game.invalidate()
    game.emit(DroneCrashed(u.side, e["id"], u.uid, reason))


ACTING = ("action", "reaction", "interrupt_fire")  # the decisions in which a unit takes an action: its activation's,
# a reaction ("a single Attack or Move action", S001:129) and an interrupt's attack (S004:397), RN-1941


def _before_apply(game, d, opt) -> None:
    """L2074: "While operating a drone, the unit may take no other actions. If they do, the drone crashes" (an action
    of its activation, a reaction or an interrupt's attack; declining them is no action)."""
    if d.kind not in ACTING or d.unit < 0 or opt[0] in DRONE_OPTIONS or opt[0] in FREE or opt[0] == "decline":
        return
    if str(d.unit) in drone_states(game):
        crash(game, game.units[d.unit], "action")


def _after_apply(game, d, opt) -> None:
    """An operator out of play loses its drone."""
    for k in drone_states(game):
        u = game.units[int(k)]
        if not u.in_play:
            crash(game, u, "lost")


def _applies(scenario: dict, options: dict) -> bool:
    return any("drone" in u for side in scenario["sides"] for u in side["units"])


FAMILIES = (Family("drone_launch", (), 270, "prepare and launch a small drone (one action)"),
            Family("drone_move", ("point",), 271, "fly the unit's drone up to 24\" to a point (one action)"),
            Family("drone_spot", ("marker",), 272, "spot a hidden-unit marker with the drone's sensor (one action)"))

RULE = Rule(
    "Drones", 'seed 000 "Additional Rules › Drones" (Large Drones, Small Portable Drones)',
    applies=_applies, families=FAMILIES, init=(_init,), action_options=(_options,),
    actions={"drone_launch": _launch, "drone_move": _move, "drone_spot": _spot},
    before_apply=(_before_apply,), after_apply=(_after_apply,),
    entity_kinds={DRONE: EntityKind("a small portable drone: its operator's (state: operator, sensor, flying); "
                                    "known to its owner only", known="owner")},
    services={"drone_states": drone_states}, observation=(EW_PIECE,))
