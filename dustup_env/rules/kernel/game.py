"""The game: the turn sequence, the decision stack, applying options, copies and saves.

At every moment a game has exactly one pending :class:`Decision`: whose it is (``side``), what kind, the
acting unit and its legal ``options`` (plain tuples in the rulebook's words: ``("first",)`` / ``("second",)``
for the initiative, ``("activate", uid)`` / ``("pass",)`` between activations, ``("end",)`` and the rule
set's actions for an activated unit: ``("move", direction, distance)``, ``("shoot", target, mode)``, ...).
The game knows the turn sequence and the decision stack only; everything else is a rule of its
:class:`~.ruleset.RuleSet` (the standard rules: :mod:`dustup_env.rules.catalogue`).  The state is the
explicit list :data:`~.state.STATE`; the scenario's parts are shared, never written, by every copy.
``apply(option)`` checks the option first: an illegal one raises :class:`IllegalOptionError` and leaves the
state untouched.
"""
from __future__ import annotations

from types import MappingProxyType

from . import events as ev
from . import saves, sequence
from .battlefield import Battlefield, battlefield
from .data import scenario_document
from .actions import action_is_legal, action_options
from .decisions import Decision, Frame
from .dice import DiceSource, SeededDice
from .entities import ROUTED, Unit
from .errors import GameOverError, IllegalOptionError, InvalidArgumentError
from .knowledge import known_enemies
from .measurement import to_rules_units
from .names import display_names
from .ruleset import Family, RuleSet, resolve_options, rule_set
from .state import STATE, copy_state

__all__ = ["Game", "Decision", "Frame", "DEFAULT_OPTIONS"]


# the kernel's own option families (index 0 of the layout is ("end",) / ("pass",): no family)
FAMILIES = (Family("first", (), 1, "the initiative winner activates first"),
            Family("second", (), 2, "the initiative winner lets the other side activate first"),
            Family("activate", ("own",), 3, "activate this unit"))
_DEFAULTS: dict = {}
DEFAULT_OPTIONS = MappingProxyType(_DEFAULTS)  # every option of the standard rules with its default (the catalogue)


def set_standard_rules(rules) -> None:
    """The standard rule set every game starts from (the catalogue's), and the default options they declare."""
    from .ruleset import declared_options
    Game.standard_rules = tuple(rules)
    _DEFAULTS.clear()
    _DEFAULTS.update({name: o.default for name, o in declared_options(Game.standard_rules).items()})


def _side(side) -> int:
    if side not in (0, 1) or isinstance(side, bool):
        raise InvalidArgumentError(f"a side is 0 or 1, not {side!r}")
    return int(side)


class Game:
    """One game of Dustup."""

    standard_rules: tuple = ()  # the catalogue's rules, in order (set by dustup_env.rules.catalogue)
    __slots__ = STATE + ("source_scenario", "scenario", "options", "seed", "battlefield", "objectives",
                         "turn_limit", "home_edges", "side_names", "rules", "cache", "__weakref__")

    def __init__(self, scenario="default", seed: int = 0, options: dict | None = None,
                 dice: DiceSource | None = None, rules=()):
        """``rules``: extra :class:`~.ruleset.Rule` objects after the standard ones (or a whole
        :class:`~.ruleset.RuleSet`, used as it is)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidArgumentError(f"the seed is a whole number, not {seed!r}")
        self.bind_scenario(scenario, options, rules)
        self.seed = seed
        self.dice = dice if dice is not None else SeededDice(self.seed)
        self.units: list[Unit] = []
        self.side_units: tuple[list[int], list[int]] = ([], [])
        self.turn = 0
        self.phase = "start"
        self.current = 0  # side whose activation it is (or who decides the initiative)
        self.initiative_winner = -1
        self.stack: list[Frame] = []
        self.winner: int | None = None
        self.vp = (0, 0)
        self.end_reason = ""
        self.events: list = []
        self.events_base = 0
        self.history: list[tuple] = []
        self.markers: list[dict] = []  # hidden-unit markers {side, x, y, unit (-1 = dummy), removed}
        self.components: dict = {}  # the rules modules' state: {Component class: instance} (kernel.state)
        self.terrain: list[dict] = []  # the dynamic terrain layer over the static battlefield (kernel.terrain)
        self.entities: list[dict] = []  # the table entities that are not units (kernel.table)
        self.pending_decision: Decision | None = None
        self.memo: dict | None = None  # while an action decision is built: values that stay the same meanwhile
        self.cache: dict = {}  # values valid for the current state only (never copied or saved)
        for hook in self.rules.init:  # the Forces rule builds the units first
            hook(self)
        self.events.append(ev.GameStarted(self.scenario["name"], self.seed))
        self.start_turn()

    def bind_scenario(self, scenario, options, rules) -> None:
        """The scenario's shared parts: documents, options, rule set, battlefield, objectives, edges."""
        self.source_scenario = scenario_document(scenario)  # as given (saved); self.scenario is in rules units
        candidates = rules.rules if isinstance(rules, RuleSet) else Game.standard_rules + tuple(rules)
        opts = resolve_options(candidates, self.source_scenario.get("options", {}), options)
        self.options = MappingProxyType(opts)
        self.scenario = to_rules_units(self.source_scenario, opts["measure"])  # centimetres for inches (RN-358)
        self.rules = rules if isinstance(rules, RuleSet) else rule_set(candidates, self.scenario, opts)
        self.battlefield: Battlefield = battlefield(self.scenario)  # static, shared
        self.bf = self.battlefield  # what the rules consult (with the dynamic terrain over it: kernel.terrain)
        self.home_edges = tuple(s["home_edge"] for s in self.scenario["sides"])
        self.side_names = tuple(s["name"] for s in self.scenario["sides"])
        self.objectives = [(o["name"], float(o["position"][0]), float(o["position"][1]), int(o["vp"]))
                           for o in self.scenario.get("objectives", [])]
        self.turn_limit = int(self.scenario["turn_limit"])

    # ------------------------------------------------------------------ public API
    @property
    def over(self) -> bool:
        return self.phase == "over"

    def decision(self) -> Decision:
        """The one pending decision (raises GameOverError once the game has ended)."""
        if self.phase == "over":
            raise GameOverError("the game is over: there is no pending decision")
        d = self.pending_decision
        if d is None:
            d = self.pending_decision = self._make_decision()
        return d

    def legal_options(self) -> tuple:
        return self.decision().options

    def is_legal(self, option) -> bool:
        """Whether ``option`` is one of the pending decision's options, without building them all where the
        rule set knows a cheaper test (the move and shoot families)."""
        if self.phase == "over" or not isinstance(option, (tuple, list)):
            return False
        opt = tuple(option)
        if self.pending_decision is not None or self.phase != "action" or self.stack[-1].type != "activation":
            return opt in self.decision().options
        return action_is_legal(self, self.units[self.stack[-1].unit], opt)

    def apply(self, option) -> None:
        """Apply one legal option of the pending decision."""
        if self.phase == "over":
            raise GameOverError(f"the game is over: cannot apply {option!r}")
        if not isinstance(option, (tuple, list)):
            raise IllegalOptionError(f"an option is a tuple or list such as ('end',), not {option!r}")
        opt = tuple(option)
        d = self.pending_decision
        if d is not None:
            legal = opt in d.options
        else:
            legal = self.is_legal(opt)
            d = self.pending_decision
            if d is None:  # the option was checked without building the decision: its header only
                top = self.stack[-1]
                d = Decision(self.units[top.unit].side, "action", top.unit, ())
        if not legal:
            d = self.decision()
            raise IllegalOptionError(
                f"{opt!r} is not a legal option for side {d.side}'s {d.kind} decision"
                + (f" (unit {self.units[d.unit].name!r})" if d.unit >= 0 else "")
                + f"; {len(d.options)} legal options, e.g. {list(d.options[:5])}")
        for hook in self.rules.before_apply:
            hook(self, d, opt)
        self.history.append(opt)
        self.pending_decision = None
        kind = d.kind
        if kind == "initiative":
            sequence.choose_initiative(self, opt)
        elif kind == "activate":
            sequence.activate(self, opt)
        elif self.stack[-1].type == "activation":
            sequence.take_action(self, opt)
        else:
            top = self.stack[-1]
            self.rules.procedures[top.type].apply(self, top, opt)
        for hook in self.rules.after_apply:
            hook(self, d, opt)
        if self.cache:
            self.cache.clear()

    def invalidate(self) -> None:
        """Forget the pending decision (a rule changed the state outside ``apply``)."""
        self.pending_decision = None

    def unit(self, uid: int) -> Unit:
        return self.units[uid]

    def display_names(self) -> dict:
        """``{uid: name}``: every unit's display name, unique in the game (:mod:`.names`: the side's name
        first where both sides have a unit of that name)."""
        return display_names(self.units, self.side_names)

    def display_name(self, uid: int) -> str:
        """The display name of unit ``uid`` (unique in the game; see :meth:`display_names`)."""
        return self.display_names()[uid]

    @property
    def active(self) -> int:
        """The unit taking actions (top activation frame), or -1."""
        f = self.activation_frame()
        return -1 if f is None else f.unit

    @property
    def actions_left(self) -> int:
        f = self.activation_frame()
        return 0 if f is None else f.actions_left

    def activation_frame(self) -> Frame | None:
        for f in reversed(self.stack):
            if f.type == "activation":
                return f
        return None

    def state_of(self, cls):
        """The rule state ``cls`` (a :class:`~.state.Component` class) of this game, made empty on first use."""
        c = self.components.get(cls)
        if c is None:
            c = self.components[cls] = cls()
        return c

    def emit(self, event) -> None:
        self.events.append(event)

    def event_log(self, side: int | None = None) -> list[dict]:
        """Every event, or (``side`` given) only what that side may know (hidden units filtered out)."""
        if side is None:
            return [e.to_dict() for e in self.events]
        return self.rules.services["event_log"](self, _side(side))

    def view(self, side: int) -> dict:
        """The plain data ``side`` may know: own units fully, enemy units only when not hidden, markers
        by position only (see :mod:`dustup_env.rules.unit_actions.hidden_units`)."""
        return self.rules.services["view"](self, _side(side))

    def result(self) -> dict:
        return {"winner": self.winner, "vp": list(self.vp), "reason": self.end_reason, "turns": self.turn,
                "decisions": len(self.history)}

    def enemy_units(self, side: int):
        """The enemy units ``side`` knows of: in play and not hidden (hidden units show only as markers) nor mounted
        (:mod:`.knowledge`: what a side may know)."""
        memo = self.memo
        if memo is not None:
            r = memo.get(side)
            if r is None:
                r = memo[side] = list(known_enemies(self, side))
            return r
        return known_enemies(self, side)

    def home_point(self, u: Unit) -> tuple[float, float]:
        """The nearest point of ``u``'s home table edge."""
        edge = self.home_edges[u.side]
        if edge == "south":
            return u.x, 0.0
        if edge == "north":
            return u.x, self.bf.height
        if edge == "west":
            return 0.0, u.y
        return self.bf.width, u.y

    def movement_die(self, u: Unit) -> int:
        """The die ``u`` moves with now (the rule set's changes: encumbrance, cavalry, ...)."""
        die = u.profile.movement
        for hook in self.rules.movement_die:
            die = hook(self, u, die)
        return die

    # ------------------------------------------------------------------ turn sequence (kernel/sequence.py)
    start_turn = sequence.start_turn
    end_turn = sequence.end_turn
    can_activate = sequence.can_activate
    unactivated = sequence.unactivated
    next_activation = sequence.next_activation
    start_activation = sequence.start_activation
    action_done = sequence.action_done
    push = sequence.push
    pop = sequence.pop

    # ------------------------------------------------------------------ decisions
    def _make_decision(self) -> Decision:
        if self.phase == "initiative":
            return Decision(self.current, "initiative", -1, (("first",), ("second",)))
        if self.phase == "activate":
            return sequence.activate_decision(self)
        top = self.stack[-1]
        if top.type != "activation":
            return self.rules.procedures[top.type].decision(self, top)
        u = self.units[top.unit]
        # building the options changes nothing, so the known enemy units are listed once for all the rules
        self.memo = {}
        try:
            return Decision(u.side, "action", u.uid, tuple(action_options(self, u)))
        finally:
            self.memo = None

    # ------------------------------------------------------------------ game end
    def side_can_fight(self, side: int) -> bool:
        for uid in self.side_units[side]:
            u = self.units[uid]
            if (u.in_play and u.confidence != ROUTED) or u.inbound:  # reinforcements on the way can fight
                return True
        return any(hook(self, side) for hook in self.rules.can_fight)  # units a rule keeps off the table

    def check_decisive(self) -> bool:
        """End the game if a side can no longer fight (True if it ended)."""
        a, b = self.side_can_fight(0), self.side_can_fight(1)
        if a and b:
            return False
        self.end_game("enemy destroyed or routed", winner=(0 if a else 1) if a != b else None)
        return True

    def victory_points(self) -> tuple[int, int]:
        vp = [0, 0]
        for hook in self.rules.victory_points:
            hook(self, vp)
        return vp[0], vp[1]

    def objective_holder(self, ox: float, oy: float) -> int:
        """The side holding the objective at (ox, oy), or -1 (the victory rules' reading, RN-032)."""
        return self.rules.services["objective_holder"](self, ox, oy)

    def end_game(self, reason: str, winner: int | None = None) -> None:
        """End the game: ``winner`` decides it (a side that can no longer fight loses at once),
        otherwise the victory points do (equal VP: a draw)."""
        self.phase = "over"
        self.pending_decision = None
        self.vp = self.victory_points()
        self.end_reason = reason
        if winner is not None:
            self.winner = winner
        elif self.vp[0] != self.vp[1]:
            self.winner = 0 if self.vp[0] > self.vp[1] else 1
        else:
            self.winner = -1
        self.events.append(ev.GameEnded(self.winner, self.vp, reason))

    # ------------------------------------------------------------------ copies and saves
    def clone(self, log: bool = True, reseed: int | None = None) -> "Game":
        """An exact, independent copy that shares the scenario (and the history of events and decisions so far).
        ``log=False``: the copy starts with an empty event log and history (for search: faster; its saves and
        filtered logs cover only what it plays itself).  ``reseed``: the copy rolls fresh dice from that seed."""
        g = Game.__new__(Game)
        for name in ("source_scenario", "scenario", "options", "seed", "battlefield", "objectives", "turn_limit",
                     "home_edges", "side_names", "rules"):
            setattr(g, name, getattr(self, name))
        copy_state(self, g, log, reseed)
        g.cache = {}
        return g

    def __deepcopy__(self, memo) -> "Game":
        return self.clone()

    def fire_plan(self, uid: int, target: int, mode: str) -> dict | None:
        """What a shoot option would roll (for bots and previews; rolls nothing)."""
        return self.rules.services["fire_plan"](self, uid, target, mode)

    snapshot = saves.snapshot
    state_digest = saves.state_digest
    to_dict = saves.to_dict
    save = saves.save
    from_dict = classmethod(saves.from_dict)
    load = classmethod(saves.load)
    replay = classmethod(saves.replay)
    from_snapshot = classmethod(saves.from_snapshot)
