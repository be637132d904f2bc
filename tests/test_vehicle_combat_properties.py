"""Invariants of vehicle combat over random games on the mechanised test scenario (tests/vehicle_helpers.py):
damage markers only grow, a destroyed vehicle never acts nor is a target, passengers are never both mounted and on
the table and carrier links agree both ways, suppression stays within 0-3, every offered option is legal."""
import random

import pytest
from vehicle_helpers import mechanised

from dustup_env.rules import Game

GAMES = 60


def _check(g, before: dict):
    units = g.units
    for u in units:
        if u.profile.vehicle is not None:
            assert u.damage >= before.get(u.uid, 0), "damage markers only grow"
            before[u.uid] = u.damage
            assert 0 <= u.suppression <= 3
            for p in u.passengers:
                assert units[p].carrier == u.uid
        if u.carrier >= 0:
            assert u.uid in units[u.carrier].passengers, "carrier links agree both ways"
            assert units[u.carrier].in_play, "no passenger rides in a destroyed vehicle"
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
    g = Game(mechanised(), seed=seed)
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


def test_random_games_shoot_at_vehicles():
    """The sample above is not vacuous: vehicles are shot at, suppressed and damaged in it."""
    seen = set()
    for seed in range(GAMES):
        rng = random.Random(seed)
        g = Game(mechanised(), seed=seed)
        while not g.over:
            g.apply(rng.choice(g.decision().options))
        for e in g.event_log():
            if e["type"] in ("VehicleHit", "SuppressionResisted", "VehicleDamaged", "VehicleDestroyed"):
                seen.add(e["type"])
            if e["type"] == "Suppressed" and g.units[e["unit"]].profile.vehicle is not None:
                seen.add("vehicle suppressed")
    assert {"VehicleHit", "vehicle suppressed"} <= seen, seen
