"""Seed 001 reactions (game option ``reactions``; S001:42, 53, 127-139, 157), forced dice.

Two 5-rifle squads: Blue A (uid 0) activates; Red B (uid 1) reacts.  A shot: target die, then the firer's quality and
firepower dice (D6 target for a 5-rifle squad at 10", D8 quality + D6 firepower).
"""
import pytest

from conftest import SIDE0_WINS, activate, begin, events_of, last_event, rect, scenario, unit
from dustup_env.rules import Game, ScriptedDice
from dustup_env.rules.reactions_and_interrupts.reactions import ReactionState, tokens

RX = {"reactions": True}
MISS = [("d6", 6), ("d8", 1), ("d6", 1)]  # a shot with no success
MINOR = [("d6", 1), ("d8", 2), ("d6", 1)]  # one success: a suppression marker, no hits
PASS_TEST = [("d8", 8)]  # the target's first-suppressed confidence test, passed


def pair(b=(24, 15), **kw):
    return scenario([unit("A", (24, 5))], [unit("B", b)], **kw)


def kinds_of(g):
    return [e.to_dict()["type"] for e in g.events]


# ---------------------------------------------------------------------------------------------- attack reactions
def test_S001_131_the_unit_fired_at_within_12_may_fire_back_declared_before_the_dice():
    """S001:131: "A unit may react to an enemy within 12" that is attacking it. It must declare its Reaction before
    the activating unit rolls" and an attack reaction "must target the attacking unit"."""
    g = begin(pair(), options=RX)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "reaction", 1) and not events_of(g, "ShotResolved")  # before the dice
    assert ("shoot", 0, "all") in d.options and ("prop",) in d.options and d.options[-1] == ("decline",)
    assert {o[1] for o in d.options if o[0] == "shoot"} == {0}  # only at the attacker
    assert any(o[0] == "move" for o in d.options)


def test_S001_131_a_shot_back_resolves_with_the_triggering_shot_whatever_it_did_to_the_unit():
    """S001:131: "resolved at the same time as the triggering Attack": after it, even though the triggering shot
    suppressed the reacting unit (RN-1802); the unit takes a reaction token (S001:129)."""
    g = begin(pair(), MINOR + PASS_TEST + MISS, options=RX)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    g.apply(("shoot", 0, "all"))
    shots = events_of(g, "ShotResolved")
    assert [(s["unit"], s["target"]) for s in shots] == [(0, 1), (1, 0)]
    assert g.units[1].suppression == 1 and tokens(g) == [1]
    assert last_event(g, "ReactionTaken") == {"type": "ReactionTaken", "unit": 1, "trigger": 0, "what": "fire",
                                              "window": "attack"}
    assert g.dice.remaining == 0 and g.decision().kind == "action" and g.actions_left == 1


def test_S001_131_beyond_12_inches_only_hit_the_dirt():
    """S001:131 "within 12""; S001:133: a soldier unit "may ignore the distance" to Hit the Dirt."""
    g = begin(pair(b=(24, 20)), options=RX)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.decision().options == (("prop",), ("decline",))


def test_S001_133_hit_the_dirt_a_suppression_marker_and_cover_one_step_better():
    """S001:133: Hit the Dirt! "automatically gives the unit a Suppression token in addition to the Reaction token,
    providing the unit with the benefit of improving its cover by 1 step": the unit is propped (seed 000 "Prop
    Action": a positive target die shift)."""
    def target_die(answer):
        g = begin(pair(b=(24, 20)), [6, ("d8", 1), ("d6", 1)], options=RX)  # (the target die: D6 or D8)
        activate(g, 0)
        g.apply(("shoot", 1, "all"))
        g.apply(answer)
        return g, events_of(g, "ShotResolved")[0]["target_die"]

    g, die = target_die(("prop",))
    _, plain = target_die(("decline",))
    b = g.units[1]
    assert b.suppression == 1 and b.propped and tokens(g) == [1]
    assert (plain, die) == ("d8", "d10")  # 20": a D8, one step better


def test_S001_131_a_move_reaction_can_waste_the_attack():
    """S001:131: "If the reaction is a move, it may take the targeted unit out of harm's way, causing the initial
    attack to be wasted": B moves 12" west behind a building and the shot is lost."""
    g = begin(pair(terrain=[rect("building", 13, 7, 21, 13)]), [("d6", 6)], options=RX)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    g.apply(("move", 12, 2))
    assert last_event(g, "Moved")["end"] == [12.0, 15.0]
    assert last_event(g, "ShotLost") == {"type": "ShotLost", "unit": 0, "target": 1}
    assert not events_of(g, "ShotResolved") and g.dice.remaining == 0 and g.actions_left == 1


def test_S001_129_no_reaction_with_a_suppression_marker_or_a_reaction_token():
    """S001:129: "A unit can only react if it does not have a Reaction or Suppression token"."""
    g = begin(pair(), MISS, options=RX)
    g.units[1].suppression = 1
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.decision().kind == "action" and events_of(g, "ShotResolved")
    g = begin(pair(), MISS, options=RX)
    g.state_of(ReactionState).reaction_tokens = [1]
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.decision().kind == "action" and events_of(g, "ShotResolved")


def test_without_the_option_nothing_reacts():
    """The option is off by default: the same shot is resolved at once."""
    g = begin(pair(), MISS)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.options["reactions"] is False and g.decision().kind == "action" and events_of(g, "ShotResolved")


# ---------------------------------------------------------------------------------------------- move reactions
def test_S001_135_a_move_reaction_before_the_move_fires_at_the_mover_and_the_move_goes_on():
    """S001:135: "react to an enemy that begins ... its movement within 12" ... before ... the target unit has
    completely finished moving. If the Reaction is an Attack, it must be targeted at the moving unit only"."""
    g = begin(pair(b=(24, 16)), [("d6", 3)] + MISS, options=RX)
    activate(g, 0)
    g.apply(("move", 0, 1))
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "reaction_choice", (("choose", 1), ("decline",)))
    assert (g.units[0].x, g.units[0].y) == (24.0, 5.5) and not events_of(g, "Moved")  # at its first step
    g.apply(("choose", 1))
    d = g.decision()
    assert (d.kind, d.unit) == ("reaction", 1) and {o[1] for o in d.options if o[0] == "shoot"} == {0}
    assert ("prop",) not in d.options  # only when attacked
    g.apply(("shoot", 0, "all"))
    assert kinds_of(g)[-3:] == ["ReactionTaken", "ShotResolved", "Moved"]
    assert last_event(g, "Moved")["end"] == [24.0, 11.0] and g.actions_left == 1 and g.dice.remaining == 0
    assert last_event(g, "ReactionTaken")["window"] == "before"


def test_S001_135_a_move_reaction_after_the_move_ended_within_12_inches():
    """S001:135: a unit 15" from where the mover began and 9" from where it ended may react after the move."""
    g = begin(pair(b=(24, 20)), [("d6", 3)] + MISS, options=RX)
    activate(g, 0)
    g.apply(("move", 0, 1))
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "reaction_choice", (("choose", 1), ("decline",)))
    assert last_event(g, "Moved")["end"] == [24.0, 11.0]  # the move is over
    g.apply(("choose", 1))
    g.apply(("shoot", 0, "all"))
    assert last_event(g, "ReactionTaken")["window"] == "after" and kinds_of(g)[-1] == "ShotResolved"
    assert g.actions_left == 1 and g.decision().kind == "action"


def test_S001_135_a_unit_that_passed_before_the_move_may_react_after_it():
    g = begin(pair(b=(24, 16)), [("d6", 3)], options=RX)
    activate(g, 0)
    g.apply(("move", 0, 1))
    g.apply(("decline",))
    d = g.decision()
    assert (d.kind, d.options) == ("reaction_choice", (("choose", 1), ("decline",)))
    g.apply(("decline",))
    assert g.decision().kind == "action" and not tokens(g)


def test_S001_137_several_units_react_in_the_order_their_side_picks():
    """S001:137: "Multiple units can react to an enemy unit taking an action. The controlling player determines the
    order"."""
    scn = scenario([unit("A", (24, 5))], [unit("B", (20, 15)), unit("C", (28, 15))])
    g = begin(scn, [("d6", 3)] + MISS + MISS, options=RX)
    activate(g, 0)
    g.apply(("move", 0, 1))
    assert g.decision().options == (("choose", 1), ("choose", 2), ("decline",))
    g.apply(("choose", 2))
    g.apply(("shoot", 0, "all"))
    assert g.decision().options == (("choose", 1), ("decline",))
    g.apply(("choose", 1))
    g.apply(("shoot", 0, "all"))
    assert [s["unit"] for s in events_of(g, "ShotResolved")] == [2, 1] and tokens(g) == [2, 1]
    assert g.decision().kind == "action"  # both hold tokens: nothing more, before or after


def test_S001_139_no_reaction_to_a_reaction():
    """S001:139: "Units cannot react to a Reaction": B's shot back opens no window for A, and B's reaction move near
    Blue's other unit C offers Blue nothing."""
    scn = scenario([unit("A", (24, 5)), unit("C", (30, 18))], [unit("B", (24, 15))])
    g = begin(scn, MISS + MISS, options=RX)
    activate(g, 0)
    g.apply(("shoot", 2, "all"))
    g.apply(("shoot", 0, "all"))
    assert g.decision().kind == "action" and len(events_of(g, "ShotResolved")) == 2
    g = begin(scn, [("d6", 2)] + MISS, options=RX)
    activate(g, 0)
    g.apply(("shoot", 2, "all"))
    g.apply(("move", 4, 1))  # B moves 4" east, ending 2" from C
    assert last_event(g, "ReactionTaken")["what"] == "move"
    assert g.decision().kind == "action"  # no reaction_choice for Blue; the shot then resolved or was lost


def test_S001_157_an_assault_opens_no_reaction():
    """S001:157: close combat "cannot be met by a move reaction or a non-(C) attack": a Dustup Assault Action
    offers no reaction (its defender has final defensive fire, RN-1806)."""
    g = begin(pair(b=(24, 9)), options=RX)
    activate(g, 0)
    assert ("assault", 1) in g.decision().options
    g.apply(("assault", 1))
    assert g.decision().kind not in ("reaction", "reaction_choice")


# ---------------------------------------------------------------------------------------------- tokens
def test_S001_42_a_reaction_token_costs_an_action_and_S001_53_tokens_come_off_at_the_end_of_the_turn():
    """S001:42: actions "less one if it has a Reaction token"; S001:53: "each unit removes ... all Reaction
    tokens" at the end of the turn."""
    g = begin(pair(), MISS + MISS + SIDE0_WINS, options=RX)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    g.apply(("shoot", 0, "all"))
    g.apply(("end",))
    activate(g, 1)
    assert g.actions_left == 1 and last_event(g, "ReactionTokenCost") == {"type": "ReactionTokenCost", "unit": 1}
    g.apply(("end",))
    assert last_event(g, "ReactionTokensRemoved")["units"] == [1] and tokens(g) == []
    assert g.turn == 2


def test_a_paused_reaction_saves_and_replays_exactly():
    """A game waiting for a reaction copies, snapshots, saves and replays alike."""
    import json
    import random
    g = Game(pair(), seed=3, options=RX)
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    while g.decision().kind != "reaction":
        d = g.decision()
        g.apply(("shoot", 1, "all") if d.kind == "action" and ("shoot", 1, "all") in d.options else
                ("activate", 0) if ("activate", 0) in d.options else d.options[0])
    s = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
    r = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    c = g.clone()
    assert s.state_digest() == g.state_digest() == r.state_digest() == c.state_digest()
    logs = []
    for x in (g, s, r, c):
        rng = random.Random(5)
        while not x.over:
            x.apply(rng.choice(x.decision().options))
        logs.append(x.event_log())
    assert logs[0] == logs[1] == logs[2] == logs[3]


def test_the_observation_shows_each_sides_reaction_tokens():
    """The ``reactions`` observation piece (game option ``reactions`` only): a token is a marker both sides see."""
    from dustup_env.observation import Observer
    g = begin(pair(), MISS + MISS, options=RX)
    plain = Observer.for_game(begin(pair(), options=None))
    assert "reactions" not in plain.dict
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    g.apply(("shoot", 0, "all"))
    ob = Observer.for_game(g)
    ob.set_from(g, 0)
    assert ob.dict["reactions"].ravel().tolist().index(1.0) == 12  # Blue sees Red's first unit's token
    ob.set_from(g, 1)
    assert ob.dict["reactions"].ravel().tolist().index(1.0) == 0 and ob.dict["reactions"].sum() == 1


def test_bad_option_values_are_refused_in_one_line():
    """The options are booleans, in a game's options and in a scenario's (the scenario schema's ``options``)."""
    import copy

    from dustup_env.rules import ScenarioError
    from dustup_env.rules.kernel.data import load_scenario
    with pytest.raises(ScenarioError, match=r"^game option reactions must be true or false, not 1$"):
        Game("skirmish", options={"reactions": 1})
    doc = copy.deepcopy(load_scenario("skirmish"))
    doc["options"] = {"interrupt": "yes"}
    with pytest.raises(ScenarioError, match=r"options/interrupt: 'yes' is not of type 'boolean'") as e:
        Game(doc)
    assert "\n" not in str(e.value)
    doc["options"] = {"reactions": True, "interrupt": True}
    assert Game(doc).options["reactions"] is True and Game(doc).options["interrupt"] is True
