"""Transitional: the old home of the score sheet, now split across :mod:`salad.sheet`.

Import from :mod:`salad.sheet` instead; this module goes once the CLI and server do.
"""

from salad.sheet import *  # noqa: F403
from salad.sheet import __all__ as _all
from salad.sheet.names import name_problem as check_name

__all__ = [*_all, "check_name"]  # noqa: PLE0605
