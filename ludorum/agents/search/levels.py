"""The named levels of the search bots (``easy`` … ``expert``), read from ``levels.toml``, and their
*variants* for experiments: ``easy/bias=1/iterations=100`` is ``easy`` with those settings changed."""

from __future__ import annotations

import dataclasses
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


VARIANT_SEP = "/"
"""Between a level and each changed setting in a variant's name (``easy/bias=1``)."""


def base_level(kind: str) -> str:
    """The level a variant changes (``easy`` for ``easy/bias=1``); any other kind is returned as it is."""
    return kind.split(VARIANT_SEP, 1)[0]


def variant_settings(kind: str, game: str | None = None, **overrides: Any) -> SearchSettings:
    """The settings of a level or of a variant of it (``easy/bias=1/depth=none``), for ``game``, then
    ``overrides``.  An unknown level or setting, or a value of the wrong type, is a clear error."""
    level, *changes = kind.split(VARIANT_SEP)
    fields = {f.name: str(f.type) for f in dataclasses.fields(SearchSettings)}
    changed: dict[str, Any] = {}
    for change in changes:
        name, eq, text = change.partition("=")
        if not eq or name not in fields:
            raise ValueError(
                f"{kind!r}: {change!r} is not setting=value; the settings are {', '.join(fields)}"
            )
        changed[name] = _value(kind, name, fields[name], text)
    return level_settings(level, game, **{**changed, **overrides})


def _value(kind: str, name: str, kind_of: str, text: str) -> Any:
    if text.lower() == "none" and "None" in kind_of:
        return None
    try:
        if kind_of.startswith("bool"):
            return {"true": True, "false": False}[text.lower()]
        if kind_of.startswith("int"):
            return int(text)
        if kind_of.startswith("float"):
            return float(text)
    except (KeyError, ValueError):
        raise ValueError(f"{kind!r}: {name} must be {kind_of}, not {text!r}") from None
    return text
