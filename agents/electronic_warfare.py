"""The scripted bots' electronic warfare and small drones (seed 000 "Additional Rules › Electronic Warfare",
"Drones"): a mixin that acts only on the EW and drone options, so games without them play as before.

Doctrine:
- **EW on**: an EW unit marks its system active whenever it is offered (it costs no action).
- **Listening** (``ew_watch``): an EW unit listens to an enemy activation that may roll key communications (a
  commander: an HQ, or a unit with subordinates known to the side) with two counters when it has them, or to any
  enemy activation while the side has hidden markers of its own (the enemy may detect them) with one.
- **Opposing** (``ew_oppose``): always, with one counter.
- **Remote spotting** (``ew_spot``): while the unit keeps a counter for listening, the enemy marker nearest to the
  side's units, one counter.
- **Drones**: a unit with drones, on its goal (within 3": flying one takes the operator's actions, which a unit on
  its way to its objective needs to get there; measured on ``night-raid``, docs/agents.md) and no known enemy in its
  sight launches one while enemy markers or no known enemy are left; a flying drone spots a marker it may (the
  nearest to the side's units first), else flies towards the nearest enemy marker; a unit with a good shot, with no
  enemy marker left, or off its goal, fights or moves on (the drone is lost).

Only the side's own knowledge is read (:class:`agents.knowledge.Knowledge`): its own units, the markers by
position, the enemy units it knows of, the table.
"""
from __future__ import annotations

import math

EW_OPTIONS = ("ew_on", "ew_spot", "ew_watch", "ew_oppose", "drone_launch", "drone_move", "drone_spot")


def _nearest_to(units, x, y) -> float:
    return min((math.hypot(u.x - x, u.y - y) for u in units if u.in_play), default=1e9)


class EWDoctrine:
    """Mixin: ``_ew_decide`` returns None when the decision has no EW or drone choice for it to make."""

    ELECTRONIC_WARFARE = True
    DRONES = True  # False: no drones (A/B runs)
    DRONE_IDLE = True  # False: drones flown wherever the unit is (the earlier doctrine)
    DRONE_GOAL_R = 3.0

    def _drone_idle(self, k, u) -> bool:
        """Whether the unit has nothing better to do with its actions than fly a drone: it is on its goal."""
        if not self.DRONE_IDLE:
            return True
        goal = getattr(self, "_goal", None)
        if goal is None:
            return True
        gx, gy = goal(k, u)
        return math.hypot(gx - u.x, gy - u.y) <= self.DRONE_GOAL_R

    def _ew_decide(self, k, d):
        if not self.ELECTRONIC_WARFARE:
            return None
        opts = d.options
        names = {o[0] for o in opts}
        if not names.intersection(EW_OPTIONS):
            return None
        if "ew_watch" in names:
            return self._ew_listen(k, d)
        if "ew_oppose" in names:
            best = [o for o in opts if o[0] == "ew_oppose" and o[2] == 1]
            return best[0] if best else ("decline",)
        if d.kind != "action":
            return None
        if ("ew_on",) in opts:
            return ("ew_on",)
        spot = self._ew_spot(k, opts)
        if spot is not None:
            return spot
        return self._drone(k, d) if self.DRONES else None

    def _ew_listen(self, k, d):
        enemy = k.units[d.unit] if d.unit >= 0 else None
        key = enemy is not None and (enemy.kind == "hq" or any(
            e.commander == enemy.uid for e in k.enemy_units))
        mine = any(m["side"] == k.side and not m["removed"] for m in k.markers)
        if not key and not mine:
            return ("decline",)
        want = 2 if key else 1
        listen = [o for o in d.options if o[0] == "ew_watch"]
        for n in (want, 1):
            for o in listen:
                if o[2] == n:
                    return o
        return ("decline",)

    @staticmethod
    def _ew_spot(k, opts):
        spots = [o for o in opts if o[0] == "ew_spot"]
        if not spots or max(o[2] for o in spots) < 2:
            return None  # keep the last counter for listening
        markers = {m["index"]: m for m in k.markers}
        own = k.own_units
        return min((o for o in spots if o[2] == 1),
                   key=lambda o: (_nearest_to(own, markers[o[1]]["x"], markers[o[1]]["y"]), o[1]), default=None)

    def _drone(self, k, d):
        opts = d.options
        u = k.units[d.unit]
        markers = [m for m in k.markers if m["side"] != k.side and not m["removed"]]
        sees_enemy = any(k.bf.has_los(u.x, u.y, e.x, e.y) for e in k.enemy_units)
        idle = self._drone_idle(k, u)
        if ("drone_launch",) in opts:
            if idle and not sees_enemy and (markers or not k.enemy_units) and not u.suppression:
                return ("drone_launch",)
            return None
        moves = [o for o in opts if o[0] == "drone_move"]
        spots = [o for o in opts if o[0] == "drone_spot"]
        if not moves and not spots or not idle:
            return None
        shot = getattr(self, "_best_shot", None)
        if sees_enemy and shot is not None and shot(k, d)[0] is not None:
            return None  # a good shot: the drone is lost
        if spots:
            by = {m["index"]: m for m in markers}
            own = k.own_units
            return min(spots, key=lambda o: (_nearest_to(own, by[o[1]]["x"], by[o[1]]["y"]), o[1]))
        if not markers:
            return None  # nothing left to find: the unit fights on (the drone is lost)
        tx, ty = min(((m["x"], m["y"]) for m in markers), key=lambda p: (_nearest_to(k.own_units, *p), p))
        return min(moves, key=lambda o: (math.hypot(o[1] - tx, o[2] - ty), o[1], o[2]))
