"""Final defensive fire of mechs and monsters in the Assault Action (seed 000 "Final Defensive Fire" L780-794,
"Mechs and Monsters" L1486 and L1514, "Open Top Vehicles › Final Defensive Fire" L1561; RN-853): their support
weapons, never their heavy weapons.  Forced dice."""
from conftest import activate, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.armoured_dustup.close_assault import mech_support_weapons
from dustup_env.rules.armoured_dustup.fire_by_vehicles import FiredState
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


def mech_and_squad(design="infantry_walker", mech_pos=(24, 20)):
    """Blue squad S (uid 0) at (24, 10), blue B far away (uid 1); red mech M (uid 2) facing south, red R far away."""
    return scenario([unit("S", (24, 10), figures=(("rifle", 4),), grenades=True, confidence="steady"),
                     unit("B", (4, 4), figures=(("rifle", 2),))],
                    [vehicle("M", mech_pos, design, facing=180, quality="d8"),
                     unit("R", (44, 44), figures=(("rifle", 2),))])


COURAGE_AND_SHORT_MOVE = [5, 4, 1]  # A 5 > D 4 (not double): contact; the move rolls 1: 2", short of the mech


def _fall_short(design="infantry_walker", dice=(), courage=COURAGE_AND_SHORT_MOVE):
    g = begin(mech_and_squad(design), list(courage) + list(dice))
    activate(g, 0)
    g.apply(("assault", 2))
    g.apply(("stand",))
    assert last_event(g, "ContactMove")["reached"] is False
    return g


def test_a_mech_falls_short_and_gives_final_defensive_fire_with_its_support_weapon():
    # the walker's APSW: D8 quality and 2D6 against the squad's D8 target die (roll 1): 8, 6 beat it, a major success
    # of 2 hits, both on the leader (allocation rolls 1); the first impact D8 8 against armour D4 1: killed, the
    # second nothing.
    # The leader fell: the squad tests at once (Death of a Leader, L1186): D8 8 passes.
    # One casualty: the squad's reaction test D8 1 against LV 2 + 1 fails: back to the start, suppressed.
    g = _fall_short(dice=[1, 8, 6, 1, 1, 1, 1, 8, 1, 1, 1, 8, 1])
    d = g.decision()
    assert d.kind == "final_defensive_fire" and d.side == 1 and d.options == (("fire", "support"), ("hold_fire",))
    g.apply(("fire", "support"))
    shot = last_event(g, "HeavyWeaponFired")
    assert shot["unit"] == 2 and shot["weapon"] == "APSW" and shot["result"] == "major" and shot["hits"] == 2
    assert not events_of(g, "SuppressionTested")
    react = last_event(g, "AssaultReaction")
    assert react["unit"] == 0 and not react["passed"]
    s = g.units[0]
    assert (s.x, s.y) == (24.0, 10.0) and s.suppression == 1 and s.n_able() == 3
    assert [e["reason"] for e in events_of(g, "ConfidenceTested") if e["unit"] == 0] == ["leader_casualty"]
    assert g.dice.remaining == 0


def test_no_casualties_and_the_attacker_may_move_again():
    g = _fall_short(dice=[6, 1, 6, 1])
    g.apply(("fire", "support"))
    assert last_event(g, "HeavyWeaponFired")["successes"] == 0
    assert g.decision().kind == "second_move" and g.dice.remaining == 0


def test_heavy_weapons_never_give_final_defensive_fire():
    # the behemoth's acid spit is a heavy weapon (L794) and the hive brute has close-combat weapons only: no fire
    # (the monsters' size in units outnumbers the squad 3:1, its D8 down to D4: A 2 against D 1, contact)
    for design in ("behemoth", "hive_brute"):
        g = _fall_short(design, courage=[2, 1, 1])
        assert g.decision().kind == "second_move"
    g = begin(mech_and_squad("assault_mech"))
    ks = [k for k, _ in mech_support_weapons(g, g.units[2], g.units[0])]
    assert ks == [2]  # the APSW, not the DFFG/3 (a heavy weapon) nor the power claw


def test_a_suppressed_mech_fires_without_a_suppression_test_at_one_die_up():
    # RN-140: a suppressed mech still shoots, its target die one up (D10), and takes no suppression test
    g = begin(mech_and_squad(), COURAGE_AND_SHORT_MOVE + [7, 8, 6, 6])
    g.units[2].suppression = 1
    activate(g, 0)
    g.apply(("assault", 2))
    g.apply(("stand",))
    g.apply(("fire", "support"))
    assert last_event(g, "HeavyWeaponFired")["target_die"] == "d10"
    assert not events_of(g, "SuppressionTested") and g.decision().kind == "second_move"


def test_the_mech_fires_even_if_it_fired_and_moved_in_its_own_activation():
    g = _fall_short(dice=[6, 1, 6, 1])
    m = g.units[2]
    vehicle_state(m).moved = True
    g.state_of(FiredState).vehicle_fired = {str(m.uid): [1]}  # the APSW fired in its own activation
    g.invalidate()
    assert ("fire", "support") in g.decision().options
    g.apply(("fire", "support"))
    assert m.veh.moved and g.state_of(FiredState).vehicle_fired[str(m.uid)] == [1]


def test_holding_fire_and_a_broken_mech_out_of_cover():
    g = _fall_short()
    g.apply(("hold_fire",))
    assert g.decision().kind == "second_move" and not events_of(g, "HeavyWeaponFired")
    from dustup_env.rules.kernel.entities import BROKEN
    from dustup_env.rules.unit_actions.assault_action import _can_fire
    g = begin(mech_and_squad())
    g.units[2].confidence = BROKEN
    assert _can_fire(g, g.units[2], g.units[0]) == []
