"""Dustup AI: the Dustup squad-level wargame as a rules engine and Gymnasium environment."""
from .rules import Game  # noqa: F401
from .version import __version__  # noqa: F401

try:  # register the Gymnasium environment when gymnasium is installed
    from gymnasium.envs.registration import register as _register

    _register(id="Dustup-v0", entry_point="dustup_env.env:DustupEnv")
except ImportError:  # pragma: no cover - the rules engine works without gymnasium
    pass

