"""A griffe extension of the documentation site (mkdocs.yml) that reads the library's docstrings
as they are written (reStructuredText's habits, as python-chess's) for Markdown: the doctests
(``>>>`` lines and their output, up to a blank line) as Python console blocks (Markdown reads
``>>>`` as a quotation and ``['a', 'b']`` as a link), and the roles that name code
(``:class:`~salad.view.View```) as code (``View``)."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def role_as_code(match: re.Match[str]) -> str:
    """A role's target as code: ``~`` keeps only its last part, as Sphinx shows it.

    >>> ROLE.sub(role_as_code, "a :class:`~salad.view.View` and :func:`make_bot`")
    'a `View` and `make_bot`'
    """
    short, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def fence(text: str) -> str:
    """``text`` with each doctest block fenced as ``pycon``.

    >>> fence("Sum:\\n\\n>>> 1 + 1\\n2\\n\\nDone.").splitlines()
    ['Sum:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Every docstring as griffe reads it: its doctests fenced (:func:`fence`), its roles as
    code (:func:`role_as_code`)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(role_as_code, fence(obj.docstring.value))
