"""pyinstrument JSON: rendered trees (``-r json``) and saved sessions (``format="pyinstrument"``).

``read_pyinstrument(path or stream)`` reads a file, ``parse_pyinstrument(text,
bytes or dict)`` decodes a document in memory; ``reader`` walks trees,
``session`` rebuilds the tree of a session's sampled stacks. See
``docs/readers/pyinstrument.md``.

Examples
--------
>>> from graphframe_readers.pyinstrument import parse_pyinstrument
>>> doc = '{"root_frame": {"function": "main", "file_path_short": "app.py", "line_no": 1, "time": 1.0}}'
>>> parse_pyinstrument(doc).metrics[["time", "time (inc)"]].values.tolist()
[[1.0, 1.0]]
"""

from .reader import parse_pyinstrument, read_pyinstrument

__all__ = ["parse_pyinstrument", "read_pyinstrument"]
