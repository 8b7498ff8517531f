"""Games that declare ``plain_labels``: the deciding seat's safe labels are its labels, found without
drawing its information set, exactly as the drawn judgement finds them; a wrong declaration fails the
conformance kit."""

from __future__ import annotations

import random

import pytest

from ludorum.engine import Action, disclosure
from ludorum.engine.conformance import check_game
from ludorum.engine.game import CHANCE
from ludorum.engine.playout import random_states
from ludorum.games import registry
from tests.fixtures import kit_refuses, two_and_three
from tests.fixtures.face_down import FaceDown, FaceDownState


class PlainFaceDown(FaceDown):
    """Declares its labels plain, rightly (they name the action only); counts its draws."""

    plain_labels = True

    def __init__(self) -> None:
        super().__init__()
        self.draws = 0

    def sample_state(self, state: FaceDownState, seat: int | None, rng: random.Random) -> FaceDownState:
        self.draws += 1
        return super().sample_state(state, seat, rng)


class TellingFaceDown(PlainFaceDown):
    """Declares its labels plain, wrongly: drawing names the hidden top card of the deck."""

    def describe(self, state: FaceDownState, action: Action) -> str:
        if action.kind == "draw":
            return f"draw the {state.deck[0]}"
        return super().describe(state, action)


def test_a_wrong_plain_labels_declaration_fails_the_kit() -> None:
    game = TellingFaceDown()
    kit_refuses(game, "declares plain_labels, but the label of draw")


def test_plain_labels_are_found_without_drawing_and_as_the_drawn_judgement_finds_them() -> None:
    game = PlainFaceDown()
    check_game(game, two_and_three(game), games=10, seed=1)  # the declaration holds
    state = game.new(game.config(2), 3)
    seat = game.to_move(state)
    game.draws = 0
    labels = disclosure.safe_labels(game, state, seat)
    assert game.draws == 0
    assert labels == disclosure.safe_labels(game, state, seat, shortcuts=False)
    assert game.draws > 0  # the drawn judgement draws


def test_without_the_declaration_a_telling_label_is_withheld() -> None:
    game = TellingFaceDown()
    game.plain_labels = False  # type: ignore[misc]
    state = game.new(game.config(2), 3)
    labels = dict(disclosure.safe_labels(game, state, game.to_move(state)))
    assert labels[Action("draw")] == "draw"


@pytest.mark.parametrize("name", [g.name for g in registry() if g.plain_labels])
def test_the_games_plain_labels_are_the_drawn_judgements(name: str) -> None:
    """At every decision of random games of a game declaring ``plain_labels``, its safe labels are the
    ones drawn from the deciding seat's information set (the kit checks its checked steps; this, all)."""
    game = registry().get(name)
    decisions = 0
    for seed in range(4):
        for state in random_states(game, game.config(2 + seed % 3), seed):
            if game.is_over(state) or (seat := game.to_move(state)) == CHANCE:
                continue
            drawn = disclosure.safe_labels(game, state, seat, shortcuts=False)
            assert disclosure.safe_labels(game, state, seat) == drawn
            decisions += 1
    assert decisions > 100
