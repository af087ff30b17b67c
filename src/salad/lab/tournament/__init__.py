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

Each bot is built fresh for its game with the seed
``salad.bots.seeds.bot_seed("match", seed, block, rotation, seat)``, as in a match
(:func:`~salad.lab.tournament.schedule.seat_seeds`), so the results do not depend on where or in
which order the games are played, as long as the bots are deterministic given their seed (a
bot given a ``move_time`` is not).

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

**Modules.** :mod:`~salad.lab.tournament.schedule` (entrants, who plays where),
:mod:`~salad.lab.tournament.ratings` (games as their records tell them, OpenSkill),
:mod:`~salad.lab.tournament.results` (the leaderboard), :mod:`~salad.lab.tournament.backends`
(local processes, Ray), :mod:`~salad.lab.tournament.rundir` (the files, resuming),
:mod:`~salad.lab.tournament.report` (tables and plots), :mod:`~salad.lab.tournament.run` (the
whole run).

>>> from salad import load_ruleset
>>> result = run_tournament(load_ruleset("canadian"), 3, "random,random,random", games=6,
...                         seed=1, workers=1)
>>> [(s.entrant, s.games) for s in sorted(result.standings, key=lambda s: s.entrant)]
[('random', 6), ('random#2', 6), ('random#3', 6)]
>>> [g.entrants for g in result.games[:3]]
[('random', 'random#3', 'random#2'), ('random#2', 'random', 'random#3'), \
('random#3', 'random#2', 'random')]
"""

from salad.lab.tournament.backends import BACKENDS, cores, start_local_ray
from salad.lab.tournament.ratings import GameResult, Rating, rate_games
from salad.lab.tournament.report import games_csv, leaderboard_csv, write_plots, write_tables
from salad.lab.tournament.results import Standing, TournamentResult
from salad.lab.tournament.run import Interrupted, run_tournament
from salad.lab.tournament.rundir import (
    GAMES_FILE,
    LEADERBOARD_FILE,
    POINTS_PNG,
    RATINGS_PNG,
    RECORDS_FILE,
    ROUNDS_PNG,
    SETTINGS_FILE,
)
from salad.lab.tournament.schedule import Entrant, Seating, parse_entrants, schedule

__all__ = [
    "BACKENDS",
    "GAMES_FILE",
    "LEADERBOARD_FILE",
    "POINTS_PNG",
    "RATINGS_PNG",
    "RECORDS_FILE",
    "ROUNDS_PNG",
    "SETTINGS_FILE",
    "Entrant",
    "GameResult",
    "Interrupted",
    "Rating",
    "Seating",
    "Standing",
    "TournamentResult",
    "cores",
    "games_csv",
    "leaderboard_csv",
    "parse_entrants",
    "rate_games",
    "run_tournament",
    "schedule",
    "start_local_ray",
    "write_plots",
    "write_tables",
]
