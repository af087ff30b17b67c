"""The one observation encoding of the adapters: a seat's :class:`~salad.view.View` as a fixed-size
``float32`` vector in ``[-1, 1]``, for the PettingZoo environment and OpenSpiel's observation
tensor alike. The parts and their order are documented in docs/envs.md ("Observation").

>>> from salad import Game, load_ruleset
>>> rs = load_ruleset("canadian")
>>> layout = observation_layout(rs, 4)
>>> layout.segments[:3]
(('hand', 52), ('played', 208), ('trick', 208))
>>> layout.size
886
>>> game = Game(rs, 4, seed=1)
>>> encode(game.view(game.to_move), layout).shape
(886,)

OpenSpiel asks for subsets (public information only, or every seat's hand):
``observation_layout(rs, 4, public=False, private="all")`` keeps ``phase`` and puts the ``hands``
of every seat (relative rows) in place of the seat's own ``hand``, ``passed`` and ``received``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from salad.cards import NO_SUIT, CardMask
from salad.formats.rules import load_ruleset
from salad.ruleset import Kind, Moon, Ruleset
from salad.settings import apply_settings
from salad.view import Phase, View

__all__ = [
    "PHASES",
    "ObservationLayout",
    "Private",
    "encode",
    "env_ruleset",
    "observation_layout",
]

PHASES = ("deal", "trump", "pass", "play", "over")

Private = Literal["own", "all", "none"]
"""Which hidden cards an observation holds: the seat's own, every seat's, or none."""

OWN = ("hand", "passed", "received")
"""The parts only the observing seat knows."""
PLANES = ("played", "trick", "taken", "hands")
"""The parts that are one row of cards per seat."""


def env_ruleset(
    rules: str | Ruleset, players: int | None, settings: Mapping[str, Any] | None
) -> tuple[Ruleset, int]:
    """The ruleset and player count an environment plays: a preset's name or a ruleset, with
    ``settings`` applied, and its default count when ``players`` is None (RulesError when the
    count is out of its range)."""
    if isinstance(rules, Ruleset):
        rs = apply_settings(rules, settings) if settings else rules
    else:
        rs = load_ruleset(rules, settings)
    n = rs.default_players if players is None else players
    rs.check_players(n)
    return rs, n


@dataclass(frozen=True)
class ObservationLayout:
    """Where each part of the observation vector lies (see docs/envs.md).

    ``segments`` are ``(name, length)`` in order; ``slices[name]`` is the part's slice.
    Seat-indexed parts are relative to the observing seat: row ``r`` is seat
    ``(seat + r) % players``, so row 0 is the observer itself.
    """

    cards: int
    players: int
    suits: int
    hands: int
    segments: tuple[tuple[str, int], ...]
    hand_scale: float
    """Points that divide per-hand values (running penalties, card points)."""
    game_scale: float
    """Points that divide the totals."""

    @property
    def size(self) -> int:
        return sum(length for _, length in self.segments)

    @property
    def slices(self) -> dict[str, slice]:
        out = {}
        start = 0
        for name, length in self.segments:
            out[name] = slice(start, start + length)
            start += length
        return out

    def part(self, observation: NDArray[Any], name: str) -> NDArray[Any]:
        """One part of an observation, shaped ``(players, cards)`` for the per-seat card
        planes and ``(length,)`` otherwise."""
        piece = observation[self.slices[name]]
        if name in PLANES:
            return piece.reshape(self.players, self.cards)
        return piece


def observation_layout(
    rs: Ruleset, players: int, *, public: bool = True, private: Private = "own"
) -> ObservationLayout:
    """The observation layout for a ruleset and player count (``public`` and ``private``: which
    information it holds; the defaults are a seat's whole view, as docs/envs.md draws it)."""
    compiled = rs.compiled(players)
    deck = compiled.deck
    s, n, k, h = deck.size, players, len(deck.suits), len(compiled.hands)
    segments: tuple[tuple[str, int], ...] = (
        ("hand", s),
        ("played", n * s),
        ("trick", n * s),
        ("taken", n * s),
        ("passed", s),
        ("received", s),
        ("card_points", s),
        ("led_suit", k + 1),
        ("trump", k + 1),
        ("phase", len(PHASES)),
        ("round", h),
        ("leader", n),
        ("dealer", n),
        ("to_move", n),
        ("token", n + 1),
        ("hand_sizes", n),
        ("tricks_won", n),
        ("running", n),
        ("totals", n),
    )
    if not public:
        segments = tuple(seg for seg in segments if seg[0] in (*OWN, "phase"))
    if private != "own":
        segments = tuple(seg for seg in segments if seg[0] not in OWN)
    if private == "all":
        segments = (("hands", n * s), *segments)
    bounds = []
    for hand in compiled.hands:
        bound = 0
        for p in hand.penalties:
            count = {
                Kind.TRICK: deck.cards_each,
                Kind.CARDS: p.mask.bit_count(),
            }.get(p.kind, 1)
            bound += abs(p.points) * count
        if rs.moon == Moon.OLD and hand.moon:
            bound = max(bound, abs(rs.moon_points))
        bounds.append(max(bound, 1))
    return ObservationLayout(s, n, k, h, segments, float(max(bounds)), float(sum(bounds)))


def _bits(mask: CardMask, size: int) -> NDArray[np.float32]:
    raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(np.float32)


def encode(
    view: View,
    layout: ObservationLayout,
    hands: Sequence[CardMask] = (),
    out: NDArray[np.float32] | None = None,
) -> NDArray[np.float32]:
    """The observation vector of ``view`` (its seat's information only; ``hands``: every seat's
    cards, for a layout that holds them). ``out``: a vector to fill instead of a new one."""
    if out is None:
        out = np.zeros(layout.size, dtype=np.float32)
    else:
        out.fill(0)
    at = layout.slices
    n, size = layout.players, layout.cards
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    def put(name: str, index: int, value: float = 1.0) -> None:
        if name in at:
            out[at[name].start + index] = value

    def plane(name: str) -> NDArray[np.float32]:
        if name not in at:
            return np.zeros((n, size), dtype=np.float32)
        return out[at[name]].reshape(n, size)

    if "hand" in at:
        out[at["hand"]] = _bits(view.hand, size)
        out[at["passed"]] = _bits(view.passed, size)
        out[at["received"]] = _bits(view.received, size)
    if "hands" in at:
        rows = plane("hands")
        for seat, mask in enumerate(hands):
            rows[rel(seat)] = _bits(mask, size)
    put("phase", int(view.phase))
    if "played" not in at:
        np.clip(out, -1.0, 1.0, out=out)
        return out
    played, taken, trick = plane("played"), plane("taken"), plane("trick")
    for t in view.tricks:
        for i, m in enumerate(t.moves):
            played[rel(t.leader + i), m % size] = 1
            taken[rel(t.winner), m % size] = 1
    for i, m in enumerate(view.trick):
        trick[rel(view.leader + i), m % size] = 1
        played[rel(view.leader + i), m % size] = 1
    card_points = out[at["card_points"]]
    if view.phase != Phase.OVER:
        hand = view.ruleset.compiled(n).hands[view.hand_index]
        for p in hand.penalties:
            if p.kind == Kind.CARDS:
                card_points += _bits(p.mask, size) * (p.points / layout.hand_scale)
    k = layout.suits
    put("led_suit", view.led_suit if view.led_suit != NO_SUIT else k)
    put("trump", view.trump if view.trump != NO_SUIT else k)
    if view.phase != Phase.OVER:
        put("round", view.hand_index)
    put("leader", rel(view.leader))
    put("dealer", rel(view.dealer))
    if view.to_move >= 0:
        put("to_move", rel(view.to_move))
    put("token", rel(view.token) if view.token >= 0 else n)
    each = view.deck.cards_each
    for seat in range(n):
        r = rel(seat)
        put("hand_sizes", r, view.hand_sizes[seat] / each)
        put("tricks_won", r, view.tricks_won[seat] / each)
        put("running", r, view.running[seat] / layout.hand_scale)
        put("totals", r, view.totals[seat] / layout.game_scale)
    np.clip(out, -1.0, 1.0, out=out)
    return out
