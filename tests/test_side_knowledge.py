"""What a side may know, written once (``dustup_env/rules/kernel/knowledge.py``) and asked by the view, the known
enemy units, the observation and the agents' knowledge: they agree unit by unit in games with hidden units and
with infantry mounted in vehicles."""
from __future__ import annotations

import random

import pytest

import golden_games as gg
from agents.knowledge import HiddenInformationError, Knowledge
from dustup_env.observation import Observer
from dustup_env.rules import Game
from dustup_env.rules.kernel.knowledge import HIDDEN, OWN, SEEN, UNSEEN, knows_unit, marker_view, unit_knowledge


def _games():
    yield Game(gg._hidden(gg._doc("default")), seed=4)
    yield Game("armour", seed=2)


def _check(g, observers):
    for side in (0, 1):
        view = {u["uid"]: u for u in g.view(side)["units"]}
        k = Knowledge(g, side)
        for u in g.units:
            known = unit_knowledge(side, u)
            assert knows_unit(side, u) == (known in (OWN, SEEN))
            v = view[u.uid]
            assert ("x" in v) == (known in (OWN, SEEN))  # a stub otherwise, saying which
            assert (known == HIDDEN) == ("x" not in v and bool(v.get("hidden")))
            assert (known == UNSEEN) == bool(v.get("unseen"))
            if known == HIDDEN:
                with pytest.raises(HiddenInformationError):
                    k.units[u.uid]
            else:
                assert k.units[u.uid] is u
        assert [e.uid for e in g.enemy_units(side)] == [
            u.uid for u in g.units if u.side != side and u.in_play and knows_unit(side, u)]
        assert k.markers == g.view(side)["markers"] == [marker_view(side, i, m) for i, m in enumerate(g.markers)]
        ob = observers[side]
        ob.set_from(g, side)
        rows = ob.dict["units"]
        slots = rows.shape[0] // 2
        for k, uid in enumerate(g.side_units[1 - side]):  # an enemy unit the side may not know: an empty row
            assert (not rows[slots + k].any()) == (not knows_unit(side, g.units[uid]))


@pytest.mark.parametrize("n", [0, 1])
def test_every_reader_asks_the_one_function(n):
    g = list(_games())[n]
    rng = random.Random(n)
    kinds = set()
    observers = (Observer.for_game(g), Observer.for_game(g))
    for _ in range(400):
        if g.over:
            break
        _check(g, observers)
        kinds |= {unit_knowledge(s, u) for s in (0, 1) for u in g.units}
        g.apply(rng.choice(g.decision().options))
    assert {OWN, SEEN} <= kinds
    assert (HIDDEN if n == 0 else UNSEEN) in kinds  # the game shows the case it is here for


def test_game_tokens_are_one_per_live_game_and_freeing_a_game_runs_no_python_code():
    """The bots key their per-game caches on :func:`agents.knowledge.game_token`: the same token for the same game,
    another for every other live game (a clone included), and a new one for a new game at a freed game's address.
    Freeing a game runs no Python code: a Ctrl-C that arrives in Python code run while an object is freed (a
    WeakKeyDictionary's removal callback) is only printed, never raised, and a search frees thousands of clones a
    second.  The table stays small however many games come and go."""
    import sys

    from agents import knowledge
    from agents.knowledge import game_token

    g = Game("skirmish", seed=1)
    t = game_token(g)
    assert game_token(g) is t
    clones = [g.clone() for _ in range(50)]
    tokens = [game_token(c) for c in clones]
    assert len({id(x) for x in tokens + [t]}) == 51
    assert [game_token(c) for c in clones] == tokens
    old = game_token(clones[0])
    del clones[0]
    fresh = [g.clone() for _ in range(20)]  # one may land at the freed clone's address
    assert all(game_token(c) is not old for c in fresh)

    c = g.clone()
    game_token(c)
    called = []
    sys.setprofile(lambda frame, event, arg: called.append(frame.f_code.co_name) if event == "call" else None)
    try:
        del c
    finally:
        sys.setprofile(None)
    assert called == []

    for _ in range(20000):
        game_token(g.clone())
    assert len(knowledge._TOKENS) <= 2 * 4096 + 100
    assert game_token(g) is t
