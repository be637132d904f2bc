"""Cavalry (seed 000 "Unit Types › Cavalry"), forced dice."""
from conftest import activate, begin, last_event, scenario, unit
from dustup_env.rules.kernel.actions import action_options
from dustup_env.rules.kernel.entities import TREATED


def cav_game(dice=(), **kw):
    cav = unit("Horse", (10, 5), figures=(("rifle", 6),), movement="cavalry", **kw)
    return begin(scenario([cav], [unit("R", (40, 45))]), list(dice))


def test_cavalry_moves_d10_x2_and_may_not_prop():
    g = cav_game(dice=[("d10", 9)])
    activate(g, 0)
    opts = g.decision().options
    assert ("prop",) not in opts and ("reorganise", "dismount") in opts
    g.apply(("move", 0, 3))  # 24" north
    m = last_event(g, "Moved")
    assert (m["roll"], m["points"], m["end"]) == (9, 18.0, [10.0, 23.0])
    assert g.dice.remaining == 0


def test_dismount_moves_as_infantry_and_still_may_not_prop():
    g = cav_game(dice=[("d6", 6)])
    activate(g, 0)
    g.apply(("reorganise", "dismount"))
    a = g.units[0]
    assert not a.mounted and last_event(g, "Mounted")["mounted"] is False
    opts = g.decision().options
    assert ("prop",) not in opts  # the mounts are still with the unit
    assert ("reorganise", "mount") in opts
    g.apply(("move", 0, 2))
    assert last_event(g, "Moved")["roll"] == 6
    assert g.dice.remaining == 0


def test_dismounted_cavalry_may_prop_once_the_mounts_are_detached():
    g = cav_game()
    activate(g, 0)
    g.apply(("reorganise", "dismount"))
    g.apply(("detach", "scout"))  # the horse holders
    a, d = g.units[0], g.units[2]
    assert a.mounts_detached and d.cavalry and d.mounted
    opts = action_options(g, a)  # A's options (its activation has ended; the rules are the same)
    assert ("prop",) in opts and ("reorganise", "mount") not in opts


def test_mounts_back_after_the_horse_holders_rejoin():
    g = cav_game()
    activate(g, 0)
    g.apply(("reorganise", "dismount"))
    g.apply(("detach", "scout"))
    a = g.units[0]
    a.activated = False
    g.stack.clear()
    g.start_activation(a)
    g.apply(("regroup", 2))
    assert not a.mounts_detached and ("reorganise", "mount") in g.decision().options
    g.apply(("reorganise", "mount"))
    assert a.mounted


def test_mounted_cavalry_carrying_wounded_is_encumbered():
    g = cav_game(dice=[("d8", 8)])
    g.units[0].set_figure(2, status=TREATED)
    activate(g, 0)
    g.apply(("move", 0, 3))
    assert last_event(g, "Moved")["roll"] == 8
    assert g.dice.remaining == 0


def test_cavalry_may_start_dismounted():
    g = cav_game(mounted=False)
    assert g.units[0].cavalry and not g.units[0].mounted
