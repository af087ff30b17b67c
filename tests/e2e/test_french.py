"""End-to-end: the site in French (Canada) and in the pseudo-locale (issue 35).

In the pseudo-locale (``?lang=en-XA``) every string of the catalog is accented, 40 % longer and
in [brackets]: a visible text with two ASCII letters in a row outside brackets bypasses the
catalog, and so does a word inside brackets with a letter the pseudo-locale would have accented
(a value put into a translated sentence, such as a ruleset's description, in plain English).
The players here have pseudo-looking names, so that only the site's own words are ASCII; the
seats' and the bots' names, the table ids, numbers and cards are allowed. Text hidden only from
the eyes (``.visually-hidden``: a screen reader reads it) counts as shown. A button or a label
whose text is wider than its box (the longer words cut) fails as well.

The French screens (table, lobby, review, score sheet at 390x844 and 1280x800) go to
``tests/e2e/artifacts/french-*.png`` (the issue's note shows them).

One module, one browser, one server of its own (bots without delay, quick reviews).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from salad.locale import LANGUAGES, PSEUDO

from .reviewing import finished_game, reviewing_server

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ROOT = Path(__file__).resolve().parents[2]
SUNDAY = ROOT / "examples" / "sheets" / "sunday.json"

HOST = "Ĥöšţé"
"""The host's name: no two ASCII letters in a row (the pseudo-locale's check allows it)."""

SHEET_NAMES = ["Âñ", "Ɓöƀ", "Çý", "Ðî"]
PROFILE_NAME = "Ŕöšàļîé"
GROUP_NAME = "Ļéš Ðîḿàñçĥéš"

ONE_HAND = 'preset = "canadian"\nhands = ["no-hearts"]\n'
SEATS = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
VIEWPORTS = {"390x844": (390, 844), "1280x800": (1280, 800)}
FRENCH_BROWSER = {"accept-language": "fr-CA,fr;q=0.9"}
"""The host's browser: the tables it makes name their bots in French ("Robot aléatoire 2")."""

CHECK = """
([allowed]) => {
  const ACCENTED = /[abcdeghiklnorstuwyzABCDEGHIKLNORSTUWYZ]/;
  const problems = [];
  const shown = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.display === "none" || s.visibility === "hidden") return false;
    }
    return el.getClientRects().length > 0;
  };
  const where = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "");
  const bare = (text) => {
    let rest = " " + text + " ";
    for (const name of allowed) rest = rest.split(name).join(" ");
    rest = rest.replace(/(^|[^A-Za-z])(10|[2-9JQKAT])[♠♥♦♣SHDC](?![A-Za-z])/g, "$1 ");
    let depth = 0;
    let outside = "";
    let inside = "";
    for (const ch of rest) {
      if (ch === "[") {
        depth += 1;
        outside += " ";
        inside += " ";
      } else if (ch === "]") {
        depth = Math.max(0, depth - 1);
        inside += " ";
      } else if (depth === 0) outside += ch;
      else inside += ch;
    }
    // Outside brackets: no word. Inside: no letter the pseudo-locale accents left plain (a
    // value put into a translated sentence without going through the catalog).
    const plain = (inside.match(/[A-Za-z]{2,}/g) || []).filter((w) => ACCENTED.test(w));
    return /[A-Za-z]{2,}/.test(outside) || plain.length > 0;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("script, style, noscript, svg, code, kbd, pre")) continue;
    if (!node.textContent.trim() || !shown(el)) continue;
    if (bare(node.textContent)) {
      problems.push(`text ${where(el)}: ${node.textContent.trim().slice(0, 80)}`);
    }
  }
  for (const el of document.querySelectorAll("input[placeholder], textarea[placeholder]")) {
    // An example of a code to type (a sign-in code, K7QM-2XPA) is not words.
    if (shown(el) && !/[0-9]/.test(el.placeholder) && bare(el.placeholder)) {
      problems.push(`placeholder ${where(el)}: ${el.placeholder.slice(0, 80)}`);
    }
  }
  for (const el of document.querySelectorAll("button, label, .btn")) {
    if (!shown(el) || !el.textContent.trim()) continue;
    const s = getComputedStyle(el);
    if (s.overflowX === "visible" && s.whiteSpace !== "nowrap") continue;
    // Cut with an ellipsis by design (the round line: its whole text opens on a click).
    if (s.textOverflow === "ellipsis") continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      problems.push(`overflow ${where(el)}: ${el.textContent.trim().slice(0, 60)}`);
    }
  }
  return problems;
}
"""
"""The pseudo-locale's check of a page: its problems, one line each."""

OVERFLOW = """
() => [...document.querySelectorAll("button, label, .btn")]
  .filter((el) => el.getClientRects().length && el.textContent.trim())
  .filter((el) => el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + ": "
    + el.textContent.trim().slice(0, 60))
"""
"""The buttons and labels whose text is wider than their box, any overflow setting."""


@pytest.fixture(scope="module")
def base_url(start_server: Callable[..., AbstractContextManager[str]]) -> Iterator[str]:
    """A server of this module's: bots without delay, reviews of two worlds a decision."""
    with reviewing_server(start_server, 2) as url:
        yield url


def made_table(url: str, *, start: bool, rules_toml: str | None = None) -> tuple[str, str]:
    """A table hosted by :data:`HOST` against three bots, started or not: its id and token."""
    body: dict[str, Any] = {"name": HOST, "seats": SEATS}
    if rules_toml is not None:
        body["rules_toml"] = rules_toml
    made = httpx.post(f"{url}/api/tables", json=body, headers=FRENCH_BROWSER, timeout=30).json()
    tid, token = made["table_id"], made["token"]
    if start:
        auth = {"Authorization": f"Bearer {token}"}
        httpx.post(f"{url}/api/tables/{tid}/start", headers=auth, timeout=30).raise_for_status()
    return tid, token


def initials(name: str) -> str:
    """A name as a narrow column shows it: its words' initials, its numbers whole."""
    return "".join(w if w.isdigit() else w[0].upper() for w in name.split())


@pytest.fixture(scope="module")
def world(base_url: str) -> dict[str, Any]:
    """Everything the pages show: a table being played, one in its lobby, a finished game
    (the host's seat played by a bot), a player with a name, a group."""
    playing = made_table(base_url, start=True)
    lobby = made_table(base_url, start=False)
    with httpx.Client(base_url=base_url, timeout=30, headers=FRENCH_BROWSER) as http:
        over, token, _record = finished_game(base_url, SEATS, ONE_HAND, name=HOST, http=http)
        names: set[str] = {HOST, PROFILE_NAME, GROUP_NAME, *SHEET_NAMES}
        for tid in (playing[0], lobby[0], over):
            names |= {s["name"] for s in http.get(f"/api/tables/{tid}").json()["seats"]}
        http.get("/api/me").raise_for_status()
        http.patch("/api/me", json={"name": PROFILE_NAME}).raise_for_status()
        group = http.post("/api/groups", json={"name": GROUP_NAME}).json()["id"]
        cookies = dict(http.cookies)
    sheet = json.loads(SUNDAY.read_text())
    sheet["players"] = SHEET_NAMES
    names |= {initials(n) for n in names if n}  # the score sheet's columns: "RB2"
    allowed = sorted((n for n in names if n), key=len, reverse=True)
    allowed += [lang.name for lang in (*LANGUAGES.values(), PSEUDO)]  # the switch
    allowed += [playing[0], lobby[0], over, group]
    return {
        "playing": playing,
        "lobby": lobby,
        "over": (over, token),
        "group": group,
        "cookies": cookies,
        "sheet": sheet,
        "allowed": allowed,
    }


def opened(
    open_page: Callable[..., Any],
    base_url: str,
    world: dict[str, Any],
    path: str,
    lang: str,
    size: tuple[int, int] = (1280, 800),
    token: tuple[str, str] | None = None,
) -> Any:
    """A page of the site in ``lang`` in a fresh browser as the module's player (its cookie, a
    finished sheet in its storage, a table's token if given). The page asks for its language
    (``?lang=``) and the switch's cookie is set, as if chosen: the server's words (its errors
    on the websocket, a hint) come in it too."""
    page = open_page(None, viewport={"width": size[0], "height": size[1]})
    ctx = page.context
    cookies = {**world["cookies"], "salad_lang": lang}
    ctx.add_cookies([{"name": k, "value": v, "url": base_url} for k, v in cookies.items()])
    sheet = json.dumps(world["sheet"])
    ctx.add_init_script(f"localStorage.setItem('salad.scoresheet', {json.dumps(sheet)})")
    if token is not None:
        ctx.add_init_script(f"localStorage.setItem('salad.token.{token[0]}', '{token[1]}')")
    page.goto(base_url + with_lang(path, lang))
    page.wait_for_load_state("networkidle")
    return page


def review(page: Any) -> None:
    """Open the review of the finished game's seat 0 on its replay page, and wait for it
    (asked for the first time; a stored one opens at once)."""
    page.click("#btn-review")
    expect(page.locator("#review-go, .review-summary").first).to_be_visible()
    if page.locator("#review-go").is_visible():
        page.click("#review-go")
    expect(page.locator(".review-summary")).to_be_visible(timeout=90_000)


PAGES: dict[str, Callable[[dict[str, Any]], tuple[str, tuple[str, str] | None]]] = {
    "home": lambda w: ("/", None),
    "table": lambda w: (f"/table/{w['playing'][0]}#token={w['playing'][1]}", w["playing"]),
    "lobby": lambda w: (f"/table/{w['lobby'][0]}#token={w['lobby'][1]}", w["lobby"]),
    "replay": lambda w: (f"/replay/{w['over'][0]}?game=1", w["over"]),
    "review": lambda w: (f"/replay/{w['over'][0]}?game=1", w["over"]),
    "sheet": lambda w: ("/sheet", None),
    "howto": lambda w: ("/howto", None),
    "profile": lambda w: (f"/p/{PROFILE_NAME}", None),
    "leaderboard": lambda w: ("/leaderboard", None),
    "group": lambda w: (f"/g/{w['group']}", None),
}
"""Each page the pseudo-locale opens: its path and the table token its player holds."""


def with_lang(path: str, lang: str) -> str:
    """``path`` asking for the language ``lang`` (before its #fragment)."""
    path, hashmark, fragment = path.partition("#")
    joined = "&" if "?" in path else "?"
    return f"{path}{joined}lang={lang}{hashmark}{fragment}"


@pytest.mark.parametrize("name", list(PAGES))
def test_every_word_goes_through_the_catalog(
    open_page: Callable[..., Any], base_url: str, world: dict[str, Any], name: str
) -> None:
    """Each page in the pseudo-locale: no word outside [brackets] but names, no text wider
    than its button or label (the longer words of another language)."""
    path, token = PAGES[name](world)
    page = opened(open_page, base_url, world, path, "en-XA", token=token)
    if name == "review":
        review(page)
    assert page.get_attribute("html", "lang") == "en-XA"
    problems = page.evaluate(CHECK, [world["allowed"]])
    assert problems == [], f"{name} in en-XA:\n" + "\n".join(problems)


FRENCH = ("table", "lobby", "review", "sheet")
"""The screens the issue's note shows in French."""


@pytest.mark.parametrize("name", FRENCH)
def test_french_screens(
    open_page: Callable[..., Any], base_url: str, world: dict[str, Any], name: str
) -> None:
    """The table, the lobby, the review and the score sheet in French at a phone's size and a
    laptop's: saved for the issue, nothing wider than its button or label."""
    path, token = PAGES[name](world)
    ARTIFACTS.mkdir(exist_ok=True)
    problems: list[str] = []
    for size, (w, h) in VIEWPORTS.items():
        page = opened(open_page, base_url, world, path, "fr", (w, h), token)
        if name == "review":
            review(page)
        if name == "table":  # the server's words too: a hint's reason, the bots' names
            expect(page.locator("body")).to_contain_text("Robot aléatoire 2")
            page.click("#btn-hint")
            expect(page.locator(".hint-why")).to_be_visible(timeout=60_000)
        assert page.get_attribute("html", "lang") == "fr-CA"
        shot = ARTIFACTS / f"french-{name}-{size}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 5_000
        problems += [f"{size} {p}" for p in page.evaluate(OVERFLOW)]
    assert problems == [], f"{name} in French:\n" + "\n".join(problems)
