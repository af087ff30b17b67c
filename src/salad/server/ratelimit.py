"""Rate limits: a token bucket per client address (or token, or connection) and kind of request.

A bucket holds ``count`` requests and refills them over ``seconds``: a burst of ``count``
passes, then one every ``seconds / count``; a request finding it empty gets ``429`` with
``Retry-After``. The limits are far above what a family game meets. The buckets are
pyrate-limiter's ``TokenBucket``s, in memory and, on a cluster (:meth:`RateLimits.share`), the
:data:`SHARED` kinds in Redis, so a client meets one limit through any number of nodes (counted
here while Redis does not answer).

``SALAD_RATE_LIMITS`` changes them: ``off``, or a comma list such as ``tables=3/10,open=50``
(``KIND=COUNT/SECONDS``, other kinds keep their default; ``open=COUNT``: :data:`DEFAULT_OPEN`).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pyrate_limiter import Rate as BucketRate
from pyrate_limiter import RateItem, TokenBucket
from pyrate_limiter.buckets import RedisStateStore, StateBucket
from pyrate_limiter.clocks import AbstractClock, WallClock
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection

from salad.errors import SaladError
from salad.locale import N_, _

if TYPE_CHECKING:  # redis-py comes with the cluster extra
    from redis.asyncio import Redis

log = logging.getLogger("salad.server")

ENV = "SALAD_RATE_LIMITS"

MAX_KEYS = 10_000
"""Buckets kept per kind before the full (idle) ones are forgotten."""

SHARED = frozenset(
    {"tables", "joins", "host", "sockets", "chat"}
    | {"players", "links", "signins", "groups", "invites"}
)
"""The kinds counted in Redis on a cluster (a seat's chat too: a node taking its table over goes
on with its count); a connection's messages and refusals end with it, on its node."""

LOCAL_AFTER_FAILURE = 5.0
"""Seconds a node counts on its own after Redis did not answer, before it asks again (a Redis
cut off takes its connect timeout to say so, and each request would wait for it)."""

KEY_PREFIX = "salad:rate:"
"""The shared buckets' Redis keys: the prefix, the kind, a digest of the address or token."""


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
    "messages": Rate(120, 10),  # websocket messages of any kind, per connection
    "players": Rate(20, 3600),  # new players (a first visit without a cookie), per address
    "links": Rate(10, 3600),  # sign-in codes made, per player
    "signins": Rate(10, 600),  # sign-in codes tried, per address
    "groups": Rate(10, 3600),  # new groups, per address
    "invites": Rate(30, 3600),  # invite codes tried (a group's link opened, joined), per address
}

OPEN = "open"
DEFAULT_OPEN = 100
"""Websockets one client address may hold open at once on a server (``open=COUNT``): a
household's are a few, a school's a few dozen. Without it an address opening them at the
``sockets`` rate would hold all the server takes (``run.CONNECTION_LIMIT``) within hours."""

WHAT = {
    "tables": "new tables from this address",
    "joins": "joins from this address",
    "host": "host actions with this token",
    "sockets": "websocket connections from this address",
    "chat": "chat messages",
    "refused": "refused messages on this connection",
    "messages": "messages on this connection",
    "players": "new players from this address",
    "links": "sign-in codes made",
    "signins": "sign-in codes tried from this address",
    "groups": "new groups from this address",
    "invites": "invite codes tried from this address",
}
"""What each kind counts, in the words of its refusals ("too many ...")."""

WHAT_RETRY = {
    "tables": N_("too many new tables from this address (at most {rate}): retry in {seconds} s"),
    "joins": N_("too many joins from this address (at most {rate}): retry in {seconds} s"),
    "host": N_("too many host actions with this token (at most {rate}): retry in {seconds} s"),
    "sockets": N_(
        "too many websocket connections from this address (at most {rate}): retry in {seconds} s"
    ),
    "chat": N_("too many chat messages (at most {rate}): retry in {seconds} s"),
    "refused": N_(
        "too many refused messages on this connection (at most {rate}): retry in {seconds} s"
    ),
    "messages": N_("too many messages on this connection (at most {rate}): retry in {seconds} s"),
    "players": N_("too many new players from this address (at most {rate}): retry in {seconds} s"),
    "links": N_("too many sign-in codes made (at most {rate}): retry in {seconds} s"),
    "signins": N_(
        "too many sign-in codes tried from this address (at most {rate}): retry in {seconds} s"
    ),
    "groups": N_("too many new groups from this address (at most {rate}): retry in {seconds} s"),
    "invites": N_(
        "too many invite codes tried from this address (at most {rate}): retry in {seconds} s"
    ),
}
"""A refusal of each rate, said to the client (translated where said)."""

WHAT_CLOSED = {
    "refused": N_("too many refused messages on this connection (at most {rate}): closed"),
    "messages": N_("too many messages on this connection (at most {rate}): closed"),
}
"""A connection closed for its messages' rate, said to its client."""


def parse_limits(text: str | None) -> tuple[dict[str, Rate], int | None]:
    """The rates ``SALAD_RATE_LIMITS`` gives and its cap on the websockets an address holds
    open (``None`` or empty: the defaults; ``off``: none); SaladError (one line) if wrong."""
    if not text or not text.strip():
        return dict(DEFAULT_RATES), DEFAULT_OPEN
    if text.strip().lower() == "off":
        return {}, None
    rates, cap = dict(DEFAULT_RATES), DEFAULT_OPEN
    for part in text.split(","):
        kind, _sep, value = part.strip().partition("=")
        if kind == OPEN and value.isdecimal() and int(value) >= 1:
            cap = int(value)
            continue
        count, _sep, seconds = value.partition("/")
        try:
            rate = Rate(int(count), float(seconds))
        except ValueError:
            rate = Rate(0, 0)
        if kind not in DEFAULT_RATES or rate.count < 1 or not rate.seconds > 0:
            kinds = ", ".join(DEFAULT_RATES)
            raise SaladError(
                f"{ENV}: {part.strip()!r} is not KIND=COUNT/SECONDS (kinds: {kinds}), "
                f"{OPEN}=COUNT or 'off'"
            )
        rates[kind] = rate
    return rates, cap


class Seconds(AbstractClock):
    """A clock in seconds (``time.monotonic``, or a test's) as pyrate-limiter's milliseconds."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock

    def now(self) -> int:
        return int(self.clock() * 1000)


WALL = WallClock()


def bucket_rate(rate: Rate) -> BucketRate:
    return BucketRate(rate.count, max(1, round(rate.seconds * 1000)))


def shared_key(kind: str, key: str) -> str:
    return KEY_PREFIX + kind + ":" + hashlib.sha256(key.encode()).hexdigest()[:32]


@dataclass
class RateLimits:
    """The buckets of every kind and key; :meth:`check` takes one request from a bucket."""

    rates: Mapping[str, Rate] = field(default_factory=lambda: dict(DEFAULT_RATES))
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, dict[str, StateBucket]] = field(default_factory=dict)
    open: int | None = DEFAULT_OPEN
    """Websockets a client address may hold open at once (None: no cap; each node its own)."""
    redis: Redis | None = None
    """The cluster's Redis, once :meth:`share` is called."""
    _local_until: float = 0.0
    """Until when (``clock``) Redis is not asked, having not answered; 0 while it answers."""

    def __post_init__(self) -> None:
        self._clock = Seconds(self.clock)

    @classmethod
    def from_env(cls) -> RateLimits:
        """The limits ``SALAD_RATE_LIMITS`` says; SaladError (one line) if it is wrong."""
        rates, cap = parse_limits(os.environ.get(ENV))
        return cls(rates, open=cap)

    def share(self, redis: Redis) -> None:
        """Count the :data:`SHARED` kinds in ``redis`` (every node of a cluster the same)."""
        self.redis = redis

    def wait(self, kind: str, key: str) -> float:
        """Take one request from ``key``'s bucket of ``kind`` in this process: 0 if it passes,
        else the seconds until one would."""
        rate = self.rates.get(kind)
        if rate is None:
            return 0.0
        buckets = self.buckets.setdefault(kind, {})
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) >= MAX_KEYS:
                self.forget_full(buckets)
            bucket = StateBucket([bucket_rate(rate)], TokenBucket(), clock=self._clock)
            buckets[key] = bucket
        item = RateItem(kind, self._clock.now())
        passed = bucket.put(item)
        assert isinstance(passed, bool)  # an in-memory bucket answers at once
        return 0.0 if passed else self._seconds(bucket.waiting(item))

    async def take(self, kind: str, key: str) -> float:
        """:meth:`wait`, counted in the cluster's Redis for a :data:`SHARED` kind once
        :meth:`share` was called (here if Redis does not answer)."""
        rate = self.rates.get(kind)
        if rate is None or self.redis is None or kind not in SHARED:
            return self.wait(kind, key)
        if self.clock() < self._local_until:  # Redis did not answer lately: not asked again yet
            return self.wait(kind, key)
        store = RedisStateStore(self.redis, shared_key(kind, key))  # expires when full again
        bucket = StateBucket([bucket_rate(rate)], TokenBucket(), store)
        item = RateItem(kind, WALL.now())  # the nodes' common clock
        try:
            passed = await bucket.put(item)  # type: ignore[misc]  # an async client's answer
        except Exception as exc:  # Redis away: count here rather than refuse or wait
            if not self._local_until:  # once, until it answers again
                log.warning("rate limits: Redis did not answer (%s); counting per node", exc)
            self._local_until = self.clock() + LOCAL_AFTER_FAILURE
            return self.wait(kind, key)
        self._local_until = 0.0
        return 0.0 if passed else self._seconds(bucket.waiting(item))

    @staticmethod
    def _seconds(waiting: object) -> float:
        """A bucket's wait (milliseconds, known once it refused) in seconds, at least 1 ms."""
        assert isinstance(waiting, int)
        return max(1, waiting) / 1000

    async def check(self, kind: str, key: str) -> None:
        """Take one request (:meth:`take`), or raise the ``429`` (with ``Retry-After``) of an
        empty bucket."""
        wait = await self.take(kind, key)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            rate = self.rates[kind]
            raise HTTPException(
                429,
                _(WHAT_RETRY[kind]).format(rate=rate, seconds=seconds),
                headers={"Retry-After": str(seconds)},
            )

    async def check_address(self, kind: str, conn: HTTPConnection) -> None:
        """:meth:`check` on the bucket of the request's client address."""
        await self.check(kind, conn.client.host if conn.client else "")

    def forget(self, kind: str, key: str) -> None:
        """Drop ``key``'s bucket of ``kind`` (a connection that closed: its key is not reused)."""
        self.buckets.get(kind, {}).pop(key, None)

    @staticmethod
    def forget_full(buckets: dict[str, StateBucket]) -> None:
        """Drop the buckets that have refilled (their keys start afresh, as they would)."""
        for key in [k for k, b in buckets.items() if b.count() == 0]:
            del buckets[key]
