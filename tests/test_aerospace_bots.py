"""The scripted bots' aerospace doctrine (agents/aerospace.py): pilots continue through the ADE and evade
anti-aircraft fire, anti-aircraft units fire at aircraft in reach, a loaded transport flies to a landing zone clear of
the known enemy and lands, the troops dismount from a grounded aircraft, a strike aircraft bombs figures in the open
and never its own troops; the bots play `air-assault` without a fallback; the doctrine reads only its side's
knowledge (a landing zone's test sees known units, never hidden ones)."""
import math

import pytest
from aerospace_helpers import aa_team, air_scenario, aircraft
from conftest import activate, add_dice, begin, unit

from agents import make_agent
from agents.knowledge import Knowledge
from dustup_env.rules import Game
from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.kernel.decisions import Decision

A, SQUAD, AA = 1, 2, 3  # the dropship, the squad aboard, Red's air-defence team


def _hard():
    return make_agent("hard")


def test_the_pilot_continues_through_the_ade_and_evades_anti_aircraft_fire():
    g = Game("air-assault", seed=1)
    bot = _hard()
    abort = Decision(0, "air_abort", 3, (("air_pilot", "abort"), ("air_pilot", "continue")))
    assert bot.choose(g, abort) == ("air_pilot", "continue")  # aborting loses it as surely as being shot down
    pilot = Decision(0, "air_pilot", 3, (("air_pilot", "abort"), ("air_pilot", "evade"), ("air_pilot", "continue")))
    assert bot.choose(g, pilot) == ("air_pilot", "evade")


def test_an_anti_aircraft_unit_fires_at_an_aircraft_flying_in_its_reach():
    g = begin(air_scenario([aircraft("Dropship", (22, 3), air="airborne", facing=0)], red=[aa_team("AA", (22, 45))],
                           passengers=True))
    activate(g, A)
    g.apply(("air_fly", 22.0, 39.0))
    d = g.decision()
    assert d.kind == "anti_aircraft" and d.side == 1
    assert _hard().choose(g, d) == ("aa_fire",)


def test_a_loaded_transport_flies_to_a_landing_zone_clear_of_the_known_enemy_and_lands():
    red = [unit("Red squad", (24, 40), figures=(("rifle", 5),))]
    g = begin(air_scenario([aircraft("Dropship", (22, 3), air="airborne", facing=0)], red=red, passengers=True))
    bot = _hard()
    activate(g, A)
    d = g.decision()
    o = bot.choose(g, d)
    assert o[0] == "air_fly"
    # clear of every known enemy figure by the stand-off, and a landing zone the rules allow
    near = min(math.hypot(o[1] - x, o[2] - y) for x, y in g.units[3].figure_positions())
    assert near >= bot.LZ_STANDOFF - 1e-9
    assert Knowledge(g, 0).landing_zone(A, o[1], o[2]) != "heavy"
    g.apply(o)
    while g.decision().kind == "anti_aircraft":
        g.apply(("aa_hold",))
    d = g.decision()
    assert d.unit == A and bot.choose(g, d) == ("air_land",)
    g.apply(("air_land",))
    assert air.air_state(g, g.units[A])["mode"] == "grounded"


def test_the_troops_dismount_from_a_grounded_aircraft():
    g = begin(air_scenario([aircraft("Dropship", (22, 20), air="grounded", facing=0)], passengers=True))
    activate(g, SQUAD)
    d = g.decision()
    o = _hard().choose(g, d)
    assert o[0] == "dismount"


def test_a_strike_aircraft_bombs_figures_in_the_open_and_never_its_own_troops():
    red = [unit("Red squad", (24, 31), figures=(("rifle", 5),))]
    fighter = aircraft("Fighter", (24, 3), design="aerospace_fighter", air="airborne", facing=0)
    g = begin(air_scenario([fighter], red=red))
    activate(g, A)
    bot = _hard()
    o = bot.choose(g, g.decision())
    assert o[0] == "air_fly"
    g.apply(o)
    d = g.decision()
    assert bot.choose(g, d) == ("air_bomb", "one")  # the squad is 1-6" straight ahead: in the burst
    # the same run with an own squad beside the enemy: no bomb there
    blue = [unit("Blue squad", (26, 33), figures=(("rifle", 5),))]
    g = begin(air_scenario([fighter], red=red, blue=blue))
    activate(g, A)
    o = bot.choose(g, g.decision())
    if o[0] == "air_fly":
        g.apply(o)
        assert bot.choose(g, g.decision()) != ("air_bomb", "one")


def test_the_landing_zone_test_sees_known_units_never_hidden_ones():
    red = [unit("Red squad", (30, 20), figures=(("rifle", 5),))]
    g = begin(air_scenario([aircraft("Dropship", (22, 3), air="airborne", facing=0)], red=red, passengers=True))
    k = Knowledge(g, 0)
    assert k.landing_zone(A, 30.0, 20.0) == "heavy"  # a known figure in the zone
    assert k.landing_zone(A, 30.0, 35.0) == "clear"
    g.units[3].hidden = True  # the same unit hidden: the side knows only its marker (none here), not the unit
    assert Knowledge(g, 0).landing_zone(A, 30.0, 20.0) == "clear"


@pytest.mark.parametrize("bots", [("hard", "random"), ("random", "hard"), ("medium", "defensive"),
                                  ("scripted", "hard")])
def test_the_aerospace_doctrines_play_air_assault_without_a_fallback(bots):
    from evaluation.simulate import play_game
    agents = [make_agent(b) for b in bots]
    g = play_game("air-assault", agents, seed=3)
    assert g.over
    assert [getattr(a, "fallbacks", 0) for a in agents] == [0, 0]


def test_hard_lands_its_squads_on_air_assault():
    from evaluation.simulate import play_game
    g = play_game("air-assault", [make_agent("hard"), make_agent("random")], seed=1)
    landed = [e for e in g.event_log() if e["type"] == "AircraftLanded"]
    assert landed
    squads = [u for u in g.units if u.side == 0 and u.name.startswith("Squad")]
    for u in squads:  # every squad got out of its aircraft, unless the aircraft was brought down with it aboard
        assert u.veh.carrier < 0 or air.air_state(g, g.units[u.veh.carrier])["mode"] == "destroyed"


def test_the_flight_piece_shows_each_side_its_aircraft_and_the_enemy_aircraft_without_their_loads():
    from dustup_env.observation import Observer
    from dustup_env.rules.aerospace_operations.flight_observation import FLIGHT_FEATURES
    fighter = aircraft("Fighter", (24, 3), design="aerospace_fighter", air="airborne", facing=0)
    g = begin(air_scenario([fighter, aircraft("Dropship", (10, 3), air="loiter")], red=[aa_team("AA", (22, 45))]))
    f = {n: i for i, n in enumerate(FLIGHT_FEATURES)}
    ob = Observer.for_game(g)
    ob.set_from(g, 0)
    own = ob.dict["flight"]
    assert own[1, f["aircraft"]] == 1 and own[1, f["airborne"]] == 1 and own[1, f["vtol"]] == 0
    assert own[1, f["bombs"]] == 0.25  # one dead-fall load
    assert own[2, f["loiter"]] == 1 and own[2, f["vtol"]] == 1 and own[0].sum() == 0  # the HQ: no row
    ob.set_from(g, 1)
    theirs = ob.dict["flight"][ob.slots:]
    assert theirs[1, f["airborne"]] == 1 and theirs[1, f["bombs"]] == 0  # the enemy's loads are not shown
    activate(g, 1)
    g.apply(("air_fly", 22.0, 39.0))
    assert g.decision().kind == "anti_aircraft"
    add_dice(g, 1, 5)  # the guidance D8 rolls 1 against the ECM's 5: not acquired
    g.apply(("aa_fire",))
    ob.set_from(g, 1)
    assert ob.dict["flight"][0, f["aa_fired"]] == 1  # the AA team (Red's slot 0) fired at aircraft this turn


def test_an_anti_aircraft_team_holds_its_post_with_its_weapon_set_up():
    from evaluation.simulate import play_game
    g0 = Game("air-assault", seed=2)
    aa = next(u for u in g0.units if u.name == "AA team")
    start = (aa.x, aa.y)
    g = play_game("air-assault", [make_agent("random"), make_agent("hard")], seed=2)
    u = g.units[aa.uid]
    assert not u.in_play or math.hypot(u.x - start[0], u.y - start[1]) < 0.5  # it never walked off
    assert any(e["type"] == "AntiAircraftFire" and e["unit"] == aa.uid for e in g.event_log())
