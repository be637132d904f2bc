"""The Dirtside II design tables (seed 002, chapter 3), as data.

Every number here is stated in seed 002 unless its comment says it is a reading (``RN-6xx`` in
``docs/rules-notes.md``). Line references ``S002:n`` are lines of
``/work/shared/seeds/002_6fe5b49176b134a2.txt``.
"""
from __future__ import annotations

from dataclasses import dataclass

# --- system quality levels (S002:629-637) ------------------------------------------------------
QUALITY_LEVELS = ("basic", "enhanced", "superior")
#: Dustup's five ECM / guidance levels (seed 000 L1268-1284) and its three fire-control levels (L1243).
DUSTUP_SYSTEM_LEVELS = ("very_inferior", "inferior", "average", "superior", "very_superior")
DUSTUP_FIRE_CONTROL_LEVELS = ("inferior", "average", "superior")


# --- weapon types and their legal classes (S002:487-543, 665, 697-705, 936) ----------------------
@dataclass(frozen=True, slots=True)
class WeaponType:
    code: str
    name: str
    classes: tuple[int, ...]  # legal size classes
    category: str  # direct_fire | guided | apsw | artillery | air_defence | close_combat | deadfall
    power: bool = False  # needs external power input (HEL, MDC): limited by the power plant (S002:569-575)
    capacity: int | None = None  # fixed capacity per system (None: by mount / class)
    counts: bool = True  # counts toward "weapon systems <= size" (S002:663; which do is RN-602)
    ref: str = ""
    implied_class: int | None = None  # the class when the type fixes it (GMS/L = 1, ...)


WEAPON_TYPES: dict[str, WeaponType] = {w.code: w for w in (
    WeaponType("RFAC", "rapid-fire autocannon", (1, 2), "direct_fire", ref="S002:491"),
    WeaponType("HVC", "high velocity cannon", (3, 4, 5), "direct_fire", ref="S002:497"),
    WeaponType("HKP", "hyper-kinetic penetrator", (3, 4, 5), "direct_fire", ref="S002:503"),
    WeaponType("MDC", "mass-driver cannon", (1, 2, 3, 4, 5), "direct_fire", power=True, ref="S002:509"),
    WeaponType("HEL", "high-energy laser", (1, 2, 3, 4, 5), "direct_fire", power=True, ref="S002:523"),
    WeaponType("DFFG", "direct fire fusion gun", (1, 2, 3, 4, 5), "direct_fire", ref="S002:529"),
    WeaponType("SLAM", "salvo-launched missile pack", (3, 4, 5), "direct_fire", ref="S002:543"),
    WeaponType("GMS/L", "guided missile system, light", (1,), "guided", capacity=2, ref="S002:535, 933",
               implied_class=1),
    WeaponType("GMS/H", "guided missile system, heavy", (2,), "guided", capacity=4, ref="S002:535, 933",
               implied_class=2),
    # the APSW's class is a reading (RN-631): a size-1 heavy weapon, the Dustup "typical heavy machine gun"
    WeaponType("APSW", "anti-personnel support weapon", (1,), "apsw", capacity=1, ref="S002:665, 937",
               implied_class=1),
    # artillery: light (RAM mortar) 2, medium (RAM guns, smaller MRLs) 4, heavy (MD guns, large MRLs) 6
    WeaponType("artillery", "artillery weapon", (2, 4, 6), "artillery", ref="S002:697-707, 943"),
    # local air defence: "a light AA missile launcher" (S002:753); class 1 is a reading (RN-631)
    WeaponType("LAD", "local air defence system", (1,), "air_defence", capacity=2, ref="S002:753, 936",
               implied_class=1),
    # dead-fall ordnance: one load = one attack on a beaten zone, 4 capacity (S002:788); not a weapon system
    WeaponType("DFO", "dead-fall ordnance load", (), "deadfall", capacity=4, counts=False, ref="S002:788, 793-797"),
    # close-combat weapons of mechs and monsters: Dustup only (seed 000 L1354, seed 003:38); capacity 2 x class is
    # an invented value (RN-623)
    WeaponType("CCW", "close-combat weapon", (1, 2, 3, 4, 5), "close_combat", ref="seed 000 L1354, seed 003:38"),
)}

DIRECT_FIRE = frozenset(c for c, w in WEAPON_TYPES.items() if w.category == "direct_fire")
NO_DIRECT_FIRE_ABOVE = 5  # "no class 6 Direct Fire weapons are permitted" (S002:705, 855)


# --- other systems (the capacity table, S002:930-943, and the text) -----------------------------
@dataclass(frozen=True, slots=True)
class SystemType:
    code: str
    name: str
    capacity: dict[str, int] | int  # by quality level, or fixed
    counts: bool  # counts toward the weapon-systems limit (RN-602)
    quality: bool  # has a quality level
    ref: str


SYSTEM_TYPES: dict[str, SystemType] = {s.code: s for s in (
    SystemType("PDS", "point-defence system", {"basic": 2, "enhanced": 3, "superior": 4}, True, True, "S002:663, 934"),
    SystemType("ADS", "area-defence system", {"basic": 10, "enhanced": 15, "superior": 20}, True, True, "S002:935"),
    SystemType("APFC", "anti-personnel fragmentation charges", 1, False, False, "S002:413, 938"),
    SystemType("CBR", "counter-battery radar", 14, False, False, "S002:715 (not in the table)"),
    SystemType("command", "command/communications centre", 8, False, False, "S002:687, 942"),
)}

# --- transport (S002:679-687, 939-941) ----------------------------------------------------------
TRANSPORT_CAPACITY = {"line_infantry": 4, "militia_infantry": 4, "powered_infantry": 8, "cargo_loads": 4}
CARRIED_VEHICLE_PER_SIZE = 8


# --- mobility types and power plants (S002:547-575, 769, 786, 867-872, 900) ---------------------
@dataclass(frozen=True, slots=True)
class Mobility:
    code: str
    environment: str  # ground | riverine | air
    family: str  # wheeled | tracked | gev | grav | walker | boat | rsw | vtol | aerospace
    speed: str  # slow | fast | "" (Dirtside's slow/fast variants, S002:563, 900)
    dustup: str  # the Dustup movement table / mobility type (seed 000 L1366-1398; readings RN-609, RN-619, RN-620)


MOBILITIES: dict[str, Mobility] = {m.code: m for m in (
    Mobility("low_mobility_wheeled", "ground", "wheeled", "", "low_mobility_wheeled"),
    Mobility("high_mobility_wheeled", "ground", "wheeled", "", "high_mobility_wheeled"),
    Mobility("slow_tracked", "ground", "tracked", "slow", "tracked"),
    Mobility("fast_tracked", "ground", "tracked", "fast", "tracked"),
    Mobility("slow_gev", "ground", "gev", "slow", "hover"),
    Mobility("fast_gev", "ground", "gev", "fast", "hover"),
    Mobility("grav", "ground", "grav", "", "grav"),
    Mobility("walker", "ground", "walker", "", "walker"),
    Mobility("boat", "riverine", "boat", "", "watercraft"),
    Mobility("hydrofoil", "riverine", "boat", "", "watercraft"),
    Mobility("slow_rsw", "riverine", "rsw", "slow", "watercraft"),
    Mobility("fast_rsw", "riverine", "rsw", "fast", "watercraft"),
    Mobility("vtol", "air", "vtol", "", "vtol"),
    Mobility("aerospace", "air", "aerospace", "", "aerospace"),
)}

POWER_PLANTS = ("CFE", "HMT", "FGP", "none")
#: the largest GEV (and RSW air-cushion craft, S002:769) each plant can lift, by speed (S002:563-567)
GEV_LIMIT = {"CFE": {"slow": 3, "fast": 2}, "HMT": {"slow": 4, "fast": 3}, "FGP": {"slow": 99, "fast": 99}}
#: how many classes below the vehicle's size a HEL/MDC must be (S002:571-575); None = any
ENERGY_WEAPON_MARGIN = {"CFE": 2, "HMT": 1, "FGP": 0}
#: families that must use an FGP (S002:567, 786)
NEEDS_FGP = frozenset({"grav", "walker", "vtol", "aerospace"})

# --- size classes (S002:445-473, 848-858) -----------------------------------------------------
CAPACITY_PER_SIZE = 5
NORMAL_SIZES = range(1, 6)
OVERSIZE_SIZES = (6, 7)
#: fire-control systems allowed (S002:639, 856, 873)
FIRE_CONTROLS = {6: 2, 7: 3}
MODULAR_FIRE_CONTROLS = 4
MAX_ARMOUR = 7
