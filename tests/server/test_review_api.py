"""Game reviews over REST: run on the worker pool, stored, the CLI's numbers, who may look."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from salad.lab.review import ReviewOptions, review_record
from salad.server.reviews import EACH, WORLDS_ENV

from .conftest import Server, connect

WORLDS = 3

FOUR = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "basic"}]
FOUR += [{"kind": "bot", "bot": "basic"}]


def _review_path(table_id: str, seat: int, game: int = 1) -> str:
    return f"/api/tables/{table_id}/games/{game}/review?seat={seat}"


def _wait_over(srv: Any, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while srv.ok("GET", f"/api/tables/{table_id}/games")[0]["status"] != "over":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.2)


def _wait_done(srv: Any, path: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    seen: list[int] = []
    while True:
        status: dict[str, Any] = srv.ok("GET", path, token=token)
        if status["status"] == "done":
            assert seen == sorted(seen)  # progress only goes up
            return status
        assert status["status"] == "running", status
        seen.append(status["done"])
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.1)


pytestmark = pytest.mark.one_worker  # the module's server starts once (tests/conftest.py)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests (each plays its own tables), reviewing in WORLDS."""
    tmp = tmp_path_factory.mktemp("reviews")
    with pytest.MonkeyPatch.context() as env:
        env.setenv(WORLDS_ENV, str(WORLDS))
        server = Server(f"sqlite:///{tmp / 'salad.db'}", tmp / "server.log")
    yield server
    server.stop()


def test_a_finished_games_review_is_the_clis_and_is_stored(srv: Any) -> None:
    # Away seats are played by a bot at once (bot_takeover 0): the game plays itself out.
    table_id, tokens = srv.table(FOUR, bot_takeover=0)
    _wait_over(srv, table_id)
    path = _review_path(table_id, seat=2)
    assert srv.ok("GET", path, token=tokens[1]) == {"status": "none"}
    started = srv.ok("POST", path, token=tokens[1])  # a player may review another seat now
    assert started["status"] in ("running", "done") and started.get("total", 78) == 78
    # The review runs on the worker pool: the server answers meanwhile, at once.
    before = time.monotonic()
    srv.ok("GET", f"/api/tables/{table_id}")
    assert time.monotonic() - before < 1.0
    done = _wait_done(srv, path, tokens[1])
    record = srv.ok("GET", f"/api/tables/{table_id}/record?game=1")
    want = review_record(record, [2], ReviewOptions(worlds=WORLDS), game_number=1)
    assert done["review"] == want.model_dump(mode="json")
    # Stored: the host's look, and a second start, answer the same review at once.
    again = srv.ok("GET", path, token=tokens[0])
    assert again == done
    assert srv.ok("POST", path, token=tokens[0]) == done


def test_who_may_look_and_unfinished_games(srv: Any) -> None:
    # Nobody plays for the humans here: the game stays under way.
    table_id, tokens = srv.table(FOUR)
    path = _review_path(table_id, seat=0)
    r = srv.post(path, token=tokens[0])
    assert r.status_code == 409
    assert r.json()["error"] == (
        "review: game 1 is not finished; a review of an unfinished game would reveal what the "
        "search infers"
    )
    assert srv.post(path).status_code == 401
    assert srv.post(path, token="nope").status_code == 401
    assert srv.post(_review_path(table_id, 0, game=2), token=tokens[0]).status_code == 404
    assert srv.http.get(f"/api/tables/{table_id}/games/1/review?seat=-1").status_code == 400


def test_during_a_later_game_a_player_reviews_only_their_own_seat(srv: Any) -> None:
    table_id, tokens = srv.table(FOUR, bot_takeover=0)
    _wait_over(srv, table_id)

    async def rematch_with_seat_1_here() -> None:
        # Seat 1 connected is not taken over: the rematch waits for its first card.
        sock = await connect(srv, table_id, tokens[1])
        await sock.send({"type": "hello", "token": tokens[1]})
        await sock.recv()
        srv.ok("POST", f"/api/tables/{table_id}/rematch", token=tokens[0])
        deadline = time.monotonic() + 20
        while srv.ok("GET", f"/api/tables/{table_id}")["status"] != "playing":
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        other = srv.post(_review_path(table_id, seat=2), token=tokens[1])
        assert other.status_code == 403
        assert "only your own seat (1)" in other.json()["error"]
        own = srv.post(_review_path(table_id, seat=1), token=tokens[1])
        assert own.status_code == 200 and own.json()["status"] in ("running", "done")
        await sock.ws.close()

    asyncio.run(rematch_with_seat_1_here())


def test_a_player_waits_for_their_reviews_before_asking_more(srv: Any) -> None:
    """One seat of a table asks for every seat's review at once: the first EACH are taken,
    the next is refused (429, one line) until they are done; then it is taken."""
    table_id, tokens = srv.table(FOUR, bot_takeover=0)
    _wait_over(srv, table_id)
    paths = [_review_path(table_id, seat=s) for s in range(EACH + 1)]
    for path in paths[:EACH]:
        assert srv.ok("POST", path, token=tokens[0])["status"] in ("running", "done")
    refused = srv.post(paths[EACH], token=tokens[0])  # each takes 78 pool tasks: under way
    assert refused.status_code == 429, refused.text
    assert refused.json() == {
        "error": f"review: you have {EACH} reviews under way; wait for them to finish"
    }
    assert srv.ok("GET", paths[EACH], token=tokens[0]) == {"status": "none"}
    for path in paths[:EACH]:
        _wait_done(srv, path, tokens[0])
    assert srv.ok("POST", paths[EACH], token=tokens[0])["status"] in ("running", "done")
    _wait_done(srv, paths[EACH], tokens[0])
