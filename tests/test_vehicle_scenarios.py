"""The built-in vehicle scenarios `armour` (two mechanised platoons: squads in APCs, tanks, a missile team, IAVRs,
across a river with a ford) and `mechs` (mechs with infantry against large creatures with infantry): they load and
are listed, random games play them to the end, and every design they field passes the design check; the design
library covers every mobility type and vehicle kind, super-heavy vehicles with turrets included."""
import random

import pytest
from conftest import play_random

from dustup_env.rules import Game
from dustup_env.rules.kernel.data import load_scenario, scenario_names
from dustup_env.rules.vehicle_design import VehicleProfile, check, library_names, library_profile

VEHICLE_SCENARIOS = ("armour", "mechs")
IAVRS = ("light_iavr", "hedp_rocket", "rpg", "bazooka")


def _designs(name):
    out = set()
    for s in load_scenario(name)["sides"]:
        for u in s["units"]:
            for key in ("design", "heavy_weapon"):
                if isinstance(u.get(key), str):
                    out.add(u[key])
    return out


def test_the_vehicle_scenarios_are_built_in_and_listed(capsys):
    from dustup_cli.cli import main
    assert set(VEHICLE_SCENARIOS) <= set(scenario_names())
    assert main(["scenarios"]) == 0
    listed = capsys.readouterr().out
    assert all(f"\n{n} " in "\n" + listed for n in VEHICLE_SCENARIOS)


def test_armour_fields_a_mechanised_platoon_a_side_on_vehicle_terrain():
    g = Game("armour", seed=0)
    for side in (0, 1):
        units = [g.units[i] for i in g.side_units[side]]
        vehicles = [u for u in units if u.profile.vehicle is not None]
        apcs = [v for v in vehicles if v.profile.vehicle.transport_figures]
        tanks = [v for v in vehicles if not v.profile.vehicle.transport_figures]
        assert len(apcs) == 2 and 1 <= len(tanks) <= 2
        assert all(v.veh.passengers for v in apcs), "every squad starts in its APC"
        spec = load_scenario("armour")["sides"][side]["units"]
        assert any(s.get("heavy_weapon") == "missile_team" for s in spec)
        assert any(f.weapon in IAVRS for u in units if u.profile.vehicle is None for f in u.figures)
    kinds = {t["type"] for t in load_scenario("armour")["terrain"]}
    assert {"light_woods", "dense_woods", "river", "ford", "road"} <= kinds


def test_mechs_fields_mechs_and_large_creatures_with_infantry():
    g = Game("mechs", seed=0)
    kinds = [{u.profile.vehicle.kind for u in (g.units[i] for i in g.side_units[s]) if u.profile.vehicle}
             for s in (0, 1)]
    assert kinds[0] == {"mech"} and kinds[1] == {"large_creature"}
    for s in (0, 1):
        assert any(g.units[i].profile.vehicle is None for i in g.side_units[s])


@pytest.mark.parametrize("name", VEHICLE_SCENARIOS)
def test_every_design_of_the_scenario_passes_the_check(name):
    for d in _designs(name):
        r = check(d)
        assert r.legal and r.warnings == (), (d, [v.message for v in r.errors + r.warnings])


@pytest.mark.parametrize("name", VEHICLE_SCENARIOS)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_play_to_the_end(name, seed):
    g = Game(name, seed=seed, options={"activation": "chits"} if seed == 2 else None)
    taken = play_random(g, random.Random(seed))
    assert g.over and len(taken) < 100_000
    assert {o[0] for o in taken} & {"mount", "dismount", "fire_vehicle", "fire_guided", "fire_iavr", "turn"}


def test_the_library_covers_every_mobility_type_and_kind_with_a_super_heavy_with_turrets():
    ps = [library_profile(n) for n in library_names()]
    vs = [p for p in ps if isinstance(p, VehicleProfile)]
    assert {"low_mobility_wheeled", "high_mobility_wheeled", "tracked", "hover", "grav", "walker"} <= {
        p.mobility_type for p in vs}
    assert {"conventional", "open_top", "soft_skin", "mech", "large_creature"} <= {p.kind for p in vs}
    shv = library_profile("super_heavy_tank")
    assert shv.size == 5 and check("super_heavy_tank").legal
    # its secondary turret fielded as a unit of its own on the hull
    from conftest import scenario, unit
    from vehicle_helpers import vehicle
    g = Game(scenario([vehicle("Hull", (24, 10), "super_heavy_tank"),
                       vehicle("Turret", (24, 10), "super_heavy_turret", hull="Hull")],
                      [unit("E", (5, 45))]), seed=0)
    assert g.units[1].veh.hull == 0
