"""The bots' mines doctrine (agents/mines.py), from the side's knowledge only: a known minefield is avoided, an
unknown one is not (the bot cannot know it), the line charge and the lane are used when the way to the goal crosses
a known field, and a command-detonated mine is fired when the enemy is in its arc."""
from __future__ import annotations

from conftest import activate, begin, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.agent_registry import make_agent
from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
from dustup_env.rules.unit_actions.move_action import nominated_point
from agents.knowledge import Knowledge
from agents.mines import _seg_dist


def _game(blue, mines, red=None, objectives=((24, 40),)):
    scn = scenario(blue, red or [unit("B", (5, 45), figures=(("rifle", 3),))],
                   objectives=[{"name": f"O{i}", "position": list(p), "vp": 1} for i, p in enumerate(objectives)])
    scn["sides"][1]["mines"] = list(mines)
    return begin(scn, [6] * 40)


def _crosses(g, opt, e):
    u = g.units[0]
    px, py = nominated_point(u, opt[1], opt[2])
    return _seg_dist(e["x"], e["y"], u.x, u.y, px, py) < mf.FIELD_RADIUS + 1.0


def test_the_bots_keep_out_of_a_known_minefield_and_only_a_known_one():
    for name in ("scripted", "hard"):
        g = _game([unit("A", (24, 12), figures=(("rifle", 2),))], [{"type": "ap", "position": [24, 20]}])
        activate(g, 0)
        bot = make_agent(name, seed=1)
        e = g.entities[0]
        d = g.decision()
        crossing = [o for o in d.options if o[0] == "move" and _crosses(g, o, e)]
        assert crossing  # the straight way north crosses the field
        assert bot._mines_decide(Knowledge(g, 0), d) == (None, d)  # a field the side has not found is not there
        mf.found(g, 0)
        kept = bot._mines_decide(Knowledge(g, 0), g.decision())[1].options
        assert not [o for o in kept if o[0] == "move" and _crosses(g, o, e)] and len(kept) < len(d.options)
        opt = bot.choose(g, g.decision())
        assert not (opt[0] == "move" and _crosses(g, opt, e)), (name, opt)
        assert bot.fallbacks == 0


def test_a_vehicle_with_a_line_charge_fires_it_at_a_known_field_on_its_way():
    g = _game([vehicle("E", (24, 15), "ifv_tracked", facing=0, mine_clearing="line_charge")],
              [{"type": "mixed", "position": [24, 20]}])
    mf.found(g, 0)
    activate(g, 0)
    assert make_agent("hard", seed=1).choose(g, g.decision()) == ("line_charge", 0)


BELT = [{"type": "ap", "position": [x, 20]} for x in (3, 9, 15, 21, 27, 33, 39, 45)]  # across the whole table


def test_infantry_clear_a_lane_through_a_known_belt_of_fields_they_cannot_go_round():
    for name in ("scripted", "medium", "hard"):
        g = _game([unit("A", (24, 15.5), figures=(("rifle", 5),))], BELT)
        for e in g.entities:
            mf.found(g, e["id"])
        activate(g, 0)
        opt = make_agent(name, seed=1).choose(g, g.decision())
        assert opt[0] == "clear_lane" and g.entities[opt[1]]["x"] in (21, 27), (name, opt)  # the fields in its way


def test_infantry_go_round_a_known_field_rather_than_clear_a_lane_through_it():
    for name in ("scripted", "medium", "hard"):
        g = _game([unit("A", (24, 15.5), figures=(("rifle", 5),))], [{"type": "ap", "position": [24, 20]}])
        mf.found(g, 0)
        activate(g, 0)
        bot = make_agent(name, seed=1)
        d = g.decision()
        assert ("clear_lane", 0) in d.options
        mine, kept = bot._mines_decide(Knowledge(g, 0), d)
        assert mine is None  # a move round the field gets it nearer its objective: no lane (no detachment)
        assert not [o for o in kept.options if o[0] == "move" and _crosses(g, o, g.entities[0])]
        opt = bot.choose(g, d)
        assert opt != ("clear_lane", 0) and not (opt[0] == "move" and _crosses(g, opt, g.entities[0])), (name, opt)
        assert bot.fallbacks == 0


def test_the_owner_fires_a_command_detonated_mine_at_the_enemy_in_its_arc():
    red = [unit("W", (34, 26), figures=(("rifle", 3),))]
    g = _game([unit("A", (24, 12), figures=(("rifle", 1),))],
              [{"type": "cdm", "position": [24, 26], "toward": [24, 16]}], red=red)
    activate(g, 0)
    g.apply(("move", 0, 2))
    assert g.decision().kind == "cdm"
    assert make_agent("hard", seed=1).choose(g, g.decision()) == ("cdm_fire",)


def test_the_search_bots_root_holds_no_counter_the_side_has_not_found():
    """agents/mcts.py plays its playouts on a copy holding only what the side may know: the enemy's hidden counters
    are not on it (they would otherwise show in the playouts' mine tests)."""
    from dustup_env.rules import Game
    from agents.mcts import search_root

    g = Game("breach", seed=0)
    mf.found(g, 0)
    root = search_root(g, 0, seed=1)
    assert [e["id"] for e in root.entities if not e["removed"]] == [0]
    assert len([e for e in search_root(g, 1, seed=1).entities if not e["removed"]]) == len(g.entities)
    assert not any(e["removed"] for e in g.entities)  # the game itself is untouched
