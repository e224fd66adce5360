""".cali files written by the tests themselves (see tests/caliper_text.py)."""

from typing import Dict, List, Optional, Sequence

import caliperreader
import numpy as np
import pandas as pd
import pytest

import graphframe
import graphframe_readers
from graphframe_readers.testing import random_tree_profile as random_profile
from graphframe_readers.testing import write_cali
from graphframe_readers import ReadError
from graphframe_readers.caliper.cali import decode as caliper_cali, text as caliper_calitext
from graphframe_readers.caliper import read_caliper
from graphframe_readers.caliper import UnweightedAverageWarning


# ------------------------------------------------------- a tiny .cali writer
# Bootstrap nodes (predefined by Caliper): 1 = int, 2 = uint, 3 = string,
# 5 = double; attr 8 names an attribute, attr 10 holds its property bits.
VALUE, NESTED, GLOBAL, AGGREGATABLE, HIDDEN = 1, 256, 512, 2048, 128
TYPES = {"int": 1, "uint": 2, "string": 3, "double": 5}


def esc(text: str) -> str:
    return (str(text).replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")
            .replace("\n", "\\n"))


class CaliText:
    """Accumulates records; ``attribute`` and ``node`` return the ids they defined."""

    def __init__(self) -> None:
        self.lines: List[str] = []
        self.next_id = 100
        self.alias_attr: Optional[int] = None

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def attribute(self, name: str, type_: str = "double", prop: int = VALUE,
                  alias: Optional[str] = None) -> int:
        parent = TYPES[type_]
        if alias is not None:
            if self.alias_attr is None:
                meta_prop = self._id()
                self.lines.append(f"__rec=node,id={meta_prop},attr=10,data=64,parent=3")
                self.alias_attr = self._id()
                self.lines.append(f"__rec=node,id={self.alias_attr},attr=8,"
                                  f"data=attribute.alias,parent={meta_prop}")
            alias_node = self._id()
            self.lines.append(f"__rec=node,id={alias_node},attr={self.alias_attr},"
                              f"data={esc(alias)},parent={parent}")
            parent = alias_node
        prop_node = self._id()
        self.lines.append(f"__rec=node,id={prop_node},attr=10,data={prop},parent={parent}")
        attr = self._id()
        self.lines.append(f"__rec=node,id={attr},attr=8,data={esc(name)},parent={prop_node}")
        return attr

    def node(self, attr: int, data, parent: Optional[int] = None) -> int:
        nid = self._id()
        tail = f",parent={parent}" if parent is not None else ""
        self.lines.append(f"__rec=node,id={nid},attr={attr},data={esc(data)}{tail}")
        return nid

    def path(self, attr: int, *labels: str, parent: Optional[int] = None) -> int:
        for label in labels:
            parent = self.node(attr, label, parent)
        return parent

    def ctx(self, refs: Sequence[int] = (), values: Optional[Dict[int, object]] = None) -> None:
        fields = ["__rec=ctx"]
        if refs:
            fields.append("ref=" + "=".join(str(r) for r in refs))
        if values:
            fields.append("attr=" + "=".join(str(a) for a in values))
            fields.append("data=" + "=".join(esc(v) for v in values.values()))
        self.lines.append(",".join(fields))

    def globals(self, values: Dict[str, str]) -> None:
        ref = None
        for key, value in values.items():
            attr = self.attribute(key, "string", prop=GLOBAL)
            ref = self.node(attr, value, ref)
        self.lines.append("__rec=globals" + (f",ref={ref}" if ref is not None else ""))

    def write(self, path) -> str:
        path.write_text("\n".join(self.lines) + "\n")
        return str(path)


REGION = 12 + NESTED  # nested, process scope


def names(gf):
    return [n.frame["name"] for n in gf.graph.traverse()]


def rows(gf, column):
    return gf.dataframe[column].tolist()


SPEC_EXAMPLE = """\
__rec=node,id=12,attr=10,data=268,parent=3
__rec=node,id=13,attr=8,data=region,parent=12
__rec=node,id=14,attr=10,data=21,parent=5
__rec=node,id=15,attr=8,data=sum#time.duration,parent=14
__rec=node,id=16,attr=10,data=21,parent=1
__rec=node,id=17,attr=8,data=count,parent=16
__rec=node,id=18,attr=10,data=524,parent=3
__rec=node,id=19,attr=8,data=cluster,parent=18
__rec=node,id=20,attr=13,data=main
__rec=ctx,ref=20,attr=15=17,data=1.5=1
__rec=node,id=21,attr=13,data=foo,parent=20
__rec=ctx,ref=21,attr=15=17,data=0.5=2
__rec=node,id=22,attr=13,data=bar,parent=20
__rec=ctx,ref=22,attr=15=17,data=0.25=4
__rec=node,id=23,attr=19,data=quartz
__rec=globals,ref=23
"""


def test_spec_minimal_file(tmp_path):
    path = tmp_path / "min.cali"
    path.write_text(SPEC_EXAMPLE)
    assert graphframe_readers.sniff(path) == "caliper"
    gf = graphframe.GraphFrame.from_caliperreader(str(path))
    assert names(gf) == ["main", "foo", "bar"]  # Hatchet's creation (first-seen) order
    assert [n.frame["type"] for n in gf.graph.traverse()] == ["function"] * 3
    df = gf.dataframe
    assert list(df.columns) == ["nid", "time", "count", "name"]
    assert rows(gf, "time") == [1.5, 0.5, 0.25] and rows(gf, "count") == [1, 2, 4]
    assert df["count"].dtype == np.int64  # Caliper type int
    # Hatchet's ids: first-seen order, after the one Hatchet spends on main's root entry
    assert rows(gf, "nid") == [1, 2, 3]
    unordered = graphframe.GraphFrame.from_caliperreader(str(path), node_ordering=False)
    assert names(unordered) == ["main", "bar", "foo"] and not unordered.graph.ordered
    assert rows(unordered, "nid") == [1, 3, 2]
    assert (gf.exc_metrics, gf.inc_metrics, gf.default_metric) == (["time", "count"], [], "time")
    assert gf.metadata["cluster"] == "quartz" and gf.metadata["format"] == "caliper"


def test_crlf_line_ends_and_blank_lines(tmp_path):
    plain, crlf = tmp_path / "lf.cali", tmp_path / "crlf.cali"
    plain.write_text(SPEC_EXAMPLE)
    crlf.write_bytes(SPEC_EXAMPLE.replace("\n", "\r\n\n").encode())
    a, b = read_caliper(str(plain)), read_caliper(str(crlf))
    for name in ("nodes", "metrics", "node_columns"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))


def multi_rank(tmp_path, order=False):
    """main (ranks 0, 1) -> foo (rank 0), bar -> baz (rank 1); bar has no record."""
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    rank = c.attribute("mpi.rank", "int", VALUE)
    time = c.attribute("sum#time.duration", alias="time")
    slot = c.attribute("min#min#aggregate.slot", "uint", VALUE, alias="Node order")
    main = c.path(region, "main")
    foo = c.path(region, "foo", parent=main)
    baz = c.path(region, "bar", "baz", parent=main)
    for ref, r, t, o in [(main, 0, 1.0, 1), (main, 1, 2.0, 1), (baz, 1, 4.0, 2), (foo, 0, 3.0, 3)]:
        values = {rank: r, time: t}
        if order:
            values[slot] = o
        c.ctx([ref], values)
    c.globals({"mpi.world.size": "2"})
    return c.write(tmp_path / "ranks.cali")


def test_one_row_per_node_and_rank(tmp_path):
    gf = graphframe.GraphFrame.from_caliperreader(multi_rank(tmp_path))
    df = gf.dataframe
    assert names(gf) == ["main", "bar", "baz", "foo"]
    # Hatchet registers a one-element path twice and adds an all-zero row per rank for
    # "main" (duplicate index entries), and gives "bar" (no record of its own) no row in
    # files without mpi.rank. Here every (node, rank) has exactly one row.
    assert df.index.tolist() == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
    assert rows(gf, "time") == [1.0, 2.0, 0.0, 0.0, 0.0, 4.0, 3.0, 0.0]
    assert gf.metadata["mpi.world.size"] == 2
    assert gf.exc_metrics == ["time"] and "rank" not in df.columns


def test_node_order(tmp_path):
    path = multi_rank(tmp_path, order=True)
    assert names(graphframe.GraphFrame.from_caliperreader(path)) == ["main", "bar", "baz", "foo"]
    # bar has no record: it takes its first-seen descendant's order (baz, 2) < foo (3)
    raw = read_caliper(path)
    assert raw.ordered and "Node order" not in raw.metrics.columns
    unordered = read_caliper(path, node_ordering=False)
    assert not unordered.ordered


def test_node_order_beats_frame_order(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    slot = c.attribute("aggregate.slot", "uint", VALUE)
    time = c.attribute("sum#time.duration")
    main = c.path(region, "main")
    for label, order in [("zeta", 2), ("alpha", 3), ("mid", 1)]:
        c.ctx([c.path(region, label, parent=main)], {time: 1.0, slot: order})
    path = c.write(tmp_path / "o.cali")
    assert names(graphframe.GraphFrame.from_caliperreader(path)) == ["main", "mid", "zeta", "alpha"]
    assert names(graphframe.GraphFrame.from_caliperreader(path, node_ordering=False)) == \
        ["main", "alpha", "mid", "zeta"]


def test_inclusive_and_string_attributes(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    minimum = c.attribute("min#inclusive#sum#time.duration", alias="Min time/rank")
    phase = c.attribute("phase", "string", VALUE)
    channel = c.attribute("spot.channel", "string", 12)
    kept = c.node(channel, "regionprofile")
    other = c.node(channel, "timeseries")
    main = c.path(region, "main")
    sub = c.path(region, "sub", parent=main)
    c.ctx([main, kept], {minimum: 3.0, phase: "init"})
    c.ctx([sub, kept], {minimum: 1.0, phase: "solve"})
    c.ctx([sub, other], {minimum: 99.0})  # another Spot channel: not this profile
    path = c.write(tmp_path / "spot.cali")
    gf = graphframe.GraphFrame.from_caliperreader(path)
    # min#inclusive#... is inclusive even though its alias does not say so (Hatchet
    # declares "Min time/rank" exclusive and would sum it again in inclusive sums)
    assert (gf.exc_metrics, gf.inc_metrics) == ([], ["Min time/rank"])
    assert list(gf.dataframe.columns) == ["nid", "spot.channel", "Min time/rank", "name"]
    assert rows(gf, "Min time/rank") == [3.0, 1.0]
    gf = graphframe.GraphFrame.from_caliperreader(path, string_attributes="phase")
    assert rows(gf, "phase") == ["init", "solve"]
    gf = graphframe.GraphFrame.from_caliperreader(path, native=True)
    assert gf.inc_metrics == ["min#inclusive#sum#time.duration"]


def test_event_trace_aggregates_to_a_profile(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    rank = c.attribute("mpi.rank", "int", VALUE)
    offset = c.attribute("time.offset.ns", "uint", VALUE)
    duration = c.attribute("time.duration.ns", "uint", VALUE + AGGREGATABLE)
    begin = c.attribute("event.begin#region", "string", 12)
    main = c.path(region, "main")
    work = c.path(region, "work", parent=main)
    c.ctx([c.node(begin, "main")], {rank: 0, offset: 10, duration: 10})  # before main: no path
    c.ctx([c.node(begin, "work", main)], {rank: 0, offset: 30, duration: 20})
    c.ctx([work], {rank: 0, offset: 100, duration: 70})
    c.ctx([main], {rank: 0, offset: 105, duration: 5})
    c.ctx([c.node(begin, "work", main)], {rank: 0, offset: 110, duration: 5})
    c.ctx([work], {rank: 0, offset: 150, duration: 40})
    c.ctx([c.node(begin, "main")], {rank: 0, offset: 200})  # no path and no metric value
    path = c.write(tmp_path / "trace.cali")
    gf = graphframe.GraphFrame.from_caliperreader(path)  # no_path="drop", as Hatchet
    assert names(gf) == ["main", "work"]
    assert rows(gf, "time.duration.ns") == [30, 110]  # exclusive time per path, summed
    assert rows(gf, "time.offset.ns") == [30, 100]  # a timestamp: the first, never summed
    assert gf.metadata["unattributed"] == {"time.duration.ns": 10.0}  # the time before main
    # no_path="keep": the time before main is kept, under its own root; the record with
    # no metric value (only a timestamp) is not
    gf = graphframe.GraphFrame.from_caliperreader(path, no_path="keep")
    assert "unattributed" not in gf.metadata
    assert names(gf) == ["<no path>", "main", "work"]
    assert rows(gf, "time.duration.ns") == [10, 30, 110]
    assert rows(gf, "time.offset.ns") == [10, 30, 100]
    assert gf.exc_metrics == ["time.duration.ns"] and gf.default_metric == "time.duration.ns"
    assert "event.begin#region" not in gf.dataframe.columns


def test_averages_merge_weighted_by_their_number_of_values(tmp_path):
    # two timeseries snapshots of "main": avg#x is weighted by sum#x / avg#x (3 and 1
    # values), avg#y, which has no sum#, by the snapshots' count (5 and 1)
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    avg_x, sum_x = c.attribute("avg#x"), c.attribute("sum#x")
    avg_y, count = c.attribute("avg#y"), c.attribute("count", "uint", VALUE)
    main = c.path(region, "main")
    c.ctx([main], {avg_x: 2.0, sum_x: 6.0, avg_y: 10.0, count: 5})
    c.ctx([main], {avg_x: 4.0, sum_x: 4.0, avg_y: 20.0, count: 1})
    c.ctx([c.path(region, "idle", parent=main)], {count: 2})  # no averages at all
    gf = graphframe.GraphFrame.from_caliperreader(c.write(tmp_path / "ts.cali"))
    assert rows(gf, "avg#x") == [2.5, 0.0]  # (6 + 4) / (3 + 1); the mean of means is 3
    assert rows(gf, "avg#y") == [70.0 / 6.0, 0.0]  # (10 * 5 + 20 * 1) / 6
    assert rows(gf, "sum#x") == [10.0, 0.0] and rows(gf, "count") == [6, 2]


def test_averages_without_weights_warn(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    avg = c.attribute("avg#x")
    main = c.path(region, "main")
    c.ctx([main], {avg: 2.0})
    c.ctx([main], {avg: 4.0})
    c.ctx([c.path(region, "once", parent=main)], {avg: 5.0})
    path = c.write(tmp_path / "plain.cali")
    with pytest.warns(UnweightedAverageWarning, match=r"plain\.cali: column 'avg#x' is an "
                                                      r"average, but some of the records"):
        gf = graphframe.GraphFrame.from_caliperreader(path)
    assert rows(gf, "avg#x") == [3.0, 5.0]


def test_cuda_activities_become_children(tmp_path):
    c = CaliText()
    region = c.attribute("annotation", "string", REGION)
    kind = c.attribute("cupti.activity.kind", "string", 12)
    kernel = c.attribute("cupti.kernel.name", "string", 12)
    gpu = c.attribute("scale#cupti.activity.duration", alias="time (gpu)")
    host = c.attribute("scale#sum#cupti.host.duration", alias="time")
    solve = c.path(region, "main", "solve")
    c.ctx([solve], {host: 2.0})
    c.ctx([c.node(kernel, "saxpy", c.node(kind, "kernel", solve))], {gpu: 0.5})
    c.ctx([c.node(kind, "memcpy", solve)], {gpu: 0.25})
    gf = graphframe.GraphFrame.from_caliperreader(c.write(tmp_path / "cuda.cali"))
    frames = [dict(n.frame) for n in gf.graph.traverse()]
    # siblings in the order of their records (Hatchet's creation order)
    assert frames == [{"name": "main", "type": "function"}, {"name": "solve", "type": "function"},
                      {"name": "saxpy", "type": "kernel"}, {"name": "memcpy", "type": "memcpy"}]
    assert rows(gf, "time") == [0.0, 2.0, 0.0, 0.0] and rows(gf, "time (gpu)") == [0, 0, 0.5, 0.25]


def test_rocm_activities(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    activity = c.attribute("rocm.activity", "string", 12)
    kernel = c.attribute("rocm.kernel.name", "string", 12)
    api = c.attribute("rocm.api", "string", 12)
    gpu = c.attribute("sum#rocm.activity.duration", alias="time (gpu)")
    step = c.path(region, "main", "step")
    c.ctx([c.node(kernel, "axpy", c.node(activity, "KERNEL_DISPATCH_COMPLETE", step))],
          {gpu: 2.0})
    # a copy is reported inside the hipMemcpy call's own region: it replaces that region
    copy_call = c.path(region, "hipMemcpy", parent=step)
    c.ctx([c.node(api, "hipMemcpyAsync", c.node(activity, "COPY_DEVICE_TO_HOST", copy_call))],
          {gpu: 0.5})
    c.ctx([c.node(activity, "BARRIER", step)], {gpu: 0.125})
    gf = graphframe.GraphFrame.from_caliperreader(c.write(tmp_path / "rocm.cali"))
    frames = [dict(n.frame) for n in gf.graph.traverse()]
    assert frames == [{"name": "main", "type": "function"}, {"name": "step", "type": "function"},
                      {"name": "axpy", "type": "kernel"},
                      {"name": "COPY_DEVICE_TO_HOST", "type": "memcpy"},
                      {"name": "BARRIER", "type": "activity"}]
    assert rows(gf, "time (gpu)") == [0.0, 0.0, 2.0, 0.5, 0.125]


def test_sampled_call_paths_with_source_lines(tmp_path):
    c = CaliText()
    callpath = c.attribute("source.function#callpath.address", "string", 12)
    loc = c.attribute("sourceloc#cali.sampler.pc", "string", 12)
    module = c.attribute("module#cali.sampler.pc", "string", 12)
    count = c.attribute("count", "uint", VALUE)
    main = c.path(callpath, "_start", "main")
    lib = c.node(module, "libm.so")
    c.ctx([main, c.node(loc, "/src/m.c:3"), lib], {count: 2})
    c.ctx([main, c.node(loc, "/src/m.c:7"), lib], {count: 5})
    c.ctx([c.path(callpath, "exp", parent=main), c.node(loc, "/lib/e.c:1"), lib], {count: 1})
    gf = graphframe.GraphFrame.from_caliperreader(c.write(tmp_path / "sample.cali"))
    # the statement children (ours: Hatchet's .cali reader makes none) follow main's
    # other children, which keep their records' order
    assert [n.frame.get("name", n.frame.get("line")) for n in gf.graph.traverse()] == \
        ["_start", "main", "exp", "3", "7"]
    assert rows(gf, "name") == ["_start", "main", "exp", "m.c:3", "m.c:7"]
    assert rows(gf, "count") == [0, 0, 1, 2, 5]
    assert rows(gf, "module")[2:] == ["libm.so"] * 3
    assert rows(gf, "line")[2] == "1" and rows(gf, "file")[2] == "/lib/e.c"


def test_escaped_text(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    time = c.attribute("sum#time.duration")
    label = "std::map<a,b>::operator=\\\nnext"
    c.ctx([c.path(region, label)], {time: 1.0})
    gf = graphframe.GraphFrame.from_caliperreader(c.write(tmp_path / "esc.cali"))
    assert names(gf) == [label]


def test_caliper_1_files_without_nested_attributes(tmp_path):
    c = CaliText()
    phase = c.attribute("phase", "string", 20)  # a reference attribute, thread scope
    duration = c.attribute("time.inclusive.duration", "int", VALUE)
    body = c.node(phase, "body")
    c.ctx([c.node(phase, "loop", body)], {duration: 7})
    c.ctx([body], {duration: 9})
    gf = graphframe.GraphFrame.from_caliperreader(c.write(tmp_path / "old.cali"))
    assert names(gf) == ["body", "loop"]
    assert gf.inc_metrics == ["time.inclusive.duration"] and rows(gf, gf.inc_metrics[0]) == [9, 7]


def test_caliperreader_objects_give_the_same_profile(tmp_path):
    path = multi_rank(tmp_path, order=True)
    reader = caliperreader.CaliperReader()
    reader.read(path)
    a, b = read_caliper(path), read_caliper(reader)
    for name in ("nodes", "metrics", "node_columns"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name), check_dtype=False)
    assert (a.exc_metrics, a.ordered) == (b.exc_metrics, b.ordered)


def per_rank_files(tmp_path, ranks=(0, 1, 2), pattern="rp-rank%mpi.rank%.cali"):
    raw = random_profile(6, 1, seed=3)
    paths = []
    for r in ranks:
        path = tmp_path / pattern.replace("%mpi.rank%", str(r))
        write_cali(raw.with_changes(index_levels=()), path,
                   globals_={"opts:output": pattern, "mpi.world.size": str(len(ranks))})
        paths.append(path)
    return paths


def test_streams_read_like_files(tmp_path):
    # caliper-reader reads streams too; so do from_caliperreader and from_caliper
    path = multi_rank(tmp_path, order=True)
    expected = graphframe.GraphFrame.from_caliperreader(path).dataframe
    for mode in ("r", "rb"):
        with open(path, mode) as stream:
            gf = graphframe.GraphFrame.from_caliperreader(stream)
        pd.testing.assert_frame_equal(gf.dataframe, expected)
        with open(path, mode) as stream:
            gf = graphframe.GraphFrame.from_caliper(stream)
        pd.testing.assert_frame_equal(gf.dataframe, expected)
    with open(path, "rb") as stream:
        with pytest.raises(ReadError, match=r"ranks\.cali: cali-query reads files, not streams"):
            graphframe.GraphFrame.from_caliper(stream, query="select *")
    broken = tmp_path / "broken.cali"
    broken.write_text(open(path).read()[:-40])
    with open(broken) as stream:
        with pytest.raises(ReadError, match=r"broken\.cali: line \d+: the last record is cut"):
            graphframe.GraphFrame.from_caliperreader(stream)
    with pytest.raises(ReadError, match="a value of type int is not a file path"):
        graphframe.GraphFrame.from_caliperreader(42)


def test_per_rank_files_read_as_one_profile(tmp_path):
    per_rank_files(tmp_path, ranks=(2, 0, 1))
    gf = graphframe.GraphFrame.from_caliperreader(str(tmp_path))
    assert list(gf.dataframe.index.names) == ["node", "rank"]
    assert gf.graph.num_nodes == 6 and len(gf.dataframe) == 18
    assert sorted(set(gf.dataframe.index.get_level_values("rank"))) == [0, 1, 2]
    listed = graphframe.GraphFrame.from_caliperreader(sorted(str(p) for p in tmp_path.iterdir()))
    assert listed.dataframe.equals(gf.dataframe)
    assert gf.metadata["mpi.world.size"] == 3


def test_per_rank_files_claiming_one_rank(tmp_path):
    paths = per_rank_files(tmp_path, ranks=(5,), pattern="r%mpi.rank%.cali") + \
        per_rank_files(tmp_path, ranks=(5,), pattern="s%mpi.rank%.cali")
    with pytest.raises(ReadError, match=r"s5\.cali: rank 5 is also the rank of .*r5\.cali"):
        read_caliper(paths)


def test_per_rank_files_whose_records_share_a_rank(tmp_path):
    # ranks from the records' mpi.rank: two files both holding rank 1 would be summed
    one = multi_rank(tmp_path)  # ranks 0 and 1
    other = tmp_path / "other.cali"
    other.write_text(open(one).read())
    with pytest.raises(ReadError, match=r"other\.cali: rank 0 is also the rank of "
                                        r".*ranks\.cali \(expected each rank in exactly one"):
        read_caliper([one, str(other)])
    # a file without mpi.rank whose name says rank 1, next to a file with ranks 0 and 1
    named = per_rank_files(tmp_path, ranks=(1,), pattern="p%mpi.rank%.cali")[0]
    with pytest.raises(ReadError, match=r"p1\.cali: rank 1 is also the rank of .*ranks\.cali"):
        read_caliper([one, named])


def test_a_file_listed_twice(tmp_path):
    path = per_rank_files(tmp_path, ranks=(0,), pattern="a.cali")[0]  # no rank anywhere
    with pytest.raises(ReadError, match=r"a\.cali: the file is listed twice \(also as "):
        read_caliper([path, tmp_path / ".." / tmp_path.name / "a.cali"])


def test_benchmark_writer_round_trip(tmp_path):
    raw = random_profile(2000, 2, seed=1)  # enough records for the bulk value parser
    path = tmp_path / "w.cali"
    write_cali(raw, path)
    back = graphframe_readers.read(path)
    assert back.num_nodes == 2000 and len(back.metrics) == 4000 and back.ordered
    # values parse exactly as Python's float() would (they were written with repr)
    np.testing.assert_array_equal(np.sort(back.metrics["time"].to_numpy()),
                                  np.sort(raw.metrics["time"].to_numpy()))


# ------------------------------------------------------------------ bad input
def cali_file(tmp_path, text, name="bad.cali"):
    path = tmp_path / name
    path.write_text(text)
    return path


def expect_error(path, match, position=None):
    with pytest.raises(ReadError, match=match) as info:
        read_caliper(str(path))
    assert str(path) in str(info.value)
    if position is not None:
        assert info.value.position == position
    return info.value


def test_truncated_in_the_middle_of_a_record(tmp_path):
    path = cali_file(tmp_path, SPEC_EXAMPLE[: SPEC_EXAMPLE.index("data=0.5") + 6])
    expect_error(path, "the last record is cut off", "line 12")


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 22])
@pytest.mark.parametrize("csv_rows", [0, 64])
def test_files_are_read_a_block_at_a_time(tmp_path, monkeypatch, block, csv_rows):
    # the file is decoded in blocks of LINE_BLOCK bytes (never held whole) and each
    # block's values are packed per signature; tiny blocks cut every line, and with
    # CSV_ROWS = 0 even one-record chunks go through the CSV parser: the profile and
    # the errors must not change
    path = multi_rank(tmp_path, order=True)
    expected = read_caliper(path)
    monkeypatch.setattr(caliper_calitext, "LINE_BLOCK", block)
    monkeypatch.setattr(caliper_cali, "CSV_ROWS", csv_rows)
    got = read_caliper(path)
    for name in ("nodes", "metrics", "node_columns"):
        pd.testing.assert_frame_equal(getattr(got, name), getattr(expected, name))
    lines = open(path).read().splitlines()
    last = max(i for i, line in enumerate(lines) if line.startswith("__rec=ctx"))
    lines[last] = lines[last].rsplit("=", 1)[0] + "=4.x"
    broken = tmp_path / "broken.cali"
    broken.write_text("\n".join(lines) + "\n")
    expect_error(broken, r"has value '4.x'", f"line {last + 1}")
    cut = cali_file(tmp_path, SPEC_EXAMPLE[: SPEC_EXAMPLE.index("data=0.5") + 6])
    expect_error(cut, "the last record is cut off", "line 12")
    bad = tmp_path / "latin1.cali"
    bad.write_bytes(SPEC_EXAMPLE.replace("data=main", "data=m\xe9in").encode("latin-1"))
    expect_error(bad, "the file is not UTF-8 text", f"byte {SPEC_EXAMPLE.index('data=main') + 6}")


def test_truncated_at_a_line_end(tmp_path):
    lines = SPEC_EXAMPLE.splitlines(keepends=True)
    path = cali_file(tmp_path, "".join(lines[:12]))
    expect_error(path, r"ends before its globals record \(truncated\?\)", "end of file")


@pytest.mark.parametrize("line, match", [
    ("__rec=ctx,ref=99,attr=15=17,data=1.5=1", "refers to node 99, which the file does not"),
    ("__rec=ctx,ref=2x,attr=15=17,data=1.5=1", "refers to node '2x', which the file does not"),
    ("__rec=node,id=30,attr=13,data=x,parent=-4", r"malformed node record \(id=30, attr=13, "
                                                  r"parent=-4\)"),
    ("__rec=ctx,ref=20,attr=15=17,data=1.5", "2 attributes but 1 values"),
    ("__rec=ctx,ref=20,attr=20,data=1", "entry 'attr=20' is not an attribute"),
    ("__rec=ctx,ref=20,attr=15,data=fast", r"'sum#time.duration' \(double\) has value 'fast'"),
    ("__rec=node,id=30,attr=13,data=x,parent=77", "parent 77 is not a defined node"),
    ("__rec=node,id=30,attr=20,data=x", "attr 20 is not an attribute"),
    ("__rec=node,id=20,attr=13,data=again", "node id 20 is defined twice"),
    ("__rec=node,attr=13,data=x", "malformed node record"),
    ("hello", "the line is not a Caliper record"),
])
def test_malformed_records_name_the_line(tmp_path, line, match):
    lines = SPEC_EXAMPLE.splitlines()
    lines.insert(12, line)
    expect_error(cali_file(tmp_path, "\n".join(lines) + "\n"), match, "line 13")


def test_negative_rank(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    rank = c.attribute("mpi.rank", "int", VALUE)
    time = c.attribute("sum#time.duration")
    main = c.path(region, "main")
    c.ctx([main], {rank: 0, time: 1.0})
    c.ctx([main], {rank: -3, time: 1.0})
    path = c.write(tmp_path / "neg.cali")
    with pytest.raises(ReadError, match=r"neg\.cali: line 9: the record's mpi.rank is -3 "
                                        r"\(expected an MPI rank: an integer from 0 to"):
        read_caliper(path)


def test_parent_cycle(tmp_path):
    text = SPEC_EXAMPLE + "__rec=node,id=40,attr=13,data=a,parent=41\n" \
                          "__rec=node,id=41,attr=13,data=b,parent=40\n"
    err = expect_error(cali_file(tmp_path, text), "chain of parents forms a cycle")
    assert err.position in ("line 17", "line 18")


def test_no_record_with_a_call_path(tmp_path):
    c = CaliText()
    time = c.attribute("sum#time.duration")
    c.ctx([], {time: 1.0})
    expect_error(c.write(tmp_path / "flat.cali"), "no record carries a call path")


def test_not_utf8_and_missing_files(tmp_path):
    path = tmp_path / "bin.cali"
    path.write_bytes(b"__rec=node,id=12,attr=10,data=\xff\xfe\n")
    expect_error(path, "not UTF-8 text", "byte 30")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ReadError, match="the directory holds no .cali files"):
        read_caliper(str(tmp_path / "empty"))
    with pytest.raises(ReadError, match="no such file"):
        read_caliper([str(tmp_path / "absent.cali")])


def test_globals_are_required_only_when_global_attributes_exist(tmp_path):
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    time = c.attribute("sum#time.duration")
    c.ctx([c.path(region, "main")], {time: 1.0})
    assert len(read_caliper(c.write(tmp_path / "noglobals.cali")).metrics) == 1
    c.attribute("cluster", "string", GLOBAL)
    expect_error(c.write(tmp_path / "cut.cali"), "ends before its globals record")


def test_several_references_and_doubles_decoded_together(tmp_path):
    # records with two references take the inline path; two double columns are
    # converted in one call, and a bad value in either is still located
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    channel = c.attribute("spot.channel", "string", 12)
    time = c.attribute("sum#time.duration", alias="time")
    other = c.attribute("sum#other", alias="other")
    kept = c.node(channel, "regionprofile")
    main = c.path(region, "main")
    sub = c.path(region, "sub", parent=main)
    c.ctx([main, kept], {time: 3.0, other: 0.5})
    c.ctx([kept, sub], {time: 1.0, other: 0.25})
    path = c.write(tmp_path / "two.cali")
    raw = read_caliper(path)
    assert raw.metrics["time"].tolist() == [3.0, 1.0]
    assert raw.metrics["other"].tolist() == [0.5, 0.25]
    lines = open(path).read().splitlines()
    lines[-1] = lines[-1].rsplit("=", 1)[0] + "=0.2x"
    bad = cali_file(tmp_path, "\n".join(lines) + "\n")
    expect_error(bad, r"attribute 'sum#other' \(double\) has value '0.2x'",
                 f"line {len(lines)}")
    lines[-1] = lines[-1].replace(f"ref={kept}={sub}", f"ref={kept}=999")
    expect_error(cali_file(tmp_path, "\n".join(lines) + "\n"),
                 "the record refers to node 999, which the file does not define",
                 f"line {len(lines)}")


def test_a_pipe_is_read_in_full_blocks(tmp_path):
    # a pipe's size is 0: the reader must not take that for the file's size
    import os
    import threading
    fifo = tmp_path / "pipe.cali"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(SPEC_EXAMPLE))
    writer.start()
    cali = caliper_calitext.read_cali_text(str(fifo))
    writer.join()
    assert [cali.node_data[i] for i in cali.refs[:, 0]] == ["main", "foo", "bar"]
    assert cali.rec_line.tolist() == [10, 12, 14]


def test_records_without_a_call_path(tmp_path):
    # kept under "<no path>" when they hold a metric value; a kept record must have a
    # rank when the others do (the error says how to leave such records out)
    c = CaliText()
    region = c.attribute("region", "string", REGION)
    rank = c.attribute("mpi.rank", "int", VALUE)
    time = c.attribute("sum#time.duration", alias="time")
    main = c.path(region, "main")
    c.ctx([main], {rank: 0, time: 1.0})
    c.ctx([], {rank: 0, time: 0.5})
    c.ctx([], {rank: 1})  # no metric value: left out
    path = c.write(tmp_path / "np.cali")
    raw = read_caliper(path, no_path="keep")
    assert raw.nodes["name"].tolist() == ["main", "<no path>"]
    assert raw.metrics["time"].tolist() == [1.0, 0.5]
    dropped = read_caliper(path)  # the default, as Hatchet: left out, their total kept
    assert dropped.nodes["name"].tolist() == ["main"]
    assert dropped.metadata["unattributed"] == {"time": 0.5}
    c.ctx([], {time: 0.25})
    path = c.write(tmp_path / "norank.cali")
    with pytest.raises(ReadError, match=r"no integer mpi.rank while others do \(it has no "
                                        r"call path and is kept under '<no path>'; the reader "
                                        r"option no_path='drop'") as info:
        read_caliper(path, no_path="keep")
    assert info.value.position == "line 14" and str(path) in str(info.value)
    assert read_caliper(path).metrics["time"].tolist() == [1.0]
    with pytest.raises(graphframe_readers.ArgumentError, match="no_path=None: use 'keep'"):
        read_caliper(path, no_path=None)
    assert "no_path" in graphframe_readers.format_info("caliper").options
