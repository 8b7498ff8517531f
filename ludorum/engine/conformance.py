"""The conformance kit: play seeded random games and check the kernel's contract at every step.

Call :func:`check_game` from a game's tests.  At each checked step it verifies that every legal action
is a well-formed, distinct :class:`Action`; that illegal and malformed actions raise
:class:`IllegalAction` and leave the state exactly as it was; that ``apply`` never changes its input
(the symptom of a clone that aliases); that ``clone()`` equals the original and is independent of it;
that the JSON round trip is exact; that no seat's view changes across ``sample_state`` draws of what it
cannot know, and that no view shows a hidden field; that the deciding seat's legal actions follow from
its information; that ``sample_state`` draws from what a seat knows, not from the true state (two states
the seat cannot tell apart give the same draws); and that what each observer reads of a step in the
log (:mod:`ludorum.engine.disclosure`) is the same for every state and action it cannot tell apart
from the real ones, and that a step of a kind the game declares public (``Game.public_kinds``,
``Game.public_labels``) reads exactly as the full judgement, which steps every legal action, reads it
(:func:`check_public_step` says the one exception, a step no drawn state explains), and that a game
declaring ``plain_labels`` gives the deciding seat the labels a judgement on its information set
gives.  Before playing, it resolves every hook the game declares in ``Game.provides`` and checks its
kind (:func:`ludorum.engine.provides.check_provides`).  At the end it replays the record and checks that
the game ended within ``max_decisions``.  The first breach raises :class:`ConformanceError` saying game,
step and what failed.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ludorum.engine import codec, disclosure
from ludorum.engine.actions import Action
from ludorum.engine.config import Config
from ludorum.engine.disclosure import Step
from ludorum.engine.errors import IllegalAction
from ludorum.engine.game import CANCEL, CHANCE, Game
from ludorum.engine.information import Observer, hides_information
from ludorum.engine.provides import check_provides
from ludorum.engine.record import Playthrough, Record, replay
from ludorum.engine.state import HIDDEN, PER_SEAT, VISIBILITY, GameState


class ConformanceError(AssertionError):
    """A breach of the kernel's contract found by the kit.

    ``record`` holds the game up to the breach (its seed and steps reproduce it), when a game was being
    played."""

    record: Record | None = None


@dataclass
class Report:
    """What the kit did: games and steps played, checks passed, seconds spent, each game's length."""

    games: int = 0
    steps: int = 0
    checks: int = 0
    seconds: float = 0.0
    lengths: list[int] = field(default_factory=list)

    def add(self, other: Report) -> None:
        """Count ``other``'s games in this report too (the soak sums one report per game)."""
        self.games += other.games
        self.steps += other.steps
        self.checks += other.checks
        self.seconds += other.seconds
        self.lengths.extend(other.lengths)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (a soak worker's outcome carries it)."""
        return {
            "games": self.games,
            "steps": self.steps,
            "checks": self.checks,
            "seconds": round(self.seconds, 3),
            "lengths": list(self.lengths),
        }

    @staticmethod
    def from_json(data: Any) -> Report:
        """Decode :meth:`to_json` output."""
        return Report(
            int(data["games"]),
            int(data["steps"]),
            int(data["checks"]),
            float(data["seconds"]),
            [int(n) for n in data["lengths"]],
        )


CANCEL_ALLOWANCE = 10
"""Decisions one cancel may undo: ``max_decisions`` bounds games played without cancelling."""

CANCEL_RATE = 0.1
"""How often random play backs out of a pending decision when it may."""


def random_choice(legal: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random action, but cancelling only now and then so that random games end."""
    if CANCEL in legal and len(legal) > 1 and rng.random() >= CANCEL_RATE:
        return rng.choice([a for a in legal if a != CANCEL])
    return rng.choice(legal)


class Disclose(Protocol):
    """The signature of :func:`ludorum.engine.disclosure.disclose`."""

    def __call__(self, step: Step, only: Collection[Observer] | None = None) -> disclosure.LogEntry: ...


CLONE_ACTIONS = 4
"""How many legal actions a clone is checked with: applying them changes neither it nor its original."""

MALFORMED = (
    Action(""),
    Action("no-such-action"),
    Action("no-such-action", (1, 2, 3)),
)


def check_game(
    game: Game[Any],
    configs: Iterable[Config],
    games: int = 100,
    seed: int = 0,
    check_every: int = 1,
    illegal_samples: int = 3,
    disclose: Disclose = disclosure.disclose,
) -> Report:
    """Play ``games`` random games spread over ``configs`` and check every ``check_every``-th step.

    ``disclose`` is the rule under test for what a step discloses (the engine's, unless a test plants
    another)."""
    cfgs = list(configs)
    if not cfgs:
        raise ValueError("check_game needs at least one config")
    _check_secrets_are_sampled(game)
    _check_declarations(game)
    _check_provides(game)
    report = Report()
    start = time.perf_counter()
    for g in range(games):
        config = cfgs[g % len(cfgs)]
        play = Playthrough(game, config, seed + g)
        try:
            _check_one(game, config, seed + g, check_every, illegal_samples, disclose, report, play)
        except ConformanceError as e:
            e.record = play.record  # the game up to the breach, to reproduce it
            raise
        report.games += 1
    report.seconds = time.perf_counter() - start
    return report


def _check_secrets_are_sampled(game: Game[Any]) -> None:
    """A state with hidden or per-seat fields needs ``sample_state``: without it a seat's information
    set would be the true state itself, and bots and the log would read what the seat cannot see."""
    import dataclasses

    secret = [
        f.name
        for f in dataclasses.fields(game.state_type)
        if f.name != "rng" and f.metadata.get(VISIBILITY) in (HIDDEN, PER_SEAT)
    ]
    if secret and not hides_information(game):
        raise ConformanceError(
            f"{game.name}: the state has secret fields ({', '.join(secret)}) but the game does not "
            "override sample_state, so a seat's information set would be the true state"
        )


def _check_declarations(game: Game[Any]) -> None:
    """The disclosure's declarations agree with one another: a label declared public belongs to a kind
    declared public (the disclosure would ignore it otherwise), and no kind is both public and private."""
    if labels_only := sorted(game.public_labels - game.public_kinds):
        kind = labels_only[0]
        raise ConformanceError(f"{game.name} declares the label of {kind!r} public but not the kind")
    if both := sorted(game.private_kinds & game.public_kinds):
        raise ConformanceError(f"{game.name} declares {both[0]!r} both private and public")


def _check_provides(game: Game[Any]) -> None:
    """Every hook the game declares (``Game.provides``) resolves to an object of its kind."""
    if problems := check_provides(game.provides):
        raise ConformanceError(f"{game.name} declares hooks that do not hold: {'; '.join(problems)}")


def _fail(where: str, message: str) -> ConformanceError:
    return ConformanceError(f"{where}: {message}")


def _check_one(
    game: Game[Any],
    config: Config,
    seed: int,
    every: int,
    n_illegal: int,
    disclose: Disclose,
    report: Report,
    play: Playthrough,
) -> None:
    rng = random.Random(seed)
    if game.new(config, seed) != play.state:
        raise _fail(f"{game.name} seed {seed}", "new() with the same config and seed gave different states")
    bound = game.max_decisions(config)
    seen: list[Action] = list(MALFORMED)
    step = cancels = 0
    while not play.is_over():
        where = f"{game.name} {config.players}p {list(config.variants)} seed {seed} step {step}"
        state = play.state
        legal = list(game.legal_actions(state))
        _check_legal_list(where, legal)
        if step % every == 0:
            _check_state(game, state, legal, seen, rng, n_illegal, where)
            report.checks += 1
        if game.to_move(state) == CHANCE:
            action = game.sample_chance(state)
            if action not in legal:
                raise _fail(where, f"chance outcome {action} is not among the legal actions")
        else:
            action = random_choice(legal, rng)
            cancels += action == CANCEL
        actor = game.to_move(state)
        try:
            play.play(action)
        except IllegalAction as e:
            raise _fail(where, f"legal action {action} was refused: {e}") from None
        if step % every == 0:
            _check_disclosure(Step(game, 0, state, actor, action, play.state), disclose, rng, where)
        if len(seen) < 400:
            seen.extend(legal[:3])
        step += 1
        if step > bound + CANCEL_ALLOWANCE * cancels:
            raise _fail(where, f"the game did not end within its declared bound of {bound} decisions")
    where = f"{game.name} {config.players}p seed {seed} end"
    result = game.result(play.state)
    if len(result.scores) != config.players or sorted(result.ranking)[0] != 1:
        raise _fail(where, f"malformed result {result}")
    if game.legal_actions(play.state):
        raise _fail(where, "a finished game still offers legal actions")
    _check_state(game, play.state, [], seen, rng, 0, where)
    if replay(game, play.record) != play.state:
        raise _fail(where, "replaying the record did not reproduce the final state")
    report.steps += step
    report.lengths.append(step)


def _check_legal_list(where: str, legal: Sequence[Action]) -> None:
    if not legal:
        raise _fail(where, "the game is not over but there is no legal action")
    for a in legal:
        if not isinstance(a, Action) or not isinstance(a.args, tuple):
            raise _fail(where, f"{a!r} is not an Action")
    if len(set(legal)) != len(legal):
        raise _fail(where, "the legal actions contain duplicates")


def _check_state(
    game: Game[Any],
    state: GameState,
    legal: list[Action],
    seen: list[Action],
    rng: random.Random,
    n_illegal: int,
    where: str,
) -> None:
    before = json.dumps(state.to_json(), sort_keys=True)
    _check_json(game, state, before, where)
    _check_clone(game, state, legal, before, rng, where)
    if legal:
        _check_illegal(game, state, legal, seen, rng, n_illegal, before, where)
    _check_views(game, state, legal, rng, where)
    if legal and game.plain_labels and game.to_move(state) != CHANCE:
        _check_plain_labels(game, state, where)


def _check_plain_labels(game: Game[Any], state: GameState, where: str) -> None:
    """A game declaring ``plain_labels`` gives the deciding seat what the drawn judgement gives."""
    seat = game.to_move(state)
    drawn = disclosure.safe_labels(game, state, seat, shortcuts=False)
    if disclosure.safe_labels(game, state, seat) != drawn:
        leaky = [a for a, label in drawn if label != game.describe(state, a)]
        raise _fail(
            where,
            f"{game.name} declares plain_labels, but the label of {leaky[0] if leaky else '?'} reads "
            f"differently in a state seat {seat} cannot tell apart: it tells something hidden",
        )


def _check_json(game: Game[Any], state: GameState, before: str, where: str) -> None:
    back = game.state_from_json(json.loads(before))
    if back != state:
        raise _fail(where, "the JSON round trip does not give back an equal state")
    if json.dumps(back.to_json(), sort_keys=True) != before:
        raise _fail(where, "the JSON round trip is not exact")


def _check_clone(
    game: Game[Any], state: GameState, legal: list[Action], before: str, rng: random.Random, where: str
) -> None:
    twin = state.clone()
    if twin is state or twin != state:
        raise _fail(where, "clone() does not give an equal, separate state")
    # Several actions, not one: a shared part may be touched by only some of them.
    for action in rng.sample(legal, min(CLONE_ACTIONS, len(legal))) if not game.is_over(state) else []:
        game.step(twin, action)
        if json.dumps(twin.to_json(), sort_keys=True) != before:
            raise _fail(
                where,
                f"applying {action} changed the state it was applied to "
                "(does apply share a mutable part with its input?)",
            )
        if json.dumps(state.to_json(), sort_keys=True) != before:
            raise _fail(where, f"applying {action} to a clone changed the original (clone aliasing)")


def _check_illegal(
    game: Game[Any],
    state: GameState,
    legal: list[Action],
    seen: list[Action],
    rng: random.Random,
    n: int,
    before: str,
    where: str,
) -> None:
    legal_set = set(legal)
    open_kinds = game.open_kinds(state)
    proto = rng.choice(legal)
    candidates = [
        *rng.sample(seen, min(n, len(seen))),
        Action(proto.kind, (*proto.args, 0)),
        Action(proto.kind, tuple(-7 for _ in proto.args) or (-7,)),
        Action(proto.kind, tuple("?" for _ in proto.args) or ("?",)),
        rng.choice(MALFORMED),
    ]
    for bad in candidates:
        if bad in legal_set:
            continue
        try:
            game.step(state, bad)
        except IllegalAction:
            pass
        except Exception as e:
            raise _fail(
                where, f"illegal {bad} raised {type(e).__name__}: {e} instead of IllegalAction"
            ) from None
        else:
            if bad.kind not in open_kinds:
                raise _fail(where, f"apply accepted {bad}, which is not among the legal actions")
        if json.dumps(state.to_json(), sort_keys=True) != before:
            raise _fail(where, f"refusing {bad} changed the state")


def _check_views(
    game: Game[Any], state: GameState, legal: list[Action], rng: random.Random, where: str
) -> None:
    seats: list[int | None] = [None, *range(state.config.players)]
    to_move = None if game.is_over(state) else game.to_move(state)
    for seat in seats:
        view = game.view(state, seat)
        try:
            json.dumps(view)
        except (TypeError, ValueError) as e:
            raise _fail(where, f"the view of seat {seat} is not JSON: {e}") from None
        _check_secret_fields(state, view, seat, where)
        _check_sampling(game, state, seat, rng, where)
        for _ in range(2):
            other = game.sample_state(state, seat, rng)
            if game.view(other, seat) != view:  # JSON data: equal as values, equal as text
                raise _fail(
                    where,
                    f"seat {seat}'s view differs between states it cannot tell apart "
                    f"(sample_state): the view leaks hidden information",
                )
            if (
                seat is not None
                and seat == to_move
                and (
                    set(game.legal_actions(other)) != set(legal)
                    or game.open_kinds(other) != game.open_kinds(state)
                )
            ):
                raise _fail(where, f"seat {seat}'s legal actions depend on what it cannot know")


def _check_sampling(
    game: Game[Any], state: GameState, seat: Observer, rng: random.Random, where: str
) -> None:
    """Two states ``seat`` cannot tell apart give the same draws from the same generator."""
    twin = game.sample_state(state, seat, rng)
    key = rng.getrandbits(32)
    a = game.sample_state(state, seat, random.Random(key))
    b = game.sample_state(twin, seat, random.Random(key))
    if a != b:
        raise _fail(
            where,
            f"sample_state for seat {seat} draws from the true state, not from what the seat knows: two "
            "states it cannot tell apart give different draws from the same generator (decisions taken "
            "on such draws — a log entry, a bot's move — would leak what the seat cannot see)",
        )


def _check_disclosure(step: Step, disclose: Disclose, rng: random.Random, where: str) -> None:
    """An observer reads the same log entry for a (state, action) it cannot tell from the real one.

    One observer, drawn at random, is checked at each checked step: over a game every one is."""
    game, actor, action = step.game, step.actor, step.action
    o = rng.choice([o for o in disclosure.observers(step.before.config.players) if o != actor])
    if action.kind in game.public_kinds:
        check_public_step(step, o, where)
    if not hides_information(game):
        return  # perfect information: the information set is the state itself
    # The twin's reading draws the states the real one drew (if the game samples from o's knowledge):
    # sharing what each equal state explains makes it cost the draws alone, with the same result.
    with disclosure.shared_readings():
        seen = disclose(step, only=(o,)).to_json(o, public=False)
        _check_twin_disclosure(step, o, seen, disclose, rng, where)


def check_public_step(step: Step, o: Observer, where: str) -> None:
    """A step of a kind declared public reads, for ``o``, what the full judgement reads (the engine's
    disclosure with and without its shortcuts: the declarations are checked, whatever rule is under test).

    One difference is not a leak: a kind whose label is declared public too (``Game.public_labels``)
    reads as its label at once, while the full judgement reads the step as secret when none of the states
    it drew could have led to ``o``'s view (a reveal that few states of the information set explain):
    secret for want of a draw.  There the kit judges the declarations on what it has, deterministically:
    the true state (which the kit may consult, and the disclosure never does) explains the view by the
    action taken alone, and the label reads the same in every state the full judgement drew in which the
    action is legal.  A wrong declaration still fails wherever some draw explains the view, and a
    label naming a secret fails on the draws too.
    """
    game, before, action = step.game, step.before, step.action
    quick = disclosure.disclose(step, only=(o,)).reading(o)
    full = disclosure.disclose(step, only=(o,), shortcuts=False).reading(o)
    if quick == full:
        return
    label = game.describe(before, action)
    if action.kind in game.public_labels:
        judged = disclosure.judge(step, o, label, shortcuts=False)
        if full is disclosure.SECRET and not judged.explaining:  # no drawn state explains the view
            _check_unexplained(step, o, label, where)
            return
        raise _fail(
            where,
            f"{game.name} declares the label of {action.kind!r} public, but observer {o} reads {action} "
            f"as {full!r} when judged in full and {quick!r} from the declarations: another action could "
            "have left it the same view, or the label reads differently in a state it cannot tell apart",
        )
    raise _fail(
        where,
        f"{game.name} declares {action.kind!r} public, but observer {o} reads {action} as "
        f"{full!r} when every legal action is tried and {quick!r} when only it is: another action "
        "could have left it the same view",
    )


def _check_unexplained(step: Step, o: Observer, label: str, where: str) -> None:
    """The declarations of a step no drawn state explains, judged on the true state and the draws."""
    game, before, actor, action, after = step.game, step.before, step.actor, step.action, step.after
    seen = game.view(after, o)
    for alt in game.legal_actions(before):
        if alt != action and disclosure.leads_to(game, before, alt, o, seen):
            raise _fail(
                where,
                f"{game.name} declares {action.kind!r} public, but {alt} leaves observer {o} the view "
                f"{action} leaves it",
            )
    for s in disclosure.step_samples(game, before, actor, after, o):
        if action in game.legal_actions(s) and game.describe(s, action) != label:
            raise _fail(
                where,
                f"{game.name} declares the label of {action.kind!r} public, but {label!r} reads "
                f"differently in a state observer {o} cannot tell apart: {game.describe(s, action)!r}",
            )


def _check_twin_disclosure(
    step: Step, o: Observer, seen: dict[str, Any], disclose: Disclose, rng: random.Random, where: str
) -> None:
    game, action = step.game, step.action
    target = game.view(step.after, o)
    twin = game.sample_state(step.before, o, rng)
    # Prefer another action: that is where a leak shows.
    for alt in sorted(game.legal_actions(twin), key=lambda a: a == action):
        try:
            nxt = game.step(twin, alt)
        except IllegalAction:
            continue
        if game.view(nxt, o) != target:
            continue
        again = disclose(Step(game, 0, twin, step.actor, alt, nxt), only=(o,)).to_json(o, public=False)
        if again != seen:
            raise _fail(
                where,
                f"the log tells observer {o} {seen['label']!r} for {action}, but "
                f"{again['label']!r} for {alt} in a state it cannot tell apart, which leaves it the "
                "same view: the log leaks what it cannot see",
            )
        break


def _check_secret_fields(state: GameState, view: dict[str, Any], seat: int | None, where: str) -> None:
    import dataclasses

    tps = codec.field_types(type(state))
    for f in dataclasses.fields(state):
        vis = f.metadata.get(VISIBILITY)
        if vis not in (HIDDEN, PER_SEAT) or f.name not in view:
            continue
        value = getattr(state, f.name)
        shown = view[f.name]
        if vis == HIDDEN:
            raw = codec.encode(value, tps[f.name])
            if raw and shown == raw:
                raise _fail(where, f"the view of seat {seat} shows the hidden field {f.name!r}")
        else:
            item_tp = tps[f.name].__args__[0]
            for owner, item in enumerate(value):
                raw = codec.encode(item, item_tp)
                if (
                    owner != seat
                    and raw
                    and isinstance(shown, list)
                    and owner < len(shown)
                    and shown[owner] == raw
                ):
                    raise _fail(where, f"the view of seat {seat} shows seat {owner}'s {f.name!r}")
