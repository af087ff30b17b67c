"""``salad score --load FILE --group URL-or-file``: attach a finished score sheet to a group of
the site (docs/groups.md), from the terminal.

``URL-or-file`` is the group's invite link, as its page shows it
(``https://salad.example/g/ID/join?code=CODE``), or a text file holding that link on its first
line (kept beside the family's sheets, so that nobody types it twice). The invite code is what
lets the terminal, which has no player of the site, attach a sheet; each of the sheet's names
counts for the group's member of that name (whatever its case), any other name for a guest.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import parse_qs, quote, urlsplit
from urllib.request import Request, urlopen

from salad.errors import SaladError
from salad.locale import _
from salad.sheet import ScoreSheet

TIMEOUT = 30.0
"""Seconds the site has to answer."""


def invite_link(group: str) -> tuple[str, str, str]:
    """The site, the group id and the invite code of ``group`` (a link, or a file holding one).

    >>> invite_link("https://salad.example/g/AbC/join?code=xyz")
    ('https://salad.example', 'AbC', 'xyz')
    """
    text = group.strip()
    if not text.startswith(("http://", "https://")):
        path = Path(text).expanduser()
        if not path.is_file():
            raise SaladError(
                _(
                    "--group: {group!r} is neither a group's invite link (http...) nor a file"
                ).format(group=group)
            )
        lines = path.read_text(encoding="utf-8").strip().splitlines()
        text = lines[0].strip() if lines else ""
    url = urlsplit(text)
    parts = url.path.strip("/").split("/")
    code = parse_qs(url.query).get("code", [""])[0]
    if url.scheme not in ("http", "https") or len(parts) != 3 or parts[0] != "g" or not code:
        raise SaladError(
            _(
                "--group: {text!r} is not a group's invite link (https://SITE/g/ID/join?code=...)"
            ).format(text=text)
        )
    return f"{url.scheme}://{url.netloc}", parts[1], code


def attach(group: str, sheet: ScoreSheet) -> str:
    """Attach ``sheet`` to the group of ``group``; a line saying who counted as whom."""
    site, group_id, code = invite_link(group)
    body = json.dumps({"sheet": sheet.to_dict(), "code": code}).encode()
    request = Request(
        f"{site}/api/groups/{quote(group_id, safe='')}/sheets",
        data=body,
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urlopen(request, timeout=TIMEOUT) as answer:
            attached = json.load(answer)
    except HTTPError as exc:
        raise SaladError(f"{site}: {refusal(exc)}") from None
    except (URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SaladError(
            _("cannot reach {site}: {reason}").format(site=site, reason=reason)
        ) from None
    seats = [
        (_("{name} (a member)") if s["player"] else _("{name} (a guest)")).format(name=s["name"])
        for s in attached["seats"]
    ]
    return _("Attached to the group, played on {date}: {seats}.").format(
        date=attached["played_on"], seats=", ".join(seats)
    )


def refusal(exc: HTTPError) -> str:
    """The site's one-line error, or the status."""
    try:
        error = json.loads(exc.read().decode("utf-8", "replace")).get("error")
    except (ValueError, AttributeError, OSError):
        error = None
    return str(error) if error else f"{exc.code} {exc.reason}"
