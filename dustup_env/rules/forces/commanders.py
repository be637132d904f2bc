"""Commanders (seed 000 "Commanders") and the commander part of "Death of a Leader".

The command tree comes from the scenario: a unit's optional ``"commander"`` names its superior unit of the
same side (a platoon HQ commands its squads; a company HQ may command platoon HQs).  A unit with at least one
subordinate is a commander; its orders and rallies are :mod:`..unit_actions.order_action` and
:mod:`..unit_actions.rally_action`.

When a commander becomes a casualty its subordinates test (+1); a second in command takes over, or the side
decides on a promotion (decision kind ``promote``: ``("choose", uid)`` / ``("decline",)``); the promoted
unit's next activation is ``("reorganise", "assume_command")`` then ``("reorganise", "leader")``.  The
cascade: a promoted unit that commanded units of its own leaves that command vacant when it moves up; its
side may then promote one of those units into it (the same ``promote`` decision), and so on down the tree
(RN-305).  Readings: docs/rules-notes.md RN-219 to RN-225 and RN-247 to RN-251.
"""
from __future__ import annotations

from ..kernel.decisions import Decision, Frame
from ..kernel.entities import ROUTED, Unit
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Rule
from ..kernel.sequence import pop, push
from ..morale.confidence_test import confidence_test


@event
class CommanderLost(Event):
    unit: int
    second_in_command: bool  # the HQ's second in command takes over
    subordinates: tuple


@event
class PromotionChosen(Event):
    side: int
    lost: int  # the command unit whose commander fell
    unit: int  # the promoted unit, -1 = declined


@event
class PromotionLapsed(Event):
    unit: int
    lost: int


@event
class CommandAssumed(Event):
    unit: int
    lost: int


@event
class CommandVacated(Event):
    unit: int  # moved up to a higher command
    subordinates: tuple  # its former direct subordinates: their command may be filled by a promotion


# ---------------------------------------------------------------------------------------------- the tree
def build_command_tree(game) -> None:
    """Resolve the scenario's ``commander`` names into uids (ScenarioError on unknown, ambiguous or cyclic)."""
    for s, side in enumerate(game.scenario["sides"]):
        uids = game.side_units[s]
        by_name: dict = {}
        for i, spec in enumerate(side["units"]):
            by_name.setdefault(spec["name"], []).append(uids[i])
        for i, spec in enumerate(side["units"]):
            name = spec.get("commander")
            if name is None:
                continue
            where = f"scenario {game.scenario['name']!r}: side {side['name']!r}: unit {spec['name']!r}"
            found = by_name.get(name)
            if not found:
                raise ScenarioError(f"{where}: commander {name!r} is not a unit of the same side")
            if len(found) > 1:
                raise ScenarioError(f"{where}: commander {name!r} is ambiguous ({len(found)} units have that name)")
            if found[0] == uids[i]:
                raise ScenarioError(f"{where}: a unit cannot be its own commander")
            game.units[uids[i]].commander = found[0]
        for uid in uids:  # no cycles
            seen = {uid}
            c = game.units[uid].commander
            while c >= 0:
                if c in seen:
                    raise ScenarioError(f"scenario {game.scenario['name']!r}: side {side['name']!r}: the command "
                                        f"chain of unit {game.units[uid].name!r} is a cycle")
                seen.add(c)
                c = game.units[c].commander


def subordinates(game, u: Unit) -> list[int]:
    """Units directly commanded by ``u``."""
    units = game.units
    return [i for i in game.side_units[u.side] if units[i].commander == u.uid]


def descendants(game, u: Unit) -> list[tuple[int, int]]:
    """Every unit below ``u`` in the command tree, as (uid, depth) with depth 1 = direct subordinate.

    The tree is a function of the side's units and their ``commander`` fields: the walk is remembered per
    (units, commanders, u), and while an action decision is built in ``game.memo`` (a fresh list each time)."""
    memo = game.memo  # while an action decision is built
    if memo is not None:
        hit = memo.get(("descendants", u.uid))
        if hit is not None:
            return list(hit)
    units = game.units
    side = game.side_units[u.side]
    cmd = tuple([units[i].commander for i in side])
    key = (tuple(side), cmd, u.uid)
    hit = _DESCENDANTS.get(key)
    if hit is not None:
        if memo is not None:
            memo[("descendants", u.uid)] = hit
        return list(hit)
    out = []
    frontier = [u.uid]
    depth = 0
    while frontier and depth < 16:
        depth += 1
        nxt = [i for i, c in zip(side, cmd) if c in frontier]
        out.extend((i, depth) for i in nxt)
        frontier = nxt
    if len(_DESCENDANTS) > 20_000:
        _DESCENDANTS.clear()
    _DESCENDANTS[key] = hit = tuple(out)
    if memo is not None:
        memo[("descendants", u.uid)] = hit
    return out


_DESCENDANTS: dict = {}


def is_commander(game, u: Unit) -> bool:
    return not u.command_lost and any(game.units[i].commander == u.uid for i in game.side_units[u.side])


def command_levels(game, a: Unit, b: Unit) -> int | None:
    """Levels between two units of one tree (1 = immediate commander/subordinate), None if unrelated."""
    up_a = {a.uid: 0}
    c, k = a.commander, 0
    while c >= 0 and k < 64:
        k += 1
        up_a[c] = k
        c = game.units[c].commander
    c, k = b.uid, 0
    while c >= 0 and k < 64:
        if c in up_a:
            return up_a[c] + k
        k += 1
        c = game.units[c].commander
    return None


def on_stack(game, uid: int) -> bool:
    """The unit has a frame on the decision stack (it is acting, or being acted for)."""
    for f in game.stack:
        if f.unit == uid:
            return True
    return False


def has_commanders(scenario: dict, options: dict) -> bool:
    return any("commander" in u for side in scenario["sides"] for u in side["units"])


# ---------------------------------------------------------------------------------------------- death of a commander
def on_leader_lost(game, u: Unit) -> None:
    units = game.units
    if u.assume_command >= 0:  # the promoted figure fell before assuming command: the promotion lapses
        lost = units[u.assume_command]
        u.assume_command = -1
        if u.assume_vacancy:  # a cascade promotion: the vacancy is offered again
            lost.vacated = u.assume_vacancy
            u.assume_vacancy = []
        else:
            lost.promotion_pending = True
        game.emit(PromotionLapsed(u.uid, lost.uid))
    u.vacated = []  # its whole command is lost now: the ordinary promotion (below) replaces the cascade
    if u.command_lost:
        return
    subs = descendants(game, u)
    if not subs:
        return
    game.emit(CommanderLost(u.uid, u.second_in_command, tuple(i for i, _ in subs)))
    for i, _ in subs:
        v = units[i]
        if v.in_play:
            confidence_test(game.dice, v, [], extra=1, extra_reason="commander_casualty", events=game.events)
    if u.second_in_command:
        u.second_in_command = False  # takes command of the HQ, which appoints a leader as a normal unit
    else:
        u.command_lost = True
        u.promotion_pending = True


def promotion_candidates(game, lost: Unit) -> list[int]:
    units = game.units
    return [i for i in subordinates(game, lost)
            if units[i].in_play and units[i].confidence != ROUTED and not units[i].leader_lost
            and not units[i].command_lost and units[i].assume_command < 0 and not units[i].panicked]


def vacancy_candidates(game, u: Unit) -> list[int]:
    """The units that may be promoted into the command ``u`` left when it moved up (the cascade)."""
    units = game.units
    return [i for i in u.vacated
            if units[i].commander == u.uid and units[i].in_play and units[i].confidence != ROUTED
            and not units[i].leader_lost and not units[i].command_lost and units[i].assume_command < 0
            and not units[i].panicked]


def _between_activations(game) -> bool:
    for u in game.units:
        if u.promotion_pending:
            if not promotion_candidates(game, u):
                u.promotion_pending = False
                continue
            push(game, Frame("promote", u.uid, 0, False, {"lost": u.uid}))
            return True
        if u.vacated:
            if not vacancy_candidates(game, u):
                u.vacated = []
                continue
            push(game, Frame("promote", u.uid, 0, False, {"lost": u.uid, "vacancy": True}))
            return True
    return False


class PromotionProcedure:
    """Decision kind ``promote``: ``("choose", uid)`` promotes a direct subordinate, ``("decline",)`` does not.
    With ``frame.data["vacancy"]`` the command is the one ``lost`` left when it was promoted (the cascade)."""

    def decision(self, game, frame):
        lost = game.units[frame.data["lost"]]
        cands = vacancy_candidates(game, lost) if frame.data.get("vacancy") else promotion_candidates(game, lost)
        return Decision(lost.side, "promote", lost.uid, tuple(("choose", i) for i in cands) + (("decline",),))

    def apply(self, game, frame, option):
        lost = game.units[frame.data["lost"]]
        uid = option[1] if option[0] == "choose" else -1
        if frame.data.get("vacancy"):
            if uid >= 0:
                game.units[uid].assume_vacancy = list(lost.vacated)
            lost.vacated = []  # if declined, the promoted commander keeps those units under its direct command
        else:
            lost.promotion_pending = False
        if uid >= 0:
            game.units[uid].assume_command = lost.uid
        game.emit(PromotionChosen(lost.side, lost.uid, uid))
        pop(game, frame)  # the sequence goes on: the next promotion, or the activation due


def _command_overrides(game, u: Unit, frame):
    if u.assume_command >= 0 and not u.leader_lost:
        return [("reorganise", "assume_command")]
    return None


def _assume_command(game, u: Unit) -> None:
    """First reorganise action of a promoted unit: its leader takes the lost commander's place; the unit then
    reorganises for a new leader of its own (Death of a Leader: a D6 for the new LV) with its second action."""
    lost = game.units[u.assume_command]
    own = subordinates(game, u)  # the command it leaves (before taking over the new one)
    if u.assume_vacancy:  # the cascade: it takes over the units its promoted superior commanded, under it
        for i in u.assume_vacancy:
            v = game.units[i]
            if v.commander == lost.uid and v.uid != u.uid:
                v.commander = u.uid
        u.assume_vacancy = []
    else:
        for i in game.side_units[u.side]:
            v = game.units[i]
            if v.commander == lost.uid and v.uid != u.uid:
                v.commander = u.uid
        u.commander = lost.commander
        lost.commander = u.uid  # the leaderless HQ serves under the new commander
    if own:  # "This may result in a cascade of new leader appointments"
        u.vacated = own
        game.emit(CommandVacated(u.uid, tuple(own)))
    u.assume_command = -1
    u.command_lost = False
    u.leader_lost = True  # the second reorganise action appoints the unit's new leader
    game.emit(CommandAssumed(u.uid, lost.uid))


RULE = Rule(
    "Commanders", 'seed 000 "Commanders", "Death of a Leader" (the commander part)', applies=has_commanders,
    init=(build_command_tree,), option_overrides=(_command_overrides,), on_leader_lost=(on_leader_lost,),
    between_activations=(_between_activations,), procedures={"promote": PromotionProcedure()},
    reorganise={"assume_command": _assume_command})
