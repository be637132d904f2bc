"""Random games with fire and smoke in play (seed 000 "ADDITIONAL RULES" › Fire and Smoke, L1864-1904): the
invariants of the property tests, and those of fires and clouds, hold at every decision; saves, snapshots and copies
replay and continue exactly."""
from __future__ import annotations

import copy
import json
import random

import pytest

import test_properties
from test_properties import Invariants
from vehicle_helpers import vehicle

from dustup_env.rules import Game, GameOverError
from dustup_env.rules.additional_rules import fire, smoke
from dustup_env.rules.kernel import table
from dustup_env.rules.kernel.data import load_scenario

FIRE_SMOKE_OPTIONS = ("ignite", "fight_fire", "lay_smoke", "discharge_smoke", "exhaust_smoke", "request_fire",
                      "fire_mission")


def scenario() -> dict:
    """The skirmish with flame throwers on both sides, smoke grenades, a truck with dischargers and exhaust smoke,
    smoke and incendiary fire support, a smoke generator and a west wind."""
    doc = copy.deepcopy(load_scenario("skirmish"))
    doc["turn_limit"] = 8
    doc["wind"] = 3
    doc["smoke_generators"] = [{"name": "Generator", "position": [18.0, 12.0], "turns": 2}]
    blue, red = doc["sides"][0]["units"], doc["sides"][1]["units"]
    blue[0].update(flamer=True, observer="fo")
    blue[1]["smoke_grenades"] = True
    red[0]["flamer"] = True
    red[1].update(smoke_grenades=True, observer="fo")
    blue.append(vehicle("Truck", (18, 2), "supply_truck", facing=0, smoke_dischargers=True, exhaust_smoke=True))
    doc["sides"][0]["fire_support"] = [{"name": "Smoke mortars", "firer": "company", "ammo": "smoke",
                                        "size": "small", "rounds": 2, "missions": 2}]
    doc["sides"][1]["fire_support"] = [{"name": "Incendiaries", "firer": "company", "ammo": "incendiary",
                                        "size": "small", "rounds": 1, "missions": 2}]
    return doc


def policy(g, rng):
    d = g.decision()
    special = [o for o in d.options if o[0] in FIRE_SMOKE_OPTIONS]
    if special and rng.random() < 0.5:
        return rng.choice(special)
    return rng.choice(d.options)


def check_fire_and_smoke(g) -> None:
    """Every fire marker is one burning area of the terrain and every cloud has a source still in play."""
    fires = {e["id"]: e for e in fire.fires(g)}
    areas = [f for f in g.terrain if f["kind"] == fire.FIRE]
    assert sorted(f["fire"] for f in areas) == sorted(fires)
    for f in areas:
        e = fires[f["fire"]]
        assert (f["x"], f["y"], f["r"]) == (e["x"], e["y"], fire.RADIUS) and e["known"] == "public"
    st = g.components.get(smoke.SmokeState)
    lines = {f"art:{ln['n']}" for ln in ((st.smoke_lines if st else None) or [])}
    for f in g.terrain:
        if f["kind"] not in (fire.FIRE, smoke.SMOKE):
            continue  # (a vehicle's wreck)
        assert f["shape"] == "circle" and 0 <= f["x"] <= g.battlefield.width and 0 <= f["y"] <= g.battlefield.height
        if f["kind"] != smoke.SMOKE:
            continue
        kind, _, n = f["src"].partition(":")
        if kind == "fire":
            assert int(n) in fires, "smoke of a fire that is out"
        elif kind == "unit":
            assert 0 <= int(n) < len(g.units)
        elif kind == "art":
            assert f["src"] in lines
        else:
            assert kind == "gen"
    assert len(g.entities) <= table.MAX_ENTITIES
    for side in (0, 1):  # fires are public: both sides know every one, by the same number of refs
        assert sum(1 for e in table.known_entities(g, side) if e["kind"] == fire.FIRE) == len(fires)


def round_trip(g) -> tuple:
    digest = g.state_digest()
    loaded = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    snap = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
    for h in (loaded, snap, g.clone()):
        assert h.state_digest() == digest and h.terrain == g.terrain and h.entities == g.entities
    assert loaded.event_log() == g.event_log()
    return loaded, snap


@pytest.mark.parametrize("chunk", range(2))
def test_random_fire_and_smoke_games_keep_their_invariants_and_replay_exactly(chunk, monkeypatch):
    monkeypatch.setattr(test_properties, "PROCEDURE_KINDS",
                        test_properties.PROCEDURE_KINDS + ("fire_target", "fire_dummy"))
    scn = scenario()
    kinds, events, sources, causes = set(), set(), set(), set()
    for k in range(25):
        i = chunk * 25 + k
        g = Game(scn, seed=91_000 + i)
        inv = Invariants(g)
        rng = random.Random(i)
        cut = rng.randrange(20, 200)
        n = 0
        twins = ()
        while not g.over:
            assert n < 20_000, "game did not end"
            opt = policy(g, rng)
            g.apply(opt)
            for h in twins:  # a save and a snapshot taken mid-game go on exactly as the game
                h.apply(opt)
                assert h.state_digest() == g.state_digest()
            kinds.add(opt[0])
            n += 1
            inv.check(g)
            check_fire_and_smoke(g)
            if n == cut and not g.over:
                twins = round_trip(g)
        with pytest.raises(GameOverError):
            g.apply(opt)
        round_trip(g)
        for h in twins:
            assert h.event_log() == g.event_log()
        events.update(e["type"] for e in g.event_log())
        sources.update(e["source"] for e in g.event_log() if e["type"] == "SmokePlaced")
        causes.update(e["cause"] for e in g.event_log() if e["type"] == "FireStarted")
    assert {"ignite", "fight_fire", "lay_smoke", "discharge_smoke", "exhaust_smoke", "request_fire"} <= kinds, kinds
    assert sources == {"grenades", "dischargers", "exhaust", "artillery", "generator", "fire"} or chunk == 1, sources
    assert {"flamer", "spread"} <= causes, causes
    assert {"FireStarted", "IgnitionRolled", "SmokePlaced", "SmokeLifted", "FireRolled", "SmokeDispersed"} <= events, \
        events
