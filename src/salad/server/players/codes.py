"""Sign-in codes (#34): short enough to type from one screen into another (``K7QM-2XPA``), and
hopeless to guess.

A code is 8 symbols of Crockford's base 32 (digits and capitals without I, L, O, U: 40 bits,
about 1.1 million million codes); typed, its case, spaces and dashes do not matter, and ``O``,
``I``, ``L`` read as ``0``, ``1``, ``1``. Only its SHA-256 is stored. It is used once, within
:data:`LIFETIME` seconds, and a player holds at most :data:`MOST_OPEN` unused ones.
"""

from __future__ import annotations

import hashlib
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
LIFETIME = 15 * 60
"""Seconds a code can be used, from when it is made."""

MOST_OPEN = 5
"""Unused, unexpired codes a player may hold at once."""

READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_code() -> str:
    """A random code, shown in two halves: ``K7QM-2XPA``."""
    symbols = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{symbols[:4]}-{symbols[4:]}"


def normal(typed: str) -> str | None:
    """A typed code as it is hashed (None: it cannot be one).

    >>> normal(" k7qm-2xpa "), normal("K7QM2XPA"), normal("o1il-0000"), normal("K7QM")
    ('K7QM2XPA', 'K7QM2XPA', '01110000', None)
    """
    text = "".join(typed.split()).replace("-", "").upper().translate(READ_AS)
    if len(text) != LENGTH or any(c not in ALPHABET for c in text):
        return None
    return text


def code_hash(code: str) -> str:
    """What the store keeps of a code (given :func:`normal`'s form)."""
    return hashlib.sha256(code.encode()).hexdigest()
