"""What a player's profile shows (``GET /api/players/{name-or-id}``): their finished games
counted and listed, their results against each bot level, the penalties they took by hand
type, their ratings and history. Only finished games have results: nothing of a game under
way is ever in a profile."""

from __future__ import annotations

from typing import Any

from salad.errors import SaladError
from salad.locale import _
from salad.presets import PRESETS
from salad.server.ratings.model import FAMILY_TITLES, PROVISIONAL, interval
from salad.server.store.players import PlayerRow
from salad.server.store.ratings import MOON, ProfileRows, RatingRow, ResultRow, StatRow

PAGE = 20
"""Finished games a profile lists a page."""

HISTORY = 200
"""The latest ratings a profile's chart shows (the history keeps every one)."""

KINDS = 64
"""The hand types and the penalties a profile lists at most, the most played and the costliest
(rules files may bring new ones with every table: without a bound a profile would grow with
each; docs/protocol.md, "Limits")."""


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


def against_bots(stats: list[StatRow]) -> list[dict[str, Any]]:
    """Per bot level: the games with it at the table, mean points a game and a hand, and
    their 95% intervals once there are enough games."""
    hands = {s.key: s for s in stats if s.kind == "bot-hand"}
    out = []
    for s in sorted((s for s in stats if s.kind == "bot"), key=lambda s: s.key):
        h = hands.get(s.key)
        out.append(
            {
                "bot": s.key,
                "games": s.n,
                "wins": s.hits,
                "mean_game": round(s.total / s.n, 2),
                "mean_game_interval": interval(s.n, s.total, s.squares),
                "mean_hand": round(h.total / h.n, 2) if h and h.n else None,
                "mean_hand_interval": interval(h.n, h.total, h.squares) if h else None,
            }
        )
    return out


def penalties(stats: list[StatRow]) -> list[dict[str, Any]]:
    """Per hand type (round id, its name from the data of a preset that has it): hands
    played, how often the player took points in it, and the mean points a hand; the
    :data:`KINDS` most played."""
    found = [s for s in stats if s.kind == "round" and s.n]
    if len(found) > KINDS:  # the most played, in their order
        kept = {id(s) for s in sorted(found, key=lambda s: -s.n)[:KINDS]}
        found = [s for s in found if id(s) in kept]
    return [
        {
            "round": s.key,
            "name": _(round_name(s.note or "", s.key)),  # the ruleset's words: in the catalog
            "hands": s.n,
            "taken": s.hits,
            "share": round(s.hits / s.n, 3),
            "mean": round(s.total / s.n, 2),
        }
        for s in found
    ]


def penalty_kinds(stats: list[StatRow]) -> list[dict[str, Any]]:
    """Per penalty the rulesets' data define (its id and name), and the moon: the hands it
    was in play, those the player took it in (shot it, for the moon) and the points it cost
    them, the costliest first (:data:`KINDS` of them), the moon last."""
    found = [s for s in stats if s.kind == "penalty" and s.n]
    found.sort(key=lambda s: (s.key == MOON, -s.total, s.note or s.key))
    moon = [s for s in found if s.key == MOON]
    found = [s for s in found if s.key != MOON][:KINDS] + moon
    return [
        {
            "penalty": s.key,
            "name": _(s.note or s.key),  # a ruleset's words or the moon's: in the catalog
            "hands": s.n,
            "taken": s.hits,
            "share": round(s.hits / s.n, 3),
            "points": int(s.total),
        }
        for s in found
    ]


def counts(stats: list[StatRow]) -> list[dict[str, Any]]:
    """Games played by ruleset family and player count."""
    found = []
    for s in stats:
        if s.kind == "played":
            family, _sep, players = s.key.rpartition("/")
            found.append(
                {
                    "family": family,
                    "title": _(FAMILY_TITLES.get(family, family)),
                    "players": int(players),
                    "games": s.n,
                }
            )
    return sorted(found, key=lambda c: (c["family"], c["players"]))


def profile(player: PlayerRow, rows: ProfileRows, page: int) -> dict[str, Any]:
    """A player's profile: their sums, the page ``page`` of their finished games, their
    ratings and the latest of their history."""
    stats = rows.stats
    games = sum(s.n for s in stats if s.kind == "played")
    return {
        "id": player.id,
        "name": player.name,
        "colour": player.colour,
        "games": games,
        "by_ruleset": counts(stats),
        "finished": {
            "page": page,
            "pages": max(1, -(-games // PAGE)),
            "games": [game_out(r) for r in rows.listed],
        },
        "against_bots": against_bots(stats),
        "penalties": penalties(stats),
        "penalty_kinds": penalty_kinds(stats),
        "ratings": [rating_out(r) for r in rows.ratings],
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
            for h in rows.history
        ],
        "provisional_games": PROVISIONAL,
    }
