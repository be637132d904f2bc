"""The scripted bots' buildings (seed 000 "Buildings and Fortifications", seed 004's building assault): a mixin that
acts only on the buildings' options and goals, so games without buildings play as before.

Doctrine:
- **Occupy** (:meth:`BuildingDoctrine._bd_goal`): an infantry unit whose objective has a standing building within
  :attr:`BD_NEAR` of it makes for the building's centre instead (cover, and the building's armour between it and
  the enemy), unless an enemy unit the side knows of holds it.
- **Assault** (``building_assault``): a unit assaults a building's known occupants when it has at least
  :attr:`BD_ASSAULT_EDGE` more able figures than they do, the weakest first.
- **Fortifications** (``fire_fortification``): a unit in a fortification fires its mounted weapons at the known
  enemy unit with the most able figures.
- **Heavy weapons at buildings** (``fire_building``): an infantry heavy weapon or rocket with no shot at any enemy
  unit fires at a building that known, unsuppressed enemy units hold and no own unit is in (the building's
  suppression reaches every occupant); the building itself, not its doors.  Vehicles keep to their own doctrine
  (moving and shooting): firing them at buildings lost games against ``random`` (measured, docs/agents.md).

Only the side's own knowledge is read (:class:`agents.knowledge.Knowledge`: the entities it may know, every building
being public; the enemy units not hidden).
"""
from __future__ import annotations

import math

from dustup_env.rules.kernel.terrain import inside_polygon

BD_OPTIONS = ("fire_building", "fire_fortification", "building_assault")
DIRECT = ("shoot", "fire_heavy", "fire_vehicle", "fire_slaved", "fire_pair")


def _inside(e: dict, x: float, y: float) -> bool:
    s = e.get("shape")
    return bool(s) and s.get("shape") == "polygon" and inside_polygon(s["points"], x - e["x"], y - e["y"])


def standing_buildings(k) -> list[dict]:
    """The buildings the side knows of that still stand (every building is public)."""
    return [e for e in k.known_entities() if e["kind"] == "building" and not e["state"].get("destroyed")]


class BuildingDoctrine:
    """Mixin: ``_bd_decide`` returns None when the decision has no building choice for it to make."""

    BUILDINGS = True  # False: the buildings' choices fall through to the rest of the doctrine (A/B runs)
    BD_NEAR = 8.0
    BD_ASSAULT_EDGE = 2

    def _bd_goal(self, k, u, goal):
        if not self.BUILDINGS or u.profile.vehicle is not None:
            return goal
        gx, gy = goal
        best, bd = None, self.BD_NEAR
        for e in standing_buildings(k):
            d = math.hypot(e["x"] - gx, e["y"] - gy)
            if d <= bd and not any(_inside(e, t.x, t.y) for t in k.enemy_units):
                best, bd = e, d
        return goal if best is None else (best["x"], best["y"])

    def _bd_decide(self, k, d):
        if not self.BUILDINGS or d.kind != "action":
            return None
        opts = [o for o in d.options if o[0] in BD_OPTIONS]
        if not opts:
            return None
        u = k.units[d.unit]
        assaults = [o for o in opts if o[0] == "building_assault"
                    and u.n_able() >= k.units[o[1]].n_able() + self.BD_ASSAULT_EDGE]
        if assaults:
            return min(assaults, key=lambda o: (k.units[o[1]].n_able(), o[1]))
        forts = [o for o in opts if o[0] == "fire_fortification"]
        if forts:
            return max(forts, key=lambda o: (k.units[o[1]].n_able(), -o[1], -o[2]))
        return self._bd_fire(k, d, u, [o for o in opts if o[0] == "fire_building" and o[2] == 0])

    def _bd_fire(self, k, d, u, opts):
        """An infantry heavy weapon or rocket (vehicles keep to their own doctrine: they move and shoot) with no shot
        at any enemy unit fires at the building that known, unsuppressed enemies hold and no own unit is in."""
        if not opts or u.profile.vehicle is not None or any(o[0] in DIRECT for o in d.options):
            return None
        by_ref = {e["ref"]: e for e in standing_buildings(k)}
        best, bs = None, 0
        for o in opts:
            e = by_ref.get(o[1])
            if e is None or any(_inside(e, m.x, m.y) for m in k.own_units if m.in_play):
                continue
            held = [t for t in k.enemy_units if _inside(e, t.x, t.y)]
            if not any(t.suppression == 0 for t in held):
                continue
            s = sum(t.n_able() for t in held)
            if s > bs:
                best, bs = o, s
        return best
