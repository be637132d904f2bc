"""The analysis for front-ends (agents/analysis.py; the protocol's ``analyze``, ``stop``, ``set``, ``hint``; the
HTTP server's ``POST /games/ID/analyze``): the answer's shape, its budget, its fairness (the same answer whatever
the side cannot know), ``stop``, streaming, time controls and the ``strength`` setting.  Small budgets
(20..50 playouts) throughout."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from agents.analysis import analyze
from agents.hard import HardAgent
from agents.mcts import MctsAgent
from dustup_env.agent_registry import make_agent
from dustup_env.rules import Game, load_scenario
from dustup_env.service.session import ServiceError, Session
from service_helpers import EngineProcess

ROOT = Path(__file__).resolve().parent.parent
KEYS = {"intermediate", "side", "playouts", "ms", "stopped", "option", "label", "win", "margin", "options"}
OPTION_KEYS = {"option", "label", "visits", "value", "win", "margin", "pv"}


def _midgame(scenario="skirmish", seed=3, steps=15):
    g = Game(scenario, seed=seed)
    h = HardAgent(seed=1)
    for _ in range(steps):
        d = g.decision()
        g.apply(h.choose(g, d))
    while len(g.decision().options) < 2:
        g.apply(g.decision().options[0])
    return g


def _same(a: dict, b: dict) -> bool:
    strip = lambda r: {k: v for k, v in r.items() if k != "ms"}  # noqa: E731
    return strip(a) == strip(b)


# ---------------------------------------------------------------------------------------------- the API
def test_the_answer_has_its_shape_and_labels_options_as_the_protocol_does():
    g = _midgame()
    d = g.decision()
    r = analyze(MctsAgent(seed=4), g, playouts=30, top=3)
    assert set(r) == KEYS and r["playouts"] == 30 and not r["stopped"] and not r["intermediate"]
    assert r["side"] == d.side and 1 <= len(r["options"]) <= 3
    s = Session(g, ai=None, ai_side=None, ai_seed=0)
    labels = {tuple(o["option"]): o["label"] for o in s.decision(d.side)["options"]}
    for o in r["options"]:
        assert set(o) == OPTION_KEYS
        assert labels[tuple(o["option"])] == o["label"]  # labelled as the protocol labels the decision's options
        assert 0.0 <= o["win"] <= 1.0 and 0.0 <= o["value"] <= 1.0 and o["visits"] >= 1
        assert o["pv"][0]["option"] == o["option"] and o["pv"][0]["side"] == d.side
    assert r["option"] == r["options"][0]["option"] and r["win"] == r["options"][0]["win"]
    assert sum(o["visits"] for o in analyze(MctsAgent(seed=4), g, playouts=30, top=50)["options"]) == 30
    # the analysis's choice is the agent's own choice with the same seed and budget
    assert tuple(r["option"]) == MctsAgent(seed=4, playouts=30).choose(g, d)


def test_a_time_budget_is_kept_within_ten_percent():
    """The answer arrives within the budget plus 10% (plus 50 ms of slack for a loaded machine's scheduler)."""
    g = _midgame("default")
    for budget in (0.3, 0.6):
        t0 = time.perf_counter()
        r = analyze(MctsAgent(seed=2), g, seconds=budget, top=5)
        wall = time.perf_counter() - t0
        assert wall <= 1.1 * budget + 0.05, f"{wall:.3f} s for a budget of {budget} s"
        assert r["playouts"] >= 1


def test_the_answer_is_the_same_whatever_the_future_dice():
    """With a playout budget, a game and its copy with other future dice get the same answer."""
    g = _midgame()
    other = g.clone(reseed=987654321)
    a = analyze(MctsAgent(seed=8), g, playouts=25, top=5)
    b = analyze(MctsAgent(seed=8), other, playouts=25, top=5)
    assert _same(a, b)
    assert _same(a, analyze(MctsAgent(seed=8), g, playouts=25, top=5))  # and deterministic


def _hidden_pair():
    """Two skirmish games differing only in which of Red's markers hides its unit Yankee."""
    wood, hut = [10.5, 19.5], [21.5, 25.5]
    docs = []
    for real, dummy in ((wood, hut), (hut, wood)):
        d = json.loads(json.dumps(load_scenario("skirmish")))
        d["sides"][1]["units"][1].update(position=list(real), hidden=True)
        d["sides"][1]["dummies"] = [list(dummy)]
        docs.append(d)
    return docs


def test_the_answer_is_the_same_whatever_the_hidden_truth():
    answers = []
    for doc in _hidden_pair():
        s = Session.new(doc, seed=12, ai=None)
        rng_pick = 0
        while True:  # Blue takes its first options, Red keeps still, up to Blue's first action with a choice
            d = s.game.decision()
            if d.side == 0 and d.kind == "action" and len(d.options) > 2:
                break
            opts = [list(o) for o in d.options]
            pick = opts[rng_pick % len(opts)] if d.side == 0 else next(
                (o for o in opts if o[0] in ("end", "pass", "first", "stay", "decline")), opts[0])
            s.play(d.side, pick)
        answers.append(s.analyze(0, playouts=25, top=5))
    assert _same(answers[0], answers[1])


def test_stop_ends_the_analysis_with_the_best_so_far_and_updates_stream():
    g = _midgame()
    polls = []
    updates = []
    r = analyze(MctsAgent(seed=1), g, seconds=30, top=3, stop=lambda: polls.append(1) or len(polls) > 12,
                on_update=updates.append, every=0.0)
    assert r["stopped"] and r["playouts"] == 12 and not r["intermediate"]
    assert updates and all(u["intermediate"] and set(u) == KEYS for u in updates)
    assert [u["playouts"] for u in updates] == list(range(1, 13))


def test_a_doctrine_cannot_analyse_and_bad_requests_are_refused():
    s = Session.new("skirmish", seed=2, ai="hard")
    for kw, frag in (({"playouts": 0}, "playouts must be in 1..100000"), ({"time_ms": 0}, "time_ms must be"),
                     ({"playouts": 5, "time_ms": 5}, "not both"), ({"top": 0}, "top must be in 1..50"),
                     ({"agent": "hard"}, "cannot analyse"), ({"interval_ms": 1}, "interval_ms must be"),
                     ({"agent": "grandmaster"}, "unknown agent")):
        with pytest.raises(ServiceError, match=re.escape(frag)):
            s.analyze(0, **kw)
    with pytest.raises(ServiceError, match="played by the AI"):
        s.analyze(1, playouts=5)


# ---------------------------------------------------------------------------------------------- time controls
def _timed(agent, log):
    choose = agent.choose

    def timed(game, decision):
        t0 = time.perf_counter()
        out = choose(game, decision)
        if len(decision.options) > 1:
            log.append((time.perf_counter() - t0, agent.settings["time"]))
        return out

    agent.choose = timed


def test_movetime_bounds_the_ais_decisions():
    s = Session.new("skirmish", seed=5, ai="mcts", you=0, movetime_ms=150)
    log = []
    _timed(s.agent, log)
    for _ in range(12):
        d = s.game.decision()
        if s.game.over:
            break
        s.play(0, list(d.options[0]))
    assert log and all(budget == pytest.approx(0.15) for _, budget in log)
    # within the budget + 10% (20 ms of slack for the scheduler); a loaded machine may delay one decision
    late = [t for t, _ in log if t > 0.15 * 1.1 + 0.02]
    assert len(late) <= 1 and max(t for t, _ in log) <= 2 * 0.15 + 0.1, log
    assert s.settings()["time_control"] == {"movetime_ms": 150.0}
    s.configure(movetime_ms=None, fields=("movetime_ms",))  # removed: the agent's own time a decision again
    assert "time_control" not in s.settings() and s.agent.settings["time"] == 1.0


def test_the_clock_is_spent_sensibly_and_reported():
    s = Session.new("skirmish", seed=5, ai="mcts", you=0, clock={"time_ms": 4000, "increment_ms": 50})
    log = []
    _timed(s.agent, log)
    r = None
    for _ in range(12):
        d = s.game.decision()
        if s.game.over:
            break
        r = s.play(0, list(d.options[0]))
    ai_left = r["clock_ms"][1]
    assert log and 0 < ai_left < 4000 + 50 * len(log)
    # each budget: at most half the time left, about time left / decisions expected + most of the increment
    assert all(b <= 2.0 + 0.001 for _, b in log) and max(b for _, b in log) < 1.0
    assert s.state(0)["clock_ms"] == [round(t) for t in s.time_control["clock_ms"]]


def test_time_control_and_strength_are_checked():
    for kw, frag in (({"movetime_ms": 0}, "movetime_ms must be"), ({"clock": {"time_ms": 0}}, "clock.time_ms"),
                     ({"clock": {"increment_ms": 5}}, "missing field 'time_ms'"),
                     ({"clock": {"time_ms": 9, "bonus": 1}}, "unknown field 'bonus'"),
                     ({"clock": 5}, "clock must be an object"),
                     ({"movetime_ms": 10, "clock": {"time_ms": 9}}, "not both"), ({"strength": 0}, "strength must be"),
                     ({"strength": 9}, "strength must be in 1..8")):
        with pytest.raises(ServiceError, match=re.escape(frag)):
            Session.new("skirmish", seed=1, **kw)


def test_strength_names_a_level(monkeypatch):
    """``strength: N`` plays the agent ``level:N`` of the registry (agents/levels.py registers ``level``); while no
    ``level`` is registered it says so in one line."""
    from dustup_env import agent_registry
    try:
        make_agent("level:2")
    except ValueError:
        with pytest.raises(ServiceError, match=r"strength levels \(agent 'level:2'\) are not installed"):
            Session.new("skirmish", seed=1, strength=2)

        def level(n, seed=0):  # a stand-in for the strength levels: level N is easy
            return make_agent("easy", seed=seed)
        level.agent_argument = "N"
        monkeypatch.setitem(agent_registry.AGENTS, "level", level)
    s = Session.new("skirmish", seed=1, strength=2)
    assert s.ai == "level:2" and s.settings()["ai"] == "level:2"
    s.configure(strength=3, fields=("strength",))
    assert s.ai == "level:3" and s.ai_from == len(s.decisions)


# ---------------------------------------------------------------------------------------------- the protocol
def test_protocol_analyze_stream_stop_set_and_hint_in_a_real_engine():
    eng = EngineProcess()
    try:
        r = eng.ask(cmd="new", scenario="skirmish", seed=3, id=1)
        assert r["ok"]
        a = eng.ask(cmd="analyze", playouts=20, top=2, id=2)
        assert a["ok"] and a["id"] == 2 and set(a) == KEYS | {"ok", "id", "agent"} and a["playouts"] == 20
        assert a["agent"] == "mcts" and len(a["options"]) <= 2
        b = eng.ask(cmd="analyze", playouts=20, top=2, id=2)
        assert _same(a, b)  # deterministic
        t0 = time.perf_counter()  # a time budget, request to answer: within the budget + 10% (+ 0.1 s of slack)
        assert eng.ask(cmd="analyze", time_ms=400)["ok"] and time.perf_counter() - t0 <= 1.1 * 0.4 + 0.1
        # streaming, then a stop while it runs: the final answer (stopped), then the stop's own answer
        eng.send_raw(b'{"cmd": "analyze", "time_ms": 30000, "stream": true, "interval_ms": 50, "id": 3}\n')
        t0 = time.monotonic()
        first = json.loads(eng.read_line())
        assert first["ok"] and first["intermediate"] and first["id"] == 3
        eng.send_raw(b'{"cmd": "stop", "id": 4}\n{"cmd": "decision", "id": 5}\n')
        lines = []
        while True:
            x = json.loads(eng.read_line())
            lines.append(x)
            if not x.get("intermediate"):
                break
        final = lines[-1]
        assert final["id"] == 3 and final["stopped"] and time.monotonic() - t0 < 15
        assert json.loads(eng.read_line()) == {"ok": True, "id": 4, "stopped": True}
        assert json.loads(eng.read_line())["id"] == 5  # a line sent during the analysis is answered after it
        assert eng.ask(cmd="stop", id=6) == {"ok": True, "id": 6, "stopped": False}
        h = eng.ask(cmd="hint", agent="mcts:playouts=20", time_ms=5000, id=7)
        assert h["ok"] and h["agent"] == "mcts:playouts=20" and {"win", "margin", "pv", "visits"} <= set(h)
        s = eng.ask(cmd="set", clock={"time_ms": 60000, "increment_ms": 500}, id=8)
        assert s["ok"] and s["game"]["time_control"] == {"clock_ms": [60000, 60000], "increment_ms": 500.0}
        for req, frag in (({"cmd": "analyze", "stream": "yes"}, "field 'stream' must be true or false"),
                          ({"cmd": "analyze", "top": 0}, "top must be in 1..50"),
                          ({"cmd": "set"}, "set: give strength, movetime_ms or clock"),
                          ({"cmd": "new", "ai": "hard", "strength": 3}, "not both"),
                          ({"cmd": "stop", "now": True}, "stop: unknown field 'now'")):
            x = eng.ask(**req)
            assert not x["ok"] and frag in x["error"], (req, x)
        assert eng.ask(cmd="quit") == {"ok": True, "bye": True}
        assert eng.p.wait(20) == 0
    finally:
        eng.close()


def _doc_section(path: str, title: str) -> str:
    text = (ROOT / path).read_text()
    a = text.index(title)
    b = text.find("\n## ", a + 1)
    return text[a:b if b > 0 else len(text)]


def test_the_win_probability_weighs_the_margin_by_the_turn():
    """``win`` maps the option's value and its playouts' mean margin, that margin weighing more as the game goes on
    (agents/analysis.py: ``WIN_C + WIN_D * t``, ``t`` the turn over the turn limit)."""
    from agents import analysis as an
    assert an.played(3, 6) == 0.5 and an.played(7, 6) == 1.0 and an.played(1, 0) == 0.0
    assert an.win_probability(0.6, 1.0, 1.0) > an.win_probability(0.6, 1.0, 0.2) > an.win_probability(0.6, 0.0, 0.2)
    assert an.win_probability(0.4, -1.0, 1.0) < an.win_probability(0.4, -1.0, 0.2)
    g = _midgame(steps=40)
    assert 1 < g.turn < g.turn_limit
    r = analyze(MctsAgent(seed=4), g, playouts=30, top=5)
    assert any(abs(o["margin"]) >= 0.1 for o in r["options"])
    for o in r["options"]:  # the answer's margin is the playouts' mean (MARGIN_A 1, MARGIN_B 0), rounded
        assert o["win"] == pytest.approx(an.win_probability(o["value"], o["margin"], g.turn / g.turn_limit), abs=3e-3)


def test_the_protocol_docs_analysis_example_runs_as_written():
    """Every request line (``>``) of the example in docs/protocol.md's "Analysis" section, sent to a real
    engine, is answered ok with the keys the example's answer (``<``) shows."""
    block = re.search(r"```text\n(.*?)```", _doc_section("docs/protocol.md", "## Analysis"), re.S).group(1)
    eng = EngineProcess()
    try:
        answered, budgets = 0, {}
        for line in block.splitlines():
            if line.startswith("> "):
                req = json.loads(line[2:])
                budgets[req.get("id")] = req.get("playouts")
                eng.send_raw(line[2:].encode() + b"\n")
                continue
            if not line.startswith("< "):
                continue
            shown = json.loads(line[2:])
            got = json.loads(eng.read_line())
            while got.get("intermediate") and not shown.get("intermediate"):  # more intermediate lines than shown
                got = json.loads(eng.read_line())
            assert got["ok"] and set(shown) <= set(got), (line, got)
            for k in ("id", "intermediate", "stopped", "agent", "bye"):
                if k in shown:
                    assert got[k] == shown[k], (k, got[k], shown[k])
            if budgets.get(shown.get("id")):  # a playout budget: the answer is the one shown
                assert got["playouts"] == shown["playouts"] and got["options"] == shown["options"]
            answered += 1
        assert answered >= 4
    finally:
        eng.close(quit_=False)


# ---------------------------------------------------------------------------------------------- HTTP
@pytest.fixture(scope="module")
def live(tmp_path_factory):
    from test_server import Live
    srv = Live(str(tmp_path_factory.mktemp("analysis") / "games.db"))
    yield srv
    srv.close()


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_http_analyze_stream_stop_and_bad_requests(live):
    c = live.client
    g = c.post("/games", json={"scenario": "skirmish", "seed": 3, "ai": "hard", "movetime_ms": 200}).json()
    gid, tok = g["game"], g["token"]
    a = c.post(f"/games/{gid}/analyze", headers=_auth(tok), json={"playouts": 20, "top": 2})
    assert a.status_code == 200, a.text
    a = a.json()
    assert set(a) == KEYS | {"agent"} and a["playouts"] == 20 and len(a["options"]) <= 2
    # the same answer as the protocol's for the same game, decision and budget
    e = Session.new("skirmish", seed=3, ai="hard")
    assert _same(a, e.analyze(0, playouts=20, top=2))
    # streamed: newline-delimited JSON, intermediate lines then the final one; a stop ends it early
    t0 = time.monotonic()
    with c.stream("POST", f"/games/{gid}/analyze", headers=_auth(tok),
                  json={"time_ms": 30000, "stream": True, "interval_ms": 50}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
        lines = []
        for raw in r.iter_lines():
            if not raw:
                continue
            x = json.loads(raw)
            lines.append(x)
            if len(lines) == 2:
                assert c.post(f"/games/{gid}/analyze/stop", headers=_auth(tok)).json() == {"stopped": True}
    assert lines[0]["intermediate"] and lines[-1]["stopped"] and not lines[-1]["intermediate"]
    assert all(x["intermediate"] for x in lines[:-1]) and time.monotonic() - t0 < 15
    assert c.post(f"/games/{gid}/analyze/stop", headers=_auth(tok)).json() == {"stopped": False}
    for body, status, frag in (({"top": 0}, 400, "top must be in 1..50"),
                               ({"playouts": 5, "time_ms": 5}, 400, "not both"),
                               ({"stream": "yes"}, 400, "stream must be true or false"),
                               ({"playouts": "many"}, 400, "playouts must be an integer"),
                               ({"agent": "hard"}, 400, "cannot analyse"),
                               ({"depth": 3}, 422, "unknown field 'depth'")):
        r = c.post(f"/games/{gid}/analyze", headers=_auth(tok), json=body)
        assert r.status_code == status and frag in r.json()["error"], (body, r.status_code, r.text)
    assert c.post(f"/games/{gid}/analyze", json={"playouts": 5}).status_code == 401
    for body, frag in (({"strength": 0}, "strength must be in 1..8"), ({"movetime_ms": -1}, "movetime_ms must be"),
                       ({"clock": {"time_ms": "x"}}, "clock.time_ms must be"),
                       ({"ai": "hard", "strength": 2}, "not both")):
        r = c.post("/games", json={"scenario": "skirmish", "seed": 1, **body})
        assert r.status_code == 400 and frag in r.json()["error"], (body, r.text)
    r = c.post("/games", json={"scenario": "skirmish", "seed": 1, "clock": {"time_ms": 60000, "increment_ms": 1000}})
    assert r.status_code == 201
    st = c.get(f"/games/{r.json()['game']}", headers=_auth(r.json()["token"])).json()
    assert st["clock_ms"][0] <= 60000 + 1000 and st["clock_ms"][1] > 0


def test_the_server_docs_analysis_example_runs_as_written(live):
    """The requests of the example in docs/server.md's "Analysis" section, on the game it names, get the statuses
    and the kinds of answer it shows."""
    section = _doc_section("docs/server.md", "## Analysis")
    create = json.loads(re.search(r"For a game created with `(\{.*?\})`", section).group(1))
    block = re.search(r"```text\n(.*?)```", section, re.S).group(1).splitlines()
    c = live.client
    g = c.post("/games", json=create).json()
    path = lambda p: p.replace("/games/ID/", f"/games/{g['game']}/")  # noqa: E731
    posts = [(i, ln.split(" ", 2)) for i, ln in enumerate(block) if ln.startswith("POST ")]
    (_, (_, p1, b1)), (_, (_, p2, b2)), (_, (_, p3, _)) = posts
    r = c.post(path(p1), headers=_auth(g["token"]), json=json.loads(b1))
    assert r.status_code == 200 and r.json()["playouts"] == json.loads(b1)["playouts"]
    shown = block[posts[0][0] + 1]
    assert r.json()["option"] == json.loads(shown[4:].replace(',"options":[...]', ""))["option"]
    with c.stream("POST", path(p2), headers=_auth(g["token"]), json=json.loads(b2)) as s:
        assert s.status_code == 200 and s.headers["content-type"].startswith("application/x-ndjson")
        got = []
        for raw in s.iter_lines():
            if raw:
                got.append(json.loads(raw))
                if len(got) == 1:
                    assert c.post(path(p3), headers=_auth(g["token"]), json={}).json() == {"stopped": True}
    assert got[0]["intermediate"] and got[-1]["stopped"] and not got[-1]["intermediate"]


# ---------------------------------------------------------------------------------------------- calibration
def test_the_calibration_benchmark_keeps_the_suite_held_out_and_resumes(tmp_path, capsys):
    """benchmarks/analysis_calibration.py: a builder seed of the held-out suite is refused (one line), the suite's
    positions never fitted; a run saves its positions with the search's raw numbers, ``--resume`` continues it
    with the same first positions, and ``--from`` reports it again."""
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import analysis_calibration as ac
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert ac.main(["--scenarios", "default,build:240105"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "held-out suite" in err, err
    for argv in (["--suite", "--fit"], ["--resume"], ["--positions", "0"]):
        with pytest.raises(SystemExit) as e:
            ac.main(argv)
        assert e.value.code == 2
    assert [n for n, _ in ac.scenarios_of("", suite=True)] == [f"bench-{i:02d}" for i in range(1, 13)]
    big = dict(ac.scenarios_of("build:7013:150:96x72"))["build:7013:150:96x72"]
    assert Game(big, seed=0).scenario["table"] == {"width": 96, "height": 72}
    # the --with options: by default BUILD_WITH[SEED % 9] (7013: heavy weapons), else named (+), or none
    units = {}
    for spec in ("build:7013:120:96x48", "build:7013:120:96x48:vehicles+power_armour", "build:7013:120:96x48:none"):
        units[spec] = [u for s in dict(ac.scenarios_of(spec))[spec]["sides"] for u in s["units"]]
    heavy, vehicles, plain = units.values()
    assert any("heavy_weapon" in u for u in heavy) and not any("design" in u for u in heavy)
    assert any("design" in u for u in vehicles) and not any("heavy_weapon" in u for u in vehicles)
    assert not any("design" in u or "heavy_weapon" in u for u in plain)
    for bad in ("build:x", "build:7013:150:96", "build:240111:150:96x72", "build:7013:150:96x72:nukes",
                "build:7013:150:96x72:none:x"):
        with pytest.raises(ac.CalibrationError):
            ac.scenarios_of(bad)
    out = str(tmp_path / "c.json")
    small = ["--scenarios", "skirmish,build:7002", "--playouts", "4", "--rate", "0.3", "--out", out]
    assert ac.main(small + ["--positions", "3"]) == 0
    first = json.loads(Path(out).read_text())
    assert len(first["positions"]) == 3 and not first["suite"]
    assert {"value", "leaf_margin", "score", "final_margin", "turn", "turn_limit"} <= set(first["positions"][0])
    assert ac.main(small + ["--positions", "6", "--resume"]) == 0
    second = json.loads(Path(out).read_text())
    assert second["positions"][:3] == first["positions"] and len(second["positions"]) == 6
    assert second["games"] >= first["games"]
    # the same positions as a run of 6 from the start (the first run's last game, cut short, is played again)
    fresh = str(tmp_path / "f.json")
    assert ac.main(small[:-1] + [fresh, "--positions", "6"]) == 0
    assert json.loads(Path(fresh).read_text())["positions"] == second["positions"]
    capsys.readouterr()
    assert ac.main(["--from", out]) == 0
    one = capsys.readouterr().out
    assert "6 positions from" in one
    games = int(re.search(r"6 positions from (\d+) games", one).group(1))
    # several runs reported together, their games kept apart; a file that is no saved run: one line
    assert ac.main(["--from", f"{out},{fresh}"]) == 0
    assert f"12 positions from {2 * games} games" in capsys.readouterr().out
    assert ac.main(["--from", f"{out},{tmp_path / 'none.json'}"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "none.json" in err, err
