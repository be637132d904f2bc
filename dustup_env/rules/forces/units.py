"""Forces (seed 000 "FORCES"): building units from a scenario: unit types, leaders, quality, leadership,
confidence, commitment and fatigue (with the optional random tables).  The units themselves are
:mod:`dustup_env.rules.kernel.entities`.
"""
from __future__ import annotations

import math

from ..kernel.battlefield import VEHICLE_AMPHIBIOUS_WATER, terrain_column, vehicle_column
from ..kernel.data import DEFAULT_WEAPON, armoury  # DEFAULT_WEAPON: "The average small arm" (RN-019)
from ..kernel.dice import D4, D6, D8, D10, D12, DiceSource, parse_die
from ..kernel.entities import CONFIDENCE_NAMES, CONFIDENT, SHAKEN, STEADY, Figure, Unit
from ..kernel.ruleset import Option, Rule
from ..armoured_dustup.vehicles import vehicle_fields
from ..kernel.state import copy_unit


COMMITMENTS = ("low", "medium", "high")
FATIGUE_CONFIDENCE = {"fresh": CONFIDENT, "tired": STEADY, "exhausted": SHAKEN}

QUALITY_NAMES = {D4: "untrained", D6: "green", D8: "experienced", D10: "veteran", D12: "elite"}
MOVEMENT_DIE = {"encumbered": D4, "infantry": D6, "fast": D8, "cavalry": D10}
SENSORS = {"unaided": D4, "aided": D6, "enhanced": D8, "superior": D10}


def compact_offsets(n: int, leader: int = 0) -> list[tuple[float, float]]:
    """A compact two-rank formation of ``n`` figures centred on the leader (well inside 6")."""
    per_rank = max(1, min(5, math.ceil(n / 2)))
    out = []
    for i in range(n):
        rank, file_ = divmod(i, per_rank)
        out.append(((file_ - (per_rank - 1) / 2) * 1.5, rank * 1.5 - 0.75 * (math.ceil(n / per_rank) - 1)))
    # the leader takes the slot nearest the formation's centre (a corner leader left a 9- or
    # 10-figure squad more than 6" from its far corner: disorganised from the start)
    c = min(range(n), key=lambda i: (out[i][0] ** 2 + out[i][1] ** 2, i))
    out[leader], out[c] = out[c], out[leader]
    lx, ly = out[leader]
    return [(x - lx, y - ly) for x, y in out]


def random_quality(dice: DiceSource) -> int:
    """Optional random quality table (D6): 1 green, 2-5 experienced, 6 veteran."""
    r = dice.roll(D6)
    return D6 if r == 1 else (D10 if r == 6 else D8)


def random_leadership(dice: DiceSource) -> int:
    """Optional random leadership table (D6): 1 poor (LV3), 2-5 average (LV2), 6 inspirational (LV1)."""
    r = dice.roll(D6)
    return 3 if r == 1 else (1 if r == 6 else 2)


def random_confidence(dice: DiceSource, start: int = CONFIDENT) -> int:
    """Optional random initial confidence: D6, a 1 drops one level and re-rolls; a second 1 drops another.

    The drops apply from the fatigue level ``start`` but never below shaken (rules-notes RN-017).
    """
    if dice.roll(D6) != 1:
        return start
    if dice.roll(D6) != 1:
        return max(start, min(SHAKEN, start + 1))
    return max(start, min(SHAKEN, start + 2))


def build_unit(uid: int, side: int, spec: dict, side_commitment: str, armours: dict, dice: DiceSource,
               where: str = "") -> Unit:
    q = spec.get("quality", "d8")
    quality = random_quality(dice) if q == "random" else parse_die(q)
    lv = spec.get("leadership", 2)
    lv = random_leadership(dice) if lv == "random" else int(lv)
    conf = spec.get("confidence")
    if conf == "random":
        confidence = random_confidence(dice, FATIGUE_CONFIDENCE[spec.get("fatigue", "fresh")])
    elif conf is not None:
        confidence = CONFIDENCE_NAMES.index(conf)
    else:
        confidence = FATIGUE_CONFIDENCE[spec.get("fatigue", "fresh")]
    if "design" in spec:  # a vehicle, mech or large creature (armoured_dustup/vehicles.py)
        v = vehicle_fields(spec, where or f"unit {spec['name']!r}")
        x, y = spec["position"]
        return Unit.new(uid=uid, side=side, name=spec["name"], quality=quality, lv=lv, confidence=confidence,
                        initial_confidence=confidence,
                        commitment=COMMITMENTS.index(spec.get("commitment", side_commitment)), x=float(x), y=float(y),
                        hidden=bool(spec.get("hidden", False)), was_hidden=bool(spec.get("hidden", False)),
                        sensor=SENSORS[spec.get("sensor", "unaided")], strength=1,
                        second_in_command=bool(spec.get("second_in_command", False)),
                        terror=bool(spec.get("terror", False)), night_vision=bool(spec.get("night_vision", False)),
                        inbound=int(spec.get("inbound", 0)), **v)
    fspecs = [f for f in spec["figures"] for _ in range(f.get("count", 1))]
    figures = [Figure(f.get("weapon", DEFAULT_WEAPON), dx=dx, dy=dy, medic=bool(f.get("medic", False)))
               for f, (dx, dy) in zip(fspecs, compact_offsets(len(fspecs)))]
    kind = spec.get("kind", "single" if len(figures) == 1 else "squad")
    x, y = spec["position"]
    armour = spec.get("armour", "basic_battledress")
    movement_class = spec.get("movement", "infantry")
    movement = MOVEMENT_DIE[movement_class]
    cavalry = movement_class == "cavalry"
    amphibious = bool(spec.get("amphibious", False))
    wading = bool(spec.get("wading", False))
    mobility = spec.get("mobility", "")  # vehicular cavalry: D12 on its vehicle table while mounted (Cavalry)
    mounted = cavalry and bool(spec.get("mounted", True))
    column = terrain_column(armours[armour].power_armour, amphibious, wading)
    if mobility:
        movement = D12
        if mounted:
            column = vehicle_column(mobility, amphibious and mobility in VEHICLE_AMPHIBIOUS_WATER)
    return Unit.new(uid=uid, side=side, name=spec["name"], kind=kind, quality=quality, lv=lv,
                confidence=confidence, initial_confidence=confidence,
                commitment=COMMITMENTS.index(spec.get("commitment", side_commitment)),
                movement=movement, armour=armour, x=float(x), y=float(y), figures=figures,
                grenades=bool(spec.get("grenades", False)), hidden=bool(spec.get("hidden", False)),
                was_hidden=bool(spec.get("hidden", False)), sensor=SENSORS[spec.get("sensor", "unaided")],
                size=int(spec.get("size", 1)), strength=len(figures),
                second_in_command=bool(spec.get("second_in_command", False)), terror=bool(spec.get("terror", False)),
                cc_impact=parse_die(spec.get("cc_impact", "d6")), night_vision=bool(spec.get("night_vision", False)),
                medical_team=bool(spec.get("medical_team", False)), cavalry=cavalry,
                mounted=mounted, mobility=mobility,
                specialist_grenade=spec.get("specialist_grenade", ""),
                terrain_column=column,
                amphibious=amphibious, wading=wading, heavy_equipment=bool(spec.get("heavy_equipment", False)),
                inbound=int(spec.get("inbound", 0)))


_BUILT: dict = {}  # id(scenario document) -> (document, units, side_units): the units as built without random tables


def build_units(game) -> None:
    """The game's units from its scenario, side by side in the order listed (the random tables of the options
    roll here, in that order).  Without random tables the units of a scenario are always the same: they are
    built once and copied."""
    opts = game.options
    fixed = not (opts["random_quality"] or opts["random_leadership"] or opts["random_confidence"])
    if fixed:
        hit = _BUILT.get(id(game.scenario))
        if hit is not None and hit[0] is game.scenario:
            game.units.extend(copy_unit(u) for u in hit[1])
            game.side_units[0].extend(hit[2][0])
            game.side_units[1].extend(hit[2][1])
            return
    armours = armoury()[1]
    for s, side in enumerate(game.scenario["sides"]):
        for i, spec in enumerate(side["units"]):
            spec = dict(spec)
            if opts["random_quality"]:
                spec["quality"] = "random"
            if opts["random_leadership"]:
                spec["leadership"] = "random"
            if opts["random_confidence"]:
                spec["confidence"] = "random"
            u = build_unit(len(game.units), s, spec, side.get("commitment", "medium"), armours, game.dice,
                           f"sides/{s}/units/{i} ({spec['name']!r})")
            game.units.append(u)
            game.side_units[s].append(u.uid)
    if fixed:
        if len(_BUILT) > 256:
            _BUILT.clear()
        _BUILT[id(game.scenario)] = (game.scenario, [copy_unit(u) for u in game.units],
                                     (list(game.side_units[0]), list(game.side_units[1])))


RULE = Rule(
    "Forces", 'seed 000 "FORCES" (Unit Types .. Fatigue); "Unit Quality", "Leadership", "Confidence" (the optional '
    'random tables)',
    options=(Option("random_quality", False, "the optional random quality table (replaces the scenario's)"),
             Option("random_leadership", False, "the optional random leadership table"),
             Option("random_confidence", False, "the optional random initial confidence")),
    init=(build_units,))
