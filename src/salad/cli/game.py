"""The game commands: `salad rules`, `simulate`, `demo` and `match` (bots playing bots)."""

from __future__ import annotations

import json
import math
import time
from typing import Annotated

import typer

from salad.bots import parse_bots
from salad.bots.external import ExternalBot
from salad.bots.play import play_out
from salad.cli.common import (
    RUN_LIMIT,
    AllowFallbackOpt,
    BotsOpt,
    DealSeedOpt,
    JsonOpt,
    MatchBotsOpt,
    MatchMoveTimeOpt,
    PlayersOpt,
    RecordOpt,
    SeedOpt,
    SwapOpt,
    ToppingsOpt,
    WorkersOpt,
    friendly,
    game_options,
    make_ruleset,
    players_for,
    refuse_fallback,
)
from salad.engine import Game
from salad.formats.describe import describe
from salad.formats.records import format_record, record_from_game, write_records
from salad.lab.match import run_match
from salad.lab.progress import format_rate, rich_progress
from salad.locale import N_, _, ngettext
from salad.ruleset import Ruleset
from salad.sheet.printout import full_sheet, hand_rows, sheet_header


@friendly
def rules(
    ruleset: Annotated[
        str, typer.Argument(help=N_("Preset name or TOML rules file."))
    ] = "canadian",
    players: PlayersOpt = None,
    toppings: ToppingsOpt = None,
    swap: SwapOpt = None,
) -> None:
    """Show a ruleset in words: deck, removals, rounds, penalties and the checksum."""
    rs = make_ruleset(ruleset, toppings, swap)
    typer.echo(describe(rs, players_for(rs, players)))


@friendly
@game_options
def simulate(
    rs: Ruleset,
    n: int,
    games: Annotated[
        int, typer.Option("--games", "-g", min=1, max=RUN_LIMIT, help=N_("How many games."))
    ] = 100,
    seed: SeedOpt = 0,
    bots: BotsOpt = "random",
    record: RecordOpt = None,
    as_json: JsonOpt = False,
    allow_fallback: AllowFallbackOpt = False,
) -> None:
    """Play many games between bots and report the average points of each seat."""
    base = 0 if seed is None else seed
    bot_list = parse_bots(bots, n, base)
    sums = [0] * n
    wins = [0.0] * n
    records = []
    start = time.perf_counter()
    with rich_progress(_("simulating"), games) as advance:
        for i in range(games):
            game = play_out(Game(rs, n, seed=base + i), bot_list)
            for s in range(n):
                sums[s] += game.totals[s]
            winners = game.winners()
            for s in winners:
                wins[s] += 1 / len(winners)
            if record is not None:
                names = [{"name": f"Seat {s}", "bot": b.name} for s, b in enumerate(bot_list)]
                records.append(record_from_game(game, names))
            advance()
    elapsed = time.perf_counter() - start
    if record is not None:
        write_records(record, records)
    means = [round(x / games, 2) for x in sums]
    # Moves the fallback bot made for an external bot whose program failed: not its figures.
    stand_in = [b.fallback_moves if isinstance(b, ExternalBot) else 0 for b in bot_list]
    summary = {
        "rules": rs.preset,
        "players": n,
        "games": games,
        "seed": base,
        "bots": [b.name for b in bot_list],
        "mean_points": means,
        "wins": [round(w, 2) for w in wins],
        "games_per_s": round(games / elapsed, 3),
        "record": str(record) if record else None,
        "fallback_moves": stand_in,
    }
    typer.echo(
        ngettext(
            "{n} game of {title}, {players} players, seeds {first}..{last}",
            "{n} games of {title}, {players} players, seeds {first}..{last}",
            games,
        ).format(n=games, title=_(rs.title), players=n, first=base, last=base + games - 1)
    )
    for s in range(n):
        typer.echo(
            "  "
            + ngettext(
                "seat {seat} ({bot}): mean {mean} points, {wins} win",
                "seat {seat} ({bot}): mean {mean} points, {wins} wins",
                math.ceil(wins[s]),  # 1.5 wins: the plural
            ).format(seat=s, bot=bot_list[s].name, mean=f"{means[s]:8.2f}", wins=f"{wins[s]:g}")
            + _fallback_note(bot_list[s], stand_in[s])
        )
    typer.echo(format_rate(games, elapsed))
    if record is not None:
        typer.echo(_("records written to {file}").format(file=record))
    if as_json:
        typer.echo(json.dumps(summary))
    seats = zip(bot_list, stand_in, strict=True)
    failed = {f"{b.name} in seat {s}": n for s, (b, n) in enumerate(seats) if n}
    refuse_fallback(failed, allow_fallback)


def _fallback_note(bot: object, moves: int) -> str:
    """What a seat's line adds when the fallback bot made some of its moves."""
    if not moves or not isinstance(bot, ExternalBot):
        return ""
    said = _("({fallback} made {n} of its moves: its program failed)")
    return "  " + said.format(fallback=bot.fallback, n=moves)


TricksOpt = Annotated[
    bool,
    typer.Option(
        "--tricks", help=N_("Show every hand's deal and every trick, not only the sheet.")
    ),
]


@friendly
@game_options
def demo(
    rs: Ruleset,
    n: int,
    seed: SeedOpt = None,
    bots: BotsOpt = "random",
    tricks: TricksOpt = False,
) -> None:
    """Watch one whole game between bots: the score sheet after every hand, and with --tricks
    every deal and every trick as well."""
    game = Game(rs, n, seed=seed)
    bot_list = parse_bots(bots, n, game.seed)
    names = [f"{b.name.title()} {s}" for s, b in enumerate(bot_list)]
    typer.echo(
        _("{title}: {n} players, seed {seed}; {name} deals first.").format(
            title=_(rs.title), n=n, seed=game.seed, name=names[game.first_dealer]
        )
    )
    if tricks:
        play_out(game, bot_list)
        players = [{"name": name, "bot": b.name} for name, b in zip(names, bot_list, strict=True)]
        typer.echo(format_record(record_from_game(game, players)))
    else:
        typer.echo(_("The score sheet after every hand (--tricks shows every trick as well)."))
        typer.echo(sheet_header(names))

        def on_hand_end(g: Game) -> None:
            for row in hand_rows(g, len(g.hand_points) - 1):
                typer.echo(row)

        play_out(game, bot_list, on_hand_end)
    typer.echo("")
    typer.echo(full_sheet(game, names))


@friendly
@game_options
def match(
    rs: Ruleset,
    n: int,
    bots: MatchBotsOpt = "",
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            "-d",
            max=RUN_LIMIT,
            help=N_("Deals; each is played once per seat rotation."),
        ),
    ] = 100,
    seed: DealSeedOpt = 0,
    move_time: MatchMoveTimeOpt = None,
    record: RecordOpt = None,
    as_json: JsonOpt = False,
    workers: WorkersOpt = None,
    allow_fallback: AllowFallbackOpt = False,
) -> None:
    """Duplicate match: every deal replayed with the bots rotated through every seat."""
    result = run_match(
        rs, n, bots, deals, seed, move_time=move_time, workers=workers, record=record, progress=True
    )
    for line in result.lines():
        typer.echo(line)
    if as_json:
        typer.echo(result.to_json())
    refuse_fallback(result.fallback, allow_fallback)
