"""A ``python_salad`` state's own data and moves: dealing card by card, playing through the salad
engine, remembering what each seat saw, and dealing hidden cards again (resampling)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pyspiel

from salad.adapters.openspiel.config import GameConfig, nums, trump_line
from salad.cards import NO_SUIT, cards_of
from salad.engine import Game
from salad.moves import Move
from salad.sampler import sample_hands
from salad.view import CompletedTrick, Phase, View


class StateCore:
    """A state's own data (the salad game inside, this hand's plays, what each seat saw); one
    object, so that OpenSpiel's clone (a deepcopy of the Python attributes) is a cheap
    :meth:`copy`."""

    __slots__ = (
        "cfg",
        "game",
        "dealt",
        "deal_masks",
        "plays",
        "winners",
        "played",
        "voids",
        "past",
        "base",
        "trump_line",
        "cache",
    )

    def __init__(self, cfg: GameConfig, game: Game | None, base: tuple[int, ...] = ()) -> None:
        n = cfg.players
        self.cfg = cfg
        self.game = game
        self.dealt: list[int] = []
        """Cards dealt so far in this hand's deal, in order."""
        self.deal_masks = [0] * n
        self.plays: list[tuple[int, Move]] = []
        """This hand's plays as (seat, move), in order."""
        self.winners: list[int] = []
        """The winner of each finished trick of this hand."""
        self.played = [0] * n
        self.voids = [0] * n
        self.past: list[tuple[str, ...]] = []
        """Per finished hand (or summary), each seat's text of it."""
        self.base = base or (0,) * n
        self.trump_line = ""
        self.cache: dict[int, str] = {}

    @classmethod
    def initial(cls, cfg: GameConfig) -> StateCore:
        game = None
        if cfg.first_dealer >= 0:
            game = new_game(cfg, cfg.first_dealer)
        return cls(cfg, game)

    def copy(self) -> StateCore:
        new = StateCore.__new__(StateCore)
        new.cfg = self.cfg
        new.game = self.game.copy() if self.game is not None else None
        new.dealt = self.dealt[:]
        new.deal_masks = self.deal_masks[:]
        new.plays = self.plays[:]
        new.winners = self.winners[:]
        new.played = self.played[:]
        new.voids = self.voids[:]
        new.past = self.past[:]
        new.base = self.base
        new.trump_line = self.trump_line
        new.cache = dict(self.cache)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> StateCore:
        return self.copy()

    # -- state queries ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        game = self.game
        if game is None:
            return False
        return game.phase is Phase.OVER or (
            game.phase is Phase.DEAL and game.hand_index >= self.cfg.end_hand
        )

    def current_player(self) -> int:
        game = self.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        phase = game.phase
        if phase is Phase.OVER or (phase is Phase.DEAL and game.hand_index >= self.cfg.end_hand):
            return int(pyspiel.PlayerId.TERMINAL)
        if phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        return game.to_move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.game is None:
            n = self.cfg.players
            return [(s, 1.0 / n) for s in range(n)]
        left = self.cfg.rules.deck.in_play
        for c in self.dealt:
            left &= ~(1 << c)
        cards = cards_of(left)
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def returns(self) -> list[float]:
        cfg = self.cfg
        if not self.is_terminal() or self.game is None:
            return [0.0] * cfg.players
        k = cfg.sign / cfg.scale
        return [k * (t - b) for t, b in zip(self.game.totals, self.base, strict=True)]

    # -- moves --------------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        self.cache = {}
        game = self.game
        if game is None:
            self.game = new_game(self.cfg, action)
            return
        if game.phase is Phase.DEAL:
            self._deal(game, action)
            return
        phase = game.phase
        seat = game.to_move
        if phase is Phase.PLAY:
            self._play(game, seat, action)
        else:
            game.play(action)
            if phase is Phase.TRUMP:
                self.trump_line = trump_line(self.cfg, game, seat)

    def _deal(self, game: Game, card: int) -> None:
        cfg = self.cfg
        bit = 1 << card
        if not cfg.rules.deck.in_play & bit or any(c == card for c in self.dealt):
            raise ValueError(f"python_salad: card {card} cannot be dealt now")
        n = cfg.players
        seat = (game.dealer + 1 + len(self.dealt)) % n
        self.dealt.append(card)
        self.deal_masks[seat] |= bit
        if len(self.dealt) == cfg.rules.deck.in_play.bit_count():
            game.deal(self.deal_masks)
            self.dealt = []
            self.deal_masks = [0] * n
            self.trump_line = trump_line(cfg, game, -1)

    def _play(self, game: Game, seat: int, move: int) -> None:
        cfg = self.cfg
        size = cfg.size
        deck = cfg.rules.deck
        led = game.led
        last = len(game.trick) + 1 == cfg.players
        won = game.tricks_won[:] if last and game.trick_no + 1 == deck.cards_each else None
        game.play(move)
        card = move % size
        self.played[seat] |= 1 << card
        if led >= 0:
            suit = deck.suit_of[card]
            if suit != led and suit != NO_SUIT:
                self.voids[seat] |= 1 << led
        self.plays.append((seat, move))
        if not last:
            return
        if won is None:
            self.winners.append(game.leader)
            return
        self.winners.append(next(s for s in range(cfg.players) if game.tricks_won[s] > won[s]))
        self._finish_hand(game)

    def _finish_hand(self, game: Game) -> None:
        cfg = self.cfg
        index = game.hand_index - 1
        name = cfg.rules.hands[index].round.name
        plays = self.plays_text()
        points = nums(game.hand_points[-1])
        texts = []
        for s in range(cfg.players):
            passes = ""
            if cfg.ruleset.passing:
                passes = (
                    f" passed {cfg.cards_text(game.passed[s])}"
                    f" received {cfg.cards_text(game.received[s])};"
                )
            texts.append(
                f"hand {index + 1} {name}, dealer {self._dealer_of(game, index)}, "
                f"{self.trump_line};{passes} plays {plays} points {points}"
            )
        self.past.append(tuple(texts))
        n = cfg.players
        self.plays = []
        self.winners = []
        self.played = [0] * n
        self.voids = [0] * n
        self.trump_line = ""

    def _dealer_of(self, game: Game, index: int) -> int:
        # The dealer moves one seat left after every hand; the game has moved on already
        # unless it is over.
        return game.dealer if game.phase is Phase.OVER else (game.dealer - 1) % self.cfg.players

    # -- what a seat knows --------------------------------------------------------------------
    def view(self, player: int) -> View:
        """The engine's view of ``player``, with this hand's tricks from this state's record."""
        assert self.game is not None
        return replace(self.game.view(player), tricks=self.tricks())

    def tricks(self) -> tuple[CompletedTrick, ...]:
        """This hand's finished tricks."""
        n = self.cfg.players
        plays = self.plays
        return tuple(
            CompletedTrick(plays[i * n][0], tuple(m for _, m in plays[i * n : i * n + n]), w)
            for i, w in enumerate(self.winners)
        )

    def plays_text(self) -> str:
        """This hand's plays as ``seat:card``, ``|`` after each finished trick."""
        n = self.cfg.players
        text = self.cfg.move_text
        out = []
        for i, (seat, move) in enumerate(self.plays):
            out.append(f"{seat}:{text(move)}")
            if i % n == n - 1:
                out.append("|")
        return " ".join(out)

    # -- resampling ---------------------------------------------------------------------------
    def resample(self, player: int, rng: random.Random) -> None:
        """Deal the cards ``player`` cannot see again, consistently with what it saw."""
        self.cache = {}
        game = self.game
        if game is None:
            return
        if game.phase is Phase.DEAL:
            self._resample_deal(player, rng)
            return
        if game.phase is Phase.OVER:
            return
        hands = sample_hands(self.view(player), rng)
        game.hands = list(hands)
        self.fill_passes(player, rng)

    def _resample_deal(self, player: int, rng: random.Random) -> None:
        if not self.dealt:
            return
        n = self.cfg.players
        game = self.game
        assert game is not None
        others = [s for s in range(n) if s != player]
        pool = [c for c in self.dealt if not self.deal_masks[player] >> c & 1]
        rng.shuffle(pool)
        by_seat: dict[int, list[int]] = {}
        for s in others:
            k = self.deal_masks[s].bit_count()
            by_seat[s], pool = pool[:k], pool[k:]
            self.deal_masks[s] = sum(1 << c for c in by_seat[s])
        own = cards_of(self.deal_masks[player])
        order = []
        for j in range(len(self.dealt)):
            seat = (game.dealer + 1 + j) % n
            order.append(own.pop() if seat == player else by_seat[seat].pop())
        self.dealt = order

    def fill_passes(self, player: int, rng: random.Random) -> None:
        """Make up the passes ``player`` cannot see, consistently with the hands as they are."""
        cfg = self.cfg
        game = self.game
        passing = cfg.ruleset.passing
        if game is None or not passing or game.phase in (Phase.DEAL, Phase.TRUMP, Phase.OVER):
            return
        n = cfg.players
        offset = cfg.ruleset.pass_offset or n // 2
        if game.phase is Phase.PASS:
            order = [(game.dealer + 1 + i) % n for i in range(n)]
            k = order.index(game.to_move)
            for j, q in enumerate(order):
                if q == player:
                    continue
                if j < k:
                    count = passing
                elif j == k:
                    count = passing - game._pass_left
                else:
                    count = 0
                cards = cards_of(game.hands[q])
                game.passed[q] = sum(1 << c for c in rng.sample(cards, count))
                game.received[q] = 0
            return
        source = (player - offset) % n
        game.passed[source] = game.received[player]
        game.received[(player + offset) % n] = game.passed[player]
        for q in range(n):
            if q in (player, source):
                continue
            to = (q + offset) % n
            holding = cards_of(game.hands[to] | self.played[to])
            game.passed[q] = sum(1 << c for c in rng.sample(holding, passing))
            game.received[to] = game.passed[q]


def new_game(cfg: GameConfig, dealer: int) -> Game:
    game = Game(cfg.ruleset, cfg.players, first_dealer=dealer, auto_deal=False)
    if cfg.first_hand:
        game.hand_index = cfg.first_hand
        game._reset_hand()  # the engine has no public way to start at a later hand
    return game
