"""Detach Element Action and Regroup Action (seed 000), forced dice."""
import pytest

from conftest import activate, add_dice, begin, events_of, kinds, last_event, scenario, unit
from dustup_env.codec import ActionCodec
from dustup_env.rules import IllegalOptionError
from dustup_env.rules.kernel.dice import D6, D8, D10
from dustup_env.rules.kernel.entities import BROKEN, KILLED, OK, SHAKEN, STEADY, TREATED, WOUNDED


def squad_game(blue=None, red=None, dice=(), more_blue=(), **kw):
    blue = blue or unit("A", (10, 5), figures=(("rifle", 5), ("lmg", 1)))
    red = red or unit("R", (40, 45))
    return begin(scenario([blue, *more_blue], [red], **kw), list(dice))


# --- Detach Element Action ------------------------------------------------------------------------------
def test_detach_options_and_scout_detachment():
    g = squad_game()
    activate(g, 0)
    opts = g.decision().options
    assert {("detach", "half"), ("detach", "support"), ("detach", "scout")} <= set(opts)
    g.apply(("detach", "scout"))
    a, d = g.units[0], g.units[2]
    assert g.side_units[0] == [0, 2] and len(g.units) == 3
    assert d.parent == 0 and d.name == "A/scout" and d.kind == "squad"
    assert len(d.figures) == 2 and all(f.weapon == "rifle" for f in d.figures)
    assert len(a.figures) == 4 and a.figures[a.leader].status == OK  # the parent keeps its leader
    assert (d.quality, d.lv, d.confidence, d.commitment) == (a.quality, a.lv, a.confidence, a.commitment)
    # the detachment's leader is where its first figure stood
    assert d.figure_positions()[0] == pytest.approx((d.x, d.y))
    assert last_event(g, "Detached") == {"type": "Detached", "unit": 0, "detachment": 2, "what": "scout",
                                         "figures": 2}
    assert g.actions_left == 1  # forming a detachment is one action
    assert g.dice.remaining == 0


def test_support_and_half_detachments():
    g = squad_game()
    activate(g, 0)
    g.apply(("detach", "support"))
    d = g.units[2]
    assert [f.weapon for f in d.figures] == ["lmg"] and d.kind == "single"
    assert ("detach", "support") not in g.decision().options  # no support weapon left
    g.apply(("detach", "half"))  # 5 able riflemen: 2 go
    assert len(g.units[3].figures) == 2 and len(g.units[0].figures) == 3


def test_half_detachment_takes_the_treated_wounded():
    g = squad_game()
    a = g.units[0]
    a.set_figure(2, status=TREATED)
    a.set_figure(3, status=WOUNDED)
    activate(g, 0)
    g.apply(("detach", "half"))  # 4 able: 2 able + the treated figure; the untreated one stays
    d = g.units[2]
    assert sorted(f.status for f in d.figures) == [OK, OK, TREATED]
    assert d.figures[d.leader].status == OK
    assert [f.status for f in a.figures].count(WOUNDED) == 1


def test_detachment_has_no_activation_of_its_own():
    g = squad_game(dice=[("d8", 5), ("d8", 3)])  # turn 2 initiative: blue wins
    activate(g, 0)
    g.apply(("detach", "scout"))
    g.apply(("end",))
    assert not g.can_activate(g.units[2])
    g.apply(("activate", 1))
    g.apply(("end",))  # no blue unit left to activate: the turn ends
    assert last_event(g, "TurnEnded")["turn"] == 1
    g.apply(("first",))
    assert g.decision().options == (("activate", 0),)


def test_activate_detachment_within_six_inches_is_automatic():
    g = squad_game()
    activate(g, 0)
    g.apply(("detach", "scout"))
    assert ("activate_detachment", 2) in g.decision().options
    g.apply(("activate_detachment", 2))
    assert g.active == 2 and g.actions_left == 2 and g.stack[-1].ordered
    assert last_event(g, "Communicated")["roll"] == 0
    assert len(events_of(g, "UnitActivated")) == 1  # an ordered activation places no marker
    g.apply(("prop",))
    g.apply(("prop",)) if ("prop",) in g.decision().options else g.apply(("end",))
    # back to the parent, whose second action was the activation: its activation has ended
    assert g.active != 2
    assert g.dice.remaining == 0


def test_activate_detachment_communication_roll():
    g = squad_game(blue=unit("A", (10, 5), figures=(("rifle", 5),), quality="d8", leadership=2),
                   dice=[("d8", 2), ("d8", 3)])
    activate(g, 0)
    g.apply(("detach", "scout"))
    d = g.units[2]
    d.x, d.y = 30.0, 5.0  # 20" away: a communication test, D8 must beat the worst LV (2)
    g.apply(("activate_detachment", 2))  # rolls 2: fails, the action is spent
    c = last_event(g, "Communicated")
    assert (c["roll"], c["needed"], c["success"]) == (2, 2, False)
    assert g.active == -1 or g.active != 2  # the parent's activation ended (both actions used)
    assert g.dice.remaining == 1


def test_detachment_regroups_with_its_parent_for_one_action():
    g = squad_game()
    a = g.units[0]
    activate(g, 0)
    g.apply(("detach", "scout"))
    g.units[2].confidence = SHAKEN
    g.units[2].suppression = 1
    assert ("regroup", 2) in g.decision().options
    g.apply(("regroup", 2))
    assert len(a.figures) == 6 and g.units[2].merged and not g.units[2].in_play
    assert a.confidence == SHAKEN and a.suppression == 1  # worse confidence, more suppression
    assert not a.disorganised()
    assert last_event(g, "Rejoined") == {"type": "Rejoined", "unit": 0, "detachment": 2}
    assert g.victory_points() == (0, 0)  # a rejoined detachment gives the enemy no VP


def test_detach_limited_to_twelve_units_per_side():
    blues = [unit(f"A{i}", (2 + 4 * i, 5), figures=(("rifle", 3),)) for i in range(12)]
    g = begin(scenario(blues, [unit("R", (40, 45))]), [])
    activate(g, 0)
    assert "detach" not in kinds(g.decision().options)


def test_detachment_options_are_encodable():
    g = squad_game()
    activate(g, 0)
    g.apply(("detach", "scout"))
    c = ActionCodec()
    for o in g.decision().options:
        assert c.decode(g, 0, c.encode(g, 0, o), "action") == o


def test_detachment_free_when_parent_out_of_play():
    g = squad_game()
    activate(g, 0)
    g.apply(("detach", "scout"))
    assert g.units[2].activated  # formed during the parent's activation: activated this turn
    g.units[2].activated = False  # (a new turn)
    assert not g.can_activate(g.units[2])
    for i in range(len(g.units[0].figures)):
        g.units[0].set_figure(i, status=KILLED)
    assert g.can_activate(g.units[2])  # an orphaned detachment acts on its own


# --- Regroup Action ---------------------------------------------------------------------------------------
def two_depleted(dist=4.0, lv=(2, 1), q=("d8", "d10"), n=(4, 3), conf=("steady", "shaken"), **kw):
    a = unit("A", (10, 5), figures=(("rifle", n[0] + 2),), leadership=lv[0], quality=q[0], confidence=conf[0])
    b = unit("B", (10 + dist, 5), figures=(("rifle", n[1] + 2),), leadership=lv[1], quality=q[1],
             confidence=conf[1])
    g = begin(scenario([a, b], [unit("R", (40, 45))]), kw.get("dice", []))
    for u, k in ((g.units[0], n[0]), (g.units[1], n[1])):
        u.set_figure(-1, status=KILLED)
        u.set_figure(-2, status=KILLED)
    return g


def test_regroup_combines_two_depleted_units():
    g = two_depleted()
    activate(g, 0)
    assert ("regroup", 1) in g.decision().options
    g.apply(("regroup", 1))
    u, p = g.units[0], g.units[1]
    assert p.merged and p.activated and not p.in_play
    assert u.lv == 1  # the best leadership, and that unit's leader leads
    assert (u.x, u.y) == (14.0, 5.0)
    assert u.quality == D8  # the larger unit's (4 > 3)
    assert u.confidence == SHAKEN  # the worse confidence
    assert u.n_alive() == 7 and u.strength == 11
    assert g.activation_frame() is None or g.active != 0  # both activations used
    assert last_event(g, "Regrouped")["partner"] == 1
    assert g.victory_points() == (0, 0)
    assert g.dice.remaining == 0


def test_regroup_same_size_takes_the_lower_quality():
    g = two_depleted(n=(3, 3), q=("d10", "d6"))
    activate(g, 0)
    g.apply(("regroup", 1))
    assert g.units[0].quality == D6


def test_regroup_needs_depleted_units_and_an_unactivated_partner():
    g = two_depleted()
    g.units[1].set_figure(-1, status=OK)
    g.units[1].set_figure(-2, status=OK)
    activate(g, 0)
    assert ("regroup", 1) not in g.decision().options
    g2 = two_depleted()
    g2.units[1].activated = True
    activate(g2, 0)
    assert ("regroup", 1) not in g2.decision().options


def test_regroup_is_only_a_first_action():
    g = two_depleted()
    activate(g, 0)
    g.apply(("prop",))
    assert ("regroup", 1) not in g.decision().options


def test_regroup_with_the_one_move_first():
    g = two_depleted(dist=14.0, dice=[("d6", 6)])  # 12 points: moves toward B, stopping 5.5" short
    activate(g, 0)
    g.apply(("regroup", 1))
    m = last_event(g, "Moved")
    assert m["roll"] == 6 and m["end"] == [18.5, 5.0]
    assert g.units[1].merged
    assert g.dice.remaining == 0


def test_regroup_move_falls_short_keeps_the_second_action():
    g = two_depleted(dist=14.0, dice=[("d6", 1)])  # 2 points: still 12" apart
    activate(g, 0)
    g.apply(("regroup", 1))
    assert not g.units[1].merged
    assert g.active == 0 and g.actions_left == 1


def test_regroup_out_of_reach_not_offered():
    g = two_depleted(dist=19.0)  # 6 + 12 = 18" reach
    activate(g, 0)
    assert ("regroup", 1) not in g.decision().options
    with pytest.raises(IllegalOptionError):
        g.apply(("regroup", 1))


# --- Regroup under a commander's orders (RN-233) -----------------------------------------------------------
def ordered_pair(b_activated=True):
    """Blue HQ (uid 0) orders squad A (uid 1, within 6" with LOS: automatic) whose partner B (uid 2) has
    already activated this turn; all three are depleted."""
    hq = unit("HQ", (10, 9), figures=(("rifle", 3),), kind="hq", quality="d8", leadership=1)
    a = unit("A", (10, 14), figures=(("rifle", 6),), commander="HQ", leadership=2)
    b = unit("B", (14, 14), figures=(("rifle", 5),), commander="HQ", leadership=2)
    g = begin(scenario([hq, a, b], [unit("R", (40, 45))]))
    for uid, k in ((0, 1), (1, 2), (2, 2)):
        for i in range(len(g.units[uid].figures) - k, len(g.units[uid].figures)):
            g.units[uid].set_figure(i, status=KILLED)
    g.units[2].activated = b_activated
    return g


def test_an_ordered_unit_may_regroup_with_an_already_activated_partner():
    g = ordered_pair()
    activate(g, 0)
    g.apply(("order", 1))
    assert last_event(g, "OrderGiven")["success"] and g.stack[-1].ordered
    d = g.decision()
    assert d.unit == 1 and ("regroup", 2) in d.options
    assert ("regroup", 0) not in d.options  # the ordering commander's activation is in progress
    g.apply(("regroup", 2))
    u, p = g.units[1], g.units[2]
    assert p.merged and not p.in_play and u.n_alive() == 7
    assert last_event(g, "Regrouped")["partner"] == 2
    d = g.decision()  # the ordered activation is used up; the commander's continues with its second action
    assert (d.kind, d.unit, g.actions_left) == ("action", 0, 1)
    assert g.dice.remaining == 0


def test_without_orders_an_already_activated_partner_may_not_regroup():
    g = ordered_pair()
    activate(g, 0)  # the commander's own activation is not an ordered one
    assert ("regroup", 2) not in g.decision().options and ("regroup", 1) in g.decision().options
    g.apply(("end",))
    g.apply(("activate", 3))
    g.apply(("end",))
    activate(g, 1)
    assert ("regroup", 2) not in g.decision().options
    assert g.dice.remaining == 0
