"""Dustup as an OpenSpiel Python game: ``import dustup_env.openspiel`` registers ``python_dustup``.

    import pyspiel, dustup_env.openspiel
    game = pyspiel.load_game("python_dustup", {"scenario": "skirmish", "rng_seed": 7})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

- Two players (0 and 1 are the scenario's sides), sequential: the player to move is the side of the game's
  pending decision (the same side often decides several times in a row).
- Sampled stochastic: there are no chance nodes; the dice are rolled inside ``apply_action`` from the
  state's own seeded generator.  Every new initial state gets the next dice seed from the game's
  generator (parameter ``rng_seed``): the k-th state built by ``new_initial_state()`` of a game is the
  same on every run, and clones never advance the game's generator.
- ``state.clone()`` (Python: what OpenSpiel's Python algorithms call, e.g. the MCTS bot of
  ``open_spiel.python.algorithms.mcts``) is the same position with **fresh dice**: its dice are reseeded from
  a second generator of the game (the clone generator, seeded from ``rng_seed`` alone), never the parent's
  next dice.  The future dice are as hidden as the enemy's units: a search that clones the state cannot see
  what the real game's dice will do, and with a fixed simulation budget it chooses the same whatever those
  dice are.  Such a clone is not a replica: the same actions applied to a state and its clone may roll
  differently.  The exact copy (the same dice) is OpenSpiel's C++ ``Clone`` (its conformance tests, e.g.
  ``random_sim_test``, check that a copy replays its parent; C++ algorithms run on a Python game use it too;
  from Python ``pyspiel.State.clone(state)``) and the engine's ``state.dustup_game().clone()``.
  ``str(state)`` names the position by a digest without the dice, so a clone prints as its parent.
- Imperfect information when hidden units can occur (a unit starts hidden, a dummy marker, or terrain that
  conceals, where units may become hidden during the game), perfect information otherwise.
- Actions: the fixed codec of ``Dustup-v0`` (``num_distinct_actions`` = 1012; 2372 for a company-sized
  scenario; docs/observation.md),
  from the acting side's mirrored view; legal actions are exactly the pending decision's options.
- Observation tensor: the shared :class:`dustup_env.observation.Observer` (2166 floats in named pieces:
  ``units``, ``globals``, ``objectives``, ``terrain``, ``markers``, ``decision``, ``entities``: what the player's side
  may know).
  Observation string: that side's ``game.view(side)`` as JSON.  Information-state string (perfect
  recall): the side's filtered event log and its own actions.
- Returns: +1 / -1 for the winner / loser, 0 each for a draw and for a game cut at ``max_game_length``.

Game parameters: ``scenario`` (a built-in name, a path to a scenario JSON file, or the JSON text itself),
``options`` (the game options as a JSON object text, e.g. ``'{"night": true}'``), ``rng_seed`` (int) and
``max_game_length`` (int, default 5000 decisions).  ``state.dustup_game()`` is the engine's
:class:`~dustup_env.rules.Game` (``save()``, ``event_log()``, ``view(side)``, ...).
"""
from __future__ import annotations

import hashlib
import json
import random

import numpy as np
import pyspiel

from .codec import N_ACTIONS, ActionCodec, action_name  # noqa: F401  (N_ACTIONS: the standard layout's size)
from .env import check_fits
from .observation import LAYOUT, OBS_SIZE, Layout, Observer, pieces_for  # noqa: F401
from .rules import Game
from .rules.kernel.battlefield import TERRAIN_TYPES
from .rules.kernel.saves import state as state_document

_NUM_PLAYERS = 2
_DEFAULT_PARAMS = {"scenario": "default", "options": "{}", "rng_seed": 0, "max_game_length": 5000}


def _game_type(information) -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name="python_dustup",
        long_name="Python Dustup",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_NUM_PLAYERS,
        min_num_players=_NUM_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULT_PARAMS)


_GAME_TYPE = _game_type(pyspiel.GameType.Information.IMPERFECT_INFORMATION)


def _scenario_arg(text: str):
    """A scenario name or path as is; JSON text (starting with ``{``) as a dict."""
    text = str(text)
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"python_dustup: parameter 'scenario' is not valid JSON: {e}") from None
    return text


def _options_arg(text: str) -> dict:
    try:
        opts = json.loads(text) if str(text).strip() else {}
    except json.JSONDecodeError as e:
        raise ValueError(f"python_dustup: parameter 'options' is not a JSON object: {e}") from None
    if not isinstance(opts, dict):
        raise ValueError(f"python_dustup: parameter 'options' must be a JSON object, not {text!r}")
    return opts


def hidden_units_possible(game: Game) -> bool:
    """Whether some unit is or may become hidden: a unit starts hidden or a dummy marker is placed, or some
    terrain on the table conceals (a unit standing there, out of the enemy's sight, may become hidden)."""
    if game.markers or any(u.hidden for u in game.units):
        return True
    bf = game.bf
    present = np.unique(np.asarray(bf.grid))
    return any(TERRAIN_TYPES[bf.type_names[int(i)]][3] for i in present)


class DustupGame(pyspiel.Game):
    """The OpenSpiel game (see the module docstring)."""

    def __init__(self, params=None):
        p = dict(_DEFAULT_PARAMS)
        p.update(params or {})
        unknown = set(p) - set(_DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"python_dustup: unknown parameter(s) {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(_DEFAULT_PARAMS)}")
        self.scenario = _scenario_arg(p["scenario"])
        self.game_options = _options_arg(p["options"])
        self.max_length = int(p["max_game_length"])
        if self.max_length < 1:
            raise ValueError(f"python_dustup: max_game_length must be positive, not {self.max_length}")
        probe = Game(self.scenario, seed=0, options=self.game_options)  # validates scenario and options
        check_fits(probe)
        self.pieces = pieces_for(probe)  # games with vehicles or heavy weapons add the armoured pieces
        codec = ActionCodec.for_game(probe)  # 12 unit slots a side, or 32 for a company-sized scenario
        info = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden_units_possible(probe)
                else pyspiel.GameType.Information.PERFECT_INFORMATION)
        super().__init__(_game_type(info), pyspiel.GameInfo(
            num_distinct_actions=codec.n, max_chance_outcomes=0, num_players=_NUM_PLAYERS,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=self.max_length), p)
        self._seeds = random.Random(int(p["rng_seed"]))
        self._clone_seeds = random.Random(f"python_dustup clones {int(p['rng_seed'])}")  # dice of clones
        self.codec = codec

    def __reduce__(self):
        """Pickles with its parameters and the state of its generators (the next states and clones are the
        same)."""
        return _unpickle_game, (dict(self.get_parameters()), self._seeds.getstate(), self._clone_seeds.getstate())

    def new_initial_state(self):
        """A new game (its dice seed is drawn from the game's generator when the state is first used)."""
        return DustupState(self, _SeedBox(self._seeds))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"python_dustup: observation parameters are not supported, got {params}")
        return DustupObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.pieces)


def _unpickle_game(params: dict, seeds_state, clone_seeds_state=None) -> DustupGame:
    game = DustupGame(params)
    game._seeds.setstate(seeds_state)
    if clone_seeds_state is not None:
        game._clone_seeds.setstate(clone_seeds_state)
    return game


class _SeedBox:
    """The dice seed of one game, drawn lazily from the OpenSpiel game's generator.  Shared (not copied) by the
    clones of a state: OpenSpiel clones a Python state by building a new initial state and deep-copying the
    attributes, so a seed drawn eagerly would advance the generator once per clone."""

    __slots__ = ("_source", "_seed")

    def __init__(self, source=None, seed=None):
        self._source = source
        self._seed = seed

    @property
    def seed(self) -> int:
        if self._seed is None:
            self._seed = self._source.randrange(2**31 - 1)
            self._source = None
        return self._seed

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _SeedBox, (None, self.seed)


class _GameBox:
    """Holds the engine game of a state: deep copies clone it exactly, pickles store it as a replay save (the
    engine's ``to_dict``; a game is replayed exactly from its scenario, seed, options and decisions)."""

    __slots__ = ("game",)

    def __init__(self, game: Game):
        self.game = game

    def __deepcopy__(self, memo):
        return _GameBox(self.game.clone())

    def __reduce__(self):
        return _restore_game, (self.game.to_dict(),)


def _restore_game(save: dict) -> _GameBox:
    return _GameBox(Game.from_dict(save))


class DustupState(pyspiel.State):
    """One game of Dustup (see the module docstring)."""

    def __init__(self, game: DustupGame, seed_box: _SeedBox | None = None):
        super().__init__(game)
        self._seed_box = seed_box if seed_box is not None else _SeedBox(game._seeds)
        self._box = None  # the engine game, built at first use
        self._cut = False  # reached max_game_length

    # ------------------------------------------------------------------ the engine game
    def dustup_game(self) -> Game:
        """The engine's game behind this state (built on first use)."""
        if self._box is None:
            g = self.get_game()
            self._box = _GameBox(Game(g.scenario, seed=self._seed_box.seed, options=g.game_options))
        return self._box.game

    def clone(self):
        """The same position with fresh dice (module docstring): OpenSpiel's copy of the state, its engine game
        reseeded from the OpenSpiel game's clone generator."""
        game = self.dustup_game()
        c = super().clone()
        c._box = _GameBox(game.clone(reseed=self.get_game()._clone_seeds.getrandbits(62)))
        return c

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.dustup_game().decision().side

    def _legal_actions(self, player):
        g = self.dustup_game()
        d = g.decision()
        if player != d.side:
            return []
        return sorted(self.get_game().codec.indices(g, d))

    def chance_outcomes(self):  # pragma: no cover - sampled stochastic: no chance nodes
        raise ValueError("python_dustup has no chance nodes: the dice are rolled inside apply_action")

    def _apply_action(self, action):
        g = self.dustup_game()
        d = g.decision()
        g.apply(self.get_game().codec.decode(g, d.side, int(action), d.kind))
        if not g.over and len(g.history) >= self.get_game().max_length:
            self._cut = True

    def _action_to_string(self, player, action):
        g = self.dustup_game()
        if not g.over:
            d = g.decision()
            if d.side == player:
                try:
                    opt = self.get_game().codec.decode(g, player, int(action), d.kind)
                except Exception:  # noqa: BLE001 - an index naming no unit here: its layout name
                    opt = None
                if opt is not None and opt in d.options:
                    return f"{opt[0]}({', '.join(map(repr, opt[1:]))})"
        return action_name(int(action))

    def is_terminal(self):
        return self._cut or self.dustup_game().over

    def returns(self):
        g = self.dustup_game()
        if not g.over or g.winner is None or g.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if g.winner == 0 else [-1.0, 1.0]

    def __str__(self):
        g = self.dustup_game()
        if self._cut:
            head = f"cut at {len(g.history)} decisions"
        elif g.over:
            head = f"over: winner {g.winner} ({g.end_reason})"
        else:
            d = g.decision()
            head = f"side {d.side} to decide {d.kind}" + (f" (unit {d.unit})" if d.unit >= 0 else "")
        return f"turn {g.turn}/{g.turn_limit}, {head}, vp {list(g.victory_points())}, position {position_digest(g)}"


def position_digest(game: Game) -> str:
    """A short hash of the game's state without its dice: equal for a state and its clones."""
    doc = state_document(game, strict=False)
    doc.pop("dice")
    doc["n_events"] = len(game.events)
    doc["n_history"] = len(game.history)
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


class DustupObserver:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    The default observation (no perfect recall): the tensor of :class:`dustup_env.observation.Observer` for the
    player's side (``dict`` has its named pieces) and that side's view as JSON text.  With perfect recall: the
    information-state string only (the side's filtered event log and its own actions; no tensor)."""

    def __init__(self, iig_obs_type, pieces=None):
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("python_dustup observes one side's view (public information and that side's private "
                             "information): other observation types are not supported")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        if self.perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            layout = LAYOUT if pieces is None else Layout(pieces)
            # one per side: their caches follow each side's view
            self._observers = [Observer(layout.pieces), Observer(layout.pieces)]
            self.tensor = np.zeros(layout.size, np.float32)
            self.dict = {p.name: self.tensor[layout.offset[p.name]:layout.offset[p.name] + p.size()].reshape(p.shape)
                         for p in layout.pieces}

    def set_from(self, state: DustupState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = self._observers[player].set_from(state.dustup_game(), player)

    def string_from(self, state: DustupState, player: int) -> str:
        if self.perfect_recall:
            return self.info_state(state, player)
        return self._observers[player].string_from(state.dustup_game(), player)

    @staticmethod
    def info_state(state: DustupState, player: int) -> str:
        """The side's perfect-recall information: what it may read of the event log, and its own actions."""
        g = state.dustup_game()
        own = [a.action for a in state.full_history() if a.player == player]
        return json.dumps({"side": player, "log": g.event_log(player), "own_actions": own},
                          sort_keys=True, separators=(",", ":"), default=list)


pyspiel.register_game(_GAME_TYPE, DustupGame)

__all__ = ["DustupGame", "DustupState", "DustupObserver", "hidden_units_possible", "position_digest"]
