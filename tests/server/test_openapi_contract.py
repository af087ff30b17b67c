"""The REST API keeps its word (issue 15, item 12): strict types, and answers that match the
OpenAPI description, checked by schemathesis against a real ``salad serve`` on loopback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
)
"""The schemathesis checks that must pass with 0 failures."""

HOST = {"name": "Host"}
SHEET = {"names": ["Ann", "Bob", "Cy"]}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/tables", {**HOST, "players": "4"}, "players"),
        ("/api/tables", {**HOST, "seed": "1"}, "seed"),
        ("/api/tables", {**HOST, "turn_timer": True}, "turn_timer"),
        ("/api/tables", {**HOST, "bot_takeover": "5"}, "bot_takeover"),
        ("/api/quickplay", {**HOST, "players": "4"}, "players"),
        ("/api/sheets/new", {**SHEET, "players": "3"}, "players"),
        ("/api/sheets/new", {**SHEET, "first_dealer": True}, "first_dealer"),
    ],
)
def test_loose_types_are_refused_in_one_line(
    server: Any, path: str, body: dict[str, Any], field: str
) -> None:
    """A number as text, or true as a number, is refused with one line naming the field."""
    r = server.post(path, body)
    assert r.status_code in (400, 422), r.text
    error = r.json()["error"]
    assert "\n" not in error
    assert error.startswith(f"{field}: "), error


def test_strict_types_still_take_numbers(server: Any) -> None:
    """An int is still a number of seconds; real numbers are still taken."""
    created = server.ok("POST", "/api/tables", {**HOST, "players": 4, "seed": 1, "turn_timer": 30})
    lobby = server.ok("GET", f"/api/tables/{created['table_id']}")
    assert lobby["players"] == 4
    assert lobby["turn_timer"] == 30


def test_score_sheet_errors_match_their_description(server: Any) -> None:
    """A 400 of the score sheet is {"error"} (with "problems" only when names or an entry do
    not add up), as the description says; the CSV's errors are JSON, as described."""
    spec = server.ok("GET", "/openapi.json")
    csv = spec["paths"]["/api/sheets/csv"]["post"]["responses"]
    assert set(csv["400"]["content"]) == {"application/json"}
    problems = spec["components"]["schemas"]["ProblemsOut"]
    assert problems.get("required") == ["error"]
    r = server.post("/api/sheets/csv", {})
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("application/json")


def test_openapi_description_holds_under_schemathesis(server: Any, tmp_path: Path) -> None:
    """schemathesis on /openapi.json, a fixed budget (20 examples an operation, deterministic;
    5 under Hypothesis's dev profile, make test-fast's): 0 failures of the checks in CHECKS."""
    st = Path(sys.executable).with_name("schemathesis")
    assert st.exists(), "schemathesis is not installed: make setup (the dev extra has it)"
    cmd = [
        str(st),
        "run",
        f"{server.base}/openapi.json",
        "--checks",
        ",".join(CHECKS),
        "--max-examples",
        "5" if os.environ.get("HYPOTHESIS_PROFILE") == "dev" else "20",
        "--generation-deterministic",
        "--phases",
        "examples,coverage,fuzzing",
        "--workers",
        "1",
        "--request-timeout",
        "10",
        "--no-color",
    ]
    run = subprocess.run(
        cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
