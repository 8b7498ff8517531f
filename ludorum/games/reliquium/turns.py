"""Whose turn it is in the peace phase, and when it ends (Rulebook › Peace phase: "Move the action
marker to the nearest free division … Pass the turn to the next player clockwise … When all the players
have moved their action markers to the start of the ownership tracks, the war phase begins").
"""

from __future__ import annotations

from .rules import first_free, next_free, tset
from .state import NO, ReliquiumState
from .war import start_war


def end_turn(s: ReliquiumState, f: int) -> None:
    """Move ``f``'s marker right (wrapping to the start when none is free) and pass the turn on."""
    s.refused = False
    nxt = next_free(s.track[f], s.marker[f])
    if nxt == NO:  # "move the marker to the start of the track, onto the first free division"
        s.marker = tset(s.marker, f, first_free(s.track[f]))
        s.done = tset(s.done, f, True)
    else:
        s.marker = tset(s.marker, f, nxt)
    order = s.factions
    i = order.index(f)
    for k in range(1, len(order) + 1):
        g = order[(i + k) % len(order)]
        if not s.done[g]:
            s.turn = g
            return
    start_war(s)
