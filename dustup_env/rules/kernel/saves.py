"""Saving and loading games: replay saves, state snapshots, digests.

Two formats, both plain JSON, both naming the engine version and the rules digest they were written with:

* a **save** (``Game.to_dict()`` / ``Game.save(path)``, format ``dustup-save``): the scenario, seed, options
  and every decision.  Loading replays the decisions and checks the replayed game against the digest of
  its event log; a save whose replay gives a different game (another engine's rules) is refused.
* a **snapshot** (``Game.snapshot()`` / ``Game.from_snapshot(doc)``, format ``dustup-state``): the whole
  state (units, decision stack, markers, module state, the dice generator's state, the event log and the
  history), loaded without replaying.  A snapshot written under other rules (a different rules digest) is
  not continued under these: it is replayed from its history instead and refused if that gives a
  different game.

``state_digest()`` is a short hash of the state (equal games, equal digests); ``event_digest`` one of the
event log, which is what a game looks like from outside and what saves are checked against.
Saves of the first format (version 1, without engine or rules) still load: they are replayed and
checked against their state digest of that time.
"""
from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

from ... import version
from .decisions import Frame
from .dice import SeededDice
from .entities import UNIT_ATTRIBUTES_V1, Unit, unit_dict, unit_from_dict
from .errors import DustupError, GameOverError, IllegalOptionError, SaveFormatError
from .events import event_from_dict
from .state import OLD_FORMS, load_components, saved_components
from .terrain import refresh

SAVE_FORMAT = "dustup-save"
STATE_FORMAT = "dustup-state"
SAVE_VERSION = 2
# Bump when a change of the rules changes what a game does (the golden corpus, tests/golden_games.py, is
# re-recorded in the same change): saves written before are then checked by replaying them.
RULES_REVISION = 2


def plain_data(obj):
    """Plain-data view of a dataclass instance (every field, recursively; sets sorted)."""
    if isinstance(obj, Unit):
        return unit_dict(obj)
    if hasattr(obj, "__dataclass_fields__"):
        return {k: plain_data(getattr(obj, k)) for k in obj.__dataclass_fields__}
    if hasattr(obj, "_asdict"):  # a named tuple (Figure)
        return {k: plain_data(v) for k, v in obj._asdict().items()}
    if isinstance(obj, (list, tuple)):
        return [plain_data(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, dict):
        return {str(k): plain_data(v) for k, v in obj.items()}
    return obj


def _digest(doc) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def rules_digest(game) -> str:
    """A short hash of the rules a game is played by: the rule set (names, order), every option's default,
    the data files and :data:`RULES_REVISION`."""
    from .data import DATA
    names = [r.name for r in game.rules]
    defaults = {o.name: repr(o.default) for r in game.rules for o in r.options}
    data = hashlib.sha256()
    for name in ("weapons.json", "courage_test.json"):
        data.update((DATA / name).read_bytes())
    return _digest([RULES_REVISION, names, defaults, data.hexdigest()])


def event_digest(game) -> str:
    return _digest([e.to_dict() for e in game.events])


def state(game, strict: bool = True) -> dict:
    """The game's state as plain data (see kernel.state.STATE); ``strict``: only seeded dice (a save).  The table
    entities are named only when there are some (the digests of games without them are those of before)."""
    if strict and not isinstance(game.dice, SeededDice):
        raise SaveFormatError("only games rolling the seeded generator can be saved")
    doc = {"units": [plain_data(u) for u in game.units], "side_units": [list(s) for s in game.side_units],
            "turn": game.turn, "phase": game.phase, "current": game.current, "initiative": game.initiative_winner,
            "stack": [plain_data(f) for f in game.stack], "winner": game.winner, "vp": list(game.vp),
            "end_reason": game.end_reason, "markers": copy.deepcopy(game.markers),
            "extra": copy.deepcopy(saved_components(game.components)), "terrain": copy.deepcopy(game.terrain),
            "dice": game.dice.getstate(), "events_base": game.events_base}
    if game.entities:
        doc["entities"] = copy.deepcopy(game.entities)
    return doc


def snapshot(game) -> dict:
    """The whole game as plain data: ``Game.from_snapshot`` continues it without replaying."""
    return {"format": STATE_FORMAT, "version": SAVE_VERSION, "engine": version.__version__,
            "rules": rules_digest(game), "rule_set": [r.name for r in game.rules],
            "scenario": game.source_scenario, "seed": game.seed, "options": dict(game.options),
            "state": state(game), "events": [e.to_dict() for e in game.events],
            "history": [list(o) for o in game.history]}


def state_digest(game) -> str:
    """A short hash of the state (the event log counted, not hashed)."""
    doc = state(game, strict=False)
    doc["n_events"] = len(game.events)
    doc["n_history"] = len(game.history)
    return _digest(doc)


def to_dict(game) -> dict:
    """A save: the scenario, seed, options and every decision (replayed exactly on load)."""
    if not isinstance(game.dice, SeededDice):
        raise SaveFormatError("only games rolling the seeded generator can be saved")
    if game.events_base:
        raise SaveFormatError("a copy made with clone(log=False) has no full history and cannot be saved")
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "engine": version.__version__,
            "rules": rules_digest(game), "scenario": game.source_scenario, "seed": game.seed,
            "options": dict(game.options), "decisions": [list(o) for o in game.history],
            "events": len(game.events), "digest": event_digest(game)}


def save(game, path) -> None:
    doc = to_dict(game)
    with open(path, "w") as fh:
        json.dump(doc, fh)


def _v1_digest(game) -> str:
    """The state digest of version-1 saves."""
    stack, extra = [plain_data(f) for f in game.stack], copy.deepcopy(saved_components(game.components))
    for to_old, _ in OLD_FORMS:
        to_old(game, stack, extra)
    doc = {"turn": game.turn, "phase": game.phase, "current": game.current,
           "stack": stack, "initiative": game.initiative_winner,
           "winner": game.winner, "markers": copy.deepcopy(game.markers),
           "extra": extra,
           "units": [unit_dict(u, UNIT_ATTRIBUTES_V1, state=False) for u in game.units], "dice": game.dice.getstate(),
           "n_events": len(game.events)}
    return _digest(doc)


def _need(d: dict, key: str, types, what: str):
    if key not in d:
        raise SaveFormatError(f"{what} is missing {key!r}")
    v = d[key]
    if not isinstance(v, types):
        raise SaveFormatError(f"{what}: {key!r} has the wrong type ({type(v).__name__})")
    return v


def from_dict(cls, d: dict, rules=()):
    """Load a save (replaying its decisions)."""
    if not isinstance(d, dict) or d.get("format") != SAVE_FORMAT:
        raise SaveFormatError(f"not a Dustup save (missing format: {SAVE_FORMAT})")
    ver = d.get("version")
    if ver not in (1, SAVE_VERSION):
        raise SaveFormatError(f"unsupported save version {ver!r} (this engine reads 1 and {SAVE_VERSION})")
    decisions = _need(d, "decisions", list, "save")
    seed = _need(d, "seed", int, "save")
    options = d.get("options") or None
    g = replay(cls, _need(d, "scenario", (dict, str), "save"), seed, decisions, options=options, rules=rules)
    if ver == 1:
        if "digest" in d and d["digest"] != _v1_digest(g):
            raise SaveFormatError(
                f"this version-1 save was written by an earlier engine; replayed by this engine ({version.__version__}, "
                f"rules revision {RULES_REVISION}) it gives a different game (the rules changed since, or the file is "
                "corrupt), so it is refused")
        return g
    if d.get("digest") != event_digest(g) or d.get("events") != len(g.events):
        if d.get("rules") == rules_digest(g):
            raise SaveFormatError("save digest does not match the replayed game (corrupt or foreign save)")
        raise SaveFormatError(
            f"this save was written by engine {d.get('engine')!r} with rules {d.get('rules')!r}; replayed by this "
            f"engine ({version.__version__}, rules {rules_digest(g)}) it gives a different game, so it is refused")
    return g


def load(cls, path, rules=()):
    """Load a save or a snapshot file."""
    try:
        with open(path) as fh:
            d = json.load(fh)
    except json.JSONDecodeError as e:
        raise SaveFormatError(f"{path}: not JSON: {e}") from None
    except OSError as e:
        raise SaveFormatError(f"{path}: cannot read: {e.strerror}") from None
    if isinstance(d, dict) and d.get("format") == STATE_FORMAT:
        return from_snapshot(cls, d, rules=rules)
    return from_dict(cls, d, rules=rules)


def replay(cls, scenario, seed: int, decisions, options: dict | None = None, rules=()):
    g = cls(scenario, seed=seed, options=options, rules=rules)
    for i, opt in enumerate(decisions):
        if not isinstance(opt, (list, tuple)):
            raise SaveFormatError(f"decision #{i} is not a list: {opt!r}")
        try:
            g.apply(tuple(opt))
        except (IllegalOptionError, GameOverError) as e:
            raise SaveFormatError(f"decision #{i} does not replay: {e}") from None
    return g


def _unit(d: dict) -> Unit:
    return unit_from_dict(d)


def from_snapshot(cls, d: dict, rules=()):
    """Continue a game from its snapshot (no replay when it was written under these rules)."""
    if not isinstance(d, dict) or d.get("format") != STATE_FORMAT:
        raise SaveFormatError(f"not a Dustup snapshot (missing format: {STATE_FORMAT})")
    if d.get("version") != SAVE_VERSION:
        raise SaveFormatError(f"unsupported snapshot version {d.get('version')!r} (this engine reads {SAVE_VERSION})")
    st = _need(d, "state", dict, "snapshot")
    history = _need(d, "history", list, "snapshot")
    events = _need(d, "events", list, "snapshot")
    g = cls.__new__(cls)
    g.bind_scenario(_need(d, "scenario", (dict, str), "snapshot"), d.get("options"), rules)
    g.seed = _need(d, "seed", int, "snapshot")
    if d.get("rules") != rules_digest(g):
        if st.get("events_base"):
            raise SaveFormatError(
                f"this snapshot was written by engine {d.get('engine')!r} with rules {d.get('rules')!r}, this engine "
                f"has rules {rules_digest(g)}, and it holds no full history to replay: it cannot be continued")
        h = replay(cls, d["scenario"], g.seed, history, options=d.get("options"), rules=rules)
        if [e.to_dict() for e in h.events] != events:
            raise SaveFormatError(
                f"this snapshot was written by engine {d.get('engine')!r} with rules {d.get('rules')!r}; replayed by "
                f"this engine ({version.__version__}, rules {rules_digest(h)}) it gives a different game, so it is "
                "refused")
        return h
    try:
        g.units = [_unit(u) for u in st["units"]]
        g.side_units = (list(st["side_units"][0]), list(st["side_units"][1]))
        g.turn, g.phase, g.current = int(st["turn"]), st["phase"], int(st["current"])
        g.initiative_winner = int(st["initiative"])
        g.stack = [Frame(**f) for f in st["stack"]]
        g.winner, g.vp, g.end_reason = st["winner"], tuple(st["vp"]), st["end_reason"]
        g.markers, g.terrain = st["markers"], st["terrain"]
        g.components = load_components(st["extra"])  # each rule's state from the fields saved under its names
        for _, from_old in OLD_FORMS:
            from_old(g)
        g.entities = list(st.get("entities", []))
        refresh(g)
        g.dice = SeededDice(g.seed)
        g.dice.setstate(st["dice"])
        g.events_base = int(st["events_base"])
        g.events = [event_from_dict(e) for e in events]
        g.history = [tuple(o) for o in history]
    except (KeyError, TypeError, ValueError) as e:
        raise SaveFormatError(f"snapshot state is malformed: {type(e).__name__}: {e}") from None
    g.pending_decision = None
    g.memo = None
    g.cache = {}
    try:
        if not g.over:
            g.decision()
    except DustupError:
        raise
    except Exception as e:  # noqa: BLE001 - a hand-edited snapshot
        raise SaveFormatError(f"snapshot state is inconsistent: {type(e).__name__}: {e}") from None
    return g


def snapshot_file(game, path) -> None:
    Path(path).write_text(json.dumps(snapshot(game)))
