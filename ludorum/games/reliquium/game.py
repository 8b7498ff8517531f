"""Reliquium as a :class:`ludorum.engine.Game`: who decides, what is legal, applying, ending, views."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ludorum.engine import Action, Config, Game, IllegalAction, Result
from ludorum.engine.i18n import T
from ludorum.engine.options import Choice, Option
from ludorum.engine.provides import Provides, RulesPage
from ludorum.games.reliquium.content import effects as content_effects

from . import render
from .creatures import ability_actions, apply_ability
from .peace import apply_pending, apply_turn, pending_actions, turn_actions
from .rules import C, castles_on_board, units_on_board
from .setup import DEFAULT_FACTIONS, DEFAULT_ROUND_LIMIT, MAX_ROUNDS, chosen_factions, new_state, round_limit
from .state import ATTACK, NO, OVER, P_ABILITY, P_CONSENT, P_PACT, PEACE, SUPPORT, ReliquiumState
from .war import apply_battle, apply_support, battle_actions, battle_decider, support_actions

if TYPE_CHECKING:
    from ludorum.engine.bots import Bot


def _sorted(items: frozenset[int]) -> list[int]:
    return sorted(items, key=repr) if items else []  # as the codec writes sets


def public_view(s: ReliquiumState) -> dict[str, Any]:
    """The state's fields as JSON data, without the random generator: exactly what
    :func:`ludorum.engine.derive_view` gives for this all-public state, written out for speed (rows of
    tuples become lists through ``map(list, …)``: one C call per row, no Python frame per list)."""
    cfg = s.config
    return {
        "config": {
            "players": cfg.players,
            "variants": list(cfg.variants),
            "content": cfg.content,
            "options": list(map(list, cfg.options)),
        },
        "factions": list(s.factions),
        "round_limit": s.round_limit,
        "round": s.round,
        "phase": s.phase,
        "turn": s.turn,
        "occupant": list(s.occupant),
        "units": list(map(list, s.units)),
        "castle": list(s.castle),
        "reserve": list(map(list, s.reserve)),
        "track": list(map(list, s.track)),
        "marker": list(s.marker),
        "done": list(s.done),
        "melee": list(map(list, s.melee)),
        "ranged": list(map(list, s.ranged)),
        "melee_used": list(s.melee_used),
        "ranged_used": list(s.ranged_used),
        "blocked": _sorted(s.blocked),
        "creatures": list(map(list, s.creatures)),
        "used_junctions": _sorted(s.used_junctions),
        "militia": list(s.militia),
        "pacts": list(map(list, s.pacts)),
        "proposed": _sorted(s.proposed),
        "refused": s.refused,
        "pending": list(s.pending),
        "queue": list(s.queue),
        "battle": list(s.battle),
        "winner": s.winner,
        "reason": s.reason,
    }


class Reliquium(Game[ReliquiumState]):
    """Reliquium: war for the lands of Sigillum; the first to raise nine castles wins."""

    provides = Provides(
        evaluation="ludorum.games.reliquium.evaluation:EVALUATION",
        facts="ludorum.games.reliquium.facts:FACTS",
        tunables="ludorum.games.reliquium.evaluation:TUNABLES",
        encoding="ludorum.games.reliquium.encoding:ENCODING",
        rules=RulesPage(
            rulebook="reliquium.txt",
            notes="reliquium.md",
            designed=("designed", "Legendary creatures", "Rules as implemented"),
            translations={"ru": "reliquium-rules.ru.md"},
        ),
    )
    """Its search evaluation, lab facts, tunable weights, RL encoding and rules page, each resolved on use."""

    name = "reliquium"
    title = "Reliquium"
    min_players = 2
    max_players = 4
    blurb = T(
        "Four factions war for the lands of Sigillum: march, fight, recruit and summon legendary "
        "creatures in peace, then battle in war. The first to raise nine castles wins."
    )
    length = T("rounds of peace and war until nine castles stand (20 rounds at most, by default)")
    variants = {
        "single-march": T("Single March: a unit marching alone may move on into a second region"),
        "militia": T("Militia: a player attacked by two others turns his castles into militia units"),
        "allies": T("Allies: pacts allowing ranged support and creatures in an ally's lands, with consent"),
    }
    options = (
        Option(
            "factions",
            T("each seat's faction; seats play in order of initiative"),
            kind="per_seat",
            choices=tuple(Choice(f.key, f.name) for f in C.factions),
            defaults={n: ",".join(C.factions[f].key for f in fs) for n, fs in DEFAULT_FACTIONS.items()},
            seat_order=True,
        ),
        Option(
            "rounds",
            T("the round limit: then the most castles on the board wins"),
            kind="int",
            default=DEFAULT_ROUND_LIMIT,
            minimum=1,
            maximum=MAX_ROUNDS,
        ),
    )
    state_type = ReliquiumState
    rules_version = 5  # the history of versions: docs/reliquium.md, "Rules versions"

    def check_options(self, config: Config) -> None:
        """Validate the factions and rounds options."""
        chosen_factions(config)
        round_limit(config)

    def new(self, config: Config, seed: int) -> ReliquiumState:
        """Set up the table (Rulebook › Setup)."""
        return new_state(config, seed)

    def max_decisions(self, config: Config) -> int:
        """Per round: at most 9 actions of at most 7 decisions and a pact per player, 12 supports and
        12 battles of at most 6 decisions; times the round limit."""
        return round_limit(config) * (config.players * 70 + 12 + 12 * 6) + 10

    def decider(self, state: ReliquiumState) -> int:
        """The faction whose decision it is."""
        if state.phase == PEACE:
            p = state.pending
            if p and p[0] == P_CONSENT:
                return p[1]
            if p and p[0] == P_PACT:
                return p[2]
            return state.turn
        if state.phase == SUPPORT:
            return state.turn
        return battle_decider(state)

    def to_move(self, state: ReliquiumState) -> int:
        """The seat of the deciding faction."""
        if state.phase == OVER:
            return 0
        return state.factions.index(self.decider(state))

    def legal_actions(self, state: ReliquiumState) -> Sequence[Action]:
        """Every action the deciding seat may take (remembered for the next ``apply`` on the same state)."""
        legal = self._legal(state)
        self._memo = (state, frozenset(legal))
        return legal

    _memo: tuple[ReliquiumState | None, frozenset[Action]] = (None, frozenset())

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its memo: every job the server sends a worker, and every search a bot pool
        runs, pickles the game, and the memo (a state and its legal actions) was 95 % of its bytes."""
        return {k: v for k, v in self.__dict__.items() if k != "_memo"}

    def _checked(self, state: ReliquiumState, action: Action) -> bool:
        """Whether ``action`` is known legal in ``state``: the legal actions of this very state were listed
        just before (states are never changed in place) and it is among them."""
        memo_state, memo_legal = self._memo
        return memo_state is state and action in memo_legal

    def _legal(self, state: ReliquiumState) -> list[Action]:
        phase = state.phase
        if phase == PEACE:
            if not state.pending:
                return turn_actions(state, state.turn)
            if state.pending[0] == P_ABILITY:
                return ability_actions(state)
            return pending_actions(state)
        if phase == SUPPORT:
            return support_actions(state)
        if phase == ATTACK:
            return battle_actions(state)
        return []

    def apply(self, state: ReliquiumState, action: Action) -> ReliquiumState:
        """The state after ``action``; a refusal names the rule and leaves ``state`` untouched."""
        if not isinstance(action, Action) or not isinstance(action.args, tuple):
            raise IllegalAction(T("{action} is not an action", action=repr(action)), T("Rulebook"))
        phase = state.phase
        if phase == PEACE:
            if not state.pending:
                return apply_turn(state, state.turn, action)
            if state.pending[0] == P_ABILITY:
                return apply_ability(state, action, self._checked(state, action))
            return apply_pending(state, action, self._checked(state, action))
        if phase == SUPPORT:
            return apply_support(state, action, self._checked(state, action))
        if phase == ATTACK:
            return apply_battle(state, action, self._checked(state, action))
        raise IllegalAction(T("the game is over"), T("Rulebook › Game process"))

    def is_over(self, state: ReliquiumState) -> bool:
        """A ninth castle was built or the round limit passed."""
        return state.phase == OVER

    def result(self, state: ReliquiumState) -> Result:
        """The ninth castle wins; at the round limit the most castles on the board (then units) rank first."""
        if state.winner != NO:
            keys = [(1.0 if f == state.winner else 0.0, castles_on_board(state, f)) for f in state.factions]
        else:
            keys = [(float(castles_on_board(state, f)), units_on_board(state, f)) for f in state.factions]
        return Result.from_keys(keys, state.reason or T("game over"))

    def stage(self, state: ReliquiumState) -> str:
        """The round and its phase (a peace turn is one action, so the log's entries name the player)."""
        if state.phase == OVER:
            return ""
        if state.phase == PEACE:
            return T("Round {n} · Peace phase", n=state.round)
        return T("Round {n} · War phase", n=state.round)

    def seat_name(self, state: ReliquiumState, seat: int) -> str:
        """The faction's name."""
        return C.factions[state.factions[seat]].name

    def describe(self, state: ReliquiumState, action: Action) -> str:
        """The action in the rulebook's words."""
        return render.describe(state, action)

    def render_text(self, state: ReliquiumState, seat: int | None) -> str:
        """The table as text for the terminal."""
        return render.text(self, state, seat)

    def view(self, state: ReliquiumState, seat: int | None) -> dict[str, Any]:
        """Everything is public in Reliquium: the derived view plus, for renderers, tokens with their border
        ids, creature tokens with their junctions, castles per faction and the battle's strengths."""
        v = public_view(state)
        v["faction_keys"] = [f.key for f in C.factions]
        v["deciding"] = None if state.phase == OVER else self.decider(state)
        v["battle_strengths"] = list(state.battle[9:11]) if state.battle and state.battle[5] != 4 else None
        v["castles_on_board"] = [castles_on_board(state, f) for f in range(4)]
        # Most states have no tokens or creatures on the board: skip the comprehensions' frames then.
        melee, ranged, creatures = state.melee, state.ranged, state.creatures
        v["tokens"] = [
            {"kind": "melee", "faction": f, "value": n, "from": a, "to": b, "border": C.border(a, b)}
            for f, n, a, b in melee
        ] + [
            {"kind": "ranged", "faction": t[0], "value": t[1], "from": t[2], "to": t[3],
             "border": C.border(t[2], t[3]), "units": list(t[4:7]), "militia": bool(t[7])}
            for t in ranged
        ] if melee or ranged else []  # fmt: skip
        v["creature_tokens"] = [
            {"creature": c, "name": C.creatures[c].name, "faction": C.creatures[c].faction,
             "class": C.creatures[c].cls, "junction": j, "regions": list(C.junctions[j])}
            for c, j in creatures
        ] if creatures else []  # fmt: skip
        return v

    def effects(self) -> Mapping[str, Mapping[str, Any]]:
        """What each thing of the game does (its content's effect texts), for the table's tooltips."""
        return content_effects()

    def bots(self) -> Mapping[str, type[Bot]]:
        """The heuristic bot."""
        from .bot import HeuristicBot

        return {"heuristic": HeuristicBot}
