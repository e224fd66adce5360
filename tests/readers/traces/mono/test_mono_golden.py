"""Every line of mprof-report's sections, for every real Mono log, against our tables.

The golden reports are parsed on their own (``mprof_text``); rows that
mprof-report sorts are compared as multisets (it leaves ties in hash order),
and our tables are checked to be sorted the same way.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from graphframe_readers.traces.mono import summary as S
from graphframe_readers.traces.mono.handler import run
from graphframe_readers.traces.mono.model import ModelBuilder
from graphframe_readers.traces.sources import FileSource
from tests.corpus import SHARED_DATA
from tests.readers.traces.mono.mprof_text import parse_report

FOLDERS = ("mono-mlpd", "mono-mlpd-extra")


def _files():
    out = []
    for folder in FOLDERS:
        base = SHARED_DATA / "traces" / folder / "mlpd"
        if base.is_dir():
            out += [f"{folder}/{p.name}" for p in sorted(base.iterdir())]
    return out


def _stem(name: str) -> str:
    return name.split("/")[-1].replace(".gz", "").replace(".mlpd", "")


_MODELS = {}


def model_of(rel: str):
    if rel not in _MODELS:
        folder, name = rel.split("/")
        _MODELS[rel] = run(FileSource(SHARED_DATA / "traces" / folder / "mlpd" / name),
                           ModelBuilder(traces=False))
    return _MODELS[rel]


def golden_of(rel: str):
    folder, name = rel.split("/")
    path = SHARED_DATA / "traces" / folder / "golden" / f"{_stem(name)}.report.txt"
    return parse_report(path.read_text())


@pytest.fixture(params=_files())
def case(request, shared_data):
    return model_of(request.param), golden_of(request.param)


def test_header(case):
    m, g = case
    h = S.header(m)
    gh = g["header"]
    assert gh["Profiler version"] == h["profiler_version"]
    assert int(gh["Data version"]) == h["data_version"]
    assert gh["Arguments"] == h["arguments"]
    assert gh["Architecture"] == h["architecture"]
    assert gh["Operating system"] == h["os"]
    assert gh["Mean timer overhead"] == f"{h['timer_overhead_ns']} nanoseconds"
    assert gh["Program startup"] == h["startup"]
    assert int(gh["Program ID"]) == h["pid"]
    assert int(gh.get("Server listening on", 0)) == h["port"]


def test_jit(case):
    m, g = case
    j = S.jit(m)
    assert g["jit"] == {"Compiled methods": j["compiled_methods"],
                        "Generated code size": j["code_size"],
                        "JIT helpers": j["jit_helpers"],
                        "JIT helpers code size": j["jit_helpers_code_size"]}


def test_gc(case):
    m, g = case
    ours = S.gc(m)
    gg = g["gc"]
    assert (gg["GC resizes"], gg["Max heap size"], gg["Object moves"]) == \
        (ours["resizes"], ours["max_heap_size"], ours["object_moves"])
    assert gg["gens"] == [tuple(int(x) for x in r) for r in ours["generations"][
        ["generation", "collections", "max_us", "total_us", "average_us"]].values.tolist()]
    handles = ours["handles"]
    assert gg["handles"] == [tuple(r) for r in handles[handles.handle_type != "pinned"]
                             .values.tolist()]


def test_allocations(case):
    m, g = case
    ours = S.allocations(m)
    if "alloc" not in g:
        assert ours.empty
        return
    rows = [tuple(r) for r in ours[["class", "bytes", "count", "average"]].values.tolist()]
    assert Counter(rows) == Counter(g["alloc"]["rows"])
    assert list(ours["bytes"]) == sorted(ours["bytes"], reverse=True)
    assert g["alloc"]["total"] == (int(ours["bytes"].sum()), int(ours["count"].sum()))


def test_methods(case):
    m, g = case
    ours = S.methods(m)
    if "calls" not in g:
        assert ours.empty
        return
    shown = ours[ours["total_ms"] > 0]
    rows = [(r.method, r.total_ms, r.self_ms, r.calls) for r in shown.itertuples()]
    assert Counter(rows) == Counter(g["calls"]["rows"])
    assert list(ours["total"]) == sorted(ours["total"], reverse=True)
    assert g["calls"]["total"] == int(ours["calls"].sum())


def test_unmatched_leaves(case):
    m, g = case
    assert m.unmatched_leaves == len(g["unmatched"])
    assert [(str(d), m.method_name(meth)) for d, meth in m.unmatched] == \
        [tuple(u) for u in g["unmatched"]]


def test_samples(case):
    m, g = case
    s = S.samples(m)
    if "samples" not in g:
        assert s["total"] == 0
        return
    gs = g["samples"]
    assert (gs["type"], gs["unmanaged"], gs["managed"], gs["unresolved"]) == \
        (s["sample_type"], s["unmanaged"], s["managed"], s["unresolved"])
    shown = s["hits"][s["hits"]["percent"] >= 0.1]
    rows = [(r.name, r.hits, f"{r.percent:.2f}", r.binary) for r in shown.itertuples()]
    assert Counter(rows) == Counter(gs["rows"])


def test_metadata_and_exceptions(case):
    m, g = case
    md = S.metadata(m)
    assert g["metadata"] == {"Loaded images": md["images"], "Loaded assemblies": md["assemblies"]}
    e = S.exceptions(m)
    assert g["exceptions"]["throws"] == e["throws"]
    assert g["exceptions"]["clauses"] == dict(e["clauses"].values.tolist())


def test_monitors(case):
    m, g = case
    mon = S.monitors(m)
    if "monitors" not in g:
        assert mon["locks"].empty
        return
    gm = g["monitors"]
    rows = [(r.object, r.contentions, f"{r.wait_s:.6f}", f"{r.max_wait_s:.6f}",
             f"{r.average_wait_s:.6f}") for r in mon["locks"].itertuples()]
    assert Counter(rows) == Counter(gm["locks"])
    assert (gm["Lock contentions"], gm["Lock acquired"], gm["Lock failures"]) == \
        (mon["contentions"], mon["acquired"], mon["failures"])


def test_threads_domains_contexts(case):
    m, g = case
    assert g["threads"] == [tuple(r) for r in S.threads(m).values.tolist()]
    assert g["domains"] == [(d, n if n is not None else "(null)")
                            for d, n in S.domains(m).values.tolist()]
    assert g.get("contexts", []) == [tuple(r) for r in S.contexts(m).values.tolist()]


def test_heapshots(case):
    m, g = case
    df = S.heapshots(m)
    shots = g.get("heapshots", [])
    assert len(shots) == len(m.heapshots)
    for number, shot in enumerate(shots):
        rows = df[df["heapshot"] == number]
        assert shot["size"] == int(rows["bytes"].sum())
        assert shot["objects"] == int(rows["count"].sum())
        assert shot["classes"] == len(rows)
        assert shot["time"] == f"{rows['time_s'].iloc[0]:.3f}"
        ours = [(r._3, r.bytes, r.count, r.average,
                 None if r.bytes_diff != r.bytes_diff or r.bytes_diff is None
                 else (int(r.bytes_diff), int(r.count_diff))) for r in rows.itertuples()]
        cut = min(b for _, b, _, _, _ in shot["rows"])
        # mprof-report shows the first 30; rows tied at the cut may differ between the two
        assert Counter(r for r in ours if r[1] > cut) == \
            Counter(r for r in shot["rows"] if r[1] > cut)
        assert set(r for r in shot["rows"] if r[1] == cut) <= set(ours)


def test_counters(case):
    m, g = case
    df = S.counters(m)
    ours = [(r.section, r.name, r.shown) for r in df.itertuples()
            if r.name in S.REPORTED_COUNTERS and r.samples]
    # mprof-report prints sections in order of the first description of each
    order = list(dict.fromkeys(df["section"]))
    ours.sort(key=lambda r: order.index(r[0]))
    assert g.get("counters", []) == ours


def test_every_real_file_is_covered(shared_data):
    names = [_stem(f) for f in _files()]
    assert {"calls_alloc", "sample", "default"} <= set(names)
    for rel in _files():
        folder, name = rel.split("/")
        assert (Path(SHARED_DATA) / "traces" / folder / "golden" /
                f"{_stem(name)}.report.txt").is_file()


def test_allocation_paths_equal_mprof_report_traces(shared_data):
    """``mprof-report --traces --maxframes=8``: bytes per class and call path; a calls log's
    allocations have no backtrace, their path is the emulated stack's innermost 8 frames."""
    from tests.readers.traces.mono.mprof_text import parse_alloc_traces
    base = SHARED_DATA / "traces" / "mono-mlpd"
    golden = parse_alloc_traces((base / "golden" / "calls_alloc.traces.report.txt").read_text())
    model = run(FileSource(base / "mlpd" / "calls_alloc.mlpd"), ModelBuilder(tree=True))
    table = S.allocation_traces(model, max_frames=8)
    ours = {}
    for r in table[table["backtrace"] != ""].itertuples():
        key = (r._1, tuple(r.backtrace.split(" > ")))
        ours[key] = ours.get(key, 0) + r.bytes
    assert ours == golden


def test_method_calling_paths_equal_mprof_report_traces(shared_data):
    """``--traces --maxframes=8``: calls per method and caller path, for the methods
    mprof-report lists (those with a total of 1 ms or more)."""
    from tests.readers.traces.mono.mprof_text import parse_method_traces
    base = SHARED_DATA / "traces" / "mono-mlpd"
    golden = parse_method_traces((base / "golden" / "calls_alloc.traces.report.txt").read_text())
    model = run(FileSource(base / "mlpd" / "calls_alloc.mlpd"), ModelBuilder(tree=True))
    ours = {}
    for r in S.method_traces(model, max_frames=8, min_total=1_000_000).itertuples():
        if r.backtrace:
            key = (r.method, tuple(r.backtrace.split(" > ")))
            ours[key] = ours.get(key, 0) + r.calls
    assert ours == golden


@pytest.mark.parametrize("name", ["calls_alloc", "sample"])
def test_throw_paths_equal_mprof_report_traces(name, shared_data):
    """``--traces --maxframes=8``: throws per call path; the first 8 frames of a throw's
    backtrace (sample), or the emulated stack of a throw logged without one (calls)."""
    from tests.readers.traces.mono.mprof_text import parse_throw_traces
    base = SHARED_DATA / "traces" / "mono-mlpd"
    golden = parse_throw_traces((base / "golden" / f"{name}.traces.report.txt").read_text())
    model = run(FileSource(base / "mlpd" / f"{name}.mlpd"), ModelBuilder(tree=True))
    table = S.throw_traces(model, max_frames=8)
    ours = {tuple(r.backtrace.split(" > ")): r.throws for r in table.itertuples()
            if r.backtrace}
    assert ours == golden
