"""Seize the Initiative and Random Activation (seed 000 "RULES OVERVIEW"): forced-dice tests."""
import random

import numpy as np
import pytest

from conftest import activate, begin, events_of, last_event, new_game, scenario, unit
from dustup_env.codec import ActionCodec
from dustup_env.rules import D6, D10, Game, ScenarioError
from dustup_env.rules.rules_overview.seize_the_initiative import SeizeState
from dustup_env.rules.rules_overview.random_activation import ChitBag
from dustup_env.rules.rules_overview.random_activation import CardDeck


def four(q0=("d8", "d8"), q1=("d8", "d8")):
    """Blue uids 0, 1 and Red uids 2, 3, out of each other's sight range concerns (30" apart)."""
    return scenario([unit("A", (10, 5), quality=q0[0]), unit("A2", (30, 5), quality=q0[1])],
                    [unit("B", (10, 40), quality=q1[0]), unit("B2", (30, 40), quality=q1[1])])


def end_activation(g):
    g.apply(("end",))


# ------------------------------------------------------------------------------------------ seize
def test_seize_window_before_each_normal_activation():
    g = begin(four(), options={"seize_tokens": 2})
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "seize", (("seize", 2), ("seize", 3), ("decline",)))
    g.apply(("decline",))
    d = g.decision()
    assert (d.side, d.kind) == (0, "activate") and ("pass",) not in d.options
    activate(g, 0)
    end_activation(g)
    d = g.decision()  # Red is due: Blue's window
    assert (d.side, d.kind, d.options) == (0, "seize", (("seize", 1), ("decline",)))
    assert g.state_of(SeizeState).seize_tokens == [2, 2]


def test_seize_then_decline_to_take_back():
    g = begin(four(), options={"seize_tokens": 2})
    g.apply(("seize", 3))
    assert last_event(g, "InitiativeSeized") == {"type": "InitiativeSeized", "side": 1, "unit": 3, "tokens_left": 1}
    d = g.decision()  # Blue (who was due) may take the initiative back
    assert (d.side, d.kind, d.options) == (0, "seize", (("seize", 0), ("seize", 1), ("decline",)))
    g.apply(("decline",))
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "action", 3) and g.units[3].activated
    end_activation(g)
    d = g.decision()  # Blue is still due; Red may seize again with its last token
    assert (d.side, d.kind, d.options) == (1, "seize", (("seize", 2), ("decline",)))
    g.apply(("decline",))
    assert (g.decision().side, g.decision().kind) == (0, "activate")
    assert g.state_of(SeizeState).seize_tokens == [2, 1]


def test_take_the_initiative_back():
    g = begin(four(), options={"seize_tokens": 2})
    g.apply(("seize", 3))
    g.apply(("seize", 1))
    assert last_event(g, "InitiativeTakenBack") == {"type": "InitiativeTakenBack", "side": 0, "unit": 1,
                                                    "tokens_left": 1}
    assert g.state_of(SeizeState).seize_tokens == [1, 1]
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (0, "action", 1)
    assert not g.units[3].activated  # the seize was cancelled
    end_activation(g)
    d = g.decision()  # Red is due now; Blue may seize with its last token
    assert (d.side, d.kind) == (0, "seize")
    g.apply(("decline",))
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "activate", (("activate", 2), ("activate", 3)))


def test_no_take_back_without_tokens():
    g = begin(four(), options={"seize_tokens": [0, 1]})
    g.apply(("seize", 2))  # Blue has no token: Red's unit activates at once
    assert (g.decision().side, g.decision().unit) == (1, 2)
    end_activation(g)
    assert g.decision().kind == "activate"  # Red has no tokens left: no more windows
    activate(g, 0)
    end_activation(g)
    assert g.decision().kind == "activate" and g.decision().side == 1


def test_no_window_when_option_off_or_nothing_to_activate():
    g = begin(four())
    assert g.decision().kind == "activate"
    g = begin(four(), options={"seize_tokens": 1})
    g.apply(("decline",))
    activate(g, 0)
    end_activation(g)
    g.apply(("decline",))  # Blue's window (Red due)
    activate(g, 2)
    end_activation(g)
    g.apply(("decline",))  # Red's window
    activate(g, 1)
    end_activation(g)
    d = g.decision()  # Blue has no unactivated units: no window, Red activates its last unit
    assert (d.side, d.kind) == (1, "activate")


@pytest.mark.parametrize("bad", [-1, "two", [1], [1, 2, 3], True, 1.5])
def test_bad_seize_tokens(bad):
    with pytest.raises(ScenarioError, match="seize_tokens"):
        Game(four(), options={"seize_tokens": bad})


def test_seize_needs_alternate_activation():
    with pytest.raises(ScenarioError, match="alternat"):
        Game(four(), options={"seize_tokens": 2, "activation": "cards"})


# ------------------------------------------------------------------------------------------ seize: tokens awarded (RN-355)
@pytest.mark.parametrize("base,expected", [(0, [2, 0]), (1, [3, 1]), ([0, 2], [2, 2])])
def test_a_token_per_veteran_or_elite_unit(base, expected):
    g = Game(four(q0=("d10", "d12"), q1=("d8", "d6")), options={"seize_tokens": base, "seize_tokens_veterans": True})
    assert g.state_of(SeizeState).seize_tokens == expected


def test_veteran_tokens_count_random_quality():
    g = new_game(four(), [("d6", 6), ("d6", 1), ("d6", 6), ("d6", 6), ("d8", 8), ("d8", 1)],
                 options={"random_quality": True, "seize_tokens_veterans": True})
    assert [u.quality for u in g.units] == [D10, D6, D10, D10]
    assert g.state_of(SeizeState).seize_tokens == [1, 2]


def _objective_scn(tasks=()):
    doc = scenario([unit("A", (10, 5)), unit("A2", (30, 5))], [unit("B", (10, 40)), unit("B2", (30, 40))],
                   objectives=[{"name": "Farm", "position": [10, 7], "vp": 1},
                               {"name": "Hill", "position": [30, 20], "vp": 1}])
    if tasks:
        doc["tasks"] = list(tasks)
    return doc


def test_a_token_the_first_time_a_side_holds_each_objective():
    g = begin(_objective_scn(), options={"seize_tokens_objectives": True})
    # Blue is due; the award is checked first: Blue holds the Farm from the start
    assert events_of(g, "SeizeTokenAwarded") == [{"type": "SeizeTokenAwarded", "side": 0, "reason": "objective",
                                                  "name": "Farm", "tokens": 1}]
    assert g.state_of(SeizeState).seize_tokens == [1, 0]
    assert g.decision().kind == "activate"  # Red has no token: no window for Red
    activate(g, 0)
    end_activation(g)
    d = g.decision()  # Red is due: Blue's window, with the token it earned
    assert (d.side, d.kind) == (0, "seize")
    g.apply(("decline",))
    activate(g, 3)
    g.units[3].y = 22.0  # Red's B2 reaches the Hill (its leader within 3")
    end_activation(g)
    assert events_of(g, "SeizeTokenAwarded")[-1] == {"type": "SeizeTokenAwarded", "side": 1, "reason": "objective",
                                                     "name": "Hill", "tokens": 1}
    g.units[1].y = 19.0  # Blue contests the Hill too: nobody holds it, and the Farm is never awarded twice
    n = len(events_of(g, "SeizeTokenAwarded"))
    d = g.decision()
    assert d.kind == "seize" and d.side == 1  # Blue is due: Red may seize with its new token
    g.apply(("decline",))
    activate(g, 1)
    end_activation(g)
    assert len(events_of(g, "SeizeTokenAwarded")) == n
    assert g.state_of(SeizeState).seize_awarded == [["objective:0"], ["objective:1"]]


def test_a_token_for_each_scenario_task_done():
    task = {"name": "Radio", "position": [10, 7], "vp": 2}
    g = begin(_objective_scn(tasks=[task]), options={"seize_tokens_objectives": True})
    activate(g, 0)
    g.apply(("reorganise", "task"))
    end_activation(g)
    awards = [(e["reason"], e["name"], e["side"]) for e in events_of(g, "SeizeTokenAwarded")]
    assert awards == [("objective", "Farm", 0), ("task", "Radio", 0)]
    assert g.state_of(SeizeState).seize_tokens == [2, 0]


def test_no_awards_without_the_options():
    g = begin(_objective_scn(), options={"seize_tokens": 1})
    g.apply(("decline",))
    activate(g, 0)
    assert not events_of(g, "SeizeTokenAwarded") and g.state_of(SeizeState).seize_tokens == [1, 1]
    assert SeizeState not in Game(four(q0=("d10", "d12"))).components  # the optional rule is off by default


@pytest.mark.parametrize("opts,match", [({"seize_tokens_veterans": 1}, "seize_tokens_veterans must be true or false"),
                                        ({"seize_tokens_objectives": "yes"}, "seize_tokens_objectives"),
                                        ({"seize_tokens_objectives": True, "activation": "chits"}, "alternat")])
def test_bad_seize_award_options(opts, match):
    with pytest.raises(ScenarioError, match=match):
        Game(four(), options=opts)


# ------------------------------------------------------------------------------------------ chits
def test_chit_draw_decides_the_side():
    # no initiative roll; bag (2, 2): roll_n(4) = 3 -> faces 3..4 are Red's
    g = new_game(four(), [("d4", 3)], options={"activation": "chits"})
    assert not events_of(g, "InitiativeRolled")
    assert last_event(g, "ChitDrawn") == {"type": "ChitDrawn", "side": 1, "roll": 3, "chits_left": [2, 1]}
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "activate", (("activate", 2), ("activate", 3)))  # no passing
    activate(g, 2)
    g.dice.results.extend(g.dice.__class__([1]).results)  # bag (2, 1): 1 -> Blue
    end_activation(g)
    assert last_event(g, "ChitDrawn")["side"] == 0 and g.decision().side == 0
    activate(g, 0)
    g.dice.results.extend(g.dice.__class__([2]).results)  # bag (1, 1): 2 -> Red
    end_activation(g)
    activate(g, 3)
    end_activation(g)  # bag (1, 0): Blue's chit without a roll
    assert last_event(g, "ChitDrawn") == {"type": "ChitDrawn", "side": 0, "roll": 0, "chits_left": [0, 0]}
    activate(g, 1)
    g.dice.results.extend(g.dice.__class__([("d4", 1)]).results)  # turn 2: a new bag, first draw
    end_activation(g)
    assert g.turn == 2 and g.decision().side == 0 and g.dice.remaining == 0


def test_spare_chit_of_a_side_without_units_is_discarded():
    g = new_game(four(), [("d4", 1)], options={"activation": "chits"})
    activate(g, 0)
    g.units[1].figures = [f for f in g.units[1].figures[:1]]
    g.units[1].set_figure(0, status=3)  # Blue's other unit is gone: its chit is spare
    g.dice.results.extend(g.dice.__class__([1]).results)  # bag (1, 2): 1 -> Blue's spare chit
    end_activation(g)
    drawn = events_of(g, "ChitDrawn")
    assert [(e["side"], e["roll"]) for e in drawn] == [(0, 1), (0, 1), (1, 0)]  # then only Red's chits: no roll
    assert g.decision().side == 1 and g.dice.remaining == 0


def test_chit_quality_variant_counts_and_end_of_turn_rule():
    # Blue: veteran + experienced = 3 chits; Red: untrained + experienced = 1 chit
    scn = four(q0=("d10", "d8"), q1=("d4", "d8"))
    g = new_game(scn, [("d4", 1)], options={"activation": "chits", "chit_quality_variant": True})
    assert g.state_of(ChitBag).chits == [2, 1]  # after the first draw (Blue)
    d = g.decision()
    assert d.side == 0 and ("pass",) in d.options  # 2 chits left >= 2 unactivated: flexibility
    g.dice.results.extend(g.dice.__class__([3]).results)
    g.apply(("pass",))  # the chit is spent; next draw: 3 -> Red
    assert last_event(g, "ChitDrawn")["side"] == 1
    d = g.decision()
    assert d.side == 1 and ("pass",) not in d.options  # Red: 0 chits left < 2 unactivated
    activate(g, 3)
    end_activation(g)  # bag (2, 0): Blue without a roll
    d = g.decision()
    assert d.side == 0 and ("pass",) not in d.options  # 1 chit left < 2 unactivated
    activate(g, 0)
    end_activation(g)
    activate(g, 1)  # Blue's last chit
    end_activation(g)
    # the bag is empty, Red still has unit 2: it may activate it (the side that did not draw last first)
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "activate", (("activate", 2), ("pass",)))
    # unit 2 is untrained: its first activation in sight of the enemy takes a panic test first
    # (D4 4 > LV 2, passed), then the next turn's chit draw rolls (4 chits)
    g.dice.results.extend(g.dice.__class__([("d4", 4), ("d4", 4)]).results)
    activate(g, 2)
    assert last_event(g, "PanicTested")["passed"] is True
    end_activation(g)
    assert g.turn == 2 and g.dice.remaining == 0


def test_militia_end_of_turn_activation_may_be_passed():
    scn = four(q0=("d8", "d8"), q1=("d4", "d4"))  # Red has no chits at all
    g = new_game(scn, [], options={"activation": "chits", "chit_quality_variant": True})
    assert g.state_of(ChitBag).chits == [1, 0] and g.decision().side == 0
    activate(g, 0)
    end_activation(g)
    activate(g, 1)
    end_activation(g)
    d = g.decision()  # end of turn: Red (did not draw last) may activate one of its units
    assert d.side == 1 and d.options == (("activate", 2), ("activate", 3), ("pass",))
    g.apply(("pass",))
    assert g.turn == 2  # one activation at most, then the turn ends


def test_bad_activation_options():
    with pytest.raises(ScenarioError, match="activation"):
        Game(four(), options={"activation": "dice"})
    with pytest.raises(ScenarioError, match="chits"):
        Game(four(), options={"chit_quality_variant": True})
    with pytest.raises(ScenarioError, match="night"):
        Game(four(), options={"night": "yes"})


# ------------------------------------------------------------------------------------------ cards
def test_card_draw_activates_the_unit_directly():
    g = new_game(four(), [("d4", 2)], options={"activation": "cards"})
    assert last_event(g, "CardDrawn") == {"type": "CardDrawn", "unit": 1, "roll": 2, "cards_left": 3}
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (0, "action", 1)
    g.dice.results.extend(g.dice.__class__([3]).results)  # deck [0, 2, 3]: 3 -> unit 3
    end_activation(g)
    assert (g.decision().side, g.decision().unit) == (1, 3)
    g.dice.results.extend(g.dice.__class__([1]).results)  # deck [0, 2]: 1 -> unit 0
    end_activation(g)
    assert g.decision().unit == 0
    end_activation(g)  # the last card (unit 2) needs no roll
    assert last_event(g, "CardDrawn") == {"type": "CardDrawn", "unit": 2, "roll": 0, "cards_left": 0}
    g.dice.results.extend(g.dice.__class__([("d4", 4)]).results)  # turn 2: a fresh deck
    end_activation(g)
    assert g.turn == 2 and g.decision().unit == 3 and g.dice.remaining == 0
    assert not any(d == "activate" for d in [e["type"] for e in g.event_log()])


def test_turn_end_card_ends_the_turn_when_drawn():
    g = new_game(four(), [2], options={"activation": "cards", "turn_end_card": True})  # roll_n(5) = 2: unit 1
    assert g.state_of(CardDeck).deck == [0, 2, 3, -1]  # the turn-end card is last in the deck order
    assert g.decision().unit == 1
    g.dice.results.extend(g.dice.__class__([4, 1]).results)  # deck [0, 2, 3, end]: 4 -> the turn ends; turn 2: 1
    end_activation(g)
    assert last_event(g, "TurnEndCardDrawn") == {"type": "TurnEndCardDrawn", "roll": 4, "cards_left": 3}
    assert [e["type"] for e in g.event_log()].count("TurnEnded") == 1
    assert g.turn == 2 and g.decision().unit == 0  # units 0, 2, 3 never activated in turn 1
    assert [u.activated for u in g.units] == [True, False, False, False] and g.dice.remaining == 0
    g2 = new_game(four(), [5, 1], options={"activation": "cards", "turn_end_card": True})
    assert g2.turn == 2 and g2.decision().unit == 0  # drawn first: turn 1 has no activation at all
    assert [e["type"] for e in g2.event_log() if e["type"] in ("TurnEndCardDrawn", "CardDrawn")] == \
        ["TurnEndCardDrawn", "CardDrawn"]


def test_turn_end_card_last_in_the_deck_needs_no_roll():
    g = new_game(four(), [1, 1, 1, 1, 1],
                 options={"activation": "cards", "turn_end_card": True})
    for _ in range(4):
        end_activation(g)
    assert last_event(g, "TurnEndCardDrawn") == {"type": "TurnEndCardDrawn", "roll": 0, "cards_left": 0}
    assert g.turn == 2 and g.dice.remaining == 0


@pytest.mark.parametrize("opts,match", [({"turn_end_card": True}, "needs activation: cards"),
                                        ({"activation": "cards", "turn_end_card": 1}, "turn_end_card must be")])
def test_bad_turn_end_card_options(opts, match):
    with pytest.raises(ScenarioError, match=match):
        Game(four(), options=opts)


def test_card_of_a_unit_out_of_play_is_skipped():
    g = new_game(four(), [("d4", 1)], options={"activation": "cards"})
    for i in range(len(g.units[2].figures)):
        g.units[2].set_figure(i, status=3)
    g.dice.results.extend(g.dice.__class__([2, 2]).results)  # deck [1, 2, 3]: 2 -> unit 2 (out)
    end_activation(g)
    assert [e["unit"] for e in events_of(g, "CardDrawn")] == [0, 2, 3]
    assert g.decision().unit == 3 and g.dice.remaining == 0


# ------------------------------------------------------------------------------------------ random play
@pytest.mark.parametrize("options", [{"seize_tokens": 2}, {"seize_tokens": [3, 1]}, {"activation": "chits"},
                                     {"activation": "chits", "chit_quality_variant": True},
                                     {"activation": "cards"}])
def test_random_games_encode_and_replay(options):
    codec = ActionCodec()
    for seed in range(5):
        g = Game("skirmish", seed=seed, options=options)
        rng = random.Random(seed)
        while not g.over:
            d = g.decision()
            mask = codec.mask(g, d)
            assert int(mask.sum()) == len(d.options)
            g.apply(codec.decode(g, d.side, int(rng.choice(np.flatnonzero(mask))), d.kind))
        assert Game.from_dict(g.to_dict()).state_digest() == g.state_digest()
