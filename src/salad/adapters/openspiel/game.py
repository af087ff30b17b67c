"""Canadian Salad (any ruleset) as an OpenSpiel Python game, registered as ``python_salad``.

Importing this module registers the game, so OpenSpiel's own tools can load it by name:

>>> import pyspiel
>>> import salad.adapters.openspiel.game
>>> game = pyspiel.load_game("python_salad", {"rules": "canadian", "players": 4, "hands": 1})
>>> game.num_players(), game.num_distinct_actions()
(4, 108)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Parameters (all optional):

``rules``
    A preset name (``canadian``, ``fruit-salad``, ``extended``, ``skip-the-salad``) or a TOML
    rules file path.
``players``
    Seats at the table; 0 (the default) takes the ruleset's default.
``settings``
    Extra settings as a JSON object (:func:`salad.formats.rules.load_ruleset`). OpenSpiel's game
    strings split on commas, so a JSON value with commas only loads through a parameter dict.
``toppings``
    Skip the Salad toppings separated by ``+`` (or ``all``), added to the settings.
``first_hand``
    The 0-based hand the game starts at, with every total at 0 (default 0).
``hands``
    How many hands are played from there; 0 (the default) plays through the last hand.
``first_dealer``
    The first dealer's seat; -1 (the default) makes it a chance node, uniform over the seats
    (the rules' draw for the highest card is symmetric).
``normalize``
    Divide returns by the points the played hands hand out in all (default true).

Chance nodes deal the cards one at a time, clockwise from the dealer's left (as the rules deal
them); a chance outcome is the index of the card dealt (and, for the first-dealer chance node,
the seat). Player actions are :mod:`salad.engine` moves: a card index plays or passes that card,
``card + deck.size`` plays a Wild declared high and ``2 * deck.size + suit`` picks a trump, so
``num_distinct_actions = 2 * deck.size + len(deck.suits)``.

**Returns** (reward model: terminal) are ``-points / scale`` for each seat, where ``points`` is
what the seat scored over the played hands and ``scale`` the points those hands hand out in all
when no moon is shot (1120 for a whole 4-player Canadian Salad): lower totals win, so higher
returns are better. Under ``ruleset.highest_wins`` (Cornucopia) the sign flips to
``+points / scale``. With ``normalize=false`` the returns are the raw points, with the same sign.
They are 0 until the game is over. The utility is declared general-sum (moons break the
constant sum).

The **information state string** of a seat holds its own cards, the passes it made and
received, the trump and who picked it, every card played and by whom (tricks in order), the
points of every finished hand and the totals; never another seat's hand. The **observation
tensor** is a fixed-size float vector described in :class:`SaladObserver`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel

from salad.cards import NO_SUIT, CardMask, cards_of
from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.moves import Move
from salad.ruleset import CompiledRules, Kind, Moon, Ruleset
from salad.sampler import sample_hands, shown_voids
from salad.view import CompletedTrick, Phase, View

__all__ = [
    "GAME_NAME",
    "SaladGame",
    "SaladObserver",
    "SaladState",
    "load_salad_game",
]

GAME_NAME = "python_salad"

_DEFAULTS: dict[str, Any] = {
    "rules": "canadian",
    "players": 0,
    "settings": "{}",
    "toppings": "",
    "first_hand": 0,
    "hands": 0,
    "first_dealer": -1,
    "normalize": True,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Canadian Salad (salad)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)

_DEAL, _TRUMP, _PASS, _PLAY, _OVER = Phase.DEAL, Phase.TRUMP, Phase.PASS, Phase.PLAY, Phase.OVER


@dataclass(frozen=True)
class _Config:
    """What every state of one game shares (never copied)."""

    ruleset: Ruleset
    rules: CompiledRules
    players: int
    first_hand: int
    end_hand: int
    """One past the last hand played."""
    first_dealer: int
    scale: float
    sign: int
    labels: tuple[str, ...]
    """Per card: its code, with ``#k`` added where the deck holds identical copies."""

    @property
    def size(self) -> int:
        return self.rules.deck.size

    def move_text(self, move: Move) -> str:
        size = self.size
        if move >= 2 * size:
            return "trump:" + self.rules.deck.suits[move - 2 * size].letter
        return self.labels[move % size] + ("+" if move >= size else "")

    def cards_text(self, mask: CardMask) -> str:
        labels = self.labels
        return " ".join(labels[c] for c in cards_of(mask)) or "-"


def _labels(codes: Sequence[str]) -> tuple[str, ...]:
    counts: dict[str, int] = {}
    for code in codes:
        counts[code] = counts.get(code, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for code in codes:
        if counts[code] > 1:
            seen[code] = seen.get(code, 0) + 1
            out.append(f"{code}#{seen[code]}")
        else:
            out.append(code)
    return tuple(out)


def _point_range(rules: CompiledRules, first: int, end: int) -> tuple[int, int, int]:
    """(lowest, highest) total one seat can score over hands ``first..end-1``, and what those
    hands hand out in all when no moon is shot."""
    rs = rules.ruleset
    tricks = rules.deck.cards_each
    lo_sum = hi_sum = fixed = 0
    for hand in rules.hands[first:end]:
        lo = hi = 0
        for p in hand.penalties:
            if p.kind == Kind.TRICK:
                amount = tricks * p.points
            elif p.kind == Kind.CARDS:
                amount = p.mask.bit_count() * p.points
            elif p.kind == Kind.LAST_TRICK or p.mask:
                amount = p.points
            else:
                amount = 0
            lo, hi = lo + min(0, amount), hi + max(0, amount)
        if hand.moon and rs.moon == Moon.OLD:
            lo, hi = min(lo, 0, rs.moon_points), max(hi, rs.moon_points)
        elif hand.moon and rs.moon == Moon.NEGATIVE:
            lo, hi = min(lo, -hi), max(hi, -lo)
        lo_sum += lo
        hi_sum += hi
        fixed += hand.fixed_total
    return lo_sum, hi_sum, fixed


class SaladGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; ``ruleset`` (Python callers only) overrides ``rules``/``settings``."""

    def __init__(
        self, params: Mapping[str, Any] | None = None, ruleset: Ruleset | None = None
    ) -> None:
        p = dict(_DEFAULTS)
        p.update(params or {})
        if ruleset is None:
            settings: dict[str, Any] = json.loads(str(p["settings"]) or "{}")
            if not isinstance(settings, dict):
                raise ValueError("python_salad: settings must be a JSON object")
            toppings = [t for t in str(p["toppings"]).replace(",", "+").split("+") if t.strip()]
            if toppings:
                settings["toppings"] = list(settings.get("toppings", [])) + toppings
            ruleset = load_ruleset(str(p["rules"]), settings or None)
        else:
            p["rules"] = ruleset.preset
            p["settings"] = ruleset.settings_json
            p["toppings"] = ""
        n = int(p["players"]) or ruleset.default_players
        p["players"] = n
        rules = ruleset.compiled(n)
        deck = rules.deck
        total_hands = len(rules.hands)
        first = int(p["first_hand"])
        if not 0 <= first < total_hands:
            raise ValueError(f"python_salad: first_hand {first} (the game has {total_hands})")
        count = int(p["hands"]) or total_hands - first
        end = min(total_hands, first + count)
        dealer = int(p["first_dealer"])
        if not -1 <= dealer < n:
            raise ValueError(f"python_salad: first_dealer {dealer} at a {n}-seat table")
        lo, hi, fixed = _point_range(rules, first, end)
        normalize = bool(p["normalize"])
        scale = float(max(1, abs(fixed))) if normalize else 1.0
        sign = 1 if ruleset.highest_wins else -1
        min_u, max_u = sorted((sign * lo / scale, sign * hi / scale))
        if max_u <= min_u:
            max_u = min_u + 1.0
        self.config = _Config(
            ruleset=ruleset,
            rules=rules,
            players=n,
            first_hand=first,
            end_hand=end,
            first_dealer=dealer,
            scale=scale,
            sign=sign,
            labels=_labels(deck.codes),
        )
        cards = deck.in_play.bit_count()
        decisions = 0
        for index in range(first, end):
            decisions += cards + n * ruleset.passing
            if ruleset.trump_chooser and index > 0:
                decisions += 1
        self._chance_nodes = (end - first) * cards + (1 if dealer < 0 else 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=2 * deck.size + len(deck.suits),
            max_chance_outcomes=max(deck.size, n),
            num_players=n,
            min_utility=min_u,
            max_utility=max_u,
            utility_sum=None,
            max_game_length=decisions,
        )
        super().__init__(_GAME_TYPE, info, p)
        self._prototype: _Core | None = None

    def new_initial_state(self) -> SaladState:
        """The state before the first deal (a chance node)."""
        if self._prototype is None:
            self._prototype = _Core.initial(self.config)
        return SaladState(self, self._prototype.copy())

    def max_chance_nodes_in_history(self) -> int:
        return self._chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> SaladObserver:
        if params:
            raise ValueError(f"python_salad: observation parameters not supported: {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return SaladObserver(self.config, iig_obs_type)

    def state_from_view(
        self, view: View, hands: Sequence[CardMask], rng: random.Random
    ) -> SaladState:
        """A state in the position ``view`` sees, ``hands`` filling in the hidden cards.

        The game must start at the view's hand (``first_hand``); its totals count from the
        view's totals, so returns measure the points scored from here on. Passes the view's
        seat cannot see are made up consistently (``rng``).
        """
        cfg = self.config
        if view.players != cfg.players or view.hand_index != cfg.first_hand:
            raise ValueError("state_from_view: the game does not start at this view's hand")
        if view.phase in (_DEAL, _OVER):
            raise ValueError(f"state_from_view: nothing to search in the {view.phase.name} phase")
        game = Game.from_view(view, hands)
        core = _Core(cfg, game, base=tuple(view.totals))
        size = cfg.size
        moves = [(t.leader, t.moves) for t in view.tricks] + [(view.leader, view.trick)]
        for leader, trick in moves:
            for i, m in enumerate(trick):
                seat = (leader + i) % cfg.players
                core.plays.append((seat, m))
                core.played[seat] |= 1 << (m % size)
        core.winners = [t.winner for t in view.tricks]
        core.voids = shown_voids(view)
        core.trump_line = _trump_line(cfg, game, -1)
        core.past = [
            (f"from hand {view.hand_index + 1}, earlier points {_nums(view.totals)}",) * cfg.players
        ]
        core.fill_passes(view.seat, rng)
        return SaladState(self, core)


def _nums(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def _trump_line(cfg: _Config, game: Game, chooser: int) -> str:
    if game.phase is _TRUMP:
        return f"trump to pick by {game.to_move}"
    if game.trump == NO_SUIT:
        return "no trump"
    letter = cfg.rules.deck.suits[game.trump].letter
    return f"trump {letter}" + (f" picked by {chooser}" if chooser >= 0 else "")


class _Core:
    """A state's own data; one object, so that OpenSpiel's clone (a deepcopy of the Python
    attributes) is a cheap :meth:`copy`."""

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

    def __init__(self, cfg: _Config, game: Game | None, base: tuple[int, ...] = ()) -> None:
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
    def initial(cls, cfg: _Config) -> _Core:
        game = None
        if cfg.first_dealer >= 0:
            game = _new_game(cfg, cfg.first_dealer)
        return cls(cfg, game)

    def copy(self) -> _Core:
        new = _Core.__new__(_Core)
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

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self.copy()

    # -- state queries ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        game = self.game
        if game is None:
            return False
        return game.phase is _OVER or (game.phase is _DEAL and game.hand_index >= self.cfg.end_hand)

    def current_player(self) -> int:
        game = self.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        phase = game.phase
        if phase is _OVER or (phase is _DEAL and game.hand_index >= self.cfg.end_hand):
            return int(pyspiel.PlayerId.TERMINAL)
        if phase is _DEAL:
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
            self.game = _new_game(self.cfg, action)
            return
        if game.phase is _DEAL:
            self._deal(game, action)
            return
        phase = game.phase
        seat = game.to_move
        if phase is _PLAY:
            self._play(game, seat, action)
        else:
            game.play(action)
            if phase is _TRUMP:
                self.trump_line = _trump_line(self.cfg, game, seat)

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
            self.trump_line = _trump_line(cfg, game, -1)

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
        points = _nums(game.hand_points[-1])
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
        return game.dealer if game.phase is _OVER else (game.dealer - 1) % self.cfg.players

    # -- what a seat knows --------------------------------------------------------------------
    def info_string(self, player: int, private: Any = None) -> str:
        """The seat's whole history of what it saw (``private``: which hands to show)."""
        if private is None:
            cached = self.cache.get(player)
            if cached is not None:
                return cached
        cfg = self.cfg
        lines = [f"p{player}"]
        lines.extend(p[player] for p in self.past)
        game = self.game
        if game is None:
            lines.append("drawing for the first dealer")
        elif game.phase is _DEAL or game.phase is _OVER:
            if game.phase is _DEAL and game.hand_index < cfg.end_hand:
                lines.append(f"hand {game.hand_index + 1} dealing, dealer {game.dealer}")
                lines.append("cards " + self._cards_for(player, private, self.deal_masks))
        else:
            lines.append(self._hand_line(game))
            lines.append("cards " + self._cards_for(player, private, game.hands))
            lines.extend(self._pass_lines(game, player, private))
            lines.append("plays " + self.plays_text())
        if game is not None:
            lines.append("totals " + _nums(game.totals))
        text = "\n".join(lines)
        if private is None:
            self.cache[player] = text
        return text

    def _hand_line(self, game: Game) -> str:
        name = self.cfg.rules.hands[game.hand_index].round.name
        return f"hand {game.hand_index + 1} {name}, dealer {game.dealer}, {self.trump_line}"

    def _cards_for(self, player: int, private: Any, hands: Sequence[CardMask]) -> str:
        cfg = self.cfg
        if private is None or private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return cfg.cards_text(hands[player])
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return " / ".join(f"{s}: {cfg.cards_text(h)}" for s, h in enumerate(hands))
        return "?"

    def _pass_lines(self, game: Game, player: int, private: Any) -> list[str]:
        cfg = self.cfg
        if not cfg.ruleset.passing:
            return []
        if private is None or private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            seats = [player]
        elif private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            seats = list(range(cfg.players))
        else:
            return []
        return [
            f"{s} passed {cfg.cards_text(game.passed[s])} received "
            f"{cfg.cards_text(game.received[s])}"
            for s in seats
        ]

    def observation_string(self, player: int, private: Any = None) -> str:
        """The current hand only (no earlier hands' plays): what a seat sees at the table."""
        cfg = self.cfg
        game = self.game
        if game is None:
            return f"p{player} drawing for the first dealer"
        parts = [f"p{player}"]
        if game.phase is _DEAL or game.phase is _OVER:
            parts.append(f"hand {game.hand_index + 1} dealing" if game.phase is _DEAL else "over")
            parts.append("cards " + self._cards_for(player, private, self.deal_masks))
        else:
            parts.append(self._hand_line(game) + f", to move {game.to_move}")
            parts.append("cards " + self._cards_for(player, private, game.hands))
            parts.extend(self._pass_lines(game, player, private))
            if game.phase is _PLAY:
                trick = " ".join(
                    f"{game.trick_seat(i)}:{cfg.move_text(m)}" for i, m in enumerate(game.trick)
                )
                parts.append(f"trick {trick or '-'}")
                parts.append("taken " + " / ".join(cfg.cards_text(t) for t in game.taken))
            parts.append("running " + _nums(game.running_points()))
        parts.append("totals " + _nums(game.totals))
        return "\n".join(parts)

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
        if game.phase is _DEAL:
            self._resample_deal(player, rng)
            return
        if game.phase is _OVER:
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
        if game is None or not passing or game.phase in (_DEAL, _TRUMP, _OVER):
            return
        n = cfg.players
        offset = cfg.ruleset.pass_offset or n // 2
        if game.phase is _PASS:
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

    def __str__(self) -> str:
        cfg = self.cfg
        game = self.game
        if game is None:
            return "drawing for the first dealer"
        phase = game.phase.name.lower()
        lines = [
            f"hand {game.hand_index + 1} ({cfg.first_hand + 1}-{cfg.end_hand}) {phase}, "
            f"dealer {game.dealer}, to move {game.to_move}, {self.trump_line or 'no trump'}"
        ]
        if game.phase is _DEAL:
            lines.append("dealt " + " ".join(cfg.labels[c] for c in self.dealt))
        hands = self.deal_masks if game.phase is _DEAL else game.hands
        for s in range(cfg.players):
            extra = ""
            if cfg.ruleset.passing:
                extra = (
                    f" passed {cfg.cards_text(game.passed[s])}"
                    f" received {cfg.cards_text(game.received[s])}"
                )
            lines.append(f"seat {s}: {cfg.cards_text(hands[s])}{extra}")
        lines.append("plays " + self.plays_text())
        lines.append("past " + " || ".join(p[0] for p in self.past))
        lines.append(f"totals {_nums(game.totals)} (from {_nums(self.base)})")
        return "\n".join(lines)


def _new_game(cfg: _Config, dealer: int) -> Game:
    game = Game(cfg.ruleset, cfg.players, first_dealer=dealer, auto_deal=False)
    if cfg.first_hand:
        game.hand_index = cfg.first_hand
        game._reset_hand()  # the engine has no public way to start at a later hand
    return game


class SaladState(pyspiel.State):  # type: ignore[misc]
    """One position of a :class:`SaladGame`; the salad :class:`~salad.engine.Game` inside is
    ``state.salad`` (read it, do not move it)."""

    def __init__(self, game: SaladGame, core: _Core | None = None) -> None:
        super().__init__(game)
        self._core = core if core is not None else _Core.initial(game.config)

    @property
    def salad(self) -> Game | None:
        return self._core.game

    @property
    def core(self) -> _Core:
        """This state's data (for fast rollouts: ``core.copy()`` and play on that)."""
        return self._core

    def current_player(self) -> int:
        return self._core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        game = self._core.game
        if game is None or player != game.to_move:
            return []
        return game.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        cfg = self._core.cfg
        if player == pyspiel.PlayerId.CHANCE:
            if self._core.game is None:
                return f"dealer:{action}"
            return f"deal:{cfg.labels[action]}"
        return cfg.move_text(int(action))

    def is_terminal(self) -> bool:
        return self._core.is_terminal()

    def returns(self) -> list[float]:
        return self._core.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SaladState:
        """A copy with the cards ``player_id`` cannot see dealt again (voids, passes and hand
        sizes respected, via :func:`salad.sampler.sample_hands`).

        Only this state's own fields are resampled: ``history()`` keeps the original chance
        outcomes, and earlier hands' passes between other seats stay as they were.
        """
        seed = int(float(probability_sampler()) * 2**53)
        return self.resampled(player_id, random.Random(seed))

    def resampled(self, player: int, rng: random.Random) -> SaladState:
        """:meth:`resample_from_infostate` with a Python random generator."""
        new: SaladState = self.clone()
        new._core.resample(player, rng)
        return new

    def view(self, player: int) -> View:
        """The salad :class:`~salad.view.View` of ``player`` (for salad's own bots)."""
        return self._core.view(player)

    def __str__(self) -> str:
        return str(self._core)


class SaladObserver:
    """OpenSpiel observer: strings and the observation tensor.

    With ``perfect_recall`` the string is the information state string (every hand so far);
    without it, the observation string (the current hand and the totals). Seats in the tensor
    are *relative*: row ``r`` is the seat ``r`` places to the observer's left (row 0 is the
    observer). With ``n`` players, ``S = deck.size`` cards, ``K`` suits and ``H`` hands played,
    the tensor concatenates, in this order (pieces in brackets only when public information
    is observed, the last ones only for the private information asked for):

    - ``phase`` (5): one-hot deal (also: waiting for the first dealer), trump, pass, play, over
    - [``hand_index`` (H): one-hot, the hand being played counted from ``first_hand``]
    - [``dealer`` (n), ``to_move`` (n), ``leader`` (n): one-hot relative seats]
    - [``trump`` (K+1), ``led`` (K+1): one-hot suit, the last entry for none]
    - [``trick`` (n, S): row r, the card seat r put in the current trick]
    - [``trick_high`` (n): seat r's Wild in the current trick was declared high]
    - [``played`` (n, S), ``taken`` (n, S): cards each seat played / took this hand]
    - [``voids`` (n, K): suits each seat has shown it lacks this hand]
    - [``hand_sizes`` (n): cards held / cards dealt each]
    - [``tricks_won`` (n): tricks taken this hand / tricks a hand]
    - [``token`` (n+1): one-hot holder of the token, the last entry for nobody]
    - [``running`` (n), ``totals`` (n): points this hand / game points so far, over ``scale``]
    - ``hand``, ``passed``, ``received`` (S each): the observer's own (single-player private)
    - ``hands`` (n, S): every seat's cards (all-players private information only)
    """

    def __init__(self, cfg: _Config, iig_obs_type: Any) -> None:
        self.cfg = cfg
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info
        self._default = self.public and self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        n, deck = cfg.players, cfg.rules.deck
        s, k = deck.size, len(deck.suits)
        pieces: list[tuple[str, tuple[int, ...]]] = [("phase", (5,))]
        if self.public:
            pieces += [
                ("hand_index", (cfg.end_hand - cfg.first_hand,)),
                ("dealer", (n,)),
                ("to_move", (n,)),
                ("leader", (n,)),
                ("trump", (k + 1,)),
                ("led", (k + 1,)),
                ("trick", (n, s)),
                ("trick_high", (n,)),
                ("played", (n, s)),
                ("taken", (n, s)),
                ("voids", (n, k)),
                ("hand_sizes", (n,)),
                ("tricks_won", (n,)),
                ("token", (n + 1,)),
                ("running", (n,)),
                ("totals", (n,)),
            ]
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            pieces += [("hand", (s,)), ("passed", (s,)), ("received", (s,))]
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            pieces += [("hands", (n, s))]
        total = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(total, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: SaladState, player: int) -> None:
        self.tensor.fill(0)
        core = state._core
        cfg = self.cfg
        game = core.game
        d = self.dict
        phase = _DEAL if game is None else game.phase
        if phase is _DEAL and core.is_terminal():
            phase = _OVER
        d["phase"][int(phase)] = 1
        if game is None:
            return
        n = cfg.players
        deck = cfg.rules.deck
        size = deck.size

        def rel(seat: int) -> int:
            return (seat - player) % n

        def bits(row: np.ndarray[Any, Any], mask: CardMask) -> None:
            for c in cards_of(mask):
                row[c] = 1

        dealing = game.phase is _DEAL
        hands = core.deal_masks if dealing else game.hands
        if self.public:
            index = min(game.hand_index, cfg.end_hand - 1) - cfg.first_hand
            d["hand_index"][index] = 1
            d["dealer"][rel(game.dealer)] = 1
            if not dealing and game.phase is not _OVER:
                d["to_move"][rel(game.to_move)] = 1
            k = len(deck.suits)
            d["trump"][game.trump if game.trump != NO_SUIT else k] = 1
            in_play = game.phase is _PLAY
            d["led"][game.led if in_play and game.led != NO_SUIT else k] = 1
            if in_play:
                d["leader"][rel(game.leader)] = 1
                for i, m in enumerate(game.trick):
                    r = rel(game.trick_seat(i))
                    d["trick"][r, m % size] = 1
                    if m >= size:
                        d["trick_high"][r] = 1
            for s in range(n):
                r = rel(s)
                bits(d["played"][r], core.played[s])
                if not dealing:
                    bits(d["taken"][r], game.taken[s])
                    d["tricks_won"][r] = game.tricks_won[s] / deck.cards_each
                for suit in range(k):
                    if core.voids[s] >> suit & 1:
                        d["voids"][r, suit] = 1
                d["hand_sizes"][r] = hands[s].bit_count() / deck.cards_each
            d["token"][rel(game.token) if game.token >= 0 and not dealing else n] = 1
            running = game.running_points() if not dealing else [0] * n
            for s in range(n):
                d["running"][rel(s)] = running[s] / cfg.scale
                d["totals"][rel(s)] = (game.totals[s] - core.base[s]) / cfg.scale
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            bits(d["hand"], hands[player])
            if not dealing:
                bits(d["passed"], game.passed[player])
                bits(d["received"], game.received[player])
        elif self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            for s in range(n):
                bits(d["hands"][rel(s)], hands[s])

    def string_from(self, state: SaladState, player: int) -> str:
        core = state._core
        private = None if self._default else self.private
        if self.perfect_recall:
            return core.info_string(player, private)
        return core.observation_string(player, private)


def load_salad_game(
    rules: str | Ruleset = "canadian", players: int = 0, **params: Any
) -> SaladGame:
    """A :class:`SaladGame` straight from Python (a :class:`Ruleset` object works too)."""
    if isinstance(rules, Ruleset):
        return SaladGame({"players": players, **params}, ruleset=rules)
    return SaladGame({"rules": rules, "players": players, **params})


def _register() -> None:
    if all(t.short_name != GAME_NAME for t in pyspiel.registered_games()):
        pyspiel.register_game(_GAME_TYPE, SaladGame)


_register()
