"""Seed 004 interrupts (game option ``interrupt``; S004:367-407), forced dice.

Blue A (uid 0) activates and moves north toward Red B (uid 1, not yet activated).  The spot roll: the mover's range
die (the Detect Action's: D10 from 12" to 24"), then B's quality (D8) and sensor (D4) dice.  A shot: target die,
then B's quality and firepower dice; then A's morale response: its quality die (D8) against its leadership (2).
"""
from conftest import SIDE0_WINS, activate, begin, events_of, last_event, scenario, unit
from dustup_env.rules.kernel.entities import SHAKEN

INT = {"interrupt": True}
MOVE3 = [("d6", 3)]  # A's movement: 6"
SPOT = [("d10", 1), ("d8", 5), ("d4", 1)]  # spotted: the quality die beats the range die
NO_SPOT = [("d10", 9), ("d8", 5), ("d4", 1)]  # neither die beats it
MISS = [6, ("d8", 1), ("d6", 1)]
STEADY_NERVE = [("d8", 8)]  # the morale response passed (8 > 2)
LOST_NERVE = [("d8", 2)]  # failed (2 is not more than 2)


def pair(a=(24, 5), b=(24, 20)):
    return scenario([unit("A", a)], [unit("B", b)])


def to_move(dice, options=INT, **kw):
    g = begin(pair(**kw), dice, options=options)
    activate(g, 0)
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "interrupt", (("choose", 1), ("decline",)))  # S004:389
    g.apply(("decline",))
    g.apply(("move", 0, 1))
    return g


def test_S004_385_an_interrupt_fires_mid_move_at_the_point_the_interrupting_side_picks():
    """S004:383-387: "at any time during an opposing element's Activation ... decides at which point they will
    Interrupt": offered at each step of the move; B waits one step and fires at the second; A's move goes on."""
    g = to_move(MOVE3 + SPOT + MISS + STEADY_NERVE)
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "interrupt", (("choose", 1), ("hold_fire",), ("decline",)))
    assert g.units[0].y == 5.5
    g.apply(("hold_fire",))
    assert g.decision().kind == "interrupt" and g.units[0].y == 6.0
    g.apply(("choose", 1))
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "interrupt_fire", 1) and {o[1] for o in d.options} == {0}
    g.apply(("shoot", 0, "all"))
    assert [e["type"] for e in g.event_log()][-5:] == [
        "InterruptDeclared", "InterruptSpotRolled", "ShotResolved", "InterruptResponse", "Moved"]
    assert last_event(g, "InterruptDeclared") == {"type": "InterruptDeclared", "unit": 1, "target": 0, "at": "move"}
    assert last_event(g, "Moved")["end"] == [24.0, 11.0] and g.units[0].suppression == 0
    assert g.dice.remaining == 0 and g.actions_left == 1


def test_S004_377_the_interrupting_unit_forfeits_its_activation():
    """S004:377: "The element has forfeited their next Activation in order to make this attack"."""
    g = to_move(MOVE3 + SPOT + MISS + STEADY_NERVE + SIDE0_WINS)
    g.apply(("choose", 1))
    g.apply(("shoot", 0, "all"))
    assert g.units[1].activated
    g.apply(("end",))  # A's activation ends: B has none left, the turn ends
    assert g.turn == 2 and [e["unit"] for e in events_of(g, "UnitActivated")] == [0]


def test_S004_395_a_failed_spot_roll_is_a_failed_interrupt():
    """S004:395: "If the Spot roll fails, the Interrupt action fails" (the activation is still forfeited)."""
    g = to_move(MOVE3 + NO_SPOT)
    g.apply(("choose", 1))
    assert last_event(g, "InterruptSpotRolled")["spotted"] is False
    assert not events_of(g, "ShotResolved") and g.units[1].activated
    assert g.decision().kind == "action" and last_event(g, "Moved")["end"] == [24.0, 11.0]
    assert g.dice.remaining == 0


def test_S004_405_a_failed_morale_response_a_suppression_marker_and_no_further_move():
    """S004:405: "If they fail, they gain a Suppression marker and do not Move at all": A stops where it was
    interrupted (the interrupting side's point, S004:387)."""
    g = to_move(MOVE3 + SPOT + MISS + LOST_NERVE)
    g.apply(("choose", 1))
    g.apply(("shoot", 0, "all"))
    assert last_event(g, "InterruptResponse") == {"type": "InterruptResponse", "unit": 0, "roll": 2, "needed": 2,
                                                  "passed": False}
    assert g.units[0].suppression == 1 and last_event(g, "Moved")["end"] == [24.0, 5.5]
    assert g.dice.remaining == 0 and g.decision().kind == "action"


def test_S004_405_the_interrupt_fire_has_no_suppression_of_its_own():
    """The interrupt's shot is reaction fire: a hit's suppression and the confidence test are replaced by the
    response (RN-1824): a minor result, then a passed response, leaves A unsuppressed."""
    g = to_move(MOVE3 + SPOT + [1, ("d8", 2), ("d6", 1)] + STEADY_NERVE)
    g.apply(("choose", 1))
    g.apply(("shoot", 0, "all"))
    assert last_event(g, "ShotResolved")["result"] == "minor" and g.units[0].suppression == 0


def test_S004_389_an_interrupt_at_the_start_of_the_activation():
    """S004:389: declared at the beginning of the enemy's activation, "resolved after the enemy completes any
    Morale rolls" (after the activation's own steps); a failed response leaves A suppressed for its actions."""
    g = begin(pair(b=(24, 15)), [("d8", 1), ("d8", 5), ("d4", 1)] + MISS + LOST_NERVE, options=INT)
    activate(g, 0)
    g.apply(("choose", 1))
    g.apply(("shoot", 0, "all"))
    assert last_event(g, "InterruptDeclared")["at"] == "start" and g.units[0].suppression == 1
    d = g.decision()
    assert (d.kind, d.unit) == ("action", 0) and not any(o[0] == "move" for o in d.options)


def test_S004_interrupt_pass_ends_the_offers_for_this_move():
    g = to_move(MOVE3)
    g.apply(("decline",))
    assert g.decision().kind == "action" and last_event(g, "Moved")["end"] == [24.0, 11.0]


def test_S004_375_only_unactivated_unsuppressed_steady_units_interrupt():
    """S004:375: "must not have already Activated during the current combat round and must not have any Morale or
    Suppression markers" (a morale marker: shaken or worse, RN-1821)."""
    for change in ({"activated": True}, {"suppression": 1}, {"confidence": SHAKEN}):
        g = begin(pair(), MOVE3, options=INT)
        for k, v in change.items():
            setattr(g.units[1], k, v)
        activate(g, 0)
        g.apply(("move", 0, 1))
        assert g.decision().kind == "action" and not events_of(g, "InterruptDeclared"), change


def test_without_the_option_no_interrupt_is_offered():
    g = begin(pair(), MOVE3)
    activate(g, 0)
    g.apply(("move", 0, 1))
    assert g.options["interrupt"] is False and g.decision().kind == "action"


def test_at_most_one_interrupt_decision_a_step_and_none_after_a_decline():
    """RN-1822: the interrupting side is asked once per step of the move at most; "hold fire" asks again at the next
    step, "decline" ends the offers for the move."""
    g = to_move(MOVE3)
    asked = []
    while g.decision().kind == "interrupt":
        asked.append(g.units[0].y)
        g.apply(("hold_fire",))
    assert asked == [5.5 + 0.5 * i for i in range(len(asked))] and len(asked) == 12  # each half inch, 6"
    assert last_event(g, "Moved")["end"] == [24.0, 11.0] and g.decision().kind == "action"
