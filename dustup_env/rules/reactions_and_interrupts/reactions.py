"""Seed 001 "Notes on Reactions" adapted to Dustup's activations (game option ``reactions``; S001:42, 53,
127-139, 157; readings RN-1800..RN-1812).

* **Who may react** (S001:129): a unit in play on the table with no reaction token and no suppression marker, not
  routed and free to act (no forced option: panic, a leader to replace, broken in the open).  A reaction is a
  single Attack (a Shoot Action's options) or Move (a Move Action's options); the unit then takes a **reaction
  token**.
* **Attack reactions** (S001:131): the unit a Shoot Action is declared at, within 12" (leader to leader) of the
  firer, decides in the kernel's ``before_attack`` window, before the firer's dice: fire back at the firer (its
  Shoot Action options at it), move (out of harm's way: a shot whose target is then out of sight or range is lost),
  or, an infantry unit at any distance, **Hit the Dirt!** (S001:133: a suppression marker besides the token, and
  the unit propped: its cover one step better, seed 000 "Prop Action").  A shot back is "resolved at the same
  time": after the triggering shot, in the ``after_attack`` window, whatever that shot did to the unit's
  suppression or confidence (it was declared before the dice), with the figures it still has (RN-1802).
* **Move reactions** (S001:135): when an enemy unit that the side knows of begins a Move Action within 12" of a
  unit, the side may react before the move (at its first step, the kernel's ``move_step`` window), and when it
  began or ended within 12", after it (the ``move_end`` window).  An attack reaction must target the mover.
* **Several reacting units** (S001:137): the side picks them one at a time (decision ``reaction_choice``:
  ``("choose", uid)`` / ``("decline",)``), each then its reaction (decision ``reaction``: its Shoot Action and
  Move Action options, ``("prop",)`` for Hit the Dirt!, ``("decline",)``).  The options reuse the action layout's
  families: the layout does not grow.
* **No reaction to a reaction** (S001:139): while a reaction (or an interrupt) is being taken no window of this rule
  offers anything; the reaction's own fire and moves open no attack window.
* **The cost** (S001:42): a unit with a reaction token takes one action fewer in an activation; the tokens are
  removed at the end of the turn (S001:53).
* **Close combat** (S001:157): a Dustup Assault Action is close combat, which "cannot be met by a move reaction or a
  non-(C) attack": it opens no reaction (its defender has final defensive fire already; RN-1806).
"""
from __future__ import annotations

import math

from ..kernel.actions import forced_options, status
from ..kernel.attack import FIGURES, target_kind
from ..kernel.decisions import Decision, Frame
from ..kernel.entities import ROUTED, Unit
from ..kernel.events import Event, Propped, Suppressed, event
from ..kernel.ruleset import ObservationPiece, Option, Rule
from ..kernel.sequence import pop, push
from ..kernel.state import Component
from ..unit_actions.hidden_units import reveal
from ..unit_actions.move_action import WALK, move_options
from ..unit_actions.shoot_action import (FIRE_MODES, THROW_MODES, WEAPON_MODES, may_shoot, shoot, shoot_geometry,
                                         shoot_options, shot_plan)

REACTION_RANGE = 12.0  # S001:131, 135: "within 12"" (leader to leader, RN-1801)
MAX_SUPPRESSION = 3
SHOOT_FAMILIES = ("shoot", "shoot_weapon", "throw")

RX_CHOICE = "reaction_choice"  # the side picks a unit to react (or passes)
RX_UNIT = "reaction"  # the unit's reaction
INT_OFFER = "interrupt_offer"  # (interrupt.py) the side may interrupt
INT_FIRE = "interrupt_fire"  # (interrupt.py) the interrupting unit's attack
FRAMES = (RX_CHOICE, RX_UNIT, INT_OFFER, INT_FIRE)


class ReactionState(Component):
    """The rule's state: the units holding a reaction token (``reaction_tokens``, uids in the order taken) and the
    shots back declared before a triggering shot's dice (``reaction_pending``: ``[reactor, firer, option]``)."""

    __slots__ = ("reaction_tokens", "reaction_pending")
    PUBLIC = ("reaction_tokens",)  # a token is a marker on the table: both sides see it


@event
class ReactionTaken(Event):
    """A unit reacted (S001:129): ``what`` is ``fire``, ``move`` or ``hit_the_dirt``; ``trigger`` the enemy unit
    reacted to; ``window`` ``attack``, ``before`` or ``after`` (its move)."""
    unit: int
    trigger: int
    what: str
    window: str


@event
class ReactionLost(Event):
    """A shot back declared before the triggering shot could not be fired after it (the unit or the firer out of
    play, out of sight or range)."""
    unit: int
    target: int


@event
class ReactionTokenCost(Event):
    """A unit with a reaction token activates with one action fewer (S001:42)."""
    unit: int


@event
class ReactionTokensRemoved(Event):
    """The end of the turn: every reaction token comes off (S001:53)."""
    units: tuple


# ---------------------------------------------------------------------------------------------- helpers
def tokens(game) -> list:
    """The uids of the units holding a reaction token (read-only for other modules)."""
    st = game.components.get(ReactionState)
    return (st.reaction_tokens or []) if st is not None else []


def has_token(game, u: Unit) -> bool:
    return u.uid in tokens(game)


def _take_token(game, u: Unit) -> None:
    st = game.state_of(ReactionState)
    if st.reaction_tokens is None:
        st.reaction_tokens = []
    if u.uid not in st.reaction_tokens:
        st.reaction_tokens.append(u.uid)


def reacting(game) -> bool:
    """A reaction or an interrupt is being taken: nothing reacts to it (S001:139)."""
    for f in game.stack:
        if f.type in FRAMES:
            return True
    return False


def dist(a, b) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def free_to_act(game, u: Unit) -> bool:
    """In play on the table, not mounted, not suppressed, not routed, and nothing forces its options."""
    if not u.in_play or u.veh.carrier >= 0 or u.suppression > 0 or u.confidence == ROUTED:
        return False
    if forced_options(game, u) is not None:
        return False
    return status(game, u) is not None


def may_react(game, u: Unit) -> bool:
    """S001:129: "only ... if it does not have a Reaction or Suppression token" (and it is free to act)."""
    return not has_token(game, u) and free_to_act(game, u)


def fire_options_at(game, u: Unit, t: Unit) -> list:
    """``u``'s Shoot Action options at ``t``, its weapons ready whatever it fired in its last activation (a reaction
    or an interrupt is an action of its own: RN-1803).  Nothing of the game changes."""
    if t.hidden or not t.in_play:
        return []
    st = status(game, u)
    if st is None or not may_shoot(u, st):
        return []
    if shoot_geometry(game, u, t) is None:
        return []
    fired = u.fired
    u.fired = set()
    try:
        opts = [o for o in shoot_options(game, u) if o[0] in SHOOT_FAMILIES and o[1] == t.uid]
    finally:
        u.fired = fired
    for filt in game.rules.action_filters:
        opts = filt(game, u, opts)
    return opts


def can_fire_at(game, u: Unit, t: Unit) -> bool:
    """Whether :func:`fire_options_at` would offer anything (cheaper: the Shoot Action's legality test of its fire
    modes, the full options only where the unit sees the target but no fire mode is legal)."""
    if t.hidden or not t.in_play:
        return False
    st = status(game, u)
    if st is None or not may_shoot(u, st) or shoot_geometry(game, u, t) is None:
        return False
    legal = game.rules.legality.get("shoot")
    if legal is not None:
        fired = u.fired
        u.fired = set()
        try:
            for mode in FIRE_MODES:
                opts = [("shoot", t.uid, mode)]
                if legal(game, u, st, opts[0]):
                    for filt in game.rules.action_filters:
                        opts = filt(game, u, opts)
                    if opts:
                        return True
        finally:
            u.fired = fired
    return bool(fire_options_at(game, u, t))


def move_options_of(game, u: Unit) -> list:
    """``u``'s Move Action options (not while propped, as the Move Action: seed 000 "Prop Action")."""
    st = status(game, u)
    if st is None or (u.propped and not st.disorganised):
        return []
    opts = move_options(game, u, st.in_cover)
    for filt in game.rules.action_filters:
        opts = filt(game, u, opts)
    return opts


def shot_mode(opt) -> str:
    """The fire mode of a Shoot Action option (as the Shoot Action reads it)."""
    if opt[0] == "shoot":
        return opt[2]
    if opt[0] == "shoot_weapon":
        return WEAPON_MODES[opt[2]]
    return THROW_MODES[opt[2]]


def fire(game, u: Unit, t: Unit, opt, reaction: bool = False) -> bool:
    """``u`` fires ``opt`` at ``t`` through the Shoot Action's code (no attack window opens: nothing reacts to it).
    False if it cannot (out of play, sight or range)."""
    mode = shot_mode(opt)
    if not u.in_play or not t.in_play or shot_plan(game, u, t, mode) is None:
        return False
    u.fired = set()
    shoot(game, u, t, mode, reaction=reaction)
    return True


def hit_the_dirt_allowed(game, u: Unit) -> bool:
    """S001:133: a soldier unit (infantry, not mounted cavalry: "Cavalry and vehicles may not prop") not already
    propped."""
    st = status(game, u)
    return (target_kind(u) == FIGURES and not u.mounted and not u.propped and st is not None
            and not st.disorganised)


# ---------------------------------------------------------------------------------------------- the unit's reaction
def unit_options(game, u: Unit, trigger: Unit, kind: str) -> list:
    """The reaction options of ``u`` to ``trigger`` (kind ``attack``, ``before`` or ``after``), without the pass."""
    opts = []
    if kind != "attack" or dist(u, trigger) <= REACTION_RANGE:
        opts.extend(fire_options_at(game, u, trigger))
        opts.extend(move_options_of(game, u))
    if kind == "attack" and hit_the_dirt_allowed(game, u):
        opts.append(("prop",))  # Hit the Dirt!
    return opts


class UnitReaction:
    """Frame ``reaction`` (unit: the reacting unit; data: ``trigger``, ``kind``): the unit's reaction, or none."""

    @staticmethod
    def decision(game, frame):
        u = game.units[frame.unit]
        opts = unit_options(game, u, game.units[frame.data["trigger"]], frame.data["kind"])
        return Decision(u.side, RX_UNIT, u.uid, tuple(opts) + (("decline",),))

    @staticmethod
    def apply(game, frame, opt):
        if opt[0] == "decline":
            pop(game, frame, used=0)
            return
        u = game.units[frame.unit]
        t = game.units[frame.data["trigger"]]
        kind = frame.data["kind"]
        reveal(game, u, "reacted")
        _take_token(game, u)
        what = "fire" if opt[0] in SHOOT_FAMILIES else "hit_the_dirt" if opt[0] == "prop" else "move"
        game.emit(ReactionTaken(u.uid, t.uid, what, kind))
        if opt[0] == "prop":  # S001:133: a suppression marker besides the token; cover one step better
            u.suppression = min(MAX_SUPPRESSION, u.suppression + 1)
            game.emit(Suppressed(u.uid, u.suppression))
            u.propped = True
            game.emit(Propped(u.uid, True))
        elif opt[0] in SHOOT_FAMILIES:
            if kind == "attack":  # resolved with the triggering shot: after it (RN-1802)
                st = game.state_of(ReactionState)
                if st.reaction_pending is None:
                    st.reaction_pending = []
                st.reaction_pending.append([u.uid, t.uid, list(opt)])
            elif not fire(game, u, t, opt):
                game.emit(ReactionLost(u.uid, t.uid))
        else:  # a Move Action's move: the walk pushed above this frame; its pop resumes this frame
            if game.rules.actions["move"](game, u, opt) is False:
                return
        if game.phase != "over":
            pop(game, frame, used=0)

    @staticmethod
    def resume(game, frame, popped):
        if game.phase != "over":
            pop(game, frame, used=0)  # the reacting unit's move is over


# ---------------------------------------------------------------------------------------------- choosing the units
def move_reactors(game, side: int, mover: Unit, kind: str, start, asked=()) -> list:
    """The units of ``side`` that may react to ``mover``'s move (S001:135: it "begins or ends its movement within
    12"": before the move, where it begins; after it, where it began or ended) and have a reaction to take."""
    if mover.hidden or not mover.in_play:
        return []
    out = []
    sx, sy = start
    for uid in game.side_units[side]:
        if uid in asked:
            continue
        u = game.units[uid]
        if not may_react(game, u):
            continue
        near = math.hypot(u.x - sx, u.y - sy) <= REACTION_RANGE
        if kind == "after" and not near:
            near = dist(u, mover) <= REACTION_RANGE
        if near and (can_fire_at(game, u, mover) or move_options_of(game, u)):  # (= unit_options, cheaper)
            out.append(uid)
    return out


class ReactionChoice:
    """Frame ``reaction_choice`` (data: ``side``, ``trigger``, ``kind`` (``before`` / ``after``), ``start`` (where the
    move began), ``asked``): the side picks the next unit to react (S001:137), or passes."""

    @staticmethod
    def _units(game, frame):
        d = frame.data
        return move_reactors(game, d["side"], game.units[d["trigger"]], d["kind"], d["start"], d["asked"])

    def decision(self, game, frame):
        opts = tuple(("choose", uid) for uid in self._units(game, frame))
        return Decision(frame.data["side"], RX_CHOICE, -1, opts + (("decline",),))

    def apply(self, game, frame, opt):
        if opt[0] == "decline":
            pop(game, frame, used=0)
            return
        d = frame.data
        d["asked"].append(opt[1])
        push(game, Frame(RX_UNIT, opt[1], 0, False, {"trigger": d["trigger"], "kind": d["kind"]}))

    def resume(self, game, frame, popped):
        if game.phase != "over" and not self._units(game, frame):
            pop(game, frame, used=0)


# ---------------------------------------------------------------------------------------------- the windows
def _before_attack(game, firer, target) -> None:
    """S001:131: the unit fired at may react before the firer's dice."""
    if not isinstance(firer, Unit) or reacting(game) or target.side == firer.side or not may_react(game, target):
        return
    if unit_options(game, target, firer, "attack"):
        push(game, Frame(RX_UNIT, target.uid, 0, False, {"trigger": firer.uid, "kind": "attack"}))


def _after_attack(game, attacker, target) -> None:
    """The shot back declared before the triggering shot is fired now (RN-1802)."""
    st = game.components.get(ReactionState)
    if st is None or not st.reaction_pending or not isinstance(attacker, Unit):
        return
    for p in list(st.reaction_pending):
        if p[0] == target.uid and p[1] == attacker.uid:
            st.reaction_pending.remove(p)
            if game.phase == "over" or not fire(game, target, attacker, tuple(p[2])):
                game.emit(ReactionLost(target.uid, attacker.uid))


def _move_step(game, mover, walk) -> None:
    """S001:135 before the move: at its first step (the walk's own start), once per walk."""
    if walk.type != WALK or walk.data.get("reaction_asked") or reacting(game):
        return
    walk.data["reaction_asked"] = True
    start = [walk.data["sx"], walk.data["sy"]]
    side = 1 - mover.side
    if move_reactors(game, side, mover, "before", start):
        push(game, Frame(RX_CHOICE, -1, 0, False, {"side": side, "trigger": mover.uid, "kind": "before",
                                                    "start": start, "asked": []}))


def _move_end(game, mover, walk) -> None:
    """S001:135 after the move: it began or ended within 12"."""
    if walk.type != WALK or reacting(game) or game.phase == "over":
        return
    start = [walk.data["sx"], walk.data["sy"]]
    side = 1 - mover.side
    if move_reactors(game, side, mover, "after", start):
        push(game, Frame(RX_CHOICE, -1, 0, False, {"side": side, "trigger": mover.uid, "kind": "after",
                                                    "start": start, "asked": []}))


def _on_activation(game, u) -> None:
    """S001:42: "less one if it has a Reaction token"."""
    if has_token(game, u):
        f = game.activation_frame()
        if f is not None and f.actions_left > 1:
            f.actions_left -= 1
            game.emit(ReactionTokenCost(u.uid))


def ready_again(game, u, frame) -> None:
    """The unit's activation is over: the weapons it fired in it are ready for a reaction or an interrupt, an action
    of its own outside any activation (RN-1803; the Shoot Action's previews then read them as the reaction fires)."""
    u.fired.clear()


def _turn_end(game) -> None:
    """S001:53: "each unit removes ... all Reaction tokens"."""
    st = game.components.get(ReactionState)
    if st is None:
        return
    if st.reaction_tokens:
        game.emit(ReactionTokensRemoved(tuple(st.reaction_tokens)))
    st.reaction_tokens = []
    st.reaction_pending = []


def observe_reactions(obs, b, off) -> None:
    """The ``reactions`` piece: per unit slot, 1 when the unit holds a reaction token (a marker both sides see);
    hidden and mounted enemy units: 0."""
    held = tokens(obs.game)
    for u, o, _k, _enemy, concealed in obs.slot_rows(off, 1):
        b[o] = 1.0 if held and not concealed and u.uid in held else 0.0


REACTIONS_PIECE = ObservationPiece("reactions", 280, ("units", 1), ("reaction_token",), write=observe_reactions,
                                   doc="seed 001 reactions: each unit slot's reaction token")

RULE = Rule(
    "Reactions", 'seed 001 "Notes on Reactions" (S001:42, 53, 127-139, 157)',
    options=(Option("reactions", False, "seed 001 reactions: attack and move reactions within 12\", a reaction token "
                    "costing one action of the unit's next activation this turn"),),
    applies=lambda scenario, options: bool(options["reactions"]),
    procedures={RX_CHOICE: ReactionChoice(), RX_UNIT: UnitReaction()},
    observation=(REACTIONS_PIECE,),
    reactions={"before_attack": _before_attack, "after_attack": _after_attack, "move_step": _move_step,
               "move_end": _move_end},
    on_activation=(_on_activation,),
    activation_end=(ready_again,),
    turn_end=(_turn_end,),
)
