"""An engine game's scores printed as a table: one row per hand, running totals, and the checksum
that proves them (the CLI and the terminal app print it; the score sheet for real cards is
:class:`~salad.sheet.score_sheet.ScoreSheet`)."""

from __future__ import annotations

from collections.abc import Sequence

from salad.engine import Game
from salad.events import HandScored


def sheet_header(names: Sequence[str]) -> str:
    cols = "".join(f"{n[:9]:>10}" for n in names)
    return f"{'Hand':<5}{'Round':<26}{cols}{'Sum':>8}"


def sheet_row(number: int | str, round_name: str, points: Sequence[int], check: int | None) -> str:
    cols = "".join(f"{p:>10}" for p in points)
    total = sum(points)
    mark = "" if check is None else (" ok" if total == check else f" != {check}")
    return f"{number!s:<5}{round_name[:25]:<26}{cols}{total:>8}{mark}"


def hand_rows(game: Game, index: int) -> list[str]:
    """The row of hand ``index`` and the running totals after it."""
    compiled = game.rules.hands[index]
    points = game.hand_points[index]
    moon = _moon_of(game, index)
    check = None if moon >= 0 else compiled.fixed_total
    running = [sum(p[s] for p in game.hand_points[: index + 1]) for s in range(game.players)]
    rows = [sheet_row(index + 1, compiled.round.name, points, check)]
    if moon >= 0:
        rows.append(f"{'':<5}  (seat {moon} shot the moon)")
    rows.append(sheet_row("", "  running total", running, None))
    return rows


def _moon_of(game: Game, index: int) -> int:
    for e in game.events:
        if isinstance(e, HandScored) and e.hand == index:
            return e.moon
    return -1


def full_sheet(game: Game, names: Sequence[str]) -> str:
    lines = [sheet_header(names)]
    for i in range(len(game.hand_points)):
        lines.extend(hand_rows(game, i)[:1])
    moons = any(_moon_of(game, i) >= 0 for i in range(len(game.hand_points)))
    check = None if moons or not game.is_over() else game.rules.checksum
    lines.append(sheet_row("", "Total", game.totals, check))
    lines.append(result_line(game, names))
    return "\n".join(lines)


def result_line(game: Game, names: Sequence[str]) -> str:
    if not game.is_over():
        return "Game in progress."
    winners = [names[s] for s in game.winners()]
    how = "highest" if game.ruleset.highest_wins else "lowest"
    if len(winners) == 1:
        return f"Winner: {winners[0]} ({how} total, {game.totals[game.winners()[0]]})."
    return f"Winners, sharing first place: {', '.join(winners)} ({how} total)."
