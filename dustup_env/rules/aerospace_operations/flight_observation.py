"""The ``flight`` piece of the environment's observation (Aerospace Operations): each unit slot's flight state.
Declared by the deadfall weapons rule (:mod:`.ordnance`), which every game with aircraft has, and read from the
arrival rule's state (:func:`.air.aircraft_states`).  Positions and facings are the ``units`` and ``vehicles`` pieces' (an aircraft is a
vehicle); the side is the slot's half."""
from __future__ import annotations

from array import array

from ..kernel.ruleset import ObservationPiece
from . import air

FLIGHT_FEATURES = ("aircraft", "vtol", "grav", "airborne", "hovering", "grounded", "loiter", "inbound", "lost",
                   "flown", "landed_heavily", "bombs", "aa_fired")
FLF = len(FLIGHT_FEATURES)
_F = {n: i for i, n in enumerate(FLIGHT_FEATURES)}
_ZERO = array("f", bytes(4 * FLF))
_BOMB_SCALE = 4.0  # dead-fall loads / 4, capped at 1


def observe_flight(obs, b, off) -> None:
    """The ``flight`` piece: per unit slot, whether the unit is an aircraft (VTOL, grav vehicle; else an aerospace
    craft), where it is (on the table airborne, hovering or grounded; off it in the loiter box or box one of the
    inbound track; lost: returned to base, shot down or wrecked), whether it flew this activation, landed heavily,
    its dead-fall loads left (own aircraft only) and whether the unit fired at aircraft this turn.  Hidden and
    mounted enemy units: empty rows."""
    g = obs.game
    craft = air.aircraft_states(g)
    st = air.state(g)
    fired = set(st.air_aa_fired or ()) if st is not None else set()
    for u, o, _k, enemy, concealed in obs.slot_rows(off, FLF):
        a = craft.get(str(u.uid)) if craft else None
        if concealed or (a is None and u.uid not in fired):
            b[o:o + FLF] = _ZERO
            continue
        row = [0.0] * FLF
        if u.uid in fired:
            row[_F["aa_fired"]] = 1.0
        if a is not None:
            kind = air.kind(u)
            row[_F["aircraft"]] = 1.0
            row[_F["vtol"]] = 1.0 if kind != "aerospace" else 0.0
            row[_F["grav"]] = 1.0 if kind == "grav" else 0.0
            mode = a["mode"]
            if mode in ("airborne", "hovering", "grounded") and u.in_play:
                row[_F[mode]] = 1.0
            elif u.location == air.LOITER:
                row[_F["loiter"]] = 1.0
            elif u.location == air.TRACK:
                row[_F["inbound"]] = 1.0
            else:
                row[_F["lost"]] = 1.0
            row[_F["flown"]] = 1.0 if a.get("flown") else 0.0
            row[_F["landed_heavily"]] = 1.0 if a.get("heavy") else 0.0
            if not enemy:
                ap = u.profile.vehicle.air
                n = a.get("bombs", ap.deadfall_loads if ap is not None else 0)  # (ordnance.loads)
                row[_F["bombs"]] = min(n / _BOMB_SCALE, 1.0)
        b[o:o + FLF] = array("f", row)


FLIGHT_PIECE = ObservationPiece("flight", 9, ("units", FLF), FLIGHT_FEATURES, write=observe_flight,
                                doc="Aerospace Operations: each unit slot's flight state")
