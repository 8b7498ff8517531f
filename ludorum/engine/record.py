"""Records: a game as its config, seed and (seat, action) list — the save file, replay and bug report.

Everything else about a game is derived by :func:`replay`.  A corrupt record, or one that does not fit
its game, is refused with a :class:`RecordError` naming the step that failed and why.
"""

from __future__ import annotations

import codecs
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ludorum.engine.actions import Action
from ludorum.engine.config import Config
from ludorum.engine.errors import CodecError, ConfigError, IllegalAction, RecordError
from ludorum.engine.game import CHANCE, Game, Result
from ludorum.engine.i18n import T
from ludorum.engine.state import GameState

FORMAT_VERSION = 1

MAX_SEED = 2**64 - 1
"""The largest seed magnitude a game may be played and stored with, everywhere (the command line, the
server): the generator keeps 64 bits, and the same rule holds on every database (the seed column holds
decimal text of at most 40 characters)."""

LEGACY_RULES = 1
"""The rules version of a record that names none: every record before versions existed."""

TIMEOUT = -2
"""The seat of a step recording that the deciding seat ran out of time (a game played with a clock).
Such a step changes no state and is no move of the game's rules.  ``timeout(seat)``: the seat lost; it
ends the record, whose result is :func:`timeout_result`.  ``timeout(seat, "bot")``: a bot took the
seat over and the game goes on (who plays a seat is otherwise not recorded; this is, because it is
the clock's decision, taken once)."""

HANDOVER = "bot"
"""The second argument of a timeout step after which a bot plays the seat."""


def timeout_step(seat: int, handover: bool = False) -> Action:
    """The step recording that ``seat`` ran out of time (taken by :data:`TIMEOUT`): it loses, or with
    ``handover`` a bot takes the seat."""
    return Action("timeout", (seat, HANDOVER) if handover else (seat,))


def timed_out_seat(action: Action) -> int:
    """The seat a timeout step (:func:`timeout_step`) says ran out of time."""
    seat = action.args[0]
    assert type(seat) is int, action  # made by timeout_step, or checked by replay_states
    return seat


def is_handover(action: Action) -> bool:
    """Whether a timeout step handed the seat to a bot (else the seat lost)."""
    return action.args[1:] == (HANDOVER,)


def time_up(game: Game[Any], state: GameState, seat: int, handover: bool = False) -> str:
    """What a timeout step says (the log, the terminal, a lost game's reason): ``seat`` ran out of time,
    and with ``handover`` a bot takes the seat."""
    who = game.seat_name(state, seat)
    if handover:
        return T("{who} ran out of time: a bot takes the seat", who=who)
    return T("{who} ran out of time", who=who)


def timeout_result(game: Game[Any], state: GameState, seat: int) -> Result:
    """How a game ends when ``seat`` runs out of time: that seat is ranked last with nothing, every
    other seat shares the first place."""
    players = state.config.players
    ranking = tuple(players if s == seat else 1 for s in range(players))
    scores = tuple(0.0 if s == seat else 1.0 for s in range(players))
    return Result(scores, ranking, time_up(game, state, seat))


def timed_out(steps: list[tuple[int, Action]]) -> int | None:
    """The seat that lost on time, if these steps end with a :data:`TIMEOUT` step saying so."""
    if steps and steps[-1][0] == TIMEOUT and steps[-1][1].args and not is_handover(steps[-1][1]):
        seat = steps[-1][1].args[0]
        return seat if type(seat) is int else None
    return None


def finished(game: Game[Any], steps: list[tuple[int, Action]], state: GameState) -> bool:
    """Whether the game of ``steps`` (which left it in ``state``) has ended: by its rules, or by a seat's
    time running out (:func:`ending` says how, at the cost of the result)."""
    return game.is_over(state) or timed_out(steps) is not None


def ending(game: Game[Any], steps: list[tuple[int, Action]], state: GameState) -> Result | None:
    """How the game of ``steps`` (which left it in ``state``) ended: by its rules, or by a seat's time
    running out; ``None`` while it goes on."""
    lost = timed_out(steps)
    if lost is not None:
        return timeout_result(game, state, lost)
    return game.result(state) if game.is_over(state) else None


@dataclasses.dataclass(slots=True)
class Record:
    """A game from its first decision: what was set up and every decision made, in order."""

    game: str
    config: Config
    seed: int
    steps: list[tuple[int, Action]] = dataclasses.field(default_factory=list)
    result: Result | None = None
    format: int = FORMAT_VERSION
    rules: int | None = None
    """The rules-and-content version the game was played under (``Game.rules_version``); ``None`` only
    for a record built in memory by a caller that plays it under the current rules."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form (chance decisions carry the seat ``-1``)."""
        return {
            "format": self.format,
            "game": self.game,
            "rules": self.rules,
            "config": self.config.to_json(),
            "seed": self.seed,
            "steps": [[seat, action.to_json()] for seat, action in self.steps],
            "result": self.result.to_json() if self.result else None,
        }

    def dumps(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False)

    @staticmethod
    def from_json(data: Any) -> Record:
        """Decode a record, refusing a malformed one with a clear message."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        missing = {"format", "game", "config", "seed", "steps"} - data.keys()
        if missing:
            raise RecordError(f"the record lacks {', '.join(sorted(missing))}")
        if data["format"] != FORMAT_VERSION:
            raise RecordError(
                f"record format {data['format']!r} is not {FORMAT_VERSION}, the one this version reads"
            )
        if not isinstance(data["game"], str):
            raise RecordError("the record's 'game' is a game name")
        if type(data["seed"]) is not int:
            raise RecordError("the record's 'seed' is a whole number")
        try:
            config = Config.from_json(data["config"])
        except ConfigError as e:
            raise RecordError(f"the record's config: {e}") from None
        if not isinstance(data["steps"], list):
            raise RecordError("the record's 'steps' is a list of [seat, action] pairs")
        steps: list[tuple[int, Action]] = []
        for i, step in enumerate(data["steps"]):
            if not (isinstance(step, list) and len(step) == 2 and type(step[0]) is int):
                raise RecordError(f"step {i}: expected [seat, action], found {step!r:.60}")
            try:
                steps.append((step[0], Action.from_json(step[1])))
            except CodecError as e:
                raise RecordError(f"step {i}: {e}") from None
        # Records written before rules versions existed were all played under version 1.
        rules = data.get("rules", LEGACY_RULES)
        if type(rules) is not int or rules < 1:
            raise RecordError("the record's 'rules' is the rules version it was played under (1, 2, ...)")
        result = None
        if data.get("result") is not None:
            try:
                result = Result.from_json(data["result"])
            except (KeyError, TypeError, ValueError) as e:
                raise RecordError(f"the record's result is malformed: {e}") from None
        return Record(data["game"], config, data["seed"], steps, result, rules=rules)

    @staticmethod
    def loads(text: str) -> Record:
        """Parse JSON text into a record."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"the record is not valid JSON: {e}") from None
        except RecursionError:  # the parser recurses once per level: [[[[... is no record
            raise RecordError("the record is nested too deeply to be a record") from None
        return Record.from_json(data)

    @staticmethod
    def read(path: Path) -> Record:
        """The record saved in the file at ``path`` (``OSError`` if it cannot be read)."""
        return Record.loads(decode_text(path.read_bytes()))


def decode_text(data: bytes) -> str:
    """A saved file's bytes as text: UTF-8, a leading byte-order mark allowed; anything else is refused
    with a :class:`RecordError` saying what it is."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise RecordError("the file is UTF-16 text; a record is UTF-8 text (save it as UTF-8)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(
            f"the file is not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start}): it is no record"
        ) from None


def check_rules(game: Game[Any], record: Record) -> None:
    """Refuse a record played under another version of the game's rules: it would replay differently."""
    if record.rules is not None and record.rules != game.rules_version:
        raise RecordError(
            f"this record was played under {game.title} rules version {record.rules}, and these are "
            f"version {game.rules_version}: it cannot be replayed under other rules"
        )


def replay_states(game: Game[Any], record: Record) -> Iterator[GameState]:
    """Yield the initial state and the state after each step, checking every step as it goes."""
    if record.game != game.name:
        raise RecordError(f"the record is of {record.game!r}, not {game.name!r}")
    check_rules(game, record)
    try:
        game.validate_config(record.config)
    except ConfigError as e:
        raise RecordError(f"the record's config is refused: {e}") from None
    state: GameState = game.new(record.config, record.seed)
    yield state
    for i, (seat, action) in enumerate(record.steps):
        where = f"step {i} ({'chance' if seat == CHANCE else f'seat {seat}'}: {action})"
        if game.is_over(state):
            raise RecordError(f"{where}: the game was already over")
        to_move = game.to_move(state)
        if seat == TIMEOUT:  # not a move: the deciding seat ran out of time
            if action == timeout_step(to_move, handover=True):  # a bot plays on
                yield state
                continue
            if i != len(record.steps) - 1 or action != timeout_step(to_move):
                raise RecordError(
                    f"{where}: a timeout names the deciding seat, and one that loses is the last step"
                )
            yield state
            return
        if seat != to_move:
            who = "chance" if to_move == CHANCE else f"seat {to_move}"
            raise RecordError(f"{where}: it was {who}'s decision")
        try:
            state = game.step(state, action)
        except IllegalAction as e:
            raise RecordError(f"{where}: refused: {e}") from None
        yield state


def replay(game: Game[Any], record: Record) -> GameState:
    """The final state of ``record``; also checks a stored result against the replayed one."""
    *_, state = replay_states(game, record)
    wrong = stored_result_error(game, record, state)
    if wrong is not None:
        raise RecordError(wrong)
    return state


def stored_result_error(game: Game[Any], record: Record, state: GameState) -> str | None:
    """What is wrong with the result ``record`` states, given ``state``, the one its steps lead to
    (``None``: it states none, or the right one)."""
    if record.result is None:
        return None
    actual = ending(game, record.steps, state)
    if actual is None:
        return "the record states a result but its game is not over"
    if actual != record.result:
        return "the record's result differs from the replayed game's"
    return None


class Playthrough:
    """A game being played: the current state and its record, advanced one decision at a time."""

    def __init__(self, game: Game[Any], config: Config, seed: int) -> None:
        self.game = game
        self.state: GameState = game.new(config, seed)
        self.record = Record(game.name, config, seed, rules=game.rules_version)

    @classmethod
    def resume(cls, game: Game[Any], record: Record) -> Playthrough:
        """Continue a recorded game from its last step."""
        self = cls.__new__(cls)
        self.game = game
        self.state = replay(game, record)
        rules = game.rules_version if record.rules is None else record.rules
        self.record = dataclasses.replace(record, steps=list(record.steps), rules=rules)
        return self

    def to_move(self) -> int:
        """Whose decision it is."""
        return self.game.to_move(self.state)

    def is_over(self) -> bool:
        """Whether the game has ended (by its rules, or by a seat running out of time)."""
        return finished(self.game, self.record.steps, self.state)

    def play(self, action: Action) -> None:
        """Apply ``action`` for the deciding seat; an illegal one raises and changes nothing."""
        seat = self.game.to_move(self.state)
        self.state = self.game.step(self.state, action)
        self.record.steps.append((seat, action))
        if self.game.is_over(self.state):
            self.record.result = self.game.result(self.state)

    def time_out(self, handover: bool = False) -> None:
        """The deciding seat ran out of time: it loses (the record ends with a :data:`TIMEOUT` step),
        or with ``handover`` the step records that a bot plays on for it."""
        seat = self.to_move()
        self.record.steps.append((TIMEOUT, timeout_step(seat, handover)))
        if not handover:
            self.record.result = timeout_result(self.game, self.state, seat)

    def result(self) -> Result:
        """How the finished game ended (by its rules, or by a seat's time running out)."""
        return self.record.result if self.record.result is not None else self.game.result(self.state)

    def resolve_chance(self) -> None:
        """Let chance decide, from the state's own generator, until a seat decides or the game ends."""
        while not self.is_over() and self.to_move() == CHANCE:
            self.play(self.game.sample_chance(self.state))
