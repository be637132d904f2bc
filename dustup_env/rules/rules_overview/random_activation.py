"""Random Activation (seed 000, "RULES OVERVIEW" > "Random Activation").

Game option ``"activation"``:

* ``"alternate"`` (default): the standard initiative roll and alternating activations.
* ``"chits"``: one chit per unit in play (per side) goes into the bag at the start of each turn (a detachment
  has none while its parent is in play: it activates only through its parent, RN-1001);
  each draw (``game.dice.roll_n(chits in the bag)``: faces 1..n0 are side 0's chits, the rest side
  1's; no roll when only one side has chits left) names the side that activates a unit next.  The
  initiative roll is not used.  A chit drawn for a side without unactivated units is discarded.  A
  side may pass on its draw (the chit is spent) only while it keeps at least as many chits in the
  bag as it has unactivated units.  The turn ends when every unit has activated or the bag is empty.
  With ``"chit_quality_variant"``: +1 chit per veteran (D10) or elite (D12) unit, -1 per militia
  (untrained, D4) unit; when the bag is empty each side that still has unactivated units may
  activate one of them (an activate decision with pass), starting with the side that did not draw
  the last chit, and the turn then ends.
* ``"cards"``: each unit in play has a card; every draw (``roll_n(cards left)`` picks one of the
  remaining cards in uid order, i.e. the deck is shuffled one card at a time) activates that unit
  directly: no activate decision and no passing.  The turn ends when the deck is empty.  With
  ``"turn_end_card"`` the deck also holds the random "turn end" card (last in the deck order): when it
  is drawn the turn ends at once and the units whose cards were not drawn do not activate this turn.
  The text defines no random event cards ("offers the potential to include random event cards"), so
  there are none to put in the deck (RN-356).

Activations that are not units (the rule set's ``pending_activations``, e.g. a pending fire mission) take part in
both: each has a chit in its side's bag, or a card of its side in the deck (before the turn-end card); the
side that draws such a card gets an activate decision of only its other activations
(``activation_options``).
"""
from __future__ import annotations

from ..kernel import events as ev
from ..kernel.dice import D4, D10
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Option, Rule
from ..kernel.state import Component

MODES = ("alternate", "chits", "cards")


@event
class ChitDrawn(Event):
    side: int
    roll: int  # 0 when no roll was needed
    chits_left: tuple  # (side 0, side 1) after the draw


@event
class CardDrawn(Event):
    unit: int
    roll: int  # 0 when no roll was needed
    cards_left: int


@event
class TurnEndCardDrawn(Event):
    roll: int  # 0 when no roll was needed
    cards_left: int  # unit cards not drawn: those units do not activate this turn


@event
class ActivationCardDrawn(Event):
    side: int  # the card of an activation of this side that is not a unit (rules' pending_activations)
    roll: int
    cards_left: int

TURN_END = -1  # the turn-end card in the deck
OTHER = -2  # the card of side s's activation that is not a unit: OTHER - s


def _validate(options: dict) -> None:
    mode = options["activation"]
    if options["chit_quality_variant"] and mode != "chits":
        raise ScenarioError("game option chit_quality_variant needs activation: chits")
    if options["turn_end_card"] and mode != "cards":
        raise ScenarioError("game option turn_end_card needs activation: cards")


def _end_turn(game) -> None:
    game.end_turn()


def pending(game, side: int) -> int:
    """The activations of ``side`` that are not units (the rule set's ``pending_activations``)."""
    n = 0
    for hook in game.rules.pending_activations:
        n += hook(game, side)
    return n


def chit_count(game, side: int) -> int:
    """The side's chits at the start of a turn: one per unit that activates on its own (a reinforcement's counter
    too) and one per activation that is not a unit, with the quality variant's extra and withheld chits."""
    n = pending(game, side)
    variant = game.options["chit_quality_variant"]
    for uid in game.side_units[side]:
        u = game.units[uid]
        if not game.can_activate(u):  # out of play, or a detachment acting through its parent (RN-1001)
            continue
        n += 1
        if variant:
            if u.quality >= D10:
                n += 1
            elif u.quality == D4:
                n -= 1
    return n


class ChitBag(Component):
    """Chits: the chits left in the bag per side, the side of the last chit drawn (-1: none yet), and once the bag
    is empty the end-of-turn activations still to come (``[]`` without the quality variant; unset before)."""

    __slots__ = ("chits", "chit_last", "chit_final")
    PUBLIC = ("chits", "chit_final")


class CardDeck(Component):
    """Cards: the deck left this turn (unit uids, ``OTHER - side`` for an activation that is not a unit,
    ``TURN_END``), and the side whose activation card was drawn while it chooses which (unset otherwise)."""

    __slots__ = ("deck", "card_side")
    PUBLIC = ("deck",)


class ChitDraw:
    @staticmethod
    def start_turn(game) -> None:
        game.initiative_winner = -1
        st = game.state_of(ChitBag)
        st.chits = [chit_count(game, 0), chit_count(game, 1)]
        st.chit_last = -1
        st.chit_final = None
        ChitDraw.next(game)

    @staticmethod
    def next(game) -> None:
        st = game.components[ChitBag]
        bag = st.chits
        while True:
            if game.unactivated(0) == 0 and game.unactivated(1) == 0:
                _end_turn(game)
                return
            final = st.chit_final
            if final is None and bag[0] + bag[1] == 0:
                last = st.chit_last
                first = 1 - last if last >= 0 else 0
                final = st.chit_final = [first, 1 - first] if game.options["chit_quality_variant"] else []
            if final is not None:  # the bag is empty: the end-of-turn activations, then the turn ends
                while final and game.unactivated(final[0]) == 0:
                    final.pop(0)
                if not final:
                    _end_turn(game)
                    return
                game.current = final.pop(0)
                game.phase = "activate"
                return
            if bag[0] == 0 or bag[1] == 0:
                side, roll = (0 if bag[0] else 1), 0
            else:
                roll = game.dice.roll_n(bag[0] + bag[1])
                side = 0 if roll <= bag[0] else 1
            bag[side] -= 1
            st.chit_last = side
            game.emit(ChitDrawn(side, roll, (bag[0], bag[1])))
            if game.unactivated(side) == 0:
                continue  # a spare chit: nothing to activate
            game.current = side
            game.phase = "activate"
            return

    @staticmethod
    def may_pass(game, side: int) -> bool:
        st = game.components[ChitBag]
        if st.chit_final is not None:
            return True
        return st.chits[side] >= game.unactivated(side)


class CardDraw:
    @staticmethod
    def start_turn(game) -> None:
        game.initiative_winner = -1
        st = game.state_of(CardDeck)
        st.deck = [u.uid for u in game.units if u.in_play or u.inbound]
        for side in (0, 1):
            st.deck += [OTHER - side] * pending(game, side)
        if game.options["turn_end_card"]:
            st.deck.append(TURN_END)
        CardDraw.next(game)

    @staticmethod
    def next(game) -> None:
        st = game.components[CardDeck]
        deck = st.deck
        st.card_side = None
        while deck:
            roll = game.dice.roll_n(len(deck)) if len(deck) > 1 else 0
            uid = deck.pop(roll - 1 if roll else 0)
            if uid == TURN_END:
                game.emit(TurnEndCardDrawn(roll, len(deck)))
                deck.clear()
                break
            if uid <= OTHER:  # an activation that is not a unit: its side chooses which (an activate decision)
                side = OTHER - uid
                game.emit(ActivationCardDrawn(side, roll, len(deck)))
                if pending(game, side) == 0:
                    continue
                game.current = side
                st.card_side = side
                game.phase = "activate"
                return
            game.emit(CardDrawn(uid, roll, len(deck)))
            u = game.units[uid]
            if not game.can_activate(u):  # (a detachment acts through its parent)
                continue
            if u.inbound:  # a reinforcement's card moves its counter along the inbound track
                from .inbound_chart import advance
                advance(game, u)
                continue
            u.activated = True
            game.current = u.side
            game.emit(ev.UnitActivated(u.side, uid))
            game.start_activation(u, ordered=False)
            return
        _end_turn(game)

    @staticmethod
    def may_pass(game, side: int) -> bool:  # the activate decision of an activation that is not a unit
        return False

    @staticmethod
    def offers_units(game) -> bool:
        """Cards ask an activate decision only for an activation that is not a unit: no unit is offered."""
        return game.components[CardDeck].card_side is None


RULE = Rule(
    "Random Activation", 'seed 000 "Random Activation"',
    applies=lambda scenario, options: options["activation"] != "alternate",
    options=(Option("activation", "alternate", "'alternate' (the standard sequence), or random activation by "
                    "'chits' or 'cards'", kind="choice", choices=MODES),
             Option("chit_quality_variant", False, "chits: one more chit per veteran/elite unit, one less per "
                    "militia (untrained) unit"),
             Option("turn_end_card", False, "cards: the deck holds a random 'turn end' card (RN-356)")),
    validate=_validate, activation_sequences={"chits": ChitDraw(), "cards": CardDraw()})
