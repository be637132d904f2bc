"""``dustup engine``: a client plays complete games through the stdio protocol in a real subprocess, and
bad requests each get ``ok: false`` with a message naming the problem while the game stays as it was."""
from __future__ import annotations

import json
import random

import pytest

from dustup_env.rules import Game
from service_helpers import EngineProcess

GAMES_HARD = 176  # skirmish, random legal options against hard (sides alternate)
GAMES_PPO = 24  # 20 skirmish and 4 default against the shipped ppo


def _ppo_available() -> bool:
    from agents.policy import SHIPPED
    return SHIPPED.is_file()


def play_one(eng: EngineProcess, scenario: str, seed: int, you: int, ai: str) -> dict:
    """One complete game: random legal options (as given) for the front-end until over; checks every response."""
    rng = random.Random(seed * 31 + you)
    r = eng.ask(cmd="new", scenario=scenario, seed=seed, you=you, ai=ai, id=f"g{seed}")
    assert r["ok"] and r["id"] == f"g{seed}" and r["you"] == you, r
    events = list(r["events"])
    nxt = r["next"]
    decision, over = r["decision"], r["over"]
    plays = 0
    while not over:
        assert decision["side"] == you and decision["options"], decision
        for o in decision["options"]:
            assert isinstance(o["label"], str) and o["label"], o
        pick = rng.choice(decision["options"])["option"]
        r = eng.ask(cmd="play", option=pick)
        assert r["ok"], r
        assert [e["index"] for e in r["events"]] == list(range(nxt, r["next"])), "events are contiguous"
        events += r["events"]
        nxt = r["next"]
        decision, over = r["decision"], r["over"]
        plays += 1
        if plays % 7 == 0:  # the view and the state along the way
            st = eng.ask(cmd="state")
            assert st["ok"] and st["decision"] == decision and st["events"] == nxt, st
            assert {u["side"] for u in st["view"]["units"]} <= {0, 1} and st["view"]["table"]["width"] > 0
        assert plays < 2000
    assert decision is None and r["result"]["winner"] in (-1, 0, 1), r
    # nothing lost: the events received along the way are the whole log of this side
    full = eng.ask(cmd="events")
    assert full["ok"] and full["events"] == events and events[-1]["type"] == "GameEnded"
    # the game is over: playing is refused, the game unchanged
    before = eng.ask(cmd="save")["save"]
    bad = eng.ask(cmd="play", option=["end"])
    assert not bad["ok"] and "the game is over" in bad["error"]
    assert eng.ask(cmd="save")["save"] == before
    return {"result": r["result"], "save": before, "plays": plays}


def test_hello_and_clean_quit():
    eng = EngineProcess()
    r = eng.ask(cmd="hello", id=7)
    assert r["ok"] and r["id"] == 7 and r["protocol"] == 1 and r["engine"] == "dustup"
    assert {"hello", "new", "decision", "view", "events", "play", "hint", "save", "load", "quit"} <= set(r["commands"])
    assert {"hard", "ppo", "random"} <= set(r["agents"])
    assert {s["name"] for s in r["scenarios"]} >= {"default", "skirmish"}
    assert eng.ask(cmd="quit") == {"ok": True, "bye": True}
    assert eng.p.wait(20) == 0
    assert "Traceback" not in eng.stderr()


def test_end_of_input_ends_the_engine_cleanly():
    eng = EngineProcess()
    assert eng.ask(cmd="new", scenario="skirmish", seed=1)["ok"]
    eng.send_raw(b"\n   \n")  # blank lines are ignored (no response)
    assert eng.close(quit_=False) == 0
    assert eng.buf == b"" and eng.p.stdout.read() == b""  # exactly one line per request, nothing else
    assert "Traceback" not in eng.stderr()


def _jobs() -> list[tuple]:
    """200 games: 176 skirmish games against hard and 24 against ppo (20 skirmish, 4 default), sides alternating."""
    jobs = [("skirmish", 1000 + i, i % 2, "hard") for i in range(GAMES_HARD)]
    jobs += [("skirmish", 5000 + i, i % 2, "ppo") for i in range(GAMES_PPO - 4)]
    jobs += [("default", 6000 + i, i % 2, "ppo") for i in range(4)]
    return jobs


PARTS = 3  # the 200 games in three tests of 67, 67 and 66 games (both cores under xdist)


@pytest.mark.parametrize("part", range(PARTS))
def test_200_complete_games_against_hard_and_ppo(part):
    """Random legal options against hard and ppo until each game is over; every fifth save is replayed
    in-process and gives the same result."""
    jobs = _jobs()
    assert len(jobs) == 200
    if any(j[3] == "ppo" for j in jobs[part * 67:]) and not _ppo_available():  # pragma: no cover
        pytest.fail("the shipped ppo model is missing")
    eng = EngineProcess()
    results = []
    for k, (scn, seed, you, ai) in enumerate(jobs[part * 67:(part + 1) * 67]):
        out = play_one(eng, scn, seed, you, ai)
        results.append(out["result"])
        if k % 5 == 0:
            g = Game.from_dict(out["save"])
            assert g.over and g.result() == {k2: v for k2, v in out["result"].items() if k2 != "winner_name"}
    assert eng.close() == 0
    assert "Traceback" not in eng.stderr()
    assert all(r["winner"] in (-1, 0, 1) and r["turns"] >= 1 for r in results)


def _save_file(tmp_path, text: str) -> str:
    p = tmp_path / "x.json"
    p.write_text(text)
    return str(p)


def bad_requests(tmp_path, good_save: dict) -> list[tuple[str, bytes | str, str]]:
    """(what, the raw request line, a fragment the error must contain)."""
    tampered = json.loads(json.dumps(good_save))
    tampered["digest"] = "0" * 16
    unreplayable = json.loads(json.dumps(good_save))
    unreplayable["decisions"][3] = ["fly", 1]
    nodigest = json.loads(json.dumps(good_save))
    del nodigest["digest"]
    nodigest["decisions"] = nodigest["decisions"][:2] + [["shoot", 99, "all"]]
    garbage = _save_file(tmp_path, "{not json")
    J = json.dumps
    return [
        ("malformed JSON", "{\"cmd\": \"view\"", "malformed JSON"),
        ("not JSON at all", "hello engine", "malformed JSON"),
        ("an array", "[1, 2]", "must be a JSON object"),
        ("a string", "\"view\"", "must be a JSON object"),
        ("invalid UTF-8", b"{\"cmd\": \"view\xff\"}", "not UTF-8"),
        ("no cmd", "{}", "missing field cmd"),
        ("cmd not a string", J({"cmd": 5}), "cmd must be a string"),
        ("unknown command", J({"cmd": "fly"}), "unknown command 'fly'"),
        ("unknown field", J({"cmd": "view", "bogus": 1}), "unknown field 'bogus'"),
        ("quit with a field", J({"cmd": "quit", "now": True}), "unknown field 'now'"),
        ("id an object", J({"cmd": "hello", "id": {"a": 1}}), "id must be"),
        ("play without option", J({"cmd": "play"}), "missing field 'option'"),
        ("option a string", J({"cmd": "play", "option": "end"}), "field 'option' must be an array"),
        ("option empty", J({"cmd": "play", "option": []}), "must not be empty"),
        ("option without a name", J({"cmd": "play", "option": [1, 2]}), "must start with the option's name"),
        ("option with a float", J({"cmd": "play", "option": ["move", 1.5, 1]}), "is not one of the"),  # a point's coordinate
        ("option with an array", J({"cmd": "play", "option": ["move", [1], 1]}), "option element 1"),
        ("option with a boolean", J({"cmd": "play", "option": ["move", True, 1]}), "option element 1"),
        ("option with an object", J({"cmd": "play", "option": ["move", {}, 1]}), "option element 1"),
        ("unknown option", J({"cmd": "play", "option": ["fly", 1]}), "is not one of the"),
        ("illegal target", J({"cmd": "play", "option": ["shoot", 99, "all"]}), "is not one of the"),
        ("the AI's side", J({"cmd": "play", "option": ["end"], "side": 1}), "played by the AI"),
        ("the AI's decision", J({"cmd": "decision", "side": 1}), "played by the AI"),
        ("the AI's view", J({"cmd": "view", "side": 1}), "played by the AI"),
        ("the AI's state", J({"cmd": "state", "side": 1}), "played by the AI"),
        ("the AI's events", J({"cmd": "events", "side": 1}), "played by the AI"),
        ("a hint for the AI", J({"cmd": "hint", "side": 1}), "played by the AI"),
        ("side 2", J({"cmd": "play", "option": ["end"], "side": 2}), "side must be 0 or 1"),
        ("side a string", J({"cmd": "play", "option": ["end"], "side": "0"}), "field 'side' must be an integer"),
        ("view of side 5", J({"cmd": "view", "side": 5}), "side must be 0 or 1"),
        ("events since -1", J({"cmd": "events", "since": -1}), "since must be >= 0"),
        ("events since a string", J({"cmd": "events", "since": "3"}), "field 'since' must be an integer"),
        ("events past the end", J({"cmd": "events", "since": 100000}), "past the end"),
        ("hint with negative time", J({"cmd": "hint", "time_ms": -5}), "time_ms must be"),
        ("hint with a string time", J({"cmd": "hint", "time_ms": "fast"}), "field 'time_ms' must be"),
        ("hint from an unknown agent", J({"cmd": "hint", "agent": "grandmaster"}), "unknown agent 'grandmaster'"),
        ("new: unknown scenario", J({"cmd": "new", "scenario": "nowhere"}), "unknown scenario 'nowhere'"),
        ("new: scenario a number", J({"cmd": "new", "scenario": 5}), "field 'scenario' must be"),
        ("new: invalid scenario object", J({"cmd": "new", "scenario": {"name": "broken"}}), "broken"),
        ("new: seed a string", J({"cmd": "new", "seed": "x"}), "field 'seed' must be an integer"),
        ("new: negative seed", J({"cmd": "new", "seed": -1}), "seed must be in"),
        ("new: unknown game option", J({"cmd": "new", "options": {"turbo": True}}), "unknown game option(s): turbo"),
        ("new: bad option value", J({"cmd": "new", "options": {"activation": "sideways"}}), "activation"),
        ("new: options an array", J({"cmd": "new", "options": [1]}), "field 'options' must be an object"),
        ("new: you 2", J({"cmd": "new", "you": 2}), "you must be 0 or 1"),
        ("new: unknown agent", J({"cmd": "new", "ai": "grandmaster"}), "unknown agent 'grandmaster'"),
        ("new: ai a number", J({"cmd": "new", "ai": 7}), "field 'ai' must be"),
        ("new: ai_seed a float", J({"cmd": "new", "ai_seed": 1.5}), "field 'ai_seed' must be an integer"),
        ("new: missing policy file", J({"cmd": "new", "ai": "policy:/nonexistent/model.zip"}), "cannot load agent"),
        ("load: neither save nor path", J({"cmd": "load"}), "give either save"),
        ("load: not a save", J({"cmd": "load", "save": {"format": "nope"}}), "not a Dustup save"),
        ("load: digest mismatch", J({"cmd": "load", "save": tampered}), "digest does not match"),
        ("load: a decision does not replay", J({"cmd": "load", "save": unreplayable}), "does not replay"),
        ("load: an illegal decision", J({"cmd": "load", "save": nodigest}), "does not replay"),
        ("load: missing file", J({"cmd": "load", "path": str(tmp_path / "missing.json")}), "cannot read"),
        ("load: garbage file", J({"cmd": "load", "path": garbage}), "is not JSON"),
        ("save: unwritable path", J({"cmd": "save", "path": str(tmp_path / "no" / "dir" / "x.json")}), "cannot write"),
    ]


def test_bad_requests_are_refused_and_change_nothing(tmp_path):
    eng = EngineProcess()
    # a request before any game
    r = eng.ask(cmd="play", option=["end"])
    assert not r["ok"] and "no game yet" in r["error"]
    # a game mid-way: the front-end at an action decision
    r = eng.ask(cmd="new", scenario="skirmish", seed=11, you=0, ai="hard")
    rng = random.Random(0)
    while r["decision"]["kind"] != "action" or len(r["decision"]["options"]) < 10:
        r = eng.ask(cmd="play", option=rng.choice(r["decision"]["options"])["option"])
        assert r["ok"]
    good_save = eng.ask(cmd="save")["save"]
    cases = bad_requests(tmp_path, good_save)
    assert len(cases) >= 30 and len({c[0] for c in cases}) == len(cases)
    for what, line, fragment in cases:
        before = (eng.ask(cmd="save"), eng.ask(cmd="state"))
        resp = eng.ask_raw(line)
        assert resp["ok"] is False, (what, resp)
        assert fragment in resp["error"], (what, resp["error"])
        assert "\n" not in resp["error"] and "Traceback" not in resp["error"], what
        assert (eng.ask(cmd="save"), eng.ask(cmd="state")) == before, f"{what}: the game changed"
    # ids are echoed on errors too
    assert eng.ask(cmd="fly", id="x1") == {"ok": False, "id": "x1",
                                            "error": eng.ask(cmd="fly")["error"]}
    # still fully working after all that
    d = eng.ask(cmd="decision")["decision"]
    assert eng.ask(cmd="play", option=d["options"][0]["option"])["ok"]
    assert eng.close() == 0
    assert "Traceback" not in eng.stderr()


def test_every_command_that_takes_a_side_refuses_the_ais_side():
    """The AI's decisions, view and events are its private knowledge (its hidden units, which of its markers is
    real): every command with a ``side`` field refuses the AI's side with the same message, whichever side the
    front-end plays, and the refusal changes nothing."""
    from dustup_env.service.protocol import COMMANDS, Engine

    with_side = [c for c, fields in COMMANDS.items() if "side" in fields]
    assert set(with_side) == {"decision", "view", "state", "events", "play", "hint", "analyze", "sight", "measure",
                              "reach"}
    for you in (0, 1):
        eng = Engine(log=lambda msg: None)
        assert eng.handle({"cmd": "new", "scenario": "ambush", "seed": 3, "you": you, "ai": "hard"})["ok"]
        ai = 1 - you
        name = eng.session.game.side_names[ai]
        message = f"side {ai} ({name}) is played by the AI: a front-end reads and acts only for its own side"
        before = eng.handle({"cmd": "save"})
        own = eng.session.game.side_units[you][0]
        fields = {"play": {"option": ["end"]}, "hint": {"time_ms": 5000}, "analyze": {"playouts": 3},
                  "sight": {"point": [10, 10]},
                  "measure": {"from": [1, 1], "to": [4, 5]}, "reach": {"unit": own}}
        for cmd in with_side:
            req = {"cmd": cmd, "side": ai, "id": cmd, **fields.get(cmd, {})}
            assert eng.handle(req) == {"ok": False, "id": cmd, "error": message}
        assert eng.handle({"cmd": "save"}) == before
        for cmd in with_side:  # the front-end's own side reads as before
            if cmd != "play":
                assert eng.handle({"cmd": cmd, "side": you, **fields.get(cmd, {})})["ok"]


def test_two_front_end_players_name_their_side():
    eng = EngineProcess()
    r = eng.ask(cmd="new", scenario="skirmish", seed=5, ai=None)
    assert r["ok"] and r["you"] is None and r["deciding"] in (0, 1)
    side = r["deciding"]
    before = eng.ask(cmd="save")
    for req, frag in [({"cmd": "play", "option": ["first"]}, "name the side"),
                      ({"cmd": "play", "option": ["first"], "side": 1 - side}, f"not side {1 - side}'s decision"),
                      ({"cmd": "hint", "side": 1 - side}, f"not side {1 - side}'s decision")]:
        resp = eng.ask(**req)
        assert not resp["ok"] and frag in resp["error"], resp
    assert eng.ask(cmd="save") == before
    assert eng.ask(cmd="decision", side=1 - side) == {"ok": True, "decision": None, "over": False, "deciding": side}
    r = eng.ask(cmd="play", option=["first"], side=side)
    assert r["ok"]
    # play the game out, each side for itself
    rng = random.Random(1)
    while True:
        st = [eng.ask(cmd="decision", side=s) for s in (0, 1)]
        if st[0]["over"]:
            break
        s = 0 if st[0]["decision"] else 1
        assert st[1 - s]["decision"] is None
        assert eng.ask(cmd="play", side=s, option=rng.choice(st[s]["decision"]["options"])["option"])["ok"]
    assert eng.close() == 0


def test_failed_new_and_load_keep_the_game_and_save_load_round_trip(tmp_path):
    eng = EngineProcess()
    r = eng.ask(cmd="new", scenario="skirmish", seed=21, you=1, ai="random")
    for _ in range(5):
        r = eng.ask(cmd="play", option=r["decision"]["options"][-1]["option"])
    before = eng.ask(cmd="save")
    assert not eng.ask(cmd="new", scenario="nowhere")["ok"]
    assert not eng.ask(cmd="load", save={"format": "dustup-save", "version": 99})["ok"]
    assert eng.ask(cmd="save") == before
    path = str(tmp_path / "g.json")
    w = eng.ask(cmd="save", path=path)
    assert w["ok"] and w["decisions"] == len(before["save"]["decisions"])
    st = eng.ask(cmd="state")
    # load it back in a new engine: the same state for the front-end
    eng2 = EngineProcess()
    r2 = eng2.ask(cmd="load", path=path, you=1, ai="random")
    assert r2["ok"] and eng2.ask(cmd="state") == st
    assert eng2.ask(cmd="save") == before
    hint = eng2.ask(cmd="hint", time_ms=2000, agent="hard")
    assert hint["ok"] and hint["complete"] and hint["agent"] == "hard"
    assert hint["option"] in [o["option"] for o in st["decision"]["options"]]
    assert eng2.ask(cmd="save") == before  # a hint applies nothing
    assert eng.close() == 0 and eng2.close() == 0


def test_ctrl_c_stops_the_engine_cleanly_and_help():
    import signal
    import subprocess
    import sys

    from service_helpers import ROOT, env
    eng = EngineProcess()
    assert eng.ask(cmd="new", scenario="skirmish", seed=2)["ok"]
    eng.p.send_signal(signal.SIGINT)
    assert eng.p.wait(20) == 130
    assert "interrupted" in eng.stderr() and "Traceback" not in eng.stderr()
    for cmd in ("engine", "serve"):
        r = subprocess.run([sys.executable, "-m", "dustup_cli", cmd, "--help"], capture_output=True, text=True,
                           env=env(), cwd=ROOT, timeout=60)
        assert r.returncode == 0 and f"usage: dustup {cmd}" in r.stdout
