"""The toppings in play are in sight at the table at every size (issue 14, item 5): the side
panel on a desktop, a strip under the status line on a phone held upright, and a chip in the
top bar on a phone held sideways, whose tap shows what each topping does. The layout checks of
test_table_layout hold with it at the three viewports; screenshots go to tests/e2e/artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_browser import HAND
from .test_table_layout import BOXES, VIEWPORTS, overlap, problems

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

EDGES = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return {l: r.left, r: r.right, t: r.top, b: r.bottom}; }"""


def test_toppings_in_sight_at_every_size(open_page: Callable[..., Any], base_url: str) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Alexandra",
            "players": 4,
            "rules": "skip-the-salad",
            "toppings": "all",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        },
    ).json()
    tid = made["table_id"]
    httpx.post(
        f"{base_url}/api/tables/{tid}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    texts = httpx.get(f"{base_url}/api/tables/{tid}").json()["topping_text"]
    assert len(texts) >= 2
    names = [t.split(": ")[0] for t in texts]
    page = open_page(None)
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    page.wait_for_selector(HAND)
    chip, strip = page.locator("#toppings-chip"), page.locator("#toppings-strip")
    ARTIFACTS.mkdir(exist_ok=True)
    found_problems = []
    for name, (w, h) in VIEWPORTS.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(400)
        if name == "desktop":
            expect(page.locator("#toppings li")).to_have_count(len(texts))
            expect(chip).to_be_hidden()
        elif name == "phone":
            expect(strip).to_be_visible()
            expect(chip).to_be_hidden()
        else:
            expect(strip).to_be_hidden()
            expect(chip).to_be_visible()
            expect(chip).to_contain_text(names[0])
            assert chip.get_attribute("title") == "\n".join(texts)
            # In the top bar, beside the round's name and the tools, covering neither.
            bar, box = page.evaluate(EDGES, ".topbar"), page.evaluate(EDGES, "#toppings-chip")
            assert bar["t"] <= box["t"] and box["b"] <= bar["b"] and box["r"] <= w
            for other in ("#round-line .round-name", ".topbar .tools"):
                assert not overlap(
                    {**box, "what": "chip"}, {**page.evaluate(EDGES, other), "what": other}
                ), other
            line, round_name = (
                page.evaluate(EDGES, "#round-line"),
                page.evaluate(EDGES, "#round-line .round-name"),
            )
            assert round_name["r"] <= line["r"] + 1, "the round's name is cut"
            # A tap shows what each topping does; Escape closes it.
            chip.click()
            pop = page.locator("#toppings-pop")
            expect(pop).to_be_visible()
            for item, text in zip(pop.locator("li").all(), texts, strict=True):
                expect(item).to_have_text(text)
            page.screenshot(path=str(ARTIFACTS / "table-toppings-landscape-open.png"))
            page.keyboard.press("Escape")
            expect(pop).to_be_hidden()
        for _ in range(3):  # a bot's card may be landing (an animation): look again
            seen = problems(page.evaluate(BOXES))
            if not seen:
                break
            page.wait_for_timeout(350)
        found_problems += [f"{name}: {p}" for p in seen]
        page.screenshot(path=str(ARTIFACTS / f"table-toppings-{name}.png"))
    assert not found_problems, "\n".join(found_problems)
