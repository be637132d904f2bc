"""Electronic Warfare (seed 000 "Additional Rules › Electronic Warfare", L2024-2062).

* **EW units** (L2026-2028): a unit spec's ``"ew"`` rates its EW system ``inferior`` (D6), ``average`` (D8) or
  ``superior`` (D10); ``very_inferior`` (D4) and ``very_superior`` (D12) are allowed (RN-023).
* **Active and inactive** (L2030): when an EW unit is activated its counters of before lapse and its system is
  inactive; ``("ew_on",)``, which costs no action (RN-174), marks it active with three EW counters, the attempts it
  may make before its next activation.  With none left it is inactive again.
* **Extra chits** (L2042): an attempt costs one counter; each further counter spent on it shifts the EW die up one
  (closed at D12).
* **Jamming communications** (L2044-2046), **disrupting sensors and guidance** (L2054-2058): attempts made during
  the other side's action.  At the start of every activation of an enemy unit the EW side knows of, the EW side
  decides (frame ``ew_watch``, a decision of the EW side in the kernel's ``activation_start`` window) whether one of
  its active EW units listens to that activation, and with how many counters (``("ew_watch", uid, n)`` or
  ``("decline",)``); the acting side may then oppose it (frame ``ew_oppose``, ``("ew_oppose", uid, n)``).  The
  listening unit makes its one attempt against the activation's first rolled communication, Detect roll (the
  sensor die) or guided missile (the guidance die), and spends its counters then (RN-1750): the EW die rolls after
  the acting side's dice; beating the communication roll (whether or not that roll succeeded) cancels the message,
  beating the sensor or guidance roll makes the action fail (RN-174, RN-1751).  Setting-level jamming (game option
  ``jamming``, Communicate › Jamming) stays as it is and applies first: EW jamming joins it (RN-1752).
* **Remote spotting** (L2048-2052): ``("ew_spot", marker, n)`` by the active EW unit in its activation, costing no
  action: the marker's side may oppose (``ew_oppose``); the target die is D6 for a marker in concealing terrain, D4
  otherwise, one up when the EW unit does not see the marker; the EW die beating it reveals the hidden unit (or
  removes a dummy marker), whatever the line of sight.
* **Opposing enemy EW** (L2060-2062): the opposing unit's die (shifted by its extra counters) rolls after the EW die;
  beating it makes the EW attempt fail.

The two procedures' decisions are of the existing kind ``choose`` (their options name them: ``ew_watch``,
``ew_oppose``), so the observation's decision piece keeps its size (RN-1754).

Services for the rules whose rolls EW may spoil (each a no-op in a game without this rule): ``ew_jam(game,
sender, receiver, roll)`` (Communicate, a leader's call to its detachment, a fire-support request: RN-1942,
RN-1943), ``ew_sensor(game, observer, roll)`` (Detect, a drone's spotting), ``ew_guidance(game, firer, roll)``
(Guided Weapons): True when the attempt spoils the action.
"""
from __future__ import annotations

from array import array

from ..armoured_dustup.heavy_weapons import unit_specs
from ..forces.commanders import descendants
from ..kernel.battlefield import observer_of
from ..kernel.decisions import Decision, Frame
from ..kernel.dice import D4, D6, D8, D10, D12, die_name, shift_closed
from ..kernel.errors import ScenarioError
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, ObservationPiece, Rule
from ..kernel.sequence import pop, push
from ..kernel.state import Component
from ..unit_actions.hidden_units import MarkerRemoved, reveal

EW_DICE = {"very_inferior": D4, "inferior": D6, "average": D8, "superior": D10, "very_superior": D12}
COUNTERS = 3  # L2030: "the EW unit gets three EW counters"
TASKS = ("jam", "sensor", "guidance", "spot")


class EWState(Component):
    """The rule's state: every EW unit by uid (``{"die": "d8", "active": bool, "counters": n}``) and the EW units
    listening to an enemy activation, by the acting unit's uid (``{"unit", "counters", "side", "oppose": [uid, n] or
    None}``)."""

    __slots__ = ("ew_units", "ew_listening")


def ew_states(game) -> dict:
    """Every EW unit's state by uid (empty in a game without EW)."""
    st = game.components.get(EWState)
    return (st.ew_units if st is not None else None) or {}


@event
class EWSwitchedOn(Event):
    unit: int
    counters: int


@event
class EWListening(Event):
    unit: int  # the listening EW unit
    target: int  # the enemy unit whose activation it listens to
    counters: int


@event
class EWOpposing(Event):
    unit: int  # the opposing EW unit
    counters: int


@event
class EWAttempt(Event):
    unit: int  # the EW unit
    task: str  # jam | sensor | guidance | spot
    target: int  # the unit acted against (the receiver of a message, a missile's target), or -1
    marker: int  # remote spotting: the marker spotted (never what it hides), else -1
    die: str
    roll: int
    against: str  # the die it must beat
    against_roll: int
    defender: int  # the opposing EW unit, or -1 (hidden: the other side's log shows Hidden activity)
    opposing_die: str
    opposing_roll: int
    success: bool


# ---------------------------------------------------------------------------------------------- state
def _init(game) -> None:
    units = {}
    for uid, spec in unit_specs(game).items():
        v = spec.get("ew")
        if v is None:
            continue
        if v not in EW_DICE:
            raise ScenarioError(f"unit {spec.get('name')!r}: ew must be one of {', '.join(EW_DICE)}, not {v!r}")
        units[str(uid)] = {"die": die_name(EW_DICE[v]), "active": False, "counters": 0}
    if units:
        game.state_of(EWState).ew_units = units


def _state(game, uid: int) -> dict | None:
    return ew_states(game).get(str(uid))


def ew_die(game, uid: int, counters: int = 1) -> int:
    """The EW die of unit ``uid`` for an attempt using ``counters`` counters (each after the first one up, L2042)."""
    from ..kernel.dice import parse_die
    return shift_closed(parse_die(_state(game, uid)["die"]), max(0, counters - 1))


def _ready(game, side: int) -> list:
    """The side's EW units in play that are active, as (unit, counters left)."""
    out = []
    for k, s in ew_states(game).items():
        u = game.units[int(k)]
        if u.side == side and u.in_play and s["active"] and s["counters"] > 0:
            out.append((u, s["counters"]))
    return out


def _has_ew(game, side: int) -> bool:
    """The side has an EW unit in play (active or not: its decisions are asked alike, so they tell nothing)."""
    return any(game.units[int(k)].side == side and game.units[int(k)].in_play for k in ew_states(game))


def _spend(game, uid: int, n: int) -> None:
    s = _state(game, uid)
    s["counters"] = max(0, s["counters"] - n)
    if s["counters"] == 0:
        s["active"] = False  # L2030: "once they are used, the unit's EW capability is inactive"


def _count_options(game, name: str, side: int) -> list:
    return [(name, u.uid, n) for u, left in _ready(game, side) for n in range(1, min(COUNTERS, left) + 1)]


# ---------------------------------------------------------------------------------------------- activation
def _on_activation(game, u) -> None:
    """L2030: at its activation an EW unit's counters lapse; it is inactive until marked active."""
    s = _state(game, u.uid)
    if s is not None:
        s["active"], s["counters"] = False, 0


def _options(game, u, status) -> list:
    s = _state(game, u.uid)
    if s is None:
        return []
    if not s["active"]:
        return [] if game.stack[-1].data.get("ew_on") else [("ew_on",)]
    out = []
    for i, m in enumerate(game.markers):
        if not m["removed"] and m["side"] != u.side:
            out += [("ew_spot", i, n) for n in range(1, min(COUNTERS, s["counters"]) + 1)]
    return out


def _switch_on(game, u, opt) -> int:
    s = _state(game, u.uid)
    s["active"], s["counters"] = True, COUNTERS
    game.stack[-1].data["ew_on"] = True
    game.emit(EWSwitchedOn(u.uid, COUNTERS))
    return 0  # RN-174: marking the system active costs no action


# ---------------------------------------------------------------------------------------------- attempts
def _resolve(game, task: str, ew_uid: int, counters: int, target: int, against: int, against_roll: int,
             oppose, marker: int = -1) -> bool:
    """An EW attempt: the counters spent, the EW die rolled (after the acting side's dice), then the opposing die;
    True if the EW die beats ``against_roll`` and is not beaten by the opposing die."""
    die = ew_die(game, ew_uid, counters)
    _spend(game, ew_uid, counters)
    roll = game.dice.roll(die)
    ok = roll > against_roll
    by, odie, oroll = -1, "", 0
    if oppose is not None:
        ouid, on = oppose
        os_ = _state(game, ouid)
        if os_ is not None and game.units[ouid].in_play and os_["counters"] > 0:
            on = min(on, os_["counters"])
            od = ew_die(game, ouid, on)
            _spend(game, ouid, on)
            oroll = game.dice.roll(od)
            by, odie = ouid, die_name(od)
            if oroll > roll:  # L2062: "If the disruption die beats the EW die, the EW attempt has failed"
                ok = False
    game.emit(EWAttempt(ew_uid, task, target, marker, die_name(die), roll, die_name(against), against_roll, by, odie,
                        oroll, ok))
    return ok


def _listening(game, uid: int):
    st = game.components.get(EWState)
    lis = st.ew_listening if st is not None else None
    if not lis:
        return None
    return lis.get(str(uid))


def _spoils(game, task: str, actor, against: int, roll: int, target: int = -1) -> bool:
    """The EW unit listening to ``actor``'s activation makes its one attempt now (RN-1750)."""
    w = _listening(game, actor.uid)
    if w is None:
        return False
    del game.state_of(EWState).ew_listening[str(actor.uid)]
    s = _state(game, w["unit"])
    if s is None or not game.units[w["unit"]].in_play or s["counters"] <= 0:
        return False
    return _resolve(game, task, w["unit"], min(w["counters"], s["counters"]), target, against, roll, w["oppose"])


def ew_jam(game, sender, receiver, die: int, roll: int) -> bool:
    """L2046: the EW die exceeding the communication roll (whether or not it succeeded) makes it fail.  ``receiver``
    None: a fire-support request (the call off the table, RN-1943)."""
    return _spoils(game, "jam", sender, die, roll, -1 if receiver is None else receiver.uid)


def ew_sensor(game, observer, die: int, roll: int) -> bool:
    """L2056-2058: the EW die beating the sensor die's roll makes the detection fail (RN-174, RN-1751)."""
    return _spoils(game, "sensor", observer, die, roll)


def ew_guidance(game, firer, die: int, roll: int, target: int = -1) -> bool:
    """L2056-2058: the EW die beating the guidance die's roll makes the missile miss (RN-174, RN-1751)."""
    return _spoils(game, "guidance", firer, die, roll, target)


# ---------------------------------------------------------------------------------------------- windows
def _may_use_ew_targets(game, u) -> bool:
    """Whether ``u``'s activation may roll a communication, a Detect or a guided missile (what EW listens for)."""
    if any(not m["removed"] and m["side"] != u.side for m in game.markers):
        return True
    if descendants(game, u):
        return True
    units = game.units
    if any(units[v].parent == u.uid and units[v].in_play and not units[v].hidden for v in game.side_units[u.side]):
        return True  # the leader may call its detachment (one the EW side knows of): a communication (RN-1942)
    if game.scenario["sides"][u.side].get("fire_support"):
        return True  # a fire-support request, jammed as a communication (RN-1404, RN-1943)
    spec = unit_specs(game).get(u.uid, {})
    return "heavy_weapon" in spec or "design" in spec


def _activation_start(game, u) -> None:
    """The ``activation_start`` window: the other side may set an EW unit listening to this activation."""
    side = 1 - u.side
    if u.hidden or not _has_ew(game, side) or not _may_use_ew_targets(game, u):
        return  # the EW side does not know a hidden unit is acting
    push(game, Frame("ew_watch", u.uid, 0, False, {"side": side}))


def _activation_end(game, u, frame) -> None:
    st = game.components.get(EWState)
    if st is not None and st.ew_listening and str(u.uid) in st.ew_listening:
        del st.ew_listening[str(u.uid)]  # an unused listening attempt costs nothing


class Watch:
    """The EW side's decision at the start of an enemy activation: listen with one active EW unit, or not."""

    def decision(self, game, frame):
        side = frame.data["side"]
        # about the acting enemy unit (never a hidden one: no window opens for it)
        return Decision(side, "choose", frame.unit, tuple(_count_options(game, "ew_watch", side)) + (("decline",),))

    def apply(self, game, frame, opt):
        if opt[0] == "decline":
            pop(game, frame, used=0)
            return
        _, uid, n = opt
        st = game.state_of(EWState)
        if st.ew_listening is None:
            st.ew_listening = {}
        st.ew_listening[str(frame.unit)] = {"unit": uid, "counters": n, "side": frame.data["side"], "oppose": None}
        game.emit(EWListening(uid, frame.unit, n))
        actor_side = 1 - frame.data["side"]
        if _has_ew(game, actor_side):  # the acting side may oppose the attempt (L2062)
            push(game, Frame("ew_oppose", frame.unit, 0, False, {"side": actor_side, "listening": frame.unit}))
            pop(game, frame, resume=False)
            return
        pop(game, frame, used=0)


class Oppose:
    """A side's decision to oppose an enemy EW attempt with one of its active EW units (L2060-2062): one attempt
    listening to its own activation, or a remote spotting of its marker."""

    def decision(self, game, frame):
        side = frame.data["side"]
        return Decision(side, "choose", -1, tuple(_count_options(game, "ew_oppose", side)) + (("decline",),))

    def apply(self, game, frame, opt):
        d = frame.data
        oppose = None if opt[0] == "decline" else [opt[1], opt[2]]
        if oppose is not None:
            game.emit(EWOpposing(opt[1], opt[2]))
        if "listening" in d:
            w = _listening(game, d["listening"])
            if w is not None:
                w["oppose"] = oppose
        else:
            _remote_spot(game, d["spotter"], d["marker"], d["counters"], oppose)
        pop(game, frame, used=0)


# ---------------------------------------------------------------------------------------------- remote spotting
def spot_target_die(game, ew_unit, m) -> int:
    """L2052: D4 for a marker in the open, D6 in concealing terrain; one up when the EW unit does not see it."""
    die = D6 if game.bf.conceals(m["x"], m["y"]) else D4
    if not game.bf.sight_for(observer_of(ew_unit), ew_unit.x, ew_unit.y, m["x"], m["y"]).visible:
        die = shift_closed(die, 1)
    return die


def _spot(game, u, opt):
    _, i, n = opt
    m = game.markers[i]
    if _has_ew(game, m["side"]):  # the marker's side may oppose (L2062)
        push(game, Frame("ew_oppose", u.uid, 0, False, {"side": m["side"], "spotter": u.uid, "marker": i,
                                                         "counters": n}))
        return False
    _remote_spot(game, u.uid, i, n, None)
    return 0  # "at any time": no action (RN-1753)


def _remote_spot(game, uid: int, i: int, n: int, oppose) -> None:
    u = game.units[uid]
    m = game.markers[i]
    if m["removed"]:
        return
    die = spot_target_die(game, u, m)
    troll = game.dice.roll(die)
    target = m["unit"]
    if _resolve(game, "spot", uid, n, -1, die, troll, oppose, marker=i):
        if target < 0:
            m["removed"] = True
            game.emit(MarkerRemoved(i, "dummy"))
        else:
            reveal(game, game.units[target], "detected")


def _applies(scenario: dict, options: dict) -> bool:
    return any("ew" in u for side in scenario["sides"] for u in side["units"])


# ---------------------------------------------------------------------------------------------- observation
EW_FEATURES = ("ew_die", "ew_active", "ew_counters", "ew_listening", "drone_sensor", "drone_flying", "drone_x",
               "drone_y")
EWF = len(EW_FEATURES)
_DIE01 = {"d4": 0.2, "d6": 0.4, "d8": 0.6, "d10": 0.8, "d12": 1.0}


def observe_ew(obs, b, off) -> None:
    """The ``electronic_warfare`` piece: per unit slot, the unit's EW system (its die, active, counters left / 3,
    listening to the current enemy activation) and its small drone (sensor die, flying, the drone's x and y / the
    table, mirrored for a flipped side).  The enemy's EW counters are on the table: shown for the enemy units the
    side sees, never for a hidden one; the enemy's drones are known to their owner only (RN-1761): never shown."""
    g = obs.game
    ew = ew_states(g)
    st = g.components.get(EWState)
    listening = {w["unit"] for w in ((st.ew_listening if st is not None else None) or {}).values()}
    drones = g.rules.services.get("drone_states")
    dr = drones(g) if drones is not None else {}
    W, H, flip = obs.width, obs.height, obs.flip
    for u, o, _k, enemy, concealed in obs.slot_rows(off, EWF):
        row = [0.0] * EWF
        if not concealed:
            s = ew.get(str(u.uid))
            if s is not None:
                row[0] = _DIE01.get(s["die"], 0.0)
                row[1] = 1.0 if s["active"] else 0.0
                row[2] = s["counters"] / COUNTERS
                row[3] = 1.0 if u.uid in listening else 0.0
            eid = dr.get(str(u.uid))
            if eid is not None and not enemy:
                e = g.entities[eid]
                row[4] = _DIE01.get(e["state"]["sensor"], 0.0)
                if e["state"]["flying"]:
                    row[5] = 1.0
                    row[6] = e["x"] / W
                    row[7] = (H - e["y"]) / H if flip else e["y"] / H
        b[o:o + EWF] = array("f", row)


EW_PIECE = ObservationPiece("electronic_warfare", 26, ("units", EWF), EW_FEATURES, write=observe_ew,
                            doc="Additional Rules: each unit slot's EW system (die, active, counters, listening) and "
                                "its small drone (sensor, flying, position)")


FAMILIES = (Family("ew_on", (), 260, "mark the unit's EW system active: three EW counters (no action)"),
            Family("ew_spot", ("marker", (1, 2, 3)), 261,
                   "remote spotting of a hidden-unit marker with 1-3 EW counters (no action)"),
            Family("ew_watch", ("own", (1, 2, 3)), 262,
                   "this EW unit listens to the enemy activation, spending 1-3 counters on its attempt"),
            Family("ew_oppose", ("own", (1, 2, 3)), 263, "this EW unit opposes the enemy EW attempt with 1-3 counters"))

RULE = Rule(
    "Electronic Warfare", 'seed 000 "Additional Rules › Electronic Warfare" (Jamming Communications, Remote Spotting, '
    'Disruption of Enemy Sensors and Guidance, Oppose Enemy EW Attempts)',
    applies=_applies, families=FAMILIES, init=(_init,), on_activation=(_on_activation,),
    action_options=(_options,), actions={"ew_on": _switch_on, "ew_spot": _spot},
    activation_end=(_activation_end,), reactions={"activation_start": _activation_start},
    procedures={"ew_watch": Watch(), "ew_oppose": Oppose()}, observation=(EW_PIECE,),
    services={"ew_jam": ew_jam, "ew_sensor": ew_sensor, "ew_guidance": ew_guidance, "ew_states": ew_states})
