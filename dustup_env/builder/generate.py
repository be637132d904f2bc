"""``generate_scenario``: a whole Dustup scenario from one seed, by seed 001's Battle Builder (docs/builder.md).

The steps in the text's order (S001:7-16): the points total; each side's force chosen to it (secretly: each
force is drawn without looking at the other); the scenario built with two scenario points a side, spent
alternately after a roll-off; the terrain placed alternately after a second roll-off, 4" apart; fortifications
(none: the engine has no rules for them yet, RN-1158); the forces deployed in their zones.  The players' choices
are seeded choices (RN-1150).  Everything comes from one ``random.Random(seed)``.
"""
from __future__ import annotations

import math
import random
from typing import Iterable

from shapely.geometry import Point, box

from ..rules.kernel.battlefield import INFANTRY, POWER_ARMOUR, Battlefield, vehicle_column
from ..rules.kernel.limits import MAX_MARKERS, MAX_UNITS_PER_SIDE
from ..rules.forces.units import compact_offsets
from .charts import (CONDITION, CONDITIONS, DEPLOYMENT, DEPLOYMENTS, EXCLUSIVE, OBJECTIVE, OBJECTIVES, WITH_OPTIONS,
                     objective_points, zones)
from .forces import HQ, TYPE, choose_force, cheapest, hq_points, make_unit
from .points import design_profile, unit_points
from .terrain import place_terrain

SIDE_NAMES = ("Blue", "Red")
DEFAULT_TABLE = (72.0, 48.0)
SCENARIO_POINTS = 2  # S001:11: "Each player has two Scenario Points"
ROLL_OFF_DICE = 5  # S001:12, 14: "Players roll 5 dice"
MIN_TABLE = 24.0
MAX_TABLE = 240.0


class BuildError(ValueError):
    """Bad input to the builder: the message is one line naming the problem."""


def default_points() -> int:
    """A platoon a side: the points of the default scenario's regular platoon (its HQ and three rifle squads)."""
    return hq_points() + 3 * unit_points(make_unit(TYPE["rifle_squad"], "d8"))


def roll_off(rng: random.Random) -> tuple[int, list]:
    """S001:12, 14: both roll 5 dice, the fewest hits goes first, ties re-rolled.  A Dust die hits on 2 of its 6
    faces; here a D6 hits on 5 or 6 (RN-1151).  Returns (the side that goes first, the rolls)."""
    rolls = []
    while True:
        hits = [sum(rng.randint(1, 6) >= 5 for _ in range(ROLL_OFF_DICE)) for _ in range(2)]
        rolls.append(hits)
        if hits[0] != hits[1]:
            return (0 if hits[0] < hits[1] else 1), rolls


def parse_with(with_: Iterable[str] | str | None) -> frozenset:
    if with_ is None:
        return frozenset()
    items = [w.strip() for w in (with_.split(",") if isinstance(with_, str) else with_)]
    items = [w for w in items if w]
    bad = [w for w in items if w not in WITH_OPTIONS]
    if bad:
        raise BuildError(f"unknown --with option {bad[0]!r}: choose from {', '.join(WITH_OPTIONS)}")
    for a, b in EXCLUSIVE:
        if a in items and b in items:
            raise BuildError(f"--with {a} and {b} exclude each other (one activation sequence at a time; seize tokens need the alternating sequence)")
    return frozenset(items)


def _check_input(seed, points, table) -> tuple[tuple[int, int], tuple[float, float]]:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise BuildError(f"seed must be a non-negative integer, not {seed!r}")
    try:
        w, h = (float(table[0]), float(table[1]))
    except (TypeError, ValueError, IndexError):
        raise BuildError(f"table must be (width, height) in inches, not {table!r}") from None
    w, h = (int(w) if w.is_integer() else w), (int(h) if h.is_integer() else h)
    if not (MIN_TABLE <= w <= MAX_TABLE and MIN_TABLE <= h <= MAX_TABLE):
        raise BuildError(f"table {w:g}x{h:g}: each side must be {MIN_TABLE:g} to {MAX_TABLE:g} inches")
    if points is None:
        pts = (default_points(),) * 2
    elif isinstance(points, (tuple, list)) and len(points) == 2:
        pts = tuple(points)
    else:
        pts = (points, points)
    least = hq_points() + cheapest(frozenset(WITH_OPTIONS))
    for p in pts:
        if isinstance(p, bool) or not isinstance(p, int):
            raise BuildError(f"points must be a whole number, not {p!r}")
        if p < least:
            raise BuildError(f"points {p}: too few for a force (the HQ and one more unit need at least {least})")
    return pts, (w, h)


class _Frame:
    """Side-relative geometry: *along* from side 0's home edge to side 1's, *across* along the edges."""

    def __init__(self, edges: str, w: float, h: float):
        self.edges, self.w, self.h = edges, w, h
        self.along, self.across = (h, w) if edges == "ns" else (w, h)
        self.home = ("south", "north") if edges == "ns" else ("west", "east")
        self.facing = (0.0, 180.0) if edges == "ns" else (90.0, 270.0)

    def xy(self, across: float, along: float) -> tuple[float, float]:
        return (across, along) if self.edges == "ns" else (along, across)

    def rect(self, z) -> tuple[float, float, float, float]:
        (x0, y0), (x1, y1) = self.xy(z[0], z[2]), self.xy(z[1], z[3])
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _r(v: float) -> float:
    return round(v * 2) / 2


class _Placer:
    def __init__(self, bf: Battlefield, rng: random.Random):
        self.bf, self.rng = bf, rng
        self.taken: list = []  # (x, y) of every unit placed, both sides
        self.markers: set = set()

    def fits(self, unit: dict, x: float, y: float, conceal: bool = False) -> bool:
        bf = self.bf
        if "design" in unit:
            col = vehicle_column(design_profile(unit["design"]).mobility_type)
            pts = [(x, y)] + [(x + 1.5 * math.cos(a), y + 1.5 * math.sin(a)) for a in (0, 1.57, 3.14, 4.71)]
        else:
            col = POWER_ARMOUR if unit.get("armour") in ("light_power", "heavy_power") else INFANTRY
            n = sum(f.get("count", 1) for f in unit["figures"])
            pts = [(x + dx, y + dy) for dx, dy in compact_offsets(n)]
        if not all(bf.on_table(px, py) and bf.move_cost(px, py, col) is not None for px, py in pts):
            return False
        return not conceal or bf.conceals(x, y)

    def spot(self, unit: dict, rect, conceal: bool = False, tries: int = 150):
        x0, y0, x1, y1 = rect
        for spacing in (5.0, 3.0, 1.0):
            for _ in range(tries):
                x, y = _r(self.rng.uniform(x0, x1)), _r(self.rng.uniform(y0, y1))
                if (x, y) in self.markers or any(math.hypot(x - a, y - b) < spacing for a, b in self.taken):
                    continue
                if self.fits(unit, x, y, conceal):
                    return x, y
        if conceal:  # no concealing ground found: the caller places the unit openly, or no dummy
            return None
        # a scan of the zone, nearest the rectangle's centre first (the seeded tries all failed)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        cells = [(_r(x0 + i * 0.5), _r(y0 + j * 0.5)) for i in range(int((x1 - x0) * 2) + 1)
                 for j in range(int((y1 - y0) * 2) + 1)]
        for x, y in sorted(cells, key=lambda p: (math.hypot(p[0] - cx, p[1] - cy), p)):
            if (x, y) not in self.taken and (x, y) not in self.markers and self.fits(unit, x, y):
                return x, y
        return None


def generate_scenario(seed: int, points=None, table=DEFAULT_TABLE, with_=None, name: str | None = None) -> dict:
    """A valid scenario document (docs/scenarios.md) built from ``seed`` alone (the same seed gives the same
    document).  ``points``: each side's budget (one number, or two: side 0's and side 1's; default a platoon a
    side, :func:`default_points`); ``table``: (width, height) in inches; ``with_``: the ``--with`` options
    (:data:`charts.WITH_OPTIONS`, a list or comma-separated text).  Raises :class:`BuildError` on bad input."""
    return build(seed, points, table, with_, name)[0]


def build(seed: int, points=None, table=DEFAULT_TABLE, with_=None, name: str | None = None,
          swap_forces: bool = False) -> tuple[dict, dict]:
    """:func:`generate_scenario` and a report: the choices made, each side's points.  ``swap_forces``: the same
    scenario (charts, terrain) with the two forces exchanged (the second game of a pair in the points check,
    docs/builder.md); the deployment positions are drawn anew."""
    opts = parse_with(with_)
    budgets, (w, h) = _check_input(seed, points, table)
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise BuildError(f"name must be a non-empty text, not {name!r}")
    rng = random.Random(seed)
    log: list[str] = []

    # 1-2. points and forces, chosen secretly (each drawn without the other, S001:10)
    forces = [choose_force(rng, budgets[s], opts) for s in range(2)]
    if swap_forces:
        forces.reverse()
        budgets = budgets[::-1]

    # 3. the scenario: two scenario points a side, spent alternately after a roll-off (S001:11-13)
    first, rolls = roll_off(rng)
    log.append(f"scenario roll-off (hits) {rolls}: {SIDE_NAMES[first]} spends the first scenario point")
    forced = sorted(o for o in opts if o in CONDITION)
    conditions = list(forced)
    deployment = objective = None
    dep_buyer = obj_buyer = None
    attacker_choice = {}
    for i in range(2 * SCENARIO_POINTS):
        side = first if i % 2 == 0 else 1 - first
        free_conditions = [c.name for c in CONDITIONS if c.name not in conditions
                           and not any(c.name in pair and any(o in conditions for o in pair) for pair in EXCLUSIVE)]
        charts = (["deployment"] if deployment is None else []) + (["objective"] if objective is None else []) \
            + (["conditions"] if free_conditions else [])
        if not charts:
            log.append(f"{SIDE_NAMES[side]} has nothing left to buy")
            continue
        chart = rng.choice(charts)
        if chart == "deployment":
            deployment, dep_buyer = rng.choice(DEPLOYMENTS), side
            attacker_choice["deployment"] = side if rng.random() < 0.5 else 1 - side
            log.append(f"{SIDE_NAMES[side]} buys deployment: {deployment.title}")
        elif chart == "objective":
            objective, obj_buyer = rng.choice(OBJECTIVES), side
            log.append(f"{SIDE_NAMES[side]} buys objective: {objective.title}")
        else:
            c = rng.choice(free_conditions)
            conditions.append(c)
            log.append(f"{SIDE_NAMES[side]} buys condition: {c}")
    if deployment is None:
        deployment = DEPLOYMENT["meeting"]
        log.append("no deployment bought: meeting engagement")
    if objective is None:
        objective = OBJECTIVE["centre"]
        log.append("no objective bought: hold the centre")
    if deployment.roles:
        attacker = attacker_choice["deployment"]
        log.append(f"{SIDE_NAMES[dep_buyer]} chooses that {SIDE_NAMES[attacker]} attacks")
    else:
        attacker = obj_buyer if objective.name == "demolition" else -1
    frame = _Frame(deployment.edges, w, h)
    zs = zones(deployment, frame.across, frame.along, defender=1 - attacker if attacker >= 0 else 1)
    rects = [frame.rect(z) for z in zs]
    objs, tasks = objective_points(objective.name, frame.across, frame.along, max(attacker, 0))
    objectives = [{"name": n, "position": list(map(_r, frame.xy(a, b))), "vp": vp} for n, a, b, vp in objs]
    task_docs = [{"name": n, "position": list(map(_r, frame.xy(a, b))), "vp": vp, "side": s}
                 for n, a, b, vp, s in tasks]

    # 4. terrain, placed alternately after a roll-off, 4" apart (S001:14)
    tfirst, trolls = roll_off(rng)
    log.append(f"terrain roll-off (hits) {trolls}: {SIDE_NAMES[tfirst]} places the first piece")
    keep = [box(*r) for r in rects] + [Point(o["position"]).buffer(3.0) for o in objectives + task_docs]
    terrain, obstacles, tlog = place_terrain(rng, w, h, tfirst, keep, SIDE_NAMES)
    log += tlog

    # 5. fortifications: none (RN-1158)
    log.append("fortifications: none (the engine has no rules for buildings and fortifications as targets yet)")

    # 6. deployment
    doc = {"name": name or f"built-{seed}", "table": {"width": w, "height": h}, "turn_limit": deployment.turns,
           "terrain": terrain, "obstacles": obstacles}
    bf = Battlefield(doc)
    placer = _Placer(bf, rng)
    sides = []
    spent = []
    for s in range(2):
        units, dummies = _deploy(rng, placer, forces[s], s, frame, rects[s], conditions, log)
        side = {"name": SIDE_NAMES[s], "home_edge": frame.home[s], "units": units}
        if dummies:
            side["dummies"] = dummies
        if "jamming" in conditions:
            side["comms"] = "d8"
            side["jammer"] = rng.choice(["d6", "d8"])
        sides.append(side)
        spent.append(sum(unit_points(u) for u in units))
    options: dict = {}
    if "night" in conditions:
        options["night"] = True
    if "jamming" in conditions:
        options["jamming"] = True
    if "chits" in conditions:
        options["activation"] = "chits"
    if "cards" in conditions:
        options["activation"] = "cards"
    if "seize" in conditions:
        options["seize_tokens"] = 1
    doc["options"] = options
    doc["objectives"] = objectives
    if task_docs:
        doc["tasks"] = task_docs
    doc["sides"] = sides
    roles = (f", {SIDE_NAMES[attacker]} attacking" if deployment.roles else "")
    doc["description"] = (f"Built from seed {seed}: {deployment.title}{roles}, objective {objective.title}"
                          + (f", conditions {', '.join(conditions)}" if conditions else "")
                          + f"; {SIDE_NAMES[0]} {spent[0]} points, {SIDE_NAMES[1]} {spent[1]} points "
                            f"(budget {budgets[0]}/{budgets[1]}); {deployment.turns} turns.")
    doc = {k: doc[k] for k in ("name", "description", "table", "turn_limit", "options", "terrain", "obstacles",
                               "objectives", "tasks", "sides") if k in doc}
    report = {"seed": seed, "budget": list(budgets), "points": spent, "deployment": deployment.name,
              "objective": objective.name, "conditions": conditions, "attacker": attacker,
              "scenario_first": first, "terrain_first": tfirst, "with": sorted(opts), "log": log,
              "zones": [list(r) for r in rects]}
    return doc, report


def _deploy(rng, placer: _Placer, force: list, s: int, frame: _Frame, rect, conditions: list, log: list):
    """Name, place and face one side's units; reinforcements and hidden units by the conditions."""
    counts: dict = {}
    units = []
    carrier_of: dict = {}
    for t, u in force:
        if t is HQ:
            u["name"] = HQ.label
        else:
            counts[t.key] = counts.get(t.key, 0) + 1
            u["name"] = f"{t.label} {counts[t.key]}"
            u["commander"] = HQ.label
        units.append((t, u))
    # transports and their passengers: a passenger follows its transport in the force list
    for i, (t, u) in enumerate(units):
        if t.passenger:
            carrier_of[i + 1] = i
    free = [i for i, (t, u) in enumerate(units) if t is not HQ and not t.passenger and i not in carrier_of]
    inbound = set()
    if "reinforcements" in conditions and free:
        k = max(1, len(units) // 3)
        inbound = set(rng.sample(free, min(k, len(free))))
    hide = set()
    if "hidden" in conditions:
        inf = [i for i in free if "design" not in units[i][1] and i not in inbound]
        hide = set(rng.sample(inf, len(inf) // 2))
    edge_strip = frame.rect((0.0, frame.across, 0.5, 3.0) if s == 0 else
                            (0.0, frame.across, frame.along - 3.0, frame.along - 0.5))
    x0, y0, x1, y1 = rect
    zone = (x0 + 0.5, y0 + 0.5, x1 - 0.5, y1 - 0.5)
    dummies = []
    hidden_units = 0
    for i, (t, u) in enumerate(units):
        if i in carrier_of:
            u["position"] = list(units[carrier_of[i]][1]["position"])
            u["carried_by"] = units[carrier_of[i]][1]["name"]
            continue
        if i in inbound:
            pos = placer.spot(u, edge_strip)
            u["inbound"] = rng.randint(1, 3)
        else:
            pos = placer.spot(u, zone, conceal=True) if i in hide else None
            if pos is not None:
                u["hidden"] = True
                hidden_units += 1
            else:
                pos = placer.spot(u, zone)
        if pos is None:
            raise BuildError(f"no room to deploy {u['name']!r} of {SIDE_NAMES[s]} in its zone")
        u["position"] = list(pos)
        placer.taken.append(pos)
        if u.get("hidden"):
            placer.markers.add(pos)
        if "design" in u:
            u["facing"] = frame.facing[s]
    probe = {"figures": [{"count": 1}]}
    for _ in range(hidden_units):  # up to two dummies per hidden unit (docs/scenarios.md)
        for _ in range(rng.randint(0, 2)):
            pos = placer.spot(probe, zone, conceal=True, tries=40)
            if pos is not None and hidden_units + len(dummies) < MAX_MARKERS // 2:
                dummies.append(list(pos))
                placer.markers.add(pos)
    if inbound:
        log.append(f"{SIDE_NAMES[s]} reinforcements: " + ", ".join(units[i][1]["name"] for i in sorted(inbound)))
    if hidden_units:
        log.append(f"{SIDE_NAMES[s]}: {hidden_units} hidden unit(s), {len(dummies)} dummy marker(s)")
    assert len(units) <= MAX_UNITS_PER_SIDE
    return [u for _, u in units], dummies
