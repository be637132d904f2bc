"""Move Action, terrain costs, obstacles, the 2" rule, Prop Action, and confidence restrictions on movement."""
import math

import pytest

from conftest import activate, add_dice, begin, events_of, kinds, last_event, rect, scenario, unit, wall
from dustup_env.rules import IllegalOptionError
from dustup_env.rules.kernel.entities import BROKEN, ROUTED, STEADY
from dustup_env.rules.unit_actions.move_action import move_options, nominated_point

NORTH, EAST, SOUTH, WEST = 0, 4, 8, 12
D3, D6_, D12_, D24 = 0, 1, 2, 3  # distance indices: 3", 6", 12", 24"

ONE = (("rifle", 1),)


def mover(pos=(24, 10), enemy=(5, 45), terrain=(), obstacles=(), **kw):
    """A single-figure mover (uid 0) and a far-away single-figure enemy (uid 1)."""
    return scenario([unit("M", pos, figures=kw.pop("figures", ONE), **kw)], [unit("E", enemy, figures=ONE)],
                    terrain=terrain, obstacles=obstacles)


def move(scn, option, dice, setup=None):
    g = begin(scn, dice)
    if setup:
        setup(g)
    activate(g, 0)
    g.apply(option)
    return g


def end_of(g):
    m = last_event(g, "Moved")
    return tuple(m["end"])


# --- movement die x 2 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("movement,die,roll,dist", [("infantry", "d6", 3, 6.0), ("infantry", "d6", 1, 2.0),
                                                    ("fast", "d8", 7, 14.0), ("encumbered", "d4", 4, 8.0)])
def test_movement_die_times_two(movement, die, roll, dist):
    g = move(mover(movement=movement), ("move", NORTH, D24), [(die, roll)])
    m = last_event(g, "Moved")
    assert (m["roll"], m["points"]) == (roll, 2.0 * roll)
    assert end_of(g) == (24.0, 10.0 + dist)
    assert (g.units[0].x, g.units[0].y) == (24.0, 10.0 + dist)
    assert g.dice.remaining == 0


def test_moves_to_the_nominated_point_when_closer():
    g = move(mover(), ("move", EAST, D6_), [("d6", 6)])  # 12 points but the point is 6" away
    assert end_of(g) == (30.0, 10.0)


def test_diagonal_move_covers_the_rolled_distance():
    g = move(mover(), ("move", 2, D24), [("d6", 5)])  # north-east, 10"
    x, y = g.units[0].x, g.units[0].y
    assert math.hypot(x - 24, y - 10) == pytest.approx(10.0, abs=1e-6)
    assert x - 24 == pytest.approx(y - 10, abs=1e-6)


# --- terrain costs ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ttype,roll,dist", [("open", 3, 6.0), ("light_scrub", 3, 6.0), ("road", 3, 6.0),
                                             ("slopes", 3, 6.0), ("rough", 3, 3.0), ("cultivated", 3, 3.0),
                                             ("swamp", 3, 3.0), ("light_woods", 3, 3.0), ("dense_woods", 3, 3.0),
                                             ("building", 3, 3.0), ("river", 3, 2.0)])
def test_terrain_cost_per_inch(ttype, roll, dist):
    g = move(mover(terrain=[rect(ttype, 20, 0, 28, 48)]), ("move", NORTH, D24), [("d6", roll)])
    assert g.units[0].y == pytest.approx(10.0 + dist)


@pytest.mark.parametrize("ttype,dist", [("rough", 6.0), ("cultivated", 6.0), ("light_woods", 3.0),
                                        ("swamp", 3.0), ("river", 2.0)])
def test_power_armour_column(ttype, dist):
    scn = mover(terrain=[rect(ttype, 20, 0, 28, 48)], armour="light_power")
    g = move(scn, ("move", NORTH, D24), [("d6", 3)])
    assert g.units[0].y == pytest.approx(10.0 + dist)


def test_as_far_as_able_partial_inch():
    # difficult terrain: 4 points buy 1 1/3 inches
    g = move(mover(terrain=[rect("river", 20, 0, 28, 48)]), ("move", NORTH, D24), [("d6", 2)])
    assert g.units[0].y == pytest.approx(10.0 + 4.0 / 3.0)


def test_terrain_entered_part_way():
    # 2" of open then rough: 8 points = 2" open + 6 points of rough = 3" -> 5"
    g = move(mover(terrain=[rect("rough", 20, 12, 28, 48)]), ("move", NORTH, D24), [("d6", 4)])
    assert g.units[0].y == pytest.approx(15.0)


def test_impassable_terrain_stops_the_move_and_is_not_a_destination():
    scn = mover(terrain=[rect("open_water", 10, 13, 38, 20)])
    g = begin(scn)
    activate(g, 0)
    opts = g.decision().options
    assert ("move", NORTH, D6_) not in opts  # (24, 16) is in the water
    assert ("move", NORTH, D3) not in opts  # (24, 13) on the edge: its 0.5" raster cell is water
    assert ("move", NORTH, D24) in opts and ("move", SOUTH, D3) in opts
    add_dice(g, ("d6", 6))
    g.apply(("move", NORTH, D24))  # to (24, 34), beyond the water: stopped at its edge
    assert g.units[0].y == pytest.approx(13.0)


# --- issue 3: amphibious units and power armour wading on the bottom (RN-041, RN-354) -------------------------------
@pytest.mark.parametrize("spec,roll,dist", [
    ({}, 6, 3.0),  # open water is impassable: stopped at its edge (13")
    ({"amphibious": True}, 3, 3.0 + 3.0 / 2),  # 6 points: 3" of open ground, then 3 points at 2 per inch
    ({"armour": "light_power"}, 6, 3.0),  # non-amphibious power armour: impassable too
    ({"armour": "light_power", "wading": True}, 3, 3.0 + 3.0 / 3),  # wading on the bottom: difficult, 3 per inch
    ({"armour": "heavy_power", "amphibious": True}, 3, 3.0 + 3.0 / 2),
    ({"armour": "light_power", "amphibious": True, "wading": True}, 3, 3.0 + 3.0 / 2),  # amphibious is cheaper
])
def test_open_water_for_amphibious_and_wading_units(spec, roll, dist):
    scn = mover(terrain=[rect("open_water", 10, 13, 38, 30)], **spec)
    g = move(scn, ("move", NORTH, D24), [("d6", roll)])
    assert g.units[0].y == pytest.approx(10.0 + dist)


def test_open_water_destinations_are_offered_only_to_units_that_can_enter_it():
    water = [rect("open_water", 10, 13, 38, 30)]
    for spec, offered in (({}, False), ({"amphibious": True}, True), ({"armour": "light_power", "wading": True}, True)):
        g = begin(mover(terrain=water, **spec))
        activate(g, 0)
        assert (("move", NORTH, D6_) in g.decision().options) is offered  # (24, 16) is in the water


def test_amphibious_is_kept_by_a_detachment():
    scn = mover(terrain=[rect("open_water", 10, 13, 38, 30)], figures=(("rifle", 6),), amphibious=True)
    g = begin(scn)
    activate(g, 0)
    g.apply(("detach", "half"))
    d = g.units[-1]
    assert d.parent == 0 and d.amphibious and d.terrain_column == g.units[0].terrain_column


def test_move_options_stay_on_the_table():
    g = begin(mover(pos=(2, 2)))
    activate(g, 0)
    opts = g.decision().options
    assert ("move", SOUTH, D3) not in opts and ("move", WEST, D3) not in opts
    assert ("move", NORTH, D3) in opts and ("move", EAST, D24) in opts
    with pytest.raises(IllegalOptionError):
        g.apply(("move", SOUTH, D3))


# --- obstacles ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("wall_y", [11.0, 11.25, 12.5])
def test_crossing_an_obstacle_costs_its_points(wall_y):
    scn = mover(obstacles=[wall("wall", 20, wall_y, 28, wall_y, cost=2)])
    g = move(scn, ("move", NORTH, D24), [("d6", 3)])  # 6 points - 2 for the wall = 4"
    assert g.units[0].y == pytest.approx(14.0)


def test_each_obstacle_crossed_costs():
    obstacles = [wall("fence", 20, 11.25, 28, 11.25, cost=1), wall("hedge", 20, 13.25, 28, 13.25, cost=3)]
    g = move(mover(obstacles=obstacles), ("move", NORTH, D24), [("d6", 6)])  # 12 - 1 - 3 = 8"
    assert g.units[0].y == pytest.approx(18.0)


def test_cannot_cross_an_obstacle_without_the_points():
    # 2 points: 1" of movement reaches the wall at 11.25? needs 0.5+... the wall (cost 3) is not affordable
    g = move(mover(obstacles=[wall("wall", 20, 11.25, 28, 11.25, cost=3)]), ("move", NORTH, D24), [("d6", 1)])
    assert g.units[0].y == pytest.approx(11.0)


def test_moving_along_a_wall_is_free():
    g = move(mover(obstacles=[wall("wall", 24, 0, 24, 48, cost=3)]), ("move", NORTH, D24), [("d6", 3)])
    assert g.units[0].y == pytest.approx(16.0)


# --- the 2" rule --------------------------------------------------------------------------------------------------
def test_cannot_end_within_two_inches_of_an_enemy():
    g = move(mover(enemy=(24, 20)), ("move", NORTH, D24), [("d6", 6)])
    assert g.units[0].y == pytest.approx(18.0)  # exactly 2" away is allowed


def test_two_inch_rule_measured_between_figures():
    scn = scenario([unit("M", (24, 10))], [unit("E", (24, 24), figures=ONE)])
    g = move(scn, ("move", NORTH, D24), [("d6", 6)])
    u, e = g.units[0], g.units[1]
    gap = min(math.hypot(x - e.x, y - e.y) for x, y in u.figure_positions())
    assert 2.0 <= gap < 2.5  # the front figures, not the leader, stop 2" short
    assert u.y < 22.0


def test_friendly_units_interpenetrate():
    scn = scenario([unit("M", (24, 10), figures=ONE), unit("F", (24, 14), figures=ONE)],
                   [unit("E", (5, 45), figures=ONE)])
    g = move(scn, ("move", NORTH, D24), [("d6", 6)])
    assert g.units[0].y == pytest.approx(22.0)


# --- prop -------------------------------------------------------------------------------------------------------
def test_prop_stops_movement_until_unpropped():
    g = begin(mover(), [("d6", 2)])
    g.units[0].x = 24.0
    activate(g, 0)
    assert ("prop",) in g.decision().options and ("unprop",) not in g.decision().options
    g.apply(("prop",))
    assert g.units[0].propped is True
    opts = g.decision().options
    assert "move" not in kinds(opts)
    assert ("unprop",) in opts and ("prop",) not in opts
    g.apply(("unprop",))
    assert g.units[0].propped is False
    assert [e["propped"] for e in events_of(g, "Propped")] == [True, False]


def test_propped_stays_propped_across_activations():
    scn = mover()
    scn["turn_limit"] = 2
    g = begin(scn, [("d8", 8), ("d8", 1)])
    activate(g, 0)
    g.apply(("prop",))
    g.apply(("end",))
    activate(g, 1)
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    assert g.units[0].propped is True
    assert "move" not in kinds(g.decision().options)


# --- concealment and cohesion on the move ------------------------------------------------------------------------
def test_moving_ends_complete_concealment():
    g = move(mover(terrain=[rect("light_scrub", 20, 0, 28, 48)]), ("reorganise", "conceal"), [("d6", 1)])
    assert g.units[0].complete_concealment is True
    g.apply(("move", NORTH, D24))
    assert g.units[0].complete_concealment is False
    assert last_event(g, "ConcealmentChanged")["complete"] is True


def test_disorganised_unit_may_only_move_and_reforms_when_it_moves():
    scn = scenario([unit("M", (24, 10))], [unit("E", (5, 45), figures=ONE)])
    g = begin(scn, [("d6", 1)])
    g.units[0].set_figure(4, dx=g.units[0].figures[4].dx + 8.0)  # straggler beyond 6" of the leader
    assert g.units[0].disorganised() is True
    activate(g, 0)
    assert kinds(g.decision().options) == {"end", "move"}
    g.apply(("move", NORTH, D24))
    u = g.units[0]
    assert u.disorganised() is False
    assert max(math.hypot(x - u.x, y - u.y) for x, y in u.figure_positions()) < 6.0


def test_disorganised_and_suppressed_unit_may_only_recover():
    g = begin(scenario([unit("M", (24, 10))], [unit("E", (5, 45), figures=ONE)]))
    g.units[0].set_figure(4, dx=g.units[0].figures[4].dx + 8.0)
    g.units[0].suppression = 1
    activate(g, 0)
    assert g.decision().options == (("end",), ("recover",))


# --- confidence restrictions on movement ---------------------------------------------------------------------------
def shaken_scn(**kw):
    return scenario([unit("M", (24, 10), figures=ONE, confidence="shaken", **kw)],
                    [unit("E", (24, 40), figures=ONE)],
                    terrain=[rect("light_woods", 20, 6, 28, 14)])


def test_shaken_unit_advancing_must_pass_a_leadership_test():
    g = move(shaken_scn(), ("move", NORTH, D6_), [("d8", 2)])  # fails: 2 is not higher than LV 2
    t = last_event(g, "LeadershipTested")
    assert (t["roll"], t["needed"], t["passed"]) == (2, 2, False)
    assert events_of(g, "Moved") == []
    assert (g.units[0].x, g.units[0].y) == (24.0, 10.0)
    assert g.actions_left == 1  # the action is spent
    assert g.dice.remaining == 0
    g = move(shaken_scn(), ("move", NORTH, D3), [("d8", 3), ("d6", 6)])  # passes, moves
    assert last_event(g, "LeadershipTested")["passed"] is True
    assert g.units[0].y == pytest.approx(13.0)


def test_shaken_unit_withdrawing_within_cover_needs_no_test():
    g = move(shaken_scn(), ("move", SOUTH, D3), [("d6", 1)])  # away from the enemy, staying in the woods
    assert events_of(g, "LeadershipTested") == []
    assert g.units[0].y == pytest.approx(9.0)


def test_shaken_unit_leaving_cover_must_test():
    g = move(shaken_scn(), ("move", SOUTH, D6_), [("d8", 1)])  # away from the enemy but out of the woods
    assert last_event(g, "LeadershipTested")["passed"] is False
    assert g.units[0].y == 10.0


def test_steady_unit_needs_no_test():
    scn = shaken_scn()
    scn["sides"][0]["units"][0]["confidence"] = "steady"
    g = move(scn, ("move", NORTH, D6_), [("d6", 3)])
    assert g.units[0].confidence == STEADY
    assert events_of(g, "LeadershipTested") == []
    assert g.units[0].y == pytest.approx(13.0)  # 6 points in woods


def test_broken_unit_in_the_open_must_withdraw():
    scn = scenario([unit("M", (24, 20), figures=ONE, confidence="broken")], [unit("E", (24, 40), figures=ONE)],
                   terrain=[rect("light_woods", 4, 2, 12, 10)])
    g = begin(scn, [("d6", 6)])
    activate(g, 0)
    assert g.decision().options == (("withdraw",),)
    g.apply(("withdraw",))
    m = last_event(g, "Moved")
    assert m["withdraw"] is True
    u = g.units[0]
    assert math.hypot(u.x - 24, u.y - 40) > 20.0  # away from the enemy
    assert math.hypot(u.x - 24, u.y - 20) == pytest.approx(12.0, abs=1e-6)  # a full 12" towards the woods
    assert u.x < 24 and u.y < 20


def test_broken_unit_in_cover_stays_in_cover_and_may_fire():
    scn = scenario([unit("M", (24, 10), figures=(("rifle", 5),), confidence="broken")],
                   [unit("E", (24, 30))], terrain=[rect("light_woods", 18, 4, 30, 14)])
    g = begin(scn)
    activate(g, 0)
    opts = g.decision().options
    assert g.units[0].confidence == BROKEN
    assert ("withdraw",) in opts
    assert ("shoot", 1, "all") in opts
    for o in opts:
        if o[0] == "move":
            px, py = nominated_point(g.units[0], o[1], o[2])
            assert g.bf.in_cover(px, py), o
    assert ("move", NORTH, D6_) not in opts  # (24, 16) is outside the woods


def test_routed_unit_only_withdraws_and_routs_off_its_home_edge():
    scn = scenario([unit("M", (24, 5), figures=ONE, confidence="routed"), unit("N", (40, 20), figures=ONE)],
                   [unit("E", (24, 40), figures=ONE)])
    g = begin(scn, [("d6", 2), ("d6", 1)])
    g.units[0].suppression = 2  # routed units ignore suppression
    activate(g, 0)
    assert g.decision().options == (("withdraw",),)
    g.apply(("withdraw",))
    assert g.units[0].y == pytest.approx(1.0)  # 4" toward the south edge
    assert g.units[0].routed_off is False
    assert g.decision().options == (("withdraw",),)
    g.apply(("withdraw",))
    u = g.units[0]
    assert u.y == pytest.approx(0.0)
    assert u.routed_off is True and u.in_play is False
    assert last_event(g, "RoutedOff")["unit"] == 0
    assert g.units[0].confidence == ROUTED
    assert g.current == 1  # the activation passed to the enemy
    assert ("activate", 0) not in g.decision().options


def test_broken_unit_moving_towards_the_enemy_inside_cover_must_test():
    # restrictions are cumulative (RN-016): broken units also take shaken's leadership test
    scn = shaken_scn()
    scn["sides"][0]["units"][0]["confidence"] = "broken"
    g = move(scn, ("move", NORTH, D3), [("d8", 1)])  # towards the enemy, staying in the woods
    t = last_event(g, "LeadershipTested")
    assert (t["roll"], t["needed"], t["passed"]) == (1, 2, False)
    assert (g.units[0].x, g.units[0].y) == (24.0, 10.0)


def test_a_forced_withdraw_ends_the_propped_state():
    scn = scenario([unit("M", (24, 20), figures=ONE, confidence="broken")], [unit("E", (24, 40), figures=ONE)],
                   terrain=[rect("light_woods", 4, 2, 12, 10)])
    g = begin(scn, [("d6", 6)])
    g.units[0].propped = True
    activate(g, 0)
    g.apply(("withdraw",))
    assert g.units[0].propped is False


def test_vectorised_move_options_equal_the_point_by_point_rule():
    """move_options (numpy over all 64 destinations) == on the table, passable in the unit's movement
    column (bf.move_cost is not None), in cover when broken, in (direction, distance) order."""
    import random as _random

    from dustup_env.rules import Game
    from dustup_env.rules.unit_actions.move_action import DIR_VECTORS, DISTANCES

    g = Game("default", seed=0)
    bf = g.bf
    u = g.units[0]
    rng = _random.Random(7)
    checked = 0
    for k in range(400):
        # random points, plus the table's edges and corners (destinations exactly on the edge)
        u.x = rng.choice([0.0, bf.width, rng.uniform(-1.0, bf.width + 1.0)])
        u.y = rng.choice([0.0, bf.height, rng.uniform(-1.0, bf.height + 1.0)])
        u.terrain_column = k % 5
        u.confidence = BROKEN if k % 3 == 0 else STEADY
        bf.move_option_cache.clear()
        got = move_options(g, u, False)
        want = []
        for d, (vx, vy) in enumerate(DIR_VECTORS):
            for j, dist in enumerate(DISTANCES):
                px, py = u.x + vx * dist, u.y + vy * dist
                if not bf.on_table(px, py) or bf.move_cost(px, py, u.terrain_column) is None:
                    continue
                if u.confidence == BROKEN and not bf.in_cover(px, py):
                    continue
                want.append(("move", d, j))
        assert got == want, (u.x, u.y, u.terrain_column, u.confidence)
        checked += len(want)
    assert checked > 1000


def _reference_move_path(bf, unit, px, py, points, enemy_figs, col):
    """move_path as first written (every step: bf.move_cost, bf.obstacle_crossing_cost, bf.on_table and
    _too_close over all the enemy figures): the optimised walk must end at exactly the same point."""
    from dustup_env.rules.kernel.entities import KILLED
    from dustup_env.rules.unit_actions.move_action import STEP, _too_close

    x0, y0 = unit.x, unit.y
    dx, dy = px - x0, py - y0
    dist = math.hypot(dx, dy)
    if dist < 1e-9 or points <= 0:
        return x0, y0
    ux, uy = dx / dist, dy / dist
    lf = unit.figures[unit.leader]
    offsets = [(f.dx - lf.dx, f.dy - lf.dy) for f in unit.figures if f.status != KILLED]
    spent = travelled = 0.0
    x, y = x0, y0
    while travelled < dist - 1e-9:
        seg = min(STEP, dist - travelled)
        nx, ny = x + ux * seg, y + uy * seg
        c = bf.move_cost(x + ux * seg * 0.5, y + uy * seg * 0.5, col)
        if c is None:
            break
        extra = bf.obstacle_crossing_cost(x, y, nx, ny) if bf.obstacles else 0.0
        need = seg * c + extra
        if spent + need > points + 1e-9:
            if extra == 0.0:
                part = (points - spent) / c
                if part > 1e-6:
                    qx, qy = x + ux * part, y + uy * part
                    if not _too_close(offsets, qx, qy, enemy_figs):
                        x, y = qx, qy
            break
        if not bf.on_table(nx, ny) or _too_close(offsets, nx, ny, enemy_figs):
            break
        x, y = nx, ny
        spent += need
        travelled += seg
    return x, y


def test_move_path_equals_the_step_by_step_reference():
    import random as _random

    from dustup_env.rules import Game
    from dustup_env.rules.unit_actions.move_action import move_path

    g = Game("default", seed=0)
    bf = g.bf
    rng = _random.Random(11)
    blocked = 0
    for k in range(600):
        u = g.units[k % 4]
        u.x, u.y = rng.uniform(0, bf.width), rng.uniform(0, bf.height)
        figs = [(rng.uniform(0, bf.width), rng.uniform(0, bf.height)) for _ in range(rng.randrange(0, 40))]
        figs += [(u.x + rng.uniform(-9, 9), u.y + rng.uniform(-9, 9)) for _ in range(rng.randrange(0, 6))]
        px, py = u.x + rng.uniform(-26, 26), u.y + rng.uniform(-26, 26)
        points, col = rng.uniform(0, 30), k % 5
        got = move_path(bf, u, px, py, points, figs, col)
        want = _reference_move_path(bf, u, px, py, points, figs, col)
        assert got == want, (k, got, want)
        blocked += math.hypot(want[0] - u.x, want[1] - u.y) < min(points, math.hypot(px - u.x, py - u.y)) - 1.0
    assert blocked > 50  # many walks stop early (terrain, obstacles, the table edge, enemy figures)
