"""SpotDB runs (LLNL's Spot database of Caliper profiles): :func:`read_spotdb`,
:func:`parse_regionprofile`."""

from .reader import parse_regionprofile, read_spotdb

__all__ = ["parse_regionprofile", "read_spotdb"]
