"""The ``Game`` protocol every game implements and every layer above uses.

A game is a pure state machine (DESIGN.md §2): ``new`` sets it up from a validated config and a seed;
at every point exactly one seat — or chance (:data:`CHANCE`) — decides among ``legal_actions``;
``apply`` returns the next state or raises :class:`~ludorum.engine.errors.IllegalAction` leaving its
input untouched.  ``view`` is the only projection of a state that may leave the engine for a seat.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from ludorum.engine import rng as rngmod
from ludorum.engine.actions import Action, Scalar
from ludorum.engine.config import Config, check_bounds
from ludorum.engine.errors import ConfigError, IllegalAction
from ludorum.engine.evaluation import Evaluation
from ludorum.engine.options import Option, text_options
from ludorum.engine.options import check as check_option_values
from ludorum.engine.provides import Provides
from ludorum.engine.state import GameState, derive_view

S = TypeVar("S", bound=GameState)

CHANCE = -1
"""``to_move`` returns this when chance decides: the actions are outcomes (``chance_outcomes``)."""

CANCEL = Action("cancel")
"""Backs out of a pending compound decision, restoring the state before it began."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: a score per seat, a rank per seat (1 = first; ties share) and why."""

    scores: tuple[float, ...]
    ranking: tuple[int, ...]
    reason: str

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first."""
        return tuple(s for s, r in enumerate(self.ranking) if r == 1)

    @property
    def shares(self) -> tuple[float, ...]:
        """Each seat's share of the win: 1/k to each of the k seats ranked first, 0 to the others, so
        that the shares of a game sum to 1 (search rewards, tournament and balance win rates)."""
        k = self.ranking.count(1)
        return tuple(1.0 / k if r == 1 else 0.0 for r in self.ranking)

    @staticmethod
    def from_keys(keys: Sequence[Sequence[float]], reason: str) -> Result:
        """Rank seats by comparable keys (first entry = score, the rest tie-breaks); equal keys tie."""
        ranking = tuple(1 + sum(1 for other in keys if tuple(other) > tuple(k)) for k in keys)
        return Result(tuple(float(k[0]) for k in keys), ranking, reason)

    def to_json(self) -> dict[str, Any]:
        """The JSON form used in records and the API."""
        return {"scores": list(self.scores), "ranking": list(self.ranking), "reason": self.reason}

    @staticmethod
    def from_json(data: Any) -> Result:
        """Decode :meth:`to_json` output."""
        return Result(tuple(data["scores"]), tuple(data["ranking"]), str(data["reason"]))


def uniform_action(legal: Sequence[Action], rng: random.Random) -> Action:
    """An action of ``legal`` drawn uniformly, never CANCEL when anything else is there (backing out of
    a compound decision only undoes it: a random player would otherwise spend its time undoing)."""
    a = legal[rng.randrange(len(legal))]
    if a == CANCEL and len(legal) > 1:
        return rng.choice([b for b in legal if b != CANCEL])
    return a


class Game(ABC, Generic[S]):
    """One game's rules.  Subclasses set the class attributes and implement the abstract methods."""

    name: ClassVar[str]
    """The registry name (``"reliquium"``)."""
    title: ClassVar[str]
    """The name players know it by."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    variants: ClassVar[Mapping[str, str]] = {}
    """Variant name → one-line description."""
    contents: ClassVar[tuple[str, ...]] = ("base",)
    """Content sets the game can load."""
    options: ClassVar[tuple[Option, ...]] = ()
    """The game's options with the values each takes (:mod:`ludorum.engine.options`)."""
    option_names: ClassVar[Mapping[str, str]] = {}
    """Option name → description; derived from ``options`` when a game declares them."""
    blurb: ClassVar[str] = ""
    """What the game is, in a sentence or two, for the lobby."""
    length: ClassVar[str] = ""
    """How long a game takes, in words ("about 45 minutes"), for the lobby."""
    state_type: ClassVar[type[GameState]]
    private_kinds: ClassVar[frozenset[str]] = frozenset()
    """Kinds of action whose choice only the actor learns by the rules (a card set face down).  Every other
    observer reads such a step as a secret decision (:mod:`ludorum.engine.disclosure`) without sampling its
    information set: where few sampled states explain the view afterwards, sampling could miss the other
    choices and show the one taken."""
    public_kinds: ClassVar[frozenset[str]] = frozenset()
    """Kinds of action that every other observer always tells apart from all others: in no state of its
    information set does any other legal action leave it the view such a step leaves it (a bid made
    openly, a card played from a public hand).  The disclosure then steps only the action taken in each
    state it draws, not every legal one, and reads exactly what the full judgement reads; the
    conformance kit checks that on every step it checks, so a wrong declaration fails it."""
    public_labels: ClassVar[frozenset[str]] = frozenset()
    """Kinds among ``public_kinds`` whose label (``describe``) names only what every other observer sees:
    in every state of an observer's information set in which such an action is legal, its label reads
    the same (an open bid of 3 Gold, a card played face up).  Every other observer then reads such a step
    as its label at once, without drawing its information set.  The conformance kit compares that with
    the full judgement at every step it checks (and, where the full judgement's draws explain nothing,
    with the true state and the draws: :func:`ludorum.engine.conformance.check_public_step`), so a
    wrong declaration fails it."""
    plain_labels: ClassVar[bool] = False
    """Whether every label (``describe``) of the deciding seat's legal actions reads the same in every
    state that seat cannot tell apart from the true one: its safe labels are then the labels, without
    drawing its information set (:func:`ludorum.engine.disclosure.safe_labels`).  The conformance kit
    compares them with the drawn judgement at every step it checks, so a wrong declaration fails it."""
    provides: ClassVar[Provides] = Provides()
    """What the game offers the layers above its rules — search evaluation, lab facts, tunable weights, RL
    encoding, rules page — as hooks resolved on use (:mod:`ludorum.engine.provides`)."""
    rules_version: ClassVar[int] = 1
    """The version of this game's rules and content.  Any change that makes a record play differently
    bumps it; records and stored games carry it, and one of another version is never replayed."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "options" in cls.__dict__:  # declared structurally: the names are derived, never written twice
            cls.option_names = {o.name: o.summary() for o in cls.options}

    @classmethod
    def option_specs(cls) -> tuple[Option, ...]:
        """The options with their values described (plain text ones for games that give only names)."""
        return cls.options or text_options(cls.option_names)

    # -- configuration -----------------------------------------------------------------------------

    def config(
        self,
        players: int,
        variants: Iterable[str] = (),
        content: str = "base",
        **options: Scalar,
    ) -> Config:
        """Build a validated config; a bad one raises :class:`ConfigError` saying what is wrong."""
        cfg = Config(players, tuple(sorted(set(variants))), content, tuple(sorted(options.items())))
        self.validate_config(cfg)
        return cfg

    def validate_config(self, config: Config) -> None:
        """Refuse a config this game cannot be set up with."""
        check_bounds(config.variants, config.content, dict(config.options))
        if not self.min_players <= config.players <= self.max_players:
            raise ConfigError(
                f"{self.title} is for {self.min_players}–{self.max_players} players, not {config.players}"
            )
        unknown = [v for v in config.variants if v not in self.variants]
        if unknown:
            raise ConfigError(
                f"{self.title} has no variant {', '.join(map(repr, unknown))}; "
                f"its variants are {', '.join(self.variants) or 'none'}"
            )
        if config.content not in self.contents:
            raise ConfigError(f"{self.title} has no content set {config.content!r}")
        for key, _ in config.options:
            if key not in self.option_names:
                known = ", ".join(self.option_names) or "none"
                raise ConfigError(f"{self.title} has no option {key!r}; its options are {known}")
        check_option_values(self.option_specs(), config)
        self.check_options(config)

    def check_options(self, config: Config) -> None:
        """Validate option values (games with options override this)."""

    # -- the state machine ---------------------------------------------------------------------------

    @abstractmethod
    def new(self, config: Config, seed: int) -> S:
        """The initial state for a validated ``config``; all chance draws come from ``seed``."""

    @abstractmethod
    def to_move(self, state: S) -> int:
        """The seat whose decision it is, or :data:`CHANCE`; meaningless once the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[Action]:
        """Every action the deciding seat may take now (empty once the game is over)."""

    def open_kinds(self, state: S) -> Mapping[str, str]:
        """Action kinds the deciding seat may also take with free arguments, beyond ``legal_actions``.

        Some choices are continuous (a model placed at any exact point of a battlefield): the legal list
        offers a finite, expressive sample of them, and ``apply`` validates any other argument exactly.
        Maps each such kind to a description of its arguments; empty for most games.
        """
        return {}

    def random_action(self, state: S, rng: random.Random) -> Action:
        """An action drawn uniformly from ``legal_actions(state)`` without CANCEL (CANCEL only when nothing
        else is legal): what a random rollout plays.  A game may override it with a faster sampler of
        exactly this distribution (one that need not list every legal action first)."""
        return uniform_action(self.legal_actions(state), rng)

    @abstractmethod
    def apply(self, state: S, action: Action) -> S:
        """The state after ``action``; raises ``IllegalAction`` and leaves ``state`` unchanged if illegal."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self, state: S) -> Result:
        """Scores, ranking and reason of a finished game."""

    @abstractmethod
    def max_decisions(self, config: Config) -> int:
        """A bound on the number of decisions (chance included) any game with ``config`` takes."""

    # -- chance --------------------------------------------------------------------------------------

    def chance_outcomes(self, state: S) -> Sequence[tuple[Action, float]]:
        """The outcomes of a chance decision with their probabilities (uniform unless overridden)."""
        legal = self.legal_actions(state)
        return [(a, 1.0 / len(legal)) for a in legal]

    def sample_chance(self, state: S) -> Action:
        """Draw a chance outcome from the state's own generator (without advancing it)."""
        outcomes = self.chance_outcomes(state)
        index, _ = rngmod.weighted(state.rng, [p for _, p in outcomes])
        return outcomes[index][0]

    def apply_chance(self, state: S, action: Action) -> S:
        """Apply a chance outcome and advance the generator by one draw, as replay does."""
        nxt = self.apply(state, action)
        nxt.rng = rngmod.next_u64(state.rng)[1]
        return nxt

    def step(self, state: S, action: Action) -> S:
        """Apply ``action`` for whoever decides now (chance outcomes advance the generator)."""
        if self.to_move(state) == CHANCE:
            return self.apply_chance(state, action)
        return self.apply(state, action)

    # -- information ----------------------------------------------------------------------------------

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see, as JSON data; never another seat's secrets.

        Read-only for the caller: a game may share parts of it with other views it returns (Legends of
        Signum shares its card summaries), so a caller that needs to change one copies it first.
        """
        return derive_view(state, seat)

    def view_equals(self, state: S, seat: int | None, view: Mapping[str, Any]) -> bool:
        """Whether ``self.view(state, seat) == view``.  The disclosure asks this of every legal action of
        every state it draws, and nearly always the answer is no, so a game may answer it without
        building the whole view (:func:`~ludorum.engine.state.derived_view_matches`); it must agree
        with ``view`` exactly (``tests/engine/test_view_equals.py`` checks every game's)."""
        return self.view(state, seat) == view

    def sample_state(self, state: S, seat: int | None, rng: random.Random) -> S:
        """A full state drawn from those ``seat`` cannot tell apart from ``state`` (its information set).

        Games with hidden information redraw everything the seat does not know; the default suits
        games of perfect information.
        """
        return state.clone()

    def describe(self, state: S, action: Action) -> str:
        """The action's human label in the rulebook's words."""
        return str(action)

    def stage(self, state: S) -> str:
        """The round and turn ``state`` is in, in words ("Round 3 · Legion's turn"); the log shows a
        marker wherever it changes.  It must say nothing hidden.  Empty (the default): no markers."""
        return ""

    def seat_name(self, state: S, seat: int) -> str:
        """What a seat is called in this game (a faction, a colour)."""
        return f"Player {seat + 1}"

    def render_text(self, state: S, seat: int | None) -> str:
        """The view as text, for the terminal."""
        return json.dumps(self.view(state, seat), indent=1, ensure_ascii=False)

    def describe_error(self, state: S, action: Action) -> IllegalAction | None:
        """Check ``action`` without applying it: the refusal it would meet, or ``None``."""
        try:
            self.apply(state, action)
        except IllegalAction as e:
            return e
        return None

    # -- serialisation ---------------------------------------------------------------------------------

    def state_to_json(self, state: S) -> dict[str, Any]:
        """The full state as JSON data."""
        return state.to_json()

    def state_from_json(self, data: Any) -> S:
        """Rebuild a full state from :meth:`state_to_json` output."""
        return self.state_type.from_json(data)  # type: ignore[return-value]

    def effects(self) -> Mapping[str, Mapping[str, Any]]:
        """What each thing of the game does, for the table's tooltips: by the key the game's renderer
        names it with, its ``name`` and ``text`` (messages, said in the reader's language).  Static,
        public content, the same for every game of this kind: it names no game's hidden cards."""
        return {}

    # -- bots ------------------------------------------------------------------------------------------

    def bots(self) -> Mapping[str, Callable[[], Any]]:
        """Game-specific bot kinds (for example ``{"heuristic": ...}``), each a factory of a
        :class:`ludorum.engine.bots.Bot` (not imported here: bots depend on the game, not back)."""
        return {}

    def evaluation(self) -> Evaluation[S] | None:
        """What search bots need from this game: a state evaluation (a value in [0, 1] per seat) and
        optionally a fast rollout policy (:mod:`ludorum.engine.evaluation`); ``None``: play out to the end.
        The one declared in :attr:`provides`, unless a game overrides this."""
        return self.provides.load_evaluation()
