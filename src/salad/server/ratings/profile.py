"""What a player's profile shows (``GET /api/players/{name-or-id}``): their finished games
counted and listed, their results against each bot level, the penalties they took by hand
type, their ratings and history. Only finished games have results: nothing of a game under
way is ever in a profile."""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from salad.errors import SaladError
from salad.presets import PRESETS
from salad.server.ratings.model import FAMILY_TITLES, PROVISIONAL, interval
from salad.server.store.players import PlayerRow
from salad.server.store.ratings import HistoryRow, RatingRow, ResultRow

PAGE = 20
"""Finished games a profile lists a page."""


def round_name(preset: str, round_id: str) -> str:
    """The name of a round as its preset's data gives it (the id itself if it has none)."""
    found = PRESETS.get(preset)
    if found is None:
        return round_id
    try:
        return found.round(round_id).name
    except SaladError:
        return round_id


def rating_out(r: RatingRow) -> dict[str, Any]:
    return {
        "family": r.family,
        "title": FAMILY_TITLES.get(r.family, r.family),
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "ordinal": round(r.ordinal, 3),
        "games": r.games,
        "provisional": r.games < PROVISIONAL,
    }


def game_out(r: ResultRow) -> dict[str, Any]:
    return {
        "table_id": r.table_id,
        "game_number": r.game_number,
        "seat": r.seat,
        "preset": r.preset,
        "title": PRESETS[r.preset].title if r.preset in PRESETS else r.preset,
        "family": r.family,
        "players": r.players,
        "place": r.place,
        "points": r.points,
        "rated": r.rated,
        "left": r.left,
        "finished_at": r.finished_at,
        "replay": f"/replay/{r.table_id}?game={r.game_number}",
        "review": f"/replay/{r.table_id}?game={r.game_number}&review={r.seat}",
    }


def against_bots(results: list[ResultRow]) -> list[dict[str, Any]]:
    """Per bot level: the games with it at the table, mean points a game and a hand, and
    their 95% intervals once there are enough games."""
    games: dict[str, list[ResultRow]] = defaultdict(list)
    for r in results:
        for bot in r.bots:
            games[bot].append(r)
    out = []
    for bot, rows in sorted(games.items()):
        per_game = [float(r.points) for r in rows]
        per_hand = [float(p) for r in rows for _, p in r.hands]
        out.append(
            {
                "bot": bot,
                "games": len(rows),
                "wins": sum(1 for r in rows if r.place == 1),
                "mean_game": round(statistics.fmean(per_game), 2),
                "mean_game_interval": interval(per_game),
                "mean_hand": round(statistics.fmean(per_hand), 2) if per_hand else None,
                "mean_hand_interval": interval(per_hand),
            }
        )
    return out


def penalties(results: list[ResultRow]) -> list[dict[str, Any]]:
    """Per hand type (round id, its name from the preset's data): hands played, how often
    the player took points in it, and the mean points a hand."""
    seen: dict[str, list[int]] = defaultdict(list)
    names: dict[str, str] = {}
    for r in results:
        for round_id, points in r.hands:
            seen[round_id].append(points)
            names.setdefault(round_id, round_name(r.preset, round_id))
    return [
        {
            "round": round_id,
            "name": names[round_id],
            "hands": len(points),
            "taken": sum(1 for p in points if p != 0),
            "share": round(sum(1 for p in points if p != 0) / len(points), 3),
            "mean": round(statistics.fmean(points), 2),
        }
        for round_id, points in seen.items()
    ]


def counts(results: list[ResultRow]) -> list[dict[str, Any]]:
    """Games played by ruleset family and player count."""
    found: dict[tuple[str, int], int] = defaultdict(int)
    for r in results:
        found[(r.family, r.players)] += 1
    return [
        {"family": f, "title": FAMILY_TITLES.get(f, f), "players": n, "games": c}
        for (f, n), c in sorted(found.items())
    ]


def profile(
    player: PlayerRow,
    results: list[ResultRow],
    ratings: list[RatingRow],
    history: list[HistoryRow],
    page: int,
) -> dict[str, Any]:
    """A player's profile (``results``: theirs, the latest first)."""
    listed = results[(page - 1) * PAGE : page * PAGE]
    return {
        "id": player.id,
        "name": player.name,
        "colour": player.colour,
        "games": len(results),
        "by_ruleset": counts(results),
        "finished": {
            "page": page,
            "pages": max(1, -(-len(results) // PAGE)),
            "games": [game_out(r) for r in listed],
        },
        "against_bots": against_bots(results),
        "penalties": penalties(results),
        "ratings": [rating_out(r) for r in ratings],
        "history": [
            {
                "family": h.family,
                "table_id": h.table_id,
                "game_number": h.game_number,
                "mu": round(h.mu, 3),
                "sigma": round(h.sigma, 3),
                "ordinal": round(h.mu - 3 * h.sigma, 3),
                "at": h.at,
            }
            for h in history
        ],
        "provisional_games": PROVISIONAL,
    }
