"""Invariants of vehicle combat over random games on the mechanised test scenario (tests/vehicle_helpers.py):
damage markers only grow, a destroyed vehicle never acts nor is a target, passengers are never both mounted and on
the table (they ride at their vehicle's position, unseen by the enemy) and carrier links agree both ways,
suppression stays within 0-3, every offered option is legal; the sample fires at and with vehicles, assaults and
tank-shocks."""
import random

import pytest
from vehicle_helpers import mechanised

from dustup_env.rules import Game

GAMES = 60


def scenario_for(seed: int) -> dict:
    """The mechanised scenario; on odd seeds APC 1 starts opened up (its squad may fire from it, and be fired
    at)."""
    scn = mechanised()
    if seed % 2:
        for u in scn["sides"][0]["units"]:
            if u["name"] == "APC 1":
                u["opened_up"] = True
    return scn


def _check(g, before: dict):
    units = g.units
    for u in units:
        if u.profile.vehicle is not None:
            assert u.veh.damage >= before.get(u.uid, 0), "damage markers only grow"
            before[u.uid] = u.veh.damage
            assert 0 <= u.suppression <= 3
            for p in u.veh.passengers:
                assert units[p].veh.carrier == u.uid
        if u.veh.carrier >= 0:
            v = units[u.veh.carrier]
            assert u.uid in v.veh.passengers, "carrier links agree both ways"
            assert v.in_play, "no passenger rides in a destroyed vehicle"
            assert (u.x, u.y) == (v.x, v.y), "a passenger rides where its vehicle is"
            assert u not in g.enemy_units(1 - u.side), "a passenger is not on the table for the enemy"
    d = g.decision()
    if d.kind == "action" and units[d.unit].profile.vehicle is not None:
        assert units[d.unit].in_play, "a destroyed vehicle never acts"
    for o in d.options:
        if o[0] == "activate":
            assert units[o[1]].in_play or units[o[1]].profile.vehicle is None
        if o[0] in ("shoot", "shoot_weapon", "throw", "fire_heavy") and units[o[1]].profile.vehicle is not None:
            assert units[o[1]].in_play, "a destroyed vehicle is no target"


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_keep_the_vehicle_combat_invariants(seed):
    rng = random.Random(seed)
    g = Game(scenario_for(seed), seed=seed)
    before: dict = {}
    n = 0
    while not g.over and n < 4000:
        _check(g, before)
        opts = g.decision().options
        if n % 7 == 0:
            for o in opts:
                assert g.is_legal(o)
        g.apply(rng.choice(opts))
        n += 1


VEHICLE_COMBAT = ("fire_vehicle", "tank_shock", "assault_vehicle", "passenger_shoot", "shoot_passengers")


def test_random_games_shoot_at_vehicles():
    """The sample above is not vacuous: vehicles are shot at, suppressed and damaged in it, and the vehicle-combat
    options are offered (and some taken)."""
    seen, offered, taken = set(), set(), set()
    for seed in range(GAMES):
        rng = random.Random(seed)
        g = Game(scenario_for(seed), seed=seed)
        while not g.over:
            opts = g.decision().options
            offered.update(o[0] for o in opts if o[0] in VEHICLE_COMBAT)
            o = rng.choice(opts)
            if o[0] in VEHICLE_COMBAT:
                taken.add(o[0])
            g.apply(o)
        for e in g.event_log():
            if e["type"] in ("VehicleHit", "SuppressionResisted", "VehicleDamaged", "VehicleDestroyed"):
                seen.add(e["type"])
            if e["type"] == "Suppressed" and g.units[e["unit"]].profile.vehicle is not None:
                seen.add("vehicle suppressed")
    assert {"VehicleHit", "vehicle suppressed"} <= seen, seen
    assert {"fire_vehicle", "tank_shock", "assault_vehicle", "passenger_shoot"} <= offered, offered
    assert {"fire_vehicle", "tank_shock"} <= taken, taken
