"""Hidden cards, resampled consistently with what one seat knows.

Searching bots (and the OpenSpiel adapter's ``resample_from_infostate``) guess the other hands
from a :class:`~salad.view.View`: the cards nobody has seen yet are dealt out again so that every
seat gets as many cards as it holds, no seat gets a suit it has shown void in, and the cards this
seat passed stay with the player it passed them to. Mid-pass, :func:`sample_passes` guesses the
cards the seats before this one chose to pass (their choices are hidden until the exchange).

>>> import random
>>> from salad import Game, load_ruleset
>>> game = Game(load_ruleset(), 4, seed=5)
>>> view = game.view(game.to_move)
>>> hands = sample_hands(view, random.Random(1))
>>> hands[view.seat] == view.hand and sum(h.bit_count() for h in hands)
52
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence

from salad.cards import NO_SUIT, CardMask, cards_of
from salad.errors import SaladError
from salad.moves import Move
from salad.view import SPECTATOR, Phase, View


def shown_voids(view: View) -> list[int]:
    """Per seat, a bitmask of the suits it has shown it holds none of in this hand.

    A seat that plays a suited card off the led suit is void in the led suit; a wild card says
    nothing, since it may be played at any time.
    """
    voids = [0] * view.players
    tricks: list[tuple[int, Sequence[Move]]] = [(t.leader, t.moves) for t in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for leader, moves in tricks:
        _voids_in_trick(view, leader, moves, voids)
    return voids


def _voids_in_trick(view: View, leader: int, moves: Iterable[Move], voids: list[int]) -> None:
    deck = view.deck
    size = deck.size
    led = NO_SUIT
    for i, move in enumerate(moves):
        suit = deck.suit_of[move % size]
        if suit == NO_SUIT:
            continue
        if led == NO_SUIT:
            led = suit
        elif suit != led:
            voids[(leader + i) % view.players] |= 1 << led


def known_cards(view: View) -> list[CardMask]:
    """Per seat, the unplayed cards this seat knows it holds (its own hand, its passes)."""
    known = [0] * view.players
    if view.seat == SPECTATOR:
        return known
    known[view.seat] = view.hand
    if view.passed and view.received:  # the exchange has happened
        offset = view.ruleset.pass_offset or view.players // 2
        receiver = (view.seat + offset) % view.players
        known[receiver] = view.passed & ~view.played
    return known


def unseen_cards(view: View) -> CardMask:
    """The cards in play that this seat has not seen: in other hands, somewhere."""
    return view.deck.in_play & ~view.hand & ~view.played


def sample_hands(view: View, rng: random.Random, attempts: int = 200) -> list[CardMask]:
    """Every seat's hand, this seat's as it is and the others guessed consistently."""
    n = view.players
    known = known_cards(view)
    voids = shown_voids(view)
    free = unseen_cards(view)
    for h in known:
        free &= ~h
    need = [view.hand_sizes[s] - known[s].bit_count() for s in range(n)]
    if any(x < 0 for x in need) or sum(need) != free.bit_count():
        raise SaladError("sample: the view's hand sizes do not match its unseen cards")
    deck = view.deck
    allowed_for = _allowed_masks(view, voids)
    cards = cards_of(free)
    # Most constrained cards first: fewer seats may hold them.
    seats = [s for s in range(n) if need[s]]
    anyone = free  # cards every seat still to be dealt may hold share one takers list
    for s in seats:
        anyone &= allowed_for[s]
    takers = {
        c: seats if anyone >> c & 1 else [s for s in seats if allowed_for[s] >> c & 1]
        for c in cards
    }
    count = {c: len(t) for c, t in takers.items()}
    # Cards any seat still short of cards may hold go last, shuffled and cut by what each
    # seat still needs: the same uniform deal as placing them one by one, far faster.
    bound = [c for c in cards if not anyone >> c & 1]
    loose = [c for c in cards if anyone >> c & 1]
    random_ = rng.random
    for _ in range(attempts):
        rng.shuffle(bound)
        bound.sort(key=count.__getitem__)
        hands = known[:]
        left = need[:]
        for card in bound:
            # rng.choices(options, weights=left)[0], inlined: the same draw, a third the time.
            options = []
            cum = []
            total = 0
            for s in takers[card]:
                if left[s]:
                    total += left[s]
                    options.append(s)
                    cum.append(total)
            if not options:
                break
            seat = options[bisect_right(cum, random_() * (total + 0.0), 0, len(cum) - 1)]
            hands[seat] |= 1 << card
            left[seat] -= 1
        else:
            rng.shuffle(loose)
            at = 0
            for seat in range(n):
                for card in loose[at : at + left[seat]]:
                    hands[seat] |= 1 << card
                at += left[seat]
            return hands
    exact = _exact(cards, takers, known, need)
    if exact is None:
        raise SaladError(f"sample: no deal of {deck.size} cards fits seat {view.seat}'s view")
    return exact


def _allowed_masks(view: View, voids: list[int]) -> list[CardMask]:
    deck = view.deck
    allowed = []
    for s in range(view.players):
        mask = deck.in_play
        for suit, suit_mask in enumerate(deck.suit_masks):
            if voids[s] >> suit & 1:
                mask &= ~suit_mask
        allowed.append(mask)
    return allowed


def _exact(
    cards: list[int], takers: dict[int, list[int]], known: list[CardMask], need: list[int]
) -> list[CardMask] | None:
    """Depth-first assignment, for the rare case the random greedy one keeps failing."""
    order = sorted(cards, key=lambda c: len(takers[c]))
    hands = known[:]
    left = need[:]

    def place(i: int) -> bool:
        if i == len(order):
            return True
        card = order[i]
        for seat in takers[card]:
            if left[seat]:
                left[seat] -= 1
                hands[seat] |= 1 << card
                if place(i + 1):
                    return True
                hands[seat] &= ~(1 << card)
                left[seat] += 1
        return False

    return hands if place(0) else None


PassPicker = Callable[[int, CardMask, int], CardMask]
"""A model of how a seat passes: ``(seat, hand, count)`` → the ``count`` cards it passes."""


def random_passes(rng: random.Random) -> PassPicker:
    """The model that knows nothing: any ``count`` cards of the hand, uniformly."""

    def pick(seat: int, hand: CardMask, count: int) -> CardMask:
        return sum(1 << c for c in rng.sample(cards_of(hand), count))

    return pick


def passed_seats(view: View) -> list[int]:
    """Mid-pass, the seats that have chosen their passes already (in passing order)."""
    if view.phase != Phase.PASS:
        return []
    n = view.players
    first = (view.dealer + 1) % n
    return [(first + i) % n for i in range((view.to_move - first) % n)]


def sample_passes(
    view: View, hands: Sequence[CardMask], rng: random.Random, pick: PassPicker | None = None
) -> list[CardMask]:
    """Every seat's cards chosen to pass so far, in a world with ``hands`` (say from
    :func:`sample_hands`): this seat's as its view shows them; each seat that chose before the
    one to move, as ``pick`` (a model of its passing; default: at random) chooses from its
    sampled hand; none for the others. Give the result to ``Game.from_view``."""
    passed = [0] * view.players
    if view.phase != Phase.PASS:
        return passed
    count = view.ruleset.passing
    chooser = pick or random_passes(rng)
    for s in passed_seats(view):
        if s != view.seat:
            passed[s] = chooser(s, hands[s], count)
    if view.seat != SPECTATOR:
        passed[view.seat] = view.passed
    return passed
