"""The decision stack as an interpreter: reactions pushed in the kernel's windows, and activations that are not units.

The test-only rules here are the worked examples of docs/architecture.md ("Reactions and activations that are not
units"): nothing in the engine knows them; each is one Rule added to a game's rule set.

* ``OVERWATCH``: a unit of the other side fires at a mover mid-move (the ``move_step`` window); when its decision
  is taken the move goes on from where it was.
* ``PINNING``: the same, but the fire pins the mover: it stops where it was fired at.
* ``PINGS``: a decision of the other side at a turn's start and end and at an activation's start and end.
* ``FIRE_MISSIONS``: one pending fire mission per side and turn, an activation that is not a unit, in every
  activation sequence (alternate, chits, cards, seizing the initiative).
"""
import json
import random

import pytest

from conftest import activate, events_of, last_event, scenario, unit
from dustup_env.rules import Game, Rule, ScriptedDice
from dustup_env.rules.kernel.attack import resolve_hits
from dustup_env.rules.kernel.decisions import Decision, Frame
from dustup_env.rules.kernel.dice import D8
from dustup_env.rules.kernel.events import Event, event
from dustup_env.rules.kernel.sequence import pop, push
from dustup_env.rules.kernel.state import Component
from dustup_env.rules.rules_overview.random_activation import CardDeck


class OverwatchState(Component):
    """The test rule's state: the units that fired on overwatch (unset before any)."""

    __slots__ = ("overwatch_done",)


class MissionState(Component):
    """The test rule's state: each side's pending fire missions this turn."""

    __slots__ = ("missions",)

WATCH_RANGE = 24.0


# ---------------------------------------------------------------------------------------------- overwatch
@event
class OverwatchFired(Event):
    unit: int
    target: int
    x: float  # where the mover was when it was fired at
    y: float
    casualties: int


def _watchers(game, mover):
    """Units of the other side within 24" of the mover that have not fired on overwatch this turn."""
    st = game.state_of(OverwatchState)
    if st.overwatch_done is None:
        st.overwatch_done = []
    done = st.overwatch_done
    return [e for e in game.enemy_units(mover.side)
            if e.uid not in done and (e.x - mover.x) ** 2 + (e.y - mover.y) ** 2 < WATCH_RANGE ** 2]


def _overwatch_window(kind):
    def react(game, mover, walk):
        for w in _watchers(game, mover):
            game.state_of(OverwatchState).overwatch_done.append(w.uid)
            push(game, Frame(kind, w.uid, 0, False, {"mover": mover.uid}))
            return  # one watcher a step

    return react


class Overwatch:
    """The watcher's side decides: fire at the mover, or hold."""

    def __init__(self, pins: bool):
        self.pins = pins

    def decision(self, game, frame):
        w = game.units[frame.unit]
        return Decision(w.side, "overwatch", w.uid, (("fire", frame.data["mover"]), ("hold",)))

    def apply(self, game, frame, opt):
        if opt[0] == "fire":
            mover = game.units[frame.data["mover"]]
            res = resolve_hits(game, mover, 1, D8)  # one hit, impact D8
            game.emit(OverwatchFired(frame.unit, mover.uid, mover.x, mover.y, res.casualties))
            if self.pins:
                mover.suppression += 1
                game.stack[-2].data["halted"] = True  # the walk below stops where it is
        pop(game, frame, used=0)  # a reaction uses none of the mover's actions; the walk below resumes


OVERWATCH = Rule("Test overwatch", "a test-only rule", reactions={"move_step": _overwatch_window("overwatch")},
                 procedures={"overwatch": Overwatch(pins=False)})
PINNING = Rule("Test pinning fire", "a test-only rule", reactions={"move_step": _overwatch_window("pinning")},
               procedures={"pinning": Overwatch(pins=True)})


def duel():
    return scenario([unit("A", (24, 5))], [unit("B", (24, 30))])


MOVE_DICE = [("d8", 8), ("d8", 1), ("d6", 6)]  # initiative (side 0); the move: 12 MP
FIRE_DICE = [("d6", 1), ("d8", 1), ("d4", 4)]  # the overwatch hit: figure 0, impact 1 against armour 4: no effect


def test_a_unit_of_the_other_side_fires_at_a_mover_mid_move_and_the_move_goes_on():
    g = Game(duel(), rules=(OVERWATCH,), dice=ScriptedDice(MOVE_DICE + FIRE_DICE))
    g.apply(("first",))
    activate(g, 0)
    g.apply(("move", 0, 3))  # 24" north: within 24" of B after 1.5"
    d = g.decision()
    assert (d.side, d.kind, d.unit, d.options) == (1, "overwatch", 1, (("fire", 0), ("hold",)))
    walk = g.stack[-2]
    assert walk.type == "walk" and walk.data["y"] == 6.5 and walk.data["spent"] == 1.5
    assert (g.units[0].x, g.units[0].y) == (24.0, 6.5) and not events_of(g, "Moved")  # stopped mid-move
    g.apply(("fire", 0))
    assert last_event(g, "OverwatchFired") == {"type": "OverwatchFired", "unit": 1, "target": 0, "x": 24.0,
                                               "y": 6.5, "casualties": 0}
    moved = last_event(g, "Moved")
    assert moved["start"] == [24.0, 5.0] and moved["end"] == [24.0, 17.0]  # the whole 12" from where it was
    assert [f.type for f in g.stack] == ["activation"] and g.actions_left == 1  # the move was one action
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (0, "action", 0) and g.dice.remaining == 0


def test_a_move_without_reactions_ends_where_the_same_move_with_one_ends():
    plain = Game(duel(), dice=ScriptedDice(MOVE_DICE))
    plain.apply(("first",))
    activate(plain, 0)
    plain.apply(("move", 0, 3))
    assert last_event(plain, "Moved")["end"] == [24.0, 17.0] and plain.stack[-1].type == "activation"


def test_a_reaction_that_pins_the_mover_stops_it_where_it_was_fired_at():
    g = Game(duel(), rules=(PINNING,), dice=ScriptedDice(MOVE_DICE + FIRE_DICE))
    g.apply(("first",))
    activate(g, 0)
    g.apply(("move", 0, 3))
    g.apply(("fire", 0))
    u = g.units[0]
    assert last_event(g, "Moved")["end"] == [24.0, 6.5] and (u.x, u.y) == (24.0, 6.5) and u.suppression == 1
    assert g.actions_left == 1 and g.decision().kind == "action"


def test_holding_fire_lets_the_mover_go_on():
    g = Game(duel(), rules=(PINNING,), dice=ScriptedDice(MOVE_DICE))
    g.apply(("first",))
    activate(g, 0)
    g.apply(("move", 0, 3))
    g.apply(("hold",))
    assert last_event(g, "Moved")["end"] == [24.0, 17.0] and not events_of(g, "OverwatchFired")


def _to_reaction(seed, rules=(OVERWATCH,)):
    g = Game(duel(), seed=seed, rules=rules)
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    activate(g, 0)
    g.apply(("move", 0, 3))
    assert g.decision().kind == "overwatch"
    return g


def _finish(g, seed):
    rng = random.Random(seed)
    while not g.over:
        g.apply(rng.choice(g.decision().options))
    return [e.to_dict() for e in g.events]


@pytest.mark.parametrize("seed", range(4))
def test_a_paused_move_is_plain_data_copies_snapshots_and_saves_continue_it(seed):
    g = _to_reaction(seed)
    c = g.clone()
    s = Game.from_snapshot(json.loads(json.dumps(g.snapshot())), rules=(OVERWATCH,))
    r = Game.from_dict(json.loads(json.dumps(g.to_dict())), rules=(OVERWATCH,))
    assert s.state_digest() == g.state_digest() == c.state_digest() == r.state_digest()
    logs = [_finish(x, seed) for x in (g, c, s, r)]
    assert logs[0] == logs[1] == logs[2] == logs[3]


# ---------------------------------------------------------------------------------------------- the other windows
@event
class Pinged(Event):
    window: str
    side: int


def _ping(window):
    def react(game, *args):
        side = 1 - args[0].side if args else game.turn % 2  # the other side of the unit, or by turn
        push(game, Frame("ping", -1, 0, False, {"window": window, "side": side}))

    return react


class Ping:
    def decision(self, game, frame):
        return Decision(frame.data["side"], "ping", -1, (("ack",),))

    def apply(self, game, frame, opt):
        game.emit(Pinged(frame.data["window"], frame.data["side"]))
        pop(game, frame, used=0)


PINGS = Rule("Test pings", "a test-only rule", procedures={"ping": Ping()},
             reactions={w: _ping(w) for w in ("turn_start", "turn_end", "activation_start", "activation_end")})


@pytest.mark.parametrize("activation", ["alternate", "chits", "cards"])
def test_reactions_at_a_turns_and_an_activations_start_and_end(activation):
    g = Game("skirmish", seed=5, options={"activation": activation}, rules=(PINGS,))
    assert g.decision().kind == "ping" and [f.type for f in g.stack] == ["turn_start", "ping"]
    rng = random.Random(5)
    copies = 0
    while not g.over:
        d = g.decision()
        if d.kind == "ping" and copies < 6 and rng.random() < 0.2:  # a copy made while a reaction waits goes on alike
            copies += 1
            c = Game.from_snapshot(json.loads(json.dumps(g.snapshot())), rules=(PINGS,))
            assert c.state_digest() == g.state_digest()
            seed = rng.randrange(1000)
            h = g.clone()
            assert _finish(c, seed) == _finish(h, seed)
        g.apply(rng.choice(d.options))
    log = [e.to_dict() for e in g.events]
    kinds = [e["type"] if e["type"] != "Pinged" else "Pinged:" + e["window"] for e in log]
    for i, k in enumerate(kinds):
        if k == "TurnStarted":
            assert kinds[i + 1] == "Pinged:turn_start"  # before the initiative or the first draw
        if k == "UnitActivated":
            nxt = next(j for j in range(i + 1, len(kinds)) if kinds[j].startswith("Pinged") or kinds[j] == "ActivationEnded")
            assert kinds[nxt] == "Pinged:activation_start"
        if k == "ActivationEnded":
            assert kinds[i - 1] == "Pinged:activation_end" or log[i - 1]["type"] != "Pinged"
        if k == "TurnEnded" and i + 1 < len(kinds):
            assert kinds[i + 1] in ("Pinged:turn_end", "GameEnded")
    n = {w: kinds.count("Pinged:" + w) for w in ("turn_start", "turn_end", "activation_start", "activation_end")}
    ended = kinds.count("ActivationEnded")  # (an ordered activation starts without UnitActivated)
    assert n["activation_end"] == ended and ended <= n["activation_start"] <= ended + 1
    assert n["turn_start"] == kinds.count("TurnStarted") and n["turn_end"] == kinds.count("TurnEnded")


def test_an_activation_start_reaction_uses_none_of_the_units_actions():
    g = Game(duel(), rules=(PINGS,), dice=ScriptedDice([("d8", 8), ("d8", 1)]))
    g.apply(("ack",))  # the turn's start
    g.apply(("first",))
    activate(g, 0)
    d = g.decision()
    assert (d.side, d.kind) == (1, "ping") and [f.type for f in g.stack] == ["activation", "ping"]
    g.apply(("ack",))
    assert g.decision().kind == "action" and g.actions_left == 2
    g.apply(("end",))
    assert [f.type for f in g.stack] == ["activation", "activation_end", "ping"]  # the activation waits to end
    g.apply(("ack",))
    assert not g.stack and g.decision() == Decision(1, "activate", -1, (("activate", 1),))


# ---------------------------------------------------------------------------------------------- fire missions
@event
class MissionFired(Event):
    side: int
    target: int


def _missions_start(game):
    game.state_of(MissionState).missions = [1, 1]  # one pending fire mission a side each turn


def _pending(game, side):
    return game.state_of(MissionState).missions[side]


def _mission_options(game, side):
    return [("fire_mission",)] if game.state_of(MissionState).missions[side] else []


def _call_mission(game, side, opt):
    game.state_of(MissionState).missions[side] -= 1
    push(game, Frame("mission", -1, 0, False, {"side": side}))  # the side picks the target


class Mission:
    def decision(self, game, frame):
        side = frame.data["side"]
        return Decision(side, "mission", -1, tuple(("target", e.uid) for e in game.enemy_units(side)) or (("none",),))

    def apply(self, game, frame, opt):
        game.emit(MissionFired(frame.data["side"], opt[1] if opt[0] == "target" else -1))
        pop(game, frame)  # the sequence goes on: the next activation


FIRE_MISSIONS = Rule("Test fire missions", "a test-only rule", turn_start=(_missions_start,),
                     pending_activations=(_pending,), activation_options=(_mission_options,),
                     activations={"fire_mission": _call_mission}, procedures={"mission": Mission()})


def test_a_pending_fire_mission_is_an_activation_of_the_alternate_sequence():
    g = Game(duel(), rules=(FIRE_MISSIONS,), dice=ScriptedDice([("d8", 8), ("d8", 1), ("d8", 2), ("d8", 1)]))
    g.apply(("first",))
    d = g.decision()
    assert d == Decision(0, "activate", -1, (("activate", 0), ("fire_mission",)))  # 2 activations each: no pass
    assert g.unactivated(0) == 2 == g.unactivated(1)
    g.apply(("fire_mission",))
    assert g.decision() == Decision(0, "mission", -1, (("target", 1),))
    g.apply(("target", 1))
    assert last_event(g, "MissionFired") == {"type": "MissionFired", "side": 0, "target": 1}
    assert g.decision() == Decision(1, "activate", -1, (("activate", 1), ("fire_mission",)))
    g.apply(("activate", 1))
    g.apply(("end",))
    assert g.decision() == Decision(0, "activate", -1, (("activate", 0),))
    g.apply(("activate", 0))
    g.apply(("end",))
    assert g.turn == 1 and g.decision() == Decision(1, "activate", -1, (("fire_mission",),))  # the turn waits for it
    g.apply(("fire_mission",))
    g.apply(("target", 0))
    assert g.turn == 2 and events_of(g, "TurnEnded") and g.state_of(MissionState).missions == [1, 1]


@pytest.mark.parametrize("options", [{"activation": "alternate"}, {"activation": "chits"},
                                     {"activation": "chits", "chit_quality_variant": True},
                                     {"activation": "cards"}, {"activation": "cards", "turn_end_card": True},
                                     {"seize_tokens": 2}])
@pytest.mark.parametrize("seed", range(3))
def test_every_activation_sequence_counts_the_fire_missions(options, seed):
    g = Game("skirmish", seed=seed, options=options, rules=(FIRE_MISSIONS,))
    rng = random.Random(seed)
    seized = 0
    while not g.over:
        d = g.decision()
        if d.kind == "activate" and g.state_of(CardDeck).card_side is not None:
            assert d.options == (("fire_mission",),)  # a mission's card offers only the mission
        opt = rng.choice(d.options)
        if d.kind == "seize" and ("fire_mission",) in d.options and rng.random() < 0.5:
            opt = ("fire_mission",)
        seized += d.kind == "seize" and opt == ("fire_mission",)
        g.apply(opt)
    log = [e.to_dict() for e in g.events]
    turn, fired = 0, {}
    for e in log:
        if e["type"] == "TurnStarted":
            turn = e["turn"]
        elif e["type"] == "MissionFired":
            fired[(turn, e["side"])] = fired.get((turn, e["side"]), 0) + 1
        elif e["type"] == "TurnEnded" and not (options.get("turn_end_card") or options.get("chit_quality_variant")):
            assert fired.get((turn, 0)) == 1 and fired.get((turn, 1)) == 1, (turn, fired)  # every mission fired
    assert all(n == 1 for n in fired.values()) and fired
    if options.get("activation") == "chits":
        assert any(e["type"] == "ChitDrawn" for e in log)
    if options.get("activation") == "cards":
        assert any(e["type"] == "ActivationCardDrawn" for e in log)
    if "seize_tokens" in options:
        assert seized and seized == sum(1 for e in log if e["type"] == "InitiativeSeized" and e["unit"] == -1)


def test_the_seize_window_offers_a_pending_fire_mission():
    g = Game(duel(), rules=(FIRE_MISSIONS,), options={"seize_tokens": 1}, dice=ScriptedDice([("d8", 8), ("d8", 1)]))
    g.apply(("first",))
    d = g.decision()
    assert (d.side, d.kind) == (1, "seize") and ("fire_mission",) in d.options and ("seize", 1) in d.options
    g.apply(("fire_mission",))
    assert last_event(g, "InitiativeSeized") == {"type": "InitiativeSeized", "side": 1, "unit": -1, "tokens_left": 0}
    g.apply(("target", 0))
    d = g.decision()
    assert d == Decision(0, "activate", -1, (("activate", 0), ("fire_mission",)))  # side 0 is due again


# ---------------------------------------------------------------------------------------------- around an attack
@event
class Dodged(Event):
    unit: int


def _before_attack(game, firer, target):
    push(game, Frame("dodge", target.uid, 0, False, {"firer": firer.uid}))


def _after_attack(game, firer, target):
    if target.in_play:
        push(game, Frame("shaken_fist", target.uid, 0, False, {"firer": firer.uid}))


class Dodge:
    def decision(self, game, frame):
        t = game.units[frame.unit]
        return Decision(t.side, "dodge", t.uid, (("dodge",), ("stand",)))

    def apply(self, game, frame, opt):
        if opt[0] == "dodge":
            game.stack[-2].data["halted"] = True  # the shot below is not fired
            game.emit(Dodged(frame.unit))
        pop(game, frame, used=0)


class ShakenFist:
    def decision(self, game, frame):
        t = game.units[frame.unit]
        return Decision(t.side, "shaken_fist", t.uid, (("ack",),))

    def apply(self, game, frame, opt):
        pop(game, frame, used=0)


DODGING = Rule("Test dodging", "a test-only rule", reactions={"before_attack": _before_attack,
                                                              "after_attack": _after_attack},
               procedures={"dodge": Dodge(), "shaken_fist": ShakenFist()})


def _shot_declared(seed):
    g = Game(scenario([unit("A", (24, 5))], [unit("B", (24, 15))]), seed=seed, rules=(DODGING,))
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    activate(g, 0)
    shots = [o for o in g.decision().options if o[0] == "shoot"]
    g.apply(shots[0])
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "dodge", 1) and [f.type for f in g.stack] == ["activation", "shot", "dodge"]
    assert not events_of(g, "ShotResolved")
    return g


@pytest.mark.parametrize("seed", range(3))
def test_reactions_before_and_after_an_attack_resolves(seed):
    g = _shot_declared(seed)
    c = Game.from_snapshot(json.loads(json.dumps(g.snapshot())), rules=(DODGING,))
    g.apply(("stand",))
    assert len(events_of(g, "ShotResolved")) == 1
    if g.units[1].in_play:
        d = g.decision()
        assert (d.side, d.kind) == (1, "shaken_fist") and [f.type for f in g.stack] == ["activation", "shot", "shaken_fist"]
        g.apply(("ack",))
    assert [f.type for f in g.stack] == ["activation"] and g.actions_left == 1
    c.apply(("stand",))
    assert [e.to_dict() for e in c.events] == [e.to_dict() for e in g.events][:len(c.events)]


def test_a_reaction_before_an_attack_can_stop_it():
    g = _shot_declared(0)
    g.apply(("dodge",))
    assert last_event(g, "ShotLost") == {"type": "ShotLost", "unit": 0, "target": 1}
    assert not events_of(g, "ShotResolved") and g.actions_left == 1 and g.decision().kind == "action"


def test_a_reaction_names_a_window_of_the_kernel():
    with pytest.raises(ValueError, match="no reaction window mid_air"):
        Rule("Test typo", reactions={"mid_air": lambda game: None})
    assert set(Game(duel(), rules=(PINGS,)).rules.reactions) == {
        "move_step", "move_end", "before_attack", "after_attack", "activation_start", "activation_end", "turn_start", "turn_end"}


# ---------------------------------------------------------------------------------------------- nested procedures
def _regroupers(dice):
    """Two depleted units of side 0, 14" apart (the regroup moves first), an enemy within 24" of the move."""
    from dustup_env.rules.kernel.entities import KILLED
    a, b = unit("A", (10, 5), figures=(("rifle", 6),)), unit("B", (24, 5), figures=(("rifle", 5),))
    g = Game(scenario([a, b], [unit("R", (17, 25))]), rules=(PINNING,),
             dice=ScriptedDice([("d8", 8), ("d8", 1), ("d6", 6)] + dice))
    for u in g.units[:2]:
        u.set_figure(-1, status=KILLED)
        u.set_figure(-2, status=KILLED)
    g.apply(("first",))
    activate(g, 0)
    g.apply(("regroup", 1))  # 12 MP toward B, stopping 5.5" short: at (18.5, 5)
    assert [f.type for f in g.stack] == ["activation", "regroup", "walk", "pinning"]
    return g


def test_a_reaction_mid_move_resumes_the_walk_and_then_the_procedure_below_it():
    g = _regroupers([])
    g.apply(("hold",))  # the walk goes on, ends, and the regroup below it combines the units
    assert last_event(g, "Moved")["end"] == [18.5, 5.0] and g.units[1].merged and g.active != 0


def test_a_mover_stopped_mid_move_leaves_the_procedure_below_to_decide():
    g = _regroupers([("d4", 1), ("d8", 1), ("d4", 4)])
    g.apply(("fire", 0))  # pinned at the first step: still 13.5" apart, so no regroup; the move was one action
    assert last_event(g, "Moved")["end"] == [10.5, 5.0] and not g.units[1].merged
    assert g.active == 0 and g.actions_left == 1 and g.dice.remaining == 0
