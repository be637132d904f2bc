"""``dustup serve``: the HTTP API, tokens, errors, hidden information, per-game locking, a SIGKILL and restart
mid-game (games continue exactly), Ctrl-C, and 50 concurrent games played by 8 client threads."""
from __future__ import annotations

import json
import random
import signal
import statistics
import threading
import time

import httpx
import pytest
import uvicorn

from agents.base import AGENTS, Agent
from dustup_env.service import loadtest
from dustup_env.service.server import MAX_BODY_BYTES, create_app
from dustup_env.service.session import Session
from dustup_env.service.store import Store
from service_helpers import ServerProcess

BUSY_S = 0.6


class BusyAgent(Agent):
    """Thinks (a pure-Python busy loop holding the interpreter) for BUSY_S seconds per decision."""

    name = "busy"

    def choose(self, game, decision):
        end = time.perf_counter() + BUSY_S
        x = 0
        while time.perf_counter() < end:
            x += 1
        return decision.options[0]


class Live:
    """The app served by a real uvicorn (in a thread of this process) on a temporary SQLite file."""

    def __init__(self, db: str):
        AGENTS["busy"] = BusyAgent
        self.store = Store(db)
        self.app = create_app(self.store, allow_agents=("busy",))
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.client = httpx.Client(base_url=self.url, timeout=60)

    def close(self):
        self.client.close()
        self.server.should_exit = True
        self.thread.join(10)
        self.store.close()
        AGENTS.pop("busy", None)


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    lv = Live(str(tmp_path_factory.mktemp("db") / "games.db"))
    yield lv
    lv.close()


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def stored_decisions(store: Store, game: str) -> int:
    return len(store.load(game)["decisions"])


# ---------------------------------------------------------------------------------------------- the API
def test_api_plays_a_game_and_refuses_bad_requests(live):
    c = live.client
    info = c.get("/info").json()
    assert {"hard", "ppo"} <= set(info["agents"]) and info["protocol"] == 1
    r = c.post("/games", json={"scenario": "skirmish", "seed": 4, "ai": "hard", "side": 1})
    assert r.status_code == 201, r.text
    g = r.json()
    gid, tok = g["game"], g["token"]
    assert g["side"] == 1 and "tokens" not in g
    other = c.post("/games", json={"scenario": "skirmish", "seed": 5, "ai": "hard", "side": 0}).json()
    st = c.get(f"/games/{gid}", headers=auth(tok)).json()
    assert st["side"] == 1 and st["view"]["table"]["width"] == 36 and st["over"] is False
    assert st["decision"]["side"] == 1 and st["decision"]["options"]

    def unchanged(check):
        before = (c.get(f"/games/{gid}", headers=auth(tok)).json(), stored_decisions(live.store, gid))
        check()
        after = (c.get(f"/games/{gid}", headers=auth(tok)).json(), stored_decisions(live.store, gid))
        assert after == before

    legal = st["decision"]["options"][0]["option"]
    cases = [  # (method, path, headers, body or raw, status, fragment)
        ("get", f"/games/{gid}", {}, None, 401, "missing token"),
        ("get", f"/games/{gid}", {"Authorization": "Basic abc"}, None, 401, "malformed Authorization"),
        ("get", f"/games/{gid}", auth("not-a-token"), None, 401, "unknown token"),
        ("get", f"/games/{gid}", auth(other["token"]), None, 401, "unknown token"),  # another game's token
        ("post", f"/games/{gid}/play", auth(other["token"]), {"option": legal}, 401, "unknown token"),
        ("get", "/games/nosuchgame", auth(tok), None, 404, "no game 'nosuchgame'"),
        ("post", "/games/nosuchgame/play", auth(tok), {"option": legal}, 404, "no game"),
        ("post", f"/games/{gid}/play", auth(tok), {"option": ["fly"]}, 400, "is not one of the"),
        ("post", f"/games/{gid}/play", auth(tok), {"option": "end"}, 400, "option must be an array"),
        ("post", f"/games/{gid}/play", auth(tok), {"option": ["move", 1.5, 0]}, 400, "is not one of the"),
        ("post", f"/games/{gid}/play", auth(tok), {"option": ["move", {"x": 1}, 0]}, 400, "option element 1"),
        ("post", f"/games/{gid}/play", auth(tok), {}, 422, "missing field 'option'"),
        ("post", f"/games/{gid}/play", auth(tok), {"option": legal, "x": 1}, 422, "unknown field 'x'"),
        ("post", f"/games/{gid}/play", auth(tok), b"{not json", 422, "malformed JSON"),
        ("get", f"/games/{gid}/events?since=-1", auth(tok), None, 400, "since must be >= 0"),
        ("get", f"/games/{gid}/events?since=abc", auth(tok), None, 400, 'since must be an integer, not "abc"'),
        ("get", f"/games/{gid}/events?since=99999", auth(tok), None, 400, "past the end"),
        ("post", f"/games/{gid}/hint", auth(tok), {"time_ms": 0}, 400, "time_ms must be"),
        ("post", f"/games/{gid}/hint", auth(tok), {"agent": "policy:/etc/passwd"}, 400, "unknown agent"),
        ("get", f"/games/{gid}/save", auth(tok), None, 409, "once the game is over"),
    ]
    for method, path, headers, body, status, frag in cases:
        def check():
            if isinstance(body, bytes):
                r = c.request(method, path, headers={**headers, "Content-Type": "application/json"}, content=body)
            else:
                r = c.request(method, path, headers=headers, json=body)
            assert r.status_code == status, (path, body, r.status_code, r.text)
            assert frag in r.json()["error"], (path, body, r.json())
        unchanged(check)
    # creating games: bad settings (nothing created); files are never read from the server's disk
    n = live.store.count()
    for body, frag in [({"scenario": "nowhere"}, "unknown scenario"),
                       ({"scenario": "/etc/passwd.json"}, "unknown scenario"),
                       ({"ai": "policy:/tmp/x.zip"}, "unknown agent"),
                       ({"options": {"courage_table": "/etc/passwd"}}, "courage_table"),
                       ({"side": 3}, "side must be 0 or 1, not 3"), ({"seed": "x"}, "seed must be an integer"),
                       ({"options": {"turbo": 1}}, "unknown game option"), ({"bogus": 1}, "bogus")]:
        r = c.post("/games", json=body)
        assert r.status_code in (400, 422) and frag in r.json()["error"], (body, r.text)
    assert live.store.count() == n
    # play it out; events from the play responses are the whole log
    rng = random.Random(3)
    got = c.get(f"/games/{gid}/events", headers=auth(tok)).json()
    events, nxt = got["events"], got["next"]
    hint = c.post(f"/games/{gid}/hint", headers=auth(tok), json={"time_ms": 2000}).json()
    assert hint["complete"] and hint["option"] in [o["option"] for o in st["decision"]["options"]]
    while True:
        st = c.get(f"/games/{gid}", headers=auth(tok)).json()
        if st["over"]:
            break
        r = c.post(f"/games/{gid}/play", headers=auth(tok), json={"option": rng.choice(st["decision"]["options"])["option"]})
        assert r.status_code == 200, r.text
        out = r.json()
        assert [e["index"] for e in out["events"]] == list(range(nxt, out["next"]))
        events += out["events"]
        nxt = out["next"]
    assert c.get(f"/games/{gid}/events", headers=auth(tok)).json()["events"] == events
    r = c.post(f"/games/{gid}/play", headers=auth(tok), json={"option": ["end"]})
    assert r.status_code == 409 and "the game is over" in r.json()["error"]
    save = c.get(f"/games/{gid}/save", headers=auth(tok)).json()
    assert save["format"] == "dustup-save" and len(save["decisions"]) == stored_decisions(live.store, gid)
    # the replay page's frames: one per decision, the last one ends the game
    rep = c.post("/replay", json={"save": save}).json()
    assert len(rep["frames"]) == len(save["decisions"]) + 1 and rep["result"]["winner"] == st["result"]["winner"]
    assert rep["frames"][-1]["events"][-1]["type"] == "GameEnded"
    assert sum(len(f["events"]) for f in rep["frames"]) >= len(events)
    bad = dict(save, digest="0" * 16)
    r = c.post("/replay", json={"save": bad})
    assert r.status_code == 400 and "digest" in r.json()["error"]


def _error_shape(r, status: int, frag: str, what=None):
    """The one error shape: ``{"ok": false, "error": "one line"}`` as JSON, with the status expected."""
    assert r.status_code == status, (what, r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json"), (what, r.headers)
    body = r.json()
    assert set(body) == {"ok", "error"} and body["ok"] is False, (what, body)
    err = body["error"]
    assert isinstance(err, str) and err and "\n" not in err and "Traceback" not in err, (what, err)
    assert frag in err, (what, err)
    assert "null null" not in err and "you must" not in err, (what, err)


def test_every_kind_of_bad_request_gets_the_one_error_shape(live):
    """400 (a field's value), 401, 403, 404 (no game, no path), 405, 409, 413, 422 (the body's form): every
    error is {"ok": false, "error": ...} naming the request's own fields (side, option, agent, since)."""
    c = live.client
    g = c.post("/games", json={"scenario": "skirmish", "seed": 21, "ai": None}).json()
    gid, toks = g["game"], g["tokens"]
    st = [c.get(f"/games/{gid}", headers=auth(t)).json() for t in toks]
    s = 0 if st[0]["decision"] else 1
    tok, legal = toks[s], st[s]["decision"]["options"][0]["option"]
    js = {"Content-Type": "application/json"}
    cases = [  # (method, path, headers, json body or raw bytes, status, fragment)
        ("post", "/games", {}, {"side": 3}, 400, "side must be 0 or 1, not 3"),
        ("post", "/games", {}, {"side": None}, 400, "side must be 0 or 1, not null"),
        ("post", "/games", {}, {"seed": "x"}, 400, 'seed must be an integer, not a string "x"'),
        ("post", "/games", {}, {"ai_seed": -1}, 400, "ai_seed must be in"),
        ("post", "/games", {}, {"options": {"turbo": 1}}, 400, "turbo"),
        ("post", f"/games/{gid}/play", auth(tok), {"option": None}, 400, 'option must be an array such as ["move", 0, 1], not null'),
        ("post", f"/games/{gid}/play", auth(tok), {"option": ["move", None]}, 400, "option element 1 must be an integer or a string, not null"),
        ("post", f"/games/{gid}/play", auth(tok), {"option": ["fly"]}, 400, "is not one of the"),
        ("post", f"/games/{gid}/hint", auth(tok), {"agent": 5}, 400, "agent must be an agent name"),
        ("post", f"/games/{gid}/hint", auth(tok), {"agent": ""}, 400, "agent must be an agent name"),
        ("get", f"/games/{gid}/events?since=abc", auth(tok), None, 400, 'since must be an integer, not "abc"'),
        ("get", f"/games/{gid}/events?since=-1", auth(tok), None, 400, "since must be >= 0"),
        ("post", "/replay", {}, {"save": 3}, 400, "save must be a save object"),
        ("get", f"/games/{gid}", {}, None, 401, "missing token"),
        ("post", f"/games/{gid}/play", auth(toks[1 - s]), {"option": legal}, 403, "it is not side"),
        ("get", "/games/nosuchgame", auth(tok), None, 404, "no game 'nosuchgame'"),
        ("get", "/nowhere", {}, None, 404, "no such path: GET /nowhere"),
        ("get", "/static/nothing.js", {}, None, 404, "no such path"),
        ("delete", f"/games/{gid}", auth(tok), None, 405, "DELETE is not allowed on"),
        ("put", "/games", {}, {}, 405, "PUT is not allowed on /games: use POST"),
        ("get", f"/games/{gid}/save", auth(tok), None, 409, "once the game is over"),
        ("post", "/games", js, b"{not json", 422, "malformed JSON"),
        ("post", "/games", js, b'{"scenario": "\xff"}', 422, "malformed JSON: not UTF-8"),
        ("post", "/games", js, b"[" * 50_000, 422, "malformed JSON: nested too deeply"),
        ("post", "/games", js, b"[1, 2]", 422, "the body must be a JSON object, not an array"),
        ("post", "/games", js, b"", 422, "the body is missing"),
        ("post", "/games", {"Content-Type": "text/plain"}, b"{}", 422, "Content-Type: application/json"),
        ("post", "/games", {}, {"bogus": 1}, 422, "unknown field 'bogus' (fields: scenario, seed, options, ai, side, ai_seed, strength, movetime_ms, clock)"),
        ("post", f"/games/{gid}/play", auth(tok), {}, 422, "missing field 'option'"),
        ("post", "/replay", {}, {}, 422, "missing field 'save'"),
        ("post", "/games", js, b" " * (MAX_BODY_BYTES + 1), 413, f"the server takes at most {MAX_BODY_BYTES:,} bytes"),
    ]
    n = live.store.count()
    for method, path, headers, body, status, frag in cases:
        if isinstance(body, bytes):
            r = c.request(method, path, headers=headers, content=body)
        else:
            r = c.request(method, path, headers=headers, json=body)
        _error_shape(r, status, frag, (method, path, body if not isinstance(body, bytes) else body[:30]))
        if status == 405:
            assert r.headers.get("allow"), r.headers
    assert live.store.count() == n


def test_an_unexpected_server_error_is_a_500_in_the_same_shape(live):
    def boom():
        raise RuntimeError("a bug with /secret/details")

    live.app.add_api_route("/boom-for-the-test", boom, include_in_schema=False)
    r = live.client.get("/boom-for-the-test")
    _error_shape(r, 500, "internal server error")
    assert "secret" not in r.text
    assert live.client.get("/info").status_code == 200  # the same kept-alive connection still serves


def test_the_openapi_document_describes_the_error_shape(live):
    doc = live.client.get("/openapi.json").json()
    assert "HTTPValidationError" not in json.dumps(doc)
    for code in ("400", "404", "413", "422", "500"):
        ref = doc["paths"]["/games/{game_id}/play"]["post"]["responses"][code]["content"]["application/json"]["schema"]
        assert ref["$ref"].endswith("/ErrorBody")


def test_two_players_each_act_for_their_own_side(live):
    c = live.client
    g = c.post("/games", json={"scenario": "skirmish", "seed": 9, "ai": None}).json()
    gid, toks = g["game"], g["tokens"]
    assert len(toks) == 2 and toks[0] != toks[1]
    sts = [c.get(f"/games/{gid}", headers=auth(t)).json() for t in toks]
    s = 0 if sts[0]["decision"] else 1
    assert sts[1 - s]["decision"] is None and sts[1 - s]["waiting_for"] == s
    before = stored_decisions(live.store, gid)
    r = c.post(f"/games/{gid}/play", headers=auth(toks[1 - s]), json={"option": sts[s]["decision"]["options"][0]["option"]})
    assert r.status_code == 403 and "not side" in r.json()["error"]  # the other side's token acting
    r = c.post(f"/games/{gid}/hint", headers=auth(toks[1 - s]), json={})
    assert r.status_code == 403
    assert stored_decisions(live.store, gid) == before
    r = c.post(f"/games/{gid}/play", headers=auth(toks[s]), json={"option": sts[s]["decision"]["options"][0]["option"]})
    assert r.status_code == 200 and stored_decisions(live.store, gid) == before + 1


# ---------------------------------------------------------------------------------------------- hidden information
def _hidden_pair():
    """Two skirmish games that differ only in which of Red's two markers (in the wood, in the hut) is its
    hidden unit Yankee and which is a dummy: Blue cannot tell them apart."""
    from dustup_env.rules import load_scenario
    wood, hut = [10.5, 19.5], [21.5, 25.5]
    docs = []
    for real, dummy in ((wood, hut), (hut, wood)):
        d = json.loads(json.dumps(load_scenario("skirmish")))
        yankee = d["sides"][1]["units"][1]
        yankee.update(position=list(real), hidden=True)
        d["sides"][1]["dummies"] = [list(dummy)]
        docs.append(d)
    return docs[0], docs[1], "Yankee"


def test_responses_do_not_depend_on_what_the_side_cannot_know():
    """Blue (a front-end, random options, never a Detect action) and Red (a front-end that keeps its hidden
    unit still) play two games differing only in where Red's hidden unit is: every response Blue gets
    (decisions with labels, views, events with narration) is identical in both games."""
    a, b, name = _hidden_pair()
    logs = []
    for scn in (a, b):
        s = Session.new(scn, seed=12, ai=None)
        rng = random.Random(5)
        out = []
        while not s.game.over:
            d = s.game.decision()
            if d.side == 0:
                st = s.state(0)
                out.append(json.dumps(st, sort_keys=True))
                opts = [o for o in st["decision"]["options"] if o["option"][0] != "detect"]
                r = s.play(0, rng.choice(opts)["option"])
                out.append(json.dumps(r, sort_keys=True))
            else:  # Red: whatever keeps every unit where it is (pass, or end each activation at once)
                opts = [list(o) for o in d.options]
                pick = next((o for o in opts if o[0] in ("end", "pass", "first", "stay", "decline", "hold_fire",
                                                           "stand", "halt")), opts[0])
                s.play(1, pick)
        out.append(json.dumps(s.events(0, 0), sort_keys=True))
        logs.append(out)
        assert any(u["name"] == name for u in s.state(0)["view"]["hidden_units"]) or s.game.over
    assert len(logs[0]) > 20
    for i, (x, y) in enumerate(zip(logs[0], logs[1])):
        assert x == y, f"Blue's response #{i} differs between the two games"
    assert len(logs[0]) == len(logs[1])


# ---------------------------------------------------------------------------------------------- locking
def test_an_ai_thinking_in_one_game_does_not_block_another(live):
    """While the AI of game A thinks (BUSY_S seconds of pure-Python work per decision), requests for game B
    are answered at once: the median and worst latency of GET /games/B stay far below the AI's thinking."""
    c = live.client
    a = c.post("/games", json={"scenario": "skirmish", "seed": 1, "ai": "hard", "side": 0}).json()
    b = c.post("/games", json={"scenario": "skirmish", "seed": 2, "ai": "hard", "side": 0}).json()
    # the busy AI plays game A's side 1 (created through the operator-allowed agent)
    busy = c.post("/games", json={"scenario": "skirmish", "seed": 3, "ai": "busy", "side": 0}).json()
    idle = []
    for _ in range(30):
        t0 = time.perf_counter()
        assert c.get(f"/games/{b['game']}", headers=auth(b["token"])).status_code == 200
        idle.append((time.perf_counter() - t0) * 1000)
    done = threading.Event()
    thinking = {}

    def play_busy():
        with httpx.Client(base_url=live.url, timeout=120) as cc:
            st = cc.get(f"/games/{busy['game']}", headers=auth(busy["token"])).json()
            t0 = time.perf_counter()
            plays = 0
            while time.perf_counter() - t0 < 4 * BUSY_S:  # the busy AI answers each of its decisions after BUSY_S
                st = cc.post(f"/games/{busy['game']}/play", headers=auth(busy["token"]),
                             json={"option": st["decision"]["options"][0]["option"]}).json()
                plays += 1
            thinking["s"] = time.perf_counter() - t0
            thinking["ai"] = stored_decisions(live.store, busy["game"]) - plays
        done.set()

    th = threading.Thread(target=play_busy)
    th.start()
    time.sleep(0.1)
    during = []
    while not done.is_set():
        t0 = time.perf_counter()
        r = c.get(f"/games/{b['game']}", headers=auth(b["token"]))
        during.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200
    th.join()
    assert thinking["ai"] >= 4
    med, worst = statistics.median(during), max(during)
    print(f"\nGET /games/B: idle median {statistics.median(idle):.1f} ms; while game A's AI thinks "
          f"({thinking['s']:.1f} s of AI work): n={len(during)} median {med:.1f} ms, max {worst:.1f} ms")
    assert len(during) >= 10 and med < 100 and worst < 1000 * BUSY_S


def test_a_hint_respects_its_time_budget(live):
    """An agent that has not answered when ``time_ms`` is up is replaced by the quick scripted agent."""
    c = live.client
    g = c.post("/games", json={"scenario": "skirmish", "seed": 6, "ai": "hard", "side": 0}).json()
    t0 = time.perf_counter()
    h = c.post(f"/games/{g['game']}/hint", headers=auth(g["token"]), json={"time_ms": 100, "agent": "busy"}).json()
    took = time.perf_counter() - t0
    assert h["complete"] is False and h["agent"] == "scripted" and took < BUSY_S
    st = c.get(f"/games/{g['game']}", headers=auth(g["token"])).json()
    assert h["option"] in [o["option"] for o in st["decision"]["options"]]
    time.sleep(BUSY_S)  # let the abandoned thinker finish before the next test measures anything


# ---------------------------------------------------------------------------------------------- restart
def test_sigkill_mid_game_then_restart_continues_exactly_and_ctrl_c_stops(tmp_path):
    db = str(tmp_path / "games.db")
    srv = ServerProcess(db)
    specs = [("skirmish", 7, "hard", 0, 6), ("skirmish", 8, "hard", 1, 11), ("default", 9, "hard", 0, 4),
             ("skirmish", 10, "random", 1, 0)]
    games = []
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        for scn, seed, ai, side, n in specs:
            g = c.post("/games", json={"scenario": scn, "seed": seed, "ai": ai, "side": side}).json()
            g.update(scn=scn, seed=seed, ai=ai, mine=[], rng=random.Random(seed))
            for _ in range(n):
                st = c.get(f"/games/{g['game']}", headers=auth(g["token"])).json()
                opt = g["rng"].choice(st["decision"]["options"])["option"]
                assert c.post(f"/games/{g['game']}/play", headers=auth(g["token"]), json={"option": opt}).status_code == 200
                g["mine"].append(opt)
            games.append(g)
        two = c.post("/games", json={"scenario": "skirmish", "seed": 11, "ai": None}).json()
        before = {g["game"]: c.get(f"/games/{g['game']}", headers=auth(g["token"])).json() for g in games}
        before_two = [c.get(f"/games/{two['game']}", headers=auth(t)).json() for t in two["tokens"]]
    # a game being played while the server is killed: acknowledged moves must all be there afterwards
    hot = {"acked": [], "stop": False}
    with httpx.Client(base_url=srv.url, timeout=60) as c:
        h = c.post("/games", json={"scenario": "skirmish", "seed": 12, "ai": "hard", "side": 0}).json()

    def hammer():
        rng = random.Random(12)
        try:
            with httpx.Client(base_url=srv.url, timeout=60) as cc:
                while not hot["stop"]:
                    st = cc.get(f"/games/{h['game']}", headers=auth(h["token"])).json()
                    if st["over"]:
                        return
                    opt = rng.choice(st["decision"]["options"])["option"]
                    r = cc.post(f"/games/{h['game']}/play", headers=auth(h["token"]), json={"option": opt})
                    if r.status_code == 200:
                        hot["acked"].append(opt)
        except httpx.HTTPError:
            return  # the server died under us

    th = threading.Thread(target=hammer)
    th.start()
    time.sleep(1.0)
    srv.kill()  # SIGKILL: no shutdown, no flush
    hot["stop"] = True
    th.join(30)
    assert len(hot["acked"]) >= 3
    srv2 = ServerProcess(db)
    with httpx.Client(base_url=srv2.url, timeout=60) as c:
        for g in games:
            assert c.get(f"/games/{g['game']}", headers=auth(g["token"])).json() == before[g["game"]]
        assert [c.get(f"/games/{two['game']}", headers=auth(t)).json() for t in two["tokens"]] == before_two
        # the hammered game holds every acknowledged move (and at most the one in flight besides)
        st = c.get(f"/games/{h['game']}", headers=auth(h["token"])).json()
        rec = Store(db).load(h["game"])
        restored = Session.restore(rec)
        assert st == {"game": h["game"], **restored.state(0)}
        mine = _front_end_options(rec, 0)
        assert mine[:len(hot["acked"])] == hot["acked"] and len(mine) <= len(hot["acked"]) + 1
        # every game continues from exactly where it was: the same game as one never interrupted
        for g in games:
            while True:
                st = c.get(f"/games/{g['game']}", headers=auth(g["token"])).json()
                if st["over"]:
                    break
                opt = g["rng"].choice(st["decision"]["options"])["option"]
                assert c.post(f"/games/{g['game']}/play", headers=auth(g["token"]), json={"option": opt}).status_code == 200
                g["mine"].append(opt)
            save = c.get(f"/games/{g['game']}/save", headers=auth(g["token"])).json()
            control = Session.new(g["scn"], seed=g["seed"], you=g["side"], ai=g["ai"])
            for opt in g["mine"]:
                control.play(g["side"], opt)
            assert control.game.over and control.save() == save, f"game {g['scn']} seed {g['seed']} diverged"
    # Ctrl-C stops the server cleanly
    assert srv2.stop(signal.SIGINT) == 0
    err = srv2.stderr()
    assert "dustup serve: stopped" in err and "Traceback" not in err


def _front_end_options(rec: dict, side: int) -> list:
    """The options ``side`` took in a stored game (replayed from its record)."""
    from dustup_env.rules import Game
    g = Game(rec["scenario"], seed=rec["seed"], options=rec["options"])
    out = []
    for opt in rec["decisions"]:
        if g.decision().side == side:
            out.append(list(opt))
        g.apply(tuple(opt))
    return out


# ---------------------------------------------------------------------------------------------- load
def test_50_concurrent_games_by_8_client_threads(tmp_path):
    srv = ServerProcess(str(tmp_path / "load.db"))
    try:
        rep = loadtest.run(srv.url, games=50, threads=8, scenario="skirmish", ai="hard", seed=100)
    finally:
        srv.stop(signal.SIGTERM)
    print(f"\n50 games, 8 client threads: {rep['wall_s']} s; GET /games/ID median {rep['get']['median_ms']} ms, "
          f"p99 {rep['get']['p99_ms']} ms; POST play median {rep['play']['median_ms']} ms, p99 {rep['play']['p99_ms']} ms")
    assert rep["errors"] == [] and rep["finished"] == 50 and rep["mismatched"] == []
    assert rep["get"]["n"] > 50 * 20
    assert ' HTTP/1.1" 200' not in srv.stderr()  # no access lines without --access-log


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _send_until_answered(url: str, head: bytes, chunk: bytes, total: int, chunked: bool):
    """Send ``head`` then the body in ``chunk``s (``total`` bytes at most) over a raw socket, stopping as
    soon as the server answers; (status, the answer's JSON, bytes of body sent)."""
    import select
    import socket
    from urllib.parse import urlsplit
    u = urlsplit(url)
    sock = socket.create_connection((u.hostname, u.port), timeout=60)
    sock.sendall(head)
    sent, piece = 0, (b"%x\r\n" % len(chunk)) + chunk + b"\r\n" if chunked else chunk
    try:
        while sent < total:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            sock.sendall(piece)
            sent += len(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered and closed: read the answer
    data = b""
    try:
        while True:
            got = sock.recv(65536)
            if not got:
                break
            data += got
    except (ConnectionResetError, TimeoutError):
        pass
    sock.close()
    head_part, _, body = data.partition(b"\r\n\r\n")
    status = int(head_part.split(b" ", 2)[1])
    return status, json.loads(body), sent


def test_access_log_and_bodies_over_the_limit_refused_unread(tmp_path):
    """``dustup serve --access-log`` (a real subprocess on 127.0.0.1) logs one line per request; a 150 MB
    body is refused with 413 before it is read, whether its Content-Length says so or it streams in
    chunks without one, and the server's memory does not grow with it."""
    srv = ServerProcess(str(tmp_path / "games.db"), extra=("--access-log",))
    try:
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            assert c.get("/info").status_code == 200
            assert c.get("/nowhere").status_code == 404
        deadline = time.monotonic() + 20
        while '"GET /nowhere HTTP/1.1" 404' not in srv.stderr():
            assert time.monotonic() < deadline, srv.stderr()
            time.sleep(0.05)
        lines = srv.stderr().splitlines()
        assert any(ln.startswith("dustup serve: 127.0.0.1:") and ln.endswith('"GET /info HTTP/1.1" 200') for ln in lines)
        big = 150 * 1000 * 1000
        rss0 = _rss_mb(srv.p.pid)
        host = srv.url.split("//")[1]
        head = (f"POST /games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {big}\r\n\r\n").encode()
        t0 = time.perf_counter()
        status, body, sent = _send_until_answered(srv.url, head, b" " * (1 << 20), big, chunked=False)
        took = time.perf_counter() - t0
        assert status == 413 and body == {"ok": False, "error": f"the request body is {big:,} bytes: the server "
                                                                 f"takes at most {MAX_BODY_BYTES:,} bytes"}
        head = (f"POST /games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Transfer-Encoding: chunked\r\n\r\n").encode()
        status2, body2, sent2 = _send_until_answered(srv.url, head, b" " * (1 << 16), big, chunked=True)
        assert status2 == 413 and "sent without Content-Length" in body2["error"], body2
        rss1 = _rss_mb(srv.p.pid)
        print(f"\n150 MB POST: 413 in {took * 1000:.0f} ms, {sent / 1e6:.1f} MB sent before the answer (Content-Length); "
              f"{sent2 / 1e6:.1f} MB (chunked); server RSS {rss0:.0f} -> {rss1:.0f} MB")
        assert sent < 40e6 and sent2 < 40e6  # the answer came long before the body was sent
        assert rss1 - rss0 < 30
        # a body just under the limit is still read (and refused for what it says, not for its size)
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            r = c.post("/games", content=b"[" + b" " * (MAX_BODY_BYTES - 2) + b"]", headers={"Content-Type": "application/json"})
            assert r.status_code == 422 and "not an array" in r.json()["error"]
            assert c.get("/info").status_code == 200  # still serving
    finally:
        srv.stop(signal.SIGTERM)
    assert '"POST /games HTTP/1.1" 413' in srv.stderr() and "Traceback" not in srv.stderr()


def test_bad_serve_arguments_get_one_line_errors(tmp_path):
    import subprocess
    import sys

    from service_helpers import ROOT, env
    for args, frag in [(["--db", str(tmp_path / "no" / "dir" / "x.db")], "cannot open the database"),
                       (["--db", "postgresql://u:secret@127.0.0.1:1/x"], "u:***@"),
                       (["--port", "99999"], "--port must be in 0..65535"),
                       (["--allow-agent", "hard"], "--allow-agent takes policy:PATH"),
                       (["--max-body", "0"], "--max-body must be a number of bytes >= 1")]:
        r = subprocess.run([sys.executable, "-m", "dustup_cli", "serve", "--port", "0", *args], capture_output=True,
                           text=True, env=env(), cwd=ROOT, timeout=60)
        assert r.returncode == 2 and frag in r.stderr, (args, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and "secret" not in r.stderr and "Traceback" not in r.stderr
