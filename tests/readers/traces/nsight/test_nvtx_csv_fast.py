"""The NVTX CSV decoder's column path (pandas' C reader) against its row-by-row path."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphframe_readers.traces as rt
from graphframe_readers import ReadError
from graphframe_readers.traces.nsight import csv_export
from graphframe_readers.traces.sources import MemorySource
from graphframe_readers.traces.table import TableBuilder

HEADER = "Start (ns),End (ns),Duration (ns),Name,PID,TID,NameTree\n"


def both_ways(data: bytes):
    """(events table by the column path or None when it declines, by the row path)."""
    dec = csv_export.NsightNvtxCsvDecoder()
    fast = None
    found = csv_export._fast_columns(data)
    if found is not None:
        h = TableBuilder()
        dec._decode_columns(found, "t.csv", h)
        h.on_end()
        fast = h.result()
    h = TableBuilder()
    dec._decode_rows(data, MemorySource(data, name="t.csv"), h)
    h.on_end()
    return fast, h.result()


NAMES = st.sampled_from(["main", "step", '"a, b"', '"say ""hi"""', "NA", "", "null", "é"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 30), NAMES,
                          st.sampled_from([(7, 7), (7, 8), (9, 9)])), max_size=25))
def test_the_column_path_gives_the_row_paths_table(rows):
    lines = [f"{s},{s + d},{d},{n},{p},{t},x\n" for s, d, n, (p, t) in rows]
    data = (HEADER + "".join(lines)).encode()
    fast, slow = both_ways(data)
    assert fast is not None  # well-formed input takes the column path
    assert fast.equals(slow)
    assert list(fast.dtypes) == list(slow.dtypes)


def test_the_names_stay_text_and_commas_inside_quotes_are_not_separators():
    data = (HEADER + '1,9,8,"f(int, int)",3,3,x\n2,3,1,NA,3,3,x\n').encode()
    fast, slow = both_ways(data)
    assert fast["name"].astype(str).tolist() == ["f(int, int)", "NA", "NA", "f(int, int)"]
    assert fast.equals(slow)


@pytest.mark.parametrize("text, position, problem", [
    # a row cut inside a column the decoder does not use is still a cut row
    (HEADER + "1,9,8,main,3,3,x\n2,3,1,f,3,3\n", "line 3", "a row of 6 fields"),
    (HEADER + "1,9,8,main,3,3,x,extra\n", "line 2", "a row of 8 fields"),
    (HEADER + "1,9,8,main,3,,x\n", "line 2", "cannot read row"),
    (HEADER + "1,9.5,8,main,3,3,x\n", "line 2", "cannot read row"),
])
def test_bad_rows_are_located_by_the_row_path(tmp_path, text, position, problem):
    path = tmp_path / "t.csv"
    path.write_text(text)
    assert csv_export._fast_columns(text.encode()) is None
    with pytest.raises(ReadError, match=problem) as err:
        rt.decode(path, TableBuilder(), format="nsight-nvtx-csv")
    assert err.value.position == position


def test_windows_line_ends_take_the_column_path():
    data = (HEADER + "1,9,8,main,3,3,x\n2,3,1,f,3,3,x\n").replace("\n", "\r\n").encode()
    fast, slow = both_ways(data)
    assert fast is not None and fast.equals(slow)
    assert fast["name"].astype(str).tolist() == ["main", "f", "f", "main"]


def test_invalid_utf8_in_an_unused_column_is_an_error(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(HEADER.encode() + b"1,9,8,main,3,3,\xff\n")
    with pytest.raises(ReadError, match="not valid UTF-8"):
        rt.decode(path, TableBuilder(), format="nsight-nvtx-csv")


def test_a_large_file_takes_the_column_path(monkeypatch):
    data = (HEADER + "1,9,8,main,3,3,x\n" * 40_000).encode()
    assert len(data) >= csv_export.COLUMN_PATH_BYTES
    seen = []
    monkeypatch.setattr(csv_export.NsightNvtxCsvDecoder, "_decode_rows",
                        lambda *a: seen.append("rows"))
    h = TableBuilder()
    csv_export.NsightNvtxCsvDecoder().decode(MemorySource(data, name="t.csv"), h)
    h.on_end()
    assert seen == [] and len(h.result()) == 80_000


@pytest.mark.parametrize("last, position, problem", [
    ("2,3,1,f,3,3\n", "line 40002", "a row of 6 fields"),  # cut in an unused column
    ("2,,1,f,3,3,x\n", "line 40002", "cannot read row"),
    ("2,3,1,f,3,3,\xff\n", "line 40002", "not valid UTF-8"),
])
def test_a_large_file_with_a_bad_row_is_an_error_at_its_line(tmp_path, last, position,
                                                             problem):
    path = tmp_path / "t.csv"
    text = HEADER + "1,9,8,main,3,3,x\n" * 40_000 + last
    path.write_bytes(text.encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff"))
    assert path.stat().st_size >= csv_export.COLUMN_PATH_BYTES
    with pytest.raises(ReadError, match=problem) as err:
        rt.decode(path, TableBuilder(), format="nsight-nvtx-csv")
    assert err.value.position.startswith(position)


def test_streams_out_of_order_keep_their_rows_order():
    data = (HEADER + "5,6,1,b,9,9,x\n1,2,1,a,7,7,x\n7,8,1,c,9,9,x\n").encode()
    fast, slow = both_ways(data)
    assert fast.equals(slow)
    assert fast["rank"].tolist() == [0, 0, 1, 1, 1, 1]   # pid 7 -> rank 0, pid 9 -> rank 1
    assert np.array_equal(fast["time"], [1, 2, 5, 6, 7, 8])
