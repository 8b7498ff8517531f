"""The conformance kit passes a correct game and catches each planted fault."""

from __future__ import annotations

import pytest

from ludorum.engine import Game
from ludorum.engine.conformance import ConformanceError, check_game
from tests.fixtures import kit_refuses, two_and_three
from tests.fixtures.face_down import FaceDown, TrueOrderFaceDown, true_state_disclose
from tests.fixtures.sealed_bids import (
    AliasingBids,
    HintingBids,
    LaxBids,
    LeakyBids,
    MutatingBids,
    OpenBids,
    SealedBids,
)


def configs(game: SealedBids) -> list:
    return [game.config(2), game.config(3), game.config(3, ["rich"])]


def test_correct_game_passes() -> None:
    game = SealedBids()
    report = check_game(game, configs(game), games=60, seed=1)
    assert report.games == 60
    assert report.steps > 60 * 10
    assert report.checks >= report.steps


@pytest.mark.parametrize(
    ("faulty", "symptom"),
    [
        (LeakyBids, "shows seat 0's 'bids'"),
        (HintingBids, "leaks hidden information"),
        (MutatingBids, "refusing .* changed the state"),
        (AliasingBids, "changed the state it was applied to"),
        (LaxBids, "apply accepted bid"),
    ],
)
def test_planted_faults_are_caught(faulty: type[SealedBids], symptom: str) -> None:
    game = faulty()
    with pytest.raises(ConformanceError, match=symptom):
        check_game(game, configs(game), games=20, seed=1)


def test_declared_open_kinds_may_take_unlisted_arguments() -> None:
    game = OpenBids()
    check_game(game, configs(game), games=20, seed=1)


def test_hidden_hands_game_passes_with_the_engines_disclosure() -> None:
    game = FaceDown()
    report = check_game(game, two_and_three(game), games=40, seed=1)
    assert report.checks >= report.steps > 40 * 4


def test_sampling_from_the_true_order_is_caught() -> None:
    game = TrueOrderFaceDown()
    kit_refuses(game, "draws from the true state", games=20)


def test_a_log_judged_from_the_true_state_is_caught() -> None:
    """The Signum leak: one legal ``set`` in the true state made the face-down card public."""
    game = FaceDown()
    kit_refuses(game, "the log leaks what it cannot see", games=40, disclose=true_state_disclose)


class UnsampledBids(SealedBids):
    """Planted fault: secret bids, but the default sample_state (a seat's information set = the truth)."""

    sample_state = Game.sample_state  # type: ignore[assignment]


def test_secret_fields_without_sample_state_are_caught() -> None:
    game = UnsampledBids()
    with pytest.raises(ConformanceError, match="does not override sample_state"):
        check_game(game, configs(game), games=2, seed=1)
