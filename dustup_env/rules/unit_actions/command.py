"""Command (seed 000 "Commanders", "Communicate Action" incl. "Jamming", "Order Action", "Combined Assault",
"Rally Action" and the commander part of "Death of a Leader").

The command tree comes from the scenario: a unit's optional ``"commander"`` names its superior unit of the
same side (a platoon HQ commands its squads; a company HQ may command platoon HQs).  A unit with at least one
subordinate is a commander.  Options (vocabulary fixed by ``codec.FAMILIES``):

- ``("order", uid)``: communicate with a subordinate (any unit below in the tree), then it takes an ordered
  activation (two actions, no activation marker) before the commander's next action.
- ``("rally", uid)``: communicate, then the unit's quality die > unit LV + commander LV raises its confidence.
- ``("combined_assault", enemy)``: only when the close-assault engine (``assault_action.begin_assault``) is
  present: a ``choose`` decision picks two subordinates, both are ordered, then the assault is begun.
- Commander casualty: subordinates test (+1), a second in command takes over, or the side decides on a
  promotion (decision kind ``promote``: ``("choose", uid)`` / ``("decline",)``); the promoted unit's next
  activation is ``("reorganise", "assume_command")`` then ``("reorganise", "leader")``.
- The cascade: a promoted unit that commanded units of its own leaves that command vacant when it moves up;
  its side may then promote one of those units into it (the same ``promote`` decision), and so on down the
  tree (RN-305).

Readings of unclear passages: docs/rules-notes.md RN-219 to RN-225 and RN-247 to RN-251.
"""
from __future__ import annotations

import importlib
import math

from ..kernel.dice import die_name, die_sides, parse_die, shift_closed
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.entities import BROKEN, CONFIDENCE_NAMES, ROUTED, Unit
from ..morale.morale import confidence_test
from ..kernel.ruleset import Option, Rule
from ..kernel.decisions import Decision, Frame

AUTO_RANGE = 6.0  # communication needs no roll within 6" (leader to leader) with line of sight
DEFAULT_COMMS = "d8"  # a side's communications equipment quality when the scenario gives none (average)


# ---------------------------------------------------------------------------------------------- events
@event
class CommunicationAttempted(Event):
    sender: int
    receiver: int
    purpose: str  # order | rally | combined_assault
    automatic: bool  # within 6" with line of sight (or the commander's own unit): no roll
    die: str  # the communication die after the shifts ("" when automatic)
    roll: int
    needed: int  # must score higher
    bypassed: int  # command levels bypassed (one shift down each)
    jam_rolls: tuple  # (comms roll, jammer roll) or ()
    jam_shift: int
    success: bool


@event
class OrderGiven(Event):
    commander: int
    unit: int
    success: bool


@event
class RallyTested(Event):
    commander: int
    unit: int
    roll: int
    needed: int
    levels: int  # +2, +1, 0, -1 (confidence levels gained)
    confidence: str


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


@event
class CombinedAssaultOrdered(Event):
    commander: int
    target: int
    units: tuple
    success: tuple


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
    (units, commanders, u) (a fresh list is returned each time)."""
    units = game.units
    side = game.side_units[u.side]
    cmd = tuple([units[i].commander for i in side])
    key = (tuple(side), cmd, u.uid)
    hit = _DESCENDANTS.get(key)
    if hit is not None:
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
    _DESCENDANTS[key] = tuple(out)
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


# ---------------------------------------------------------------------------------------------- communicate
def _side_die(game, side: int, key: str, default: str | None):
    v = game.scenario["sides"][side].get(key, default)
    return None if v is None else parse_die(v)


def communicate(game, sender: Unit, receiver: Unit, purpose: str) -> bool:
    """Seed 000 "Communicate Action": the sender's quality die (shifted down once per bypassed command level
    and by jamming) must score higher than the worse LV of sender and receiver.  Automatic if the leaders are
    within 6" with line of sight (and for a commander's own unit)."""
    if sender.uid == receiver.uid or (
            math.hypot(sender.x - receiver.x, sender.y - receiver.y) <= AUTO_RANGE + 1e-9
            and game.bf.has_los(sender.x, sender.y, receiver.x, receiver.y)):
        game.emit(CommunicationAttempted(sender.uid, receiver.uid, purpose, True, "", 0, 0, 0, (), 0, True))
        return True
    levels = command_levels(game, sender, receiver)
    bypassed = max(0, (levels or 1) - 1)
    jam_rolls: tuple = ()
    jam = 0
    if game.options.get("jamming"):
        jammer = _side_die(game, 1 - sender.side, "jammer", None)
        if jammer is not None:
            comms = _side_die(game, sender.side, "comms", DEFAULT_COMMS)
            cr = game.dice.roll(comms)
            jr = game.dice.roll(jammer)
            jam_rolls = (cr, jr)
            jam = 2 if jr > 2 * cr else (1 if jr > cr else 0)  # minor -> one shift down, major -> two (RN-094)
    die = shift_closed(sender.quality, -(bypassed + jam))
    needed = max(sender.lv, receiver.lv)
    roll = game.dice.roll(die)
    ok = roll > needed
    game.emit(CommunicationAttempted(sender.uid, receiver.uid, purpose, False, die_name(die), roll, needed, bypassed,
                                     jam_rolls, jam, ok))
    return ok


# ---------------------------------------------------------------------------------------------- options
def _on_stack(game, uid: int) -> bool:
    for f in game.stack:
        if f.unit == uid:
            return True
    return False


def _assault_ready(game, v: Unit, e: Unit) -> bool:
    mod = assault_module()
    check = getattr(mod, "can_assault", None)
    if check is not None:
        return bool(check(game, v, e))
    if (not v.in_play or v.confidence >= BROKEN or v.suppression or v.panicked or v.leader_lost
            or v.disorganised()):
        return False
    reach = 4.0 * die_sides(v.movement)  # two moves of 2 x the movement die
    return math.hypot(v.x - e.x, v.y - e.y) <= reach


def _command_options(game, u: Unit, status) -> list:
    if status.disorganised or u.command_lost:
        return []  # a disorganised unit may only move or recover
    subs = descendants(game, u)
    if not subs:
        return []
    units = game.units
    f = game.stack[-1]
    done = f.data.get("ordered", ())
    opts = []
    for uid, _ in subs:
        v = units[uid]
        if v.in_play and v.confidence != ROUTED and uid not in done and not _on_stack(game, uid):
            opts.append(("order", uid))
    for v in [u] + [units[i] for i, _ in subs]:
        if v.in_play and v.confidence > v.initial_confidence and not v.panicked and not v.panic_routed:
            opts.append(("rally", v.uid))
    if f.actions_left >= 2 and assault_module() is not None:
        cands = [units[i] for i, _ in subs if i not in done and not _on_stack(game, i)]
        if len(cands) >= 2:
            mod = assault_module()
            if hasattr(mod, "may_assault") and hasattr(mod, "target_in_reach"):
                # can_assault = may_assault (the unit alone) and target_in_reach: the first part once per unit
                able = [v for v in cands if mod.may_assault(v)]
                if len(able) >= 2:
                    for e in game.enemy_units(u.side):
                        if sum(1 for v in able if mod.target_in_reach(game, v, e)) >= 2:
                            opts.append(("combined_assault", e.uid))
            else:
                for e in game.enemy_units(u.side):
                    if sum(1 for v in cands if _assault_ready(game, v, e)) >= 2:
                        opts.append(("combined_assault", e.uid))
    return opts


# ---------------------------------------------------------------------------------------------- actions
def _order(game, u: Unit, opt) -> bool:
    v = game.units[opt[1]]
    ok = communicate(game, u, v, "order")
    game.emit(OrderGiven(u.uid, v.uid, ok))
    if not ok:
        return True  # that action ends; the second action may try again
    game.activation_frame().data.setdefault("ordered", []).append(v.uid)
    game.start_activation(v, ordered=True)  # the commander's frame continues when it ends
    return False


def rally_roll(game, commander: Unit, v: Unit) -> int:
    """The rally test: quality die > unit LV + commander LV raises one level (never above the initial level).
    Optional rule (game option ``rally_double_half``): > 2 x target raises two, 2 x roll < target drops one."""
    needed = v.lv + commander.lv
    roll = game.dice.roll(v.quality)
    optional = game.options.get("rally_double_half", False)
    if roll > needed:
        levels = 2 if optional and roll > 2 * needed else 1
        new = max(v.initial_confidence, v.confidence - levels)
    elif optional and 2 * roll < needed:
        levels = -1
        new = min(ROUTED, v.confidence + 1)
    else:
        levels = 0
        new = v.confidence
    gained = v.confidence - new
    v.confidence = new
    game.emit(RallyTested(commander.uid, v.uid, roll, needed, gained, CONFIDENCE_NAMES[new]))
    return gained


def _rally(game, u: Unit, opt) -> bool:
    v = game.units[opt[1]]
    if communicate(game, u, v, "rally"):
        rally_roll(game, u, v)
    return True


_ASSAULT = False  # the close-assault module, looked up once (None if not present)


def assault_module():
    global _ASSAULT
    if _ASSAULT is False:
        try:
            m = importlib.import_module(".assault_action", __package__)
        except ImportError:
            m = None
        _ASSAULT = m if m is not None and hasattr(m, "begin_assault") else None
    return _ASSAULT


def _combined_assault(game, u: Unit, opt) -> bool:
    e = game.units[opt[1]]
    f = game.activation_frame()
    done = f.data.get("ordered", ())
    cands = [i for i, _ in descendants(game, u)
             if i not in done and not _on_stack(game, i) and _assault_ready(game, game.units[i], e)]
    game.stack.append(Frame("combined_assault", u.uid, 0, False,
                              {"commander": u.uid, "target": e.uid, "candidates": cands, "chosen": []}))
    return False


class CombinedAssaultProcedure:
    """Pick the two units (decision kind ``choose``), order both, then begin the multi-unit assault."""

    def decision(self, game, frame):
        c = game.units[frame.data["commander"]]
        chosen = frame.data["chosen"]
        return Decision(c.side, "choose", c.uid,
                          tuple(("choose", i) for i in frame.data["candidates"] if i not in chosen))

    def apply(self, game, frame, option):
        d = frame.data
        d["chosen"].append(option[1])
        if len(d["chosen"]) < 2:
            return
        game.stack.pop()
        c = game.units[d["commander"]]
        target = game.units[d["target"]]
        units = [game.units[i] for i in d["chosen"]]
        oks = tuple(communicate(game, c, v, "combined_assault") for v in units)
        game.emit(CombinedAssaultOrdered(c.uid, target.uid, tuple(d["chosen"]), oks))
        f = game.activation_frame()
        if all(oks):
            f.actions_left = 1  # both of the commander's actions: the assault's end counts the last one
            f.data.setdefault("ordered", []).extend(d["chosen"])
            assault_module().begin_assault(game, [v.uid for v in units], target.uid)
            if not game.over and game.stack and game.stack[-1] is f and f.actions_left == 1:
                game.action_done(c)  # the assault resolved at once without counting the action
        elif any(oks):
            ok = units[oks.index(True)]
            f.actions_left = 1  # the failed order's action ended; the other order stands as a plain order
            f.data.setdefault("ordered", []).append(ok.uid)
            game.start_activation(ok, ordered=True)
        else:
            game.action_done(c, used=2)


# ---------------------------------------------------------------------------------------------- death of a commander
def _on_leader_lost(game, u: Unit) -> None:
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
            game.stack.append(Frame("promote", u.uid, 0, False, {"lost": u.uid}))
            game.phase = "action"
            return True
        if u.vacated:
            if not vacancy_candidates(game, u):
                u.vacated = []
                continue
            game.stack.append(Frame("promote", u.uid, 0, False, {"lost": u.uid, "vacancy": True}))
            game.phase = "action"
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
        game.stack.pop()
        game.phase = "activate"
        game.next_activation()


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


# ---------------------------------------------------------------------------------------------- registration
def _has_commanders(scenario: dict, options: dict) -> bool:
    return any("commander" in u for side in scenario["sides"] for u in side["units"])


COMMANDERS = Rule(
    "Commanders", 'seed 000 "Commanders", "Death of a Leader" (the commander part)', applies=_has_commanders,
    init=(build_command_tree,), option_overrides=(_command_overrides,), on_leader_lost=(_on_leader_lost,),
    between_activations=(_between_activations,), procedures={"promote": PromotionProcedure()},
    reorganise={"assume_command": _assume_command})
ORDERS = Rule(
    "Communicate, Order and Rally Actions",
    'seed 000 "Communicate Action" (incl. "Jamming"), "Order Action", "Combined Assault", "Rally Action"',
    applies=_has_commanders,
    options=(Option("jamming", False, "Communicate › Jamming: a side's scenario 'jammer' die opposes the other "
                    "side's 'comms' die"),
             Option("rally_double_half", False, "optional Rally rule: more than double raises two levels, less "
                    "than half drops one")),
    actions={"order": _order, "rally": _rally, "combined_assault": _combined_assault},
    action_options=(_command_options,), procedures={"combined_assault": CombinedAssaultProcedure()})
