"""Reading design files: JSON, the schema (messages naming the bad field), and normalisation.

A malformed file raises :class:`DesignFileError` with a one-line message that starts with the file and
the field (``deimos.json: weapons/0/type: unknown weapon type 'LASER' (known: ...)``). A well-formed
file becomes a :class:`Design` (vehicle) or :class:`HeavyWeaponDesign`, which the check then judges.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jsonschema

from ..kernel.data import schema_problem
from ..kernel.errors import DustupError
from .tables import SYSTEM_TYPES, WEAPON_TYPES, WeaponType

DATA = resources.files("dustup_env") / "data"
LIBRARY = DATA / "designs"


class DesignFileError(DustupError):
    """A design file that cannot be read: not JSON, not matching the schema, or naming unknown things."""


@lru_cache(maxsize=None)
def _schema(name: str) -> dict:
    return json.loads((DATA / "schemas" / f"{name}.schema.json").read_text())


def _validate(doc: dict, schema: str, where: str) -> None:
    validator = jsonschema.Draft202012Validator(_schema(schema))
    errors = sorted(validator.iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        e = errors[0]
        path = "/".join(str(p) for p in e.absolute_path) or "(top level)"
        more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
        raise DesignFileError(f"{where}: {path}: {schema_problem(e)}{more}")


# --- normalised designs ------------------------------------------------------------------------
@dataclass
class WeaponFit:
    """One weapon as fitted (a ``count`` of N in the file gives N fits)."""
    index: int  # position in the file's weapons list (for messages: weapons/<index>)
    wtype: WeaponType
    cls: int  # class (0 for DFO)
    barrels: int
    mount: str | None  # turret | fixed | limb | None (not stated)
    turret: str
    traverse: int
    arc: str  # centre_line | front
    primary: bool
    guidance: str | None
    stabilisation: str | None
    slaved: bool | None
    name: str
    path: str  # the entry's place in the file, for messages ("weapons/2", or "" for a heavy-weapon design)
    dustup: dict = field(default_factory=dict)

    @property
    def code(self) -> str:
        return self.wtype.code

    def at(self, name: str) -> str:
        return f"{self.path}/{name}" if self.path else name

    def label(self) -> str:
        if self.name:
            return self.name
        if self.wtype.category in ("direct_fire", "close_combat", "artillery"):
            return f"{self.code}-{self.cls}" + (f" x{self.barrels}" if self.barrels > 1 else "")
        return self.code


@dataclass
class SystemFit:
    index: int
    code: str
    quality: str | None


@dataclass
class Module:
    name: str
    role: str
    size: int
    armour: int


@dataclass
class Design:
    """A vehicle design as read from its file (defaults not yet applied: ``None`` = not stated)."""
    where: str
    doc: dict
    name: str
    kind: str
    walker_type: str | None
    size: int | None
    modules: list[Module]
    mobility: str
    power_plant: str | None
    armour: int
    special_armour: tuple[str, ...]
    stealth: int
    military: bool
    fire_control: str | None
    fire_controls: int
    ecm: str | None
    weapons: list[WeaponFit]
    systems: list[SystemFit]
    transport: dict
    dustup: dict

    @property
    def modular(self) -> bool:
        return bool(self.modules)


@dataclass
class HeavyWeaponDesign:
    where: str
    doc: dict
    name: str
    weapon: WeaponFit
    carriage: str
    crew: int
    fire_control: str | None
    ecm: str | None
    remote: bool
    dustup: dict


_SHORTHAND = re.compile(r"^([A-Za-z]+)[-/ ]?([1-9])$")


def _normalise_weapon_types(doc: dict, where: str, list_key: str = "weapons") -> None:
    """Accept the seed's shorthand ``"MDC-4"`` / ``"DFFG/4"`` and report unknown types clearly."""
    entries = doc.get(list_key) if list_key else [doc]
    if not isinstance(entries, list):
        return
    known = ", ".join(WEAPON_TYPES)
    for i, w in enumerate(entries):
        if not isinstance(w, dict) or not isinstance(w.get("type"), str):
            continue
        t = w["type"]
        if t in WEAPON_TYPES:
            continue
        up = t.upper()
        if up in WEAPON_TYPES:
            w["type"] = up
            continue
        m = _SHORTHAND.match(t)
        if m and m.group(1).upper() in WEAPON_TYPES and "class" not in w:
            w["type"], w["class"] = m.group(1).upper(), int(m.group(2))
            continue
        path = f"{list_key}/{i}/type" if list_key else "type"
        raise DesignFileError(f"{where}: {path}: unknown weapon type {t!r} (known: {known})")


def read_document(source) -> tuple[dict, str]:
    """A design document and its display name, from a path, a library name or a dict."""
    if isinstance(source, dict):
        return source, f"design {source.get('name', '?')!r}"
    p = Path(str(source))
    if not p.exists():
        lib = LIBRARY / f"{source}.json"
        if p.suffix != ".json" and lib.is_file():
            return _parse(lib.read_text(), f"{source}.json"), f"{source}.json"
        raise DesignFileError(f"{source}: no such file (and no library design of that name; "
                              f"`dustup design list` shows the library)")
    if p.is_dir():
        raise DesignFileError(f"{source}: is a directory, not a design file")
    try:
        text = p.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise DesignFileError(f"{source}: cannot be read: {e}") from None
    return _parse(text, str(source)), str(source)


def _parse(text: str, where: str) -> dict:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise DesignFileError(f"{where}: not valid JSON: {e}") from None
    return doc


def load(source) -> Design | HeavyWeaponDesign:
    """Read, validate and normalise a design (a path, a library name or a parsed dict)."""
    raw, where = read_document(source)
    if not isinstance(raw, dict):
        raise DesignFileError(f"{where}: (top level): a design must be a JSON object")
    doc = json.loads(json.dumps(raw))  # a private copy: shorthand is rewritten in place
    kind = doc.get("design")
    if kind == "vehicle":
        _normalise_weapon_types(doc, where)
        _validate(doc, "vehicle_design", where)
        return _vehicle(doc, where)
    if kind == "heavy_weapon":
        _normalise_weapon_types(doc, where, list_key="")
        _validate(doc, "heavy_weapon_design", where)
        return _heavy_weapon(doc, where)
    raise DesignFileError(f"{where}: design: must be \"vehicle\" or \"heavy_weapon\" (got {kind!r})")


def _fit(w: dict, index: int, where: str, path: str) -> WeaponFit:
    wt = WEAPON_TYPES[w["type"]]
    cls = w.get("class")
    if cls is None:
        if wt.implied_class is not None:
            cls = wt.implied_class
        elif wt.category == "deadfall":
            cls = 0
        else:
            legal = ", ".join(map(str, wt.classes))
            cpath = f"{path}/class" if path else "class"
            raise DesignFileError(f"{where}: {cpath}: required for {wt.code} (legal classes: {legal})")
    return WeaponFit(index=index, wtype=wt, cls=cls, barrels=w.get("barrels", 1), mount=w.get("mount"),
                     turret=w.get("turret", "main"), traverse=w.get("traverse", 360),
                     arc=w.get("arc", "centre_line"), primary=bool(w.get("primary", False)),
                     guidance=w.get("guidance"), stabilisation=w.get("stabilisation"), slaved=w.get("slaved"),
                     name=w.get("name", ""), path=path, dustup=dict(w.get("dustup", {})))


def _vehicle(doc: dict, where: str) -> Design:
    if ("size" in doc) == ("modules" in doc):
        raise DesignFileError(f"{where}: size: give the size class (1-7), or modules for a modular vehicle, "
                              "not both and not neither")
    fits = []
    for i, w in enumerate(doc.get("weapons", [])):
        for _ in range(w.get("count", 1)):
            fits.append(_fit(w, i, where, f"weapons/{i}"))
    systems = []
    for i, s in enumerate(doc.get("systems", [])):
        st = SYSTEM_TYPES[s["type"]]
        if st.quality and "quality" not in s:
            q = None  # the default is applied (and reported) by the check
        elif not st.quality and "quality" in s:
            raise DesignFileError(f"{where}: systems/{i}/quality: a {st.code} has no quality level")
        else:
            q = s.get("quality")
        systems.extend(SystemFit(i, st.code, q) for _ in range(s.get("count", 1)))
    sa = doc.get("special_armour", "none")
    special = tuple(sa) if isinstance(sa, list) else (() if sa == "none" else (sa,))
    kind = doc.get("kind", "conventional")
    modules = [Module(m.get("name", f"module {j + 1}"), m["role"], m["size"], m.get("armour", 0))
               for j, m in enumerate(doc.get("modules", []))]
    return Design(where=where, doc=doc, name=doc["name"], kind=kind, walker_type=doc.get("walker_type"),
                  size=doc.get("size"), modules=modules, mobility=doc["mobility"], power_plant=doc.get("power_plant"),
                  armour=doc.get("armour", 0), special_armour=special, stealth=doc.get("stealth", 0),
                  military=doc.get("military", kind != "large_creature"), fire_control=doc.get("fire_control"),
                  fire_controls=doc.get("fire_controls", 1), ecm=doc.get("ecm"), weapons=fits, systems=systems,
                  transport=dict(doc.get("transport", {})), dustup=dict(doc.get("dustup", {})))


def _heavy_weapon(doc: dict, where: str) -> HeavyWeaponDesign:
    fit = _fit({k: v for k, v in doc.items() if k != "name"}, 0, where, "")
    fit.mount = doc["carriage"]
    return HeavyWeaponDesign(where=where, doc=doc, name=doc["name"], weapon=fit, carriage=doc["carriage"],
                             crew=doc["crew"], fire_control=doc.get("fire_control"), ecm=doc.get("ecm"),
                             remote=bool(doc.get("remote", False)), dustup=dict(doc.get("dustup", {})))


def library_names() -> list[str]:
    """The built-in designs (``dustup_env/data/designs/*.json``), by name."""
    return sorted(p.name[:-5] for p in LIBRARY.iterdir() if p.name.endswith(".json"))
