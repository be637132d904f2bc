"""The layering the design relies on (docs/architecture.md), checked on the source:

* no import cycle between the project's modules (every import counts, including the ones inside functions);
* the engine package ``dustup_env`` imports nothing from the packages above it (``agents``, ``training``,
  ``evaluation``, the command line ``dustup_cli``): it reaches agents through its registry;
* the kernel imports no rules chapter; the rules engine imports neither Gymnasium nor torch;
* no module uses another module's private names (``from x import _name``, ``module._name``);
* ``Game`` stays small: the kernel keeps the turn sequence and the decision stack only;
* every standard rule is a named Rule of the catalogue, and every rules module that declares a Rule is listed;
* a base chapter does not branch on a later one: no test of a unit's vehicle profile in the base chapters.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import dustup_env
from dustup_env.rules import catalogue
from dustup_env.rules.kernel.ruleset import Rule

ROOT = Path(dustup_env.__file__).resolve().parent.parent
PACKAGES = ("dustup_env", "dustup_cli", "agents", "training", "evaluation")


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for p in (ROOT / pkg).rglob("*.py"):
            parts = list(p.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = p
    return out


MODULES = _modules()


def _resolve(mod: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = mod.split(".")
    is_pkg = MODULES[mod].name == "__init__.py"
    base = base[: len(base) - node.level + (1 if is_pkg else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(mod: str):
    """(imported module, names imported from it) for every import statement of ``mod``."""
    tree = ast.parse(MODULES[mod].read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, ()
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(mod, node)
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in MODULES:
                    yield sub, ()
                else:
                    yield target, (a.name,)


def _graph() -> dict[str, set]:
    g = {}
    for mod in MODULES:
        deps = set()
        for target, _ in _imports(mod):
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != mod and not mod.startswith(target + "."):  # a package's own __init__
                deps.add(target)
        g[mod] = deps
    return g


def test_no_import_cycle_between_the_projects_modules():
    graph = _graph()
    # Tarjan's strongly connected components: a cycle is a component of two modules or more
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    import sys
    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    assert not comps, f"import cycles: {comps}"


def test_the_kernel_imports_no_rules_chapter_and_the_engine_no_gym_or_torch():
    for mod in MODULES:
        if not mod.startswith("dustup_env.rules"):
            continue
        for target, _ in _imports(mod):
            if mod.startswith("dustup_env.rules.kernel"):
                assert not target.startswith("dustup_env.rules.") or target.startswith("dustup_env.rules.kernel"), \
                    f"{mod} imports {target}"
            assert target.split(".")[0] not in ("gymnasium", "torch", "stable_baselines3", "sb3_contrib", "agents",
                                                "training", "evaluation"), f"{mod} imports {target}"


def test_no_module_uses_another_modules_private_names():
    bad = []
    for mod in MODULES:
        tree = ast.parse(MODULES[mod].read_text())
        aliases = {}  # local name -> imported project module
        for target, names in _imports(mod):
            for n in names:
                if n.startswith("_") and not n.startswith("__") and target != mod:
                    bad.append(f"{mod}: from {target} import {n}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    full = f"{_resolve(mod, node)}.{a.name}"
                    if full in MODULES:
                        aliases[a.asname or a.name] = full
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in MODULES:
                        aliases[a.asname or a.name.split(".")[0]] = a.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                bad.append(f"{mod}: {node.value.id}.{node.attr}")
    assert not bad, bad


def test_game_keeps_the_turn_sequence_and_the_decision_stack_only():
    lines = (ROOT / "dustup_env/rules/kernel/game.py").read_text().count("\n")
    assert lines < 500, f"kernel/game.py has {lines} lines"


def test_every_rules_module_with_a_rule_is_in_the_catalogue():
    listed = {id(r) for r in catalogue.STANDARD}
    for mod in MODULES:
        if not mod.startswith("dustup_env.rules.") or mod.startswith("dustup_env.rules.vehicle_design"):
            continue
        m = importlib.import_module(mod)
        for name, value in vars(m).items():
            if isinstance(value, Rule) and name.isupper():
                assert id(value) in listed, f"{mod}.{name} ({value.name}) is not in the catalogue"
    assert len({r.name for r in catalogue.STANDARD}) == len(catalogue.STANDARD)


RULES_MODULE_LIMIT = 700


def test_no_rules_module_is_over_the_size_limit():
    """One module per rulebook section: a module that outgrows the limit is split as the rulebook splits its section
    (the Assault Action: assault_courage_test, assault_movement, assault_combat, assault_events, assault_action)."""
    big = {m: n for m, p in MODULES.items() if m.startswith("dustup_env.rules.")
           for n in [len(p.read_text().splitlines())] if n > RULES_MODULE_LIMIT}
    assert not big, f"rules modules over {RULES_MODULE_LIMIT} lines: {big}"


BASE_CHAPTERS = ("unit_actions", "morale", "rules_overview", "forces")
VEHICLE_TESTS = ("profile.vehicle", ".vehicle is None", ".vehicle is not None")


def test_no_base_chapter_branches_on_the_vehicle_rules():
    """The base chapters ask the rule set's services (``vehicle_profile``, ``acts_while_suppressed``) where the
    vehicle rules change what a unit does; they never read a unit's vehicle profile themselves."""
    bad = [f"{m}: {t!r}" for m, p in MODULES.items()
           if any(m.startswith(f"dustup_env.rules.{c}.") or m == f"dustup_env.rules.{c}" for c in BASE_CHAPTERS)
           for text in [p.read_text()] for t in VEHICLE_TESTS if t in text]
    assert not bad, "; ".join(bad)


ABOVE_THE_ENGINE = ("agents", "training", "evaluation", "dustup_cli")


def test_the_engine_package_imports_nothing_from_the_packages_above_it():
    """Every module of ``dustup_env`` (every import statement, including the ones inside functions): the agents,
    training, evaluation and the command line sit above the engine."""
    bad = []
    for mod in MODULES:
        if mod != "dustup_env" and not mod.startswith("dustup_env."):
            continue
        for target, _names in _imports(mod):
            if target.split(".")[0] in ABOVE_THE_ENGINE:
                bad.append(f"{mod} imports {target}")
    assert not bad, "; ".join(sorted(set(bad)))




def test_the_standard_rule_set_names_each_rule_once():
    """A rule listed twice in rules/catalogue.py would run its hooks twice (a merge can leave one)."""
    from dustup_env.rules.catalogue import STANDARD

    names = [r.name for r in STANDARD]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
# what every unit has (kernel/entities.py ``Unit``; docs/architecture.md "One home for rule state"): a later chapter's
# state of a unit is its own record in ``veh`` (the vehicle rules' ``VehicleState``), never a field of its own here
EVERY_UNIT = (
    "uid", "side", "profile", "lv", "confidence", "x", "y", "figures", "leader", "suppression", "propped",
    "complete_concealment", "activated", "fired", "under_fire_before", "suppressed_before", "leader_lost", "location",
    "loose", "hidden", "revealed_at", "hidden_spans", "commander", "second_in_command", "command_lost",
    "promotion_pending", "assume_command", "vacated", "assume_vacancy", "panicked", "panic_passed", "panic_triggers",
    "panic_routed", "abandoned", "parent", "strength", "travel", "mounted", "mounts_detached", "left_behind",
    "abandon_point", "tasks_done", "terrain_column", "inbound", "evacuated_wounded", "veh")


def test_a_unit_keeps_what_every_unit_has():
    """``Unit``'s fields are the documented every-unit set; the vehicle chapters' fields are the vehicle rules'
    ``VehicleState`` (read ``u.veh.facing``, write ``vehicle_state(u).facing``), and the old names fail loudly."""
    import pytest

    from dustup_env.rules.armoured_dustup.vehicles import VehicleState
    from dustup_env.rules.kernel.entities import BLANK, UNIT_STATE_FIELDS, Unit

    assert tuple(Unit.__dataclass_fields__) == EVERY_UNIT
    assert set(UNIT_STATE_FIELDS) == set(VehicleState.FIELDS) and not set(VehicleState.FIELDS) & set(EVERY_UNIT)
    doc = (ROOT / "docs/architecture.md").read_text()
    assert all(f"`{f}`" in doc for f in VehicleState.FIELDS)  # the doc names each field where it lives now
    u = Unit.new(uid=0, side=0, name="A", kind="squad", quality=8, initial_confidence=1, commitment=0, movement=6,
                 armour="basic_battledress", lv=2, confidence=1, x=0.0, y=0.0, figures=[])
    assert u.veh is BLANK and u.veh.carrier == -1 and u.veh.passengers == []
    for name in VehicleState.FIELDS:
        with pytest.raises(AttributeError, match=f"u.veh.{name}"):
            getattr(u, name)
    assert u.veh is BLANK
    with pytest.raises(AttributeError, match="vehicle_state"):
        BLANK.carrier = 1
    with pytest.raises(AttributeError, match="vehicle_state"):
        BLANK.passengers.append(1)
    assert BLANK.carrier == -1 and BLANK.passengers == []
