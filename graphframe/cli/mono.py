"""What the CLI prints for Mono log profiler files (``graphframe info`` and ``report``).

The text comes from :mod:`graphframe_readers.traces.mono.report` (mprof-report's
layout); this module only decides which sections and reads the file once.

Examples
--------
>>> import os, tempfile
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> w = MlpdWriter(args="log:calls")
>>> w.buffer(thread=1, events=[w.throw(1, 0x1000)])
>>> p = w.write(os.path.join(tempfile.mkdtemp(), "a.mlpd"))
>>> is_mono(p)
True
>>> print(mono_report(p, sections=["exception"]))
<BLANKLINE>
Exception summary
	Throws: 1
<BLANKLINE>
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from graphframe_readers.traces.mono.handler import run
from graphframe_readers.traces.mono.model import ModelBuilder
from graphframe_readers.traces.mono.report import SECTIONS, report_lines
from graphframe_readers.traces.sources import FileSource

from ..io.resolve import kind_of, resolve

#: the sections ``graphframe info`` adds for a Mono log (``report`` prints them all)
INFO_SECTIONS = ("header", "jit", "gc", "sample", "metadata", "exception", "monitor",
                 "thread", "domain", "context")


def is_mono(path: Any) -> bool:
    """True when ``path`` is a Mono log profiler file (plain or gzip)."""
    if not kind_of(path):   # not readable or unknown: the caller's own command reports it
        return False
    return resolve(path).format == "mono-mlpd"


def mono_report(path: Any, sections: Optional[Sequence[str]] = None, *,
                method_sort: str = "total", alloc_sort: str = "bytes",
                verbose: bool = False) -> str:
    """mprof-report's report of the log at ``path``."""
    model = run(FileSource(path), ModelBuilder(traces=False))
    return "\n".join(report_lines(model, sections or SECTIONS, method_sort=method_sort,
                                  alloc_sort=alloc_sort, verbose=verbose)) + "\n"


def mono_info(path: Any) -> str:
    """The header and summary sections ``graphframe info`` appends for a Mono log."""
    return ("mono log:" + mono_report(path, INFO_SECTIONS).replace("\n", "\n  ").rstrip()
            + "\n  (graphframe report PATH prints every section)\n")


def add_report_options(parser: Any) -> None:
    """The options of ``graphframe report`` that apply to Mono logs."""
    parser.add_argument("--sections", help="Mono logs: report sections, comma-separated "
                        f"(default: {','.join(SECTIONS)})")
    parser.add_argument("--method-sort", choices=("total", "self", "calls"), default="total",
                        help="Mono logs: method summary order")
    parser.add_argument("--alloc-sort", choices=("bytes", "count"), default="bytes",
                        help="Mono logs: allocation summary order")
    parser.add_argument("--verbose", action="store_true",
                        help="Mono logs: every method and sample row, every heapshot class")
