"""``GET /api/howto`` and ``GET /api/tables/{id}/howto`` (issue 14, item 6): the words of the
ruleset in play, a table's own toppings included; bad input in one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from salad.server.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "t.db"))) as c:
        yield c


def test_howto_of_a_preset(client: TestClient) -> None:
    r = client.get("/api/howto", params={"preset": "canadian", "players": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["players"] == 3
    assert body["example"]["total"] == 165
    assert "each heart you take costs 10" in body["text"]


def test_howto_of_a_table_has_its_toppings(client: TestClient) -> None:
    created = client.post(
        "/api/tables",
        json={"name": "Ann", "rules": "skip-the-salad", "toppings": ["spicy-pepper"], "players": 5},
    ).json()
    body = client.get(f"/api/tables/{created['table_id']}/howto").json()
    assert body["players"] == 5
    assert [t["title"] for t in body["toppings"]] == ["Spicy Pepper"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"preset": "poker"}, "rules"),
        ({"players": 12}, "players"),
        ({"toppings": "nope"}, "toppings"),
    ],
)
def test_bad_input_in_one_line(client: TestClient, params: dict[str, object], field: str) -> None:
    r = client.get("/api/howto", params=params)
    assert r.status_code == 400
    error = r.json()["error"]
    assert "\n" not in error and error.startswith(f"{field}:"), error


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/howto", "/table/abc/howto"):
        r = client.get(path)
        assert r.status_code == 200 and "How to play" in r.text
