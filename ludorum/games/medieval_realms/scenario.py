"""The scenario builder: a compact description of a position → a legal state, for tests and puzzles.

Cards are named by type key (``"castle"``) or card name (``"City of Scholars"``); each name takes the
first unused card that matches.  Everything not described keeps its set-up value; cards not placed by
the description fill the unspecified panels and the deck in a seeded random order.

>>> s = build(4, phase="actions", resources=[{"production": 5}] * 4, panel=["castle", "market"])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ludorum.engine import rng as rngmod

from .content import CARDS, RESOURCE_INDEX
from .setup import PAIRS, new_game
from .state import ACTIONS, EXTRAS, FUTURE, OVER, PANEL, PLACE, RealmsState

PHASES = {"extras": EXTRAS, "place": PLACE, "actions": ACTIONS, "over": OVER}


class ScenarioError(ValueError):
    """A description that does not make a legal position."""


class _Pool:
    def __init__(self) -> None:
        self.free = list(range(len(CARDS)))

    def take(self, name: str) -> int:
        for c in self.free:
            if CARDS[c].type == name or CARDS[c].name == name:
                self.free.remove(c)
                return c
        raise ScenarioError(f"no unused card called {name!r} is left in the deck")


def _resources(spec: Mapping[str, int], base: tuple[int, ...]) -> tuple[int, ...]:
    out = list(base)
    for name, n in spec.items():
        if name not in RESOURCE_INDEX:
            raise ScenarioError(f"{name!r} is not a resource")
        if n < 0:
            raise ScenarioError(f"{name}: a Manor cannot hold a negative amount")
        out[RESOURCE_INDEX[name]] = n
    return tuple(out)


def build(
    players: int,
    *,
    seed: int = 0,
    phase: str = "place",
    round: int = 1,
    order: Sequence[int] | None = None,
    resources: Sequence[Mapping[str, int]] | None = None,
    vp: Sequence[int] | None = None,
    leaders: Sequence[tuple[int, int, int]] | None = None,
    display: Sequence[Sequence[str]] | None = None,
    in_play: Sequence[Sequence[str]] | None = None,
    panel: Sequence[str | None] | None = None,
    future: Sequence[str | None] | None = None,
    passed: Sequence[bool] | None = None,
    turn: int = 0,
) -> RealmsState:
    """A state of ``players`` players as described.

    ``resources`` give the named amounts (the others keep the starting capital; default extras are
    recorded as chosen but not added);
    ``leaders`` are (Mayors, Generals, Admirals) per seat; ``order`` is the Turn Order Track.  Outside the
    "extras" phase each seat gets a default unique extra pair.
    """
    from . import GAME

    if phase not in PHASES:
        raise ScenarioError(f"phase must be one of {', '.join(PHASES)}")
    s = new_game(GAME.config(players), seed)
    n = players
    if order is not None:
        if sorted(order) != list(range(n)):
            raise ScenarioError("order must list every seat once")
        s.order = tuple(order)
    s.phase = PHASES[phase]
    if not 1 <= round <= 7:
        raise ScenarioError("round is 1–7")
    s.round = round
    if s.phase != EXTRAS:
        s.extras = tuple(PAIRS[i] for i in range(n))
    if resources is not None:
        s.res = tuple(_resources(spec, s.res[i]) for i, spec in enumerate(resources))
    if vp is not None:
        s.vp = tuple(vp)
    if leaders is not None:
        s.mayors = tuple(m for m, _, _ in leaders)
        s.generals = tuple(g for _, g, _ in leaders)
        s.admirals = tuple(a for _, _, a in leaders)
        if sum(s.mayors) > 26 or sum(s.generals) > 13 or sum(s.admirals) > 11:
            raise ScenarioError("the box holds only 26 Mayors, 13 Generals and 11 Admirals")
    pool = _Pool()
    if display is not None:
        s.display = tuple(tuple(pool.take(c) for c in seat_cards) for seat_cards in display)
        for seat_cards in s.display:
            colours = [CARDS[c].colour for c in seat_cards]
            if len(colours) > 4 or len(set(colours)) != len(colours):
                raise ScenarioError("a Personal Display holds at most 4 cards, never two of one colour")
    if in_play is not None:
        s.in_play = tuple(tuple(pool.take(c) for c in seat_cards) for seat_cards in in_play)
    fixed_panel = None if panel is None else [pool.take(c) if c else -1 for c in panel]
    fixed_future = None if future is None else [pool.take(c) if c else -1 for c in future]
    rest, _ = rngmod.shuffled(rngmod.seed_state(seed + 1), pool.free)
    rest_list = list(rest)
    if fixed_panel is None:
        fixed_panel, rest_list = rest_list[:PANEL], rest_list[PANEL:]
    if fixed_future is None:
        fixed_future, rest_list = rest_list[:FUTURE], rest_list[FUTURE:]
    s.panel = tuple(fixed_panel + [-1] * (PANEL - len(fixed_panel)))
    s.future = tuple(fixed_future + [-1] * (FUTURE - len(fixed_future)))
    if len(s.panel) != PANEL or len(s.future) != FUTURE:
        raise ScenarioError("the Current Events Panel has 12 squares, the Future Events Panel 6")
    s.deck = tuple(rest_list)
    if passed is not None:
        s.passed = tuple(passed)
    s.turn = turn
    return s
