"""GNU gprof's text output (``format="gprof"``).

``read_gprof(path or stream)`` reads a file, ``parse_gprof(text or bytes)``
decodes one in memory. Modules: ``text`` (the sections and their tables, one
regular expression per table), ``reader`` (the call graph and its columns, the
sniff). See ``docs/readers/gprof.md``.

Examples
--------
>>> from graphframe_readers.gprof import parse_gprof
>>> raw = parse_gprof("Flat profile:\\n\\nEach sample counts as 0.01 seconds.\\n"
...                   "  %   cumulative   self              self     total\\n"
...                   " time   seconds   seconds    calls  ms/call  ms/call  name\\n"
...                   " 75.00      0.03     0.03        2    15.00    15.00  work\\n"
...                   " 25.00      0.04     0.01        1    10.00    40.00  main\\n")
>>> raw.metrics[["name", "time (inc)", "time", "calls"]].values.tolist()
[['work', 0.03, 0.03, 2.0], ['main', 0.04, 0.01, 1.0]]
"""

from .reader import parse_gprof, read_gprof

__all__ = ["parse_gprof", "read_gprof"]
