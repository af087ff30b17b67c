"""The package as people install it: the wheel ``make dist`` builds (``uv build``), installed
with the web extra into a fresh venv outside the source tree (no editable install, nothing of
the checkout on its path), answers as the ``salad`` command does: ``--help``, ``rules``,
``simulate``, the terminal app's plain mode, and ``serve`` (the home page with its version, a
table page, the how-to page and a static file). Everything the package reads at run time (the
web client, the presets, the catalogs, the migrations) must therefore be inside the wheel.

The install, from the built wheel to ``salad --help`` answering, is timed: at most
:data:`INSTALL_SECONDS` (the figure is printed at the end of the run, "Figures")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from serving import free_port, wait_serving
from test_plain import drive

import salad

pytestmark = pytest.mark.one_worker  # the wheel is built and installed once

ROOT = Path(__file__).resolve().parents[1]
UV = Path(sys.executable).with_name("uv")
INSTALL_SECONDS = 30.0
"""The issue's bound: a fresh venv, the wheel and its web extra installed, ``salad --help``."""
UV_CACHE = os.environ.get("UV_CACHE_DIR") or str(
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "uv"
)
"""uv's cache as the user has it (read when the module loads, before the tests' own
``XDG_CACHE_HOME``): the dependencies are taken from it as a user's second install would."""


def clean_env(home: Path) -> dict[str, str]:
    """This process's environment less what would reach the checkout or this venv."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["HOME"] = str(home)
    env["UV_CACHE_DIR"] = UV_CACHE
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if p != str(Path(sys.executable).parent)
    )
    return env


class Installed:
    """The venv the wheel went into: its ``salad`` command, run away from the checkout."""

    def __init__(self, wheel: Path, venv: Path, seconds: float) -> None:
        self.wheel = wheel
        self.venv = venv
        self.salad = str(venv / "bin" / "salad")
        self.python = str(venv / "bin" / "python")
        self.seconds = seconds
        self.cwd = venv.parent
        self.env = clean_env(venv.parent)

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [self.salad, *args],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, (args, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, done.stderr
        return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    place = tmp_path_factory.mktemp("wheel")
    dist = place / "dist"
    subprocess.run(
        [str(UV), "build", "-q", "--wheel", "--out-dir", str(dist)], cwd=ROOT, check=True
    )
    (wheel,) = dist.glob("canadian_salad-*.whl")
    venv = place / "venv"
    env = clean_env(place)
    started = time.monotonic()
    python = str(venv / "bin" / "python")
    for cmd in (
        [str(UV), "venv", "-q", "--python", sys.executable, str(venv)],
        [str(UV), "pip", "install", "-q", "--python", python, f"{wheel}[web]"],
        [str(venv / "bin" / "salad"), "--help"],
    ):
        done = subprocess.run(cmd, cwd=place, env=env, capture_output=True, text=True)
        assert done.returncode == 0, (cmd, done.stderr[-2000:])
    return Installed(wheel, venv, time.monotonic() - started)


def test_the_wheel_installs_by_its_name_and_answers_in_time(
    installed: Installed, record_property: Callable[[str, object], None]
) -> None:
    said = (
        f"the wheel {installed.wheel.name} installed (web extra) in a fresh venv and "
        f"salad --help answered in {installed.seconds:.1f} s (at most {INSTALL_SECONDS:g})"
    )
    record_property("figure", said)
    assert installed.seconds <= INSTALL_SECONDS, said
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = wheel.namelist()
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    assert meta.startswith(f"canadian_salad-{salad.__version__}.dist-info/")
    for part in ("salad/py.typed", "salad/web/static/index.html", "salad/locale/po/fr.po"):
        assert part in names, part
    # Imported from the venv, not from the checkout.
    where = subprocess.run(
        [installed.python, "-c", "import salad; print(salad.__file__, salad.__version__)"],
        cwd=installed.cwd,
        env=installed.env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert Path(where[0]).is_relative_to(installed.venv) and where[1] == salad.__version__
    assert installed.run("--version").stdout.split() == ["salad", salad.__version__]


def test_rules_and_simulate_from_the_wheel(installed: Installed) -> None:
    rules = installed.run("rules", "skip-the-salad").stdout
    assert rules.startswith("Skip the Salad (preset skip-the-salad)"), rules[:200]
    played = installed.run("simulate", "--games", "3", "--players", "4", "--seed", "2").stdout
    assert played.startswith("3 games of Canadian Salad, 4 players"), played[:500]
    assert len(re.findall(r"^  seat \d \(random\): mean", played, re.M)) == 4, played


def test_the_plain_terminal_app_from_the_wheel(installed: Installed) -> None:
    code, lines, err = drive(
        ["--bots", "random", "--seed", "3"], salad=installed.salad, cwd=installed.cwd
    )
    assert code == 0, err
    assert "Final scores:" in lines and "Traceback" not in err


@pytest.fixture
def served(installed: Installed) -> Iterator[httpx.Client]:
    port = free_port()
    log = (installed.cwd / "serve.log").open("w")
    proc = subprocess.Popen(
        [installed.salad, "serve", "--port", str(port), "--database", "sqlite:///served.db"],
        cwd=installed.cwd,
        env=installed.env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    try:
        wait_serving(str(client.base_url).rstrip("/"), proc, installed.cwd / "serve.log")
        yield client
    finally:
        client.close()
        proc.terminate()
        proc.wait(10)
        log.close()


def test_serve_from_the_wheel(served: httpx.Client) -> None:
    home = served.get("/")
    assert home.status_code == 200
    assert f"Canadian Salad {salad.__version__}</p>" in home.text
    made = served.post("/api/tables", json={"name": "Host", "seats": [{"kind": "human"}] * 4})
    assert made.status_code in (200, 201), made.text
    table = served.get(f"/table/{made.json()['table_id']}")
    assert table.status_code == 200 and "<html" in table.text.lower()
    assert served.get("/howto").status_code == 200
    # The installable app: its worker keeps the pages and files the wheel holds.
    worker = served.get("/sw.js")
    assert worker.status_code == 200 and '"/sheet"' in worker.text
    for icon in served.get("/manifest.webmanifest").json()["icons"]:
        assert served.get(icon["src"]).headers["content-type"] == "image/png", icon
    static = re.findall(r'href="(/static/css/[^"]+)"', home.text)
    assert static, "the home page names no stylesheet"
    for url in static:
        answer = served.get(url)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/css")
