"""The view's parts a renderer relies on: the auction's history, structured events, the map challenge's
combat strengths and each placed leader's combat value."""

from __future__ import annotations

from ludorum.engine import Action
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.scenario import build
from ludorum.games.medieval_realms.state import RealmsState

JAMES, CLAIRE, MICHAEL, VALERIE = 0, 1, 2, 3


def play(s: RealmsState, *actions: Action) -> RealmsState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def place(s: RealmsState, mayors: list[str], generals: list[int], admirals: list[int]) -> RealmsState:
    acts = [Action("mayor", (m,)) for m in mayors]
    acts += [Action("general", (a,)) for a in generals] + [Action("admiral", (a,)) for a in admirals]
    return play(s, *acts)


def test_the_auction_history_lists_every_bid_and_pass_in_order() -> None:
    s = build(
        3,
        phase="actions",
        order=(0, 1, 2),
        resources=[{"battle_point": 4}, {"battle_point": 6}, {"battle_point": 3}],
        panel=["Territory: Gold Mines"],
    )
    s = play(s, Action("activate", (1,)))
    assert GAME.view(s, 2)["auction"]["history"] == []
    s = play(s, Action("bid", (2,)), Action("bid", (3,)), Action("pass"))
    for seat in (None, 0, 1, 2):
        assert GAME.view(s, seat)["auction"]["history"] == [[0, 2], [1, 3], [2, None]]
    assert "Bids: Black 2, Violet 3, Blue passes" in GAME.render_text(s, 0)
    s = play(s, Action("pass"))
    assert GAME.view(s, 0)["auction"] is None
    event = GAME.view(s, 0)["events"][-1]
    assert event["kind"] == "auction" and event["seat"] == 1 and event["amount"] == 3
    assert event["card"]["name"] == "Territory: Gold Mines"
    assert event["text"] == "Violet wins the auction for Territory: Gold Mines for 3 Battle Point"


def test_events_are_structured_with_kind_seat_card_amount_and_text() -> None:
    s = build(
        4,
        phase="actions",
        order=(0, 1, 2, 3),
        resources=[{"religion": r, "production": 3} for r in (2, 6, 3, 1)],
        panel=["cathedral", "market"],
    )
    s = play(s, Action("activate", (1,)), Action("activate", (2,)), Action("pass"))
    majority, buy, passing = GAME.view(s, None)["events"]
    assert majority == {
        "kind": "majority",
        "seat": CLAIRE,
        "card": majority["card"],
        "amount": None,
        "activator": JAMES,
        "text": "Cathedral (majority card, activated by Black) goes to Violet",
    }
    assert majority["card"]["type"] == "cathedral"
    assert buy["kind"] == "buy" and buy["seat"] == CLAIRE and buy["amount"] == 1
    assert buy["card"]["type"] == "market"
    assert passing == {"kind": "pass", "seat": MICHAEL, "card": None, "amount": None, "text": "Blue passes"}


def test_a_majority_card_nobody_takes_is_an_event_with_no_seat() -> None:
    whites = [["tithe"], ["inquisition"], ["missionary"], ["tithe"]]
    s = build(4, phase="actions", order=(0, 1, 2, 3), display=whites, panel=["cathedral"])
    s = play(s, Action("activate", (1,)))
    event = GAME.view(s, 1)["events"][-1]
    assert event["kind"] == "majority" and event["seat"] is None and event["activator"] == 0


def test_map_strengths_appear_only_after_the_reveal_and_match_the_challenge() -> None:
    # The rulebook's four-player map challenge.
    s = build(4, order=(JAMES, CLAIRE, MICHAEL, VALERIE))
    s = place(s, ["gold"] * 4, [3], [1])
    s = place(s, ["gold"] * 4, [3], [3])
    assert GAME.view(s, CLAIRE)["map"]["strengths"] is None
    assert [p["combat"] for p in GAME.view(s, CLAIRE)["realms"][CLAIRE]["placement"]] == [0] * 4 + [2, 1]
    s = place(s, ["gold"] * 4, [3], [8])
    s = place(s, ["gold"] * 4, [4], [8])
    strengths = GAME.view(s, None)["map"]["strengths"]
    assert strengths == {
        "1": [1, 0, 0, 0],
        "2": [0, 0, 0, 0],
        "3": [2, 3, 2, 0],
        "4": [0, 0, 0, 2],
        "5": [0, 0, 0, 0],
        "6": [0, 0, 0, 0],
        "7": [0, 0, 0, 0],
        "8": [0, 0, 1, 1],
    }
    assert [r["controlled_areas"] for r in GAME.view(s, None)["realms"]] == [[1], [3], [], [4]]


def test_two_player_strengths_count_the_buffer_mayors() -> None:
    s = build(2, order=(0, 1))
    s = play(s, *[Action("mayor", ("gold",))] * 4, Action("general", (5,)), Action("admiral", (3,)))
    s = play(s, Action("buffer", (6,)), Action("buffer", (6,)))
    s = play(s, *[Action("mayor", ("gold",))] * 4, Action("general", (2,)), Action("admiral", (1,)))
    s = play(s, Action("buffer", (5,)), Action("buffer", (4,)))
    strengths = GAME.view(s, 0)["map"]["strengths"]
    assert strengths["5"] == [2, 2] and strengths["6"] == [4, 0] and strengths["4"] == [0, 2]
    assert [p["combat"] for p in GAME.view(s, 0)["realms"][1]["placement"]][-4:] == [2, 1, 2, 2]
