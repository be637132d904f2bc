"""Close Assault › Mechs and Monsters (seed 000 L1514-1518): mechs and monsters assault and are assaulted as infantry
units (the Assault Action), their size counting for outnumbering; a damaged mech defends on a lower quality die.
Forced dice."""
import pytest
from conftest import activate, begin, events_of, last_event, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules.kernel.entities import STEADY
from dustup_env.rules.unit_actions.assault_action import unit_counts
from dustup_env.rules.armoured_dustup.vehicles import vehicle_state


def mech_and_squad(design="infantry_walker", mech_pos=(24, 11.5), rifles=4, **kw):
    """Blue squad S (uid 0) at (24, 10), blue B far away (uid 1); red mech M (uid 2) facing south, red R far away."""
    return scenario([unit("S", (24, 10), figures=(("rifle", rifles),), grenades=True, confidence="steady"),
                     unit("B", (4, 4), figures=(("rifle", 2),))],
                    [vehicle("M", mech_pos, design, facing=180, quality="d8", **kw),
                     unit("R", (44, 44), figures=(("rifle", 2),))])


def test_infantry_assault_a_mech_as_infantry_and_the_mech_counts_its_size():
    g = begin(mech_and_squad(mech_pos=(24, 14)))
    activate(g, 0)
    opts = g.decision().options
    assert ("assault", 2) in opts and ("assault_vehicle", 2) not in opts
    assert g.is_legal(("assault", 2)) and not g.is_legal(("assault_vehicle", 2))
    assert unit_counts(g, g.units[0], None, g.units[2], None) == (1, 1)  # four riflemen are one unit (RN-907)
    g = begin(mech_and_squad("assault_mech", mech_pos=(24, 16)))
    assert unit_counts(g, g.units[2], None, g.units[0], None) == (4, 1)  # a size-4 mech counts as four units (L1514)


def test_a_mech_assaults_unless_suppressed_and_tanks_still_do_not():
    g = begin(mech_and_squad(mech_pos=(24, 14)), first=1)
    activate(g, 2)
    assert ("assault", 0) in g.decision().options and g.is_legal(("assault", 0))
    g = begin(mech_and_squad(mech_pos=(24, 14)), first=1)
    g.units[2].suppression = 1
    activate(g, 2)
    assert not any(o[0] == "assault" for o in g.decision().options)  # L1518
    g = begin(mech_and_squad("main_battle_tank", mech_pos=(24, 16)))
    activate(g, 0)
    opts = g.decision().options
    assert ("assault", 2) not in opts and ("assault_vehicle", 2) in opts  # vehicles: Infantry Assaulting Vehicles
    g = begin(mech_and_squad("main_battle_tank", mech_pos=(24, 16)), first=1)
    activate(g, 2)
    assert not any(o[0] == "assault" for o in g.decision().options)  # vehicles tank-shock instead


def test_house_close_combat_a_mech_defends_with_quality_times_size():
    # seed 003 Mechs: the size-4 assault mech's defence roll is multiplied by 4 (roll 1 = 4); the squad's D8 8 beats
    # it, its melee D4 4 does not: one success, a threat, no hits.  The mech strikes back with D8, its crew's D4 and
    # the power claw's D10 (extra weapons add dice) against the squad's D8 8 and misses.
    g = begin(mech_and_squad("assault_mech", mech_pos=(24, 12)), [1, 8, 4, 8, 1, 1, 1],
              options={"close_combat": "house"})
    activate(g, 0)
    assert ("assault", 2) in g.decision().options and ("assault_vehicle", 2) not in g.decision().options
    g.apply(("assault", 2))
    first, second = events_of(g, "StrikeResolved")
    assert first["target_roll"] == 4 and first["successes"] == 1 and first["result"] == "threat"
    assert second["striker_dice"] == ["d8", "d4", "d10"] and second["hits"] == 0
    assert g.decision().kind == "assault_response" and g.dice.remaining == 0


def test_house_close_combat_squad_weapons_beat_the_defence_then_the_armour():
    # the size-1 walker: defence 1 x 1; D8 8 and D4 4 both beat it: (8 + 4) / 8 = 1 hit, remainder 4 (roll 8: no
    # extra hit); the mech misses the squad (D8 8); at the end of the round the hit is the squad's grenade D6 6 against the front armour D12 (D12 x class 1) 3: damaged
    g = begin(mech_and_squad(), [1, 8, 4, 8, 8, 1, 1, 1, 6, 3], options={"close_combat": "house"})
    activate(g, 0)
    g.apply(("assault", 2))
    assert events_of(g, "StrikeResolved")[0]["hits"] == 1
    assert last_event(g, "VehicleHit")["result"] == "damaged" and g.units[2].veh.damage == 1
    assert g.dice.remaining == 0


def test_infantry_hits_on_a_mech_are_impact_rolls_against_its_armour():
    # two-inch rule: combat at once.  Round 1: one unit against the size-1 mech, one unit: no outnumbering (L1514,
    # L1524, RN-907), the mech's D8 target die (roll 1); quality 4 and strike D4 4: a major success, 16 / 8 = 2 hits;
    # each an impact roll of the squad's hand grenades D6 against the walker's front armour D12: 4 > 3 one damage
    # marker, the other none.  Round 2: the mech strikes with D8 + its crew's D4 + the power fist's D6 (RN-851) and
    # misses.  The courage test: the new marker counts as a wounded figure for the mech (RN-852); 1 against 1, a
    # draw: the squad withdraws.
    g = begin(mech_and_squad(), [1, 4, 4, 4, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    activate(g, 0)
    g.apply(("assault", 2))
    strike = events_of(g, "StrikeResolved")
    assert strike[0]["target_die"] == "d8" and strike[0]["hits"] == 2
    assert strike[1]["striker_dice"] == ["d8", "d4", "d6"]
    hits = events_of(g, "VehicleHit")
    assert [h["result"] for h in hits] == ["damaged", "none"] and hits[0]["facing"] == "front"
    assert g.units[2].veh.damage == 1 and not events_of(g, "ConfidenceTested")  # no vehicle test in close combat
    ct = last_event(g, "CourageTested")
    assert ("wounded", -1) in [tuple(s) for s in ct["defender_shifts"]] and ct["result"] == "draw"
    assert last_event(g, "Moved")["unit"] == 0 and g.dice.remaining == 0


def test_a_damaged_mech_defends_on_a_lower_quality_die():
    # an assault mech (size 4, D8) against four riflemen, one unit: it outnumbers them 4:1 (L1524, RN-907); with two
    # damage markers its die as the target of the strike is D8 two down = D4 (L1463, minimum D4); striking, it rolls
    # its own D8 against the squad's D8 two down for the outnumbering
    scn = mech_and_squad("assault_mech", mech_pos=(24, 13.5))
    g = begin(scn, [1] * 30)
    vehicle_state(g.units[2]).damage = 2
    activate(g, 0)
    g.apply(("assault", 2))
    strike = events_of(g, "StrikeResolved")
    assert strike[0]["target"] == 2 and strike[0]["target_die"] == "d4"
    assert strike[1]["striker"] == 2 and strike[1]["striker_dice"][0] == "d8" and strike[1]["target_die"] == "d4"
    g = begin(scn, [1] * 30)
    activate(g, 0)
    g.apply(("assault", 2))
    assert events_of(g, "StrikeResolved")[0]["target_die"] == "d8"  # undamaged


def test_a_mech_strikes_infantry_with_its_close_combat_weapon_and_withdraws_as_infantry():
    # the walker assaults two riflemen (one unit against one: no outnumbering, RN-907): round 1 D8 1, D4 1, power
    # fist D6 6 against D8 1: a minor success, 8 / 8 = 1 hit at the power fist's impact against infantry, D10
    g = begin(mech_and_squad(rifles=2), [1, 1, 1, 6] + [1] * 12, first=1)
    activate(g, 2)
    g.apply(("assault", 0))
    assert last_event(g, "StrikeResolved")["striker"] == 0
    hit = last_event(g, "HitResolved")
    assert hit["target"] == 0 and hit["impact_die"] == "d10"
    ct = last_event(g, "CourageTested")
    assert ct["result"] == "draw" and not any(s[0].startswith("outnumbered") for s in ct["attacker_shifts"])
    mv = last_event(g, "Moved")
    assert mv["unit"] == 2 and mv["withdraw"]  # L1516: withdraws as infantry
    assert g.units[0].confidence == STEADY
