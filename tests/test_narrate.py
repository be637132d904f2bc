"""dustup_env.narrate: every option of every decision kind gets a specific label and every event type a
one-line narration, over many varied games (the golden corpus's configurations: both scenarios, every
option set, hidden units, house close combat, random scenarios), for a spectator and for each side."""
from __future__ import annotations

import dataclasses
import random
import re

import pytest

import golden_games as gg
from dustup_env import narrate as nr
from dustup_env.rules import Game
from dustup_env.rules.house_rules import close_combat  # noqa: F401  (registers its events)
from dustup_env.rules.kernel.events import Event
from dustup_env.rules.unit_actions.move_action import DIRECTIONS, DISTANCES

GAMES = gg.load()
# a spread of the corpus: the first games of every configuration (assaults, command, hidden units, ...)
SAMPLE = [g for g in GAMES if g["k"] < {"default": 3, "default-all-options": 6, "default-ladder": 4}.get(g["config"], 10)]


def _event_classes():
    seen = {}
    stack = list(Event.__subclasses__())
    while stack:
        c = stack.pop()
        if c.__module__.startswith("dustup_env."):  # the engine's events (not the test-only rules' of other tests)
            seen[c.__name__] = c
        stack.extend(c.__subclasses__())
    return seen


def _check_label(text: str, opt) -> None:
    assert isinstance(text, str) and text.strip(), opt
    assert "unit " not in text or not re.search(r"\bunit \d", text), (opt, text)  # every unit is named


def test_vocabulary_matches_the_engine():
    assert len(nr.COMPASS) == DIRECTIONS
    assert tuple(nr.MOVE_DISTANCES) == tuple(DISTANCES)
    from dustup_env.codec import FAMILIES
    missing = {name for name, _ in FAMILIES} - nr.OPTION_NAMES
    assert not missing, f"option families without a label: {missing}"
    unnarrated = set(_event_classes()) - nr.EVENT_TYPES
    assert not unnarrated, f"event types without a narration: {unnarrated}"


def test_every_event_type_narrates_from_synthetic_fields():
    """Each event class with plausible field values narrates through its own line (not the generic one)."""
    vals = {int: 1, float: 2.5, str: "minor", bool: True}
    know = nr.Knowledge(names={1: "Alpha", 2: "Xray"}, side_names=("Blue", "Red"))
    for name, cls in _event_classes().items():
        d = {"type": name}
        for f in dataclasses.fields(cls):
            t = f.type if isinstance(f.type, type) else {"int": int, "float": float, "str": str, "bool": bool,
                                                          "tuple": tuple}.get(str(f.type), int)
            d[f.name] = [1.0, 2.0] if t is tuple else vals.get(t, 1)
        if name in ("ShotResolved", "DetectionAttempted"):
            d.update(firer_dice=["d8", "d10"], firer_rolls=[3, 7], observer_dice=["d8", "d4"], observer_rolls=[2, 1])
        if name == "StrikeResolved":
            d.update(striker_dice=["d8"], striker_rolls=[5])
        if name in ("AssaultDeclared", "AssaultEnded"):
            d.update(attackers=[1], defenders=[2])
        if name in ("CombinedAssaultOrdered",):
            d.update(units=[1, 2], success=[True, False])
        if name in ("GameEnded",):
            d.update(vp=[1, 2], winner=0)
        if name in ("ChitDrawn",):
            d.update(chits_left=[2, 3])
        text = nr.narrate(d, know)
        assert text and not text.startswith(name), (name, text)
    assert nr.narrate({"type": "SomethingNew", "unit": 1}, know) == "SomethingNew: unit=Alpha"


@pytest.mark.parametrize("part", range(2))
def test_labels_and_narration_over_many_games(part):
    """Replay a spread of the golden corpus: every option offered gets a specific label (its name is in the
    vocabulary) and every event of the full log and of each side's log gets a narration of its own type."""
    kinds, names, types = set(), set(), set()
    for game in SAMPLE[part::2]:
        choices = game["choices"]
        g = Game(gg.scenario_of(game), seed=game["seed"], options=game["options"])
        for i, c in enumerate(choices):
            d = g.decision()
            if i % 3 == 0 or d.kind != "action":  # labels of a third of the action decisions keep this quick
                know = nr.Knowledge.of_side(g, d.side)
                kinds.add(d.kind)
                assert nr.decision_prompt(d.side, d.kind, d.unit, know)
                for o in d.options:
                    assert o[0] in nr.OPTION_NAMES, f"no label for {o!r} ({d.kind})"
                    names.add(o[0])
                    _check_label(nr.option_label(o, d.kind, know, unit=d.unit), o)
            g.apply(d.options[c])
        spectator = nr.Knowledge.spectator(g)
        for e in g.event_log():
            assert e["type"] in nr.EVENT_TYPES, e
            types.add(e["type"])
            _check_label(nr.narrate(e, spectator), e)
        for side in (0, 1):
            know = nr.Knowledge.of_side(g, side)
            for e in g.event_log(side):
                assert e["type"] in nr.EVENT_TYPES, e
                _check_label(nr.narrate(e, know), e)
    # the sample is varied: most decision kinds, options and events occur
    assert len(kinds) >= 10 and len(names) >= 30 and len(types) >= 40, (sorted(kinds), len(names), len(types))


def test_move_labels_and_narration_read_well():
    g = Game("skirmish", seed=3)
    while g.decision().kind != "action":
        g.apply(g.decision().options[0])
    d = g.decision()
    know = nr.Knowledge.of_side(g, d.side)
    assert nr.option_label(("move", 0, 1), "action", know, unit=d.unit) == 'move N 6"'
    assert nr.option_label(("move", 6, 3), "action", know, unit=d.unit) == 'move SE 24"'
    assert nr.option_label(("shoot", 2, "all"), "action", know) == "shoot at Xray (all weapons)"
    assert nr.option_label(("withdraw",), "assault_response", know) == "withdraw from the assault"
    assert nr.option_label(("never_heard_of", 3, "x"), "action", know) == "never heard of 3 x"
    line = nr.narrate({"type": "Moved", "unit": 0, "roll": 4, "points": 8.0, "start": [10, 3], "end": [10, 9],
                       "withdraw": False}, know)
    assert line == 'Alpha moves 6" N to (10, 9) (rolled 4: 8 movement points)'
    cm = Game("skirmish", seed=3, options={"measure": "centimetres"})
    assert nr.option_label(("move", 4, 0), "action", nr.Knowledge.spectator(cm)) == "move E 3 cm"
    assert nr.bearing(1, 1) == "NE" and nr.bearing(-1, 0) == "W" and nr.bearing(0.1, -1) == "S"


def test_side_knowledge_names_no_hidden_unit_position():
    """A side's Knowledge holds no position of an enemy unit that is hidden from it."""
    from golden_games import _hidden, _doc
    g = Game(_hidden(_doc("skirmish")), seed=1)
    hidden = [u.uid for u in g.units if u.hidden]
    assert hidden
    for side in (0, 1):
        know = nr.Knowledge.of_side(g, side)
        for uid in hidden:
            if g.units[uid].side != side:
                assert uid not in know.positions
    rng = random.Random(0)
    while not g.over:
        d = g.decision()
        g.apply(d.options[rng.randrange(len(d.options))])
    assert nr.narrate(g.event_log()[-1], nr.Knowledge.spectator(g)).startswith("game over")
