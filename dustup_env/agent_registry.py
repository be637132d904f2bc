"""The agent interface and the registry that resolves agent names (``"hard"``, ``"ppo"``, ``"policy:PATH"``).

An agent is given the game and its pending decision and returns one of ``decision.options``
(:class:`Agent`); it must decide only from what its side may know (``game.view(side)``: the built-in
agents read the game through ``agents.knowledge.Knowledge``).  Agents are seeded and deterministic.

The environment layer (``Dustup-v0``'s ``opponent="hard"``, the tools) resolves names here, without
importing any agent package: agents *join* the registry

- in the same process, with :func:`register` (or by adding to :data:`AGENTS`);
- from any installed distribution, through the entry-point group ``dustup.agents`` (``pyproject.toml``:
  ``[project.entry-points."dustup.agents"] hard = "agents.hard:HardAgent"``).  An entry point names a
  factory called as ``factory(seed=seed)``; a factory with an attribute ``agent_argument`` (e.g.
  ``"PATH"``) takes an argument: the name ``policy:runs/x/final.zip`` calls ``factory("runs/x/final.zip",
  seed=seed)``; with ``agent_argument_optional = True`` as well, the bare name calls ``factory(seed=seed)``
  (``mcts`` and ``mcts:time=0.25``).  Entry points are loaded when their name is asked for (or all of them by
  :func:`agent_names`).

``random`` (uniform among the legal options) is built in.
"""
from __future__ import annotations

import random
from importlib import metadata

GROUP = "dustup.agents"


class Agent:
    """Base agent: ``choose(game, decision)`` returns one of ``decision.options``; ``reset(seed)`` at each game."""

    name = "agent"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        """Called at the start of each game."""
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)

    def choose(self, game, decision):  # pragma: no cover - interface
        raise NotImplementedError

    def unfamiliar(self, game) -> str | None:
        """One line saying what in ``game`` this agent was not trained or written for (it will play it badly), or
        None.  Front-ends show it before the game (:func:`unfamiliar`)."""
        return None


class RandomAgent(Agent):
    """Uniformly random among the legal options (reads nothing but the options)."""

    name = "random"

    def choose(self, game, decision):
        opts = decision.options
        return opts[self.rng.randrange(len(opts))]


# name -> factory (a class or a callable ``factory(seed=...)``), in-process registrations and loaded entry points
AGENTS: dict = {"random": RandomAgent}
_FAILED: dict = {}  # entry-point name -> the error its loading raised


def register(name: str, factory) -> None:
    """Make ``name`` resolve to ``factory`` (called as ``factory(seed=seed)``) in this process."""
    if not isinstance(name, str) or not name or ":" in name:
        raise ValueError(f"an agent name is a non-empty string without ':', not {name!r}")
    if not callable(factory):
        raise TypeError(f"the factory of agent {name!r} is not callable")
    AGENTS[name] = factory


def _entry_points() -> dict:
    try:
        eps = metadata.entry_points(group=GROUP)
    except Exception:  # noqa: BLE001 - broken metadata of some unrelated distribution
        return {}
    return {ep.name: ep for ep in eps}


def agent_names() -> list[str]:
    """Every name that resolves (built-in, registered, and the loadable ``dustup.agents`` entry points), an
    argument-taking agent as ``name:ARG`` (e.g. ``policy:PATH``)."""
    out = []
    for n in sorted(set(AGENTS) | set(_entry_points())):
        try:
            f = _factory(n)
        except ValueError:
            continue  # a broken plug-in: make_agent names the problem when it is asked for
        arg = getattr(f, "agent_argument", None)
        out.append(f"{n}:{arg}" if arg else n)
    return out


def _factory(name: str):
    f = AGENTS.get(name)
    if f is not None:
        return f
    ep = _entry_points().get(name)
    if ep is None:
        return None
    try:
        f = ep.load()
    except Exception as e:  # noqa: BLE001 - a broken plug-in must not take the registry down
        _FAILED[name] = e
        raise ValueError(f"agent {name!r} (entry point {ep.value!r} of group {GROUP!r}) cannot be loaded: "
                         f"{type(e).__name__}: {e}") from e
    AGENTS[name] = f
    return f


def unfamiliar(agent, game) -> str | None:
    """``agent.unfamiliar(game)`` for any agent (one that does not say: None; a failure to say: None)."""
    f = getattr(agent, "unfamiliar", None)
    if f is None:
        return None
    try:
        note = f(game)
    except Exception:  # noqa: BLE001 - a note must never stop a game
        return None
    return note if isinstance(note, str) and note else None


def make_agent(spec: str, seed: int = 0) -> Agent:
    """The agent named ``spec`` (``"hard"``, ``"ppo"``, ``"policy:PATH"``, ...), seeded with ``seed``.

    Raises ``ValueError`` naming the known agents when ``spec`` resolves to nothing."""
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"an agent is named by a non-empty string, not {spec!r}")
    name, sep, arg = spec.partition(":")
    f = _factory(name)
    if f is None:
        known = ", ".join(agent_names())
        hint = "" if _entry_points() else (f" (no {GROUP!r} entry points are installed: reinstall the package, "
                                          "e.g. pip install -e ., or import the agents module first)")
        raise ValueError(f"unknown agent {spec!r}: known agents are {known}{hint}")
    takes = getattr(f, "agent_argument", None)
    if sep:
        if not takes:
            raise ValueError(f"agent {name!r} takes no argument (got {spec!r})")
        if not arg:
            raise ValueError(f"agent {name!r} is named {name}:{takes}, not {spec!r}")
        return f(arg, seed=seed)
    if takes and not getattr(f, "agent_argument_optional", False):
        raise ValueError(f"agent {name!r} needs an argument: name it {name}:{takes}")
    return f(seed=seed)
