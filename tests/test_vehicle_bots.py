"""The ladder bots in vehicle games (agents/armour.py): they play the built-in vehicle scenarios without falling
back to default options, transports carry their squads forward and the squads dismount, tanks fire at vehicles
with their anti-armour weapons, infantry fire rockets and missiles at vehicles, hatches stay closed, and the bots'
previews of vehicle fire stay within their own side's knowledge."""
import collections

import pytest

from agents import make_agent
from agents.knowledge import HiddenInformationError, Knowledge
from dustup_env.rules import Game

pytestmark = pytest.mark.xdist_group("vehicle_bots")
LADDER = ("easy", "medium", "hard", "defensive", "scripted")


def play(names, scenario, seed):
    agents = [make_agent(n, seed=seed * 2 + s) for s, n in enumerate(names)]
    g = Game(scenario, seed=seed)
    taken = [collections.Counter(), collections.Counter()]
    moved_loaded = [0, 0]
    while not g.over:
        d = g.decision()
        opt = agents[d.side].choose(g, d)
        if d.kind == "action":
            u = g.units[d.unit]
            taken[d.side][opt[0]] += 1
            if opt[0] == "move" and u.passengers:
                moved_loaded[d.side] += 1
            if opt[0] == "fire_vehicle":
                taken[d.side]["fire_vehicle_at_vehicle"] += g.units[opt[1]].profile.vehicle is not None
        g.apply(opt)
    return g, agents, taken, moved_loaded


@pytest.mark.parametrize("scenario", ("armour", "mechs"))
@pytest.mark.parametrize("name", LADDER)
def test_every_ladder_bot_plays_the_vehicle_scenarios_without_fallbacks(name, scenario):
    g, agents, taken, _ = play((name, "random"), scenario, 3)
    assert g.over and agents[0].fallbacks == 0
    assert taken[0]["hatches"] == 0, "hatches stay closed"
    assert taken[0]["tow"] == taken[0]["push"] == taken[0]["mount"] == 0
    assert taken[0]["tank_shock"] == 0, "no rash tank shock (infantry more than double attack the vehicle)"


@pytest.mark.parametrize("name", ("medium", "hard"))
def test_transports_carry_squads_forward_and_the_squads_dismount(name):
    totals = collections.Counter()
    for seed in range(2):
        _, _, taken, moved = play((name, name), "armour", seed)
        for s in (0, 1):
            totals["moved_loaded"] += moved[s]
            totals.update(taken[s])
    assert totals["moved_loaded"] >= 4 and totals["dismount"] >= 4
    assert totals["fire_vehicle_at_vehicle"] > 0 and totals["fire_guided"] > 0


def test_infantry_fire_rockets_at_vehicles():
    totals = collections.Counter()
    for seed in range(4):
        _, _, taken, _ = play(("hard", "hard"), "armour", seed)
        totals.update(taken[0] + taken[1])
    assert totals["fire_iavr"] > 0


def test_hard_beats_random_on_armour():
    wins = 0
    for seed in range(4):
        names = ("hard", "random") if seed % 2 == 0 else ("random", "hard")
        g, _, _, _ = play(names, "armour", seed)
        hard_side = names.index("hard")
        wins += g.result()["winner"] == hard_side
    assert wins >= 3


def test_the_vehicle_fire_preview_is_limited_to_the_sides_knowledge():
    g = Game("armour", seed=0)
    k = Knowledge(g, 0)
    tank = next(u for u in k.own_units if u.name == "Tank 1")
    enemy = next(u for u in g.units if u.side == 1 and u.name == "Tank 1")
    plan = k.vehicle_fire_plan(tank.uid, enemy.uid, 0)
    assert plan is None or plan["vehicle"]
    with pytest.raises(HiddenInformationError):
        k.vehicle_fire_plan(enemy.uid, tank.uid, 0)


@pytest.mark.parametrize("name", ("easy", "medium", "hard"))
def test_a_dismantled_missile_team_sets_up_its_weapon_first(name):
    from dustup_env.rules.kernel.data import load_scenario
    doc = load_scenario("armour")
    for side in doc["sides"]:
        next(u for u in side["units"] if u["name"] == "Missile team")["weapon_ready"] = False
    agent = make_agent(name, seed=0)
    g = Game(doc, seed=3)
    while not g.over:
        d = g.decision()
        opt = agent.choose(g, d) if d.side == 0 else d.options[0]
        if d.side == 0 and d.kind == "action" and g.units[d.unit].name == "Missile team":
            assert opt == ("reorganise", "set_up")
            return
        g.apply(opt)
    raise AssertionError("the missile team never acted")
