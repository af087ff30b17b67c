"""A tournament's report: the leaderboard and the games as CSV tables, and the plots.

The plots need Matplotlib, an optional extra (``canadian-salad[lab]``), imported only to draw them.
"""

from __future__ import annotations

import csv
import io
import os
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from salad.formats.writing import write_whole
from salad.lab.tournament.results import TournamentResult
from salad.lab.tournament.rundir import (
    GAMES_FILE,
    LEADERBOARD_FILE,
    POINTS_PNG,
    RATINGS_PNG,
    ROUNDS_PNG,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.4f}"


def leaderboard_csv(result: TournamentResult) -> str:
    """The leaderboard as CSV, one row per entrant, best first."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    round_ids = [rid for rid, _ in result.rounds]
    w.writerow(
        [
            "rank",
            "entrant",
            "bot",
            "ordinal",
            "mu",
            "sigma",
            "games",
            "mean_points",
            "wins",
            "win_rate",
            "mean_place",
        ]
        + [f"mean_{rid}" for rid in round_ids]
    )
    for s in result.standings:
        w.writerow(
            [
                s.rank,
                s.entrant,
                s.bot,
                _num(s.rating.ordinal),
                _num(s.rating.mu),
                _num(s.rating.sigma),
                s.games,
                _num(s.mean_points),
                _num(s.wins),
                _num(s.win_rate),
                _num(s.mean_place),
            ]
            + [_num(s.rounds.get(rid)) for rid in round_ids]
        )
    return buf.getvalue()


def games_csv(result: TournamentResult) -> str:
    """Every game as CSV, one row per seat: game and deal from 1, the seat's points per hand."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    hands = result.ruleset.hands
    w.writerow(
        ["game", "deal", "rotation", "seed", "seat", "entrant", "bot", "points", "place", "win"]
        + [f"hand{h + 1}_{rid}" for h, rid in enumerate(hands)]
    )
    for g in result.games:
        for s in range(result.players):
            w.writerow(
                [
                    g.index + 1,
                    g.deal + 1,
                    g.rotation,
                    g.seed,
                    s,
                    g.entrants[s],
                    g.bots[s],
                    g.totals[s],
                    g.places[s],
                    _num(g.win_share(s)),
                ]
                + [points[s] for _, points in g.hands]
            )
    return buf.getvalue()


def write_tables(result: TournamentResult, directory: Path) -> list[Path]:
    """``leaderboard.csv`` and ``games.csv``."""
    paths = [directory / LEADERBOARD_FILE, directory / GAMES_FILE]
    write_whole(paths[0], leaderboard_csv(result))
    write_whole(paths[1], games_csv(result))
    return paths


def write_plots(result: TournamentResult, directory: Path) -> list[Path]:
    """``ratings.png`` (ratings over the games), ``points.png`` (points per game, box plots)
    and ``rounds.png`` (mean points per round)."""
    # Matplotlib is an optional extra (canadian-salad[lab]): loaded only to draw the plots.
    from matplotlib import colormaps

    rs = result.ruleset
    better = "higher" if rs.highest_wins else "lower"
    order = [s.entrant for s in result.standings]
    cmap = colormaps["tab10" if len(order) <= 10 else "tab20"]
    color = {label: cmap(i % cmap.N) for i, label in enumerate(order)}
    about = f"{rs.title}, {result.players} players, {len(result.games)} games, seed {result.seed}"
    return [
        _save(_ratings_figure(result, color, about), directory / RATINGS_PNG),
        _save(_points_figure(result, color, about, better), directory / POINTS_PNG),
        _save(_rounds_figure(result, color, about, better), directory / ROUNDS_PNG),
    ]


def _ratings_figure(result: TournamentResult, color: dict[str, Any], about: str) -> Figure:
    """Each entrant's mu (with its sigma band) and ordinal over the games."""
    from matplotlib.figure import Figure  # optional extra, see write_plots

    k = len(result.games)
    fig = Figure(figsize=(11, 7.5), dpi=110, layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    x = list(range(k + 1))
    for s in result.standings:
        hist = result.history[s.entrant]
        mu = [r.mu for r in hist]
        lo = [r.mu - r.sigma for r in hist]
        hi = [r.mu + r.sigma for r in hist]
        c = color[s.entrant]
        top.fill_between(x, lo, hi, color=c, alpha=0.12, linewidth=0)
        top.plot(x, mu, color=c, linewidth=1.8, label=f"{s.entrant}  ({s.rating.ordinal:.1f})")
        bottom.plot(x, [r.ordinal for r in hist], color=c, linewidth=1.8)
    top.set_ylabel("mu (band: mu ± sigma)")
    bottom.set_ylabel("ordinal = mu - 3 sigma")
    bottom.set_xlabel("games played")
    bottom.set_xlim(0, max(k, 1))
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
    top.legend(
        title="entrant (final ordinal)", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9
    )
    top.set_title("rating of each entrant over the games (leaderboard order)", fontsize=10)
    fig.suptitle(f"OpenSkill Plackett-Luce ratings: {about}")
    return fig


def _points_figure(
    result: TournamentResult, color: dict[str, Any], about: str, better: str
) -> Figure:
    """Box plots of each entrant's points per game."""
    from matplotlib.figure import Figure  # optional extra, see write_plots

    played = [s for s in result.standings if s.games]
    points: dict[str, list[int]] = {s.entrant: [] for s in played}
    for g in result.games:
        for seat, label in enumerate(g.entrants):
            points[label].append(g.totals[seat])
    fig = Figure(figsize=(max(6.0, 1.3 * len(played) + 2.5), 6), dpi=110, layout="constrained")
    ax = fig.subplots()
    if played:
        box = ax.boxplot(
            [points[s.entrant] for s in played],
            patch_artist=True,
            showmeans=True,
            widths=0.6,
            meanprops={
                "marker": "D",
                "markerfacecolor": "white",
                "markeredgecolor": "black",
                "markersize": 6,
            },
            medianprops={"color": "black", "linewidth": 1.5},
            flierprops={"marker": "o", "markersize": 3, "alpha": 0.5},
        )
        for patch, s in zip(box["boxes"], played, strict=True):
            patch.set_facecolor(color[s.entrant])
            patch.set_alpha(0.75)
        ax.set_xticks(range(1, len(played) + 1), [f"{s.entrant}\n{s.games} games" for s in played])
        for i, s in enumerate(played, start=1):
            ax.annotate(
                f"mean {s.mean_points:.1f}",
                (i, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(0, -4),
                textcoords="offset points",
                ha="center",
                va="top",
                fontsize=9,
            )
        ax.margins(y=0.12)
    ax.set_ylabel(f"points per game ({better} is better)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_title(f"points per game: {about}\nbox: quartiles, line: median, ◆: mean", fontsize=10)
    return fig


def _rounds_figure(
    result: TournamentResult, color: dict[str, Any], about: str, better: str
) -> Figure:
    """Bars of each entrant's mean points in a hand of each round."""
    from matplotlib.figure import Figure  # optional extra, see write_plots

    played = [s for s in result.standings if s.games]
    fig = Figure(
        figsize=(min(16.0, max(8.0, 0.3 * len(result.rounds) * len(played) + 3)), 5.5),
        dpi=110,
        layout="constrained",
    )
    ax = fig.subplots()
    width = 0.8 / max(1, len(played))
    for j, s in enumerate(played):
        xs = [i + (j - (len(played) - 1) / 2) * width for i in range(len(result.rounds))]
        ys = [s.rounds.get(rid) or 0.0 for rid, _ in result.rounds]
        ax.bar(xs, ys, width=width, color=color[s.entrant], label=s.entrant)
    ax.set_xticks(range(len(result.rounds)), [textwrap.fill(name, 14) for _, name in result.rounds])
    ax.set_ylabel(f"mean points taken in the hand ({better} is better)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    ax.set_title(f"mean points per round: {about}", fontsize=10)
    return fig


def _save(fig: Figure, path: Path) -> Path:
    """Save a figure as PNG whole or not at all (through a temporary file)."""
    tmp = path.with_name(path.name + ".tmp")
    fig.savefig(tmp, format="png")
    os.replace(tmp, path)
    return path
