"""The turn sequence on the decision stack: push, pop and resume; the reaction windows; activations.

The decision stack is an interpreter.  The top :class:`~.decisions.Frame` owns the pending decision; a rule
:func:`push`\\ es a frame for each multi-step procedure (an assault, a placement, a move's walk, a reaction) and
:func:`pop`\\ s it when the procedure is done, and popping **resumes the frame below**:

* an ``"activation"`` frame counts the actions the popped frame used (``used``, 1 unless said; a reaction uses
  none) and ends the activation when none are left;
* a procedure frame goes on through its procedure's ``resume(game, frame, popped)`` (a move's walk continues from
  where it was, the move-and-fire action counts its action, ...);
* with nothing below, the turn sequence goes on: the next activation (``resume=False``: the activate decision
  that was due when the frame was pushed stands, as when a side declines to seize the initiative).

No rule hands control back by hand.  A frame's continuation is plain data (``Frame.data``), so it is copied,
saved and digested with the rest of the state.

**Reaction windows** (:data:`~.ruleset.REACTION_WINDOWS`, ``Rule.reactions``) are named points of the kernel
where rules may push frames: decisions of whichever side may react.  The action they interrupt waits below them
(a move's walk in its frame; at a turn's start or end and at an activation's end a kernel frame that holds
where the sequence was) and goes on when the last of them is popped, or stops if the reaction stopped it.

**Activations that are not units** (a pending fire mission): ``activation_options`` hooks add options to the
activate decision, ``pending_activations`` hooks count them in :func:`unactivated` (which every activation
sequence asks: alternate, chits, cards, seizing the initiative), and the ``activations`` mapping applies them.

:class:`~.game.Game` binds the functions below as its methods (``game.next_activation()``, ...).
"""
from __future__ import annotations

from . import events as ev
from .decisions import Decision, Frame
from .dice import D8

ACTIVATION = "activation"


# ---------------------------------------------------------------------------------------------- the stack
def push(game, frame: Frame) -> Frame:
    """Put ``frame`` on top of the stack: it owns the next decision (or resumes when the frames above it pop)."""
    game.stack.append(frame)
    game.phase = "action"
    game.pending_decision = None
    return frame


def pop(game, frame: Frame | None = None, used: int = 1, resume: bool = True) -> Frame:
    """Take ``frame`` (the top one by default) off the stack and resume what it interrupted: the frame below (an
    activation counts ``used`` actions; a procedure's ``resume``; a procedure without one is a decision that waited
    under the popped frame, as when one reaction window pushes two: its decision is next), or with nothing below the
    next activation.
    ``resume=False``: nothing resumes (the caller goes on itself; with the stack empty the activate decision
    that was due stands)."""
    stack = game.stack
    if frame is None or stack[-1] is frame:
        frame = stack.pop()
    else:
        stack.remove(frame)
    if game.phase == "over":
        return frame
    if stack:
        if resume:
            below = stack[-1]
            if below.type == ACTIVATION:
                action_done(game, game.units[below.unit], used)
            else:
                proc = KERNEL_FRAMES.get(below.type) or game.rules.procedures[below.type]
                resume_below = getattr(proc, "resume", None)
                if resume_below is not None:
                    resume_below(game, below, frame)
                else:  # a decision frame that waits (two reactions pushed in one window): its decision is next
                    game.phase = "action"
                    game.pending_decision = None
        return frame
    game.phase = "activate"
    if resume:
        next_activation(game)
    return frame


def window(game, name: str, resume_frame: Frame | None, *args) -> bool:
    """Open reaction window ``name``: its hooks (``f(game, *args)``) may push frames.  True if any did: the
    interrupted action then waits (``resume_frame``, a kernel frame that holds where the sequence was, goes under
    the pushed frames; without it the frame already below them resumes)."""
    stack = game.stack
    n = len(stack)
    for hook in game.rules.reactions[name]:
        hook(game, *args)
    if len(stack) == n:
        return False
    if resume_frame is not None:
        stack.insert(n, resume_frame)
    return True


class _TurnStart:
    """Kernel frame ``turn_start``: a turn began and reactions were pushed; the activations begin after them."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        pop(game, frame, resume=False)
        begin_activations(game)


class _TurnEnd:
    """Kernel frame ``turn_end``: the turn ended and reactions were pushed; the next turn starts after them."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        pop(game, frame, resume=False)
        start_turn(game)


class _ActivationEnd:
    """Kernel frame ``activation_end`` (over the activation frame): its actions are done and reactions were
    pushed; the activation ends after them."""

    @staticmethod
    def resume(game, frame, popped) -> None:
        pop(game, frame, resume=False)
        close_activation(game)


KERNEL_FRAMES = {"turn_start": _TurnStart, "turn_end": _TurnEnd, "activation_end": _ActivationEnd}


# ---------------------------------------------------------------------------------------------- the turn
def start_turn(game) -> None:
    """A new turn: activation markers removed, the ``turn_start`` hooks and window, then the initiative (or the
    random activation sequence)."""
    game.turn += 1
    if game.turn > game.turn_limit:
        game.turn = game.turn_limit
        game.end_game("turn limit")
        return
    for u in game.units:
        u.activated = False
    game.events.append(ev.TurnStarted(game.turn))
    for hook in game.rules.turn_start:
        hook(game)
        if game.phase == "over":
            return
    if game.rules.reactions["turn_start"] and window(game, "turn_start", Frame("turn_start")):
        return
    begin_activations(game)


def begin_activations(game) -> None:
    """The turn's activations begin: the rule set's activation sequence, or the initiative roll."""
    seq = game.rules.activation_sequences.get(game.options["activation"])
    if seq is not None:
        seq.start_turn(game)
        return
    while True:  # D8 each; ties are re-rolled
        r0 = game.dice.roll(D8)
        r1 = game.dice.roll(D8)
        if r0 != r1:
            break
    game.initiative_winner = 0 if r0 > r1 else 1
    game.events.append(ev.InitiativeRolled((r0, r1), game.initiative_winner))
    game.current = game.initiative_winner
    game.phase = "initiative"


def end_turn(game) -> None:
    """Every activation of the turn is done: the ``turn_end`` hooks and window, then the next turn."""
    game.events.append(ev.TurnEnded(game.turn))
    for hook in game.rules.turn_end:
        hook(game)
        if game.phase == "over":
            return
    if game.rules.reactions["turn_end"] and window(game, "turn_end", Frame("turn_end")):
        return
    start_turn(game)


def choose_initiative(game, opt) -> None:
    w = game.initiative_winner
    game.current = w if opt[0] == "first" else 1 - w
    game.events.append(ev.InitiativeChosen(w, game.current))
    game.phase = "activate"
    next_activation(game)


# ---------------------------------------------------------------------------------------------- activations
def can_activate(game, u) -> bool:
    """May activate in the normal sequence (a detachment acts only through its parent while that is in play;
    a reinforcement's counter on the inbound track moves instead, ``("inbound", uid)``)."""
    if u.activated:
        return False
    if not u.in_play:
        return u.inbound > 0
    return u.parent < 0 or not game.units[u.parent].in_play


def unactivated(game, side: int) -> int:
    """The activations ``side`` still has this turn: its units that may activate and the rule set's pending
    activations that are not units (``pending_activations``)."""
    n = 0
    units = game.units
    for uid in game.side_units[side]:
        if can_activate(game, units[uid]):
            n += 1
    for hook in game.rules.pending_activations:
        n += hook(game, side)
    return n


def next_activation(game) -> None:
    """The next activation of the sequence is due (or the turn ends)."""
    if game.phase == "over":
        return
    seq = game.rules.activation_sequences.get(game.options["activation"])
    if seq is not None:
        seq.next(game)
        return
    if unactivated(game, game.current) == 0:
        game.current = 1 - game.current
        if unactivated(game, game.current) == 0:
            end_turn(game)
            return
    game.phase = "activate"
    for hook in game.rules.between_activations:
        if hook(game):  # it pushed a procedure frame (its pop resumes the sequence here)
            return
    for hook in game.rules.activation_window:
        hook(game)


def activate_decision(game) -> Decision:
    """The activate decision of the side due: its units that may activate (a reinforcement's counter moves
    instead), the rule set's other activations, and pass (alternate: while it has fewer activations left than
    the other side; a random sequence decides)."""
    side = game.current
    units = game.units
    seq = game.rules.activation_sequences.get(game.options["activation"])
    if seq is not None and not getattr(seq, "offers_units", _yes)(game):
        opts = []  # (a card of an activation that is not a unit)
    else:
        opts = [("inbound" if units[uid].inbound else "activate", uid) for uid in game.side_units[side]
                if can_activate(game, units[uid])]
    n = len(opts)  # (== unactivated(side): both count the units can_activate accepts, and the pending ones)
    for hook in game.rules.pending_activations:
        n += hook(game, side)
    for hook in game.rules.activation_options:
        opts.extend(hook(game, side))
    if seq.may_pass(game, side) if seq is not None else n < unactivated(game, 1 - side):
        opts.append(("pass",))
    return Decision(side, "activate", -1, tuple(opts))


def _yes(game) -> bool:
    return True


def activate(game, opt) -> None:
    """Apply the activate decision: pass, activate a unit, move a counter instead, or an activation that is not a
    unit (the rule set's ``activations``; a frame it pushes resumes the sequence when popped)."""
    side = game.current
    if opt[0] == "pass":
        game.events.append(ev.Passed(side))
        game.current = 1 - side
        next_activation(game)
        return
    other = game.rules.activations.get(opt[0])
    if other is not None:
        other(game, side, opt)
        game.current = 1 - side
        if not game.stack:
            next_activation(game)
        return
    u = game.units[opt[1]]
    if opt[0] != "activate":  # instead of activating a unit (a reinforcement's counter moves)
        game.rules.activate_instead[opt[0]](game, u)
        game.current = 1 - side
        next_activation(game)
        return
    u.activated = True
    game.events.append(ev.UnitActivated(side, u.uid))
    start_activation(game, u, ordered=False)


def start_activation(game, u, ordered: bool = False) -> None:
    """Push an activation frame: the unit takes two actions (an order's activation places no marker); then the
    ``on_activation`` hooks and the ``activation_start`` window."""
    u.fired.clear()
    push(game, Frame(ACTIVATION, u.uid, 2, ordered))
    for hook in game.rules.on_activation:
        hook(game, u)
    if game.rules.reactions["activation_start"]:
        window(game, "activation_start", None, u)  # the reactions pop back into the activation (used=0)


def take_action(game, opt) -> None:
    """Apply an action decision: the rule set's handler returns None (one action used), a number of actions, or
    False (it pushed a procedure, whose pop counts the actions)."""
    f = game.stack[-1]
    u = game.units[f.unit]
    if opt[0] == "end":
        game.events.append(ev.ActionForgone(u.uid))
        f.actions_left = 0
        end_activation(game)
        return
    used = game.rules.actions[opt[0]](game, u, opt)
    if used is False:
        return
    action_done(game, u, 1 if used is None or used is True else used)


def action_done(game, u, used: int = 1) -> None:
    """Count ``used`` actions of the top activation frame and end it when none are left."""
    if game.phase == "over":
        return
    f = game.activation_frame()
    f.actions_left -= used
    if f.actions_left <= 0 or not u.in_play:
        end_activation(game)
    else:
        game.check_decisive()


def end_activation(game) -> None:
    """The top activation frame's actions are done: the ``activation_end`` window (reactions wait in a kernel frame
    over the activation), then the activation ends."""
    if game.rules.reactions["activation_end"]:
        f = game.stack[-1]
        if window(game, "activation_end", Frame("activation_end", f.unit), game.units[f.unit]):
            return
    close_activation(game)


def close_activation(game) -> None:
    """Pop the top activation frame: the ``activation_end`` hooks, then the activation below it (an ordered one's
    commander) counts its action, or the other side is due."""
    f = game.stack.pop()
    u = game.units[f.unit]
    for hook in game.rules.activation_end:
        hook(game, u, f)
    game.events.append(ev.ActivationEnded(u.uid))
    if game.check_decisive():
        return
    stack = game.stack
    if stack:  # an ordered activation ends: the commander's frame continues
        below = stack[-1]
        if below.type == ACTIVATION:
            action_done(game, game.units[below.unit])
        else:
            resume = getattr(game.rules.procedures.get(below.type), "resume", None)
            if resume is not None:
                resume(game, below, f)
        return
    game.current = 1 - u.side
    game.phase = "activate"
    next_activation(game)
