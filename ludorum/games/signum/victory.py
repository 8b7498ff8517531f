"""Chapters 8 and 9: the conditions of victory, ties and the turn limit.

Rulebook › 8 Victory conditions: a hero whose wound markers equal its health is killed and the player
whose hero survived wins; if both heroes kill each other in melee, the player with more prosperity wins;
a player with 51 prosperity wins.  Rulebook › 9: with both heroes dead and equal prosperity, the larger
total prosperity value of the buildings in the City wins, then the player who destroyed more enemy
characters during the game.
"""

from __future__ import annotations

from typing import Any

from ludorum.engine.i18n import T, join
from ludorum.games.signum import creatures as cr
from ludorum.games.signum import effects
from ludorum.games.signum.state import SignumState, player

PROSPERITY_TO_WIN = effects.PROSPERITY_TO_WIN
"""Rulebook › 8: "accumulating fifty-one units of prosperity" (noted the moment it happens by
:func:`effects.gain`)."""

TURN_LIMIT = 120
"""Designed backstop (§ 9): after 60 turns each (120 in the two-player game) the game ends and the
tie-breaks of chapter 9 decide (prosperity, then the value of the City, then enemy characters
destroyed; equal → a draw).  The over-long game's doubling makes real games end long before."""

DRAW = -2


def city_value(s: SignumState, seat: int) -> int:
    """The total prosperity value (cost) of the buildings in a seat's City (Rulebook › 9)."""
    return sum(cr.CARDS[b].cost for b in s.city[seat])


def _key(s: SignumState, seat: int) -> tuple[int, int, int]:
    return (s.prosperity[seat], city_value(s, seat), s.kills[seat])


def tie_break(s: SignumState, seats: list[int] | None = None) -> int:
    """The winner among ``seats`` (all by default) by prosperity, then City value, then enemy characters
    destroyed (Rulebook › 9); ``DRAW`` if the best are equal on all three."""
    seats = list(range(s.players)) if seats is None else seats
    best = max(_key(s, p) for p in seats)
    top = [p for p in seats if _key(s, p) == best]
    return top[0] if len(top) == 1 else DRAW


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
    s.say(T("Game over: {reason}", reason=reason))


def _sides(s: SignumState, seats: list[int]) -> set[int]:
    """The sides (seats, or teams in the 2-against-2 game) the seats belong to."""
    return {p % 2 if s.config.has("teams") else p for p in seats}


_heroes_last: tuple[Any, Any, frozenset[int]] = (None, None, frozenset())


def _heroes_on_battlefield(s: SignumState) -> frozenset[int]:
    """The seats whose hero stands on the Battlefield (``SignumState.hero_of`` is not ``None``), found in
    one pass and remembered for the last Battlefield: every step checks the end at least once."""
    global _heroes_last
    last = _heroes_last
    if last[0] is not s.models or last[1] is not s.heroes:
        heroes = s.heroes
        standing = frozenset([m.owner for m in s.models if m.card == heroes[m.owner]])
        last = _heroes_last = (s.models, heroes, standing)  # rebound whole: see signum.game._cache
    return last[2]


_undecided_last: tuple[Any, Any, Any, bool] = (None, None, None, False)


def _undecided(s: SignumState) -> bool:
    """Whether every seat still in the game has its hero on the Battlefield and less than 51 prosperity:
    :func:`check_end`'s answer is then "no" (remembered for the last Battlefield, seats out and
    prosperity: every step asks, and most steps change none of them)."""
    global _undecided_last
    last = _undecided_last
    if last[0] is not s.models or last[1] is not s.out or last[2] is not s.prosperity:
        heroes = _heroes_on_battlefield(s)
        out, prosperity = s.out, s.prosperity
        undecided = True
        for p in range(s.config.players):
            if not out[p] and (p not in heroes or prosperity[p] >= PROSPERITY_TO_WIN):
                undecided = False
                break
        # rebound whole: see signum.game._cache
        last = _undecided_last = (s.models, out, prosperity, undecided)
    return last[3]


def check_end(s: SignumState) -> bool:
    """End the game if a victory condition holds (after all triggered effects resolved); say if it did.

    Rulebook › 8, in this order: a player who reached 51 prosperity during the step has won at that moment
    — even if a hero fell in the same step, for the game ends only once the death's effects have resolved,
    and the rulebook waits for them because they "may raise the prosperity of one of the players"
    (docs/signum.md, "Audit of issue 14"); otherwise a fallen hero decides.

    With 3–4 players (designed, § 10): a player whose hero falls leaves the game with its creatures (their
    Last Words fire, which may fell more heroes: the check repeats); the last side standing wins; a side
    whose heroes all fall at once with no one left standing is decided by the tie-breaks of chapter 9 among
    the fallen.
    """
    if s.phase == "over":
        return True
    if not s.reached and _undecided(s):
        return False
    n = s.players
    while True:
        if s.reached:
            _prosperity_win(s, list(s.reached))
            return True
        standing_heroes = _heroes_on_battlefield(s)
        fallen = [p for p in range(n) if not s.out[p] and p not in standing_heroes]
        if not fallen:
            break
        standing = [p for p in range(n) if not s.out[p] and p not in fallen]
        sides = _sides(s, standing)
        if not sides:
            w = tie_break(s, fallen)
            what = T("both heroes fell") if n == 2 else T("the last heroes fell together")
            finish(s, w, T("{what}; {tie}", what=what, tie=_tie_reason(s, w, fallen)))
            return True
        if len(sides) == 1:
            w = standing[0]
            who = join(", ", (player(p) for p in fallen))
            finish(s, w, T("the hero of {who} was killed", who=who))
            return True
        for p in fallen:
            effects.leave(s, p)
    # A state built with 51 or more (the scenario builder) is judged here; in play ``reached`` is set.
    rich = [p for p in range(n) if not s.out[p] and s.prosperity[p] >= PROSPERITY_TO_WIN]
    if rich:
        _prosperity_win(s, rich)
        return True
    return False


def _prosperity_win(s: SignumState, rich: list[int]) -> None:
    if len(rich) > 1:
        w = tie_break(s, rich)
        finish(
            s,
            w,
            T("{n} players reached 51 prosperity at once; {tie}", n=len(rich), tie=_tie_reason(s, w, rich)),
        )
    else:
        finish(s, rich[0], T("{seat} reached {n} prosperity", seat=player(rich[0]), n=PROSPERITY_TO_WIN))


def _tie_reason(s: SignumState, w: int, seats: list[int]) -> str:
    if w == DRAW:
        return T("equal prosperity, City value and characters destroyed: a draw")
    keys = sorted((_key(s, p) for p in seats), reverse=True)
    first, second = keys[0], keys[1]
    if first[0] != second[0]:
        return T("{seat} has more prosperity", seat=player(w))
    if first[1] != second[1]:
        return T("{seat}'s City is worth more", seat=player(w))
    return T("{seat} destroyed more enemy characters", seat=player(w))


def turn_limit(s: SignumState) -> None:
    """The designed turn limit: the tie-breaks of chapter 9 decide among the players still in."""
    alive = [p for p in range(s.players) if not s.out[p]]
    w = tie_break(s, alive)
    finish(s, w, T("turn limit {n} reached; {tie}", n=limit(s.players), tie=_tie_reason(s, w, alive)))


def limit(players: int) -> int:
    """The designed turn limit for a player count: 60 turns each."""
    return TURN_LIMIT * players // 2
