"""Comparing profiles: the diff itself, flat diffs, ranked changes and regressions.

``graphframe.diff`` is :func:`graphframe.diffing.diff`. The package is not
called ``diff`` so that ``graphframe.diff`` can be the function.
"""

from .core import STATUS, diff, significant
from .flat import outermost
from .table import format_changes, ranked_changes, regressions

__all__ = ["STATUS", "diff", "format_changes", "outermost", "ranked_changes", "regressions",
           "significant"]
