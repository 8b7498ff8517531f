"""Rules beyond the worked examples: the display, prices, card effects, VP tokens, the round's end,
the box, the final scoring and tie-breaks, and the secrecy of placements."""

from __future__ import annotations

import random

import pytest

from ludorum.engine import Action, IllegalAction
from ludorum.games.medieval_realms import GAME
from ludorum.games.medieval_realms.content import CARDS, RESOURCES
from ludorum.games.medieval_realms.ending import final_scores
from ludorum.games.medieval_realms.scenario import build
from ludorum.games.medieval_realms.state import ACTIONS, OVER, PLACE, RealmsState


def play(s: RealmsState, *actions: Action) -> RealmsState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def res(s: RealmsState, seat: int, name: str) -> int:
    return s.res[seat][RESOURCES.index(name)]


def card_in(cards: tuple[int, ...], kind: str) -> int:
    return next(c for c in cards if CARDS[c].type == kind or CARDS[c].name == kind)


def acting(players: int = 3, **kw: object) -> RealmsState:
    return build(players, phase="actions", order=tuple(range(players)), **kw)  # type: ignore[arg-type]


def test_setup_gives_the_starting_capital_leaders_and_panels() -> None:
    for n in (2, 3, 4, 5):
        s = GAME.new(GAME.config(n), 7)
        assert all(r[:6] == (5, 2, 3, 3, 3, 3) for r in s.res)
        assert s.mayors == ((6 if n == 2 else 4),) * n and s.generals == (1,) * n and s.admirals == (1,) * n
        assert len(s.panel) == 12 and len(s.future) == 6 and len(s.deck) == 91
        assert sorted((*s.panel, *s.future, *s.deck)) == list(range(109))


def test_turn_order_is_drawn_at_random_and_the_deck_shuffled() -> None:
    games = [GAME.new(GAME.config(4), seed) for seed in range(40)]
    assert len({s.order for s in games}) > 10
    assert {s.order[0] for s in games} == {0, 1, 2, 3}
    assert len({s.panel for s in games}) == 40
    assert GAME.new(GAME.config(4), 3) == GAME.new(GAME.config(4), 3)


def test_realm_cards_cost_the_column_price_in_production() -> None:
    panel = [None, None, None, None, "market", None, None, None, "tithe"]
    s = acting(resources=[{"production": 5}] * 3, panel=panel)
    s = play(s, Action("activate", (9,)))
    assert res(s, 0, "production") == 2 and CARDS[s.display[0][0]].type == "tithe"
    s = play(s, Action("activate", (5,)))
    assert res(s, 1, "production") == 3


def test_personal_display_refusals_name_the_rule() -> None:
    s = acting(
        resources=[{"production": 9}] * 3, display=[["scientist"], [], []], panel=["university", "city"]
    )
    with pytest.raises(IllegalAction, match="Personal Display: you already hold a blue card"):
        GAME.apply(s, Action("activate", (1,)))
    full = [["castle", "market", "scientist", "tithe"], [], []]
    s = acting(resources=[{"production": 9}] * 3, display=full, panel=["city"])
    with pytest.raises(IllegalAction, match="already hold 4 cards"):
        GAME.apply(s, Action("activate", (1,)))
    s = acting(resources=[{"production": 0}] * 3, panel=["city"])
    with pytest.raises(IllegalAction, match="costs 1 Production"):
        GAME.apply(s, Action("activate", (1,)))


def test_refused_action_leaves_the_state_unchanged() -> None:
    s = acting(resources=[{"production": 0}] * 3, panel=["city"])
    before = s.clone()
    with pytest.raises(IllegalAction):
        GAME.apply(s, Action("activate", (1,)))
    assert s == before


def test_playing_a_card_pays_its_cost_and_fires_immediate_effects() -> None:
    s = acting(resources=[{"religion": 6, "gold": 0}, {}, {}], display=[["tithe"], [], []])
    tithe = s.display[0][0]
    assert Action("play", (tithe, "religion")) not in GAME.legal_actions(s)
    s = play(s, Action("play", (tithe, "gold")))
    assert res(s, 0, "religion") == 1 and res(s, 0, "gold") == 4 and s.vp[0] == 2
    assert s.in_play[0] == (tithe,) and s.display[0] == ()


def test_a_tithe_may_be_played_without_taking_the_four_tokens() -> None:
    # Rulebook › Tithe Cards: "The Player receives 2 Victory Points. They may also choose one kind of
    # Resource (except Religion Tokens) and receive 4 of them": the tokens are optional.
    s = acting(resources=[{"religion": 5}, {}, {}], display=[["tithe"], [], []])
    tithe = s.display[0][0]
    before = s.res[0]
    legal = GAME.legal_actions(s)
    assert Action("play", (tithe,)) in legal and Action("play", (tithe, "gold")) in legal
    assert GAME.describe(s, Action("play", (tithe,))) == "Put Tithe into play, taking no tokens"
    s = play(s, Action("play", (tithe,)))
    assert s.vp[0] == 2 and s.in_play[0] == (tithe,)
    assert s.res[0] == (*before[:3], 0, *before[4:])  # only the 5 Religion paid, nothing received


def test_war_costs_battle_points_by_player_count() -> None:
    for n, need in ((2, 7), (3, 7), (4, 6), (5, 5)):
        s = acting(
            n, resources=[{"battle_point": need - 1}] + [{}] * (n - 1), display=[["war"]] + [[]] * (n - 1)
        )
        war = s.display[0][0]
        with pytest.raises(IllegalAction, match=f"costs {need} Battle Point"):
            GAME.apply(s, Action("play", (war,)))
        s.res = ((*s.res[0][:6], need), *s.res[1:])
        s = play(s, Action("play", (war,)))
        assert s.vp[0] == 6 and res(s, 0, "battle_point") == 0


def test_reaching_a_multiple_of_five_owes_a_token_of_choice() -> None:
    s = acting(resources=[{"battle_point": 7, "science": 0}, {}, {}], vp=[8, 0, 0], display=[["war"], [], []])
    s = play(s, Action("play", (s.display[0][0],)))
    assert s.vp[0] == 14 and s.dues[0] == 1
    assert GAME.to_move(s) == 0 and set(GAME.legal_actions(s)) == {Action("token", (r,)) for r in RESOURCES}
    with pytest.raises(IllegalAction, match="token"):
        GAME.apply(s, Action("pass"))
    s = play(s, Action("token", ("science",)))
    assert res(s, 0, "science") == 1 and s.dues[0] == 0 and GAME.to_move(s) == 1


def test_city_colour_effect_fires_for_another_card_of_its_colour() -> None:
    s = acting(
        resources=[{"science": 10}, {}, {}],
        in_play=[["City of Scholars"], [], []],
        display=[["university"], [], []],
        leaders=[(4, 1, 1)] * 3,
    )
    s = play(s, Action("play", (s.display[0][0],)))
    assert s.mayors[0] == 5  # University: one more Mayor
    assert res(s, 0, "science") == 10 - 4 + 1 and s.vp[0] == 1


def test_island_needs_one_admiral_per_island_in_play() -> None:
    s = acting(in_play=[["island"], [], []], display=[["island"], [], []], leaders=[(4, 1, 1)] * 3)
    second = s.display[0][0]
    with pytest.raises(IllegalAction, match="needs 2 Admirals"):
        GAME.apply(s, Action("play", (second,)))
    s.admirals = (2, 1, 1)
    s = play(s, Action("play", (second,)))
    assert s.vp[0] == 2


def test_scientific_development_gives_a_token_per_mayor() -> None:
    s = acting(
        resources=[{"science": 5, "gold": 0}, {}, {}],
        display=[["Scientific Development: Bookkeeping"], [], []],
    )
    s = play(s, Action("play", (s.display[0][0],)))
    assert res(s, 0, "gold") == 4 and s.vp[0] == 2


def test_leaders_are_limited_by_the_box() -> None:
    s = acting(
        5,
        leaders=[(4, 2, 2), (4, 2, 2), (4, 3, 1), (4, 3, 1), (4, 3, 1)],
        display=[["inquisition"]] + [[]] * 4,
    )
    s.res = ((0, 0, 0, 9, 0, 0, 0), *s.res[1:])
    assert sum(s.generals) == 13
    s = play(s, Action("play", (s.display[0][0],)))
    assert s.generals[0] == 2  # the box is empty


def test_castle_production_effect_and_two_production_each_round() -> None:
    s = build(
        3, order=(0, 1, 2), in_play=[["castle"], [], []], resources=[{"battle_point": 0, "production": 0}] * 3
    )
    for _ in range(3):
        s = play(s, *[Action("mayor", ("gold",))] * 4, Action("general", (3,)), Action("admiral", (3,)))
    assert s.phase == ACTIONS
    assert res(s, 0, "battle_point") == 1 and res(s, 1, "battle_point") == 0
    assert [res(s, p, "production") for p in range(3)] == [2, 2, 2]


@pytest.mark.parametrize(("players", "discarded"), [(2, 4), (3, 3), (4, 2), (5, 1)])
def test_end_of_round_discards_slides_and_refills(players: int, discarded: int) -> None:
    s = acting(players)
    panel, future, deck = s.panel, s.future, s.deck
    for _ in range(players):
        s = play(s, Action("pass"))
    assert s.phase == PLACE and s.round == 2
    assert s.discards == panel[:discarded]
    expected = (*panel[discarded:], *future, *deck)
    assert (*s.panel, *s.future) == expected[:18]
    assert s.deck == deck[discarded:]


def test_taken_squares_slide_up_before_the_refill() -> None:
    s = acting(2, resources=[{"production": 9}] * 2)
    panel, future = s.panel, s.future
    s = play(s, Action("activate", (7,)))  # whatever it is, the card leaves square 7
    while s.phase == ACTIONS:
        legal = GAME.legal_actions(s)
        s = play(s, Action("pass") if Action("pass") in legal else legal[0])
    rest = tuple(c for i, c in enumerate(panel) if i >= 4 and i != 6)  # 2 players discard squares 1-4
    assert (*s.panel, *s.future)[:13] == (*rest, *future)


def test_the_game_ends_after_round_seven_with_the_final_scoring() -> None:
    s = acting(
        2,
        round=7,
        resources=[dict.fromkeys(RESOURCES, 1), dict.fromkeys(RESOURCES, 0)],
        leaders=[(6, 2, 1), (6, 1, 1)],
        in_play=[["castle", "market", "artist", "art_gallery", "City of Scholars"], ["scientist"]],
        vp=[10, 3],
    )
    s = play(s, Action("pass"), Action("pass"))
    assert s.phase == OVER and GAME.is_over(s) and not GAME.legal_actions(s)
    f = final_scores(s)
    # Castle 2*2+1=5, Market 4 colours, Artist 2 violet cards, City 6 Mayors.
    assert f[0].end_effects == 5 + 4 + 2 + 6
    assert f[0].resources == 3  # 7 resources // 2
    assert f[0].great_persons == 1 and f[1].great_persons == 1
    assert f[0].total == 10 + 17 + 3 + 1
    r = GAME.result(s)
    assert r.winners == (0,) and r.scores[0] == f[0].total


def test_all_else_equal_the_start_player_wins() -> None:
    zero = dict.fromkeys(RESOURCES, 0)
    s = acting(2, round=7, resources=[zero, zero], in_play=[["war"], ["war"]], vp=[5, 5])
    s.order = (1, 0)
    s = play(s, Action("pass"), Action("pass"))
    assert GAME.result(s).winners == (1,)
    s.order = (0, 1)
    assert GAME.result(s).winners == (0,)


def test_most_cards_breaks_a_tie() -> None:
    zero = dict.fromkeys(RESOURCES, 0)
    s = acting(2, round=7, resources=[zero, zero], in_play=[[], ["tithe"]], vp=[5, 5])
    s = play(s, Action("pass"), Action("pass"))
    assert GAME.result(s).winners == (1,)


def test_most_cards_counts_the_cards_in_play_not_the_personal_display() -> None:
    # Rulebook › End of the Game: "Activate every End-of-Game Effect on the Cards in play", then the
    # tie-break "The Realm with the most Cards wins".  Read as the Great Person table is: the cards in
    # play; a card still in the Personal Display was never paid for (designed reading, docs).
    zero = dict.fromkeys(RESOURCES, 0)
    s = acting(
        2,
        round=7,
        resources=[zero, zero],
        in_play=[["war", "tithe"], ["war"]],
        display=[[], ["castle", "market"]],
        vp=[5, 5],
    )
    s.order = (1, 0)  # seat 1 would win the last tie-break
    s = play(s, Action("pass"), Action("pass"))
    f = final_scores(s)
    assert f[0].total == f[1].total and (f[0].cards, f[1].cards) == (2, 1)
    assert GAME.result(s).winners == (0,)


def test_castles_then_leaders_break_a_tie_of_cards() -> None:
    zero = dict.fromkeys(RESOURCES, 0)
    s = acting(
        2, round=7, resources=[zero, zero], in_play=[["castle"], ["war"]], vp=[5, 5], leaders=[(6, 0, 0)] * 2
    )
    s.order = (1, 0)
    s = play(s, Action("pass"), Action("pass"))
    f = final_scores(s)
    assert f[0].total == f[1].total and f[0].cards == f[1].cards
    assert GAME.result(s).winners == (0,)  # one Castle beats none, though seat 1 is the start player
    s = acting(2, round=7, resources=[zero, zero], vp=[5, 5], leaders=[(6, 1, 1), (6, 2, 1)])
    s = play(s, Action("pass"), Action("pass"))
    assert GAME.result(s).winners == (1,)  # more leaders


def test_placements_stay_secret_until_every_seat_has_placed() -> None:
    s = build(3, order=(0, 1, 2))
    s = play(s, Action("mayor", ("gold",)), Action("mayor", ("science",)))
    for seat in (None, 1, 2):
        assert GAME.view(s, seat)["realms"][0]["placement"] is None
    shown = GAME.view(s, 0)["realms"][0]["placement"]
    assert [p["text"] for p in shown] == ["Mayor on Gold", "Mayor on Science"]
    s = play(
        s,
        Action("mayor", ("gold",)),
        Action("mayor", ("gold",)),
        Action("general", (2,)),
        Action("admiral", (3,)),
    )
    assert GAME.view(s, 1)["realms"][0]["placement"] is None and GAME.view(s, 1)["realms"][0]["placed"]
    rng = random.Random(1)
    views = {str(GAME.view(GAME.sample_state(s, 1, rng), 1)) for _ in range(5)}
    assert len(views) == 1
    others = {GAME.sample_state(s, 1, rng).placing[0] for _ in range(20)}
    assert len(others) > 1  # the sample redraws seat 0's hidden placement
    for _ in range(2):
        s = play(s, *[Action("mayor", ("culture",))] * 4, Action("general", (5,)), Action("admiral", (5,)))
    assert GAME.view(s, 1)["realms"][0]["placement"][-1] == {
        "leader": "admiral",
        "at": 3,
        "combat": 1,
        "text": "Admiral on area 3",
    }


def test_cancel_takes_back_the_whole_placement() -> None:
    s = build(3, order=(0, 1, 2))
    t = play(s, Action("mayor", ("gold",)), Action("mayor", ("science",)), Action("cancel"))
    assert t == s


def test_sample_state_reshuffles_only_the_unseen_deck() -> None:
    s = GAME.new(GAME.config(4), 3)
    t = GAME.sample_state(s, 0, random.Random(5))
    assert sorted(t.deck) == sorted(s.deck) and t.deck != s.deck
    assert t.panel == s.panel and t.future == s.future


def test_every_action_has_words_and_the_text_view_shows_the_table() -> None:
    s = GAME.new(GAME.config(3), 4)
    rng = random.Random(2)
    kinds: set[str] = set()
    while not GAME.is_over(s):
        legal = GAME.legal_actions(s)
        for a in legal:
            label = GAME.describe(s, a)
            assert label and label != str(a), a
            kinds.add(a.kind)
        text = GAME.render_text(s, GAME.to_move(s))
        assert "Current Events Panel" in text and "Turn order" in text
        s = GAME.apply(s, rng.choice(legal))
    assert {"extra", "mayor", "general", "admiral", "activate", "pass", "cancel"} <= kinds
    assert "FINAL" in GAME.render_text(s, None)


def test_areas_nine_and_ten_only_with_five_players() -> None:
    s = build(4, order=(0, 1, 2, 3))
    s = play(s, *[Action("mayor", ("gold",))] * 4)
    with pytest.raises(IllegalAction, match="areas 1–8 only"):
        GAME.apply(s, Action("general", (9,)))
    s = build(5, order=(0, 1, 2, 3, 4))
    s = play(s, *[Action("mayor", ("gold",))] * 4, Action("general", (9,)), Action("admiral", (10,)))
    assert s.committed[0]


def test_a_passed_player_still_receives_a_majority_card() -> None:
    s = acting(resources=[{"production": 3, "raw_material": 1}, {"raw_material": 9}, {}], panel=["castle"])
    s.passed = (False, True, False)
    s = play(s, Action("activate", (1,)))
    assert CARDS[s.display[1][0]].type == "castle"


def test_sample_state_completes_a_committed_rivals_placement() -> None:
    s = build(2, order=(0, 1))
    s = play(s, *[Action("mayor", ("gold",))] * 4, Action("general", (1,)), Action("admiral", (2,)))
    s = play(s, Action("buffer", (3,)), Action("buffer", (3,)))
    assert s.committed[0]
    for seed in range(10):
        t = GAME.sample_state(s, 1, random.Random(seed))
        assert len(t.placing[0]) == 8 and t.placing[1] == s.placing[1] == ()


def test_start_player_ties_keep_the_previous_turn_order_not_the_seat_order() -> None:
    # Seats 3 and 1 tie on Production; seat 3 was ahead of seat 1 on the Turn Order Track.
    s = build(4, order=(3, 0, 1, 2), resources=[{"production": p} for p in (1, 4, 0, 4)])
    for _ in range(4):
        s = play(s, *[Action("mayor", ("gold",))] * 4, Action("general", (1,)), Action("admiral", (1,)))
    assert [res(s, p, "production") for p in range(4)] == [3, 6, 2, 6]
    assert s.order == (3, 1, 0, 2)


def test_auction_bids_go_clockwise_round_the_table_not_in_turn_order() -> None:
    s = acting(resources=[{"gold": 3}] * 3, panel=["realm_leader"])
    s.order = (0, 2, 1)
    s = play(s, Action("activate", (1,)), Action("bid", (1,)))
    assert GAME.to_move(s) == 1  # seat 1 sits to seat 0's left, though seat 2 acts next in turn order


def test_bids_and_tokens_out_of_place_are_refused_naming_the_rule() -> None:
    s = acting()
    with pytest.raises(IllegalAction, match="Auction: no auction is being bid for") as e:
        GAME.apply(s, Action("bid", (1,)))
    assert e.value.rule == "Medieval Realms › Auction"
    with pytest.raises(IllegalAction, match="Victory Point Track: you are owed no token") as e:
        GAME.apply(s, Action("token", ("gold",)))
    assert e.value.rule == "Medieval Realms › Victory Point Track"
