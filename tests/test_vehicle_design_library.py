"""The design library (dustup_env/data/designs/): every file passes the design check, the library covers every
mobility type and vehicle kind and the pieces of the planned scenarios, and the derived Dustup statistics
round-trip through their JSON form. Plus the command as a real subprocess."""
import json
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from dustup_env.rules.vehicle_design import (HeavyWeaponDesignProfile, VehicleProfile, WeaponProfile, check,
                                             from_dict, library_names, library_profile, to_dict)
from dustup_env.rules.vehicle_design.tables import MOBILITIES

NAMES = library_names()
ROOT = Path(__file__).resolve().parents[1]


def test_the_library_is_not_empty_and_lists_every_file():
    files = sorted(p.stem for p in (ROOT / "dustup_env" / "data" / "designs").glob("*.json"))
    assert NAMES == files and len(NAMES) >= 25


@pytest.mark.parametrize("name", NAMES)
def test_every_library_design_passes_the_check(name):
    r = check(name)
    assert r.legal, [v.message for v in r.errors]
    assert r.warnings == (), [v.message for v in r.warnings]
    assert r.profile is not None
    doc = json.loads((ROOT / "dustup_env" / "data" / "designs" / f"{name}.json").read_text())
    assert doc.get("description"), "library designs say what they are"


def _profiles():
    return {n: library_profile(n) for n in NAMES}


def test_every_mobility_type_and_vehicle_kind_is_in_the_library():
    ps = _profiles()
    vehicles = [p for p in ps.values() if isinstance(p, VehicleProfile)]
    assert {p.mobility for p in vehicles} >= set(MOBILITIES) - {"hydrofoil", "slow_rsw", "fast_rsw"}
    assert {p.mobility_type for p in vehicles} == {"low_mobility_wheeled", "high_mobility_wheeled", "tracked", "hover",
                                                    "grav", "walker", "watercraft", "vtol", "aerospace"}
    assert {p.kind for p in vehicles} == {"conventional", "open_top", "soft_skin", "mech", "large_creature"}
    assert any(p.hatches for p in vehicles) and any(p.fire_ports for p in vehicles)
    carriages = {p.carriage for p in ps.values() if isinstance(p, HeavyWeaponDesignProfile)}
    assert carriages == {"man_packed", "towed"}


def test_the_library_has_the_pieces_of_the_armour_and_mech_scenarios():
    ps = _profiles()
    # each side of `armour`: squads (10 figures) in APCs, one or two tanks, a missile team
    apcs = [n for n, p in ps.items() if isinstance(p, VehicleProfile) and p.transport_figures >= 10
            and p.mobility_type not in ("vtol", "aerospace", "walker")]
    assert {"apc_wheeled", "ifv_tracked"} <= set(apcs)
    tanks = [n for n, p in ps.items() if isinstance(p, VehicleProfile) and p.kind == "conventional"
             and any(w.category == "direct_fire" and w.size >= 2 for w in p.weapons) and not p.transport_figures]
    assert {"light_tank", "main_battle_tank"} <= set(tanks)
    team = ps["missile_team"]
    assert team.weapon.category == "guided" and team.carriage == "man_packed" and team.weapon.size == 1
    # tank destroyer (a fixed primary), missile carrier, artillery, towed gun, man-packed HMG
    td = ps["tank_destroyer"]
    assert td.weapons[0].mount == "fixed" and td.weapons[0].stabilisation == "poor"
    assert sum(w.category == "guided" for w in ps["missile_carrier"].weapons) == 3
    assert any(w.category == "artillery" for w in ps["sp_artillery"].weapons)
    assert ps["towed_at_gun"].carriage == "towed" and ps["hmg_team"].weapon.type == "APSW"
    # mechs and monsters: fight in close combat, walk on a D6
    for n in ("combat_walker", "assault_mech", "infantry_walker", "hive_brute", "behemoth"):
        assert ps[n].close_combat and ps[n].movement_die == "d6" and ps[n].mobility_type == "walker"
    assert any(w.category == "close_combat" for w in ps["hive_brute"].weapons)


@pytest.mark.parametrize("name", NAMES)
def test_profiles_round_trip_through_json(name):
    p = library_profile(name)
    d = to_dict(p)
    again = from_dict(json.loads(json.dumps(d)))
    assert again == p
    assert d["profile"] == type(p).__name__ and d["profile_version"] == 1


def test_profiles_are_frozen_plain_data():
    p = library_profile("deimos_heavy_tank")
    with pytest.raises(AttributeError):
        p.size = 5
    for cls in (VehicleProfile, WeaponProfile, HeavyWeaponDesignProfile):
        for f in fields(cls):
            assert f.name in (ROOT / "docs" / "vehicle-design.md").read_text(), f"{cls.__name__}.{f.name} undocumented"


def test_profile_values_are_dustup_dice():
    from dustup_env.rules import parse_die
    for n in NAMES:
        p = library_profile(n)
        ws = p.weapons if isinstance(p, VehicleProfile) else (p.weapon,)
        for w in ws:
            for die in (*w.firepower, *w.firepower_vs_infantry, w.impact_vs_armour, w.impact_vs_infantry):
                parse_die(die)
            assert w.stabilisation in ("poor", "average", "superior")
        if isinstance(p, VehicleProfile):
            for k in ("front", "side", "rear", "top", "belly"):
                parse_die(getattr(p.armour, k))
            assert 1 <= p.target_size <= 5 and 1 <= p.size <= 5


def _run(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "dustup_cli", "design", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)


def test_the_command_in_a_subprocess(tmp_path):
    ok = _run("check", "deimos_heavy_tank")
    assert ok.returncode == 0 and "legal" in ok.stdout and "capacity 20: used 20, free 0" in ok.stdout
    assert "weapon MDC-4 main gun: size 4, turret, all round" in ok.stdout
    js = _run("check", "combat_walker", "--json")
    assert js.returncode == 0 and json.loads(js.stdout)["dustup"]["target_size"] == 5
    bad = tmp_path / "td.json"
    bad.write_text(json.dumps({"design": "vehicle", "name": "Example 2", "size": 3, "mobility": "slow_tracked",
                               "weapons": [{"type": "HKP-4", "mount": "fixed"}, {"type": "RFAC-2"}]}))
    r = _run("check", str(bad))
    assert r.returncode == 1 and "ERROR weapon-size (dustup, L1328)" in r.stdout and "[4 against 3: over by 1]" in r.stdout
    lst = _run("list", "--json")
    assert lst.returncode == 0 and len(json.loads(lst.stdout)) == len(NAMES)
    rules = _run("rules", "--json")
    assert rules.returncode == 0 and {r["name"] for r in json.loads(rules.stdout)} >= {"capacity", "weapon-size"}
    h = _run("check", "--help")
    assert h.returncode == 0 and "exit codes:" in h.stdout and "2  a file could not be read" in h.stdout


def test_the_user_guide_lists_every_rule_and_the_readings_exist():
    from dustup_env.rules.vehicle_design import RULES
    guide = (ROOT / "docs" / "vehicle-design.md").read_text()
    notes = (ROOT / "docs" / "rules-notes.md").read_text()
    for r in RULES.values():
        assert f"| `{r.name}` |" in guide, r.name
        for rn in (x.strip() for x in r.reading.split(",") if x.strip()):
            assert f"### {rn} " in notes, (r.name, rn)


def test_the_seed_002_coverage_rows_name_tests_that_exist():
    import re
    text = (ROOT / "docs" / "rules-coverage.md").read_text()
    section = text[text.index("## Seed 002 (Dirtside II): vehicle design"):]
    section = section[:section.index("\n## ", 5)] if "\n## " in section[5:] else section
    files = {"ex": "test_vehicle_design_examples.py", "rules": "test_vehicle_design_rules.py",
             "lib": "test_vehicle_design_library.py"}
    sources = {k: (ROOT / "tests" / v).read_text() for k, v in files.items()}
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| Section")
            and not line.startswith("| ---")]
    assert len(rows) >= 30
    named = 0
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[3] == "done", row
        prefix = None
        for m in re.finditer(r"(?:(ex|rules|lib))?::(test_\w+)", cells[2]):
            prefix = m.group(1) or prefix
            assert prefix, row
            assert f"def {m.group(2)}(" in sources[prefix], (prefix, m.group(2))
            named += 1
    assert named >= 60
