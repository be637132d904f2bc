"""The AI's time control kept with the game in the server's database: given at creation or with
``POST /games/ID/set``, it survives a restart (a second ``dustup serve`` on the same database file) with both clocks'
time left; a database of the first schema is migrated; bad input gets its one-line errors."""
from __future__ import annotations

import json
import signal
import time

import httpx
import pytest
from sqlalchemy import Column, MetaData, Table, create_engine, insert

from dustup_env.service.session import Session
from dustup_env.service.store import SCHEMA_VERSION, Store, StoreError, games, meta
from dustup_env.service.store import decisions as decisions_table
from service_helpers import ServerProcess


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def _play_first(c, g, n):
    """``n`` front-end decisions of game ``g``, each its first option; the last answer and when it came."""
    out = None
    for _ in range(n):
        st = c.get(f"/games/{g['game']}", headers=auth(g["token"])).json()
        opt = st["decision"]["options"][0]["option"]
        r = c.post(f"/games/{g['game']}/play", headers=auth(g["token"]), json={"option": opt})
        assert r.status_code == 200, r.text
        out = r.json()
    return out, time.monotonic()


def test_time_controls_and_clocks_survive_a_restart(tmp_path):
    db = str(tmp_path / "games.db")
    srv = ServerProcess(db)
    try:
        with httpx.Client(base_url=srv.url, timeout=60) as c:
            clock = c.post("/games", json={"scenario": "skirmish", "seed": 3, "ai": "hard",
                                           "clock": {"time_ms": 60000, "increment_ms": 1000}}).json()
            last, answered = _play_first(c, clock, 3)
            move = c.post("/games", json={"scenario": "skirmish", "seed": 4, "ai": "hard", "movetime_ms": 300}).json()
            later = c.post("/games", json={"scenario": "skirmish", "seed": 5, "ai": "hard"}).json()
            r = c.post(f"/games/{later['game']}/set", headers=auth(later["token"]),
                       json={"clock": {"time_ms": 90000, "increment_ms": 500}})
            assert r.status_code == 200, r.text
            assert r.json()["settings"]["time_control"] == {"clock_ms": [90000, 90000], "increment_ms": 500.0}
            _play_first(c, later, 1)
            level = c.post("/games", json={"scenario": "skirmish", "seed": 6, "ai": "hard"}).json()
            r = c.post(f"/games/{level['game']}/set", headers=auth(level["token"]),
                       json={"strength": 2, "movetime_ms": 250})
            assert r.status_code == 200 and r.json()["settings"]["ai"] == "level:2", r.text
            # bad input: one line each, nothing changed
            for body, status, frag in (({}, 400, "give strength, movetime_ms or clock"),
                                       ({"movetime_ms": -1}, 400, "movetime_ms must be a number of milliseconds"),
                                       ({"clock": {"time_ms": "x"}}, 400, "clock.time_ms must be"),
                                       ({"movetime_ms": 5, "clock": {"time_ms": 5}}, 400, "not both"),
                                       ({"strength": 9}, 400, "strength must be in 1..8"),
                                       ({"depth": 3}, 422, "unknown field 'depth'")):
                r = c.post(f"/games/{move['game']}/set", headers=auth(move["token"]), json=body)
                err = r.json()["error"]
                assert r.status_code == status and frag in err and "\n" not in err, (body, r.status_code, r.text)
            assert c.post(f"/games/{move['game']}/set", json={"movetime_ms": 5}).status_code == 401
            before = {g["game"]: c.get(f"/games/{g['game']}", headers=auth(g["token"])).json()
                      for g in (clock, move, later, level)}
        assert before[clock["game"]]["clock_ms"] == last["clock_ms"]
        assert before[clock["game"]]["time_control"]["increment_ms"] == 1000.0
        assert before[move["game"]]["time_control"] == {"movetime_ms": 300.0}
        assert before[level["game"]]["time_control"] == {"movetime_ms": 250.0}
    finally:
        srv.kill()  # SIGKILL: what was acknowledged is in the database
    srv2 = ServerProcess(db)
    try:
        with httpx.Client(base_url=srv2.url, timeout=60) as c:
            for g in (clock, move, later, level):
                assert c.get(f"/games/{g['game']}", headers=auth(g["token"])).json() == before[g["game"]]
            # the front-end's clock ran from the answer that put its decision to it, across the restart
            front, ai = clock["side"], 1 - clock["side"]
            t_play = time.monotonic()
            after, _ = _play_first(c, clock, 1)
            ran_ms = (t_play - answered) * 1000.0
            assert after["clock_ms"][front] <= before[clock["game"]]["clock_ms"][front] + 1000 - ran_ms + 1
            assert after["clock_ms"][ai] <= before[clock["game"]]["clock_ms"][ai] + 1000 * 20
            st = c.get(f"/games/{clock['game']}", headers=auth(clock["token"])).json()
            assert st["clock_ms"] == after["clock_ms"] and st["time_control"]["increment_ms"] == 1000.0
    finally:
        assert srv2.stop(signal.SIGINT) == 0
    store = Store(db)
    try:
        assert store.load(move["game"])["time_control"] == {"movetime_ms": 300.0}
        rec = store.load(level["game"])
        assert rec["ai"] == "level:2" and rec["time_control"] == {"movetime_ms": 250.0}
        s = Session.restore(store.load(clock["game"]))
        assert [round(t) for t in s.time_control["clock_ms"]] == st["clock_ms"]
    finally:
        store.close()


def test_a_restored_session_keeps_its_clocks_and_the_ais_pace():
    s = Session.new("skirmish", seed=9, ai="hard", clock={"time_ms": 30000, "increment_ms": 250})
    for _ in range(6):
        d = s.decision(0)
        s.play(0, d["options"][0]["option"])
    rec = json.loads(json.dumps(s.record()))  # as stored: plain JSON
    r = Session.restore(rec)
    assert r.time_control == s.time_control and r.clocks() == s.clocks()
    assert (r._ai_choices, r._ai_first_turn) == (s._ai_choices, s._ai_first_turn) and r._ai_choices > 0
    # the side to move's clock keeps running from its mark
    assert abs((r._clock_mark - s._clock_mark)) < 0.05
    assert Session.restore({**rec, "time_control": None}).time_control is None


def _v1_database(path: str, rec: dict) -> None:
    """A database as the first schema made it (no ``games.time_control``), holding one game."""
    md = MetaData()
    Table(meta.name, md, *[Column(c.name, c.type, primary_key=c.primary_key) for c in meta.columns])
    g1 = Table(games.name, md, *[Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
                                 for c in games.columns if c.name != "time_control"])
    Table(decisions_table.name, md, *[Column(c.name, c.type, primary_key=c.primary_key, autoincrement=False)
                                      for c in decisions_table.columns])
    eng = create_engine("sqlite:///" + path)
    md.create_all(eng)
    with eng.begin() as c:
        c.execute(insert(md.tables[meta.name]).values(key="schema", value="1"))
        c.execute(insert(g1).values(id="old", created=0.0, updated=0.0, scenario=json.dumps(rec["scenario"]),
                                    seed=rec["seed"], secret_seed=False, options=json.dumps(rec["options"]),
                                    ai=rec["ai"], ai_side=rec["ai_side"], ai_seed=rec["ai_seed"], ai_from=0,
                                    token0="x", token1=None, n_decisions=len(rec["decisions"]), over=False))
        c.execute(insert(md.tables[decisions_table.name]),
                  [{"game": "old", "idx": i, "option": json.dumps(o)} for i, o in enumerate(rec["decisions"])])
    eng.dispose()


def test_a_first_schema_database_is_migrated_and_a_newer_one_refused(tmp_path):
    s = Session.new("skirmish", seed=2, ai="hard")
    s.play(0, s.decision(0)["options"][0]["option"])
    db = str(tmp_path / "v1.db")
    _v1_database(db, s.record())
    store = Store(db)
    try:
        rec = store.load("old")
        assert rec["time_control"] is None and rec["decisions"] == [list(o) for o in s.decisions]
        store.configure("old", len(rec["decisions"]), rec["ai"], 0, {"movetime_ms": 400.0})
        assert store.load("old")["time_control"] == {"movetime_ms": 400.0}
        with store.engine.connect() as c:
            assert c.exec_driver_sql("SELECT value FROM dustup_meta WHERE key='schema'").scalar() == \
                str(SCHEMA_VERSION) == "2"
    finally:
        store.close()
    Store(db).close()  # opened again: already the present schema
    with create_engine("sqlite:///" + db).begin() as c:
        c.exec_driver_sql("UPDATE dustup_meta SET value='3' WHERE key='schema'")
    with pytest.raises(StoreError, match=r"database schema 3 \(this server reads 2 and older\)"):
        Store(db)
