"""The installable web app's service worker script, as the server makes it."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
from salad.locale import LANGUAGES
from salad.server.routes.pages import STATIC_DIR, Assets
from salad.server.routes.webapp import worker_script
import sys
sys.stdout.buffer.write(worker_script(Assets(STATIC_DIR), LANGUAGES["fr"]))
"""


def test_the_same_files_make_the_same_worker_in_every_process() -> None:
    """Two processes (two nodes, or a server and its restart) with other hash seeds write the
    same /sw.js for the same files: a browser installs the worker anew only at a release."""
    scripts = {
        subprocess.run(
            [sys.executable, "-c", SCRIPT],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(scripts) == 1
    (script,) = scripts
    assert b'"/sheet"' in script and b"__PRECACHE__" not in script
