"""The 3- and 4-player games (designed, Rulebook › 10 lists them by title only): free-for-all with every
hero on its own table edge, and 2 against 2 (variant ``teams``)."""

from __future__ import annotations

import math

import pytest

from ludorum.engine import Action, ConfigError
from ludorum.engine.i18n import T, say
from ludorum.games.signum import GAME
from ludorum.games.signum.content import base_content
from ludorum.games.signum.setup import START_PROSPERITY

from .helpers import THREE_HEROES, build, hurt, m, melee, model, p3_hero_killed, play, to_activation


def test_heroes_stand_on_their_own_edges() -> None:
    s = GAME.new(GAME.config(4), 2)
    spots = {h.owner: (h.x, h.y) for h in s.models}
    assert spots == {0: (24.0, 2.5), 1: (36.0, 57.5), 2: (2.5, 24.0), 3: (57.0, 36.0)}
    assert len(s.hands) == 4 and all(len(h) == 4 for h in s.hands)
    s = GAME.new(GAME.config(3), 2)
    assert {h.owner: (h.x, h.y) for h in s.models} == {0: (50.0, 2.5), 1: (50.0, 57.5), 2: (2.5, 30.0)}


def distances(players: int) -> dict[tuple[int, int], float]:
    s = GAME.new(GAME.config(players), 2)
    at = {h.owner: (h.x, h.y) for h in s.models}
    return {(a, b): math.dist(at[a], at[b]) for a in at for b in at if a < b}


def test_three_heroes_start_nearly_equally_far_apart() -> None:
    """Designed (issue 14): no hero starts flanked by the two others (from the edges' centres P3 did)."""
    d = distances(3)
    assert max(d.values()) - min(d.values()) < 1.0


def test_four_heroes_each_start_with_one_nearest_rival_in_like_places() -> None:
    """Designed (issue 14): P1 and P3, P2 and P4 are each other's nearest rivals; every hero's distances to
    the three others are the same (to a base radius), so no place is nearer to more rivals than another."""
    d = distances(4)
    near = {a: min((b for b in range(4) if b != a), key=lambda b: d[min(a, b), max(a, b)]) for a in range(4)}
    assert near == {0: 2, 1: 3, 2: 0, 3: 1}
    spreads = [sorted(d[min(a, b), max(a, b)] for b in range(4) if b != a) for a in range(4)]
    for k in range(3):
        assert max(x[k] for x in spreads) - min(x[k] for x in spreads) < 1.0


@pytest.mark.parametrize(("players", "bonus"), [(2, 3), (3, 2), (4, 1)])
def test_later_players_start_with_a_prosperity_bonus_per_place(players: int, bonus: int) -> None:
    s = GAME.new(GAME.config(players), 5)
    s = GAME.apply_chance(s, Action("first_die", (1,)))
    s = GAME.apply(s, Action("first", (1,)))
    # the first player (P2) has also collected its first income (2); the others start 4 + bonus per place
    assert START_PROSPERITY == 4
    assert s.prosperity[1] == 4 + 2
    assert [s.prosperity[(1 + k) % players] for k in range(1, players)] == [
        4 + bonus * k for k in range(1, players)
    ]


def test_turns_go_round_the_table() -> None:
    s = build(players=3, models=[])
    order = []
    for _ in range(4):
        s = to_activation(play(s, ("end_turn",)))
        order.append(s.active)
    assert order == [1, 2, 0, 1]


def test_a_fallen_hero_leaves_the_game_and_is_skipped() -> None:
    s = p3_hero_killed(m("troll", 2, 45, 45))
    assert not GAME.is_over(s) and s.out == (False, False, True)
    assert all(x.owner != 2 for x in s.models) and "troll" in s.graveyard[2]
    s = to_activation(play(s, ("end_turn",)))
    assert s.active == 1
    s = to_activation(play(s, ("end_turn",)))
    assert s.active == 0


def test_last_hero_standing_wins_free_for_all() -> None:
    s = build(
        players=3,
        models=[
            m("orc_berserker", 0, 30, 30),
            m("burgomaster_orvin", 1, 30, 34, wounds=hurt("burgomaster_orvin", 1)),
        ],
    )
    s = play(s, ("end_turn",))
    s.out = (False, False, True)
    s = to_activation(s)
    # P2 attacks nobody; P1's orc kills P2's hero on P1's turn.
    s = to_activation(play(s, ("end_turn",)))
    assert s.active == 0
    s = melee(
        s, model(s, "orc_berserker").uid, model(s, "burgomaster_orvin").uid, 3, 0, {"aa": "shield"}, "axe"
    )
    assert GAME.is_over(s) and GAME.result(s).winners == (0,)


def test_over_long_game_pays_every_opponent() -> None:
    s = build(
        players=3,
        models=[],
        decks=(["tithe"] * 5, [], ["tithe"] * 5),
        hands=([], [], []),
        prosperity=(0, 0, 0),
    )
    s = play(s, ("end_turn",))
    assert s.prosperity[0] == 1 and s.prosperity[2] == 1


def test_two_against_two_partners_are_friends_and_share_victory() -> None:
    with pytest.raises(ConfigError, match="4 players"):
        GAME.config(3, variants=["teams"])
    s = build(
        players=4,
        variants=["teams"],
        models=[
            m("orc_berserker", 0, 30, 30),
            m("sellsword", 2, 30, 33),
            m("burgomaster_orvin", 1, 34, 30, wounds=hurt("burgomaster_orvin", 1)),
        ],
    )
    orc = model(s, "orc_berserker").uid
    s1 = play(s, ("activate", orc))
    targets = {a.args[0] for a in GAME.legal_actions(s1) if a.kind == "melee"}
    assert targets == {model(s, "burgomaster_orvin").uid}
    # P4 has already left the game: its hero fell earlier.
    s.models = tuple(x for x in s.models if x.owner != 3)
    s.out = (False, False, False, True)
    s = melee(s, orc, model(s, "burgomaster_orvin").uid, 3, 0, {"aa": "shield"}, "axe")
    assert GAME.is_over(s) and "P2 was killed" in s.reason
    assert GAME.result(s).winners == (0, 2)


def test_entry_on_a_side_edge() -> None:
    s = build(players=4, models=[], hands=([], [], ["musketeer"], []), prosperity=(5, 5, 5, 5), active=2)
    s = play(s, Action("recruit", ("musketeer", 0)))
    assert (s.models[-1].x, s.models[-1].y) == (1.5, 6.0)


def test_a_player_falling_in_its_own_turn_passes_the_turn_on() -> None:
    s = build(
        players=3,
        heroes=THREE_HEROES,
        models=[
            m("marshal_aurelian", 0, 30, 30, wounds=hurt("marshal_aurelian", 1)),
            m("orc_berserker", 2, 30, 34),
        ],
    )
    s = melee(
        s, model(s, "marshal_aurelian").uid, model(s, "orc_berserker").uid, 4, 3, {"da": "shield"}, "bull"
    )
    assert s.out[0] and not GAME.is_over(s) and s.active == 1


def nearest_targets(seating: dict[str, str]) -> list[int]:
    """How many rivals have each seat's hero as their nearest enemy hero at the start (centre to centre,
    as the heuristic bot measures)."""
    s = GAME.new(GAME.config(3, **seating), 1)
    at = {h.owner: (h.x, h.y) for h in s.models}
    near = [min((b for b in at if b != a), key=lambda b: math.dist(at[a], at[b])) for a in at]
    return [near.count(seat) for seat in range(3)]


def test_gryphon_lord_kassian_is_seldom_both_rivals_nearest_target_with_three_players() -> None:
    """Rules version 3 (issue 14): on a 60 mm base his centre stood 0.5 cm nearer to both rivals, which made
    him both rivals' nearest target in 6 of his 9 seatings (Wings of the Gryphon won 22–26 %); on 50 mm, in
    1, like Marshal Aurelian and Burgomaster Orvin."""
    from ludorum.games.signum.facts import FACTS

    ganged: dict[str, int] = {}
    seated: dict[str, int] = {}
    for seating in (dict(x) for x in FACTS.setups(GAME.config(3))):
        targets = nearest_targets(seating)
        for seat in range(3):
            deck = str(seating[f"deck{seat}"])
            ganged[deck] = ganged.get(deck, 0) + (targets[seat] == 2)
            seated[deck] = seated.get(deck, 0) + 1
    # The lab seats each deck in 18 seatings (every order of every trio): 1 in 9 is 2 of them.
    assert all(ganged[d] * 9 == seated[d] for d in ("empire_wings", "empire_dawn", "vallor_muskets")), ganged


@pytest.mark.parametrize("players", [3, 4])
def test_every_player_rolls_for_who_chooses_and_any_player_may_go_first(players: int) -> None:
    """DESIGN.md §5: a die roll decides who chooses the first player.  With three or four players every
    player rolls (each as likely to win) and the winner may choose any player; only seats 0 and 1 could
    win or start before, so P3 and P4 never moved first (rules version 4)."""
    s = GAME.new(GAME.config(players), 3)
    outcomes = GAME.chance_outcomes(s)
    assert outcomes == [(Action("first_die", (seat,)), 1 / players) for seat in range(players)]
    s = GAME.step(s, Action("first_die", (players - 1,)))
    assert GAME.to_move(s) == players - 1
    assert GAME.legal_actions(s) == [Action("first", (seat,)) for seat in range(players)]
    s = GAME.step(s, Action("first", (players - 1,)))
    assert s.first == s.active == players - 1


@pytest.mark.parametrize(
    ("players", "deck", "card_in", "card_out"),
    [
        (3, "vallor_steam", "ogre_brute", "dwarf_ironbeard"),
        (3, "vallor_muskets", "sabotage", "brigandine"),
        (4, "vallor_muskets", "sabotage", "brigandine"),
        (4, "vallor_steam", "street_ambush", "sabotage"),
    ],
)
def test_a_starter_deck_plays_its_designed_swaps_at_their_player_count_only(
    players: int, deck: str, card_in: str, card_out: str
) -> None:
    """Designed (issue 14, rules versions 5 and 7): with 3 and 4 players a starter deck may change a few cards
    (``swaps`` in data/decks.toml); a two-player game deals the deck as written."""

    def dealt(n: int) -> set[str]:
        s = GAME.new(GAME.config(n, deck0=deck), 7)
        return {*s.hands[0], *s.decks[0]}

    assert card_in in dealt(players) and card_out not in dealt(players)
    assert card_out in dealt(2) and card_in not in dealt(2)


def test_the_lobby_names_each_starter_decks_swaps_beside_its_choice() -> None:
    """A player picking a starter deck for three or four players is told which cards change there: the
    deck option's choice names every card that comes in, the card it replaces and the player count, in
    both languages; a deck without swaps reads as before."""
    content = base_content()
    (option,) = (o for o in GAME.options if o.name == "deck0")
    labels = {c.value: c.label for c in option.choices}
    for deck in content.decks.values():
        english, russian = say(labels[deck.id], "en"), say(labels[deck.id], "ru")
        assert english.startswith(T(deck.name_en).render("en"))
        if not deck.swaps:
            assert ";" not in english
        for players, swap in deck.swaps.items():
            assert f"with {players} players:" in english and f"с {players} игроками:" in russian
            for old, new in swap.items():
                for lang, text in (("en", english), ("ru", russian)):
                    assert say(content.cards[new].name, lang) in text
                    assert say(content.cards[old].name, lang) in text
    assert any(deck.swaps for deck in content.decks.values())
