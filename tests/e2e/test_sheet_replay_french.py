"""End-to-end: the score sheet and the replay in French (issue 35).

The pages are written in the language asked (``?lang=fr``): their own words, the ruleset's
round names, the sentences of js/sheet.js and js/replay.js, and the language switch in the
header; in the pseudo-locale (``?lang=en-XA``) every word of the page goes through the catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from playwright.sync_api import expect

from .reviewing import finished_game

NBSP = "\u00a0"
PHONE = {"width": 390, "height": 844}


def start_sheet(page: Any, names: list[str]) -> None:
    expect(page.locator("#setup")).to_be_visible()
    for i, name in enumerate(names):
        page.get_by_label(f"Nom du joueur {i + 1}").fill(name)
    page.get_by_role("button", name="Commencer la feuille").click()


def test_sheet_in_french(open_page: Callable[..., Any]) -> None:
    page = open_page("/sheet?lang=fr", viewport=PHONE)
    expect(page.locator("html")).to_have_attribute("lang", "fr-CA")
    assert page.title() == "Salade — feuille de pointage"
    expect(page.locator(".sp-head select[data-language-switch]")).to_have_value("fr")
    start_sheet(page, ["Ann", "Bob", "Cy", "Di"])
    expect(page.locator("#entry-title")).to_have_text(f"Donne 1 sur 6{NBSP}: Pas de levées")
    expect(page.locator("#leader")).to_have_text("Aucune donne inscrite pour l'instant.")
    expect(page.locator("#sheet-table thead th").first).to_have_text("Donne")
    expect(page.locator("#sheet-table tbody tr").last).to_contain_text("Salade (tout à la fois)")
    expect(page.locator("#btn-enter")).to_have_text("Inscrire la donne")
    # Four players fit a phone's width, the longer French words included.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator(".sheet-more")).to_have_count(0)


def test_sheet_in_the_pseudo_locale_goes_through_the_catalog(open_page: Callable[..., Any]) -> None:
    page = open_page("/sheet?lang=en-XA")
    start_sheet_xa = page.locator("#btn-start")
    expect(start_sheet_xa).to_contain_text("[")
    start_sheet_xa.click()
    expect(page.locator("#entry-title")).to_contain_text("[")
    for selector in ("h1", "#sheet-title", "#chart-title", "#leader", "#btn-undo"):
        text = page.locator(selector).inner_text().strip()
        assert text.startswith("[") and text.endswith("]"), (selector, text)


@pytest.fixture(scope="module")
def fast_url(start_server: Callable[..., AbstractContextManager[str]]) -> Iterator[str]:
    with start_server(bot_delay=0) as url:
        yield url


def test_replay_in_french(open_page: Callable[..., Any], fast_url: str) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
    tid, _token, _record = finished_game(fast_url, seats, name="Ann", seed=5, timeout=120)
    page = open_page(None)
    page.goto(f"{fast_url}/replay/{tid}?game=1&lang=fr")
    expect(page.locator("#round-line")).to_contain_text("Donne 1/6")
    expect(page.locator("#round-line")).to_contain_text("Pas de levées")
    expect(page.locator("#round-line")).to_contain_text("la distribution")
    expect(page.locator(".topbar select[data-language-switch]")).to_have_value("fr")
    expect(page.locator("#r-next")).to_have_text("Levée ▶")
    page.click("#r-next")
    expect(page.locator("#round-line")).to_contain_text("levée 1 sur 13")
    expect(page.locator("#status")).to_contain_text("ramasse la levée")
    page.keyboard.press("End")
    expect(page.locator("#replay-final")).to_contain_text("Résultat final")
    expect(page.locator("#btn-review .label")).to_have_text("Analyse")
