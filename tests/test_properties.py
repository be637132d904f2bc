"""Property tests over many random games (hypothesis and plain seeded loops).

Random games played to the end: 2 x 150 + 2 x 150 (invariant loops; the second pair 30-turn skirmishes
with a fighting policy) + 100 (determinism) + 60 (default loop)
+ 12 + 8 (every-option sweeps) + 150 (hypothesis round trips) + 30 (hypothesis, default) + 80 (hypothesis,
random scenarios) = 1,040; most on the small "skirmish" scenario, about 100 on "default".
"""
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import scenario, unit
from dustup_env.rules import Decision, Game, GameOverError, IllegalOptionError, ScenarioError
from dustup_env.rules.kernel.data import load_scenario
from dustup_env.rules.kernel.entities import KILLED, ROUTED

HSET = settings(deadline=None, database=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Invariants:
    """Checks every step of a game against the previous step."""

    def __init__(self, g: Game):
        # figures move between units (detachments, regrouping) and are left behind, but each side's total
        # is conserved and killed figures never come back
        self.n_figures = self.side_figures(g)
        self.killed = self.side_killed(g)
        self.n_events = len(g.events)
        self.conf = [u.confidence for u in g.units]
        self.routed_off = [u.routed_off for u in g.units]
        self.out = [not u.in_play for u in g.units]
        self.boosted = set()  # units a CASEVAC evacuation raised (they may rise above their starting confidence)
        self.check(g)

    @staticmethod
    def side_figures(g):
        n = [0, 0]
        for u in g.units:
            n[u.side] += len(u.figures) + len(u.left_behind)
        return n

    @staticmethod
    def side_killed(g):
        n = [0, 0]
        for u in g.units:
            n[u.side] += sum(1 for f in u.figures if f.status == KILLED)
            n[u.side] += sum(1 for f in u.left_behind if f[2] == KILLED)
        return n

    def check(self, g: Game):
        assert self.side_figures(g) == self.n_figures
        killed = self.side_killed(g)
        assert killed[0] >= self.killed[0] and killed[1] >= self.killed[1], "a killed figure came back"
        self.killed = killed
        for k in range(len(self.conf), len(g.units)):  # a detachment joined the game
            u = g.units[k]
            self.conf.append(u.confidence)
            self.routed_off.append(u.routed_off)
            self.out.append(not u.in_play)
        rallied = {e.unit for e in g.events[self.n_events:] if type(e).__name__ in ("RallyTested", "CasevacBoost")}
        self.boosted |= {e.unit for e in g.events[self.n_events:] if type(e).__name__ == "CasevacBoost"}
        arrived = {e.unit for e in g.events[self.n_events:]
                   if type(e).__name__ in ("ReinforcementArrived", "CasevacArrived")}
        self.n_events = len(g.events)
        for k, u in enumerate(g.units):
            assert 0 <= u.suppression <= 3
            assert 0 <= u.confidence <= 4
            assert u.confidence >= self.conf[k] or k in rallied, f"unit {k}: confidence improved without a rally"
            assert u.confidence >= u.initial_confidence or k in self.boosted, \
                f"unit {k}: rallied above its starting confidence"
            self.conf[k] = u.confidence
            assert u.routed_off >= self.routed_off[k]
            self.routed_off[k] = u.routed_off
            assert (not u.in_play) >= self.out[k] or k in arrived, f"unit {k} came back into play"
            self.out[k] = not u.in_play
            assert 1 <= u.lv <= 3
            assert 0 <= u.leader < len(u.figures) or u.merged
            for f in u.figures:
                assert f.wounds <= 2 and (f.wounds < 2 or f.status == KILLED)
        if g.over:
            with pytest.raises(GameOverError):
                g.decision()
            assert g.winner in (-1, 0, 1)
        else:
            d = g.decision()
            assert isinstance(d, Decision)
            assert d.side in (0, 1) and d.kind in ("initiative", "activate", "action", "promote", "choose",
                                                   "seize", "place_leader", "place_formation") + PROCEDURE_KINDS
            assert len(d.options) > 0
            assert len(set(d.options)) == len(d.options)
            if d.kind == "action":
                ordered = any(f.ordered and f.unit == d.unit for f in g.stack)  # orders place no marker
                assert g.units[d.unit].side == d.side and (g.units[d.unit].activated or ordered)


# decision kinds of procedure frames (the assault steps); the acting side may be either side
PROCEDURE_KINDS = ("assault_response", "assault_follow_up", "final_defensive_fire", "second_move",
                   "assault_targets", "special_weapons", "house_occupy", "house_pursuit",
                   "intercept",  # Armoured Dustup: the targeted side's decoy / area-protection decision
                   "reaction", "reaction_choice", "interrupt", "interrupt_fire")  # seed 001 reactions, seed 004


def aggressive(g, rng):
    """A random policy biased to fighting: shoot or recover when possible, else mostly advance."""
    d = g.decision()
    fight = [o for o in d.options if o[0] in ("shoot", "recover")]
    if fight and rng.random() < 0.8:
        return rng.choice(fight)
    ahead = [o for o in d.options if o[0] == "move" and o[1] == (0 if d.side == 0 else 8)]
    if ahead and rng.random() < 0.7:
        return rng.choice(ahead)
    return rng.choice(d.options)


def uniform(g, rng):
    return rng.choice(g.decision().options)


def long_skirmish(turns=30):
    doc = copy.deepcopy(load_scenario("skirmish"))
    doc["turn_limit"] = turns
    return doc


def play_checked(scn, seed, pick_seed, *, policy=uniform, max_decisions=20_000, options=None):
    g = Game(scn, seed=seed, options=options)
    inv = Invariants(g)
    rng = random.Random(pick_seed)
    taken = []
    while not g.over:
        assert len(taken) < max_decisions, "game did not end"
        opt = policy(g, rng)
        g.apply(opt)
        taken.append(opt)
        inv.check(g)
    with pytest.raises(GameOverError):
        g.apply(taken[-1])
    return g, taken


# --- plain loops: invariants over many skirmish games ------------------------------------------------------
@pytest.mark.parametrize("chunk", range(2))
def test_invariants_skirmish_loop(chunk):
    seen = set()
    for k in range(150):
        seed = chunk * 1000 + k
        g, _ = play_checked("skirmish", seed, seed + 7)
        seen.update(e["type"] for e in g.event_log())
        assert g.turn <= g.turn_limit
    assert {"ShotResolved", "HitResolved", "Moved", "Propped", "SuppressionRecovered"} <= seen


@pytest.mark.parametrize("chunk", range(2))
def test_invariants_long_aggressive_skirmish_loop(chunk):
    """Thirty-turn skirmishes with a fighting policy: casualties, routs, eliminations all happen."""
    scn = long_skirmish()
    reasons, seen, effects = set(), set(), set()
    for k in range(150):
        seed = 50_000 + chunk * 1000 + k
        g, _ = play_checked(scn, seed, seed, policy=aggressive)
        reasons.add(g.end_reason)
        seen.update(e["type"] for e in g.event_log())
        effects.update(e["effect"] for e in g.event_log() if e["type"] == "HitResolved")
        if g.end_reason == "enemy destroyed or routed":
            assert g.winner in (0, 1)
            assert not any(u.in_play and u.confidence != ROUTED for u in g.units if u.side != g.winner)
    assert reasons == {"turn limit", "enemy destroyed or routed"}
    assert {"LeaderLost", "LeaderAppointed", "RoutedOff", "LeadershipTested", "Passed"} <= seen
    assert effects == {"none", "wound", "kill"}


def test_determinism_skirmish_loop():
    for seed in range(100):
        a, taken = play_checked("skirmish", seed, seed)
        b = Game.replay("skirmish", seed, taken)  # same seed + same decisions
        assert b.event_log() == a.event_log()
        assert b.state_digest() == a.state_digest()
        c = Game("skirmish", seed=seed)  # and applied one at a time
        for opt in taken:
            c.apply(opt)
        assert c.state_digest() == a.state_digest()


def test_different_seeds_differ():
    digests = {Game.replay("skirmish", s, []).event_log()[2]["rolls"].__repr__() for s in range(40)}
    assert len(digests) > 5


@pytest.mark.slow
def test_invariants_default_loop():
    for seed in range(60):
        play_checked("default", seed, seed * 3 + 1)


# --- every legal option applies; illegal options change nothing ---------------------------------------------
BOGUS = [("bogus",), ("activate", 99), ("shoot", 0, "nope"), ("move", 99, 0), ("first", "extra"), ()]


def sweep_states(scn, seed, every, policy=uniform):
    """Walk one random game; at every ``every``-th decision apply each legal option to a clone and try illegal ones."""
    g = Game(scn, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not g.over:
        d = g.decision()
        if n % every == 0:
            for opt in d.options:
                c = g.clone()
                c.apply(opt)  # must not raise
                if not c.over:
                    assert len(c.decision().options) > 0
            before = g.state_digest()
            n_events = len(g.events)
            other_kind = {"initiative": ("pass",), "activate": ("first",)}.get(d.kind, ("activate", 0))
            for bad in BOGUS + [other_kind]:
                if bad in d.options:
                    continue
                with pytest.raises(IllegalOptionError):
                    g.apply(bad)
                assert g.state_digest() == before
                assert len(g.events) == n_events
            assert g.decision() == d
        g.apply(policy(g, rng))
        n += 1


def test_every_legal_option_applies_skirmish():
    for seed in range(6):
        sweep_states("skirmish", seed, every=9)
    for seed in range(6):
        sweep_states(long_skirmish(10), seed, every=9, policy=aggressive)


@pytest.mark.slow
def test_every_legal_option_applies_default():
    for seed in range(8):
        sweep_states("default", 500 + seed, every=40)


# --- hypothesis: random seeds, random choices, round trips mid-game ---------------------------------------
@settings(HSET, max_examples=150)
@given(seed=st.integers(0, 2**31 - 1), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=400),
       cut=st.integers(0, 120))
def test_hypothesis_games_with_round_trips(seed, picks, cut):
    g = Game("skirmish" if seed % 2 else long_skirmish(12), seed=seed)
    inv = Invariants(g)
    i = 0
    checked = False
    while not g.over:
        opts = g.decision().options
        g.apply(opts[picks[i % len(picks)] % len(opts)])
        i += 1
        inv.check(g)
        if i == cut or (g.over and not checked):
            checked = True
            digest = g.state_digest()
            h = Game.from_dict(json.loads(json.dumps(g.to_dict())))
            c = g.clone()
            assert h.state_digest() == digest and c.state_digest() == digest
            assert h.event_log() == g.event_log()
            # all three continue identically
            j = i
            while not g.over:
                opts = g.decision().options
                assert h.decision().options == opts == c.decision().options
                o = opts[picks[j % len(picks)] % len(opts)]
                for x in (g, h, c):
                    x.apply(o)
                j += 1
                inv.check(g)
                assert h.state_digest() == g.state_digest() == c.state_digest()
            assert h.event_log() == g.event_log() == c.event_log()
            break
    assert g.over


@settings(HSET, max_examples=30)
@given(seed=st.integers(0, 10**6))
def test_hypothesis_default_scenario_determinism(seed):
    a, taken = play_checked("default", seed, seed ^ 0x5A5A)
    b = Game.from_dict(a.to_dict())
    assert b.event_log() == a.event_log() and b.result() == a.result()


# --- hypothesis: random small scenarios built in code ------------------------------------------------------
WEAPONS = ["rifle", "assault_rifle", "shotgun", "musket", "pistol", "lmg", "hmg", "agl", "rifle_grenade",
           "laser_rifle", "plasma_rifle", "average_small_arm"]
ARMOUR = ["none", "basic_battledress", "partial_light", "full_light", "light_power", "heavy_power"]
TERRAIN = ["light_scrub", "rough", "light_woods", "dense_woods", "building", "hill", "river", "open_water", "swamp"]

unit_st = st.fixed_dictionaries({
    "figures": st.lists(st.tuples(st.sampled_from(WEAPONS), st.integers(1, 6)), min_size=1, max_size=3),
    "quality": st.sampled_from(["d4", "d6", "d8", "d10", "d12"]),
    "leadership": st.integers(1, 3),
    "armour": st.sampled_from(ARMOUR),
    "confidence": st.sampled_from(["confident", "steady", "shaken", "broken"]),
    "movement": st.sampled_from(["encumbered", "infantry", "fast"]),
    "grenades": st.booleans(),
    "specialist_grenade": st.sampled_from(["", "at_grenade"]),
    "amphibious": st.booleans(),
    "inbound": st.sampled_from([0, 0, 0, 1, 3]),
    "x": st.integers(2, 34), "y": st.integers(1, 10),
})


@settings(HSET, max_examples=80)
@given(blue=st.lists(unit_st, min_size=1, max_size=3), red=st.lists(unit_st, min_size=1, max_size=3),
       terrain=st.lists(st.tuples(st.sampled_from(TERRAIN), st.integers(0, 30), st.integers(12, 22),
                                  st.integers(2, 8), st.integers(2, 6)), max_size=4),
       commitment=st.tuples(st.sampled_from(["low", "medium", "high"]), st.sampled_from(["low", "medium", "high"])),
       seed=st.integers(0, 10**6), extra_hits=st.booleans())
def test_hypothesis_random_scenarios(blue, red, terrain, commitment, seed, extra_hits):
    def mk(specs, side):
        out = []
        for k, s in enumerate(specs):
            y = s["y"] if side == 0 else 36 - s["y"]
            out.append(unit(f"u{side}{k}", (s["x"], y), figures=s["figures"], quality=s["quality"],
                            leadership=s["leadership"], armour=s["armour"], confidence=s["confidence"],
                            movement=s["movement"], grenades=s["grenades"], amphibious=s["amphibious"],
                            **({"specialist_grenade": s["specialist_grenade"]} if s["specialist_grenade"] else {}),
                            **({"inbound": s["inbound"]} if s["inbound"] else {})))
        return out

    terr = [{"type": t, "polygon": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]} for t, x, y, w, h in terrain]
    scn = scenario(mk(blue, 0), mk(red, 1), terrain=terr, width=36, height=36, turn_limit=4,
                   commitment=commitment, options={"extra_hits": extra_hits})
    g = Game(scn, seed=seed)
    inv = Invariants(g)
    rng = random.Random(seed)
    n = 0
    while not g.over:
        assert n < 3000
        g.apply(rng.choice(g.decision().options))
        inv.check(g)
        n += 1
    h = Game.from_dict(g.to_dict())
    assert h.state_digest() == g.state_digest()


# --- malformed scenarios ------------------------------------------------------------------------------------
def base():
    return scenario([unit("A", (5, 5))], [unit("B", (40, 40))])


def _mut(path, value=None, delete=False):
    def f(doc):
        node = doc
        for k in path[:-1]:
            node = node[k]
        if delete:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        return doc
    return f


MALFORMED = [
    (_mut(["name"], delete=True), "'name' is a required property"),
    (_mut(["turn_limit"], 0), "turn_limit"),
    (_mut(["table", "width"], -3), "table/width"),
    (_mut(["sides"], []), "sides"),
    (_mut(["sides", 0, "home_edge"], "up"), "home_edge"),
    (_mut(["sides", 0, "units"], []), "sides/0/units"),
    (_mut(["sides", 0, "units", 0, "quality"], "d7"), "quality"),
    (_mut(["sides", 0, "units", 0, "leadership"], 4), "leadership"),
    (_mut(["sides", 0, "units", 0, "figures"], []), "figures"),
    (_mut(["sides", 0, "units", 0, "figures", 0, "weapon"], "raygun"), "unknown weapon 'raygun'"),
    (_mut(["sides", 0, "units", 0, "figures", 0, "weapon"], "hand_grenade"), "grenades are a unit property"),
    (_mut(["sides", 0, "units", 0, "armour"], "tinfoil"), "unknown armour 'tinfoil'"),
    (_mut(["sides", 0, "units", 0, "position"], [60, 5]), "off the table"),
    (_mut(["sides", 1, "units", 0, "bogus"], 1), "bogus"),
    (_mut(["objectives"], [{"name": "X", "position": [99, 1], "vp": 1}]), "objective 'X' is off the table"),
    (_mut(["terrain"], [{"type": "lava", "polygon": [[0, 0], [1, 0], [1, 1]]}]), "terrain/0/type"),
    (_mut(["terrain"], [{"type": "rough", "polygon": [[0, 0], [1, 1], [2, 2]]}]), "not a valid polygon"),
    (_mut(["obstacles"], [{"type": "wall", "line": [[0, 0], [1, 1]]}]), "'cost' is a required property"),
    (_mut(["options"], {"no_such_option": True}), "unknown game option"),
    # issue 3: shooting/reorganise gaps
    (_mut(["sides", 0, "units", 0, "specialist_grenade"], "lmg"), "specialist_grenade 'lmg' is not a grenade"),
    (_mut(["sides", 0, "units", 0, "specialist_grenade"], "hand_grenade"), "hand grenades are 'grenades': true"),
    (_mut(["sides", 0, "units", 0, "wading"], True), "only power armour may wade"),
    (_mut(["sides", 0, "units", 0, "amphibious"], "yes"), "amphibious"),
    (_mut(["sides", 0, "units", 0, "inbound"], 5), "inbound"),
    (_mut(["table", "unit"], "mm"), "table/unit"),
]


@pytest.mark.parametrize("mutate,message", MALFORMED)
def test_malformed_scenarios_raise_scenario_error_naming_the_problem(mutate, message):
    doc = mutate(copy.deepcopy(base()))
    with pytest.raises(ScenarioError) as e:
        Game(doc)
    assert message in str(e.value)


def test_bad_scenario_sources(tmp_path):
    with pytest.raises(ScenarioError, match="unknown scenario 'nowhere'"):
        Game("nowhere")
    p = tmp_path / "bad.json"
    p.write_text("{oops")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        Game(str(p))
    p.write_text("[1, 2]")
    with pytest.raises(ScenarioError, match="must be a JSON object"):
        Game(str(p))
    with pytest.raises(ScenarioError, match="unknown game option"):
        Game("skirmish", options={"fog": True})


def test_scenario_file_round_trip(tmp_path):
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(base()))
    g = Game(str(p), seed=4)
    assert [u.name for u in g.units] == ["A", "B"]


# --- every game option on: 1,000 random games -----------------------------------------------------------
def all_options(k: int) -> dict:
    """Every optional rule on, cycling the multi-valued ones (activation, close combat, night, extra hits);
    seizing the initiative goes with alternating activation, the chit variant with chits and the optional
    pursuit with the house close combat (the rules modules refuse the other combinations)."""
    act = ("alternate", "chits", "cards")[k % 3]
    return {"seize_tokens": 2 if act == "alternate" else 0, "activation": act, "chit_quality_variant": act == "chits",
            "night": k % 2 == 0, "rally_double_half": True, "jamming": True,
            "close_combat": ("dustup", "house")[(k // 3) % 2], "house_pursuit": (k // 3) % 2 == 1,
            "random_quality": True, "random_leadership": True,
            "random_confidence": True, "power_armour_extraction": True, "extra_hits": k % 4 != 0,
            # issue 3: shooting/reorganise gaps
            "seize_tokens_veterans": act == "alternate", "seize_tokens_objectives": act == "alternate",
            "turn_end_card": act == "cards", "casevac_vp": 1, "measure": "centimetres" if k % 5 == 0 else "inches"}


def _with_jammers(name):
    doc = copy.deepcopy(load_scenario(name))
    doc["sides"][0]["jammer"] = "d8"
    doc["sides"][1]["jammer"] = "d6"
    return doc


@pytest.mark.parametrize("chunk", range(4))
def test_invariants_with_every_option_on(chunk):
    """1,000 games in all: 220 per chunk on skirmish (uniform and fight-biased play) and 30 on default
    (with its command tree: orders, rallies, combined assaults), every optional rule on."""
    skirmish, default = _with_jammers("skirmish"), _with_jammers("default")
    kinds = set()
    for k in range(250):
        i = chunk * 250 + k
        scn = default if k < 30 else skirmish
        policy = aggressive if k % 2 else uniform
        g, taken = play_checked(scn, 50_000 + i, i, policy=policy, options=all_options(i))
        kinds.update(o[0] for o in taken)
    # the options really were exercised
    assert {"seize", "decline", "assault", "order"} <= kinds, kinds
