"""Close combat house rules (seed 003 "Stargrunt House Rules": Close Combat, Voluntary Withdrawal,
Multiple Squads in Close Combat, Night Fighting), game option ``close_combat: "house"``.

Initiation (courage test, move to contact, final defensive fire) is the standard Assault Action.
Once in contact, combat is squad against squad in rounds:

- the striker rolls its quality die and a melee die (the total melee value of the squad's weapons
  rounded up to a die, D4 at least) plus special melee weapon dice; a total above 12 rolls a D12 and
  shifts the defender's die down once (the author's "Clarification/Alteration" comment);
- the target rolls its quality die, +1 shift in the first round only if it is the defender and in
  cover or in position (propped);
- both quality dice are shifted down for morale below steady: shaken -1, broken -2, routed -3;
- one success: no casualty but +1 threat level (a -1 shift on the target's reaction test); two or
  more: total / target die type potential hits (remainder chance on the target die), impact vs armour;
- casualties of both strikes are removed together at the end of the round;
- after each round each unit may voluntarily withdraw (one combat move, -1 confidence); then the
  reaction test (the standard outcome test with the casualty rows, morale applied to the quality die):
  the loser withdraws; a draw continues the combat (up to HOUSE_MAX_ROUNDS rounds, then the attacker
  withdraws without a drop as in the standard draw);
- a squad engaged by several enemy squads splits its attacks evenly between them (its able figures,
  anew each round) but takes one reaction test per pairing with the total casualties it suffered;
- after a voluntary withdrawal the opposing squads left in the combat may occupy the vacated position
  (decision ``house_occupy``: ``("occupy",)`` / ``("halt",)``, RN-402);
- optional pursuit (game option ``house_pursuit``, default off as the author advises): the winner of a
  reaction test may pursue the withdrawing loser (decision ``house_pursuit``: ``("halt",)`` /
  ``("follow", uid)``), rolling its own movement die; if it catches it, a further round is fought at the
  loser's new morale (RN-401).

Night Fighting is the game option ``night`` (see ``Game._plan_mode``).
"""
from __future__ import annotations

import math
from types import SimpleNamespace

from ..unit_actions.assault_action import (PROCEDURE, CourageTested, StrikeResolved, apply_hits, contact_move, courage_roll,
    occupy, strike_dice, withdraw)
from ..kernel.dice import die_max, die_name, shift_closed
from ..kernel.events import Event, LeaderLost, event
from ..kernel.entities import BROKEN, KILLED, OK, ROUTED, SHAKEN, TREATED, WOUNDED
from ..kernel.decisions import Decision
from ..kernel.ruleset import Option, Rule
from ..kernel.errors import ScenarioError
from ..morale.confidence_test import confidence_test

HOUSE_MAX_ROUNDS = 3
MORALE_ROWS = ("confident", "shaken")  # the house rules put morale on the quality die instead
MORALE_SHIFT = {SHAKEN: -1, BROKEN: -2, ROUTED: -3}

__all__ = ["house_start", "house_decision", "house_apply", "melee_dice", "resolve_melee", "HOUSE_MAX_ROUNDS",
           "Pursued"]


@event
class Pursued(Event):
    unit: int  # the pursuer
    target: int  # the withdrawing unit
    roll: int
    points: float
    start: tuple
    end: tuple
    caught: bool


def morale_shift(u) -> int:
    return MORALE_SHIFT.get(u.confidence, 0)


def melee_dice(game, u, figs) -> tuple[list[int], bool]:
    """Melee die (sum of melee values rounded up to a die, D4 at least) + special melee dice; returns
    (dice, over_12): a total above 12 rolls a D12 and the defender takes one -1 shift.  The same pool
    as the Assault Action's strike dice."""
    return strike_dice(game, u, figs)


def resolve_melee(dice, *, quality: int, melee: list[int], target: int, extra_hits: bool = True, defence: int = 1):
    """Opposed melee roll: (target_roll, rolls, successes, result, hits).  No doubling on a major
    result; one success is a "threat" (no casualties).  ``defence``: a mech's size, multiplying its defence roll
    (seed 003 Mechs, RN-854)."""
    t = dice.roll(target) * defence
    rolls = [dice.roll(quality)] + [dice.roll(m) for m in melee]
    successes = sum(1 for r in rolls if r > t)
    if successes == 0:
        return t, tuple(rolls), 0, "none", 0
    if successes == 1:
        return t, tuple(rolls), 1, "threat", 0
    hits, rem = divmod(sum(rolls), die_max(target))
    if extra_hits and rem and dice.roll(target) <= rem:
        hits += 1
    return t, tuple(rolls), successes, "major", hits


def _even_split(figs: list[int], k: int) -> list[list[int]]:
    out, pos = [], 0
    for j in range(k):
        n = len(figs) // k + (1 if j < len(figs) % k else 0)
        out.append(figs[pos: pos + n])
        pos += n
    return out


def _assign(game, base) -> list[dict]:
    """House pairings ``{"a", "d", "af", "df"}``: every unit's able figures (now) split evenly between its
    opponents (its strikers in each pairing)."""
    units = game.units
    pairs = [{"a": p["a"], "d": p["d"]} for p in base]
    by_a: dict = {}
    by_d: dict = {}
    for p in pairs:
        by_a.setdefault(p["a"], []).append(p)
        by_d.setdefault(p["d"], []).append(p)
    for a_uid, ps in by_a.items():
        for p, figs in zip(ps, _even_split(units[a_uid].able(), len(ps))):
            p["af"] = figs
    for x, ps in by_d.items():
        for p, figs in zip(ps, _even_split(units[x].able(), len(ps))):
            p["df"] = figs
    return pairs


def _pairs(proc, game, d) -> list[dict]:
    """The first round's house pairings (the units in contact)."""
    return _assign(game, proc.combat_pairs(game, d))


def house_start(game, frame) -> None:
    d = frame.data
    pairs = _pairs(PROCEDURE, game, d)
    if not pairs:
        d["stage"] = "done"
        return
    d["house"] = {"round": 1, "pairs": pairs, "queue": [], "out": []}
    _round(game, frame)


def _round(game, frame) -> None:
    """One round: every pairing strikes both ways, then the casualties are removed together."""
    d = frame.data
    h = d["house"]
    units = game.units
    rnd = h["round"]
    pending = []  # (striker, target, hits, pair index, side of target)
    before = {}
    for u in {p["a"] for p in h["pairs"]} | {p["d"] for p in h["pairs"]}:
        before[u] = [f.status for f in units[u].figures]
    for k, p in enumerate(h["pairs"]):
        p["threat_a"] = p["threat_d"] = 0
        a, x = units[p["a"]], units[p["d"]]
        for s, t, sf, tside in ((a, x, p["af"], "d"), (x, a, p["df"], "a")):
            if s.confidence == ROUTED or not sf or not s.in_play:
                continue
            dice, over = melee_dice(game, s, sf)
            q = shift_closed(s.quality, morale_shift(s))
            tshift = morale_shift(t) - (1 if over else 0)
            if rnd == 1 and tside == "d" and (t.propped or game.bf.in_cover(t.x, t.y)):
                tshift += 1  # first round: the defender in position or in cover
            mech = t.profile.vehicle
            tdie = shift_closed(t.quality if mech is None or not t.veh.damage else
                                game.rules.services["defending_quality"](t), tshift)
            tr, rolls, succ, result, hits = resolve_melee(game.dice, quality=q, melee=dice, target=tdie,
                                                          extra_hits=game.options["extra_hits"],
                                                          defence=1 if mech is None else mech.size)
            game.emit(StrikeResolved(s.uid, t.uid, rnd, die_name(tdie), tr,
                                     tuple(die_name(v) for v in [q] + dice), rolls, succ, result, hits))
            if result == "threat":
                p["threat_" + tside] += 1
            pending.append((s.uid, t.uid, hits, k, tside))
    # casualties are removed when the round is complete: allocated among the whole target unit
    cas_by_unit: dict = {}
    for s_uid, t_uid, hits, k, tside in pending:
        if hits:
            t = units[t_uid]
            figs = [i for i, f in enumerate(t.figures) if f.status != KILLED]
            cas = cas_by_unit.setdefault(t_uid, {})
            apply_hits(game, units[s_uid], t, figs, hits, cas)
    for p in h["pairs"]:
        for side in ("a", "d"):
            u = units[p[side]]
            w = k = 0
            for i, f in enumerate(u.figures):
                if f.status != before[u.uid][i]:
                    if f.status == KILLED:
                        k += 1
                    elif f.status in (WOUNDED, TREATED):  # TREATED: a power-armoured trooper stabilised (L1058)
                        w += 1
            cas = cas_by_unit.get(u.uid, {})
            p[side + "_cas"] = {"wounded": w + cas.get("damage", 0), "killed": k,  # a mech's markers: RN-852
                                "leader": bool(cas.get("leader"))}
            if cas.get("leader") and not u.leader_lost and u.figures[u.leader].status != OK:
                u.leader_lost = True
                game.emit(LeaderLost(u.uid, u.leader))
                if u.in_play:  # Death of a Leader (L1186): the unit tests at once, besides the outcome test
                    confidence_test(game.dice, u, ["leader_casualty"], events=game.events)
                [hook(game, u) for hook in game.rules.on_leader_lost]  # a commander falling in close combat: subordinates test (RN-250)
    # voluntary withdrawal: defenders first, then attackers (units still able to fight)
    q = []
    for p in h["pairs"]:
        if p["d"] not in q:
            q.append(p["d"])
    for p in h["pairs"]:
        if p["a"] not in q:
            q.append(p["a"])
    h["queue"] = [u for u in q if units[u].in_play and units[u].confidence != ROUTED]
    h["withdrew"] = []
    h["vacated"] = {}
    h["step"] = "withdraw"
    _advance(game, frame)


def _advance(game, frame) -> None:
    """Next pending decision of the round (withdraw, occupy, pursue), else the next automatic step."""
    d = frame.data
    h = d["house"]
    while True:
        step = h["step"]
        if step == "withdraw":
            if h["queue"]:
                break
            h["occupy"] = _occupiers(game, h)
            h["step"] = "occupy"
        elif step == "occupy":
            if h["occupy"]:
                break
            _reactions(game, frame)
            return
        elif step == "pursue":
            if h["pursue"]:
                break
            _next_round(game, frame)
            return
        else:  # pragma: no cover - no other step
            raise RuntimeError(f"house close combat has no step {step!r}")
    d["stage"] = "house"


def _engaged(h) -> set:
    """Units of the round's pairings in which neither unit withdrew voluntarily."""
    engaged = set()
    for p in h["pairs"]:
        if p["a"] not in h["withdrew"] and p["d"] not in h["withdrew"]:
            engaged.update((p["a"], p["d"]))
    return engaged


def _can_move_on(u) -> bool:
    return u.in_play and u.confidence != ROUTED and u.n_able() > 0


def _occupiers(game, h) -> list:
    """Seed 003 Voluntary Withdrawal: "The opposing squad(s) left in the combat automatically occupy the
    vacated position (if desired)" -- every opponent of a unit that withdrew after this round, still able to
    move and no longer engaged with another enemy unit, may occupy the nearest vacated position (RN-402).
    Returns ``[[uid, x, y], ...]`` in the order of the withdrawals."""
    units = game.units
    engaged = _engaged(h)
    out, seen = [], set()
    for w in h["withdrew"]:
        for p in h["pairs"]:
            if w not in (p["a"], p["d"]):
                continue
            o = p["d"] if p["a"] == w else p["a"]
            if o in seen or o in h["withdrew"] or o in engaged or not _can_move_on(units[o]):
                continue
            seen.add(o)
            u = units[o]
            spots = [h["vacated"][str(x)] for x in h["withdrew"] if any(
                {x, o} == {q["a"], q["d"]} for q in h["pairs"])]
            x, y = min(spots, key=lambda v: math.hypot(v[0] - u.x, v[1] - u.y))
            out.append([o, x, y])
    return out


def house_decision(game, frame):
    h = frame.data["house"]
    units = game.units
    if h["step"] == "withdraw":
        u = units[h["queue"][0]]
        return Decision(u.side, "assault_response", u.uid, (("stand",), ("withdraw",)))
    if h["step"] == "occupy":
        u = units[h["occupy"][0][0]]
        return Decision(u.side, "house_occupy", u.uid, (("occupy",), ("halt",)))
    uid, targets = h["pursue"][0]
    u = units[uid]
    return Decision(u.side, "house_pursuit", u.uid, (("halt",),) + tuple(("follow", x) for x in targets))


def house_apply(game, frame, opt) -> None:
    d = frame.data
    h = d["house"]
    units = game.units
    if h["step"] == "occupy":
        uid, x, y = h["occupy"].pop(0)
        if opt[0] == "occupy":
            occupy(game, units[uid], x, y)
            d["result"][str(uid)] = "occupied"
    elif h["step"] == "pursue":
        uid, _ = h["pursue"].pop(0)
        if opt[0] == "follow":
            _pursue(game, h, units[uid], units[int(opt[1])])
    else:
        uid = h["queue"].pop(0)
        if opt[0] == "withdraw":
            h["withdrew"].append(uid)
            u = units[uid]
            h["vacated"][str(uid)] = [u.x, u.y]
            away = [units[p["d"] if p["a"] == uid else p["a"]] for p in h["pairs"] if uid in (p["a"], p["d"])]
            withdraw(game, u, away, 1, "voluntary withdrawal from close combat")
            d["result"][str(uid)] = "withdrew"
            # units left with no opponent in the combat are not asked
            engaged = _engaged(h)
            h["queue"] = [u for u in h["queue"] if u in engaged]
    _advance(game, frame)


def _pursue(game, h, u, t) -> None:
    """Seed 003 pursuit: ``u`` rolls its own movement die (x2 inches, the movement rules of a contact move:
    terrain, obstacles, 2" from other enemy units) toward the withdrawing unit ``t``; reaching it (base
    contact, RN-401) catches it for a further round, else ``u`` stops as far as able, 2" away."""
    roll, points, start, caught = contact_move(game, u, t, game.movement_die(u))
    game.emit(Pursued(u.uid, t.uid, roll, points, (round(start[0], 3), round(start[1], 3)),
                      (round(u.x, 3), round(u.y, 3)), caught))
    if caught:
        h["caught"].append([h["winners"][str(u.uid)][str(t.uid)], u.uid, t.uid])


def _reactions(game, frame) -> None:
    """Reaction tests of the pairings still engaged; draws fight another round."""
    d = frame.data
    h = d["house"]
    units = game.units
    remaining = [p for p in h["pairs"] if p["a"] not in h["withdrew"] and p["d"] not in h["withdrew"]
                 and units[p["a"]].in_play and units[p["d"]].in_play]
    outcomes = []
    again = []
    for p in remaining:
        a, x = units[p["a"]], units[p["d"]]
        # total casualties suffered by each unit this round (multiple squads: the whole unit's)
        extra_a = [("house_morale", morale_shift(a))] if morale_shift(a) else []
        extra_d = [("house_morale", morale_shift(x))] if morale_shift(x) else []
        if p["threat_a"]:
            extra_a.append(("threat", -p["threat_a"]))
        if p["threat_d"]:
            extra_d.append(("threat", -p["threat_d"]))
        a_gone, d_gone = a.n_able() == 0, x.n_able() == 0
        if a_gone or d_gone:
            continue
        A, D, ad, dd, ash, dsh = courage_roll(game, a, x, final=True, att_cas=p["a_cas"], def_cas=p["d_cas"],
                                              extra_att=extra_a, extra_def=extra_d, skip=MORALE_ROWS)
        if A > D:
            res, loser, lv = ("defender_loses_two" if A > 2 * D else "defender_loses"), "d", (2 if A > 2 * D else 1)
        elif D > A:
            res, loser, lv = ("attacker_loses_two" if D > 2 * A else "attacker_loses"), "a", (2 if D > 2 * A else 1)
        elif h["round"] < HOUSE_MAX_ROUNDS:
            res, loser, lv = "draw_continue", "", 0
            again.append(p)
        else:
            res, loser, lv = "draw", "a", 0
        game.emit(CourageTested(a.uid, x.uid, True, die_name(ad), die_name(dd), tuple(ash), tuple(dsh), A, D, res))
        if loser:
            outcomes.append((p, loser, lv, 0))
    PROCEDURE.apply_outcomes(game, d, outcomes)
    losers = {p[loser] for p, loser, _, _ in outcomes}
    # a draw fights on only where neither unit withdrew after losing another pairing
    again = [p for p in again if units[p["a"]].in_play and units[p["d"]].in_play
             and p["a"] not in losers and p["d"] not in losers]
    h["next"] = [{"a": p["a"], "d": p["d"]} for p in again]
    h["pursue"], h["caught"], h["winners"] = _pursuers(game, outcomes, losers, again), [], {}
    for uid, targets in h["pursue"]:
        w = h["winners"].setdefault(str(uid), {})
        for p, loser, _, _ in outcomes:
            if uid in (p["a"], p["d"]) and p[loser] in targets:
                w[str(p[loser])] = "a" if p["a"] == uid else "d"  # the pursuer's role in the pairing
    h["step"] = "pursue"
    _advance(game, frame)


def _pursuers(game, outcomes, losers, again) -> list:
    """Seed 003 optional pursuit (game option ``house_pursuit``): "If a squad withdraws as a result of the
    morale, the opposing squad has the option to pursue" -- the winner of a reaction test whose loser withdrew
    with a confidence drop and is still on the table, if the winner can move on (not routed, not withdrawing
    itself, not still fighting a draw). Returns ``[[winner, [losers]], ...]``."""
    if not game.options["house_pursuit"]:
        return []
    units = game.units
    busy = {p["a"] for p in again} | {p["d"] for p in again}
    out: dict = {}
    for p, loser, lv, _ in outcomes:
        w, t = (p["d"], p["a"]) if loser == "a" else (p["a"], p["d"])
        if lv <= 0 or w in losers or w in busy or not _can_move_on(units[w]) or not units[t].in_play:
            continue
        targets = out.setdefault(w, [])
        if t not in targets:
            targets.append(t)
    return [[w, ts] for w, ts in out.items()]


def _next_round(game, frame) -> None:
    """Another round for the draws and the caught pursuits (the pursuer keeps its role), else the end."""
    d = frame.data
    h = d["house"]
    units = game.units
    base = list(h["next"])
    for role, w, t in h["caught"]:
        base.append({"a": w, "d": t} if role == "a" else {"a": t, "d": w})
    base = [p for p in base if units[p["a"]].in_play and units[p["d"]].in_play]
    if base:
        h["round"] += 1
        h["pairs"] = _assign(game, base)
        _round(game, frame)
        return
    d["stage"] = "done"


def _validate(options: dict) -> None:
    if options["house_pursuit"] and options["close_combat"] != "house":
        raise ScenarioError("game option house_pursuit needs close_combat 'house' (seed 003's optional pursuit)")


RULE = Rule("House close combat", 'seed 003 "Close Combat" (house rules)',
            applies=lambda scenario, options: options["close_combat"] == "house",
            options=(Option("house_pursuit", False, "with close_combat 'house': seed 003's optional pursuit of a unit "
                            "withdrawing after a lost reaction test (RN-401)"),),
            validate=_validate,
            services={"house_close_combat": SimpleNamespace(start=house_start, decision=house_decision,
                                                            apply=house_apply)})
