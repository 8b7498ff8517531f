"""What the log tells the other seat and spectators of Signum's secret steps (the server issue's leaks)."""

from __future__ import annotations

import random
from itertools import islice
from pathlib import Path

from ludorum.engine import CHANCE, Action
from ludorum.engine.disclosure import SECRET, Step, disclose
from ludorum.engine.record import Record, replay_states
from ludorum.games.signum import GAME
from ludorum.games.signum.scenario import scenario

RECORDS = Path(__file__).parent / "records"


def readings(before, action):  # type: ignore[no-untyped-def]
    """Who reads what of ``action``: the opponent's and a spectator's readings."""
    seat = GAME.to_move(before)
    entry = disclose(Step(GAME, 0, before, seat, action, GAME.step(before, action)))
    return [entry.reading(o) for o in (None, 1 - seat)]


def test_a_tactic_set_face_down_stays_secret_when_it_was_the_only_one() -> None:
    """One tactic card in hand offers one ``set``: the others still may not learn which card it was."""
    s = scenario({"hands": (["street_ambush"], ["street_ambush"])})
    sets = [a for a in GAME.legal_actions(s) if a.kind == "set"]
    assert sets == [Action("set", ("street_ambush",))]
    assert readings(s, sets[0]) == [SECRET, SECRET]


def test_the_last_building_stacked_by_an_experienced_architect_stays_secret() -> None:
    """Architect: the last ``stack`` is forced, but which card it is (the bottom card) is the owner's."""
    config = GAME.config(2, ["architect"])
    s = GAME.new(config, 4)
    rng = random.Random(0)
    while True:
        if GAME.to_move(s) == CHANCE:
            s = GAME.step(s, GAME.sample_chance(s))
            continue
        legal = GAME.legal_actions(s)
        if s.phase == "stack" and len(legal) == 1:
            break
        assert s.phase in ("roll_first", "choose_first", "stack"), "stacking ended without a forced stack"
        s = GAME.step(s, rng.choice(legal))
    assert legal[0].kind == "stack"
    assert readings(s, legal[0]) == [SECRET, SECRET]


def test_a_tactic_set_face_down_reads_the_same_whatever_the_card() -> None:
    """The soak's find (seed 136, step 167: docs/lab.md, "The soak run"): the opponent read "Set a tactic
    card face down" for one card and "made a secret decision" for another it could not tell apart.  Which
    card is set is the owner's alone (DESIGN.md §5: tactic cards are played face down), so every card
    reads the same: a sampled information set that rarely holds a tactic in hand must not decide it.
    Since rules version 7 the position is step 216 of a random-bot game of seed 12, where without
    ``private_kinds`` 11 of the other cards read differently (found as the soak found seed 136)."""
    record = Record.loads((RECORDS / "set-face-down-seed12.json").read_text())
    *_, before = islice(replay_states(GAME, record), 217)
    seat, action = record.steps[216]
    assert action.kind == "set"
    after = GAME.step(before, action)
    observer = 1 - seat
    seen = disclose(Step(GAME, 0, before, seat, action, after)).to_json(observer, public=False)
    assert seen["action"] is None
    target, rng, compared = GAME.view(after, observer), random.Random(0), 0
    for _ in range(100):
        twin = GAME.sample_state(before, observer, rng)
        for alt in GAME.legal_actions(twin):
            nxt = GAME.step(twin, alt)
            if alt.kind == "set" and alt != action and GAME.view(nxt, observer) == target:
                assert disclose(Step(GAME, 0, twin, seat, alt, nxt)).to_json(observer, public=False) == seen
                compared += 1
    assert compared >= 5


def test_a_move_into_contact_reads_as_its_twin_contact_reads() -> None:
    """The soak's find (rules version 7, four players with Experienced Architect and teams, seed 887,
    step 410): ``move(4, 100)``, "Move W 10 cm", ends exactly where ``contact(8)`` would ("Move into
    contact with Blunderbuss Man") — the same state.  Another seat cannot tell which was chosen, so the
    step may not read as either label; ``move`` is therefore not a kind Signum may declare public (the
    declarations' reading must be the full judgement's: ``check_public_step``)."""
    from ludorum.engine.conformance import check_public_step

    record = Record.loads((RECORDS / "move-or-contact-seed887.json").read_text())
    *_, before = islice(replay_states(GAME, record), 411)
    seat, action = record.steps[410]
    after = GAME.step(before, action)
    twin = Action("contact", (8,))
    assert action == Action("move", (4, 100)) and GAME.step(before, twin) == after
    for observer in (None, 0, 1, 3):
        check_public_step(Step(GAME, 0, before, seat, action, after), observer, "seed 887, step 410")
    entry = disclose(Step(GAME, 0, before, seat, action, after))
    assert entry.reading(3) is SECRET
    assert disclose(Step(GAME, 0, before, seat, twin, after)).reading(3) is SECRET
