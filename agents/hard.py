"""The ``hard`` ladder bot: medium's expected-value shooting plus command, focused fire and positions.

Doctrine (every part measured in paired games against the version without it, docs/agents.md):

- Command (:class:`CommandMixin`): the platoon HQ activates first and spends both its actions
  ordering subordinates -- an ordered activation is two extra actions (a suppressed squad recovers,
  a squad with a target fires a second time in the turn, a squad short of its objective moves).  It
  rallies only routed units (which would otherwise run off the table and give a victory point).
  The HQ itself stays back, in cover and out of the enemy's sight where it can.
- Objectives: the squads are shared out over the objectives by the cheapest assignment (distance
  less value); in the last two turns a unit that alone holds or contests an objective stays on it,
  and the others go for the nearest objective the side does not hold.
- Fire: expected casualties and suppression (the exact per-target-roll model of the ``scripted``
  bot) weighted by the target: the last figures of a unit (a destroyed unit is a victory point),
  commanders, units on objectives, unsuppressed units and above all those that have not yet
  activated this turn (suppress, then manoeuvre).
- Movement: each candidate point is scored for progress to the objective, holding it, cover, and the
  exposure to the visible enemy's fire there (line of sight, range, concealment, cover, armour,
  suppressed shooters discounted).  The point scored is where the walk would stop (``Knowledge.move_end``:
  impassable ground, the table's edge, 2" from the enemy figures and markers the side knows of), and a
  move that would not advance at all is never chosen.  Units hold and prop in cover or on the objective.
- No close assaults (every assault rule tried lost against the same bot without assaults), except with fire support
  in play: assaults on beaten enemies, which the guns make (``FS_ASSAULTS``).
- Objectives held out of every line of sight (a holder deep in a building or a wood: no shot, no assault, and the walk
  stops 2" from its figures): with fire support its guns go there first (agents/fire_support.py ``FS_OUT_OF_SIGHT``);
  without, no squad is assigned or sent there (``SKIP_HIDDEN``) unless open ground within 3" of it lies 2" from the
  holder's figures, where the contest (agents/contest.py) can put a leader (``SKIP_CONTESTABLE``).
- Denying the contest (``DENY``): a unit holding an objective reorganises, its leader staying, into the formation whose
  figures leave an enemy leader least ground within 3" of it and 2" from the side's figures (the Two Inch Rule).

Deterministic (no randomness); it decides only from what its side may know
(:class:`agents.knowledge.Knowledge`) through the legal-option API and read-only previews (``fire_plan``,
positions, line of sight).
"""
from __future__ import annotations

import itertools
import math

from dustup_env.rules.kernel.data import armoury
from dustup_env.rules.kernel.dice import D4, D6, D8, D12
from dustup_env.rules.kernel.entities import BROKEN, KILLED, OK, ROUTED
from dustup_env.rules.unit_actions.move_action import DIR_VECTORS, DISTANCES
from dustup_env.rules.unit_actions.reorganise_placement import FORMATIONS, formation_offsets
from dustup_env.rules.unit_actions.shoot_action import SHORT_RANGE, armour_die, small_arms_die

from .scripted import ScriptedAgent, shot_value

_WEAPONS, _ARMOURS = armoury()
OBJ_R = 3.0  # objective radius (rules/kernel/game.py OBJECTIVE_RADIUS)
HOLD_R = 2.5  # aim a little inside it
MEAN_MOVE = 7.0  # 2 x D6 movement points on average
SIGHT_RANGE = 24.0  # a firing position on the defenders of an objective is this near them
NO_PROGRESS = 0.5  # a move that would take the leader less than this (one step of the walk) is not tried


def _d(ax, ay, bx, by) -> float:
    return math.hypot(ax - bx, ay - by)


def _unit_guns(u):
    """(quality, firepower dice, impact, range) of a unit firing every able figure's weapon."""
    sa_fp = 0.0
    sup = []
    impact_sa = impact_sup = None
    rng = 0.0
    for f in u.figures:
        if f.status != OK:
            continue
        w = _WEAPONS.get(f.weapon)
        if w is None:
            continue
        if w.cls == "small_arms":
            if w.max_range and w.max_range <= SHORT_RANGE:
                continue  # pistols: close range only
            sa_fp += w.fp
            impact_sa = w.impact if impact_sa is None else min(impact_sa, w.impact)
        elif w.cls == "support":
            sup.append(w.fp_die)
            impact_sup = w.impact if impact_sup is None else min(impact_sup, w.impact)
        else:
            continue
        rng = max(rng, w.max_range or 1e9)
    fp = []
    sd = small_arms_die(sa_fp)
    if sd is not None:
        fp.append(sd)
    fp.extend(sup)
    impact = impact_sa if impact_sa is not None else (impact_sup if impact_sup is not None else D6)
    return u.quality, tuple(fp), impact, rng


def _nearest_visible(k, v, limit):
    """Distance to the nearest visible enemy unit within ``limit`` inches of ``v`` (None: none)."""
    near = None
    for e in k.enemy_units:
        dd = _d(e.x, e.y, v.x, v.y)
        if dd <= limit and (near is None or dd < near) and k.bf.has_los(v.x, v.y, e.x, e.y):
            near = dd
    return near


class CommandMixin:
    """Commanders order every activation (the subordinate that gains most) and rally routed units.

    Measured against ``medium``'s command (orders only to squads with an enemy in sight, rallies of
    shaken units): 0.68 on its own over 400 paired games."""

    RALLY_AT = ROUTED  # rally only routed units: 0.54 against rallying broken ones, 0.57 against shaken ones

    def _command(self, k, d):
        units = k.units
        best, bs = None, 0.0
        for o in d.options:
            if o[0] == "rally" and len(o) > 1:
                v = units[o[1]]
                if v.confidence >= self.RALLY_AT and 3.0 + v.confidence > bs:
                    best, bs = o, 3.0 + v.confidence
        if best is not None:
            return best
        for o in d.options:
            if o[0] != "order" or len(o) < 2:
                continue
            v = units[o[1]]
            if v.leader_lost or v.confidence >= BROKEN or v.panicked:
                continue
            s = self._order_value(k, v)
            if s > bs:
                best, bs = o, s
        return best

    def _order_value(self, k, v) -> float:
        """What two more actions are worth to ``v``: recovering, firing again, or moving on."""
        s = 0.5
        if v.suppression:
            s += 1.0 + 0.3 * v.suppression
        else:
            near = _nearest_visible(k, v, 36.0)
            if near is not None:
                s += 1.0 + (36.0 - near) / 36.0
            elif v.kind != "hq":
                gx, gy = self._goal(k, v)
                if _d(v.x, v.y, gx, gy) > HOLD_R:
                    s += 0.6
        if v.kind == "hq":
            s -= 0.4
        return s

    def _hq_first(self, k, d):
        """The HQ activates first (its orders act before the enemy does): 0.55 against medium's order."""
        for o in d.options:
            if o[0] == "activate" and len(o) > 1 and k.units[o[1]].kind == "hq":
                return o
        return None


class HardAgent(CommandMixin, ScriptedAgent):
    name = "hard"

    # Switches of the measured A/B variants (docs/agents.md); the ladder's ``hard`` is the defaults.
    ORDERS = True  # CommandMixin's orders and rallies (False: medium's)
    HQ_FIRST = True
    ASSIGN = True  # cheapest objective assignment (False: medium's greedy one)
    FOCUS = True  # target weights
    POSITION = True  # scored movement (False: medium's cover-to-cover advance)
    REACH = True  # moves scored where the walk would stop (known enemy figures and markers, impassable ground);
    #               False: at the nominated point, so a unit 2-4" from the enemy kept choosing moves that go nowhere
    ENDGAME = True
    HQ_HIDE = True
    FS_UNSEEN = True  # fire support on known enemies holding objectives, seen or not (agents/fire_support.py)
    FO_FORWARD = True  # with fire support, a forward observer's HQ advances with the squads instead of hiding
    FS_OUT_OF_SIGHT = 2.0  # fire support first on defenders of objectives that no own unit sees (agents/fire_support.py)
    ASSAULTS = False  # assaults on beaten enemies: 0.47 against none (600 paired games)
    FS_ASSAULTS = True  # with fire support in play, assaults on beaten enemies (the guns beat the defenders)
    AIR_HOME = 0  # 1: aircraft without passengers go to the loiter box for the last turn (agents/aerospace.py):
    #               0.482 ± 0.014 against without (200 paired games on air-assault: their guns' last shots are worth more)
    CAUTIOUS = True  # vehicles keep out of enemy rocket range and face enemy vehicles (agents/armour.py)
    VEHICLE_ENDGAME = True  # vehicles drive onto objectives in the last two turns (agents/armour.py)
    TANK_SHOCK = True  # vehicles tank-shock infantry when the odds pay (agents/armour.py)
    TREAT = False  # treating the wounded costs an action and kills one in three: 0.49 against not treating
    LAST_SECOND = False  # going second in the last turn: 0.49

    W_SUP_THREAT = 0.3  # exposure: weight of P(suppressed), P(casualties) at a point
    W_CAS_THREAT = 0.5
    W_PROGRESS = 0.5  # per inch nearer the objective
    W_COVER = 0.5
    W_HOLD = 3.0  # within the objective's radius
    PROMOTE_AA = False  # an anti-aircraft team is promoted when the HQ loses its commander (it then spends its actions
    #                     taking command instead of firing at aircraft: +0.03 against True as Red on air-assault)
    SKIP_HIDDEN = True  # without fire support, no squad is assigned (nor sent at the end) an objective held out of all sight
    DENY = True  # a unit holding an objective takes the formation that leaves an enemy leader least room by it
    DENY_TURNS = 0  # ...in the last this many turns (0: every turn)
    DENY_NEAR = 48.0  # ...with a known enemy unit this near the objective
    DENY_SHOT_FIRST = True  # ...only when it has no shot to take (False: before shooting)
    DENY_OPEN = False  # ...counting only open ground (True) or any ground a figure may stand on (False)
    DENY_COVER = True  # ...only a unit whose leader is in cover (False: any holder)
    SKIP_CONTESTABLE = True  # ...unless the contest can put a leader within 3" of it (False: skipped all the same)
    W_SIGHT = 2.0  # with fire support: a position that sees an enemy holding an objective (0: off)

    def reset(self, seed=None):
        super().reset(seed)
        self._game_ref = None
        self._assigned = set()
        self._assign = {}
        self._guns = {}

    # ------------------------------------------------------------------ per game
    def _setup(self, k):
        if getattr(self, "_game_ref", None) is not k.game_token:
            self._game_ref = k.game_token  # a new game (one token per game object: ids of freed games are reused)
            self._goals = None
            self._game_id = None
            self._assigned = set()
            self._assign = {}
            self._guns = {}
        if k.side in self._assigned:
            return
        self._assigned.add(k.side)  # the side's squads are assigned at its first decision of the game
        objs = [(ox, oy, v) for _, ox, oy, v in k.objectives]
        index = list(range(len(objs)))
        if self.SKIP_HIDDEN and k.fire_support() is None:
            # an objective whose known holder no line of sight from outside reaches (deep in a building or a wood)
            # can be neither shot at nor assaulted nor contested (the walk stops 2" from its figures): with no guns to
            # break that holder, the squads are shared out over the other objectives
            open_ = [j for j, (ox, oy, _) in enumerate(objs) if not self._out_of_reach(k, ox, oy)]
            if open_:
                index = open_
        if objs:
            pieces = self._piece_crews(k)  # the crews of on-table fire support and anti-aircraft teams stay put
            squads = [u for u in k.own_units if u.kind != "hq" and u.uid not in pieces
                      and k.aircraft(u.uid) is None]  # aircraft carry the squads to theirs (agents/aerospace.py)
            got = self._assignment(squads, [objs[j] for j in index])
            self._assign.update({uid: index[j] for uid, j in got.items()})

    def _out_of_reach(self, k, ox, oy) -> bool:
        """An objective nothing of the side can take from its holder: held out of every line of sight
        (:meth:`_hidden_holder`) and, with the contest on (agents/contest.py), no open ground within 3" of it stands
        2" from every known enemy figure and marker (a leader reorganised there would contest it)."""
        if not self._hidden_holder(k, ox, oy):
            return False
        return not (self.CONTEST and self.SKIP_CONTESTABLE and self._contest_room(k, ox, oy))

    @staticmethod
    def _contest_room(k, ox, oy) -> bool:
        """A point within 3" of the objective at (ox, oy), on ground a unit may stand on, 2" from every known enemy
        figure and marker (the Two Inch Rule's): the contest's reorganise can put a leader there."""
        bf = k.bf
        figs = [(e.x + f.dx - e.figures[e.leader].dx, e.y + f.dy - e.figures[e.leader].dy)
                for e in k.enemy_units for f in e.figures if f.status != KILLED]
        figs += [(m["x"], m["y"]) for m in k.markers if m["side"] != k.side and not m["removed"]]
        for r in (0.0, 1.0, 2.0, 2.9):
            for a in range(0, 360, 15 if r else 360):
                px, py = ox + r * math.sin(math.radians(a)), oy + r * math.cos(math.radians(a))
                if bf.on_table(px, py) and bf.move_cost(px, py) == 1 and \
                        all(_d(px, py, fx, fy) >= 2.05 for fx, fy in figs):
                    return True
        return False

    @staticmethod
    def _hidden_holder(k, ox, oy) -> bool:
        """A known enemy unit holds the objective at (ox, oy) and no point 4-6" from its leader sees it."""
        bf = k.bf
        for e in k.enemy_units:
            if e.profile.vehicle is not None or _d(e.x, e.y, ox, oy) > OBJ_R:
                continue
            seen = False
            for r in (4.0, 6.0):
                for a in range(0, 360, 30):
                    px, py = e.x + r * math.sin(math.radians(a)), e.y + r * math.cos(math.radians(a))
                    if 0.0 <= px <= bf.width and 0.0 <= py <= bf.height and bf.has_los(px, py, e.x, e.y):
                        seen = True
                        break
                if seen:
                    break
            if not seen:
                return True
        return False

    @staticmethod
    def _assignment(units, objs) -> dict:
        """Cheapest unit -> objective assignment (distance less 4" per victory point); every objective
        gets a unit before any gets a second one."""
        out = {}
        if not units:
            return out
        k = len(objs)
        if len(units) <= 6 and k <= 6:
            slots = list(range(k)) * ((len(units) + k - 1) // k)
            best, bc = None, 1e18
            for perm in itertools.permutations(range(len(slots)), len(units)):
                cost = 0.0
                for u, si in zip(units, perm):
                    ox, oy, v = objs[slots[si]]
                    cost += _d(u.x, u.y, ox, oy) - 4.0 * v + (8.0 if si >= k else 0.0)
                if cost < bc - 1e-9:
                    best, bc = perm, cost
            for u, si in zip(units, best):
                out[u.uid] = slots[si]
            return out
        taken: dict = {}
        for u in sorted(units, key=lambda m: m.uid):
            j = min(range(k), key=lambda j: (taken.get(j, 0), _d(u.x, u.y, objs[j][0], objs[j][1])))
            taken[j] = taken.get(j, 0) + 1
            out[u.uid] = j
        return out

    def _goal(self, k, u):
        if not self.ASSIGN:
            return super()._goal(k, u)
        self._setup(k)
        j = self._assign.get(u.uid)
        if j is None or j >= len(k.objectives):
            return super()._goal(k, u)
        _, ox, oy, _ = k.objectives[j]
        return self._bd_goal(k, u, (ox, oy))  # a building by the objective (agents/buildings.py)

    def _guns_of(self, k, e):
        key = (e.uid, tuple(f.status for f in e.figures))
        g = self._guns.get(key)
        if g is None:
            if len(self._guns) > 4096:
                self._guns.clear()
            g = self._guns[key] = _unit_guns(e)
        return g

    # ------------------------------------------------------------------ decisions
    _shot_memo = None  # (Knowledge, {(uid, option): score}) while a decision is being made

    def decide(self, k, d):
        # a shot's score is asked more than once in a decision (before denying the contest, at the end game, then
        # to shoot): kept for this decision only (the game does not change while a bot decides)
        outer = self._shot_memo
        self._shot_memo = (k, {})
        try:
            return self._decide(k, d)
        finally:
            self._shot_memo = outer

    def _decide(self, k, d):
        self._setup(k)
        if d.kind == "initiative":
            if self.LAST_SECOND and k.turn >= k.turn_limit and ("second",) in d.options:
                return ("second",)
            return ("first",) if ("first",) in d.options else d.options[0]
        if d.kind == "promote":
            return self._promote(k, d)
        if d.kind in ("place_leader", "place_formation"):
            dn = self._deny_place(k, d)
            if dn is not None:
                return dn
        return super().decide(k, d)

    def _forward_observer(self, k, u) -> bool:
        """With fire support, an HQ that is a forward observer goes forward with the squads (to see the targets it
        calls fire on, and to take or contest an objective at the end) instead of hiding."""
        return self.FO_FORWARD and k.fire_support() is not None and k.observer_role(u.uid) == "fo"

    @staticmethod
    def _piece_crews(k, aa: bool = True) -> set:
        """The units that stay with their pieces: those that fire the side's on-table fire support
        (agents/fire_support.py) and, in a game with aircraft, the anti-aircraft teams (agents/aerospace.py; not
        with ``aa`` False)."""
        fs = k.fire_support()
        out = set() if fs is None else {a["unit"] for a in fs["assets"] if a["unit"] is not None}
        if aa and k.has_aircraft():
            out.update(u.uid for u in k.own_units if u.profile.vehicle is None and k.aa_reach(u.uid) is not None)
        return out

    def _promote(self, k, d):
        """Promote the crew of an on-table piece (it stays back anyway: a promoted squad would stay back ordering
        instead of taking its objective), else the healthiest subordinate (able figures, unsuppressed, confident,
        in cover)."""
        pieces = self._piece_crews(k, aa=self.PROMOTE_AA)
        for o in d.options:
            if o[0] == "choose" and len(o) > 1 and o[1] in pieces:
                return o
        best, bs = None, -1e9
        for o in d.options:
            if o[0] != "choose" or len(o) < 2:
                continue
            v = k.units[o[1]]
            s = v.n_able() - 2.0 * v.suppression - v.confidence + (2.0 if k.bf.in_cover(v.x, v.y) else 0.0)
            if s > bs:
                best, bs = o, s
        return best if best is not None else d.options[0]

    def _command(self, k, d):
        if not self.ORDERS:
            return ScriptedAgent._command(self, k, d)
        return super()._command(k, d)

    def _choose_unit(self, k, d):
        if self.HQ_FIRST:
            o = self._hq_first(k, d)
            if o is not None:
                return o
        return super()._choose_unit(k, d)

    # --- fire
    def _shot_score(self, k, uid, opt):
        memo = self._shot_memo
        if memo is None or memo[0] is not k:
            return self._score_shot(k, uid, opt)
        key = (uid, opt)
        s = memo[1].get(key)
        if s is None:
            s = memo[1][key] = self._score_shot(k, uid, opt)
        return s

    def _score_shot(self, k, uid, opt):
        if not self.FOCUS:
            return super()._shot_score(k, uid, opt)
        odds = self._shot_odds(k, uid, opt)
        if odds is None:
            return -1.0
        p_any, e_cas = odds
        t = k.units[opt[1]]
        cas_value = 1.0 + 2.0 / max(1, t.n_able())  # the last figures of a unit are worth a victory point
        if t.kind == "hq":
            cas_value += 0.5
        if self._on_objective(k, t):
            cas_value += 0.3
        if t.suppression == 0:
            sup_value = 1.0 + (0.4 if not t.activated else 0.0)
        elif t.suppression < 3:
            sup_value = 0.5 / t.suppression
        else:
            sup_value = 0.0
        if t.confidence >= ROUTED:
            sup_value *= 0.2
        score = 3.0 * e_cas * cas_value + p_any * sup_value
        if opt[2] in ("half", "small_arms", "support"):
            score *= 0.8  # keep weapons for a second shot only when it pays
        return score

    @staticmethod
    def _on_objective(k, t) -> bool:
        for _, ox, oy, _ in k.objectives:
            if _d(t.x, t.y, ox, oy) <= OBJ_R:
                return True
        return False

    # --- actions
    def _choose_action(self, k, d):
        opts = d.options
        if len(opts) == 1:
            return opts[0]
        u = k.units[d.unit]
        for forced in (("reorganise", "assume_command"), ("reorganise", "leader"), ("panic_test",)):
            if forced in opts:
                return forced
        names = {o[0] for o in opts}
        if "order" in names or "rally" in names:
            cmd = self._command(k, d)
            if cmd is not None:
                return cmd
        va, d = self._vehicle_step(k, d, u)  # vehicles, passengers, anti-armour weapons (agents/armour.py)
        if va is not None:
            return va
        opts = d.options
        names = {o[0] for o in opts}
        if "recover" in names:
            return ("recover",)
        if "assault" in names and (self.ASSAULTS or self.FS_ASSAULTS and k.fire_support() is not None):
            a = self._assault_choice(k, u, opts)
            if a is not None:
                return a
        if self.DENY and ("reorganise", "place") in opts and not (self.DENY_SHOT_FIRST and self._best_shot(k, d)[0]):
            dn = self._deny_start(k, u)
            if dn is not None:
                return dn
        if u.kind == "hq" and self.HQ_HIDE and not self._forward_observer(k, u):
            return self._hq_action(k, d, u)
        if self.ENDGAME:
            eg = self._endgame(k, d, u)
            if eg is not None:
                return eg
        if not self.POSITION:
            return super()._choose_action(k, d)
        shot, _ = self._best_shot(k, d)
        if shot is not None:
            return shot
        if self.TREAT and u.suppression == 0 and ("treat", u.uid) in opts:
            return ("treat", u.uid)
        if "detect" in names:
            return next(o for o in opts if o[0] == "detect")
        mv = self._manoeuvre(k, d, u)
        sm = self._smoke_decide(k, d, u, mv)  # smoke before crossing open ground (agents/smoke.py)
        return mv if sm is None else sm

    # --- denying the contest
    def _room_points(self, k, ox, oy, figs, open_only=True) -> int:
        """How many of the points an enemy leader could be reorganised onto (ground a figure may stand on within 3"
        of the objective, open ground only with ``open_only``; the sample of :meth:`_contest_room`) stand 2" from
        every one of ``figs`` (the side's figures and markers)."""
        bf = k.bf
        n = 0
        for r in (0.0, 1.0, 2.0, 2.9):
            for a in range(0, 360, 15 if r else 360):
                px, py = ox + r * math.sin(math.radians(a)), oy + r * math.cos(math.radians(a))
                c = bf.move_cost(px, py) if bf.on_table(px, py) else None
                if c is not None and (c == 1 or not open_only) and all(_d(px, py, fx, fy) >= 2.05 for fx, fy in figs):
                    n += 1
        return n

    @staticmethod
    def _own_figs(k, skip=None) -> list:
        out = [(m.x + f.dx - m.figures[m.leader].dx, m.y + f.dy - m.figures[m.leader].dy)
               for m in k.own_units if m.in_play and m.uid != skip for f in m.figures if f.status != KILLED]
        return out + [(m["x"], m["y"]) for m in k.markers if m["side"] == k.side and not m["removed"]]

    @staticmethod
    def _formation_figs(k, u, name) -> list:
        """Where ``u``'s figures would stand in formation ``name`` with its leader where it is (the Reorganise
        Action's placement: slots around the leader facing the nearest known enemy, the nearest figure to each)."""
        lf = u.figures[u.leader]
        pos = [(u.x + f.dx - lf.dx, u.y + f.dy - lf.dy) for f in u.figures]
        alive = [i for i, f in enumerate(u.figures) if f.status != KILLED]
        if name == "keep":
            return [pos[i] for i in alive]
        movers = [u.leader] + [i for i in alive if i != u.leader and u.figures[i].status == OK]
        near = min(k.enemy_units, key=lambda e: _d(e.x, e.y, u.x, u.y), default=None)
        if near is not None and _d(near.x, near.y, u.x, u.y) > 1e-6:
            dd = _d(near.x, near.y, u.x, u.y)
            fx, fy = (near.x - u.x) / dd, (near.y - u.y) / dd
        else:
            fx, fy = 0.0, 1.0
        rx, ry = fy, -fx
        slots = [(u.x + x * rx + y * fx, u.y + x * ry + y * fy) for x, y in formation_offsets(name, len(movers))]
        target = {movers[0]: slots[0]}
        pairs = sorted(((pos[i][0] - sx) ** 2 + (pos[i][1] - sy) ** 2, b, i)
                       for i in movers[1:] for b, (sx, sy) in enumerate(slots) if b)
        used = set()
        for _, b, i in pairs:
            if i not in target and b not in used:
                target[i] = slots[b]
                used.add(b)
        return [target.get(i, pos[i]) for i in alive]

    def _deny_best(self, k, u, ox, oy, names):
        others = self._own_figs(k, skip=u.uid)
        best, bn = None, None
        for name in names:
            n = self._room_points(k, ox, oy, others + self._formation_figs(k, u, name), self.DENY_OPEN)
            if bn is None or n < bn:
                best, bn = name, n
        return best, bn

    def _deny_start(self, k, u):
        """A unit holding an objective (its leader within 3") with a known enemy unit within ``DENY_NEAR`` of it,
        whose side's figures leave ground within 3" of it and 2" from all of them, where an enemy leader could be
        reorganised to contest it (agents/contest.py, the Two Inch Rule): it reorganises, its leader staying, into
        the formation that leaves least such ground, when one leaves less than now."""
        if self.DENY_TURNS and k.turn < k.turn_limit - self.DENY_TURNS + 1:
            return None
        if u.profile.vehicle is not None or u.veh.carrier >= 0 or self.DENY_COVER and not k.bf.in_cover(u.x, u.y):
            return None
        for _, ox, oy, _ in sorted(k.objectives, key=lambda o: -o[3]):
            if _d(u.x, u.y, ox, oy) > OBJ_R:
                continue
            if not any(_d(e.x, e.y, ox, oy) <= self.DENY_NEAR for e in k.enemy_units if e.confidence < ROUTED):
                continue
            now = self._room_points(k, ox, oy, self._own_figs(k), self.DENY_OPEN)
            if now == 0:
                continue
            name, n = self._deny_best(k, u, ox, oy, [f for f in FORMATIONS if f != "keep"])
            if n < now:
                self._deny_at = (k.game_token, u.uid, ox, oy)
                return ("reorganise", "place")
        return None

    def _deny_place(self, k, d):
        at = getattr(self, "_deny_at", None)
        if at is None or at[0] is not k.game_token or at[1] != d.unit:
            return None
        if d.kind == "place_leader":
            return ("stay",) if ("stay",) in d.options else None
        self._deny_at = None
        names = [o[1] for o in d.options if o[0] == "formation"]
        if not names:
            return None
        name, _ = self._deny_best(k, k.units[d.unit], at[2], at[3], names)
        return ("formation", name)

    def _assault_choice(self, k, u, opts):
        """(Off in the ladder) assault a clearly beaten enemy: two markers, broken, or outnumbered 3:1."""
        for o in sorted((o for o in opts if o[0] == "assault" and len(o) > 1),
                        key=lambda o: (k.units[o[1]].n_able(), o[1])):
            t = k.units[o[1]]
            if t.suppression >= 2 or t.confidence >= BROKEN or t.n_able() * 3 <= u.n_able():
                return o
        return None

    # --- end game
    def _endgame_goal(self, k, u):
        """In the last two turns: the objective this unit should be on at the end (None: no change)."""
        if k.turn < k.turn_limit - 1 or not k.objectives:
            return None
        mine = []
        for _, ox, oy, _ in k.objectives:
            mine.append([w.uid for w in k.own_units if w.in_play and w.confidence != ROUTED
                         and _d(w.x, w.y, ox, oy) <= OBJ_R])
        for j, (_, ox, oy, _) in enumerate(k.objectives):
            if mine[j] == [u.uid]:
                return ox, oy  # the only one holding (or contesting) it: stay
        reach = 4 * MEAN_MOVE if k.turn < k.turn_limit else 2 * MEAN_MOVE
        skip = self.SKIP_HIDDEN and k.fire_support() is None  # (as in the assignment: a holder nothing reaches)
        best, bs = None, 0.0
        for j, (_, ox, oy, v) in enumerate(k.objectives):
            if mine[j] or skip and self._out_of_reach(k, ox, oy):
                continue
            dd = _d(u.x, u.y, ox, oy)
            if dd > reach + OBJ_R:
                continue
            s = v / (1.0 + dd / 12.0)
            if s > bs:
                best, bs = (ox, oy), s
        return best

    def _endgame(self, k, d, u):
        goal = self._endgame_goal(k, u)
        if goal is None or u.confidence >= BROKEN:
            return None
        opts = d.options
        dg = _d(u.x, u.y, *goal)
        shot, score = self._best_shot(k, d)
        if dg <= HOLD_R:
            if shot is not None:
                return shot
            if ("prop",) in opts:
                return ("prop",)
            return ("end",) if ("end",) in opts else None
        if shot is not None and score > 1.5:
            return shot
        if ("unprop",) in opts:
            return ("unprop",)
        best, bs = None, dg - 0.5
        blockers = k.move_blockers(u.uid) if self.REACH else None  # (the same for every option)
        for o in opts:
            if o[0] != "move" or len(o) < 3:
                continue
            p = self._reach(k, u, o, min(max(dg, 3.0), MEAN_MOVE), blockers)
            if p is None:
                continue
            px, py = p
            if k.bf.move_cost(px, py) is None:
                continue
            s = _d(px, py, *goal)
            if s < bs:
                best, bs = o, s
        return best

    # --- positions
    def _threat(self, k, u, px, py, table=None) -> float:
        """Expected harm the visible enemy could do to ``u`` standing at (px, py): for each able enemy shooter, the
        chance of a success and the expected casualties of its fire at that point (:meth:`_table_threat`).
        ``table``: the :meth:`_threat_table` of ``u`` at this decision (made here when not given)."""
        return self._table_threat(k, table if table is not None else self._threat_table(k, u), px, py)

    def _threat_table(self, k, u) -> tuple:
        """What :meth:`_threat` needs of the enemy and of ``u`` at this decision, for many points: per able enemy
        shooter (in ``k.enemy_units``' order) its place, range, guns, the weight of its suppression and its
        target-die shift from quality, with a memo of its terms; and ``u``'s armour die.  Valid only while the game
        does not change (one decision)."""
        shooters = []
        for e in k.enemy_units:
            if e.confidence >= ROUTED:
                continue
            q, fp, impact, rng = self._guns_of(k, e)
            if not fp:
                continue  # (no firepower: no threat)
            qshift = 1 if q == D4 else -1 if q == D12 else 0
            shooters.append((e.x, e.y, rng, q, fp, impact, 1.0 if e.suppression == 0 else 0.35, qshift, {}))
        arm = _ARMOURS.get(u.armour)
        return tuple(shooters), (arm.die if arm is not None else D6)

    def _table_threat(self, k, table, px, py) -> float:
        """:meth:`_threat` from a :meth:`_threat_table`: per shooter in range with a line of sight, the value of a
        shot with everything at an unpropped target (target die D8 shifted by range, concealment and quality; the
        target's armour die with the better of the line's and the point's cover), each shooter's term kept by
        (target die, cover)."""
        shooters, adie0 = table
        bf = k.bf
        sight = bf.sight
        total = 0.0
        conceals = cover = None
        for sx, sy, rng, q, fp, impact, w, qshift, memo in shooters:
            dist = math.hypot(sx - px, sy - py)
            if dist > rng:
                continue
            s = sight(sx, sy, px, py)
            if not s.visible:
                continue
            shift = qshift
            if dist > 48.0:
                shift += 1
            elif dist <= SHORT_RANGE:
                shift -= 1
            if s.concealed:
                shift += 1
            else:
                if conceals is None:
                    conceals = bf.conceals(px, py)
                if conceals:
                    shift += 1
            tdie = D8 + shift
            if tdie > D12:
                continue
            if cover is None:
                cover = bf.cover_at(px, py)
            c = s.cover if s.cover > cover else cover
            key = (tdie, c)
            term = memo.get(key)
            if term is None:
                r = shot_value(q, fp, max(D4, tdie), impact, armour_die(adie0, propped=False, cover=c))
                term = memo[key] = w * (r[0] * self.W_SUP_THREAT + r[1] * self.W_CAS_THREAT)
            total += term
        return total

    def _position_value(self, k, u, px, py, goal, table=None) -> float:
        bf = k.bf
        dg = _d(px, py, goal[0], goal[1])
        v = -self.W_PROGRESS * dg
        if dg <= HOLD_R:
            v += self.W_HOLD
        if bf.in_cover(px, py):
            v += self.W_COVER
        v -= self._threat(k, u, px, py, table)
        risk = self._shock_risk(k, u, px, py)  # enemy vehicles only (agents/armour.py)
        return v - risk if risk else v

    def _reach(self, k, u, o, cap: float, blockers=None):
        """Where the move option ``o`` of ``u`` would take its leader, going at most ``cap`` inches toward the
        nominated point: the walk stops at impassable ground, the table's edge and 2" from the enemy figures
        and markers the side knows of.  None when it would not advance at all (a wasted action)."""
        vx, vy = DIR_VECTORS[o[1]]
        dist = min(DISTANCES[o[2]], cap)
        if not self.REACH:
            return u.x + vx * dist, u.y + vy * dist
        x, y = k.move_end(u.uid, u.x + vx * dist, u.y + vy * dist, 3.0 * dist + 12.0,  # enough for any ground
                          blockers)  # (Knowledge.move_blockers of u at this decision, or None: worked out here)
        if _d(x, y, u.x, u.y) < NO_PROGRESS:
            return None
        return x, y

    def _manoeuvre(self, k, d, u):
        opts = d.options
        bf = k.bf
        goal = self._goal(k, u)
        holders = self._sight_targets(k)
        table = self._threat_table(k, u)  # (the enemy's part of the threat at every point, worked out once)
        here = self._position_value(k, u, u.x, u.y, goal, table) + self._sight_bonus(k, u.x, u.y, holders)
        if u.propped:
            here += 0.3  # moving first costs an action to unprop
        cands = []
        seen = set()
        for o in opts:
            if o[0] != "move" or len(o) < 3:
                continue
            vx, vy = DIR_VECTORS[o[1]]
            dist = min(DISTANCES[o[2]], MEAN_MOVE)  # longer moves end where the roll runs out
            key = (round((u.x + vx * dist) * 2), round((u.y + vy * dist) * 2))
            if key in seen:
                continue
            seen.add(key)
            cands.append((o, vx * dist, vy * dist))
        best, bs = self._best_move(k, u, goal, holders, table, cands)
        if best is not None and bs > here + 0.25:
            return best
        if ("unprop",) in opts and best is not None and bs > here + 1.0:
            return ("unprop",)
        if ("reorganise", "rearrange") in opts:
            return ("reorganise", "rearrange")
        if ("prop",) in opts and (bf.in_cover(u.x, u.y) or _d(u.x, u.y, *goal) <= HOLD_R):
            return ("prop",)
        return ("end",) if ("end",) in opts else opts[0]

    BOUND_SLACK = 1e-6  # a candidate is skipped only when its bound is below the best score by this (rounding)

    def _best_move(self, k, u, goal, holders, table, cands):
        """The best of the candidate moves ``cands`` ((option, dx, dy): the leader's nominated offset, at most
        ``MEAN_MOVE`` long) and its score: the highest :meth:`_position_value` less 0.2 per movement point above 1
        plus :meth:`_sight_bonus`, where :meth:`_reach` ends (no progress or impassable: not a candidate), the
        first in ``cands``' order among equals.  (None, -1e18) without a candidate.

        The same choice as scoring every candidate in order, for less: where a walk ends lies on the segment to
        the nominated point, so an upper bound of the score (the least distance from that segment to the goal,
        the objective's bonus if that is within reach, cover, the sight bonus, no threat) orders the candidates,
        and one whose bound falls short of the best score found is neither walked nor scored."""
        bf = k.bf
        gx, gy = goal
        ux, uy = u.x, u.y
        wp, wh, wc, ws = self.W_PROGRESS, self.W_HOLD, self.W_COVER, self.W_SIGHT
        # the bound holds when no term can add more than counted: a threat and a shock risk never negative,
        # movement costs never below 1 (then -0.2 * (c - 1) <= 0)
        exact = wp < 0 or self.W_SUP_THREAT < 0 or self.W_CAS_THREAT < 0 or self.AVOID_SHOCK < 0
        extra = max(wc, 0.0) + (max(ws, 0.0) if holders else 0.0)
        order = []
        for i, (o, dx, dy) in enumerate(cands):
            if exact:
                order.append((0.0, i))
                continue
            # the distance from the goal to the segment (ux, uy) -> (ux + dx, uy + dy)
            ll = dx * dx + dy * dy
            t = ((gx - ux) * dx + (gy - uy) * dy) / ll if ll > 0.0 else 0.0
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            near = math.hypot(ux + t * dx - gx, uy + t * dy - gy) - self.BOUND_SLACK
            if near < 0.0:
                near = 0.0
            ub = -wp * near + extra + (max(wh, 0.0) if near <= HOLD_R else 0.0)
            order.append((-ub, i))
        order.sort()
        blockers = k.move_blockers(u.uid) if self.REACH else None  # (the same for every candidate)
        best, bs, bi = None, -1e18, len(cands)
        for nub, i in order:
            if not exact and -nub < bs - self.BOUND_SLACK:
                break  # (sorted: none after it can reach the best either)
            o = cands[i][0]
            p = self._reach(k, u, o, MEAN_MOVE, blockers)
            if p is None:
                continue
            px, py = p
            c = bf.move_cost(px, py)
            if c is None:
                continue
            sb = self._sight_bonus(k, px, py, holders)
            if not exact:  # the score but for the threat and the shock risk (never negative): its bound here
                dg = _d(px, py, gx, gy)
                ub = -wp * dg + (wh if dg <= HOLD_R else 0.0) + (wc if bf.in_cover(px, py) else 0.0) - 0.2 * (c - 1) + sb
                if ub < bs - self.BOUND_SLACK:
                    continue
            s = self._position_value(k, u, px, py, goal, table) - 0.2 * (c - 1) + sb
            if s > bs or (s == bs and i < bi):
                best, bs, bi = o, s, i
        return best, bs

    def _sight_targets(self, k) -> list:
        """With fire support: the known enemy units holding an objective (an attack's targets; empty otherwise)."""
        if not self.W_SIGHT or k.fire_support() is None:
            return []
        return [e for e in k.enemy_units if e.confidence < ROUTED and self._holds(k, e)]

    def _sight_bonus(self, k, px, py, holders) -> float:
        """A firing position: (px, py) sees one of ``holders`` within :data:`SIGHT_RANGE` (defenders deep in a
        building are seen only from where the line runs little inside it, often not from its wall)."""
        for e in holders:
            if _d(px, py, e.x, e.y) <= SIGHT_RANGE and k.bf.has_los(px, py, e.x, e.y):
                return self.W_SIGHT
        return 0.0

    # --- the HQ
    def _hq_action(self, k, d, u):
        """An HQ with no order to give: a good shot, else out of sight and into cover near the squads."""
        opts = d.options
        shot, score = self._best_shot(k, d)
        if shot is not None and score > 0.6:
            return shot
        bf = k.bf
        if _nearest_visible(k, u, 60.0) is None:
            if ("prop",) in opts and bf.in_cover(u.x, u.y):
                return ("prop",)
            return ("end",) if ("end",) in opts else opts[0]
        here = self._hide_score(k, u, u.x, u.y)
        best, bs = None, -1e9
        for o in opts:
            if o[0] != "move" or len(o) < 3:
                continue
            vx, vy = DIR_VECTORS[o[1]]
            dist = min(DISTANCES[o[2]], 6.0)
            s = self._hide_score(k, u, u.x + vx * dist, u.y + vy * dist)
            if s > bs:
                best, bs = o, s
        if best is not None and bs > here + 0.5:
            return best
        if ("prop",) in opts:
            return ("prop",)
        return ("end",) if ("end",) in opts else opts[0]

    def _hide_score(self, k, u, px, py) -> float:
        bf = k.bf
        if bf.move_cost(px, py) is None:
            return -1e9
        s = 0.0
        for e in k.enemy_units:
            if _d(e.x, e.y, px, py) <= 60.0 and bf.has_los(e.x, e.y, px, py):
                s -= 2.0
        if bf.in_cover(px, py):
            s += 1.0
        mine = [m for m in k.own_units if m.uid != u.uid and m.in_play]
        if mine:  # stay within reach of the squads
            cx = sum(m.x for m in mine) / len(mine)
            cy = sum(m.y for m in mine) / len(mine)
            s -= 0.03 * _d(px, py, cx, cy)
        return s
