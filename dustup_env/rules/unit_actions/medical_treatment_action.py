"""Medical Treatment Action and Power Armour Troops as Casualties (seed 000, both under
"Medical Treatment Action").

Medical treatment: "It takes one action to treat all of the wounded in a unit.  For each casualty,
roll a D6 ... 1-2 killed, 3-5 stabilised (wound marker), 6+ resume normal duty.  If the unit
contains a trained medic, use a D8.  If the unit is being treated by a dedicated medical team, use
a D10.  A medic from another unit can treat a unit, but must have first moved to within 2 inches
of the treated unit's leader."

``("treat", uid)``: the acting unit treats the untreated wounded (``WOUNDED``) figures of unit
``uid``: itself (D6; D8 with an able-bodied medic figure; D10 if it is a medical team), or another
friendly unit when one of its able-bodied medics (any able figure of a medical team) stands within
2" of that unit's leader (D8; D10 for a medical team).  Not while suppressed or disorganised.
Scenario fields: figure ``"medic": true``, unit ``"medical_team": true``.

Power armour: "as soon as a power armoured trooper is hit, roll a D6 ... 1 killed; 2-4 stabilised
(wound marker); 5 unhurt but the suit is wrecked (disabled marker); 6+ resume normal duty."  The
roll replaces the *wound* result of the impact roll for a figure in power armour (an impact that
kills still kills; see docs/rules-notes.md RN-230, RN-231).  A disabled figure (``DISABLED``) cannot act
and is left behind when its unit moves.  Optional rule (game option ``power_armour_extraction``):
``("reorganise", "extract")`` turns one disabled figure into an unarmoured (armour ``none``)
able-bodied figure carrying on with the unit.
"""
from __future__ import annotations

import math

from ..kernel.attack import infantry_damage

from ..kernel.dice import D6, D8, D10, die_name
from ..kernel.events import Event, event
from ..kernel.entities import DISABLED, KILLED, OK, TREATED, WOUNDED, Unit
from ..kernel.ruleset import Family, Option, Rule

MEDIC_RANGE = 2.0


@event
class MedicalTreatment(Event):
    unit: int  # the treating unit
    target: int
    die: str
    rolls: tuple
    killed: int
    stabilised: int
    returned: int


@event
class PowerArmourHit(Event):
    unit: int
    figure: int
    roll: int
    result: str  # killed | stabilised | disabled | unhurt


@event
class OccupantExtracted(Event):
    unit: int
    figure: int


def _able_medics(u: Unit) -> list[int]:
    if u.profile.medical_team:
        return u.able()
    return [i for i in u.able() if u.figures[i].medic]


def treatment_die(healer: Unit, own: bool) -> int:
    if healer.medical_team:
        return D10
    if _able_medics(healer):
        return D8
    return D6 if own else -1


def _medic_in_reach(healer: Unit, t: Unit) -> bool:
    lf = healer.figures[healer.leader]
    bx, by = healer.x - lf.dx, healer.y - lf.dy
    for i in _able_medics(healer):
        f = healer.figures[i]
        if math.hypot(bx + f.dx - t.x, by + f.dy - t.y) <= MEDIC_RANGE + 1e-9:
            return True
    return False


def _options(game, u: Unit, status) -> list:
    opts = []
    if not status.suppressed and not status.disorganised:
        if u.n_untreated():
            opts.append(("treat", u.uid))
        if u.medical_team or any(f.medic and f.status == OK for f in u.figures):  # = _able_medics(u) non-empty
            for uid in game.side_units[u.side]:
                t = game.units[uid]
                if t is not u and t.in_play and t.n_untreated() and _medic_in_reach(u, t):
                    opts.append(("treat", uid))
    if (game.options["power_armour_extraction"] and (not status.suppressed or status.in_cover)
            and not status.disorganised):
        for f in u.figures:
            if f.status == DISABLED:
                opts.append(("reorganise", "extract"))
                break
    return opts


def treat(game, healer: Unit, t: Unit) -> None:
    die = treatment_die(healer, healer is t)
    rolls = []
    killed = stabilised = returned = 0
    for i, f in enumerate(t.figures):
        if f.status != WOUNDED:
            continue
        r = game.dice.roll(die)
        rolls.append(r)
        if r <= 2:
            t.set_figure(i, status=KILLED)
            killed += 1
        elif r <= 5:
            t.set_figure(i, status=TREATED)
            stabilised += 1
        else:
            t.set_figure(i, status=OK, wounds=0)
            returned += 1
    if t.leader_lost and t.figures[t.leader].status == OK:
        t.leader_lost = False  # the leader is patched up and resumes command
    game.emit(MedicalTreatment(healer.uid, t.uid, die_name(die), tuple(rolls), killed, stabilised, returned))


def _do_treat(game, u: Unit, opt) -> None:
    treat(game, u, game.units[opt[1]])


def power_armour_damage(game, t: Unit, fi: int, effect: str) -> str:
    """The damage of a hit on a power-armoured figure: the casualty table replaces a wound result (a kill still
    kills; a wound on a trooper already wounded kills as for anyone)."""
    f = t.figures[fi]
    if effect != "wound" or f.status not in (OK, DISABLED):
        return infantry_damage(game, t, fi, effect)
    r = game.dice.roll(D6)
    if r == 1:
        t.set_figure(fi, status=KILLED)
        result = "killed"
    elif r <= 4:
        t.set_figure(fi, status=TREATED, wounds=1)
        result = "stabilised"
    elif r == 5:
        t.set_figure(fi, status=DISABLED)
        result = "disabled"
    else:
        result = "unhurt"
    game.emit(PowerArmourHit(t.uid, fi, r, result))
    return result


def _extract(game, u: Unit) -> None:
    for i, f in enumerate(u.figures):
        if f.status == DISABLED:
            u.set_figure(i, status=OK, armour="none", wounds=0)
            game.emit(OccupantExtracted(u.uid, i))
            return


FAMILIES = (Family("treat", ("own",), 27, "Medical Treatment Action on this unit"),)
RULE = Rule("Medical Treatment Action", 'seed 000 "Medical Treatment Action", "Power Armour Troops as Casualties"',
            families=FAMILIES,
            options=(Option("power_armour_extraction", False, "optional: extract the occupant of a wrecked power "
                            "armour suit (reorganise 'extract')"),),
            actions={"treat": _do_treat}, action_options=(_options,), damage={"power_armour": power_armour_damage},
            reorganise={"extract": _extract})
