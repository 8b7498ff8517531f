"""Chapter 5, the start of the game and building the battle deck (Начало игры и составление Боевой колоды).

DESIGN.md §5: a die roll decides who chooses the first player, and the order then stays fixed; each hero
starts with its base touching its owner's table edge; the battle deck is shuffled and the top 4 cards
are the opening hand.  Designed (§ 5): every player starts with 4 prosperity and two terrain cards dealt
from the shuffled terrain deck; the first player draws no card on the very first turn.
Rulebook › 10 "Experienced Architect": a separate building deck stacked in the order the player chooses
before the game, never reordered; two building cards drawn before the start, one at each start of turn.
"""

from __future__ import annotations

from ludorum.engine import Config, ConfigError
from ludorum.engine import rng as rngmod
from ludorum.engine.i18n import T, Text, join
from ludorum.engine.options import Choice
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.content import (
    DECK_MAX,
    Content,
    Deck,
    base_content,
    deck_problems,
    expand,
    faction_name,
)
from ludorum.games.signum.state import Model, SignumState, set_item

OPENING_HAND = 4
START_PROSPERITY = 4
"""Designed (§ 5).  4 since rules version 6, so that the first player, too, can raise City Walls (cost 6) on
its first turn: with 3, only the later players could (3 + their bonus + 2 income), and under the search
bots' guide the first player won 16 % of two-player games (heuristic 47 %); with 4, 49 % (heuristic 48 %;
docs/signum.md › Balance, "Rules version 6")."""
TERRAIN_DEALT = 2
DEFAULT_DECKS = ("empire_dawn", "vallor_muskets", "empire_wings", "vallor_steam")


def parse_deck(text: str, players: int = 2) -> tuple[str, tuple[str, ...]]:
    """A deck option: a starter deck id, or ``"hero: card, card*2, ..."`` for a deck of one's own.

    A starter deck is played as its ``players``-player form (:meth:`Deck.cards_for`: designed swaps for
    three and four players, issue 14's balance); a deck of one's own is played as written."""
    decks = base_content().decks
    if text in decks:
        return decks[text].hero, decks[text].cards_for(players)
    hero, sep, rest = text.partition(":")
    if not sep:
        raise ConfigError(
            T(
                "{text} is neither a starter deck ({decks}) nor 'hero: card, card*2, ...'",
                text=repr(text),
                decks=", ".join(decks),
            )
        )
    items = [c for c in rest.split(",") if c.strip()]
    for item in items:  # bound every count before anything is expanded (a stranger may write card*10**15)
        name, star, times = item.partition("*")
        count = times.strip()
        small = count.isascii() and count.isdigit() and len(count) <= 3
        if star and not (small and 1 <= int(count) <= DECK_MAX):
            raise ConfigError(
                T(
                    "copies of {card}: {count} is not a number of copies from 1 to {max}",
                    card=repr(name.strip()),
                    count=repr(count[:20]),
                    max=DECK_MAX,
                )
            )
    return hero.strip(), expand(items)


def deck_choices() -> tuple[Choice, ...]:
    """The starter decks as an option's choices: the deck's name, its faction and its hero."""
    content = base_content()
    return tuple(Choice(d.id, _deck_label(content, d)) for d in content.decks.values())


def _deck_label(content: Content, deck: Deck) -> Text:
    """A starter deck's name, faction and hero, and the cards its designed swaps change with more
    players (Rulebook › 10 in the rules pages), so a player picking it for a larger game is told."""
    name = T(
        "{deck} ({faction}, hero {hero})",
        deck=T(deck.name_en),
        faction=faction_name(deck.faction),
        hero=content.cards[deck.hero].name,
    )
    if not deck.swaps:
        return name
    changes = [
        T("with {n} players: {swaps}", n=players, swaps=join(", ", _swapped(content, swap)))
        for players, swap in sorted(deck.swaps.items())
    ]
    return T("{deck}; {changes}", deck=name, changes=join("; ", changes))


def _swapped(content: Content, swap: dict[str, str]) -> list[Text]:
    """One player count's swaps as a player reads them: the card that comes in for the card that leaves."""
    return [
        T("{card_in} for {card_out}", card_in=content.cards[new].name, card_out=content.cards[old].name)
        for old, new in swap.items()
    ]


def deck_of(config: Config, seat: int) -> tuple[str, tuple[str, ...]]:
    """The hero and battle deck a seat plays with."""
    return parse_deck(str(config.option(f"deck{seat}", DEFAULT_DECKS[seat])), config.players)


def check_decks(config: Config) -> None:
    """Refuse invalid decks, listing every reason (DESIGN.md §5 deck-building rules)."""
    problems = []
    for seat in range(config.players):
        hero, cards = deck_of(config, seat)
        for p in deck_problems(base_content().cards, hero, cards):
            problems.append(T("deck of player {n}: {problem}", n=seat + 1, problem=p))
    if problems:
        raise ConfigError(join("; ", problems))


def edge_point(seat: int, along: float, r: float) -> tuple[float, float]:
    """A point with the base touching the seat's table edge: P1 south, P2 north, P3 west, P4 east."""
    if seat == 0:
        return along, r
    if seat == 1:
        return along, 60.0 - r
    if seat == 2:
        return r, along
    return 60.0 - r, along


HERO_ALONG: dict[int, tuple[float, ...]] = {
    2: (30.0, 30.0),
    3: (50.0, 50.0, 30.0),
    4: (24.0, 36.0, 24.0, 36.0),
}
"""Designed (§ 10, issue 14): where along its own table edge each hero starts, in cm (x for the south and
north edges, y for the west and east ones).  Two players: the centres.  Three players: P3 at the centre of
the west edge and P1, P2 towards the east end of theirs, so that the three heroes start nearly equally far
apart (55 cm between P1 and P2, 54.9 cm from each to P3); from the centres P3 started 39 cm from both
others, flanked, and won 4.4 % of heuristic-bot games.  Four players: each hero 6 cm off its centre
towards one neighbour, P1 and P3 towards the south-west corner, P2 and P4 towards the north-east, so every
hero has one nearest rival (30 cm) and two farther ones (47 and 56 cm) and the four places are alike; from
the centres every hero had two rivals at the same 39 cm."""


def building_pool(seat_faction: str) -> list[str]:
    """The building cards a player of this faction owns (basic ones and its faction's unique ones)."""
    return [
        c.id for c in cr.CARDS.values() if c.kind == "building" and c.faction in ("neutral", seat_faction)
    ]


def new_state(config: Config, seed: int) -> SignumState:
    """Set up: shuffle decks, deal opening hands and terrain, put the heroes on their table edges."""
    r = rngmod.seed_state(seed)
    n = config.players
    heroes, decks, hands = [], [], []
    for seat in range(n):
        hero, cards = deck_of(config, seat)
        heroes.append(hero)
        order, r = rngmod.shuffled(r, cards)
        hands.append(order[:OPENING_HAND])
        decks.append(order[OPENING_HAND:])
    terrain_deck, r = rngmod.shuffled(r, [c.id for c in cr.CARDS.values() if c.kind == "terrain"])
    models = []
    for seat, hero in enumerate(heroes):
        x, y = edge_point(seat, HERO_ALONG[n][seat], cr.CARDS[hero].base / 20.0)
        models.append(Model(seat, hero, seat, x, y))
    return SignumState(
        config=config,
        rng=r,
        phase="roll_first",
        turn=0,
        active=0,
        first=-1,
        prosperity=(START_PROSPERITY,) * n,
        heroes=tuple(heroes),
        models=tuple(models),
        next_uid=n,
        terrain=(),
        terrain_hands=tuple(terrain_deck[i * TERRAIN_DEALT : (i + 1) * TERRAIN_DEALT] for i in range(n)),
        city=((),) * n,
        graveyard=((),) * n,
        deck_sizes=tuple(len(d) for d in decks),
        kills=(0,) * n,
        overlong=(1,) * n,
        built=False,
        building_hands=((),) * n,
        out=(False,) * n,
        hands=tuple(hands),
        tactics=((),) * n,
        building_decks=((),) * n,
        decks=tuple(decks),
    )


LATER_SEAT_BONUS: dict[int, int] = {2: 3, 3: 2, 4: 1}
"""Designed (§ 5): each player after the first starts with this much more prosperity per place in the turn
order, to offset the first player's tempo (two-player bot games showed the first player winning about 3
games in 4 without it).  With 4 players 3 per place is too much (issue 14: the first player won 14.8 % of
four-player games, the fourth started with 12 prosperity against 3; with 2 per place 19.1 %): 1 there.
With 3 players 2 per place since rules version 6 (a start of 4, :data:`START_PROSPERITY`): with 3 the
first player won 27.0 % of three-player heuristic games and 27.8 % of the guide's, with 2 29.9 % and
31.4 % (docs/signum.md › Balance, "Rules version 6")."""


def compensate(s: SignumState) -> None:
    """Give the players after the first their starting prosperity bonus."""
    n = s.players
    bonus = LATER_SEAT_BONUS[n]
    s.prosperity = tuple(p + bonus * ((seat - s.first) % n) for seat, p in enumerate(s.prosperity))


def stack_options(s: SignumState, seat: int) -> list[str]:
    """Buildings the seat has still to put into its Experienced Architect deck."""
    pool = building_pool(cr.CARDS[s.heroes[seat]].faction)
    return [b for b in pool if b not in s.building_decks[seat]]


def stack(s: SignumState, b: str) -> bool:
    """Put the next building card under the seat's building deck; say whether stacking is over."""
    seat = s.active
    s.building_decks = set_item(s.building_decks, seat, (*s.building_decks[seat], b))
    if stack_options(s, seat):
        return False
    nxt = (seat + 1) % s.players
    if nxt != s.first:
        s.active = nxt
        return False
    for p in range(s.players):  # Rulebook › 10: take the two top building cards before the game
        s.building_hands = set_item(s.building_hands, p, s.building_decks[p][:2])
        s.building_decks = set_item(s.building_decks, p, s.building_decks[p][2:])
    return True
