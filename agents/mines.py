"""The scripted bots' mines and explosives (seed 000 "ADDITIONAL RULES › Mines and Explosives"): a mixin that acts
only where the side knows of a counter or is asked about one, so games without them play as before.

Doctrine:
- **Command-detonated mines**: the side is asked only when enemy models are in the mine's arc: it fires.
- **Known minefields are avoided**: a move whose line (from the unit to the nominated point, widened by 1" for the
  models around the leader) crosses a counter the unit would set off (infantry: AP and mixed, vehicles: AT and mixed;
  a vehicle also keeps 3" from a known IED) is dropped, unless nothing else is left, a lane is through that field,
  the unit is getting out of it, or it is the last two turns (then infantry rush).
- **When it must cross** (the line from the unit to its goal crosses such a field): a vehicle with a line charge
  fires it (both actions); infantry of at least three able models clear a lane with one of them, once per field
  (no lane there yet), but only when no move that keeps out of the known fields gets the unit 1" nearer its goal
  (the model walking the lane splits off as a one-model detachment: a unit the enemy scores a victory point for
  when it is lost, and one figure fewer in the squad; measured, clearing a lane whenever a field lay on the way
  lost games on ``breach``, docs/agents.md); a field with a complete lane is crossed by it.

Only the side's own knowledge is read (:meth:`agents.knowledge.Knowledge.entities`): its own counters and the enemy's
it has found; a counter it has not found is not there for it.
"""
from __future__ import annotations

import math
from dataclasses import replace

from dustup_env.rules.unit_actions.move_action import nominated_point

FIELD_R = 3.0
MARGIN = 1.0
LANE_W = 1.0
RUSH_TURNS = 2  # in the last two turns the infantry rush a known field rather than stop short of the goal


def _seg_dist(px, py, ax, ay, bx, by) -> float:
    dx, dy = bx - ax, by - ay
    dd = dx * dx + dy * dy
    t = 0.0 if dd < 1e-12 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / dd))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _danger(e: dict, vehicle: bool) -> float:
    """The radius within which a unit must not pass this counter (0: harmless to it, or unknown type)."""
    kind = e["kind"]
    if kind == "minefield":
        t = e["state"].get("type")
        if t in (("at", "mixed") if vehicle else ("ap", "mixed")):
            return FIELD_R + MARGIN
    elif kind == "ied" and vehicle:
        return FIELD_R + MARGIN
    return 0.0


def _complete_lane(e: dict) -> bool:
    """Whether a lane has been cleared right through the field."""
    return any(math.hypot(x1 - x0, y1 - y0) >= 2 * FIELD_R - 1e-6 for x0, y0, x1, y1 in e["state"].get("lanes", ()))


class MinesDoctrine:
    """Mixin: ``_mines_decide(k, d)`` returns (an option or None, the decision with its dangerous moves removed)."""

    MINES = True  # False: the mines choices fall through to the rest of the doctrine (A/B runs)
    CLEAR_LANES = True  # False: never clear a lane (A/B runs)
    LANE_ALWAYS = False  # True: a lane through every known field in the way, a way round or not (the earlier doctrine)

    def _lane(self, k, d, u, vehicle, blocking, by_ref):
        """A ``clear_lane`` option through a field in the unit's way that has no lane yet (None: none, or not a unit
        of three or more able infantry)."""
        able = u.n_able() if hasattr(u, "n_able") else 0
        if not self.CLEAR_LANES or vehicle or able < 3:
            return None
        for o in d.options:
            e = by_ref.get(o[1]) if o[0] == "clear_lane" else None
            if e is not None and e in blocking and not e["state"].get("lanes"):
                return o
        return None

    def _mines_goal(self, k, u):
        goal = getattr(self, "_goal", None)
        if goal is not None:
            try:
                return goal(k, u)
            except Exception:  # noqa: BLE001 - a goal the doctrine cannot give: the nearest objective
                pass
        objs = [(ox, oy) for _, ox, oy, _ in k.objectives] or [(k.bf.width / 2, k.bf.height / 2)]
        return min(objs, key=lambda p: math.hypot(p[0] - u.x, p[1] - u.y))

    def _mines_decide(self, k, d):
        if not self.MINES:
            return None, d
        if d.kind == "cdm":
            return (("cdm_fire",) if ("cdm_fire",) in d.options else None), d
        if d.kind != "action" or d.unit < 0:
            return None, d
        ents = [e for e in k.entities() if e["kind"] in ("minefield", "ied")]
        if not ents:
            return None, d
        u = k.units[d.unit]
        if u.side != k.side:
            return None, d
        vehicle = u.profile.vehicle is not None
        danger = [(e, r) for e in ents if (r := _danger(e, vehicle)) > 0.0]
        if not danger:
            return None, d
        gx, gy = self._mines_goal(k, u)
        blocking = [e for e, r in danger if e["kind"] == "minefield" and _seg_dist(e["x"], e["y"], u.x, u.y, gx, gy) < r]
        by_ref = {e["ref"]: e for e in ents}
        for o in d.options:
            if o[0] == "line_charge" and by_ref.get(o[1]) in blocking:
                return o, d
        if not vehicle and k.turn >= k.turn_limit - RUSH_TURNS + 1:
            return (self._lane(k, d, u, vehicle, blocking, by_ref) if self.LANE_ALWAYS else None), d  # rush
        kept = []
        moves = 0
        for o in d.options:
            if o[0] != "move":
                kept.append(o)
                continue
            moves += 1
            px, py = nominated_point(u, o[1], o[2])
            bad = False
            for e, r in danger:
                if _seg_dist(e["x"], e["y"], u.x, u.y, px, py) < r:
                    if e["kind"] == "minefield" and _complete_lane(e):
                        continue  # a lane is through: cross by it
                    if math.hypot(u.x - e["x"], u.y - e["y"]) < r and \
                            math.hypot(px - e["x"], py - e["y"]) > math.hypot(u.x - e["x"], u.y - e["y"]):
                        continue  # already in it: getting out is allowed
                    bad = True
                    break
            if not bad:
                kept.append(o)
        if blocking:  # a lane only when no move round the field gets the unit 1" nearer its goal
            here = math.hypot(gx - u.x, gy - u.y)
            progress = any(o[0] == "move" and math.hypot(gx - nominated_point(u, o[1], o[2])[0],
                                                         gy - nominated_point(u, o[1], o[2])[1]) < here - 1.0
                           for o in kept)
            if self.LANE_ALWAYS or not progress:
                lane = self._lane(k, d, u, vehicle, blocking, by_ref)
                if lane is not None:
                    return lane, d
        if moves and sum(1 for o in kept if o[0] == "move") == 0:
            return None, d  # every move crosses a field: the doctrine's own choice
        if len(kept) == len(d.options):
            return None, d
        return None, replace(d, options=tuple(kept))
