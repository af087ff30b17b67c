"""The server speaks each request's and websocket's language (:mod:`salad.server.speech`):
``?lang=``, the switch's cookie, the player's stored language, ``Accept-Language``; English
when none asks for another."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from salad.bots.assist import Hint
from salad.formats.rules import load_ruleset
from salad.locale import using
from salad.server.app import create_app
from salad.server.tables.connection import Conn

with warnings.catch_warnings():  # starlette's note on which httpx it would like
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

FR = {"accept-language": "fr-CA,fr;q=0.9,en;q=0.5"}
NO_TABLE_EN = "no table 'nope'"
NO_TABLE_FR = "aucune table 'nope'"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "t.db"))) as c:
        yield c


def error(answer: Any) -> str:
    text: str = answer.json()["error"]
    return text


def test_an_error_in_the_request_s_language(client: TestClient) -> None:
    """The same refusal in English by default, in French for Accept-Language: fr, the cookie
    or ?lang=fr; the cookie and ?lang= win over the header."""
    assert error(client.get("/api/tables/nope")) == NO_TABLE_EN
    assert error(client.get("/api/tables/nope", headers=FR)) == NO_TABLE_FR
    assert error(client.get("/api/tables/nope", headers={"accept-language": "de"})) == NO_TABLE_EN
    assert error(client.get("/api/tables/nope?lang=fr")) == NO_TABLE_FR
    assert error(client.get("/api/tables/nope?lang=en", headers=FR)) == NO_TABLE_EN
    client.cookies.set("salad_lang", "fr")
    assert error(client.get("/api/tables/nope")) == NO_TABLE_FR
    client.cookies.set("salad_lang", "en")
    assert error(client.get("/api/tables/nope", headers=FR)) == NO_TABLE_EN


def test_framework_errors_too(client: TestClient) -> None:
    """A body that is not JSON and a table made with bad seats: in French for a French
    browser, placeholders filled."""
    bad = client.post(
        "/api/tables", content=b"{", headers={**FR, "content-type": "application/json"}
    )
    assert bad.status_code == 400 and error(bad) == "le corps n'est pas du JSON valide"
    body = {"name": "Host", "seats": [{"kind": "human"}] * 4, "players": 3}
    answer = client.post("/api/tables", json=body, headers=FR)
    assert error(answer) == "seats\u00a0: 4 sièges listés pour players = 3"


def test_a_player_s_stored_language(client: TestClient) -> None:
    """A player who chose French hears French without a cookie of the switch or a French
    browser; the switch's cookie still wins."""
    me = client.get("/api/me").json()
    assert me["language"] == "en"
    assert error(client.get("/api/tables/nope")) == NO_TABLE_EN
    origin = {"origin": str(client.base_url)}
    assert client.patch("/api/me", json={"language": "fr"}, headers=origin).status_code == 200
    assert error(client.get("/api/tables/nope")) == NO_TABLE_FR
    client.cookies.set("salad_lang", "en")
    assert error(client.get("/api/tables/nope")) == NO_TABLE_EN


def test_the_websocket_s_errors_in_its_language(client: TestClient) -> None:
    """A websocket's errors are in the language of its handshake: the table it asks for,
    a message that is not JSON, a move refused."""
    with client.websocket_connect("/ws/tables/nope", headers=dict(FR)) as ws:
        assert json.loads(ws.receive_text()) == {"type": "error", "message": NO_TABLE_FR}
    body = {"name": "Host", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}
    made = client.post("/api/tables", json=body).json()
    table_id, token = made["table_id"], made["token"]
    auth = {"authorization": f"Bearer {token}"}
    assert client.post(f"/api/tables/{table_id}/start", headers=auth).status_code == 200
    french = ("pas du JSON", ("Tu ne peux pas jouer", "Attends que"))
    english = ("not JSON", ("You cannot play", "Wait for"))
    for headers, (said, refused) in ((FR, french), ({}, english)):
        # (the test client adds the handshake's headers to the dict it is given)
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=dict(headers)) as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            ws.send_text("{")
            while (message := json.loads(ws.receive_text()))["type"] != "error":
                pass
            assert message["message"].startswith(said), message
            ws.send_text(json.dumps({"type": "play", "move": "nothing"}))
            while (message := json.loads(ws.receive_text()))["type"] != "error":
                pass
            assert message["message"].startswith(refused), message


class Recorded:
    """A socket that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.sent.append((code, reason))


def test_a_close_in_the_connection_s_language() -> None:
    """What another task says to a connection (a close) is said in the connection's
    language, whatever the language of the task saying it."""
    socket = Recorded()

    async def run() -> None:
        with using("fr"):
            conn = Conn(socket, 0)
        conn.kick(4403, "the host removed your seat")
        await conn.finish(5)

    asyncio.run(run())
    said = "l'hôte a retiré ton siège"
    assert socket.sent == [{"type": "error", "message": said}, (4403, said)]


def test_a_hint_s_reason_in_french() -> None:
    """A hint's reason is said where it is shown, in the language current there: the server
    says it in the connection's (salad.bots.assist.Hint.reason)."""
    deck = load_ruleset("canadian").deck_for(4)
    ace, ten = deck.parse("AC"), deck.parse("TH")
    with using("fr"):
        assert Hint(ten, "saves", ace, 3).reason(deck) == "coûte environ 3 points de moins que A♣"
        assert Hint(ace, "scores", ten, 1).reason(deck) == (
            "rapporte environ 1 point de plus que 10♥"
        )
        assert Hint(ace, "only").reason(deck) == "c'est ton seul choix"
    assert Hint(ten, "as-good", deck.parse("QS")).reason(deck) == "about as good as Q♠"


def test_a_refusal_in_a_dependency_run_in_a_thread(client: TestClient) -> None:
    """A check run in the thread pool (a plain function: the request's origin) speaks the
    request's language too."""
    assert client.get("/api/me", headers=FR).json()["language"] == "fr"
    foreign = {**FR, "origin": "https://elsewhere.example"}
    answer = client.patch("/api/me", json={"colour": "#123456"}, headers=foreign)
    assert answer.status_code == 403
    assert error(answer).startswith("une requête d'un autre site")


def test_the_lobby_in_each_connection_s_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby holds words (the penalties, said by salad.formats.howto): each request and
    each websocket gets it in its own language, however many share the table."""
    import salad.server.tables.table as tables
    from salad.locale import _

    monkeypatch.setattr(tables, "hands_info", lambda rs, n: ([_("the game is over")], []))
    with TestClient(create_app(str(tmp_path / "t.db"))) as client:
        body = {"name": "Host", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}
        table_id = client.post("/api/tables", json=body).json()["table_id"]
        url = f"/api/tables/{table_id}"
        french = client.get(url, headers=FR).json()["penalty_lines"]
        assert french == ["la partie est terminée"]
        assert client.get(url).json()["penalty_lines"] == ["the game is over"]
        said = []
        for headers in (FR, {}):
            with client.websocket_connect(f"/ws/{url[5:]}", headers=dict(headers)) as ws:
                state = json.loads(ws.receive_text())
                said.append(state["table"]["penalty_lines"][0])
        assert said == ["la partie est terminée", "the game is over"]


def test_bot_seats_are_named_in_the_language_of_who_seats_them(client: TestClient) -> None:
    """A table made from a French browser names its bots in French, as the host sees them
    everywhere (the name is the seat's, stored, as a person's is); one made in English, in
    English; a bot the host seats later, in the host's language of that request."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}]
    body = {"name": "Hôte", "seats": [*seats, {"kind": "bot", "bot": "expert"}]}
    made = client.post("/api/tables", json=body, headers=FR).json()
    url = f"/api/tables/{made['table_id']}"
    names = [s["name"] for s in client.get(url).json()["seats"]]
    assert names == ["Hôte", "Robot aléatoire 2", None, "Robot expert 4"]
    token = {"authorization": f"Bearer {made['token']}"}
    seated = client.put(f"{url}/seats/2", json={"kind": "bot", "bot": "basic"}, headers=token)
    assert seated.status_code == 200, seated.text
    assert client.get(url).json()["seats"][2]["name"] == "Basic bot 3"
    english = client.post("/api/tables", json=body).json()["table_id"]
    names = [s["name"] for s in client.get(f"/api/tables/{english}").json()["seats"]]
    assert names == ["Hôte", "Random bot 2", None, "Expert bot 4"]


def test_an_unnamed_speaker_is_named_in_the_sender_s_language(client: TestClient) -> None:
    """A spectator's chat line is signed "Spectateur" when the spectator's browser is French
    (it was "Spectator" whatever the language)."""
    body = {"name": "Hôte", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}
    made = client.post("/api/tables", json=body).json()
    url = f"/ws/tables/{made['table_id']}"

    def next_of(ws: Any, kind: str) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(ws.receive_text())
            if message["type"] == kind:
                return message

    with (
        client.websocket_connect(f"{url}?token={made['token']}") as host,
        client.websocket_connect(url, headers=FR) as spectator,
    ):
        host.send_text(json.dumps({"type": "chat_settings", "spectators": True}))
        next_of(spectator, "chat_settings")
        spectator.send_text(json.dumps({"type": "chat", "text": "salut"}))
        line = next_of(host, "chat")
    assert (line["seat"], line["name"], line["text"]) == (-1, "Spectateur", "salut")
