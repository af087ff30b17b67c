"""A tournament's directory: its arguments, its records, and resuming a run that stopped.

``tournament.json`` holds the arguments (a second run must have the same ones), ``games.jsonl``
every game's record in schedule order; a run plays only the games it does not hold yet.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from salad.errors import SaladError
from salad.formats.records import load_records, record_seed
from salad.formats.writing import write_whole
from salad.lab.tournament.ratings import GameResult
from salad.lab.tournament.schedule import Entrant, Seating, seat_seeds
from salad.ruleset import Ruleset
from salad.settings import to_ref

FORMAT = "salad-tournament/1"
"""The ``format`` of ``tournament.json``."""

SETTINGS_FILE = "tournament.json"
RECORDS_FILE = "games.jsonl"
LEADERBOARD_FILE = "leaderboard.csv"
GAMES_FILE = "games.csv"
RATINGS_PNG = "ratings.png"
POINTS_PNG = "points.png"
ROUNDS_PNG = "rounds.png"


def settings_of(
    ruleset: Ruleset, n: int, entrants: Sequence[Entrant], seed: int, options: dict[str, Any]
) -> dict[str, Any]:
    """What ``tournament.json`` holds besides the number of games: a resumed run's must match."""
    return {
        "format": FORMAT,
        "rules": ruleset.preset,
        "settings": ruleset.settings,
        "players": n,
        "entrants": [e.label for e in entrants],
        "bots": [e.bot for e in entrants],
        "seed": seed,
        "bot_options": options,
    }


def prepare(directory: Path, settings: dict[str, Any]) -> None:
    """Create the directory, or check that it holds this tournament."""
    if directory.exists() and not directory.is_dir():
        raise SaladError(f"out: {directory} is a file, not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / SETTINGS_FILE
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise SaladError(f"out: {path} is not a tournament's settings file") from None
        if not isinstance(old, dict):
            raise SaladError(f"out: {path} is not a tournament's settings file")
        for key, value in settings.items():
            if old.get(key) != value:
                raise SaladError(
                    f"out: {directory} holds another tournament ({key} {_brief(old.get(key))},"
                    f" not {_brief(value)}); use another --out or remove {directory}"
                )
    elif (directory / RECORDS_FILE).exists():
        raise SaladError(
            f"out: {directory} holds {RECORDS_FILE} without {SETTINGS_FILE}; "
            f"use another --out or remove {directory}"
        )


def _brief(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return json.dumps(value)


def load_done(
    path: Path,
    plan: Sequence[Seating],
    entrants: Sequence[Entrant],
    rs: Ruleset,
    n: int,
    seed: int,
) -> list[GameResult]:
    """The games already in ``games.jsonl``, each checked against the schedule.

    A last line cut short (the run was killed while writing it) is removed from the file.
    """
    if not path.exists():
        return []
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        with open(path, "r+b") as fh:
            fh.truncate(keep)
    records = load_records(path)
    if len(records) > len(plan):
        raise SaladError(
            f"games: {path} already holds {len(records)} games, more than the {len(plan)} "
            "asked for (ask for at least as many, or use another --out)"
        )
    done = []
    for i, (record, seating) in enumerate(zip(records, plan, strict=False)):
        expected = [
            [entrants[e].label, entrants[e].bot, str(bot_seed)]
            for e, bot_seed in zip(seating.seats, seat_seeds(seed, seating), strict=True)
        ]
        try:  # (seeds are strings in salad-record/2, numbers in the /1 of older runs)
            found = [[p["name"], p["bot"], str(p["bot_seed"])] for p in record["players"]]
            same = (
                record["ruleset"] == to_ref(rs)
                and record_seed(record) == seating.seed
                and found == expected
                and len(record["totals"]) == n
            )
        except (KeyError, TypeError):
            same = False
        if not same:
            raise SaladError(
                f"out: {path}, line {i + 1} is not game {i + 1} of this tournament; "
                "use another --out or remove the directory"
            )
        done.append(GameResult.of(seating, entrants, record, rs.highest_wins))
    return done


def write_settings(directory: Path, settings: dict[str, Any], games: int) -> Path:
    """``tournament.json``: the arguments of the run and its number of games."""
    path = directory / SETTINGS_FILE
    write_whole(path, json.dumps({**settings, "games": games}, indent=2) + "\n")
    return path
