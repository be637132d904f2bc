"""What a design check finds: each broken rule (:class:`Violation`), each value a design did not state and the
reading that supplied it (:class:`Assumption`), and the whole report (:class:`DesignReport`)."""
from __future__ import annotations

from dataclasses import dataclass

from .profile import HeavyWeaponDesignProfile, VehicleProfile
from .rules import RULES


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: its name, the seed it comes from, and by how much (``value`` against ``limit``)."""
    rule: str
    source: str  # dirtside | dustup
    severity: str  # error | warning
    message: str
    field: str = ""  # where in the design file ("weapons/0/class"); "" for the design as a whole
    value: int | None = None
    limit: int | None = None

    @property
    def amount(self) -> int | None:
        """How far over the limit (value - limit), when the rule has a numeric limit."""
        return None if self.value is None or self.limit is None else self.value - self.limit

    def to_dict(self) -> dict:
        d = {"rule": self.rule, "source": self.source, "severity": self.severity, "message": self.message,
             "ref": RULES[self.rule].ref}
        if self.field:
            d["field"] = self.field
        if self.value is not None:
            d.update(value=self.value, limit=self.limit, amount=self.amount)
        return d


@dataclass(frozen=True, slots=True)
class Assumption:
    """A value the design did not state, and the reading that supplied it."""
    field: str
    value: str
    reading: str

    def to_dict(self) -> dict:
        return {"field": self.field, "value": self.value, "reading": self.reading}


@dataclass(frozen=True)
class DesignReport:
    where: str
    name: str
    design: str  # vehicle | heavy_weapon
    errors: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    assumptions: tuple[Assumption, ...]
    dirtside: dict  # the Dirtside II figures: capacity, items, weapon systems, signature, ...
    profile: VehicleProfile | HeavyWeaponDesignProfile | None  # None when Dustup cannot field the design

    @property
    def legal(self) -> bool:
        return not self.errors

    def rules_broken(self) -> set[str]:
        return {v.rule for v in self.errors + self.warnings}

    def to_dict(self) -> dict:
        from .profile import to_dict
        return {"file": self.where, "name": self.name, "design": self.design, "legal": self.legal,
                "errors": [v.to_dict() for v in self.errors], "warnings": [v.to_dict() for v in self.warnings],
                "assumptions": [a.to_dict() for a in self.assumptions], "dirtside": self.dirtside,
                "dustup": to_dict(self.profile) if self.profile is not None else None}


class Collector:
    def __init__(self):
        self.found: list[Violation] = []
        self.assumed: list[Assumption] = []

    def add(self, rule: str, message: str, field: str = "", value: int | None = None, limit: int | None = None):
        r = RULES[rule]
        self.found.append(Violation(rule, r.source, r.severity, message, field, value, limit))

    def assume(self, field: str, value, reading: str):
        self.assumed.append(Assumption(field, str(value), reading))

    def report(self, design, kind: str, dirtside: dict, profile) -> DesignReport:
        errs = tuple(v for v in self.found if v.severity == "error")
        warns = tuple(v for v in self.found if v.severity == "warning")
        return DesignReport(design.where, design.name, kind, errs, warns, tuple(self.assumed), dirtside, profile)
