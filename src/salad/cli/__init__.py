"""The `salad` command: rules, simulations, records and a demo game."""

from __future__ import annotations

import json
import sys
import time
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from salad.bots import parse_bots
from salad.bots.play import play_out
from salad.cli.common import (
    BotsOpt,
    JsonOpt,
    PlayersOpt,
    RecordFile,
    RecordOpt,
    SeedOpt,
    SwapOpt,
    ToppingsOpt,
    err,
    friendly,
    game_options,
    make_ruleset,
    players_for,
)
from salad.cli.play import play_command
from salad.cli.score import score_command
from salad.cli.tournament import tournament_command
from salad.engine import Game
from salad.errors import SaladError
from salad.ruleset import Ruleset

app = typer.Typer(
    help="Canadian Salad (Fruit Salad, Wisconsin Scramble) and its variants.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
record_app = typer.Typer(
    help="Read, check and show salad-record/1 game records.", no_args_is_help=True
)
app.add_typer(record_app, name="record")


@app.command()
@friendly
def rules(
    ruleset: Annotated[str, typer.Argument(help="Preset name or TOML rules file.")] = "canadian",
    players: PlayersOpt = None,
    toppings: ToppingsOpt = None,
    swap: SwapOpt = None,
) -> None:
    """Show a ruleset in words: deck, removals, rounds, penalties and the checksum."""
    from salad.formats.describe import describe

    rs = make_ruleset(ruleset, toppings, swap)
    typer.echo(describe(rs, players_for(rs, players)))


@app.command()
@friendly
@game_options
def simulate(
    rs: Ruleset,
    n: int,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 100,
    seed: SeedOpt = 0,
    bots: BotsOpt = "random",
    record: RecordOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many games between bots and report the average points of each seat."""
    from salad.formats.records import record_from_game, write_records

    base = 0 if seed is None else seed
    bot_list = parse_bots(bots, n, base)
    sums = [0] * n
    wins = [0.0] * n
    records = []
    start = time.perf_counter()
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("games", total=games)
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
            progress.advance(task)
    elapsed = time.perf_counter() - start
    if record is not None:
        write_records(record, records)
    means = [round(x / games, 2) for x in sums]
    summary = {
        "rules": rs.preset,
        "players": n,
        "games": games,
        "seed": base,
        "bots": [b.name for b in bot_list],
        "mean_points": means,
        "wins": [round(w, 2) for w in wins],
        "games_per_s": round(games / elapsed, 1),
        "record": str(record) if record else None,
    }
    typer.echo(f"{games} games of {rs.title}, {n} players, seeds {base}..{base + games - 1}")
    for s in range(n):
        typer.echo(
            f"  seat {s} ({bot_list[s].name}): mean {means[s]:8.2f} points, {wins[s]:g} wins"
        )
    typer.echo(f"{summary['games_per_s']} games per second")
    if record is not None:
        typer.echo(f"records written to {record}")
    if as_json:
        typer.echo(json.dumps(summary))


@app.command()
@friendly
@game_options
def demo(
    rs: Ruleset,
    n: int,
    seed: SeedOpt = None,
    bots: BotsOpt = "random",
) -> None:
    """Watch one whole game between bots, with the score sheet after every hand."""
    from salad.sheet.text import full_sheet, hand_rows, sheet_header

    game = Game(rs, n, seed=seed)
    bot_list = parse_bots(bots, n, game.seed)
    names = [f"{b.name.title()} {s}" for s, b in enumerate(bot_list)]
    typer.echo(
        f"{rs.title}: {n} players, seed {game.seed}; {names[game.first_dealer]} deals first."
    )
    typer.echo(sheet_header(names))

    def on_hand_end(g: Game) -> None:
        for row in hand_rows(g, len(g.hand_points) - 1):
            typer.echo(row)

    play_out(game, bot_list, on_hand_end)
    typer.echo("")
    typer.echo(full_sheet(game, names))


@app.command()
@friendly
@game_options
def match(
    rs: Ruleset,
    n: int,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", "-b", help="One bot per seat, comma-separated, e.g. expert,basic,basic,basic."
        ),
    ] = "",
    deals: Annotated[
        int, typer.Option("--deals", "-d", help="Deals; each is played once per seat rotation.")
    ] = 100,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Deal d is the game with seed S+d.")
    ] = 0,
    move_time: Annotated[
        float | None,
        typer.Option("--move-time", help="Seconds per move, given to every bot as move_time."),
    ] = None,
    record: RecordOpt = None,
    as_json: JsonOpt = False,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", help="Processes to play on (default: every core)."),
    ] = None,
) -> None:
    """Duplicate match: every deal replayed with the bots rotated through every seat."""
    from salad.lab.match import run_match

    result = run_match(
        rs, n, bots, deals, seed, move_time=move_time, workers=workers, record=record, progress=True
    )
    for line in result.lines():
        typer.echo(line)
    if as_json:
        typer.echo(result.to_json())


app.command("play")(play_command)
app.command("score")(score_command)
app.command("tournament")(tournament_command)


@app.command()
@friendly
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            help="Database: postgresql://user:password@host/name, a SQLite file path or "
            "URL (default: salad.db in the user data directory)."
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before it plays (to be watchable).")
    ] = 0.6,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="Server processes, each holding a share of the tables (more use more cores).",
        ),
    ] = 1,
) -> None:
    """Run the web server: lobby, tables, bots and the browser client."""
    from salad.server import serve as run_server

    status = run_server(host, port, database, bot_delay=bot_delay, echo=typer.echo, workers=workers)
    if status:
        raise typer.Exit(status)


@record_app.command("verify")
@friendly
def record_verify(file: RecordFile) -> None:
    """Replay every game of a record file and check every deal, card, winner and score."""
    from salad.formats.records import load_records, verify_record

    records = load_records(file)
    for i, rec in enumerate(records):
        where = f"{file}" + (f" game {i + 1}" if len(records) > 1 else "")
        try:
            totals = verify_record(rec)
        except SaladError as exc:
            raise SaladError(f"{where}: {exc}") from None
        typer.echo(f"OK {where}: totals {' '.join(str(t) for t in totals)}")


@record_app.command("show")
@friendly
def record_show(
    file: RecordFile,
    plain: Annotated[bool, typer.Option(help="Card codes instead of suit symbols.")] = False,
) -> None:
    """Print a game trick by trick."""
    from salad.formats.records import format_record, load_records

    for rec in load_records(file):
        typer.echo(format_record(rec, symbols=not plain))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
