"""What a client needs to draw a table, read from the ruleset (never hard-coded in the client)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from salad.bots import bot_factory, bot_names, reference_only
from salad.cards import Deck, RankSpec, WildWins
from salad.errors import SaladError
from salad.formats.howto import penalty_words
from salad.locale import _, current, using
from salad.presets import PRESETS
from salad.ruleset import CompiledHand, Ruleset
from salad.settings import from_preset
from salad.sheet.questions import card_mark
from salad.toppings import TOPPING_TEXT, TOPPINGS, parse_toppings


def deck_info(rs: Ruleset, players: int) -> dict[str, Any]:
    """The concrete deck for a player count: suits, ranks low to high, wild cards. A rank's
    ``label`` is its face (``10``, ``A``); where that misleads (``RankSpec.clear``), ``text``
    says how a person reads it (``A (Assassin)``)."""
    deck = rs.deck_for(players)
    wild_codes = {deck.codes[c] for c in range(deck.size) if deck.suit_of[c] < 0}
    suits = [{"letter": s.letter, "name": s.name, "symbol": s.symbol} for s in deck.suits]
    for suit, spec in zip(suits, deck.suits, strict=True):
        if spec.art:
            suit["art"] = spec.art
    wilds = [
        {"code": w.code, "name": w.name, "symbol": w.symbol, "declare": w.wins == WildWins.DECLARED}
        for w in rs.deck.wilds
        if w.code in wild_codes
    ]
    ranks = [_rank_info(r) for r in rs.deck.ranks]
    return {"suits": suits, "ranks": ranks, "wilds": wilds, "cards_each": deck.cards_each}


def _rank_info(rank: RankSpec) -> dict[str, str]:
    label = rank.aliases[0] if rank.aliases else rank.letter
    info = {"letter": rank.letter, "name": rank.name, "label": label}
    if not rank.clear:
        info["text"] = f"{label} ({_(rank.name)})"  # the ruleset's words: in the catalog
    return info


HandsInfo = tuple[list[str], list[dict[str, Any]]]
"""The penalties in words, each once, and the hands with their penalties' places in them."""


def hands_info(rs: Ruleset, players: int) -> HandsInfo:
    """The penalties in words, each once, and the rounds in playing order with their totals and
    their penalties as indexes into those words (a penalty in every hand is sent once, not once
    a hand: a table's 64 hands of one long penalty would otherwise repeat it 64 times).

    >>> from salad.presets import PRESETS
    >>> lines, hands = hands_info(PRESETS["canadian"], 4)
    >>> hands[0]["round"], [lines[i] for i in hands[0]["penalties"]]
    ('No Tricks', ['Tricks: each trick you take costs 10'])
    >>> len(hands[-1]["penalties"]) == len(set(hands[-1]["penalties"])) > 1
    True
    """
    compiled = rs.compiled(players)
    index: dict[str, int] = {}  # each line's place, in the order first met
    hands = [
        {
            "number": hand.index + 1,
            "round": hand.round.name,
            "penalties": [  # in a player's words, as on the How to play page
                index.setdefault(
                    f"{p.penalty.name}: {penalty_words(rs, compiled.deck, p.penalty)}", len(index)
                )
                for p in hand.penalties
            ],
            "total": hand.fixed_total,
            "marks": round_marks(compiled.deck, hand),
        }
        for hand in compiled.hands
    ]
    return list(index), hands


def round_marks(deck: Deck, hand: CompiledHand) -> list[dict[str, Any]]:
    """The marks (:func:`salad.sheet.questions.card_mark`) of the cards a hand's round names
    itself: a "No Hearts" round's suit, a "No King of Spades" round's card; none for a round
    that only gathers the rounds before it (the Salad)."""
    own = set(hand.round.penalties)
    marks: list[dict[str, Any]] = []
    for p in hand.penalties:
        mark = card_mark(deck, p.mask) if p.penalty.id in own and p.mask else None
        if mark is not None and mark not in marks:
            marks.append(mark)
    return marks


def toppings_of(rs: Ruleset) -> list[str]:
    """The toppings a ruleset's settings name (none when they name none, or none it knows)."""
    try:
        return parse_toppings(rs.settings.get("toppings"))
    except SaladError:
        return []


@lru_cache(maxsize=1)
def available_bots() -> tuple[str, ...]:
    """The bots that load here (OpenSpiel's may be missing) and may sit at a table (not a
    reference bot such as the oracle, which sees every hand)."""
    names = []
    for name in bot_names():
        if reference_only(name):
            continue
        try:
            bot_factory(name)
        except SaladError:
            continue
        names.append(name)
    return tuple(names)


def options() -> dict[str, Any]:
    """The answer of ``GET /api/options``, in the current language (its words: the rounds'
    penalties), made once a language."""
    return _options(current().code)


@lru_cache(maxsize=8)
def _options(lang: str) -> dict[str, Any]:
    """:func:`options` in ``lang``."""
    with using(lang):
        return _made_options()


def _made_options() -> dict[str, Any]:
    presets = []
    swaps: dict[str, list[dict[str, str]]] = {}
    swap_text: dict[str, dict[str, str]] = {}
    for name, rs in PRESETS.items():
        try:
            from_preset(name, {"toppings": "all"})
            toppings = True
        except SaladError:
            toppings = False
        hands = [
            {"id": h, "name": rs.round(h).name, "swappable": not rs.round(h).all_previous}
            for h in rs.hands
        ]
        presets.append(
            {
                "name": name,
                "title": rs.title,
                "min_players": rs.min_players,
                "max_players": rs.max_players,
                "default_players": rs.default_players,
                "hands": hands,
                "toppings": toppings,
            }
        )
        swaps[name] = [
            {"id": r.id, "name": r.name}
            for r in rs.rounds
            if r.id not in rs.hands and not r.all_previous
        ]
        deck = rs.deck_for(rs.default_players)
        swap_text[name] = {  # what each swap-in round does, in a player's words
            r["id"]: "; ".join(
                penalty_words(rs, deck, rs.penalty(p)) for p in rs.round(r["id"]).penalties
            )
            for r in swaps[name]
        }
    return {
        "presets": presets,
        "toppings": [{"name": t, "text": TOPPING_TEXT[t]} for t in TOPPINGS],
        "swaps": swaps,
        "swap_text": swap_text,
        "bots": list(available_bots()),
    }
