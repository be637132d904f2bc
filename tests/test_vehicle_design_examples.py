"""Every worked example of seed 002 (Dirtside II chapters 1-3) as a test of `dustup design check`.

The numbers in the asserts are the seed's (line references S002:n); where the example also breaks a
Dustup rule (seed 000), the test says which. Positive and negative cases of each example.
"""
import pytest

from dustup_env.rules.vehicle_design import check


def veh(size=4, mobility="slow_tracked", weapons=(), **kw):
    d = {"design": "vehicle", "name": kw.pop("name", "example"), "size": size, "mobility": mobility,
         "armour": kw.pop("armour", 0), "weapons": list(weapons)}
    d.update(kw)
    return d


def items(report):
    return [(i["item"], i["capacity"]) for i in report.dirtside["items"]]


def broken(report):
    return sorted(v.rule for v in report.errors), sorted(v.rule for v in report.warnings)


def violation(report, rule):
    found = [v for v in report.errors + report.warnings if v.rule == rule]
    assert found, f"{rule} not reported: {broken(report)}"
    return found[0]


# 1. S002:473 -- capacity = 5 x size class
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_01_capacity_is_five_times_the_size_class(size):
    r = check(veh(size=size))
    assert r.dirtside["capacity"] == 5 * size
    assert check(veh(size=4)).dirtside["capacity"] == 20  # "4 x 5 = 20 Capacity points"


# 2. S002:587 -- armour 5: front 5, sides, top, rear 4
def test_02_armour_rating_is_the_front_and_one_less_elsewhere():
    r = check(veh(size=5, armour=5))
    assert r.dirtside["armour_facings"] == {"front": 5, "side": 4, "rear": 4, "top": 4, "belly": 4}
    p = r.profile
    assert (p.armour.front, p.armour.side, p.armour.rear, p.armour.top) == ("d12x5", "d12x4", "d12x4", "d12x4")
    assert check(veh(size=2, armour=0)).dirtside["armour_facings"]["side"] == 0  # "no Armour Value less than 0"


# 3. S002:613 -- class 4 with two stealth levels: basic signature 4, effective 2
def test_03_stealth_lowers_the_signature():
    r = check(veh(size=4, stealth=2))
    assert r.dirtside["signature"] == {"basic": 4, "effective": 2}
    assert r.profile.signature == 2 and r.profile.target_size == 2 and r.profile.size == 4


# 4. S002:655 -- a class-3 weapon: fixed 6, turret 9
@pytest.mark.parametrize("mount,cap", [("fixed", 6), ("turret", 9)])
def test_04_a_class_3_weapon_in_a_fixed_mount_or_a_turret(mount, cap):
    r = check(veh(size=3, weapons=[{"type": "HVC", "class": 3, "mount": mount}]))
    assert items(r)[0] == (f"HVC-3 ({mount}, primary)", cap)
    assert r.legal


# 5. S002:661 -- a twin class-3 mount in a turret: 9 + 6 = 15
def test_05_twin_class_3_in_a_turret_is_fifteen():
    twin = check(veh(size=3, weapons=[{"type": "HKP", "class": 3, "mount": "turret", "barrels": 2}]))
    assert items(twin)[0][1] == 15 and twin.dirtside["capacity_free"] == 0
    two = check(veh(size=3, weapons=[{"type": "HKP", "class": 3, "mount": "turret", "count": 2}]))
    assert [c for _, c in items(two)] == [9, 6, 0]  # the same barrels listed separately cost the same
    assert twin.legal and two.legal


# 6. S002:663-665 -- weapon systems on class 3: at most 3; every barrel and a PDS count, the free APSW does not
def test_06_weapon_systems_at_most_the_size():
    ok = check(veh(size=3, weapons=[{"type": "RFAC", "class": 1, "mount": "turret", "barrels": 2}, {"type": "APSW"}],
                   systems=[{"type": "PDS", "quality": "basic"}]))
    assert ok.dirtside["weapon_systems"] == 3 and ok.legal
    over = check(veh(size=3, weapons=[{"type": "RFAC", "class": 1, "mount": "turret", "barrels": 2},
                                      {"type": "APSW", "count": 2}], systems=[{"type": "PDS", "quality": "basic"}]))
    v = violation(over, "weapon-systems")  # the second APSW is an extra one: it counts and costs 1
    assert (v.value, v.limit, v.amount, v.severity) == (4, 3, 1, "error")
    assert ("APSW (extra)", 1) in items(over) and ("APSW (free)", 0) in items(over)


# 7. S002:667 -- the weapon-size recommendation; a fixed class-5 gun on a class-2 hull uses all 10 capacity
def test_07_weapon_size_recommendation_and_the_dustup_limit():
    r = check(veh(size=2, weapons=[{"type": "HVC", "class": 5, "mount": "fixed"}]))
    assert r.dirtside["capacity_used"] == 10 and r.dirtside["capacity_free"] == 0  # "possible ... but only just"
    assert "capacity" not in r.rules_broken()
    rec = violation(r, "weapon-size-recommendation")
    assert (rec.severity, rec.source, rec.value, rec.limit) == ("warning", "dirtside", 5, 3)
    dust = violation(r, "weapon-size")  # seed 000 L1328: no weapon larger than the vehicle
    assert (dust.severity, dust.source, dust.value, dust.limit) == ("error", "dustup", 5, 2)
    # "a class-3 vehicle could not carry any single weapon larger than class 4"
    four = check(veh(size=3, weapons=[{"type": "HVC", "class": 4, "mount": "fixed"}]))
    assert broken(four) == (["weapon-size"], [])
    five = check(veh(size=3, weapons=[{"type": "HVC", "class": 5, "mount": "fixed"}]))
    assert broken(five) == (["weapon-size"], ["weapon-size-recommendation"])
    assert check(veh(size=3, weapons=[{"type": "HVC", "class": 3, "mount": "fixed"}])).legal


EXAMPLE_1 = veh(size=4, name="Example 1", weapons=[{"type": "HVC", "class": 4, "mount": "turret"},
                                                  {"type": "MDC", "class": 2, "mount": "turret"}])


# 8. S002:671 -- Example 1: turreted class 4 = 12, leaves 8; a twin takes all 8; an MDC/2 secondary = 4, leaves 4
def test_08_example_1_class_4_tank():
    r = check(EXAMPLE_1)
    assert items(r) == [("HVC-4 (turret, primary)", 12), ("MDC-2 (turret, secondary)", 4), ("APSW (free)", 0)]
    assert r.dirtside["capacity_free"] == 4 and r.legal
    # the seed names no power plant: the least plant that allows the MDC/2 is assumed (RN-604)
    assert r.dirtside["power_plant"] == "CFE"
    assert any(a.field == "power_plant" and a.value == "CFE" for a in r.assumptions)
    twin = check(veh(size=4, weapons=[{"type": "HVC", "class": 4, "mount": "turret", "barrels": 2}]))
    assert twin.dirtside["capacity_used"] == 20 and twin.dirtside["capacity_free"] == 0
    over = check(veh(size=4, weapons=[{"type": "HVC", "class": 4, "mount": "turret", "barrels": 2},
                                      {"type": "MDC", "class": 2, "mount": "turret"}]))
    v = violation(over, "capacity")
    assert (v.value, v.limit, v.amount) == (24, 20, 4)


EXAMPLE_2 = veh(size=3, name="Example 2", weapons=[{"type": "HKP", "class": 4, "mount": "fixed"},
                                                  {"type": "RFAC", "class": 2, "mount": "turret"},
                                                  {"type": "APSW", "count": 2}])


# 9. S002:673 -- Example 2: fixed class 4 = 8; turreted class-2 secondary = 6 (3 x, no primary turret); 1 left
def test_09_example_2_tank_destroyer():
    r = check(EXAMPLE_2)
    assert items(r) == [("HKP-4 (fixed, primary)", 8), ("RFAC-2 (turret)", 6), ("APSW (free)", 0),
                        ("APSW (extra)", 1)]
    assert r.dirtside["capacity_used"] == 15 and r.dirtside["capacity_free"] == 0
    # Dirtside-legal (4 <= 3 + 1) but Dustup forbids a size-4 weapon on a size-3 vehicle (L1328)
    assert broken(r) == (["weapon-size"], [])
    assert r.profile is not None and r.profile.weapons[0].size == 4  # the statistics are still derived


# 10. S002:685 -- carrying a SMALL vehicle takes 8 x 2 = 16
def test_10_carrying_a_smaller_vehicle():
    r = check(veh(size=4, transport={"vehicles": [2]}))
    assert ("carried vehicle, size 2", 16) in items(r) and r.legal
    assert r.profile.carried_vehicles == (2,)
    v = violation(check(veh(size=4, transport={"vehicles": [4]})), "transport-vehicle-size")
    assert (v.value, v.limit) == (4, 3)


# 11. S002:689-691 -- the MICV: two line elements = 8; a turreted class 2 = 6 (1 spare), or class 1 (3) + GMS/H (4)
def test_11_micv_two_ways():
    a = check(veh(size=3, transport={"line_infantry": 2}, weapons=[{"type": "RFAC", "class": 2, "mount": "turret"}]))
    assert ("2 line infantry elements", 8) in items(a) and a.dirtside["capacity_free"] == 1 and a.legal
    b = check(veh(size=3, transport={"line_infantry": 2},
                  weapons=[{"type": "RFAC", "class": 1, "mount": "turret"}, {"type": "GMS/H"}]))
    assert [c for _, c in items(b)] == [3, 4, 0, 8] and b.dirtside["capacity_free"] == 0 and b.legal
    assert a.profile.transport_figures == 10 == b.profile.transport_figures  # a Dustup squad of up to 10 (RN-614)


# 12. S002:571, 573 -- power plants and energy weapons on a class-4 hull
@pytest.mark.parametrize("plant,cls,ok", [("CFE", 2, True), ("CFE", 3, False), ("HMT", 3, True), ("HMT", 4, False),
                                          ("FGP", 4, True)])
@pytest.mark.parametrize("weapon", ["HEL", "MDC"])
def test_12_power_plant_limits_energy_weapons(plant, cls, ok, weapon):
    r = check(veh(size=4, power_plant=plant, weapons=[{"type": weapon, "class": cls, "mount": "turret"}]))
    assert r.legal is ok
    if not ok:
        v = violation(r, "power-plant-weapons")
        assert (v.value, v.limit) == (cls, cls - 1)


# 13. S002:563-567, 908-910 -- mobility against power plant
@pytest.mark.parametrize("plant,mobility,size,ok", [
    ("CFE", "slow_gev", 3, True), ("CFE", "slow_gev", 4, False), ("CFE", "fast_gev", 2, True),
    ("CFE", "fast_gev", 3, False), ("HMT", "slow_gev", 4, True), ("HMT", "slow_gev", 5, False),
    ("HMT", "fast_gev", 3, True), ("HMT", "fast_gev", 4, False), ("FGP", "fast_gev", 5, True),
    ("CFE", "slow_tracked", 5, True), ("CFE", "high_mobility_wheeled", 5, True),
    ("HMT", "grav", 2, False), ("FGP", "grav", 2, True)])
def test_13_power_plant_and_mobility(plant, mobility, size, ok):
    r = check(veh(size=size, mobility=mobility, power_plant=plant))
    assert r.legal is ok, broken(r)
    if not ok:
        assert violation(r, "power-plant-mobility").severity == "error"


def test_13_walkers_and_oversize_need_fgp_and_a_size_4_slow_gev_needs_hmt():
    walker = check(veh(size=4, mobility="walker", kind="mech", power_plant="HMT"))
    assert "power-plant-mobility" in walker.rules_broken()
    big = check(veh(size=6, power_plant="HMT"))
    assert "power-plant-mobility" in big.rules_broken()
    # the DEIMOS text: "for a SLOW GEV of size 4 we need at least a Hydromagnetic Turbine"
    r = check(veh(size=4, mobility="slow_gev"))
    assert r.dirtside["power_plant"] == "HMT" and r.legal


# 14. S002:705-709 -- heavy artillery: class 6 -> 18 capacity, fits a class-4 hull with 2 spare
def test_14_heavy_artillery():
    r = check(veh(size=4, weapons=[{"type": "artillery", "class": 6}]))
    assert items(r)[0] == ("artillery-6 (artillery)", 18) and r.dirtside["capacity_free"] == 2
    # artillery is exempt from the size + 1 recommendation (the seed's own example, RN-601) ...
    assert "weapon-size-recommendation" not in r.rules_broken() and "capacity" not in r.rules_broken()
    # ... but Dustup allows no weapon larger than the vehicle (L1328)
    assert broken(r) == (["weapon-size"], [])
    med = check(veh(size=4, weapons=[{"type": "artillery", "class": 4}]))
    assert med.legal and med.profile.weapons[0].arc == "front_180"  # the front 180 degrees (S002:711)
    assert "weapon-class" in check(veh(size=4, weapons=[{"type": "artillery", "class": 3}])).rules_broken()
    assert "weapon-class" in check(veh(size=5, weapons=[{"type": "HVC", "class": 6}])).rules_broken()


# 15. S002:717-721 -- towed medium artillery: a size-3 element, armour 0, a tractor of equal class or larger
def test_15_towed_medium_artillery():
    r = check({"design": "heavy_weapon", "name": "towed gun", "type": "artillery", "class": 4, "carriage": "towed",
               "crew": 6})
    assert r.legal and r.dirtside["signature"] == 3 and r.dirtside["armour"] == 0
    p = r.profile
    assert (p.target_size, p.armour, p.tractor_size, p.tractor_size_dustup) == (3, "d8", 3, 2)
    assert (p.crew_to_limber, p.crew_to_fire) == (3, 3)
    heavy = check({"design": "heavy_weapon", "name": "towed heavy", "type": "artillery", "class": 6,
                   "carriage": "towed", "crew": 8})
    assert broken(heavy) == (["weapon-size"], []) and heavy.dirtside["signature"] == 5


# 16. S002:767-768 -- riverine craft
def test_16_riverine_craft():
    boat = dict(mobility="boat", power_plant="CFE")
    assert check(veh(size=4, armour=2, **boat)).legal
    v = violation(check(veh(size=4, armour=3, **boat)), "riverine-armour")
    assert (v.value, v.limit) == (3, 2)
    assert "riverine-armour" in check(veh(size=2, armour=1, **boat)).rules_broken()  # sizes 1-2: armour 0
    three = check(veh(size=3, **boat, weapons=[{"type": "RFAC", "class": 2, "mount": "fixed", "count": 3}]))
    assert three.legal  # up to 3 weapons of class 2 on a class-3 craft
    v = violation(check(veh(size=3, **boat, weapons=[{"type": "HVC", "class": 3, "mount": "turret"}])),
                  "riverine-weapon-class")
    assert (v.value, v.limit) == (3, 2)
    assert check(veh(size=1, **boat, weapons=[{"type": "RFAC", "class": 1, "mount": "turret"}])).legal
    two = check(veh(size=1, **boat, weapons=[{"type": "RFAC", "class": 1, "mount": "turret"}, {"type": "GMS/L"}]))
    assert "riverine-weapon-class" in two.rules_broken()
    rsw = check(veh(size=4, armour=2, mobility="fast_rsw", power_plant="HMT"))  # RSW craft as GEVs: HMT fast <= 3
    assert "power-plant-mobility" in rsw.rules_broken()


# 17. S002:785-789 -- air vehicles
def test_17_air_vehicles():
    vtol = dict(mobility="vtol", power_plant="FGP")
    assert check(veh(size=3, **vtol)).dirtside["capacity"] == 15
    assert check(veh(size=3, armour=2, **vtol, weapons=[{"type": "RFAC", "class": 1, "mount": "turret"}])).legal
    v = violation(check(veh(size=3, **vtol, weapons=[{"type": "RFAC", "class": 2, "mount": "turret"}])), "air-weapons")
    assert (v.value, v.limit) == (2, 1)  # chin turrets: APSWs or class-1 weapons only
    assert check(veh(size=3, **vtol, weapons=[{"type": "RFAC", "class": 2, "mount": "fixed"}])).legal
    v = violation(check(veh(size=5, **vtol, weapons=[{"type": "HVC", "class": 4, "mount": "fixed"}])), "air-weapons")
    assert (v.value, v.limit) == (4, 3)  # no weapon over class 3
    assert "air-armour" in check(veh(size=3, armour=3, **vtol)).rules_broken()
    v = violation(check(veh(size=5, armour=3, **vtol)), "air-armour")  # size 4-5 VTOLs also at most 2
    assert (v.value, v.limit) == (3, 2)
    assert check(veh(size=5, armour=3, mobility="aerospace", power_plant="FGP")).legal
    v = violation(check(veh(size=5, armour=4, mobility="aerospace", power_plant="FGP")), "air-armour")
    assert (v.value, v.limit) == (4, 3)
    bombs = check(veh(size=2, armour=1, mobility="aerospace", power_plant="FGP", weapons=[{"type": "DFO", "count": 2}]))
    assert [c for _, c in items(bombs)][:2] == [4, 4] and bombs.legal and bombs.profile.air.deadfall_loads == 2
    assert "power-plant-mobility" in check(veh(size=2, mobility="vtol", power_plant="CFE")).rules_broken()


# 18. S002:811-819 -- walkers
def test_18_walkers():
    mech = dict(mobility="walker", kind="mech", power_plant="FGP")
    assert check(veh(size=4, **mech)).legal and check(veh(size=5, **mech)).legal
    assert "walker-size" in check(veh(size=3, **mech)).rules_broken()
    assert check(veh(size=1, walker_type="infantry", **mech)).legal
    assert "walker-size" in check(veh(size=2, walker_type="infantry", **mech)).rules_broken()
    assert check(veh(size=4, walker_type="transport", **mech)).legal
    r = check(veh(size=4, **mech, weapons=[{"type": "HVC", "class": 3, "mount": "turret"}]))
    assert items(r)[0][1] == 6  # every walker mount costs as a fixed mount, 2 x class
    assert "armour-rating" in check(veh(size=4, armour=5, **mech)).rules_broken()
    four, five = check(veh(size=4, **mech)), check(veh(size=5, **mech))
    assert four.dirtside["signature"]["basic"] == 5 and five.dirtside["signature"]["basic"] == 6
    assert five.profile.target_size == 5 and five.profile.signature == 6  # Dustup sizes stop at 5 (RN-607)
    assert r.profile.weapons[0].arc == "front_180" and r.profile.movement_die == "d6"


# 19. S002:823-831 -- the combat walker example
def test_19_combat_walker_example():
    r = check(veh(size=5, mobility="walker", kind="mech", power_plant="FGP", armour=5, stealth=1,
                  fire_control="superior", ecm="enhanced",
                  weapons=[{"type": "DFFG", "class": 4, "count": 2}, {"type": "SLAM", "class": 3}, {"type": "APSW"}],
                  systems=[{"type": "PDS", "quality": "enhanced"}]))
    assert [c for _, c in items(r)] == [8, 8, 6, 0, 3]  # DFFG/4 x 2 = 16, SLAM/3 = 6, PDS = 3, free APSW
    assert r.dirtside["capacity"] == 25 and r.dirtside["capacity_free"] == 0
    assert r.dirtside["weapon_systems"] == 4 and r.dirtside["weapon_systems_limit"] == 5
    assert r.dirtside["signature"] == {"basic": 6, "effective": 5}
    assert r.legal and r.warnings == ()
    dffg = [w for w in r.profile.weapons if w.type == "DFFG"]
    assert len(dffg) == 1 and dffg[0].barrels == 2  # same type and class on a walker: a multiple mount (S002:844)


# 20. S002:854-859 -- oversize vehicles: checked by the Dirtside rules, then rejected for Dustup (RN-624)
@pytest.mark.parametrize("size,cap,fcs", [(6, 30, 2), (7, 35, 3)])
def test_20_oversize(size, cap, fcs):
    r = check(veh(size=size, armour=size, power_plant="FGP", fire_controls=fcs))
    assert r.dirtside["capacity"] == cap
    assert broken(r) == (["oversize"], []) and r.profile is None  # armour 6-7 and the extra fire controls are fine
    v = violation(check(veh(size=size, power_plant="FGP", fire_controls=fcs + 1)), "fire-control-count")
    assert (v.value, v.limit) == (fcs + 1, fcs)
    assert "weapon-class" in check(veh(size=size, power_plant="FGP",
                                       weapons=[{"type": "HVC", "class": 6, "mount": "fixed"}])).rules_broken()


CYBERTANK = {"design": "vehicle", "name": "cybertank", "mobility": "slow_tracked", "power_plant": "FGP",
             "fire_controls": 4,
             "modules": [{"role": "main", "size": 5, "armour": 7}, {"role": "main", "size": 5, "armour": 7}] +
                        [{"role": "tread", "size": 4, "armour": 5}] * 4,
             "weapons": [{"type": "HVC", "class": 5, "mount": "turret", "count": 3}]}


# 21. S002:868-876 -- the modular cybertank
def test_21_modular_cybertank():
    r = check(CYBERTANK)
    assert r.dirtside["capacity"] == 50 and r.dirtside["mobility_cost_class"] == 16
    assert broken(r) == (["modular"], []) and r.profile is None
    too_thick = dict(CYBERTANK, modules=[{"role": "main", "size": 5, "armour": 8},
                                         {"role": "tread", "size": 4, "armour": 6}])
    assert [v.rule for v in check(too_thick).errors].count("modular-armour") == 2
    assert "modular-mobility" in check(dict(CYBERTANK, mobility="grav")).rules_broken()
    assert "stealth" in check(dict(CYBERTANK, stealth=1)).rules_broken()
    assert "fire-control-count" in check(dict(CYBERTANK, fire_controls=5)).rules_broken()


DEIMOS = veh(size=4, mobility="slow_gev", power_plant="FGP", armour=4, stealth=1, fire_control="superior",
             ecm="enhanced", name="DEIMOS",
             weapons=[{"type": "MDC", "class": 4, "mount": "turret"}, {"type": "GMS/H", "guidance": "enhanced"},
                      {"type": "APSW"}],
             systems=[{"type": "PDS", "quality": "enhanced"}, {"type": "APFC"}])


# 22. S002:906-928 -- the DEIMOS heavy tank
def test_22_deimos():
    r = check(DEIMOS)
    assert [c for _, c in items(r)] == [12, 4, 0, 3, 1] and r.dirtside["capacity_used"] == 20
    assert r.dirtside["signature"] == {"basic": 4, "effective": 3}
    assert r.legal and r.warnings == () and r.assumptions == ()
    p = r.profile
    assert (p.size, p.target_size, p.mobility_type, p.movement_die, p.ecm) == (4, 3, "hover", "d12", "d8")
    assert (p.armour.front, p.armour.side, p.decoy, p.apfc) == ("d12x4", "d12x3", "d8", True)
    mdc, gms, apsw = p.weapons
    assert (mdc.type, mdc.size, mdc.fire_control, mdc.effective_range) == ("MDC", 4, "superior", 192)
    assert (gms.category, gms.guidance, gms.effective_range) == ("guided", "d8", None)
    assert apsw.free and apsw.arc == "all_round"
    # the same design with an HMT is illegal: the MDC-4 needs an FGP (S002:573); a CFE cannot even lift it
    hmt = check(dict(DEIMOS, power_plant="HMT"))
    assert broken(hmt) == (["power-plant-weapons"], [])
    cfe = check(dict(DEIMOS, power_plant="CFE"))
    assert broken(cfe) == (["power-plant-mobility", "power-plant-weapons"], [])
