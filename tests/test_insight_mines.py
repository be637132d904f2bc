"""Minefield odds on the options (``dustup_env.insight``): clearing a lane through a known enemy minefield
(Additional Rules › Mine Clearing, L1946-1958; the tests of Minefields, L1930) carries the odds of the mines the
clearing model sets off, for each movement roll and together; they are ``dustup odds minefield`` for the same
field type, quality and inches, and reach the protocol's and HTTP API's option objects and the terminal's option
lines.  A minefield the side has not found gives no odds and changes nothing the side sees (twin games)."""
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
AP_FIELD = [9, 22]  # breach: the defenders' AP field in the west of the belt


def _breach(pos=(9, 16.5), drop_field=False, dice=()):
    """``breach`` with the 1st Squad within 3" of the AP field's edge, side 0 to activate."""
    scn = load_scenario("breach")
    scn["sides"][0]["units"][SQUAD]["position"] = list(pos)
    if drop_field:
        scn["sides"][1]["mines"] = [m for m in scn["sides"][1]["mines"] if m["position"] != AP_FIELD]
    return begin(scn, dice)


def _field(g):
    return next(e for e in g.entities if e["kind"] == mf.MINEFIELD and [e["x"], e["y"]] == AP_FIELD)


def _lane_position(found=True, **kw):
    g = _breach(**kw)
    if found:
        mf.found(g, _field(g)["id"])
    activate(g, SQUAD)
    return g, g.decision()


def _cli(capsys, kind, inches, quality):
    from dustup_cli.cli import main
    assert main(["odds", "minefield", "--type", kind, "--inches", repr(inches), "--quality", quality, "--json"]) == 0
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


def test_a_hidden_enemy_minefield_gives_no_odds_and_changes_nothing_the_side_sees():
    """Twin games, one with the defenders' AP field not yet found beside the squad, one without it: the squad's
    options, their odds (protocol and terminal) and the side's view are the same; asked about the hidden field by
    the reference it would have, the reader answers nothing."""
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
