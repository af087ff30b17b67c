"""deploy/haproxy.cfg as it is written, in front of a real server: an address that floods the
proxy with requests (reads, which the nodes do not limit) is refused with the API's own 429,
one line of JSON and Retry-After, while everyone else goes on."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, free_port, haproxy_config

# HAProxy in front of the nodes: a cluster test (make test-fast leaves it out).
pytestmark = pytest.mark.cluster

DEPLOYED = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def wait_answering(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until the proxy at ``base`` passes a request on (at most 10 s; its log if not)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            if httpx.get(base + "/api/options").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, f"the proxy did not answer in 10 s: {log.read_text()}"
        time.sleep(0.05)


def tables_from(base: str, source: str, spoofed: bool) -> list[int]:
    """The statuses of five new tables asked of ``base`` from the loopback address ``source``,
    each naming another address in an X-Forwarded-For of its own if ``spoofed``."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(base_url=base, transport=transport) as client:
        return [
            client.post(
                "/api/tables",
                json={"name": "Host"},
                headers={"X-Forwarded-For": f"203.0.113.{i}"} if spoofed else {},
            ).status_code
            for i in range(5)
        ]


@pytest.fixture
def deployed(start_server: Callable[..., Server], tmp_path: Path) -> Iterator[tuple[Server, str]]:
    """A server that believes the proxy on this machine (``--proxy 127.0.0.1``), and the base
    URL of deploy/haproxy.cfg in front of it: the file as it is, but for its ports and its one
    node (``haproxy_config``)."""
    binary = shutil.which("haproxy")
    if binary is None:
        pytest.skip("haproxy is not installed (make system-deps installs it)")
    server = start_server(args=("--proxy", "127.0.0.1"))
    port = free_port()
    path = tmp_path / "haproxy.cfg"
    path.write_text(haproxy_config(port, {"node1": server.port}))
    log = (tmp_path / "haproxy.log").open("a")
    proc = subprocess.Popen([binary, "-db", "-f", str(path)], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_answering(base, proc, tmp_path / "haproxy.log")
        yield server, base
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_a_flood_of_requests_from_one_address_is_refused_at_the_proxy(
    deployed: tuple[Server, str],
) -> None:
    server, base = deployed
    table_id = server.ok("POST", "/api/tables", {"name": "Host"})["table_id"]
    codes = []
    with httpx.Client(base_url=base) as client:  # one keep-alive connection, as a flood sends
        for _ in range(1_100):
            answer = client.get(f"/api/tables/{table_id}")
            codes.append(answer.status_code)
            if answer.status_code == 429:
                refused = answer
    first = codes.index(429)
    assert 990 <= first <= 1_001, first  # 1 000 in 10 s pass (the fixture's first GET counts)
    assert set(codes[:first]) == {200} and set(codes[first:]) == {429}
    assert refused.headers["content-type"] == "application/json"
    assert refused.headers["retry-after"] == "10"
    assert refused.json() == {
        "error": "too many requests from this address (at most 1000 in 10 s): retry in 10 s"
    }
    # The server itself was never asked for the refused ones, and answers directly.
    assert server.http.get(f"/api/tables/{table_id}").status_code == 200


def test_the_deployed_proxy_routes_a_tables_requests_by_its_id(
    cluster: tuple[list[Server], Any], tmp_path: Path
) -> None:
    """deploy/haproxy.cfg as it is written, in front of three cluster nodes (named node0..node2
    here): each table's requests go to one node, the same every time (a hash of its
    id), spread over the nodes; that node serves the table or redirects to its holder, and
    a request naming a node goes to that node."""
    binary = shutil.which("haproxy")
    if binary is None:
        pytest.skip("haproxy is not installed (make system-deps installs it)")
    nodes, _ = cluster
    port = free_port()
    path = tmp_path / "deployed.cfg"  # the nodes are named node0..node2 here
    path.write_text(haproxy_config(port, {f"node{i}": node.port for i, node in enumerate(nodes)}))
    log = (tmp_path / "deployed.log").open("a")
    proc = subprocess.Popen([binary, "-db", "-f", str(path)], stdout=log, stderr=subprocess.STDOUT)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", follow_redirects=True) as client:
            deadline = time.monotonic() + 10
            while True:  # up, and every node passed its health check
                try:
                    seen = {client.get("/healthz").json()["node"] for _ in range(6)}
                    if len(seen) == 3:
                        break
                except (httpx.HTTPError, ValueError, KeyError):
                    pass
                assert time.monotonic() < deadline, "haproxy did not reach 3 nodes in 10 s"
                time.sleep(0.2)
            ids = [
                nodes[0].ok("POST", "/api/tables", {"name": "Host"})["table_id"] for _ in range(9)
            ]
            hops = {}
            for table_id in ids:
                answers = [client.get(f"/api/tables/{table_id}") for _ in range(3)]
                assert all(a.status_code == 200 for a in answers)
                assert {a.headers["salad-node"] for a in answers} == {"node0"}  # made there
                hops[table_id] = {len(a.history) for a in answers}
            # The same node each time: served there, or redirected from there each time.
            assert all(len(h) == 1 for h in hops.values()), hops
            # Spread: some go to another node than node0 (all nine to node0: 1 in 20 000).
            assert 1 in {h.pop() for h in hops.values()}, "nine tables hashed to one node"
            named = client.get(f"/api/tables/{ids[0]}", params={"node": "node2"})
            assert [r.status_code for r in named.history] == [307]
            assert named.history[0].json()["node"] == "node0"
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


@pytest.fixture
def three_tables_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server that ``deployed`` starts next lets an address make three tables a minute."""
    monkeypatch.setenv("SALAD_RATE_LIMITS", "tables=3/60")


def test_a_client_cannot_borrow_other_addresses_through_the_proxy(
    three_tables_a_minute: None, deployed: tuple[Server, str]
) -> None:
    """A client naming other addresses in an X-Forwarded-For of its own, through
    deploy/haproxy.cfg, still meets its own limit: HAProxy appends the address it saw, and the
    server reads the last address it does not trust (docs/deploying.md); another client through
    the same proxy has a limit of its own. The clients connect from 127.0.0.2 and 127.0.0.3:
    127.0.0.1, the proxy's address, is trusted, so a client there would be skipped over like a
    proxy."""
    _server, base = deployed
    assert tables_from(base, "127.0.0.2", spoofed=True) == [200, 200, 200, 429, 429]
    assert tables_from(base, "127.0.0.3", spoofed=False) == [200, 200, 200, 429, 429]
