"""A DUMPI file cut inside a one-sided record: a located ReadError, no events, no table."""

from __future__ import annotations

import shutil

import pytest

import graphframe as gf
import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from graphframe_readers.traces.dumpi.layouts import LABEL
from tests.trace_collect import Collect


@pytest.fixture
def copy(shared_data, tmp_path):
    src = shared_data / "traces" / "dumpi" / "rma-fence" / "traces" / "np2"
    dst = tmp_path / "np2"
    shutil.copytree(src, dst)
    return dst


@pytest.mark.parametrize("op, into", [("MPI_Put", 5), ("MPI_Get", 20), ("MPI_Accumulate", 30),
                                      ("MPI_Win_fence", 3)])
def test_cut_inside_a_one_sided_record(copy, op, into):
    rank1 = sorted(copy.glob("*-0001.bin"))[0]
    data = rank1.read_bytes()
    label = LABEL[op].to_bytes(2, "big")
    at = data.index(label + bytes([data[data.index(label) + 2]]), 8)  # the first such record
    rank1.write_bytes(data[:at + into])
    handler = Collect()
    with pytest.raises(ReadError) as err:
        rt.decode(sorted(copy.glob("*.meta"))[0], handler)
    text = str(err.value)
    assert rank1.name in text and "byte" in text and "truncated" in text
    assert not any(int(b.rank[0]) == 1 for b in handler.batches if len(b))
    with pytest.raises(ReadError):
        gf.read_trace(copy)
