"""The rule-based bot: card sense without search, a move in well under 5 ms.

It reads the hand's penalties from the ruleset (:mod:`salad.bots.policy`), counts the cards
still out in each suit, reads the voids the other seats have shown, and then:

* ducks under the card that is winning when it can (with its highest card that still loses),
  and when it must win, wins with its highest card;
* weighs who plays after it: a card nobody behind can beat wins for sure, a low card with many
  higher ones still out behind it is safe;
* sheds its most dangerous card (penalty cards first, then high cards) when void;
* keeps low cards for the end when the last trick costs;
* passes its most dangerous cards, and picks as trump the suit that makes its hand cheapest;
* declares a Wild high only to win a trick it wants;
* under a flipped objective (the highest total wins) seeks the points instead.
"""

from __future__ import annotations

from salad.bots.policy import HandModel, choose_pass, choose_play, choose_trump, hand_model
from salad.moves import Move
from salad.sampler import known_cards, shown_voids, unseen_cards
from salad.view import Phase, View


class BasicBot:
    name = "basic"

    def __init__(self, seed: int | None = None, **options: object) -> None:
        self.seed = seed  # the rules decide everything; nothing is random
        self.move_time = options.get("move_time")

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        return basic_move(view, hand_model(view.ruleset, view.players, view.hand_index))


def basic_move(view: View, m: HandModel) -> Move:
    """The rule-based move for ``view.seat`` (which is to move)."""
    legal = view.legal_moves
    others = view.deck.in_play & ~view.hand
    if view.phase == Phase.TRUMP:
        return choose_trump(m, view.hand, others)
    if view.phase == Phase.PASS:
        return choose_pass(m, view.hand & ~view.passed, others, view.trump)
    out = unseen_cards(view)
    n = view.players
    n_after = n - len(view.trick) - 1
    after_out = 0
    if n_after:
        voids = shown_voids(view)
        known = known_cards(view)
        known_all = 0
        for k in known:
            known_all |= k
        free = out & ~known_all
        for i in range(1, n_after + 1):
            seat = (view.seat + i) % n
            allowed = free
            for s, suit_mask in enumerate(m.suit_masks):
                if voids[seat] >> s & 1:
                    allowed &= ~suit_mask
            after_out |= allowed | (known[seat] & out)
    return choose_play(
        m,
        legal,
        view.trick,
        view.led_suit,
        view.trump,
        out,
        after_out,
        n_after,
        len(view.tricks) == m.tricks - 1,
        view.token == view.seat,
    )
