"""The list ``Graph.roots`` returns for a graph built from arrays: it refuses changes.

Hatchet's ``graph.roots`` is the graph's own list, so appending a node adds a
root. A graph built from arrays is immutable (dataframes refer to its ids): a
change to the list it hands out would be silently lost, so it raises
:class:`~graphframe.errors.ImmutableGraphError` instead.
"""

from __future__ import annotations

from typing import Any, NoReturn

from ..errors import ImmutableGraphError

_MESSAGE = ("the roots of a graph built from arrays cannot be changed: build a new graph "
            "(Graph.from_lists, Graph(roots) over Node(Frame(...)) objects, or "
            "graphframe.Graph.build)")


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise ImmutableGraphError(_MESSAGE)


class RootList(list):
    """A list of root nodes that raises on every change (copy it with ``list(...)``).

    Examples
    --------
    >>> roots = RootList([1, 2])
    >>> list(roots) + [3]
    [1, 2, 3]
    >>> roots.append(3)
    Traceback (most recent call last):
    ...
    graphframe.errors.ImmutableGraphError: the roots of a graph built from arrays cannot be changed: build a new graph (Graph.from_lists, Graph(roots) over Node(Frame(...)) objects, or graphframe.Graph.build)
    """

    __slots__ = ()

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> Any:
        return (list, (list(self),))
