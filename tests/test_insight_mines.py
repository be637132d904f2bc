"""Minefield odds on the options (``dustup_env.insight``): clearing a lane through a known enemy minefield
(Additional Rules › Mine Clearing, L1946-1958; the tests of Minefields, L1930) carries the odds of the mines the
clearing model sets off, and a move whose walk enters a known field the odds of the model that walks the most
inside (a vehicle: none / damaged / destroyed against its belly armour, L1932), for each movement roll and
together; they are ``dustup odds minefield`` for the same field type, quality (belly) and inches, and reach the
protocol's and HTTP API's option objects and the terminal's option lines.  A minefield the side has not found
gives no odds and changes nothing the side sees (twin games)."""
from __future__ import annotations

import json
import math

import pytest

from conftest import activate, add_dice, begin, events_of
from dustup_env import insight
from dustup_env.rules.additional_rules.mines_and_explosives import minefields as mf
from dustup_env.rules.kernel.data import load_scenario
from dustup_env.service.session import Session

SQUAD = 1  # breach: the attackers' 1st Squad (quality d8)
ENGINEER = 4  # breach: the engineer vehicle (a line charge, no plough or roller)
AP_FIELD = [9, 22]  # breach: the defenders' AP field in the west of the belt
AT_FIELD = [21, 22]


def _breach(pos=(9, 16.5), drop_field=False, dice=()):
    """``breach`` with the 1st Squad within 3" of the AP field's edge and the engineer vehicle 4" south of the AT
    field's, side 0 to activate."""
    scn = load_scenario("breach")
    scn["sides"][0]["units"][SQUAD]["position"] = list(pos)
    scn["sides"][0]["units"][ENGINEER]["position"] = [21, 15]
    if drop_field:
        scn["sides"][1]["mines"] = [m for m in scn["sides"][1]["mines"] if m["position"] != AP_FIELD]
    return begin(scn, dice)


def _field(g, where=AP_FIELD):
    return next(e for e in g.entities if e["kind"] == mf.MINEFIELD and [e["x"], e["y"]] == where)


def _lane_position(found=True, uid=SQUAD, **kw):
    g = _breach(**kw)
    if found:
        mf.found(g, _field(g)["id"])
        mf.found(g, _field(g, AT_FIELD)["id"])
    activate(g, uid)
    return g, g.decision()


def _cli(capsys, kind, inches, quality=None, belly=None):
    from dustup_cli.cli import main
    extra = ["--quality", quality] if belly is None else ["--vehicle", "--belly", belly]
    assert main(["odds", "minefield", "--type", kind, "--inches", repr(inches), *extra, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_clear_lane_odds_are_the_odds_minefield_command(capsys):
    """For every movement roll the clearing model walks some inches inside the field (the engine's own path) and
    its hits are ``dustup odds minefield --type ap --inches N --quality d8``; the option's hits are those weighted by
    the movement roll's chances.  Differences below 1e-9."""
    g, d = _lane_position()
    opts = [o for o in d.options if o[0] == "clear_lane"]
    assert opts == [("clear_lane", _field(g)["refs"][0])]
    rec = insight.option_odds(g, 0, opts[0], d.unit)
    assert rec["dice"]["minefield"] == "ap" and rec["dice"]["quality"] == "d8" and rec["dice"]["needed"] == 3
    walks = rec["odds"]["walks"]
    assert [w["roll"] for w in walks] == [1, 2, 3, 4, 5, 6] and abs(sum(w["p"] for w in walks) - 1) < 1e-9
    assert len({mf.blocks(w["inches"]) for w in walks}) == 3  # no test, one, two: the rolls matter
    total: dict = {}
    for w in walks:
        want = _cli(capsys, "ap", w["inches"], "d8")["hits"]
        assert w["hits"].keys() == want.keys()
        assert all(abs(w["hits"][k] - v) < 1e-9 for k, v in want.items())
        for k, v in want.items():
            total[k] = total.get(k, 0.0) + w["p"] * v
    assert rec["odds"]["hits"].keys() == total.keys()
    assert all(abs(rec["odds"]["hits"][k] - v) < 1e-9 for k, v in total.items())
    assert abs(rec["odds"]["no_mine"] - total["0"]) < 1e-9
    assert abs(rec["odds"]["expected_hits"] - sum(int(k) * v for k, v in total.items())) < 1e-9
    assert "ap minefield" in insight.short_odds(rec) and "no mine" in insight.short_odds(rec)
    # a mixed field: hit on 1-2
    g2, d2 = _lane_position(pos=(15, 16.5))
    assert not [o for o in d2.options if o[0] == "clear_lane"]  # the mixed field is not found yet
    mixed = next(e for e in g2.entities if e["kind"] == mf.MINEFIELD and [e["x"], e["y"]] == [15, 22])
    mf.found(g2, mixed["id"])
    o = next(o for o in g2.decision().options if o[0] == "clear_lane")
    rec = insight.option_odds(g2, 0, o, d2.unit)
    assert rec["dice"]["minefield"] == "mixed" and rec["dice"]["needed"] == 2
    for w in rec["odds"]["walks"]:
        want = _cli(capsys, "mixed", w["inches"], "d8")["hits"]
        assert all(abs(w["hits"][k] - v) < 1e-9 for k, v in want.items())


@pytest.mark.parametrize("roll", [2, 4, 6])
def test_the_inches_of_each_roll_are_the_walk_the_engine_makes(roll):
    """With the movement roll forced, clearing the lane walks the inches the odds give for that roll and makes
    their number of tests (the quality rolls forced high: no mine goes off)."""
    g, d = _lane_position()
    o = next(o for o in d.options if o[0] == "clear_lane")
    w = next(w for w in insight.option_odds(g, 0, o, d.unit)["odds"]["walks"] if w["roll"] == roll)
    add_dice(g, ("d6", roll), ("d8", 8), ("d8", 8))
    g.apply(o)
    tests = events_of(g, "MineTest")
    assert len(tests) == mf.blocks(w["inches"]) and not any(t["hit"] for t in tests)
    lane = events_of(g, "LaneCleared")
    if w["inches"] > 1e-6:
        lc = lane[0]
        assert math.hypot(lc["x1"] - lc["x0"], lc["y1"] - lc["y0"]) == pytest.approx(w["inches"], abs=1e-3)


def test_clear_lane_odds_in_the_protocol_http_and_terminal():
    """The same odds reach the protocol's option objects (``dice``, ``odds``, ``odds_text``), the HTTP API's (the
    same session code) and the terminal's option lines."""
    from dustup_env import narrate as nr
    from dustup_env.terminal import option_menu
    g, d = _lane_position()
    s = Session(g.clone(), ai=None, ai_side=None, ai_seed=0)
    rec = s.decision(0)
    opts = [r for r in rec["options"] if r["option"][0] == "clear_lane"]
    assert opts and all({"dice", "odds", "odds_text"} <= set(r) for r in opts)
    for r in opts:
        want = insight.option_odds(g, 0, tuple(r["option"]), d.unit)
        assert r["odds"] == want["odds"] and r["dice"] == want["dice"] and r["odds_text"] == insight.short_odds(want)
    lines, numbered, _ = option_menu(g, 0, d, nr.Knowledge.of_side(g, 0))
    hit = [line for line, o in zip(lines, numbered) if o[0] == "clear_lane"]
    assert hit and hit[0].endswith("[" + insight.short_odds(insight.option_odds(g, 0, numbered[
        [o[0] for o in numbered].index("clear_lane")], d.unit)) + "]")
    # the other side's reading of the option: none
    assert insight.option_odds(g, 1, opts[0]["option"], d.unit) is None


def test_move_odds_are_the_odds_minefield_command(capsys):
    """A move north into the known AP field: for each movement roll the model that walks the most inside has the
    hits of ``dustup odds minefield --type ap --inches N --quality d8``; the engineer vehicle's move north into the
    known AT field: none / damaged / destroyed of ``--vehicle --belly d12x2``.  The option's odds are those weighted
    by the movement roll's chances.  Moves that stay out of every known field carry none."""
    g, d = _lane_position()
    moves = [o for o in d.options if o[0] == "move"]
    recs = {o: insight.option_odds(g, 0, o, d.unit) for o in moves}
    assert recs[("move", 0, 1)] is not None and recs[("move", 8, 1)] is None  # north into the field, south away
    rec = recs[("move", 0, 1)]
    assert rec["dice"]["minefield"] == "ap" and rec["dice"]["quality"] == "d8"
    total: dict = {}
    for w in rec["odds"]["walks"]:
        assert [f["minefield"] for f in w["fields"]] == ["ap"] and w["models"] >= 1
        want = _cli(capsys, "ap", w["fields"][0]["inches"], "d8")["hits"]
        assert w["hits"].keys() == want.keys() and all(abs(w["hits"][k] - v) < 1e-9 for k, v in want.items())
        for k, v in want.items():
            total[k] = total.get(k, 0.0) + w["p"] * v
    assert rec["odds"]["hits"].keys() == total.keys()
    assert all(abs(rec["odds"]["hits"][k] - v) < 1e-9 for k, v in total.items())
    assert "ap minefield" in insight.short_odds(rec)
    g, d = _lane_position(uid=ENGINEER)
    rec = insight.option_odds(g, 0, ("move", 0, 2), ENGINEER)
    assert rec["dice"]["minefield"] == "at" and rec["dice"]["belly"] == "d12x2"
    assert len({mf.blocks(sum(f["inches"] for f in w["fields"])) for w in rec["odds"]["walks"]}) == 3
    total = {"none": 0.0, "damaged": 0.0, "destroyed": 0.0}
    for w in rec["odds"]["walks"]:
        inches = sum(f["inches"] for f in w["fields"])
        want = _cli(capsys, "at", inches, belly="d12x2")
        assert all(abs(w[k] - v) < 1e-9 for k, v in want.items())
        for k, v in want.items():
            total[k] += w["p"] * v
    assert all(abs(rec["odds"][k] - v) < 1e-9 for k, v in total.items())
    assert "destroyed" in insight.short_odds(rec)
    assert insight.option_odds(g, 0, ("move", 8, 2), ENGINEER) is None


@pytest.mark.parametrize("roll", [3, 6])
def test_the_inches_of_a_move_are_the_walk_the_engine_makes(roll, monkeypatch):
    """With the movement roll forced (and every test roll high, every mine's impact 1), the squad's move north and
    the vehicle's walk the inches inside the field that the odds give for that roll (the minefield rules' own
    record of the walk, kept) and make that many tests (mines)."""
    walked: dict = {}
    monkeypatch.setattr(mf, "move_paths", lambda game, u: walked.setdefault(u.uid, {}))
    g, d = _lane_position()
    w = next(w for w in insight.option_odds(g, 0, ("move", 0, 1), SQUAD)["odds"]["walks"] if w["roll"] == roll)
    add_dice(g, ("d6", roll), *[("d8", 8)] * 20)
    g.apply(("move", 0, 1))
    eid = _field(g)["id"]
    assert walked[SQUAD][f"{eid}:{w['figure']}"] == pytest.approx(w["fields"][0]["inches"], abs=1e-6)
    assert max(v for k, v in walked[SQUAD].items()) == pytest.approx(w["fields"][0]["inches"], abs=1e-6)
    tests = [t for t in events_of(g, "MineTest") if t["figure"] == w["figure"]]
    assert len(tests) == mf.blocks(w["fields"][0]["inches"]) > 0
    g, d = _lane_position(uid=ENGINEER)
    w = next(w for w in insight.option_odds(g, 0, ("move", 0, 2), ENGINEER)["odds"]["walks"] if w["roll"] == roll)
    add_dice(g, ("d12", roll), *[("d12", 1), ("d12x2", 12)] * 4)
    g.apply(("move", 0, 2))
    eid = _field(g, AT_FIELD)["id"]
    assert walked[ENGINEER][f"{eid}:v"] == pytest.approx(w["fields"][0]["inches"], abs=1e-6)
    assert len(events_of(g, "VehicleMine")) == mf.blocks(w["fields"][0]["inches"])


def test_move_odds_in_the_protocol_http_and_terminal():
    """The moves' odds reach the protocol's option objects and the terminal's move lines (``go DIR DIST [odds]``)."""
    from dustup_env import narrate as nr
    from dustup_env.terminal import option_menu
    g, d = _lane_position()
    rec = Session(g.clone(), ai=None, ai_side=None, ai_seed=0).decision(0)
    r = next(r for r in rec["options"] if r["option"] == ["move", 0, 1])
    want = insight.option_odds(g, 0, ("move", 0, 1), d.unit)
    assert r["odds"] == want["odds"] and r["odds_text"] == insight.short_odds(want)
    lines = option_menu(g, 0, d, nr.Knowledge.of_side(g, 0))[0]
    assert '        go N 6  [' + insight.short_odds(want) + ']' in lines


def test_a_hidden_enemy_minefield_gives_no_odds_and_changes_nothing_the_side_sees():
    """Twin games, one with the defenders' AP field not yet found beside the squad (and in the way of its moves
    north), one without it: the squad's options, their odds (protocol and terminal: no move carries minefield odds)
    and the side's view are the same; asked about the hidden field by the reference it would have, the reader
    answers nothing."""
    from dustup_env import narrate as nr
    from dustup_env.terminal import option_menu
    (ga, da), (gb, db) = _lane_position(found=False), _lane_position(found=False, drop_field=True)
    assert da.options == db.options and not [o for o in da.options if o[0] == "clear_lane"]
    sa, sb = (Session(g.clone(), ai=None, ai_side=None, ai_seed=0) for g in (ga, gb))
    assert sa.decision(0) == sb.decision(0)
    assert sa.view(0) == sb.view(0)
    menus = [option_menu(g, 0, d, nr.Knowledge.of_side(g, 0))[0] for g, d in ((ga, da), (gb, db))]
    assert menus[0] == menus[1]
    for ref in (-1, 0, 1):
        assert insight.option_odds(ga, 0, ("clear_lane", ref), SQUAD) is None
    assert not any(insight.option_odds(ga, 0, o, SQUAD) for o in da.options if o[0] == "move")
