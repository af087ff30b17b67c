"""Search over hidden cards: Perfect Information Monte Carlo (PIMC).

For each sampled world (hidden hands guessed consistently with the view by
:func:`salad.sampler.sample_hands`) and each distinct legal move, the move is played in
``Game.from_view(view, hands)`` and the hand is finished by a fast policy, :func:`rollout`,
which works straight on the determinized :class:`~salad.engine.Game` (no views), every seat
playing :func:`salad.bots.policy.choose_play` with the cards it holds in that world. When only
a few tricks are left, the end of the hand is instead searched exactly (:func:`endgame`: every
seat minimises its own points, max^n style). The move with the best average of the seat's own
points for the hand wins (the lowest, or the highest where the highest total wins). Worlds
come from a :data:`WorldMaker` (:func:`sample_world`; the expert's draws them in proportion to
how likely the other seats' plays are in them, :mod:`salad.bots.inference`); given an
``inference`` weigher instead, each world counts in the average by that likelihood.

Every world is used for every move (common random numbers), so differences between moves are
measured on the same deals. The search is anytime: it stops at a world count or at a deadline,
whichever comes first, and early when one move is clearly best.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from salad.bots.policy import HandModel, choose_pass, choose_play, choose_trump
from salad.cards import CardMask
from salad.engine import Game
from salad.moves import Move
from salad.sampler import PassPicker, sample_hands, sample_passes
from salad.view import Phase, View

_PLAY = Phase.PLAY
_PASS = Phase.PASS
_TRUMP = Phase.TRUMP

PRUNE_SE = 3.0
"""A move is dropped once it trails the best by this many standard errors (paired)."""

WorldMaker = Callable[[View, HandModel, random.Random], Game]
"""Makes one world to search: a full-information game in the state the view sees."""

Weigher = Callable[[Sequence[CardMask]], float]
"""A world's hands → its weight in the average (:mod:`salad.bots.inference`)."""

Inference = Callable[[View, HandModel], Weigher | None]
"""Prepares the weigher of one decision (None: every world weighs the same)."""


def policy_passes(m: HandModel, trump: int) -> PassPicker:
    """The fast policy as a model of how the other seats pass."""
    in_play = m.deck.in_play

    def pick(seat: int, hand: CardMask, count: int) -> CardMask:
        chosen = 0
        for _ in range(count):
            chosen |= 1 << choose_pass(m, hand & ~chosen, in_play & ~hand, trump)
        return chosen

    return pick


def sample_world(view: View, m: HandModel, rng: random.Random) -> Game:
    """A world guessed consistently with the view (hidden hands and, mid-pass, the passes the
    seats before this one chose, as the fast policy would)."""
    hands = sample_hands(view, rng)
    passed = None
    if view.phase is _PASS:
        passed = sample_passes(view, hands, rng, policy_passes(m, view.trump))
    return Game.from_view(view, hands, passed)


def fast_move(g: Game, m: HandModel) -> Move:
    """The policy's move in a full-information game (every seat's cards are known; only
    whether a card is out at all is used, not who holds it)."""
    legal = g.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = g.to_move
    hands = g.hands
    n = m.n
    phase = g.phase
    if phase is _PLAY:
        out = 0
        for s in range(n):
            if s != seat:
                out |= hands[s]
        n_after = n - len(g.trick) - 1
        # The seats behind are taken to hold any card out, not the ones they hold in this
        # world: so the rollout plays as a seat that sees only its view would (the basic bot
        # does), and that modelled the other seats better (8 deals at 40 worlds: the expert
        # 0.517x basic against 0.567x with the exact cards behind).
        return choose_play(
            m,
            legal,
            g.trick,
            g.led,
            g.trump,
            out,
            out if n_after else 0,
            n_after,
            g.trick_no == m.tricks - 1,
            g.token == seat,
        )
    others = m.deck.in_play & ~hands[seat]
    if phase is _PASS:
        return choose_pass(m, hands[seat] & ~g.passed[seat], others, g.trump)
    return choose_trump(m, hands[seat], others)


def rollout(g: Game, m: HandModel) -> None:
    """Finish the current hand of ``g`` with the fast policy (``g`` stops at the hand's end)."""
    phase = g.phase
    while phase is _PLAY or phase is _PASS or phase is _TRUMP:
        g.play(fast_move(g, m))
        phase = g.phase


def distinct_moves(view: View, m: HandModel | None = None) -> list[Move]:
    """The legal moves with identical copies of a card folded into one; given the hand's
    model, card plays that are interchangeable are folded too: cards of one suit with the
    same penalty and no card ranked between them that another seat may hold or that lies in
    the current trick (whichever of them is played, every trick goes the same way)."""
    deck = view.deck
    size = deck.size
    seen: set[tuple[str, bool]] = set()
    out: list[Move] = []
    unseen = 0
    if m is not None and view.phase == Phase.PLAY:
        # Cards still to come from other seats, and the cards of this trick, tell cards apart.
        unseen = deck.in_play & ~view.hand & ~view.played
        for t in view.trick:
            unseen |= 1 << (t % size)
    prev = -1
    for mv in view.legal_moves:
        if mv >= 2 * size:
            out.append(mv)
            continue
        card = mv % size
        key = (deck.codes[card], mv >= size)
        if key in seen:
            continue
        seen.add(key)
        if m is not None and unseen and mv < size and prev >= 0:
            s = m.suit_of[card]
            if (
                s >= 0
                and m.suit_of[prev] == s
                and m.cost[prev] == m.cost[card]
                and (m.token_mask >> prev & 1) == (m.token_mask >> card & 1)
                and not unseen & m.above[prev] & m.below[card]
            ):
                prev = card
                continue
        out.append(mv)
        prev = card if mv < size else -1
    return out


# -- exact endgame ---------------------------------------------------------------------------


def _distinct(g: Game, legal: Sequence[Move], same: Sequence[int]) -> list[Move]:
    size = g.deck.size
    out: list[Move] = []
    seen: set[tuple[int, bool]] = set()
    for mv in legal:
        key = (same[mv % size], mv >= size)
        if key not in seen:
            seen.add(key)
            out.append(mv)
    return out


def endgame(g: Game, m: HandModel, budget: list[int]) -> tuple[int, ...] | None:
    """Every seat's points for the rest of the hand under max^n play (each seat minimises its
    own points, or maximises them under a flipped objective); None when ``budget`` (a node
    count, decremented in place) runs out."""
    if g.phase is not _PLAY:
        return tuple(g.hand_points[-1])
    budget[0] -= 1
    if budget[0] < 0:
        return None
    legal = g.legal_moves()
    moves = legal if len(legal) == 1 else _distinct(g, legal, m.same)
    seat = g.to_move
    sign = m.sign
    best: tuple[int, ...] | None = None
    for mv in moves:
        child = g.copy()
        child.play(mv)
        res = endgame(child, m, budget)
        if res is None:
            return None
        if best is None or sign * res[seat] < sign * best[seat]:
            best = res
    return best


# -- PIMC ----------------------------------------------------------------------------------------


def points_after(
    base: Game, m: HandModel, move: Move, seat: int, exact_nodes: int | None
) -> int | None:
    """``seat``'s points for the hand after ``move`` in the world ``base``: searched exactly
    when ``exact_nodes`` is given (None if the endgame runs out of them), else by a rollout."""
    g = base.copy()
    g.play(move)
    if exact_nodes is not None:
        res = endgame(g, m, [exact_nodes])
        return None if res is None else res[seat]
    rollout(g, m)
    return g.hand_points[-1][seat]


class Searcher:
    """PIMC over sampled worlds with policy rollouts and an exact endgame."""

    def __init__(
        self,
        rng: random.Random,
        move_time: float,
        max_worlds: int,
        min_worlds: int = 8,
        endgame_nodes: int = 800,
        endgame_tricks: int = 2,
        fixed_worlds: bool = False,
        worlds: WorldMaker = sample_world,
        inference: Inference | None = None,
    ) -> None:
        self.rng = rng
        self.move_time = move_time
        self.max_worlds = max_worlds
        self.min_worlds = min_worlds
        self.endgame_nodes = endgame_nodes
        self.endgame_tricks = endgame_tricks
        self.fixed_worlds = fixed_worlds
        self.make_world = worlds
        self.inference = inference
        self.last_weights: list[float] = []
        self.last_worlds = 0
        self.last_estimates: dict[Move, float] = {}
        """Each move's average of the seat's own points (sign-adjusted: lower is better) in
        the last search; a hint says why from these (:mod:`salad.bots.assist`)."""
        self._deadline = 0.0

    def choose(self, view: View, m: HandModel, moves: Sequence[Move]) -> Move:
        """The move with the best average own points over the sampled worlds."""
        start = time.perf_counter()
        deadline = self._deadline = start + self.move_time
        seat = view.seat
        sign = m.sign
        values: list[list[float]] = [[] for _ in moves]
        weights: list[float] = []
        weigh = None if self.inference is None else self.inference(view, m)
        alive = list(range(len(moves)))
        worlds = 0
        rng = self.rng
        exact_ok = view.phase is _PLAY and sum(view.hand_sizes) <= self.endgame_tricks * m.n
        timed = not self.fixed_worlds
        while worlds < self.max_worlds:
            if timed and worlds >= self.min_worlds:
                # Start no world that would likely end past the deadline: a move's time stays
                # within its budget instead of overshooting by one world.
                now = time.perf_counter()
                if now + (now - start) / worlds > deadline:
                    break
            base = self.make_world(view, m, rng)
            row = self._world(base, m, moves, alive, seat, exact_ok, worlds > 0)
            if row is None:  # the end of the hand is too big to search exactly
                exact_ok = False
                row = self._world(base, m, moves, alive, seat, False, worlds > 0)
                assert row is not None  # rollouts always finish
            late = timed and time.perf_counter() >= deadline
            if late and worlds and len(row) < len(alive):
                break  # out of time within this world: leave it out
            for i, value in zip(alive, row, strict=False):
                values[i].append(sign * value)
            weights.append(1.0 if weigh is None else weigh(base.hands))
            worlds += 1
            if late:
                break
            # Prune every few worlds, more rarely as they add up (each check reads them all).
            if worlds >= self.min_worlds and worlds % max(4, worlds // 8) == 0:
                alive = _survivors(values, weights, alive)
                if len(alive) == 1:
                    break
        self.last_worlds = worlds
        self.last_weights = weights
        self.last_estimates = {
            moves[i]: _total(v, weights) / sum(weights[: len(v)]) for i, v in enumerate(values) if v
        }
        best = min(alive, key=lambda i: _total(values[i], weights))
        return moves[best]

    def _world(
        self,
        base: Game,
        m: HandModel,
        moves: Sequence[Move],
        alive: Sequence[int],
        seat: int,
        exact: bool,
        may_cut: bool,
    ) -> list[float] | None:
        """The seat's points for the hand after each live move in one world (None when an
        exact search runs out of nodes); cut short past the deadline when ``may_cut``."""
        row: list[float] = []
        nodes = self.endgame_nodes if exact else None
        for i in alive:
            points = points_after(base, m, moves[i], seat, nodes)
            if points is None:
                return None
            row.append(points)
            if may_cut and not self.fixed_worlds and time.perf_counter() >= self._deadline:
                break
        return row


def _total(values: Sequence[float], weights: Sequence[float]) -> float:
    return sum(v * w for v, w in zip(values, weights, strict=False))


def _survivors(values: list[list[float]], weights: list[float], alive: list[int]) -> list[int]:
    """The moves not clearly worse than the best one, judged on the same (weighted) worlds."""
    best = min(alive, key=lambda i: _total(values[i], weights))
    vb = values[best]
    total_w = sum(weights)
    n_eff = total_w * total_w / sum(w * w for w in weights)
    keep = []
    for i in alive:
        if i == best:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(values[i], vb, strict=True)]
        mean = _total(diffs, weights) / total_w
        var = sum(w * (d - mean) ** 2 for d, w in zip(diffs, weights, strict=True)) / total_w
        if mean <= PRUNE_SE * math.sqrt(var / max(1.0, n_eff - 1)) + 1e-9:
            keep.append(i)
    return keep
