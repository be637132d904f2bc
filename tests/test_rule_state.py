"""One home for rule state: each rule's state is a typed component of the game state (kernel/state.py
``Component``), copied by ``clone()``, saved, loaded and digested under its fields' names."""
from __future__ import annotations

import json
import random

import pytest

from dustup_env.rules import Game
from dustup_env.rules.kernel.errors import SaveFormatError
from dustup_env.rules.kernel import saves
from dustup_env.rules.kernel.state import COMPONENT_FIELDS, Component, Unclaimed
from dustup_env.rules.rules_overview.random_activation import CardDeck, ChitBag
from dustup_env.rules.rules_overview.seize_the_initiative import SeizeState


def _play(g, n, seed=0):
    rng = random.Random(seed)
    for _ in range(n):
        if g.over:
            break
        g.apply(rng.choice(g.decision().options))
    return g


def test_a_rule_reads_and_writes_its_own_component():
    g = Game("skirmish", seed=1, options={"seize_tokens": [2, 1]})
    st = g.state_of(SeizeState)
    assert isinstance(st, SeizeState) and st.seize_tokens == [2, 1] and st.seize_awarded is None
    assert g.state_of(SeizeState) is st  # one instance per game
    assert ChitBag not in g.components  # a rule not in the game's rule set has no state


def test_saved_under_the_names_of_before():
    """The snapshot and the state digest hold the rule state as the plain ``extra`` mapping saves always had."""
    g = _play(Game("skirmish", seed=3, options={"activation": "chits"}), 30)
    extra = saves.state(g)["extra"]
    assert set(extra) == {"chits", "chit_last"} | ({"chit_final"} if g.state_of(ChitBag).chit_final is not None
                                                   else set())
    assert extra["chits"] == g.state_of(ChitBag).chits
    assert saves.state(Game("skirmish", seed=3))["extra"] == {}


def test_clone_copies_components_independently():
    g = _play(Game("skirmish", seed=5, options={"activation": "cards"}), 20)
    c = g.clone()
    assert c.state_of(CardDeck) == g.state_of(CardDeck) and c.state_of(CardDeck) is not g.state_of(CardDeck)
    c.state_of(CardDeck).deck.append(99)
    assert 99 not in g.state_of(CardDeck).deck
    assert c.state_digest() != g.state_digest()


def test_snapshot_round_trip_and_unclaimed_state():
    g = _play(Game("skirmish", seed=7, options={"activation": "cards"}), 25)
    doc = json.loads(json.dumps(g.snapshot()))
    h = Game.from_snapshot(doc)
    assert h.state_of(CardDeck) == g.state_of(CardDeck) and h.state_digest() == g.state_digest()
    doc["state"]["extra"]["from_a_later_rule"] = {"1": [2, 3]}  # no rule of this engine claims it: kept as it was
    k = Game.from_snapshot(doc)
    assert k.components[Unclaimed].data == {"from_a_later_rule": {"1": [2, 3]}}
    assert saves.state(k)["extra"] == doc["state"]["extra"]
    assert saves.state(k.clone())["extra"] == doc["state"]["extra"]


def test_a_field_name_belongs_to_one_rule():
    with pytest.raises(TypeError, match="seize_tokens"):
        class Clash(Component):  # noqa: F841 - the class statement itself must fail
            __slots__ = ("seize_tokens",)
    assert COMPONENT_FIELDS["seize_tokens"] is SeizeState
    with pytest.raises(TypeError, match="no field"):
        SeizeState(tokens=[1, 1])


def test_a_malformed_rule_state_is_a_clear_error():
    doc = json.loads(json.dumps(Game("skirmish", seed=1).snapshot()))
    doc["state"]["extra"] = [1, 2]
    with pytest.raises(SaveFormatError, match="snapshot state is malformed"):
        Game.from_snapshot(doc)


def test_a_component_may_extend_another():
    class Base(Component):
        __slots__ = ("test_base_field",)

    class More(Base):
        __slots__ = ("test_more_field",)

    m = More(test_base_field=[1], test_more_field={"a": [2]})
    c = m.copy()
    assert c == m and More.FIELDS == ("test_base_field", "test_more_field")
    c.test_more_field["a"].append(3)
    assert m.test_more_field == {"a": [2]}
    out = {}
    m.saved(out)
    assert out == {"test_base_field": [1], "test_more_field": {"a": [2]}}


def _mid_order(seed=0):
    """A default game just after a successful order: the ordered unit's activation above its commander's."""
    for s in range(seed, seed + 40):
        g, rng = Game("default", seed=s), random.Random(s)
        while not g.over:
            acts = [f for f in g.stack if f.type == "activation"]
            if len(acts) >= 2 and acts[-1].ordered:
                return g, acts[-2].unit, acts[-1].unit
            g.apply(rng.choice(g.decision().options))
    raise AssertionError("no order succeeded")


def test_the_order_action_keeps_its_ordered_units_in_its_own_component():
    """The units a commander ordered in its activation are the Order Action's state (OrderState), not a key of the
    commander's activation frame; they are forgotten when that activation ends (nothing saved then)."""
    from dustup_env.rules.unit_actions.order_action import OrderState, ordered_by
    g, cmd, sub = _mid_order()
    assert all("ordered" not in f.data for f in g.stack)
    assert g.state_of(OrderState).orders_given == {str(cmd): [sub]} and ordered_by(g, cmd) == [sub]
    assert saves.state(g)["extra"]["orders_given"] == {str(cmd): [sub]}
    c = g.clone()
    c.state_of(OrderState).orders_given[str(cmd)].append(99)
    assert ordered_by(g, cmd) == [sub]  # the copy's state is its own
    rng = random.Random(1)
    while not g.over and any(f.type == "activation" and f.unit == cmd for f in g.stack):
        if g.decision().unit == cmd and g.decision().kind == "action":
            assert ("order", sub) not in g.decision().options  # once per activation (L993)
        g.apply(rng.choice(g.decision().options))
    assert str(cmd) not in (g.state_of(OrderState).orders_given or {})
    if not any(f.type == "activation" for f in g.stack):
        assert "orders_given" not in saves.state(g)["extra"]


def test_the_ordered_units_load_from_a_snapshot_of_the_form_before_and_digest_as_version_1_saves_did(monkeypatch):
    """An older snapshot held the list in the commander's activation frame (data "ordered"): it loads into the
    component; the state digest of version-1 saves is taken over that form."""
    from dustup_env.rules.unit_actions.order_action import ordered_by
    g, cmd, sub = _mid_order()
    snap = saves.snapshot(g)
    st = snap["state"]
    given = st["extra"].pop("orders_given")
    frame = next(f for f in reversed(st["stack"]) if f["type"] == "activation" and f["unit"] == cmd)
    frame["data"]["ordered"] = given[str(cmd)]
    back = saves.from_snapshot(Game, json.loads(json.dumps(snap)))
    assert ordered_by(back, cmd) == [sub] and all("ordered" not in f.data for f in back.stack)
    assert back.state_digest() == g.state_digest() and back.decision() == g.decision()
    docs = []
    monkeypatch.setattr(saves, "_digest", lambda doc: docs.append(doc) or "")
    saves._v1_digest(g)
    assert "orders_given" not in docs[0]["extra"]
    assert [f["data"] for f in docs[0]["stack"] if f["unit"] == cmd] == [{"ordered": [sub]}]
    assert ordered_by(g, cmd) == [sub] and all("ordered" not in f.data for f in g.stack)  # the game is untouched
