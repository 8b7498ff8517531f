"""Legends of Signum (Легенды Сигнума): heroes, battle decks, three-faced dice and a City on a 60×60 cm
Battlefield.  Chapters 8–11 follow the rulebook; chapters 1–7 are rebuilt in docs/signum-rules.md."""

from ludorum.games.signum.game import SignumGame

GAME = SignumGame()

__all__ = ["GAME", "SignumGame"]
