"""The evaluation search scores Signum's leaves with: the levels' standing and the race standing that
``expert`` uses (``value = "race"``), fitted to who won the guides' games (docs/agents.md)."""

from __future__ import annotations

import pytest

from ludorum.agents.search import level_settings
from ludorum.engine import Action
from ludorum.games.signum import GAME
from ludorum.games.signum.evaluation import EVALUATION, LEVELS, RACE, race_value, standing, value

from .helpers import build


def test_the_race_standing_pays_for_a_farm_and_the_levels_standing_does_not() -> None:
    # A Farm: 3 prosperity for 1 income each turn.  The guides build it; search on the levels' standing
    # saw only the prosperity spent (why expert left the guide's buildings for a pass).
    before = build(phase="build", prosperity=(20, 10))
    after = GAME.apply(before, Action("build", ("farm",)))
    assert after.prosperity[0] == 17 and len(after.city[0]) == len(before.city[0]) + 1
    assert standing(after, 0, RACE) > standing(before, 0, RACE)
    assert standing(after, 0, LEVELS) < standing(before, 0, LEVELS)


@pytest.mark.parametrize("estimate", [value, race_value])
def test_both_estimates_are_shares_of_the_win(estimate: object) -> None:
    s = build(phase="build", prosperity=(20, 10))
    shares = estimate(s)  # type: ignore[operator]
    assert len(shares) == 2 and sum(shares) == pytest.approx(1.0) and shares[0] > shares[1]


def test_expert_scores_its_leaves_with_the_race_standing_and_the_other_levels_with_their_own() -> None:
    assert EVALUATION.values["race"] is race_value and EVALUATION.value is value
    assert level_settings("expert", "signum").value == "race"
    assert {level_settings(lv, "signum").value for lv in ("easy", "medium", "hard")} == {""}
