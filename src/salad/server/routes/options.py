"""What the lobby offers: presets, toppings, swap-in rounds and bots (``GET /api/options``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from salad.server import schemas as s
from salad.server.info import options

router = APIRouter()


@router.get("/api/options", response_model=s.OptionsOut, tags=["lobby"])
async def get_options() -> dict[str, Any]:
    """Presets, toppings, swap-in rounds and bots to offer."""
    return options()
