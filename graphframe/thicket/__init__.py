"""Thicket's API on graphframe: ``import graphframe.thicket as th``.

``th.Thicket.from_caliperreader(files)`` and the rest of Thicket's names work
on :class:`graphframe.Ensemble` underneath; the differences from LLNL Thicket
are listed in ``docs/guide/ensembles.md`` ("Coming from Thicket").

Examples
--------
>>> import graphframe.thicket as th
>>> from graphframe import GraphFrame
>>> tk = th.Thicket.thicketize_graphframe(GraphFrame.from_lists(("main", "solve")), "run.json")
>>> tk.profile_mapping        # labelled by the hash of the path, as in Thicket
OrderedDict([(9621542272589, 'run.json')])
"""

from .. import QueryMatcher
from ..ensemble._internal import query_package as query
from ..errors import InvalidFilter
from . import helpers, model_extrap, profiles, stats, utils
from .groupby import GroupBy
from .thicket import NodeNotFound, Thicket
from .utils import DuplicateIndexError, DuplicateValueError, EmptyMetadataTable

__all__ = ["DuplicateIndexError", "DuplicateValueError", "EmptyMetadataTable", "GroupBy", "InvalidFilter", "NodeNotFound", "QueryMatcher", "Thicket",
           "helpers", "model_extrap", "profiles", "query", "stats", "utils"]
