"""Actions, the seeded generator and the type-driven JSON codec."""

from __future__ import annotations

import dataclasses
import enum
import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludorum.engine import Action, CodecError, codec
from ludorum.engine import rng as rngmod

scalars = st.one_of(st.integers(-(10**6), 10**6), st.text(max_size=8), st.booleans(), st.none())
args = st.recursive(scalars, lambda inner: st.tuples(inner, inner) | st.tuples(inner), max_leaves=6)


@given(st.text(min_size=1, max_size=12), st.lists(args, max_size=4))
def test_action_json_round_trip_is_exact(kind: str, values: list) -> None:
    action = Action(kind, tuple(values))
    text = json.dumps(action.to_json())
    back = Action.from_json(json.loads(text))
    assert back == action
    assert hash(back) == hash(action)


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"args": []},
        {"kind": ""},
        {"kind": 3},
        {"kind": "x", "args": {}},
        {"kind": "x", "extra": 1},
        {"kind": "x", "args": [1.5]},
        {"kind": "x", "args": [{"a": 1}]},
    ],
)
def test_malformed_actions_are_refused(bad: object) -> None:
    with pytest.raises(CodecError):
        Action.from_json(bad)


def test_generator_is_deterministic_and_pure() -> None:
    s = rngmod.seed_state(42)
    a = [rngmod.below(s, 10)[0] for _ in range(3)]
    assert len(set(a)) == 1  # the same state always gives the same draw
    draws = []
    for _ in range(2000):
        v, s = rngmod.below(s, 6)
        draws.append(v)
    counts = Counter(draws)
    assert set(counts) == set(range(6))
    assert all(250 < c < 420 for c in counts.values())


def test_shuffle_is_a_permutation_and_depends_on_the_seed() -> None:
    items = tuple(range(30))
    a, _ = rngmod.shuffled(rngmod.seed_state(1), items)
    b, _ = rngmod.shuffled(rngmod.seed_state(2), items)
    assert sorted(a) == list(items) and sorted(b) == list(items)
    assert a != b


def test_weighted_respects_weights() -> None:
    s = rngmod.seed_state(7)
    hits = Counter()
    for _ in range(3000):
        i, s = rngmod.weighted(s, [1.0, 0.0, 3.0])
        hits[i] += 1
    assert hits[1] == 0
    assert 2 < hits[2] / hits[0] < 4


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass(frozen=True)
class Piece:
    colour: Colour
    at: tuple[int, int]


@dataclasses.dataclass
class Sample:
    pieces: tuple[Piece, ...]
    by_region: dict[int, frozenset[str]]
    maybe: int | None
    either: int | str
    last: Action | None
    names: list[str]


def test_codec_round_trips_nested_types() -> None:
    value = Sample(
        pieces=(Piece(Colour.RED, (1, 2)), Piece(Colour.BLUE, (3, 4))),
        by_region={3: frozenset({"b", "a"}), 10: frozenset()},
        maybe=None,
        either="x",
        last=Action("march", (1, (2, 3))),
        names=["a"],
    )
    data = json.loads(json.dumps(codec.encode(value, Sample)))
    assert codec.decode(data, Sample) == value


def test_codec_errors_name_the_place() -> None:
    data = codec.encode(Sample((Piece(Colour.RED, (1, 2)),), {}, 1, 2, None, []), Sample)
    data["pieces"][0]["colour"] = "green"
    with pytest.raises(CodecError, match=r"\$\.pieces\[0\]\.colour: 'green' is not a Colour"):
        codec.decode(data, Sample)
    data = codec.encode(Sample((), {}, 1, 2, None, []), Sample)
    data["maybe"] = True
    with pytest.raises(CodecError, match=r"\$\.maybe: expected int, found bool"):
        codec.decode(data, Sample)
    del data["names"]
    with pytest.raises(CodecError, match="missing"):
        codec.decode(data, Sample)
