"""Things on the table that are not units (kernel/table.py): typed table entities, a unit's location, and the one
function that moves a unit.

The test-only rule here is the worked example of docs/architecture.md ("Table entities, locations and moving a
unit"): nothing in the engine knows it; it is one Rule added to a game's rule set.

* ``MINES``: a minefield its owner alone knows of (an owner-only entity) and a beacon both sides see (a public
  one).  A unit of the other side that enters the minefield, by a walk or by any other move (a dismount), strikes
  it: the ``move_step`` point runs, the minefield is revealed.  A side may ``test_clear`` an entity it knows of
  (an option naming it by the side's ref: the ``entity`` argument kind of the action layout).
"""
import json

import pytest

from conftest import SIDE0_WINS, activate, events_of, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.codec import N_ACTIONS, ActionCodec, FAMILIES, Layout
from dustup_env.observation import Observer
from dustup_env.rules import Game, IllegalOptionError, Rule, ScenarioError, ScriptedDice
from dustup_env.rules.kernel import table
from dustup_env.rules.kernel.entities import unit_dict, unit_from_dict
from dustup_env.rules.kernel.events import Event, event
from dustup_env.rules.kernel.ruleset import Family, Option
from dustup_env.rules.kernel.table import EntityKind, by_ref, contains, entities_of, reveal
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state

EAST = 4


# ---------------------------------------------------------------------------------------------- the test-only rule
@event
class MineStruck(Event):
    unit: int
    x: float
    y: float


@event
class MinesLaid(Event):
    """The owner's own record of laying a minefield: that side's alone (``only``), naming the entity."""
    only: int
    entity: int


@event
class EntityCleared(Event):
    entity: int


def _set_up(game):
    """Set-up: a beacon between the lines, known to both sides (and, with the option, side 1's minefield)."""
    table.add(game, "test_beacon", 24.0, 24.0)
    if game.options["test_mines"]:
        lay_mines(game)


def _mines(game, u, x0, y0, x1, y1):
    """The move_step point: a unit of the other side stepping into a minefield strikes it (and stops)."""
    for e in entities_of(game, "test_minefield"):
        if e["owner"] != u.side and contains(e, x1, y1) and not contains(e, x0, y0):
            game.emit(MineStruck(u.uid, round(x1, 3), round(y1, 3)))
            reveal(game, e["id"])
            return True
    return False


def _clear_options(game, u, status):
    return [("test_clear", r) for r in table.known_refs(game, u.side)]


def _clear(game, u, opt):
    e = by_ref(game, u.side, opt[1])
    table.remove(game, e["id"])
    game.emit(EntityCleared(e["id"]))


MINES = Rule("Test minefields", "a test-only rule", init=(_set_up,),
             options=(Option("test_mines", False, "side 1 lays a test minefield at the set-up"),),
             entity_kinds={"test_minefield": EntityKind("a minefield only its owner knows of", known="owner"),
                           "test_beacon": EntityKind("a beacon both sides see")},
             move_step=(_mines,), action_options=(_clear_options,), actions={"test_clear": _clear},
             families=(Family("test_clear", ("entity",), 500, "clear a table entity the side knows of"),))


def lay_mines(g, x=30.0, y=10.0, r=2.0, owner=1):
    eid = table.add(g, "test_minefield", x, y, owner=owner, shape={"shape": "circle", "r": r})
    g.emit(MinesLaid(owner, eid))
    return eid


def duel():
    return scenario([unit("A", (24, 10), figures=(("rifle", 3),))], [unit("B", (24, 40), figures=(("rifle", 3),))])


def game(scn=None, dice=(), mines=True, seed=None):
    if seed is not None:
        g = Game(scn or duel(), seed=seed, rules=(MINES,))
    else:
        g = Game(scn or duel(), seed=0, dice=ScriptedDice(SIDE0_WINS + list(dice)), rules=(MINES,))
        g.apply(("first",))
    if mines:
        lay_mines(g)
    return g


# ---------------------------------------------------------------------------------------------- entities
def test_an_owner_only_entity_shows_to_its_owner_and_never_to_the_other_side():
    g = game()
    v0, v1 = g.view(0), g.view(1)
    assert [e["kind"] for e in v0["entities"]] == ["test_beacon"]
    assert [e["kind"] for e in v1["entities"]] == ["test_beacon", "test_minefield"]
    assert v1["entities"][1] == {"ref": 1, "kind": "test_minefield", "owner": 1, "x": 30.0, "y": 10.0,
                                 "shape": {"shape": "circle", "r": 2.0}, "state": {}, "known": "owner"}
    assert "minefield" not in json.dumps(v0) and "minefield" not in json.dumps(g.event_log(0))


def decoded(codec, g, side=0):
    """What every index of the action layout names for ``side`` (None: nothing)."""
    out = []
    for a in range(1, codec.n):
        try:
            out.append(codec.decode(g, side, a, kind="action"))
        except IllegalOptionError:
            out.append(None)
    return out


def test_twin_games_differing_only_in_the_hidden_entity_look_the_same_to_the_other_side():
    """Side 0 sees the same view, observation, action layout and mask whether side 1 laid a minefield or not; and
    a public entity placed after the hidden one has the same ref for side 0 in both (the id would show the gap)."""
    twins = [game(seed=5, mines=m) for m in (True, False)]
    for g in twins:
        table.add(g, "test_beacon", 10.0, 30.0)  # after the minefield in the first twin
    obs = [Observer.for_game(g) for g in twins]
    codecs = [ActionCodec(Layout.of(g.rules)) for g in twins]
    for _ in range(40):
        if twins[0].over:
            break
        views = [g.view(0) for g in twins]
        assert views[0] == views[1]
        assert (obs[0].observation(twins[0], 0) == obs[1].observation(twins[1], 0)).all()
        assert decoded(codecs[0], twins[0]) == decoded(codecs[1], twins[1])
        d0, d1 = twins[0].decision(), twins[1].decision()
        if d0.side == 0:
            assert (codecs[0].mask(twins[0], d0) == codecs[1].mask(twins[1], d1)).all()
        opt = sorted(d0.options)[len(d0.options) // 2]
        if d0.side == 0:
            assert opt in d1.options
        else:  # side 1's options name the minefield in one twin only: take one both have
            opt = sorted(set(d0.options) & set(d1.options))[0]
        for g in twins:
            g.apply(opt)
    assert [e["id"] for e in twins[0].entities if e["kind"] == "test_beacon"] == [0, 2]
    assert [e["id"] for e in twins[1].entities if e["kind"] == "test_beacon"] == [0, 1]


def test_the_entity_argument_kind_names_only_what_the_side_knows_by_its_ref():
    g = game()
    codec = ActionCodec(Layout.of(Game.standard_rules + (MINES,)))
    start = next(b[0] for b in codec.layout.blocks if b[1] == "test_clear")
    assert start == N_ACTIONS and codec.n == N_ACTIONS + table.MAX_ENTITIES  # appended: every index keeps its meaning
    assert codec.decode(g, 1, start + 1) == ("test_clear", 1)  # side 1's minefield
    with pytest.raises(IllegalOptionError, match="names no unit"):
        codec.decode(g, 0, start + 1)  # side 0 knows of one entity only
    assert codec.encode(g, 0, ("test_clear", 0)) == start
    activate(g, 0)
    assert [o for o in g.decision().options if o[0] == "test_clear"] == [("test_clear", 0)]
    g.apply(("test_clear", 0))  # side 0 clears the beacon
    assert g.entities[0]["removed"] and [e["kind"] for e in g.view(0)["entities"]] == []
    with pytest.raises(IllegalOptionError, match="names no unit"):
        codec.decode(g, 0, start)


def test_the_standard_families_that_use_the_entity_kind_are_appended():
    """The infantry, vehicle, artillery and aerospace layout keeps its 1,472 indices; the Additional Rules append
    the families naming an entity by the side's ref: a fire, a minefield, a building."""
    assert N_ACTIONS == 1472 + 162 + 2 * table.MAX_ENTITIES + 3 + 32 * 3 * 4 + 12 * 4 + 12 + 145 + 121 + 48 + 2  # + cargo, + cargo dropped from the air
    assert [name for name, args in FAMILIES if "entity" in args] == ["fight_fire", "clear_lane", "line_charge",
                                                                      "fire_building"]


def test_entity_kinds_must_be_declared_and_entities_checked():
    g = game()
    with pytest.raises(ScenarioError, match="unknown kind 'mine'"):
        table.add(g, "mine", 1, 1)
    with pytest.raises(ScenarioError, match="owner is 0, 1 or -1"):
        table.add(g, "test_beacon", 1, 1, owner=2)
    with pytest.raises(ScenarioError, match="known is one of"):
        table.add(g, "test_beacon", 1, 1, known="secret")
    with pytest.raises(ValueError, match="entity_kinds 'test_beacon' is claimed by two rules"):
        Game(duel(), rules=(MINES, Rule("Other", entity_kinds={"test_beacon": EntityKind()})))


def test_entities_are_cloned_snapshotted_saved_and_digested_with_the_state():
    g = Game(duel(), seed=3, rules=(MINES,), options={"test_mines": True})
    clone = g.clone()
    clone.entities[1]["state"]["density"] = 2
    reveal(clone, 1)
    assert g.entities[1]["state"] == {} and g.entities[1]["known"] == "owner"
    assert g.state_digest() != clone.state_digest()
    snap = Game.from_snapshot(json.loads(json.dumps(g.snapshot())), rules=(MINES,))
    assert snap.entities == g.entities and snap.state_digest() == g.state_digest()
    for _ in range(12):
        g.apply(g.decision().options[-1])  # (side 1 clears its minefield on the way)
    loaded = Game.from_dict(json.loads(json.dumps(g.to_dict())), rules=(MINES,))
    assert loaded.entities == g.entities and loaded.state_digest() == g.state_digest()
    snap = Game.from_snapshot(json.loads(json.dumps(g.snapshot())), rules=(MINES,))
    assert snap.entities == g.entities and snap.state_digest() == g.state_digest()
    assert any(e["removed"] for e in g.entities)


def test_a_game_without_entities_keeps_its_state_digest_form():
    g = Game("skirmish", seed=1)
    assert g.entities == [] and "entities" not in g.snapshot()["state"] and "entities" not in g.view(0)


# ---------------------------------------------------------------------------------------------- moving a unit
def test_a_walk_into_the_minefield_runs_the_point_and_reveals_it():
    g = game(dice=[("d6", 6)])  # movement D6 = 6: 12" of movement points
    activate(g, 0)
    g.apply(("move", EAST, 1))
    struck = events_of(g, "MineStruck")
    assert struck and struck[0]["unit"] == 0 and g.units[0].x < 30.0
    assert [e["kind"] for e in g.view(0)["entities"]] == ["test_beacon", "test_minefield"]
    assert g.view(0)["entities"][1]["known"] == "revealed"


def test_the_log_names_entities_by_ref_and_keeps_a_sides_own_events_from_the_other():
    """An event with ``only`` is that side's alone; one naming an entity reaches a side that knows of the entity,
    by that side's ref; so the logs of twin games that differ only in a hidden minefield read the same to the
    other side."""
    g = game(dice=[("d6", 6)])
    mid = next(e["id"] for e in g.entities if e["kind"] == "test_minefield")
    assert mid == 1
    laid1 = [d for d in g.event_log(1) if d["type"] == "MinesLaid"]
    assert laid1 == [{"type": "MinesLaid", "only": 1, "entity": 1}]  # side 1's ref for it is 1 (the beacon is 0)
    assert not [d for d in g.event_log(0) if d["type"] == "MinesLaid"]
    assert [d for d in g.event_log(None) if d["type"] == "MinesLaid"] == [{"type": "MinesLaid", "only": 1,
                                                                           "entity": 1}]
    later = table.add(g, "test_beacon", 10.0, 30.0)  # id 2; side 0 knows it as its ref 1
    activate(g, 0)
    g.apply(("test_clear", 1))
    assert g.entities[later]["removed"]
    assert [d for d in g.event_log(0) if d["type"] == "EntityCleared"] == [{"type": "EntityCleared", "entity": 1}]
    assert [d for d in g.event_log(1) if d["type"] == "EntityCleared"] == [{"type": "EntityCleared", "entity": 2}]
    twins = [game(seed=5, mines=m) for m in (True, False)]
    for t in twins:
        table.add(t, "test_beacon", 10.0, 30.0)
    assert twins[0].event_log(0) == twins[1].event_log(0)
    assert twins[0].event_log(1) != twins[1].event_log(1)


def apc_duel():
    """An APC (uid 0) with a squad aboard (uid 1) beside side 1's minefield, an enemy squad (uid 2)."""
    return scenario([vehicle("APC", (27.5, 10), "apc_wheeled"), unit("S", (27.5, 10), figures=(("rifle", 3),))],
                    [unit("E", (5, 45), figures=(("rifle", 3),))])


def test_a_dismount_into_the_minefield_runs_the_move_step_point():
    """A dismount is no walk: it goes through kernel.table.place, which runs the move_step hooks for the step from
    the vehicle to where the passenger is put."""
    g = game(apc_duel(), dice=[("d6", 3)], mines=False)
    lay_mines(g, x=32.0, y=10.0, r=2.5)
    s, v = g.units[1], g.units[0]
    vehicle_state(s).carrier, vehicle_state(v).passengers = 0, [1]
    activate(g, 1)
    g.apply(("dismount", EAST))
    assert s.veh.carrier == -1 and contains(g.entities[1], s.x, s.y)
    assert events_of(g, "MineStruck") == [{"type": "MineStruck", "unit": 1, "x": round(s.x, 3), "y": round(s.y, 3)}]
    assert g.entities[1]["known"] == "revealed"


def test_a_dismount_away_from_the_minefield_strikes_nothing():
    g = game(apc_duel(), dice=[("d6", 3)], mines=False)
    lay_mines(g, x=32.0, y=10.0, r=2.5)
    s, v = g.units[1], g.units[0]
    vehicle_state(s).carrier, vehicle_state(v).passengers = 0, [1]
    activate(g, 1)
    g.apply(("dismount", 12))  # west
    assert s.veh.carrier == -1 and not events_of(g, "MineStruck") and g.entities[1]["known"] == "owner"


def test_place_runs_the_hooks_only_for_a_move_that_is_not_a_walk():
    g = game()
    u = g.units[0]
    assert table.place(g, u, 30.0, 10.0, "test") is True and (u.x, u.y) == (30.0, 10.0)  # placed, and struck
    assert len(events_of(g, "MineStruck")) == 1
    g2 = game()
    assert table.place(g2, g2.units[0], 30.0, 10.0, "carried", point=False) is False
    assert not events_of(g2, "MineStruck")


# ---------------------------------------------------------------------------------------------- locations
def test_the_location_is_one_field_the_old_flags_read():
    g = game()
    u = g.units[0]
    assert u.location == "table" and not u.routed_off and u.in_play
    u.location = "routed_off"
    assert u.routed_off and not u.merged and not u.in_play
    d = unit_dict(u)
    assert d["routed_off"] is True and d["merged"] is False and "location" not in d  # the flags' plain data
    assert unit_from_dict(d).location == "routed_off"
    u.evacuated = True  # the old setter: the location
    assert u.location == "evacuated" and not u.routed_off


def test_a_location_a_rule_registers_is_saved_by_name():
    table.register_location("test_loiter")
    g = game(seed=2)
    u = g.units[0]
    u.location = "test_loiter"
    d = unit_dict(u)
    assert d["location"] == "test_loiter" and not (d["routed_off"] or d["merged"] or d["evacuated"])
    assert unit_from_dict(d).location == "test_loiter" and not u.in_play
    snap = Game.from_snapshot(json.loads(json.dumps(g.snapshot())), rules=(MINES,))
    assert snap.units[0].location == "test_loiter"
    assert "test_loiter" in table.LOCATIONS and table.register_location("test_loiter") == "test_loiter"
    with pytest.raises(ValueError, match="a location is a name"):
        table.register_location("in the air")


def test_a_view_never_shares_an_entitys_lists():
    """The side's view (and the page's entity list) hold copies of an entity's state, nested lists included: a view
    kept from earlier does not change when the rule changes the entity later."""
    from dustup_env import features
    g = game(mines=False)
    e = g.entities[0]  # the beacon, both sides know of it
    e["state"]["trail"] = [[1.0, 2.0]]
    before = g.view(0)["entities"][0]["state"]
    spectator = features.entities(g, None)[0]["state"]
    e["state"]["trail"][0].append(3.0)
    e["state"]["trail"].append([4.0, 5.0])
    assert before["trail"] == [[1.0, 2.0]] and spectator["trail"] == [[1.0, 2.0]]
