"""What one side may know of a game: the only door through which the built-in bots read the engine.

Fair play: an AI opponent decides only from what its side may know.  :class:`Knowledge` gives a bot

- its own units, fully (``own_units``, ``units[uid]``);
- the enemy units it knows of: in play and not hidden (``enemy_units``, ``units[uid]``); asking for a
  hidden enemy unit raises :class:`HiddenInformationError` (a bot never gets a hidden unit's identity,
  position or state: only its marker, and only by position);
- hidden-unit markers by position (``markers``; for its own markers also which unit they hide);
- what both sides see: the table (``bf``: terrain, line of sight), objectives, turn, the pending decision,
  and read-only previews of its own options (``fire_plan``, ``move_end`` and its ``move_blockers``, ``home_point``,
  ``assault_enemies``; with vehicles ``vehicle_fire_plan``, ``courage_dice``, ``close_attack_impact``, ``shock_reach``, ``dismount_point``);
- its filtered event log (``event_log()``) and plain-data view (``view()``).

It never exposes the dice, the full event log, the decision stack or the game object itself.  A bot that
needs a guess about what it cannot know must determinise over the unknown (e.g. sample the markers),
never read the truth.  Every engine name the bots use is read here (and only here), so a rename in the
engine is one change in this file.
"""
from __future__ import annotations

import math
import weakref

from dustup_env.rules.kernel.knowledge import HIDDEN, marker_view, unit_knowledge
from dustup_env.rules.kernel.table import known_entities


# ---------------------------------------------------------------------------------------------- engine names
# Every engine name the bots read, in one place.
def enemy_units(game, side: int):
    """The enemy units ``side`` knows of (in play, not hidden)."""
    return game.enemy_units(side)


def home_point(game, u) -> tuple[float, float]:
    """The point of ``u``'s home edge straight behind it."""
    return game.home_point(u)


def assault_frames(game) -> list:
    """The pending close-assault procedure frames, innermost first."""
    return [f for f in reversed(game.stack) if f.type == "assault"]


def vehicle_weapon_plan(game, v, t, weapon: int) -> dict | None:
    """Fire by Vehicles' preview of one weapon of vehicle ``v`` at ``t`` (None without the vehicle rules)."""
    if v.profile.vehicle is None:
        return None
    from dustup_env.rules.armoured_dustup.fire_by_vehicles import weapon_plan
    return weapon_plan(game, v, t, weapon)


def courage_dice(game, att, dfn) -> tuple[int, int]:
    """The dice of the opposed courage test of an assault between infantry and a vehicle (Close Assault's
    Infantry Assaulting Vehicles, Tank Shock): ``close_assault.vehicle_courage`` without the roll."""
    from dustup_env.rules.armoured_dustup.close_assault import OUTNUMBER_ROWS, assault_units, outnumbering_shifts
    from dustup_env.rules.kernel.dice import shift_open_both
    from dustup_env.rules.unit_actions.assault_action import courage_shifts
    a_sh = courage_shifts(game, att, dfn, defender=False, final=False, skip=OUTNUMBER_ROWS) \
        + outnumbering_shifts(game, assault_units(att), assault_units(dfn))
    d_sh = courage_shifts(game, dfn, att, defender=True, final=False, skip=OUTNUMBER_ROWS) \
        + outnumbering_shifts(game, assault_units(dfn), assault_units(att))
    return shift_open_both(att.quality, sum(s for _, s in a_sh), dfn.quality, sum(s for _, s in d_sh))


def close_attack_impact(u) -> int:
    """The impact of the one attack infantry make on a vehicle (their best grenade or close-combat impact)."""
    from dustup_env.rules.armoured_dustup.close_assault import attack_impact
    return attack_impact(u)


def dismount_point(game, v, u, direction: int):
    """Where the leader of ``u`` stands after dismounting on side ``direction`` of ``v`` (None: not there)."""
    from dustup_env.rules.armoured_dustup.transport import dismount_positions
    pos = dismount_positions(game, v, u, direction)
    return None if pos is None else pos[u.leader]


def shock_reach(v) -> float:
    """How far a vehicle may tank-shock (twice its maximum move in the open)."""
    from dustup_env.rules.armoured_dustup.tank_shock import reach
    return reach(v)


def move_blockers(game, u) -> list:
    """The points ``u``'s walk stops 2" from: the enemy figures and markers its side knows of and the rule set's
    ``move_blockers`` (the blockers the move itself uses)."""
    from dustup_env.rules.unit_actions.move_action import enemy_figures
    blockers = enemy_figures(game, u)
    for hook in game.rules.move_blockers:
        blockers.extend(hook(game, u))
    return blockers


def move_end(game, u, px: float, py: float, points: float, blockers=None) -> tuple[float, float]:
    """Where ``u``'s leader would stop walking toward (px, py) with ``points`` movement points: the Move Action's
    walk over the terrain and obstacles, kept 2" from the enemy figures and markers ``u``'s side knows of (the
    blockers the move itself uses, :func:`move_blockers`, or ``blockers`` when given: that list, made for the
    same unit in the same state of the game; no step hooks: nothing is triggered)."""
    from dustup_env.rules.unit_actions.move_action import move_path
    if blockers is None:
        blockers = move_blockers(game, u)
    return move_path(game.bf, u, px, py, points, blockers, u.terrain_column)


class HiddenInformationError(LookupError):
    """A bot asked for something its side may not know (a hidden enemy unit)."""


# id(game) -> (a weak reference to the game, its token).  A weak reference without a callback: a
# WeakKeyDictionary runs Python code (its removal callback) whenever a game is freed, thousands of times a second in
# a search, and a Ctrl-C arriving there is only printed by Python ("Exception ignored in"), never raised.  An entry
# of a freed game is replaced when its id is reused, and the dead ones are dropped when the table has doubled.
_TOKENS: dict = {}
_TOKENS_PRUNE = [4096]


def fire_support(game, side: int) -> dict | None:
    """The side's own fire support (None without the rules): its assets (firer, burst radius, rounds, delay in turns
    (0: at the firing unit's next activation), the firing unit, missions left), its chits and its own missions (the
    real aim point of each: the side placed it) with their state; nothing of the enemy's."""
    from dustup_env.rules.artillery_and_air_support import fire_missions, fire_support_request as fsr, impacts
    if fsr.fire_support_state(game) is None:
        return None
    left = fsr.missions_left(game, side)
    out = []
    for i, a in enumerate(fsr.assets(game, side)):
        size = a["size"]
        if size is None:
            size = fire_missions.mission_size(game, a)
        least = 0.0
        if a["unit"] is not None:
            from dustup_env.rules.artillery_and_air_support import on_table_artillery as ota
            least = ota.indirect_minimum(game, game.units[a["unit"]])
        out.append({"asset": i, "firer": a["firer"], "radius": impacts.burst_radius(size), "rounds": a["rounds"],
                    "minimum": least,
                    "delay": fire_missions.DELAY.get(a["firer"], 0), "unit": a["unit"], "from": a["from"],
                    "difficulty": a["difficulty"], "left": left[i]})
    missions = []
    for m in fire_missions.missions(game, side):
        e = game.entities[m["real"]]
        missions.append({"n": m["n"], "asset": m["asset"], "state": m["state"], "x": e["x"], "y": e["y"],
                         "requestor": m["requestor"]})
    due = [m["n"] for m in fire_missions.due(game, side)]
    return {"assets": out, "chits": fsr.chits_left(game, side), "missions": missions, "due": due}


def request_odds(game, u, asset: int, chits: int) -> float:
    """P(success) of ``u``'s request for its side's ``asset`` spending ``chits`` (the roll only; jamming unknown)."""
    from dustup_env.rules.artillery_and_air_support import fire_support_request as fsr
    from dustup_env.rules.kernel.dice import die_sides, shift_closed
    a = fsr.assets(game, u.side)[asset]
    die = shift_closed(fsr.D8, chits - fsr.FROM_SHIFT[a["from"]])
    role = fsr.observer_role(game, u.uid)
    needed = u.lv + (fsr.difficulty(role, fsr.FIRERS[a["firer"]]) if a["difficulty"] is None else a["difficulty"])
    n = die_sides(die)
    return max(0, n - needed) / n


def observer_role(game, u) -> str:
    from dustup_env.rules.artillery_and_air_support import fire_support_request as fsr
    return fsr.observer_role(game, u.uid)


def aircraft_state(game, side: int, u) -> dict | None:
    """The flight state of aircraft ``u`` as ``side`` may know it (None: not an aircraft): what the table shows of
    any aircraft (``mode``: airborne, hovering, grounded, off, destroyed, wrecked; ``kind``: vtol, aerospace, grav),
    and of the side's own also ``flown`` (this activation), ``heavy`` (landed heavily), ``bombs`` (deadfall loads
    left), ``location`` (table, loiter, air_inbound, air_base) and the landing-zone radius ``lz``."""
    from dustup_env.rules.aerospace_operations import air, ordnance
    a = air.air_state(game, u)
    if a is None:
        return None
    out = {"mode": a["mode"], "kind": air.kind(u)}
    if u.side == side:
        ap = u.profile.vehicle.air
        out.update(flown=a["flown"], heavy=a["heavy"], bombs=ordnance.loads(game, u), location=u.location,
                   lz=(ap.landing_zone if ap is not None else 6) / 2.0)
    return out


def aa_reach(game, u) -> float | None:
    """The effective range of ``u``'s anti-aircraft weapon (its profile: a vehicle's or a heavy weapon team's weapon of
    the air-defence category; whether it is set up is not asked), None without one."""
    ws = []
    if u.profile.vehicle is not None:
        ws = list(u.profile.vehicle.weapons)
    else:
        from dustup_env.rules.armoured_dustup import heavy_weapons as hw
        prof = hw.weapon_of(game, u)
        if prof is not None:
            ws = [prof.weapon]
    for w in ws:
        if w.category == "air_defence":
            return float(w.effective_range) if w.effective_range is not None else 1e9
    return None


def aa_fired(game, uid: int) -> bool:
    """Whether unit ``uid`` fired at aircraft this turn (the fire is seen by both sides)."""
    from dustup_env.rules.aerospace_operations import air
    return air.aa_fired(game, uid)


def air_geometry() -> dict:
    """The flight rules' distances (inches): a non-VTOL move's least length, a VTOL's free move, a fixed weapon's
    corridor and least distances, a turret's dead zone, the evasion, a bomb's burst radius and forward roll."""
    from dustup_env.rules.aerospace_operations import anti_aircraft as aa, flight, ordnance
    return {"min_fast_move": flight.MIN_FAST_MOVE, "free_move": flight.FREE_MOVE, "max_turn": flight.MAX_TURN,
            "corridor": flight.FIXED_CORRIDOR, "fixed_min_fast": flight.FIXED_MIN_FAST,
            "fixed_min_vtol": flight.FIXED_MIN_VTOL, "dead_zone": flight.TURRET_DEAD_ZONE, "evade": aa.EVADE_MOVE,
            "bomb_radius": ordnance.BOMB_RADIUS, "bomb_ahead": 6}


def lz_terrain(game, x: float, y: float, r: float) -> str:
    """The ground of a landing zone of radius ``r`` at (x, y): heavy, light or clear (the flight rules' terrain
    classes; units are not asked: the table is public)."""
    from dustup_env.rules.aerospace_operations import flight
    bf = game.bf
    light = False
    n = int(r)
    pts = [(x + i, y + j) for i in range(-n, n + 1) for j in range(-n, n + 1) if i * i + j * j <= r * r]
    pts += [(x + r * math.sin(a), y + r * math.cos(a)) for a in (q * math.pi / 8 for q in range(16))]
    for px, py in pts:
        if not (0.0 <= px <= bf.width and 0.0 <= py <= bf.height):
            return "heavy"
        t = bf.terrain_at(px, py)
        if t in flight.LZ_HEAVY:
            return "heavy"
        if t in flight.LZ_LIGHT:
            light = True
    return "light" if light else "clear"


def game_token(game) -> object:
    """An opaque object unique to ``game`` while it lives (bots key their per-game caches on it)."""
    key = id(game)
    e = _TOKENS.get(key)
    if e is None or e[0]() is not game:
        if len(_TOKENS) >= _TOKENS_PRUNE[0]:
            for k in [k for k, (ref, _) in _TOKENS.items() if ref() is None]:
                del _TOKENS[k]
            _TOKENS_PRUNE[0] = max(4096, 2 * len(_TOKENS))
        e = _TOKENS[key] = (weakref.ref(game), object())
    return e[1]


class _Units:
    """``uid -> Unit`` for the units the side knows of (own units, enemy units that are not hidden)."""

    __slots__ = ("_units", "_side")

    def __init__(self, units, side):
        self._units = units
        self._side = side

    def __getitem__(self, uid: int):
        u = self._units[uid]
        if unit_knowledge(self._side, u) == HIDDEN:
            raise HiddenInformationError(f"unit {uid} is a hidden enemy unit: side {self._side} knows only its marker")
        return u

    def get(self, uid: int, default=None):
        try:
            return self[uid]
        except (HiddenInformationError, IndexError):
            return default


class Knowledge:
    """Side ``side``'s knowledge of ``game`` at its pending decision (built per decision; read-only)."""

    __slots__ = ("_game", "side", "bf", "objectives", "turn", "turn_limit", "units", "_enemies", "_own",
                 "game_token", "actions_left")

    def __init__(self, game, side: int):
        if side not in (0, 1):
            raise ValueError(f"side must be 0 or 1, not {side!r}")
        self._game = game
        self.side = side
        self.bf = game.bf  # the table: terrain, line of sight, movement costs (public)
        self.objectives = game.objectives  # (name, x, y, vp)
        self.turn = game.turn
        self.turn_limit = game.turn_limit
        self.units = _Units(game.units, side)
        self._enemies = None
        self._own = None
        self.game_token = game_token(game)
        self.actions_left = game.actions_left  # the activating unit's actions left (public: the observation has it)

    # ------------------------------------------------------------------ units
    @property
    def own_units(self) -> list:
        """The side's units (``game.side_units[side]`` order), every state known."""
        if self._own is None:
            g = self._game
            self._own = [g.units[i] for i in g.side_units[self.side]]
        return self._own

    @property
    def enemy_units(self) -> list:
        """The enemy units the side knows of: in play and not hidden (hidden ones show only as markers)."""
        if self._enemies is None:
            self._enemies = list(enemy_units(self._game, self.side))
        return self._enemies

    @property
    def active_enemy(self) -> int:
        """The enemy unit whose activation it is (the unit a reaction or an interrupt answers), or -1 when it is not
        an enemy's activation or the side does not know the unit (hidden)."""
        uid = self._game.active
        if uid < 0 or self._game.units[uid].side == self.side:
            return -1
        return uid if any(e.uid == uid for e in self.enemy_units) else -1

    @property
    def markers(self) -> list[dict]:
        """Hidden-unit markers as the side sees them (``game.view(side)["markers"]``: position; ``unit`` only on
        its own markers)."""
        return [marker_view(self.side, i, m) for i, m in enumerate(self._game.markers)]

    # ------------------------------------------------------------------ previews of the side's own options
    def fire_plan(self, uid: int, target: int, mode: str) -> dict | None:
        """What a shoot option of an own unit at a known enemy would roll (rolls nothing)."""
        self._own_unit(uid)
        self.units[target]
        return self._game.fire_plan(uid, target, mode)

    def vehicle_fire_plan(self, uid: int, target: int, weapon: int) -> dict | None:
        """What an own vehicle's weapon (its slot) would roll at a known enemy (rolls nothing; None: it cannot fire
        it at that target now)."""
        v = self._own_unit(uid)
        t = self.units[target]
        return vehicle_weapon_plan(self._game, v, t, weapon)

    def courage_dice(self, att: int, dfn: int) -> tuple[int, int]:
        """The (attacker, defender) dice of the courage test of an assault between an infantry unit and a vehicle,
        one of them the side's own, the other a known enemy (Close Assault, Tank Shock; rolls nothing)."""
        a, d = self.units[att], self.units[dfn]
        if self.side not in (a.side, d.side):
            raise HiddenInformationError(f"neither unit {att} nor {dfn} is side {self.side}'s")
        return courage_dice(self._game, a, d)

    def close_attack_impact(self, uid: int) -> int:
        """The impact of the attack a known infantry unit (own or enemy: its weapons are seen) makes on a
        vehicle."""
        return close_attack_impact(self.units[uid])

    def dismount_point(self, uid: int, direction: int):
        """Where an own mounted unit's leader would stand after dismounting on side ``direction`` of its
        transport (None: it cannot dismount there)."""
        u = self._own_unit(uid)
        if u.veh.carrier < 0:
            return None
        return dismount_point(self._game, self._game.units[u.veh.carrier], u, direction)

    def shock_reach(self, uid: int) -> float:
        """The tank-shock reach of a known vehicle (its profile is seen)."""
        return shock_reach(self.units[uid])

    def move_end(self, uid: int, px: float, py: float, points: float, blockers=None) -> tuple[float, float]:
        """Where an own unit's leader would end a move toward (px, py) with ``points`` movement points: terrain,
        obstacles and the 2" kept from the enemy figures and markers the side knows of (rolls nothing).
        ``blockers``: :meth:`move_blockers` of the same unit at the same decision (many previews, one list)."""
        return move_end(self._game, self._own_unit(uid), px, py, points, blockers)

    def move_blockers(self, uid: int) -> list:
        """The points an own unit's walk stops 2" from (the known enemy figures and markers, the rule set's
        blockers), for :meth:`move_end`: a new list each time, true of the game as it is now."""
        return move_blockers(self._game, self._own_unit(uid))

    def home_point(self, u) -> tuple[float, float]:
        """The point of the own unit ``u``'s home edge straight behind it."""
        self._own_unit(u.uid)
        return home_point(self._game, u)

    def assault_enemies(self, uid: int) -> tuple:
        """The known units on the other side of the pending assault involving own unit ``uid`` (uids)."""
        self._own_unit(uid)
        units = self.units
        for f in assault_frames(self._game):
            if uid in f.data.get("defenders", ()):
                other = f.data.get("attackers", ())
            else:
                other = f.data.get("defenders", ())
            return tuple(e for e in other if units.get(e) is not None)
        return ()

    # ------------------------------------------------------------------ fire support (the side's own)
    def fire_support(self) -> dict | None:
        """The side's own fire support: assets, chits, its missions with their real aim points, the due ones
        (None without the rules).  Of the enemy's markers a side knows only what the table shows (``view()``)."""
        return fire_support(self._game, self.side)

    def request_odds(self, uid: int, asset: int, chits: int) -> float:
        """P(success) of an own unit's request (its roll only; rolls nothing)."""
        return request_odds(self._game, self._own_unit(uid), asset, chits)

    def observer_role(self, uid: int) -> str:
        """``fo``, ``lo`` or ``other``: an own unit's observer (a roster field)."""
        return observer_role(self._game, self._own_unit(uid))

    def known_entities(self) -> list[dict]:
        """The table entities the side may know of, by its refs (``kernel.table.known_entities``)."""
        return known_entities(self._game, self.side)
    # ------------------------------------------------------------------ aircraft
    def aircraft(self, uid: int) -> dict | None:
        """The flight state of an own or known enemy aircraft (None: not an aircraft): see :func:`aircraft_state`."""
        return aircraft_state(self._game, self.side, self.units[uid])

    def has_aircraft(self) -> bool:
        """Whether the game has aircraft (either side's: the forces' rosters are public)."""
        from dustup_env.rules.aerospace_operations import air
        return bool(air.aircraft_states(self._game))

    def aa_reach(self, uid: int) -> float | None:
        """The range of a known unit's anti-aircraft weapon (its profile is seen), None without one."""
        return aa_reach(self._game, self.units[uid])

    def aa_fired(self, uid: int) -> bool:
        """Whether a known unit fired at aircraft this turn."""
        self.units[uid]
        return aa_fired(self._game, uid)

    def landing_zone(self, uid: int, x: float, y: float) -> str:
        """What an own aircraft's landing zone at (x, y) would be, from what the side knows: heavy with a figure of
        a known unit (its own passengers and the aircraft aside) or a hidden-unit marker in it, or heavy ground;
        light on light ground; else clear (the flight rules' test, on the known units)."""
        v = self._own_unit(uid)
        a = self.aircraft(uid)
        r = a["lz"] if a is not None else 3.0
        for t in self.own_units + self.enemy_units:
            if t is v or not t.in_play or t.veh.carrier >= 0:
                continue
            if any(math.hypot(fx - x, fy - y) <= r for fx, fy in t.figure_positions()):
                return "heavy"
        for m in self.markers:
            if not m.get("removed") and math.hypot(m["x"] - x, m["y"] - y) <= r:
                return "heavy"
        return lz_terrain(self._game, x, y, r)

    @staticmethod
    def air_geometry() -> dict:
        """The flight rules' distances (:func:`air_geometry`)."""
        return air_geometry()

    # ------------------------------------------------------------------ records
    def event_log(self) -> list[dict]:
        """The events the side may read (hidden units' activity filtered out)."""
        return self._game.event_log(self.side)

    def view(self) -> dict:
        """The plain data the side may know (``game.view(side)``)."""
        return self._game.view(self.side)

    def entities(self) -> list[dict]:
        """The table entities on the table the side may know of (minefields, target markers, ...), each by the
        side's ref with what the side may know of it (``kernel.table.known_entities``)."""
        from dustup_env.rules.kernel.table import known_entities

        return known_entities(self._game, self.side) if self._game.entities else []

    def _own_unit(self, uid: int):
        u = self._game.units[uid]
        if u.side != self.side:
            raise HiddenInformationError(f"unit {uid} is not side {self.side}'s")
        return u
