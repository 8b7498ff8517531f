"""Configs, the registry, records and replay, and what the kernel refuses."""

from __future__ import annotations

import ast
import json
import pathlib
import sys

import pytest

from ludorum.agents import RandomBot, play_game
from ludorum.engine import (
    Action,
    ConfigError,
    IllegalAction,
    Playthrough,
    Record,
    RecordError,
    Registry,
    replay,
)
from tests.fixtures.sealed_bids import BidsState, SealedBids

GAME = SealedBids()


def finished(seed: int = 3) -> Playthrough:
    return play_game(GAME, GAME.config(3), seed, [RandomBot() for _ in range(3)])


def test_bad_configs_are_refused_clearly() -> None:
    with pytest.raises(ConfigError, match="for 2–3 players, not 5"):
        GAME.config(5)
    with pytest.raises(ConfigError, match="no variant 'gold'"):
        GAME.config(2, ["gold"])
    with pytest.raises(ConfigError, match="no content set"):
        GAME.config(2, content="expansion")
    with pytest.raises(ConfigError, match="no option 'speed'"):
        GAME.config(2, speed=3)


def test_oversized_configs_are_refused_by_their_size_whichever_way_they_come() -> None:
    """The generic bounds hold for ``Game.config`` as for a decoded config: a game's own option parser never
    sees (nor quotes back whole) an oversized value."""
    from ludorum.games import registry

    texts = {"signum": "deck0", "reliquium": "factions"}
    for name, option in texts.items():
        game = registry().get(name)
        with pytest.raises(ConfigError, match="holds at most 2000 characters, not 100000") as refused:
            game.config(game.min_players, **{option: "x" * 100_000})
        assert len(str(refused.value)) < 200
    with pytest.raises(ConfigError, match="at most 64 characters"):
        GAME.config(2, **{"o" * 100_000: 1})
    with pytest.raises(ConfigError, match="at most 32 variants"):
        GAME.config(2, [f"v{n}" for n in range(100_000)])


def test_registry_lookup_and_clear_unknown_name() -> None:
    reg = Registry()
    reg.register(GAME)
    assert reg.get("sealed-bids") is GAME and reg.names() == ["sealed-bids"]
    with pytest.raises(ConfigError, match="no game called 'chess'; the games are: sealed-bids"):
        reg.get("chess")
    with pytest.raises(ValueError, match="registered already"):
        reg.register(SealedBids())


def test_product_registry_holds_no_fixture() -> None:
    from ludorum.games import registry

    assert "sealed-bids" not in registry()


def test_record_round_trip_and_replay_reproduce_the_game() -> None:
    play = finished()
    text = play.record.dumps()
    record = Record.loads(text)
    assert record == play.record
    assert replay(GAME, record) == play.state
    assert record.result is not None and record.result.winners


def test_state_json_round_trip_and_digest() -> None:
    play = finished(5)
    data = json.loads(json.dumps(play.state.to_json()))
    assert BidsState.from_json(data) == play.state
    assert BidsState.from_json(data).digest() == play.state.digest()


def test_clone_is_equal_and_independent() -> None:
    state = finished(6).state
    twin = state.clone()
    assert twin == state and twin is not state
    twin.log.append(99)
    assert twin != state


def test_refusal_names_the_rule_and_changes_nothing() -> None:
    state = GAME.new(GAME.config(2), 1)
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, Action("bid", (1,)))
    assert info.value.rule == "Sealed Bids › Bidding"
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["steps"].__setitem__(0, [1, d["steps"][0][1]]),
            r"step 0 \(seat 1.*it was chance's decision",
        ),
        (lambda d: d["steps"].__setitem__(1, [0, {"kind": "bid", "args": [99]}]), r"step 1 .*refused"),
        (lambda d: d["steps"].__setitem__(2, [0, {"kind": 7}]), r"step 2: an action's kind"),
        (lambda d: d.__setitem__("game", "chess"), "the record is of 'chess'"),
        (lambda d: d.__setitem__("format", 99), "record format 99"),
        (lambda d: d["config"].__setitem__("players", 9), "config is refused"),
        (lambda d: d["steps"].append([0, {"kind": "confirm", "args": []}]), "already over"),
        (lambda d: d["result"].__setitem__("ranking", [3, 2, 1]), "result differs"),
        (lambda d: d.pop("seed"), "lacks seed"),
    ],
)
def test_corrupt_records_are_refused_saying_which_step(mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    data = finished().record.to_json()
    mutate(data)
    with pytest.raises(RecordError, match=message):
        replay(GAME, Record.from_json(data))


def test_not_json_is_refused() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.loads("{oops")


def test_engine_imports_only_the_standard_library() -> None:
    root = pathlib.Path(__file__).resolve().parents[2] / "ludorum" / "engine"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or name.startswith("ludorum.engine"), (path, name)
