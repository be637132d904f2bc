"""The Inbound Chart: reinforcements whose counters move along the inbound track (RN-006, RN-360)."""
import pytest

from conftest import activate, begin, events_of, last_event, new_game, scenario, unit
from dustup_env.codec import ActionCodec
from dustup_env.rules import Game, ScenarioError


def reinforced(box=2, blue_extra=(), red=None):
    """Blue: A (uid 0) on the table and the reinforcement R (uid 1) with its counter in ``box``; Red: B (uid 2)
    and B2 (uid 3)."""
    blue = [unit("A", (10, 5)), unit("R", (30, 2), inbound=box), *blue_extra]
    red = red or [unit("B", (10, 40)), unit("B2", (30, 40))]
    return scenario(blue, red)


def test_a_reinforcement_starts_off_the_table_and_its_counter_moves_instead_of_a_unit_activation():
    g = begin(reinforced(box=2), dice=[("d8", 8), ("d8", 1)])  # turn 2 initiative
    r = g.units[1]
    assert r.inbound == 2 and not r.in_play
    assert g.victory_points() == (0, 0)  # off the table is not out of the game: no VP for the enemy
    d = g.decision()
    assert (d.kind, d.options) == ("activate", (("activate", 0), ("inbound", 1)))
    g.apply(("inbound", 1))
    assert last_event(g, "InboundCounterMoved") == {"type": "InboundCounterMoved", "unit": 1, "box": 1}
    assert r.activated and not r.in_play and not events_of(g, "UnitActivated")
    d = g.decision()  # the counter's move was Blue's activation: Red is due
    assert d.side == 1 and d.kind == "activate"
    activate(g, 2)
    assert not [o for o in g.decision().options if o[0] == "shoot" and o[1] == 1]  # cannot be fired upon
    g.apply(("end",))
    activate(g, 0)
    g.apply(("end",))
    activate(g, 3)
    g.apply(("end",))  # every unit and counter has had its turn: turn 2
    assert g.turn == 2


def test_the_counter_reaches_the_battle_area_and_the_unit_activates_from_the_next_turn():
    g = begin(reinforced(box=1), dice=[("d8", 8), ("d8", 1)])  # turn 2 initiative: Blue
    g.apply(("inbound", 1))
    r = g.units[1]
    assert last_event(g, "ReinforcementArrived") == {"type": "ReinforcementArrived", "unit": 1, "position": [30.0, 2.0]}
    assert r.in_play and r.inbound == 0 and (r.x, r.y) == (30.0, 2.0)
    activate(g, 2)
    g.apply(("end",))
    assert g.decision().options == (("activate", 0),)  # the arrived unit may not activate this turn
    activate(g, 0)
    g.apply(("end",))
    activate(g, 3)
    g.apply(("end",))
    g.apply(("first",))
    assert ("activate", 1) in g.decision().options  # turn 2: it activates like any unit


def test_counters_count_as_unactivated_units_for_passing():
    g = begin(reinforced(box=3, blue_extra=[unit("R2", (20, 2), inbound=3)]))
    assert ("pass",) not in g.decision().options  # Blue: 1 unit + 2 counters > Red's 2 units
    g.apply(("inbound", 2))  # Blue: A (0), R (1), R2 (2); Red: B (3), B2 (4)
    activate(g, 3)
    g.apply(("end",))
    activate(g, 0)
    g.apply(("end",))
    d = g.decision()  # Red: 1 unactivated unit, Blue: 1 counter; equal: no passing
    assert d.side == 1 and ("pass",) not in d.options


def test_a_side_with_only_reinforcements_left_still_fights():
    g = begin(reinforced(box=3))
    for i in range(len(g.units[0].figures)):
        g.units[0].set_figure(i, status=3)  # killed: A is out of play
    assert g.side_can_fight(0)
    assert not g.check_decisive() and not g.over
    assert g.victory_points() == (0, 1)  # A scores for Red; the reinforcement does not


def test_seizing_the_initiative_activates_units_not_counters():
    g = begin(reinforced(), options={"seize_tokens": 1}, first=1)
    d = g.decision()  # Red is due: Blue may seize with its units only
    assert (d.side, d.kind, d.options) == (0, "seize", (("seize", 0), ("decline",)))


def test_random_activation_gives_counters_chits_and_cards():
    g = new_game(reinforced(), [("d4", 2)], options={"activation": "chits"})
    assert [e["chits_left"] for e in events_of(g, "ChitDrawn")] == [[1, 2]]
    assert g.decision().options == (("activate", 0), ("inbound", 1))
    c = new_game(reinforced(), [2, 1], options={"activation": "cards"})  # deck [0, 1, 2, 3]: 2 -> R's card
    assert last_event(c, "InboundCounterMoved")["unit"] == 1 and c.units[1].inbound == 1
    assert c.decision().unit == 0  # the next card (deck [0, 2, 3]: 1 -> unit 0) activates A directly


def test_inbound_option_encodes():
    g = begin(reinforced())
    codec = ActionCodec()
    assert codec.encode(g, 0, ("inbound", 1)) == 464 + 1
    assert codec.decode(g, 0, 465) == ("inbound", 1)


@pytest.mark.parametrize("spec,match", [({"inbound": 4}, "inbound"), ({"inbound": 0}, "inbound"),
                                        ({"inbound": 1, "hidden": True}, "cannot start hidden")])
def test_bad_reinforcements(spec, match):
    doc = scenario([unit("A", (10, 5)), unit("R", (30, 2), **spec)], [unit("B", (10, 40))])
    with pytest.raises(ScenarioError, match=match):
        Game(doc)


def test_random_games_with_reinforcements_replay():
    import random
    doc = reinforced(box=3, blue_extra=[unit("R2", (20, 2), inbound=1)],
                     red=[unit("B", (10, 40)), unit("B3", (30, 46), inbound=2)])
    for seed in range(6):
        g = Game(doc, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            g.apply(rng.choice(g.decision().options))
        assert events_of(g, "ReinforcementArrived") or g.turn < 3
        h = Game.replay(doc, seed, g.history)
        assert h.state_digest() == g.state_digest()
