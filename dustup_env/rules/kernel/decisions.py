"""Decisions and the frames of the decision stack.

At every moment a game has exactly one pending :class:`Decision`: whose it is (``side``), what kind
(``kind``, in the rulebook's words), the acting unit (or -1) and its legal ``options`` (plain tuples).
The top :class:`Frame` of the game's stack owns it: an ``"activation"`` frame (a unit taking its two
actions) or a procedure frame (an assault, a promotion, ...) registered by a rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Decision:
    side: int
    kind: str  # "initiative" | "activate" | "action" | a procedure's kind
    unit: int  # the acting unit for "action" decisions, else -1 (or the unit a procedure asks about)
    options: tuple
    entity: int = -1  # the id of the table entity the decision is about (``kernel.table``), or -1

    def __contains__(self, option) -> bool:
        return tuple(option) in self.options


@dataclass(slots=True)
class Frame:
    """One entry of the game's stack (plain data, so games copy and digest).

    ``type == "activation"``: a unit taking its actions (``ordered``: activated by a commander's
    order, which places no activation marker).  Any other type names a *procedure* of the rule set
    (e.g. an assault, a move's walk, a reaction) or of the kernel (``turn_start``, ``turn_end``,
    ``activation_end``: where the sequence waits for reactions); ``data`` holds its state and its
    continuation.  The top frame owns the pending decision; popping a frame resumes the one below
    (:mod:`.sequence`).
    """

    type: str
    unit: int = -1
    actions_left: int = 0
    ordered: bool = False
    data: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UnitStatus:
    """What restricts a unit's actions right now (computed once per decision)."""

    in_cover: bool
    suppressed: bool
    disorganised: bool


_UNIT_STATUS: dict = {}


def unit_status(in_cover: bool, suppressed: bool, disorganised: bool) -> UnitStatus:
    """The (frozen) UnitStatus of these flags, one shared object per combination."""
    key = (in_cover, suppressed, disorganised)
    st = _UNIT_STATUS.get(key)
    if st is None:
        st = _UNIT_STATUS[key] = UnitStatus(in_cover, suppressed, disorganised)
    return st
