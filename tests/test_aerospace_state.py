"""Aerospace Operations' rule state as components (kernel/state.py ``Component``): the aircraft's flight state, the
ADE dice and the activations taken (air.py ``AirState``), the units waiting to be inserted that held
(insertion.py ``InsertionState``); saved under their own field names, copied by ``clone()`` and reloaded."""
import json

from aerospace_helpers import air_scenario, aircraft
from conftest import begin, scenario, unit

from dustup_env.rules import Game
from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.aerospace_operations.insertion import InsertionState, waiting
from dustup_env.rules.kernel import saves

A = 1  # the aircraft (uid 1; the HQ is uid 0)


def seeded(doc, wanted, seed=1):
    """A seeded game (one that saves) played by the first option until ``wanted`` is offered, then ``wanted``."""
    g = Game(doc, seed=seed)
    for _ in range(50):
        opts = g.decision().options
        if wanted in opts:
            g.apply(wanted)
            return g
        g.apply(opts[0])
    raise AssertionError(f"{wanted} never offered")


def test_air_state_is_a_component_saved_under_its_own_names():
    g = begin(air_scenario([aircraft("Dropship", (20, 2), air="inbound", facing=0)], ade=("d6", "d8")))  # die steps: D6, D8
    st = g.components[air.AirState]
    assert st.air_ade == [1, 2] and st.air_craft == {str(A): {"mode": "off", "flown": False, "heavy": False}}
    assert air.air_state(g, g.units[A])["mode"] == "off" and air.air_state(g, g.units[0]) is None
    g.apply(("air_arrive", A, "hold"))
    assert st.air_acted == [A] and not air.off_table(g, 0)
    extra = saves.state(g, strict=False)["extra"]
    assert {"air_ade", "air_craft", "air_acted", "air_aa_fired"} <= set(extra) and "aerospace" not in extra
    assert extra["air_acted"] == [A]


def test_air_state_clones_and_reloads_independently():
    g = seeded(air_scenario([aircraft("Dropship", (20, 2), air="inbound", facing=0)]), ("air_arrive", A, "hold"))
    c = g.clone()
    air.air_state(c, c.units[A])["mode"] = "destroyed"
    c.components[air.AirState].air_acted.append(99)
    assert air.air_state(g, g.units[A])["mode"] == "off" and g.components[air.AirState].air_acted == [A]
    for h in (Game.from_snapshot(json.loads(json.dumps(g.snapshot()))),
              Game.from_dict(json.loads(json.dumps(g.to_dict())))):
        assert h.components[air.AirState] == g.components[air.AirState]
        assert h.state_digest() == g.state_digest()


def test_a_game_without_aircraft_has_no_air_state():
    g = begin(scenario([unit("HQ", (2, 2), figures=(("rifle", 3),))], [unit("Red", (46, 46), figures=(("rifle", 3),))]))
    assert air.AirState not in g.components and InsertionState not in g.components
    assert air.aircraft_states(g) == {} and not air.aa_fired(g, 0) and air.off_table(g, 0) == []


def test_insertion_state_is_a_component():
    blue = [unit("HQ", (2, 2), figures=(("rifle", 3),)),
            unit("Drop", (24, 24), figures=(("rifle", 3),), quality="d10", insertion="parachute")]
    g = begin(scenario(blue, [unit("Red", (46, 46), figures=(("rifle", 3),))]))
    assert g.components[InsertionState].insertion_acted == [] and [u.uid for u in waiting(g, 0)] == [1]
    g = seeded(scenario(blue, [unit("Red", (46, 46), figures=(("rifle", 3),))]), ("insert", 1, "hold"))
    assert g.components[InsertionState].insertion_acted == [1] and waiting(g, 0) == []
    assert saves.state(g)["extra"]["insertion_acted"] == [1]
    h = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
    assert h.components[InsertionState] == g.components[InsertionState] and waiting(h, 0) == []
