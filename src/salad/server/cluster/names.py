"""What a cluster node may be called, checked before the server loads (``salad serve`` says a
bad ``--node-name`` in a line at once), and how a redirect to a node names it (the router's
words, which clients read: kept here, where reading them loads nothing of the server)."""

from __future__ import annotations

import re

from salad.errors import SaladError

NODE_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""What a node's name may be: a server name in HAProxy's configuration and a URL's query."""


def check_node_name(name: str | None, redis: str | None) -> None:
    """SaladError (one line) unless ``name`` is a cluster node's name (``redis`` given) or
    both are None."""
    if name is None:
        if redis is not None:
            raise SaladError(
                "serve: --redis needs --node-name NAME, this node's server name in the load "
                "balancer: the other nodes send the requests for its tables there"
            )
        return
    if redis is None:
        raise SaladError("serve: --node-name names a node of a cluster: it needs --redis")
    if not NODE_NAME.fullmatch(name):
        raise SaladError(
            f"serve: --node-name {name!r} is not a server name: use 1 to 64 letters, digits, "
            "'.', '_' or '-'"
        )


REDIRECT = 4307
"""The close code of a websocket sent to the node holding its table: the reason is
``node=NAME``; reconnect at once with ``?node=NAME`` in the URL."""

MOVED_TO = "this table is played on node "  # how a redirect's error begins
MAX_HOPS = 3  # redirects one request may have had; one more gets a 503


def redirect_target(reason: str) -> str | None:
    """The node a :data:`REDIRECT` close's reason names (``node=NAME``), or None.

    >>> redirect_target("node=node2"), redirect_target("bye")
    ('node2', None)
    """
    name = reason.removeprefix("node=")
    return name if name != reason and name else None
