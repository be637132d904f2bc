"""Reorganise Action: free figure placement (leader <= 2", other figures <= 6", ending within coherence; RN-353)."""
import math

import pytest

from conftest import activate, begin, events_of, last_event, rect, scenario, unit, wall
from dustup_env.rules.kernel.entities import KILLED, WOUNDED

NORTH, EAST, SOUTH, WEST = 0, 4, 8, 12


def squad(pos=(24, 10), enemy=(24, 40), terrain=(), obstacles=(), n=5, enemy_n=5, **kw):
    return scenario([unit("A", pos, figures=(("rifle", n),), **kw)], [unit("B", enemy, figures=(("rifle", enemy_n),))],
                    terrain=terrain, obstacles=obstacles)


def flat(points):
    return [c for p in points for c in p]


def placing(scn, setup=None):
    g = begin(scn)
    if setup:
        setup(g)
    activate(g, 0)
    return g


def world(u):
    lf = u.figures[u.leader]
    return [(u.x - lf.dx + f.dx, u.y - lf.dy + f.dy) for f in u.figures]


def shifts(opts):
    return {o[1] for o in opts if o[0] == "shift"}


def formations(opts):
    return {o[1] for o in opts if o[0] == "formation"}


def spread_west(g):
    """Four figures bunched 5.5-5.9" west of the leader (still within cohesion)."""
    u = g.units[0]
    for i, (dx, dy) in enumerate([(-5.9, 0.0), (-5.9, 0.5), (-5.9, -0.5), (-5.5, 0.0)], start=1):
        u.set_figure(i, dx=u.figures[0].dx + dx, dy=u.figures[0].dy + dy)


def test_place_is_one_reorganise_action_with_a_leader_step_and_a_formation_step():
    g = placing(squad())
    assert ("reorganise", "place") in g.decision().options
    g.apply(("reorganise", "place"))
    d = g.decision()
    assert (d.kind, d.unit) == ("place_leader", 0)
    assert ("stay",) in d.options and shifts(d.options) == set(range(16))
    g.apply(("shift", NORTH))
    d = g.decision()
    assert d.kind == "place_formation"
    assert formations(d.options) == {"keep", "compact", "line", "open", "file"}
    g.apply(("formation", "line"))  # facing the enemy (north): one rank abreast along x
    u = g.units[0]
    assert (u.x, u.y) == (24.0, 12.0)
    pos = sorted(world(u))
    assert [p[1] for p in pos] == pytest.approx([12.0] * 5)
    assert [p[0] for p in pos] == pytest.approx([20.0, 22.0, 24.0, 26.0, 28.0])
    e = last_event(g, "FiguresPlaced")
    assert (e["shift"], e["formation"], e["start"], e["end"]) == (NORTH, "line", [24.0, 10.0], [24.0, 12.0])
    assert g.actions_left == 1 and g.decision().kind == "action"  # one action used, the activation goes on
    assert not u.disorganised()
    assert g.dice.remaining == 0  # nothing is rolled


def test_file_faces_the_nearest_enemy():
    g = placing(squad(enemy=(44, 10)))  # the enemy is due east
    g.apply(("reorganise", "place"))
    g.apply(("stay",))
    g.apply(("formation", "file"))
    pos = sorted(world(g.units[0]))
    assert [p[1] for p in pos] == pytest.approx([10.0] * 5)  # one behind the other towards the enemy: along x
    assert [p[0] for p in pos] == pytest.approx([20.0, 22.0, 24.0, 26.0, 28.0])


def test_figures_move_at_most_six_inches_and_end_within_coherence():
    g = placing(squad(), setup=spread_west)
    g.apply(("reorganise", "place"))
    opts = g.decision().options
    assert WEST in shifts(opts)  # the bunch stays within 6" of a leader 2" further west
    assert EAST not in shifts(opts)  # 7.9" from the leader: no formation can bring it back within 6" moves
    g.apply(("stay",))
    assert formations(g.decision().options) == {"keep"}  # every formation needs a figure to move more than 6"
    before = world(g.units[0])
    g.apply(("formation", "keep"))
    assert flat(world(g.units[0])) == pytest.approx(flat(before))


def test_figures_bunched_to_the_west_can_form_a_file_after_the_leader_moves_west():
    g = placing(squad(), setup=spread_west)
    g.apply(("reorganise", "place"))
    g.apply(("shift", WEST))
    opts = formations(g.decision().options)
    assert "keep" in opts
    for form in opts - {"keep"}:
        c = g.clone()
        old = world(c.units[0])
        c.apply(("formation", form))
        new = world(c.units[0])
        assert all(math.dist(a, b) <= 6.0 + 1e-6 for a, b in zip(old, new))
        assert not c.units[0].disorganised()


def test_the_leader_moves_two_inches_at_most_and_only_where_it_could_walk():
    water = rect("open_water", 25.5, 0, 40, 48)
    g = placing(squad(terrain=[water], obstacles=[wall("wall", 10, 11, 40, 11)]))
    g.apply(("reorganise", "place"))
    s = shifts(g.decision().options)
    assert EAST not in s  # into open water
    assert NORTH not in s  # across the wall
    assert WEST in s and SOUTH in s


def test_no_leader_shift_within_two_inches_of_an_enemy():
    g = placing(squad(enemy=(24, 13.5), enemy_n=1))  # 3.5" from the leader: a shift north would end 1.5" away
    g.apply(("reorganise", "place"))
    s = shifts(g.decision().options)
    assert NORTH not in s and SOUTH in s


@pytest.mark.parametrize("attr", ["propped", "hidden"])
def test_propped_or_hidden_units_place_figures_but_the_leader_stays(attr):
    terrain = [rect("light_scrub", 14, 0, 34, 20)] if attr == "hidden" else []
    g = placing(squad(terrain=terrain, **({"hidden": True} if attr == "hidden" else {})),
                setup=lambda g: setattr(g.units[0], "propped", True) if attr == "propped" else None)
    g.apply(("reorganise", "place"))
    assert g.decision().options == (("stay",),)
    g.apply(("stay",))
    g.apply(("formation", "line"))
    assert getattr(g.units[0], attr) is True  # a reorganise does not count as moving
    if attr == "hidden":
        assert not events_of(g, "UnitRevealed")


def test_shaken_unit_may_not_shift_towards_the_enemy_or_out_of_cover():
    woods = rect("light_woods", 20, 6, 28, 11)  # the leader at (24, 10) is 1" inside the north edge of the woods
    g = placing(squad(terrain=[woods], confidence="shaken"))
    g.apply(("reorganise", "place"))
    s = shifts(g.decision().options)
    assert NORTH not in s  # both towards the enemy and out of the woods
    assert 1 not in s and 15 not in s  # towards the enemy, still in the woods
    assert EAST in s and WEST in s and SOUTH in s  # along the woods or back: no test needed
    g2 = placing(squad(terrain=[woods]))
    g2.apply(("reorganise", "place"))
    assert NORTH in shifts(g2.decision().options)  # a steady unit may


def test_complete_concealment_is_kept_unless_the_leader_leaves_concealing_terrain():
    scrub = rect("light_scrub", 20, 0, 25, 20)
    g = placing(squad(terrain=[scrub]), setup=lambda g: setattr(g.units[0], "complete_concealment", True))
    c = g.clone()
    c.apply(("reorganise", "place"))
    c.apply(("shift", WEST))
    c.apply(("formation", "keep"))
    assert c.units[0].complete_concealment is True
    g.apply(("reorganise", "place"))
    g.apply(("shift", EAST))  # (26, 10): out of the scrub
    g.apply(("formation", "keep"))
    assert g.units[0].complete_concealment is False


def test_wounded_figures_stay_where_they_lie():
    def setup(g):
        g.units[0].set_figure(3, status=WOUNDED)
        g.units[0].set_figure(4, status=KILLED)
    g = placing(squad(), setup=setup)
    before = world(g.units[0])
    g.apply(("reorganise", "place"))
    g.apply(("stay",))
    g.apply(("formation", "line"))
    after = world(g.units[0])
    assert after[3] == pytest.approx(before[3])
    assert sorted(p[0] for p in after[:3]) == pytest.approx([22.0, 24.0, 26.0])  # three able figures abreast


def test_a_single_figure_only_shifts():
    g = placing(squad(n=1))
    g.apply(("reorganise", "place"))
    g.apply(("stay",))
    assert formations(g.decision().options) == {"keep"}  # every formation is the figure where it stands


def test_place_follows_the_reorganise_limits():
    assert ("reorganise", "place") in placing(squad()).decision().options
    sup = placing(squad(), setup=lambda g: setattr(g.units[0], "suppression", 1))
    assert ("reorganise", "place") not in sup.decision().options  # suppressed in the open
    woods = [rect("light_woods", 20, 6, 28, 14)]
    assert ("reorganise", "place") in placing(squad(terrain=woods), setup=lambda g: setattr(g.units[0], "suppression", 1)) \
        .decision().options  # suppressed in cover may reorganise
    g = placing(squad())
    g.apply(("reorganise", "column"))
    assert ("reorganise", "place") not in g.decision().options  # travel mode: the column is its own formation
    dis = placing(squad(), setup=lambda g: g.units[0].set_figure(1, dx=9.0))
    assert ("reorganise", "place") not in dis.decision().options  # disorganised: only move or recover


def test_placement_encodes_and_replays():
    import random

    from dustup_env.codec import ActionCodec
    from dustup_env.rules import Game
    codec = ActionCodec()
    g = Game("skirmish", seed=3)
    rng = random.Random(3)
    placed = 0
    while not g.over and placed < 3:
        d = g.decision()
        if d.kind in ("place_leader", "place_formation"):
            for opt in d.options:
                assert codec.decode(g, d.side, codec.encode(g, d.side, opt)) == opt
        opts = [o for o in d.options if o[0] in ("shift", "formation") or o == ("reorganise", "place")] or list(d.options)
        opt = rng.choice(opts)
        placed += opt[0] == "formation"
        g.apply(opt)
    assert placed == 3
    h = Game.replay("skirmish", 3, g.history)
    assert h.state_digest() == g.state_digest() and h.event_log() == g.event_log()
