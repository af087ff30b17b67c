"""The web client's pages and its static files (``/static/``).

Each page is a file of the browser client; while the client is not installed, a placeholder
page points at the API's description instead.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = ["PAGES", "STATIC_DIR", "mount_static", "page", "router"]

STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "web" / "static"
"""The browser client's files (served under ``/static/``)."""

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


@router.get("/", include_in_schema=False)
async def index_page() -> Response:
    return page("index")


@router.get("/sheet", include_in_schema=False)
async def sheet_page() -> Response:
    """The score sheet (its endpoints: :mod:`salad.server.routes.sheets`)."""
    return page("sheet")


@router.get("/howto", include_in_schema=False)
async def howto_page() -> Response:
    """How to play a preset (``?preset=...&players=...``)."""
    return page("howto")


def _page_of(file: str) -> Callable[[str], Response]:
    def table_page(table_id: str) -> Response:
        return page(file)

    return table_page


# A spectator's page is the table page: it tells the two apart by its path.
for _path, _file in (
    ("table", "table"),
    ("join", "join"),
    ("watch", "table"),
    ("replay", "replay"),
):
    router.add_api_route(f"/{_path}/{{table_id}}", _page_of(_file), include_in_schema=False)
router.add_api_route("/table/{table_id}/howto", _page_of("howto"), include_in_schema=False)


def mount_static(app: FastAPI) -> None:
    """Serve the client's files under ``/static/`` (last: a mount takes every path under it)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
