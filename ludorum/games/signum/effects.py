"""Wounds, deaths, drawing, prosperity gained and triggered effects: tactics, First Word and Last Word.

Rulebook › Chapter 9 (the over-long game) governs drawing from an empty battle deck; DESIGN.md §5 says
tactic cards are played face down, fire when their condition occurs and then go to the Graveyard.
Rulebook › 8: fifty-one prosperity wins — :func:`gain` notes the moment it is reached.

Effects that trigger at the same moment resolve one at a time, the active player's first, then in turn
order (designed, docs/signum.md "Audit of issue 14"); once a player has reached 51 nothing more resolves.
"""

from __future__ import annotations

from collections.abc import Sequence

from ludorum.engine.i18n import T
from ludorum.games.signum import creatures as cr
from ludorum.games.signum.glossary import term
from ludorum.games.signum.state import Model, SignumState, player, set_item

MAX_TACTICS = 3
"""Designed (§ 4.2): at most three face-down tactics at a time."""

PROSPERITY_TO_WIN = 51
"""Rulebook › 8: "accumulating fifty-one units of prosperity"."""


def decided(s: SignumState) -> bool:
    """Whether the game is won already: over, or a player has reached 51 prosperity during this step."""
    return bool(s.reached) or s.phase == "over"


def gain(s: SignumState, seats: Sequence[int], amount: int) -> None:
    """The seats gain ``amount`` prosperity at one moment; any it lifts to 51 has won at that moment.

    Rulebook › 8: a player wins "by accumulating fifty-one units of prosperity" — the moment it has them,
    so a later gain in the same step (its own draw paying the opponent, another Last Word) cannot overtake
    it; nothing is gained after that.  Only one payment to several players at once (the over-long game with
    3–4 players) can lift two at the same moment: the tie-breaks of chapter 9 decide among them.  A player
    who has left a 3–4 player game gains nothing (designed § 10).
    """
    if amount <= 0 or decided(s):
        return
    live = [p for p in seats if not s.out[p]]
    for p in live:
        s.add_prosperity(p, amount)
    rich = tuple(p for p in live if s.prosperity[p] >= PROSPERITY_TO_WIN)
    if rich:
        s.reached = rich


def draw(s: SignumState, seat: int, n: int = 1) -> None:
    """Draw ``n`` cards.  Rulebook › 9 The over-long game: each time a player whose battle deck is
    empty must draw, the opponent gains prosperity — 1 the first time, then 2, 4, 8 … doubling.

    Nothing is drawn once the game is won, nor by a player who has left (designed § 10: its hand is in its
    Graveyard, and an empty deck pays nobody).
    """
    for _ in range(n):
        if decided(s) or s.out[seat]:
            return
        deck = s.decks[seat]
        if deck:
            s.hands = set_item(s.hands, seat, (*s.hands[seat], deck[0]))
            s.decks = set_item(s.decks, seat, deck[1:])
            s.deck_sizes = set_item(s.deck_sizes, seat, len(deck) - 1)
        else:
            due = s.overlong[seat]
            s.overlong = set_item(s.overlong, seat, due * 2)
            s.say(
                T(
                    "{seat} must draw from an empty battle deck: its opponents gain {n} prosperity",
                    seat=player(seat),
                    n=due,
                )
            )
            # Designed for 3–4 players: every opponent still in the game gains, all at once.
            gain(s, s.opponents(seat), due)


def fire_tactic(s: SignumState, seat: int, trigger: str) -> int:
    """Fire seat's first face-down tactic with this trigger; return its amount (-1 if none fired).

    The tactic is revealed and goes to the Graveyard (DESIGN.md §5).  None fires once the game is won.
    """
    if decided(s):
        return -1
    for i, t in enumerate(s.tactics[seat]):
        c = cr.CARDS[t]
        if c.trigger == trigger:
            s.tactics = set_item(s.tactics, seat, (*s.tactics[seat][:i], *s.tactics[seat][i + 1 :]))
            s.graveyard = set_item(s.graveyard, seat, (*s.graveyard[seat], t))
            s.say(T("{seat} reveals the tactic {card}", seat=player(seat), card=c.name))
            if c.effect == "prosperity":
                gain(s, (seat,), c.amount)
            elif c.effect == "draw":
                draw(s, seat, c.amount)
            return c.amount
    return -1


def fire_opponents(s: SignumState, seat: int, trigger: str) -> list[int]:
    """Fire the matching tactic of each opponent of ``seat``, in turn order from the seat (designed); the
    amounts that fired."""
    fired = []
    for p in s.opponents(seat):
        amount = fire_tactic(s, p, trigger)
        if amount >= 0:
            fired.append(amount)
    return fired


def wound(s: SignumState, uid: int, n: int, by: int = -1) -> None:
    """Put ``n`` wound markers on a model, dealt by the side of seat ``by`` (-1: by no side); deaths are
    settled by :func:`bury_dead`.

    The model remembers who dealt its latest wound: if that wound kills it, the kill is that side's
    (Rulebook › 9, "destroyed the opponent's characters") — a wound it dealt itself, or no one did, is
    nobody's kill, whoever wounded it before.
    """
    if n <= 0:
        return
    m = s.find(uid)
    if m is None:
        return
    s.put(m.but(wounds=m.wounds + n, hit_by=by))
    if cr.is_hero(s, m):
        fire_tactic(s, m.owner, "hero_wounded")


def heal(s: SignumState, uid: int, n: int) -> None:
    """Remove up to ``n`` wound markers."""
    m = s.find(uid)
    if m is not None and n > 0:
        s.put(m.but(wounds=max(0, m.wounds - n)))


def word(s: SignumState, m: Model, which: str) -> None:
    """Resolve First Word (on entering the Battlefield) or Last Word (on going to the Graveyard).

    Rulebook › Glossary › First Word / Last Word: triggered properties; the effects are designed.
    """
    p = cr.CARDS[m.card].propmap.get(which)
    if p is None or decided(s):
        return
    seat = m.owner
    if p.arg == "prosperity":
        gain(s, (seat,), p.x)
    elif p.arg == "draw":
        draw(s, seat, p.x)
    elif p.arg == "heal_hero":
        hero = s.hero_of(seat)
        if hero is not None:
            heal(s, hero.uid, p.x)
    elif p.arg == "wound_contact":
        # Dealt by the side commanding the creature (its controller's under Control X), enemies by turn rank.
        for o in sorted(cr.enemies_in_contact(s, m, include_hidden=True), key=lambda o: s.turn_rank(o.owner)):
            wound(s, o.uid, p.x, m.side())
    s.say(T("{name}: {word}", name=cr.CARDS[m.card].name, word=term(which)))


def bury_dead(s: SignumState) -> None:
    """Move every model whose wounds reach its health to the Graveyard, with its Last Word.

    Rulebook › 8: a hero whose wound markers equal its health is killed; the game ends only after every
    effect the death triggered has resolved (Last Word, tactics), which this loop does before returning.
    Models that fall together are buried the active player's first, then in turn order (designed), so their
    effects resolve in that order.
    """
    while True:
        dead = [m for m in s.models if m.wounds >= cr.health(m)]
        if not dead:
            return
        dead.sort(key=lambda m: s.turn_rank(m.owner))
        for m in dead:
            if s.find(m.uid) is None:
                continue
            if m.hit_by >= 0 and s.hostile(m.hit_by, m.owner):  # Rulebook › 9: enemy characters destroyed
                s.kills = set_item(s.kills, m.hit_by, s.kills[m.hit_by] + 1)
            s.say(T("{name} of {seat} falls", name=cr.CARDS[m.card].name, seat=player(m.owner)))
            to_graveyard(s, m)
            if m.card != s.heroes[m.owner]:
                fire_tactic(s, m.owner, "character_died")


def to_graveyard(s: SignumState, m: Model) -> None:
    """Move a model from the Battlefield to its owner's Graveyard (with its relics), then its Last Word.

    Rulebook › Glossary › Last Word: "performed when the character is moved from the Battlefield to the
    Graveyard" — for any reason; it resolves with the model where it stood.
    """
    owner = m.owner
    s.models = tuple(o for o in s.models if o.uid != m.uid)
    s.graveyard = set_item(s.graveyard, owner, (*s.graveyard[owner], m.card, *m.relics))
    s.models = (*s.models, m)
    word(s, m, "last_word")
    s.models = tuple(o for o in s.models if o.uid != m.uid)


def leave(s: SignumState, seat: int) -> None:
    """A player whose hero fell leaves a 3–4 player game (designed § 10).

    Its hand and face-down tactics go to its Graveyard, Control it holds lapses, and each of its creatures
    goes to the Graveyard as any character leaving the Battlefield does — with its Last Word (Rulebook ›
    Glossary).  It is out first, so it gains and draws nothing more; the creatures are not "destroyed" by
    anyone (Rulebook › 9 counts no kill).  Deaths the Last Words cause are then settled.
    """
    s.out = set_item(s.out, seat, True)
    s.graveyard = set_item(s.graveyard, seat, (*s.graveyard[seat], *s.hands[seat], *s.tactics[seat]))
    s.hands = set_item(s.hands, seat, ())
    s.tactics = set_item(s.tactics, seat, ())
    s.models = tuple(m.but(controller=-1) if m.controller == seat else m for m in s.models)
    s.say(T("{seat} leaves the game", seat=player(seat)))
    for m in [m for m in s.models if m.owner == seat]:
        if s.find(m.uid) is not None:
            to_graveyard(s, m)
    bury_dead(s)
