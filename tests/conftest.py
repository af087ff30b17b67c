"""Shared test settings: Hypothesis profiles, and the markers every test gets from where it is
and what it uses.

Helpers live in the test modules themselves (conftest modules are not meant to be imported).

Hypothesis profiles (``HYPOTHESIS_PROFILE=dev`` or ``--hypothesis-profile=dev``):

- ``ci`` (the default, and what ``make test`` uses): Hypothesis's example counts, or those a test
  sets itself; no deadline (a loaded machine is not a slow test);
- ``dev`` (``make test-fast``): a fifth of the examples where a test does not set its own count.

Markers (pyproject.toml registers them; ``-m "not e2e and not cluster"`` is ``make test-fast``):

- ``e2e``: everything under ``tests/e2e`` (a real Chromium);
- ``cluster``: uses Redis (``redis_server``), several nodes (``start_cluster``) or HAProxy;
- ``postgres``: needs PostgreSQL (``pg_url``, or a ``"postgresql"`` parameter);
- ``slow``: one of the longest tests (``SLOW`` below, at least ~10 s alone);
- ``serial``: measures wall or CPU time, so ``make test`` runs it alone after the parallel pass
  (``SERIAL`` below).

These are applied here by path, fixture and name, so that a test moved or added keeps its
markers without a line of its own; a test may also carry the marker itself.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", settings.get_profile("ci"), max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

TESTS = Path(__file__).resolve().parent

CLUSTER_FIXTURES = frozenset({"redis_server", "session_redis", "start_cluster"})
POSTGRES_FIXTURES = frozenset({"pg_url", "pg_admin"})

SLOW: dict[str, frozenset[str] | None] = {
    # path under tests/ -> the test functions (by name, all their parameters) that take longest
}

SERIAL: dict[str, frozenset[str] | None] = {
    # path under tests/ -> the test functions that measure time (None: the whole module)
}


def _named(table: dict[str, frozenset[str] | None], where: str, name: str) -> bool:
    if where not in table:
        return False
    names = table[where]
    return names is None or name in names


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test as e2e, cluster, postgres, slow and serial by what it is (see above).

    A browser test is also in its module's ``xdist_group``: under ``--dist loadgroup`` a module
    runs on one worker, which starts its Chromium (and any server of the module) once."""
    for item in items:
        try:
            where = item.path.resolve().relative_to(TESTS).as_posix()
        except ValueError:  # a doctest in src/ or README.md
            continue
        fixtures = set(getattr(item, "fixturenames", ()))
        callspec = getattr(item, "callspec", None)
        params = set(map(str, callspec.params.values())) if callspec is not None else set()
        name = getattr(item, "originalname", item.name)
        if where.startswith("e2e/"):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.xdist_group(where))
        if fixtures & CLUSTER_FIXTURES:
            item.add_marker(pytest.mark.cluster)
        if fixtures & POSTGRES_FIXTURES or "postgresql" in params:
            item.add_marker(pytest.mark.postgres)
        if _named(SLOW, where, name):
            item.add_marker(pytest.mark.slow)
        if _named(SERIAL, where, name):
            item.add_marker(pytest.mark.serial)
