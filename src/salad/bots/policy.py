"""The card sense every bot shares: what a hand's penalties make each card worth, and a fast
rule-based choice of card, pass and trump built on it.

Everything here works on plain integers and bitmasks, so the same code serves the basic bot
(fed from a :class:`~salad.view.View`, where the other hands are unknown) and the searching
bots' rollouts (fed straight from a determinized :class:`~salad.engine.Game`, many thousand
times a second).

The rules are read only from the hand's compiled penalties (:class:`HandModel`), never from
round names or particular cards. ``sign`` turns the objective round: +1 avoids points, -1 (a
ruleset where the highest total wins) seeks them; every score below is "points I expect to
take", multiplied by ``sign`` and minimised.

A candidate card is scored as::

    sign * (P(win this trick) * what the trick would cost  -  LAMBDA * future(card))

where ``future(card)`` is what holding the card on is expected to cost later: the chance that
it wins a trick of its own, times an average trick's worth plus the card's own penalty.
Playing a card gives up its future, so a void seat sheds its most dangerous card, a seat that
can duck ducks with its highest card that still loses, a seat that must win wins with its
highest card, and under a flipped objective all of it turns round.
"""

from __future__ import annotations

from collections.abc import Sequence

from salad.cards import NO_SUIT, CardMask, Deck
from salad.ruleset import CompiledHand, Kind, Ruleset

LAMBDA = 0.5
"""How much a card's future danger weighs against this trick's expected cost."""
STUCK = 0.0
"""Extra chance of ending up with one's own penalty card, beyond its winning a trick."""
DUMP = 1.3
"""How much a later seat is expected to add to a trick it lets someone else win, as a
multiple of the average penalty still out per card."""


class HandModel:
    """One hand's penalties and deck tables, flattened for speed."""

    __slots__ = (
        "deck",
        "n",
        "size",
        "tricks",
        "sign",
        "suit_of",
        "rank_of",
        "suit_masks",
        "wild_mask",
        "declare_mask",
        "always_mask",
        "above",
        "below",
        "same",
        "cost",
        "cost_masks",
        "trick_cost",
        "last_cost",
        "token_mask",
        "token_points",
        "avg_trick",
    )

    def __init__(self, ruleset: Ruleset, players: int, hand_index: int) -> None:
        rules = ruleset.compiled(players)
        deck: Deck = rules.deck
        hand: CompiledHand = rules.hands[min(hand_index, len(rules.hands) - 1)]
        self.deck = deck
        self.n = players
        self.size = size = deck.size
        self.tricks = deck.cards_each
        self.sign = -1 if ruleset.highest_wins else 1
        self.suit_of = deck.suit_of
        self.rank_of = deck.rank_of
        self.suit_masks = deck.suit_masks
        self.wild_mask = deck.wild_mask
        self.declare_mask = deck.declare_mask
        self.always_mask = deck.always_mask
        above = [0] * size
        below = [0] * size
        same = list(range(size))
        ranks = len(deck.spec.ranks)
        first: dict[str, int] = {}
        by_rank: dict[tuple[int, int], int] = {}
        for c in range(size):
            same[c] = first.setdefault(deck.codes[c], c)
            s = deck.suit_of[c]
            if s != NO_SUIT:
                key = (s, deck.rank_of[c])
                by_rank[key] = by_rank.get(key, 0) | 1 << c
        for s in range(len(deck.suits)):
            lower = 0
            for r in range(ranks):
                at = by_rank.get((s, r), 0)
                higher = deck.suit_masks[s] & ~lower & ~at
                mask = at
                while mask:
                    low = mask & -mask
                    c = low.bit_length() - 1
                    mask ^= low
                    below[c] = lower
                    above[c] = higher
                lower |= at
        self.above = above
        self.below = below
        self.same = same
        cost = [0] * size
        cost_masks: list[tuple[int, int]] = []
        trick_cost = last_cost = token_mask = token_points = 0
        for p in hand.penalties:
            if p.kind == Kind.TRICK:
                trick_cost += p.points
            elif p.kind == Kind.LAST_TRICK:
                last_cost += p.points
            elif p.kind == Kind.TOKEN:
                token_mask |= p.mask
                token_points += p.points
            else:
                mask = p.mask & deck.in_play
                if mask:
                    cost_masks.append((mask, p.points))
                    m = mask
                    while m:
                        low = m & -m
                        cost[low.bit_length() - 1] += p.points
                        m ^= low
        self.cost = cost
        self.cost_masks = tuple(cost_masks)
        self.trick_cost = trick_cost
        self.last_cost = last_cost
        self.token_mask = token_mask & deck.in_play
        self.token_points = token_points if self.token_mask else 0
        total = trick_cost * self.tricks + last_cost + self.token_points
        total += sum(m.bit_count() * pts for m, pts in cost_masks)
        self.avg_trick = total / max(1, self.tricks)

    def mask_cost(self, mask: CardMask) -> int:
        """The card penalties in ``mask``."""
        total = 0
        for m, pts in self.cost_masks:
            total += (mask & m).bit_count() * pts
        return total


_MODELS: dict[tuple[int, int, int], tuple[Ruleset, HandModel]] = {}
_BY_VALUE: dict[tuple[Ruleset, int, int], HandModel] = {}


def hand_model(ruleset: Ruleset, players: int, hand_index: int) -> HandModel:
    """A cached :class:`HandModel`: by the ruleset object first (rulesets are immutable, and
    hashing one is not free), then by its value."""
    key = (id(ruleset), players, hand_index)
    hit = _MODELS.get(key)
    if hit is not None and hit[0] is ruleset:
        return hit[1]
    if len(_MODELS) > 256:
        _MODELS.clear()
    if len(_BY_VALUE) > 256:
        _BY_VALUE.clear()
    vkey = (ruleset, players, hand_index)
    model = _BY_VALUE.get(vkey)
    if model is None:
        model = _BY_VALUE[vkey] = HandModel(ruleset, players, hand_index)
    _MODELS[key] = (ruleset, model)
    return model


# -- card values ---------------------------------------------------------------------------------


def win_chance(m: HandModel, card: int, out: CardMask, trump: int) -> float:
    """A rough chance that ``card``, held, takes a trick of its own later on."""
    s = m.suit_of[card]
    if s == NO_SUIT:
        if m.always_mask >> card & 1:
            return 1.0
        if m.declare_mask >> card & 1:
            return 0.0 if m.sign > 0 else 0.9
        return 0.0
    hi = (out & m.above[card]).bit_count()
    lo = (out & m.below[card]).bit_count()
    k = min(m.n - 1, max(1, lo + hi))
    p: float = ((lo + 0.5) / (lo + hi + 1)) ** k
    if trump >= 0:
        if s == trump:
            p = p**0.5
        elif out & m.suit_masks[trump]:
            p *= 0.8
    return p


def future(m: HandModel, card: int, out: CardMask, trump: int) -> float:
    """What holding ``card`` on is expected to cost its holder (points, before ``sign``)."""
    p = win_chance(m, card, out, trump)
    c = m.cost[card]
    return p * (m.avg_trick + c) + STUCK * c


def trick_key(m: HandModel, move: int, led: int, trump: int) -> int:
    """How strongly a move stands in a trick: a higher key wins; between equal keys of
    suited cards (identical copies) the later card wins, between Wilds the earlier."""
    size = m.size
    if move >= size:
        return 3_000_000  # a Wild declared high
    s = m.suit_of[move]
    if s == NO_SUIT:
        return 4_000_000 if m.always_mask >> move & 1 else 0
    if s == trump:
        return 2_000_000 + m.rank_of[move]
    if s == led or led == NO_SUIT:
        return 1_000_000 + m.rank_of[move]
    return -1


def current_key(m: HandModel, trick: Sequence[int], trump: int) -> int:
    """The key of the card winning ``trick`` so far (-2 for an empty trick)."""
    best = -2
    led = NO_SUIT
    size = m.size
    suit_of = m.suit_of
    for mv in trick:
        card = mv % size
        key = trick_key(m, mv, led, trump)
        if led == NO_SUIT and suit_of[card] != NO_SUIT:
            led = suit_of[card]
        if key > best or (key == best and key >= 1_000_000 and key < 3_000_000):
            best = key
    return best


# -- choices -------------------------------------------------------------------------------------


def choose_play(
    m: HandModel,
    legal: Sequence[int],
    trick: Sequence[int],
    led: int,
    trump: int,
    out: CardMask,
    after_out: CardMask,
    n_after: int,
    last_trick: bool,
    token_mine: bool,
) -> int:
    """The heuristic card to play.

    ``out``: cards the other seats may hold; ``after_out``: cards the seats still to play in
    this trick may hold; ``n_after``: how many seats play after this one. (This is the hot
    path of every rollout, so :func:`future` and :func:`trick_key` are inlined here.)
    """
    if len(legal) == 1:
        return legal[0]
    size = m.size
    sign = m.sign
    same = m.same
    cost = m.cost
    suit_of = m.suit_of
    rank_of = m.rank_of
    above = m.above
    below = m.below
    always = m.always_mask
    declare = m.declare_mask
    avg = m.avg_trick
    n1 = m.n - 1
    trick_mask = 0
    for mv in trick:
        trick_mask |= 1 << (mv % size)
    best = current_key(m, trick, trump) if trick else -2
    value: float = m.trick_cost
    for cm, pts in m.cost_masks:
        value += (trick_mask & cm).bit_count() * pts
    if last_trick:
        value += m.last_cost
    token_mask = m.token_mask
    token_gain = 0 if token_mine else m.token_points
    if token_mask and trick_mask & token_mask:
        value += token_gain
    if n_after:
        unseen = out.bit_count()
        if unseen:
            value += DUMP * n_after * m.mask_cost(out) / unseen
    trump_mask = m.suit_masks[trump] if trump >= 0 else 0
    out_trumps = out & trump_mask
    after_trumps = after_out & trump_mask
    after_factor = 1.0
    if after_out & always:
        after_factor = 0.75
    if sign < 0 and after_out & declare:
        after_factor *= 0.6
    wild_future = 0.0 if sign > 0 else 0.9
    choice = legal[0]
    choice_score = 1e18
    seen_id = -1
    seen_high = False
    for mv in legal:
        high = mv >= size
        card = mv - size if high else mv
        ident = same[card]
        if ident == seen_id and high == seen_high:
            continue
        seen_id, seen_high = ident, high
        s = suit_of[card]
        c = cost[card]
        # What holding the card on would cost (win_chance, future).
        if s < 0:
            if always >> card & 1:
                pf = 1.0
            elif declare >> card & 1:
                pf = wild_future
            else:
                pf = 0.0
            key = 3_000_000 if high else (4_000_000 if always >> card & 1 else 0)
        else:
            hi = (out & above[card]).bit_count()
            lo = (out & below[card]).bit_count()
            t = lo + hi
            pf = ((lo + 0.5) / (t + 1)) ** (n1 if t > n1 else (t or 1))
            if trump >= 0:
                if s == trump:
                    pf = pf**0.5
                elif out_trumps:
                    pf *= 0.8
            if s == trump:
                key = 2_000_000 + rank_of[card]
            elif s == led or led < 0:
                key = 1_000_000 + rank_of[card]
            else:
                key = -1
        score = -LAMBDA * (pf * (avg + c) + STUCK * c)
        # Whether it takes the trick now, and the chance nobody behind takes it over.
        if key >= 0 and (key >= best if 1_000_000 <= key < 3_000_000 else key > best):
            if not n_after:
                p = 1.0
            elif key == 0:
                p = 0.0  # a low Wild leading: the first suited card takes over
            elif key >= 3_000_000:
                p = 1.0 if key == 4_000_000 else after_factor
            else:
                p = after_factor
                hi = (after_out & above[card]).bit_count()
                if hi:
                    lo = (after_out & below[card]).bit_count()
                    t = lo + hi
                    p *= ((lo + 0.5) / (t + 1)) ** (n_after if t > n_after else t)
                if after_trumps and s != trump:
                    p *= 0.8
            if p:
                v = value + c
                if token_mask >> card & 1:
                    v += token_gain
                score += p * v
        score *= sign
        if score < choice_score:
            choice, choice_score = mv, score
    return choice


def choose_pass(m: HandModel, hand: CardMask, out: CardMask, trump: int) -> int:
    """The card to pass: the most dangerous one (under a flipped objective, the least useful)."""
    best = -1
    best_score = -1e18
    h = hand
    while h:
        low = h & -h
        card = low.bit_length() - 1
        h ^= low
        score = m.sign * future(m, card, out, trump)
        if score > best_score:
            best, best_score = card, score
    return best


def choose_trump(m: HandModel, hand: CardMask, out: CardMask) -> int:
    """The trump suit whose hand looks cheapest (dearest under a flipped objective)."""
    best = 0
    best_score = 1e18
    for s in range(len(m.suit_masks)):
        total = 0.0
        h = hand
        while h:
            low = h & -h
            card = low.bit_length() - 1
            h ^= low
            total += future(m, card, out, s)
        score = m.sign * total
        if score < best_score:
            best, best_score = s, score
    return 2 * m.size + best
