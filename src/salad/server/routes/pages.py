"""The web client's pages and its static files (``/static/``); while the client is not
installed, a placeholder page points at the API's description instead."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "web" / "static"

PAGES = {
    "index": "Canadian Salad",
    "table": "Table",
    "join": "Join a table",
    "watch": "Watch a table",
    "replay": "Replay",
    "sheet": "Score sheet",
    "howto": "How to play",
}
"""Each page's file name (without ``.html``) and the title of its placeholder."""

router = APIRouter()


def page(name: str) -> Response:
    """A page of the web client, or a placeholder while it is not there."""
    path = STATIC_DIR / f"{name}.html"
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    title = PAGES[name]
    return HTMLResponse(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
        f"<body><h1>{title}</h1><p>The web client is not installed; the API is described at "
        "<a href='/docs'>/docs</a>.</p></body></html>"
    )


# A spectator's page is the table page: it tells the two apart by its path.
for _path, _file in (
    ("/", "index"),
    ("/sheet", "sheet"),
    ("/howto", "howto"),  # ?preset=...&players=...
    ("/table/{table_id}", "table"),
    ("/join/{table_id}", "join"),
    ("/watch/{table_id}", "table"),
    ("/replay/{table_id}", "replay"),
    ("/table/{table_id}/howto", "howto"),
):
    router.add_api_route(_path, partial(page, _file), include_in_schema=False)


def mount_static(app: FastAPI) -> None:
    """Serve the client's files under ``/static/`` (last: a mount takes every path under it)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
