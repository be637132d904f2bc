"""Playing and watching as a wargamer: every unit has a name no other unit of its game shares (narration, the
views, the protocol's labels, the terminal, replays and pictures use it); the terminal's unit list says
destroyed, routed and panicked units as such, its labels leave the objectives visible, ``info N`` shows a unit's
panel (never a hidden unit's truth), the story keeps an ordered squad's actions inside its commander's
activation and filters by unit; replay pictures are 1280 wide with a legend, unit names, labels clear of each
other and right captions."""
from __future__ import annotations

import io
import json
import re

import pytest

from conftest import scenario, unit
from dustup_env.narrate import Knowledge, narrate, option_label
from dustup_env.render import render_ansi, render_rgb, replay_frames
from dustup_env.rules import Game
from dustup_env.rules.kernel.data import load_scenario, scenario_names
from dustup_env.rules.kernel.entities import KILLED, ROUTED
from dustup_env.rules.kernel.names import display_names
from dustup_env.terminal import HumanAgent, Quit, find_unit, story, unit_panel

BUILT_IN = scenario_names()


def _played(name="default", seed=3, agents=("hard", "hard"), limit=None):
    from dustup_env.agent_registry import make_agent

    g = Game(name, seed=seed)
    bots = [make_agent(a, seed=seed + i) for i, a in enumerate(agents)]
    while not g.over and (limit is None or len(g.history) < limit):
        d = g.decision()
        g.apply(bots[d.side].choose(g, d))
    return g


# ---------------------------------------------------------------------------------------------- names
@pytest.mark.parametrize("name", BUILT_IN)
def test_display_names_are_unique_in_every_built_in_scenario(name):
    g = Game(name, seed=0)
    names = g.display_names()
    assert sorted(names) == [u.uid for u in g.units]
    assert len(set(names.values())) == len(names), f"{name}: {sorted(names.values())}"
    for u in g.units:  # the scenario's name is kept, the side's name put first only where both sides use it
        shared = any(v.name == u.name and v.side != u.side for v in g.units)
        assert names[u.uid] == (f"{g.side_names[u.side]} {u.name}" if shared else u.name)
        assert g.display_name(u.uid) == names[u.uid]


def test_display_names_of_sides_with_one_name_a_unit_twice_and_a_detachment():
    units = [{"uid": 0, "side": 0, "name": "HQ"}, {"uid": 1, "side": 0, "name": "Alpha"},
             {"uid": 2, "side": 0, "name": "Alpha"}, {"uid": 3, "side": 1, "name": "HQ"},
             {"uid": 4, "side": 0, "name": "HQ/half", "parent": 0}]
    got = display_names(units, ("Blue", "Blue"))
    assert got == {0: "Blue (side 0) HQ", 1: "Alpha", 2: "Alpha #2", 3: "Blue (side 1) HQ", 4: "Blue (side 0) HQ/half"}


def test_narration_labels_and_views_tell_the_sides_apart():
    g = _played("default", seed=3, limit=60)
    know = Knowledge.spectator(g)
    shots = [narrate(e, know) for e in g.event_log() if e["type"] == "ShotResolved"]
    assert shots and all(re.match(r"(Blue|Red) .+ shoots at (Blue|Red) ", s) for s in shots), shots[:3]
    for side in (0, 1):  # a side's own knowledge names both sides' units apart
        k = Knowledge.of_side(g, side)
        assert len(set(k.names.values())) == len(k.names)
    d = g.decision()
    labels = [option_label(o, d.kind, Knowledge.of_side(g, d.side), unit=d.unit) for o in d.options]
    named = [x for x in labels if "Squad" in x or "HQ" in x]
    assert all("Blue " in x or "Red " in x for x in named)
    from dustup_env.service import views
    tv = views.table_view(g, 0)
    assert sorted(u["name"] for u in tv["units"]) == sorted(g.display_names().values())
    assert {u["unit_name"] for u in tv["units"]} == {"Platoon HQ", "1st Squad", "2nd Squad", "3rd Squad"}


def test_the_protocol_labels_use_display_names():
    from dustup_env.service.protocol import Engine

    eng = Engine()
    out = eng.handle({"cmd": "new", "scenario": "default", "seed": 1, "you": 0, "ai": "random"})
    assert out["ok"], out
    labels = [o["label"] for o in out["decision"]["options"]] if out.get("decision") else []
    while out.get("decision") and out["decision"]["kind"] != "activate":
        out = eng.handle({"cmd": "play", "option": out["decision"]["options"][0]["option"]})
        labels = [o["label"] for o in out["decision"]["options"]]
    assert "activate Blue Platoon HQ" in labels, labels


# ---------------------------------------------------------------------------------------------- terminal
def test_unit_list_says_destroyed_routed_and_panicked_units_as_such():
    g = Game("default", seed=0)
    dead, panicky, routed, gone = g.units[5], g.units[6], g.units[7], g.units[4]
    for i in range(len(dead.figures)):
        dead.set_figure(i, status=KILLED)
    dead.suppression = 3
    panicky.panicked = True
    routed.confidence = ROUTED
    gone.routed_off = True
    g.invalidate()
    lines = {ln[:2]: ln for ln in render_ansi(g).splitlines() if re.match(r"[AB]\d ", ln)}
    assert "DESTROYED" in lines["B1"] and "suppression" not in lines["B1"] and "confident" not in lines["B1"]
    assert "PANICKED" in lines["B2"]
    assert "ROUTED" in lines["B3"]
    assert "ROUTED off the table" in lines["B0"] and "suppression" not in lines["B0"]


def test_text_map_labels_leave_the_objectives_visible():
    g = Game("default", seed=0)
    for k, u in enumerate(g.units[:len(g.objectives)]):  # a unit on every objective
        _, ox, oy, _ = g.objectives[k]
        u.x, u.y = ox, oy
    g.invalidate()
    rows = [ln[1:-1] for ln in render_ansi(g).splitlines() if ln.startswith("|")]
    for k, (_, ox, oy, _) in enumerate(g.objectives):
        r, c = min(int(oy / 2.0), len(rows) - 1), min(int(ox / 2.0), len(rows[0]) - 1)
        assert rows[len(rows) - 1 - r][c] == str(k + 1), f"objective {k + 1} is covered by a unit's label"
    grid = "\n".join(rows)
    for code in ("A0", "A1", "A2"):
        assert code in grid


def test_info_panel_shows_what_the_side_knows_and_never_a_hidden_units_truth():
    doc = load_scenario("skirmish")
    doc["sides"][1]["units"][1].update(position=[10.5, 19.5], hidden=True)
    twin = json.loads(json.dumps(doc))
    twin["sides"][1]["units"][1]["quality"] = "d12" if doc["sides"][1]["units"][1].get("quality") != "d12" else "d6"
    a, b = Game(doc, seed=4), Game(twin, seed=4)
    yankee = find_unit(a, "Yankee", 0)
    assert unit_panel(a, 0, yankee) == unit_panel(b, 0, yankee)  # the hidden unit's truth does not show
    panel = "\n".join(unit_panel(a, 0, yankee))
    assert "hidden" in panel and "quality" not in panel and "weapons" not in panel
    own = "\n".join(unit_panel(a, 0, find_unit(a, "A0", 0)))
    for word in ("quality", "leadership", "confidence", "suppression", "casualties", "weapons", "armour", "activation"):
        assert word in own
    enemy = "\n".join(unit_panel(a, 0, find_unit(a, "Xray", 0)))
    assert "the enemy" in enemy and "weapons" in enemy
    with pytest.raises(ValueError, match="no unit is called"):
        find_unit(a, "Zulu", 0)


def test_info_and_the_unit_filter_in_a_game_played_in_the_terminal():
    g = Game("default", seed=3)
    out = io.StringIO()
    agent = HumanAgent(0, inp=io.StringIO("info 6\ninfo red platoon\nl B1\ninfo nobody\nq\n"), out=out)
    with pytest.raises(Quit):
        agent.choose(g, g.decision())
    text = out.getvalue()
    assert "Red 1st Squad [B1], Red (side 1), the enemy" in text
    assert "Red Platoon HQ [B0]" in text and "nothing yet of Red 1st Squad" in text
    assert "no unit is called 'nobody'" in text


def _indent(line: str) -> int:
    return len(line) - len(line[1:].lstrip(" ")) - 1


def test_replay_keeps_orders_and_the_ordered_squads_actions_inside_the_activation():
    g = _played("default", seed=3)
    lines = story(g)
    act = None
    checked = 0
    for ln in lines:
        if ln.startswith("Turn ") or not ln.strip() or ln.startswith("Result"):
            act = None
            continue
        if " activates " in ln:
            act = _indent(ln)
            continue
        if act is not None and ("orders" in ln or "communicates" in ln):
            assert _indent(ln) > act, ln  # the HQ's orders (the second one too) stay inside the activation
            checked += 1
    assert checked > 4
    # an ordered squad's actions sit one step further in than the order
    for i, ln in enumerate(lines):
        if "the order gets through" in ln:
            who = ln.split(" orders ")[1].split(":")[0]
            nxt = lines[i + 1]
            if nxt.strip().startswith(who):
                assert _indent(nxt) > _indent(ln), (ln, nxt)


def test_replay_lines_are_marked_by_side_and_filter_by_unit(tmp_path):
    from dustup_cli.cli import main

    g = _played("default", seed=3, limit=80)
    lines = story(g, unit="Red 3rd Squad")
    body = [ln for ln in lines if ln[:1] in ("A", "B") and ln[1:3] == "  "]
    assert body and all("Red 3rd Squad" in ln for ln in body)
    assert any(ln.startswith("A") and "shoots at Red 3rd Squad" in ln for ln in body)  # Blue's shot: Blue's mark
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_dict()))
    assert main(["replay", str(path), "--unit", "squad"]) == 2


# ---------------------------------------------------------------------------------------------- pictures
def test_replay_pictures_are_1280_wide_with_names_a_legend_and_right_captions(tmp_path):
    g = _played("default", seed=3)
    frames = list(replay_frames(g.to_dict()))
    assert all(arr.shape[1] == 1280 for _, arr in frames)
    caps = [c for c, _ in frames]
    assert "the start (turn 1 of 8)" in caps[0]
    for t, c in enumerate(caps[1:-1], 1):
        assert f"the end of turn {t} of 8;" in c and f"turn {t + 1}" not in c
    assert "game over in turn" in caps[-1] and "Red (side 1) wins" in caps[-1] or "draw" in caps[-1] \
        or "Blue (side 0) wins" in caps[-1]
    assert not any(re.search(r"turn (\d+) of 8.*turn \1/8", c) for c in caps)
    small = list(replay_frames(g.to_dict(), size=800))
    assert small[0][1].shape[1] == 800
    # the legend band under the table holds both sides' colours
    from dustup_env.render import _SIDE_COLOURS
    arr = frames[0][1]
    h = int(round(g.bf.height * 1280 / g.bf.width))
    band = arr[h:h + 40].reshape(-1, 3).astype(int)
    for col in _SIDE_COLOURS:
        assert (abs(band - col).max(axis=1) < 8).any()


def test_picture_labels_are_unit_names_and_do_not_collide():
    g = Game("default", seed=0)
    _, ox, oy, _ = g.objectives[0]  # Signal Hill: one unit of each side on it, the labels must both show
    for uid in (1, 5):
        g.units[uid].x, g.units[uid].y = ox, oy
    g.invalidate()
    layout = []
    render_rgb(g, scale=1280 / g.bf.width, layout=layout)
    texts = [t for t, _ in layout]
    for name in g.display_names().values():
        assert name in texts
    assert not any(re.fullmatch(r"[AB][0-9a-f]", t) for t in texts)
    boxes = [b for _, b in layout]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


def test_cli_replay_size(tmp_path):
    from PIL import Image

    from dustup_cli.cli import main

    g = _played("skirmish", seed=2, limit=30)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(g.to_dict()))
    assert main(["replay", str(path), "--frames", str(tmp_path / "f"), "--size", "960"]) == 0
    assert Image.open(sorted((tmp_path / "f").glob("*.png"))[0]).size[0] == 960
