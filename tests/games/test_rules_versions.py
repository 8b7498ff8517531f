"""Rules versions: a change that makes recorded games play differently must bump the game's version.

Each game keeps golden records (``tests/games/<game>/golden/*.json``, each ``{"record", "digest"}``).
Replayed under the current rules, they give a *fingerprint*; ``rules_fingerprints.json`` holds the
fingerprint of every rules version.  If the rules or content change, the golden records replay
differently (or not at all), the fingerprint changes, and this test fails until the version is bumped
(``rules_version`` in the game's class, with a line in its doc's "Rules versions") and the new
fingerprint recorded: ``python tests/games/test_rules_versions.py`` regenerates the golden records of
the games that keep them here and prints the fingerprints.

A change of content that the golden games happen not to meet (a hero's health in a game where that hero
is never dealt enough wounds) leaves their replays as they were, so the content is fingerprinted too:
``content_fingerprints.json`` holds, per rules version, a digest of the game's data files as parsed (so
a comment may change, a value may not).  The effect texts players read (:data:`EFFECT_TEXTS`) are left
out like comments: rewording what a card does changes no game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from ludorum.engine import Game, Record, RecordError, replay
from ludorum.games import registry

HERE = Path(__file__).parent
FINGERPRINTS = HERE / "rules_fingerprints.json"
CONTENT_FINGERPRINTS = HERE / "content_fingerprints.json"
FOLDERS = {"reliquium": "reliquium", "medieval-realms": "medieval_realms", "signum": "signum"}


def golden_folder(game: Game[Any]) -> Path:
    """Where a game's golden records live."""
    return HERE / FOLDERS[game.name] / "golden"


def fingerprint(game: Game[Any]) -> str:
    """The golden records' final states under the current rules, hashed (a refusal counts as a state)."""
    h = hashlib.sha256()
    paths = sorted(golden_folder(game).glob("*.json"))
    assert paths, f"{game.name} keeps no golden records"
    for path in paths:
        record = Record.from_json(json.loads(path.read_text())["record"])
        try:
            outcome = replay(game, dataclasses.replace(record, rules=game.rules_version)).digest()
        except RecordError as e:
            outcome = f"refused: {e}"
        h.update(f"{path.name}:{outcome}\n".encode())
    return h.hexdigest()[:16]


EFFECT_TEXTS = frozenset({"text", "text_ru", "condition_text", "condition_text_ru"})
"""The data files' fields that say in words what a thing does: read by players, never by the rules."""


def _rules_data(node: Any) -> Any:
    """A parsed data file without its effect texts."""
    if isinstance(node, dict):
        return {k: _rules_data(v) for k, v in node.items() if k not in EFFECT_TEXTS}
    if isinstance(node, list):
        return [_rules_data(v) for v in node]
    return node


def content_fingerprint(game: Game[Any]) -> str:
    """The game's data files (``<package>/data/*.toml``) as parsed, hashed: comments and effect texts
    aside, any change to content changes it."""
    data = Path(inspect.getfile(type(game))).parent / "data"
    paths = sorted(data.glob("*.toml"))
    assert paths, f"{game.name} keeps no data files in {data}"
    parsed = {path.name: _rules_data(tomllib.loads(path.read_text(encoding="utf-8"))) for path in paths}
    return hashlib.sha256(json.dumps(parsed, sort_keys=True).encode()).hexdigest()[:16]


KINDS = {
    "rules": (FINGERPRINTS, fingerprint, "golden records replay differently from"),
    "content": (CONTENT_FINGERPRINTS, content_fingerprint, "content differs from that of"),
}
"""What is fingerprinted per rules version: where the fingerprints are kept, how one is taken, and
what a mismatch means."""


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_a_change_of_rules_or_content_bumps_the_version(name: str, kind: str) -> None:
    game = registry().get(name)
    path, take, meaning = KINDS[kind]
    known = json.loads(path.read_text())[name]
    now = take(game)
    version = str(game.rules_version)
    assert known.get(version) == now, (
        f"{game.title}'s {meaning} rules version {version} ({kind} fingerprint {now}, recorded "
        f"{known.get(version)}): if the rules or content changed on purpose, bump rules_version, note it in "
        f"the game's doc and record the new fingerprint in {path.name}"
    )
    assert max(map(int, known)) == game.rules_version, "the current version is the latest recorded one"


@pytest.mark.parametrize("name", sorted(FOLDERS))
def test_golden_records_carry_the_current_version(name: str) -> None:
    game = registry().get(name)
    for path in golden_folder(game).glob("*.json"):
        assert Record.from_json(json.loads(path.read_text())["record"]).rules == game.rules_version, path.name


def test_a_record_of_another_version_is_refused_naming_both() -> None:
    game = registry().get("medieval-realms")
    path = sorted(golden_folder(game).glob("*.json"))[0]
    record = Record.from_json(json.loads(path.read_text())["record"])
    old = dataclasses.replace(record, rules=game.rules_version - 1)
    with pytest.raises(RecordError, match=rf"version {game.rules_version - 1}.*version {game.rules_version}"):
        replay(game, old)
    legacy = json.loads(path.read_text())["record"]
    del legacy["rules"]  # a record from before versions existed was played under version 1
    assert Record.from_json(legacy).rules == 1


GENERATED = {
    "medieval-realms": [(2, ()), (5, ())],
    "signum": [(2, ()), (2, ("architect",)), (3, ()), (4, ())],
}
"""The golden records generated here (Reliquium keeps its own, see its test_golden.py): random bots."""


def regenerate() -> None:
    """Write the generated games' golden records anew and print every game's fingerprint."""
    from ludorum.agents import RandomBot, play_game

    for name, configs in GENERATED.items():
        game = registry().get(name)
        folder = golden_folder(game)
        folder.mkdir(exist_ok=True)
        for players, variants in configs:
            config = game.config(players, variants)
            seed = random.Random(f"{name}{players}{variants}").randrange(1 << 31)
            play = play_game(game, config, seed, [RandomBot() for _ in range(players)])
            data = {"record": play.record.to_json(), "digest": play.state.digest()}
            stem = "-".join(("random", f"{players}p", *variants))
            (folder / f"{stem}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")
    for name in FOLDERS:
        game = registry().get(name)
        rules, content = fingerprint(game), content_fingerprint(game)
        print(f"{name} rules version {game.rules_version}: fingerprint {rules}, content {content}")


if __name__ == "__main__":
    regenerate()
