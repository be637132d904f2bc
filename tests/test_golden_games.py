"""Every game of the golden corpus (tests/golden_games.py) replays identically: the same options offered at
every decision, the same event stream (and per-side logs where units hide), the same result.

A deliberate rules change re-records the corpus (``python tests/golden_games.py record``) in the same commit,
and says in its message which games changed and why."""
import pytest

import golden_games as gg

GAMES = gg.load()
CHUNKS = 8


def test_corpus_is_large_and_varied():
    assert len(GAMES) >= 500
    assert {g["config"] for g in GAMES} == {c[0] for c in gg.CONFIGS}
    assert sum(g["decisions"] for g in GAMES) > 50_000


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_golden_games_replay_identically(chunk):
    bad = []
    for game in GAMES[chunk::CHUNKS]:
        diffs = gg.check_game(game)
        if diffs:
            bad.append(f"{game['config']}#{game['k']}: {diffs[0]}")
    assert not bad, f"{len(bad)} games differ, e.g. " + "; ".join(bad[:3])
