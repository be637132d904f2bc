"""Seize the Initiative (seed 000, "RULES OVERVIEW" > "Seize the Initiative").

Game option ``"seize_tokens"``: tokens per side (an int for both, or ``[side 0, side 1]``; 0 = the
standard rules).  Only with the alternating activation sequence ("interrupt the normal alternating
activation sequence").  Tokens awarded by the text's suggestions (RN-355):

* ``"seize_tokens_veterans"``: "each player might receive an initiative token for every veteran or
  elite unit in their army": +1 token per unit of veteran (D10) or elite (D12) quality at the start
  (after any random quality), on top of ``seize_tokens``.
* ``"seize_tokens_objectives"``: "an additional initiative token can be awarded during the game for
  achieving an objective": +1 token to a side the first time it holds each scenario objective (as for
  victory: an unrouted unit within 3" and no enemy one) and for each scenario task it completes.
  Checked whenever a normal activation is due (before the seize window), so a token earned in an
  activation can be spent from the next window on.

The window: whenever a normal activation is due (side A is about to choose a unit), the other side B
gets a decision of kind ``"seize"`` if it has a token and an unactivated unit in play:
``("seize", uid)`` spends a token to activate that unit now, ``("decline",)`` lets A activate.  After
a seize, A may take the initiative back if it has a token: ``("seize", uid)`` (decision kind
``"seize"`` for A) spends A's token, cancels B's activation (B's token stays spent, B's unit stays
unactivated) and activates A's unit instead; ``("decline",)`` lets B's unit activate.  Only one
take-back per window.  After the out-of-sequence activation the alternation continues with the other
side (after B's seized activation A is due again; after A's take-back, B is due).

An activation that is not a unit (the rule set's ``activation_options``, e.g. a pending fire mission) may be seized
too: its option is offered beside the units (a side with a token and only such activations left may seize); it
is applied at once (the rule set's ``activations``), and the due side is due again; there is no take-back of it.
"""
from __future__ import annotations

from ..kernel import events as ev
from ..kernel.dice import D10
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.decisions import Decision, Frame
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.sequence import activate, pop, push
from ..kernel.state import Component


class SeizeState(Component):
    """The rule's state: each side's tokens left, and (seize_tokens_objectives) the objectives and tasks that
    already earned a token, ``[[side 0's], [side 1's]]`` of ``"objective:<i>"`` / ``"task:<i>"``."""

    __slots__ = ("seize_tokens", "seize_awarded")
    PUBLIC = ("seize_tokens",)  # both sides know the tokens left


@event
class InitiativeSeized(Event):
    side: int
    unit: int
    tokens_left: int


@event
class InitiativeTakenBack(Event):
    side: int
    unit: int
    tokens_left: int


@event
class SeizeTokenAwarded(Event):
    side: int
    reason: str  # "objective" | "task"
    name: str
    tokens: int  # the side's tokens after the award


def _tokens_problem(t) -> str | None:
    if isinstance(t, bool) or not (isinstance(t, int) or (isinstance(t, (list, tuple)) and len(t) == 2
                                                          and all(isinstance(x, int) and not isinstance(x, bool)
                                                                  for x in t))):
        return f"must be an int or a list of two ints, not {t!r}"
    if min([t, t] if isinstance(t, int) else list(t)) < 0:
        return f"must not be negative: {t!r}"
    return None


def _tokens(t) -> list[int]:
    """The seize_tokens option as [side 0, side 1]."""
    return [t, t] if isinstance(t, int) else list(t)


def _applies(scenario: dict, options: dict) -> bool:
    return bool(any(_tokens(options["seize_tokens"])) or options["seize_tokens_veterans"]
                or options["seize_tokens_objectives"])


def _setup(game) -> None:
    tokens = _tokens(game.options["seize_tokens"])
    if game.options["seize_tokens_veterans"]:
        for u in game.units:
            if u.quality >= D10:  # veteran or elite
                tokens[u.side] += 1
    objectives = game.options["seize_tokens_objectives"]
    if any(tokens) or objectives:
        if game.options["activation"] != "alternate":
            raise ScenarioError("seize_tokens (and the seize_tokens_veterans / seize_tokens_objectives awards) need "
                                "the alternating activation sequence (activation: alternate)")
        st = game.state_of(SeizeState)
        st.seize_tokens = tokens
        if objectives:
            st.seize_awarded = [[], []]


def _award(game) -> None:
    """One token per objective first held and per task done, for each side (seize_tokens_objectives)."""
    st = game.components[SeizeState]
    awarded = st.seize_awarded
    tokens = st.seize_tokens
    for i, (name, ox, oy, _) in enumerate(game.objectives):
        side = game.objective_holder(ox, oy)
        key = f"objective:{i}"
        if side >= 0 and key not in awarded[side]:
            awarded[side].append(key)
            tokens[side] += 1
            game.emit(SeizeTokenAwarded(side, "objective", name, tokens[side]))
    tasks = game.scenario.get("tasks")
    if tasks:
        for u in game.units:
            for i in u.tasks_done:
                key = f"task:{i}"
                if key not in awarded[u.side]:
                    awarded[u.side].append(key)
                    tokens[u.side] += 1
                    game.emit(SeizeTokenAwarded(u.side, "task", tasks[i]["name"], tokens[u.side]))


def _candidates(game, side: int) -> list:
    return [uid for uid in game.side_units[side]
            if game.can_activate(game.units[uid]) and not game.units[uid].inbound]  # units only, not counters


def _others(game, side: int) -> list:
    """The side's activations that are not units (the rule set's ``activation_options``)."""
    out = []
    for hook in game.rules.activation_options:
        out.extend(hook(game, side))
    return out


def _window(game) -> None:
    """ACTIVATION_HOOK: side ``game.current`` is due; the other side may seize the initiative."""
    st = game.components.get(SeizeState)
    if st is None:
        return
    if st.seize_awarded is not None:
        _award(game)
    tokens = st.seize_tokens
    if not tokens:
        return
    other = 1 - game.current
    if tokens[other] > 0 and (_candidates(game, other) or _others(game, other)):
        push(game, Frame("seize", -1, 0, False, {"seizer": other, "due": game.current, "unit": -1}))


def _activate_now(game, side: int, uid: int) -> None:
    u = game.units[uid]
    u.activated = True
    game.current = side
    game.emit(ev.UnitActivated(side, uid))
    game.start_activation(u, ordered=False)


class SeizeProcedure:
    """Frame "seize": data = {seizer, due, unit (-1 before the seize, else the seizing unit)}."""

    @staticmethod
    def decision(game, frame):
        data = frame.data
        side = data["seizer"] if data["unit"] < 0 else data["due"]
        opts = [("seize", uid) for uid in _candidates(game, side)]
        if data["unit"] < 0:
            opts += _others(game, side)
        opts.append(("decline",))
        return Decision(side, "seize", -1, tuple(opts))

    @staticmethod
    def apply(game, frame, opt) -> None:
        data = frame.data
        tokens = game.components[SeizeState].seize_tokens
        if data["unit"] < 0:  # the side not due decides whether to seize
            if opt[0] == "decline":
                pop(game, frame, resume=False)  # the activate decision that was due stands
                return
            seizer = data["seizer"]
            tokens[seizer] -= 1
            if opt[0] != "seize":  # an activation that is not a unit, seized: applied now, then the due side
                game.emit(InitiativeSeized(seizer, -1, tokens[seizer]))
                pop(game, frame, resume=False)
                game.current = seizer
                activate(game, opt)  # as the kernel applies it: then the due side is due again
                return
            data["unit"] = opt[1]
            game.emit(InitiativeSeized(seizer, opt[1], tokens[seizer]))
            due = data["due"]
            if tokens[due] > 0:
                return  # the due side may take the initiative back (next decision)
            pop(game, frame, resume=False)
            _activate_now(game, seizer, opt[1])
            return
        pop(game, frame, resume=False)  # the due side answers the seize
        if opt[0] == "decline":
            _activate_now(game, data["seizer"], data["unit"])
            return
        due = data["due"]
        tokens[due] -= 1
        game.emit(InitiativeTakenBack(due, opt[1], tokens[due]))
        _activate_now(game, due, opt[1])


RULE = Rule(
    "Seize the Initiative", 'seed 000 "Seize the Initiative"', applies=_applies,
    options=(Option("seize_tokens", 0, "seize-the-initiative tokens per side (an int, or [side 0, side 1]); 0 = off",
                    kind="any", check=_tokens_problem),
             Option("seize_tokens_veterans", False, "one more seize token per veteran or elite unit at the start "
                    "(RN-355)"),
             Option("seize_tokens_objectives", False, "one more seize token when a side first holds an objective or "
                    "does a task")),
    families=(Family("seize", ("own",), 30, "Seize the Initiative: activate this unit out of sequence"),
              Family("decline", (), 31, "do not seize the initiative (or promote no one)")),
    init=(_setup,), activation_window=(_window,), procedures={"seize": SeizeProcedure()})
