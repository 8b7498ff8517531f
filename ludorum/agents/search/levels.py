"""The named levels of the search bots (``easy`` … ``expert``), read from ``levels.toml``."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .settings import SearchSettings

LEVELS = ("easy", "medium", "hard", "expert")
"""From weakest to strongest."""


@functools.cache
def _table() -> Mapping[str, Any]:
    with (Path(__file__).parent / "levels.toml").open("rb") as f:
        return tomllib.load(f)


def level_settings(level: str, game: str | None = None, **overrides: Any) -> SearchSettings:
    """The settings of ``level``, with ``game``'s overrides from the table, then ``overrides``."""
    if level not in LEVELS:
        raise ValueError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
    entry = dict(_table()[level])
    per_game = entry.pop(game, None) if game else None
    for name in [k for k, v in entry.items() if isinstance(v, dict)]:
        del entry[name]  # other games' overrides
    return SearchSettings(**{**entry, **(per_game or {}), **overrides})
