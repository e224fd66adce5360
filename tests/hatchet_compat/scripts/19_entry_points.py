import json

import hatchet as ht
from compat_fmt import nums, summary

# %% show_metric_columns: exclusive then inclusive metrics
gf = ht.GraphFrame.from_hpctoolkit("hpctoolkit/hatchet-cpi-database")
print(gf.show_metric_columns())
gf = ht.GraphFrame.from_lists(("a", "b"))
print(gf.show_metric_columns())

# %% from_timeseries: one GraphFrame per iteration level, all on one graph
# DELIBERATE (docs/readers/caliper.md, "Differences from Hatchet"): Hatchet keeps only the
# first record of each node per block (1 of the 12 records of CalcMonotonicQForElems, which
# differ by lulesh.region); every record of a block counts here, as in any .cali read.
#   hatchet: '[768941945.0, 701139257.0, 699190239.0, 701763925.0, 696631842.0]'
#   ours:    '[980295576.0, 917364094.0, 913768680.0, 916326864.0, 909556566.0]'
#   hatchet: '[136.0, 136.0, 136.0, 136.0, 136.0]'
#   ours:    '[380.0, 380.0, 380.0, 380.0, 380.0]'
gfs = ht.GraphFrame.from_timeseries("caliper/hatchet/caliper-timeseries-cali/timeseries.cali")
print(type(gfs).__name__, len(gfs))
first = gfs[0]
print(first.dataframe.shape, list(first.dataframe.index.names), all(g.graph is first.graph for g in gfs))
print(nums(g.dataframe["sum#time.duration.ns"].sum() for g in gfs[:5]))
print([sorted(set(g.dataframe["loop.start_iteration"].dropna().tolist())) for g in gfs[:3]])
print(nums(g.dataframe["count"].sum() for g in gfs[:5]))
print(sorted(first.graph.traverse(attrs="name"))[:5])

# %% from_timeseries with an explicit level
gfs = ht.GraphFrame.from_timeseries("caliper/hatchet/caliper-timeseries-cali/timeseries.cali",
                                    level="loop.start_iteration")
print(len(gfs))

# %% Hatchet's reader classes, as Hatchet's tests and tools import them
from hatchet.readers.caliper_reader import CaliperReader
from hatchet.readers.caliper_native_reader import CaliperNativeReader
from hatchet.readers.hpctoolkit_reader import HPCToolkitReader
from hatchet.readers.gprof_dot_reader import GprofDotReader
from hatchet.readers.cprofile_reader import CProfileReader
from hatchet.readers.literal_reader import LiteralReader
from hatchet.readers.pyinstrument_reader import PyinstrumentReader
from hatchet.readers.tau_reader import TAUReader
from hatchet.readers.timemory_reader import TimemoryReader
from hatchet.readers.json_reader import JsonReader

readers = [
    CaliperReader("caliper/hatchet/caliper-lulesh-json/lulesh-annotation-profile.json"),
    CaliperNativeReader("caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali", False, []),
    HPCToolkitReader("hpctoolkit/hatchet-cpi-database"),
    GprofDotReader("gprof2dot/hatchet/callgrind.dot.64042.0.1"),
    CProfileReader("cprofile/hatchet/cprofile-cycle.pstats"),
    PyinstrumentReader("pyinstrument/hatchet/pyinstrument-hatchet-profile.json"),
    TAUReader("tau/hatchet-tau-cpi-mpi"),
    TimemoryReader("timemory/hatchet/wall.tree.json"),
]
with open("literal/hatchet_graph_literal.json") as f:
    readers.append(LiteralReader(json.load(f)))
with open("json/hatchet-graph-literal.json") as f:
    readers.append(JsonReader(f.read()))
for reader in readers:
    gf = reader.read()
    print(type(reader).__name__, type(gf).__name__, len(gf.graph), len(gf.dataframe))

# %% the errors Hatchet code catches
from hatchet.graphframe import EmptyFilter, InvalidFilter
gf = ht.GraphFrame.from_lists(("a", "b"))
for bad in (lambda row: False, 42):
    try:
        gf.filter(bad)
    except EmptyFilter:
        print("EmptyFilter")
    except InvalidFilter:
        print("InvalidFilter")

# %% from_json keeps the columns in the order of the records
with open("json/hatchet-graph-literal.json") as f:
    text = f.read()
gf = ht.GraphFrame.from_json(text)
summary(gf)
print(gf.tree(render_header=False))
