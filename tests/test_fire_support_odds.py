"""`dustup odds request` against an independent exact enumeration of the Request Fire Support roll (seed 000
L1624-1642): a D8, one type down for another platoon and two for another company, one up per chit (closed at D4
and D12), must exceed leadership plus the difficulty (RN-1400: the pairings the table leaves out count as other)."""
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from dustup_cli.cli import main
from evaluation.odds import request_odds

LADDER = (4, 6, 8, 10, 12)
TABLE = {("fo", "artillery"): 0, ("other", "artillery"): 2, ("lo", "air"): 2, ("other", "air"): 4,
         ("lo", "orbital"): 3, ("other", "orbital"): 6}


def brute(requestor, support, leadership, chits=0, down=0):
    diff = TABLE.get((requestor, support), TABLE[("other", support)])
    sides = LADDER[min(4, max(0, 2 + chits - down))]
    return Fraction(sum(1 for face in range(1, sides + 1) if face > leadership + diff), sides)


@pytest.mark.parametrize("requestor", ["fo", "lo", "other"])
@pytest.mark.parametrize("support", ["artillery", "air", "orbital"])
def test_request_odds_equal_the_enumeration(requestor, support):
    for lv in range(0, 7):
        for chits in range(0, 4):
            for down in range(0, 3):
                got = request_odds(requestor, support, lv, chits=chits, down=down)["success"]
                assert got == brute(requestor, support, lv, chits, down), (lv, chits, down)


@pytest.mark.parametrize("args, want", [
    (["--requestor", "fo", "--support", "artillery", "--leadership", "1"], brute("fo", "artillery", 1)),
    (["--requestor", "lo", "--support", "orbital", "--leadership", "2", "--chits", "2"], brute("lo", "orbital", 2, 2)),
    (["--requestor", "other", "--support", "air", "--leadership", "1", "--other-platoon"], brute("other", "air", 1, 0, 1)),
    (["--requestor", "fo", "--support", "air", "--leadership", "0", "--chits", "1", "--other-company"],
     brute("fo", "air", 0, 1, 2)),
])
def test_the_cli_prints_the_success_probability(args, want, capsys):
    assert main(["odds", "request", *args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"success"} and abs(out["success"] - float(want)) < 1e-9


def test_the_cli_in_a_subprocess_and_its_bad_input():
    p = subprocess.run([sys.executable, "-m", "dustup_cli", "odds", "request", "--requestor", "fo", "--support",
                        "artillery", "--leadership", "3", "--json"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and abs(json.loads(p.stdout)["success"] - 5 / 8) < 1e-9
    for bad in (["--requestor", "xo"], ["--support", "naval"], ["--leadership", "-1"],
                ["--other-platoon", "--other-company"]):
        base = {"--requestor": "fo", "--support": "air", "--leadership": "1"}
        argv = ["odds", "request"]
        for k, v in base.items():
            if k not in bad:
                argv += [k, v]
        p = subprocess.run([sys.executable, "-m", "dustup_cli", *argv, *bad], capture_output=True, text=True,
                           timeout=120)
        assert p.returncode != 0 and "Traceback" not in p.stderr and p.stderr.strip(), (bad, p.stderr)
