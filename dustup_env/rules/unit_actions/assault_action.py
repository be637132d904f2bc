"""Assault Action (seed 000 "Assault Action" .. "The Two Inch Rule", "Multiple Units in Close Combat",
"Special Close Combat Weapons").

An ``("assault", enemy_uid)`` action pushes a procedure frame of type ``"assault"`` whose decisions
are taken by the right side:

=========================  =======  =====================================================
kind                       side     options
=========================  =======  =====================================================
``assault_targets``        attacker ``("defenders_chosen",)``, ``("add_defender", uid)``... (frame
                                    ``"assault_declare"``: one assault on several enemy units)
``assault_response``       defender ``("stand",)``, ``("withdraw",)``
``assault_follow_up``      attacker ``("occupy",)``, ``("contact",)`` (the defender withdrew), or with
                                    several withdrawn defenders ``("follow", uid)``... and then
                                    ``("defenders_chosen",)`` / ``("follow", uid)`` for one more
``final_defensive_fire``   defender ``("fire", mode)``..., ``("hold_fire",)``
``second_move``            attacker ``("contact",)``, ``("halt",)``
``special_weapons``        owner    ``("no_split",)``, ``("split_special",)`` (before combat resolution)
``house_occupy``           either   ``("occupy",)``, ``("halt",)`` (house close combat: the position vacated
                                    by a withdrawal after a round)
``house_pursuit``          either   ``("halt",)``, ``("follow", uid)`` (house close combat, game option
                                    ``house_pursuit``: pursue a unit withdrawing after a lost reaction test)
=========================  =======  =====================================================

Phases: courage test (opposed quality dice with open shifts from the data table
``data/courage_test.json``), move to contact (final defensive fire, second move), combat resolution
(two simultaneous rounds) and outcome (a second courage test with the casualty rows).  Several
units (one attacker against several defenders, or a combined assault of several attackers against
one defender, :func:`begin_assault`) fight as detachments matched to the opposing sizes; each parent
unit obeys the worst result.  Readings of garbled passages: docs/rules-notes.md RN-203 to RN-217 (house rules
RN-252 to RN-254); several defenders, following withdrawn ones and special-weapon detachments RN-300, RN-301, RN-304.
Mechs and monsters (seed 000 L1514-1518) fight as infantry units: their size class is their strength, their close-
combat weapons add strike dice, and hits to and from them go to the vehicle rules' service (RN-850..RN-853).
Infantry assaulting another vehicle (the Close Assault rules' ``assault_vehicle``, L1520-1532) take this procedure
too (RN-900): the vehicle is never forced to withdraw, contact is reached at its footprint, its final defensive
fire is the vehicle rules' service, and in contact one impact roll replaces the combat (the vehicle rules'
``vehicle_assault`` service).  Whenever a vehicle, mech or monster takes part, outnumbering counts units
(:func:`unit_counts`, RN-907).
"""
from __future__ import annotations

import math
from types import SimpleNamespace

from ..kernel.dice import die_name
from ..kernel.events import Moved
from ..kernel.entities import BROKEN, ROUTED, STEADY, Unit
from ..morale.death_of_a_leader import appoint_next_activation
from .shoot_action import FIRE_MODES
from ..kernel.ruleset import Family, Option, Rule
from ..kernel.decisions import Decision, Frame
from ..kernel.sequence import pop
from ..kernel.table import place
from .shoot_action import shoot, shot_plan
from .assault_combat import (apply_hits, casualty_counts, combat_target_die, fight_pairs, pair_outcome,  # noqa: F401
    resolve_strike, special_impact, split_figures, split_special, strike_dice)
from .assault_courage_test import (MECHS, assaulted_vehicle, courage_roll, courage_shifts, init_hook,  # noqa: F401
    is_mech, load_courage_table, outnumbered, strength, unit_counts, vehicle_of)
from .assault_events import (AssaultDeclared, AssaultEnded, AssaultReaction, AssaultResponse,  # noqa: F401
    ConfidenceDropped, ContactMove, CourageTested, SpecialWeaponsChoice, StrikeResolved, SuppressionTested,
    WoundedAbandoned)
from .assault_movement import (CONTACT, DEFENDER_SPREAD, TWO_INCH_TOLERANCE, WITHDRAW_FALLBACK,  # noqa: F401
    assault_reach, contact_move, contact_reach, contact_walk, drop_confidence, figure_gap, occupy, withdraw,
    within_two_inches)

# ---------------------------------------------------------------------------------------- the procedure

def _can_fire(game, dfn: Unit, att: Unit) -> list:
    """Final defensive fire options of the defender against the attacker (empty: none possible)."""
    if not dfn.in_play or dfn.confidence == ROUTED:
        return []
    if dfn.confidence == BROKEN and not game.bf.in_cover(dfn.x, dfn.y):
        return []
    if vehicle_of(game, dfn) is not None:  # a mech or monster: its support weapons (RN-853)
        svc = game.rules.services.get("mech_defensive_fire")
        return svc.options(game, dfn, att) if svc is not None else []
    saved = set(dfn.fired)
    dfn.fired.clear()  # final defensive fire is allowed even if the defender has already fired
    conc = dfn.complete_concealment
    dfn.complete_concealment = False
    try:
        modes = [m for m in FIRE_MODES if m != "suppressive" and shot_plan(game, dfn, att, m) is not None]
    finally:
        dfn.fired.clear()
        dfn.fired.update(saved)
        dfn.complete_concealment = conc
    return [("fire", m) for m in modes]


class AssaultProcedure:
    """Procedure frame ``"assault"``; ``frame.data`` is plain data (see :func:`begin_assault`)."""

    # ------------------------------------------------------------------ decisions
    def decision(self, game, frame):
        d = frame.data
        st = d["stage"]
        units = game.units
        if st == "response":
            u = units[d["queue"][0]]
            if assaulted_vehicle(game, u) and not game.rules.services["vehicle_assault"].may_withdraw(game, u):
                return Decision(u.side, "assault_response", u.uid, (("stand",),))  # an immobile vehicle (RN-906)
            return Decision(u.side, "assault_response", u.uid, (("stand",), ("withdraw",)))
        if st == "follow_up":
            a = units[d["cur"]]
            chosen = d["follow"].get(str(a.uid))
            if chosen:  # following several withdrawn defenders: one more, or go
                return Decision(a.side, "assault_follow_up", a.uid, (("defenders_chosen",),) + tuple(
                    ("follow", x) for x in followable(game, d, a, chosen)))
            opts = [("occupy",)]
            cands = followable(game, d, a, [])
            if len(cands) == 1:
                opts.append(("contact",))
            else:  # "continue the assault on one or both of the withdrawing enemy"
                opts.extend(("follow", x) for x in cands)
            return Decision(a.side, "assault_follow_up", a.uid, tuple(opts))
        if st == "dfire":
            a = units[d["cur"]]
            t = units[d["target"][str(a.uid)]]
            return Decision(t.side, "final_defensive_fire", t.uid,
                                  tuple(_can_fire(game, t, a)) + (("hold_fire",),))
        if st == "second":
            a = units[d["cur"]]
            return Decision(a.side, "second_move", a.uid, (("contact",), ("halt",)))
        if st == "special":
            u = units[d["special_q"]]
            return Decision(u.side, "special_weapons", u.uid, (("no_split",), ("split_special",)))
        if st == "house":
            return game.rules.services["house_close_combat"].decision(game, frame)
        raise RuntimeError(f"assault procedure has no decision in stage {st!r}")  # pragma: no cover

    def apply(self, game, frame, opt):
        d = frame.data
        st = d["stage"]
        units = game.units
        if st == "response":
            uid = d["queue"].pop(0)
            u = units[uid]
            game.emit(AssaultResponse(uid, opt[0]))
            if opt[0] == "withdraw":
                self._defender_withdraws(game, d, u, "voluntary withdrawal")
        elif st == "follow_up":
            a = units[d["cur"]]
            if opt[0] == "occupy":
                occupy(game, a, *d["old_pos"][str(d["target"][str(a.uid)])])
                d["result"][str(a.uid)] = "occupied"
                self._next_mover(d)
            elif opt[0] == "follow":
                key = str(a.uid)
                chosen = d["follow"].setdefault(key, [])
                chosen.append(int(opt[1]))
                if not followable(game, d, a, chosen):
                    self._follow(game, d, a)
            elif opt[0] == "defenders_chosen":
                self._follow(game, d, a)
            else:
                self._contact_move(game, d, a, first=True, can_fire=False)
        elif st == "dfire":
            a = units[d["cur"]]
            t = units[d["target"][str(a.uid)]]
            cas = 0
            if opt[0] == "fire" and vehicle_of(game, t) is not None:  # a vehicle fires while suppressed (RN-140, RN-853)
                cas = game.rules.services["mech_defensive_fire"].fire(game, t, a, opt[1])
            elif opt[0] == "fire":
                fire = True
                if t.suppression > 0:
                    roll = game.dice.roll(t.quality)
                    need = t.lv + t.suppression
                    fire = roll > need
                    game.emit(SuppressionTested(t.uid, roll, need, fire))
                if fire:
                    saved = set(t.fired)
                    t.fired.clear()
                    t.complete_concealment = False
                    cas = shoot(game, t, a, opt[1], reaction=True)
                    t.fired.clear()
                    t.fired.update(saved)
            self._after_fire(game, d, a, cas)
        elif st == "second":
            a = units[d["cur"]]
            if opt[0] == "contact":
                self._contact_move(game, d, a, first=False, can_fire=False)
            else:
                d["result"][str(a.uid)] = "halted"
                self._next_mover(d)
        elif st == "special":
            uid = d["special_q"]
            d["split_asked"].append(uid)
            if opt[0] == "split_special":
                d["split"].append(uid)
            game.emit(SpecialWeaponsChoice(uid, opt[0] == "split_special"))
            d["stage"] = "combat"
        elif st == "house":
            game.rules.services["house_close_combat"].apply(game, frame, opt)
        self.run(game, frame)

    # ------------------------------------------------------------------ automatic stages
    def run(self, game, frame) -> None:
        """Advance the automatic stages until a decision is pending or the assault is over."""
        d = frame.data
        units = game.units
        while game.phase != "over":
            st = d["stage"]
            if st == "response":
                # routed defenders must withdraw (no choice); withdrawn/destroyed defenders drop out
                while d["queue"]:
                    u = units[d["queue"][0]]
                    if not u.in_play:
                        d["queue"].pop(0)
                    elif u.confidence == ROUTED and not assaulted_vehicle(game, u):  # a vehicle decides (L1522)
                        d["queue"].pop(0)
                        game.emit(AssaultResponse(u.uid, "withdraw"))
                        self._defender_withdraws(game, d, u, "routed defender withdraws")
                    else:
                        return  # a stand/withdraw decision
                d["stage"] = "courage"
            elif st == "courage":
                self._courage(game, d)
                d["stage"] = "move"
            elif st == "move":
                if not d["movers"]:
                    d["stage"] = "combat"
                    continue
                a = units[d["movers"][0]]
                d["cur"] = a.uid
                if not a.in_play:
                    self._next_mover(d)
                    continue
                key = str(a.uid)
                standing = [x for x in d["pairs"][key] if x not in d["withdrawn"] and units[x].in_play]
                if not standing:
                    tgt = followable(game, d, a, []) or [x for x in d["pairs"][key] if x in d["withdrawn"]]
                    if not tgt:
                        d["result"][key] = "no_target"
                        self._next_mover(d)
                        continue
                    d["target"][key] = min(tgt, key=lambda x: math.hypot(units[x].x - a.x, units[x].y - a.y))
                    d["stage"] = "follow_up"
                    return
                d["target"][key] = min(standing, key=lambda x: math.hypot(units[x].x - a.x, units[x].y - a.y))
                if d["two_inch"]:
                    d["contact"].append(a.uid)
                    game.emit(ContactMove(a.uid, d["target"][key], 0, 0.0, (round(a.x, 3), round(a.y, 3)),
                                          (round(a.x, 3), round(a.y, 3)), True))
                    self._next_mover(d)
                    continue
                self._contact_move(game, d, a, first=True, can_fire=True)
                if d["stage"] != "move":
                    return
            elif st in ("follow_up", "dfire", "second"):
                return
            elif st == "combat":
                self._vehicle_contacts(game, d)
                if game.options["close_combat"] == "house":
                    game.rules.services["house_close_combat"].start(game, frame)
                    if d["stage"] == "house":
                        return
                else:
                    pairs = self.split_pairs(game, d)
                    ask = self._next_special(game, d, pairs)
                    if ask is not None:  # a unit may split off its special close-combat weapons first
                        d["special_q"] = ask
                        d["stage"] = "special"
                        return
                    self._combat(game, d, pairs)
                    d["stage"] = "done"
            elif st in ("house", "special"):
                return
            elif st == "done":
                self._finish(game, frame)
                return

    # ------------------------------------------------------------------ pieces
    def _defender_withdraws(self, game, d, u: Unit, reason: str) -> None:
        d["withdrawn"].append(u.uid)
        d["old_pos"][str(u.uid)] = [u.x, u.y]
        away = [game.units[a] for a in d["attackers"] if a in d["pair_of_def"].get(str(u.uid), d["attackers"])]
        withdraw(game, u, away, 1 if u.confidence != ROUTED else 0, reason)

    def _courage(self, game, d) -> None:
        units = game.units
        worst: dict = {}
        rank = {"fail_badly": 0, "fail": 1, "go": 2}
        for a_uid in d["attackers"]:
            key = str(a_uid)
            a = units[a_uid]
            worst[key] = "go"
            defs = d["pairs"][key]
            standing = [x for x in defs if x not in d["withdrawn"] and units[x].in_play]
            if d["two_inch"] or not standing:
                continue
            # detachments matched to the opposing sizes (one attacker vs several defenders)
            figs = split_figures(a, [strength(game, units[x]) for x in standing]) if len(standing) > 1 else [None]
            for x, af in zip(standing, figs):
                t = units[x]
                A, D, ad, dd, ash, dsh = courage_roll(game, a, t, final=False, att_figs=af)
                forced = not assaulted_vehicle(game, t)  # "the vehicle can't be forced to withdraw" (L1522, RN-902)
                if t.confidence == BROKEN and A > D and forced:
                    res = "defender_routs"
                elif A > 2 * D and forced:
                    res = "defender_withdraws"
                elif A > D:
                    res = "contact"
                elif 2 * A < D:
                    res = "fail_badly"
                else:
                    res = "fail"
                game.emit(CourageTested(a.uid, t.uid, False, die_name(ad), die_name(dd), tuple(ash), tuple(dsh),
                                        A, D, res))
                if res == "defender_routs":
                    old = t.confidence
                    t.confidence = ROUTED
                    game.emit(ConfidenceDropped(t.uid, ROUTED - old, "broken defender routs", "routed"))
                    self._defender_withdraws(game, d, t, "broken defender routs")
                elif res == "defender_withdraws":
                    self._defender_withdraws(game, d, t, "forced to withdraw by the courage test")
                elif res in ("fail", "fail_badly"):
                    r = res
                    if rank[r] < rank[worst[key]]:
                        worst[key] = r
                    if r == "fail_badly" and t.suppression == 0:
                        d["drops"][key] = d["drops"].get(key, 0) + 1
        for key, w in worst.items():
            a = units[int(key)]
            if w == "go":
                d["movers"].append(int(key))
                continue
            d["result"][key] = "courage_" + w
            drops = d["drops"].get(key, 0)
            if w == "fail_badly":
                d["end"][key] = True
                drop_confidence(game, a, drops, "last minute bout of nerves")
            else:
                d["end"][key] = False  # loses the first action; may still use the second

    def _contact_move(self, game, d, a: Unit, *, first: bool, can_fire: bool) -> None:
        key = str(a.uid)
        t = game.units[d["target"][key]]
        if first:
            d["start"][key] = [a.x, a.y]
        roll, points, start, reached = contact_move(game, a, t, game.movement_die(a))  # RN-405
        game.emit(ContactMove(a.uid, t.uid, roll, points, (round(start[0], 3), round(start[1], 3)),
                              (round(a.x, 3), round(a.y, 3)), reached))
        if reached:
            d["contact"].append(a.uid)
            d["engaged"][key] = list(d["follow"].get(key) or [t.uid])  # followed units fight it together
            self._next_mover(d)
            return
        if first and can_fire and t.uid not in d["withdrawn"] and _can_fire(game, t, a):
            d["stage"] = "dfire"
            return
        if first:
            self._after_fire(game, d, a, 0)
            return
        d["result"][key] = "fell_short"
        self._next_mover(d)

    def _after_fire(self, game, d, a: Unit, casualties: int) -> None:
        key = str(a.uid)
        if casualties and a.in_play:
            roll = game.dice.roll(a.quality)
            need = a.lv + casualties
            ok = roll > need
            game.emit(AssaultReaction(a.uid, roll, need, ok))
            if not ok:
                sx, sy = d["start"][key]
                start = (a.x, a.y)
                place(game, a, sx, sy, "assault_reaction")
                game.emit(Moved(a.uid, 0, 0.0, (round(start[0], 3), round(start[1], 3)), (round(sx, 3), round(sy, 3)),
                                True))
                if a.suppression < 3:
                    a.suppression += 1
                d["result"][key] = "driven_back"
                self._next_mover(d)
                return
        if not a.in_play:
            d["result"][key] = "destroyed"
            self._next_mover(d)
            return
        if d["second_ok"].get(key, False):
            d["stage"] = "second"
            return
        d["result"][key] = "fell_short"
        self._next_mover(d)

    def _follow(self, game, d, a: Unit) -> None:
        """Continue the assault on the chosen withdrawn defenders: one contact move toward the nearest; if it
        reaches, every chosen unit is engaged (they lie within DEFENDER_SPREAD of each other)."""
        key = str(a.uid)
        units = game.units
        d["target"][key] = min(d["follow"][key], key=lambda x: (math.hypot(units[x].x - a.x, units[x].y - a.y), x))
        self._contact_move(game, d, a, first=True, can_fire=False)

    def _next_mover(self, d) -> None:
        if d["movers"]:
            d["movers"].pop(0)
        d["stage"] = "move"

    def combat_pairs(self, game, d) -> list[dict]:
        """Pairings of units in contact, with the figures of each detachment."""
        units = game.units
        engaged = []
        for a_uid in d["contact"]:
            for x in d["pairs"][str(a_uid)]:
                t = units[x]
                if t.in_play and units[a_uid].in_play and (x not in d["withdrawn"]
                                                           or x in d["engaged"].get(str(a_uid), ())):
                    engaged.append((a_uid, x))
        pairs = []
        by_a: dict = {}
        by_d: dict = {}
        for a_uid, x in engaged:
            by_a.setdefault(a_uid, []).append(x)
            by_d.setdefault(x, []).append(a_uid)
        afig = {}
        for a_uid, ds in by_a.items():
            for x, figs in zip(ds, split_figures(units[a_uid], [strength(game, units[x]) for x in ds])):
                afig[(a_uid, x)] = figs
        dfig = {}
        for x, as_ in by_d.items():
            for a_uid, figs in zip(as_, split_figures(units[x], [strength(game, units[a]) for a in as_])):
                dfig[(a_uid, x)] = figs
        for a_uid, x in engaged:
            pairs.append({"a": a_uid, "d": x, "af": afig[(a_uid, x)], "df": dfig[(a_uid, x)]})
        return pairs

    def split_pairs(self, game, d) -> list[dict]:
        """The combat pairings with the special-weapon detachments chosen so far (in the order chosen)."""
        pairs = self.combat_pairs(game, d)
        for uid in d["split"]:
            out = []
            for p in pairs:
                side = "a" if p["a"] == uid else ("d" if p["d"] == uid else "")
                parts = split_special(game, p, side) if side else None
                out.extend(parts or [p])
            pairs = out
        return pairs

    def _next_special(self, game, d, pairs) -> int | None:
        """The next unit (attackers first) that may split off its special weapons and has not been asked."""
        order = list(d["attackers"]) + list(d["defenders"])
        for uid in order:
            if uid in d["split_asked"]:
                continue
            for p in pairs:
                for side in ("a", "d"):
                    if p[side] == uid and split_special(game, p, side) is not None:
                        return uid
        return None

    def _combat(self, game, d, pairs=None) -> None:
        if pairs is None:
            pairs = self.combat_pairs(game, d)
        if not pairs:
            return
        fight_pairs(game, pairs)
        self.apply_outcomes(game, d, [(p, *pair_outcome(game, p)) for p in pairs])

    def _vehicle_contacts(self, game, d) -> None:
        """Infantry Assaulting Vehicles (L1532): an attacker in contact with a vehicle (not a mech or monster) makes
        one impact roll against it instead of close combat, then withdraws towards cover (the vehicle rules'
        ``vehicle_assault.contact``, RN-142); it takes no part in the combat that follows."""
        units = game.units
        for a_uid in list(d["contact"]):
            a = units[a_uid]
            key = str(a_uid)
            for x in d["pairs"][key]:
                v = units[x]
                if (assaulted_vehicle(game, v) and v.in_play and a.in_play
                        and (x not in d["withdrawn"] or x in d["engaged"].get(key, ()))):
                    d["contact"].remove(a_uid)
                    game.rules.services["vehicle_assault"].contact(game, a, v)
                    d["result"][key] = "attacked_vehicle"
                    break

    def apply_outcomes(self, game, d, outcomes) -> None:
        """Each parent unit obeys the worst result: one withdrawal move, every confidence loss."""
        units = game.units
        wd: dict = {}
        levels: dict = {}
        away: dict = {}
        for p, loser, lv, _ in outcomes:
            if not loser:
                continue
            u = p["a"] if loser == "a" else p["d"]
            other = p["d"] if loser == "a" else p["a"]
            wd[u] = True
            levels[u] = levels.get(u, 0) + lv
            away.setdefault(u, []).append(units[other])
        for uid in sorted(wd):
            d["result"][str(uid)] = "lost_combat"
            withdraw(game, units[uid], away[uid], levels[uid], "lost the close combat")
        for a_uid in d["contact"]:
            d["result"].setdefault(str(a_uid), "won_combat" if a_uid not in wd else "lost_combat")

    def _finish(self, game, frame) -> None:
        """The assault is over: pop its frame; the activation below counts the actions it used (the attacker's
        activation ends when the assault ended it; a combined assault counts the commander's action)."""
        d = frame.data
        game.emit(AssaultEnded(tuple(d["attackers"]), tuple(d["defenders"]),
                               ",".join(f"{k}:{v}" for k, v in sorted(d["result"].items()))))
        below = game.activation_frame()
        used = d["count_below"]
        if below is not None and d["via_action"] and game.phase != "over":
            a_uid = d["attackers"][0]
            if game.units[a_uid].leader_lost and d["leader_ok"][str(a_uid)]:
                appoint_next_activation(below)  # the leader fell in the assault: reorganise next activation
            used = below.actions_left if d["end"].get(str(a_uid), True) else 1
        if game.phase != "over":
            game.phase = "action"
        pop(game, frame, used=used)


PROCEDURE = AssaultProcedure()


def begin_assault(game, attackers: list[int], defenders, *, via_action: bool = False, count_below: int = 1) -> None:
    """Start an assault: one attacker against one or several defenders, or several attackers (a
    combined assault ordered by a commander) against one defender.

    With ``via_action`` the first attacker's own activation frame is below (the Assault Action); the
    assault then counts the attacker's actions.  Otherwise (e.g. the command module's combined assault)
    the activation below counts ``count_below`` actions when the assault ends.  Both the attackers and
    the defenders are considered activated.
    """
    if isinstance(defenders, int):
        defenders = [defenders]
    attackers, defenders = [int(a) for a in attackers], [int(x) for x in defenders]
    if not attackers or not defenders:
        raise ValueError("an assault needs at least one attacker and one defender")
    if len(attackers) > 1 and len(defenders) > 1:
        raise ValueError("an assault is one attacker against several defenders or several attackers against one")
    sides = {game.units[a].side for a in attackers}
    if len(sides) != 1 or any(game.units[x].side in sides for x in defenders):
        raise ValueError("attackers must be of one side and defenders of the other")
    units = game.units
    two_inch = all(within_two_inches(units[a], units[x]) for a in attackers for x in defenders)
    for uid in attackers + defenders:
        units[uid].activated = True
    pairs = {str(a): list(defenders) for a in attackers}
    pair_of_def = {str(x): list(attackers) for x in defenders}
    data = {
        "stage": "response", "attackers": attackers, "defenders": defenders, "two_inch": two_inch,
        "via_action": bool(via_action), "count_below": int(count_below),
        "pairs": pairs, "pair_of_def": pair_of_def,
        "queue": [] if two_inch else list(defenders), "withdrawn": [], "old_pos": {},
        "movers": [], "cur": attackers[0], "target": {}, "start": {}, "contact": [], "engaged": {}, "follow": {},
        "split_asked": [], "split": [],
        "second_ok": {str(a): (not via_action) or game.activation_frame().actions_left >= 2 for a in attackers},
        "result": {}, "end": {}, "drops": {},
        "leader_ok": {str(a): not units[a].leader_lost for a in attackers},
    }
    game.emit(AssaultDeclared(tuple(attackers), tuple(defenders), two_inch))
    frame = Frame("assault", attackers[0], 0, False, data)
    game.stack.append(frame)
    game.invalidate()
    PROCEDURE.run(game, frame)


# ---------------------------------------------------------------------------------------- action + provider

def may_assault(game, u: Unit) -> bool:
    """The attacker's own restrictions: not suppressed, propped, disorganised, panicking or leaderless,
    and Confident or Steady (notes * and ** of the courage test)."""
    return (u.in_play and not u.suppression and not u.propped and u.confidence <= STEADY
            and not getattr(u, "panicked", False) and not u.leader_lost and not u.disorganised()
            and (u.kind in MECHS or vehicle_of(game, u) is None))  # vehicles tank-shock instead (RN-850)


def target_in_reach(game, u: Unit, e: Unit, reach: float | None = None) -> bool:
    """The target's leader within twice a maximum move (``reach``: ``assault_reach(u, game)`` if the caller has
    it), in line of sight, not completely concealed."""
    if e.complete_concealment or not e.in_play:
        return False
    vp = game.rules.services.get("vehicle_profile")  # (the vehicle rules: none in a game without vehicles)
    if vp is not None and (vp(game, e) is not None or vp(game, u) is not None) and not mech_assault(game, u, e):
        return False
    if reach is None:
        reach = assault_reach(u, game)
    dx, dy = e.x - u.x, e.y - u.y
    if dx * dx + dy * dy > reach * reach:
        return False
    return game.bf.has_los(u.x, u.y, e.x, e.y)


def mech_assault(game, u: Unit, e: Unit) -> bool:
    """Infantry, mechs and monsters assault one another as infantry (L1514; seed 003 Mechs under the house close
    combat, RN-854); other vehicles are assaulted by the Close Assault rules (``assault_vehicle``) and tank-shock."""
    return ((vehicle_of(game, u) is None or u.kind in MECHS)
            and (vehicle_of(game, e) is None or e.kind in MECHS))


def can_assault(game, u: Unit, e: Unit) -> bool:
    """Could ``u`` assault ``e`` now (used by the command module's combined assault too)."""
    return may_assault(game, u) and target_in_reach(game, u, e)


def assault_options(game, u: Unit, status) -> list:
    """("assault", enemy) for an unsuppressed, unpropped, Confident/Steady unit: the target's leader
    within twice a maximum move and in line of sight, not completely concealed, not routed off."""
    if status.suppressed or status.disorganised or u.propped or u.confidence > STEADY:
        return []
    reach = assault_reach(u, game)  # once for all the enemies
    return [("assault", e.uid) for e in game.enemy_units(u.side) if target_in_reach(game, u, e, reach)]


def extra_defenders(game, u: Unit, chosen: list[int]) -> list[int]:
    """Enemy units that ``u`` may take on in the same assault as ``chosen`` (seed 000 Multiple Units in Close
    Combat: "one large unit assaults two smaller units that are close enough together to be reached in the same
    move ... the attacker must be able to maintain unit coherency"): each a legal target on its own, within
    DEFENDER_SPREAD of every chosen unit, and one able figure at least for every detachment (RN-300)."""
    if len(chosen) >= u.n_able():
        return []
    units = game.units
    out = []
    for e in game.enemy_units(u.side):
        if e.uid in chosen or not target_in_reach(game, u, e):
            continue
        if all(figure_gap(e, units[c]) <= DEFENDER_SPREAD + 1e-9 for c in chosen):
            out.append(e.uid)
    return out


def followable(game, d: dict, a: Unit, chosen: list[int]) -> list[int]:
    """Withdrawn defenders (still on the table) of attacker ``a`` that it may follow together with ``chosen``."""
    units = game.units
    out = []
    for x in d["pairs"][str(a.uid)]:
        if x in chosen or x not in d["withdrawn"] or not units[x].in_play:
            continue
        if all(figure_gap(units[x], units[c]) <= DEFENDER_SPREAD + 1e-9 for c in chosen):
            out.append(x)
    return out


class DeclareProcedure:
    """Frame ``"assault_declare"``: after ``("assault", uid)`` the attacker may add more defenders (decision
    kind ``assault_targets``), then the assault begins against all of them."""

    def decision(self, game, frame):
        d = frame.data
        u = game.units[d["attacker"]]
        return Decision(u.side, "assault_targets", u.uid, (("defenders_chosen",),) + tuple(
            ("add_defender", e) for e in extra_defenders(game, u, d["defenders"])))

    def apply(self, game, frame, opt):
        d = frame.data
        u = game.units[d["attacker"]]
        if opt[0] == "add_defender":
            d["defenders"].append(int(opt[1]))
            if extra_defenders(game, u, d["defenders"]):
                return  # one more, or go
        game.stack.pop()
        begin_assault(game, [u.uid], d["defenders"], via_action=True)


DECLARE = DeclareProcedure()


def do_assault(game, u: Unit, opt) -> bool:
    first = [int(opt[1])]
    if extra_defenders(game, u, first):  # other enemy units could be taken on in the same assault
        game.stack.append(Frame("assault_declare", u.uid, 0, False, {"attacker": u.uid, "defenders": first}))
    else:
        begin_assault(game, [u.uid], first, via_action=True)
    return False  # the procedure counts the actions


RULE = Rule(
    "Assault Action", 'seed 000 "Assault Action" .. "The Two Inch Rule", "Multiple Units in Close Combat", '
    '"Special Close Combat Weapons"',
    options=(Option("close_combat", "dustup", "the close combat rules: 'dustup' (seed 000 Assault Action) or "
                    "'house' (seed 003's house close combat)", kind="choice", choices=("dustup", "house")),
             Option("courage_table", None, "the courage-test table: null (data/courage_test.json), a file path or "
                    "a table object", kind="any")),
    families=(Family("assault", ("enemy",), 12, "Assault Action: declare a close assault on an enemy unit"),
              Family("stand", (), 13, "the defender stands and takes the courage test"),
              Family("occupy", (), 14, "occupy the withdrawn defender's position (house close combat: either side)"),
              Family("contact", (), 15, "the attacker (first or second move) attempts to contact"),
              Family("halt", (), 16, "give up the second move to contact (house close combat: no occupy or pursuit)"),
              Family("fire", ("mode",), 17, "final defensive fire with these weapons"),
              Family("hold_fire", (), 18, "no final defensive fire"),
              Family("resolve", ("enemy",), 19, "retired: no rule offers it now (kept so that later indices keep "
                     "their meaning)"),
              Family("add_defender", ("enemy",), 32, "assault declaration: add another defender to the same assault"),
              Family("defenders_chosen", (), 33, "assault declaration / follow-up: no more units to add"),
              Family("follow", ("enemy",), 34, "several defenders withdrew: continue the assault on this one "
                     "(house close combat: pursue)"),
              Family("split_special", (), 35, "Special Close Combat Weapons: their figures fight as a detachment"),
              Family("no_split", (), 36, "... or stay in the unit's strike pool (the unit's impact)")),
    init=(init_hook,), actions={"assault": do_assault}, action_options=(assault_options,),
    procedures={"assault": PROCEDURE, "assault_declare": DECLARE},
    services={"assault": SimpleNamespace(begin=begin_assault, may_assault=may_assault, target_in_reach=target_in_reach,
                                         can_assault=can_assault, assault_reach=assault_reach)})
