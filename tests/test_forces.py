"""Forces: unit building, quality/leadership/confidence tables, cohesion, figures and casualties."""
import math

import pytest

from conftest import SIDE0_WINS, new_game, scenario, unit
from dustup_env.rules import D4, D6, D8, D10, D12, Game
from dustup_env.rules.kernel.entities import CONFIDENT, KILLED, OK, SHAKEN, STEADY, TREATED, WOUNDED
from dustup_env.rules.forces.units import compact_offsets


def one(spec_kw=None, commitment="medium", dice=(), options=None):
    spec_kw = spec_kw or {}
    scn = scenario([unit("A", (24, 10), **spec_kw)], [unit("B", (24, 40))], commitment=(commitment, "medium"))
    return new_game(scn, list(dice) + SIDE0_WINS, options=options)


def test_defaults():
    u = one().units[0]
    assert (u.quality, u.lv, u.confidence, u.commitment, u.movement, u.armour, u.kind, u.grenades) == \
        (D8, 2, CONFIDENT, 1, D6, "basic_battledress", "squad", False)
    assert (u.leader, u.suppression, u.propped, u.complete_concealment, u.activated) == (0, 0, False, False, False)
    assert (u.x, u.y) == (24.0, 10.0) and len(u.figures) == 5


@pytest.mark.parametrize("q,step", [("d4", D4), ("d6", D6), ("d8", D8), ("d10", D10), ("d12", D12)])
def test_quality_dice(q, step):
    assert one({"quality": q}).units[0].quality == step


@pytest.mark.parametrize("fatigue,conf", [("fresh", CONFIDENT), ("tired", STEADY), ("exhausted", SHAKEN)])
def test_fatigue_sets_starting_confidence(fatigue, conf):
    assert one({"fatigue": fatigue}).units[0].confidence == conf


def test_explicit_confidence_and_commitment():
    u = one({"confidence": "broken", "commitment": "high"}, commitment="low").units[0]
    assert (u.confidence, u.commitment) == (3, 2)
    assert one(commitment="low").units[0].commitment == 0


@pytest.mark.parametrize("movement,die", [("encumbered", D4), ("infantry", D6), ("fast", D8)])
def test_movement_die(movement, die):
    assert one({"movement": movement}).units[0].movement == die


@pytest.mark.parametrize("roll,q", [(1, D6), (2, D8), (5, D8), (6, D10)])
def test_random_quality_table(roll, q):
    g = one({"quality": "random"}, dice=[("d6", roll)])
    assert g.units[0].quality == q


@pytest.mark.parametrize("roll,lv", [(1, 3), (2, 2), (5, 2), (6, 1)])
def test_random_leadership_table(roll, lv):
    assert one({"leadership": "random"}, dice=[("d6", roll)]).units[0].lv == lv


@pytest.mark.parametrize("rolls,conf", [([4], CONFIDENT), ([6], CONFIDENT), ([1, 3], STEADY), ([1, 1], SHAKEN)])
def test_random_confidence(rolls, conf):
    g = one({"confidence": "random"}, dice=[("d6", r) for r in rolls])
    assert g.units[0].confidence == conf
    assert g.units[0].initial_confidence == conf


def test_random_options_apply_to_every_unit_in_order():
    scn = scenario([unit("A", (24, 10))], [unit("B", (24, 40))])
    g = new_game(scn, [("d6", 6), ("d6", 1)] + SIDE0_WINS, options={"random_quality": True})
    assert [u.quality for u in g.units] == [D10, D6]
    g = new_game(scn, [("d6", 1), ("d6", 6), ("d6", 1), ("d6", 1), ("d6", 1)] + SIDE0_WINS,
                 options={"random_leadership": True, "random_confidence": True})
    assert [(u.lv, u.confidence) for u in g.units] == [(3, CONFIDENT), (3, SHAKEN)]


@pytest.mark.parametrize("n", range(1, 21))
def test_compact_formation_is_within_cohesion(n):
    for leader in {0, n - 1, n // 2}:
        offs = compact_offsets(n, leader)
        assert len(offs) == n
        assert offs[leader] == (0.0, 0.0)
        assert max(math.hypot(x, y) for x, y in offs) <= 6.0
        assert len(set(offs)) == n  # no two figures on the same spot


@pytest.mark.parametrize("n", [5, 9, 10])
def test_squads_of_five_to_ten_start_organised(n):
    u = one({"figures": [{"weapon": "rifle", "count": n}]}).units[0]
    assert u.disorganised() is False
    assert len(u.figure_positions()) == n


def test_cohesion_six_inches():
    u = one().units[0]
    u.set_figure(3, dx=6.0, dy=0.0)
    assert u.disorganised() is False
    u.set_figure(3, dx=6.01)
    assert u.disorganised() is True
    u.set_figure(3, status=KILLED)  # the dead do not count
    assert u.disorganised() is False


def test_single_figure_is_a_small_target_and_kind_single():
    u = one({"figures": [{"weapon": "rifle"}]}).units[0]
    assert (u.kind, u.small_target) == ("single", True)
    u2 = one().units[0]
    for i in (1, 2, 3, 4):
        u2.set_figure(i, status=KILLED)
    assert u2.small_target is False  # reading (rules-notes RN-008): a squad worn down to one figure is not small


def test_figure_counts_and_destroyed():
    u = one().units[0]
    u.set_figure(0, status=WOUNDED)
    u.set_figure(1, status=TREATED)
    u.set_figure(2, status=KILLED)
    assert (u.n_alive(), u.n_able(), u.n_untreated(), u.able()) == (4, 2, 1, [3, 4])
    assert u.destroyed is False and u.in_play is True
    u.set_figure(3, status=WOUNDED)
    u.set_figure(4, status=WOUNDED)
    assert u.destroyed is True and u.in_play is False


def test_mixed_weapons_and_grenades_flag():
    u = one({"figures": [{"weapon": "pistol"}, {"weapon": "assault_rifle", "count": 6}, {"weapon": "lmg"}],
             "grenades": True}).units[0]
    assert [f.weapon for f in u.figures] == ["pistol"] + ["assault_rifle"] * 6 + ["lmg"]
    assert u.grenades is True and all(f.status == OK for f in u.figures)


def test_builtin_scenarios_load():
    for name in ("skirmish", "default"):
        g = Game(name, seed=3)
        assert g.units and all(not u.disorganised() for u in g.units)
        assert {u.side for u in g.units} == {0, 1}


@pytest.mark.parametrize("fatigue,rolls,conf", [("tired", [4], STEADY), ("tired", [1, 3], SHAKEN),
                                                 ("tired", [1, 1], SHAKEN), ("exhausted", [1, 1], SHAKEN),
                                                 ("fresh", [1, 1], SHAKEN)])
def test_random_confidence_drops_from_the_fatigue_level_never_below_shaken(fatigue, rolls, conf):
    g = one({"confidence": "random", "fatigue": fatigue}, dice=[("d6", r) for r in rolls])
    assert g.units[0].confidence == conf == g.units[0].initial_confidence
