"""Fire missions between the request and the impact (seed 000 "Successful Request", L1644-1656; "Equipment › The
Inbound Chart"; "Dummy Targets", L1658-1660).

* **The delay table** (:data:`DELAY`, L1648-1654): a successful request's counter goes on the inbound track in the
  box of its delay: company or platoon support in box 1 ("on the next turn"), battalion in box 2 ("after two
  turns"), regimental, orbital and air in box 3 ("after three turns").  On-table artillery (an asset whose firer is
  ``on_table``, naming its firing unit) has no counter: its mission waits for the firing unit's next activation
  ("When the firing unit next activates"), and lands at its start, as one of its two actions; a mission whose
  firing unit has left play is cancelled at the turn's end (RN-1405).
* **The counters** (RN-006, RN-1407): at the start of every turn each fire-support counter moves one box (3 -> 2
  -> 1 -> the battle area) by itself (the delay is a time, unlike a reinforcement's counter, which moves instead
  of an activation, RN-360); a counter in the battle area is a **due** mission.  A due mission is one activation
  of its side that turn, not a unit's (the kernel's activations that are not units: it counts for passing and
  in every activation sequence: alternate, chits, cards, seizing the initiative): ``("fire_mission", k)``
  resolves the impact of the side's k-th due mission (L1656: "the player may choose to resolve a fire support
  impact instead of activating a unit"), ``("hold_mission", k)`` holds it: its counter goes to the **loiter
  box** beside box 1.  A due mission not resolved by the end of its turn goes there too.  At the next turn's
  start every counter in the loiter box comes back to the battle area (RN-006: one move), due again.
* **The impact**: the markers come off the table (the real one's position revealed, event
  ``FireMissionArrived``) and :func:`.impacts.resolve_mission` resolves it from the mission's plain data
  (docs/architecture.md; the observer is the requestor while it is on the table, RN-1408).
"""
from __future__ import annotations

from . import impacts
from . import on_table_artillery as ota
from ..kernel import table
from ..kernel.events import Event, event
from ..kernel.ruleset import Family, Rule
from .fire_support_request import (FIRERS, MARKER, TargetMarkersPlaced, assets, fire_support_state,
                                   has_fire_support)

# the box of the inbound track a firer's counter starts in: its delay in turns (L1648-1654)
DELAY = {"company": 1, "battalion": 2, "regimental": 3, "orbital": 3, "air": 3}
ON_TABLE = "on_table"  # the delay table's first row: "When the firing unit next activates" (RN-1405)
MAX_DUE = 4  # due missions a decision names (the action layout's slots)
INBOUND, DUE, LOITER, FIRED = "inbound", "due", "loiter", "fired"
WAITING, CANCELLED = "waiting", "cancelled"  # on-table artillery: for the firing unit's next activation


@event
class FireSupportCounterMoved(Event):
    side: int
    mission: int
    box: int  # 3, 2, 1, 0 (the battle area: due), -1 (the loiter box)


@event
class FireMissionHeld(Event):
    side: int
    mission: int


@event
class FireMissionCancelled(Event):
    side: int
    mission: int  # on-table artillery whose firing unit left play before it fired


@event
class FireMissionArrived(Event):
    side: int
    mission: int
    asset: int
    x: float  # the real target marker's position (revealed now)
    y: float


def _missions(game) -> list:
    st = fire_support_state(game)
    return st["missions"] if st is not None else []


def missions(game, side: int) -> list:
    """The side's own missions (plain dicts: ``n``, ``asset``, ``requestor``, ``turn``, ``box``, ``state``, its
    ``markers`` and the ``real`` one), oldest first; nothing of the enemy's (empty without fire support)."""
    return [m for m in _missions(game) if m["side"] == side]


def add_mission(game, side: int, asset: int, requestor: int, points: list) -> dict:
    """A successful request's mission: its markers on the table (``points[0]`` the real one), its counter on the
    inbound track in the box of its delay."""
    firer = assets(game, side)[asset]["firer"]
    ms = _missions(game)
    n = sum(1 for m in ms if m["side"] == side)
    real = points[0]
    eids, real_eid = [], -1
    for p in sorted(points):  # placed in the order of their positions: the refs say nothing of which is real
        eid = table.add(game, MARKER, p[0], p[1], owner=side, state={"mission": n})
        eids.append(eid)
        if tuple(p) == tuple(real):
            real_eid = eid
    on_table = firer == ON_TABLE
    m = {"side": side, "n": n, "asset": asset, "requestor": requestor, "turn": game.turn,
         "box": 0 if on_table else DELAY[firer], "state": WAITING if on_table else INBOUND, "markers": eids,
         "real": real_eid}
    ms.append(m)
    game.emit(TargetMarkersPlaced(side, n, tuple((round(p[0], 3), round(p[1], 3)) for p in sorted(points))))
    if not on_table:
        game.emit(FireSupportCounterMoved(side, n, m["box"]))
    return m


def due(game, side: int) -> list:
    return [m for m in _missions(game) if m["side"] == side and m["state"] == DUE]


def _turn_start(game) -> None:
    for m in _missions(game):
        if m["state"] == INBOUND:
            m["box"] -= 1
            if m["box"] == 0:
                m["state"] = DUE
            game.emit(FireSupportCounterMoved(m["side"], m["n"], m["box"]))
        elif m["state"] == LOITER:
            m["state"], m["box"] = DUE, 0
            game.emit(FireSupportCounterMoved(m["side"], m["n"], 0))


def _turn_end(game) -> None:
    for m in _missions(game):
        if m["state"] == DUE:  # not resolved in its turn (a turn-end card, say): it waits in the loiter box
            _to_loiter(game, m)
        elif m["state"] == WAITING and not game.units[assets(game, m["side"])[m["asset"]]["unit"]].in_play:
            m["state"] = CANCELLED
            for eid in m["markers"]:
                table.remove(game, eid)
            game.emit(FireMissionCancelled(m["side"], m["n"]))


def _to_loiter(game, m) -> None:
    m["state"], m["box"] = LOITER, -1
    game.emit(FireSupportCounterMoved(m["side"], m["n"], -1))


def _pending(game, side: int) -> int:
    return len(due(game, side))


def _activation_options(game, side: int) -> list:
    n = min(len(due(game, side)), MAX_DUE)
    return [("fire_mission", k) for k in range(n)] + [("hold_mission", k) for k in range(n)]


def mission_size(game, a: dict) -> str:
    """An asset's round size: the scenario's, else (an on-table piece) the piece's own (RN-616, RN-1470)."""
    if a["size"] is not None:
        return a["size"]
    ps = ota.pieces(game, game.units[a["unit"]])
    return (ps[0][1].round_size if ps else None) or "medium"


def mission_data(game, m: dict) -> dict:
    """The plain data :func:`.impacts.resolve_mission` takes (docs/architecture.md, the shared interface)."""
    a = assets(game, m["side"])[m["asset"]]
    e = game.entities[m["real"]]
    req = game.units[m["requestor"]]
    size = a["size"] or mission_size(game, a)
    return {"side": m["side"], "x": e["x"], "y": e["y"], "ammo": a["ammo"], "size": size,
            "rounds": a["rounds"], "observer": req.uid if req.in_play else None, "guidance": a["guidance"],
            "asset": a["firer"], "firer": a["unit"], "requestor": req.uid}


def _impact(game, m) -> None:
    """The mission lands: its markers come off the table (the real one's place told) and the impact resolves."""
    data = mission_data(game, m)
    m["state"] = FIRED
    for eid in m["markers"]:
        table.remove(game, eid)
    game.emit(FireMissionArrived(m["side"], m["n"], m["asset"], round(data["x"], 3), round(data["y"], 3)))
    impacts.resolve_mission(game, data)


def _fire(game, side: int, opt) -> None:
    _impact(game, due(game, side)[opt[1]])
    if not game.stack and game.phase != "over":
        game.check_decisive()


def _on_activation(game, u) -> None:
    """On-table artillery: the firing unit's activation begins; its oldest waiting mission lands, one of its actions,
    if a piece of it is ready to fire (else the mission waits for a later activation, RN-1470); the piece has then
    fired this activation."""
    for m in _missions(game):
        if m["state"] == WAITING and m["side"] == u.side and assets(game, u.side)[m["asset"]]["unit"] == u.uid:
            piece = ota.indirect_piece(game, u)
            if piece is None:
                return
            game.activation_frame().actions_left -= 1  # the firing is one of the unit's two actions
            ota.mark_fired(game, u, piece[0])
            _impact(game, m)
            return


def _hold(game, side: int, opt) -> None:
    m = due(game, side)[opt[1]]
    game.emit(FireMissionHeld(side, m["n"]))
    _to_loiter(game, m)


FAMILIES = (
    Family("fire_mission", (tuple(range(MAX_DUE)),), 123,
           "resolve the impact of this due fire mission instead of activating a unit"),
    Family("hold_mission", (tuple(range(MAX_DUE)),), 124,
           "hold this due fire mission in the loiter box instead of activating a unit (due again next turn)"),
)

RULE = Rule(
    "Fire Missions", 'seed 000 "Successful Request" (the delay table, the impact instead of a unit activation), '
    '"Equipment › The Inbound Chart"',
    applies=has_fire_support,
    families=FAMILIES,
    turn_start=(_turn_start,),
    turn_end=(_turn_end,),
    on_activation=(_on_activation,),
    pending_activations=(_pending,),
    activation_options=(_activation_options,),
    activations={"fire_mission": _fire, "hold_mission": _hold},
    services={"add_fire_mission": add_mission},
)

__all__ = ["DELAY", "FIRERS", "ON_TABLE", "RULE", "add_mission", "due", "mission_data", "TargetMarkersPlaced"]
