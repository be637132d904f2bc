"""The built-in ``ambush`` scenario: infantry with a hidden squad and two dummy markers per side (seed 000
"Hidden Units", L1074-1080: "For each hidden unit deployed, two dummy counters may also be deployed").  It
loads, is listed, plays to the end with the random and hard agents, and neither side's observation, view or
event log tells where the enemy's hidden squad is or what it is (the fair-play twins)."""
from __future__ import annotations

import pytest

from agents import make_agent
from dustup_cli.cli import main
from dustup_env.observation import Observer
from dustup_env.rules import Game, load_scenario, scenario_names
from dustup_env.service import views
from evaluation.simulate import play_game
from test_fair_play import factory, lockstep, swapped


def test_it_loads_and_is_listed(capsys):
    assert "ambush" in scenario_names()
    doc = load_scenario("ambush")
    assert main(["scenarios"]) == 0
    assert any(line.startswith("ambush") for line in capsys.readouterr().out.splitlines())
    g = Game("ambush", seed=0)
    for s, side in enumerate(doc["sides"]):
        hidden = [u for u in g.units if u.side == s and u.hidden]
        assert len(hidden) == 1 and hidden[0].profile.vehicle is None  # infantry
        assert len(side["dummies"]) == 2
        mine = [m for m in g.markers if m["side"] == s]
        assert len(mine) == 3 and sum(m["unit"] >= 0 for m in mine) == 1
        for m in mine:
            assert g.bf.conceals(m["x"], m["y"])  # markers only in concealing terrain
    assert all(u.profile.vehicle is None for u in g.units)


@pytest.mark.parametrize("agents", [("random", "random"), ("hard", "random"), ("random", "hard"), ("hard", "hard")])
def test_it_plays_to_the_end(agents):
    for seed in range(2):
        g = play_game("ambush", [make_agent(n, seed=seed) for n in agents], seed)
        r = g.result()
        assert g.over and r["winner"] in (-1, 0, 1) and 1 <= r["turns"] <= 6


@pytest.mark.parametrize("side", [0, 1])
def test_the_other_side_cannot_see_the_hidden_squad(side):
    """Twins that differ only in where the enemy's hidden squad stands (it swaps places with a dummy marker)
    and what it is: the same observation, view, page view and event log for ``side`` at the start."""
    doc = load_scenario("ambush")
    a, b = Game(doc, seed=5), Game(swapped(doc, 1 - side), seed=5)
    assert a.state_digest() != b.state_digest()
    assert (Observer().observation(a, side).tobytes() == Observer().observation(b, side).tobytes())
    assert a.view(side) == b.view(side) and a.event_log(side) == b.event_log(side)
    assert views.table_view(a, side) == views.table_view(b, side)
    enemy = next(u for u in a.view(side)["units"] if u["side"] != side and u.get("hidden"))
    assert set(enemy) == {"uid", "side", "name", "hidden"}  # a name and a marker: no place, no figures
    assert all("unit" not in m for m in a.view(side)["markers"] if m["side"] != side)
    # the hidden squad's own side sees it, so its twins differ there
    assert a.view(1 - side) != b.view(1 - side)


@pytest.mark.parametrize("name", ["random", "hard"])
@pytest.mark.parametrize("side", [0, 1])
def test_agents_play_it_without_reading_the_hidden_squad(name, side):
    doc = load_scenario("ambush")
    ends = [lockstep(factory(name), doc, swapped(doc, 1 - side), side, 90 + seed, {}) for seed in range(5)]
    assert sum(n for n, _ in ends) >= 30, ends  # decisions compared before a detection ends a pair
