"""Chapters 8 and 9: the conditions of victory, ties and the turn limit.

Rulebook › 8 Victory conditions: a hero whose wound markers equal its health is killed and the player
whose hero survived wins; if both heroes kill each other in melee, the player with more prosperity wins;
a player with 51 prosperity wins.  Rulebook › 9: with both heroes dead and equal prosperity, the larger
total prosperity value of the buildings in the City wins, then the player who destroyed more enemy
characters during the game.
"""

from __future__ import annotations

from ludorum.games.signum import creatures as cr
from ludorum.games.signum.state import SignumState

PROSPERITY_TO_WIN = 51
"""Rulebook › 8: "accumulating fifty-one units of prosperity"."""

TURN_LIMIT = 120
"""Designed backstop (§ 9): after 120 turns (60 each) the game ends and the tie-breaks of chapter 9
decide (prosperity, then the value of the City, then enemy characters destroyed; equal → a draw).  The
over-long game's doubling makes real games end long before."""

DRAW = -2


def city_value(s: SignumState, seat: int) -> int:
    """The total prosperity value (cost) of the buildings in a seat's City (Rulebook › 9)."""
    return sum(cr.CARDS[b].cost for b in s.city[seat])


def tie_break(s: SignumState) -> int:
    """The winner by prosperity, then City value, then characters destroyed; ``DRAW`` if all equal."""
    for a, b in (
        (s.prosperity[0], s.prosperity[1]),
        (city_value(s, 0), city_value(s, 1)),
        (s.kills[0], s.kills[1]),
    ):
        if a != b:
            return 0 if a > b else 1
    return DRAW


def finish(s: SignumState, winner: int, reason: str) -> None:
    """End the game."""
    s.phase = "over"
    s.winner = winner
    s.reason = reason
    s.pending = ()
    s.rolls = ()
    s.rolled = ()
    s.acting = -1
    s.coins_due = ()
    s.say("Game over: " + reason)


def check_end(s: SignumState) -> bool:
    """End the game if a victory condition holds (after all triggered effects resolved); say if it did."""
    if s.phase == "over":
        return True
    dead = [seat for seat in (0, 1) if s.hero_of(seat) is None]
    if len(dead) == 2:
        w = tie_break(s)
        finish(s, w, "both heroes fell; " + _tie_reason(s, w))
        return True
    if dead:
        w = 1 - dead[0]
        finish(s, w, f"the hero of P{dead[0] + 1} was killed")
        return True
    rich = [seat for seat in (0, 1) if s.prosperity[seat] >= PROSPERITY_TO_WIN]
    if rich:
        if len(rich) == 2:
            w = tie_break(s)
            finish(s, w, "both reached 51 prosperity; " + _tie_reason(s, w))
        else:
            finish(s, rich[0], f"P{rich[0] + 1} reached {PROSPERITY_TO_WIN} prosperity")
        return True
    return False


def _tie_reason(s: SignumState, w: int) -> str:
    if w == DRAW:
        return "equal prosperity, City value and characters destroyed: a draw"
    if s.prosperity[0] != s.prosperity[1]:
        return f"P{w + 1} has more prosperity"
    if city_value(s, 0) != city_value(s, 1):
        return f"P{w + 1}'s City is worth more"
    return f"P{w + 1} destroyed more enemy characters"


def turn_limit(s: SignumState) -> None:
    """The designed turn limit: the tie-breaks of chapter 9 decide."""
    w = tie_break(s)
    finish(s, w, f"turn limit {TURN_LIMIT} reached; " + _tie_reason(s, w))
