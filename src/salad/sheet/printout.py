"""An engine game's scores printed as a table: one row per hand, running totals, and the checksum
that proves them (the CLI and the terminal app print it; the score sheet for real cards is
:class:`~salad.sheet.score_sheet.ScoreSheet`)."""

from __future__ import annotations

from collections.abc import Sequence

from salad.engine import Game
from salad.events import HandScored
from salad.locale import _, pgettext


def sheet_header(names: Sequence[str]) -> str:
    """The head of the table, in the current language."""
    cols = "".join(f"{n[:9]:>10}" for n in names)
    # TRANSLATORS: the heads of the columns of a game's scores: the hand's number, its round's
    # name (No Hearts), each player's points and their sum
    hand, name = pgettext("column", "Hand"), pgettext("column", "Round")
    return f"{hand:<{_number_width()}}{name:<26}{cols}{pgettext('column', 'Sum'):>8}"


def _number_width() -> int:
    return max(5, len(pgettext("column", "Hand")) + 1)


def sheet_row(number: int | str, round_name: str, points: Sequence[int], check: int | None) -> str:
    """A row: ``round_name`` as given (translated by the caller)."""
    cols = "".join(f"{p:>10}" for p in points)
    total = sum(points)
    mark = "" if check is None else (" ok" if total == check else f" != {check}")
    return f"{number!s:<{_number_width()}}{round_name[:25]:<26}{cols}{total:>8}{mark}"


def hand_rows(game: Game, index: int) -> list[str]:
    """The row of hand ``index`` and the running totals after it."""
    compiled = game.rules.hands[index]
    points = game.hand_points[index]
    moon = _moon_of(game, index)
    check = None if moon >= 0 else compiled.fixed_total
    running = [sum(p[s] for p in game.hand_points[: index + 1]) for s in range(game.players)]
    rows = [sheet_row(index + 1, _(compiled.round.name), points, check)]
    if moon >= 0:
        shot = _("(seat {seat} shot the moon)").format(seat=moon)
        rows.append(f"{'':<{_number_width()}}  {shot}")
    rows.append(sheet_row("", "  " + _("running total"), running, None))
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
    lines.append(sheet_row("", _("Total"), game.totals, check))
    lines.append(result_line(game, names))
    return "\n".join(lines)


def result_line(game: Game, names: Sequence[str]) -> str:
    if not game.is_over():
        return _("Game in progress.")
    winners = [names[s] for s in game.winners()]
    if len(winners) == 1:
        if game.ruleset.highest_wins:
            line = _("Winner: {name} (highest total, {total}).")
        else:
            line = _("Winner: {name} (lowest total, {total}).")
        return line.format(name=winners[0], total=game.totals[game.winners()[0]])
    if game.ruleset.highest_wins:
        line = _("Winners, sharing first place: {names} (highest total).")
    else:
        line = _("Winners, sharing first place: {names} (lowest total).")
    return line.format(names=", ".join(winners))
