"""Open Top and Soft Skinned Vehicles (engaging the passengers) and Fire by Passengers
(armoured_dustup/open_top_and_soft_skinned_vehicles.py).  Forced dice."""
from conftest import activate, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.armoured_dustup.open_top_and_soft_skinned_vehicles import passenger_shift


def engaged(design="supply_truck", **kw):
    """Blue squad S (uid 0) at (24, 10); red vehicle V (uid 1) at (24, 20) facing south carrying red squad P
    (uid 2)."""
    return scenario([unit("S", (24, 10), figures=(("rifle", 4),))],
                    [vehicle("V", (24, 20), design, facing=180, **kw),
                     unit("P", (24, 20), figures=(("rifle", 3),), carried_by="V")])


def test_passengers_of_open_top_and_soft_skinned_vehicles_may_be_engaged():
    for design, kw, offered in [("supply_truck", {}, True), ("apc_wheeled", {}, False), ("ifv_tracked", {}, False),
                                ("apc_wheeled", {"opened_up": True}, True)]:
        g = begin(engaged(design, **kw))
        activate(g, 0)
        opts = g.decision().options
        assert (("shoot_passengers", 1, "all") in opts) == offered, design
        assert ("shoot", 1, "all") in opts  # or the vehicle itself
        assert not any(o[1] == 2 for o in opts if o[0] in ("shoot", "shoot_passengers"))  # P is not seen as such
        for o in opts:
            assert g.is_legal(o)


def test_engaging_passengers_concealment_and_cover_suppress_the_vehicle_too():
    # 10": short range D6, +1 partial concealment (RN-135): D8; one success: the occupants are suppressed, so is the
    # vehicle; no damage to it; the occupants' first-suppressed test
    g = begin(engaged("supply_truck"), [("d8", 3), ("d8", 5), ("d4", 1), ("d8", 8)])
    activate(g, 0)
    g.apply(("shoot_passengers", 1, "all"))
    shot = last_event(g, "ShotResolved")
    assert shot["target"] == 2 and shot["target_die"] == "d8" and shot["result"] == "minor"
    v, p = g.units[1], g.units[2]
    assert p.suppression == 1 and v.suppression == 1 and v.veh.damage == 0 and not events_of(g, "VehicleHit")
    assert g.dice.remaining == 0


def test_hits_on_passengers_take_the_cover_of_the_vehicle():
    # two successes, 9 / 8 = 1 hit (remainder roll 8: no more); allocation among 3; impact d8 against basic
    # battledress D4 with hard cover (+2, an armoured APC): D8
    g = begin(engaged("apc_wheeled", opened_up=True), [("d8", 1), ("d8", 5), ("d4", 4), ("d8", 8), 1, ("d8", 2),
                                                       ("d8", 3), ("d8", 8)])
    activate(g, 0)
    g.apply(("shoot_passengers", 1, "all"))
    hit = last_event(g, "HitResolved")
    assert hit["target"] == 2 and hit["armour_die"] == "d8"
    assert not g.units[1].veh.opened_up and last_event(g, "HatchesChanged") == {"type": "HatchesChanged", "unit": 1,
                                                                             "opened_up": False}
    assert g.units[1].suppression == 1 and g.units[1].veh.damage == 0


# --- fire by passengers -------------------------------------------------------------------------------------
def carried(design, **kw):
    """Blue vehicle V (uid 0) at (24, 10) carrying blue squad P (uid 1); red squad E (uid 2) 20" north."""
    return scenario([vehicle("V", (24, 10), design, **kw), unit("P", (24, 10), figures=(("rifle", 3),),
                                                                  carried_by="V")],
                    [unit("E", (24, 30), figures=(("rifle", 3),))])


def _passenger_fire(g):
    return sorted(o for o in g.decision().options if o[0] == "passenger_shoot")


def test_passengers_fire_from_open_tops_and_through_fire_ports():
    for design, kw, offered in [("apc_wheeled", {}, False), ("apc_wheeled", {"opened_up": True}, True),
                                ("ifv_tracked", {}, True), ("supply_truck", {}, False), ("grav_apc", {}, False)]:
        g = begin(carried(design, **kw))
        activate(g, 1)
        assert bool(_passenger_fire(g)) == offered, design
        assert not any(o[0] == "shoot" for o in g.decision().options)


def test_a_suppressed_vehicle_passengers_fire_only_through_ports_at_plus_one():
    g = begin(carried("ifv_tracked"), [("d10", 10), ("d8", 1), ("d4", 1)])
    v = g.units[0]
    assert passenger_shift(v) == 0
    v.suppression = 1
    assert passenger_shift(v) == 1
    # through the ports of the suppressed IFV: 20" effective D8, +1: D10; a miss
    activate(g, 1)
    g.apply(("passenger_shoot", 2, "all"))
    assert last_event(g, "ShotResolved")["target_die"] == "d10" and g.dice.remaining == 0
    g2 = begin(carried("apc_wheeled", opened_up=True))
    g2.units[0].suppression = 1
    assert passenger_shift(g2.units[0]) is None
    activate(g2, 1)
    assert not _passenger_fire(g2)
