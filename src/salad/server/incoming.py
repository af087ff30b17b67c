"""The websocket protocol's incoming half: every message a client sends (``*In``), as pydantic
models, and how the server reads one (:func:`read_client_message`: a refusal is one line);
the outgoing half, and what the two share with the docs, are in :mod:`salad.server.messages`.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from salad.locale import _
from salad.server.errors import ActionError, one_line

MESSAGE_LIMIT = 4096
"""The longest websocket message a client may send, in characters."""
CHAT_LIMIT = 200
"""The longest chat line, in characters."""
Emote = Literal["nice", "haha", "wow", "ouch", "gg", "oops"]
EMOTES: tuple[str, ...] = get_args(Emote)
"""The quick reactions a client may send (each page draws its own picture of them)."""

PaceName = Literal["slow", "normal", "fast"]
"""A table's pace, as the protocol and the REST API spell it (:mod:`salad.server.tables.pace`)."""


def tidy_line(value: str, limit: int) -> str:
    """One line of text a person wrote (a chat line, a name), its spaces tidied, at most
    ``limit`` characters; ValueError saying what is wrong.

    >>> tidy_line("  well   played ", CHAT_LIMIT)
    'well played'
    """
    text = " ".join(value.split())
    if not text:
        raise ValueError("must not be empty")
    if len(text) > limit:
        raise ValueError(f"at most {limit} characters, not {len(text)}")
    if any(not ch.isprintable() for ch in text):
        raise ValueError("must not hold control characters")
    return text


class StrictIn(BaseModel):
    """What a client sends, REST or websocket: unknown keys are ignored (a newer client works
    with an older server); types are strict ("4" is not a number, 1 is not true)."""

    model_config = ConfigDict(extra="ignore", strict=True)


class HelloIn(StrictIn):
    """``{"type": "hello", "token": "..."}``, a connection's first message: the seat's token
    (sent here rather than in the URL, which servers and proxies write to their logs)."""

    type: Literal["hello"]
    token: str = Field(max_length=256)


class PingIn(StrictIn):
    """``{"type": "ping"}``: answered ``{"type": "pong"}``."""

    type: Literal["ping"]


class PlayIn(StrictIn):
    """``{"type": "play", "move": "QS"}``: the seat's move as text (``QS``, ``W+``, ``trump:H``)."""

    type: Literal["play"]
    move: str = Field(description="As in the view's legal; any spelling salad.moves reads")


class NextIn(StrictIn):
    """``{"type": "next"}``: this seat has seen the hand's summary; the next hand starts once
    every connected human seat has sent it (or the turn timer runs out)."""

    type: Literal["next"]


class ChatIn(StrictIn):
    """``{"type": "chat", "text": "nice one"}`` or ``{"type": "chat", "emote": "gg"}``."""

    type: Literal["chat"]
    text: Annotated[str, AfterValidator(partial(tidy_line, limit=CHAT_LIMIT))] | None = Field(
        None, description=f"At most {CHAT_LIMIT} characters once its spaces are tidied"
    )
    emote: Emote | None = None


class ChatSettingsIn(StrictIn):
    """``{"type": "chat_settings", "spectators": true}`` (the host): may spectators write?"""

    type: Literal["chat_settings"]
    spectators: bool


class HintIn(StrictIn):
    """``{"type": "hint"}``: the expert's move for this seat, and why (tables of bots)."""

    type: Literal["hint"]


class UndoIn(StrictIn):
    """``{"type": "undo"}``: take back this seat's last move and the bots' after it."""

    type: Literal["undo"]


Incoming = PlayIn | PingIn | NextIn | ChatIn | ChatSettingsIn | HintIn | UndoIn

ClientMessage = Annotated[Incoming, Field(discriminator="type")]
"""A message after the first: a ``hello`` then is an unknown type."""
AnyClientMessage = Annotated[HelloIn | Incoming, Field(discriminator="type")]
"""Every message a client may send (the first may be a ``hello``)."""
_CLIENT_MESSAGE: TypeAdapter[Incoming] = TypeAdapter(ClientMessage)
MESSAGE_TYPES: tuple[str, ...] = tuple(
    get_args(model.model_fields["type"].annotation)[0] for model in get_args(Incoming)
)
"""The ``type`` of each message after the first: ``play``, ``ping``, ``next``, ..."""


def read_client_message(text: str | None) -> Incoming:
    """A websocket message from a client; ActionError (one line) if it is not one.

    >>> read_client_message('{"type": "play", "move": "QS"}')
    PlayIn(type='play', move='QS')
    >>> read_client_message('{"type": "play", "move": 12}')
    Traceback (most recent call last):
    ...
    salad.server.errors.ActionError: play: "move" must be a card or choice as text, such as "QS"
    """
    data = _load(text)
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        raise ActionError(_message_problem(data, exc)) from None


def read_hello(text: str | None) -> HelloIn | None:
    """A connection's first message as a ``hello`` (its seat's token); None if it is another
    message, ActionError (one line) if it is a bad ``hello`` or no message at all.

    >>> read_hello('{"type": "hello", "token": "abc"}')
    HelloIn(type='hello', token='abc')
    >>> read_hello('{"type": "ping"}') is None
    True
    """
    data = _load(text)
    if not isinstance(data, dict) or data.get("type") != "hello":
        return None
    try:
        return HelloIn.model_validate(data)
    except ValidationError:
        raise ActionError(_('hello: "token" must be the seat\'s token as text')) from None


def _load(text: str | None) -> Any:
    if text is None:
        raise ActionError(_("binary messages are not understood; send JSON text"))
    if len(text) > MESSAGE_LIMIT:
        raise ActionError(_("message too long ({n} characters)").format(n=len(text)))
    try:
        return json.loads(text)
    except RecursionError:
        raise ActionError(_("not JSON that a message can be: nested too deeply")) from None
    except ValueError as exc:
        raise ActionError(_("not JSON: {why}").format(why=exc)) from None


def _message_problem(data: Any, exc: ValidationError) -> str:
    err = exc.errors()[0]
    if err["type"] == "model_attributes_type":
        return _("a message must be a JSON object such as {example}").format(
            example='{"type": "ping"}'
        )
    if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
        known = ", ".join(MESSAGE_TYPES)
        said = _("unknown message type {type} (known: {known})")
        return said.format(type=repr(data.get("type")), known=known)
    if err["loc"][:2] == ("play", "move"):
        return _('play: "move" must be a card or choice as text, such as "QS"')
    if err["loc"][:2] == ("chat", "emote"):
        return _("chat: emote must be one of {known}").format(known=", ".join(EMOTES))
    return one_line([err])
