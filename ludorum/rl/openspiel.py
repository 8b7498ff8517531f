"""OpenSpiel: every Ludorum game registered as a Python game (``pyspiel.load_game("ludorum_reliquium")``).

Parameters: ``players`` (default the game's least), ``variants`` (joined with ``+``), ``options`` (game
options as ``"name:value;name:value"``, ``+`` for a comma: ``"rounds:3"``) and, for games whose set-up is
shuffled, ``deals`` (default 4096).  The game type is what each game truthfully is: sequential;
terminal rewards (1 to every seat ranked first, 0 otherwise: general-sum — a shared first place pays each);
explicit stochastic chance when the game rolls dice or shuffles at set-up, else deterministic; imperfect
information when its state has secrets (``hidden``/``per_seat`` fields), else perfect.

Chance is explicit: dice are chance nodes whose outcomes are the game's chance kinds
(:meth:`~ludorum.engine.encoding.GameEncoding.chance_kinds`, with the game's own probabilities), and a
shuffled set-up starts with a chance node choosing one of ``deals`` equally likely seeds of ``Game.new``
— the deal is one draw of a finite, documented distribution rather than of every possible shuffle.

Observations (``observation_tensor``/``_string``) are the seat's observation vector and its view as JSON;
the information state string is perfect recall — the chain of the seat's views along the history — and
the information-state tensor is the current observation vector (views hold the public log, not the whole
history).  ``resample_from_infostate`` draws a state with ``Game.sample_state`` (ISMCTS needs it).
Serialisation is OpenSpiel's own: the history of action ids, replayed.

An action id is the game's ``Discrete(N)`` index (docs/rl.md); an illegal one raises ``pyspiel.SpielError``.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ludorum.agents.search import hides_information
from ludorum.engine import CHANCE, Action, ConfigError
from ludorum.games import registry
from ludorum.rl.core import Table, encoding_for, masked_out

DEALS = 4096
"""Default number of equally likely set-up seeds of a shuffled game's opening chance node."""
MAX_DEALS = 65536
"""The most deals a game may be loaded with: the opening chance node lists every one of them (a list of a
billion was asked for before, and built)."""


def short_name(game: str) -> str:
    """OpenSpiel's name for a Ludorum game: ``ludorum_reliquium``, ``ludorum_medieval_realms``, …"""
    return "ludorum_" + game.replace("-", "_")


class _Trail:
    """One step of a history, shared by every clone that passed through it: the ludorum state after it,
    the move that led there (a deal's seed or an action) and, computed on demand, each seat's
    perfect-recall digest (its views from the start up to here)."""

    __slots__ = ("digests", "move", "parent", "state", "table")

    def __init__(self, table: Table, state: Any, parent: _Trail | None, move: Any = None) -> None:
        self.table = table
        self.state = state
        self.parent = parent
        self.move = move
        self.digests: dict[int, str] = {}

    def __deepcopy__(self, memo: Any) -> _Trail:
        return self  # persistent: states are never changed in place, digests only added

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel pickles a Python state's attributes to serialise it: keep the state and every seat's
        # recall digest (memoised along the trail, so serialising each step of a game stays linear),
        # not the chain of states.
        digests = {seat: self.digest(self.table, seat) for seat in range(self.table.players)}
        return (_restore, (self.table, self.state, digests, self.move))

    def digest(self, table: Table, seat: int) -> str:
        # Iterative, so that long games do not recurse deeply; each node's digest is computed once.
        todo = []
        node: _Trail | None = self
        while node is not None and seat not in node.digests:
            todo.append(node)
            node = node.parent
        prev = node.digests[seat] if node is not None else ""
        for n in reversed(todo):
            view = "" if n.state is None else json.dumps(table.game.view(n.state, seat), sort_keys=True)
            prev = n.digests[seat] = hashlib.blake2b((prev + view).encode(), digest_size=16).hexdigest()
        return prev


def _restore(table: Table, state: Any, digests: dict[int, str], move: Any) -> _Trail:
    """Rebuild a pickled trail node: its state and its seats' recall, without the states before it."""
    node = _Trail(table, state, None, move)
    node.digests.update(digests)
    return node


class _Legal(dict[int, Action]):
    """The numbered legal actions of one position: shared, not copied, by OpenSpiel's clones."""

    def __deepcopy__(self, memo: Any) -> _Legal:
        return self


class LudorumSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One Ludorum game under one config, as OpenSpiel sees it."""

    ludorum_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game = registry().get(self.ludorum_name)
        players = int(params.get("players", game.min_players))
        # OpenSpiel's parameter strings split on commas: variants are joined with "+", and game options
        # (Reliquium's rounds, factions) are one string "name:value;name:value" with "+" for a comma.
        variants = [v for v in str(params.get("variants", "")).replace(",", "+").split("+") if v]
        options: dict[str, Any] = {}
        for item in filter(None, str(params.get("options", "")).split(";")):
            key, _, value = item.partition(":")
            value = value.replace("+", ",")
            options[key] = int(value) if value.isdigit() else value
        try:
            self.table = Table(game.name, players, variants, **options)
        except ConfigError as e:
            raise pyspiel.SpielError(str(e)) from e
        seeded = encoding_for(game).seeded_setup
        self.deals = int(params.get("deals", DEALS)) if seeded else 0
        if seeded and not 1 <= self.deals <= MAX_DEALS:
            raise pyspiel.SpielError(f"deals is a whole number from 1 to {MAX_DEALS}, not {self.deals}")
        # Without a deal the set-up is one fixed state (states are immutable): build it once.
        self.initial = None if self.deals else game.new(self.table.config, 0)
        t = self.table
        info = pyspiel.GameInfo(
            num_distinct_actions=t.n_actions,
            max_chance_outcomes=max(self.deals, t.chance.n, 1),
            num_players=t.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=game.max_decisions(t.config) + 1,
        )
        opts = ";".join(f"{k}:{str(v).replace(',', '+')}" for k, v in options.items())
        given: dict[str, Any] = {"players": players, "variants": "+".join(variants), "options": opts}
        if self.deals:
            given["deals"] = self.deals
        super().__init__(_game_type(game.name), info, given)

    def new_initial_state(self) -> LudorumSpielState:
        """Before the deal (a chance node), or the set-up itself when the seed changes nothing."""
        return LudorumSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer for tensors and strings (perfect recall: the information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.table, recall)


class LudorumSpielState(pyspiel.State):  # type: ignore[misc]
    """A position: the ludorum state (``None`` before the deal) and the trail of the history."""

    def __init__(self, game: LudorumSpielGame) -> None:
        super().__init__(game)
        self._deals = game.deals
        self._t = game.table
        first = game.initial
        self._trail = _Trail(self._t, first, None)
        self._legal: dict[int, Action] | None = None

    @property
    def ludorum_state(self) -> Any:
        """The ludorum state (``None`` before the deal)."""
        return self._trail.state

    # -- OpenSpiel's state API ---------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` (dice, the deal) or ``TERMINAL``."""
        s = self._trail.state
        if s is None:
            return int(pyspiel.PlayerId.CHANCE)
        g = self._t.game
        if g.is_over(s):
            return int(pyspiel.PlayerId.TERMINAL)
        seat = g.to_move(s)
        return int(pyspiel.PlayerId.CHANCE) if seat == CHANCE else seat

    def _numbered(self) -> dict[int, Action]:
        if self._legal is None:
            self._legal = _Legal(self._t.legal(self._trail.state))
        return self._legal

    def _legal_actions(self, player: int) -> list[int]:
        """The indices of the actions legal now, ascending."""
        return sorted(self._numbered())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal's seeds (uniform), or the game's chance outcomes with its probabilities."""
        s = self._trail.state
        if s is None:
            p = 1.0 / self._deals
            return [(i, p) for i in range(self._deals)]
        outs = self._t.game.chance_outcomes(s)
        return sorted((self._t.chance_index(a), p) for a, p in outs)

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or a seat's action (its index); an illegal one is a ``SpielError``."""
        t, s = self._t, self._trail.state
        if s is None:
            if not 0 <= action < self._deals:
                raise pyspiel.SpielError(f"deal {action} is not one of 0…{self._deals - 1}")
            nxt = t.game.new(t.config, int(action))
            move: tuple[str, Any] = ("deal", int(action))
        elif t.game.to_move(s) == CHANCE:
            outcome = t.chance.actions[action] if 0 <= action < t.chance.n else None
            if outcome is None or outcome not in t.game.legal_actions(s):
                raise pyspiel.SpielError(f"chance outcome {action} is not possible now")
            nxt = t.game.apply_chance(s, outcome)
            move = ("chance", outcome)
        else:
            a = self._numbered().get(int(action))
            if a is None:
                raise pyspiel.SpielError(masked_out(action, self._numbered()))
            nxt = t.game.apply(s, a)
            move = ("action", a)
        self._trail = _Trail(t, nxt, self._trail, move)
        self._legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        """The action as the game names it (the grid point for an open kind)."""
        t = self._t
        if self._trail.state is None:
            return f"deal {action}"
        if player == pyspiel.PlayerId.CHANCE:
            return str(t.chance.actions[action])
        return str(t.actions.actions[action])

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        s = self._trail.state
        return s is not None and self._t.game.is_over(s)

    def returns(self) -> list[float]:
        """1 to every seat ranked first once over; 0 before."""
        if not self.is_terminal():
            return [0.0] * self._t.players
        return self._t.utilities(self._trail.state)

    def rewards(self) -> list[float]:
        """Terminal rewards only: the returns, at the end."""
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudorumSpielState:
        """A state ``player_id`` cannot tell from this one, drawn by ``Game.sample_state``."""
        s = self._trail.state
        rng = random.Random(int(probability_sampler() * 2**53) if callable(probability_sampler) else None)
        other: LudorumSpielState = self.get_game().new_initial_state()
        if s is None:
            return other
        other._trail = _Trail(self._t, self._t.game.sample_state(s, player_id, rng), None)
        # The sampled state stands in the same information set: it keeps the player's recall.
        other._trail.digests[player_id] = self._trail.digest(self._t, player_id)
        return other

    def __deepcopy__(self, memo: Any) -> LudorumSpielState:
        """States are persistent: a copy shares the trail (and its digests)."""
        other: LudorumSpielState = self.get_game().new_initial_state()
        other._trail, other._legal = self._trail, self._legal
        return other

    def information_state_string(self, player: int | None = None) -> str:
        """Perfect recall: the player's views along the history."""
        p = self.current_player() if player is None else player
        return f"p{p} {self._trail.digest(self._t, p)}"

    def observation_string(self, player: int | None = None) -> str:
        """The player's view, as JSON."""
        p = self.current_player() if player is None else player
        s = self._trail.state
        return "" if s is None else json.dumps(self._t.game.view(s, p), sort_keys=True)

    def __str__(self) -> str:
        s = self._trail.state
        return "before the deal" if s is None else self._t.game.render_text(s, None)


class _Observer:
    """OpenSpiel's observer interface: a tensor (and its named parts) and a string per player."""

    def __init__(self, table: Table, perfect_recall: bool) -> None:
        self.table = table
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(table.obs_size, np.float32)
        self.dict = {name: self.tensor[o : o + n] for name, o, n, _ in table.layout()}

    def set_from(self, state: LudorumSpielState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation vector (zeros before the deal)."""
        s = state.ludorum_state
        if s is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.table.observe(s, player)

    def string_from(self, state: LudorumSpielState, player: int) -> str:
        """The information state string (perfect recall) or the observation string."""
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


def _game_type(name: str) -> pyspiel.GameType:
    game = registry().get(name)
    enc = encoding_for(game)
    stochastic = enc.seeded_setup or bool(enc.chance_kinds(game.config(game.min_players)))
    T = pyspiel.GameType
    return T(
        short_name=short_name(name),
        long_name=f"Ludorum {game.title}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else T.ChanceMode.DETERMINISTIC,
        information=T.Information.IMPERFECT_INFORMATION
        if hides_information(game)
        else T.Information.PERFECT_INFORMATION,
        utility=T.Utility.GENERAL_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": game.min_players,
            "variants": "",
            **({"deals": DEALS} if enc.seeded_setup else {}),
            "options": "",
        },
    )


def register_all() -> list[str]:
    """Register every game with OpenSpiel (once per process); return the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game in registry():
        sn = short_name(game.name)
        if sn not in registered:
            cls = type(
                f"Spiel_{sn}", (LudorumSpielGame,), {"ludorum_name": game.name, "__module__": __name__}
            )
            globals()[cls.__name__] = cls  # OpenSpiel pickles games: the class must be found by name
            pyspiel.register_game(_game_type(game.name), cls)
        names.append(sn)
    return names


NAMES = register_all()
"""The short names registered on import."""
