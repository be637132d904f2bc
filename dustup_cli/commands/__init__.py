"""Subcommands of ``dustup`` that live in their own modules.

Each module here exposes ``register(subparsers)``: it adds its parser (with ``--help`` text and
``set_defaults(func=handler)``; the handler takes the parsed arguments and returns the exit code).
:data:`MODULES` lists them in the order ``dustup --help`` shows them.
"""
from __future__ import annotations

import importlib

MODULES: tuple[str, ...] = ("engine", "serve", "design", "build", "benchmark")


def register_all(subparsers) -> None:
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}").register(subparsers)
