"""Game review: for every decision of a seat, the expert search's estimate of every choice.

A finished record is replayed through the engine; at each choice of the reviewed seat (a card,
a pass, a trump) the seat's :class:`~salad.view.View` of that moment is all the review uses:
never a later card, never another hand (the engine's view filters them out). For every distinct
legal choice (:func:`salad.bots.search.distinct_moves`) the same worlds are sampled
(:func:`salad.sampler.sample_hands`, seeded by :func:`salad.bots.seeds.bot_seed` from what the
view shows, so a review is reproducible and the same from the CLI, the server and the page) and
the hand is played out as the expert plays it out (:func:`~salad.bots.search.rollout`, or the
exact :func:`~salad.bots.search.endgame` near the hand's end). The cost of the choice made is
its estimate minus the best one's, 0 when the difference is within the noise (see
:data:`NOISE_SE`); labels come from thresholds scaled to the ruleset's point sizes
(:func:`thresholds`, written out in ``docs/review.md``).

``hindsight`` adds the same search on the true deal (one world: every hand known), kept apart
in :class:`~salad.lab.review_model.Hindsight`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from salad.bots.policy import HandModel, choose_pass, hand_model
from salad.bots.search import Searcher, distinct_moves, points_after
from salad.bots.seeds import bot_seed
from salad.cards import CardMask
from salad.engine import Game
from salad.errors import SaladError
from salad.events import DEAL, DRAW, PASS, PLAY, TRUMP
from salad.formats.records import game_from_record
from salad.lab.review_model import (
    Decision,
    Estimate,
    GameReview,
    HandSummary,
    Hindsight,
    Kind,
    Label,
    SeatReview,
    Thresholds,
)
from salad.moves import Move, format_move, trump_move
from salad.ruleset import Ruleset
from salad.sampler import sample_hands
from salad.view import Phase, View

__all__ = [
    "DEFAULT_WORLDS",
    "NOISE_SE",
    "DecisionPoint",
    "ReviewOptions",
    "count_decisions",
    "decision_points",
    "decision_seed",
    "estimate_moves",
    "finished_game",
    "game_review",
    "label_of",
    "player_names",
    "review_decision",
    "review_one",
    "review_point",
    "review_record",
    "seat_review",
    "thresholds",
]

DEFAULT_WORLDS = 200
"""Sampled worlds per decision by default: a whole 4-player Canadian Salad game reviewed for
one seat in well under a minute on a shared 2-core machine (``benchmarks/review_speed.py``)."""

NOISE_SE = 2.0
"""A choice within this many standard errors of the best (of the paired difference, over the
same worlds) costs 0: the search cannot tell them apart."""

_DEFAULTS = Searcher(random.Random(0), 0.0, 1)
"""Where the expert's endgame settings are read from, so the review searches as it does."""


@dataclass(frozen=True)
class ReviewOptions:
    worlds: int = DEFAULT_WORLDS
    move_time: float | None = None
    """Seconds per decision at most (fewer worlds when slow; then not reproducible)."""
    hindsight: bool = False


@dataclass(frozen=True)
class DecisionPoint:
    """One choice of the seat: its view then, the move it made, and (for hindsight only) the
    true hands and passes of that moment."""

    index: int
    view: View
    chosen: Move
    hands: tuple[CardMask, ...]
    passed: tuple[CardMask, ...]


# -- the record, replayed -----------------------------------------------------------------------


def finished_game(record: Any, game_number: int = 1) -> Game:
    """The record's game replayed; refused (``SaladError``) unless it is over."""
    game = game_from_record(record)
    if not game.is_over():
        raise SaladError(
            f"review: game {game_number} is not finished; a review of an unfinished game "
            "would reveal what the search infers"
        )
    return game


def decision_points(game: Game, seat: int) -> Iterator[DecisionPoint]:
    """The choices ``seat`` made in ``game`` (a finished game), replayed from its log."""
    if not 0 <= seat < game.players:
        raise SaladError(f"review: seat {seat} is not at a {game.players}-seat table")
    log = game.log
    first = next((int(e[2]) for e in log if e[0] in (DRAW, DEAL)), 0)  # type: ignore[call-overload]
    g = Game(game.ruleset, game.players, first_dealer=first, auto_deal=False)
    deck = g.deck
    index = 0
    for entry in log:
        tag = entry[0]
        move: Move
        if tag == DEAL:
            g.deal(entry[3])  # type: ignore[arg-type]
            continue
        if tag in (PLAY, PASS):
            move = int(entry[2])  # type: ignore[call-overload]
        elif tag == TRUMP and int(entry[2]) >= 0:  # type: ignore[call-overload]
            move = trump_move(deck, int(entry[3]))  # type: ignore[call-overload]
        else:
            continue
        if g.to_move == seat:
            yield DecisionPoint(index, g.view(seat), move, tuple(g.hands), tuple(g.passed))
            index += 1
        g.play(move)


def count_decisions(game: Game, seat: int) -> int:
    """How many choices ``seat`` made (for a progress bar)."""
    return sum(1 for _ in decision_points(game, seat))


# -- one decision ------------------------------------------------------------------------------


def _kind(view: View) -> Kind:
    if view.phase == Phase.PASS:
        return "pass"
    if view.phase == Phase.TRUMP:
        return "trump"
    return "play"


def decision_seed(view: View) -> int:
    """The decision's seed, from what the view shows (so scrambling hidden cards changes
    nothing): the seat, the hand and how far the hand has gone."""
    moves = len(view.tricks) * view.players + len(view.trick) + view.passed.bit_count()
    return bot_seed("review", view.seat, view.hand_index, int(view.phase), moves)


def _prepass(g: Game, view: View, m: HandModel, passed: Sequence[CardMask] | None) -> None:
    """Give the seats that passed before this one their passes in world ``g``: the true ones
    in hindsight, else the expert's passing rule on the cards they hold in that world."""
    if view.phase != Phase.PASS:
        return
    n = view.players
    seat = (view.dealer + 1) % n
    while seat != view.seat:
        if passed is not None:
            g.passed[seat] = passed[seat]
        else:
            for _ in range(view.ruleset.passing):
                free = g.hands[seat] & ~g.passed[seat]
                others = m.deck.in_play & ~g.hands[seat]
                g.passed[seat] |= 1 << choose_pass(m, free, others, g.trump)
        seat = (seat + 1) % n


def _world(
    base: Game, m: HandModel, moves: Sequence[Move], seat: int, exact: bool
) -> list[int] | None:
    """The seat's points for the hand after each move in one world; None when the exact
    endgame runs out of nodes."""
    row: list[int] = []
    nodes = _DEFAULTS.endgame_nodes if exact else None
    for mv in moves:
        points = points_after(base, m, mv, seat, nodes)
        if points is None:
            return None
        row.append(points)
    return row


def estimate_moves(
    view: View,
    m: HandModel,
    moves: Sequence[Move],
    worlds: int,
    rng: random.Random,
    move_time: float | None = None,
    hands: Sequence[CardMask] | None = None,
    passed: Sequence[CardMask] | None = None,
) -> list[list[int]]:
    """Per move, the seat's points for the hand in each world (every world used for every
    move); ``hands`` (and ``passed``) search the one true deal instead of sampled ones."""
    seat = view.seat
    values: list[list[int]] = [[] for _ in moves]
    exact = view.phase == Phase.PLAY and sum(view.hand_sizes) <= _DEFAULTS.endgame_tricks * m.n
    deadline = None if move_time is None else time.perf_counter() + move_time
    for done in range(worlds):
        world = list(hands) if hands is not None else sample_hands(view, rng)
        base = Game.from_view(view, world)
        _prepass(base, view, m, passed)
        row = _world(base, m, moves, seat, exact)
        if row is None:  # the end of the hand is too big to search exactly
            exact = False
            row = _world(base, m, moves, seat, False)
            assert row is not None  # rollouts always finish
        for i, value in enumerate(row):
            values[i].append(value)
        if deadline is not None and done and time.perf_counter() >= deadline:
            break
    return values


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _se(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    mu = _mean(xs)
    return math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1) / n)


def _choices(view: View, m: HandModel, chosen: Move) -> list[Move]:
    """The distinct choices, with the one made among them (in place of a copy or an
    interchangeable card it was folded into)."""
    moves = distinct_moves(view, m)
    if chosen in moves:
        return moves
    code = format_move(view.deck, chosen)
    for i, mv in enumerate(moves):
        if format_move(view.deck, mv) == code:
            moves[i] = chosen
            return moves
    return sorted([*moves, chosen])


def _compare(
    view: View, m: HandModel, moves: Sequence[Move], chosen: Move, values: list[list[int]]
) -> tuple[list[Estimate], int, float, float]:
    """Estimates best first, the best move's index, the cost and its noise."""
    sign = m.sign
    means = [_mean(v) for v in values]
    c = moves.index(chosen)
    best = min(range(len(moves)), key=lambda i: (sign * means[i], i != c))
    diffs = [sign * (a - b) for a, b in zip(values[c], values[best], strict=True)]
    gap = _mean(diffs)
    noise = _se(diffs)
    cost = 0.0 if gap <= NOISE_SE * noise + 1e-9 else gap
    order = sorted(range(len(moves)), key=lambda i: (sign * means[i], i != best))
    deck = view.deck
    estimates = [
        Estimate(move=format_move(deck, moves[i]), points=means[i], se=_se(values[i]))
        for i in order
    ]
    return estimates, best, cost, noise


def thresholds(ruleset: Ruleset, players: int) -> Thresholds:
    """The label thresholds: scaled to the smallest penalty the game hands out (its unit;
    10 in Canadian Salad): an inaccuracy costs half a unit, a mistake two, a blunder five."""
    rules = ruleset.compiled(players)
    points = [p.points for h in rules.hands for p in h.penalties if p.points > 0]
    unit = min(points, default=1)
    return Thresholds(unit=unit, inaccuracy=unit / 2, mistake=2.0 * unit, blunder=5.0 * unit)


def label_of(cost: float, limits: Thresholds) -> Label:
    if cost >= limits.blunder:
        return "blunder"
    if cost >= limits.mistake:
        return "mistake"
    if cost > 0 and cost >= limits.inaccuracy:
        return "inaccuracy"
    return "good"


def review_decision(
    view: View,
    chosen: Move,
    options: ReviewOptions,
    index: int = 0,
    limits: Thresholds | None = None,
    hands: Sequence[CardMask] | None = None,
    passed: Sequence[CardMask] | None = None,
) -> Decision:
    """The review of one choice made in ``view`` (``hands`` and ``passed``, the truth of that
    moment, are used only for hindsight)."""
    if limits is None:
        limits = thresholds(view.ruleset, view.players)
    m = hand_model(view.ruleset, view.players, view.hand_index)
    moves = _choices(view, m, chosen)
    deck = view.deck
    worlds = 0
    if len(moves) == 1:
        estimates, best, cost, noise = (
            [Estimate(move=format_move(deck, chosen), points=0.0, se=0.0)],
            0,
            0.0,
            0.0,
        )
    else:
        rng = random.Random(decision_seed(view))
        values = estimate_moves(view, m, moves, options.worlds, rng, options.move_time)
        worlds = len(values[0])
        estimates, best, cost, noise = _compare(view, m, moves, chosen, values)
    hindsight = None
    if options.hindsight and hands is not None and len(moves) > 1:
        truth = estimate_moves(view, m, moves, 1, random.Random(0), hands=hands, passed=passed)
        h_est, h_best, h_cost, _ = _compare(view, m, moves, chosen, truth)
        hindsight = Hindsight(best=format_move(deck, moves[h_best]), estimates=h_est, cost=h_cost)
    trick = len(view.tricks) + 1 if view.phase == Phase.PLAY else 0
    return Decision(
        index=index,
        hand=view.hand_index + 1,
        round=view.round_name,
        trick=trick,
        kind=_kind(view),
        chosen=format_move(deck, chosen),
        best=format_move(deck, moves[best]),
        estimates=estimates,
        cost=cost,
        noise=noise,
        label=label_of(cost, limits),
        worlds=worlds,
        hindsight=hindsight,
    )


def review_point(point: DecisionPoint, options: ReviewOptions, limits: Thresholds) -> Decision:
    return review_decision(
        point.view, point.chosen, options, point.index, limits, point.hands, point.passed
    )


# -- a whole game ------------------------------------------------------------------------------


def seat_review(
    game: Game, seat: int, name: str, decisions: Sequence[Decision], hindsight: bool
) -> SeatReview:
    """The summaries of one seat's reviewed decisions: per hand and for the game."""
    sign = -1 if game.ruleset.highest_wins else 1
    hands: list[HandSummary] = []
    for k, points in enumerate(game.hand_points):
        mine = [d for d in decisions if d.hand == k + 1]
        # Sums of estimates, rounded as the estimates are (no 249.10000000000002 in the JSON).
        lost = round(sum(d.cost for d in mine), 2)
        h_lost = round(sum(d.hindsight.cost for d in mine if d.hindsight), 2) if hindsight else None
        hands.append(
            HandSummary(
                hand=k + 1,
                round=game.rules.hands[k].round.name,
                points=points[seat],
                lost=lost,
                dealt=round(points[seat] - sign * lost, 2),
                decisions=len(mine),
                hindsight_lost=h_lost,
            )
        )
    lost = round(sum(h.lost for h in hands), 2)
    costly = sorted((d for d in decisions if d.cost > 0), key=lambda d: (-d.cost, d.index))
    return SeatReview(
        seat=seat,
        name=name,
        points=game.totals[seat],
        lost=lost,
        dealt=round(game.totals[seat] - sign * lost, 2),
        hands=hands,
        decisions=list(decisions),
        costliest=[d.index for d in costly[:3]],
        hindsight_lost=(
            round(sum(h.hindsight_lost or 0.0 for h in hands), 2) if hindsight else None
        ),
    )


def player_names(record: Any) -> list[str]:
    return [str(p.get("name", f"seat {i}")) for i, p in enumerate(record.get("players", []))]


def review_record(
    record: Any,
    seats: Sequence[int],
    options: ReviewOptions | None = None,
    game_number: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """The review of a finished record for ``seats``; ``progress(done, total)`` after each
    decision."""
    options = options or ReviewOptions()
    if options.worlds < 1:
        raise SaladError(f"review: --worlds must be 1 or more, not {options.worlds}")
    game = finished_game(record, game_number)
    for seat in seats:
        if not 0 <= seat < game.players:
            raise SaladError(
                f"review: seat {seat} is not at this {game.players}-seat table "
                f"(seats 0 to {game.players - 1})"
            )
    limits = thresholds(game.ruleset, game.players)
    names = player_names(record)
    total = sum(count_decisions(game, s) for s in seats)
    done = 0
    reviews: list[SeatReview] = []
    for seat in seats:
        decisions: list[Decision] = []
        for point in decision_points(game, seat):
            decisions.append(review_point(point, options, limits))
            done += 1
            if progress is not None:
                progress(done, total)
        reviews.append(seat_review(game, seat, names[seat], decisions, options.hindsight))
    return game_review(record, game, reviews, options, game_number)


def game_review(
    record: Any, game: Game, seats: list[SeatReview], options: ReviewOptions, game_number: int
) -> GameReview:
    """The review of a game from its seats' reviews."""
    return GameReview(
        ruleset=game.ruleset.title,
        players=player_names(record),
        game=game_number,
        worlds=options.worlds,
        move_time=options.move_time,
        hindsight=options.hindsight,
        thresholds=thresholds(game.ruleset, game.players),
        seats=seats,
    )


def review_one(record: Any, seat: int, index: int, options: ReviewOptions) -> Decision:
    """Decision ``index`` of ``seat`` in a finished record, reviewed: one unit of work for a
    process pool (the record is replayed in the worker; only the decision comes back)."""
    game = finished_game(record)
    limits = thresholds(game.ruleset, game.players)
    for point in decision_points(game, seat):
        if point.index == index:
            return review_point(point, options, limits)
    raise SaladError(f"review: seat {seat} made no decision {index + 1}")
