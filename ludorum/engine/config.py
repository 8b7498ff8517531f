"""A game's configuration: player count, variants, content set and options."""

from __future__ import annotations

import dataclasses
from typing import Any

from ludorum.engine.actions import Scalar
from ludorum.engine.errors import ConfigError


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
        return Config(players, tuple(sorted(set(variants))), content, tuple(sorted(options.items())))
