"""Fire (seed 000 "ADDITIONAL RULES" › "Fire", L1864-1876; its smoke, L1884-1892).

* **Ignition** (L1866): "Flame throwers may be used to deliberately or accidentally set an area alight.  Roll a D6:
  if the area is particularly flamable, it will catch fire on a 3-6; otherwise it will only catch fire on a 6."
  A unit with a flame thrower (its scenario spec's ``flamer``, RN-1607) sets an area alight deliberately with
  ``("ignite", x, y)``: one action, a point of the grid within :data:`FLAME_REACH` of its leader and in its sight
  (RN-1608); accidentally when it shoots: the area of its target's leader is rolled for after the shot (RN-1608).
  Particularly flammable ground is woods, scrub and crops (:data:`FLAMMABLE`, RN-1609).
* **The fire** (L1868): a fire marker at the point (the "centre of the area", RN-1610), burning in a 3" radius: a
  table entity of the kind ``fire`` (public, a circle of radius 3) and a feature of the dynamic terrain of the kind
  ``fire`` (the burning area, for the pictures: it neither blocks nor conceals; its smoke does).  Its smoke
  (L1886): D6 2" clouds in a line downwind from the source (:func:`.smoke.natural_line`).
* **Moving in it** (L1870): every infantry model and soft-skinned vehicle that moves within 3" of the marker rolls
  its armour die against an impact of D4, wounded, killed, damaged or destroyed as by any hit: a ``move_step``
  hook (walks and every other move), once per fire for each model in a move (RN-1611); no suppression or
  confidence test (the text names only the armour roll; a leader hit is a leader lost, RN-1611).
* **End of the turn** (L1872, L1886): a D6 for each fire: 1 it goes out (its smoke with it, RN-1612); 6 it spreads:
  a new fire D6" away in a clockface direction (``kernel.dice.clockface_direction``, RN-028), with its own smoke;
  then, for a fire still burning, the natural smoke table (a D6).  A game holds at most ``table.MAX_ENTITIES``
  entities: a fire that would exceed them does not start (RN-1613).
* **Fighting a fire** (L1874): ``("fight_fire", ref)``, an infantry unit with both actions left whose leader is
  within 4" of the marker (1" of the burning area, RN-1614) uses both actions: a die "based on the number of
  models in the unit (rounded up)": the smallest die with at least as many faces as its able models (D4 to D12);
  4 or more puts the fire out.
* **Incendiary rounds** (L1876, garbled: "place fie markers at each"): the ammunition effect
  ``ammo_effect_incendiary``: a fire at each impact point, no ignition roll (RN-1615).
"""
from __future__ import annotations

import math

from ..kernel import table, terrain
from ..kernel.attack import VEHICLE_FACING, Source, strike
from ..kernel.dice import D4, D6, D8, D10, D12, clockface_direction, die_name
from ..kernel.entities import KILLED, OK, Unit
from ..kernel.events import Event, LeaderLost, event
from ..kernel.measurement import grid_points
from ..kernel.battlefield import observer_of
from ..kernel.ruleset import Family, Rule
from ..kernel.state import Component
from ..kernel.table import EntityKind
from ..kernel.terrain import TerrainKind
from .fire_smoke_observation import FIRE_SMOKE_PIECE
from . import smoke
from .smoke import has_fire

FIRE = "fire"
RADIUS = 3.0  # L1868
FLAME_REACH = 8.0  # RN-1608
FIGHT_REACH = RADIUS + 1.0  # RN-1614
FLAMMABLE = frozenset(("light_woods", "dense_woods", "light_scrub", "cultivated"))  # RN-1609
DIES = (D4, D6, D8, D10, D12)


class FireState(Component):
    """``fire_tested``: ``"uid:fire:figure"`` keys of the models tested against a fire in the move under way
    (RN-1611)."""
    __slots__ = ("fire_tested",)


@event
class IgnitionRolled(Event):
    unit: int  # the flame thrower's unit
    x: float
    y: float
    flammable: bool
    roll: int
    caught: bool


@event
class FireStarted(Event):
    entity: int
    x: float
    y: float
    cause: str  # "flamer", "incendiary", "spread"


@event
class FireBurned(Event):
    unit: int
    entity: int  # the fire
    figure: int  # -1: a vehicle
    result: str


@event
class FireRolled(Event):
    entity: int
    roll: int
    result: str  # "out", "burns", "spreads"


@event
class FireFought(Event):
    unit: int
    entity: int
    die: str
    roll: int
    out: bool


# ---------------------------------------------------------------------------------------------- fires
def fires(game) -> list[dict]:
    """The fire markers on the table (every one is public)."""
    return table.entities_of(game, FIRE) if game.entities else []


def flammable(game, x: float, y: float) -> bool:
    return game.bf.terrain_at(x, y) in FLAMMABLE


def start_fire(game, x: float, y: float, cause: str) -> int | None:
    """A fire marker at (x, y) burning in a 3" radius, and its D6 clouds of smoke downwind (L1868, L1886);
    its id, or None when the table holds no more entities (RN-1613) or the point is off the table."""
    bf = game.battlefield
    if len(game.entities) >= table.MAX_ENTITIES or not (0.0 <= x <= bf.width and 0.0 <= y <= bf.height):
        return None
    x, y = round(float(x), 4), round(float(y), 4)
    eid = table.add(game, FIRE, x, y, shape={"shape": "circle", "r": RADIUS})
    terrain.add(game, {"kind": FIRE, "shape": "circle", "x": x, "y": y, "r": RADIUS, "fire": eid})
    game.emit(FireStarted(eid, x, y, cause))
    n = game.dice.roll(D6)
    laid = smoke.natural_line(game, f"fire:{eid}", x, y, n)
    game.emit(smoke.SmokePlaced(-1, "fire", tuple((c["x"], c["y"], c["r"]) for c in laid)))
    return eid


def put_out(game, eid: int) -> None:
    table.remove(game, eid)
    terrain.remove(game, lambda f: f.get("fire") == eid and f["kind"] == FIRE)
    smoke.remove_source(game, f"fire:{eid}")


def ignite(game, u: Unit, x: float, y: float) -> int | None:
    """The flame thrower's roll (L1866): 3-6 on particularly flammable ground, else 6."""
    fl = flammable(game, x, y)
    roll = game.dice.roll(D6)
    caught = roll >= (3 if fl else 6)
    game.emit(IgnitionRolled(u.uid, round(x, 4), round(y, 4), fl, roll, caught))
    return start_fire(game, x, y, "flamer") if caught else None


# ---------------------------------------------------------------------------------------------- flame throwers
def _flamer(game, u: Unit) -> bool:
    """An infantry unit carrying a flame thrower (RN-1607: vehicles with flame throwers are not modelled)."""
    return u.profile.vehicle is None and smoke.unit_flag(game, u, "flamer")


def _ignite_options(game, u: Unit, status) -> list:
    if status.disorganised or status.suppressed or u.veh.carrier >= 0 or u.location != "table" or not _flamer(game, u):
        return []  # (L922: a suppressed unit does not attack)
    if len(game.entities) >= table.MAX_ENTITIES:
        return []
    bf = game.bf
    obs = observer_of(u)
    out = []
    for px, py in grid_points(bf.width, bf.height):
        if math.hypot(px - u.x, py - u.y) <= FLAME_REACH and bf.sight_for(obs, u.x, u.y, px, py).visible:
            out.append(("ignite", px, py))
    return out


def _ignite(game, u: Unit, opt) -> None:
    ignite(game, u, opt[1], opt[2])


def _after_shot(game, firer: Unit, target: Unit, result, reasons) -> None:
    """A flame thrower's shot may set its target's area alight (L1866 "accidentally", RN-1608)."""
    if firer is not None and _flamer(game, firer) and target.location == "table" and game.phase != "over":
        ignite(game, firer, target.x, target.y)


# ---------------------------------------------------------------------------------------------- burning
def _soft_skinned(u: Unit) -> bool:
    vp = u.profile.vehicle
    return vp is not None and bool(getattr(vp, "soft_skinned", False))


def _step(game, u: Unit, x0, y0, x1, y1) -> bool:
    """L1870: models and soft-skinned vehicles moving within 3" of a fire roll armour against D4 (once per fire
    for each model in a move, RN-1611).  True (the mover stops) when the fire put the unit out of play: a vehicle
    destroyed, a unit with no model left, does not walk on (RN-1920)."""
    if not game.entities or u.veh.carrier >= 0 or u.location != "table":
        return False
    fs = fires(game)
    if not fs:
        return False
    vehicle = u.profile.vehicle is not None
    if vehicle and not _soft_skinned(u):
        return False
    st = game.state_of(FireState)
    tested = st.fire_tested if st.fire_tested is not None else []
    for e in fs:
        if vehicle:
            if math.hypot(x1 - e["x"], y1 - e["y"]) > RADIUS + 1e-9:
                continue
            key = f"{u.uid}:{e['id']}:-1"
            if key in tested:
                continue
            tested.append(key)
            res = game.rules.damage[VEHICLE_FACING](game, u, Source.at_point(e["x"], e["y"], RADIUS, "fire"), D4)
            game.emit(FireBurned(u.uid, e["id"], -1, res))
            if not u.in_play:
                st.fire_tested = tested
                return True
            continue
        lf = u.figures[u.leader]
        bx, by = x1 - lf.dx, y1 - lf.dy
        for fi, f in enumerate(u.figures):
            if f.status == KILLED or math.hypot(bx + f.dx - e["x"], by + f.dy - e["y"]) > RADIUS + 1e-9:
                continue
            key = f"{u.uid}:{e['id']}:{fi}"
            if key in tested:
                continue
            tested.append(key)
            before = f.status
            res = strike(game, u, fi, D4)
            game.emit(FireBurned(u.uid, e["id"], fi, res))
            if fi == u.leader and before == OK and u.figures[fi].status != OK and not u.leader_lost:
                u.leader_lost = True
                game.emit(LeaderLost(u.uid, u.leader))
                for hook in game.rules.on_leader_lost:
                    hook(game, u)
    st.fire_tested = tested
    return not u.in_play


def _moved(game, u: Unit, start=None, withdraw=None) -> None:
    """A move has ended: the next move tests the unit's models again (once per fire for each move, RN-1611)."""
    st = game.components.get(FireState)
    if st is not None and st.fire_tested:
        pre = f"{u.uid}:"
        st.fire_tested = [k for k in st.fire_tested if not k.startswith(pre)]


# ---------------------------------------------------------------------------------------------- end of turn
def _turn_end(game) -> None:
    """L1872 and L1886: for each fire a D6 (1 out, 6 spreads D6" in a clockface direction), then its smoke's D6."""
    st = game.components.get(FireState)
    if st is not None:
        st.fire_tested = None
    for e in fires(game):
        eid = e["id"]
        roll = game.dice.roll(D6)
        if roll == 1:
            game.emit(FireRolled(eid, roll, "out"))
            put_out(game, eid)
            continue
        game.emit(FireRolled(eid, roll, "spreads" if roll == 6 else "burns"))
        if roll == 6:
            dist = game.dice.roll(D6)
            vx, vy = clockface_direction(game.dice)
            start_fire(game, e["x"] + vx * dist, e["y"] + vy * dist, "spread")
        smoke.natural_table(game, f"fire:{eid}", e["x"], e["y"])


# ---------------------------------------------------------------------------------------------- fighting a fire
def fight_die(models: int) -> int:
    """"A die based on the number of models in the unit (rounded up)" (L1874, RN-1614): the smallest die with at
    least as many faces (D4 .. D12)."""
    for d, faces in zip(DIES, (4, 6, 8, 10, 12)):
        if models <= faces:
            return d
    return D12


def _fight_options(game, u: Unit, status) -> list:
    if u.profile.vehicle is not None or u.veh.carrier >= 0 or u.location != "table" or not game.entities:
        return []
    if game.actions_left < 2 or status.disorganised or status.suppressed:
        return []  # (L922: a suppressed unit only defends, reorganises in cover, props, communicates)
    out = []
    for e in fires(game):
        if math.hypot(u.x - e["x"], u.y - e["y"]) <= FIGHT_REACH:
            r = table.ref(e, u.side)
            if r >= 0:
                out.append(("fight_fire", r))
    return out


def _fight(game, u: Unit, opt) -> int:
    e = table.by_ref(game, u.side, opt[1])
    die = fight_die(u.n_able())
    roll = game.dice.roll(die)
    out = roll >= 4
    game.emit(FireFought(u.uid, e["id"], die_name(die), roll, out))
    if out:
        put_out(game, e["id"])
    return 2


# ---------------------------------------------------------------------------------------------- incendiary
def incendiary(game, mission: dict, points, radius: float) -> None:
    """The ammunition effect of incendiary rounds (L1876): a fire marker at each impact point (RN-1615)."""
    for px, py in points:
        start_fire(game, px, py, "incendiary")


RULE = Rule(
    "Fire", 'seed 000 "ADDITIONAL RULES" › "Fire" (L1864-1876)',
    applies=has_fire,
    action_options=(_ignite_options, _fight_options),
    actions={"ignite": _ignite, "fight_fire": _fight},
    after_shot=(_after_shot,),
    move_step=(_step,),
    after_move=(_moved,),
    on_activation=(_moved,),
    turn_end=(_turn_end,),
    terrain={FIRE: TerrainKind()},
    entity_kinds={FIRE: EntityKind("a fire marker burning in a 3\" radius (L1868)")},
    services={"ammo_effect_incendiary": incendiary},
    observation=(FIRE_SMOKE_PIECE,),
    families=(Family("ignite", ("point",), 200, "a flame thrower sets this place alight (D6: 3-6 if flammable, else 6)"),
              Family("fight_fire", ("entity",), 201, "an infantry unit fights this fire with both actions")),
)
