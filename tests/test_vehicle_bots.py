"""The ladder bots in vehicle games (agents/armour.py): they play the built-in vehicle scenarios without falling
back to default options, transports carry their squads forward and the squads dismount, tanks fire at vehicles
with their anti-armour weapons, infantry fire rockets and missiles at vehicles, hatches stay closed, and the bots'
previews of vehicle fire stay within their own side's knowledge."""
import collections
import math

import pytest

from agents import make_agent
from agents.armour import shock_odds
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
            if opt[0] == "move" and u.veh.passengers:
                moved_loaded[d.side] += 1
            if opt[0] == "fire_vehicle":
                taken[d.side]["fire_vehicle_at_vehicle"] += g.units[opt[1]].profile.vehicle is not None
            if opt[0] == "tank_shock":  # the odds the bot took: P(the infantry withdraw)
                a_die, d_die = Knowledge(g, d.side).courage_dice(d.unit, opt[1])
                if shock_odds(a_die, d_die)[0] < 0.6:
                    taken[d.side]["rash_tank_shock"] += 1
        g.apply(opt)
    return g, agents, taken, moved_loaded


@pytest.mark.parametrize("scenario", ("armour", "mechs"))
@pytest.mark.parametrize("name", LADDER)
def test_every_ladder_bot_plays_the_vehicle_scenarios_without_fallbacks(name, scenario):
    g, agents, taken, _ = play((name, "random"), scenario, 3)
    assert g.over and agents[0].fallbacks == 0
    assert taken[0]["hatches"] == 0, "hatches stay closed"
    assert taken[0]["tow"] == taken[0]["push"] == taken[0]["mount"] == 0
    assert taken[0]["rash_tank_shock"] == 0, "no rash tank shock (the infantry likely to stand)"
    if name != "hard":
        assert taken[0]["tank_shock"] == 0, "only hard tank-shocks"


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


# --- the doctrine, behaviour by behaviour, on small tables ---------------------------------------------------
def small_game(blue, red, *, terrain=(), objectives=None, turn_limit=6):
    """A small vehicle game on forced-initiative dice-free setup: Blue (side 0) activates first."""
    from conftest import scenario
    objs = objectives if objectives is not None else [{"name": "Hill", "position": [24, 30], "vp": 1}]
    g = Game(scenario(blue, red, terrain=terrain, objectives=objs, turn_limit=turn_limit), seed=1)
    while g.decision().kind == "initiative" or g.decision().side != 0:
        d = g.decision()
        g.apply(("first",) if d.kind == "initiative" and d.side == 0 and ("first",) in d.options
                else ("second",) if d.kind == "initiative" and ("second",) in d.options else d.options[0])
    return g


def decide_for(g, uid, name):
    """The bot ``name``'s choice of action for unit ``uid`` (activated first)."""
    agent = make_agent(name, seed=0)
    g.apply(("activate", uid))
    d = g.decision()
    assert d.kind == "action" and d.unit == uid
    return agent.choose(g, d), d, agent


def squad(name, pos, **kw):
    from conftest import unit
    return unit(name, pos, figures=(("assault_rifle", 4), ("lmg", 1), ("light_iavr", 1)), **kw)


def test_a_mounted_squad_dismounts_into_cover_away_from_the_enemy():
    from conftest import rect
    from vehicle_helpers import vehicle
    wood = rect("light_woods", 16, 24, 22, 32)
    blue = [vehicle("APC", (24, 27), "apc_wheeled", facing=0), squad("S", (24, 27), carried_by="APC")]
    red = [squad("E", (30, 44))]
    for name in ("medium", "hard", "defensive"):
        g = small_game(blue, red, terrain=[wood])
        opt, d, _ = decide_for(g, 1, name)
        assert opt[0] == "dismount", (name, opt)
        g.apply(opt)
        s = g.units[1]
        assert s.veh.carrier < 0 and g.bf.in_cover(s.x, s.y), (name, s.x, s.y)


def test_a_loaded_transport_carries_its_squad_towards_the_objective():
    from vehicle_helpers import vehicle
    blue = [vehicle("APC", (24, 4), "apc_wheeled", facing=0), squad("S", (24, 4), carried_by="APC")]
    red = [squad("E", (40, 46))]
    for name in ("easy", "medium", "hard", "defensive"):
        g = small_game(blue, red)
        opt, d, _ = decide_for(g, 0, name)
        assert opt[0] == "move", (name, opt)
        y0 = g.units[0].y
        g.apply(opt)
        assert g.units[0].y > y0 + 2.0 and g.units[1].veh.carrier == 0, name


def test_a_tank_fires_its_anti_armour_gun_at_the_enemy_vehicle_not_the_infantry():
    from vehicle_helpers import vehicle
    blue = [vehicle("T", (24, 10), "main_battle_tank", facing=0)]
    red = [vehicle("R", (30, 34), "light_tank", facing=180), squad("E", (20, 30))]
    for name in ("medium", "hard"):
        g = small_game(blue, red)
        opt, d, _ = decide_for(g, 0, name)
        assert opt[0] in ("fire_vehicle", "fire_guided") and opt[1] == 1, (name, opt, d.options)


@pytest.mark.parametrize("name", ("medium", "hard", "defensive"))
def test_infantry_fire_their_rocket_at_a_vehicle_and_keep_it_from_infantry(name):
    from vehicle_helpers import vehicle
    g = small_game([squad("S", (24, 10))], [vehicle("R", (24, 26), "apc_wheeled", facing=180)])
    opt, d, _ = decide_for(g, 0, name)
    assert opt == ("fire_iavr", 1), (opt, d.options)
    g = small_game([squad("S", (24, 10))], [squad("E", (24, 26))])
    opt, d, _ = decide_for(g, 0, name)
    assert opt[0] != "fire_iavr"


@pytest.mark.parametrize("name", ("medium", "hard"))
def test_a_missile_team_fires_its_missile_at_a_tank(name):
    from conftest import unit
    from vehicle_helpers import vehicle
    team = unit("M", (24, 6), figures=(("assault_rifle", 2),), kind="specialist", heavy_weapon="missile_team")
    g = small_game([team], [vehicle("R", (26, 36), "main_battle_tank", facing=180), squad("E", (20, 30))])
    opt, d, _ = decide_for(g, 0, name)
    assert opt[0] == "fire_guided" and opt[1] == 1, (opt, d.options)


def shock_table(**squad_kw):
    from vehicle_helpers import vehicle
    blue = [vehicle("T", (24, 14), "main_battle_tank", facing=0)]
    red = [squad("E", (24, 30), **squad_kw)]
    return blue, red


@pytest.mark.parametrize("name", ("hard",))
def test_a_tank_shocks_shaken_infantry_on_an_objective(name):
    from conftest import unit
    from vehicle_helpers import vehicle
    blue = [vehicle("T", (24, 14), "main_battle_tank", facing=0)]
    red = [unit("E", (24, 30), figures=(("assault_rifle", 4),), confidence="shaken")]
    g = small_game(blue, red)
    opt, d, agent = decide_for(g, 0, name)
    assert ("tank_shock", 1) in d.options and opt == ("tank_shock", 1), (opt, d.options)


@pytest.mark.parametrize("name", ("easy", "medium", "hard", "defensive"))
def test_no_tank_shock_when_it_does_not_pay(name):
    """Confident infantry with an anti-armour rocket, off the objective: the shock would put the tank's rear to
    their rocket for a small gain (and only hard tank-shocks at all)."""
    from conftest import unit
    from vehicle_helpers import vehicle
    blue = [vehicle("T", (24, 14), "main_battle_tank", facing=0)]
    red = [unit("E", (14, 26), figures=(("assault_rifle", 4), ("hedp_rocket", 1)), confidence="confident")]
    g = small_game(blue, red)
    opt, d, _ = decide_for(g, 0, name)
    assert ("tank_shock", 1) in d.options and opt[0] != "tank_shock", opt


def assault_table(design, facing, **squad_kw):
    from conftest import unit
    from vehicle_helpers import vehicle
    blue = [unit("S", (24, 10), figures=(("assault_rifle", 4),), grenades=True, specialist_grenade="at_grenade",
                 **squad_kw)]
    red = [vehicle("V", (24, 14), design, facing=facing)]
    return blue, red


@pytest.mark.parametrize("name", ("medium", "hard", "defensive"))
def test_infantry_close_assault_a_vehicle_when_it_pays(name):
    """Anti-tank grenades against a suppressed, shaken supply truck's rear: the assault pays."""
    blue, red = assault_table("supply_truck", 0)
    g = small_game(blue, red)
    v = g.units[1]
    v.suppression, v.confidence = 2, 2
    opt, d, _ = decide_for(g, 0, name)
    assert opt == ("assault_vehicle", 1), (opt, d.options)


@pytest.mark.parametrize("name", ("easy", "medium", "hard", "defensive"))
def test_no_close_assault_on_a_tanks_front(name):
    blue, red = assault_table("main_battle_tank", 180)
    g = small_game(blue, red)
    opt, d, _ = decide_for(g, 0, name)
    assert ("assault_vehicle", 1) in d.options and opt[0] != "assault_vehicle", opt


def test_the_tank_shock_risk_of_a_position():
    """Open ground in a tank's reach is risky, cover less so, ground the tank cannot enter (a building) and ground
    out of its reach not at all; without enemy vehicles (infantry games) there is no risk."""
    from conftest import rect
    from vehicle_helpers import vehicle
    terrain = [rect("light_woods", 10, 24, 16, 30), rect("building", 30, 24, 34, 28)]
    g = small_game([squad("S", (24, 10))], [vehicle("T", (24, 34), "main_battle_tank", facing=180)],
                   terrain=terrain)
    k = Knowledge(g, 0)
    agent = make_agent("hard", seed=0)
    s = g.units[0]
    open_, wood, house = (agent._shock_risk(k, s, x, y) for x, y in ((24, 20), (13, 27), (32, 26)))
    assert open_ > wood > house == 0.0
    assert make_agent("easy", seed=0)._shock_risk(k, s, 24, 20) == 0.0
    g = small_game([squad("S", (24, 10))], [squad("E", (24, 34))])
    assert agent._shock_risk(Knowledge(g, 0), g.units[0], 24, 20) == 0.0


@pytest.mark.parametrize("name", ("hard",))
def test_infantry_advancing_in_sight_of_an_enemy_tank_go_by_ground_it_cannot_drive_on(name):
    """Infantry advancing on an objective in the sight of an enemy tank, a building beside their way: they go by the
    building (tank shock cannot reach them there), where the same bot blind to tank shock keeps to the open."""
    from conftest import rect
    from vehicle_helpers import vehicle
    house = rect("building", 19, 24, 23, 28)
    blue = [squad("S", (24, 20))]
    red = [vehicle("T", (24, 42), "main_battle_tank", facing=180)]
    ends = {}
    for aware in (True, False):
        g = small_game(blue, red, terrain=[house], objectives=[{"name": "Hill", "position": [24, 36], "vp": 1}])
        agent = make_agent(name, seed=0)
        if not aware:
            agent.AVOID_SHOCK = 0.0
        g.apply(("activate", 0))
        g.apply(agent.choose(g, g.decision()))
        s = g.units[0]
        ends[aware] = g.bf.move_cost(s.x, s.y, g.units[1].terrain_column) is None
    assert ends == {True: True, False: False}, ends


def test_defensive_vehicles_hold_hull_down_near_the_sides_objectives():
    """Defensive: a tank with nothing worth stopping for drives to a concealed position by its objective near its
    own edge, then holds there."""
    from conftest import rect
    from vehicle_helpers import vehicle
    wood = rect("light_woods", 26, 14, 32, 20)
    objs = [{"name": "Near", "position": [24, 16], "vp": 1}, {"name": "Far", "position": [24, 40], "vp": 1}]
    blue = [vehicle("T", (24, 4), "main_battle_tank", facing=0)]
    red = [vehicle("R", (4, 46), "main_battle_tank", facing=180)]
    g = small_game(blue, red, terrain=[wood, rect("dense_woods", 0, 36, 20, 44)], objectives=objs)
    agent = make_agent("defensive", seed=0)
    k = Knowledge(g, 0)
    hx, hy = agent._hold_point(k, g.units[0])
    assert g.bf.conceals(hx, hy) and math.hypot(hx - 24, hy - 16) <= 9.0
    for _ in range(40):
        if g.over:
            break
        d = g.decision()
        g.apply(agent.choose(g, d) if d.side == 0 else (("end",) if ("end",) in d.options else d.options[0]))
    t = g.units[0]
    assert math.hypot(t.x - hx, t.y - hy) <= 2.5, (t.x, t.y, hx, hy)


def test_defensive_squads_dismount_earlier_than_medium():
    firsts = {}
    for name in ("medium", "defensive"):
        turns = []
        for seed in range(2):
            agents = [make_agent(name, seed=seed), make_agent("random", seed=seed + 1)]
            g = Game("armour", seed=seed)
            first = None
            while not g.over and first is None:
                d = g.decision()
                opt = agents[d.side].choose(g, d)
                if d.side == 0 and opt[0] == "dismount":
                    first = g.turn
                g.apply(opt)
            turns.append(first if first is not None else 99)
        firsts[name] = sum(turns)
    assert firsts["defensive"] <= firsts["medium"], firsts


# --- fair play: who rides in an enemy vehicle is not seen -----------------------------------------------------
def passenger_twin(loaded: int):
    """Blue's tank facing two like enemy transports placed symmetrically; Red's squad rides in transport
    ``loaded`` (1: the west one, 2: the east one)."""
    from vehicle_helpers import vehicle
    red = [vehicle("W", (18, 30), "apc_wheeled", facing=180), vehicle("E", (30, 30), "apc_wheeled", facing=180),
           squad("S", (18, 30) if loaded == 1 else (30, 30), carried_by="W" if loaded == 1 else "E")]
    return small_game([vehicle("T", (24, 10), "main_battle_tank", facing=0)], red,
                      objectives=[{"name": "Hill", "position": [24, 24], "vp": 1}])


@pytest.mark.parametrize("name", ("easy", "medium", "hard", "defensive"))
def test_bots_do_not_know_who_rides_in_an_enemy_vehicle(name):
    """Twins that differ only in which of two like enemy transports carries Red's squad: Blue's side knows the same
    in both (its view), so its tank's choices must be the same."""
    games = [passenger_twin(1), passenger_twin(2)]
    assert games[0].view(0) == games[1].view(0)
    chosen = []
    for g in games:
        agent = make_agent(name, seed=0)
        g.apply(("activate", 0))
        picks = []
        for _ in range(2):
            d = g.decision()
            if d.kind != "action" or d.unit != 0:
                break
            opt = agent.choose(g, d)
            picks.append(opt)
            g.apply(opt)
        chosen.append(picks)
    assert chosen[0] == chosen[1]
