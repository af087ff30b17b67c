"""End-to-end: the score sheet page (/sheet) in Chromium against a real `salad serve`.

The expected numbers come from the model (``salad.sheet``) run here, never from the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from salad import load_ruleset
from salad.sheet import ScoreSheet

NAMES = ["Ann", "Bob", "Cy", "Di"]
PHONE = {"width": 375, "height": 667}
CANADIAN = load_ruleset("canadian")


def start_sheet(page: Any, names: list[str]) -> None:
    expect(page.locator("#setup")).to_be_visible()
    for i, name in enumerate(names):
        page.get_by_label(f"Name of player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator("#entry-title")).to_have_text("Hand 1 of 6: No Tricks")


def fill_counts(page: Any, label: str, counts: list[int | str]) -> None:
    for name, count in zip(NAMES, counts, strict=True):
        page.get_by_label(f"{label}: {name}", exact=True).fill(str(count))


def totals(page: Any) -> list[int]:
    cells = page.eval_on_selector_all(
        "#sheet-table tfoot tr.totals td", "els => els.map(e => e.textContent)"
    )
    return [int(c) for c in cells[: len(NAMES)]]


def points_of_hand(page: Any, number: int) -> list[int]:
    cells = page.eval_on_selector_all(
        f"#sheet-table tr[data-hand='{number}'] td .pts", "els => els.map(e => e.textContent)"
    )
    return [int(c.split()[0]) for c in cells]


def stored_hands(page: Any) -> int:
    text = page.evaluate("localStorage.getItem('salad.scoresheet')")
    return len(json.loads(text)["hands"])


def leader_line(model: ScoreSheet) -> str:
    seats = model.leaders()
    names = [model.names[s] for s in seats]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    verb = "leads" if len(names) == 1 else "lead"
    return f"After hand {len(model.entries)}: {who} {verb} with {model.totals[seats[0]]}."


def test_sheet_page_enter_check_reload_correct_chart_csv(
    open_page: Callable[..., Any], tmp_path: Path
) -> None:
    page = open_page("/sheet")
    # Names the model refuses: every problem is shown, and no sheet starts.
    for i, name in enumerate(["Ann", "ann", "Cy", "12"]):
        page.get_by_label(f"Name of player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator("#setup-problems li")).to_have_text(
        [
            "player 2: 'ann' is already taken by Ann",
            "player 4: '12' is a number; a name must not be one",
        ]
    )
    expect(page.locator("#game")).to_be_hidden()
    start_sheet(page, NAMES)
    model = ScoreSheet(CANADIAN, NAMES)
    expect(page.locator("#entry-fields")).to_contain_text(
        "How many tricks did each player take? (13 in all)"
    )

    # A hand that does not add up: the running count says so while it is typed, before
    # Enter; then the model's message, and nothing is entered.
    tally = page.locator("[data-tally='tricks']")
    expect(tally).to_have_text("0 of 13 tricks entered: 13 to go")
    fill_counts(page, "Tricks", [3, 4, 3, 2])
    expect(tally).to_have_text("12 of 13 tricks entered: 1 to go")
    page.get_by_label("Tricks: Di", exact=True).fill("4")
    expect(tally).to_have_text("14 of 13 tricks: 1 too many")
    page.get_by_label("Tricks: Di", exact=True).fill("3")
    expect(tally).to_have_text("13 of 13 tricks: it adds up ✓")
    fill_counts(page, "Tricks", [3, 4, 3, 2])
    page.get_by_role("button", name="Enter the hand").click()
    problems = page.locator("#problems")
    expect(problems).to_be_visible()
    expect(problems).to_contain_text("Tricks: they add up to 12, but 13 were played")
    assert model.check({"tricks": [3, 4, 3, 2]}) == [
        "Tricks: they add up to 12, but 13 were played"
    ]
    expect(page.locator("#entry-title")).to_have_text("Hand 1 of 6: No Tricks")
    assert page.locator("#sheet-table tr.done").count() == 0
    assert stored_hands(page) == 0
    expect(page.locator("#leader")).to_have_text("No hand entered yet.")

    # Another kind of problem: the text is sent as typed and the model judges it.
    fill_counts(page, "Tricks", [3, 4, 3, "x"])
    page.get_by_role("button", name="Enter the hand").click()
    expect(problems).to_contain_text("Tricks: 'x' is not a whole number")
    assert page.locator("#sheet-table tr.done").count() == 0

    # A good hand: points, totals and the leader.
    fill_counts(page, "Tricks", [3, 4, 3, 3])
    page.get_by_role("button", name="Enter the hand").click()
    expect(page.locator("#entry-title")).to_have_text("Hand 2 of 6: No Hearts")
    expect(problems).to_be_hidden()
    model.enter({"tricks": [3, 4, 3, 3]})
    assert points_of_hand(page, 1) == list(model.scores()[0].points) == [30, 40, 30, 30]
    assert totals(page) == list(model.totals)
    expect(page.locator("#leader")).to_have_text(leader_line(model))
    assert leader_line(model) == "After hand 1: Ann, Cy and Di lead with 30."
    assert stored_hands(page) == 1

    # A reload restores the sheet from this browser.
    page.reload()
    expect(page.locator("#entry-title")).to_have_text("Hand 2 of 6: No Hearts")
    expect(page.locator("#sheet-table tr[data-hand='1']")).to_have_class("done")
    assert totals(page) == list(model.totals)
    expect(page.locator("#leader")).to_have_text(leader_line(model))

    # Correct hand 1: its old answers come back; a bad correction changes nothing.
    page.get_by_role("button", name="Fix hand 1 (No Tricks)").click()
    expect(page.locator("#entry-title")).to_have_text("Correcting hand 1: No Tricks")
    values = [page.get_by_label(f"Tricks: {n}", exact=True).input_value() for n in NAMES]
    assert values == ["3", "4", "3", "3"]
    fill_counts(page, "Tricks", [0, 1, 0, 11])
    page.get_by_role("button", name="Save the correction").click()
    expect(problems).to_contain_text("Tricks: they add up to 12, but 13 were played")
    assert totals(page) == list(model.totals)
    fill_counts(page, "Tricks", [0, 1, 0, 12])
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#entry-title")).to_have_text("Hand 2 of 6: No Hearts")
    model.correct(0, {"tricks": [0, 1, 0, 12]})
    expect(page.locator("#leader")).to_have_text(leader_line(model))
    assert totals(page) == list(model.totals) == [0, 10, 0, 120]

    # Hand 2: boxes left empty count 0.
    page.get_by_label("Hearts: Bob", exact=True).fill("13")
    page.get_by_role("button", name="Enter the hand").click()
    expect(page.locator("#entry-title")).to_have_text("Hand 3 of 6: No Queens")
    model.enter({"hearts": [0, 13, 0, 0]})
    assert totals(page) == list(model.totals)
    expect(page.locator("#leader")).to_have_text(leader_line(model))

    # The chart: one line per player, one point per hand from the start.
    lines = page.locator("#chart svg path.line")
    expect(lines).to_have_count(len(NAMES))
    for s in range(len(NAMES)):
        d = lines.nth(s).get_attribute("d") or ""
        assert d.count("L") == len(model.entries), d
    legend = page.eval_on_selector_all(
        "#chart .legend-item", "els => els.map(e => e.textContent.trim())"
    )
    assert legend == [f"{n} {t}" for n, t in zip(NAMES, model.totals, strict=True)]

    # CSV and JSON downloads hold what the model makes of the sheet.
    with page.expect_download() as info:
        page.get_by_role("button", name="Export CSV").click()
    path = tmp_path / "sheet.csv"
    info.value.save_as(path)
    assert info.value.suggested_filename.endswith(".csv")
    assert path.read_text() == model.to_csv()
    with page.expect_download() as info:
        page.get_by_role("button", name="Save the sheet (JSON)").click()
    path = tmp_path / "sheet.json"
    info.value.save_as(path)
    assert ScoreSheet.from_json(path.read_text()).to_dict() == model.to_dict()

    # Open a sheet file: another game, further on.
    other = ScoreSheet(CANADIAN, ["Eve", "Fay", "Gus"])
    for entry in ({"tricks": [5, 6, 6]}, {"hearts": [1, 2, 10]}, {"queens": [0, 4, 0]}):
        other.enter(entry)
    upload = tmp_path / "other.json"
    upload.write_text(other.to_json())
    page.locator("#open-file").set_input_files(str(upload))
    expect(page.locator("#entry-title")).to_have_text("Hand 4 of 6: No King of Spades")
    assert totals(page)[:3] == list(other.totals)
    expect(page.locator("#chart svg path.line")).to_have_count(3)
    # A file that does not load is refused with the model's message, and the sheet stays.
    bad = json.loads(other.to_json())
    bad["hands"][0]["took"]["tricks"] = [5, 6, 5]
    upload.write_text(json.dumps(bad))
    page.locator("#open-file").set_input_files(str(upload))
    expect(page.locator("#toasts")).to_contain_text(
        "hands[0] (hand 1): Tricks: they add up to 16, but 17 were played"
    )
    expect(page.locator("#entry-title")).to_have_text("Hand 4 of 6: No King of Spades")


def test_sheet_page_phone_and_keyboard_to_the_final_standings(
    open_page: Callable[..., Any],
) -> None:
    page = open_page("/sheet", viewport=PHONE)
    expect(page.locator("#s-name-0")).to_be_focused()
    page.keyboard.type("Ann")
    for name in NAMES[1:]:
        page.keyboard.press("Tab")
        page.keyboard.type(name)
    page.keyboard.press("Enter")
    expect(page.locator("#entry-title")).to_have_text("Hand 1 of 6: No Tricks")
    model = ScoreSheet(CANADIAN, NAMES)

    def type_counts(counts: list[int]) -> None:
        expect(page.locator("#e-0-0")).to_be_focused()
        for i, count in enumerate(counts):
            if i:
                page.keyboard.press("Tab")
            page.keyboard.type(str(count))
        page.keyboard.press("Enter")

    type_counts([2, 5, 3, 3])
    expect(page.locator("#entry-title")).to_have_text("Hand 2 of 6: No Hearts")
    model.enter({"tricks": [2, 5, 3, 3]})
    type_counts([0, 0, 13, 0])
    expect(page.locator("#entry-title")).to_have_text("Hand 3 of 6: No Queens")
    model.enter({"hearts": [0, 0, 13, 0]})
    type_counts([1, 1, 1, 1])
    expect(page.locator("#entry-title")).to_have_text("Hand 4 of 6: No King of Spades")
    model.enter({"queens": [1, 1, 1, 1]})
    # One player: radio buttons, chosen with the arrow keys.
    expect(page.locator("#e-0-0")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_label("King of Spades (KS): Bob")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Enter the hand")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#entry-title")).to_have_text("Hand 5 of 6: No Last Trick")
    model.enter({"king-of-spades": 1})
    page.get_by_label("Last Trick: Di").check()
    page.get_by_role("button", name="Enter the hand").click()
    model.enter({"last-trick": 3})
    expect(page.locator("#entry-title")).to_have_text("Hand 6 of 6: Salad (All of the Above)")
    # The Salad hand asks every question of the game, from the field descriptions.
    legends = page.locator("#entry-fields legend").all_inner_texts()
    assert [t.split(" ")[0] for t in legends] == ["Tricks", "Hearts", "Queens", "King", "Last"]
    # Every problem of the entry is shown.
    fill_counts(page, "Tricks", [4, 3, 3, 2])
    page.get_by_label("King of Spades (KS): Ann").check()
    page.get_by_role("button", name="Enter the hand").click()
    entry: dict[str, Any] = {"tricks": [4, 3, 3, 2], "king-of-spades": 0}
    expected = model.check(entry)
    assert len(expected) >= 3
    items = page.locator("#problems li")
    expect(items).to_have_count(len(expected))
    assert items.all_inner_texts() == expected
    # A good Salad hand ends the game.
    entry = {
        "tricks": [4, 3, 3, 3],
        "hearts": [4, 3, 3, 3],
        "queens": [1, 1, 1, 1],
        "king-of-spades": 1,
        "last-trick": 2,
    }
    fill_counts(page, "Tricks", entry["tricks"])
    fill_counts(page, "Hearts", entry["hearts"])
    fill_counts(page, "Queens", entry["queens"])
    page.get_by_label("King of Spades (KS): Bob").check()
    page.get_by_label("Last Trick: Cy").check()
    page.get_by_role("button", name="Enter the hand").click()
    model.enter(entry)
    final = page.locator("#final")
    expect(final).to_be_visible()
    expect(page.locator("#entry")).to_be_hidden()
    total, checksum = model.game_check()
    expect(page.locator("#checksum")).to_have_text(
        f"Game total {total}, the checksum for 4 players: ok."
    )
    assert checksum == total == 1120
    places = model.standings()
    rows = page.locator("#standings li").all_inner_texts()
    order = sorted(range(4), key=lambda s: (places[s], s))
    for row, s in zip(rows, order, strict=True):
        shared = places.count(places[s]) > 1
        assert row.split() == [
            f"{places[s]}{'=' if shared else ''}",
            NAMES[s],
            str(model.totals[s]),
        ]
    assert page.locator("#standings li.win").count() == len(model.winners())
    # Nothing is wider than the phone's screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
