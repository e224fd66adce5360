"""Bad input: truncated lines, garbage bytes, other formats, too little understood,
rotated parts, a file still being written."""

from __future__ import annotations

import threading
import time
import warnings
from pathlib import Path

import pytest

from graphframe_readers.errors import ReadError, UnknownFormatError
from graphframe_readers.traces import FollowSource, MemorySource, decode, sniff_trace
from graphframe_readers.traces.jvmgc import GcLogWarning, JvmGcDecoder, RotatedSource
from graphframe_readers.traces.jvmgc.table import GcTableBuilder
from tests.readers.traces.jvmgc.gclog import lines, read

PAUSE = "GC({i}) Pause Young (Allocation Failure) 32M->4M(123M) 5.303ms"


def test_truncated_last_line_is_counted_not_half_read():
    text = lines(PAUSE.format(i=0), PAUSE.format(i=1))
    cut = text[:-12]  # "...(123M) 5.3" without its unit and newline
    ev, md = read(cut)
    assert ev["gc_id"].tolist() == [0]
    assert md["truncated_last_line"] is True
    assert md["unparsed"]["count"] == 1 and md["unparsed"]["gc_lines"] == 1
    assert md["unparsed"]["examples"][0][:2] == ["gc.log", 2]


def test_a_complete_last_line_without_newline_is_still_reported_as_truncated():
    ev, md = read(lines(PAUSE.format(i=0), PAUSE.format(i=1))[:-1])
    assert ev["gc_id"].tolist() == [0] and md["truncated_last_line"] is True


def test_garbage_bytes_make_an_unparsed_line():
    good = lines(PAUSE.format(i=0)).encode()
    data = good + b"\xff\xfe\x00garbage\x9c\n" + good.replace(b"GC(0)", b"GC(1)")
    ev, md = read(data)
    assert ev["gc_id"].tolist() == [0, 1]
    assert md["unparsed"]["count"] == 1
    assert md["unparsed"]["examples"][0][1] == 2


@pytest.mark.parametrize("gc_id, read_as", [
    ("7", 7), ("0007", 7), ("123456789012345678", 123456789012345678),
    ("1234567890123456789", 1234567890123456789),  # 19 digits: read byte by byte
    ("0x12", None), ("0X12", None), ("1a", None), ("1 2", None), ("+5", None), ("-5", None),
    ("", None), ("1_2", None), ("12345678901234567890", None)])
def test_gc_ids_are_plain_decimal_digits(gc_id, read_as):
    # a GC id is 1 to 19 decimal digits; anything else leaves the line not understood
    ev, md = read(lines(PAUSE.format(i=0).replace("GC(0)", f"GC({gc_id})"),
                        PAUSE.format(i=1)))
    if read_as is None:
        assert ev["gc_id"].tolist() == [1]
        assert md["unparsed"]["count"] == 1
    else:
        assert ev["gc_id"].tolist() == [read_as, 1]
        assert md["unparsed"]["count"] == 0


def test_broken_gc_line_is_kept_with_its_line_number_and_warns():
    text = lines(PAUSE.format(i=0), "GC(1) Pause Young (Allocation Failure) 32M->4M(123M) 5.3",
                 "GC(2) something nobody logs 12 apples")
    b = GcTableBuilder()
    with pytest.warns(GcLogWarning, match="33% of the GC lines were understood"):
        decode(MemorySource(text.encode(), name="x.log"), b, format="jvm-gc")
    md = b.definitions.metadata
    assert md["unparsed"]["count"] == 2
    assert [(e[1], e[2][-13:]) for e in md["unparsed"]["examples"]] == [
        (2, ">4M(123M) 5.3"), (3, "ogs 12 apples")]
    assert md["understood"] == pytest.approx(1 / 3)


def test_another_format_is_not_sniffed_and_forced_is_a_located_read_error(tmp_path):
    p = tmp_path / "trace.json"
    p.write_text('[{"ph": "X", "name": "f", "pid": 0, "tid": 0, "ts": 1, "dur": 2}]')
    assert sniff_trace(p) == "chrome"
    assert not JvmGcDecoder.sniff(p, p.read_bytes())
    with pytest.raises(ReadError) as err:
        decode(p, GcTableBuilder(), format="jvm-gc")
    assert str(err.value) == (f"{p}: line 1: no line of a unified-logging GC log (expected "
                              "lines such as '[0.123s][info][gc] GC(0) Pause Young ...')")


def test_binary_garbage_is_not_a_gc_log(tmp_path):
    p = tmp_path / "gc.log"
    p.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(UnknownFormatError):
        sniff_trace(p)


def test_gc_log_is_sniffed(tmp_path):
    p = tmp_path / "whatever.txt"
    p.write_text(lines(PAUSE.format(i=0)))
    assert sniff_trace(p) == "jvm-gc"
    q = tmp_path / "levelfirst.txt"
    q.write_text("[info][gc][0.5s] " + PAUSE.format(i=0) + "\n")
    assert sniff_trace(q) == "jvm-gc"


def test_missing_file_is_a_read_error(tmp_path):
    with pytest.raises(ReadError, match="cannot open the file"):
        decode(tmp_path / "none.log", GcTableBuilder(), format="jvm-gc")


def test_rotated_parts_read_as_one_log_gc_id_continuing():
    part0 = ("[0.1s][info][gc] Heap Region Size: 2M\n[0.1s][info][gc] Using G1\n"
             "[1.0s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause)\n"
             "[1.0s][info][gc,phases] GC(7)   Evacuate Collection Set: 1.0ms\n")
    part1 = ("[1.0s][info][gc] GC(7) Eden regions: 3->0(4)\n"
             "[1.0s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) "
             "8M->2M(64M) 1.5ms\n")
    src = RotatedSource([MemorySource(part0.encode(), name="gc.log.0"),
                         MemorySource(part1.encode(), name="gc.log.1")], label="gc.log")
    b = GcTableBuilder()
    ev = decode(src, b, format="jvm-gc")
    md = b.definitions.metadata
    assert md["parts"] == ["gc.log.0", "gc.log.1"] and md["collector"] == "G1"
    assert ev[["gc_id", "name", "line"]].values.tolist() == [
        [7, "Evacuate Collection Set", 4], [7, "Eden regions", 1], [7, "Pause Young", 2]]
    assert ev["heap_before"].tolist()[1] == 6 * 2 ** 20  # the region size of part 0
    assert ev["log"].unique().tolist() == ["gc.log"]


def test_rotated_files_in_a_folder(tmp_path):
    (tmp_path / "gc.log.1").write_text(lines(PAUSE.format(i=1)))
    (tmp_path / "gc.log.0").write_text(lines(PAUSE.format(i=0)))
    (tmp_path / "other.log").write_text(lines(PAUSE.format(i=5)))
    (tmp_path / "notes.txt").write_text("not a log\n")
    b = GcTableBuilder()
    ev = decode(tmp_path, b, format="jvm-gc")
    assert ev[["log", "gc_id"]].values.tolist() == [["gc.log", 0], ["gc.log", 1],
                                                     ["other.log", 5]]
    assert sorted(b.definitions.metadata["logs"]) == ["gc.log", "other.log"]


def test_follow_a_log_being_written(tmp_path):
    p = tmp_path / "live.log"
    p.write_text(lines(PAUSE.format(i=0)))

    def writer():
        time.sleep(0.2)
        with open(p, "a") as fh:
            fh.write(lines(PAUSE.format(i=1)))

    t = threading.Thread(target=writer)
    t.start()
    src = FollowSource(p, poll_interval=0.05, idle_timeout=0.6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = decode(src, GcTableBuilder(), format="jvm-gc")
    t.join()
    assert ev["gc_id"].tolist() == [0, 1]


@pytest.mark.parametrize("text", ["", "$ java -Xlog:gc -jar app.jar\nbanner only\n"])
def test_empty_or_banner_only_is_a_located_read_error(tmp_path, text):
    p = tmp_path / "gc.log"
    p.write_text(text)
    with pytest.raises(ReadError, match="line 1: no line of a unified-logging GC log"):
        decode(p, GcTableBuilder(), format="jvm-gc")


def test_lines_with_other_decorators_count_as_gc_lines_not_understood():
    text = lines(PAUSE.format(i=0)) + "[2026-12-01T10:00:00.000+0000][info] " + \
        PAUSE.format(i=1) + "\n"
    b = GcTableBuilder()
    with pytest.warns(GcLogWarning, match="50% of the GC lines"):
        ev = decode(MemorySource(text.encode(), name="x.log"), b, format="jvm-gc")
    assert ev["gc_id"].tolist() == [0]
    assert b.definitions.metadata["unparsed"]["gc_lines"] == 1
