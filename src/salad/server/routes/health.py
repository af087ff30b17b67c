"""``GET /healthz``, a load balancer's health check: 200 when the database (and, on a cluster
node, Redis) answers within :data:`PING_TIMEOUT`, 503 otherwise (a database found damaged since
the start, too); how many tables and connections this process holds in memory, and how many
tables it could not open (what is stored of them is damaged: the log says why)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from salad.server import schemas as s
from salad.server.store import DamagedDatabase
from salad.server.tables import TableManager

PING_TIMEOUT = 2.0


async def answers(ping: Awaitable[object]) -> str:
    """``ok`` if ``ping`` (of the database, of Redis) returns within :data:`PING_TIMEOUT`, else
    why not in a few words."""
    try:
        await asyncio.wait_for(ping, PING_TIMEOUT)
    except DamagedDatabase as exc:
        return f"damaged: {exc}"
    except TimeoutError:
        return f"no answer in {PING_TIMEOUT:g} s"
    except Exception as exc:  # whatever the driver raises: one line of it
        return f"unreachable: {type(exc).__name__}"
    return "ok"


router = APIRouter()


@router.get(
    "/healthz",
    response_model=s.HealthOut,
    responses={503: {"model": s.HealthOut, "description": "the database does not answer"}},
    tags=["server"],
)
async def healthz(request: Request) -> Any:
    """Whether the database answers, and what this process holds in memory."""
    manager: TableManager = request.app.state.manager
    database = await answers(manager.storage.ping())
    cluster = request.app.state.cluster
    redis = await answers(cluster.link.ping()) if cluster is not None else None
    ok = database == "ok" and redis in (None, "ok")
    tables = manager.tables.values()
    body = {
        "status": "ok" if ok else "unavailable",
        "database": database,
        **({"redis": redis, "node": cluster.node} if cluster is not None else {}),
        "tables_in_memory": len(tables),
        "tables_damaged": len(manager.registry.damaged),
        "connections": sum(len(t.connections()) for t in tables),
    }
    return JSONResponse(body, status_code=200 if ok else 503)
