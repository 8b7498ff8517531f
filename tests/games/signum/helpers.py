"""Shared helpers for the Signum tests: build scenarios, play actions, roll chosen dice faces."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ludorum.engine import Action
from ludorum.games.signum import GAME
from ludorum.games.signum.creatures import CARDS
from ludorum.games.signum.dice import Roll
from ludorum.games.signum.scenario import scenario
from ludorum.games.signum.state import Model, SignumState

FACE = {"bull": 0, "axe": 1, "shield": 2}


def build(**spec: Any) -> SignumState:
    """A scenario from keyword arguments."""
    return scenario(spec)


def hurt(card: str, left: int) -> int:
    """Wounds that leave a creature of this card (its designed health) ``left`` health: tests of deaths
    read the health from the content, so a designed change of health keeps their meaning."""
    health: int = CARDS[card].health
    return health - left


def m(card: str, owner: int, x: float, y: float, **flags: Any) -> dict[str, Any]:
    """One model of a scenario."""
    return {"card": card, "owner": owner, "x": x, "y": y, **flags}


def play(s: SignumState, *actions: Action | tuple[Any, ...]) -> SignumState:
    """Apply actions in turn (tuples are (kind, *args))."""
    for a in actions:
        act = a if isinstance(a, Action) else Action(a[0], tuple(a[1:]))
        s = GAME.apply(s, act)
    return s


def faces(face: str, n: int) -> tuple[int, int, int]:
    """``n`` dice all showing one face."""
    out = [0, 0, 0]
    out[FACE[face]] = n
    return (out[0], out[1], out[2])


def roll_dice(
    s: SignumState, by_tag: Mapping[str, str] | Callable[[Roll], tuple[int, int, int]], default: str = "axe"
) -> SignumState:
    """Roll every waiting dice group: all dice of a tag show the face named for it (or ``default``)."""
    seen: list[Roll] = []
    while s.rolls:
        r = s.rolls[0]
        seen.append(r)
        counts = by_tag(r) if callable(by_tag) else faces(by_tag.get(r.tag, default), r.n)
        s = GAME.apply(s, Action("roll", counts))
    return s


def model(s: SignumState, card: str, owner: int | None = None) -> Model:
    """The model of a card on the Battlefield."""
    for x in s.models:
        if x.card == card and (owner is None or x.owner == owner):
            return x
    raise KeyError(card)


def gone(s: SignumState, card: str) -> bool:
    """Whether no model of the card is on the Battlefield."""
    return all(x.card != card for x in s.models)


def act(s: SignumState, card: str, *actions: tuple[Any, ...]) -> SignumState:
    """Activate the model of ``card`` and take the actions."""
    return play(s, ("activate", model(s, card).uid), *actions)


def answer_splits(s: SignumState, a_att: int | None, d_att: int | None) -> SignumState:
    """Answer the melee's dice-split decisions: ``a_att``/``d_att`` dice into attack."""
    from ludorum.games.signum import combat

    while s.pending and s.pending[-1].kind == "melee" and not s.rolls:
        p = s.pending[-1]
        who = combat.splitter(s, p)
        n = a_att if who.uid == p.actor else d_att
        assert n is not None, "a split was asked that the test did not expect"
        s = play(s, ("split", n))
    return s


def melee(
    s: SignumState,
    a: int,
    d: int,
    a_att: int | None = None,
    d_att: int | None = None,
    tags: Mapping[str, str] | None = None,
    default: str = "axe",
) -> SignumState:
    """Activate model ``a``, attack model ``d`` in melee, split and roll."""
    s = play(s, ("activate", a), ("melee", d))
    s = answer_splits(s, a_att, d_att)
    return roll_dice(s, tags or {}, default)


THREE_HEROES = ("marshal_aurelian", "burgomaster_orvin", "gryphon_lord_kassian")
"""The heroes of the three-player scenarios in which P3 falls."""


def p3_hero_killed(*others: dict[str, Any], **spec: Any) -> SignumState:
    """A three-player game in which P1's Orc Berserker kills P3's Gryphon Lord Kassian (3 health left) in
    melee, its attack all axes against no defence; ``others`` are further models, ``spec`` more of the
    scenario."""
    touching = (CARDS["orc_berserker"].base + CARDS["gryphon_lord_kassian"].base) / 20.0  # bases in contact
    s = build(
        players=3,
        heroes=THREE_HEROES,
        models=[
            m("orc_berserker", 0, 30, 30),
            m("gryphon_lord_kassian", 2, 30, 30 + touching, wounds=hurt("gryphon_lord_kassian", 3)),
            *others,
        ],
        **spec,
    )
    orc, kassian = model(s, "orc_berserker").uid, model(s, "gryphon_lord_kassian").uid
    return melee(s, orc, kassian, 3, 0, {"aa": "shield"}, "axe")


def to_activation(s: SignumState) -> SignumState:
    """Pass the building and terrain phases and decline Clink of Coins."""
    while s.phase in ("build", "terrain"):
        s = play(s, ("pass",))
    while s.coins_due:
        s = play(s, ("clink", s.coins_due[0], False))
    return s
