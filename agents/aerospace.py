"""The scripted bots' aircraft and anti-aircraft fire (seed 000 "Aerospace Operations"): a mixin that acts only on
the aerospace decisions, so games without aircraft play as before.

Doctrine:
- **Arriving**: an aircraft carrying troops comes in to the table at once; one without passengers (a strike
  aircraft) comes in while a known enemy stands where its bombs or guns would catch figures in the open, else it
  holds (the last turn aside).  From box one it goes straight to the table (the ADE is met either way).  An
  acquired pilot always continues through the ADE: aborting loses the aircraft and its passengers as surely as
  being shot down, and the engagement's odds are below one.
- **Order**: while an enemy anti-aircraft unit that can reach the table has not fired this turn, a strike aircraft
  flies before the loaded transports (its flight draws the reaction fire that would otherwise meet them).
- **Transports**: the landing zone is the point of the table's point grid nearest the troops' objective whose
  landing zone is not heavily obstructed by what the side knows (clear ground preferred to light), at least
  :attr:`LZ_STANDOFF` inches from every known enemy figure and marker, out of the sight of known enemy units where it
  can be (:attr:`LZ_SEEN` inches of the walk for each that sees it from :attr:`LZ_SIGHT` or nearer); the aircraft
  flies there (the legal move nearest it) and lands as its next action (landed and suppressed, it recovers first:
  troops cannot leave a suppressed vehicle); the troops dismount (from a hover that cannot land they fast-rope), and
  the empty aircraft takes off and fights with its guns from the air, where only anti-aircraft fire reaches it.
- **Strike aircraft**: each activation flies so that its bombs (D6" straight ahead, a 4" burst) or its fixed guns
  (the 6" corridor, at least 24" ahead) catch the most enemy figures in the open, clear of every own figure, and
  drops or fires as its other action; with nothing worth it, it fires at the best target its weapons reach.  A
  damaged aircraft without passengers leaves for the loiter box.
- **Home for the last turns** (off in the ladder, :attr:`AerospaceDoctrine.AIR_HOME`): an aircraft without passengers
  leaves for the loiter box and stays there (not lost for the victory count there).
- **Under anti-aircraft fire** the pilot evades (the enemy must acquire it again), unless the evasion would carry a
  loaded transport off the table in the last two turns (then it continues); never aborts.
- **Anti-aircraft fire**: a team with an anti-aircraft weapon holds its ground with the weapon set up, and fires at every aircraft flying in its reach (the
  reaction); as an action it fires at a hovering aircraft, or at any aircraft in the air when no enemy aircraft
  in the air is left to fly this turn (so the reaction is kept for the flights to come).

Only the side's knowledge is read (:class:`agents.knowledge.Knowledge`): its own aircraft's state, the enemy
aircraft on the table, the table; never who rides in an enemy aircraft.
"""
from __future__ import annotations

import math

AIR_DECISIONS = ("air_abort", "air_pilot", "anti_aircraft")
BOMB_ROLLS = (1, 2, 3, 4, 5, 6)


def _d(ax, ay, bx, by) -> float:
    return math.hypot(ax - bx, ay - by)


def _bearing(x0, y0, x1, y1) -> float:
    return math.degrees(math.atan2(x1 - x0, y1 - y0)) % 360.0


def _figs(u):
    if not u.in_play or u.veh.carrier >= 0:
        return []
    able = set(u.able())
    return [(u.x + f.dx, u.y + f.dy) for i, f in enumerate(u.figures) if i in able]


class AerospaceDoctrine:
    """Mixin: ``_air_decide`` returns None when the decision has no aerospace choice for it to make."""

    AIR = True  # False: the aerospace choices fall through to the rest of the doctrine (A/B runs)
    LZ_STANDOFF = 10.0  # a landing zone keeps this far from every known enemy figure
    LZ_SIGHT = 30.0  # a known enemy unit that sees a landing zone from this near may fire on the landed aircraft
    LZ_SEEN = 4.0  # inches of the troops' walk a landing zone out of each such enemy's sight is worth
    STRIKE_MIN = 1.0  # a strike is worth flying for when it catches this many figures in the open
    OWN_MARGIN = 2.0  # bombs fall this far beyond their burst from every own figure
    AIR_HOME = 0  # an aircraft without passengers leaves for the loiter box in the last AIR_HOME turns (0: never)

    # ------------------------------------------------------------------ the gate
    def _air_decide(self, k, d):
        if not self.AIR:
            return None
        if d.kind == "air_abort":
            return ("air_pilot", "continue")
        if d.kind == "air_pilot":
            return self._air_pilot(k, d)
        if d.kind == "anti_aircraft":
            return ("aa_fire",) if ("aa_fire",) in d.options else None
        if d.kind == "activate":
            return self._air_activate(k, d)
        if d.kind != "action":
            return None
        u = k.units[d.unit]
        st = k.aircraft(u.uid)
        if st is not None:
            return self._air_action(k, d, u, st)
        if u.veh.carrier >= 0 and k.aircraft(u.veh.carrier) is not None:
            return self._air_passenger(k, d, u)
        if any(o[0] == "aa_fire_at" for o in d.options):
            return self._aa_action(k, d, u)
        if u.profile.vehicle is None and k.has_aircraft() and k.aa_reach(u.uid) is not None:  # (cheapest test first)
            return self._aa_hold(k, d, u)
        return None

    def _aa_hold(self, k, d, u):
        """An anti-aircraft team holds its ground, its weapon set up (its reach covers the aircraft's approaches):
        it sets up, recovers, shoots with its small arms, or props."""
        opts = d.options
        for o in (("reorganise", "set_up"), ("reorganise", "repair"), ("reorganise", "leader"), ("recover",)):
            if o in opts:
                return o
        shot, _ = self._best_shot(k, d)
        if shot is not None:
            return shot
        return ("prop",) if ("prop",) in opts else ("end",) if ("end",) in opts else None

    # ------------------------------------------------------------------ activations
    def _air_activate(self, k, d):
        arrivals = [o for o in d.options if o[0] == "air_arrive"]
        if arrivals:
            uid = arrivals[0][1]
            v = k.units[uid]
            if v.veh.passengers or (not self._air_home(k, v) and (k.turn >= k.turn_limit or self._strike_targets(k, v))):
                return ("air_arrive", uid, "table")
            return ("air_arrive", uid, "hold")
        if not k.has_aircraft():
            return None  # (no aircraft: none is loaded and airborne, the answer below)
        # a strike aircraft draws the enemy's reaction fire before the loaded transports fly
        unfired = [e for e in k.enemy_units if k.aa_reach(e.uid) is not None and not k.aa_fired(e.uid)]
        if not unfired:
            return None
        acts = [o for o in d.options if o[0] == "activate" and len(o) > 1]
        loaded = [o for o in acts if k.units[o[1]].veh.passengers and self._airborne(k, k.units[o[1]])]
        if not loaded:
            return None
        for o in acts:
            v = k.units[o[1]]
            if not v.veh.passengers and self._airborne(k, v) and v.profile.vehicle.weapons:
                return o
        return None

    @staticmethod
    def _airborne(k, v) -> bool:
        a = k.aircraft(v.uid)
        return a is not None and a["mode"] in ("airborne", "hovering") and v.in_play

    # ------------------------------------------------------------------ the pilot
    def _air_pilot(self, k, d):
        v = k.units[d.unit]
        opts = d.options
        if ("air_pilot", "evade") not in opts:
            return ("air_pilot", "continue") if ("air_pilot", "continue") in opts else None
        if v.veh.passengers and k.turn >= k.turn_limit - 1:
            ev = k.air_geometry()["evade"]
            h = math.radians(v.veh.facing)
            x, y = v.x + ev * math.sin(h), v.y + ev * math.cos(h)
            if not (0.0 <= x <= k.bf.width and 0.0 <= y <= k.bf.height):
                return ("air_pilot", "continue")
        return ("air_pilot", "evade")

    # ------------------------------------------------------------------ anti-aircraft fire as an action
    def _aa_action(self, k, d, u):
        shots = [o for o in d.options if o[0] == "aa_fire_at"]
        to_fly = any(self._airborne(k, e) and not e.activated for e in k.enemy_units if k.aircraft(e.uid))

        def value(o):
            t = k.units[o[1]]
            a = k.aircraft(t.uid)
            hover = a is not None and a["mode"] == "hovering"
            return (hover, t.profile.vehicle.transport_figures > 0, -t.uid)
        best = max(shots, key=value)
        if value(best)[0] or not to_fly:
            return best
        # keep the reaction for the flights to come: a shot of the team's small arms, or hold
        rest = [o for o in d.options if o[0] != "aa_fire_at"]
        shot, _ = self._best_shot(k, type(d)(d.side, d.kind, d.unit, tuple(rest)))
        if shot is not None:
            return shot
        return ("prop",) if ("prop",) in rest else ("end",) if ("end",) in rest else None

    # ------------------------------------------------------------------ passengers
    def _air_passenger(self, k, d, u):
        opts = d.options
        v = k.units[u.veh.carrier]
        a = k.aircraft(v.uid)
        dis = [o for o in opts if o[0] == "dismount"]
        if a["mode"] == "grounded" and dis:
            return self._best_exit(k, u, v, dis)
        drops = [o for o in opts if o[0] == "air_drop"]
        if drops and a["mode"] == "hovering":
            lz = self._landing_zone(k, v)
            if lz is None or _d(v.x, v.y, lz[0], lz[1]) <= 3.0 or k.turn >= k.turn_limit - 1:
                return self._best_exit(k, u, v, drops)
        return ("end",) if ("end",) in opts else None

    def _best_exit(self, k, u, v, opts):
        """The side of the aircraft the troops leave on: nearest their objective, in cover if it can be."""
        gx, gy = self._goal(k, u)
        best, bs = None, -1e9
        for o in opts:
            p = k.dismount_point(u.uid, o[-1])
            if p is None:
                continue
            s = -_d(p[0], p[1], gx, gy) + (2.0 if k.bf.in_cover(p[0], p[1]) else 0.0)
            if o[0] == "air_drop" and o[1] != "rope":
                s += 1.0  # grav packs: one action
            if s > bs:
                best, bs = o, s
        return best

    # ------------------------------------------------------------------ aircraft on the table
    def _air_action(self, k, d, u, st):
        opts = d.options
        if len(opts) == 1:
            return opts[0]
        if st["mode"] == "grounded":
            if u.veh.passengers:
                if u.suppression and ("recover",) in opts:
                    return ("recover",)  # troops cannot get out of a suppressed vehicle
                fire, _ = self._best_fire(k, d, u)
                return fire or (("end",) if ("end",) in opts else None)
            if ("air_take_off",) in opts:
                return ("air_take_off",)
            fire, _ = self._best_fire(k, d, u)
            return fire or (("end",) if ("end",) in opts else None)
        if ("recover",) in opts and not any(o[0] in ("air_fly", "air_leave") for o in opts):
            return ("recover",)
        if u.veh.passengers:
            return self._transport(k, d, u, st)
        if u.veh.damage and ("air_leave", "loiter") in opts:
            return ("air_leave", "loiter")
        if ("air_leave", "loiter") in opts and self._air_home(k, u):
            return ("air_leave", "loiter")
        return self._strike(k, d, u, st)

    def _air_home(self, k, u) -> bool:
        """An aircraft without passengers that should be off the table: in the last :attr:`AIR_HOME` turns (in the
        loiter box it is not lost for the victory count; over the table anti-aircraft fire may still shoot it down)."""
        return bool(self.AIR_HOME) and k.turn > k.turn_limit - self.AIR_HOME

    # --- transports
    def _landing_zone(self, k, v):
        """The landing zone for ``v``'s troops (None: no point will do)."""
        p = k.units[v.veh.passengers[0]]
        gx, gy = self._goal(k, p)
        enemies = [xy for e in k.enemy_units for xy in _figs(e)] + [(m["x"], m["y"]) for m in k.markers
                                                                     if m["side"] != k.side and not m["removed"]]
        best, bs = None, -1e9
        for x, y in self._grid(k):
            lz = k.landing_zone(v.uid, x, y)
            if lz == "heavy":
                continue
            near = min((_d(x, y, ex, ey) for ex, ey in enemies), default=99.0)
            seen = sum(1 for e in k.enemy_units if not self._airborne(k, e) and _d(x, y, e.x, e.y) <= self.LZ_SIGHT
                       and k.bf.has_los(e.x, e.y, x, y))
            s = -_d(x, y, gx, gy) - (8.0 if lz == "light" else 0.0) - 3.0 * max(0.0, self.LZ_STANDOFF - near) \
                - self.LZ_SEEN * seen
            if s > bs:
                best, bs = (x, y), s
        return best

    @staticmethod
    def _grid(k):
        from dustup_env.rules.kernel.measurement import grid_points
        return grid_points(k.bf.width, k.bf.height)

    def _transport(self, k, d, u, st):
        opts = d.options
        lz = self._landing_zone(k, u)
        if lz is not None and _d(u.x, u.y, lz[0], lz[1]) <= 1.0:
            if ("air_land",) in opts:
                return ("air_land",)
            if st["mode"] != "hovering":
                hov = [o for o in opts if o[0] == "air_hover"]
                if hov:
                    return hov[0] if not hov else min(hov, key=lambda o: o[1])
            return ("end",) if ("end",) in opts else None
        flies = [o for o in opts if o[0] == "air_fly"]
        if lz is not None and flies:
            return min(flies, key=lambda o: (_d(o[1], o[2], lz[0], lz[1]), o))
        if ("air_land",) in opts:
            return ("air_land",)
        return ("end",) if ("end",) in opts else opts[0]

    # --- strike aircraft
    def _strike_targets(self, k, v) -> float:
        """The best enemy figures in the open any strike of ``v`` could catch from anywhere (a quick test)."""
        best = 0.0
        for e in k.enemy_units:
            if k.aircraft(e.uid) is not None and self._airborne(k, e):
                continue
            n = sum(0.5 if k.bf.in_cover(x, y) else 1.0 for x, y in _figs(e))
            best = max(best, n)
        return best if best >= self.STRIKE_MIN else 0.0

    def _air_caught(self, k, x, y, r) -> float:
        """Enemy figures in a burst at (x, y), those in cover half (not named ``_caught``: the fire-support doctrine's
        method of that name came first in the bots' method order and was called in its place)."""
        s = 0.0
        for e in k.enemy_units:
            if self._airborne(k, e):
                continue  # above the blast
            for fx, fy in _figs(e):
                if _d(fx, fy, x, y) <= r:
                    s += 0.5 if k.bf.in_cover(fx, fy) else 1.0
        return s

    def _own_near(self, k, x, y, r) -> bool:
        for o in k.own_units:
            if self._airborne(k, o):
                continue  # above the blast
            for fx, fy in _figs(o):
                if _d(fx, fy, x, y) <= r:
                    return True
        return False

    def _bomb_value(self, k, x, y, facing) -> float:
        g = k.air_geometry()
        h = math.radians(facing)
        r = g["bomb_radius"]
        s = 0.0
        for ahead in BOMB_ROLLS:
            bx, by = x + ahead * math.sin(h), y + ahead * math.cos(h)
            if self._own_near(k, bx, by, r + self.OWN_MARGIN):
                return -1.0
            s += self._air_caught(k, bx, by, r)
        return s / len(BOMB_ROLLS)

    def _strafe_value(self, k, u, x, y, facing) -> float:
        """Enemy figures in the corridor of ``u``'s fixed guns from (x, y) facing ``facing`` (cover halves)."""
        fixed = [w for w in u.profile.vehicle.weapons if w.mount == "fixed" and w.category != "guided"]
        if not fixed:
            return 0.0
        g = k.air_geometry()
        least = g["fixed_min_fast"] if (k.aircraft(u.uid) or {}).get("kind") == "aerospace" else g["fixed_min_vtol"]
        reach = max(float(w.effective_range or 48) for w in fixed)
        h = math.radians(facing)
        best = 0.0
        for e in k.enemy_units:
            if self._airborne(k, e) or e.profile.vehicle is not None and not e.profile.vehicle.soft_skinned:
                continue
            dx, dy = e.x - x, e.y - y
            ahead = dx * math.sin(h) + dy * math.cos(h)
            across = abs(dx * math.cos(h) - dy * math.sin(h))
            if least <= ahead <= reach and across <= g["corridor"] / 2.0:
                best = max(best, sum(0.5 if k.bf.in_cover(fx, fy) else 1.0 for fx, fy in _figs(e)))
        return best

    def _strike(self, k, d, u, st):
        opts = d.options
        bombs = [o for o in opts if o[0] == "air_bomb"]
        if bombs and self._bomb_value(k, u.x, u.y, u.veh.facing) >= self.STRIKE_MIN:
            return ("air_bomb", "one")
        fire, fs = self._best_fire(k, d, u)
        flies = [o for o in opts if o[0] == "air_fly"]
        if flies and st["bombs"] and not st["flown"]:  # a bombing run first: fly to drop as the other action
            run = max(flies, key=lambda o: (self._bomb_value(k, o[1], o[2], _bearing(u.x, u.y, o[1], o[2])), o))
            if self._bomb_value(k, run[1], run[2], _bearing(u.x, u.y, run[1], run[2])) >= self.STRIKE_MIN:
                return run
        if fire is not None and (st["flown"] or not flies or fs > 0.3):
            return fire
        if flies and not st["flown"]:
            def value(o):
                f = _bearing(u.x, u.y, o[1], o[2])
                b = self._bomb_value(k, o[1], o[2], f) if st["bombs"] else 0.0
                return max(b * 1.5, self._strafe_value(k, u, o[1], o[2], f))
            best = max(flies, key=lambda o: (value(o), o))
            if value(best) >= self.STRIKE_MIN:
                return best
        if fire is not None:
            return fire
        if flies and st["kind"] == "aerospace":  # it must move: over the table, with room for the next move
            return max(flies, key=lambda o: (min(o[1], k.bf.width - o[1], o[2], k.bf.height - o[2], 12.0), o))
        if st["mode"] != "hovering" and st["kind"] != "aerospace":
            e = self._nearest_enemy(k, u.x, u.y)
            if e is not None:
                dirn = int(round(_bearing(u.x, u.y, e[0].x, e[0].y) / 22.5)) % 16
                if ("air_hover", dirn) in opts:
                    return ("air_hover", dirn)
        if ("end",) in opts:
            return ("end",)
        return flies[0] if flies else (("air_leave", "loiter") if ("air_leave", "loiter") in opts else None)
