"""What the server sends: a game's views and ``state`` messages as JSON, built fast for every
seat of a table at once.

A seat's view is exactly ``game.view(seat).to_dict()`` and every state is a
:class:`~salad.server.messages.StateOut` (tests/server/test_views.py checks both after every
move of many games). Only five fields of a view depend on the seat (``seat``, ``cards``,
``legal``, ``passed``, ``received``): the rest is written once for all seats, and what changes
only when a trick ends is cached until it does. A state leaves out what its connection already
has (the models' kept fields); :func:`salad.server.protocol.complete_state` fills them back in.

This is the models' fast encoder: ``benchmarks/wire_encode.py`` measured a median 31.8 us a
move here against 179.4 us by the models (x5.64), far past the 10% of a move (~10 us) allowed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from salad.cards import NO_SUIT, CardMask, Deck, cards_of
from salad.engine import Game
from salad.errors import IllegalMoveError
from salad.events import PLAY, TRICK
from salad.locale import N_, _
from salad.moves import Move, format_move, move_label
from salad.scoring import MOON, hand_breakdown, standings
from salad.server.tables.passing import Choices
from salad.view import SPECTATOR, Phase

TrickKey = tuple[int, int, Phase]
"""(hand, finished tricks, phase): what the cached trick parts of a game are for."""


STATE_PREFIX = '{"type":"state"'
"""How every ``state`` message begins (a connection's outbox keeps only the latest)."""

_PHASES = {phase: json.dumps(phase.name.lower()) for phase in Phase}


def error_message(message: str) -> str:
    """The ``error`` message (:class:`~salad.server.messages.ErrorMessageOut`), on one line.
    Not written by the model: it may quote a client's lone surrogate (valid in JSON text),
    which ``json.dumps`` escapes and pydantic's encoder refuses."""
    return json.dumps({"type": "error", "message": " ".join(message.split())})


_WHY = {
    "not-held": N_("you do not hold it"),
    "not-passable": N_("you can only pass a card you hold and have not chosen yet"),
    "must-pick-trump": N_("pick a trump suit first"),
    "not-declarable": N_("only a Wild can be played high"),
    "no-move-now": N_("there is no move to make now"),
    "not-a-move": N_("that is not a card or choice of this deck"),
}
"""What each :data:`salad.errors.REASONS` code means, said to the player who tried."""


def illegal_words(game: Game, move: Move, exc: IllegalMoveError) -> str:
    """An illegal move's refusal in the words of the player who tried it ("You cannot play
    A♣: you must follow Spades"), from its reason code and the game, never from its text."""
    try:
        label = move_label(game.deck, move)
    except (IndexError, ValueError):
        label = exc.move or _("that")
    if exc.reason == "must-follow" and game.led != NO_SUIT:
        suit = _(game.deck.suits[game.led].name)  # the ruleset's words: in the catalog
        return _("You cannot play {card}: you must follow {suit}").format(card=label, suit=suit)
    why = _(_WHY[exc.reason]) if exc.reason in _WHY else _("it is not allowed now")
    return _("You cannot play {move}: {why}").format(move=label, why=why)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


# -- a view ---------------------------------------------------------------------------------


class JsonCodes:
    """A table's deck's card codes, moves and sets of cards as JSON, each made once: a set (a
    hand, a pass) by its mask, afresh once :attr:`MASKS` are held (a game makes one a move)."""

    MASKS = 1024

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.cards = tuple(json.dumps(code) for code in deck.codes)
        self.suits = tuple(json.dumps(s.letter) for s in deck.suits)
        self.texts: dict[Move, str] = {}
        self.moves: dict[Move, str] = {}
        self.sets: dict[CardMask, str] = {}

    @staticmethod
    def of(game: Game, codes: JsonCodes | None) -> JsonCodes:
        """``codes`` if they are for the game's deck, else new ones."""
        return codes if codes is not None and codes.deck is game.deck else JsonCodes(game.deck)

    def text(self, move: Move) -> str:
        """A move as the server writes it (``QS``, ``W+``, ``trump:H``)."""
        text = self.texts.get(move)
        if text is None:
            text = self.texts[move] = format_move(self.deck, move)
        return text

    def move(self, move: Move) -> str:
        """:meth:`text` as JSON."""
        text = self.moves.get(move)
        if text is None:
            text = self.moves[move] = json.dumps(self.text(move))
        return text

    def card_list(self, mask: CardMask) -> str:
        """The cards of ``mask`` as the inside of a JSON list of codes, lowest index first."""
        text = self.sets.get(mask)
        if text is None:
            if len(self.sets) >= self.MASKS:
                self.sets.clear()
            cards = self.cards
            text = self.sets[mask] = ",".join([cards[c] for c in cards_of(mask)])
        return text


def seat_part(game: Game, seat: int, codes: JsonCodes | None = None) -> str:
    """The start of a view's JSON: its five fields that depend on the seat (from that seat's
    own hand only), and a comma."""
    if seat == SPECTATOR:
        return '{"seat":-1,"cards":[],"legal":[],"passed":[],"received":[],'
    codes = JsonCodes.of(game, codes)
    legal = ",".join([codes.move(m) for m in game.legal_moves()]) if seat == game.to_move else ""
    passed, got = game.passed[seat], game.received[seat]
    return (
        f'{{"seat":{seat:d},"cards":[{codes.card_list(game.hands[seat])}],"legal":[{legal}],'
        f'"passed":[{codes.card_list(passed) if passed else ""}],'
        f'"received":[{codes.card_list(got) if got else ""}],'
    )


@dataclass
class TricksCache:
    """The JSON of a game's parts that change only when a trick (or the phase) ends, for
    ``key``; each is made again ("") once it changes."""

    key: TrickKey | None = None
    text: str = "[]"
    """The finished tricks of the hand."""
    public: str = ""
    """The view's fields from ``players`` to ``totals``."""
    extras: str = ""
    """``winners``, ``last_trick`` and ``hand_rounds`` of a state message."""


def finished_tricks(game: Game, cache: TricksCache) -> str:
    """The JSON of the hand's finished tricks: from the cache, one more trick added to it, or
    (when a hand begins or a table is loaded) all of them."""
    phase, hand, done = game.phase, game.hand_index, game.trick_no
    key = (hand, done, phase)
    if cache.key == key:
        return cache.text
    if done == 0 and phase != Phase.OVER:
        tricks = "[]"  # no trick of this hand has been finished yet
    elif cache.key == (hand, done - 1, phase) and phase == Phase.PLAY:
        last = last_trick(game)  # one more trick: added to the list
        assert last is not None
        last["cards"] = [card for _, card in last["cards"]]
        tricks = cache.text[:-1] + ("," if cache.text != "[]" else "") + dumps(last) + "]"
    else:  # rare: a table loaded, an undo, the game's end
        tricks = dumps(game.view(SPECTATOR).to_dict()["tricks"])
    cache.key, cache.text, cache.public, cache.extras = key, tricks, "", ""
    return tricks


def common_view_parts(game: Game, cache: TricksCache, codes: JsonCodes) -> tuple[str, str]:
    """The fields of a view that every seat shares (those of
    ``game.view(SPECTATOR).to_dict()``), as the inside of a JSON object, in two parts: every
    field but ``tricks``, and ``tricks`` (cached until the next trick ends)."""
    tricks = finished_tricks(game, cache)
    phase, leader, n = game.phase, game.leader, game.players
    trick = ""
    led = "null"
    if phase == Phase.PLAY:
        move = codes.move
        trick = ",".join([f"[{(leader + i) % n:d},{move(m)}]" for i, m in enumerate(game.trick)])
        if game.led != NO_SUIT:
            led = codes.suits[game.led]
    sizes = ",".join([str(h.bit_count()) for h in game.hands])
    moving = (
        f'"phase":{_PHASES[phase]},"to_move":{game.to_move:d},"leader":{leader:d},'
        f'"trick":[{trick}],"led_suit":{led},"hand_sizes":[{sizes}]'
    )
    # The rest changes only when a trick (or the phase) ends: cached with the tricks.
    if cache.public:
        return moving + "," + cache.public, tricks
    settled = dumps(
        {
            "players": n,
            "hand": game.hand_index + 1,
            "round": game.round_name,
            "dealer": game.dealer,
            "trump": game.deck.suits[game.trump].letter if game.trump != NO_SUIT else None,
            "tricks_won": list(game.tricks_won),
            "running": game.running_points(),
            "token": game.token,
            "hand_points": [list(p) for p in game.hand_points],
            "totals": list(game.totals),
        }
    )[1:-1]
    cache.public = settled
    return moving + "," + settled, tricks


def last_trick(game: Game) -> dict[str, Any] | None:
    """The most recently finished trick of the game (it may belong to the previous hand):
    ``{"leader", "cards": [[seat, move], ...], "winner"}``; None before the first."""
    entries, n = game.log, game.players
    for i in range(len(entries) - 1, -1, -1):
        entry = entries[i]
        if entry[0] == TRICK:
            plays = [e for e in entries[max(0, i - n) : i] if e[0] == PLAY]
            cards = [[e[1], format_move(game.deck, e[2])] for e in plays]  # type: ignore[arg-type]
            leader = cards[0][0] if cards else -1
            return {"leader": leader, "cards": cards, "winner": entry[3]}
    return None


def hand_rounds(game: Game) -> list[dict[str, Any]]:
    """The round and points of every finished hand."""
    return [
        {"number": i + 1, "round": game.rules.hands[i].round.name, "points": list(points)}
        for i, points in enumerate(game.hand_points)
    ]


def hand_summary(game: Game, index: int) -> dict[str, Any]:
    """Finished hand ``index``, penalty by penalty, as the page's summary shows it
    (:class:`~salad.server.messages.HandEndOut` but ``waiting``), with the totals and
    standings after it."""
    breakdown = hand_breakdown(game.rules, game.log, index)
    hand = game.rules.hands[index]
    named = {p.penalty.id: p.penalty for p in hand.penalties}
    penalties: list[dict[str, Any]] = [
        {"id": pid, "name": named[pid].name, "each": named[pid].points}
        for pid in breakdown.penalties
    ]
    if breakdown.moon >= 0:
        penalties.append({"id": MOON, "name": "Moon", "each": None})
    totals = [sum(p[s] for p in game.hand_points[: index + 1]) for s in range(game.players)]
    return {
        **breakdown.to_dict(),
        "hand": index + 1,
        "round": hand.round.name,
        "penalties": penalties,
        "totals": totals,
        "standings": standings(totals, game.ruleset.highest_wins),
    }


# -- a state message ------------------------------------------------------------------------


def passing_json(game: Game, seat: int, choices: Choices, codes: JsonCodes | None = None) -> str:
    """A state's ``passing`` (:class:`~salad.server.messages.PassingOut`) in a pass phase
    played at once: the cards ``seat`` may choose now and has chosen, and the seats still
    choosing, the engine's next first."""
    codes = JsonCodes.of(game, codes)
    free, chosen = (0, 0) if seat == SPECTATOR else choices.shown(game, seat)
    choosing = ",".join(str(s) for s in choices.choosing(game))
    return (
        f'{{"legal":[{codes.card_list(free) if free else ""}],'
        f'"chosen":[{codes.card_list(chosen) if chosen else ""}],"choosing":[{choosing}]}}'
    )


class Receiver(Protocol):
    """What a state message needs to know of the connection it is for (a ``Conn``)."""

    seat: int
    version: int
    """The version of the lobby it was last sent."""
    tricks: tuple[int, TrickKey | None] | None
    """The (game, trick) whose trick parts it was last sent."""
    # and, if it has one, ``lang``: the language of the lobby it is sent (its words)


def state_messages(
    game: Game | None,
    *,
    game_number: int,
    moves: int,
    deadline: float | None,
    lobby_json: str | Callable[[str], str],
    version: int,
    cache: TricksCache,
    codes: JsonCodes | None,
    hand_end: str | None = None,
    choices: Choices | None = None,
) -> Callable[[Receiver], str]:
    """A function giving the ``state`` message for a connection, leaving out the lobby
    (``table``) if it has this ``version`` of it and the kept trick parts if it has them for
    this trick; the parts every seat shares are built once. ``hand_end``: the JSON of the
    summary the table shows (:class:`~salad.server.tables.table.HandEnd`), or None.
    ``lobby_json``: the lobby's JSON, or the function giving it in a language (a
    connection's ``lang``: the lobby holds words).
    ``choices``: the pass phase is played at once (:mod:`~.passing`): each state says what
    its seat may choose now and has chosen, and who is still choosing (``passing``)."""
    public = ""
    tricks = "[]"
    slow = '"winners":[],"last_trick":null,"hand_rounds":[]'
    key: tuple[int, TrickKey | None] = (game_number, None)
    if game is not None:
        codes = JsonCodes.of(game, codes)
        public, tricks = common_view_parts(game, cache, codes)
        if not cache.extras:  # these change only when a trick ends, too
            cache.extras = dumps(
                {
                    "winners": game.winners(),
                    "last_trick": last_trick(game),
                    "hand_rounds": hand_rounds(game),
                }
            )[1:-1]
        slow = cache.extras
        key = (game_number, cache.key)
    shown = "null" if deadline is None else repr(float(deadline))
    tail = f',"deadline":{shown},"moves":{moves:d},"hand_end":{hand_end or "null"}'
    lobbies: dict[str, str] = {}
    per_seat: dict[tuple[int, bool], str] = {}

    def message(conn: Receiver) -> str:
        seat = conn.seat
        full = conn.tricks != key
        text = per_seat.get((seat, full))
        if text is None:
            if game is None:
                view = "null"
            else:
                view = seat_part(game, seat, codes) + public
                view += ',"tricks":' + tricks + "}" if full else "}"
            text = STATE_PREFIX + ',"you":' + str(seat) + ',"view":' + view + tail
            if choices is not None and game is not None:
                text += ',"passing":' + passing_json(game, seat, choices, codes)
            if full:
                text += "," + slow
            per_seat[seat, full] = text
        conn.tricks = key
        if conn.version == version:
            return text + "}"
        conn.version = version
        lang = getattr(conn, "lang", "en")
        lobby = lobbies.get(lang)
        if lobby is None:
            made = lobby_json if isinstance(lobby_json, str) else lobby_json(lang)
            lobby = lobbies[lang] = ',"table":' + made
        return text + lobby + "}"

    return message
