"""Issue 13, "The rules": what the rules text, the checksums and the played points say agree.

- The jokers penalty charges jokers (``JK``) only, never Skip the Salad's Wilds or Salad
  Dressing, on every preset and with every topping.
- A round whose only penalty is a token (the Hot Potato) is single-event: no moon.
- Ranks are named where their letter misleads (Skip the Salad's ``A`` is an Assassin).
- Swaps say which hands they may replace; ``--toppings ''`` is refused; preset names in any case.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from salad import Game, RulesError, load_ruleset
from salad.cards import cards_of
from salad.errors import CardParseError
from salad.formats.describe import describe
from salad.presets import PRESETS
from salad.ruleset import Moon, Ruleset
from salad.server.info import deck_info, hands_info
from salad.settings import from_preset, to_ref
from salad.toppings import TOPPINGS, parse_toppings

EXAMPLES = Path(__file__).parent.parent / "examples" / "rules"
SKIP = "skip-the-salad"
JOKER = "JK"


# -- the jokers penalty counts jokers only ---------------------------------------------------------


def test_canadian_jokers_and_salad_dressing_no_tricks_totals_180() -> None:
    """The issue's example: 52 + 2 jokers + Salad Dressing for 4 players, three 2s and 3s out,
    13 tricks: No Tricks hands out 130 for the tricks and 2 x 25 for the jokers, not 205."""
    rules = load_ruleset("canadian", {"jokers": 2, "toppings": ["salad-dressing"]}).compiled(4)
    assert rules.hands[0].round.name == "No Tricks"
    assert rules.hands[0].fixed_total == 180
    assert rules.checksum == 1120 + 6 * 50


def test_skip_the_salad_jokers_no_tricks_totals_200() -> None:
    """The issue's example: 56 cards + 4 Wilds + 2 jokers, 1R 1B out, 15 tricks: 150 + 50, not
    300 (the four Wilds are no jokers)."""
    rules = load_ruleset(SKIP, {"jokers": 2}).compiled(4)
    assert [h.fixed_total for h in rules.hands] == [200, 190, 150, 150, 150, 640]
    assert rules.checksum == 1180 + 6 * 50


def _topping_sets(preset: str) -> list[list[str]]:
    """No toppings, each topping alone and all of them, where the preset takes them."""
    out: list[list[str]] = [[]]
    for toppings in [[t] for t in TOPPINGS] + [list(TOPPINGS)]:
        try:
            from_preset(preset, {"toppings": toppings})
        except RulesError:
            continue
        out.append(toppings)
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_jokers_penalty_masks_only_the_jokers_everywhere(preset: str) -> None:
    for toppings in _topping_sets(preset):
        rs = from_preset(preset, {"jokers": 3, "toppings": toppings} if toppings else {"jokers": 3})
        rules = rs.compiled(rs.default_players)
        deck = rules.deck
        jokers = sum(1 << c for c in range(deck.size) if deck.codes[c] == JOKER) & deck.in_play
        assert jokers.bit_count() == 3
        for hand in rules.hands:
            (penalty,) = [p for p in hand.penalties if p.penalty.id == "jokers"]
            assert penalty.mask == jokers, (preset, toppings, hand.round.id)


def _jokers_taken(game: Game, seat: int) -> int:
    return sum(game.deck.codes[c] == JOKER for c in cards_of(game.taken[seat]))


def test_a_played_hand_charges_jokers_not_wilds_or_salad_dressing() -> None:
    """Skip the Salad with 2 jokers and Salad Dressing: No Tricks costs each seat 10 a trick and
    25 a joker it took; the seats that took the Wilds and Salad Dressing pay nothing for them."""
    rs = load_ruleset(SKIP, {"jokers": 2, "toppings": ["salad-dressing"]})
    game = Game(rs, 4, first_dealer=0, auto_deal=False)
    deck = game.deck
    cards = cards_of(deck.in_play)
    random.Random(13).shuffle(cards)
    each = deck.cards_each
    game.deal([sum(1 << c for c in cards[s * each : (s + 1) * each]) for s in range(4)])
    rng = random.Random(5)
    while game.hand_index == 0:
        game.play(rng.choice(game.legal_moves()))
    wild_type = sum(deck.codes[c] in ("W", "SD") for s in range(4) for c in cards_of(game.taken[s]))
    assert wild_type == 5  # the four Wilds and Salad Dressing were taken by someone
    expected = tuple(10 * game.tricks_won[s] + 25 * _jokers_taken(game, s) for s in range(4))
    assert game.hand_points[0] == expected
    assert sum(expected) == 200


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_played_game_hands_out_the_checksum(seed: int) -> None:
    rs = load_ruleset(SKIP, {"jokers": 2, "toppings": ["salad-dressing", "spicy-pepper"]})
    game = Game(rs, 4, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    # 1180, 6 x 50 for the jokers, nothing for the Wilds or Salad Dressing; 63 cards for 4
    # players push 1T out with 1R and 1B, so No Tomatoes and Tossed Salad hand out 10 less.
    assert sum(game.totals) == rs.compiled(4).checksum == 1180 + 300 - 20


# -- a token-only round is single-event --------------------------------------------------------


def test_hot_potato_round_has_no_moon() -> None:
    rs = load_ruleset(str(EXAMPLES / "spicy.toml"))
    assert rs.moon == Moon.NEGATIVE
    moons = {h.round.name: h.moon for h in rs.compiled(4).hands}
    assert moons == {
        "No Tricks": True,
        "No Hearts": True,
        "No Queens": True,
        "No King of Spades": False,
        "Hot Potato": False,
        "Salad (All of the Above)": True,
    }


def _with_round(penalties: list[object]) -> Ruleset:
    return load_ruleset(
        "canadian",
        {"moon": "old", "rounds": [{"id": "x", "penalties": penalties}], "hands": ["x", "salad"]},
    )


def test_token_round_moon_on_every_moon_and_a_mixed_round_keeps_it() -> None:
    token = {"id": "potato", "kind": "token", "points": 60, "suits": ["H"]}
    assert not _with_round([token]).compiled(4).hands[0].moon
    assert not _with_round([token, "last-trick"]).compiled(4).hands[0].moon
    assert _with_round([token, "hearts"]).compiled(4).hands[0].moon  # hearts can all be taken


def test_rules_md_writes_the_token_and_trump_decisions() -> None:
    text = (Path(__file__).parent.parent / "docs" / "rules.md").read_text()
    section4 = " ".join(text[text.index("## 4.") : text.index("## 5.")].split())
    assert "a round whose only penalty is a token" in section4
    assert "**Decision:** a Wild declared high beats trumps too" in section4


def test_an_all_wild_trick_is_documented_as_going_to_the_first_wild() -> None:
    text = " ".join(
        (Path(__file__).parent.parent / "docs" / "skip-the-salad.md").read_text().split()
    )
    assert "`W W+ W` goes to the first player" in text
    assert "goes to the `W+`" not in text.replace(
        "`5B W+ AR` with Carrots trump goes to the `W+`", ""
    )


# -- ranks as people read them -----------------------------------------------------------------


def test_skip_the_salad_rules_text_names_the_assassin() -> None:
    text = describe(load_ruleset(SKIP, {"swap": {"2": "no-assassins", "3": "no-high-low"}}), 4)
    assert "Ranks, low to high: 1 2 3 4 5 6 7 8 9 10 J Q K A (Assassin)" in text
    assert "Assassins: 25 per card: Assassin of any suit" in text
    assert "High Low: 25 per card: 1/Assassin of any suit" in text
    assert " A of any suit" not in text


def test_standard_ranks_read_as_before() -> None:
    text = describe(load_ruleset("extended"), 4)
    assert "Ranks, low to high: 2 3 4 5 6 7 8 9 T J Q K A\n" in text
    assert "Aces: 30 per card: A of any suit" in text
    assert "Queens: 30 per card: Q of any suit" in text


def test_web_deck_and_hands_name_the_assassin() -> None:
    rs = load_ruleset(SKIP, {"swap": {"2": "no-assassins"}})
    ranks = deck_info(rs, 4)["ranks"]
    assert ranks[-1] == {"letter": "A", "name": "Assassin", "label": "A", "text": "A (Assassin)"}
    assert not any("text" in r for r in ranks[:-1])  # the label is the text
    lines, hands = hands_info(rs, 4)
    assert "Assassins: each assassin you take costs 25" in [lines[i] for i in hands[1]["penalties"]]
    standard = deck_info(load_ruleset("canadian"), 4)["ranks"]
    assert standard[-1] == {"letter": "A", "name": "Ace", "label": "A"}


# -- swaps, toppings and preset names ------------------------------------------------------------


@pytest.mark.parametrize("swap", ["7=no-evens", "0=no-evens"])
def test_swap_out_of_range_says_hands_1_to_5(swap: str) -> None:
    with pytest.raises(RulesError) as info:
        load_ruleset(SKIP, {"swap": [swap]})
    message = str(info.value)
    assert message == f"swap.{swap[0]}: only hands 1 to 5 may be swapped"
    assert "\n" not in message


def test_swapping_the_tossed_salad_says_hands_1_to_5() -> None:
    with pytest.raises(RulesError, match=r"swap\.6: Tossed Salad .* \(only hands 1 to 5 may"):
        load_ruleset(SKIP, {"swap": ["6=no-evens"]})


@pytest.mark.parametrize("value", ["", " ", ",,", " , "])
def test_empty_toppings_value_is_an_error(value: str) -> None:
    with pytest.raises(RulesError) as info:
        parse_toppings(value)
    assert str(info.value).startswith(f"toppings: {value!r} names no topping (known: ")
    with pytest.raises(RulesError, match="^toppings: "):
        load_ruleset(SKIP, {"toppings": value})


def test_an_empty_toppings_list_is_no_toppings() -> None:
    assert parse_toppings([]) == []


@pytest.mark.parametrize("name", ["Canadian", "CANADIAN", " canadian ", "Skip-The-Salad"])
def test_preset_names_in_any_case(name: str) -> None:
    rs = from_preset(name, {"jokers": 1})
    canonical = name.strip().lower()
    assert rs.preset == canonical
    assert to_ref(rs) == {"preset": canonical, "settings": {"jokers": 1}}
    assert rs == from_preset(canonical, {"jokers": 1})
    assert from_preset(name) is PRESETS[canonical]


def test_unknown_preset_is_still_refused() -> None:
    with pytest.raises(RulesError, match=r"^rules: unknown preset 'Lettuce' \(presets: canadian"):
        from_preset("Lettuce")


def test_a_card_error_gives_examples_from_the_deck_in_play() -> None:
    """An unknown card is answered with cards of the deck in play, never the standard deck's
    in a vegetable game."""
    messages = {}
    for preset in ("canadian", "skip-the-salad"):
        deck = load_ruleset(preset).deck_for(4)
        with pytest.raises(CardParseError) as caught:
            deck.parse("zz")
        messages[preset] = str(caught.value)
        for code in deck.examples():
            deck.parse(code)  # each example is a card of this deck
    assert messages["canadian"] == "unknown card 'zz' (expected e.g. QS, 10H, q♠)"
    assert "QS" not in messages["skip-the-salad"] and "10H" not in messages["skip-the-salad"]
