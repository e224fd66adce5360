"""mprof-report's text report, written from the section tables of :mod:`.summary`.

:func:`report_lines` yields the lines of the report (the default sections
in mprof-report's order, or those named in ``sections``), in the same
layout, so the two can be read side by side. Ties in sorted tables are
ordered by name here (mprof-report leaves them in hash order).

Examples
--------
>>> from graphframe_readers.testing.writers.mlpd import MlpdWriter
>>> from graphframe_readers.traces.sources import MemorySource
>>> from .handler import run
>>> from .model import ModelBuilder
>>> w = MlpdWriter()
>>> w.buffer(thread=1, events=[w.throw(1, 0x1000), w.clause(2, 0, 0, 0x700, 0x1000)])
>>> m = run(MemorySource(w.getvalue()), ModelBuilder())
>>> print("\\n".join(report_lines(m, ["exception"])))
<BLANKLINE>
Exception summary
	Throws: 1
	Executed catch clauses: 1
"""

from __future__ import annotations

from typing import Iterator, Optional, Sequence

from . import summary as S
from .model import MonoModel

#: mprof-report's default sections, in its order
SECTIONS = ("header", "jit", "gc", "sample", "alloc", "call", "metadata", "exception",
            "monitor", "thread", "domain", "context", "heapshot", "counters")


def report_lines(model: MonoModel, sections: Optional[Sequence[str]] = None, *,
                 method_sort: str = "total", alloc_sort: str = "bytes",
                 verbose: bool = False) -> Iterator[str]:
    """The report's lines (see the module docs)."""
    for section in sections or SECTIONS:
        if section not in SECTIONS:
            raise ValueError(f"unknown report section {section!r}; known: "
                             + ", ".join(SECTIONS))
        yield from _WRITERS[section](model, method_sort=method_sort, alloc_sort=alloc_sort,
                                     verbose=verbose)


def _header(m: MonoModel, **_) -> Iterator[str]:
    h = S.header(m)
    if not h:
        return
    yield ""
    yield "Mono log profiler data"
    yield f"\tProfiler version: {h['profiler_version']}"
    yield f"\tData version: {h['data_version']}"
    yield f"\tArguments: {h['arguments']}"
    yield f"\tArchitecture: {h['architecture']}"
    yield f"\tOperating system: {h['os']}"
    yield f"\tMean timer overhead: {h['timer_overhead_ns']} nanoseconds"
    yield f"\tProgram startup: {h['startup']}"
    if h["pid"]:
        yield f"\tProgram ID: {h['pid']}"
    if h["port"]:
        yield f"\tServer listening on: {h['port']}"


def _section(title: str, *items: tuple) -> Iterator[str]:
    """A blank line, the section's title and its ``\tlabel: value`` lines."""
    yield ""
    yield title
    for label, value in items:
        yield f"\t{label}: {value}"


def _jit(m: MonoModel, **_) -> Iterator[str]:
    j = S.jit(m)
    yield from _section("JIT summary", ("Compiled methods", j["compiled_methods"]),
                        ("Generated code size", j["code_size"]),
                        ("JIT helpers", j["jit_helpers"]),
                        ("JIT helpers code size", j["jit_helpers_code_size"]))


def _gc(m: MonoModel, **_) -> Iterator[str]:
    g = S.gc(m)
    yield from _section("GC summary", ("GC resizes", g["resizes"]),
                        ("Max heap size", g["max_heap_size"]),
                        ("Object moves", g["object_moves"]))
    for r in g["generations"].itertuples():
        yield (f"\tGen{r.generation} collections: {r.collections}, max time: {r.max_us}us, "
               f"total time: {r.total_us}us, average: {r.average_us}us")
    for r in g["handles"].itertuples():
        if r.handle_type == "pinned":
            continue
        yield (f"\tGC handles {r.handle_type}: created: {r.created}, destroyed: "
               f"{r.destroyed}, max: {r.max_live}")


def _sample(m: MonoModel, verbose: bool = False, **_) -> Iterator[str]:
    s = S.samples(m)
    total = s["total"]
    if not total:
        return
    yield ""
    yield "Statistical samples summary"
    yield f"\tSample type: {s['sample_type']}"
    for label, key in (("Unmanaged hits:  ", "unmanaged"), ("Managed hits:    ", "managed"),
                       ("Unresolved hits: ", "unresolved")):
        yield f"\t{label}{s[key]:6d} ({100.0 * s[key] / total:4.1f}%)"
    yield f"\t{'Hits':>6s} {'%':>6s} Method name"
    for r in s["hits"].itertuples():
        if not verbose and r.percent < 0.1:
            break
        if r.binary:
            yield f"\t{r.hits:6d} {r.percent:6.2f} {r.name:<36s} in {r.binary}"
        else:
            yield f"\t{r.hits:6d} {r.percent:6.2f} {r.name}"


def _alloc(m: MonoModel, alloc_sort: str = "bytes", **_) -> Iterator[str]:
    df = S.allocations(m, alloc_sort)
    if not len(df):
        return
    yield ""
    yield "Allocation summary"
    yield f"{'Bytes':>10s} {'Count':>10s} {'Average':>8s} Type name"
    for r in df.itertuples():
        yield f"{r.bytes:10d} {r.count:10d} {r.average:8d} {r._1}"
    yield (f"Total memory allocated: {int(df['bytes'].sum())} bytes in "
           f"{int(df['count'].sum())} objects")


def _call(m: MonoModel, method_sort: str = "total", verbose: bool = False,
          **_) -> Iterator[str]:
    df = S.methods(m, method_sort)
    shown = df if verbose else df[df["total_ms"] > 0]
    if len(shown):
        yield ""
        yield "Method call summary"
        yield f"{'Total(ms)':>8s} {'Self(ms)':>8s} {'Calls':>10s} Method name"
        for r in shown.itertuples():
            yield f"{r.total_ms:8d} {r.self_ms:8d} {r.calls:10d} {r.method}"
    if len(df):
        yield f"Total calls: {int(df['calls'].sum())}"


def _metadata(m: MonoModel, **_) -> Iterator[str]:
    d = S.metadata(m)
    yield from _section("Metadata summary", ("Loaded images", d["images"]),
                        ("Loaded assemblies", d["assemblies"]))


def _exception(m: MonoModel, **_) -> Iterator[str]:
    e = S.exceptions(m)
    yield from _section("Exception summary", ("Throws", e["throws"]),
                        *((f"Executed {r.clause} clauses", r.count)
                          for r in e["clauses"].itertuples()))


def _monitor(m: MonoModel, **_) -> Iterator[str]:
    d = S.monitors(m)
    if not len(d["locks"]):
        return
    yield ""
    yield "Monitor lock summary"
    for r in d["locks"].itertuples():
        yield f"\tLock object {r.object}: {r.contentions} contentions"
        avg = r.average_wait_s if r.contentions else float("nan")
        yield f"\t\t{r.wait_s:.6f} secs total wait time, {r.max_wait_s:.6f} max, {avg:.6f} average"
    yield f"\tLock contentions: {d['contentions']}"
    yield f"\tLock acquired: {d['acquired']}"
    yield f"\tLock failures: {d['failures']}"


def _thread(m: MonoModel, **_) -> Iterator[str]:
    yield ""
    yield "Thread summary"
    for r in S.threads(m).itertuples():
        yield f'\tThread: {r.thread}, name: "{r.name}"'


def _domain(m: MonoModel, **_) -> Iterator[str]:
    yield ""
    yield "Domain summary"
    for r in S.domains(m).itertuples():
        name = r.friendly_name if r.friendly_name is not None else "(null)"
        yield f'\tDomain: {r.domain}, friendly name: "{name}"'


def _context(m: MonoModel, **_) -> Iterator[str]:
    yield ""
    yield "Context summary"
    for r in S.contexts(m).itertuples():
        yield f"\tContext: {r.context}, domain: {r.domain}"


def _heapshot(m: MonoModel, alloc_sort: str = "bytes", verbose: bool = False,
              **_) -> Iterator[str]:
    df = S.heapshots(m, alloc_sort)
    if not m.heapshots:
        return
    yield ""
    yield "Heap shot summary"
    for number, rows in df.groupby("heapshot", sort=True):
        yield ""
        yield (f"\tHeap shot {number} at {rows['time_s'].iloc[0]:.3f} secs: size: "
               f"{int(rows['bytes'].sum())}, object count: {int(rows['count'].sum())}, "
               f"class count: {len(rows)}, roots: 0")
        yield f"\t{'Bytes':>10s} {'Count':>10s} {'Average':>8s} Class name"
        for r in (rows if verbose else rows.head(30)).itertuples():
            line = f"\t{r.bytes:10d} {r.count:10d} {r.average:8d} {r._3}"
            if r.bytes_diff == r.bytes_diff and r.bytes_diff is not None:
                line += f" (bytes: {int(r.bytes_diff):+d}, count: {int(r.count_diff):+d})"
            yield line


def _counters(m: MonoModel, **_) -> Iterator[str]:
    df = S.counters(m)
    yield ""
    yield "Counters:"
    for section, rows in df.groupby("section", sort=False):
        printed = False
        for r in rows.itertuples():
            if r.name not in S.REPORTED_COUNTERS or r.samples == 0:
                continue
            if not printed:
                yield f"\t{section}:"
                printed = True
            yield f"\t\t{r.name:<30s} : {r.shown}"


_WRITERS = {"header": _header, "jit": _jit, "gc": _gc, "sample": _sample, "alloc": _alloc,
            "call": _call, "metadata": _metadata, "exception": _exception,
            "monitor": _monitor, "thread": _thread, "domain": _domain, "context": _context,
            "heapshot": _heapshot, "counters": _counters}
