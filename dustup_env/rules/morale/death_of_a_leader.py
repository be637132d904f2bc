"""Death of a Leader (seed 000 "Death of a Leader"): the unit part.

A unit whose leader became a casualty spends its next activation reorganising (both actions,
``("reorganise", "leader")``); at the end of that activation a new leader is appointed from the able
figures: D6 1-2 the leadership value worsens by one, 6 it improves by one (kept within 1..3).  The
figures are then loose (``("reorganise", "rearrange")`` brings them back into formation).  The
commander part (subordinates test, promotions) is :mod:`..forces.commanders`.
"""
from __future__ import annotations

from ..kernel.dice import D6
from ..kernel.entities import ROUTED, Unit
from ..kernel.events import LeaderAppointed
from ..kernel.ruleset import Rule
from ..kernel.table import place


def appoint_leader(game, u: Unit) -> None:
    """A new leader is appointed; D6 1-2 worse LV, 6 better (LV kept within 1..3)."""
    able = u.able()
    if not able:
        return
    old = u.figures[u.leader]
    new = able[0]
    nf = u.figures[new]
    # the new leader's figure marks the unit from now on (kept on the table: figures may stand
    # just beyond an edge in the abstract formation)
    place(game, u, min(max(u.x + (nf.dx - old.dx), 0.0), game.bf.width),
          min(max(u.y + (nf.dy - old.dy), 0.0), game.bf.height), "new_leader", point=False)  # no figure moves
    u.leader = new
    roll = game.dice.roll(D6)
    if roll <= 2:
        u.lv = min(3, u.lv + 1)
    elif roll == 6:
        u.lv = max(1, u.lv - 1)
    u.leader_lost = False
    u.loose = True
    game.emit(LeaderAppointed(u.uid, new, roll, u.lv))


def appoint_next_activation(frame) -> None:
    """The unit of the activation ``frame`` lost its leader during this very activation (in an assault it made): no
    leader is appointed at its end, the next activation reorganises (this rule's key of the frame's data)."""
    frame.data["no_appoint"] = True


def _activation_end(game, u: Unit, frame) -> None:
    # no_appoint: the leader fell during this very activation (the next one reorganises)
    if (u.leader_lost and frame.actions_left <= 0 and u.in_play and u.confidence != ROUTED
            and not frame.data.get("no_appoint")):
        appoint_leader(game, u)


RULE = Rule("Death of a Leader", 'seed 000 "Death of a Leader"', activation_end=(_activation_end,))
