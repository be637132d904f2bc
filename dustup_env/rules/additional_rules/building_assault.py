"""Seed 004's building assault (S004:87-139) as the game option ``building_assault: "d20"``, translated to Dustup's
dice (the default, ``"dustup"``, keeps Dustup's own Assault Action for units in buildings).

With the option, an assault on an enemy unit occupying a building (its leader inside a building the scenario
declared, :mod:`.buildings`) is ``("building_assault", enemy)`` in place of ``("assault", enemy)``: the attacking
element must be within 6" of the building (S004:93, measured from its leader to the outline) and have two able
figures at least (S004:97: "a minimum of two assaulters per room"); otherwise the Assault Action's own conditions
(not suppressed, propped, disorganised or shaken, the target not completely concealed).  It takes the rest of the
attacker's activation, as an assault does, and marks both units activated.  The building's ``rooms`` (scenario,
default 1; Dustup buildings have no rooms, RN-1710) are cleared one after another; the defender's able figures are
dealt to the rooms in turn (figure i to room i mod rooms).  For each room with defenders in it:

1. if fewer than two assaulters are able, the assault stops (S004:97);
2. **grenade** (S004:98-105, RN-1711): one grenade; each defender in the room rolls a D10 (the d20 table's 13+ is
   8 chances in 20, a D10's 7+ is 4 in 10): 7+ "Combat Ineffective": a casualty (wounded); else "Stunned".  Anyone
   stunned or hit: the defending unit takes a suppression marker ("Suppressed" / "treated as Pinned");
3. **follow-up melee** (S004:107-139, RN-1712): every able assaulter and every able defender in the room rolls its
   unit's quality die, shifted: two down when its unit is suppressed (-6 on a d20), one down when propped (the
   "Hesitant" element lies prone, -2), one up per pistol or shotgun among its fighters (each "SMG" +4), one up per
   fighter over the other side's number (+4 each); a success is a 4 or more, a roll of the die's highest face a
   critical.  More successes: one enemy casualty; a tie of successes: a deadlock, and when the defenders are
   outnumbered one casualty each; both miss: nothing.  Each critical adds a casualty on the other side ("a roll of
   1 always inflicts an additional casualty": the d20 system's best roll).  Casualties are allocated at random.
   If defenders of the room are still able, the assault stops there (they hold the room).

When the building is cleared (the defending unit has no able figure left) the attacker occupies it (its leader
where the defender's stood).  Each unit that lost figures then tests as any unit with casualties (S004's "-2 Element
Morale" per casualty, RN-1713).  Readings: docs/rules-notes.md section 52.
"""
from __future__ import annotations

from ..kernel.attack import allocate, damage_kind, infantry_damage
from ..kernel.dice import D10, D12, die_name, die_sides, shift_closed
from ..kernel.entities import OK, STEADY, Unit
from ..kernel.events import Event, Suppressed, event
from ..kernel.errors import IllegalOptionError
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.table import place
from .buildings import building_of, distance_to, has_buildings

REACH = 6.0  # S004:93
MIN_ASSAULTERS = 2  # S004:97
GRENADE_DIE, GRENADE_CASUALTY = D10, 7  # S004:103-105: 13+ on a d20 (40%) is 7+ on a D10 (40%)
SUCCESS = 4  # a melee success: 4 or more on the shifted quality die
SUPPRESSED_SHIFT, HESITANT_SHIFT = -2, -1  # -6 and -2 on a d20
SMG_WEAPONS = ("pistol", "shotgun")  # RN-1712: Dustup's close-quarters weapons stand for the SMGs
MAX_SUPPRESSION = 3


@event
class BuildingAssaulted(Event):
    attacker: int
    defender: int
    entity: int
    rooms: int


@event
class GrenadeThrown(Event):
    """S004:98-105: one grenade into a room; each defender's D10 (7+: a casualty, else stunned)."""
    attacker: int
    defender: int
    room: int
    rolls: tuple
    casualties: int


@event
class RoomMelee(Event):
    """S004:107-139: the follow-up melee in one room."""
    room: int
    attacker_die: str
    attacker_rolls: tuple
    defender_die: str
    defender_rolls: tuple
    outcome: str  # attacker | defender | deadlock | miss
    attacker_casualties: int
    defender_casualties: int


@event
class BuildingAssaultEnded(Event):
    attacker: int
    defender: int
    entity: int
    cleared: bool
    rooms_cleared: int


def _applies(scenario: dict, options: dict) -> bool:
    return options.get("building_assault") == "d20" and has_buildings(scenario, options)


def _assault_svc(game):
    return game.rules.services.get("assault")


def may_assault_building(game, u: Unit, e: Unit) -> dict | None:
    """The building ``e`` occupies if ``u`` may assault it room by room now, else None."""
    svc = _assault_svc(game)
    if svc is None or not svc.may_assault(game, u) or u.n_able() < MIN_ASSAULTERS:
        return None
    if e.complete_concealment or not e.in_play or e.profile.vehicle is not None:
        return None
    b = building_of(game, e)
    if b is None or building_of(game, u) is b:
        return None
    if distance_to(b, u.x, u.y) > REACH + 1e-9:
        return None
    return b


def _options(game, u: Unit, status) -> list:
    if status.suppressed or status.disorganised or u.propped or u.confidence > STEADY:
        return []
    return [("building_assault", e.uid) for e in game.enemy_units(u.side) if may_assault_building(game, u, e)]


def _filter(game, u: Unit, opts: list) -> list:
    """Dustup's own Assault Action is not offered against a unit in a building: the building assault replaces it."""
    units = game.units
    return [o for o in opts if not (o[0] == "assault" and building_of(game, units[o[1]]) is not None)]


def melee_die(u: Unit, fighters: list[int], others: int) -> int:
    """RN-1712: the unit's quality die shifted for the Assault Modifiers table (S004:117-126)."""
    shift = 0
    if u.suppression > 0:
        shift += SUPPRESSED_SHIFT
    if u.propped:
        shift += HESITANT_SHIFT
    shift += sum(1 for i in fighters if u.figures[i].weapon in SMG_WEAPONS)
    shift += max(0, len(fighters) - others)
    return shift_closed(u.quality, shift, max_step=D12)


def _casualty(game, t: Unit, fi: int) -> None:
    """A casualty ("dead, wounded, or has run away"): the figure is wounded (RN-1711)."""
    game.rules.damage.get(damage_kind(game, t, fi), infantry_damage)(game, t, fi, "wound")


def _mark_suppressed(game, t: Unit) -> None:
    if t.suppression < MAX_SUPPRESSION:
        t.suppression += 1
    t.suppressed_before = True
    game.emit(Suppressed(t.uid, t.suppression))


def _hit(game, t: Unit, pool: list[int], n: int) -> int:
    """``n`` casualties at random among ``pool`` (still able); the number dealt."""
    dealt = 0
    for _ in range(n):
        alive = [i for i in pool if t.figures[i].status == OK]
        if not alive:
            break
        _casualty(game, t, allocate(game.dice, alive, 1)[0])
        dealt += 1
    return dealt


def _room(game, a: Unit, d: Unit, room: int, figs: list[int]) -> bool:
    """One room (its defenders ``figs``): the grenade, then the melee.  Whether the room is cleared."""
    rolls = tuple(game.dice.roll(GRENADE_DIE) for _ in figs)
    hit = [fi for fi, r in zip(figs, rolls) if r >= GRENADE_CASUALTY]
    for fi in hit:
        _casualty(game, d, fi)
    game.emit(GrenadeThrown(a.uid, d.uid, room, rolls, len(hit)))
    if figs and d.in_play:
        _mark_suppressed(game, d)  # stunned (Suppressed) or a casualty (Pinned)
    left = [fi for fi in figs if d.figures[fi].status == OK]
    if not left:
        return True
    att = a.able()
    adie, ddie = melee_die(a, att, len(left)), melee_die(d, left, len(att))
    arolls = tuple(game.dice.roll(adie) for _ in att)
    drolls = tuple(game.dice.roll(ddie) for _ in left)
    asucc, dsucc = sum(r >= SUCCESS for r in arolls), sum(r >= SUCCESS for r in drolls)
    acrit = sum(r == die_sides(adie) for r in arolls)
    dcrit = sum(r == die_sides(ddie) for r in drolls)
    on_d, on_a = acrit, dcrit
    if asucc > dsucc:
        outcome = "attacker"
        on_d += 1
    elif dsucc > asucc:
        outcome = "defender"
        on_a += 1
    elif asucc:
        outcome = "deadlock"
        if len(att) > len(left):  # the defender is outnumbered: one casualty each
            on_d += 1
            on_a += 1
    else:
        outcome = "miss"
    dealt_d = _hit(game, d, left, on_d)
    dealt_a = _hit(game, a, att, on_a)
    game.emit(RoomMelee(room, die_name(adie), arolls, die_name(ddie), drolls, outcome, dealt_a, dealt_d))
    return not any(d.figures[fi].status == OK for fi in left)


def _assault(game, u: Unit, opt):
    from ..armoured_dustup.vehicle_damage import passengers_test
    d = game.units[opt[1]]
    b = may_assault_building(game, u, d)
    if b is None:
        raise IllegalOptionError(f"{opt!r}: that unit cannot be assaulted in its building now")
    rooms = b["state"]["rooms"]
    game.emit(BuildingAssaulted(u.uid, d.uid, b["id"], rooms))
    u.activated = d.activated = True
    before = {x.uid: [f.status for f in x.figures] for x in (u, d)}
    dx, dy = d.x, d.y
    able = d.able()
    cleared = 0
    for room in range(rooms):
        figs = [fi for k, fi in enumerate(able) if k % rooms == room and d.figures[fi].status == OK]
        if not figs:
            cleared += 1
            continue
        if u.n_able() < MIN_ASSAULTERS:
            break
        if not _room(game, u, d, room, figs):
            break
        cleared += 1
    done = not d.in_play or d.n_able() == 0
    if done and u.in_play:
        place(game, u, dx, dy, "building_assault")
    game.emit(BuildingAssaultEnded(u.uid, d.uid, b["id"], done, cleared))
    passengers_test(game, before)  # each unit that lost figures tests as any unit with casualties
    below = game.activation_frame()
    return below.actions_left if below is not None else None


RULE = Rule(
    "Building assault (seed 004)", 'seed 004 "BUILDING ASSAULT" (S004:87-139), translated to Dustup dice',
    options=(Option("building_assault", "dustup", "assaults on units in buildings: 'dustup' (the Assault Action) or "
                    "'d20' (seed 004's room-by-room building assault, translated: RN-1710..RN-1713)",
                    kind="choice", choices=("dustup", "d20")),),
    applies=_applies,
    families=(Family("building_assault", ("enemy",), 242,
                     "seed 004 building assault: a grenade per room, then the follow-up melee (option d20)"),),
    action_options=(_options,),
    action_filters=(_filter,),
    actions={"building_assault": _assault},
)
