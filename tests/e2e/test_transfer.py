"""What the table page costs to load, as Chromium counts it (its DevTools Network events): the
bytes on the wire and the requests that reach the server, the websocket left out. A first
visit (nothing cached) must take at most 81 KB, compressed (80 KB until the lobby said each
penalty once and the page took 100 bytes of script to read it so); a repeat visit, in a new
tab of the same browser, at most 10 KB in at most 3 requests: the client's files come from the
cache without a question (immutable, versioned URLs) and the page itself is a 304."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from .test_browser import HAND

FIRST_VISIT_BYTES = 81 * 1024
REPEAT_VISIT_BYTES = 10 * 1024
REPEAT_VISIT_REQUESTS = 3


class Transfer:
    """The HTTP requests a page makes from now on, through a DevTools session: each one's
    bytes on the wire (headers and body, compressed) and whether the cache answered it."""

    def __init__(self, page: Any) -> None:
        self.urls: dict[str, str] = {}
        self.cached: set[str] = set()
        self.bytes: dict[str, int] = {}
        self.session = page.context.new_cdp_session(page)
        self.session.on("Network.requestWillBeSent", self.sent)
        self.session.on("Network.requestServedFromCache", self.from_cache)
        self.session.on("Network.responseReceived", self.received)
        self.session.on("Network.loadingFinished", self.finished)
        self.session.send("Network.enable")

    def sent(self, event: dict[str, Any]) -> None:
        if event["request"]["url"].startswith("http"):  # not the data: URL of the icon
            self.urls[event["requestId"]] = event["request"]["url"]

    def from_cache(self, event: dict[str, Any]) -> None:
        self.cached.add(event["requestId"])

    def received(self, event: dict[str, Any]) -> None:
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            self.cached.add(event["requestId"])

    def finished(self, event: dict[str, Any]) -> None:
        self.bytes[event["requestId"]] = int(event["encodedDataLength"])

    def requests(self) -> list[str]:
        """The URLs of the requests that reached the server, each with its bytes."""
        return [
            f"{self.bytes.get(rid, 0):>7} B  {url}"
            for rid, url in self.urls.items()
            if rid not in self.cached
        ]

    def total(self) -> int:
        return sum(self.bytes.get(rid, 0) for rid in self.urls)


def visit(page: Any, url: str) -> Transfer:
    """Load ``url`` in ``page`` until the hand is drawn and the network is quiet."""
    transfer = Transfer(page)
    page.goto(url)
    page.wait_for_selector(HAND)
    page.wait_for_load_state("networkidle")
    return transfer


def test_the_table_page_loads_small_and_comes_back_from_the_cache(
    open_page: Callable[..., Any], base_url: str
) -> None:
    joined = httpx.post(f"{base_url}/api/quickplay", json={"name": "Quinn"}, timeout=30).json()
    first_page = open_page(None)
    first = visit(first_page, base_url + joined["url"])
    table_url = first_page.url  # the token is kept by the page, and gone from its address
    again = visit(open_page(None, context=first_page.context), table_url)
    first_page.close()
    report = [
        f"table page, first visit: {first.total() / 1024:.1f} KB in {len(first.requests())} "
        f"requests (at most {FIRST_VISIT_BYTES // 1024} KB)",
        f"table page, repeat visit: {again.total() / 1024:.1f} KB in {len(again.requests())} "
        f"requests (at most {REPEAT_VISIT_BYTES // 1024} KB in {REPEAT_VISIT_REQUESTS})",
        *again.requests(),
    ]
    print("\n".join(report))
    assert first.total() <= FIRST_VISIT_BYTES, "\n".join(report + first.requests())
    assert again.total() <= REPEAT_VISIT_BYTES, "\n".join(report)
    assert len(again.requests()) <= REPEAT_VISIT_REQUESTS, "\n".join(report)
