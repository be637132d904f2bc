"""Order Action and Combined Assault (seed 000 "Order Action", "Combined Assault").

- ``("order", uid)``: the commander communicates with a subordinate (any unit below it in the command tree);
  on success the unit takes an ordered activation (two actions, no activation marker) before the commander's
  next action.  A reinforcement cannot be ordered in the turn it reaches the battle area ("may be activated on
  the next turn", RN-1000).
- ``("combined_assault", enemy)``: a commander with both actions left picks two subordinates that could each
  assault the enemy unit (decision kind ``choose``), orders both, and they assault it together (the Assault
  Action's multi-unit assault, found through the rule set's ``assault`` service: without the Assault Action
  in the rule set there is no combined assault).  One failed order leaves the other as a plain order.

The units a commander has ordered in its activation (each once per activation, L993) are this rule's state
(:class:`OrderState`), forgotten when that activation ends.
"""
from __future__ import annotations

from ..forces.commanders import descendants, on_stack
from ..kernel.decisions import Decision, Frame
from ..kernel.entities import ROUTED, Unit
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from ..kernel.sequence import pop, push
from ..kernel.state import Component, OLD_FORMS
from ..forces.commanders import has_commanders
from ..rules_overview.inbound_chart import arrived_this_turn
from .communicate_action import communicate


@event
class OrderGiven(Event):
    commander: int
    unit: int
    success: bool


@event
class CombinedAssaultOrdered(Event):
    commander: int
    target: int
    units: tuple
    success: tuple


class OrderState(Component):
    """The units each commander has ordered in its activation now on the stack (``{str(commander uid): [uids]}``;
    None when none: a game without orders saves nothing)."""

    __slots__ = ("orders_given",)


def ordered_by(game, commander: int) -> list:
    """The units ``commander`` has ordered in its current activation (each may be ordered once in it)."""
    st = game.components.get(OrderState)
    if st is None or not st.orders_given:
        return []
    return st.orders_given.get(str(commander), [])


def _note_ordered(game, commander: int, uids) -> None:
    st = game.state_of(OrderState)
    if st.orders_given is None:
        st.orders_given = {}
    st.orders_given.setdefault(str(commander), []).extend(uids)


def _forget_orders(game, u: Unit, frame) -> None:
    """Hook ``activation_end``: the commander's activation ended; its orders are forgotten."""
    st = game.components.get(OrderState)
    if st is not None and st.orders_given and frame.type == "activation":
        if st.orders_given.pop(str(u.uid), None) is not None and not st.orders_given:
            st.orders_given = None


def _old_form(game, stack: list, extra: dict) -> None:
    """The form of the first save format (its state digest): the list in the commander's activation frame's data
    under ``ordered``."""
    given = extra.pop("orders_given", None) or {}
    for uid, units in given.items():
        for f in reversed(stack):
            if f["type"] == "activation" and f["unit"] == int(uid):
                f["data"]["ordered"] = list(units)
                break


def _from_old_form(game) -> None:
    """A snapshot of the form before: the list in an activation frame's data goes to :class:`OrderState`."""
    for f in game.stack:
        if f.type == "activation" and "ordered" in f.data:
            _note_ordered(game, f.unit, f.data.pop("ordered"))


OLD_FORMS.append((_old_form, _from_old_form))


def _order_options(game, u: Unit, status) -> list:
    if status.disorganised or u.command_lost:
        return []  # a disorganised unit may only move or recover
    subs = descendants(game, u)
    if not subs:
        return []
    units = game.units
    done = ordered_by(game, u.uid)
    return [("order", uid) for uid, _ in subs if units[uid].in_play and units[uid].confidence != ROUTED
            and uid not in done and not on_stack(game, uid) and not arrived_this_turn(game, uid)]


def _order(game, u: Unit, opt) -> bool:
    v = game.units[opt[1]]
    ok = communicate(game, u, v, "order")
    game.emit(OrderGiven(u.uid, v.uid, ok))
    if not ok:
        return True  # that action ends; the second action may try again
    _note_ordered(game, u.uid, (v.uid,))
    game.start_activation(v, ordered=True)  # the commander's frame continues when it ends
    return False


def _combined_options(game, u: Unit, status) -> list:
    if status.disorganised or u.command_lost:
        return []
    assault = game.rules.services.get("assault")
    f = game.stack[-1]
    if assault is None or f.actions_left < 2:
        return []
    subs = descendants(game, u)
    done = ordered_by(game, u.uid)
    cands = [game.units[i] for i, _ in subs
             if i not in done and not on_stack(game, i) and not arrived_this_turn(game, i)]
    if len(cands) < 2:
        return []
    # can_assault = may_assault (the unit alone) and target_in_reach: the first part once per unit
    able = [v for v in cands if assault.may_assault(game, v)]
    if len(able) < 2:
        return []
    reach_of = getattr(assault, "assault_reach", None)  # once per unit (target_in_reach's default otherwise)
    reach = [(v, reach_of(v, game) if reach_of is not None else None) for v in able]
    return [("combined_assault", e.uid) for e in game.enemy_units(u.side)
            if sum(1 for v, r in reach if assault.target_in_reach(game, v, e, r)) >= 2]


def _combined_assault(game, u: Unit, opt) -> bool:
    e = game.units[opt[1]]
    done = ordered_by(game, u.uid)
    assault = game.rules.services["assault"]
    cands = [i for i, _ in descendants(game, u)
             if i not in done and not on_stack(game, i) and not arrived_this_turn(game, i)
             and assault.can_assault(game, game.units[i], e)]
    push(game, Frame("combined_assault", u.uid, 0, False,
                     {"commander": u.uid, "target": e.uid, "candidates": cands, "chosen": []}))
    return False


class CombinedAssaultProcedure:
    """Pick the two units (decision kind ``choose``), order both, then begin the multi-unit assault over this frame:
    the assault's pop resumes it and it pops, counting the commander's last action (no hand-back by hand)."""

    def decision(self, game, frame):
        c = game.units[frame.data["commander"]]
        chosen = frame.data["chosen"]
        return Decision(c.side, "choose", c.uid,
                          tuple(("choose", i) for i in frame.data["candidates"] if i not in chosen))

    def resume(self, game, frame, popped):
        """The assault popped: it is over, and the commander's last action counts."""
        pop(game, frame)

    def apply(self, game, frame, option):
        d = frame.data
        d["chosen"].append(option[1])
        if len(d["chosen"]) < 2:
            return
        c = game.units[d["commander"]]
        target = game.units[d["target"]]
        units = [game.units[i] for i in d["chosen"]]
        oks = tuple(communicate(game, c, v, "combined_assault") for v in units)
        game.emit(CombinedAssaultOrdered(c.uid, target.uid, tuple(d["chosen"]), oks))
        f = game.activation_frame()
        if not any(oks):
            pop(game, frame, used=2)  # both of the commander's actions
            return
        if all(oks):
            f.actions_left = 1  # both of the commander's actions: the assault's end counts the last one
            _note_ordered(game, c.uid, d["chosen"])
            d["stage"] = "assault"  # this frame waits below the assault, whose pop resumes it (resume)
            game.rules.services["assault"].begin(game, [v.uid for v in units], target.uid)
            if game.stack and game.stack[-1] is frame:
                pop(game, frame)  # an assault that resolved at once, pushing nothing: the last action counts
        else:
            pop(game, frame, resume=False)  # the orders go on below
            ok = units[oks.index(True)]
            f.actions_left = 1  # the failed order's action ended; the other order stands as a plain order
            _note_ordered(game, c.uid, (ok.uid,))
            game.start_activation(ok, ordered=True)


ORDER = Rule("Order Action", 'seed 000 "Order Action"', applies=has_commanders,
             families=(Family("order", ("own",), 20, "Order Action: (re)activate a subordinate"),),
             action_options=(_order_options,), actions={"order": _order}, activation_end=(_forget_orders,))
COMBINED_ASSAULT = Rule(
    "Combined Assault", 'seed 000 "Order Action › Combined Assault"', applies=has_commanders,
    families=(Family("combined_assault", ("enemy",), 22, "a commander orders two subordinates to assault this unit"),
              Family("choose", ("own",), 23, "pick a unit of one's own (the units of a combined assault, a promotion)")),
    action_options=(_combined_options,), actions={"combined_assault": _combined_assault},
    procedures={"combined_assault": CombinedAssaultProcedure()})
