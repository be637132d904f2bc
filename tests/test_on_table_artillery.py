"""On-Table Artillery Fire (seed 000 L1594-1610; artillery_and_air_support/on_table_artillery.py): the minimum
ranges of high-angle pieces, the option that no piece fires indirectly, direct fire over open sights as a heavy
weapon of its size, and indirect fire whose round lands when the firing unit next activates."""
import json
from dataclasses import replace

import pytest
from conftest import events_of, last_event, rect, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules import Game
from dustup_env.rules.armoured_dustup.heavy_weapons import design_profile
from dustup_env.rules.artillery_and_air_support import on_table_artillery as ot
from dustup_env.rules.kernel.errors import IllegalOptionError


def battery(red=None, gun="towed_field_gun", **kw):
    """Blue: a towed field gun (uid 0, 6 crew, set up at (24, 2)), a self-propelled mortar (uid 1, (10, 2), facing
    north) and an infantry squad (uid 2, (24, 30)); red: a squad at (24, 40) (uid 3) and one far away (uid 4).  A
    48" x 72" table."""
    blue = [unit("Gun", (24, 2), figures=(("rifle", 6),), heavy_weapon=gun), vehicle("SPM", (10, 2), "sp_mortar"),
            unit("O", (24, 30), figures=(("rifle", 2),))]
    red = [unit("R", (24, 40), figures=(("rifle", 2),)), unit("R2", (44, 68))] if red is None else red
    return scenario(blue, red, height=72, **kw)


def started(scn, seed=3, options=None):
    g = Game(scn, seed=seed, options=options)
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    if g.decision().side != 0:
        g.apply(("pass",) if ("pass",) in g.decision().options else g.decision().options[0])
    return g


def indirect(g):
    return [o for o in g.decision().options if o[0] == "fire_indirect"]


def test_minimum_ranges_are_for_high_angle_pieces_only():
    gun = design_profile("towed_field_gun", "t")
    assert not ot.high_angle(gun.name) and ot.minimum_range(gun.weapon, gun.name) == 0  # direct-fire guns: none
    mortar = Game(battery(), seed=0).units[1].profile.vehicle.weapons[0]
    assert ot.high_angle(mortar.name) and ot.minimum_range(mortar) == 48  # other rockets and mortars (L1602)
    assert ot.minimum_range(replace(mortar, round_size="small")) == 24  # light mortars
    assert ot.minimum_range(replace(mortar, name="multiple rocket launcher (MRL)")) == 48


def test_a_high_angle_piece_may_not_fire_indirectly_below_its_minimum_range():
    g = started(battery())
    g.apply(("activate", 1))  # the mortar carrier at (10, 2)
    pts = [(o[1], o[2]) for o in indirect(g)]
    assert pts and all(((x - 10) ** 2 + (y - 2) ** 2) ** 0.5 >= 48 for x, y in pts)
    assert (10.0, 58.5) in pts and (10.0, 49.5) not in pts and (2.0, 49.5) in pts  # 56.5", 47.5", 48.2"
    assert not [o for o in g.decision().options if o[0] == "fire_artillery"]  # a mortar is no gun over open sights
    with pytest.raises(IllegalOptionError):
        g.apply(("fire_indirect", 10.0, 49.5))


def test_a_gun_fires_indirectly_at_any_range_and_the_option_that_no_piece_does():
    g = started(battery())
    g.apply(("activate", 0))
    assert ("fire_indirect", 22.0, 4.5) in indirect(g)  # a gun has no minimum range
    g = started(battery(), options={"artillery_indirect": False})
    g.apply(("activate", 0))
    assert not indirect(g) and ("fire_artillery", 3) in g.decision().options  # it still fires over open sights
    g.apply(("end",))


def test_a_gun_fires_over_open_sights_as_a_heavy_weapon_of_its_size():
    # the class-4 field gun is a size-4 heavy weapon (range 4 x 48"): the conventional gun's D10 firepower against
    # infantry and its D12 impact; the target 38" away is within range (no long-range shift)
    g = started(battery())
    g.apply(("activate", 0))
    g.apply(("fire_artillery", 3))
    e = last_event(g, "HeavyWeaponFired")
    assert e["unit"] == 0 and e["target"] == 3 and e["dice"] == ["d8", "d10"]
    assert ("fire_artillery", 3) not in g.decision().options  # once per activation
    assert not indirect(g)  # the piece has fired


def test_direct_fire_rolls_the_gun_dice_and_its_impact():
    red = [unit("R", (24, 40), figures=(("rifle", 1),)), unit("R2", (44, 68))]
    g = Game(battery(red=red), seed=4)
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    assert g.decision().side == 0
    g.apply(("activate", 0))
    g.apply(("fire_artillery", 3))
    e = last_event(g, "HeavyWeaponFired")
    assert (e["weapon"], e["target_die"], e["dice"], e["result"]) == ("artillery-4", "d10", ["d8", "d10"], "major")
    hits = events_of(g, "HitResolved")
    assert hits and all(h["impact_die"] == "d12" for h in hits)  # the conventional gun's impact against infantry


def test_indirect_fire_lands_when_the_firing_unit_next_activates():
    g = started(battery(), seed=5)
    g.apply(("activate", 0))
    n = len(g.event_log())
    g.apply(("fire_indirect", 22.0, 40.5))
    called = last_event(g, "IndirectFireCalled")
    assert (called["unit"], called["x"], called["y"], called["observer"], called["size"]) == (0, 22.0, 40.5, 0, "large")
    assert not events_of(g, "FireMissionImpact") and g.extra["artillery_missions"]["0"]["firer"] == 0
    assert not indirect(g)  # fired this activation
    c = g.clone()  # the pending mission is plain data: copies and saves go on alike
    s = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
    assert c.state_digest() == g.state_digest() == s.state_digest()
    for game in (g, c, s):
        while not events_of(game, "FireMissionImpact", n):
            d = game.decision()
            if d.kind == "activate" and ("activate", 0) in d.options:
                game.apply(("activate", 0))
                break
            game.apply(("end",) if ("end",) in d.options else
                       next((o for o in d.options if o[0] in ("activate", "pass")), d.options[0]))
        log = game.event_log()[n:]
        i = next(k for k, e in enumerate(log) if e["type"] == "FireMissionImpact")
        act = [k for k, e in enumerate(log) if e["type"] == "UnitActivated" and e["unit"] == 0]
        assert act and act[-1] < i and all(e["type"] != "UnitActivated" for e in log[act[-1] + 1:i])
        m = log[i]
        assert (m["asset"], m["firer"], m["observer"], m["size"], m["rounds"], m["x"], m["y"]) == \
            ("on_table", 0, 0, "large", 1, 22.0, 40.5)
        assert log[i + 1]["type"] == "RoundLanded" and "0" not in game.extra["artillery_missions"]
    assert c.state_digest() == g.state_digest() == s.state_digest()


def test_the_observer_is_the_firer_or_the_nearest_friend_that_sees_the_point():
    # a building hides the point (22, 58.5) from everyone but the squad O: O observes for the gun
    scn = battery(terrain=[rect("building", 14, 44, 34, 50)])
    scn["sides"][0]["units"][2]["position"] = [36.0, 52.0]
    g = started(scn)
    gun, o = g.units[0], g.units[2]
    assert ot.observer_for(g, gun, 22.0, 58.5) is o
    assert ot.observer_for(g, gun, 22.0, 13.5) is gun  # the gun sees it itself
    g.apply(("activate", 0))
    assert ("fire_indirect", 22.0, 58.5) in indirect(g)
    scn["sides"][0]["units"][2]["position"] = [24.0, 30.0]  # nobody sees (22, 58.5): not offered
    g = started(scn)
    g.apply(("activate", 0))
    assert ("fire_indirect", 22.0, 58.5) not in indirect(g)


def test_a_self_propelled_mortar_fires_indirectly_and_its_weapon_is_spent():
    g = started(battery())
    g.apply(("activate", 1))
    g.apply(("fire_indirect", 10.0, 58.5))
    assert g.extra["artillery_missions"]["1"]["size"] == "medium"  # the RAM mortar's medium round (RN-616)
    assert not indirect(g)


def test_only_scenarios_with_artillery_have_the_rule():
    names = [r.name for r in Game(battery(), seed=0).rules.rules]
    assert "On-Table Artillery Fire" in names
    plain = scenario([vehicle("T", (24, 5), "main_battle_tank")], [unit("R", (24, 40))])
    assert "On-Table Artillery Fire" not in [r.name for r in Game(plain, seed=0).rules.rules]


def test_an_on_table_battery_is_fought_as_any_unit_on_the_table():
    # L1598: "an artillery battery being directly assaulted": the crew of the field gun is a unit on the table that
    # the enemy shoots at and assaults like any other (RN-1463)
    red = [unit("R", (24, 9), figures=(("rifle", 5),)), unit("R2", (44, 68))]
    g = Game(battery(red=red), seed=2)
    g.apply(("second",) if g.initiative_winner == 0 else ("first",))
    if g.decision().side != 1:
        g.apply(("activate", 2))
        g.apply(("end",))
    g.apply(("activate", 3))
    opts = g.decision().options
    assert any(o[0] == "shoot" and o[1] == 0 for o in opts) and any(o[0] == "assault" and 0 in o[1:] for o in opts)


def test_a_piece_caught_by_its_own_round_only_ends_its_activation():
    # friendly fire (L1679): six anti-personnel rounds of a very large size land on the gun itself as its activation
    # begins; with no able crew left it is out of play and may only end the activation
    g = started(battery(), seed=5)
    gun = g.units[0]
    m = ot.mission_of(g, gun, -1, ot.pieces(g, gun)[0][1], gun.x, gun.y, g.units[2])
    m.update(ammo="anti_personnel", size="very_large", rounds=6)
    ot.store_mission(g, gun, m)
    g.apply(("activate", 0))
    assert len(events_of(g, "RoundLanded")) == 6 and not gun.in_play
    assert g.decision().options == (("end",),)
    g.apply(("end",))
    assert g.decision().kind == "activate" and not g.over


def test_random_games_with_on_table_artillery_keep_the_invariants_and_replay_alike():
    """40 random games of the battery scenario (both options), each checked by the property tests' invariants after
    every decision; every tenth game replayed from a snapshot taken halfway ends in the same state."""
    from test_properties import play_checked

    impacts_seen = 0
    for seed in range(40):
        opts = {"artillery_indirect": seed % 4 != 3}
        g, taken = play_checked(battery(), seed, 1000 + seed, options=opts)
        impacts_seen += len(events_of(g, "FireMissionImpact"))
        if seed % 10 == 0:
            h = Game(battery(), seed=seed, options=opts)
            for opt in taken[:len(taken) // 2]:
                h.apply(opt)
            s = Game.from_snapshot(json.loads(json.dumps(h.snapshot())))
            for opt in taken[len(taken) // 2:]:
                s.apply(opt)
            assert s.state_digest() == g.state_digest()
    assert impacts_seen > 20
