"""A group's standings for a season (#34): per member, the games counted, points per game,
wins and mean placement, and the chart over time, from the finished games of the group's
tables and the finished score sheets attached to it.

Nothing of an unfinished game is read: only a finished game's totals (stored when it ended)
and a finished sheet's. A game counts once, with every seat in it: a member's place is among
everyone at that game (bots and guests too); only members get a line of the standings, and
the former members (who left, or were removed) who played a game counted, marked ``former``:
their games stay in the standings, as a club's records do.
A game the host dealt by choice (a practice deal) is not counted.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from salad.errors import SaladError
from salad.locale import _
from salad.scoring import standings
from salad.server.store.groups import GroupGame, MemberRow, SheetRow
from salad.settings import from_ref

SEASON_TEXT = "A year (2026), 'all', or empty with from/to: the season's games (default: this year)"


@dataclass(frozen=True)
class Season:
    """A date range: games that ended from ``start`` (included) to ``end`` (excluded)."""

    label: str
    since: float
    until: float
    first: str
    """The first day, ISO (``2026-01-01``), as the page shows it."""
    last: str
    """The last day, included, ISO."""


ALL_FROM = date(2000, 1, 1)
ALL_TO = date(2999, 12, 31)


def day_start(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def season_of(season: str | None, start: str | None, end: str | None) -> Season:
    """The season a request names: ``season`` a year or ``all``; else ``start``/``end``
    (ISO dates, both included; either may be left out); else this year. A one-line
    :class:`SaladError` for anything else.

    >>> season_of("2026", None, None).first, season_of("2026", None, None).last
    ('2026-01-01', '2026-12-31')
    >>> season_of(None, "2026-03-01", "2026-03-31").label
    '2026-03-01 to 2026-03-31'
    """
    if season:
        if season == "all":
            first, last, label = ALL_FROM, ALL_TO, "all"
        elif season.isdecimal() and len(season) == 4:
            first, last, label = date(int(season), 1, 1), date(int(season), 12, 31), season
        else:
            raise SaladError(f"season: {season!r} is not a year (2026) or 'all'")
    elif start or end:
        first = parse_day(start, "from") if start else ALL_FROM
        last = parse_day(end, "to") if end else ALL_TO
        if last < first:
            raise SaladError(f"to: {last} is before from ({first})")
        label = f"{start or '…'} to {end or '…'}"
    else:
        year = datetime.now(UTC).year
        first, last, label = date(year, 1, 1), date(year, 12, 31), str(year)
    return Season(
        label, day_start(first), day_start(last + timedelta(days=1)), str(first), str(last)
    )


def parse_day(text: str, where: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise SaladError(f"{where}: {text!r} is not a date (YYYY-MM-DD)") from None


@dataclass
class Counted:
    """One game counted: online or a sheet, who sat where, their totals and places."""

    kind: str
    id: str
    url: str | None
    when: float
    rules: str
    names: list[str]
    players: list[str | None]
    totals: list[int]
    places: list[int]


def online(game: GroupGame) -> Counted | None:
    """A finished game of the group's table (None: a practice deal, or no totals)."""
    row = game.game
    if row.totals is None or any(p.get("practice") for p in row.players):
        return None
    rs = from_ref({"preset": game.preset, "settings": game.settings})
    return Counted(
        kind="online",
        id=f"{game.table_id}/{row.game_number}",
        url=f"/replay/{game.table_id}?game={row.game_number}",
        when=row.finished_at or 0.0,
        rules=rs.title,
        names=[str(p.get("name", "")) for p in row.players],
        players=[None if "bot" in p else p.get("player") for p in row.players],
        totals=list(row.totals),
        places=standings(row.totals, rs.highest_wins),
    )


def on_paper(sheet: SheetRow) -> Counted:
    """A finished score sheet attached to the group (checked when attached)."""
    rs = from_ref(sheet.sheet["ruleset"])
    totals = [int(t) for t in sheet.sheet["totals"]]
    return Counted(
        kind="sheet",
        id=sheet.id,
        url=None,
        when=sheet.played_at,
        rules=rs.title,
        names=[str(n) for n in sheet.sheet["players"]],
        players=list(sheet.members),
        totals=totals,
        places=standings(totals, rs.highest_wins),
    )


def seated(games: list[GroupGame], sheets: list[SheetRow]) -> set[str]:
    """The players (ids) at these games and sheets: members when they played, some of them
    former members now."""
    found = {p.get("player") for g in games for p in g.game.players if "bot" not in p}
    found |= {p for s in sheets for p in s.members}
    return {p for p in found if isinstance(p, str)}


def standings_of(
    members: list[MemberRow],
    games: list[GroupGame],
    sheets: list[SheetRow],
    former: list[MemberRow] | None = None,
) -> dict[str, Any]:
    """The standings: ``players`` (one line per member, and per ``former`` member who played
    a game counted, best mean place first), ``games`` (every game counted, oldest first) and
    ``chart`` (each one's points per game after every game counted, None before their
    first)."""
    counted = [c for c in map(online, games) if c is not None] + [on_paper(s) for s in sheets]
    counted.sort(key=lambda c: (c.when, c.id))
    everyone = [(m, False) for m in members] + [(m, True) for m in former or []]
    lines: dict[str, dict[str, Any]] = {
        m.player_id: {
            "player": m.player_id,
            "name": m.name or _("(no name)"),
            "former": gone,
            "games": 0,
            "online": 0,
            "sheets": 0,
            "points": 0,
            "wins": 0,
            "places": 0,
        }
        for m, gone in everyone
    }
    series: dict[str, list[float | None]] = {m.player_id: [] for m, _ in everyone}
    for c in counted:
        for seat, player in enumerate(c.players):
            line = lines.get(player) if player is not None else None
            if line is None:
                continue
            line["games"] += 1
            line["online" if c.kind == "online" else "sheets"] += 1
            line["points"] += c.totals[seat]
            line["wins"] += c.places[seat] == 1
            line["places"] += c.places[seat]
        for player, points in series.items():
            line = lines[player]
            points.append(round(line["points"] / line["games"], 1) if line["games"] else None)
    players = []
    for line in lines.values():
        n = line["games"]
        if line["former"] and not n:
            continue  # a former member with no game this season: no line
        places = line.pop("places")
        line["points_per_game"] = round(line["points"] / n, 1) if n else None
        line["mean_place"] = round(places / n, 2) if n else None
        players.append(line)
    players.sort(key=lambda p: (p["games"] == 0, p["mean_place"] or 0, p["points_per_game"] or 0))
    return {
        "players": players,
        "games": [
            {
                "kind": c.kind,
                "id": c.id,
                "url": c.url,
                "when": c.when,
                "day": datetime.fromtimestamp(c.when, UTC).date().isoformat(),
                "rules": c.rules,
                "seats": [
                    {"name": n, "player": p, "total": t, "place": pl}
                    for n, p, t, pl in zip(c.names, c.players, c.totals, c.places, strict=True)
                ],
            }
            for c in counted
        ],
        "chart": {
            "labels": [datetime.fromtimestamp(c.when, UTC).date().isoformat() for c in counted],
            "series": [
                {"player": p, "name": lines[p]["name"], "points_per_game": points}
                for p, points in series.items()
                if lines[p]["games"]
            ],
        },
    }


CSV_COLUMNS = (
    "place",
    "name",
    "games",
    "online",
    "sheets",
    "points_per_game",
    "wins",
    "mean_place",
)

FORMER = " (former member)"
"""After a former member's name in the CSV, as the page shows it."""


def standings_csv(table: dict[str, Any]) -> str:
    """The standings' lines as CSV: the same figures, in the same order, as the page's table
    (a former member's name followed by :data:`FORMER`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for i, line in enumerate(table["players"], start=1):
        cells = [format_cell(line[c]) for c in CSV_COLUMNS[1:]]
        cells[0] += FORMER if line["former"] else ""
        writer.writerow([i if line["games"] else "", *cells])
    return out.getvalue()


def format_cell(value: Any) -> str:
    """A cell as text, a number as the page writes it (``215``, ``347.5``); a name a
    spreadsheet would take for a formula is quoted with ``'``."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") and isinstance(value, str) else text
