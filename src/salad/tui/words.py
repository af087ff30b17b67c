"""The game in words, for both front ends of ``salad play``: penalties, cards and hands, the last
trick, what just happened and who won.

Everything is read from the ruleset and the engine: no card, suit or round is named here.

>>> from salad.formats.rules import load_ruleset
>>> game = Game(load_ruleset("canadian"), 4, seed=1)
>>> penalties_text(current_hand(game))
'Tricks 10 each'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from salad.cards import NO_SUIT, Card, CardMask, Deck, cards_of
from salad.engine import Game
from salad.events import (
    Deal,
    GameOver,
    HandScored,
    PassChosen,
    PassesExchanged,
    Play,
    TokenTaken,
    TrickWon,
    TrumpChosen,
    typed,
)
from salad.locale import _, pgettext
from salad.locale import cards as shown
from salad.moves import Move, card_of
from salad.ruleset import CompiledHand, CompiledPenalty, Kind
from salad.scoring import HandBreakdown, hand_breakdowns


def penalty_text(p: CompiledPenalty, compact: bool = False) -> str:
    """One penalty in a few words, e.g. ``Hearts 10 each`` or ``King of Spades 100``."""
    name = _(p.penalty.name)
    if compact:
        return _("{name} {points}").format(name=name, points=p.points)
    if p.kind == Kind.TOKEN:
        return _("{name} {points} to its holder").format(name=name, points=p.points)
    if p.kind == Kind.TRICK:
        # TRANSLATORS: points per trick won: "Tricks 10 each"
        return pgettext("per trick", "{name} {points} each").format(name=name, points=p.points)
    if p.kind == Kind.CARDS and p.mask.bit_count() > 1:
        # TRANSLATORS: points per card taken: "Hearts 10 each"
        return pgettext("per card", "{name} {points} each").format(name=name, points=p.points)
    return _("{name} {points}").format(name=name, points=p.points)


def penalties_text(hand: CompiledHand, width: int = 0) -> str:
    """Every penalty of a hand in one line; compact when ``width`` is too small for words."""
    text = " · ".join(penalty_text(p) for p in hand.penalties)
    if width and len(text) > width:
        text = " · ".join(penalty_text(p, compact=True) for p in hand.penalties)
    return text or _("no penalties")


def current_hand(game: Game) -> CompiledHand:
    """The compiled hand being played (the last one once the game is over)."""
    hands = game.rules.hands
    return hands[min(game.hand_index, len(hands) - 1)]


def token_name(game: Game, hand: int = -1) -> str:
    """The name of the token penalty of hand ``hand`` (default: the one being played;
    ``token`` if it has none)."""
    compiled = current_hand(game) if hand < 0 else game.rules.hands[hand]
    return next((_(p.penalty.name) for p in compiled.penalties if p.kind == Kind.TOKEN), _("token"))


def card_label(deck: Deck, card: Card, symbols: bool = True) -> str:
    """A card in the current language: ``Q♠`` (``D♠``), or as typed (``QS``, ``DP``)."""
    return shown.short(deck, card) if symbols else shown.typed(deck, card)


def suit_label(deck: Deck, suit: int, symbols: bool = True) -> str:
    return shown.suit_label(deck, suit, symbols)


def move_label(deck: Deck, move: Move, symbols: bool = True) -> str:
    """A move in the current language (:func:`salad.locale.cards.move_label`)."""
    return shown.move_label(deck, move, symbols)


def accepted_codes(deck: Deck) -> frozenset[str]:
    """Every way of typing a card of ``deck`` in the current language, upper case (``QS``,
    ``10H``, ``Q♠``, ``W``; ``DP``, ``10C``, ``D♠`` in French)."""
    return shown.accepted(deck)


def free_key(key: str, deck: Deck) -> str:
    """``key``, or ``ctrl+key`` where the letter starts a card in the current language (``r``
    for the rules is ``R``, a King, in French: the rules move to Ctrl+R)."""
    if len(key) == 1 and key.upper() in {code[0] for code in accepted_codes(deck)}:
        return f"ctrl+{key}"
    return key


def card_examples(deck: Deck) -> tuple[str, str]:
    """Two cards of ``deck`` as a player types them in the current language."""
    return shown.examples(deck)


def either(words: Sequence[str]) -> str:
    """Words joined by "or" in the current language."""
    text = words[0] if words else ""
    for word in words[1:]:
        text = _("{first} or {second}").format(first=text, second=word)
    return text


def wild_names(deck: Deck, among: CardMask | None = None) -> list[str]:
    """The wild cards of ``deck`` (of those in ``among``) in words, e.g. ``W: Wild (played
    high or low)``."""
    out = []
    for w in deck.spec.wilds:
        card = deck.parse(w.code)
        if among is not None and not any(
            among >> c & 1 for c in cards_of(deck.wild_mask) if deck.codes[c] == w.code
        ):
            continue
        if deck.always_mask >> card & 1:
            how = _("wins any trick it is in")
        elif deck.declare_mask >> card & 1:
            how = _("played high or low")
        else:
            how = _("loses to every card")
        out.append(_("{symbol}: {name} ({how})").format(symbol=w.symbol, name=_(w.name), how=how))
    return out


def cards_in_words(deck: Deck, mask: CardMask) -> str:
    """Some cards in words: whole suits by name (``one of the Tomatoes``), else each card."""
    parts = []
    for i, suit_mask in enumerate(deck.suit_masks):
        live = suit_mask & deck.in_play
        if live and mask & live == live:
            parts.append(_(deck.suits[i].name))
            mask &= ~suit_mask
    whole = _("one of the {suits}").format(suits=either(parts)) if parts else ""
    cards = [shown.name(deck, c) for c in cards_of(mask)]
    return either([whole, *cards] if whole else cards) or _("no card")


def token_names(game: Game) -> list[str]:
    """Every token penalty of the game in words, e.g. ``Rotten Tomato: 25 to its holder at
    the end of the hand; a trick won with Tomatoes takes it``."""
    out: dict[str, str] = {}
    for hand in game.rules.hands:
        for p in hand.penalties:
            if p.kind == Kind.TOKEN and p.mask:
                what = cards_in_words(game.deck, p.mask)
                out[p.penalty.id] = _(
                    "{name}: {points} to its holder at the end of the hand; "
                    "winning a trick holding {what} takes it"
                ).format(name=_(p.penalty.name), points=p.points, what=what)
    return list(out.values())


def sorted_hand(deck: Deck, mask: CardMask) -> list[list[Card]]:
    """A hand as rows: one per suit in deck order (empty suits left out), the wild cards last."""
    rows = [cards_of(mask & m) for m in deck.suit_masks]
    rows.append(cards_of(mask & deck.wild_mask))
    return [r for r in rows if r]


def cards_in_order(deck: Deck, mask: CardMask) -> list[Card]:
    """The cards of a hand sorted by suit, the wild cards last."""
    return [c for row in sorted_hand(deck, mask) for c in row]


def hand_codes(deck: Deck, mask: CardMask, symbols: bool = False) -> str:
    return " ".join(card_label(deck, c, symbols) for c in cards_in_order(deck, mask))


def trick_cost(game: Game, hand_index: int, moves: Sequence[Move], last: bool) -> int:
    """What a finished trick costs its winner under the penalties of hand ``hand_index``."""
    compiled = game.rules.hands[hand_index]
    mask = 0
    for m in moves:
        mask |= 1 << card_of(game.deck, m)
    cost = 0
    for p in compiled.penalties:
        if p.kind == Kind.TRICK:
            cost += p.points
        elif p.kind == Kind.CARDS:
            cost += (mask & p.mask).bit_count() * p.points
        elif p.kind == Kind.LAST_TRICK and last:
            cost += p.points
    return cost


@dataclass(frozen=True)
class TrickInfo:
    """A finished trick: who led, the moves in play order, the winner and what it cost."""

    hand_index: int
    number: int
    leader: int
    moves: tuple[Move, ...]
    winner: int
    cost: int

    def seat(self, i: int, players: int) -> int:
        return (self.leader + i) % players


def last_trick(game: Game, hand: int = -1) -> TrickInfo | None:
    """The last finished trick of the game (from the previous hand if this one has none yet);
    with ``hand``, the last trick of that hand."""
    events = game.events
    for i in range(len(events) - 1, -1, -1):
        won = events[i]
        if isinstance(won, TrickWon) and hand in (-1, won.hand):
            plays = [e for e in events[:i] if isinstance(e, Play)][-game.players :]
            moves = tuple(p.move for p in plays)
            is_last = won.trick == game.deck.cards_each - 1
            cost = trick_cost(game, won.hand, moves, is_last)
            return TrickInfo(won.hand, won.trick, plays[0].seat, moves, won.winner, cost)
    return None


@dataclass(frozen=True)
class HandEnd:
    """A finished hand as its last moment looked: the last trick being won, and the points."""

    index: int
    dealer: int
    trick: TrickInfo
    """Its last trick."""
    breakdown: HandBreakdown
    totals: tuple[int, ...]
    """Everyone's total once this hand is scored."""
    token: int
    """Who held the token at the end, or -1."""


def hand_end(game: Game, index: int) -> HandEnd:
    """Hand ``index`` (finished) at its end, from the engine's log."""
    g = game
    trick = last_trick(g, index)
    assert trick is not None, "the hand is not finished"
    dealer = token = -1
    for e in g.events:
        if isinstance(e, Deal) and e.hand == index:
            dealer, token = e.dealer, -1
        elif isinstance(e, TokenTaken) and dealer >= 0:
            token = e.seat
        elif isinstance(e, HandScored) and e.hand == index:
            break
    totals = tuple(sum(p[s] for p in g.hand_points[: index + 1]) for s in range(g.players))
    breakdown = hand_breakdowns(g.rules, g.log)[index]
    return HandEnd(index, dealer, trick, breakdown, totals, token)


def breakdown_rows(game: Game, b: HandBreakdown) -> list[tuple[str, tuple[int, ...]]]:
    """A hand's points as rows: (penalty name, points per seat), then the moon's if shot."""
    hand = game.rules.hands[b.hand]
    rows = [(_(p.penalty.name), row) for p, row in zip(hand.penalties, b.by_penalty, strict=True)]
    if b.moon >= 0:
        rows.append((_("Moon"), b.moon_points))
    return rows


def breakdown_lines(game: Game, names: Sequence[str], b: HandBreakdown) -> list[str]:
    """One line per seat: its points of the hand and where they came from."""
    rows = breakdown_rows(game, b)
    out = []
    for seat, name in enumerate(names):
        parts = [f"{what} {row[seat]}" for what, row in rows if row[seat]]
        if parts:
            line = _("{name}: {points} ({detail}).").format(
                name=name, points=b.points[seat], detail=", ".join(parts)
            )
        else:
            line = _("{name}: {points}.").format(name=name, points=b.points[seat])
        out.append("  " + line)
    return out


def narrate(
    game: Game,
    names: Sequence[str],
    you: int,
    entries: Sequence[tuple[object, ...]],
    symbols: bool,
) -> list[str]:
    """The new log entries (the tail of the log) in sentences, told to the player in seat
    ``you``; a bot's passes stay hidden."""
    g = game
    deck = g.deck
    out: list[str] = []
    trick_moves: list[Move] = []
    # The current trick so far (before these entries) gives the cost of the trick they finish,
    # and the token's holder says whether a TokenTaken is news.
    holder = -1
    hand = g.hand_index
    in_trick = True
    for entry in g.log[: len(g.log) - len(entries)][::-1]:
        earlier = typed(entry)
        if isinstance(earlier, Play) and in_trick:
            trick_moves.insert(0, earlier.move)
        elif isinstance(earlier, TrickWon):
            in_trick = False
        elif isinstance(earlier, TokenTaken) and holder < 0:
            holder = earlier.seat
        elif isinstance(earlier, Deal | HandScored):
            break
    for entry in entries:
        e = typed(entry)
        if isinstance(e, Play):
            trick_moves.append(e.move)
            out.append(
                _("{name}: {card}").format(
                    name=names[e.seat], card=move_label(deck, e.move, symbols)
                )
            )
        elif isinstance(e, TrickWon):
            hand = e.hand
            cost = trick_cost(g, e.hand, trick_moves, e.trick == deck.cards_each - 1)
            out.append(trick_taken(names[e.winner], e.winner == you, e.trick + 1, cost))
            trick_moves = []
        elif isinstance(e, TokenTaken):
            if e.seat != holder:
                if e.seat == you:
                    text = _("{name} now hold the {token}.")
                else:
                    text = _("{name} now holds the {token}.")
                out.append(text.format(name=names[e.seat], token=token_name(g, hand)))
            holder = e.seat
        elif isinstance(e, PassChosen):
            if e.seat == you:
                out.append(_("You pass {card}.").format(card=card_label(deck, e.card, symbols)))
        elif isinstance(e, PassesExchanged):
            received = g.view(you).received
            got = " ".join(card_label(deck, c, symbols) for c in cards_of(received))
            out.append(
                _("Cards passed. You received {cards}.").format(cards=got)
                if got
                else _("Cards passed.")
            )
        elif isinstance(e, TrumpChosen):
            if e.suit == NO_SUIT:
                continue
            trump = suit_label(deck, e.suit, symbols)
            if e.seat >= 0:
                out.append(
                    _("Trump: {suit} (chosen by {name}).").format(suit=trump, name=names[e.seat])
                )
            else:
                out.append(_("Trump: {suit}.").format(suit=trump))
        elif isinstance(e, HandScored):
            name = _(g.rules.hands[e.hand].round.name)
            scores = ", ".join(f"{names[s]} {p}" for s, p in enumerate(e.points))
            out.append(
                _("Hand {number} ({round}) is over: {scores}.").format(
                    number=e.hand + 1, round=name, scores=scores
                )
            )
            if e.moon >= 0:
                out.append(_("{name} shot the moon!").format(name=names[e.moon]))
            out.extend(breakdown_lines(g, names, hand_breakdowns(g.rules, g.log)[e.hand]))
            holder = -1
        elif isinstance(e, Deal):
            holder = -1
            dealt = g.rules.hands[e.hand]
            deals = _("{name} deal.") if e.dealer == you else _("{name} deals.")
            head = _("Hand {number} of {total}: {round} ({penalties}).").format(
                number=e.hand + 1,
                total=len(g.rules.hands),
                round=_(dealt.round.name),
                penalties=penalties_text(dealt),
            )
            out.append(f"{head} {deals.format(name=names[e.dealer])}")
        elif isinstance(e, GameOver):
            out.append(_("The game is over."))
    return out


def result_lines(game: Game, names: Sequence[str], you: int) -> list[str]:
    """The final totals, best first, and who won (told to the player in seat ``you``)."""
    g = game
    places = g.standings()
    order = sorted(range(g.players), key=lambda s: (places[s], s))
    lines = [
        _("{place}. {name}: {total}").format(place=places[s], name=names[s], total=g.totals[s])
        for s in order
    ]
    winners = g.winners()
    high = g.ruleset.highest_wins
    if winners == [you]:
        lines.append(
            _("You win with the highest total!") if high else _("You win with the lowest total!")
        )
    elif len(winners) == 1:
        text = (
            _("{name} wins with the highest total.")
            if high
            else _("{name} wins with the lowest total.")
        )
        lines.append(text.format(name=names[winners[0]]))
    else:
        lines.append(
            _("Shared first place: {names}.").format(names=", ".join(names[s] for s in winners))
        )
    return lines


def trick_taken(name: str, you: bool, number: int, cost: int) -> str:
    """``Bot 2 takes trick 3 (+10).``, or told to you."""
    if you:
        if cost:
            text = _("{name} take trick {number} (+{cost}).")
        else:
            text = _("{name} take trick {number} (no points).")
    elif cost:
        text = _("{name} takes trick {number} (+{cost}).")
    else:
        text = _("{name} takes trick {number} (no points).")
    return text.format(name=name, number=number, cost=cost)
