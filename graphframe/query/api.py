"""Query objects with Hatchet's names: Query, ObjectQuery, StringQuery, compounds.

Every query object has ``apply(gf)`` (the matched nodes, in pre-order) and
combines with ``&`` (both), ``|`` (either), ``^`` (an odd number of) and ``~``
(not). ``GraphFrame.filter(query)`` keeps every row of the matched nodes.

The classes live in :mod:`graphframe.query.path_queries` (``QueryBase``,
``Query``, ``ObjectQuery``, ``StringQuery``) and
:mod:`graphframe.query.compound` (the compound queries,
``parse_string_dialect``, ``coerce_query``); this module gathers them.
"""

from __future__ import annotations

from .compound import (CompoundQuery, ConjunctionQuery, DisjunctionQuery,
                       ExclusiveDisjunctionQuery, NegationQuery, coerce_query,
                       parse_string_dialect)
from .path_queries import ObjectQuery, Query, QueryBase, StringQuery

__all__ = [
    "CompoundQuery", "ConjunctionQuery", "DisjunctionQuery", "ExclusiveDisjunctionQuery",
    "NegationQuery", "ObjectQuery", "Query", "QueryBase", "StringQuery", "coerce_query",
    "parse_string_dialect",
]
