"""The game state machine: deal, pass, choose trump, play, score; one event log behind it all.

>>> from salad import Game, load_ruleset
>>> game = Game(load_ruleset("canadian"), players=4, seed=7)
>>> game.to_move == (game.dealer + 1) % 4
True
>>> while not game.is_over():
...     game.play(game.legal_moves()[0])
>>> sum(game.totals)
1120

Moves are integers (see :mod:`salad.events`): a card index plays (or passes) that card, a card
index plus ``deck.size`` plays a declaring Wild high, and ``2 * deck.size + suit`` picks a trump.
"""

from __future__ import annotations

import random
import secrets
import threading
from _random import Random as _CRandom
from collections.abc import Sequence
from functools import reduce
from hashlib import sha512
from operator import or_
from typing import NoReturn

from salad.cards import NO_SUIT, Card, CardMask, Deck, cards_of
from salad.errors import IllegalMoveError, SaladError
from salad.events import (
    DEAL,
    DRAW,
    END,
    EXCHANGE,
    PASS,
    PLAY,
    SCORE,
    TOKEN,
    TRICK,
    TRUMP,
    Event,
    typed,
)
from salad.moves import Move, format_move, parse_move
from salad.ruleset import CompiledHand, CompiledRules, Kind, Ruleset
from salad.scoring import card_counts, penalty_points, score_hand, standings
from salad.view import SPECTATOR, CompletedTrick, Phase, View

__all__ = ["Game", "Phase", "View", "Move", "SPECTATOR"]

_DEAL, _TRUMP, _PASS, _PLAY, _OVER = (
    Phase.DEAL,
    Phase.TRUMP,
    Phase.PASS,
    Phase.PLAY,
    Phase.OVER,
)


class Game:
    """A whole game of any ruleset, from the first-dealer draw to the final totals.

    ``seed`` makes every deal reproducible (a random one is drawn when omitted); with
    ``auto_deal=False`` the game stops at each hand's deal for :meth:`deal` (replays, real cards).
    """

    __slots__ = (
        "ruleset",
        "rules",
        "deck",
        "players",
        "seed",
        "first_dealer",
        "auto_deal",
        "hand_index",
        "dealer",
        "phase",
        "to_move",
        "hands",
        "leader",
        "trick",
        "trick_mask",
        "led",
        "trick_no",
        "taken",
        "tricks_won",
        "token",
        "trump",
        "hand_points",
        "totals",
        "passed",
        "received",
        "_log",
        "_size",
        "_suit_masks",
        "_wild_mask",
        "_suit_of",
        "_simple",
        "_hand",
        "_token_mask",
        "_tricks",
        "_pass_left",
        "_next",
        "_follow_ok",
        "_moves",
        "_blocks",
        "_tables",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        players: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        auto_deal: bool = True,
    ) -> None:
        n = ruleset.default_players if players is None else players
        rules = ruleset.compiled(n)
        deck = rules.deck
        self.ruleset = ruleset
        self.rules = rules
        self.deck = deck
        self.players = n
        self.auto_deal = auto_deal
        self.seed = secrets.randbelow(2**63) if seed is None and auto_deal else seed
        self._size = deck.size
        self._suit_masks = deck.suit_masks
        self._wild_mask = deck.wild_mask
        self._suit_of = deck.suit_of
        self._tricks = deck.cards_each
        self._attach_tables()
        self._log: list[tuple[object, ...]] = []
        self.hand_points: list[tuple[int, ...]] = []
        self.totals = [0] * n
        self.hand_index = 0
        self.trump = NO_SUIT
        if first_dealer is None:
            first_dealer = self._draw_for_dealer()
        elif not 0 <= first_dealer < n:
            raise SaladError(f"first dealer: seat {first_dealer} is not at a {n}-seat table")
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self._reset_hand()
        self.phase = _DEAL
        self.to_move = -1
        if auto_deal:
            self._auto_deal()

    # -- setting up -----------------------------------------------------------------------
    def _attach_tables(self) -> None:
        """Point the hot paths at the look-up tables shared by every game of these rules."""
        tables = _tables_for(self.rules)
        self._tables = tables
        self._next = tables.next_seat
        self._follow_ok = tables.follow_ok
        self._moves = tables.moves
        self._blocks = tables.blocks
        self._simple = tables.simple

    def __getstate__(self) -> dict[str, object]:
        """A pickle (or deepcopy) leaves out the shared tables; they are found again on load."""
        return {name: getattr(self, name) for name in _STATE}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._attach_tables()

    def _draw_for_dealer(self) -> int:
        """Every player draws a card; the highest rank deals; tied players draw again."""
        if self.seed is None:
            raise SaladError("first dealer: give first_dealer when the game has no seed")
        rng = _seeded(f"salad:{self.seed}:draw")
        deck = self.deck
        ordinary = [c for c in range(deck.size) if deck.suit_of[c] != NO_SUIT]
        drawing = list(range(self.players))
        rounds = []
        while True:
            cards = rng.sample(ordinary, len(drawing))
            rounds.append(tuple(zip(drawing, cards, strict=True)))
            best = max(deck.rank_of[c] for c in cards)
            drawing = [s for s, c in zip(drawing, cards, strict=True) if deck.rank_of[c] == best]
            if len(drawing) == 1:
                self._log.append((DRAW, tuple(rounds), drawing[0]))
                return drawing[0]

    def _reset_hand(self) -> None:
        n = self.players
        self.hands = [0] * n
        self.trick: list[Move] = []
        self.trick_mask = 0
        self.led = NO_SUIT
        self.trick_no = 0
        self.leader = (self.dealer + 1) % n
        self.taken = [0] * n
        self.tricks_won = [0] * n
        self.token = -1
        self.passed = [0] * n
        self.received = [0] * n
        self._pass_left = 0
        index = min(self.hand_index, len(self.rules.hands) - 1)
        self._hand: CompiledHand = self.rules.hands[index]
        self._token_mask = self._tables.token_masks[index]

    def _auto_deal(self) -> None:
        # The same deal as ``random.Random(f"salad:{seed}:{hand}").shuffle(cards)`` (a test
        # checks it), without building a generator each hand or shuffle's call per card.
        rng = _seeded(f"salad:{self.seed}:{self.hand_index}")
        bits = self._tables.card_bits[:]  # the cards in play, as their bits
        getrandbits = rng.getrandbits
        for i, k in self._tables.shuffle_steps:
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            bits[i], bits[j] = bits[j], bits[i]
        n = self.players
        # One card at a time, clockwise from the dealer's left: seat dealer+1+j gets cards[j::n].
        hands = [0] * n
        for j in range(n):
            hands[(self.dealer + 1 + j) % n] = sum(bits[j::n])
        self._dealt(hands)  # a shuffle of the cards in play: nothing to check

    def deal(self, hands: Sequence[CardMask]) -> None:
        """Give each seat its cards for the next hand (a chance node's outcome)."""
        if self.phase != _DEAL:
            raise SaladError(f"deal: the game is in the {self.phase.name.lower()} phase")
        n = self.players
        if len(hands) != n:
            raise SaladError(f"deal: {len(hands)} hands for {n} players")
        union = 0
        for seat, h in enumerate(hands):
            if h.bit_count() != self._tricks:
                raise SaladError(f"deal: seat {seat} has {h.bit_count()} cards, not {self._tricks}")
            if union & h:
                raise SaladError(f"deal: seat {seat} holds a card dealt twice")
            union |= h
        if union != self.deck.in_play:
            raise SaladError("deal: the hands do not hold exactly the cards in play")
        self._dealt(list(hands))

    def _dealt(self, hands: list[CardMask]) -> None:
        self._reset_hand()
        self.hands = hands
        self._log.append((DEAL, self.hand_index, self.dealer, tuple(hands)))
        self._begin_hand()

    def _begin_hand(self) -> None:
        rs = self.ruleset
        self.trump = NO_SUIT
        if rs.trump_first and (self.hand_index == 0 or not rs.trump_chooser):
            self.trump = self.deck.parse_suit(rs.trump_first)
            self._log.append((TRUMP, self.hand_index, -1, self.trump))
        elif rs.trump_chooser and self.hand_index > 0:
            self.phase = _TRUMP
            self.to_move = self.last_place()
            return
        self._begin_passing()

    def _begin_passing(self) -> None:
        if self.ruleset.passing:
            self.phase = _PASS
            self.to_move = (self.dealer + 1) % self.players
            self._pass_left = self.ruleset.passing
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        self.phase = _PLAY
        self.to_move = self.leader = (self.dealer + 1) % self.players

    def last_place(self) -> int:
        """The seat in last place; ties go to the one nearest the dealer's left."""
        n = self.players
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        if self.ruleset.highest_wins:
            return min(order, key=lambda s: self.totals[s])
        return max(order, key=lambda s: self.totals[s])

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move, lowest first (empty when the game waits)."""
        if self.phase is not _PLAY:
            return self._other_legal()
        h = self.hands[self.to_move]
        blocks = self._blocks
        led = self.led
        if led >= 0:
            follow = h & self._suit_masks[led]
            if follow:
                if self._simple:  # the suit is one block (below): one look-up
                    try:
                        return [*self._moves[follow]]
                    except KeyError:
                        return [*self._tables.card_list(follow)]
                h = follow | (h & self._wild_mask)
                blocks = self._tables.follow_blocks[led]
        # The cards come a block at a time, each block's list looked up by its mask (a plain
        # dict and KeyError: a dict subclass with __missing__ looks up at half the speed).
        moves = self._moves
        out: list[Move] = []
        try:
            for block in blocks:
                out += moves[h & block]
        except KeyError:
            out = []
            for block in blocks:
                part = h & block
                got = moves.get(part)
                out += self._tables.card_list(part) if got is None else got
        if h & self._tables.declare:
            size = self._size
            declare = self._tables.declare
            out += [c + size for c in out if declare >> c & 1]
        return out

    def _other_legal(self) -> list[Move]:
        if self.phase == _PASS:
            return cards_of(self.hands[self.to_move] & ~self.passed[self.to_move])
        if self.phase == _TRUMP:
            base = 2 * self._size
            return [base + s for s in range(len(self.deck.suits))]
        return []

    def play(self, move: Move | str) -> None:
        """Make a move for the seat to move; an illegal one raises ``IllegalMoveError``."""
        # The hot path: a plain card play that is legal. Anything else (text, a Wild declared
        # high, another phase, an illegal move and its error) goes the long way round.
        if self.phase is _PLAY:
            seat = self.to_move
            hands = self.hands
            h = hands[seat]
            card: int = move  # type: ignore[assignment]  # text fails the look-up below
            try:
                bit = _BIT[card]
            except (IndexError, TypeError):
                bit = 0  # text, or not a card of this deck
            # A negative move or a Wild declared high (card + deck size) is not in the hand.
            if h & bit and card >= 0:
                led = self.led
                if led < 0:
                    self.led = self._suit_of[card]
                elif not bit & self._follow_ok[led] and h & self._suit_masks[led]:
                    self._play_checked(move)  # raises must-follow
                    return
                hands[seat] = h ^ bit
                trick = self.trick
                trick.append(card)
                self.trick_mask |= bit
                self._log.append((PLAY, seat, card))
                if len(trick) == self.players:
                    self._finish_trick()
                else:
                    self.to_move = self._next[seat]
                return
        self._play_checked(move)

    def _play_checked(self, move: Move | str) -> None:
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.phase is not _PLAY:
            self._play_other(move)
            return
        # The hot path: plain integers and masks, every check on the way.
        seat = self.to_move
        size = self._size
        card: int = move if move < size else move - size
        if not 0 <= card < size:
            self._illegal(seat, move, "not-a-move", "cannot make that move now")
        bit = 1 << card
        hands = self.hands
        h = hands[seat]
        if not h & bit:
            self._illegal(seat, move, "not-held", "does not hold that card")
        if card != move and not self.deck.declare_mask & bit:
            self._illegal(seat, move, "not-declarable", "may only declare a Wild high")
        led = self.led
        if led >= 0:
            follow = self._suit_masks[led]
            if not bit & follow and h & follow and not bit & self._wild_mask:
                self._illegal(
                    seat, move, "must-follow", f"must follow {self.deck.suits[led].name.lower()}"
                )
        else:
            self.led = self._suit_of[card]
        hands[seat] = h ^ bit
        trick = self.trick
        trick.append(move)
        self.trick_mask |= bit
        self._log.append((PLAY, seat, move))
        if len(trick) == self.players:
            self._finish_trick()
        else:
            self.to_move = (seat + 1) % self.players

    def _finish_trick(self) -> None:
        n = self.players
        mask = self.trick_mask
        if self._simple:
            best = (mask & self._suit_masks[self.led]).bit_length() - 1
            winner = (self.leader + self.trick.index(best)) % n
        else:
            winner = (self.leader + self._winning_index()) % n
        self.taken[winner] |= mask
        self.tricks_won[winner] += 1
        self._log.append((TRICK, self.hand_index, self.trick_no, winner))
        if self._token_mask & mask:
            self.token = winner
            self._log.append((TOKEN, winner))
        self.trick_no += 1
        if self.trick_no == self._tricks:
            self._score_hand(winner)
            return
        self.trick = []
        self.trick_mask = 0
        self.led = NO_SUIT
        self.leader = self.to_move = winner

    def _winning_index(self) -> int:
        """Which card of the full trick wins, by position from the leader."""
        size = self._size
        deck = self.deck
        trick = self.trick
        if self.trick_mask & deck.always_mask:
            for i, m in enumerate(trick):
                if deck.always_mask >> (m % size) & 1:
                    return i
        if not self.trick_mask & ~deck.wild_mask:
            # A trick of Wilds only (and jokers): no led suit, so a high Wild has nothing to
            # beat and the first card wins, however declared (`W W+ W`; rules.md section 4).
            return 0
        for i, m in enumerate(trick):
            if m >= size:  # a Wild declared high beats trumps too; the first one wins
                return i
        rank_of = deck.rank_of
        for suit in (self.trump, self.led):
            if suit < 0 or not self.trick_mask & self._suit_masks[suit]:
                continue
            best, best_rank = -1, -1
            for i, m in enumerate(trick):
                if self._suit_of[m] == suit and rank_of[m] >= best_rank:
                    best, best_rank = i, rank_of[m]  # identical cards: the later one wins
            return best
        return 0  # unreachable: the first suited card sets the led suit, which is in the trick

    def _play_other(self, move: Move) -> None:
        seat = self.to_move
        if self.phase == _PASS:
            if not 0 <= move < self._size or not (
                (self.hands[seat] & ~self.passed[seat]) >> move & 1
            ):
                self._illegal(
                    seat, move, "not-passable", "can only pass a card it holds and has not chosen"
                )
            self.passed[seat] |= 1 << move
            self._log.append((PASS, seat, move))
            self._pass_left -= 1
            if self._pass_left:
                return
            self._pass_left = self.ruleset.passing
            self.to_move = (seat + 1) % self.players
            if self.to_move == (self.dealer + 1) % self.players:
                self._exchange()
            return
        if self.phase == _TRUMP:
            suit = move - 2 * self._size
            if not 0 <= suit < len(self.deck.suits):
                self._illegal(seat, move, "must-pick-trump", "must pick a trump suit")
            self.trump = suit
            self._log.append((TRUMP, self.hand_index, seat, suit))
            self._begin_passing()
            return
        raise IllegalMoveError(
            seat,
            "",
            "no-move-now",
            f"no move is possible, the game is in the {self.phase.name.lower()} phase",
        )

    def _exchange(self) -> None:
        n = self.players
        offset = self.ruleset.pass_offset or n // 2
        for s in range(n):
            self.hands[s] &= ~self.passed[s]
        for s in range(n):
            to = (s + offset) % n
            self.hands[to] |= self.passed[s]
            self.received[to] = self.passed[s]
        self._log.append((EXCHANGE, self.hand_index, tuple(self.passed)))
        self._begin_play()

    def _illegal(self, seat: int, move: Move, reason: str, why: str) -> NoReturn:
        try:
            text = self.format_move(move)
        except (IndexError, ValueError):
            text = str(move)
        raise IllegalMoveError(seat, text, reason, why)

    # -- scoring ----------------------------------------------------------------------------
    def _score_hand(self, last: int) -> None:
        counts = card_counts(self._hand, self.taken)
        points, moon = score_hand(self.rules, self._hand, self.tricks_won, counts, last, self.token)
        for s in range(self.players):
            self.totals[s] += points[s]
        self.hand_points.append(points)
        self._log.append((SCORE, self.hand_index, points, moon))
        self.hand_index += 1
        self.phase = _DEAL
        self.to_move = -1
        if self.hand_index == len(self.rules.hands):
            self.phase = _OVER
            self._log.append((END, tuple(self.totals)))
            return
        self.dealer = (self.dealer + 1) % self.players
        self.trick = []
        if self.auto_deal:
            self._auto_deal()

    def running_points(self, last: int = -1) -> list[int]:
        """Penalties taken so far this hand (``last``: winner of the last trick, if played).

        Once the hand's last trick is played (game over, or waiting for the next deal), this is
        the hand as scored: the last trick's penalty, the token and the moon included.
        """
        if self.trick_no == self._tricks and self.hand_points:
            return list(self.hand_points[-1])
        counts = card_counts(self._hand, self.taken)
        return penalty_points(self._hand, self.players, self.tricks_won, counts, last, self.token)

    # -- queries ----------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def round_name(self) -> str:
        return self._hand.round.name

    @property
    def hand_checksum(self) -> int:
        """What the current hand hands out in all when no moon is shot."""
        return self._hand.fixed_total

    def hand(self, seat: int) -> CardMask:
        """The cards a seat holds (the whole state is visible here; use :meth:`view` to hide)."""
        return self.hands[seat]

    def winners(self) -> list[int]:
        """The seats with the best total (all of them when tied), once the game is over."""
        if not self.is_over():
            return []
        best = max(self.totals) if self.ruleset.highest_wins else min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == best]

    def standings(self) -> list[int]:
        """The place of each seat, 1 for the best; equal totals share the place."""
        return standings(self.totals, self.ruleset.highest_wins)

    def trick_seat(self, index: int) -> int:
        """The seat that played the ``index``-th card of the current trick."""
        return (self.leader + index) % self.players

    @property
    def events(self) -> list[Event]:
        """The event log, oldest first: the single source of truth about this game."""
        return [typed(e) for e in self._log]

    @property
    def log(self) -> list[tuple[object, ...]]:
        """The raw event log (tuples tagged with the constants of :mod:`salad.events`)."""
        return list(self._log)

    def view(self, seat: int) -> View:
        """What ``seat`` may know (``SPECTATOR`` for a watcher): never another seat's hand."""
        if seat != SPECTATOR and not 0 <= seat < self.players:
            raise SaladError(f"view: seat {seat} is not at a {self.players}-seat table")
        mine = seat != SPECTATOR
        tricks = self._completed_tricks()
        in_trick = self.phase == _PLAY
        return View(
            seat=seat,
            players=self.players,
            ruleset=self.ruleset,
            deck=self.deck,
            phase=self.phase,
            hand_index=self.hand_index,
            round_name=self.round_name,
            dealer=self.dealer,
            to_move=self.to_move,
            hand=self.hands[seat] if mine else 0,
            legal_moves=tuple(self.legal_moves()) if mine and seat == self.to_move else (),
            leader=self.leader,
            trick=tuple(self.trick) if in_trick else (),
            led_suit=self.led if in_trick else NO_SUIT,
            trump=self.trump,
            tricks=tricks,
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            tricks_won=tuple(self.tricks_won),
            running=tuple(self.running_points()),
            token=self.token,
            hand_points=tuple(self.hand_points),
            totals=tuple(self.totals),
            passed=self.passed[seat] if mine else 0,
            received=self.received[seat] if mine else 0,
        )

    def _completed_tricks(self) -> tuple[CompletedTrick, ...]:
        """The finished tricks of the current hand, rebuilt from the log."""
        out: list[CompletedTrick] = []
        moves: list[Move] = []
        leader = -1
        start = 0
        for i in range(len(self._log) - 1, -1, -1):
            if self._log[i][0] == DEAL:
                start = i
                break
        for entry in self._log[start:]:
            tag = entry[0]
            if tag == PLAY:
                if not moves:
                    leader = int(entry[1])  # type: ignore[call-overload]
                moves.append(int(entry[2]))  # type: ignore[call-overload]
            elif tag == TRICK:
                out.append(CompletedTrick(leader, tuple(moves), int(entry[3])))  # type: ignore[call-overload]
                moves = []
            elif tag == SCORE:
                break
        return tuple(out)

    # -- notation ---------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """A move from text for the seat to move (:func:`salad.moves.parse_move`): ``QS``,
        ``10h``, ``Q♠``; ``+`` after a Wild declares it high; a suit in the trump phase."""
        seat = self.to_move
        among = None
        if seat >= 0:
            among = self.hands[seat]
            if self.phase is _PASS:
                among &= ~self.passed[seat]
        return parse_move(self.deck, text, trump=self.phase == _TRUMP, among=among)

    def format_move(self, move: Move, symbols: bool = False) -> str:
        """A move as text (:func:`salad.moves.format_move`): ``QS``, ``W+``, ``trump:H``."""
        return format_move(self.deck, move, symbols)

    # -- copies and undo --------------------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy (for search): shares only immutable parts."""
        # Every slot by name (a loop of getattr/setattr takes three times as long); lists are
        # copied, the rest is immutable or shared tables. A test checks no slot is left out.
        new = Game.__new__(Game)
        new.ruleset = self.ruleset
        new.rules = self.rules
        new.deck = self.deck
        new.players = self.players
        new.seed = self.seed
        new.first_dealer = self.first_dealer
        new.auto_deal = self.auto_deal
        new.hand_index = self.hand_index
        new.dealer = self.dealer
        new.phase = self.phase
        new.to_move = self.to_move
        new.hands = self.hands[:]
        new.leader = self.leader
        new.trick = self.trick[:]
        new.trick_mask = self.trick_mask
        new.led = self.led
        new.trick_no = self.trick_no
        new.taken = self.taken[:]
        new.tricks_won = self.tricks_won[:]
        new.token = self.token
        new.trump = self.trump
        new.hand_points = self.hand_points[:]
        new.totals = self.totals[:]
        new.passed = self.passed[:]
        new.received = self.received[:]
        new._log = self._log[:]
        new._size = self._size
        new._suit_masks = self._suit_masks
        new._wild_mask = self._wild_mask
        new._suit_of = self._suit_of
        new._simple = self._simple
        new._hand = self._hand
        new._token_mask = self._token_mask
        new._tricks = self._tricks
        new._pass_left = self._pass_left
        new._next = self._next
        new._follow_ok = self._follow_ok
        new._moves = self._moves
        new._blocks = self._blocks
        new._tables = self._tables
        return new

    def undo(self) -> None:
        """Take back the last move (play, pass or trump choice) by replaying the log."""
        for i in range(len(self._log) - 1, -1, -1):
            entry = self._log[i]
            tag = entry[0]
            if tag in (PLAY, PASS) or (tag == TRUMP and int(entry[2]) >= 0):  # type: ignore[call-overload]
                break
        else:
            raise SaladError("undo: there is no move to take back")
        replayed = Game.replay(self.ruleset, self.players, self._log[:i], self.auto_deal, self.seed)
        for name in Game.__slots__:
            setattr(self, name, getattr(replayed, name))

    @classmethod
    def from_view(
        cls, view: View, hands: Sequence[CardMask], passed: Sequence[CardMask] | None = None
    ) -> Game:
        """A game in the state ``view`` sees, with ``hands`` filling in the hidden cards.

        This is how searching bots determinize: they sample hands consistent with the view and
        search the resulting game. Its log holds only this hand's plays (so its own views show
        the same tricks and voids), and it stops at the hand's end instead of dealing the next.
        ``passed`` gives every seat's cards chosen to pass so far (mid-pass, the seats before the
        one to move have chosen theirs: :func:`salad.sampler.sample_passes` guesses them);
        without it only the view's own seat has chosen any.
        """
        n = view.players
        if len(hands) != n:
            raise SaladError(f"from_view: {len(hands)} hands for {n} players")
        if view.seat != SPECTATOR and hands[view.seat] != view.hand:
            raise SaladError(f"from_view: seat {view.seat}'s hand differs from its view")
        for seat, h in enumerate(hands):
            if h.bit_count() != view.hand_sizes[seat]:
                raise SaladError(
                    f"from_view: seat {seat} needs {view.hand_sizes[seat]} cards, "
                    f"not {h.bit_count()}"
                )
        g = cls(view.ruleset, n, first_dealer=view.dealer, auto_deal=False)
        size = g._size
        g.hand_index = view.hand_index
        g.dealer = view.dealer
        g._reset_hand()
        g.hands = list(hands)
        g.phase = view.phase
        g.to_move = view.to_move
        g.leader = view.leader
        g.trick = list(view.trick)
        g.trick_mask = 0
        for m in view.trick:
            g.trick_mask |= 1 << (m % size)
        g.led = view.led_suit
        g.trick_no = len(view.tricks)
        log = g._log
        for number, t in enumerate(view.tricks):
            for i, m in enumerate(t.moves):
                g.taken[t.winner] |= 1 << (m % size)
                log.append((PLAY, (t.leader + i) % n, m))
            g.tricks_won[t.winner] += 1
            log.append((TRICK, view.hand_index, number, t.winner))
        log.extend((PLAY, (view.leader + i) % n, m) for i, m in enumerate(view.trick))
        g.token = view.token
        g.trump = view.trump
        g.hand_points = list(view.hand_points)
        g.totals = list(view.totals)
        if view.seat != SPECTATOR:
            g.passed[view.seat] = view.passed
            g.received[view.seat] = view.received
        if passed is not None:
            if len(passed) != n or any(p & ~h for p, h in zip(passed, hands, strict=True)):
                raise SaladError("from_view: the passed cards are not one set per seat held")
            g.passed = list(passed)
        if g.phase is _PASS:
            g._pass_left = g.ruleset.passing - g.passed[g.to_move].bit_count()
        return g

    @classmethod
    def replay(
        cls,
        ruleset: Ruleset,
        players: int,
        log: Sequence[tuple[object, ...]],
        auto_deal: bool = False,
        seed: int | None = None,
    ) -> Game:
        """Rebuild a game from a raw log (the deals and the moves in it); with ``auto_deal``
        later hands are dealt from ``seed``, as the original game's were."""
        first_dealer = 0
        for entry in log:
            if entry[0] == DRAW:
                first_dealer = int(entry[2])  # type: ignore[call-overload]
                break
            if entry[0] == DEAL:
                first_dealer = int(entry[2])  # type: ignore[call-overload]
                break
        game = cls(ruleset, players, first_dealer=first_dealer, auto_deal=False)
        game._log[:0] = [e for e in log[:1] if e[0] == DRAW]
        for entry in log:
            tag = entry[0]
            if tag == DEAL:
                game.deal(entry[3])  # type: ignore[arg-type]
            elif tag in (PLAY, PASS):
                game.play(int(entry[2]))  # type: ignore[call-overload]
            elif tag == TRUMP and int(entry[2]) >= 0:  # type: ignore[call-overload]
                game.play(2 * game._size + int(entry[3]))  # type: ignore[call-overload]
        game.auto_deal = auto_deal
        game.seed = seed
        if auto_deal and game.phase is _DEAL:
            game._auto_deal()
        return game

    def __repr__(self) -> str:
        return (
            f"<Game {self.ruleset.preset} {self.players}p hand {self.hand_index + 1} "
            f"{self.phase.name.lower()} to_move={self.to_move}>"
        )


_TABLE_SLOTS = ("_tables", "_next", "_follow_ok", "_moves", "_blocks", "_simple")
_STATE = tuple(name for name in Game.__slots__ if name not in _TABLE_SLOTS)
"""The slots a pickle keeps: the game's own state, not the tables shared by its rules."""

_BIT = [1 << i for i in range(1024)]
_TOKEN = Kind.TOKEN
_BLOCK = 13  # the widest run of cards whose subsets are cached


_LOCAL = threading.local()


def _seeded(text: str) -> random.Random:
    """This thread's dealing generator, put in the state ``random.Random(text)`` starts in
    (building one seeds twice: from a hash of the text in ``__new__``, then from its SHA-512
    in ``seed``; a game's draw and each deal use it up before anything else runs here)."""
    try:
        rng: random.Random = _LOCAL.rng
    except AttributeError:
        rng = _LOCAL.rng = random.Random(0)
    data = text.encode()
    _CRandom.seed(rng, int.from_bytes(data + sha512(data).digest()))
    return rng


class _Tables:
    """What the hot paths look up for one compiled ruleset (shared by all its games)."""

    __slots__ = (
        "card_bits",
        "shuffle_steps",
        "next_seat",
        "follow_ok",
        "blocks",
        "follow_blocks",
        "moves",
        "declare",
        "token_masks",
        "simple",
    )

    def __init__(self, rules: CompiledRules) -> None:
        deck: Deck = rules.deck
        n = rules.players
        cards = cards_of(deck.in_play)
        self.card_bits = [1 << c for c in cards]
        # random.shuffle's Fisher-Yates: position i swaps with randbelow(i + 1), drawn as
        # getrandbits((i + 1).bit_length()) until it is at most i.
        self.shuffle_steps = tuple(
            (i, (i + 1).bit_length()) for i in reversed(range(1, len(cards)))
        )
        self.next_seat = tuple((s + 1) % n for s in range(n))
        self.follow_ok = tuple(m | deck.wild_mask for m in deck.suit_masks)
        # Legal moves come out a block at a time (each suit, then the wild cards); a block's
        # cards are cached by their mask (at most 2**13 subsets for a 13-card suit). Wider
        # blocks (several copies of a suit) are split into runs of at most 13 cards.
        blocks: list[CardMask] = []
        for m in (*deck.suit_masks, deck.wild_mask):
            cards = cards_of(m)
            for i in range(0, len(cards), _BLOCK):
                blocks.append(sum(1 << c for c in cards[i : i + _BLOCK]))
        self.blocks = tuple(b for b in blocks if b)
        # Following suit: only that suit's blocks and the wild cards' can hold legal cards.
        self.follow_blocks = tuple(
            tuple(b for b in self.blocks if b & (m | deck.wild_mask)) for m in deck.suit_masks
        )
        self.moves: dict[CardMask, tuple[Card, ...]] = {}
        self.declare = deck.declare_mask
        # The fast path: no wild cards, no trumps, no identical copies, suits of 13 or fewer.
        rs = rules.ruleset
        self.simple = (
            max(m.bit_count() for m in deck.suit_masks) <= _BLOCK
            and not deck.wild_mask
            and not rs.trump_first
            and not rs.trump_chooser
            and deck.spec.copies_for(n) == 1
        )
        self.token_masks: tuple[CardMask, ...] = tuple(  # joined: two tokens may share a card
            reduce(or_, (p.mask for p in hand.penalties if p.kind == _TOKEN), 0)
            for hand in rules.hands
        )

    def card_list(self, mask: CardMask) -> tuple[Card, ...]:
        """The cards of ``mask`` (one block's), cached in :attr:`moves`."""
        cards = self.moves[mask] = tuple(cards_of(mask))
        return cards


_TABLES: dict[int, tuple[CompiledRules, _Tables]] = {}


def _tables_for(rules: CompiledRules) -> _Tables:
    """The tables of ``rules``, looked up by identity (hashing a ruleset is slow)."""
    got = _TABLES.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    if len(_TABLES) >= 256:
        _TABLES.clear()
    tables = _Tables(rules)
    _TABLES[id(rules)] = (rules, tables)
    return tables
