"""`dustup odds` against an independent exact enumeration (itertools over every face)."""
import itertools
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from dustup_cli.cli import main
from evaluation.odds import impact_odds, shoot_odds

SIDES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12}


def brute_shoot(quality, firepower, target, suppressive=False, extra=True):
    """Independent re-statement of Resolving Direct Fire / Determine Casualties / Additional Hits."""
    t_s = SIDES[target]
    dice = [SIDES[quality]] + [SIDES[f] for f in firepower]
    res = {"none": Fraction(0), "minor": Fraction(0), "major": Fraction(0)}
    hits = {}
    base = Fraction(1, t_s)
    for d in dice:
        base /= d
    for t in range(1, t_s + 1):
        for rolls in itertools.product(*[range(1, s + 1) for s in dice]):
            succ = sum(r > t for r in rolls)
            if succ == 0:
                res["none"] += base
                hits[0] = hits.get(0, 0) + base
                continue
            res["minor" if succ == 1 else "major"] += base
            if succ == 1 or suppressive:
                hits[0] = hits.get(0, 0) + base
                continue
            h, rem = divmod(sum(rolls), t_s)
            if extra and rem:
                p_extra = Fraction(rem, t_s)
                hits[h + 1] = hits.get(h + 1, 0) + base * p_extra
                hits[h] = hits.get(h, 0) + base * (1 - p_extra)
            else:
                hits[h] = hits.get(h, 0) + base
    return res, hits


CASES = [("d8", ["d10", "d6"], "d10", False, True), ("d8", ["d10", "d6"], "d10", False, False),
         ("d6", ["d8"], "d4", False, True), ("d10", ["d12", "d8"], "d8", True, True),
         ("d12", ["d4"], "d12", False, True), ("d4", ["d6", "d6", "d8"], "d6", False, True)]


@pytest.mark.parametrize("q,fp,t,sup,extra", CASES)
def test_shoot_odds_match_brute_force(q, fp, t, sup, extra):
    got = shoot_odds(q, fp, t, suppressive=sup, extra_hits=extra)
    res, hits = brute_shoot(q, fp, t, sup, extra)
    for k in ("none", "minor", "major"):
        assert got[k] == res[k]
    assert {int(k): v for k, v in got["hits"].items() if v} == {k: v for k, v in hits.items() if v}
    assert got["expected_hits"] == sum(k * v for k, v in hits.items())
    assert sum(got["hits"].values()) == 1


def test_extended_example_odds_value():
    # the seed's example: D8 quality, D10 small arms, D6 plasma vs a D10 target
    got = shoot_odds("d8", ["d10", "d6"], "d10")
    assert float(got["major"]) == pytest.approx(0.3325, abs=1e-12)


@pytest.mark.parametrize("imp,arm", [("d6", "d6"), ("d8", "d4"), ("d12", "d10"), ("d4", "d12")])
def test_impact_odds_match_brute_force(imp, arm):
    i_s, a_s = SIDES[imp], SIDES[arm]
    exp = {"none": Fraction(0), "wound": Fraction(0), "kill": Fraction(0)}
    for i in range(1, i_s + 1):
        for a in range(1, a_s + 1):
            exp["kill" if i > 2 * a else "wound" if i > a else "none"] += Fraction(1, i_s * a_s)
    assert impact_odds(imp, arm) == exp


def test_no_armour_odds():
    got = impact_odds("d6", "d4", no_armour=True)
    assert got["none"] == 0
    kill = sum(Fraction(1, 24) for i in range(1, 7) for a in range(1, 5) if i > 2 * a)
    assert got["kill"] == kill and got["wound"] == 1 - kill


def test_cli_odds_json_exact(capsys):
    assert main(["odds", "shoot", "--quality", "d8", "--firepower", "d10", "--firepower", "d6", "--target", "d10",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    res, hits = brute_shoot("d8", ["d10", "d6"], "d10")
    for k in ("none", "minor", "major"):
        assert abs(out[k] - float(res[k])) < 1e-9
    for k, v in hits.items():
        assert abs(out["hits"][str(k)] - float(v)) < 1e-9
    assert abs(out["expected_hits"] - float(sum(k * v for k, v in hits.items()))) < 1e-9
    assert main(["odds", "impact", "--impact", "d6", "--armour", "d6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert abs(out["none"] - 21 / 36) < 1e-12 and abs(out["wound"] - 9 / 36) < 1e-12 and abs(out["kill"] - 6 / 36) < 1e-12


def test_cli_bad_die_is_a_clear_error(capsys):
    assert main(["odds", "impact", "--impact", "d7", "--armour", "d6"]) == 2
    assert "d7" in capsys.readouterr().err


def test_cli_help_on_every_subcommand():
    for args in (["--help"], ["simulate", "--help"], ["odds", "--help"], ["odds", "shoot", "--help"],
                 ["odds", "impact", "--help"], ["scenarios", "--help"], ["play", "--help"], ["replay", "--help"]):
        r = subprocess.run([sys.executable, "-m", "dustup_cli", *args], capture_output=True, text=True)
        assert r.returncode == 0 and "usage:" in r.stdout, args
