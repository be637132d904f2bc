"""A game told and played in a terminal: the story of a saved game (``dustup replay``) and a person playing
one side (``dustup play --agents human,hard``).

The words come from :mod:`dustup_env.narrate` (option labels and one line per event, from one side's
knowledge or a spectator's) and the maps from :mod:`dustup_env.render`.  A person playing a side sees
only what that side may know: the map is drawn from ``game.view(side)``, the events are that side's
filtered log (``game.event_log(side)``), and the options are its own decision's.
"""
from __future__ import annotations

import sys

from .render import render_ansi, unit_label

HELP = ("Type the number of an option and Enter. Other commands: go DIR DIST = move (e.g. go NE 6; go NE alone "
        "shows where each distance may end), m = show the map again, "
        "u = the units, info N = everything your side knows of unit N (its code on the map, e.g. A0 or B2, its "
        "place in the unit list or its name), l = the last events again, l N = every event of unit N so far, "
        "h = this help, q = stop the game.")
SIDE_MARKS = ("A", "B")  # the map's side letters: each event line starts with its side's mark
_COLOURS = ("\033[34m", "\033[33m")  # blue and yellow-orange (told apart with a colour blindness)
_RESET = "\033[0m"
# the fields of an event that name a unit (an event "of a unit" names it in one of them)
UNIT_FIELDS = ("unit", "target", "commander", "sender", "striker", "vehicle", "receiver", "detachment", "partner", "towed",
               "by", "crew", "attacker", "lost", "defender", "firer", "carrier")
UNIT_LIST_FIELDS = ("units", "subordinates", "defenders", "targets", "attackers")


def _narrate():
    try:
        from . import narrate
    except ImportError:  # pragma: no cover - narrate ships with the package
        raise RuntimeError("dustup_env.narrate is missing: the story and the labels need it") from None
    return narrate


def _labels(game) -> dict:
    out, slots = {}, [0, 0]
    for u in game.view(0)["units"]:
        out[u["uid"]] = unit_label(u["side"], slots[u["side"]])
        slots[u["side"]] += 1
    return out


def sides_line(game) -> str:
    scn = game.scenario
    edges = {"south": "bottom", "north": "top", "east": "right", "west": "left"}
    parts = []
    for s, side in enumerate(scn["sides"]):
        edge = side.get("home_edge", "?")
        parts.append(f"side {s} {side['name']} ({'A' if s == 0 else 'B'}, home edge {edge}, the map's "
                     f"{edges.get(edge, edge)})")
    return "; ".join(parts)


# ---------------------------------------------------------------------------------------------- the story
def event_side(e: dict, know) -> int | None:
    """The side an event belongs to: its ``side``, else the side of the unit it is about."""
    s = e.get("side")
    if isinstance(s, int) and s in (0, 1):
        return s
    for k in ("unit", "commander", "sender", "striker", "vehicle", "target"):
        u = e.get(k)
        if isinstance(u, int) and u in know.unit_sides:
            return know.unit_sides[u]
    return None


def names_unit(e: dict, uid: int) -> bool:
    """Whether event ``e`` is about unit ``uid`` (names it in one of its unit fields)."""
    if any(e.get(k) == uid for k in UNIT_FIELDS):
        return True
    return any(isinstance(e.get(k), (list, tuple)) and uid in e[k] for k in UNIT_LIST_FIELDS)


def find_unit(game, text: str, side: int | None = None) -> int:
    """The unit ``text`` names: its code on the map (``A0``, ``b2``), its place in the unit list (``3``) or its
    display name (whole, or a part only one unit has).  Raises ValueError with a one-line reason."""
    from .render import picture

    pic = picture(game, side)
    t = text.strip()
    if not t:
        raise ValueError("name a unit: its code on the map (A0), its number in the unit list or its name")
    for u in pic["units"]:
        if u["label"].lower() == t.lower():
            return u["uid"]
    if t.isdigit():
        k = int(t)
        if 1 <= k <= len(pic["units"]):
            return pic["units"][k - 1]["uid"]
        raise ValueError(f"there is no unit {k}: the unit list has {len(pic['units'])} (u shows it)")
    exact = [u["uid"] for u in pic["units"] if u["display"].lower() == t.lower()]
    if exact:
        return exact[0]
    part = [u for u in pic["units"] if t.lower() in u["display"].lower()]
    if len(part) == 1:
        return part[0]["uid"]
    if not part:
        raise ValueError(f"no unit is called {t!r} (u lists them)")
    raise ValueError(f"{t!r} could be " + ", ".join(u["display"] for u in part[:6]) + ": say which")


class Indenter:
    """Lines of a log indented by activation: a unit's activation one step in, the actions of a squad it orders
    (and the commander's next order) kept inside that activation; each line marked by its side (``A``/``B``, the
    map's letters; coloured for a terminal)."""

    def __init__(self, know, colour: bool = False):
        self.know, self.colour = know, colour
        self.stack: list[int] = []  # the activated unit, then the units it ordered

    def line(self, e: dict, text: str | None = None) -> str | None:
        t = e.get("type")
        if t == "TurnStarted":
            self.stack = []
            return None
        if t == "ActivationEnded":
            u = e.get("unit")
            if u in self.stack:
                del self.stack[self.stack.index(u) + (1 if self.stack.index(u) == 0 else 0):]
                if self.stack and self.stack[0] == u:
                    self.stack = []
            return None
        text = text if text is not None else self.know_narrate(e)
        if t == "UnitActivated":
            self.stack = [e.get("unit")]
            depth = 0
        else:
            depth = len(self.stack)
        out = self.mark(e) + "  " * (depth + 1) + text
        if t == "OrderGiven" and e.get("success") and self.stack:
            self.stack = self.stack[:1] + [e.get("unit")]
        return out

    def know_narrate(self, e: dict) -> str:
        return _narrate().narrate(e, self.know)

    def mark(self, e: dict) -> str:
        s = event_side(e, self.know)
        m = SIDE_MARKS[s] if s is not None else " "
        if self.colour and s is not None:
            return f"{_COLOURS[s]}{m}{_RESET}"
        return m


def story(game, side: int | None = None, unit: str | None = None) -> list[str]:
    """The finished (or stopped) ``game`` told turn by turn, as a spectator (``side=None``) or as ``side``
    knows it: one line per event, marked by its side (``A``: side 0, ``B``: side 1), activations indented with
    the actions of the squads a commander orders inside them, the result at the end; ``unit``: only the events
    of that unit (:func:`find_unit`)."""
    N = _narrate()
    know = N.Knowledge.spectator(game) if side is None else N.Knowledge.of_side(game, side)
    scn = game.scenario
    from .rules import DEFAULT_OPTIONS

    only = None if unit is None else find_unit(game, unit, side)
    opts = {k: v for k, v in game.options.items() if k not in DEFAULT_OPTIONS or DEFAULT_OPTIONS[k] != v}
    lines = [f"{scn['name']}: {scn.get('description', '').strip()}".rstrip(": "),
             sides_line(game) + f"; {game.turn_limit} turns.",
             "Options: " + (", ".join(f"{k}={v}" for k, v in sorted(opts.items())) or "the standard rules") + "."]
    if side is not None:
        lines.append(f"As side {side} knows it (hidden enemy units stay unnamed until found).")
    if only is not None:
        lines.append(f"Only the events of {know.unit(only)}.")
    lines.append("Each line starts with its side: A = side 0, B = side 1.")
    events = game.event_log() if side is None else game.event_log(side)
    ind = Indenter(know)
    for e in events:
        t = e.get("type")
        if t == "TurnStarted":
            lines += ["", f"Turn {e['turn']}"]
        text = ind.line(e)
        if text is None or (only is not None and not names_unit(e, only)):
            continue
        lines.append(text)
    res = game.result() if game.over else None
    lines.append("")
    if res is None:
        lines.append(f"The game stops unfinished in turn {game.turn}.")
    else:
        who = ("a draw" if res["winner"] not in (0, 1)
               else f"side {res['winner']} ({know.side_name(res['winner'])}) wins")
        lines.append(f"Result: {who}, victory points {res['vp'][0]} to {res['vp'][1]} ({res['reason']}), "
                     f"after {res['turns']} turns.")
    return lines


# ---------------------------------------------------------------------------------------------- options and moves
def option_menu(game, side: int, decision, know) -> tuple[list[str], list, dict]:
    """The lines that list ``decision``'s options for a person: every option but the moves numbered, with its odds
    where the engine can enumerate them (``insight.short_odds``), and the moves as one compact line (the compass
    picker: ``go DIR DIST``).  Returns (lines, the numbered options in order, the move grid {dir: {dist: option}})."""
    from . import insight
    N = _narrate()
    grid = insight.move_grid(decision.options) if decision.kind == "action" else {}
    numbered = [o for o in decision.options if not (grid and o[0] == "move" and len(o) == 3)]
    lines = []
    for i, o in enumerate(numbered):
        text = f"  {i + 1:>3}. {N.option_label(o, decision.kind, know, unit=decision.unit)}"
        if decision.kind in insight.ODDS_KINDS:
            odds = insight.short_odds(insight.option_odds(game, side, o, decision.unit))
            if odds:
                text += f"  [{odds}]"
        lines.append(text)
    if grid:
        lines.append("    go. " + move_summary(grid, know.length))
        from .narrate import MOVE_DISTANCES
        for d in sorted(grid):  # a move into a minefield the side knows of: its odds on a line of its own
            for k in sorted(grid[d]):
                odds = insight.short_odds(insight.option_odds(game, side, grid[d][k], decision.unit))
                if odds:
                    lines.append(f"        go {insight.COMPASS[d]} {MOVE_DISTANCES[k]:g}  [{odds}]")
    return lines, numbered, grid


def move_summary(grid: dict, length: str = '"') -> str:
    """One line for the move options: the form of the command, and per distance the compass points open
    (``length``: the unit's mark, ``'"'`` or ``" cm"`` in a game played in centimetres)."""
    from . import insight
    from .narrate import MOVE_DISTANCES
    per = []
    for k, dist in enumerate(MOVE_DISTANCES):
        open_ = [d for d in range(16) if k in grid.get(d, {})]
        shut = [insight.COMPASS[d] for d in range(16) if d not in open_]
        what = ("any direction" if not shut else "none" if not open_ else
                "all but " + " ".join(shut) if len(shut) <= 8 else " ".join(insight.COMPASS[d] for d in open_))
        per.append(f'{dist:g}{length}: {what}')
    return 'move: type "go DIR DIST" (DIR N, NNE, NE, ... NNW); ' + "; ".join(per)


def parse_go(text: str, grid: dict):
    """``go DIR [DIST]`` -> (direction index, distance index or None), or an error message (str)."""
    from . import insight
    from .narrate import MOVE_DISTANCES
    parts = text.split()
    if len(parts) not in (2, 3):
        return 'type "go DIR DIST", e.g. "go NE 6" (or "go NE" to see where each distance may end)'
    name = parts[1].upper()
    if name not in insight.COMPASS:
        return f"{parts[1]!r} is not a compass point: " + ", ".join(insight.COMPASS)
    d = insight.COMPASS.index(name)
    if len(parts) == 2:
        return d, None
    try:
        dist = float(parts[2].rstrip('"').removesuffix("cm").strip())
    except ValueError:
        dist = -1.0
    if dist not in MOVE_DISTANCES:
        return f"{parts[2]!r} is not a distance: " + ", ".join(f"{x:g}" for x in MOVE_DISTANCES)
    k = MOVE_DISTANCES.index(dist)
    if k not in grid.get(d, {}):
        return f"moving {name} {dist:g} is not open to this unit now"
    return d, k


def reach_lines(game, side: int, unit: int, d: int, grid: dict) -> list[str]:
    """Where a move toward direction ``d`` may end for each distance: the least and the greatest movement roll."""
    import math

    from . import insight
    r = insight.reach(game, side, unit)
    u = game.units[unit]
    mark = " cm" if game.options.get("measure") == "centimetres" else '"'  # rules units: centimetres in 15mm play
    lo, hi = r["rolls"]
    out = [f"  {insight.COMPASS[d]}: movement {r['movement']} (roll {lo}-{hi}, {r['points'][0]:g}-{r['points'][1]:g} "
           f"points); each distance ends between:"]
    for dist in r["distances"]:
        if dist["k"] not in grid.get(d, {}):
            continue
        e = dist["directions"][d]
        a = math.hypot(e["min"][0] - u.x, e["min"][1] - u.y)
        b = math.hypot(e["max"][0] - u.x, e["max"][1] - u.y)
        test = f"; shaken: a leadership test first, it moves {e['p_moves']:.0%}" if e["p_moves"] < 1 else ""
        out.append(f'    go {insight.COMPASS[d]} {dist["distance"]:g}: {a:.1f}{mark} to {b:.1f}{mark} '
                   f"(to {e['min'][0]:.1f},{e['min'][1]:.1f} .. {e['max'][0]:.1f},{e['max'][1]:.1f}){test}")
    return out


# ---------------------------------------------------------------------------------------------- a person plays
def unit_panel(game, side: int | None, uid: int) -> list[str]:
    """Everything ``side`` may know of unit ``uid`` (own or enemy), read from ``game.view(side)`` only (through
    :func:`~dustup_env.render.picture`): quality, leadership, confidence, suppression, figures and casualties,
    weapons, armour, movement, activation, passengers, damage; a hidden enemy unit shows nothing of its truth."""
    from collections import Counter

    from .render import picture, state_line
    from .rules import die_name
    from .rules.kernel.entities import CONFIDENCE_NAMES, KILLED, OK

    pic = picture(game, side)
    by = {u["uid"]: u for u in pic["units"]}
    u = by.get(uid)
    if u is None:
        return [f"there is no unit {uid}"]
    labels = {x["uid"]: x["label"] for x in pic["units"]}
    sname = game.side_names[u["side"]]
    own = side is None or u["side"] == side
    head = f"{u['display']} [{u['label']}], {sname} (side {u['side']}){'' if own else ', the enemy'}"
    if u.get("unseen") or not u["known"]:
        return [head, "  hidden: your side has not found it (at most a marker shows where a hidden unit may be)"]
    out = [head + f": {u['kind'].replace('_', ' ')}", f"  state: {state_line(u, labels)}"]
    out.append(f"  quality {die_name(u['quality']).upper()}, leadership {u['lv']}, confidence "
               f"{CONFIDENCE_NAMES[u['confidence']]}, suppression markers {u['suppression']}"
               + (", PANICKED" if u.get("panicked") else ""))
    figs = u["figures"]
    status = Counter(f["status"] for f in figs)
    wounded = len(figs) - status.get(OK, 0) - status.get(KILLED, 0)
    if not u.get("vehicle"):
        out.append(f"  figures {len(figs)}: {status.get(OK, 0)} able, {wounded} wounded or disabled, "
                   f"{status.get(KILLED, 0)} killed (casualties {len(figs) - status.get(OK, 0)})")
        weapons = Counter(f["weapon"].replace("_", " ") for f in figs if f["status"] != KILLED)
        out.append("  weapons: " + (", ".join(f"{w} x{n}" if n > 1 else w for w, n in sorted(weapons.items()))
                                    or "none left"))
        out.append(f"  armour {u['armour'].replace('_', ' ')}, movement {die_name(u['movement']).upper()}")
    else:
        vp = u["vehicle"]
        out.append(f"  {vp['name']} ({vp['kind'].replace('_', ' ')}, size {vp['size']}), movement "
                   f"{str(vp.get('movement_die', '?')).upper()}")
        out.append("  armour " + ", ".join(f"{f} {str(vp['armour'][f]).upper()}" for f in ("front", "side", "rear", "top")
                                           if f in vp["armour"]))
        out.append("  weapons: " + (", ".join(f"{k + 1}: {w['name']} ({w['arc'].replace('_', ' ')})"
                                              for k, w in enumerate(vp["weapons"])) or "none"))
        out.append(f"  damage markers {u.get('damage', 0)}" + (", immobilised" if u.get("immobilised") else "")
                   + (f", ECM {str(vp['ecm']).upper()}" if vp.get("ecm") else ""))
        if own and vp.get("transport_figures"):
            ps = [by[p]["display"] for p in u.get("passengers", []) if p in by]
            out.append("  passengers: " + (", ".join(ps) if ps else "none"))
    if u.get("carrier", -1) >= 0 and u["carrier"] in by:
        out.append(f"  mounted in {by[u['carrier']]['display']}")
    if own and u.get("commander", -1) >= 0 and u["commander"] in by:
        out.append(f"  commander: {by[u['commander']]['display']}")
    out.append("  activation: " + ("activated this turn" if u.get("activated") else "not activated yet this turn"))
    return out


class Quit(Exception):
    """The person asked to stop (q) or their input ended."""


class HumanAgent:
    """Asks a person for each decision of its side in the terminal (numbered legal options, the map from the
    side's own view, what happened since its last decision)."""

    name = "human"

    def __init__(self, side: int, inp=None, out=None):
        self.side = side
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self.shown = 0  # events of this side's log already printed
        self.last: list[str] = []
        self.indenter = None  # indents and marks the log by activation and side (kept between decisions)
        self.colour = bool(getattr(self.out, "isatty", lambda: False)())

    def reset(self, seed=None) -> None:
        self.shown = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def catch_up(self, game) -> None:
        """Print the events of this side's log not shown yet (AI moves included)."""
        N = _narrate()
        log = game.event_log(self.side)
        new = log[self.shown:]
        self.shown = len(log)
        if not new:
            return
        know = N.Knowledge.of_side(game, self.side)
        if self.indenter is None:
            self.indenter = Indenter(know, colour=self.colour)
        self.indenter.know = know
        lines = []
        for e in new:
            if e.get("type") == "TurnStarted":
                lines.append(f"--- turn {e['turn']} ---")
            text = self.indenter.line(e)
            if text is not None:
                lines.append(text)
        self.last = lines
        for x in lines:
            self.say(x)

    def choose(self, game, decision):
        N = _narrate()
        self.catch_up(game)
        know = N.Knowledge.of_side(game, self.side)
        labels = _labels(game)
        self.say()
        self.say(render_ansi(game, side=self.side).rstrip("\n"))
        head = N.decision_prompt(decision.side, decision.kind, decision.unit, know)
        if decision.unit is not None and decision.unit >= 0:
            head += f" [{labels.get(decision.unit, '?')}]"
        self.say(head)
        lines, opts, grid = option_menu(game, self.side, decision, know)
        for x in lines:
            self.say(x)
        while True:
            ask = (f"1-{len(opts)}, " if opts else "") + ("go DIR DIST, " if grid else "")
            print(f"your choice ({ask}h for help)> ", end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                raise Quit("input ended")
            text = line.strip().lower()
            if text in ("q", "quit", "exit"):
                raise Quit("stopped by the player")
            if text in ("h", "help", "?"):
                self.say(HELP)
                continue
            if text == "go" or text.startswith("go "):
                if not grid:
                    self.say("there is no move among these options")
                    continue
                got = parse_go(text, grid)
                if isinstance(got, str):
                    self.say(got)
                    continue
                d, k = got
                if k is None:
                    for x in reach_lines(game, self.side, decision.unit, d, grid):
                        self.say(x)
                    continue
                return grid[d][k]
            if text == "m":
                self.say(render_ansi(game, side=self.side).rstrip("\n"))
                continue
            if text == "l":
                for x in self.last or ["(nothing yet)"]:
                    self.say(x)
                continue
            if text.startswith("l ") or text.startswith("info"):
                arg = line.strip()[1:] if text.startswith("l ") else line.strip()[4:]
                try:
                    uid = find_unit(game, arg, self.side)
                except ValueError as e:
                    self.say(str(e))
                    continue
                if text.startswith("info"):
                    for x in unit_panel(game, self.side, uid):
                        self.say(x)
                    continue
                ind = Indenter(know, colour=self.colour)
                got = [t for e in game.event_log(self.side) for t in [ind.line(e)]
                       if t is not None and names_unit(e, uid)]
                self.say(f"every event of {know.unit(uid)} so far:" if got else f"nothing yet of {know.unit(uid)}")
                for x in got:
                    self.say(x)
                continue
            if text == "u":
                rows = render_ansi(game, side=self.side).splitlines()[-(len(labels) + 1):-1]
                self.say("\n".join(f"{k + 1:>3}. {r}" for k, r in enumerate(rows)) + "\n(info N: a unit's panel)")
                continue
            try:
                k = int(text)
            except ValueError:
                self.say(f"'{line.strip()}' is not a number: {HELP}")
                continue
            if not 1 <= k <= len(opts):
                self.say(f"{k} is not among the options 1-{len(opts)}")
                continue
            return opts[k - 1]


def play(game, agents, humans: list, out=None) -> None:
    """Play ``game`` to the end: ``agents[s]`` decides for side ``s``; every human sees the events of its side
    as they happen (after each decision when one person plays, before its own decisions when two do)."""
    out = out or sys.stdout
    single = humans[0] if len(humans) == 1 else None
    for h in humans:
        h.say(f"You play side {h.side}. " + sides_line(game) + ". " + HELP)
    while not game.over:
        d = game.decision()
        game.apply(agents[d.side].choose(game, d))
        if single is not None and d.side != single.side:
            single.catch_up(game)
    for h in humans:
        h.catch_up(game)
        res = game.result()
        who = "a draw" if res["winner"] not in (0, 1) else f"side {res['winner']} wins" + (
            " (you)" if res["winner"] == h.side else "")
        h.say(render_ansi(game, side=h.side).rstrip("\n"))
        h.say(f"Game over: {who}, victory points {res['vp'][0]} to {res['vp'][1]} ({res['reason']}).")
