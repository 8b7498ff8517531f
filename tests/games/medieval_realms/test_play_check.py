"""``cards.can_play`` (the boolean the legal actions ask) and ``cards.play_refusal`` (the words a refused
play gets) agree with each other and with the rulebook's conditions over the states of random games."""

from __future__ import annotations

import random

import pytest

from ludorum.engine.conformance import random_choice
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.cards import WAR_COST, can_play, play_refusal
from ludorum.games.medieval_realms.content import CARDS
from ludorum.games.medieval_realms.state import RealmsState


def rulebook_allows(s: RealmsState, seat: int, c: int) -> bool:
    """The conditions as the rulebook words them, written out again here as the oracle: an Island needs
    one Admiral per Island in play, itself included (Island Cards); any other card its cost in its
    resource (War: Battle Points by the number of players, War Cards)."""
    card = CARDS[c]
    if card.type == "island":
        return s.admirals[seat] >= 1 + [CARDS[x].type for x in s.in_play[seat]].count("island")
    need = WAR_COST[s.config.players] if card.type == "war" else card.cost
    return s.res[seat][card.cost_resource] >= need


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_can_play_agrees_with_play_refusal_and_the_rulebook(players: int) -> None:
    checked = refused = islands = 0
    for g in range(2):
        rng = random.Random(g)
        s = GAME.new(GAME.config(players), 300 + g)
        while not GAME.is_over(s):
            for seat in range(players):
                # every card, not only those in the display: the check reads nothing else of the state
                for c in range(len(CARDS)):
                    ok = can_play(s, seat, CARDS[c])
                    why = play_refusal(s, seat, CARDS[c])
                    assert ok == rulebook_allows(s, seat, c), (seat, CARDS[c].name)
                    assert (why is None) == ok, (seat, CARDS[c].name, why)
                    checked += 1
                    if why is not None:
                        refused += 1
                        islands += CARDS[c].type == "island"
                        have = (
                            s.admirals[seat]
                            if CARDS[c].type == "island"
                            else s.res[seat][CARDS[c].cost_resource]
                        )
                        assert str(why).endswith(f"; you have {have}"), why
            s = GAME.apply(s, random_choice(GAME.legal_actions(s), rng))
    assert refused and islands and checked > refused  # both answers and the Island's refusal were seen
