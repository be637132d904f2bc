"""Human-readable text for options and events: a short label for every option of every decision kind
and a one-line narration of every event type, in the rulebook's words.

Everything here works from a :class:`Knowledge`: what one side may know (:meth:`Knowledge.of_side`,
built only from ``game.view(side)`` and the scenario's static data) or everything (:meth:`Knowledge.
spectator`, for replays and tournaments).  Events are the plain dicts of ``game.event_log(side)`` (or
``game.event_log()`` for a spectator): narrating a side's filtered log with that side's knowledge never
names a unit it cannot know, and labels of its options only name what its options refer to.

    from dustup_env.narrate import Knowledge, option_label, narrate
    know = Knowledge.of_side(game, side)
    d = game.decision()
    labels = [option_label(o, d.kind, know, unit=d.unit) for o in d.options]
    lines = [narrate(e, know) for e in game.event_log(side)]

Options or events this module does not know (a rules module added later) still get a plain label made
from their name and arguments (:func:`generic_label`), never an error.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

# 16-point compass, index 0 = north (+y), clockwise (rules.move_action.DIRECTIONS / DIR_VECTORS)
COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
MOVE_DISTANCES = (3.0, 6.0, 12.0, 24.0)  # rules.move_action.DISTANCES (checked by the tests)
CONFIDENCE = ("confident", "steady", "shaken", "broken", "routed")

FIRE_MODES = {
    "all": "all weapons", "suppressive": "suppressive fire", "small_arms": "small arms only",
    "support": "support weapons only", "half": "half the unit", "grenades": "hand grenades",
}
THROWS = {"one": "one grenadier, the rest fire", "alone": "one grenade alone", "specialist": "a specialist grenade"}
REORGANISE = {
    "conceal": "take complete concealment", "reveal": "give up complete concealment",
    "rearrange": "rearrange the figures", "leader": "appoint a new leader", "column": "form column (travel mode)",
    "tactical": "leave travel mode", "mount": "mount", "dismount": "dismount",
    "extract": "extract an occupant from a wrecked suit", "assume_command": "assume command",
    "task": "carry out the scenario task", "recover_wounded": "pick up wounded left on the table",
    "hide": "become hidden", "place": "place the figures",
    "set_up": "set up the heavy weapon", "dismantle": "dismantle the heavy weapon", "limber": "limber the gun",
    "unlimber": "unlimber the gun", "repair": "repair the disabled weapon",
    "remote": "set up the remote launcher", "deploy_protection": "deploy the area protection",
}
DETACH = {"half": "half the unit", "support": "the support weapons", "scout": "two scouts",
          "lane": "a model to clear a mine lane"}
FORMATIONS = {"keep": "figures stay where they stand", "compact": "compact formation", "line": "line abreast",
              "open": "open order", "file": "single file"}


def compass(direction: int) -> str:
    return COMPASS[int(direction) % 16]


def bearing(dx: float, dy: float) -> str:
    """The nearest of the 16 compass points of the vector (dx, dy) (north = +y)."""
    ang = math.degrees(math.atan2(dx, dy)) % 360.0
    return COMPASS[int((ang + 11.25) // 22.5) % 16]


def die(name) -> str:
    """``"d8"`` -> ``"D8"``."""
    return str(name).upper() if name else "?"


def _words(s) -> str:
    return str(s).replace("_", " ")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@dataclass
class Knowledge:
    """Names and positions a narration may use.

    ``names`` maps unit ids to names (units the reader knows exist: its own, the enemy's as listed by
    its view); ``positions`` holds the leader positions the reader knows (own units and enemy units
    not hidden); ``markers`` the hidden-unit markers it sees (index -> (x, y)).  ``side`` is the reader
    (``None``: a spectator who sees everything)."""

    names: dict = field(default_factory=dict)
    unit_sides: dict = field(default_factory=dict)
    positions: dict = field(default_factory=dict)
    markers: dict = field(default_factory=dict)
    side_names: tuple = ("side 0", "side 1")
    objectives: tuple = ()
    tasks: tuple = ()
    length: str = '"'  # the unit of length in text: '"' (inches) or " cm"
    side: int | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def of_side(cls, game, side: int, view: dict | None = None) -> "Knowledge":
        """What ``side`` may know: read only from ``game.view(side)`` (or the ``view`` given) and the
        scenario's static data (names, objectives, tasks, the unit of length)."""
        if view is None:
            view = game.view(side)
        k = cls._static(game)
        k.side = side
        shown = display_names(game)
        for u in view["units"]:
            k.names[u["uid"]] = shown.get(u["uid"], u["name"])
            k.unit_sides[u["uid"]] = u["side"]
            if not u.get("hidden") or u["side"] == side:
                if "x" in u:
                    k.positions[u["uid"]] = (u["x"], u["y"])
        for m in view.get("markers", []):
            if not m.get("removed"):
                k.markers[m["index"]] = (m["x"], m["y"])
        return k

    @classmethod
    def spectator(cls, game) -> "Knowledge":
        """Everything (replays, tournaments, a referee's log)."""
        k = cls._static(game)
        shown = display_names(game)
        for u in game.units:
            k.names[u.uid] = shown.get(u.uid, u.name)
            k.unit_sides[u.uid] = u.side
            k.positions[u.uid] = (u.x, u.y)
        for i, m in enumerate(game.markers):
            if not m["removed"]:
                k.markers[i] = (m["x"], m["y"])
        return k

    @classmethod
    def _static(cls, game) -> "Knowledge":
        scn = game.scenario
        return cls(side_names=tuple(s["name"] for s in scn["sides"]),
                   objectives=tuple(o["name"] for o in scn.get("objectives", [])),
                   tasks=tuple(t.get("name", f"task {i}") for i, t in enumerate(scn.get("tasks", []))),
                   length=" cm" if game.options.get("measure") == "centimetres" else '"')

    # ------------------------------------------------------------------ helpers
    def unit(self, uid) -> str:
        if isinstance(uid, int) and uid in self.names:
            return self.names[uid]
        return f"unit {uid}"

    def units(self, uids) -> str:
        names = [self.unit(u) for u in uids]
        if not names:
            return "nobody"
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def side_name(self, s) -> str:
        if isinstance(s, int) and 0 <= s < len(self.side_names):
            return self.side_names[s]
        return f"side {s}"

    def dist(self, x: float) -> str:
        return f"{x:g}{self.length}"

    def marker(self, i) -> str:
        p = self.markers.get(i)
        return f"marker {i} at ({p[0]:g}, {p[1]:g})" if p else f"marker {i}"


def display_names(game) -> dict:
    """``{uid: display name}``: the game's unique unit names (``Game.display_names``: the side's name first where
    both sides have a unit of that name), or the scenario's names for a game object without them."""
    f = getattr(game, "display_names", None)
    if f is not None:
        return f()
    return {u.uid: u.name for u in game.units}


# ---------------------------------------------------------------------------------------------- options
def generic_label(option) -> str:
    """A plain label from an option's name and arguments (for options this module does not know)."""
    opt = tuple(option)
    return " ".join(_words(a) for a in opt) if opt else "(empty option)"


def option_label(option, kind: str = "action", know: Knowledge | None = None, unit: int = -1) -> str:
    """A short human-readable label of ``option`` of a decision of kind ``kind`` (the acting unit's id
    ``unit`` when the decision has one)."""
    k = know or Knowledge()
    opt = tuple(option)
    if not opt:
        return generic_label(opt)
    name, args = opt[0], opt[1:]
    try:
        f = _OPTION.get(name)
        text = f(k, kind, unit, *args) if f else None
    except (TypeError, IndexError, KeyError, ValueError):
        text = None
    return text or generic_label(opt)


def _move(k, kind, unit, d, dist):
    return f"move {compass(d)} {k.dist(MOVE_DISTANCES[dist])}"


def _shoot(k, kind, unit, target, mode):
    return f"shoot at {k.unit(target)} ({FIRE_MODES.get(mode, _words(mode))})"


def _withdraw(k, kind, unit):
    return "withdraw from the assault" if kind == "assault_response" else "withdraw (move away from the enemy)"


def _choose(k, kind, unit, uid):
    if kind == "promote":
        return f"promote {k.unit(uid)}"
    if kind == "choose":
        return f"choose {k.unit(uid)} for the combined assault"
    if kind == "reaction_choice":
        return f"{k.unit(uid)} reacts"
    if kind == "interrupt":
        return f"{k.unit(uid)} interrupts (gives up its activation)"
    return f"choose {k.unit(uid)}"


def _occupy(k, kind, unit):
    return "occupy the enemy's position" if kind != "house_occupy" else "occupy the position"


def _halt(k, kind, unit):
    if kind == "second_move":
        return "halt (no second move to contact)"
    if kind == "house_pursuit":
        return "halt (do not pursue)"
    return "halt"


def _follow(k, kind, unit, target):
    if kind == "house_pursuit":
        return f"pursue {k.unit(target)}"
    return f"follow {k.unit(target)} (continue the assault)"


def _decline(k, kind, unit):
    if kind == "seize":
        return "decline (do not seize the initiative)"
    if kind == "promote":
        return "decline (promote no one)"
    if kind == "intercept":
        return "decline (no decoy or area protection tries)"
    if kind in ("reaction", "reaction_choice"):
        return "decline (no reaction)"
    if kind == "interrupt":
        return "decline (no interrupt now)"
    return "decline"


_OPTION = {
    "first": lambda k, kind, unit: "activate first",
    "second": lambda k, kind, unit: "activate second",
    "activate": lambda k, kind, unit, uid: f"activate {k.unit(uid)}",
    "inbound": lambda k, kind, unit, uid: f"move {k.unit(uid)}'s inbound counter one box",
    "pass": lambda k, kind, unit: "pass",
    "end": lambda k, kind, unit: "end the activation",
    "move": _move,
    "withdraw": _withdraw,
    "prop": lambda k, kind, unit: "Hit the Dirt! (a suppression marker, propped)" if kind == "reaction" else
    "prop (go to ground)",
    "unprop": lambda k, kind, unit: "unprop (get up)",
    "shoot": _shoot,
    "shoot_weapon": lambda k, kind, unit, target, w: f"shoot at {k.unit(target)} with support weapon {int(w) + 1} alone",
    "throw": lambda k, kind, unit, target, what: f"throw at {k.unit(target)} ({THROWS.get(what, _words(what))})",
    "recover": lambda k, kind, unit: "recover from suppression",
    "reorganise": lambda k, kind, unit, what: f"reorganise: {REORGANISE.get(what, _words(what))}",
    "assault": lambda k, kind, unit, target: f"assault {k.unit(target)}",
    "order": lambda k, kind, unit, uid: f"order {k.unit(uid)}",
    "rally": lambda k, kind, unit, uid: f"rally {k.unit(uid)}",
    "combined_assault": lambda k, kind, unit, target: f"order a combined assault on {k.unit(target)}",
    "choose": _choose,
    "detach": lambda k, kind, unit, what: f"detach {DETACH.get(what, _words(what))}",
    "activate_detachment": lambda k, kind, unit, uid: f"activate detachment {k.unit(uid)}",
    "regroup": lambda k, kind, unit, uid: f"regroup with {k.unit(uid)}",
    "treat": lambda k, kind, unit, uid: f"treat the wounded of {k.unit(uid)}",
    "detect": lambda k, kind, unit, i: f"detect {k.marker(i)}",
    "panic_test": lambda k, kind, unit: "take the panic test",
    "seize": lambda k, kind, unit, uid: f"seize the initiative with {k.unit(uid)}",
    "decline": _decline,
    "stand": lambda k, kind, unit: "stand (take the courage test)",
    "occupy": _occupy,
    "contact": lambda k, kind, unit: "move to contact",
    "halt": _halt,
    "fire": lambda k, kind, unit, mode: f"final defensive fire ({FIRE_MODES.get(mode, _words(mode))})",
    "hold_fire": lambda k, kind, unit: "not yet (ask again at its next step)" if kind == "interrupt" else "hold fire",
    "resolve": lambda k, kind, unit, target: f"resolve the combat with {k.unit(target)} next",
    "add_defender": lambda k, kind, unit, target: f"add {k.unit(target)} to the assault",
    "defenders_chosen": lambda k, kind, unit: ("no more defenders: go" if kind == "assault_targets"
                                                else "no more: go"),
    "follow": _follow,
    "split_special": lambda k, kind, unit: "special close-combat weapons fight on their own",
    "no_split": lambda k, kind, unit: "special close-combat weapons stay with the unit",
    "abandon": lambda k, kind, unit: "abandon the wounded where they lie",
    "stay": lambda k, kind, unit: "the leader stays where it is",
    "shift": lambda k, kind, unit, d: f"the leader moves {k.dist(2.0)} {compass(d)}",
    "formation": lambda k, kind, unit, f: f"formation: {FORMATIONS.get(f, _words(f))}",
    "evacuate": lambda k, kind, unit: "evacuate the wounded off the home edge",
    "fire_heavy": lambda k, kind, unit, target: f"fire the heavy weapon at {k.unit(target)}",
    "fire_iavr": lambda k, kind, unit, target: f"fire a rocket at {k.unit(target)}",
    "fire_guided": lambda k, kind, unit, target: f"fire a guided missile at {k.unit(target)}",
    "decoy": lambda k, kind, unit: "the decoy tries to defeat the missile",
    "area_protection": lambda k, kind, unit, uid: f"{k.unit(uid)}'s area protection tries to defeat the missile",
    "mount": lambda k, kind, unit, uid: f"mount {k.unit(uid)}",
    "dismount": lambda k, kind, unit, d: f"dismount on the {compass(d)} side",
    "approach": lambda k, kind, unit, uid: f"move towards {k.unit(uid)} (to mount)",
    "tow": lambda k, kind, unit, uid: f"attach tow cables to {k.unit(uid)}",
    "push": lambda k, kind, unit, uid: f"line up to push {k.unit(uid)}",
    "unhook": lambda k, kind, unit: "unhook (stop towing or pushing)",
    "turn": lambda k, kind, unit, d: f"turn to face {compass(d)}",
    "hatches": lambda k, kind, unit, what: "open up the hatches" if what == "open_up" else "close down the hatches",
    "call_casevac": lambda k, kind, unit, uid: f"call the CASEVAC vehicle {k.unit(uid)}",
    "transfer": lambda k, kind, unit, uid: f"transfer the wounded to {k.unit(uid)}",
    "depart": lambda k, kind, unit: "leave the table with the wounded",
    # vehicle combat (armoured_dustup: fire_by_vehicles, firing_at_vehicles)
    # Aerospace Operations
    "air_arrive": lambda k, kind, unit, uid, where: (f"{k.unit(uid)} holds off the table" if where == "hold" else
                                                     f"{k.unit(uid)} flies in to the {'table' if where == 'table' else 'loiter box'}"),
    "air_pilot": lambda k, kind, unit, what: {"abort": "the pilot aborts (returns to base)", "evade": "the pilot evades",
                                              "continue": "the pilot continues"}[what],
    "air_fly": lambda k, kind, unit, x, y: f"fly to ({x:g}, {y:g})",
    "air_hover": lambda k, kind, unit, d: f"hover facing {compass(d)}",
    "air_land": lambda k, kind, unit: "land",
    "air_take_off": lambda k, kind, unit: "take off",
    "air_leave": lambda k, kind, unit, where: f"leave the table for {'the loiter box' if where == 'loiter' else 'box one'}",
    "aa_fire": lambda k, kind, unit: "fire at the aircraft",
    "aa_hold": lambda k, kind, unit: "hold fire",
    "aa_fire_at": lambda k, kind, unit, uid: f"anti-aircraft fire at {k.unit(uid)}",
    "air_bomb": lambda k, kind, unit, how: {"one": "drop a bomb", "same": "drop every bomb on one target",
                                            "stick": "drop every bomb in a stick"}[how],
    "insert": lambda k, kind, unit, uid, what: (f"{k.unit(uid)} drops onto its landing zone" if what == "drop" else
                                               f"{k.unit(uid)} waits to be inserted"),
    "air_drop": lambda k, kind, unit, how, d: (f"{'fast-rope' if how == 'rope' else 'grav-pack'} drop on the "
                                               f"{compass(d)} side"),
    "fire_vehicle": lambda k, kind, unit, target, w: f"fire weapon {int(w) + 1} at {k.unit(target)}",
    "fire_artillery": lambda k, kind, unit, target: f"fire the gun over open sights at {k.unit(target)}",
    "fire_slaved": lambda k, kind, unit, target: f"fire the slaved weapons at {k.unit(target)}",
    "fire_pair": lambda k, kind, unit, target, p: f"fire two weapons (pair {int(p) + 1}) at {k.unit(target)}",
    "shoot_passengers": lambda k, kind, unit, target, mode: (f"shoot at the passengers of {k.unit(target)} "
                                                              f"({FIRE_MODES.get(mode, _words(mode))})"),
    "passenger_shoot": lambda k, kind, unit, target, mode: (f"fire from the vehicle at {k.unit(target)} "
                                                             f"({FIRE_MODES.get(mode, _words(mode))})"),
    "assault_vehicle": lambda k, kind, unit, target: f"close-assault {k.unit(target)} (charges and grenades)",
    "tank_shock": lambda k, kind, unit, target: f"tank-shock {k.unit(target)}",
    "fire_all": lambda k, kind, unit, target: f"fire every ready weapon at {k.unit(target)}",
    "assault_passengers": lambda k, kind, unit, target: f"close-assault the passengers of {k.unit(target)}",
    "move_fire": lambda k, kind, unit, target, w: f"fire weapon {int(w) + 1} at {k.unit(target)} and move (one action)",
}

# decision kinds in a few words (the prompt shown above a decision's options)
DECISION_KINDS = {
    "initiative": "won the initiative: activate first or second?",
    "activate": "activate a unit",
    "action": "choose an action",
    "assault_response": "is assaulted: stand or withdraw?",
    "assault_targets": "may add defenders to the assault",
    "assault_follow_up": "the defender withdrew: follow up",
    "final_defensive_fire": "may fire at the assaulting unit",
    "second_move": "failed to reach contact: a second move?",
    "special_weapons": "special close-combat weapons",
    "house_occupy": "the defender withdrew: occupy?",
    "house_pursuit": "pursue the withdrawing unit?",
    "choose": "choose (the units of a combined assault, or an EW unit to listen or oppose)",
    "promote": "lost its commander: promote a unit?",
    "place_leader": "reorganise: place the leader",
    "place_formation": "reorganise: choose the formation",
    "seize": "may seize the initiative",
    "intercept": "is targeted by a guided missile: try a decoy or area protection?",
    "move_fire": "fired on the move: now move (or halt)",
    "air_abort": "is acquired by the air defences: abort or continue?",
    "anti_aircraft": "may fire at the aircraft flying past",
    "air_pilot": "is acquired by anti-aircraft fire: abort, evade or continue?",
    "reaction_choice": "may react to the enemy's move: which unit?",
    "reaction": "may react",
    "interrupt": "may interrupt the enemy's activation: which unit?",
    "interrupt_fire": "interrupts: its attack",
}


def decision_prompt(side: int, kind: str, unit: int, know: Knowledge | None = None) -> str:
    """One line saying whose decision it is and what about."""
    k = know or Knowledge()
    who = k.side_name(side)
    what = DECISION_KINDS.get(kind, _words(kind))
    if unit is not None and unit >= 0:
        return f"{who}: {k.unit(unit)} {what}" if kind != "action" else f"{who}: {k.unit(unit)}: {what}"
    return f"{who}: {what}"


# ---------------------------------------------------------------------------------------------- events
def narrate(event: dict, know: Knowledge | None = None) -> str:
    """One line of text for an event dict (``game.event_log(...)`` entries)."""
    k = know or Knowledge()
    t = event.get("type", "?")
    f = _EVENT.get(t)
    if f is not None:
        try:
            text = f(k, event)
            if text:
                return text
        except (TypeError, IndexError, KeyError, ValueError):
            pass
    fields = ", ".join(f"{key}={_fmt(v, k, key)}" for key, v in event.items() if key != "type")
    return f"{_words(t)}" + (f": {fields}" if fields else "")


def narrate_log(events, know: Knowledge | None = None) -> list[str]:
    return [narrate(e, know) for e in events]


def _fmt(v, k, key):
    if key in ("unit", "target", "attacker", "defender", "commander", "observer", "striker", "sender", "receiver",
               "partner", "detachment", "lost") and isinstance(v, int):
        return k.unit(v)
    return v


def _rolls(dice, rolls) -> str:
    return ", ".join(f"{die(d)} {r}" for d, r in zip(dice, rolls)) or "no dice"


def _test(roll, needed, passed=None) -> str:
    """'rolled 5 (needs more than 2): passed'."""
    s = f"rolled {roll} (needs more than {needed})"
    if passed is not None:
        s += ": passed" if passed else ": failed"
    return s


def _point(p) -> str:
    return f"({round(p[0], 1):g}, {round(p[1], 1):g})"


def _moved(k, e):
    (x0, y0), (x1, y1) = e["start"], e["end"]
    d = math.hypot(x1 - x0, y1 - y0)
    verb = "withdraws" if e.get("withdraw") else "moves"
    how = f"rolled {e['roll']}: {e['points']:g} movement points" if e.get("roll") else f"{e['points']:g} movement points"
    if d < 1e-6:
        return f"{k.unit(e['unit'])} {verb} but cannot advance ({how})"
    return f"{k.unit(e['unit'])} {verb} {k.dist(round(d, 1))} {bearing(x1 - x0, y1 - y0)} to {_point(e['end'])} ({how})"


def _shot(k, e):
    mode = FIRE_MODES.get(e["mode"], _words(e["mode"]))
    res = {"none": "no effect", "minor": "minor success", "major": "major success"}.get(e["result"], e["result"])
    out = (f"{k.unit(e['unit'])} shoots at {k.unit(e['target'])} ({mode}): target die {die(e['target_die'])} rolls "
           f"{e['target_roll']}, firer {_rolls(e['firer_dice'], e['firer_rolls'])}: {_successes(e['successes'])}, {res}")
    if e.get("suppressive"):
        out += " (suppressive: no casualties)"
    elif e.get("hits"):
        out += f", {_plural(e['hits'], 'hit')}"
    return out


def _successes(n: int) -> str:
    return f"{n} success" + ("" if n == 1 else "es")


def _hit(k, e):
    eff = {"none": "no effect", "wound": "wounded", "kill": "killed"}.get(e["effect"], _words(e["effect"]))
    return (f"hit on {k.unit(e['target'])} (figure {e['figure'] + 1}): impact {die(e['impact_die'])} {e['impact']} "
            f"against armour {die(e['armour_die'])} {e['armour']}: {eff}")


def _game_ended(k, e):
    vp = e.get("vp") or (0, 0)
    w = e.get("winner")
    who = "a draw" if w == -1 or w is None else f"{k.side_name(w)} wins"
    return f"game over ({_words(e.get('reason', ''))}): {who}, victory points {vp[0]}-{vp[1]}"


def _courage(k, e):
    which = "final courage test" if e.get("final") else "courage test"
    return (f"{which}: {k.unit(e['attacker'])} {die(e['attacker_die'])} rolled {e['attacker_roll']}, "
            f"{k.unit(e['defender'])} {die(e['defender_die'])} rolled {e['defender_roll']}: {_words(e['result'])}")


def _strike(k, e):
    res = {"none": "no effect", "minor": "minor success", "major": "major success"}.get(e["result"], e["result"])
    return (f"close combat round {e['round']}: {k.unit(e['striker'])} strikes {k.unit(e['target'])}: target die "
            f"{die(e['target_die'])} rolls {e['target_roll']}, striker {_rolls(e['striker_dice'], e['striker_rolls'])}: "
            f"{_successes(e['successes'])}, {res}, {_plural(e['hits'], 'hit')}")


def _contact(k, e):
    how = "the two-inch rule" if not e.get("roll") else f"rolled {e['roll']}: {e['points']:g} movement points"
    res = "reaches contact" if e.get("reached") else "falls short"
    return f"{k.unit(e['unit'])} moves to contact {k.unit(e['target'])} ({how}) and {res} at {_point(e['end'])}"


def _communication(k, e):
    what = _words(e["purpose"])
    if e.get("automatic"):
        return f"{k.unit(e['sender'])} communicates with {k.unit(e['receiver'])} ({what}): automatic"
    s = (f"{k.unit(e['sender'])} communicates with {k.unit(e['receiver'])} ({what}): {die(e['die'])} "
         f"{_test(e['roll'], e['needed'], e['success'])}")
    if e.get("jam_rolls"):
        s += f" (jamming: comms {e['jam_rolls'][0]} against jammer {e['jam_rolls'][1]})"
    return s


def _detection(k, e):
    res = {"none": "nothing found", "minor": "minor success", "major": "detected"}.get(e["result"], e["result"])
    return (f"{k.unit(e['observer'])} tries to detect {k.marker(e['marker'])}: range die {die(e['range_die'])} rolls "
            f"{e['target_roll']}, observer {_rolls(e['observer_dice'], e['observer_rolls'])}: {res}")


def _medical(k, e):
    return (f"{k.unit(e['unit'])} treats the wounded of {k.unit(e['target'])} ({die(e['die'])}: "
            f"{', '.join(str(r) for r in e['rolls']) or 'no rolls'}): {e['returned']} back in action, "
            f"{e['stabilised']} stabilised, {e['killed']} died")


def _revealed(k, e):
    why = {"detected": "detected", "moved": "it moved", "fired": "it fired", "assaulted": "it assaulted",
           "detached": "it detached an element", "regrouped": "it regrouped", "lost": "it was lost"}
    return f"{k.unit(e['unit'])} is revealed ({why.get(e['reason'], _words(e['reason']))}; marker {e['marker']} removed)"


def _panic(k, e):
    s = f"{k.unit(e['unit'])} tests for panic ({_words(e['reason'])}): {_test(e['roll'], e['needed'], e['passed'])}"
    if e.get("commander", -1) >= 0:
        s += f" using {k.unit(e['commander'])}'s leadership"
    if e.get("levels_dropped"):
        s += f", confidence drops {e['levels_dropped']}"
    if e.get("panicked"):
        s += ": it panics"
    return s


def _confidence(k, e):
    s = f"{k.unit(e['unit'])} tests confidence ({_words(e['reason'])}): {_test(e['roll'], e['needed'])}"
    if e["levels_dropped"]:
        return s + f": drops {_plural(e['levels_dropped'], 'level')} to {e['confidence']}"
    return s + f": holds ({e['confidence']})"


def _rally(k, e):
    lv = e["levels"]
    how = f"gains {_plural(lv, 'level')}" if lv > 0 else ("no change" if lv == 0 else f"drops {_plural(-lv, 'level')}")
    return f"{k.unit(e['commander'])} rallies {k.unit(e['unit'])}: {_test(e['roll'], e['needed'])}: {how}, now {e['confidence']}"


def _assault_declared(k, e):
    s = f"{k.units(e['attackers'])} assault{'s' if len(e['attackers']) == 1 else ''} {k.units(e['defenders'])}"
    return s + (" (within 2\": no contact move needed)" if e.get("two_inch") else "")


def _assault_ended(k, e):
    """``result`` is ``"uid:outcome,uid:outcome"``: each unit's outcome."""
    parts = []
    for item in str(e.get("result", "")).split(","):
        uid, _, res = item.partition(":")
        if res and uid.strip().lstrip("-").isdigit():
            parts.append(f"{k.unit(int(uid))} {_words(res)}")
        elif item:
            parts.append(_words(item))
    return (f"the assault of {k.units(e['attackers'])} on {k.units(e['defenders'])} ends"
            + (": " + "; ".join(parts) if parts else ""))


def _placed(k, e):
    shift = "the leader stays" if e["shift"] < 0 else f"the leader moves {k.dist(2.0)} {compass(e['shift'])}"
    return f"{k.unit(e['unit'])} reorganises: {shift}; {FORMATIONS.get(e['formation'], _words(e['formation']))}"


def _seed_text(seed) -> str:
    """The game's seed as narrated: a side's own log never shows it (it would tell every die to come)."""
    return "seed hidden" if seed is None else f"seed {seed}"


def _seize_award(k, e):
    why = f"objective {e['name']}" if e["reason"] == "objective" else f"task {e['name']}"
    return f"{k.side_name(e['side'])} earns a seize token ({why}); {e['tokens']} now"


AMMUNITION_WORDS = {"general": "general purpose", "anti_personnel": "anti-personnel", "anti_armour": "anti-armour",
                    "smoke": "smoke", "incendiary": "incendiary"}
SIZE_WORDS = {"small": "small", "medium": "medium", "large": "large", "very_large": "very large"}


def _mission_impact(k, e):
    who = "" if e["firer"] < 0 else f" of {k.unit(e['firer'])}"
    seen = "no observer" if e["observer"] < 0 else f"observed by {k.unit(e['observer'])}"
    return (f"{k.side_name(e['side'])}'s fire mission{who} arrives ({_words(e['asset'])}): "
            f"{_plural(e['rounds'], SIZE_WORDS.get(e['size'], e['size']) + ' round')} of "
            f"{AMMUNITION_WORDS.get(e['ammo'], e['ammo'])} aimed at {_point((e['x'], e['y']))}, {seen}")


def _round_landed(k, e):
    if e["leadership"] < 0:
        acc = f"accuracy {die(e['die'])} {e['roll']} (no observer: not on target)"
    else:
        acc = f"accuracy {die(e['die'])} {_test(e['roll'], e['leadership'])}"
    if e["on_target"]:
        where = f"on target at {_point(e['at'])}"
    else:
        times = f"{e['roll']} x {e['multiplier']}" if e["multiplier"] > 1 else f"{e['roll']}"
        where = (f"scatters {times} = {k.dist(e['distance'])} towards {e['hour']} o'clock from "
                 f"{_point(e['origin'])} to {_point(e['at'])}")
    return f"round {e['round']}: {acc}: {where} (burst radius {k.dist(e['radius'])})"


_EVENT = {
    "GameStarted": lambda k, e: f"game starts: scenario {e['scenario']}, " + _seed_text(e.get("seed")),
    "TurnStarted": lambda k, e: f"turn {e['turn']} begins",
    "TurnEnded": lambda k, e: f"turn {e['turn']} ends",
    "InitiativeRolled": lambda k, e: (f"initiative: {k.side_name(0)} rolls {e['rolls'][0]}, {k.side_name(1)} rolls "
                                      f"{e['rolls'][1]}: {k.side_name(e['winner'])} wins"),
    "InitiativeChosen": lambda k, e: f"{k.side_name(e['side'])} chooses that {k.side_name(e['first'])} activates first",
    "Passed": lambda k, e: f"{k.side_name(e['side'])} passes",
    "UnitActivated": lambda k, e: f"{k.side_name(e['side'])} activates {k.unit(e['unit'])}",
    "ActivationEnded": lambda k, e: f"{k.unit(e['unit'])}'s activation ends",
    "LeadershipTested": lambda k, e: (f"{k.unit(e['unit'])} tests leadership ({_words(e['reason'])}): "
                                      f"{_test(e['roll'], e['needed'], e['passed'])}"),
    "Moved": _moved,
    "RoutedOff": lambda k, e: f"{k.unit(e['unit'])} routs off the table",
    "Propped": lambda k, e: f"{k.unit(e['unit'])} {'props (goes to ground)' if e['propped'] else 'unprops (gets up)'}",
    "ShotResolved": _shot,
    "ShotLost": lambda k, e: f"{k.unit(e['unit'])}'s shot at {k.unit(e['target'])} is lost",
    "HitResolved": _hit,
    "Suppressed": lambda k, e: f"{k.unit(e['unit'])} is suppressed ({_plural(e['markers'], 'suppression marker')})",
    "SuppressionRecovered": lambda k, e: (f"{k.unit(e['unit'])} tries to recover: {_test(e['roll'], e['needed'])}: "
                                          f"{'a marker removed' if e['removed'] else 'no marker removed'}, "
                                          f"{_plural(e['markers'], 'marker')} left"),
    "ConfidenceTested": _confidence,
    "ConcealmentChanged": lambda k, e: (f"{k.unit(e['unit'])} "
                                        f"{'takes complete concealment' if e['complete'] else 'gives up complete concealment'}"),
    "Rearranged": lambda k, e: f"{k.unit(e['unit'])} rearranges its figures",
    "LeaderLost": lambda k, e: f"{k.unit(e['unit'])} loses its leader (figure {e['figure'] + 1})",
    "LeaderAppointed": lambda k, e: (f"{k.unit(e['unit'])} appoints figure {e['figure'] + 1} as leader "
                                     f"(rolled {e['roll']}: leadership value {e['lv']})"),
    "ActionForgone": lambda k, e: f"{k.unit(e['unit'])} forgoes an action",
    "GameEnded": _game_ended,
    # morale, command
    "PanicTested": _panic,
    "CommunicationAttempted": _communication,
    "OrderGiven": lambda k, e: (f"{k.unit(e['commander'])} orders {k.unit(e['unit'])}: "
                                f"{'the order gets through' if e['success'] else 'the order fails'}"),
    "RallyTested": _rally,
    "CommanderLost": lambda k, e: (f"{k.unit(e['unit'])}'s commander falls"
                                   + (": the second in command takes over" if e.get("second_in_command")
                                      else f"; {k.units(e['subordinates'])} lose their commander")),
    "PromotionChosen": lambda k, e: (f"{k.side_name(e['side'])} promotes {k.unit(e['unit'])} to replace "
                                     f"{k.unit(e['lost'])}" if e["unit"] >= 0 else
                                     f"{k.side_name(e['side'])} promotes no one to replace {k.unit(e['lost'])}"),
    "PromotionLapsed": lambda k, e: f"{k.unit(e['unit'])} can no longer be promoted to replace {k.unit(e['lost'])}",
    "CommandAssumed": lambda k, e: f"{k.unit(e['unit'])} assumes the command of {k.unit(e['lost'])}",
    "CommandVacated": lambda k, e: (f"{k.unit(e['unit'])} moves up: {k.units(e['subordinates'])} may promote a "
                                    "new commander"),
    "CombinedAssaultOrdered": lambda k, e: (f"{k.unit(e['commander'])} orders {k.units(e['units'])} into a combined "
                                            f"assault on {k.unit(e['target'])} ("
                                            + ", ".join(f"{k.unit(u)}: {'yes' if s else 'no'}"
                                                        for u, s in zip(e['units'], e['success'])) + ")"),
    # close assault
    "AssaultDeclared": _assault_declared,
    "AssaultResponse": lambda k, e: f"{k.unit(e['unit'])} {'stands' if e['choice'] == 'stand' else 'withdraws'}",
    "CourageTested": _courage,
    "ConfidenceDropped": lambda k, e: (f"{k.unit(e['unit'])} drops {_plural(e['levels'], 'confidence level')} "
                                       f"({_words(e['reason'])}): now {e['confidence']}"),
    "ContactMove": _contact,
    "SuppressionTested": lambda k, e: (f"{k.unit(e['unit'])} tests to act while suppressed: "
                                       f"{_test(e['roll'], e['needed'], e['passed'])}"),
    "AssaultReaction": lambda k, e: (f"{k.unit(e['unit'])} takes the reaction test: "
                                     f"{_test(e['roll'], e['needed'], e['passed'])}"),
    "StrikeResolved": _strike,
    "WoundedAbandoned": lambda k, e: f"{k.unit(e['unit'])} abandons {_plural(e['figures'], 'wounded figure')}",
    "SpecialWeaponsChoice": lambda k, e: (f"{k.unit(e['unit'])}'s special close-combat weapons "
                                          f"{'fight on their own' if e['split'] else 'stay with the unit'}"),
    "AssaultEnded": _assault_ended,
    "Pursued": lambda k, e: (f"{k.unit(e['unit'])} pursues {k.unit(e['target'])} (rolled {e['roll']}: "
                             f"{e['points']:g} movement points): {'caught' if e['caught'] else 'escaped'}"),
    # the rest of infantry Dustup
    "Mounted": lambda k, e: f"{k.unit(e['unit'])} {'mounts' if e['mounted'] else 'dismounts'}",
    "Detached": lambda k, e: (f"{k.unit(e['unit'])} detaches {DETACH.get(e['what'], _words(e['what']))} as "
                              f"{k.unit(e['detachment'])} ({_plural(e['figures'], 'figure')})"),
    "Communicated": lambda k, e: (f"{k.unit(e['unit'])} communicates with {k.unit(e['receiver'])}: "
                                  + ("automatic" if not e.get("roll") else _test(e['roll'], e['needed'], e['success']))),
    "Rejoined": lambda k, e: f"{k.unit(e['detachment'])} rejoins {k.unit(e['unit'])}",
    "MedicalTreatment": _medical,
    "PowerArmourHit": lambda k, e: (f"{k.unit(e['unit'])}'s power armour suit (figure {e['figure'] + 1}) is wrecked: "
                                    f"rolled {e['roll']}: occupant {_words(e['result'])}"),
    "OccupantExtracted": lambda k, e: f"{k.unit(e['unit'])} extracts the occupant of figure {e['figure'] + 1}'s suit",
    "FiguresLeftBehind": lambda k, e: (f"{k.unit(e['unit'])} leaves behind {_plural(e['wounded'], 'wounded figure')}"
                                       + (f" and {_plural(e['disabled'], 'disabled suit')}" if e.get('disabled') else "")),
    "WoundedAbandonedByChoice": lambda k, e: (f"{k.unit(e['unit'])} abandons {_plural(e['figures'], 'wounded figure')} "
                                              "where they lie"),
    "WoundedRecovered": lambda k, e: f"{k.unit(e['unit'])} picks up {_plural(e['figures'], 'wounded figure')}",
    "Regrouped": lambda k, e: (f"{k.unit(e['unit'])} regroups with {k.unit(e['partner'])} (leadership value {e['lv']}, "
                               f"quality {die(e['quality'])}, {e['confidence']})"),
    "TaskDone": lambda k, e: f"{k.unit(e['unit'])} completes the task {e['name']} ({e['vp']} VP)",
    "TravelModeChanged": lambda k, e: (f"{k.unit(e['unit'])} "
                                       f"{'forms column (travel mode)' if e['travel'] else 'leaves travel mode'}"),
    "Evacuated": lambda k, e: f"{k.unit(e['unit'])} carries {_plural(e['wounded'], 'wounded figure')} off the table",
    "FiguresPlaced": _placed,
    "InboundCounterMoved": lambda k, e: (f"{k.unit(e['unit'])}'s inbound counter moves to box {e['box']}"
                                         if e["box"] else f"{k.unit(e['unit'])}'s inbound counter reaches the battle area"),
    "ReinforcementArrived": lambda k, e: f"{k.unit(e['unit'])} arrives at {_point(e['position'])}",
    # hidden units
    "UnitRevealed": _revealed,
    "UnitHidden": lambda k, e: f"{k.unit(e['unit'])} becomes hidden (marker {e['marker']})",
    "MarkerRemoved": lambda k, e: f"marker {e['marker']} is removed ({_words(e['reason'])})",
    "DetectionAttempted": _detection,
    "HiddenActivity": lambda k, e: f"{k.side_name(e['side'])}: activity you cannot see",
    # activation and initiative
    "ChitDrawn": lambda k, e: (f"a {k.side_name(e['side'])} chit is drawn"
                               + (f" (rolled {e['roll']})" if e.get("roll") else "")
                               + f"; chits left {e['chits_left'][0]}-{e['chits_left'][1]}"),
    "CardDrawn": lambda k, e: (f"{k.unit(e['unit'])}'s card is drawn" + (f" (rolled {e['roll']})" if e.get("roll") else "")
                               + f"; {_plural(e['cards_left'], 'card')} left"),
    "TurnEndCardDrawn": lambda k, e: (f"the turn-end card is drawn" + (f" (rolled {e['roll']})" if e.get("roll") else "")
                                      + f"; {_plural(e['cards_left'], 'unit card')} not drawn"),
    "ActivationCardDrawn": lambda k, e: (f"a {k.side_name(e['side'])} activation card is drawn"
                                         + (f" (rolled {e['roll']})" if e.get("roll") else "")
                                         + f"; {_plural(e['cards_left'], 'card')} left"),
    "InitiativeSeized": lambda k, e: (f"{k.side_name(e['side'])} seizes the initiative with {k.unit(e['unit'])} "
                                      f"({_plural(e['tokens_left'], 'token')} left)"),
    "InitiativeTakenBack": lambda k, e: (f"{k.side_name(e['side'])} takes the initiative back with {k.unit(e['unit'])} "
                                         f"({_plural(e['tokens_left'], 'token')} left)"),
    "SeizeTokenAwarded": _seize_award,
    # Armoured Dustup: heavy and guided weapons, rockets
    "HeavyWeaponTask": lambda k, e: f"{k.unit(e['unit'])}: {REORGANISE.get(e['task'], _words(e['task']))}",
    "HeavyWeaponFired": lambda k, e: _fired(k, e, f"fires its heavy weapon ({e['weapon']})"),
    "RocketFired": lambda k, e: _fired(k, e, f"fires a rocket ({_words(e['weapon'])})"),
    "HeavyWeaponHit": lambda k, e: (f"hit on {k.unit(e['unit'])}'s heavy weapon: impact {die(e['impact'])} "
                                    f"{e['impact_roll']} against armour {die(e['armour'])} {e['armour_roll']}: "
                                    f"{'no effect' if e['damage'] == 'none' else _words(e['damage'])}"),
    "HeavyWeaponAbandoned": lambda k, e: f"{k.unit(e['unit'])} abandons its heavy weapon at {_point((e['x'], e['y']))}",
    "MissileFired": lambda k, e: (f"{k.unit(e['unit'])} fires a guided missile ({e['weapon']}) at {k.unit(e['target'])}: "
                                  f"ECM {die(e['ecm'])} rolls {e['ecm_roll']}, firer {_rolls(e['dice'], e['rolls'])}: "
                                  + {"none": "a miss", "minor": "suppressed", "major": "a hit"}.get(e["result"],
                                                                                                   _words(e["result"]))),
    "MissileIntercepted": lambda k, e: (f"{k.unit(e['by'])}'s {_words(e['system'])} {die(e['die'])} {e['roll']} against "
                                        f"guidance {die(e['guidance'])} {e['guidance_roll']}: the missile at "
                                        f"{k.unit(e['unit'])} is {'defeated' if e['defeated'] else 'not defeated'}"),
    "ProtectionDeployed": lambda k, e: f"{k.unit(e['unit'])} deploys its area protection at {_point((e['x'], e['y']))}",
    # vehicles
    "Embarked": lambda k, e: f"{k.unit(e['unit'])} mounts {k.unit(e['vehicle'])}",
    "Disembarked": lambda k, e: (f"{k.unit(e['unit'])} {'bails out of' if e['forced'] else 'dismounts from'} "
                                f"{k.unit(e['vehicle'])} at {_point((e['x'], e['y']))}"),
    "Turned": lambda k, e: f"{k.unit(e['unit'])} turns to face {e['facing']:g} degrees",
    "HatchesChanged": lambda k, e: f"{k.unit(e['unit'])} {'opens up' if e['opened_up'] else 'closes down'}",
    "CrewDismounted": lambda k, e: (f"the crew of {k.unit(e['vehicle'])}, {k.unit(e['crew'])}, dismounts to fight "
                                    f"{k.unit(e['attacker'])}"),
    "TowAttached": lambda k, e: f"{k.unit(e['unit'])} {'lines up to push' if e['pushing'] else 'takes in tow'} {k.unit(e['towed'])}",
    # Aerospace Operations
    "AdeAcquisition": lambda k, e: (f"the air defences roll {e['ade']} against {k.unit(e['unit'])}'s ECM {e['ecm']}: "
                                    f"{'acquired' if e['acquired'] else 'not acquired'}"),
    "AdeEngagement": lambda k, e: (f"the air defences engage {k.unit(e['unit'])}: {e['ade']}"
                                   f"{' (doubled)' if e['doubled'] else ''} against armour {e['armour']}: "
                                   f"{'shot down' if e['shot_down'] else 'it gets through'}"),
    "AircraftArrived": lambda k, e: (f"{k.unit(e['unit'])} arrives "
                                     f"{'in the loiter box' if e['where'] == 'loiter' else 'at ' + _point((e['x'], e['y']))}"),
    "AircraftHeld": lambda k, e: f"{k.unit(e['unit'])} holds off the table",
    "AircraftLeft": lambda k, e: f"{k.unit(e['unit'])} leaves the table ({e['where'].replace('_', ' ')}, {e['reason']})",
    "AircraftShotDown": lambda k, e: f"{k.unit(e['unit'])} is shot down with everyone aboard",
    "AircraftFlew": lambda k, e: f"{k.unit(e['unit'])} flies to {_point(tuple(e['end']))}",
    "AircraftHovering": lambda k, e: f"{k.unit(e['unit'])} hovers",
    "AircraftLanded": lambda k, e: (f"{k.unit(e['unit'])} lands ({e['zone']} landing zone)"
                                    f"{': a heavy landing, it cannot take off again' if e['heavy'] else ''}"),
    "AircraftTookOff": lambda k, e: f"{k.unit(e['unit'])} takes off",
    "AntiAircraftFire": lambda k, e: (f"{k.unit(e['unit'])} fires at {k.unit(e['aircraft'])} ({e['stage']}): guidance "
                                      f"{e['guidance']}{', firepower ' + str(e['firepower']) if e['firepower'] else ''}"
                                      f" against ECM {e['ecm']}: {e['result']}"),
    "PilotChoice": lambda k, e: f"the pilot of {k.unit(e['unit'])} chooses to {e['choice']}",
    "AircraftHit": lambda k, e: (f"{k.unit(e['unit'])} hit: impact {e['impact']} against armour {e['armour']}: "
                                 f"{e['result']}"),
    "AircraftCrashed": lambda k, e: f"{k.unit(e['unit'])} comes down at {_point((e['x'], e['y']))}: {e['result']}",
    "OccupantHurt": lambda k, e: f"an occupant of {k.unit(e['unit'])} rolls {e['roll']}: {e['result']}",
    "TroopsDropped": lambda k, e: (f"{k.unit(e['unit'])} drops from {k.unit(e['vehicle'])} "
                                   f"({'fast-rope' if e['method'] == 'rope' else 'grav-packs'}): {e['wounded']} wounded"),
    "BombDropped": lambda k, e: f"{k.unit(e['unit'])} drops a bomb at {_point((e['x'], e['y']))}",
    "InsertionLanded": lambda k, e: (f"{k.unit(e['unit'])} is inserted: {'lost off the table' if e['lost'] else 'lands at ' + _point((e['x'], e['y']))}"),
    "ModelLanded": lambda k, e: f"a model of {k.unit(e['unit'])} lands at {_point((e['x'], e['y']))}: {e['result']}",
    "VehicleHit": lambda k, e: (f"{k.unit(e['unit'])} hit on the {e['facing']}: impact {e['impact']} against armour "
                                f"{e['armour']}: {'no effect' if e['result'] == 'none' else e['result']}"),
    "VehicleDamaged": lambda k, e: f"{k.unit(e['unit'])} is damaged ({_plural(e['damage'], 'damage marker')})",
    "VehicleImmobilised": lambda k, e: f"{k.unit(e['unit'])} is immobilised",
    "VehicleDestroyed": lambda k, e: f"{k.unit(e['unit'])} is destroyed; its wreck stays at {_point((e['x'], e['y']))}",
    "PassengerHit": lambda k, e: (f"passenger of {k.unit(e['unit'])} rolls {e['roll']} (needs more than {e['needed']}): "
                                  f"{'unharmed' if e['roll'] > e['needed'] else 'wounded'}"),
    "CasevacCalled": lambda k, e: (f"{k.unit(e['unit'])} calls the CASEVAC vehicle {k.unit(e['vehicle'])}: "
                                   f"{'it comes' if e['success'] else 'no answer'}"),
    "CasevacArrived": lambda k, e: f"CASEVAC vehicle {k.unit(e['unit'])} arrives at {_point((e['x'], e['y']))}",
    "WoundedTransferred": lambda k, e: (f"{k.unit(e['unit'])} puts {_plural(e['wounded'], 'wounded figure')} aboard "
                                       f"{k.unit(e['vehicle'])}"),
    "CasevacDeparted": lambda k, e: f"{k.unit(e['unit'])} leaves with {_plural(e['wounded'], 'wounded figure')}",
    "CasevacBoost": lambda k, e: (f"{k.unit(e['unit'])} rolls {e['roll']} for the evacuation: "
                                  + (f"up {_plural(e['levels'], 'level')} to {e['confidence']}" if e['levels'] else "no change")),
    "CasevacCounterMoved": lambda k, e: f"the CASEVAC counter of {k.unit(e['unit'])} moves to zone {e['zone']}",
    "TowReleased": lambda k, e: f"{k.unit(e['unit'])} lets go of {k.unit(e['towed'])} ({_words(e['reason'])})",
    # vehicle combat (armoured_dustup: firing_at_vehicles, fire_by_vehicles)
    "SuppressionResisted": lambda k, e: (f"small arms cannot add a suppression marker to {k.unit(e['unit'])} "
                                         f"({_plural(e['markers'], 'marker')})"),
    # artillery and air support (artillery_and_air_support/impacts.py)
    "FireMissionImpact": _mission_impact,
    "RoundLanded": _round_landed,
    "BlastStruck": lambda k, e: (f"round {e['round']} catches {k.units(e['units'])}" if e["units"]
                                 else f"round {e['round']} catches no one"),
    "AmmunitionWithoutEffect": lambda k, e: (f"{AMMUNITION_WORDS.get(e['ammo'], e['ammo'])} rounds land with no "
                                             f"effect (no rule of this game gives them one)"),
    "VehicleAssaulted": lambda k, e: (f"{k.unit(e['unit'])} and {k.unit(e['vehicle'])}: courage {die(e['attacker_die'])} "
                                      f"{e['attacker_roll']} against {die(e['defender_die'])} {e['defender_roll']}: "
                                      f"{_words(e['result'])}"),
}


def _fired(k, e, what):
    res = {"none": "no effect", "minor": "minor success", "major": "major success"}.get(e["result"], e["result"])
    out = (f"{k.unit(e['unit'])} {what} at {k.unit(e['target'])}: target die {die(e['target_die'])} rolls "
           f"{e['target_roll']}, firer {_rolls(e['dice'], e['rolls'])}: {_successes(e['successes'])}, {res}")
    return out + (f", {_plural(e['hits'], 'hit')}" if e.get("hits") else "")

# fire support (artillery_and_air_support: fire_support_request, fire_missions)
_OPTION.update({
    "request_fire": lambda k, kind, unit, a, chits: (f"request fire support (asset {int(a) + 1}"
                                                     + (f", spending {_plural(chits, 'chit')})" if chits else ")")),
    "fire_target": lambda k, kind, unit, x, y: f"place the target marker at {_point((x, y))}",
    "fire_dummy": lambda k, kind, unit, x, y: f"place a dummy target marker at {_point((x, y))}",
    "fire_mission": lambda k, kind, unit, n: f"resolve due fire mission {int(n) + 1} (instead of a unit)",
    "hold_mission": lambda k, kind, unit, n: f"hold due fire mission {int(n) + 1} in the loiter box",
})
DECISION_KINDS.update({"fire_target": "fire support granted: place the target marker",
                       "fire_dummy": "place a dummy target marker"})


def _points(ps) -> str:
    ps = list(ps or ())
    if ps and not isinstance(ps[0], (list, tuple)):
        ps = [ps]
    return ", ".join(_point(p) for p in ps)


def _counter_box(box) -> str:
    return {0: "reaches the battle area (due)", -1: "goes to the loiter box"}.get(box, f"moves to box {box}")


_EVENT.update({
    "FireSupportRequested": lambda k, e: (f"{k.unit(e['unit'])} requests {e['support']} support: "
                                          f"{die(e['die'])} " + _test(e['roll'], e['needed'], e['success'])),
    "TargetMarkersPlaced": lambda k, e: (f"{k.side_name(e['side'])} places target markers at "
                                         + _points(e["points"])),
    "FireSupportCounterMoved": lambda k, e: (f"{k.side_name(e['side'])}'s fire mission {e['mission'] + 1} "
                                             + _counter_box(e["box"])),
    "FireMissionHeld": lambda k, e: f"{k.side_name(e['side'])} holds fire mission {e['mission'] + 1}",
    "FireMissionCancelled": lambda k, e: (f"{k.side_name(e['side'])}'s fire mission {e['mission'] + 1} is cancelled "
                                          "(its firing unit has left play)"),
    "FireMissionArrived": lambda k, e: (f"{k.side_name(e['side'])}'s fire mission {e['mission'] + 1} comes in "
                                        f"at {_point((e['x'], e['y']))}"),
})

# fire and smoke (additional_rules: fire, smoke)
_OPTION.update({
    "ignite": lambda k, kind, unit, x, y: f"set {_point((x, y))} alight with the flame thrower",
    "fight_fire": lambda k, kind, unit, ref: f"fight fire {int(ref) + 1} (both actions)",
    "lay_smoke": lambda k, kind, unit, d, dist: f"lay smoke {k.dist(dist)} {compass(d)}",
    "discharge_smoke": lambda k, kind, unit: "fire the smoke dischargers",
    "exhaust_smoke": lambda k, kind, unit: "make exhaust smoke",
})


def _smoke_by(k, e) -> str:
    who = k.unit(e["unit"]) if e["unit"] >= 0 else str(e["source"]).capitalize()
    n = len(e["clouds"])
    return f"{who} lays smoke: {_plural(n, 'cloud')}" if e["unit"] >= 0 else f"{who} smoke: {_plural(n, 'cloud')}"


_EVENT.update({
    "IgnitionRolled": lambda k, e: (f"{k.unit(e['unit'])}'s flame thrower at {_point((e['x'], e['y']))}"
                                    f"{' (flammable)' if e['flammable'] else ''}: rolls {e['roll']}, "
                                    + ("it catches fire" if e["caught"] else "no fire")),
    "FireStarted": lambda k, e: f"a fire starts at {_point((e['x'], e['y']))} ({e['cause']})",
    "FireBurned": lambda k, e: (f"{k.unit(e['unit'])} "
                                + ("is" if e["figure"] < 0 else f"(figure {e['figure'] + 1}) is")
                                + f" burned by fire {e['entity'] + 1}: {e['result']}"),
    "FireRolled": lambda k, e: f"fire {e['entity'] + 1} rolls {e['roll']}: {e['result']}",
    "FireFought": lambda k, e: (f"{k.unit(e['unit'])} fights fire {e['entity'] + 1}: {die(e['die'])} rolls "
                                f"{e['roll']}, " + ("it is out" if e["out"] else "it burns on")),
    "SmokePlaced": _smoke_by,
    "SmokeDispersed": lambda k, e: (f"smoke {e['source']} rolls {e['roll']}: {e['removed']} removed"
                                    + (f", {e['added']} added" if e["added"] else "")),
    "SmokeLifted": lambda k, e: f"{k.unit(e['unit'])}'s smoke clears ({_plural(e['clouds'], 'cloud')})",
    "WindRolled": lambda k, e: f"the wind blows smoke towards {e['hour']} o'clock",
})


# seed 001 reactions, seed 004 interrupts (rules/reactions_and_interrupts)
_REACTED = {"fire": "fires back", "move": "moves", "hit_the_dirt": "hits the dirt"}
_EVENT.update({
    "ReactionTaken": lambda k, e: (f"{k.unit(e['unit'])} reacts to {k.unit(e['trigger'])}"
                                   f"{' moving' if e['window'] in ('before', 'after') else ''}: "
                                   f"{_REACTED.get(e['what'], _words(str(e['what'])))} (a reaction token)"),
    "ReactionLost": lambda k, e: f"{k.unit(e['unit'])}'s reaction fire at {k.unit(e['target'])} is lost",
    "ReactionTokenCost": lambda k, e: f"{k.unit(e['unit'])} has a reaction token: one action fewer",
    "ReactionTokensRemoved": lambda k, e: "the reaction tokens come off " + k.units(e["units"]),
    "InterruptDeclared": lambda k, e: (f"{k.unit(e['unit'])} gives up its activation to interrupt "
                                       f"{k.unit(e['target'])}" + (" mid-move" if e["at"] == "move" else "")),
    "InterruptSpotRolled": lambda k, e: (f"{k.unit(e['unit'])} tries to spot {k.unit(e['target'])}: "
                                         f"{die(e['range_die'])} {e['target_roll']} against "
                                         f"{_rolls(e['observer_dice'], e['observer_rolls'])}: "
                                         + ("spotted" if e["spotted"] else "not spotted, the interrupt fails")),
    "InterruptResponse": lambda k, e: (f"{k.unit(e['unit'])} responds to the interrupt: "
                                       + _test(e["roll"], e["needed"], e["passed"])
                                       + ("" if e["passed"] else " (suppressed, it stops)")),
})


# mines and explosives (additional_rules/mines_and_explosives)
def _counter(e) -> str:
    return f"counter {int(e['entity']) + 1}"


_OPTION.update({
    "clear_lane": lambda k, kind, unit, r: f"send one model to clear a lane through minefield {int(r) + 1}",
    "line_charge": lambda k, kind, unit, r: f"fire the line charge across minefield {int(r) + 1} (both actions)",
    "cdm_fire": lambda k, kind, unit: "fire the command-detonated mine",
    "cdm_hold": lambda k, kind, unit: "hold the command-detonated mine",
})
DECISION_KINDS.update({"cdm": "enemy models are in a command-detonated mine's arc: fire it or hold?"})
_EVENT.update({
    "MineTest": lambda k, e: (f"{k.unit(e['unit'])} in minefield {_counter(e)}: "
                              + (f"lane D12 rolls {e['roll']}" if e["lane"] else f"quality rolls {e['roll']}")
                              + (": a mine goes off" if e["hit"] else ": safe")),
    "VehicleMine": lambda k, e: (f"a mine goes off under {k.unit(e['unit'])}: impact {die(e['impact'])} rolls "
                                 f"{e['impact_roll']} against belly {die(e['armour'])} {e['armour_roll']}: "
                                 f"{e['result']}"),
    "DummyCounter": lambda k, e: f"{k.unit(e['unit'])} finds {_counter(e)} a dummy: removed",
    "CounterRemoved": lambda k, e: f"{_counter(e)} removed ({e['how'].replace('_', ' ')})",
    "ClearingRoll": lambda k, e: f"{k.unit(e['unit'])} ploughs {_counter(e)}: quality rolls {e['roll']}",
    "LaneCleared": lambda k, e: (f"{k.unit(e['unit'])} clears a lane into {_counter(e)} to "
                                 f"{_point((e['x1'], e['y1']))}" + (" (right through)" if e["complete"] else "")),
    "CdmFired": lambda k, e: f"a command-detonated mine ({_counter(e)}) fires at {k.unit(e['target'])}",
    "CdmSet": lambda k, e: f"{k.unit(e['unit'])} sets up a command-detonated mine ({_counter(e)})",
    "TrapTest": lambda k, e: (f"{k.unit(e['unit'])} by {_counter(e)}: quality {e['roll']} against D8 "
                              f"{e['trap_roll']}: {e['result']}"),
})


# electronic warfare and drones (additional_rules: electronic_warfare, drones)
_OPTION.update({
    "ew_on": lambda k, kind, unit: "mark the EW system active (three counters, no action)",
    "ew_spot": lambda k, kind, unit, i, n: f"remote spotting of {k.marker(i)} with {_plural(n, 'EW counter')}",
    "ew_watch": lambda k, kind, unit, uid, n: (f"{k.unit(uid)} listens to {k.unit(unit)}'s activation "
                                               f"({_plural(n, 'EW counter')})" if unit is not None and unit >= 0 else
                                               f"{k.unit(uid)} listens ({_plural(n, 'EW counter')})"),
    "ew_oppose": lambda k, kind, unit, uid, n: f"{k.unit(uid)} opposes the enemy EW ({_plural(n, 'EW counter')})",
    "drone_launch": lambda k, kind, unit: "prepare and launch a drone",
    "drone_move": lambda k, kind, unit, x, y: f"fly the drone to {_point((x, y))}",
    "drone_spot": lambda k, kind, unit, i: f"spot {k.marker(i)} with the drone",
})

_EW_TASKS = {"jam": "jams the communication", "sensor": "disrupts the sensor", "guidance": "disrupts the guidance",
             "spot": "remote spotting"}

_EVENT.update({
    "EWSwitchedOn": lambda k, e: f"{k.unit(e['unit'])} marks its EW system active ({_plural(e['counters'], 'counter')})",
    "EWListening": lambda k, e: (f"{k.unit(e['unit'])} listens to {k.unit(e['target'])}'s activation "
                                 f"({_plural(e['counters'], 'EW counter')})"),
    "EWOpposing": lambda k, e: f"{k.unit(e['unit'])} stands ready to oppose ({_plural(e['counters'], 'EW counter')})",
    "EWAttempt": lambda k, e: (f"{k.unit(e['unit'])} EW: {_EW_TASKS.get(e['task'], e['task'])}: {die(e['die'])} rolls "
                               f"{e['roll']} against {die(e['against'])} {e['against_roll']}"
                               + (f", opposed by {k.unit(e['defender'])} {die(e['opposing_die'])} "
                                  f"{e['opposing_roll']}" if e['defender'] >= 0 else "")
                               + (": success" if e['success'] else ": fails")),
    "DroneLaunched": lambda k, e: f"{k.unit(e['unit'])} launches a drone",
    "DroneMoved": lambda k, e: f"the drone flies to {_point((e['x'], e['y']))}",
    "DroneCrashed": lambda k, e: (f"{k.unit(e['unit'])}'s drone crashes and is lost"
                                  + (" (its operator took another action)" if e['reason'] == "action" else "")),
    "DroneSpotted": lambda k, e: (f"{k.unit(e['unit'])}'s drone spots {k.marker(e['marker'])}: range die "
                                  f"{die(e['range_die'])} rolls {e['target_roll']}, "
                                  f"{_rolls(e['observer_dice'], e['observer_rolls'])}: {e['result']}"),
})


# Buildings and Fortifications (additional_rules: buildings, fortifications) and seed 004's building assault
_PARTS = {0: "", 1: "'s first door or window", 2: "'s second door or window"}


def _building(ref, part=0) -> str:
    return f"building {int(ref) + 1}{_PARTS.get(int(part), '')}"


_OPTION.update({
    # k: a vehicle's weapon slot; infantry: 0 its heavy weapon, 1 its rocket
    "fire_building": lambda k, kind, unit, ref, part, w: f"fire at {_building(ref, part)} with weapon {int(w) + 1}",
    "fire_fortification": lambda k, kind, unit, target, w: f"fire the fortification's weapon {int(w) + 1} at {k.unit(target)}",
    "building_assault": lambda k, kind, unit, target: f"assault {k.unit(target)} room by room (grenades, then melee)",
})


def _building_fired(k, e) -> str:
    res = {"none": "no effect", "minor": "minor success", "major": "major success"}.get(e["result"], e["result"])
    out = (f"{k.unit(e['unit'])} fires {e['weapon']} at {_building(e['entity'], e['part'])}: target die "
           f"{die(e['target_die'])} rolls {e['target_roll']}, firer {_rolls(e['dice'], e['rolls'])}: "
           f"{_successes(e['successes'])}, {res}")
    return out + (f", {_plural(e['hits'], 'hit')}" if e.get("hits") else "")


_EVENT.update({
    "BuildingFired": _building_fired,
    "BuildingHit": lambda k, e: (f"hit on {_building(e['entity'], e['part'])}: impact {e['impact']} against armour "
                                 f"{e['armour']}: {'no effect' if e['result'] == 'none' else _words(e['result'])}"),
    "OpeningMissed": lambda k, e: (f"the shot misses {_building(e['entity'], e['part'])}; D6 {e['roll']}: "
                                   + ("it strikes the building" if e["struck_building"] else "it misses the building")),
    "BuildingSuppressed": lambda k, e: f"{_building(e['entity'])} is suppressed, and with it its occupants",
    "BuildingDamaged": lambda k, e: f"{_building(e['entity'])} is damaged ({_plural(e['damage'], 'damage marker')})",
    "BuildingDestroyed": lambda k, e: (f"{_building(e['entity'])} is destroyed: "
                                       + ("rubble" if e["how"] == "rubble" else "breached")),
    "OccupantHit": lambda k, e: (f"{k.unit(e['unit'])}, in the building: armour roll {e['roll']} "
                                 + ("unharmed" if e["roll"] > e["needed"] else "wounded")
                                 + f" (needs more than {e['needed']})"),
    "BuildingAssaulted": lambda k, e: (f"{k.unit(e['attacker'])} assaults {k.unit(e['defender'])} in "
                                       f"{_building(e['entity'])}, room by room ({_plural(e['rooms'], 'room')})"),
    "GrenadeThrown": lambda k, e: (f"a grenade into room {int(e['room']) + 1}: D10 {', '.join(str(r) for r in e['rolls'])}: "
                                   f"{_plural(e['casualties'], 'casualty')}, the rest stunned"),
    "RoomMelee": lambda k, e: (f"melee in room {int(e['room']) + 1}: the assaulters {die(e['attacker_die'])} "
                               f"{', '.join(str(r) for r in e['attacker_rolls'])}, the defenders {die(e['defender_die'])} "
                               f"{', '.join(str(r) for r in e['defender_rolls'])}: {_words(e['outcome'])}; "
                               f"{_plural(e['attacker_casualties'], 'assaulter')} and "
                               f"{_plural(e['defender_casualties'], 'defender')} hit"),
    "BuildingAssaultEnded": lambda k, e: (f"{k.unit(e['attacker'])} "
                                          + ("clears" if e["cleared"] else "does not clear")
                                          + f" {_building(e['entity'])} ({_plural(e['rooms_cleared'], 'room')} cleared)"),
})


# cargo (rules/aerospace_operations/cargo.py)
_CARGO = {"box": "man-portable boxes", "large": "a large item"}
_OPTION.update({
    "load_cargo": lambda k, kind, unit, v, size: f"load {_CARGO.get(size, size)} onto {k.unit(v)}",
    "unload_cargo": lambda k, kind, unit, v, size: f"unload {_CARGO.get(size, size)} from {k.unit(v)}",
    "drop_cargo": lambda k, kind, unit, size: f"drop every {'man-portable box' if size == 'box' else 'large item'} aboard",
})
_CARGO_LANDED = {"table": "", "off_table": ": off the table, lost", "water": ": in the water, lost"}
_EVENT.update({
    "CargoLoaded": lambda k, e: f"{k.unit(e['unit'])} loads {_plural(e['items'], 'cargo item')} onto {k.unit(e['vehicle'])}",
    "CargoUnloaded": lambda k, e: (f"{k.unit(e['unit'])} unloads {_plural(e['items'], 'cargo item')} from "
                                   f"{k.unit(e['vehicle'])}"),
    "CargoLost": lambda k, e: f"{_plural(e['items'], 'cargo item')} lost with {k.unit(e['vehicle'])}",
    "CargoDropped": lambda k, e: (f"{k.unit(e['vehicle'])} drops {'a man-portable box' if e['size'] == 'box' else 'a large item'}"
                                  f" at {_point((e['x'], e['y']))}"
                                  + (f" (D6 {e['roll']})" if e["roll"] else " (straight down)")
                                  + _CARGO_LANDED.get(e["where"], "")),
})

# every option name labelled here and every event type narrated here (others get generic_label / the generic line),
# taken once every table above is complete
OPTION_NAMES = frozenset(_OPTION)
EVENT_TYPES = frozenset(_EVENT)
