"""Options described structurally: checked, parsed from the command line, served to the lobby."""

from __future__ import annotations

import warnings

import pytest
from typer.testing import CliRunner

from ludorum.cli.main import app
from ludorum.engine import ConfigError
from ludorum.engine.options import Choice, Option, parse_assignments
from ludorum.games import registry
from ludorum.server import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

runner = CliRunner()
COLOUR = Option("colour", "a colour", kind="choice", choices=(Choice("red", "Red"), Choice("blue", "Blue")))
SIDES = Option("sides", "each seat's side", kind="per_seat", choices=(Choice("a", "A"), Choice("b", "B")))
ROUNDS = Option("rounds", "rounds", kind="int", default=5, minimum=1, maximum=9)


@pytest.mark.parametrize(
    ("option", "value", "players", "problem"),
    [
        (COLOUR, "red", 2, None),
        (COLOUR, "green", 2, "one of red, blue"),
        (COLOUR, 3, 2, "is text"),
        (ROUNDS, 9, 2, None),
        (ROUNDS, 10, 2, "from 1 to 9, not 10"),
        (ROUNDS, True, 2, "whole number"),
        (SIDES, "b,a", 2, None),
        (SIDES, "a,a", 2, "2 different values"),
        (SIDES, "a", 2, "2 different values"),
        (SIDES, "a,c", 2, "out of a, b"),
    ],
)
def test_a_value_is_checked_against_its_description(
    option: Option, value: object, players: int, problem: str | None
) -> None:
    found = option.problem(value, players)  # type: ignore[arg-type]
    assert (found is None) if problem is None else (problem in (found or "")), found


def test_command_line_assignments_parse_by_kind_and_name_what_is_wrong() -> None:
    parsed = parse_assignments((ROUNDS, COLOUR), ["rounds=7", "colour=blue"], "G")
    assert parsed == {"rounds": 7, "colour": "blue"}
    for texts, words in (
        (["rounds"], "key=value"),
        (["nope=1"], "G has no option 'nope'; its options are rounds"),
        (["rounds=x"], "option rounds is a whole number, not 'x'"),
        (["rounds=1", "rounds=2"], "given twice"),
    ):
        with pytest.raises(ConfigError, match=words):
            parse_assignments((ROUNDS,), texts, "G")


def test_the_games_declare_their_options_and_the_names_are_derived() -> None:
    reliquium, signum = registry().get("reliquium"), registry().get("signum")
    factions = {o.name: o for o in reliquium.option_specs()}["factions"]
    assert factions.kind == "per_seat" and factions.seat_order
    assert factions.values() == ["legion", "alliance", "order", "brotherhood"]
    assert set(reliquium.option_names) == {"factions", "rounds"}
    assert [o.seat for o in signum.option_specs()] == [0, 1, 2, 3]
    assert "empire_dawn" in signum.option_specs()[0].values()
    # a choice the game's own check refuses is still refused, and a generic refusal names key and value
    with pytest.raises(ConfigError, match="option rounds is a whole number from 1 to 200, not 0"):
        reliquium.config(2, rounds=0)
    with pytest.raises(ConfigError, match="option factions names 2 different values"):
        reliquium.config(2, factions="order,order")
    with pytest.raises(ConfigError, match="deck3 is for seat 4, and only 2 play"):
        signum.config(2, deck3="empire_dawn")


def test_the_default_options_give_the_same_game_as_no_options() -> None:
    reliquium = registry().get("reliquium")
    explicit = reliquium.new(reliquium.config(2, factions="alliance,order", rounds=20), 3)
    plain = reliquium.new(reliquium.config(2), 3)
    assert reliquium.view(explicit, None)["factions"] == reliquium.view(plain, None)["factions"]


def test_simulate_and_play_take_options() -> None:
    out = runner.invoke(
        app, ["simulate", "reliquium", "-n", "1", "--option", "factions=order,brotherhood", "-o", "rounds=2"]
    )
    assert out.exit_code == 0, out.output
    assert "round limit 2 reached" in out.output
    bad = runner.invoke(app, ["simulate", "reliquium", "-n", "1", "--option", "factions=order,elves"])
    assert bad.exit_code != 0 and "out of legion, alliance, order, brotherhood" in bad.output
    bad = runner.invoke(app, ["play", "reliquium", "--option", "colour=red"])
    assert bad.exit_code != 0 and "Reliquium has no option 'colour'" in bad.output
    listed = runner.invoke(app, ["options", "signum"])
    assert listed.exit_code == 0 and "deck0" in listed.output and "empire_dawn" in listed.output


def test_the_catalogue_describes_games_options_and_rules(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with TestClient(create_app(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}")) as client:
        catalog = {g["name"]: g for g in client.get("/api/catalog").json()}
        assert set(catalog) == {g.name for g in registry()}
        for game in registry():
            entry = catalog[game.name]
            assert entry["blurb"] and entry["length"] and entry["rules"] is True
            assert [o["name"] for o in entry["options"]] == list(game.option_names)
            page = client.get(f"/api/rules/{game.name}").json()
            assert page["title"] == game.title and "<h2" in page["html"]
        rounds = {o["name"]: o for o in catalog["reliquium"]["options"]}["rounds"]
        described = (rounds["kind"], rounds["default"], rounds["minimum"], rounds["maximum"])
        assert described == ("int", 20, 1, 200)
        assert client.get("/api/rules/chess").status_code == 404
        assert client.get("/api/rules/..%2Fpyproject").status_code == 404
        made = client.post(
            "/api/games",
            json={
                "game": "reliquium",
                "config": {"players": 2, "options": {"factions": "alliance,brotherhood"}},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            },
        )
        assert made.status_code == 201, made.text
        refused = client.post(
            "/api/games",
            json={
                "game": "reliquium",
                "config": {"players": 2, "options": {"rounds": 500}},
                "seats": [{"kind": "human"}, {"kind": "human"}],
            },
        )
        assert refused.status_code == 422 and "option rounds" in refused.json()["error"]["message"]
