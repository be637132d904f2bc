"""The scripted bots' fire support (seed 000 "Indirect Fire", "On-Table Artillery Fire"): a mixin that acts only on
the fire-support options, so games without them play as before.

Doctrine:
- **Request** (an action, before the unit's other choices): a unit calls an asset when a known enemy unit that the
  requestor sees stands where a burst would catch at least :attr:`FS_MIN_FIGURES` of its figures (figures in the
  open count in full, in cover half: cover shifts their armour die), the aim point is clear of every own figure by
  the *request margin*, and the roll's odds are at least :attr:`FS_MIN_ODDS` (fire-support chits spent, fewest
  first, until they are).  Enemies already under one of the side's own missions are left to it.
- **Weights** (``hard``, :attr:`FireSupportDoctrine.FS_OUT_OF_SIGHT`): the figures of a unit holding an objective where no
  own unit sees it count more in the request and the placement (only the guns reach it).
- **Margin**: the burst radius, plus the scatter's likely distance (the observer's leadership, the highest roll
  that misses, times 4.5", the mean of the D8 multiplier), plus 6" for each turn of the delay (an on-table piece:
  one turn), the ground own troops may cover before the rounds come in.  At the impact the margin is the radius
  plus the scatter alone.
- **Markers**: the real marker on the offered point with the best score (the figures a burst there would catch),
  the dummies on the next best points (where a real one would plausibly go).
- **Due missions**: resolved at once, first thing in the turn, while the aim point is clear of own figures by the
  impact margin (the radius plus the requestor's likely scatter) and a known enemy is near it (or it is the last
  turn); otherwise a unit activates and the mission waits (the loiter box at the turn's end).
- **On-table pieces**: the firing unit of an on-table asset with missions to fire stays with its piece (it recovers,
  shoots or ends its activation).
- **Direct artillery**: a gun over open sights fires at the known enemy with the most able figures.

Only the side's own knowledge is read (:class:`agents.knowledge.Knowledge`): its own missions' real aim points, the
enemy units not hidden, the table; never the enemy's markers' truth.
"""
from __future__ import annotations

import math

FS_OPTIONS = ("request_fire", "fire_target", "fire_dummy", "fire_mission", "hold_mission", "fire_artillery")
DRIFT = 6.0  # inches own troops may cover in a turn of the delay
SCATTER_STEP = 4.5  # the mean of the D8 that multiplies a missed roll


def _figures(u):
    if not u.in_play:
        return []
    return [(u.x + f.dx, u.y + f.dy) for i, f in enumerate(u.figures) if i in set(u.able())]


class FireSupportDoctrine:
    """Mixin: ``_fs_decide`` returns None when the decision has no fire-support choice for it to make."""

    FIRE_SUPPORT = True  # False: the fire-support choices fall through to the rest of the doctrine (A/B runs)
    FS_MIN_ODDS = 0.35
    FS_MIN_FIGURES = 1.5
    FS_UNSEEN = False  # hard: also calls fire on known enemies it does not see that hold an objective (in buildings)
    FS_OUT_OF_SIGHT = 0.0  # hard: figures of a unit holding an objective out of every own unit's sight count this much more

    def _fs_weight(self, k, e) -> float:
        """What one figure of the known enemy unit ``e`` in a burst is worth (1: every figure alike).  With
        :attr:`FS_OUT_OF_SIGHT`, the figures of a unit that holds an objective where no own unit sees it (defenders deep
        in a building: no shot and no assault reaches them, only the guns do) count 1 + that much per victory point."""
        if not self.FS_OUT_OF_SIGHT:
            return 1.0
        vp = sum(v for _, ox, oy, v in k.objectives if math.hypot(e.x - ox, e.y - oy) <= 3.0)
        if not vp or any(k.bf.has_los(o.x, o.y, e.x, e.y) for o in k.own_units if o.in_play):
            return 1.0
        return 1.0 + self.FS_OUT_OF_SIGHT * vp

    @staticmethod
    def _holds(k, e) -> bool:
        """A known enemy unit within 3" of an objective (it holds or contests it)."""
        return any(math.hypot(e.x - ox, e.y - oy) <= 3.0 for _, ox, oy, _ in k.objectives)

    def _fs_decide(self, k, d):
        if not self.FIRE_SUPPORT:
            return None
        names = {o[0] for o in d.options}
        if not names.intersection(FS_OPTIONS):
            return self._fs_stay(k, d) if d.kind == "action" else None
        if d.kind == "activate":
            return self._fs_due(k, d)
        if d.kind in ("fire_target", "fire_dummy"):
            return self._fs_place(k, d)
        if d.kind == "action":
            if "fire_artillery" in names:
                return max((o for o in d.options if o[0] == "fire_artillery"),
                           key=lambda o: (k.units[o[1]].n_able(), -o[1]))
            if "request_fire" in names:
                r = self._fs_request(k, d)
                if r is not None:
                    return r
            return self._fs_stay(k, d)
        return None

    def _fs_stay(self, k, d):
        """The firing unit of an on-table asset with missions to fire stays with its piece: it recovers, shoots
        or ends its activation, never walks away from the piece."""
        fs = k.fire_support()
        if fs is None:
            return None
        busy = any(a["unit"] == d.unit and (a["left"] or any(m["asset"] == a["asset"] and m["state"] == "waiting"
                                                             for m in fs["missions"])) for a in fs["assets"])
        if not busy:
            return None
        if ("recover",) in d.options:
            return ("recover",)
        shot, _ = self._best_shot(k, d)
        if shot is not None:
            return shot
        return ("end",) if ("end",) in d.options else None

    # ------------------------------------------------------------------ geometry
    @staticmethod
    def _scatter(k, uid) -> float:
        u = k.units.get(uid)
        return SCATTER_STEP * (u.lv if u is not None else 4)

    @staticmethod
    def _own_clear(k, x, y, margin) -> bool:
        for u in k.own_units:
            for fx, fy in _figures(u):
                if math.hypot(fx - x, fy - y) <= margin:
                    return False
        return True

    def _caught(self, k, x, y, radius, seen_by=None) -> float:
        """The enemy figures a burst at (x, y) would catch: in the open 1, in cover 0.5 (units ``seen_by`` sees),
        times the unit's :meth:`_fs_weight`."""
        s = 0.0
        for e in k.enemy_units:
            if seen_by is not None and not k.bf.has_los(seen_by.x, seen_by.y, e.x, e.y):
                continue
            n = 0.0
            for fx, fy in _figures(e):
                if math.hypot(fx - x, fy - y) <= radius:
                    n += 0.5 if k.bf.in_cover(fx, fy) else 1.0
            if n:
                s += n * self._fs_weight(k, e)
        return s

    @staticmethod
    def _covered(fs, x, y) -> bool:
        """An own mission still to come already aims near (x, y)."""
        for m in fs["missions"]:
            if m["state"] in ("inbound", "due", "loiter", "waiting"):
                r = fs["assets"][m["asset"]]["radius"]
                if math.hypot(m["x"] - x, m["y"] - y) <= r + 2.0:
                    return True
        return False

    # ------------------------------------------------------------------ the request
    def _fs_request(self, k, d):
        fs = k.fire_support()
        u = k.units[d.unit]
        scatter = self._scatter(k, u.uid)
        best, bs = None, 0.0
        for o in d.options:
            if o[0] != "request_fire":
                continue
            a = fs["assets"][o[1]]
            p = k.request_odds(u.uid, o[1], o[2])
            if p < self.FS_MIN_ODDS:
                continue
            if o[2] and k.request_odds(u.uid, o[1], o[2] - 1) >= 0.6:
                continue  # no more chits than the odds need
            margin = a["radius"] + scatter + DRIFT * max(1, a["delay"])
            firer = k.units.get(a["unit"]) if a["unit"] is not None else None
            for e in k.enemy_units:
                if self._covered(fs, e.x, e.y):
                    continue
                if not k.bf.has_los(u.x, u.y, e.x, e.y) and not (self.FS_UNSEEN and self._holds(k, e)):
                    continue
                if firer is not None and math.hypot(e.x - firer.x, e.y - firer.y) < a["minimum"] + 1.0:
                    continue
                if not self._own_clear(k, e.x, e.y, margin):
                    continue
                caught = self._caught(k, e.x, e.y, a["radius"], seen_by=None if self.FS_UNSEEN else u)
                if caught < self.FS_MIN_FIGURES:
                    continue
                v = p * caught * a["rounds"] ** 0.5 - 0.01 * o[2]
                if v > bs:
                    best, bs = o, v
        if best is not None:
            self._fs_plan = (k.game_token, k.side, best[1], u.uid)
        return best

    def _fs_place(self, k, d):
        fs = k.fire_support()
        plan = getattr(self, "_fs_plan", None)
        a = fs["assets"][plan[2]] if plan and plan[0] is k.game_token and plan[1] == k.side else None
        radius = a["radius"] if a else 4.0
        margin = radius + self._scatter(k, d.unit) + (DRIFT * max(1, a["delay"]) if a else 0.0)
        u = k.units[d.unit]

        def score(o):
            x, y = o[1], o[2]
            s = self._caught(k, x, y, radius, seen_by=None if self.FS_UNSEEN else u)
            if not self._own_clear(k, x, y, margin):
                s -= 100.0
            return (s, -math.hypot(x - u.x, y - u.y) * 1e-3)
        return max(d.options, key=score)

    # ------------------------------------------------------------------ due missions
    def _fs_due(self, k, d):
        fire = [o for o in d.options if o[0] == "fire_mission"]
        if not fire:
            return None
        fs = k.fire_support()
        by_n = {m["n"]: m for m in fs["missions"]}
        for o in fire:
            m = by_n[fs["due"][o[1]]]
            a = fs["assets"][m["asset"]]
            margin = a["radius"] + self._scatter(k, m["requestor"])
            if not self._own_clear(k, m["x"], m["y"], margin):
                continue
            if k.turn >= k.turn_limit or self._caught(k, m["x"], m["y"], a["radius"] + 2.0) > 0:
                return o
        if any(o[0] == "activate" for o in d.options):
            return None  # a unit activates; the mission waits (unfired by the turn's end, it loiters)
        return next(o for o in d.options if o[0] == "hold_mission")
