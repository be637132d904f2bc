"""The scripted bots' smoke (seed 000 "ADDITIONAL RULES" › Artificial Smoke, L1896): a mixin that acts only on the
smoke options (``lay_smoke``, ``discharge_smoke``), so games without them play as before.

Doctrine: a unit that must cross open ground under enemy sight lays smoke first.
- **Must cross open ground**: the points every 2" along the unit's best move towards its goal (the caller's choice)
  that lie in the open (no cover, no concealment);
- **under enemy sight**: a known enemy unit (not hidden) within :attr:`SMOKE_RANGE` of the unit sees such a point;
- **first**: once per unit per turn (the cloud goes at its next activation anyway, L1898), with the action before
  the move, so only with two actions left (``SMOKE_THEN_MOVE``: with the last action the smoke would take the place
  of the move it screens; on ``night-raid`` a squad that shot first then laid smoke every turn and never left its
  start line, docs/agents.md); the cloud chosen is the one that lies across the most of those lines of sight (a line to a point
  inside a cloud is only concealed, so those do not count); no option screens any: no smoke.
- a vehicle with smoke dischargers (6" to its front) is judged alike where the scripted flow reaches its move
  (vehicles mostly choose through agents/armour.py first).

Only the side's own knowledge is read (:class:`agents.knowledge.Knowledge`): its own units, the enemy units it
knows of, the table as both sides see it (smoke included).
"""
from __future__ import annotations

import math

from dustup_env.rules.unit_actions.move_action import nominated_point

SMOKE_OPTIONS = ("lay_smoke", "discharge_smoke")
CLOUD_R = 3.0  # a 6" cloud (L1896)
PATH_STEP = 2.0  # inches between the points of a move's path that are checked


def _dir_vector(d: int) -> tuple[float, float]:
    a = math.radians(22.5 * d)
    return math.sin(a), math.cos(a)


def _screens(cx: float, cy: float, ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether a 6" cloud at (cx, cy) lies across the line A-B with neither end inside it (a line from or to a
    point inside smoke is concealed, not blocked)."""
    if math.hypot(ax - cx, ay - cy) <= CLOUD_R or math.hypot(bx - cx, by - cy) <= CLOUD_R:
        return False
    dx, dy = bx - ax, by - ay
    dd = dx * dx + dy * dy
    if dd == 0:
        return False
    t = ((cx - ax) * dx + (cy - ay) * dy) / dd
    if t <= 0.05 or t >= 0.95:
        return False
    px, py = ax + t * dx - cx, ay + t * dy - cy
    return px * px + py * py <= CLOUD_R * CLOUD_R


class SmokeDoctrine:
    """Mixin: ``_smoke_decide(k, d, u, move)`` returns a smoke option to take before ``move``, or None."""

    SMOKE = True  # False: no smoke (A/B runs)
    SMOKE_RANGE = 30.0  # inches: an enemy farther off is not a threat worth screening
    SMOKE_THEN_MOVE = True  # False: smoke even with the activation's last action, in place of the move it screens
    _smoked = None  # (game token, turn, uid) of the units that laid smoke this turn

    def _smoke_decide(self, k, d, u, move):
        if not self.SMOKE or move is None or move[0] != "move":
            return None
        names = {o[0] for o in d.options}
        if not names.intersection(SMOKE_OPTIONS):
            return None
        if self.SMOKE_THEN_MOVE and getattr(k, "actions_left", 2) < 2:
            return None  # the last action: the smoke would take the move's place, and the unit would not move at all
        key = (k.game_token, k.turn, u.uid)
        if self._smoked is not None and key in self._smoked:
            return None
        px, py = nominated_point(u, move[1], move[2])
        bf = k.bf
        length = math.hypot(px - u.x, py - u.y)
        steps = max(1, int(length / PATH_STEP))
        path = [(u.x + (px - u.x) * i / steps, u.y + (py - u.y) * i / steps) for i in range(1, steps + 1)]
        path = [p for p in path if not bf.in_cover(*p)]  # the open ground the move crosses
        near = [e for e in k.enemy_units if math.hypot(e.x - u.x, e.y - u.y) <= self.SMOKE_RANGE]
        exposed = [(e, p) for e in near for p in path if bf.sight(e.x, e.y, p[0], p[1]).visible]
        if not exposed:
            return None
        best, best_n = None, 0
        for o in d.options:
            if o[0] == "lay_smoke":
                vx, vy = _dir_vector(o[1])
                cx, cy = u.x + vx * o[2], u.y + vy * o[2]
            elif o[0] == "discharge_smoke":
                a = math.radians(u.veh.facing)
                cx, cy = u.x + math.sin(a) * 6.0, u.y + math.cos(a) * 6.0
            else:
                continue
            n = sum(1 for e, p in exposed if _screens(cx, cy, e.x, e.y, p[0], p[1]))
            if n > best_n:
                best, best_n = o, n
        if best is not None:
            if self._smoked is None or next(iter(self._smoked), (None,))[0] is not k.game_token:
                self._smoked = set()
            self._smoked.add(key)
        return best
