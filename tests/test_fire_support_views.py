"""Fire support in what each side sees and in every front-end: dummy target markers never show which one is real
(twin games swapped on the real marker look the same to the other side: view, log, narration, observation, masks,
the protocol's and HTTP view, the agents' choices), and every fire-support choice is a decision reachable from
the environment's action layout, the engine protocol, the HTTP API and the terminal."""
from __future__ import annotations

import io
import random

import numpy as np
import pytest

from conftest import scenario, unit
from dustup_env import narrate as nr
from dustup_env.agent_registry import make_agent
from dustup_env.codec import ActionCodec, layout_for_game
from dustup_env.observation import Observer
from dustup_env.rules import Game
from dustup_env.rules.artillery_and_air_support import fire_support_request as fsr, impacts
from dustup_env.service import views


@pytest.fixture(autouse=True)
def impacts_seen(monkeypatch):
    seen = []
    monkeypatch.setattr(impacts, "resolve_mission", lambda game, mission: seen.append(dict(mission)))
    return seen


def _scn():
    scn = scenario([unit("HQ", (24, 5), leadership=1, observer="fo"), unit("Alpha", (12, 6))],
                   [unit("Red", (24, 40)), unit("Yankee", (36, 40))], turn_limit=4)
    scn["sides"][0]["fire_support"] = [{"name": "Company mortars", "firer": "company", "rounds": 2, "missions": 1}]
    return scn


OPTIONS = {"fire_support_dummies": True, "fire_support_chits": 1}


def _side1_state(g, obs, agents):
    d = g.decision()
    know = nr.Knowledge.of_side(g, 1)
    state = {"view": g.view(1), "log": g.event_log(1), "table": views.table_view(g, 1),
             "text": [nr.narrate(e, know) for e in g.event_log(1)], "obs": obs.observation(g, 1).tobytes(),
             "decision": (d.side, d.kind) if d.side == 1 else (d.side, d.kind if d.kind not in ("fire_target", "fire_dummy") else "place")}
    if d.side == 1:
        codec = ActionCodec(layout_for_game(g))
        state["options"] = d.options
        state["mask"] = codec.mask(g, d).tobytes()
        state["choices"] = [tuple(a.choose(g, d)) for a in agents]
    return state


def _twin(order, seed):
    """Play a game where side 0 requests fire support at once and places its three markers at ``order`` (the
    first is the real one); every other decision by index from the same random stream."""
    g = Game(_scn(), seed=seed, options=OPTIONS)
    obs = Observer.for_game(g)
    agents = [make_agent(n, seed=3) for n in ("scripted", "hard")]
    for a in agents:
        a.reset(3)
    rng = random.Random(seed)
    states, placed, pts = [], 0, None
    while not g.over:
        states.append(_side1_state(g, obs, agents))
        d = g.decision()
        req = [o for o in d.options if o[0] == "request_fire"]
        if d.kind in ("fire_target", "fire_dummy"):
            if pts is None:
                pts = sorted((o[1], o[2]) for o in d.options)[:3]
            opt = (d.kind, *pts[order[placed]])
            placed += 1
        elif req:
            opt = req[0]
        elif ("fire_mission", 0) in d.options:
            opt = ("fire_mission", 0)
        else:
            opt = d.options[rng.randrange(len(d.options))]
        g.apply(opt)
        if any(e["type"] == "FireMissionArrived" for e in g.event_log(1)):
            break
    return g, states, pts


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_twin_games_swapped_on_the_real_marker_look_the_same_to_the_other_side(seed, impacts_seen):
    a, sa, pts = _twin((0, 1, 2), seed)
    n = len(impacts_seen)
    b, sb, _ = _twin((1, 0, 2), seed)
    assert n == 1 and len(impacts_seen) == 2, "the mission came in"
    assert len(sa) == len(sb) > 10
    for i, (x, y) in enumerate(zip(sa, sb)):
        assert x == y, (i, [k for k in x if x[k] != y.get(k)])
    # the markers were on the table, three of them, for the other side to see
    assert any(len(s["view"].get("entities", [])) == 3 for s in sa)
    assert any(len(s["table"].get("entities", [])) == 3 for s in sa)
    # and the impact reveals the real one: the first marker placed
    ra, rb = impacts_seen
    assert (ra["x"], ra["y"]) == pts[0] and (rb["x"], rb["y"]) == pts[1]
    ia = [e for e in a.event_log(1) if e["type"] == "FireMissionArrived"][0]
    assert (ia["x"], ia["y"]) == pts[0]


# ---------------------------------------------------------------------------------------------- front-ends
def _granted(seed=0):
    """A fire-support game advanced to side 0's target decision (a granted request)."""
    for s in range(seed, seed + 50):
        g = Game(_scn(), seed=s, options=OPTIONS)
        rng = random.Random(s)
        while not g.over and g.turn <= 2:
            d = g.decision()
            if d.kind == "fire_target":
                return g
            req = [o for o in d.options if o[0] == "request_fire"]
            g.apply(req[0] if req else d.options[rng.randrange(len(d.options))])
    raise AssertionError("no request was granted")


@pytest.mark.parametrize("seed", range(3))
def test_every_fire_support_option_has_one_index_of_the_action_layout(seed):
    scn = _scn()
    scn["sides"][1]["fire_support"] = [{"name": "Red battery", "firer": "company", "missions": 2}]  # a flipped side
    g = Game(scn, seed=seed, options=OPTIONS)
    codec = ActionCodec(layout_for_game(g))
    seen = set()
    rng = random.Random(seed)
    while not g.over:
        d = g.decision()
        mask = codec.mask(g, d)
        assert int(mask.sum()) == len(d.options)
        for o in d.options:
            i = codec.encode(g, d.side, o)
            assert mask[i] and codec.decode(g, d.side, i, d.kind) == o
            seen.add((d.side, o[0]))
        fs = [o for o in d.options if o[0] in ("request_fire", "fire_mission")]
        g.apply(fs[0] if fs and rng.random() < 0.7 else d.options[rng.randrange(len(d.options))])
    assert {(s, k) for s in (0, 1) for k in ("request_fire", "fire_target", "fire_dummy", "fire_mission",
                                             "hold_mission")} <= seen
    from dustup_env import codec as C
    names = [n for n, _ in C.FAMILIES]
    i = names.index("request_fire")  # appended together (the aerospace families were appended after them)
    assert names[i:i + 5] == ["request_fire", "fire_target", "fire_dummy", "fire_mission", "hold_mission"]


def test_the_protocol_offers_the_request_and_the_target_decision():
    from dustup_env.service.protocol import Engine
    eng = Engine(log=lambda m: None)
    for seed in range(20):
        r = eng.handle({"cmd": "new", "scenario": _scn(), "seed": seed, "you": 0, "ai": "random", "options": OPTIONS})
        assert r["ok"], r
        dec = r["decision"]
        while dec is not None and not r.get("over"):
            opts = [o["option"] for o in dec["options"]]
            req = [o for o in opts if o[0] == "request_fire"]
            r = eng.handle({"cmd": "play", "option": req[0] if req else opts[0]})
            assert r["ok"], r
            dec = r.get("decision")
            if dec and dec["kind"] == "fire_target":
                assert all(o["label"].startswith("place the target marker at") for o in dec["options"])
                return
    raise AssertionError("the protocol never offered the target decision")


def test_the_http_api_plays_a_request(tmp_path):
    from fastapi.testclient import TestClient

    from dustup_env.service.server import create_app
    from dustup_env.service.store import Store
    store = Store(str(tmp_path / "games.db"))
    try:
        with TestClient(create_app(store)) as c:
            for seed in range(20):
                r = c.post("/games", json={"scenario": _scn(), "seed": seed, "ai": "random", "side": 0,
                                           "options": OPTIONS})
                assert r.status_code == 201, r.text
                g = r.json()
                auth = {"Authorization": f"Bearer {g['token']}"}
                dec = c.get(f"/games/{g['game']}", headers=auth).json().get("decision")
                for _ in range(60):
                    if not dec:
                        break
                    opts = [o["option"] for o in dec["options"]]
                    req = [o for o in opts if o[0] in ("request_fire", "fire_target", "fire_dummy")]
                    out = c.post(f"/games/{g['game']}/play", json={"option": req[0] if req else opts[0]},
                                 headers=auth)
                    assert out.status_code == 200, out.text
                    dec = out.json().get("decision")
                    view = c.get(f"/games/{g['game']}", headers=auth).json()["view"]
                    if view.get("entities"):
                        assert len(view["entities"]) == 3 and {e["kind"] for e in view["entities"]} == {"fire_target"}
                        return
    finally:
        store.close()
    raise AssertionError("no marker was placed through the HTTP API")


def test_the_terminal_offers_the_target_decision_by_number():
    from dustup_env.terminal import HumanAgent
    g = _granted()
    d = g.decision()
    out = io.StringIO()
    agent = HumanAgent(0, inp=io.StringIO("2\n"), out=out)
    assert agent.choose(g, d) == d.options[1]
    assert "place the target marker at" in out.getvalue()


def test_the_observer_role_service_and_the_sighted_points_are_plain():
    g = _granted()
    assert g.rules.services["observer_role"](g, 0) == "fo" and fsr.observer_role(g, 1) == "other"
    pts = fsr.sighted_points(g, g.units[0])
    assert pts and all(isinstance(v, float) for p in pts for v in p)
    assert np.all(np.isfinite(np.array(pts)))
