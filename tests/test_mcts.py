"""The ``mcts`` search agent (agents/mcts.py) and fresh dice for OpenSpiel clones (dustup_env/openspiel.py)."""
from __future__ import annotations

import random
import time

import pytest

from agents import make_agent
from agents.mcts import MctsAgent, evaluate, parse_settings, search_root
from dustup_cli.cli import _names, main
from dustup_env.rules import Game
from evaluation.simulate import play_game
from test_fair_play import three_marker_twins

CHEAP = "mcts:playouts=6,depth=10"


def advance(g: Game, n: int, seed: int = 0) -> Game:
    """``g`` after ``n`` random decisions (or its end)."""
    rng = random.Random(seed)
    for _ in range(n):
        if g.over:
            break
        d = g.decision()
        g.apply(d.options[rng.randrange(len(d.options))])
    return g


def contested(g: Game, seed: int = 0) -> Game:
    """``g`` advanced to a decision with several options (random play)."""
    rng = random.Random(seed)
    while True:
        d = g.decision()
        if len(d.options) > 1 and d.kind == "action":
            return g
        g.apply(d.options[rng.randrange(len(d.options))])



def same_choice_on_twins_with_other_dice(spec: str, cases=((1, 20), (2, 45))) -> None:
    """Twin games in the same position whose future dice differ (one reseeded): two ``spec`` agents of the same seed
    choose alike (the search never rolls the game's own dice)."""
    for seed, n in cases:
        g = contested(advance(Game("default", seed=seed), n, seed), seed)
        twin = g.clone(reseed=seed + 1000)
        assert twin.state_digest() != g.state_digest()  # only the dice differ
        a, b = make_agent(spec, seed=2), make_agent(spec, seed=2)
        assert a.choose(g, g.decision()) == b.choose(twin, twin.decision())


def fair_on_the_lockstep_twins(spec: str) -> None:
    """tests/test_fair_play.py's lockstep twins (the same knowledge, different hidden truth) played by ``spec``
    agents: their choices must not differ; at least 100 decisions compared."""
    from test_fair_play import TWINS, lockstep
    ends = [(tname, *lockstep(lambda seed: make_agent(spec, seed=seed), a, b, side, 40 + k, options))
            for k, (tname, a, b, side, options) in enumerate(TWINS)]
    assert sum(e[1] for e in ends) >= 100, ends


def plays_whole_games_deterministically(spec: str) -> None:
    """Two ``spec`` agents of the same seed play the same whole skirmish game against ``hard``, searching all along."""
    games, agents = [], []
    for _ in range(2):
        a = make_agent(spec, seed=3)
        games.append(play_game("skirmish", [a, make_agent("hard", seed=4)], seed=9))
        agents.append(a)
    assert games[0].over and games[0].history == games[1].history
    assert isinstance(agents[0], MctsAgent) and agents[0].stats["failed"] == 0 and agents[0].stats["playouts"] > 0


# ---------------------------------------------------------------------------------------------- names
def test_names_and_settings():
    a = make_agent("mcts", seed=3)
    assert isinstance(a, MctsAgent) and a.seed == 3 and a.settings["time"] == 1.0 and a.settings["playouts"] == 0
    b = make_agent("mcts:time=0.25", seed=1)
    assert b.settings["time"] == 0.25
    c = make_agent("mcts:playouts=400,prior=medium,rollout=hard,depth=12,c=0.5,widen=2,z=0", seed=1)
    assert (c.settings["playouts"], c.settings["prior"], c.settings["rollout"], c.settings["depth"]) == \
        (400, "medium", "hard", 12)
    from dustup_env.agent_registry import agent_names
    assert "mcts:KEY=VALUE,..." in agent_names()
    # comma-separated agent lists keep an agent's settings together
    assert _names("mcts:time=0.25,prior=hard,hard", "--agents") == ["mcts:time=0.25,prior=hard", "hard"]
    assert _names("hard,mcts:playouts=4", "--agents") == ["hard", "mcts:playouts=4"]


@pytest.mark.parametrize("spec,msg", [
    ("mcts:speed=2", "mcts has no setting 'speed': the settings are time, playouts"),
    ("mcts:time=abc", "mcts time='abc': not a number"),
    ("mcts:time=0", "must be positive"),
    ("mcts:time=-1", "must be positive"),
    ("mcts:playouts=1.5", "not a whole number"),
    ("mcts:playouts=-3", "at least 0"),
    ("mcts:prior=grandmaster", "the doctrines are easy, medium, scripted, hard, defensive"),
    ("mcts:time", "KEY=VALUE pairs"),
    ("mcts:time=1,time=2", "given twice"),
    ("mcts:", "is named mcts:KEY=VALUE,..."),
    ("mcts:time=nan", "must be positive"),
])
def test_bad_settings_are_one_line_errors(spec, msg):
    with pytest.raises(ValueError) as e:
        make_agent(spec)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_bad_settings_on_the_command_line(capsys):
    assert main(["simulate", "--agents", "mcts:speed=2,hard", "--games", "1", "--no-progress",
                 "--scenario", "skirmish"]) == 2
    err = capsys.readouterr().err
    assert "no setting 'speed'" in err and "Traceback" not in err


# ---------------------------------------------------------------------------------------------- legality, determinism
def test_plays_legal_games_without_failures():
    a = make_agent(CHEAP, seed=1)
    g = play_game("skirmish", [a, make_agent("random", seed=2)], seed=4)
    assert g.over and a.stats["failed"] == 0 and a.stats["playouts"] > 0
    assert a.stats["decisions"] > 10


def _side_branches(node, depth=0) -> int:
    """Options tried beside the first, summed over the nodes below the root."""
    extra = max(0, len(node.children) - 1) if depth else 0
    return extra + sum(_side_branches(ch, depth + 1) for ch in node.children.values())


def test_the_tree_below_the_root_follows_the_prior_unless_inner_widens_it():
    g = contested(advance(Game("default", seed=7), 30))
    branches = {}
    for inner in (0, 1):
        a = make_agent(f"mcts:playouts=40,depth=4,inner={inner}", seed=5)
        a.choose(g, g.decision())
        assert len(a.last_root.children) > 1  # the root widens either way
        branches[inner] = _side_branches(a.last_root)
    # below the root, only the prior's choice is followed (another only where it is not legal in a playout's world)
    assert branches[0] * 3 < branches[1]
    assert make_agent("mcts").settings["inner"] == 0.0


def test_deterministic_with_a_playout_budget():
    g = contested(advance(Game("default", seed=7), 30))
    picks = []
    for _ in range(2):
        a = make_agent("mcts:playouts=12,depth=12", seed=5)
        picks.append([a.choose(g, g.decision()) for _ in range(3)])
    assert picks[0] == picks[1]
    # and over whole games
    games = [play_game("skirmish", [make_agent(CHEAP, seed=3), make_agent("hard", seed=4)], seed=9)
             for _ in range(2)]
    assert games[0].history == games[1].history


def test_same_choice_whatever_the_games_future_dice():
    """Twin games in the same position whose future dice differ (one reseeded): the search never rolls the game's
    own dice, so with a playout budget it chooses the same in both, at every decision tried."""
    differ = 0
    for seed, n in ((1, 20), (2, 45), (3, 70)):
        g = contested(advance(Game("default", seed=seed), n, seed), seed)
        twin = g.clone(reseed=seed + 1000)
        assert twin.state_digest() != g.state_digest()  # only the dice differ
        d, dt = g.decision(), twin.decision()
        assert d.options == dt.options
        a, b = make_agent("mcts:playouts=16,depth=15", seed=2), make_agent("mcts:playouts=16,depth=15", seed=2)
        assert a.choose(g, d) == b.choose(twin, dt)
        # the real dice would have made a difference: the same playout on each game's own dice
        differ += evaluate(advance(g.clone(log=False), 30), d.side) != evaluate(advance(twin.clone(log=False), 30),
                                                                                d.side)
    assert differ  # (the twins' futures do differ)


def test_time_budget_is_respected():
    a = make_agent("mcts:time=0.2", seed=1)
    g = advance(Game("default", seed=3), 25)
    worst = 0.0
    n = 0
    rng = random.Random(0)
    while n < 6 and not g.over:
        d = g.decision()
        if len(d.options) > 1:
            t = time.perf_counter()
            opt = a.choose(g, d)
            worst = max(worst, time.perf_counter() - t)
            n += 1
        else:
            opt = d.options[rng.randrange(len(d.options))]
        g.apply(opt)
    assert a.stats["playouts"] > 0
    assert worst <= 0.22, worst  # the budget +10%


# ---------------------------------------------------------------------------------------------- fairness
def test_the_search_root_holds_only_what_the_side_knows():
    """Side 0 cannot see Red's hidden squad: the root has it out of play, every Red marker a dummy, and is the same
    whichever marker hides it (but for that unit's neutral record)."""
    a, b = three_marker_twins(0, 2)
    roots = []
    for doc in (a, b):
        g = Game(doc, seed=3)
        r = search_root(g, 0, seed=11)
        hidden = [u for u in g.units if u.side == 1 and u.hidden]
        assert hidden and all(not r.units[u.uid].in_play for u in hidden)
        assert all(m["unit"] == -1 for m in r.markers if m["side"] == 1)
        assert [u.uid for u in r.enemy_units(0)] == [u.uid for u in g.enemy_units(0)]
        assert g.units[hidden[0].uid].hidden and g.markers != r.markers  # the real game is untouched
        roots.append(r)
    ra, rb = roots
    assert ra.markers == rb.markers
    assert [(u.x, u.y, u.in_play) for u in ra.units] == [(u.x, u.y, u.in_play) for u in rb.units]
    assert evaluate(ra, 0) == evaluate(rb, 0)
    # Red knows its own unit: its root keeps it
    r1 = search_root(Game(a, seed=3), 1, seed=11)
    assert any(u.hidden and u.in_play for u in r1.units if u.side == 1)


# ---------------------------------------------------------------------------------------------- strength
def test_beats_random_on_skirmish():
    for s in (0, 1):
        agents = [make_agent(CHEAP, seed=1), make_agent("random", seed=2)]
        if s:
            agents.reverse()
        g = play_game("skirmish", agents, seed=21 + s)
        assert g.winner == s, (s, g.winner, g.victory_points())


# ---------------------------------------------------------------------------------------------- OpenSpiel
def test_openspiel_clones_roll_fresh_dice():
    pyspiel = pytest.importorskip("pyspiel")
    import dustup_env.openspiel  # noqa: F401  (registers python_dustup)

    game = pyspiel.load_game("python_dustup", {"scenario": "skirmish", "rng_seed": 3})
    st = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(6):
        st.apply_action(rng.choice(st.legal_actions()))
    c = st.clone()
    assert str(c) == str(st) and c.history() == st.history()
    assert c.dustup_game().state_digest() != st.dustup_game().state_digest()  # fresh dice
    exact = pyspiel.State.clone(st)  # OpenSpiel's own (C++) copy: exact
    assert exact.dustup_game().state_digest() == st.dustup_game().state_digest()
    # the same actions: the exact copy follows its parent, the clones roll their own dice
    outcomes = set()
    for k in range(6):
        c = st.clone()
        e = pyspiel.State.clone(st)
        p = pyspiel.State.clone(st)
        r = random.Random(k)
        while not p.is_terminal():
            a = r.choice(p.legal_actions())
            if a not in e.legal_actions():
                break
            p.apply_action(a)
            e.apply_action(a)
            assert str(e) == str(p)
        r = random.Random(0)
        while not c.is_terminal():
            c.apply_action(r.choice(c.legal_actions()))
        outcomes.add(str(c))
    assert len(outcomes) > 1


def test_openspiel_mcts_bot_does_not_see_the_dice():
    """OpenSpiel's own MCTS bot with a fixed simulation budget chooses the same in two states that differ only in
    their future dice (the search clones roll dice of their own)."""
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import mcts

    import dustup_env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_dustup", {"scenario": "skirmish", "rng_seed": 5})
    st = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(12):
        st.apply_action(rng.choice(st.legal_actions()))
    twin = st.clone()  # the same position, other future dice
    assert twin.dustup_game().state_digest() != st.dustup_game().state_digest()
    start = game._clone_seeds.getstate()
    picks = []
    for s in (st, twin):
        game._clone_seeds.setstate(start)  # both searches draw the same clone dice
        bot = mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           random_state=np.random.RandomState(0), solve=False)
        picks.append(bot.step(s))
    assert picks[0] == picks[1]


def test_protocol_and_server_sessions_take_mcts():
    from dustup_env.service.session import ServiceError, Session

    s = Session.new(scenario="skirmish", seed=2, you=0, ai="mcts:playouts=4,depth=4")
    assert s.ai == "mcts:playouts=4,depth=4"
    with pytest.raises(ServiceError) as e:
        Session.new(scenario="skirmish", seed=2, you=0, ai="mcts:speed=1")
    assert "no setting 'speed'" in str(e.value) and "\n" not in str(e.value)


# ---------------------------------------------------------------------------------------------- the root's settings
@pytest.mark.parametrize("spec,msg", [
    ("mcts:roots=random", "mcts roots='random': the choices are doctrines, neighbours, mixed"),
    ("mcts:alloc=ucb", "mcts alloc='ucb': the choices are uct, even, race"),
    ("mcts:tail=grandmaster", "the doctrines are easy, medium, scripted, hard, defensive, the trained policies ppo, ppo-skirmish (or none)"),
    ("mcts:tdist=2", "mcts tdist='2': 0 or 1"),
    ("mcts:width=-1", "at least 0"),
    ("mcts:head=x", "not a whole number"),
])
def test_bad_root_settings_are_one_line_errors(spec, msg):
    with pytest.raises(ValueError) as e:
        make_agent(spec)
    assert msg in str(e.value) and "\n" not in str(e.value)


def test_the_defaults_are_the_searched_behaviour():
    s = make_agent("mcts").settings
    assert (s["roots"], s["alloc"], s["width"], s["tail"], s["tdist"]) == ("doctrines", "uct", 0, "none", 0)


def test_neighbours_of_a_move_a_shot_and_an_activation():
    from agents.mcts import neighbours
    opts = [("end",)] + [("move", d, k) for d in range(16) for k in range(4)] + \
        [("shoot", 2, "all"), ("shoot", 2, "half"), ("shoot", 4, "all"), ("shoot", 4, "half"), ("prop",)]
    near = neighbours(("move", 0, 1), opts)
    # one step of distance or one direction either way (wrapping round to 15), then staying put, then the rest
    assert set(near[:4]) == {("move", 0, 0), ("move", 0, 2), ("move", 1, 1), ("move", 15, 1)}
    assert near[4] == ("end",) and ("move", 8, 3) in near and ("shoot", 2, "all") not in near
    assert near.index(("move", 1, 2)) < near.index(("move", 8, 3))
    assert neighbours(("shoot", 2, "all"), opts) == [("shoot", 2, "half"), ("shoot", 4, "all"), ("shoot", 4, "half")]
    assert neighbours(("activate", 2), [("activate", 1), ("activate", 2), ("activate", 5)]) == \
        [("activate", 1), ("activate", 5)]
    assert neighbours(("prop",), opts) == []


def test_roots_neighbours_ranks_the_priors_neighbours_next():
    from agents.mcts import neighbours
    g = contested(advance(Game("default", seed=7), 30))
    d = g.decision()
    a = make_agent("mcts:playouts=8,depth=2,roots=neighbours", seed=5)
    prior = a.prior_choice(g, d)
    a.choose(g, d)
    near = neighbours(prior, d.options)
    assert near and a.last_root.order[:1 + len(near)] == [tuple(prior)] + near
    m = make_agent("mcts:playouts=8,depth=2,roots=mixed", seed=5)
    m.choose(g, d)
    assert m.last_root.order[:2] == [tuple(prior), near[0]]
    assert set(near) <= set(m.last_root.order[:1 + len(near) + 4])


def test_alloc_even_gives_every_candidate_the_same_pairs():
    g = contested(advance(Game("default", seed=7), 30))
    a = make_agent("mcts:playouts=31,depth=2,alloc=even,width=3", seed=5)
    a.choose(g, g.decision())
    visits = [ch.n for ch in a.last_root.children.values()]
    assert sorted(visits) == [10, 10, 11] and a.last_root.children[a.last_root.order[0]].n == 11
    u = make_agent("mcts:playouts=31,depth=2", seed=5)  # uct: unequal
    u.choose(g, g.decision())
    assert len({ch.n for ch in u.last_root.children.values()}) > 1


def test_alloc_race_retires_a_clearly_worse_candidate():
    from agents.mcts import _Node
    a = make_agent("mcts:playouts=10,alloc=race,width=2", seed=5)
    root = _Node()
    root.order = [("a",), ("b",), ("c",)]
    for o, vals in ((("a",), [0.6, 0.5, 0.7, 0.6]), (("b",), [0.2, 0.1, 0.3, 0.25])):
        ch = root.children[o] = _Node()
        ch.n, ch.values = len(vals), vals
    root.n = 8
    assert a._pick_even(root) == ("c",)  # b lost every pair: out, c comes in
    assert root.retired == {("b",)}
    e = make_agent("mcts:playouts=10,alloc=even,width=2", seed=5)
    root.retired = set()
    assert e._pick_even(root) in (("a",), ("b",))  # even keeps b


def test_tdist_is_stricter_with_few_pairs():
    from agents.mcts import _Node, _t_quantile
    assert abs(_t_quantile(1.96, 5) - 2.571) < 0.01 and abs(_t_quantile(2.0, 1000) - 2.0) < 0.01
    root = _Node()
    root.order = [("a",), ("b",)]
    base = [0.5, 0.4, 0.6, 0.5]
    for o, vals in ((("a",), base), (("b",), [v + g for v, g in zip(base, (0.3, 0.05, 0.2, 0.05))])):
        ch = root.children[o] = _Node()
        ch.n, ch.values = 4, vals
    # the mean gain 0.15 is 2.45 standard errors: over z=2, under Student's 3.3 for 3 degrees of freedom
    assert make_agent("mcts:playouts=4,z=2", seed=1).final_choice(root) == ("b",)
    assert make_agent("mcts:playouts=4,z=2,tdist=1", seed=1).final_choice(root) == ("a",)
    assert make_agent("mcts:playouts=4,z=1,tdist=1", seed=1).final_choice(root) == ("b",)


def test_the_tail_doctrine_takes_over_after_head_decisions():
    g = contested(advance(Game("default", seed=7), 30))
    calls = {}
    for head in (0, 4, 12):
        a = make_agent(f"mcts:playouts=6,depth=12,tail=medium,head={head}", seed=5)
        a._new_game = lambda game=None: None  # keep the counting doctrine for this game
        n = [0]
        orig = a._tail.choose

        def counted(game, d, orig=orig, n=n):
            n[0] += 1
            return orig(game, d)
        a._tail.choose = counted
        a.choose(g, g.decision())
        calls[head] = n[0]
    assert calls[0] > calls[4] > 0 and calls[12] == 0
    assert make_agent("mcts:playouts=6").settings["tail"] == "none" and make_agent("mcts:playouts=6")._tail is None


@pytest.mark.parametrize("spec", ["mcts:playouts=16,depth=15,roots=mixed,alloc=even,width=3",
                                  "mcts:playouts=16,depth=15,roots=neighbours,alloc=race,width=3,tdist=1",
                                  "mcts:playouts=16,depth=15,tail=medium,head=5"])
def test_new_settings_choose_the_same_whatever_the_games_future_dice(spec):
    for seed, n in ((1, 20), (2, 45)):
        g = contested(advance(Game("default", seed=seed), n, seed), seed)
        twin = g.clone(reseed=seed + 1000)
        a, b = make_agent(spec, seed=2), make_agent(spec, seed=2)
        assert a.choose(g, g.decision()) == b.choose(twin, twin.decision())


def test_new_settings_never_read_hidden_information():
    """tests/test_fair_play.py's lockstep twins (the enemy's hidden unit behind another marker, with other weapons)
    with every new setting on and z=0 (the search's own choice, not the prior's, decides)."""
    from test_fair_play import TWINS, lockstep
    spec = "mcts:prior=hard,playouts=6,depth=4,z=0,rollout=easy,roots=mixed,alloc=race,width=3,tail=medium,head=2,tdist=1"
    ends = [(tname, *lockstep(lambda seed: make_agent(spec, seed=seed), a, b, side, 40 + k, options))
            for k, (tname, a, b, side, options) in enumerate(TWINS)]
    assert sum(e[1] for e in ends) >= 150, ends  # decisions compared (281 when written)
