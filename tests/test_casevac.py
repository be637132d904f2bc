"""Casualty Evacuation: a detachment carries its wounded off its home edge; the victory bonus (RN-168, RN-357)."""
import pytest

from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, unit
from dustup_env.rules import Game, ScenarioError
from dustup_env.rules.kernel.entities import TREATED, WOUNDED


def care_detachment(y=3.0, options=None, dice=(), terrain=()):
    """Blue squad A (uid 0) with two treated wounded detaches a half detachment (uid 2) that takes them;
    the parent activates it (within 6": no roll).  Red R (uid 1) is far away."""
    scn = scenario([unit("A", (24, y), figures=(("rifle", 6),))], [unit("R", (24, 45))], terrain=terrain)
    g = begin(scn, list(dice), options=options)
    for i in (2, 3):
        g.units[0].set_figure(i, status=TREATED)
    activate(g, 0)
    g.apply(("detach", "half"))
    d = g.units[2]
    assert d.parent == 0 and sorted(f.status for f in d.figures).count(TREATED) == 2
    g.apply(("activate_detachment", 2))
    assert g.active == 2
    return g


def test_detachment_carries_its_wounded_off_the_home_edge():
    g = care_detachment(options={"casevac_vp": 2})
    assert ("evacuate",) in g.decision().options
    add_dice(g, ("d4", 4))  # encumbered (carrying wounded): D4; 8" towards the south edge
    g.apply(("evacuate",))
    d = g.units[2]
    assert last_event(g, "Moved")["roll"] == 4
    assert last_event(g, "Evacuated") == {"type": "Evacuated", "unit": 2, "wounded": 2}
    assert d.evacuated and not d.in_play and d.y == pytest.approx(0.0)
    assert g.victory_points() == (4, 0)  # 2 VP per wounded carried off; the enemy scores nothing for it
    assert g.active == -1 or g.active != 2  # its activation ended with it leaving the table
    assert g.dice.remaining == 0


def test_without_the_option_evacuation_scores_nothing_for_either_side():
    g = care_detachment()
    add_dice(g, ("d4", 4))
    g.apply(("evacuate",))
    assert g.units[2].evacuated and g.victory_points() == (0, 0)


def test_falling_short_of_the_edge_is_just_a_move():
    g = care_detachment(y=12.0)
    add_dice(g, ("d4", 2))  # 4" of the 12" to the edge
    start = g.units[2].y
    g.apply(("evacuate",))
    d = g.units[2]
    assert d.y == pytest.approx(start - 4.0) and d.in_play and not d.evacuated
    assert not events_of(g, "Evacuated")


def test_evacuate_is_offered_only_to_a_detachment_carrying_wounded():
    scn = scenario([unit("A", (24, 3), figures=(("rifle", 6),))], [unit("R", (24, 45))])
    g = begin(scn)
    g.units[0].set_figure(2, status=WOUNDED)
    activate(g, 0)
    assert ("evacuate",) not in g.decision().options  # a squad is not a care detachment
    g.apply(("detach", "scout"))  # the scouts take no wounded
    g.apply(("activate_detachment", 2))
    assert ("evacuate",) not in g.decision().options
    g2 = care_detachment()
    g2.units[2].suppression = 1
    assert ("evacuate",) not in g2.decision().options  # suppressed units may not move


@pytest.mark.parametrize("roll,gone", [(1, False), (3, True)])
def test_a_shaken_detachment_leaving_cover_tests_leadership(roll, gone):
    g = care_detachment(y=3.0, terrain=[rect("light_woods", 10, 1.0, 40, 8)])
    d = g.units[2]
    d.confidence = 2  # shaken: leaving cover needs a leadership test (Q D8 must beat LV 2)
    add_dice(g, ("d8", roll), *([("d4", 4)] if gone else []))
    start = (d.x, d.y)
    g.apply(("evacuate",))
    assert last_event(g, "LeadershipTested")["passed"] is gone
    assert d.evacuated is gone and ((d.x, d.y) == start) is not gone
    assert g.dice.remaining == 0


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2"])
def test_bad_casevac_vp(bad):
    with pytest.raises(ScenarioError, match="casevac_vp"):
        Game(scenario([unit("A", (5, 5))], [unit("B", (40, 40))]), options={"casevac_vp": bad})
