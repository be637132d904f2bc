"""``hard``'s doctrine where fire support is in play (agents/hard.py, agents/fire_support.py): the crew of an on-table
piece stays with it (left out of the objective assignment, and the one promoted when the HQ loses its commander),
a forward observer's HQ goes forward instead of hiding, and fire is called on known enemies holding an objective
that the requestor does not see (defenders in a building); ``medium`` keeps the seen-only rule.  Games without fire
support play as before (the switches read the side's fire support first)."""
from __future__ import annotations

import pytest

from conftest import activate, begin, rect, scenario, unit
from dustup_env.agent_registry import make_agent
from dustup_env.rules.kernel.decisions import Decision
from agents.knowledge import Knowledge


def _fire_support_game(terrain=(), red_at=(24, 40), objectives=None, dice=()):
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"), unit("Squad", (10, 8)),
                    unit("Mortar", (30, 3), figures=(("rifle", 3),), heavy_weapon="towed_field_gun")],
                   [unit("Red", red_at)], terrain=list(terrain))
    if objectives is not None:
        scn["objectives"] = objectives
    scn["sides"][0]["fire_support"] = [{"name": "Guns", "firer": "on_table", "unit": "Mortar", "missions": 1},
                                       {"name": "Battery", "firer": "battalion", "size": "large", "rounds": 3,
                                        "missions": 2}]
    return begin(scn, dice)


def test_the_crew_of_an_on_table_piece_is_promoted_and_left_out_of_the_objective_assignment():
    g = _fire_support_game(objectives=[{"name": "Hill", "position": [24, 40], "vp": 1},
                                       {"name": "Wood", "position": [8, 40], "vp": 1}])
    bot = make_agent("hard", seed=0)
    d = Decision(0, "promote", 0, (("choose", 1), ("choose", 2), ("decline",)))
    assert bot.choose(g, d) == ("choose", 2)  # the mortar's crew, not the squad
    k = Knowledge(g, 0)
    bot._setup(k)
    assert 2 not in bot._assign and 1 in bot._assign


def test_without_fire_support_the_healthiest_subordinate_is_promoted_as_before():
    scn = scenario([unit("HQ", (24, 5), leadership=1), unit("Squad", (10, 8)),
                    unit("Small", (30, 3), figures=(("rifle", 3),))], [unit("Red", (24, 40))])
    g = begin(scn)
    d = Decision(0, "promote", 0, (("choose", 1), ("choose", 2), ("decline",)))
    assert make_agent("hard", seed=0).choose(g, d) == ("choose", 1)


def test_a_forward_observers_hq_goes_forward_instead_of_hiding():
    g = _fire_support_game()
    bot = make_agent("hard", seed=0)
    k = Knowledge(g, 0)
    assert bot._forward_observer(k, g.units[0])
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"), unit("Squad", (10, 8))],
                   [unit("Red", (24, 40))])
    g2 = begin(scn)  # no fire support: the HQ hides as before
    assert not bot._forward_observer(Knowledge(g2, 0), g2.units[0])


@pytest.mark.parametrize("name, calls", [("hard", True), ("medium", False)])
def test_fire_on_an_unseen_enemy_holding_an_objective_is_hards(name, calls):
    # Red holds the objective inside a building the HQ cannot see into
    g = _fire_support_game(terrain=[rect("building", 20, 36, 28, 44)], red_at=(24, 40),
                           objectives=[{"name": "House", "position": [24, 40], "vp": 2}], dice=[("d8", 8)])
    assert not g.bf.has_los(24, 5, 24, 40)
    activate(g, 0)
    o = make_agent(name, seed=0).choose(g, g.decision())
    assert (o[0] == "request_fire") is calls


def test_with_fire_support_hard_values_positions_that_see_the_defenders_of_an_objective():
    # Red holds the objective 1.5" inside the south wall of a house: seen from the south, not through the house
    g = _fire_support_game(terrain=[rect("building", 20, 36, 28, 44)], red_at=(24, 37.5),
                           objectives=[{"name": "House", "position": [24, 38], "vp": 2}])
    bot = make_agent("hard", seed=0)
    k = Knowledge(g, 0)
    holders = bot._sight_targets(k)
    assert [e.uid for e in holders] == [3]
    assert g.bf.has_los(24.0, 20.0, 24.0, 37.5) and not g.bf.has_los(24.0, 47.0, 24.0, 37.5)
    assert bot._sight_bonus(k, 24.0, 20.0, holders) == bot.W_SIGHT > 0
    assert bot._sight_bonus(k, 24.0, 47.0, holders) == 0.0
    assert bot._sight_bonus(k, 24.0, 5.0, holders) == 0.0  # farther than the sight range
    scn = scenario([unit("HQ", (24, 5), leadership=1), unit("Squad", (10, 8))], [unit("Red", (24, 37.5))])
    scn["objectives"] = [{"name": "House", "position": [24, 38], "vp": 2}]
    g2 = begin(scn)  # no fire support: no such term (default and the other scenarios play as before)
    assert bot._sight_targets(Knowledge(g2, 0)) == []


def _holder_and_open_game():
    # Red 1 holds a 2-point objective deep in a house (no line of sight reaches it), Red 2 stands in the open
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"), unit("Squad", (10, 8)),
                    unit("Mortar", (30, 3), figures=(("rifle", 3),), heavy_weapon="towed_field_gun")],
                   [unit("Red 1", (24, 40)), unit("Red 2", (40, 30))],
                   terrain=[rect("building", 20, 36, 28, 44)],
                   objectives=[{"name": "House", "position": [24, 40], "vp": 2}])
    scn["sides"][0]["fire_support"] = [{"name": "Battery", "firer": "battalion", "size": "large", "rounds": 3,
                                        "missions": 2}]
    return begin(scn)


def test_hard_weights_the_fire_on_defenders_of_an_objective_that_no_own_unit_sees():
    g = _holder_and_open_game()
    k = Knowledge(g, 0)
    hard, medium = make_agent("hard", seed=0), make_agent("medium", seed=0)
    holder, open_ = g.units[3], g.units[4]
    assert not any(g.bf.has_los(u.x, u.y, holder.x, holder.y) for u in g.units[:3])
    assert hard._fs_weight(k, holder) == 1.0 + hard.FS_OUT_OF_SIGHT * 2 > 1.0
    assert hard._fs_weight(k, open_) == 1.0  # in the open, seen: the squads' rifles reach it
    assert medium._fs_weight(k, holder) == 1.0
    # the real marker: on the house for hard (its figures count thrice), on the unit in the open for medium
    d = Decision(0, "fire_target", 0, (("fire_target", 24.0, 37.0), ("fire_target", 40.0, 27.0)))
    assert hard._fs_place(k, d) == ("fire_target", 24.0, 37.0)
    assert medium._fs_place(k, d) == ("fire_target", 40.0, 27.0)


def test_with_fire_support_hard_assaults_a_beaten_enemy_and_without_it_does_not():
    def game(with_fs):
        scn = scenario([unit("HQ", (4, 4), leadership=1), unit("Squad", (24, 20), figures=(("rifle", 8),))],
                       [unit("Red", (24, 26), figures=(("rifle", 2),))])
        if with_fs:
            scn["sides"][0]["fire_support"] = [{"name": "Battery", "firer": "battalion", "missions": 1}]
        g = begin(scn)
        activate(g, 1)
        return g
    for with_fs in (True, False):
        g = game(with_fs)
        d = g.decision()
        assert ("assault", 2) in d.options  # outnumbered 4:1 in the open, in reach and in sight
        k = Knowledge(g, 0)
        o = make_agent("hard", seed=0)._choose_action(k, d)
        assert (o == ("assault", 2)) is with_fs


def test_a_holder_takes_the_formation_that_leaves_an_enemy_leader_least_room_by_its_objective():
    # fire-support: Red's 3rd Squad on the Ridge, Blue's units 34" away; ground within 3" of the objective and 2" from
    # every Red figure is where a Blue leader could be reorganised to contest it (agents/contest.py)
    from dustup_env.rules import Game
    g = Game("fire-support", seed=1)
    k = Knowledge(g, 1)
    ridge, squad = 2, 8
    _, ox, oy, _ = k.objectives[ridge]
    default = make_agent("hard", seed=0)
    hard = type("HardDenyAnywhere", (type(default),), {"DENY_COVER": False})(seed=0)  # any holder denies
    u = k.units[squad]
    room = {f: hard._room_points(k, ox, oy, hard._own_figs(k, skip=squad) + hard._formation_figs(k, u, f), False)
            for f in ("keep", "compact", "line", "open", "file")}
    assert room["keep"] > 0 and min(room.values()) < room["keep"]
    act = Decision(1, "action", squad, (("reorganise", "place"), ("prop",), ("end",)))
    assert hard.choose(g, act) == ("reorganise", "place")
    assert hard.choose(g, Decision(1, "place_leader", squad, (("stay",), ("shift", 0), ("shift", 4)))) == ("stay",)
    forms = tuple(("formation", f) for f in ("keep", "compact", "line", "open", "file"))
    o = hard.choose(g, Decision(1, "place_formation", squad, forms))
    assert room[o[1]] == min(room.values())
    off = type("HardNoDeny", (type(hard),), {"DENY": False})(seed=0)
    assert off.choose(g, act) != ("reorganise", "place")
    # hard as shipped denies only from cover (DENY_COVER): this squad's leader stands in the open on the ridge
    assert not k.bf.in_cover(u.x, u.y) and default.choose(g, act) != ("reorganise", "place")
    assert make_agent("medium", seed=0).choose(g, act) != ("reorganise", "place")
