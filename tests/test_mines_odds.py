"""`dustup odds minefield` against an exact enumeration written here, independently of the engine (seed 000 L1928-1932):
an infantry model rolls its quality die for every 3" or part it moves inside the field, hit on 1-3 (AP) or 1-2
(mixed), never in an AT field; a vehicle in an AT or mixed field triggers a mine per 3" or part, a D12 against its
belly armour die, stopped by the first that beats it (damaged and immobilised; more than double: destroyed)."""
import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest

from dustup_cli.cli import main
from evaluation.odds import minefield_odds

SIDES = {"d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12}


def faces(die):
    """Every face value of a die, d12xN included (a D12 times N)."""
    if "x" in die:
        return [f * int(die.split("x")[1]) for f in range(1, 13)]
    return list(range(1, SIDES[die] + 1))


def mine_count(inches):
    return 0 if inches <= 0 else math.ceil(inches / 3 - 1e-12)


def infantry_brute(quality, kind, inches):
    """Every sequence of quality rolls, counted."""
    n = mine_count(inches) if kind != "at" else 0
    hit = {"ap": 3, "mixed": 2, "at": 0}[kind]
    counts = {}
    seqs = list(itertools.product(faces(quality), repeat=n))
    for seq in seqs:
        k = sum(1 for r in seq if r <= hit)
        counts[k] = counts.get(k, 0) + 1
    return {str(k): Fraction(c, len(seqs)) for k, c in sorted(counts.items())}


def vehicle_brute(kind, inches, belly):
    """Every sequence of (impact, armour) pairs, the vehicle stopping at the first that beats the armour."""
    n = mine_count(inches) if kind != "ap" else 0
    pairs = list(itertools.product(faces("d12"), faces(belly)))
    memo = {}

    def fate(left):  # the distribution with ``left`` mines still to come, every pair of faces counted
        if left not in memo:
            out = {"none": Fraction(int(left == 0)), "damaged": Fraction(0), "destroyed": Fraction(0)}
            if left:
                rest = fate(left - 1)
                for i, a in pairs:
                    if i > 2 * a:
                        out["destroyed"] += Fraction(1, len(pairs))
                    elif i > a:
                        out["damaged"] += Fraction(1, len(pairs))
                    else:
                        for k in out:
                            out[k] += rest[k] / len(pairs)
            memo[left] = out
        return memo[left]

    return fate(n)


@pytest.mark.parametrize("quality", ["d4", "d6", "d8", "d10", "d12"])
@pytest.mark.parametrize("kind", ["ap", "mixed", "at"])
@pytest.mark.parametrize("inches", [0, 0.5, 3, 3.5, 6, 7, 12])
def test_infantry_odds_equal_the_enumeration(quality, kind, inches):
    got = minefield_odds(kind, inches, quality=quality)["hits"]
    want = infantry_brute(quality, kind, inches)
    assert set(got) == set(want) or all(float(got.get(k, 0)) == 0 for k in set(got) - set(want))
    for k in set(got) | set(want):
        assert abs(float(got.get(k, 0)) - float(want.get(k, 0))) < 1e-9, (k, got, want)


@pytest.mark.parametrize("belly", ["d8", "d12", "d12x2", "d12x3"])
@pytest.mark.parametrize("kind", ["ap", "mixed", "at"])
@pytest.mark.parametrize("inches", [0, 2, 3, 6, 9])
def test_vehicle_odds_equal_the_enumeration(belly, kind, inches):
    got = minefield_odds(kind, inches, vehicle=True, belly=belly)
    want = vehicle_brute(kind, inches, belly)
    assert set(got) == {"none", "damaged", "destroyed"}
    for k in want:
        assert abs(float(got[k]) - float(want[k])) < 1e-9, (k, got, want)


def test_the_cli_prints_the_hits_and_the_vehicles_fate(capsys):
    assert main(["odds", "minefield", "--quality", "d8", "--type", "ap", "--inches", "7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    want = infantry_brute("d8", "ap", 7)
    assert set(out) == {"hits"} and all(abs(out["hits"][k] - float(v)) < 1e-9 for k, v in want.items())
    assert main(["odds", "minefield", "--type", "mixed", "--inches", "10", "--vehicle", "--belly", "d12x2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    want = vehicle_brute("mixed", 10, "d12x2")  # 4 mines
    assert set(out) == set(want) and all(abs(out[k] - float(v)) < 1e-9 for k, v in want.items())


@pytest.mark.parametrize("bad, message", [
    (["--type", "xx", "--inches", "3"], "invalid choice"),
    (["--type", "ap"], "give --inches"),
    (["--type", "ap", "--inches", "-2"], "inches must be"),
    (["--type", "ap", "--inches", "3", "--quality", "d7"], "bad die type"),
    (["--type", "at", "--inches", "3", "--vehicle", "--belly", "tough"], "bad die type"),
])
def test_bad_flags_give_one_line(bad, message):
    p = subprocess.run([sys.executable, "-m", "dustup_cli", "odds", "minefield", *bad], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in p.stderr
