"""Infantry assaulting vehicles follow the normal Assault Action (seed 000 L1522 "the normal courage test as described
on page 16"), tank shock is an assault, mechs count units for outnumbering, and turning is movement for weapon
stabilisation.  RN-900..RN-907.  Forced dice."""
from conftest import activate, add_dice, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.kernel.entities import BROKEN, SHAKEN, STEADY
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


def truck_ahead(distance=20.0, design="supply_truck", **kw):
    """Blue squad S (uid 0, D6 movement, grenades, Steady) at (24, 4); red vehicle V (uid 1) ``distance`` north,
    facing south; red R (uid 2) far away."""
    return scenario([unit("S", (24, 4), figures=(("rifle", 4),), grenades=True, confidence="steady")],
                    [vehicle("V", (24, 4 + distance), design, facing=180, **kw),
                     unit("R", (44, 44), figures=(("rifle", 2),))])


def assault(g, response=("stand",)):
    """The squad declares the assault on the vehicle; the vehicle's side answers (L1522: it may withdraw)."""
    activate(g, 0)
    g.apply(("assault_vehicle", 1))
    d = g.decision()
    assert d.kind == "assault_response" and d.side == 1 and d.unit == 1
    g.apply(response)


# --- 1. the move to contact: the movement roll, falling short (L746-760) ---------------------------------------------
def test_infantry_must_move_to_contact_and_may_fall_short_of_a_vehicle():
    # courage 6 against 1: the attack occurs; the move to contact rolls the squad's D6: 2 (4") leaves it 16" short;
    # the truck has no support weapon: no final defensive fire; the second move rolls 3 (6"): still short, it stays
    # where it ends and the truck is untouched
    g = begin(truck_ahead(), [6, 1, ("d6", 2)])
    assault(g)
    assert last_event(g, "CourageTested")["result"] == "contact"
    first = last_event(g, "ContactMove")
    assert first["roll"] == 2 and first["points"] == 4.0 and not first["reached"]
    d = g.decision()
    assert d.kind == "second_move" and d.side == 0
    add_dice(g, ("d6", 3))
    g.apply(("contact",))
    moves = events_of(g, "ContactMove")
    assert [m["roll"] for m in moves] == [2, 3] and not moves[-1]["reached"]
    s, v = g.units[0], g.units[1]
    assert abs(s.y - 14.0) < 1e-6 and v.in_play and v.veh.damage == 0 and not events_of(g, "VehicleHit")
    assert last_event(g, "AssaultEnded")["result"] == "0:fell_short"
    assert g.decision().kind != "action" or g.decision().unit != 0  # the activation is over
    assert g.dice.remaining == 0


def test_infantry_who_reach_the_vehicle_make_one_impact_roll_then_withdraw_to_cover():
    # 6" away: the D6 roll 2 (4") reaches the truck (its footprint 1.5" and 1" contact); grenades D6 6 against the
    # front armour D8 2: destroyed; the squad withdraws one move (D6 3) towards cover, no level lost
    g = begin(truck_ahead(6.0), [6, 1, ("d6", 2), ("d6", 6), ("d8", 2), ("d6", 3)])
    assault(g)
    assert last_event(g, "ContactMove")["reached"]
    hit = last_event(g, "VehicleHit")
    assert hit["facing"] == "front" and hit["result"] == "destroyed" and not g.units[1].in_play
    assert last_event(g, "Moved")["withdraw"] and g.units[0].confidence == STEADY
    assert last_event(g, "AssaultEnded")["result"] == "0:attacked_vehicle" and g.dice.remaining == 0


# --- 2. a failed courage test: the attacker loses its first action (L705-713) ----------------------------------------
def test_a_failed_courage_test_against_a_vehicle_loses_the_first_action_only():
    # 1 against 2: the attack does not take place; no withdrawal, no level lost; the squad keeps its second action
    g = begin(truck_ahead(), [1, 2])
    assault(g)
    assert last_event(g, "CourageTested")["result"] == "fail"
    s = g.units[0]
    assert (s.x, s.y) == (24.0, 4.0) and s.confidence == STEADY and not events_of(g, "Moved")
    d = g.decision()
    assert d.kind == "action" and d.unit == 0 and g.activation_frame().actions_left == 1


def test_less_than_half_against_a_vehicle_loses_both_actions_and_a_level_unless_it_is_suppressed():
    g = begin(truck_ahead(), [1, 3])
    assault(g)
    assert last_event(g, "CourageTested")["result"] == "fail_badly"
    s = g.units[0]
    assert s.confidence == STEADY + 1 and (s.x, s.y) == (24.0, 4.0)
    assert not (g.decision().kind == "action" and g.decision().unit == 0)  # both actions lost
    g = begin(truck_ahead(), [1, 3])
    g.units[1].suppression = 1  # a suppressed vehicle: no last-minute bout of nerves
    assault(g)
    assert g.units[0].confidence == STEADY


# --- 3. final defensive fire and the attackers' reaction test (L780-792, L1561) --------------------------------------
APSW_KILLS_ONE = (("d8", 4), ("d8", 8), ("d6", 6), ("d6", 1), ("d8", 8), ("d4", 2), ("d8", 6), ("d4", 1))


def test_casualties_from_a_vehicles_final_defensive_fire_force_the_reaction_test():
    # the APC 10" away: courage 6 against 1; the D6 roll 1 (2") falls short; the APC's APSW fires: target die D8 4,
    # quality D8 8 and 2 x D6 6, 1: a major success, one hit (the extra-hit roll 8 fails), allocated to figure 1
    # (D4 2): impact D8 6 against its armour D4 1: killed; the squad's reaction test (L790): D8 2 against LV 2 + 1
    # casualty: failed, back to its start with a suppression marker, the activation over
    g = begin(truck_ahead(10.0, "apc_wheeled"), [6, 1, ("d6", 1)])
    assault(g)
    d = g.decision()
    assert d.kind == "final_defensive_fire" and d.side == 1 and ("fire", "support") in d.options
    add_dice(g, *APSW_KILLS_ONE, ("d8", 2))
    g.apply(("fire", "support"))
    fired = last_event(g, "HeavyWeaponFired")
    assert fired["unit"] == 1 and fired["weapon"] == "APSW"
    r = last_event(g, "AssaultReaction")
    assert r["unit"] == 0 and r["needed"] == 3 and not r["passed"]
    s = g.units[0]
    assert (s.x, s.y) == (24.0, 4.0) and s.suppression == 1 and not events_of(g, "VehicleHit")
    assert last_event(g, "AssaultEnded")["result"] == "0:driven_back" and g.dice.remaining == 0


def test_passing_the_reaction_test_lets_the_squad_use_its_second_action_to_reach_the_vehicle():
    # as above, the reaction test passed (D8 8): the second move (D6 6, 12") reaches the APC: the impact roll
    g = begin(truck_ahead(10.0, "apc_wheeled"), [6, 1, ("d6", 1)])
    assault(g)
    add_dice(g, *APSW_KILLS_ONE, ("d8", 8))
    g.apply(("fire", "support"))
    assert last_event(g, "AssaultReaction")["passed"] and g.units[0].n_able() == 3
    assert g.decision().kind == "second_move"
    add_dice(g, ("d6", 6), ("d6", 1), ("d12x2", 1), ("d6", 1))
    g.apply(("contact",))
    assert last_event(g, "ContactMove")["reached"] and last_event(g, "VehicleHit")["result"] == "none"
    assert g.dice.remaining == 0


# --- 4. mechs and monsters count units, not figures (L1514, L1524) ---------------------------------------------------
def mech_ahead(design, rifles=4):
    return scenario([unit("S", (24, 10), figures=(("rifle", rifles),), grenades=True, confidence="steady")],
                    [vehicle("M", (24, 16), design, facing=180, quality="d8"),
                     unit("R", (44, 44), figures=(("rifle", 2),))])


def test_a_mech_counts_its_size_in_units_against_one_infantry_unit():
    # four riflemen against the size-1 walker: one unit against one, no outnumbering either way
    g = begin(mech_ahead("infantry_walker"), [1, 8])
    activate(g, 0)
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    rows = [r[0] for r in ct["attacker_shifts"] + ct["defender_shifts"]]
    assert not any(r.startswith("outnumbered") for r in rows)
    # the size-4 assault mech against four riflemen: four units against one, the squad outnumbered 3:1
    g = begin(mech_ahead("assault_mech"), [1, 8])
    activate(g, 0)
    g.apply(("assault", 1))
    g.apply(("stand",))
    ct = last_event(g, "CourageTested")
    assert ("outnumbered_3", -2) in [tuple(r) for r in ct["attacker_shifts"]]
    assert not any(r[0].startswith("outnumbered") for r in ct["defender_shifts"])


# --- 5. tank shock is an assault: not while Shaken, Broken or Routed (L730, L1536) -----------------------------------
def test_shaken_or_broken_vehicles_may_not_tank_shock():
    scn = scenario([vehicle("V", (24, 10), "main_battle_tank", facing=0)],
                   [unit("E", (24, 20), figures=(("rifle", 3),), confidence="steady")])
    g = begin(scn)
    activate(g, 0)
    assert ("tank_shock", 1) in g.decision().options
    for level in (SHAKEN, BROKEN):
        g = begin(scn)
        g.units[0].confidence = level
        activate(g, 0)
        assert ("tank_shock", 1) not in g.decision().options and not g.is_legal(("tank_shock", 1))


# --- 6. turning on the spot is movement for weapon stabilisation (S002:645, L1471-1474) -----------------------------
def test_turning_a_fixed_gun_onto_its_target_counts_as_movement():
    # the tank destroyer faces north; the squad is due east, outside the fixed hull gun's 90 degree arc
    scn = scenario([vehicle("TD", (24, 10), "tank_destroyer", facing=0)],
                   [unit("E", (40, 10), figures=(("rifle", 3),))])
    g = begin(scn)
    activate(g, 0)
    assert ("fire_vehicle", 1, 0) not in g.decision().options  # out of the arc
    g.apply(("turn", 4))  # to face east: the target in the arc now
    td = g.units[0]
    assert td.veh.facing == 90.0 and td.veh.moved
    opts = g.decision().options
    assert ("fire_vehicle", 1, 0) not in opts  # poor stabilisation: no fire after a move
    assert ("fire_vehicle", 1, 1) in opts  # the turreted cupola (average) still fires, one die up


# --- 7. the assaulted vehicle may withdraw voluntarily (L1522) -------------------------------------------------------
def test_the_assaulted_vehicles_side_may_withdraw_it_voluntarily():
    # the truck withdraws one move (D12 5: 10") away, a level down; the squad may occupy its ground or follow it
    g = begin(truck_ahead(6.0), [("d12", 5)])
    activate(g, 0)
    g.apply(("assault_vehicle", 1))
    d = g.decision()
    assert set(d.options) == {("stand",), ("withdraw",)} and d.side == 1
    v = g.units[1]
    level = v.confidence
    g.apply(("withdraw",))
    mv = last_event(g, "Moved")
    assert mv["unit"] == 1 and mv["withdraw"] and v.y > 10.0 and v.confidence == level + 1
    assert not events_of(g, "CourageTested")
    d = g.decision()
    assert d.kind == "assault_follow_up" and d.side == 0 and set(d.options) == {("occupy",), ("contact",)}
    g.apply(("occupy",))
    assert (g.units[0].x, g.units[0].y) == (24.0, 10.0) and g.dice.remaining == 0


def test_the_vehicle_is_never_forced_to_withdraw_and_an_immobile_one_only_stands():
    # 6 against 1 is more than double: an infantry defender would be forced to withdraw; the truck stands and the
    # squad moves to contact instead (D6 2 reaches it; grenades D6 1 against D8 1: nothing; back to cover D6 1)
    g = begin(truck_ahead(6.0), [6, 1, ("d6", 2), ("d6", 1), ("d8", 1), ("d6", 1)])
    v = g.units[1]
    assault(g)
    assert last_event(g, "CourageTested")["result"] == "contact"
    assert (v.x, v.y) == (24.0, 10.0) and last_event(g, "ContactMove")["reached"] and g.dice.remaining == 0
    g = begin(truck_ahead(6.0))
    vehicle_state(g.units[1]).immobilised = True
    activate(g, 0)
    g.apply(("assault_vehicle", 1))
    assert g.decision().options == (("stand",),)


# --- the bots answer for an assaulted vehicle (agents/armour.py) ----------------------------------------------------
def test_bots_withdraw_a_shaken_truck_from_anti_tank_grenades_and_keep_a_tank_facing_them():
    # the suppressed (two markers), Shaken truck shows its rear to anti-tank grenades: the courage test D10 against
    # D4 (open shifts), then the grenade's D12 against the rear D8: its side withdraws it; the tank faces them with
    # its front D12 x 3: it stands
    from agents import make_agent
    for design, facing, answer in (("supply_truck", 0, ("withdraw",)), ("main_battle_tank", 180, ("stand",))):
        scn = scenario([unit("S", (24, 10), figures=(("assault_rifle", 4),), grenades=True,
                             specialist_grenade="at_grenade")],
                       [vehicle("V", (24, 16), design, facing=facing), unit("R", (44, 44), figures=(("rifle", 2),))])
        for name in ("medium", "hard", "scripted"):
            g = begin(scn)
            if design == "supply_truck":
                g.units[1].suppression, g.units[1].confidence = 2, SHAKEN
            activate(g, 0)
            g.apply(("assault_vehicle", 1))
            d = g.decision()
            assert d.kind == "assault_response" and make_agent(name, seed=1).choose(g, d) == answer, (design, name)


# --- the passengers of an open-topped vehicle: a failed courage test as the Assault Action's (L705-713) ------------
def test_a_failed_assault_on_passengers_loses_the_first_action_only():
    from test_close_assault_vehicles import open_top_carrying
    g = begin(open_top_carrying(), [1, 1])
    activate(g, 0)
    g.apply(("assault_passengers", 2))
    assert last_event(g, "VehicleAssaulted")["result"] == "repulsed"
    s = g.units[0]
    assert (s.x, s.y) == (24.0, 10.0) and s.confidence == STEADY and not events_of(g, "Moved")
    assert g.decision().kind == "action" and g.decision().unit == 0 and g.dice.remaining == 0
    g = begin(open_top_carrying(), [1, 3])  # less than half: both actions and a level (the passengers unsuppressed)
    activate(g, 0)
    g.apply(("assault_passengers", 2))
    assert g.units[0].confidence == STEADY + 1 and not (g.decision().kind == "action" and g.decision().unit == 0)


def test_a_vehicle_that_moved_in_its_own_activation_still_gives_final_defensive_fire_without_the_move_penalty():
    # the APC moved (or turned) in its last activation: its APSW, as a reaction in the squad's activation, fires at
    # the plain target die (D8 at 8", as in the test above), not one up for average stabilisation
    g = begin(truck_ahead(10.0, "apc_wheeled"), [6, 1, ("d6", 1)])
    vehicle_state(g.units[1]).moved = True
    assault(g)
    add_dice(g, *APSW_KILLS_ONE, ("d8", 8))
    g.apply(("fire", "support"))
    assert last_event(g, "HeavyWeaponFired")["target_die"] == "d8" and g.units[1].veh.moved
