"""Medieval Realms as a :class:`~ludorum.engine.Game`: the dispatch between the rulebook's chapters."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ludorum.engine import Action, Config, Game, IllegalAction, Result
from ludorum.engine.i18n import T, Text
from ludorum.engine.provides import Provides, RulesPage

from . import actions, placement, setup
from .content import CARDS
from .content import effects as content_effects
from .ending import end_round, final_scores
from .render import describe_action, render_text, view, view_matches
from .state import (
    ACTIONS,
    BOX,
    EXTRAS,
    OVER,
    PANEL,
    PLACE,
    REFUSED,
    ROUNDS,
    RealmsState,
    refused,
    setitem,
)

if TYPE_CHECKING:
    from ludorum.engine.bots import Bot


def _illegal(text: str) -> IllegalAction:
    """The refusal ``text`` (made by :func:`~.state.refused`) as an ``IllegalAction`` naming its rule."""
    if isinstance(text, Text) and text.msgid == REFUSED:
        rule, message = text.params["rule"], text.params["message"]
    else:
        rule, _, message = text.partition(": ")
    return IllegalAction(message or text, T("Medieval Realms › {rule}", rule=rule))


class MedievalRealms(Game[RealmsState]):
    """Medieval Realms, 2–5 players: secret leader placement, majorities and auctions over seven rounds."""

    provides = Provides(
        evaluation="ludorum.games.medieval_realms.evaluation:EVALUATION",
        facts="ludorum.games.medieval_realms.facts:FACTS",
        tunables="ludorum.games.medieval_realms.evaluation:TUNABLES",
        encoding="ludorum.games.medieval_realms.encoding:ENCODING",
        rules=RulesPage(
            rulebook="medieval-realms.txt",
            notes="medieval-realms.md",
            designed=("Designed content", "Interpretations", "Symbols without"),
            translations={"ru": "medieval-realms-rules.ru.md"},
        ),
    )
    """Its search evaluation, lab facts, tunable weights, RL encoding and rules page, each resolved on use."""

    name = "medieval-realms"
    title = "Medieval Realms"
    min_players = 2
    max_players = 5
    blurb = T(
        "Place leaders in secret, win majorities, gather resources and bid for cards in auctions; "
        "the most victory points after the seventh round wins."
    )
    length = T("7 rounds")
    state_type = RealmsState
    # Leaders are placed in secret and revealed together once every seat has placed them
    # (docs/medieval-realms.md, "Placement as decisions"): nobody else learns where one went.
    private_kinds = frozenset({"mayor", "general", "admiral", "buffer"})
    public_kinds = frozenset({"activate", "play", "bid", "token", "extra", "pass"})  # open; the kit checks
    public_labels = public_kinds  # their labels name only what everyone sees (the kit checks)
    plain_labels = True  # a label names only what its seat sees (the kit checks)
    rules_version = 2  # the history of versions: docs/medieval-realms.md, "Rules versions"

    def new(self, config: Config, seed: int) -> RealmsState:
        """Rulebook › Set-Up."""
        return setup.new_game(config, seed)

    def max_decisions(self, config: Config) -> int:
        """A hard bound: extras; per round ≤ 50 placements (the box holds 50 leaders), ≤ 12 activations,
        ≤ 4n + 12 plays, n passes; per auction (17 Auction Cards) ≤ 400 bids + n passes; ≤ 4 tokens per play.
        """
        n = config.players
        per_round = sum(BOX) + PANEL + (4 * n + PANEL) + n
        auctions = sum(1 for c in CARDS if c.kind == "auction")
        return n + ROUNDS * per_round + auctions * (actions.BID_CAP + n) + len(CARDS) * 4

    def to_move(self, state: RealmsState) -> int:
        """Chance never decides after the set-up shuffle: always a seat."""
        phase = state.phase
        if phase == ACTIONS:
            if state.auction is not None:
                return state.auction.bidder
            if any(state.dues):
                return actions.token_seat(state)
            return state.order[state.turn]
        if phase == PLACE:
            return placement.placing_seat(state)
        if phase == EXTRAS:
            return setup.extras_seat(state)
        return 0

    def legal_actions(self, state: RealmsState) -> Sequence[Action]:
        """The deciding seat's choices."""
        phase = state.phase
        if phase == ACTIONS:
            if state.auction is not None:
                return actions.auction_legal(state)
            if any(state.dues):
                return list(actions.TOKENS)
            return actions.legal(state)
        if phase == PLACE:
            return placement.legal(state, placement.placing_seat(state))
        if phase == EXTRAS:
            return setup.extras_legal(state)
        return []

    def refusal(self, state: RealmsState, action: Action) -> str:
        """Why ``action`` is refused, naming the rule in the player's words."""
        phase = state.phase
        if phase == OVER:
            return refused(T("End of the Game"), T("the game is over"))
        if phase == EXTRAS:
            return setup.extras_refusal(state, action)
        if phase == PLACE:
            return placement.refusal(state, placement.placing_seat(state), action)
        if state.auction is not None:
            return actions.auction_refusal(state, action)
        if any(state.dues):
            return refused(T("Victory Point Track"), T("first take the token you are owed (name a resource)"))
        return actions.refusal(state, action)

    def apply(self, state: RealmsState, action: Action) -> RealmsState:
        """Validate, then apply to a clone."""
        phase = state.phase
        if phase == PLACE:
            ok = placement.allowed(state, placement.placing_seat(state), action)
        elif phase == ACTIONS and state.auction is None and not any(state.dues):
            ok = actions.allowed(state, action)
        else:
            ok = action in self.legal_actions(state)
        if not ok:
            raise _illegal(self.refusal(state, action))
        s = state.clone()
        phase = s.phase
        if phase == ACTIONS:
            if s.auction is not None:
                going = actions.auction_apply(s, action)
            elif any(s.dues):
                actions.token_apply(s, actions.token_seat(s), action)
                going = True
            else:
                going = actions.apply(s, action)
            if not going:
                end_round(s)
        elif phase == PLACE:
            placement.apply(s, placement.placing_seat(s), action)
        else:
            setup.apply_extra(s, setup.extras_seat(s), action)
        return s

    def is_over(self, state: RealmsState) -> bool:
        """After the 7th round."""
        return state.phase == OVER

    def result(self, state: RealmsState) -> Result:
        """Final Victory Points, ranked with the rulebook's four tie-breaks."""
        scores = final_scores(state)
        return Result.from_keys([f.key() for f in scores], "most Victory Points after the 7th round")

    # -- information ------------------------------------------------------------------------------------

    def view(self, state: RealmsState, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees: everything but the deck order and the other seats' unrevealed placements."""
        return view(self, state, seat)

    def view_equals(self, state: RealmsState, seat: int | None, view: Mapping[str, Any]) -> bool:
        """``view(state, seat) == view``, key by key, stopping at the first that differs."""
        return view_matches(self, state, seat, view)

    def sample_state(self, state: RealmsState, seat: int | None, rng: random.Random) -> RealmsState:
        """Redraw the deck order and every other seat's unrevealed placement."""
        s = state.clone()
        # Shuffle from a canonical order, so the draw depends on the seat's knowledge, not the truth.
        deck = sorted(s.deck)
        rng.shuffle(deck)
        s.deck = tuple(deck)
        for other, spots in enumerate(s.placing):
            if other == seat or not spots:
                continue
            length = None if s.committed[other] else len(spots)
            s.placing = setitem(s.placing, other, random_placement(s, other, length, rng))
        s.rng = rng.getrandbits(64)
        return s

    def describe(self, state: RealmsState, action: Action) -> str:
        """The action in the rulebook's words."""
        return describe_action(state, action)

    def stage(self, state: RealmsState) -> str:
        """The round and its part: choosing extras, placing leaders (secretly), or actions."""
        parts = {EXTRAS: T("Set-up: extra resources"), PLACE: T("Placing leaders"), ACTIONS: T("Actions")}
        part = parts.get(state.phase)
        if part is None:
            return ""
        return (
            part
            if state.phase == EXTRAS
            else T("Round {n} of {rounds} · {part}", n=state.round, rounds=ROUNDS, part=part)
        )

    def seat_name(self, state: RealmsState, seat: int) -> str:
        """The realm's colour (its King or Queen card)."""
        from .content import CONTENT

        return T(CONTENT.realm_colours[seat])

    def render_text(self, state: RealmsState, seat: int | None) -> str:
        """The board, the panels and every realm as terminal text."""
        return render_text(self, state, seat)

    def effects(self) -> Mapping[str, Mapping[str, Any]]:
        """What each thing of the game does (its content's effect texts), for the table's tooltips."""
        return content_effects()

    def bots(self) -> Mapping[str, type[Bot]]:
        """The heuristic bot."""
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}


def random_placement(s: RealmsState, seat: int, length: int | None, rng: random.Random) -> tuple[int, ...]:
    """A random legal placement for ``seat`` (for ``sample_state``): ``length`` leaders of an unfinished
    placement, or (``None``) a complete one."""
    spots: tuple[int, ...] = ()
    while len(spots) < length if length is not None else not placement.complete(s, seat, spots):
        spots = (*spots, placement.spot(rng.choice(placement.choices(s, seat, spots))))
    return spots
