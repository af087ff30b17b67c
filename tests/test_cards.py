"""Card notation (docs/rules.md preamble): parsing, formatting, copies, errors."""

from __future__ import annotations

import pytest

from salad import CardParseError, SaladError, load_ruleset
from salad.cards import NO_SUIT, cards_of, iter_cards, popcount


@pytest.fixture
def deck():
    return load_ruleset("canadian").deck_for(4)


@pytest.fixture
def double_deck():
    """The extended game for 6 players shuffles two 52-card decks together."""
    return load_ruleset("extended").deck_for(6)


# -- parsing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["QS", "qs", "Qs", "qS", "Q♠", "q♠", "Q♤", "q♤", " QS ", "Q♠\ufe0f"],
)
def test_queen_of_spades_in_every_notation(deck, text):
    card = deck.parse(text)
    assert deck.format(card) == "QS"
    assert deck.symbol(card) == "Q♠"
    assert deck.suits[deck.suit_of[card]].letter == "S"
    assert deck.spec.ranks[deck.rank_of[card]].letter == "Q"


@pytest.mark.parametrize("text", ["TH", "th", "10H", "10h", "T♥", "10♥", "t♡", "10♡"])
def test_ten_of_hearts_in_every_notation(deck, text):
    card = deck.parse(text)
    assert deck.format(card) == "TH"
    assert deck.symbol(card) == "T♥"


@pytest.mark.parametrize(
    ("text", "code", "symbol"),
    [
        ("2C", "2C", "2♣"),
        ("2♧", "2C", "2♣"),
        ("ad", "AD", "A♦"),
        ("A♢", "AD", "A♦"),
        ("KS", "KS", "K♠"),
        ("jh", "JH", "J♥"),
        ("9c", "9C", "9♣"),
    ],
)
def test_other_cards_round_trip(deck, text, code, symbol):
    card = deck.parse(text)
    assert deck.format(card) == code
    assert deck.symbol(card) == symbol


def test_every_card_round_trips_through_both_notations(deck):
    codes = set()
    for card in range(deck.size):
        code = deck.format(card)
        codes.add(code)
        assert deck.parse(code) == card
        assert deck.parse(code.lower()) == card
        assert deck.parse(deck.symbol(card)) == card
        assert len(code) == 2
        assert code[0] in "23456789TJQKA"
        assert code[1] in "CDHS"
    assert len(codes) == 52


def test_distinct_codes_give_distinct_cards(deck):
    assert deck.parse("QS") != deck.parse("QH")
    assert deck.parse("QS") != deck.parse("KS")
    assert deck.parse("TH") != deck.parse("TS")


def test_higher_rank_has_higher_index_within_a_suit(deck):
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    for suit in "CDHS":
        cards = [deck.parse(r + suit) for r in order]
        assert cards == sorted(cards)
        assert [deck.rank_of[c] for c in cards] == list(range(13))


@pytest.mark.parametrize("bad", ["ZZ", "1H", "QX", "11S", "Q", "", "QSS", "JK", "♠Q", "1OH"])
def test_parse_error_is_a_value_error_naming_the_text(deck, bad):
    with pytest.raises(CardParseError) as info:
        deck.parse(bad)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, SaladError)
    assert repr(bad) in str(info.value) or bad in str(info.value)


def test_parse_error_message_quotes_the_bad_text(deck):
    with pytest.raises(ValueError, match="XQ"):
        deck.parse("XQ")


def test_joker_only_parses_when_the_deck_has_jokers():
    deck = load_ruleset("canadian", {"jokers": 2}).deck_for(4)
    jokers = cards_of(deck.wild_mask)
    assert len(jokers) == 2
    assert deck.parse("JK") == jokers[0]
    assert deck.format(jokers[0]) == "JK"
    assert deck.suit_of[jokers[0]] == NO_SUIT
    with pytest.raises(CardParseError):
        load_ruleset("canadian").deck_for(4).parse("JK")


# -- several cards -----------------------------------------------------------------------------


def test_parse_many_and_format_mask(deck):
    mask = deck.parse_many("10h qs 2c")
    assert popcount(mask) == 3
    # Suits are ordered clubs, diamonds, hearts, spades, so TH comes before QS.
    assert deck.format_mask(mask) == "2C TH QS"
    assert deck.format_mask(mask, symbols=True) == "2♣ T♥ Q♠"


def test_parse_many_accepts_commas_and_lists(deck):
    a = deck.parse_many("QS, TH,2C")
    b = deck.parse_many(["qs", "10H", "2♣"])
    assert a == b
    assert a == (1 << deck.parse("QS")) | (1 << deck.parse("TH")) | (1 << deck.parse("2C"))


def test_parse_many_empty_is_empty(deck):
    assert deck.parse_many("") == 0
    assert deck.format_mask(0) == ""


def test_parse_many_rejects_a_repeated_single_copy_card(deck):
    with pytest.raises(CardParseError, match="Q♠"):
        deck.parse_many("QS Q♠")


def test_parse_many_names_the_unknown_card(deck):
    with pytest.raises(CardParseError, match="ZZ"):
        deck.parse_many("QS ZZ TH")


def test_format_mask_lists_cards_lowest_index_first(deck):
    mask = deck.parse_many("AS 2C KD 3H")
    assert deck.format_mask(mask) == "2C KD 3H AS"
    assert cards_of(mask) == sorted(cards_of(mask))
    assert list(iter_cards(mask)) == cards_of(mask)


def test_full_deck_mask(deck):
    everything = " ".join(deck.format(c) for c in range(deck.size))
    assert deck.parse_many(everything) == deck.all_mask
    assert popcount(deck.all_mask) == 52


# -- copies (the extended game's double deck) --------------------------------------------------


def test_double_deck_holds_two_copies_of_every_card(double_deck):
    assert double_deck.size == 104
    for code in ("QS", "TH", "2C", "AD"):
        copies = [c for c in range(double_deck.size) if double_deck.format(c) == code]
        assert len(copies) == 2
        assert double_deck.parse(code) == copies[0]
        for c in copies:
            assert double_deck.symbol(c) == double_deck.symbol(copies[0])


def test_parse_many_fills_copies_in_order(double_deck):
    one = double_deck.parse_many("QS")
    two = double_deck.parse_many("QS q♠")
    assert popcount(one) == 1
    assert popcount(two) == 2
    assert one & two == one
    assert double_deck.format_mask(two) == "QS QS"
    with pytest.raises(CardParseError, match="QS"):
        double_deck.parse_many("QS QS QS")


def test_parse_among_takes_the_copy_held(double_deck):
    first, second = (c for c in range(double_deck.size) if double_deck.format(c) == "KS")
    assert double_deck.parse("KS", among=1 << second) == second
    assert double_deck.parse("KS", among=1 << first) == first
    assert double_deck.parse("KS", among=(1 << first) | (1 << second)) == first


def test_identical_copies_share_rank_and_suit(double_deck):
    first, second = (c for c in range(double_deck.size) if double_deck.format(c) == "AH")
    assert double_deck.rank_of[first] == double_deck.rank_of[second]
    assert double_deck.suit_of[first] == double_deck.suit_of[second]
    assert double_deck.name(first) == "Ace of Hearts"
