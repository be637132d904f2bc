"""Buildings and Fortifications (seed 000 "ADDITIONAL RULES › Buildings and Fortifications", L1996-2022).

"All buildings and fortifications are considered point targets and are given a size class as for vehicles. They
are thus engaged as if they are a vehicle" (L1998).  The rule is switched on by the scenario: a building whose
armour the scenario declares (a ``buildings`` list, or ``armour`` on a terrain feature of type ``building``: "Players
should agree before the game how each individual building will be handled", L2008); every other game is unchanged.

Each declared building is a public table entity of the kind ``building`` (``kernel.table``: a stable id, its outline
as a polygon around its centre) whose plain-data ``state`` holds what the scenario agreed and what happened to it::

    {"name", "armour": "d12x2", "size": 3, "if_destroyed": "rubble" | "breach", "damage": 0, "destroyed": false,
     "breached": false, "openings": [{"kind": "door", "armour": "d6", "x", "y", "breached": false}], "rooms": 1,
     "weapons": [...], "fired": [], "structure": null}

* **Armour** (L2006, L2014-2022): a die (``"d12x2"``) or the suggested table's name (``"brick"``, ``"bunker"``, ...);
  a size class (RN-1700: the table gives armour only; the scenario's ``size``, default 3).
* **Engaging** (L1998): a heavy weapon (``("fire_building", ref, part, 0)``), an infantry rocket (IAVR, k 1: the
  support-weapon target die, no size shift, L1256-1258) or a vehicle's direct-fire weapon (``("fire_building", ref,
  part, k)``) fires at it as at a vehicle: the heavy-weapon target die against the building's size (range to the nearest point of its outline, the line of sight to just in front of it), the weapon's
  firepower and impact against armour, then the attack pipeline's one dispatch (``kernel.attack.fire_effects``,
  kind ``building``): a minor or major result suppresses the building, and so its occupants (L2004, RN-1702); each
  hit an opposed roll of the impact against the building's armour: beats it, a damage marker; more than double,
  destroyed (L1433-1435 as for a vehicle).
* **A door or window** (L2000-2002, RN-1701): part ``1 + i`` targets the building's ``i``-th opening, a target one
  size smaller (doors) or two (windows and viewports) with its own armour (the table's last four rows); a hit that
  beats it breaches it; a shot that misses rolls a D6: below the building's size class it struck the building.
* **Occupants** (RN-1703): the units whose leader stands inside the outline.  When the building is damaged they
  roll as a damaged vehicle's passengers (L1443: each figure's armour die must exceed the weapon class, more than
  double it when the building is destroyed, else it is wounded), then test as any unit with casualties.
* **Destroyed** (L2008): rubble (dynamic terrain ``rubble``, rough ground replacing the building: soft cover, no
  longer blocking sight) or, where the scenario says ``"if_destroyed": "breach"``, a breach (the building stands,
  breached, and is no longer a target).
* **Fire support** (the kernel's ``point_targets`` service, called by every point attack, ``kernel.attack.burst``):
  a burst within its radius of a building's outline strikes it once with the round's impact against armour; its
  occupants not caught in the burst are suppressed through the building.

Fortifications mounting weapons and modules of very large structures are :mod:`.fortifications`; seed 004's
building assault (``building_assault: "d20"``) is :mod:`.building_assault`.  Readings: docs/rules-notes.md section
52 (RN-1700..).
"""
from __future__ import annotations

import math
from types import SimpleNamespace

from shapely.geometry import Point, Polygon
from shapely.ops import nearest_points

from ..kernel import table, terrain
from ..kernel.attack import BUILDING, fire_effects
from ..kernel.battlefield import observer_of
from ..kernel.data import armoury
from ..kernel.dice import D6, D12, die_name, parse_die
from ..kernel.entities import OK, WOUNDED, Unit
from ..kernel.errors import IllegalOptionError, ScenarioError
from ..kernel.events import Event, Suppressed, event
from ..kernel.ruleset import Family, Rule
from ..kernel.table import EntityKind, by_ref, entities_of
from ..kernel.terrain import TerrainKind
from ..morale.confidence_test import confidence_test
from .buildings_observation import BUILDINGS_PIECE

KIND = "building"  # the table entity kind (and the attack pipeline's target kind, kernel.attack.BUILDING)
RUBBLE = "rubble"
DEFAULT_SIZE = 3  # RN-1700: the table gives armour only; a building's size class is the scenario's, else 3
MAX_BUILDINGS = 12  # buildings that are targets (table entities: room left for markers, mines, smoke)
MAX_OPENINGS = 2  # doors and windows a building may declare as targets of their own (parts 1 and 2)
PARTS = tuple(range(1 + MAX_OPENINGS))  # part 0: the building; 1 + i: its i-th opening
WEAPON_SLOTS = 4  # as Fire by Vehicles: k is the vehicle's weapon slot (a heavy weapon's crew: 0)
MAX_SUPPRESSION = 3
AIM_OUTSIDE = 0.25  # a line of sight to a wall ends this far in front of it

# L2014-2022, the suggested building values (armour only)
ARMOUR_TABLE = {"primitive_wood": "d6", "brick": "d12x2", "steel": "d12x3", "concrete": "d12x3", "bunker": "d12x5",
                "door": "d6", "window": "d6", "armoured_viewport": "d12", "armoured_door": "d12x2",
                "heavy_armoured_door": "d12x3"}
# RN-1701: "one or two sizes smaller": a door one, a window or viewport two
OPENING_SIZE_DROP = {"door": 1, "armoured_door": 1, "heavy_armoured_door": 1, "window": 2, "armoured_viewport": 2}
DESTROYED = ("rubble", "breach")

TERRAIN_KINDS = {RUBBLE: TerrainKind(ground="rough")}  # rough ground: soft cover, 2 MP an inch, no sight block


# ---------------------------------------------------------------------------------------------- events
@event
class BuildingFired(Event):
    """A heavy or vehicle weapon fired at a building (``part`` 0) or one of its openings (1 + i)."""
    unit: int
    entity: int
    part: int
    weapon: str
    target_die: str
    target_roll: int
    dice: tuple
    rolls: tuple
    successes: int
    result: str
    hits: int


@event
class BuildingHit(Event):
    entity: int
    part: int
    impact: int
    armour: int
    result: str  # none | damaged | destroyed (an opening: none | breached)


@event
class OpeningMissed(Event):
    """L2002: a shot at a door or window missed; the D6 below the building's size class struck the building."""
    entity: int
    part: int
    roll: int
    struck_building: bool


@event
class BuildingSuppressed(Event):
    """L2004: the building is suppressed; each occupant's own ``Suppressed`` event follows (a hidden occupant's is
    kept from the other side's log as any event naming a hidden unit)."""
    entity: int


@event
class BuildingDamaged(Event):
    entity: int
    damage: int


@event
class BuildingDestroyed(Event):
    entity: int
    how: str  # rubble | breach


@event
class OccupantHit(Event):
    unit: int
    figure: int
    roll: int
    needed: int  # the armour roll must exceed this to be unharmed


# ---------------------------------------------------------------------------------------------- scenario
def _armour(value, where: str) -> str:
    if isinstance(value, str) and value.lower() in ARMOUR_TABLE:
        return ARMOUR_TABLE[value.lower()]
    try:
        step = parse_die(value)
    except Exception:  # noqa: BLE001 - any bad value: one clear line
        step = None
    if step is None or isinstance(value, bool):
        raise ScenarioError(f"{where}: armour must be a die such as 'd12x2' or one of {', '.join(ARMOUR_TABLE)}, "
                            f"not {value!r}")
    return die_name(step)


def declared(scenario: dict) -> list[dict]:
    """The scenario's buildings (its ``buildings`` list, then terrain features of type building with an armour),
    each with its outline's absolute points: checked here, each error one line naming the building."""
    features = {f.get("name"): f for f in scenario.get("terrain", []) if f.get("name")}
    out = []
    for i, b in enumerate(scenario.get("buildings", [])):
        where = f"buildings[{i}] {b.get('name', '')!r}".rstrip(" '")
        if "polygon" in b:
            pts = b["polygon"]
        elif b.get("feature") in features:
            pts = features[b["feature"]]["polygon"]
        else:
            raise ScenarioError(f"{where}: give a polygon or the name of a terrain feature as 'feature' "
                                f"(the named features: {', '.join(map(str, features)) or 'none'})")
        out.append(_spec(b, pts, where, b.get("name") or b.get("feature") or f"building {i + 1}"))
    for f in scenario.get("terrain", []):
        if "armour" in f:
            where = f"terrain feature {f.get('name', '?')!r}"
            if f["type"] != "building":
                raise ScenarioError(f"{where}: only a building may be given an armour, not {f['type']}")
            out.append(_spec(f, f["polygon"], where, f.get("name") or f"building {len(out) + 1}"))
    if len(out) > MAX_BUILDINGS:
        raise ScenarioError(f"at most {MAX_BUILDINGS} buildings may be given an armour (the table holds "
                            f"{table.MAX_ENTITIES} entities, markers and mines included), not {len(out)}")
    return out


def _spec(b: dict, pts, where: str, name: str) -> dict:
    if "armour" not in b:
        raise ScenarioError(f"{where}: a building needs an armour (L2006), e.g. 'brick' or 'd12x2'")
    size = b.get("size", DEFAULT_SIZE)
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 10:
        raise ScenarioError(f"{where}: size is a size class from 1 to 10, not {size!r}")
    how = b.get("if_destroyed", "rubble")
    if how not in DESTROYED:
        raise ScenarioError(f"{where}: if_destroyed is 'rubble' or 'breach', not {how!r}")
    rooms = b.get("rooms", 1)
    if isinstance(rooms, bool) or not isinstance(rooms, int) or not 1 <= rooms <= 12:
        raise ScenarioError(f"{where}: rooms is a whole number from 1 to 12, not {rooms!r}")
    openings = []
    for j, o in enumerate(b.get("openings", [])):
        kind = o.get("kind", "door")
        if kind not in OPENING_SIZE_DROP:
            raise ScenarioError(f"{where}: openings[{j}]: kind is one of {', '.join(OPENING_SIZE_DROP)}, "
                                f"not {kind!r}")
        openings.append({"kind": kind, "armour": _armour(o.get("armour", ARMOUR_TABLE[kind]), f"{where}: openings[{j}]"),
                         "x": float(o["position"][0]), "y": float(o["position"][1]), "breached": False})
    if len(openings) > MAX_OPENINGS:
        raise ScenarioError(f"{where}: at most {MAX_OPENINGS} doors or windows are targets of their own")
    owner = b.get("owner", -1)
    if owner not in (-1, 0, 1) or isinstance(owner, bool):
        raise ScenarioError(f"{where}: owner is 0, 1 or -1 (none), not {owner!r}")
    weapons = list(b.get("weapons", []))
    if weapons:
        check_weapons(weapons, where)
    poly = Polygon(pts)
    if not poly.is_valid or poly.area <= 0:
        raise ScenarioError(f"{where}: the outline is not a simple polygon")
    c = poly.centroid
    return {"name": str(name), "points": [[float(x), float(y)] for x, y in pts], "x": c.x, "y": c.y, "owner": owner,
            "state": {"name": str(name), "armour": _armour(b["armour"], where), "size": size, "if_destroyed": how,
                      "damage": 0, "destroyed": False, "breached": False, "openings": openings, "rooms": rooms,
                      "weapons": weapons, "fired": [], "structure": b.get("structure")}}


def check_weapons(names, where: str) -> None:
    """A fortification's mounted weapons (:mod:`.fortifications`) each name a heavy-weapon design (one clear line
    otherwise)."""
    from ..armoured_dustup.heavy_weapons import design_profile
    if len(names) > 4:
        raise ScenarioError(f"{where}: weapons: at most 4 mounted weapons")
    for n in names:
        if not isinstance(n, str):
            raise ScenarioError(f"{where}: weapons: a heavy-weapon design's name, not {n!r}")
        design_profile(n, f"{where}: weapons")


def has_buildings(scenario: dict, options: dict) -> bool:
    return bool(scenario.get("buildings")) or any("armour" in f for f in scenario.get("terrain", []))


def _init(game) -> None:
    for b in declared(game.scenario):
        shape = {"shape": "polygon", "points": [[round(x - b["x"], 6), round(y - b["y"], 6)] for x, y in b["points"]]}
        table.add(game, KIND, round(b["x"], 6), round(b["y"], 6), owner=b["owner"], shape=shape, state=b["state"])


# ---------------------------------------------------------------------------------------------- geometry
_POLYS: dict = {}


def outline(e: dict) -> list:
    """The building's outline, absolute points."""
    return [[e["x"] + dx, e["y"] + dy] for dx, dy in e["shape"]["points"]]


def polygon(e: dict) -> Polygon:
    key = (e["x"], e["y"], repr(e["shape"]["points"]))
    p = _POLYS.get(key)
    if p is None:
        if len(_POLYS) > 256:
            _POLYS.clear()
        p = _POLYS[key] = Polygon(outline(e))
    return p


def buildings(game) -> list[dict]:
    """Every building entity on the table (standing or not)."""
    return entities_of(game, KIND)


def standing(e: dict) -> bool:
    """Still a target: not destroyed (rubble) nor breached by its destruction."""
    return not e["state"]["destroyed"]


def inside(e: dict, x: float, y: float) -> bool:
    return table.contains(e, x, y)


def occupants(game, e: dict) -> list[Unit]:
    """RN-1703: the units in play whose leader stands inside the building's outline (not aboard a vehicle, not
    vehicles)."""
    out = []
    for u in game.units:
        if u.in_play and u.veh.carrier < 0 and u.profile.vehicle is None and table.contains(e, u.x, u.y):
            out.append(u)
    return out


def building_of(game, u: Unit) -> dict | None:
    """The standing building ``u`` occupies, or None."""
    for e in buildings(game):
        if standing(e) and table.contains(e, u.x, u.y):
            return e
    return None


def distance_to(e: dict, x: float, y: float) -> float:
    """From (x, y) to the building's outline (0 inside)."""
    return polygon(e).distance(Point(x, y))


def aim_point(e: dict, part: int, x: float, y: float) -> tuple[float, float]:
    """Where a shot from (x, y) strikes: an opening's own point, or the nearest point of the building's outline."""
    if part > 0:
        o = e["state"]["openings"][part - 1]
        return o["x"], o["y"]
    q = nearest_points(polygon(e).exterior, Point(x, y))[0]
    return q.x, q.y


def sight_point(px: float, py: float, x: float, y: float) -> tuple[float, float]:
    """The point a line of sight to the wall at (px, py) from (x, y) ends at: ``AIM_OUTSIDE`` in front of it (the
    building does not hide its own wall)."""
    dx, dy = x - px, y - py
    d = math.hypot(dx, dy) or 1.0
    step = min(AIM_OUTSIDE, d)
    return px + dx / d * step, py + dy / d * step


def part_size(e: dict, part: int) -> int:
    """The size class of the target: the building's, or an opening's one or two smaller (RN-1701: 0 or less is a
    small target)."""
    size = e["state"]["size"]
    if part == 0:
        return size
    return size - OPENING_SIZE_DROP[e["state"]["openings"][part - 1]["kind"]]


def parts(e: dict) -> list[int]:
    """The parts of a standing building that may be targeted: itself, and each opening not breached."""
    if not standing(e):
        return []
    return [0] + [1 + i for i, o in enumerate(e["state"]["openings"]) if not o["breached"]]


# ---------------------------------------------------------------------------------------------- fire at buildings
def _geometry(game, u: Unit, e: dict, part: int, ox: float, oy: float):
    """(distance, concealment, size class) of a shot from (ox, oy) at part ``part`` of ``e``, or None (a part not to
    be targeted, a firer inside, no line of sight to just in front of the wall or the opening)."""
    if part not in parts(e) or table.contains(e, ox, oy):
        return None
    px, py = aim_point(e, part, ox, oy)
    s = game.bf.sight_for(observer_of(u), ox, oy, *sight_point(px, py, ox, oy))
    if not s.visible:
        return None
    return math.hypot(px - ox, py - oy), (1 if s.concealed else 0), part_size(e, part)


def building_plan(game, u: Unit, e: dict, part: int, weapon, origin=None, extra_shift: int = 0) -> dict | None:
    """What ``weapon`` (a WeaponProfile: heavy weapon or vehicle weapon) fired by ``u`` from ``origin`` (default the
    unit) at part ``part`` of building ``e`` would roll, or None (inside it, no line of sight, no firepower against
    armour, the target die above D12).  The heavy-weapon target die (L1998: engaged as a vehicle): range to the point
    aimed at, its concealment, the size class, the firer's quality and the weapon's fire control."""
    from ..armoured_dustup.heavy_weapons import heavy_target_die
    if not weapon.firepower:
        return None
    ox, oy = (u.x, u.y) if origin is None else origin
    geo = _geometry(game, u, e, part, ox, oy)
    if geo is None:
        return None
    dist, conc, size = geo
    step = heavy_target_die(distance=dist, weapon_size=weapon.size, target_size=max(size, 1),
                            concealment=conc + extra_shift, small=size < 1,
                            firer_quality=u.quality, fire_control=weapon.fire_control,
                            night=game.options["night"] and not u.night_vision)
    if step < 0:
        return None
    return {"distance": dist, "target_die": step, "firepower": [parse_die(f) for f in weapon.firepower],
            "impact": parse_die(weapon.impact_vs_armour), "origin": (ox, oy), "weapon_class": max(1, weapon.size),
            "part": part, "weapon": weapon.name}


def rocket_plan(game, u: Unit, e: dict, part: int, fi: int) -> dict | None:
    """An infantry rocket (IAVR, figure ``fi``) at part ``part`` of ``e`` as at a vehicle (L1256-1258): the
    support-weapon range bands, no size shift (RN-121), the rocket's firepower and impact, weapon class 1."""
    from ..unit_actions.shoot_action import NO_ENGAGE, target_die
    geo = _geometry(game, u, e, part, u.x, u.y)
    if geo is None:
        return None
    dist, conc, size = geo
    w = armoury()[0][u.figures[fi].weapon]
    if w.max_range and dist > w.max_range:
        return None
    step = target_die(distance=dist, effective_range=w.effective_range, concealment=conc, small=size < 1,
                      firer_quality=u.quality, night=game.options["night"] and not u.night_vision)
    if step == NO_ENGAGE:
        return None
    return {"distance": dist, "target_die": step, "firepower": [w.fp_die], "impact": w.impact, "origin": (u.x, u.y),
            "weapon_class": 1, "part": part, "weapon": w.name, "figure": fi}


def fire_at_building(game, u: Unit, e: dict, plan: dict):
    """Resolve one shot of ``plan`` (:func:`building_plan`): the roll to hit, then the effects through the attack
    pipeline's one dispatch (kind ``building``: :func:`building_shot`)."""
    from ..unit_actions.shoot_action import resolve_fire
    step = plan["target_die"]
    res = resolve_fire(game.dice, quality=u.quality, firepower=plan["firepower"], target=step,
                       extra_hits=game.options["extra_hits"])
    game.emit(BuildingFired(u.uid, e["id"], plan["part"], plan["weapon"], die_name(step), res.target_roll,
                            tuple(die_name(s) for s in [u.quality] + plan["firepower"]), res.firer_rolls,
                            res.successes, res.result, res.hits))
    fire_effects(game, u, e, res, plan["impact"], kind=BUILDING, part=plan["part"],
                 weapon_class=plan["weapon_class"])
    return res


def building_shot(game, firer, e: dict, res, impact: int, part: int = 0, weapon_class: int = 1, **_how) -> int:
    """The ``attacks`` entry of the target kind ``building``: a resolved attack ``res`` on building ``e`` (or its
    opening ``part``): a minor or major result suppresses the building's occupants (L2004); each hit an opposed roll
    against the armour (L1998, as a vehicle); a miss at an opening may strike the building (L2002).  Returns 0."""
    if part > 0 and res.result == "none":
        roll = game.dice.roll(D6)
        struck = roll < e["state"]["size"]
        game.emit(OpeningMissed(e["id"], part, roll, struck))
        if struck:
            hit_building(game, e, impact, 1, weapon_class)
        return 0
    if res.result != "none":
        suppress_building(game, e)
    if res.hits:
        if part > 0:
            hit_opening(game, e, part, impact, res.hits, weapon_class)
        else:
            hit_building(game, e, impact, res.hits, weapon_class)
    return 0


def suppress(game, u: Unit) -> None:
    """One suppression marker on ``u`` (up to three, L941), with the confidence test of a first time under fire or
    suppressed, as fire at the unit itself would."""
    reasons = []
    if not u.under_fire_before:
        u.under_fire_before = True
        reasons.append("first_under_fire")
    if not u.suppressed_before:
        u.suppressed_before = True
        reasons.append("first_suppressed")
    if u.suppression < MAX_SUPPRESSION:
        u.suppression += 1
    game.emit(Suppressed(u.uid, u.suppression))
    if reasons and u.in_play:
        confidence_test(game.dice, u, reasons, events=game.events)


def suppress_building(game, e: dict, spare=()) -> None:
    """L2004: "Suppression of a building suppresses its occupants" (those in ``spare``, already struck by the same
    attack, are not suppressed twice)."""
    occ = [u for u in occupants(game, e) if u.uid not in spare]
    game.emit(BuildingSuppressed(e["id"]))
    for u in occ:
        suppress(game, u)


def _statuses(units) -> dict:
    return {u.uid: [f.status for f in u.figures] for u in units}


def occupant_casualties(game, e: dict, weapon_class: int, destroyed: bool) -> int:
    """RN-1703 (L2008 names no mechanism; the occupants are a vehicle's passengers, L1443): every able occupant
    figure rolls its armour die: above the weapon class (more than double it when the building is destroyed) it is
    unharmed, else wounded.  Then each occupant unit with casualties tests as any unit would (RN-803).  The number
    hit."""
    from ..armoured_dustup.vehicle_damage import passengers_test
    armours = armoury()[1]
    needed = 2 * weapon_class if destroyed else weapon_class
    occ = occupants(game, e)
    before = _statuses(occ)
    hit = 0
    for p in occ:
        for i, f in enumerate(p.figures):
            if f.status != OK:
                continue
            roll = game.dice.roll(armours[f.armour or p.armour].die)
            game.emit(OccupantHit(p.uid, i, roll, needed))
            if roll <= needed:
                p.set_figure(i, status=WOUNDED)
                hit += 1
    passengers_test(game, before)
    return hit


def hit_building(game, e: dict, impact: int, hits: int, weapon_class: int) -> list[str]:
    """``hits`` hits of impact die ``impact`` on building ``e``: each an opposed roll against its armour (beats it: a
    damage marker; more than double: destroyed, and the hits end); the occupants roll once for the worst result."""
    st = e["state"]
    if not standing(e):
        return []
    die = parse_die(st["armour"])
    results = []
    for _ in range(hits):
        a, b = game.dice.roll(impact), game.dice.roll(die)
        result = "destroyed" if a > 2 * b else ("damaged" if a > b else "none")
        game.emit(BuildingHit(e["id"], 0, a, b, result))
        results.append(result)
        if result == "destroyed":
            break
    if "destroyed" in results:
        occupant_casualties(game, e, weapon_class, True)
        destroy(game, e)
    elif "damaged" in results:
        occupant_casualties(game, e, weapon_class, False)
        st["damage"] += results.count("damaged")
        game.emit(BuildingDamaged(e["id"], st["damage"]))
        game.invalidate()
    return results


def hit_opening(game, e: dict, part: int, impact: int, hits: int, weapon_class: int) -> bool:
    """Hits on a door or window: each the impact against the opening's armour; beating it breaches the opening
    (RN-1701), and the occupants roll as for a damaged building (the shot came through)."""
    o = e["state"]["openings"][part - 1]
    die = parse_die(o["armour"])
    for _ in range(hits):
        a, b = game.dice.roll(impact), game.dice.roll(die)
        breached = a > b
        game.emit(BuildingHit(e["id"], part, a, b, "breached" if breached else "none"))
        if breached:
            o["breached"] = True
            game.invalidate()
            occupant_casualties(game, e, weapon_class, False)
            return True
    return False


def destroy(game, e: dict) -> None:
    """L2008: the building is destroyed: rubble (rough ground in its place, soft cover) or a breach."""
    st = e["state"]
    st["destroyed"] = True
    if st["if_destroyed"] == "rubble":
        terrain.add(game, {"kind": RUBBLE, "shape": "polygon", "points": outline(e), "entity": e["id"]})
    else:
        st["breached"] = True
    game.emit(BuildingDestroyed(e["id"], st["if_destroyed"]))
    game.invalidate()


def point_targets(game, source, impact: int, struck: dict) -> None:
    """The kernel's ``point_targets`` service (every point attack, ``kernel.attack.burst``): each standing building
    within the burst's radius of its outline takes one hit of the round's impact against its armour (engaged as a
    vehicle, L1998; the weapon class of the impact die: a D12xN is class N, smaller dice class 1); a building
    struck suppresses its occupants not caught by the burst itself (L2004)."""
    x, y, r = source.x, source.y, source.radius
    for e in buildings(game):
        if not standing(e) or distance_to(e, x, y) > r + 1e-9:
            continue
        suppress_building(game, e, spare=struck)
        hit_building(game, e, impact, 1, impact_class(impact))


def impact_class(impact: int) -> int:
    """RN-1703: the weapon class of an impact die for the occupants' roll: D12xN is class N, D12 and below 1."""
    return max(1, impact - D12 + 1) if impact > D12 else 1


# ---------------------------------------------------------------------------------------------- options
ROCKET_SLOT = 1  # k of an infantry unit's rocket (a heavy weapon's crew fires its weapon as k 0)


def _crew(game, u: Unit, status):
    """The weapons ``u`` may fire at a building now: [(k, weapon, extra shift)]: a vehicle's direct-fire weapons by
    their slots (a WeaponProfile), a heavy weapon as 0 (its WeaponProfile), an infantry rocket as 1 (its figure)."""
    from ..armoured_dustup import fire_by_vehicles as fbv
    from ..armoured_dustup import heavy_weapons as hw
    from ..armoured_dustup.unguided_rockets import rocket_figure
    from ..unit_actions.shoot_action import may_shoot
    out = []
    v = u.profile.vehicle
    if v is not None:
        if not v.weapons or not fbv.may_fire(u, status):
            return out
        done = fbv.fired(game, u)
        for k, w in enumerate(fbv.weapons(u)):
            if w.category in fbv.DIRECT and k not in done:
                extra = fbv.own_shift(u, w)
                if extra is not None:
                    out.append((k, w, extra))
        return out
    if not may_shoot(u, status):
        return out
    st = hw.state(game, u)
    if st is not None:
        prof = hw.weapon_of(game, u)
        if hw.direct_fire(prof) and hw.can_fire(game, u, prof, st):
            out.append((0, prof.weapon, 0))
    fi = rocket_figure(u)
    if fi >= 0:
        out.append((ROCKET_SLOT, fi, 0))
    return out


def _plan(game, u: Unit, e: dict, part: int, w, extra: int) -> dict | None:
    if isinstance(w, int):
        return rocket_plan(game, u, e, part, w)
    return building_plan(game, u, e, part, w, extra_shift=extra)


def fire_options(game, u: Unit, status) -> list:
    """``("fire_building", ref, part, k)``: a vehicle's k-th direct-fire weapon, a heavy weapon (k 0) or an infantry
    rocket (k 1) at a part of a standing building the side knows (every building is public)."""
    if not u.in_play:
        return []
    ready = _crew(game, u, status)
    if not ready:
        return []
    from ..armoured_dustup.fire_by_vehicles import in_arc
    out = []
    for e in buildings(game):
        if not standing(e) or table.contains(e, u.x, u.y):
            continue
        r = table.ref(e, u.side)
        for part in parts(e):
            for k, w, extra in ready:
                if u.profile.vehicle is not None:
                    px, py = aim_point(e, part, u.x, u.y)
                    if not in_arc(u, w, SimpleNamespace(x=px, y=py)):
                        continue
                if _plan(game, u, e, part, w, extra) is not None:
                    out.append(("fire_building", r, part, k))
    return out


def _fire(game, u: Unit, opt) -> None:
    from ..armoured_dustup import fire_by_vehicles as fbv
    from ..armoured_dustup import heavy_weapons as hw
    from ..kernel.actions import status
    from ..unit_actions.shoot_action import spend_disposable
    e = by_ref(game, u.side, opt[1])
    st = status(game, u)
    ready = {kk: (w, extra) for kk, w, extra in _crew(game, u, st)} if st is not None else {}
    part, k = opt[2], opt[3]
    plan = None
    if e is not None and e["kind"] == KIND and k in ready:
        plan = _plan(game, u, e, part, *ready[k])
    if plan is None:
        raise IllegalOptionError(f"{opt!r}: that weapon cannot fire at that building now")
    if u.profile.vehicle is not None:
        fbv.mark_fired(game, u, k)
    elif "figure" in plan:
        u.fired.add(plan["figure"])
        spend_disposable(u, [plan["figure"]])
    else:
        hw.mark_fired(game, u)
    fire_at_building(game, u, e, plan)


def _turn_start(game) -> None:
    for e in buildings(game):
        if e["state"]["fired"]:
            e["state"]["fired"] = []


FAMILIES = (Family("fire_building", ("entity", PARTS, tuple(range(WEAPON_SLOTS))), 240,
                   "Buildings and Fortifications: a vehicle's k-th weapon, a heavy weapon (0) or a rocket (1) fires at "
                   "a building (part 0) or its door or window (1, 2)"),)

RULE = Rule(
    "Buildings and Fortifications", 'seed 000 "ADDITIONAL RULES › Buildings and Fortifications" (L1996-2022)',
    applies=has_buildings,
    init=(_init,),
    families=FAMILIES,
    action_options=(fire_options,),
    actions={"fire_building": _fire},
    turn_start=(_turn_start,),
    entity_kinds={KIND: EntityKind("a building or fortification the scenario gave an armour: a point target engaged "
                                   "as a vehicle (its damage, destruction, breaches and doors in its state)")},
    terrain=TERRAIN_KINDS,
    attacks={BUILDING: building_shot},
    services={"point_targets": point_targets, "building_of": building_of, "building_occupants": occupants},
    observation=(BUILDINGS_PIECE,),
)
