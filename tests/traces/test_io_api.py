"""The I/O analysis API of one and many runs (IOView, TraceEnsemble, graphframe.recorder) on
the Recorder traces, format 2.5 and 2.2 alike; numbers from the golden files of each."""

from __future__ import annotations

import csv
import re

import numpy as np
import pandas as pd
import pytest

import graphframe as gf
from graphframe.recorder import MultiRecorderDFHandler, RecorderDataFrame


@pytest.fixture(scope="module")
def iomix(shared_data):
    return shared_data / "traces" / "recorder" / "io-mix"


@pytest.fixture(scope="module")
def new(iomix):
    return RecorderDataFrame.from_recorder(iomix / "traces" / "np2")


@pytest.fixture(scope="module")
def old(iomix):
    return RecorderDataFrame.from_recorder(iomix / "traces-v2.2" / "np2")


def _golden_lines(folder):
    return [len((folder / "recorder2text" / f"{r}.txt").read_text().splitlines())
            for r in (0, 1)]


def test_record_counts_equal_the_tools(new, old, iomix):
    stdout = (iomix / "golden" / "np2" / "recorder_viz_stdout.txt").read_text()
    per_rank = [int(x) for x in re.findall(r"intercepted calls: (\d+)", stdout)]
    assert new.get_record_count_each_rank() == per_rank == _golden_lines(iomix / "golden" / "np2")
    assert new.get_record_count() == sum(per_rank) == 116
    assert old.get_record_count_each_rank() == _golden_lines(iomix / "golden-v2.2" / "np2")
    assert old.get_record_count_each_rank() == [60, 58]


def test_files_equal_the_tools(new, old, iomix):
    stdout = (iomix / "golden" / "np2" / "recorder_viz_stdout.txt").read_text()
    assert new.get_total_file_count_each_rank() == \
        [int(x) for x in re.findall(r"accessed files: (\d+)", stdout)] == [6, 6]
    with open(iomix / "golden-v2.2" / "np2" / "reader_filemap.csv") as fh:
        rows = list(csv.DictReader(fh))
    per_rank = [sorted(r["filename"] for r in rows if r["rank"] == str(k)) for k in (0, 1)]
    assert old.get_files_each_ranks() == per_rank
    assert old.get_total_file_count() == len({r["filename"] for r in rows}) == 10
    # the same workload recorded by both versions: the same files and accesses, by name
    # (Open MPI's shared-memory files carry the pid of the run)
    base = lambda n: re.sub(r"\d{4,}", "PID", n.split("/")[-1])  # noqa: E731
    assert sorted(map(base, new.get_files())) == sorted(map(base, old.get_files()))
    a = {base(k): v for k, v in new.get_file_access_count().items()}
    b = {base(k): v for k, v in old.get_file_access_count().items()}
    # posix_rank0: open, 4 write, fsync, lseek, 2 read, pwrite, pread, close (stat is not a
    # data operation); shared_mpiio.dat: every recorder2text line naming it or its handle 0-0
    golden = iomix / "golden" / "np2" / "recorder2text"
    naming = sum(len(re.findall(r"shared_mpiio\.dat |\( 0-0", (golden / f"{r}.txt").read_text()))
                 for r in (0, 1))
    assert a == b and a["posix_rank0.dat"] == 12 and a["shared_mpiio.dat"] == naming == 30
    assert a["stdio_rank0.txt"] == 10  # fopen, 3 vfprintf, fwrite, fclose, fopen, fread, fseek,
    # fclose (ftell is not a data operation)
    assert new.get_total_file_access_count_each_rank() == \
        old.get_total_file_access_count_each_rank()


def test_function_counts_and_times(new, old, iomix):
    counts = new.get_nonzero_function_count()
    text = (iomix / "golden" / "np2" / "recorder_summary.txt").read_text()
    rank0 = new.get_nonzero_function_count_each_rank()[0]
    for func, _, total in re.findall(r"^(\w+)\s+(\d+)\s+(\d+)$", text, re.M):
        assert rank0[func[1:] if func.startswith("PMPI_") else func] == int(total)
    assert counts["write"] == 10 and counts["MPI_File_write_at_all"] == 6
    listed = new.func_id_to_name
    by_id = new.get_function_count()
    assert len(by_id) == len(listed) and by_id[listed.index("write")] == 10
    assert sum(by_id) == 116 and sum(map(sum, new.get_function_count_each_rank())) == 116
    times = new.get_nonzero_function_time()
    assert times["fsync"] == pytest.approx(sum(
        v for r in new.get_nonzero_function_time_each_rank() for k, v in r.items() if k == "fsync"))
    assert new.get_total_function_time() == pytest.approx(sum(new.get_function_time()))
    assert new.get_total_function_time_each_rank() == pytest.approx(
        [sum(x) for x in new.get_function_time_each_rank()])
    # fsync of rank 0 in recorder2text: 0.0008855..0.0016315 and 0.0050025..0.0068025
    assert new.get_nonzero_function_time_each_rank()[0]["fsync"] == pytest.approx(
        (16315 - 8855 + 68025 - 50025) * 1e-7)
    both = set(counts) & set(old.get_nonzero_function_count())
    assert {f: counts[f] for f in both if f != "mmap"} == \
        {f: old.get_nonzero_function_count()[f] for f in both if f != "mmap"}


def test_filter_and_data_frame(new):
    df = new.get_data_frame()
    assert len(df) == 116 and df.columns.tolist()[:6] == [
        "rank", "func_id", "func_name", "tstart", "tend", "telapsed"]
    first = df.iloc[2]
    assert (first.func_name, first.tstart, first.arg_count, first.file_name) == (
        "open", pytest.approx(0.0007286), 3, "/home/perf/recorder-demo/np2/data/posix_rank0.dat")
    writes = new.filter(lambda row: row["func_name"] == "write")
    assert isinstance(writes, RecorderDataFrame)
    assert writes.get_record_count_each_rank() == [4 + 1, 5]


def test_multi_run_tables(new, old, iomix):
    multi = MultiRecorderDFHandler([new, old])
    records = multi.get_record_count_aggregated_by_logs()
    assert records.values.tolist() == [[59, 57], [60, 58]]
    assert records.index.tolist() == [new.log_dir, old.log_dir]
    assert multi.get_record_count_aggregated_by_ranks().equals(records.T)
    assert multi.get_average_record_count_each_rank() == [59.5, 57.5]
    assert multi.get_file_count_aggregated_by_logs().values.tolist() == [[6, 6], [6, 6]]
    funcs = multi.get_function_count_aggregated_by_logs()
    assert funcs.loc[old.log_dir, "mmap"] == 2 and funcs.loc[new.log_dir, "mmap"] == 0
    nonzero = multi.get_nonzero_function_count_aggregated_by_functions()
    assert (nonzero.sum(axis=1) > 0).all() and len(nonzero) < len(funcs.columns)
    assert multi.get_nonzero_function_count_aggregated_by_logs().equals(nonzero.T)
    t = multi.get_nonzero_function_time_aggregated_by_logs()
    assert t.loc[new.log_dir, "fsync"] == pytest.approx(new.get_nonzero_function_time()["fsync"])
    # folders read here (in two processes) give the same tables
    again = MultiRecorderDFHandler([iomix / "traces" / "np2", iomix / "traces-v2.2" / "np2"],
                                   jobs=2)
    assert again.get_record_count_aggregated_by_logs().values.tolist() == [[59, 57], [60, 58]]
    assert again.get_function_time_aggregated_by_functions().equals(
        multi.get_function_time_aggregated_by_functions())


def test_trace_ensemble_pythonic_tables(iomix):
    runs = {"v2.5": iomix / "traces" / "np2", "v2.2": iomix / "traces-v2.2" / "np2"}
    te = gf.read_traces(runs, metadata={"v2.5": {"tool": "recorder c1c3dcb"}})
    assert te.runs == ["v2.5", "v2.2"]
    assert te.metadata[["format", "version", "ranks", "records"]].values.tolist() == [
        ["recorder", "2.5.0", 2, 116], ["recorder", "2.2.0", 2, 118]]
    assert te.metadata.loc["v2.5", "tool"] == "recorder c1c3dcb"
    assert pd.isna(te.metadata.loc["v2.2", "tool"])
    assert te.table("records").values.tolist() == [[59, 57], [60, 58]]
    assert te.table("accesses").loc["v2.5"].tolist() == \
        te["v2.5"].total_file_accesses(per="rank").tolist()
    calls = te.table("calls")
    assert calls.loc["v2.2", "mmap"] == 2 and calls.loc["v2.5", "mmap"] == 0
    assert te.table("calls", nonzero=False).shape[1] > calls.shape[1]
    assert te.mean_per_rank("records").tolist() == [59.5, 57.5]
    assert te.table("time").T.shape == (calls.shape[1], 2)
    parallel = gf.read_traces(runs, jobs=2)
    assert parallel.table("time").equals(te.table("time"))
    one = gf.read_traces([iomix / "traces" / "np2"], jobs=2)  # ranks across the workers
    assert one.table("calls").equals(te.table("calls").loc[["v2.5"]].rename(
        index={"v2.5": str(iomix / "traces" / "np2")}).loc[:, lambda d: (d != 0).any()])
    with pytest.raises(gf.GraphframeError, match="one distinct label per run"):
        gf.read_traces([runs["v2.5"]] * 2)
    with pytest.raises(gf.GraphframeError, match="unknown quantity"):
        te.table("bytes")


def test_trace_ensemble_on_dask(iomix):
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        te = gf.read_traces([iomix / "traces" / "np2"], client=client)
    assert te.table("records").values.tolist() == [[59, 57]]
    assert np.isclose(te.table("time").values.sum(), te[te.runs[0]].total_function_time())
