"""Data files (weapons, armour, scenarios), validated against JSON schemas on load."""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema

from .dice import parse_die
from .errors import ScenarioError

DEFAULT_WEAPON = "average_small_arm"  # a figure that names no weapon: "The average small arm" (RN-019)

DATA = resources.files("dustup_env") / "data"


def load_json(path) -> dict:
    try:
        return json.loads(Path(path).read_text() if not hasattr(path, "read_text") else path.read_text())
    except json.JSONDecodeError as e:
        raise ScenarioError(f"{path}: not valid JSON: {e}") from None


@lru_cache(maxsize=None)
def _schema(name: str) -> dict:
    return json.loads((DATA / "schemas" / f"{name}.schema.json").read_text())


def _brief(value, limit: int = 40) -> str:
    """A value as a message quotes it: short values whole (as jsonschema does), long ones by kind and size."""
    text = repr(value)
    if len(text) <= limit:
        return text
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} fields"
    if isinstance(value, str):
        return f"a text of {len(value)} characters"
    return text[:limit - 3] + "..."


_SIZES = {"maxItems": ("items", "at most", "allowed"), "minItems": ("items", "at least", "needed"),
          "maxLength": ("characters", "at most", "allowed"), "minLength": ("characters", "at least", "needed"),
          "maxProperties": ("fields", "at most", "allowed"), "minProperties": ("fields", "at least", "needed")}


def schema_problem(e: jsonschema.ValidationError) -> str:
    """One short line for a schema violation: jsonschema's own message quotes the whole offending value (twenty
    units on a side gave a message thousands of characters long ending in "is too long"); this one says what
    is wrong in a few words and describes a long value instead of quoting it."""
    if e.validator in _SIZES and isinstance(e.instance, (list, str, dict)):
        what, bound, verb = _SIZES[e.validator]
        n = len(e.instance)
        return f"has {n} {what if n != 1 else what[:-1]}, {bound} {e.validator_value} {verb}"
    msg = " ".join(e.message.split())
    whole = repr(e.instance)
    if len(whole) > 40 and whole in msg:
        msg = msg.replace(whole, _brief(e.instance))
    return msg if len(msg) <= 200 else msg[:197] + "..."


def validate(doc: dict, schema: str, where: str) -> None:
    validator = jsonschema.Draft202012Validator(_schema(schema))
    errors = sorted(validator.iter_errors(doc), key=lambda e: [(isinstance(p, str), p) for p in e.absolute_path])
    if errors:
        e = errors[0]
        path = "/".join(str(p) for p in e.absolute_path) or "(top level)"
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        raise ScenarioError(f"{where}: {path}: {schema_problem(e)}{more}")


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    cls: str  # small_arms | support | grenade
    fp: float  # numeric firepower for small arms
    fp_die: int  # die step for support weapons and grenades (-1 for small arms)
    impact: int
    effective_range: float
    max_range: float  # 0 = unlimited
    strike: float = 1.0  # close-combat strike value (seed 000 Strike Value; most weapons 1)
    strike_die: int = -1  # a special close-combat weapon's strike die (-1: none; it then adds no strike value)
    cc_impact: int = -1  # a special close-combat weapon's own impact die (-1: none; used only by a detachment, RN-304)
    he: bool = False  # an unguided rocket (class iavr) with a high-explosive warhead: also supports small arms
    disposable: bool = False  # an unguided rocket fired once; its bearer then carries ``backup``
    backup: str = ""  # the weapon a disposable rocket's bearer carries once it is fired


@dataclass(frozen=True, slots=True)
class Armour:
    name: str
    die: int
    no_armour: bool
    power_armour: bool


@lru_cache(maxsize=None)
def armoury() -> tuple[dict[str, Weapon], dict[str, Armour]]:
    doc = json.loads((DATA / "weapons.json").read_text())
    validate(doc, "weapons", "weapons.json")
    weapons = {}
    for name, w in doc["weapons"].items():
        fp = w["fp"]
        if w["class"] == "small_arms":
            if isinstance(fp, str):
                raise ScenarioError(f"weapons.json: {name}: small arms firepower must be a number")
            fpv, fpd = float(fp), -1
        else:
            if not isinstance(fp, str):
                raise ScenarioError(f"weapons.json: {name}: support weapon firepower must be a die type")
            fpv, fpd = 0.0, parse_die(fp)
        st = w.get("strike", 1)
        sv, sd = (0.0, parse_die(st)) if isinstance(st, str) else (float(st), -1)
        if w["class"] != "iavr" and any(k in w for k in ("he", "disposable", "backup")):
            raise ScenarioError(f"weapons.json: {name}: he, disposable and backup are fields of unguided rockets "
                                "(class iavr)")
        weapons[name] = Weapon(name, w["class"], fpv, fpd, parse_die(w["impact"]),
                               float(w.get("effective_range", 48)), float(w.get("max_range", 0)), sv, sd,
                               parse_die(w["cc_impact"]) if "cc_impact" in w else -1,
                               bool(w.get("he", False)), bool(w.get("disposable", False)),
                               w.get("backup", "average_small_arm") if w.get("disposable") else "")
    for name, w in weapons.items():
        if w.disposable and (w.backup not in weapons or weapons[w.backup].cls != "small_arms"):
            raise ScenarioError(f"weapons.json: {name}: backup {w.backup!r} is not a small arm of weapons.json")
    armours = {name: Armour(name, parse_die(a["die"]), bool(a.get("no_armour", False)),
                            bool(a.get("power_armour", False))) for name, a in doc["armour"].items()}
    return weapons, armours


def scenario_names() -> list[str]:
    return sorted(p.name[:-5] for p in (DATA / "scenarios").iterdir() if p.name.endswith(".json"))


_SCENARIO_CACHE: dict = {}


def load_scenario(name_or_path: str | dict) -> dict:
    """Load and validate a scenario by built-in name, file path, or an already-parsed dict: a copy of
    the document that the caller may change freely (games never see the change)."""
    return copy.deepcopy(scenario_document(name_or_path))


def scenario_document(name_or_path: str | dict) -> dict:
    """The validated scenario document shared by the engine (read-only: games and their copies share it).

    Built-in scenarios and files are validated once and cached (files by path and mtime); a dict is
    validated and copied, so that later changes to the caller's dict do not reach the game."""
    if isinstance(name_or_path, str):
        p = Path(name_or_path)
        key = (name_or_path, p.stat().st_mtime if p.suffix == ".json" and p.exists() else None)
        doc = _SCENARIO_CACHE.get(key)
        if doc is None:
            doc = _SCENARIO_CACHE[key] = _load_scenario(name_or_path)
        return doc
    if not isinstance(name_or_path, dict):
        raise ScenarioError(f"a scenario is a built-in name, a file path or a dict, not {type(name_or_path).__name__}")
    return _load_scenario(copy.deepcopy(name_or_path))


def _load_scenario(name_or_path: str | dict) -> dict:
    if isinstance(name_or_path, dict):
        name = name_or_path.get("name", "?")
        doc, where = name_or_path, f"scenario {name!r}" if isinstance(name, str) and len(name) <= 40 else "a scenario"
    else:
        p = Path(str(name_or_path))
        if p.suffix == ".json" and p.exists():
            if not p.is_file():
                raise ScenarioError(f"{p}: not a scenario file (a folder?)")
            doc, where = load_json(p), str(p)
        else:
            res = DATA / "scenarios" / f"{name_or_path}.json"
            if not res.is_file():
                raise ScenarioError(
                    f"unknown scenario {name_or_path!r}: built-in scenarios are {', '.join(scenario_names())}")
            doc, where = json.loads(res.read_text()), f"scenario {name_or_path!r}"
    if not isinstance(doc, dict):
        raise ScenarioError(f"{where}: a scenario must be a JSON object")
    validate(doc, "scenario", where)
    weapons, armours = armoury()
    w, h = doc["table"]["width"], doc["table"]["height"]
    for s, side in enumerate(doc["sides"]):
        for u in side["units"]:
            x, y = u["position"]
            if not (0 <= x <= w and 0 <= y <= h):
                raise ScenarioError(f"{where}: unit {u['name']!r} of side {side['name']!r} is off the table at {x},{y}")
            if bool(u.get("figures")) == ("design" in u):
                raise ScenarioError(f"{where}: unit {u['name']!r}: give either 'figures' (infantry) or 'design' (a "
                                    "vehicle, mech or large creature), not both" if "design" in u else
                                    f"{where}: unit {u['name']!r}: figures: required (or a 'design' for a vehicle)")
            if "design" in u:
                u.setdefault("figures", [])  # a vehicle's figures: none in the scenario (its hull is built from the design)
                for key in ("kind", "movement", "armour", "grenades", "size", "cc_impact",
                            "specialist_grenade", "heavy_equipment", "medical_team", "mounted", "wading"):
                    if key in u:
                        raise ScenarioError(f"{where}: unit {u['name']!r}: {key}: a vehicle takes it from its design "
                                            "(leave it out)")
            for f in u.get("figures", ()):
                wname = f.get("weapon", DEFAULT_WEAPON)
                if wname not in weapons:
                    raise ScenarioError(f"{where}: unit {u['name']!r}: unknown weapon {wname!r}")
                if weapons[wname].cls == "grenade":
                    raise ScenarioError(f"{where}: unit {u['name']!r}: grenades are a unit property ('grenades': true "
                                        "for hand grenades, 'specialist_grenade' for specialist grenades)")
            sg = u.get("specialist_grenade")
            if sg is not None:
                if sg not in weapons or weapons[sg].cls != "grenade":
                    raise ScenarioError(f"{where}: unit {u['name']!r}: specialist_grenade {sg!r} is not a grenade in "
                                        f"weapons.json (grenades: {', '.join(k for k, w in weapons.items() if w.cls == 'grenade')})")
                if sg == "hand_grenade":
                    raise ScenarioError(f"{where}: unit {u['name']!r}: hand grenades are 'grenades': true, "
                                        "not a specialist_grenade")
            if u.get("armour", "basic_battledress") not in armours:
                raise ScenarioError(f"{where}: unit {u['name']!r}: unknown armour {u['armour']!r}")
            if u.get("inbound") and u.get("hidden"):
                raise ScenarioError(f"{where}: unit {u['name']!r}: a reinforcement (inbound) cannot start hidden")
            if "mobility" in u and u.get("movement") != "cavalry":
                raise ScenarioError(f"{where}: unit {u['name']!r}: mobility: only vehicular cavalry ('movement': "
                                    "'cavalry') has a vehicle movement table; a vehicle takes it from its design")
            if u.get("wading") and not armours[u.get("armour", "basic_battledress")].power_armour:
                raise ScenarioError(f"{where}: unit {u['name']!r}: only power armour may wade on the bottom of open "
                                    f"water ('wading': true needs power armour, not {u.get('armour', 'basic_battledress')!r})")
    for o in doc.get("objectives", []):
        x, y = o["position"]
        if not (0 <= x <= w and 0 <= y <= h):
            raise ScenarioError(f"{where}: objective {o['name']!r} is off the table")
    return doc
