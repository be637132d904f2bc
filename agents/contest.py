"""The scripted bots' contest of an objective the enemy stands on (the Two Inch Rule and the leader's place): a mixin
that acts only when a unit is within a reorganise of such an objective, so other games play as before.

Who holds an objective is decided by where the units' *leaders* stand (within 3", no enemy leader there; the victory
rules' reading).  A unit walking up to an objective the enemy holds is stopped 2" from the enemy's figures (the Two
Inch Rule), and with its front rank ahead of its leader that is often more than 3" short: it can neither hold nor
contest it, and a building's occupants deep inside it cannot be seen, shot or assaulted.  The Reorganise Action's
placement (``("reorganise", "place")``, seed 000 "Reorganise Action": the leader moves up to 2", the figures take a
formation around it, every figure 2" from the enemy) puts the leader itself forward.

Doctrine:
- **When**: an unsuppressed infantry unit, Confident or Steady (a Shaken unit may not shift towards the enemy), not
  propped or hidden, with no unit of its side on the objective, stands more than 3" and at most 5" from an objective
  with a known enemy unit within 5" of it, and a 2" shift of its leader would end within 3" of the objective and 2"
  from every known enemy figure and marker: it reorganises (the most valuable such objective first).  When the
  shifts the rules offer do not reach it (an enemy figure the side does not know of), the leader takes the nearest
  and the unit does not try again from that spot.
- **How**: the shift that ends nearest the objective (of those the rules offer), then the formation that moves the
  fewest figures (``keep``, else ``compact``, ``line``, ``open``, ``file``).

Only the side's own knowledge is read (:class:`agents.knowledge.Knowledge`: its own units, the enemy units it knows
of and their figures, the table).
"""
from __future__ import annotations

import math

from dustup_env.rules.kernel.entities import KILLED, SHAKEN
from dustup_env.rules.unit_actions.move_action import DIR_VECTORS, DIRECTIONS

OBJ_R = 3.0  # an objective is held by the side with a unit's leader within 3" (and no enemy leader there)
SHIFT = 2.0  # the Reorganise Action moves the leader up to 2"
TWO_INCH = 2.05  # the Two Inch Rule, with a margin
FORMATIONS = ("keep", "compact", "line", "open", "file")


class ContestDoctrine:
    """Mixin: ``_contest_decide(k, d)`` returns the reorganise, shift or formation to take, or None."""

    CONTEST = True  # False: no contest by placement (A/B runs)
    _place_at = None  # (game token, uid, objective x, objective y) of the placement under way
    _contest_failed = None  # (game token, {(uid, x, y)}): placements that found no shift onto it

    def _contest_decide(self, k, d):
        if not self.CONTEST:
            return None
        if d.kind in ("place_leader", "place_formation"):
            return self._contest_place(k, d)
        if d.kind != "action" or d.unit < 0 or ("reorganise", "place") not in d.options:
            return None
        u = k.units[d.unit]
        if u.side != k.side or u.profile.vehicle is not None or u.veh.carrier >= 0 or u.suppression \
                or u.confidence >= SHAKEN or u.propped or u.hidden:
            return None  # (a Shaken unit may not shift towards the enemy; a propped or hidden leader may not shift)
        if self._contest_failed is not None and self._contest_failed[0] is k.game_token and \
                (u.uid, round(u.x, 2), round(u.y, 2)) in self._contest_failed[1]:
            return None  # tried from here and the rules offered no shift onto it
        enemy_figs = None
        for _, ox, oy, _ in sorted(k.objectives, key=lambda o: -o[3]):
            dd = math.hypot(ox - u.x, oy - u.y)
            if dd <= OBJ_R or dd > OBJ_R + SHIFT:
                continue
            if any(math.hypot(m.x - ox, m.y - oy) <= OBJ_R for m in k.own_units if m.in_play and m.uid != u.uid):
                continue  # a unit of the side is there already
            if not any(math.hypot(e.x - ox, e.y - oy) <= OBJ_R + SHIFT for e in k.enemy_units):
                continue  # nobody in the way: the unit walks there
            if enemy_figs is None:  # the known enemy figures and the enemy's markers (the Two Inch Rule's)
                enemy_figs = [(e.x + f.dx - e.figures[e.leader].dx, e.y + f.dy - e.figures[e.leader].dy)
                              for e in k.enemy_units for f in e.figures if f.status != KILLED]
                enemy_figs += [(m["x"], m["y"]) for m in k.markers if m["side"] != k.side and not m["removed"]]
            for dr in range(DIRECTIONS):
                vx, vy = DIR_VECTORS[dr]
                px, py = u.x + vx * SHIFT, u.y + vy * SHIFT
                if math.hypot(ox - px, oy - py) <= OBJ_R - 0.05 and k.bf.on_table(px, py) and \
                        all(math.hypot(fx - px, fy - py) >= TWO_INCH for fx, fy in enemy_figs):
                    self._place_at = (k.game_token, u.uid, ox, oy)
                    return ("reorganise", "place")
        return None

    def _contest_place(self, k, d):
        at = self._place_at
        if at is None or at[0] is not k.game_token or at[1] != d.unit:
            return None
        if d.kind == "place_formation":
            self._place_at = None
            for f in FORMATIONS:
                if ("formation", f) in d.options:
                    return ("formation", f)
            return None
        u = k.units[d.unit]
        _, _, ox, oy = at
        best, bd = ("stay",), math.hypot(ox - u.x, oy - u.y)
        for o in d.options:
            if o[0] == "shift":
                vx, vy = DIR_VECTORS[o[1]]
                dd = math.hypot(ox - u.x - vx * SHIFT, oy - u.y - vy * SHIFT)
                if dd < bd:
                    best, bd = o, dd
        if bd > OBJ_R:  # no shift the rules offer reaches it: not again from here
            if self._contest_failed is None or self._contest_failed[0] is not k.game_token:
                self._contest_failed = (k.game_token, set())
            self._contest_failed[1].add((u.uid, round(u.x, 2), round(u.y, 2)))
        return best if best in d.options else None
