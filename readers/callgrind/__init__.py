"""Callgrind and cachegrind profiles (``format="callgrind"``).

``read_callgrind(path or stream)`` reads a file, ``parse_callgrind(bytes)``
decodes one in memory. Modules: ``reader`` (the call graph and its columns,
the sniff), ``specs`` (the specification lines: header, name compression,
calls), ``lines`` (vectorised line splitting and cost-line decoding). See
``docs/readers/callgrind.md``.

Examples
--------
>>> from graphframe_readers.callgrind import parse_callgrind
>>> raw = parse_callgrind(b"events: Ir\\nfn=main\\n1 5\\ncfn=f\\ncalls=1 7\\n2 8\\nfn=f\\n7 8\\n")
>>> raw.metrics[["name", "Ir", "Ir (inc)"]].values.tolist()
[['main', 5, 13], ['f', 8, 8]]
"""

from .reader import caller_labels, parse_callgrind, read_callgrind

__all__ = ["caller_labels", "parse_callgrind", "read_callgrind"]
