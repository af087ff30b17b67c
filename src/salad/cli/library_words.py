"""Click's and Typer's own words in the command's language: the parser's errors ("No such
option"), the help's ``[default: ...]`` and ``[required]``.

Those libraries translate through the standard library's gettext in its global domain, which
reads a compiled catalog (a ``.mo`` file) from disk in the language the environment's
``LANGUAGE`` names. Their words are in each language's catalog with ours (``make i18n`` reads
them from the installed packages, :data:`salad.locale.tool.LIBRARIES`). :func:`library_words`
compiles the catalog once into the user's cache directory (in a folder named by its contents:
a changed catalog is compiled anew), and for the run points the domain and ``LANGUAGE`` at it,
then puts both back. Where the cache cannot be written, they stay in English.
"""

from __future__ import annotations

import gettext
import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from platformdirs import user_cache_path

from salad.formats.writing import write_whole
from salad.locale import SOURCE, language
from salad.locale.catalogs import compiled

__all__ = ["DOMAIN", "kept", "library_words", "speak"]

DOMAIN = "salad"
"""The gettext domain the libraries read while the command runs (``salad.mo``)."""


def kept(code: str) -> Path | None:
    """The folder that holds ``CODE/LC_MESSAGES/salad.mo``, the catalog of the language
    ``code`` as :func:`salad.locale.catalogs.compiled` makes it for our own words (written the
    first time); ``None`` where it cannot be written."""
    data = compiled(code)
    root = user_cache_path("salad", appauthor=False) / "locale"
    root /= hashlib.sha256(data).hexdigest()[:16]
    mo = root / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not mo.exists():
        try:
            mo.parent.mkdir(parents=True, exist_ok=True)
            write_whole(mo, data)
        except OSError:
            return None
    return root


_inside: ContextVar[bool] = ContextVar("salad_library_words", default=False)


def speak(code: str) -> None:
    """Have Click and Typer speak the language ``code`` from now on, inside
    :func:`library_words` (which puts things back); outside it (Typer's ``CliRunner`` runs the
    app without :func:`salad.cli.errors.run_app`), nothing: the process's state stays."""
    if not _inside.get():
        return
    if language(code) == SOURCE:
        gettext.textdomain("messages")  # the standard library's own: none, English
        return
    root = kept(code)
    if root is None:
        return
    gettext.bindtextdomain(DOMAIN, str(root))
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = code


@contextmanager
def library_words(code: str) -> Iterator[None]:
    """Click and Typer in the language ``code`` inside the block (:func:`speak` may change it
    there); the global gettext domain and ``LANGUAGE`` as they were after it."""
    domain, environ = gettext.textdomain(), os.environ.get("LANGUAGE")
    token = _inside.set(True)
    try:
        speak(code)
        yield
    finally:
        _inside.reset(token)
        gettext.textdomain(domain)
        if environ is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = environ
