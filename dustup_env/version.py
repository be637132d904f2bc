"""The engine's version (named in every save and snapshot)."""
__version__ = "0.1.0"
