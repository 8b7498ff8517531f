"""OpenSpiel: every Ludorum game registered as a Python game (``pyspiel.load_game("ludorum_reliquium")``).

Parameters: ``players`` (default the game's least), ``variants`` (joined with ``+``), ``options`` (game
options as ``"name:value;name:value"``, ``+`` for a comma: ``"rounds:3"``), ``recall`` (how many of a
seat's own actions its information-state tensor keeps, default 1024) and, for games whose set-up is
shuffled, ``deals`` (default 4096).  The game type is what each game truthfully is: sequential; terminal
rewards, each seat's share of the win (1/k to each of the k seats ranked first, 0 to the others), so the
returns of every game sum to 1: constant-sum, at any player count (a two-player game is a win 1–0, a loss
or a draw ½–½, as CFR and exploitability tools ask); explicit stochastic chance when the game rolls dice
or shuffles at set-up, else deterministic; imperfect information when its state has secrets
(``hidden``/``per_seat`` fields), else perfect.

Chance is explicit: dice are chance nodes whose outcomes are the game's chance kinds
(:meth:`~ludorum.engine.encoding.GameEncoding.chance_kinds`, with the game's own probabilities), and a
shuffled set-up starts with a chance node choosing one of ``deals`` equally likely seeds of ``Game.new``
— the deal is one draw of a finite, documented distribution rather than of every possible shuffle.

Observations (``observation_tensor``/``_string``) are the seat's observation vector and its view as JSON.
The information state has perfect recall (:mod:`ludorum.rl.spiel_trail`): its string is what the seat did
and saw from the start, step by step (its own actions, then the parts of its view that changed); its
tensor is the observation vector followed by the seat's own actions in order, ``(id + 1) / N`` each, in
``recall`` slots (the last ``recall`` of them in a longer game).  ``resample_from_infostate`` draws a
history the seat cannot tell from this one — the same action ids from another deal, every step legal and
the seat's view the same throughout — and returns its state, history included.  Serialisation is the
record: the action ids from the start, replayed when loaded (OpenSpiel's format wraps them; no game state
is pickled).

An action id is the game's ``Discrete(N)`` index (docs/rl.md); an illegal one raises ``pyspiel.SpielError``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ludorum.agents.search import hides_information
from ludorum.engine import CHANCE, Action, ConfigError
from ludorum.games import registry
from ludorum.rl.core import Table, encoding_for
from ludorum.rl.spiel_trail import IllegalStep, Trail

DEALS = 4096
"""Default number of equally likely set-up seeds of a shuffled game's opening chance node."""
MAX_DEALS = 65536
"""The most deals a game may be loaded with: the opening chance node lists every one of them (a list of a
billion was asked for before, and built)."""
RECALL = 1024
"""Default number of a seat's own actions its information-state tensor keeps."""


def short_name(game: str) -> str:
    """OpenSpiel's name for a Ludorum game: ``ludorum_reliquium``, ``ludorum_medieval_realms``, …"""
    return "ludorum_" + game.replace("-", "_")


class _Legal(dict[int, Action]):
    """The numbered legal actions of one position: shared, not copied, by OpenSpiel's clones."""

    def __deepcopy__(self, memo: Any) -> _Legal:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_nothing, ())  # a cache: serialised states recompute it rather than pickle actions


def _nothing() -> None:
    return None


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
        self.recall = int(params.get("recall", RECALL))
        if self.recall < 1:
            raise pyspiel.SpielError(f"recall is a positive number of actions, not {self.recall}")
        # Without a deal the set-up is one fixed state (states are immutable): build it once.
        self.initial = None if self.deals else game.new(self.table.config, 0)
        t = self.table
        info = pyspiel.GameInfo(
            num_distinct_actions=t.n_actions,
            max_chance_outcomes=max(self.deals, t.chance.n, 1),
            num_players=t.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=game.max_decisions(t.config) + (1 if self.deals else 0),
        )
        opts = ";".join(f"{k}:{str(v).replace(',', '+')}" for k, v in options.items())
        given: dict[str, Any] = {
            "players": players,
            "variants": "+".join(variants),
            "options": opts,
            "recall": self.recall,
        }
        if self.deals:
            given["deals"] = self.deals
        super().__init__(_game_type(game.name), info, given)

    def new_initial_state(self) -> LudorumSpielState:
        """Before the deal (a chance node), or the set-up itself when the seed changes nothing."""
        return LudorumSpielState(self)

    def state_at(self, position: Any) -> LudorumSpielState:
        """A state standing at the Ludorum state ``position``, its history starting there (for measuring
        a search from a chosen position; its record replays from there only)."""
        state = self.new_initial_state()
        state._trail = Trail(self.table, 0, position)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer for tensors and strings (perfect recall: the information state)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.table, self.recall if recall else 0)


class LudorumSpielState(pyspiel.State):  # type: ignore[misc]
    """A position: the trail of its history (:class:`~ludorum.rl.spiel_trail.Trail`)."""

    def __init__(self, game: LudorumSpielGame) -> None:
        super().__init__(game)
        self._t = game.table
        self._trail = Trail(self._t, game.deals, game.initial)
        self._legal: dict[int, Action] | None = None
        self._follow: list[Trail] | None = None  # a resampled history's steps, replayed without recomputing

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
            p = 1.0 / self._trail.deals
            return [(i, p) for i in range(self._trail.deals)]
        outs = self._t.game.chance_outcomes(s)
        return sorted((self._t.chance_index(a), p) for a, p in outs)

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or a seat's action (its index); an illegal one is a ``SpielError``."""
        if self._follow:
            nxt = self._follow.pop()
            assert nxt.action_id == action and nxt.parent is self._trail, "a resampled history diverged"
            self._trail = nxt
        else:
            try:
                self._trail = self._trail.step(int(action))
            except IllegalStep as e:
                raise pyspiel.SpielError(str(e)) from None
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
        """Each seat's share of the win once over (1/k to each of the k seats ranked first); 0 before."""
        if not self.is_terminal():
            return [0.0] * self._t.players
        return list(self._t.game.result(self._trail.state).shares)

    def rewards(self) -> list[float]:
        """Terminal rewards only: the returns, at the end."""
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudorumSpielState:
        """A state whose history ``player_id`` cannot tell from this one's, drawn uniformly among those
        :meth:`~ludorum.rl.spiel_trail.Trail.consistent` finds (``probability_sampler()`` gives a number
        in [0, 1)), with its history: its ``history()`` replays to it."""
        histories = self._trail.consistent(player_id)
        u = float(probability_sampler()) if callable(probability_sampler) else 0.0
        pick = histories[min(int(u * len(histories)), len(histories) - 1)]
        other: LudorumSpielState = self.get_game().new_initial_state()
        start, *steps = pick.nodes()
        other._trail, other._follow = start, steps[::-1]
        for node in steps:
            other.apply_action(node.action_id)
        other._follow = None
        return other

    def __deepcopy__(self, memo: Any) -> LudorumSpielState:
        """States are persistent: a copy shares the trail."""
        other: LudorumSpielState = self.get_game().new_initial_state()
        other._trail, other._legal = self._trail, self._legal
        return other

    def information_state_string(self, player: int | None = None) -> str:
        """Perfect recall: what the player did and saw from the start, step by step."""
        p = self.current_player() if player is None else player
        return f"seat {p}\n{self._trail.recall(p)}"

    def observation_string(self, player: int | None = None) -> str:
        """The player's view, as JSON."""
        p = self.current_player() if player is None else player
        s = self._trail.state
        return "" if s is None else json.dumps(self._t.game.view(s, p), sort_keys=True)

    def __str__(self) -> str:
        s = self._trail.state
        return "before the deal" if s is None else self._t.game.render_text(s, None)


class _Observer:
    """OpenSpiel's observer interface: a tensor (and its named parts) and a string per player.  With
    ``recall`` slots, the information state: the observation and the seat's own actions."""

    def __init__(self, table: Table, recall: int) -> None:
        self.table = table
        self.recall = recall
        n = table.obs_size
        self.tensor = np.zeros(n + recall, np.float32)
        self.dict = {name: self.tensor[o : o + size] for name, o, size, _ in table.layout()}
        if recall:
            self.dict["own_actions"] = self.tensor[n:]

    def set_from(self, state: LudorumSpielState, player: int) -> None:
        """Fill ``tensor``: ``player``'s observation vector (zeros before the deal), then with recall its
        own actions, ``(id + 1) / N`` each, in order (the last ``recall`` of them)."""
        s = state.ludorum_state
        n = self.table.obs_size
        if s is None:
            self.tensor[:n] = 0.0
        else:
            self.tensor[:n] = self.table.observe(s, player)
        if self.recall:
            own = state._trail.own_actions(player)[-self.recall :]
            self.tensor[n:] = 0.0
            self.tensor[n : n + len(own)] = (np.asarray(own, np.float32) + 1.0) / self.table.n_actions

    def string_from(self, state: LudorumSpielState, player: int) -> str:
        """The information state string (perfect recall) or the observation string."""
        if self.recall:
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
        utility=T.Utility.CONSTANT_SUM,
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
            "recall": RECALL,
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
