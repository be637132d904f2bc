"""Property test: random games on the built-in vehicle scenarios (`armour`, `mechs`, and `armour` with a hidden
missile team) with every optional rule on (cycling the multi-valued ones; jamming, wire-guided missiles, multiple
decoys included).  At every step the invariants of test_properties.py hold (figures conserved, killed figures
never come back, events only appended, ...), and the vehicle ones of test_vehicle_properties.py (passengers never
both mounted and on the table nor seen by the enemy, carrier and passenger links agree, damage markers only
grow, no out-of-play unit acts, wrecks where vehicles were destroyed), plus: a destroyed vehicle stays destroyed
and never acts nor is offered an activation.  Every game ends, and a finished game refuses options.

The default run plays a small sample (24 games).  The full run plays 1,000:

    DUSTUP_VEHICLE_PROPERTY_GAMES=1000 PYTHONPATH=$PWD python -m pytest -q -n 2 tests/test_vehicle_scenario_properties.py
"""
import os
import random
import sys
from pathlib import Path

import pytest
from test_properties import Invariants
from test_vehicle_properties import VEHICLE_FAMILIES, VehicleInvariants

from dustup_env.rules import Game, GameOverError
from dustup_env.rules.kernel.data import load_scenario
from dustup_env.rules.kernel.entities import KILLED

sys.path.insert(0, str(Path(__file__).resolve().parent))
from golden_games import all_options  # noqa: E402

pytestmark = pytest.mark.xdist_group("vehicle_scenario_properties")
GAMES = int(os.environ.get("DUSTUP_VEHICLE_PROPERTY_GAMES", "24"))
CHUNKS = 8
FIRE = ("fire_vehicle", "fire_slaved", "fire_pair", "fire_iavr", "fire_guided", "fire_heavy", "shoot_passengers",
        "passenger_shoot")


def scenario_of(k: int) -> dict:
    doc = load_scenario(("armour", "mechs", "armour")[k % 3])
    if k % 3 == 2:  # Red's missile team hidden in the north copse
        team = next(u for u in doc["sides"][1]["units"] if u["name"] == "Missile team")
        team["position"], team["hidden"] = [40.0, 33.0], True
        doc["sides"][1]["dummies"] = [[38.0, 34.0]]
    doc["sides"][0]["jammer"], doc["sides"][1]["jammer"] = "d8", "d6"
    return doc


def options_of(k: int) -> dict:
    return dict(all_options(k), wire_guided=True, decoys_multiple=True)


def policy(g: Game, rng: random.Random, k: int):
    """Uniform for a third of the games; otherwise vehicle and fire options are favoured."""
    opts = g.decision().options
    if k % 3:
        pref = [o for o in opts if o[0] in VEHICLE_FAMILIES or o[0] in FIRE]
        if pref and rng.random() < 0.5:
            return rng.choice(pref)
    return rng.choice(opts)


def destroyed_vehicles(g: Game) -> set:
    return {u.uid for u in g.units if u.profile.vehicle is not None and all(f.status == KILLED for f in u.figures)}


def play(k: int) -> tuple[int, set]:
    g = Game(scenario_of(k), seed=90_000 + k, options=options_of(k))
    inv, vinv = Invariants(g), VehicleInvariants(g)
    rng = random.Random(k)
    wrecks: set = set()
    kinds: set = set()
    n = 0
    opt = None
    while not g.over:
        assert n < 20_000, "game did not end"
        d = g.decision()
        if d.kind == "action":
            assert d.unit not in wrecks, "a destroyed vehicle acts"
        if d.kind == "activate":
            assert not any(o[0] == "activate" and o[1] in wrecks for o in d.options), "a wreck may activate"
        opt = policy(g, rng, k)
        g.apply(opt)
        kinds.add(opt[0])
        n += 1
        inv.check(g)
        vinv.check(g)
        now = destroyed_vehicles(g)
        assert wrecks <= now, "a destroyed vehicle came back"
        wrecks = now
    with pytest.raises(GameOverError):
        g.apply(opt)
    return n, kinds


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_vehicle_scenarios_keep_the_invariants_with_every_option(chunk):
    kinds = set()
    games = decisions = 0
    for k in range(chunk, GAMES, CHUNKS):
        n, ks = play(k)
        assert n > 0
        kinds |= ks
        games, decisions = games + 1, decisions + n
    print(f"chunk {chunk}: {games} games, {decisions} decisions")
    if GAMES >= 3 * CHUNKS:
        assert {"dismount", "fire_vehicle"} <= kinds, kinds


def _until(k: int, broken) -> bool:
    g = Game(scenario_of(k), seed=90_000 + k, options=options_of(k))
    rng = random.Random(k)
    while not g.over:
        g.apply(policy(g, rng, k))
        if broken(g):
            return True
    return False


def test_passengers_of_a_transport_routed_off_are_set_down_and_stay_in_play():
    """Found by the property test: a transport that withdrew off the table kept its passengers aboard and in play
    (they kept activating inside a vehicle that was gone).  They are set down at the edge (RN-769)."""
    assert not _until(378, lambda g: any(u.routed_off and any(g.units[p].in_play for p in u.veh.passengers)
                                         for u in g.units))


def test_a_vehicle_towing_or_pushing_never_hides():
    """Found by the property test: a vehicle pushing or towing another could take the reorganise task hide
    (a hidden vehicle tows nothing, RN-769)."""
    assert not _until(246, lambda g: any(u.veh.towing >= 0 and u.hidden for u in g.units))
