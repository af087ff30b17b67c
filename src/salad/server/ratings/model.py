"""What a finished game leaves: each seat's result (:func:`game_results`) and, for a rated
game, its players' new ratings (:func:`rate`: OpenSkill's Plackett-Luce model, per ruleset
family). docs/ratings.md says the same in words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from salad.locale import N_
from salad.presets import SKIP_THE_SALAD
from salad.ruleset import CompiledRules, Ruleset
from salad.scoring import hand_breakdowns, standings
from salad.server.store.ratings import MOON, PenaltyTaken, RatingRow, ResultRow
from salad.server.tables.table import BOT, Table

CLASSIC = "classic"
FAMILIES = (CLASSIC, SKIP_THE_SALAD.preset)
"""The ruleset families rated apart: Skip the Salad's (its preset's rulesets), and the rest."""

FAMILY_TITLES = {CLASSIC: "Canadian Salad", SKIP_THE_SALAD.preset: SKIP_THE_SALAD.title}

MU, SIGMA = 25.0, 25.0 / 3
"""A new player's rating (OpenSkill's defaults)."""

BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (4.0, 1.0),
    "basic": (24.0, 1.0),
    "advanced": (27.0, 1.0),
    "openspiel-ismcts": (27.0, 1.0),
    "expert": (30.0, 1.0),
}
"""Each bot level's fixed, published rating (mu, sigma): never moved by a game. Chosen from
the bots' order in the lab's tournaments (docs/ratings.md); a bot not listed: (25, 1)."""

BOT_DEFAULT = (MU, 1.0)

PROVISIONAL = 10
"""Rated games of a family before a rating is no longer provisional."""

MOON_NAME = N_("Shooting the moon")
"""The moon's name among the penalties a profile counts."""

MIN_GAMES = 3
"""Rated games a player needs on a leaderboard (all-time; this week: that many this week)."""


def family_of(rs: Ruleset) -> str:
    """A ruleset's family, from its preset.

    >>> from salad.presets import PRESETS
    >>> family_of(PRESETS["skip-the-salad"]), family_of(PRESETS["canadian"])
    ('skip-the-salad', 'classic')
    """
    return rs.preset if rs.preset in FAMILIES else CLASSIC


def places(totals: list[int], left: list[bool], highest_wins: bool) -> list[int]:
    """Each seat's place: the seats that stayed ranked by total (ties share a place), and
    every seat that left for good after them, sharing the last place (BGA's rule).

    >>> places([10, 50, 30, 0], [False, False, False, True], False)
    [1, 3, 2, 4]
    """
    stayed = [i for i, gone in enumerate(left) if not gone]
    ranked = standings([totals[i] for i in stayed], highest_wins)
    found = [len(stayed) + 1] * len(totals)
    for i, place in zip(stayed, ranked, strict=True):
        found[i] = place
    return found


def seat_penalties(
    rules: CompiledRules, log: Sequence[tuple[object, ...]]
) -> list[list[PenaltyTaken]]:
    """Each seat's penalties over a game's event log, by kind as the ruleset's data defines
    them (each penalty's id and name), in the order the hands first have them, then the moon
    where a hand allows one: the hands each was in play, those the seat took it in (points
    from it, before any moon; the moon: the seat shot it) and its points.

    >>> from salad.engine import Game
    >>> from salad.presets import PRESETS
    >>> g = Game(PRESETS["canadian"], 4, seed=1)  # no moon: the penalties sum to the total
    >>> while not g.is_over():
    ...     g.play(g.legal_moves()[0])
    >>> mine = seat_penalties(g.rules, g.log)[0]
    >>> sum(p.points for p in mine) == g.totals[0], mine[-1].name, mine[-1].hands
    (True, 'Last Trick', 2)
    """
    n = rules.players
    found: list[dict[str, PenaltyTaken]] = [{} for _ in range(n)]
    names = {p.id: p.name for p in rules.ruleset.catalogue}
    breakdowns = hand_breakdowns(rules, log)
    for b in breakdowns:
        for pid, row in zip(b.penalties, b.by_penalty, strict=True):
            for seat in range(n):
                p = found[seat].setdefault(pid, PenaltyTaken(pid, names[pid], 0, 0, 0))
                p.hands += 1
                p.taken += int(row[seat] != 0)
                p.points += row[seat]
    for b in breakdowns:
        if rules.hands[b.hand].moon:
            for seat in range(n):
                p = found[seat].setdefault(MOON, PenaltyTaken(MOON, MOON_NAME, 0, 0, 0))
                p.hands += 1
                if b.moon == seat:
                    p.taken += 1
                    p.points += b.moon_points[seat]
    return [list(f.values()) for f in found]


def game_results(table: Table, table_rated: bool) -> list[ResultRow]:
    """Each seat's result of the table's finished game. A seat that was a human's at the
    game's start and is a bot's at its end (given to a bot, or played by a bot that took over
    and was never reclaimed) left for good. The game is rated with two humans who have a
    player id, or one at a table made rated (against the bots' fixed ratings)."""
    game, rs = table.game, table.ruleset
    assert game is not None and game.is_over()
    start: list[dict[str, Any]] = table.game_players or [{} for _ in table.seats]
    was_bot = [bool(p.get("bot")) for p in start]
    left = [not was_bot[i] and (s.kind == BOT or s.takeover) for i, s in enumerate(table.seats)]
    ids = [None if was_bot[i] else p.get("player") for i, p in enumerate(start)]
    humans = sum(1 for i in ids if i is not None)
    rated = humans >= 2 or (table_rated and humans >= 1)
    bots = sorted({str(p["bot"]) for p in start if p.get("bot")})
    taken = seat_penalties(game.rules, game.log)
    ranked = places(list(game.totals), left, rs.highest_wins)
    return [
        ResultRow(
            table_id=table.id,
            game_number=table.game_number,
            seat=i,
            player_id=ids[i],
            bot=str(p["bot"]) if was_bot[i] else None,
            name=p.get("name"),
            preset=rs.preset,
            family=family_of(rs),
            players=table.players,
            place=ranked[i],
            points=game.totals[i],
            hands=[(rs.hands[h], pts[i]) for h, pts in enumerate(game.hand_points)],
            bots=bots,
            rated=rated,
            left=left[i],
            penalties=taken[i],
        )
        for i, p in enumerate(start)
    ]


def rate(results: list[ResultRow], before: dict[str, RatingRow]) -> dict[str, tuple[float, float]]:
    """The players' new ratings after a rated game: every seat an entrant ranked by its
    place; a bot at its fixed rating, a human without a player id at a new player's; only the
    players' ratings move (a player in two seats: the first's)."""
    from openskill.models import PlackettLuce  # the web extra's: loaded on the first rating

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    teams = []
    for r in results:
        old = before.get(r.player_id) if r.player_id is not None else None
        if r.bot is not None:
            mu, sigma = BOT_RATINGS.get(r.bot, BOT_DEFAULT)
        elif old is not None:
            mu, sigma = old.mu, old.sigma
        else:
            mu, sigma = MU, SIGMA
        teams.append([model.rating(mu=mu, sigma=sigma)])
    rated = model.rate(teams, ranks=[float(r.place) for r in results])
    new: dict[str, tuple[float, float]] = {}
    for r, team in zip(results, rated, strict=True):
        if r.player_id is not None and r.player_id not in new:
            new[r.player_id] = (float(team[0].mu), float(team[0].sigma))
    return new


def interval(n: int, total: float, squares: float) -> tuple[float, float] | None:
    """A 95% interval of the mean of ``n`` values whose sum is ``total`` and sum of squares
    ``squares`` (normal approximation), once there are enough of them (5).

    >>> interval(3, 6, 14) is None, interval(5, 50, 500), interval(5, 15, 55)
    (True, (10.0, 10.0), (1.61, 4.39))
    """
    if n < 5:
        return None
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = 1.96 * (variance / n) ** 0.5
    return (round(mean - half, 2), round(mean + half, 2))
