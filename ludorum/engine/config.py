"""A game's configuration: player count, variants, content set and options."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ludorum.engine.actions import Scalar
from ludorum.engine.errors import ConfigError
from ludorum.engine.pickling import by_fields

MAX_NAME = 64
"""The longest variant, content or option name."""
MAX_ENTRIES = 32
"""The most variants, and the most options, one config may name."""
MAX_OPTION_TEXT = 2000
"""The longest option text (a Signum deck spelled card by card is about 1,200 characters)."""
MAX_OPTION_NUMBER = 2**31 - 1
"""The largest magnitude of a number option.  A game reads options as setup choices (a round limit,
a deck); a config from a stranger (the server, a record) must not make it count, allocate or expand
anything large before the game has validated it."""


@by_fields
@dataclasses.dataclass(frozen=True, slots=True)
class Config:
    """What a game is set up with.  Build it with ``Game.config(...)``, which validates it.

    ``variants`` is sorted and unique; ``options`` is a sorted tuple of ``(name, value)`` pairs for
    game-specific choices (a Signum deck, say) so that the config stays hashable and JSON-stable.
    """

    players: int
    variants: tuple[str, ...] = ()
    content: str = "base"
    options: tuple[tuple[str, Scalar], ...] = ()

    def has(self, variant: str) -> bool:
        """Whether ``variant`` is in play."""
        return variant in self.variants

    def option(self, name: str, default: Scalar = None) -> Scalar:
        """The value of option ``name``, or ``default``."""
        for key, value in self.options:
            if key == name:
                return value
        return default

    def to_json(self) -> dict[str, Any]:
        """The JSON form used in records and the API."""
        return {
            "players": self.players,
            "variants": list(self.variants),
            "content": self.content,
            "options": dict(self.options),
        }

    @staticmethod
    def from_json(data: Any) -> Config:
        """Decode :meth:`to_json` output (not yet validated against a game)."""
        if not isinstance(data, dict):
            raise ConfigError("a config is an object with 'players', 'variants', 'content', 'options'")
        extra = set(data) - {"players", "variants", "content", "options"}
        if extra:
            raise ConfigError(f"unknown config fields: {sorted(extra)}")
        players = data.get("players")
        variants = data.get("variants", [])
        content = data.get("content", "base")
        options = data.get("options", {})
        if type(players) is not int:
            raise ConfigError(f"config 'players' is a whole number, not {players!r:.40}")
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise ConfigError("config 'variants' is a list of variant names")
        if not isinstance(content, str):
            raise ConfigError("config 'content' is the name of a content set")
        if not isinstance(options, dict) or not all(
            v is None or isinstance(v, (bool, int, str)) for v in options.values()
        ):
            raise ConfigError("config 'options' maps names to numbers, strings or booleans")
        check_bounds(variants, content, options)
        return Config(players, tuple(sorted(set(variants))), content, tuple(sorted(options.items())))


def check_bounds(variants: Sequence[str], content: str, options: Mapping[Any, Any]) -> None:
    """Refuse a config whose names, counts or option values exceed the generic bounds (before a game's own
    checks read, or quote back, any of them)."""
    if len(variants) > MAX_ENTRIES or len(options) > MAX_ENTRIES:
        raise ConfigError(f"a config names at most {MAX_ENTRIES} variants and at most {MAX_ENTRIES} options")
    for name in [*variants, content, *options]:
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
            raise ConfigError(f"names in a config have 1 to at most {MAX_NAME} characters, not {name!r:.40}")
    for name, value in options.items():
        if isinstance(value, str) and len(value) > MAX_OPTION_TEXT:
            raise ConfigError(f"option {name!r} holds at most {MAX_OPTION_TEXT} characters, not {len(value)}")
        if type(value) is int and abs(value) > MAX_OPTION_NUMBER:
            raise ConfigError(f"option {name!r} is a number from {-MAX_OPTION_NUMBER} to {MAX_OPTION_NUMBER}")
