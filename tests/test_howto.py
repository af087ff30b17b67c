"""The "How to play" words (issue 14, item 6): generated from the ruleset, every penalty of
every hand in plain words, no notation jargon, and a worked example that adds up."""

from __future__ import annotations

import re

import pytest

from salad.formats.howto import howto
from salad.presets import PRESETS
from salad.settings import from_preset

JARGON = re.compile(r"rank of|any suit|any rank|per card|\bof [CDHSRBTON]\b|\b[2-9TJQKA][CDHS]\b")
"""What a reference page says and a new player does not read: "any rank of H", "QS"."""

CASES = [(name, None) for name in PRESETS] + [("skip-the-salad", {"toppings": "all"})]


@pytest.mark.parametrize(("preset", "settings"), CASES)
def test_every_penalty_in_plain_words(preset: str, settings: dict[str, str] | None) -> None:
    rs = from_preset(preset, settings)
    for players in (rs.min_players, rs.default_players, rs.max_players):
        guide = howto(rs, players)
        compiled = rs.compiled(players)
        assert len(guide.data["hands"]) == len(compiled.hands)
        for hand, part in zip(compiled.hands, guide.data["hands"], strict=True):
            assert part["name"] == hand.round.name
            assert part["total"] == hand.fixed_total
            said = [guide.data["penalties"][i] for i in part["penalties"]]
            names = [p["name"] for p in said]
            assert names == [p.penalty.name for p in hand.penalties], "a penalty is missing"
            for p, words in zip(hand.penalties, said, strict=True):
                assert str(p.points) in words["text"]
                assert words["text"] in guide.text
        assert not JARGON.search(guide.text), JARGON.search(guide.text)
        removals = {r["players"]: r for r in guide.data["removals"]}
        assert set(removals) == set(range(rs.min_players, rs.max_players + 1))
        assert removals[players]["cards_each"] == compiled.deck.cards_each


def test_plain_words_for_the_classic_hands() -> None:
    text = howto(from_preset("canadian"), 4).text
    assert "each heart you take costs 10" in text
    assert "each queen you take costs 25" in text
    assert "taking the King of Spades costs 100" in text
    assert "taking the last trick costs 100" in text
    assert "3 players: take out Two of Clubs; 17 cards each" in text
    # Each penalty in words once: the Salad names those of the hands before it.
    assert text.count("each heart you take costs 10") == 1
    salad = "Hand 6, Salad (All of the Above): Tricks, Hearts, Queens, King of Spades and Last "
    assert salad + "Trick, as above (560 in all)." in text


def test_vegetables_and_toppings_in_words() -> None:
    guide = howto(from_preset("skip-the-salad", {"toppings": "all"}), 4)
    assert "each tomato you take scores 10" in guide.text  # Cornucopia: points are good
    assert "highest total" in guide.data["objective"]
    titles = [t["title"] for t in guide.data["toppings"]]
    assert titles == [
        "Rotten Tomato",
        "Pass the Veggies",
        "Cornucopia",
        "Spicy Pepper",
        "Blue Cheese Moon",
        "Salad Dressing",
    ]
    assert all(t["text"] for t in guide.data["toppings"])
    assert howto(from_preset("skip-the-salad"), 4).data["toppings"] == []


def test_the_seeds_175_point_last_trick() -> None:
    """Seed 000: a last trick of four hearts with a queen in the Salad costs its taker 175."""
    example = howto(from_preset("canadian"), 4).data["example"]
    assert example["hand"] == 6
    assert example["total"] == 175
    assert sum(line["points"] for line in example["lines"]) == 175
    assert len(example["cards"]) == 4
    assert all("Hearts" in c["name"] for c in example["cards"])
    assert "175" in example["text"]


def test_house_rules_change_the_words() -> None:
    rs = from_preset("canadian", {"points": {"hearts": 20}})
    assert "each heart you take costs 20" in howto(rs, 4).text


def test_copies_are_counted_once() -> None:
    text = howto(from_preset("extended"), 6).text
    assert "2 x Two of Clubs" in text
    assert "the King of Spades and the King of Spades" not in text


def test_who_picks_trump_and_why() -> None:
    guide = howto(from_preset("skip-the-salad", {"toppings": ["spicy-pepper"]}), 4)
    chooser = guide.data["trump_chooser"]
    assert chooser == {
        "who": "the player in last place",
        "you": "you are in last place",
        "why": "Spicy Pepper",
    }
    assert howto(from_preset("skip-the-salad"), 4).data["trump_chooser"] is None
