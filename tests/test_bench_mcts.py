"""The speed-ups of ``hard`` (agents/hard.py, agents/armour.py) choose exactly as the plain computations they
replace, and their caches never answer for another game or another state of it; ``benchmarks/bench_mcts.py``'s
check mode runs.

* ``_best_move`` (moves ordered by an upper bound of their score, skipped when they cannot beat the best; the
  threat from a table made once per decision; the move blockers once) against scoring every candidate in order with
  ``_fire_estimate`` per enemy, as before;
* ``_drive_to`` (each direction walked once for all its distances) against the walk per option, as before;
* the route fields shared by the games on one static table (a search's copies): equal to a field made afresh, and
  never shared once the table has dynamic terrain (a wreck);
* a shot's score kept for one decision only.
"""
from __future__ import annotations

import io
import json
import math
import sys
from contextlib import redirect_stdout
from pathlib import Path

from agents import make_agent
from agents.armour import _d as _ad
from agents.hard import _ARMOURS, MEAN_MOVE, HardAgent
from agents.scripted import shot_value
from agents.knowledge import Knowledge
from dustup_env.rules import Game
from dustup_env.rules.kernel import terrain
from dustup_env.rules.kernel.dice import D4, D6, D8, D12, die_sides, parse_die
from dustup_env.rules.kernel.entities import ROUTED
from dustup_env.rules.unit_actions.move_action import DIR_VECTORS, DISTANCES
from dustup_env.rules.unit_actions.shoot_action import SHORT_RANGE, armour_die

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def _candidates(u, opts):
    """``_manoeuvre``'s candidates: (option, dx, dy), one per nominated point (half-inch keys)."""
    out, seen = [], set()
    for o in opts:
        if o[0] != "move" or len(o) < 3:
            continue
        vx, vy = DIR_VECTORS[o[1]]
        dist = min(DISTANCES[o[2]], MEAN_MOVE)
        key = (round((u.x + vx * dist) * 2), round((u.y + vy * dist) * 2))
        if key not in seen:
            seen.add(key)
            out.append((o, vx * dist, vy * dist))
    return out


def _fire_estimate(hard, k, shooter, sx, sy, target, tx, ty):
    """(P(at least one success), expected casualties) of ``shooter`` at (sx, sy) firing everything at ``target``
    standing at (tx, ty), unpropped; None without a line of sight or out of range: ``hard``'s threat as it was
    worked out before the per-decision table, one enemy and one point at a time."""
    bf = k.bf
    dist = math.hypot(sx - tx, sy - ty)
    q, fp, impact, rng = hard._guns_of(k, shooter)
    if not fp or dist > rng:
        return None
    s = bf.sight(sx, sy, tx, ty)
    if not s.visible:
        return None
    shift = 0
    if dist > 48.0:
        shift += 1
    elif dist <= SHORT_RANGE:
        shift -= 1
    if s.concealed or bf.conceals(tx, ty):
        shift += 1
    if q == D4:
        shift += 1
    elif q == D12:
        shift -= 1
    tdie = D8 + shift
    if tdie > D12:
        return None
    arm = _ARMOURS.get(target.armour)
    adie = armour_die(arm.die if arm is not None else D6, propped=False, cover=max(s.cover, bf.cover_at(tx, ty)))
    return shot_value(q, fp, max(D4, tdie), impact, adie)


def _threat_per_enemy(hard, k, u, px, py, table=None):
    """``hard._threat`` as it was: the sum over the able visible enemy of :func:`_fire_estimate` (no table)."""
    total = 0.0
    for e in k.enemy_units:
        if e.confidence >= ROUTED:
            continue
        r = _fire_estimate(hard, k, e, e.x, e.y, u, px, py)
        if r is None:
            continue
        w = 1.0 if e.suppression == 0 else 0.35
        total += w * (r[0] * hard.W_SUP_THREAT + r[1] * hard.W_CAS_THREAT)
    return total


def _every_candidate(hard, k, u, goal, holders, cands):
    """The loop ``_manoeuvre`` had: every candidate walked and scored in order (the threat per enemy through
    ``_fire_estimate``), the first of the best kept."""
    best, bs = None, -1e18
    hard._threat = lambda k, u, px, py, table=None: _threat_per_enemy(hard, k, u, px, py)
    try:
        for o, _, _ in cands:
            p = hard._reach(k, u, o, MEAN_MOVE)
            if p is None:
                continue
            c = k.bf.move_cost(*p)
            if c is None:
                continue
            s = hard._position_value(k, u, p[0], p[1], goal) - 0.2 * (c - 1) + hard._sight_bonus(k, p[0], p[1],
                                                                                                 holders)
            if s > bs:
                best, bs = o, s
    finally:
        del hard._threat  # the class's method again
    return best, bs


def test_best_move_is_the_choice_of_scoring_every_move():
    """Every infantry action with moves in hard-against-hard games (default; fire-support, where positions that see
    the defenders score a bonus; armour, with the tank-shock risk): the same move and the very same score."""
    checked = 0
    for scenario, seed in (("default", 1), ("fire-support", 2), ("armour", 3)):
        g = Game(scenario, seed=seed)
        bots = [make_agent("hard", seed=1), make_agent("hard", seed=2)]
        n = 0
        while not g.over and n < 400:
            d = g.decision()
            if d.kind == "action" and any(o[0] == "move" for o in d.options):
                hard = bots[d.side]
                k = Knowledge(g, d.side)
                u = k.units[d.unit]
                if u.profile.vehicle is None:
                    goal, holders = hard._goal(k, u), hard._sight_targets(k)
                    cands = _candidates(u, d.options)
                    fast = hard._best_move(k, u, goal, holders, hard._threat_table(k, u), cands)
                    assert fast == _every_candidate(hard, k, u, goal, holders, cands), (scenario, n)
                    checked += 1
            g.apply(bots[d.side].choose(g, d))
            n += 1
    assert checked > 100


class _PerOptionWalk(HardAgent):
    """``_drive_to`` as it was: a walk per move option."""

    def _drive_to(self, k, d, u, gx, gy, stop):
        opts = d.options
        moves = [o for o in opts if o[0] == "move" and len(o) > 2]
        here_d = _ad(u.x, u.y, gx, gy)
        if not moves or here_d <= stop:
            return self._face(k, d, u) or (("end",) if ("end",) in opts else None)
        col = u.terrain_column
        field = self._field(k, col, gx, gy)
        bf = k.bf
        vp = u.profile.vehicle
        try:
            budget = die_sides(parse_die(vp.movement_die)) + 1.0
        except (TypeError, ValueError):
            budget = 10.0
        here = self._route_cost(field, u.x, u.y)
        here_val = -here - 2.0 * self._danger(k, u, u.x, u.y) if self.CAUTIOUS else -here
        best, bs = None, here_val + 0.5
        seen = set()
        for o in moves:
            vx, vy = DIR_VECTORS[o[1]]
            want = min(DISTANCES[o[2]], max(here_d - stop + 1.0, 1.0))
            px, py, spent, step = u.x, u.y, 0.0, 0.5
            travelled = 0.0
            while travelled + step <= want + 1e-9:
                nx, ny = px + vx * step, py + vy * step
                if not bf.on_table(nx, ny):
                    break
                c = bf.move_cost(nx, ny, col)
                if c is None or spent + c * step > budget:
                    break
                spent += c * step
                px, py = nx, ny
                travelled += step
            if travelled < 0.5:
                continue
            key = (round(px), round(py))
            if key in seen:
                continue
            seen.add(key)
            s = -self._route_cost(field, px, py)
            if self.CAUTIOUS:
                s -= 2.0 * self._danger(k, u, px, py)
            if s > bs:
                best, bs = o, s
        if best is not None:
            return best
        return self._face(k, d, u)


def test_a_vehicle_drives_as_with_a_walk_per_option():
    """Every vehicle action with moves in hard-against-hard games on armour: the same drive toward the vehicle's
    goal and toward each objective (the end game's)."""
    checked = 0
    old = _PerOptionWalk(seed=0)
    for seed in (1, 2):
        g = Game("armour", seed=seed)
        bots = [make_agent("hard", seed=1), make_agent("hard", seed=2)]
        old.reset(0)
        n = 0
        while not g.over and n < 500:
            d = g.decision()
            if d.kind == "action" and any(o[0] == "move" for o in d.options):
                k = Knowledge(g, d.side)
                u = k.units[d.unit]
                if u.profile.vehicle is not None:
                    hard = bots[d.side]
                    gx, gy, stop = hard._vehicle_goal(k, u)
                    goals = [(gx, gy, stop)] + [(ox, oy, 2.0) for _, ox, oy, _ in k.objectives]
                    for gx, gy, stop in goals:
                        assert hard._drive_to(k, d, u, gx, gy, stop) == old._drive_to(k, d, u, gx, gy, stop), (seed, n)
                        checked += 1
            g.apply(bots[d.side].choose(g, d))
            n += 1
    assert checked > 50


def test_route_fields_are_shared_on_a_static_table_only():
    """A copy of a game (a new game token) gets the field made on the same static table, equal to one made afresh;
    once a wreck lies on the table (dynamic terrain) the field is made on that table, not taken from the others."""
    g = Game("armour", seed=1)
    hard = make_agent("hard", seed=0)
    col = g.units[g.side_units[0][0]].terrain_column
    gx, gy = g.objectives[0][1], g.objectives[0][2]
    f1 = hard._field(Knowledge(g, 0), col, gx, gy)
    assert f1 == hard._make_field(g.bf, col, gx, gy)
    c = g.clone(log=False, reseed=5)
    assert hard._field(Knowledge(c, 0), col, gx, gy) is f1  # the same table: the same field
    w = g.clone(log=False, reseed=6)
    wx, wy = next((gx + 6.0 * math.sin(a / 8 * math.pi), gy + 6.0 * math.cos(a / 8 * math.pi)) for a in range(16)
                  if g.bf.move_cost(gx + 6.0 * math.sin(a / 8 * math.pi), gy + 6.0 * math.cos(a / 8 * math.pi), col) == 1)
    terrain.add(w, {"kind": "wreck", "shape": "circle", "x": wx, "y": wy, "r": 1.5})  # on open ground by the goal
    assert w.bf.dynamic and w.bf is not g.bf
    f2 = hard._field(Knowledge(w, 0), col, gx, gy)
    assert f2 is not f1 and f2 == hard._make_field(w.bf, col, gx, gy) and f2 != f1  # the wreck costs more to cross
    assert hard._field(Knowledge(g, 0), col, gx, gy) is f1  # the static table's own field again


def test_a_shot_score_is_kept_for_one_decision_only():
    """The memo of shot scores lives while ``hard`` decides; a copy of the game and the next decision start
    without it."""
    g = Game("skirmish", seed=1)
    hard = make_agent("hard", seed=0)
    seen = []
    orig = HardAgent._score_shot

    def spy(self, k, uid, opt):
        seen.append((id(k), uid, opt))
        return orig(self, k, uid, opt)

    HardAgent._score_shot = spy
    try:
        n = 0
        while not g.over and n < 80:
            d = g.decision()
            g.apply(hard.choose(g, d))
            assert hard._shot_memo is None
            n += 1
    finally:
        HardAgent._score_shot = orig
    assert seen and len(seen) == len(set(seen))  # each shot scored once per decision


def test_check_mode_runs():
    """``bench_mcts.py check --quick`` plays its games and prints one JSON line with a digest per game."""
    import bench_mcts

    out = io.StringIO()
    with redirect_stdout(out):
        assert bench_mcts.main(["check", "--quick"]) == 0
    r = json.loads(out.getvalue().strip().splitlines()[-1])
    assert r["complete"] and len(r["games"]) == len(bench_mcts.check_games(quick=True))
    assert all(len(x["digest"]) == 16 and x["decisions"] > 0 for x in r["games"])
    assert len(r["digest"]) == 16
