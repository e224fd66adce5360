"""Hatchet's reader-class methods besides read(): read_json_sections, fill_tables and
create_graph (graphframe/readers/methods.py), on Hatchet's own test inputs."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from graphframe.errors import ReadError
from graphframe.readers.caliper_reader import CaliperReader
from graphframe.readers.gprof_dot_reader import GprofDotReader
from graphframe.readers.hpctoolkit_reader import HPCToolkitReader
from graphframe_readers.errors import ArgumentError

LULESH_JSON = "caliper/hatchet/caliper-lulesh-json/lulesh-annotation-profile.json"
CPI = "hpctoolkit/hatchet-cpi-database"
CALLGRIND_DOT = "gprof2dot/hatchet/callgrind.dot.64042.0.1"


def test_read_json_sections_gives_the_records_with_a_call_path(shared_data: Path):
    reader = CaliperReader(str(shared_data / LULESH_JSON))
    reader.read_json_sections()
    # 200 records in the file, 8 of them outside every region (no path): read() drops
    # them too, and its frame has 192 rows
    assert len(reader.json_data) == 192
    assert reader.json_cols == ["inclusive#sum#time.duration", "mpi.rank", "sum#time.duration",
                                "path"]
    assert len(reader.json_cols_mdata) == 4 and len(reader.json_nodes) == 24
    assert reader.path_col_name == "path"
    assert len(reader.read().dataframe) == len(reader.json_data)
    roots = reader.create_graph()
    assert [r.frame["name"] for r in roots] == ["main"]
    assert len(reader.idx_to_label) == 24
    assert sorted(reader.idx_to_label.items())[:3] == [
        (0, "main"), (1, "LagrangeLeapFrog"), (2, "LagrangeElements")]
    assert reader.metadata == {}


def test_read_json_sections_refuses_what_is_not_json_split():
    with pytest.raises(ReadError, match=r"section 'nodes' is missing \(expected a json-split"):
        CaliperReader(io.BytesIO(b'{"data": [], "columns": [], "column_metadata": []}')
                      ).read_json_sections()
    with pytest.raises(ReadError, match="the document is a JSON list"):
        CaliperReader(io.BytesIO(b"[1, 2]")).read_json_sections()
    with pytest.raises(ReadError, match="invalid JSON"):
        CaliperReader(io.BytesIO(b'{"data": [')).read_json_sections()
    doc = (b'{"data": [[0]], "columns": ["path", "time"], "column_metadata": [{}, {}], '
           b'"nodes": [{"label": "main", "column": "path"}]}')
    with pytest.raises(ReadError, match=r"data\[0\]: record 0 is a list \(expected a list of 2 cells"):
        CaliperReader(io.BytesIO(doc)).read_json_sections()
    doc = b'{"data": [], "columns": ["x"], "column_metadata": [{}], "nodes": []}'
    with pytest.raises(ReadError, match="no hierarchy column"):
        CaliperReader(io.BytesIO(doc)).read_json_sections()
    with pytest.raises(ArgumentError, match="CalQL query"):
        CaliperReader("run.cali", "select * format json-split").read_json_sections()


def test_fill_tables_gives_experiment_xml_tables(shared_data: Path):
    reader = HPCToolkitReader(str(shared_data / CPI))
    tables = reader.fill_tables()
    # Hatchet 2024.1.0's test_read_calc_pi_database counts
    assert (len(reader.load_modules), len(reader.src_files), len(reader.procedure_names)) == \
        (5, 12, 16)
    assert tables == (reader.load_modules, reader.src_files, reader.procedure_names,
                      reader.metric_names)
    assert "MPI_Finalize" in reader.procedure_names.values()
    assert "/tmp/dpkg-mkdeb.gouoc49UG7/src/mvapich/src/build/../src/mpi/init/initthread.c" \
        in reader.src_files.values()
    assert reader.load_modules["2"] == "cpi" and len(reader.load_modules) == 5
    assert reader.metric_names == {"0": "CPUTIME (usec) (I)", "1": "CPUTIME (usec) (E)"}


def test_fill_tables_names_a_missing_database(tmp_path: Path):
    with pytest.raises(ReadError, match="the directory has no experiment.xml"):
        HPCToolkitReader(str(tmp_path)).fill_tables()


def test_create_graph_gives_the_dot_files_roots(shared_data: Path):
    reader = GprofDotReader(str(shared_data / CALLGRIND_DOT))
    roots = reader.create_graph()
    names = [r.frame["name"] for r in roots]
    assert names == [r.frame["name"] for r in reader.read().graph.roots]
    # Hatchet's test_read_calc_pi_database roots (Hatchet lists them in another order)
    assert sorted(names) == sorted(["psm_no_lock", "(below main)", "0x0000000000000ff0",
                                    "_dl_catch_error'2", "hwloc_topology_load",
                                    "ibv_get_device_list", "psm_allocate_vbufs"])
