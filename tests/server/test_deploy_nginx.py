"""docs/deploying.md's nginx configuration, as the page gives it, in front of a real server run
with `--proxy 127.0.0.1` (issue #40): each client behind it has rate limits of its own, and
an X-Forwarded-For a client sends is not believed."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import Server, free_port
from .test_deploy_haproxy import tables_from, wait_answering

pytestmark = pytest.mark.cluster  # a proxy of its own, as the HAProxy tests

DEPLOYING = Path(__file__).resolve().parents[2] / "docs" / "deploying.md"


def documented() -> str:
    """The page's nginx configuration (its one ``nginx`` block)."""
    (block,) = re.findall(r"```nginx\n(.*?)```", DEPLOYING.read_text(), flags=re.S)
    return block


def runnable(block: str, port: int, server_port: int, directory: Path) -> str:
    """The block as nginx can run it here: on a loopback port without TLS, in front of the
    server's port, in one process (no user to switch to), its files in ``directory``."""
    assert "listen 443 ssl;" in block and "proxy_pass http://127.0.0.1:8000;" in block
    block = block.replace("listen 443 ssl;", f"listen 127.0.0.1:{port};")
    block = block.replace("http://127.0.0.1:8000;", f"http://127.0.0.1:{server_port};")
    temp = "\n".join(
        f"    {kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"daemon off;\nmaster_process off;\npid {directory / 'nginx.pid'};\n"
        f"error_log {directory / 'error.log'};\nevents {{}}\n"
        f"http {{\n    access_log off;\n{temp}\n{block}}}\n"
    )


@pytest.fixture
def behind_nginx(
    start_server: Callable[..., Server], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """The base URL of the documented nginx in front of a server that believes it and lets an
    address make three tables a minute."""
    binary = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if binary is None:
        pytest.skip("nginx is not installed (make system-deps installs nginx-light)")
    monkeypatch.setenv("SALAD_RATE_LIMITS", "tables=3/60")
    server = start_server(args=("--proxy", "127.0.0.1"))
    port = free_port()
    config = tmp_path / "nginx.conf"
    config.write_text(runnable(documented(), port, server.port, tmp_path))
    log = (tmp_path / "nginx.out").open("a")
    proc = subprocess.Popen(
        [binary, "-c", str(config), "-p", str(tmp_path)], stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_answering(base, proc, tmp_path / "error.log")
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_behind_the_documented_nginx_each_client_has_its_own_limits(behind_nginx: str) -> None:
    """One client (127.0.0.2) names other addresses in an X-Forwarded-For of its own and still
    meets its limit at the fourth table; another (127.0.0.3) through the same nginx then makes
    its own three. nginx replaces the header with the address it saw ($remote_addr)."""

    assert tables_from(behind_nginx, "127.0.0.2", spoofed=True) == [200, 200, 200, 429, 429]
    assert tables_from(behind_nginx, "127.0.0.3", spoofed=False) == [200, 200, 200, 429, 429]
