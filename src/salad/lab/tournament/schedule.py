"""Who plays where: the entrants and the balanced schedule of duplicate deals.

Games come in blocks of ``n`` (the seats): block ``b`` is one deal played ``n`` times by one
group of ``n`` entrants, the seating rotated one seat each time. The groups run through every
``n``-subset of the entrants in an order that keeps games and meetings even at every point
(see :mod:`salad.lab.tournament` for the whole rule).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from salad.bots import bot_factory
from salad.bots.seeds import bot_seed
from salad.errors import SaladError
from salad.lab.games import bot_key

CYCLE_LIMIT = 256
"""Up to this many ``n``-subsets of the entrants, the groups cycle through all of them."""
ARRANGEMENTS = 24
"""Seating orders tried per group (all of them when there are no more)."""


@dataclass(frozen=True)
class Entrant:
    """One entrant of a tournament: a bot, or one copy of a bot listed more than once."""

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


def seat_seeds(seed: int, seating: Seating) -> tuple[int, ...]:
    """The seed of the bot in each seat of a game of the tournament seeded ``seed``: the seeds
    a match gives, from ``(seed, deal, rotation, seat)``."""
    return tuple(
        bot_seed("match", seed, seating.deal, seating.rotation, s)
        for s in range(len(seating.seats))
    )


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
