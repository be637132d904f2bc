"""``check``: apply every design rule of Dirtside II chapters 1-3 (and Dustup's own limits) to a design,
report each violation by rule name and amount, and derive the Dustup statistics.

Severity: an *error* makes the design illegal; a *warning* is a Dirtside recommendation, or a Dirtside
rule that Dustup overrides (Dustup is the game played, RN-600). The rules are listed in :mod:`.rules`.
"""
from __future__ import annotations

from dataclasses import replace
from math import ceil

from . import conversions as cv
from .derive import ENERGY, Mounted, VehicleCheck, vehicle_profile, weapon_profile
from .findings import Assumption, Collector, DesignReport, Violation  # noqa: F401  (the module's public names)
from .load import Design, HeavyWeaponDesign, load
from .profile import HeavyWeaponDesignProfile
from .tables import (CAPACITY_PER_SIZE, CARRIED_VEHICLE_PER_SIZE, ENERGY_WEAPON_MARGIN, FIRE_CONTROLS, GEV_LIMIT,
                     MAX_ARMOUR, MOBILITIES, MODULAR_FIRE_CONTROLS, NEEDS_FGP, SYSTEM_TYPES, TRANSPORT_CAPACITY)


def check(source) -> DesignReport:
    """Check a design (a path, a library name, a dict, or an already loaded design)."""
    design = source if isinstance(source, (Design, HeavyWeaponDesign)) else load(source)
    if isinstance(design, HeavyWeaponDesign):
        return _check_heavy_weapon(design)
    return _check_vehicle(design)


# ---------------------------------------------------------------------------------------------------
# vehicles
# ---------------------------------------------------------------------------------------------------


def _check_vehicle(d: Design) -> DesignReport:
    c = Collector()
    mob = MOBILITIES[d.mobility]
    size = d.size if not d.modular else sum(m.size for m in d.modules if m.role == "main")
    v = VehicleCheck(d, c, size, limbed=d.kind in ("mech", "large_creature"))
    _kinds(v, mob)
    _mounts(v, mob)
    _classes(v)
    _primary(v)
    items, systems_used = _capacity(v)
    _sizes(v)
    _power(v, mob)
    facings = _armour(v, mob)
    signature = _signature(v, mob)
    _fire_control(v)
    _special_types(v, mob)
    if d.modular:
        c.add("modular", "modular (cybertank) vehicles are not Dustup units: field a super-heavy vehicle as separate "
              "hull and turret units of size 1-5 (seed 000 Super-Heavy Vehicles)", "modules")
    elif d.size > 5:
        c.add("oversize", f"size {d.size} is beyond Dustup's vehicle sizes 1-5 (the Dirtside oversize rules are "
              "checked, but Dustup cannot field it)", "size", d.size, 5)
    total = sum(i["capacity"] for i in items)
    avail = CAPACITY_PER_SIZE * size
    dirtside = {
        "size": d.size, "modules": [m.__dict__ for m in d.modules] or None,
        "mobility": d.mobility, "power_plant": v.plant,
        "armour": f"{d.armour}{''.join(s[0].upper() for s in d.special_armour)}",
        "armour_facings": facings, "signature": signature,
        "capacity": avail, "capacity_used": total, "capacity_free": avail - total, "items": items,
        "weapon_systems": systems_used, "weapon_systems_limit": size,
        "primary_weapon": v.primary.fit.label() if v.primary else None,
        "fire_controls": d.fire_controls,
    }
    if d.modular:
        dirtside["mobility_cost_class"] = sum(m.size for m in d.modules if m.role == "tread")
    profile = vehicle_profile(v, mob, signature) if not d.modular and d.size <= 5 else None
    return c.report(d, "vehicle", dirtside, profile)


def _kinds(v: VehicleCheck, mob) -> None:
    d, c = v.d, v.c
    walker = mob.family == "walker"
    if d.kind == "mech" and not walker:
        c.add("walker-mobility", f"a mech walks: its mobility is walker, not {d.mobility}", "mobility")
    if walker and d.kind not in ("mech", "large_creature"):
        c.add("walker-mobility", f"walker mobility is a mech's (kind \"mech\") or a large creature's, not a "
              f"{d.kind} vehicle's", "kind")
    if d.kind == "large_creature":
        if d.power_plant not in (None, "none"):
            c.add("large-creature", f"a large creature has no power plant (power_plant \"none\"), not {d.power_plant}",
                  "power_plant")
        if not walker:
            c.add("large-creature", f"a large creature moves as a walker (L1362), not {d.mobility}", "mobility")
        if d.military:
            c.add("large-creature", "a large creature is not a military vehicle: it has no free APSW", "military")
    if d.kind == "mech" and not d.modular:
        wt = d.walker_type
        if wt is None:
            wt = "combat"
            c.assume("walker_type", wt, "RN-621: a mech that names no walker type is a combat walker")
        if wt == "infantry" and d.size != 1:
            c.add("walker-size", f"an infantry walker is class 1, not {d.size}", "size", d.size, 1)
        elif wt != "infantry" and d.size < 4:
            c.add("walker-size", f"a {wt} walker is class 4 or 5 (6-7 oversize), not {d.size}", "size", d.size, 4)


def _mounts(v: VehicleCheck, mob) -> None:
    d, c = v.d, v.c
    air = mob.environment == "air"
    for f in d.weapons:
        cat = f.wtype.category
        if cat == "close_combat":
            if not v.limbed:
                c.add("weapon-mount", "close-combat weapons are for mechs and large creatures (only they fight in "
                      "close combat, L1512)", f.at("type"))
            mount = "limb"
        elif v.limbed:
            mount = "limb"  # every walker mount is costed as fixed and fires through 180 degrees (S002:815, 842)
        elif f.mount == "limb":
            c.add("weapon-mount", "limb mounts are for walkers and large creatures", f.at("mount"))
            mount = "fixed"
        elif cat == "artillery":
            if f.mount == "turret":
                c.add("artillery-arc", "artillery mounts are limited traverse (front 180 degrees), not turrets",
                      f.at("mount"))
            mount = "fixed"
        elif cat == "deadfall":
            mount = "internal"
        elif f.mount is not None:
            mount = f.mount
        else:
            mount = "turret" if (not air or cat == "apsw") else "fixed"
        v.mounted.append(Mounted(f, mount))


def _classes(v: VehicleCheck) -> None:
    for m in v.mounted:
        f, wt = m.fit, m.fit.wtype
        if wt.category == "deadfall":
            continue
        if f.cls not in wt.classes:
            legal = "-".join(map(str, (wt.classes[0], wt.classes[-1]))) if len(wt.classes) > 2 else \
                " or ".join(map(str, wt.classes))
            over = f.cls > max(wt.classes)
            v.c.add("weapon-class", f"{wt.code} comes in class {legal}, not {f.cls}"
                    + (" (no direct-fire weapon above class 5; class 6 is artillery only)"
                       if wt.category == "direct_fire" and f.cls > 5 else ""),
                    f.at("class"), f.cls, max(wt.classes) if over else min(wt.classes))


def _primary(v: VehicleCheck) -> None:
    direct = [m for m in v.mounted if m.fit.wtype.category == "direct_fire"]
    if not direct:
        return
    top = max(m.fit.cls for m in direct)
    flagged = [m for m in direct if m.fit.primary]
    if len(flagged) > 1:
        v.c.add("primary-weapon", f"{len(flagged)} weapons are marked primary: a vehicle has one",
                flagged[1].fit.at("primary"), len(flagged), 1)
    if flagged and flagged[0].fit.cls < top:
        v.c.add("primary-weapon", f"the primary weapon is the largest: {flagged[0].fit.label()} is class "
                f"{flagged[0].fit.cls}, but a class-{top} direct-fire weapon is fitted", flagged[0].fit.at("primary"),
                top, flagged[0].fit.cls)
    if flagged:
        v.primary = flagged[0]
    else:  # RN-603: ties go to a turreted weapon, then to the first listed
        v.primary = min((m for m in direct if m.fit.cls == top), key=lambda m: (m.mount != "turret", m.fit.index))


def _capacity(v: VehicleCheck) -> tuple[list[dict], int]:
    d, c = v.d, v.c
    items: list[dict] = []
    systems = 0
    # turrets: each turret's first weapon (the primary in the primary's turret, else its largest) pays 3 x class
    # on its first barrel, every other barrel 2 x class (S002:655-661, 673; per turret: RN-603)
    turrets: dict[str, list[Mounted]] = {}
    for m in v.mounted:
        if m.fit.wtype.category == "direct_fire" and m.mount == "turret":
            turrets.setdefault(m.fit.turret, []).append(m)
    for ms in turrets.values():
        lead = v.primary if v.primary in ms else min(ms, key=lambda m: (-m.fit.cls, m.fit.index))
        lead.lead = True
    free_given = not d.military
    for m in v.mounted:
        f, wt = m.fit, m.fit.wtype
        cat = wt.category
        if cat == "direct_fire":
            m.capacity = 2 * f.cls * f.barrels + (f.cls if m.lead else 0)
            systems += f.barrels
            what = m.mount + (" restricted" if m.mount == "turret" and f.traverse == 180 else "")
            if m.mount == "turret" and len(turrets) > 1:
                what += f" {f.turret!r}"
            if m is v.primary:
                what += ", primary"
            elif m.mount == "turret" and not m.lead:
                what += ", secondary"
            label = f"{f.label()} ({what})"
        elif cat == "close_combat":
            m.capacity, systems, label = 2 * f.cls, systems + 1, f"{f.label()} (limb)"
        elif cat == "artillery":
            m.capacity, systems, label = 3 * f.cls, systems + 1, f"{f.label()} (artillery)"
        elif cat == "apsw":
            if not free_given:
                m.free, free_given = True, True
                m.capacity, label = 0, f"{f.label()} (free)"
            else:
                m.capacity, systems, label = wt.capacity, systems + 1, f"{f.label()} (extra)"
        else:  # guided, air defence, deadfall: fixed capacity each
            m.capacity = wt.capacity
            systems += 1 if wt.counts else 0
            label = f.label()
        items.append({"item": label, "capacity": m.capacity, "field": f.path})
    if not free_given:  # every military vehicle has its free APSW, listed or not (S002:665)
        items.append({"item": "APSW (free)", "capacity": 0, "field": ""})
    for s in d.systems:
        st = SYSTEM_TYPES[s.code]
        if st.quality:
            q = s.quality
            if q is None:
                q = cv.DEFAULT_QUALITY
                c.assume(f"systems/{s.index}/quality", q, "RN-604: a system that names no quality is enhanced")
                s.quality = q
            cap, label = st.capacity[q], f"{s.code} ({q})"
        else:
            cap, label = st.capacity, st.name if s.code in ("CBR", "command") else s.code
        systems += 1 if st.counts else 0
        items.append({"item": label, "capacity": cap, "field": f"systems/{s.index}"})
    t = d.transport
    for key in ("line_infantry", "militia_infantry", "powered_infantry", "cargo_loads"):
        n = t.get(key, 0)
        if n:
            what = key.replace("_", " ") + (" element" if key.endswith("infantry") else "")
            what = what.replace("loads", "load") + ("s" if n > 1 else "")
            items.append({"item": f"{n} {what}", "capacity": n * TRANSPORT_CAPACITY[key], "field": f"transport/{key}"})
    for j, s in enumerate(t.get("vehicles", [])):
        items.append({"item": f"carried vehicle, size {s}", "capacity": CARRIED_VEHICLE_PER_SIZE * s,
                      "field": f"transport/vehicles/{j}"})
        if s >= v.size:
            c.add("transport-vehicle-size", f"a size-{v.size} vehicle can only carry smaller vehicles, not size {s}",
                  f"transport/vehicles/{j}", s, v.size - 1)
    total = sum(i["capacity"] for i in items)
    avail = CAPACITY_PER_SIZE * v.size
    if total > avail:
        what = f"modular vehicle (main modules {v.size})" if d.modular else f"class-{v.size} vehicle"
        c.add("capacity", f"the weapons, systems and transport need {total} capacity; a {what} has {avail}", "",
              total, avail)
    if systems > v.size:
        c.add("weapon-systems", f"{systems} weapon systems on a vehicle of size {v.size}: at most {v.size}", "weapons",
              systems, v.size)
    return items, systems


def _sizes(v: VehicleCheck) -> None:
    if v.d.modular:
        return
    size = v.d.size
    for m in v.mounted:
        f = m.fit
        if f.wtype.category == "deadfall":
            continue
        if f.cls > size:
            v.c.add("weapon-size", f"a size-{size} vehicle cannot carry a weapon larger than its size: "
                    f"{f.label()} is size {f.cls}", f.at("class"), f.cls, size)
        if f.wtype.category != "artillery" and f.cls > size + 1:
            v.c.add("weapon-size-recommendation", f"Dirtside recommends no weapon more than one class larger than the "
                    f"vehicle: {f.label()} on a class-{size} vehicle", f.at("class"), f.cls, size + 1)


def _power_problems(v: VehicleCheck, mob, plant: str) -> list[tuple]:
    d = v.d
    probs = []
    energy = [m.fit for m in v.mounted if m.fit.code in ENERGY]
    if plant == "none":
        if d.kind != "large_creature":
            probs.append(("power-plant-mobility", "a vehicle needs a power plant (CFE, HMT or FGP); \"none\" is a "
                          "large creature's", "power_plant", None, None))
        for f in energy:
            probs.append(("power-plant-weapons", f"{f.label()} needs power, and there is no power plant",
                          f.at("type"), None, None))
        return probs
    oversize = d.modular or (d.size or 0) > 5
    if (mob.family in NEEDS_FGP or oversize) and plant != "FGP" and d.kind != "large_creature":
        what = ("oversize vehicles" if oversize else {"grav": "grav vehicles", "walker": "walkers",
                                                     "vtol": "air vehicles", "aerospace": "air vehicles"}[mob.family])
        probs.append(("power-plant-mobility", f"{what} need an FGP, not {plant}", "power_plant", None, None))
    if mob.family in ("gev", "rsw"):
        lim = GEV_LIMIT[plant][mob.speed]
        if v.size > lim:
            kind = f"{mob.speed} {'GEV' if mob.family == 'gev' else 'RSW air-cushion craft'}"
            probs.append(("power-plant-mobility", f"a {plant} lifts a {kind} of at most class {lim}, not class "
                          f"{v.size}", "power_plant", v.size, lim))
    margin = ENERGY_WEAPON_MARGIN[plant]
    for f in energy:
        lim = (d.size or v.size) - margin
        if f.cls > lim:
            probs.append(("power-plant-weapons", f"a {plant} powers a {f.code} of at most class {lim} on a class-"
                          f"{d.size or v.size} vehicle, not class {f.cls}", f.at("class"), f.cls, lim))
    return probs


def _power(v: VehicleCheck, mob) -> None:
    d, c = v.d, v.c
    plant = d.power_plant
    if plant is None:
        if d.kind == "large_creature":
            plant = "none"
            c.assume("power_plant", plant, "RN-622: a large creature has no power plant")
        else:
            plant = next((p for p in ("CFE", "HMT", "FGP") if not _power_problems(v, mob, p)), "FGP")
            c.assume("power_plant", plant, "RN-604: the least power plant the mobility and weapons allow")
    v.plant = plant
    if plant != "none" and d.kind == "large_creature":
        return  # reported as large-creature
    for rule, msg, fld, value, limit in _power_problems(v, mob, plant):
        c.add(rule, msg, fld, value, limit)


def _armour(v: VehicleCheck, mob) -> dict:
    d, c = v.d, v.c
    rating = d.armour
    if not d.modular:
        cap = min(d.size, MAX_ARMOUR)
        if rating > cap:
            c.add("armour-rating", f"armour {rating} on a class-{d.size} vehicle: no vehicle may carry armour higher "
                  f"than its size (Dustup L1328 agrees){'; 7 is the most' if rating > MAX_ARMOUR else ''}", "armour",
                  rating, cap)
    else:
        for j, mod in enumerate(d.modules):
            lim = min(MAX_ARMOUR, mod.size + (2 if mod.role == "main" else 1))
            if mod.armour > lim:
                c.add("modular-armour", f"a class-{mod.size} {mod.role} module carries armour {lim} at most, not "
                      f"{mod.armour}", f"modules/{j}/armour", mod.armour, lim)
    if len(d.special_armour) > 1:
        c.add("special-armour", "ablative and reactive armour cannot be fitted to the same vehicle",
              "special_armour", len(d.special_armour), 1)
    facings = cv.dirtside_facings(rating)
    override = d.dustup.get("facings", {})
    if override and not d.modular:
        for k, val in override.items():
            if val > d.size:
                c.add("facing-armour-size", f"{k} armour {val} on a size-{d.size} vehicle: at most its size",
                      f"dustup/facings/{k}", val, d.size)
        diff = [k for k, val in override.items() if val != facings[k] and k != "belly"]
        if diff:
            c.add("armour-facings", "Dirtside armour is the rating in front and one less elsewhere (front "
                  f"{facings['front']}, side/rear/top {facings['side']}); the Dustup facings differ: "
                  + ", ".join(f"{k} {override[k]}" for k in diff), "dustup/facings")
    if d.kind == "soft_skin" and (rating > 0 or any(val > 0 for val in override.values())):
        c.add("soft-skin", f"a soft-skinned vehicle has armour 0, not {max([rating, *override.values()])}", "armour",
              max([rating, *override.values()]), 0)
    return facings


def _signature(v: VehicleCheck, mob) -> dict:
    d, c = v.d, v.c
    if d.modular:
        if d.stealth:
            c.add("stealth", "no stealth is available for modular vehicles", "stealth", d.stealth, 0)
        return {"basic": None, "effective": None, "note": "modular: always a D4 target die"}
    basic = d.size + (1 if d.kind == "mech" else 0)
    eff = basic - d.stealth
    if eff < 1:
        c.add("stealth", f"stealth {d.stealth} would take the signature from {basic} to {eff}; it cannot go below 1",
              "stealth", d.stealth, basic - 1)
    return {"basic": basic, "effective": max(eff, 1)}


def _fire_control(v: VehicleCheck) -> None:
    d, c = v.d, v.c
    allowed = MODULAR_FIRE_CONTROLS if d.modular else FIRE_CONTROLS.get(d.size, 1)
    if d.fire_controls > allowed:
        c.add("fire-control-count", f"{d.fire_controls} fire-control systems: a "
              f"{'modular' if d.modular else 'class-' + str(d.size)} vehicle may carry {allowed}", "fire_controls",
              d.fire_controls, allowed)
    uses_fc = any(m.fit.wtype.category in ("direct_fire", "apsw") for m in v.mounted) or d.military
    if d.fire_control is None and uses_fc:
        c.assume("fire_control", cv.DEFAULT_QUALITY, "RN-604: a vehicle that names no fire control has an enhanced "
                 "one (Dustup average, the typical vehicle fire control, L1243)")
    level = cv.fire_control_level(d.fire_control or cv.DEFAULT_QUALITY)
    for m in v.mounted:
        f = m.fit
        own = f.dustup.get("fire_control")
        if own and own != level:
            c.add("fire-control-per-weapon", f"{f.label()} has {own} fire control, the vehicle's fire control is "
                  f"{level}: Dirtside gives one fire control for all weapons", f.at("dustup/fire_control"))
        if f.dustup.get("guidance") in ("very_inferior", "very_superior"):
            c.add("system-quality-levels", f"{f.label()}: guidance {f.dustup['guidance']} has no Dirtside level "
                  "(basic, enhanced, superior)", f.at("dustup/guidance"))
        if f.wtype.category in ("guided", "air_defence") and f.guidance is None and not f.dustup.get("guidance"):
            f.guidance = cv.DEFAULT_QUALITY
            c.assume(f.at("guidance"), f.guidance, "RN-604: a missile system that names no guidance is enhanced")
        if (m.mount == "fixed" and not v.limbed and f.wtype.category != "artillery"
                and f.stabilisation in ("average", "superior")):
            c.add("fixed-mount-fire", f"{f.label()} is a fixed mount with {f.stabilisation} stabilisation: Dirtside "
                  "fixed mounts fire only before moving (Dustup poor stabilisation)", f.at("stabilisation"))
    if d.dustup.get("ecm") in ("very_inferior", "very_superior"):
        c.add("system-quality-levels", f"ECM {d.dustup['ecm']} has no Dirtside level (basic, enhanced, superior)",
              "dustup/ecm")
    if d.ecm is None and not d.dustup.get("ecm") and d.kind != "large_creature":
        c.assume("ecm", cv.DEFAULT_QUALITY, "RN-604: a vehicle that names no ECM has enhanced ECM (Dustup average, "
                 "the default of RN-124)")


def _special_types(v: VehicleCheck, mob) -> None:
    d, c = v.d, v.c
    weapons = [m for m in v.mounted if m.fit.wtype.category != "deadfall"]
    if mob.environment == "riverine" and not d.modular:
        cap = 0 if d.size <= 2 else d.size - 2
        if d.armour > cap:
            c.add("riverine-armour", f"a class-{d.size} riverine craft carries armour {cap} at most, not {d.armour}",
                  "armour", d.armour, cap)
        fitted = [m for m in weapons if not m.free]
        if d.size == 1:
            if len(fitted) > 1:
                c.add("riverine-weapon-class", f"a size-1 craft may mount a single class-1 weapon, not {len(fitted)} "
                      "weapons", "weapons", len(fitted), 1)
            for m in fitted:
                if m.fit.cls > 1:
                    c.add("riverine-weapon-class", f"a size-1 craft may mount a class-1 weapon, not "
                          f"{m.fit.label()} (class {m.fit.cls})", m.fit.at("class"), m.fit.cls, 1)
        else:
            for m in fitted:
                if m.fit.cls > d.size - 1:
                    c.add("riverine-weapon-class", f"a class-{d.size} craft mounts weapons of class {d.size - 1} at "
                          f"most, not {m.fit.label()} (class {m.fit.cls})", m.fit.at("class"), m.fit.cls, d.size - 1)
    if mob.environment == "air" and not d.modular:
        for m in weapons:
            f = m.fit
            if f.cls > 3:
                c.add("air-weapons", f"no weapon over class 3 on an air vehicle: {f.label()} is class {f.cls}",
                      f.at("class"), f.cls, 3)
            if mob.family == "vtol" and m.mount == "turret" and f.cls > 1:
                c.add("air-weapons", f"VTOL turrets hold APSWs or class-1 weapons only, not {f.label()}",
                      f.at("mount"), f.cls, 1)
            if mob.family == "aerospace" and m.mount == "turret" and f.wtype.category == "direct_fire":
                c.add("air-weapons", f"direct-fire weapons on aerospace craft are fixed, firing forward: "
                      f"{f.label()} is in a turret", f.at("mount"))
        cap = min(2 if mob.family == "vtol" else 3, d.size - 1)
        if d.armour > cap:
            c.add("air-armour", f"a class-{d.size} {'VTOL' if mob.family == 'vtol' else 'aerospace craft'} carries "
                  f"armour {cap} at most, not {d.armour}", "armour", d.armour, cap)
    for m in v.mounted:
        if m.fit.wtype.category == "deadfall" and mob.family != "aerospace":
            c.add("dfo-load", f"dead-fall ordnance loads are carried by aerospace craft, not by a {d.mobility} "
                  "vehicle", m.fit.at("type"))
    if d.modular and mob.family != "tracked":
        c.add("modular-mobility", f"modular vehicles are tracked (fast or slow), not {d.mobility}", "mobility")


# ---------------------------------------------------------------------------------------------------
TEAM_WEAPONS = ("APSW", "GMS/L", "GMS/H", "LAD")


def _check_heavy_weapon(h: HeavyWeaponDesign) -> DesignReport:
    c = Collector()
    f, wt = h.weapon, h.weapon.wtype
    if f.cls not in wt.classes:
        c.add("weapon-class", f"{wt.code} comes in class {', '.join(map(str, wt.classes))}, not {f.cls}", "class",
              f.cls, max(wt.classes) if f.cls > max(wt.classes) else min(wt.classes))
    if f.cls > 5:
        c.add("weapon-size", f"Dustup heavy weapons are size 1-5 (class {f.cls} artillery is off-table fire support)",
              "class", f.cls, 5)
    if h.carriage == "man_packed":
        if f.cls > 1:
            c.add("man-packed-size", f"only size-1 weapons may be man-packed; {f.label()} is size {f.cls}: it needs a "
                  "vehicle or a towed carriage", "carriage", f.cls, 1)
        if f.code == "GMS/H":
            c.add("infantry-gms", "infantry may only carry GMS/L, not GMS/H", "type")
        if f.code not in TEAM_WEAPONS:
            c.add("infantry-weapon", f"Dirtside infantry teams carry APSWs, GMS/L and LAD, not a {f.code} (Dustup "
                  "allows size-1 crew-served weapons)", "type")
        elif not 2 <= h.crew <= 3:
            c.add("team-size", f"a Dirtside {f.code} team is two or three men, not {h.crew}", "crew", h.crew,
                  3 if h.crew > 3 else 2)
    if f.code in ENERGY:
        c.add("power-plant-weapons", f"a {f.code} needs a vehicle's power plant: it cannot be man-packed or towed",
              "type")
    if wt.category == "close_combat":
        c.add("weapon-mount", "close-combat weapons are carried by mechs and large creatures, not fielded on their own",
              "type")
    for key in ("guidance", "ecm"):
        if h.dustup.get(key) in ("very_inferior", "very_superior"):
            c.add("system-quality-levels", f"{key} {h.dustup[key]} has no Dirtside level (basic, enhanced, superior)",
                  f"dustup/{key}")
    if wt.category in ("guided", "air_defence") and f.guidance is None and not h.dustup.get("guidance"):
        f.guidance = cv.DEFAULT_QUALITY
        c.assume("guidance", f.guidance, "RN-604: a missile system that names no guidance is enhanced")
    if h.fire_control is None and wt.category in ("direct_fire", "apsw"):
        c.assume("fire_control", cv.DEFAULT_QUALITY, "RN-604: enhanced (Dustup average) unless stated; man-packed "
                 "weapons may be basic (Dustup inferior, L1243)")
    if h.ecm is None and not h.dustup.get("ecm"):
        c.assume("ecm", cv.DEFAULT_QUALITY, "RN-124, RN-604: the crew's ECM is average (D8) unless stated")
    towed = h.carriage == "towed"
    size = max(1, f.cls - 1) if towed else 1
    dirtside = {"type": f.code, "class": f.cls, "carriage": h.carriage, "crew": h.crew,
                "signature": size, "armour": 0}
    profile = None
    if f.cls <= 5 and f.code not in ENERGY and wt.category != "close_combat":
        lvl = h.dustup.get("ecm") or (cv.NO_SYSTEM_LEVEL if h.ecm == "none"
                                      else cv.QUALITY_TO_DUSTUP[h.ecm or cv.DEFAULT_QUALITY])
        fc = h.dustup.get("fire_control") or cv.fire_control_level(h.fire_control or cv.DEFAULT_QUALITY)
        m = Mounted(f, h.carriage)
        w = weapon_profile(m, fc_level=fc, env="ground", limbed=False, slaved_gms=False)
        arc, deg = ("front_180", 180) if towed else ("all_round", 360)  # RN-617, RN-618
        w = replace(w, mount=h.carriage, arc=arc, arc_degrees=deg, stabilisation="poor")
        profile = HeavyWeaponDesignProfile(
            name=h.name, weapon=w, carriage=h.carriage, crew=h.crew, target_size=size, armour=cv.armour_die(0),
            ecm_level=lvl, ecm=cv.LEVEL_DIE[lvl], encumbers_crew=not towed, set_up_actions=1,
            crew_to_move=0 if towed else h.crew // 2 + 1, crew_to_limber=ceil(h.crew / 2) if towed else 0,
            crew_to_fire=1 if f.cls == 1 else ceil(h.crew / 2),
            tractor_size=size if towed else 0, tractor_size_dustup=max(1, size - 1) if towed else 0,
            remote=h.remote and wt.category == "guided")
    return c.report(h, "heavy_weapon", dirtside, profile)
