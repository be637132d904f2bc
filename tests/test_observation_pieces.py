"""Observation pieces declared by the rules (``Rule.observation``), the decision and table-entity pieces, and the
layout the shipped ``ppo`` was trained on kept as the first values of every observation.

* every observation of the recorded environment digests (tests/env_digests.py: random games of four configs and
  ``Dustup-v0`` episodes of three), cut to its first 1,569 values (the pieces from before the decision and entities
  pieces were appended), hashes to the digest recorded before they were appended;
* the ``ppo`` agent is given exactly the observation of the old layout (so its choices cannot change);
* the decision piece encodes every decision kind the rules make and the unit / entity a decision is about, and
  nothing a side may not know (twin games);
* a rule's piece is appended after the environment's pieces and changes none of them.
"""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np

import pytest

import env_digests as E
from conftest import scenario, unit
from test_kernel_entities import MINES, lay_mines

from dustup_env import observation as O
from dustup_env.env import DustupEnv
from dustup_env.observation import (DECISION_KINDS, ENTITY_FEATURES, LEGACY_LAYOUT, LEGACY_OBS_SIZE, N_KINDS,
                                    Observer, declared_pieces, pieces_for, project)
from dustup_env.rules import Game, Rule
from dustup_env.rules.kernel import table
from dustup_env.rules.kernel.ruleset import ObservationPiece

# the environment digests recorded before the decision and entities pieces and the artillery and aerospace option
# families were appended (1,569 observation values, 1,012 actions): the legacy slice of today's observations and masks
# must hash as they did
RECORDED = json.loads((Path(__file__).resolve().parent / "data" / "env_digests_legacy.json").read_text())["digests"]
LEGACY_ACTIONS = 1012
ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------------------------- the legacy slice
@pytest.fixture
def legacy_slice(monkeypatch):
    """Every observation DustupEnv returns (``reset``, ``step``, ``observe``) cut to the old layout's values."""
    full = DustupEnv._observation

    def cut(self):
        obs = full(self)
        assert obs.shape[0] > LEGACY_OBS_SIZE and self.observer.layout.pieces[:5] == LEGACY_LAYOUT.pieces
        return obs[:LEGACY_OBS_SIZE]

    monkeypatch.setattr(DustupEnv, "_observation", cut)
    masks, step, reset = DustupEnv.action_masks, DustupEnv.step, DustupEnv.reset

    def cut_mask(m):
        assert not m[LEGACY_ACTIONS:].any(), "an option of a family appended since was offered"
        return m[:LEGACY_ACTIONS]

    def cut_info(out):
        if isinstance(out[-1], dict) and "action_mask" in out[-1]:
            out[-1]["action_mask"] = cut_mask(out[-1]["action_mask"])
        return out

    monkeypatch.setattr(DustupEnv, "action_masks", lambda self: cut_mask(masks(self)))
    monkeypatch.setattr(DustupEnv, "step", lambda self, a: cut_info(step(self, a)))
    monkeypatch.setattr(DustupEnv, "reset", lambda self, **kw: cut_info(reset(self, **kw)))


@pytest.mark.parametrize("name,games,scn_f,opt_f", E.OBS_CONFIGS, ids=[c[0] for c in E.OBS_CONFIGS])
def test_the_first_values_of_every_recorded_observation_are_unchanged(legacy_slice, name, games, scn_f, opt_f):
    """Both sides' observations at every decision of the recorded random games, cut to the old layout, and the
    masks hash exactly as recorded before the decision and entities pieces were appended."""
    for k in range(games):
        assert list(E.obs_game(scn_f(k), opt_f(k), 100 + k)) == RECORDED["obs"][f"{name}/{k}"], f"{name} game {k}"


@pytest.mark.parametrize("name,episodes,scn_f,opt_f", E.ENV_CONFIGS, ids=[c[0] for c in E.ENV_CONFIGS])
def test_the_first_values_of_every_recorded_env_episode_are_unchanged(legacy_slice, name, episodes, scn_f, opt_f):
    assert list(E.env_episodes(scn_f(0), opt_f(0), 7, episodes)) == RECORDED["env"][name]


def test_the_ppo_agent_is_given_the_old_layout_exactly():
    """At every decision of a few games (default and skirmish, hidden units) the ``ppo`` agent's network gets the
    observation an observer of the old layout writes: its choices cannot depend on the appended pieces."""
    pytest.importorskip("sb3_contrib")
    import torch

    from agents import make_agent

    agent = make_agent("ppo", seed=0)
    seen = []
    real = agent._policy.extract_features

    def spy(t, ex):
        seen.append(t.numpy()[0].copy())
        return real(t, ex)

    agent._policy.extract_features = spy
    for scn, seed in (("default", 1), ("skirmish", 2), (E.hidden_doc("skirmish"), 3)):
        g = Game(scn, seed=seed)
        old = [Observer(LEGACY_LAYOUT.pieces), Observer(LEGACY_LAYOUT.pieces)]
        rng = random.Random(seed)
        for _ in range(150):
            if g.over:
                break
            d = g.decision()
            if d.side == 0:
                seen.clear()
                with torch.inference_mode():
                    opt = agent.choose(g, d)
                assert len(seen) == 1 and np.array_equal(seen[0], old[0].observation(g, 0))
            else:
                opt = d.options[rng.randrange(len(d.options))]
            g.apply(opt)


def test_project_takes_pieces_by_name():
    g = Game("armour", seed=0)
    ob = Observer.for_game(g)
    full = ob.observation(g, 0)
    assert np.array_equal(project(full, ob.layout, LEGACY_LAYOUT), full[:LEGACY_OBS_SIZE])
    arm = O.LEGACY_ARMOURED_LAYOUT
    assert np.array_equal(project(full, ob.layout, arm), full[:arm.size])
    inf = Game("default", seed=0)
    small = Observer.for_game(inf).observation(inf, 0)
    padded = project(small, O.LAYOUT, arm)  # an armoured model in an infantry game: zero armoured pieces
    assert np.array_equal(padded[:LEGACY_OBS_SIZE], small[:LEGACY_OBS_SIZE]) and not padded[LEGACY_OBS_SIZE:].any()
    back = project(small, O.LAYOUT, O.ARMOURED_LAYOUT)  # the decision piece lands at its place in the other layout
    off = O.ARMOURED_LAYOUT.offset["decision"]
    assert np.array_equal(back[off:off + N_KINDS], small[O.LAYOUT.offset["decision"]:][:N_KINDS])


# ---------------------------------------------------------------------------------------------- the decision piece
def test_every_decision_kind_the_rules_make_is_listed():
    """Every ``Decision(side, "kind", ...)`` of the rules' source names a kind of :data:`DECISION_KINDS` (a kind
    added by a rule must be appended there, or it shows as ``other``)."""
    made = set()
    for p in (ROOT / "dustup_env" / "rules").rglob("*.py"):
        made |= set(re.findall(r'Decision\([^,()]+(?:\([^()]*\))?[^,()]*,\s*"([a-z_]+)"', p.read_text()))
    assert len(made) >= 18 and made <= set(DECISION_KINDS), sorted(made - set(DECISION_KINDS))
    assert len(set(DECISION_KINDS)) == len(DECISION_KINDS)


def _decision(ob):
    v = ob.dict["decision"]
    slots = ob.slots
    return (int(np.argmax(v[:N_KINDS])) if v[:N_KINDS].any() else None, np.flatnonzero(v[N_KINDS:N_KINDS + slots]),
            np.flatnonzero(v[N_KINDS + slots:N_KINDS + 2 * slots]), np.flatnonzero(v[N_KINDS + 2 * slots:]))


def test_the_decision_piece_names_the_kind_and_the_unit():
    g = Game("default", seed=4)
    obs = [Observer.for_game(g), Observer.for_game(g)]
    rng = random.Random(4)
    kinds = set()
    for _ in range(400):
        if g.over:
            break
        d = g.decision()
        for s in (0, 1):
            obs[s].set_from(g, s)
            kind, own, enemy, ent = _decision(obs[s])
            assert DECISION_KINDS[kind] == d.kind and not len(ent)
            kinds.add(d.kind)
            if d.unit < 0:
                assert not len(own) and not len(enemy)
            elif g.units[d.unit].side == s:
                assert list(own) == [g.side_units[s].index(d.unit)] and not len(enemy)
            else:
                assert list(enemy) == [g.side_units[1 - s].index(d.unit)] and not len(own)
        g.apply(d.options[rng.randrange(len(d.options))])
    assert {"initiative", "activate", "action"} <= kinds
    while not g.over:
        g.apply(g.decision().options[0])
    obs[0].set_from(g, 0)
    assert not obs[0].dict["decision"].any()  # nothing pending at the end


def test_a_decision_about_a_hidden_enemy_unit_names_no_unit():
    """The other side's decision about a unit hidden from the observer shows as an "action" decision about no unit
    (its row in ``units`` is empty too); tests/test_hidden_info.py's twin games (differing only in which marker is
    real) check whole observations, these pieces included."""
    doc = E.hidden_doc("skirmish")
    g = Game(doc, seed=7)
    ob = Observer.for_game(g)
    rng = random.Random(7)
    seen_hidden = 0
    while not g.over:
        d = g.decision()
        ob.set_from(g, 0)
        if d.unit >= 0 and g.units[d.unit].side == 1 and g.units[d.unit].hidden:
            kind, own, enemy, _ = _decision(ob)
            assert DECISION_KINDS[kind] == "action" and not len(own) and not len(enemy)
            seen_hidden += 1
        g.apply(d.options[rng.randrange(len(d.options))])
    assert seen_hidden > 0


# ---------------------------------------------------------------------------------------------- the entities piece
def duel():
    return scenario([unit("A", (24, 10), figures=(("rifle", 3),))], [unit("B", (24, 40), figures=(("rifle", 3),))])


def test_entity_slots_show_what_the_side_may_know():
    g = Game(duel(), seed=5, rules=(MINES,))
    eid = lay_mines(g, x=30.0, y=10.0, r=3.0, owner=1)
    obs = [Observer.for_game(g), Observer.for_game(g)]
    for s in (0, 1):
        obs[s].set_from(g, s)
    f = {n: i for i, n in enumerate(ENTITY_FEATURES)}
    e0, e1 = obs[0].dict["entities"], obs[1].dict["entities"]
    assert e0[0, f["present"]] == 1 and e0[0, f["unowned"]] == 1 and not e0[1:].any()  # the beacon only
    assert e1[1, f["present"]] == 1 and e1[1, f["mine"]] == 1 and e1[1, f["radius"]] == pytest.approx(0.25)
    assert e1[1, f["y"]] == pytest.approx((48 - 10) / 48)  # side 1 sees the table turned
    kinds = list(g.rules.entity_kinds)
    assert e1[1, f["kind_0"] + kinds.index("test_minefield")] == 1
    table.reveal(g, eid)
    obs[0].set_from(g, 0)
    assert obs[0].dict["entities"][1, f["theirs"]] == 1 and obs[0].dict["entities"][1, f["revealed"]] == 1
    table.remove(g, eid)
    obs[0].set_from(g, 0)
    assert not obs[0].dict["entities"][1].any()


def test_a_decision_about_an_entity_names_the_sides_ref():
    g = Game(duel(), seed=5, rules=(MINES,))
    eid = lay_mines(g, owner=1)
    from dustup_env.rules.kernel.decisions import Decision

    g.pending_decision = Decision(1, "action", g.side_units[1][0], (("end",),), entity=eid)
    obs = [Observer.for_game(g), Observer.for_game(g)]
    for s in (0, 1):
        obs[s].set_from(g, s)
    assert list(_decision(obs[1])[3]) == [1]  # side 1 knows the minefield as ref 1 (the beacon is 0)
    assert not len(_decision(obs[0])[3])  # side 0 does not know of it


# ---------------------------------------------------------------------------------------------- rule pieces
def _write_clock(obs, buf, off):
    g = obs.game
    buf[off] = (g.turn_limit - g.turn) / g.turn_limit


CLOCK = ObservationPiece("test_clock", 100, (1,), ("turns_left",), write=_write_clock, doc="a test-only piece")
CLOCK_RULE = Rule("Test clock", "a test-only rule", observation=(CLOCK,))


def test_a_rule_declares_a_piece_and_it_is_appended():
    g = Game("skirmish", seed=4, rules=(CLOCK_RULE,))
    plain = Game("skirmish", seed=4)
    pieces = pieces_for(g)
    assert [p.name for p in pieces][-1] == "test_clock" and pieces[:-1] == pieces_for(plain)
    ob, std = Observer.for_game(g), Observer.for_game(plain)
    rng = random.Random(4)
    for _ in range(30):
        a, b = ob.observation(g, 0), std.observation(plain, 0)
        assert np.array_equal(a[:std.size], b) and ob.dict["test_clock"][0] == pytest.approx(
            (g.turn_limit - g.turn) / g.turn_limit)
        d = g.decision()
        opt = d.options[rng.randrange(len(d.options))]
        g.apply(opt)
        plain.apply(opt)


def test_piece_declarations_that_clash_are_refused():
    twin = ObservationPiece("test_clock", 101, (1,), ("x",), write=_write_clock)
    with pytest.raises(ValueError, match="declared twice"):
        declared_pieces((CLOCK_RULE, Rule("Other clock", observation=(twin,))))
    same_order = ObservationPiece("test_other", 100, (1,), ("x",), write=_write_clock)
    with pytest.raises(ValueError, match="share an order"):
        declared_pieces((CLOCK_RULE, Rule("Other", observation=(same_order,))))
    # a piece declared by several rules (the Armoured Dustup pair) is laid out once
    assert [p.name for p in declared_pieces((CLOCK_RULE, CLOCK_RULE))].count("test_clock") == 1


def test_every_armoured_game_has_both_armoured_pieces():
    from vehicle_helpers import vehicle

    only_vehicles = scenario([vehicle("Tank", (20, 5), "main_battle_tank")], [unit("Red", (20, 40))])
    only_heavy = scenario([unit("Gun", (20, 5), heavy_weapon="towed_at_gun")], [unit("Red", (20, 40))])
    only_ecm = scenario([unit("Blue", (20, 5), ecm="d8")], [unit("Red", (20, 40))])
    for doc in (only_vehicles, only_heavy, only_ecm):
        assert Observer.for_game(Game(doc, seed=0)).layout is O.ARMOURED_LAYOUT


def test_the_maximums_are_refused_with_one_line_naming_the_limit():
    from dustup_env.rules import ScenarioError

    big = scenario([unit(f"A{i}", (2 + i, 5)) for i in range(33)], [unit("B", (24, 40))], width=72)
    with pytest.raises(Exception) as e:
        Game(big, seed=0)
    assert "32" in str(e.value) and "\n" not in str(e.value)
    g = Game(duel(), seed=0, rules=(MINES,))
    while len(g.entities) < table.MAX_ENTITIES:
        table.add(g, "test_beacon", 1.0, 1.0)
    with pytest.raises(ScenarioError, match=f"at most {table.MAX_ENTITIES} table entities"):
        table.add(g, "test_beacon", 1.0, 1.0)


def test_twin_games_differing_only_in_which_hidden_unit_acts_look_the_same_to_the_other_side():
    """Red has two hidden squads; the twins differ only in which of them red activates.  Blue's observation (the
    decision piece included: the pending decision is about a unit blue cannot see) is the same in both."""
    from test_hidden_info import SPOTS, WOOD

    scn = scenario([unit("A", (20, 8)), unit("A2", (8, 6))],
                   [unit("B", (40, 44)), unit("H1", SPOTS[0], hidden=True), unit("H2", SPOTS[1], hidden=True)],
                   terrain=[WOOD], turn_limit=4)
    scn["sides"][1]["dummies"] = [list(SPOTS[2])]
    twins = [Game(scn, seed=s) for s in (3, 3)]
    obs = [Observer.for_game(g) for g in twins]
    hidden = [uid for uid in twins[0].side_units[1] if twins[0].units[uid].hidden]
    assert len(hidden) == 2
    acted = 0
    for _ in range(200):
        if twins[0].over or acted:
            break
        ds = [g.decision() for g in twins]
        assert ds[0].options == ds[1].options
        if ds[0].side == 1 and ds[0].kind == "activate" and all(("activate", h) in ds[0].options for h in hidden):
            for g, h in zip(twins, hidden):  # each twin activates the other hidden squad
                g.apply(("activate", h))
            ds = [g.decision() for g in twins]
            assert [d.unit for d in ds] == hidden and ds[0].kind == "action"
            a, b = (ob.observation(g, 0) for ob, g in zip(obs, twins))
            assert np.array_equal(a, b), "blue can tell which hidden squad acts"
            for g in twins:
                g.apply(("end",))
            a, b = (ob.observation(g, 0) for ob, g in zip(obs, twins))
            assert np.array_equal(a, b)
            acted += 1
            continue
        opt = ds[0].options[0]
        for g in twins:
            g.apply(opt)
    assert acted >= 1
