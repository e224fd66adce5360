"""Library-wide settings: Hatchet's behaviour where graphframe chose otherwise.

One setting today, ``hatchet_compat`` (default False). When it is True,
code written for Hatchet observes Hatchet's behaviour in the places where
graphframe's default differs on purpose:

* **column types**: every GraphFrame's text columns are plain ``object``
  columns (graphframe's default is its ``text`` dtype: 4 bytes per row), and
  integer columns have the dtype Hatchet's reader gives them (HPCToolkit's
  ``nid`` and ``line`` int64; the ``.cali`` reader's ``nid`` pandas' nullable
  ``Int64``) (:mod:`graphframe.model.hatchet_types`);
* **the string dialect's WHERE clause**: each query node's conditions are
  combined among themselves (``AND`` before ``OR``) and the query nodes' predicates
  are ANDed, whatever operator joins conditions of different nodes
  (graphframe's default reads the clause as one condition on the path);
* **object-dialect conditions** that are neither a regex, a number nor a
  comparison string (an arbitrary object) are refused when the query is
  applied, not when it is built.

``import hatchet`` through graphframe's Hatchet shim turns it on; graphframe
users turn it on with ``graphframe.options.hatchet_compat = True`` or for a
block with :func:`hatchet_compatible`. The setting is read when a GraphFrame
is made or a query is compiled, so it costs one attribute read there.
``docs/guide/coming-from-hatchet.md`` ("Hatchet compatibility mode") lists
every effect.

Examples
--------
>>> import graphframe
>>> graphframe.options.hatchet_compat
False
>>> with graphframe.options.hatchet_compatible():
...     graphframe.options.hatchet_compat
True
>>> graphframe.options.hatchet_compat
False
"""

from __future__ import annotations

import contextlib
from typing import Iterator

#: Hatchet's behaviour where graphframe's default differs (see the module docs)
hatchet_compat: bool = False


@contextlib.contextmanager
def hatchet_compatible(on: bool = True) -> Iterator[None]:
    """Set ``hatchet_compat`` to ``on`` for a ``with`` block, then restore what it was.

    Examples
    --------
    >>> from graphframe import GraphFrame, options
    >>> with options.hatchet_compatible():
    ...     gf = GraphFrame.from_lists(("main", "solve"))
    >>> str(gf.dataframe["name"].dtype)
    'object'
    >>> str(GraphFrame.from_lists(("main", "solve")).dataframe["name"].dtype)
    'text'
    """
    global hatchet_compat
    saved = hatchet_compat
    hatchet_compat = bool(on)
    try:
        yield
    finally:
        hatchet_compat = saved
