"""The game: state, the single pending decision, applying options, save/load/clone/replay.

At every moment a game has exactly one pending :class:`Decision`: whose it is (``side``), what
kind (``kind``) and its legal ``options``.  Options are plain tuples using the rulebook's words:

========================  ===========================================================
kind ``initiative``       ``("first",)``, ``("second",)``: the initiative winner's choice
kind ``activate``         ``("activate", uid)``, ``("inbound", uid)`` (move a reinforcement's counter),
                          ``("pass",)`` (only with fewer unactivated units)
kind ``action``           ``("move", direction, distance)``, ``("withdraw",)``, ``("prop",)``,
                          ``("unprop",)``, ``("shoot", target_uid, mode)``, ``("recover",)``,
                          ``("reorganise", "conceal" | "reveal" | "rearrange" | "leader")``,
                          ``("shoot_weapon", target_uid, k)`` (the k-th support weapon alone),
                          ``("throw", target_uid, "one" | "alone" | "specialist")`` (grenades thrown singly),
                          ``("end",)`` (forgo the remaining actions of this activation)
========================  ===========================================================

The rules modules add more option names (assault, order, detach, treat, evacuate, ...) through
the registries below; ``dustup_env/codec.py`` lists every option family.

``apply(option)`` checks the option against the legal list before touching anything, so an
illegal option raises :class:`IllegalOptionError` and leaves the state untouched.
"""
from __future__ import annotations

import copy
import hashlib
import json
import math
from dataclasses import dataclass, field

from . import events as ev
from .battlefield import RES, Battlefield
from .data import armoury, load_scenario
from .dice import D6, D8, D12, DiceSource, SeededDice, die_name
from .errors import GameOverError, IllegalOptionError, SaveFormatError, ScenarioError
from .measurement import to_rules_units
from .entities import BROKEN, KILLED, OK, ROUTED, SHAKEN, TREATED, WOUNDED, Unit
from ..forces.units import build_unit
from ..morale.morale import confidence_test, leadership_test
from ..unit_actions.move_action import DIR_VECTORS, DIRECTIONS, DISTANCES, move_path, nominated_point, reform

_WEAPONS = armoury()[0]
_HAND_GRENADE_RANGE = _WEAPONS["hand_grenade"].max_range
MOVE_OPTIONS = tuple(tuple(("move", d, k) for k in range(len(DISTANCES))) for d in range(DIRECTIONS))
# the move options' offsets, each product computed as in nominated_point (x + vx * dist): (dx, dy, option)
_MOVE_STEPS = tuple((vx * dist, vy * dist, MOVE_OPTIONS[d][k])
                    for d, (vx, vy) in enumerate(DIR_VECTORS) for k, dist in enumerate(DISTANCES))
from ..unit_actions.shoot_action import (FIRE_MODES, GRENADE_THROWERS, NO_ENGAGE, SUPPORT_SLOTS, THROW_MODES,
    WEAPON_MODES, allocation_roll, armour_die, resolve_fire, resolve_impact, small_arms_die, target_die)

SAVE_FORMAT = "dustup-save"
SAVE_VERSION = 1

DEFAULT_OPTIONS = {
    "extra_hits": True,  # "Optional Additional Hits": remainder roll
    "random_quality": False,  # optional random quality table (overrides scenario qualities)
    "random_leadership": False,
    "random_confidence": False,
    "night": False,  # a night game: "Night Vision" (unaided/aided detection ranges / 3) and seed 003 Night
    #                  Fighting (+2 target die shift for firers without night vision)
    "seize_tokens": 0,  # "Seize the Initiative": tokens per side (an int, or [side 0, side 1]); 0 = off
    "seize_tokens_veterans": False,  # + one seize token per veteran or elite unit at the start (RN-355)
    "seize_tokens_objectives": False,  # + one seize token when a side first holds an objective / does a task
    "activation": "alternate",  # "Random Activation": "alternate" (standard) | "chits" | "cards"
    "chit_quality_variant": False,  # chits: +1 chit per veteran/elite unit, -1 per militia (untrained) unit
    "turn_end_card": False,  # cards: the deck holds a random "turn end" card (RN-356)
    "rally_double_half": False,  # optional Rally rule: > 2x target raises two levels, < half drops one
    "jamming": False,  # Communicate › Jamming: a side's scenario "jammer" die opposes the other side's "comms" die
    "close_combat": "dustup",  # "dustup" (seed 000 Assault Action) or "house" (seed 003 house rules)
    "house_pursuit": False,  # seed 003's optional pursuit of a unit withdrawing after a lost reaction test (RN-401)
    "courage_table": None,  # None = data/courage_test.json; or a path / a table dict (assault courage test)
    "power_armour_extraction": False,  # optional: extract the occupant of a wrecked suit (reorganise "extract")
    "casevac_vp": 0,  # Casualty Evacuation: victory points per wounded figure carried off the table (RN-357)
    "measure": "inches",  # Battlefield: "inches" or "centimetres" (15mm figures: centimetres for inches, RN-358)
}
OBJECTIVE_RADIUS = 3.0
HOME_EDGES = ("south", "north", "west", "east")


@dataclass(frozen=True, slots=True)
class Decision:
    side: int
    kind: str  # "initiative" | "activate" | "action"
    unit: int  # the acting unit for "action" decisions, else -1
    options: tuple

    def __contains__(self, option) -> bool:
        return tuple(option) in self.options


@dataclass(slots=True)
class Frame:
    """One entry of the game's stack (plain data, so games deep-copy and digest).

    ``type == "activation"``: a unit taking its actions (``ordered``: activated by a commander's
    order, which places no activation marker).  Any other type names a *procedure* registered in
    :data:`PROCEDURES` (e.g. an assault) that is waiting for a decision; ``data`` holds its state.
    The top frame owns the pending decision.
    """

    type: str
    unit: int = -1
    actions_left: int = 0
    ordered: bool = False
    data: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UnitStatus:
    """What restricts a unit's actions right now (computed once per decision)."""

    in_cover: bool
    suppressed: bool
    disorganised: bool


_UNIT_STATUS: dict = {}


def _unit_status(in_cover: bool, suppressed: bool, disorganised: bool) -> UnitStatus:
    """The (frozen) UnitStatus of these flags, one shared object per combination."""
    key = (in_cover, suppressed, disorganised)
    st = _UNIT_STATUS.get(key)
    if st is None:
        st = _UNIT_STATUS[key] = UnitStatus(in_cover, suppressed, disorganised)
    return st


# Extension points for rules modules (each registers itself on import; see rules/__init__.py).
# Options and actions:
#   ACTIONS[name](game, unit, option)                    applies an action option ("name", ...)
#   ACTION_PROVIDERS: [f(game, unit, status) -> options]  extra legal action options
#   ACTION_FILTERS: [f(game, unit, options) -> options]   remove options a unit state forbids (travel mode)
#   OPTION_OVERRIDES: [f(game, unit, frame) -> options | None]  replace a unit's whole option list (panic)
#   REORGANISE_ACTIONS[what](game, unit)                  applies ("reorganise", what) beyond the core four
#                                                         (returns False if it counts the action itself)
#   PROCEDURES[type]: object with decision(game, frame) -> Decision and apply(game, frame, option)
# Turn sequence:
#   INIT_HOOKS: [f(game)]  once at the end of Game.__init__ (validate options, markers, command tree)
#   BEFORE_APPLY / AFTER_APPLY: [f(game, decision, option)]  around every applied option
#   ACTIVATION_HOOKS: [f(game)]  a normal (alternating) activation is due; may push a procedure frame
#     (and set phase "action") to take a decision first (e.g. seizing the initiative)
#   ACTIVATION_SEQUENCES[options["activation"]]: object with start_turn(game), next(game) and
#     may_pass(game, side) replacing the alternating sequence (random activation)
#   HOOKS[point]: [f(game, ...)]  rule callbacks run by Game.run_hooks: "activation" (game, unit),
#     "shot" (game, shooter, target), "leader_lost" (game, unit), "between_activations" (game) -> True
#     if it pushed a procedure frame
# Movement, fire and scoring:
#   MOVEMENT_DIE_HOOKS: [f(game, unit, die) -> die]      movement die changes (encumbrance, cavalry)
#   MOVEMENT_ROLL_HOOKS: [f(game, unit, die) -> roll | None]  a fixed roll instead of rolling (travel mode)
#   MOVE_BLOCKER_HOOKS: [f(game, unit) -> [(x, y)]]      more figures a move must stop 2" from
#   MOVE_HOOKS: [f(game, unit, start, withdraw)]         after a move (panic on sight, figures left behind)
#   HIT_HOOKS: [f(game, target, figure, effect) -> applied effect | None]  replace a hit's effect
#   SHOT_HOOKS: [f(game, firer, target, result, reasons)]  after a shot, before its confidence test
#   VP_HOOKS: [f(game, vp)]                              add victory points (vp: a 2-list)
ACTIONS: dict = {}
ACTION_PROVIDERS: list = []
ACTION_FILTERS: list = []
OPTION_OVERRIDES: list = []
REORGANISE_ACTIONS: dict = {}
PROCEDURES: dict = {}
INIT_HOOKS: list = []
BEFORE_APPLY: list = []
AFTER_APPLY: list = []
ACTIVATION_HOOKS: list = []
ACTIVATION_SEQUENCES: dict = {}
HOOKS: dict = {"activation": [], "shot": [], "leader_lost": [], "between_activations": []}
MOVEMENT_DIE_HOOKS: list = []
MOVEMENT_ROLL_HOOKS: list = []
MOVE_BLOCKER_HOOKS: list = []
MOVE_HOOKS: list = []
HIT_HOOKS: list = []
SHOT_HOOKS: list = []
VP_HOOKS: list = []

_BF_CACHE: dict[str, Battlefield] = {}


def _battlefield(doc: dict) -> Battlefield:
    key = hashlib.sha1(json.dumps([doc["table"], doc.get("terrain", []), doc.get("obstacles", [])],
                                  sort_keys=True).encode()).hexdigest()
    bf = _BF_CACHE.get(key)
    if bf is None:
        bf = _BF_CACHE[key] = Battlefield(doc)
    return bf


def _plain(obj):
    """Plain-data view of a dataclass instance (every field, recursively; sets sorted)."""
    if hasattr(obj, "__dataclass_fields__"):
        return {k: _plain(getattr(obj, k)) for k in obj.__dataclass_fields__}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    return obj


def support_figure(u: Unit, k: int) -> int:
    """Figure index of the unit's ``k``-th support-weapon figure (figure order), or -1."""
    for i, f in enumerate(u.figures):
        if _WEAPONS[f.weapon].cls == "support":
            if k == 0:
                return i
            k -= 1
    return -1


class Game:
    """One game of Dustup."""

    def __init__(self, scenario="default", seed: int = 0, options: dict | None = None,
                 dice: DiceSource | None = None):
        self.source_scenario = load_scenario(scenario)  # as given (saved); self.scenario is in rules units
        opts = dict(DEFAULT_OPTIONS)
        opts.update(self.source_scenario.get("options", {}))
        if options:
            opts.update(options)
        unknown = set(opts) - set(DEFAULT_OPTIONS)
        if unknown:
            raise ScenarioError(f"unknown game option(s): {', '.join(sorted(unknown))}; "
                                f"known: {', '.join(DEFAULT_OPTIONS)}")
        self.options = opts
        self.scenario = to_rules_units(self.source_scenario, opts["measure"])  # centimetres for inches (RN-358)
        self.seed = int(seed)
        self.dice = dice if dice is not None else SeededDice(self.seed)
        self.bf = _battlefield(self.scenario)
        _, armours = armoury()
        self.units: list[Unit] = []
        self.side_units: tuple[list[int], list[int]] = ([], [])
        self.home_edges = tuple(s["home_edge"] for s in self.scenario["sides"])
        self.side_names = tuple(s["name"] for s in self.scenario["sides"])
        for s, side in enumerate(self.scenario["sides"]):
            for spec in side["units"]:
                spec = dict(spec)
                if opts["random_quality"]:
                    spec["quality"] = "random"
                if opts["random_leadership"]:
                    spec["leadership"] = "random"
                if opts["random_confidence"]:
                    spec["confidence"] = "random"
                u = build_unit(len(self.units), s, spec, side.get("commitment", "medium"), armours, self.dice)
                self.units.append(u)
                self.side_units[s].append(u.uid)
        self.objectives = [(o["name"], float(o["position"][0]), float(o["position"][1]), int(o["vp"]))
                           for o in self.scenario.get("objectives", [])]
        self.turn_limit = int(self.scenario["turn_limit"])
        self.turn = 0
        self.phase = "start"
        self.current = 0  # side whose activation it is (or who decides the initiative)
        self.initiative_winner = -1
        self.stack: list[Frame] = []
        self.winner: int | None = None
        self.vp = (0, 0)
        self.end_reason = ""
        self.events: list = []
        self.history: list[tuple] = []
        self._decision: Decision | None = None
        self._enemy_memo: list | None = None  # per side, while the options of an action decision are built
        self.markers: list[dict] = []  # hidden-unit markers {side, x, y, unit (-1 = dummy), removed}
        self.extra: dict = {}  # plain-data game state of rules modules (tokens, chit bag, card deck)
        for hook in INIT_HOOKS:
            hook(self)
        self.events.append(ev.GameStarted(self.scenario["name"], self.seed))
        self._start_turn()

    # ------------------------------------------------------------------ public API
    @property
    def over(self) -> bool:
        return self.phase == "over"

    def decision(self) -> Decision:
        """The one pending decision (raises GameOverError once the game has ended)."""
        if self.phase == "over":
            raise GameOverError("the game is over: there is no pending decision")
        d = self._decision
        if d is None:
            d = self._decision = self._make_decision()
        return d

    def legal_options(self) -> tuple:
        return self.decision().options

    def apply(self, option) -> None:
        """Apply one legal option of the pending decision."""
        if self.phase == "over":
            raise GameOverError(f"the game is over: cannot apply {option!r}")
        opt = tuple(option)
        d = self.decision()
        if opt not in d.options:
            raise IllegalOptionError(
                f"{opt!r} is not a legal option for side {d.side}'s {d.kind} decision"
                + (f" (unit {self.units[d.unit].name!r})" if d.unit >= 0 else "")
                + f"; {len(d.options)} legal options, e.g. {list(d.options[:5])}")
        for hook in BEFORE_APPLY:
            hook(self, d, opt)
        self.history.append(opt)
        self._decision = None
        kind = d.kind
        if kind == "initiative":
            self._choose_initiative(opt)
        elif kind == "activate":
            self._activate(opt)
        elif self.stack[-1].type == "activation":
            self._action(opt)
        else:
            top = self.stack[-1]
            PROCEDURES[top.type].apply(self, top, opt)
        for hook in AFTER_APPLY:
            hook(self, d, opt)

    def unit(self, uid: int) -> Unit:
        return self.units[uid]

    @property
    def active(self) -> int:
        """The unit taking actions (top activation frame), or -1."""
        for f in reversed(self.stack):
            if f.type == "activation":
                return f.unit
        return -1

    @property
    def actions_left(self) -> int:
        for f in reversed(self.stack):
            if f.type == "activation":
                return f.actions_left
        return 0

    def activation_frame(self) -> Frame | None:
        for f in reversed(self.stack):
            if f.type == "activation":
                return f
        return None

    def emit(self, event) -> None:
        self.events.append(event)

    def event_log(self, side: int | None = None) -> list[dict]:
        """Every event, or (``side`` given) only what that side may know (hidden units filtered out)."""
        if side is None:
            return [e.to_dict() for e in self.events]
        from ..unit_actions.hidden_units import filtered_log
        return filtered_log(self, side)

    def view(self, side: int) -> dict:
        """The plain data ``side`` may know: own units fully, enemy units only when not hidden, markers
        by position only (see :mod:`.hidden_units`)."""
        from ..unit_actions.hidden_units import view
        return view(self, side)

    def run_hooks(self, point: str, *args) -> bool:
        """Run the rule callbacks registered at ``point``; True if one of them returned True (and stop there)."""
        for hook in HOOKS[point]:
            if hook(self, *args):
                return True
        return False

    def result(self) -> dict:
        return {"winner": self.winner, "vp": list(self.vp), "reason": self.end_reason, "turns": self.turn,
                "decisions": len(self.history)}

    # ------------------------------------------------------------------ turn sequence
    def _start_turn(self) -> None:
        self.turn += 1
        if self.turn > self.turn_limit:
            self.turn = self.turn_limit
            self._end_game("turn limit")
            return
        for u in self.units:
            u.activated = False
        self.events.append(ev.TurnStarted(self.turn))
        seq = ACTIVATION_SEQUENCES.get(self.options["activation"])
        if seq is not None:
            seq.start_turn(self)
            return
        while True:  # D8 each; ties are re-rolled
            r0 = self.dice.roll(D8)
            r1 = self.dice.roll(D8)
            if r0 != r1:
                break
        self.initiative_winner = 0 if r0 > r1 else 1
        self.events.append(ev.InitiativeRolled((r0, r1), self.initiative_winner))
        self.current = self.initiative_winner
        self.phase = "initiative"

    def _choose_initiative(self, opt) -> None:
        w = self.initiative_winner
        self.current = w if opt[0] == "first" else 1 - w
        self.events.append(ev.InitiativeChosen(w, self.current))
        self.phase = "activate"
        self._next_activation()

    def can_activate(self, u: Unit) -> bool:
        """May activate in the normal sequence (a detachment acts only through its parent while that is in play;
        a reinforcement's counter on the inbound track moves instead, ``("inbound", uid)``)."""
        if u.activated:
            return False
        if not u.in_play:
            return u.inbound > 0
        return u.parent < 0 or not self.units[u.parent].in_play

    def _unactivated(self, side: int) -> int:
        n = 0
        for uid in self.side_units[side]:
            if self.can_activate(self.units[uid]):
                n += 1
        return n

    def _next_activation(self) -> None:
        if self.phase == "over":
            return
        seq = ACTIVATION_SEQUENCES.get(self.options["activation"])
        if seq is not None:
            seq.next(self)
            return
        if self._unactivated(self.current) == 0:
            self.current = 1 - self.current
            if self._unactivated(self.current) == 0:
                self.events.append(ev.TurnEnded(self.turn))
                self._start_turn()
                return
        self.phase = "activate"
        if HOOKS["between_activations"]:
            self.run_hooks("between_activations")  # may push a procedure frame (phase "action")
            if self.stack:
                return
        for hook in ACTIVATION_HOOKS:
            hook(self)

    def _activate(self, opt) -> None:
        side = self.current
        if opt[0] == "pass":
            self.events.append(ev.Passed(side))
            self.current = 1 - side
            self._next_activation()
            return
        u = self.units[opt[1]]
        if opt[0] == "inbound":  # instead of activating a unit, a counter moves along the inbound track
            from ..rules_overview.inbound_chart import advance
            advance(self, u)
            self.current = 1 - side
            self._next_activation()
            return
        u.activated = True
        self.events.append(ev.UnitActivated(side, u.uid))
        self.start_activation(u, ordered=False)

    def start_activation(self, u: Unit, ordered: bool = False) -> None:
        """Push an activation frame: the unit takes two actions (an order's activation places no marker)."""
        u.fired.clear()
        self.stack.append(Frame("activation", u.uid, 2, ordered))
        self.phase = "action"
        if HOOKS["activation"]:
            self.run_hooks("activation", u)

    def action_done(self, u: Unit, used: int = 1) -> None:
        """Count ``used`` actions of the top activation frame and end it when none are left."""
        if self.phase == "over":
            return
        f = self.activation_frame()
        f.actions_left -= used
        if f.actions_left <= 0 or not u.in_play:
            self._end_activation()
        else:
            self._check_decisive()

    def _end_activation(self) -> None:
        f = self.stack.pop()
        u = self.units[f.unit]
        if (u.leader_lost and f.actions_left <= 0 and u.in_play and u.confidence != ROUTED
                and not f.data.get("no_appoint")):  # no_appoint: the leader fell during this activation
            self._appoint_leader(u)
        self.events.append(ev.ActivationEnded(u.uid))
        if self._check_decisive():
            return
        if self.stack:  # an ordered activation ends: the commander's frame continues
            below = self.stack[-1]
            if below.type == "activation":
                self.action_done(self.units[below.unit])
            return
        self.current = 1 - u.side
        self.phase = "activate"
        self._next_activation()

    # ------------------------------------------------------------------ decisions
    def _make_decision(self) -> Decision:
        if self.phase == "initiative":
            return Decision(self.current, "initiative", -1, (("first",), ("second",)))
        if self.phase == "activate":
            side = self.current
            units = self.units
            opts = [("inbound" if units[uid].inbound else "activate", uid) for uid in self.side_units[side]
                    if self.can_activate(units[uid])]
            seq = ACTIVATION_SEQUENCES.get(self.options["activation"])
            # (len(opts) == self._unactivated(side): both count the units can_activate accepts)
            if seq.may_pass(self, side) if seq is not None else len(opts) < self._unactivated(1 - side):
                opts.append(("pass",))
            return Decision(side, "activate", -1, tuple(opts))
        top = self.stack[-1]
        if top.type != "activation":
            return PROCEDURES[top.type].decision(self, top)
        u = self.units[top.unit]
        # building the options changes nothing, so the known enemy units are listed once for all the providers
        self._enemy_memo = [None, None]
        try:
            return Decision(u.side, "action", u.uid, tuple(self._action_options(u)))
        finally:
            self._enemy_memo = None

    def _enemy_units(self, side: int):
        """The enemy units ``side`` knows of: in play and not hidden (hidden units show only as markers)."""
        memo = self._enemy_memo
        if memo is not None:
            r = memo[side]
            if r is None:
                r = memo[side] = list(self._enemy_units_now(side))
            return r
        return self._enemy_units_now(side)

    def _enemy_units_now(self, side: int):
        for uid in self.side_units[1 - side]:
            e = self.units[uid]
            if e.in_play and not e.hidden:  # hidden units are unknown to the enemy (marker only)
                yield e

    def _action_options(self, u: Unit) -> list:
        bf = self.bf
        if u.confidence == ROUTED:
            return [("withdraw",)]
        for override in OPTION_OVERRIDES:
            forced = override(self, u, self.stack[-1] if self.stack else None)
            if forced is not None:
                return forced
        if u.leader_lost:
            return [("reorganise", "leader")]
        in_cover = bf.in_cover(u.x, u.y)
        suppressed = u.suppression > 0
        if u.confidence == BROKEN and not in_cover and not suppressed:
            return [("withdraw",)]
        opts: list = [("end",)]
        if suppressed:
            opts.append(("recover",))
        if u.disorganised():
            if not suppressed:
                opts.extend(self._move_options(u, in_cover))
            return self._extension_options(u, opts, _unit_status(in_cover, suppressed, True))
        if not suppressed:
            if not u.propped:
                opts.extend(self._move_options(u, in_cover))
            if u.confidence == BROKEN:
                opts.append(("withdraw",))
        if not u.propped:
            opts.append(("prop",))
        elif not suppressed:
            opts.append(("unprop",))
        if not suppressed or in_cover:
            if u.complete_concealment:
                opts.append(("reorganise", "reveal"))
            elif bf.conceals(u.x, u.y):
                opts.append(("reorganise", "conceal"))
            if u.loose:
                opts.append(("reorganise", "rearrange"))
        if not suppressed and not u.complete_concealment and (u.confidence != BROKEN or in_cover):
            opts.extend(self._shoot_options(u))
        return self._extension_options(u, opts, _unit_status(in_cover, suppressed, False))

    def _extension_options(self, u: Unit, opts: list, status: UnitStatus) -> list:
        """The rules modules' extra options (ACTION_PROVIDERS), then their filters (ACTION_FILTERS)."""
        for provider in ACTION_PROVIDERS:
            opts.extend(provider(self, u, status))
        for filt in ACTION_FILTERS:
            opts = filt(self, u, opts)
        return opts

    def _move_options(self, u: Unit, in_cover: bool) -> list:
        bf = self.bf
        broken = u.confidence == BROKEN
        col = u.terrain_column
        key = (u.x, u.y, broken, col)
        cache = bf.move_option_cache
        opts = cache.get(key)
        if opts is not None:
            return opts
        if len(cache) > 100_000:
            cache.clear()
        opts = cache[key] = []
        w, h = bf.width, bf.height
        x, y = u.x, u.y
        costs = bf._cost[col]  # bf.move_cost(px, py, col) with bf._cell inlined (the hottest loop of the options)
        grid, nx, ny = bf.grid, bf.nx, bf.ny
        append = opts.append
        for ox, oy, opt in _MOVE_STEPS:  # (vx * dist, vy * dist, option) in option order
            px, py = x + ox, y + oy
            if px < 0.0 or py < 0.0 or px > w or py > h:
                continue
            i, j = int(py / RES), int(px / RES)
            if costs[grid[i][j] if i < ny and j < nx else 0] is None:
                continue
            if broken and not bf.in_cover(px, py):
                continue  # broken units may not leave cover except to withdraw
            append(opt)
        return opts

    # --- shooting: which weapons fire in each mode
    @staticmethod
    def _ready_figures(u: Unit) -> list:
        """(figure index, weapon max range, small arms?) of the able figures whose weapon has not fired this
        activation: what ``_weapons_ready`` filters by distance (read once per firer for many targets)."""
        fired = u.fired
        out = []
        for i, f in enumerate(u.figures):
            if f.status == OK and i not in fired:
                w = _WEAPONS[f.weapon]
                out.append((i, w.max_range, w.cls == "small_arms"))
        return out

    def _weapons_ready(self, u: Unit, dist: float, cand: list | None = None):
        """Able figures whose weapon has not fired this activation and reaches ``dist``: (small arms, support).
        ``cand``: ``_ready_figures(u)`` if the caller already has it."""
        sa, sup = [], []
        for i, mr, small in (self._ready_figures(u) if cand is None else cand):
            if mr and dist > mr:
                continue
            (sa if small else sup).append(i)
        return sa, sup

    @staticmethod
    def _party_for_mode(u: Unit, mode: str, dist: float, sa: list, sup: list):
        """(small-arms figure indices, support figure indices, grenade throwers, grenade thrown, own impact)
        or None if the mode is not available (nothing can fire, or it would duplicate another mode).

        ``own impact``: the throwers' grenade is used on its own, with its own impact (a hand grenade
        thrown alone, a specialist grenade); otherwise grenades are support weapons in the unit's fire
        and use the small arms impact (RN-021, RN-350, RN-351)."""
        throwers: list[int] = []
        thrown = "hand_grenade"
        own = False
        if mode == "all" or mode == "suppressive":
            pass
        elif mode == "small_arms":
            if not sa or not sup:
                return None  # identical to "all"
            sup = []
        elif mode == "support":
            if not sup:
                return None
            sa = []
        elif mode == "half":
            if len(sa) < 2:
                return None
            sa = sa[: (len(sa) + 1) // 2]
            sup = []
        elif mode == "grenades":
            if not u.grenades or dist > _WEAPONS["hand_grenade"].max_range or not sa:
                return None
            throwers = sa[:GRENADE_THROWERS]
            sa = sa[GRENADE_THROWERS:]
        elif mode in WEAPON_MODES:  # one support weapon on its own (RN-055, RN-350)
            if len(sup) < 2:
                return None  # a single ready support weapon: the "support" mode already fires it alone
            fi = support_figure(u, int(mode[6:]))
            if fi not in sup:
                return None
            sa, sup = [], [fi]
        elif mode == "grenade_one":  # one thrower instead of two, the rest fire as usual (RN-351)
            if not u.grenades or dist > _WEAPONS["hand_grenade"].max_range or len(sa) < 2:
                return None
            throwers = sa[:1]
            sa = sa[1:]
        elif mode == "grenade_alone":  # one hand grenade thrown on its own: its own impact (RN-021)
            if not u.grenades or dist > _WEAPONS["hand_grenade"].max_range or not sa:
                return None
            throwers, sa, sup, own = sa[:1], [], [], True
        elif mode == "specialist_grenade":  # an individual action with its own impact (RN-352)
            g = u.specialist_grenade
            if not g or not sa:
                return None
            w = _WEAPONS[g]
            if w.max_range and dist > w.max_range:
                return None
            throwers, sa, sup, thrown, own = sa[:1], [], [], g, True
        else:
            raise IllegalOptionError(f"unknown fire mode {mode!r}")
        if not sa and not sup and not throwers:
            return None
        return sa, sup, throwers, thrown, own

    def _shoot_geometry(self, u: Unit, t: Unit):
        s = self.bf.sight(u.x, u.y, t.x, t.y)
        if not s.visible:
            return None
        if t.complete_concealment:
            conc = 2
        elif s.concealed or self.bf.conceals(t.x, t.y):
            conc = 1
        else:
            conc = 0
        cover = max(s.cover, self.bf.cover_at(t.x, t.y))
        return conc, cover

    def _plan_mode(self, u: Unit, t: Unit, mode: str, dist: float, geo, ready, memo: dict | None = None):
        """The shot of ``mode`` at ``t`` (see ``_party_for_mode``) or None.  ``memo``: a dict shared by the calls
        for one firer and one target (same distance, geometry and ready weapons): each figure's effective range
        and the target die per (effective range, suppressive) are then worked out once."""
        party = self._party_for_mode(u, mode, dist, *ready)
        if party is None:
            return None
        sa, sup, throwers, thrown, own = party
        if memo is None:
            memo = {}
        ranges = memo.get("ranges")
        if ranges is None:
            ranges = memo["ranges"] = [_WEAPONS[f.weapon].effective_range for f in u.figures]
        rg = ranges.__getitem__
        eff = 48.0  # the shortest effective range of the party (48" if none is shorter)
        if sa:
            r = min(map(rg, sa))
            if r < eff:
                eff = r
        if sup:
            r = min(map(rg, sup))
            if r < eff:
                eff = r
        suppressive = mode == "suppressive"
        step = memo.get((eff, suppressive))
        if step is None:
            step = memo[(eff, suppressive)] = target_die(
                distance=dist, effective_range=eff, concealment=geo[0], propped=t.propped, small=t.small_target,
                firer_quality=u.quality, travel=t.travel, suppressive=suppressive)
        if self.options["night"] and not u.night_vision:  # seed 003 Night Fighting: +2 target die shift
            step = NO_ENGAGE if step == NO_ENGAGE or step + 2 > D12 else step + 2
        if step == NO_ENGAGE:
            return None
        return dist, geo, sa, sup, throwers, step, thrown, own

    def _shot_plan(self, u: Unit, t: Unit, mode: str):
        geo = self._shoot_geometry(u, t)
        if geo is None:
            return None
        dist = math.hypot(t.x - u.x, t.y - u.y)
        return self._plan_mode(u, t, mode, dist, geo, self._weapons_ready(u, dist))

    def fire_plan(self, uid: int, target: int, mode: str) -> dict | None:
        """What a shoot option would roll (for bots and previews; rolls nothing)."""
        u, t = self.units[uid], self.units[target]
        plan = self._shot_plan(u, t, mode)
        if plan is None:
            return None
        dist, (conc, cover), sa, sup, throwers, step, thrown, own = plan
        firepower, impact = self._firepower(u, sa, sup, throwers, thrown, own)
        _, armours = armoury()
        arm = armours[t.armour]
        return {"distance": dist, "concealment": conc, "cover": cover, "target_die": step, "quality": u.quality,
                "firepower": firepower, "impact": impact, "armour": armour_die(arm.die, propped=t.propped, cover=cover),
                "no_armour": arm.no_armour, "weapons": len(sa) + len(sup) + len(throwers)}

    def _firepower(self, u: Unit, sa, sup, throwers, thrown: str = "hand_grenade", own: bool = False):
        weapons, _ = armoury()
        firepower = []
        sa_step = small_arms_die(sum(weapons[u.figures[i].weapon].fp for i in sa))
        if sa_step is not None:
            firepower.append(sa_step)
        for i in sup:
            firepower.append(weapons[u.figures[i].weapon].fp_die)
        for _ in throwers:
            firepower.append(weapons[thrown].fp_die)
        if own:  # a grenade used on its own: its own impact
            impact = weapons[thrown].impact
        elif sa or throwers:  # support weapons in the support role: the small arms impact is used
            impact = min(weapons[u.figures[i].weapon].impact for i in (sa or throwers))
        else:  # support weapons alone (or a squad of only support weapons): the lowest impact
            impact = min(weapons[u.figures[i].weapon].impact for i in sup)
        return firepower, impact

    def _shoot_options(self, u: Unit) -> list:
        opts = []
        ranges = cand = None
        for t in self._enemy_units(u.side):
            if t.routed_off:
                continue
            geo = self._shoot_geometry(u, t)
            if geo is None:
                continue
            dist = math.hypot(t.x - u.x, t.y - u.y)
            if cand is None:
                cand = self._ready_figures(u)  # read once per firer
            ready = self._weapons_ready(u, dist, cand)
            memo = {"ranges": ranges} if ranges is not None else {}
            for mode in FIRE_MODES:
                if self._plan_mode(u, t, mode, dist, geo, ready, memo) is not None:
                    opts.append(("shoot", t.uid, mode))
            ranges = memo.get("ranges")  # per figure: the same for every target
            if len(ready[1]) >= 2:  # one of several support weapons on its own (RN-350)
                opts.extend(self._weapon_options(u, t, dist, geo, ready, memo))
            if ready[0] and ((u.grenades and dist <= _HAND_GRENADE_RANGE) or u.specialist_grenade):  # RN-351, RN-352
                for what, mode in THROW_MODES.items():
                    if self._plan_mode(u, t, mode, dist, geo, ready, memo) is not None:
                        opts.append(("throw", t.uid, what))
        return opts

    def _weapon_options(self, u: Unit, t: Unit, dist: float, geo, ready, memo: dict | None = None) -> list:
        """``("shoot_weapon", t, k)`` for the first ready figure of each support-weapon type (the k-th
        support-weapon figure of the unit, k < SUPPORT_SLOTS): firing one of two identical weapons alone
        is the same shot, so only one of them is offered."""
        opts, seen = [], set()
        k = 0
        for i, f in enumerate(u.figures):
            if _WEAPONS[f.weapon].cls != "support":
                continue
            if k >= SUPPORT_SLOTS:
                break
            if i in ready[1] and f.weapon not in seen:
                seen.add(f.weapon)
                if self._plan_mode(u, t, WEAPON_MODES[k], dist, geo, ready, memo) is not None:
                    opts.append(("shoot_weapon", t.uid, k))
            k += 1
        return opts

    # ------------------------------------------------------------------ actions
    def _action(self, opt) -> None:
        f = self.stack[-1]
        u = self.units[f.unit]
        name = opt[0]
        if name == "end":
            self.events.append(ev.ActionForgone(u.uid))
            f.actions_left = 0
            self._end_activation()
            return
        if name == "move":
            self._do_move(u, opt[1], opt[2])
        elif name == "withdraw":
            self._do_withdraw(u)
        elif name == "shoot":
            self._do_shoot(u, self.units[opt[1]], opt[2])
        elif name == "shoot_weapon":
            self._do_shoot(u, self.units[opt[1]], WEAPON_MODES[opt[2]])
        elif name == "throw":
            self._do_shoot(u, self.units[opt[1]], THROW_MODES[opt[2]])
        elif name == "prop":
            u.propped = True
            self.events.append(ev.Propped(u.uid, True))
        elif name == "unprop":
            u.propped = False
            self.events.append(ev.Propped(u.uid, False))
        elif name == "recover":
            self._do_recover(u)
        elif name == "reorganise":
            if self._do_reorganise(u, opt[1]) is False:
                return  # the reorganise manages the activation itself (it pushed a procedure, e.g. "place")
        else:
            handler = ACTIONS[name]
            if handler(self, u, opt) is False:
                return  # the handler manages the activation itself (e.g. it pushed a procedure)
        self.action_done(u)

    def _enemy_figures(self, u: Unit):
        figs = []
        for e in self._enemy_units(u.side):
            figs.extend(e.figure_positions())
        for m in self.markers:  # enemy hidden-unit markers (real or dummy) block movement like one figure
            if m["side"] != u.side and not m["removed"]:
                figs.append((m["x"], m["y"]))
        return figs

    def _do_move(self, u: Unit, d: int, k: int) -> None:
        px, py = nominated_point(u, d, k)
        self.move_toward(u, px, py)

    def move_toward(self, u: Unit, px: float, py: float) -> None:
        """A Move Action towards the nominated point (px, py), with the Shaken leadership test."""
        bf = self.bf
        if u.confidence >= SHAKEN:  # restrictions are cumulative: broken units have shaken's too (RN-016)
            near = self._nearest_enemy(u)
            toward = near is not None and math.hypot(px - near.x, py - near.y) < math.hypot(u.x - near.x, u.y - near.y)
            leaving = bf.in_cover(u.x, u.y) and not bf.in_cover(px, py)
            if (toward or leaving) and not leadership_test(self.dice, u, "shaken unit advancing or leaving cover",
                                                           self.events):
                return
        self._move_to(u, px, py, withdraw=False)

    def movement_die(self, u: Unit) -> int:
        die = u.movement
        for hook in MOVEMENT_DIE_HOOKS:
            die = hook(self, u, die)
        return die

    def _move_to(self, u: Unit, px: float, py: float, withdraw: bool) -> None:
        die = self.movement_die(u)
        roll = None
        for hook in MOVEMENT_ROLL_HOOKS:
            roll = hook(self, u, die)
            if roll is not None:
                break
        if roll is None:
            roll = self.dice.roll(die)
        points = 2.0 * roll
        _, armours = armoury()
        start = (u.x, u.y)
        blockers = self._enemy_figures(u)
        for hook in MOVE_BLOCKER_HOOKS:
            blockers.extend(hook(self, u))
        x, y = move_path(self.bf, u, px, py, points, blockers, u.terrain_column)
        was_disorganised = u.disorganised()
        u.x, u.y = x, y
        if withdraw:
            u.propped = False  # a forced move ends the propped state at no cost (RN-048)
        if was_disorganised:
            reform(u)
            u.loose = False
        if (x, y) != start:
            u.complete_concealment = False
        self.events.append(ev.Moved(u.uid, roll, points, (round(start[0], 3), round(start[1], 3)),
                                    (round(x, 3), round(y, 3)), withdraw))
        for hook in MOVE_HOOKS:
            hook(self, u, start, withdraw)

    def _nearest_enemy(self, u: Unit):
        best, bd = None, 1e18
        for e in self._enemy_units(u.side):
            d = (e.x - u.x) ** 2 + (e.y - u.y) ** 2
            if d < bd:
                best, bd = e, d
        return best

    def _home_point(self, u: Unit) -> tuple[float, float]:
        edge = self.home_edges[u.side]
        if edge == "south":
            return u.x, 0.0
        if edge == "north":
            return u.x, self.bf.height
        if edge == "west":
            return 0.0, u.y
        return self.bf.width, u.y

    def _withdraw_point(self, u: Unit) -> tuple[float, float]:
        """Away from the nearest enemy towards cover if possible (routed units head for their home edge)."""
        if u.confidence == ROUTED:
            return self._home_point(u)
        e = self._nearest_enemy(u)
        if e is None:
            return self._home_point(u)
        de = math.hypot(u.x - e.x, u.y - e.y)
        best, bd = None, 1e18
        for cx, cy in self.bf.cover_points():
            if math.hypot(cx - e.x, cy - e.y) <= de + 1.0:
                continue
            d = math.hypot(cx - u.x, cy - u.y)
            if d < bd:
                best, bd = (cx, cy), d
        return best if best is not None else self._home_point(u)

    def _do_withdraw(self, u: Unit) -> None:
        px, py = self._withdraw_point(u)
        self._move_to(u, px, py, withdraw=True)
        if u.confidence == ROUTED:
            hx, hy = self._home_point(u)
            if math.hypot(u.x - hx, u.y - hy) < 0.5:
                u.routed_off = True
                self.events.append(ev.RoutedOff(u.uid))

    def _do_recover(self, u: Unit) -> None:
        roll = self.dice.roll(u.quality)
        ok = roll > u.lv
        if ok:
            u.suppression -= 1
        self.events.append(ev.SuppressionRecovered(u.uid, roll, u.lv, ok, u.suppression))

    def _do_reorganise(self, u: Unit, what: str):
        if what == "conceal":
            u.complete_concealment = True
            self.events.append(ev.ConcealmentChanged(u.uid, True))
        elif what == "reveal":
            u.complete_concealment = False
            self.events.append(ev.ConcealmentChanged(u.uid, False))
        elif what == "rearrange":
            reform(u)
            u.loose = False
            self.events.append(ev.Rearranged(u.uid))
        elif what in REORGANISE_ACTIONS:  # column/tactical, mount/dismount, extract, assume_command, task, place
            return REORGANISE_ACTIONS[what](self, u)
        # "leader": the reorganising itself; the appointment happens at the end of the activation

    def _appoint_leader(self, u: Unit) -> None:
        """Death of a Leader: a new leader is appointed; D6 1-2 worse LV, 6 better (LV kept within 1..3)."""
        able = u.able()
        if not able:
            return
        old = u.figures[u.leader]
        new = able[0]
        nf = u.figures[new]
        # the new leader's figure marks the unit from now on (kept on the table: figures may stand
        # just beyond an edge in the abstract formation)
        u.x = min(max(u.x + (nf.dx - old.dx), 0.0), self.bf.width)
        u.y = min(max(u.y + (nf.dy - old.dy), 0.0), self.bf.height)
        u.leader = new
        roll = self.dice.roll(D6)
        if roll <= 2:
            u.lv = min(3, u.lv + 1)
        elif roll == 6:
            u.lv = max(1, u.lv - 1)
        u.leader_lost = False
        u.loose = True
        self.events.append(ev.LeaderAppointed(u.uid, new, roll, u.lv))

    def _do_shoot(self, u: Unit, t: Unit, mode: str, reaction: bool = False) -> int:
        """Resolve a shot; returns the casualties caused.  ``reaction``: final defensive fire (an
        assault reaction): suppression results are ignored and no confidence test follows."""
        plan = self._shot_plan(u, t, mode)
        dist, (conc, cover), sa, sup, throwers, step, thrown, own = plan
        _, armours = armoury()
        firepower, impact = self._firepower(u, sa, sup, throwers, thrown, own)
        for i in sa + sup + throwers:
            u.fired.add(i)
        suppressive = mode == "suppressive"
        res = resolve_fire(self.dice, quality=u.quality, firepower=firepower, target=step,
                           suppressive=suppressive, extra_hits=self.options["extra_hits"])
        self.events.append(ev.ShotResolved(u.uid, t.uid, mode, die_name(step), res.target_roll,
                                           tuple(die_name(s) for s in [u.quality] + firepower), res.firer_rolls,
                                           res.successes, res.result, res.hits, suppressive))
        reasons = []
        if not t.under_fire_before:
            t.under_fire_before = True
            reasons.append("first_under_fire")
        if (res.result != "none" or t.travel) and not reaction:  # travel mode: suppressed whenever fired on
            if not t.suppressed_before:
                t.suppressed_before = True
                reasons.append("first_suppressed")
            if t.suppression < 3:
                t.suppression += 1
            self.events.append(ev.Suppressed(t.uid, t.suppression))
        casualties = 0
        leader_hit = False
        if res.hits:
            alive = [i for i, f in enumerate(t.figures) if f.status != KILLED]
            targets = [alive[allocation_roll(self.dice, len(alive))] for _ in range(res.hits)]
            for fi in targets:
                f = t.figures[fi]
                arm = armours[f.armour or t.armour]
                adie = armour_die(arm.die, propped=t.propped, cover=cover)
                effect, ir, ar = resolve_impact(self.dice, impact=impact, armour=adie, no_armour=arm.no_armour)
                before = f.status
                hooked = None
                if f.status != KILLED:
                    for hook in HIT_HOOKS:
                        hooked = hook(self, t, fi, effect)
                        if hooked is not None:
                            break
                if hooked is not None:
                    effect_applied = hooked
                    casualties += before == OK and f.status in (WOUNDED, TREATED, KILLED)
                elif f.status == KILLED:
                    effect_applied = "none"  # already killed by an earlier hit of this attack
                elif effect == "kill":
                    before = f.status
                    f.status = KILLED
                    effect_applied = "kill"
                    casualties += before == OK
                elif effect == "wound":
                    f.wounds += 1
                    before = f.status
                    if f.wounds >= 2:
                        f.status = KILLED
                        effect_applied = "kill"
                    else:
                        f.status = WOUNDED
                        effect_applied = "wound"
                    casualties += before == OK
                else:
                    effect_applied = "none"
                if fi == t.leader and before != f.status and f.status != OK:
                    leader_hit = True
                self.events.append(ev.HitResolved(t.uid, fi, die_name(impact), ir, die_name(adie), ar, effect_applied))
        if casualties:
            reasons.append("casualties")
        for hook in SHOT_HOOKS:
            hook(self, u, t, res, reasons)
        newly_lost = leader_hit and not t.leader_lost
        if newly_lost:
            reasons.append("leader_casualty")
            t.leader_lost = True
            self.events.append(ev.LeaderLost(t.uid, t.leader))
        if reasons and t.in_play and not reaction:
            confidence_test(self.dice, t, reasons,
                            more_casualties_than_survivors=casualties > t.n_able(), events=self.events)
        if newly_lost and HOOKS["leader_lost"]:
            self.run_hooks("leader_lost", t)
        if HOOKS["shot"]:
            self.run_hooks("shot", u, t)
        return casualties

    # ------------------------------------------------------------------ game end
    def _side_can_fight(self, side: int) -> bool:
        for uid in self.side_units[side]:
            u = self.units[uid]
            if (u.in_play and u.confidence != ROUTED) or u.inbound:  # reinforcements on the way can fight
                return True
        return False

    def _check_decisive(self) -> bool:
        a, b = self._side_can_fight(0), self._side_can_fight(1)
        if a and b:
            return False
        self._end_game("enemy destroyed or routed", winner=(0 if a else 1) if a != b else None)
        return True

    def objective_holder(self, ox: float, oy: float) -> int:
        """The side holding the objective at (ox, oy): an unrouted unit in play within 3" and no enemy one (-1: none)."""
        near = [False, False]
        for u in self.units:
            if u.in_play and u.confidence != ROUTED and math.hypot(u.x - ox, u.y - oy) <= OBJECTIVE_RADIUS:
                near[u.side] = True
        if near[0] != near[1]:
            return 0 if near[0] else 1
        return -1

    def victory_points(self) -> tuple[int, int]:
        vp = [0, 0]
        for _, ox, oy, v in self.objectives:
            side = self.objective_holder(ox, oy)
            if side >= 0:
                vp[side] += v
        for u in self.units:
            if not u.in_play and not u.merged and not u.evacuated and not u.inbound:
                vp[1 - u.side] += 1
        for hook in VP_HOOKS:
            hook(self, vp)
        return vp[0], vp[1]

    def _end_game(self, reason: str, winner: int | None = None) -> None:
        """End the game: ``winner`` decides it (a side that can no longer fight loses at once),
        otherwise the victory points do (equal VP: a draw)."""
        self.phase = "over"
        self._decision = None
        self.vp = self.victory_points()
        self.end_reason = reason
        if winner is not None:
            self.winner = winner
        elif self.vp[0] != self.vp[1]:
            self.winner = 0 if self.vp[0] > self.vp[1] else 1
        else:
            self.winner = -1
        self.events.append(ev.GameEnded(self.winner, self.vp, reason))

    # ------------------------------------------------------------------ save / load / clone
    def to_dict(self) -> dict:
        """A save: the scenario, seed, options and every decision (replayed exactly on load)."""
        if not isinstance(self.dice, SeededDice):
            raise SaveFormatError("only games rolling the seeded generator can be saved")
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "scenario": self.source_scenario, "seed": self.seed,
                "options": self.options, "decisions": [list(o) for o in self.history],
                "digest": self.state_digest()}

    def save(self, path) -> None:
        with open(path, "w") as fh:
            json.dump(self.to_dict(), fh)

    @classmethod
    def from_dict(cls, d: dict) -> "Game":
        if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
            raise SaveFormatError("not a Dustup save (missing format: dustup-save)")
        if d.get("version") != SAVE_VERSION:
            raise SaveFormatError(f"unsupported save version {d.get('version')!r} (this engine reads {SAVE_VERSION})")
        try:
            g = cls.replay(d["scenario"], d["seed"], d["decisions"], options=d.get("options"))
        except KeyError as e:
            raise SaveFormatError(f"save is missing {e}") from None
        if "digest" in d and d["digest"] != g.state_digest():
            raise SaveFormatError("save digest does not match the replayed state (corrupt or foreign save)")
        return g

    @classmethod
    def load(cls, path) -> "Game":
        try:
            with open(path) as fh:
                d = json.load(fh)
        except json.JSONDecodeError as e:
            raise SaveFormatError(f"{path}: not JSON: {e}") from None
        return cls.from_dict(d)

    @classmethod
    def replay(cls, scenario, seed: int, decisions, options: dict | None = None) -> "Game":
        g = cls(scenario, seed=seed, options=options)
        for i, opt in enumerate(decisions):
            try:
                g.apply(tuple(opt))
            except (IllegalOptionError, GameOverError) as e:
                raise SaveFormatError(f"decision #{i} does not replay: {e}") from None
        return g

    def clone(self) -> "Game":
        memo = {id(self.bf): self.bf, id(self.scenario): self.scenario, id(self.source_scenario): self.source_scenario}
        return copy.deepcopy(self, memo)

    def snapshot(self) -> dict:
        """Canonical plain-data snapshot of the whole state (for digests and debugging)."""
        units = [_plain(u) for u in self.units]
        return {"turn": self.turn, "phase": self.phase, "current": self.current,
                "stack": [_plain(f) for f in self.stack],
                "initiative": self.initiative_winner, "winner": self.winner,
                "markers": copy.deepcopy(self.markers), "extra": copy.deepcopy(self.extra),
                "units": units, "dice": self.dice.getstate(), "n_events": len(self.events)}

    def state_digest(self) -> str:
        return hashlib.sha256(json.dumps(self.snapshot(), sort_keys=True).encode()).hexdigest()[:16]
