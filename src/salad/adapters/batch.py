"""A batched engine: N games of one ruleset stepped in lockstep on numpy arrays.

:class:`BatchGames` holds N whole games (every hand, dealing included) as arrays: each seat's
hand as ``uint64`` bitmask words (one word while the deck has at most 64 cards, two for the
extended game's two decks or Skip the Salad's Corn), the current trick, its leader, the seat
to move, the trump, the cards chosen to pass, each seat's tricks and cards taken, the running
penalty points and the totals. :meth:`BatchGames.legal_mask` gives an ``(N, moves)`` boolean
mask and :meth:`BatchGames.step` makes one move in every game: a card played (following suit,
Wilds at any time, declared high or low), passed, or a trump picked; then the trick's winner,
the hand's penalties (per trick, per card through each compiled penalty's card mask, the last
trick, a token), the moon, the next hand's deal and the game's end.

It plays every ruleset the reference engine plays (every preset, topping and setting) and
agrees with :class:`salad.engine.Game` move for move and point for point: tests/test_batch.py
plays both side by side, and ``benchmarks/batch_speed.py --games`` does so on 10,000 games per
preset (:func:`compare_with_engine`).

Every game of a batch makes its moves at the same steps: a hand is always the same number of
trump picks, passes and card plays, so the phase, the position in the trick, the trick number
and the hand number are one value for the whole batch, and every game ends at the same step.

>>> import numpy as np
>>> from salad import load_ruleset
>>> games = BatchGames(load_ruleset("canadian"), players=4, n=3, seed=1)
>>> games.legal_mask().shape
(3, 52)
>>> rng = np.random.default_rng(2)
>>> while not games.is_over():
...     games.step(games.random_legal(rng))
>>> games.points().sum(axis=1).tolist()  # every game hands out the checksum
[1120, 1120, 1120]
>>> games.hand_points.shape
(3, 6, 4)

With Wilds that may be declared high and a trump choice, a move is the engine's move number:

>>> skip = BatchGames(load_ruleset("skip-the-salad", {"toppings": "all"}), 4, n=2, seed=3)
>>> skip.phase.name, skip.moves, skip.legal_mask().shape
('PASS', 126, (2, 126))

A setting the batch does not play (none today) would be refused in one line that names it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
from numpy.typing import ArrayLike, NDArray

from salad.cards import CardMask, WildWins, cards_of
from salad.engine import Game, Phase
from salad.errors import RulesError, SaladError
from salad.events import HandScored
from salad.ruleset import CompiledRules, Kind, Moon, Ruleset

__all__ = ["Agreement", "BatchGames", "compare_with_engine", "not_covered"]

U64 = np.dtype("<u8")
"""Hand words are little-endian ``uint64``: their bytes are then the cards in order (a byte
view unpacks into cards with ``bitorder="little"``)."""

Words = NDArray[np.uint64]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]

_SELECT8 = np.array(
    [[(cards_of(b) + [0] * 8)[k] for k in range(8)] for b in range(256)], dtype=np.int64
)
"""``_SELECT8[b, k]``: the position of the ``k``-th set bit of byte ``b`` (lowest first)."""
_SELECT_FLAT = _SELECT8.ravel()
_FIRST = 1 << 40
"""Above any rank key of a trick: ``_FIRST - position`` makes the first such card win."""
_BYTES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)


def _select_bit(words: Words, k: NDArray[np.uint64]) -> Ints:
    """The position of the ``k[i]``-th set bit (0-based, lowest first) of each ``words[i]``,
    all at once: byte counts, their running sums in one multiplication, the byte that holds
    it by a bytewise compare, then a table for the bit within the byte."""
    x = np.ascontiguousarray(words, dtype=U64)
    counts = np.bitwise_count(x.view(np.uint8)).view(U64)  # each byte: its set bits
    running = counts * _BYTES  # byte j: the set bits of bytes 0..j (at most 64: no carry)
    # Bytes j with running_j <= k, counted: (k + 128 - running_j) keeps its high bit.
    byte = np.bitwise_count(((k * _BYTES) | _HIGHS) - running & _HIGHS).astype(np.uint64)
    shift = byte * np.uint64(8)
    before = ((running << np.uint64(8)) >> shift) & np.uint64(255)
    value = (x >> shift) & np.uint64(255)
    bit = _SELECT_FLAT[(value * np.uint64(8) + (k - before)).astype(np.int64)]
    out: Ints = shift.astype(np.int64) + bit
    return out


def _first_words(rows: list[Any]) -> Any:
    if rows and isinstance(rows[0], int):
        return rows[0]
    return [_first_words(r) for r in rows]


def _joined_words(rows: list[Any]) -> Any:
    if rows and isinstance(rows[0], int):
        return sum(w << (64 * k) for k, w in enumerate(rows))
    return [_joined_words(r) for r in rows]


def not_covered(ruleset: Ruleset, players: int) -> str:
    """The setting of ``ruleset`` at ``players`` that the batch engine does not play, in a few
    words ('' when it plays them all: every preset, topping and setting there is today; this
    guards against a penalty kind, moon rule or kind of Wild added later).

    >>> from salad import load_ruleset
    >>> not_covered(load_ruleset("skip-the-salad", {"toppings": "all"}), 8)
    ''
    """
    if ruleset.moon not in (Moon.NONE, Moon.OLD, Moon.NEGATIVE):
        return f"moon rule {int(ruleset.moon)}"
    rules = ruleset.compiled(players)
    for hand in rules.hands:
        for pen in hand.penalties:
            if pen.kind not in (Kind.TRICK, Kind.CARDS, Kind.LAST_TRICK, Kind.TOKEN):
                return f"penalty kind {int(pen.kind)} ({pen.penalty.id})"
    for wild in ruleset.deck.wilds:
        if wild.wins not in (WildWins.NEVER, WildWins.DECLARED, WildWins.ALWAYS):
            return f"wild cards that win {int(wild.wins)} ({wild.code})"
    return ""


class BatchGames:
    """``n`` whole games of ``ruleset`` at ``players`` seats, stepped together.

    ``seed`` seeds the numpy generator that deals (and draws each game's first dealer when
    ``first_dealer`` is not given: an int for every game, or one per game). With
    ``auto_deal=False`` the batch waits at each hand's start for :meth:`deal` (to play the
    deals of another engine); otherwise it deals its own, a uniform shuffle of the cards in
    play handed out one at a time from the dealer's left, as the reference engine does.

    A ruleset with a setting this engine does not cover (see :func:`not_covered`) raises
    :class:`~salad.errors.RulesError` in one line that names it.

    Moves are the reference engine's numbers (:mod:`salad.moves`): a card index plays (or
    passes) that card; with Wilds that may be declared high, ``card + deck size`` plays one
    high; in a trump choice, ``2 * deck size + suit`` picks the suit. ``moves`` is how many
    move numbers there are: the deck size where there are neither, else ``2 * size + suits``.

    State, all numpy arrays over the games (``N``) and seats (``P``); ``W`` words a hand:
    ``hands`` (N, P, W) ``uint64``, ``trick`` (N, P) the moves of the current trick in play
    order (-1 unplayed), ``leader``, ``to_move``, ``led`` (the led suit, -1), ``trump`` (-1
    for none), ``dealer`` (N,), ``passed`` (N, P, W) the cards chosen to pass, ``tricks_won``
    (N, P), ``taken`` (N, P, W) the cards each seat took this hand (kept where a moon can be
    shot), ``token`` (N,) its holder (-1), ``hand_points`` (N, hands, P) and ``totals`` (N, P).
    One value for the whole batch: ``phase`` (:class:`~salad.view.Phase`), ``hand_index``,
    ``trick_no`` and ``position`` (cards in the current trick). Read them anew after a step:
    a step may change an array in place or put a new one in its place (copy what you keep).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        players: int | None = None,
        n: int = 1,
        seed: int | None = None,
        *,
        first_dealer: int | ArrayLike | None = None,
        auto_deal: bool = True,
    ) -> None:
        p = ruleset.default_players if players is None else players
        rules = ruleset.compiled(p)
        missing = not_covered(ruleset, p)
        if missing:
            raise RulesError(f"batch engine: {missing} is not covered")
        if n < 1:
            raise SaladError(f"batch engine: n must be at least 1, not {n}")
        deck = rules.deck
        self.ruleset = ruleset
        self.rules: CompiledRules = rules
        self.players = p
        self.n = n
        self.size = deck.size
        self.suits = len(deck.suits)
        self.tricks = deck.cards_each
        self.words = (deck.size + 63) // 64
        self.auto_deal = auto_deal
        self.rng = np.random.default_rng(seed)
        self._games = np.arange(n)
        self._seats = np.arange(p)
        self._rows = self._games * p  # game g's seat s is row g * P + s of (N * P, ...) views
        self._setup_tables()
        w = self.words
        self.hands: Words = np.zeros((n, p, w), dtype=U64)
        self.passed: Words = np.zeros((n, p, w), dtype=U64)
        self.taken: Words = np.zeros((n, p, w), dtype=U64)
        self.trick: Ints = np.full((n, p), -1, dtype=np.int64)
        self._trick_bits: Words = np.zeros((n, w), dtype=U64)
        self.leader: Ints = np.zeros(n, dtype=np.int64)
        self.to_move: Ints = np.zeros(n, dtype=np.int64)
        self.led: Ints = np.full(n, -1, dtype=np.int64)
        self.trump: Ints = np.full(n, -1, dtype=np.int64)
        self.tricks_won: Ints = np.zeros((n, p), dtype=np.int64)
        self.token: Ints = np.full(n, -1, dtype=np.int64)
        self._running: Ints = np.zeros((n, p), dtype=np.int64)
        self.hand_points: Ints = np.zeros((n, len(rules.hands), p), dtype=np.int64)
        self.totals: Ints = np.zeros((n, p), dtype=np.int64)
        self.phase = Phase.DEAL
        self.hand_index = 0
        self.trick_no = 0
        self.position = 0
        self._passes = 0  # cards chosen to pass so far this hand (all seats)
        self._scored = False  # the last hand is scored and the next not dealt (or game over)
        self._legal: Words | None = None
        if first_dealer is None:
            dealers = self.rng.integers(0, p, size=n)
        else:
            dealers = np.broadcast_to(np.asarray(first_dealer, dtype=np.int64), (n,))
            if ((dealers < 0) | (dealers >= p)).any():
                raise SaladError(f"batch engine: a first dealer is not a seat of {p}")
        self.first_dealer: Ints = np.array(dealers, dtype=np.int64)
        self.dealer: Ints = self.first_dealer.copy()
        if auto_deal:
            self._deal_own()

    # -- tables ------------------------------------------------------------------------------
    def _setup_tables(self) -> None:
        rules = self.rules
        rs = self.ruleset
        deck = rules.deck
        w, d, p, s = self.words, deck.size, self.players, self.suits
        self._suit_of = np.array(deck.suit_of, dtype=np.int64)
        # _suit_words[s]: the cards of suit s; row S (no suit led yet): none.
        self._suit_words: Words = np.stack([self._to_words(m) for m in (*deck.suit_masks, 0)])
        self._wild_words = self._to_words(deck.wild_mask)
        self._declare_words = self._to_words(deck.declare_mask)
        self._wilds = bool(deck.wild_mask)
        self._declare = bool(deck.declare_mask)
        self._trumps = bool(rs.trump_first or rs.trump_chooser)
        self._fixed_trump = deck.parse_suit(rs.trump_first) if rs.trump_first else -1
        self._passing = rs.passing
        self._pass_offset = rs.pass_offset or p // 2
        self._plain = not (self._wilds or self._trumps)
        self.moves = d if not (self._declare or rs.trump_chooser) else 2 * d + s
        # Who wins a trick: the highest rank of the led suit (of trumps first), the later card
        # among identical copies (rules.md section 3). _led_key[s * D + c] is (rank + 1) * P
        # for a card of suit s, row S (no suit) zeros; plus its position in the trick, the
        # highest key wins. _trump_key rows lift a trump above every led card.
        self._led_key = np.zeros((s + 1) * d, dtype=np.int64)
        self._trump_key = np.zeros((s + 1) * d, dtype=np.int64)
        lift = (len(deck.spec.ranks) + 2) * p
        for c in range(d):
            if deck.suit_of[c] >= 0:
                self._led_key[deck.suit_of[c] * d + c] = (deck.rank_of[c] + 1) * p
                self._trump_key[deck.suit_of[c] * d + c] = lift + (deck.rank_of[c] + 1) * p
        always = [2 * (deck.always_mask >> c & 1) for c in range(d)]
        self._move_card = np.concatenate([np.arange(d), np.arange(d)])  # by move number
        self._move_special = np.array(always + [a or 1 for a in always], dtype=np.int64)
        self._card_word = np.arange(d, dtype=np.int64) >> 6
        self._card_bit = np.left_shift(np.uint64(1), (np.arange(d) & 63).astype(np.uint64))
        self._in_play = self._to_words(deck.in_play)
        cards = cards_of(deck.in_play)
        play_words = np.zeros((len(cards), w), dtype=U64)
        for i, c in enumerate(cards):
            play_words[i, c >> 6] = np.uint64(1) << np.uint64(c & 63)
        self._play_words: Words = play_words
        """Each card in play as mask words: a shuffle's cards summed by seat are its hands."""
        hands = rules.hands
        h = len(hands)
        self._card_points: Ints = np.zeros((h, d), dtype=np.int64)
        self._trick_points = np.zeros(h, dtype=np.int64)
        self._last_points = np.zeros(h, dtype=np.int64)
        self._token_points = np.zeros(h, dtype=np.int64)
        self._token_words: Words = np.zeros((h, w), dtype=U64)
        self._has_token = np.zeros(h, dtype=bool)
        # The moon, per hand: the conditions a shooter meets (rules.md sections 3 and 4).
        self._moon = [False] * h
        self._moon_tricks = [False] * h
        self._moon_last = [False] * h
        self._moon_token = [False] * h
        self._moon_masks: list[list[Words]] = [[] for _ in range(h)]
        for i, hand in enumerate(hands):
            counted = False
            for pen in hand.penalties:
                if pen.kind == Kind.TRICK:
                    self._trick_points[i] += pen.points
                    self._moon_tricks[i] = counted = True
                elif pen.kind == Kind.CARDS:
                    for c in cards_of(pen.mask):
                        self._card_points[i, c] += pen.points
                    self._moon_masks[i].append(self._to_words(pen.mask))
                    counted = counted or bool(pen.mask)
                elif pen.kind == Kind.LAST_TRICK:
                    self._last_points[i] += pen.points
                    self._moon_last[i] = counted = True
                else:
                    self._token_points[i] += pen.points
                    self._token_words[i] |= self._to_words(pen.mask)
                    self._has_token[i] = self._has_token[i] or bool(pen.mask)
                    self._moon_token[i] = True
            self._moon[i] = hand.moon and counted

    def _to_words(self, mask: CardMask) -> Words:
        """A mask as this batch's little-endian words."""
        return np.array([(mask >> (64 * k)) & (2**64 - 1) for k in range(self.words)], dtype=U64)

    # -- dealing -----------------------------------------------------------------------------
    def _deal_own(self) -> None:
        """Shuffle the cards in play for every game (a sort of uniform random keys) and deal
        them one at a time, clockwise from the dealer's left: seat ``dealer + 1 + j`` gets the
        shuffled cards ``j, j + P, j + 2P, ...``."""
        n, p, t, w = self.n, self.players, self.tricks, self.words
        order = self.rng.random((n, p * t)).argsort(axis=1)
        # Position t * P + j of the shuffle goes to seat offset j; a hand is its cards' sum.
        by_offset = self._play_words[order].reshape(n, t, p, w).sum(axis=1, dtype=U64)
        hands = np.empty((n, p, w), dtype=U64)
        seats = (self.dealer[:, None] + 1 + self._seats) % p
        hands.reshape(n * p, w)[(self._rows[:, None] + seats).ravel()] = by_offset.reshape(n * p, w)
        self._start_hand(hands)

    def deal(self, hands: ArrayLike | Sequence[Sequence[CardMask]]) -> None:
        """Give every game its hands for the next hand: ``hands[g][s]`` is seat ``s``'s mask
        in game ``g`` (Python ints, or a ``uint64`` array of shape (N, P) or (N, P, W)).

        Only when the batch waits for a deal (``auto_deal=False``); each game's hands must hold
        the deck's cards in play, each once, ``tricks`` to a seat.
        """
        if self.phase is not Phase.DEAL:
            raise SaladError("deal: the batch is not waiting for a deal")
        n, p, w = self.n, self.players, self.words
        arr = np.asarray(hands, dtype=object if not isinstance(hands, np.ndarray) else None)
        if arr.dtype == object:
            if arr.shape != (n, p):
                raise SaladError(f"deal: hands of shape {arr.shape}, not ({n}, {p})")
            words = np.array(
                [
                    [[(int(m) >> (64 * k)) & (2**64 - 1) for k in range(w)] for m in row]
                    for row in arr
                ],
                dtype=U64,
            )
        else:
            words = arr.astype(U64).reshape(n, p, -1)
            if words.shape != (n, p, w):
                raise SaladError(f"deal: hands of shape {arr.shape}, not ({n}, {p}, {w})")
        counts = np.bitwise_count(words).sum(axis=2, dtype=np.int64)
        bad = np.flatnonzero((counts != self.tricks).any(axis=1))
        if bad.size:
            raise SaladError(f"deal: game {bad[0]} has a seat without {self.tricks} cards")
        union = np.bitwise_or.reduce(words, axis=1)
        full = (union == self._in_play).all(axis=1) & (
            np.bitwise_count(union).sum(axis=1, dtype=np.int64) == p * self.tricks
        )
        bad = np.flatnonzero(~full)
        if bad.size:
            raise SaladError(f"deal: game {bad[0]}'s hands do not hold exactly the cards in play")
        self._start_hand(np.ascontiguousarray(words))

    def _start_hand(self, hands: Words) -> None:
        self.hands = hands
        self.passed.fill(0)
        self.taken.fill(0)
        self.trick.fill(-1)
        self._trick_bits.fill(0)
        self.led.fill(-1)
        self.tricks_won.fill(0)
        self.token.fill(-1)
        self._running.fill(0)
        self.trick_no = 0
        self.position = 0
        self._passes = 0
        self._scored = False
        self._legal = None
        self.leader = (self.dealer + 1) % self.players
        self.to_move = self.leader.copy()
        # The trump (rules.md section 4, Spicy Pepper): a fixed suit in the first hand, or in
        # every hand without a chooser; later the seat in last place picks it.
        rs = self.ruleset
        self.trump.fill(-1)
        if self._fixed_trump >= 0 and (self.hand_index == 0 or not rs.trump_chooser):
            self.trump.fill(self._fixed_trump)
        elif rs.trump_chooser and self.hand_index > 0:
            self.phase = Phase.TRUMP
            self.to_move = self._last_place()
            return
        self._begin_passing()

    def _last_place(self) -> Ints:
        """The seat in last place in each game; ties go to the one nearest the dealer's left."""
        order = (self.dealer[:, None] + 1 + self._seats) % self.players
        totals = self.totals[self._games[:, None], order]
        pick = totals.argmin(axis=1) if self.ruleset.highest_wins else totals.argmax(axis=1)
        out: Ints = order[self._games, pick]
        return out

    def _begin_passing(self) -> None:
        self.to_move = (self.dealer + 1) % self.players
        self.phase = Phase.PASS if self._passing else Phase.PLAY

    def _exchange(self) -> None:
        """Every seat gives its chosen cards to the seat ``pass_offset`` on (right: -1)."""
        p = self.players
        self.hands &= ~self.passed
        self.hands |= np.roll(self.passed, self._pass_offset, axis=1)
        self.phase = Phase.PLAY
        self.to_move = (self.dealer + 1) % p

    # -- moves -------------------------------------------------------------------------------
    def legal_words(self) -> Words:
        """The cards the seat to move may play (or pass) in every game, as (N, W) mask words
        (zeros in a trump choice, while the batch waits for a deal, or when it is over).
        A Wild among them that may be declared high may also be played as ``card + size``."""
        if self._legal is not None:
            return self._legal
        if self.phase is Phase.PLAY:
            h = self.hands.reshape(-1, self.words)[self._rows + self.to_move]
            if self._plain:
                if self.position:
                    follow = h & self._suit_words[self.led]
                    if self.words == 1:
                        h = np.where(follow != 0, follow, h)
                    else:
                        h = np.where((follow != 0).any(axis=1, keepdims=True), follow, h)
            elif self.position:  # a Wild may be played at any time; a led Wild sets no suit
                follow = h & self._suit_words[self.led]
                can = follow != 0
                if self.words > 1:
                    can = can.any(axis=1, keepdims=True)
                h = np.where(can, follow | (h & self._wild_words), h)
        elif self.phase is Phase.PASS:
            at = self._rows + self.to_move
            h = self.hands.reshape(-1, self.words)[at] & ~self.passed.reshape(-1, self.words)[at]
        else:
            h = np.zeros((self.n, self.words), dtype=U64)
        legal: Words = h
        self._legal = legal
        return legal

    def legal_mask(self) -> Bools:
        """(N, ``moves``) booleans: the moves the seat to move may make in each game (the
        cards it may play or pass; with declarable Wilds, ``card + size`` for each declared
        high; in a trump choice, ``2 * size + suit`` for every suit)."""
        cards = self.unpack(self.legal_words())
        if self.moves == self.size:
            return cards
        out = np.zeros((self.n, self.moves), dtype=bool)
        d = self.size
        out[:, :d] = cards
        if self.phase is Phase.PLAY and self._declare:
            out[:, d : 2 * d] = self.unpack(self.legal_words() & self._declare_words)
        elif self.phase is Phase.TRUMP:
            out[:, 2 * d :] = True
        return out

    def unpack(self, words: Words) -> Bools:
        """Mask words (..., W) as booleans (..., deck size)."""
        raw = np.ascontiguousarray(words, dtype=U64).view(np.uint8)
        return np.unpackbits(raw, axis=-1, count=self.size, bitorder="little").view(bool)

    def random_legal(self, rng: np.random.Generator) -> Ints:
        """One legal move per game, uniformly at random among the legal moves, drawn from
        ``rng`` (one uniform draw a game: the ``k``-th legal move, ``k = floor(u * count)``)."""
        if self.phase is Phase.DEAL or self.phase is Phase.OVER:
            raise SaladError(f"random_legal: no move is possible in the {self.phase.name} phase")
        u = rng.random(self.n)
        if self.phase is Phase.TRUMP:
            out: Ints = 2 * self.size + (u * self.suits).astype(np.int64)
            return out
        legal = self.legal_words()
        declare = self._declare and self.phase is Phase.PLAY
        if self.words == 1:
            x = legal[:, 0]
            counts = np.bitwise_count(x).astype(np.int64)
            if not declare:
                return _select_bit(x, (u * counts).astype(np.uint64))
            high = x & self._declare_words[0]
            k = (u * (counts + np.bitwise_count(high))).astype(np.int64)
            up = k >= counts  # the k-th move is a Wild declared high
            card = _select_bit(np.where(up, high, x), np.where(up, k - counts, k).astype(np.uint64))
            out = card + np.where(up, self.size, 0)
            return out
        counts = np.bitwise_count(legal).sum(axis=1, dtype=np.int64)
        if not declare:
            return self._select(legal, (u * counts).astype(np.int64))
        highs_w = legal & self._declare_words
        highs = np.bitwise_count(highs_w).sum(axis=1, dtype=np.int64)
        k = (u * (counts + highs)).astype(np.int64)
        up = k >= counts
        card = self._select(np.where(up[:, None], highs_w, legal), np.where(up, k - counts, k))
        out = card + np.where(up, self.size, 0)
        return out

    def _select(self, words: Words, k: Ints) -> Ints:
        """The ``k[g]``-th set bit (0-based) of each game's mask words."""
        if self.words == 1:
            return _select_bit(words[:, 0], k.astype(np.uint64))
        counts = np.bitwise_count(words).astype(np.int64)
        before = counts.cumsum(axis=1) - counts  # set bits in the words below each word
        word = (before <= k[:, None]).sum(axis=1) - 1
        flat = self._games * self.words + word
        within = (k - before.ravel()[flat]).astype(np.uint64)
        out: Ints = word * 64 + _select_bit(words.ravel()[flat], within)
        return out

    def step(self, moves: ArrayLike) -> None:
        """Make ``moves[g]`` for the seat to move in every game ``g``; an illegal move raises
        :class:`~salad.errors.SaladError` naming the first game that has one."""
        if self.phase is Phase.OVER:
            raise SaladError("step: the games are over")
        if self.phase is Phase.DEAL:
            raise SaladError("step: the batch waits for a deal")
        m = np.asarray(moves)
        if m.shape != (self.n,) or m.dtype.kind not in "iu":
            raise SaladError(f"step: {m.shape} {m.dtype} moves, not ({self.n},) integers")
        m = m.astype(np.int64, copy=False)
        if self.phase is Phase.TRUMP:
            self._choose_trump(m)
            return
        d = self.size
        top = 2 * d if self._declare and self.phase is Phase.PLAY else d
        if m.min() < 0 or m.max() >= top:
            self._refuse(m, (m >= 0) & (m < top))
        c = m if top == d else self._move_card[m]
        legal = self.legal_words()
        word = self._card_word[c]
        bit = self._card_bit[c]
        w = self.words
        games = self._games
        held = legal[:, 0] if w == 1 else legal.ravel()[games * w + word]
        ok = (held & bit) != 0
        if top != d:  # only a Wild that may be declared may be played high
            dec = self._declare_words[word]
            ok &= (m < d) | ((dec & bit) != 0)
        if not ok.all():
            self._refuse(m, ok)
        self._legal = None
        if self.phase is Phase.PASS:
            self._pass(word, bit)
            return
        self.hands.reshape(-1)[(self._rows + self.to_move) * w + word] ^= bit
        if w == 1:
            self._trick_bits[:, 0] |= bit
        else:
            self._trick_bits.reshape(-1)[games * w + word] |= bit
        pos = self.position
        self.trick[:, pos] = m
        if self._wilds:  # the first suited card sets the led suit
            self.led = np.where(self.led < 0, self._suit_of[c], self.led)
        elif pos == 0:
            self.led = self._suit_of[c]
        pos += 1
        if pos < self.players:
            self.position = pos
            self.to_move = self.leader + pos
            self.to_move %= self.players
            return
        self._finish_trick()

    def _refuse(self, moves: Ints, ok: Bools) -> NoReturn:
        g = int(np.flatnonzero(~ok)[0])
        raise SaladError(
            f"step: game {g}: seat {int(self.to_move[g])} cannot make move {int(moves[g])}"
        )

    def _choose_trump(self, m: Ints) -> None:
        suit = m - 2 * self.size
        ok = (suit >= 0) & (suit < self.suits)
        if not ok.all():
            self._refuse(m, ok)
        self.trump = suit
        self._legal = None
        self._begin_passing()

    def _pass(self, word: Ints, bit: Words) -> None:
        w = self.words
        self.passed.reshape(-1)[(self._rows + self.to_move) * w + word] |= bit
        self._passes += 1
        if self._passes % self._passing == 0:
            self.to_move = (self.to_move + 1) % self.players
            if self._passes == self._passing * self.players:
                self._exchange()

    def _finish_trick(self) -> None:
        p = self.players
        h = self.hand_index
        rows = self._rows
        trick = self.trick
        d = self.size
        if self._plain:
            cards = trick
            key = self._led_key[(self.led * d)[:, None] + cards]
            key += self._seats
            wins = key.argmax(axis=1)
        else:
            wins, cards = self._trick_winner()
        winner = self.leader + wins
        winner %= p
        at = rows + winner
        self._running.reshape(-1)[at] += (
            self._card_points[h][cards].sum(axis=1) + self._trick_points[h]
        )
        self.tricks_won.reshape(-1)[at] += 1
        if self._moon[h]:
            self.taken.reshape(-1, self.words)[at] |= self._trick_bits
        if self._has_token[h]:
            hit = (self._trick_bits & self._token_words[h]).any(axis=1)
            self.token = np.where(hit, winner, self.token)
        self.trick_no += 1
        self.position = 0
        self.trick.fill(-1)
        self._trick_bits.fill(0)
        self.led.fill(-1)
        self.leader = winner
        self.to_move = winner.copy()
        if self.trick_no == self.tricks:
            self._score_hand(winner)

    def _trick_winner(self) -> tuple[Ints, Ints]:
        """The winning position of each full trick and its cards, with Wilds and trumps: a card
        that always wins (the first such), else in a trick of Wilds only the first card, else
        the first Wild declared high, else the highest trump, else the highest of the led suit
        (rules.md sections 3 and 4)."""
        d = self.size
        trick = self.trick
        cards = self._move_card[trick]
        # No led suit or no trump (-1) reads the tables' last row, all zeros.
        key = self._led_key[(self.led * d)[:, None] + cards]
        if self._trumps:
            key += self._trump_key[(self.trump * d)[:, None] + cards]
        key += self._seats  # the later of identical cards
        special = self._move_special[trick]  # 2: wins always, 1: a Wild declared high
        key = np.where(special > 0, special * _FIRST - self._seats, key)  # the first one wins
        wins = key.argmax(axis=1)
        if self._wilds:
            wild_only = ((self._trick_bits & ~self._wild_words) == 0).all(axis=1)
            wild_only &= (special < 2).all(axis=1)
            wins = np.where(wild_only, 0, wins)
        return wins, cards

    def _score_hand(self, last: Ints) -> None:
        h = self.hand_index
        points = self._penalties(last)
        if self._moon[h]:
            points = self._with_moon(h, points, last)
        self.hand_points[:, h] = points
        self.totals += points
        self._scored = True
        self.phase = Phase.DEAL
        self.hand_index += 1
        if self.hand_index == len(self.rules.hands):
            self.phase = Phase.OVER
            return
        self.dealer = (self.dealer + 1) % self.players
        if self.auto_deal:
            self._deal_own()

    def _penalties(self, last: Ints | None) -> Ints:
        """Each seat's penalty points this hand, before any moon (``last``: the last trick's
        winner, None while unplayed)."""
        h = self.hand_index
        points = self._running.copy()
        ar = self._games
        if last is not None:
            points[ar, last] += self._last_points[h]
        if self._token_points[h]:
            held = self.token >= 0
            points[ar[held], self.token[held]] += self._token_points[h]
        return points

    def _with_moon(self, h: int, points: Ints, last: Ints) -> Ints:
        seats = self._seats
        ok = np.ones((self.n, self.players), dtype=bool)
        if self._moon_tricks[h]:
            ok &= self.tricks_won == self.tricks
        for m in self._moon_masks[h]:
            ok &= ((self.taken & m) == m).all(axis=2)
        if self._moon_last[h]:
            ok &= seats == last[:, None]
        if self._moon_token[h]:
            ok &= (self.token[:, None] == seats) | (self.token[:, None] < 0)
        shot = ok.any(axis=1)
        if not shot.any():
            return points
        shooter = ok.argmax(axis=1)
        ar = self._games
        out = points.copy()
        if self.ruleset.moon == Moon.OLD:
            out[shot] = self.ruleset.moon_points
            out[ar[shot], shooter[shot]] = 0
        else:
            out[ar[shot], shooter[shot]] = -points[ar[shot], shooter[shot]]
        return out

    # -- queries -----------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def waiting(self) -> bool:
        """Whether the batch waits for :meth:`deal` (``auto_deal=False``, at a hand's start)."""
        return self.phase is Phase.DEAL

    def points(self) -> Ints:
        """(N, P): each game's totals so far (the finished hands)."""
        return self.totals.copy()

    def running_points(self) -> Ints:
        """(N, P): this hand's penalties so far, as :meth:`salad.engine.Game.running_points`
        gives them: without the last trick's penalty while it is unplayed; once the hand is
        scored and the next not dealt (or the game is over), the hand's points as scored."""
        if self._scored:
            return self.hand_points[:, self.hand_index - 1].copy()
        return self._penalties(None)

    def legal_moves_masks(self) -> list[int]:
        """Each game's legal moves as one Python mask over the move numbers (bit ``m`` for
        move ``m``): a slow, exact form for comparisons."""
        cards: list[int] = self.masks(self.legal_words())
        d = self.size
        if self.phase is Phase.TRUMP:
            return [((1 << self.suits) - 1) << (2 * d)] * self.n
        if self.phase is Phase.PLAY and self._declare:
            highs: list[int] = self.masks(self.legal_words() & self._declare_words)
            return [c | h << d for c, h in zip(cards, highs, strict=True)]
        return cards

    def hand_masks(self, game: int) -> list[CardMask]:
        """The hands of one game as Python masks (seat by seat)."""
        return list(self.masks(self.hands[game]))

    def masks(self, words: Words) -> Any:
        """Mask words (..., W) as (nested) lists of Python masks."""
        rows: list[Any] = words.tolist()
        if self.words == 1:
            return _first_words(rows)
        return _joined_words(rows)

    def __repr__(self) -> str:
        return (
            f"<BatchGames {self.ruleset.preset} {self.players}p x{self.n} "
            f"hand {self.hand_index + 1} trick {self.trick_no + 1} {self.phase.name.lower()}>"
        )


# -- the differential check -------------------------------------------------------------------
Chooser = Callable[[Game, list[int], random.Random], int]
"""Picks a card for a reference game from its legal moves (a seeded ``random.Random``)."""


def random_choice(game: Game, legal: list[int], rng: random.Random) -> int:
    """The default chooser: a legal card uniformly at random."""
    return rng.choice(legal)


@dataclass
class Agreement:
    """What :func:`compare_with_engine` found."""

    games: int
    agreed: int
    """Games in which both engines agreed at every step and at the end."""
    plays: int
    """Card plays made in each engine (every game's)."""
    moons: int
    """Moons shot in the reference games (so a run says whether it checked the moon rules)."""
    first_difference: str
    """The first difference found, in one line ('' when every game agreed)."""


def compare_with_engine(
    ruleset: Ruleset,
    players: int,
    n: int,
    seed: int,
    *,
    batch_deals: bool = True,
    choose: Chooser = random_choice,
    full_state: bool = True,
) -> Agreement:
    """Play ``n`` games in a batch and in ``n`` reference :class:`~salad.engine.Game` objects,
    dealt the same cards: the batch's own deals (``batch_deals``, each checked whole by the
    reference's :meth:`~salad.engine.Game.deal`) or the reference's seeded ones. At every step
    both must be in the same phase with the same seat to move and the same legal moves (and,
    with ``full_state``, the same hands, cards chosen to pass, trick so far, led suit, trump
    and token holder); the same move, ``choose``-n among the reference's legal moves, is made
    in both; after every trick, pass and trump pick the running points must agree, at the end
    every hand's points and the totals. A game that differs is counted out and no longer
    checked (the batch plays on with its own first legal card).
    """
    rng = random.Random(seed)
    if batch_deals:
        batch = BatchGames(ruleset, players, n, seed=seed)
        games = [
            Game(ruleset, players, first_dealer=int(batch.first_dealer[i]), auto_deal=False)
            for i in range(n)
        ]
    else:
        games = [Game(ruleset, players, seed=seed * 1_000_003 + i) for i in range(n)]
        batch = BatchGames(
            ruleset, players, n, first_dealer=[g.first_dealer for g in games], auto_deal=False
        )
    alive = [True] * n
    first: list[str] = []
    last_deal: list[list[CardMask]] = [[] for _ in range(n)]

    def differ(i: int, what: str) -> None:
        if alive[i]:
            alive[i] = False
            if not first:
                first.append(f"game {i}, hand {batch.hand_index}, trick {batch.trick_no}: {what}")

    plays = 0
    while not batch.is_over():
        if batch_deals:
            if batch.trick_no == 0 and batch.position == 0:
                for i, g in enumerate(games):
                    if alive[i] and g.phase is Phase.DEAL:
                        try:
                            g.deal(batch.hand_masks(i))
                        except SaladError as exc:
                            differ(i, f"the batch's deal: {exc}")
        elif batch.waiting:
            for i, g in enumerate(games):
                fresh = g.trick_no == 0 and not g.trick and not any(g.passed)
                if alive[i] and fresh and g.phase in (Phase.TRUMP, Phase.PASS, Phase.PLAY):
                    last_deal[i] = list(g.hands)
                elif alive[i]:
                    differ(i, f"the reference is not at a hand's start ({g.phase.name})")
            batch.deal(last_deal)
        legal_masks = batch.legal_moves_masks()
        hands = batch.masks(batch.hands) if full_state else []
        passed = batch.masks(batch.passed) if full_state else []
        tricks = batch.trick[:, : batch.position].tolist()
        led, trump, token = batch.led.tolist(), batch.trump.tolist(), batch.token.tolist()
        first_legal = batch.legal_mask().argmax(axis=1)
        cards: list[int] = []
        for i, g in enumerate(games):
            if alive[i]:
                legal = g.legal_moves()
                bits = 0
                for c in legal:
                    bits |= 1 << c
                if g.phase != batch.phase:
                    differ(i, f"phase {g.phase.name} (reference) != {batch.phase.name} (batch)")
                elif g.to_move != batch.to_move[i]:
                    differ(i, f"seat to move {g.to_move} (reference) != {batch.to_move[i]}")
                elif full_state and g.hands != hands[i]:
                    differ(i, "the hands differ")
                elif full_state and g.passed != passed[i]:
                    differ(i, "the cards chosen to pass differ")
                elif full_state and (g.trick, g.led, g.trump, g.token) != (
                    tricks[i],
                    led[i],
                    trump[i],
                    token[i],
                ):
                    differ(i, f"trick, led suit, trump, token {g.trick, g.led, g.trump, g.token}")
                elif bits != legal_masks[i]:
                    theirs = cards_of(legal_masks[i])  # move numbers, as bits
                    differ(i, f"legal {legal} (reference) != {theirs} (batch)")
            if not alive[i]:
                cards.append(int(first_legal[i]))
                continue
            card = choose(g, legal, rng)
            g.play(card)
            cards.append(card)
        hand = batch.hand_index
        batch.step(cards)
        plays += n
        if batch.hand_index != hand:  # the hand is over: its points, or the next hand's
            running = batch.hand_points[:, hand]
            if not batch_deals and not batch.is_over():
                running = np.zeros_like(running)  # the reference dealt the next hand
        elif batch.position == 0:  # a trick is done (or a pass, or a trump picked)
            running = batch.running_points()
        if batch.position == 0:
            for i, g in enumerate(games):
                if alive[i] and g.running_points() != running[i].tolist():
                    differ(i, f"running points {g.running_points()} != {running[i].tolist()}")
    moons = 0
    for i, g in enumerate(games):
        moons += sum(1 for e in g.events if isinstance(e, HandScored) and e.moon >= 0)
        if not alive[i]:
            continue
        if not g.is_over():
            differ(i, "the reference game is not over when the batch is")
        elif [list(p) for p in g.hand_points] != batch.hand_points[i].tolist():
            differ(i, f"hand points {g.hand_points} != {batch.hand_points[i].tolist()}")
        elif g.totals != batch.totals[i].tolist():
            differ(i, f"totals {g.totals} != {batch.totals[i].tolist()}")
    return Agreement(n, sum(alive), plays, moons, first[0] if first else "")
