"""Hypothesis example counts that follow the loaded profile (tests/conftest.py registers them).

A test that sets its own count writes ``@settings(max_examples=examples(200))``: 200 under the
``ci`` profile (``make test``, and the default), which keeps Hypothesis's default of 100 for
the tests that set none; under a profile with fewer (``dev``: 10, ``make test-fast``), as many
fewer in proportion, at least 5.
"""

from __future__ import annotations

from hypothesis import settings

HYPOTHESIS_DEFAULT = 100
"""Hypothesis's own ``max_examples``, which the ci profile keeps."""


def examples(count: int) -> int:
    """``count`` scaled by the loaded profile's ``max_examples`` against Hypothesis's default."""
    scaled = count * settings.default.max_examples // HYPOTHESIS_DEFAULT
    return max(min(count, 5), scaled)
