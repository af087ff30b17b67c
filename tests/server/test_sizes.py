"""Sizes bounded end to end (issue #40): the largest table the limits allow, built through a
real server and played to its end, sends no lobby, state or how to play larger than
:mod:`salad.server.sizes` states, and a spectator that reads nothing meanwhile (a slow
reader) is not dropped for it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from salad.errors import RulesError
from salad.formats.rules import parse_rules
from salad.server.ratings.profile import HISTORY, KINDS, PAGE, profile
from salad.server.schemas import NAME_LIMIT as PLAYER_NAME_LIMIT
from salad.server.sizes import HOWTO_BYTES, LOBBY_BYTES, PROFILE_BYTES, STATE_BYTES
from salad.server.store.players import PlayerRow
from salad.server.store.ratings import (
    MOON,
    HistoryRow,
    ProfileRows,
    RatingRow,
    ResultRow,
    StatRow,
)
from salad.server.tables.connection import OUTBOX_BYTES
from salad.settings_schema import (
    HANDS_LIMIT,
    ID_LIMIT,
    JOKERS_LIMIT,
    NAME_LIMIT,
    PENALTIES_LIMIT,
    PLAYERS_LIMIT,
    POINTS_LIMIT,
    ROUND_PENALTIES_LIMIT,
    ROUNDS_LIMIT,
)

from .conftest import Server

BOTS = ("random", "basic", "advanced", "expert")

PRESET = "skip-the-salad"
"""The preset with the longest words for its cards (five suits, wild cards, Corn's 72 cards)."""


def largest_rules(fewer: int = 0) -> str:
    """A rules file at every limit: a title, as many penalties and rounds as allowed (with those
    the preset and its jokers bring), each named at the name limit, each penalty naming
    every suit, rank and card (the longest words a penalty can have), each round with as many
    penalties as allowed (each round its own turn of them, so that every penalty is in play),
    as many hands as allowed, the most players; ``fewer``: that many penalties less."""
    head = [
        f'preset = "{PRESET}"',
        f'title = "{"T" * NAME_LIMIT}"',
        f"max_players = {PLAYERS_LIMIT[1]}",
        f"jokers = {JOKERS_LIMIT}",
    ]  # no toppings: their penalties would take the place of two longer ones
    plain = parse_rules("\n".join(head) + "\n")
    deck = plain.deck_for(PLAYERS_LIMIT[1])
    codes = sorted({deck.codes[c] for c in range(deck.size)})
    suits, ranks = [s.letter for s in plain.deck.suits], [r.letter for r in plain.deck.ranks]
    penalties = [f"p{i:02d}" for i in range(PENALTIES_LIMIT - len(plain.catalogue) - fewer)]
    rounds = [f"r{i:02d}" for i in range(ROUNDS_LIMIT - len(plain.rounds))]
    lines = [*head, f"hands = {toml_list((rounds * 2)[:HANDS_LIMIT])}"]
    for i, p in enumerate(penalties):
        lines += ["[[penalties]]", f'id = "{p}"', f'name = "{"N" * (NAME_LIMIT - 2)}{i:02d}"']
        lines += [f"points = {POINTS_LIMIT}", "wild = true", f"suits = {toml_list(suits)}"]
        lines += [f"ranks = {toml_list(ranks)}", f"cards = {toml_list(codes)}"]
    for i, r in enumerate(rounds):
        turn = [penalties[(i + k) % len(penalties)] for k in range(ROUND_PENALTIES_LIMIT)]
        lines += ["[[rounds]]", f'id = "{r}"', f'name = "{"R" * (NAME_LIMIT - 2)}{i:02d}"']
        lines += [f"penalties = {toml_list(turn)}"]
    return "\n".join(lines) + "\n"


def toml_list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{x}"' for x in items) + "]"


def test_the_largest_rules_file_is_at_every_limit() -> None:
    """One penalty more is refused (the jokers bring a penalty of their own)."""
    rs = parse_rules(largest_rules())
    assert len(rs.catalogue) == PENALTIES_LIMIT and len(rs.hands) == HANDS_LIMIT
    with pytest.raises(RulesError, match="more than the limit"):
        parse_rules(largest_rules(fewer=-1))


def test_the_largest_table_sends_nothing_past_the_stated_sizes(
    start_server: Callable[..., Server],
) -> None:
    srv = start_server()
    bots = [{"kind": "bot", "bot": "random"}] * (PLAYERS_LIMIT[1] - 1)
    body = {
        "name": "H" * PLAYER_NAME_LIMIT,
        "rules_toml": largest_rules(),
        "seats": [{"kind": "human"}, *bots],
        "bot_takeover": 0,  # the host never comes: a bot plays for them
    }
    made = srv.ok("POST", "/api/tables", body)
    table_id, host = made["table_id"], made["token"]
    lobby = srv.http.get(f"/api/tables/{table_id}")
    assert LOBBY_BYTES // 2 < len(lobby.content) <= LOBBY_BYTES, len(lobby.content)
    plain = srv.http.get(f"/api/tables/{table_id}/howto", headers={"accept-encoding": "identity"})
    assert HOWTO_BYTES // 2 < len(plain.content) <= HOWTO_BYTES, len(plain.content)
    packed = srv.http.get(f"/api/tables/{table_id}/howto", headers={"accept-encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert len(packed.content) == len(plain.content)  # httpx unpacks it: the same answer
    assert packed.json() == plain.json()
    assert OUTBOX_BYTES >= 8 * (LOBBY_BYTES + STATE_BYTES)

    async def run() -> tuple[list[str], dict[str, Any]]:
        url = f"{srv.ws_base}/ws/tables/{table_id}"
        async with (
            websockets.connect(url, max_size=2**24) as reader,
            websockets.connect(url, max_size=2**24, max_queue=None) as idle,
        ):
            seen = [await asyncio.wait_for(reader.recv(), 10)]
            # Lobby changes, each a whole lobby to every connection; the idle one reads none.
            for kind in ("open", "bot") * 3:
                seat = {"kind": kind, **({"bot": "random"} if kind == "bot" else {})}
                srv.ok("PUT", f"/api/tables/{table_id}/seats/{len(bots)}", seat, token=host)
                seen.append(await asyncio.wait_for(reader.recv(), 10))
            srv.ok("POST", f"/api/tables/{table_id}/start", token=host)
            while True:
                text = await asyncio.wait_for(reader.recv(), 30)
                assert isinstance(text, str)
                seen.append(text)
                message = json.loads(text)
                if message["type"] == "state" and (message["view"] or {}).get("phase") == "over":
                    break
            # The spectator that read nothing: still open, its last state the game's end.
            last: dict[str, Any] = {}
            while (last.get("view") or {}).get("phase") != "over":
                last = json.loads(await asyncio.wait_for(idle.recv(), 10))
                assert last["type"] != "error", last
            return seen, last

    seen, last = asyncio.run(run())
    assert last["type"] == "state"
    states = [json.loads(text) for text in seen]
    assert len(states) > PLAYERS_LIMIT[1] * HANDS_LIMIT  # the whole game: every card
    for text, message in zip(seen, states, strict=True):
        table = message.get("table")
        part = len(json.dumps(table, ensure_ascii=False, separators=(",", ":"))) if table else 0
        assert part <= LOBBY_BYTES, part
        assert len(text.encode()) - part <= STATE_BYTES, len(text)
    ends = [m for m in states if (m.get("view") or {}).get("hand_points")]
    assert len(ends[-1]["view"]["hand_points"]) == HANDS_LIMIT


def test_a_profile_lists_a_bounded_number_of_hand_types_and_penalties() -> None:
    """Rules files bring new hand types and penalties with every table: a player who played
    a thousand of them has a profile of the most played and costliest, within its size."""
    many = 1000
    stats = [StatRow("played", f"canadian/{n}", None, 50) for n in range(2, 17)]
    stats += [StatRow("bot", bot, None, 100, 50, 4000.0, 1e6) for bot in BOTS]
    stats += [StatRow("bot-hand", bot, None, 600, 0, 4000.0, 1e6) for bot in BOTS]
    stats += [
        StatRow("round", f"r{i:04d}" + "x" * (ID_LIMIT - 5), "canadian", 1 + i % 7, 1, 9.0)
        for i in range(many)
    ]
    stats += [
        StatRow("penalty", f"p{i:04d}" + "x" * (ID_LIMIT - 5), "N" * NAME_LIMIT, 3, 1, i)
        for i in range(many)
    ]
    stats.append(StatRow("penalty", MOON, "the moon", 5, 1, -50.0))
    listed = [
        ResultRow(
            "T" * 8, 1, 0, "me", None, "P" * PLAYER_NAME_LIMIT, "canadian", "canadian", 16, 1,
            -10, [(f"r{h}", 10) for h in range(HANDS_LIMIT)], ["expert"] * 15, True, False,
        )
        for _ in range(PAGE)
    ]  # fmt: skip
    ratings = [RatingRow("me", f, 25.0, 8.3, 99) for f in ("canadian", "skip-the-salad")]
    history = [HistoryRow("canadian", "T" * 8, 1, 25.0, 8.3, 1.7e9) for _ in range(HISTORY)]
    player = PlayerRow("me", "P" * PLAYER_NAME_LIMIT, "#123456", "en")
    shown = profile(player, ProfileRows(stats, listed, ratings, history), 1)
    assert len(shown["penalties"]) == KINDS
    assert (
        len(shown["penalty_kinds"]) == KINDS + 1 and shown["penalty_kinds"][-1]["penalty"] == MOON
    )
    assert shown["penalty_kinds"][0]["points"] == many - 1  # the costliest first
    assert {p["hands"] for p in shown["penalties"]} == {7}  # the most played
    size = len(json.dumps(shown, ensure_ascii=False, separators=(",", ":")).encode())
    assert size <= PROFILE_BYTES, size
