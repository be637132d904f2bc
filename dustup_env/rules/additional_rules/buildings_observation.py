"""The observation piece of Buildings and Fortifications (:mod:`.buildings`): the buildings' damage, rubble and who
holds them, as far as the observing side knows (docs/observation.md, "Buildings")."""
from __future__ import annotations

from ..kernel import table
from ..kernel.dice import parse_die
from ..kernel.ruleset import ObservationPiece
from ..kernel.table import entities_of

MAX_OPENINGS = 2  # as buildings.MAX_OPENINGS

BUILDING_FEATURES = ("present", "armour", "size", "damage", "destroyed", "breached", "openings_breached",
                     "own_occupants", "enemy_occupants", "weapons")
BF = len(BUILDING_FEATURES)
_B = {n: i for i, n in enumerate(BUILDING_FEATURES)}


def _write(obs, b, off) -> None:
    """The ``buildings`` piece: slot ``r`` is the building the side knows as its entity ref ``r`` (every building is
    public): its armour die and size class, damage markers, destroyed (rubble) or breached, doors and windows
    breached, whether own units occupy it and whether enemy units the side knows of do (hidden ones never
    count), and its mounted weapons."""
    from ..kernel.knowledge import known_enemies
    g, me = obs.game, obs.side
    n = table.MAX_ENTITIES * BF
    for i in range(off, off + n):
        b[i] = 0.0
    known = {u.uid for u in known_enemies(g, me)}
    occupants = g.rules.services["building_occupants"]
    for e in entities_of(g, "building"):
        r = e["refs"][me]
        if r < 0 or r >= table.MAX_ENTITIES:
            continue
        st = e["state"]
        o = off + r * BF
        b[o + _B["present"]] = 1.0
        b[o + _B["armour"]] = min((parse_die(st["armour"]) + 1) / 9.0, 1.0)
        b[o + _B["size"]] = min(st["size"] / 5.0, 1.0)
        b[o + _B["damage"]] = min(st["damage"] / 3.0, 1.0)
        b[o + _B["destroyed"]] = 1.0 if st["destroyed"] else 0.0
        b[o + _B["breached"]] = 1.0 if st["breached"] else 0.0
        b[o + _B["openings_breached"]] = sum(1 for x in st["openings"] if x["breached"]) / MAX_OPENINGS
        occ = occupants(g, e)
        b[o + _B["own_occupants"]] = 1.0 if any(u.side == me for u in occ) else 0.0
        b[o + _B["enemy_occupants"]] = 1.0 if any(u.uid in known for u in occ) else 0.0
        b[o + _B["weapons"]] = min(len(st["weapons"]) / 4.0, 1.0)


BUILDINGS_PIECE = ObservationPiece("buildings", 240, (table.MAX_ENTITIES, BF), BUILDING_FEATURES, write=_write,
                                   doc=_write.__doc__)

