"""A log file of one block is read whole into a padded buffer: the same events as the
block-by-block read of the same bytes, whatever its last line, bytes or size; and a GC
read does not go through pyarrow's pandas layer."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

from graphframe_readers.traces import FileSource, MemorySource, decode
from graphframe_readers.traces.jvmgc.lines import PAD, read_padded
from graphframe_readers.traces.jvmgc.table import GcTableBuilder
from tests.readers.traces.jvmgc.gclog import lines

ROOT = Path(__file__).resolve().parents[4]

PAUSE = "GC({i}) Pause Young (Allocation Failure) 32M->4M(123M) 5.303ms"
BODY = lines(
    "Using G1",
    "Heap Region Size: 1M",
    "GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
    "GC(0)   Pre Evacuate Collection Set: 0.1ms",
    "GC(0) Eden regions: 5->0(6)",
    "GC(0) Metaspace: 3821K(4480K)->3821K(4480K) NonClass: 3400K(3712K)->3400K(3712K) "
    "Class: 421K(768K)->421K(768K)",
    "GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(128M) 2.704ms",
    'Safepoint "G1CollectForAllocation", Time since last: 100 ns, Reaching safepoint: 20 ns, '
    "At safepoint: 30 ns, Total: 50 ns",
    "GC(1) Pause Full (System.gc()) 12M->3M(128M) 11.2ms",
)


def both_ways(tmp_path: Path, data: bytes):
    """(file read, memory read) of the same bytes: (events, metadata) each."""
    path = tmp_path / "gc.log"
    path.write_bytes(data)
    out = []
    for source in (FileSource(path), MemorySource(data, name=str(path), block_size=64)):
        b = GcTableBuilder()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = decode(source, b, format="jvm-gc")
        out.append((ev, b.definitions.metadata))
    return out


@pytest.mark.parametrize("tail", ["", "cut", "newline-less", "crlf", "non-ascii", "garbage"])
def test_the_whole_file_read_equals_the_block_read(tmp_path, tail):
    data = BODY.encode()
    if tail == "cut":
        data += lines(PAUSE.format(i=2)).encode()[:-12]
    elif tail == "newline-less":
        data += lines(PAUSE.format(i=2)).encode()[:-1]
    elif tail == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif tail == "non-ascii":
        data += lines("GC(2) Pause Young (Caus\u00e9) 32M->4M(123M) 5.303ms").encode()
    elif tail == "garbage":
        data += b"\xff\xfe\x00garbage\x9c\n" + lines(PAUSE.format(i=2)).encode()
    (ev_file, md_file), (ev_mem, md_mem) = both_ways(tmp_path, data)
    pd.testing.assert_frame_equal(ev_file, ev_mem, check_exact=True)
    assert md_file == md_mem
    assert len(ev_file) >= 6
    assert md_file["truncated_last_line"] is (tail in ("cut", "newline-less"))


def test_read_padded_puts_zeros_after_the_bytes(tmp_path):
    path = tmp_path / "x"
    path.write_bytes(b"[1.0s] a\n")
    with open(path, "rb") as fh:
        buf, n = read_padded(fh, 9)
    assert n == 9 and bytes(buf[:n + PAD]) == b"[1.0s] a\n" + b"\0" * PAD
    with open(path, "rb") as fh:  # a file shorter than said: zeros follow what was read
        buf, n = read_padded(fh, 20)
    assert n == 9 and bytes(buf[:n + PAD]) == b"[1.0s] a\n" + b"\0" * PAD


def test_a_read_keeps_nothing_of_the_buffer_the_next_read_reuses(tmp_path):
    big, small = tmp_path / "big.log", tmp_path / "small.log"
    big.write_text(BODY * 50)
    small.write_text(lines(PAUSE.format(i=7)))
    first = decode(FileSource(big), GcTableBuilder(), format="jvm-gc")
    kept = first.copy(deep=True)
    names = first["name"].astype(object).tolist()
    second = decode(FileSource(small), GcTableBuilder(), format="jvm-gc")
    third = decode(FileSource(small), GcTableBuilder(), format="jvm-gc")
    pd.testing.assert_frame_equal(first, kept, check_exact=True)
    assert first["name"].astype(object).tolist() == names
    pd.testing.assert_frame_equal(second, third, check_exact=True)
    assert second["gc_id"].tolist() == [7]


def test_a_file_that_grows_while_read_is_read_to_its_end(tmp_path, monkeypatch):
    from graphframe_readers.traces.jvmgc import decoder

    path = tmp_path / "gc.log"
    path.write_bytes(BODY.encode())
    real = decoder.read_padded

    def growing(fh, size):  # the JVM writes a line between the size and the read
        out = real(fh, size)
        with open(path, "ab") as more:
            more.write(lines(PAUSE.format(i=9)).encode())
        return out

    monkeypatch.setattr(decoder, "read_padded", growing)
    b = GcTableBuilder()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = decode(FileSource(path), b, format="jvm-gc")
    assert ev["gc_id"].tolist()[-1] == 9 and b.definitions.metadata["unparsed"]["count"] == 0


def test_a_file_larger_than_a_block_is_read_in_blocks(tmp_path):
    data = BODY.encode() * 40
    path = tmp_path / "gc.log"
    path.write_bytes(data)
    b = GcTableBuilder()
    ev = decode(FileSource(path, block_size=256), b, format="jvm-gc")
    whole = decode(FileSource(path), GcTableBuilder(), format="jvm-gc")
    pd.testing.assert_frame_equal(ev, whole, check_exact=True)
    assert (ev["name"] == "Pause Young").sum() == 40


def test_a_gc_read_does_not_load_pyarrows_pandas_layer(tmp_path):
    # its first use imports pyarrow.pandas_compat and parses pandas' version (~2.5 ms)
    path = tmp_path / "gc.log"
    path.write_text(BODY + lines("GC(3) Pause Young (Normal) (G1 Evacuation Pause)",
                                 "Total time for which application threads were stopped: "
                                 "0.0001 seconds, Stopping threads took: 0.00002 seconds",
                                 "CodeHeap 'non-profiled nmethods': size=120032Kb used=100Kb "
                                 "max_used=100Kb free=119932Kb",
                                 "Metaspace: 3M used, 4M capacity, 4M committed, 8M reserved"))
    code = ("import sys, warnings\nwarnings.simplefilter('ignore')\nimport graphframe\n"
            f"tf = graphframe.read_trace({str(path)!r})\n"
            "ev = tf.gc.events\nassert len(ev) >= 8, len(ev)\n"
            "print('pyarrow.pandas_compat' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False"]


OCCUPANCY = (
    "[2.432s][debug][compilation,codecache] CodeHeap 'non-profiled nmethods': "
    "size=2272Kb used=207Kb max_used=207Kb free=2064Kb\n"
    "[2.433s][debug][codecache,sweep,start] CodeCache flushing\n"
    "[0.507s][info][gc,metaspace] GC(0) Metaspace: 3821K used, 4480K committed, 13056K reserved\n"
    "[0.508s][info][gc,metaspace] GC(0) Metaspace: 3M used, 4M capacity, 4M committed, "
    "8M reserved\n"
    "[1.507s][info][gc,metaspace] GC(1) Class space: 896M used, 964M committed, 1059M reserved\n"
    "[1.508s][info][gc,heap] GC(1)  ZHeap           used 46M, capacity 256M, max capacity 256M\n"
    "[1.509s][info][gc,heap] GC(1) Heap: 256M reserved, 256M (100.00%) committed, "
    "52736K (20.12%) used\n"
    "[1.510s][info][gc,heap] GC(1) Metaspace: 1M used but not a figure\n"
    "[3.0s][info][gc,heap,exit] Heap\n"
    "[3.0s][info][gc,heap,exit]  garbage-first heap   total 131072K, used 68000K "
    "[0x00000000f8000000, 0x0000000100000000)\n"
    "[3.0s][info][gc,heap,exit]  Metaspace       used 1234K, committed 1300K, reserved "
    "1056768K\n"
    "[3.0s][info][gc,heap,exit]   class space    used 57K, committed 128K, reserved 1048576K\n"
    "[3.1s][info][gc,heap] Heap: 256M reserved, 256M (100.00%) committed, 1.5G (20.12%) used\n"
    "[3.2s][info][gc,heap] Heap: 1M reserved, but used elsewhere\n")


def test_few_occupancy_lines_read_in_python_equal_the_columnar_route(monkeypatch):
    from graphframe_readers.traces.jvmgc import parse
    from tests.readers.traces.jvmgc.gclog import read

    few, few_md = read(OCCUPANCY * 3)
    monkeypatch.setattr(parse, "SMALL", 0)  # every line through the columnar route
    columnar, columnar_md = read(OCCUPANCY * 3)
    pd.testing.assert_frame_equal(few, columnar, check_exact=True)
    assert few_md == columnar_md
    assert set(few["event_type"]) == {"codecache", "metaspace", "heap"}
    assert (few["name"] == "ZHeap").sum() == 3 and len(few) == 3 * 11
