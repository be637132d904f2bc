"""Detect Action and Night Vision (seed 000, "Detect Action").

``("detect", marker_index)``: a unit leader with line of sight to an enemy marker (and within
detection range) attempts to detect it.  Opposed roll: the target rolls the range die (D8 under 12",
D10 under 24", D12 under 48"; not possible at 48" or more; shifted down one if the target is larger
than size 1), the observer rolls its quality die and its sensor die (unit ``"sensor"``: unaided D4,
aided D6, enhanced D8, superior D10).  Each observer die that scores higher than the target die is a
success: none = still hidden; one (minor) = the marker is removed if it is a dummy; two (major) = the
unit is revealed, or the dummy removed.

Night Vision (game option ``"night"``): with unaided vision the ranges are divided by 3 (4", 8",
16"); enhanced and superior sensors behave as in daylight.  Aided vision (binoculars) is not
"augmented vision", so it is divided too (rules notes).

Seed 003 Cover and Concealment (house rules, game option ``close_combat: "house"``): concealment "provides
a +1 range die shift for shooting and spotting", so a marker that is partially concealed from the observer
(in concealing terrain, or seen through it, as for shooting) shifts the range die up one (closed: a D12 stays
a D12; net of the size shift) -- RN-400.  The standard rules have no concealment shift for detection.

Dice order: target range die, observer quality die, observer sensor die.
"""
from __future__ import annotations

import math

from ..kernel.battlefield import observer_of
from ..kernel.dice import D8, D10, D12, die_name, shift_closed
from ..kernel.events import Event, event
from .hidden_units import MarkerRemoved, reveal
from .recover_suppression_action import acts_while_suppressed
from ..kernel.ruleset import Family, Option, Rule

DAYLIGHT_RANGES = ((12.0, D8), (24.0, D10), (48.0, D12))
MAX_RANGE = 48.0
NIGHT_DIVISOR = 3.0


@event
class DetectionAttempted(Event):
    observer: int
    marker: int
    range_die: str
    target_roll: int
    observer_dice: tuple  # (quality die, sensor die) names
    observer_rolls: tuple
    successes: int
    result: str  # none | minor | major


def night_limited(game, u) -> bool:
    """Night and the observer's vision is not augmented (unaided or aided, i.e. sensor below D8)."""
    return bool(game.options["night"]) and u.sensor < D8


def max_range(game, u) -> float:
    return MAX_RANGE / NIGHT_DIVISOR if night_limited(game, u) else MAX_RANGE


def range_die(distance: float, size: int = 1, night: bool = False, concealed: bool = False,
              damage: int = 0) -> int | None:
    """The target's range die, or None when detection is impossible at this distance.  ``concealed``: the
    seed 003 concealment shift (+1); ``damage``: the observer's vehicle damage markers (+1 each, seed 000 "Vehicle
    Damage": targets it tries to spot, RN-136); the net shift with the size shift (-1) is closed (D4..D12)."""
    div = NIGHT_DIVISOR if night else 1.0
    for limit, die in DAYLIGHT_RANGES:
        if distance < limit / div:
            return shift_closed(die, (-1 if size > 1 else 0) + (1 if concealed else 0) + damage)
    return None


def house_concealed(game, u, x: float, y: float) -> bool:
    """Seed 003 Cover and Concealment (house rules only): the point ``(x, y)`` is partially concealed from
    ``u``'s leader -- in concealing terrain, or seen through concealing terrain (as for shooting)."""
    if game.options["close_combat"] != "house":
        return False
    bf = game.bf
    return bf.conceals(x, y) or bf.sight_for(observer_of(u), u.x, u.y, x, y).concealed


def detect_options(game, u, status) -> list:
    """ACTION_PROVIDER: ("detect", i) for every enemy marker in range whose position the leader can see
    (whatever the marker hides: real and dummy markers are offered alike).  Not while disorganised (Cohesion: only
    move or recover) nor while suppressed: "Suppressed units may only: Defend if attacked / Reorganise if in cover
    / Prop / The leader may attempt to communicate, or remove suppression" (Recover Suppression Action, RN-244);
    vehicles, which "may continue to move and shoot while suppressed" (Suppression and Vehicles), may detect."""
    markers = game.markers
    if not markers or status.disorganised or (status.suppressed and not acts_while_suppressed(game, u)):
        return []
    reach = max_range(game, u)
    r2 = reach * reach
    sight = game.bf.sight_fn(observer_of(u))
    x, y, side = u.x, u.y, u.side
    opts = []
    for i, m in enumerate(markers):
        if m["removed"] or m["side"] == side:
            continue
        dx, dy = m["x"] - x, m["y"] - y
        if dx * dx + dy * dy >= r2:
            continue
        if sight(x, y, m["x"], m["y"]).visible:
            opts.append(("detect", i))
    return opts


def do_detect(game, u, opt) -> None:
    i = opt[1]
    m = game.markers[i]
    target = game.units[m["unit"]] if m["unit"] >= 0 else None
    dist = math.hypot(m["x"] - u.x, m["y"] - u.y)
    rdie = range_die(dist, target.size if target is not None else 1, night_limited(game, u),
                     house_concealed(game, u, m["x"], m["y"]), u.veh.damage)
    if rdie is None:  # pragma: no cover - not offered
        return
    dice = game.dice
    tr = dice.roll(rdie)
    q = dice.roll(u.quality)
    s = dice.roll(u.sensor)
    succ = (q > tr) + (s > tr)
    result = ("none", "minor", "major")[succ]
    game.emit(DetectionAttempted(u.uid, i, die_name(rdie), tr, (die_name(u.quality), die_name(u.sensor)),
                                 (q, s), succ, result))
    if succ == 0:
        return
    if target is None:
        m["removed"] = True
        game.emit(MarkerRemoved(i, "dummy"))
    elif succ == 2:
        reveal(game, target, "detected")


FAMILIES = (Family("detect", ("marker",), 28, "Detect Action on a hidden-unit marker"),)
RULE = Rule("Detect Action", 'seed 000 "Detect Action", "Night Vision"; seed 003 "Night Fighting"',
            families=FAMILIES,
            options=(Option("night", False, "a night game: detection ranges / 3 for unaided eyes (Night Vision), "
                            "+2 target die for firers without night vision (seed 003 Night Fighting)"),),
            actions={"detect": do_detect}, action_options=(detect_options,))
