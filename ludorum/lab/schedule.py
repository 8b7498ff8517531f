"""Which game is played with which bots in which seats, with which setup and seed.

A tournament is a cycle of *arrangements* — a bot lineup (one kind per seat) crossed with a setup (the
options that seat factions or decks, from the game's fact reader) — repeated.  Lineups and setups are
rotated so that every bot sits in every seat, and every deck or faction in every seat, equally often
over a cycle; the game count is rounded up to whole cycles.  Game ``i`` plays arrangement ``i % cycle``
with seed ``seed + i // cycle``: every arrangement of a cycle meets the same seed (common random
numbers), so differences between seats and decks are not drowned in the luck of the draw.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations, product
from typing import Any

from ludorum.agents import bot_kinds
from ludorum.agents.kinds import is_experiment_kind, uncapped
from ludorum.engine import Config, ConfigError, Game
from ludorum.engine.actions import Scalar
from ludorum.games import registry
from ludorum.lab.errors import LabError

Options = tuple[tuple[str, Scalar], ...]


@dataclass(frozen=True, slots=True)
class Spec:
    """Everything that decides a tournament's games (not how many, nor who runs them)."""

    game: str
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    variants: tuple[str, ...] = ()
    content: str = "base"
    options: Options = ()
    rotate: bool = True
    """Rotate factions or decks through the seats (when the options do not fix them)."""
    weights: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()
    """Bot label → tunable weights it plays with (``ludorum tune``); a label is ``kind`` or ``kind:name``."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form kept in every results line, so a resumed run can tell it is the same one."""
        extra = {"weights": {label: dict(w) for label, w in self.weights}} if self.weights else {}
        return extra | {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "variants": list(self.variants),
            "content": self.content,
            "options": dict(self.options),
            "rotate": self.rotate,
        }

    @property
    def digest(self) -> str:
        """A short fingerprint of :meth:`to_json`."""
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def differences(self, other: Mapping[str, Any]) -> str:
        """How another spec's JSON differs from this one, in words (for a refused results file)."""
        mine = self.to_json()
        return "; ".join(
            f"{key} {other.get(key)!r} there, {mine.get(key)!r} here"
            for key in [*mine, *(k for k in other if k not in mine)]
            if mine.get(key) != other.get(key)
        )


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: picklable, so that any worker, local or remote, can play it."""

    index: int
    game: str
    config: Config
    seed: int
    bots: tuple[str, ...]
    setup: Options
    spec: Spec = field(repr=False)


def kind_of(label: str) -> str:
    """The bot kind of a label: ``"medium:tuned"`` → ``"medium"`` (a label names one player of a kind)."""
    return label.partition(":")[0]


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Bot lineups in which every bot sits in every seat equally often.

    One kind fills every seat.  With at least as many kinds as seats, each set of ``players`` kinds is
    turned cyclically through the seats.  With fewer, every assignment that seats each kind at least
    once is used — a set closed under renaming kinds and permuting seats, hence balanced.
    """
    if len(bots) == 1:
        return [tuple(bots) * players]
    if len(bots) >= players:
        return [chosen[i:] + chosen[:i] for chosen in combinations(bots, players) for i in range(players)]
    return [lineup for lineup in product(bots, repeat=players) if set(lineup) == set(bots)]


class Schedule:
    """A validated :class:`Spec` and its cycle of arrangements; bad input is refused here, up front."""

    def __init__(self, spec: Spec) -> None:
        try:
            self.game: Game[Any] = registry().get(spec.game)
        except ConfigError as e:
            raise LabError(str(e)) from None
        if not spec.bots:
            raise LabError("name at least one bot kind")
        kinds = bot_kinds(self.game)
        unknown = list(
            dict.fromkeys(kind_of(b) for b in spec.bots if not is_experiment_kind(self.game, kind_of(b)))
        )
        if unknown:
            raise LabError(
                f"no bot kind {', '.join(map(repr, unknown))} for {self.game.title}; "
                f"the kinds are {', '.join(kinds)}, or a variant of a level (easy/bias=1)"
            )
        for label in spec.bots:
            try:
                uncapped(self.game, kind_of(label))  # a variant's wrong setting, before any game
            except ValueError as e:
                raise LabError(str(e)) from None
        twice = sorted({b for b in spec.bots if spec.bots.count(b) > 1})
        if twice:
            raise LabError(f"bot kind {', '.join(map(repr, twice))} is listed twice; name each kind once")
        self.spec = spec
        self.base = self._config({})
        self.reader = self.game.provides.load_facts()
        tunables = self.game.provides.load_tunables()
        for label, weights in spec.weights:
            if label not in spec.bots:
                raise LabError(
                    f"weights are given for {label!r}, which is not among the bots {', '.join(spec.bots)}"
                )
            bad = [name for name, _ in weights if name not in tunables]
            if bad:
                raise LabError(
                    f"{self.game.title} has no tunable weight {', '.join(map(repr, bad))}; "
                    f"its weights are {', '.join(tunables) or 'none'}"
                )
        setups = self.reader.setups(self.base) if spec.rotate else [{}]
        self.arrangements: list[tuple[tuple[str, ...], Options]] = [
            (lineup, tuple(sorted(setup.items())))
            for setup in setups
            for lineup in lineups(spec.bots, spec.players)
        ]
        for _, setup in self.arrangements:
            self._config(dict(setup))  # every arrangement must be a valid game, before any is played

    def _config(self, setup: Mapping[str, Scalar]) -> Config:
        spec = self.spec
        try:
            return self.game.config(
                spec.players, spec.variants, spec.content, **{**dict(spec.options), **setup}
            )
        except ConfigError as e:
            raise LabError(str(e)) from None

    @property
    def cycle(self) -> int:
        """Games in one full rotation of lineups and setups."""
        return len(self.arrangements)

    def rounded(self, games: int) -> int:
        """``games`` rounded up to whole cycles (at least one)."""
        if games < 1:
            raise LabError(f"the number of games is at least 1, not {games}")
        return -(-games // self.cycle) * self.cycle

    @cached_property
    def _configs(self) -> list[Config]:
        return [self._config(dict(setup)) for _, setup in self.arrangements]

    def task(self, index: int) -> GameTask:
        """Game ``index`` of the tournament."""
        lineup, setup = self.arrangements[index % self.cycle]
        seed = self.spec.seed + index // self.cycle
        return GameTask(
            index, self.spec.game, self._configs[index % self.cycle], seed, lineup, setup, self.spec
        )
