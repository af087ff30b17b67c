"""Seat tokens never reach the server's log: a client may still put its token in the websocket
URL (``?token=...``, the protocol's first version), which uvicorn logs; :class:`TokenMask`
writes it ``***`` in every such line, and the code of a sign-in link (``/signin/CODE``) too."""

from __future__ import annotations

import logging
import re

LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")
"""The loggers that may print a request's path with its query string."""

_TOKEN = re.compile(r"(token=)[^&\s\"'#]+", re.IGNORECASE)
_SIGNIN = re.compile(r"(/signin/)[^\s\"'?#]+")


def mask(text: str) -> str:
    """``text`` with every ``token=VALUE`` written ``token=***``.

    >>> mask('"WebSocket /ws/tables/abc?token=s3cr3t&x=1" [accepted]')
    '"WebSocket /ws/tables/abc?token=***&x=1" [accepted]'
    >>> mask('"GET /signin/K7QM-2XPA HTTP/1.1" 200')
    '"GET /signin/*** HTTP/1.1" 200'
    """
    if "/signin/" in text:
        text = _SIGNIN.sub(r"\1***", text)
    return _TOKEN.sub(r"\1***", text) if "oken=" in text or "OKEN=" in text else text


class TokenMask(logging.Filter):
    """Masks tokens in a record's message and in each of its arguments (uvicorn's access
    formatter reads the arguments one by one, so they stay a tuple of the same length)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = mask(record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(mask(a) if isinstance(a, str) else a for a in args)
        elif isinstance(args, dict):
            record.args = {k: mask(v) if isinstance(v, str) else v for k, v in args.items()}
        return True


_FILTER = TokenMask()


def install() -> None:
    """Put the mask on uvicorn's loggers (once; logging's own configuration keeps a
    logger's filters, so it may run before or after uvicorn configures its logging)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
