"""timemory tree JSON (``format="timemory"``).

``read_timemory(path, directory or stream)`` reads ``*.tree.json`` files,
``parse_timemory(text, bytes or dict)`` decodes a document in memory. See
``docs/readers/timemory.md``.

Examples
--------
>>> from graphframe_readers.timemory import parse_timemory
>>> node = {"node": {"hash": 1, "prefix": "main", "tid": [0], "pid": [7],
...         "inclusive": {"entry": {"laps": 1}, "stats": {"sum": 2.0}},
...         "exclusive": {"entry": {"laps": 1}, "stats": {"sum": 2.0}}}, "children": []}
>>> raw = parse_timemory({"timemory": {"wall_clock": {"graph": [[node]]}}})
>>> raw.nodes["name"].tolist(), raw.metrics["sum.wall_clock"].tolist()
(['main'], [2.0])
"""

from .reader import parse_region, parse_timemory, read_timemory

__all__ = ["parse_region", "parse_timemory", "read_timemory"]
