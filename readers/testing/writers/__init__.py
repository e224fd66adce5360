"""Writers that turn a RawProfile into files of the formats the readers read.

One module per format, named after it (hyphens become underscores) and
defining ``write_<format>(raw, path)``; ``python -m benchmarks.generate``
finds them by that name. They make test and benchmark inputs of any size.

Trace writers take events, not a RawProfile, and define no ``write_<format>``
(so the profile generator skips them): :mod:`.dumpi` (``DumpiWriter``, SST
DUMPI rank files; used by ``benchmarks/traces_generate.py`` and the trace
tests). The Chrome writer is a library feature (``TraceFrame.to_chrome``) and
stays in :mod:`graphframe_readers.traces.chrome.writer`.
"""
