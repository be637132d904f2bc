"""The ``heavy_weapons`` piece of the environment's observation (Armoured Dustup): each unit slot's heavy weapon,
ECM, decoy and area protection.  Declared by the Guided Weapons rule, which every game with heavy weapons,
vehicles, ECM or area protection has (the Heavy Weapons rule's own module stays under the size limit), and read
from the Heavy Weapons rule's state (:func:`~.heavy_weapons.weapon_states`) and, through the rule set's service,
the Guided Weapons rule's area protection."""
from __future__ import annotations

from array import array

from ..kernel.ruleset import ObservationPiece
from .heavy_weapons import DAMAGED, DISABLED, HEAVY_FEATURES, HF, die01, unit_specs, weapon_of, weapon_states

(_H_HEAVY, _H_MAN_PACKED, _H_TOWED, _H_SET_UP, _H_LIMBERED, _H_DISMANTLED, _H_DISABLED, _H_DAMAGED, _H_FIRED,
 _H_ABANDONED, _H_REMOTE, _H_GUIDED, _H_SIZE, _H_ECM, _H_DECOY, _H_AREA, _H_CARRIED, _H_DEPLOYED, _H_SPENT) = (
    HEAVY_FEATURES.index(n) for n in ("heavy_weapon", "man_packed", "towed_carriage", "set_up", "limbered", "dismantled", "disabled",
                     "damaged", "fired", "abandoned", "remote", "guided", "weapon_size", "ecm", "decoy",
                     "area_protection", "protection_carried", "protection_deployed", "protection_spent"))
_ZERO_HEAVY_ROW = array("f", bytes(4 * HF))


def observe_heavy_weapons(obs, b, off) -> None:
    """The ``heavy_weapons`` piece: per unit slot, the unit's heavy weapon (carriage, set up / dismantled /
    limbered, disabled / damaged, fired, abandoned, remote launcher, guided, size), its ECM die (a vehicle's
    design, or the unit's ``ecm``), a vehicle's decoy die and the unit's area-protection system (carried /
    deployed / spent).  Hidden and mounted enemy units: empty rows."""
    g = obs.game
    protection = g.rules.services.get("protection_states")  # Guided Weapons' state (it imports this module)
    heavy = weapon_states(g)
    prot = protection(g) if protection is not None else {}
    specs = unit_specs(g)
    units = g.units
    zero = _ZERO_HEAVY_ROW
    for u, o, _k, _enemy, concealed in obs.slot_rows(off, HF):
        if concealed:
            b[o:o + HF] = zero
            continue
        row = [0.0] * HF
        uid = str(u.uid)
        st = heavy.get(uid) if heavy else None
        prof = None
        if st is not None:
            prof = weapon_of(g, u)
            towed = prof is not None and prof.carriage == "towed"
            row[_H_HEAVY] = 1.0
            row[_H_MAN_PACKED] = 0.0 if towed else 1.0
            row[_H_TOWED] = 1.0 if towed else 0.0
            row[_H_SET_UP] = 1.0 if st.get("ready") else 0.0
            if not st.get("ready"):
                row[_H_LIMBERED if towed else _H_DISMANTLED] = 1.0
            dmg = st.get("damage", 0)
            row[_H_DISABLED] = 1.0 if dmg == DISABLED else 0.0
            row[_H_DAMAGED] = 1.0 if dmg == DAMAGED else 0.0
            row[_H_FIRED] = 1.0 if st.get("fired") else 0.0
            row[_H_ABANDONED] = 1.0 if st.get("abandoned") else 0.0
            row[_H_REMOTE] = 1.0 if st.get("remote") else 0.0
            if prof is not None:
                row[_H_GUIDED] = 1.0 if getattr(prof.weapon, "guidance", None) else 0.0
                row[_H_SIZE] = min(getattr(prof.weapon, "size", 0) / 5.0, 1.0)
        vp = u.profile.vehicle
        if vp is not None:
            row[_H_ECM] = die01(vp.ecm)
            row[_H_DECOY] = die01(vp.decoy)
        else:
            s = u  # spec_of(g, u), with the scenario specs read once
            while s.uid not in specs and s.parent >= 0:
                s = units[s.parent]
            spec = specs.get(s.uid)
            if spec is not None and "ecm" in spec:
                row[_H_ECM] = die01(spec["ecm"])
            elif prof is not None:  # (weapon_of(g, u), read above when the unit has a heavy weapon)
                row[_H_ECM] = die01(prof.ecm)
        ps = prot.get(uid) if prot else None
        if ps is not None:
            row[_H_AREA] = die01(ps.get("die"))
            state = ps.get("state")
            row[_H_CARRIED] = 1.0 if state == "carried" else 0.0
            row[_H_DEPLOYED] = 1.0 if state == "deployed" else 0.0
            row[_H_SPENT] = 1.0 if state == "spent" else 0.0
        b[o:o + HF] = array("f", row)


HEAVY_WEAPONS_PIECE = ObservationPiece("heavy_weapons", 6, ("units", HF), HEAVY_FEATURES, write=observe_heavy_weapons,
                                       doc="Armoured Dustup: each unit slot's heavy weapon, ECM, decoy and area "
                                           "protection")

