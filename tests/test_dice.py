"""Core Mechanic: die types, open/closed die shifts, opposed rolls, clockface, dice sources."""
import math
from fractions import Fraction

import pytest

from dustup_env.rules import D4, D6, D8, D10, D12, DiceScriptError, ScriptedDice, SeededDice, die_name, parse_die
from dustup_env.rules.kernel.dice import (OpposedResult, shift_open_both, clockface_direction, die_max, die_sides,
    enumerate_outcomes, shift_closed, shift_open, value_to_die)
from dustup_env.rules.unit_actions.shoot_action import allocation_roll


def test_die_steps_names_and_sides():
    assert [die_name(s) for s in (D4, D6, D8, D10, D12)] == ["d4", "d6", "d8", "d10", "d12"]
    assert [die_sides(s) for s in (D4, D6, D8, D10, D12)] == [4, 6, 8, 10, 12]
    assert die_name(D12 + 1) == "d12x2"
    assert die_sides(D12 + 2) == 12
    assert die_max(D12 + 1) == 24
    assert die_max(D10) == 10


@pytest.mark.parametrize("text,step", [("d4", D4), ("D6", D6), ("d8", D8), ("d10", D10), ("D12", D12),
                                       ("d12x2", D12 + 1), ("d12x3", D12 + 2), (3, 3)])
def test_parse_die(text, step):
    assert parse_die(text) == step


@pytest.mark.parametrize("bad", ["d7", "6", "dd8", "d10x2", "d12x0", "", -1])
def test_parse_die_rejects(bad):
    with pytest.raises(ValueError):
        parse_die(bad)


@pytest.mark.parametrize("value,step", [(0.5, D4), (1, D4), (4, D4), (4.5, D6), (5, D6), (6, D6), (7, D8),
                                        (8, D8), (9, D10), (10, D10), (11, D12), (12, D12), (13, D12),
                                        (40, D12)])
def test_value_rounds_up_to_die_type_capped_at_d12(value, step):
    assert value_to_die(value) == step


# --- closed shifts (the default) -------------------------------------------------------------
def test_closed_shift_seed_example_d10_two_up_stops_at_d12():
    # "the D10 would shift up once to a D12 but the second shift would be ignored"
    assert shift_closed(D10, +2) == D12


@pytest.mark.parametrize("step,shift,out", [(D8, +1, D10), (D8, -1, D6), (D6, -1, D4), (D4, -1, D4),
                                            (D6, -3, D4), (D12, +1, D12), (D4, +4, D12), (D4, +9, D12),
                                            (D8, 0, D8)])
def test_closed_shift(step, shift, out):
    assert shift_closed(step, shift) == out


def test_closed_shift_keeps_a_die_already_above_d12():
    assert shift_closed(D12 + 1, +1) == D12 + 1
    assert shift_closed(D12 + 1, -1) == D12


# --- open shifts -------------------------------------------------------------------------------
def test_open_shift_seed_example_excess_reduces_opponent():
    # "the D10 would shift up once to a D12, and the second shift applied to the opponent's die reducing it to a D4"
    assert shift_open(D10, +2, D6) == (D12, D4)


@pytest.mark.parametrize("own,shift,other,out", [
    (D8, +1, D8, (D10, D8)),  # no excess: opponent untouched
    (D12, +1, D10, (D12, D8)),  # all excess
    (D12, +3, D6, (D12, D4)),  # excess beyond the opponent's D4 is lost (closed on the opponent)
    (D6, -1, D8, (D4, D8)),
    (D6, -2, D8, (D4, D10)),  # below D4 becomes a positive shift of the opponent
    (D4, -3, D8, (D4, D12)),  # ... closed at D12
    (D4, -5, D8, (D4, D12)),
])
def test_open_shift(own, shift, other, out):
    assert shift_open(own, shift, other) == out


# --- opposed and unopposed comparisons ------------------------------------------------------------
def test_opposed_draw_favours_defender():
    assert OpposedResult(5, 5).wins is False
    assert OpposedResult(6, 5).wins is True
    assert OpposedResult(4, 5).wins is False


def test_more_than_double_and_less_than_half():
    assert OpposedResult(9, 4).more_than_double is True
    assert OpposedResult(8, 4).more_than_double is False  # exactly double is not more than double
    assert OpposedResult(1, 3).less_than_half is True
    assert OpposedResult(2, 4).less_than_half is False  # exactly half is not less than half
    assert OpposedResult(2, 5).less_than_half is True


# --- clockface --------------------------------------------------------------------------------------
@pytest.mark.parametrize("hour,vec", [(12, (0.0, 1.0)), (3, (1.0, 0.0)), (6, (0.0, -1.0)), (9, (-1.0, 0.0)),
                                       (7, (-0.5, -math.sqrt(3) / 2)), (1, (0.5, math.sqrt(3) / 2))])
def test_clockface_rolls_a_d12_and_turns_clockwise(hour, vec):
    x, y = clockface_direction(ScriptedDice([("d12", hour)]))
    assert x == pytest.approx(vec[0], abs=1e-12) and y == pytest.approx(vec[1], abs=1e-12)


def test_clockface_twelve_oclock_can_be_nominated():
    # 12 o'clock nominated as east: 3 o'clock is then south
    x, y = clockface_direction(ScriptedDice([("d12", 3)]), twelve=(1.0, 0.0))
    assert x == pytest.approx(0.0, abs=1e-12) and y == pytest.approx(-1.0, abs=1e-12)
    with pytest.raises(DiceScriptError):
        clockface_direction(ScriptedDice([("d8", 7)]))
    d = SeededDice(3)
    seen = {tuple(round(c, 6) for c in clockface_direction(d)) for _ in range(500)}
    assert len(seen) == 12


@pytest.mark.parametrize("a,sa,b,sb,out", [
    (D10, +2, D6, 0, (D12, D4)),      # the seed's example: the second shift moves to the opponent
    (D12, +1, D12, +1, (D10, D10)),   # both overflow by one: each excess shifts the other die down
    (D12, +2, D8, +1, (D12, D6)),     # a: +2 over D12 -> b -2; b: D10 stays, then -2 -> D6
    (D4, -2, D8, 0, (D4, D12)),       # below D4 becomes positive shifts of the opponent
    (D6, -3, D12, +1, (D4, D12)),     # a -1 over the bottom -> b +1 (capped); b's +1 over the top -> a -1 (capped)
    (D8, +1, D8, -1, (D10, D6)),      # no overflow: plain shifts
])
def test_open_shifts_on_both_dice(a, sa, b, sb, out):
    assert shift_open_both(a, sa, b, sb) == out


# --- dice sources -------------------------------------------------------------------------------------
def test_scripted_dice_checks_type_faces_and_exhaustion():
    d = ScriptedDice([3, ("d10", 7), ("d12x2", 6)])
    assert d.roll(D4) == 3  # untyped result fits any die with that face
    assert d.roll(D10) == 7
    assert d.roll(D12 + 1) == 12  # D12x2: the D12 result doubled
    assert d.remaining == 0
    assert d.log == [("d4", 3), ("d10", 7), ("d12x2", 6)]
    with pytest.raises(DiceScriptError, match="exhausted"):
        d.roll(D6)
    with pytest.raises(DiceScriptError, match="expected d8"):
        ScriptedDice([("d8", 3)]).roll(D6)
    with pytest.raises(DiceScriptError, match="not a face"):
        ScriptedDice([5]).roll(D4)
    with pytest.raises(DiceScriptError, match="not a face"):
        ScriptedDice([0]).roll(D8)


def test_scripted_dice_state_round_trip():
    d = ScriptedDice([1, 2, 3])
    d.roll(D4)
    st = d.getstate()
    assert d.roll(D4) == 2
    d.setstate(st)
    assert d.roll(D4) == 2


@pytest.mark.parametrize("step,sides", [(D4, 4), (D6, 6), (D8, 8), (D10, 10), (D12, 12)])
def test_seeded_dice_cover_every_face_and_nothing_else(step, sides):
    d = SeededDice(11)
    seen = {d.roll(step) for _ in range(600)}
    assert seen == set(range(1, sides + 1))


def test_seeded_dice_multiplied_d12():
    d = SeededDice(5)
    seen = {d.roll(D12 + 1) for _ in range(600)}
    assert seen == set(range(2, 25, 2))


def test_seeded_dice_are_reproducible_and_restorable():
    a, b = SeededDice(42), SeededDice(42)
    ra = [a.roll(D8) for _ in range(50)]
    assert ra == [b.roll(D8) for _ in range(50)]
    st = a.getstate()
    nxt = [a.roll(D12) for _ in range(20)]
    a.setstate(st)
    assert [a.roll(D12) for _ in range(20)] == nxt
    assert [SeededDice(43).roll(D8) for _ in range(50)] != ra


def test_enumerate_outcomes_is_exact_and_follows_branches():
    def proc(dice):  # a D6; on a 6 roll a D4 as well
        r = dice.roll(D6)
        return r + (dice.roll(D4) if r == 6 else 0)

    outs = list(enumerate_outcomes(proc))
    assert sum(p for p, _ in outs) == 1
    assert len(outs) == 5 + 4
    p10 = sum(p for p, r in outs if r == 10)
    assert p10 == Fraction(1, 24)


def test_enumerated_opposed_roll_odds():
    # P(D8 > D6) with draws favouring the defender = 27/48
    outs = enumerate_outcomes(lambda d: OpposedResult(d.roll(D8), d.roll(D6)).wins)
    assert sum(p for p, w in outs if w) == Fraction(27, 48)


# --- random hit allocation: smallest die >= figures, re-rolling higher results -------------------------
def test_allocation_five_figures_rolls_d6_rerolling_sixes():
    d = ScriptedDice([("d6", 6), ("d6", 6), ("d6", 3)])
    assert allocation_roll(d, 5) == 2
    assert d.remaining == 0


@pytest.mark.parametrize("n,die", [(2, "d4"), (4, "d4"), (6, "d6"), (7, "d8"), (10, "d10"), (12, "d12")])
def test_allocation_die_size(n, die):
    d = ScriptedDice([(die, 1)])
    assert allocation_roll(d, n) == 0
    assert d.log == [(die, 1)]


def test_allocation_single_figure_rolls_nothing_and_large_units_roll_n():
    assert allocation_roll(ScriptedDice([]), 1) == 0
    d = ScriptedDice([13])
    assert allocation_roll(d, 14) == 12
    assert d.log == [("d14", 13)]


def test_allocation_rerolls_until_in_range():
    d = ScriptedDice([("d8", 8), ("d8", 8), ("d8", 7)])
    assert allocation_roll(d, 7) == 6
    d = ScriptedDice([("d4", 4), ("d4", 3)])
    assert allocation_roll(d, 3) == 2


def test_copies_of_the_seeded_generator_roll_the_same_whatever_the_order():
    """copy() is lazy (a fork point): the original and any copies (and copies of copies) roll the same sequence
    from the moment of the copy, in any interleaving; fresh(seed) rolls as SeededDice(seed)."""
    import random as _random

    from dustup_env.rules.kernel.dice import D6, D12

    rng = _random.Random(0)
    for trial in range(500):
        base = SeededDice(rng.randrange(1000))
        for _ in range(rng.randrange(4)):
            base.roll(D6)
        ref = SeededDice(0)
        ref.setstate(base.getstate())
        want = [ref.roll(D12) for _ in range(20)]
        first = base.copy()
        group = [base, first, base.copy(), first.copy()]
        got = {id(d): [] for d in group}
        while any(len(v) < 20 for v in got.values()):
            d = rng.choice(group)
            if len(got[id(d)]) < 20:
                if rng.random() < 0.1:
                    group.append(d.copy())
                    got[id(group[-1])] = list(got[id(d)])
                got[id(d)].append(d.roll(D12))
        assert all(v == want for v in got.values()), trial
    a, b = SeededDice(77), SeededDice.fresh(77)
    assert [a.roll(D12) for _ in range(10)] == [b.roll(D12) for _ in range(10)]
    c = SeededDice.fresh(5)
    assert c.getstate() == SeededDice(5).getstate()
