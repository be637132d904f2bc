"""Hidden Units (seed 000, "Detect Action" > "Hidden Units") and what each side may know.

Scenario: a unit spec may say ``"hidden": true`` (only in concealing terrain) and a side may list
``"dummies"``: dummy marker positions (at most two per hidden unit of that side, also in concealing
terrain).  ``game.markers`` is the list of markers, each plain data
``{"side", "x", "y", "unit" (uid, or -1 for a dummy), "removed"}``, sorted by (side, x, y) so that the
order tells nothing about which marker is real.

A hidden unit is unknown to the enemy: it is not among ``game.enemy_units`` (so it cannot be shot
at, assaulted, or steer the enemy's moves), only its marker is; markers block enemy movement like one
figure.  It becomes detected (marker removed, unit revealed, :class:`UnitRevealed`) as soon as it
gives its position away: when it takes one of the :data:`REVEALING` options (move, withdraw, shoot,
assault, ...), or whenever its leader's position changes by any other means, or by a successful
Detect action (:mod:`.detect_action`).

Becoming hidden during the game ("Units may begin the game hidden, and in some circumstances become
hidden during the game", RN-307): ``("reorganise", "hide")``, one reorganise action (the usual limits),
by a unit in concealing terrain whose leader no enemy unit on the table can see.  Its marker is placed
at its position (no dummies: those come only with deployment).

Information sets: :func:`view` is the plain data a side may know and :func:`filtered_log` the
event log it may read (events naming an enemy unit while that unit was hidden are replaced by one
``{"type": "HiddenActivity", "side": s}`` per run).
"""
from __future__ import annotations

from ..kernel.battlefield import observer_of
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.knowledge import HIDDEN, OWN, UNSEEN, marker_view, unit_knowledge
from ..kernel.limits import MAX_MARKERS  # marker slots of the env's action codec: hiding never exceeds them
from ..kernel.ruleset import Rule
from ..kernel.saves import plain_data
from ..kernel.table import known_entities


@event
class UnitRevealed(Event):
    unit: int
    marker: int
    reason: str  # detected | moved | fired | assaulted | detached | regrouped | lost | reacted | laid_smoke |
    #              cleared_lane | fought_fire (REVEALING)


@event
class UnitHidden(Event):
    unit: int
    marker: int


@event
class MarkerRemoved(Event):
    marker: int
    reason: str  # "dummy" (a dummy counter found by a Detect action)


# options that give a hidden unit's position away (taken by the hidden unit itself) -> reason
REVEALING = {
    "move": "moved", "withdraw": "moved", "occupy": "moved", "contact": "moved", "evacuate": "moved",
    "shoot": "fired", "fire": "fired", "shoot_weapon": "fired", "throw": "fired",
    "fire_heavy": "fired", "fire_iavr": "fired", "fire_guided": "fired",
    "aa_fire": "fired", "aa_fire_at": "fired",  # anti-aircraft fire (aerospace_operations/anti_aircraft.py)
    "fire_building": "fired", "fire_fortification": "fired", "building_assault": "assaulted",  # buildings
    "assault": "assaulted", "combined_assault": "assaulted",
    "detach": "detached", "regroup": "regrouped",
    # Additional Rules: smoke laid from the unit's position (a cloud up to 6" from it, to its front, around or behind
    # it), a flame thrower's ignition, a line charge fired, a lane walked into a minefield, a fire fought where it
    # burns: each puts something both sides see where the unit is (L1080 "or do something that could reasonably be
    # argued gives their position away", RN-1961)
    "lay_smoke": "laid_smoke", "discharge_smoke": "laid_smoke", "exhaust_smoke": "laid_smoke",
    "ignite": "fired", "line_charge": "fired", "clear_lane": "cleared_lane", "fight_fire": "fought_fire",
}

# event fields that name a unit (used by the filtered log)
UNIT_FIELDS = ("unit", "target", "observer", "attacker", "defender", "commander", "parent", "subordinate")
UNIT_LIST_FIELDS = ("units",)


def _setup(game) -> None:
    """INIT_HOOK: build and check the markers from the scenario."""
    bf = game.bf
    markers = []
    for s, side in enumerate(game.scenario["sides"]):
        n_hidden = 0
        for uid in game.side_units[s]:
            u = game.units[uid]
            if not u.hidden:
                continue
            if not bf.conceals(u.x, u.y):
                raise ScenarioError(f"unit {u.name!r} of side {side['name']!r} is hidden at {u.x:g},{u.y:g} "
                                    "but the terrain there cannot conceal it")
            n_hidden += 1
            markers.append({"side": s, "x": u.x, "y": u.y, "unit": uid, "removed": False})
            u.hidden_spans = [[0, -1]]
        dummies = side.get("dummies", [])
        if len(dummies) > 2 * n_hidden:
            raise ScenarioError(f"side {side['name']!r} has {len(dummies)} dummy markers but only {n_hidden} "
                                f"hidden unit(s): at most two dummies per hidden unit")
        for x, y in dummies:
            x, y = float(x), float(y)
            if not bf.on_table(x, y):
                raise ScenarioError(f"side {side['name']!r}: dummy marker at {x:g},{y:g} is off the table")
            if not bf.conceals(x, y):
                raise ScenarioError(f"side {side['name']!r}: dummy marker at {x:g},{y:g} is not in concealing "
                                    "terrain (a hidden unit could not be there, so it would not fool anyone)")
            markers.append({"side": s, "x": x, "y": y, "unit": -1, "removed": False})
    seen = set()
    for m in markers:
        key = (m["side"], m["x"], m["y"])
        if key in seen:
            raise ScenarioError(f"two markers of side {m['side']} at {m['x']:g},{m['y']:g}")
        seen.add(key)
    markers.sort(key=lambda m: (m["side"], m["x"], m["y"]))
    game.markers = markers


def marker_of(game, uid: int) -> int:
    for i, m in enumerate(game.markers):
        if m["unit"] == uid and not m["removed"]:
            return i
    return -1


def reveal(game, u, reason: str) -> None:
    """The hidden unit ``u`` is detected: its marker is removed and the unit placed on the table."""
    if not u.hidden:
        return
    i = marker_of(game, u.uid)
    if i >= 0:
        game.markers[i]["removed"] = True
    u.hidden = False
    u.revealed_at = game.events_base + len(game.events)
    if u.hidden_spans and u.hidden_spans[-1][1] < 0:
        u.hidden_spans[-1][1] = u.revealed_at
    game.emit(UnitRevealed(u.uid, i, reason))


def _marker_slot(game, u) -> int | None:
    """Where a unit going hidden puts its marker: its own old (removed) marker, else a new one (None: no slot)."""
    for i in range(len(game.markers) - 1, -1, -1):
        m = game.markers[i]
        if m["unit"] == u.uid and m["removed"]:
            return i
    return len(game.markers) if len(game.markers) < MAX_MARKERS else None


def unseen(game, u) -> bool:
    """No enemy unit on the table (hidden ones are unknown to ``u``'s side, RN-238) sees ``u``'s leader."""
    sight_for = game.bf.sight_for
    for e in game.enemy_units(u.side):
        if sight_for(observer_of(e), e.x, e.y, u.x, u.y).visible:
            return False
    return True


def hide_options(game, u, status) -> list:
    """ACTION_PROVIDER: ("reorganise", "hide") in concealing terrain, out of every enemy unit's sight (RN-307)."""
    if (u.hidden or u.travel or status.disorganised or (status.suppressed and not status.in_cover)
            or not game.bf.conceals(u.x, u.y) or _marker_slot(game, u) is None or not unseen(game, u)):
        return []
    return [("reorganise", "hide")]


def hide(game, u) -> None:
    """REORGANISE_ACTIONS["hide"]: the unit becomes hidden; its marker is placed at its position."""
    i = _marker_slot(game, u)
    m = {"side": u.side, "x": u.x, "y": u.y, "unit": u.uid, "removed": False}
    if i == len(game.markers):
        game.markers.append(m)
    else:
        game.markers[i] = m
    u.hidden = True
    game.emit(UnitHidden(u.uid, i))
    u.hidden_spans.append([game.events_base + len(game.events), -1])  # from here on its activity is secret


def _before_apply(game, d, opt) -> None:
    """A hidden unit taking a revealing option is detected before the option is carried out."""
    if d.unit < 0 or not game.markers:
        return
    u = game.units[d.unit]
    if u.hidden and opt[0] in REVEALING:
        reveal(game, u, REVEALING[opt[0]])


def _after_apply(game, d, opt) -> None:
    """A hidden unit whose leader moved (by whatever rule) or that left play is detected."""
    if not game.markers:
        return
    for m in game.markers:
        if m["unit"] < 0 or m["removed"]:
            continue
        u = game.units[m["unit"]]
        if not u.hidden:
            continue
        if not u.in_play:
            reveal(game, u, "lost")
        elif u.x != m["x"] or u.y != m["y"]:
            reveal(game, u, "moved")


# ---------------------------------------------------------------------------------------------- information
def _hidden_spans(game, side: int) -> dict:
    """uid of each enemy unit that was ever hidden -> its hidden periods [(first, end)] (events inside are secret:
    from the start of the game or its UnitHidden event up to its UnitRevealed event)."""
    spans = {}
    big = game.events_base + len(game.events) + 1
    for u in game.units:
        if u.side != side and u.hidden_spans:
            spans[u.uid] = [(a, big if b < 0 else b) for a, b in u.hidden_spans]
    return spans


def _refs(d: dict):
    for k in UNIT_FIELDS:
        v = d.get(k)
        if isinstance(v, int) and not isinstance(v, bool):
            yield v
    for k in UNIT_LIST_FIELDS:
        v = d.get(k)
        if isinstance(v, list):
            yield from (x for x in v if isinstance(x, int))


def filtered_log(game, side: int) -> list[dict]:
    """The event log as ``side`` may read it: events naming an enemy unit while it was hidden become one
    ``{"type": "HiddenActivity", "side": enemy}`` per consecutive run, and the game's seed is not shown (it
    would tell every die to come).

    Table entities (:mod:`dustup_env.rules.kernel.table`): an event with an ``only`` field (a side) is that
    side's alone (a minefield laid, a dummy marker placed: the other side reads nothing of it); an event with
    an ``entity`` field (an entity's id), or a ``source`` naming one as ``"<kind>:<id>"`` (a fire's smoke,
    ``"fire:3"``), is read only by a side that knows of the entity now, and names it by that side's ref (its id
    would tell how many entities the side may not know of, RN-1964)."""
    spans = _hidden_spans(game, side)
    out: list[dict] = []
    secret = {"type": "HiddenActivity", "side": 1 - side}
    base = game.events_base  # events a copy made with clone(log=False) left out
    entities = game.entities
    for i, e in enumerate(game.events, base):
        d = e.to_dict()
        if spans and any(a <= i < b for r in _refs(d) for a, b in spans.get(r, ())):
            if not out or out[-1] != secret:
                out.append(dict(secret))
            continue
        if entities or "only" in d:
            only = d.get("only")
            if isinstance(only, int) and only in (0, 1) and only != side:
                continue
            eid = d.get("entity")
            if isinstance(eid, int) and not isinstance(eid, bool) and "entity" in d:
                r = entities[eid]["refs"][side] if 0 <= eid < len(entities) else -1
                if r < 0:
                    continue
                d["entity"] = r
            src = d.get("source")
            if isinstance(src, str) and ":" in src:  # a source named "<entity kind>:<id>" ("fire:3"): by the ref too
                kind, _, num = src.partition(":")
                if num.isdigit() and kind in game.rules.entity_kinds:
                    k = int(num)
                    r = entities[k]["refs"][side] if k < len(entities) and entities[k]["kind"] == kind else -1
                    if r < 0:
                        continue
                    d["source"] = f"{kind}:{r}"
        if d["type"] == "GameStarted":
            d["seed"] = None
        out.append(d)
    return out


def _unit_view(u) -> dict:
    return plain_data(u)


def view(game, side: int) -> dict:
    """The plain data ``side`` may know now."""
    units = []
    for u in game.units:  # what the side may know of each (kernel.knowledge)
        known = unit_knowledge(side, u)
        if known == OWN:
            units.append(_unit_view(u))
        elif known == HIDDEN:
            units.append({"uid": u.uid, "side": u.side, "name": u.name, "hidden": True})
        elif known == UNSEEN:  # an enemy mounted in a vehicle is not seen (Transport of Infantry)
            units.append({"uid": u.uid, "side": u.side, "name": u.name, "unseen": True})
        else:
            uv = _unit_view(u)
            uv.pop("passengers", None)  # nor who rides in an enemy vehicle
            units.append(uv)
    markers = [marker_view(side, i, m) for i, m in enumerate(game.markers)]
    out = {"side": side, "turn": game.turn, "phase": game.phase, "current": game.current,
           "initiative": game.initiative_winner, "units": units, "markers": markers,
           "public": _public(game, side)}
    if game.rules.entity_kinds:  # the table entities it may know of (kernel.table: an enemy's own never shows)
        out["entities"] = known_entities(game, side)
    if not game.over:
        d = game.decision()
        out["decision"] = {"side": d.side, "kind": d.kind,
                           "unit": d.unit if (d.unit < 0 or d.side == side or not game.units[d.unit].hidden) else -1,
                           "options": [list(o) for o in d.options] if d.side == side else None}
    return out


def _public(game, side: int) -> dict:
    """The public module state: tokens, chits, and the cards left in the deck but those of the enemy's hidden units
    (whether a hidden unit has activated yet is not known to the other side)."""
    out = {}
    for c in game.components.values():  # the fields each rule's state declares public (Component.PUBLIC)
        for k in c.PUBLIC:
            v = getattr(c, k)
            if v is not None:
                out[k] = v
    if "deck" in out:
        units = game.units
        out["deck"] = [c for c in out["deck"] if c < 0 or units[c].side == side or not units[c].hidden]
    return out

RULE = Rule("Hidden Units", 'seed 000 "Detect Action › Hidden Units"', init=(_setup,),
            action_options=(hide_options,), reorganise={"hide": hide}, before_apply=(_before_apply,),
            after_apply=(_after_apply,), services={"view": view, "event_log": filtered_log})
