"""Equipment › Battlefield: centimetres for inches with 15mm figures (game option ``measure``, RN-358)."""
import copy
import json
import random

import pytest

from conftest import activate, begin, last_event, rect, scenario, unit, wall
from dustup_env.rules import Game, ScenarioError


def layout(unit_name=None, dist=20.0):
    """Two squads ``dist`` apart on a 30 x 40 table with terrain, an obstacle, an objective and a task."""
    doc = scenario([unit("A", (15, 5))], [unit("B", (15, 5 + dist))], width=30, height=40,
                   terrain=[rect("light_woods", 2, 10, 8, 16)], obstacles=[wall("wall", 20, 2, 28, 2, cost=2)],
                   objectives=[{"name": "X", "position": [15, 20], "vp": 1}])
    doc["tasks"] = [{"name": "T", "position": [5, 5], "vp": 1, "radius": 2}]
    if unit_name:
        doc["table"]["unit"] = unit_name
    return doc


def play(g, seed, n=400):
    rng = random.Random(seed)
    for _ in range(n):
        if g.over:
            break
        g.apply(rng.choice(g.decision().options))
    return g


def test_centimetres_for_inches_is_the_same_game():
    """A scenario drawn in centimetres and played in centimetres is the inch game with the same numbers."""
    for seed in range(4):
        a = play(Game(layout(), seed=seed), seed)
        b = play(Game(layout("cm"), seed=seed, options={"measure": "centimetres"}), seed)
        assert a.history == b.history and a.event_log() == b.event_log() and a.state_digest() == b.state_digest()


def test_an_inch_scenario_played_in_centimetres_is_scaled_by_2_54():
    g = Game(layout(), options={"measure": "centimetres"})
    k = 2.54
    assert (g.bf.width, g.bf.height) == pytest.approx((30 * k, 40 * k))
    assert [c for u in g.units for c in (u.x, u.y)] == pytest.approx([15 * k, 5 * k, 15 * k, 25 * k])
    assert g.objectives[0][1:3] == pytest.approx((15 * k, 20 * k))
    assert g.scenario["tasks"][0]["radius"] == pytest.approx(2 * k)
    assert g.scenario["obstacles"][0]["cost"] == 2  # movement points are rules units: not converted
    assert g.bf.terrain_at(5 * k, 13 * k) == "light_woods" and g.bf.terrain_at(5, 13) == "open"
    assert g.source_scenario is not g.scenario and g.source_scenario["table"]["width"] == 30  # the source is kept


@pytest.mark.parametrize("measure,die", [("inches", "d8"), ("centimetres", "d10")])
def test_ranges_are_read_in_the_rules_unit(measure, die):
    # leaders 20" apart on the table: effective range in inches, 50.8 cm (beyond 48) in centimetres
    g = begin(layout(), [1] * 4, options={"measure": measure})
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert last_event(g, "ShotResolved")["target_die"] == die


def test_a_centimetre_scenario_played_in_inches_is_scaled_down():
    g = Game(layout("cm"))
    assert g.bf.width == pytest.approx(30 / 2.54) and g.units[1].y == pytest.approx(25 / 2.54)


def test_save_load_keeps_the_source_scenario():
    g = play(Game(layout(), seed=3, options={"measure": "centimetres"}), 3, n=60)
    d = json.loads(json.dumps(g.to_dict()))
    assert d["scenario"]["table"]["width"] == 30  # not converted twice on load
    h = Game.from_dict(d)
    assert h.state_digest() == g.state_digest() and h.bf.width == pytest.approx(30 * 2.54)
    assert g.clone().state_digest() == g.state_digest()


def test_bad_measure_and_oversized_converted_tables():
    with pytest.raises(ScenarioError, match="measure must be one of inches, centimetres"):
        Game(layout(), options={"measure": "furlongs"})
    big = copy.deepcopy(layout())
    big["table"]["width"] = 100
    with pytest.raises(ScenarioError, match="254 x 101.6 centimetres once converted from in; at most 240"):
        Game(big, options={"measure": "centimetres"})
    bad = layout()
    bad["table"]["unit"] = "mm"
    with pytest.raises(ScenarioError, match="table/unit"):
        Game(bad)
