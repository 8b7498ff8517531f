"""The action numbering and the observations: round trips over random games, and no leak."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludorum.engine import CHANCE, Action
from ludorum.engine.encoding import ActionSpace, Counts, Fixed, Kind, Num, OneHot, Present, Record
from ludorum.engine.schema_compiler import compiled
from ludorum.games import registry
from ludorum.rl.core import Table, encoding_for
from tests.rl.helpers import GAMES, configs, random_states

# Full games, plus many short ones (openings are where most configs differ): a few thousand games in all.
FULL = {"reliquium": 60, "medieval-realms": 80, "signum": 10}
SHORT = {"reliquium": 700, "medieval-realms": 700, "signum": 400}
SHORT_LEN = 40


def test_kinds_and_space_basics() -> None:
    """Products and unions enumerate in order without duplicates; a kind listed twice is refused."""
    k = Kind.product("m", (1, 2), ("a", "b"))
    assert k.args == ((1, "a"), (1, "b"), (2, "a"), (2, "b"))
    assert Kind.union("u", [(1,), (2,)], [(2,), (3,)]).args == ((1,), (2,), (3,))
    space = ActionSpace([Kind("pass"), k])
    assert space.n == 5
    assert space.actions[space.index[Action("m", (2, "a"))]] == Action("m", (2, "a"))
    assert space.ranges()[1][:3] == ("m", 1, 5)
    with pytest.raises(ValueError, match="twice"):
        ActionSpace([Kind("pass"), Kind("pass")])


def test_the_encoding_is_the_one_the_game_declares() -> None:
    """The adapters read ``Game.provides.encoding``; a game that declares none has no environment."""
    from ludorum.engine import ConfigError
    from ludorum.rl.core import supported_games
    from tests.fixtures.sealed_bids import SealedBids

    for game in registry():
        assert encoding_for(game) is game.provides.load_encoding()
    assert list(supported_games()) == [game.name for game in registry()]
    with pytest.raises(ConfigError, match="Sealed Bids declares no RL encoding"):
        encoding_for(SealedBids())


def test_schema_sizes_and_layout() -> None:
    """Every spec writes exactly its size, whatever the value (missing, hidden, too long)."""
    schema = Record(
        {
            "n": Num(2.0),
            "colour": OneHot(("red", "blue")),
            "hand": Counts(("a", "b"), key="id"),
            "rows": Fixed(2, Record({"x": Num(), "*here": Present()})),
        }
    )
    assert [(n, o, s) for n, o, s, _ in schema.layout()] == [("n", 0, 1), ("colour", 1, 2), ("hand", 3, 2),
                                                            ("rows", 5, 4)]  # fmt: skip
    for view in (
        {},
        {"n": {"hidden": 4}, "colour": "green", "hand": {"hidden": 3}, "rows": [{"x": 1}] * 5},
        {"n": 3, "colour": "blue", "hand": [{"id": "a"}, {"id": "a"}], "rows": [{"x": 2}]},
    ):
        out: list[float] = []
        schema.encode(view, out)
        assert len(out) == schema.size
    out = []
    schema.encode({"n": 3, "colour": "blue", "hand": [{"id": "a"}, {"id": "a"}], "rows": [{"x": 2}]}, out)
    assert out == [1.5, 0.0, 1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_action_round_trips(name: str) -> None:
    """Over thousands of random games, every legal action (and chance outcome) has exactly one index, the
    index names it back, and distinct actions get distinct indices; every offered grid point is legal."""
    game = registry().get(name)
    cfgs = configs(game)
    tables = {c: Table(name, c.players, c.variants) for c in cfgs}
    enc = encoding_for(game)
    rng = random.Random(0)
    seen_kinds: set[str] = set()
    checked_open = 0
    full, short = FULL[name], SHORT[name]
    runs = [(i, None) for i in range(full)] + [(i, SHORT_LEN) for i in range(full, full + short)]
    for seed, limit in runs:
        cfg = cfgs[seed % len(cfgs)]
        t = tables[cfg]
        for state in random_states(game, cfg, seed, limit):
            if game.is_over(state):
                break
            legal = game.legal_actions(state)
            if game.to_move(state) == CHANCE:
                idx = [t.chance_index(a) for a in legal]
                assert [t.chance.actions[i] for i in idx] == list(legal)
                continue
            numbered = t.legal(state)
            for a in legal:
                i = t.actions.index[enc.action_key(a)]
                assert numbered[i] == a, (a, i)
                assert t.actions.actions[i] == enc.action_key(a)
                seen_kinds.add(a.kind)
            extra = {i: a for i, a in numbered.items() if a not in legal}
            if extra and rng.random() < 0.2:
                i, a = rng.choice(sorted(extra.items()))
                assert game.open_kinds(state) and a.kind in game.open_kinds(state)
                assert game.describe_error(state, a) is None, (a, game.describe_error(state, a))
                checked_open += 1
    if game.name == "signum":
        assert checked_open > 0, "no move_to grid point was ever checked"
    listed = {k.name for k in enc.action_kinds(cfgs[0])}
    assert seen_kinds <= listed


@pytest.mark.parametrize("name", GAMES)
def test_observation_does_not_leak(name: str) -> None:
    """As the conformance kit does for views: across ``sample_state`` draws of what a seat cannot see,
    its observation — and, when it decides, its action mask — is identical."""
    game = registry().get(name)
    rng = random.Random(1)
    checked = 0
    for k, cfg in enumerate(configs(game)):
        t = Table(name, cfg.players, cfg.variants)
        for n, state in enumerate(random_states(game, cfg, 100 + k, 400)):
            if n % 37 or game.is_over(state):
                continue
            deciding = game.to_move(state)
            for seat in range(cfg.players):
                obs = t.observe(state, seat)
                assert obs.shape == (t.obs_size,) and obs.dtype == np.float32
                mask = t.mask(t.legal(state)) if seat == deciding else None
                for _ in range(3):
                    other = game.sample_state(state, seat, rng)
                    assert np.array_equal(t.observe(other, seat), obs), (
                        f"{name}: seat {seat}'s observation leaks"
                    )
                    if mask is not None:
                        assert np.array_equal(t.mask(t.legal(other)), mask), f"{name}: the mask leaks"
                checked += 1
    assert checked > 20


def test_observation_is_from_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The observation changes with the view and only with it: a view doctored by ``Game.view`` shows."""
    t = Table("reliquium", 2)
    state = t.game.new(t.config, 0)
    before = t.observe(state, 0).copy()
    real = type(t.game).view

    def doctored(self, s, seat):  # type: ignore[no-untyped-def]
        v = real(self, s, seat)
        v["round"] = v["round"] + 5
        return v

    monkeypatch.setattr(type(t.game), "view", doctored)
    t._obs_state = None  # forget the cached observation
    after = t.observe(state, 0)
    assert not np.array_equal(before, after)


@pytest.mark.parametrize("name", GAMES)
def test_compiled_schema_matches_the_specs(name: str) -> None:
    """The generated encoder writes exactly the floats of the specs' own ``encode`` (the definition), for
    every seat of every configuration over random games — including views a schema does not expect."""
    game = registry().get(name)
    compared = 0
    for k, cfg in enumerate(configs(game)):
        t = Table(name, cfg.players, cfg.variants)
        for n, state in enumerate(random_states(game, cfg, 300 + k, 300)):
            if n % 23:
                continue
            for seat in range(cfg.players):
                value = t.encoding.prepare(game.view(state, seat), seat)
                reference: list[float] = []
                t.schema.encode(value, reference)
                floats = compiled(t.schema)(value)
                # Bit for bit (a -0.0 is not a 0.0 here), not merely equal.
                assert np.asarray(reference, np.float32).tobytes() == floats.tobytes()
                compared += 1
    assert compared > 50
    schema = Record({"n": Num(2.0), "o": OneHot((1, (2, 3))), "c": Counts(("a", "b"), 4.0),
                     "f": Fixed(2, Num(10.0)), "p": Present()})  # fmt: skip
    for odd in ({}, {"n": "x", "o": [2, 3], "c": ["a", "a", "z"], "f": [1, None, 3], "p": {"hidden": 2}},
                {"n": {"hidden": 4}, "o": [[1]], "c": "ab", "f": [[1], "w"], "p": 0}, []):  # fmt: skip
        reference = []
        schema.encode(odd, reference)
        assert list(compiled(schema)(odd)) == pytest.approx(reference, rel=1e-7), odd


def test_compiled_fast_paths_fall_back_exactly() -> None:
    """Each shortcut of the generated code (rows of numbers unpacked, a row of one-hots by one map, plain
    one-hot tables, ``Present`` in line) gives the specs' own floats bit for bit, for the shape it expects
    and for every odd value that must take the general loop instead."""
    schema = Record(
        {
            "grid": Fixed(3, Fixed(2, Num(3.0))),
            "grid1": Fixed(2, Fixed(1, Num())),
            "row": Fixed(3, Num(2.0)),
            "hots": Fixed(3, OneHot(("a", "b", 1))),
            "pairs": Fixed(2, OneHot(((1, 2), "x"))),
            "hot": OneHot((-1, 0, 1)),
            "keyed": OneHot(("p", "q"), key="t"),
            "counts": Counts(("a", "b")),
            "tally": Counts(((1, 2), "a"), scale=4.0),
            "here": Present(),
            "cards": Fixed(2, Record({"id": Present(), "kind": OneHot(("a", "b"))})),
            "nothing": Fixed(2, Record({})),  # items of no floats
        }
    )
    odd_values = [
        {},
        [],
        {
            "grid": [[1, 2], [0, 3], [4, 5]],
            "grid1": [[1], [2]],
            "row": [1, 2, 3],
            "hots": ["a", 1, "b"],
            "pairs": [[1, 2], "x"],
            "hot": 1,
            "keyed": {"t": "q"},
            "counts": ["a", "a", "b"],
            "tally": [[1, 2], "a", (1, 2)],
            "here": "x",
            "cards": [{"id": "c1", "kind": "b"}, {"id": None}],
        },
        {
            "grid": [[1, 2, 3], [1]],
            "grid1": [1, [2]],
            "row": [1, "w", {"hidden": 3}],
            "hots": [["a"], "a"],
            "pairs": [(1, 2), [1, 2, 3]],
            "hot": [1],
            "keyed": "p",
            "counts": ["c", ["a"]],
            "tally": "ab",
            "here": {"hidden": 2},
            "cards": [{"id": {"hidden": 1}, "kind": ["a"]}, "card", {"kind": "a"}],
        },
        {
            "grid": [[-0.0, 0.0], [True, None], ["", [1, 2]]],
            "grid1": [[-0.0], [{}]],
            "row": [-0.0, False],
            "hots": [{"a": 1}, None, True],
            "pairs": [[[1]], None],
            "hot": True,
            "keyed": {"t": ["p"]},
            "counts": [],
            "tally": [(1, 2)] * 5,
            "here": {"hidden": None},
            "cards": [{"id": 0, "kind": "b"}] * 3,
            "nothing": [{}, {}, {}],
        },
        {
            "grid": [[1, "w"], [2, {"hidden": 5}], [3, 4]],
            "grid1": ({"a"}, [1]),
            "row": (4, 5, 6, 7),
            "hots": ("b", "b", "b", "a"),
            "here": {"hidden": 1, "x": 2},
            "cards": ({"id": [], "kind": "z"},),
        },
        {"grid": [{1, 2}, [1, 2], (3, 4)], "grid1": [range(1, 2)], "row": [[1, 2]]},  # rows not lists: zeros
        {
            "grid": [(1, 2), (3, 4), (5, 6), (7, 8)],
            "grid1": [[1, 2]],
            "row": None,
            "hots": "ab",
            "hot": {"hidden": 1},
            "here": None,
            "cards": None,
        },
    ]
    for odd in odd_values:
        reference: list[float] = []
        schema.encode(odd, reference)
        assert np.asarray(reference, np.float32).tobytes() == compiled(schema)(odd).tobytes(), odd


def test_memoised_records_give_the_specs_floats_and_stay_bounded() -> None:
    """The plain parts of a small record (a card) are memoised by their values: a record seen before gives
    the same bits as the specs (``-0.0`` after ``0``, ``2.0`` after ``2``, ``True`` after ``1``), its other
    parts (here counts) still written after the memo's copy, odd values bypass the memo, and the memo never
    grows past its bound however many distinct records pass."""
    from ludorum.engine import schema_compiler

    card = Record({"a": Num(10.0), "b": OneHot((1, 2)), "l": Counts(("x", "y")), "c": Present()})
    schema = Record({"rows": Fixed(3, card)})
    fn = compiled(schema)
    rows = [{"a": 0, "b": 1, "c": 1, "l": ["x"]}, {"a": -0.0, "b": 1, "c": 1, "l": ["y"]},
            {"a": 0.0, "b": 1, "c": 1}, {"a": 2, "b": 2, "c": 1, "l": ["x", "x"]}, {"a": 2.0, "b": 2, "c": 1},
            {"a": 2.5, "b": 2, "c": 1, "l": []}, {"a": 2.5, "b": 2, "c": 1, "l": ["y"]}, {"a": 0.0},
            {"a": -0.0}, {"a": 0}, {"a": -0.0, "b": 1}, {"a": True, "b": 1, "c": 1},
            {"a": 1, "b": True, "c": True}, {"a": [1, 2], "b": 2}, {"a": {"hidden": 2}}, {"c": {"hidden": 1}},
            {"c": {"hidden": None}}, {"a": "w", "b": [1]}, "row", {}]  # fmt: skip
    for _ in range(2):  # the second time round, every plain record is a memo hit
        for i in range(len(rows)):
            value = {"rows": rows[i : i + 3]}
            reference: list[float] = []
            schema.encode(value, reference)
            assert np.asarray(reference, np.float32).tobytes() == fn(value).tobytes(), value
    memos = [m for m in fn.__globals__.values() if type(m) is dict and m and type(next(iter(m))) is tuple]
    assert len(memos) == 1
    for i in range(schema_compiler._MEMO + 100):
        value = {"rows": [{"a": i, "b": 1, "c": None, "l": ["x"] * (i % 3)}]}
        reference = []
        schema.encode(value, reference)
        assert np.asarray(reference, np.float32).tobytes() == fn(value).tobytes(), value
        assert len(memos[0]) <= schema_compiler._MEMO


@pytest.mark.parametrize("name", GAMES)
def test_a_kept_numbering_is_the_fresh_one_and_is_dropped_where_lists_seldom_return(name: str) -> None:
    """``Table.legal`` hands out a kept numbering for a list of legal actions it has seen; it and its mask
    equal what a fresh table computes, and a table whose lists mostly do not come back stops keeping
    them."""
    import ludorum.rl.core as core

    game = registry().get(name)
    kept, fresh = Table(name, 2), Table(name, 2)
    reused = 0
    for seed in range(3):
        for s in random_states(game, kept.config, seed, 400):
            if game.is_over(s) or game.to_move(s) == CHANCE:
                continue
            fresh._numbered.clear()  # numbered afresh every time
            got, want = kept.legal(s), fresh.legal(s)
            assert got == want
            assert kept.mask(got).tolist() == fresh.mask(want).tolist() == kept.mask(dict(got)).tolist()
            reused += isinstance(got, core.Numbered) and kept.legal(s) is got
    if name == "medieval-realms":  # its placements offer the same areas again and again
        assert kept._keep_numbered and reused > 100
    if not kept._keep_numbered:
        assert kept._missed > kept._found and not kept._numbered


def test_the_action_numbering_does_not_change_with_the_player_count() -> None:
    """Every game numbers its actions the same at every player count (one policy head serves a 2-player
    and a 4-player Signum), and its chance outcomes too."""
    for game in registry():
        tables = [Table(game.name, p) for p in range(game.min_players, game.max_players + 1)]
        assert all(t.actions.actions == tables[0].actions.actions for t in tables), game.name
        assert all(t.chance.actions == tables[0].chance.actions for t in tables), game.name
