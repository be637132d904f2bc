"""Random games of the built-in ``fire-support`` scenario with every option on (the fire-support chits and dummy
targets, jamming, every activation sequence, seizing the initiative, ...): the invariants of the property tests
and those of the fire missions hold at every decision.  ``impacts.resolve_mission`` is replaced by a checker of
the mission it is handed (the impact's own rules have their tests)."""
from __future__ import annotations

import copy
import random

import pytest

import test_properties
from test_properties import Invariants, all_options
from dustup_env.rules import Game, GameOverError
from dustup_env.rules.artillery_and_air_support import fire_missions, fire_support_request as fsr, impacts
from dustup_env.rules.kernel.data import load_scenario
from dustup_env.rules.kernel.table import known_entities

KEYS = {"side", "x", "y", "ammo", "size", "rounds", "observer", "guidance", "asset", "firer", "requestor"}


def _scenario():
    doc = copy.deepcopy(load_scenario("fire-support"))
    doc["sides"][1]["jammer"] = "d6"
    doc["sides"][1]["fire_support"] = [{"name": "Defenders' mortars", "firer": "company", "size": "medium",
                                        "rounds": 2, "missions": 1, "from": "other_platoon"},
                                       {"name": "Air cover", "firer": "air", "missions": 1}]
    return doc


def _policy(g, rng):
    d = g.decision()
    fs = [o for o in d.options if o[0] in ("request_fire", "fire_mission", "hold_mission")]
    if fs and rng.random() < 0.6:
        return rng.choice(fs)
    return rng.choice(d.options)


class Missions:
    """What the fire missions must keep: every mission's markers, counters and timing."""

    def __init__(self, g):
        self.total = [sum(a["missions"] for a in fsr.assets(g, s)) for s in (0, 1)]
        self.fired = set()

    def check(self, g, fired_now):
        st = fsr.fire_support_state(g)
        ms = st["missions"]
        for s in (0, 1):
            assert st["chits"][s] >= 0
            placing = sum(1 for f in g.stack if f.type == "fire_target" and f.data["side"] == s)  # granted, unplaced
            assert sum(st["left"][s]) + sum(1 for m in ms if m["side"] == s) + placing == self.total[s]
        per = fsr.markers_per_request(g)
        for m in ms:
            on = [eid for eid in m["markers"] if not g.entities[eid]["removed"]]
            assert len(m["markers"]) == per and m["real"] in m["markers"]
            assert len(on) == (0 if m["state"] in (fire_missions.FIRED, fire_missions.CANCELLED) else per)
            firer = fsr.assets(g, m["side"])[m["asset"]]["firer"]
            assert (m["state"] in (fire_missions.WAITING, fire_missions.FIRED, fire_missions.CANCELLED)) or firer != "on_table"
            if m["state"] == fire_missions.INBOUND:
                assert 1 <= m["box"] <= fire_missions.DELAY[fsr.assets(g, m["side"])[m["asset"]]["firer"]]
            if m["state"] == fire_missions.FIRED and (m["side"], m["n"]) not in self.fired:
                self.fired.add((m["side"], m["n"]))
                if firer != "on_table":
                    assert g.turn >= m["turn"] + fire_missions.DELAY[firer], "a mission came in before its delay"
        for s in (0, 1):  # a side sees the markers, never which one is real (nor the rules' data)
            for e in known_entities(g, s):
                assert e["kind"] == fsr.MARKER and e["known"] == "public" and set(e["state"]) == {"mission"}
        assert len(self.fired) == sum(1 for m in ms if m["state"] == fire_missions.FIRED)
        for mission in fired_now:
            assert set(mission) == KEYS and 0 <= mission["x"] <= g.bf.width and 0 <= mission["y"] <= g.bf.height
            assert mission["rounds"] >= 1
            assert (mission["firer"] is None) == (mission["asset"] != "on_table")


@pytest.mark.parametrize("chunk", range(4))
def test_invariants_of_random_fire_support_games_with_every_option_on(chunk, monkeypatch):
    handed = []
    monkeypatch.setattr(impacts, "resolve_mission", lambda game, mission: handed.append(dict(mission)))
    monkeypatch.setattr(test_properties, "PROCEDURE_KINDS",
                        test_properties.PROCEDURE_KINDS + ("fire_target", "fire_dummy"))  # the target markers
    scn = _scenario()
    kinds, events = set(), set()
    for k in range(55):
        i = chunk * 55 + k
        options = {**all_options(i), "fire_support_chits": 2, "fire_support_dummies": True}
        g = Game(scn, seed=70_000 + i, options=options)
        inv, fm = Invariants(g), Missions(g)
        rng = random.Random(i)
        n = 0
        while not g.over:
            assert n < 20_000, "game did not end"
            opt = _policy(g, rng)
            before = len(handed)
            g.apply(opt)
            kinds.add(opt[0])
            n += 1
            inv.check(g)
            fm.check(g, handed[before:])
        with pytest.raises(GameOverError):
            g.apply(opt)
        events.update(e["type"] for e in g.event_log())
    assert {"request_fire", "fire_target", "fire_dummy", "fire_mission", "hold_mission"} <= kinds, kinds
    assert {"FireSupportRequested", "TargetMarkersPlaced", "FireSupportCounterMoved", "FireMissionArrived",
            "FireMissionHeld"} <= events
    assert {m["asset"] for m in handed} >= {"on_table", "battalion"}
