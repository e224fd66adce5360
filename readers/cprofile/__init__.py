"""pstats files written by Python's cProfile/profile modules (``format="cprofile"``).

``read_cprofile(path or binary stream)`` reads a file, ``parse_cprofile(bytes)``
decodes its content (``marshal_check`` validates the marshal data before
``marshal.loads`` sees it). See ``docs/readers/cprofile.md``.

Examples
--------
>>> import marshal
>>> from graphframe_readers.cprofile import parse_cprofile
>>> raw = parse_cprofile(marshal.dumps({("app.py", 3, "work"): (2, 5, 0.5, 0.75, {})}))
>>> raw.nodes["name"].tolist(), raw.metrics[["time", "time (inc)"]].values.tolist()
(['work'], [[0.5, 0.75]])
"""

from .reader import parse_cprofile, parse_pstats_bytes, parse_stats, read_cprofile

__all__ = ["parse_cprofile", "parse_pstats_bytes", "parse_stats", "read_cprofile"]
