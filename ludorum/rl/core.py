"""What every adapter shares: one game under one config, its action space, masks, observations, rewards.

:class:`Table` finds the game's :class:`~ludorum.engine.encoding.GameEncoding` where the game declares it
(``Game.provides.encoding``), without knowing any game.  Nothing here reads a state's fields: legal
actions, views and results come through the ``Game`` protocol, the numbering and the observation schema
through the encoding.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

import gymnasium
import numpy as np

from ludorum.engine import CHANCE, Action, Config, ConfigError, Game, GameState
from ludorum.engine.encoding import ActionSpace, GameEncoding
from ludorum.games import registry


def encoding_for(game: Game[Any]) -> GameEncoding:
    """The game's encoding, as it declares it (``Game.provides.encoding``)."""
    enc = game.provides.load_encoding()
    if enc is None:
        raise ConfigError(f"{game.title} declares no RL encoding (Game.provides.encoding)")
    return enc


def make_config(
    name: str, players: int | None = None, variants: Iterable[str] = (), **options: Any
) -> Config:
    """A validated config; an unknown game, player count or variant raises ``ConfigError`` (a
    ``ValueError``) naming what is allowed."""
    game = registry().get(name)
    return game.config(game.min_players if players is None else players, variants, **options)


@cache
def _spaces(game_name: str, config: Config) -> tuple[ActionSpace, ActionSpace, Any]:
    game = registry().get(game_name)
    enc = encoding_for(game)
    return (
        ActionSpace(enc.action_kinds(config)),
        ActionSpace(enc.chance_kinds(config)),
        enc.observation(config),
    )


OBS_LOW, OBS_HIGH = -1.0, 1000.0
"""The observation box: schemas scale numbers to about [0, 1]; -1 marks "none" in raw fields.  Values are
clipped into it, so an observation always lies in its space."""


class LegalDiscrete(gymnasium.spaces.Discrete):
    """``Discrete(N)`` whose ``sample()`` without a mask draws among the actions legal now.

    Every index is in the space (``contains``), but a uniformly drawn one is almost never legal in a game
    with thousands of actions: sampling the legal ones by default is what a random agent — and the
    libraries' own checks, which step with ``action_space.sample()`` — needs.  ``legal()`` gives the mask
    of the actions legal now, or ``None`` (then the whole space is drawn from).
    """

    def __init__(self, n: int, legal: Callable[[], np.ndarray | None]) -> None:
        super().__init__(n)
        self._legal_mask = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A legal action (or one allowed by ``mask``/``probability``, as ``Discrete.sample``)."""
        if mask is None and probability is None:
            current = self._legal_mask()
            if current is not None and current.any():
                mask = current
        return super().sample(mask=mask, probability=probability)


def check_limit(name: str, value: int | None, unit: str) -> None:
    """Refuse an episode limit (``max_cycles``, ``max_steps``) but a positive whole number or ``None``."""
    if value is not None and not (type(value) is int and value >= 1):
        raise ValueError(f"{name} is a positive number of {unit} (or None), not {value!r}")


def masked_out(action: Any, legal: Iterable[int], who: str = "") -> str:
    """The words refusing ``action``, an index the mask leaves out: the first twenty legal ones named."""
    shown = sorted(legal)
    more = "…" if len(shown) > 20 else ""
    whose = f" for {who}" if who else ""
    return f"action {action} is not legal{whose} now (masked out); legal: {shown[:20]}{more}"


NUMBERED_CACHE = 1024
"""How many lists of legal actions a table keeps numbered (then it starts afresh): games revisit the same
short lists (a Medieval Realms placement offers the same areas turn after turn), and numbering one costs
as much as a tenth of the game's own move."""
NUMBERED_TRIAL = 256
"""Lookups after which a table that found fewer lists it had seen than new ones stops keeping them: in
Reliquium and Legends of Signum lists seldom come back, and keeping them cost 8–15 % of PettingZoo's
steps/s, where Medieval Realms gained 14 %."""


class Numbered(dict[int, Action]):
    """Index → concrete action for one list of legal actions, with its mask.  A table hands the same object
    out for every state with that list: read it, do not change it."""

    __slots__ = ("mask_array",)

    mask_array: np.ndarray
    """The list's mask, read-only: :meth:`Table.read_only_mask` hands it out, :meth:`Table.mask` a copy."""


KEYED_CACHE = 65536
"""How many concrete actions a :class:`_KeyedIndex` remembers (then it starts afresh)."""


class _KeyedIndex(dict[Action, int]):
    """Concrete action → index through the encoding's ``action_key``, each action keyed once: the key is a
    Python call, and a game's legal lists repeat the same actions step after step.  A lookup of an action
    the encoding does not number raises ``KeyError`` with its key, as the space's own index would."""

    __slots__ = ("index", "key")

    def __init__(self, index: dict[Action, int], key: Callable[[Action], Action]) -> None:
        super().__init__()
        self.index = index
        self.key = key

    def __missing__(self, action: Action) -> int:
        if len(self) >= KEYED_CACHE:
            self.clear()
        n = self[action] = self.index[self.key(action)]
        return n


class Table:
    """One game under one config, as the adapters see it: numbered actions and fixed-shape observations."""

    def __init__(self, name: str, players: int | None = None, variants: Iterable[str] = (), **options: Any):
        self.game: Game[Any] = registry().get(name)
        self.config = make_config(name, players, variants, **options)
        self.encoding = encoding_for(self.game)
        self.actions, self.chance, self.schema = _spaces(self.game.name, self.config)
        self.players = self.config.players
        self.n_actions = self.actions.n
        self.obs_size: int = self.schema.size
        keyed = type(self.encoding).action_key is not GameEncoding.action_key
        self._index: dict[Action, int] = (
            _KeyedIndex(self.actions.index, self.encoding.action_key) if keyed else self.actions.index
        )
        self._zero_mask = bytes(self.n_actions)
        self.no_actions = np.frombuffer(self._zero_mask, np.int8)
        """The mask of a seat that does not decide now: all zeros, read-only (shared)."""
        self._numbered: dict[tuple[Action, ...], Numbered] = {}
        self._keep_numbered = True
        self._found = self._missed = 0
        # The observations of the last state observed, by seat: PettingZoo asks for one agent's at a
        # time, several times a step (``last()``, ``observe()``), and each costs a view and an encoding.
        self._obs_state: Any = None
        self._obs: dict[int, np.ndarray] = {}
        self._args = (name, players, tuple(variants), options)

    def __deepcopy__(self, memo: Any) -> Table:
        return self  # holds no game state: copies of environments and OpenSpiel states share it

    def __reduce__(self) -> tuple[Any, ...]:
        name, players, variants, options = self._args
        return (_table, (name, players, variants, options))

    # -- actions -------------------------------------------------------------------------------------

    def legal(self, state: GameState) -> dict[int, Action]:
        """Index → concrete action for everything the deciding seat may do now (open-kind grid included).

        Without open kinds the numbering depends on the list of legal actions alone, so a list seen before
        gets the :class:`Numbered` it got then (shared: read-only).  Raises ``KeyError`` naming the action
        if the encoding does not number a legal action (a bug the round-trip test exists to catch).
        """
        game = self.game
        legal = game.legal_actions(state)
        opened = game.open_kinds(state)
        if opened or not self._keep_numbered:
            return self._number(legal, state, opened)
        key = tuple(legal)
        known = self._numbered.get(key)
        if known is not None:
            self._found += 1
            return known
        self._missed += 1
        if self._found + self._missed >= NUMBERED_TRIAL and self._missed > self._found:
            self._keep_numbered = False
            self._numbered.clear()
            return self._number(legal, state, ())
        out = Numbered(self._number(legal, state, ()))
        out.mask_array = self._frozen_mask(out)
        if len(self._numbered) >= NUMBERED_CACHE:
            self._numbered.clear()
        self._numbered[key] = out
        return out

    def _number(self, legal: Sequence[Action], state: GameState, opened: Iterable[str]) -> dict[int, Action]:
        game = self.game
        try:  # map and zip: the loop over the legal actions runs in C
            numbers = map(self._index.__getitem__, legal)
            out = dict(zip(numbers, legal, strict=True))
        except KeyError as e:
            raise KeyError(
                f"{self.game.title}: the encoding does not number the legal action {e.args[0]}"
            ) from None
        if len(out) != len(legal):
            raise KeyError(f"{self.game.title}: two legal actions share an index")
        grid_index = self.actions.index  # grid actions are numbered as they are, not through action_key
        for kind in opened:
            for grid, concrete in self.encoding.open_actions(game, state, kind):
                out.setdefault(grid_index[grid], concrete)
        return out

    def mask(self, legal: Iterable[int]) -> np.ndarray:
        """The ``int8`` mask of the indices ``legal`` (a new array each time: the caller may keep it)."""
        if isinstance(legal, Numbered):
            return legal.mask_array.copy()
        return np.frombuffer(self._mask_bytes(legal), np.int8)

    def read_only_mask(self, legal: Iterable[int]) -> np.ndarray:
        """:meth:`mask`, read-only (numpy refuses writes): a list of legal actions seen before gives the
        mask it gave then, not a copy.  PettingZoo's environment hands these out; Gymnasium's checker asks
        for new objects at every step, so its environment takes :meth:`mask`."""
        if isinstance(legal, Numbered):
            return legal.mask_array
        return self._frozen_mask(legal)

    def _frozen_mask(self, legal: Iterable[int]) -> np.ndarray:
        return np.frombuffer(bytes(self._mask_bytes(legal)), np.int8)  # over bytes: numpy refuses writes

    def _mask_bytes(self, legal: Iterable[int]) -> bytearray:
        m = bytearray(self._zero_mask)  # a few legal indices: setting bytes beats numpy's fancy indexing
        for i in legal:
            m[i] = 1
        return m

    def chance_index(self, action: Action) -> int:
        """The number of a chance outcome."""
        return self.chance.index[action]

    def resolve_chance(self, state: GameState) -> GameState:
        """Play chance decisions from the state's own seeded generator until a seat decides or it ends."""
        return self.advance(state)[0]

    def advance(self, state: GameState) -> tuple[GameState, int | None]:
        """:meth:`resolve_chance`, also giving the seat to decide (``None`` once the game is over)."""
        game = self.game
        while not game.is_over(state):
            seat = game.to_move(state)
            if seat != CHANCE:
                return state, seat
            state = game.apply_chance(state, game.sample_chance(state))
        return state, None

    # -- observations and rewards ------------------------------------------------------------------

    def observe(self, state: GameState, seat: int) -> np.ndarray:
        """``seat``'s observation vector (``float32``), computed from ``Game.view(state, seat)`` only.

        Read-only (numpy refuses writes): the same array is handed out again for the same state and seat,
        so a reader that changed it would change what the next reader gets."""
        if state is not self._obs_state:
            self._obs_state, self._obs = state, {}
        else:
            cached = self._obs.get(seat)
            if cached is not None:
                return cached
        floats = self.encoding.encode_view(self.schema, self.game.view(state, seat), seat)
        if isinstance(floats, array) and floats.typecode == "f":
            obs = np.frombuffer(floats, np.float32)  # the compiled schema's buffer, not copied
        else:
            obs = np.array(floats, np.float32)
        np.clip(obs, OBS_LOW, OBS_HIGH, out=obs)
        obs.flags.writeable = False
        self._obs[seat] = obs
        return obs

    def global_observation(self, state: GameState) -> np.ndarray:
        """Every seat's observation side by side, seat 0 first: what all the seats see between them (for a
        centralised critic), never what no seat sees yet (a deck's order).  A new read-only array."""
        out = np.concatenate([self.observe(state, seat) for seat in range(self.players)])
        out.flags.writeable = False
        return out

    def layout(self) -> list[tuple[str, int, int, str]]:
        """``(name, offset, size, meaning)`` of each part of the observation vector."""
        return self.schema.layout()  # type: ignore[no-any-return]

    def utilities(self, state: GameState) -> list[float]:
        """Terminal rewards: 1 to every seat ranked first (a shared first place included), else 0."""
        ranking = self.game.result(state).ranking
        return [1.0 if r == 1 else 0.0 for r in ranking]

    def describe(self, state: GameState, index: int, legal: dict[int, Action] | None = None) -> str:
        """The label of action ``index`` in ``state`` (its concrete action when legal)."""
        a = (legal or {}).get(index, self.actions.actions[index])
        return f"{index}: {a}"


def _table(name: str, players: int | None, variants: tuple[str, ...], options: dict[str, Any]) -> Table:
    return Table(name, players, variants, **options)


def supported_games() -> Sequence[str]:
    """Registered games that declare an RL encoding (read from the declaration, nothing imported)."""
    return [game.name for game in registry() if game.provides.encoding]
