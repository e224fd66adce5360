"""Call-path query language (object and string dialects).

Not implemented yet: it is the subject of its own issue. ``filter`` routes
queries here, and until then a query raises :class:`InvalidFilter` saying so.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidFilter


def matched_nodes(gf: Any, query: Any, multi_index_mode: str = "off") -> Any:
    """Ids of the nodes on any path matching ``query``."""
    raise InvalidFilter("the call-path query language is not available yet; "
                        "filter with a boolean mask or a callable")
