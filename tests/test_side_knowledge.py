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
