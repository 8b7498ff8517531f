"""Each refusal names the rule in the player's words, and leaves the state unchanged."""

from __future__ import annotations

import pytest

from ludorum.engine import Action, IllegalAction
from ludorum.games.signum import GAME

from .helpers import build, m, model, play


def refused(s: object, *args: object) -> str:
    err = GAME.describe_error(s, Action(str(args[0]), tuple(args[1:])))  # type: ignore[arg-type]
    assert err is not None
    return str(err)


def test_refusals_name_the_rule() -> None:
    s = build(
        models=[
            m("dwarf_ironbeard", 0, 30, 30),
            m("musketeer", 1, 30, 40),
            m("cutthroat", 1, 30, 33, hidden=True),
        ],
        hands=(["troll", "ambush_of_the_faithful"], []),
        prosperity=(2, 0),
    )
    assert "Cards: Troll costs 6 prosperity, you have 2" in refused(s, "recruit", "troll", 0)
    assert "not in your hand" in refused(s, "recruit", "musketeer", 0)
    assert "Building: only in the building phase" in refused(s, "build", "farm")
    dwarf = model(s, "dwarf_ironbeard").uid
    s1 = play(s, ("activate", dwarf))
    assert "Slow and cannot run" in refused(s1, "run", 2)
    assert "Hidden: a hidden creature cannot be attacked" in refused(s1, "melee", model(s, "cutthroat").uid)
    assert "Shot: Dwarf Ironbeard has no Shot X" in refused(s1, "shoot", model(s, "musketeer").uid)
    assert "finish Dwarf Ironbeard's activation first" in refused(s1, "end_turn")
    s2 = play(s1, ("move", 0, 80))
    assert "already moved" in refused(s2, "move", 0, 80)
    s3 = play(s2, ("done",))
    assert "each creature acts once per turn" in refused(s3, "activate", dwarf)


def test_melee_split_refusal_names_warlike() -> None:
    s = build(models=[m("zealot", 0, 30, 30), m("harbour_brawler", 1, 30, 33)])
    s = play(s, ("activate", 2), ("melee", 3))
    assert "Warlike and Cautious bound the split" in refused(s, "split", 0)


def test_a_refused_exact_point_cites_the_design_not_the_rulebook() -> None:
    """The rulebook gives 7.1 Movement only its title: a refused ``move_to`` cites the project's design."""
    s = build(models=[m("grypharim_knight", 0, 30, 20), m("musketeer", 1, 30, 25)])
    s = play(s, ("activate", model(s, "grypharim_knight").uid))
    for point in ((100, 200), (300, 295), (1, 2, 3)):
        with pytest.raises(IllegalAction) as caught:
            GAME.apply(s, Action("move_to", point))
        assert "designed § 7.1" in caught.value.rule
        assert "Rulebook" not in caught.value.rule
