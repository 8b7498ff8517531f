"""Hidden information over the wire: what each seat and a spectator receive, against the full state."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi.testclient import TestClient

from ludorum.engine import CHANCE, Action, Config, IllegalAction, Record, Registry, replay, replay_states
from ludorum.engine.disclosure import Step
from tests.fixtures.sealed_bids import SealedBids
from tests.server.support import TOKEN_BODY, bearer, new_game_body

GAME = SealedBids()


def full_state(client: TestClient, game_id: str) -> Any:
    """The server's full state, rebuilt from the database record (never sent to a client)."""
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    live = client.portal.call(lobby.get, game_id)  # type: ignore[union-attr]
    return live, replay(GAME, Record(GAME.name, live.config, live.seed, list(live.steps)))


def settled(client: TestClient, game_id: str) -> Any:
    """The full state once chance has moved (only humans sit, so it then waits for them)."""
    deadline = time.monotonic() + 10
    while True:
        live, state = full_state(client, game_id)
        if GAME.is_over(state) or GAME.to_move(state) != CHANCE:
            return live, state
        assert time.monotonic() < deadline
        time.sleep(0.01)


def shown_fairly(entry: dict[str, Any], seat: int | None, states: list[Any]) -> bool:
    """Another seat's bid may show only when it was that seat's one possible bid (no coins left)."""
    if entry["action"] is None or entry["seat"] in (seat, -1) or entry["action"]["kind"] != "bid":
        return True
    return len(GAME.legal_actions(states[entry["index"]])) == 1


def test_each_seat_and_spectator_receive_only_their_view(client: TestClient) -> None:
    r = client.post("/api/games", json=new_game_body(players=3, claim=0), headers=TOKEN_BODY)
    game_id, tokens = r.json()["id"], [r.json()["token"]]
    for seat in (1, 2):
        tokens.append(
            client.post(f"/api/games/{game_id}/seats/{seat}/claim", headers=TOKEN_BODY).json()["token"]
        )
    client.cookies.clear()
    secrets_seen = 0
    for _ in range(40):
        live, state = settled(client, game_id)
        if GAME.is_over(state):
            break
        states = list(replay_states(GAME, live.record()))
        snaps = {
            seat: client.get(f"/api/games/{game_id}", headers=bearer(t)).json()
            for seat, t in enumerate(tokens)
        }
        snaps[None] = client.get(f"/api/games/{game_id}").json()
        mover = GAME.to_move(state)
        for seat, snap in snaps.items():
            assert snap["seat"] == seat
            assert snap["view"] == GAME.view(state, seat)
            text = json.dumps(snap)
            assert str(live.seed) not in text and '"rng"' not in text
            if seat == mover:
                assert [a["action"] for a in snap["legal"]] == [
                    a.to_json() for a in GAME.legal_actions(state)
                ]
            else:
                assert snap["legal"] == []
            # other seats' secret bids and pending bid never appear: not in the view, not in the log
            for other, bid in enumerate(state.bids):
                if bid is not None and other != seat:
                    secrets_seen += 1
                    assert snap["view"]["bids"][other] == {"hidden": True}
            assert all(shown_fairly(e, seat, states) for e in snap["log"])
        # the record downloaded before the end holds no seed and no other seat's bid
        for seat, t in enumerate(tokens):
            rec = client.get(f"/api/games/{game_id}/record", headers=bearer(t)).json()
            assert "seed" not in rec and "steps" not in rec and rec["view"] == GAME.view(state, seat)
            assert all(shown_fairly(e, seat, states) for e in rec["log"])
        # the lobby listing holds no seed and no token
        listing = json.dumps(client.get("/api/games").json())
        assert str(live.seed) not in listing and all(t not in listing for t in tokens)
        snap = snaps[mover]
        pick = snap["legal"][-1] if snap["legal"][0]["action"]["kind"] == "bid" else snap["legal"][0]
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": snap["version"], "action": pick["action"]},
            headers=bearer(tokens[mover]),
        )
        assert r.status_code == 200
        # what the submitter gets back is its own view only
        assert r.json()["view"] == GAME.view(full_state(client, game_id)[1], mover) or r.json()[
            "version"
        ] != len(full_state(client, game_id)[0].steps)
    assert secrets_seen > 0


def test_the_log_hides_a_secret_bid_from_others_and_reveals_it_at_the_end(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    r = client.post("/api/games", json=new_game_body(seats=seats), headers=TOKEN_BODY)
    game_id, token = r.json()["id"], r.json()["token"]
    client.cookies.clear()
    deadline = time.monotonic() + 10
    while not (snap := client.get(f"/api/games/{game_id}", headers=bearer(token)).json())["legal"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    client.post(
        f"/api/games/{game_id}/actions",
        json={"version": snap["version"], "action": {"kind": "bid", "args": [4]}},
        headers=bearer(token),
    )
    mine = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()["log"]
    spectator = client.get(f"/api/games/{game_id}").json()["log"]
    assert mine[-1]["action"] == {"kind": "bid", "args": [4]} and "4" in mine[-1]["label"]
    assert spectator[-1]["action"] is None and "4" not in spectator[-1]["label"]
    assert spectator[0]["action"] is not None  # the prize chance drew is public
    # play to the end: every step becomes public
    deadline = time.monotonic() + 20
    while (snap := client.get(f"/api/games/{game_id}", headers=bearer(token)).json())["status"] != "finished":
        assert time.monotonic() < deadline
        if snap["legal"]:
            client.post(
                f"/api/games/{game_id}/actions",
                json={"version": snap["version"], "action": snap["legal"][0]["action"]},
                headers=bearer(token),
            )
        time.sleep(0.01)
    final = client.get(f"/api/games/{game_id}").json()["log"]
    assert all(e["action"] is not None for e in final)
    assert [e["action"] for e in final] == [a.to_json() for _, a in full_state(client, game_id)[0].steps]


def test_visibility_rule_on_the_fixture_game() -> None:
    from ludorum.engine.disclosure import SECRET, disclose

    def readers(before: object, seat: int, action: Action, after: object) -> set[int | None]:
        entry = disclose(Step(GAME, 0, before, seat, action, after))  # type: ignore[arg-type]
        return {o for o in (None, 0, 1) if entry.reading(o) is not SECRET}

    state = GAME.new(Config(2), 1)
    drawn = GAME.step(state, Action("prize", (3,)))
    assert readers(state, -1, Action("prize", (3,)), drawn) == {None, 0, 1}
    bid = GAME.step(drawn, Action("bid", (2,)))
    assert readers(drawn, 0, Action("bid", (2,)), bid) == {0}
    confirmed = GAME.step(bid, Action("confirm"))
    assert readers(bid, 0, Action("confirm"), confirmed) == {None, 0, 1}


def test_websocket_pushes_carry_only_each_observers_view(client: TestClient) -> None:
    r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
    game_id, t0 = r.json()["id"], r.json()["token"]
    t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
    client.cookies.clear()
    _, state = settled(client, game_id)
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws", headers=bearer(t1)) as ws1,
        client.websocket_connect(f"/api/games/{game_id}/ws") as spectator,
    ):
        for ws in (ws1, spectator):
            ws.send_json({"type": "hello", "version": current_version(client, game_id)})
            ws.receive_json()
        snap = client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()
        client.post(
            f"/api/games/{game_id}/actions",
            json={"version": snap["version"], "action": {"kind": "bid", "args": [3]}},
            headers=bearer(t0),
        )
        _, state = full_state(client, game_id)
        assert state.pending == 3
        m1, ms = ws1.receive_json(), spectator.receive_json()
        assert m1["view"] == GAME.view(state, 1) and ms["view"] == GAME.view(state, None)
        assert m1["legal"] == [] and ms["legal"] == []
        for m in (m1, ms):
            assert m["log"][-1]["action"] is None and "3" not in json.dumps(m["log"][-1])
            assert '"pending": 3' not in json.dumps(m)


def current_version(client: TestClient, game_id: str) -> int:
    """The game's current version."""
    return int(client.get(f"/api/games/{game_id}").json()["version"])


class ProbedBids(SealedBids):
    """A careless game: refusing an over-bid names the other seats' sealed bids."""

    def apply(self, state: Any, action: Action) -> Any:
        if action.kind == "bid" and action.args and isinstance(action.args[0], int) and action.args[0] > 5:
            others = [b for i, b in enumerate(state.bids) if i != self.to_move(state)]
            raise IllegalAction(f"you cannot outbid {others} with {action.args[0]}", "Bidding")
        return super().apply(state, action)


def test_a_refusal_that_would_reveal_a_secret_is_made_plain(sqlite_url: str) -> None:
    from ludorum.server import create_app

    reg = Registry()
    reg.register(ProbedBids())
    with TestClient(create_app(reg, sqlite_url)) as client:
        r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
        game_id, t0 = r.json()["id"], r.json()["token"]
        t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
        client.cookies.clear()
        deadline = time.monotonic() + 10
        while not client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()["legal"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        # seat 0 seals a bid of 4
        for action in ({"kind": "bid", "args": [4]}, {"kind": "confirm"}):
            v = client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()["version"]
            assert (
                client.post(
                    f"/api/games/{game_id}/actions", json={"version": v, "action": action}, headers=bearer(t0)
                ).status_code
                == 200
            )
        # seat 1 probes with an over-bid: the careless message would name the 4
        v = client.get(f"/api/games/{game_id}", headers=bearer(t1)).json()["version"]
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": v, "action": {"kind": "bid", "args": [9]}},
            headers=bearer(t1),
        )
        assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_action"
        assert (
            "4" not in r.json()["error"]["message"]
            and "not one of your possible actions" in r.json()["error"]["message"]
        )
        # a refusal that depends on nothing hidden keeps its explanation and rule
        r = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": v, "action": {"kind": "confirm"}},
            headers=bearer(t1),
        )
        assert r.json()["error"]["message"] == "confirm is not possible now"
        assert r.json()["error"]["rule"] == "Sealed Bids › Bidding"


class ChattyBids(SealedBids):
    """A careless game: the label of a public step (confirm) names the hidden bid it seals."""

    def describe(self, state: Any, action: Action) -> str:
        if action.kind == "confirm":
            return f"seal the bid of {state.pending}"
        return super().describe(state, action)


def test_a_label_that_would_reveal_a_secret_shows_the_bare_action(sqlite_url: str) -> None:
    from ludorum.server import create_app

    reg = Registry()
    reg.register(ChattyBids())
    with TestClient(create_app(reg, sqlite_url)) as client:
        r = client.post("/api/games", json=new_game_body(claim=0), headers=TOKEN_BODY)
        game_id, t0 = r.json()["id"], r.json()["token"]
        t1 = client.post(f"/api/games/{game_id}/seats/1/claim", headers=TOKEN_BODY).json()["token"]
        client.cookies.clear()
        deadline = time.monotonic() + 10
        while not client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()["legal"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        v = client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()["version"]
        client.post(
            f"/api/games/{game_id}/actions",
            json={"version": v, "action": {"kind": "bid", "args": [4]}},
            headers=bearer(t0),
        )
        mine = client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()
        # the seat's own choices keep the game's words: it knows its own pending bid
        assert "seal the bid of 4" in [a["label"] for a in mine["legal"]]
        client.post(
            f"/api/games/{game_id}/actions",
            json={"version": v + 1, "action": {"kind": "confirm"}},
            headers=bearer(t0),
        )
        for token in (t1, None):
            log = client.get(f"/api/games/{game_id}", headers=bearer(token) if token else {}).json()["log"]
            assert log[-1]["action"] == {"kind": "confirm", "args": []}  # the step itself is public
            assert log[-1]["label"] == "confirm" and "4" not in log[-1]["label"]
        own = client.get(f"/api/games/{game_id}", headers=bearer(t0)).json()["log"]
        assert own[-1]["label"] == "seal the bid of 4"
