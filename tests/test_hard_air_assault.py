"""``hard``'s additions where aircraft fly (agents/hard.py, agents/aerospace.py): an objective whose known holder no
line of sight from outside reaches gets no squad when the side has no fire support to break the holder; an
anti-aircraft team is not the unit promoted when the HQ loses its commander; with the (measured, off) ``AIR_HOME``
switch its aircraft without passengers stay off the table for the last turn; ``medium`` keeps its doctrine."""
from __future__ import annotations

from agents import make_agent
from agents.knowledge import Knowledge
from dustup_env.rules import Game
from dustup_env.rules.kernel.decisions import Decision

STRIKE, AA, WEST_WOOD = 5, 10, 1  # air-assault: Blue's strike fighter, Red's anti-aircraft team, the objective index


def test_no_squad_is_assigned_the_objective_held_deep_in_a_wood_without_fire_support():
    g = Game("air-assault", seed=1)
    k = Knowledge(g, 0)
    hard = make_agent("hard", seed=0)
    _, ox, oy, _ = k.objectives[WEST_WOOD]
    assert hard._hidden_holder(k, ox, oy)  # Red's squad 5" inside the dense wood: seen from nowhere outside
    assert not any(hard._hidden_holder(k, x, y) for j, (_, x, y, _) in enumerate(k.objectives) if j != WEST_WOOD)
    hard._setup(k)
    assert hard._assign and WEST_WOOD not in hard._assign.values()
    off = type("HardAll", (type(hard),), {"SKIP_HIDDEN": False})(seed=0)
    off._setup(k)
    assert WEST_WOOD in off._assign.values()  # every objective gets a squad before any gets a second one


def test_with_the_air_home_switch_an_aircraft_without_passengers_stays_off_the_table_for_the_last_turn():
    # (off in the ladder: measured losing against hard without it; docs/agents.md)
    g = Game("air-assault", seed=1)
    g.turn = g.turn_limit
    k = Knowledge(g, 0)
    d = Decision(0, "activate", -1, (("air_arrive", STRIKE, "table"), ("air_arrive", STRIKE, "hold")))
    home = type("HardHome", (type(make_agent("hard")),), {"AIR_HOME": 1})(seed=0)
    assert home._air_activate(k, d) == ("air_arrive", STRIKE, "hold")
    assert make_agent("hard", seed=0)._air_activate(k, d) == ("air_arrive", STRIKE, "table")
    assert make_agent("medium", seed=0)._air_activate(k, d) == ("air_arrive", STRIKE, "table")
    g.turn = g.turn_limit - 1
    assert not home._air_home(Knowledge(g, 0), g.units[STRIKE])


def test_the_anti_aircraft_team_is_not_promoted_to_command():
    g = Game("air-assault", seed=1)
    d = Decision(1, "promote", 7, (("choose", 8), ("choose", AA), ("decline",)))
    o = make_agent("hard", seed=0).choose(g, d)
    assert o != ("choose", AA) and o[0] == "choose"


def test_in_the_last_turn_no_unit_is_sent_to_the_objective_held_deep_in_a_wood():
    g = Game("air-assault", seed=1)
    g.turn = g.turn_limit
    team = g.units[6]  # Blue's fire team, 9" from the West wood objective and out of reach of the others
    team.x, team.y = 6.0, 22.0
    g.invalidate()
    k = Knowledge(g, 0)
    hard = make_agent("hard", seed=0)
    assert hard._endgame_goal(k, team) is None
    off = type("HardAll", (type(hard),), {"SKIP_HIDDEN": False})(seed=0)
    _, ox, oy, _ = k.objectives[WEST_WOOD]
    assert off._endgame_goal(k, team) == (ox, oy)


BLOCKHOUSE = 0  # breach: the objective inside the blockhouse


def test_an_objective_held_out_of_sight_that_the_contest_can_reach_still_gets_squads():
    # breach: Red's squad deep in the blockhouse is seen from nowhere outside, but open ground lies within 3" of the
    # objective 2" from its figures (outside the walls): a leader reorganised there contests it (agents/contest.py)
    g = Game("breach", seed=1)
    k = Knowledge(g, 0)
    hard = make_agent("hard", seed=0)
    _, ox, oy, _ = k.objectives[BLOCKHOUSE]
    assert hard._hidden_holder(k, ox, oy) and hard._contest_room(k, ox, oy)
    hard._setup(k)
    assert BLOCKHOUSE in hard._assign.values()
    old = type("HardSkipAll", (type(hard),), {"SKIP_CONTESTABLE": False})(seed=0)
    old._setup(k)
    assert old._assign and BLOCKHOUSE not in old._assign.values()
    nc = type("HardNoContest", (type(hard),), {"CONTEST": False})(seed=0)
    nc._setup(k)
    assert nc._assign and BLOCKHOUSE not in nc._assign.values()  # no contest: nothing could take it


def test_the_contest_room_is_open_ground_two_inches_from_every_enemy_figure():
    g = Game("breach", seed=1)
    hard = make_agent("hard", seed=0)
    _, ox, oy, _ = g.objectives[BLOCKHOUSE]
    e = next(u for u in g.units if u.side == 1 and abs(u.x - ox) + abs(u.y - oy) < 3.0)
    # the open ground within 3" of the objective: just outside the two long walls, within 1.5" of its middle
    spots = [(ox + dx, oy + dy) for dy in (-2.5, 2.5) for dx in (-1.0, 1.0)]  # a figure at each wall's middle
    others = [j for j in range(len(e.figures)) if j != e.leader]
    for j, (ax, ay) in zip(others, spots):
        e.set_figure(j, dx=e.figures[e.leader].dx + ax - e.x, dy=e.figures[e.leader].dy + ay - e.y)
    g.invalidate()
    k = Knowledge(g, 0)
    assert hard._hidden_holder(k, ox, oy)
    assert not hard._contest_room(k, ox, oy)  # no open ground within 3" of it 2" from the figures
    assert hard._out_of_reach(k, ox, oy)
