"""Shoot Action: target die, firepower dice, resolving fire, casualties, impact, split and suppressive fire."""
import pytest

from conftest import activate, add_dice, begin, events_of, last_event, rect, scenario, shoot_modes, unit, wall
from dustup_env.rules import D4, D6, D8, D10, D12, ScriptedDice
from dustup_env.rules.kernel.entities import KILLED, OK, WOUNDED
from dustup_env.rules.unit_actions.shoot_action import NO_ENGAGE, armour_die, resolve_fire, resolve_impact, target_die

HIGH = ("medium", "high")  # target side high commitment: no test for first fire / first suppression


# --- target die table (pure) ---------------------------------------------------------------------
@pytest.mark.parametrize("kw,step", [
    ({"distance": 30}, D8),
    ({"distance": 48}, D8),  # 48" is still effective range
    ({"distance": 48.5}, D10),  # long range +1
    ({"distance": 12}, D6),  # within 12" is short range -1
    ({"distance": 12.5}, D8),
    ({"distance": 30, "concealment": 1}, D10),  # partially concealed +1
    ({"distance": 30, "concealment": 2}, D12),  # completely concealed +2
    ({"distance": 30, "propped": True}, D10),
    ({"distance": 30, "small": True}, D10),
    ({"distance": 30, "firer_quality": D4}, D10),  # untrained firer +1
    ({"distance": 30, "firer_quality": D12}, D6),  # elite firer -1
    ({"distance": 30, "firer_quality": D10}, D8),  # veteran: no shift
    ({"distance": 30, "travel": True}, D6),
    ({"distance": 30, "suppressive": True}, D6),
    ({"distance": 30, "effective_range": 24}, D10),  # beyond a weapon's own effective range is long
    ({"distance": 5, "firer_quality": D12, "travel": True, "suppressive": True}, D4),  # closed at D4
    ({"distance": 50, "concealment": 2}, NO_ENGAGE),  # above D12: no shooting
    ({"distance": 50, "concealment": 2, "suppressive": True}, D12),
    ({"distance": 30, "concealment": 2, "propped": True}, NO_ENGAGE),
    ({"distance": 30, "concealment": 1, "propped": True, "small": True}, NO_ENGAGE),
    ({"distance": 30, "concealment": 1, "propped": True, "small": True, "suppressive": True}, D12),
])
def test_target_die_table(kw, step):
    assert target_die(**kw) == step


# --- resolving fire (pure) -----------------------------------------------------------------------
def test_no_success_when_no_die_beats_the_target_draws_favour_target():
    d = ScriptedDice([("d8", 5), ("d8", 5), ("d6", 5), ("d8", 2)])
    r = resolve_fire(d, quality=D8, firepower=[D6, D8], target=D8)
    assert (r.result, r.successes, r.hits) == ("none", 0, 0)
    assert d.remaining == 0


def test_one_success_is_minor_no_hits():
    d = ScriptedDice([("d8", 4), ("d8", 8), ("d6", 3)])
    r = resolve_fire(d, quality=D8, firepower=[D6], target=D8)
    assert (r.result, r.successes, r.hits) == ("minor", 1, 0)
    assert d.remaining == 0


def test_seed_casualty_example_13_vs_d8_is_one_hit_plus_5_in_8():
    # target D8 rolls 4; firer 6, 5, 2: major success, total 13 -> 1 hit, remainder 5
    d = ScriptedDice([("d8", 4), ("d8", 6), ("d6", 5), ("d4", 2), ("d8", 5)])
    r = resolve_fire(d, quality=D8, firepower=[D6, D4], target=D8)
    assert (r.result, r.successes, r.hits) == ("major", 2, 2)  # remainder roll 5 <= 5: extra hit
    d = ScriptedDice([("d8", 4), ("d8", 6), ("d6", 5), ("d4", 2), ("d8", 6)])
    assert resolve_fire(d, quality=D8, firepower=[D6, D4], target=D8).hits == 1  # 6 > 5: no extra hit
    d = ScriptedDice([("d8", 4), ("d8", 6), ("d6", 5), ("d4", 2)])  # option off: no remainder roll at all
    r = resolve_fire(d, quality=D8, firepower=[D6, D4], target=D8, extra_hits=False)
    assert r.hits == 1 and d.remaining == 0


def test_no_remainder_roll_when_total_divides_exactly():
    d = ScriptedDice([("d6", 1), ("d8", 8), ("d10", 10)])
    r = resolve_fire(d, quality=D8, firepower=[D10], target=D6)
    assert (r.result, r.hits) == ("major", 3)  # 18 / 6 = 3 remainder 0
    assert d.remaining == 0


def test_suppressive_fire_never_hits():
    d = ScriptedDice([("d6", 1), ("d8", 8), ("d10", 10), ("d8", 8)])
    r = resolve_fire(d, quality=D8, firepower=[D10, D8], target=D6, suppressive=True)
    assert (r.result, r.successes, r.hits) == ("major", 3, 0)
    assert d.remaining == 0


# --- impact vs armour (pure) ------------------------------------------------------------------------
@pytest.mark.parametrize("i,a,effect", [(3, 3, "none"), (2, 3, "none"), (4, 3, "wound"), (6, 3, "wound"),
                                        (7, 3, "kill"), (3, 1, "kill"), (2, 1, "wound"), (1, 1, "none")])
def test_impact_against_armour(i, a, effect):
    d = ScriptedDice([("d8", i), ("d6", a)])
    assert resolve_impact(d, impact=D8, armour=D6) == (effect, i, a)


@pytest.mark.parametrize("i,a,effect", [(1, 4, "wound"), (4, 4, "wound"), (8, 4, "wound"), (9, 4, "kill"),
                                        (3, 1, "kill")])
def test_no_armour_any_result_wounds_unless_it_kills(i, a, effect):
    d = ScriptedDice([("d10", i), ("d4", a)])
    assert resolve_impact(d, impact=D10, armour=D4, no_armour=True)[0] == effect


@pytest.mark.parametrize("base,propped,cover,out", [(D6, False, 0, D6), (D6, True, 0, D8), (D6, False, 1, D8),
                                                    (D6, False, 2, D10), (D6, True, 2, D12), (D10, True, 2, D12),
                                                    (D12, True, 0, D12), (D4, True, 1, D8)])
def test_armour_die_prop_and_cover_shifts(base, propped, cover, out):
    assert armour_die(base, propped=propped, cover=cover) == out


# --- in-game helpers ------------------------------------------------------------------------------------
def shot(scn, mode="all", dice=(), target=1, shooter=0, setup=None, options=None):
    """Activate unit ``shooter`` and apply one shoot action with the given forced dice."""
    g = begin(scn, dice, options=options)
    if setup:
        setup(g)
    activate(g, shooter)
    g.apply(("shoot", target, mode))
    return g


def target_die_in_game(scn, mode="all", setup=None):
    """The target die the game rolls for a shot (every die forced to 1: a miss)."""
    g = shot(scn, mode, [1] * 8, setup=setup)
    return last_event(g, "ShotResolved")["target_die"]


def shoot_options_of(scn, uid=0, setup=None):
    g = begin(scn)
    if setup:
        setup(g)
    activate(g, uid)
    return g.decision().options


# --- the seed's Extended Example --------------------------------------------------------------------------
def extended_example_scenario():
    # 10 experienced troops, 9 laser rifles and 1 plasma rifle, 30" from an infantry target behind cover
    # (light scrub: partially concealed, no protective cover) wearing partial light armour (D6).
    return scenario([unit("Lasers", (24, 5), figures=(("laser_rifle", 9), ("plasma_rifle", 1)), quality="d8")],
                    [unit("Target", (24, 35), figures=(("rifle", 10),), armour="partial_light")],
                    terrain=[rect("light_scrub", 20, 31, 28, 39)])


@pytest.mark.parametrize("remainder_roll,hits", [(7, 2), (8, 1)])
def test_seed_extended_example(remainder_roll, hits):
    dice = [("d10", 5), ("d8", 6), ("d10", 8), ("d6", 3),  # target D10 5; firer D8 6, D10 8, D6 3
            ("d10", remainder_roll)]  # 17 / 10 = 1 hit, 7 in 10 chance of a second
    dice += [("d10", 2 + k) for k in range(hits)]  # allocation among 10 figures: a D10 each
    dice += [("d6", 3), ("d6", 3)] * hits  # impact D6 vs armour D6: a draw, no effect
    dice += [("d8", 4)]  # target's confidence test for its first suppression
    g = shot(extended_example_scenario(), "all", dice)
    s = last_event(g, "ShotResolved")
    assert s["target_die"] == "d10"
    assert s["firer_dice"] == ["d8", "d10", "d6"]
    assert s["firer_rolls"] == [6, 8, 3]
    assert (s["target_roll"], s["successes"], s["result"], s["hits"]) == (5, 2, "major", hits)
    h = events_of(g, "HitResolved")
    assert [(e["figure"], e["impact_die"], e["armour_die"], e["effect"]) for e in h] == \
        [(1 + k, "d6", "d6", "none") for k in range(hits)]
    assert g.units[1].suppression == 1
    # medium commitment: first suppression needs more than 1 + LV 2; no casualties, so that is the only test
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["roll"], c["needed"], c["levels_dropped"]) == ("first_suppressed", 4, 3, 0)
    assert g.dice.remaining == 0


def test_seed_extended_example_wound_and_confidence_test():
    dice = [("d10", 5), ("d8", 6), ("d10", 8), ("d6", 3), ("d10", 8),  # one hit
            ("d10", 4),  # allocated to figure 3
            ("d6", 4), ("d6", 3),  # impact beats armour: untreated wound
            ("d8", 5)]  # confidence test: needed 1 + LV 2 + 1 untreated = 4; 5 passes
    g = shot(extended_example_scenario(), "all", dice)
    assert g.dice.remaining == 0
    t = g.units[1]
    assert t.figures[3].status == WOUNDED and t.figures[3].wounds == 1
    assert sum(f.status == OK for f in t.figures) == 9
    c = last_event(g, "ConfidenceTested")
    assert (c["roll"], c["needed"], c["levels_dropped"], c["confidence"]) == (5, 4, 0, "confident")


# --- target die in play ------------------------------------------------------------------------------------
def _duel(dist=30.0, blue=None, red=None, terrain=(), obstacles=(), height=60, commitment=("medium", "medium")):
    blue = blue or {}
    red = red or {}
    b = unit("A", (24, 5), **blue)
    r = unit("B", (24, 5 + dist), **red)
    return scenario([b], [r], terrain=terrain, obstacles=obstacles, height=height, commitment=commitment)


def _set(uid, **attrs):
    def setup(g):
        for k, v in attrs.items():
            setattr(g.units[uid], k, v)
    return setup


@pytest.mark.parametrize("dist,die", [(30, "d8"), (48, "d8"), (49, "d10"), (12, "d6"), (3, "d6"), (13, "d8")])
def test_range_bands_in_play(dist, die):
    assert target_die_in_game(_duel(dist)) == die


def test_partially_concealed_target_in_concealing_terrain():
    assert target_die_in_game(_duel(terrain=[rect("light_scrub", 20, 31, 28, 39)])) == "d10"


def test_completely_concealed_target():
    assert target_die_in_game(_duel(), setup=_set(1, complete_concealment=True)) == "d12"


def test_propped_target():
    assert target_die_in_game(_duel(), setup=_set(1, propped=True)) == "d10"


def test_small_target_single_figure():
    assert target_die_in_game(_duel(red={"figures": [{"weapon": "rifle"}]})) == "d10"


@pytest.mark.parametrize("quality,die", [("d4", "d10"), ("d6", "d8"), ("d8", "d8"), ("d10", "d8"), ("d12", "d6")])
def test_untrained_and_elite_firers(quality, die):
    # (an untrained unit's first sight of the enemy is a panic test: taken and passed beforehand here)
    assert target_die_in_game(_duel(blue={"quality": quality}), setup=_set(0, panic_passed=True)) == die


def test_suppressive_fire_shifts_target_die_down():
    assert target_die_in_game(_duel(), mode="suppressive") == "d6"


def test_target_die_above_d12_cannot_be_engaged():
    # long range + completely concealed = D8 +3: only suppressive fire (-1) can still engage
    scn = _duel(50)
    opts = shoot_options_of(scn, setup=_set(1, complete_concealment=True))
    assert shoot_modes(opts, 1) == {"suppressive"}
    # ... and propped as well: no shoot option at all
    opts = shoot_options_of(scn, setup=_set(1, complete_concealment=True, propped=True))
    assert shoot_modes(opts, 1) == set()
    assert not [o for o in opts if o[0] == "shoot"]
    # an exposed target at the same range may be engaged in every applicable mode
    assert shoot_modes(shoot_options_of(scn), 1) == {"all", "suppressive", "half"}


# --- firepower dice ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("weapon,count,die", [("shotgun", 3, "d10"),  # the seed's 3 men x FP3 = 9 -> D10
                                              ("musket", 1, "d4"), ("musket", 9, "d6"), ("rifle", 4, "d4"),
                                              ("rifle", 5, "d6"), ("rifle", 7, "d8"), ("assault_rifle", 5, "d10"),
                                              ("assault_rifle", 6, "d12"), ("assault_rifle", 10, "d12"),
                                              ("shotgun", 10, "d12")])
def test_small_arms_firepower_rounds_up_and_caps_at_d12(weapon, count, die):
    g = shot(_duel(blue={"figures": [{"weapon": weapon, "count": count}]}), "all", [1] * 4)
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", die]


def _mixed(mode, figures, dice, armour="basic_battledress"):
    scn = _duel(blue={"figures": figures}, red={"armour": armour}, commitment=HIGH)
    return shot(scn, mode, dice)


RIFLES_LMG = [{"weapon": "rifle", "count": 5}, {"weapon": "lmg"}]


def test_support_weapon_with_unit_fire_uses_small_arms_impact():
    dice = [("d8", 1), ("d8", 4), ("d6", 2), ("d8", 2),  # 8 / D8 = 1 hit exactly
            ("d6", 2), ("d8", 1), ("d4", 1)]  # allocation, impact (rifle D8) vs armour D4
    g = _mixed("all", RIFLES_LMG, dice)
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d6", "d8"]
    h = last_event(g, "HitResolved")
    assert (h["figure"], h["impact_die"], h["armour_die"], h["effect"]) == (1, "d8", "d4", "none")
    assert g.dice.remaining == 0


def test_support_weapon_fired_alone_uses_its_own_impact():
    dice = [("d8", 1), ("d8", 4), ("d8", 4), ("d6", 2), ("d10", 1), ("d4", 1)]
    g = _mixed("support", RIFLES_LMG, dice)
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d8"]
    assert last_event(g, "HitResolved")["impact_die"] == "d10"
    assert g.dice.remaining == 0


def test_small_arms_only_mode_leaves_the_support_weapon():
    g = _mixed("small_arms", RIFLES_LMG, [1, 1, 1])
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d6"]
    assert g.units[0].fired == {0, 1, 2, 3, 4}


def test_support_only_squad_combines_and_uses_lowest_impact():
    figs = [{"weapon": "lmg"}, {"weapon": "agl"}, {"weapon": "hmg"}]
    dice = [("d8", 1), ("d8", 4), ("d8", 2), ("d12", 1), ("d10", 1),  # 8 / D8 = 1 hit
            ("d6", 2), ("d8", 1), ("d4", 1)]  # impact = the lowest of the weapons that fired (agl D8)
    g = _mixed("all", figs, dice)
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d8", "d12", "d10"]
    assert last_event(g, "HitResolved")["impact_die"] == "d8"
    assert g.dice.remaining == 0


# --- grenades ---------------------------------------------------------------------------------------------------
def test_grenades_range_six_inches():
    assert "grenades" in shoot_modes(shoot_options_of(_duel(6, blue={"grenades": True})), 1)
    assert "grenades" not in shoot_modes(shoot_options_of(_duel(6.5, blue={"grenades": True})), 1)
    assert "grenades" not in shoot_modes(shoot_options_of(_duel(6)), 1)  # unit without grenades


def test_two_throwers_as_support_weapons_with_small_arms_impact():
    scn = _duel(6, blue={"grenades": True}, commitment=HIGH)
    dice = [("d6", 1), ("d8", 2), ("d4", 2), ("d8", 4), ("d8", 4),  # short range: D6; 3 rifles = D4; 2 x D8
            ("d6", 3), ("d6", 4),  # 12 / 6 = 2 hits, remainder 0; both allocated first...
            ("d8", 1), ("d4", 1), ("d8", 1), ("d4", 1)]  # ... then each resolved: impact D8 vs armour D4
    g = shot(scn, "grenades", dice)
    s = last_event(g, "ShotResolved")
    assert s["target_die"] == "d6"
    assert s["firer_dice"] == ["d8", "d4", "d8", "d8"]
    assert s["hits"] == 2
    assert [e["impact_die"] for e in events_of(g, "HitResolved")] == ["d8", "d8"]  # rifle impact, not D6
    assert g.units[0].fired == {0, 1, 2, 3, 4}
    assert g.dice.remaining == 0


# --- issue 3: one of several support weapons on its own (RN-055, RN-350) ---------------------------------------
RIFLES_LMG_AGL = [{"weapon": "rifle", "count": 5}, {"weapon": "lmg"}, {"weapon": "agl"}]


def _opts_named(opts, name, target=1):
    return {o[2] for o in opts if o[0] == name and o[1] == target}


def test_one_of_several_support_weapons_fires_alone_with_its_own_impact():
    scn = _duel(blue={"figures": RIFLES_LMG_AGL}, commitment=HIGH)
    g = begin(scn, [("d8", 1), ("d8", 4), ("d12", 8),  # target D8 1; quality D8 4; the AGL alone D12 8
                    ("d8", 4),  # 12 / 8 = 1 hit, remainder 4: the extra-hit roll 4 <= 4
                    ("d6", 2), ("d6", 3),  # two allocation rolls among the target's 5 figures (D6)
                    ("d8", 2), ("d4", 2), ("d8", 1), ("d4", 1)])  # the AGL's own impact D8 (the LMG's D10 below)
    activate(g, 0)
    assert _opts_named(g.decision().options, "shoot_weapon") == {0, 1}  # the LMG (k=0) and the AGL (k=1)
    g.apply(("shoot_weapon", 1, 1))
    s = last_event(g, "ShotResolved")
    assert (s["mode"], s["firer_dice"], s["hits"]) == ("weapon1", ["d8", "d12"], 2)
    assert [e["impact_die"] for e in events_of(g, "HitResolved")] == ["d8", "d8"]
    assert g.units[0].fired == {6}  # only the AGL fired: the rifles and the LMG are still ready
    assert g.dice.remaining == 0
    # the second action: one support weapon is left, so it is fired alone by the "support" mode (no weapon option)
    opts = g.decision().options
    assert _opts_named(opts, "shoot_weapon") == set()
    assert {"all", "support", "half", "suppressive", "small_arms"} <= shoot_modes(opts, 1)
    add_dice(g, ("d8", 1), ("d8", 4), ("d8", 4), ("d6", 1), ("d10", 2), ("d4", 2))  # 8 / 8 = 1 hit exactly
    g.apply(("shoot", 1, "support"))
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d8"]
    assert last_event(g, "HitResolved")["impact_die"] == "d10"  # the LMG's own impact
    assert g.units[0].fired == {5, 6}


def test_lmg_alone_uses_d10_not_the_small_arms_impact():
    scn = _duel(blue={"figures": RIFLES_LMG_AGL}, commitment=HIGH)
    g = begin(scn, [("d8", 1), ("d8", 4), ("d8", 4), ("d6", 1), ("d10", 7), ("d4", 4), ("d8", 8)])  # + confidence test
    activate(g, 0)
    g.apply(("shoot_weapon", 1, 0))  # 8 / 8 = 1 hit exactly; allocation D6 1; impact D10 7 vs D4 4: wound
    s = last_event(g, "ShotResolved")
    assert (s["mode"], s["firer_dice"]) == ("weapon0", ["d8", "d8"])
    h = last_event(g, "HitResolved")
    assert (h["impact_die"], h["effect"]) == ("d10", "wound")
    assert g.units[0].fired == {5} and g.dice.remaining == 0


def test_identical_support_weapons_give_one_weapon_option():
    figs = [{"weapon": "rifle", "count": 3}, {"weapon": "lmg", "count": 2}, {"weapon": "hmg"}]
    opts = shoot_options_of(_duel(blue={"figures": figs}))
    assert _opts_named(opts, "shoot_weapon") == {0, 2}  # the first LMG and the HMG; the second LMG is the same shot


def test_a_single_support_weapon_has_no_weapon_option_and_support_slots_are_limited():
    assert _opts_named(shoot_options_of(_duel(blue={"figures": RIFLES_LMG})), "shoot_weapon") == set()
    five = [{"weapon": w} for w in ("plasma_rifle", "lmg", "hmg", "agl", "rifle_grenade")]
    assert _opts_named(shoot_options_of(_duel(20, blue={"figures": five})), "shoot_weapon") == {0, 1, 2, 3}


def test_weapon_option_respects_range_and_the_target_die():
    figs = [{"weapon": "rifle", "count": 3}, {"weapon": "lmg"}, {"weapon": "rifle_grenade"}]
    assert _opts_named(shoot_options_of(_duel(30, blue={"figures": figs})), "shoot_weapon") == {0, 1}
    assert _opts_named(shoot_options_of(_duel(49, blue={"figures": figs})), "shoot_weapon") == set()  # RG max 48"
    g = shot(_duel(30, blue={"figures": figs}), "all", [1] * 5)
    g2 = begin(_duel(30, blue={"figures": figs}), [1] * 3)
    activate(g2, 0)
    g2.apply(("shoot_weapon", 1, 0))  # the LMG alone at 30": no rifle-grenade long-range shift (RN-179)
    assert last_event(g, "ShotResolved")["target_die"] == "d10"
    assert last_event(g2, "ShotResolved")["target_die"] == "d8"


# --- issue 3: grenades thrown singly (RN-021, RN-351, RN-352) and a rifle grenade in play ------------------------
def test_one_thrower_rather_than_two_with_small_arms_impact():
    scn = _duel(6, blue={"grenades": True}, commitment=HIGH)
    g = begin(scn, [("d6", 1), ("d8", 4), ("d4", 2), ("d8", 6),  # short range D6; 4 rifles = D4; one grenade D8
                    ("d6", 3), ("d6", 4),  # 12 / 6 = 2 hits; allocation
                    ("d8", 1), ("d4", 1), ("d8", 1), ("d4", 1)])  # rifle impact D8 vs armour D4
    activate(g, 0)
    assert _opts_named(g.decision().options, "throw") == {"one", "alone"}
    g.apply(("throw", 1, "one"))
    s = last_event(g, "ShotResolved")
    assert (s["mode"], s["firer_dice"], s["hits"]) == ("grenade_one", ["d8", "d4", "d8"], 2)
    assert [e["impact_die"] for e in events_of(g, "HitResolved")] == ["d8", "d8"]
    assert g.units[0].fired == {0, 1, 2, 3, 4}
    assert g.dice.remaining == 0


def test_hand_grenade_thrown_alone_uses_its_own_impact_d6():
    scn = _duel(6, blue={"grenades": True}, commitment=HIGH)
    g = begin(scn, [("d6", 1), ("d8", 4), ("d8", 8),  # D6 1; quality 4; the grenade D8 8: 12 / 6 = 2 hits
                    ("d6", 3), ("d6", 4), ("d6", 5), ("d4", 3), ("d6", 1), ("d4", 1),  # impact D6 (own)
                    ("d8", 8)])  # the casualty's confidence test
    activate(g, 0)
    g.apply(("throw", 1, "alone"))
    s = last_event(g, "ShotResolved")
    assert (s["mode"], s["firer_dice"], s["hits"]) == ("grenade_alone", ["d8", "d8"], 2)
    hits = events_of(g, "HitResolved")
    assert [e["impact_die"] for e in hits] == ["d6", "d6"] and hits[0]["effect"] == "wound"
    assert g.units[0].fired == {0}  # only the thrower: the other four may still fire
    assert g.dice.remaining == 0
    assert "all" in shoot_modes(g.decision().options, 1)


def test_specialist_grenade_is_an_individual_action_with_its_own_impact():
    scn = _duel(5, blue={"specialist_grenade": "at_grenade"}, commitment=HIGH)
    g = begin(scn, [("d6", 1), ("d8", 4), ("d8", 8), ("d6", 3), ("d6", 4),
                    ("d12", 9), ("d4", 4), ("d12", 1), ("d4", 1), ("d8", 8)])
    activate(g, 0)
    opts = g.decision().options
    assert _opts_named(opts, "throw") == {"specialist"}  # no hand grenades: no "one" or "alone"
    assert "grenades" not in shoot_modes(opts, 1)
    g.apply(("throw", 1, "specialist"))
    s = last_event(g, "ShotResolved")
    assert (s["mode"], s["firer_dice"]) == ("specialist_grenade", ["d8", "d8"])
    hits = events_of(g, "HitResolved")
    assert [e["impact_die"] for e in hits] == ["d12", "d12"]
    assert [e["effect"] for e in hits] == ["kill", "none"]  # 9 > 2 x 4 kills
    assert g.units[0].fired == {0} and g.dice.remaining == 0


def test_grenades_thrown_singly_need_six_inches_and_a_figure_to_throw():
    both = {"grenades": True, "specialist_grenade": "at_grenade"}
    assert _opts_named(shoot_options_of(_duel(6, blue=both)), "throw") == {"one", "alone", "specialist"}
    assert _opts_named(shoot_options_of(_duel(6.5, blue=both)), "throw") == set()
    one_rifle = dict(both, figures=[{"weapon": "rifle"}, {"weapon": "lmg"}])  # one small arm: no "one" (same as grenades)
    assert _opts_named(shoot_options_of(_duel(6, blue=one_rifle)), "throw") == {"alone", "specialist"}
    gunners = dict(both, figures=[{"weapon": "lmg"}, {"weapon": "hmg"}])  # support gunners do not throw
    assert _opts_named(shoot_options_of(_duel(6, blue=gunners)), "throw") == set()


@pytest.mark.parametrize("dist,target,remainder", [(20, "d8", []), (30, "d10", [("d10", 6)])])
def test_rifle_grenade_fires_with_effective_range_24(dist, target, remainder):
    figs = [{"weapon": "rifle", "count": 4}, {"weapon": "rifle_grenade"}]
    scn = _duel(dist, blue={"figures": figs}, commitment=HIGH)
    # target 1; quality 8; the rifle grenade alone D8 8: 16 / 8 = 2 hits exactly, or 16 / 10 = 1 hit + 6 in 10
    g = begin(scn, [(target, 1), ("d8", 8), ("d8", 8)] + remainder
              + [("d6", 1), ("d6", 2), ("d8", 8), ("d4", 1), ("d8", 2), ("d4", 2), ("d8", 8)])
    activate(g, 0)
    g.apply(("shoot", 1, "support"))
    s = last_event(g, "ShotResolved")
    assert (s["target_die"], s["firer_dice"], s["hits"]) == (target, ["d8", "d8"], 2)
    assert [e["impact_die"] for e in events_of(g, "HitResolved")] == ["d8", "d8"]  # the rifle grenade's own D8
    assert [e["effect"] for e in events_of(g, "HitResolved")] == ["kill", "none"]
    assert g.units[0].fired == {4} and g.dice.remaining == 0


@pytest.mark.parametrize("opt", [("throw", 1, "alone"), ("shoot_weapon", 1, 0)])
def test_a_hidden_unit_firing_a_weapon_alone_is_revealed(opt):
    blue = {"hidden": True, "grenades": True,
            "figures": [{"weapon": "rifle", "count": 3}, {"weapon": "lmg"}, {"weapon": "hmg"}]}
    scn = _duel(6, blue=blue, terrain=[rect("light_scrub", 20, 1, 28, 9)])
    g = begin(scn, [1] * 3)
    activate(g, 0)
    assert g.units[0].hidden and opt in g.decision().options
    g.apply(opt)
    assert last_event(g, "UnitRevealed")["reason"] == "fired" and not g.units[0].hidden


# --- issue 3: the average small arm (RN-019) -------------------------------------------------------------------
def test_average_small_arm_fp2_d6_is_the_default_weapon():
    scn = _duel(blue={"figures": [{"count": 5}]}, commitment=HIGH)
    g = begin(scn, [("d8", 1), ("d8", 4), ("d10", 4), ("d6", 1), ("d6", 5), ("d4", 3), ("d8", 8)])
    activate(g, 0)
    assert [f.weapon for f in g.units[0].figures] == ["average_small_arm"] * 5
    g.apply(("shoot", 1, "all"))  # 5 x FP2 = 10: D10; 8 / 8 = 1 hit; impact D6 5 vs D4 3: wound
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d10"]
    h = last_event(g, "HitResolved")
    assert (h["impact_die"], h["effect"]) == ("d6", "wound")
    assert g.dice.remaining == 0


# --- pistols ---------------------------------------------------------------------------------------------------
def test_pistols_only_at_close_range():
    pistols = {"figures": [{"weapon": "pistol", "count": 3}]}
    assert shoot_modes(shoot_options_of(_duel(12, blue=pistols)), 1) == {"all", "suppressive", "half"}
    assert shoot_modes(shoot_options_of(_duel(12.5, blue=pistols)), 1) == set()


@pytest.mark.parametrize("dist,die", [(20, "d4"), (10, "d6")])
def test_pistol_in_a_rifle_squad_fires_only_at_close_range(dist, die):
    figs = {"figures": [{"weapon": "pistol"}, {"weapon": "rifle", "count": 4}]}
    g = shot(_duel(dist, blue=figs), "all", [1] * 4)
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", die]


# --- minor / major / remainder in play --------------------------------------------------------------------------
def test_minor_success_suppresses_without_hits():
    g = shot(_duel(commitment=HIGH), "all", [("d8", 4), ("d8", 5), ("d6", 4)])
    s = last_event(g, "ShotResolved")
    assert (s["result"], s["hits"]) == ("minor", 0)
    assert g.units[1].suppression == 1
    assert events_of(g, "HitResolved") == []
    assert g.dice.remaining == 0


@pytest.mark.parametrize("extra_hits,remainder,hits", [(True, [("d8", 5)], 2), (True, [("d8", 6)], 1),
                                                       (False, [], 1)])
def test_remainder_roll_with_option_on_and_off(extra_hits, remainder, hits):
    dice = [("d8", 4), ("d8", 8), ("d6", 5)] + remainder  # 13 / 8 = 1 hit remainder 5
    dice += [("d6", 2 + k) for k in range(hits)] + [("d8", 1), ("d4", 1)] * hits
    g = shot(_duel(commitment=HIGH), "all", dice, options={"extra_hits": extra_hits})
    assert last_event(g, "ShotResolved")["hits"] == hits
    assert g.dice.remaining == 0


def test_extra_hits_option_from_the_scenario():
    scn = _duel(commitment=HIGH)
    scn["options"] = {"extra_hits": False}
    dice = [("d8", 4), ("d8", 8), ("d6", 5), ("d6", 2), ("d8", 1), ("d4", 1)]
    g = shot(scn, "all", dice)
    assert g.options["extra_hits"] is False
    assert last_event(g, "ShotResolved")["hits"] == 1
    assert g.dice.remaining == 0


def test_random_allocation_rerolls_results_above_the_unit_size():
    dice = [("d8", 1), ("d8", 4), ("d6", 4),  # 8 / 8: one hit
            ("d6", 6), ("d6", 6), ("d6", 3),  # 5 figures: D6, sixes re-rolled -> figure index 2
            ("d8", 1), ("d4", 1)]
    g = shot(_duel(commitment=HIGH), "all", dice)
    assert last_event(g, "HitResolved")["figure"] == 2
    assert g.dice.remaining == 0


# --- casualties ---------------------------------------------------------------------------------------------------
def test_wound_kill_and_two_wounds_kill():
    # 4 hits: figure 1 wounded, figure 1 wounded again (killed), figure 2 killed outright, figure 3 unharmed
    dice = [("d8", 1), ("d8", 8), ("d6", 6), ("d8", 8), ("d8", 2)]  # rifles+lmg: 8+6+8+2 = 24 = 3 x 8
    dice += [("d6", 2), ("d6", 2), ("d6", 3)]
    dice += [("d8", 3), ("d4", 2),  # wound
             ("d8", 4), ("d4", 3),  # second wound: killed
             ("d8", 5), ("d4", 2)]  # more than double: killed
    dice += [("d8", 8)]  # casualties: confidence test (high commitment: 0 + LV 2; untreated +0)
    scn = _duel(blue={"figures": RIFLES_LMG}, commitment=HIGH)
    g = shot(scn, "all", dice)
    t = g.units[1]
    assert [e["effect"] for e in events_of(g, "HitResolved")] == ["wound", "kill", "kill"]
    assert (t.figures[1].status, t.figures[1].wounds) == (KILLED, 2)
    assert t.figures[2].status == KILLED
    assert [f.status for f in t.figures] == [OK, KILLED, KILLED, OK, OK]
    c = last_event(g, "ConfidenceTested")
    assert (c["reason"], c["needed"], c["levels_dropped"]) == ("casualties", 2, 0)
    assert g.dice.remaining == 0


def test_wounded_figure_wounded_again_in_a_later_attack_is_killed():
    scn = _duel(commitment=HIGH)
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d6", 2), ("d8", 3), ("d4", 2)]
    g = begin(scn, dice)
    g.units[1].set_figure(1, status=WOUNDED, wounds=1)
    g.units[1].under_fire_before = g.units[1].suppressed_before = True
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert (g.units[1].figures[1].status, g.units[1].figures[1].wounds) == (KILLED, 2)
    assert last_event(g, "HitResolved")["effect"] == "kill"
    # reading: the figure was already a casualty, so this is no new casualty and no confidence test
    assert events_of(g, "ConfidenceTested") == []
    assert g.dice.remaining == 0


def test_no_armour_wounds_on_any_non_killing_result():
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d6", 2), ("d8", 1), ("d4", 4), ("d8", 8)]
    g = shot(_duel(red={"armour": "none"}, commitment=HIGH), "all", dice)
    assert last_event(g, "HitResolved")["effect"] == "wound"
    assert g.units[1].figures[1].status == WOUNDED
    assert g.dice.remaining == 0


def test_prop_and_soft_cover_shift_armour_and_target_dice():
    # target propped 1" inside light woods: concealed +1, propped +1 -> D12; armour D6 +1 prop +1 soft = D10
    woods = [rect("light_woods", 10, 34, 38, 50)]
    dice = [("d12", 1), ("d8", 8), ("d6", 4),  # 12 / 12 = 1 hit
            ("d6", 2), ("d8", 8), ("d10", 4),  # 8 > 4 wounds; 8 is not more than double 4
            ("d8", 3)]  # casualties test: high commitment 0 + LV 2 -> 3 passes
    g = shot(_duel(red={"armour": "partial_light"}, terrain=woods, commitment=HIGH), "all", dice,
             setup=_set(1, propped=True))
    s = last_event(g, "ShotResolved")
    assert (s["target_die"], s["hits"]) == ("d12", 1)
    h = last_event(g, "HitResolved")
    assert (h["armour_die"], h["effect"]) == ("d10", "wound")
    c = last_event(g, "ConfidenceTested")
    assert (c["needed"], c["levels_dropped"]) == (2, 0)
    assert g.dice.remaining == 0


def test_wall_near_target_conceals_and_gives_hard_cover():
    scn = _duel(red={"armour": "partial_light"}, obstacles=[wall("wall", 20, 33, 28, 33)], commitment=HIGH)
    dice = [("d10", 1), ("d8", 6), ("d6", 4),  # concealed: D10; 10 / 10 = 1 hit
            ("d6", 2), ("d8", 8), ("d10", 4)]  # armour D6 + 2 hard cover = D10
    g = shot(scn, "all", dice + [("d8", 3)])
    assert last_event(g, "ShotResolved")["target_die"] == "d10"
    assert last_event(g, "HitResolved")["armour_die"] == "d10"
    assert g.dice.remaining == 0


def test_wall_far_from_target_gives_nothing():
    scn = _duel(red={"armour": "partial_light"}, obstacles=[wall("wall", 20, 20, 28, 20)], commitment=HIGH)
    dice = [("d8", 1), ("d8", 4), ("d6", 4), ("d6", 2), ("d8", 1), ("d6", 1)]
    g = shot(scn, "all", dice)
    assert last_event(g, "ShotResolved")["target_die"] == "d8"
    assert last_event(g, "HitResolved")["armour_die"] == "d6"
    assert g.dice.remaining == 0


# --- split fire, each weapon once per activation ------------------------------------------------------------
def test_each_weapon_fires_once_per_activation_and_split_fire():
    scn = scenario([unit("A", (24, 5), figures=(("rifle", 5), ("lmg", 1)))],
                   [unit("B", (20, 35)), unit("C", (28, 35))], commitment=HIGH)
    g = begin(scn, [1] * 6)
    activate(g, 0)
    assert shoot_modes(g.decision().options, 1) == {"all", "suppressive", "small_arms", "support", "half"}
    g.apply(("shoot", 1, "support"))  # the LMG alone at B
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d8"]
    opts = g.decision().options
    # the LMG has fired: only the rifles remain, at either target (split fire)
    assert shoot_modes(opts, 1) == {"all", "suppressive", "half"}
    assert shoot_modes(opts, 2) == {"all", "suppressive", "half"}
    g.apply(("shoot", 2, "all"))
    s = last_event(g, "ShotResolved")
    assert (s["target"], s["firer_dice"]) == (2, ["d8", "d6"])
    assert g.units[0].fired == {0, 1, 2, 3, 4, 5}
    assert g.dice.remaining == 0


def test_no_weapon_left_means_no_second_shot_and_fired_is_reset_next_activation():
    scn = _duel(commitment=HIGH, red={"figures": [{"weapon": "rifle", "count": 5}]})
    scn["turn_limit"] = 2
    g = begin(scn, [1, 1, 1])
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert [o for o in g.decision().options if o[0] == "shoot"] == []
    g.apply(("end",))
    activate(g, 1)
    add_dice(g, ("d8", 8), ("d8", 1))  # turn 2 initiative (rolled as turn 1 ends): side 0
    g.apply(("end",))
    g.apply(("first",))
    activate(g, 0)
    assert g.units[0].fired == set()
    assert "all" in shoot_modes(g.decision().options, 1)


def test_half_then_the_rest():
    scn = _duel(blue={"figures": [{"weapon": "assault_rifle", "count": 6}]}, commitment=HIGH)
    g = begin(scn, [1, 1, 1, 1, 1, 1])
    activate(g, 0)
    g.apply(("shoot", 1, "half"))
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d6"]  # 3 x FP2 = 6
    assert g.units[0].fired == {0, 1, 2}
    assert shoot_modes(g.decision().options, 1) == {"all", "suppressive", "half"}
    g.apply(("shoot", 1, "all"))
    assert last_event(g, "ShotResolved")["firer_dice"] == ["d8", "d6"]
    assert g.units[0].fired == {0, 1, 2, 3, 4, 5}


# --- suppressive fire ---------------------------------------------------------------------------------------------
def test_suppressive_fire_in_play_suppresses_without_hits():
    dice = [("d6", 1), ("d8", 8), ("d6", 6)]  # a major success (14 vs D6) but no hits and no further rolls
    g = shot(_duel(commitment=HIGH), "suppressive", dice)
    s = last_event(g, "ShotResolved")
    assert (s["target_die"], s["result"], s["hits"], s["suppressive"]) == ("d6", "major", 0, True)
    assert g.units[1].suppression == 1
    assert events_of(g, "HitResolved") == []
    assert g.dice.remaining == 0


def test_suppression_markers_capped_at_three():
    g = shot(_duel(commitment=HIGH), "suppressive", [("d6", 1), ("d8", 8), ("d6", 6)],
             setup=_set(1, suppression=3, under_fire_before=True, suppressed_before=True))
    assert g.units[1].suppression == 3
    assert last_event(g, "Suppressed")["markers"] == 3


def test_suppression_accumulates_to_three():
    g = begin(_duel(commitment=HIGH), [("d8", 4), ("d8", 5), ("d4", 1),  # half (3 rifles, D4): minor
                                       ("d6", 1), ("d8", 8), ("d4", 4)])  # the other 2: suppressive
    g.units[1].suppression = 1
    activate(g, 0)
    g.apply(("shoot", 1, "half"))
    assert last_event(g, "ShotResolved")["result"] == "minor"
    assert g.units[1].suppression == 2
    g.apply(("shoot", 1, "suppressive"))
    assert g.units[1].suppression == 3


# --- concealment --------------------------------------------------------------------------------------------------
def test_completely_concealed_units_may_not_fire():
    scn = _duel(blue={}, terrain=[rect("light_scrub", 20, 1, 28, 9)])
    g = begin(scn)
    activate(g, 0)
    assert ("reorganise", "conceal") in g.decision().options
    assert "all" in shoot_modes(g.decision().options, 1)
    g.apply(("reorganise", "conceal"))
    assert g.units[0].complete_concealment is True
    opts = g.decision().options
    assert [o for o in opts if o[0] == "shoot"] == []
    assert ("reorganise", "reveal") in opts
    g.apply(("reorganise", "reveal"))
    assert g.units[0].complete_concealment is False


def test_conceal_needs_concealing_terrain():
    g = begin(_duel())
    activate(g, 0)
    assert ("reorganise", "conceal") not in g.decision().options


def test_no_line_of_sight_no_shot():
    scn = _duel(terrain=[rect("hill", 10, 15, 38, 25)])
    assert [o for o in shoot_options_of(scn) if o[0] == "shoot"] == []
