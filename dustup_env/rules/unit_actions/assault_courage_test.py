"""Assault Action › Courage Test (seed 000 L703-L740, with its Notes): the courage-test table (data
``data/courage_test.json``), strength and outnumbering (figures; units as soon as a vehicle, mech or monster takes
part, RN-907), the open shifts of each side and the opposed roll."""
from __future__ import annotations

import json
from pathlib import Path

from ..kernel.data import DATA, armoury, validate
from ..kernel.dice import shift_open_both
from ..kernel.errors import ScenarioError
from ..kernel.entities import CONFIDENT, OK, ROUTED, SHAKEN, Unit

# ---------------------------------------------------------------------------------------- courage table

_TABLE_CACHE: dict = {}


def load_courage_table(spec=None) -> list[dict]:
    """The courage-test rows: ``None`` = the built-in table, a path, or a table dict (validated)."""
    key = json.dumps(spec, sort_keys=True) if not isinstance(spec, str) else spec
    rows = _TABLE_CACHE.get(key)
    if rows is not None:
        return rows
    if spec is None:
        doc, where = json.loads((DATA / "courage_test.json").read_text()), "courage_test.json"
    elif isinstance(spec, str):
        p = Path(spec)
        if not p.is_file():
            raise ScenarioError(f"game option courage_table: no such file {spec!r}")
        try:
            doc = json.loads(p.read_text())
        except json.JSONDecodeError as e:
            raise ScenarioError(f"game option courage_table: {spec}: not valid JSON: {e}") from None
        where = spec
    elif isinstance(spec, dict):
        doc, where = spec, "game option courage_table"
    else:
        raise ScenarioError("game option courage_table must be null, a file path or a table object")
    if not isinstance(doc, dict):
        raise ScenarioError(f"{where}: a courage table must be a JSON object")
    validate(doc, "courage_test", where)
    ids = [r["id"] for r in doc["rows"]]
    if len(set(ids)) != len(ids):
        raise ScenarioError(f"{where}: rows: duplicate row id")
    rows = [dict(r) for r in doc["rows"]]
    _TABLE_CACHE[key] = rows
    return rows


def init_hook(game) -> None:
    load_courage_table(game.options["courage_table"])  # validate now: a bad table is a ScenarioError at start


# ---------------------------------------------------------------------------------------- geometry helpers

MECHS = ("mech", "creature")  # unit kinds that assault and are assaulted as infantry (seed 000 L1514, RN-850)


def vehicle_of(game, u: Unit):
    """The vehicle rules' design profile of ``u`` (their ``vehicle_profile`` service): None for infantry, and in a
    game without the vehicle rules."""
    svc = game.rules.services.get("vehicle_profile")
    return svc(game, u) if svc is not None else None


def strength(game, u: Unit, figs=None) -> int:
    """Strength by figures: able figures, power-armoured troopers count as two; a mech or monster its size class
    (L1516 "the size value is used to calculate outnumbering", RN-850).  Outnumbering itself: :func:`unit_counts`
    (units as soon as a vehicle takes part, RN-907); detachments are matched to these strengths."""
    n = sum(1 for i in (figs if figs is not None else range(len(u.figures))) if u.figures[i].status == OK)
    vp = vehicle_of(game, u)
    if vp is not None:
        return vp.size if n else 0
    pa = armoury()[1][u.armour].power_armour
    return 2 * n if pa else n


def unit_counts(game, a: Unit, a_figs, b: Unit, b_figs) -> tuple[int, int]:
    """The outnumbering strengths of ``a`` against ``b`` (detachments ``a_figs``, ``b_figs``): figures between
    infantry (:func:`strength`); units as soon as a vehicle, mech or monster is one of them (L1516 "Like other
    vehicles, the size value is used to calculate outnumbering", L1524 "a vehicle of size 2 counts as 2 units and
    therefore outnumbers a single infantry unit two to one", RN-907): a vehicle its size class (the vehicle rules'
    ``assault_units``: an open-topped one with its passengers, L1555), an infantry unit or detachment one; none
    left able, 0."""
    if vehicle_of(game, a) is None and vehicle_of(game, b) is None:
        return strength(game, a, a_figs), strength(game, b, b_figs)
    return _units(game, a, a_figs), _units(game, b, b_figs)


def _units(game, u: Unit, figs) -> int:
    if not any(u.figures[i].status == OK for i in (figs if figs is not None else range(len(u.figures)))):
        return 0
    vp = vehicle_of(game, u)
    if vp is None:
        return 1
    svc = game.rules.services.get("assault_units")
    return svc(u) if svc is not None else vp.size


def assaulted_vehicle(game, u: Unit) -> bool:
    """A vehicle that is not a mech or monster: infantry assault it by Infantry Assaulting Vehicles (L1520-1532),
    the Assault Action with an impact roll instead of close combat; it is never forced to withdraw (L1522)."""
    return u.kind not in MECHS and vehicle_of(game, u) is not None


def is_mech(game, u: Unit) -> bool:
    """A mech or monster: it fights close combat as an infantry unit (seed 000 L1514-1518)."""
    return u.kind in MECHS and vehicle_of(game, u) is not None


def outnumbered(own: int, other: int) -> int:
    """0, 2 (outnumbered 2:1) or 3 (3:1 or more)."""
    if own <= 0:
        return 3 if other > 0 else 0
    if other >= 3 * own:
        return 3
    if other >= 2 * own:
        return 2
    return 0


# ---------------------------------------------------------------------------------------- courage test

def courage_shifts(game, u: Unit, enemy: Unit, *, defender: bool, final: bool, own_figs=None, enemy_figs=None,
                   casualties: dict | None = None, skip=()) -> list[tuple[str, int]]:
    """The table rows that apply to ``u`` (its own die) as ``(row id, total shift)`` pairs."""
    rows = load_courage_table(game.options["courage_table"])
    n = outnumbered(*unit_counts(game, u, own_figs, enemy, enemy_figs))
    cover = game.bf.cover_at(u.x, u.y) if defender else 0
    cas = casualties or {}
    counts = {
        "outnumbered_2": 1 if n == 2 or (n == 3 and not any(r["id"] == "outnumbered_3" for r in rows)) else 0,
        "outnumbered_3": 1 if n == 3 else 0,
        "suppressed": u.suppression if u.confidence != ROUTED else 0,
        "confident": 1 if u.confidence == CONFIDENT else 0,
        "shaken": 1 if u.confidence >= SHAKEN else 0,
        "wounded": cas.get("wounded", 0),
        "killed": cas.get("killed", 0),
        "leader_killed": 1 if cas.get("leader") else 0,
        "terror": 1 if enemy.terror and not u.terror else 0,
        "soft_cover": 1 if cover == 1 else 0,
        "hard_cover": 1 if cover >= 2 else 0,
    }
    out = []
    for r in rows:
        if (r.get("final_only") and not final) or r["id"] in skip:
            continue
        c = counts[r["id"]]
        if not r.get("per"):
            c = min(c, 1)
        if c:
            out.append((r["id"], r["shift"] * c))
    return out


def courage_roll(game, att: Unit, dfn: Unit, *, final: bool, att_figs=None, def_figs=None, att_cas=None,
                 def_cas=None, extra_att=(), extra_def=(), skip=()):
    """Opposed quality roll with open shifts on both dice.  Returns (A, D, a_die, d_die, a_sh, d_sh)."""
    a_sh = courage_shifts(game, att, dfn, defender=False, final=final, own_figs=att_figs, enemy_figs=def_figs,
                          casualties=att_cas, skip=skip) + list(extra_att)
    d_sh = courage_shifts(game, dfn, att, defender=True, final=final, own_figs=def_figs, enemy_figs=att_figs,
                          casualties=def_cas, skip=skip) + list(extra_def)
    a_die, d_die = shift_open_both(att.quality, sum(s for _, s in a_sh), dfn.quality, sum(s for _, s in d_sh))
    a = game.dice.roll(a_die)
    d = game.dice.roll(d_die)
    return a, d, a_die, d_die, a_sh, d_sh
