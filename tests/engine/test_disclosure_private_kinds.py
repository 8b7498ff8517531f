"""Kinds a game declares private (``Game.private_kinds``): every other observer reads such a step as a
secret decision, without drawing its information set."""

from __future__ import annotations

from collections import Counter

import pytest

from ludorum.engine import disclosure
from ludorum.engine.conformance import ConformanceError, check_game
from ludorum.engine.disclosure import Step
from ludorum.games import registry
from tests.engine.test_disclosure_public_kinds import steps
from tests.fixtures import two_and_three
from tests.fixtures.face_down import FaceDown


@pytest.mark.parametrize("name", [g.name for g in registry() if g.private_kinds])
def test_private_kinds_are_read_secret_without_drawing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry().get(name)
    drawn = Counter[str]()
    sample = game.sample_state
    monkeypatch.setattr(game, "sample_state", lambda *a: drawn.update(["draw"]) or sample(*a))
    seen = set()
    for before, actor, action, after in steps(game, 2):
        if action.kind in game.private_kinds:
            seen.add(action.kind)
            entry = disclosure.disclose(Step(game, 0, before, actor, action, after))
            assert set(entry.readings.values()) == {disclosure.SECRET}
    assert seen and not drawn


def test_medieval_realms_places_its_leaders_in_secret() -> None:
    """Medieval Realms' leaders are placed in secret, revealed together once every seat has placed them
    (docs/medieval-realms.md, "Placement as decisions"): the placements are declared private, and the
    full judgement, without the declaration, reads every one of them as secret too (so the declaration
    costs the log nothing it used to show: measured over 16 games of 2–5 players, 11,421 readings;
    here over a game of two players and one of three)."""
    game = registry().get("medieval-realms")
    placements = {"mayor", "general", "admiral", "buffer"}
    assert placements <= game.private_kinds

    class Undeclared(type(game)):  # type: ignore[misc]
        private_kinds = frozenset()

    judged = Counter[str]()
    for before, actor, action, after in steps(Undeclared(), 2):
        if action.kind in placements:
            judged[action.kind] += 1
            entry = disclosure.disclose(Step(Undeclared(), 0, before, actor, action, after))
            assert set(entry.readings.values()) == {disclosure.SECRET}, action
    assert set(judged) == placements


def test_a_kind_declared_both_private_and_public_fails_the_kit() -> None:
    """The disclosure would read it as secret (private first), so a public declaration of it is a
    mistake the game should hear of."""

    class Both(FaceDown):
        private_kinds = frozenset({"set"})
        public_kinds = frozenset({"set", "draw"})

    with pytest.raises(ConformanceError, match="declares 'set' both private and public"):
        check_game(Both(), two_and_three(Both()), games=1)
