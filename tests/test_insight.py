"""Odds on the options, sight and range, honest moves and measuring (dustup_env/insight.py) in the protocol and the
HTTP API: the odds equal exact enumeration of the dice listed, and nothing depends on what the side cannot know.

The random-games check plays ``DUSTUP_ODDS_GAMES`` games (default 6 through the protocol, one per built-in scenario,
and 2 through the HTTP API), each up to 250 decisions; ``DUSTUP_ODDS_GAMES=200`` is the full run (200 games through
each; several minutes per test on a free core)."""
from __future__ import annotations

import itertools
import math
import os
import random
from fractions import Fraction

import numpy as np
import pytest

from dustup_env import insight
from dustup_env.rules import Game, scenario_names
from dustup_env.rules.kernel.dice import die_max, parse_die
from dustup_env.service.protocol import Engine
from dustup_env.service.session import Session
from evaluation.odds import shoot_odds

FULL = "DUSTUP_ODDS_GAMES" in os.environ
GAMES = int(os.environ.get("DUSTUP_ODDS_GAMES", "6"))
MAX_DECISIONS = 250  # per game: enough for several turns of shooting in every scenario
SHOOTS = ("shoot", "shoot_weapon", "throw")


# ---------------------------------------------------------------------------------------------- exact enumeration
_ENUM: dict = {}


def enumerate_shot(quality: str, firepower: tuple, target: str, suppressive: bool, extra: bool) -> dict:
    """Every face of every die (numpy over the whole product), independently of the engine's code: P(none/minor/
    major) and the expected hits (Resolving Direct Fire, Determine Casualties, Optional Additional Hits)."""
    key = (quality, firepower, target, suppressive, extra)
    if key in _ENUM:
        return _ENUM[key]
    def faces(d):
        s = parse_die(d)
        m = 1 if s <= 4 else s - 3
        return np.arange(1, (4, 6, 8, 10, 12)[min(s, 4)] + 1) * m
    fs = [faces(quality)] + [faces(f) for f in firepower]
    grids = np.meshgrid(*fs, indexing="ij")
    rolls = np.stack([g.ravel() for g in grids])  # (dice, combinations)
    total = rolls.sum(axis=0)
    tf = faces(target)
    div = die_max(parse_die(target))
    p_comb = 1.0 / rolls.shape[1] / len(tf)
    out = {"none": 0.0, "minor": 0.0, "major": 0.0, "expected_hits": 0.0}
    for t in tf:
        succ = (rolls > t).sum(axis=0)
        out["none"] += (succ == 0).sum() * p_comb
        out["minor"] += (succ == 1).sum() * p_comb
        major = succ >= 2
        out["major"] += major.sum() * p_comb
        if suppressive:
            continue
        h, rem = np.divmod(total[major], div)
        eh = h.astype(float)
        if extra:
            eh = eh + np.array([(tf <= r).sum() / len(tf) if r else 0.0 for r in range(div)])[rem]
        out["expected_hits"] += eh.sum() * p_comb
    _ENUM[key] = out
    return out


@pytest.mark.parametrize("q,fp,t,sup,extra", [
    ("d8", ("d10", "d6"), "d10", False, True), ("d6", ("d8",), "d4", False, False), ("d10", ("d12", "d8"), "d8", True, True),
    ("d12", ("d4", "d4"), "d12", False, True), ("d4", ("d6", "d6"), "d6", False, True), ("d8", ("d12x2",), "d8", False, True)])
def test_shot_distribution_is_the_enumeration_of_resolve_fire(q, fp, t, sup, extra):
    """``insight.shot_distribution`` equals ``dustup odds shoot`` (the enumeration of the engine's ``resolve_fire``)
    exactly, as fractions."""
    res, hits = insight.shot_distribution(parse_die(q), tuple(parse_die(f) for f in fp), parse_die(t), sup, extra)
    ref = shoot_odds(q, list(fp), t, suppressive=sup, extra_hits=extra)
    for k in ("none", "minor", "major"):
        assert res[k] == ref[k]
    assert {str(k): v for k, v in hits.items()} == {k: v for k, v in ref["hits"].items() if v}
    assert sum(k * p for k, p in hits.items()) == ref["expected_hits"]
    num = enumerate_shot(q, fp, t, sup, extra)
    assert abs(float(ref["expected_hits"]) - num["expected_hits"]) < 1e-9


def check_option(rec: dict, extra_default: bool = True) -> int:
    """An option object of a decision: a shoot option carries dice and odds equal to exact enumeration."""
    if rec["option"][0] not in SHOOTS:
        return 0
    assert "dice" in rec and "odds" in rec, f"{rec['option']} has no odds"
    d, o = rec["dice"], rec["odds"]
    ref = enumerate_shot(d["quality"], tuple(d["firepower"]), d["target"], d["suppressive"], d["extra_hits"])
    for k in ("none", "minor", "major", "expected_hits"):
        assert abs(o[k] - ref[k]) < 1e-9, (rec["option"], k, o[k], ref[k])
    assert abs(o["none"] + o["minor"] + o["major"] - 1) < 1e-9
    assert ("expected_casualties" in o) != ("destroyed" in o)
    return 1


def _games():
    """(scenario, seed) of the random games; ``DUSTUP_ODDS_PART=k/n``: only every n-th from the k-th (to spread the
    full run over processes)."""
    names = scenario_names()
    k, n = (int(x) for x in os.environ.get("DUSTUP_ODDS_PART", "0/1").split("/"))
    return [(names[i % len(names)], 1000 + i) for i in range(GAMES) if i % n == k]


def test_every_shoot_option_in_the_protocol_carries_exact_odds():
    """Random games through ``dustup engine``'s protocol (both sides front-ends): every shoot option of every
    decision has ``dice`` and ``odds`` equal to exact enumeration (< 1e-9)."""
    checked = 0
    for scn, seed in _games():
        eng = Engine(log=lambda m: None)
        r = eng.handle({"cmd": "new", "scenario": scn, "seed": seed, "ai": None})
        assert r["ok"], r
        rng = random.Random(seed)
        d = None
        for _ in range(MAX_DECISIONS):
            if r.get("over"):
                break
            if d is None:  # the other side decides now: ask it
                side = eng.session.game.decision().side
                dec = eng.handle({"cmd": "decision", "side": side})
                assert dec["ok"], dec
                d = dec["decision"]
            side = d["side"]
            for rec in d["options"]:
                checked += check_option(rec)
            r = eng.handle({"cmd": "play", "side": side, "option": rng.choice(d["options"])["option"]})
            assert r["ok"], r
            d = r["decision"]
    print(f"protocol: {len(_games())} games, {checked} shoot options checked")
    assert checked > 50 * max(1, len(_games()) // 6), checked


def test_every_shoot_option_in_the_http_api_carries_exact_odds(tmp_path):
    """The same through the HTTP API (``GET /games/{id}``): every shoot option carries exact odds; sight, measure and
    reach answer."""
    from fastapi.testclient import TestClient
    from dustup_env.service.server import create_app
    from dustup_env.service.store import Store
    store = Store(str(tmp_path / "g.db"))
    client = TestClient(create_app(store))
    checked = 0
    games = _games() if FULL else _games()[:2]  # (by default the protocol's test covers every scenario)
    for scn, seed in games:
        g = client.post("/games", json={"scenario": scn, "seed": seed, "ai": None}).json()
        gid, tokens = g["game"], g["tokens"]
        rng = random.Random(seed)
        for _ in range(MAX_DECISIONS):
            st = None
            for tok in tokens:
                s = client.get(f"/games/{gid}", headers={"Authorization": f"Bearer {tok}"}).json()
                if s["decision"] is not None:
                    st, token = s, tok
            if st is None:
                break
            for rec in st["decision"]["options"]:
                checked += check_option(rec)
            h = {"Authorization": f"Bearer {token}"}
            if st["decision"]["unit"] is not None and st["decision"]["unit"] >= 0 and st["decision"]["kind"] == "action":
                u = st["decision"]["unit"]
                sg = client.get(f"/games/{gid}/sight", params={"unit": u}, headers=h)
                assert sg.status_code == 200, sg.text
                assert {"enemies", "sees"} <= set(sg.json())
                rc = client.get(f"/games/{gid}/reach", headers=h)
                assert rc.status_code == 200 and len(rc.json()["distances"]) == 4, rc.text
            r = client.post(f"/games/{gid}/play", json={"option": rng.choice(st["decision"]["options"])["option"]},
                            headers=h)
            assert r.status_code == 200, r.text
            if r.json()["over"]:
                break
        m = client.get(f"/games/{gid}/measure", params={"ax": 0, "ay": 0, "bx": 3, "by": 4},
                       headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        assert m["distance"] == 5.0 and m["band"] == "short"
        bad = client.get(f"/games/{gid}/sight", params={"unit": 0, "target": 1},
                         headers={"Authorization": f"Bearer {tokens[0]}"})
        assert bad.status_code == 400 and "exactly one" in bad.json()["error"]
    store.close()
    print(f"HTTP API: {len(games)} games, {checked} shoot options checked")
    assert checked > 20, checked


# ---------------------------------------------------------------------------------------------- the other kinds
def _play_until(game: Game, want, rng: random.Random, limit: int = 3000):
    for _ in range(limit):
        if game.over:
            return None
        d = game.decision()
        hit = [o for o in d.options if want(o)]
        if hit and d.kind == "action":
            return d, hit
        game.apply(rng.choice(d.options))
    return None


def test_vehicle_fire_and_assault_odds_are_the_enumerated_dice():
    """Vehicle weapons (damaged / destroyed from the impact against the facing's armour), the assault's courage test
    (its chances add to one; the outnumbering is the rules' own)."""
    g = Game("armour", seed=3)
    found = _play_until(g, lambda o: o[0] == "fire_vehicle", random.Random(3))
    assert found is not None
    d, opts = found
    rec = insight.option_odds(g, d.side, opts[0], d.unit)
    assert rec is not None
    o = rec["odds"]
    assert abs(o["none"] + o["minor"] + o["major"] - 1) < 1e-9
    if "destroyed" in o:
        assert 0 <= o["destroyed"] <= 1 and 0 <= o["damaged"] + o["destroyed"] <= o["major"] + 1e-12
    g = Game("default", seed=4)
    found = _play_until(g, lambda o: o[0] == "assault", random.Random(4))
    assert found is not None
    d, opts = found
    rec = insight.option_odds(g, d.side, opts[0], d.unit)
    assert abs(sum(rec["odds"].values()) - 1) < 1e-9
    assert rec["dice"]["outnumbered"]["attacker"] in (0, 2, 3)
    from dustup_env.rules.unit_actions.assault_courage_test import outnumbered, unit_counts
    u, t = g.units[d.unit], g.units[opts[0][1]]
    assert rec["dice"]["strength"] == list(unit_counts(g, u, None, t, None))
    assert rec["dice"]["outnumbered"]["defender"] == outnumbered(*rec["dice"]["strength"][::-1])
    assert insight.short_odds(rec).startswith("courage ")


def test_expected_casualties_against_the_engine_resolving_the_hits():
    """The expected casualties of a shot (hits allocated at random, impact against each figure's armour) against the
    engine's own ``resolve_hits`` rolled 20000 times on copies of the game (within five standard errors)."""
    from dustup_env.rules.kernel.attack import resolve_hits
    from dustup_env.rules.kernel.dice import SeededDice
    g = Game("default", seed=6)
    found = _play_until(g, lambda o: o[0] == "shoot", random.Random(6))
    d, opts = found
    rec = insight.option_odds(g, d.side, opts[0], d.unit)
    t = g.units[opts[0][1]]
    shift = (1 if t.propped else 0) + rec["dice"]["cover"]
    impact = parse_die(rec["dice"]["impact"])
    for k in (1, 3):
        want = float(insight.casualties_expected(g, t, {k: Fraction(1)}, impact, shift))
        rng = SeededDice(99 + k)
        got = []
        for _ in range(20000 if k == 1 else 8000):
            c = g.clone(log=False)
            c.dice = rng
            got.append(resolve_hits(c, c.units[t.uid], k, impact, shift, fire=True).casualties)
        mean, sd = float(np.mean(got)), float(np.std(got)) / math.sqrt(len(got))
        assert abs(mean - want) < 5 * sd + 1e-3, (k, mean, want)


# ---------------------------------------------------------------------------------------------- sight, reach, measure
def test_sight_reach_and_measure_in_the_protocol():
    eng = Engine(log=lambda m: None)
    r = eng.handle({"cmd": "new", "scenario": "default", "seed": 2, "ai": "random"})
    rng = random.Random(2)
    while r["ok"] and not r.get("over") and (r["decision"] is None or r["decision"]["kind"] != "action"):
        r = eng.handle({"cmd": "play", "option": rng.choice(r["decision"]["options"])["option"]})
    d = r["decision"]
    s = eng.handle({"cmd": "sight", "unit": d["unit"]})["sight"]
    g = eng.session.game
    known = {e.uid for e in g.enemy_units(0)}
    assert {e["uid"] for e in s["enemies"]} == known
    shoot_targets = {o["option"][1] for o in d["options"] if o["option"][0] in SHOOTS}
    assert {e["uid"] for e in s["enemies"] if e["may_fire"]} == shoot_targets
    for e in s["enemies"]:
        if e["visible"] and e.get("in_range"):
            assert e["band"] in insight.BANDS and e["target_die"].startswith("d")
    enemy = next(iter(known))
    t = eng.handle({"cmd": "sight", "target": enemy})["sight"]
    assert all(x["side"] == 0 for x in t["seen_by"])
    p = eng.handle({"cmd": "sight", "point": [30, 20]})["sight"]
    assert all("distance" in x for x in p["seen_by"])
    m = eng.handle({"cmd": "measure", "from": [1, 1], "to": [13, 6]})["measure"]
    assert m["distance"] == 13.0 and m["band"] == "effective" and 0 <= m["bearing"] < 360
    rc = eng.handle({"cmd": "reach"})["reach"]
    u = g.units[d["unit"]]
    lo, hi = rc["points"]
    for dist in rc["distances"]:
        for dr in dist["directions"]:
            # the least roll's end is on the way to the greatest roll's, and neither is past the nominated point
            a = math.hypot(dr["min"][0] - u.x, dr["min"][1] - u.y)
            b = math.hypot(dr["max"][0] - u.x, dr["max"][1] - u.y)
            assert a <= b + 1e-2 and b <= min(dist["distance"], hi) + 1e-2
    for bad, frag in (({"cmd": "sight"}, "exactly one"), ({"cmd": "sight", "unit": 7}, "not one of side 0"),
                      ({"cmd": "sight", "point": [1e9, 0]}, "off the table"),
                      ({"cmd": "measure", "from": [0, 0], "to": "x"}, "must be an array"),
                      ({"cmd": "measure", "from": [0, 0], "to": [1, True]}, "point [x, y]"),
                      ({"cmd": "reach", "unit": 5}, "not one of side 0")):
        out = eng.handle(bad)
        assert not out["ok"] and frag in out["error"], (bad, out)
        assert "\n" not in out["error"]


def test_reach_is_the_walk_with_the_least_and_greatest_roll():
    """Forcing the movement roll to its least and greatest result, the Move Action ends where reach said."""
    from dustup_env.rules.kernel.dice import ScriptedDice
    g = Game("default", seed=8)
    found = _play_until(g, lambda o: o[0] == "move", random.Random(8))
    d, opts = found
    rc = insight.reach(g, d.side, d.unit)
    lo, hi = rc["rolls"]
    for opt in opts[:: max(1, len(opts) // 6)]:
        for roll, key in ((lo, "min"), (hi, "max")):
            c = g.clone()
            c.dice = ScriptedDice([roll] + [1] * 50)
            c.apply(opt)
            u = c.units[d.unit]
            want = rc["distances"][opt[2]]["directions"][opt[1]][key]
            assert math.hypot(u.x - want[0], u.y - want[1]) < 1e-3, (opt, key, (u.x, u.y), want)


# ---------------------------------------------------------------------------------------------- twins
def _answers(g: Game, side: int) -> list:
    d = g.decision()
    out = [[insight.option_odds(g, side, o, d.unit) for o in d.options]]
    for uid in g.side_units[side]:
        if g.units[uid].in_play:
            out.append(insight.sight(g, side, unit=uid))
    for e in g.enemy_units(side):
        out.append(insight.sight(g, side, target=e.uid))
    out.append(insight.sight(g, side, point=[g.bf.width / 2, g.bf.height / 2]))
    if d.unit >= 0 and g.units[d.unit].side == side and g.units[d.unit].in_play:
        out.append(insight.reach(g, side, d.unit))
    return out


def _twin_walk(doc_a, doc_b, side, options, seed, answers, limit=60):
    from test_fair_play import knowledge_key, QUIET
    from dustup_env.observation import Observer
    ga, gb = Game(doc_a, seed=seed, options=options), Game(doc_b, seed=seed, options=options)
    oa, ob = Observer(), Observer()
    rng = random.Random(seed)
    hidden = {u.uid for u in ga.units if u.side != side and u.hidden}
    compared = 0
    differ = 0
    while not ga.over and compared < limit:
        if knowledge_key(ga, side, oa) != knowledge_key(gb, side, ob):
            break
        da, db = ga.decision(), gb.decision()
        if da.side == side:
            a, b = answers(ga, side), answers(gb, side)
            compared += 1
            differ += a != b
            safe = [o for o in da.options if o[0] != "detect"]
            opt = rng.choice(safe or list(da.options))
        else:
            if da.unit in hidden and ga.units[da.unit].hidden:
                quiet = [o for o in da.options if o[0] in QUIET]
                if not quiet or [o for o in db.options if o[0] in QUIET] != quiet:
                    break
                opt = rng.choice(quiet)
            else:
                if da.options != db.options:
                    break
                opt = rng.choice(da.options)
        ga.apply(opt)
        gb.apply(opt)
    return compared, differ


def test_odds_and_sight_do_not_depend_on_what_the_side_cannot_know():
    """Twin games (tests/test_fair_play.py: the enemy's hidden unit and its dummy marker exchanged, the hidden unit
    itself changed): while the side knows the same in both, every odds, sight and reach answer is the same."""
    from test_fair_play import TWINS
    total = 0
    for name, a, b, side, options in TWINS:
        compared, differ = _twin_walk(a, b, side, options, 7, _answers)
        assert differ == 0, f"{name}: {differ} of {compared} answers differ"
        total += compared
    print(f"twins: {len(TWINS)} pairs, {total} decisions compared")
    assert total > 40, total


def test_the_twin_check_catches_an_answer_that_reads_hidden_units():
    """The same twins with a sight that also looks at the hidden enemy units: the check sees the difference."""
    from test_fair_play import TWINS

    def leaky(g, side):
        out = []
        for uid in g.side_units[side]:
            u = g.units[uid]
            for e in g.units:
                if e.side != side and e.in_play:
                    out.append((uid, e.uid, round(math.hypot(e.x - u.x, e.y - u.y), 2)))
        return out

    differs = 0
    for name, a, b, side, options in TWINS[:3]:
        compared, differ = _twin_walk(a, b, side, options, 7, leaky, limit=5)
        differs += differ
    assert differs > 0


def test_odds_are_not_in_the_environment_step():
    """The env and the engine never compute odds: only front-ends ask (the module is not imported by the rules)."""
    import subprocess
    import sys
    code = ("import sys, dustup_env.env, dustup_env.rules; from dustup_env.rules import Game; g = Game('default', "
            "seed=1); g.apply(g.decision().options[0]); print('dustup_env.insight' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(__import__('pathlib').Path(__file__).parent.parent)})
    assert out.stdout.strip() == "False"


def test_asking_changes_nothing_in_the_game():
    """Odds, sight, reach and measuring read the game and never change it: the state digest (and so the env digests
    and golden games) is the same before and after every answer, in a random game of every built-in scenario."""
    for scn in scenario_names():
        g = Game(scn, seed=11)
        rng = random.Random(11)
        for _ in range(50):
            if g.over:
                break
            d = g.decision()
            before = g.state_digest()
            side = d.side
            insight.decision_odds(g, side, d)
            for uid in g.side_units[side]:
                if g.units[uid].in_play:
                    insight.sight(g, side, unit=uid)
            if d.unit >= 0 and g.units[d.unit].side == side and g.units[d.unit].in_play:
                insight.reach(g, side, d.unit)
            insight.sight(g, side, point=[1.0, 1.0])
            insight.measure(g, [0, 0], [5, 5])
            assert g.state_digest() == before, (scn, len(g.history))
            g.apply(rng.choice(d.options))


def test_reach_gives_a_shaken_units_chance_to_move():
    """A Shaken unit advancing towards the enemy (or leaving cover) tests its leadership first (Move Action): reach
    says the chance it moves at all, P(quality die > leadership value); away from the enemy in the open, 1."""
    from dustup_env.rules.kernel.dice import die_sides
    from dustup_env.rules.kernel.entities import SHAKEN
    g = Game("default", seed=8)
    d, _ = _play_until(g, lambda o: o[0] == "move", random.Random(8))
    u = g.units[d.unit]
    u.confidence = SHAKEN
    rc = insight.reach(g, d.side, d.unit)
    sides = die_sides(u.quality)
    want = sum(1 for r in range(1, sides + 1) if r > u.lv) / sides
    got = {x["p_moves"] for k in rc["distances"] for x in k["directions"]}
    assert got == {want, 1.0} or (got == {want} and g.bf.in_cover(u.x, u.y)), (got, want)


# ---------------------------------------------------------------------------------------------- fire support
def _fire_support_positions(seed: int = 3, limit: int = 1500) -> dict:
    """A fire-support game where side 0 requests whenever it may: a copy of the game at its first request decision
    and at its first target-marker placement."""
    g = Game("fire-support", seed=seed)
    rng = random.Random(seed)
    got = {"request_fire": None, "fire_target": None}
    for _ in range(limit):
        if g.over or all(got.values()):
            break
        d = g.decision()
        for name in got:
            if got[name] is None and any(o[0] == name for o in d.options):
                c = g.clone()
                got[name] = (c, c.decision())
        req = [o for o in d.options if o[0] == "request_fire"]
        g.apply(req[-1] if req else rng.choice(d.options))
    assert all(got.values()), got
    return got


def _cli_json(capsys, args) -> dict:
    import json
    from dustup_cli.cli import main
    assert main(["odds", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _accuracy_args(g: Game, uid: int, guidance: str) -> list:
    from dustup_env.rules.artillery_and_air_support import fire_support_request as fsr, impacts
    u = g.units[uid]
    eq = impacts.observer_equipment(g, u, {}) if fsr.observer_role(g, uid) == "fo" else "none"
    return (["accuracy", "--equipment", eq, "--leadership", str(u.lv)]
            + {"none": [], "laser": ["--laser"], "self": ["--self-guided"]}[guidance])


def test_fire_support_request_and_accuracy_odds_are_the_odds_commands(capsys):
    """Every Request Fire Support option carries the request's chance of success (``dustup odds request`` for the
    requestor's role, the asset's support, the unit's leadership, the chits spent and the asset's platoon or
    company) and the accuracy of its rounds with the requestor observing (``dustup odds accuracy``: on target and
    the scatter distribution); placing the target marker carries the accuracy.  Differences below 1e-9."""
    from dustup_env.rules.artillery_and_air_support import fire_support_request as fsr
    pos = _fire_support_positions()
    g, d = pos["request_fire"]
    checked = 0
    for o in d.options:
        if o[0] != "request_fire":
            continue
        rec = insight.option_odds(g, d.side, o, d.unit)
        a = fsr.assets(g, d.side)[o[1]]
        assert a["difficulty"] is None  # the table's difficulty (the command has no other)
        u = g.units[d.unit]
        args = ["request", "--requestor", fsr.observer_role(g, u.uid), "--support", fsr.FIRERS[a["firer"]],
                "--leadership", str(u.lv), "--chits", str(o[2])]
        args += {"platoon": [], "other_platoon": ["--other-platoon"], "other_company": ["--other-company"]}[a["from"]]
        assert abs(rec["odds"]["success"] - _cli_json(capsys, args)["success"]) < 1e-9
        acc = _cli_json(capsys, _accuracy_args(g, u.uid, a["guidance"]))
        assert abs(rec["odds"]["on_target"] - acc["on_target"]) < 1e-9
        assert rec["odds"]["scatter"].keys() == acc["scatter"].keys()
        assert all(abs(rec["odds"]["scatter"][k] - v) < 1e-9 for k, v in acc["scatter"].items())
        assert abs(rec["odds"]["on_target"] + sum(rec["odds"]["scatter"].values()) - 1) < 1e-9
        assert rec["dice"]["requestor"] == fsr.observer_role(g, u.uid) and rec["dice"]["chits"] == o[2]
        assert "success" in insight.short_odds(rec) and "on target" in insight.short_odds(rec)
        checked += 1
    assert checked
    g, d = pos["fire_target"]
    assert d.kind == "fire_target"
    frame = next(f for f in reversed(g.stack) if f.type == "fire_target")
    a = fsr.assets(g, d.side)[frame.data["asset"]]
    acc = _cli_json(capsys, _accuracy_args(g, d.unit, a["guidance"]))
    for o in d.options:
        rec = insight.option_odds(g, d.side, o, d.unit)
        assert abs(rec["odds"]["on_target"] - acc["on_target"]) < 1e-9
        assert all(abs(rec["odds"]["scatter"][k] - v) < 1e-9 for k, v in acc["scatter"].items())
    # the other side's options never carry them (its decision is not the reader's)
    assert insight.option_odds(g, 1 - d.side, d.options[0], d.unit) is None


def test_fire_support_odds_in_the_protocol_http_and_terminal():
    """The same odds reach the protocol's option objects (``dice``, ``odds``, ``odds_text``), the HTTP API's (the
    same session code) and the terminal's option lines."""
    from dustup_env import narrate as nr
    from dustup_env.terminal import option_menu
    pos = _fire_support_positions()
    for name in ("request_fire", "fire_target"):
        g, d = pos[name]
        s = Session(g.clone(), ai=None, ai_side=None, ai_seed=0)
        rec = s.decision(d.side)
        opts = [r for r in rec["options"] if r["option"][0] == name]
        assert opts and all({"dice", "odds", "odds_text"} <= set(r) for r in opts)
        for r in opts:
            want = insight.option_odds(g, d.side, tuple(r["option"]), d.unit)
            assert r["odds"] == want["odds"] and r["odds_text"] == insight.short_odds(want)
        lines, numbered, _ = option_menu(g, d.side, d, nr.Knowledge.of_side(g, d.side))
        for line, o in zip(lines, numbered):
            if o[0] == name:
                assert line.endswith("[" + insight.short_odds(insight.option_odds(g, d.side, o, d.unit)) + "]")
