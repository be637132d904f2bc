"""Each design rule of `dustup design check`, rejected by name: one design that breaks it and the smallest change
that mends it, for every rule in the registry (a test fails if a rule has no case). Also the malformed-file
errors (one line, naming the field) and the readings the check applies."""
import json

import pytest

from dustup_cli.cli import main
from dustup_env.rules.vehicle_design import RULES, DesignFileError, check, load


def veh(size=3, mobility="slow_tracked", weapons=(), **kw):
    d = {"design": "vehicle", "name": "case", "size": size, "mobility": mobility, "armour": kw.pop("armour", 0),
         "weapons": list(weapons)}
    d.update(kw)
    return d


def hw(type_, carriage="man_packed", crew=3, **kw):
    return {"design": "heavy_weapon", "name": "case", "type": type_, "carriage": carriage, "crew": crew, **kw}


RFAC2 = {"type": "RFAC", "class": 2, "mount": "turret"}
MODULAR = {"design": "vehicle", "name": "cybertank", "mobility": "slow_tracked", "power_plant": "FGP",
           "modules": [{"role": "main", "size": 5, "armour": 7}, {"role": "tread", "size": 4, "armour": 5}]}

# rule -> (breaks it, mends it, (value, limit) of the violation or None)
CASES = {
    "capacity": (veh(size=2, weapons=[RFAC2, {"type": "GMS/L"}], transport={"line_infantry": 1}),
                 veh(size=2, weapons=[RFAC2], transport={"line_infantry": 1}), (12, 10)),
    "primary-weapon": (veh(weapons=[{"type": "RFAC", "class": 1, "primary": True}, RFAC2]),
                       veh(weapons=[{"type": "RFAC", "class": 1}, dict(RFAC2, primary=True)]), (2, 1)),
    "weapon-mount": (veh(weapons=[{"type": "RFAC", "class": 2, "mount": "limb"}]),
                     veh(weapons=[{"type": "RFAC", "class": 2, "mount": "fixed"}]), None),
    "weapon-systems": (veh(size=1, weapons=[{"type": "RFAC", "class": 1}, {"type": "GMS/L"}]),
                       veh(size=1, weapons=[{"type": "RFAC", "class": 1}]), (2, 1)),
    "weapon-class": (veh(weapons=[{"type": "RFAC", "class": 3}]), veh(weapons=[RFAC2]), (3, 2)),
    "weapon-size": (veh(size=2, weapons=[{"type": "HVC", "class": 3, "mount": "fixed"}]),
                    veh(size=3, weapons=[{"type": "HVC", "class": 3, "mount": "fixed"}]), (3, 2)),
    "weapon-size-recommendation": (veh(size=2, weapons=[{"type": "HVC", "class": 4, "mount": "fixed"}]),
                                   veh(size=2, weapons=[{"type": "HVC", "class": 3, "mount": "fixed"}]), (4, 3)),
    "transport-vehicle-size": (veh(transport={"vehicles": [3]}), veh(transport={"vehicles": [2]}), (3, 2)),
    "power-plant-mobility": (veh(mobility="grav", power_plant="CFE"), veh(mobility="grav", power_plant="FGP"), None),
    "power-plant-weapons": (veh(power_plant="CFE", weapons=[{"type": "MDC", "class": 2}]),
                            veh(power_plant="CFE", weapons=[{"type": "MDC", "class": 1}]), (2, 1)),
    "armour-rating": (veh(size=2, armour=3), veh(size=2, armour=2), (3, 2)),
    "facing-armour-size": (veh(size=2, armour=2, dustup={"facings": {"front": 3}}),
                           veh(size=2, armour=2, dustup={"facings": {"front": 2}}), (3, 2)),
    "armour-facings": (veh(armour=3, dustup={"facings": {"side": 3}}), veh(armour=3, dustup={"facings": {"side": 2}}),
                       None),
    "special-armour": (veh(armour=2, special_armour=["ablative", "reactive"]),
                       veh(armour=2, special_armour=["reactive"]), (2, 1)),
    "soft-skin": (veh(kind="soft_skin", armour=1), veh(kind="soft_skin", armour=0), (1, 0)),
    "stealth": (veh(size=2, stealth=2), veh(size=2, stealth=1), (2, 1)),
    "fire-control-count": (veh(size=5, fire_controls=2), veh(size=5, fire_controls=1), (2, 1)),
    "fire-control-per-weapon": (veh(fire_control="enhanced", weapons=[dict(RFAC2, dustup={"fire_control": "superior"})]),
                                veh(fire_control="superior", weapons=[dict(RFAC2, dustup={"fire_control": "superior"})]),
                                None),
    "system-quality-levels": (veh(dustup={"ecm": "very_superior"}), veh(dustup={"ecm": "superior"}), None),
    "fixed-mount-fire": (veh(weapons=[{"type": "HVC", "class": 3, "mount": "fixed", "stabilisation": "superior"}]),
                         veh(weapons=[{"type": "HVC", "class": 3, "mount": "fixed", "stabilisation": "poor"}]), None),
    "artillery-arc": (veh(size=4, weapons=[{"type": "artillery", "class": 4, "mount": "turret"}]),
                      veh(size=4, weapons=[{"type": "artillery", "class": 4}]), None),
    "riverine-armour": (veh(mobility="boat", armour=2), veh(mobility="boat", armour=1), (2, 1)),
    "riverine-weapon-class": (veh(mobility="boat", weapons=[{"type": "HVC", "class": 3, "mount": "turret"}]),
                              veh(mobility="boat", weapons=[RFAC2]), (3, 2)),
    "air-weapons": (veh(mobility="vtol", power_plant="FGP", weapons=[RFAC2]),
                    veh(mobility="vtol", power_plant="FGP", weapons=[dict(RFAC2, mount="fixed")]), (2, 1)),
    "air-armour": (veh(mobility="vtol", power_plant="FGP", armour=3),
                   veh(mobility="vtol", power_plant="FGP", armour=2), (3, 2)),
    "dfo-load": (veh(mobility="vtol", power_plant="FGP", weapons=[{"type": "DFO"}]),
                 veh(mobility="aerospace", power_plant="FGP", weapons=[{"type": "DFO"}]), None),
    "walker-size": (veh(size=3, mobility="walker", kind="mech", power_plant="FGP"),
                    veh(size=4, mobility="walker", kind="mech", power_plant="FGP"), (3, 4)),
    "walker-mobility": (veh(size=4, kind="mech"), veh(size=4, mobility="walker", kind="mech", power_plant="FGP"), None),
    "large-creature": (veh(mobility="walker", kind="large_creature", power_plant="FGP"),
                       veh(mobility="walker", kind="large_creature", power_plant="none"), None),
    "oversize": (veh(size=6, power_plant="FGP"), veh(size=5, power_plant="FGP"), (6, 5)),
    "modular": (MODULAR, veh(size=5, power_plant="FGP"), None),
    "modular-mobility": (dict(MODULAR, mobility="grav"), MODULAR, None),
    "modular-armour": (dict(MODULAR, modules=[{"role": "main", "size": 5, "armour": 8}]), MODULAR, (8, 7)),
    "man-packed-size": (hw("RFAC", **{"class": 2}), hw("RFAC", carriage="towed", **{"class": 2}), (2, 1)),
    "infantry-gms": (hw("GMS/H"), hw("GMS/L"), None),
    "infantry-weapon": (hw("RFAC", **{"class": 1}), hw("APSW"), None),
    "team-size": (hw("APSW", crew=5), hw("APSW", crew=3), (5, 3)),
}


def test_every_rule_has_a_case():
    assert set(CASES) == set(RULES)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_each_rule_is_rejected_by_name_and_the_mended_design_is_not(rule):
    bad, good, amount = CASES[rule]
    r = check(bad)
    hits = [v for v in r.errors + r.warnings if v.rule == rule]
    assert hits, f"{rule} not reported: {[v.rule for v in r.errors + r.warnings]}"
    v = hits[0]
    assert (v.source, v.severity) == (RULES[rule].source, RULES[rule].severity)
    assert v.message and "\n" not in v.message
    if amount is not None:
        assert (v.value, v.limit) == amount
    assert r.legal is (not r.errors)
    if v.severity == "error":
        assert not r.legal
    mended = check(good)
    assert rule not in mended.rules_broken(), [x.message for x in mended.errors + mended.warnings]


@pytest.mark.parametrize("rule", sorted(CASES))
def test_the_command_reports_each_rule_by_name_with_its_exit_code(rule, tmp_path, capsys):
    bad, _, _ = CASES[rule]
    f = tmp_path / "d.json"
    f.write_text(json.dumps(bad))
    code = main(["design", "check", str(f), "--json"])
    out = json.loads(capsys.readouterr().out)
    names = [v["rule"] for v in out["errors"] + out["warnings"]]
    assert rule in names
    severity = RULES[rule].severity
    assert code == (1 if out["errors"] else 0)
    if severity == "warning" and not out["errors"]:
        assert main(["design", "check", str(f), "--strict"]) == 1
        capsys.readouterr()


# --- malformed files ---------------------------------------------------------------------------
BAD_FILES = [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "(top level): a design must be a JSON object"),
    ('{"name": "x"}', 'design: must be "vehicle" or "heavy_weapon"'),
    ('{"design": "vehicle", "size": 2, "mobility": "grav"}', "(top level): 'name' is a required property"),
    ('{"design": "vehicle", "name": "x", "size": 9, "mobility": "grav"}', "size: 9 is greater than the maximum of 7"),
    ('{"design": "vehicle", "name": "x", "size": 2, "mobility": "legs"}', "mobility: 'legs' is not one of"),
    ('{"design": "vehicle", "name": "x", "size": 2, "mobility": "grav", "weapons": [{"type": "LASER"}]}',
     "weapons/0/type: unknown weapon type 'LASER' (known: RFAC, HVC"),
    ('{"design": "vehicle", "name": "x", "size": 2, "mobility": "grav", "weapons": [{"type": "MDC"}]}',
     "weapons/0/class: required for MDC (legal classes: 1, 2, 3, 4, 5)"),
    ('{"design": "vehicle", "name": "x", "size": 2, "mobility": "grav", "weapons": [{"type": "MDC", "class": "2"}]}',
     "weapons/0/class: '2' is not of type 'integer'"),
    ('{"design": "vehicle", "name": "x", "size": 2, "mobility": "grav", "armor": 2}',
     "(top level): Additional properties are not allowed ('armor' was unexpected)"),
    ('{"design": "vehicle", "name": "x", "mobility": "grav"}', "size: give the size class (1-7), or modules"),
    ('{"design": "vehicle", "name": "x", "size": 2, "mobility": "grav", "systems": [{"type": "APFC", "quality": "basic"}]}',
     "systems/0/quality: a APFC has no quality level"),
    ('{"design": "vehicle", "name": "x", "size": 2, "mobility": "grav", "dustup": {"movement_die": "d7"}}',
     "dustup/movement_die: 'd7' does not match"),
    ('{"design": "heavy_weapon", "name": "x", "type": "APSW", "carriage": "man_packed"}',
     "(top level): 'crew' is a required property"),
    ('{"design": "heavy_weapon", "name": "x", "type": "BFG", "carriage": "towed", "crew": 2}',
     "type: unknown weapon type 'BFG'"),
]


@pytest.mark.parametrize("text,message", BAD_FILES)
def test_malformed_files_give_one_line_naming_the_field(text, message, tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text(text)
    with pytest.raises(DesignFileError) as e:
        load(str(f))
    assert message in str(e.value) and str(e.value).startswith(str(f)) and "\n" not in str(e.value)
    assert main(["design", "check", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert main(["design", "check", str(f), "--json"]) == 2
    assert message in json.loads(capsys.readouterr().out)["error"]


def test_missing_files_and_directories(tmp_path, capsys):
    assert main(["design", "check", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["design", "check", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_the_seed_shorthand_and_lower_case_types_are_read():
    d = load(veh(weapons=[{"type": "MDC-2"}, {"type": "DFFG/3"}, {"type": "gms/l"}]))
    assert [(w.code, w.cls) for w in d.weapons] == [("MDC", 2), ("DFFG", 3), ("GMS/L", 1)]


def test_several_files_report_the_worst_exit_code(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(CASES["capacity"][0]))
    assert main(["design", "check", "deimos_heavy_tank", str(bad), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [r["legal"] for r in out] == [True, False]
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["design", "check", "deimos_heavy_tank", str(bad), str(broken)]) == 2


# --- readings the check applies (RN-6xx) -----------------------------------------------------------
def test_primary_weapon_ties_go_to_the_turret_and_cost_the_same_either_way():
    fixed_first = check(veh(size=4, weapons=[{"type": "HVC", "class": 3, "mount": "fixed"},
                                             {"type": "HVC", "class": 3, "mount": "turret"}]))
    assert fixed_first.dirtside["primary_weapon"] == "HVC-3" and fixed_first.dirtside["items"][1]["item"].endswith(
        "(turret, primary)")
    assert fixed_first.dirtside["capacity_used"] == 6 + 9  # RN-603: the total does not depend on the choice
    flagged = check(veh(size=4, weapons=[dict(type="HVC", mount="fixed", primary=True, **{"class": 3}),
                                         {"type": "HVC", "class": 3, "mount": "turret"}]))
    assert flagged.legal and flagged.dirtside["capacity_used"] == 15


def test_a_second_turret_pays_for_its_own_turret():
    r = check(veh(size=5, weapons=[{"type": "HVC", "class": 4, "mount": "turret"},
                                   {"type": "RFAC", "class": 2, "mount": "turret"},
                                   {"type": "RFAC", "class": 1, "mount": "turret", "turret": "rear"}]))
    assert [i["capacity"] for i in r.dirtside["items"][:3]] == [12, 4, 3]  # RN-603


def test_which_systems_count_toward_the_weapon_systems_limit():
    r = check(veh(size=5, weapons=[{"type": "GMS/L"}, {"type": "LAD"}, {"type": "APSW", "count": 2}],
                  systems=[{"type": "PDS", "quality": "basic"}, {"type": "ADS", "quality": "basic"},
                           {"type": "APFC"}, {"type": "CBR"}, {"type": "command"}]))
    assert r.dirtside["weapon_systems"] == 5  # GMS, LAD, extra APSW, PDS, ADS; not APFC, CBR, command (RN-602)
    items = {i["item"]: i["capacity"] for i in r.dirtside["items"]}
    assert items["counter-battery radar"] == 14 and items["command/communications centre"] == 8
    assert items["ADS (basic)"] == 10 and items["LAD"] == 2


def test_a_civilian_vehicle_has_no_free_apsw():
    r = check(veh(military=False, weapons=[{"type": "APSW"}]))
    assert [(i["item"], i["capacity"]) for i in r.dirtside["items"]] == [("APSW (extra)", 1)]
    assert r.dirtside["weapon_systems"] == 1 and not any(w.free for w in r.profile.weapons)
    mil = check(veh())
    assert [w.name for w in mil.profile.weapons] == ["APSW"] and mil.profile.weapons[0].free


def test_defaults_are_reported_as_assumptions():
    r = check(veh(weapons=[{"type": "GMS/L"}, RFAC2], systems=[{"type": "PDS"}]))
    assumed = {a.field: a.value for a in r.assumptions}
    assert assumed == {"power_plant": "CFE", "fire_control": "enhanced", "ecm": "enhanced",
                       "weapons/0/guidance": "enhanced", "systems/0/quality": "enhanced"}
    assert r.profile.ecm == "d8" and r.profile.weapons[0].guidance == "d8" and r.profile.decoy == "d8"


def test_dustup_values_stated_by_the_design_replace_the_derived_ones():
    r = check(veh(size=3, armour=3, weapons=[{"type": "HVC", "class": 3, "dustup": {
        "firepower": "2d8", "impact_vs_armour": "D12x3", "impact_vs_infantry": "d10"}}],
        dustup={"movement_die": "d8", "facings": {"front": 3, "side": 2, "rear": 1, "top": 1, "belly": 0}}))
    w = r.profile.weapons[0]
    assert (w.firepower, w.impact_vs_armour, w.impact_vs_infantry) == (("d8", "d8"), "d12x3", "d10")
    assert w.firepower_vs_infantry == ("d10",)  # not stated: derived
    assert r.profile.movement_die == "d8"
    assert (r.profile.armour.rear, r.profile.armour.belly) == ("d12", "d8")
    assert [v.rule for v in r.warnings] == ["armour-facings"]  # rear and top differ from Dirtside's rating - 1
    assert r.warnings[0].message.endswith("rear 1, top 1")


LEGAL = {"RFAC": {1, 2}, "HVC": {3, 4, 5}, "HKP": {3, 4, 5}, "MDC": {1, 2, 3, 4, 5}, "HEL": {1, 2, 3, 4, 5},
         "DFFG": {1, 2, 3, 4, 5}, "SLAM": {3, 4, 5}, "GMS/L": {1}, "GMS/H": {2}, "APSW": {1}, "LAD": {1},
         "artillery": {2, 4, 6}}


@pytest.mark.parametrize("wtype", sorted(LEGAL))
def test_every_weapon_types_legal_classes(wtype):
    """S002:487-543, 697-705: each type only in its classes (checked on an FGP oversize hull, so that no other rule
    interferes with the class)."""
    for cls in range(1, 8):
        r = check(veh(size=7, power_plant="FGP", weapons=[{"type": wtype, "class": cls, "mount": "fixed"}]))
        assert ("weapon-class" not in r.rules_broken()) is (cls in LEGAL[wtype]), (wtype, cls)


def test_arcs_of_fire():
    r = check(veh(size=5, weapons=[
        {"type": "HVC", "class": 3, "mount": "turret"}, {"type": "RFAC", "class": 1, "mount": "turret", "turret": "aft",
                                                          "traverse": 180},
        {"type": "RFAC", "class": 1, "mount": "fixed"}, {"type": "RFAC", "class": 2, "mount": "fixed", "arc": "front"},
        {"type": "artillery", "class": 2}]))
    arcs = [(w.arc, w.arc_degrees, w.stabilisation) for w in r.profile.weapons]
    assert arcs == [("all_round", 360, "average"), ("restricted_180", 180, "average"), ("fixed_30", 30, "poor"),
                    ("front", 90, "poor"), ("front_180", 180, "poor"), ("all_round", 360, "average")]  # + free APSW
    air = check(veh(size=3, mobility="vtol", power_plant="FGP", armour=2,
                    weapons=[{"type": "RFAC", "class": 1, "mount": "turret"}, {"type": "RFAC", "class": 1},
                             {"type": "GMS/L"}])).profile
    assert [(w.mount, w.arc) for w in air.weapons] == [("turret", "all_round"), ("fixed", "corridor"),
                                                       ("fixed", "front_180"), ("remote", "all_round")]
    assert air.movement_die is None and air.air.landing_zone == 12


def test_open_topped_vehicles_count_armour_0_against_artillery_and_slam():
    r = check(veh(kind="open_top", armour=3))
    assert r.profile.open_top and r.profile.armour_vs_artillery == "d8" and r.profile.armour.front == "d12x3"
    assert check(veh(armour=3)).profile.armour_vs_artillery is None
    soft = check(veh(armour=0)).profile
    assert soft.soft_skinned and soft.armour.front == "d8"


def test_several_missile_launchers_salvo_at_one_target():
    one = check(veh(weapons=[{"type": "GMS/L"}])).profile.weapons[0]
    three = check(veh(size=3, weapons=[{"type": "GMS/L", "count": 3}])).profile.weapons
    assert not one.slaved and all(w.slaved for w in three if w.category == "guided")  # S002:537
    assert [w.guidance for w in three if w.category == "guided"] == ["d8"] * 3  # each launcher its own guidance


@pytest.mark.parametrize("crew,move,fire", [(2, 2, 1), (3, 2, 1), (4, 3, 1)])
def test_man_packed_crews(crew, move, fire):
    p = check(hw("APSW", crew=crew, fire_control="basic")).profile
    assert (p.crew_to_move, p.crew_to_fire, p.crew_to_limber, p.encumbers_crew) == (move, fire, 0, True)
    assert (p.target_size, p.armour, p.weapon.fire_control, p.weapon.firepower) == (1, "d8", "inferior", ("d6", "d6"))


def test_towed_guns_and_energy_weapons():
    p = check(hw("HVC", carriage="towed", crew=5, **{"class": 3})).profile
    assert (p.target_size, p.tractor_size, p.tractor_size_dustup, p.crew_to_limber, p.crew_to_fire) == (2, 2, 1, 3, 3)
    assert (p.weapon.arc, p.weapon.effective_range, p.encumbers_crew) == ("front_180", 144, False)
    laser = check(hw("HEL", carriage="towed", **{"class": 2}))
    assert "power-plant-weapons" in laser.rules_broken() and laser.profile is None
    claws = check(hw("CCW", **{"class": 1}))
    assert "weapon-mount" in claws.rules_broken()


# --- property test: any design the schema accepts is checked without crashing, and the report is consistent ----
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from dustup_env.rules.vehicle_design import from_dict, to_dict  # noqa: E402
from dustup_env.rules.vehicle_design.tables import MOBILITIES, WEAPON_TYPES  # noqa: E402

_weapon = st.fixed_dictionaries(
    {"type": st.sampled_from(sorted(WEAPON_TYPES)), "class": st.integers(1, 7)},
    optional={"mount": st.sampled_from(["turret", "fixed", "limb"]), "barrels": st.integers(1, 3),
              "count": st.integers(1, 3), "turret": st.sampled_from(["main", "aft"]), "traverse": st.sampled_from([360, 180]),
              "arc": st.sampled_from(["centre_line", "front"]), "primary": st.booleans(),
              "guidance": st.sampled_from(["basic", "enhanced", "superior"]),
              "stabilisation": st.sampled_from(["poor", "average", "superior"]), "slaved": st.booleans()})
_design = st.fixed_dictionaries(
    {"design": st.just("vehicle"), "name": st.just("random"), "size": st.integers(1, 7),
     "mobility": st.sampled_from(sorted(MOBILITIES))},
    optional={"kind": st.sampled_from(["conventional", "open_top", "soft_skin", "mech", "large_creature"]),
              "walker_type": st.sampled_from(["combat", "transport", "infantry"]),
              "power_plant": st.sampled_from(["CFE", "HMT", "FGP", "none"]), "armour": st.integers(0, 8),
              "special_armour": st.sampled_from(["none", "ablative", "reactive", ["ablative", "reactive"]]),
              "stealth": st.integers(0, 4), "military": st.booleans(), "fire_controls": st.integers(1, 4),
              "fire_control": st.sampled_from(["basic", "enhanced", "superior"]),
              "ecm": st.sampled_from(["none", "basic", "enhanced", "superior"]),
              "weapons": st.lists(_weapon, max_size=5),
              "systems": st.lists(st.fixed_dictionaries({"type": st.sampled_from(["PDS", "ADS", "APFC", "CBR"])}),
                                  max_size=3),
              "transport": st.fixed_dictionaries({}, optional={"line_infantry": st.integers(0, 3),
                                                               "powered_infantry": st.integers(0, 2),
                                                               "vehicles": st.lists(st.integers(1, 7), max_size=2)})})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_design)
def test_random_designs_are_checked_consistently(doc):
    try:
        r = check(doc)
    except DesignFileError:
        return  # e.g. a class left out where the type needs one: a one-line file error, never a crash
    assert r.legal is (not r.errors)
    assert all(v.rule in RULES and v.severity == RULES[v.rule].severity for v in r.errors + r.warnings)
    ds = r.dirtside
    assert ds["capacity_used"] == sum(i["capacity"] for i in ds["items"])
    assert ("capacity" in r.rules_broken()) is (ds["capacity_used"] > ds["capacity"])
    assert ("weapon-systems" in r.rules_broken()) is (ds["weapon_systems"] > ds["weapon_systems_limit"])
    if doc["size"] > 5:
        assert "oversize" in r.rules_broken() and r.profile is None
    else:
        assert r.profile is not None and from_dict(json.loads(json.dumps(to_dict(r.profile)))) == r.profile
        assert all(w.size <= doc["size"] for w in r.profile.weapons) or "weapon-size" in r.rules_broken()
    json.dumps(r.to_dict())
