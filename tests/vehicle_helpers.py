"""Scenarios with vehicles for the vehicle tests (armoured_dustup)."""
from conftest import rect, scenario, unit


def vehicle(name, pos, design="main_battle_tank", **kw) -> dict:
    """A vehicle unit spec (a design of the library)."""
    spec = {"name": name, "position": [float(pos[0]), float(pos[1])], "design": design}
    spec.update(kw)
    return spec


def tank_and_squad(design="main_battle_tank", pos=(24, 10), terrain=(), obstacles=(), enemy=(5, 45), **kw):
    """A vehicle (uid 0), a friendly squad next to it (uid 1) and a far-away enemy squad (uid 2)."""
    return scenario([vehicle("V", pos, design, **kw), unit("S", (pos[0] + 3, pos[1]), figures=(("rifle", 4),))],
                    [unit("E", enemy, figures=(("rifle", 3),))], terrain=terrain, obstacles=obstacles)


def mechanised(seed_variant: int = 0) -> dict:
    """The mechanised test scenario: APCs and IFVs carrying squads, tanks, a mech, a hover, a truck, woods, a river
    with a ford, open water, and vehicle obstacles (wire, dragon's teeth)."""
    blue = [vehicle("APC 1", (10, 6), "apc_wheeled"), vehicle("IFV 1", (24, 6), "ifv_tracked"),
            vehicle("Tank 1", (36, 6), "main_battle_tank", facing=0),
            unit("Squad 1", (10, 3), figures=(("rifle", 5),), grenades=True, carried_by="APC 1"),
            unit("Squad 2", (24, 3), figures=(("rifle", 4),)), vehicle("Truck", (42, 3), "supply_truck")]
    red = [vehicle("Mech", (12, 42), "infantry_walker", facing=180), vehicle("Hover", (30, 44), "scout_hover",
                                                                             facing=180),
           vehicle("Light tank", (40, 42), "light_tank", facing=180, quality="d6"),
           unit("Red squad", (20, 44), figures=(("rifle", 5),)), unit("Red team", (34, 40), figures=(("rifle", 3),))]
    terrain = [rect("light_woods", 2, 18, 12, 26), rect("dense_woods", 36, 18, 46, 26), rect("river", 0, 28, 48, 30),
               rect("ford", 20, 28, 26, 30), rect("open_water", 14, 32, 18, 38), rect("rough", 26, 12, 32, 16)]
    obstacles = [{"type": "wire", "line": [[14, 14], [22, 14]], "cost": 1},
                 {"type": "dragons_teeth", "line": [[30, 20], [34, 20]], "cost": 2}]
    return scenario(blue, red, terrain=terrain, obstacles=obstacles, name="mechanised test")
