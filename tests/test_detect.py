"""Hidden Units, Detect Action and Night Vision (seed 000 "Detect Action"): forced-dice tests."""
import math
import random

import pytest

from conftest import activate, begin, events_of, kinds, last_event, rect, scenario, unit
from dustup_env.rules import D4, D6, D8, D10, D12, Game, ScenarioError
from dustup_env.rules.unit_actions.detect_action import range_die
from dustup_env.rules.unit_actions.move_action import enemy_figures

WOOD = rect("light_woods", 10, 28, 34, 34)
HILL = rect("hill", 30, 18, 46, 26)


def hidden_scn(hidden_at=(20, 30), dummies=((14, 30), (28, 30)), observer=(20, 22), terrain=(WOOD,), **kw):
    """Blue observer A (uid 0); Red visible B (uid 1) far away and hidden H (uid 2) with two dummies."""
    scn = scenario([unit("A", observer, **kw)], [unit("B", (44, 46)), unit("H", hidden_at, hidden=True)],
                   terrain=list(terrain))
    scn["sides"][1]["dummies"] = [list(p) for p in dummies]
    return scn


def marker_at(g, x, y):
    return next(i for i, m in enumerate(g.markers) if (m["x"], m["y"]) == (x, y))


# ------------------------------------------------------------------------------------------ markers
def test_markers_sorted_by_position_and_hide_the_unit():
    g = begin(hidden_scn())
    assert [(m["x"], m["y"], m["unit"]) for m in g.markers] == [(14, 30, -1), (20, 30, 2), (28, 30, -1)]
    assert g.units[2].hidden and not g.units[1].hidden
    assert [e.uid for e in g.enemy_units(0)] == [1]  # the hidden unit is unknown to Blue


def test_hidden_unit_cannot_be_shot_and_detect_is_offered_for_every_marker():
    g = begin(hidden_scn())
    activate(g, 0)
    opts = g.decision().options
    assert {o[1] for o in opts if o[0] == "shoot"} <= {1}
    assert [o for o in opts if o[0] == "detect"] == [("detect", 0), ("detect", 1), ("detect", 2)]


def test_no_detect_on_own_markers_or_out_of_sight():
    # a hill between the observer and the right-hand dummy blocks the line of sight to it
    scn = hidden_scn(observer=(38, 12), terrain=(WOOD, rect("building", 30, 18, 40, 24)))
    g = begin(scn)
    activate(g, 0)
    det = [o for o in g.decision().options if o[0] == "detect"]
    assert ("detect", marker_at(g, 28, 30)) not in det
    for i in range(3):
        assert (("detect", i) in det) == g.bf.sight(38, 12, g.markers[i]["x"], g.markers[i]["y"]).visible
    # Red's units are never offered detection of their own markers
    g2 = begin(hidden_scn(), first=1)
    activate(g2, 1)
    assert "detect" not in kinds(g2.decision().options)


# ------------------------------------------------------------------------------------------ detection
def detect(g, i, dice):
    g.dice.results.extend(g.dice.__class__(dice).results)
    g.apply(("detect", i))


def test_major_success_reveals_the_real_unit():
    g = begin(hidden_scn())
    activate(g, 0)
    i = marker_at(g, 20, 30)  # 8" away: D8
    detect(g, i, [("d8", 3), ("d8", 5), ("d4", 4)])
    assert g.dice.remaining == 0
    ev = last_event(g, "DetectionAttempted")
    assert ev == {"type": "DetectionAttempted", "observer": 0, "marker": i, "range_die": "d8", "target_roll": 3,
                  "observer_dice": ["d8", "d4"], "observer_rolls": [5, 4], "successes": 2, "result": "major"}
    assert last_event(g, "UnitRevealed") == {"type": "UnitRevealed", "unit": 2, "marker": i, "reason": "detected"}
    assert not g.units[2].hidden and g.markers[i]["removed"]
    assert ("shoot", 2, "all") in g.decision().options  # revealed: may now be shot at (second action)


def test_minor_success_removes_only_a_dummy():
    g = begin(hidden_scn())
    activate(g, 0)
    real = marker_at(g, 20, 30)
    detect(g, real, [("d8", 3), ("d8", 5), ("d4", 2)])  # one success on the real unit: still hidden
    assert last_event(g, "DetectionAttempted")["result"] == "minor"
    assert g.units[2].hidden and not g.markers[real]["removed"]
    assert not events_of(g, "MarkerRemoved") and not events_of(g, "UnitRevealed")
    dummy = marker_at(g, 14, 30)  # 10" away: D8
    detect(g, dummy, [("d8", 6), ("d8", 2), ("d4", 4)])  # wait: 2 < 6, 4 < 6 -> none
    assert last_event(g, "DetectionAttempted")["result"] == "none"
    assert not g.markers[dummy]["removed"]
    assert g.dice.remaining == 0


def test_minor_success_on_a_dummy_removes_it():
    g = begin(hidden_scn())
    activate(g, 0)
    dummy = marker_at(g, 28, 30)
    detect(g, dummy, [("d8", 4), ("d8", 7), ("d4", 1)])
    assert g.dice.remaining == 0
    assert g.markers[dummy]["removed"]
    assert last_event(g, "MarkerRemoved") == {"type": "MarkerRemoved", "marker": dummy, "reason": "dummy"}
    assert g.units[2].hidden
    assert ("detect", dummy) not in g.decision().options


def test_major_success_on_a_dummy_removes_it():
    g = begin(hidden_scn())
    activate(g, 0)
    dummy = marker_at(g, 14, 30)
    detect(g, dummy, [("d8", 1), ("d8", 2), ("d4", 2)])
    assert g.markers[dummy]["removed"] and last_event(g, "DetectionAttempted")["result"] == "major"
    assert not events_of(g, "UnitRevealed")


def test_ties_are_not_successes():
    g = begin(hidden_scn())
    activate(g, 0)
    detect(g, marker_at(g, 20, 30), [("d8", 4), ("d8", 4), ("d4", 4)])
    assert last_event(g, "DetectionAttempted")["successes"] == 0 and g.units[2].hidden


def test_detect_counts_one_action():
    g = begin(hidden_scn())
    activate(g, 0)
    detect(g, 0, [("d8", 8), ("d8", 1), ("d4", 1)])
    assert g.actions_left == 1 and g.decision().unit == 0
    detect(g, 0, [("d8", 8), ("d8", 1), ("d4", 1)])
    assert g.decision().kind == "activate" and g.decision().side == 1


@pytest.mark.parametrize("sensor,die", [("unaided", "d4"), ("aided", "d6"), ("enhanced", "d8"), ("superior", "d10")])
def test_sensor_die(sensor, die):
    g = begin(hidden_scn(sensor=sensor))
    activate(g, 0)
    detect(g, marker_at(g, 20, 30), [("d8", 8), ("d8", 1), (die, 1)])
    assert last_event(g, "DetectionAttempted")["observer_dice"] == ["d8", die]
    assert g.dice.remaining == 0


# ------------------------------------------------------------------------------------------ ranges
def test_range_die_table():
    assert range_die(0.0) == D8 and range_die(11.99) == D8
    assert range_die(12.0) == D10 and range_die(23.99) == D10
    assert range_die(24.0) == D12 and range_die(47.99) == D12
    assert range_die(48.0) is None and range_die(60.0) is None
    assert range_die(5.0, size=2) == D6 and range_die(30.0, size=3) == D10
    assert range_die(47.0, size=2) == D10 and range_die(48.0, size=2) is None


def test_night_range_die_table():
    assert range_die(3.99, night=True) == D8
    assert range_die(4.0, night=True) == D10 and range_die(7.99, night=True) == D10
    assert range_die(8.0, night=True) == D12 and range_die(15.99, night=True) == D12
    assert range_die(16.0, night=True) is None


def test_range_die_at_distance_in_game():
    # observer 20" from the real unit: D10
    g = begin(hidden_scn(observer=(20, 10)))
    activate(g, 0)
    detect(g, marker_at(g, 20, 30), [("d10", 9), ("d8", 8), ("d4", 4)])
    assert last_event(g, "DetectionAttempted")["range_die"] == "d10"
    assert g.dice.remaining == 0


def test_beyond_48_inches_detection_impossible():
    scn = hidden_scn(observer=(20, 2), hidden_at=(20, 55), dummies=(), terrain=(rect("light_woods", 10, 52, 34, 58),))
    scn["table"]["height"] = 60
    scn["sides"][1]["units"][0]["position"] = [44, 40]
    g = begin(scn)
    activate(g, 0)
    assert "detect" not in kinds(g.decision().options)  # 53" away


def test_larger_target_shifts_range_die_down():
    scn = hidden_scn()
    scn["sides"][1]["units"][1]["size"] = 2
    g = begin(scn)
    activate(g, 0)
    detect(g, marker_at(g, 20, 30), [("d6", 1), ("d8", 2), ("d4", 2)])
    assert last_event(g, "DetectionAttempted")["range_die"] == "d6"
    assert not g.units[2].hidden
    # a dummy counts as size 1
    detect(g, marker_at(g, 14, 30), [("d8", 8), ("d8", 1), ("d4", 1)])
    assert last_event(g, "DetectionAttempted")["range_die"] == "d8"
    assert g.dice.remaining == 0


def test_night_divides_unaided_ranges_by_three():
    g = begin(hidden_scn(), options={"night": True})
    activate(g, 0)
    det = [o for o in g.decision().options if o[0] == "detect"]
    assert len(det) == 3  # 8" and 10": under 16"
    detect(g, marker_at(g, 20, 30), [("d12", 10), ("d8", 1), ("d4", 1)])  # 8" at night: not under 8", D12
    assert last_event(g, "DetectionAttempted")["range_die"] == "d12"
    assert g.dice.remaining == 0
    near = begin(hidden_scn(observer=(20, 24)), options={"night": True})  # 6" at night: D10
    activate(near, 0)
    detect(near, marker_at(near, 20, 30), [("d10", 10), ("d8", 1), ("d4", 1)])
    assert last_event(near, "DetectionAttempted")["range_die"] == "d10" and near.dice.remaining == 0
    far = begin(hidden_scn(observer=(20, 12)), options={"night": True})  # 18" and more: beyond 16"
    activate(far, 0)
    assert "detect" not in kinds(far.decision().options)
    aided = begin(hidden_scn(observer=(20, 12), sensor="aided"), options={"night": True})
    activate(aided, 0)
    assert "detect" not in kinds(aided.decision().options)  # binoculars are not augmented vision


@pytest.mark.parametrize("sensor,die", [("enhanced", "d8"), ("superior", "d10")])
def test_enhanced_sensors_ignore_night(sensor, die):
    g = begin(hidden_scn(observer=(20, 12), sensor=sensor), options={"night": True})
    activate(g, 0)
    assert "detect" in kinds(g.decision().options)
    detect(g, marker_at(g, 20, 30), [("d10", 1), ("d8", 2), (die, 2)])  # 18": D10 as in daylight
    assert last_event(g, "DetectionAttempted")["range_die"] == "d10"
    assert not g.units[2].hidden and g.dice.remaining == 0


# ------------------------------------------------------------------------------------------ reveal on acting
def hidden_turn():
    g = begin(hidden_scn(), first=1)
    activate(g, 2)
    return g


def test_moving_reveals_before_the_move():
    g = hidden_turn()
    mv = next(o for o in g.decision().options if o[0] == "move")
    n = len(g.events)
    g.dice.results.extend(g.dice.__class__([("d6", 1)]).results)
    g.apply(mv)
    types = [e["type"] for e in g.event_log()[n:]]
    assert types[:2] == ["UnitRevealed", "Moved"]
    assert last_event(g, "UnitRevealed")["reason"] == "moved"
    assert not g.units[2].hidden and all(m["removed"] for m in g.markers if m["unit"] == 2)
    assert g.dice.remaining == 0


def test_shooting_reveals():
    scn = hidden_scn()
    g = begin(scn, first=1)
    activate(g, 2)
    sh = next(o for o in g.decision().options if o[0] == "shoot")
    g.dice.results.extend(g.dice.__class__([1] * 3).results)
    g.apply(sh)
    ev = events_of(g, "UnitRevealed")
    assert ev and ev[0]["reason"] == "fired" and not g.units[2].hidden


@pytest.mark.parametrize("opt", [("prop",), ("end",), ("reorganise", "conceal")])
def test_quiet_actions_keep_the_unit_hidden(opt):
    g = hidden_turn()
    g.apply(opt)
    assert g.units[2].hidden and not events_of(g, "UnitRevealed")


def test_forced_displacement_reveals():
    g = hidden_turn()
    g.units[2].x += 1.0  # any rule moving the unit (e.g. a forced withdrawal) gives it away
    g.apply(("end",))
    assert last_event(g, "UnitRevealed")["reason"] == "moved"


def test_markers_block_enemy_movement_like_a_figure():
    g = begin(hidden_scn())
    figs = enemy_figures(g, g.units[0])
    assert (14.0, 30.0) in figs and (20.0, 30.0) in figs and (28.0, 30.0) in figs
    assert len(figs) == 5 + 3  # the visible squad's 5 figures and 3 markers, not the hidden squad


# ------------------------------------------------------------------------------------------ scenario errors
def test_hidden_unit_must_be_in_concealing_terrain():
    with pytest.raises(ScenarioError, match="cannot conceal"):
        Game(hidden_scn(hidden_at=(40, 40)))


def test_dummy_rules():
    with pytest.raises(ScenarioError, match="at most two dummies"):
        Game(hidden_scn(dummies=((14, 30), (28, 30), (30, 31))))
    with pytest.raises(ScenarioError, match="not in concealing"):
        Game(hidden_scn(dummies=((14, 30), (40, 10))))
    with pytest.raises(ScenarioError, match="off the table"):
        Game(hidden_scn(dummies=((14, 30), (99, 10))))
    with pytest.raises(ScenarioError, match="two markers"):
        Game(hidden_scn(dummies=((20, 30),)))
    with pytest.raises(ScenarioError):
        Game(hidden_scn(sensor="x-ray"))


def test_save_load_and_random_games_with_hidden_units():
    for seed in range(6):
        g = Game(hidden_scn(), seed=seed, options={"night": seed % 2 == 1})
        rng = random.Random(seed)
        while not g.over:
            g.apply(rng.choice(g.decision().options))
        h = Game.from_dict(g.to_dict())
        assert h.state_digest() == g.state_digest() and h.markers == g.markers


# ------------------------------------------------------------------------------------------ becoming hidden again
BLOCK = rect("building", 14, 38, 26, 42)


def rehide_scn(a_pos=(20, 31), r_pos=(20, 46)):
    """Blue A (uid 0) in the woods; Red R (uid 1) behind a building that blocks the line of sight."""
    return scenario([unit("A", a_pos)], [unit("R", r_pos)], terrain=[WOOD, BLOCK])


def test_a_unit_unseen_in_concealing_terrain_may_become_hidden():
    g = begin(rehide_scn())
    a = g.units[0]
    activate(g, 0)
    assert ("reorganise", "hide") in g.decision().options
    g.apply(("reorganise", "hide"))
    assert a.hidden and g.actions_left == 1
    assert g.markers == [{"side": 0, "x": 20.0, "y": 31.0, "unit": 0, "removed": False}]
    assert last_event(g, "UnitHidden") == {"type": "UnitHidden", "unit": 0, "marker": 0}
    assert [e.uid for e in g.enemy_units(1)] == []  # unknown to Red: nothing to shoot or assault
    assert ("reorganise", "hide") not in g.decision().options  # already hidden
    g.apply(("end",))
    activate(g, 1)
    opts = g.decision().options
    assert not {"shoot", "assault"} & kinds(opts)
    assert "detect" not in kinds(opts)  # Red cannot see the marker's position either
    assert g.dice.remaining == 0


def test_no_hiding_in_sight_of_an_enemy_outside_concealing_terrain_or_when_suppressed_in_the_open():
    g = begin(rehide_scn(r_pos=(20, 37)))  # R sees A from the edge of the woods
    assert g.bf.has_los(20, 37, 20, 31)
    activate(g, 0)
    assert ("reorganise", "hide") not in g.decision().options
    g = begin(rehide_scn(a_pos=(20, 24)))  # in the open (and out of sight behind the woods)
    activate(g, 0)
    assert not g.bf.conceals(20, 24) and ("reorganise", "hide") not in g.decision().options
    g = begin(rehide_scn())
    g.units[0].suppression = 1  # suppressed, but in the woods (cover): a reorganise action is allowed
    activate(g, 0)
    assert ("reorganise", "hide") in g.decision().options
    g = begin(rehide_scn())
    activate(g, 0)
    g.apply(("reorganise", "column"))
    assert ("reorganise", "hide") not in g.decision().options  # a column on the march does not hide


def test_a_rehidden_unit_is_revealed_by_moving_and_reuses_its_marker():
    g = begin(rehide_scn(), [("d6", 1), ("d8", 8), ("d8", 1)])
    a = g.units[0]
    activate(g, 0)
    g.apply(("reorganise", "hide"))
    g.apply(("move", 4, 0))  # east 3": it gives its position away
    assert not a.hidden and g.markers[0]["removed"]
    assert last_event(g, "UnitRevealed") == {"type": "UnitRevealed", "unit": 0, "marker": 0, "reason": "moved"}
    activate(g, 1)
    g.apply(("end",))  # turn 2
    g.apply(("first",))
    activate(g, 0)
    g.apply(("reorganise", "hide"))
    assert len(g.markers) == 1 and g.markers[0] == {"side": 0, "x": a.x, "y": a.y, "unit": 0, "removed": False}
    assert g.dice.remaining == 0


def test_the_hidden_period_of_a_rehidden_unit_is_secret_in_the_enemys_log():
    g = begin(rehide_scn())
    activate(g, 0)
    g.apply(("reorganise", "hide"))
    g.apply(("prop",))
    red = g.event_log(1)
    types = [e["type"] for e in red]
    assert "UnitHidden" in types  # Red sees the unit go to ground ...
    assert types[types.index("UnitHidden") + 1] == "HiddenActivity"  # ... but not what it does then
    assert not any(e.get("unit") == 0 for e in red[types.index("UnitHidden") + 1:])
    assert any(e["type"] == "Propped" for e in g.event_log(0))  # Blue's own log is complete


def test_no_new_marker_beyond_the_codec_slots():
    from dustup_env.codec import MAX_MARKERS
    from dustup_env.rules.unit_actions.hidden_units import MAX_MARKERS as ENGINE_MAX
    assert ENGINE_MAX == MAX_MARKERS
    g = begin(rehide_scn())
    g.markers = [{"side": 1, "x": float(i), "y": 47.0, "unit": -1, "removed": True} for i in range(MAX_MARKERS)]
    activate(g, 0)
    assert ("reorganise", "hide") not in g.decision().options
