"""Turn Sequence, Passing, Unit Activation, suppression restrictions, Recover Suppression, Reorganise, game end."""
import pytest

from conftest import SIDE0_WINS, activate, add_dice, begin, events_of, kinds, last_event, new_game, rect, scenario, unit
from dustup_env.rules import GameOverError, IllegalOptionError
from dustup_env.rules.kernel.entities import KILLED, WOUNDED

ONE = (("rifle", 1),)


def units(side, n, y):
    return [unit(f"{'BR'[side]}{i}", (6 + 8 * i, y), figures=ONE) for i in range(n)]


def sides(n0, n1, **kw):
    return scenario(units(0, n0, 4), units(1, n1, 44), **kw)


def activate_and_end(g, uid):
    g.apply(("activate", uid))
    g.apply(("end",))


# --- initiative --------------------------------------------------------------------------------------------
def test_initiative_d8_ties_are_rerolled_and_the_winner_chooses():
    g = new_game(sides(1, 1), [("d8", 4), ("d8", 4), ("d8", 6), ("d8", 6), ("d8", 2), ("d8", 7)])
    r = last_event(g, "InitiativeRolled")
    assert (r["rolls"], r["winner"]) == ([2, 7], 1)
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "initiative", (("first",), ("second",)))
    g.apply(("second",))
    c = last_event(g, "InitiativeChosen")
    assert (c["side"], c["first"]) == (1, 0)
    assert g.decision().side == 0 and g.decision().kind == "activate"
    assert g.dice.remaining == 0


def test_initiative_winner_going_first():
    g = new_game(sides(1, 1), [("d8", 8), ("d8", 3)])
    assert g.decision().side == 0
    g.apply(("first",))
    assert g.decision().side == 0 and g.decision().kind == "activate"


def test_initiative_choice_is_the_winners_only():
    g = new_game(sides(1, 1), [("d8", 1), ("d8", 3)])
    with pytest.raises(IllegalOptionError):
        g.apply(("activate", 0))
    assert g.decision().side == 1


# --- activation and alternation ---------------------------------------------------------------------------------
def test_activation_is_two_actions_then_alternates():
    g = begin(sides(2, 2), [("d6", 1), ("d6", 1)])
    d = g.decision()
    assert (d.side, d.kind, d.options) == (0, "activate", (("activate", 0), ("activate", 1)))
    g.apply(("activate", 1))
    assert g.units[1].activated is True
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (0, "action", 1)
    g.apply(("move", 0, 0))
    assert g.decision().unit == 1  # second action
    g.apply(("move", 0, 0))
    assert last_event(g, "ActivationEnded")["unit"] == 1
    d = g.decision()
    assert (d.side, d.kind, d.options) == (1, "activate", (("activate", 2), ("activate", 3)))
    assert g.dice.remaining == 0


def test_end_forgoes_the_remaining_action():
    g = begin(sides(1, 1))
    g.apply(("activate", 0))
    g.apply(("end",))
    assert last_event(g, "ActionForgone")["unit"] == 0
    assert g.decision().side == 1


def test_activated_units_cannot_activate_again_this_turn():
    g = begin(sides(2, 2))
    activate_and_end(g, 0)
    activate_and_end(g, 2)
    assert g.decision().options == (("activate", 1),)


def test_side_with_more_units_finishes_the_turn():
    g = begin(sides(3, 1))
    order = []
    while g.turn == 1:
        d = g.decision()
        if d.kind == "activate":
            order.append(d.side)
            opt = [o for o in d.options if o[0] == "activate"][0]
            if g.turn == 1 and len(order) == 4:
                add_dice(g, ("d8", 8), ("d8", 1))  # the next turn's initiative
            g.apply(opt)
            g.apply(("end",))
        else:
            break
    assert order == [0, 1, 0, 0]
    assert g.turn == 2


# --- passing -----------------------------------------------------------------------------------------------------
def test_pass_only_with_fewer_unactivated_units():
    g = begin(sides(1, 3))
    d = g.decision()
    assert d.options == (("activate", 0), ("pass",))
    g.apply(("pass",))
    assert last_event(g, "Passed")["side"] == 0
    d = g.decision()
    assert d.side == 1 and ("pass",) not in d.options
    activate_and_end(g, 1)
    d = g.decision()  # 1 vs 2: may pass again
    assert d.side == 0 and ("pass",) in d.options
    g.apply(("pass",))
    activate_and_end(g, 2)
    d = g.decision()  # 1 vs 1: no more passing
    assert d.side == 0 and d.options == (("activate", 0),)
    with pytest.raises(IllegalOptionError):
        g.apply(("pass",))
    activate_and_end(g, 0)
    d = g.decision()  # 0 vs 1: the side with more units may not pass either
    assert d.side == 1 and d.options == (("activate", 3),)


def test_equal_sides_never_pass():
    g = begin(sides(2, 2))
    assert ("pass",) not in g.decision().options


# --- end of turn ---------------------------------------------------------------------------------------------------
def test_activation_markers_removed_at_end_of_turn_other_markers_stay():
    g = begin(sides(1, 1))
    g.units[1].suppression = 2
    g.units[1].propped = True
    activate_and_end(g, 0)
    add_dice(g, ("d8", 2), ("d8", 5))
    g.apply(("activate", 1))
    g.apply(("end",))
    log = [e["type"] for e in g.event_log()]
    assert log[-4:] == ["ActivationEnded", "TurnEnded", "TurnStarted", "InitiativeRolled"]
    assert g.turn == 2
    assert [u.activated for u in g.units] == [False, False]
    assert g.units[1].suppression == 2 and g.units[1].propped is True
    assert g.decision().side == 1 and g.decision().kind == "initiative"


def test_turn_limit_ends_the_game_with_victory_points():
    obj = [{"name": "Hill", "position": [6, 6.5], "vp": 2}, {"name": "Far", "position": [40, 24], "vp": 5}]
    g = begin(sides(1, 1, turn_limit=1, objectives=obj))
    activate_and_end(g, 0)
    activate_and_end(g, 1)
    assert g.over is True
    e = last_event(g, "GameEnded")
    assert (e["reason"], e["vp"], e["winner"]) == ("turn limit", [2, 0], 0)  # only side 0 within 3" of Hill
    assert g.result() == {"winner": 0, "vp": [2, 0], "reason": "turn limit", "turns": 1, "decisions": 5}
    with pytest.raises(GameOverError):
        g.decision()
    with pytest.raises(GameOverError):
        g.apply(("first",))
    assert g.dice.remaining == 0


def test_contested_objective_scores_nothing_and_draw():
    obj = [{"name": "Mid", "position": [6, 24], "vp": 3}]
    scn = scenario([unit("B", (6, 22), figures=ONE)], [unit("R", (6, 26), figures=ONE)], turn_limit=1,
                   objectives=obj)
    g = begin(scn)
    activate_and_end(g, 0)
    activate_and_end(g, 1)
    assert (g.vp, g.winner) == ((0, 0), -1)


def test_game_runs_to_the_turn_limit():
    g = begin(sides(1, 1, turn_limit=3))
    for turn in (1, 2, 3):
        assert g.turn == turn
        if turn > 1:
            g.apply(("first",))
        activate_and_end(g, 0)
        if turn < 3:
            add_dice(g, ("d8", 8), ("d8", 1))
        activate_and_end(g, 1)
    assert g.over and g.turn == 3
    assert [e["turn"] for e in events_of(g, "TurnStarted")] == [1, 2, 3]


def test_eliminating_the_enemy_ends_the_game():
    scn = scenario([unit("B", (24, 10), figures=(("hmg", 1), ("rifle", 4)))],
                   [unit("R", (24, 30), figures=ONE, armour="none"), ], turn_limit=6)
    g = begin(scn, [("d10", 1), ("d8", 8), ("d4", 4), ("d10", 8),  # small target: D10; 20 / 10 = 2 hits
                    ("d8", 8), ("d4", 1),  # first hit kills (8 > 2 x 1); the single figure: no allocation roll
                    ("d8", 1), ("d4", 1)])  # second hit on the dead figure
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.over is True
    e = last_event(g, "GameEnded")
    assert (e["reason"], e["winner"], e["vp"]) == ("enemy destroyed or routed", 0, [1, 0])
    assert g.units[1].in_play is False
    assert events_of(g, "ConfidenceTested") == []  # a destroyed unit takes no test
    assert g.dice.remaining == 0
    with pytest.raises(GameOverError):
        g.decision()


def test_a_side_whose_only_unit_is_wounded_is_out_of_the_fight():
    scn = scenario([unit("B", (24, 10), figures=(("rifle", 4),))],
                   [unit("R", (24, 30), figures=ONE, armour="none"), unit("S", (40, 40), figures=ONE)])
    g = begin(scn, [("d10", 1), ("d8", 8), ("d4", 2),  # 10 / 10: 1 hit on the single figure
                    ("d8", 2), ("d4", 1)])  # no armour: wounded (not killed)
    g.units[2].set_figure(0, status=KILLED)  # the other unit is already wiped out
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.over is True and g.winner == 0
    assert g.units[1].destroyed is True and g.units[1].figures[0].status == WOUNDED


# --- suppression restrictions and recovery -------------------------------------------------------------------------
def suppressed_game(terrain=(), propped=False, markers=1, dice=()):
    scn = scenario([unit("S", (24, 10))], [unit("E", (24, 30))], terrain=terrain)
    g = begin(scn, dice)
    g.units[0].suppression = markers
    g.units[0].propped = propped
    activate(g, 0)
    return g


def test_suppressed_unit_in_the_open_may_not_move_shoot_or_reorganise():
    g = suppressed_game()
    assert g.decision().options == (("end",), ("recover",), ("prop",))


def test_suppressed_propped_unit_may_not_unprop():
    g = suppressed_game(propped=True)
    assert g.decision().options == (("end",), ("recover",))


def test_suppressed_unit_in_cover_may_reorganise():
    g = suppressed_game(terrain=[rect("light_scrub", 18, 4, 30, 16)])
    opts = g.decision().options
    assert ("reorganise", "conceal") in opts
    assert kinds(opts) == {"end", "recover", "prop", "reorganise"}


def test_unsuppressed_unit_options():
    scn = scenario([unit("S", (24, 10))], [unit("E", (24, 30))])
    g = begin(scn)
    activate(g, 0)
    # issue 3 adds the assault (20" <= 2 x 12"), detach (a squad of five) and the travel column (a reorganise action)
    assert kinds(g.decision().options) == {"end", "move", "prop", "shoot", "assault", "detach", "reorganise"}


@pytest.mark.parametrize("roll,removed", [(3, True), (8, True), (2, False), (1, False)])
def test_recover_roll_must_exceed_leadership(roll, removed):
    g = suppressed_game(markers=2, dice=[("d8", roll)])
    g.apply(("recover",))
    e = last_event(g, "SuppressionRecovered")
    assert (e["roll"], e["needed"], e["removed"], e["markers"]) == (roll, 2, removed, 1 if removed else 2)
    assert g.units[0].suppression == (1 if removed else 2)


def test_each_marker_removed_separately_then_the_unit_may_act():
    g = suppressed_game(markers=1, dice=[("d8", 5)])
    g.apply(("recover",))
    assert g.units[0].suppression == 0
    opts = g.decision().options
    assert ("recover",) not in opts and "shoot" in kinds(opts) and "move" in kinds(opts)
    g2 = suppressed_game(markers=3, dice=[("d8", 5), ("d8", 5)])
    g2.apply(("recover",))
    g2.apply(("recover",))
    assert g2.units[0].suppression == 1
    assert g2.decision().side == 1  # two actions used


def test_recover_uses_quality_die_and_leadership():
    scn = scenario([unit("S", (24, 10), quality="d10", leadership=3)], [unit("E", (24, 30))])
    g = begin(scn, [("d10", 4)])
    g.units[0].suppression = 1
    activate(g, 0)
    g.apply(("recover",))
    e = last_event(g, "SuppressionRecovered")
    assert (e["roll"], e["needed"], e["removed"]) == (4, 3, True)


# --- reorganise ----------------------------------------------------------------------------------------------
def test_reorganise_conceal_and_reveal_are_actions():
    g = begin(scenario([unit("S", (24, 10))], [unit("E", (24, 30))],
                       terrain=[rect("light_scrub", 18, 4, 30, 16)]))
    activate(g, 0)
    g.apply(("reorganise", "conceal"))
    assert g.units[0].complete_concealment is True
    g.apply(("reorganise", "reveal"))
    assert g.units[0].complete_concealment is False
    assert [e["complete"] for e in events_of(g, "ConcealmentChanged")] == [True, False]
    assert g.decision().side == 1


def test_initial_state_digest_is_stable_for_the_same_script():
    a = begin(sides(2, 2))
    b = new_game(sides(2, 2), SIDE0_WINS)
    b.apply(("first",))
    assert a.state_digest() == b.state_digest()


# --- victory: routed units (RN-032) --------------------------------------------------------------------------------
def test_an_enemy_unit_routed_off_the_table_scores_one_vp():
    # R is routed 1" from its home (north) edge: its only option is to withdraw, d6=2 -> 4" takes it off
    scn = scenario([unit("B", (6, 4), figures=ONE)],
                   [unit("R", (24, 47), figures=ONE, confidence="routed"), unit("S", (40, 44), figures=ONE)],
                   turn_limit=1)
    g = begin(scn, [("d6", 2)])
    activate_and_end(g, 0)
    activate(g, 1)
    assert g.decision().options == (("withdraw",),)
    g.apply(("withdraw",))
    r = g.units[1]
    assert r.routed_off and not r.in_play and last_event(g, "RoutedOff")["unit"] == 1
    assert not g.over  # S still fights
    assert g.victory_points() == (1, 0)
    activate_and_end(g, 2)
    e = last_event(g, "GameEnded")
    assert (e["reason"], e["vp"], e["winner"]) == ("turn limit", [1, 0], 0)
    assert g.dice.remaining == 0


def test_a_routed_unit_still_on_the_table_scores_nothing():
    scn = scenario([unit("B", (6, 4), figures=ONE)],
                   [unit("R", (24, 30), figures=ONE, confidence="routed"), unit("S", (40, 44), figures=ONE)],
                   turn_limit=1)
    g = begin(scn)
    assert g.units[1].in_play and g.victory_points() == (0, 0)


def test_a_side_whose_remaining_units_are_all_routed_loses_at_once():
    # Red: R already routed (in play, on the table), S a lone figure that B's shot kills (as in
    # test_eliminating_the_enemy_ends_the_game): Red's only remaining unit is routed, so the game ends at once
    scn = scenario([unit("B", (24, 10), figures=(("hmg", 1), ("rifle", 4)))],
                   [unit("S", (24, 30), figures=ONE, armour="none"),
                    unit("R", (6, 40), figures=ONE, confidence="routed")], turn_limit=6)
    g = begin(scn, [("d10", 1), ("d8", 8), ("d4", 4), ("d10", 8), ("d8", 8), ("d4", 1), ("d8", 1), ("d4", 1)])
    activate(g, 0)
    g.apply(("shoot", 1, "all"))
    assert g.units[2].in_play and not g.units[2].routed_off  # R is still on the table
    assert g.over and g.turn == 1
    e = last_event(g, "GameEnded")
    assert (e["reason"], e["vp"]) == ("enemy destroyed or routed", [1, 0])  # S destroyed; R not off the table
    assert g.winner == 0 and e["winner"] == 0
    assert g.dice.remaining == 0


def test_routing_the_last_fighting_unit_ends_the_game_at_the_end_of_the_activation():
    scn = scenario([unit("B", (6, 4), figures=ONE)],
                   [unit("R", (24, 30), figures=ONE, confidence="routed"), unit("S", (40, 44), figures=ONE)])
    g = begin(scn)
    activate(g, 0)
    from dustup_env.rules.kernel.entities import ROUTED
    g.units[2].confidence = ROUTED  # e.g. routed by this activation's fire
    g.apply(("end",))
    e = last_event(g, "GameEnded")
    assert g.over and e["reason"] == "enemy destroyed or routed" and g.winner == 0
    assert g.dice.remaining == 0


def test_game_ended_event_names_the_decisive_winner_even_on_equal_vp():
    scn = scenario([unit("B", (6, 4), figures=ONE)],
                   [unit("R", (24, 30), figures=ONE, confidence="routed"), unit("S", (40, 44), figures=ONE)])
    g = begin(scn)
    activate(g, 0)
    from dustup_env.rules.kernel.entities import ROUTED
    g.units[2].confidence = ROUTED
    g.apply(("end",))
    assert last_event(g, "GameEnded")["winner"] == g.winner == 0
