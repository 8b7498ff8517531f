"""Random games read in Russian: no English word is left in what a player reads."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from ludorum.engine import CHANCE, Action, i18n
from ludorum.engine.disclosure import Step, disclose
from ludorum.games import registry

ENGLISH_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
ALLOWED = frozenset({"q", "XL"})
"""ASCII words a Russian reader may see besides single letters and numbers: Legends of Signum's distances
S, M, L, XL, which its Russian rulebook writes in Latin letters ("на расстояние не более XL")."""

TRANSLATED = {"reliquium", "medieval-realms", "signum"}
"""Games whose labels, stages, names and terminal view are translated (docs/i18n.md)."""


def leftovers(text: str) -> set[str]:
    """The English words left in ``text``."""
    return {w for w in ENGLISH_WORD.findall(text) if w not in ALLOWED}


def read_game(name: str, seed: int, steps: int = 60) -> list[str]:
    """Everything a Russian reader sees in a random game: labels, log, stage, names, terminal view."""
    game = registry().get(name)
    rng = random.Random(seed)
    config = game.config(rng.randint(game.min_players, game.max_players))
    state = game.new(config, seed)
    seen: list[str] = []
    for index in range(steps):
        if game.is_over(state):
            break
        mover = game.to_move(state)
        legal = list(game.legal_actions(state))
        seen += [i18n.say(game.describe(state, a), "ru") for a in legal]
        seen += [i18n.say(game.seat_name(state, s), "ru") for s in range(config.players)]
        seen.append(i18n.say(game.stage(state), "ru"))
        action = rng.choice(legal)
        after = game.step(state, action)
        if mover != CHANCE:
            entry = disclose(Step(game, index, state, mover, action, after))
            seen += [str(i18n.localize(entry.to_json(o, False), "ru")["label"]) for o in (None, mover)]
        state = after
    token = i18n.current()
    i18n.use("ru")
    try:
        seen.append(game.render_text(state, None))
    finally:
        i18n.use(token)
    return seen


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=() if n in TRANSLATED else pytest.mark.xfail(strict=True, reason="not yet"))
        for n in ("reliquium", "medieval-realms", "signum")
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_game_reads_in_russian(name: str, seed: int) -> None:
    left: dict[str, str] = {}
    for text in read_game(name, seed):
        for word in leftovers(text):
            left.setdefault(word, text)
    assert not left, f"untranslated: {dict(list(left.items())[:8])}"


def test_rule_references_of_refusals_are_translated() -> None:
    game = registry().get("reliquium")
    state = game.new(game.config(3), 5)
    refusal: Any = game.describe_error(state, Action("march", (0, 99)))
    if refusal is None:  # the game's own check: apply refuses it
        with pytest.raises(Exception) as e:
            game.apply(state, Action("march", (0, 99)))
        refusal = e.value
    assert refusal.rule and not leftovers(i18n.say(refusal.rule, "ru"))


def test_english_is_unchanged_and_russian_differs() -> None:
    game = registry().get("reliquium")
    state = game.new(game.config(2), 3)
    label = game.describe(state, game.legal_actions(state)[1])
    assert str.__str__(label) == i18n.say(label, "en")
    assert i18n.say(label, "ru") != i18n.say(label, "en")
    assert not leftovers(i18n.say(label, "ru"))


def test_a_signum_refusal_reads_in_russian_with_its_chapter() -> None:
    from ludorum.engine import IllegalAction

    game = registry().get("signum")
    state = game.new(game.config(2), 1)
    with pytest.raises(IllegalAction) as e:
        game.apply(state, Action("build", ("farm",)))
    message, rule = i18n.say(e.value.message, "ru"), i18n.say(e.value.rule, "ru")
    assert message and not leftovers(message), message
    assert rule.startswith("Легенды Сигнума › ") and not leftovers(rule), rule
    assert i18n.say(e.value.rule, "en").startswith("Legends of Signum › ")


def test_a_signum_property_reads_once_in_russian_and_glossed_in_english() -> None:
    from ludorum.games.signum.glossary import label, parse

    shot = label(parse("shot 3"))
    assert str.__str__(shot) == "Shot 3 (Выстрел 3)" == i18n.say(shot, "en")
    assert i18n.say(shot, "ru") == "Выстрел 3"
    import pickle

    assert i18n.say(pickle.loads(pickle.dumps(shot)), "ru") == "Выстрел 3"


def test_a_medieval_realms_refusal_reads_in_russian_with_its_rule() -> None:
    from ludorum.engine import IllegalAction

    game = registry().get("medieval-realms")
    state = game.new(game.config(3), 2)
    with pytest.raises(IllegalAction) as e:
        game.apply(state, Action("extra", ("gold", "gold")))
    assert str.__str__(e.value.message) == "the two extra resources must be two DIFFERENT resources"
    assert str.__str__(e.value.rule) == "Medieval Realms › Set-Up"
    message, rule = i18n.say(e.value.message, "ru"), i18n.say(e.value.rule, "ru")
    assert message == "два дополнительных ресурса должны быть РАЗНЫМИ"
    assert rule == "Правила › Подготовка к игре" and not leftovers(rule)
