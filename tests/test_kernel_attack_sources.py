"""The attack pipeline's sources and its one dispatch by target kind (kernel/attack.py): a test-only rule fires a
point attack (a burst with a radius, seed 000 "Resolving Impacts", L1683-1689) through the kernel's points only, and
a reaction rule answers in the ``after_attack`` window.  Forced dice."""
import json

import pytest
from conftest import SIDE0_WINS, activate, events_of, last_event, rect, scenario, unit, wall
from vehicle_helpers import vehicle

from dustup_env.rules import Game, ScriptedDice
from dustup_env.rules.armoured_dustup.firing_at_vehicles import vehicle_shot
from dustup_env.rules.kernel.attack import (FIGURES, VEHICLE, Source, burst, fire_effects, point_cover,
                                            target_kind)
from dustup_env.rules.kernel.decisions import Decision, Frame
from dustup_env.rules.kernel.dice import D8
from dustup_env.rules.kernel.entities import KILLED, OK, WOUNDED
from dustup_env.rules.kernel.events import Event, event
from dustup_env.rules.kernel.ruleset import Rule
from dustup_env.rules.kernel.sequence import pop, push
from dustup_env.rules.kernel.state import Component
from dustup_env.rules.unit_actions.shoot_action import FireResult, shot_effects

# ---------------------------------------------------------------------------------------------- the test-only rules
class MortarState(Component):
    """The test rules' state: ``[x, y, radius]`` of the next round (unset: none aimed), and every attack heard."""

    __slots__ = ("test_mortar_aim", "test_heard")


def aim(game, x, y, r):
    game.state_of(MortarState).test_mortar_aim = [x, y, r]


@event
class MortarBurst(Event):
    x: float
    y: float
    struck: tuple  # the uids of the units struck


def _mortar_options(game, u, status):
    return [("test_mortar",)] if u.side == 0 and game.state_of(MortarState).test_mortar_aim else []


def _fire_mortar(game, u, opt):
    """One round at the aimed point: every figure and vehicle within the radius, of either side (L1679)."""
    st = game.state_of(MortarState)
    (x, y, r), st.test_mortar_aim = st.test_mortar_aim, None
    frame = Frame("test_mortar", u.uid, 0, False, {})
    game.stack.append(frame)  # the action waits here while the after_attack reactions are answered
    res = burst(game, Source.at_point(x, y, r, "test mortar"), D8)
    game.emit(MortarBurst(x, y, tuple(res.struck)))
    if not res.waiting:
        pop(game, frame)
    return False  # the frame's pop counts the action


class MortarRound:
    @staticmethod
    def resume(game, frame, popped):
        pop(game, frame)


def _heard(game, attacker, target):
    """after_attack: every attack, whatever its source, is logged (the attacker: a unit, or the point source)."""
    who = ["unit", attacker.uid] if not isinstance(attacker, Source) else [attacker.kind, attacker.x, attacker.y,
                                                                           attacker.radius, attacker.name]
    st = game.state_of(MortarState)
    st.test_heard = (st.test_heard or []) + [[*who, target.uid]]


MORTAR = Rule("Test mortar", "a test-only rule", action_options=(_mortar_options,), actions={"test_mortar": _fire_mortar},
              procedures={"test_mortar": MortarRound()}, reactions={"after_attack": _heard})


def _dive(game, attacker, target):
    if isinstance(attacker, Source) and target.side == 1 and target.in_play and target.profile.vehicle is None:
        push(game, Frame("test_dive", target.uid, 0, False, {"x": attacker.x, "y": attacker.y}))


class Dive:
    def decision(self, game, frame):
        t = game.units[frame.unit]
        return Decision(t.side, "test_dive", t.uid, (("dive",),))

    def apply(self, game, frame, opt):
        game.units[frame.unit].propped = True  # a reaction of the unit struck
        pop(game, frame, used=0)


DIVING = Rule("Test diving", "a test-only rule", reactions={"after_attack": _dive}, procedures={"test_dive": Dive()})


# ---------------------------------------------------------------------------------------------- the table
def field():
    """Blue A (uid 0, one figure, 3" south of the point (24, 20)), blue B (uid 1, the mortar's squad, 12" away: out of
    the radius); red R
    (uid 2, one figure 3" east, behind a hedge); red tank T (uid 3, its centre 1" north: the point is over it, top
    D12x2, front D12x3); red light tank L (uid 4, 4" west facing east: the point is off its footprint but within the
    radius of it, front D12x2, top D12)."""
    blue = [unit("A", (24, 17), figures=(("rifle", 1),)), unit("B", (24, 8))]
    red = [unit("R", (27, 20), figures=(("rifle", 1),)), vehicle("T", (24, 21), "main_battle_tank", facing=180),
           vehicle("L", (20, 20), "light_tank", facing=90)]
    return scenario(blue, red, obstacles=[wall("hedge", 25.5, 18, 25.5, 22, cost=1)])


def aimed(rules=(MORTAR,), dice=()):
    g = Game(field(), rules=rules, dice=ScriptedDice(SIDE0_WINS + list(dice)))
    g.apply(("first",))
    aim(g, 24.0, 20.0, 4.0)  # a medium mortar's 4" burst radius (L1592)
    activate(g, 1)  # B fires the mortar
    return g


BURST_DICE = [("d8", 5), ("d4", 3),  # A: impact 5 against its D4, no cover: a wound
              ("d8", 8), ("d6", 3),  # R: behind the hedge its D4 shifts to D6 (L1687): 8 > 2 x 3 killed
              ("d8", 3), ("d12x2", 10),  # T: the point is over it: its top armour (L1685), no effect
              ("d8", 2), ("d12x2", 4)]  # L: within the radius: the facing towards the point (front), no effect


def test_a_burst_strikes_every_figure_and_vehicle_within_its_radius():
    g = aimed(dice=BURST_DICE)
    assert ("test_mortar",) in g.decision().options
    g.apply(("test_mortar",))
    assert g.dice.remaining == 0
    a, b, r = g.units[0], g.units[1], g.units[2]
    assert a.figures[0].status == WOUNDED and all(f.status == OK for f in b.figures) and r.figures[0].status == KILLED
    assert last_event(g, "MortarBurst")["struck"] == [0, 2, 3, 4]  # both sides; B is out of the radius
    hits = events_of(g, "HitResolved")
    assert [(h["target"], h["armour_die"], h["effect"]) for h in hits] == [(0, "d4", "wound"), (2, "d6", "kill")]
    assert [(v["unit"], v["facing"], v["result"]) for v in events_of(g, "VehicleHit")] == [(3, "top", "none"),
                                                                                             (4, "front", "none")]
    assert g.actions_left == 1 and g.decision().kind == "action"  # one action used


def test_cover_between_the_point_and_the_figure_shifts_the_armour_die():
    g = aimed()
    assert point_cover(g, 24, 20, 27, 20) == 1  # the hedge between
    assert point_cover(g, 24, 20, 24, 17) == 0
    assert point_cover(g, 24, 20, 24, 23) == 0
    walled = Game(scenario([unit("A", (24, 5))], [unit("B", (24, 35))], obstacles=[wall("wall", 20, 10, 28, 10)],
                           terrain=[rect("building", 30, 30, 36, 36)]))
    assert point_cover(walled, 24, 12, 24, 8) == 2  # a wall 2" in front: hard cover, two shifts (RN-153)
    assert point_cover(walled, 24, 12, 24, 5) == 0  # the wall 5" from the figure does not cover it (as for a shot)
    assert point_cover(walled, 28, 33, 38, 33) == 1  # a building blocks the line: at least soft cover (RN-980)
    # the hedge is the only difference: without it R rolls its own D4 (the scripted D6 no longer fits)
    scn = field()
    scn["obstacles"] = []
    g = Game(scn, rules=(MORTAR,), dice=ScriptedDice(SIDE0_WINS + BURST_DICE))
    g.apply(("first",))
    aim(g, 24.0, 20.0, 4.0)
    activate(g, 1)
    with pytest.raises(Exception, match="expected d6 but the rules rolled d4"):
        g.apply(("test_mortar",))


def test_a_vehicle_under_the_point_by_its_top_and_in_the_radius_by_the_facing_towards_it():
    # the tank's top armour is a D12x2 (its front, towards the point, a D12x3); the light tank's front a D12x2 (its
    # top a D12): the scripted dice fit only these facings
    g = aimed(dice=BURST_DICE[:6] + [("d8", 6), ("d12x2", 3)])  # 6 against 3 x 2: a draw goes to the vehicle
    g.apply(("test_mortar",))
    assert last_event(g, "VehicleHit") == {"type": "VehicleHit", "unit": 4, "facing": "front", "impact": 6,
                                           "armour": 6, "result": "none"}
    assert g.dice.remaining == 0
    # the same vehicle turned away: the facing towards the point is its rear (D12)
    scn = field()
    scn["sides"][1]["units"][2]["facing"] = 270
    g = Game(scn, rules=(MORTAR,), dice=ScriptedDice(SIDE0_WINS + BURST_DICE[:6] + [("d8", 2), ("d12", 4)]))
    g.apply(("first",))
    aim(g, 24.0, 20.0, 4.0)
    activate(g, 1)
    g.apply(("test_mortar",))
    assert last_event(g, "VehicleHit")["facing"] == "rear" and g.dice.remaining == 0


def test_the_after_attack_window_runs_for_the_point_source_and_for_a_shot():
    g = aimed(dice=BURST_DICE)
    g.apply(("test_mortar",))
    point = ["point", 24.0, 20.0, 4.0, "test mortar"]
    assert g.state_of(MortarState).test_heard == [point + [0], point + [2], point + [3], point + [4]]
    g = Game(scenario([unit("A", (24, 5))], [unit("B", (24, 15))]), seed=3, rules=(MORTAR,))
    g.apply(("first",) if g.initiative_winner == 0 else ("second",))
    activate(g, 0)
    g.apply(next(o for o in g.decision().options if o[0] == "shoot"))
    assert g.state_of(MortarState).test_heard == [["unit", 0, 1]]  # a shot: the same window, the firing unit


def test_reactions_to_a_point_attack_wait_over_the_action_and_survive_a_snapshot():
    dice = [("d8", 5), ("d4", 3), ("d8", 1), ("d6", 3),  # A wounded; R unharmed (it can react)
            ("d8", 3), ("d12x2", 10), ("d8", 2), ("d12x2", 4)]
    g = aimed(rules=(MORTAR, DIVING), dice=dice)
    g.apply(("test_mortar",))
    d = g.decision()
    assert (d.side, d.kind, d.unit) == (1, "test_dive", 2)
    assert [f.type for f in g.stack] == ["activation", "test_mortar", "test_dive"]
    c = g.clone()  # the pause is plain data: a copy goes on alike
    for game in (g, c):
        game.apply(("dive",))
        assert game.units[2].propped and [f.type for f in game.stack] == ["activation"] and game.actions_left == 1
    assert c.state_digest() == g.state_digest()
    s = Game(field(), seed=5, rules=(MORTAR, DIVING))
    s.apply(("first",) if s.initiative_winner == 0 else ("second",))
    aim(s, 24.0, 20.0, 4.0)
    activate(s, 1)
    s.apply(("test_mortar",))
    h = Game.from_snapshot(json.loads(json.dumps(s.snapshot())), rules=(MORTAR, DIVING))
    assert h.state_digest() == s.state_digest() and h.stack == s.stack


def test_sources_and_the_dispatch_by_target_kind():
    g = aimed()
    a, t = g.units[0], g.units[3]
    assert Source.of_unit(a).origin(g) == (24.0, 17.0) and Source.of_unit(a).attacker(g) is a
    p = Source.at_point(10, 12, 3)
    assert (p.kind, p.origin(g), p.radius, p.attacker(g)) == ("point", (10.0, 12.0), 3.0, p)
    o = Source.off_table("battery", 0, 48)
    assert (o.kind, o.origin(g), o.attacker(g)) == ("off_table", (0.0, 48.0), o)
    with pytest.raises(ValueError, match="radius"):
        Source.at_point(1, 1, -2)
    with pytest.raises(ValueError, match="give its burst a point source"):
        burst(g, o, D8)
    assert (target_kind(a), target_kind(t)) == (FIGURES, VEHICLE)
    assert dict(g.rules.attacks) == {FIGURES: shot_effects, VEHICLE: vehicle_shot}
    with pytest.raises(ValueError, match="no rule of this game resolves an attack on a building target"):
        fire_effects(g, a, t, FireResult(1, (1, 1), 0, "none", 0), D8, kind="building")


def test_a_burst_strikes_only_the_sides_it_is_given():
    g = Game(field(), rules=(MORTAR,), dice=ScriptedDice(SIDE0_WINS + [("d8", 1), ("d4", 1)]))
    g.apply(("first",))
    res = burst(g, Source.at_point(24, 20, 4), D8, sides=(0,), cover=False)  # only blue A is within 4"
    assert list(res.struck) == [0] and res.struck[0].casualties == 0 and not res.waiting and g.dice.remaining == 0


def test_a_passenger_is_struck_only_through_its_vehicle():
    from vehicle_helpers import mechanised
    g = Game(mechanised(), seed=2)
    apc, squad = (next(u for u in g.units if u.name == n) for n in ("APC 1", "Squad 1"))
    assert squad.veh.carrier == apc.uid
    res = burst(g, Source.at_point(apc.x, apc.y, 3.0), D8)
    assert apc.uid in res.struck and squad.uid not in res.struck
    assert not [e for e in g.event_log() if e["type"] == "HitResolved" and e["target"] == squad.uid]
