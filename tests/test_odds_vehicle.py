"""`dustup odds impact --vehicle` and `dustup odds guided` against an independent exact enumeration (itertools)."""
import itertools
import json
from fractions import Fraction

import pytest

from dustup_cli.cli import main
from evaluation.odds import guided_odds, vehicle_impact_odds

LADDER = ("d4", "d6", "d8", "d10", "d12")


def faces(die: str) -> list[int]:
    """Every value of a die with equal weight: dN -> 1..N; d12xM -> M, 2M, .., 12M."""
    die = die.lower()
    if "x" in die:
        m = int(die.split("x")[1])
        return [m * k for k in range(1, 13)]
    return list(range(1, int(die[1:]) + 1))


def brute_vehicle(impact: str, armour: str) -> dict:
    out = {"none": Fraction(0), "damaged": Fraction(0), "destroyed": Fraction(0)}
    fi, fa = faces(impact), faces(armour)
    p = Fraction(1, len(fi) * len(fa))
    for i, a in itertools.product(fi, fa):
        out["destroyed" if i > 2 * a else "damaged" if i > a else "none"] += p
    return out


def brute_guided(quality, guidance, ecm, impact, armour, cover=False) -> dict:
    if cover and ecm != "d12":
        ecm = LADDER[LADDER.index(ecm) + 1]
    out = {"miss": Fraction(0), "suppressed": Fraction(0), "hit": Fraction(0), "damaged": Fraction(0),
           "destroyed": Fraction(0)}
    fe, fq, fg = faces(ecm), faces(quality), faces(guidance)
    p = Fraction(1, len(fe) * len(fq) * len(fg))
    hit_odds = brute_vehicle(impact, armour)
    for e, q, g in itertools.product(fe, fq, fg):
        n = (q > e) + (g > e)
        out[("miss", "suppressed", "hit")[n]] += p
        if n == 2:
            out["damaged"] += p * hit_odds["damaged"]
            out["destroyed"] += p * hit_odds["destroyed"]
    return out


IMPACT_CASES = [("d12x2", "d12x3"), ("d8", "d8"), ("d12", "d8"), ("d12x3", "d12x2"), ("d10", "d12x2"),
                ("d4", "d12"), ("d12x4", "d12")]
GUIDED_CASES = [("d8", "d10", "d8", "d12x3", "d12x2"), ("d6", "d8", "d8", "d12x2", "d12x2"),
                ("d10", "d12", "d12", "d12x3", "d12x3"), ("d4", "d6", "d4", "d12", "d8"),
                ("d12", "d8", "d10", "d10", "d12"), ("d8", "d8", "d6", "d12x2", "d12x4")]


@pytest.mark.parametrize("impact,armour", IMPACT_CASES)
def test_vehicle_impact_odds_equal_the_enumeration(impact, armour):
    assert vehicle_impact_odds(impact, armour) == brute_vehicle(impact, armour)


@pytest.mark.parametrize("cover", [False, True])
@pytest.mark.parametrize("case", GUIDED_CASES)
def test_guided_odds_equal_the_enumeration(case, cover):
    got = guided_odds(*case, cover=cover)
    assert got == brute_guided(*case, cover=cover)
    assert got["miss"] + got["suppressed"] + got["hit"] == 1
    assert got["damaged"] + got["destroyed"] <= got["hit"]


def _cli(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_odds_impact_vehicle(capsys):
    out = _cli(capsys, ["odds", "impact", "--impact", "d12x2", "--armour", "d12x3", "--vehicle", "--json"])
    assert set(out) == {"none", "damaged", "destroyed"}
    ref = brute_vehicle("d12x2", "d12x3")
    assert all(abs(out[k] - float(ref[k])) < 1e-9 for k in ref)
    assert (round(out["none"], 4), round(out["damaged"], 4), round(out["destroyed"], 4)) == (0.6944, 0.1806, 0.125)


def test_cli_odds_guided(capsys):
    out = _cli(capsys, ["odds", "guided", "--quality", "d8", "--guidance", "d10", "--ecm", "d8", "--cover",
                        "--impact", "d12x3", "--armour", "d12x2", "--json"])
    assert set(out) == {"miss", "suppressed", "hit", "damaged", "destroyed"}
    ref = brute_guided("d8", "d10", "d8", "d12x3", "d12x2", cover=True)
    assert all(abs(out[k] - float(ref[k])) < 1e-9 for k in ref)
    assert abs(out["miss"] + out["suppressed"] + out["hit"] - 1) < 1e-9
    assert (round(out["miss"], 4), round(out["suppressed"], 4), round(out["hit"], 4), round(out["damaged"], 4),
            round(out["destroyed"], 4)) == (0.445, 0.31, 0.245, 0.0766, 0.0868)
    out = _cli(capsys, ["odds", "guided", "--quality", "d8", "--guidance", "d10", "--ecm", "d8",
                        "--impact", "d12x3", "--armour", "d12x2", "--json"])
    ref = brute_guided("d8", "d10", "d8", "d12x3", "d12x2")
    assert all(abs(out[k] - float(ref[k])) < 1e-9 for k in ref)


def test_cli_odds_bad_die_is_a_usage_error(capsys):
    assert main(["odds", "guided", "--ecm", "d7", "--json"]) != 0
    assert main(["odds", "impact", "--vehicle", "--no-armour", "--json"]) != 0
