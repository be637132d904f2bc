"""Smoke (seed 000 "ADDITIONAL RULES" › "Smoke", L1878-1904; L669, L673).

Every cloud is a feature of the dynamic terrain (:mod:`..kernel.terrain`) of the kind ``smoke``
(``TerrainKind(smoke=True)``): "Smoke blocks line of sight and prevents detection and observed fire" (L1882),
"unless the observer is equipped with special sensors" (L669), for whom it conceals (L673, RN-067).  The engine
asks ``game.bf.sight_for`` for every line of sight (shooting, detection, hiding, the fire-support observer's
sight of its aim point), so a cloud does all of that where it lies.  A cloud is plain data: ``{"kind": "smoke",
"shape": "circle", "x", "y", "r", "src": ...}``, ``src`` naming what made it (``"fire:<id>"``, ``"unit:<uid>"``,
``"art:<n>"``, ``"gen:<i>"``).

* **Clouds** (L1880): a "2" cotton wool ball": a circle of radius 1"; the 6" clouds of L1896 and L1904 are circles
  of radius 3" (RN-1600).
* **Natural smoke** (L1884-1892): a fire's clouds (:mod:`.fire`) lie in a line downwind from the source; the
  wind is the scenario's ``wind`` (a clockface hour the smoke drifts towards, 12 o'clock towards +y), or a D12
  rolled the first time a game needs it (RN-1601).  At the end of each turn a D6 on the table: 1 all removed, 2
  one removed (the farthest downwind), 3-4 as is, 5-6 one added at the downwind end (:func:`natural_table`).
* **Artificial smoke** (L1896-1898): ``("lay_smoke", dir, dist)``, one action of an infantry unit with smoke
  grenades (its spec's ``smoke_grenades``, or every infantry unit with the game option ``smoke_grenades``,
  RN-1602): a 6" cloud centred 3" or 6" from its leader in one of the 16 directions; ``("discharge_smoke",)``,
  one action of a vehicle fitted with smoke dischargers (``smoke_dischargers``): a 6" cloud 6" to its front.
  Removed the next time the unit is activated.
* **Artillery smoke** (L1900): the ammunition effect ``ammo_effect_smoke`` of the fire-support rules: at each
  impact point a line of 2" clouds as long as the burst's diameter (RN-1603), across the firer's front (parallel
  to its home edge) unless the mission says ``smoke_hour`` (RN-1604).  A new smoke mission at the same aim point
  (within 1") refreshes the line: the old clouds go, the new line is whole.  At the end of each turn a D6 per
  line: 1 all removed, 2-3 half removed (rounded up), 4-6 one removed (:func:`dispersal_table`).
* **Smoke generators** (L1902): the scenario's ``smoke_generators`` (a position, a side, ``turns``: on until the
  end of that turn, RN-1605): a 6" trail of three 2" clouds downwind while on; once off, the dispersal table at
  the end of each turn.
* **Exhaust smoke** (L1904): ``("exhaust_smoke",)``, one action of a vehicle with ``exhaust_smoke``: a cloud
  around the whole vehicle if it has not moved this activation, else a 6" cloud directly behind it; removed as
  soon as the vehicle is activated again (RN-1606).

The rule is in a game whose scenario has smoke-capable content (a unit flag above, smoke fire support, smoke
generators, a wind, a flame thrower or incendiary support: fire makes smoke) or the game option
``smoke_grenades``: every other game, every shipped scenario among them, plays as before.
"""
from __future__ import annotations

import math

from ..kernel import terrain
from ..kernel.dice import D6, D12
from ..kernel.entities import Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.state import Component
from ..kernel.terrain import TerrainKind
from .fire_smoke_observation import FIRE_SMOKE_PIECE

SMOKE = "smoke"
CLOUD_R = 1.0  # a 2" cotton wool ball (L1880)
BIG_R = 3.0  # a 6" cloud (L1896, L1904)
LAY_DISTANCES = (3, 6)  # lay_smoke: the cloud's centre this far from the leader (L1896 "any distance up to 6"")
DIRECTIONS = 16  # the move action's compass (0: north, +y; clockwise)
REFRESH = 1.0  # a smoke mission aimed within this of a line's aim point refreshes it
UNIT_FLAGS = ("smoke_grenades", "smoke_dischargers", "exhaust_smoke")
KINDS = {SMOKE: TerrainKind(smoke=True)}


class SmokeState(Component):
    """``smoke_lines``: artillery lines (``{"n", "side", "x", "y"}``: the aim point, for refreshing);
    ``smoke_gens``: per generator, whether it is still on; ``wind_hour``: the wind (a clockface hour) once known;
    ``smoke_next``: the next artillery line's number; ``exhaust_moved``: vehicles that moved this activation."""
    __slots__ = ("smoke_lines", "smoke_gens", "wind_hour", "smoke_next", "exhaust_moved")
    PUBLIC = ("wind_hour",)


@event
class SmokePlaced(Event):
    unit: int  # -1: artillery or a generator
    source: str  # "grenades", "dischargers", "exhaust", "artillery", "generator", "fire"
    clouds: tuple  # ((x, y, r), ...)


@event
class SmokeDispersed(Event):
    source: str  # the src of the clouds ("fire:3", "art:1", "gen:0")
    roll: int
    removed: int
    added: int


@event
class SmokeLifted(Event):
    unit: int
    clouds: int


@event
class WindRolled(Event):
    hour: int


# ---------------------------------------------------------------------------------------------- geometry
def hour_vector(hour: int) -> tuple[float, float]:
    """The unit vector of ``hour`` o'clock, 12 towards +y, 30 degrees clockwise per hour (RN-028)."""
    a = math.radians(30.0 * (hour % 12))
    return math.sin(a), math.cos(a)


def dir_vector(d: int) -> tuple[float, float]:
    """The unit vector of compass direction ``d`` (0: north, +y; 16 steps clockwise), as the move action's."""
    a = math.radians(22.5 * d)
    return math.sin(a), math.cos(a)


def wind(game) -> tuple[float, float]:
    """The direction smoke drifts: the scenario's ``wind`` hour, else a D12 rolled once (RN-1601)."""
    st = game.state_of(SmokeState)
    if st.wind_hour is None:
        hour = game.scenario.get("wind")
        if hour is None:
            hour = game.dice.roll(D12)
            game.emit(WindRolled(hour))
        st.wind_hour = int(hour)
    return hour_vector(st.wind_hour)


def clouds_of(game, src: str) -> list[dict]:
    return [f for f in game.terrain if f["kind"] == SMOKE and f.get("src") == src]


def add_cloud(game, x: float, y: float, r: float, src: str) -> dict | None:
    """A cloud centred at (x, y) (its centre on the table, else none)."""
    bf = game.battlefield
    if not (0.0 <= x <= bf.width and 0.0 <= y <= bf.height):
        return None
    f = {"kind": SMOKE, "shape": "circle", "x": round(float(x), 4), "y": round(float(y), 4), "r": float(r),
         "src": src}
    terrain.add(game, f)
    return f


def _remove_clouds(game, clouds: list[dict]) -> int:
    ids = {id(c) for c in clouds}
    return terrain.remove(game, lambda f: id(f) in ids)


def remove_source(game, src: str) -> int:
    return terrain.remove(game, lambda f: f["kind"] == SMOKE and f.get("src") == src)


def _tuple(clouds) -> tuple:
    return tuple((c["x"], c["y"], c["r"]) for c in clouds if c is not None)


# ---------------------------------------------------------------------------------------------- natural smoke
def natural_line(game, src: str, x: float, y: float, n: int) -> list[dict]:
    """``n`` 2" clouds in a line downwind starting at the source (L1886): the first centred on it."""
    wx, wy = wind(game)
    out = []
    for i in range(n):
        c = add_cloud(game, x + wx * 2 * CLOUD_R * i, y + wy * 2 * CLOUD_R * i, CLOUD_R, src)
        if c is not None:
            out.append(c)
    return out


def natural_table(game, src: str, x: float, y: float) -> None:
    """The end-of-turn D6 for a fire's smoke (L1888-1892): 1 remove all, 2 remove one (the farthest), 3-4 as is,
    5-6 add one (at the downwind end of the line)."""
    roll = game.dice.roll(D6)
    clouds = clouds_of(game, src)
    removed = added = 0
    if roll == 1:
        removed = _remove_clouds(game, clouds)
    elif roll == 2 and clouds:
        removed = _remove_clouds(game, [_farthest(clouds, x, y)])
    elif roll >= 5:
        wx, wy = wind(game)
        if clouds:
            far = _farthest(clouds, x, y)
            cx, cy = far["x"] + wx * 2 * CLOUD_R, far["y"] + wy * 2 * CLOUD_R
        else:
            cx, cy = x, y
        added = 1 if add_cloud(game, cx, cy, CLOUD_R, src) is not None else 0
    game.emit(SmokeDispersed(src, roll, removed, added))


def _farthest(clouds, x, y) -> dict:
    return max(clouds, key=lambda c: ((c["x"] - x) ** 2 + (c["y"] - y) ** 2))


# ---------------------------------------------------------------------------------------------- dispersal
def dispersal_table(game, src: str) -> None:
    """The end-of-turn D6 for artillery smoke and a generator turned off (L1900, L1902): 1 remove all, 2-3 remove
    half rounded up, 4-6 remove one cloud (the last placed)."""
    clouds = clouds_of(game, src)
    if not clouds:
        return
    roll = game.dice.roll(D6)
    if roll == 1:
        gone = clouds
    elif roll <= 3:
        gone = clouds[len(clouds) - (len(clouds) + 1) // 2:]
    else:
        gone = clouds[-1:]
    game.emit(SmokeDispersed(src, roll, _remove_clouds(game, gone), 0))


# ---------------------------------------------------------------------------------------------- artillery smoke
def artillery_smoke(game, mission: dict, points, radius: float) -> None:
    """The ammunition effect of smoke rounds (L1900): at each impact point a line of 2" clouds as long as the
    burst's diameter (RN-1603), centred on the point, across the firer's front (parallel to its home edge) or
    along the mission's ``smoke_hour`` (RN-1604); a mission at the aim point of a line still standing refreshes
    it (the old clouds removed)."""
    st = game.state_of(SmokeState)
    lines = st.smoke_lines if st.smoke_lines is not None else []
    side, ax, ay = mission["side"], float(mission["x"]), float(mission["y"])
    for ln in list(lines):
        if ln["side"] == side and math.hypot(ln["x"] - ax, ln["y"] - ay) <= REFRESH:
            remove_source(game, f"art:{ln['n']}")
            lines.remove(ln)
    hour = mission.get("smoke_hour")
    if hour is not None:
        vx, vy = hour_vector(int(hour))
    elif game.home_edges[side] in ("south", "north"):
        vx, vy = 1.0, 0.0
    else:
        vx, vy = 0.0, 1.0
    n = max(1, int(round(2 * radius / (2 * CLOUD_R))))
    laid = []
    for px, py in points:
        num = st.smoke_next or 0
        st.smoke_next = num + 1
        src = f"art:{num}"
        for i in range(n):
            off = (i - (n - 1) / 2.0) * 2 * CLOUD_R
            laid.append(add_cloud(game, px + vx * off, py + vy * off, CLOUD_R, src))
        lines.append({"n": num, "side": side, "x": ax, "y": ay})
    st.smoke_lines = lines
    game.emit(SmokePlaced(-1, "artillery", _tuple(laid)))


# ---------------------------------------------------------------------------------------------- who may lay smoke
def unit_flag(game, u: Unit, flag: str) -> bool:
    """The scenario spec's ``flag`` of ``u`` (a detachment: its parent's)."""
    specs = _specs(game)
    while u.uid not in specs and u.parent >= 0:
        u = game.units[u.parent]
    spec = specs.get(u.uid)
    return bool(spec and spec.get(flag))


_SPECS: dict = {}


def _specs(game) -> dict:
    key = id(game.scenario)
    hit = _SPECS.get(key)
    if hit is not None and hit[0] is game.scenario:
        return hit[1]
    specs, uid = {}, 0
    for side in game.scenario["sides"]:
        for spec in side["units"]:
            specs[uid] = spec
            uid += 1
    if len(_SPECS) > 256:
        _SPECS.clear()
    _SPECS[key] = (game.scenario, specs)
    return specs


def _lay_options(game, u: Unit, status) -> list:
    if status.disorganised or u.veh.carrier >= 0 or u.location != "table":
        return []
    out = []
    if u.profile.vehicle is None:
        if status.suppressed:  # L922: suppressed infantry only defend, reorganise in cover, prop, communicate
            return out
        if game.options["smoke_grenades"] or unit_flag(game, u, "smoke_grenades"):
            out.extend(("lay_smoke", d, dist) for d in range(DIRECTIONS) for dist in LAY_DISTANCES)
        return out
    if unit_flag(game, u, "smoke_dischargers"):
        out.append(("discharge_smoke",))
    if unit_flag(game, u, "exhaust_smoke"):
        out.append(("exhaust_smoke",))
    return out


def _lay(game, u: Unit, opt) -> None:
    _, d, dist = opt
    vx, vy = dir_vector(d)
    c = add_cloud(game, u.x + vx * dist, u.y + vy * dist, BIG_R, f"unit:{u.uid}")
    game.emit(SmokePlaced(u.uid, "grenades", _tuple([c])))


def _front(u: Unit) -> tuple[float, float]:
    a = math.radians(u.veh.facing)
    return math.sin(a), math.cos(a)


def _discharge(game, u: Unit, opt) -> None:
    vx, vy = _front(u)
    c = add_cloud(game, u.x + vx * 6.0, u.y + vy * 6.0, BIG_R, f"unit:{u.uid}")
    game.emit(SmokePlaced(u.uid, "dischargers", _tuple([c])))


def _reach(game, u: Unit) -> float:
    fp = game.rules.services.get("footprint")
    return fp(u) if fp is not None else 1.0


def _exhaust(game, u: Unit, opt) -> None:
    st = game.state_of(SmokeState)
    reach = _reach(game, u)
    if u.uid in (st.exhaust_moved or []):
        vx, vy = _front(u)
        c = add_cloud(game, u.x - vx * (reach + BIG_R), u.y - vy * (reach + BIG_R), BIG_R, f"unit:{u.uid}")
    else:
        c = add_cloud(game, u.x, u.y, reach + CLOUD_R, f"unit:{u.uid}")
    game.emit(SmokePlaced(u.uid, "exhaust", _tuple([c])))


def _moved(game, u: Unit, start, withdraw) -> None:
    if u.profile.vehicle is not None and unit_flag(game, u, "exhaust_smoke"):
        st = game.state_of(SmokeState)
        moved = st.exhaust_moved or []
        if u.uid not in moved:
            st.exhaust_moved = moved + [u.uid]


def _activated(game, u: Unit) -> None:
    """L1898, L1904: the unit's smoke goes the next time it is activated."""
    n = remove_source(game, f"unit:{u.uid}")
    if n:
        game.emit(SmokeLifted(u.uid, n))
    st = game.components.get(SmokeState)
    if st is not None and st.exhaust_moved and u.uid in st.exhaust_moved:
        st.exhaust_moved = [i for i in st.exhaust_moved if i != u.uid]


# ---------------------------------------------------------------------------------------------- generators
def _set_up(game) -> None:
    gens = game.scenario.get("smoke_generators") or []
    if not gens:
        return
    st = game.state_of(SmokeState)
    st.smoke_gens = [True] * len(gens)
    for i, g in enumerate(gens):
        x, y = g["position"]
        laid = natural_line(game, f"gen:{i}", x, y, 3)  # a 6" trail of 2" clouds
        game.emit(SmokePlaced(-1, "generator", _tuple(laid)))


def _turn_end(game) -> None:
    st = game.components.get(SmokeState)
    if st is None:
        return
    for ln in list(st.smoke_lines or []):
        src = f"art:{ln['n']}"
        dispersal_table(game, src)
        if not clouds_of(game, src):
            st.smoke_lines = [x for x in st.smoke_lines if x is not ln]
    gens = game.scenario.get("smoke_generators") or []
    for i, g in enumerate(gens):
        if st.smoke_gens and st.smoke_gens[i]:
            if g.get("turns") is not None and game.turn >= max(1, g["turns"]):
                st.smoke_gens = st.smoke_gens[:i] + [False] + st.smoke_gens[i + 1:]
            continue
        dispersal_table(game, f"gen:{i}")


# ---------------------------------------------------------------------------------------------- applies
def has_fire(scenario: dict, options: dict) -> bool:
    """A flame thrower or incendiary fire support (the Fire rule's content)."""
    for side in scenario["sides"]:
        if any(u.get("flamer") for u in side["units"]):
            return True
        if any(fs.get("ammo") == "incendiary" for fs in side.get("fire_support") or ()):
            return True
    return False


def has_smoke(scenario: dict, options: dict) -> bool:
    if options.get("smoke_grenades") or scenario.get("smoke_generators") or "wind" in scenario:
        return True
    for side in scenario["sides"]:
        if any(u.get(f) for u in side["units"] for f in UNIT_FLAGS):
            return True
        if any(fs.get("ammo") == "smoke" for fs in side.get("fire_support") or ()):
            return True
    return has_fire(scenario, options)


RULE = Rule(
    "Smoke", 'seed 000 "ADDITIONAL RULES" › "Smoke", "Natural Smoke", "Artificial Smoke" (L1878-1904)',
    options=(Option("smoke_grenades", False, "every infantry unit may lay smoke (L1896; otherwise only units "
                                             "whose scenario spec says smoke_grenades)", kind="bool"),),
    applies=has_smoke,
    init=(_set_up,),
    action_options=(_lay_options,),
    actions={"lay_smoke": _lay, "discharge_smoke": _discharge, "exhaust_smoke": _exhaust},
    on_activation=(_activated,),
    after_move=(_moved,),
    turn_end=(_turn_end,),
    terrain=KINDS,
    services={"ammo_effect_smoke": artillery_smoke},
    observation=(FIRE_SMOKE_PIECE,),
    families=(Family("lay_smoke", ("dir", LAY_DISTANCES), 202,
                     "infantry lay a 6\" smoke cloud 3\" or 6\" away in this direction (mirrored like moves)"),
              Family("discharge_smoke", (), 203, "a vehicle fires its smoke dischargers: a 6\" cloud 6\" to its front"),
              Family("exhaust_smoke", (), 204, "a vehicle makes exhaust smoke (around it, or behind it after a move)")),
)
