"""Checklist items of the seed 002 (Dirtside II) design check whose readings had no test of their own
(docs/checklist-audit.md).  The design check is deterministic: no dice."""
from dustup_env.rules.vehicle_design import check


def veh(size=3, mobility="slow_tracked", weapons=(), **kw):
    d = {"design": "vehicle", "name": "case", "size": size, "mobility": mobility, "armour": kw.pop("armour", 0),
         "weapons": list(weapons)}
    d.update(kw)
    return d


def test_an_armour_1_vehicle_has_d8_sides_and_belly_not_the_buildings_d6():
    # S002:585 sides, top and rear one less than the rating; L1336 unarmoured D8 (RN-605, RN-126); belly = top
    p = check(veh(size=2, armour=1)).profile
    assert p.armour.front == "d12"
    assert (p.armour.side, p.armour.rear, p.armour.top, p.armour.belly) == ("d8", "d8", "d8", "d8")
    assert check(veh(size=4, armour=3)).profile.armour.belly == "d12x2"  # Dirtside has no belly: the top's value


def test_walker_mounts_fire_in_the_front_180_before_or_after_moving():
    # S002:842-846: walker weapons 180 degrees, fired before or after moving "as Turreted vehicles can": average
    # stabilisation, as a turret (RN-611, RN-612, RN-621), never the fixed mount's poor
    p = check(veh(size=4, mobility="walker", kind="mech", power_plant="FGP",
                  weapons=[{"type": "DFFG", "class": 2}, {"type": "RFAC", "class": 1}])).profile
    limbs = [w for w in p.weapons if w.mount == "limb"]
    assert len(limbs) == 2 and all((w.arc, w.arc_degrees, w.stabilisation) == ("front_180", 180, "average")
                                   for w in limbs)
    turret = check(veh(weapons=[{"type": "HVC", "class": 3, "mount": "turret"}])).profile.weapons[0]
    fixed = check(veh(weapons=[{"type": "HVC", "class": 3, "mount": "fixed"}])).profile.weapons[0]
    assert (turret.stabilisation, fixed.stabilisation) == ("average", "poor")  # S002:645: fixed only before moving


def test_one_fire_control_covers_every_weapon_of_the_vehicle():
    # S002:639 "one Fire Control system will cover them all" against Dustup's per-weapon fire control (L1243): the
    # vehicle's one level is given to every direct-fire weapon and APSW (RN-608)
    p = check(veh(size=4, fire_control="superior", weapons=[{"type": "HVC", "class": 3, "mount": "turret"},
                                                             {"type": "RFAC", "class": 1, "mount": "turret"}])).profile
    assert {w.fire_control for w in p.weapons} == {"superior"} and len(p.weapons) == 3  # with the free APSW
    basic = check(veh(fire_control="basic", weapons=[{"type": "RFAC", "class": 2}])).profile
    assert {w.fire_control for w in basic.weapons} == {"inferior"}


def test_the_slow_and_fast_variants_roll_d12_and_walkers_d6():
    # movement rates are not in seed 002 (its chapter 6); seed 000 L1362 gives most vehicles a D12 (RN-609, RN-922)
    die = {m: check(veh(mobility=m, **({"power_plant": "FGP"} if m in ("grav", "walker") else {}),
                        **({"kind": "mech", "size": 4} if m == "walker" else {}))).profile.movement_die
           for m in ("slow_tracked", "fast_tracked", "slow_gev", "fast_gev", "grav", "high_mobility_wheeled",
                     "walker")}
    assert die == {"slow_tracked": "d12", "fast_tracked": "d12", "slow_gev": "d12", "fast_gev": "d12",
                   "grav": "d12", "high_mobility_wheeled": "d12", "walker": "d6"}
