"""Detach Element Action (seed 000 "Detach Element Action").

"It takes one action to form a detachment and another action to regroup.  Regardless of the
relative size of the parent and detachment, the parent is always the element that contains the
unit leader.  Whenever the parent unit is activated, its leader may use an action to attempt to
activate the detachment.  This requires a communication test if the detachment is more than 6"
away or is no longer within line of sight.  If the communication test is successful, the
detachment may make two actions as if it was a normal unit."

Options (one action each):

* ``("detach", "half" | "support" | "scout")`` forms a NEW unit (appended to ``game.units`` and
  ``game.side_units[side]``, at most 12 per side) from some of the parent's figures; the parent
  keeps its leader.  ``scout``: two able-bodied figures (small arms first); ``support``: every
  able-bodied support-weapon figure; ``half``: half of the able-bodied figures (rounded down) and
  every treated wounded figure ("Once treated, wounded may be left in the care of a detachment").
  The detachment's first figure leads it; it copies the parent's quality, LV, confidence,
  commitment, suppression and prop (docs/rules-notes.md RN-226, RN-227).
* ``("activate_detachment", uid)``: the parent's leader activates its detachment: automatic within
  6" with line of sight, otherwise the communication test below; on success the detachment takes
  two actions as an ordered activation, after which the parent's activation continues.
* ``("regroup", uid)`` with one's own detachment within 6" (leader to leader): the detachment
  rejoins the parent (one action; see :func:`rejoin`, dispatched by ``regroup_action``).

A detachment has no activation of its own while its parent is in play (``Game.can_activate``).
"""
from __future__ import annotations

import math

from ..kernel.dice import D6
from ..kernel.events import Event, event
from ..kernel.entities import OK, TREATED, Figure, Unit
from .move_action import reform
from ..kernel.ruleset import Family, Rule
from ..kernel.data import armoury
from ..kernel.limits import PLATOON_SLOTS, unit_slots

COMMAND_RANGE = 6.0
DETACH_KINDS = ("half", "support", "scout")


@event
class Detached(Event):
    unit: int
    detachment: int
    what: str
    figures: int


@event
class Communicated(Event):
    unit: int
    receiver: int
    roll: int  # 0 = automatic (within 6" and line of sight)
    needed: int
    success: bool


@event
class Rejoined(Event):
    unit: int
    detachment: int


# ---------------------------------------------------------------------------- helpers
def figure_xy(u: Unit, i: int) -> tuple[float, float]:
    lf = u.figures[u.leader]
    f = u.figures[i]
    return u.x + f.dx - lf.dx, u.y + f.dy - lf.dy


def remove_figures(u: Unit, idxs) -> list[Figure]:
    """Take the figures ``idxs`` (never the leader) out of ``u``; remaps leader and fired indices."""
    drop = set(idxs)
    assert u.leader not in drop
    keep = [i for i in range(len(u.figures)) if i not in drop]
    new_index = {old: new for new, old in enumerate(keep)}
    taken = [u.figures[i] for i in sorted(drop)]
    u.figures = [u.figures[i] for i in keep]
    u.leader = new_index[u.leader]
    u.fired = {new_index[i] for i in u.fired if i in new_index}
    return taken


def add_figures(u: Unit, src: Unit) -> None:
    """Append ``src``'s figures to ``u`` in ``u``'s offset frame (positions kept)."""
    lf = u.figures[u.leader]
    bx, by = u.x - lf.dx, u.y - lf.dy  # where offset (0, 0) of u is
    sl = src.figures[src.leader]
    sbx, sby = src.x - sl.dx, src.y - sl.dy
    for f in src.figures:
        u.figures.append(f._replace(dx=sbx + f.dx - bx, dy=sby + f.dy - by))
    src.figures = []
    src.fired = set()


def leader_distance(a: Unit, b: Unit) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def communicate(game, sender: Unit, receiver: Unit) -> bool:
    """Communicate Action (small private version for detachments): automatic within 6" with line of
    sight; otherwise the sender's quality die must score higher than the worst (highest) LV."""
    needed = max(sender.lv, receiver.lv)
    if leader_distance(sender, receiver) <= COMMAND_RANGE + 1e-9 and game.bf.has_los(sender.x, sender.y,
                                                                                      receiver.x, receiver.y):
        game.emit(Communicated(sender.uid, receiver.uid, 0, needed, True))
        return True
    roll = game.dice.roll(sender.quality)
    ok = roll > needed
    ew = game.rules.services.get("ew_jam")  # Electronic Warfare's jamming (L2046), after the roll (RN-1942)
    if ew is not None and ew(game, sender, receiver, sender.quality, roll):
        ok = False
    game.emit(Communicated(sender.uid, receiver.uid, roll, needed, ok))
    return ok


def detachments_of(game, u: Unit) -> list[Unit]:
    units, me = game.units, u.uid
    return [v for v in (units[uid] for uid in game.side_units[u.side]) if v.parent == me and v.in_play]


def _weapon_class(w: str) -> str:
    return armoury()[0][w].cls


def detach_figures(u: Unit, what: str) -> list[int] | None:
    """Indices of the figures a ``what`` detachment would take (None: not possible)."""
    able = [i for i in u.able() if i != u.leader]
    if what == "scout":
        if len(able) < 2:
            return None
        sa = [i for i in able if _weapon_class(u.figures[i].weapon) == "small_arms"]
        ordered = sa[::-1] + [i for i in reversed(able) if i not in sa]  # the rearmost riflemen first
        return sorted(ordered[:2])
    if what == "support":
        sup = [i for i in able if _weapon_class(u.figures[i].weapon) != "small_arms"]
        return sup or None
    if what == "half":
        n = u.n_able() // 2
        if n < 1 or len(able) < n:
            return None
        treated = [i for i, f in enumerate(u.figures) if f.status == TREATED and i != u.leader]
        return sorted(able[-n:] + treated)
    return None


def room_for_detachment(game, side: int) -> bool:
    """Whether ``side`` has a unit slot left for a new detachment."""
    n_units = len(game.side_units[side])
    return n_units < PLATOON_SLOTS or n_units < unit_slots(game.scenario)


# ---------------------------------------------------------------------------- options
def _options(game, u: Unit, status) -> list:
    if status.disorganised:
        return []
    opts = []
    dets = detachments_of(game, u)
    for d in dets:  # the leader may communicate even while suppressed (RN-039)
        opts.append(("activate_detachment", d.uid))
    if status.suppressed:
        return opts
    for d in dets:
        if leader_distance(u, d) <= COMMAND_RANGE + 1e-9:
            opts.append(("regroup", d.uid))
    if u.parent < 0 and room_for_detachment(game, u.side):
        n_able = 0
        support = False
        weapons = armoury()[0]
        for i, f in enumerate(u.figures):
            if f.status == OK and i != u.leader:
                n_able += 1
                if not support and weapons[f.weapon].cls != "small_arms":
                    support = True
        if n_able >= 1:  # with the (able) leader: half of at least two
            opts.append(("detach", "half"))
        if support:
            opts.append(("detach", "support"))
        if n_able >= 2:
            opts.append(("detach", "scout"))
    return opts


# ---------------------------------------------------------------------------- actions
def detach(game, u: Unit, what: str, idxs=None) -> Unit:
    """Form a detachment of ``u``'s figures ``idxs`` (by default those :func:`detach_figures` picks for ``what``;
    another rule may name its own, never the leader, e.g. the mine-clearing model, ``what="lane"``)."""
    if idxs is None:
        idxs = detach_figures(u, what)
    positions = {i: figure_xy(u, i) for i in idxs}
    able_first = sorted(idxs, key=lambda i: (u.figures[i].status != OK, i))
    lead = able_first[0]
    lx, ly = positions[lead]
    lx = min(max(lx, 0.0), game.bf.width)  # figures of a formation may hang over the table edge
    ly = min(max(ly, 0.0), game.bf.height)
    figs = remove_figures(u, idxs)
    by_old = dict(zip(sorted(idxs), figs))
    figs = [by_old[i] for i in able_first]
    d = Unit.new(uid=len(game.units), side=u.side, name=f"{u.name}/{what}", kind="single" if len(figs) == 1 else "squad",
             quality=u.quality, lv=u.lv, confidence=u.confidence, initial_confidence=u.initial_confidence,
             commitment=u.commitment, movement=u.movement, armour=u.armour, x=lx, y=ly, figures=figs, leader=0,
             grenades=u.grenades, suppression=u.suppression, propped=u.propped,
             complete_concealment=u.complete_concealment, activated=u.activated,
             under_fire_before=u.under_fire_before, suppressed_before=u.suppressed_before,
             parent=u.uid, strength=len(figs), cavalry=u.cavalry, mounted=u.mounted,
             specialist_grenade=u.specialist_grenade, terrain_column=u.terrain_column, amphibious=u.amphibious,
             wading=u.wading, heavy_equipment=u.heavy_equipment, mobility=u.mobility)
    if u.cavalry and not u.mounted and not u.mounts_detached and not u.mobility:  # vehicles are left unattended
        d.mounted = True  # the detachment holds the dismounted unit's mounts (Cavalry)
        u.mounts_detached = True
    game.units.append(d)
    game.side_units[u.side].append(d.uid)
    game.emit(Detached(u.uid, d.uid, what, len(figs)))
    return d


def _do_detach(game, u: Unit, opt) -> None:
    detach(game, u, opt[1])


def _do_activate_detachment(game, u: Unit, opt):
    d = game.units[opt[1]]
    if communicate(game, u, d):
        game.start_activation(d, ordered=True)
        return False  # the parent's action is counted when the detachment's activation ends
    return None


def rejoin(game, u: Unit, d: Unit) -> None:
    """The detachment ``d`` rejoins its parent ``u`` (re-formed compactly; worse confidence, more suppression)."""
    add_figures(u, d)
    reform(u)
    u.loose = False
    u.confidence = max(u.confidence, d.confidence)
    u.suppression = max(u.suppression, d.suppression)
    if d.cavalry and d.mounted and u.mounts_detached:
        u.mounts_detached = False  # the mounts are back
    u.left_behind.extend(d.left_behind)
    d.left_behind = []
    d.location = "merged"
    game.emit(Rejoined(u.uid, d.uid))


FAMILIES = (Family("detach", (("half", "support", "scout"),), 24, "Detach Element Action"),
            Family("activate_detachment", ("own",), 25, "the parent's leader activates its detachment"),)
RULE = Rule("Detach Element Action", 'seed 000 "Detach Element Action"',
            families=FAMILIES,
            actions={"detach": _do_detach, "activate_detachment": _do_activate_detachment},
            action_options=(_options,))

__all__ = ["communicate", "detach", "room_for_detachment", "rejoin", "remove_figures", "add_figures", "figure_xy", "D6"]
