"""Close Assault on vehicles (armoured_dustup/close_assault.py) and Tank Shock (tank_shock.py).  Forced dice."""
from conftest import activate, add_dice, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.armoured_dustup.close_assault import assault_units, attack_impact, outnumbering_shifts
from dustup_env.rules.kernel.dice import D6
from dustup_env.rules.kernel.entities import STEADY
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


def assaulting(design="supply_truck", distance=4.0, **kw):
    """Blue squad S (uid 0) at (24, 10); red vehicle V (uid 1) ``distance`` north, facing south; red R far away."""
    return scenario([unit("S", (24, 10), figures=(("rifle", 4),), grenades=True, confidence="steady")],
                    [vehicle("V", (24, 10 + distance), design, facing=180, **kw),
                     unit("R", (44, 44), figures=(("rifle", 2),))])


def declare(g, vehicle_uid=1):
    """The squad (uid 0) assaults the vehicle; the vehicle's side stands (L1522: it could withdraw)."""
    activate(g, 0)
    g.apply(("assault_vehicle", vehicle_uid))
    assert g.decision().kind == "assault_response" and g.decision().side == 1
    g.apply(("stand",))


def test_infantry_may_assault_a_vehicle_in_reach():
    g = begin(assaulting())
    activate(g, 0)
    opts = g.decision().options
    assert ("assault_vehicle", 1) in opts and not any(o[0] == "assault" and o[1] == 1 for o in opts)
    for o in opts:
        assert g.is_legal(o)


def test_a_vehicle_counts_as_its_size_in_units_for_outnumbering():
    g = begin(assaulting())
    assert outnumbering_shifts(g, 1, 2) and not outnumbering_shifts(g, 2, 1)
    assert outnumbering_shifts(g, 1, 3)[0][0] == "outnumbered_3"
    assert attack_impact(g.units[0]) == D6  # hand grenades D6 (and the close-combat D6)


def test_infantry_win_one_impact_roll_then_back_to_cover_the_vehicle_stays():
    # courage 6 against 1: the attack occurs (the vehicle is never forced to withdraw); the move to contact (D6 1:
    # 2") reaches the truck 4" away (its footprint 1.5" and 1" of contact); impact 6 against the front armour D8 2:
    # more than double, destroyed; then the infantry withdraw one move (movement roll 3), no level lost
    g = begin(assaulting(), [6, 1, ("d6", 1), ("d6", 6), ("d8", 2), 3])
    declare(g)
    assert last_event(g, "CourageTested")["result"] == "contact" and last_event(g, "ContactMove")["reached"]
    hit = last_event(g, "VehicleHit")
    assert hit["facing"] == "front" and hit["result"] == "destroyed" and not g.units[1].in_play
    s = g.units[0]
    assert last_event(g, "Moved")["withdraw"] and s.confidence == STEADY and g.dice.remaining == 0


def test_infantry_failing_the_courage_test_lose_their_first_action_and_stay():
    # the normal courage test (L705): 1 against 2, the attack does not take place, the squad stays where it is and
    # keeps its second action (less than half: test_vehicle_assault_trust.py)
    g = begin(assaulting(), [1, 2])
    declare(g)
    assert last_event(g, "CourageTested")["result"] == "fail"
    assert g.units[0].confidence == STEADY and not events_of(g, "VehicleHit") and not events_of(g, "Moved")
    assert (g.units[1].x, g.units[1].y) == (24.0, 14.0) and g.dice.remaining == 0
    assert g.decision().kind == "action" and g.decision().unit == 0


# --- tank shock ---------------------------------------------------------------------------------------------
def shocking(design="main_battle_tank"):
    """Blue vehicle V (uid 0) at (24, 10) facing north; red squad E (uid 1) 10" north."""
    return scenario([vehicle("V", (24, 10), design, facing=0)],
                    [unit("E", (24, 20), figures=(("rifle", 3),), confidence="steady")])


def test_tank_shock_is_offered_to_unsuppressed_vehicles_only():
    g = begin(shocking())
    activate(g, 0)
    assert ("tank_shock", 1) in g.decision().options
    g = begin(shocking())
    g.units[0].suppression = 1
    activate(g, 0)
    assert ("tank_shock", 1) not in g.decision().options
    g = begin(shocking("assault_mech"))
    activate(g, 0)
    assert ("tank_shock", 1) not in g.decision().options  # mechs assault as infantry (test_close_combat_mechs.py)


def test_tank_shock_infantry_lose_withdraw_and_the_vehicle_takes_their_ground():
    g = begin(shocking(), [5, 3, 2])
    activate(g, 0)
    g.apply(("tank_shock", 1))
    assert last_event(g, "VehicleAssaulted")["result"] == "withdraw"
    v, e = g.units[0], g.units[1]
    assert e.confidence == STEADY + 1 and (round(v.x, 3), round(v.y, 3)) == (24.0, 20.0)
    assert g.dice.remaining == 0


def test_tank_shock_infantry_higher_move_aside_the_vehicle_drives_through():
    g = begin(shocking(), [2, 3])
    activate(g, 0)
    g.apply(("tank_shock", 1))
    v, e = g.units[0], g.units[1]
    assert last_event(g, "VehicleAssaulted")["result"] == "aside"
    assert (round(v.x, 3), round(v.y, 3)) == (24.0, 24.0) and (e.x, e.y) == (24.0, 20.0) and e.confidence == STEADY
    assert g.dice.remaining == 0


def test_tank_shock_infantry_more_than_double_attack_the_vehicle():
    # 3 > 2 x 1: the vehicle passes, then one attack: close-combat impact D6 against the rear (the tank is past)
    g = begin(shocking(), [1, 3, ("d6", 1), ("d12x2", 1)])
    activate(g, 0)
    g.apply(("tank_shock", 1))
    assert last_event(g, "VehicleAssaulted")["result"] == "attack"
    hit = last_event(g, "VehicleHit")
    assert hit["facing"] == "rear" and hit["result"] == "none" and g.dice.remaining == 0


def test_an_open_topped_vehicle_counts_its_passengers_for_outnumbering():
    scn = scenario([unit("S", (24, 10), figures=(("rifle", 4),))],
                   [vehicle("V", (24, 14), "apc_wheeled", facing=180), unit("P", (24, 14), carried_by="V")])
    g = begin(scn)
    v = g.units[1]
    assert assault_units(v) == 2 and assault_units(g.units[0]) == 1  # closed down: its size only
    vehicle_state(v).opened_up = True
    assert assault_units(v) == 3  # L1555: "a class 2 vehicle carrying a unit of infantry counts as three units"


def test_a_vehicle_with_a_support_weapon_may_give_final_defensive_fire():
    # the APC 10" away: courage 6 against 1; the move to contact (D6 1: 2") falls short; the APC's side decides: its
    # APSW fires (D8 target die: 8; quality 1; 2 x D6: 1, 1: a miss, a reaction: no test); no casualties: the squad
    # uses its second action to move again (D6 6: 12") and reaches it: impact 1 against the armour: nothing; back to
    # cover (D6 3); the assault took both its actions
    g = begin(assaulting("apc_wheeled", 10.0), [6, 1, ("d6", 1), ("d8", 8), ("d8", 1), ("d6", 1), ("d6", 1),
                                                ("d6", 6), ("d6", 1), 1, ("d6", 3)])
    declare(g)
    d = g.decision()
    assert d.kind == "final_defensive_fire" and d.side == 1 and set(d.options) == {("fire", "support"), ("hold_fire",)}
    g.apply(("fire", "support"))
    fired = last_event(g, "HeavyWeaponFired")
    assert fired["unit"] == 1 and fired["weapon"] == "APSW" and fired["result"] == "none"
    assert g.decision().kind == "second_move" and not events_of(g, "AssaultReaction")
    g.apply(("contact",))
    assert last_event(g, "VehicleHit")["result"] == "none" and last_event(g, "Moved")["withdraw"]
    assert g.units[0].suppression == 0 and g.dice.remaining == 0
    assert not (g.decision().kind == "action" and g.decision().unit == 0)


def test_holding_fire_leaves_the_infantry_their_second_move():
    g = begin(assaulting("apc_wheeled", 10.0), [6, 1, ("d6", 1), ("d6", 6), ("d6", 1), 1, ("d6", 3)])
    declare(g)
    g.apply(("hold_fire",))
    assert g.decision().kind == "second_move"
    g.apply(("contact",))
    assert not events_of(g, "HeavyWeaponFired") and last_event(g, "VehicleHit")["result"] == "none"
    assert g.dice.remaining == 0


# --- open-top vehicles: the passengers as the target (L1553-1559, RN-856) ----------------------------------------
def open_top_carrying(distance=4.0):
    """Blue squad S (uid 0) at (24, 10), blue B far away (uid 1); red APC V (uid 2) opened up ``distance`` north
    carrying red squad P (uid 3); red R far away (uid 4)."""
    return scenario([unit("S", (24, 10), figures=(("rifle", 4),), grenades=True, confidence="steady"),
                     unit("B", (4, 4), figures=(("rifle", 2),))],
                    [vehicle("V", (24, 10 + distance), "apc_wheeled", facing=180, opened_up=True),
                     unit("P", (24, 14), figures=(("rifle", 3),), carried_by="V"),
                     unit("R", (44, 44), figures=(("rifle", 2),))])


def test_the_passengers_of_an_open_topped_vehicle_may_be_declared_the_target():
    g = begin(open_top_carrying())
    activate(g, 0)
    opts = g.decision().options
    assert ("assault_passengers", 2) in opts and ("assault_vehicle", 2) in opts and g.is_legal(("assault_passengers", 2))
    g = begin(open_top_carrying())
    vehicle_state(g.units[2]).opened_up = False
    activate(g, 0)
    assert ("assault_passengers", 2) not in g.decision().options  # closed down: only the vehicle


def test_passengers_forced_to_withdraw_close_down_and_the_attackers_may_switch_to_the_vehicle():
    # courage: the passengers behind hard cover (+2, the APC is armoured) and Confident (+1): D8 -> D12 and the excess
    # moves the squad's D8 down to D6; 6 against 2: more than double, the passengers "withdraw": the APC closes down,
    # they lose a level; the squad switches to the vehicle: impact D6 6 against the front armour 6, no effect; then back to cover
    g = begin(open_top_carrying(), [6, 2])
    activate(g, 0)
    g.apply(("assault_passengers", 2))
    ev = last_event(g, "VehicleAssaulted")
    assert (ev["attacker_die"], ev["defender_die"], ev["result"]) == ("d6", "d12", "passengers_withdraw")
    assert not g.units[2].veh.opened_up and g.units[3].confidence == STEADY
    d = g.decision()
    assert d.kind == "assault_follow_up" and set(d.options) == {("contact",), ("halt",)}
    add_dice(g, ("d6", 6), 6, 3)
    g.apply(("contact",))
    assert last_event(g, "VehicleHit")["impact"] == 6 and last_event(g, "Moved")["withdraw"]
    assert g.units[0].confidence == STEADY and g.dice.remaining == 0
    d = g.decision()  # the assault was the squad's first action: its second is next
    assert (d.kind, d.unit) == ("action", 0) and g.actions_left == 1


def test_assaulted_passengers_fight_behind_cover():
    # courage 4 against 3: contact; a round of close combat in which the squad's hits on the passengers roll
    # against their armour D4 two steps up (hard cover, RN-856)
    g = begin(open_top_carrying(), [4, 3, 1, 8, 4] + [1] * 30)
    activate(g, 0)
    g.apply(("assault_passengers", 2))
    assert last_event(g, "VehicleAssaulted")["result"] == "passengers_contact"
    assert events_of(g, "StrikeResolved")[0]["target"] == 3
    hits = [h for h in events_of(g, "HitResolved") if h["target"] == 3]
    assert hits and all(h["armour_die"] == "d8" for h in hits)


def test_passengers_of_an_open_topped_vehicle_give_final_defensive_fire():
    # the squad assaults the opened-up APC 10" away: 1 against 3 units (the APC's size 2 and its passengers, L1555)
    # puts its D8 two down (D4): 4 against 1, the attack occurs; its first move (D6 1: 2") falls short (L1555 "if the
    # attackers fail to reach the vehicle in their first move"); the red side may fire the APC's APSW or the
    # passengers' fire modes from the open top (RN-857): the passengers fire all (a miss); the squad may move again
    g = begin(open_top_carrying(10.0), [4, 1, ("d6", 1), 1, 1, 1, 1, 1, 1, 1])
    declare(g, 2)
    d = g.decision()
    assert d.kind == "final_defensive_fire" and {("fire", "support"), ("fire", "all"), ("hold_fire",)} <= set(d.options)
    g.apply(("fire", "all"))
    shot = last_event(g, "ShotResolved")
    assert shot["unit"] == 3 and shot["target"] == 0 and shot["mode"] == "all" and shot["hits"] == 0
    assert g.decision().kind == "second_move"
    g = begin(open_top_carrying(10.0))
    vehicle_state(g.units[2]).opened_up = False  # closed down, no fire ports: only the APSW
    add_dice(g, 4, 1, ("d6", 1))
    declare(g, 2)
    assert set(g.decision().options) == {("fire", "support"), ("hold_fire",)}
