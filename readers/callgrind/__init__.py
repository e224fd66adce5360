"""Callgrind and cachegrind profiles (``format="callgrind"``).

``read_callgrind(path, stream or list of paths)`` reads a file (or the files of
one run), ``parse_callgrind(bytes)`` decodes one in memory. Modules: ``reader``
(files to a profile, the checks, the sniff), ``specs`` (the specification
lines: header, name compression, calls), ``costs`` (cost lines added up a
block at a time), ``lines`` (vectorised line and token decoding),
``callgraph`` (nodes, inclusive costs, callers). See ``docs/readers/callgrind.md``.

Examples
--------
>>> from graphframe_readers.callgrind import parse_callgrind
>>> raw = parse_callgrind(b"events: Ir\\nfn=main\\n1 5\\ncfn=f\\ncalls=1 7\\n2 8\\nfn=f\\n7 8\\n")
>>> raw.metrics[["name", "Ir", "Ir (inc)"]].values.tolist()
[['main', 5, 13], ['f', 8, 8]]
"""

from .callgraph import caller_labels
from .reader import parse_callgrind, read_callgrind

__all__ = ["caller_labels", "parse_callgrind", "read_callgrind"]
