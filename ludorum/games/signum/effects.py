"""Wounds, deaths, drawing and triggered effects: tactics, First Word and Last Word.

Rulebook › Chapter 9 (the over-long game) governs drawing from an empty battle deck; DESIGN.md §5 says
tactic cards are played face down, fire when their condition occurs and then go to the Graveyard.
"""

from __future__ import annotations

from ludorum.games.signum import creatures as cr
from ludorum.games.signum.state import Model, SignumState, set_item

MAX_TACTICS = 3
"""Designed (§ 4.2): at most three face-down tactics at a time."""


def draw(s: SignumState, seat: int, n: int = 1) -> None:
    """Draw ``n`` cards.  Rulebook › 9 The over-long game: each time a player whose battle deck is
    empty must draw, the opponent gains prosperity — 1 the first time, then 2, 4, 8 … doubling."""
    for _ in range(n):
        deck = s.decks[seat]
        if deck:
            s.hands = set_item(s.hands, seat, (*s.hands[seat], deck[0]))
            s.decks = set_item(s.decks, seat, deck[1:])
            s.deck_sizes = set_item(s.deck_sizes, seat, len(deck) - 1)
        else:
            gain = s.overlong[seat]
            # Designed for 3–4 players: every opponent still in the game gains.
            for other in s.opponents(seat):
                s.add_prosperity(other, gain)
            s.overlong = set_item(s.overlong, seat, gain * 2)
            s.say(f"P{seat + 1} must draw from an empty battle deck: its opponents gain {gain} prosperity")


def fire_tactic(s: SignumState, seat: int, trigger: str) -> int:
    """Fire seat's first face-down tactic with this trigger; return its amount (-1 if none fired).

    The tactic is revealed and goes to the Graveyard (DESIGN.md §5).
    """
    for i, t in enumerate(s.tactics[seat]):
        c = cr.CARDS[t]
        if c.trigger == trigger:
            s.tactics = set_item(s.tactics, seat, (*s.tactics[seat][:i], *s.tactics[seat][i + 1 :]))
            s.graveyard = set_item(s.graveyard, seat, (*s.graveyard[seat], t))
            s.say(f"P{seat + 1} reveals the tactic {c.name_en}")
            if c.effect == "prosperity":
                s.add_prosperity(seat, c.amount)
            elif c.effect == "draw":
                draw(s, seat, c.amount)
            return c.amount
    return -1


def fire_opponents(s: SignumState, seat: int, trigger: str) -> list[int]:
    """Fire the matching tactic of each opponent of ``seat`` (in seat order); the amounts that fired."""
    fired = []
    for p in s.opponents(seat):
        amount = fire_tactic(s, p, trigger)
        if amount >= 0:
            fired.append(amount)
    return fired


def wound(s: SignumState, uid: int, n: int, by: int = -1) -> None:
    """Put ``n`` wound markers on a model, dealt by seat ``by`` (deaths are settled by :func:`bury_dead`)."""
    if n <= 0:
        return
    m = s.find(uid)
    if m is None:
        return
    s.put(m.but(wounds=m.wounds + n, hit_by=by if by >= 0 else m.hit_by))
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
    if p is None:
        return
    seat = m.owner
    if p.arg == "prosperity":
        s.add_prosperity(seat, p.x)
    elif p.arg == "draw":
        draw(s, seat, p.x)
    elif p.arg == "heal_hero":
        hero = s.hero_of(seat)
        if hero is not None:
            heal(s, hero.uid, p.x)
    elif p.arg == "wound_contact":
        for o in cr.enemies_in_contact(s, m, include_hidden=True):
            wound(s, o.uid, p.x, seat)
    s.say(f"{cr.CARDS[m.card].name_en}: {which.replace('_', ' ').title()}")


def bury_dead(s: SignumState) -> None:
    """Move every model whose wounds reach its health to the Graveyard, with its Last Word.

    Rulebook › 8: a hero whose wound markers equal its health is killed; the game ends only after every
    effect the death triggered has resolved (Last Word, tactics), which this loop does before returning.
    """
    while True:
        dead = [m for m in s.models if m.wounds >= cr.health(m)]
        if not dead:
            return
        for m in dead:
            if s.find(m.uid) is None:
                continue
            s.models = tuple(o for o in s.models if o.uid != m.uid)
            owner = m.owner
            s.graveyard = set_item(s.graveyard, owner, (*s.graveyard[owner], m.card, *m.relics))
            if m.hit_by >= 0 and s.hostile(m.hit_by, owner):  # Rulebook › 9: enemy characters destroyed
                s.kills = set_item(s.kills, m.hit_by, s.kills[m.hit_by] + 1)
            s.say(f"{cr.CARDS[m.card].name_en} of P{owner + 1} falls")
            # Last Word resolves with the model where it stood.
            s.models = (*s.models, m)
            word(s, m, "last_word")
            s.models = tuple(o for o in s.models if o.uid != m.uid)
            if m.card != s.heroes[owner]:
                fire_tactic(s, owner, "character_died")
