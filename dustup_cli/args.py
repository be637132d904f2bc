"""Argument types shared by the command line's parsers (``cli.py`` and the subcommands of ``commands/``)."""
from __future__ import annotations

import argparse


def int_at_least(lo: int):
    """An ``argparse`` type: a whole number of at least ``lo`` (one-line errors)."""
    def conv(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if v < lo:
            raise argparse.ArgumentTypeError(f"must be at least {lo}, not {v}")
        return v

    conv.__name__ = f"whole number >= {lo}"
    return conv


POSITIVE = int_at_least(1)
NON_NEGATIVE = int_at_least(0)
