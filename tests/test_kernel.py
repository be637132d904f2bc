"""The kernel: copies, snapshots and saves, legality without building every option, rule sets and their
options, the dynamic terrain layer, turn and move hooks, and a rule added through the rule set.

The two test-only rules at the end (``SMOKE`` and ``TRIPWIRE``) are the worked example of
docs/architecture.md: a new rules area is one module with its Rule (plus data), added to a game's rule set.
"""
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import golden_games as gg
from conftest import activate, events_of, last_event, rect, scenario, unit
from dustup_env.rules import (DEFAULT_OPTIONS, Game, GameOverError, IllegalOptionError, Option, Rule, RuleSet,
                              InvalidArgumentError, SaveFormatError, ScenarioError, ScriptedDice, load_scenario)
from dustup_env.rules.catalogue import STANDARD
from dustup_env.rules.kernel import terrain
from dustup_env.rules.kernel.attack import Source, resolve_hits
from dustup_env.rules.kernel.dice import D8
from dustup_env.rules.kernel.events import Event, event
from dustup_env.rules.kernel.saves import event_digest
from dustup_env.rules.kernel.state import Component
from dustup_env.rules.rules_overview.random_activation import CardDeck
from dustup_env.rules.kernel.terrain import TerrainKind
from dustup_env.rules.unit_actions.shoot_action import FIRE_MODES, SUPPORT_SLOTS, THROWS

HSET = settings(deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def played(scn="skirmish", seed=1, n=60, options=None, pick=None):
    g = Game(scn, seed=seed, options=options)
    rng = random.Random(pick if pick is not None else seed)
    for _ in range(n):
        if g.over:
            break
        g.apply(rng.choice(g.decision().options))
    return g


# ------------------------------------------------------------------ copies
@settings(HSET, max_examples=40)
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 150), more=st.integers(1, 400), log=st.booleans(),
       reseed=st.one_of(st.none(), st.integers(0, 10**6)), which=st.sampled_from(["skirmish", "default", "hidden"]))
def test_a_clone_never_changes_its_parent(seed, cut, more, log, reseed, which):
    scn = gg._hidden(gg._doc("skirmish")) if which == "hidden" else which
    opts = gg.all_options(seed) if seed % 2 else None
    g = played(scn, seed, cut, options=opts)
    before, n_events = g.state_digest(), len(g.events)
    c = g.clone(log=log, reseed=reseed)
    rng = random.Random(seed)
    for _ in range(more):
        if c.over:
            break
        c.apply(rng.choice(c.decision().options))
    assert g.state_digest() == before and len(g.events) == n_events
    # and the parent goes on exactly as a game that was never copied
    h = Game.replay(scn, seed, g.history, options=opts)
    rng2 = random.Random(seed + 1)
    while not g.over:
        o = rng2.choice(g.decision().options)
        assert h.decision().options == g.decision().options
        g.apply(o)
        h.apply(o)
    assert event_digest(g) == event_digest(h)


def test_an_exact_clone_continues_like_its_parent_and_deepcopy_is_clone():
    g = played("default", 5, 120)
    for c in (g.clone(), copy.deepcopy(g)):
        a, b = g.clone(), c
        rng = random.Random(3)
        while not a.over:
            o = rng.choice(a.decision().options)
            a.apply(o)
            b.apply(o)
            assert a.state_digest() == b.state_digest()
        assert a.event_log() == b.event_log()


def test_reseed_gives_fresh_dice_and_log_false_gives_no_history():
    g = played("skirmish", 2, 30)
    c = g.clone(reseed=99)
    assert c.decision() == g.decision() and c.dice.seed == 99
    rolls = lambda d: [d.roll(D8) for _ in range(20)]  # noqa: E731
    assert rolls(g.clone().dice) != rolls(c.dice)
    s = g.clone(log=False)
    assert s.events == [] and s.history == [] and s.events_base == len(g.events)
    with pytest.raises(SaveFormatError, match="log=False"):
        s.to_dict()


# ------------------------------------------------------------------ snapshots and saves
@pytest.mark.parametrize("which,n", [("default", 0), ("default", 140), ("hidden", 60), ("skirmish-options", 80),
                                     ("skirmish", 10_000)])
def test_a_snapshot_loads_without_replaying_into_the_same_game(which, n):
    opts = gg.all_options(4) if which == "skirmish-options" else None
    scn = gg._hidden(gg._doc("default")) if which == "hidden" else which.split("-")[0]
    g = played(scn, 7, n, options=opts)
    snap = json.loads(json.dumps(g.snapshot()))
    h = Game.from_snapshot(snap)
    assert h.state_digest() == g.state_digest() and h.event_log() == g.event_log()
    assert h.event_log(0) == g.event_log(0) and h.event_log(1) == g.event_log(1)
    assert h.view(0) == g.view(0) and h.over == g.over
    rng = random.Random(8)
    while not g.over:
        o = rng.choice(g.decision().options)
        assert h.decision() == g.decision()
        g.apply(o)
        h.apply(o)
    assert h.result() == g.result() and h.event_log() == g.event_log()


def test_snapshot_files_load_with_game_load(tmp_path):
    g = played("skirmish", 3, 40)
    p = tmp_path / "state.json"
    p.write_text(json.dumps(g.snapshot()))
    assert Game.load(p).state_digest() == g.state_digest()


def test_a_snapshot_from_other_rules_is_replayed_and_refused_if_the_game_differs():
    g = played("skirmish", 4, 50)
    snap = g.snapshot()
    other = dict(snap, rules="0123456789abcdef")  # written by another version of the rules
    h = Game.from_snapshot(copy.deepcopy(other))  # replayed: the same game here, so it is accepted
    assert h.event_log() == g.event_log()
    other["events"] = other["events"][:-1]  # ... but if the replay gives another game, it is refused
    with pytest.raises(SaveFormatError, match="gives a different game"):
        Game.from_snapshot(other)
    cut = g.clone(log=False).snapshot()
    cut["rules"] = "0123456789abcdef"
    with pytest.raises(SaveFormatError, match="no full history"):
        Game.from_snapshot(cut)


def test_a_save_from_other_rules_that_replays_differently_is_refused_naming_the_versions():
    d = played("skirmish", 4, 50).to_dict()
    assert d["engine"] and d["rules"]
    foreign = dict(d, rules="fedcba9876543210", engine="9.9.9", digest="0" * 16)
    with pytest.raises(SaveFormatError, match=r"engine '9\.9\.9' with rules 'fedcba9876543210'.*different game"):
        Game.from_dict(foreign)
    Game.from_dict(dict(d, rules="fedcba9876543210"))  # other rules, same game: accepted


@pytest.mark.parametrize("bad,match", [([1], "not a Dustup snapshot"), ({"format": "dustup-state", "version": 1},
                                                                         "unsupported snapshot version"),
                                       ({"format": "dustup-state", "version": 2}, "missing 'state'")])
def test_bad_snapshots_are_refused_clearly(bad, match):
    with pytest.raises(SaveFormatError, match=match):
        Game.from_snapshot(bad)


# ------------------------------------------------------------------ legality without building every option
def candidates(g, d) -> list:
    """Every option an action decision could be asked about: each family's whole space, and some junk."""
    enemies = range(len(g.units) + 2)
    out = [("end",), ("withdraw",), ("prop",), ("unprop",), ("recover",), ("move", 99, 0), ("move", 0),
           ("shoot", "x", "all"), ("shoot", 0, "nope"), ("shoot_weapon", 0, 9), ("end", 1), ("bogus",), (1, 2)]
    out += [("move", a, b) for a in range(16) for b in range(4)]
    out += [("shoot", t, m) for t in enemies for m in FIRE_MODES]
    out += [("shoot_weapon", t, k) for t in enemies for k in range(SUPPORT_SLOTS)]
    out += [("throw", t, w) for t in enemies for w in THROWS]
    out += [("reorganise", w) for w in ("conceal", "reveal", "rearrange", "leader", "place", "hide", "column")]
    return out + list(d.options)


@pytest.mark.parametrize("which", ["skirmish", "default", "options"])
def test_is_legal_equals_membership_in_the_decision(which):
    checked = 0
    for seed in range(6):
        opts = gg.all_options(seed) if which == "options" else None
        g = Game("skirmish" if which == "options" else which, seed=seed, options=opts)
        rng = random.Random(seed)
        while not g.over:
            d = g.decision()
            if d.kind == "action" and rng.random() < 0.5:
                c = g.clone()
                c.invalidate()  # no built decision: the rule set's legality answers
                for o in candidates(g, d):
                    assert c.is_legal(o) == (o in d.options), (o, d.kind)
                    checked += 1
            g.apply(rng.choice(d.options))
    assert checked > 10_000


def test_apply_without_a_built_decision_uses_is_legal_and_refuses_illegal_options():
    g = played("default", 3, 40)
    while g.decision().kind != "action":
        g.apply(g.decision().options[0])
    d = g.decision()
    c = g.clone()
    c.invalidate()
    before = c.state_digest()
    with pytest.raises(IllegalOptionError, match="not a legal option"):
        c.apply(("move", 99, 0))
    assert c.state_digest() == before
    c.invalidate()
    c.apply(d.options[-1])  # a legal one applies without building the options first
    g.apply(d.options[-1])
    assert c.state_digest() == g.state_digest()


@pytest.mark.parametrize("bad", [None, 5, "end", (), [], ("end", "extra"), object()])
def test_apply_refuses_malformed_options_with_the_game_unchanged(bad):
    g = played("skirmish", 1, 5)
    before, n = g.state_digest(), len(g.events)
    with pytest.raises(IllegalOptionError):
        g.apply(bad)
    assert g.state_digest() == before and len(g.events) == n
    assert g.is_legal(bad) is False


def test_replaying_a_save_uses_is_legal_and_gives_the_same_game():
    g = played("default", 9, 10_000)
    h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert h.event_log() == g.event_log() and h.result() == g.result()


# ------------------------------------------------------------------ options and scenarios
def test_options_are_declared_by_the_rules_and_checked_by_type():
    names = {o.name for r in STANDARD for o in r.options}
    assert names == set(DEFAULT_OPTIONS) and DEFAULT_OPTIONS["extra_hits"] is True
    with pytest.raises(ScenarioError, match="game option extra_hits must be true or false, not 'false'"):
        Game("skirmish", options={"extra_hits": "false"})
    with pytest.raises(ScenarioError, match="game option casevac_vp must be at least 0"):
        Game("skirmish", options={"casevac_vp": -1})
    with pytest.raises(ScenarioError, match="game option activation must be one of alternate, chits, cards"):
        Game("skirmish", options={"activation": "dice"})
    with pytest.raises(ScenarioError, match="game options must be a JSON object"):
        Game("skirmish", options=[1])
    with pytest.raises(ScenarioError, match="unknown game option"):
        Game("skirmish", options={"fog": 1})
    with pytest.raises(TypeError):
        Game("skirmish").options["extra_hits"] = False  # a game's options are read-only


def test_a_rule_that_does_not_apply_is_not_in_the_games_rule_set():
    g = Game("skirmish")
    assert "Cavalry" not in g.rules and "Random Activation" not in g.rules and "Move Action" in g.rules
    g2 = Game("skirmish", options={"activation": "chits"})
    assert "Random Activation" in g2.rules
    assert Game("skirmish").rules is g.rules  # equal selections share one rule set


def test_load_scenario_returns_a_copy_and_a_game_keeps_its_own():
    doc = load_scenario("skirmish")
    doc["sides"][0]["units"][0]["name"] = "Changed"
    assert load_scenario("skirmish")["sides"][0]["units"][0]["name"] != "Changed"
    mine = load_scenario("skirmish")
    g = Game(mine)
    mine["sides"][0]["units"][0]["name"] = "Later"
    mine["turn_limit"] = 99
    assert g.units[0].name != "Later" and g.turn_limit == 6


# ------------------------------------------------------------------ a rule added through the rule set (the worked
# example of docs/architecture.md): smoke that blocks sight until the end of the turn, and a tripwire that stops
# a mover and attacks it from a point

@event
class SmokeLaid(Event):
    unit: int
    x: float
    y: float


@event
class SmokeCleared(Event):
    clouds: int


def _smoke_options(game, u, status):
    if not u.grenades or status.suppressed or status.disorganised:
        return []
    return [("reorganise", "smoke")]


def _lay_smoke(game, u):
    x, y = u.x, u.y + (3.0 if u.side == 0 else -3.0)  # 3" towards the enemy's edge
    terrain.add(game, {"kind": "test_smoke", "shape": "circle", "x": x, "y": y, "r": 2.0})
    game.emit(SmokeLaid(u.uid, x, y))


def _clear_smoke(game):
    n = terrain.remove(game, lambda f: f["kind"] == "test_smoke")
    if n:
        game.emit(SmokeCleared(n))


SMOKE = Rule("Test smoke", "a test-only rule", options=(Option("test_smoke", False, "test-only smoke grenades"),),
             applies=lambda scenario, options: options["test_smoke"],
             action_options=(_smoke_options,), reorganise={"smoke": _lay_smoke},
             terrain={"test_smoke": TerrainKind(blocks_sight=True, conceals=True)}, turn_end=(_clear_smoke,))


@event
class TripwireSprung(Event):
    unit: int
    casualties: int


class TripwireState(Component):
    """The test rule's state: where the tripwire is, ``[x, y]`` (unset once it went off)."""

    __slots__ = ("tripwire",)


def _tripwire(game, u, x0, y0, x1, y1):
    st = game.state_of(TripwireState)
    wire = st.tripwire
    if not wire or (x1 - wire[0]) ** 2 + (y1 - wire[1]) ** 2 > 1.0:
        return False
    st.tripwire = None  # it goes off once
    res = resolve_hits(game, u, 2, D8)  # two hits from the point, impact D8 (Source("point") for the log)
    game.emit(TripwireSprung(u.uid, res.casualties))
    return True  # the mover stops here


TRIPWIRE = Rule("Test tripwire", "a test-only rule", init=(lambda game: setattr(game.state_of(TripwireState), "tripwire", [24.0, 15.0]),),
                move_step=(_tripwire,))


def smoke_duel():
    return scenario([unit("A", (24, 5), grenades=True)], [unit("B", (24, 30))])


def test_a_test_only_rule_added_through_the_rule_set():
    assert "Test smoke" not in Game(smoke_duel()).rules  # the standard game knows nothing of it
    g = Game(smoke_duel(), rules=(SMOKE,), options={"test_smoke": True},
             dice=ScriptedDice([("d8", 8), ("d8", 1), ("d8", 8), ("d8", 1)]))
    g.apply(("first",))
    activate(g, 0)
    assert ("shoot", 1, "all") in g.decision().options and ("reorganise", "smoke") in g.decision().options
    g.apply(("reorganise", "smoke"))
    assert last_event(g, "SmokeLaid") == {"type": "SmokeLaid", "unit": 0, "x": 24.0, "y": 8.0}
    assert g.bf.dynamic and not g.bf.has_los(24, 5, 24, 30) and g.battlefield.has_los(24, 5, 24, 30)
    assert not any(o[0] == "shoot" for o in g.decision().options)  # the smoke blocks the line of fire
    c = g.clone()
    g.apply(("end",))
    activate(g, 1)
    g.apply(("end",))  # every unit has acted: the turn ends and the smoke clears
    assert last_event(g, "SmokeCleared")["clouds"] == 1 and not g.bf.dynamic and not g.terrain
    assert c.bf.dynamic and c.terrain  # the copy made before still has its smoke
    s = Game(smoke_duel(), seed=1, rules=(SMOKE,), options={"test_smoke": True})  # snapshots need seeded dice
    _lay_smoke(s, s.units[0])
    h = Game.from_snapshot(json.loads(json.dumps(s.snapshot())), rules=(SMOKE,))
    assert h.bf.dynamic and not h.bf.has_los(24, 5, 24, 30) and h.state_digest() == s.state_digest()


def test_a_move_step_hook_stops_the_mover_and_attacks_it_from_a_point():
    g = Game(smoke_duel(), rules=(TRIPWIRE,), dice=ScriptedDice(
        [("d8", 8), ("d8", 1), ("d6", 6),  # initiative; the move: 12 MP, towards the north
         ("d6", 1), ("d6", 2),  # the two hits' allocation rolls (5 figures: D6)
         ("d8", 8), ("d4", 1), ("d8", 1), ("d4", 4)]))  # figure 0: 8 > 2 x 1 killed; figure 1: no effect
    g.apply(("first",))
    activate(g, 0)
    g.apply(("move", 0, 3))  # 24" north: the wire at (24, 15) is on the way
    u = g.units[0]
    assert (u.x, u.y) == (24.0, 14.0) and last_event(g, "Moved")["end"] == [24.0, 14.0]
    assert last_event(g, "TripwireSprung") == {"type": "TripwireSprung", "unit": 0, "casualties": 1}
    assert [e["effect"] for e in events_of(g, "HitResolved")] == ["kill", "none"]
    assert g.dice.remaining == 0 and Source("point", x=24.0, y=15.0).kind == "point"


def test_rule_sets_refuse_two_rules_claiming_the_same_option_name_or_action():
    clash = Rule("Clash", options=(Option("extra_hits", False, "again"),))
    with pytest.raises(ValueError, match="declared by two rules"):
        Game("skirmish", rules=(clash,))
    twice = Rule("Twice", actions={"move": lambda g, u, o: None})
    with pytest.raises(ValueError, match="claimed by two rules"):
        RuleSet(STANDARD + (twice,))


def test_dynamic_terrain_kinds_must_be_declared():
    g = Game("skirmish", rules=(SMOKE,), options={"test_smoke": True})
    with pytest.raises(ScenarioError, match="unknown kind 'lava'"):
        terrain.add(g, {"kind": "lava", "shape": "circle", "x": 1, "y": 1, "r": 1})
    with pytest.raises(ScenarioError, match="radius"):
        terrain.add(g, {"kind": "test_smoke", "shape": "circle", "x": 1, "y": 1, "r": 0})


def test_dynamic_terrain_changes_sight_cover_and_movement_only_through_its_features():
    kinds = {"wall_of_fire": TerrainKind(blocks_sight=True, move_cost=None), "rubble": TerrainKind(cover=2, move_cost=3)}
    scn = scenario([unit("A", (10, 5))], [unit("B", (10, 40))], terrain=[rect("light_woods", 30, 30, 40, 40)])
    g = Game(scn, rules=(Rule("Test kinds", terrain=kinds),))
    static = g.battlefield
    terrain.add(g, {"kind": "rubble", "shape": "polygon", "points": [[0, 20], [20, 20], [20, 25], [0, 25]]})
    bf = g.bf
    assert bf.cover_at(10, 22) == 2 and static.cover_at(10, 22) == 0 and bf.in_cover(10, 22)
    assert bf.move_cost(10, 22) == 3 and bf.move_cost(10, 10) == 1 and bf.has_los(10, 5, 10, 40)
    assert bf.conceals(35, 35) == static.conceals(35, 35)
    terrain.add(g, {"kind": "wall_of_fire", "shape": "circle", "x": 10, "y": 30, "r": 1.5})
    assert not g.bf.has_los(10, 5, 10, 40) and g.bf.move_cost(10, 30) is None and g.bf.has_los(0, 5, 0, 40)
    assert terrain.remove(g, lambda f: f["kind"] == "rubble") == 1 and g.bf.cover_at(10, 22) == 0
    assert terrain.distance_to(g.terrain[0], 10, 35) == pytest.approx(3.5)


def test_turn_hooks_run_in_both_activation_sequences():
    seen = []
    probe = Rule("Test turns", turn_start=(lambda g: seen.append(("start", g.turn)),),
                 turn_end=(lambda g: seen.append(("end", g.turn)),))
    for act in ("alternate", "chits", "cards"):
        seen.clear()
        g = Game("skirmish", seed=3, options={"activation": act}, rules=(probe,))
        rng = random.Random(1)
        while not g.over:
            g.apply(rng.choice(g.decision().options))
        starts = [t for k, t in seen if k == "start"]
        ends = [t for k, t in seen if k == "end"]
        assert starts == list(range(1, len(starts) + 1)) and ends == starts[:len(ends)] and len(ends) >= len(starts) - 1


def test_game_over_is_refused():
    g = played("skirmish", 2, 10_000)
    with pytest.raises(GameOverError):
        g.apply(("end",))
    assert not g.is_legal(("end",))


# ------------------------------------------------------------------ bad arguments to the API and what a side may see
@pytest.mark.parametrize("seed", ["x", 1.5, None, True])
def test_a_bad_seed_is_refused_clearly(seed):
    with pytest.raises(InvalidArgumentError, match="the seed is a whole number"):
        Game("skirmish", seed=seed)


@pytest.mark.parametrize("side", [2, -1, "a", 1.5, True])
def test_a_bad_side_is_refused_by_view_and_event_log(side):
    g = Game("skirmish")
    with pytest.raises(InvalidArgumentError, match="a side is 0 or 1"):
        g.view(side)
    with pytest.raises(InvalidArgumentError, match="a side is 0 or 1"):
        g.event_log(side)
    with pytest.raises(InvalidArgumentError):
        g.view(None)  # (event_log(None) is every event: the spectator's log)


def test_a_folder_named_like_a_scenario_file_is_refused(tmp_path):
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(ScenarioError, match="not a scenario file"):
        Game(str(tmp_path / "dir.json"))


def test_the_side_logs_do_not_show_the_seed_nor_the_deck_the_hidden_units_cards():
    doc = gg._hidden(gg._doc("skirmish"))
    g = Game(doc, seed=11, options={"activation": "cards"})
    assert g.event_log()[0]["seed"] == 11 and g.event_log(0)[0]["seed"] is None
    checked = 0
    for seed in range(12):
        g, rng = Game(doc, seed=seed, options={"activation": "cards"}), random.Random(seed)
        while not g.over:
            for uid in g.state_of(CardDeck).deck or ():
                u = g.units[uid] if uid >= 0 else None
                if u is not None and u.hidden:
                    assert uid in g.view(u.side)["public"]["deck"]  # a side knows its own cards
                    assert uid not in g.view(1 - u.side)["public"]["deck"]
                    checked += 1
            g.apply(rng.choice(g.decision().options))
    assert checked > 10
