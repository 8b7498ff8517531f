"""Medieval Realms (2–5 players): secret leader placement, majorities and auctions over seven rounds.

The rules follow the rulebook chapter by chapter: :mod:`.setup`, :mod:`.placement` (steps 1–5 of the
round), :mod:`.actions` (step 6), :mod:`.cards` (Card Description), :mod:`.ending` (Ending the Round and
End of the Game).  Content is data in ``data/*.toml`` (:mod:`.content`).
"""

from .game import MedievalRealms

GAME = MedievalRealms()

__all__ = ["GAME", "MedievalRealms"]
