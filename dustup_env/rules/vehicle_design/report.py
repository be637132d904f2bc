"""The text form of a design report (``dustup design check FILE``)."""
from __future__ import annotations

from .check import DesignReport, Violation
from .conversions import indirect_minimum_range
from .profile import FACINGS, HeavyWeaponDesignProfile, VehicleProfile, WeaponProfile
from .rules import RULES


def _die(d: str) -> str:
    """A die name as the rulebook prints it: D8, D12x3."""
    return "D" + d[1:]


def _dice(ds: tuple[str, ...]) -> str:
    if not ds:
        return "-"
    if len(set(ds)) == 1 and len(ds) > 1:
        return f"{len(ds)}{_die(ds[0])}"
    return " + ".join(_die(d) for d in ds)


def _violation(v: Violation) -> str:
    amount = ""
    if v.amount is not None:
        amount = f" [{v.value} against {v.limit}" + (f": over by {v.amount}" if v.amount > 0 else "") + "]"
    where = f" ({v.field})" if v.field else ""
    return f"{v.severity.upper()} {v.rule} ({v.source}, {RULES[v.rule].ref}){where}: {v.message}{amount}"


def _weapon(w: WeaponProfile, design_name: str = "") -> str:
    name = w.name + (f" x{w.barrels}" if w.barrels > 1 and f"x{w.barrels}" not in w.name else "")
    arc = {"all_round": "all round", "restricted_180": "restricted 180", "front_180": "front 180",
           "fixed_30": "fixed 30", "front": "front arc", "corridor": "6\" corridor", "below": "below"}[w.arc]
    bits = [f"{name}: size {w.size}, {w.mount.replace('_', '-')}, {arc}"]
    if w.category == "guided":
        bits.append(f"guidance {_die(w.guidance)}")
    elif w.category == "close_combat":
        bits.append(f"strike {_die(w.strike)}")
    elif w.category == "air_defence":
        bits.append(f"guidance {_die(w.guidance)}, firepower {_dice(w.firepower)}")
    elif w.category != "artillery":
        fp = _dice(w.firepower)
        fpi = _dice(w.firepower_vs_infantry)
        bits.append(f"firepower {fp}" + (f" (vs infantry {fpi})" if fpi != fp else ""))
    bits.append(f"impact {_die(w.impact_vs_armour)} vs armour, {_die(w.impact_vs_infantry)} vs infantry")
    if w.fire_control:
        bits.append(f"fire control {w.fire_control}")
    if w.category == "artillery":
        # the minimum range the engine uses (seed 000 L1600-1602: high-angle pieces only, 24" for a light mortar,
        # 48" for other rockets and mortars; none for a gun), by the design's and the weapon's names (RN-1460)
        least = indirect_minimum_range(w, design_name)
        bits.append(f"{w.round_size.replace('_', ' ')} rounds ({w.burst_radius}\" burst), "
                    + (f"minimum range {least:g}\" for indirect fire" if least else
                       "no minimum range (a gun: no indirect fire limit)"))
    if w.effective_range is None:
        bits.append("no range limit")
    elif w.effective_range:
        bits.append(f"effective range {w.effective_range}\"")
    if w.category not in ("close_combat",):
        bits.append(f"stabilisation {w.stabilisation}")
    if w.slaved:
        bits.append("slaved")
    return ", ".join(bits)


def format_report(r: DesignReport) -> str:
    status = "legal" if r.legal else f"ILLEGAL ({len(r.errors)} error{'s' if len(r.errors) != 1 else ''})"
    if r.warnings:
        status += f", {len(r.warnings)} warning{'s' if len(r.warnings) != 1 else ''}"
    lines = [f"{r.where}: {r.name} ({r.design.replace('_', ' ')} design): {status}"]
    for v in r.errors + r.warnings:
        lines.append("  " + _violation(v))
    for a in r.assumptions:
        lines.append(f"  assumed {a.field} = {a.value} ({a.reading})")
    ds = r.dirtside
    if r.design == "vehicle":
        size = f"class {ds['size']}" if ds["size"] else "modular"
        sig = ds["signature"]
        sig_s = f"signature {sig['basic']} -> {sig['effective']}" if sig.get("basic") else sig.get("note", "")
        f = ds["armour_facings"]
        mobility = ds["mobility"].replace("_", " ").replace("gev", "GEV").replace("rsw", "RSW")
        lines.append(f"  Dirtside II: {size}, {mobility}, {ds['power_plant']}, armour "
                     f"{ds['armour']} (front {f['front']}, sides/top/rear {f['side']}), {sig_s}")
        lines.append(f"    capacity {ds['capacity']}: used {ds['capacity_used']}, free {ds['capacity_free']}; "
                     f"weapon systems {ds['weapon_systems']} of {ds['weapon_systems_limit']}"
                     + (f"; primary {ds['primary_weapon']}" if ds["primary_weapon"] else ""))
        for item in ds["items"]:
            lines.append(f"    {item['capacity']:>4}  {item['item']}")
    else:
        lines.append(f"  Dirtside II: {ds['type']} class {ds['class']}, {ds['carriage'].replace('_', ' ')}, crew "
                     f"{ds['crew']}, signature {ds['signature']}, armour {ds['armour']}")
    p = r.profile
    if p is None:
        lines.append("  Dustup statistics: none (Dustup cannot field this design)")
    elif isinstance(p, VehicleProfile):
        lines.append("  Dustup statistics:")
        flags = [k.replace("_", " ") for k in ("open_top", "soft_skinned", "hatches", "fire_ports", "close_combat")
                 if getattr(p, k)]
        lines.append(f"    {p.kind.replace('_', ' ')}, size {p.size}, target size {p.target_size}"
                     + (f" ({', '.join(flags)})" if flags else ""))
        move = f"movement die {_die(p.movement_die)}" if p.movement_die else "moves by the aerospace rules"
        lines.append(f"    mobility {p.mobility_type.replace('_', ' ')}, {move}"
                     + ("" if p.can_tow else ", cannot tow"))
        arm = ", ".join(f"{k} {_die(getattr(p.armour, k))}" for k in FACINGS)
        lines.append(f"    armour {arm}" + (f"; {p.special_armour}" if p.special_armour else "")
                     + (f"; {_die(p.armour_vs_artillery)} against artillery and SLAM" if p.armour_vs_artillery
                        else ""))
        defence = [f"ECM {_die(p.ecm)} ({p.ecm_level.replace('_', ' ')})"]
        if p.decoy:
            defence.append(f"decoy {_die(p.decoy)}")
        if p.area_protection:
            defence.append(f"area protection {_die(p.area_protection)}")
        if p.apfc:
            defence.append("APFC")
        lines.append("    " + ", ".join(defence))
        for w in p.weapons:
            lines.append("    weapon " + _weapon(w, r.name))
        carry = []
        if p.transport_figures:
            carry.append(f"{p.transport_figures} figures")
        if p.cargo_loads:
            carry.append(f"{p.cargo_loads} cargo load{'s' if p.cargo_loads > 1 else ''}")
        if p.carried_vehicles:
            carry.append("vehicles of size " + ", ".join(map(str, p.carried_vehicles)))
        lines.append("    transport " + (", ".join(carry) if carry else "none"))
        other = [k.replace("_", " ") for k in ("command_centre", "counter_battery_radar") if getattr(p, k)]
        if p.air:
            other.append(f"{p.air.kind}: {p.air.deadfall_loads} dead-fall loads, landing zone {p.air.landing_zone}\"")
        if other:
            lines.append("    " + ", ".join(other))
    elif isinstance(p, HeavyWeaponDesignProfile):
        lines.append("  Dustup statistics:")
        lines.append(f"    {p.carriage.replace('_', ' ')}, crew {p.crew} (moves with {p.crew_to_move or '-'}, limbers "
                     f"with {p.crew_to_limber or '-'}, fires with {p.crew_to_fire}), target size {p.target_size}, "
                     f"armour {_die(p.armour)}, ECM {_die(p.ecm)}")
        lines.append("    weapon " + _weapon(p.weapon, r.name))
        extra = []
        if p.encumbers_crew:
            extra.append("encumbers its crew")
        task = "limber/unlimber" if p.carriage == "towed" else "set up/dismantle"
        extra.append(f"{p.set_up_actions} reorganise action to {task}")
        if p.tractor_size:
            extra.append(f"tractor size {p.tractor_size} or larger (Dustup towing: {p.tractor_size_dustup})")
        if p.remote:
            extra.append("may be set up as a remote launcher")
        lines.append("    " + ", ".join(extra))
    return "\n".join(lines)
