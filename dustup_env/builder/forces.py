"""The battle builder's forces: unit types from the data (weapons.json, the design library) and a force chosen to a
points budget (seed 001 Battle Builder, steps 1-2; docs/builder.md, "Forces")."""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from ..rules.kernel.limits import MAX_UNITS_PER_SIDE
from .points import QUALITIES, unit_points  # noqa: F401 - unit_points: the price of one unit


@dataclass(frozen=True)
class UnitType:
    key: str
    label: str  # the unit's name in the scenario, numbered
    needs: str  # "" or the --with option that allows it
    weight: int  # how often a seeded choice picks it among those that fit (invented)
    spec: dict  # the unit's document less name, position and quality
    passenger: str = ""  # a transport: the unit type it carries (priced and fielded together)


def _inf(kind, figures, armour="partial_light", grenades=True, **kw):
    return {"kind": kind, "armour": armour, "grenades": grenades,
            "figures": [{"weapon": w, "count": n} for w, n in figures], **kw}


HQ = UnitType("hq", "Platoon HQ", "", 0, _inf("hq", [("pistol", 1), ("assault_rifle", 2)], leadership=1))
UNIT_TYPES = (
    UnitType("rifle_squad", "Squad", "", 6, _inf("squad", [("assault_rifle", 7), ("lmg", 1)])),
    UnitType("section", "Section", "", 3, _inf("squad", [("assault_rifle", 5), ("lmg", 1)])),
    UnitType("rifles", "Rifles", "", 2, _inf("squad", [("rifle", 6)], armour="basic_battledress", grenades=False)),
    UnitType("assault_squad", "Assault squad", "", 2, _inf("squad", [("shotgun", 5), ("assault_rifle", 1)])),
    UnitType("grenadiers", "Grenadiers", "", 2, _inf("squad", [("assault_rifle", 5), ("rifle_grenade", 1)])),
    UnitType("gun_team", "Gun team", "", 2, _inf("specialist", [("assault_rifle", 2), ("hmg", 1)])),
    UnitType("snipers", "Snipers", "", 1, _inf("specialist", [("rifle", 2)], grenades=False, sensor="aided")),
    UnitType("power_squad", "Power squad", "power_armour", 3,
             _inf("squad", [("assault_rifle", 4), ("plasma_rifle", 1)], armour="light_power")),
    UnitType("at_squad", "AT squad", "vehicles", 4, _inf("squad", [("assault_rifle", 4), ("lmg", 1),
                                                                  ("light_iavr", 1)])),
    UnitType("hmg_team", "HMG team", "heavy_weapons", 2,
             _inf("specialist", [("assault_rifle", 3)], heavy_weapon="hmg_team")),
    UnitType("missile_team", "Missile team", "heavy_weapons", 2,
             _inf("specialist", [("assault_rifle", 2)], heavy_weapon="missile_team")),
    UnitType("technical", "Technical", "vehicles", 1, {"design": "technical"}),
    UnitType("scout_hover", "Scout hover", "vehicles", 1, {"design": "scout_hover"}),
    UnitType("light_tank", "Light tank", "vehicles", 2, {"design": "light_tank"}),
    UnitType("tank", "Tank", "vehicles", 2, {"design": "main_battle_tank"}),
    UnitType("tank_destroyer", "Tank destroyer", "vehicles", 1, {"design": "tank_destroyer"}),
    UnitType("apc", "APC", "vehicles", 2, {"design": "apc_wheeled"}, passenger="rifle_squad"),
    UnitType("ifv", "IFV", "vehicles", 2, {"design": "ifv_tracked"}, passenger="at_squad"),
)
TYPE = {t.key: t for t in UNIT_TYPES}
QUALITY_WEIGHTS = (1, 3, 1)  # d6, d8, d10: invented, regulars most often


def make_unit(t: UnitType, quality: str) -> dict:
    u = dict(t.spec)
    u["figures"] = [dict(f) for f in u.get("figures", ())]
    if not u["figures"]:
        del u["figures"]
    u["quality"] = quality
    return u


def package(t: UnitType, quality: str) -> list[dict]:
    """The units one pick fields: the unit, and a transport's passengers (mounted in it)."""
    units = [make_unit(t, quality)]
    if t.passenger:
        units.append(make_unit(TYPE[t.passenger], quality))
    return units


def package_points(t: UnitType, quality: str) -> int:
    return _package_points(t.key, quality)


@lru_cache(maxsize=None)
def _package_points(key: str, quality: str) -> int:
    return sum(unit_points(u) for u in package(TYPE[key], quality))


def hq_points() -> int:
    return unit_points(make_unit(HQ, "d8"))


def cheapest(with_: frozenset) -> int:
    return min(package_points(t, q) for t in UNIT_TYPES if not t.needs or t.needs in with_ for q in QUALITIES)


def choose_force(rng: random.Random, budget: int, with_: frozenset, max_units: int = MAX_UNITS_PER_SIDE) -> list:
    """A force within ``budget`` points: the platoon HQ (regular), then seeded picks among the unit types (with a
    quality) that still fit, until none does.  Returns ``[(unit type, unit document)]`` in order, a transport
    before its passengers; every unit but the HQ is commanded by the HQ."""
    force = [(HQ, make_unit(HQ, "d8"))]
    spent = hq_points()
    allowed = [t for t in UNIT_TYPES if not t.needs or t.needs in with_]
    while True:
        fits = [(t, q, w) for t in allowed for q, w in zip(QUALITIES, QUALITY_WEIGHTS)
                if spent + package_points(t, q) <= budget and len(force) + 1 + bool(t.passenger) <= max_units
                for w in [t.weight * w]]
        if not fits:
            return force
        t, q, _ = rng.choices(fits, weights=[w for *_, w in fits])[0]
        units = package(t, q)
        spent += package_points(t, q)
        kinds = [t] + ([TYPE[t.passenger]] if t.passenger else [])
        force += list(zip(kinds, units))
