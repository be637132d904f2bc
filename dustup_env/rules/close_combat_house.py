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
- a squad engaged by several enemy squads splits its attacks evenly between them but takes one
  reaction test per pairing with the total casualties it suffered.

Night Fighting is the game option ``night`` (see ``Game._plan_mode``).
"""
from __future__ import annotations


from . import game as _game
from .assault_action import CourageTested, StrikeResolved, apply_hits, courage_roll, strike_dice, withdraw
from .dice import die_max, die_name, shift_closed
from .events import LeaderLost
from .forces import BROKEN, KILLED, OK, ROUTED, SHAKEN, WOUNDED

HOUSE_MAX_ROUNDS = 3
MORALE_ROWS = ("confident", "shaken")  # the house rules put morale on the quality die instead
MORALE_SHIFT = {SHAKEN: -1, BROKEN: -2, ROUTED: -3}

__all__ = ["house_start", "house_decision", "house_apply", "melee_dice", "resolve_melee", "HOUSE_MAX_ROUNDS"]


def morale_shift(u) -> int:
    return MORALE_SHIFT.get(u.confidence, 0)


def melee_dice(u, figs) -> tuple[list[int], bool]:
    """Melee die (sum of melee values rounded up to a die, D4 at least) + special melee dice; returns
    (dice, over_12): a total above 12 rolls a D12 and the defender takes one -1 shift.  The same pool
    as the Assault Action's strike dice."""
    return strike_dice(u, figs)


def resolve_melee(dice, *, quality: int, melee: list[int], target: int, extra_hits: bool = True):
    """Opposed melee roll: (target_roll, rolls, successes, result, hits).  No doubling on a major
    result; one success is a "threat" (no casualties)."""
    t = dice.roll(target)
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


def _pairs(proc, game, d) -> list[dict]:
    """House pairings: every unit's able figures split evenly between its opponents (strikers)."""
    base = proc.combat_pairs(game, d)
    units = game.units
    by_a: dict = {}
    by_d: dict = {}
    for p in base:
        by_a.setdefault(p["a"], []).append(p)
        by_d.setdefault(p["d"], []).append(p)
    for a_uid, ps in by_a.items():
        for p, figs in zip(ps, _even_split(units[a_uid].able(), len(ps))):
            p["af"] = figs
    for x, ps in by_d.items():
        for p, figs in zip(ps, _even_split(units[x].able(), len(ps))):
            p["df"] = figs
    return [{"a": p["a"], "d": p["d"], "af": p["af"], "df": p["df"]} for p in base]


def house_start(game, frame) -> None:
    from .assault_action import PROCEDURE
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
            dice, over = melee_dice(s, sf)
            q = shift_closed(s.quality, morale_shift(s))
            tshift = morale_shift(t) - (1 if over else 0)
            if rnd == 1 and tside == "d" and (t.propped or game.bf.in_cover(t.x, t.y)):
                tshift += 1  # first round: the defender in position or in cover
            tdie = shift_closed(t.quality, tshift)
            tr, rolls, succ, result, hits = resolve_melee(game.dice, quality=q, melee=dice, target=tdie,
                                                          extra_hits=game.options["extra_hits"])
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
                    elif f.status == WOUNDED:
                        w += 1
            cas = cas_by_unit.get(u.uid, {})
            p[side + "_cas"] = {"wounded": w, "killed": k, "leader": bool(cas.get("leader"))}
            if cas.get("leader") and not u.leader_lost and u.figures[u.leader].status != OK:
                u.leader_lost = True
                game.emit(LeaderLost(u.uid, u.leader))
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
    _advance(game, frame)


def _advance(game, frame) -> None:
    d = frame.data
    h = d["house"]
    if h["queue"]:
        d["stage"] = "house"
        return
    _reactions(game, frame)


def house_decision(game, frame):
    h = frame.data["house"]
    u = game.units[h["queue"][0]]
    return _game.Decision(u.side, "assault_response", u.uid, (("stand",), ("withdraw",)))


def house_apply(game, frame, opt) -> None:
    d = frame.data
    h = d["house"]
    uid = h["queue"].pop(0)
    if opt[0] == "withdraw":
        h["withdrew"].append(uid)
        units = game.units
        away = [units[p["d"] if p["a"] == uid else p["a"]] for p in h["pairs"] if uid in (p["a"], p["d"])]
        withdraw(game, units[uid], away, 1, "voluntary withdrawal from close combat")
        d["result"][str(uid)] = "withdrew"
        # units left with no opponent in the combat are not asked
        engaged = set()
        for p in h["pairs"]:
            if p["a"] not in h["withdrew"] and p["d"] not in h["withdrew"]:
                engaged.update((p["a"], p["d"]))
        h["queue"] = [u for u in h["queue"] if u in engaged]
    _advance(game, frame)


def _reactions(game, frame) -> None:
    """Reaction tests of the pairings still engaged; draws fight another round."""
    from .assault_action import PROCEDURE
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
    again = [p for p in again if units[p["a"]].in_play and units[p["d"]].in_play]
    if again:
        h["round"] += 1
        h["pairs"] = again
        _round(game, frame)
        return
    d["stage"] = "done"
