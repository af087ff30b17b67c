"""The site's Content-Security-Policy at work in Chromium (issue #40, item 6): the pages' own
modules and import map run, an injected inline script does not, and no other site can frame a
page. (Every browser test runs under the policy: a breach fails it, conftest.watch.)"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import DESKTOP

INJECT = """() => {
  const s = document.createElement('script');
  s.textContent = 'window.__injected = true';
  document.head.appendChild(s);
}"""


def test_an_injected_inline_script_is_refused(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        said: list[str] = []
        page.on("console", lambda message: said.append(message.text))
        page.goto(base_url + "/")
        expect(page.locator("#quick-name")).to_be_visible()  # the page's modules ran
        page.evaluate(INJECT)
        assert page.evaluate("window.__injected") is None
        page.wait_for_timeout(200)
        assert any("Content Security Policy" in line for line in said), said
    finally:
        ctx.close()


def test_no_other_page_can_frame_one_of_ours(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = ctx.new_page()
        page.set_content(f'<iframe id="f" src="{base_url}/howto"></iframe>')
        page.wait_for_timeout(1500)
        framed = [f for f in page.frames if f.url.startswith(base_url)]
        # Refused: the frame never holds the page (Chromium shows its error page instead).
        assert not any(f.evaluate("!!document.querySelector('main, h1')") for f in framed)
    finally:
        ctx.close()
