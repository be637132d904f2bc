"""Saves written by the engine's first save format (version 1: a replay recipe with a state digest) still load,
into the same game: the same event log and the same pending decision (or result)."""
import json
from pathlib import Path

import pytest

from golden_games import _decision_key, _digest
from dustup_env.rules import Game
from dustup_env.rules.kernel.errors import SaveFormatError

DIR = Path(__file__).parent / "data" / "saves-v1"
EXPECTED = json.loads((DIR / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_version_1_saves_still_load_into_the_same_game(name):
    """A save whose game a later rules revision changes is refused in one line, naming why (``refused``)."""
    exp = EXPECTED[name]
    if exp.get("refused"):
        with pytest.raises(SaveFormatError, match="version-1 save .* gives a different game"):
            Game.load(DIR / name)
        return
    g = Game.load(DIR / name)
    assert _digest(g.event_log()) == exp["events"]
    if exp["result"] is None:
        assert not g.over and _digest(_decision_key(g.decision())) == exp["decision"]
    else:
        assert g.over and g.result() == exp["result"]
