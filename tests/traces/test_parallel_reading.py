"""Per-rank reading in worker processes (``jobs=2``) and on a Dask cluster (``client=``)
gives the table of one process, for OTF2, DUMPI, Recorder and HPCToolkit traces."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

import graphframe as gf
from graphframe.errors import ArgumentError
from graphframe_readers.traces.registry import BYTES_PER_WORKER, default_jobs
from graphframe_readers.traces.sources import MemorySource

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def otf2_trace(tmp_path_factory):
    pytest.importorskip("otf2", reason="the OTF2 decoder needs the optional otf2 package")
    sys.path.insert(0, str(ROOT / "benchmarks" / "traces"))
    from gen_otf2 import write_trace
    return write_trace(str(tmp_path_factory.mktemp("otf2") / "t"), ranks=3, iterations=6)


def traces(shared_data, otf2_trace):
    return {
        "otf2": otf2_trace,
        "dumpi": shared_data / "traces" / "dumpi" / "sst-dumpi-testtrace-4ranks" / "testtrace.meta",
        "recorder": shared_data / "traces" / "recorder" / "recorder-simple",
        "hpctoolkit-trace": shared_data / "hpctoolkit" / "pipit-ping-pong-v4-database",
    }


def read(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gf.read_trace(path, **kw)


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed", reason="client= needs the dask extra")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_jobs_2_gives_the_table_of_one_process(shared_data, otf2_trace):
    for fmt, path in traces(shared_data, otf2_trace).items():
        one = read(path, jobs=1)
        two = read(path, jobs=2)
        assert one.definitions.metadata.get("format", fmt) == two.definitions.metadata.get(
            "format", fmt)
        assert two.events.equals(one.events), fmt
        assert len(one.events["rank"].unique()) >= 2, fmt


def test_a_dask_cluster_of_two_processes_gives_the_table_of_one_process(shared_data,
                                                                        otf2_trace, client):
    for fmt, path in traces(shared_data, otf2_trace).items():
        one = read(path, jobs=1)
        on_dask = read(path, client=client)
        assert on_dask.events.equals(one.events), fmt
        assert sorted(on_dask.definitions.ranks) == sorted(one.definitions.ranks), fmt


def test_the_default_jobs_follows_the_files_count_and_size():
    many = [MemorySource(b"", name=str(i)) for i in range(6)]
    assert default_jobs(many, 100 * BYTES_PER_WORKER) >= 1
    assert default_jobs(many, BYTES_PER_WORKER) == 1  # less than two workers' worth
    assert default_jobs(many[:1], 100 * BYTES_PER_WORKER) == 1  # one file
    assert default_jobs(many[:2], 100 * BYTES_PER_WORKER) <= 2  # at most one per file


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "2"])
def test_a_bad_jobs_is_an_argument_error(shared_data, bad):
    path = shared_data / "traces" / "dumpi" / "sst-dumpi-testtrace-4ranks" / "testtrace.meta"
    with pytest.raises(ArgumentError, match="jobs="):
        read(path, jobs=bad)
