"""Vehicle and heavy-weapon designs: the Dirtside II design system (seed 002, chapters 1-3) checked
for Dustup, and the Dustup statistics derived from a design.

    from dustup_env.rules.vehicle_design import check
    report = check("deimos")            # a library name, a path, or a dict
    report.legal, report.errors, report.warnings
    report.profile                      # a VehicleProfile / HeavyWeaponDesignProfile (frozen dataclass)

Pure Python (no Gymnasium). The user guide is ``docs/vehicle-design.md``; the readings of the seeds are
``docs/rules-notes.md`` RN-600 onwards.
"""
from .check import Assumption, DesignReport, Violation, check
from .load import DesignFileError, library_names, load
from .profile import (AirProfile, Facings, HeavyWeaponDesignProfile, VehicleProfile, WeaponProfile, from_dict,
                      to_dict)
from .report import format_report
from .rules import RULES, Rule

__all__ = ["check", "load", "library_names", "format_report", "DesignReport", "Violation", "Assumption",
           "DesignFileError", "VehicleProfile", "WeaponProfile", "HeavyWeaponDesignProfile", "AirProfile", "Facings",
           "to_dict", "from_dict", "RULES", "Rule", "library_design", "library_profile"]


def library_design(name: str) -> DesignReport:
    """The check of a built-in design (``dustup_env/data/designs/NAME.json``)."""
    if name not in library_names():
        raise DesignFileError(f"unknown design {name!r}: the library has {', '.join(library_names())}")
    return check(name)


def library_profile(name: str):
    """The Dustup statistics of a built-in design (it must be legal)."""
    r = library_design(name)
    if not r.legal or r.profile is None:
        raise DesignFileError(f"library design {name!r} is not legal: {r.errors[0].message if r.errors else ''}")
    return r.profile
