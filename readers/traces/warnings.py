"""Warnings of the trace layers."""

from __future__ import annotations


class TraceWarning(UserWarning):
    """Something in a trace was repaired by a documented policy (e.g. unmatched enter/leave)."""
