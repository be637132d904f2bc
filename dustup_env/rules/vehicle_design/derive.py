"""The Dustup statistics of a checked design: its weapons' profiles (dice, arcs, fire control) and the vehicle's
profile (movement, armour per facing, ECM, transport) from the Dirtside II figures (seed 002) and Dustup's
conversions (RN-600 onward)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import conversions as cv
from .findings import Collector
from .load import Design, WeaponFit
from .profile import AirProfile, Facings, FACINGS, VehicleProfile, WeaponProfile
from .tables import WEAPON_TYPES

ENERGY = ("HEL", "MDC")


@dataclass
class Mounted:
    fit: WeaponFit
    mount: str  # turret | fixed | limb
    capacity: int = 0
    lead: bool = False  # pays the turret's extra class (the first weapon of its turret)
    free: bool = False  # the free APSW


@dataclass
class VehicleCheck:
    d: Design
    c: Collector
    size: int  # the size class; for a modular vehicle, the main modules' total
    limbed: bool
    mounted: list[Mounted] = field(default_factory=list)
    primary: Mounted | None = None
    plant: str = "CFE"


# --- the Dustup profile of a vehicle -----------------------------------------------------------
def weapon_profile(m: Mounted, *, fc_level: str, env: str, limbed: bool, slaved_gms: bool) -> WeaponProfile:
    f, wt = m.fit, m.fit.wtype
    cat = wt.category
    o = f.dustup
    guidance = None
    fire_control = fc_level if cat in ("direct_fire", "apsw") else None
    extra: dict = {}
    if cat == "direct_fire":
        vals = cv.direct_fire_values(f.code, f.cls)
        rng = cv.HEAVY_WEAPON_RANGE_PER_SIZE * f.cls
    elif cat == "apsw":
        vals, rng = dict(cv.APSW_VALUES), cv.HEAVY_WEAPON_RANGE_PER_SIZE
    elif cat == "guided":
        vals = {"firepower": (), "firepower_vs_infantry": (), **cv.GUIDED_VALUES[wt.implied_class]}
        rng = None
    elif cat == "air_defence":
        vals, rng = dict(cv.LAD_VALUES), cv.HEAVY_WEAPON_RANGE_PER_SIZE
    elif cat == "artillery":
        size_name, burst = cv.ARTILLERY[max(k for k in cv.ARTILLERY if k <= max(f.cls, 2))]  # an illegal class
        #                                                  (reported as weapon-class) takes the next lower one
        vals = {"firepower": (), "firepower_vs_infantry": (), **cv.ARTILLERY_GENERAL_PURPOSE}
        rng = cv.HEAVY_WEAPON_RANGE_PER_SIZE * f.cls
        extra = {"minimum_range": cv.ARTILLERY_MINIMUM_RANGE, "burst_radius": burst, "round_size": size_name}
    elif cat == "close_combat":
        vals = cv.close_combat_values(f.cls)
        extra = {"strike": vals.pop("strike")}
        rng = 0
    else:  # deadfall: the artillery ammunition types of the load (seed 000 Deadfall Weapons)
        vals = {"firepower": (), "firepower_vs_infantry": (), **cv.ARTILLERY_GENERAL_PURPOSE}
        rng = 0
    if cat in ("guided", "air_defence"):
        lvl = o.get("guidance") or cv.QUALITY_TO_DUSTUP[f.guidance or cv.DEFAULT_QUALITY]
        guidance = cv.LEVEL_DIE[lvl]
    for k in ("firepower", "firepower_vs_infantry"):
        if k in o:
            vals[k] = _dice(o[k])
    for k in ("impact_vs_armour", "impact_vs_infantry"):
        if k in o:
            vals[k] = o[k].lower()
    if "strike" in o:
        extra["strike"] = o["strike"].lower()
    if o.get("fire_control") and fire_control is not None:
        fire_control = o["fire_control"]
    mount = m.mount if not m.free else "remote"
    arc, deg = _arc(m, env, limbed)
    stab = f.stabilisation or ("average" if limbed and cat != "artillery" else cv.default_stabilisation(mount, cat))
    slaved = f.slaved if f.slaved is not None else (cat == "guided" and slaved_gms)
    return WeaponProfile(name=f.label() if not m.free else "APSW", type=f.code, category=cat, size=f.cls,
                         barrels=f.barrels, firepower=tuple(vals["firepower"]),
                         firepower_vs_infantry=tuple(vals["firepower_vs_infantry"]),
                         impact_vs_armour=vals["impact_vs_armour"], impact_vs_infantry=vals["impact_vs_infantry"],
                         fire_control=fire_control, guidance=guidance, effective_range=rng, mount=mount, arc=arc,
                         arc_degrees=deg, stabilisation=stab, slaved=bool(slaved), free=m.free, **extra)


def _dice(v) -> tuple[str, ...]:
    if isinstance(v, list):
        return tuple(x.lower() for x in v)
    t = v.lower()
    if t[0].isdigit():
        return (t[1:],) * int(t[0])
    return (t,)


def _arc(m: Mounted, env: str, limbed: bool) -> tuple[str, int | None]:
    """Arcs of fire (S002:643-647, 711, 842; seed 000 L1768-1788): RN-612."""
    f = m.fit
    if m.free:
        return "all_round", 360
    cat = f.wtype.category
    if cat == "artillery":
        return "front_180", 180
    if cat == "deadfall":
        return "below", None
    if limbed:
        return "front_180", 180
    if env == "air":
        if cat in ("guided", "air_defence"):
            return "front_180", 180  # guided weapons from aircraft: the forward 180 degrees (L1788)
        if m.mount == "fixed":
            return "corridor", None  # the 6" fire corridor (L1774)
    if m.mount == "turret":
        return ("restricted_180", 180) if f.traverse == 180 else ("all_round", 360)
    if f.arc == "front":
        return "front", 90
    return "fixed_30", 30


def _ecm_level(d: Design) -> str:
    if d.dustup.get("ecm"):
        return d.dustup["ecm"]
    if d.ecm == "none" or (d.ecm is None and d.kind == "large_creature"):
        return cv.NO_SYSTEM_LEVEL
    return cv.QUALITY_TO_DUSTUP[d.ecm or cv.DEFAULT_QUALITY]


def vehicle_profile(v: VehicleCheck, mob, signature: dict) -> VehicleProfile:
    d = v.d
    fc = cv.fire_control_level(d.fire_control or cv.DEFAULT_QUALITY)
    mounted = list(v.mounted)
    if d.military and not any(m.free for m in mounted):
        free = WeaponFit(index=-1, wtype=WEAPON_TYPES["APSW"], cls=1, barrels=1, mount=None, turret="main",
                         traverse=360, arc="centre_line", primary=False, guidance=None, stabilisation=None,
                         slaved=None, name="APSW", path="")
        mounted.append(Mounted(free, "remote", free=True))
    gms = sum(1 for m in mounted if m.fit.wtype.category == "guided")
    weapons = [weapon_profile(m, fc_level=fc, env=mob.environment, limbed=v.limbed, slaved_gms=gms > 1)
               for m in mounted if m.fit.wtype.category != "deadfall"]
    if v.limbed:  # weapons of the same type and class on a walker are one multiple mount (S002:844): RN-613
        weapons = _group_multiple_mounts(weapons)
    override = d.dustup.get("facings", {})
    classes = {**cv.dirtside_facings(d.armour), **override}
    open_top = d.kind == "open_top"
    special = d.special_armour[0] if len(d.special_armour) == 1 else None
    pds = [s.quality for s in d.systems if s.code == "PDS"]
    ads = [s.quality for s in d.systems if s.code == "ADS"]
    lvl = _ecm_level(d)
    t = d.transport
    air = None
    if mob.environment == "air":
        loads = sum(1 for m in v.mounted if m.fit.wtype.category == "deadfall")
        air = AirProfile(kind=mob.family, deadfall_loads=loads, landing_zone=cv.landing_zone(d.size))
    move = d.dustup.get("movement_die")
    return VehicleProfile(
        name=d.name, kind=d.kind, size=d.size, signature=signature["effective"],
        target_size=min(max(signature["effective"], 1), 5), mobility=d.mobility, mobility_type=mob.dustup,
        movement_die=move.lower() if move else cv.movement_die(d.mobility, mob.speed, mob.family, d.kind),
        armour_class=Facings(**{k: classes[k] for k in FACINGS}),
        armour=Facings(**{k: cv.armour_die(classes[k]) for k in FACINGS}),
        armour_vs_artillery=cv.armour_die(0) if open_top else None, open_top=open_top,
        soft_skinned=all(classes[k] == 0 for k in FACINGS), hatches=bool(d.dustup.get("hatches", False)),
        fire_ports=bool(d.dustup.get("fire_ports", False)), special_armour=special, ecm_level=lvl,
        ecm=cv.LEVEL_DIE[lvl], decoy=_best_die(pds), area_protection=_best_die(ads),
        apfc=any(s.code == "APFC" for s in d.systems), weapons=tuple(weapons),
        transport_figures=cv.transport_figures(t.get("line_infantry", 0), t.get("militia_infantry", 0),
                                               t.get("powered_infantry", 0)),
        cargo_loads=t.get("cargo_loads", 0), carried_vehicles=tuple(t.get("vehicles", [])),
        command_centre=any(s.code == "command" for s in d.systems),
        counter_battery_radar=any(s.code == "CBR" for s in d.systems), military=d.military,
        close_combat=v.limbed, can_tow=mob.dustup not in ("grav", "hover", "watercraft", "vtol", "aerospace"),
        air=air)


def _best_die(qualities: list[str]) -> str | None:
    """The die of the best of several systems (a vehicle uses one decoy, one area protection)."""
    return cv.system_die(max(qualities, key=("basic", "enhanced", "superior").index)) if qualities else None


def _group_multiple_mounts(weapons: list[WeaponProfile]) -> list[WeaponProfile]:
    out: list[WeaponProfile] = []
    for w in weapons:
        twin = next((o for o in out if not w.free and not o.free and o.type == w.type and o.size == w.size
                     and o.category == w.category), None)
        if twin is None:
            out.append(w)
        else:
            out[out.index(twin)] = replace(twin, barrels=twin.barrels + w.barrels)
    return out


# ---------------------------------------------------------------------------------------------------
# heavy weapons fielded on their own (man-packed, towed)
