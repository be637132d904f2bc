"""Hidden information on the Additional Rules' scenarios (seed 000 "Hidden Units" L1074-1099, "Smoke" L1878-1898,
"Mines and Explosives" L1926-1964): dummy mine counters, hidden minefields and hidden units (with smoke grenades, an
EW system, small drones) never leak.

Twin games differ only in a secret of one side: which mine counter is the dummy, where a hidden minefield lies,
which marker hides the real unit (and what the unit is).  Both twins take the same choices (the secret side's
hidden unit only quiet ones while it is hidden); at every decision the other side's observation, action mask,
legal options, view (``game.view``), the HTTP view (``Session.state``, what ``GET /games/{id}`` returns), the page's
table view and its event log must be identical, until its own event log tells the twins apart (a mine test, a
detection: what it may legitimately learn).  The protocol's answers (``dustup engine``) and the agents ``hard``,
``medium`` and ``mcts:playouts=20`` are compared the same way.
"""
from __future__ import annotations

import copy
import json
import random

import pytest

from conftest import scenario, unit
from dustup_env.codec import ActionCodec
from dustup_env.observation import UNIT_FEATURES, Observer
from dustup_env.rules import Game, load_scenario
from dustup_env.rules.additional_rules import smoke

VISIBLE = UNIT_FEATURES.index("visible")


# ---------------------------------------------------------------------------------------------- the visible flag
def test_the_observations_visible_flag_sees_smoke_whatever_the_line_of_sight_caches_hold():
    """The ``units`` piece's ``visible`` flag (an own unit seen by an enemy leader, an enemy unit seen by an own
    leader) reads the game's battlefield with its smoke: not the static battlefield's cache (lines without the smoke,
    filled by whatever this process asked before: the other side's choices, another game on the same terrain), and
    again when a cloud is laid while nobody moved.  Twins on the same terrain gave the other side different
    observations by the order they were observed in."""
    scn = scenario([unit("A", (24, 8))], [unit("B", (24, 30))], options={"smoke_grenades": True})
    g = Game(scn, seed=1)
    obs = Observer.for_game(g)

    def flags(o):
        rows = o.dict["units"]
        return rows[0][VISIBLE], rows[o.slots][VISIBLE]

    obs.set_from(g, 0)
    assert flags(obs) == (1.0, 1.0)  # in the open, 22" apart: they see each other
    smoke.add_cloud(g, 24.0, 19.0, smoke.BIG_R, "test")  # a 6" cloud between them
    assert not g.bf.sight(24.0, 8.0, 24.0, 30.0).visible
    obs.set_from(g, 0)
    assert flags(obs) == (0.0, 0.0)  # the same observer, nobody moved
    g.battlefield.sight(24.0, 8.0, 24.0, 30.0)  # the static battlefield's cache holds the line without the smoke
    g.battlefield.sight(24.0, 30.0, 24.0, 8.0)
    fresh = Observer.for_game(g)
    fresh.set_from(g, 0)
    assert flags(fresh) == (0.0, 0.0)
    twin = Game(copy.deepcopy(scn), seed=1)  # a second game on the same (shared) terrain
    smoke.add_cloud(twin, 24.0, 19.0, smoke.BIG_R, "test")
    assert Observer.for_game(twin).observation(twin, 0).tobytes() == fresh.observation(g, 0).tobytes()
