"""Fair play: every built-in agent decides only from what its side may know.

Twin games differ only in what the agent's side cannot know: which of the enemy's markers hides the real
unit (so where that unit stands), and what the hidden unit is (figures, weapons, quality).  Both twins are
played in lockstep from the same seed: the agent under test plays one side of each twin (a separate
instance per twin, same seed), the other side makes the same random choices in both (its hidden unit only
takes quiet actions, so it stays hidden where it is).  While the agent's side knows exactly the same in both
twins (its observation, view, filtered event log and legal options are equal), the agent's choice must be
identical.  A detection that finds the real unit in one twin and a dummy in the other legitimately ends the
comparison of that pair.  A deliberately cheating agent shows that the harness catches a leak.
"""
from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

import pytest

import env_digests
from agents import make_agent
from agents.base import Agent
from agents.knowledge import HiddenInformationError, Knowledge
from conftest import rect, scenario, unit
from dustup_env.observation import Observer
from dustup_env.rules import Game

AGENTS = ["random", "scripted", "easy", "medium", "hard", "defensive", "ppo", "noisy:hard,p=0.3",
          "mcts:playouts=6,depth=4,z=0,rollout=easy,prior=hard"]
QUIET = ("end", "prop", "unprop", "decline", "pass")
ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------------------------------- twins
def with_dummy(doc: dict, side: int) -> dict:
    """``doc`` with one dummy marker for ``side``'s hidden unit if it has none: the nearest other concealing spot at
    least 3" away."""
    out = copy.deepcopy(doc)
    s = out["sides"][side]
    if s.get("dummies"):
        return out
    from dustup_env.rules.kernel.battlefield import Battlefield
    bf = Battlefield(out)
    u = next(x for x in s["units"] if x.get("hidden"))
    ux, uy = u["position"]
    w, h = out["table"]["width"], out["table"]["height"]
    spots = [((xi / 2 + 0.25 - ux) ** 2 + (yi / 2 + 0.25 - uy) ** 2, xi / 2 + 0.25, yi / 2 + 0.25)
             for yi in range(1, int(h) * 2) for xi in range(1, int(w) * 2)
             if bf.conceals(xi / 2 + 0.25, yi / 2 + 0.25)]
    _, x, y = min(p for p in spots if p[0] >= 9.0)
    s["dummies"] = [[x, y]]
    return out


def swapped(doc: dict, side: int) -> dict:
    """``doc`` with ``side``'s hidden unit and its (first) dummy marker exchanging places, and the hidden unit
    itself changed (one figure fewer, another weapon for one, other quality): what the enemy cannot know."""
    out = copy.deepcopy(doc)
    s = out["sides"][side]
    u = next(x for x in s["units"] if x.get("hidden"))
    dx, dy = s["dummies"][0]
    s["dummies"][0] = list(u["position"])
    u["position"] = [dx, dy]
    figs = u["figures"]
    figs[0] = dict(figs[0], count=max(1, figs[0].get("count", 1) - 1))
    figs.append({"weapon": "lmg", "count": 1})
    u["quality"] = "d12" if u.get("quality") != "d12" else "d6"
    return out


def three_marker_twins(real_a: int, real_b: int) -> tuple[dict, dict]:
    """Side 1's hidden squad behind one of three markers (tests/test_hidden_info.py's set-up), with side 0 as
    the side that cannot see; the twins also differ in the hidden squad's weapons."""
    wood = rect("light_woods", 10, 28, 34, 36)
    spots = ((14.0, 30.0), (20.0, 32.0), (28.0, 30.0))
    out = []
    for real, weapon in ((real_a, "rifle"), (real_b, "assault_rifle")):
        scn = scenario([unit("A", (20, 8)), unit("A2", (8, 6))],
                       [unit("B", (40, 44)), unit("H", spots[real], figures=((weapon, 5),), hidden=True)],
                       terrain=[wood], turn_limit=5, objectives=[{"name": "wood", "position": [22, 24], "vp": 2}])
        scn["sides"][1]["dummies"] = [list(p) for p in spots if p != spots[real]]
        out.append(scn)
    return out[0], out[1]


def twin_sets():
    """(name, doc_a, doc_b, the side that cannot see, options) for the lockstep games."""
    sets = []
    default = env_digests.hidden_doc("default")  # one hidden unit and one dummy per side
    for side in (0, 1):  # the agent plays `side`; the enemy's hidden unit is swapped
        sets.append((f"default-as-{side}", default, swapped(default, 1 - side), side, {}))
    sets.append(("default-cards-as-0", default, swapped(default, 1), 0, {"activation": "cards"}))
    for side in (0, 1):  # at night detection ranges are a third: the hidden units stay unknown for longer
        sets.append((f"default-night-as-{side}", default, swapped(default, 1 - side), side, {"night": True}))
    skirmish = with_dummy(env_digests.hidden_doc("skirmish"), 1)  # only side 1 can hide there
    sets.append(("skirmish-as-0", skirmish, swapped(skirmish, 1), 0, {}))
    a, b = three_marker_twins(0, 2)
    sets.append(("three-markers", a, b, 0, {}))
    armour = armour_hidden()  # vehicles: Red's missile team hidden in the north copse
    sets.append(("armour-as-0", armour, swapped(armour, 1), 0, {}))
    from dustup_env.rules.kernel.data import load_scenario
    ambush = load_scenario("ambush")  # built in: one hidden squad and two dummies per side
    for side in (0, 1):
        sets.append((f"ambush-as-{side}", ambush, swapped(ambush, 1 - side), side, {}))
    return sets


def armour_hidden() -> dict:
    """The built-in `armour` scenario with Red's missile team hidden in the north copse behind one dummy."""
    from dustup_env.rules.kernel.data import load_scenario
    doc = load_scenario("armour")
    team = next(u for u in doc["sides"][1]["units"] if u["name"] == "Missile team")
    team["position"], team["hidden"] = [40.0, 33.0], True
    return with_dummy(doc, 1)


TWINS = twin_sets()


def knowledge_key(g: Game, side: int, observer: Observer):
    """What ``side`` may know now, but for its event log (compared when a choice differs and at the end)."""
    d = None if g.over else g.decision()
    options = d.options if d is not None and d.side == side else None
    return observer.observation(g, side).tobytes(), repr(g.view(side)), options


def lockstep(make, doc_a: dict, doc_b: dict, side: int, seed: int, options: dict) -> tuple[int, str]:
    """Play the twins; returns (the agent's decisions compared, why the comparison ended)."""
    ga, gb = Game(doc_a, seed=seed, options=options), Game(doc_b, seed=seed, options=options)
    assert ga.state_digest() != gb.state_digest()  # the twins really differ
    agent_a, agent_b = make(seed), make(seed)
    agent_a.reset(seed)
    agent_b.reset(seed)
    obs_a, obs_b = Observer(), Observer()
    rng = random.Random(seed)
    hidden = {u.uid for u in ga.units if u.side != side and u.hidden}
    compared = 0
    told_apart = "the side's knowledge differs (a detection told the twins apart)"
    while not ga.over:
        if knowledge_key(ga, side, obs_a) != knowledge_key(gb, side, obs_b):
            return compared, told_apart
        da, db = ga.decision(), gb.decision()
        if da.side == side:
            oa, ob = tuple(agent_a.choose(ga, da)), tuple(agent_b.choose(gb, db))
            if oa != ob and ga.event_log(side) != gb.event_log(side):
                return compared, told_apart  # the logs differ: a legitimate reason to choose differently
            assert oa == ob, (f"{getattr(agent_a, 'name', agent_a)} chose {oa} in one twin and {ob} in the other "
                              f"(decision {len(ga.history)}, {da.kind}, turn {ga.turn}): it read hidden information")
            opt = oa
            compared += 1
        else:
            if da.unit in hidden and ga.units[da.unit].hidden:
                quiet = [o for o in da.options if o[0] in QUIET]
                if not quiet or [o for o in db.options if o[0] in QUIET] != quiet:
                    return compared, "the hidden unit has no quiet option"
                opt = quiet[rng.randrange(len(quiet))]
            else:
                if da.options != db.options:
                    return compared, "the enemy's options differ"
                opt = da.options[rng.randrange(len(da.options))]
        ga.apply(opt)
        gb.apply(opt)
    if ga.event_log(side) != gb.event_log(side):
        return compared, told_apart
    return compared, "over"


def factory(name):
    if name == "ppo":
        pytest.importorskip("sb3_contrib")
    return lambda seed: make_agent(name, seed=seed)


# games per twin set: the slow policy plays long games, the scripted bots soon detect the real unit
GAMES = {"ppo": 1, "random": 2, "easy": 2}


@pytest.mark.parametrize("name", AGENTS)
def test_agent_choices_do_not_depend_on_hidden_information(name):
    make = factory(name)
    total = 0
    ends = []
    for k, (tname, a, b, side, options) in enumerate(TWINS):
        for seed in range(GAMES.get(name, 3)):
            n, why = lockstep(make, a, b, side, 40 + 10 * k + seed, options)
            total += n
            ends.append((tname, seed, n, why))
    assert total >= 500, ends  # many decisions compared per agent (see the per-pair counts on failure)
    assert max(e[2] for e in ends) >= 30, ends


class Cheater(Agent):
    """Reads the truth: activates first the unit nearest to the real hidden enemy unit."""

    name = "cheater"

    def choose(self, game, decision):
        hidden = [u for u in game.units if u.side != decision.side and u.hidden]
        if decision.kind == "action" and hidden:
            h = hidden[0]
            u = game.units[decision.unit]
            moves = [o for o in decision.options if o[0] == "move"]
            if moves:
                from dustup_env.rules.unit_actions.move_action import nominated_point
                return min(moves, key=lambda o: ((nominated_point(u, o[1], o[2])[0] - h.x) ** 2
                                                 + (nominated_point(u, o[1], o[2])[1] - h.y) ** 2, o))
        return decision.options[0]


def test_the_harness_catches_an_agent_that_reads_hidden_units():
    _, a, b, side, options = TWINS[0]
    with pytest.raises(AssertionError, match="read hidden information"):
        lockstep(lambda seed: Cheater(seed), a, b, side, 7, options)


# ---------------------------------------------------------------------------------------------- the interface
def test_knowledge_refuses_hidden_units_and_shows_markers_by_position():
    a, _ = three_marker_twins(1, 2)
    g = Game(a, seed=0)
    k = Knowledge(g, 0)
    assert [u.uid for u in k.own_units] == [0, 1]
    assert [u.uid for u in k.enemy_units] == [2]
    assert k.units[2].name == "B"
    with pytest.raises(HiddenInformationError, match="hidden enemy unit"):
        k.units[3]
    assert k.units.get(3) is None
    assert all("unit" not in m for m in k.markers) and len(k.markers) == 3
    with pytest.raises(HiddenInformationError):
        k.fire_plan(0, 3, "all")
    with pytest.raises(HiddenInformationError, match="not side 0's"):
        k.fire_plan(2, 0, "all")
    assert k.event_log() == g.event_log(0) and k.view() == g.view(0)
    red = Knowledge(g, 1)
    assert red.units[3].name == "H" and all("unit" in m for m in red.markers)
    assert not hasattr(k, "game") and not hasattr(k, "dice") and not hasattr(k, "stack")


BOT_MODULES = ["scripted.py", "hard.py", "ladder.py", "armour.py", "fire_support.py", "aerospace.py", "contest.py"]


@pytest.mark.parametrize("module", BOT_MODULES)
def test_bots_read_the_game_only_through_knowledge(module):
    """The scripted bots never name the game object and never reach into the knowledge's private parts."""
    tree = ast.parse((ROOT / "agents" / module).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            assert node.id != "game", f"agents/{module}:{node.lineno} names the game"
        if isinstance(node, ast.arg):
            assert node.arg != "game", f"agents/{module}:{node.lineno} takes the game"
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "k":
            assert not node.attr.startswith("_"), f"agents/{module}:{node.lineno} reads k.{node.attr}"


# ---------------------------------------------------------------------------------------------- the protocol
def protocol_lockstep(doc_a: dict, doc_b: dict, side: int, seed: int, options: dict, hint_every: int = 6):
    """Two ``dustup engine`` sessions (two front-end players, ``ai: null``) of the twins: ``side`` takes the same
    random options (never a Detect action) in both, the other side keeps its hidden unit quiet; while what
    ``side`` may know is the same in both games (its view and its event log), every protocol answer it gets
    (``state``, ``view``, ``decision``, ``events``, ``hint``, ``play``) must be identical.  Returns (answers
    compared, why the comparison ended)."""
    from dustup_env.service.protocol import Engine

    eng = [Engine(log=lambda msg: None), Engine(log=lambda msg: None)]
    new = [e.handle({"cmd": "new", "scenario": d, "seed": seed, "options": options, "ai": None})
           for e, d in zip(eng, (doc_a, doc_b))]
    assert new[0]["ok"] and new[0] == new[1], new
    ga, gb = eng[0].session.game, eng[1].session.game
    assert ga.state_digest() != gb.state_digest()  # the twins really differ
    hidden = {u.uid for u in ga.units if u.side != side and u.hidden}
    rng = random.Random(seed)

    def both(req: dict) -> dict:
        ra, rb = (e.handle(dict(req)) for e in eng)
        if req["cmd"] == "hint":
            ra.pop("ms", None)
            rb.pop("ms", None)
        assert ra == rb, f"{req['cmd']}: side {side} gets different answers in the twins (decision {len(ga.history)})"
        assert ra["ok"], ra
        return ra

    compared = mine = 0
    while True:
        if ga.view(side) != gb.view(side) or ga.event_log(side) != gb.event_log(side):
            return compared, "the side's knowledge differs (a detection told the twins apart)"
        for cmd in ("state", "view", "decision", "events"):
            both({"cmd": cmd, "side": side})
            compared += 1
        if ga.over:
            return compared, "over"
        da, db = ga.decision(), gb.decision()
        if da.side == side:
            if mine % hint_every == 0:
                both({"cmd": "hint", "side": side, "time_ms": 60_000, "agent": "scripted"})
                compared += 1
            mine += 1
            listed = both({"cmd": "decision", "side": side})["decision"]["options"]
            quiet = [o["option"] for o in listed if o["option"][0] != "detect"] or [listed[0]["option"]]
            both({"cmd": "play", "side": side, "option": quiet[rng.randrange(len(quiet))]})
            compared += 1
            continue
        if da.unit in hidden and ga.units[da.unit].hidden:
            opts = [o for o in da.options if o[0] in QUIET]
            if not opts or [o for o in db.options if o[0] in QUIET] != opts:
                return compared, "the hidden unit has no quiet option"
        else:
            opts = da.options
            if db.options != opts:
                return compared, "the enemy's options differ"
        opt = list(opts[rng.randrange(len(opts))])
        for e in eng:
            assert e.handle({"cmd": "play", "side": 1 - side, "option": opt})["ok"]


PROTOCOL_TWINS = [t for t in TWINS if t[0] in ("default-as-0", "default-as-1", "skirmish-as-0", "three-markers",
                                                  "ambush-as-0", "ambush-as-1")]


@pytest.mark.parametrize("tname,a,b,side,options", PROTOCOL_TWINS, ids=[t[0] for t in PROTOCOL_TWINS])
def test_protocol_answers_do_not_depend_on_what_the_side_cannot_know(tname, a, b, side, options):
    ends = [(seed, *protocol_lockstep(a, b, side, 70 + seed, options)) for seed in range(2)]
    assert sum(e[1] for e in ends) >= 150, ends
    assert max(e[1] for e in ends) >= 100, ends


def test_the_protocol_twin_harness_catches_a_leak(monkeypatch):
    """With the AI's-side check gone and the view leaking the hidden unit's place, the harness fails."""
    from dustup_env.service import views
    real = views.table_view

    def leaky(game, side, view=None):
        out = real(game, side, view)
        out["leak"] = [[u.x, u.y] for u in game.units if u.side != side and u.hidden]
        return out

    monkeypatch.setattr(views, "table_view", leaky)
    _, a, b, side, options = PROTOCOL_TWINS[0]
    with pytest.raises(AssertionError, match="different answers in the twins"):
        protocol_lockstep(a, b, side, 70, options)
