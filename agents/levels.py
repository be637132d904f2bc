"""Strength levels for front-ends: ``level:1`` (``random``, the weakest) to ``level:8`` (``hard``, the strongest).

Each level is an agent named elsewhere in the registry (:data:`LEVELS`: ``(n, spec, declared_elo)``) with a
declared rating on the ladder's scale: the Elo of ``evaluation.ratings`` (a Bradley-Terry fit with side and draw
terms and a prior of virtual draws) with ``random`` = 0, as ``dustup tournament`` reports it.  The declared
ratings are one fit of two round robins of the eight levels on ``default`` (docs/agents.md, "Strength levels",
gives the commands, the games, the intervals and the reproduction).  Below ``easy`` the levels are
``noisy:easy,p=P`` (:class:`NoisyAgent`): ``easy``'s choice, else with probability P a random legal option, the
way chess engines make their weaker skill levels.  The top level is ``hard``, not the search: the search
(``mcts``) is not yet measured stronger than its prior, ``hard`` (docs/agents.md, "The search agent"), so it
would not be a stronger level.  Every level is a deterministic agent: the same choice on any machine under any
load, so a level is one agent everywhere and its rating can be reproduced.  A front-end's ``strength`` setting
names a level (:func:`level_agent_spec`).

``level:N`` resolves everywhere agents are named (CLI, protocol, HTTP, tournaments, ``Dustup-v0``'s opponent)
to the level's agent itself: ``level:5`` plays exactly as ``easy`` does.
"""
from __future__ import annotations

from .base import Agent, make_agent, register

# (level, agent spec, declared Elo with random = 0): docs/agents.md "Strength levels" (the measuring round robins)
LEVELS: tuple[tuple[int, str, int], ...] = (
    (1, "random", 0),
    (2, "noisy:easy,p=0.7", 236),
    (3, "noisy:easy,p=0.45", 525),
    (4, "noisy:easy,p=0.2", 797),
    (5, "easy", 1029),
    (6, "medium", 1290),
    (7, "defensive", 1511),
    (8, "hard", 1613),
)
ARGUMENT = "N"


def _level(n) -> tuple[int, str, int]:
    text = str(n).strip()
    try:
        k = int(text)
    except ValueError:
        k = None
    if k is None or str(k) != text.lstrip("+") or not 1 <= k <= len(LEVELS):
        raise ValueError(f"a strength level is a whole number from 1 to {len(LEVELS)}, not {str(n)!r} "
                         f"(level:1 is {LEVELS[0][1]}, level:{len(LEVELS)} is {LEVELS[-1][1]})")
    return LEVELS[k - 1]


def level_agent_spec(n: int) -> str:
    """The agent spec of strength level ``n`` (1 to 8), e.g. ``level_agent_spec(5) == "hard"``; a one-line
    ``ValueError`` for anything else."""
    if isinstance(n, bool):
        raise ValueError(f"a strength level is a whole number from 1 to {len(LEVELS)}, not {n!r}")
    return _level(n)[1]


def declared_elo(n: int) -> int:
    """The declared rating of level ``n`` (Elo, ``random`` = 0)."""
    return _level(n)[2]


def level_agent(n: str, seed: int = 0):
    """``level:N``: the agent of level N (registered as ``level``)."""
    return make_agent(_level(n)[1], seed=seed)


level_agent.agent_argument = ARGUMENT

register("level", level_agent)


# ---------------------------------------------------------------------------------------------- noisy
NOISY_ARGUMENT = "AGENT,p=P"


class NoisyAgent(Agent):
    """``noisy:AGENT,p=P``: ``AGENT``'s choice, except that with probability ``P`` (drawn from this agent's own
    generator at every decision with more than one option) it plays a uniformly random legal option instead --
    the way chess engines weaken their skill levels with deliberate blunders.  ``AGENT`` is asked at every
    decision all the same (its per-game plans stay those of the game being played), and decides, as ever, only
    from what its side may know."""

    name = "noisy"

    def __init__(self, base: str, p: float, seed: int = 0):
        super().__init__(seed)
        self.base_spec, self.p = base, p
        self.base = make_agent(base, seed=seed)
        self.name = f"noisy:{base},p={p:g}"

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.base.reset(seed)

    def unfamiliar(self, game) -> str | None:
        return self.base.unfamiliar(game)

    def choose(self, game, decision):
        opt = self.base.choose(game, decision)
        opts = decision.options
        if len(opts) > 1 and self.rng.random() < self.p:
            return opts[self.rng.randrange(len(opts))]
        return opt


def noisy_agent(arg: str, seed: int = 0) -> NoisyAgent:
    """``noisy:AGENT,p=P`` (registered as ``noisy``): a one-line ``ValueError`` for a malformed name."""
    base, sep, p_text = str(arg).rpartition(",p=")
    if not sep or not base:
        raise ValueError(f"noisy is named noisy:{NOISY_ARGUMENT} (e.g. noisy:easy,p=0.5), not noisy:{arg}")
    try:
        p = float(p_text)
    except ValueError:
        p = None
    if p is None or not 0.0 <= p <= 1.0:
        raise ValueError(f"noisy: p is a probability from 0 to 1, not {p_text!r}")
    if base.split(":", 1)[0] == "noisy":
        raise ValueError("noisy: the agent it weakens is not itself noisy (give one p)")
    return NoisyAgent(base, p, seed=seed)


noisy_agent.agent_argument = NOISY_ARGUMENT

register("noisy", noisy_agent)
