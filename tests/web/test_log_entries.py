"""What the log's entries carry for the page: the stage a step was taken in, and whether it left a
compound decision open (so that a later cancel shows which steps it backed out of)."""

from __future__ import annotations

from ludorum.engine import CANCEL
from ludorum.engine.disclosure import Step, disclose
from ludorum.games import registry


def test_a_cancelled_march_is_marked_open_and_the_stage_is_named() -> None:
    game = registry().get("reliquium")
    state = game.new(game.config(2), 5)
    march = next(a for a in game.legal_actions(state) if a.kind == "march")
    after = game.step(state, march)
    entry = disclose(Step(game, 0, state, 0, march, after))
    assert entry.stage == "Round 1 · Peace phase"
    assert entry.opens and CANCEL in game.legal_actions(after)
    back = game.step(after, CANCEL)
    cancel = disclose(Step(game, 1, after, 0, CANCEL, back))
    assert not cancel.opens  # the chain is closed again: nothing before the march is hidden
    shown = entry.to_json(1, public=False)
    assert shown["stage"] == "Round 1 · Peace phase" and shown["opens"] is True


def test_a_finished_action_leaves_nothing_open() -> None:
    game = registry().get("reliquium")
    state = game.new(game.config(2), 5)
    passing = next(a for a in game.legal_actions(state) if a.kind == "pass")
    entry = disclose(Step(game, 0, state, 0, passing, game.step(state, passing)))
    assert not entry.opens


def test_every_game_names_its_stages_without_internal_ids() -> None:
    for game in registry():
        state = game.new(game.config(game.min_players), 1)
        stage = game.stage(state)
        assert stage and "#" not in stage, (game.name, stage)
