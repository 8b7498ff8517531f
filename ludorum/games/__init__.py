"""The product's games, registered by name.  Every layer above finds games here and nowhere else."""

from __future__ import annotations

import importlib

from ludorum.engine import Registry

GAME_PACKAGES = ("reliquium", "medieval_realms", "signum")
"""Each package exposes ``GAME``, its ``Game`` instance."""

_registry: Registry | None = None


def registry() -> Registry:
    """The product registry, filled on first use with every game package present."""
    global _registry
    if _registry is None:
        reg = Registry()
        for package in GAME_PACKAGES:
            try:
                module = importlib.import_module(f"ludorum.games.{package}")
            except ModuleNotFoundError as e:
                if e.name != f"ludorum.games.{package}":
                    raise
                continue
            # A folder without __init__.py imports as an empty namespace package: not a game (yet).
            if hasattr(module, "GAME"):
                reg.register(module.GAME)
        _registry = reg
    return _registry
