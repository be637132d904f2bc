"""On-Table Artillery Fire (seed 000 L1594-1610; artillery_and_air_support/on_table_artillery.py): the minimum
ranges of high-angle pieces, the option that no piece fires indirectly, direct fire over open sights as a heavy
weapon of its size, and indirect fire whose round lands when the firing unit next activates."""
import json
from dataclasses import replace

import pytest
from conftest import SIDE0_WINS, events_of, last_event, new_game, scenario, unit
from vehicle_helpers import vehicle

from dustup_env.rules import Game
from dustup_env.rules.kernel.data import load_scenario
from dustup_env.rules.armoured_dustup.heavy_weapons import design_profile
from dustup_env.rules.armoured_dustup import heavy_weapons as hw
from dustup_env.rules.artillery_and_air_support import fire_missions, on_table_artillery as ot
from dustup_env.rules.artillery_and_air_support.fire_support_request import fire_support_state
from dustup_env.rules.kernel.state import saved_components
from dustup_env.rules.kernel.errors import IllegalOptionError


def battery(red=None, gun="towed_field_gun", fire_support=("Gun", "SPM"), **kw):
    """Blue: a towed field gun (uid 0, 6 crew, set up at (24, 2)), a self-propelled mortar (uid 1, (10, 2), facing
    north) and an infantry squad (uid 2, (24, 30)); red: a squad at (24, 40) (uid 3) and one far away (uid 4).  A
    48" x 72" table.  Blue's fire support: each named piece is an on-table asset (asset 0 the gun, 1 the mortar)."""
    blue = [unit("Gun", (24, 2), figures=(("rifle", 6),), heavy_weapon=gun), vehicle("SPM", (10, 2), "sp_mortar"),
            unit("O", (24, 30), figures=(("rifle", 2),))]
    red = [unit("R", (24, 40), figures=(("rifle", 2),)), unit("R2", (44, 68))] if red is None else red
    scn = scenario(blue, red, height=72, **kw)
    if fire_support:
        scn["sides"][0]["fire_support"] = [{"name": n, "firer": "on_table", "unit": n, "missions": 3}
                                           for n in fire_support]
    return scn


def started(scn, seed=3, options=None, dice=None):
    g = Game(scn, seed=seed, options=options) if dice is None else new_game(scn, SIDE0_WINS + list(dice), options)
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    if g.decision().side != 0:
        g.apply(("pass",) if ("pass",) in g.decision().options else g.decision().options[0])
    return g


def requests(g, asset):
    return [o for o in g.decision().options if o[0] == "request_fire" and o[1] == asset]


def called(scn, asset, options=None, roll=8):
    """The squad O (uid 2) requests ``asset`` with a forced D8 ``roll``; the game waits for the target marker."""
    g = started(scn, options=options, dice=[("d8", roll)])
    g.apply(("activate", 2))
    g.apply(("request_fire", asset, 0))
    return g


def marker_points(g):
    return [(o[1], o[2]) for o in g.decision().options if o[0] == "fire_target"]


def test_minimum_ranges_are_for_high_angle_pieces_only():
    gun = design_profile("towed_field_gun", "t")
    assert not ot.high_angle(gun.name) and ot.minimum_range(gun.weapon, gun.name) == 0  # direct-fire guns: none
    mortar = Game(battery(), seed=0).units[1].profile.vehicle.weapons[0]
    assert ot.high_angle(mortar.name) and ot.minimum_range(mortar) == 48  # other rockets and mortars (L1602)
    assert ot.minimum_range(replace(mortar, round_size="small")) == 24  # light mortars
    assert ot.minimum_range(mortar, "Light mortar") == 24  # a light mortar by its design's name (RN-1471)
    assert ot.minimum_range(replace(mortar, name="multiple rocket launcher (MRL)")) == 48


def test_the_fire_support_scenarios_mortar_is_a_light_mortar():
    g = Game(load_scenario("fire-support"), seed=0)
    m = next(u for u in g.units if u.name == "Mortar section")
    (k, w, name), = ot.pieces(g, m)
    assert ot.light_mortar(w, name) and ot.indirect_minimum(g, m) == 24 and w.round_size == "medium"


def test_a_high_angle_piece_may_not_fire_indirectly_below_its_minimum_range():
    # the request for the mortar carrier at (10, 2): no marker within 48" of it (L1600-1602)
    g = called(battery(), 1)
    pts = marker_points(g)
    assert pts and all(((x - 10) ** 2 + (y - 2) ** 2) ** 0.5 >= 48 for x, y in pts)
    assert (10.0, 58.5) in pts and (10.0, 49.5) not in pts and (2.0, 49.5) in pts  # 56.5", 47.5", 48.2"
    with pytest.raises(IllegalOptionError):
        g.apply(("fire_target", 10.0, 49.5))
    h = started(battery())
    h.apply(("activate", 1))
    assert not [o for o in h.decision().options if o[0] == "fire_artillery"]  # no gun; one path


def test_a_gun_fires_indirectly_at_any_range_and_the_option_that_no_piece_does():
    g = called(battery(), 0)
    assert (22.0, 31.5) in marker_points(g)  # 29.6" from the gun, which has no minimum range
    g = started(battery(), options={"artillery_indirect": False})
    g.apply(("activate", 2))
    assert not requests(g, 0) and not requests(g, 1)  # no on-table piece may be called (L1603 fn 12)
    g.apply(("end",))


def test_indirect_fire_is_requested_never_fired_without_a_request():
    # one procedure (L1610): the piece itself has no action of indirect fire; any unit (the piece's own crew too)
    # calls it by the Request Fire Support action, with its roll: a failed roll places no marker
    g = started(battery())
    g.apply(("activate", 0))
    assert requests(g, 0)
    g = called(battery(), 0, roll=1)
    assert not last_event(g, "FireSupportRequested")["success"] and not marker_points(g)


def test_a_gun_fires_over_open_sights_as_a_heavy_weapon_of_its_size():
    # the class-4 field gun is a size-4 heavy weapon (range 4 x 48"): the conventional gun's D10 firepower against
    # infantry and its D12 impact; the target 38" away is within range (no long-range shift)
    g = started(battery())
    g.apply(("activate", 0))
    g.apply(("fire_artillery", 3))
    e = last_event(g, "HeavyWeaponFired")
    assert e["unit"] == 0 and e["target"] == 3 and e["dice"] == ["d8", "d10"]
    assert ("fire_artillery", 3) not in g.decision().options  # once per activation
    assert ot.indirect_piece(g, g.units[0]) is None  # the piece has fired: a mission landing now would wait


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
    g = started(battery(), seed=5)  # seeded dice (a save needs them): the mission as a granted request leaves it
    g.apply(("activate", 2))
    fire_missions.add_mission(g, 0, 0, 2, [(22.0, 40.5)])
    g.apply(("end",))
    n = len(g.event_log())
    m = fire_support_state(g)["missions"][0]
    assert m["state"] == "waiting" and "artillery_missions" not in saved_components(g.components)  # one place for every mission
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
        e = log[i]
        assert (e["asset"], e["firer"], e["observer"], e["size"], e["rounds"], e["x"], e["y"]) == \
            ("on_table", 0, 2, "large", 1, 22.0, 40.5)  # the class-4 gun's large round (RN-616); O observes
        if game.decision().kind == "action":
            assert game.actions_left == 1 and not [o for o in game.decision().options if o[0] == "fire_artillery"]
    assert c.state_digest() == g.state_digest() == s.state_digest()


def test_a_mission_waits_while_its_piece_cannot_fire():
    # the gun is limbered when its activation begins: its mission waits for an activation in which it can fire
    g = called(battery(), 0)
    g.apply(("fire_target", 22.0, 40.5))
    g.apply(("end",))
    hw.state(g, g.units[0])["ready"] = False
    d = g.decision()
    if d.side != 0:
        g.apply(("activate", 3))
        g.apply(("end",))
    g.apply(("activate", 0))
    assert not events_of(g, "FireMissionImpact") and fire_support_state(g)["missions"][0]["state"] == "waiting"
    assert g.actions_left == 2


def test_a_self_propelled_mortar_fires_its_own_round_size():
    g = called(battery(), 1)
    g.apply(("fire_target", 10.0, 58.5))
    m = fire_missions.mission_data(g, fire_support_state(g)["missions"][0])
    assert m["size"] == "medium" and m["firer"] == 1  # the RAM mortar's medium round (RN-616)


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
    scn = battery()
    scn["sides"][0]["fire_support"][0].update(ammo="anti_personnel", size="very_large", rounds=6)
    g = started(scn, seed=5)
    gun = g.units[0]
    fire_missions.add_mission(g, 0, 0, 2, [(gun.x, gun.y)])
    g.apply(("activate", 0))
    assert len(events_of(g, "RoundLanded")) == 6 and not gun.in_play
    assert g.decision().options == (("end",),)
    g.apply(("end",))
    assert g.decision().kind == "activate" and not g.over


def test_random_games_with_on_table_artillery_keep_the_invariants_and_replay_alike(monkeypatch):
    """40 random games of the battery scenario (both options), each checked by the property tests' invariants after
    every decision; every tenth game replayed from a snapshot taken halfway ends in the same state."""
    import test_properties
    from test_properties import play_checked

    monkeypatch.setattr(test_properties, "PROCEDURE_KINDS",
                        test_properties.PROCEDURE_KINDS + ("fire_target", "fire_dummy"))  # the target markers

    impacts_seen = 0
    for seed in range(40):
        opts = {"artillery_indirect": seed % 4 != 3, "fire_support_chits": 2}
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
