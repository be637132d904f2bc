"""Rule sets: which rules modules a game uses, in which order, and what each adds to the kernel.

A rules module describes itself with one or more :class:`Rule` objects: the rulebook's name for the
area, the game options it declares (:class:`Option`: default, type, allowed values), whether it applies
to a given game (``applies``), how it checks combinations of options (``validate``), and what it adds to
the kernel at the named extension points below (options it offers, actions it applies, procedures,
hooks).  :mod:`dustup_env.rules.catalogue` lists the standard rules in order; a game's
:class:`RuleSet` is the ordered subset that applies to its scenario and options (plus any extra rules the
caller passes).  A rule that does not apply costs nothing: its hooks are not in the game's lists.

Extension points (sequences; every rule's entries are called in rule-set order):

=====================  ======================================================  ==========================
point                  called as                                               returns
=====================  ======================================================  ==========================
``init``               ``f(game)`` once, when the game is built                 -
``before_apply``       ``f(game, decision, option)`` before every option        -
``after_apply``        ``f(game, decision, option)`` after every option         -
``option_overrides``   ``f(game, unit, frame)``: replace a unit's options       options or None
``action_options``     ``f(game, unit, status)``: more action options           a list of options
``action_filters``     ``f(game, unit, options)``: remove forbidden options     the options kept
``activation_window``  ``f(game)``: a normal activation is due                  - (may push a frame)
``between_activations`` ``f(game)``: between two activations                    True if it pushed a frame
``on_activation``      ``f(game, unit)``: a unit's activation begins            -
``on_leader_lost``     ``f(game, unit)``: a unit's leader became a casualty     -
``on_shot``            ``f(game, shooter, target)``: after a shot was resolved  -
``after_shot``         ``f(game, firer, target, result, reasons)``: before the  -
                       target's confidence test
``movement_die``       ``f(game, unit, die)``: the die a move rolls             the die
``movement_roll``      ``f(game, unit, die)``: a fixed roll instead             a roll or None
``move_blockers``      ``f(game, unit)``: more figures a move stops 2" from     a list of (x, y)
``after_move``         ``f(game, unit, start, withdraw)``: after a move          -
``victory_points``     ``f(game, vp)``: add victory points (vp: a 2-list)       -
``turn_start``         ``f(game)``: a turn begins (after the turn counter)      -
``turn_end``           ``f(game)``: a turn ends (before the next begins)        -
``move_step``          ``f(game, unit, x0, y0, x1, y1)``: a step of a move      True to stop the mover at
                                                                                (x0, y0)
``activation_end``     ``f(game, unit, frame)``: an activation frame ends       -
``activation_options`` ``f(game, side)``: activations that are not units        a list of options
                       (added to the activate decision)
``pending_activations`` ``f(game, side)``: how many such activations ``side``    a number
                       has left this turn (counted by every activation
                       sequence: :func:`~.sequence.unactivated`)
``can_fight``          ``f(game, side)``: ``side`` has no unit in play, on the    True if ``side`` can still
                       inbound track or unrouted: may it still fight (units      fight (the game goes on)
                       waiting off the table in a rule's location)?
=====================  ======================================================  ==========================

Reaction windows (``reactions``: window name -> ``f(game, ...)``; every rule's hook is called in rule-set
order): named points where a rule may push frames (:func:`~.sequence.push`), decisions of either side; the
interrupted action waits below them and goes on when they are popped (a reaction pops with ``used=0``), or
stops if the reaction stopped it (see :mod:`.sequence`):

=====================  ======================================================
window                 called as
=====================  ======================================================
``move_step``          ``f(game, mover, walk)`` after each step of a Move Action's walk (the mover stands at
                       the point reached; ``walk.data``: its position ``x``, ``y``, destination ``px``, ``py``,
                       ``points``, ``spent``; ``walk.data["halted"] = True`` stops the mover there)
``move_end``           ``f(game, mover, walk)`` when a Move Action's walk has ended (the mover at its end point,
                       its ``Moved`` event and the ``after_move`` hooks done), before the walk's frame is popped
``before_attack``      ``f(game, firer, target)``: a shot is declared, before its dice
``after_attack``       ``f(game, attacker, target)``: after an attack resolved, for every source: a shot
                       (``attacker``: the firing unit), a point attack (once per unit struck; ``attacker``:
                       the :class:`~.attack.Source`, no unit fires; :func:`~.attack.burst`)
``activation_start``   ``f(game, unit)``: after the ``on_activation`` hooks
``activation_end``     ``f(game, unit)``: the unit's actions are done, before its frame is popped
``turn_start``         ``f(game)``: after the ``turn_start`` hooks, before the initiative
``turn_end``           ``f(game)``: after the ``turn_end`` hooks, before the next turn
=====================  ======================================================

Mappings (one owner per key; two rules claiming a key is an error): ``actions`` (option name ->
``handler(game, unit, option)``: None for one action used, a number of actions, or False if it pushed a frame
whose pop counts them), ``reorganise``
(``("reorganise", what)`` -> ``handler(game, unit)``), ``procedures`` (frame type -> an object with
``decision(game, frame)`` and ``apply(game, frame, option)`` while its frame is on top, and
``resume(game, frame, popped)`` if it waits under other frames, :mod:`.sequence`), ``activation_sequences`` (value of the
``activation`` option -> an object with ``start_turn``, ``next`` and ``may_pass``, and optionally
``offers_units``), ``activate_instead``
(an activate option other than ``("activate", uid)`` -> ``handler(game, unit)``: a counter moved instead
of a unit activated), ``terrain`` (dynamic terrain kind -> its effects, see :mod:`.terrain`), ``damage`` (the
kind of a target hit -> ``f(game, unit, figure, effect)`` returning the effect applied; a vehicle struck by a point
attack, ``vehicle_top`` and ``vehicle_facing`` -> ``f(game, vehicle, source, impact)``, see :mod:`.attack`),
``attacks`` (the kind of a target, ``figures`` or ``vehicle`` (:func:`~.attack.target_kind`) -> ``f(game, firer,
target, res, impact, **how)``: the consequences of a resolved fire roll on it, the one dispatch every fire goes
through, :func:`~.attack.fire_effects`),
``activations`` (an activate option of
``activation_options`` -> ``handler(game, side, option)``: an activation that is not a unit; a frame it pushes
resumes the sequence when popped), ``legality``
(action option name -> ``f(game, unit, status, option)``: whether the option is among the ones the rule
offers, without building them all) and ``services`` (named functions that the game's public API and other
rules call through the rule set instead of importing the rule: ``view``, ``event_log``, ``fire_plan``,
``objective_holder``, ``house_close_combat``, ...) and ``entity_kinds`` (kind of table entity ->
:class:`~.table.EntityKind`: the things on the table that are not units, see :mod:`.table`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable

from .errors import ScenarioError

SEQUENCE_POINTS = (
    "init", "before_apply", "after_apply", "option_overrides", "action_options", "action_filters",
    "activation_window", "between_activations", "on_activation", "on_leader_lost", "on_shot", "after_shot",
    "movement_die", "movement_roll", "move_blockers", "after_move", "victory_points",
    "turn_start", "turn_end", "move_step", "activation_end", "activation_options", "pending_activations",
    "can_fight",
)
MAPPING_POINTS = ("actions", "reorganise", "procedures", "activation_sequences", "activate_instead", "terrain",
                  "damage", "services", "legality", "activations", "attacks", "entity_kinds")
# the reaction windows (Rule.reactions): where rules may push frames for either side (see the module docstring)
REACTION_WINDOWS = ("move_step", "move_end", "before_attack", "after_attack", "activation_start", "activation_end",
                    "turn_start", "turn_end")

_BOOL = "true or false"


@dataclass(frozen=True)
class Option:
    """A game option a rule declares: its name, default, and what values it takes.

    ``kind``: ``"bool"``, ``"int"`` (``minimum`` applies), ``"choice"`` (one of ``choices``) or ``"any"``
    (the rule's ``check`` decides).  ``check(value)`` returns an error message (without the option's name)
    or None."""

    name: str
    default: Any
    doc: str
    kind: str = "bool"
    choices: tuple = ()
    minimum: int | None = None
    check: Callable[[Any], str | None] | None = None

    def problem(self, value) -> str | None:
        """Why ``value`` is not a legal value of this option (None if it is)."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                return f"must be {_BOOL}, not {value!r}"
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"must be a whole number, not {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}, not {value!r}"
        elif self.kind == "choice":
            if value not in self.choices:
                return f"must be one of {', '.join(map(str, self.choices))}, not {value!r}"
        if self.check is not None:
            return self.check(value)
        return None


@dataclass(frozen=True)
class Family:
    """A family of options in the flat action layout of the environment (``dustup_env.codec``): the option
    name and the kinds of its arguments (see the codec: ``own``, ``enemy``, ``marker``, ``dir``, ``dist``,
    ``mode``, ``point``, or a tuple of literal values).  ``order`` is its place in the layout: families are
    only ever appended (the next free number), so every index keeps its meaning for trained policies."""

    name: str
    args: tuple
    order: int
    doc: str = ""


@dataclass(frozen=True, eq=False)
class ObservationPiece:
    """A piece of the environment's observation (``dustup_env.observation``) that a rule declares, as it declares
    its option families: a game's observation is the environment's own pieces and the pieces of its rule set's
    rules, laid out by ``order`` (pieces are only ever appended: a new piece takes the next free number, so every
    existing value keeps its index for trained policies).  A piece declared by several rules is laid out once.

    ``shape``: the sizes of its axes, the last one along ``features`` (their names); the first may be ``"units"``
    (one row per unit slot of both sides: the observing side's slots, then the enemy's, as in the ``units`` piece:
    2 x 12, or 2 x 32 in a company-sized game).  The writers get the observer (``game``, ``side``, ``flip``,
    ``width``, ``height``, ``slots``, ``decision``; ``slot_rows(off, width)``), the flat ``array('f')`` and the
    piece's first index: ``start(obs, buf, off)`` when the observer is pointed at a game and side (the buffer is
    all zero then), ``write(obs, buf, off)`` for each observation; or ``writer``, a class with those two methods
    (one instance per observer: it may keep caches).  ``needs``: pieces written before it.  Everything a writer
    writes must be what the observing side may know."""

    name: str
    order: int
    shape: tuple
    features: tuple | None = None
    write: Callable | None = None
    start: Callable | None = None
    writer: Any = None
    needs: tuple = ()
    doc: str = ""


@dataclass(frozen=True, eq=False)
class Rule:
    """What one rules area adds to a game (see the module docstring for the extension points)."""

    name: str
    source: str = ""  # where the rule is written, e.g. 'seed 000 "Order Action"'
    options: tuple = ()
    families: tuple = ()  # the Family of each option name the rule offers (the environment's action layout)
    observation: tuple = ()  # the ObservationPiece of each piece of the environment's observation it adds
    applies: Callable[[dict, dict], bool] | None = None  # (scenario in rules units, options) -> used in this game?
    validate: Callable[[dict], None] | None = None  # checks combinations of options (raises ScenarioError)
    # sequence points
    init: tuple = ()
    before_apply: tuple = ()
    after_apply: tuple = ()
    option_overrides: tuple = ()
    action_options: tuple = ()
    action_filters: tuple = ()
    activation_window: tuple = ()
    between_activations: tuple = ()
    on_activation: tuple = ()
    on_leader_lost: tuple = ()
    on_shot: tuple = ()
    after_shot: tuple = ()
    movement_die: tuple = ()
    movement_roll: tuple = ()
    move_blockers: tuple = ()
    after_move: tuple = ()
    victory_points: tuple = ()
    turn_start: tuple = ()
    turn_end: tuple = ()
    move_step: tuple = ()
    activation_end: tuple = ()
    activation_options: tuple = ()
    pending_activations: tuple = ()
    can_fight: tuple = ()
    # reaction windows: window name -> hook
    reactions: dict = field(default_factory=dict)
    # mapping points
    actions: dict = field(default_factory=dict)
    reorganise: dict = field(default_factory=dict)
    procedures: dict = field(default_factory=dict)
    activation_sequences: dict = field(default_factory=dict)
    terrain: dict = field(default_factory=dict)
    damage: dict = field(default_factory=dict)
    attacks: dict = field(default_factory=dict)
    activate_instead: dict = field(default_factory=dict)
    services: dict = field(default_factory=dict)
    legality: dict = field(default_factory=dict)
    activations: dict = field(default_factory=dict)
    entity_kinds: dict = field(default_factory=dict)  # table entity kind -> kernel.table.EntityKind

    def __post_init__(self):
        unknown = sorted(set(self.reactions) - set(REACTION_WINDOWS))
        if unknown:
            raise ValueError(f"rule {self.name!r}: no reaction window {', '.join(unknown)} "
                             f"(the windows: {', '.join(REACTION_WINDOWS)})")

    def __repr__(self) -> str:
        return f"Rule({self.name!r})"


def declared_options(rules) -> dict[str, Option]:
    """Every option the rules declare, by name (a name declared twice is an error)."""
    out: dict[str, Option] = {}
    for r in rules:
        for o in r.options:
            if o.name in out:
                raise ValueError(f"game option {o.name!r} is declared by two rules")
            out[o.name] = o
    return out


_RESOLVED: dict = {}


def resolve_options(rules, *layers) -> dict:
    """The game's options: the declared defaults updated by each layer (scenario options, then the caller's),
    each value checked; unknown names and illegal values raise :class:`ScenarioError` naming the option.
    (Remembered per rules and layers: a new dict each call.)"""
    rules = tuple(rules)
    try:
        key = (tuple(map(id, rules)), json.dumps(layers, sort_keys=True))
    except (TypeError, ValueError):
        key = None
    hit = _RESOLVED.get(key) if key is not None else None
    if hit is not None and hit[0] == rules:
        return dict(hit[1])
    opts = _resolve_options(rules, layers)
    if key is not None:
        if len(_RESOLVED) > 512:
            _RESOLVED.clear()
        _RESOLVED[key] = (rules, dict(opts))
    return opts


def _resolve_options(rules, layers) -> dict:
    decl = declared_options(rules)
    opts = {name: o.default for name, o in decl.items()}
    for layer in layers:
        if not layer:
            continue
        if not isinstance(layer, dict):
            raise ScenarioError(f"game options must be a JSON object of option names and values, not {layer!r}")
        unknown = sorted(set(layer) - set(decl))
        if unknown:
            raise ScenarioError(f"unknown game option(s): {', '.join(map(str, unknown))}; known: {', '.join(decl)}")
        opts.update(layer)
    for name, o in decl.items():
        why = o.problem(opts[name])
        if why:
            raise ScenarioError(f"game option {name} {why}")
    for r in rules:
        if r.validate is not None:
            r.validate(opts)
    return opts


class RuleSet:
    """The ordered rules of one game, with every extension point flattened in rule order."""

    __slots__ = ("rules", "names", "reactions") + SEQUENCE_POINTS + MAPPING_POINTS

    def __init__(self, rules):
        self.rules = tuple(rules)
        self.names = tuple(r.name for r in self.rules)
        if len(set(self.names)) != len(self.names):
            raise ValueError(f"a rule is listed twice in {self.names}")
        for point in SEQUENCE_POINTS:
            setattr(self, point, tuple(f for r in self.rules for f in getattr(r, point)))
        for point in MAPPING_POINTS:
            merged: dict = {}
            for r in self.rules:
                for key, value in getattr(r, point).items():
                    if key in merged:
                        raise ValueError(f"{point} {key!r} is claimed by two rules of the set")
                    merged[key] = value
            setattr(self, point, MappingProxyType(merged))
        self.reactions = MappingProxyType({w: tuple(r.reactions[w] for r in self.rules if w in r.reactions)
                                           for w in REACTION_WINDOWS})

    def __contains__(self, name: str) -> bool:
        return name in self.names

    def __iter__(self):
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __repr__(self) -> str:
        return f"RuleSet({', '.join(self.names)})"


_SETS: dict = {}


def rule_set(candidates, scenario: dict, options: dict) -> RuleSet:
    """The rule set of one game: the ``candidates`` (in order) whose ``applies`` accepts the scenario and
    options.  Equal selections share one RuleSet object."""
    chosen = tuple(r for r in candidates if r.applies is None or r.applies(scenario, options))
    key = tuple(id(r) for r in chosen)
    rs = _SETS.get(key)
    if rs is None or rs.rules != chosen:
        rs = _SETS[key] = RuleSet(chosen)
    return rs
