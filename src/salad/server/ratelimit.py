"""Rate limits: an in-process token bucket per client address (or per token) and kind of request.

A bucket holds up to ``count`` requests and refills ``count`` of them every ``seconds``, so a
burst of ``count`` passes at once and then one every ``seconds / count``. A request with an
empty bucket is refused with ``429`` and ``Retry-After`` (seconds until the next one passes).
The limits are far above what a family game meets; each server process keeps its own.

``SALAD_RATE_LIMITS`` (read by ``create_app``) changes them: ``off``, or a comma list such as
``tables=3/10,joins=5/10`` (``KIND=COUNT/SECONDS``; kinds not named keep their default).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from starlette.exceptions import HTTPException

from salad.errors import SaladError

__all__ = [
    "DEFAULT_RATES",
    "ENV",
    "Rate",
    "RateLimits",
    "parse_rates",
]

ENV = "SALAD_RATE_LIMITS"
"""The environment variable ``create_app`` reads the limits from (see the module docstring)."""

MAX_KEYS = 10_000
"""Buckets kept per kind before the full (idle) ones are forgotten."""


@dataclass(frozen=True)
class Rate:
    """``count`` requests at once, refilled over ``seconds``."""

    count: int
    seconds: float

    def __str__(self) -> str:
        return f"{self.count} per {self.seconds:g} s"


DEFAULT_RATES: dict[str, Rate] = {
    "tables": Rate(10, 60),  # POST /api/tables and /api/quickplay, per address
    "joins": Rate(30, 60),  # POST /api/tables/{id}/join, per address
    "host": Rate(120, 60),  # seat changes, start, rematch, per host token
    "sockets": Rate(60, 60),  # websocket connections, per address
    "chat": Rate(20, 30),  # chat lines and reactions, per seat (or spectator connection)
    "refused": Rate(30, 10),  # websocket messages answered by an error, per connection
}
"""The limits of each kind of request (module-level so that tests and docs can name them)."""

WHAT = {
    "tables": "new tables from this address",
    "joins": "joins from this address",
    "host": "host actions with this token",
    "sockets": "websocket connections from this address",
    "chat": "chat messages",
    "refused": "refused messages on this connection",
}


def parse_rates(text: str | None) -> dict[str, Rate]:
    """The limits ``SALAD_RATE_LIMITS`` gives (``None`` or empty: the defaults; ``off``: none).

    A wrong value raises :class:`~salad.errors.SaladError` with one line that names it.
    """
    if not text or not text.strip():
        return dict(DEFAULT_RATES)
    if text.strip().lower() == "off":
        return {}
    rates = dict(DEFAULT_RATES)
    for part in text.split(","):
        kind, _, value = part.strip().partition("=")
        count, _, seconds = value.partition("/")
        try:
            rate = Rate(int(count), float(seconds))
        except ValueError:
            rate = Rate(0, 0)
        if kind not in DEFAULT_RATES or rate.count < 1 or not rate.seconds > 0:
            kinds = ", ".join(DEFAULT_RATES)
            raise SaladError(
                f"{ENV}: {part.strip()!r} is not KIND=COUNT/SECONDS (kinds: {kinds}) or 'off'"
            )
        rates[kind] = rate
    return rates


@dataclass
class Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimits:
    """The buckets of every kind and key; :meth:`check` takes one request from a bucket."""

    rates: Mapping[str, Rate] = field(default_factory=lambda: dict(DEFAULT_RATES))
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, dict[str, Bucket]] = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> RateLimits:
        return cls(parse_rates(os.environ.get(ENV)))

    def wait(self, kind: str, key: str) -> float:
        """Take one request from ``key``'s bucket of ``kind``: 0 if it passes, else the seconds
        until one would."""
        rate = self.rates.get(kind)
        if rate is None:
            return 0.0
        now = self.clock()
        per_second = rate.count / rate.seconds
        buckets = self.buckets.setdefault(kind, {})
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) >= MAX_KEYS:
                self.forget_full(buckets, rate, now)
            bucket = buckets[key] = Bucket(float(rate.count), now)
        bucket.tokens = min(rate.count, bucket.tokens + (now - bucket.stamp) * per_second)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / per_second

    def check(self, kind: str, key: str) -> None:
        """Take one request, or raise the ``429`` (with ``Retry-After``) of a full bucket."""
        wait = self.wait(kind, key)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            rate = self.rates[kind]
            raise HTTPException(
                429,
                f"too many {WHAT[kind]} (at most {rate}): retry in {seconds} s",
                headers={"Retry-After": str(seconds)},
            )

    def forget(self, kind: str, key: str) -> None:
        """Drop ``key``'s bucket of ``kind`` (a connection that closed: its key is not reused)."""
        self.buckets.get(kind, {}).pop(key, None)

    @staticmethod
    def forget_full(buckets: dict[str, Bucket], rate: Rate, now: float) -> None:
        """Drop the buckets that have refilled (their keys start afresh, as they would)."""
        per_second = rate.count / rate.seconds
        for key in [
            k for k, b in buckets.items() if b.tokens + (now - b.stamp) * per_second >= rate.count
        ]:
            del buckets[key]
