"""The terminal as a person plays it: the compact move picker (``go DIR DIST``), the reach of a move, the odds on the
option lines (dustup_env/terminal.py)."""
from __future__ import annotations

import io
import random

from dustup_env import insight
from dustup_env.rules import Game
from dustup_env.terminal import HumanAgent, option_menu
from dustup_env import narrate as nr


def _action_with_moves_and_shots(scenario="default", seed=3):
    g = Game(scenario, seed=seed)
    rng = random.Random(1)
    for _ in range(2000):
        d = g.decision()
        if (d.kind == "action" and d.side == 0 and any(o[0] == "move" for o in d.options)
                and any(o[0] == "shoot" for o in d.options)):
            return g, d
        g.apply(rng.choice(d.options))
    raise AssertionError("no action with moves and shots")


def test_the_move_picker_replaces_one_row_per_move():
    g, d = _action_with_moves_and_shots()
    moves = [o for o in d.options if o[0] == "move"]
    lines, numbered, grid = option_menu(g, 0, d, nr.Knowledge.of_side(g, 0))
    assert len(moves) > 20 and not any(o[0] == "move" for o in numbered)
    assert len(lines) == len(d.options) - len(moves) + 1  # the moves are one line
    assert sum(len(v) for v in grid.values()) == len(moves)
    assert any('go DIR DIST' in x for x in lines)
    # the shoot lines carry the odds of the engine's dice
    for x, o in zip(lines, numbered):
        if o[0] == "shoot":
            assert x.endswith("[" + insight.short_odds(insight.option_odds(g, 0, o, d.unit)) + "]")
            assert " vs d" in x and "major " in x


def test_a_person_moves_with_go_and_sees_the_reach_first():
    g, d = _action_with_moves_and_shots()
    grid = insight.move_grid(d.options)
    dd, ks = next((dd, ks) for dd, ks in sorted(grid.items()) if len(ks) >= 2)
    k = sorted(ks)[-1]
    name, dist = insight.COMPASS[dd], nr.MOVE_DISTANCES[k]
    shut = next(((x, kk) for x in range(16) for kk in range(4) if kk not in grid.get(x, {})), None)
    script = ["go", "go XX 6", f"go {name} 7", f"go {name.lower()}"]
    if shut is not None:
        script.append(f"go {insight.COMPASS[shut[0]]} {nr.MOVE_DISTANCES[shut[1]]:g}")
    script.append(f"go {name} {dist:g}")
    out = io.StringIO()
    opt = HumanAgent(0, io.StringIO("\n".join(script) + "\n"), out).choose(g, d)
    assert opt == ("move", dd, k) and opt in d.options
    text = out.getvalue()
    assert 'type "go DIR DIST"' in text and "is not a compass point" in text and "is not a distance" in text
    if shut is not None:
        assert "is not open to this unit now" in text
    r = insight.reach(g, 0, d.unit)
    lo, hi = r["rolls"]
    assert f"roll {lo}-{hi}" in text and f"go {name} {dist:g}: " in text
    assert "your choice (1-" in text and "go DIR DIST, h for help)> " in text
    # a number still picks a numbered option
    lines, numbered, _ = option_menu(g, 0, d, nr.Knowledge.of_side(g, 0))
    assert HumanAgent(0, io.StringIO("1\n"), io.StringIO()).choose(g, d) == numbered[0]


def test_the_move_preview_says_centimetres_in_a_centimetre_game():
    """In a game played in centimetres (option measure), the move line and the reach of a move name centimetres,
    not inches (the rules units are centimetres there)."""
    g = Game("default", seed=3, options={"measure": "centimetres"})
    rng = random.Random(1)
    while not (g.decision().kind == "action" and g.decision().side == 0
               and any(o[0] == "move" for o in g.decision().options)):
        g.apply(rng.choice(g.decision().options))
    d = g.decision()
    lines, _, grid = option_menu(g, 0, d, nr.Knowledge.of_side(g, 0))
    move_line = next(x for x in lines if "go DIR DIST" in x)
    assert " cm: " in move_line and '": ' not in move_line
    dd = next(iter(sorted(grid)))
    k = sorted(grid[dd])[0]
    out = io.StringIO()
    HumanAgent(0, io.StringIO(f"go {insight.COMPASS[dd]}\ngo {insight.COMPASS[dd]} {nr.MOVE_DISTANCES[k]:g}cm\n"),
               out).choose(g, d)
    reach = [x for x in out.getvalue().splitlines() if x.strip().startswith(f"go {insight.COMPASS[dd]} ")]
    assert reach and all(" cm to " in x and '" to' not in x for x in reach)
