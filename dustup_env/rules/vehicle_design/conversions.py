"""Conversions from Dirtside II design values to Dustup game values.

Seed 002 (Dirtside II chapters 1-3) has no movement rates, firepower or impact (its chapters 6-7 are
not in the seed), and seed 000 (Dustup) states only a few anchors: a D12 movement die for most
vehicles and D6 for mechs and monsters (L1362), effective range = size x 48" (L1226), the typical heavy
machine gun (firepower 2D6, impact D8) and the typical tank gun (firepower D10, impact D12x2) (L1220),
unarmoured vehicles D8 and armour class N = D12 x N (L1336). Everything else below is a reading
recorded in ``docs/rules-notes.md`` (RN-605 .. RN-623); values marked *invented* there are this
project's own choice, chosen to keep Dustup's anchors and Dirtside's descriptions of each weapon.

A design may state any Dustup value itself (its ``dustup`` block): the setting decides (L1220).
"""
from __future__ import annotations

from ..kernel.dice import D6, D8, D10, D12, die_name

# --- system quality (RN-608) -------------------------------------------------------------------
#: Dirtside quality -> Dustup level: Dirtside's D6 / D8 / D10 are its below-average / average /
#: above-average dice (S002:237, 637), which are Dustup's inferior / average / superior.
QUALITY_TO_DUSTUP = {"basic": "inferior", "enhanced": "average", "superior": "superior"}
#: a vehicle with no ECM system at all is Dustup's lowest ECM level (RN-608)
NO_SYSTEM_LEVEL = "very_inferior"
#: Dustup ECM and guidance dice by level (seed 000 L1268-1284; guidance "None" = D4 is read as very inferior)
LEVEL_DIE = {"very_inferior": "d4", "inferior": "d6", "average": "d8", "superior": "d10", "very_superior": "d12"}
#: defaults for a design that names no level (RN-604): Dirtside "enhanced" = Dustup average, the level
#: Dustup calls typical for vehicle fire control (L1243) and the default infantry ECM of RN-124
DEFAULT_QUALITY = "enhanced"


def fire_control_level(quality: str) -> str:
    """Dirtside fire-control quality -> Dustup fire control (inferior / average / superior)."""
    return QUALITY_TO_DUSTUP[quality]


def system_die(quality: str) -> str:
    """Dirtside quality of an ECM, guidance, PDS or ADS -> its Dustup die (basic D6, enhanced D8, superior D10)."""
    return LEVEL_DIE[QUALITY_TO_DUSTUP[quality]]


# --- armour (RN-605) ---------------------------------------------------------------------------
def armour_die(armour_class: int) -> str:
    """Dustup armour die for an armour class: 0 = unarmoured D8 (L1336), N = D12 x N."""
    if armour_class <= 0:
        return "d8"
    return "d12" if armour_class == 1 else f"d12x{armour_class}"


def dirtside_facings(rating: int) -> dict[str, int]:
    """Front = rating, sides / top / rear one less (S002:585, never below 0, S002:589); belly = top (RN-605)."""
    other = max(rating - 1, 0)
    return {"front": rating, "side": other, "rear": other, "top": other, "belly": other}


# --- movement (RN-609, RN-619, RN-620) ---------------------------------------------------------
#: seed 000 L1362: "most vehicles have a D12 mobility die ... This does not necessarily represent their maximum
#: speed, but their tactical speed"; mechs and monsters D6.  Dirtside's slow and fast variants (a top speed) roll the
#: same D12 (RN-922); a design states another die with ``dustup.movement_die`` ("Unless otherwise noted").
def movement_die(mobility_code: str, speed: str, family: str, kind: str) -> str | None:
    if family in ("vtol", "aerospace"):
        return None  # aircraft move by the aerospace rules (seed 000 L1736-1756), not a movement die
    if family == "walker" or kind in ("mech", "large_creature"):
        return "d6"
    return "d12"


# --- heavy weapons (RN-610) --------------------------------------------------------------------
HEAVY_WEAPON_RANGE_PER_SIZE = 48  # seed 000 L1226, RN-120

#: anti-armour impact: D12 x class, shifted by the weapon type (invented, RN-610). The anchor is the
#: Dustup "typical tank gun" D12x2 (L1220): an HVC-3, the conventional tank gun of a typical size-3 tank.
_IMPACT_ARMOUR_SHIFT = {"HVC": -1, "HKP": 0, "MDC": 0, "HEL": -1, "DFFG": +1, "RFAC": -2, "SLAM": -1, "CCW": 0}
#: anti-infantry impact (invented, RN-610): explosive rounds D12, kinetic penetrators D8 ("little use
#: against dispersed targets", S002:501, 507), rapid fire D10
_IMPACT_INFANTRY = {"HVC": D12, "HKP": D8, "HEL": D10, "DFFG": D12, "RFAC": D10, "SLAM": D12, "CCW": D10}
#: firepower against vehicles and point targets (invented, RN-610); anchors: tank gun D10, HMG 2D6 (L1220)
_FIREPOWER = {"HVC": ("d10",), "HKP": ("d10",), "DFFG": ("d10",), "HEL": ("d12",), "RFAC": ("d6", "d6"),
              "SLAM": ("d8", "d8")}
_FIREPOWER_INFANTRY = {"HVC": ("d10",), "HKP": ("d6",), "DFFG": ("d10",), "HEL": ("d10",), "RFAC": ("d6", "d6"),
                       "SLAM": ("d8", "d8")}


def _class_step(cls: int, shift: int) -> str:
    return die_name(max(D6, D12 + cls - 1 + shift))


def direct_fire_values(code: str, cls: int) -> dict:
    """Firepower and impact of a direct-fire weapon of a Dirtside type and class (invented table, RN-610)."""
    if code == "MDC":
        if cls <= 2:  # "Gauss autocannons": rapid fire, limited anti-personnel use (S002:507)
            fp = fpi = ("d6", "d6")
            inf = D10
        else:  # railguns: small calibre, no practical explosive round (S002:507)
            fp, fpi, inf = ("d10",), ("d6",), D8
        return {"firepower": fp, "firepower_vs_infantry": fpi,
                "impact_vs_armour": _class_step(cls, 0), "impact_vs_infantry": die_name(inf)}
    return {"firepower": _FIREPOWER[code], "firepower_vs_infantry": _FIREPOWER_INFANTRY[code],
            "impact_vs_armour": _class_step(cls, _IMPACT_ARMOUR_SHIFT[code]),
            "impact_vs_infantry": die_name(_IMPACT_INFANTRY[code])}


#: the Dustup typical heavy machine gun (L1220): the APSW as a heavy weapon (RN-119, RN-610)
APSW_VALUES = {"firepower": ("d6", "d6"), "firepower_vs_infantry": ("d6", "d6"),
               "impact_vs_armour": "d8", "impact_vs_infantry": "d8"}
#: guided missiles: one impact roll (L1296); GMS/L D12x2, GMS/H D12x3, D10 against infantry (invented, RN-610)
GUIDED_VALUES = {1: {"impact_vs_armour": "d12x2", "impact_vs_infantry": "d10"},
                 2: {"impact_vs_armour": "d12x3", "impact_vs_infantry": "d10"}}
#: local air defence: an anti-air guided weapon (L1792: anti-air weapons need a guidance system); firepower D8
#: and impact D12x2 are invented (RN-615)
LAD_VALUES = {"firepower": ("d8",), "firepower_vs_infantry": (), "impact_vs_armour": "d12x2",
              "impact_vs_infantry": "d8"}

#: close-combat weapons of mechs and monsters: a strike (support) die by class and D12 x class against
#: armour (invented, RN-623)
_CCW_STRIKE = {1: D6, 2: D8, 3: D10, 4: D12, 5: D12}


def close_combat_values(cls: int) -> dict:
    return {"firepower": (), "firepower_vs_infantry": (), "strike": die_name(_CCW_STRIKE[min(cls, 5)]),
            "impact_vs_armour": _class_step(cls, 0), "impact_vs_infantry": die_name(D10 if cls < 3 else D12)}


# --- artillery (RN-616) ------------------------------------------------------------------------
#: Dirtside artillery class -> Dustup round size (seed 000 L1589-1594) and burst radius; minimum range 48"
#: (L1602: "48" for all other weapon types" than light mortars)
ARTILLERY = {2: ("medium", 4), 4: ("large", 6), 6: ("very_large", 10)}
ARTILLERY_MINIMUM_RANGE = 48  # the profile's field: the range that applies depends on the design's name (below)
HIGH_ANGLE_WORDS = ("mortar", "rocket", "mrl")  # RN-1460: the design's name says what it is


def joined_names(*names) -> str:
    """The names, lower case, in one string (what :func:`high_angle` reads)."""
    return " ".join(n for n in names if n).lower()


def high_angle(name: str) -> bool:
    """A high-angle system (rockets and mortars, L1600) by its design's name (RN-1460)."""
    n = name.lower()
    return any(w in n for w in HIGH_ANGLE_WORDS)


def light_mortar(weapon, name: str = "") -> bool:
    """A light mortar (L1602): a high-angle piece of small rounds, or one whose design or weapon name says "light
    mortar" (RN-1471: the design rules' smallest artillery fires medium rounds, RN-616)."""
    names = joined_names(name, weapon.name)
    return high_angle(names) and (weapon.round_size == "small" or "light mortar" in names)


def indirect_minimum_range(weapon, name: str = "", mins: dict | None = None) -> float:
    """The minimum range of indirect fire (L1600-1602, RN-148): none for a gun; 24" for a light mortar; 48" for every
    other high-angle piece (``mins``: the ``minimum_range`` of data/artillery.json, read here when not given)."""
    if mins is None:
        from ..kernel.data import DATA, load_json
        mins = load_json(DATA / "artillery.json")["minimum_range"]
    if not high_angle(joined_names(name, weapon.name)):
        return mins["direct"]
    return mins["light_mortar"] if light_mortar(weapon, name) else mins["high_angle"]
#: ammunition (L1580-1583): the impacts are the round's, not the weapon's; the profile gives general purpose
ARTILLERY_GENERAL_PURPOSE = {"impact_vs_armour": "d8", "impact_vs_infantry": "d8"}


# --- stabilisation (RN-611) --------------------------------------------------------------------
def default_stabilisation(mount: str, category: str) -> str:
    """Fixed mounts fire only before moving (S002:645) = Dustup poor stabilisation; everything that may fire
    before or after moving (turrets, walkers' limbs, the free APSW's remote mount) is average (RN-611)."""
    if category == "artillery":
        return "poor"
    return "poor" if mount == "fixed" else "average"


# --- transport (RN-614) ------------------------------------------------------------------------
#: a Dirtside infantry element is a team of 2-5 figures (S002:263, 739): one element's place (4 capacity)
#: carries 5 Dustup figures; a power-armoured figure takes two places (8 capacity per element of 5)
FIGURES_PER_ELEMENT = 5


def transport_figures(line: int, militia: int, powered: int) -> int:
    return FIGURES_PER_ELEMENT * (line + militia + 2 * powered)


# --- air vehicles (RN-620) ---------------------------------------------------------------------
def landing_zone(size: int) -> int:
    """Landing-zone diameter in inches: small craft 6", larger transports 12" (L1828); sizes 1-2 are small."""
    return 6 if size <= 2 else 12

