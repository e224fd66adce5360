"""Hatchet's reader classes under Hatchet's module paths (issue 14 item 6)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from graphframe import GraphFrame
from graphframe.errors import ReadError

CASES = [
    ("caliper_reader", "CaliperReader",
     ("caliper/hatchet/caliper-lulesh-json/lulesh-annotation-profile.json",), (24, 192)),
    ("caliper_native_reader", "CaliperNativeReader",
     ("caliper/hatchet/caliper-lulesh-cali/lulesh-annotation-profile.cali", False, []), (19, 19)),
    ("hpctoolkit_reader", "HPCToolkitReader", ("hpctoolkit/hatchet-cpi-database",), (34, 136)),
    ("gprof_dot_reader", "GprofDotReader", ("gprof2dot/hatchet/callgrind.dot.64042.0.1",),
     (105, 105)),
    ("cprofile_reader", "CProfileReader", ("cprofile/hatchet/cprofile-cycle.pstats",), (9, 9)),
    ("pyinstrument_reader", "PyinstrumentReader",
     ("pyinstrument/hatchet/pyinstrument-hatchet-profile.json",), (111, 111)),
    ("tau_reader", "TAUReader", ("tau/hatchet-tau-cpi-mpi",), (12, 48)),
    ("timemory_reader", "TimemoryReader", ("timemory/hatchet/wall.tree.json",), (14, 28)),
]


@pytest.mark.parametrize("module, name, args, shape", CASES, ids=[c[1] for c in CASES])
def test_reader_classes_read_what_hatchet_reads(shared_data: Path, module, name, args, shape):
    cls = getattr(importlib.import_module(f"graphframe.readers.{module}"), name)
    reader = cls(str(shared_data / args[0]), *args[1:])
    gf = reader.read()
    assert isinstance(gf, GraphFrame)
    # Hatchet 2024.1.3's counts (the Caliper files' records without a call path are left
    # out, as in Hatchet)
    assert (len(gf.graph), len(gf.dataframe)) == shape


def test_literal_and_json_readers_take_the_data_itself():
    from graphframe.readers.json_reader import JsonReader
    from graphframe.readers.literal_reader import LiteralReader
    literal = [{"frame": {"name": "main"}, "metrics": {"time": 1.0},
                "children": [{"frame": {"name": "solve"}, "metrics": {"time": 2.0}}]}]
    gf = LiteralReader(literal).read()
    assert gf.dataframe["time"].tolist() == [1.0, 2.0]
    back = JsonReader(gf.to_json()).read()
    assert back.graph == gf.graph and back.dataframe.equals(gf.dataframe)


def test_reader_class_errors_are_the_constructors_errors(tmp_path: Path):
    from graphframe.readers.caliper_reader import CaliperReader
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ReadError, match="bad.json"):
        CaliperReader(str(bad)).read()


def test_caliper_native_reader_reads_a_timeseries(shared_data: Path):
    from graphframe.readers.caliper_native_reader import CaliperNativeReader
    path = str(shared_data / "caliper/hatchet/caliper-timeseries-cali/timeseries.cali")
    gfs = CaliperNativeReader(path, False, []).read_timeseries()
    assert len(gfs) == 50 and gfs[1].graph is gfs[0].graph


def test_spotdb_reader_classes():
    # Hatchet's hatchet.readers.spotdb_reader: one run given as data, or a database
    from graphframe.readers.spotdb_reader import SpotDatasetReader, SpotDBReader
    gf = SpotDatasetReader({"main": {"t": 4.0}, "main/solve": {"t": 1.0}}, {"launch": 7},
                           {"t": {"type": "double", "alias": "time (inc)"}}).read()
    assert gf.dataframe["time (inc)"].tolist() == [4.0, 1.0]
    assert gf.default_metric == "time (inc)" and gf.metadata["launch"] == 7
    with pytest.raises(ReadError, match="needs the optional 'spotdb' package"):
        SpotDBReader("runs.sqlite").read()
