"""Shared test settings.

Helpers live in the test modules themselves (conftest modules are not meant to be imported).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")
