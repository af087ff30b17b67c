"""The numbers of docs/rules.md sections 1-3 and the seeds: decks, removal, hands, totals."""

from __future__ import annotations

import pytest

from salad import RulesError, SaladError, load_ruleset
from salad.ruleset import Kind
from salad.settings import from_preset, from_ref, to_ref

PRESETS = ("canadian", "fruit-salad", "extended")


def removed(preset: str, players: int, settings=None) -> list[str]:
    deck = load_ruleset(preset, settings).deck_for(players)
    return [deck.format(c) for c in deck.removed]


def round_ids(rules) -> list[str]:
    return [h.round.id for h in rules.hands]


# -- section 1: Canadian Salad -------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "cards_removed", "each"),
    [
        (3, ["2C"], 17),
        (4, [], 13),
        (5, ["2C", "2D"], 10),
        (6, ["2C", "2D", "3C", "3D"], 8),
        (7, ["2C", "2D", "3C"], 7),
        (8, ["2C", "2D", "3C", "3D"], 6),
    ],
)
def test_canadian_removal_and_cards_each(players, cards_removed, each):
    deck = load_ruleset("canadian").deck_for(players)
    assert sorted(deck.format(c) for c in deck.removed) == sorted(cards_removed)
    assert deck.cards_each == each
    assert deck.size == 52
    assert deck.in_play.bit_count() == 52 - len(cards_removed) == each * players
    for card in deck.removed:
        assert not deck.in_play >> card & 1
    assert not deck.wild_mask


def test_canadian_removal_follows_the_order_2c_2d_3c_3d():
    # The order matters for 7 players: 2C 2D 3C, not 2C 3C 2D.
    assert removed("canadian", 7) == ["2C", "2D", "3C"]
    assert removed("canadian", 5) == ["2C", "2D"]


@pytest.mark.parametrize(
    ("players", "cards_removed", "each"),
    [
        (3, ["2C"], 17),
        (4, [], 13),
        (5, ["2C", "2D"], 10),
        (6, ["2C", "2D", "2S", "2H"], 8),
        (7, ["2C", "2D", "2S"], 7),
        (8, ["2C", "2D", "2S", "2H"], 6),
    ],
)
def test_fruit_salad_removal_order(players, cards_removed, each):
    assert removed("fruit-salad", players) == cards_removed
    assert load_ruleset("fruit-salad").deck_for(players).cards_each == each


def test_fruit_salad_six_players_lose_all_four_twos():
    deck = load_ruleset("fruit-salad").deck_for(6)
    assert {deck.format(c) for c in deck.removed} == {"2C", "2D", "2H", "2S"}
    assert deck.in_play & deck.parse_many("3C 3D") == deck.parse_many("3C 3D")


def test_canadian_hands_in_fixed_order():
    rules = load_ruleset("canadian").compiled(4)
    assert round_ids(rules) == [
        "no-tricks",
        "no-hearts",
        "no-queens",
        "no-king-of-spades",
        "no-last-trick",
        "salad",
    ]
    assert [h.round.name for h in rules.hands][:5] == [
        "No Tricks",
        "No Hearts",
        "No Queens",
        "No King of Spades",
        "No Last Trick",
    ]
    assert "Salad" in rules.hands[5].round.name


def test_canadian_penalties():
    rs = load_ruleset("canadian")
    assert rs.penalty("tricks").kind == Kind.TRICK
    assert rs.penalty("tricks").points == 10
    assert rs.penalty("hearts").points == 10
    assert rs.penalty("queens").points == 25
    assert rs.penalty("king-of-spades").points == 100
    assert rs.penalty("last-trick").kind == Kind.LAST_TRICK
    assert rs.penalty("last-trick").points == 100
    # The Salad is all five penalties at once; every other hand has exactly one.
    for i in range(5):
        assert len(rs.hand_penalties(i)) == 1
    assert {p.id for p in rs.hand_penalties(5)} == {
        "tricks",
        "hearts",
        "queens",
        "king-of-spades",
        "last-trick",
    }


def test_canadian_penalty_masks():
    rules = load_ruleset("canadian").compiled(4)
    deck = rules.deck
    hearts = rules.hands[1].penalties[0].mask
    assert hearts == deck.parse_many("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    queens = rules.hands[2].penalties[0].mask
    assert queens == deck.parse_many("QC QD QH QS")
    assert rules.hands[3].penalties[0].mask == deck.parse_many("KS")


@pytest.mark.parametrize(
    ("players", "totals", "checksum"),
    [
        (3, [170, 130, 100, 100, 100, 600], 1200),
        (4, [130, 130, 100, 100, 100, 560], 1120),
        (5, [100, 130, 100, 100, 100, 530], 1060),
        (6, [80, 130, 100, 100, 100, 510], 1020),
        (7, [70, 130, 100, 100, 100, 500], 1000),
        (8, [60, 130, 100, 100, 100, 490], 980),
    ],
)
def test_canadian_hand_totals_and_checksum(players, totals, checksum):
    rules = load_ruleset("canadian").compiled(players)
    assert [h.fixed_total for h in rules.hands] == totals
    assert rules.checksum == checksum
    tricks = rules.deck.cards_each
    assert rules.tricks == tricks
    assert checksum == 20 * tricks + 860
    assert not any(h.moon for h in rules.hands)


@pytest.mark.parametrize(
    ("players", "checksum"), [(3, 1200), (4, 1120), (5, 1060), (6, 1000), (7, 1000), (8, 960)]
)
def test_fruit_salad_checksum(players, checksum):
    # Like Canadian, except that 6 and 8 players lose the 2 of hearts (one heart fewer in
    # hands 2 and 6); 7 players lose 2S instead of 3C, which changes no total.
    assert load_ruleset("fruit-salad").compiled(players).checksum == checksum


def test_fruit_salad_plays_like_canadian():
    fruit = load_ruleset("fruit-salad")
    canadian = load_ruleset("canadian")
    assert fruit.hands == canadian.hands
    assert fruit.catalogue == canadian.catalogue
    assert fruit.min_players == 3
    assert fruit.max_players == 8


# -- player counts -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "bad"),
    [
        ("canadian", 2),
        ("canadian", 9),
        ("canadian", 0),
        ("canadian", -1),
        ("fruit-salad", 2),
        ("fruit-salad", 9),
        ("extended", 2),
        ("extended", 11),
    ],
)
def test_player_count_out_of_range(preset, bad):
    rs = load_ruleset(preset)
    with pytest.raises(RulesError, match=str(bad)):
        rs.compiled(bad)
    with pytest.raises(RulesError):
        rs.deck_for(bad)
    with pytest.raises(RulesError):
        rs.check_players(bad)


@pytest.mark.parametrize(
    ("preset", "lo", "hi"), [("canadian", 3, 8), ("fruit-salad", 3, 8), ("extended", 3, 10)]
)
def test_player_count_range(preset, lo, hi):
    rs = load_ruleset(preset)
    assert (rs.min_players, rs.max_players) == (lo, hi)
    for n in range(lo, hi + 1):
        rs.check_players(n)
        assert rs.compiled(n).players == n


# -- section 3: house rules --------------------------------------------------------------------


def test_changed_points():
    rs = load_ruleset("canadian", {"points": {"queens": 30}})
    assert rs.settings == {"points": {"queens": 30}}
    rules = rs.compiled(4)
    # Four queens at 30 in No Queens and again in the Salad: 2 * 4 * 5 more than 1120.
    assert [h.fixed_total for h in rules.hands] == [130, 130, 120, 100, 100, 580]
    assert rules.checksum == 1160


def test_changed_points_of_several_penalties():
    rs = load_ruleset("canadian", {"points": {"tricks": 5, "king-of-spades": 50}})
    rules = rs.compiled(4)
    assert [h.fixed_total for h in rules.hands] == [65, 130, 100, 50, 100, 445]


def test_changed_hand_order():
    order = ["no-king-of-spades", "no-queens", "no-tricks", "no-last-trick", "no-hearts", "salad"]
    rules = load_ruleset("canadian", {"hands": order}).compiled(4)
    assert round_ids(rules) == order
    assert [h.fixed_total for h in rules.hands] == [100, 100, 130, 100, 130, 560]


def test_chosen_hands_salad_counts_only_the_hands_before_it():
    rs = load_ruleset("canadian", {"hands": ["no-queens", "no-hearts", "salad"]})
    rules = rs.compiled(4)
    assert round_ids(rules) == ["no-queens", "no-hearts", "salad"]
    assert {p.penalty.id for p in rules.hands[2].penalties} == {"queens", "hearts"}
    assert [h.fixed_total for h in rules.hands] == [100, 130, 230]
    assert rules.checksum == 460


def test_salad_in_the_middle_counts_only_earlier_hands():
    rs = load_ruleset("canadian", {"hands": ["no-tricks", "salad", "no-king-of-spades"]})
    rules = rs.compiled(3)
    assert {p.penalty.id for p in rules.hands[1].penalties} == {"tricks"}
    assert [h.fixed_total for h in rules.hands] == [170, 170, 100]


def test_unknown_hand_rejected():
    with pytest.raises(RulesError, match="no-spinach"):
        load_ruleset("canadian", {"hands": ["no-tricks", "no-spinach"]})
    with pytest.raises(RulesError, match="hands"):
        load_ruleset("canadian", {"hands": []})


def test_unknown_penalty_in_points_rejected():
    with pytest.raises(RulesError, match="spinach"):
        load_ruleset("canadian", {"points": {"spinach": 10}})
    with pytest.raises(RulesError, match="queens"):
        load_ruleset("canadian", {"points": {"queens": "lots"}})


def test_unknown_setting_and_preset_rejected():
    with pytest.raises(RulesError, match="dressing"):
        load_ruleset("canadian", {"dressing": True})
    with pytest.raises(RulesError, match="spinach"):
        load_ruleset("spinach")


def test_errors_are_value_errors():
    assert issubclass(RulesError, SaladError)
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize(
    ("players", "jokers", "cards_removed", "each"),
    [
        (4, 2, ["2C", "2D"], 13),
        (4, 4, [], 14),
        (3, 1, ["2C", "2D"], 17),
        (3, 2, [], 18),
        (5, 2, ["2C", "2D", "3C", "3D"], 10),
        (6, 2, [], 9),
    ],
)
def test_jokers_are_added_and_never_removed(players, jokers, cards_removed, each):
    deck = load_ruleset("canadian", {"jokers": jokers}).deck_for(players)
    assert deck.size == 52 + jokers
    assert deck.wild_mask.bit_count() == jokers
    assert deck.wild_mask & deck.in_play == deck.wild_mask
    assert [deck.format(c) for c in deck.removed] == cards_removed
    assert deck.cards_each == each


def test_jokers_cost_joker_points_in_every_hand():
    rules = load_ruleset("canadian", {"jokers": 2}).compiled(4)
    assert [h.fixed_total for h in rules.hands] == [180, 180, 150, 150, 150, 610]
    assert rules.checksum == 1120 + 6 * 50
    for hand in rules.hands:
        joker = [p for p in hand.penalties if p.penalty.id == "jokers"]
        assert len(joker) == 1
        assert joker[0].points == 25
        assert joker[0].mask == rules.deck.wild_mask


def test_joker_points_setting():
    rules = load_ruleset("canadian", {"jokers": 1, "joker_points": 40}).compiled(4)
    # 53 cards for 4 players: 2C removed; one joker at 40 in each of six hands.
    assert rules.checksum == 1120 + 6 * 40
    assert rules.hands[0].fixed_total == 170


def test_jokers_out_of_range_rejected():
    with pytest.raises(RulesError, match="jokers"):
        load_ruleset("canadian", {"jokers": -1})
    with pytest.raises(RulesError, match="jokers"):
        load_ruleset("canadian", {"jokers": "two"})


def test_jokers_zero_is_no_jokers():
    rs = load_ruleset("canadian", {"jokers": 0})
    assert rs.compiled(4).checksum == 1120
    assert not rs.deck_for(4).wild_mask


# -- the extended game -------------------------------------------------------------------------

EXTENDED_HANDS = [
    ("no-red-cards", "red-cards", 5),
    ("no-even-cards", "even-cards", 5),
    ("no-tricks", "tricks", 10),
    ("no-hearts", "hearts", 10),
    ("no-face-cards", "face-cards", 10),
    ("no-sevens", "sevens", 30),
    ("no-aces", "aces", 30),
    ("no-queens", "queens", 30),
    ("no-one-eyed", "one-eyed", 40),
    ("no-king-of-spades", "king-of-spades", 75),
    ("no-last-trick", "last-trick", 75),
]


def test_extended_has_twelve_hands_ending_with_all_of_the_above():
    rs = load_ruleset("extended")
    rules = rs.compiled(4)
    assert len(rules.hands) == 12
    assert round_ids(rules)[:11] == [r for r, _, _ in EXTENDED_HANDS]
    assert rules.hands[11].round.all_previous
    assert {p.penalty.id for p in rules.hands[11].penalties} == {p for _, p, _ in EXTENDED_HANDS}
    for (_, pid, points), hand in zip(EXTENDED_HANDS, rules.hands, strict=False):
        assert [p.penalty.id for p in hand.penalties] == [pid]
        assert hand.penalties[0].points == points


def test_extended_selectors():
    deck = load_ruleset("extended").deck_for(4)
    rules = load_ruleset("extended").compiled(4)
    masks = {h.penalties[0].penalty.id: h.penalties[0].mask for h in rules.hands[:11]}
    assert masks["red-cards"].bit_count() == 26
    assert masks["red-cards"] & deck.parse_many("2H AD") == deck.parse_many("2H AD")
    assert not masks["red-cards"] & deck.parse_many("2C AS")
    even = deck.format_mask(masks["even-cards"]).split()
    assert sorted({c[0] for c in even}) == sorted("2468TQ")
    assert len(even) == 24
    face = deck.format_mask(masks["face-cards"]).split()
    assert sorted({c[0] for c in face}) == sorted("JKQ")
    assert len(face) == 12
    assert masks["one-eyed"] == deck.parse_many("JH JS KD")
    assert masks["king-of-spades"] == deck.parse_many("KS")
    assert masks["sevens"] == deck.parse_many("7C 7D 7H 7S")
    assert masks["aces"] == deck.parse_many("AC AD AH AS")


def test_extended_hand_totals_for_four():
    rules = load_ruleset("extended").compiled(4)
    first_eleven = [130, 120, 130, 130, 120, 120, 120, 120, 120, 75, 75]
    assert [h.fixed_total for h in rules.hands] == [*first_eleven, sum(first_eleven)]
    assert rules.checksum == 2 * sum(first_eleven) == 2520


@pytest.mark.parametrize(
    ("players", "decks", "each"),
    [
        (3, 1, 17),
        (4, 1, 13),
        (5, 1, 10),
        (6, 2, 17),
        (7, 2, 14),
        (8, 2, 13),
        (9, 2, 11),
        (10, 2, 10),
    ],
)
def test_extended_decks_and_cards_each(players, decks, each):
    deck = load_ruleset("extended").deck_for(players)
    assert deck.size == 52 * decks
    assert deck.cards_each == each
    assert deck.cards_each >= 10
    assert deck.in_play.bit_count() == each * players
    # Removal as in section 1: only the lowest clubs and diamonds, in that order.
    codes = [deck.format(c) for c in deck.removed]
    assert len(codes) == 52 * decks - each * players
    order = ["2C", "2D", "3C", "3D"]
    assert all(c in order for c in codes)
    assert [order.index(c) for c in codes] == sorted(order.index(c) for c in codes)


def test_extended_two_decks_double_every_count():
    rules = load_ruleset("extended").compiled(8)  # 104 cards, 13 each, nothing removed
    deck = rules.deck
    assert not deck.removed
    masks = {h.penalties[0].penalty.id: h.penalties[0].mask for h in rules.hands[:11]}
    assert masks["red-cards"].bit_count() == 52
    assert masks["king-of-spades"].bit_count() == 2
    assert masks["one-eyed"].bit_count() == 6
    assert rules.hands[2].fixed_total == 130  # 13 tricks
    assert rules.hands[10].fixed_total == 75  # one last trick


def test_extended_moon_rule_is_old_style_with_100():
    rs = load_ruleset("extended")
    assert rs.moon_points == 100
    moon = [h.moon for h in rs.compiled(4).hands]
    ids = round_ids(rs.compiled(4))
    for rid, flag in zip(ids, moon, strict=True):
        # Never in single-event hands: the last trick, a lone KS.
        assert flag == (rid not in ("no-last-trick", "no-king-of-spades")), rid
    assert not rs.compiled(6).hands[10].moon  # the last trick, even with two decks


def test_canadian_has_no_moon():
    for n in range(3, 9):
        assert not any(h.moon for h in load_ruleset("canadian").compiled(n).hands)


def test_settings_are_recorded():
    settings = {"jokers": 2, "points": {"hearts": 5}}
    rs = load_ruleset("canadian", settings)
    assert rs.settings == settings
    assert load_ruleset("canadian").settings == {}
    assert rs.preset == "canadian"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("canadian", "ruleset: must be {'preset': ..., 'settings': {...}}, not 'canadian'"),
        ({"preset": "canadian", "x": 1}, "ruleset: unknown key 'x' (known: preset, settings)"),
        ({}, "ruleset: preset is missing"),
        ({"preset": 3}, "ruleset.preset: 3 is not one of canadian, "),
        (
            {"preset": "canadian", "settings": [1]},
            "ruleset.settings: must be a JSON object, not [1]",
        ),
        ({"preset": "canadian", "settings": {"moon": "up"}}, "ruleset.settings: moon: 'up' is not"),
    ],
)
def test_from_ref_names_the_key(value: object, expected: str) -> None:
    with pytest.raises(RulesError) as info:
        from_ref(value)
    assert str(info.value).startswith(expected), str(info.value)


def test_from_ref_reads_what_to_ref_wrote() -> None:
    rs = from_preset("fruit-salad", {"jokers": 2, "points": {"queens": 30}})
    assert from_ref(to_ref(rs)) == rs
    with pytest.raises(RulesError, match=r"^sheet\.preset: 'x' is not"):
        from_ref({"preset": "x"}, where="sheet")


def _penalties(count: int) -> list[dict[str, object]]:
    return [{"id": f"p{i}", "points": 1, "cards": ["QS"]} for i in range(count)]


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"hands": ["spades"] * 8000}, "hands: 8000 entries, more than the limit of 64"),
        ({"penalties": _penalties(65)}, "penalties: 65 entries, more than the limit of 64"),
        ({"penalties": _penalties(60)}, "penalties: 65 in all, more than the limit of 64"),
        (
            {"rounds": [{"id": f"r{i}", "penalties": ["queens"]} for i in range(65)]},
            "rounds: 65 entries",
        ),
        (
            {"rounds": [{"id": "r", "penalties": ["queens"] * 33}]},
            "rounds[0].penalties: 33 entries, more than the limit of 32",
        ),
        ({"removal": ["2C"] * 257}, "removal: 257 entries"),
        ({"penalties": [{"id": "x", "points": 1, "cards": ["QS"] * 257}]}, "penalties[0].cards"),
        ({"points": {f"p{i}": 1 for i in range(65)}}, "points: 65 entries"),
        ({"title": "T" * 95_000}, "title: 95000 characters, more than the limit of 60"),
        (
            {"rounds": [{"id": "r", "name": "N" * 61, "penalties": ["queens"]}]},
            "rounds[0].name: 61 characters, more than the limit of 60",
        ),
        (
            {"penalties": [{"id": "x", "name": "N" * 99_000, "points": 1, "cards": ["QS"]}]},
            "penalties[0].name: 99000 characters",
        ),
        ({"rounds": [{"id": "r" * 41, "penalties": ["queens"]}]}, "rounds[0].id: 41 characters"),
        ({"jokers": 9}, "jokers: 9 is out of range (0 to 8)"),
        ({"max_players": 17}, "max_players: 17 is out of range (2 to 16)"),
    ],
)
def test_rulesets_are_bounded(settings, words):
    """Limits no real game reaches keep a ruleset (and every answer built from it) small."""
    with pytest.raises(RulesError) as exc:
        from_preset("canadian", settings)
    message = str(exc.value)
    assert words in message and "\n" not in message, message


def test_the_largest_preset_is_well_within_the_limits():
    rs = from_preset("canadian", {"hands": ["no-queens"] * 64, "penalties": _penalties(59)})
    assert len(rs.hands) == 64 and len(rs.catalogue) == 64


def test_every_preset_and_topping_word_is_within_the_name_limits():
    """The limits leave room for every name and id the presets and toppings use."""
    from salad.presets import PRESETS
    from salad.settings_schema import ID_LIMIT, NAME_LIMIT
    from salad.toppings import TOPPINGS, apply_toppings

    for ruleset in PRESETS.values():
        variants = [ruleset]
        for topping in TOPPINGS:
            try:
                variants.append(apply_toppings(ruleset, [topping]))
            except RulesError:
                continue
        for rs in variants:
            assert len(rs.title) <= NAME_LIMIT, rs.title
            for item in (*rs.rounds, *rs.catalogue):
                assert len(item.name) <= NAME_LIMIT and len(item.id) <= ID_LIMIT, item
