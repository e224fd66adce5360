"""pyinstrument JSON (rendered trees and saved sessions): ``from_pyinstrument``, issue 6.

What every constructor does is described in :mod:`graphframe.io.constructors`.
"""

from __future__ import annotations

from typing import Any


class PyinstrumentConstructors:
    """``from_pyinstrument`` for GraphFrame."""

    @classmethod
    def from_pyinstrument(cls, filename: Any) -> Any:
        """Read pyinstrument JSON: ``pyinstrument -r json`` or a saved session.

        Parameters
        ----------
        filename : str or path-like
            A rendered tree (``root_frame``) or a session (``-r session``,
            ``.pyisession``: ``frame_records``), pyinstrument 3 to 5.

        Returns
        -------
        GraphFrame
            A call tree: ``time`` (exclusive seconds), ``time (inc)``, source
            location columns. No depth limit. See
            ``docs/readers/pyinstrument.md``.

        Examples
        --------
        >>> import json, os, tempfile
        >>> frames = ["main\\x00app.py\\x001", "work\\x00app.py\\x009"]
        >>> session = {"duration": 1.0, "start_call_stack": [frames[0]],
        ...            "frame_records": [[frames, 0.75], [frames[:1], 0.25]]}
        >>> p = os.path.join(tempfile.mkdtemp(), "run.pyisession")
        >>> with open(p, "w") as f:
        ...     json.dump(session, f)
        >>> from graphframe import GraphFrame
        >>> GraphFrame.from_pyinstrument(p).dataframe[["name", "time", "time (inc)"]]
                                              name  time  time (inc)
        node
        {'name': 'main', 'type': 'function'}  main  0.25        1.00
        {'name': 'work', 'type': 'function'}  work  0.75        0.75
        """
        from graphframe_readers.pyinstrument import read_pyinstrument  # on first use: fast start
        return cls.from_raw(read_pyinstrument(filename))
