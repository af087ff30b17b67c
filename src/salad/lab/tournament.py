"""Tournaments between bots: a balanced schedule of duplicate deals, OpenSkill ratings, files.

**Entrants.** ``bots`` names the entrants (``"expert,advanced,basic,random"``). A name listed
twice enters two copies of the bot, labelled ``basic`` and ``basic#2`` (two copies of one bot
should end up rated alike: a check on the ratings' noise). A table of ``n`` seats needs at
least ``n`` entrants; with more, each game seats ``n`` of them.

**Schedule.** Games come in blocks of ``n``: block ``b`` is one deal, the game with seed
``seed + b``, played ``n`` times by one group of ``n`` entrants, the group's seating rotated one
seat each time (game ``b * n + r`` puts the group's ``i``-th entrant in seat ``(i + r) % n``).
So within a block every member plays every seat on the same cards (duplicate deals). The
groups run through every ``n``-subset of the entrants, in an order chosen greedily so that the
entrants' games and the pairs' meetings stay as even as possible at every point of the run;
after each complete cycle of subsets every entrant has played every seat equally often and
every pair has met equally often. (With more than 256 subsets the groups are built one entrant
at a time instead, the least played entrant first, then the ones that met the group least.)
Within a group, the seating order is the cyclic order that least repeats who sat directly to
whose left. The schedule depends only on the number of entrants and seats and on the seed, and
its first ``K`` games do not depend on the total: a longer run extends a shorter one.

Each bot is built fresh for its game with the seed :func:`salad.lab.match.bot_seed` draws from
``(seed, block, rotation, seat)``, so the results do not depend on where or in which order the
games are played, as long as the bots are deterministic given their seed (a bot given a
``move_time`` is not).

**Ratings.** OpenSkill's Plackett-Luce model, every game in schedule order: each seat is one
player, ranked by its total (lower is better unless the ruleset's ``highest_wins``; equal totals
share a rank). The leaderboard sorts by the ordinal ``mu - 3 sigma``.

**Files** (with ``out``): ``tournament.json`` (the arguments), ``games.jsonl`` (every game's
record, in schedule order, line ``k`` holding game ``k``), ``leaderboard.csv``, ``games.csv``
(one row per seat of every game) and the plots ``ratings.png``, ``points.png`` and
``rounds.png``. A run that stops (an interrupt, a kill) leaves every game written so far;
running it again with the same arguments and directory plays only the games that are missing.

**Backends.** ``"local"`` plays on processes of this machine (every core by default);
``"ray"`` plays on a Ray cluster (``address``) or on a local Ray started for the run. Both
send batches of games per task, sized from the measured time per game.

>>> from salad import load_ruleset
>>> result = run_tournament(load_ruleset("canadian"), 3, "random,random,random", games=6,
...                         seed=1, workers=1)
>>> [(s.entrant, s.games) for s in sorted(result.standings, key=lambda s: s.entrant)]
[('random', 6), ('random#2', 6), ('random#3', 6)]
>>> [g.entrants for g in result.games[:3]]
[('random', 'random#3', 'random#2'), ('random#2', 'random', 'random#3'), \
('random#3', 'random#2', 'random')]
"""

from __future__ import annotations

import contextlib
import csv
import importlib
import io
import itertools
import json
import logging
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from salad.bots import bot_factory
from salad.errors import SaladError
from salad.lab.match import (
    _Job,
    _play,
    _Played,
    _RecordWriter,
    _run_pool,
    bot_key,
    bot_seed,
    rich_progress,
    worker_pool,
)
from salad.ruleset import Ruleset
from salad.scoring import standings as places_of

__all__ = [
    "BACKENDS",
    "Entrant",
    "GameResult",
    "Interrupted",
    "Rating",
    "Seating",
    "Standing",
    "TournamentResult",
    "cores",
    "parse_entrants",
    "rate_games",
    "run_tournament",
    "schedule",
    "start_local_ray",
]

FORMAT = "salad-tournament/1"
"""The ``format`` of ``tournament.json``."""

BACKENDS = ("local", "ray")
SETTINGS_FILE = "tournament.json"
RECORDS_FILE = "games.jsonl"
LEADERBOARD_FILE = "leaderboard.csv"
GAMES_FILE = "games.csv"
RATINGS_PNG = "ratings.png"
POINTS_PNG = "points.png"
ROUNDS_PNG = "rounds.png"

CYCLE_LIMIT = 256
"""Up to this many ``n``-subsets of the entrants, the groups cycle through all of them."""
ARRANGEMENTS = 24
"""Seating orders tried per group (all of them when there are no more)."""
TASK_SECONDS = 0.5
"""Aimed-for duration of one task (a batch of games) on a worker."""
MAX_BATCH = 256
RAY_HINT = "pip install 'salad[ray]'"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# -- entrants and the schedule ------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    label: str
    """Its name in the results: the bot's name, ``#2``, ``#3``... for further copies."""
    bot: str
    """The bot's name for :func:`salad.bots.make_bot`."""


def parse_entrants(bots: str | Sequence[str], players: int) -> tuple[Entrant, ...]:
    """``"expert,basic,basic,random"`` → the entrants, each bot checked to exist.

    >>> [e.label for e in parse_entrants("Basic, random,basic", 3)]
    ['basic', 'random', 'basic#2']
    >>> parse_entrants("basic,random", 4)
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: bots: 2 entrants for 4 seats; a tournament needs at least one \
per seat (list a bot twice to enter two copies, e.g. basic,basic,random,random)
    """
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    names = [n.strip() for n in names if n.strip()]
    if not names:
        example = ",".join(["expert", "advanced", "basic", "random"][:players])
        raise SaladError(f"bots: name the entrants, comma-separated, e.g. --bots {example}")
    copies: dict[str, int] = {}
    out = []
    for name in names:
        key = bot_key(name)  # built-in names ignore case, cmd: ones keep it
        bot_factory(key)  # unknown or unavailable → SaladError
        copies[key] = copies.get(key, 0) + 1
        out.append(Entrant(key if copies[key] == 1 else f"{key}#{copies[key]}", key))
    if len(out) < players:
        example = ",".join(["basic", "basic", "random", "random"] + ["random"] * (players - 4))
        raise SaladError(
            f"bots: {len(out)} entrants for {players} seats; a tournament needs at least one "
            f"per seat (list a bot twice to enter two copies, e.g. {example})"
        )
    return tuple(out)


@dataclass(frozen=True)
class Seating:
    """One game of the schedule."""

    index: int
    """Its place in the schedule, from 0 (the line of ``games.jsonl`` is ``index + 1``)."""
    deal: int
    """Its block, from 0: the games of a block play the same deal."""
    rotation: int
    seed: int
    """The game's seed: the tournament's seed plus ``deal``."""
    seats: tuple[int, ...]
    """The entrant (its index) in each seat."""


def schedule(entrants: int, players: int, games: int, seed: int = 0) -> list[Seating]:
    """The first ``games`` games of the tournament (see the module's docstring).

    >>> [s.seats for s in schedule(4, 4, 5)]
    [(0, 1, 2, 3), (3, 0, 1, 2), (2, 3, 0, 1), (1, 2, 3, 0), (0, 3, 2, 1)]
    """
    if entrants < players:
        raise SaladError(f"schedule: {entrants} entrants cannot fill {players} seats")
    n = players
    out: list[Seating] = []
    for b, group in enumerate(_groups(entrants, n, -(-games // n), seed)):
        for r in range(min(n, games - b * n)):
            seats = tuple(group[(s - r) % n] for s in range(n))
            out.append(Seating(b * n + r, b, r, seed + b, seats))
    return out


def _groups(entrants: int, n: int, blocks: int, seed: int) -> Iterator[tuple[int, ...]]:
    """The group of each block, in its base seating order."""
    rng = random.Random(f"salad-tournament:{seed}")
    games = [0] * entrants
    met = [[0] * entrants for _ in range(entrants)]
    left = [[0] * entrants for _ in range(entrants)]  # left[a][b]: b sat directly left of a
    cycle = math.comb(entrants, n) <= CYCLE_LIMIT
    pending: list[tuple[int, ...]] = []
    for _ in range(blocks):
        if cycle:
            if not pending:
                pending = list(itertools.combinations(range(entrants), n))
                rng.shuffle(pending)
            best, best_cost = 0, (math.inf, math.inf)
            for i, candidate in enumerate(pending):
                cost = (
                    sum(games[e] for e in candidate),
                    sum(met[a][b] for a, b in itertools.combinations(candidate, 2)),
                )
                if cost < best_cost:
                    best, best_cost = i, cost
            group = list(pending.pop(best))
        else:
            order = list(range(entrants))
            rng.shuffle(order)
            group = []
            for _ in range(n):
                pick, pick_cost = -1, (math.inf, math.inf)
                for e in order:
                    if e in group:
                        continue
                    c = (games[e], sum(met[e][g] for g in group))
                    if c < pick_cost:
                        pick, pick_cost = e, c
                group.append(pick)
        seating = _arrange(group, left, rng)
        for e in seating:
            games[e] += 1
        for a, b in itertools.combinations(seating, 2):
            met[a][b] += 1
            met[b][a] += 1
        for s in range(n):
            left[seating[s]][seating[(s + 1) % n]] += 1
        yield seating


def _arrange(group: list[int], left: list[list[int]], rng: random.Random) -> tuple[int, ...]:
    """The cyclic order of ``group`` that least repeats the left-hand neighbours so far."""
    n = len(group)
    first, rest = group[0], group[1:]
    if math.factorial(n - 1) <= ARRANGEMENTS:
        candidates = [(first, *p) for p in itertools.permutations(rest)]
    else:
        candidates = []
        for _ in range(ARRANGEMENTS):
            rng.shuffle(rest)
            candidates.append((first, *rest))
    rng.shuffle(candidates)
    return min(candidates, key=lambda o: sum(left[o[s]][o[(s + 1) % n]] for s in range(n)))


# -- results and ratings ------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One game as its record tells it."""

    index: int
    deal: int
    rotation: int
    seed: int
    entrants: tuple[str, ...]
    """The entrant (label) in each seat."""
    bots: tuple[str, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    """1 for the best total; equal totals share the place."""
    winners: tuple[int, ...]
    hands: tuple[tuple[str, tuple[int, ...]], ...]
    """Each hand: its round id and the points of each seat."""

    @classmethod
    def of(
        cls, seating: Seating, entrants: Sequence[Entrant], record: dict[str, Any], high: bool
    ) -> GameResult:
        totals = tuple(int(t) for t in record["totals"])
        return cls(
            index=seating.index,
            deal=seating.deal,
            rotation=seating.rotation,
            seed=seating.seed,
            entrants=tuple(entrants[e].label for e in seating.seats),
            bots=tuple(entrants[e].bot for e in seating.seats),
            totals=totals,
            places=tuple(places_of(totals, high)),
            winners=tuple(int(s) for s in record["winners"]),
            hands=tuple(
                (str(h["round_id"]), tuple(int(p) for p in h["points"])) for h in record["hands"]
            ),
        )

    def win_share(self, seat: int) -> float:
        """1 for the only winner, ``1/k`` for each of ``k`` tied winners, else 0."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


def rate_games(
    labels: Sequence[str], games: Sequence[GameResult]
) -> tuple[dict[str, Rating], dict[str, list[Rating]]]:
    """OpenSkill (Plackett-Luce) ratings after the games, in order, and each one's history.

    The history of an entrant holds its rating before the first game and after every game
    (``len(games) + 1`` entries; it stays put through the games it sits out).

    >>> g = GameResult(0, 0, 0, 0, ("a", "b", "c"), ("x",) * 3, (1, 5, 5), (1, 2, 2), (0,), ())
    >>> final, history = rate_games(["a", "b", "c"], [g])
    >>> final["a"].mu > 25 > final["b"].mu == final["c"].mu
    True
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {label: model.rating() for label in labels}
    history = {label: [Rating(r.mu, r.sigma)] for label, r in current.items()}
    for game in games:
        teams = [[current[label]] for label in game.entrants]
        rated = model.rate(teams, ranks=[float(p) for p in game.places])
        for label, team in zip(game.entrants, rated, strict=True):
            current[label] = team[0]
        for label, hist in history.items():
            r = current[label]
            hist.append(Rating(r.mu, r.sigma) if label in game.entrants else hist[-1])
    return {label: Rating(r.mu, r.sigma) for label, r in current.items()}, history


@dataclass(frozen=True)
class Standing:
    """One line of the leaderboard."""

    rank: int
    entrant: str
    bot: str
    rating: Rating
    games: int
    mean_points: float | None
    wins: float
    """Games won (a tie for first shares the win)."""
    mean_place: float | None
    rounds: dict[str, float | None]
    """Round id → mean points taken in a hand of that round."""

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


def _standings(
    entrants: Sequence[Entrant],
    games: Sequence[GameResult],
    ratings: dict[str, Rating],
    round_ids: Sequence[str],
    high: bool,
) -> list[Standing]:
    points: dict[str, list[int]] = {e.label: [] for e in entrants}
    places: dict[str, list[int]] = {e.label: [] for e in entrants}
    wins = {e.label: 0.0 for e in entrants}
    taken: dict[str, dict[str, list[int]]] = {
        e.label: {rid: [] for rid in round_ids} for e in entrants
    }
    for g in games:
        for s, label in enumerate(g.entrants):
            points[label].append(g.totals[s])
            places[label].append(g.places[s])
            wins[label] += g.win_share(s)
            for rid, hand in g.hands:
                taken[label].setdefault(rid, []).append(hand[s])
    rows = [
        Standing(
            rank=0,
            entrant=e.label,
            bot=e.bot,
            rating=ratings[e.label],
            games=len(points[e.label]),
            mean_points=_mean(points[e.label]),
            wins=wins[e.label],
            mean_place=_mean(places[e.label]),
            rounds={rid: _mean(v) for rid, v in taken[e.label].items()},
        )
        for e in entrants
    ]
    sign = -1 if high else 1
    rows.sort(
        key=lambda s: (
            -s.rating.ordinal,
            math.inf if s.mean_points is None else sign * s.mean_points,
            s.entrant,
        )
    )
    return [replace(s, rank=i + 1) for i, s in enumerate(rows)]


def _mean(values: Sequence[int]) -> float | None:
    return math.fsum(values) / len(values) if values else None


@dataclass
class TournamentResult:
    ruleset: Ruleset
    players: int
    entrants: tuple[Entrant, ...]
    seed: int
    games: list[GameResult]
    """Every game, in schedule order."""
    standings: list[Standing]
    """Best first."""
    history: dict[str, list[Rating]]
    rounds: list[tuple[str, str]]
    """The rounds played, ``(id, name)``, in the order of the hands."""
    backend: str
    workers: int
    played: int
    """Games played by this run."""
    resumed: int
    """Games found already played in ``out``."""
    elapsed: float
    """Seconds this run spent playing."""
    out: Path | None = None
    files: list[Path] = field(default_factory=list)

    @property
    def games_per_s(self) -> float:
        return self.played / self.elapsed if self.elapsed > 0 else 0.0

    def standing(self, label: str) -> Standing:
        for s in self.standings:
            if s.entrant == label:
                return s
        raise KeyError(label)


class Interrupted(KeyboardInterrupt):
    """The run was interrupted; ``saved`` games of ``total`` are safe in ``out``."""

    def __init__(self, saved: int, total: int, out: Path | None) -> None:
        super().__init__(saved, total, out)
        self.saved = saved
        self.total = total
        self.out = out


# -- running ------------------------------------------------------------------------------------


def run_tournament(
    ruleset: Ruleset,
    players: int | None,
    bots: str | Sequence[str],
    games: int,
    seed: int = 0,
    *,
    backend: str = "local",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    move_time: float | None = None,
    bot_options: dict[str, Any] | None = None,
    progress: bool = False,
    plots: bool = True,
    on_game: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Play (or finish) a tournament and rate it; see the module's docstring.

    ``workers``: processes (``local``; 1 plays in this process) or tasks at a time (``ray``;
    default: the cluster's CPUs). ``out``: the directory of the files, where an interrupted
    run resumes. ``on_game`` is called in this process with every game, in schedule order,
    once it is saved. An interrupt raises :class:`Interrupted` (a ``KeyboardInterrupt``).
    """
    n = ruleset.default_players if players is None else players
    ruleset.check_players(n)
    entrants = parse_entrants(bots, n)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SaladError(f"games: must be at least 1, not {games}")
    if backend not in BACKENDS:
        raise SaladError(f"backend: {backend!r} is not one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise SaladError("address: a Ray cluster's address goes with --backend ray")
    if workers is not None and workers < 1:
        raise SaladError(f"workers: must be at least 1, not {workers}")
    if move_time is not None and not (move_time > 0 and math.isfinite(move_time)):
        raise SaladError(f"move time: must be a positive number of seconds, not {move_time}")
    ray = _import_ray() if backend == "ray" else None
    options = dict(bot_options or {})
    if move_time is not None:
        options["move_time"] = move_time

    from salad.engine import Game
    from salad.formats.records import record_from_game

    record_from_game(Game(ruleset, n, seed=seed))  # a ruleset that records cannot rebuild
    plan = schedule(len(entrants), n, games, seed)
    high = ruleset.highest_wins
    directory = None if out is None else Path(out)
    done: list[GameResult] = []
    if directory is not None:
        settings = _settings(ruleset, n, entrants, seed, options)
        _prepare(directory, settings)
        done = _load_done(directory / RECORDS_FILE, plan, entrants, ruleset, n, seed)
        _write_text(
            directory / SETTINGS_FILE, json.dumps({**settings, "games": games}, indent=2) + "\n"
        )
    resumed = len(done)

    jobs = [
        _Job(
            ruleset,
            n,
            s.deal,
            s.rotation,
            s.seed,
            tuple(entrants[e].bot for e in s.seats),
            tuple(bot_seed(seed, s.deal, s.rotation, seat) for seat in range(n)),
            options,
            True,
        )
        for s in plan[resumed:]
    ]
    names = sorted({e.bot for e in entrants})
    label = f"tournament (after {resumed} played)" if resumed else "tournament"
    used = 0
    if jobs and ray is None:
        used = min(workers or cores(), len(jobs))
    start = time.perf_counter()
    with (
        worker_pool(used, names) as pool,
        _append(directory) as writer,
        _progress(progress, label, len(jobs)) as advance,
    ):
        pending: dict[int, _Played] = {}

        def commit() -> None:
            while len(done) in pending:
                i = len(done)
                p = pending.pop(i)
                assert p.record is not None
                for entry, e in zip(p.record["players"], plan[i].seats, strict=True):
                    entry["name"] = entrants[e].label
                result = GameResult.of(plan[i], entrants, p.record, high)
                if writer is not None:
                    writer.add(i, p.record)
                done.append(result)
                if on_game is not None:
                    on_game(result)
            if writer is not None:
                writer.fh.flush()

        batches = _Batches(jobs, 1)

        def finished(batch: tuple[list[_Played], float]) -> None:
            played, seconds = batch
            batches.timed(len(played), seconds)
            for p in played:
                pending[p.deal * n + p.rotation] = p
                advance()
            commit()

        if writer is not None:
            writer.next = resumed
        try:
            if jobs and ray is not None:
                used = _run_ray(ray, batches, workers, address, finished)
            elif jobs:
                batches.workers = used
                if pool is None:
                    for batch in batches:
                        finished(_play_batch(batch))
                else:
                    _run_pool(_play_batch, batches, pool, used, finished)
        except KeyboardInterrupt:
            raise Interrupted(len(done), games, directory) from None
    elapsed = time.perf_counter() - start

    ratings, history = rate_games([e.label for e in entrants], done)
    round_ids = list(dict.fromkeys(ruleset.hands))
    result = TournamentResult(
        ruleset=ruleset,
        players=n,
        entrants=entrants,
        seed=seed,
        games=done,
        standings=_standings(entrants, done, ratings, round_ids, high),
        history=history,
        rounds=[(rid, ruleset.round(rid).name) for rid in round_ids],
        backend=backend,
        workers=used,
        played=len(done) - resumed,
        resumed=resumed,
        elapsed=elapsed,
        out=directory,
    )
    if directory is not None:
        result.files = [directory / SETTINGS_FILE, directory / RECORDS_FILE]
        result.files += write_tables(result, directory)
        if plots:
            result.files += write_plots(result, directory)
    return result


def _play_batch(jobs: Sequence[_Job]) -> tuple[list[_Played], float]:
    """Play a batch of games (in a worker); their results and the seconds they took."""
    start = time.perf_counter()
    played = [_play(job) for job in jobs]
    return played, time.perf_counter() - start


class _Batches:
    """The jobs cut into batches of about :data:`TASK_SECONDS` each, from the times so far.

    The first batches hold one game each; once games have been timed, a batch holds as many
    as fit the aimed-for time, at most :data:`MAX_BATCH`, and never more than a share of what
    is left (so that the last batches end together on every worker).
    """

    def __init__(self, jobs: Sequence[_Job], workers: int) -> None:
        self.jobs = jobs
        self.workers = workers
        self.pos = 0
        self.games = 0
        self.seconds = 0.0

    def timed(self, games: int, seconds: float) -> None:
        self.games += games
        self.seconds += seconds

    def __iter__(self) -> Iterator[list[_Job]]:
        return self

    def __next__(self) -> list[_Job]:
        left = len(self.jobs) - self.pos
        if left <= 0:
            raise StopIteration
        size = 1
        if self.games and self.seconds > 0:
            size = max(1, min(MAX_BATCH, round(TASK_SECONDS * self.games / self.seconds)))
        size = min(size, max(1, left // (2 * self.workers)))
        batch = list(self.jobs[self.pos : self.pos + size])
        self.pos += len(batch)
        return batch


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SaladError(f"backend ray: Ray is not installed here ({RAY_HINT})") from None


def _run_ray(
    ray: Any,
    batches: _Batches,
    workers: int | None,
    address: str | None,
    finished: Callable[[tuple[list[_Played], float]], None],
) -> int:
    """Play the batches as Ray tasks; the number of tasks run at a time."""
    started = not ray.is_initialized()
    if started:
        try:
            if address is None:
                start_local_ray(ray)
            else:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except Exception as exc:
            where = f"cannot connect to {address}" if address else "cannot start a local Ray"
            raise SaladError(f"backend ray: {where} ({_one_line(exc)})") from None
    running: dict[Any, int] = {}
    try:
        used = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        batches.workers = used
        task = ray.remote(num_cpus=1, max_retries=0)(_play_batch)
        for batch in itertools.islice(batches, 2 * used):
            running[task.remote(batch)] = len(batch)
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                del running[ref]
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, SaladError):
                        raise SaladError(str(cause)) from None
                    raise
                finished(result)
                nxt = next(batches, None)
                if nxt is not None:
                    running[task.remote(nxt)] = len(nxt)
    except BaseException:
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    return used


def start_local_ray(ray: Any) -> None:
    """Start a Ray instance on this machine for a run: every core, no dashboard, quiet.

    Its workers run at the normal priority (``RAY_worker_niceness=0`` unless set already):
    Ray's default, niceness 15, leaves them only the CPU time nothing else on the machine
    wants, which on a shared machine halves a tournament's speed for nothing.
    """
    key = "RAY_worker_niceness"
    before = os.environ.get(key)
    os.environ.setdefault(key, "0")
    try:
        ray.init(
            address="local",
            num_cpus=cores(),
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    finally:
        if before is None:
            del os.environ[key]


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@contextmanager
def _progress(show: bool, label: str, total: int) -> Iterator[Callable[[], None]]:
    if not show or total == 0:
        yield lambda: None
        return
    with rich_progress(label, total) as advance:
        yield advance


# -- the directory: arguments, records, resuming ------------------------------------------------


def _settings(
    ruleset: Ruleset, n: int, entrants: Sequence[Entrant], seed: int, options: dict[str, Any]
) -> dict[str, Any]:
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


def _prepare(directory: Path, settings: dict[str, Any]) -> None:
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


def _load_done(
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
    from salad.formats.records import load_records

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
            [entrants[e].label, entrants[e].bot, bot_seed(seed, seating.deal, seating.rotation, s)]
            for s, e in enumerate(seating.seats)
        ]
        try:
            found = [[p["name"], p["bot"], p["bot_seed"]] for p in record["players"]]
            same = (
                record["ruleset"] == {"preset": rs.preset, "settings": rs.settings}
                and record["seed"] == seating.seed
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


@contextmanager
def _append(directory: Path | None) -> Iterator[_RecordWriter | None]:
    if directory is None:
        yield None
        return
    path = directory / RECORDS_FILE
    try:
        fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise SaladError(f"{path}: cannot write ({exc.strerror or exc})") from None
    with fh:
        yield _RecordWriter(path, fh)


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# -- tables and plots ---------------------------------------------------------------------------


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
    _write_text(paths[0], leaderboard_csv(result))
    _write_text(paths[1], games_csv(result))
    return paths


def write_plots(result: TournamentResult, directory: Path) -> list[Path]:
    """``ratings.png`` (ratings over the games), ``points.png`` (points per game, box plots)
    and ``rounds.png`` (mean points per round)."""
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    rs = result.ruleset
    better = "higher" if rs.highest_wins else "lower"
    order = [s.entrant for s in result.standings]
    cmap = colormaps["tab10" if len(order) <= 10 else "tab20"]
    color = {label: cmap(i % cmap.N) for i, label in enumerate(order)}
    k = len(result.games)
    about = f"{rs.title}, {result.players} players, {k} games, seed {result.seed}"
    paths = []

    # Ratings over the games.
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
    paths.append(_save(fig, directory / RATINGS_PNG))

    # Points per game.
    played = [s for s in result.standings if s.games]
    points: dict[str, list[int]] = {s.entrant: [] for s in played}
    for g in result.games:
        for s_, label in enumerate(g.entrants):
            points[label].append(g.totals[s_])
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
    paths.append(_save(fig, directory / POINTS_PNG))

    # Mean points per round.
    import textwrap

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
    paths.append(_save(fig, directory / ROUNDS_PNG))
    return paths


def _save(fig: Any, path: Path) -> Path:
    tmp = path.with_name(path.name + ".tmp")
    fig.savefig(tmp, format="png")
    os.replace(tmp, path)
    return path
