"""The Inbound Chart for reinforcements (seed 000 "Equipment › The Inbound Chart").

"Counters are placed on the numbered boxes to indicate when fire support or reinforcements will arrive.
Instead of activating a unit, a counter may be moved along the inbound track. When the counter is moved
to the battle area, the unit is placed on the battlefield and may be activated on the next turn."

The chart itself is missing from the text; the track is RN-006's reconstruction: boxes 3 -> 2 -> 1 ->
the battle area (the loiter box beside box 1 serves aircraft and CASEVAC vehicles, which are not built).
Reinforcements (RN-360):

* Scenario unit field ``inbound`` (1, 2 or 3): the unit starts off the table with its counter in that
  box (``Unit.inbound``); its ``position`` is where it is placed when it arrives.  Off the table it is
  not in play: it cannot be seen, targeted, ordered or rallied, holds no objective and scores no
  victory point for the enemy; but its side can still fight (it is coming).
* Each counter takes the place of one unit activation per turn: in an activate decision the side may
  choose ``("inbound", uid)`` instead of ``("activate", uid)``, which moves that counter one box and
  ends the side's activation.  Counters count as unactivated units for passing and for the end of the
  turn.  With random activation a counter has a chit (chit draw) or a card (card draw: drawing it moves
  the counter).  Seizing the initiative activates units only.
* From box 1 the counter goes to the battle area: the unit is placed at its position (event
  ``ReinforcementArrived``) and may activate from the next turn: by an order neither (an order activates a
  unit; RN-1000), which :func:`arrived_this_turn` tells the Order Action.
"""
from __future__ import annotations

from ..kernel.events import Event, event
from ..kernel.entities import Unit
from ..kernel.ruleset import Family, Rule
from ..kernel.state import Component

BOXES = 3


class InboundState(Component):
    """The rule's state: ``[turn, [uid, ...]]``, the reinforcements placed on the table that turn."""

    __slots__ = ("inbound_arrived",)


@event
class InboundCounterMoved(Event):
    unit: int
    box: int  # the box the counter is now in (0 = the battle area: the unit arrived)


@event
class ReinforcementArrived(Event):
    unit: int
    position: tuple


def advance(game, u: Unit) -> None:
    """Move the unit's counter one box along the inbound track (its activation this turn)."""
    u.activated = True
    u.inbound -= 1
    game.emit(InboundCounterMoved(u.uid, u.inbound))
    if u.inbound == 0:
        game.emit(ReinforcementArrived(u.uid, (round(u.x, 3), round(u.y, 3))))
        st = game.state_of(InboundState)
        arrived = st.inbound_arrived
        if arrived is None or arrived[0] != game.turn:
            arrived = st.inbound_arrived = [game.turn, []]
        arrived[1].append(u.uid)
        from ..morale.panic import check_sight_both
        check_sight_both(game, u)  # first sight of the enemy (panic)


def arrived_this_turn(game, uid: int) -> bool:
    """The unit reached the battle area this turn: it "may be activated on the next turn" (not ordered now)."""
    st = game.components.get(InboundState)
    arrived = st.inbound_arrived if st is not None else None
    return arrived is not None and arrived[0] == game.turn and uid in arrived[1]


def _has_reinforcements(scenario: dict, options: dict) -> bool:
    return any(u.get("inbound") for side in scenario["sides"] for u in side["units"])


FAMILIES = (Family("inbound", ("own",), 46, "move this reinforcement's counter one box (an activate decision)"),)
RULE = Rule("The Inbound Chart", 'seed 000 "Equipment › The Inbound Chart"',
            families=FAMILIES, applies=_has_reinforcements,
            activate_instead={"inbound": advance})
