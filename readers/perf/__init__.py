"""Linux perf samples as text, ``perf script`` output (``format="perf-script"``).

``read_perf_script(path or stream)`` reads a file, ``parse_perf_script(bytes)``
decodes one in memory. Modules: ``script`` (which lines are sample headers and
frames, and their fields), ``reader`` (the calling-context tree and its columns,
the sniff). See ``docs/readers/perf.md``.

Examples
--------
>>> from graphframe_readers.perf import parse_perf_script
>>> raw = parse_perf_script(b"app 9  0.5:  10 cycles: \\n\\t  40 main+0x4 (/bin/app)\\n\\n")
>>> raw.metrics[["name", "cycles", "cycles period"]].values.tolist()
[['app', 0, 0], ['main', 1, 10]]
"""

from .reader import parse_perf_script, read_perf_script

__all__ = ["parse_perf_script", "read_perf_script"]
