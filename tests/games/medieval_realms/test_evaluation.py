"""The search's evaluation of Medieval Realms (``evaluation.value``): what a position is worth to a seat."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ludorum.engine import Action, Playthrough
from ludorum.engine.bots import bot_move
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.content import CARDS
from ludorum.games.medieval_realms.evaluation import value
from ludorum.games.medieval_realms.scenario import build
from ludorum.games.medieval_realms.state import RealmsState


def _seat0(
    round_: int,
    display: Sequence[str] = (),
    resources: Mapping[str, int] | None = None,
    leaders: tuple[int, int, int] = (6, 1, 1),
    phase: str = "actions",
) -> tuple[RealmsState, float]:
    """A two-player position of ``round_`` with seat 0 as described (seat 1 as set up), and seat 0's share."""
    s = build(
        2, phase=phase, round=round_, order=(0, 1), vp=[10, 10], display=[list(display), []],
        resources=[resources or {}, {}], leaders=[leaders, (6, 1, 1)],
    )  # fmt: skip
    return s, value(s)[0]


def test_putting_an_affordable_card_into_play_is_never_a_loss() -> None:
    # Round 3: seat 0 holds a Cathedral (5 VP for 5 Religion) and the Religion to pay for it.  Playing it
    # turns 5 stored tokens (2.5 VP at the end) into 5 VP: the evaluation must not see that as worse than
    # holding it (the first evaluation valued the display without its cost and did).
    s, before = _seat0(3, ["cathedral"], {"religion": 5})
    (card,) = [c for c in s.display[0] if CARDS[c].type == "cathedral"]
    after = GAME.apply(s, Action("play", (card,)))
    assert value(after)[0] >= before


def test_a_card_that_cannot_be_paid_for_in_the_last_round_is_worth_little() -> None:
    # Round 7, the last production done: a Cathedral without the Religion for it will never be played.
    _, without = _seat0(7, [], {"religion": 0})
    _, stuck = _seat0(7, ["cathedral"], {"religion": 0})
    _, paid = _seat0(7, ["cathedral"], {"religion": 5})
    _, paid_without = _seat0(7, [], {"religion": 5})
    assert stuck - without < 0.05 < paid - paid_without


def test_a_leader_is_worth_more_with_more_rounds_to_produce_in() -> None:
    def gain(round_: int) -> float:
        more = _seat0(round_, leaders=(6, 2, 1), phase="place")[1]
        even = _seat0(round_, leaders=(6, 1, 1), phase="place")[1]
        return more - even

    assert gain(2) > gain(7) > 0


def test_shares_are_a_distribution_throughout_games() -> None:
    bot = dict(GAME.bots())["heuristic"]()
    for players in (2, 5):
        play = Playthrough(GAME, GAME.config(players), 3)
        rng = random.Random(3)
        while not play.is_over():
            if play.to_move() < 0:
                play.resolve_chance()
                continue
            state = play.state
            assert isinstance(state, RealmsState)
            shares = value(state)
            assert len(shares) == players and abs(sum(shares) - 1) < 1e-9
            assert all(0 <= x <= 1 for x in shares)
            bot_move(GAME, play, bot, rng)
