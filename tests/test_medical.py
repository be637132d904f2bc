"""Medical Treatment Action and Power Armour Troops as Casualties (seed 000), forced dice."""
import pytest

from conftest import activate, begin, events_of, last_event, scenario, unit
from dustup_env.rules import IllegalOptionError
from dustup_env.rules.kernel.entities import DISABLED, KILLED, OK, TREATED, WOUNDED


def wounded_game(blue_kw=None, extra_blue=(), dice=(), n_wounded=3):
    kw = {"figures": (("rifle", 6),)}
    kw.update(blue_kw or {})
    blue = unit("A", (10, 5), **kw)
    g = begin(scenario([blue, *extra_blue], [unit("R", (40, 45))]), list(dice))
    for i in range(1, 1 + n_wounded):
        g.units[0].set_figure(i, status=WOUNDED, wounds=1)
    return g


def test_unit_treats_its_own_wounded_with_a_d6():
    g = wounded_game(dice=[("d6", 2), ("d6", 5), ("d6", 6)])
    activate(g, 0)
    assert ("treat", 0) in g.decision().options
    g.apply(("treat", 0))
    assert [f.status for f in g.units[0].figures] == [OK, KILLED, TREATED, OK, OK, OK]
    e = last_event(g, "MedicalTreatment")
    assert (e["die"], e["rolls"], e["killed"], e["stabilised"], e["returned"]) == ("d6", [2, 5, 6], 1, 1, 1)
    assert g.units[0].n_untreated() == 0
    assert ("treat", 0) not in g.decision().options  # treated (stabilised) figures are not treated again
    assert g.dice.remaining == 0


@pytest.mark.parametrize("roll,status", [(1, KILLED), (2, KILLED), (3, TREATED), (5, TREATED), (6, OK), (8, OK)])
def test_unit_medic_rolls_a_d8(roll, status):
    blue = {"figures": [{"weapon": "rifle", "count": 5}, {"weapon": "pistol", "medic": True}]}
    g = wounded_game(blue_kw=blue, dice=[("d8", roll)], n_wounded=1)
    activate(g, 0)
    g.apply(("treat", 0))
    assert g.units[0].figures[1].status == status
    assert g.dice.remaining == 0


def test_a_wounded_medic_cannot_treat():
    blue = {"figures": [{"weapon": "rifle", "count": 5}, {"weapon": "pistol", "medic": True}]}
    g = wounded_game(blue_kw=blue, dice=[("d6", 6), ("d6", 4)], n_wounded=1)
    g.units[0].set_figure(5, status=WOUNDED)
    activate(g, 0)
    g.apply(("treat", 0))
    assert last_event(g, "MedicalTreatment")["die"] == "d6"


def test_medical_team_from_another_unit_within_two_inches_rolls_d10():
    team = unit("Medics", (11.5, 5), figures=(("pistol", 2),), medical_team=True)
    g = wounded_game(extra_blue=[team], dice=[("d10", 10), ("d10", 3), ("d10", 7)])
    activate(g, 1)
    assert ("treat", 0) in g.decision().options
    g.apply(("treat", 0))
    assert [f.status for f in g.units[0].figures[1:4]] == [OK, TREATED, OK]
    e = last_event(g, "MedicalTreatment")
    assert (e["unit"], e["target"], e["die"]) == (1, 0, "d10")
    assert g.dice.remaining == 0


def test_medic_from_another_unit_must_be_within_two_inches_of_the_leader():
    team = unit("Medics", (14, 5), figures=(("pistol", 1),), medical_team=True)
    g = wounded_game(extra_blue=[team])
    activate(g, 1)
    assert ("treat", 0) not in g.decision().options
    with pytest.raises(IllegalOptionError):
        g.apply(("treat", 0))


def test_ordinary_unit_cannot_treat_another_unit():
    other = unit("B", (11, 5), figures=(("rifle", 3),))
    g = wounded_game(extra_blue=[other])
    activate(g, 1)
    assert ("treat", 0) not in g.decision().options


def test_no_treatment_while_suppressed():
    g = wounded_game()
    g.units[0].suppression = 1
    activate(g, 0)
    assert ("treat", 0) not in g.decision().options


def test_treated_leader_resumes_command():
    team = unit("Medics", (11, 5), figures=(("pistol", 1),), medical_team=True)
    g = begin(scenario([unit("A", (10, 5), figures=(("rifle", 4),)), team], [unit("R", (40, 45))]),
              [("d10", 6)])
    a = g.units[0]
    a.set_figure(0, status=WOUNDED)
    a.leader_lost = True
    activate(g, 1)
    g.apply(("treat", 0))
    assert a.figures[0].status == OK and not a.leader_lost
    assert g.dice.remaining == 0


# --- power armour -----------------------------------------------------------------------------------------
def pa_shot(pa_roll, impact=("d8", 8), armour=("d10", 5), extraction=False, confidence_roll=None):
    """A (5 rifles + LMG) hits B (4 figures, light power armour) once: figure 1."""
    scn = scenario([unit("A", (24, 5), figures=(("rifle", 5), ("lmg", 1)))],
                   [unit("B", (24, 35), figures=(("rifle", 4),), armour="light_power")],
                   options={"power_armour_extraction": extraction}, commitment=("medium", "high"))
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d8", 1), ("d8", 8),  # 9/8: 1 hit, remainder roll fails
            ("d4", 2),  # figure 1
            impact, armour]
    if pa_roll is not None:
        dice.append(("d6", pa_roll))
    if confidence_roll is not None:
        dice.append(confidence_roll)
    g = begin(scn, dice)
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    return g


@pytest.mark.parametrize("roll,status,result,casualty", [
    (1, KILLED, "killed", True), (2, TREATED, "stabilised", True), (4, TREATED, "stabilised", True),
    (5, DISABLED, "disabled", False), (6, OK, "unhurt", False)])
def test_power_armour_casualty_table_replaces_a_wound(roll, status, result, casualty):
    # impact 8 > armour 5 (a wound, not more than double): the D6 table decides
    g = pa_shot(roll, confidence_roll=("d8", 8) if casualty else None)
    f = g.units[1].figures[1]
    assert f.status == status
    assert last_event(g, "PowerArmourHit") == {"type": "PowerArmourHit", "unit": 1, "figure": 1, "roll": roll,
                                               "result": result}
    assert last_event(g, "HitResolved")["effect"] == result
    assert bool(events_of(g, "ConfidenceTested")) == casualty  # high commitment: only casualties test
    assert g.dice.remaining == 0


def test_power_armour_kill_result_still_kills():
    g = pa_shot(None, impact=("d8", 8), armour=("d10", 3), confidence_roll=("d8", 8))  # 8 > 2 x 3: no D6
    assert g.units[1].figures[1].status == KILLED
    assert not events_of(g, "PowerArmourHit")
    assert g.dice.remaining == 0


def test_disabled_figures_do_not_fire_and_are_left_behind_when_moving():
    g = pa_shot(5)
    b = g.units[1]
    assert b.n_able() == 3
    g.apply(("end",))
    g.units[1].suppression = 0
    activate(g, 1)
    g.dice.results.extend([(None, 3)])
    g.apply(("move", 8, 1))  # south 6"
    assert len(b.figures) == 3 and b.left_behind and b.left_behind[0][2] == DISABLED
    assert last_event(g, "FiguresLeftBehind") == {"type": "FiguresLeftBehind", "unit": 1, "wounded": 0,
                                                  "disabled": 1}


def test_optional_extraction_of_the_occupant():
    g = pa_shot(5, extraction=True)
    g.apply(("end",))
    g.units[1].suppression = 0
    activate(g, 1)
    assert ("reorganise", "extract") in g.decision().options
    g.apply(("reorganise", "extract"))
    f = g.units[1].figures[1]
    assert f.status == OK and f.armour == "none"
    assert last_event(g, "OccupantExtracted")["figure"] == 1
    assert ("reorganise", "extract") not in g.decision().options


def test_extraction_is_off_by_default():
    g = pa_shot(5)
    g.apply(("end",))
    g.units[1].suppression = 0
    activate(g, 1)
    assert ("reorganise", "extract") not in g.decision().options


def test_extracted_occupant_uses_its_own_armour():
    g = pa_shot(5, extraction=True)
    g.apply(("end",))
    g.units[1].suppression = 0
    activate(g, 1)
    g.apply(("reorganise", "extract"))
    # no armour: a D4 is rolled and any non-kill result wounds (no power-armour table)
    from dustup_env.rules.kernel.data import armoury
    assert armoury()[1][g.units[1].figures[1].armour].no_armour
