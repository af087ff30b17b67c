"""What the groups hold about a player (:class:`GroupsPart`, a
:class:`~salad.server.players.identity.PlayerPart`): their export lists the player's groups
and the sheets they attached; their deletion leaves every group (an owned group passes to its
oldest member, or is deleted when no one is left) and the sheets they attached no longer say
who did. The sheets and the games stay: they are the group's record."""

from __future__ import annotations

from typing import Any

from salad.server.store.groups import GroupRow, GroupStore


class GroupsPart:
    name = "groups"

    def __init__(self, store: GroupStore) -> None:
        self.store = store

    async def export(self, player_id: str) -> Any:
        groups = []
        for group in await self.store.groups_of(player_id):
            joined = next(
                m.joined_at for m in await self.store.members(group.id) if m.player_id == player_id
            )
            groups.append(
                {
                    "id": group.id,
                    "name": group.name,
                    "owner": group.owner_id == player_id,
                    "joined_at": joined,
                }
            )
        sheets = [
            {"id": s.id, "group": s.group_id, "played_at": s.played_at, "sheet": s.sheet}
            for s in await self.store.sheets_added_by(player_id)
        ]
        return {"groups": groups, "sheets_attached": sheets}

    async def forget(self, player_id: str) -> None:
        for group in await self.store.groups_of(player_id):
            await leave_group(self.store, group, player_id)
        await self.store.forget_sheets_by(player_id)


async def leave_group(store: GroupStore, group: GroupRow, player_id: str) -> None:
    """``player_id`` leaves ``group``: an owner's group passes to its oldest other member, or
    is deleted when no one is left."""
    await store.remove_member(group.id, player_id)
    if group.owner_id == player_id:
        left = await store.members(group.id)
        if not left:
            await store.delete_group(group.id)
            return
        group.owner_id = left[0].player_id
        await store.set_group(group.id, code=group.code, owner_id=group.owner_id)
