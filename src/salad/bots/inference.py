"""What the other seats' plays say about their hidden cards: a weight for each sampled world.

The sampler (:mod:`salad.sampler`) deals the unseen cards uniformly among the hands that may
hold them, so a seat that dumped a high heart early is believed to hold as many hearts as any
other. Here every sampled world is weighed by how likely the plays each other seat has made this
hand are, had it held the cards the world gives it, under a model of its play: the fast policy
(:func:`salad.bots.policy.choose_play`, what the basic bot plays) with noise::

    P(play) = (1 - NOISE) * [the policy plays it] + NOISE / (its legal cards)

A seat's hand at an earlier play is its hand in the world plus the cards it played from then on. A
forced play says nothing; a play the policy would make from many low hearts rarely but from a
short suit always (a high heart dumped, say) makes worlds with few hearts in that seat weigh
more. The searcher averages its rollouts with these weights (:class:`salad.bots.search.Searcher`).

Everything that does not depend on the world (who played what, when, what each seat had shown
void by then) is worked out once per decision (:func:`prepare`); a world then costs one policy
call per earlier play of another seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from salad.bots.policy import HandModel, choose_play
from salad.bots.search import Inference, Weigher, WorldMaker, sample_world
from salad.cards import NO_SUIT, CardMask
from salad.engine import Game
from salad.errors import SaladError
from salad.view import Phase, View

NOISE = 0.5
"""The chance that a seat plays a card of its legal ones at random instead of the policy's."""

CANDIDATES = 4
"""Worlds sampled for each one kept, when resampling."""
TEMPER = 0.3
"""Weights used as they are vary so much that a few worlds decide (about 2 to 8 effective
worlds of 100): the ``weigh`` mode flattens them to ``likelihood ** TEMPER``."""

MODES = {"true": "resample", "resample": "resample", "weigh": "weigh", "false": "off"}
"""The values of a searching bot's ``inference`` option, and the mode each means."""


@dataclass(frozen=True)
class Observed:
    """One earlier play by another seat, with what its choice depended on that is public."""

    seat: int
    move: int
    later: CardMask
    """This card and the ones the seat played after it (its hand then = its hand now | later)."""
    played: CardMask
    """Every card played this hand before this one (the current trick's included)."""
    trick: tuple[int, ...]
    led: int
    after: CardMask
    """The cards the seats after it in the trick may hold, as far as their voids tell."""
    n_after: int
    last_trick: bool
    token_mine: bool


def observed_plays(view: View, m: HandModel) -> list[Observed]:
    """The other seats' plays this hand, oldest first (none outside the play phase)."""
    if view.phase != Phase.PLAY:
        return []
    n = view.players
    size = m.size
    tricks: list[tuple[int, Sequence[int]]] = [(t.leader, t.moves) for t in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    plays: list[tuple[int, int, int, tuple[int, ...], int, int, int, int]] = []
    voids = [0] * n
    played = 0
    token = -1
    for number, (leader, moves) in enumerate(tricks):
        led = NO_SUIT
        for i, mv in enumerate(moves):
            seat = (leader + i) % n
            card = mv % size
            n_after = n - i - 1
            allowed = 0
            for j in range(1, n_after + 1):
                mask = m.deck.in_play
                for s, suit_mask in enumerate(m.suit_masks):
                    if voids[(seat + j) % n] >> s & 1:
                        mask &= ~suit_mask
                allowed |= mask
            plays.append((seat, mv, played, tuple(moves[:i]), led, allowed, number, token))
            suit = m.suit_of[card]
            if suit != NO_SUIT:
                if led == NO_SUIT:
                    led = suit
                elif suit != led:
                    voids[seat] |= 1 << led
            played |= 1 << card
        if number < len(view.tricks):
            trick_mask = 0
            for mv in moves:
                trick_mask |= 1 << (mv % size)
            if trick_mask & m.token_mask:
                token = view.tricks[number].winner
    out: list[Observed] = []
    later = [0] * n
    for seat, mv, before, trick, led, allowed, number, holder in reversed(plays):
        later[seat] |= 1 << (mv % size)
        if seat != view.seat:
            out.append(
                Observed(
                    seat,
                    mv,
                    later[seat],
                    before,
                    trick,
                    led,
                    allowed,
                    n - len(trick) - 1,
                    number == m.tricks - 1,
                    holder == seat,
                )
            )
    out.reverse()
    return out


def legal_then(m: HandModel, hand: CardMask, led: int) -> list[int]:
    """The moves a seat holding ``hand`` had with ``led`` the led suit."""
    allowed = hand
    if led != NO_SUIT and hand & m.suit_masks[led]:
        allowed = hand & (m.suit_masks[led] | m.wild_mask)
    moves: list[int] = []
    while allowed:
        low = allowed & -allowed
        card = low.bit_length() - 1
        allowed ^= low
        moves.append(card)
        if m.declare_mask >> card & 1:
            moves.append(card + m.size)
    return moves


def play_likelihood(
    m: HandModel, seen: Observed, hand: CardMask, trump: int, noise: float = NOISE
) -> float:
    """How likely ``seen``'s play was, had its seat held ``hand`` then."""
    legal = legal_then(m, hand, seen.led)
    if len(legal) <= 1:
        return 1.0
    out = m.deck.in_play & ~hand & ~seen.played
    pick = choose_play(
        m,
        legal,
        seen.trick,
        seen.led,
        trump,
        out,
        out & seen.after,
        seen.n_after,
        seen.last_trick,
        seen.token_mine,
    )
    p = noise / len(legal)
    size = m.size
    same = m.same
    if (pick >= size) == (seen.move >= size) and same[pick % size] == same[seen.move % size]:
        p += 1.0 - noise
    return p


def prepare(view: View, m: HandModel, noise: float = NOISE, temper: float = 1.0) -> Weigher | None:
    """The weight of a world for this decision, or None when no play tells anything yet.
    ``temper`` < 1 flattens the weights (likelihood ** temper)."""
    seen = observed_plays(view, m)
    if not seen:
        return None
    trump = view.trump

    def weigh(hands: Sequence[CardMask]) -> float:
        w = 1.0
        for s in seen:
            w *= play_likelihood(m, s, hands[s.seat] | s.later, trump, noise)
        return w if temper == 1.0 else w**temper

    return weigh


def resampling(make: WorldMaker, candidates: int = CANDIDATES) -> WorldMaker:
    """Worlds drawn from the inferred beliefs: each of ``candidates`` worlds made by ``make``
    is weighed, and one is picked with chance proportional to its weight (sampling importance
    resampling); the search then counts every world alike."""
    cache: list[tuple[View, Weigher | None]] = []

    def world(view: View, m: HandModel, rng: random.Random) -> Game:
        if not cache or cache[0][0] is not view:
            cache[:] = [(view, prepare(view, m))]
        weigh = cache[0][1]
        if weigh is None:
            return make(view, m, rng)
        options = [make(view, m, rng) for _ in range(candidates)]
        weights = [weigh(g.hands) for g in options]
        return rng.choices(options, weights)[0]

    return world


def tempered(view: View, m: HandModel) -> Weigher | None:
    """:func:`prepare` with flattened weights (:data:`TEMPER`)."""
    return prepare(view, m, temper=TEMPER)


def inference_mode(bot: str, value: object) -> str:
    """The mode a bot's ``inference`` option asks for (default: resample); refused in one line
    when it is none of :data:`MODES`."""
    if value is None:
        return "resample"
    key = str(value).strip().lower() if isinstance(value, str | bool) else None
    if key not in MODES:
        known = ", ".join(MODES)
        raise SaladError(f"bots: {bot}: inference must be true or false ({known}), not {value!r}")
    return MODES[key]


def search_inputs(mode: str) -> tuple[WorldMaker, Inference | None]:
    """What a :class:`~salad.bots.search.Searcher` takes for ``mode``: its world maker, and
    its weigher of worlds."""
    if mode == "resample":
        return resampling(sample_world), None
    if mode == "weigh":
        return sample_world, tempered
    return sample_world, None
