"""timemory tree JSON: ``from_timemory``, issue 6.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence


class TimemoryConstructors:
    """``from_timemory`` for GraphFrame."""

    @classmethod
    def from_timemory(cls, input: Any, select: Optional[Sequence[str]] = None) -> Any:
        """Read timemory tree JSON.

        Parameters
        ----------
        input : str, path-like, dict or text stream
            A ``*.tree.json`` file, a directory of them (components merged),
            a document already loaded, or an open text stream.
        select : sequence of str, optional
            Keep only these components (e.g. ``["wall_clock"]``).

        Returns
        -------
        GraphFrame
            One node per call path of regions; ``sum.*`` statistics are the
            metrics (others are attributes). See ``docs/readers/timemory.md``.

        Examples
        --------
        >>> node = lambda p, s, kids: {"node": {"hash": 1, "prefix": p, "tid": [0], "pid": [7],
        ...     "inclusive": {"entry": {"laps": 1}, "stats": {"sum": s}},
        ...     "exclusive": {"entry": {"laps": 1}, "stats": {"sum": s / 2}}}, "children": kids}
        >>> doc = {"timemory": {"wall_clock": {"graph": [[node("main", 2.0, [node("io", 1.0, [])])]]}}}
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_timemory(doc).dataframe[["name", "sum.wall_clock", "sum.wall_clock (inc)"]]
                                            name  sum.wall_clock  sum.wall_clock (inc)
        node
        {'name': 'main', 'type': 'region'}  main             1.0                   2.0
        {'name': 'io', 'type': 'region'}      io             0.5                   1.0
        """
        # on first use: fast start
        from graphframe_readers.timemory import parse_timemory, read_timemory
        chosen = None if select is None else [str(s).lower() for s in select]
        if isinstance(input, dict):
            return cls.from_raw(parse_timemory(input, "<dict>", select=chosen))
        return cls.from_raw(read_timemory(input, select=chosen))
