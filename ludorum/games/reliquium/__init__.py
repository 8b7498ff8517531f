"""Reliquium (2–4 players): lead a faction of Sigillum to nine castles.

Rules in modules named for the rulebook's chapters (:mod:`.peace`, :mod:`.war`, :mod:`.creatures`,
:mod:`.setup`), content in ``data/*.toml``; :func:`map_geometry` gives renderers the designed map.
"""

from __future__ import annotations

from .content import map_geometry
from .game import Reliquium

GAME = Reliquium()
"""The registered game."""

__all__ = ["GAME", "Reliquium", "map_geometry"]
