"""Scenarios with aircraft for the aerospace tests (aerospace_operations)."""
from conftest import scenario, unit


def aircraft(name, pos, design="vtol_transport", air="airborne", **kw) -> dict:
    """An aircraft unit spec: a design with air-vehicle mobility and where it starts (``air``)."""
    spec = {"name": name, "position": [float(pos[0]), float(pos[1])], "design": design, "air": air}
    spec.update(kw)
    return spec


def aa_team(name, pos, **kw) -> dict:
    """An air-defence missile team (seed 002 LAD: guidance D8, firepower D8, impact D12x2, range 48")."""
    return unit(name, pos, figures=(("rifle", 2),), kind="specialist", heavy_weapon="lad_team", **kw)


def air_scenario(blue_air=(), red=(), *, blue=(), passengers=False, ade=("d6", "d8"), terrain=(), **kw) -> dict:
    """Blue (side 0, south): an HQ (uid 0) far back, then ``blue_air`` aircraft, a squad aboard the first aircraft
    if ``passengers``, then ``blue``; Red (side 1, north): ``red``."""
    units = [unit("HQ", (2, 2), figures=(("rifle", 3),))]
    units += list(blue_air)
    if passengers:
        units.append(unit("Squad", tuple(blue_air[0]["position"]), figures=(("rifle", 5),), carried_by=blue_air[0]["name"],
                          armour="partial_light"))
    units += list(blue)
    red = list(red) or [unit("Red HQ", (46, 46), figures=(("rifle", 3),))]
    doc = scenario(units, red, terrain=terrain, **kw)
    doc["sides"][0]["ade"], doc["sides"][1]["ade"] = ade
    return doc
