"""How to play a ruleset, in the words a new player uses: for the web's "How to play" page.

:func:`howto` reads everything from the ruleset (deck, removals, each hand's penalties, the
toppings, a worked example trick scored with the ruleset's own penalties), so a house rule or
a rules file changes the page; no card or round is named here. Where
:mod:`salad.formats.describe` is a reference ("25 per card: Q of any suit"), this is prose:
"each queen you take costs 25".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from salad.cards import NO_SUIT, Card, Deck, WildWins, cards_of
from salad.errors import SaladError
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
    Broccoli → broccoli card."""
    low = name.lower()
    if low.endswith("oes"):
        return low[:-2]
    if low.endswith("s"):
        return low[:-1]
    return f"{low} card"


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _cards_named(deck: Deck, codes: tuple[str, ...]) -> list[str]:
    """The cards with these codes by name, once each however many copies the deck holds."""
    names: list[str] = []
    for card, code in enumerate(deck.codes):
        if code in codes and f"the {deck.name(card)}" not in names:
            names.append(f"the {deck.name(card)}")
    return names


def _counted(names: list[str]) -> list[str]:
    """Names in order, a repeated one once with its count: ``2 x Two of Clubs``."""
    counts = dict.fromkeys(names, 0)
    for name in names:
        counts[name] += 1
    return [name if n == 1 else f"{n} x {name}" for name, n in counts.items()]


def penalty_words(rs: Ruleset, deck: Deck, p: Penalty) -> str:
    """One penalty as a sentence: "each heart you take costs 10"."""
    verb = "scores" if rs.highest_wins else "costs"
    if p.kind == Kind.TRICK:
        return f"each trick you take {verb} {p.points}"
    if p.kind == Kind.LAST_TRICK:
        return f"taking the last trick {verb} {p.points}"
    sel = p.selector
    suits = {s.letter: s for s in rs.deck.suits}
    ranks = {r.letter: r for r in rs.deck.ranks}
    if p.kind == Kind.TOKEN:
        what = _or([_noun(suits[s].name) for s in sel.suits if s in suits]) or "a counting card"
        return (
            f"winning a trick with a {what} in it takes the {p.name}; whoever holds it when "
            f"the hand ends {'scores' if rs.highest_wins else 'takes'} {p.points}"
        )
    parts: list[str] = []
    if sel.suits or sel.ranks:
        rank_words = [ranks[r].name.lower() for r in sel.ranks if r in ranks]
        suit_words = [_noun(suits[s].name) for s in sel.suits if s in suits]
        if rank_words and suit_words:
            plural = [suits[s].name for s in sel.suits if s in suits]
            parts.append(f"each {_or(rank_words)} of {_or(plural)}")
        elif rank_words:
            parts.append(f"each {_or(rank_words)}")
        else:
            parts.append(f"each {_or(suit_words)}")
    if sel.wild:
        parts.append("each wild card")
    if parts:
        lead = _or(parts)
        if sel.cards:
            lead += f" (and {_and(_cards_named(deck, sel.cards))})"
        return f"{lead} you take {verb} {p.points}"
    named = _cards_named(deck, sel.cards)
    if len(named) == 1:
        return f"taking {named[0]} {verb} {p.points}"
    return f"each of {_and(named)} {verb} {p.points} to whoever takes it"


def _topping_names(rs: Ruleset) -> list[str]:
    try:
        return parse_toppings(rs.settings["toppings"]) if "toppings" in rs.settings else []
    except SaladError:
        return []


def _topping_parts(rs: Ruleset) -> list[dict[str, str]]:
    out = []
    for name in _topping_names(rs):
        title, _, text = TOPPING_TEXT[name].partition(": ")
        out.append({"name": name, "title": title, "text": text})
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
    return {"who": "the player in last place", "you": "you are in last place", "why": why}


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
            pts, why = p.points, "one trick"
        elif p.kind == Kind.LAST_TRICK:
            pts, why = p.points, "the last trick"
        elif p.kind == Kind.TOKEN:
            pts = p.points if mask & p.mask else 0
            why = f"the {p.penalty.name}"
        else:
            count = (mask & p.mask).bit_count()
            pts = count * p.points
            why = f"{count} card{'s' if count != 1 else ''} x {p.points}"
        if pts:
            lines.append({"penalty": p.penalty.name, "points": pts, "why": why})
    total = sum(line["points"] for line in lines)
    winner = trick[0]
    which = "the later" if copies > 1 else "the"
    played = sorted(trick)  # led with the lowest, won by the highest
    return {
        "hand": hand.index + 1,
        "round": hand.round.name,
        "cards": _card_list(deck, played),
        "winner": deck.name(winner),
        "lines": lines,
        "total": total,
        "text": (
            f"In hand {hand.index + 1}, {hand.round.name}, the last trick is "
            f"{_and([deck.name(c) for c in played])}. {which.capitalize()} {deck.name(winner)} "
            "wins it, "
            f"and its player takes {total}: "
            + ", ".join(f"{line['points']} for {line['why']} ({line['penalty']})" for line in lines)
            + "."
        ),
    }


def howto(rs: Ruleset, players: int) -> HowTo:
    """How to play ``rs`` with ``players`` players (RulesError if the count is out of range)."""
    compiled = rs.compiled(players)
    deck = compiled.deck
    spec = rs.deck
    suits = deck.suits
    ranks = [r.name for r in spec.ranks]
    copies = spec.copies_for(players)
    deck_text = (
        f"{deck.size} cards: {_and([f'{s.name} {s.symbol}' for s in suits])}, "
        f"each from {ranks[0]} (low) to {ranks[-1]} (high)"
    )
    if copies > 1:
        deck_text += f"; {copies} decks shuffled together"
    extra_suits = [s for s in spec.suits if s.min_players]
    for s in extra_suits:
        deck_text += f"; {s.name} only with {s.min_players} or more players"
    wild_text = [
        f"{w.count} {w.name} card{'s' if w.count > 1 else ''}"
        for w in spec.wilds
        if any(deck.codes[c] == w.code for c in range(deck.size))
    ]
    if wild_text:
        deck_text += f"; plus {_and(wild_text)}"
    removals = []
    for n in range(rs.min_players, rs.max_players + 1):
        d = rs.deck_for(n)
        names = [d.name(c) for c in d.removed]
        removals.append(
            {
                "players": n,
                "removed": _card_list(d, list(d.removed)),
                "cards_each": d.cards_each,
                "text": f"{n} players: "
                + (f"take out {_and(_counted(names))}" if names else "nothing taken out")
                + f"; {d.cards_each} cards each",
            }
        )
    play = [
        "All cards are dealt. The player at the dealer's left leads the first trick with any card.",
        "Follow the suit that was led if you can; if you cannot, play any card.",
        "The highest card of the suit led wins the trick, and its winner leads the next one.",
    ]
    in_deck = {deck.codes[c] for c in range(deck.size) if deck.suit_of[c] == NO_SUIT}
    for w in spec.wilds:
        if w.code in in_deck:
            if w.wins == WildWins.DECLARED:
                play.append(
                    f"A {w.name} may be played at any time; you say whether it is high (beats "
                    f"the suit led) or low. It belongs to no suit."
                )
            elif w.wins == WildWins.ALWAYS:
                play.append(f"The {w.name} may be played at any time and wins any trick it is in.")
            else:
                play.append(
                    f"A {w.name} may be played at any time; it wins a trick only if every card "
                    "in it is one."
                )
    if rs.passing:
        play.append(
            f"Before each hand everyone passes {rs.passing} cards to the player on their "
            f"{rs.pass_direction}, chosen before seeing what they receive."
        )
    if rs.trump_first:
        trump = next(s.name for s in spec.suits if s.letter == rs.trump_first)
        play.append(f"{trump} are trump in the first hand: a trump beats any card of another suit.")
    if rs.trump_chooser:
        play.append("Before each later hand the player in last place picks the trump suit.")
    if rs.moon == Moon.OLD:
        play.append(
            f"Shooting the moon: take every counting card of a hand and you score 0 while "
            f"everyone else scores {rs.moon_points}."
        )
    elif rs.moon == Moon.NEGATIVE:
        play.append(
            "Shooting the moon: take every penalty of a hand and it counts against you as a "
            "minus instead."
        )
    objective = (
        "The highest total after the last hand wins."
        if rs.highest_wins
        else "Every point is a penalty: the lowest total after the last hand wins."
    )
    hands = []
    for hand in compiled.hands:
        words = [penalty_words(rs, deck, p.penalty) for p in hand.penalties]
        hands.append(
            {
                "number": hand.index + 1,
                "name": hand.round.name,
                "penalties": [
                    {"name": p.penalty.name, "points": p.points, "text": w}
                    for p, w in zip(hand.penalties, words, strict=True)
                ],
                "total": hand.fixed_total,
                "text": f"Hand {hand.index + 1}, {hand.round.name}: "
                + "; ".join(words)
                + f" ({hand.fixed_total} in all).",
            }
        )
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
        "hands": hands,
        "checksum": compiled.checksum,
        "toppings": toppings,
        "trump_chooser": _trump_chooser(rs),
        "example": example,
    }
    return HowTo(data, _text(data))


def _text(data: dict[str, Any]) -> str:
    lines = [f"How to play {data['title']} ({data['players']} players)", "", data["objective"]]
    lines += ["", f"The deck: {data['deck']['text']}."]
    lines.append("Cards taken out so that everyone gets the same number:")
    lines += [f"  {r['text']}" for r in data["removals"]]
    lines += ["", "Playing a trick:"]
    lines += [f"  {p}" for p in data["play"]]
    lines += ["", "The hands, in order:"]
    lines += [f"  {h['text']}" for h in data["hands"]]
    if data["toppings"]:
        lines += ["", "Toppings in play:"]
        lines += [f"  {t['title']}: {t['text']}" for t in data["toppings"]]
    if data["example"]:
        lines += ["", "An example:", f"  {data['example']['text']}"]
    return "\n".join(lines)
