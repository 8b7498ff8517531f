"""The search levels' guide (``bot.GUIDE_STYLE``): the heuristic with other thresholds, offered to search by
the evaluation; the ``heuristic`` bot's own play is unchanged, and the guide beats it on fixed seeds."""

from __future__ import annotations

import random

from ludorum.agents.search import level_settings
from ludorum.agents.search.rollout import make_guide
from ludorum.engine import Action
from ludorum.engine.bots import play_game
from ludorum.games.signum import GAME
from ludorum.games.signum.bot import (
    CAREFUL_STYLE,
    GUIDE_STYLE,
    THRIFTY_STYLE,
    HeuristicBot,
    Style,
    careful_bot,
    guide_bot,
    thrifty_bot,
)

from .helpers import build


def build_choice(bot: HeuristicBot, prosperity: int) -> Action:
    """What ``bot`` builds in P1's build phase with ``prosperity`` (every building it can pay is open)."""
    s = build(phase="build", prosperity=(prosperity, 10))
    return bot.choose(GAME.view(s, 0), GAME.legal_actions(s), 0, random.Random(0))


def test_the_heuristic_keeps_its_thresholds_and_the_guide_builds_down_to_the_last_prosperity() -> None:
    assert HeuristicBot().style == Style()
    assert build_choice(HeuristicBot(), 3) == Action("pass")  # a Farm costs 3: it keeps two in hand
    assert build_choice(guide_bot(), 3) == Action("build", ("farm",))


def test_the_guide_prefers_a_building_that_guards_its_hero() -> None:
    # City Walls: 1 income for 6 and armour for the hero; a Farm: 1 for 3 (the best income per prosperity).
    assert build_choice(HeuristicBot(), 20) == Action("build", ("farm",))
    assert build_choice(guide_bot(), 20) == Action("build", ("city_walls",))


def test_hard_and_expert_are_guided_by_the_evaluations_guide() -> None:
    assert level_settings("hard", "signum").guide == "game" == level_settings("expert", "signum").guide
    assert level_settings("medium", "signum").guide == "game:thrifty"
    assert level_settings("easy", "signum").guide == "game:careful"
    ev = GAME.evaluation()
    assert ev is not None and ev.guide is guide_bot and guide_bot().style == GUIDE_STYLE
    assert ev.guides["thrifty"] is thrifty_bot and thrifty_bot().style == THRIFTY_STYLE
    assert make_guide(GAME, "game") is not None and make_guide(GAME, "game:thrifty") is not None
    assert ev.guides["careful"] is careful_bot and careful_bot().style == CAREFUL_STYLE
    assert make_guide(GAME, "game:nobody") is None


def test_the_careful_guide_keeps_the_heuristics_reserve_but_builds_to_guard_its_hero() -> None:
    assert build_choice(careful_bot(), 3) == Action("pass")  # two kept in hand, as the heuristic does
    assert build_choice(careful_bot(), 20) == Action("build", ("city_walls",))


def test_the_thrifty_guide_builds_down_to_the_last_prosperity_but_picks_as_the_heuristic_does() -> None:
    assert build_choice(thrifty_bot(), 3) == Action("build", ("farm",))
    assert build_choice(thrifty_bot(), 20) == Action("build", ("farm",))


def test_the_guide_beats_the_heuristic_on_fixed_seeds() -> None:
    # Paired: the same seeds and seats played by the heuristic and by the guide against the heuristic
    # (docs/agents.md measured 0.70 against 0.54 over 600 games from this base; on its first 20 the guide
    # wins 16 where the heuristic wins 10 — fixed seeds, so the test is exact, not a sample).
    games, base = 20, 4_000_000
    guide = heuristic = 0.0
    for g in range(games):
        seat = g % 2
        for kind in ("guide", "heuristic"):
            bots = [HeuristicBot() for _ in range(2)]
            if kind == "guide":
                bots[seat] = guide_bot()
            share = GAME.result(play_game(GAME, GAME.config(2), base + g, bots).state).shares[seat]
            if kind == "guide":
                guide += share
            else:
                heuristic += share
    assert guide >= heuristic + 3, (guide, heuristic)
