"""How to play in French (#35): the rules for players written by salad.formats.howto in the
current language, whole sentences from the catalog, the cards named as a French player says
them."""

from __future__ import annotations

import re

from salad.formats.howto import howto
from salad.locale import using
from salad.settings import from_preset


def test_the_classic_hands_in_french() -> None:
    with using("fr"):
        guide = howto(from_preset("canadian"), 4)
    text = guide.text
    assert text.startswith("Comment jouer\u00a0: Salade canadienne (4 joueurs)")
    assert "chaque cœur que tu prends coûte 10" in text
    assert "chaque dame que tu prends coûte 25" in text
    assert "prendre le roi de pique coûte 100" in text
    assert "Donne 6, Salade (tout à la fois)\u00a0:" in text
    assert "3 joueurs\u00a0: on retire deux de trèfle; 17 cartes chacun" in text
    assert "L'as de cœur la remporte" in guide.data["example"]["text"]
    assert guide.data["hands"][0]["name"] == "No Tricks"  # data stays the ruleset's words


def test_vegetables_and_toppings_in_french() -> None:
    with using("fr"):
        guide = howto(from_preset("skip-the-salad", {"toppings": "all"}), 4)
    assert "chaque tomate que tu prends rapporte 10" in guide.text
    assert "La carte Vinaigrette peut être jouée en tout temps" in guide.text
    shown = [t["shown"] for t in guide.data["toppings"]]
    assert shown[0] == "Tomate pourrie"
    assert guide.data["toppings"][0]["title"] == "Rotten Tomato"


def test_the_pseudo_locale_leaves_no_english_out() -> None:
    """Every word of the text comes from the catalog: in en-XA none is left unbracketed."""
    with using("en-XA"):
        text = howto(from_preset("skip-the-salad", {"toppings": "all"}), 4).text
    outside = re.sub(r"\[[^\[\]]*\]", "", text)
    while outside != (outside := re.sub(r"\[[^\[\]]*\]", "", outside)):
        pass
    assert not re.search(r"[A-Za-z]{2,}", outside), outside[:300]
