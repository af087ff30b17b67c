"""The translation system (salad.locale): the catalogs complete and in step with the sources,
the browser's catalog and Python's from the same files, the pseudo-locale, and the pages
written in the language asked for (``?lang=``, the switch's cookie, ``Accept-Language``)."""

from __future__ import annotations

import json
import re
import warnings
from typing import Any

import pytest
from fastapi import FastAPI

from salad.locale import LANGUAGES, PSEUDO, browser_catalog, translations
from salad.locale.catalogs import TEMPLATE, catalog, is_web, pseudo, read
from salad.locale.tool import problems
from salad.server.routes.pages import PAGES, STATIC_DIR, mount_static, router

with warnings.catch_warnings():  # starlette's note on which httpx it would like
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PAGE_PATHS = (
    "/",
    "/sheet",
    "/howto",
    "/table/abc",
    "/join/abc",
    "/replay/abc",
    "/g/abc",
    "/g/abc/join",
    "/p/abc",
    "/leaderboard",
)


@pytest.fixture(scope="module")
def client() -> Any:
    app = FastAPI()
    app.include_router(router)
    mount_static(app)
    with TestClient(app) as c:
        yield c


def test_every_string_is_translated_into_every_language() -> None:
    """The template is what the sources mark now, and no language lacks a string of it or has
    one fuzzy or empty (``make i18n``, then translate)."""
    found = problems()
    assert not found, f"{len(found)} problems:\n" + "\n".join(found[:60])


def test_the_browser_and_python_read_one_catalog() -> None:
    """Every web string of a language's catalog file is what the browser is served and what
    Python's gettext answers: one source, no second file to drift."""
    for code, lang in LANGUAGES.items():
        if code == "en":
            continue
        served = browser_catalog(code)
        assert served["lang"] == lang.tag
        gettext = translations(code)
        checked = 0
        for message in catalog(code):
            if not message.id or message.fuzzy or not message.string:
                continue
            if message.context is not None:  # pgettext's: Python's only (the browser's have none)
                assert gettext.pgettext(message.context, str(message.id)) == message.string
            elif isinstance(message.id, tuple):
                assert gettext.ngettext(message.id[0], message.id[1], 1) == message.string[0]
                if is_web(message):
                    assert served["messages"][message.id[0]]["one"] == message.string[0]
            else:
                assert gettext.gettext(message.id) == message.string
                if is_web(message):
                    assert served["messages"][message.id] == message.string
            checked += 1
        assert checked > 0, f"{code}: an empty catalog"


def test_the_pseudo_locale_covers_the_template_and_keeps_placeholders() -> None:
    template = read(TEMPLATE)
    served = browser_catalog(PSEUDO.code)["messages"]
    web = [m for m in template if m.id and is_web(m)]
    assert web, "no web strings in the template"
    for message in web:
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        assert key in served
    assert pseudo("{n} of {total} <b>tricks</b>") == "[{n} öf {total} <b>ţŕîçķš</b> ············]"


@pytest.mark.parametrize("path", PAGE_PATHS)
def test_a_page_is_written_in_the_language_asked_for(client: Any, path: str) -> None:
    english = client.get(path)
    assert english.status_code == 200
    assert '<html lang="en" data-language="en">' in english.text
    assert "/i18n/" not in english.text  # English is the words as written: no catalog
    french = client.get(path, headers={"accept-language": "en;q=0.5, fr-CA"})
    assert '<html lang="fr-CA" data-language="fr">' in french.text
    assert french.headers["content-language"] == "fr-CA"
    assert "accept-language" in french.headers["vary"].lower()
    assert french.headers["etag"] != english.headers["etag"]
    assert 'lang="en-XA"' in client.get(path + "?lang=en-XA").text
    client.cookies.set("salad_lang", "fr")
    try:
        assert 'lang="fr-CA"' in client.get(path).text
        # The query wins over the cookie, the cookie over the browser.
        asked = client.get(path + "?lang=en", headers={"accept-language": "fr"})
        assert 'lang="en"' in asked.text
    finally:
        client.cookies.clear()
    # Unknown ones are ignored.
    assert 'lang="en"' in client.get(path + "?lang=xx", headers={"accept-language": "de"}).text


@pytest.mark.parametrize(
    "page", sorted(page for page in PAGES if (STATIC_DIR / f"{page}.html").exists())
)
def test_every_page_has_the_language_switch(client: Any, page: str) -> None:
    """Every page offers every language (``parts/language.html``), the current one chosen."""
    assets = client.app.state.assets
    html = assets.written(page, LANGUAGES["fr"])[0].decode()
    assert "data-language-switch" in html, f"{page}.html has no language switch"
    for code in LANGUAGES:
        assert f'value="{code}"' in html
    assert re.search(r'value="fr"[^>]*selected', html)


def test_a_language_catalog_is_served_versioned(client: Any) -> None:
    page = client.get("/", headers={"accept-language": "fr"}).text
    url = re.search(r'src="(/i18n/fr/index\.js\?v=[0-9a-f]+)"', page)
    assert url is not None
    answer = client.get(url[1])
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.text.startswith("globalThis.SALAD_CATALOG = ")
    assert '"lang": "fr-CA"' in answer.text
    stale = client.get("/i18n/fr/index.js?v=0")
    assert stale.headers["cache-control"] == "no-cache"
    missing = client.get("/i18n/de/index.js")
    assert missing.status_code == 404
    assert "'de'" in missing.json()["detail"]


def test_a_page_is_sent_the_words_of_its_own_modules(client: Any) -> None:
    """A page's catalog holds the words of the modules it loads (and the rulesets'), not the
    whole client's: the table's has the chat's, the home page's does not."""
    assets = client.app.state.assets
    for page in ("index", "table"):
        client.get(f"/{'' if page == 'index' else 'table/abc'}?lang=fr")
    whole = browser_catalog("fr")["messages"]
    table = assets.catalogs["table", "fr"][0].decode()
    home = assets.catalogs["index", "fr"][0].decode()
    table_page = assets.written("table", LANGUAGES["fr"])[0].decode()
    assert "web/static/js/table/chat.js" in assets.modules(table_page)
    chat = next(m for m in read(TEMPLATE) if any("table/chat.js" in p for p, _ in m.locations))
    assert json.dumps(whole[chat.id], ensure_ascii=False) in table
    assert json.dumps(whole[chat.id], ensure_ascii=False) not in home
    assert json.dumps(whole["No Hearts"], ensure_ascii=False) in home  # a ruleset's word
    assert len(table) < len(json.dumps(whole, ensure_ascii=False))
