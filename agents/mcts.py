"""The ``mcts`` agent: Monte-Carlo tree search over copies of the game, fair to what its side may know.

Names: ``mcts`` (1 s a decision) and ``mcts:KEY=VALUE,...`` with the settings of :data:`SETTINGS`, e.g.
``mcts:time=0.25``, ``mcts:playouts=400``, ``mcts:prior=hard,rollout=medium,depth=30``.

How it searches (open-loop UCT over the sequences of options from the pending decision):

- **The root is built from what the side may know** (:func:`search_root`): a copy of the game
  (``clone(log=False)``) in which every enemy unit the side cannot see (hidden behind a marker) is taken out
  of the game (as a *merged* unit: out of play, no victory points; its place and state overwritten with the
  same neutral values in every game) and every enemy marker left on the table is a dummy.  The engine gives
  no public way to build a world with a hidden unit placed at a marker drawn from the side's knowledge
  (its figures, weapons and quality are as secret as its place), so the search treats hidden enemy units as
  absent; their markers still block movement as on the table.  Cards of those units leave the deck (whether a
  hidden unit has activated is secret).  Nothing else of the enemy is secret (``game.view``).
- **The dice are as hidden as the enemy's units**: every copy a search plays out rolls dice of its own,
  reseeded from the agent's generator (``clone(reseed=...)``), never the game's next dice.  The root's
  children share their dice: the k-th playout through any root child uses the k-th seed of the decision
  (common random numbers: alternatives are compared under the same luck).
- **The large move lists**: progressive widening over the prior's ranking.  The root with ``n`` visits
  considers its first ``1 + widen * sqrt(n)`` options in the order: the prior's choice (``prior=auto``, the
  default: the shipped policy trained on the game's scenario, else ``hard``), the rollout doctrine's choice, the
  other ladder doctrines' choices (``medium``, ``defensive``, ``easy``), then every other option in an order
  shuffled by the agent's generator (``prior=ppo`` or ``rollout=ppo``: the shipped trained policy in the doctrine's place, ``hard``'s choice ranking next).  Below
  the root a node considers ``1 + inner * sqrt(n)`` options: with ``inner=0`` (the default) the tree follows the
  prior's choice (one doctrine call a node; no shuffled option a few decisions after the root, for either side, to
  make the paired playouts of two root children diverge); with ``inner > 0`` the rollout doctrine's choice ranks second
  there, then the rest shuffled.
- **Other root candidates and allocations** (settings, the defaults as above): ``roots=neighbours`` ranks after
  the prior's choice the options next to it (:func:`neighbours`: the nearby moves, the other fire modes and
  targets, the other units) instead of the other doctrines' choices, ``roots=mixed`` the nearest neighbour, the
  doctrines' choices, then the other neighbours; ``alloc=even`` plays the first ``width`` candidates in turn (each
  the same number of paired playouts) instead of UCT, ``alloc=race`` likewise but a candidate clearly worse than
  the prior's choice makes way for the next ranked one; ``tail=medium,head=K`` hands each playout to a cheaper
  doctrine after ``K`` decisions; ``tdist=1`` asks for Student's t quantile in place of ``z``; ``value=learned``
  scores a playout's end with the learned win probability of :mod:`agents.value` instead of :func:`evaluate`.
- **Playouts** are truncated: after the tree, the rollout doctrine (``hard`` by default, the model of both
  sides; ``rollout=medium`` is about four times cheaper but measured weaker) plays both sides for ``depth``
  decisions, then a static evaluation (:func:`evaluate`) scores the copy for the searching side: victory
  points now (objectives held, enemy units out of play), the material left (able figures per unit),
  suppression and confidence; a finished game scores its result.
- The choice is the prior's, unless another root child beats it under the same dice: the k-th playouts of the
  two (same seed) are paired, and the other option is taken when the mean paired gain exceeds ``z`` standard
  errors (then the option with the best such lower bound).  The prior's choice is played at least as often as
  any other root child, so every alternative has partners.  With tiny budgets the search thus falls back on
  the doctrine rather than on noise.

Deterministic given its seed and a playout budget (``playouts=N``): the same seed, the same game and the same
knowledge give the same choice, whatever the game's own future dice.  A time budget (``time=S``, the default)
is inherently not deterministic: how many playouts fit depends on the machine's speed and load.  The time
budget covers the whole decision (building the root and the prior's ranking included); a playout still
running at the deadline is dropped, and the deadline keeps 3% of the budget and 20 ms for answering.
"""
from __future__ import annotations

import math
import time

from dustup_env.rules.kernel.knowledge import HIDDEN, knows_marker_unit, unit_knowledge
from dustup_env.rules.rules_overview.random_activation import CardDeck
from dustup_env.rules.unit_actions.move_action import DIRECTIONS as MOVE_DIRECTIONS

from .base import Agent, default_option, register
from .hard import HardAgent
from .knowledge import game_token
from .ladder import DefensiveAgent, EasyAgent, MediumAgent
from .policy import POLICY_FOR, SHIPPED_POLICIES, policy_ready
from .scripted import ScriptedAgent
from .value import learned_value, load_weights, result_for, unit_worth

NEUTRAL_POINT = (-1000.0, -1000.0)  # where a hidden enemy unit taken out of the search's root "stands"

# the doctrines a search may use as its prior or its rollout policy
DOCTRINES = {"easy": EasyAgent, "medium": MediumAgent, "scripted": ScriptedAgent, "hard": HardAgent,
             "defensive": DefensiveAgent}
# the trained policies a search may use in their place (agents/policy.py: needs the ``policy`` extra, torch)
POLICIES = tuple(SHIPPED_POLICIES)  # the shipped trained policies: ppo, ppo-skirmish

# name -> (default, kind, help)
SETTINGS = {
    "time": (1.0, "seconds", "time budget of one decision in seconds (ignored when playouts is given)"),
    "playouts": (0, "count", "playouts per decision (0: use the time budget); a playout budget is deterministic"),
    "prior": ("auto", "doctrine", "doctrine (or a shipped trained policy: ppo, ppo-skirmish) whose choice ranks "
              "first (progressive widening), that the tree follows below the root, and that decides on failure; "
              "auto: the shipped policy trained on the game's scenario (ppo on default, ppo-skirmish on skirmish), "
              "else hard"),
    "rollout": ("hard", "doctrine", "doctrine (or a shipped trained policy) that plays both sides in the truncated "
                "playouts"),
    "depth": (30, "count", "decisions played by the rollout doctrine after the tree before the evaluation"),
    "c": (0.35, "number", "UCT exploration constant (values are in [0, 1])"),
    "widen": (0.5, "number", "progressive widening at the root: with n visits it considers 1 + widen*sqrt(n) options"),
    "inner": (0.0, "number", "progressive widening below the root (0: the tree follows the prior's choices)"),
    "z": (2.0, "number", "standard errors by which another option must beat the prior's choice (paired playouts)"),
    "roots": ("doctrines", "choice", "root candidates after the prior's choice: doctrines (the other doctrines' "
              "choices, then the rest shuffled), neighbours (the options next to the prior's choice: the nearby "
              "moves, the other fire modes and targets, the other units; then the rest shuffled) or mixed (the "
              "nearest neighbour, the doctrines' choices, the other neighbours, the rest)"),
    "alloc": ("uct", "choice", "root playouts: uct (UCT over the widened options), even (round robin: every "
              "candidate the same number of paired playouts) or race (round robin; a candidate that is clearly "
              "worse than the prior's choice makes way for the next ranked option)"),
    "width": (0, "count", "root candidates for alloc=even/race (0: progressive widening decides how many)"),
    "tail": ("none", "doctrine", "doctrine that takes over the playout after `head` decisions of the rollout "
             "doctrine (none: the rollout doctrine plays all `depth` decisions)"),
    "head": (10, "count", "decisions the rollout doctrine plays before the `tail` doctrine takes over"),
    "tdist": (0, "count", "1: the paired rule uses Student's t quantile for the pairs at hand at the one-sided level "
              "of z (stricter with few pairs)"),
    "value": ("static", "choice", "the evaluation at a playout's end: static (victory points and material now) or "
              "learned (the win probability of agents/value.py's fitted model)"),
}
CHOICES = {"roots": ("doctrines", "neighbours", "mixed"), "alloc": ("uct", "even", "race"),
           "value": ("static", "learned")}
ARGUMENT = "KEY=VALUE,..."


def parse_settings(text: str | None) -> dict:
    """The settings named by ``text`` (``"time=0.25,prior=hard"``) over the defaults; a one-line
    ``ValueError`` for anything else."""
    out = {k: v[0] for k, v in SETTINGS.items()}
    if text is None:
        return out
    known = ", ".join(SETTINGS)
    seen = set()
    for part in str(text).split(","):
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise ValueError(f"mcts settings are KEY=VALUE pairs separated by commas ({known}), not {part!r}")
        if key not in SETTINGS:
            raise ValueError(f"mcts has no setting {key!r}: the settings are {known}")
        if key in seen:
            raise ValueError(f"mcts setting {key!r} is given twice")
        seen.add(key)
        kind = SETTINGS[key][1]
        if kind == "choice":
            if value not in CHOICES[key]:
                raise ValueError(f"mcts {key}={value!r}: the choices are {', '.join(CHOICES[key])}")
            out[key] = value
            continue
        if kind == "doctrine":
            if (key, value) in (("tail", "none"), ("prior", "auto")):
                out[key] = value
                continue
            if value not in DOCTRINES and value not in POLICIES:
                more = {"tail": " (or none)", "prior": " (or auto)"}.get(key, "")
                raise ValueError(f"mcts {key}={value!r}: the doctrines are {', '.join(DOCTRINES)}, the trained "
                                 f"policies {', '.join(POLICIES)}{more}")
            out[key] = value
            continue
        try:
            num = int(value) if kind == "count" else float(value)
        except ValueError:
            raise ValueError(f"mcts {key}={value!r}: not a {'whole number' if kind == 'count' else 'number'}") \
                from None
        if not math.isfinite(num) or num < 0 or (kind == "seconds" and num == 0):
            raise ValueError(f"mcts {key}={value!r}: must be {'positive' if kind == 'seconds' else 'at least 0'}")
        if key == "tdist" and num not in (0, 1):
            raise ValueError(f"mcts tdist={value!r}: 0 or 1")
        if key == "time" and num > 3600:
            raise ValueError(f"mcts time={value!r}: at most 3600 seconds a decision")
        out[key] = num
    return out


# ---------------------------------------------------------------------------------------------- the root
def search_root(game, side: int, seed: int):
    """A copy of ``game`` holding only what ``side`` may know (see the module docstring), rolling dice seeded with
    ``seed``."""
    g = game.clone(log=False, reseed=seed)
    gone = set()
    for u in g.units:
        if unit_knowledge(side, u) == HIDDEN:
            gone.add(u.uid)
            u.hidden = False
            u.merged = True  # out of play, no victory points (kernel/entities.py)
            u.x, u.y = NEUTRAL_POINT
            u.activated = True
            u.hidden_spans = []
            u.revealed_at = -1
    for m in g.markers:
        if not knows_marker_unit(side, m) and not m["removed"]:
            m["unit"] = -1  # every enemy marker is a dummy to the search
    for e in g.entities:  # a table entity the side may not know of (a hidden minefield) is not there for the search
        if e["refs"][side] < 0 and not e["removed"]:
            e["removed"] = True
            g.invalidate()
    cards = g.components.get(CardDeck)
    if gone and cards is not None and cards.deck:
        cards.deck = [c for c in cards.deck if c not in gone]
    return g


def evaluate(g, side: int) -> float:
    """A static value of ``g`` for ``side`` in [0, 1]: a finished game its result; else the victory points now
    (objectives held, enemy units out of play) and the material left (able figures per unit, worth less when
    suppressed, shaken, broken or routed)."""
    if g.over:
        return result_for(g, side)
    vp = g.victory_points()
    score = float(vp[side] - vp[1 - side])
    mat = 0.0
    for u in g.units:
        if not u.in_play:
            continue
        if not u.figures:
            continue
        val = unit_worth(u)
        mat += val if u.side == side else -val
    return 0.5 + 0.5 * math.tanh((score + 1.5 * mat) / 4.0)


# ---------------------------------------------------------------------------------------------- root candidates
def _turn(a: int, b: int, n: int) -> int:
    d = abs(a - b) % n
    return min(d, n - d)


def neighbours(choice, options) -> list:
    """The options of ``options`` next to ``choice``, nearest first: for a move (``("move", direction, distance)``)
    the moves by angle plus distance steps from it (the directions wrap around); for a shot the other fire modes at
    the same target, then the same mode at other targets, then the other shots; for any other option the options of
    the same kind, those sharing more of its parts first.  Options of other kinds are not neighbours, but for a move
    ``("end",)`` (staying put) after the moves one step away."""
    choice = tuple(choice)
    head = choice[0] if choice else None
    same = [tuple(o) for o in options if o and o[0] == head and tuple(o) != choice]
    if not same:
        return []
    if head == "move" and len(choice) == 3 and all(isinstance(x, int) for x in choice[1:]):
        dirs = max([o[1] for o in same if isinstance(o[1], int)] + [choice[1], MOVE_DIRECTIONS - 1]) + 1
        def dist(o):
            if len(o) != 3 or not all(isinstance(x, int) for x in o[1:]):
                return 99
            return _turn(o[1], choice[1], dirs) + abs(o[2] - choice[2])
        out = sorted(same, key=dist)
        near = [o for o in out if dist(o) <= 1]
        stay = [("end",)] if ("end",) in options else []
        return near + stay + out[len(near):]
    if head == "shoot" and len(choice) >= 3:
        def key(o):
            if len(o) < 3:
                return 3
            return 0 if o[1] == choice[1] else (1 if o[2] == choice[2] else 2)
        return sorted(same, key=key)

    def shared(o):
        return -sum(1 for a, b in zip(o[1:], choice[1:]) if a == b)
    return sorted(same, key=shared)


# ---------------------------------------------------------------------------------------------- the search
class _SteadyMixin:
    """A doctrine that plays the many copies of one game as that game: its per-game plans (the objective
    assignment) are kept across copies instead of being rebuilt for every copy."""

    def _setup(self, k):
        self._game_ref = k.game_token
        super()._setup(k)

    def _goal(self, k, u):
        self._game_id = k.game_token  # the scripted goals, likewise
        return super()._goal(k, u)


_STEADY: dict = {}


def _player(name: str, seed: int, steady: bool = True):
    """The doctrine ``name`` (``steady``: its search copy, :class:`_SteadyMixin`) or the trained policy ``name``
    (:data:`POLICIES`; one line naming the missing extra where torch is not installed)."""
    if name in POLICIES:
        from .policy import make_policy_agent

        return make_policy_agent(name, seed=seed)
    return _steady(name)(seed=seed) if steady else DOCTRINES[name](seed=seed)


def _steady(name: str):
    cls = _STEADY.get(name)
    if cls is None:
        base = DOCTRINES[name]
        cls = _STEADY[name] = type(f"Search{base.__name__}", (_SteadyMixin, base), {})
    return cls


def _paired(values, base):
    """The mean and standard error of the paired differences ``values[k] - base[k]`` (at least 2 pairs)."""
    m = min(len(values), len(base))
    diffs = [a - b for a, b in zip(values[:m], base[:m])]
    mean = sum(diffs) / m
    var = sum((x - mean) ** 2 for x in diffs) / (m - 1)
    return mean, math.sqrt(var / m)


def _t_quantile(z: float, df: int) -> float:
    """Student's t quantile with ``df`` degrees of freedom at the level of the normal quantile ``z`` (the
    Cornish-Fisher expansion: within 4% of the exact value for df >= 3 and z <= 2.5)."""
    v = float(max(df, 1))
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v * v)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3))


class _Node:
    __slots__ = ("n", "w", "order", "children", "values", "retired")

    def __init__(self):
        self.n = 0
        self.w = 0.0  # summed values for the searching side
        self.order = None  # options ranked by the prior (set at the first visit)
        self.children = {}
        self.values = None  # a root child: its k-th playout's value (the k-th seed's), for paired comparisons
        self.retired = set()  # the root with alloc=race: candidates out of the race


class Search:
    """One decision's search in progress: the fair root game, the tree's root node, the decision, the searching
    side, the playouts' seeds (the k-th playout through any root child uses the k-th) and, per root child, the
    victory-point margin (the searching side's minus the enemy's) at each of its playouts' ends."""
    __slots__ = ("game", "root", "decision", "side", "seeds", "margins")

    def __init__(self, game, root, decision, side):
        self.game, self.root, self.decision, self.side, self.seeds = game, root, decision, side, []
        self.margins: dict = {}


class MctsAgent(Agent):
    """Monte-Carlo tree search (see the module docstring)."""

    name = "mcts"
    # the analysis API (:func:`agents.analysis.analyze`): it joins here when the agents package is imported, so
    # that the engine's services, which reach agents only by name, can ask any search agent for an analysis
    analyst = None

    def __init__(self, seed: int = 0, **settings):
        super().__init__(seed)
        self.settings = parse_settings(None)
        unknown = set(settings) - set(SETTINGS)
        if unknown:
            raise ValueError(f"mcts has no setting {sorted(unknown)[0]!r}: the settings are {', '.join(SETTINGS)}")
        self.settings.update(settings)
        self._time_setting = self.settings["time"]
        if self.settings["value"] == "learned":
            weights = load_weights()  # a malformed weights file: a one-line error now, not in a playout
            self._value = lambda g, side: learned_value(g, side, weights)
        else:
            self._value = evaluate
        # searched decisions, playouts run, playouts dropped at the deadline, searches that failed (the prior
        # decided), choices other than the prior's
        self.stats = {"decisions": 0, "playouts": 0, "dropped": 0, "failed": 0, "changed": 0}
        if self.settings["prior"] == "auto":
            self._load_policies()
        self._new_game()

    @staticmethod
    def _load_policies():
        """Load now the shipped policies ``prior=auto`` may pick (cached per process): loading one (torch, the
        model file) takes longer than a decision's budget, and the first decision of a game on ``default`` or
        ``skirmish`` must keep its budget."""
        from .policy import load_model

        for name in sorted(set(POLICY_FOR.values())):
            if policy_ready(name):
                load_model(SHIPPED_POLICIES[name])
        import dustup_env.env  # noqa: F401  (the policy's observation: gymnasium)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._new_game()

    def prior_for(self, game=None) -> str:
        """The prior that plays ``game``: the ``prior`` setting, or with ``prior=auto`` the shipped policy trained
        on the game's scenario (:data:`agents.policy.POLICY_FOR`, by the scenario's name) where it can play here
        (its model file and the ``policy`` extra), else ``hard`` (also before a game is known)."""
        p = self.settings["prior"]
        if p != "auto":
            return p
        name = POLICY_FOR.get(((getattr(game, "scenario", None) or {}).get("name")))
        return name if name is not None and policy_ready(name) else "hard"

    def _new_game(self, game=None):
        s = self.settings
        self._token = None
        prior = self.prior_name = self.prior_for(game)
        self._prior = _player(prior, self.seed, steady=False)  # on the real game: the fallback, and its plans
        self._search_prior = _player(prior, self.seed)
        self._rollout = _player(s["rollout"], self.seed)
        # the other doctrines' choices rank next at the root (with a policy as prior or rollout, hard's first)
        others = (("hard",) if {prior, s["rollout"]} & set(POLICIES) else ()) + ("medium", "defensive", "easy")
        self._extra = [_steady(n)(seed=self.seed) for n in others if n not in (prior, s["rollout"])]
        self._tail = None if s["tail"] == "none" else _player(s["tail"], self.seed)
        for a in [self._prior, self._search_prior, self._rollout] + self._extra + ([self._tail] if self._tail else []):
            a.reset(self.seed)

    # ------------------------------------------------------------------ the interface
    def choose(self, game, decision):
        opts = decision.options
        if len(opts) == 1:
            return opts[0]
        start = time.perf_counter()
        prior = self.prior_choice(game, decision)  # also makes the prior's per-game plans on the real game
        try:
            opt = self._search(game, decision, prior, start)
        except Exception:  # noqa: BLE001 - a bot must never crash a game: the prior decides
            self.stats["failed"] += 1
            opt = None
        if opt is None or tuple(opt) not in opts:
            opt = prior if prior in opts else default_option(decision)
        if tuple(opt) != tuple(prior):
            self.stats["changed"] += 1
        return tuple(opt)

    def unfamiliar(self, game) -> str | None:
        """What the search's prior or rollout player says it was not trained or written for (a trained policy on a
        scenario it never met), or None.  With ``prior=auto``: the prior it picks for ``game``'s scenario."""
        if self.settings["prior"] == "auto" and self.prior_for(game) != self.prior_name:
            self._new_game(game)
        for role, a in (("prior", self._prior), ("rollout", self._rollout)):
            note = a.unfamiliar(game)
            if note:
                return f"{self.name}'s {role}: {note}"
        return None

    def prior_choice(self, game, decision):
        """The prior doctrine's choice on the real game (a new game first gets fresh plans): what a search of
        ``decision`` starts from (:meth:`begin_search`)."""
        token = game_token(game)
        if token is not self._token:
            self._new_game(game)
            self._token = token
        return self._prior.choose(game, decision)

    def analyze(self, game, **kw) -> dict:
        """The analysis of ``game``'s pending decision for the side deciding (:func:`agents.analysis.analyze`)."""
        if MctsAgent.analyst is None:
            raise RuntimeError("the analysis API (agents/analysis.py) is not loaded: import the agents package")
        return MctsAgent.analyst(self, game, **kw)

    def time_budget(self, seconds: float | None) -> None:
        """Think ``seconds`` a decision from now on (a time control; None: back to the ``time`` setting).  A
        playout budget (``playouts=N``) ignores it."""
        if seconds is None:
            self.settings["time"] = self._time_setting
        else:
            self.settings["time"] = max(0.001, float(seconds))

    # ------------------------------------------------------------------ search
    def _search(self, game, decision, prior, start):
        s = self.settings
        budget = int(s["playouts"])
        t = float(s["time"])
        # 3% and 20 ms left for answering (a step of a playout runs past the deadline by up to a doctrine's choice)
        deadline = None if budget else start + max(0.5 * t, 0.97 * t - 0.02)
        state = self.begin_search(game, decision, prior)
        done = 0
        while True:
            if budget:
                if done >= budget:
                    break
            elif time.perf_counter() >= deadline:
                break
            done += 1
            if self.search_step(state, deadline) is None:
                break
        self.last_root = state.root
        return self.final_choice(state.root)

    def begin_search(self, game, decision, prior):
        """A search of ``decision`` (the side's pending one in ``game``) ready for :meth:`search_step`: the fair root
        (:func:`search_root`), its options ranked, the playouts' seeds.  ``prior``: the prior doctrine's choice on the
        real game (:meth:`prior_choice`)."""
        s = self.settings
        side = decision.side
        root_seed = self.rng.getrandbits(62)
        root_game = search_root(game, side, root_seed)
        if hasattr(self._prior, "_assign"):  # the search's prior plays this side with the real game's plans
            self._search_prior._assign.update(self._prior._assign)
            self._search_prior._assigned.add(side)
        root = _Node()
        extra = [prior]
        if s["roots"] != "neighbours":
            if s["rollout"] != self.prior_name:
                extra.append(self._rollout.choose(root_game, decision))
            extra += [a.choose(root_game, decision) for a in self._extra]
        if s["roots"] != "doctrines":
            near = neighbours(prior, decision.options)
            extra = [prior] + near[:1] + extra[1:] + near[1:] if s["roots"] == "mixed" else extra + near
        root.order = self._rank(root_game, decision, first=extra)
        self.stats["decisions"] += 1
        return Search(root_game, root, decision, side)

    def search_step(self, state, deadline):
        """One playout of the search ``state`` (through the root child the tree picks); its value, or None when
        it was dropped at the deadline."""
        root, side = state.root, state.side
        if self.settings["alloc"] == "uct":
            child_opt = self._pick(root, state.decision.options, side, side, root=True)
        else:
            child_opt = self._pick_even(root)
        first = root.children.get(root.order[0])
        if first is not None and child_opt != root.order[0] and root.children[child_opt].n >= first.n:
            child_opt = root.order[0]  # the prior's choice is played at least as often as any other
        child = root.children[child_opt]
        k = child.n
        seeds = state.seeds
        while len(seeds) <= k:
            seeds.append(self.rng.getrandbits(62))
        margins = state.margins.setdefault(child_opt, [])
        v = self._playout(state.game, root, child_opt, seeds[k], side, deadline, margins)
        if v is None:
            self.stats["dropped"] += 1
            return None
        if child.values is None:
            child.values = []
        child.values.append(v)
        self.stats["playouts"] += 1
        return v

    def _pick_even(self, root):
        """The root child to play next with ``alloc=even`` or ``race``: of the candidates (the first ``width``
        ranked options still in the race; with ``width=0`` as many as progressive widening allows) the one with
        the fewest playouts, the higher ranked first.  ``race`` retires a candidate whose paired gain over the
        prior's choice is below 0 by one standard error after 4 pairs (it keeps its playouts) and lets the next
        ranked option in."""
        s = self.settings
        width = int(s["width"]) or 1 + int(s["widen"] * math.sqrt(root.n))
        out = root.retired
        race = s["alloc"] == "race"
        base = root.children.get(root.order[0])
        cands = []
        for o in root.order:
            if race and o in out:
                continue
            if race and base is not None and o != root.order[0]:
                ch = root.children.get(o)
                if ch is not None and ch.values and len(ch.values) >= 4 and ch.n >= base.n:
                    mean, se = _paired(ch.values, base.values)
                    if mean + se < 0:
                        out.add(o)
                        continue
            cands.append(o)
            if len(cands) >= width:
                break
        best = min(cands, key=lambda o: root.children[o].n if o in root.children else -1)
        if best not in root.children:
            root.children[best] = _Node()
        return best

    def final_choice(self, root):
        """The prior's choice, unless another root child beats it under the same dice (paired playouts) by more
        than ``z`` standard errors; then the one whose lower bound is best."""
        first = root.order[0]
        base = root.children.get(first)
        if base is None or not base.values:
            return first
        z = self.settings["z"]
        best, bs = first, 0.0
        for o, ch in root.children.items():
            if o == first or not ch.values:
                continue
            m = min(len(ch.values), len(base.values))
            if m < 3:
                continue
            mean, se = _paired(ch.values, base.values)
            low = mean - (_t_quantile(z, m - 1) if self.settings["tdist"] else z) * se
            if low > bs:
                best, bs = o, low
        return best

    def _rank(self, g, d, first=()):
        """``d``'s options in the order the search widens: the given choices, the prior's and the rollout
        doctrine's, then the rest shuffled."""
        opts = d.options
        head = list(first)
        if not head:
            head = [self._search_prior.choose(g, d)]
            if self.settings["inner"] > 0:  # the rollout doctrine's choice ranks second where the tree widens
                head.append(self._rollout.choose(g, d))
        order, seen = [], set()
        for o in head:
            o = tuple(o)
            if o in opts and o not in seen:
                order.append(o)
                seen.add(o)
        rest = [o for o in opts if o not in seen]
        self.rng.shuffle(rest)
        return order + rest

    def _pick(self, node, legal, to_move, side, root=False):
        """The option to follow at ``node``: an unvisited one of the first ``1 + widen*sqrt(n)`` ranked legal
        options (``inner`` in place of ``widen`` below the root), else the best by UCT for the side to move."""
        s = self.settings
        allowed = 1 + int(s["widen" if root else "inner"] * math.sqrt(node.n))
        legal_set = legal if isinstance(legal, (set, frozenset)) else set(legal)
        cands = []
        for o in node.order:
            if o in legal_set:
                cands.append(o)
                if len(cands) >= allowed:
                    break
        if not cands:
            return None
        children = node.children
        for o in cands:
            ch = children.get(o)
            if ch is None:
                children[o] = _Node()
                return o
            if ch.n == 0:
                return o
        c = s["c"]
        log_n = math.log(max(node.n, 1))
        best, bs = None, -1e18
        for o in cands:
            ch = children[o]
            q = ch.w / ch.n
            if to_move != side:
                q = 1.0 - q
            u = q + c * math.sqrt(log_n / ch.n)
            if u > bs:
                best, bs = o, u
        return best

    def _playout(self, root_game, root, child_opt, seed, side, deadline, margins=None):
        """One playout through the root's child ``child_opt``: down the tree (widening it by one node), then the
        rollout doctrine for ``depth`` decisions, then the evaluation; the value is backed up the path.  None:
        dropped at the deadline."""
        g = root_game.clone(log=False, reseed=seed)
        path = [root, root.children[child_opt]]
        g.apply(child_opt)
        node = path[-1]
        expanded = node.n == 0
        while not expanded and not g.over:
            d = g.decision()
            if len(d.options) == 1:
                g.apply(d.options[0])
                continue
            if node.order is None:
                if deadline is not None and time.perf_counter() >= deadline:
                    return None
                node.order = self._rank(g, d)
            o = self._pick(node, d.options, d.side, side)
            if o is None:  # nothing ranked here is legal in this world: rank again
                node.order = self._rank(g, d)
                o = self._pick(node, d.options, d.side, side)
            child = node.children[o]
            expanded = child.n == 0
            g.apply(o)
            node = child
            path.append(node)
        rollout, tail = self._rollout, self._tail
        head = int(self.settings["head"]) if tail is not None else -1
        for i in range(int(self.settings["depth"])):
            if g.over:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                return None
            if i == head:
                rollout = tail
            d = g.decision()
            g.apply(d.options[0] if len(d.options) == 1 else rollout.choose(g, d))
        v = self._value(g, side)
        if margins is not None:
            vp = g.victory_points()
            margins.append(vp[side] - vp[1 - side])
        for n in path:
            n.n += 1
            n.w += v
        return v


def mcts_agent(settings: str | None = None, seed: int = 0) -> MctsAgent:
    """``mcts`` or ``mcts:KEY=VALUE,...`` (registered as ``mcts``; see :data:`SETTINGS`)."""
    return MctsAgent(seed=seed, **parse_settings(settings))


mcts_agent.agent_argument = ARGUMENT
mcts_agent.agent_argument_optional = True  # plain ``mcts``: every setting at its default

register("mcts", mcts_agent)
