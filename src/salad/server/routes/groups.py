"""Groups (``/api/groups``, docs/groups.md): a family or a club, made by a player, joined with
its invite link, its tables (joinable by its members alone), the score sheets of its real-card
games; its standings for a season (JSON and CSV) are :mod:`salad.server.routes.standings`.

Every change a player's cookie authenticates is refused from another site (:func:`same_origin`).
A group is seen by its members only; the invite landing shows its name to whoever has the code.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from pydantic import AfterValidator, BaseModel, Field

from salad.errors import SaladError
from salad.locale import _
from salad.server import schemas as s
from salad.server.errors import ActionError
from salad.server.incoming import StrictIn, tidy_line
from salad.server.players.groups import GroupsPart, leave_group
from salad.server.players.identity import Identities
from salad.server.players.standings import (
    parse_day,
)
from salad.server.routes.me import Me, same_origin
from salad.server.routes.sheets import MAX_TEXT, read_sheet
from salad.server.store.groups import GroupRow, GroupStore, MemberRow, SheetRow, SqlGroups
from salad.server.store.players import name_key
from salad.server.store.sql import SqlStore
from salad.server.tables import TableManager
from salad.server.tables.table import Table
from salad.sheet import ScoreSheet

NAME_LIMIT = 40
"""Characters a group's name may take."""

MEMBERS_MAX = 50
"""Members a group may have (a family, a club's regulars)."""

GROUPS_MAX = 20
"""Groups a player may be a member of (those they made included)."""

SHEETS_MAX = 2000
"""Score sheets a group may hold (a game a day for five years)."""

CODE_BYTES = 16
"""Random bytes of an invite code (22 characters): not to be guessed."""

GroupName = Annotated[
    str,
    AfterValidator(partial(tidy_line, limit=NAME_LIMIT)),
    Field(description=f"The group's name (at most {NAME_LIMIT} characters)"),
]


class GroupIn(StrictIn):
    name: GroupName


class CodeIn(StrictIn):
    code: str = Field(max_length=64, description="The invite code (from the invite link)")


class AttachIn(StrictIn):
    sheet: Any = Field(description="A finished score sheet (salad-score/1, docs/score-sheet.md)")
    members: dict[str, str | None] | None = Field(
        None,
        description="Each of the sheet's names: the id of the member it is, or null for a "
        "guest (default: a name is the member of that name, whatever its case, else a guest)",
    )
    played_on: str | None = Field(None, description="The day it was played, YYYY-MM-DD (today)")
    code: str | None = Field(
        None,
        max_length=64,
        description="The invite code, for a client with no player cookie (salad score --group)",
    )


class MemberOut(BaseModel):
    player: str
    name: str | None
    joined_at: float
    owner: bool


class GroupOut(BaseModel):
    id: str
    name: str
    url: str = Field(description="The group's page")
    owner: str | None = Field(description="The owner's player id")
    you_own: bool
    members: list[MemberOut]
    invite_url: str | None = Field(description="The invite link (its owner alone sees it)")


class GroupBrief(BaseModel):
    id: str
    name: str
    url: str
    you_own: bool


class InviteOut(BaseModel):
    id: str
    name: str
    members: int
    member: bool = Field(description="Whether you are a member already")


class AttachedOut(BaseModel):
    id: str
    seats: list[dict[str, Any]] = Field(description="Each name of the sheet and its member")
    played_on: str


RESPONSES = s.refusals(
    (400, "Bad input, or a limit reached"),
    (401, "No player: the request has no valid cookie"),
    (403, "Not a member, not the owner, or a request from another site"),
    (404, "No such group, or a wrong invite code"),
    (429, "Too many requests from this address: retry after Retry-After seconds"),
    ("4XX", "Another refusal (a body too large)"),
)

router = APIRouter(tags=["groups"], responses=RESPONSES)
changes = [Depends(same_origin)]


def group_store(request: Request) -> GroupStore:
    found: GroupStore = request.app.state.groups
    return found


Groups = Annotated[GroupStore, Depends(group_store)]


def install(app: FastAPI, storage: SqlStore) -> None:
    """The groups' store, routes and part of a player's export and deletion, on ``app``."""
    app.state.groups = store = SqlGroups(storage)
    identities: Identities = app.state.identities
    identities.parts.append(GroupsPart(store))
    manager: TableManager = app.state.manager
    manager.registry.loaded.append(partial(name_group, store))
    app.include_router(router)


async def name_group(store: GroupStore, table: Table) -> None:
    """Give a group's table its group's name (None: no such group), which its lobby says, as
    the table enters memory."""
    if table.group is not None:
        group = await store.group(table.group)
        table.group_name = None if group is None else group.name


def is_member(members: list[MemberRow], player_id: str | None) -> bool:
    return player_id is not None and any(m.player_id == player_id for m in members)


async def check_member(
    request: Request, group_id: str | None, player_id: str | None, making: bool = False
) -> None:
    """Refuse (403) a player who is not a member of ``group_id`` (None: anyone's table);
    ``making``: a table being made for the group, else one being joined."""
    if group_id is None:
        return
    store = group_store(request)
    group = await store.group(group_id)
    if group is None:
        raise ActionError(_("group {group}: no such group").format(group=repr(group_id)), 403)
    if not is_member(await store.members(group_id), player_id):
        if making:
            said = _("group: you are not a member of the group {name}")
            raise ActionError(said.format(name=repr(group.name)), 403)
        raise ActionError(
            _(
                "this table is for the members of the group {name}: "
                "join the group with its invite link first"
            ).format(name=repr(group.name)),
            403,
        )


async def member_group(
    store: GroupStore, group_id: str, me: str
) -> tuple[GroupRow, list[MemberRow]]:
    """The group and its members, if ``me`` is one of them (else 404 or 403)."""
    group = await store.group(group_id)
    if group is None:
        raise ActionError(_("no group {group}").format(group=repr(group_id)), 404)
    members = await store.members(group_id)
    if not is_member(members, me):
        raise ActionError(_("only the group's members see it: join with its invite link"), 403)
    return group, members


def group_out(group: GroupRow, members: list[MemberRow], me: str) -> dict[str, Any]:
    mine = group.owner_id == me
    return {
        "id": group.id,
        "name": group.name,
        "url": f"/g/{group.id}",
        "owner": group.owner_id,
        "you_own": mine,
        "members": [
            {
                "player": m.player_id,
                "name": m.name,
                "joined_at": m.joined_at,
                "owner": m.player_id == group.owner_id,
            }
            for m in members
        ],
        "invite_url": f"/g/{group.id}/join?code={group.code}" if mine else None,
    }


async def check_room(store: GroupStore, player_id: str) -> None:
    if len(await store.groups_of(player_id)) >= GROUPS_MAX:
        raise ActionError(
            _("you are in {n} groups already, the most a player may be in").format(n=GROUPS_MAX)
        )


@router.post("/api/groups", response_model=GroupOut, dependencies=changes)
async def create_group(request: Request, body: GroupIn, me: Me, store: Groups) -> dict[str, Any]:
    """A new group, you its owner and first member."""
    await request.app.state.rates.check_address("groups", request)
    await check_room(store, me.id)
    row = GroupRow(
        id=secrets.token_urlsafe(6),
        name=body.name,
        owner_id=me.id,
        code=secrets.token_urlsafe(CODE_BYTES),
    )
    await store.create_group(row)
    return group_out(row, await store.members(row.id), me.id)


@router.get("/api/groups", response_model=list[GroupBrief])
async def my_groups(me: Me, store: Groups) -> list[dict[str, Any]]:
    """The groups you are a member of."""
    return [
        {"id": g.id, "name": g.name, "url": f"/g/{g.id}", "you_own": g.owner_id == me.id}
        for g in await store.groups_of(me.id)
    ]


@router.get("/api/groups/{group_id}", response_model=GroupOut)
async def get_group(group_id: str, me: Me, store: Groups) -> dict[str, Any]:
    """A group you are a member of: its members, and its invite link if you own it."""
    group, members = await member_group(store, group_id, me.id)
    return group_out(group, members, me.id)


async def invited(request: Request, store: GroupStore, group_id: str, code: str) -> GroupRow:
    """The group whose invite code ``code`` is (each try counted per address: not guessed)."""
    await request.app.state.rates.check_address("invites", request)
    group = await store.group(group_id)
    if group is None or not secrets.compare_digest(group.code.encode(), code.encode()):
        raise ActionError(
            _("this invite link is wrong or was replaced: ask the group's owner for a new one"),
            404,
        )
    return group


@router.get("/api/groups/{group_id}/invite", response_model=InviteOut)
async def get_invite(
    request: Request, group_id: str, code: Annotated[str, Query(max_length=64)], store: Groups
) -> dict[str, Any]:
    """What an invite link leads to: the group's name (for whoever has its code)."""
    group = await invited(request, store, group_id, code)
    members = await store.members(group_id)
    me = request.app.state.identities.player_id(request)
    return {
        "id": group.id,
        "name": group.name,
        "members": len(members),
        "member": is_member(members, me),
    }


@router.post("/api/groups/{group_id}/join", response_model=GroupOut, dependencies=changes)
async def join_group(
    request: Request, group_id: str, body: CodeIn, me: Me, store: Groups
) -> dict[str, Any]:
    """Join a group with its invite code."""
    group = await invited(request, store, group_id, body.code)
    members = await store.members(group_id)
    if not is_member(members, me.id):
        if len(members) >= MEMBERS_MAX:
            raise ActionError(
                _("the group has {n} members, the most it may have").format(n=MEMBERS_MAX)
            )
        await check_room(store, me.id)
        await store.add_member(group_id, me.id)
        members = await store.members(group_id)
    return group_out(group, members, me.id)


@router.post("/api/groups/{group_id}/code", response_model=GroupOut, dependencies=changes)
async def new_code(group_id: str, me: Me, store: Groups) -> dict[str, Any]:
    """A new invite link (owner only): the old one no longer works."""
    group, members = await member_group(store, group_id, me.id)
    if group.owner_id != me.id:
        raise ActionError(_("only the group's owner makes a new invite link"), 403)
    group.code = secrets.token_urlsafe(CODE_BYTES)
    await store.set_group(group_id, code=group.code, owner_id=group.owner_id)
    return group_out(group, members, me.id)


@router.delete(
    "/api/groups/{group_id}/members/{player_id}", response_model=GroupOut, dependencies=changes
)
async def remove_member(group_id: str, player_id: str, me: Me, store: Groups) -> dict[str, Any]:
    """Leave the group (your own id), or remove a member (owner only). An owner who leaves
    passes the group to its oldest member; the last to leave deletes it."""
    group, members = await member_group(store, group_id, me.id)
    if player_id != me.id and group.owner_id != me.id:
        raise ActionError(_("only the group's owner removes members (a member may leave)"), 403)
    if not is_member(members, player_id):
        raise ActionError(
            _("{player} is not a member of the group").format(player=repr(player_id)), 404
        )
    await leave_group(store, group, player_id)
    left = await store.members(group_id)
    return group_out(group, left, me.id)


@router.post("/api/groups/{group_id}/sheets", response_model=AttachedOut, dependencies=changes)
async def attach_sheet(
    request: Request, group_id: str, body: AttachIn, store: Groups
) -> dict[str, Any]:
    """Attach a finished score sheet (a game played with real cards) to the group: each of its
    names is a member or a guest. A member's cookie, or the group's invite code, may."""
    identities: Identities = request.app.state.identities
    me = await identities.current(request)
    if body.code is not None:
        group = await invited(request, store, group_id, body.code)
        members = await store.members(group_id)
    elif me is None:
        raise ActionError(_("no player: open the site once, or send the invite code"), 401)
    else:
        group, members = await member_group(store, group_id, me.id)
    sheet = read_sheet(body.sheet)
    if len(sheet.to_json()) > MAX_TEXT:
        raise ActionError(_("sheet: at most {n} characters as saved").format(n=MAX_TEXT))
    if not sheet.is_over():
        raise ActionError(
            _("sheet: only a finished sheet counts ({n} of {total} hands entered)").format(
                n=len(sheet.entries), total=sheet.hand_count
            )
        )
    seats = seat_members(sheet, body.members, members)
    try:
        day = parse_day(body.played_on, "played_on") if body.played_on else None
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    played = (
        datetime.now(UTC) if day is None else datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    )
    if len(await store.sheets(group_id, 0.0, float("inf"))) >= SHEETS_MAX:
        raise ActionError(_("the group holds {n} sheets, the most it may").format(n=SHEETS_MAX))
    row = SheetRow(
        id=secrets.token_urlsafe(6),
        group_id=group.id,
        added_by=me.id if me is not None else None,
        sheet=sheet.to_dict(),
        members=seats,
        played_at=played.timestamp(),
    )
    await store.add_sheet(row)
    return {
        "id": row.id,
        "seats": [{"name": n, "player": p} for n, p in zip(sheet.names, seats, strict=True)],
        "played_on": played.date().isoformat(),
    }


def seat_members(
    sheet: ScoreSheet, given: dict[str, str | None] | None, members: list[MemberRow]
) -> list[str | None]:
    """The member each of the sheet's names is (None: a guest): as ``given``, else the member
    of that name whatever its case. A member is at most one name."""
    ids = {m.player_id for m in members}
    by_name = {name_key(m.name): m.player_id for m in members if m.name}
    if given is not None:
        unknown = [n for n in given if n not in sheet.names]
        if unknown:
            raise ActionError(
                _("members: {name} is not a name of the sheet").format(name=repr(unknown[0]))
            )
        seats = [given.get(n) for n in sheet.names]
        for name, player in zip(sheet.names, seats, strict=True):
            if player is not None and player not in ids:
                raise ActionError(
                    _("members: {name}: {player} is not a member of the group").format(
                        name=repr(name), player=repr(player)
                    )
                )
    else:
        seats = [by_name.get(name_key(n)) for n in sheet.names]
    taken = [p for p in seats if p is not None]
    if len(taken) != len(set(taken)):
        raise ActionError(_("members: one member is given for two names of the sheet"))
    return seats
