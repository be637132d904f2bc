"""The scripted bots' smoke doctrine (agents/smoke.py, seed 000 L1896): a unit that must cross open ground under
enemy sight lays smoke first, decided from its side's knowledge only."""
import pytest

from conftest import activate, add_dice, begin, rect, scenario, unit

from dustup_env.agent_registry import make_agent
from dustup_env.rules.additional_rules import smoke


def _game(enemy=True, hidden=False, objective=(24.0, 40.0)):
    """Blue (pistols: nothing to shoot at 28") must cross open ground to the objective; Red watches from a wood's
    edge (or is far off in a corner)."""
    red = [unit("Red", (24, 34) if enemy else (2, 46), **({"hidden": True} if hidden else {}))]
    doc = scenario([unit("Blue", (24, 6), figures=(("pistol", 5),), smoke_grenades=True)], red,
                   terrain=[rect("light_woods", 20, 34, 28, 40), rect("light_woods", 0, 44, 4, 48)],
                   objectives=[{"name": "Hill", "position": list(objective), "vp": 1}])
    g = begin(doc)
    activate(g, 0)
    return g


@pytest.mark.parametrize("name", ["scripted", "hard"])
def test_a_unit_crossing_open_ground_under_enemy_sight_lays_smoke_first_then_moves(name):
    g = _game()
    bot = make_agent(name, seed=0)
    opt = bot.choose(g, g.decision())
    assert opt[0] == "lay_smoke"
    g.apply(opt)
    ((x, y, r),) = [(f["x"], f["y"], f["r"]) for f in g.terrain if f["kind"] == smoke.SMOKE]
    assert r == 3.0 and y > 6.0  # between the unit and the enemy
    nxt = bot.choose(g, g.decision())
    assert nxt[0] == "move"  # once a turn: then it crosses


def test_no_smoke_without_an_enemy_in_sight():
    g = _game(enemy=False)
    opt = make_agent("scripted", seed=0).choose(g, g.decision())
    assert opt[0] == "move"


def test_a_hidden_enemy_does_not_make_the_bot_lay_smoke():
    """The bot decides from its side's knowledge: an enemy hidden from it is not a watcher."""
    seen = _game(hidden=False)
    hidden = _game(hidden=True)
    assert make_agent("scripted", seed=0).choose(seen, seen.decision())[0] == "lay_smoke"
    assert make_agent("scripted", seed=0).choose(hidden, hidden.decision())[0] != "lay_smoke"  # (it looks for it)


@pytest.mark.parametrize("name", ["scripted", "medium", "hard"])
def test_no_smoke_with_the_activation_s_last_action_the_unit_moves(name):
    """The smoke goes before the move it screens: with one action left it would take the move's place (on
    ``night-raid`` a raiding squad that shot first laid smoke instead of moving, every turn, and never left its
    start line), so the unit moves."""
    g = _game()
    add_dice(g, 3)  # the first action's movement roll
    g.apply(("move", 0, 2))  # the first action: still in the open, still watched
    assert g.actions_left == 1
    d = g.decision()
    assert make_agent(name, seed=0).choose(g, d)[0] == "move"
    off = make_agent(name, seed=0)
    off.SMOKE_THEN_MOVE = False  # the rule off: it lays smoke and does not move
    assert off.choose(g, d)[0] == "lay_smoke"
