"""The pace of a table (issue #33): everyone passes at once, each choice hidden until all have
chosen; the host's pace (slow, normal, fast) stored with the table and kept by its bots; a
small run of ``benchmarks/game_pace.py``. One server of their own, whose bots play at each
table's pace (no ``--bot-delay``)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

from .conftest import BENCHMARKS, Server, connect, stored_pace

PASSING = 'preset = "canadian"\nhands = ["no-hearts"]\npassing = 3\n'
HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}


def _game_pace() -> ModuleType:
    spec = importlib.util.spec_from_file_location("game_pace", BENCHMARKS / "game_pace.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


pytestmark = pytest.mark.one_worker  # the module's server starts once (tests/conftest.py)


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("paced")
    srv = Server(f"sqlite:///{tmp / 'salad.db'}", tmp / "server.log", bot_delay=None)
    yield srv
    srv.stop()


def test_everyone_passes_at_once_and_the_cards_go_round_when_all_have_chosen(
    paced: Server,
) -> None:
    tid, tokens = paced.table([HUMAN, RANDOM, HUMAN, RANDOM], rules_toml=PASSING, pace="fast")

    async def run() -> None:
        socks = {seat: await connect(paced, tid, tokens[seat], f"seat {seat}") for seat in (0, 2)}
        firsts = {s: await sock.until(lambda m: m["view"] is not None) for s, sock in socks.items()}
        first = firsts[0]["view"]["to_move"]  # the engine's first to pass
        # Each human may choose now, its turn in the engine's order come or not.
        for seat, state in firsts.items():
            assert state["passing"]["legal"] == state["view"]["cards"], seat
            assert state["passing"]["chosen"] == [] and seat in state["passing"]["choosing"]
        late, early = sorted((0, 2), key=lambda s: (s - first) % 4, reverse=True)
        # The human later in the order chooses first: held, shown as chosen to it alone.
        cards = firsts[late]["passing"]["legal"][:3]
        for card in cards:
            await socks[late].send({"type": "play", "move": card})
        mine = await socks[late].until(lambda m: len(m["passing"]["chosen"]) == 3)
        assert sorted(mine["passing"]["chosen"]) == sorted(cards)
        assert mine["passing"]["legal"] == [] and late not in mine["passing"]["choosing"]
        assert mine["view"]["passed"] == []  # not played: the seat before it has not chosen
        await socks[late].send({"type": "play", "move": mine["view"]["cards"][-1]})
        refused = await socks[late].recv()
        while refused["type"] != "error":  # the bots' passes may come first
            refused = await socks[late].recv()
        assert "chosen your cards" in refused["message"]
        theirs = await socks[early].until(lambda m: late not in m["passing"]["choosing"])
        assert early in theirs["passing"]["choosing"] and theirs["passing"]["chosen"] == []
        # The bots chose at once (within the fast pace): only the other human is choosing.
        waited = await socks[early].until(lambda m: m["passing"]["choosing"] == [early])
        assert waited["view"]["phase"] == "pass"
        for text in socks[early].messages:
            assert not any(f'"{card}"' in text for card in cards), "a choice was seen"
        # The last to choose: the cards go round, each seat's to the seat it passes to.
        theirs_chosen = waited["passing"]["legal"][-3:]
        for card in theirs_chosen:
            await socks[early].send({"type": "play", "move": card})
        played = {
            s: await sock.until(lambda m: m["view"]["phase"] == "play") for s, sock in socks.items()
        }
        assert "passing" not in played[late] and "passing" not in played[early]
        for seat, chose in ((late, cards), (early, theirs_chosen)):
            view = played[seat]["view"]
            assert not set(chose) & set(view["cards"]) - set(view["received"]), seat
            assert len(view["received"]) == 3 and len(view["cards"]) == 13
        for sock in socks.values():
            await sock.ws.close()

    asyncio.run(run())


def test_the_hosts_pace_is_stored_and_kept_by_the_bots(paced: Server) -> None:
    tid, tokens = paced.table([HUMAN, HUMAN, RANDOM], start=False, pace="slow")
    lobby = paced.ok("GET", f"/api/tables/{tid}")
    assert (lobby["pace"], lobby["trick_pause"]) == ("slow", 2.5)
    guest = paced.http.put(
        f"/api/tables/{tid}/pace", json={"pace": "fast"}, headers=bearer(tokens[1])
    )
    assert guest.status_code == 403
    bad = paced.http.put(
        f"/api/tables/{tid}/pace", json={"pace": "warp"}, headers=bearer(tokens[0])
    )
    assert bad.status_code == 400 and "pace" in bad.json()["error"] and "\n" not in bad.text
    changed = paced.ok("PUT", f"/api/tables/{tid}/pace", {"pace": "fast"}, token=tokens[0])
    assert (changed["pace"], changed["trick_pause"]) == ("fast", 0.5)

    assert stored_pace(paced.database, tid) == "fast"

    # A small run of benchmarks/game_pace.py: three tricks at "fast" against basic bots, the
    # host playing at once: each bot card 0.15 s, 0.5 s after a trick before a bot leads
    # (0.6 s and 1.4 s at "normal": 5.4 s at least for three tricks).
    bench = _game_pace()
    made = bench.quick_table(paced.base, "fast")
    played = asyncio.run(bench.ws_game(paced.base, made["table_id"], made["token"], tricks=3))
    assert played.tricks == 3
    # At least 9 bot cards at 0.15 s each, less one: the first bot's wait may start before the
    # host's first state (the table starts before it connects; seen at 1.26 s once the bot pool
    # started quickly, its fork server's workers not loading the bots each).
    assert (3 * 3 - 1) * 0.15 <= played.seconds <= 3 * (0.5 + 3 * 0.15) + 1.5, played
    # Experts think within the pace too: hardly slower than basic bots (up to 0.7 s a card on
    # their own, 2 - 3 s more than basic bots over three tricks).
    made = bench.quick_table(paced.base, "fast", bot="expert")
    experts = asyncio.run(bench.ws_game(paced.base, made["table_id"], made["token"], tricks=3))
    assert experts.tricks == 3 and experts.seconds <= played.seconds + 1.2, (experts, played)


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_hint_while_passing_at_once_is_for_the_cards_one_may_choose(paced: Server) -> None:
    """Alone with bots, a player asks for a hint in a pass phase before the engine's turn has
    come to it (it may choose now): the expert names one of the cards it may choose."""
    seats = [HUMAN, RANDOM, RANDOM, RANDOM]
    tid, tokens = paced.table(seats, rules_toml=PASSING, pace="slow", seed=1)

    async def run() -> None:
        me = await connect(paced, tid, tokens[0])
        state = await me.until(lambda m: m["view"] is not None)
        assert state["view"]["phase"] == "pass" and state["passing"]["legal"]
        assert state["view"]["to_move"] != 0  # a bot passes first (the deal of seed 1)
        await me.send({"type": "hint"})
        answer = await me.recv()
        while answer["type"] not in ("hint", "error"):
            answer = await me.recv()
        assert answer["type"] == "hint", answer
        assert answer["move"] in state["passing"]["legal"]
        await me.ws.close()

    asyncio.run(run())
