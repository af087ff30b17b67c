"""A ruleset in words, for `salad rules` and the help screens of every front end.

In the current language (:mod:`salad.locale`): the ruleset's own words (its title, suits, ranks,
penalties and rounds) are data in English, translated where they are written here
(``_(round.name)``); every sentence is built from the ruleset's data, never by translating the
English one (:meth:`salad.ruleset.Penalty.describe` is the English of :func:`penalty_text`). A
card is written with the letters a player of the language types: ``QS`` in English, ``DP``
(dame de pique) in French.
"""

from __future__ import annotations

from salad.cards import DeckSpec, RankSpec, WildWins
from salad.locale import _, ngettext
from salad.locale.cards import rank_letter, suit_letter
from salad.ruleset import Kind, Moon, Penalty, Ruleset, Selector


def describe(rs: Ruleset, players: int) -> str:
    compiled = rs.compiled(players)
    deck = compiled.deck
    spec = rs.deck
    lines = [_("{title} (preset {preset})").format(title=_(rs.title), preset=rs.preset)]
    if rs.settings:
        lines.append(_("House rules: {settings}").format(settings=_settings_text(rs)))
    lines.append("")
    suits = ", ".join(f"{_(s.name)} {s.symbol} ({suit_letter(s)})" for s in spec.suits)
    lines.append(_("Deck: {suits}").format(suits=suits))
    for s in spec.suits:
        if s.min_players:
            lines.append(
                "  "
                + _("{suit} only with {n} or more players").format(suit=_(s.name), n=s.min_players)
            )
    ranks = " ".join(_rank_listed(r) for r in spec.ranks)
    lines.append(_("Ranks, low to high: {ranks}").format(ranks=ranks))
    for w in spec.wilds:
        # the code, and the symbol only where it differs ("Wild (W)", not "Wild (W, W)")
        shown = w.code if w.symbol == w.code else f"{w.code}, {w.symbol}"
        lines.append(
            _("Wild: {count} x {name} ({shown})").format(count=w.count, name=_(w.name), shown=shown)
        )
    copies = spec.copies_for(players)
    if copies > 1:
        lines.append(
            _("{copies} decks shuffled together for {players} players").format(
                copies=copies, players=players
            )
        )
    lines.append(_("Players: {low} to {high}").format(low=rs.min_players, high=rs.max_players))
    lines.append("")
    lines.append(_("Cards removed so that the deal comes out even:"))
    for n in range(rs.min_players, rs.max_players + 1):
        d = rs.deck_for(n)
        letters = _Letters(spec)
        removed = " ".join(letters.card(d.format(c)) for c in d.removed) or _("none")
        lines.append(
            "  "
            + _("{n} players:").format(n=n)
            + f" {removed:<24} "
            + ngettext("{n} card each", "{n} cards each", d.cards_each).format(n=d.cards_each)
        )
    lines.append("")
    lines.extend(play_lines(rs))
    lines.append("")
    tricks = deck.cards_each
    if rs.highest_wins:
        heading = ngettext(
            "Hands for {players} players ({tricks} trick a hand); highest total wins:",
            "Hands for {players} players ({tricks} tricks a hand); highest total wins:",
            tricks,
        )
    else:
        heading = ngettext(
            "Hands for {players} players ({tricks} trick a hand); lowest total wins:",
            "Hands for {players} players ({tricks} tricks a hand); lowest total wins:",
            tricks,
        )
    lines.append(heading.format(players=players, tricks=tricks))
    for hand in compiled.hands:
        lines.append(
            f"  {hand.index + 1}. {_(hand.round.name)}  "
            + _("(total {total})").format(total=hand.fixed_total)
        )
        for p in hand.penalties:
            lines.append(
                "       "
                + _("{penalty}: {rule}").format(
                    penalty=_(p.penalty.name), rule=penalty_text(p.penalty, spec)
                )
            )
    lines.append("")
    if rs.moon != Moon.NONE:
        checksum = _(
            "Game checksum: every game hands out {points} points in all (unless a moon is shot)"
        )
    else:
        checksum = _("Game checksum: every game hands out {points} points in all")
    lines.append(checksum.format(points=compiled.checksum))
    if rs.moon == Moon.OLD:
        lines.append(
            _(
                "Moon: taking every counting card of a hand scores 0 and every other player "
                "{points} (never in single-event hands)"
            ).format(points=rs.moon_points)
        )
    elif rs.moon == Moon.NEGATIVE:
        lines.append(
            _(
                "Moon: collecting every penalty of a hand scores it negative "
                "(never in single-event hands)"
            )
        )
    if rs.passing:
        passing = {
            "left": _("Passing: {n} cards to the left before each hand"),
            "right": _("Passing: {n} cards to the right before each hand"),
            "across": _("Passing: {n} cards to the across before each hand"),
        }[rs.pass_direction]
        lines.append(passing.format(n=rs.passing))
    if rs.trump_first:
        suit = next((s for s in spec.suits if s.letter == rs.trump_first), None)
        lines.append(
            _("Trump in the first hand: {suit}").format(
                suit=suit_letter(suit) if suit is not None else rs.trump_first
            )
        )
    if rs.trump_chooser:
        lines.append(_("Before each later hand the player in last place picks the trump suit"))
    return "\n".join(lines)


def play_lines(rs: Ruleset) -> list[str]:
    """How a trick is played under ``rs``, in words in the current language: who leads, follow
    suit, what wins (trumps where the ruleset has them), its wild cards.

    >>> from salad.presets import PRESETS
    >>> for line in play_lines(PRESETS["canadian"]):
    ...     print(line[:60])
    Play: the player at the dealer's left leads the first trick,
    The highest card of the led suit wins the trick (no trumps);
    """
    lines = [
        _(
            "Play: the player at the dealer's left leads the first trick, with any card; the "
            "others must follow the led suit if they can, else play any card."
        )
    ]
    if rs.trump_first or rs.trump_chooser:
        lines.append(
            _(
                "The highest trump wins the trick, else the highest card of the led suit; its "
                "winner leads the next."
            )
        )
    else:
        lines.append(
            _(
                "The highest card of the led suit wins the trick (no trumps); its winner "
                "leads the next."
            )
        )
    for w in rs.deck.wilds:
        said = {
            WildWins.NEVER: _(
                "{name}: may be played at any time, even when you could follow suit; it wins "
                "a trick only when every card of it is a {name}."
            ),
            WildWins.DECLARED: _(
                "{name}: may be played at any time, even when you could follow suit, declared "
                "high (it beats every card of the led suit) or low (it loses to them)."
            ),
            WildWins.ALWAYS: _(
                "{name}: may be played at any time, even when you could follow suit; it beats "
                "every other card."
            ),
        }[w.wins]
        lines.append(said.format(name=_(w.name)))
    return lines


def penalty_text(penalty: Penalty, deck: DeckSpec | None = None) -> str:
    """The penalty in words in the current language: ``25 per card: Q of any suit``, ``25 par
    carte : D de n'importe quelle couleur``; the same English as
    :meth:`salad.ruleset.Penalty.describe`.

    >>> from salad.locale import using
    >>> from salad.presets import PRESETS
    >>> queens = PRESETS["canadian"].penalty("queens")
    >>> penalty_text(queens, PRESETS["canadian"].deck)
    '25 per card: Q of any suit'
    >>> with using("fr"):
    ...     text = penalty_text(queens, PRESETS["canadian"].deck)
    >>> text == "25 par carte\\xa0: D de n'importe quelle couleur"
    True
    >>> penalty_text(PRESETS["canadian"].penalty("king-of-spades"), PRESETS["canadian"].deck)
    '100 for KS'
    """
    if penalty.kind == Kind.TRICK:
        return _("{points} per trick").format(points=penalty.points)
    if penalty.kind == Kind.LAST_TRICK:
        return _("{points} for the last trick").format(points=penalty.points)
    if penalty.kind == Kind.TOKEN:
        return _("{points} to the holder of the {token} token").format(
            points=penalty.points, token=_(penalty.name)
        )
    if penalty.selector.one_card(deck):  # "100 for KS", not "100 per card: KS"
        return _("{points} for {card}").format(
            points=penalty.points, card=selector_text(penalty.selector, deck)
        )
    return _("{points} per card: {cards}").format(
        points=penalty.points, cards=selector_text(penalty.selector, deck)
    )


def selector_text(selector: Selector, deck: DeckSpec | None = None) -> str:
    """Which cards a penalty counts, in words in the current language (see
    :meth:`salad.ruleset.Selector.describe`)."""
    letters = _Letters(deck)
    parts = []
    if selector.cards:
        parts.append(" ".join(letters.card(code) for code in selector.cards))
    ranks = "/".join(letters.rank_word(r) for r in selector.ranks)
    suits = "/".join(letters.suit(s) for s in selector.suits)
    if ranks and suits:
        parts.append(_("{ranks} of {suits}").format(ranks=ranks, suits=suits))
    elif ranks:
        parts.append(_("{ranks} of any suit").format(ranks=ranks))
    elif suits:
        parts.append(_("any rank of {suits}").format(suits=suits))
    if selector.wild:
        parts.append(_("wild cards"))
    return ", ".join(parts)


# -- the letters a player types: salad.locale.cards' -------------------------------------------
def _rank_listed(rank: RankSpec) -> str:
    """A rank in the list of ranks: its letter, with its name where the letter misleads."""
    if rank.clear:
        return rank_letter(rank)
    return f"{rank_letter(rank)} ({_(rank.name)})"


class _Letters:
    """A deck's card codes (``QS``) and letters, written in the current language."""

    def __init__(self, deck: DeckSpec | None) -> None:
        self.ranks = {r.letter: r for r in deck.ranks} if deck is not None else {}
        self.suits = {s.letter: s for s in deck.suits} if deck is not None else {}

    def rank_word(self, letter: str) -> str:
        rank = self.ranks.get(letter)
        if rank is None:
            return letter
        return rank_letter(rank) if rank.clear else _(rank.name)

    def suit(self, letter: str) -> str:
        suit = self.suits.get(letter)
        return letter if suit is None else suit_letter(suit)

    def card(self, code: str) -> str:
        """A card's code in the current language (``QS``: ``DP``), or as drawn on screens
        (``Q♠``: ``D♠``); a code it cannot split (a wild card's) as it is."""
        for letter, suit in self.suits.items():
            for end, shown in ((letter, suit_letter(suit)), (suit.symbol, suit.symbol)):
                rank = self.ranks.get(code[: -len(end)])
                if code.endswith(end) and rank is not None:
                    return rank_letter(rank) + shown
        return code


def card_text(deck: DeckSpec | None, code: str) -> str:
    """A card (its code ``QS`` or its screen form ``Q♠``) in the letters of the current
    language: ``DP``, ``D♠`` in French; the same in English.

    >>> from salad.locale import using
    >>> from salad.presets import PRESETS
    >>> with using("fr"):
    ...     card_text(PRESETS["canadian"].deck, "QS"), card_text(PRESETS["canadian"].deck, "T♥")
    ('DP', '10♥')
    """
    return _Letters(deck).card(code)


def cards_text(deck: DeckSpec | None, codes: str) -> str:
    """Cards separated by spaces, each as :func:`card_text` writes it."""
    letters = _Letters(deck)
    return " ".join(letters.card(code) for code in codes.split(" "))


def _settings_text(rs: Ruleset) -> str:
    parts: list[str] = []
    for key, value in rs.settings.items():
        if isinstance(value, dict):
            parts.extend(f"{key}.{k}={v}" for k, v in value.items())
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            parts.append(
                ngettext("{key}: {n} added", "{key}: {n} added", len(value)).format(
                    key=key, n=len(value)
                )
            )
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)
