"""Seize the Initiative and Random Activation (seed 000 "RULES OVERVIEW"): forced-dice tests."""
import random

import numpy as np
import pytest

from conftest import activate, begin, events_of, last_event, new_game, scenario, unit
from dustup_env.codec import ActionCodec
from dustup_env.rules import Game, ScenarioError


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
    assert g.extra["seize_tokens"] == [2, 2]


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
    assert g.extra["seize_tokens"] == [2, 1]


def test_take_the_initiative_back():
    g = begin(four(), options={"seize_tokens": 2})
    g.apply(("seize", 3))
    g.apply(("seize", 1))
    assert last_event(g, "InitiativeTakenBack") == {"type": "InitiativeTakenBack", "side": 0, "unit": 1,
                                                    "tokens_left": 1}
    assert g.extra["seize_tokens"] == [1, 1]
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
    g.units[1].figures[0].status = 3  # Blue's other unit is gone: its chit is spare
    g.dice.results.extend(g.dice.__class__([1]).results)  # bag (1, 2): 1 -> Blue's spare chit
    end_activation(g)
    drawn = events_of(g, "ChitDrawn")
    assert [(e["side"], e["roll"]) for e in drawn] == [(0, 1), (0, 1), (1, 0)]  # then only Red's chits: no roll
    assert g.decision().side == 1 and g.dice.remaining == 0


def test_chit_quality_variant_counts_and_end_of_turn_rule():
    # Blue: veteran + experienced = 3 chits; Red: untrained + experienced = 1 chit
    scn = four(q0=("d10", "d8"), q1=("d4", "d8"))
    g = new_game(scn, [("d4", 1)], options={"activation": "chits", "chit_quality_variant": True})
    assert g.extra["chits"] == [2, 1]  # after the first draw (Blue)
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
    g.dice.results.extend(g.dice.__class__([("d4", 4)]).results)
    activate(g, 2)
    end_activation(g)
    assert g.turn == 2 and g.dice.remaining == 0


def test_militia_end_of_turn_activation_may_be_passed():
    scn = four(q0=("d8", "d8"), q1=("d4", "d4"))  # Red has no chits at all
    g = new_game(scn, [], options={"activation": "chits", "chit_quality_variant": True})
    assert g.extra["chits"] == [1, 0] and g.decision().side == 0
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


def test_card_of_a_unit_out_of_play_is_skipped():
    g = new_game(four(), [("d4", 1)], options={"activation": "cards"})
    for f in g.units[2].figures:
        f.status = 3
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
