"""How to play a ruleset, in the words a new player uses: for the web's "How to play" page.

:func:`howto` reads everything from the ruleset (deck, removals, each hand's penalties, the
toppings, a worked example trick scored with the ruleset's own penalties), so a house rule or
a rules file changes the page; no card or round is named here. Where
:mod:`salad.formats.describe` is a reference ("25 per card: Q of any suit"), this is prose:
"each queen you take costs 25".

Every sentence is written in the current language (:mod:`salad.locale`): whole sentences with
placeholders, the ruleset's words (suits, ranks, penalties) through the catalog. The parts'
``name`` and ``title`` fields stay the ruleset's English words (data: the page translates them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from salad.cards import NO_SUIT, Card, Deck, SuitSpec, WildWins, cards_of
from salad.errors import SaladError
from salad.locale import _, ngettext, pgettext
from salad.ruleset import CompiledRules, Kind, Moon, Penalty, Ruleset
from salad.toppings import TOPPING_TEXT, apply_toppings, parse_toppings

__all__ = ["HowTo", "howto", "penalty_words"]


@dataclass(frozen=True)
class HowTo:
    """The page's content: each part as data (for the page to lay out) and as plain text."""

    data: dict[str, Any]
    text: str


def _noun(name: str) -> str:
    """A suit's name as one card of it, lower case: Hearts → heart, Tomatoes → tomato,
    Broccoli → broccoli card (in French: cœur, tomate, brocoli)."""
    one = _ONE_CARD.get(name)
    if one is not None and one() != name:
        return one()
    low = name.lower()
    if low.endswith("oes"):
        return low[:-2]
    if low.endswith("s"):
        return low[:-1]
    return f"{low} card"


_ONE_CARD = {
    # TRANSLATORS: a suit's name as one card of it, lower case ("each heart you take")
    "Clubs": lambda: pgettext("one card of the suit", "Clubs"),
    "Diamonds": lambda: pgettext("one card of the suit", "Diamonds"),
    "Hearts": lambda: pgettext("one card of the suit", "Hearts"),
    "Spades": lambda: pgettext("one card of the suit", "Spades"),
    "Carrots": lambda: pgettext("one card of the suit", "Carrots"),
    "Broccoli": lambda: pgettext("one card of the suit", "Broccoli"),
    "Tomatoes": lambda: pgettext("one card of the suit", "Tomatoes"),
    "Onions": lambda: pgettext("one card of the suit", "Onions"),
    "Corn": lambda: pgettext("one card of the suit", "Corn"),
}
"""The suits of the presets as one card of them, for the languages whose singular is not
made from the plural's letters; another suit is named by :func:`_noun`'s English rule."""

_IN_A_NAME = {
    # TRANSLATORS: a suit's name inside a card's name ("Queen of Spades": Dame de pique)
    "Clubs": lambda: pgettext("in a card's name", "Clubs"),
    "Diamonds": lambda: pgettext("in a card's name", "Diamonds"),
    "Hearts": lambda: pgettext("in a card's name", "Hearts"),
    "Spades": lambda: pgettext("in a card's name", "Spades"),
    "Carrots": lambda: pgettext("in a card's name", "Carrots"),
    "Broccoli": lambda: pgettext("in a card's name", "Broccoli"),
    "Tomatoes": lambda: pgettext("in a card's name", "Tomatoes"),
    "Onions": lambda: pgettext("in a card's name", "Onions"),
    "Corn": lambda: pgettext("in a card's name", "Corn"),
}
"""The suits of the presets as a card's name says them (French: « dame de pique »)."""

VOWELS = "AEIOUYÀÂÉÈÊËÎÏÔÛÙÜaeiouyàâéèêëîïôûùü"


def _suit_in_name(suit: SuitSpec) -> str:
    said = _IN_A_NAME.get(suit.name)
    return said() if said is not None else _(suit.name)


def _card(deck: Deck, card: Card) -> str:
    """A card by name in the current language: ``Queen of Spades`` (``dame de pique``)."""
    english = deck.name(card)
    suit = deck.suit_of[card]
    if suit == NO_SUIT:
        return _(english)
    rank = deck.spec.ranks[deck.rank_of[card]]
    of = deck.suits[suit]
    word, suit_word = _(rank.name), _suit_in_name(of)
    if word == rank.name and suit_word == of.name:
        return english  # the source language's words
    word = word.lower()
    if suit_word[:1] in VOWELS:
        # TRANSLATORS: a card's name when the suit's name starts with a vowel (French: d'oignons)
        return pgettext("before a vowel", "{rank} of {suit}").format(rank=word, suit=suit_word)
    return _("{rank} of {suit}").format(rank=word, suit=suit_word)


def _the(deck: Deck, card: Card) -> str:
    """A card by name with its article: ``the Queen of Spades`` (``la dame de pique``)."""
    suit = deck.suit_of[card]
    name = _card(deck, card)
    if suit == NO_SUIT:
        # TRANSLATORS: a wild card by its name (French: « la carte Vinaigrette »)
        return _("the {card}").format(card=name)
    rank = deck.spec.ranks[deck.rank_of[card]].name
    # TRANSLATORS: a card with its article (French: « le roi de pique »)
    article = pgettext("the card of this rank", "the {card}")
    if article == "the {card}":
        return article.format(card=name)
    return _THE_RANK.get(rank, lambda: article)().format(card=name)


_THE_RANK = {
    "Queen": lambda: pgettext("the card of this rank: Queen", "the {card}"),
    "Ace": lambda: pgettext("the card of this rank: Ace", "the {card}"),
    "Assassin": lambda: pgettext("the card of this rank: Assassin", "the {card}"),
}
"""The ranks of the presets whose article is not the usual one in some language (French: la
dame, l'as, l'assassin; le roi, le deux, le un)."""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _or(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("{some} or {last}").format(some=", ".join(words[:-1]), last=words[-1])


def _and(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("{some} and {last}").format(some=", ".join(words[:-1]), last=words[-1])


def _cards_named(deck: Deck, codes: tuple[str, ...]) -> list[str]:
    """The cards with these codes by name, once each however many copies the deck holds."""
    names: list[str] = []
    for card, code in enumerate(deck.codes):
        if code in codes and _the(deck, card) not in names:
            names.append(_the(deck, card))
    return names


def _counted(names: list[str]) -> list[str]:
    """Names in order, a repeated one once with its count: ``2 x Two of Clubs``."""
    counts = dict.fromkeys(names, 0)
    for name in names:
        counts[name] += 1
    return [
        name if n == 1 else _("{n} x {card}").format(n=n, card=name) for name, n in counts.items()
    ]


def penalty_words(rs: Ruleset, deck: Deck, p: Penalty) -> str:
    """One penalty as a sentence: "each heart you take costs 10"."""
    good = rs.highest_wins  # the points are good: a penalty "scores" them
    points = p.points
    if p.kind == Kind.TRICK:
        if good:
            return _("each trick you take scores {points}").format(points=points)
        return _("each trick you take costs {points}").format(points=points)
    if p.kind == Kind.LAST_TRICK:
        if good:
            return _("taking the last trick scores {points}").format(points=points)
        return _("taking the last trick costs {points}").format(points=points)
    sel = p.selector
    suits = {s.letter: s for s in rs.deck.suits}
    ranks = {r.letter: r for r in rs.deck.ranks}
    if p.kind == Kind.TOKEN:
        nouns = [_noun(suits[s].name) for s in sel.suits if s in suits]
        what = _or(nouns) if nouns else _("counting card")
        token = _(p.name)
        if good:
            text = _(
                "winning a trick with a {what} in it takes the {token}; whoever holds it when "
                "the hand ends scores {points}"
            )
        else:
            text = _(
                "winning a trick with a {what} in it takes the {token}; whoever holds it when "
                "the hand ends takes {points}"
            )
        return text.format(what=what, token=token, points=points)
    parts: list[str] = []
    if sel.suits or sel.ranks:
        rank_words = [_(ranks[r].name).lower() for r in sel.ranks if r in ranks]
        suit_words = [_noun(suits[s].name) for s in sel.suits if s in suits]
        if rank_words and suit_words:
            plural = [_suit_in_name(suits[s]) for s in sel.suits if s in suits]
            parts.append(
                _("each {ranks} of {suits}").format(ranks=_or(rank_words), suits=_or(plural))
            )
        elif rank_words:
            parts.append(_("each {ranks}").format(ranks=_or(rank_words)))
        else:
            parts.append(_("each {suits}").format(suits=_or(suit_words)))
    if sel.wild:
        parts.append(_("each wild card"))
    if parts:
        lead = _or(parts)
        if sel.cards:
            lead = _("{cards} (and {more})").format(
                cards=lead, more=_and(_cards_named(deck, sel.cards))
            )
        if good:
            return _("{cards} you take scores {points}").format(cards=lead, points=points)
        return _("{cards} you take costs {points}").format(cards=lead, points=points)
    named = _cards_named(deck, sel.cards)
    if len(named) == 1:
        if good:
            return _("taking {card} scores {points}").format(card=named[0], points=points)
        return _("taking {card} costs {points}").format(card=named[0], points=points)
    if good:
        text = _("each of {cards} scores {points} to whoever takes it")
    else:
        text = _("each of {cards} costs {points} to whoever takes it")
    return text.format(cards=_and(named), points=points)


def _topping_names(rs: Ruleset) -> list[str]:
    try:
        return parse_toppings(rs.settings["toppings"]) if "toppings" in rs.settings else []
    except SaladError:
        return []


TITLE = re.compile(r"\s?: ")
"""Where a topping's title ends in its text: ``Cornucopia: the highest...`` (French: with a
non-breaking space before the colon)."""


def _topping_parts(rs: Ruleset) -> list[dict[str, str]]:
    out = []
    for name in _topping_names(rs):
        title = TOPPING_TEXT[name].partition(": ")[0]
        shown, text = TITLE.split(_(TOPPING_TEXT[name]), maxsplit=1)  # the ruleset's words
        out.append({"name": name, "title": title, "shown": shown, "text": text})
    return out


def _trump_chooser(rs: Ruleset) -> dict[str, str] | None:
    """Who picks the trump suit and which topping says so: the topping that, applied alone,
    makes last place choose (found from the toppings' data, not from their names)."""
    if not rs.trump_chooser:
        return None
    why = "the rules"
    for name in _topping_names(rs):
        try:
            if apply_toppings(replace(rs, trump_chooser=False), [name]).trump_chooser:
                why = TOPPING_TEXT[name].partition(": ")[0]
                break
        except SaladError:
            continue
    return {"who": _("the player in last place"), "you": _("you are in last place"), "why": _(why)}


def _card_list(deck: Deck, cards: list[Card]) -> list[dict[str, str]]:
    return [{"code": deck.format(c), "name": deck.name(c)} for c in cards]


def _example(rs: Ruleset, compiled: CompiledRules) -> dict[str, Any] | None:
    """The last trick of the biggest hand, every card of the suit a penalty counts: what it
    costs its winner, penalty by penalty (the seeds' 175-point last trick)."""
    deck = compiled.deck
    copies = rs.deck.copies_for(compiled.players)
    hand = max(compiled.hands, key=lambda h: (len(h.penalties), h.fixed_total))
    suit_letters = [s for p in hand.penalties for s in p.penalty.selector.suits]
    letters = [s.letter for s in deck.suits]
    suit = letters.index(suit_letters[0]) if suit_letters and suit_letters[0] in letters else 0
    in_suit = cards_of(deck.suit_masks[suit] & deck.in_play)
    trick = sorted(in_suit, reverse=True)[: compiled.players]
    if len(trick) < compiled.players:
        return None
    mask = sum(1 << c for c in trick)
    lines: list[dict[str, Any]] = []
    for p in hand.penalties:
        if p.kind == Kind.TRICK:
            pts, why = p.points, _("one trick")
        elif p.kind == Kind.LAST_TRICK:
            pts, why = p.points, _("the last trick")
        elif p.kind == Kind.TOKEN:
            pts = p.points if mask & p.mask else 0
            why = _("the {token}").format(token=_(p.penalty.name))
        else:
            count = (mask & p.mask).bit_count()
            pts = count * p.points
            why = ngettext("{n} card x {points}", "{n} cards x {points}", count).format(
                n=count, points=p.points
            )
        if pts:
            lines.append({"penalty": p.penalty.name, "points": pts, "why": why})
    total = sum(line["points"] for line in lines)
    winner = trick[0]
    played = sorted(trick)  # led with the lowest, won by the highest
    if copies > 1:
        who = _("The later {card}").format(card=_card(deck, winner))
    else:
        who = _capital(_the(deck, winner))
    costs = ", ".join(
        _("{points} for {why} ({penalty})").format(
            points=line["points"], why=line["why"], penalty=_(line["penalty"])
        )
        for line in lines
    )
    return {
        "hand": hand.index + 1,
        "round": hand.round.name,
        "cards": _card_list(deck, played),
        "winner": deck.name(winner),
        "lines": lines,
        "total": total,
        "text": _(
            "In hand {n}, {round}, the last trick is {cards}. {winner} wins it, and its player "
            "takes {total}: {costs}."
        ).format(
            n=hand.index + 1,
            round=_(hand.round.name),
            cards=_and([_card(deck, c) for c in played]),
            winner=who,
            total=total,
            costs=costs,
        ),
    }


def howto(rs: Ruleset, players: int) -> HowTo:
    """How to play ``rs`` with ``players`` players (RulesError if the count is out of range)."""
    compiled = rs.compiled(players)
    deck = compiled.deck
    spec = rs.deck
    suits = deck.suits
    ranks = [_(r.name).lower() for r in spec.ranks]
    if ranks == [r.name.lower() for r in spec.ranks]:
        ranks = [r.name for r in spec.ranks]  # the source language's words, as they are
    copies = spec.copies_for(players)
    deck_text = _("{size} cards: {suits}, each from {low} (low) to {high} (high)").format(
        size=deck.size,
        suits=_and([f"{_(s.name)} {s.symbol}" for s in suits]),
        low=ranks[0],
        high=ranks[-1],
    )
    if copies > 1:
        deck_text += _("; {n} decks shuffled together").format(n=copies)
    extra_suits = [s for s in spec.suits if s.min_players]
    for s in extra_suits:
        deck_text += _("; {suit} only with {n} or more players").format(
            suit=_(s.name), n=s.min_players
        )
    wild_text = [
        ngettext("{n} {name} card", "{n} {name} cards", w.count).format(n=w.count, name=_(w.name))
        for w in spec.wilds
        if any(deck.codes[c] == w.code for c in range(deck.size))
    ]
    if wild_text:
        deck_text += _("; plus {wilds}").format(wilds=_and(wild_text))
    removals = []
    for n in range(rs.min_players, rs.max_players + 1):
        d = rs.deck_for(n)
        names = [_card(d, c) for c in d.removed]
        if names:
            text = _("{n} players: take out {cards}; {each} cards each")
        else:
            text = _("{n} players: nothing taken out; {each} cards each")
        removals.append(
            {
                "players": n,
                "removed": _card_list(d, list(d.removed)),
                "cards_each": d.cards_each,
                "text": text.format(
                    n=n, cards=_and(_counted(names)) if names else "", each=d.cards_each
                ),
            }
        )
    play = [
        _(
            "All cards are dealt. The player at the dealer's left leads the first trick with "
            "any card."
        ),
        _("Follow the suit that was led if you can; if you cannot, play any card."),
        _("The highest card of the suit led wins the trick, and its winner leads the next one."),
    ]
    in_deck = {deck.codes[c] for c in range(deck.size) if deck.suit_of[c] == NO_SUIT}
    for w in spec.wilds:
        if w.code in in_deck:
            if w.wins == WildWins.DECLARED:
                text = _(
                    "A {wild} may be played at any time; you say whether it is high (beats "
                    "the suit led) or low. It belongs to no suit."
                )
            elif w.wins == WildWins.ALWAYS:
                text = _("The {wild} may be played at any time and wins any trick it is in.")
            else:
                text = _(
                    "A {wild} may be played at any time; it wins a trick only if every card "
                    "in it is one."
                )
            play.append(text.format(wild=_(w.name)))
    if rs.passing:
        passes = {
            "left": ngettext(
                "Before each hand everyone passes {n} card to the player on their left, chosen "
                "before seeing what they receive.",
                "Before each hand everyone passes {n} cards to the player on their left, chosen "
                "before seeing what they receive.",
                rs.passing,
            ),
            "right": ngettext(
                "Before each hand everyone passes {n} card to the player on their right, chosen "
                "before seeing what they receive.",
                "Before each hand everyone passes {n} cards to the player on their right, chosen "
                "before seeing what they receive.",
                rs.passing,
            ),
            "across": ngettext(
                "Before each hand everyone passes {n} card to the player across from them, "
                "chosen before seeing what they receive.",
                "Before each hand everyone passes {n} cards to the player across from them, "
                "chosen before seeing what they receive.",
                rs.passing,
            ),
        }
        play.append(passes[rs.pass_direction].format(n=rs.passing))
    if rs.trump_first:
        trump = next(s.name for s in spec.suits if s.letter == rs.trump_first)
        play.append(
            _(
                "{trump} are trump in the first hand: a trump beats any card of another suit."
            ).format(trump=_(trump))
        )
    if rs.trump_chooser:
        play.append(_("Before each later hand the player in last place picks the trump suit."))
    if rs.moon == Moon.OLD:
        play.append(
            _(
                "Shooting the moon: take every counting card of a hand and you score 0 while "
                "everyone else scores {points}."
            ).format(points=rs.moon_points)
        )
    elif rs.moon == Moon.NEGATIVE:
        play.append(
            _(
                "Shooting the moon: take every penalty of a hand and it counts against you as a "
                "minus instead."
            )
        )
    objective = (
        _("The highest total after the last hand wins.")
        if rs.highest_wins
        else _("Every point is a penalty: the lowest total after the last hand wins.")
    )
    # Each penalty once, in the order first met; a hand lists its penalties' places: the
    # largest rules file would otherwise repeat a penalty of a thousand characters in 64 hands.
    penalties: dict[tuple[str, int, str], int] = {}
    hands = [
        {
            "number": hand.index + 1,
            "name": hand.round.name,
            "penalties": [
                penalties.setdefault(
                    (p.penalty.name, p.points, penalty_words(rs, deck, p.penalty)), len(penalties)
                )
                for p in hand.penalties
            ],
            "total": hand.fixed_total,
        }
        for hand in compiled.hands
    ]
    toppings = _topping_parts(rs)
    example = _example(rs, compiled)
    data: dict[str, Any] = {
        "title": rs.title,
        "preset": rs.preset,
        "players": players,
        "min_players": rs.min_players,
        "max_players": rs.max_players,
        "objective": objective,
        "deck": {"text": deck_text, "cards_each": deck.cards_each, "copies": copies},
        "removals": removals,
        "play": play,
        "penalties": [{"name": n, "points": v, "text": w} for n, v, w in penalties],
        "hands": hands,
        "checksum": compiled.checksum,
        "toppings": toppings,
        "trump_chooser": _trump_chooser(rs),
        "example": example,
    }
    return HowTo(data, _text(data))


def _hand_lines(data: dict[str, Any]) -> list[str]:
    """Each hand in a sentence: its penalties in words, those an earlier hand said by name."""
    lines, said = [], set()
    for hand in data["hands"]:
        words = [data["penalties"][i]["text"] for i in hand["penalties"] if i not in said]
        named = [_(data["penalties"][i]["name"]) for i in hand["penalties"] if i in said]
        if named:
            words.append(_("{penalties}, as above").format(penalties=_and(named)))
        said.update(hand["penalties"])
        text = _("Hand {n}, {round}: {penalties} ({total} in all).")
        lines.append(
            text.format(
                n=hand["number"],
                round=_(hand["name"]),
                penalties="; ".join(words),
                total=hand["total"],
            )
        )
    return lines


def _text(data: dict[str, Any]) -> str:
    title = _("How to play {rules} ({n} players)").format(rules=_(data["title"]), n=data["players"])
    lines = [title, "", data["objective"]]
    lines += ["", _("The deck: {deck}.").format(deck=data["deck"]["text"])]
    lines.append(_("Cards taken out so that everyone gets the same number:"))
    lines += [f"  {r['text']}" for r in data["removals"]]
    lines += ["", _("Playing a trick:")]
    lines += [f"  {p}" for p in data["play"]]
    lines += ["", _("The hands, in order:")]
    lines += [f"  {line}" for line in _hand_lines(data)]
    if data["toppings"]:
        lines += ["", _("Toppings in play:")]
        for topping in data["toppings"]:
            line = _("{title}: {text}").format(title=topping["shown"], text=topping["text"])
            lines.append(f"  {line}")
    if data["example"]:
        lines += ["", _("An example:"), f"  {data['example']['text']}"]
    return "\n".join(lines)
