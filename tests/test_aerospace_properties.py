"""Aerospace Operations: invariants over 240 random games of the built-in ``air-assault`` scenario (uniform play, and
play biased to the aerospace options: arriving, flying, landing, unloading, anti-aircraft fire), with the general
invariants of tests/test_properties.py and the aerospace ones: an aircraft's flight state agrees with its location,
passengers share an off-table aircraft's location, an aircraft in the air is on the table and is never named by any
option but anti-aircraft fire, a unit fires at aircraft at most once a turn, and games copy and replay alike."""
import json
import random

import pytest
import test_properties as tp

from dustup_env.rules import Game
from dustup_env.rules.aerospace_operations import air
from dustup_env.rules.aerospace_operations.flight import unit_arguments

AA_KINDS = ("air_abort", "anti_aircraft", "air_pilot")
AIR_OPTIONS = ("air_fly", "air_land", "air_take_off", "dismount", "air_drop", "air_bomb", "aa_fire", "aa_fire_at",
               "air_hover")


class AirInvariants(tp.Invariants):
    def __init__(self, g):
        self.fired = {}
        self.turn = g.turn
        super().__init__(g)

    def check(self, g):
        # aircraft (and their passengers) come into play when they arrive from off the table
        new = g.events[self.n_events:]
        back = set()
        turn = self.turn  # the turn each event happened in (one decision may end a turn and start the next)
        for e in new:
            if type(e).__name__ == "TurnStarted":
                turn = e.turn
            if type(e).__name__ == "AircraftArrived" and e.where == "table":
                back.add(e.unit)
                back.update(g.units[e.unit].veh.passengers)
            if type(e).__name__ == "AntiAircraftFire" and e.stage == "acquire":
                key = (turn, e.unit)
                assert key not in self.fired, f"unit {e.unit} fired at aircraft twice in turn {turn}"
                self.fired[key] = True
        self.turn = turn
        for k in back:
            self.out[k] = False
        super().check(g)
        craft = air.aircraft_states(g)
        for key, a in craft.items():
            u = g.units[int(key)]
            if a["mode"] in air.ON_TABLE:
                assert u.location == "table" and u.in_play, (key, a, u.location)
                assert 0.0 <= u.x <= g.bf.width and 0.0 <= u.y <= g.bf.height
            elif a["mode"] == "off":
                assert u.location in ("loiter", "air_inbound", "air_base")
                assert all(g.units[p].location == u.location for p in u.veh.passengers)
            else:
                assert not u.in_play
        if not g.over:
            d = g.decision()
            flying = {int(k) for k, a in craft.items() if a["mode"] in ("airborne", "hovering")}
            if d.kind == "action":
                args = unit_arguments(g)
                for o in d.options:
                    if o[0] == "aa_fire_at":
                        assert g.units[o[1]].side != d.side and o[1] in flying
                        continue
                    for i in args.get(o[0], ()):
                        assert i >= len(o) or o[i] not in flying, (o, d)


def biased(g, rng):
    d = g.decision()
    opts = d.options
    pick = [o for o in opts if o[0] in AIR_OPTIONS]
    if d.kind == "activate":
        arrive = [o for o in opts if o[0] == "air_arrive" and o[2] == "table"]
        if arrive and rng.random() < 0.6:
            return rng.choice(arrive)
    if d.kind == "action" and d.unit >= 0 and g.units[d.unit].name == "AA team":
        fire = [o for o in opts if o[0] == "aa_fire_at"]
        return rng.choice(fire) if fire else (("end",) if ("end",) in opts else rng.choice(opts))
    if pick and rng.random() < 0.7:
        return rng.choice(pick)
    return rng.choice(opts)


@pytest.fixture(autouse=True)
def _air_kinds(monkeypatch):
    monkeypatch.setattr(tp, "PROCEDURE_KINDS", tp.PROCEDURE_KINDS + AA_KINDS)


def play(seed, policy):
    g = Game("air-assault", seed=seed)
    inv = AirInvariants(g)
    rng = random.Random(seed)
    taken = []
    while not g.over:
        assert len(taken) < 20_000
        o = policy(g, rng)
        g.apply(o)
        taken.append(o)
        inv.check(g)
    return g, taken


@pytest.mark.parametrize("chunk", range(2))
def test_invariants_air_assault(chunk):
    """240 games: 120 per chunk, alternating uniform and aerospace-biased play."""
    kinds, events = set(), set()
    for k in range(120):
        seed = 70_000 + chunk * 120 + k
        g, taken = play(seed, biased if k % 2 else tp.uniform)
        kinds.update(o[0] for o in taken)
        events.update(type(e).__name__ for e in g.events)
    assert {"air_arrive", "air_fly", "air_land", "air_pilot", "aa_fire", "aa_fire_at", "air_drop", "air_bomb"} <= kinds, kinds
    assert {"AdeAcquisition", "AntiAircraftFire", "AircraftLanded", "AircraftFlew"} <= events, events


def test_games_paused_inside_a_flight_copy_save_and_replay_alike():
    """A game waiting on anti-aircraft fire mid-flight copies and reloads like any other (its continuation is
    plain data), and the copies play on alike."""
    found = 0
    for seed in range(80_000, 80_060):
        g = Game("air-assault", seed=seed)
        rng = random.Random(seed)
        while not g.over:
            if g.decision().kind == "anti_aircraft":
                found += 1
                c = g.clone()
                r = Game.from_dict(json.loads(json.dumps(g.to_dict())))
                s = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
                rest = random.Random(seed + 1)
                while not g.over:
                    o = biased(g, rest)
                    for h in (c, r, s):
                        h.apply(o)
                    g.apply(o)
                    assert c.decision().options == g.decision().options if not g.over else c.over
                assert c.events[-1] == g.events[-1] and r.vp == g.vp == c.vp == s.vp
                assert r.event_log()[-5:] == g.event_log()[-5:]
                break
            g.apply(biased(g, rng))
        if found >= 3:
            break
    assert found >= 3


def test_every_aerospace_choice_is_an_action_of_the_environment_layout():
    """Every option of every decision of air-assault games encodes to one index of the environment's layout and
    decodes back (the legal-option API the env, the protocol and the terminal share); the aerospace families are
    appended after the earlier ones, so the earlier indices keep their meaning."""
    from dustup_env.codec import ActionCodec, rule_families
    from dustup_env.rules.catalogue import STANDARD

    orders = {f.name: f.order for f in rule_families(STANDARD)}
    aero = ("air_arrive", "air_pilot", "air_fly", "air_hover", "air_land", "air_take_off", "air_leave", "aa_fire",
            "aa_hold", "aa_fire_at", "air_drop", "air_bomb", "insert")
    first, last = min(orders[n] for n in aero), max(orders[n] for n in aero)
    assert all(o < first or o > last for n, o in orders.items() if n not in aero)  # appended, later ones after
    seen = set()
    for seed in range(6):
        g = Game("air-assault", seed=seed)
        c = ActionCodec.for_game(g)
        rng = random.Random(seed)
        while not g.over:
            d = g.decision()
            idx = c.indices(g, d)
            assert len(set(idx)) == len(d.options)
            for o in d.options:
                assert tuple(c.decode(g, d.side, c.encode(g, d.side, o), d.kind)) == tuple(o)
                seen.add(o[0])
            g.apply(biased(g, rng))
    assert {"air_arrive", "air_fly", "air_pilot"} <= seen
