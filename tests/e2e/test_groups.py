"""End-to-end: a group (#34) made on the home page, joined from its invite link in one click in
another browser, a game played online for it and a score sheet attached from the sheet page;
the group's page shows both in its standings, its chart and its games, and its CSV holds the
figures of its table. One browser, two contexts (Ann, Bob), the session server."""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from salad.server.players.standings import CSV_COLUMNS

SUNDAY = Path(__file__).resolve().parents[2] / "examples" / "sheets" / "sunday.json"


def test_a_group_counts_an_online_game_and_a_sheet_and_its_csv_is_its_table(
    open_page: Callable[..., Any], base_url: str, axe: Callable[..., list[str]]
) -> None:
    ann = open_page("/")
    expect(ann.locator("#my-groups")).to_be_visible()  # the player is made (its cookie set)
    assert ann.request.patch(f"{base_url}/api/me", data={"name": "Ann E2E"}).ok
    ann.fill("#group-name", "Les Dimanches")
    ann.get_by_role("button", name="Make a group").click()
    ann.wait_for_url("**/g/**")
    gid = ann.url.rsplit("/", 1)[-1]
    invite = ann.locator("#invite-url")
    link = rf"{re.escape(base_url)}/g/{gid}/join\?code=[A-Za-z0-9_-]{{22}}"
    expect(invite).to_have_value(re.compile(link))  # filled once the group has loaded

    bob = open_page(invite.input_value().removeprefix(base_url))  # another browser
    expect(bob.locator("#gj-title")).to_have_text("Join Les Dimanches")
    bob.fill("#gj-name", "Bob E2E")
    bob.get_by_role("button", name="Join the group").click()
    bob.wait_for_url(f"**/g/{gid}")
    bob_id = _me(bob, base_url)
    expect(bob.locator("#members li")).to_have_count(2)
    assert axe(bob) == [], "the group page"

    # A game for the group (of one hand: the session's bots take a card every 0.05 s): the
    # bots play the away host's seat to the end.
    seats = [{"kind": "human"}] + [{"kind": "bot"}] * 3
    one_hand = 'preset = "canadian"\nhands = ["no-tricks"]\n'
    body = {"name": "Ann", "seats": seats, "group": gid, "bot_takeover": 0, "rules_toml": one_hand}
    made = ann.request.post(f"{base_url}/api/tables", data=body).json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    ann.request.post(f"{base_url}/api/tables/{made['table_id']}/start", headers=auth)
    # A sheet of a real-card game, attached from the sheet page, Bob picked for "B".
    sheet = json.loads(SUNDAY.read_text())
    sheet["players"] = ["Ann E2E", "B", "Cy", "Di"]
    ann.evaluate("s => localStorage.setItem('salad.scoresheet', JSON.stringify(s))", sheet)
    ann.goto(f"{base_url}/sheet")
    expect(ann.locator("#attach-seat-0")).to_have_value(_me(ann, base_url))  # by name
    ann.select_option("#attach-seat-1", label="Bob E2E")
    ann.get_by_role("button", name="Attach to the group").click()
    expect(ann.locator("#attach-done")).to_contain_text("it counts")
    deadline = time.monotonic() + 60
    table = f"{base_url}/api/tables/{made['table_id']}"
    while ann.request.get(table).json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)

    ann.goto(f"{base_url}/g/{gid}")
    rows = ann.locator("#standings-table tbody tr")
    expect(rows).to_have_count(2)
    expect(ann.locator("#g-games li[data-kind=online]")).to_have_count(1)
    expect(ann.locator("#g-games li[data-kind=sheet]")).to_have_count(1)
    expect(ann.locator("#g-chart svg path")).to_have_count(2)
    page_rows = [r.locator("td").all_inner_texts() for r in rows.all()]
    by_name = {r[1]: r for r in page_rows}
    assert by_name["Ann E2E"][2:5] == ["2", "1", "1"]  # games, online, sheets
    assert by_name["Bob E2E"][2:5] == ["1", "0", "1"]
    csv_url = ann.locator("#csv-link").get_attribute("href")
    text = ann.request.get(f"{base_url}{csv_url}").text()
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0] == list(CSV_COLUMNS)
    assert [[c or "–" for c in line] for line in lines[1:]] == page_rows

    # A group's table with an open seat: its join page says whose it is before anyone tries,
    # to a stranger (who cannot take the seat; the group's page is a link away) and to a member.
    open_seat = {**body, "seats": [{"kind": "human"}, {"kind": "open"}, *seats[2:]]}
    lobby = ann.request.post(f"{base_url}/api/tables", data=open_seat).json()["table_id"]
    eve = open_page(f"/join/{lobby}")
    expect(eve.locator("#join-info")).to_contain_text("for the members of Les Dimanches only")
    expect(eve.locator("#join-group")).to_have_attribute("href", f"/g/{gid}")
    expect(eve.locator("#btn-join")).to_be_disabled()
    bob.goto(f"{base_url}/join/{lobby}")
    expect(bob.locator("#join-info")).to_contain_text("(members of Les Dimanches only)")
    expect(bob.locator("#btn-join")).to_be_enabled()
    # Bob removed: his line and his games stay, marked a former member, on the page and in
    # the CSV alike.
    assert ann.request.delete(f"{base_url}/api/groups/{gid}/members/{bob_id}").ok
    ann.reload()
    expect(ann.locator("#standings-table tbody tr")).to_have_count(2)
    expect(ann.locator("#standings-table .g-former")).to_have_text("(former member)")
    page_rows = [r.locator("td").all_inner_texts() for r in rows.all()]
    text = ann.request.get(f"{base_url}{csv_url}").text()
    lines = list(csv.reader(io.StringIO(text)))
    assert [[c or "–" for c in line] for line in lines[1:]] == page_rows
    assert "Bob E2E (former member)" in [r[1] for r in page_rows]


def _me(page: Any, base_url: str) -> str:
    return str(page.request.get(f"{base_url}/api/me").json()["id"])
