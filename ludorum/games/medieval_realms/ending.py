"""The Round, step 7 — Ending the Round; and End of the Game: end-of-game effects, stored resources,
the Great Person table and the four tie-breaks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .content import CARDS
from .placement import buffers
from .state import EV_DISCARD, FUTURE, OVER, PANEL, PLACE, ROUNDS, RealmsState, log

DISCARDED_SQUARES = {5: 1, 4: 2, 3: 3, 2: 4}
"""Rulebook › Ending the Round: squares 1 (5 players), 1–2 (4), 1–3 (3), 1–4 (2) are discarded."""

GREAT_PERSON_TABLE = (0, 1, 3, 6, 9, 12)
"""Rulebook › End of the Game: 1, 3, 6, 9, 12 VP for 1–5 Great Person cards (designed: +3 per card beyond)."""


def end_round(s: RealmsState) -> None:
    """Discard, slide, refill from the Future Events Panel, then from the deck; next round or the end."""
    n = s.config.players
    if s.round >= ROUNDS:
        s.phase = OVER  # Rulebook › End of the Game: the game finishes at the end of the 7th Round
        return
    k = DISCARDED_SQUARES[n]
    gone = tuple(c for c in s.panel[:k] if c >= 0)
    if gone:
        s.discards = (*s.discards, *gone)
        for c in gone:
            log(s, EV_DISCARD, -1, c, 0)
    queue = [c for c in s.panel[k:] if c >= 0] + [c for c in s.future if c >= 0]
    deck = list(s.deck)
    panel = queue[:PANEL]
    future = queue[PANEL:]
    take = min(PANEL - len(panel), len(deck))
    panel += deck[:take]
    deck = deck[take:]
    take = min(FUTURE - len(future), len(deck))
    future += deck[:take]
    deck = deck[take:]
    s.panel = tuple(panel) + (-1,) * (PANEL - len(panel))
    s.future = tuple(future) + (-1,) * (FUTURE - len(future))
    s.deck = tuple(deck)
    s.round += 1
    s.phase = PLACE
    s.revealed = ((),) * n
    s.controlled = ((),) * n
    s.passed = (False,) * n
    s.turn = 0


def great_person_points(count: int) -> int:
    """The Great Person table, continued by 3 VP per card beyond the fifth."""
    if count < len(GREAT_PERSON_TABLE):
        return GREAT_PERSON_TABLE[count]
    return GREAT_PERSON_TABLE[-1] + 3 * (count - len(GREAT_PERSON_TABLE) + 1)


def island_met(s: RealmsState, seat: int, card_id: int) -> bool:
    """Whether ``seat`` fulfils an Island's (designed) end-of-game condition."""
    card = CARDS[card_id]
    cond, amount = card.condition, card.amount
    played = s.in_play[seat]
    if cond == "admirals":
        return s.admirals[seat] >= amount
    if cond == "generals":
        return s.generals[seat] >= amount
    if cond == "mayors":
        # Designed: Mayors of the Management Zone, so that a two-player game's buffers (6 Mayors from
        # the set-up) do not fulfil it from the start.
        return s.mayors[seat] - buffers(s.config.players) >= amount
    if cond == "colours":
        return len({CARDS[c].colour for c in played}) >= amount
    if cond == "colour_cards":
        return sum(1 for c in played if CARDS[c].colour == card.condition_colour) >= amount
    return sum(s.res[seat]) >= amount  # "resources": stored in the Manor at the end


@dataclass(frozen=True, slots=True)
class FinalScore:
    """One realm's final tally and tie-break keys."""

    track: int  # Victory Points on the track before the end
    end_effects: int
    resources: int
    great_persons: int
    cards: int  # cards in play (not the Personal Display)
    castles: int
    leaders: int
    position: int  # place on the Turn Order Track (0 = start player)

    @property
    def total(self) -> int:
        """The final Victory Points."""
        return self.track + self.end_effects + self.resources + self.great_persons

    def key(self) -> tuple[int, int, int, int, int]:
        """Rulebook › End of the Game: most VP, most cards, Castles, leaders, nearest the start player.

        "Cards" are the cards in play, like the Great Person table's and every End-of-Game Effect's; a
        card still in the Personal Display does not count (designed reading, docs/medieval-realms.md)."""
        return (self.total, self.cards, self.castles, self.leaders, -self.position)


def end_effects(s: RealmsState, seat: int) -> int:
    """The End-of-Game Effects of the cards ``seat`` has in play."""
    played = s.in_play[seat]
    total = 0
    for c in played:
        card = CARDS[c]
        t = card.type
        if t == "castle":  # the sum of the Military Leaders' combat values
            total += 2 * s.generals[seat] + s.admirals[seat]
        elif t == "market":  # 1 per different stamp colour in play, this one included
            total += len({CARDS[x].colour for x in played})
        elif card.great_person:  # 1 per card of its colour in play, this one included
            total += sum(1 for x in played if CARDS[x].colour == card.colour)
        elif t == "city":  # 1 per Mayor in the realm
            total += s.mayors[seat]
        elif t == "island" and island_met(s, seat, c):
            total += 3
    return total


def final_scores(s: RealmsState) -> tuple[FinalScore, ...]:
    """Every realm's final tally (the state need not be over: this is then the tally if it ended now).

    Everything counted here — End-of-Game Effects, the Great Person table, the tie-breaks' cards and
    Castles — is counted among the cards in play (beside the Realm), never the Personal Display.
    """
    out = []
    for seat in range(s.config.players):
        played = s.in_play[seat]
        gp = sum(1 for c in played if CARDS[c].great_person)
        out.append(
            FinalScore(
                track=s.vp[seat],
                end_effects=end_effects(s, seat),
                resources=sum(s.res[seat]) // 2,  # 1 VP per 2 stored resources
                great_persons=great_person_points(gp),
                cards=len(played),  # the cards in play, as for every End-of-Game count
                castles=sum(1 for c in played if CARDS[c].type == "castle"),
                leaders=s.mayors[seat] + s.generals[seat] + s.admirals[seat],
                position=s.order.index(seat),
            )
        )
    return tuple(out)
