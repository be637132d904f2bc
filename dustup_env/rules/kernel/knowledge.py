"""What a side may know: written once, asked by everything that shows the game to one side.

A side knows its own units fully.  Of an enemy unit it knows everything but who rides in it (an enemy vehicle's
passengers) while the unit is in sight; of an enemy unit mounted in a vehicle only that it exists (its name: it
is ``unseen``, Transport of Infantry); of a hidden enemy unit only its marker (``hidden``, Hidden Units).  Of the
hidden-unit markers it knows every position, and which unit each of its own hides; of a table entity what its
kind allows (:func:`knows_entity`, :mod:`.table`).

The engine's view (``game.view(side)``, the Hidden Units rule's ``view`` service), the known enemy units
(``game.enemy_units(side)``), the observation, the agents' knowledge (``agents/knowledge.py``) and the search's
determinisation ask these functions; narration, the protocol, the page and the pictures read the view.
"""
from __future__ import annotations

from .table import known_entities, knows as knows_entity  # noqa: F401 - part of this module's answer (entities)

OWN = "own"  # the side's own unit: everything
SEEN = "seen"  # an enemy unit in sight: everything but its passengers
UNSEEN = "unseen"  # an enemy unit mounted in a vehicle: that it exists (its name)
HIDDEN = "hidden"  # a hidden enemy unit: only its marker


def concealed(u) -> bool:
    """Whether the other side may not see unit ``u`` now: hidden (only its marker shows) or mounted in a vehicle."""
    return u.hidden or u.veh.carrier >= 0


def knows_unit(side: int, u) -> bool:
    """Whether ``side`` may know unit ``u``'s state (its own, or an enemy unit that is not concealed)."""
    return u.side == side or not (u.hidden or u.veh.carrier >= 0)


def unit_knowledge(side: int, u) -> str:
    """What ``side`` may know of unit ``u``: :data:`OWN`, :data:`SEEN`, :data:`UNSEEN` or :data:`HIDDEN`."""
    if u.side == side:
        return OWN
    if u.hidden:
        return HIDDEN
    if u.veh.carrier >= 0:
        return UNSEEN
    return SEEN


def known_enemies(game, side: int):
    """The enemy units ``side`` knows of that are in play (hidden and mounted ones are not among them)."""
    units = game.units
    for uid in game.side_units[1 - side]:
        e = units[uid]
        if e.in_play and not (e.hidden or e.veh.carrier >= 0):  # not concealed(e) (inlined: asked at every decision)
            yield e


def knows_marker_unit(side: int, m: dict) -> bool:
    """Whether ``side`` may know which unit the hidden-unit marker ``m`` hides (its own markers only)."""
    return m["side"] == side


def marker_view(side: int, index: int, m: dict) -> dict:
    """The hidden-unit marker ``m`` (number ``index``) as ``side`` sees it: its position; which unit it hides (-1: a
    dummy) only on the side's own markers."""
    mv = {"index": index, "side": m["side"], "x": m["x"], "y": m["y"], "removed": m["removed"]}
    if knows_marker_unit(side, m):
        mv["unit"] = m["unit"]
    return mv
