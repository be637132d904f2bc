"""Regroup Action (seed 000 "Regroup Action").

"Regrouping allows two depleted units to combine.  This uses up the activation of both units, so
neither may already be activated unless the regroup is a result of a commander issuing orders ...
The two unit leaders must be within 6 inches of each other, but the activating unit may make one
move at the start of the activation to achieve this.  The resulting combined unit is then treated
as a single unit with the leadership of the best of the two original units, the unit quality of
the larger unit (or the lowest value if they are the same size) and the worse confidence of the
two units."

``("regroup", uid)`` is offered as the activating unit's FIRST action with a friendly unit that
has not activated this turn (in an activation ordered by a commander, also with one that has; never
with a unit whose activation is in progress, e.g. the ordering commander), when both have lost
figures ("depleted": fewer able-bodied figures than they started with), neither is a detachment,
and they wear the same armour (and cavalry with cavalry, mounted alike).  If the leaders are more
than 6" apart, the option includes the one move: it is offered only when the partner is within 6"
plus the unit's best possible move, and only to a unit that may move (not suppressed, propped,
shaken or worse, or in travel mode).  Applying it first moves toward the partner's leader (a
rolled move, one action); if the leaders are then within 6" the units combine, using the rest of
the activation, otherwise the move was the first action and the unit keeps its second.

``("regroup", uid)`` with one's own detachment is the detachment rejoining (one action; see
``detach_element_action``).
"""
from __future__ import annotations

import math

from ..kernel.battlefield import terrain_column
from ..kernel.data import armoury
from .detach_element_action import COMMAND_RANGE, add_figures, rejoin
from ..kernel.dice import die_name, die_sides
from ..kernel.events import Event, event
from ..kernel.entities import CONFIDENCE_NAMES, ROUTED, SHAKEN, Unit
from .move_action import reform
from ..kernel.ruleset import Family, Rule
from .move_action import begin_move
from ..kernel.decisions import Frame
from ..kernel.sequence import pop, push
from ..kernel.table import place


@event
class Regrouped(Event):
    unit: int
    partner: int
    lv: int
    quality: str
    confidence: str


def depleted(u: Unit) -> bool:
    return u.n_able() < u.strength


def _may_move(game, u: Unit, status) -> bool:
    return not status.suppressed and not u.propped and u.confidence < SHAKEN and not u.travel


def _partners(game, u: Unit):
    # "neither may already be activated unless the regroup is a result of a commander issuing orders to
    # reactivate one or both units" (RN-233): in an ordered activation the partner may already be activated
    # (the acting unit itself may be, by the command rules), but never one with an activation in progress.
    f = game.activation_frame()
    ordered = f is not None and f.ordered
    busy = {fr.unit for fr in game.stack}
    for uid in game.side_units[u.side]:
        p = game.units[uid]
        if (p is u or not p.in_play or (p.activated and not ordered) or p.uid in busy or p.parent >= 0
                or p.leader_lost or p.confidence == ROUTED
                or p.armour != u.armour or p.cavalry != u.cavalry or p.mounted != u.mounted or p.travel
                or not depleted(p)):
            continue
        yield p


def _options(game, u: Unit, status) -> list:
    if status.disorganised or u.parent >= 0 or game.actions_left != 2 or not depleted(u) or u.travel:
        return []
    reach = COMMAND_RANGE + 1e-9
    if _may_move(game, u, status):
        reach += 2.0 * die_sides(game.movement_die(u))
    opts = []
    for p in _partners(game, u):
        if math.hypot(p.x - u.x, p.y - u.y) <= reach:
            opts.append(("regroup", p.uid))
    return opts


def combine(game, u: Unit, p: Unit) -> None:
    """Merge ``p`` into ``u`` (``u`` keeps its uid and activation)."""
    n_u, n_p = u.n_alive(), p.n_alive()
    if n_u > n_p:
        quality = u.quality
    elif n_p > n_u:
        quality = p.quality
    else:
        quality = min(u.quality, p.quality)
    p_leads = p.lv < u.lv
    base = len(u.figures)
    p_leader = p.leader
    px, py = p.x, p.y
    add_figures(u, p)
    if p_leads:
        u.leader = base + p_leader
        place(game, u, px, py, "regroup")
    u.lv = min(u.lv, p.lv)
    u.quality = quality
    u.confidence = max(u.confidence, p.confidence)
    u.initial_confidence = max(u.initial_confidence, p.initial_confidence)
    u.suppression = max(u.suppression, p.suppression)
    u.propped = u.propped and p.propped
    u.complete_concealment = False
    u.grenades = u.grenades or p.grenades
    u.specialist_grenade = u.specialist_grenade or p.specialist_grenade
    u.heavy_equipment = u.heavy_equipment or p.heavy_equipment
    if (u.amphibious, u.wading) != (p.amphibious, p.wading):  # the merged unit keeps only what both can do
        u.amphibious = u.amphibious and p.amphibious
        u.wading = (u.wading or u.amphibious) and (p.wading or p.amphibious) and not u.amphibious
        u.terrain_column = terrain_column(armoury()[1][u.armour].power_armour, u.amphibious, u.wading)
    u.medical_team = u.medical_team and p.medical_team
    u.under_fire_before = u.under_fire_before or p.under_fire_before
    u.suppressed_before = u.suppressed_before or p.suppressed_before
    u.strength += p.strength
    u.left_behind.extend(p.left_behind)
    p.left_behind = []
    reform(u)
    u.loose = False
    p.location = "merged"
    p.activated = True
    svc = game.rules.services.get("regrouped")  # the equipment of p's that is not a figure's (heavy weapons)
    if svc is not None:
        svc(game, u, p)
    game.emit(Regrouped(u.uid, p.uid, u.lv, die_name(u.quality), CONFIDENCE_NAMES[u.confidence]))


def _do_regroup(game, u: Unit, opt):
    p = game.units[opt[1]]
    if p.parent == u.uid:
        rejoin(game, u, p)
        return None  # one action
    f = game.activation_frame()
    dist = math.hypot(p.x - u.x, p.y - u.y)
    if dist > COMMAND_RANGE + 1e-9:
        # the one move at the start of the activation: toward the partner's leader, stopping 5.5" short (the Move
        # Action's walk, over a "regroup" frame that goes on when the walk ends)
        k = (dist - (COMMAND_RANGE - 0.5)) / dist
        push(game, Frame(REGROUP, u.uid, 0, False, {"partner": p.uid}))
        return begin_move(game, u, u.x + (p.x - u.x) * k, u.y + (p.y - u.y) * k)
    combine(game, u, p)
    return f.actions_left  # it uses every action left


REGROUP = "regroup"


class RegroupAfterMove:
    """Frame ``regroup`` (data: ``partner``): the regrouping unit's move toward its partner has ended."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        u, p = game.units[frame.unit], game.units[frame.data["partner"]]
        if (not u.in_play or u.confidence == ROUTED or not p.in_play
                or math.hypot(p.x - u.x, p.y - u.y) > COMMAND_RANGE + 1e-9):
            pop(game, frame)  # the move was the first action; no regroup
            return
        combine(game, u, p)
        pop(game, frame, used=game.activation_frame().actions_left)  # it uses every action left


FAMILIES = (Family("regroup", ("own",), 26, "Regroup Action with this unit"),)
RULE = Rule("Regroup Action", 'seed 000 "Regroup Action"',
            families=FAMILIES, actions={"regroup": _do_regroup}, procedures={REGROUP: RegroupAfterMove()},
            action_options=(_options,))
