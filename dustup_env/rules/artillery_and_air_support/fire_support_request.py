"""Requesting fire support (seed 000 "Indirect Fire › Request Fire Support Action", "Fire Support Chits",
"Successful Request", "Dummy Targets", L1616-1660; "Off-Table Fire", L1614) and the forward observers and
liaison officers who make requests ("Forces › Unit Types › Specialists", L1622).

* **Observers** (unit field ``observer``: ``"fo"``, a dedicated forward observer, or ``"lo"``, a liaison officer;
  L1622: "Some units, such as the platoon HQ, may include a dedicated Forward Observer (FO) or a Liaison Officer
  (LO)").  :func:`observer_role` reads it for any rule (the accuracy roll's D4 for an observer who is not an FO).
* **A side's fire support** (side field ``fire_support``: up to :data:`MAX_ASSETS` assets, each ``{"name",
  "firer"}`` and optionally ``"ammo"``, ``"size"``, ``"rounds"``, ``"missions"``, ``"from"``, ``"guidance"``,
  ``"difficulty"``): the firer is a class of the delay table (``company``, ``battalion``, ``regimental``,
  ``orbital``, ``air``: :data:`FIRERS`), which also says whether it is artillery, air or orbital support; its
  ``missions`` are how many successful requests it answers (default 1); ``from`` is ``platoon`` (the
  requestor's own: no shift), ``other_platoon`` (of the same company: the die one type down) or ``other_company``
  (two down), RN-1401; ``difficulty`` replaces the table's suggested value (L1638 fn 13).
* **The Request Fire Support Action** (``("request_fire", asset, chits)``, any unit that is not disorganised,
  RN-1402): a D8, shifted down for another platoon or company, up once per fire-support chit spent (game option
  ``fire_support_chits``: chits each side begins with), and down by jamming (game option ``jamming``: the enemy's
  jammer against the side's comms, as for a communication, RN-1404), closed; success when the roll exceeds the
  unit's leadership plus the difficulty of :data:`DIFFICULTY` (RN-1400: pairings the table leaves out).
  :func:`resolve_request` is the roll, shared with ``dustup odds request``.
* **A successful request**: the side places the target marker (``("fire_target", x, y)``, a cell of the point
  grid within the requestor's sight, RN-1403), and with the option ``fire_support_dummies`` two dummy markers
  (``("fire_dummy", x, y)``) (L1660).  The markers go on the table together once all are placed, in the order
  of their positions, as public table entities of kind ``fire_target`` whose state names the mission only: which
  one is real is the rules' own data (:class:`FireSupportState`) until the impact (RN-1406).  The mission's counter goes on
  the inbound track (:mod:`.fire_missions`).
* **The state** (:class:`FireSupportState`, one field ``fire_support``: ``{"left": [[missions left per asset] per
  side], "chits": [chits left per side], "missions": [every mission, both sides']}``, the form saves had before):
  read by other modules and the bots through :func:`fire_support_state`, :func:`missions_left`,
  :func:`chits_left` and :func:`.fire_missions.missions`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..kernel import table
from ..kernel.battlefield import observer_of
from ..kernel.decisions import Decision, Frame
from ..kernel.dice import D8, die_name, parse_die, shift_closed
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.measurement import grid_points
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.sequence import pop, push
from ..kernel.state import Component
from ..kernel.table import EntityKind
from . import on_table_artillery as ota

MARKER = "fire_target"  # the kind of table entity of target and dummy markers
MAX_ASSETS = 4  # fire-support assets a side (the action layout's asset slots)
MAX_CHITS = 4  # chits one request may spend (the layout's slots)
DUMMIES = 2  # dummy markers beside the real one (L1660: "the player may place three")


class FireSupportState(Component):
    """The fire support in play: ``fire_support`` is ``{"left": [[missions left per asset] per side], "chits":
    [chits left per side], "missions": [every mission of both sides, :mod:`.fire_missions`]}`` (None: a game
    without fire support).  Hidden: which marker is real is in the missions, so a side learns of it only through
    the rules' functions (its own missions, :func:`.fire_missions.missions`)."""

    __slots__ = ("fire_support",)


def fire_support_state(game) -> dict | None:
    """The fire support's state (``{"left", "chits", "missions"}``; None in a game without fire support)."""
    st = game.components.get(FireSupportState)
    return st.fire_support if st is not None else None


def missions_left(game, side: int) -> list:
    """The successful requests each of the side's assets still answers (empty without fire support)."""
    st = fire_support_state(game)
    return list(st["left"][side]) if st is not None else []


def chits_left(game, side: int) -> int:
    """The side's fire-support chits not yet spent (0 without fire support)."""
    st = fire_support_state(game)
    return st["chits"][side] if st is not None else 0

# the delay table's firers (L1648-1654) and the support each is, for the difficulty table
FIRERS = {"on_table": "artillery", "company": "artillery", "battalion": "artillery", "regimental": "artillery",
          "orbital": "orbital", "air": "air"}
REQUESTORS = ("fo", "lo", "other")
SUPPORTS = ("artillery", "air", "orbital")
# L1626-1632, the suggested difficulty by requestor and support; the pairings the table leaves out are "other"
# (RN-1400): an FO calling air or orbital support, an LO calling artillery
DIFFICULTY = {("fo", "artillery"): 0, ("other", "artillery"): 2, ("lo", "air"): 2, ("other", "air"): 4,
              ("lo", "orbital"): 3, ("other", "orbital"): 6}
FROM_SHIFT = {"platoon": 0, "other_platoon": 1, "other_company": 2}  # die types down (L1634, RN-1401)
AMMO = ("general", "anti_personnel", "anti_armour", "smoke", "incendiary")
SIZES = ("small", "medium", "large", "very_large")
GUIDANCE = ("none", "laser", "self")


def difficulty(requestor: str, support: str) -> int:
    """The table's difficulty of a request by ``requestor`` (fo, lo, other) for ``support`` (RN-1400)."""
    if requestor not in REQUESTORS:
        raise ValueError(f"requestor: one of {', '.join(REQUESTORS)}, not {requestor!r}")
    if support not in SUPPORTS:
        raise ValueError(f"support: one of {', '.join(SUPPORTS)}, not {support!r}")
    return DIFFICULTY.get((requestor, support), DIFFICULTY[("other", support)])


@dataclass(frozen=True)
class RequestResult:
    die: int  # the request die after its shifts
    roll: int
    needed: int  # the roll must exceed it: leadership + difficulty
    success: bool


def resolve_request(dice, *, leadership: int, requestor: str, support: str, chits: int = 0, down: int = 0,
                    jam: int = 0, diff: int | None = None) -> RequestResult:
    """One request roll (L1624-1642): a D8 shifted up once per chit, down ``down`` types for another platoon or
    company and ``jam`` for jamming (one net closed shift); it succeeds if it exceeds leadership + difficulty."""
    die = shift_closed(D8, chits - down - jam)
    needed = leadership + (difficulty(requestor, support) if diff is None else diff)
    roll = dice.roll(die)
    return RequestResult(die, roll, needed, roll > needed)


# ---------------------------------------------------------------------------------------------- scenario data
_ROLES: dict = {}


def _specs(scenario: dict) -> list:
    hit = _ROLES.get(id(scenario))
    if hit is not None and hit[0] is scenario:
        return hit[1]
    specs = [u for side in scenario["sides"] for u in side["units"]]  # uid order: side by side, in order
    if len(_ROLES) > 256:
        _ROLES.clear()
    _ROLES[id(scenario)] = (scenario, specs)
    return specs


def observer_role(game, uid) -> str:
    """``"fo"``, ``"lo"`` or ``"other"``: the unit's observer field (L1622); ``uid`` a unit or its uid (the service
    ``observer_role`` that the impacts call with the observing unit)."""
    uid = getattr(uid, "uid", uid)
    specs = _specs(game.scenario)
    return specs[uid].get("observer", "other") if 0 <= uid < len(specs) else "other"


def assets(game, side: int) -> list:
    """The side's fire-support assets (scenario data, defaults filled in; an on-table asset's ``unit`` is the uid of
    its firing unit, -1 if the side has no unit of that name; its ``size`` is None unless the scenario gives one: the
    piece's own round size then)."""
    sides = game.scenario["sides"]
    first = sum(len(sides[s]["units"]) for s in range(side))
    names = {u["name"]: first + i for i, u in enumerate(sides[side]["units"])}
    out = []
    for a in sides[side].get("fire_support", ()):
        out.append({"name": a["name"], "firer": a["firer"], "ammo": a.get("ammo", "general"),
                    "size": a.get("size", None if a.get("firer") == "on_table" else "medium"), "rounds": int(a.get("rounds", 1)),
                    "missions": int(a.get("missions", 1)), "from": a.get("from", "platoon"),
                    "guidance": a.get("guidance", "none"), "difficulty": a.get("difficulty"),
                    "unit": names.get(a["unit"], -1) if "unit" in a else None})
    return out


def _check_asset(game, a: dict, where: str) -> None:
    if a["firer"] not in FIRERS:
        raise ScenarioError(f"{where}: firer: one of {', '.join(FIRERS)}, not {a['firer']!r}")
    if (a["firer"] == "on_table") != (a["unit"] is not None):
        raise ScenarioError(f"{where}: unit: an on-table asset (firer on_table) names its firing unit, and only it")
    if a["unit"] is not None:
        if a["unit"] < 0:
            raise ScenarioError(f"{where}: unit: the side has no unit of that name")
        spec = _specs(game.scenario)[a["unit"]]
        if not any(f in spec and ota.design_has_artillery(f, spec[f], where) for f in ("heavy_weapon", "design")):
            raise ScenarioError(f"{where}: unit: the firing unit of on-table artillery has an artillery piece (a "
                                f"heavy weapon or a vehicle's weapon)")
    if a["size"] is None:  # an on-table piece's own round size (RN-616), given at the impact
        a = dict(a, size="medium")
    for key, allowed in (("ammo", AMMO), ("size", SIZES), ("from", tuple(FROM_SHIFT)), ("guidance", GUIDANCE)):
        if a[key] not in allowed:
            raise ScenarioError(f"{where}: {key}: one of {', '.join(allowed)}, not {a[key]!r}")
    for key in ("rounds", "missions"):
        if isinstance(a[key], bool) or a[key] < 1:
            raise ScenarioError(f"{where}: {key}: a whole number of at least 1, not {a[key]!r}")
    d = a["difficulty"]
    if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 0):
        raise ScenarioError(f"{where}: difficulty: a whole number of at least 0, not {d!r}")


def _init(game) -> None:
    markers = 1 + (DUMMIES if game.options["fire_support_dummies"] else 0)
    total = 0
    left = []
    for s, side in enumerate(game.scenario["sides"]):
        raw = side.get("fire_support", ())
        if len(raw) > MAX_ASSETS:
            raise ScenarioError(f"side {side['name']!r}: fire_support: at most {MAX_ASSETS} assets, not {len(raw)}")
        al = assets(game, s)
        for a in al:
            _check_asset(game, a, f"side {side['name']!r}: fire_support {a['name']!r}")
        left.append([a["missions"] for a in al])
        total += sum(a["missions"] for a in al) * markers
    if total > table.MAX_ENTITIES:
        raise ScenarioError(f"fire_support: the missions of both sides need {total} target markers; a game holds at "
                            f"most {table.MAX_ENTITIES} table entities")
    chits = game.options["fire_support_chits"]
    game.state_of(FireSupportState).fire_support = {"left": left, "chits": [chits, chits], "missions": []}


def has_fire_support(scenario: dict, options: dict) -> bool:
    return any(side.get("fire_support") for side in scenario["sides"])


# ---------------------------------------------------------------------------------------------- the action
_SIGHT: dict = {}


def sighted_points(game, u) -> tuple:
    """The cells of the point grid within the unit's sight (where it may place target markers, RN-1403)."""
    bf = game.bf
    obs = observer_of(u)
    key = (id(bf), u.x, u.y, obs)
    hit = _SIGHT.get(key)
    if hit is not None and hit[0] is bf:
        return hit[1]
    pts = tuple(p for p in grid_points(bf.width, bf.height) if bf.sight_for(obs, u.x, u.y, p[0], p[1]).visible)
    if len(_SIGHT) > 4096:
        _SIGHT.clear()
    _SIGHT[key] = (bf, pts)
    return pts


def markers_per_request(game) -> int:
    return 1 + (DUMMIES if game.options["fire_support_dummies"] else 0)


def _options(game, u, status):
    st = fire_support_state(game)
    if st is None or status.disorganised or not u.in_play:
        return []
    left = st["left"][u.side]
    if not any(left):
        return []
    need = markers_per_request(game)
    if len(game.entities) + need > table.MAX_ENTITIES or len(sighted_points(game, u)) < need:
        return []
    chits = min(st["chits"][u.side], MAX_CHITS)
    al = assets(game, u.side)
    return [("request_fire", a, k) for a, n in enumerate(left) if n and _may_call(game, u, al[a], need)
            for k in range(chits + 1)]


def _may_call(game, u, a: dict, need: int) -> bool:
    """An on-table asset may be called while the option ``artillery_indirect`` is on and its firing unit is in play,
    and the requestor sees enough points beyond the piece's minimum range for the markers (RN-1470)."""
    if a["unit"] is None:
        return True
    if not game.options.get("artillery_indirect", True) or not game.units[a["unit"]].in_play:
        return False
    return len(marker_points(game, u, a)) >= need


def marker_points(game, u, a: dict) -> tuple:
    """Where ``u``'s request for asset ``a`` may place its markers: the points it sees (RN-1403), and for an on-table
    piece only those at or beyond its minimum range (L1600-1602, RN-1470)."""
    pts = sighted_points(game, u)
    if a["unit"] is None:
        return pts
    f = game.units[a["unit"]]
    least = ota.indirect_minimum(game, f)
    if least <= 0:
        return pts
    return tuple(p for p in pts if math.hypot(p[0] - f.x, p[1] - f.y) >= least - 1e-9)


def jam_shift(game, side: int) -> tuple:
    """(rolls, shift): under the option ``jamming``, the enemy's jammer die against the side's comms die (default
    D8), as for a communication (RN-094): above it one type down, above double two (RN-1404)."""
    if not game.options.get("jamming"):
        return (), 0
    jammer = game.scenario["sides"][1 - side].get("jammer")
    if jammer is None:
        return (), 0
    cr = game.dice.roll(parse_die(game.scenario["sides"][side].get("comms", "d8")))
    jr = game.dice.roll(parse_die(jammer))
    return (cr, jr), 2 if jr > 2 * cr else (1 if jr > cr else 0)


@event
class FireSupportRequested(Event):
    unit: int
    asset: int  # index of the side's fire-support asset
    requestor: str  # fo, lo or other
    support: str  # artillery, air or orbital
    chits: int
    jam_rolls: tuple
    die: str
    roll: int
    needed: int
    success: bool


@event
class TargetMarkersPlaced(Event):
    side: int
    mission: int  # the side's mission number (fire_missions)
    points: tuple  # every marker (real and dummy), in the order of their positions: nothing says which is real


def _request(game, u, opt):
    _, a, chits = opt
    st = fire_support_state(game)
    asset = assets(game, u.side)[a]
    support = FIRERS[asset["firer"]]
    role = observer_role(game, u.uid)
    st["chits"][u.side] -= chits
    jam_rolls, jam = jam_shift(game, u.side)
    res = resolve_request(game.dice, leadership=u.lv, requestor=role, support=support, chits=chits,
                          down=FROM_SHIFT[asset["from"]], jam=jam, diff=asset["difficulty"])
    success = res.success
    ew = game.rules.services.get("ew_jam")  # Electronic Warfare's jamming (L2046), after the roll (RN-1943)
    if ew is not None and ew(game, u, None, res.die, res.roll):
        success = False
    game.emit(FireSupportRequested(u.uid, a, role, support, chits, jam_rolls, die_name(res.die), res.roll,
                                   res.needed, success))
    if not success:
        return None
    st["left"][u.side][a] -= 1
    push(game, Frame("fire_target", u.uid, 0, False, {"side": u.side, "asset": a, "points": [],
                                                       "at": [u.x, u.y]}))
    return False  # the frame's pop counts the action


class PlaceMarkers:
    """The requesting side places the target marker, then (option ``fire_support_dummies``) two dummies."""

    @staticmethod
    def decision(game, frame):
        d = frame.data
        u = game.units[frame.unit]
        taken = [tuple(p) for p in d["points"]]
        kind = "fire_dummy" if taken else "fire_target"
        a = assets(game, d["side"])[d["asset"]]
        opts = tuple((kind, x, y) for x, y in marker_points(game, u, a) if (x, y) not in taken)
        return Decision(d["side"], kind, frame.unit, opts)

    @staticmethod
    def apply(game, frame, opt):
        d = frame.data
        d["points"].append([opt[1], opt[2]])
        if len(d["points"]) < markers_per_request(game):
            game.invalidate()
            return
        # the mission's counter goes on the inbound track (fire_missions, through its service: no import cycle)
        game.rules.services["add_fire_mission"](game, d["side"], d["asset"], frame.unit,
                                                [tuple(p) for p in d["points"]])
        pop(game, frame)


FAMILIES = (
    Family("request_fire", (tuple(range(MAX_ASSETS)), tuple(range(MAX_CHITS + 1))), 120,
           "Request Fire Support: call this fire-support asset, spending this many fire-support chits"),
    Family("fire_target", ("point",), 121, "place the target marker of a successful fire-support request"),
    Family("fire_dummy", ("point",), 122, "place a dummy target marker (option fire_support_dummies)"),
)

RULE = Rule(
    "Request Fire Support Action", 'seed 000 "Indirect Fire › Request Fire Support Action", "Fire Support Chits", '
    '"Successful Request", "Dummy Targets"',
    applies=has_fire_support,
    options=(Option("fire_support_chits", 0, "Fire Support Chits: the chits each side begins with (each shifts a "
                    "request die up once; the rulebook suggests two)", kind="int", minimum=0),
             Option("fire_support_dummies", False, "Dummy Targets: a successful request places three target "
                    "markers, one real and two dummies, revealed at the impact")),
    init=(_init,),
    families=FAMILIES,
    action_options=(_options,),
    actions={"request_fire": _request},
    procedures={"fire_target": PlaceMarkers()},
    entity_kinds={MARKER: EntityKind("a fire-support target marker, real or dummy (which is real is not shown)")},
    services={"observer_role": observer_role},
)
