"""The design rules the check applies, by name.

``source`` is the seed a rule comes from: ``dirtside`` (seed 002, Dirtside II chapters 1-3) or ``dustup``
(seed 000, the game being played). ``severity`` is ``error`` (the design is illegal) or ``warning`` (a
Dirtside recommendation, or a Dirtside rule that Dustup overrides: Dustup is applied and the Dirtside rule
reported, RN-600). ``ref`` gives the seed lines; ``reading`` the rules-notes entries.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    source: str
    severity: str
    summary: str
    ref: str
    reading: str = ""


RULES: dict[str, Rule] = {r.name: r for r in (
    # --- size, capacity, mounts --------------------------------------------------------------
    Rule("capacity", "dirtside", "error",
         "weapons, systems and transport fit in the capacity: 5 x size (oversize 30 / 35; modular: the main "
         "modules' total; air vehicles as ground vehicles)", "S002:473, 785, 854, 874, 930-943", "RN-603"),
    Rule("primary-weapon", "dirtside", "error",
         "the primary weapon is the largest direct-fire weapon", "S002:655", "RN-603"),
    Rule("weapon-mount", "dirtside", "error",
         "limb mounts only on walkers and large creatures; close-combat weapons only on mechs and large creatures "
         "(and never fielded on their own)", "S002:815, 842; L1354, L1512", "RN-621, RN-623"),
    Rule("weapon-systems", "dirtside", "error",
         "no more weapon systems than the size: every barrel, GMS, PDS, ADS, LAD, artillery piece, close-combat "
         "weapon and extra APSW counts; the free APSW, APFC and DFO loads do not", "S002:663-665", "RN-602"),
    Rule("weapon-class", "dirtside", "error",
         "each weapon type only in its legal classes (RFAC 1-2, HVC/HKP/SLAM 3-5, MDC/HEL/DFFG 1-5, GMS/L 1, "
         "GMS/H 2, artillery 2/4/6; no direct-fire weapon above class 5)", "S002:479, 487-543, 697-705, 855"),
    Rule("weapon-size", "dustup", "error",
         "no weapon larger than the vehicle's size", "L1328", "RN-601"),
    Rule("weapon-size-recommendation", "dirtside", "warning",
         "recommended: no single weapon more than one class larger than the vehicle (artillery exempt)",
         "S002:667, 709", "RN-601"),
    Rule("transport-vehicle-size", "dirtside", "error",
         "only smaller vehicles can be carried", "S002:685", "RN-614"),
    # --- power ----------------------------------------------------------------------------------
    Rule("power-plant-mobility", "dirtside", "error",
         "the power plant allows the mobility type: CFE slow GEV <= 3, fast GEV <= 2; HMT slow GEV <= 4, fast "
         "GEV <= 3; grav, walkers, oversize and air vehicles need an FGP; RSW air-cushion craft as GEVs",
         "S002:563-567, 769, 786", "RN-604, RN-630"),
    Rule("power-plant-weapons", "dirtside", "error",
         "HEL and MDC: CFE at most two classes below the size, HMT one below, FGP any", "S002:569-575"),
    # --- armour, signature, systems ------------------------------------------------------------
    Rule("armour-rating", "dirtside", "error",
         "armour 0 to 7 and at most the size (Dustup: the same limit, L1328)", "S002:579-583, L1328", "RN-605"),
    Rule("facing-armour-size", "dustup", "error",
         "a facing's armour class (Dustup per-facing armour) at most the vehicle's size", "L1328, L1338", "RN-605"),
    Rule("armour-facings", "dirtside", "warning",
         "Dirtside armour: front = rating, sides, top and rear one less", "S002:585-589", "RN-605"),
    Rule("special-armour", "dirtside", "error",
         "ablative and reactive armour cannot be combined", "S002:593-601", "RN-606"),
    Rule("soft-skin", "dustup", "error",
         "a soft-skinned vehicle has armour 0", "S002:579, 589; L1336, L1447", "RN-627"),
    Rule("stealth", "dirtside", "error",
         "stealth levels lower the signature, never below 1; none on modular vehicles", "S002:611-613, 859, 875",
         "RN-607"),
    Rule("fire-control-count", "dirtside", "error",
         "one fire control (oversize class 6: 2, class 7: 3, modular: 4)", "S002:639, 856, 873", "RN-608"),
    Rule("fire-control-per-weapon", "dirtside", "warning",
         "one fire control covers all of a vehicle's weapons (Dustup gives each weapon its own)", "S002:639, L1243",
         "RN-608"),
    Rule("system-quality-levels", "dirtside", "warning",
         "systems are basic, enhanced or superior (Dustup's very inferior / very superior have no Dirtside level)",
         "S002:629, L1268-1284", "RN-608"),
    # --- arcs -----------------------------------------------------------------------------------
    Rule("fixed-mount-fire", "dirtside", "warning",
         "fixed-mount weapons fire only before moving (Dustup: poor stabilisation); a better stabilisation is "
         "Dustup's choice", "S002:645, L1471-1474", "RN-611"),
    Rule("artillery-arc", "dirtside", "error",
         "artillery mounts are limited traverse: the front 180 degrees, no turret", "S002:711", "RN-616"),
    # --- special vehicle types -----------------------------------------------------------------
    Rule("riverine-armour", "dirtside", "error",
         "riverine craft: armour at most two below the size; sizes 1-2 armour 0", "S002:767", "RN-619"),
    Rule("riverine-weapon-class", "dirtside", "error",
         "riverine craft: weapons at most one class below the size; a size-1 craft one class-1 weapon",
         "S002:768", "RN-619"),
    Rule("air-weapons", "dirtside", "error",
         "air vehicles: no weapon over class 3; VTOL turrets hold APSWs or class-1 weapons, other VTOL weapons "
         "and all aerospace direct-fire weapons are fixed", "S002:787", "RN-620"),
    Rule("air-armour", "dirtside", "error",
         "air vehicles: armour at most one below the size, and at most 2 (VTOL) or 3 (aerospace)", "S002:789",
         "RN-620"),
    Rule("dfo-load", "dirtside", "error",
         "dead-fall ordnance loads only on aerospace craft", "S002:788, 793", "RN-620"),
    Rule("walker-size", "dirtside", "error",
         "combat and transport walkers are class 4-5 (6-7 oversize), infantry walkers class 1", "S002:809-813",
         "RN-621"),
    Rule("walker-mobility", "dustup", "error",
         "mechs walk, and walker mobility is a mech's or a large creature's", "L1352, L1362", "RN-621"),
    Rule("large-creature", "dustup", "error",
         "a large creature has no power plant, walks and is not a military vehicle", "L1356-1358, L1362",
         "RN-622"),
    Rule("oversize", "dustup", "error",
         "Dustup vehicles are size 1-5: oversize (class 6-7) designs are checked by Dirtside's rules, then "
         "rejected", "L1328, L1563-1567; S002:848-860", "RN-624"),
    Rule("modular", "dustup", "error",
         "modular (cybertank) designs are checked by Dirtside's rules, then rejected: Dustup super-heavy vehicles "
         "are scenario pieces", "L1563-1567; S002:862-890", "RN-624"),
    Rule("modular-mobility", "dirtside", "error",
         "modular vehicles are tracked (fast or slow)", "S002:872"),
    Rule("modular-armour", "dirtside", "error",
         "modules: armour at most 7, treads at most size + 1, main modules at most size + 2", "S002:876"),
    # --- heavy-weapon designs -------------------------------------------------------------------
    Rule("man-packed-size", "dustup", "error",
         "only size-1 heavy weapons may be man-packed; larger ones need a vehicle or a towed carriage",
         "L1198, L1208", "RN-618"),
    Rule("infantry-gms", "dirtside", "error",
         "infantry may only carry GMS/L", "S002:535", "RN-618"),
    Rule("infantry-weapon", "dirtside", "warning",
         "Dirtside infantry teams carry APSWs, GMS/L and LAD only (Dustup also allows other size-1 weapons)",
         "S002:741-757, L1198", "RN-618"),
    Rule("team-size", "dirtside", "warning",
         "APSW, anti-armour and air-defence teams are two or three men", "S002:745, 751, 753", "RN-618"),
)}


def rule(name: str) -> Rule:
    return RULES[name]
