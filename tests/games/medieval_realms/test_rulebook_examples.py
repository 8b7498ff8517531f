"""Every worked example of the rulebook, set up and played through the game's own actions."""

from __future__ import annotations

import pytest

from ludorum.engine import Action, IllegalAction
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.content import CARDS, RESOURCES
from ludorum.games.medieval_realms.scenario import build
from ludorum.games.medieval_realms.state import ACTIONS, RealmsState

JAMES, CLAIRE, MICHAEL, VALERIE = 0, 1, 2, 3  # Black, Violet, Blue, Yellow in the rulebook's examples
RACHEL, WYATT = 0, 1


def play(s: RealmsState, *actions: Action) -> RealmsState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def place(
    s: RealmsState, mayors: list[str], generals: list[int], admirals: list[int], buffers=()
) -> RealmsState:
    acts = [Action("mayor", (m,)) for m in mayors]
    acts += [Action("general", (a,)) for a in generals]
    acts += [Action("admiral", (a,)) for a in admirals]
    acts += [Action("buffer", (a,)) for a in buffers]
    return play(s, *acts)


def res(s: RealmsState, seat: int, name: str) -> int:
    return s.res[seat][RESOURCES.index(name)]


def test_four_player_extra_tokens_are_chosen_in_inverse_turn_order() -> None:
    # Set-Up example: Michael 1, Valerie 2, Claire 3, James 4; James chooses first, Michael last.
    s = build(4, phase="extras", order=(MICHAEL, VALERIE, CLAIRE, JAMES))
    before = [s.res[p] for p in range(4)]
    assert GAME.to_move(s) == JAMES
    s = play(s, Action("extra", ("culture", "battle_point")))
    assert GAME.to_move(s) == CLAIRE
    # Claire may not take James's pair, nor two tokens of one kind.
    with pytest.raises(IllegalAction, match="unique"):
        GAME.apply(s, Action("extra", ("culture", "battle_point")))
    with pytest.raises(IllegalAction, match="DIFFERENT"):
        GAME.apply(s, Action("extra", ("gold", "gold")))
    s = play(s, Action("extra", ("production", "raw_material")))
    assert GAME.to_move(s) == VALERIE
    with pytest.raises(IllegalAction, match="resource order"):
        GAME.apply(s, Action("extra", ("religion", "culture")))
    s = play(s, Action("extra", ("culture", "religion")))
    assert GAME.to_move(s) == MICHAEL
    s = play(s, Action("extra", ("science", "gold")))
    gained = {p: {r for i, r in enumerate(RESOURCES) if s.res[p][i] > before[p][i]} for p in range(4)}
    assert gained == {
        JAMES: {"culture", "battle_point"},
        CLAIRE: {"production", "raw_material"},
        VALERIE: {"religion", "culture"},
        MICHAEL: {"science", "gold"},
    }
    assert all(sum(s.res[p]) == sum(before[p]) + 2 for p in range(4))
    assert s.phase != 0  # the first round's placement begins


def test_two_player_map_challenge_with_buffer_mayors() -> None:
    s = build(2, order=(RACHEL, WYATT))
    s = place(s, ["gold"] * 4, [5], [3], buffers=(6, 6))
    s = place(s, ["gold"] * 4, [2], [1], buffers=(5, 4))
    assert s.phase == ACTIONS
    assert s.controlled[RACHEL] == (3,)  # area 5: her General (2) ties Wyatt's buffer (2)
    assert s.controlled[WYATT] == (1, 2)


def test_buffer_mayors_only_go_where_the_player_has_no_military_leader() -> None:
    s = build(2, order=(RACHEL, WYATT))
    s = place(s, ["gold"] * 4, [5], [3])
    assert Action("buffer", (5,)) not in GAME.legal_actions(s)
    with pytest.raises(IllegalAction, match="no General or Admiral"):
        GAME.apply(s, Action("buffer", (5,)))


def test_four_player_map_challenge() -> None:
    s = build(4, order=(JAMES, CLAIRE, MICHAEL, VALERIE))
    s = place(s, ["gold"] * 4, [3], [1])  # James
    s = place(s, ["gold"] * 4, [3], [3])  # Claire
    s = place(s, ["gold"] * 4, [3], [8])  # Michael
    s = place(s, ["gold"] * 4, [4], [8])  # Valerie
    assert s.controlled == ((1,), (3,), (), (4,))


def test_start_player_by_most_production_ties_keep_the_previous_order() -> None:
    # After step 4: James 5, Claire 2, Michael 5, Valerie 6; James was ahead of Michael.
    prod = {JAMES: 3, CLAIRE: 0, MICHAEL: 3, VALERIE: 4}
    s = build(
        4, order=(CLAIRE, JAMES, MICHAEL, VALERIE), resources=[{"production": prod[p]} for p in range(4)]
    )
    for _ in range(4):  # Mayors on Gold, military on area 1 (no Production anywhere)
        s = place(s, ["gold"] * 4, [1], [1])
    assert [res(s, p, "production") for p in range(4)] == [5, 2, 5, 6]
    assert s.order == (VALERIE, JAMES, MICHAEL, CLAIRE)


def test_mayors_produce_one_token_each_on_their_square() -> None:
    # Example: 2 Mayors on Science, 1 on Gold, 1 on Production give 2 Science, 1 Gold, 1 Production.
    s = build(3, order=(0, 1, 2))
    before = s.res[0]
    s = place(s, ["science", "science", "gold", "production"], [3], [3])
    s = place(s, ["culture"] * 4, [3], [3])  # every area 3 ties: no map rewards
    s = place(s, ["culture"] * 4, [3], [3])
    assert s.controlled == ((), (), ())
    gain = [a - b for a, b in zip(s.res[0], before, strict=True)]
    assert gain[RESOURCES.index("science")] == 2 and gain[RESOURCES.index("gold")] == 1
    assert gain[RESOURCES.index("production")] == 1 + 2  # and the 2 Production every player gets


def _majority_state(religion: list[int], displays: list[list[str]], activator: int) -> RealmsState:
    return build(
        4,
        phase="actions",
        order=(0, 1, 2, 3),
        turn=activator,
        resources=[{"religion": r, "production": 3} for r in religion],
        display=displays,
        panel=["cathedral"],
    )


def test_majority_card_goes_to_the_most_resources_not_the_activator() -> None:
    s = play(_majority_state([2, 6, 3, 1], [[], [], [], []], activator=0), Action("activate", (1,)))
    cathedral = next(c for c in s.display[1])
    assert CARDS[cathedral].type == "cathedral"
    assert res(s, 0, "production") == 2  # the activator paid the column price


def test_majority_tie_goes_to_the_activator() -> None:
    s = play(_majority_state([2, 5, 3, 5], [[], [], [], []], activator=3), Action("activate", (1,)))
    assert len(s.display[3]) == 1 and not s.display[1]


def test_majority_tie_with_a_full_activator_goes_to_the_tied_player_nearest_the_start() -> None:
    full = ["castle", "market", "scientist", "city"]
    s = _majority_state([5, 2, 5, 5], [[], [], [], full], activator=3)
    s.order = (2, 3, 0, 1)
    s.turn = 1
    s = play(s, Action("activate", (1,)))
    assert len(s.display[2]) == 1 and not s.display[0]


def test_majority_card_falls_to_fewer_resources_when_the_majority_holds_the_colour() -> None:
    s = _majority_state([1, 6, 3, 2], [[], ["tithe"], [], []], activator=0)
    s = play(s, Action("activate", (1,)))
    assert len(s.display[2]) == 1  # Claire already holds a white card; Michael has the next most


def test_majority_card_nobody_can_take_is_discarded() -> None:
    whites = [["tithe"], ["inquisition"], ["missionary"], ["tithe"]]
    s = play(_majority_state([1, 6, 3, 2], whites, activator=0), Action("activate", (1,)))
    assert CARDS[s.discards[-1]].type == "cathedral"
    assert all(len(d) == 1 for d in s.display)


def test_auction_bids_clockwise_a_passed_player_still_bids_and_the_winner_plays_at_once() -> None:
    s = build(
        3,
        phase="actions",
        order=(0, 1, 2),
        resources=[{"battle_point": 4}, {"battle_point": 6}, {"battle_point": 3}],
        panel=["Territory: Gold Mines"],
        passed=(False, True, False),
    )
    s = play(s, Action("activate", (1,)))
    assert GAME.to_move(s) == 0 and Action("cancel") in GAME.legal_actions(s)
    s = play(s, Action("bid", (2,)))
    assert GAME.to_move(s) == 1  # clockwise; seat 1 has passed the round but still bids
    with pytest.raises(IllegalAction, match="bid more than 2"):
        GAME.apply(s, Action("bid", (2,)))
    s = play(s, Action("bid", (3,)), Action("pass"))  # seat 2 passes and is out
    assert GAME.to_move(s) == 0
    gold = res(s, 1, "gold")
    s = play(s, Action("pass"))
    assert s.auction is None
    assert res(s, 1, "battle_point") == 3  # only the winner pays
    assert res(s, 0, "battle_point") == 4 and res(s, 2, "battle_point") == 3
    assert res(s, 1, "gold") == gold + 5  # Territory: 5 tokens of its resource, at once
    assert CARDS[s.in_play[1][0]].type == "territory"
    assert GAME.to_move(s) == 2  # the activator's action is over; seat 1 has passed


def test_cancelling_the_opening_bid_restores_the_panel() -> None:
    s = build(2, phase="actions", order=(0, 1), resources=[{"gold": 3}, {"gold": 3}], panel=["realm_leader"])
    t = play(s, Action("activate", (1,)), Action("cancel"))
    assert t == s


def test_buffers_with_no_free_area_stay_off_the_map() -> None:
    s = build(2, order=(RACHEL, WYATT), leaders=[(6, 5, 3), (6, 1, 1)])
    s = place(s, ["gold"] * 4, [1, 2, 3, 4, 5], [6, 7, 8])
    assert s.committed[RACHEL] and GAME.to_move(s) == WYATT
