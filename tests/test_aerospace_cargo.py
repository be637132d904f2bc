"""Cargo (seed 000 L1816-1822, L1740, L1754): loaded and unloaded by the infantry, a box per model or a larger item
per squad, one action; onto a grounded aircraft only; carried with the vehicle and lost with it (RN-1911, RN-1912)."""
from __future__ import annotations

import pytest

from aerospace_helpers import air_scenario, aircraft
from conftest import activate, begin, last_event, unit

from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.aerospace_operations.cargo import aboard
from dustup_env.rules.kernel.errors import ScenarioError
from dustup_env.rules.kernel.table import entities_of

A = 1  # the aircraft (uid 1); the HQ is 0


def _scn(boxes=(), air_mode="grounded", kind="squad", models=3, cargo=None):
    ship = aircraft("Dropship", (20, 20), air=air_mode)
    if cargo is not None:
        ship["cargo"] = list(cargo)
    scn = air_scenario([ship], blue=[unit("Loaders", (20, 22.5), figures=(("rifle", models),), kind=kind)])
    scn["cargo"] = [{"position": [x, y], "size": s} for x, y, s in boxes]
    return scn


def _loose(g):
    return [(e["x"], e["y"], e["state"]["size"]) for e in entities_of(g, "cargo") if e["state"]["aboard"] < 0]


def test_one_model_loads_one_man_portable_box_per_action_onto_a_grounded_aircraft():
    # L1822: "one infantry model can load or unload one man-portable box per action"; L1754: "Once landed it may
    # load or unload cargo"; the loaders within 2" of the aircraft (L1818-1820), the boxes within 2" of a loader
    g = begin(_scn(boxes=[(20, 25, "box"), (21, 25, "box"), (19, 25, "box"), (20, 26, "box"), (40, 40, "box")]))
    v = g.units[A]
    activate(g, 2)
    opts = g.decision().options
    assert ("load_cargo", A, "box") in opts and ("load_cargo", A, "large") not in opts
    assert ("unload_cargo", A, "box") not in opts  # nothing aboard yet
    g.apply(("load_cargo", A, "box"))
    e = last_event(g, "CargoLoaded")
    assert (e["unit"], e["vehicle"], e["size"], e["items"]) == (2, A, "box", 3)  # three models: three boxes
    assert len(aboard(g, v)) == 3 and len(_loose(g)) == 2  # one within reach left, one far away
    assert all((c["x"], c["y"]) == (v.x, v.y) for c in aboard(g, v))
    g.apply(("load_cargo", A, "box"))  # the second action loads the last box in reach
    assert len(aboard(g, v)) == 4 and _loose(g) == [(40.0, 40.0, "box")]


def test_no_cargo_is_loaded_onto_an_aircraft_in_the_air():
    g = begin(_scn(boxes=[(20, 25, "box")], air_mode="hovering"))
    activate(g, 2)
    assert not [o for o in g.decision().options if o[0] in ("load_cargo", "unload_cargo")]


def test_a_larger_item_needs_a_whole_squad_and_is_one_item_an_action():
    # L1822: "a whole squad is required to load or unload larger items"
    g = begin(_scn(boxes=[(20, 25, "large"), (21, 25, "large")], kind="specialist", models=2))
    activate(g, 2)
    assert not [o for o in g.decision().options if o[0] == "load_cargo"]  # a specialist team is not a squad
    g = begin(_scn(boxes=[(20, 25, "large"), (21, 25, "large")]))
    activate(g, 2)
    g.apply(("load_cargo", A, "large"))
    assert last_event(g, "CargoLoaded")["items"] == 1 and len(aboard(g, g.units[A], "large")) == 1


def test_unloading_places_the_cargo_at_the_unit_and_it_moves_with_its_aircraft_otherwise():
    g = begin(_scn(cargo=["box", "box", "large"]))
    v, team = g.units[A], g.units[2]
    assert len(aboard(g, v)) == 3 and all((c["x"], c["y"]) == (v.x, v.y) for c in aboard(g, v))
    activate(g, 2)
    assert {o for o in g.decision().options if o[0] == "unload_cargo"} == {("unload_cargo", A, "box"),
                                                                          ("unload_cargo", A, "large")}
    g.apply(("unload_cargo", A, "box"))
    assert last_event(g, "CargoUnloaded")["items"] == 2 and _loose(g) == [(team.x, team.y, "box")] * 2
    # the aircraft takes off and is put elsewhere: the item still aboard goes with it
    from dustup_env.rules.aerospace_operations.cargo import _after_apply
    from dustup_env.rules.kernel.table import place
    air.air_state(g, v)["mode"] = "hovering"
    place(g, v, 30.0, 30.0, "test", point=False)
    _after_apply(g, g.decision(), ("end",))
    assert [(c["x"], c["y"]) for c in aboard(g, v)] == [(30.0, 30.0)]


def test_cargo_is_lost_with_its_destroyed_vehicle():
    from dustup_env.rules.aerospace_operations.cargo import _after_apply
    from dustup_env.rules.kernel.entities import KILLED
    g = begin(_scn(cargo=["box", "large"]))
    v = g.units[A]
    for i in range(len(v.figures)):
        v.set_figure(i, status=KILLED)
    _after_apply(g, g.decision(), ("end",))
    assert not entities_of(g, "cargo") and last_event(g, "CargoLost")["items"] == 2


def test_a_truck_with_a_cargo_load_carries_cargo_and_unloads_it():
    # a design's cargo load (S002:683) makes a vehicle a cargo carrier, like a transport's passenger places
    truck = {"name": "Truck", "position": [20.0, 20.0], "design": "supply_truck", "facing": 0, "cargo": ["box"]}
    scn = air_scenario([aircraft("Dropship", (40, 10))], blue=[truck, unit("Loaders", (20, 21), figures=(("rifle", 3),))])
    g = begin(scn)
    activate(g, 3)
    assert ("unload_cargo", 2, "box") in g.decision().options
    g.apply(("unload_cargo", 2, "box"))
    assert last_event(g, "CargoUnloaded")["items"] == 1 and not aboard(g, g.units[2])


def test_bad_cargo_in_a_scenario_is_a_one_line_error():
    scn = _scn()
    scn["sides"][0]["units"][2]["cargo"] = ["box"]  # the squad is no transport vehicle
    with pytest.raises(ScenarioError, match="only a transport vehicle or one with cargo loads carries cargo"):
        begin(scn)
    scn = _scn(boxes=[(60, 20, "box")])
    with pytest.raises(ScenarioError, match="off the table"):
        begin(scn)


# ---------------------------------------------------------------------------------------------- dropped from the air
def test_a_hovering_aircraft_drops_its_cargo_straight_below_as_one_action():
    # L1740: "Aircraft may use actions to ... drop ordnance, cargo and passengers"; from a hover straight down, as
    # bombs (L1782) and troops (L1842); every item of the size in one action, no dice (RN-1970)
    g = begin(_scn(air_mode="hovering", cargo=["box", "box", "large"]))
    v = g.units[A]
    activate(g, A)
    opts = g.decision().options
    assert ("drop_cargo", "box") in opts and ("drop_cargo", "large") in opts
    g.apply(("drop_cargo", "box"))
    assert g.dice.remaining == 0
    e = last_event(g, "CargoDropped")
    assert (e["vehicle"], e["size"], e["x"], e["y"], e["roll"], e["where"]) == (A, "box", 20.0, 20.0, 0, "table")
    assert _loose(g) == [(20.0, 20.0, "box")] * 2 and len(aboard(g, v)) == 1
    assert g.activation_frame().actions_left == 1  # one action
    assert ("drop_cargo", "box") not in g.decision().options and ("drop_cargo", "large") in g.decision().options
    from dustup_env.codec import ActionCodec
    c = ActionCodec.for_game(g)  # the family appended after every other: the existing indices keep their meaning
    assert (c.encode(g, 0, ("drop_cargo", "box")), c.encode(g, 0, ("drop_cargo", "large")), c.n) == (2459, 2460, 2461)


def test_a_moving_aircraft_drops_each_item_d6_inches_ahead_and_the_loaders_pick_it_up():
    # L1778-1780: each D6" straight ahead of the centre (the deadfall placement on one target); the aircraft faces
    # north (+y)
    ship = aircraft("Dropship", (20, 20), air="airborne", facing=0, cargo=["box", "box"])
    scn = air_scenario([ship], blue=[unit("Loaders", (20, 26), figures=(("rifle", 3),), kind="squad")])
    g = begin(scn, [("d6", 2), ("d6", 5)])
    activate(g, A)
    g.apply(("drop_cargo", "box"))
    assert g.dice.remaining == 0
    assert [(e["x"], e["y"], e["roll"]) for e in g.event_log() if e["type"] == "CargoDropped"] == [
        (20.0, 22.0, 2), (20.0, 25.0, 5)]
    assert sorted(_loose(g)) == [(20.0, 22.0, "box"), (20.0, 25.0, "box")]
    assert not aboard(g, g.units[A])


def test_cargo_dropped_off_the_table_or_into_water_is_lost():
    # L1852 (a landing zone off the table: lost) and L1856 (open water destroys what lands in it), RN-1971
    from conftest import rect
    ship = aircraft("Dropship", (20, 45), air="airborne", facing=0, cargo=["box", "box"])
    scn = air_scenario([ship], terrain=[rect("open_water", 18, 46, 22, 47.5)])
    g = begin(scn, [("d6", 1), ("d6", 4)])
    activate(g, A)
    g.apply(("drop_cargo", "box"))
    wheres = [(e["y"], e["where"]) for e in g.event_log() if e["type"] == "CargoDropped"]
    assert wheres == [(46.0, "water"), (49.0, "off_table")]
    assert not entities_of(g, "cargo")


def test_no_cargo_is_dropped_from_a_grounded_aircraft_and_a_ground_vehicle_drops_none():
    # L1754: a landed aircraft unloads (the infantry's action); a truck is not an aircraft
    g = begin(_scn(cargo=["box"]))
    activate(g, A)
    assert not [o for o in g.decision().options if o[0] == "drop_cargo"]
    truck = {"name": "Truck", "position": [20.0, 20.0], "design": "supply_truck", "facing": 0, "cargo": ["box"]}
    g = begin(air_scenario([aircraft("Dropship", (40, 10))], blue=[truck]))
    activate(g, 2)
    assert not [o for o in g.decision().options if o[0] == "drop_cargo"]


def test_a_fighter_that_has_not_flown_must_still_fly_after_dropping():
    # any aircraft drops (L1740), a non-VTOL one too; its last action is a move when it has not flown (L1744).  The
    # library's fighter with its bombs swapped for a cargo load (S002:683)
    import json
    from dustup_env.rules.vehicle_design.load import LIBRARY
    design = json.loads((LIBRARY / "aerospace_fighter.json").read_text())
    design.update(name="Cargo fighter", weapons=design["weapons"][:1], transport={"cargo_loads": 1})
    g = begin(air_scenario([aircraft("Fighter", (24, 10), design=design, facing=0, cargo=["box"])]), [("d6", 3)])
    activate(g, A)
    g.apply(("drop_cargo", "box"))
    assert g.dice.remaining == 0 and _loose(g) == [(24.0, 13.0, "box")]
    assert {o[0] for o in g.decision().options} == {"air_fly", "air_leave"}
