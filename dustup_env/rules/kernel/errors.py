"""Typed errors raised by the rules engine.  Every one names the problem."""


class DustupError(Exception):
    """Base class of every error the engine raises on bad input."""


class IllegalOptionError(DustupError):
    """An option that is not among the pending decision's legal options was applied."""


class GameOverError(DustupError):
    """A decision was applied after the game ended."""


class ScenarioError(DustupError):
    """A scenario or data file is malformed (fails its schema or a consistency check)."""


class DiceScriptError(DustupError):
    """Scripted (forced) dice ran out or did not match the die the rules rolled."""


class SaveFormatError(DustupError):
    """A saved game could not be loaded."""


class InvalidArgumentError(DustupError, ValueError):
    """An argument of the engine's API has the wrong type or value (a seed, a side, ...)."""
