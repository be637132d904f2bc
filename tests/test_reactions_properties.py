"""Random games with seed 001 reactions and seed 004 interrupts switched on, and the hidden-information twin test.

* 50 random games each with ``reactions``, ``interrupt`` and both (skirmish and default), and 10 each with both and
  chits or cards (one on armour): every game ends (no
  reaction loop), every invariant of tests/test_properties.py holds at every step, reaction tokens stay on units
  that may hold them, and a replay, a save and a snapshot taken mid-game play on exactly.
* Twin games: a hidden Red unit could react to (or interrupt) Blue's moves in one game and not in the other (the
  hidden unit and a dummy marker swap places); Blue's observation, action mask, view and event log are identical at
  every Blue decision while Red declines, and so are the choices of Blue's bot.
"""
import json
import random

import pytest

from test_hidden_info import CODEC, observe, twin_scenarios
from test_properties import Invariants
from agents.base import make_agent
from agents.knowledge import Knowledge
from dustup_env.observation import Observer
from dustup_env.rules import Game
from dustup_env.rules.reactions_and_interrupts.reactions import tokens

OPTION_SETS = {"reactions": {"reactions": True}, "interrupt": {"interrupt": True},
               "both": {"reactions": True, "interrupt": True}}
# random activation: a unit that forfeited its activation is passed over by the chits and the cards
RANDOM_ACTIVATION = {"chits": {"reactions": True, "interrupt": True, "activation": "chits"},
                     "cards": {"reactions": True, "interrupt": True, "activation": "cards", "turn_end_card": True}}
RX_KINDS = ("reaction", "reaction_choice", "interrupt", "interrupt_fire")


def _play(scn, seed, options, max_decisions=20_000):
    g = Game(scn, seed=seed, options=options)
    inv = Invariants(g)
    rng = random.Random(seed * 7 + 1)
    taken, kinds, mid = [], set(), None
    while not g.over:
        assert len(taken) < max_decisions, "game did not end"
        d = g.decision()
        kinds.add(d.kind)
        if mid is None and d.kind in RX_KINDS and rng.random() < 0.3:  # a save taken while a reaction waits
            mid = (len(taken), json.loads(json.dumps(g.to_dict())), json.loads(json.dumps(g.snapshot())))
        opt = rng.choice(d.options)
        g.apply(opt)
        taken.append(opt)
        inv.check(g)
        for uid in tokens(g):
            assert g.units[uid].side in (0, 1)
    return g, taken, kinds, mid


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_fifty_random_games_end_keep_their_invariants_and_replay_exactly(name):
    options = OPTION_SETS[name]
    seen, events = set(), set()
    for k in range(50):
        scn = "default" if k % 5 == 0 else "skirmish"
        g, taken, kinds, mid = _play(scn, 7000 + k, options)
        seen |= kinds
        events.update(e["type"] for e in g.event_log())
        if k % 5 == 1:
            r = Game.replay(scn, 7000 + k, taken, options=options)
            assert r.event_log() == g.event_log() and r.state_digest() == g.state_digest()
        if mid is not None and k % 3 == 0:
            n, save, snap = mid
            a, b = Game.from_dict(save), Game.from_snapshot(snap)
            assert a.state_digest() == b.state_digest()
            for opt in taken[n:]:
                a.apply(opt)
                b.apply(opt)
            assert a.state_digest() == b.state_digest() == g.state_digest()
            assert a.event_log() == g.event_log()
    if "reactions" in options:
        assert {"reaction", "reaction_choice"} <= seen and {"ReactionTaken", "ReactionTokensRemoved"} <= events
    if "interrupt" in options:
        assert {"interrupt", "interrupt_fire"} <= seen and {"InterruptDeclared", "InterruptResponse"} <= events


@pytest.mark.parametrize("name", list(RANDOM_ACTIVATION))
def test_random_activation_games_with_reactions_and_interrupts_end_and_replay(name):
    options = RANDOM_ACTIVATION[name]
    for k in range(10):
        scn = "armour" if k == 9 else "skirmish"
        g, taken, _, _ = _play(scn, 8000 + k, options)
        forfeited = set()
        for e in g.event_log():  # S004:377: a unit that interrupted does not activate later in the turn
            if e["type"] == "TurnStarted":
                forfeited = set()
            elif e["type"] == "InterruptDeclared":
                forfeited.add(e["unit"])
            elif e["type"] == "UnitActivated":
                assert e["unit"] not in forfeited, (k, e)
        r = Game.replay(scn, 8000 + k, taken, options=options)
        assert r.state_digest() == g.state_digest()


# ---------------------------------------------------------------------------------------------- hidden information
PASSES = {"reaction": ("decline",), "reaction_choice": ("decline",), "interrupt": ("decline",)}


def _blue_knows(g):
    d = g.decision()
    mask = CODEC.mask(g, d).tobytes() if d.side == 0 else None
    full = Observer.for_game(g).set_from(g, 0).tobytes()  # with the game's own pieces (the reaction tokens)
    return observe(g, 0).tobytes(), full, mask, repr(g.view(0)), repr(g.event_log(0))


def _settle(g, counter):
    """Red declines every reaction and interrupt offered (nothing of it may show to Blue)."""
    while not g.over and g.decision().kind in PASSES and g.decision().side == 1:
        d = g.decision()
        counter[0] += 1
        g.apply(PASSES[d.kind])


@pytest.mark.parametrize("options", [{"reactions": True}, {"interrupt": True}, {"reactions": True, "interrupt": True}])
def test_a_hidden_units_chance_to_react_or_interrupt_does_not_show_to_the_other_side(options):
    """The hidden Red squad (uid 3) stands behind one of three markers; in the twin game it stands behind another.
    Blue's squads advance past the markers; Red is offered reactions or interrupts in one game where it is not in the
    other, declines them, and Blue's knowledge stays identical throughout."""
    offered_differently = 0
    for seed in range(6):
        sa, sb = twin_scenarios(0, 2)
        ga, gb = Game(sa, seed=seed, options=options), Game(sb, seed=seed, options=options)
        rng = random.Random(seed)
        na, nb = [0], [0]
        steps = 0
        while steps < 300:
            _settle(ga, na)
            _settle(gb, nb)
            if ga.over or gb.over:
                assert ga.over and gb.over
                break
            da, db = ga.decision(), gb.decision()
            assert (da.side, da.kind) == (db.side, db.kind)
            if da.side == 0:
                assert _blue_knows(ga) == _blue_knows(gb)
                bots = [make_agent("hard", seed), make_agent("hard", seed)]
                assert bots[0].decide(Knowledge(ga, 0), da) == bots[1].decide(Knowledge(gb, 0), db)
                moves = [o for o in da.options if o[0] == "move" and o[1] in (15, 0, 1)]
                opts = moves if moves and rng.random() < 0.8 else [o for o in da.options if o[0] != "detect"]
            elif da.kind == "action" and da.unit == 3:
                opts = [o for o in da.options if o[0] in ("end", "prop", "unprop")]
            else:
                assert da.options == db.options
                opts = list(da.options)
            opt = rng.choice(opts)
            ga.apply(opt)
            gb.apply(opt)
            steps += 1
        offered_differently += na[0] != nb[0]
    assert offered_differently > 0  # the twins really differed in what the hidden unit was offered
