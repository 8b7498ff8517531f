"""The game registry: a name → ``Game`` map that every layer looks games up in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ludorum.engine.errors import ConfigError
from ludorum.engine.game import Game


class Registry:
    """A set of games by name.  The product's registry is filled by ``ludorum.games``."""

    def __init__(self) -> None:
        self._games: dict[str, Game[Any]] = {}

    def register(self, game: Game[Any]) -> Game[Any]:
        """Add ``game`` under its name; registering a second game under one name is an error."""
        if game.name in self._games and self._games[game.name] is not game:
            raise ValueError(f"a game named {game.name!r} is registered already")
        self._games[game.name] = game
        return game

    def get(self, name: str) -> Game[Any]:
        """The game called ``name``; an unknown name is a clear error listing the known ones."""
        try:
            return self._games[name]
        except KeyError:
            known = ", ".join(sorted(self._games)) or "none"
            raise ConfigError(f"no game called {name!r}; the games are: {known}") from None

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._games)

    def __iter__(self) -> Iterator[Game[Any]]:
        return iter(self._games[n] for n in self.names())

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def __len__(self) -> int:
        return len(self._games)
